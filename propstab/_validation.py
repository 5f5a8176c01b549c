"""Input validation: every accepted form of a selection matrix becomes one
:class:`Selection`, and every input error message is written here.

Messages name the argument, the rule and the offending value.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence, Set
from typing import Any, Optional

import numpy as np

__all__ = ["Selection", "as_selection", "check_options"]

_FLOAT32_EXACT = 2 ** 24  # integers up to this are exact in float32 sums


class Selection:
    """A validated selection matrix ``Z`` (``n_runs`` x ``n_features``), dense or sparse.

    Build it with :func:`as_selection`. Sufficient statistics are computed once,
    on first use, and cached: ``row_sizes`` (k_i), ``column_counts`` (M p_f) and
    the ``intersections`` matrix ``Z Z^T`` (r_ij). Sparse input stays sparse.

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

    def __init__(self, *, dense: Optional[np.ndarray] = None, csr=None,
                 n_runs: int, n_features: int, feature_names=None) -> None:
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
            self._csr = _csr_from_dense(self._dense)
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
        """k_i, the number of features selected in run i (int64, length M)."""
        def compute():
            if self._csr is not None:     # O(M) once a CSR exists (also for dense input)
                return np.diff(self._csr.indptr).astype(np.int64)
            return np.count_nonzero(self._dense, axis=1).astype(np.int64)
        return self._cached("row_sizes", compute)

    @property
    def column_counts(self) -> np.ndarray:
        """M p_f, how many runs selected feature f (int64, length d)."""
        def compute():
            if self._csr is not None:     # O(N + d) once a CSR exists
                return _column_counts_csr(self._csr, self.n_features)
            return np.count_nonzero(self._dense, axis=0).astype(np.int64, copy=False)
        return self._cached("column_counts", compute)

    @property
    def total(self) -> int:
        """N = sum_i k_i, the number of selections."""
        def compute():
            if self._csr is None and "row_sizes" not in self._cache:
                return int(np.count_nonzero(self._dense))    # one fast pass, no row sums
            return int(self.row_sizes.sum())
        return self._cached("total", compute)

    @property
    def column_sum_squares(self) -> int:
        """sum_f F_f^2 over the column counts, exactly (Python int).

        From CSR it is the sum of F_f over the N stored selections, O(N) rather
        than O(d). int64 is exact: the sum is at most M N.
        """
        def compute():
            F = self.column_counts
            if self.n_runs * self.total >= 2 ** 63:
                return sum(int(v) * int(v) for v in F[F > 0].tolist())
            if self._csr is not None:
                return int(np.take(F, self._csr.indices.astype(np.intp)).sum())   # gather: O(N)
            return int(np.einsum("i,i->", F, F))      # no copy of F
        return self._cached("column_sum_squares", compute)

    @property
    def intersections(self) -> np.ndarray:
        """r_ij = ``|s_i ∩ s_j|`` for all pairs (int64, M x M), diagonal k_i.

        Computed by one matrix product: a sparse product when the selections are
        sparse enough for it to be cheaper, a float BLAS product (exact for
        integer counts below 2**24 in float32) otherwise.
        """
        return self._cached("intersections", self._compute_intersections)

    def _compute_intersections(self) -> np.ndarray:
        M, d = self.shape
        dense_input = self._dense is not None
        if not dense_input and M * d * 4 > _DENSIFY_MAX_BYTES:
            return _gram_sparse(self._csr)      # a large sparse Z (d = 10^6) is never densified
        if dense_input and _dense_is_surely_cheaper(M, d, self.total):
            return _gram_dense(self._dense)
        csr = self.tocsr()
        if _sparse_is_cheaper(M, d, csr.nnz, self.column_sum_squares, dense_input=dense_input):
            return _gram_sparse(csr)
        return _gram_dense(self.toarray())

    def index_matrix(self) -> np.ndarray:
        """For constant row size k: the sorted selected indices as an ``M x k`` array."""
        k = self.row_sizes
        if k.size and np.any(k != k[0]):
            _fail(f"index_matrix: needs a constant subset size (every run selecting the same "
                  f"number of features); got row sizes from {int(k.min())} to {int(k.max())}")
        kk = int(k[0]) if k.size else 0
        if self._dense is not None:
            return np.nonzero(self._dense)[1].reshape(self.n_runs, kk)
        csr = self.tocsr().copy()
        csr.sort_indices()
        return csr.indices.reshape(self.n_runs, kk).astype(np.int64)


# Cost model of the intersection counts Z Z^T, in nanoseconds, fitted by
# benchmarks/calibrate_gram.py (least squares of the relative error) to timings on
# this project's machine: 2 cores, Debian's OpenBLAS 0.3.21 (pthread), scipy 1.10.
# Only the choice of product depends on it, never the result.
_DENSE_NS = (4e3, 7e-3, 0.7, 1.0)              # fixed, per M^2 d, per M d, per M^2
_SCAN_NS = (0.2, 5.0)                          # dense Z -> CSR: per M d, per nnz
_SPARSE_NS = (1e5, 19.0, 1.7, 5.7, 0.3)        # fixed, per nnz, per sum F^2, per output, per M^2
_DENSIFY_NS = 1.0                              # per M d: toarray of a sparse input
_DENSIFY_MAX_BYTES = 2 ** 27                   # never densify a sparse input beyond this


def _dense_gram_ns(M: int, d: int) -> float:
    """Estimated time of ``A @ A.T`` on the float32 copy of a dense boolean Z."""
    fixed, per_m2d, per_md, per_m2 = _DENSE_NS
    return fixed + per_m2d * M * M * d + per_md * M * d + per_m2 * M * M


def _sparse_gram_ns(M: int, d: int, nnz: float, sum_sq: float, *, scan: bool) -> float:
    """Estimated time of the CSR product ``S @ S.T`` and its dense M x M copy.

    ``sum_sq`` = sum_f F_f^2 (F the column counts) is the number of scalar
    products the CSR product performs and bounds its nonzero outputs (as M^2
    does); ``scan`` adds the conversion of a dense Z to CSR.
    """
    fixed, per_nnz, per_sq, per_out, per_m2 = _SPARSE_NS
    cost = fixed + per_nnz * nnz + per_sq * sum_sq + per_out * min(M * M, sum_sq) + per_m2 * M * M
    if scan:
        cost += _SCAN_NS[0] * M * d + _SCAN_NS[1] * nnz
    return cost


def _dense_is_surely_cheaper(M: int, d: int, nnz: int) -> bool:
    """BLAS beats the sparse product on a dense Z whatever its column counts.

    Decided from the number of nonzeros alone, with the least sum_f F_f^2
    possible, nnz^2 / d (Cauchy-Schwarz), and the scan into CSR included: so no
    scan is spent when BLAS wins anyway (few runs, or dense selections).
    """
    return _dense_gram_ns(M, d) <= _sparse_gram_ns(M, d, nnz, nnz * nnz / d, scan=True)


def _sparse_is_cheaper(M: int, d: int, nnz: int, sum_sq: float, *, dense_input: bool) -> bool:
    """Cost model for ``Z Z^T``: is the sparse product cheaper than a float BLAS product?

    The BLAS product costs ~ M^2 d (plus the M d float copy); the CSR product
    costs ~ sum_sq = sum_f F_f^2 with F the column counts (plus nnz and M^2
    terms), so it wins when the selections are sparse and spread, and loses when
    a few features are selected by most runs. For a dense Z the scan into CSR has
    been paid when this is asked; for a sparse Z the dense copy is added to the
    BLAS side (``_compute_intersections`` asks only when that copy stays under
    ``_DENSIFY_MAX_BYTES``, so d = 10^6 is never densified).
    """
    densify_ns = 0.0 if dense_input else _DENSIFY_NS * M * d
    return _sparse_gram_ns(M, d, nnz, sum_sq, scan=False) < _dense_gram_ns(M, d) + densify_ns


def _gram_dense(dense: np.ndarray) -> np.ndarray:
    """``Z Z^T`` of a dense boolean Z by one BLAS product (syrk).

    Exact: the sums are integers at most d, exact in float32 below 2**24.
    """
    dtype = np.float32 if dense.shape[1] < _FLOAT32_EXACT else np.float64
    A = dense.astype(dtype)
    return (A @ A.T).astype(np.int64)


def _gram_sparse(csr) -> np.ndarray:
    """``Z Z^T`` by a CSR product in int64 (int8 data would overflow), as a dense array."""
    S = csr.astype(np.int64)
    return (S @ S.T).toarray()


def _column_counts_csr(csr, d: int) -> np.ndarray:
    return np.bincount(csr.indices, minlength=d).astype(np.int64, copy=False)


def _csr_from_dense(dense: np.ndarray):
    """The CSR matrix (int8 ones, sorted indices) of a dense boolean Z.

    One scan for the flat positions of the nonzeros (several times faster than
    ``scipy.sparse.csr_matrix(Z)``, which goes through COO).
    """
    from scipy import sparse
    M, d = dense.shape
    flat = np.flatnonzero(dense)
    index = np.int32 if max(d, flat.size) < 2 ** 31 else np.int64
    indptr = np.searchsorted(flat, np.arange(M + 1, dtype=np.int64) * d).astype(index)
    indices = (flat % d).astype(index)
    return sparse.csr_matrix((np.ones(flat.size, dtype=np.int8), indices, indptr),
                             shape=(M, d))


# ----------------------------------------------------------------------------------
# conversion of every accepted input form


def _fail(rule: str, exc=ValueError):
    raise exc(rule)


def _check_shape(M: int, d: int) -> None:
    if M < 2:
        _fail(f"Z: a selection matrix needs at least 2 runs (rows); got {M} run(s)")
    if d < 1:
        _fail(f"Z: a selection matrix needs at least 1 feature (column); got {d} features")


def _check_n_features(n_features) -> int:
    if isinstance(n_features, bool) or not isinstance(n_features, numbers.Integral):
        _fail(f"n_features: must be a positive integer; got {type(n_features).__name__} "
              f"{n_features!r}", TypeError)
    if n_features < 1:
        _fail(f"n_features: must be a positive integer; got {n_features}")
    return int(n_features)


def _check_feature_names(feature_names, d: Optional[int]) -> tuple:
    if isinstance(feature_names, (str, bytes)) or not isinstance(feature_names, Iterable):
        _fail(f"feature_names: must be a sequence of names; got {type(feature_names).__name__} "
              f"{feature_names!r}", TypeError)
    names = tuple(feature_names)
    if d is not None and len(names) != d:
        _fail(f"feature_names: must have one name per feature (n_features={d}); "
              f"got {len(names)} names")
    seen = set()
    for name in names:
        if name in seen:
            _fail(f"feature_names: names must be unique; {name!r} appears more than once")
        seen.add(name)
    return names


def _binary_dense(arr: np.ndarray, labels=None, hint: str = "") -> np.ndarray:
    """Validate a 2-D numeric/bool array as 0/1 and return it as bool."""
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iuf":
        _fail(f"Z: entries must be 0/1 or booleans; got an array of dtype {arr.dtype}", TypeError)
    if arr.dtype.kind == "f":
        nan = np.isnan(arr)
        if nan.any():
            i, j = np.argwhere(nan)[0]
            col = labels[j] if labels is not None else j
            _fail(f"Z: entries must be 0/1 or booleans; found NaN at run {i}, feature {col!r}")
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        col = labels[j] if labels is not None else j
        _fail(f"Z: entries must be 0/1 or booleans; found {arr[i, j]!r} at run {i}, "
              f"feature {col!r}{hint}")
    return arr.astype(bool)


def _from_sparse(Z, feature_names) -> Selection:
    from scipy import sparse
    csr = Z if sparse.isspmatrix_csr(Z) else sparse.csr_matrix(Z)   # copied before any change
    M, d = csr.shape
    _check_shape(M, d)
    # the common input, a canonical CSR storing only ones, has nothing to clean
    if not (csr.data.dtype.kind in "biuf" and csr.has_canonical_format
            and bool(np.all(csr.data == 1))):
        csr = csr.copy()
        csr.sum_duplicates()
        data = csr.data
        if data.dtype.kind == "f" and np.isnan(data).any():
            _fail("Z: entries must be 0/1 or booleans; the sparse matrix stores NaN")
        if data.dtype != bool and data.dtype.kind not in "iuf":
            _fail(f"Z: entries must be 0/1 or booleans; got a sparse matrix of dtype "
                  f"{data.dtype}", TypeError)
        bad = (data != 0) & (data != 1)
        if bad.any():
            _fail(f"Z: entries must be 0/1 or booleans; the sparse matrix stores "
                  f"{data[np.argmax(bad)]!r}")
        csr.eliminate_zeros()
    csr = sparse.csr_matrix((np.ones(csr.nnz, dtype=np.int8), csr.indices.copy(),
                             csr.indptr.copy()), shape=(M, d))
    names = None if feature_names is None else _check_feature_names(feature_names, d)
    return Selection(csr=csr, n_runs=M, n_features=d, feature_names=names)


def _from_dataframe(Z, feature_names) -> Selection:
    if feature_names is not None:
        _fail("feature_names: not accepted with a DataFrame, whose columns name the features",
              TypeError)
    names = _check_feature_names([c for c in Z.columns], None)
    try:
        arr = Z.to_numpy()
    except Exception as exc:  # pragma: no cover - defensive
        raise TypeError(f"Z: could not read the DataFrame as an array: {exc}") from None
    if arr.ndim != 2:
        _fail(f"Z: must be 2-dimensional (runs x features); got shape {arr.shape}")
    _check_shape(*arr.shape)
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            _fail("Z: entries must be 0/1 or booleans; the DataFrame has non-numeric values",
                  TypeError)
    dense = _binary_dense(arr, labels=names)
    return Selection(dense=np.ascontiguousarray(dense), n_runs=arr.shape[0],
                     n_features=arr.shape[1], feature_names=names)


def _is_index_collection(x) -> bool:
    return isinstance(x, (Set, Sequence, np.ndarray)) and not isinstance(x, (str, bytes))


def _from_index_sets(Z, n_features, feature_names) -> Selection:
    from scipy import sparse
    runs = list(Z)
    if len(runs) < 2:
        _check_shape(len(runs), 1)
    for i, run in enumerate(runs):
        if not _is_index_collection(run) and not isinstance(run, Iterable) or isinstance(run, (str, bytes)):
            _fail(f"Z: run {i} must be a collection of feature indices; got "
                  f"{type(run).__name__} {run!r}", TypeError)
    lookup = None
    if feature_names is not None:
        names = _check_feature_names(feature_names, n_features)
        d = len(names)
        lookup = {name: j for j, name in enumerate(names)}
    else:
        names = None
        if n_features is None:
            _fail("n_features: required when Z is given as index collections "
                  "(one collection of selected feature indices per run)")
        d = n_features
    _check_shape(len(runs), d)
    indptr = [0]
    indices = []
    for i, run in enumerate(runs):
        items = list(run.tolist() if isinstance(run, np.ndarray) else run)
        if isinstance(run, np.ndarray) and run.ndim != 1:
            _fail(f"Z: run {i} must be a 1-D collection of feature indices; got shape {run.shape}")
        idx = []
        for item in items:
            if lookup is not None:
                if isinstance(item, numbers.Integral) and item not in lookup:
                    _fail(f"Z: run {i} contains {item!r}; with feature_names=, runs must "
                          f"list feature names", TypeError)
                if item not in lookup:
                    _fail(f"Z: run {i} names feature {item!r}, which is not in feature_names")
                idx.append(lookup[item])
            else:
                if isinstance(item, bool) or not isinstance(item, numbers.Integral):
                    if isinstance(item, numbers.Real) and float(item).is_integer() and not isinstance(item, bool):
                        _fail(f"Z: run {i} contains {item!r} ({type(item).__name__}); feature "
                              f"indices must be integers, not floats", TypeError)
                    _fail(f"Z: run {i} contains {item!r} ({type(item).__name__}); feature "
                          f"indices must be integers (or pass feature_names= to use names)",
                          TypeError)
                if item < 0:
                    _fail(f"Z: run {i} contains the negative feature index {item}; indices "
                          f"are 0-based, in 0..{d - 1}")
                if item >= d:
                    _fail(f"Z: run {i} contains feature index {item}, outside 0..{d - 1} "
                          f"(n_features={d})")
                idx.append(int(item))
        if len(set(idx)) != len(idx):
            seen = set()
            dup = next(x for x in idx if x in seen or seen.add(x))
            shown = names[dup] if names is not None else dup
            _fail(f"Z: run {i} lists feature {shown!r} more than once; a run is a set of "
                  f"features")
        idx.sort()
        indices.extend(idx)
        indptr.append(len(indices))
    csr = sparse.csr_matrix((np.ones(len(indices), dtype=np.int8),
                             np.asarray(indices, dtype=np.int64), np.asarray(indptr)),
                            shape=(len(runs), d))
    return Selection(csr=csr, n_runs=len(runs), n_features=d, feature_names=names)


def as_selection(Z, *, n_features: Optional[int] = None, feature_names=None) -> Selection:
    """Validate ``Z`` and return it as a :class:`Selection`.

    Parameters
    ----------
    Z : array-like, DataFrame, scipy.sparse matrix, sequence of collections or Selection
        - a 2-D array-like of 0/1 or booleans, shape (M runs, d features);
        - a sequence of collections of selected feature indices (0-based
          integers) with ``n_features=d``, or of feature names with
          ``feature_names=``;
        - a pandas DataFrame of 0/1 columns (the column labels name the features);
        - a scipy.sparse matrix of 0/1 (kept sparse).
    n_features : int, optional
        d, required for index collections (and checked against it otherwise).
    feature_names : sequence, optional
        Feature names; with index collections the runs may list names.

    Returns
    -------
    Selection

    Raises
    ------
    ValueError
        Non-binary values, NaN, wrong number of dimensions, fewer than 2 runs,
        no features, an index out of range, negative or repeated in a run,
        ragged rows, missing ``n_features``, a name not in ``feature_names``.
    TypeError
        Non-integer indices, unsupported types.

    Examples
    --------
    >>> from propstab import as_selection
    >>> as_selection([[1, 0, 1], [0, 1, 1]])
    Selection(n_runs=2, n_features=3, dense)
    >>> as_selection([{0, 2}, {1}], n_features=3).toarray().astype(int).tolist()
    [[1, 0, 1], [0, 1, 0]]
    >>> as_selection([[0, 2]], n_features=3)
    Traceback (most recent call last):
    ...
    ValueError: Z: a selection matrix needs at least 2 runs (rows); got 1 run(s)
    """
    if isinstance(Z, Selection):
        if n_features is not None and _check_n_features(n_features) != Z.n_features:
            _fail(f"n_features: {n_features} does not match the selection's "
                  f"{Z.n_features} features")
        return Z
    if n_features is not None:
        n_features = _check_n_features(n_features)
    if isinstance(Z, (str, bytes)) or Z is None or isinstance(Z, Mapping):
        _fail(f"Z: expected a selection matrix (2-D 0/1 array, DataFrame, sparse matrix or "
              f"index collections); got {type(Z).__name__}", TypeError)
    from scipy import sparse
    if sparse.issparse(Z):
        sel = _from_sparse(Z, feature_names)
        _match_d(sel, n_features)
        return sel
    if type(Z).__module__.startswith("pandas") and hasattr(Z, "columns"):
        sel = _from_dataframe(Z, feature_names)
        _match_d(sel, n_features)
        return sel
    if isinstance(Z, np.ndarray) and Z.dtype != object:
        return _from_dense(Z, n_features, feature_names)
    if not isinstance(Z, Iterable):
        _fail(f"Z: expected a selection matrix; got {type(Z).__name__} {Z!r}", TypeError)
    runs = list(Z)
    # With n_features, or with names for features, a Python sequence of runs is read as
    # index collections; a 0/1 matrix is passed without them (or as an ndarray).
    as_sets = (n_features is not None or any(isinstance(r, Set) for r in runs)
               or (feature_names is not None and any(_contains_non_numbers(r) for r in runs)))
    if as_sets:
        return _from_index_sets(runs, n_features, feature_names)
    lengths = {len(r) if _is_index_collection(r) else -1 for r in runs}
    if -1 in lengths:
        try:
            arr = np.asarray(runs)
        except (ValueError, TypeError):
            arr = None
        if arr is not None and arr.ndim != 2 and arr.dtype != object:
            _fail(f"Z: must be 2-dimensional (runs x features); got ndim={arr.ndim} "
                  f"with shape {arr.shape}")
        _fail("Z: every run must be a row of 0/1 values or a collection of feature indices; "
              f"got {runs!r}", TypeError)
    if len(lengths) > 1:
        _fail(f"Z: rows have different lengths ({', '.join(map(str, sorted(lengths)))}); "
              "a 0/1 matrix needs equal-length rows. For index collections pass "
              "n_features=d (or feature_names=)")
    try:
        arr = np.asarray(runs)
    except (ValueError, TypeError) as exc:
        _fail(f"Z: could not read as a 2-D array: {exc}", TypeError)
    return _from_dense(arr, n_features, feature_names,
                       hint=". If the runs list feature indices, pass n_features=d "
                            "(or feature_names=)")


def _contains_non_numbers(run) -> bool:
    try:
        return any(not isinstance(x, (numbers.Number, np.bool_)) for x in run)
    except TypeError:
        return False


def _match_d(sel: Selection, n_features) -> None:
    if n_features is not None and n_features != sel.n_features:
        _fail(f"n_features: {n_features} does not match Z's {sel.n_features} columns")


def _from_dense(arr, n_features, feature_names, hint: str = "") -> Selection:
    arr = np.asarray(arr)
    if arr.ndim != 2:
        _fail(f"Z: must be 2-dimensional (runs x features); got ndim={arr.ndim} "
              f"with shape {arr.shape}")
    M, d = arr.shape
    _check_shape(M, d)
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            _fail("Z: entries must be 0/1 or booleans; found non-numeric values", TypeError)
    names = None if feature_names is None else _check_feature_names(feature_names, d)
    dense = _binary_dense(arr, labels=names, hint=hint)
    sel = Selection(dense=np.ascontiguousarray(dense), n_runs=M, n_features=d,
                    feature_names=names)
    _match_d(sel, n_features)
    return sel


# ----------------------------------------------------------------------------------
# options of measures


def check_options(info, options: dict) -> dict:
    """Validate keyword options against ``info.parameters``; fill defaults."""
    known = {p.name: p for p in info.parameters}
    unknown = [k for k in options if k not in known]
    if unknown:
        allowed = ", ".join(known) if known else "none"
        _fail(f"{info.name}: unexpected option(s) {', '.join(map(repr, unknown))}; "
              f"this measure's options: {allowed}", TypeError)
    out = {}
    for name, p in known.items():
        value = options.get(name, p.default)
        if p.choices is not None and value not in p.choices:
            _fail(f"{name}: must be one of {', '.join(map(repr, p.choices))} for measure "
                  f"{info.name!r}; got {value!r}")
        if p.minimum is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                _fail(f"{name}: must be a number >= {p.minimum} for measure {info.name!r}; "
                      f"got {type(value).__name__} {value!r}", TypeError)
            if not math.isfinite(value) or value < p.minimum:
                _fail(f"{name}: must be a finite number >= {p.minimum} for measure "
                      f"{info.name!r}; got {value!r}")
        out[name] = value
    return out


def check_confidence_level(confidence_level) -> float:
    """A confidence level strictly between 0 and 1."""
    if isinstance(confidence_level, bool) or not isinstance(confidence_level, numbers.Real):
        _fail(f"confidence_level: must be a number in (0, 1); got "
              f"{type(confidence_level).__name__} {confidence_level!r}", TypeError)
    if not 0 < confidence_level < 1:
        _fail(f"confidence_level: must be in (0, 1); got {confidence_level!r}")
    return float(confidence_level)


def check_choice(name: str, value: Any, choices) -> Any:
    """``value`` must be one of ``choices``."""
    if value not in choices:
        _fail(f"{name}: must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value


# ----------------------------------------------------------------------------------
# integer ranges (arguments of strategies and audits)


def check_int_range(name: str, value, *, minimum: int, maximum=None, owner: str = "") -> int:
    """An integer in ``[minimum, maximum]`` (``maximum=None``: no upper limit)."""
    where = f" for {owner}" if owner else ""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        _fail(f"{name}: must be an integer{where}; got {type(value).__name__} {value!r}",
              TypeError)
    if value < minimum or (maximum is not None and value > maximum):
        upper = "" if maximum is None else f" and <= {maximum}"
        _fail(f"{name}: must be >= {minimum}{upper}{where}; got {value}")
    return int(value)


# ----------------------------------------------------------------------------------
# inference: probabilities, null values, comparable selection matrices


def check_probabilities(name: str, p) -> np.ndarray:
    """A non-empty 1-D array of finite numbers in [0, 1]."""
    try:
        arr = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError):
        _fail(f"{name}: must be a 1-D sequence of probabilities in [0, 1]; got {p!r}", TypeError)
    if arr.ndim != 1 or arr.size == 0:
        _fail(f"{name}: must be a non-empty 1-D sequence of probabilities; got shape {arr.shape}")
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        i = int(np.argmax(bad))
        _fail(f"{name}: every entry must be in [0, 1]; got {name}[{i}] = {arr[i]!r}")
    return arr


def check_real(name: str, value) -> float:
    """A finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        _fail(f"{name}: must be a finite real number; got {type(value).__name__} {value!r}",
              TypeError)
    if not np.isfinite(value):
        _fail(f"{name}: must be a finite real number; got {value!r}")
    return float(value)


def check_comparable(first: Selection, second: Selection, *, paired: bool,
                     names=("Z1", "Z2")) -> None:
    """Two selection matrices over the same d features (and, if paired, the same M runs)."""
    a, b = names
    if first.n_features != second.n_features:
        _fail(f"{a}, {b}: must have the same number of features d to be compared; got "
              f"{first.n_features} and {second.n_features}")
    if paired and first.n_runs != second.n_runs:
        _fail(f"{a}, {b}: a paired comparison needs the same M runs (the same resamples); got "
              f"{first.n_runs} and {second.n_runs} runs")


# ----------------------------------------------------------------------------------
# correlated feature spaces: similarity matrices and importance matrices

_SYMMETRY_TOL = 1e-12


def _check_unit_interval(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        _fail(f"{name}: must be a number in [0, 1]; got {type(value).__name__} {value!r}",
              TypeError)
    if not (math.isfinite(value) and 0 <= value <= 1):
        _fail(f"{name}: must be a number in [0, 1]; got {value!r}")
    return float(value)


def _numeric_csr(X, name: str, shape_text: str):
    """A numeric matrix (dense, DataFrame or scipy.sparse) as a float64 CSR copy."""
    from scipy import sparse
    if sparse.issparse(X):
        if X.dtype.kind not in "biuf":
            _fail(f"{name}: must hold numbers; got a sparse matrix of dtype {X.dtype}", TypeError)
        csr = sparse.csr_matrix(X, dtype=np.float64).copy()
        csr.sum_duplicates()
        return csr
    if type(X).__module__.startswith("pandas") and hasattr(X, "columns"):
        X = X.to_numpy()
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        _fail(f"{name}: must be a {shape_text} numeric matrix; got {type(X).__name__}", TypeError)
    if arr.ndim != 2:
        _fail(f"{name}: must be a 2-dimensional {shape_text} matrix; got shape {arr.shape}")
    return sparse.csr_matrix(arr)


def as_similarity(S, n_features: int, *, threshold=None, feature_names=None,
                  name: str = "similarity"):
    """Validate a feature-similarity matrix and return it as ``scipy.sparse.csr_matrix``.

    Parameters
    ----------
    S : array-like, scipy.sparse matrix, DataFrame or None
        A d x d matrix: square of size ``n_features``, symmetric, entries in
        [0, 1], unit diagonal (Sechidis et al. 2019, eq. 4; Hamer and Dupont
        2021, sec. 5). ``None`` means the identity (no feature related to another).
        A DataFrame's index and columns must list the same features (and match
        ``feature_names`` when given).
    n_features : int
        d.
    threshold : float in [0, 1], optional
        Entries below it are set to 0 (as stabm's ``threshold``); the diagonal stays 1.
    feature_names : sequence, optional
        The selection's feature names, checked against a DataFrame's columns.
    name : str
        The argument name used in messages.

    Returns
    -------
    scipy.sparse.csr_matrix
        float64, sorted indices, no stored zeros, exactly symmetric with unit diagonal
        (asymmetry or diagonal deviations within 1e-12 are rounding and are removed).

    Raises
    ------
    ValueError
        Wrong shape, NaN or infinite entries, entries outside [0, 1], asymmetry, a
        diagonal entry other than 1, mismatched DataFrame labels, a bad threshold.
    TypeError
        Non-numeric input.

    Examples
    --------
    >>> from propstab._validation import as_similarity
    >>> as_similarity([[1, 0.8], [0.8, 1]], 2, threshold=0.5).toarray().tolist()
    [[1.0, 0.8], [0.8, 1.0]]
    >>> as_similarity([[1, 0.3], [0.3, 1]], 2, threshold=0.5).toarray().tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    >>> as_similarity([[1, 0.3], [0.2, 1]], 2)
    Traceback (most recent call last):
    ...
    ValueError: similarity: must be symmetric; S[0, 1] = 0.3 but S[1, 0] = 0.2
    """
    from scipy import sparse
    d = _check_n_features(n_features)
    if threshold is not None:
        threshold = _check_unit_interval("threshold", threshold)
    if S is None:
        return sparse.identity(d, dtype=np.float64, format="csr")
    if type(S).__module__.startswith("pandas") and hasattr(S, "columns"):
        rows, cols = list(S.index), list(S.columns)
        if rows != cols:
            _fail(f"{name}: a DataFrame's index and columns must list the same features "
                  f"in the same order; got index {rows[:5]!r}... and columns {cols[:5]!r}...")
        if feature_names is not None and list(feature_names) != cols:
            _fail(f"{name}: the DataFrame's columns must be the selection's feature names "
                  f"in the same order; got {cols[:5]!r}...")
    csr = _numeric_csr(S, name, "d x d")
    if csr.shape != (d, d):
        _fail(f"{name}: must be square of size d x d = {d} x {d} (one row and column per "
              f"feature); got shape {csr.shape[0]} x {csr.shape[1]}")
    data = csr.data
    if not np.all(np.isfinite(data)):
        r, c = _sparse_position(csr, ~np.isfinite(data))
        _fail(f"{name}: entries must be finite numbers in [0, 1]; got {csr[r, c]!r} at [{r}, {c}]")
    bad = (data < 0) | (data > 1)
    if bad.any():
        r, c = _sparse_position(csr, bad)
        _fail(f"{name}: entries must be in [0, 1]; got S[{r}, {c}] = {csr[r, c]!r}")
    diff = abs(csr - csr.T).tocoo()
    big = diff.data > _SYMMETRY_TOL
    if big.any():
        r, c = int(diff.row[big][0]), int(diff.col[big][0])
        r, c = min(r, c), max(r, c)
        _fail(f"{name}: must be symmetric; S[{r}, {c}] = {csr[r, c]!r} but "
              f"S[{c}, {r}] = {csr[c, r]!r}")
    diag = csr.diagonal()
    off = np.abs(diag - 1.0) > _SYMMETRY_TOL
    if off.any():
        f = int(np.argmax(off))
        _fail(f"{name}: the diagonal must be 1 (every feature is fully similar to itself); "
              f"got S[{f}, {f}] = {diag[f]!r}")
    csr = ((csr + csr.T) * 0.5).tocsr()
    csr.setdiag(1.0)
    if threshold is not None:
        csr.data[csr.data < threshold] = 0.0
    csr.eliminate_zeros()
    csr.sort_indices()
    return csr


def _sparse_position(csr, mask):
    k = int(np.argmax(mask))
    row = int(np.searchsorted(csr.indptr, k, side="right") - 1)
    return row, int(csr.indices[k])


def as_importances(W, selection: Selection, *, name: str = "importances"):
    """Validate an importance matrix against its selection matrix.

    Parameters
    ----------
    W : array-like, scipy.sparse matrix, DataFrame or None
        M x d non-negative finite importances, ``W[i, f] > 0`` exactly where run i
        selects feature f (zero means not selected; Hamer and Dupont 2021, sec. 3).
        Signed model coefficients must be passed as absolute values (eq. 7).
    selection : Selection
        The validated selection matrix Z.

    Returns
    -------
    scipy.sparse.csr_matrix or None
        float64, sorted indices, no stored zeros; ``None`` when ``W`` is None.

    Raises
    ------
    ValueError
        Wrong shape, NaN/inf, negative entries, or a zero pattern different from Z's.

    Examples
    --------
    >>> from propstab import as_selection
    >>> from propstab._validation import as_importances
    >>> sel = as_selection([[1, 1, 0], [0, 1, 1]])
    >>> as_importances([[0.5, 1.5, 0], [0, 2, 0]], sel)
    Traceback (most recent call last):
    ...
    ValueError: importances: run 1 selects feature 2 but gives it importance 0 (zero means not selected)
    """
    if W is None:
        return None
    if type(W).__module__.startswith("pandas") and hasattr(W, "columns"):
        if (selection.feature_names is not None
                and list(W.columns) != list(selection.feature_names)):
            _fail(f"{name}: the DataFrame's columns must be the selection's feature names "
                  f"in the same order")
    csr = _numeric_csr(W, name, "M x d")
    if csr.shape != selection.shape:
        _fail(f"{name}: must have the selection matrix's shape M x d = {selection.n_runs} x "
              f"{selection.n_features}; got {csr.shape[0]} x {csr.shape[1]}")
    data = csr.data
    bad = ~np.isfinite(data) | (data < 0)
    if bad.any():
        r, c = _sparse_position(csr, bad)
        _fail(f"{name}: entries must be finite and >= 0 (pass absolute coefficients, Hamer "
              f"and Dupont eq. 7); got {csr[r, c]!r} at run {r}, feature {c}")
    csr.eliminate_zeros()
    csr.sort_indices()
    Z = selection.tocsr()
    extra = (csr - csr.multiply(Z)).tocoo()
    extra.eliminate_zeros()
    if extra.nnz:
        r, c = int(extra.row[0]), int(extra.col[0])
        _fail(f"{name}: run {r} gives feature {c} importance {csr[r, c]!r} but does not select "
              f"it in Z (zero means not selected)")
    missing = (Z - (csr > 0).astype(np.int8)).tocoo()
    missing.eliminate_zeros()
    if missing.nnz:
        r, c = int(missing.row[0]), int(missing.col[0])
        _fail(f"{name}: run {r} selects feature {c} but gives it importance 0 (zero means "
              f"not selected)")
    return csr


# ----------------------------------------------------------------------------------
# feature indices written by R (the R bridge, propstab.r)


def check_r_indices(values, *, run: int, n_features: int, argument: str = "x") -> np.ndarray:
    """R's 1-based feature indices of one run -> 0-based int64 indices.

    ``values`` is a numeric array (R integers, or doubles such as ``c(1, 3)``).
    Raises ValueError naming the run and the index when an index is not a whole
    number or lies outside 1..n_features.
    """
    arr = np.asarray(values, dtype=np.float64)
    bad = ~np.isfinite(arr) | (arr != np.round(arr))
    if bad.any():
        _fail(f"{argument}: run {run} contains {arr[np.argmax(bad)]!r}; R feature indices "
              f"must be whole numbers")
    out = arr.astype(np.int64)
    outside = (out < 1) | (out > n_features)
    if outside.any():
        _fail(f"{argument}: run {run} contains the feature index {int(out[np.argmax(outside)])}; "
              f"R feature indices are 1-based, in 1..{n_features} (n_features={n_features})")
    return out - 1


# ----------------------------------------------------------------------------------
# real ranges (resampling fractions, stability-selection cutoffs, q and PFER)


def check_real_range(name: str, value, *, low=None, high=None, low_open: bool = False,
                     high_open: bool = False) -> float:
    """A finite real number within ``low`` / ``high`` (inclusive unless ``*_open``)."""
    value = check_real(name, value)
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        if low is not None and high is not None:
            rule = f"in {'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
        elif low is not None:
            rule = f"{'>' if low_open else '>='} {low}"
        else:
            rule = f"{'<' if high_open else '<='} {high}"
        _fail(f"{name}: must be {rule}; got {value!r}")
    return value
