"""Input converter: every accepted form of a selection matrix becomes one
:class:`~propstab.Selection` (:func:`as_selection`).

A 2-D 0/1 array-like, a DataFrame, a scipy.sparse matrix or index collections; the
messages name the argument (``Z`` unless the caller says otherwise: ``selection_of``
takes the name the user gave it, ``Z1`` in ``two_sample_test``) and raise
:class:`~propstab.InvalidParameterError`.
"""
from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence, Set
from typing import Optional

import numpy as np

from .._utils.checks import check_feature_names, check_n_features, fail, is_label
from .selection import Selection

__all__ = ["Selection", "as_selection", "selection_of"]


def _check_shape(M: int, d: int, argument: str = "Z") -> None:
    if M < 2:
        fail(f"{argument}: a selection matrix needs at least 2 runs (rows); got {M} run(s)")
    if d < 1:
        fail(f"{argument}: a selection matrix needs at least 1 feature (column); got {d} features")


def _object_to_float(arr: np.ndarray, labels=None, argument: str = "Z") -> np.ndarray:
    """An object array (a DataFrame of mixed columns, a list mixing types) as float64.

    Only real numbers and booleans are read: a string such as "1" is not a 0/1 entry
    (``astype`` would read it as one), a complex number is not real, and a missing
    value (None, NaN, pandas' NA) is named as such.
    """
    flat = arr.ravel()
    for k, x in enumerate(flat):
        if isinstance(x, (bool, np.bool_)) or (
            isinstance(x, numbers.Real) and not isinstance(x, (str, bytes))
        ):
            continue
        i, j = divmod(k, arr.shape[1]) if arr.ndim == 2 else (k, 0)
        col = labels[j] if labels is not None else j
        if x is None or type(x).__name__ in ("NAType", "NaTType"):
            fail(
                f"{argument}: entries must be 0/1 or booleans; found a missing value ({x!r}) "
                f"at run {i}, feature {col!r}"
            )
        fail(
            f"{argument}: entries must be 0/1 or booleans; found {type(x).__name__} {x!r} at "
            f"run {i}, feature {col!r}",
            TypeError,
        )
    return np.array([float(x) for x in flat], dtype=np.float64).reshape(arr.shape)


def _binary_dense(arr: np.ndarray, labels=None, hint: str = "", argument: str = "Z") -> np.ndarray:
    """Validate a 2-D numeric/bool array as 0/1 and return it as bool."""
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iuf":
        fail(
            f"{argument}: entries must be 0/1 or booleans; got an array of dtype {arr.dtype}",
            TypeError,
        )
    if arr.dtype.kind == "f":
        nan = np.isnan(arr)
        if nan.any():
            i, j = np.argwhere(nan)[0]
            col = labels[j] if labels is not None else j
            fail(
                f"{argument}: entries must be 0/1 or booleans; found NaN at run {i}, feature "
                f"{col!r}"
            )
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        col = labels[j] if labels is not None else j
        fail(
            f"{argument}: entries must be 0/1 or booleans; found {arr[i, j]!r} at run {i}, "
            f"feature {col!r}{hint}"
        )
    return arr.astype(bool)


def _from_sparse(Z, feature_names, argument: str = "Z") -> Selection:
    from scipy import sparse

    csr = Z if sparse.isspmatrix_csr(Z) else sparse.csr_matrix(Z)  # copied before any change
    M, d = csr.shape
    _check_shape(M, d, argument=argument)
    # the common input, a canonical CSR storing only ones, has nothing to clean
    if not (
        csr.data.dtype.kind in "biuf" and csr.has_canonical_format and bool(np.all(csr.data == 1))
    ):
        csr = csr.copy()
        csr.sum_duplicates()
        data = csr.data
        if data.dtype.kind == "f" and np.isnan(data).any():
            fail(f"{argument}: entries must be 0/1 or booleans; the sparse matrix stores NaN")
        if data.dtype != bool and data.dtype.kind not in "iuf":
            fail(
                f"{argument}: entries must be 0/1 or booleans; got a sparse matrix of dtype "
                f"{data.dtype}",
                TypeError,
            )
        bad = (data != 0) & (data != 1)
        if bad.any():
            fail(
                f"{argument}: entries must be 0/1 or booleans; the sparse matrix stores "
                f"{data[np.argmax(bad)]!r}"
            )
        csr.eliminate_zeros()
    csr = sparse.csr_matrix(
        (np.ones(csr.nnz, dtype=np.int8), csr.indices.copy(), csr.indptr.copy()), shape=(M, d)
    )
    names = None if feature_names is None else check_feature_names(feature_names, d)
    return Selection(csr=csr, n_runs=M, n_features=d, feature_names=names)


def _from_dataframe(Z, feature_names, argument: str = "Z") -> Selection:
    if feature_names is not None:
        fail(
            "feature_names: not accepted with a DataFrame, whose columns name the features",
            TypeError,
        )
    names = check_feature_names([c for c in Z.columns], None)
    try:
        arr = Z.to_numpy()
    except Exception as exc:  # pragma: no cover - defensive
        fail(f"{argument}: could not read the DataFrame as an array: {exc}", TypeError)
    if arr.ndim != 2:
        fail(f"{argument}: must be 2-dimensional (runs x features); got shape {arr.shape}")
    _check_shape(*arr.shape, argument=argument)
    if arr.dtype == object:
        arr = _object_to_float(arr, labels=names, argument=argument)
    dense = _binary_dense(arr, labels=names, argument=argument)
    return Selection(
        dense=np.ascontiguousarray(dense),
        n_runs=arr.shape[0],
        n_features=arr.shape[1],
        feature_names=names,
    )


def _is_index_collection(x) -> bool:
    return isinstance(x, (Set, Sequence, np.ndarray)) and not isinstance(x, (str, bytes))


def _from_index_sets(Z, n_features, feature_names, argument: str = "Z") -> Selection:
    from scipy import sparse

    runs = list(Z)
    if len(runs) < 2:
        _check_shape(len(runs), 1, argument=argument)
    for i, run in enumerate(runs):
        if isinstance(run, Mapping):
            fail(
                f"{argument}: run {i} must be a collection of feature indices; got a "
                f"{type(run).__name__} (a mapping's keys are not read as a run)",
                TypeError,
            )
        if (
            not _is_index_collection(run)
            and not isinstance(run, Iterable)
            or isinstance(run, (str, bytes))
        ):
            fail(
                f"{argument}: run {i} must be a collection of feature indices; got "
                f"{type(run).__name__} {run!r}",
                TypeError,
            )
    lookup = None
    if feature_names is not None:
        names = check_feature_names(feature_names, n_features)
        d = len(names)
        lookup = {name: j for j, name in enumerate(names)}
    else:
        names = None
        if n_features is None:
            fail(
                "n_features: required when Z is given as index collections "
                "(one collection of selected feature indices per run)"
            )
        d = n_features
    _check_shape(len(runs), d, argument=argument)
    indptr = [0]
    indices = []
    for i, run in enumerate(runs):
        items = list(run.tolist() if isinstance(run, np.ndarray) else run)
        if isinstance(run, np.ndarray) and run.ndim != 1:
            fail(
                f"{argument}: run {i} must be a 1-D collection of feature indices; got shape "
                f"{run.shape}"
            )
        idx = []
        for item in items:
            if lookup is not None:
                if not is_label(item):
                    fail(
                        f"{argument}: run {i} contains {type(item).__name__} {item!r}; with "
                        f"feature_names=, runs must list feature names (hashable labels: "
                        f"strings or numbers)",
                        TypeError,
                    )
                if isinstance(item, numbers.Integral) and item not in lookup:
                    fail(
                        f"{argument}: run {i} contains {item!r}; with feature_names=, runs must "
                        f"list feature names",
                        TypeError,
                    )
                if item not in lookup:
                    fail(
                        f"{argument}: run {i} names feature {item!r}, which is not in "
                        f"feature_names"
                    )
                idx.append(lookup[item])
            else:
                if isinstance(item, bool) or not isinstance(item, numbers.Integral):
                    if (
                        isinstance(item, numbers.Real)
                        and float(item).is_integer()
                        and not isinstance(item, bool)
                    ):
                        fail(
                            f"{argument}: run {i} contains {item!r} ({type(item).__name__}); feature "
                            f"indices must be integers, not floats",
                            TypeError,
                        )
                    fail(
                        f"{argument}: run {i} contains {item!r} ({type(item).__name__}); feature "
                        f"indices must be integers (or pass feature_names= to use names)",
                        TypeError,
                    )
                if item < 0:
                    fail(
                        f"{argument}: run {i} contains the negative feature index {item}; indices "
                        f"are 0-based, in 0..{d - 1}"
                    )
                if item >= d:
                    fail(
                        f"{argument}: run {i} contains feature index {item}, outside 0..{d - 1} "
                        f"(n_features={d})"
                    )
                idx.append(int(item))
        if len(set(idx)) != len(idx):
            seen = set()
            dup = next(x for x in idx if x in seen or seen.add(x))
            shown = names[dup] if names is not None else dup
            fail(
                f"{argument}: run {i} lists feature {shown!r} more than once; a run is a set of "
                f"features"
            )
        idx.sort()
        indices.extend(idx)
        indptr.append(len(indices))
    csr = sparse.csr_matrix(
        (
            np.ones(len(indices), dtype=np.int8),
            np.asarray(indices, dtype=np.int64),
            np.asarray(indptr),
        ),
        shape=(len(runs), d),
    )
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
    InvalidParameterError
        A ValueError and a TypeError, naming the argument: non-binary values, NaN,
        wrong number of dimensions, fewer than 2 runs, no features, an index out of
        range, negative or repeated in a run, ragged rows, missing ``n_features``, a
        name not in ``feature_names`` (its ``kind`` ValueError); non-integer indices,
        unsupported types (its ``kind`` TypeError).

    See Also
    --------
    propstab.Selection : The validated matrix and its cached statistics.
    propstab.as_rankings : The same for a rank matrix (the ranking family).
    propstab.stability : Computes a measure of Z by name.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 2.2.3 and Fig. 2.1 (the binary matrix Z of M
    feature sets over d features).

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
    propstab.InvalidParameterError: Z: a selection matrix needs at least 2 runs (rows); got 1 run(s)
    """
    return selection_of(Z, n_features=n_features, feature_names=feature_names)


def selection_of(Z, *, n_features=None, feature_names=None, argument: str = "Z") -> Selection:
    """:func:`as_selection`, its messages naming ``argument``, the name the user gave Z
    (``Z1`` in ``two_sample_test``, ``matrices['a']`` in ``pairwise_tests``).

    >>> selection_of([[1, 0]], argument="Z2")
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: Z2: a selection matrix needs at least 2 runs (rows); got 1
    run(s)
    """
    if isinstance(Z, Selection):
        if n_features is not None and check_n_features(n_features) != Z.n_features:
            fail(
                f"n_features: {n_features} does not match the selection's "
                f"{Z.n_features} features"
            )
        return Z
    if n_features is not None:
        n_features = check_n_features(n_features)
    from scipy import sparse

    if not sparse.issparse(Z) and (
        isinstance(Z, (str, bytes)) or Z is None or isinstance(Z, Mapping)
    ):
        fail(
            f"{argument}: expected a selection matrix (2-D 0/1 array, DataFrame, sparse matrix or "
            f"index collections); got {type(Z).__name__}",
            TypeError,
        )
    if sparse.issparse(Z):
        sel = _from_sparse(Z, feature_names, argument)
        _match_d(sel, n_features, argument)
        return sel
    if type(Z).__module__.startswith("pandas") and hasattr(Z, "columns"):
        sel = _from_dataframe(Z, feature_names, argument)
        _match_d(sel, n_features, argument)
        return sel
    if isinstance(Z, np.ndarray) and Z.dtype != object:
        return _from_dense(Z, n_features, feature_names, argument=argument)
    if not isinstance(Z, Iterable):
        fail(f"{argument}: expected a selection matrix; got {type(Z).__name__} {Z!r}", TypeError)
    runs = list(Z)
    # With n_features, or with names for features, a Python sequence of runs is read as
    # index collections; a 0/1 matrix is passed without them (or as an ndarray).
    as_sets = (
        n_features is not None
        or any(isinstance(r, Set) for r in runs)
        or (feature_names is not None and any(_contains_non_numbers(r) for r in runs))
    )
    if as_sets:
        return _from_index_sets(runs, n_features, feature_names, argument)
    lengths = {len(r) if _is_index_collection(r) else -1 for r in runs}
    if -1 in lengths:
        try:
            arr = np.asarray(runs)
        except (ValueError, TypeError):
            arr = None
        if arr is not None and arr.ndim != 2 and arr.dtype != object:
            fail(
                f"{argument}: must be 2-dimensional (runs x features); got ndim={arr.ndim} "
                f"with shape {arr.shape}"
            )
        fail(
            f"{argument}: every run must be a row of 0/1 values or a collection of feature "
            f"indices; "
            f"got {runs!r}",
            TypeError,
        )
    if len(lengths) > 1:
        fail(
            f"{argument}: rows have different lengths ({', '.join(map(str, sorted(lengths)))}); "
            "a 0/1 matrix needs equal-length rows. For index collections pass "
            "n_features=d (or feature_names=)"
        )
    try:
        arr = np.asarray(runs)
    except (ValueError, TypeError) as exc:
        fail(f"{argument}: could not read as a 2-D array: {exc}", TypeError)
    return _from_dense(
        arr,
        n_features,
        feature_names,
        hint=". If the runs list feature indices, pass n_features=d " "(or feature_names=)",
        argument=argument,
    )


def _contains_non_numbers(run) -> bool:
    try:
        return any(not isinstance(x, (numbers.Number, np.bool_)) for x in run)
    except TypeError:
        return False


def _match_d(sel: Selection, n_features, argument: str = "Z") -> None:
    if n_features is not None and n_features != sel.n_features:
        fail(f"n_features: {n_features} does not match {argument}'s {sel.n_features} columns")


def _from_dense(arr, n_features, feature_names, hint: str = "", argument: str = "Z") -> Selection:
    arr = np.asarray(arr)
    if arr.ndim != 2:
        fail(
            f"{argument}: must be 2-dimensional (runs x features); got ndim={arr.ndim} "
            f"with shape {arr.shape}"
        )
    M, d = arr.shape
    _check_shape(M, d, argument=argument)
    names = None if feature_names is None else check_feature_names(feature_names, d)
    if arr.dtype == object:
        arr = _object_to_float(arr, labels=names, argument=argument)
    dense = _binary_dense(arr, labels=names, hint=hint, argument=argument)
    sel = Selection(dense=np.ascontiguousarray(dense), n_runs=M, n_features=d, feature_names=names)
    _match_d(sel, n_features, argument)
    return sel
