"""Where the R package's stabm interface (not a measure's value) differs from stabm 1.2.2.

The value differences of the measures are registry data
(:data:`propstab.r._defects.EXPECTED_DIFFERENCES`); these are the differences of the
interface: how ``impute.na`` and ``correction.for.chance = "estimate"`` are computed,
warnings, argument checks, ``listStabilityMeasures()`` and ``plotFeatures()``. R's
``stabm_differences()`` lists both (:func:`propstab.r._frontend.differences`). Each entry
has the columns of an expected difference and a predicate ``applies(function, sizes,
options)`` for a call of stabm's function (``None``: listed by name only).
"""
from __future__ import annotations

import dataclasses
from typing import Tuple

import numpy as np

from ..registry._r_metadata import ExpectedDifference

__all__ = ["INTERFACE_DIFFERENCES", "InterfaceDifference"]

_ADJUSTED = (
    "stabilityYu",
    "stabilityZucknick",
    "stabilityIntersectionCount",
    "stabilityIntersectionMean",
    "stabilityIntersectionGreedy",
    "stabilityIntersectionMBM",
)
_EXACT_FOR_ESTIMATE = (
    "stabilityJaccard",
    "stabilityDice",
    "stabilityOchiai",
    "stabilityHamming",
    "stabilityDavis",
    "stabilityNovovicova",
)


@dataclasses.dataclass(frozen=True)
class InterfaceDifference(ExpectedDifference):
    """One difference of propstab's R interface from stabm's (see the module): the fields
    of an :class:`~propstab.registry.ExpectedDifference`, its ``applies(function, sizes,
    options)`` reading a call of stabm's function, and no measure (``measures`` is
    ``("(interface)",)``)."""

    @property
    def measures(self) -> Tuple[str, ...]:
        return ("(interface)",)


def _some_run_empty(function, sizes, options) -> bool:
    return options.get("impute.na") is not None and bool(
        np.any(np.asarray(sizes, dtype=np.int64) == 0)
    )


def _estimate(function, sizes, options) -> bool:
    return (
        options.get(
            "correction.for.chance",
            "estimate" if function in _ADJUSTED and function != "stabilityZucknick" else "none",
        )
        == "estimate"
    )


INTERFACE_DIFFERENCES: Tuple[InterfaceDifference, ...] = (
    InterfaceDifference(
        key="impute_na_of_the_value",
        r_functions=_ADJUSTED,
        summary="impute.na of the similarity-adjusted measures replaces the undefined value, "
        "not each undefined pair of runs",
        reason="stabm averages pair scores and imputes each undefined pair (e.g. two empty "
        "sets); propstab computes these measures from all runs at once and imputes "
        "the value when it is undefined, so the two differ when some but not all "
        "pairs are undefined (the measures of pairs of sets, stabilityJaccard ... "
        "stabilityUnadjusted, impute each pair as stabm does)",
        example="stabilityZucknick(list(integer(0), integer(0), 1:2), sim.mat = diag(3), "
        "impute.na = 0)",
        r_result="stabm: (0 + 0 + 0) / 3 with the pair of empty sets imputed 0",
        propstab_result="the value over all runs (defined here), impute.na unused",
        applies=lambda function, sizes, options: (
            function in _ADJUSTED and _some_run_empty(function, sizes, options)
        ),
    ),
    InterfaceDifference(
        key="estimate_by_simulation",
        r_functions=_ADJUSTED[:1] + _ADJUSTED[2:],
        summary="correction.for.chance = \"estimate\" runs propstab's simulation, not stabm's",
        reason="both simulate N random pairs of sets, with different random number streams "
        "(propstab's seed is drawn from R's RNG, so set.seed() repeats a value): the "
        "values differ by the simulation error, about 1/sqrt(N); propstab warns when "
        "its estimated error exceeds 0.005",
        example="set.seed(1); stabilityYu(list(1:2, 2:3), sim.mat = diag(4))",
        r_result="stabm's simulated value",
        propstab_result="propstab's simulated value",
        applies=lambda function, sizes, options: (
            function in _ADJUSTED and _estimate(function, sizes, options)
        ),
    ),
    InterfaceDifference(
        key="estimate_computed_exactly",
        r_functions=_EXACT_FOR_ESTIMATE,
        summary='correction.for.chance = "estimate" is computed exactly where propstab has '
        "the exact expectation",
        reason="stabm simulates the null expectation that propstab knows in closed form "
        "(hypergeometric law); N is validated and unused",
        example="stabilityJaccard(list(1:2, 2:3), p = 5, correction.for.chance = " '"estimate")',
        r_result="stabm's simulated value (the exact one +/- its simulation error)",
        propstab_result='the exact value, as correction.for.chance = "exact"',
        applies=lambda function, sizes, options: (
            function in _EXACT_FOR_ESTIMATE and options.get("correction.for.chance") == "estimate"
        ),
    ),
    InterfaceDifference(
        key="undefined_warns",
        r_functions=("all stability* functions",),
        summary="an undefined value is NA with a warning",
        reason="stabm returns NA silently; propstab says why (class "
        "propstab_UndefinedMeasureWarning); suppressPropstabWarnings() or "
        "options(propstab.warn = FALSE) quiet it",
        example="stabilityJaccard(list(integer(0), integer(0)))",
        r_result="NA",
        propstab_result="NA and a warning",
    ),
    InterfaceDifference(
        key="unit_diagonal_required",
        r_functions=("stabilityYu", "stabilityZucknick", "stabilitySechidis") + _ADJUSTED[2:],
        summary="sim.mat must have a unit diagonal",
        reason="every feature is fully similar to itself; stabm reads the diagonal of a "
        "dense matrix in some measures only and loses it in a sparse one",
        example="S <- diag(3); S[1, 1] <- 0.5; stabilityZucknick(list(1:2, 2:3), " "sim.mat = S)",
        r_result="a value",
        propstab_result="an error: got sim.mat[1, 1] = 0.5",
    ),
    InterfaceDifference(
        key="argument_checks",
        r_functions=("all stability* functions",),
        summary="invalid input: propstab's messages, and p optional where the value does "
        "not depend on it",
        reason="errors name the argument, the rule and the value, with 1-based positions; "
        "propstab also accepts a 0/1 or logical matrix of runs and refuses what "
        "stabm refuses (e.g. penalty = NULL), with other words, and a feature index "
        "above p, which stabm accepts (its test 'set 6: only one feature in "
        "dataset' calls list(3, 3) with p = 1)",
        example="stabilityNogueira(list(1:3, 2:4), p = 2)",
        r_result="a checkmate error",
        propstab_result="features: run 1 contains the feature index 3; ...",
    ),
    InterfaceDifference(
        key="list_measures_columns",
        r_functions=("listStabilityMeasures",),
        summary="listStabilityMeasures() has propstab's columns and rows besides stabm's",
        reason="stabm's five columns keep stabm's values; propstab adds the registered "
        "name, its exact-correction claim, whether stabm has the function and the "
        "keys of these differences, and rows for stabilityKuncheva, stabilityPOG, "
        "stabilityNPOG and stabilityMSI",
        example="ncol(listStabilityMeasures())",
        r_result="5",
        propstab_result="9",
    ),
    InterfaceDifference(
        key="plot_features_dendrograms",
        r_functions=("plotFeatures",),
        summary="plotFeatures() draws the ordered heatmap without the dendrograms",
        reason="stabm adds them with cowplot and ggdendro; propstab needs ggplot2 only for a "
        "ggplot object, and draws with base graphics without it",
        example="plotFeatures(list(1:3, 2:4))",
        r_result="a ggplot with dendrograms",
        propstab_result="a ggplot of the same ordered heatmap",
    ),
)
