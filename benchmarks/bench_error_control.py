"""Benchmark error control (``propstab.selection.error_control``) as p grows.

The Meinshausen-Buhlmann and unimodal bounds are closed forms; the r-concave bound is
p min{1, D_pairs, D_singles}, each D a maximum over an extremal path on {0..B} or
{0..2B} (docs/stability_selection.md), O(B^2) work that does not depend on p. stabs
derives q by walking q = 1, 2, ... and the cutoff by walking its grid down from 1;
propstab bisects (the bound is monotone in both), O(log p) evaluations of the bound.

For p in 10^4 .. 10^7 it times, with the caches of D emptied before every call:

- **r-concave, q derived** from cutoff 1 and PFER 1 (the slowest: q grows like
  p^(1/2) and more; at p = 10^5 the former walk took minutes), and from cutoff 0.6;
- **r-concave, cutoff derived** from q = 100 and PFER 1;
- **r-concave, bound** for cutoff 0.9 and q = p/100;
- **unimodal and MB, q derived** (closed forms, for scale);

at B = 50 (stabs's default) and B = 100 (the largest B of the r-concave bound). The
ratio column is the time over the same call at the smallest p: how the cost grows
with p (the target: well under a second at every p up to 10^7, at B = 50). At the
smallest p the literal walk (stabs's algorithm, tests/twins.py) is timed too and its
answer compared: the speed-up of the bisection, and the same q and cutoff.

Run:  /usr/bin/python3 benchmarks/bench_error_control.py            (minutes)
      /usr/bin/python3 benchmarks/bench_error_control.py --quick    (p = 10^3, 10^5; B = 10)
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the slow twins (the walks) live there

from propstab.stability_selection import _rconcave  # noqa: F401
from propstab import error_control as ec  # noqa: E402

FULL_P = (10**4, 10**5, 10**6, 10**7)
QUICK_P = (10**3, 10**5)
TARGET_SECONDS = 1.0


def scenarios(p: int):
    """(label, assumption, keyword arguments) of the calls timed at p."""
    return [
        ("q from cutoff 1, PFER 1", "r-concave", dict(cutoff=1.0, PFER=1.0)),
        ("q from cutoff 0.6, PFER 1", "r-concave", dict(cutoff=0.6, PFER=1.0)),
        ("cutoff from q 100, PFER 1", "r-concave", dict(q=100, PFER=1.0)),
        ("bound at cutoff 0.9, q p/100", "r-concave", dict(cutoff=0.9, q=p // 100)),
        ("q from cutoff 0.9, PFER 1", "unimodal", dict(cutoff=0.9, PFER=1.0)),
        ("q from cutoff 0.9, PFER 1", "none", dict(cutoff=0.9, PFER=1.0)),
    ]


def _clear():
    _rconcave.rconcave_extremal.cache_clear()
    _rconcave.mean_matching_parameters.cache_clear()


def timed(p, B, assumption, kwargs, repeats):
    """Median seconds of ``error_control`` from empty caches, and its result."""
    times = []
    for _ in range(repeats):
        _clear()
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ec.PFERExceededWarning)
            result = ec.error_control(
                p,
                sampling="mb" if assumption == "none" else "ss",
                assumption=assumption,
                n_subsamples=B,
                **kwargs,
            )
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def walked(p, B, kwargs):
    """stabs's walk (tests/twins.py) for an r-concave q or cutoff: seconds and value."""
    import twins

    _clear()
    start = time.perf_counter()
    if "q" in kwargs and "PFER" in kwargs:
        value = twins.rconcave_cutoff_walk(p, kwargs["q"], kwargs["PFER"], B)
    else:
        value = twins.rconcave_q_walk(p, kwargs["cutoff"], kwargs["PFER"], B)
    return time.perf_counter() - start, value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="p = 10^3 and 10^5, B = 10")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    ps = QUICK_P if args.quick else FULL_P
    Bs = (10,) if args.quick else (50, 100)
    repeats = 1 if args.quick else args.repeats
    head = (
        f"{'assumption':<10} {'B':>4} {'given':<29} {'p':>9} {'time_ms':>9} "
        f"{'ratio':>6} {'q':>9} {'cutoff':>7}"
    )
    print(head)
    print("-" * len(head))
    worst, mismatches, speedups = {}, 0, []
    for B in Bs:
        for index in range(len(scenarios(ps[0]))):
            base = None
            for p in ps:
                label, assumption, kwargs = scenarios(p)[index]
                seconds, result = timed(p, B, assumption, kwargs, repeats)
                base = base or seconds
                worst[B] = max(worst.get(B, 0.0), seconds)
                print(
                    f"{assumption:<10} {B:>4} {label:<29} {p:>9} {1e3 * seconds:>9.3g} "
                    f"{seconds / base:>6.2f} {result.q:>9g} {result.cutoff:>7g}"
                )
                if p == ps[0] and assumption == "r-concave" and "PFER" in kwargs:
                    walk_seconds, value = walked(p, B, kwargs)
                    mine = result.cutoff if "q" in kwargs else result.q
                    same = value == mine
                    mismatches += not same
                    speedups.append(walk_seconds / seconds)
                    print(
                        f"{'':<10} {'':>4} {'  stabs walk (twin)':<29} {p:>9} "
                        f"{1e3 * walk_seconds:>9.3g} {walk_seconds / seconds:>6.1f}x "
                        f"{'same answer' if same else f'DIFFERENT: {value!r}'}"
                    )
    print()
    for B, seconds in worst.items():
        verdict = "under" if seconds < TARGET_SECONDS else "OVER"
        print(
            f"slowest call at B = {B}: {seconds:.3f} s ({verdict} the {TARGET_SECONDS:g} s "
            f"target{'' if B == 50 or args.quick else ', which is set for B = 50'})"
        )
    print(
        f"bisection vs walk at p = {ps[0]}: {min(speedups):.1f}x to {max(speedups):.1f}x "
        f"faster, {mismatches} different answers"
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
