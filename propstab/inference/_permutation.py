"""Permutation tests of equal stability, H0: Phi_1 = Phi_2, studentized.

Helper of :func:`propstab.two_sample_test` (``test="permutation"``, and ``"auto"``). The
statistic is the difference of the measure's values, first minus second,
:math:`D = \\hat\\Phi(Z_1) - \\hat\\Phi(Z_2)`, over its delete-one-run jackknife
standard error, :math:`T = D / \\sqrt{v_1 + v_2}` (independent samples) or
:math:`T = D / \\sqrt{v_\\delta}` (paired: the jackknife of the per-resample
differences), recomputed, standard error included, on rearrangements of the runs:

- independent samples: the M_1 + M_2 runs pooled and split again into groups of M_1
  and M_2 runs, every split equally likely;
- paired samples: the two runs of each resample i (row i of Z_1 and of Z_2) swapped or
  not, every one of the 2^M patterns equally likely (the studentized sign-flip).

Which null it holds (Chung and Romano 2013): when the runs are exchangeable (both
procedures draw their runs from one distribution; paired: each pair is as likely in either
order) the level is exact at any M, as for any permutation test; when they are not, e.g.
two procedures of equal stability that select different features, studentizing makes the
test asymptotically valid for H0: Phi_1 = Phi_2 itself (the permutation distribution of
T tends to N(0, 1), the law of T under that H0). The plain difference D
(``studentized=False``, kept for the studies) tests only the first null: its permutation
spread is that of the pooled, mixed population, not the spread of D.

All rearrangements are enumerated when there are at most ``n_resamples`` of them (C(M_1 +
M_2, M_1) splits, 2^M swap patterns); otherwise ``n_resamples`` are drawn at random. The
p-values are scipy's (:func:`scipy.stats.permutation_test`): with the observed T among the
rearrangements' values (the exact enumeration includes the identity),
``greater``: (#{T* >= T} + a) / (n + a), ``less``: (#{T* <= T} + a) / (n + a), a = 0
for the exact enumeration and 1 for random rearrangements (which keeps the level at any
n), ``two-sided``: twice the smaller, at most 1; T* and T are compared with scipy's
relative tolerance of 100 machine epsilons.

The values and their leave-one-out values come from the measure's kernels for every
rearrangement at once (:func:`propstab.inference._intervals.replicates`, the machinery of the
vectorised bootstrap, on the pooled runs with each group's run indices); a measure without
a kernel is recomputed on each group.

References
----------
Chung, E., Romano, J. P. (2013). Exact and asymptotically robust permutation tests.
Ann. Statist. 41(2), 484-507, doi:10.1214/13-AOS1090.
"""
from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np

from ._intervals import replicates
from ..measures._variance import degenerate, identical_runs, spread
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
    statistic: float = float("nan")
    variance: float = float("nan")
    studentized: bool = False


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
    gamma = abs(_EPS * observed) if math.isfinite(observed) else 0.0
    less = (np.count_nonzero(null <= observed + gamma) + adjustment) / (n + adjustment)
    greater = (np.count_nonzero(null >= observed - gamma) + adjustment) / (n + adjustment)
    if alternative == "less":
        return float(less)
    if alternative == "greater":
        return float(greater)
    return float(min(1.0, 2 * min(less, greater)))


#: at most this many run indices per block of leave-one-out index sets (memory)
_LOO_BLOCK = 2**22


def leave_one_out_values(pooled, info, options, idx) -> np.ndarray:
    """``(B, m)``: the measure on the runs ``idx[b]`` with position i deleted, for every
    row b of the B x m index matrix ``idx`` and position i (NaN where undefined)."""
    B, m = idx.shape
    if m < 2:
        return np.full((B, m), np.nan)
    keep = ~np.eye(m, dtype=bool)
    step = max(1, _LOO_BLOCK // (m * (m - 1)))
    out = np.empty((B, m))
    for s in range(0, B, step):
        block = idx[s : s + step]
        loo = np.broadcast_to(block[:, None, :], (block.shape[0], m, m))[:, keep]
        out[s : s + step] = replicates(pooled, info, options, loo.reshape(-1, m - 1)).reshape(
            -1, m
        )
    return out


def _studentized(diffs, loo1, loo2, *, paired: bool):
    """``(T, v)``: the differences over their jackknife standard errors, and the
    jackknife variances of the differences: independent :math:`v_1 + v_2`, each
    :math:`\\frac{m-1}{m}\\sum_i (u_i - \\bar u)^2` over a group's leave-one-out values;
    paired, the same over the per-resample differences of the leave-one-out values. A
    variance of 0 gives T = 0 for a zero difference and +-inf otherwise (as the
    asymptotic test); NaN where a value is undefined.

    >>> loo = np.array([[0.5, 0.7, 0.6]])
    >>> T, v = _studentized(np.array([0.2]), loo, loo - 0.1, paired=False)
    >>> round(float(v[0]), 4), round(float(T[0]), 4)
    (0.0267, 1.2247)
    """
    m1, m2 = loo1.shape[1], loo2.shape[1]
    if paired:
        v = spread(loo1 - loo2, (m1 - 1) / m1)
    else:
        v = spread(loo1, (m1 - 1) / m1) + spread(loo2, (m2 - 1) / m2)
    with np.errstate(divide="ignore", invalid="ignore"):
        T = np.where(
            v > 0,
            diffs / np.sqrt(np.where(v > 0, v, 1.0)),
            np.where(diffs == 0, 0.0, np.copysign(np.inf, diffs)),
        )
    T = np.where(np.isnan(v) | np.isnan(diffs), np.nan, T)
    return T, v


def permutation_test(
    sel1,
    sel2,
    info,
    options,
    *,
    paired: bool,
    alternative: str,
    n_resamples: int,
    rng,
    studentized: bool = True,
) -> PermutationResult:
    """The permutation test of T = D / SE(D), D = measure(sel1) - measure(sel2) (see the
    module; ``studentized=False``: of D itself, exact only for exchangeable runs).

    Rearrangements on which the statistic is undefined are left out of the null
    distribution (``null_distribution`` keeps them as NaN; the caller warns); an
    undefined observed statistic gives a NaN p-value. ``statistic`` and ``variance`` are
    the observed T and the jackknife variance of D (NaN when not studentized).
    """
    pooled = _pooled(sel1, sel2, info.input)
    n1, n2 = sel1.n_runs, sel2.n_runs
    idx1, idx2, exact = rearrangements(n1, n2, paired=paired, n_resamples=n_resamples, rng=rng)
    observed1 = np.arange(n1)[None, :]
    observed2 = n1 + np.arange(n2)[None, :]
    values1 = replicates(pooled, info, options, np.concatenate([observed1, idx1]))
    values2 = replicates(pooled, info, options, np.concatenate([observed2, idx2]))
    diffs = values1 - values2
    stat, variance = diffs, np.full(diffs.shape, np.nan)
    if studentized:
        all1 = np.concatenate([observed1, idx1])
        all2 = np.concatenate([observed2, idx2])
        loo1 = leave_one_out_values(pooled, info, options, all1)
        loo2 = leave_one_out_values(pooled, info, options, all2)
        d = pooled.n_features
        # a jackknife of runs that differ that is 0 up to rounding (e.g. two feature sets
        # each selected by half of the runs) does not measure the spread: the plain
        # difference is permuted then (exact for exchangeable runs)
        studentized = not (
            any(
                degenerate(u, u.size, d) and not np.all(u == u[0])
                for u in ((loo1[0] - loo2[0],) if paired else ())
            )
            or any(
                degenerate(u[0], u.shape[1], d) and not identical
                for u, identical in ((loo1, identical_runs(sel1)), (loo2, identical_runs(sel2)))
            )
        )
        if studentized:
            stat, variance = _studentized(diffs, loo1, loo2, paired=paired)
            if math.isnan(stat[0]) and not math.isnan(diffs[0]):
                # the measure is undefined with a run deleted (e.g. every other run
                # selects every feature): no SE to divide by, the plain difference is
                # permuted
                studentized = False
                stat, variance = diffs, np.full(diffs.shape, np.nan)
    observed, null = float(stat[0]), stat[1:]
    out = dict(
        statistic=observed if studentized else float("nan"),
        variance=float(variance[0]),
        studentized=bool(studentized),
    )
    defined = null[~np.isnan(null)]
    if math.isnan(observed) or defined.size == 0:
        return PermutationResult(float(diffs[0]), float("nan"), int(null.size), exact, null, **out)
    return PermutationResult(
        float(diffs[0]),
        pvalues(defined, observed, alternative, exact),
        int(null.size),
        exact,
        null,
        **out,
    )
