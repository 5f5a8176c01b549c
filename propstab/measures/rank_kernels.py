"""Kernels of the ranking family: a formula written once, evaluated on R and on R without
each run (the analogue of :mod:`propstab.measures.kernels` for rank matrices).

Every pairwise ranking measure is the mean over ordered pairs of runs of a pair score
h(r_i, r_j); what the value, its M leave-one-run-out values (the delete-one jackknife)
and the per-run terms of the U-statistic variance need is the *pair sums* summary
(:class:`PairSums`): the total ``T = sum_{i != j} h_ij`` and the row sums
``t_i = sum_{j != i} h_ij``. Then

- value = T / (M (M - 1));
- without run i: (T - 2 t_i) / ((M - 1)(M - 2));
- the Hoeffding projection of run i: t_i / (M - 1) (:func:`u_statistic_variance`).

Two kernels compute the pair sums:

- :class:`CosineKernel` (decorator :func:`cosine_kernel`): h is the cosine of per-run
  vectors v_i (Spearman: the centred ranks; Kendall: the signs of the rank differences
  of every ordered pair of features). With u_i = v_i / |v_i| and U = sum_i u_i,
  T = |U|^2 - M and t_i = u_i . U - 1, from U alone: O(M x length of v), never a loop
  over pairs of runs. This is the variance identity: the mean pairwise cosine is
  ``1 - sum_f s_f^2(u)``, the total sample variance of the normalised vectors.
- :class:`PairMatrixKernel` (decorator :func:`pair_matrix_kernel`): the M x M matrix of
  pair scores (Canberra), computed on blocks of runs.
"""
from __future__ import annotations

import functools
from typing import Callable, Iterable, Optional

import numpy as np

from .._utils.exceptions import undefined

__all__ = [
    "CosineKernel",
    "PairMatrixKernel",
    "PairSums",
    "RankKernel",
    "cosine_kernel",
    "pair_matrix_kernel",
    "u_statistic_variance",
]

_BLOCK_BYTES = 2**23  # one float64 temporary of a block: about 8 MB


class PairSums:
    """The pair sums of a pairwise ranking measure on R.

    Attributes
    ----------
    n_runs : int
        M.
    total : float
        T = sum over ordered pairs i != j of h(r_i, r_j).
    rows : ndarray
        t_i = sum_{j != i} h(r_i, r_j) (= sum_{j != i} h(r_j, r_i): h is symmetric).
    undefined : ndarray of bool
        The runs with which a pair score is undefined (e.g. a run ranking every feature
        equal has no correlation with another run).

    Examples
    --------
    >>> import numpy as np
    >>> s = PairSums(3, np.array([[0, 1.0, 0.5], [1.0, 0, -1.0], [0.5, -1.0, 0]]))
    >>> s.total, s.rows.tolist(), s.value()
    (1.0, [1.5, 0.0, -0.5], 0.16666666666666666)
    >>> s.leave_one_out().tolist()          # the pair left: (1, 2), (0, 2), (0, 1)
    [-1.0, 0.5, 1.0]
    """

    def __init__(
        self,
        n_runs: int,
        matrix: Optional[np.ndarray] = None,
        *,
        total=None,
        rows=None,
        undefined_runs=None,
    ) -> None:
        self.n_runs = int(n_runs)
        if matrix is not None:
            P = np.array(matrix, dtype=np.float64)
            np.fill_diagonal(P, 0.0)
            rows = P.sum(axis=1)
            total = float(rows.sum())
        self.total = float(total)
        self.rows = np.asarray(rows, dtype=np.float64)
        self.undefined = (
            np.zeros(self.n_runs, dtype=bool)
            if undefined_runs is None
            else np.asarray(undefined_runs, dtype=bool)
        )

    def value(self) -> float:
        """T / (M (M - 1))."""
        M = self.n_runs
        return self.total / (M * (M - 1))

    def leave_one_out(self) -> np.ndarray:
        """The M means over the pairs without run i (NaN where a pair left is
        undefined; all NaN for M < 3)."""
        M = self.n_runs
        if M < 3:
            return np.full(M, np.nan)
        out = (self.total - 2 * self.rows) / ((M - 1) * (M - 2))
        bad = self.undefined
        if bad.any():  # defined without run i only if i is the only bad run
            out = np.where(bad & (bad.sum() == 1), out, np.nan)
        return out

    def projections(self) -> np.ndarray:
        """t_i / (M - 1): the mean pair score of run i with the others (the estimated
        Hoeffding projection h_1(r_i))."""
        return self.rows / (self.n_runs - 1)


class RankKernel:
    """Shared by the ranking kernels: looks like the function it wraps; ``reason`` says
    when a pair score is undefined."""

    def __init__(self, function: Callable, *, reason: str = "") -> None:
        self.function = function
        self.reason = reason
        functools.update_wrapper(self, function)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.function.__qualname__})"

    def pair_sums(self, rk, **options) -> PairSums:  # pragma: no cover - abstract
        raise NotImplementedError

    def value(self, name: str, rk, **options) -> float:
        """The mean pair score (NaN with a warning where a pair is undefined)."""
        sums = self.pair_sums(rk, **options)
        if sums.undefined.any():
            runs = np.flatnonzero(sums.undefined).tolist()
            return undefined(
                name,
                f"{self.reason} (run(s) {', '.join(map(str, runs[:5]))}"
                f"{', ...' if len(runs) > 5 else ''})",
            )
        return sums.value()

    def leave_one_out(self, rk, **options) -> np.ndarray:
        """The M values with one run deleted, from the pair sums."""
        return self.pair_sums(rk, **options).leave_one_out()


class CosineKernel(RankKernel):
    """A ranking measure whose pair score is the cosine of per-run vectors.

    ``function(rk)`` yields the runs' vectors in blocks of columns (M x b arrays whose
    concatenation is the M x L matrix of vectors v_i); ``squares(rk)`` gives |v_i|^2
    exactly (without a pass over the blocks). The pair sums come from
    U = sum_i v_i / |v_i| in one pass over the blocks.
    """

    def __init__(self, function, *, squares: Callable, reason: str) -> None:
        super().__init__(function, reason=reason)
        self.squares = squares

    def pair_sums(self, rk, **options) -> PairSums:
        M = rk.n_runs
        sq = np.asarray(self.squares(rk), dtype=np.float64)
        bad = sq == 0
        scale = np.where(bad, 0.0, 1.0 / np.sqrt(np.where(bad, 1.0, sq)))
        square, inner = 0.0, np.zeros(M)
        for block in self.function(rk, **options):
            u = np.asarray(block, dtype=np.float64) * scale[:, None]
            U = u.sum(axis=0)
            square += float(U @ U)
            inner += u @ U
        ones = (~bad).astype(np.float64)
        # |u_i| = 1 except for undefined runs (u_i = 0): T = |U|^2 - sum |u_i|^2
        return PairSums(M, total=square - ones.sum(), rows=inner - ones, undefined_runs=bad)


def cosine_kernel(*, squares: Callable, reason: str):
    """Decorator: per-run vectors (yielded in blocks of columns) as a :class:`CosineKernel`.

    Examples
    --------
    >>> from propstab import as_rankings
    >>> @cosine_kernel(squares=lambda rk: rk.row_squares, reason="a run is constant")
    ... def pearson_of_ranks(rk):
    ...     yield rk.centred
    >>> rk = as_rankings([[1, 2, 3], [1, 3, 2], [3, 2, 1]])
    >>> round(pearson_of_ranks.value("example", rk), 6)       # (0.5 - 1 - 0.5) / 3
    -0.333333
    >>> pearson_of_ranks.leave_one_out(rk).round(12).tolist()     # the pair left
    [-0.5, -1.0, 0.5]
    """

    def decorator(function):
        return CosineKernel(function, squares=squares, reason=reason)

    return decorator


class PairMatrixKernel(RankKernel):
    """A ranking measure given by its M x M matrix of pair scores ``function(rk, **options)``
    (the diagonal is ignored; NaN marks no pair: pair scores are defined everywhere)."""

    def pair_sums(self, rk, **options) -> PairSums:
        return PairSums(rk.n_runs, self.function(rk, **options))


def pair_matrix_kernel(*, reason: str = "a pair score is undefined"):
    """Decorator: a function returning the M x M pair-score matrix as a
    :class:`PairMatrixKernel`.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab import as_rankings
    >>> @pair_matrix_kernel()
    ... def footrule(rk):
    ...     R = rk.toarray()
    ...     return np.abs(R[:, None, :] - R[None, :, :]).sum(axis=2)
    >>> footrule.value("footrule", as_rankings([[1, 2, 3], [3, 2, 1]]))
    4.0
    """

    def decorator(function):
        return PairMatrixKernel(function, reason=reason)

    return decorator


def row_blocks(n: int, per_row: int) -> Iterable[slice]:
    """Slices of ``range(n)`` such that a block of rows, each holding ``per_row`` float64
    values, stays near ``_BLOCK_BYTES`` (the loop is over blocks, never over pairs).

    >>> [(s.start, s.stop) for s in row_blocks(5, 2 ** 19)]
    [(0, 2), (2, 4), (4, 5)]
    """
    rows = max(1, _BLOCK_BYTES // (8 * max(1, per_row)))
    return (slice(start, min(n, start + rows)) for start in range(0, n, rows))


def u_statistic_variance(measure: str):
    """The analytic variance of the pairwise ranking measure ``measure`` (a U-statistic of
    degree 2): a function ``(rk, statistic) -> (variance, terms, factor)`` for
    ``register(analytic_variance=...)``, reading the measure's kernel from the registry.

    Notes
    -----
    The mean of h over the M (M - 1) ordered pairs of M independent runs is a
    U-statistic of degree 2 (Hoeffding 1948). Its variance is
    4 zeta_1 / M + O(1/M^2) with zeta_1 = Var h_1(r), h_1(r) = E[h(r, r')]; with the
    estimated projections h_1(r_i) ~ t_i / (M - 1) (Sen 1960),

    .. math:: v = \\frac{4}{M^2} \\sum_i \\Big(\\frac{t_i}{M - 1} - \\bar t\\Big)^2,

    the form of the thesis's Thm 6 (its Phi_(i) are these projections for Fleiss's
    kappa). The delete-one jackknife differs by the factor M (M - 1) / (M - 2)^2 only.

    Examples
    --------
    >>> from propstab import as_rankings
    >>> variance = u_statistic_variance("spearman")
    >>> v, terms, factor = variance(as_rankings([[1, 2, 3], [1, 3, 2], [3, 2, 1]]), -1 / 3)
    >>> round(v, 6), terms.round(12).tolist()     # rho: 0.5 (0, 1), -1 (0, 2), -0.5 (1, 2)
    (0.12963, [-0.25, -0.0, -0.75])
    """

    def variance(rk, statistic):
        from ..registry import get_measure

        M = rk.n_runs
        factor = 4.0 / M**2
        if np.isnan(statistic):
            return float("nan"), np.full(M, np.nan), factor
        terms = get_measure(measure).kernel.pair_sums(rk).projections()
        dev = terms - terms.mean()
        return float(factor * np.dot(dev, dev)), terms, factor

    variance.source = "U-statistic, Hoeffding 1948"
    return variance
