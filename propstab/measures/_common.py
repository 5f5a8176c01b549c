"""Helpers shared by the measure families: undefined values, domain checks, pair means."""
from __future__ import annotations

import numpy as np

from .._exceptions import undefined


def constant_size(sel, measure: str):
    """The common subset size k, or None after warning when the sizes vary."""
    k = sel.common_size()
    if k is None:
        sizes = sel.row_sizes
        undefined(measure, f"it is defined only for a constant subset size and the row "
                           f"sizes vary (min {int(sizes.min())}, max {int(sizes.max())})")
    return k


def pair_mean(measure: str, num: np.ndarray, den: np.ndarray, reason: str) -> float:
    """Mean of ``num/den`` over ordered pairs i != j (M x M arrays).

    Undefined (NaN with a warning naming ``reason``) when a denominator of an
    off-diagonal pair is zero. The diagonal is zeroed in place of a boolean
    selection of the off-diagonal pairs: one pass less over M^2 values and no
    copy of them.
    """
    num, den = np.broadcast_arrays(num, den)
    M = num.shape[0]
    bad = den == 0
    np.fill_diagonal(bad, False)
    if bad.any():
        n_bad = int(bad.sum()) // (2 if np.array_equal(bad, bad.T) else 1)
        return undefined(measure, f"{reason} ({n_bad} pair(s) of runs)")
    with np.errstate(divide="ignore", invalid="ignore"):
        vals = num / den
    np.fill_diagonal(vals, 0.0)
    return float(vals.sum() / (M * (M - 1)))


_BLOCK_BYTES = 2 ** 20      # one float64 temporary of a row block: about 1 MB, in cache


def score_pair_mean(measure: str, score, sel, reason: str) -> float:
    """:func:`pair_mean` of a similarity ``score(r, k_i, k_j, d) -> (num, den)``,
    evaluated on blocks of rows of the intersection matrix.

    The same value as ``pair_mean(measure, *score(r, k_i, k_j, d), reason)`` (up to
    the order of the floating-point sum): the M x M arithmetic runs on blocks of
    about ``_BLOCK_BYTES`` per temporary, which stay in cache, instead of several
    M x M temporaries (at M = 1000, 3-4x faster). The loop is over blocks of runs,
    not over pairs. When a denominator is zero off the diagonal the full matrices
    go to :func:`pair_mean`, which counts the pairs and warns.
    """
    r = sel.intersections
    k = sel.row_sizes.astype(np.float64)
    M, d = sel.n_runs, float(sel.n_features)
    kj = k[None, :]
    rows = max(1, _BLOCK_BYTES // (8 * M))
    total = 0.0
    for start in range(0, M, rows):
        stop = min(M, start + rows)
        num, den = np.broadcast_arrays(*score(r[start:stop].astype(np.float64),
                                              k[start:stop, None], kj, d))
        diagonal = np.arange(stop - start)
        diagonal = (diagonal, diagonal + start)       # the pairs (i, i) in the block
        bad = den == 0
        bad[diagonal] = False
        if bad.any():
            return pair_mean(measure, *score(r.astype(np.float64), k[:, None], kj, d), reason)
        with np.errstate(divide="ignore", invalid="ignore"):
            vals = num / den
        vals[diagonal] = 0.0
        total += float(vals.sum())
    return total / (M * (M - 1))
