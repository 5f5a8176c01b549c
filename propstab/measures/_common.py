"""Helpers shared by the measure families: undefined values, domain checks, pair means."""
from __future__ import annotations

import math
from typing import NamedTuple, Optional

import numpy as np

from .._utils.exceptions import undefined
from .._data.gram import block_rows


class FifoMemo:
    """Values by key, at most ``maxsize`` of them, the oldest dropped first: the memo of a
    pure function of its key's content (a simulation by its seed and sizes, a validated
    similarity by its bytes), which the audit's searches meet again and again.

    >>> memo = FifoMemo(2)
    >>> [memo.get_or_make(k, lambda: k * 10) for k in (1, 2, 1, 3)], len(memo)
    ([10, 20, 10, 30], 2)
    """

    def __init__(self, maxsize: int):
        self.maxsize, self.data = maxsize, {}

    def get_or_make(self, key, make):
        """The value of ``key``, made by ``make()`` (and kept) when it is not held."""
        hit = self.data.get(key)
        if hit is None:
            hit = make()
            if len(self.data) >= self.maxsize:
                self.data.pop(next(iter(self.data)))
            self.data[key] = hit
        return hit

    def clear(self) -> None:
        self.data.clear()

    def __len__(self) -> int:
        return len(self.data)


def constant_size(sel, measure: str):
    """The common subset size k, or None after warning when the sizes vary."""
    k = sel.common_size()
    if k is None:
        sizes = sel.row_sizes
        undefined(
            measure,
            f"it is defined only for a constant subset size and the row "
            f"sizes vary (min {int(sizes.min())}, max {int(sizes.max())})",
        )
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


_BLOCK_BYTES = 2**20  # one float64 temporary of a row slice: about 1 MB, in cache


class PairSums(NamedTuple):
    """Row and column sums of the pair-score matrix P (P_ii = 0, NaN where a pair's
    denominator is 0), from :func:`pair_score_sums`."""

    rows: np.ndarray  # sum_j P_ij
    columns: Optional[np.ndarray]  # sum_i P_ij (None unless asked for)
    n_undefined: int  # ordered pairs i != j with a zero denominator
    symmetric: bool  # whether those pairs are symmetric (known with columns)


def pair_score_sums(sel, score, *, columns: bool = False, memory=None) -> PairSums:
    """The row (and column) sums of the pair scores ``score(r, k_i, k_j, d) -> (num, den)``
    computed from row blocks of Z Z^T, never the whole M x M matrix when it exceeds the
    budget (``memory`` bytes, default :func:`propstab._data.gram.get_pair_memory`).

    Each row's sum is ``numpy.sum`` over that row's M scores, which does not depend on
    how the rows are blocked (the same pairwise summation of the same values): the sums,
    and so the value, are identical to the last bit for every block size, the whole
    matrix included. The column sums are the row sums of P^T, evaluated with the sizes'
    roles swapped on the same blocks (Z Z^T is symmetric). The loop is over blocks of
    runs, not over pairs.

    >>> from propstab import as_selection
    >>> sel = as_selection([[1, 1, 0], [0, 1, 1], [1, 0, 0]])
    >>> jaccard = lambda r, a, b, d: (r, a + b - r)
    >>> [round(v, 6) for v in pair_score_sums(sel, jaccard, memory=1).rows]
    [0.833333, 0.333333, 0.5]
    """
    M, d = sel.n_runs, float(sel.n_features)
    k = sel.row_sizes.astype(np.float64)
    rows = np.zeros(M)
    cols = np.zeros(M) if columns else None
    n_bad, symmetric = 0, True
    step = max(1, _BLOCK_BYTES // (8 * max(M, 1)))
    for start, stop, r in sel.intersection_blocks(block_rows(M, memory)):
        for s in range(start, stop, step):
            e = min(stop, s + step)
            rb = r[s - start : e - start].astype(np.float64)
            diagonal = (np.arange(e - s), np.arange(s, e))
            bad = None
            for out, ki, kj in (
                (rows, k[s:e, None], k[None, :]),
                (cols, k[None, :], k[s:e, None]),
            ):
                if out is None:
                    continue
                num, den = score(rb, ki, kj, d)
                with np.errstate(divide="ignore", invalid="ignore"):
                    vals = np.divide(num, den)
                zero = np.equal(den, 0)
                if zero.shape != vals.shape:  # a denominator of the sizes only
                    zero = np.broadcast_to(zero, vals.shape).copy()
                zero[diagonal] = False
                vals[diagonal] = 0.0
                if zero.any():
                    vals[zero] = np.nan
                    if bad is None:
                        n_bad += int(np.count_nonzero(zero))
                if bad is None:
                    bad = zero
                else:
                    symmetric = symmetric and np.array_equal(bad, zero)
                np.add.reduce(vals, axis=1, out=out[s:e])
    return PairSums(rows, cols, n_bad, symmetric)


def score_pair_mean(measure: str, score, sel, reason: str) -> float:
    """:func:`pair_mean` of a similarity ``score(r, k_i, k_j, d) -> (num, den)`` in
    bounded memory: from :func:`pair_score_sums`, the row sums added exactly
    (``math.fsum``), so the value does not depend on the block size.

    Undefined (NaN with a warning naming ``reason`` and the number of pairs) when a
    denominator is zero off the diagonal.
    """
    M = sel.n_runs
    sums = pair_score_sums(sel, score)
    if sums.n_undefined:
        if sums.columns is None:  # count unordered pairs: is the zero pattern symmetric?
            sums = pair_score_sums(sel, score, columns=True)
        n_bad = sums.n_undefined // (2 if sums.symmetric else 1)
        return undefined(measure, f"{reason} ({n_bad} pair(s) of runs)")
    return math.fsum(sums.rows.tolist()) / (M * (M - 1))
