"""The suite cannot hang: a test that never ends is stopped by the suite's timeout
(pytest-timeout, configured in pyproject.toml, with the root conftest.py's hook), which
names the test, prints where it was stuck and kills the process groups of the children
it started through tests/shared.py; a child that outlives its timeout is killed with its
whole group."""
import os
import pathlib
import subprocess
import sys
import textwrap
import time

import pytest

import shared

ROOT = pathlib.Path(__file__).resolve().parents[1]

_HANGING = """
import pathlib
import sys
import time

sys.path.insert(0, {tests!r})
import shared


def stuck_here():
    time.sleep(600)


def test_waits_for_ever():
    with shared.started(["sleep", "600"]) as child:
        pathlib.Path({pidfile!r}).write_text(str(child.pid))
        stuck_here()


def test_after_it():
    pass
"""


def _state(pid):
    """The state letter of ``pid`` in /proc (None when it is gone)."""
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return None


def test_a_hanging_test_is_stopped_naming_it_with_its_stack_and_its_children_killed(tmp_path):
    """A throwaway suite (the root conftest.py and a test that sleeps for ever after
    starting a child) run with a 2 s timeout: it ends within seconds, not 600 s, with
    the test's id, the stack down to the line where it waited, and its child killed."""
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    pidfile = tmp_path / "child.pid"
    (suite / "test_hangs.py").write_text(
        textwrap.dedent(_HANGING).format(tests=str(ROOT / "tests"), pidfile=str(pidfile))
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env["PYTHONPATH"] = str(ROOT)
    start = time.monotonic()
    out = shared.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--timeout",
            "2",
            "-o",
            "timeout_method=thread",
            "test_hangs.py",
        ],
        cwd=suite,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    seconds = time.monotonic() - start
    shown = out.stdout + out.stderr
    assert out.returncode == 1 and seconds < 60, (seconds, shown)
    assert "Timeout: test_hangs.py::test_waits_for_ever ran longer than 2.0 s" in shown, shown
    assert "Stack of MainThread" in shown, shown
    assert "in stuck_here\n    time.sleep(600)" in shown, shown
    assert "test_after_it" not in shown  # the process ended at the timeout
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 10
    while _state(child) not in (None, "Z") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _state(child) in (None, "Z"), f"the hanging test's child {child} still runs"


def test_a_child_past_its_timeout_is_killed_with_its_whole_group(tmp_path):
    """shared.run: a shell whose own child holds the pipes (as R's and make's do) is
    killed with that child when the timeout expires, and the output so far comes back;
    subprocess.run would kill the shell alone and leave the grandchild running."""
    script = f"echo started; sleep 600 & echo $! > {tmp_path / 'grandchild'}; wait"
    start = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired) as expired:
        shared.run(["bash", "-c", script], capture_output=True, text=True, timeout=1)
    assert time.monotonic() - start < 30
    assert expired.value.stdout == "started\n"
    grandchild = int((tmp_path / "grandchild").read_text())
    deadline = time.monotonic() + 10
    while _state(grandchild) not in (None, "Z") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _state(grandchild) in (None, "Z")
    done = shared.run(
        ["bash", "-c", "echo out; echo err >&2; exit 3"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (done.returncode, done.stdout, done.stderr) == (3, "out\n", "err\n")
    with pytest.raises(subprocess.CalledProcessError):
        shared.run(["false"], timeout=30, check=True)
