# Long module: every entry point the R package calls (one function per R function, with its
# argument translation), kept in one place so that the R side has one door into Python.
"""The Python half of propstab's R package (``rpackage/`` in the repository).

The R package ``propstab`` calls these functions through reticulate (R -> Python, the
other direction of :mod:`propstab.r`); nothing here imports rpy2 or starts R. The R
side validates its arguments, flattens stabm's ``features`` and calls :func:`invoke`
with the name of one entry point below:

- :func:`runs_selection`: stabm's ``features`` as run sizes and concatenated 1-based
  indices -> :class:`~propstab.Selection` (the one conversion of R input);
- :func:`stabm_functions` and :func:`stabm_value`: stabm's functions, their R
  arguments translated from the registry's ``r_reference`` entries;
- :func:`measure_value`: any registered measure, options given with R names
  (``correction.for.chance``) or propstab's;
- :func:`estimate_fields`, :func:`interval`, :func:`one_sample`, :func:`two_sample`:
  inference, as plain fields the R side turns into S3 and ``htest`` objects;
- :func:`audit_function`: the axiom audit of an R function;
- :func:`measures_table`, :func:`differences`: the registry and stabm's documented
  defects as tables.

:func:`invoke` returns the value, the warnings and the error as data (never raises), so
that R signals R conditions carrying propstab's message instead of a Python traceback.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import re
import traceback
import warnings
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

import numpy as np

from .._utils.checks import fail
from .._utils.exceptions import InvalidParameterError, UndefinedMeasureWarning
from ..registry._registry import MeasureInfo, get_measure, list_measures
from .._data.convert_selection import as_selection
from .._utils.checks import (
    check_choice,
    check_confidence_level,
    check_n_features,
    check_r_indices,
    check_real,
)
from ..axioms import Axiom
from ._audit_frontend import audit_function
from ._rankings import ranking_measures, ranking_value

__all__ = [
    "StabmFunction",
    "audit_function",
    "differences",
    "estimate_fields",
    "estimate_interval",
    "interval",
    "invoke",
    "measure_value",
    "measures_table",
    "one_sample",
    "run_entry",
    "runs_selection",
    "stabm_functions",
    "stabm_value",
    "two_sample",
]

#: R's names of the test alternatives -> propstab's.
ALTERNATIVES = {"two.sided": "two-sided", "less": "less", "greater": "greater"}
#: propstab's argument names in error messages -> the R package's.
_R_NAMES = {
    "Z": "features",
    "n_features": "p",
    "similarity": "sim.mat",
    "correction_for_chance": "correction.for.chance",
    "n_simulations": "N",
}
#: The R names that depend on the entry point: confint()'s level, n.resamples and seed,
#: the tests' conf.level and seed.
_R_ENTRY_NAMES = {
    "estimate_interval": {
        "confidence_level": "level",
        "n_resamples": "n.resamples",
        "random_state": "seed",
    },
    "one_sample": {"confidence_level": "conf.level"},
    "two_sample": {"confidence_level": "conf.level", "random_state": "seed"},
    "interval": {"confidence_level": "conf.level"},
}
_DENSE_CELLS = 1_000_000  # up to this many runs x features: a dense selection matrix


# ---------------------------------------------------------------- R input


def runs_selection(sizes, indices, n_features):
    """A :class:`~propstab.Selection` from stabm's ``features`` flattened by R.

    Parameters
    ----------
    sizes : 1-D array of int, length M
        ``lengths(features)``: the number of features selected in each run.
    indices : 1-D array of numbers, length ``sum(sizes)``
        ``unlist(features)``: the selected features' 1-based indices, run after run.
    n_features : int
        d (stabm's ``p``, or ``ncol(sim.mat)``).

    Returns
    -------
    Selection

    Raises
    ------
    ValueError
        ``sizes`` does not add up to the number of indices, an index is not a whole
        number in 1..d (the message names the run, counted from 1), or the selection
        is invalid (e.g. fewer than 2 runs).

    Examples
    --------
    >>> from propstab.r._frontend import runs_selection
    >>> sel = runs_selection([2, 1, 0], [1, 3, 2], 3)     # list(c(1, 3), 2, integer(0))
    >>> sel.toarray().astype(int).tolist()
    [[1, 0, 1], [0, 1, 0], [0, 0, 0]]
    >>> runs_selection([1, 1], [1, 4], 3)
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: features: run 2 contains the feature index 4; R feature
    indices are 1-based, ...
    """
    from scipy import sparse

    sizes = np.asarray(sizes, dtype=np.int64).ravel()
    flat = np.asarray(indices, dtype=np.float64).ravel()
    if np.any(sizes < 0) or int(sizes.sum()) != flat.size:
        fail(
            f"features: the run sizes ({sizes.tolist()[:10]}) must be "
            f"non-negative and add up to the {flat.size} listed indices"
        )
    d = check_n_features(n_features)
    indptr = np.concatenate([[0], np.cumsum(sizes)])
    bad = ~np.isfinite(flat) | (flat != np.round(flat)) | (flat < 1) | (flat > d)
    if bad.any():
        run = int(np.searchsorted(indptr, np.argmax(bad), side="right")) - 1
        check_r_indices(
            flat[indptr[run] : indptr[run + 1]], run=run + 1, n_features=d, argument="features"
        )
    columns = flat.astype(np.int64) - 1
    if sizes.size * d <= _DENSE_CELLS:  # small: a dense matrix is the cheapest call
        Z = np.zeros((sizes.size, d), dtype=bool)
        Z[np.repeat(np.arange(sizes.size), sizes), columns] = True
        if int(np.count_nonzero(Z)) == flat.size:  # else a repeated feature: see below
            return as_selection(Z, n_features=d)
    Z = sparse.csr_matrix(
        (np.ones(flat.size, dtype=np.int8), columns, indptr), shape=(sizes.size, d)
    )
    return as_selection(Z, n_features=d)


def _r_names(info: MeasureInfo) -> Dict[str, str]:
    """propstab option -> R argument, from the registry's R reference."""
    ref = info.r_reference
    return dict(ref.arguments) if ref is not None else {}


def _options_from_r(info: MeasureInfo, r_options: Mapping[str, Any]) -> dict:
    """Options written in R (``correction.for.chance``, ``N``, whole numbers as doubles)
    -> propstab's names and values, through the measure's ``r_reference``; other names
    with dots become underscores. R's NULL (None) means the default."""
    to_option = {r: option for option, r in _r_names(info).items()}
    values = {}
    if info.r_reference is not None:
        values = {
            (option, r_value): value
            for (option, value), r_value in info.r_reference.values.items()
        }
    params = {p.name: p for p in info.parameters}
    out = {}
    for key, value in r_options.items():
        if value is None:
            continue
        option = to_option.get(key, key.replace(".", "_"))
        try:
            value = values.get((option, value), value)
        except TypeError:  # unhashable (a matrix)
            pass
        default = params[option].default if option in params else None
        if (
            isinstance(default, int)
            and not isinstance(default, bool)
            and isinstance(value, float)
            and value.is_integer()
        ):
            value = int(value)  # R's 1e4 is a double
        out[option] = value
    return out


# ---------------------------------------------------------------- stabm's functions


@dataclasses.dataclass(frozen=True)
class StabmFunction:
    """One of stabm's ``stability*`` functions as propstab computes it.

    Attributes
    ----------
    function : str
        stabm's name, e.g. ``"stabilityJaccard"``.
    measure : str
        The registered propstab measure.
    arguments : mapping of str to str
        R argument -> propstab option (from the registry's ``r_reference``).
    similarity : bool
        True when the function takes ``sim.mat`` (and no ``p``).
    """

    function: str
    measure: str
    arguments: Mapping[str, str]
    similarity: bool


@functools.lru_cache(maxsize=None)  # the registry is fixed once imported
def stabm_functions() -> Dict[str, StabmFunction]:
    """stabm's functions that propstab computes, generated from the registry.

    Every registered measure whose ``r_reference`` is a stabm function gives one entry.

    Examples
    --------
    >>> from propstab.r._frontend import stabm_functions
    >>> spec = stabm_functions()["stabilityYu"]
    >>> spec.measure, dict(spec.arguments)["correction.for.chance"]
    ('yu', 'correction_for_chance')
    >>> len(stabm_functions())
    20
    """
    out = {}
    for info in list_measures():
        ref = info.r_reference
        if ref is None or ref.package != "stabm":
            continue
        out[ref.function] = StabmFunction(
            function=ref.function,
            measure=info.name,
            arguments={r: option for option, r in ref.arguments.items()},
            similarity="similarity" in info.parameter_names,
        )
    return out


def _stabm_spec(function: str) -> StabmFunction:
    table = stabm_functions()
    if function not in table:
        fail(
            f"fun: {function!r} is not a stabm function propstab computes; "
            f"known: {', '.join(sorted(table))}"
        )
    return table[function]


def _stabm_correction(spec: StabmFunction, info: MeasureInfo, options: dict) -> None:
    """stabm's ``correction.for.chance`` in propstab: ``"estimate"`` (stabm's simulation of
    the null expectation) is computed exactly where propstab has the exact expectation but
    no simulation; stabm's ``N`` only matters for ``"estimate"``."""
    param = next((p for p in info.parameters if p.name == "correction_for_chance"), None)
    if param is None:
        return
    value = options.get("correction_for_chance", param.default)
    if value == "estimate" and "estimate" not in param.choices and "exact" in param.choices:
        value = "exact"
    if value not in param.choices:
        fail(
            f"correction.for.chance: {spec.function} in propstab takes "
            f"{' or '.join(map(repr, param.choices))} (propstab has no "
            f"{value!r} correction for {info.name}); got {value!r}"
        )
    options["correction_for_chance"] = value
    if value != "estimate":
        options.pop("n_simulations", None)
        options.pop("random_state", None)


def _pair_values(sel, score, correction: str) -> np.ndarray:
    """The M x M pair scores of a pairwise measure, NaN where a pair is undefined (stabm's
    NA: a zero denominator, or a corrected score whose null expectation is its maximum,
    decided exactly by :func:`propstab.measures.kernels.pair_fractions`)."""
    from ..measures.kernels import pair_fractions

    num, den = pair_fractions(sel, score, correction)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den != 0, num / np.where(den == 0, 1.0, den), np.nan)


def _quiet_value(info: MeasureInfo, sel, options: dict) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        return info.function(sel, **options)


def _imputed(info: MeasureInfo, sel, options: dict, impute_na: float) -> float:
    """The value with stabm's ``impute.na`` (see :func:`stabm_value`): stabm imputes its
    vector of scores before the mean, which for a measure averaged over pairs of runs
    (the pairwise measures, and the adjusted measures of similar features: Yu, Zucknick,
    the intersections) is one score per pair, for the others the one value."""
    from ..measures.adjusted import STABM_ADJUSTED, stabm_pair_scores

    value = _quiet_value(info, sel, options)
    if not math.isnan(value):
        return value  # no pair is undefined: nothing to impute
    score = getattr(info.kernel, "score", None)  # a pairwise measure's pair score
    if score is not None:
        phi = _pair_values(sel, score, options.get("correction_for_chance", "none"))
        values = phi[np.triu_indices(sel.n_runs, 1)]
    elif info.name in STABM_ADJUSTED:
        defaults = {p.name: p.default for p in info.parameters}
        with warnings.catch_warnings():  # the value's warnings came with it
            warnings.simplefilter("ignore")
            values = stabm_pair_scores(info.name, sel, **{**defaults, **options})
    else:
        return float(impute_na)
    return float(np.mean(np.where(np.isnan(values), impute_na, values)))


def stabm_value(
    fun: str,
    sizes,
    indices,
    *,
    p=None,
    sim_mat=None,
    impute_na=None,
    random_state=None,
    options=None,
) -> float:
    """stabm's function ``fun(features, ...)`` computed by propstab.

    Parameters
    ----------
    fun : str
        stabm's name, e.g. ``"stabilityNogueira"`` (see :func:`stabm_functions`).
    sizes, indices
        stabm's ``features`` flattened (see :func:`runs_selection`).
    p : int, optional
        stabm's ``p``; for ``stabilityJaccard``, ``Dice``, ``Ochiai`` and ``Novovicova``
        without correction it may be omitted (their values do not depend on it).
    sim_mat : d x d array or scipy.sparse matrix, optional
        stabm's ``sim.mat``, for the functions that take it (d is its size).
    impute_na : float, optional
        stabm's ``impute.na``: for a measure averaged over pairs of runs (the pairwise
        measures, and Yu's, Zucknick's and the adjusted intersections) every undefined
        pair score becomes ``impute_na`` before the mean, as in stabm; for any other
        measure an undefined value becomes ``impute_na``.
    random_state : int, optional
        Seed of the simulation for ``correction.for.chance = "estimate"`` (drawn from R's
        RNG by the R side).
    options : dict, optional
        The remaining R arguments by their R names (``correction.for.chance``, ``N``,
        ``penalty``, ``threshold``).

    Returns
    -------
    float
        NaN where the measure is undefined (with an UndefinedMeasureWarning) unless
        ``impute_na`` is given.

    Raises
    ------
    ValueError, TypeError
        Invalid input; messages name the R arguments (``features``, ``p``, ``sim.mat``).

    Notes
    -----
    ``correction.for.chance = "estimate"`` (stabm's simulation of the null expectation)
    is computed exactly for the measures where propstab has the exact expectation and no
    simulation; ``N`` is passed on only with ``"estimate"``.

    Examples
    --------
    >>> from propstab.r._frontend import stabm_value
    >>> round(stabm_value("stabilityNogueira", [3, 3, 3], [1, 2, 3, 2, 3, 4, 1, 3, 5], p=6), 6)
    0.111111
    >>> stabm_value("stabilityJaccard", [0, 0, 1], [1], impute_na=0.5)   # stabm: per pair
    0.16666666666666666
    >>> round(stabm_value("stabilityZucknick", [0, 0, 2], [1, 2], sim_mat=np.eye(3),
    ...                   impute_na=0.7), 6)                               # (0.7 + 0 + 0) / 3
    0.233333
    """
    spec = _stabm_spec(fun)
    names = {**_R_NAMES, **{option: r for r, option in spec.arguments.items()}}
    try:
        info, sel, opts = _stabm_case(spec, sizes, indices, p, sim_mat, random_state, options)
        if impute_na is not None:
            return _imputed(info, sel, opts, check_real("impute.na", impute_na))
        return info.function(sel, **opts)
    except InvalidParameterError as exc:
        raise exc.renamed(names) from None


def _stabm_case(spec: StabmFunction, sizes, indices, p, sim_mat, random_state, options):
    """The measure, the selection and propstab's options of a call of stabm's function."""
    info = get_measure(spec.measure)
    r_options = dict(options or {})
    if "N" not in spec.arguments:  # no simulation in propstab: "estimate" is exact
        r_options.pop("N", None)
    unknown = sorted(set(r_options) - set(spec.arguments))
    if unknown:
        fail(
            f"{unknown[0]}: {spec.function} has no such argument; its options: "
            f"{', '.join(spec.arguments) or 'none'}",
            TypeError,
        )
    opts = _options_from_r(info, r_options)
    _stabm_correction(spec, info, opts)
    if (
        random_state is not None
        and opts.get("correction_for_chance") == "estimate"
        and "random_state" in info.parameter_names
    ):
        opts["random_state"] = int(random_state)
    if spec.similarity:
        if sim_mat is None:
            fail(
                f"sim.mat: {spec.function} needs the d x d feature similarity " f"matrix; got NULL"
            )
        opts["similarity"] = sim_mat
        n_features = sim_mat.shape[0]
    elif p is not None:
        n_features = p
    elif opts.get("correction_for_chance", "none") != "none":
        fail(
            f"p: the number of features is needed to correct {spec.function} "
            f"for chance; got NULL"
        )
    elif not info.r_reference.needs_p:  # stabm's p = NULL: the value is free of d
        indices, n_features = _relabelled(indices)
    else:
        fail(f"p: {spec.function} needs the number of features; got NULL")
    return info, runs_selection(sizes, indices, n_features), opts


def _relabelled(indices) -> Tuple[np.ndarray, int]:
    """Feature indices relabelled 1..u in their order (u the number of distinct ones),
    with u as the number of features, for a value that depends neither on d nor on the
    features' labels (stabm's ``p = NULL``): memory and time follow the runs, not the
    largest index (``list(c(1, 1e9), c(1, 2))`` is 3 features). Invalid indices (not
    whole numbers >= 1) are left as they are, for :func:`runs_selection`'s message."""
    flat = np.asarray(indices, dtype=np.float64).ravel()
    if flat.size == 0:
        return flat, 1
    if not np.all(np.isfinite(flat) & (flat >= 1) & (flat == np.round(flat))):
        return flat, max(int(np.max(np.where(np.isfinite(flat), flat, 1))), 1)
    labels, inverse = np.unique(flat, return_inverse=True)
    return inverse.ravel() + 1, int(labels.size)


# ---------------------------------------------------------------- any measure


def _selection_and_options(
    measure: str, sizes, indices, n_features, similarity, importances, options, seed=None
) -> Tuple[MeasureInfo, Any, dict]:
    """The measure, the selection and propstab's options of a call from R; ``seed`` (drawn
    from R's RNG by the R side) is the measure's ``random_state`` where it takes one and
    ``options`` gives none."""
    info = get_measure(measure)
    if info.input != "selection":
        fail(
            f"measure: {info.name!r} reads rankings; give a numeric matrix of "
            f"ranks (runs in rows, features in columns, rank 1 the most "
            f"important), e.g. stability(R, measure = {info.name!r})"
        )
    opts = _options_from_r(info, dict(options or {}))
    if similarity is not None:
        if "similarity" not in info.parameter_names:
            fail(
                f"sim.mat: measure {info.name!r} takes no feature similarity; "
                f"measures that do: {', '.join(_takes('similarity'))}"
            )
        opts["similarity"] = similarity
    if importances is not None:
        if "importances" not in info.parameter_names:
            fail(
                f"importances: measure {info.name!r} takes no importances; "
                f"measures that do: {', '.join(_takes('importances'))}"
            )
        opts["importances"] = importances
    if seed is not None and "random_state" in info.parameter_names:
        opts.setdefault("random_state", int(seed))
    return info, runs_selection(sizes, indices, n_features), opts


def _takes(option: str):
    return [m.name for m in list_measures() if option in m.parameter_names]


def measure_value(
    measure: str,
    sizes,
    indices,
    n_features,
    *,
    similarity=None,
    importances=None,
    options=None,
    seed=None,
) -> float:
    """A registered measure's value on stabm-style ``features``.

    ``options`` are the measure's options by propstab's names or R's
    (``correction.for.chance`` and ``N`` through the registry's ``r_reference``, any other
    dotted name with underscores). ``seed`` (drawn from R's RNG by the R side) is the
    measure's ``random_state`` where it takes one and ``options`` gives none.

    Examples
    --------
    >>> from propstab.r._frontend import measure_value
    >>> measure_value("kuncheva", [2, 2], [1, 2, 1, 3], 4)
    0.0
    >>> round(measure_value("jaccard", [2, 2], [1, 2, 1, 3], 4,
    ...                     options={"correction.for.chance": "exact"}), 10)
    -0.0909090909
    >>> measure_value("spearman", [2, 2], [1, 2, 1, 3], 4)
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: measure: 'spearman' reads rankings; give a numeric matrix
    of ranks (runs in rows, features in columns, rank 1 the most important), e.g.
    stability(R, measure = 'spearman')
    """
    info, sel, opts = _selection_and_options(
        measure, sizes, indices, n_features, similarity, importances, options, seed
    )
    return info.function(sel, **opts)


# ---------------------------------------------------------------- inference


def _estimate_dict(est) -> dict:
    from ..inference._estimates import ESTIMAND

    return {
        "statistic": est.statistic,
        "variance": est.variance,
        "standard_error": est.standard_error,
        "n_runs": est.n_runs,
        "n_features": est.n_features,
        "measure": est.measure,
        "method": est.method,
        "variance_source": est.variance_source,
        "variance_note": est.variance_note,
        "range": list(est.range),
        "interpretation": est.interpretation,
        "estimand": ESTIMAND,  # the summaries' line, the same text as Python's and the CLI's
    }


def _check_method(method: str) -> str:
    from ..inference import VARIANCE_METHODS

    return check_choice("method", method, VARIANCE_METHODS)


def estimate_fields(
    measure: str,
    sizes,
    indices,
    n_features,
    *,
    method: str = "auto",
    similarity=None,
    importances=None,
    options=None,
    seed=None,
) -> dict:
    """:func:`propstab.estimate` as plain fields: statistic, variance, standard_error,
    n_runs, n_features, measure, method, interpretation.

    Examples
    --------
    >>> from propstab.r._frontend import estimate_fields
    >>> fields = estimate_fields("nogueira", [2, 2, 2, 2], [1, 2, 1, 2, 1, 3, 1, 2], 4)
    >>> round(fields["statistic"], 4), round(fields["variance"], 4), fields["method"]
    (0.5, 0.0469, 'analytic')
    """
    from ..inference import estimate

    info, sel, opts = _selection_and_options(
        measure, sizes, indices, n_features, similarity, importances, options, seed
    )
    return _estimate_dict(estimate(sel, info.name, method=_check_method(method), **opts))


def interval(
    statistic: float,
    variance: float,
    confidence_level: float = 0.95,
    alternative: str = "two.sided",
    bounds: Tuple[float, float] = (-math.inf, math.inf),
) -> Tuple[float, float]:
    """The Wald confidence interval of an estimate with this variance (thesis Cor. 1):
    ``statistic -/+ z sqrt(variance)``, two-sided with z the (1 + level)/2 quantile of
    N(0, 1), or one-sided (``"greater"``: (low, inf); ``"less"``: (-inf, high)) with z its
    ``level`` quantile, as R's ``htest`` intervals follow the alternative; clipped to
    ``bounds`` (default: not clipped). Python's one Wald interval
    (``propstab.inference.wald_interval``): a variance of 0 warns, a NaN variance gives
    NaN ends.

    Examples
    --------
    >>> from propstab.r._frontend import interval
    >>> [round(x, 4) for x in interval(0.5, 0.0469, 0.9)]
    [0.1438, 0.8562]
    >>> low, high = interval(0.5, 0.0469, 0.95, "greater")
    >>> round(low, 4), high
    (0.1438, inf)
    """
    from ..inference import wald_interval

    level = check_confidence_level(confidence_level)
    check_choice("alternative", alternative, tuple(ALTERNATIVES))
    low, high = wald_interval(
        float(statistic),
        float(variance),
        level,
        ALTERNATIVES[alternative],
        "the variance",
        tuple(bounds),
    )
    return low, high


def estimate_interval(
    measure: str,
    sizes,
    indices,
    n_features,
    *,
    method: str = "auto",
    interval_method: str = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    random_state=0,
    similarity=None,
    importances=None,
    options=None,
    seed=None,
) -> dict:
    """R's ``confint()`` of an estimate: the estimate recomputed from its runs and
    :meth:`propstab.StabilityEstimate.confidence_interval` (the one implementation of
    every interval, clipped to the measure's range), with ``interval_method`` any of its
    ``method`` values; returns ``conf_int`` and ``interval``, what ran in words.

    Examples
    --------
    >>> from propstab.r._frontend import estimate_interval
    >>> out = estimate_interval("nogueira", [2, 2, 2, 2], [1, 2, 1, 2, 1, 3, 1, 2], 4,
    ...                         interval_method="wald", confidence_level=0.9)
    >>> [round(x, 4) for x in out["conf_int"]], out["interval"]
    ([0.1439, 0.8561], 'Wald, thesis Cor. 1')
    """
    from ..inference import DegenerateVarianceWarning, estimate

    level = check_confidence_level(confidence_level)
    info, sel, opts = _selection_and_options(
        measure, sizes, indices, n_features, similarity, importances, options, seed
    )
    with warnings.catch_warnings():  # the estimate's own warnings came with it
        warnings.simplefilter("ignore", DegenerateVarianceWarning)
        est = estimate(sel, info.name, method=_check_method(method), **opts)
    ci = est.confidence_interval(
        level, method=interval_method, n_resamples=n_resamples, random_state=random_state
    )
    return {"conf_int": list(ci), "interval": est.interval_method(interval_method)}


def one_sample(
    measure: str,
    sizes,
    indices,
    n_features,
    *,
    phi0: float,
    alternative: str = "two.sided",
    method: str = "auto",
    test: str = "auto",
    confidence_level: float = 0.95,
    similarity=None,
    importances=None,
    options=None,
    seed=None,
) -> dict:
    """:func:`propstab.one_sample_test` as the fields of R's ``htest``: statistic,
    pvalue, estimate (a dict of :func:`estimate_fields`), conf_int (the result's own
    :meth:`~propstab.inference.OneSampleTestResult.confidence_interval`, clipped to the
    measure's range), phi0, alternative, test (the test that ran: ``"wald"`` or
    ``"logit"``).

    Examples
    --------
    >>> from propstab.r._frontend import one_sample
    >>> res = one_sample("nogueira", [2, 2, 2, 2], [1, 2, 1, 2, 1, 3, 1, 2], 4, phi0=0.2,
    ...                  alternative="greater", test="wald")
    >>> round(res["statistic"], 4), round(res["pvalue"], 4)
    (1.3856, 0.0829)
    >>> res = one_sample("nogueira", [2, 2, 2, 2], [1, 2, 1, 2, 1, 3, 1, 2], 4, phi0=0.2,
    ...                  alternative="greater")        # M < 100: the logit test
    >>> round(res["statistic"], 4), res["test"], res["estimate"]["method"]
    (0.5199, 'logit', 'jackknife')
    """
    from ..inference import ONE_SAMPLE_TESTS, one_sample_test

    check_choice("alternative", alternative, tuple(ALTERNATIVES))
    check_choice("test", test, ONE_SAMPLE_TESTS)
    level = check_confidence_level(confidence_level)
    info, sel, opts = _selection_and_options(
        measure, sizes, indices, n_features, similarity, importances, options, seed
    )
    res = one_sample_test(
        sel,
        phi0,
        alternative=ALTERNATIVES[alternative],
        measure=info.name,
        method=_check_method(method),
        test=test,
        **opts,
    )
    est = res.estimate
    return {
        "statistic": res.statistic,
        "pvalue": res.pvalue,
        "phi0": res.phi0,
        "alternative": alternative,
        "estimate": _estimate_dict(est),
        "test": res.test,
        "conf_int": list(res.confidence_interval(level)),
    }


def two_sample(
    measure: str,
    x,
    y,
    n_features,
    *,
    paired: bool = False,
    alternative: str = "two.sided",
    method: str = "auto",
    test: str = "auto",
    confidence_level: float = 0.95,
    random_state=0,
    similarity=None,
    options=None,
    seed=None,
) -> dict:
    """:func:`propstab.two_sample_test` with ``x`` first and ``y`` second: ``x`` and ``y``
    are ``(sizes, indices)`` pairs, the difference is stability(x) - stability(y) (as
    ``t.test``'s mean of x minus mean of y, and as the Python ``two_sample_test(x, y)``)
    and ``"greater"`` means x is more stable. ``random_state`` seeds the permutation
    test's random rearrangements (R draws it from its own RNG).

    Returns the fields of R's ``htest``: statistic, pvalue, difference, variance,
    estimates (two dicts of :func:`estimate_fields`, x then y), conf_int (for the
    difference), paired, alternative, test (the test that ran) and test_description.

    Examples
    --------
    >>> from propstab.r._frontend import two_sample
    >>> x = ([2] * 5, [1, 2, 1, 2, 1, 2, 1, 2, 1, 3])
    >>> y = ([2] * 5, [1, 2, 1, 3, 2, 3, 1, 2, 1, 4])
    >>> res = two_sample("nogueira", x, y, 4, test="wald")
    >>> round(res["statistic"], 4), round(res["pvalue"], 4)
    (2.2411, 0.025)
    """
    from ..inference import TEST_METHODS, two_sample_test

    check_choice("alternative", alternative, tuple(ALTERNATIVES))
    check_choice("test", test, TEST_METHODS)
    check_confidence_level(confidence_level)
    info, sel_x, opts = _selection_and_options(
        measure, *x, n_features, similarity, None, options, seed
    )
    sel_y = runs_selection(*y, n_features)
    try:
        res = two_sample_test(
            sel_x,
            sel_y,
            paired=bool(paired),
            alternative=ALTERNATIVES[alternative],
            measure=info.name,
            method=_check_method(method),
            test=test,
            random_state=random_state,
            **opts,
        )
    except InvalidParameterError as exc:
        raise exc.renamed({"Z1": "x", "Z2": "y"}) from None
    est_x, est_y = res.estimates
    return {
        "statistic": res.statistic,
        "pvalue": res.pvalue,
        "difference": res.difference,
        "variance": res.variance,
        "paired": res.paired,
        "alternative": alternative,
        "estimates": [_estimate_dict(est_x), _estimate_dict(est_y)],
        "test": res.test,
        "test_description": res.test_description,
        "conf_int": list(res.confidence_interval(confidence_level)),
    }


# ---------------------------------------------------------------- tables


def measures_table() -> dict:
    """The registry as columns (for R's ``list_measures()``): name, family, the five
    claims (by axiom label), lower, upper, orientation, domain, options, stabm (the
    stabm function, ``""`` when none), summary.

    Examples
    --------
    >>> from propstab.r._frontend import measures_table
    >>> table = measures_table()
    >>> row = {key: column[table["name"].index("kuncheva")] for key, column in table.items()}
    >>> row["correction"], row["domain"], repr(row["stabm"])
    (True, 'constant_size', "''")
    >>> table["stabm"][table["name"].index("nogueira")]
    'stabilityNogueira'
    """
    infos = list_measures()
    cols: Dict[str, list] = {"name": [m.name for m in infos], "family": [m.family for m in infos]}
    for a in Axiom:
        cols[a.label.replace(" ", "_")] = [m.claims[a] for m in infos]
    cols["lower"] = [str(m.bounds[0]) for m in infos]
    cols["upper"] = [str(m.bounds[1]) for m in infos]
    cols["orientation"] = [m.orientation for m in infos]
    cols["domain"] = [m.domain for m in infos]
    cols["options"] = [", ".join(m.parameter_names) for m in infos]
    cols["stabm"] = [
        m.r_reference.function
        if m.r_reference is not None and m.r_reference.package == "stabm"
        else ""
        for m in infos
    ]
    cols["summary"] = [m.summary for m in infos]
    cols["input"] = [m.input for m in infos]
    return cols


def differences(
    fun: Optional[str] = None, sizes=None, indices=None, *, p=None, sim_mat=None, options=None
) -> list:
    """stabm's documented defects that propstab does not copy
    (:data:`propstab.r.EXPECTED_DIFFERENCES`), then the differences of the R interface
    (:data:`propstab.r._interface.INTERFACE_DIFFERENCES`): all, those of stabm's function
    ``fun``, or those under which the call ``fun(features, ...)`` falls (``sizes`` and
    ``indices`` given, the other arguments as for :func:`stabm_value`).

    Examples
    --------
    >>> from propstab.r._frontend import differences
    >>> [d["key"] for d in differences("stabilityDavis")]      # doctest: +NORMALIZE_WHITESPACE
    ['corrected_global_score', 'davis_penalty_maximum', 'estimate_computed_exactly',
     'undefined_warns', 'argument_checks']
    >>> case = {"sizes": [2, 2, 2], "indices": [1, 2, 2, 3, 1, 3], "p": 4}
    >>> [d["key"] for d in differences("stabilityDavis", **case)]
    []
    >>> [d["key"] for d in differences("stabilityDavis", **case,
    ...                                options={"correction.for.chance": "exact"})]
    ['corrected_global_score']
    """
    from ..registry._option_checks import check_options
    from ._defects import EXPECTED_DIFFERENCES
    from ._interface import INTERFACE_DIFFERENCES

    r_options = dict(options or {})
    case = None
    if sizes is not None:
        if fun is None:
            fail("fun: the stabm function is needed to check a case; got None")
        spec = _stabm_spec(fun)
        info, sel, opts = _stabm_case(
            spec,
            sizes,
            indices,
            p,
            sim_mat,
            None,
            {k: v for k, v in r_options.items() if k != "impute.na"},
        )
        case = (info.name, sel, check_options(info, opts))
    rows = []
    for e in EXPECTED_DIFFERENCES:
        bare = [f.split("::")[-1] for f in e.r_functions]
        if fun is not None and fun not in bare:
            continue
        if case is not None and (
            e.applies is None or case[0] not in e.measures or not e.applies(*case)
        ):
            continue
        rows.append(e)
    for d in INTERFACE_DIFFERENCES:  # the interface's, after the measures' values
        every = "all stability* functions" in d.r_functions and str(fun).startswith("stab")
        if fun is not None and fun not in d.r_functions and not every:
            continue
        if case is None or (d.applies is not None and d.applies(fun, sizes, r_options)):
            rows.append(d)
    return [
        {**d.as_dict(), "measures": ", ".join(d.measures), "r_functions": ", ".join(d.r_functions)}
        for d in rows
    ]


# ---------------------------------------------------------------- calls from R

_ENTRY_POINTS: Dict[str, Callable] = {
    f.__name__: f
    for f in (
        stabm_value,
        measure_value,
        estimate_fields,
        estimate_interval,
        interval,
        one_sample,
        two_sample,
        audit_function,
        measures_table,
        differences,
        ranking_measures,
        ranking_value,
    )
}


def _in_r(exc: InvalidParameterError, names: Mapping[str, str]) -> str:
    """An argument error's message with R's names: the argument it starts with, and any
    Python name quoted in its text (``unexpected option(s) 'correction_for_chance'``)."""
    message = str(exc.renamed(names))
    for python, r in names.items():
        if python != r:
            message = re.sub(rf"(['`]){re.escape(python)}(['`=])", rf"\g<1>{r}\g<2>", message)
            message = re.sub(rf"\b{re.escape(python)}=", f"{r} = ", message)
    return message


def _warning_record(w: warnings.WarningMessage) -> dict:
    message = str(w.message)
    if issubclass(w.category, UndefinedMeasureWarning):
        message = message.replace("; returning nan", "; returning NA")
    return {"class": w.category.__name__, "message": message}


def invoke(entry: str, arguments: Mapping[str, Any]) -> dict:
    """Call the entry point ``entry`` with ``arguments``; never raises.

    Returns
    -------
    dict
        ``value``; ``warnings``: a list of ``{"class", "message"}``, one per distinct
        warning; ``error``: None, or ``{"class", "message", "traceback"}`` (the exception's
        class name and message; the traceback is for developers and is not shown).

    Examples
    --------
    >>> from propstab.r._frontend import invoke
    >>> invoke("measure_value", {"measure": "jaccard", "sizes": [1, 1], "indices": [1, 2],
    ...                          "n_features": 2})["value"]
    0.0
    >>> out = invoke("measure_value", {"measure": "jacard", "sizes": [1, 1],
    ...                                "indices": [1, 2], "n_features": 2})
    >>> out["error"]["class"], out["error"]["message"][:45]
    ('ValueError', "measure: 'jacard' is not a registered measure")
    >>> out = invoke("measure_value", {"measure": "jaccard", "sizes": [0, 0], "indices": [],
    ...                                "n_features": 2})
    >>> out["value"], out["warnings"][0]["class"]
    (nan, 'UndefinedMeasureWarning')
    """
    if entry not in _ENTRY_POINTS:
        return {
            "value": None,
            "warnings": [],
            "error": {
                "class": "ValueError",
                "traceback": "",
                "message": f"entry: {entry!r} is not an entry point of propstab's R front end; "
                f"known: {', '.join(sorted(_ENTRY_POINTS))}",
            },
        }
    names = {**_R_NAMES, **_R_ENTRY_NAMES.get(entry, {})}
    return run_entry(_ENTRY_POINTS[entry], arguments, names)


def run_entry(
    function: Callable, arguments: Mapping[str, Any], names: Optional[Mapping[str, str]] = None
) -> dict:
    """``function(**arguments)`` as :func:`invoke` returns it, never raising (the entry
    points of ``propstab.r._testing_frontend`` reach R through it too); an argument
    error's Python names become R's (``names``, by default those of every entry)."""
    names = _R_NAMES if names is None else names
    error = None
    value = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = function(**dict(arguments))
        except Exception as exc:  # every failure reaches R as data
            # an InvalidParameterError reaches R as the builtin class of its rule
            # (propstab_ValueError, propstab_TypeError), as before it existed, and with
            # the R package's names for the arguments (every argument error is of that
            # class and carries its argument: tests/test_argument_errors.py)
            message = _in_r(exc, names) if isinstance(exc, InvalidParameterError) else str(exc)
            error = {
                "class": getattr(exc, "kind", type(exc)).__name__,
                "message": message,
                "traceback": "".join(
                    traceback.format_exception(type(exc), exc, exc.__traceback__)
                ),
            }
    seen = {}
    for w in caught:
        record = _warning_record(w)
        seen.setdefault((record["class"], record["message"]), record)
    return {"value": value, "warnings": list(seen.values()), "error": error}
