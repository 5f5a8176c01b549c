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
            from scipy import sparse
            self._csr = sparse.csr_matrix(self._dense, dtype=np.int8)
        return self._csr

    def _cached(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    @property
    def row_sizes(self) -> np.ndarray:
        """k_i, the number of features selected in run i (int64, length M)."""
        def compute():
            if self._dense is not None:
                return np.count_nonzero(self._dense, axis=1).astype(np.int64)
            return np.diff(self._csr.indptr).astype(np.int64)
        return self._cached("row_sizes", compute)

    @property
    def column_counts(self) -> np.ndarray:
        """M p_f, how many runs selected feature f (int64, length d)."""
        def compute():
            if self._dense is not None:
                return np.count_nonzero(self._dense, axis=0).astype(np.int64)
            return np.bincount(self._csr.indices, minlength=self.n_features).astype(np.int64)
        return self._cached("column_counts", compute)

    @property
    def total(self) -> int:
        """N = sum_i k_i, the number of selections."""
        return int(self.row_sizes.sum())

    @property
    def intersections(self) -> np.ndarray:
        """r_ij = |s_i ∩ s_j| for all pairs (int64, M x M), diagonal k_i.

        Computed by one matrix product: a sparse product when the selections are
        sparse enough for it to be cheaper, a float BLAS product (exact for
        integer counts below 2**24 in float32) otherwise.
        """
        return self._cached("intersections", self._compute_intersections)

    def _compute_intersections(self) -> np.ndarray:
        M, d = self.shape
        if self._dense is not None and not _sparse_is_cheaper(self):
            dtype = np.float32 if d < _FLOAT32_EXACT else np.float64
            A = self._dense.astype(dtype)
            return np.rint(A @ A.T).astype(np.int64)
        S = self.tocsr().astype(np.int32)
        return np.asarray((S @ S.T).toarray(), dtype=np.int64)

    def index_matrix(self) -> np.ndarray:
        """For constant row size k: the sorted selected indices as an ``M x k`` array."""
        k = self.row_sizes
        if k.size and np.any(k != k[0]):
            raise ValueError("index_matrix needs a constant subset size")
        kk = int(k[0]) if k.size else 0
        if self._dense is not None:
            return np.nonzero(self._dense)[1].reshape(self.n_runs, kk)
        csr = self.tocsr().copy()
        csr.sort_indices()
        return csr.indices.reshape(self.n_runs, kk).astype(np.int64)


def _sparse_is_cheaper(sel: Selection) -> bool:
    """Cost model for Z Z^T: dense gemm ~ M^2 d; sparse ~ sum_f F_f^2 plus a pass over Z."""
    M, d = sel.shape
    dense_cost = M * M * d / 40.0          # BLAS flops are ~40x cheaper than sparse ops
    sparse_cost = float(np.sum(sel.column_counts.astype(np.float64) ** 2)) + M * d / 8.0
    return sparse_cost < dense_cost


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


def _binary_dense(arr: np.ndarray, labels=None) -> np.ndarray:
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
              f"feature {col!r}")
    return arr.astype(bool)


def _from_sparse(Z, feature_names) -> Selection:
    from scipy import sparse
    csr = sparse.csr_matrix(Z)
    M, d = csr.shape
    _check_shape(M, d)
    csr = csr.copy()
    csr.sum_duplicates()
    data = csr.data
    if data.dtype.kind == "f" and np.isnan(data).any():
        _fail("Z: entries must be 0/1 or booleans; the sparse matrix stores NaN")
    if data.dtype != bool and data.dtype.kind not in "iuf":
        _fail(f"Z: entries must be 0/1 or booleans; got a sparse matrix of dtype {data.dtype}",
              TypeError)
    bad = (data != 0) & (data != 1)
    if bad.any():
        _fail(f"Z: entries must be 0/1 or booleans; the sparse matrix stores "
              f"{data[np.argmax(bad)]!r}")
    csr.eliminate_zeros()
    csr = sparse.csr_matrix((np.ones(csr.nnz, dtype=np.int8), csr.indices, csr.indptr),
                            shape=(M, d))
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
    try:
        from scipy import sparse
        if sparse.issparse(Z):
            sel = _from_sparse(Z, feature_names)
            _match_d(sel, n_features)
            return sel
    except ImportError:  # pragma: no cover
        pass
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
    return _from_dense(arr, n_features, feature_names)


def _contains_non_numbers(run) -> bool:
    try:
        return any(not isinstance(x, (numbers.Number, np.bool_)) for x in run)
    except TypeError:
        return False


def _match_d(sel: Selection, n_features) -> None:
    if n_features is not None and n_features != sel.n_features:
        _fail(f"n_features: {n_features} does not match Z's {sel.n_features} columns")


def _from_dense(arr, n_features, feature_names) -> Selection:
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
    dense = _binary_dense(arr, labels=names)
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
