"""The ranking family from R: ``stability(R, measure = "spearman")`` with a numeric
matrix of ranks (runs in rows, features in columns, rank 1 the most important feature).

The R side checks the matrix (numbers, ranks in 1..d, positions counted from 1 in its
messages) and calls :func:`ranking_value` through :func:`propstab.r._frontend.invoke`.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

import numpy as np

from ..measures._stability import stability
from .._utils.checks import fail
from .._utils.exceptions import InvalidParameterError
from ..registry._registry import get_measure, list_measures

__all__ = ["ranking_measures", "ranking_value"]


def ranking_measures() -> list:
    """The names and aliases of the registered measures that read rankings.

    Examples
    --------
    >>> from propstab.r._rankings import ranking_measures
    >>> {"spearman", "kendall", "canberra", "top_k"} <= set(ranking_measures())
    True
    """
    return sorted(
        key for m in list_measures() if m.input == "ranking" for key in (m.name, *m.aliases)
    )


def ranking_value(measure: str, ranks, *, options: Optional[Mapping[str, Any]] = None) -> float:
    """A ranking measure's value on an M x d matrix of ranks written in R.

    Parameters
    ----------
    measure : str
        A registered measure that reads rankings (:func:`ranking_measures`).
    ranks : M x d array of numbers
        Run i's rank of each feature, 1 the most important; NA (NaN) where a run does
        not rank a feature (a partial ranking).
    options : mapping, optional
        The measure's options, dotted R names allowed (``k``); whole doubles (R's
        ``k = 2``) become integers.

    Returns
    -------
    float

    Examples
    --------
    >>> from propstab.r._rankings import ranking_value
    >>> R = [[1, 2, 3, 4], [2, 1, 3, 4], [1, 3, 2, 4]]
    >>> round(ranking_value("spearman", R), 6)
    0.666667
    >>> round(ranking_value("top_k", R, options={"k": 2.0}), 6)
    0.333333
    >>> ranking_value("jaccard", R)
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: measure: 'jaccard' reads feature sets (a list of selected
    features or a 0/1 matrix), not ranks; the measures of ranks: canberra, kendall, spearman,
    top_k...
    """
    info = get_measure(measure)
    if info.input != "ranking":
        fail(
            f"measure: {info.name!r} reads feature sets (a list of selected "
            f"features or a 0/1 matrix), not ranks; the measures of ranks: "
            f"{', '.join(ranking_measures())}"
        )
    opts = {}
    for key, value in dict(options or {}).items():
        if value is None:
            continue
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        opts[key.replace(".", "_")] = value
    try:
        return stability(np.asarray(ranks, dtype=np.float64), info.name, **opts)
    except InvalidParameterError as exc:
        raise exc.renamed({"Z": "features"}) from None
