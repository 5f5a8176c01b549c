"""Variances of stability estimates: Nogueira's Theorem 6 and the delete-one-run jackknife.

Helpers of :mod:`propstab.inference`. Every variance here is written as

.. math:: v = c \\sum_{i=1}^M (u_i - \\bar u)^2

with per-run terms ``u`` and a factor ``c``: for Theorem 6, ``u_i`` is the thesis's
:math:`\\hat\\Phi_{(i)}` and ``c = 4 / M^2``; for Conger's kappa (:func:`conger_delta`,
the same delta method on its two U-statistics) ``u_i`` is run i's projection and
``c = 4 / M^2``; for the jackknife, ``u_i`` is the leave-run-i-out value and
``c = (M - 1) / M``. Two estimates computed on the same M
resamples are paired through the differences of their terms.

:func:`thm6` is declared as the ``analytic_variance`` of the measures it applies to
(``register(analytic_variance=thm6)``). The leave-one-out values of the jackknife come
from the measure's kernel (:mod:`propstab.measures.kernels`: one formula for the value
and its M leave-one-out values); a measure without one is recomputed M times
(:func:`_loo_generic`, also the slow twin of the kernels in the tests).

The test of degenerate variances: per-run terms equal up to rounding (:func:`degenerate`)
while the runs differ (:func:`identical_runs`) mean a variance of 0 that the data do
not support; :func:`propstab.inference._intervals.degenerate_fallback` (applied by
:func:`propstab.estimate`) replaces it by the bootstrap variance
(:func:`propstab.inference._intervals.bootstrap_variance`), or NaN. (The bootstrap lives with
the intervals, which import this module: the import runs one way.)
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from .._utils.exceptions import UndefinedMeasureWarning

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "BOOTSTRAP_SEED",
    "PER_RUN_OPTIONS",
    "conger_delta",
    "conger_terms",
    "degenerate",
    "identical_runs",
    "leave_one_out",
    "spread",
    "take_rows",
    "thm6",
    "thm6_terms",
]


def thm6_terms(F, k, ZF, n_runs, n_features, statistic):
    """The Theorem 6 variance of Phi-hat and its per-run terms Phi_(i), batched.

    Parameters
    ----------
    F : array (..., d)
        Column counts.
    k : array (..., M)
        Row sizes.
    ZF : array (..., M)
        ``sum_f z_if F_f`` for each run.
    n_runs, n_features : int
    statistic : array (...)
        Phi-hat, as the measure computed it (exactly, from its own formula).

    Returns
    -------
    variance, terms : arrays (...), (..., M)

    Notes
    -----
    Thesis Thm 6, with :math:`\\hat p_f = F_f / M` and :math:`\\bar k = \\sum_f \\hat p_f`:

    .. math:: \\hat\\Phi_{(i)} = \\frac{1}{\\frac{\\bar k}{d}(1 - \\frac{\\bar k}{d})}
              \\Big[\\frac{1}{d}\\sum_f z_{if}\\hat p_f - \\frac{k_i \\bar k}{d^2}
              + \\frac{\\hat\\Phi}{2}\\Big(\\frac{2 \\bar k k_i}{d^2} - \\frac{k_i}{d}
              - \\frac{\\bar k}{d} + 1\\Big)\\Big]

    and :math:`v = \\frac{4}{M^2}\\sum_i (\\hat\\Phi_{(i)} - \\bar\\Phi_{(.)})^2`. The sign
    of the :math:`\\hat\\Phi/2` term is that of the delta method (docs/inference.md).
    """
    M, d = n_runs, n_features
    F = np.asarray(F, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    kbar = (F / M).sum(axis=-1)
    pbar = kbar / d
    den = pbar * (1.0 - pbar)
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = np.asarray(statistic, dtype=np.float64)
        kb = kbar[..., None]
        terms = (
            np.asarray(ZF, dtype=np.float64) / (M * d)
            - k * kb / d**2
            + phi[..., None] / 2 * (2 * kb * k / d**2 - k / d - kb / d + 1)
        ) / den[..., None]
    return spread(terms, 4.0 / M**2), terms


def thm6(sel, statistic: float):
    """Thesis Thm 6: the asymptotic variance of Nogueira's Phi-hat (and of a measure equal
    to it wherever it is defined, e.g. Kuncheva's index, thesis Thm 4).

    Declared as the ``analytic_variance`` of those measures; ``statistic`` is the
    measure's value on ``sel`` (Phi-hat is not recomputed here).

    Returns
    -------
    variance, terms, factor : float, ndarray (M,), float
        ``variance = factor * sum_i (terms_i - mean terms)^2`` with ``factor = 4 / M^2``
        (see :func:`thm6_terms`); NaN where ``statistic`` is NaN.

    Examples
    --------
    >>> from propstab import as_selection
    >>> from propstab.measures import nogueira
    >>> sel = as_selection([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]])
    >>> variance, terms, factor = thm6(sel, nogueira(sel))
    >>> round(variance, 4), factor
    (0.0469, 0.25)
    """
    M, d = sel.n_runs, sel.n_features
    factor = 4.0 / M**2
    if math.isnan(statistic):  # e.g. kuncheva with varying sizes
        return float("nan"), np.full(M, np.nan), factor
    F = sel.column_counts
    ZF = np.asarray(sel.stored() @ F.astype(np.float64)).ravel()
    variance, terms = thm6_terms(F, sel.row_sizes, ZF, M, d, statistic)
    return float(variance), terms, factor


thm6.source = "thesis Thm 6"


def conger_terms(k, ZF, n_runs, n_features, statistic):
    """The delta-method variance of Conger's kappa and its per-run terms, batched.

    Parameters
    ----------
    k : array (..., M)
        Row sizes.
    ZF : array (..., M)
        ``sum_f z_if F_f`` for each run (F the column counts).
    n_runs, n_features : int
    statistic : array (...)
        Conger's kappa, as the measure computed it.

    Returns
    -------
    variance, terms : arrays (...), (..., M)

    Notes
    -----
    Conger's kappa is one minus a ratio of two U-statistics of order 2 over the runs
    (docs/varying_sizes.md): with :math:`H_{ij} = |S_i \\triangle S_j|` and
    :math:`e_{ij} = k_i(d - k_j) + k_j(d - k_i) = d\\,E[H_{ij} \\mid H_0]`,

    .. math:: \\hat\\kappa_C = 1 - \\frac{\\sum_{i \\ne j} d\\,H_{ij}}{\\sum_{i \\ne j} e_{ij}}.

    The delta method linearises :math:`\\hat\\kappa_C - \\kappa_C` as
    :math:`-\\frac{1}{\\bar e}` times the U-statistic of kernel
    :math:`w_{ij} = d H_{ij} - (1 - \\hat\\kappa_C) e_{ij}` (mean zero), whose Hoeffding
    projection on run i is estimated by its row sum. With the sums over :math:`j \\ne i`

    .. math:: \\sum_j H_{ij} = M k_i + N - 2 (ZF)_i, \\quad
              \\sum_j e_{ij} = (M - 2) d k_i + d N - 2 k_i N + 2 k_i^2,

    the per-run terms are :math:`u_i = \\frac{M - 1}{2 D}\\sum_{j \\ne i} w_{ij}`
    (:math:`D = \\sum_{i \\ne j} k_i (d - k_j)`) and
    :math:`v = \\frac{4}{M^2}\\sum_i (u_i - \\bar u)^2`, the normalisation of thesis
    Thm 6: for a constant size (where Conger's kappa is Nogueira's estimator) the terms
    are Thm 6's up to a constant and the two variances are equal.
    """
    M, d = n_runs, n_features
    k = np.asarray(k, dtype=np.float64)
    ZF = np.asarray(ZF, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        R = 1.0 - np.asarray(statistic, dtype=np.float64)[..., None]
        N = k.sum(axis=-1, keepdims=True)
        D = (M - 1) * d * N - N * N + (k * k).sum(axis=-1, keepdims=True)
        w = d * (M * k + N - 2.0 * ZF) - R * ((M - 2) * d * k + d * N - 2.0 * k * N + 2.0 * k * k)
        terms = (M - 1) * w / (2.0 * D)
    return spread(terms, 4.0 / M**2), terms


def conger_delta(sel, statistic: float):
    """The delta-method variance of Conger's kappa (:func:`propstab.measures.conger`).

    Declared as the ``analytic_variance`` of ``conger`` (``estimate(method="analytic")``;
    ``"auto"`` takes the jackknife, which covers better for small M); for a constant
    subset size it equals Thm 6's variance of Nogueira's estimator (the two measures are
    then equal). See :func:`conger_terms` for the formula.

    Returns
    -------
    variance, terms, factor : float, ndarray (M,), float
        ``variance = factor * sum_i (terms_i - mean terms)^2``, ``factor = 4 / M^2``;
        NaN where ``statistic`` is NaN.

    Examples
    --------
    >>> from propstab import as_selection
    >>> from propstab.measures import conger, nogueira
    >>> sel = as_selection([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]])
    >>> v, _, _ = conger_delta(sel, conger(sel))
    >>> round(v, 4), round(thm6(sel, nogueira(sel))[0], 4)     # constant size: Thm 6
    (0.0469, 0.0469)
    >>> sel = as_selection([[1, 1, 0, 0], [1, 1, 1, 0], [1, 0, 0, 0], [1, 1, 0, 0]])
    >>> round(conger_delta(sel, conger(sel))[0], 4)
    0.0112
    """
    M, d = sel.n_runs, sel.n_features
    factor = 4.0 / M**2
    if math.isnan(statistic):
        return float("nan"), np.full(M, np.nan), factor
    F = sel.column_counts.astype(np.float64)
    ZF = np.asarray(sel.stored() @ F).ravel()
    variance, terms = conger_terms(sel.row_sizes, ZF, M, d, statistic)
    return float(variance), terms, factor


conger_delta.source = "delta method in thesis Thm 6's form"
#: estimate(method="auto") takes the jackknife for conger: its intervals cover better
#: for M < 100 (docs/inference_validation.md, "Conger's kappa"); this one on request.
conger_delta.default = False


# ------------------------------------------------------------------ leave-one-out values


def _loo_generic(sel, info, options):
    """Slow path: the measure recomputed on the M matrices with one run deleted.

    Used where the measure has no kernel, or its kernel has no leave-one-out values
    for these options (the exact chance corrections of ``davis`` and ``novovicova``: a
    null law per deleted run); it is also the slow twin the tests compare the
    kernels with.
    """
    Zm = sel.stored()
    M = sel.n_runs
    keep = ~np.eye(M, dtype=bool)
    per_run = {
        name: value
        for name, value in options.items()
        if name in PER_RUN_OPTIONS and value is not None
    }
    out = np.empty(M)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        for i in range(M):
            rows = {name: take_rows(value, keep[i]) for name, value in per_run.items()}
            out[i] = info.function(Zm[keep[i]], **{**options, **rows})
    return out


#: Options that hold one row per run (deleted with the run).
PER_RUN_OPTIONS = ("importances",)


def take_rows(value, mask):
    if hasattr(value, "iloc"):
        return value.iloc[mask]
    if hasattr(value, "tocsr"):
        return value.tocsr()[mask]
    return np.asarray(value)[mask]


def leave_one_out(sel, info, options, *, generic=False):
    """The M values of measure ``info`` on Z with run i deleted (i = 1..M).

    From the measure's kernel (``info.kernel.leave_one_out``) where it has one and it
    covers these options; otherwise, or with ``generic=True`` (the tests' slow twin),
    the measure recomputed M times.
    """
    if generic:
        return _loo_generic(sel, info, options)
    if info.domain == "constant_size" and np.any(sel.row_sizes != sel.row_sizes[0]):
        return np.full(sel.n_runs, np.nan)
    values = None if info.kernel is None else info.kernel.leave_one_out(sel, **options)
    if values is None:
        return _loo_generic(sel, info, options)
    return np.asarray(values, dtype=np.float64)


def spread(terms, factor):
    """``factor * sum_i (u_i - mean u)^2`` along the last axis; exactly 0 where the terms
    are all equal (their floating-point mean need not equal them: identical runs would
    otherwise get a variance of order 1e-32 instead of 0)."""
    terms = np.asarray(terms, dtype=np.float64)
    dev = terms - terms.mean(axis=-1, keepdims=True)
    equal = np.all(terms == terms[..., :1], axis=-1, keepdims=True)
    dev = np.where(equal, 0.0, dev)
    return factor * np.sum(dev * dev, axis=-1)


# ------------------------------------------------------------------ degenerate variances

#: Per-run terms closer than this, relative to their size and to the number of values
#: they are sums of, are equal as far as float64 can tell (see :func:`degenerate`).
DEGENERATE_EPS_FACTOR = 64
#: The resamples of the bootstrap variance a degenerate variance falls back to, and
#: their seed (fixed: an estimate is a function of its runs).
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0


def identical_runs(sel, options=None) -> bool:
    """Whether every run is the same: the same row of Z (or ranking), and the same
    row of each per-run option (``importances``)."""
    if sel.n_runs < 2:
        return True
    if not _equal_rows(sel.stored()):
        return False
    for name in PER_RUN_OPTIONS:
        value = (options or {}).get(name)
        if value is not None and not _equal_rows(take_rows(value, np.arange(sel.n_runs))):
            return False
    return True


def _equal_rows(X) -> bool:
    """Whether every row of X (dense, or sparse without densifying) equals the first."""
    if hasattr(X, "tocsr"):
        X = X.tocsr().copy()
        X.eliminate_zeros()
        X.sort_indices()
        counts = np.diff(X.indptr)
        if np.any(counts != counts[0]):
            return False
        n = int(counts[0])
        return (
            bool(
                np.all(X.indices.reshape(-1, n) == X.indices[:n])
                and np.all(X.data.reshape(-1, n) == X.data[:n])
            )
            if n
            else True
        )
    X = np.asarray(X)
    return bool(np.all(X == X[:1]))


def degenerate(values, n_runs: int, n_features: int) -> bool:
    """Whether the values (the per-run terms of a variance ``c sum_i (u_i - mean u)^2``,
    or bootstrap replicates) are all equal up to rounding, so that their spread is 0 or
    rounding noise.

    They are equal up to rounding when their range is at most
    ``64 (M + d) eps max(1, max |u_i|)``: each value is a short formula in sums of at
    most M + d products, whose float64 rounding error is below ``(M + d) eps`` times the
    size of the summands (Higham's gamma_n), with a safety factor 64. Spreads that small
    give standard errors of order 1e-12 and below, which no M of a real study supports,
    so nothing statistical is lost. NaN values are not degenerate (the variance is NaN).

    >>> degenerate([0.5, 0.5, 0.5 + 1e-15], 3, 4), degenerate([0.5, 0.5, 0.51], 3, 4)
    (True, False)
    """
    u = np.asarray(values, dtype=np.float64)
    if u.size == 0 or np.isnan(u).any():
        return False
    scale = max(1.0, float(np.max(np.abs(u))))
    tol = DEGENERATE_EPS_FACTOR * (n_runs + n_features) * np.finfo(np.float64).eps * scale
    return float(np.ptp(u)) <= tol
