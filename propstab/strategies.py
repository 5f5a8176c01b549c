"""Hypothesis strategies for selection matrices (the ``audit`` extra).

Every strategy returns numpy boolean arrays ``Z`` of shape ``(M, d)`` (M runs,
d features). Defaults allow everything valid, degenerate cases included: empty
rows, full rows, constant columns, identical rows. Arguments describe the valid
values, not a distribution.

The strategies behave like Hypothesis's own (e.g. ``hypothesis.extra.numpy.arrays``):
calling one returns a lazily evaluated strategy whose ``repr`` is the call, and its
arguments are validated when the strategy is first used, before any example is
generated: an invalid argument or an impossible combination raises
:class:`hypothesis.errors.InvalidArgument` naming the argument and the value.

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
>>> from propstab.strategies import REPRODUCIBLE, selection_matrices
>>> selection_matrices(subset_sizes="proper", max_features=5)
selection_matrices(max_features=5, subset_sizes='proper')
>>> @settings(REPRODUCIBLE, max_examples=20)
... @given(selection_matrices(subset_sizes="proper", max_features=5))
... def sizes_are_proper(Z):
...     k = Z.sum(axis=1)
...     assert ((k >= 1) & (k <= Z.shape[1] - 1)).all()
>>> sizes_are_proper()
"""
from __future__ import annotations

import functools
import inspect
import numbers
from collections.abc import Iterable
from typing import NamedTuple, Tuple

import numpy as np

from ._validation import _is_one_of, check_int_range
from .search import REPRODUCIBLE

try:
    from hypothesis import strategies as st
    from hypothesis.errors import InvalidArgument
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("propstab.strategies needs Hypothesis: pip install propstab[audit]") from exc

__all__ = [
    "REPRODUCIBLE",
    "NullConfiguration",
    "identical_rows",
    "importance_weights",
    "matrix_from_rows",
    "matrix_pairs",
    "near_identical_rows",
    "null_configurations",
    "selection_matrices",
    "similarity_matrices",
]

SUBSET_SIZES = ("any", "proper", "constant", "proper_constant")
DEFAULT_MAX_RUNS = 6
DEFAULT_MAX_FEATURES = 8
#: The largest sizes the strategies draw: Hypothesis draws small examples (its buffer
#: holds a few thousand choices), and a counterexample is read by a person.
LIMIT_RUNS, LIMIT_FEATURES, LIMIT_SIMILARITY_FEATURES = 50, 50, 50


class NullConfiguration(NamedTuple):
    """A configuration of the null model H0: M runs of sizes ``row_sizes`` over d features.

    See Also
    --------
    null_configurations : The strategy drawing these configurations.
    propstab.chance.nogueira_expectation : An exact expectation under H0 for such sizes.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Definition 2 (the null model of
    feature selection).

    Examples
    --------
    >>> from propstab.strategies import NullConfiguration
    >>> c = NullConfiguration(n_runs=2, n_features=4, row_sizes=(1, 3))
    >>> c.n_features, sum(c.row_sizes)
    (4, 4)
    """

    n_runs: int
    n_features: int
    row_sizes: Tuple[int, ...]


def matrix_from_rows(rows, n_features: int, *, base: int = 0) -> np.ndarray:
    """The boolean selection matrix whose run i selects the features ``rows[i]``.

    Parameters
    ----------
    rows : sequence of sequences of int
        The feature indices selected by each run (one sequence per run, possibly empty).
    n_features : int
        d, the number of columns.
    base : {0, 1}, default 0
        Whether the indices are 0-based (Python, numpy) or 1-based (R, stabm).

    Returns
    -------
    ndarray of bool, shape (len(rows), n_features)

    Raises
    ------
    ValueError, TypeError
        ``n_features`` is not a positive integer, ``base`` is not 0 or 1, or an index
        is not an integer in ``base .. base + n_features - 1``.

    See Also
    --------
    propstab.as_selection : Validates index collections as a Selection.
    propstab.r.from_r_selection : Reads stabm's 1-based list of feature vectors.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 2.2.3 and Fig. 2.1 (set notation
    and the binary matrix Z).

    Examples
    --------
    >>> from propstab.strategies import matrix_from_rows
    >>> matrix_from_rows([[0, 1], [], [2]], 3).astype(int)
    array([[1, 1, 0],
           [0, 0, 0],
           [0, 0, 1]])
    >>> matrix_from_rows([[1, 2], [3]], 3, base=1).astype(int).tolist()
    [[1, 1, 0], [0, 0, 1]]
    >>> matrix_from_rows([[3]], 3)
    Traceback (most recent call last):
    ...
    ValueError: rows: run 0 selects the index 3, outside 0..2 (0-based, n_features = 3)
    """
    d = check_int_range("n_features", n_features, minimum=1, owner="matrix_from_rows")
    if isinstance(base, bool) or not isinstance(base, numbers.Integral) or base not in (0, 1):
        raise ValueError(f"base: must be 0 or 1; got {type(base).__name__} {base!r}")
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        raise TypeError(f"rows: must be a sequence of runs, each a sequence of feature "
                        f"indices; got {type(rows).__name__} {rows!r}")
    rows = list(rows)
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            raise TypeError(f"rows: run {i} must be a sequence of feature indices; got "
                            f"{type(row).__name__} {row!r}")
    Z = np.zeros((len(rows), d), dtype=bool)
    for i, row in enumerate(rows):           # one assignment per run
        index = np.asarray(list(row))
        if index.size == 0:
            continue
        if index.dtype.kind not in "iu":
            raise TypeError(f"rows: run {i} must list integer feature indices; got {row!r}")
        index = index - base
        outside = (index < 0) | (index >= d)
        if outside.any():
            raise ValueError(f"rows: run {i} selects the index {index[outside][0] + base}, "
                             f"outside {base}..{base + d - 1} ({base}-based, n_features = {d})")
        Z[i, index] = True
    return Z


# ---------------------------------------------------------------- lazily validated strategies

def _public(build):
    """The public strategy function of ``build(draw, ...)``: calling it returns a lazily
    evaluated strategy whose repr is the call (a Hypothesis composite); ``build`` validates
    its arguments (raising InvalidArgument) before its first draw."""
    composite = st.composite(build)

    @functools.wraps(build)
    def strategy(*args, **kwargs):
        return composite(*args, **kwargs)

    signature = inspect.signature(build)
    strategy.__signature__ = signature.replace(
        parameters=list(signature.parameters.values())[1:])
    del strategy.__wrapped__             # the signature above, not build's
    return strategy


def _invalid(check, *args, **kwargs):
    """``check(*args, **kwargs)`` with its ValueError/TypeError as InvalidArgument."""
    try:
        return check(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        raise InvalidArgument(str(exc)) from None


class _Shape(NamedTuple):
    min_runs: int
    max_runs: int
    min_features: int
    max_features: int
    sizes: object            # one of SUBSET_SIZES or an int


def _shape(owner, min_runs, max_runs, min_features, max_features, subset_sizes,
           *, need_proper=False) -> _Shape:
    """Validate the common arguments; InvalidArgument on an impossible combination."""
    min_runs = _invalid(check_int_range, "min_runs", min_runs, minimum=1, maximum=LIMIT_RUNS,
                        owner=owner)
    max_runs = (max(min_runs, DEFAULT_MAX_RUNS) if max_runs is None else
                _invalid(check_int_range, "max_runs", max_runs, minimum=min_runs,
                         maximum=LIMIT_RUNS, owner=owner))
    min_features = _invalid(check_int_range, "min_features", min_features, minimum=1,
                            maximum=LIMIT_FEATURES, owner=owner)
    max_features = (max(min_features, DEFAULT_MAX_FEATURES) if max_features is None else
                    _invalid(check_int_range, "max_features", max_features,
                             minimum=min_features, maximum=LIMIT_FEATURES, owner=owner))
    if isinstance(subset_sizes, numbers.Integral) and not isinstance(subset_sizes, bool):
        k = _invalid(check_int_range, "subset_sizes", subset_sizes, minimum=0,
                     maximum=max_features, owner=owner)
        if need_proper and not 1 <= k <= max_features - 1:
            raise InvalidArgument(f"subset_sizes: {owner} needs subsets of size 1..d-1, "
                                  f"impossible with k = {k} and max_features = {max_features}")
        return _Shape(min_runs, max_runs, max(min_features, k + int(need_proper)),
                      max_features, k)
    if not _is_one_of(subset_sizes, SUBSET_SIZES):
        allowed = ", ".join(map(repr, SUBSET_SIZES))
        raise InvalidArgument(f"subset_sizes: must be an int or one of {allowed} for {owner}; "
                              f"got {subset_sizes!r}")
    if need_proper and subset_sizes == "constant":
        subset_sizes = "proper_constant"
    if subset_sizes.startswith("proper"):
        if max_features < 2:
            raise InvalidArgument(f"subset_sizes: {subset_sizes!r} needs d >= 2 for {owner}; "
                                  f"got max_features = {max_features}")
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


def _configuration(draw, shape: _Shape) -> NullConfiguration:
    M = draw(st.integers(shape.min_runs, shape.max_runs))
    d = draw(st.integers(shape.min_features, shape.max_features))
    return NullConfiguration(M, d, _row_sizes(draw, shape, M, d))


@st.composite
def _configurations(draw, shape: _Shape) -> NullConfiguration:
    return _configuration(draw, shape)


@_public
def null_configurations(draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None,
                        subset_sizes="proper"):
    """Configurations ``(M, d, (k_1, ..., k_M))`` of the null model H0.

    Thesis Definition 2: under H0 run i draws a uniformly random subset of size k_i.

    Parameters
    ----------
    min_runs, max_runs, min_features, max_features, subset_sizes
        As for :func:`selection_matrices` (``subset_sizes`` defaults to ``"proper"``).

    Returns
    -------
    SearchStrategy of NullConfiguration

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument or an impossible
        combination (as for :func:`selection_matrices`).

    See Also
    --------
    selection_matrices : Matrices with these shapes and sizes.
    propstab.auditing.check_correction_for_chance : Checks E[value | H0] over them.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Definition 2.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

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
    return _configuration(draw, shape)


@_public
def selection_matrices(draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None,
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
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument or an impossible
        combination (e.g. ``max_runs < min_runs``, ``"proper"`` sizes with
        ``max_features < 2``, a fixed size larger than ``max_features``).

    See Also
    --------
    matrix_pairs : Pairs with the same row sizes (MONOTONICITY).
    identical_rows : Matrices whose runs are all the same (MAXIMUM).
    propstab.audit : Searches these for counterexamples to a measure's claims.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 4.1 (the properties'
    domain).

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

    Arguments are checked when the strategy is used:

    >>> impossible = selection_matrices(min_runs=3, max_runs=2)
    >>> impossible
    selection_matrices(min_runs=3, max_runs=2)
    >>> from hypothesis.errors import InvalidArgument
    >>> try:
    ...     find(impossible, lambda Z: True)
    ... except InvalidArgument as exc:
    ...     print(exc)
    max_runs: must be >= 3 and <= 50 for selection_matrices; got 2
    """
    shape = _shape("selection_matrices", min_runs, max_runs, min_features, max_features,
                   subset_sizes)
    M, d, sizes = draw(_configurations(shape))
    return matrix_from_rows([_subset(draw, d, k) for k in sizes], d)


@_public
def matrix_pairs(draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None,
                 subset_sizes="any"):
    """Pairs ``(Z1, Z2)`` with the same M, d and the same row sizes k_1..k_M.

    The setting of MONOTONICITY: only the arrangement of the selections differs.

    Parameters
    ----------
    min_runs, max_runs, min_features, max_features, subset_sizes
        As for :func:`selection_matrices`.

    Returns
    -------
    SearchStrategy of pairs of numpy bool arrays

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument or an impossible
        combination.

    See Also
    --------
    selection_matrices : Any selection matrix.
    identical_rows : Matrices whose runs are all the same.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 4.1 and Thm 2 (monotonicity).
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

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
    M, d, sizes = draw(_configurations(shape))
    first = matrix_from_rows([_subset(draw, d, k) for k in sizes], d)
    second = matrix_from_rows([_subset(draw, d, k) for k in sizes], d)
    return first, second


@_public
def identical_rows(draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None,
                   subset_sizes="any"):
    """Matrices whose M rows are all the same subset (the maximum of MAXIMUM).

    Parameters
    ----------
    min_runs, max_runs, min_features, max_features, subset_sizes
        As for :func:`selection_matrices`.

    Returns
    -------
    SearchStrategy of numpy bool arrays

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument or an impossible
        combination.

    See Also
    --------
    selection_matrices : Any selection matrix.
    near_identical_rows : The non-identical matrices closest to these.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 4.1 (Maximum Stability <->
    Deterministic Selection).
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

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
    M, d, sizes = draw(_configurations(shape))
    return matrix_from_rows([_subset(draw, d, sizes[0])] * M, d)


@_public
def near_identical_rows(draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None,
                        subset_sizes="any"):
    """Matrices with identical rows except one run that differs by one feature.

    With a constant size the odd run swaps one selected feature for an unselected one
    (so ``1 <= k <= d - 1``); otherwise it may also add or drop one feature. These are
    the non-identical matrices closest to the maximum.

    Parameters
    ----------
    min_runs, max_runs, min_features, max_features, subset_sizes
        As for :func:`selection_matrices`.

    Returns
    -------
    SearchStrategy of numpy bool arrays

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument or an impossible
        combination (fewer than 2 runs, or a constant size without room for a swap).

    See Also
    --------
    selection_matrices : Any selection matrix.
    identical_rows : Every run the same.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 4.2.4 and Fig. 4.1 (the maximum
    property).
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

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
        raise InvalidArgument(f"min_runs: near_identical_rows needs at least 2 runs (one "
                              f"differs from the others); got {min_runs}")
    if shape.sizes == "constant" or isinstance(shape.sizes, int):
        shape = _shape("near_identical_rows", min_runs, max_runs, min_features, max_features,
                       subset_sizes, need_proper=True)
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
    return matrix_from_rows(rows, d)


# ---------------------------------------------------------------- correlated feature spaces

SIMILARITY_KINDS = ("identity", "groups", "general")
SIMILARITY_FORMATS = ("dense", "sparse")
#: Off-diagonal similarities tried first by :func:`similarity_matrices` (0 shrinks first):
#: 1 links features fully, 0.9 and 0.95 sit at and above stabm's default threshold 0.9.
SIMILARITY_VALUES = (0.0, 1.0, 0.5, 0.9, 0.95, 0.25)
#: The off-diagonal entries of a ``"general"`` similarity matrix: the values above first,
#: then any float in [0, 1].
SIMILARITY_ELEMENTS = st.one_of(st.sampled_from(SIMILARITY_VALUES),
                                st.floats(0.0, 1.0, allow_nan=False))


def _similarity_arguments(n_features, kinds, elements, formats):
    owner = "similarity_matrices"
    d = _invalid(check_int_range, "n_features", n_features, minimum=1,
                 maximum=LIMIT_SIMILARITY_FEATURES, owner=owner)
    for name, value, allowed in (("kinds", kinds, SIMILARITY_KINDS),
                                 ("formats", formats, SIMILARITY_FORMATS)):
        if (isinstance(value, (str, bytes)) or not isinstance(value, Iterable)
                or not list(value) or any(not _is_one_of(v, allowed) for v in value)):
            raise InvalidArgument(f"{name}: {owner} needs a non-empty subset of {allowed}; "
                                  f"got {value!r}")
    if not isinstance(elements, st.SearchStrategy):
        raise InvalidArgument(f"elements: must be a Hypothesis strategy of floats in [0, 1] "
                              f"for {owner}; got {type(elements).__name__} {elements!r}")
    return d, tuple(kinds), tuple(formats)


def _unit_entries(values, elements) -> list:
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 <= v <= 1:
            raise InvalidArgument(f"elements: similarity_matrices needs numbers in [0, 1]; "
                                  f"{elements!r} drew {v!r}")
    return values


@_public
def similarity_matrices(draw, n_features, *, kinds=SIMILARITY_KINDS,
                        elements=SIMILARITY_ELEMENTS, formats=("dense",)):
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
        entry drawn from ``elements``. Hypothesis shrinks towards the first kind listed.
    elements : SearchStrategy of float
        The off-diagonal entries of a ``"general"`` matrix, numbers in [0, 1]; the
        default ``SIMILARITY_ELEMENTS`` tries 0, 1, 0.5, 0.9, 0.95, 0.25 first, then
        any float (shrinking towards 0).
    formats : sequence of {"dense", "sparse"}
        ``"dense"``: float64 ndarrays; ``"sparse"``: scipy.sparse CSR matrices (the
        input R's ``Matrix`` package and stabm receive as ``dgCMatrix``).

    Returns
    -------
    SearchStrategy of float64 ndarrays (or CSR matrices) of shape (d, d)

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used: ``n_features`` not a positive integer, ``kinds``
        or ``formats`` not a non-empty subset of the choices, ``elements`` not a
        strategy, or an element drawn outside [0, 1].

    See Also
    --------
    propstab.similarity_from_data : Similarities from data.
    propstab.similarity_from_groups : Similarities from groups of features.
    importance_weights : Importances for the same correlated measures.

    References
    ----------
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD, LNCS 11906, 327-342, eq. 4.
    Hamer, V., Dupont, P. (2021). Robust selection stability estimation in correlated
    spaces. ECML PKDD, LNCS 12977, 446-461, sec. 5.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

    Examples
    --------
    >>> import numpy as np
    >>> from hypothesis import find, strategies as st
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
    >>> sparse = similarity_matrices(2, kinds=["general"], elements=st.just(0.3),
    ...                              formats=["sparse"])
    >>> find(sparse, lambda C: True, settings=REPRODUCIBLE).toarray()
    array([[1. , 0.3],
           [0.3, 1. ]])
    >>> from hypothesis.errors import InvalidArgument
    >>> try:
    ...     find(similarity_matrices(3, kinds=["psd"]), lambda C: True)
    ... except InvalidArgument as exc:
    ...     print(exc)
    kinds: similarity_matrices needs a non-empty subset of
    ('identity', 'groups', 'general'); got ['psd']
    """
    d, kinds, formats = _similarity_arguments(n_features, kinds, elements, formats)
    kind = draw(st.sampled_from(kinds))
    if kind == "identity":
        C = np.eye(d)
    elif kind == "groups":
        labels = np.asarray(draw(st.lists(st.integers(0, d - 1), min_size=d, max_size=d)))
        C = (labels[:, None] == labels[None, :]).astype(np.float64)
    else:
        iu = np.triu_indices(d, 1)
        values = _unit_entries(draw(st.lists(elements, min_size=iu[0].size,
                                             max_size=iu[0].size)), elements)
        C = np.eye(d)
        C[iu] = values
        C[iu[1], iu[0]] = values
    form = formats[0] if len(formats) == 1 else draw(st.sampled_from(formats))
    if form == "sparse":
        from scipy import sparse
        return sparse.csr_matrix(C)
    return C


#: Importance weights tried first by :func:`importance_weights` (1 shrinks first).
WEIGHT_VALUES = (1.0, 2.0, 0.5, 10.0)


@_public
def importance_weights(draw, n_runs, n_features, *, equal=True):
    """Positive weights U (M x d) giving importances ``W = Z * U`` for any selection Z.

    An importance matrix (Hamer and Dupont 2021, sec. 3) is non-negative and zero
    exactly where Z is 0; multiplying Z entrywise by strictly positive weights gives
    one for every Z of the same shape, so one draw serves pairs of matrices and the
    enumeration of the null model alike.

    Parameters
    ----------
    n_runs, n_features : int
        M and d.
    equal : bool, default True
        Include ``None`` (equal importances: the measure's default), drawn first.

    Returns
    -------
    SearchStrategy of float64 ndarrays of shape (M, d), or None

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used: ``n_runs`` or ``n_features`` not an integer in
        1..50, ``equal`` not True or False.

    See Also
    --------
    similarity_matrices : The similarity matrices of the same measures.
    propstab.measures.msi : A measure that reads importances.

    References
    ----------
    Hamer, V., Dupont, P. (2021). Robust selection stability estimation in correlated
    spaces. ECML PKDD, LNCS 12977, 446-461, sec. 3 and eqs. 6-7.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

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
    M = _invalid(check_int_range, "n_runs", n_runs, minimum=1, maximum=LIMIT_RUNS,
                 owner="importance_weights")
    d = _invalid(check_int_range, "n_features", n_features, minimum=1,
                 maximum=LIMIT_FEATURES, owner="importance_weights")
    if not isinstance(equal, bool):
        raise InvalidArgument(f"equal: must be True or False for importance_weights; got "
                              f"{type(equal).__name__} {equal!r}")
    entry = st.one_of(st.sampled_from(WEIGHT_VALUES),
                      st.floats(0.01, 100.0, allow_nan=False, allow_infinity=False))
    weights = st.lists(entry, min_size=M * d, max_size=M * d).map(
        lambda v: np.asarray(v, dtype=np.float64).reshape(M, d))
    return draw(st.one_of(st.none(), weights) if equal else weights)


# ---------------------------------------------------------------- rank matrices (rankings)

#: The ``ties`` argument of the rank-matrix strategies: ``"any"`` (every weak order, runs
#: ranking all features equal included), ``"proper"`` (no run ranks all features equal:
#: the domain of FULLY_DEFINED for rankings) or ``"none"`` (permutations of 1..d only).
TIES = ("any", "proper", "none")

__all__ += ["TIES", "RankConfiguration", "identical_rankings", "midranks_of_pattern",
            "near_identical_rankings", "rank_matrices", "rank_matrix_pairs",
            "rank_null_configurations"]


class RankConfiguration(NamedTuple):
    """A configuration of the null model for rankings: M runs over d features, run i with
    the tie pattern ``patterns[i]`` (its midranks in increasing order); under H0 run i
    ranks the features by a uniformly random permutation of them.

    See Also
    --------
    rank_null_configurations : The strategy drawing these configurations.
    midranks_of_pattern : The midranks of a tie pattern.

    References
    ----------
    Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho to
    measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391.
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 7.2.2 (stability of
    rankings).

    Examples
    --------
    >>> from propstab.strategies import RankConfiguration, midranks_of_pattern
    >>> c = RankConfiguration(2, 3, (midranks_of_pattern([3]), (1.0, 2.0, 3.0)))
    >>> c.row_sizes[0]
    (2.0, 2.0, 2.0)
    """

    n_runs: int
    n_features: int
    patterns: Tuple[Tuple[float, ...], ...]

    @property
    def row_sizes(self) -> Tuple[Tuple[float, ...], ...]:
        """The patterns (the analogue of the row sizes of a selection configuration)."""
        return self.patterns


def midranks_of_pattern(group_sizes) -> Tuple[float, ...]:
    """The midranks, in increasing order, of a run whose tie groups have these sizes (in
    order of position): a group over positions s..s+t-1 has midrank s + (t - 1)/2.

    Parameters
    ----------
    group_sizes : sequence of int
        The sizes of the run's tie groups, in order of position (1 for an untied
        feature); they sum to d.

    Returns
    -------
    tuple of float
        The d midranks, in increasing order.

    Raises
    ------
    TypeError
        If ``group_sizes`` is not a sequence or a size is not an integer.
    ValueError
        If ``group_sizes`` is empty or a size is below 1.

    See Also
    --------
    propstab.as_rankings : Applies the same midrank rule to a rank matrix.
    RankConfiguration : Null configurations given by such patterns.

    References
    ----------
    Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika 33(3),
    239-251 (midranks).

    Examples
    --------
    >>> from propstab.strategies import midranks_of_pattern
    >>> midranks_of_pattern([1, 2, 1])
    (1.0, 2.5, 2.5, 4.0)
    """
    if isinstance(group_sizes, (str, bytes)) or not isinstance(group_sizes, Iterable):
        raise TypeError(f"group_sizes: must be a sequence of positive integers; got "
                        f"{type(group_sizes).__name__} {group_sizes!r}")
    group_sizes = [check_int_range("group_sizes", t, minimum=1, owner="midranks_of_pattern")
                   for t in group_sizes]
    if not group_sizes:
        raise ValueError("group_sizes: must list at least one tie group; got []")
    out, start = [], 1
    for t in group_sizes:
        out += [start + (t - 1) / 2] * t
        start += t
    return tuple(float(x) for x in out)


class _RankShape(NamedTuple):
    min_runs: int
    max_runs: int
    min_features: int
    max_features: int
    ties: str


def _rank_shape(owner, min_runs, max_runs, min_features, max_features, ties) -> _RankShape:
    min_runs = _invalid(check_int_range, "min_runs", min_runs, minimum=1, maximum=LIMIT_RUNS,
                        owner=owner)
    max_runs = (max(min_runs, DEFAULT_MAX_RUNS) if max_runs is None else
                _invalid(check_int_range, "max_runs", max_runs, minimum=min_runs,
                         maximum=LIMIT_RUNS, owner=owner))
    min_features = _invalid(check_int_range, "min_features", min_features, minimum=2,
                            maximum=LIMIT_FEATURES, owner=owner)
    max_features = (max(min_features, DEFAULT_MAX_FEATURES) if max_features is None else
                    _invalid(check_int_range, "max_features", max_features,
                             minimum=min_features, maximum=LIMIT_FEATURES, owner=owner))
    if not _is_one_of(ties, TIES):
        raise InvalidArgument(f"ties: must be one of {', '.join(map(repr, TIES))} for "
                              f"{owner}; got {ties!r}")
    return _RankShape(min_runs, max_runs, min_features, max_features, ties)


def _pattern(draw, d: int, ties: str) -> Tuple[float, ...]:
    """A tie pattern: whether each position ties with the next (False shrinks first: no
    ties); ``"proper"`` forbids one group of all d features."""
    if ties == "none":
        return midranks_of_pattern([1] * d)
    links = draw(st.lists(st.booleans(), min_size=d - 1, max_size=d - 1))
    if ties == "proper" and all(links):
        links[-1] = False
    sizes, t = [], 1
    for tied in links:
        if tied:
            t += 1
        else:
            sizes.append(t)
            t = 1
    sizes.append(t)
    return midranks_of_pattern(sizes)


def _arranged(draw, pattern: Tuple[float, ...]) -> np.ndarray:
    """The run ranking feature ``order[p]`` at position p (a drawn permutation, shrinking
    towards the identity: feature f at position f)."""
    order = draw(st.permutations(range(len(pattern))))
    row = np.empty(len(pattern))
    row[list(order)] = pattern
    return row


def _rank_configuration(draw, shape: _RankShape) -> RankConfiguration:
    M = draw(st.integers(shape.min_runs, shape.max_runs))
    d = draw(st.integers(shape.min_features, shape.max_features))
    return RankConfiguration(M, d, tuple(_pattern(draw, d, shape.ties) for _ in range(M)))


@_public
def rank_null_configurations(draw, *, min_runs=2, max_runs=None, min_features=2,
                             max_features=None, ties="proper"):
    """Configurations ``(M, d, patterns)`` of the null model for rankings.

    Under H0 run i ranks the features by a uniformly random permutation of its midranks
    ``patterns[i]`` (without ties: each of the d! rankings equally likely).

    Parameters
    ----------
    min_runs, max_runs : int
        Bounds on M (``max_runs=None``: ``max(min_runs, 6)``).
    min_features, max_features : int
        Bounds on d, at least 2 (``max_features=None``: ``max(min_features, 8)``).
    ties : {"any", "proper", "none"}, default "proper"
        Which tie patterns are allowed (:data:`TIES`).

    Returns
    -------
    SearchStrategy of RankConfiguration

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument.

    See Also
    --------
    RankConfiguration : The configurations drawn.
    null_configurations : The same for selection matrices.

    References
    ----------
    Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho to
    measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE, rank_null_configurations
    >>> find(rank_null_configurations(), lambda c: c.n_features > 2, settings=REPRODUCIBLE)
    RankConfiguration(n_runs=2, n_features=3, patterns=((1.0, 2.0, 3.0), (1.0, 2.0, 3.0)))
    """
    shape = _rank_shape("rank_null_configurations", min_runs, max_runs, min_features,
                        max_features, ties)
    return _rank_configuration(draw, shape)


@_public
def rank_matrices(draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None,
                  ties="any"):
    """Rank matrices R (M x d, float64 midranks; run i ranks the d features, 1 first).

    Each run draws a tie pattern (which positions tie with the next) and a permutation of
    the features; Hypothesis shrinks towards few runs and features, no ties and the
    identity ranking (feature f at position f + 1).

    Parameters
    ----------
    min_runs, max_runs : int
        Bounds on M (``max_runs=None``: ``max(min_runs, 6)``).
    min_features, max_features : int
        Bounds on d, at least 2 (``max_features=None``: ``max(min_features, 8)``).
    ties : {"any", "proper", "none"}, default "any"
        ``"any"``: every weak order; ``"proper"``: no run ranks all features equal;
        ``"none"``: permutations of 1..d (:data:`TIES`).

    Returns
    -------
    SearchStrategy of float64 ndarrays of midranks

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument or an impossible
        combination (e.g. ``max_runs < min_runs``, ``min_features < 2``).

    See Also
    --------
    rank_matrix_pairs : Pairs with the same tie patterns (MONOTONICITY).
    selection_matrices : The same for selection matrices.

    References
    ----------
    Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho to
    measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE, rank_matrices
    >>> find(rank_matrices(), lambda R: (R[0] != R[1]).any(), settings=REPRODUCIBLE)
    array([[1., 2.],
           [2., 1.]])
    >>> find(rank_matrices(ties="any"), lambda R: (R == 1.5).any(), settings=REPRODUCIBLE)
    array([[1. , 2. ],
           [1.5, 1.5]])
    """
    shape = _rank_shape("rank_matrices", min_runs, max_runs, min_features, max_features, ties)
    config = _rank_configuration(draw, shape)
    return np.vstack([_arranged(draw, p) for p in config.patterns])


@_public
def rank_matrix_pairs(draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None,
                      ties="any"):
    """Pairs ``(R1, R2)`` with the same M, d and the same tie pattern in each run.

    The setting of MONOTONICITY for rankings: only the arrangement of the ranks differs
    (run i of R1 and run i of R2 have the same multiset of midranks).

    Parameters
    ----------
    min_runs, max_runs, min_features, max_features, ties
        As for :func:`rank_matrices`.

    Returns
    -------
    SearchStrategy of pairs of float64 ndarrays

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument.

    See Also
    --------
    rank_matrices : Any rank matrix.
    matrix_pairs : The same for selection matrices.

    References
    ----------
    Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho to
    measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE, rank_matrix_pairs
    >>> R1, R2 = find(rank_matrix_pairs(), lambda p: (p[0] != p[1]).any(),
    ...               settings=REPRODUCIBLE)
    >>> R1.tolist(), R2.tolist()
    ([[1.0, 2.0], [1.0, 2.0]], [[1.0, 2.0], [2.0, 1.0]])
    """
    shape = _rank_shape("rank_matrix_pairs", min_runs, max_runs, min_features, max_features,
                        ties)
    config = _rank_configuration(draw, shape)
    first = np.vstack([_arranged(draw, p) for p in config.patterns])
    second = np.vstack([_arranged(draw, p) for p in config.patterns])
    return first, second


@_public
def identical_rankings(draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None,
                       ties="any"):
    """Rank matrices whose M runs rank the features identically (the maximum of MAXIMUM).

    Parameters
    ----------
    min_runs, max_runs, min_features, max_features, ties
        As for :func:`rank_matrices`.

    Returns
    -------
    SearchStrategy of float64 ndarrays

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument.

    See Also
    --------
    near_identical_rankings : The non-identical rank matrices closest to these.
    identical_rows : The same for selection matrices.

    References
    ----------
    Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho to
    measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE, identical_rankings
    >>> find(identical_rankings(), lambda R: R.shape[1] == 3, settings=REPRODUCIBLE).tolist()
    [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    """
    shape = _rank_shape("identical_rankings", min_runs, max_runs, min_features, max_features,
                        ties)
    config = _rank_configuration(draw, shape)
    row = _arranged(draw, config.patterns[0])
    return np.vstack([row] * config.n_runs)


@_public
def near_identical_rankings(draw, *, min_runs=2, max_runs=None, min_features=2,
                            max_features=None, ties="proper"):
    """Rank matrices with identical runs except one, where two features of different ranks
    swap their ranks (the non-identical matrices closest to the maximum; the tie
    patterns are unchanged).

    Parameters
    ----------
    min_runs, max_runs, min_features, max_features, ties
        As for :func:`rank_matrices`; ``ties="any"`` is read as ``"proper"`` (a run
        ranking all features equal has nothing to swap).

    Returns
    -------
    SearchStrategy of float64 ndarrays

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used, for an invalid argument or fewer than 2 runs.

    See Also
    --------
    identical_rankings : Every run ranking the features the same.
    near_identical_rows : The same for selection matrices.

    References
    ----------
    Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho to
    measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE, near_identical_rankings
    >>> find(near_identical_rankings(), lambda R: True, settings=REPRODUCIBLE).tolist()
    [[2.0, 1.0], [1.0, 2.0]]
    """
    shape = _rank_shape("near_identical_rankings", min_runs, max_runs, min_features,
                        max_features, "proper" if ties == "any" else ties)
    if shape.min_runs < 2:
        raise InvalidArgument(f"min_runs: near_identical_rankings needs at least 2 runs (one "
                              f"differs from the others); got {min_runs}")
    config = _rank_configuration(draw, shape)
    row = _arranged(draw, config.patterns[0])
    d = config.n_features
    f = draw(st.integers(0, d - 1))
    g = draw(st.sampled_from([x for x in range(d) if row[x] != row[f]]))
    other = row.copy()
    other[[f, g]] = row[[g, f]]
    i = draw(st.integers(0, config.n_runs - 1))
    R = np.vstack([row] * config.n_runs)
    R[i] = other
    return R
