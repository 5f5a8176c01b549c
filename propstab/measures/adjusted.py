"""What the declarations of stabm's adjusted measures share (Bommert 2020).

The measures ``yu``, ``zucknick`` and ``intersection_count``, ``_mean``, ``_greedy``,
``_mbm`` are declared in :mod:`propstab.measures.correlated`; their scores are in
:mod:`~propstab.measures.matching`, their null expectations in
:mod:`~propstab.measures.simulation` and :mod:`~propstab.measures.exact_null`. Here:

- the options of stabm's per-pair correction for chance (:func:`correction`,
  :data:`N_SIMULATIONS`, :data:`RANDOM_STATE`) and the notes the six declarations
  share (:data:`STABM_NOTES`);
- the R reference (:func:`stabm_reference`: stabm's function and its argument
  translation) with the known differences of stabm's thresholding, each with the
  predicate saying when it applies;
- the per-pair maxima of the correction (:func:`half_sum`, :func:`geo_mean`,
  :func:`one`) and the formula and parameter sections the adjusted intersections'
  docstrings share (:func:`with_formula`);
- the adjusted intersections' value (:func:`adjusted_intersection`).
"""
from __future__ import annotations

import numpy as np
from scipy import sparse

from ..registry import ExpectedDifference, Parameter, RReference
from .exact_null import exact_expectation
from .simulation import stabm_measure

__all__ = [
    "ADJUSTED_NO_SIMILAR_PAIR",
    "INTERSECTION_FORMULA",
    "N_SIMULATIONS",
    "RANDOM_STATE",
    "SPARSE_SIMILARITY_DIMENSIONS",
    "STABM_NOTES",
    "THRESHOLD_ZERO_DENSE_SPARSE",
    "adjusted_intersection",
    "correction",
    "geo_mean",
    "half_sum",
    "no_similar_pair",
    "one",
    "stabm_reference",
    "stored_off_diagonal",
    "threshold_zero",
    "with_formula",
]

N_SIMULATIONS = Parameter(
    "n_simulations",
    10_000,
    "number of random pairs of subsets per pair of sizes for "
    "correction_for_chance='estimate' (stabm's N)",
    minimum=1,
)
RANDOM_STATE = Parameter(
    "random_state", 0, "seed (int) of the simulation for correction_for_chance='estimate'"
)


def correction(default, exact: str):
    """The ``correction_for_chance`` option of an adjusted measure: its default and how
    its ``'exact'`` is computed (``"closed"`` form or enumeration over ``"components"``)."""
    choices = ("none", "exact", "estimate")
    how = {
        "closed": "'exact': the exact null expectation (closed form); ",
        "components": "'exact': the exact null expectation (enumeration over the "
        "similarity graph's components, a ValueError naming the sizes "
        "where infeasible); ",
    }[exact]
    return Parameter(
        "correction_for_chance",
        default,
        "stabm's per-pair correction :math:`(I - E[I \\mid H_0]) / (\\max - E[I \\mid H_0])`; "
        + how
        + "'estimate': :math:`E[I \\mid H_0]` by a seeded simulation of n_simulations random "
        "pairs of subsets "
        "per pair of sizes; 'none': the mean of the raw scores I",
        choices=choices,
    )


#: The notes every declaration of the six measures ends with.
STABM_NOTES = (
    " The correction is stabm's, per pair: "
    ":math:`(I - E[I \\mid H_0]) / (\\max - E[I \\mid H_0])` with E for "
    "independent uniformly random subsets of the two runs' sizes; 'estimate' simulates "
    "n_simulations pairs per distinct pair of sizes (seeded, random_state) and warns "
    "(MonteCarloWarning) when the propagated standard error of the value exceeds 0.005. "
    "Similar means similarity >= threshold and > 0. Axioms are declared for every "
    "admissible similarity: maximal values for different rows that swap similar features, "
    "so the classical maximum and monotonicity are not claimed; a complete similarity "
    "graph makes :math:`E[I \\mid H_0]` equal to the maximum (0/0)."
)


# ------------------------------------------------- known differences of the R reference


def stored_off_diagonal(similarity):
    """The stored off-diagonal similarities of the option as given, and whether some
    off-diagonal entry is an unstored zero (sparse input)."""
    if sparse.issparse(similarity):
        C = sparse.csr_matrix(similarity)
        C.sum_duplicates()
        C = C.tocoo()
        off = C.row != C.col
        d = C.shape[0]
        return C.data[off], int(off.sum()) < d * d - d
    C = np.asarray(similarity, dtype=np.float64)
    return C[~np.eye(C.shape[0], dtype=bool)], False


def no_similar_pair(measure, sel, options) -> bool:
    """Whether :data:`ADJUSTED_NO_SIMILAR_PAIR` applies: no off-diagonal similarity
    reaches the threshold."""
    C = options.get("similarity")
    if C is None:
        return False
    t = options.get("threshold")
    values, unstored_zero = stored_off_diagonal(C)
    return not (np.any(values >= t) or (unstored_zero and t <= 0))


def threshold_zero(measure, sel, options) -> bool:
    """Whether :data:`THRESHOLD_ZERO_DENSE_SPARSE` applies: a dense similarity with an
    off-diagonal zero at threshold 0."""
    C = options.get("similarity")
    if C is None or sparse.issparse(C) or options.get("threshold") != 0:
        return False
    values, _ = stored_off_diagonal(C)
    return bool(np.any(values == 0))


_ADJUSTED_R = (
    "stabm::stabilityYu",
    "stabm::stabilityIntersectionCount",
    "stabm::stabilityIntersectionGreedy",
    "stabm::stabilityIntersectionMBM",
    "stabm::stabilityIntersectionMean",
)

ADJUSTED_NO_SIMILAR_PAIR = ExpectedDifference(
    key="adjusted_no_similar_pair",
    r_functions=_ADJUSTED_R,
    summary="with no similar pair of features, stabm silently switches to "
    "intersection.common (stabilityUnadjusted's formula)",
    reason="stabm's stability() looks for an off-diagonal entry of sim.mat >= threshold; "
    "when there is none it replaces the measure by 'intersection.common' and the "
    "correction by the 'unadjusted' expectation kᵢ kⱼ / p, i.e. it returns the "
    "mean over pairs of (rᵢⱼ - kᵢ kⱼ/p) / (√(kᵢ kⱼ) - kᵢ kⱼ/p). Yu's maximum is "
    "(kᵢ + kⱼ)/2, not √(kᵢ kⱼ), so Yu's value changes as soon as two runs "
    "differ in size (Yu's own definition then equals stabm's kappa). Without "
    "correction the raw scores coincide except for two empty runs, where Yu is "
    "undefined (NA in stabm's own yu) and intersection.common gives 0. For the "
    "intersection.* measures score, maximum and exact expectation are unchanged by "
    "the switch (only correction 'estimate' silently becomes exact). propstab "
    "evaluates each measure's own definition.",
    example="stabilityYu(list(1, 1:2), sim.mat = diag(3), threshold = 0.9, "
    'correction.for.chance = "exact")',
    r_result="0.4459029 = stabilityUnadjusted(list(1, 1:2), p = 3)",
    propstab_result="Yu's definition: (1 - 2/3) / (3/2 - 2/3) = 0.4 "
    "= stabilityKappa(list(1, 1:2), p = 3)",
    applies=no_similar_pair,
)

SPARSE_SIMILARITY_DIMENSIONS = ExpectedDifference(
    key="sparse_similarity_dimensions",
    r_functions=(
        "stabm::stabilityYu",
        "stabm::stabilityZucknick",
        "stabm::stabilityIntersectionCount",
        "stabm::stabilityIntersectionGreedy",
        "stabm::stabilityIntersectionMBM",
        "stabm::stabilityIntersectionMean",
    ),
    summary="a sparse similarity matrix loses trailing dimensions when thresholding",
    reason="for a symmetric Matrix similarity with an entry below threshold, stabm rebuilds "
    "it with sparseMatrix(i, j, x, symmetric = TRUE) without dims, so its size is "
    "the largest stored index: when the last features have no stored entry "
    "(e.g. the diagonal is not stored) the matrix shrinks and stabm rejects valid "
    "feature indices (or computes on a smaller feature space). The dense path "
    "passes dims. propstab's bridge always stores the diagonal, so the harness "
    "never meets this; an R-level test pins it.",
    example="S <- Matrix::sparseMatrix(i = c(1, 3), j = c(2, 4), x = c(0.95, 0.5), "
    "dims = c(4, 4), symmetric = TRUE); stabilityZucknick(list(c(1, 3), c(2, 4), "
    "c(1, 4)), sim.mat = S, threshold = 0.9)",
    r_result="error: Assertion on 'f' failed: Must be a subset of {'1','2'}",
    propstab_result="propstab requires the unit diagonal; sent with its diagonal stored "
    "(as the bridge does) or dense, stabm gives 0.4069444",
    applies=None,
)

THRESHOLD_ZERO_DENSE_SPARSE = ExpectedDifference(
    key="threshold_zero_dense_sparse",
    r_functions=(
        "stabm::stabilityYu",
        "stabm::stabilityIntersectionCount",
        "stabm::stabilityIntersectionGreedy",
        "stabm::stabilityIntersectionMean",
        "stabm::stabilityIntersectionMBM",
        "stabm::stabilityZucknick",
    ),
    summary="at threshold 0, dense and sparse similarity matrices give different values",
    reason="stabm converts a dense sim.mat to sparse form keeping every entry >= threshold; "
    "at threshold 0 that stores the zero similarities explicitly, and the measures "
    "count stored entries as similar pairs. A sparse sim.mat never stores its zeros, "
    "so the same matrix gives another value. propstab gives one value for both "
    "forms and never counts a zero similarity as similar (similar means >= threshold "
    "and > 0): it equals stabm's sparse result and differs from its dense one.",
    example="S <- diag(4); S[1, 2] <- S[2, 1] <- 0.5; f <- list(c(1, 3), c(2, 4), 3); "
    'stabilityYu(f, sim.mat = S, threshold = 0, correction.for.chance = "none") vs '
    'the same with sim.mat = as(as(S, "CsparseMatrix"), "symmetricMatrix")',
    r_result="1.5 (dense) vs 0.6666667 (sparse)",
    propstab_result="0.6666667 for the dense and the sparse form",
    applies=threshold_zero,
)


def stabm_reference(function, corrected=True, note="", adjusted=True, defaults=None):
    """stabm's function of a thresholded measure, with its known differences (the
    adjusted intersections also switch measure without a similar pair)."""
    args = {"similarity": "sim.mat", "threshold": "threshold"}
    if corrected:
        args.update(correction_for_chance="correction.for.chance", n_simulations="N")
    differences = ((ADJUSTED_NO_SIMILAR_PAIR,) if adjusted else ()) + (
        SPARSE_SIMILARITY_DIMENSIONS,
        THRESHOLD_ZERO_DENSE_SPARSE,
    )
    return RReference(
        "stabm",
        function,
        arguments=args,
        note=note,
        differences=differences,
        defaults=defaults or {},
    )


# ---------------------------------------------------- the per-pair maxima, the docstrings


def half_sum(a, b):
    """Yu's maximum of a pair, (k_i + k_j) / 2."""
    return (a + b) / 2


def geo_mean(a, b):
    """The adjusted intersections' maximum of a pair, sqrt(k_i k_j)."""
    return np.sqrt(a * b)


def one(a, b):
    """Zucknick's maximum of a pair, 1."""
    return np.ones_like(a)


INTERSECTION_FORMULA = """
    .. math:: \\hat\\Phi = \\frac{2}{M(M-1)}\\sum_{i<j}
              \\frac{I(F_i, F_j) - E[I|H_0]}{\\sqrt{k_i k_j} - E[I|H_0]}

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9
        x and y are similar when similarity(x, y) >= threshold.
    correction_for_chance : {"estimate", "exact", "none"}
        "exact": :math:`E[I \\mid H_0]` exactly, by enumeration over the connected
        components of the similarity graph (``propstab.measures.exact_null``; stabm
        enumerates all :math:`\\binom{d}{k_i}\\binom{d}{k_j}` pairs of subsets), a
        ValueError naming the sizes where the components are too large for it.
        "estimate": :math:`E[I \\mid H_0]` simulated with ``n_simulations`` random pairs
        of subsets per
        distinct pair of sizes, seeded by ``random_state`` (default 0, so results are
        reproducible); the Monte Carlo standard error of each expectation is
        :math:`\\mathrm{sd}(I)/\\sqrt{n_{simulations}}`, at most about
        :math:`0.5\\,k/\\sqrt{n}` (:math:`0.005\\,k` for :math:`10^4`),
        and a MonteCarloWarning reports it when its effect on the value exceeds 0.005.
        "none": the mean of I.
    n_simulations : int, default 10000
    random_state : int, default 0

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a pair's expectation equals its maximum (0/0).
    MonteCarloWarning
        When the simulation's error on the value exceeds 0.005.

    Raises
    ------
    ValueError
        With ``correction_for_chance="exact"``, when the exact expectation needs more
        than ``exact_null.ENUMERATION_LIMIT`` pairs of subsets of the components.
"""


def with_formula(core):
    """Insert the adjusted-intersection formula and parameters before the Examples."""
    head, sep, tail = core.__doc__.partition("    Examples")
    core.__doc__ = head + INTERSECTION_FORMULA.lstrip("\n") + "\n" + sep + tail
    return core


def adjusted_intersection(
    name, sel, score, similarity, threshold, correction_for_chance, n_simulations, random_state
):
    """An adjusted intersection's value from its options, in the order of its signature:
    stabm's per-pair correction of ``score`` with the normaliser sqrt(k_i k_j)
    (:func:`~propstab.measures.simulation.stabm_measure`), E[I|H0] exact by enumeration
    over the similarity graph's components
    (:func:`~propstab.measures.exact_null.exact_expectation`) or simulated."""
    return stabm_measure(
        name,
        sel,
        score,
        geo_mean,
        similarity=similarity,
        threshold=threshold,
        correction=correction_for_chance,
        n_simulations=n_simulations,
        random_state=random_state,
        exact=exact_expectation(score),
    )
