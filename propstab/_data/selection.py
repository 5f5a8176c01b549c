"""The selection matrix container: :class:`Selection` and its lazy sufficient statistics.

A :class:`Selection` holds a validated Z (``n_runs`` x ``n_features``), dense or
sparse, and computes on first use the statistics every measure is written in: the
row sizes k_i, the column counts M p_f, their totals and the intersection counts
Z Z^T (by the cheaper product, :mod:`propstab._data.gram`). Build one with
:func:`propstab.as_selection`, which validates the input (:mod:`propstab._validation`).
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .._utils.checks import fail
from .gram import intersection_blocks, intersections as gram_intersections

__all__ = ["Selection", "column_counts_csr", "csr_from_dense"]


class Selection:
    """A validated selection matrix ``Z`` (``n_runs`` x ``n_features``), dense or sparse.

    Build it with :func:`as_selection`. Sufficient statistics are computed once,
    on first use, and cached: ``row_sizes`` (:math:`k_i`), ``column_counts``
    (:math:`F_f = M \\hat p_f`) and the ``intersections`` matrix :math:`Z Z^T`
    (:math:`r_{ij}`). Sparse input stays sparse. The symbols are defined in the
    :doc:`/notation`.

    Parameters
    ----------
    dense : ndarray of bool, optional
        The M x d matrix, for dense input (exactly one of ``dense`` and ``csr``).
    csr : scipy.sparse.csr_matrix, optional
        The matrix as int8 ones, for sparse input.
    n_runs : int
        M, the number of runs (rows).
    n_features : int
        d, the number of features (columns).
    feature_names : sequence, optional
        The names of the d features.

    See Also
    --------
    propstab.as_selection : Validates any supported form of Z and builds a Selection.
    propstab.Rankings : The validated rank matrix of the ranking family.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 2.2.3 and Fig. 2.1 (the binary matrix Z of M
    feature sets over d features).

    Examples
    --------
    >>> from propstab import as_selection
    >>> sel = as_selection([[0, 2], [2, 3]], n_features=4)
    >>> sel.row_sizes.tolist(), sel.column_counts.tolist()
    ([2, 2], [1, 0, 2, 1])
    >>> sel.intersections.tolist()
    [[2, 1], [1, 2]]
    """

    __slots__ = ("_dense", "_csr", "n_runs", "n_features", "feature_names", "_cache")

    def __init__(
        self,
        *,
        dense: Optional[np.ndarray] = None,
        csr=None,
        n_runs: int,
        n_features: int,
        feature_names=None,
    ) -> None:
        self._dense = dense
        self._csr = csr
        self.n_runs = int(n_runs)
        self.n_features = int(n_features)
        self.feature_names = None if feature_names is None else tuple(feature_names)
        self._cache: dict = {}

    def __repr__(self) -> str:
        kind = "dense" if self._dense is not None else "sparse"
        return f"Selection(n_runs={self.n_runs}, n_features={self.n_features}, {kind})"

    @property
    def is_sparse(self) -> bool:
        return self._dense is None

    @property
    def shape(self):
        return (self.n_runs, self.n_features)

    def toarray(self) -> np.ndarray:
        """The dense boolean ``M x d`` matrix (allocates for sparse input)."""
        if self._dense is not None:
            return self._dense
        return self._csr.toarray().astype(bool)

    def tocsr(self):
        """The matrix as ``scipy.sparse.csr_matrix`` of int8 ones (no explicit zeros)."""
        if self._csr is None:
            self._csr = csr_from_dense(self._dense)
        return self._csr

    def stored(self):
        """Z in the form it is stored in: :meth:`tocsr` for sparse input, else :meth:`toarray`
        (no conversion either way).

        >>> from propstab import as_selection
        >>> as_selection([[1, 0], [0, 1]]).stored().dtype
        dtype('bool')
        """
        return self.tocsr() if self.is_sparse else self.toarray()

    def _cached(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    @property
    def row_sizes(self) -> np.ndarray:
        """The row sizes :math:`k_i`, the features selected by each run (int64, length M)."""

        def compute():
            if self._csr is not None:  # O(M) once a CSR exists (also for dense input)
                return np.diff(self._csr.indptr).astype(np.int64)
            return np.count_nonzero(self._dense, axis=1).astype(np.int64)

        return self._cached("row_sizes", compute)

    @property
    def column_counts(self) -> np.ndarray:
        """The column counts :math:`F_f = M \\hat p_f`: how many runs selected each feature.

        An int64 array of length d."""

        def compute():
            if self._csr is not None:  # O(N + d) once a CSR exists
                return column_counts_csr(self._csr, self.n_features)
            return np.count_nonzero(self._dense, axis=0).astype(np.int64, copy=False)

        return self._cached("column_counts", compute)

    @property
    def total(self) -> int:
        """The number of selections, :math:`N = \\sum_i k_i`."""

        def compute():
            if self._csr is None and "row_sizes" not in self._cache:
                return int(np.count_nonzero(self._dense))  # one fast pass, no row sums
            return int(self.row_sizes.sum())

        return self._cached("total", compute)

    @property
    def column_sum_squares(self) -> int:
        """The sum of squared column counts, :math:`\\sum_f F_f^2`, exactly (Python int).

        From CSR it is the sum of :math:`F_f` over the N stored selections, O(N) rather
        than O(d). int64 is exact: the sum is at most M N.
        """

        def compute():
            F = self.column_counts
            if self.n_runs * self.total >= 2**63:
                return sum(int(v) * int(v) for v in F[F > 0].tolist())
            if self._csr is not None:
                return int(np.take(F, self._csr.indices.astype(np.intp)).sum())  # gather: O(N)
            return int(np.einsum("i,i->", F, F))  # no copy of F

        return self._cached("column_sum_squares", compute)

    @property
    def intersections(self) -> np.ndarray:
        """The intersections :math:`r_{ij} = |s_i \\cap s_j|` of all pairs (int64, M x M).

        The diagonal holds the row sizes :math:`k_i`.

        Computed by one matrix product: a sparse product when the selections are
        sparse enough for it to be cheaper, a float BLAS product (exact for
        integer counts below 2**24 in float32) otherwise.
        """
        return self._cached("intersections", lambda: gram_intersections(self))

    def intersection_blocks(self, rows: int):
        """The rows of :attr:`intersections` in blocks of ``rows``: ``(start, stop, r)``.

        When one block holds every row, or the whole matrix is already cached, the
        blocks are slices of :attr:`intersections` (computed and cached once); otherwise
        each block is its own product and nothing M x M is held. The counts are the
        same integers.

        Parameters
        ----------
        rows : int
            Rows per block (at least 1).

        Yields
        ------
        start, stop : int
            The block's rows, ``start:stop``.
        r : ndarray of int64, shape (stop - start, M)
            Their intersection counts with every run.

        Examples
        --------
        >>> from propstab import as_selection
        >>> [r.tolist() for _, _, r in as_selection([[1, 0], [1, 1]]).intersection_blocks(1)]
        [[[1, 1]], [[1, 2]]]
        """
        if rows >= self.n_runs or "intersections" in self._cache:
            r = self.intersections
            for start in range(0, self.n_runs, rows):
                yield start, min(self.n_runs, start + rows), r[start : start + rows]
            return
        yield from intersection_blocks(self, rows)

    def common_size(self):
        """The size k every run selects, or None when the row sizes vary.

        >>> from propstab import as_selection
        >>> as_selection([[1, 1, 0], [0, 1, 1]]).common_size(), as_selection([[1, 0], [1, 1]]).common_size()
        (2, None)
        """
        k = self.row_sizes
        if k.size and np.any(k != k[0]):
            return None
        return int(k[0]) if k.size else 0

    def index_matrix(self) -> np.ndarray:
        """For constant row size k: the sorted selected indices as an ``M x k`` array."""
        k = self.row_sizes
        if k.size and np.any(k != k[0]):
            fail(
                f"index_matrix: needs a constant subset size (every run selecting "
                f"the same number of features); got row sizes from {int(k.min())} "
                f"to {int(k.max())}"
            )
        kk = int(k[0]) if k.size else 0
        if self._dense is not None:
            return np.nonzero(self._dense)[1].reshape(self.n_runs, kk)
        csr = self.tocsr().copy()
        csr.sort_indices()
        return csr.indices.reshape(self.n_runs, kk).astype(np.int64)


def column_counts_csr(csr, d: int) -> np.ndarray:
    """M p_f from a CSR Z: the number of stored entries in each column (int64, length d)."""
    return np.bincount(csr.indices, minlength=d).astype(np.int64, copy=False)


def csr_from_dense(dense: np.ndarray):
    """The CSR matrix (int8 ones, sorted indices) of a dense boolean Z.

    One scan for the flat positions of the nonzeros (several times faster than
    ``scipy.sparse.csr_matrix(Z)``, which goes through COO).
    """
    from scipy import sparse

    M, d = dense.shape
    flat = np.flatnonzero(dense)
    index = np.int32 if max(d, flat.size) < 2**31 else np.int64
    indptr = np.searchsorted(flat, np.arange(M + 1, dtype=np.int64) * d).astype(index)
    indices = (flat % d).astype(index)
    return sparse.csr_matrix((np.ones(flat.size, dtype=np.int8), indices, indptr), shape=(M, d))
