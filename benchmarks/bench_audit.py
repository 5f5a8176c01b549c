"""Benchmark the axiom audit (``propstab audit``): wall and CPU time against a baseline
measured in the same run.

Each audit runs in a fresh subprocess (imports included, as ``propstab audit`` pays them),
its CPU time read from ``getrusage`` of the finished children (user + system, its worker
processes included), and prints the table as JSON, so that every run is checked to give
the same rows (verdicts, counterexamples, values, expectations):

- **baseline**: one process, without the reuse across searches
  (``propstab.auditing._subjects.REUSE`` off: no memoised lambda descriptions of Hypothesis,
  no replayed examples, no memoised values of a registered measure on a matrix met
  again), i.e. the audit as it was searched before that reuse;
- **serial**: one process, with the reuse (the default);
- **parallel, loky**: ``--jobs`` worker processes (default 2), the longest checks first,
  started by joblib's loky (a new interpreter each, importing propstab; the tasks
  pickled to them): the audit on a platform without ``fork``;
- **parallel**: the same, the workers forked from the auditing process (Linux: they
  start with propstab imported and inherit the checks), as ``propstab audit`` runs.

The ratios printed are each time over the baseline's (CPU and wall). The goal of issue 24
is 30 s of wall time on 2 cores (about 55 s of CPU split evenly on 2 processes); the load
average is printed with each run, because other processes inflate the wall time.

Run:  /usr/bin/python3 benchmarks/bench_audit.py             (the whole audit: minutes)
      /usr/bin/python3 benchmarks/bench_audit.py --quick     (3 measures, 20 examples: seconds)
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

QUICK_MEASURES = ("jaccard", "msi", "spearman")

DRIVER = r"""
import json, sys
import propstab.auditing._subjects as subjects
from propstab.auditing import audit
reuse, jobs, max_examples, measures, fork = json.loads(sys.argv[1])
subjects.REUSE[0] = reuse
table = audit(measures or None, max_examples=max_examples, n_jobs=jobs, progress=False,
              backend=None if fork else "loky")   # loky: the workers of other platforms
print(table.to_json())
"""


def run_audit(reuse: bool, jobs: int, max_examples: int, measures, fork: bool = True) -> dict:
    """One audit in a subprocess: wall seconds, CPU seconds (its children included), rows."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            DRIVER,
            json.dumps([reuse, jobs, max_examples, list(measures), fork]),
        ],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(f"the audit failed:\n{out.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "load": load, "rows": json.loads(out.stdout)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"only {', '.join(QUICK_MEASURES)} at 20 examples per check",
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes of the parallel run")
    parser.add_argument(
        "--max-examples",
        type=int,
        default=None,
        help="Hypothesis examples per check (default 200, 20 with --quick)",
    )
    args = parser.parse_args(argv)
    measures = QUICK_MEASURES if args.quick else ()
    max_examples = args.max_examples or (20 if args.quick else 200)

    print(
        f"propstab audit: {'the measures ' + ', '.join(measures) if measures else 'every measure'}"
        f", {max_examples} examples per check, {os.cpu_count()} CPUs"
    )
    runs = [
        ("baseline (one process, no reuse)", False, 1, True),
        ("serial (one process)", True, 1, True),
        (f"parallel, loky ({args.jobs} processes)", True, args.jobs, False),
        (f"parallel ({args.jobs} processes)", True, args.jobs, True),
    ]
    results = []
    for label, reuse, jobs, fork in runs:
        r = run_audit(reuse, jobs, max_examples, measures, fork)
        results.append((label, r))
    base = results[0][1]
    print(
        f"{'run':<34} {'wall s':>8} {'cpu s':>8} {'wall/base':>10} {'cpu/base':>9} " f"{'load':>5}"
    )
    for label, r in results:
        print(
            f"{label:<34} {r['wall']:>8.1f} {r['cpu']:>8.1f} {r['wall'] / base['wall']:>10.2f} "
            f"{r['cpu'] / base['cpu']:>9.2f} {r['load']:>5.1f}"
        )
    same = all(r["rows"] == base["rows"] for _, r in results)
    print(
        f"rows: {len(base['rows'])} checks; every run gives the same rows "
        f"(verdicts, counterexamples, values): {'yes' if same else 'NO'}"
    )
    parallel = results[-1][1]
    if not measures and max_examples == 200:
        ok = parallel["wall"] <= 30
        print(
            f"target: parallel wall {parallel['wall']:.1f} s {'<=' if ok else '>'} 30 s "
            f"{'met' if ok else 'MISSED'} (load average {parallel['load']:.1f})"
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
