"""Input validation: every accepted form of a selection matrix becomes one
:class:`~propstab.Selection`, and every input error message is written here.

Every rule lives here: the selection matrix (:func:`as_selection`), similarity and
importance matrices (:func:`as_similarity`, :func:`as_importances`) and the
``check_*`` rules of the other arguments. Messages name the argument, the rule and
the offending value. The container itself is :mod:`propstab._selection`
(re-exported here as ``Selection``).
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping, Sequence, Set
from decimal import Decimal
from typing import Any, Optional

import numpy as np

from ._selection import Selection

__all__ = ["Selection", "as_selection", "check_options"]

# ----------------------------------------------------------------------------------
# conversion of every accepted input form


def _fail(rule: str, exc=ValueError):
    raise exc(rule)


def _check_shape(M: int, d: int) -> None:
    if M < 2:
        _fail(f"Z: a selection matrix needs at least 2 runs (rows); got {M} run(s)")
    if d < 1:
        _fail(f"Z: a selection matrix needs at least 1 feature (column); got {d} features")


def check_n_features(n_features) -> int:
    """``n_features`` (d): a positive integer."""
    if isinstance(n_features, bool) or not isinstance(n_features, numbers.Integral):
        _fail(f"n_features: must be a positive integer; got {type(n_features).__name__} "
              f"{n_features!r}", TypeError)
    if n_features < 1:
        _fail(f"n_features: must be a positive integer; got {n_features}")
    return int(n_features)


def is_label(value) -> bool:
    """Whether ``value`` can name a feature: hashable all the way down (a tuple holding
    a list is not), and not a list, dict, set or array.

    >>> is_label("a"), is_label(("a", 1)), is_label(("a", ["x"])), is_label(["a"])
    (True, True, False, False)
    """
    if not isinstance(value, Hashable) or isinstance(value, (list, dict, set, np.ndarray)):
        return False
    try:
        hash(value)
    except TypeError:
        return False
    return True


def check_feature_names(feature_names, d: Optional[int]) -> tuple:
    """Unique feature names as a tuple, one per feature when ``d`` is given."""
    if isinstance(feature_names, (str, bytes)) or not isinstance(feature_names, Iterable):
        _fail(f"feature_names: must be a sequence of names; got {type(feature_names).__name__} "
              f"{feature_names!r}", TypeError)
    names = tuple(feature_names)
    if d is not None and len(names) != d:
        _fail(f"feature_names: must have one name per feature (n_features={d}); "
              f"got {len(names)} names")
    seen = set()
    for name in names:
        if not is_label(name):
            _fail(f"feature_names: every name must be a hashable label (a string or a "
                  f"number); got {type(name).__name__} {name!r}", TypeError)
        if isinstance(name, float) and math.isnan(name):
            _fail("feature_names: a name cannot be NaN")
        if name in seen:
            _fail(f"feature_names: names must be unique; {name!r} appears more than once")
        seen.add(name)
    return names


def _object_to_float(arr: np.ndarray, labels=None, what: str = "Z") -> np.ndarray:
    """An object array (a DataFrame of mixed columns, a list mixing types) as float64.

    Only real numbers and booleans are read: a string such as "1" is not a 0/1 entry
    (``astype`` would read it as one), a complex number is not real, and a missing
    value (None, NaN, pandas' NA) is named as such.
    """
    flat = arr.ravel()
    for k, x in enumerate(flat):
        if isinstance(x, (bool, np.bool_)) or (isinstance(x, numbers.Real)
                                                and not isinstance(x, (str, bytes))):
            continue
        i, j = divmod(k, arr.shape[1]) if arr.ndim == 2 else (k, 0)
        col = labels[j] if labels is not None else j
        if x is None or type(x).__name__ in ("NAType", "NaTType"):
            _fail(f"{what}: entries must be 0/1 or booleans; found a missing value ({x!r}) "
                  f"at run {i}, feature {col!r}")
        _fail(f"{what}: entries must be 0/1 or booleans; found {type(x).__name__} {x!r} at "
              f"run {i}, feature {col!r}", TypeError)
    return np.array([float(x) for x in flat], dtype=np.float64).reshape(arr.shape)


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
    names = None if feature_names is None else check_feature_names(feature_names, d)
    return Selection(csr=csr, n_runs=M, n_features=d, feature_names=names)


def _from_dataframe(Z, feature_names) -> Selection:
    if feature_names is not None:
        _fail("feature_names: not accepted with a DataFrame, whose columns name the features",
              TypeError)
    names = check_feature_names([c for c in Z.columns], None)
    try:
        arr = Z.to_numpy()
    except Exception as exc:  # pragma: no cover - defensive
        raise TypeError(f"Z: could not read the DataFrame as an array: {exc}") from None
    if arr.ndim != 2:
        _fail(f"Z: must be 2-dimensional (runs x features); got shape {arr.shape}")
    _check_shape(*arr.shape)
    if arr.dtype == object:
        arr = _object_to_float(arr, labels=names)
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
        if isinstance(run, Mapping):
            _fail(f"Z: run {i} must be a collection of feature indices; got a "
                  f"{type(run).__name__} (a mapping's keys are not read as a run)", TypeError)
        if not _is_index_collection(run) and not isinstance(run, Iterable) or isinstance(run, (str, bytes)):
            _fail(f"Z: run {i} must be a collection of feature indices; got "
                  f"{type(run).__name__} {run!r}", TypeError)
    lookup = None
    if feature_names is not None:
        names = check_feature_names(feature_names, n_features)
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
                if not is_label(item):
                    _fail(f"Z: run {i} contains {type(item).__name__} {item!r}; with "
                          f"feature_names=, runs must list feature names (hashable labels: "
                          f"strings or numbers)", TypeError)
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
    ValueError: Z: a selection matrix needs at least 2 runs (rows); got 1 run(s)
    """
    if isinstance(Z, Selection):
        if n_features is not None and check_n_features(n_features) != Z.n_features:
            _fail(f"n_features: {n_features} does not match the selection's "
                  f"{Z.n_features} features")
        return Z
    if n_features is not None:
        n_features = check_n_features(n_features)
    from scipy import sparse
    if not sparse.issparse(Z) and (isinstance(Z, (str, bytes)) or Z is None
                                   or isinstance(Z, Mapping)):
        _fail(f"Z: expected a selection matrix (2-D 0/1 array, DataFrame, sparse matrix or "
              f"index collections); got {type(Z).__name__}", TypeError)
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


def as_named_input(kind: str, X, name: str, **kwargs):
    """:func:`as_input` for an argument not called ``Z`` (``Z1``, ``matrices['a']``): the
    same rules, the messages naming ``name``."""
    return as_input(kind, X, argument=name, **kwargs)


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
    names = None if feature_names is None else check_feature_names(feature_names, d)
    if arr.dtype == object:
        arr = _object_to_float(arr, labels=names)
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
        if p.choices is not None and not _is_one_of(value, p.choices):
            _fail(f"{name}: must be one of {', '.join(map(repr, p.choices))} for measure "
                  f"{info.name!r}; got {_shown(value)}")
        integral = isinstance(p.default, numbers.Integral) and not isinstance(p.default, bool)
        if integral and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
            _fail(f"{name}: must be an integer for measure {info.name!r}; got "
                  f"{_shown(value)}", TypeError)
        if p.minimum is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                _fail(f"{name}: must be a number >= {p.minimum} for measure {info.name!r}; "
                      f"got {type(value).__name__} {value!r}", TypeError)
            if not _finite(value) or value < p.minimum:
                _fail(f"{name}: must be a finite number >= {p.minimum} for measure "
                      f"{info.name!r}; got {value!r}")
        out[name] = value
    return out


def check_matrix_options(sel: Selection, options: dict) -> None:
    """Validate a measure's matrix options (``similarity``, ``importances``) against the
    selection: where a measure is undefined on ``sel`` and returns NaN without computing,
    an invalid matrix must still raise."""
    if "similarity" in options:
        as_similarity(options["similarity"], sel.n_features, threshold=options.get("threshold"),
                      feature_names=sel.feature_names)
    if "importances" in options:
        as_importances(options["importances"], sel)


def check_confidence_level(confidence_level) -> float:
    """A confidence level strictly between 0 and 1."""
    if isinstance(confidence_level, (bool, np.bool_)) or not isinstance(confidence_level,
                                                                        numbers.Real):
        _fail(f"confidence_level: must be a number in (0, 1); got "
              f"{type(confidence_level).__name__} {confidence_level!r}", TypeError)
    if not 0 < confidence_level < 1:
        _fail(f"confidence_level: must be in (0, 1); got {confidence_level!r}")
    return float(confidence_level)


def _is_one_of(value, choices) -> bool:
    """``value in choices`` without numpy's elementwise comparison of an array (whose
    truth value is ambiguous) and without True == 1 standing for a choice 1."""
    if isinstance(value, np.ndarray) or not isinstance(value, Hashable):
        return False
    for c in choices:
        try:
            if value is c or (isinstance(value, (bool, np.bool_)) == isinstance(c, bool)
                              and bool(value == c)):
                return True
        except (TypeError, ValueError):
            continue
    return False


def check_choice(name: str, value: Any, choices) -> Any:
    """``value`` must be one of ``choices``."""
    if not _is_one_of(value, choices):
        _fail(f"{name}: must be one of {', '.join(map(repr, choices))}; got "
              f"{_shown(value)}")
    return value


def _shown(value) -> str:
    """A value as a message shows it: its type and a repr cut to 80 characters."""
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"{type(value).__name__} {text}" if not isinstance(value, (str, int, float)) \
        or isinstance(value, bool) else text


def check_bool(name: str, value, *, none: bool = False):
    """True or False (numpy's booleans included); None too when ``none``."""
    if value is None and none:
        return None
    if not isinstance(value, (bool, np.bool_)):
        allowed = "True, False or None" if none else "True or False"
        _fail(f"{name}: must be {allowed}; got {_shown(value)}", TypeError)
    return bool(value)


def check_random_state(name: str, value):
    """A seed for ``numpy.random.default_rng``: None, a non-negative integer, or a numpy
    ``Generator``, ``BitGenerator``, ``SeedSequence`` or legacy ``RandomState``.

    One rule for every entry point taking ``random_state`` (``resample``, ``assess``,
    ``StabilitySelection``, the bootstrap of ``estimate``). A ``RandomState`` is used as
    scikit-learn uses one: it is advanced (by one draw of 128 bits, made here, whose
    value seeds a ``SeedSequence``), so two calls given the same instance differ and
    two calls given ``RandomState(0)`` afresh agree. Everything else is returned as
    given (an integer as ``int``).

    >>> import numpy as np
    >>> a = check_random_state("random_state", np.random.RandomState(0))
    >>> b = check_random_state("random_state", np.random.RandomState(0))
    >>> type(a).__name__, a.entropy == b.entropy
    ('SeedSequence', True)
    """
    if value is None or isinstance(value, (np.random.Generator, np.random.BitGenerator,
                                           np.random.SeedSequence)):
        return value
    if isinstance(value, np.random.RandomState):
        words = value.randint(0, 2 ** 32, size=4, dtype=np.uint64)
        return np.random.SeedSequence([int(w) for w in words])
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        _fail(f"{name}: must be None, a non-negative integer, a numpy Generator or a "
              f"RandomState; got {_shown(value)}", TypeError)
    if value < 0:
        _fail(f"{name}: must be a non-negative integer (a seed); got {value}")
    return int(value)


def seed_sequence(value) -> np.random.SeedSequence:
    """The root ``SeedSequence`` of a random state checked by :func:`check_random_state`,
    from which every random draw of a call comes (the resamples, and every run's seed).

    None: fresh entropy. An integer ``s``: ``SeedSequence(s)`` (``default_rng`` of it
    is ``default_rng(s)``). A ``SeedSequence``: itself (never spawned from, so it is not
    modified). A ``Generator`` or ``BitGenerator``: seeded by one draw of 128 bits from
    it (it is advanced, so two calls with the same generator differ).

    >>> import numpy as np
    >>> bool(np.random.default_rng(seed_sequence(3)).integers(100) ==
    ...      np.random.default_rng(3).integers(100))
    True
    """
    if value is None:
        return np.random.SeedSequence()
    if isinstance(value, np.random.SeedSequence):
        return value
    if isinstance(value, (np.random.Generator, np.random.BitGenerator)):
        words = np.random.default_rng(value).integers(0, 2 ** 32, size=4, dtype=np.uint64)
        return np.random.SeedSequence([int(w) for w in words])
    return np.random.SeedSequence(int(value))


def check_n_jobs(name: str, value):
    """joblib's ``n_jobs``: None or a non-zero integer (-1: all cores)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        _fail(f"{name}: must be None or a non-zero integer (-1: all cores); got "
              f"{_shown(value)}", TypeError)
    if value == 0:
        _fail(f"{name}: must be None or a non-zero integer (-1: all cores); got 0")
    return int(value)


def check_mapping(name: str, value, *, none: bool = True) -> dict:
    """A mapping with string keys (keyword options), as a new dict; None gives {}."""
    if value is None and none:
        return {}
    if not isinstance(value, Mapping):
        _fail(f"{name}: must be a mapping of option names to values (a dict); got "
              f"{_shown(value)}", TypeError)
    bad = [k for k in value if not isinstance(k, str)]
    if bad:
        _fail(f"{name}: option names must be strings; got {_shown(bad[0])}", TypeError)
    return dict(value)


def check_axes(name: str, value):
    """A matplotlib ``Axes`` to draw on, or None (a new figure)."""
    if value is None:
        return None
    from matplotlib.axes import Axes
    if not isinstance(value, Axes):
        _fail(f"{name}: must be a matplotlib Axes (or None for a new figure); got "
              f"{_shown(value)}", TypeError)
    return value


def check_labels(name: str, labels, n: int, what: str) -> list:
    """One label per item (``n`` of them), as a list; any objects printable with str()."""
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable) \
            or isinstance(labels, Mapping):
        _fail(f"{name}: must be a sequence of {n} labels, one per {what}; got "
              f"{_shown(labels)}", TypeError)
    labels = list(labels)
    if len(labels) != n:
        _fail(f"{name}: must have one label per {what} ({n}); got {len(labels)}")
    return labels


def check_text(name: str, value, *, none: bool = False):
    """A string (None too when ``none``)."""
    if value is None and none:
        return None
    if not isinstance(value, str):
        _fail(f"{name}: must be a string{' or None' if none else ''}; got {_shown(value)}",
              TypeError)
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


def as_real_array(name: str, value, what: str = "numbers") -> np.ndarray:
    """``value`` (array-like) as a float64 array of real numbers, refusing what numpy
    would convert silently or fail on obscurely: ragged nesting, strings (numpy reads
    "0.5" as 0.5), complex numbers (numpy drops the imaginary part), None and
    objects that are not numbers."""
    if value is None or isinstance(value, (str, bytes, Mapping, Set)):
        _fail(f"{name}: must be an array of {what}; got {_shown(value)}", TypeError)
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        _fail(f"{name}: must be an array of {what} (equal-length rows); got "
              f"{_shown(value)} ({' '.join(str(exc).split())[:80]})", TypeError)
    if arr.dtype.kind == "c":
        _fail(f"{name}: must hold real {what}; got complex values", TypeError)
    if arr.dtype.kind in "biuf":
        return arr.astype(np.float64)
    if arr.dtype == object:
        for x in arr.ravel():
            if isinstance(x, (bool, np.bool_)) or (isinstance(x, numbers.Real)
                                                    and not isinstance(x, Decimal)):
                continue
            _fail(f"{name}: must hold real {what}; got {_shown(x)}", TypeError)
        return arr.astype(np.float64)
    _fail(f"{name}: must hold {what}; got {arr.dtype} values such as "
          f"{_shown(arr.ravel()[0] if arr.size else value)}", TypeError)


def check_probabilities(name: str, p) -> np.ndarray:
    """A non-empty 1-D array of finite numbers in [0, 1]."""
    arr = as_real_array(name, p, "probabilities in [0, 1]")
    if arr.ndim != 1 or arr.size == 0:
        _fail(f"{name}: must be a non-empty 1-D sequence of probabilities; got shape {arr.shape}")
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        i = int(np.argmax(bad))
        _fail(f"{name}: every entry must be in [0, 1]; got {name}[{i}] = {arr[i]!r}")
    return arr


def _finite(value) -> bool:
    """Whether a real number is finite as a double (an int beyond 1e308 is not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def check_real(name: str, value) -> float:
    """A finite real number."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        _fail(f"{name}: must be a finite real number; got {type(value).__name__} {value!r}",
              TypeError)
    if not _finite(value):
        _fail(f"{name}: must be a finite real number; got {value!r}")
    return float(value)


def check_null_value(phi0: float, info, n_runs: int, n_features: int, row_sizes) -> float:
    """A null value H0: Phi = phi0 the measure ``info`` can take: within its declared
    bounds for matrices of this shape (bounds depending on M, d or the sizes evaluated;
    an undeclared or infinite bound limits nothing)."""
    sizes = () if row_sizes is None else row_sizes
    for side, bound in zip(("lower", "upper"), info.bounds):
        if bound is None:
            continue
        try:
            value = bound.evaluate(n_runs, n_features, sizes)
        except (TypeError, ValueError, ZeroDivisionError, IndexError):
            continue
        if math.isfinite(value) and (phi0 < value if side == "lower" else phi0 > value):
            low, high = (str(b) if b is not None else "?" for b in info.bounds)
            _fail(f"phi0: must lie in the range of {info.name}, [{low}, {high}] (for M = "
                  f"{n_runs}, d = {n_features} the {side} bound is {value:g}); got {phi0!r}")
    return phi0


def check_row_sizes(row_sizes, n_features) -> "tuple[np.ndarray, int]":
    """Subset sizes k_1..k_M of a null model: a non-empty 1-D sequence of integers in
    0..d, with d = ``n_features`` (a positive integer). Returns (k as int64, d)."""
    d = check_n_features(n_features)
    if isinstance(row_sizes, (str, bytes, Mapping)) or not isinstance(row_sizes, Iterable):
        _fail(f"row_sizes: must be a 1-D sequence of subset sizes (integers); got "
              f"{_shown(row_sizes)}", TypeError)
    try:
        arr = np.asarray(list(row_sizes) if not isinstance(row_sizes, np.ndarray) else row_sizes)
    except (ValueError, TypeError):
        _fail(f"row_sizes: must be a 1-D sequence of subset sizes (integers); got "
              f"{_shown(row_sizes)}", TypeError)
    if arr.ndim != 1 or arr.size == 0:
        _fail(f"row_sizes: must be a non-empty 1-D sequence of subset sizes; got shape "
              f"{arr.shape}")
    if arr.dtype.kind not in "iu" and not (arr.dtype == object and all(
            isinstance(k, numbers.Integral) and not isinstance(k, bool) for k in arr)):
        _fail(f"row_sizes: subset sizes must be integers; got {arr.dtype} values "
              f"{_shown(arr.tolist())}", TypeError)
    k = arr.astype(np.int64)
    bad = (k < 0) | (k > d)
    if bad.any():
        _fail(f"row_sizes: every subset size must be in 0..{d} (n_features={d}); got "
              f"{int(k[np.argmax(bad)])}")
    return k, d


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
    n1, n2 = first.feature_names, second.feature_names
    if n1 is not None and n2 is not None and tuple(n1) != tuple(n2):
        where = next(j for j, (x, y) in enumerate(zip(n1, n2)) if x != y)
        _fail(f"{a}, {b}: must name the same features in the same order to be compared; "
              f"feature {where} is {n1[where]!r} in {a} and {n2[where]!r} in {b}")


# ----------------------------------------------------------------------------------
# correlated feature spaces: similarity matrices and importance matrices

#: Rounding tolerated in a similarity matrix built in floating point (an absolute
#: correlation matrix from numpy has diagonal entries such as 1.0000000000000002):
#: entries within it of [0, 1], asymmetries and diagonal deviations within it are
#: rounding and are removed; anything beyond it is refused.
_SYMMETRY_TOL = 1e-12


def check_unit_interval(name: str, value) -> float:
    """A finite number in [0, 1]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        _fail(f"{name}: must be a number in [0, 1]; got {type(value).__name__} {value!r}",
              TypeError)
    if not (_finite(value) and 0 <= value <= 1):
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
    arr = as_real_array(name, X, f"numbers (a {shape_text} matrix)")
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
        float64, sorted indices, no stored zeros, entries in [0, 1], exactly symmetric
        with unit diagonal (entries within 1e-12 outside [0, 1], asymmetry and diagonal
        deviations within 1e-12 are floating-point rounding, as in a correlation matrix
        computed by numpy, and are clipped or removed).

    Raises
    ------
    ValueError
        Wrong shape, NaN or infinite entries, entries outside [0, 1], asymmetry, a
        diagonal entry other than 1 (each beyond a rounding of 1e-12), mismatched
        DataFrame labels, a bad threshold.
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
    d = check_n_features(n_features)
    if threshold is not None:
        threshold = check_unit_interval("threshold", threshold)
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
    bad = (data < -_SYMMETRY_TOL) | (data > 1 + _SYMMETRY_TOL)
    if bad.any():
        r, c = _sparse_position(csr, bad)
        _fail(f"{name}: entries must be in [0, 1]; got S[{r}, {c}] = {csr[r, c]!r} (beyond "
              f"the rounding of {_SYMMETRY_TOL:g} that is clipped)")
    np.clip(data, 0.0, 1.0, out=data)
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


# ----------------------------------------------------------------------------------
# rank matrices (the ranking family): ranks or scores -> Rankings

RANKING_KINDS = ("ranks", "scores")
INPUT_KINDS = ("selection", "ranking")


def _rank_prefix(argument: str, owner: Optional[str]) -> str:
    """The start of a rank-matrix message: the argument the user passed and, from a
    ranking measure, that the measure takes a rank matrix."""
    if owner is None:
        return f"{argument}: "
    return (f"{argument}: the measure {owner!r} takes a rank matrix (runs x features, rank 1 "
            f"the most important feature of a run); ")


def _numeric_rows(R, kind: str, feature_names, argument: str = "R",
                  owner: Optional[str] = None):
    """R as a float64 M x d array with its feature names (a DataFrame's columns); the
    messages name ``argument`` (the user's name for R) and the measure ``owner``."""
    from scipy import sparse
    at = _rank_prefix(argument, owner)
    names = None
    if type(R).__module__.startswith("pandas") and hasattr(R, "columns"):
        if feature_names is not None:
            _fail("feature_names: not accepted with a DataFrame, whose columns name the "
                  "features", TypeError)
        names = check_feature_names(list(R.columns), None)
        R = R.to_numpy()
    elif sparse.issparse(R):
        if kind == "ranks":
            _fail(f"{at}a sparse matrix cannot hold ranks (its zeros are not ranks); pass a "
                  "dense array, or scores with kind='scores'", TypeError)
        R = R.toarray()
    if isinstance(R, (str, bytes)) or R is None or isinstance(R, Mapping):
        _fail(f"{at}expected a rank matrix (2-D array of ranks or scores, runs x features); "
              f"got {type(R).__name__}", TypeError)
    try:
        probe = np.asarray(R)
    except (TypeError, ValueError):         # ragged: as_real_array says so below
        probe = None
    if probe is not None and probe.dtype == bool:
        _fail(f"{at}entries must be numbers ({kind}); got booleans (a selection matrix is not "
              f"a ranking: use a set measure)", TypeError)
    arr = as_real_array(argument, R, f"numbers ({kind})")
    if arr.ndim != 2:
        _fail(f"{at}must be 2-dimensional (runs x features); got ndim={arr.ndim} with shape "
              f"{arr.shape}")
    M, d = arr.shape
    if M < 2:
        _fail(f"{at}a rank matrix needs at least 2 runs (rows); got {M} run(s)")
    if d < 2:
        _fail(f"{at}a rank matrix needs at least 2 features (columns) to rank; got {d}")
    if feature_names is not None:
        names = check_feature_names(feature_names, d)
    return arr.astype(np.float64), names


def _check_rank_values(arr: np.ndarray, names, at: str = "R: ") -> None:
    d = arr.shape[1]
    ranked = ~np.isnan(arr)
    bad = ranked & ~(np.isfinite(arr) & (arr >= 1) & (arr <= d) & (2 * arr == np.round(2 * arr)))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        col = names[j] if names is not None else j
        rule = ("ranks must be numbers in 1..d" if not (1 <= arr[i, j] <= d) else
                "ranks must be whole or half numbers (as every tie rule gives them)")
        hint = (" (a 0/1 selection matrix is not a ranking: use a set measure, or "
                "as_rankings(W, kind='scores') for weights)" if arr[i, j] in (0.0,) else
                " (for importances or weights pass kind='scores'; --scores on the "
                "command line)")
        _fail(f"{at}{rule} (d = {d}); got {arr[i, j]!r} at run {i}, feature {col!r}{hint}")


def as_rankings(R, *, kind: str = "ranks", top_k: Optional[int] = None, n_features=None,
                feature_names=None):
    """Validate ``R`` and return it as :class:`~propstab.Rankings` (midranks).

    Parameters
    ----------
    R : array-like, DataFrame or Rankings, shape (M runs, d features)
        With ``kind="ranks"``: run i's rank of each feature, 1 the most important;
        ties are allowed (any tie rule: 1, 2, 2, 4 and 1, 2.5, 2.5, 4 both tie the
        middle features) and NaN marks a feature the run does not rank (a partial
        ranking: the unranked features tie after the ranked ones). With
        ``kind="scores"``: scores, weights or importances, the largest the most
        important (NaN: no score, ranked last); a scipy.sparse matrix is accepted.
        A DataFrame's columns name the features.
    kind : {"ranks", "scores"}, default "ranks"
    top_k : int, optional
        Keep each run's top ``top_k`` features only (a top-k list): the others tie
        after them. A tie group straddling position ``top_k`` is kept whole.
    n_features : int, optional
        d, checked against R's columns.
    feature_names : sequence, optional
        The names of the d features (not with a DataFrame).

    Returns
    -------
    Rankings

    Raises
    ------
    ValueError
        Fewer than 2 runs or 2 features; a rank outside 1..d or not a whole or half
        number; an infinite score; a ``top_k`` outside 1..d; a mismatched
        ``n_features``.
    TypeError
        Non-numeric entries, booleans (a selection matrix), a sparse matrix of ranks,
        an unknown ``kind``.

    See Also
    --------
    propstab.Rankings : The validated rank matrix and its cached summaries.
    propstab.as_selection : The same for a 0/1 selection matrix.
    propstab.measures.spearman : The mean Spearman correlation over pairs of runs.

    Notes
    -----
    The tie rule: every run's ranks are re-ranked with the average (midrank) rule, so
    that tied features share the mean of the positions they occupy; ``kind="scores"``
    ranks ``-scores`` the same way. Midranks are the ranks of
    ``scipy.stats.spearmanr`` and of R's ``cor(method = "spearman")``. Ties are never
    broken at random: a stability value must not depend on a seed.

    References
    ----------
    Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika
    33(3), 239-251 (the midrank rule).
    Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho to
    measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391.

    Examples
    --------
    >>> from propstab import as_rankings
    >>> as_rankings([[1, 2, 2, 4], [4, 3, 2, 1]]).toarray().tolist()
    [[1.0, 2.5, 2.5, 4.0], [4.0, 3.0, 2.0, 1.0]]
    >>> as_rankings([[0.9, 0.1, 0.5], [0.2, 0.2, 0.7]], kind="scores").toarray().tolist()
    [[1.0, 3.0, 2.0], [2.5, 2.5, 1.0]]
    >>> as_rankings([[1, 2, 3, 4], [2, 1, 4, 3]], top_k=2).toarray().tolist()
    [[1.0, 2.0, 3.5, 3.5], [2.0, 1.0, 3.5, 3.5]]
    >>> as_rankings([[0, 1, 1], [1, 0, 1]])
    Traceback (most recent call last):
    ...
    ValueError: R: ranks must be numbers in 1..d (d = 3); got 0.0 at run 0, feature 0 (a
    0/1 selection matrix is not a ranking: use a set measure, or as_rankings(W,
    kind='scores') for weights)
    """
    return _as_rankings(R, kind=kind, top_k=top_k, n_features=n_features,
                        feature_names=feature_names)


def _as_rankings(R, *, kind: str = "ranks", top_k: Optional[int] = None, n_features=None,
                 feature_names=None, argument: str = "R", owner: Optional[str] = None):
    """:func:`as_rankings`, its messages naming ``argument`` (the name the caller's user
    gave R: ``Z`` in ``stability(Z, "spearman")``) and the measure ``owner``."""
    from ._rankings import Rankings, midranks, min_ranks
    at = _rank_prefix(argument, owner)
    if not isinstance(kind, str) or kind not in RANKING_KINDS:
        _fail(f"kind: must be one of {', '.join(map(repr, RANKING_KINDS))}; got {kind!r}",
              TypeError if not isinstance(kind, str) else ValueError)
    if isinstance(R, Rankings):
        if feature_names is not None:
            _fail("feature_names: not accepted with a Rankings, which has its own", TypeError)
        rk = R
    else:
        arr, names = _numeric_rows(R, kind, feature_names, argument, owner)
        if kind == "ranks":
            _check_rank_values(arr, names, at)
            order = np.where(np.isnan(arr), np.inf, arr)
            scores = None
        else:
            infinite = np.isinf(arr)
            if infinite.any():
                i, j = np.argwhere(infinite)[0]
                _fail(f"{at}scores must be finite numbers (NaN: no score); got {arr[i, j]!r} "
                      f"at run {i}, feature {names[j] if names is not None else j!r}")
            order = np.where(np.isnan(arr), np.inf, -arr)
            scores = arr
            scores.setflags(write=False)
        rk = Rankings(midranks(order), feature_names=names, scores=scores)
    if n_features is not None and check_n_features(n_features) != rk.n_features:
        _fail(f"n_features: {n_features} does not match {argument}'s {rk.n_features} "
              f"features")
    if top_k is not None:
        k = check_int_range("top_k", top_k, minimum=1, maximum=rk.n_features)
        kept = min_ranks(rk.toarray()) <= k
        rk = Rankings(midranks(np.where(kept, rk.toarray(), np.inf)),
                      feature_names=rk.feature_names, scores=rk.scores)
    return rk


def as_input(kind: str, X, *, n_features=None, feature_names=None, argument=None,
             owner=None):
    """``X`` validated as the input a measure of input kind ``kind`` reads:
    :func:`as_selection` for ``"selection"``, :func:`as_rankings` (ranks) for
    ``"ranking"``. The messages name ``argument``, the name the user gave ``X``
    (default ``R`` for rankings, ``Z`` for selections), and a ranking measure
    ``owner`` says that it takes a rank matrix.

    >>> as_input("ranking", [[1, 2], [2, 1]])
    Rankings(n_runs=2, n_features=2, untied)
    >>> as_input("ranking", [[1, 0], [0, 1]], argument="Z", owner="spearman")
    Traceback (most recent call last):
    ...
    ValueError: Z: the measure 'spearman' takes a rank matrix (runs x features, rank 1 the
    most important feature of a run); ranks must be numbers in 1..d (d = 2); got 0.0 at
    run 0, feature 1 (a 0/1 selection matrix is not a ranking: use a set measure, or
    as_rankings(W, kind='scores') for weights)
    """
    if kind == "ranking":
        return _as_rankings(X, n_features=n_features, feature_names=feature_names,
                            argument=argument or "R", owner=owner)
    if argument in (None, "Z"):
        return as_selection(X, n_features=n_features, feature_names=feature_names)
    try:
        return as_selection(X, n_features=n_features, feature_names=feature_names)
    except (ValueError, TypeError) as exc:
        # as_selection's own messages name its argument Z (issue 21: declared rules)
        text = str(exc)
        if text.startswith("Z: "):
            raise type(exc)(f"{argument}: {text[3:]}") from None
        raise


# public names of the two helpers other modules use (no underscore name crosses modules)
shown = _shown
is_one_of = _is_one_of
