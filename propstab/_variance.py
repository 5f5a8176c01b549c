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

import math
import warnings

import numpy as np

from ._exceptions import UndefinedMeasureWarning
from .measures import frequency as _frequency
from .measures import pairwise as _pairwise

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

def _loo_pairwise(sel, info, options):
    M = sel.n_runs
    k = sel.row_sizes
    if info.domain == "constant_size" and np.any(k != k[0]):
        return np.full(M, np.nan)
    num, den = _pairwise.pair_fractions(sel, _pairwise.PAIR_SCORES[info.name],
                                        options.get("correction_for_chance", "none"))
    off = ~np.eye(M, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        P = np.where(off, num / np.where(den == 0, 1.0, den), 0.0)
    P[(den == 0) & off] = np.nan
    total = P.sum()
    through_i = P.sum(axis=1) + P.sum(axis=0)        # ordered pairs with run i on either side
    return (total - through_i) / ((M - 1) * (M - 2))


def _loo_counts(sel):
    """Leave-one-out sufficient statistics: M', N', S2' = sum_f F'_f^2, and Z, F."""
    F = sel.column_counts.astype(np.float64)
    k = sel.row_sizes.astype(np.float64)
    Zm = sel.stored()
    ZF = np.asarray(Zm @ F, dtype=np.float64).ravel()
    M1 = sel.n_runs - 1
    N1 = float(sel.total) - k
    S2 = float(np.dot(F, F)) - 2.0 * ZF + k
    return M1, N1, S2, Zm, F, k


def _row_sums(Zm, v):
    """``Z @ v`` as a flat float array (dense or sparse Z)."""
    return np.asarray(Zm @ v, dtype=np.float64).ravel()


def _xlogx_drop(Zm, F, log):
    """sum_f g(F_f - z_if) for g(c) = c log c, each run i (F' = F minus row i)."""
    def g(c):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(c > 0, c * log(np.where(c > 0, c, 1.0)), 0.0)
    return g(F).sum() - _row_sums(Zm, g(F) - g(F - 1))


def _nan_where(mask, values):
    return np.where(mask, np.nan, values)


def _loo_nogueira(sel, options):
    M1, N1, S2, _, _, _ = _loo_counts(sel)
    d = sel.n_features
    with np.errstate(divide="ignore", invalid="ignore"):
        v = 1.0 - M1 * d * (M1 * N1 - S2) / ((M1 - 1) * N1 * (M1 * d - N1))
    return _nan_where((N1 == 0) | (N1 == M1 * d), v)


def _loo_goh(sel, options):
    M1, N1, _, _, _, _ = _loo_counts(sel)
    return N1 / (M1 * sel.n_features)


def _loo_weighted_consistency(sel, options):
    M1, N1, S2, _, _, _ = _loo_counts(sel)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _nan_where(N1 == 0, (S2 - N1) / (N1 * (M1 - 1)))


def _loo_lausser(sel, options):
    M1, _, S2, _, _, k = _loo_counts(sel)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _nan_where(np.any(k != k[0]) | (k == 0), S2 / (M1 * M1 * k))


def _loo_consistency(sel, options):
    M1, N1, _, Zm, F, _ = _loo_counts(sel)
    X = np.count_nonzero(F) - _row_sums(Zm, (F == 1).astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        return _nan_where(N1 == 0, (N1 - X) / (X * (M1 - 1)))


def _loo_cwrel(sel, options):
    M1, N1, S2, _, _, _ = _loo_counts(sel)
    d = sel.n_features
    sff = S2 - N1
    D, H = np.mod(N1, d), np.mod(N1, M1)
    num = d * (N1 - D + sff) - N1 * N1 + D * D
    den = d * (H * H + M1 * (N1 - H) - D) - N1 * N1 + D * D
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(den == 0, sff / (N1 * (M1 - 1)), num / np.where(den == 0, 1.0, den))
    return _nan_where(N1 == 0, v)


def _loo_guzman(sel, options):
    M1, N1, _, Zm, F, k = _loo_counts(sel)
    d = sel.n_features
    # sum_f p'_f log p'_f = (sum_f F'_f log F'_f) / M' - (N'/M') log M'
    s = _xlogx_drop(Zm, F, np.log) / M1 - N1 / M1 * math.log(M1)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = 1.0 - s / (k * np.log(k / d))
    return _nan_where(np.any(k != k[0]) | (k == 0) | (k == d), v)


def _loo_novovicova(sel, options):
    if options.get("correction_for_chance", "none") != "none":
        return None
    M1, N1, _, Zm, F, _ = _loo_counts(sel)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _nan_where(N1 == 0, _xlogx_drop(Zm, F, np.log2) / (N1 * math.log2(M1)))


def _loo_median(k):
    """The median of k without k_i, for every i (sorted positions, no loop)."""
    M = k.size
    order = np.argsort(k, kind="stable")
    s = k[order].astype(np.float64)
    rank = np.empty(M, dtype=np.int64)
    rank[order] = np.arange(M)
    L = M - 1

    def kth(j):                           # j-th smallest of k without k_i (vector of j)
        return s[np.where(j < rank, j, j + 1)]
    if L % 2:
        return kth(np.full(M, L // 2))
    return (kth(np.full(M, L // 2 - 1)) + kth(np.full(M, L // 2))) / 2


def _loo_davis(sel, options):
    if options.get("correction_for_chance", "none") != "none":
        return None
    M1, N1, _, Zm, F, k = _loo_counts(sel)
    union = np.count_nonzero(F) - _row_sums(Zm, (F == 1).astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        v = _frequency._davis_value(N1, M1, union, options.get("penalty", 0.0), _loo_median(k),
                                    sel.n_features)
    return _nan_where(N1 == 0, v)


def _loo_krizek(sel, options):
    k = sel.row_sizes
    M1 = sel.n_runs - 1
    if np.any(k != k[0]):
        return np.full(sel.n_runs, np.nan)
    idx = sel.index_matrix()
    if idx.shape[1] == 0:
        return np.zeros(sel.n_runs)
    _, which, counts = np.unique(idx, axis=0, return_inverse=True, return_counts=True)
    which = np.ravel(which)

    def g(c):                             # c log2 c, 0 at 0
        c = np.asarray(c, dtype=np.float64)
        return np.where(c > 0, c * np.log2(np.where(c > 0, c, 1.0)), 0.0)
    c = counts[which]
    # H' = log2 M' - (1/M') sum_s c'_s log2 c'_s, with run i's subset counted once less
    return math.log2(M1) - (g(counts).sum() - g(c) + g(c - 1)) / M1 + 0.0


#: Vectorised leave-one-out values of the frequency measures that have them.
_FREQUENCY_LOO = {
    "goh": _loo_goh, "weighted_consistency": _loo_weighted_consistency,
    "lausser": _loo_lausser, "consistency": _loo_consistency, "cwrel": _loo_cwrel,
    "guzman": _loo_guzman, "novovicova": _loo_novovicova, "davis": _loo_davis,
    "krizek": _loo_krizek,
}


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
        if info.family == "pairwise" and info.name in _pairwise.PAIR_SCORES:
            return _loo_pairwise(sel, info, options)
        fast = _FREQUENCY_LOO.get(info.name)
        if fast is not None:
            values = fast(sel, options)
            if values is not None:
                return np.asarray(values, dtype=np.float64)
    return _loo_generic(sel, info, options)


def spread(terms, factor):
    """``factor * sum_i (u_i - mean u)^2`` along the last axis."""
    terms = np.asarray(terms, dtype=np.float64)
    dev = terms - terms.mean(axis=-1, keepdims=True)
    return factor * np.sum(dev * dev, axis=-1)
