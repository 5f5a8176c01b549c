"""Strategies for rank matrices (the ranking family) and their null configurations."""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Tuple

import numpy as np

from .._utils.checks import check_int_range, fail, is_one_of
from ._base import InvalidArgument, integers, memoised, public, run_feature_bounds, sampled, st


# ---------------------------------------------------------------- rank matrices (rankings)

#: The ``ties`` argument of the rank-matrix strategies: ``"any"`` (every weak order, runs
#: ranking all features equal included), ``"proper"`` (no run ranks all features equal:
#: the domain of FULLY_DEFINED for rankings) or ``"none"`` (permutations of 1..d only).
TIES = ("any", "proper", "none")


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
        fail(
            f"group_sizes: must be a sequence of positive integers; got "
            f"{type(group_sizes).__name__} {group_sizes!r}",
            TypeError,
        )
    group_sizes = [
        check_int_range("group_sizes", t, minimum=1, owner="midranks_of_pattern")
        for t in group_sizes
    ]
    if not group_sizes:
        fail("group_sizes: must list at least one tie group; got []")
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
    min_runs, max_runs, min_features, max_features = run_feature_bounds(
        owner, min_runs, max_runs, min_features, max_features, least_features=2
    )
    if not is_one_of(ties, TIES):
        raise InvalidArgument(
            f"ties: must be one of {', '.join(map(repr, TIES))} for " f"{owner}; got {ties!r}"
        )
    return _RankShape(min_runs, max_runs, min_features, max_features, ties)


@memoised
def _links(n: int):
    return st.lists(st.booleans(), min_size=n, max_size=n)


@memoised
def _permutations(n: int):
    return st.permutations(range(n))


def _pattern(draw, d: int, ties: str) -> Tuple[float, ...]:
    """A tie pattern: whether each position ties with the next (False shrinks first: no
    ties); ``"proper"`` forbids one group of all d features."""
    if ties == "none":
        return midranks_of_pattern([1] * d)
    links = draw(_links(d - 1))
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
    order = draw(_permutations(len(pattern)))
    row = np.empty(len(pattern))
    row[list(order)] = pattern
    return row


def _rank_configuration(draw, shape: _RankShape) -> RankConfiguration:
    M = draw(integers(shape.min_runs, shape.max_runs))
    d = draw(integers(shape.min_features, shape.max_features))
    return RankConfiguration(M, d, tuple(_pattern(draw, d, shape.ties) for _ in range(M)))


@public
def rank_null_configurations(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, ties="proper"
):
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
    shape = _rank_shape(
        "rank_null_configurations", min_runs, max_runs, min_features, max_features, ties
    )
    return _rank_configuration(draw, shape)


@public
def rank_matrices(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, ties="any"
):
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


@public
def rank_matrix_pairs(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, ties="any"
):
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
    shape = _rank_shape("rank_matrix_pairs", min_runs, max_runs, min_features, max_features, ties)
    config = _rank_configuration(draw, shape)
    first = np.vstack([_arranged(draw, p) for p in config.patterns])
    second = np.vstack([_arranged(draw, p) for p in config.patterns])
    return first, second


@public
def identical_rankings(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, ties="any"
):
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
    shape = _rank_shape("identical_rankings", min_runs, max_runs, min_features, max_features, ties)
    config = _rank_configuration(draw, shape)
    row = _arranged(draw, config.patterns[0])
    return np.vstack([row] * config.n_runs)


@public
def near_identical_rankings(
    draw, *, min_runs=2, max_runs=None, min_features=2, max_features=None, ties="proper"
):
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
    shape = _rank_shape(
        "near_identical_rankings",
        min_runs,
        max_runs,
        min_features,
        max_features,
        "proper" if ties == "any" else ties,
    )
    if shape.min_runs < 2:
        raise InvalidArgument(
            f"min_runs: near_identical_rankings needs at least 2 runs (one "
            f"differs from the others); got {min_runs}"
        )
    config = _rank_configuration(draw, shape)
    row = _arranged(draw, config.patterns[0])
    d = config.n_features
    f = draw(integers(0, d - 1))
    g = draw(sampled(tuple(x for x in range(d) if row[x] != row[f])))
    other = row.copy()
    other[[f, g]] = row[[g, f]]
    i = draw(integers(0, config.n_runs - 1))
    R = np.vstack([row] * config.n_runs)
    R[i] = other
    return R
