"""The rank matrix container: :class:`Rankings` and its lazy summaries.

A :class:`Rankings` holds a validated rank matrix R (``n_runs`` x ``n_features``): run i
ranks the d features, rank 1 the most important. Ranks are stored as *midranks* (the
average-rank tie rule: features tied over positions s..s+t-1 all get s + (t-1)/2), the
form in which Spearman's rho with ties is Pearson's correlation of the ranks (as
``scipy.stats.spearmanr`` and R's ``cor(method = "spearman")`` compute it). The
summaries every ranking measure is written in are computed on first use and cached:
the centred ranks, their per-run sums of squares, the per-feature rank variances, the
runs' tie patterns and the top-k sets. Build one with :func:`propstab.as_rankings`,
which validates the input (:mod:`propstab._validation`).
"""
from __future__ import annotations

from typing import Optional

import numpy as np

__all__ = ["Rankings", "midranks", "min_ranks"]


def midranks(order: np.ndarray) -> np.ndarray:
    """Row by row, the midranks 1..d of ``order`` (smaller is better, ties averaged;
    ``inf`` ranks last, tied with the other ``inf``).

    >>> midranks(np.array([[1.0, 3.0, 3.0, 2.0], [np.inf, 1.0, np.inf, np.inf]])).tolist()
    [[1.0, 3.5, 3.5, 2.0], [3.0, 1.0, 3.0, 3.0]]
    """
    order = np.asarray(order)
    if order.ndim != 2 or order.dtype.kind not in "biuf" or np.isnan(order).any():
        from scipy.stats import rankdata  # NaN propagates as scipy does

        return rankdata(order, method="average", axis=1).astype(np.float64)
    # all rows at once (rankdata with axis=1 ranks row by row in Python): sort each row,
    # find its groups of equal values, give each member the mean of the group's first
    # and last position; the positions are small integers, so the halves are exact and
    # the values the same as rankdata's
    M, d = order.shape
    idx = np.argsort(order, axis=1, kind="stable")
    s = np.take_along_axis(order, idx, axis=1)
    pos = np.broadcast_to(np.arange(1, d + 1), (M, d))
    first = np.ones((M, d), dtype=bool)
    first[:, 1:] = s[:, 1:] != s[:, :-1]
    last = np.ones((M, d), dtype=bool)
    last[:, :-1] = first[:, 1:]
    start = np.maximum.accumulate(np.where(first, pos, 0), axis=1)
    end = np.minimum.accumulate(np.where(last, pos, d + 1)[:, ::-1], axis=1)[:, ::-1]
    out = np.empty((M, d), dtype=np.float64)
    np.put_along_axis(out, idx, (start + end) / 2.0, axis=1)
    return out


def min_ranks(ranks: np.ndarray) -> np.ndarray:
    """Row by row, the best position of each feature's tie group (``rankdata``'s "min"):
    a feature is in a run's top k exactly when fewer than k features are ranked before it.

    >>> min_ranks(np.array([[1.0, 3.5, 3.5, 2.0]])).tolist()
    [[1.0, 3.0, 3.0, 2.0]]
    """
    ranks = np.asarray(ranks)
    if ranks.ndim != 2 or ranks.dtype.kind not in "biuf" or not np.isfinite(ranks).all():
        # scipy's rankdata as it is (NaN propagates; it also gives NaN to a row holding
        # both inf and -inf); a Rankings' midranks are always finite
        from scipy.stats import rankdata

        return rankdata(ranks, method="min", axis=1).astype(np.float64)
    # all rows at once, as midranks does (rankdata with axis=1 ranks row by row in
    # Python): each member of a group of equal values gets the group's first position
    M, d = ranks.shape
    idx = np.argsort(ranks, axis=1, kind="stable")
    s = np.take_along_axis(ranks, idx, axis=1)
    first = np.ones((M, d), dtype=bool)
    first[:, 1:] = s[:, 1:] != s[:, :-1]
    start = np.maximum.accumulate(np.where(first, np.arange(1, d + 1), 0), axis=1)
    out = np.empty((M, d), dtype=np.float64)
    np.put_along_axis(out, idx, start.astype(np.float64), axis=1)
    return out


class Rankings:
    """A validated rank matrix R (``n_runs`` x ``n_features``), stored as midranks.

    Build it with :func:`propstab.as_rankings`. Run i ranks the d features, rank 1 the
    most important; tied features share the average of their positions (midranks).
    Summaries are computed once, on first use, and cached: ``centred``
    (:math:`R - (d+1)/2`), ``row_squares`` (the sum over features of the centred ranks
    squared, per run), ``rank_variances`` (:math:`s_f^2`, the sample variance of each
    feature's rank over the runs), ``tie_patterns`` and the top-k selections
    (:meth:`top_k`). The symbols are defined in the :doc:`/notation`.

    Parameters
    ----------
    ranks : ndarray of float64, shape (M, d)
        Validated midranks (made read-only).
    feature_names : sequence, optional
        The names of the d features.
    scores : ndarray, optional
        The scores the ranks were derived from.

    Attributes
    ----------
    n_runs, n_features : int
        M and d.
    feature_names : tuple or None
    scores : ndarray or None
        The scores the ranks were derived from (``as_rankings(..., kind="scores")``).

    See Also
    --------
    propstab.as_rankings : Validates ranks or scores and builds a Rankings.
    propstab.Selection : The validated selection matrix of the set measures.

    References
    ----------
    Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116.
    Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho to
    measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391.

    Examples
    --------
    >>> from propstab import as_rankings
    >>> rk = as_rankings([[1, 2, 3, 4], [2, 1, 3, 4], [1, 2, 4, 3]])
    >>> rk
    Rankings(n_runs=3, n_features=4, untied)
    >>> rk.rank_variances.tolist()
    [0.3333333333333333, 0.3333333333333333, 0.3333333333333333, 0.3333333333333333]
    >>> rk.top_k(2).toarray().astype(int).tolist()
    [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0]]
    """

    __slots__ = ("_ranks", "n_runs", "n_features", "feature_names", "scores", "_cache")

    def __init__(
        self, ranks: np.ndarray, *, feature_names=None, scores: Optional[np.ndarray] = None
    ) -> None:
        self._ranks = ranks
        self._ranks.setflags(write=False)
        self.n_runs, self.n_features = (int(n) for n in ranks.shape)
        self.feature_names = None if feature_names is None else tuple(feature_names)
        self.scores = scores
        self._cache: dict = {}

    def __repr__(self) -> str:
        ties = "untied" if self.is_untied else "with ties"
        return f"Rankings(n_runs={self.n_runs}, n_features={self.n_features}, {ties})"

    @property
    def shape(self):
        return (self.n_runs, self.n_features)

    def toarray(self) -> np.ndarray:
        """The M x d midranks (float64, read-only)."""
        return self._ranks

    def stored(self) -> np.ndarray:
        """The midranks (as :meth:`toarray`): what a measure recomputed on a subset of the
        runs is given (:func:`propstab.as_rankings` accepts them as they are)."""
        return self._ranks

    def _cached(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    @property
    def centred(self) -> np.ndarray:
        """R - (d + 1)/2: every run's ranks centred (midranks keep the mean (d + 1)/2)."""
        return self._cached("centred", lambda: self._ranks - (self.n_features + 1) / 2)

    @property
    def row_squares(self) -> np.ndarray:
        """The sum of squares :math:`\\sum_f (r_{if} - (d+1)/2)^2` of each run.

        It is :math:`d (d^2 - 1)/12` without ties, less :math:`(t^3 - t)/12` for each of
        the run's tie groups of size t; 0 for a run ranking every feature equal. Exact
        (quarter-integers in float64)."""

        def compute():
            c2 = 2 * self.centred  # integers: midranks are half-integers
            return np.einsum("ij,ij->i", c2, c2) / 4

        return self._cached("row_squares", compute)

    @property
    def constant_runs(self) -> np.ndarray:
        """The runs that rank every feature equal (boolean, length M)."""
        return self.row_squares == 0

    @property
    def is_untied(self) -> bool:
        """True when no run has tied features."""
        d = self.n_features
        return bool(np.all(self.row_squares == d * (d * d - 1) / 12))

    @property
    def rank_sums(self) -> np.ndarray:
        """The column sums of the ranks, :math:`\\sum_i r_{if}` (length d)."""
        return self._cached("rank_sums", lambda: self._ranks.sum(axis=0))

    @property
    def rank_variances(self) -> np.ndarray:
        """The sample variances :math:`s_f^2` (divisor M - 1) of the features' ranks."""

        def compute():
            # midranks are half-integers: with c = 2 r the sums are exact integers, and
            # s_f^2 = (M sum_i c^2 - (sum_i c)^2) / (4 M (M - 1)) is one correctly rounded
            # division (up to 2**53 for the sums)
            M = self.n_runs
            c = 2 * self._ranks
            num = M * np.einsum("ij,ij->j", c, c) - c.sum(axis=0) ** 2
            return num / (4 * M * (M - 1))

        return self._cached("rank_variances", compute)

    @property
    def total_variance(self) -> float:
        """The total variance of the ranks, :math:`\\sum_f s_f^2` (MONOTONICITY's quantity)."""
        return float(self.rank_variances.sum())

    @property
    def tie_patterns(self) -> np.ndarray:
        """Each run's midranks in increasing order (M x d): two runs have the same tie
        pattern exactly when these rows are equal (a permutation of the features maps
        one run to the other)."""
        return self._cached("tie_patterns", lambda: np.sort(self._ranks, axis=1))

    @property
    def best_positions(self) -> np.ndarray:
        """The best position of each feature's tie group (:func:`min_ranks`)."""
        return self._cached("best_positions", lambda: min_ranks(self._ranks))

    def top_k(self, k: int):
        """The selection matrix of the runs' top-k sets (a :class:`~propstab.Selection`).

        Feature f is in run i's top k when fewer than k features are ranked before it
        (its best tied position is at most k): a tie group that straddles position k
        enters whole, so a run's set has k features or more, never a random choice
        among tied features.

        Examples
        --------
        >>> from propstab import as_rankings
        >>> as_rankings([[1, 2, 3, 4], [1, 2.5, 2.5, 4]]).top_k(2).row_sizes.tolist()
        [2, 3]
        """
        from .selection import Selection

        dense = np.ascontiguousarray(self.best_positions <= k)
        return Selection(
            dense=dense,
            n_runs=self.n_runs,
            n_features=self.n_features,
            feature_names=self.feature_names,
        )
