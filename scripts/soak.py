"""Soak the risky tests: run the dask, fork, Ctrl-C and Chromium tests many times in a
row, serially and under ``-n 2`` in turn, and report every hang and every flake.

A *hang* is a run stopped by a timeout: a test past the suite's timeout (the root
conftest.py prints ``Timeout: <test id>``; under ``-n 2`` xdist reports the worker's
crash naming the test) or a whole run past ``--run-timeout`` (its process group is killed).
A *flake* is a test that failed in some runs and passed in others; a test that failed
in every run of a mode is reported as failing. Each run's output is kept in ``--out``.

Usage (the full soak; nice it on a shared machine)::

    nice -n 10 /usr/bin/python3 scripts/soak.py --runs 30
    nice -n 10 /usr/bin/python3 scripts/soak.py --runs 30 --until 13:40   # stop starting runs then

Exit status 0 when no run hung and no test failed, else 1.
"""
from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: The soaked tests, by the risk they carry.
TARGETS = {
    # a LocalCluster of worker processes per module (and one of threads), the audit on it,
    # forked workers (a recorder lock held at the fork, a worker killed), Ctrl-C to a
    # process group, a killed process resumed from its checkpoint
    "dask, fork, Ctrl-C": [
        "tests/test_execution.py",
        "tests/test_resampling.py::test_dask_distributed_backend_on_a_local_cluster",
        "tests/test_bench_execution_quick.py",
    ],
    "fork": ["tests/test_bench_audit_quick.py"],
    "Ctrl-C": [
        "tests/test_cli_errors.py::test_ctrl_c_on_a_parallel_audit_is_one_line_and_status_130"
    ],
    # one headless Chromium per pytest process, driven through chromedriver
    "Chromium": [
        "tests/test_docs_site.py::test_browser_check_finds_a_broken_page",
        "tests/test_docs_site.py::test_site_audit_finds_each_kind_of_problem",
    ],
    # the suite's timeout itself: a hanging throwaway test stopped in seconds
    "timeouts": ["tests/test_suite_timeouts.py"],
}

MODES = {"serial": [], "-n 2": ["-n", "2"]}

_RESULT = re.compile(r"^(PASSED|FAILED|ERROR) (\S+)", re.M)
_TIMEOUT = re.compile(r"^Timeout: (\S+) ran longer than", re.M)
_CRASH = re.compile(r"worker '\w+' crashed while running '([^']+)'")
#: pytest-timeout's signal method (a test run without the suite's configuration): the
#: failure's section header, then its "Failed: Timeout >N s" line
_SIGNALLED = re.compile(r"^_+ (\S+) _+$(?:(?!^_+ \S+ _+$).)*?^E\s+Failed: Timeout >", re.M | re.S)


#: In the environment of every process of a run (pytest, its workers, and what they
#: start), so that the run's leftovers are found even in sessions of their own.
MARKER = "PROPSTAB_SOAK_RUN"

#: How long a run's remaining processes may take to end by themselves once pytest has
#: exited (a resource tracker of multiprocessing or loky reads the end of its pipe and
#: then cleans up, after its last user has gone): only what still runs after this was
#: left behind.
GRACE_SECONDS = 10.0


def marked(value):
    """The processes whose environment has ``MARKER=value`` (this script excepted)."""
    import psutil

    found = []
    for process in psutil.process_iter():
        try:
            if process.pid != os.getpid() and process.environ().get(MARKER) == value:
                found.append(process)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            pass
    return found


def kill_marked(value, grace=GRACE_SECONDS):
    """SIGKILL every process whose environment has ``MARKER=value`` and that is still
    running ``grace`` seconds from now: what a run left behind, its children in process
    groups of their own included (chromedriver and Chromium, the tests' children), which
    killing the run's group would miss. What was killed: one line a process (its pid,
    its parent's pid and its command line)."""
    import psutil

    _, alive = psutil.wait_procs(marked(value), timeout=grace)
    killed = []
    for process in alive:
        try:
            what = (
                f"pid {process.pid} (parent {process.ppid()}): "
                + " ".join(process.cmdline())[:300]
            )
            process.kill()
            killed.append(what)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            pass
    return killed


def _kill_group(pgid):
    try:  # the run's group: pytest and its children
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_once(targets, mode, timeout, run_timeout, log):
    """One pytest run of ``targets`` in ``mode``: (seconds, return code, {test id:
    outcome}, [tests stopped by a timeout], whole run killed?)."""
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "-q",
        "-rA",
        f"--timeout={timeout}",
        *MODES[mode],
        *targets,
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env[MARKER] = f"{os.getpid()}-{time.monotonic_ns()}"
    start = time.monotonic()
    killed = False
    with open(log, "w") as out:
        out.write(" ".join(argv) + "\n")
        out.flush()
        child = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            child.wait(timeout=run_timeout)
        except subprocess.TimeoutExpired:
            killed = True
        finally:
            if killed or child.poll() is None:  # a run past its limit (or interrupted)
                _kill_group(child.pid)
            child.wait()
            # what still runs GRACE_SECONDS after pytest's exit, in its group or not
            left = kill_marked(env[MARKER])
            _kill_group(child.pid)  # and any process of the group without the marker
            if left:
                out.write(f"\nsoak: killed {len(left)} processes the run left behind\n")
                out.writelines(f"soak: left behind: {what}\n" for what in left)
    seconds = time.monotonic() - start
    text = pathlib.Path(log).read_text(errors="replace")
    outcomes = {test: kind for kind, test in _RESULT.findall(text)}
    stopped = set(_TIMEOUT.findall(text)) | set(_CRASH.findall(text))
    for name in _SIGNALLED.findall(text):  # a test's name: its id among the outcomes
        stopped |= {test for test in outcomes if test.endswith("::" + name)} or {name}
    stopped = sorted(stopped)
    for test in stopped:
        outcomes[test] = "TIMEOUT"
    return seconds, child.returncode, outcomes, stopped, killed, left


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="runs of each mode (30)")
    parser.add_argument(
        "--modes",
        default="serial,-n 2",
        help="comma-separated modes among 'serial' and '-n 2' (both)",
    )
    parser.add_argument(
        "--timeout",
        type=int,
        default=300,
        help="pytest-timeout's limit per test, seconds (300, the suite's)",
    )
    parser.add_argument(
        "--run-timeout", type=int, default=1800, help="limit of one whole run, seconds (1800)"
    )
    parser.add_argument(
        "--until", metavar="HH:MM", help="start no run after this time of day (UTC, as `date -u`)"
    )
    parser.add_argument(
        "--out",
        type=pathlib.Path,
        help="folder of the runs' logs (a new temporary one by default)",
    )
    parser.add_argument(
        "targets", nargs="*", help="test modules or ids instead of the soaked ones"
    )
    args = parser.parse_args(argv)
    # stopped (kill PID): the run under way is killed with its process group on the way out
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    modes = [m.strip() for m in args.modes.split(",")]
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        parser.error(f"--modes: must be among {sorted(MODES)}; got {unknown}")
    targets = args.targets or [t for group in TARGETS.values() for t in group]
    out = args.out or pathlib.Path(tempfile.mkdtemp(prefix="propstab-soak-"))
    out.mkdir(parents=True, exist_ok=True)
    deadline = None
    if args.until:
        now = datetime.datetime.now(datetime.timezone.utc)
        hours, minutes = map(int, args.until.split(":"))
        deadline = now.replace(hour=hours, minute=minutes, second=0, microsecond=0)
    print(
        f"soak: {args.runs} runs of each of {modes} (modes in turn), logs in {out}\n"
        f"soak: {' '.join(targets)}",
        flush=True,
    )
    history = {mode: collections.defaultdict(list) for mode in modes}
    runs = {mode: [] for mode in modes}
    for k in range(1, args.runs + 1):
        for mode in modes:
            if deadline and datetime.datetime.now(datetime.timezone.utc) >= deadline:
                break
            log = out / f"run-{k:02d}-{'n2' if mode != 'serial' else 'serial'}.log"
            seconds, code, outcomes, stopped, killed, left = run_once(
                targets, mode, args.timeout, args.run_timeout, log
            )
            for test, outcome in outcomes.items():
                history[mode][test].append(outcome)
            bad = sorted(t for t, o in outcomes.items() if o != "PASSED")
            runs[mode].append(
                dict(
                    run=k,
                    seconds=round(seconds, 1),
                    status=code,
                    tests=len(outcomes),
                    not_passed=bad,
                    stopped=stopped,
                    killed=killed,
                    left_behind=left,
                    log=str(log),
                )
            )
            print(
                f"run {k:2d} {mode:6s} {seconds:6.1f} s  status {code}  "
                f"{len(outcomes)} tests  "
                + (
                    "ok"
                    if not bad and not killed and code == 0 and not left
                    else f"NOT OK: {bad}{' (run killed)' if killed else ''}"
                    + (f" ({len(left)} processes left behind)" if left else "")
                ),
                flush=True,
            )
        else:
            continue
        break
    report = {"targets": targets, "logs": str(out), "modes": {}}
    failed = False
    for mode in modes:
        hangs = [r for r in runs[mode] if r["stopped"] or r["killed"]]
        flaky, failing = {}, {}
        for test, seen in history[mode].items():
            bad = [o for o in seen if o != "PASSED"]
            if bad and len(bad) < len(seen):
                flaky[test] = f"{len(bad)} of {len(seen)} runs: {sorted(set(bad))}"
            elif bad:
                failing[test] = f"all {len(seen)} runs: {sorted(set(bad))}"
        unexplained = [
            r["run"]
            for r in runs[mode]
            if r["status"] != 0 and not r["not_passed"] and not r["killed"]
        ]
        leaks = [
            dict(run=r["run"], processes=r["left_behind"]) for r in runs[mode] if r["left_behind"]
        ]
        report["modes"][mode] = dict(
            runs=len(runs[mode]),
            seconds=[r["seconds"] for r in runs[mode]],
            hangs=[dict(run=r["run"], tests=r["stopped"], killed=r["killed"]) for r in hangs],
            flaky=flaky,
            failing=failing,
            other_nonzero_status=unexplained,
            left_behind=leaks,
        )
        failed |= bool(hangs or flaky or failing or unexplained or leaks)
        secs = [r["seconds"] for r in runs[mode]] or [0]
        print(
            f"\nsoak {mode}: {len(runs[mode])} runs, {min(secs):.0f} to {max(secs):.0f} s "
            f"each; hangs {len(hangs)}; flaky tests {len(flaky)}; failing tests "
            f"{len(failing)}; other non-zero exits {len(unexplained)}; runs that left "
            f"processes behind {len(leaks)}"
        )
        for name, found in (
            ("hang", hangs),
            ("flaky", flaky),
            ("failing", failing),
            ("left behind", leaks),
        ):
            for item in found if isinstance(found, list) else found.items():
                print(f"  {name}: {item}")
    (out / "summary.json").write_text(json.dumps(report, indent=1))
    print(f"\nsoak: summary in {out / 'summary.json'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
