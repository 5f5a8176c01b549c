"""The one entry point that dispatches to a registered measure."""
from __future__ import annotations

from .._data.convert_rankings import as_input
from .._utils.params import N_FEATURES, Checked, validate_params
from ..registry._registry import lookup
from ._sampled_pairs import PAIRS, pair_sample, sampled_pairs_of

#: a registered measure's name or alias
MEASURE = Checked(
    lambda name, value, function=None: lookup(value, argument=name, function=function),
    "a registered measure's name or alias",
    invalid=("no_such_measure", "Jaccard", 5, None, ["jaccard"]),
)

#: the same rule, for a function that passes the measure on: its value is the registered
#: name (an alias resolved)
MEASURE_NAME = Checked(
    lambda name, value, function=None: lookup(value, argument=name, function=function).name,
    MEASURE.what,
    invalid=MEASURE.invalid,
)

__all__ = ["stability"]


@validate_params({"measure": MEASURE, "n_features": [N_FEATURES, None], "pairs": PAIRS})
def stability(
    Z,
    /,
    measure: str = "nogueira",
    *,
    n_features=None,
    feature_names=None,
    pairs="auto",
    **options,
) -> float:
    """The stability of the selections in ``Z`` under a registered measure.

    Parameters
    ----------
    Z : array-like, DataFrame, scipy.sparse matrix or sequence of collections
        The selection matrix (M runs x d features), in any form accepted by
        :func:`propstab.as_selection`.
    measure : str, default "nogueira"
        A registered name or alias (see :func:`propstab.list_measures`).
    n_features : int, optional
        d, required when ``Z`` is a sequence of index collections.
    feature_names : sequence, optional
        Names of the d features (runs may then list names).
    pairs : int, "all" or "auto", default "auto"
        For a pairwise measure without ``correction_for_chance``: an integer B (at most
        10^8) gives the mean score over B ordered pairs of runs drawn uniformly with
        replacement (seeded by the option ``random_state``, default 0; its standard error
        comes from :func:`propstab.estimate` with the same ``pairs``); ``"all"``: every
        pair; ``"auto"``: 10^5 sampled pairs with a :class:`~propstab.SampledPairsWarning`
        above 5 x 10^8 pairs of runs (M > 31,623), else every pair.
    **options
        The measure's own options, e.g. ``penalty=`` for ``"davis"`` or
        ``correction_for_chance="exact"``.

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        Invalid ``Z``, an unknown measure, or an option the measure does not take.

    Warns
    -----
    UndefinedMeasureWarning
        When the measure is undefined on ``Z`` (the result is then NaN).

    See Also
    --------
    propstab.estimate : The value with its variance and a confidence interval.
    propstab.list_measures : The registered measures and their claims.
    propstab.as_selection : The accepted forms of ``Z``.

    References
    ----------
    Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature selection
    algorithms. JMLR 18(174), 1-54 (the default measure, Definition 3 of the thesis).
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Tables 3.1 and 3.2 (the other measures).

    Examples
    --------
    >>> from propstab import stability
    >>> stability([[0, 1], [1, 2], [0, 2]], n_features=4)
    0.0
    >>> stability([[0], [1]], n_features=2)          # the minimum -1/(M-1)
    -1.0
    >>> stability([[1, 1, 0], [1, 0, 1]], measure="dice")
    0.5
    """
    info = measure  # the registry's entry (the declared rule's value)
    data = as_input(
        info.input,
        Z,
        n_features=n_features,
        feature_names=feature_names,
        argument="Z",
        owner=info.name,
    )
    sampled = sampled_pairs_of(
        info.kernel,
        {o: v for o, v in options.items() if o != "random_state"},
        pairs,
        data.n_runs,
        measure=info.name,
        function="stability",
    )
    if sampled is not None:
        return pair_sample(
            data, info.kernel, sampled, options.get("random_state", 0), measure=info.name
        ).statistic
    return info.function(data, **options)
