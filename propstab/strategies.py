"""Hypothesis strategies for selection matrices (the ``audit`` extra).

Every strategy returns numpy boolean arrays ``Z`` of shape ``(M, d)`` (M runs,
d features). Defaults allow everything valid, degenerate cases included: empty
rows, full rows, constant columns, identical rows. Arguments describe the valid
values, not a distribution; impossible combinations raise at once.

Subsets are drawn as lists of distinct feature indices, so Hypothesis shrinks a
failing matrix towards few runs, few features and the leading features
``{0, 1, ..., k-1}``: the minimal counterexample is a small readable matrix.

``subset_sizes``
    ``"any"``
        each row selects 0..d features;
    ``"proper"``
        each row selects 1..d-1 features (the domain of FULLY_DEFINED);
    ``"constant"``
        every row selects the same number k in 0..d;
    ``"proper_constant"``
        every row selects the same k in 1..d-1;
    an int k
        every row selects exactly k features.

Examples
--------
>>> from hypothesis import given, settings
>>> from propstab.strategies import selection_matrices
>>> @settings(max_examples=20, database=None)
... @given(selection_matrices(subset_sizes="proper", max_features=5))
... def sizes_are_proper(Z):
...     k = Z.sum(axis=1)
...     assert ((k >= 1) & (k <= Z.shape[1] - 1)).all()
>>> sizes_are_proper()
"""
from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import NamedTuple, Tuple

import numpy as np

from ._validation import _is_one_of, check_bool, check_int_range

try:
    from hypothesis import settings as _settings
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("propstab.strategies needs Hypothesis: pip install propstab[audit]") from exc

__all__ = [
    "REPRODUCIBLE",
    "NullConfiguration",
    "identical_rows",
    "matrix_pairs",
    "near_identical_rows",
    "null_configurations",
    "selection_matrices",
]

REPRODUCIBLE = _settings(database=None, derandomize=True)
"""Hypothesis settings for a search that gives the same result on every machine and run
(no example database, derandomised): ``hypothesis.find(strategy, condition,
settings=REPRODUCIBLE)``. The audit's own searches are seeded the same way."""

SUBSET_SIZES = ("any", "proper", "constant", "proper_constant")
DEFAULT_MAX_RUNS = 6
DEFAULT_MAX_FEATURES = 8


class NullConfiguration(NamedTuple):
    """A configuration of the null model H0: M runs of sizes ``row_sizes`` over d features."""

    n_runs: int
    n_features: int
    row_sizes: Tuple[int, ...]


class _Shape(NamedTuple):
    min_runs: int
    max_runs: int
    min_features: int
    max_features: int
    sizes: object            # one of SUBSET_SIZES or an int


def _shape(owner, min_runs, max_runs, min_features, max_features, subset_sizes,
           *, need_proper=False) -> _Shape:
    """Validate the common arguments; raise at once on an impossible combination."""
    min_runs = check_int_range("min_runs", min_runs, minimum=1, owner=owner)
    max_runs = (max(min_runs, DEFAULT_MAX_RUNS) if max_runs is None else
                check_int_range("max_runs", max_runs, minimum=min_runs, owner=owner))
    min_features = check_int_range("min_features", min_features, minimum=1, owner=owner)
    max_features = (max(min_features, DEFAULT_MAX_FEATURES) if max_features is None else
                    check_int_range("max_features", max_features, minimum=min_features,
                                    owner=owner))
    if isinstance(subset_sizes, numbers.Integral) and not isinstance(subset_sizes, bool):
        k = check_int_range("subset_sizes", subset_sizes, minimum=0, maximum=max_features,
                            owner=owner)
        if need_proper and not 1 <= k <= max_features - 1:
            raise ValueError(f"subset_sizes: {owner} needs subsets of size 1..d-1, impossible "
                             f"with k = {k} and max_features = {max_features}")
        return _Shape(min_runs, max_runs, max(min_features, k + int(need_proper)),
                      max_features, k)
    if not _is_one_of(subset_sizes, SUBSET_SIZES):
        allowed = ", ".join(map(repr, SUBSET_SIZES))
        raise ValueError(f"subset_sizes: must be an int or one of {allowed} for {owner}; "
                         f"got {subset_sizes!r}")
    if need_proper and subset_sizes == "constant":
        subset_sizes = "proper_constant"
    if subset_sizes.startswith("proper"):
        if max_features < 2:
            raise ValueError(f"subset_sizes: {subset_sizes!r} needs d >= 2 for {owner}; got "
                             f"max_features = {max_features}")
        min_features = max(min_features, 2)
    return _Shape(min_runs, max_runs, min_features, max_features, subset_sizes)


def _row_sizes(draw, shape: _Shape, M: int, d: int) -> Tuple[int, ...]:
    s = shape.sizes
    if isinstance(s, int):
        return (s,) * M
    lo, hi = (1, d - 1) if s.startswith("proper") else (0, d)
    if s.endswith("constant"):
        return (draw(st.integers(lo, hi)),) * M
    return tuple(draw(st.lists(st.integers(lo, hi), min_size=M, max_size=M)))


def _subset(draw, d: int, k: int) -> list:
    return draw(st.lists(st.integers(0, d - 1), min_size=k, max_size=k, unique=True))


def _matrix(rows, d: int) -> np.ndarray:
    Z = np.zeros((len(rows), d), dtype=bool)
    for i, row in enumerate(rows):           # one assignment per run, at most M
        Z[i, row] = True
    return Z


@st.composite
def _configurations(draw, shape: _Shape) -> NullConfiguration:
    M = draw(st.integers(shape.min_runs, shape.max_runs))
    d = draw(st.integers(shape.min_features, shape.max_features))
    return NullConfiguration(M, d, _row_sizes(draw, shape, M, d))


def null_configurations(*, min_runs=2, max_runs=None, min_features=2, max_features=None,
                        subset_sizes="proper"):
    """Configurations ``(M, d, (k_1, ..., k_M))`` of the null model H0.

    Thesis Definition 2: under H0 run i draws a uniformly random subset of size k_i.

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE
    >>> from propstab.strategies import null_configurations
    >>> find(null_configurations(), lambda c: c.n_features > 3,
    ...      settings=REPRODUCIBLE)     # the minimal one
    NullConfiguration(n_runs=2, n_features=4, row_sizes=(1, 1))
    """
    shape = _shape("null_configurations", min_runs, max_runs, min_features, max_features,
                   subset_sizes)
    return _configurations(shape)


@st.composite
def _matrices(draw, shape: _Shape) -> np.ndarray:
    M, d, sizes = draw(_configurations(shape))
    return _matrix([_subset(draw, d, k) for k in sizes], d)


def selection_matrices(*, min_runs=2, max_runs=None, min_features=2, max_features=None,
                       subset_sizes="any"):
    """Boolean selection matrices Z (M x d).

    Parameters
    ----------
    min_runs, max_runs : int
        Bounds on M (``max_runs=None``: ``max(min_runs, 6)``).
    min_features, max_features : int
        Bounds on d (``max_features=None``: ``max(min_features, 8)``).
    subset_sizes : {"any", "proper", "constant", "proper_constant"} or int
        Which row sizes are allowed (see the module docstring).

    Returns
    -------
    SearchStrategy of numpy bool arrays

    Raises
    ------
    ValueError, TypeError
        An impossible combination (e.g. ``max_runs < min_runs``, ``"proper"`` sizes
        with ``max_features < 2``, a fixed size larger than ``max_features``).

    Examples
    --------
    Hypothesis shrinks towards small matrices selecting the first features:

    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE
    >>> from propstab.strategies import selection_matrices
    >>> find(selection_matrices(), lambda Z: Z.sum() >= 3, settings=REPRODUCIBLE).astype(int)
    array([[1, 0],
           [1, 1]])
    >>> find(selection_matrices(subset_sizes=2), lambda Z: Z.shape[1] > 2,
    ...      settings=REPRODUCIBLE).astype(int)
    array([[1, 0, 1],
           [1, 0, 1]])
    """
    shape = _shape("selection_matrices", min_runs, max_runs, min_features, max_features,
                   subset_sizes)
    return _matrices(shape)


@st.composite
def _pairs(draw, shape: _Shape):
    M, d, sizes = draw(_configurations(shape))
    first = _matrix([_subset(draw, d, k) for k in sizes], d)
    second = _matrix([_subset(draw, d, k) for k in sizes], d)
    return first, second


def matrix_pairs(*, min_runs=2, max_runs=None, min_features=2, max_features=None,
                 subset_sizes="any"):
    """Pairs ``(Z1, Z2)`` with the same M, d and the same row sizes k_1..k_M.

    The setting of MONOTONICITY: only the arrangement of the selections differs.

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE
    >>> from propstab.strategies import matrix_pairs
    >>> Z1, Z2 = find(matrix_pairs(), lambda p: (p[0] != p[1]).any(), settings=REPRODUCIBLE)
    >>> Z1.astype(int), Z2.astype(int)
    (array([[0, 0],
           [1, 0]]), array([[0, 0],
           [0, 1]]))
    """
    shape = _shape("matrix_pairs", min_runs, max_runs, min_features, max_features,
                   subset_sizes)
    return _pairs(shape)


@st.composite
def _identical(draw, shape: _Shape):
    M, d, sizes = draw(_configurations(shape))
    return _matrix([_subset(draw, d, sizes[0])] * M, d)


def identical_rows(*, min_runs=2, max_runs=None, min_features=2, max_features=None,
                   subset_sizes="any"):
    """Matrices whose M rows are all the same subset (the maximum of MAXIMUM).

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE
    >>> from propstab.strategies import identical_rows
    >>> find(identical_rows(), lambda Z: Z.any(), settings=REPRODUCIBLE).astype(int)
    array([[1, 0],
           [1, 0]])
    """
    shape = _shape("identical_rows", min_runs, max_runs, min_features, max_features,
                   subset_sizes)
    return _identical(shape)


@st.composite
def _near_identical(draw, shape: _Shape):
    M, d, sizes = draw(_configurations(shape))
    k = sizes[0]
    base = _subset(draw, d, k)
    rest = [f for f in range(d) if f not in base]
    fixed = isinstance(shape.sizes, int) or shape.sizes.endswith("constant")
    lo, hi = (1, d - 1) if fixed or shape.sizes == "proper" else (0, d)
    i = draw(st.integers(0, M - 1))
    rows = [list(base) for _ in range(M)]
    moves = [m for m, ok in (("swap", 0 < k < d), ("add", not fixed and k + 1 <= hi),
                             ("remove", not fixed and k - 1 >= lo)) if ok]
    move = draw(st.sampled_from(moves))
    if move in ("swap", "remove"):
        rows[i].remove(draw(st.sampled_from(base)))
    if move in ("swap", "add"):
        rows[i].append(draw(st.sampled_from(rest)))
    return _matrix(rows, d)


def near_identical_rows(*, min_runs=2, max_runs=None, min_features=2, max_features=None,
                        subset_sizes="any"):
    """Matrices with identical rows except one run that differs by one feature.

    With a constant size the odd run swaps one selected feature for an unselected one
    (so ``1 <= k <= d - 1``); otherwise it may also add or drop one feature. These are
    the non-identical matrices closest to the maximum.

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE
    >>> from propstab.strategies import near_identical_rows
    >>> find(near_identical_rows(subset_sizes="constant"), lambda Z: True,
    ...      settings=REPRODUCIBLE).astype(int)
    array([[0, 1],
           [1, 0]])
    """
    shape = _shape("near_identical_rows", min_runs, max_runs, min_features, max_features,
                   subset_sizes)
    if shape.min_runs < 2:
        raise ValueError(f"min_runs: near_identical_rows needs at least 2 runs (one differs "
                         f"from the others); got {min_runs}")
    if shape.sizes == "constant" or isinstance(shape.sizes, int):
        shape = _shape("near_identical_rows", min_runs, max_runs, min_features, max_features,
                       subset_sizes, need_proper=True)
    return _near_identical(shape)


# ---------------------------------------------------------------- correlated feature spaces

SIMILARITY_KINDS = ("identity", "groups", "general")
#: Off-diagonal similarities tried first by :func:`similarity_matrices` (0 shrinks first):
#: 1 links features fully, 0.9 and 0.95 sit at and above stabm's default threshold 0.9.
SIMILARITY_VALUES = (0.0, 1.0, 0.5, 0.9, 0.95, 0.25)


@st.composite
def _similarity(draw, d: int, kinds) -> np.ndarray:
    kind = draw(st.sampled_from(kinds))
    if kind == "identity":
        return np.eye(d)
    if kind == "groups":
        labels = np.asarray(draw(st.lists(st.integers(0, d - 1), min_size=d, max_size=d)))
        return (labels[:, None] == labels[None, :]).astype(np.float64)
    iu = np.triu_indices(d, 1)
    values = draw(st.lists(st.one_of(st.sampled_from(SIMILARITY_VALUES),
                                     st.floats(0.0, 1.0, allow_nan=False)),
                           min_size=iu[0].size, max_size=iu[0].size))
    C = np.eye(d)
    C[iu] = values
    C[iu[1], iu[0]] = values
    return C


def similarity_matrices(n_features, *, kinds=SIMILARITY_KINDS):
    """Feature-similarity matrices C (d x d): symmetric, entries in [0, 1], unit diagonal.

    The matrices every correlated measure accepts (Sechidis et al. 2019, eq. 4;
    Hamer and Dupont 2021, sec. 5), positive semi-definite or not.

    Parameters
    ----------
    n_features : int
        d.
    kinds : sequence of {"identity", "groups", "general"}
        ``"identity"``: no two features related; ``"groups"``: a 0/1 block matrix
        (features with the same drawn group label are fully similar, as built by
        :func:`propstab.similarity_from_groups`); ``"general"``: every off-diagonal
        entry drawn in [0, 1] (values 0, 1, 0.5, 0.9, 0.95, 0.25 first, then any
        float). Hypothesis shrinks towards the first kind listed and towards 0.

    Returns
    -------
    SearchStrategy of float64 ndarrays of shape (d, d)

    Examples
    --------
    >>> import numpy as np
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE
    >>> from propstab.strategies import similarity_matrices
    >>> find(similarity_matrices(3), lambda C: C[0, 1] > 0 == C[0, 2],
    ...      settings=REPRODUCIBLE)     # one link
    array([[1., 1., 0.],
           [1., 1., 0.],
           [0., 0., 1.]])
    >>> find(similarity_matrices(2, kinds=["general"]), lambda C: 0 < C[0, 1] < 1,
    ...      settings=REPRODUCIBLE)
    array([[1. , 0.5],
           [0.5, 1. ]])
    """
    d = check_int_range("n_features", n_features, minimum=1, owner="similarity_matrices")
    if isinstance(kinds, (str, bytes)) or not isinstance(kinds, Iterable):
        raise TypeError(f"kinds: must be a sequence of {SIMILARITY_KINDS}; got "
                        f"{type(kinds).__name__} {kinds!r}")
    kinds = tuple(kinds)
    bad = [k for k in kinds if not _is_one_of(k, SIMILARITY_KINDS)]
    if not kinds or bad:
        raise ValueError(f"kinds: similarity_matrices needs a non-empty subset of "
                         f"{SIMILARITY_KINDS}; got {kinds!r}")
    return _similarity(d, kinds)


#: Importance weights tried first by :func:`importance_weights` (1 shrinks first).
WEIGHT_VALUES = (1.0, 2.0, 0.5, 10.0)


def importance_weights(n_runs, n_features, *, equal=True):
    """Positive weights U (M x d) giving importances ``W = Z * U`` for any selection Z.

    An importance matrix (Hamer and Dupont 2021, sec. 3) is non-negative and zero
    exactly where Z is 0; multiplying Z entrywise by strictly positive weights gives
    one for every Z of the same shape, so one draw serves pairs of matrices and the
    enumeration of the null model alike. ``equal=True`` includes ``None`` (equal
    importances: the measure's default), drawn first.

    Returns
    -------
    SearchStrategy of float64 ndarrays of shape (M, d), or None

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE
    >>> from propstab.strategies import importance_weights
    >>> find(importance_weights(2, 2), lambda U: U is not None and U.max() > 1,
    ...      settings=REPRODUCIBLE)
    array([[1., 1.],
           [1., 2.]])
    """
    M = check_int_range("n_runs", n_runs, minimum=1, owner="importance_weights")
    d = check_int_range("n_features", n_features, minimum=1, owner="importance_weights")
    equal = check_bool("equal", equal)
    entry = st.one_of(st.sampled_from(WEIGHT_VALUES),
                      st.floats(0.01, 100.0, allow_nan=False, allow_infinity=False))
    weights = st.lists(entry, min_size=M * d, max_size=M * d).map(
        lambda v: np.asarray(v, dtype=np.float64).reshape(M, d))
    return st.one_of(st.none(), weights) if equal else weights


__all__ += ["importance_weights", "similarity_matrices"]
