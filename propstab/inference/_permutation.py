"""Permutation tests of equal stability: the level holds by construction at any M.

Helper of :func:`propstab.two_sample_test` (``test="permutation"``, and ``"auto"`` for
fewer than :data:`propstab.inference.PERMUTATION_BELOW` runs). The statistic is the
difference of the measure's values, first minus second,
:math:`D = \\hat\\Phi(Z_1) - \\hat\\Phi(Z_2)`, recomputed on rearrangements of the runs:

- independent samples: the M_1 + M_2 runs pooled and split again into groups of M_1
  and M_2 runs, every split equally likely (exchangeable under H0: both procedures
  draw their runs from one distribution);
- paired samples: the two runs of each resample i (row i of Z_1 and of Z_2) swapped or
  not, every one of the 2^M patterns equally likely (exchangeable under H0: the pair is
  as likely in either order).

All rearrangements are enumerated when there are at most ``n_resamples`` of them (C(M_1 +
M_2, M_1) splits, 2^M swap patterns); otherwise ``n_resamples`` are drawn at random. The
p-values are scipy's (:func:`scipy.stats.permutation_test`): with the observed D among the
rearrangements' values (the exact enumeration includes the identity),
``greater``: (#{D* >= D} + a) / (n + a), ``less``: (#{D* <= D} + a) / (n + a), a = 0
for the exact enumeration and 1 for random rearrangements (which keeps the level at any
n), ``two-sided``: twice the smaller, at most 1; D* and D are compared with scipy's
relative tolerance of 100 machine epsilons.

The values D* come from the measure's kernels for every rearrangement at once
(:func:`propstab.inference._intervals.replicates`, the machinery of the vectorised bootstrap, on the
pooled runs with each group's run indices); a measure without a kernel is recomputed on
each group.
"""
from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np

from ._intervals import replicates
from .._data.convert_rankings import as_input

__all__ = ["PermutationResult", "permutation_test", "rearrangements"]

#: scipy's relative tolerance of the comparisons (``permutation_test``: 100 eps).
_EPS = 100 * np.finfo(np.float64).eps


class PermutationResult(NamedTuple):
    """The observed difference, its p-value and how it was obtained."""

    difference: float
    pvalue: float
    n_resamples: int
    exact: bool
    null_distribution: np.ndarray


def _pooled(sel1, sel2, kind):
    """The runs of ``sel1`` then those of ``sel2``, as one validated input."""
    a, b = sel1.stored(), sel2.stored()
    if hasattr(a, "tocsr") or hasattr(b, "tocsr"):
        from scipy import sparse

        Zp = sparse.vstack([sparse.csr_matrix(a), sparse.csr_matrix(b)]).tocsr()
    else:
        Zp = np.concatenate([np.asarray(a), np.asarray(b)], axis=0)
    return as_input(
        kind, Zp, n_features=sel1.n_features, feature_names=getattr(sel1, "feature_names", None)
    )


def rearrangements(n1: int, n2: int, *, paired: bool, n_resamples: int, rng):
    """``(idx1, idx2, exact)``: the pooled-run indices of the first and the second group,
    one row per rearrangement (the first row the observed arrangement when ``exact``).

    >>> idx1, idx2, exact = rearrangements(2, 2, paired=True, n_resamples=99, rng=None)
    >>> idx1.tolist(), idx2.tolist(), exact
    ([[0, 1], [2, 1], [0, 3], [2, 3]], [[2, 3], [0, 3], [2, 1], [0, 1]], True)
    >>> idx1, idx2, exact = rearrangements(1, 2, paired=False, n_resamples=99, rng=None)
    >>> idx1.tolist(), idx2.tolist()
    ([[0], [1], [2]], [[1, 2], [0, 2], [0, 1]])
    """
    if paired:
        M = n1
        exact = M < 63 and 2**M <= n_resamples
        if exact:
            S = (np.arange(2**M)[:, None] >> np.arange(M)) & 1
        else:
            S = rng.integers(0, 2, size=(n_resamples, M))
        runs = np.arange(M)
        return runs + M * S, runs + M * (1 - S), exact
    N = n1 + n2
    exact = math.comb(N, n1) <= n_resamples
    if exact:
        idx1 = np.array(list(itertools.combinations(range(N), n1)), dtype=np.intp).reshape(-1, n1)
        member = np.zeros((idx1.shape[0], N), dtype=bool)
        member[np.arange(idx1.shape[0])[:, None], idx1] = True
        idx2 = np.nonzero(~member)[1].reshape(-1, n2)
        return idx1, idx2, True
    perm = rng.permuted(np.tile(np.arange(N), (n_resamples, 1)), axis=1)
    return np.sort(perm[:, :n1], axis=1), np.sort(perm[:, n1:], axis=1), False


def pvalues(null, observed: float, alternative: str, exact: bool) -> float:
    """scipy's permutation p-value of ``observed`` against the values ``null``."""
    null = np.asarray(null, dtype=np.float64)
    adjustment = 0 if exact else 1
    n = null.size
    gamma = abs(_EPS * observed)
    less = (np.count_nonzero(null <= observed + gamma) + adjustment) / (n + adjustment)
    greater = (np.count_nonzero(null >= observed - gamma) + adjustment) / (n + adjustment)
    if alternative == "less":
        return float(less)
    if alternative == "greater":
        return float(greater)
    return float(min(1.0, 2 * min(less, greater)))


def permutation_test(
    sel1, sel2, info, options, *, paired: bool, alternative: str, n_resamples: int, rng
) -> PermutationResult:
    """The permutation test of D = measure(sel1) - measure(sel2) (see the module).

    Rearrangements on which the measure is undefined are left out of the null
    distribution (``null_distribution`` keeps them as NaN; the caller warns); an
    undefined observed D gives a NaN p-value.
    """
    pooled = _pooled(sel1, sel2, info.input)
    n1, n2 = sel1.n_runs, sel2.n_runs
    idx1, idx2, exact = rearrangements(n1, n2, paired=paired, n_resamples=n_resamples, rng=rng)
    observed1 = np.arange(n1)[None, :]
    observed2 = n1 + np.arange(n2)[None, :]
    values1 = replicates(pooled, info, options, np.concatenate([observed1, idx1]))
    values2 = replicates(pooled, info, options, np.concatenate([observed2, idx2]))
    diffs = values1 - values2
    observed, null = float(diffs[0]), diffs[1:]
    defined = null[~np.isnan(null)]
    if math.isnan(observed) or defined.size == 0:
        return PermutationResult(observed, float("nan"), int(null.size), exact, null)
    return PermutationResult(
        observed, pvalues(defined, observed, alternative, exact), int(null.size), exact, null
    )
