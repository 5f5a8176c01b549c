"""Variances of stability estimates: Nogueira's Theorem 6 and the delete-one-run jackknife.

Private helpers of :mod:`propstab.inference`. Every variance here is written as

.. math:: v = c \\sum_{i=1}^M (u_i - \\bar u)^2

with per-run terms ``u`` and a factor ``c``: for Theorem 6, ``u_i`` is the thesis's
:math:`\\hat\\Phi_{(i)}` and ``c = 4 / M^2``; for the jackknife, ``u_i`` is the
leave-run-i-out value and ``c = (M - 1) / M``. Two estimates computed on the same M
resamples are paired through the differences of their terms.

The leave-one-out values are computed from array algebra on the sufficient
statistics of the measure: the M x M pair-score matrix for pairwise measures (row
and column sums), the column counts minus each row for frequency measures (and the
counts of the distinct subsets for Krizek's entropy, sorted sizes for Davis's
median). The exact chance corrections of frequency measures and the measures on
similarity data fall back on recomputing the measure M times (:func:`_loo_generic`).
"""
from __future__ import annotations

import warnings

import numpy as np

from ._exceptions import UndefinedMeasureWarning

__all__ = ["ANALYTIC_MEASURES", "PER_RUN_OPTIONS", "leave_one_out", "nogueira_terms", "spread"]

#: Measures whose estimate equals Nogueira's Phi-hat wherever they are defined, so that
#: Theorem 6 applies: Kuncheva's index is defined only for a constant subset size,
#: where it equals Phi-hat (thesis Thm 4).
ANALYTIC_MEASURES = ("nogueira", "kuncheva")


def nogueira_terms(F, k, ZF, n_runs, n_features, phi=None):
    """Phi-hat, its Theorem 6 variance and the per-run terms Phi_(i), batched.

    Parameters
    ----------
    F : array (..., d)
        Column counts.
    k : array (..., M)
        Row sizes.
    ZF : array (..., M)
        ``sum_f z_if F_f`` for each run.
    n_runs, n_features : int
    phi : array (...), optional
        Phi-hat when already known (exactly, from :func:`propstab.measures.nogueira`);
        otherwise computed here in floating point from ``F``.

    Returns
    -------
    phi, variance, terms : arrays (...), (...), (..., M)

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
    p = F / M
    kbar = p.sum(axis=-1)
    pbar = kbar / d
    den = pbar * (1.0 - pbar)
    with np.errstate(divide="ignore", invalid="ignore"):
        if phi is None:
            phi = 1.0 - (M / (M - 1)) * np.mean(p * (1.0 - p), axis=-1) / den
        phi = np.asarray(phi, dtype=np.float64)
        kb = kbar[..., None]
        terms = (np.asarray(ZF, dtype=np.float64) / (M * d) - k * kb / d ** 2
                 + phi[..., None] / 2 * (2 * kb * k / d ** 2 - k / d - kb / d + 1)) / den[..., None]
    return phi, spread(terms, 4.0 / M ** 2), terms


# ------------------------------------------------------------------ leave-one-out values

def _loo_generic(sel, info, options):
    """Slow path: the measure recomputed on the M matrices with one run deleted.

    Used only where no count or pair structure is exploited: the exact chance
    corrections of ``davis`` and ``novovicova`` (a null law per deleted run) and the
    measures on similarity or importance data (``correlated`` family); it is also the
    slow twin the tests compare the vectorised paths with.
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

    ``generic=True`` forces the slow recomputation (for testing the fast paths).
    """
    if not generic:
        if info.domain == "constant_size" and np.any(sel.row_sizes != sel.row_sizes[0]):
            return np.full(sel.n_runs, np.nan)
        if info.kernel is not None:
            values = info.kernel.leave_one_out(sel, **options)
            if values is not None:
                return np.asarray(values, dtype=np.float64)
            return _loo_generic(sel, info, options)
    return _loo_generic(sel, info, options)


def spread(terms, factor):
    """``factor * sum_i (u_i - mean u)^2`` along the last axis."""
    terms = np.asarray(terms, dtype=np.float64)
    dev = terms - terms.mean(axis=-1, keepdims=True)
    return factor * np.sum(dev * dev, axis=-1)
