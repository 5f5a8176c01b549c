"""Input converter: rank matrices (the ranking family), ranks or scores ->
:class:`~propstab.Rankings` (:func:`as_rankings`), and :func:`as_input`, the converter a
measure's input kind chooses.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Optional

import numpy as np

from .._utils.checks import (
    as_real_array,
    check_feature_names,
    check_int_range,
    check_n_features,
    fail,
)
from .convert_selection import selection_of

__all__ = [
    "INPUT_KINDS",
    "RANKING_KINDS",
    "as_input",
    "as_named_input",
    "as_rankings",
    "rankings_of",
]

RANKING_KINDS = ("ranks", "scores")
INPUT_KINDS = ("selection", "ranking")


def _rank_prefix(argument: str, owner: Optional[str]) -> str:
    """The start of a rank-matrix message: the argument the user passed and, from a
    ranking measure, that the measure takes a rank matrix."""
    if owner is None:
        return f"{argument}: "
    return (
        f"{argument}: the measure {owner!r} takes a rank matrix (runs x features, rank 1 "
        f"the most important feature of a run); "
    )


def _numeric_rows(R, kind: str, feature_names, argument: str = "R", owner: Optional[str] = None):
    """R as a float64 M x d array with its feature names (a DataFrame's columns); the
    messages name ``argument`` (the user's name for R) and the measure ``owner``."""
    from scipy import sparse

    at = _rank_prefix(argument, owner)
    names = None
    if type(R).__module__.startswith("pandas") and hasattr(R, "columns"):
        if feature_names is not None:
            fail(
                "feature_names: not accepted with a DataFrame, whose columns name the " "features",
                TypeError,
            )
        names = check_feature_names(list(R.columns), None)
        R = R.to_numpy()
    elif sparse.issparse(R):
        if kind == "ranks":
            fail(
                f"{at}a sparse matrix cannot hold ranks (its zeros are not ranks); pass a "
                "dense array, or scores with kind='scores'",
                TypeError,
            )
        R = R.toarray()
    if isinstance(R, (str, bytes)) or R is None or isinstance(R, Mapping):
        fail(
            f"{at}expected a rank matrix (2-D array of ranks or scores, runs x features); "
            f"got {type(R).__name__}",
            TypeError,
        )
    try:
        probe = np.asarray(R)
    except (TypeError, ValueError):  # ragged: as_real_array says so below
        probe = None
    if probe is not None and probe.dtype == bool:
        fail(
            f"{at}entries must be numbers ({kind}); got booleans (a selection matrix is not "
            f"a ranking: use a set measure)",
            TypeError,
        )
    arr = as_real_array(argument, R, f"numbers ({kind})")
    if arr.ndim != 2:
        fail(
            f"{at}must be 2-dimensional (runs x features); got ndim={arr.ndim} with shape "
            f"{arr.shape}"
        )
    M, d = arr.shape
    if M < 2:
        fail(f"{at}a rank matrix needs at least 2 runs (rows); got {M} run(s)")
    if d < 2:
        fail(f"{at}a rank matrix needs at least 2 features (columns) to rank; got {d}")
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
        rule = (
            "ranks must be numbers in 1..d"
            if not (1 <= arr[i, j] <= d)
            else "ranks must be whole or half numbers (as every tie rule gives them)"
        )
        hint = (
            " (a 0/1 selection matrix is not a ranking: use a set measure, or "
            "as_rankings(W, kind='scores') for weights)"
            if arr[i, j] in (0.0,)
            else " (for importances or weights pass kind='scores'; --scores on the "
            "command line)"
        )
        fail(f"{at}{rule} (d = {d}); got {arr[i, j]!r} at run {i}, feature {col!r}{hint}")


def as_rankings(
    R, *, kind: str = "ranks", top_k: Optional[int] = None, n_features=None, feature_names=None
):
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
    propstab.InvalidParameterError: R: ranks must be numbers in 1..d (d = 3); got 0.0 at run
    0, feature 0 (a 0/1 selection matrix is not a ranking: use a set measure, or as_rankings(W,
    kind='scores') for weights)
    """
    return rankings_of(
        R, kind=kind, top_k=top_k, n_features=n_features, feature_names=feature_names
    )


def rankings_of(
    R,
    *,
    kind: str = "ranks",
    top_k: Optional[int] = None,
    n_features=None,
    feature_names=None,
    argument: str = "R",
    owner: Optional[str] = None,
):
    """:func:`as_rankings`, its messages naming ``argument`` (the name the caller's user
    gave R: ``Z`` in ``stability(Z, "spearman")``) and the measure ``owner``."""
    from .rankings import Rankings, midranks, min_ranks

    at = _rank_prefix(argument, owner)
    if not isinstance(kind, str) or kind not in RANKING_KINDS:
        fail(
            f"kind: must be one of {', '.join(map(repr, RANKING_KINDS))}; got {kind!r}",
            TypeError if not isinstance(kind, str) else ValueError,
        )
    if isinstance(R, Rankings):
        if feature_names is not None:
            fail("feature_names: not accepted with a Rankings, which has its own", TypeError)
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
                fail(
                    f"{at}scores must be finite numbers (NaN: no score); got {arr[i, j]!r} "
                    f"at run {i}, feature {names[j] if names is not None else j!r}"
                )
            order = np.where(np.isnan(arr), np.inf, -arr)
            scores = arr
            scores.setflags(write=False)
        rk = Rankings(midranks(order), feature_names=names, scores=scores)
    if n_features is not None and check_n_features(n_features) != rk.n_features:
        fail(f"n_features: {n_features} does not match {argument}'s {rk.n_features} " f"features")
    if top_k is not None:
        k = check_int_range("top_k", top_k, minimum=1, maximum=rk.n_features)
        kept = min_ranks(rk.toarray()) <= k
        rk = Rankings(
            midranks(np.where(kept, rk.toarray(), np.inf)),
            feature_names=rk.feature_names,
            scores=rk.scores,
        )
    return rk


def as_input(kind: str, X, *, n_features=None, feature_names=None, argument=None, owner=None):
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
    propstab.InvalidParameterError: Z: the measure 'spearman' takes a rank matrix (runs x
    features, rank 1 the most important feature of a run); ranks must be numbers in 1..d (d = 2); got 0.0 at
    run 0, feature 1 (a 0/1 selection matrix is not a ranking: use a set measure, or
    as_rankings(W, kind='scores') for weights)
    """
    if kind == "ranking":
        return rankings_of(
            X,
            n_features=n_features,
            feature_names=feature_names,
            argument=argument or "R",
            owner=owner,
        )
    return selection_of(
        X, n_features=n_features, feature_names=feature_names, argument=argument or "Z"
    )


def as_named_input(kind: str, X, name: str, **kwargs):
    """:func:`as_input` for an argument not called ``Z`` (``Z1``, ``matrices['a']``): the
    same rules, the messages naming ``name``."""
    return as_input(kind, X, argument=name, **kwargs)
