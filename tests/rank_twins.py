"""Slow literal twins of the ranking measures, for the tests only.

Written from the definitions, independently of :mod:`propstab.measures.ranking` (no
variance identity, no cosine kernel, no blocks): the midranks come from a loop over each
run's tie groups; Spearman's rho and Kendall's tau-b are computed pair of runs by pair of
runs from their textbook formulas (Pearson's correlation of the midranks; concordant
minus discordant pairs over the square root of the untied pairs of each run); Canberra
is Jurman et al.'s sum with the ranks truncated at k + 1 over the expectation summed
over all pairs of truncated ranks; the top-k sets are read off the positions. Rational
quantities are exact :class:`fractions.Fraction`; a square root is taken last, in
floating point. A twin returns None where the measure is undefined.

The null model for rankings (thesis Definition 2 with rankings in place of subsets):
run i ranks the features by a uniformly random permutation of its own midranks. The
``*expectation`` twins ENUMERATE every distinct permutation (itertools), with no use of
propstab.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Callable, List, Optional, Sequence

import numpy as np

import twins


def midranks(row: Sequence[float]) -> List[Fraction]:
    """The average-rank tie rule, literally: sort, and give each group of equal values
    the mean of the positions it occupies."""
    order = sorted(range(len(row)), key=lambda f: row[f])
    out = [Fraction(0)] * len(row)
    start = 0
    while start < len(order):
        stop = start
        while stop + 1 < len(order) and row[order[stop + 1]] == row[order[start]]:
            stop += 1
        mid = Fraction(start + 1 + stop + 1, 2)
        for p in range(start, stop + 1):
            out[order[p]] = mid
        start = stop + 1
    return out


def as_midranks(R) -> List[List[Fraction]]:
    return [midranks([float(x) for x in row]) for row in np.asarray(R, dtype=float)]


def _mean(values):
    values = list(values)
    return sum(values, Fraction(0)) / len(values)


def _pairs(M: int):
    return [(i, j) for i in range(M) for j in range(M) if i != j]


# ----------------------------------------------------------------------------- Spearman


def rho(a, b) -> Optional[float]:
    """Pearson's correlation of two midrank vectors (Spearman's rho with ties)."""
    ma, mb = _mean(a), _mean(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    sa = sum((x - ma) ** 2 for x in a)
    sb = sum((y - mb) ** 2 for y in b)
    if sa == 0 or sb == 0:
        return None
    if sa == sb:
        return cov / sa  # exact: the same spread (e.g. no ties)
    return float(cov) / math.sqrt(float(sa) * float(sb))


def twin_spearman(R):
    ranks = as_midranks(R)
    values = [rho(ranks[i], ranks[j]) for i, j in _pairs(len(ranks))]
    if any(v is None for v in values):
        return None
    if all(isinstance(v, Fraction) for v in values):
        return _mean(values)
    return float(np.mean([float(v) for v in values]))


def spearman_by_variances(R) -> Fraction:
    """Nogueira, Sechidis and Brown (2017): 1 - mean_f s_f^2 / V_rank, V_rank =
    (d^2 - 1)/12, literally (untied rankings), s_f^2 with divisor M - 1."""
    ranks = as_midranks(R)
    M, d = len(ranks), len(ranks[0])
    s2 = []
    for f in range(d):
        column = [ranks[i][f] for i in range(M)]
        m = _mean(column)
        s2.append(sum((x - m) ** 2 for x in column) / (M - 1))
    return 1 - _mean(s2) / Fraction(d * d - 1, 12)


# ------------------------------------------------------------------------------ Kendall


def tau_b(a, b) -> Optional[float]:
    """Kendall's tau-b: (C - D) / sqrt((n0 - n1)(n0 - n2)) over the unordered pairs."""
    concordant = discordant = untied_a = untied_b = 0
    for f, g in itertools.combinations(range(len(a)), 2):
        sa, sb = (a[f] > a[g]) - (a[f] < a[g]), (b[f] > b[g]) - (b[f] < b[g])
        untied_a += sa != 0
        untied_b += sb != 0
        concordant += sa * sb > 0
        discordant += sa * sb < 0
    if untied_a == 0 or untied_b == 0:
        return None
    if untied_a == untied_b:
        return Fraction(concordant - discordant, untied_a)
    return (concordant - discordant) / math.sqrt(untied_a * untied_b)


def twin_kendall(R):
    ranks = as_midranks(R)
    values = [tau_b(ranks[i], ranks[j]) for i, j in _pairs(len(ranks))]
    if any(v is None for v in values):
        return None
    if all(isinstance(v, Fraction) for v in values):
        return _mean(values)
    return float(np.mean([float(v) for v in values]))


# ----------------------------------------------------------------------------- Canberra


def canberra_distance(a, b) -> Fraction:
    return sum((abs(x - y) / (x + y) for x, y in zip(a, b)), Fraction(0))


def canberra_expectation(d: int, k: int) -> Fraction:
    """E[Ca] of two independent uniformly random rankings (no ties): every pair of ranks
    (a, b) in 1..d, truncated at k + 1, is equally likely for each feature."""
    t = [min(a, k + 1) for a in range(1, d + 1)]
    return d * _mean(Fraction(abs(x - y), x + y) for x in t for y in t)


def jurman_closed_form(n: int, k: int) -> float:
    """The closed form of E(Ca) with location parameter k (Jurman et al. 2008), with the
    harmonic numbers H_n: the independent check of :func:`canberra_expectation`."""

    def H(m):
        return sum(1.0 / i for i in range(1, m + 1))

    def A(m):  # the alternating harmonic sums of the closed form
        return H(m) - 0.5 * H(m // 2) if m % 2 else 0.5 * H(m // 2)

    s = sum(t * (A(2 * k - t) - A(t)) for t in range(1, k + 1))
    return 2.0 / n * s + 2.0 * (n - k) / n * (2 * (k + 1) * (H(2 * k + 1) - H(k + 1)) - k)


def twin_canberra(R, k=None):
    ranks = as_midranks(R)
    M, d = len(ranks), len(ranks[0])
    L = d if k is None else k
    t = [[min(x, L + 1) for x in row] for row in ranks]
    return _mean(canberra_distance(t[i], t[j]) for i, j in _pairs(M)) / canberra_expectation(d, L)


# -------------------------------------------------------------------------------- top-k


def top_k_sets(R, k: int) -> np.ndarray:
    """Feature f is in the top k when fewer than k features are ranked strictly before
    it."""
    ranks = as_midranks(R)
    return np.array([[sum(1 for y in row if y < x) < k for x in row] for row in ranks])


def twin_top_k(R, k=None):
    d = np.asarray(R).shape[1]
    return twins.twin_nogueira(top_k_sets(R, d // 2 if k is None else k))


TWINS = {
    "spearman": twin_spearman,
    "kendall": twin_kendall,
    "canberra": twin_canberra,
    "top_k": twin_top_k,
}


def twin(name: str, R, **options):
    return TWINS[name](R, **options)


# --------------------------------------------------------------------------- null model


def permutations_of(row) -> List[tuple]:
    """The distinct permutations of a run's midranks (each equally likely under H0)."""
    return sorted(set(itertools.permutations(row)))


def expected(twin_function: Callable, patterns: Sequence[Sequence[float]]):
    """E[twin | H0] for runs with these midranks, by enumerating every tuple of distinct
    permutations (a measure invariant under feature permutations: run 0 is fixed).
    None where the twin is undefined on some tuple."""
    first = tuple(patterns[0])
    others = [permutations_of(p) for p in patterns[1:]]
    values = []
    for rest in itertools.product(*others):
        v = twin_function(np.array([first, *rest], dtype=float))
        if v is None:
            return None
        values.append(v)
    if all(isinstance(v, Fraction) for v in values):
        return _mean(values)
    return float(np.mean([float(v) for v in values]))
