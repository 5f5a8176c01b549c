"""Sechidis et al.'s effective stability: the effective intersections and the two traces.

The computations of :func:`~propstab.measures.sechidis` and
:func:`~propstab.measures.sechidis_exact` (Sechidis et al. 2019, Definitions 1-2 and
Theorem 3): tr(C S) and tr(C Sigma0) from Z, its column counts and 1^T C 1, without
forming a d x d matrix, so a sparse C costs O(nnz(Z C)).
"""
from __future__ import annotations

import numpy as np

from .._utils.exceptions import undefined
from .._data.convert_selection import as_selection
from .matching import as_csr, similarity_matrix

__all__ = ["effective_intersections", "effective_parts", "effective_stability", "null_variance"]


def effective_intersections(Z, /, *, similarity=None, n_features=None, feature_names=None):
    """The effective intersections r^C_ij = z_i C z_j^T (Sechidis et al. 2019, Def. 1).

    By Lemma 1, ``r^C_ij = |s_i ∩ s_j| + sum_{f != f'} c_{f,f'} z_{i,f} z_{j,f'}``,
    so for a non-negative C it is at least the intersection (Theorem 1).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    similarity : d x d similarity matrix, optional (None: identity)
    n_features, feature_names : optional

    Returns
    -------
    ndarray, shape (M, M)

    Examples
    --------
    >>> from propstab.measures.correlated import effective_intersections
    >>> Z = [[1, 0, 1, 0], [0, 1, 1, 0]]
    >>> C = [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    >>> effective_intersections(Z, similarity=C).tolist()
    [[2.0, 2.0], [2.0, 2.0]]
    """
    sel = as_selection(Z, n_features=n_features, feature_names=feature_names)
    C = similarity_matrix(sel, similarity)
    Zf = as_csr(sel.tocsr())
    return np.asarray((Zf @ C @ Zf.T).toarray())


def null_variance(sel) -> float:
    """(k̄/d)(1 - k̄/d), the null variance of one selection indicator."""
    q = sel.total / (sel.n_runs * sel.n_features)
    return q * (1.0 - q)


def effective_parts(sel, similarity, threshold):
    """tr(C S), tr(C Sigma0) (Theorem 3, with the mean of k^2) and 1^T C 1 of a
    selection, without forming a d x d matrix; None when k̄ is 0 or d."""
    C = similarity_matrix(sel, similarity, threshold)
    M, d, N = sel.n_runs, sel.n_features, sel.total
    if N == 0 or N == M * d:
        return None
    Z = as_csr(sel.tocsr())
    F = sel.column_counts.astype(np.float64)
    quad = float((Z @ C).multiply(Z).sum())  # sum_i z_i C z_i^T
    tr_CS = (quad - float(F @ (C @ F)) / M) / (M - 1)
    k = sel.row_sizes.astype(np.float64)
    kbar, k2bar = N / M, float(np.mean(k * k))
    var0 = null_variance(sel)
    cov0 = (k2bar - kbar) / (d * d - d) - kbar**2 / d**2 if d > 1 else 0.0
    total = float(C.sum())  # 1^T C 1 = d + sum of off-diagonal
    return tr_CS, d * var0 + cov0 * (total - d), total


def effective_stability(measure: str, sel, similarity, threshold, *, exact: bool = False):
    """1 - tr(C S) / den: Sechidis's Phi_C (den = tr(C Sigma0), Theorem 3) or, with
    ``exact``, its exact correction for chance (den = E[tr(C S) | H0]
    = tr(C Sigma0) + var_pop(k/d) 1^T C 1 / (M - 1)).

    NaN with an :class:`~propstab.UndefinedMeasureWarning` naming ``measure`` when k̄ is
    0 or d, or when the denominator is 0 (C all ones with a constant size).
    """
    parts = effective_parts(sel, similarity, threshold)
    if parts is None:
        return undefined(measure, "the mean subset size is 0 or d")
    tr_CS, den, total = parts
    if exact:
        M, d = sel.n_runs, sel.n_features
        q = sel.row_sizes / d
        den = den + float(np.mean((q - q.mean()) ** 2)) * total / (M - 1)
        reason = (
            "the null expectation of tr(C S) is 0 (C is all ones and the sizes are " "constant)"
        )
    else:
        reason = "tr(C Sigma0) = 0 (C is all ones and the sizes are constant)"
    if abs(den) <= 1e-12 * sel.n_features * null_variance(sel):
        return undefined(measure, reason)
    return 1.0 - tr_CS / den
