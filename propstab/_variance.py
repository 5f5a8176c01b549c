"""Variances of stability estimates: Nogueira's Theorem 6 and the delete-one-run jackknife.

Helpers of :mod:`propstab.inference`. Every variance here is written as

.. math:: v = c \\sum_{i=1}^M (u_i - \\bar u)^2

with per-run terms ``u`` and a factor ``c``: for Theorem 6, ``u_i`` is the thesis's
:math:`\\hat\\Phi_{(i)}` and ``c = 4 / M^2``; for the jackknife, ``u_i`` is the
leave-run-i-out value and ``c = (M - 1) / M``. Two estimates computed on the same M
resamples are paired through the differences of their terms.

:func:`thm6` is declared as the ``analytic_variance`` of the measures it applies to
(``register(analytic_variance=thm6)``). The leave-one-out values of the jackknife come
from the measure's kernel (:mod:`propstab.measures.kernels`: one formula for the value
and its M leave-one-out values); a measure without one is recomputed M times
(:func:`_loo_generic`, also the slow twin of the kernels in the tests).
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ._exceptions import UndefinedMeasureWarning

__all__ = ["PER_RUN_OPTIONS", "leave_one_out", "spread", "thm6", "thm6_terms"]


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
        terms = (np.asarray(ZF, dtype=np.float64) / (M * d) - k * kb / d ** 2
                 + phi[..., None] / 2 * (2 * kb * k / d ** 2 - k / d - kb / d + 1)) / den[..., None]
    return spread(terms, 4.0 / M ** 2), terms


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
    factor = 4.0 / M ** 2
    if math.isnan(statistic):                        # e.g. kuncheva with varying sizes
        return float("nan"), np.full(M, np.nan), factor
    F = sel.column_counts
    ZF = np.asarray(sel.stored() @ F.astype(np.float64)).ravel()
    variance, terms = thm6_terms(F, sel.row_sizes, ZF, M, d, statistic)
    return float(variance), terms, factor


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
    per_run = {name: value for name, value in options.items()
               if name in PER_RUN_OPTIONS and value is not None}
    out = np.empty(M)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        for i in range(M):
            rows = {name: _take_rows(value, keep[i]) for name, value in per_run.items()}
            out[i] = info.function(Zm[keep[i]], **{**options, **rows})
    return out


#: Options that hold one row per run (deleted with the run).
PER_RUN_OPTIONS = ("importances",)


def _take_rows(value, mask):
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
    """``factor * sum_i (u_i - mean u)^2`` along the last axis."""
    terms = np.asarray(terms, dtype=np.float64)
    dev = terms - terms.mean(axis=-1, keepdims=True)
    return factor * np.sum(dev * dev, axis=-1)
