"""How far stabs's r-concave bound falls short of the maximum it defines, over a grid.

docs/stability_selection.md ("Differences with stabs", kind 1) explains why stabs's
numerical maximisation (``optimize()`` at tolerance eps^(1/4) on the family parameter)
stops short of the supremum D it defines, which propstab computes to rounding. This
script measures the relative shortfall propstab / stabs - 1 of the bound
E(V) <= p min{1, D_pairs, D_singles} with the cutoff and q given, on a grid wider than
the pinned one (r_compat/stabs_reference.json), and prints the largest ones with their
inputs. It needs R with stabs (through rpy2).

    /usr/bin/python3 studies/stabs_shortfall.py            # the full grid (minutes)
    /usr/bin/python3 studies/stabs_shortfall.py --quick    # a few cases (seconds)
"""
from __future__ import annotations

import argparse
import itertools
import math
import sys
import time

GRID = dict(
    p=(10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000),
    B=(10, 25, 50, 100),
    cutoff=(0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0),
    q=(1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000),
)
QUICK = dict(p=(100, 1000), B=(50,), cutoff=(0.9, 1.0), q=(10, 50))


def cases(grid):
    from propstab.stability_selection._error_control import _rconcave_max_q

    for p, B, cutoff, q in itertools.product(grid["p"], grid["B"], grid["cutoff"], grid["q"]):
        if q <= _rconcave_max_q(p, B) and cutoff > q / p:
            yield p, B, cutoff, q


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few cases only")
    parser.add_argument("--top", type=int, default=10, help="the largest shortfalls shown")
    args = parser.parse_args(argv)
    from rpy2 import robjects
    from propstab.error_control import error_control

    parameters = robjects.r(
        "function(p, B, cutoff, q) stabs::stabsel_parameters(p = p, "
        "B = B, cutoff = cutoff, q = q, sampling.type = 'SS', "
        "assumption = 'r-concave')$specifiedPFER"
    )
    grid = QUICK if args.quick else GRID
    rows, start = [], time.time()
    for p, B, cutoff, q in cases(grid):
        theirs = float(parameters(p, B, cutoff, q)[0])
        ours = error_control(
            p, cutoff=cutoff, q=q, assumption="r-concave", n_subsamples=B
        ).specified_PFER
        rows.append((ours / theirs - 1 if theirs > 0 else math.nan, p, B, cutoff, q, ours, theirs))
    rows.sort(key=lambda r: -r[0] if not math.isnan(r[0]) else math.inf)
    below = sum(r[0] < -1e-12 for r in rows)
    print(
        f"stabs 0.7.1 r-concave bound against propstab's, {len(rows)} cases "
        f"(p in {grid['p']}, B in {grid['B']}, cutoff in {grid['cutoff']}, "
        f"q in {grid['q']}), {time.time() - start:.0f} s"
    )
    print(
        f"largest shortfall of stabs: {100 * rows[0][0]:.2f} % (propstab / stabs - 1); "
        f"cases where stabs's bound exceeds propstab's: {below}"
    )
    print(
        f"{'shortfall %':>11}  {'p':>6}  {'B':>4}  {'cutoff':>6}  {'q':>5}  "
        f"{'propstab':>12}  {'stabs':>12}"
    )
    for gap, p, B, cutoff, q, ours, theirs in rows[: args.top]:
        print(
            f"{100 * gap:11.3f}  {p:6d}  {B:4d}  {cutoff:6.2f}  {q:5d}  {ours:12.6g}  "
            f"{theirs:12.6g}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
