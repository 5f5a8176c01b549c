"""Strategies for selection matrices, pairs of them and configurations of the null model."""
from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import NamedTuple, Tuple

import numpy as np

from .._utils.checks import check_int_range, fail, is_one_of
from ._base import (
    InvalidArgument,
    int_lists,
    integers,
    invalid,
    memoised,
    public,
    run_feature_bounds,
    sampled,
    st,
)


SUBSET_SIZES = ("any", "proper", "constant", "proper_constant")


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
    propstab.InvalidParameterError: rows: run 0 selects the index 3, outside 0..2 (0-based, n_features = 3)
    """
    d = check_int_range("n_features", n_features, minimum=1, owner="matrix_from_rows")
    if isinstance(base, bool) or not isinstance(base, numbers.Integral) or base not in (0, 1):
        fail(f"base: must be 0 or 1; got {type(base).__name__} {base!r}")
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        fail(
            f"rows: must be a sequence of runs, each a sequence of feature "
            f"indices; got {type(rows).__name__} {rows!r}",
            TypeError,
        )
    rows = list(rows)
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            fail(
                f"rows: run {i} must be a sequence of feature indices; got "
                f"{type(row).__name__} {row!r}",
                TypeError,
            )
    Z = np.zeros((len(rows), d), dtype=bool)
    for i, row in enumerate(rows):  # one assignment per run
        index = np.asarray(list(row))
        if index.size == 0:
            continue
        if index.dtype.kind not in "iu":
            fail(f"rows: run {i} must list integer feature indices; got {row!r}", TypeError)
        index = index - base
        outside = (index < 0) | (index >= d)
        if outside.any():
            fail(
                f"rows: run {i} selects the index {index[outside][0] + base}, "
                f"outside {base}..{base + d - 1} ({base}-based, n_features = {d})"
            )
        Z[i, index] = True
    return Z


def _drawn_matrix(rows, d: int) -> np.ndarray:
    """:func:`matrix_from_rows` for rows the strategies drew (lists of distinct indices in
    0..d-1, valid by construction): the same matrix, without re-checking every example."""
    Z = np.zeros((len(rows), d), dtype=bool)
    for i, row in enumerate(rows):  # one assignment per run
        if row:
            Z[i, row] = True
    return Z


class _Shape(NamedTuple):
    min_runs: int
    max_runs: int
    min_features: int
    max_features: int
    sizes: object  # one of SUBSET_SIZES or an int


def _shape(
    owner, min_runs, max_runs, min_features, max_features, subset_sizes, *, need_proper=False
) -> _Shape:
    """Validate the common arguments; InvalidArgument on an impossible combination."""
    min_runs, max_runs, min_features, max_features = run_feature_bounds(
        owner, min_runs, max_runs, min_features, max_features
    )
    if isinstance(subset_sizes, numbers.Integral) and not isinstance(subset_sizes, bool):
        k = invalid(
            check_int_range,
            "subset_sizes",
            subset_sizes,
            minimum=0,
            maximum=max_features,
            owner=owner,
        )
        if need_proper and not 1 <= k <= max_features - 1:
            raise InvalidArgument(
                f"subset_sizes: {owner} needs subsets of size 1..d-1, "
                f"impossible with k = {k} and max_features = {max_features}"
            )
        return _Shape(min_runs, max_runs, max(min_features, k + int(need_proper)), max_features, k)
    if not is_one_of(subset_sizes, SUBSET_SIZES):
        allowed = ", ".join(map(repr, SUBSET_SIZES))
        raise InvalidArgument(
            f"subset_sizes: must be an int or one of {allowed} for {owner}; "
            f"got {subset_sizes!r}"
        )
    if need_proper and subset_sizes == "constant":
        subset_sizes = "proper_constant"
    if subset_sizes.startswith("proper"):
        if max_features < 2:
            raise InvalidArgument(
                f"subset_sizes: {subset_sizes!r} needs d >= 2 for {owner}; "
                f"got max_features = {max_features}"
            )
        min_features = max(min_features, 2)
    return _Shape(min_runs, max_runs, min_features, max_features, subset_sizes)


def _row_sizes(draw, shape: _Shape, M: int, d: int) -> Tuple[int, ...]:
    s = shape.sizes
    if isinstance(s, int):
        return (s,) * M
    lo, hi = (1, d - 1) if s.startswith("proper") else (0, d)
    if s.endswith("constant"):
        return (draw(integers(lo, hi)),) * M
    return tuple(draw(int_lists(lo, hi, M)))


def _subset(draw, d: int, k: int) -> list:
    return draw(int_lists(0, d - 1, k, True))


def _configuration(draw, shape: _Shape) -> NullConfiguration:
    M = draw(integers(shape.min_runs, shape.max_runs))
    d = draw(integers(shape.min_features, shape.max_features))
    return NullConfiguration(M, d, _row_sizes(draw, shape, M, d))


@memoised
@st.composite
def _configurations(draw, shape: _Shape) -> NullConfiguration:
    return _configuration(draw, shape)


@public
def null_configurations(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, subset_sizes="proper"
):
    """Configurations ``(M, d, (k_1, ..., k_M))`` of the null model :math:`H_0`.

    Thesis Definition 2: under :math:`H_0` run i draws a uniformly random subset of size
    :math:`k_i` (the symbols are defined in the :doc:`/notation`).

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
    propstab.auditing.check_correction_for_chance : Checks the null expectation over them.

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
    shape = _shape(
        "null_configurations", min_runs, max_runs, min_features, max_features, subset_sizes
    )
    return _configuration(draw, shape)


@public
def selection_matrices(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, subset_sizes="any"
):
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
    shape = _shape(
        "selection_matrices", min_runs, max_runs, min_features, max_features, subset_sizes
    )
    M, d, sizes = draw(_configurations(shape))
    return _drawn_matrix([_subset(draw, d, k) for k in sizes], d)


@public
def matrix_pairs(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, subset_sizes="any"
):
    """Pairs ``(Z1, Z2)`` with the same M, d and the same row sizes :math:`k_1, \\dots, k_M`.

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
    shape = _shape("matrix_pairs", min_runs, max_runs, min_features, max_features, subset_sizes)
    M, d, sizes = draw(_configurations(shape))
    first = _drawn_matrix([_subset(draw, d, k) for k in sizes], d)
    second = _drawn_matrix([_subset(draw, d, k) for k in sizes], d)
    return first, second


@public
def identical_rows(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, subset_sizes="any"
):
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
    shape = _shape("identical_rows", min_runs, max_runs, min_features, max_features, subset_sizes)
    M, d, sizes = draw(_configurations(shape))
    return _drawn_matrix([_subset(draw, d, sizes[0])] * M, d)


@public
def near_identical_rows(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, subset_sizes="any"
):
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
    shape = _shape(
        "near_identical_rows", min_runs, max_runs, min_features, max_features, subset_sizes
    )
    if shape.min_runs < 2:
        raise InvalidArgument(
            f"min_runs: near_identical_rows needs at least 2 runs (one "
            f"differs from the others); got {min_runs}"
        )
    if shape.sizes == "constant" or isinstance(shape.sizes, int):
        shape = _shape(
            "near_identical_rows",
            min_runs,
            max_runs,
            min_features,
            max_features,
            subset_sizes,
            need_proper=True,
        )
    M, d, sizes = draw(_configurations(shape))
    k = sizes[0]
    base = _subset(draw, d, k)
    rest = [f for f in range(d) if f not in base]
    fixed = isinstance(shape.sizes, int) or shape.sizes.endswith("constant")
    lo, hi = (1, d - 1) if fixed or shape.sizes == "proper" else (0, d)
    i = draw(integers(0, M - 1))
    rows = [list(base) for _ in range(M)]
    moves = [
        m
        for m, ok in (
            ("swap", 0 < k < d),
            ("add", not fixed and k + 1 <= hi),
            ("remove", not fixed and k - 1 >= lo),
        )
        if ok
    ]
    move = draw(sampled(tuple(moves)))
    if move in ("swap", "remove"):
        rows[i].remove(draw(sampled(tuple(base))))
    if move in ("swap", "add"):
        rows[i].append(draw(sampled(tuple(rest))))
    return _drawn_matrix(rows, d)
