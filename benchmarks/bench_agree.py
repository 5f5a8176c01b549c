"""Benchmark the differential check (``assert_agrees``): N examples of a correct Nogueira
estimator through a Python function against the same through a command in R, Perl and jq
(one long-running process each, ``propstab.testing.command``), in the same run.

Every row checks the same cases (same seed) and must agree; the time of each is the wall
time of ``agreement(...)`` (the command's start included) and the CPU time of this process
and of the command's, the best of ``--repeat`` runs.
The command's process's CPU time is read from ``getrusage(RUSAGE_CHILDREN)`` once it has
ended. The load average is printed, since other processes inflate the wall time: on a
loaded machine compare the CPU columns.

Run:  /usr/bin/python3 benchmarks/bench_agree.py              (1,000 examples, 3 repeats)
      /usr/bin/python3 benchmarks/bench_agree.py --quick      (50 examples, 1 repeat)
"""
from __future__ import annotations

import argparse
import os
import pathlib
import resource
import shutil
import time

from propstab.testing import agreement, command

ADAPTERS = pathlib.Path(__file__).resolve().parents[1] / "docs" / "adapters"
COMMANDS = {
    "Rscript (one process)": ["Rscript", str(ADAPTERS / "nogueira.R")],
    "perl (one process)": ["perl", str(ADAPTERS / "nogueira.pl")],
    "jq (one process)": ["jq", "-c", "--unbuffered", "-f", str(ADAPTERS / "nogueira.jq")],
}


def nogueira(Z):
    M, d = Z.shape
    k = Z.sum() / M / d
    if k in (0, 1):
        return None
    return 1 - Z.var(axis=0, ddof=1).mean() / (k * (1 - k))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(make, n: int):
    """(wall, CPU of this process, CPU of the command's process) of one check."""
    start, cpu, child = time.perf_counter(), time.process_time(), _children_cpu()
    with make() as f:
        result = agreement(f, "nogueira", max_examples=n)
    assert result.agrees and result.n_examples == n, result
    return (time.perf_counter() - start, time.process_time() - cpu, _children_cpu() - child)


class _Plain:
    def __enter__(self):
        return nogueira

    def __exit__(self, *exc):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, repeat = (50, 1) if args.quick else (args.examples, args.repeat)
    rows = [("Python function", _Plain)]
    rows += [
        (label, (lambda argv=argv: command(argv)))
        for label, argv in COMMANDS.items()
        if shutil.which(argv[0])
    ]
    print(
        f"{n} examples of nogueira, best of {repeat}; load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(
        f"{'implementation':<24} {'wall s':>7} {'cpu s python':>13} {'cpu s command':>14} "
        f"{'cpu x Python':>13}"
    )
    base = None
    for label, make in rows:
        runs = [timed(make, n) for _ in range(repeat)]
        wall = min(r[0] for r in runs)
        cpu, child = min((r[1] + r[2], r) for r in runs)[1][1:]
        base = base or cpu + child
        print(
            f"{label:<24} {wall:>7.2f} {cpu:>13.2f} {child:>14.2f} "
            f"{(cpu + child) / base:>13.2f}"
        )


if __name__ == "__main__":
    main()
