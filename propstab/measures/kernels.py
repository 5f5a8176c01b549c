"""Kernels: a measure's formula written once, evaluated on Z and on Z without each run.

A kernel computes a measure from a *summary* of the selection matrix, and the same
formula evaluated on the leave-one-run-out summaries gives the M values of the
delete-one jackknife (:mod:`propstab.inference`) without recomputing the measure M
times. Two summaries cover the pairwise and frequency families:

- :class:`PairKernel` (decorator :func:`pair_kernel`): the measure is the mean over
  ordered pairs of runs of a score ``num / den`` of ``(r_ij, k_i, k_j, d)`` (thesis
  sec. 3.3), computed from the intersection matrix; the leave-one-out means come from
  its row and column sums.
- :class:`CountKernel` (decorator :func:`count_kernel`): the measure is a formula of
  the column counts' sums (:class:`Counts`: M, d, N, sum F_f^2, |union|, ...). The
  summary of Z holds exact Python integers (the value is one correctly rounded
  division); :class:`LeaveOneOutCounts` holds the same quantities as arrays over the
  deleted run, and the same formula maps them to the M leave-one-out values.

A kernel is registered like a function (``@register(...)`` above ``@count_kernel(...)``
above the formula); see docs/contributing.md, "Adding a measure".
"""
from __future__ import annotations

import copy
import functools
import math
from typing import Callable, Optional

import numpy as np

from .. import chance
from .._utils.checks import fail
from .._utils.exceptions import undefined
from ._common import FifoMemo, pair_mean, pair_score_sums, score_pair_mean

__all__ = [
    "CountKernel",
    "Counts",
    "LeaveOneOutCounts",
    "PairKernel",
    "count_kernel",
    "divide",
    "pair_fractions",
    "pair_kernel",
    "xlogx",
]


def divide(num, den, where_zero):
    """``num / den``, and ``where_zero`` where ``den == 0``; exact for Python integers.

    Scalars divide as Python numbers (an integer ratio is correctly rounded); arrays
    divide elementwise.

    >>> divide(1, 3, 0.0), divide(1, 0, 0.5)
    (0.3333333333333333, 0.5)
    >>> divide(np.array([1.0, 2.0]), np.array([0.0, 4.0]), -1.0).tolist()
    [-1.0, 0.5]
    """
    if np.ndim(den) == 0:
        return num / den if den != 0 else where_zero
    den = np.asarray(den, dtype=np.float64)
    zero = den == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(
            zero, where_zero, np.asarray(num, dtype=np.float64) / np.where(zero, 1.0, den)
        )


def xlogx(c):
    """c ln c elementwise, 0 at 0 (an array; the summaries' one logarithm).

    >>> xlogx([0, 1, 2]).round(6).tolist()
    [0.0, 0.0, 1.386294]
    """
    c = np.asarray(c, dtype=np.float64)
    return np.where(c > 0, c * np.log(np.where(c > 0, c, 1.0)), 0.0)


# --------------------------------------------------------------------- summaries


class Counts:
    """The sums of the column counts F_f of a selection that frequency measures read.

    Every attribute is computed on first use and exact where it is an integer
    (Python ``int``), so that a formula of them is one correctly rounded division.

    Attributes
    ----------
    n_runs, n_features : int
        M and d.
    total : int
        N = sum_i k_i = sum_f F_f.
    sum_squares : int
        sum_f F_f^2.
    size_squares : int
        sum_i k_i^2 (the spread of the row sizes: M sum k^2 - N^2 = M^2 d^2 var(k/d)).
    n_union : int
        |X|, the number of features selected at least once.
    sizes : ndarray
        The row sizes k_i.
    size : int
        The common row size (read only on a constant-size domain).
    median_size : float
        median(k_1, ..., k_M).
    column_xlogx : float
        sum_f F_f ln F_f (0 where every count is 0 or 1).
    column_plogp : float
        sum_f p_f ln p_f with p_f = F_f / M (0 where every frequency is 0 or 1).
    subset_xlogx : float
        sum_s c_s ln c_s over the distinct subsets s, c_s how many runs chose s
        (constant size).

    Examples
    --------
    >>> from propstab import as_selection
    >>> c = Counts(as_selection([[1, 1, 0], [1, 0, 1]]))
    >>> c.total, c.sum_squares, c.size_squares, c.n_union
    (4, 6, 8, 3)
    """

    def __init__(self, sel) -> None:
        self.sel = sel
        self.n_runs = sel.n_runs
        self.n_features = sel.n_features

    def replace(self, **summaries) -> "Counts":
        """A copy with some summaries replaced, e.g. ``n_union`` by the array of its
        possible values (a formula then maps them to the values it would take; used
        for exact null expectations).

        >>> from propstab import as_selection
        >>> c = Counts(as_selection([[1, 1, 0], [1, 0, 1]]))
        >>> c.replace(n_union=np.array([2, 3])).n_union.tolist(), c.n_union
        ([2, 3], 3)
        """
        unknown = sorted(
            name
            for name in summaries
            if not isinstance(getattr(type(self), name, None), functools.cached_property)
        )
        if unknown:
            fail(
                f"replace: {', '.join(unknown)} is not a summary of " f"{type(self).__name__}",
                TypeError,
                argument=", ".join(unknown),
            )
        other = copy.copy(self)
        other.__dict__.update(summaries)
        return other

    @functools.cached_property
    def total(self) -> int:
        return self.sel.total

    @functools.cached_property
    def sum_squares(self) -> int:
        return self.sel.column_sum_squares

    @functools.cached_property
    def size_squares(self) -> int:
        return sum(k * k for k in self.sel.row_sizes.tolist())

    @functools.cached_property
    def n_union(self) -> int:
        return int(np.count_nonzero(self.sel.column_counts))

    @functools.cached_property
    def sizes(self) -> np.ndarray:
        return self.sel.row_sizes

    @functools.cached_property
    def size(self) -> int:
        return int(self.sizes[0]) if self.sizes.size else 0

    @functools.cached_property
    def median_size(self) -> float:
        return float(np.median(self.sizes))

    @functools.cached_property
    def column_xlogx(self) -> float:
        return float(xlogx(self.sel.column_counts).sum())

    @functools.cached_property
    def column_plogp(self) -> float:
        return float(xlogx(self.sel.column_counts / self.n_runs).sum())

    @functools.cached_property
    def subset_xlogx(self) -> float:
        idx = self.sel.index_matrix()
        if idx.shape[1] == 0:
            return float(xlogx(np.array([self.n_runs]))[0])
        _, counts = np.unique(idx, axis=0, return_counts=True)
        return float(xlogx(counts).sum())


class LeaveOneOutCounts:
    """:class:`Counts` of Z with run i deleted, for every i at once (arrays of length M).

    ``n_runs`` is the scalar M - 1 and ``n_features`` d; every other attribute is an
    array whose entry i is the attribute of Z without run i, obtained by array algebra
    on the counts (``F - z_i``), never by deleting runs one at a time.

    Examples
    --------
    >>> from propstab import as_selection
    >>> loo = LeaveOneOutCounts(as_selection([[1, 1, 0], [1, 0, 1], [1, 0, 0]]))
    >>> loo.total.tolist(), loo.sum_squares.tolist(), loo.n_union.tolist()
    ([3.0, 3.0, 4.0], [5.0, 5.0, 6.0], [2.0, 2.0, 3.0])
    >>> loo.size_squares.tolist()
    [5.0, 5.0, 8.0]

    (Without run 0 the counts are F = (2, 0, 1): N = 3, sum F^2 = 5, |X| = 2; the sizes
    are (2, 1): sum k^2 = 5.)
    """

    def __init__(self, sel) -> None:
        self.sel = sel
        self.n_runs = sel.n_runs - 1
        self.n_features = sel.n_features

    @functools.cached_property
    def _F(self) -> np.ndarray:
        return self.sel.column_counts.astype(np.float64)

    def _row_sums(self, v) -> np.ndarray:
        """``Z @ v``, a flat float array (dense or sparse Z)."""
        return np.asarray(self.sel.stored() @ v, dtype=np.float64).ravel()

    @functools.cached_property
    def sizes(self) -> np.ndarray:
        """k_i: entry i is the size of the deleted run (the others' sizes are unchanged)."""
        return self.sel.row_sizes.astype(np.float64)

    @functools.cached_property
    def size(self) -> np.ndarray:
        return self.sizes

    @functools.cached_property
    def total(self) -> np.ndarray:
        return float(self.sel.total) - self.sizes

    @functools.cached_property
    def sum_squares(self) -> np.ndarray:
        # sum_f (F_f - z_if)^2 = sum F^2 - 2 sum_f z_if F_f + k_i
        return float(np.dot(self._F, self._F)) - 2.0 * self._row_sums(self._F) + self.sizes

    @functools.cached_property
    def size_squares(self) -> np.ndarray:
        k = self.sizes
        return float(np.dot(k, k)) - k * k

    @functools.cached_property
    def n_union(self) -> np.ndarray:
        # a feature leaves the union when run i was the only one selecting it
        return np.count_nonzero(self._F) - self._row_sums((self._F == 1).astype(np.float64))

    @functools.cached_property
    def median_size(self) -> np.ndarray:
        """median of k without k_i, for every i (sorted positions, no loop)."""
        k = self.sel.row_sizes
        M = k.size
        order = np.argsort(k, kind="stable")
        s = k[order].astype(np.float64)
        rank = np.empty(M, dtype=np.int64)
        rank[order] = np.arange(M)
        L = M - 1

        def kth(j):  # j-th smallest of k without k_i (vector of j)
            return s[np.where(j < rank, j, j + 1)]

        if L % 2:
            return kth(np.full(M, L // 2))
        return (kth(np.full(M, L // 2 - 1)) + kth(np.full(M, L // 2))) / 2

    def _column_sum(self, g) -> np.ndarray:
        """sum_f g(F_f - z_if) = sum_f g(F_f) - sum_f z_if (g(F_f) - g(F_f - 1))."""
        gF = g(self._F)
        return gF.sum() - self._row_sums(gF - g(self._F - 1))

    @functools.cached_property
    def column_xlogx(self) -> np.ndarray:
        return self._column_sum(xlogx)

    @functools.cached_property
    def column_plogp(self) -> np.ndarray:
        return self._column_sum(lambda F: xlogx(F / self.n_runs))

    @functools.cached_property
    def subset_xlogx(self) -> np.ndarray:
        idx = self.sel.index_matrix()
        M = self.sel.n_runs
        if idx.shape[1] == 0:
            return np.full(M, float(xlogx(np.array([M - 1]))[0]))
        _, which, counts = np.unique(idx, axis=0, return_inverse=True, return_counts=True)
        c = counts[np.ravel(which)]
        # run i's subset is counted once less
        return xlogx(counts).sum() - xlogx(c) + xlogx(c - 1)


# ----------------------------------------------------------------------- kernels


class _Kernel:
    """Shared by the kernels: looks like the formula it wraps (name, docstring)."""

    def __init__(self, formula: Callable) -> None:
        self.formula = formula
        functools.update_wrapper(self, formula)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.formula.__qualname__})"


class CountKernel(_Kernel):
    """A frequency measure: ``formula(counts, **options)`` of :class:`Counts`.

    ``undefined_when(counts)`` (a bool, or a boolean array for leave-one-out counts)
    marks where the measure is undefined, with ``reason`` the warning's text.
    ``expectation(counts, formula, **options) -> float`` is the exact E[value | H0]
    (the formula evaluated over the null law of the summaries) used by the option
    ``correction_for_chance="exact"`` (``(v - E) / (1 - E)``). When every run is empty
    or full, Z is determined under H0 and E is the value itself (decided on the
    integer sizes): the corrected value is 0, or undefined (0/0) when the runs are
    identical and ``maximal_when_identical(**options)`` (default: always) says that
    identical runs score the maximum 1; otherwise the null law has two outcomes and
    E < 1 for a measure whose maximum 1 needs identical runs (Davis, Novovicova). The
    corrected value has no leave-one-out kernel (a null law per deleted run), so
    :meth:`leave_one_out` returns None for it.
    """

    def __init__(
        self,
        formula,
        *,
        undefined_when=None,
        reason="",
        expectation=None,
        maximal_when_identical=None,
    ) -> None:
        super().__init__(formula)
        self.undefined_when = undefined_when
        self.reason = reason
        self.expectation = expectation
        self.maximal_when_identical = maximal_when_identical or (lambda **options: True)

    def value(self, name: str, sel, *, correction_for_chance: str = "none", **options) -> float:
        """The measure on ``sel`` (NaN with a warning where undefined)."""
        c = Counts(sel)
        if self.undefined_when is not None and bool(self.undefined_when(c)):
            return undefined(name, self.reason)
        value = float(self.formula(c, **options))
        if correction_for_chance == "none" or not math.isfinite(value):
            return value
        k = c.sizes
        if np.all(chance.degenerate_intersection(k, k, c.n_features)):
            # every run empty or full: Z is determined under H0 and E = value exactly;
            # 0/0 when that value is the maximum 1, decided on the integers (identical
            # runs, all full since one is not empty) and the declaration, not on a float
            if np.all(k == c.n_features) and self.maximal_when_identical(**options):
                return undefined(
                    name,
                    "every run selects all features, so its null "
                    "expectation equals its maximum 1 and the "
                    "chance-corrected value is 0/0",
                )
            return 0.0
        expectation = self.expectation(c, self.formula, **options)
        if expectation is None:
            return undefined(name, "its null expectation is undefined")
        return (value - expectation) / (1.0 - expectation)

    def leave_one_out(
        self, sel, *, correction_for_chance: str = "none", **options
    ) -> Optional[np.ndarray]:
        """The M values with one run deleted (NaN where undefined); None for the
        chance-corrected value."""
        if correction_for_chance != "none":
            return None
        c = LeaveOneOutCounts(sel)
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.broadcast_to(
                np.asarray(self.formula(c, **options), dtype=np.float64), (sel.n_runs,)
            )
            if self.undefined_when is not None:
                values = np.where(self.undefined_when(c), np.nan, values)
        return np.asarray(values, dtype=np.float64)


def count_kernel(
    *, undefined_when=None, reason: str = "", expectation=None, maximal_when_identical=None
):
    """Decorator: the formula of a frequency measure as a :class:`CountKernel`.

    Examples
    --------
    >>> from propstab import as_selection
    >>> @count_kernel(undefined_when=lambda c: c.total == 0, reason="no run selects anything")
    ... def goh(c):
    ...     return c.total / (c.n_runs * c.n_features)
    >>> sel = as_selection([[1, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]])
    >>> goh.value("goh", sel), goh.leave_one_out(sel).tolist()
    (0.25, [0.125, 0.25, 0.375])
    """

    def decorator(formula):
        return CountKernel(
            formula,
            undefined_when=undefined_when,
            reason=reason,
            expectation=expectation,
            maximal_when_identical=maximal_when_identical,
        )

    return decorator


def pair_fractions(sel, score, correction="none"):
    """The M x M numerators and denominators of the pair scores of ``score``.

    With ``correction="exact"`` they are ``phi - E[phi|H0]`` and ``1 - E[phi|H0]``
    for every pair whose score is defined, E the exact hypergeometric expectation for
    the pair's sizes (a pair with a zero denominator keeps it: undefined either way).
    The corrected 0/0 (E = 1) is exact: E is the score itself where the null law of
    the intersection is one point (:func:`propstab.chance.degenerate_intersection`),
    and below 1 elsewhere.

    >>> from propstab import as_selection
    >>> jaccard = lambda r, a, b, d: (r, a + b - r)
    >>> num, den = pair_fractions(as_selection([[1, 1, 1]] * 2 + [[1, 0, 0]]), jaccard,
    ...                           "exact")
    >>> num.tolist()[0], den.tolist()[0]      # full-full: 0/0; full-partial: 0/(1 - 1/3)
    ([0.0, 0.0, 0.0], [0.0, 0.0, 0.6666666666666667])
    """
    num, den = _raw_fractions(sel, score)
    if correction == "none":
        return num, den
    E, _ = chance.expected_pairwise(score, sel.row_sizes, sel.n_features)
    return _corrected(num, den, E)


def _raw_fractions(sel, score):
    """The M x M numerators and denominators of ``score`` without correction."""
    r = sel.intersections.astype(np.float64)
    k = sel.row_sizes.astype(np.float64)
    num, den = score(r, k[:, None], k[None, :], float(sel.n_features))
    num, den = np.broadcast_arrays(num, den)
    return num, den


def _corrected(num, den, E):
    """``phi - E`` and ``1 - E`` where the raw denominator is non-zero (see
    :func:`pair_fractions`)."""
    raw_zero = den == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = num / np.where(raw_zero, 1.0, den)
        return np.where(raw_zero, num, phi - E), np.where(raw_zero, 0.0, 1.0 - E)


#: E[phi | H0] of the pairs of distinct sizes by (score, sizes, d), oldest dropped first
_NULL_EXPECTATIONS = FifoMemo(1024)


def _null_expectations(score, sel) -> np.ndarray:
    """:func:`propstab.chance.expected_pairwise` of a kernel's score for ``sel``'s sizes.

    expected_pairwise computes a table over the distinct sizes and spreads it over the
    pairs of runs; the table (its value for the distinct sizes themselves) is memoised by
    (score, distinct sizes, d): a kernel's score is a pure function of (r, k_i, k_j, d),
    and the audit's searches meet the same sizes again and again. Same numbers."""
    sizes, inverse = np.unique(sel.row_sizes, return_inverse=True)
    key = (score, tuple(sizes.tolist()), sel.n_features)

    def make():
        E = chance.expected_pairwise(score, sizes, sel.n_features)[0]
        E.setflags(write=False)
        return E

    inv = inverse.ravel()
    return _NULL_EXPECTATIONS.get_or_make(key, make)[np.ix_(inv, inv)]


class PairKernel(_Kernel):
    """A pairwise measure: the mean over ordered pairs i != j of
    ``score(r_ij, k_i, k_j, d) = (num, den)`` as ``num / den``.

    ``reason`` says when a denominator is zero (the measure is then undefined). The
    option ``correction_for_chance="exact"`` replaces each pair's score phi by
    ``(phi - E[phi|H0]) / (1 - E[phi|H0])`` (stabm's ``correction.for.chance``).
    """

    def __init__(self, score, *, reason: str) -> None:
        super().__init__(score)
        self.score = score
        self.reason = reason

    def value(self, name: str, sel, *, correction_for_chance: str = "none") -> float:
        """The mean pair score (NaN with a warning where a denominator is zero)."""
        if correction_for_chance == "none":
            return score_pair_mean(name, self.score, sel, self.reason)
        off = ~np.eye(sel.n_runs, dtype=bool)
        reason = self.reason
        num, den = _raw_fractions(sel, self.score)
        if not np.any((den == 0) & off):
            reason = (
                "its null expectation equals its maximum 1 for some pair of sizes, "
                "so the chance-corrected score is 0/0"
            )
        num, den = _corrected(num, den, _null_expectations(self.score, sel))
        return pair_mean(name, num, den, reason)

    def leave_one_out(self, sel, *, correction_for_chance: str = "none") -> np.ndarray:
        """The M means over the pairs without run i: from the row and column sums of the
        pair-score matrix (NaN where a pair left is undefined), by row blocks of Z Z^T
        (:func:`~propstab.measures._common.pair_score_sums`) without the correction."""
        M = sel.n_runs
        if correction_for_chance == "none":  # row blocks: bounded memory
            sums = pair_score_sums(sel, self.score, columns=True)
            total = math.fsum(sums.rows.tolist())
            return (total - (sums.rows + sums.columns)) / ((M - 1) * (M - 2))
        num, den = pair_fractions(sel, self.score, correction_for_chance)
        off = ~np.eye(M, dtype=bool)
        with np.errstate(divide="ignore", invalid="ignore"):
            P = np.where(off, num / np.where(den == 0, 1.0, den), 0.0)
        P[(den == 0) & off] = np.nan
        through_i = P.sum(axis=1) + P.sum(axis=0)  # ordered pairs with run i on either side
        return (math.fsum(P.sum(axis=1).tolist()) - through_i) / ((M - 1) * (M - 2))


def pair_kernel(*, reason: str):
    """Decorator: the pair score ``(r, k_i, k_j, d) -> (num, den)`` of a pairwise measure
    as a :class:`PairKernel`.

    Examples
    --------
    >>> from propstab import as_selection
    >>> @pair_kernel(reason="two runs are both empty")
    ... def dice(r, ki, kj, d):
    ...     return 2 * r, ki + kj
    >>> sel = as_selection([[1, 1, 0], [1, 0, 1], [1, 1, 0]])
    >>> round(dice.value("dice", sel), 6), dice.leave_one_out(sel).round(6).tolist()
    (0.666667, [0.5, 1.0, 0.5])
    """

    def decorator(score):
        return PairKernel(score, reason=reason)

    return decorator
