"""Coverage of the sampled-pairs intervals (issue 24, part 3).

Two targets, each with the two-sided 95 % Wald interval of
:class:`propstab.inference.SampledPairsEstimate`:

- ``all pairs``: one fixed selection of M runs (independent Bernoulli features with
  probabilities from 0.02 to 0.6, sparse CSR); its exact value is computed by the
  blocked exact path (a small pair-memory budget, so by row blocks); then R estimates
  from B sampled pairs with seeds 0..R-1; coverage = share of intervals holding the
  exact value.
- ``population``: R fresh selections of M runs from the same Bernoulli model; the
  population value E[phi(s, s')] of two independent runs is computed by Monte Carlo
  from 2 x 10^6 independent pairs (4 x 10^5 in quick mode; its standard error, in the
  JSON rows, is far below the intervals' half-widths either way); coverage = share of
  the intervals (runs and pairs variance) holding it.

    /usr/bin/python3 studies/sampled_pairs_coverage.py --quick      # < 60 s (the test)
    /usr/bin/python3 studies/sampled_pairs_coverage.py              # the full grid

Prints one line per (measure, target, M, B) with the coverage and its binomial
standard error; ``--json`` writes the rows.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np
from scipy import sparse


def bernoulli_runs(rng, M, p):
    """M runs, feature f selected with probability p_f independently (CSR; no empty run)."""
    Z = rng.random((M, p.size)) < p
    Z[Z.sum(axis=1) == 0, int(np.argmax(p))] = True
    return sparse.csr_matrix(Z.astype(np.float64))


def population_value(measure, p, rng, n=2 * 10**6, chunk=200_000):
    """E[phi(s, s')] for two independent runs of the model, by Monte Carlo (value, SE)."""
    from propstab import get_measure

    score = get_measure(measure).kernel.score
    values = []
    for start in range(0, n, chunk):
        A = rng.random((chunk, p.size)) < p
        B = rng.random((chunk, p.size)) < p
        A[A.sum(axis=1) == 0, int(np.argmax(p))] = True
        B[B.sum(axis=1) == 0, int(np.argmax(p))] = True
        r = np.count_nonzero(A & B, axis=1).astype(float)
        num, den = score(
            r, A.sum(axis=1).astype(float), B.sum(axis=1).astype(float), float(p.size)
        )
        values.append(np.broadcast_to(num / den, r.shape))
    h = np.concatenate(values)
    return float(h.mean()), float(h.std(ddof=1) / math.sqrt(h.size))


def all_pairs_coverage(measure, M, d, B, reps, seed=0):
    import propstab
    from propstab import settings

    p = np.linspace(0.02, 0.6, d)
    S = bernoulli_runs(np.random.default_rng(seed), M, p)
    with settings.pair_memory(max(1024, 20 * M * 50)):  # blocks of ~50 rows
        exact = propstab.stability(S, measure, pairs="all")
    hits, widths = 0, []
    for rep in range(reps):
        est = propstab.estimate(S, measure, pairs=B, random_state=rep)
        low, high = est.confidence_interval(target="all pairs")
        hits += low <= exact <= high
        widths.append(high - low)
    return dict(
        measure=measure,
        target="all pairs",
        M=M,
        d=d,
        B=B,
        reps=reps,
        coverage=hits / reps,
        se=math.sqrt(0.95 * 0.05 / reps),
        mean_width=float(np.mean(widths)),
        true_value=exact,
    )


def population_coverage(measure, M, d, B, reps, seed=1, truth_pairs=2 * 10**6):
    import propstab

    p = np.linspace(0.02, 0.6, d)
    rng = np.random.default_rng(seed)
    truth, truth_se = population_value(
        measure, p, np.random.default_rng(seed + 1000), n=truth_pairs
    )
    hits, widths = 0, []
    for rep in range(reps):
        S = bernoulli_runs(rng, M, p)
        est = propstab.estimate(S, measure, pairs=B, random_state=rep)
        low, high = est.confidence_interval()
        hits += low <= truth <= high
        widths.append(high - low)
    return dict(
        measure=measure,
        target="population",
        M=M,
        d=d,
        B=B,
        reps=reps,
        coverage=hits / reps,
        se=math.sqrt(0.95 * 0.05 / reps),
        mean_width=float(np.mean(widths)),
        true_value=truth,
        true_value_se=truth_se,
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    truth = {}
    if args.quick:
        truth = dict(truth_pairs=4 * 10**5)
        grid = [
            ("all pairs", "jaccard", 400, 200, 500, 400),
            ("all pairs", "dice", 400, 200, 2000, 200),
            ("population", "jaccard", 300, 60, 3000, 200),
        ]
    else:
        grid = [
            (target, measure, M, d, B, 1000)
            for target in ("all pairs", "population")
            for measure in ("jaccard", "ochiai")
            for M, d in ((500, 200), (3000, 1000))
            for B in (1000, 20000)
        ]
    rows = []
    start = time.perf_counter()
    print(
        f"{'target':>10} {'measure':>8} {'M':>5} {'d':>5} {'B':>6} {'reps':>5} "
        f"{'coverage':>9} {'+-':>6} {'width':>8}"
    )
    for target, measure, M, d, B, reps in grid:
        run = all_pairs_coverage if target == "all pairs" else population_coverage
        row = run(measure, M, d, B, reps, **(truth if target == "population" else {}))
        rows.append(row)
        print(
            f"{target:>10} {measure:>8} {M:>5} {d:>5} {B:>6} {reps:>5} "
            f"{row['coverage']:>9.3f} {row['se']:>6.3f} {row['mean_width']:>8.4f}",
            flush=True,
        )
    print(f"nominal coverage 0.95; {time.perf_counter() - start:.1f} s")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
