"""Stability measures for correlated (or semantically related) feature spaces.

A selector that swaps between interchangeable features looks unstable to the
classical measures. The measures here read, besides Z, a feature-similarity
matrix ``similarity=`` (d x d, symmetric, entries in [0, 1], unit diagonal,
validated by :func:`propstab._data.convert_matrices.as_similarity`; ``None`` is the
identity) and, for importance-weighted measures, ``importances=`` (M x d,
non-negative, zero exactly where a feature is not selected).

- ``sechidis``: effective stability (Sechidis et al. 2019, Definition 2, Thm 3), and
  ``sechidis_exact``, its exact correction for chance for any sizes (Conger's).
- ``msi``: maximal shared importance (Hamer and Dupont 2021, eqs 8-12).
- ``yu_matching``: Yu et al.'s maximum weighted bipartite matching (Hamer sec. 2, Thm 5.1).
- ``yu``, ``zucknick``, ``intersection_count``, ``intersection_greedy``,
  ``intersection_mbm``, ``intersection_mean``: stabm's adjusted measures
  (Bommert 2020), with stabm's per-pair correction for chance.
- ``pogr``, ``npogr``: Zhang et al. 2009 (Hamer eq. 4); ``pearson``: Hamer eq. 5.

Declared properties are those of each measure with its default options, for
every admissible similarity (and importance) matrix: where an axiom holds only
for the identity similarity, it is not claimed and ``notes`` say so.

This module holds the declarations; the computations live in
:mod:`~propstab.measures.effective` (Sechidis's traces), :mod:`~propstab.measures.matching`
(similarity graphs, pairs of runs, scores), :mod:`~propstab.measures.msi_solvers` (max
flow, assignment, LP), :mod:`~propstab.measures.simulation` and
:mod:`~propstab.measures.exact_null` (null expectations), and what stabm's adjusted
measures share (options, R reference and differences) in :mod:`~propstab.measures.adjusted`.
"""
from __future__ import annotations

import math

import numpy as np

from ..registry import Parameter, RDefault, RReference, Variant, claims, module_doctests, register
from .._utils.exceptions import undefined
from ..axioms import Axiom
from ._common import pair_mean
from .adjusted import (
    N_SIMULATIONS,
    RANDOM_STATE,
    adjusted_intersection,
    correction,
    STABM_NOTES,
    half_sum,
    one,
    stabm_reference,
    with_formula,
)
from .effective import effective_intersections, effective_stability  # noqa: F401
from .matching import (
    pearson_parts,
    pogr_parts,
    score_count,
    score_greedy,
    score_mbm,
    score_mean,
    score_yu,
    score_zucknick,
    similarity_matrix,
)
from .msi_solvers import matching_values, msi_pair_values
from .references import BOMMERT, HAMER, SECHIDIS, TABLE_6_1, YU, ZHANG, ZUCKNICK
from .simulation import (
    MonteCarloWarning,
    expected_yu,
    expected_zucknick,  # noqa: F401
    npogr_parts,
    stabm_measure,
)

SIMILARITY = Parameter(
    "similarity",
    None,
    "d x d feature similarity (ndarray, scipy.sparse or DataFrame): symmetric, entries in "
    "[0, 1], unit diagonal; None is the identity (no two features related)",
)
THRESHOLD_C = Parameter(
    "threshold", None, "entries of the similarity below it are set to 0; None keeps it as given"
)
THRESHOLD = Parameter(
    "threshold",
    0.9,
    "features x != y are similar when similarity(x, y) >= threshold "
    "(and > 0); stabm's default 0.9",
    minimum=0.0,
)
IMPORTANCES = Parameter(
    "importances",
    None,
    "M x d non-negative importances, zero exactly where Z is 0 (Hamer "
    "eqs 6-7); None gives every selected feature of a run the same importance",
)


# ----------------------------------------------------------------------------------
# Sechidis et al.: effective stability


@register(
    name="sechidis",
    family="correlated",
    summary="1 - tr(C S) / tr(C Sigma0), S the unbiased covariance of Z's columns",
    references=(SECHIDIS + ", Definition 2 and Theorem 3", HAMER + ", eq. 3"),
    claims=claims(
        fully_defined=False,
        monotonicity=False,
        bounds=False,
        maximum=False,
        correction_for_chance=False,
    ),
    lower=-math.inf,
    upper=math.inf,
    parameters=(SIMILARITY, THRESHOLD_C),
    r_reference=RReference(
        "stabm",
        "stabilitySechidis",
        arguments={"similarity": "sim.mat", "threshold": "threshold"},
        values={("threshold", None): 0.0},
        note="stabm forms the d x d covariance; its Sigma0 uses the mean "
        "of the squared sizes, as propstab does",
        defaults={
            "threshold": RDefault(
                0.9,
                (
                    "Sechidis et al. 2019, Definition 2, use C as given; stabm "
                    "sets similarities below 0.9 to 0 by default"
                ),
            )
        },
    ),
    notes="Declared for every admissible C (any symmetric C in [0, 1] with unit diagonal, as "
    "validated; the audit draws C). With C = I it is Nogueira's estimator and has its "
    "properties. For a general C: not bounded below (Hamer and Dupont, Table 1, "
    "scenario 2: -> -inf; :math:`1 - (n + 1)^2 / (2n)` for Z = [{0}, {1}] when feature 0 is "
    "similar to none of n mutually similar features), at most 1 for a positive "
    "semi-definite C but not bounded above otherwise (4n - 1 with C = all ones minus a "
    "perfect matching, d = 2n), so no maximum; 1 for different rows that swap similar "
    "features (Sechidis eq. 1), not monotone in the classical intersection, undefined "
    "(0/0) for C = all ones with constant sizes, and not corrected for chance when the "
    "sizes vary (E = -1/9 for C = I, M = 2, d = 3, sizes 1 and 2, by enumeration). "
    "Theorem 3's off-diagonal null covariance is read with the mean of the squared "
    "sizes (its exact value under :math:`H_0` with varying sizes, and stabm's); the "
    "printed :math:`\\bar k^2` is the same number for a constant size.",
)
def sechidis(sel, *, similarity=None, threshold=None):
    """Sechidis et al.'s effective stability Phi_C (Definition 2, Theorem 3).

    .. math:: \\hat\\Phi_C(Z) = 1 - \\frac{\\mathrm{tr}(C S)}{\\mathrm{tr}(C \\Sigma^0)}

    with S the unbiased covariance matrix of the columns of Z and :math:`\\Sigma^0` its null
    counterpart: diagonal :math:`(\\bar k/d)(1 - \\bar k/d)`, off-diagonal
    :math:`(\\overline{k^2} - \\bar k)/(d^2 - d) - \\bar k^2/d^2`. Neither d x d matrix is
    formed:

    .. math:: \\mathrm{tr}(C S) = \\frac{1}{M-1}\\Big(\\sum_i z_i C z_i^T
              - \\frac{F^T C F}{M}\\Big), \\qquad
              \\mathrm{tr}(C\\Sigma^0) = d\\,\\sigma_0^2 + c_0\\,(\\mathbf{1}^T C \\mathbf{1} - d)

    (F the column counts, C with unit diagonal), so a sparse C costs O(nnz(Z C)).
    With C = I it is Nogueira's estimator (:func:`propstab.measures.nogueira`).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
        C (dense, sparse or DataFrame); None is the identity.
    threshold : float, optional
        Entries of C below it are set to 0 (stabm's ``threshold``).

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When :math:`\\bar k` is 0 or d, or :math:`\\mathrm{tr}(C \\Sigma^0) = 0` (C all ones
        with a constant size).

    Examples
    --------
    >>> from propstab.measures import sechidis, nogueira
    >>> Z = [[1, 0, 1, 0, 0, 0], [0, 1, 1, 0, 0, 0], [1, 0, 0, 1, 0, 0], [0, 1, 0, 1, 0, 0]]
    >>> C = [[1, 1, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], [0, 0, 1, 1, 0, 0],
    ...      [0, 0, 1, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]
    >>> sechidis(Z, similarity=C)          # Sechidis eq. (1): effectively stable
    1.0
    >>> round(sechidis(Z), 12), round(nogueira(Z), 12)
    (0.0, 0.0)
    """
    return effective_stability("sechidis", sel, similarity, threshold)


@register(
    name="sechidis_exact",
    family="correlated",
    aliases=("effective_conger",),
    summary="1 - tr(C S) / E[tr(C S) | H0]: effective stability corrected for chance "
    "exactly for any sizes",
    references=(
        SECHIDIS + ", Definition 2 and Theorem 3",
        "Conger, A. J. (1980). Integration and generalization of kappas for "
        "multiple raters. Psychological Bulletin 88(2), 322-328",
    ),
    claims=claims(
        fully_defined=False,
        monotonicity=False,
        bounds=False,
        maximum=False,
        correction_for_chance=True,
    ),
    lower=-math.inf,
    upper=math.inf,
    null_value=0.0,
    parameters=(SIMILARITY, THRESHOLD_C),
    notes="Sechidis's :math:`\\hat\\Phi_C` with :math:`\\mathrm{tr}(C \\Sigma^0)` replaced by "
    "the exact null expectation of :math:`\\mathrm{tr}(C S)` for the observed sizes: "
    ":math:`E[S \\mid H_0] = \\Sigma^0 + \\mathrm{var}_{pop}(k/d)/(M - 1)\\,"
    "\\mathbf{1}\\mathbf{1}^T` "
    "(docs/varying_sizes.md), so the null expectation of the value is 0 for every M, "
    "d, sizes and admissible C. Equal to sechidis for a constant size and to conger at "
    "C = I. The other axioms fail as sechidis's for a general C (its constant-size "
    "counterexamples are counterexamples here): not bounded, 0/0 for C = all ones "
    "with a constant size, different rows that swap similar features score 1.",
)
def sechidis_exact(sel, *, similarity=None, threshold=None):
    """Effective stability corrected for chance exactly (Conger's correction of Phi_C).

    .. math:: \\hat\\Phi^{E}_C(Z) = 1 - \\frac{\\mathrm{tr}(C S)}{E[\\mathrm{tr}(C S) \\mid H_0]}
              = 1 - \\frac{\\mathrm{tr}(C S)}{\\mathrm{tr}(C \\Sigma^0)
                + \\frac{\\mathrm{var}_{pop}(q)}{M - 1}\\,\\mathbf{1}^T C \\mathbf{1}}

    with S the unbiased covariance matrix of the columns of Z, :math:`\\Sigma^0` Sechidis
    et al.'s null covariance (Theorem 3: diagonal :math:`\\bar q(1 - \\bar q)`, off-diagonal
    :math:`(\\overline{k^2} - \\bar k)/(d^2 - d) - \\bar k^2/d^2`), :math:`q_i = k_i/d` and
    :math:`\\mathrm{var}_{pop}(q) = \\frac{1}{M}\\sum_i (q_i - \\bar q)^2`. Under the null
    model (thesis Definition 2, run i a uniformly random subset of its size :math:`k_i`)
    the runs have means :math:`q_i \\mathbf{1}` and covariances :math:`\\mathrm{Cov}_i`, and

    .. math:: E[S] = \\frac{1}{M}\\sum_i \\mathrm{Cov}_i
              + \\frac{1}{M-1}\\sum_i (q_i - \\bar q)^2\\,\\mathbf{1}\\mathbf{1}^T
              = \\Sigma^0 + \\frac{\\mathrm{var}_{pop}(q)}{M - 1}\\,\\mathbf{1}\\mathbf{1}^T:

    Sechidis's :math:`\\hat\\Phi_C` (:func:`sechidis`) divides by
    :math:`\\mathrm{tr}(C \\Sigma^0)` only and is not corrected for chance when the sizes
    vary. This measure is 0 in expectation under :math:`H_0` for every similarity C,
    equals :func:`sechidis` for a constant size and :func:`propstab.measures.conger` at
    C = I. The symbols are defined in the :doc:`/notation`.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
        C (dense, sparse or DataFrame); None is the identity.
    threshold : float, optional
        Entries of C below it are set to 0.

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When :math:`\\bar k` is 0 or d, or :math:`E[\\mathrm{tr}(C S) \\mid H_0] = 0` (C all
        ones with a constant size).

    Examples
    --------
    >>> from propstab.measures import conger, sechidis, sechidis_exact
    >>> Z = [[1, 0, 1, 0], [0, 1, 1, 1], [1, 0, 0, 0]]           # sizes 2, 3, 1
    >>> C = [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    >>> round(sechidis_exact(Z, similarity=C), 4), round(sechidis(Z, similarity=C), 4)
    (0.3766, 0.2941)
    >>> abs(sechidis_exact(Z) - conger(Z)) < 1e-15                  # C = I
    True
    """
    return effective_stability("sechidis_exact", sel, similarity, threshold, exact=True)


# ----------------------------------------------------------------------------------
# Hamer and Dupont: maximal shared importance


@register(
    name="msi",
    family="correlated",
    summary="mean over pairs of the LP max sum s_fg x_fg / k̄ (shared importance)",
    references=(HAMER + ", eqs 8-12, Properties 5.1-5.3",),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    parameters=(
        SIMILARITY,
        IMPORTANCES,
        Parameter(
            "solver",
            "auto",
            "'auto' exploits structure (integer max flow "
            "for 0/1 similarity and equal importances, assignment for equal "
            "importances and a constant size, batched HiGHS LP otherwise); 'lp' "
            "solves every pair's LP with HiGHS",
            choices=("auto", "lp"),
        ),
    ),
    notes="Property 5.1 (bounds [0, 1]) and 5.2 (fully defined, with S(i, j) = 0 when "
    "exactly one run is empty and 1 when both are) hold. The maximum 1 is reached iff "
    "every importance is fully shared with perfectly similar features (Property 5.3), "
    "so with a non-identity similarity different rows can be maximal ([{0}, {1}] with "
    ":math:`c_{01} = 1` scores 1): the classical maximum axiom is not claimed. Not "
    "monotone (pairs "
    "are normalised by k̄ of their own shares) and not corrected for chance (E = 1/d for "
    "two singletons at C = I). Claims hold for every admissible similarity and "
    "importance matrix (the audit draws both).",
)
def msi(sel, *, similarity=None, importances=None, solver="auto"):
    """Hamer and Dupont's stability as maximal shared importance, phi_msi (eqs 8-12).

    For each pair of runs i < j,

    .. math:: S(i, j) = \\max_{x \\ge 0} \\frac{1}{\\bar k}\\sum_{f \\in F_i}
              \\sum_{g \\in F_j} s_{f,g}\\, x_{f,g}
              \\quad\\text{s.t.}\\quad \\sum_{g} x_{f,g} \\le I_{i,f},\\;
              \\sum_{f} x_{f,g} \\le I_{j,g}

    and :math:`\\phi_{msi} = \\frac{2}{M(M-1)}\\sum_{i<j} S(i, j)`. Importances are
    normalised so that each row sums to k̄ (eq. 7 and the text after it); k̄ then
    cancels, so the LP is solved with the shares ``q_if = I_if / sum_f I_if``. With
    ``importances=None`` every selected feature of run i has the share :math:`1/k_i`. By
    the footnote to eq. 12, S(i, j) = 0 if exactly one of the runs is empty and 1 if
    both are. Only edges with :math:`s_{f,g} > 0` between selected features enter the
    problems:

    - 0/1 similarity and equal importances: one integer maximum-flow problem for all
      pairs (capacities scaled by :math:`k_i k_j`; exact);
    - equal importances and a constant size k: one assignment problem per pair
      (Theorem 5.1: the LP has an integral optimum; S = matching weight / k);
    - otherwise: the LPs, many pairs per call to HiGHS (block-diagonal problems).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
        S with entries in [0, 1] (e.g. absolute Spearman correlations); None: identity.
    importances : M x d array, optional
        Non-negative importances (e.g. absolute model coefficients), zero exactly
        where Z is zero.
    solver : {"auto", "lp"}

    Returns
    -------
    float

    Examples
    --------
    >>> from propstab.measures import msi
    >>> Z = [[1, 0, 1, 0], [0, 1, 1, 0]]
    >>> msi(Z)                                  # identity similarity: r / max(k_i, k_j)
    0.5
    >>> S = [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    >>> msi(Z, similarity=S)
    1.0
    """
    return float(np.mean(msi_pair_values(sel, similarity, importances, solver)))


@register(
    name="yu_matching",
    family="correlated",
    domain="constant_size",
    summary="mean over pairs of the maximum weighted bipartite matching of F_i, F_j / k",
    references=(YU, HAMER + ", sec. 2 and Theorem 5.1"),
    claims=claims(
        fully_defined=False,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    parameters=(SIMILARITY,),
    notes="Defined for a constant subset size only (Hamer sec. 2). Equals msi with equal "
    "importances (Theorem 5.1). With a non-identity similarity different rows reach 1 "
    "and equal total variance gives different values ([{0}, {1}] against [{0}, {2}] with "
    ":math:`c_{01} = 1`: 1 and 0). Bounds [0, 1] hold for every admissible similarity.",
)
def yu_matching(sel, *, similarity=None):
    """Yu et al.'s stability: maximum weighted bipartite matching between runs.

    .. math:: \\hat\\Phi = \\frac{2}{M(M-1)}\\sum_{i<j}\\frac{1}{k}
              \\max_{\\pi} \\sum_{f \\in F_i} s_{f, \\pi(f)}

    over the one-to-one matchings :math:`\\pi` of :math:`F_i` onto :math:`F_j` (the sets of
    runs i and j, :math:`s_i` and :math:`s_j` in the :doc:`/notation`), the edge weights
    being the similarities (Hamer and Dupont, sec. 2). Defined when every run selects the same
    number k > 0 of features; by Theorem 5.1 it equals :func:`msi` with equal
    importances. Solved by ``scipy.optimize.linear_sum_assignment``.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When the row sizes vary or k = 0.

    Examples
    --------
    >>> from propstab.measures import yu_matching
    >>> S = [[1, 0.5, 0], [0.5, 1, 0], [0, 0, 1]]
    >>> yu_matching([[1, 0, 0], [0, 1, 0]], similarity=S)
    0.5
    """
    k = int(sel.row_sizes[0])  # constant on the declared domain
    C = similarity_matrix(sel, similarity)  # validated even where undefined
    if k == 0:
        return undefined("yu_matching", "k = 0")
    return float(np.mean(matching_values(sel, C, k)))


# ----------------------------------------------------------------------------------
# stabm's adjusted measures (shared parts: .adjusted; scores: .matching; null
# expectations: .simulation, .exact_null)


@register(
    name="yu",
    family="correlated",
    summary="(I - E[I]) / ((k_i + k_j)/2 - E[I]), I = |F_i ∩ F_j| + (O_ij + O_ji)/2",
    references=(BOMMERT + ", stabilityYu", YU, ZHANG),
    claims=claims(
        fully_defined=False,
        monotonicity=False,
        bounds=False,
        maximum=False,
        correction_for_chance=True,
    ),
    lower=-math.inf,
    upper=1,
    null_value=0.0,
    scale=TABLE_6_1,
    parameters=(SIMILARITY, THRESHOLD, correction("exact", "closed"), N_SIMULATIONS, RANDOM_STATE),
    r_reference=stabm_reference(
        "stabilityYu",
        note="without similar features stabm switches to the normaliser "
        ":math:`\\sqrt{k_i k_j}` (propstab keeps :math:`(k_i + k_j)/2`)",
        defaults={
            "correction_for_chance": RDefault(
                "estimate",
                (
                    "the null expectation of I has a closed form, so propstab's default is exact; "
                    "stabm's default "
                    "simulates it with N = 10^4 random pairs of subsets per pair of sizes and R's "
                    "random numbers"
                ),
            )
        },
    ),
    notes="The null expectation of :math:`O_{ij}` has a closed form in the degrees of the "
    "similarity graph, so the default correction is exact and "
    ":math:`E[\\hat\\Phi \\mid H_0] = 0` for every "
    "similarity (checked by exact enumeration). With the identity similarity it is "
    "stabm's kappa. Not bounded below: :math:`-(n^2 + 1)/(2n)` for Z = [{0}, {1}] when "
    "feature 0 is similar to none of n mutually similar features." + STABM_NOTES,
)
def yu(
    sel,
    *,
    similarity=None,
    threshold=0.9,
    correction_for_chance="exact",
    n_simulations=10_000,
    random_state=0,
):
    """stabm's adjusted measure of Yu et al. (``stabilityYu``).

    .. math:: I(F_i, F_j) = |F_i \\cap F_j| + \\frac{O_{ij} + O_{ji}}{2},\\quad
              \\hat\\Phi = \\frac{2}{M(M-1)}\\sum_{i<j}
              \\frac{I - E[I|H_0]}{\\frac{k_i + k_j}{2} - E[I|H_0]}

    with :math:`O_{ij}` the number of features of :math:`F_i \\setminus F_j` that have a
    similar feature (similarity >= threshold) in :math:`F_j \\setminus F_i` (:math:`F_i`
    the set of features of run i, :math:`s_i` in the :doc:`/notation`). The exact null
    expectation is

    .. math:: E[O_{ij}] = \\sum_r P(r)\\,\\frac{k_i - r}{d}\\sum_x
              \\Big(1 - \\frac{\\binom{d-1-g_x}{k_j - r}}{\\binom{d-1}{k_j - r}}\\Big)

    with :math:`P(r)` hypergeometric and :math:`g_x` the number of features similar to x.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9
    correction_for_chance : {"exact", "estimate", "none"}
        "none" returns the mean of I (a count, as stabm).
    n_simulations, random_state : for "estimate".

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When two runs are empty, or a pair's null expectation equals its maximum.
    MonteCarloWarning
        With "estimate", when the Monte Carlo error exceeds 0.005.

    Examples
    --------
    >>> from propstab.measures import yu, kappa
    >>> Z = [[1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [0, 1, 1, 0, 0]]
    >>> abs(yu(Z) - kappa(Z)) < 1e-12      # identity similarity: stabm's kappa
    True
    >>> S = [[1, 0, 0, 0, 0], [0, 1, .95, 0, 0], [0, .95, 1, 0, 0], [0, 0, 0, 1, 0],
    ...      [0, 0, 0, 0, 1]]
    >>> round(yu(Z, similarity=S, correction_for_chance="none"), 6)   # (2 + 1 + 1) / 3
    1.333333
    """
    return stabm_measure(
        "yu",
        sel,
        score_yu,
        half_sum,
        similarity=similarity,
        threshold=threshold,
        correction=correction_for_chance,
        n_simulations=n_simulations,
        random_state=random_state,
        exact=expected_yu,
    )


@register(
    name="zucknick",
    family="correlated",
    summary="(|F_i ∩ F_j| + C(F_i, F_j) + C(F_j, F_i)) / |F_i ∪ F_j|",
    references=(BOMMERT + ", stabilityZucknick", ZUCKNICK),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    parameters=(SIMILARITY, THRESHOLD, correction("none", "closed"), N_SIMULATIONS, RANDOM_STATE),
    r_reference=stabm_reference("stabilityZucknick", adjusted=False),
    notes="Bounded by [0, 1]: :math:`(k_j - r) k_i / k_j + (k_i - r) k_j / k_i "
    "\\le k_i + k_j - 2r`. "
    "With correction_for_chance='exact' the null expectation is exact (a sum over the "
    "hypergeometric intersection)." + STABM_NOTES,
)
def zucknick(
    sel,
    *,
    similarity=None,
    threshold=0.9,
    correction_for_chance="none",
    n_simulations=10_000,
    random_state=0,
):
    """Zucknick et al.'s measure as adapted by stabm (``stabilityZucknick``).

    .. math:: \\phi(F_i, F_j) = \\frac{|F_i \\cap F_j| + C(F_i, F_j) + C(F_j, F_i)}
              {|F_i \\cup F_j|},\\quad C(F_k, F_l) = \\frac{1}{|F_l|}
              \\sum_{x \\in F_k,\\, y \\in F_l \\setminus F_k} s'(x, y)

    with s' the similarity with entries below the threshold set to 0.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9
    correction_for_chance : {"none", "exact", "estimate"}
    n_simulations, random_state : for "estimate".

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When two runs are both empty.

    Examples
    --------
    >>> from propstab.measures import zucknick, jaccard
    >>> Z = [[1, 1, 0, 0], [1, 0, 1, 0]]
    >>> zucknick(Z) == jaccard(Z)
    True
    >>> S = [[1, 0, 0, 0], [0, 1, .95, 0], [0, .95, 1, 0], [0, 0, 0, 1]]
    >>> round(zucknick(Z, similarity=S), 6)      # (1 + 0.95/2 + 0.95/2) / 3
    0.65
    """
    return stabm_measure(
        "zucknick",
        sel,
        score_zucknick,
        one,
        similarity=similarity,
        threshold=threshold,
        correction=correction_for_chance,
        n_simulations=n_simulations,
        random_state=random_state,
        exact=expected_zucknick,
    )


#: The audited variant of the adjusted intersections: with the exact null expectation
#: (enumerated over the similarity graph's components) the correction holds exactly.
EXACT_INTERSECTION = Variant(
    {"correction_for_chance": "exact"},
    {Axiom.CORRECTION_FOR_CHANCE: True},
    reason=":math:`E[I \\mid H_0]` is computed exactly (propstab.measures.exact_null), so "
    "each pair's "
    "adjusted score has null expectation 0 and so has the mean over pairs",
)


def _register_intersection(name, function, summary, notes=""):
    return register(
        name=name,
        family="correlated",
        summary=summary,
        references=(
            BOMMERT + ", " + function,
            "Bommert, A., Rahnenfuehrer, J. (2020). Adjusted measures for feature "
            "selection stability for data sets with similar features. LOD 2020, LNCS "
            "12565, 203-214",
        ),
        claims=claims(
            fully_defined=False,
            monotonicity=False,
            bounds=False,
            maximum=False,
            correction_for_chance=False,
        ),
        lower=-math.inf,
        upper=1,
        parameters=(
            SIMILARITY,
            THRESHOLD,
            correction("estimate", "components"),
            N_SIMULATIONS,
            RANDOM_STATE,
        ),
        r_reference=stabm_reference(function),
        variants=(EXACT_INTERSECTION,),
        notes=":math:`E[I \\mid H_0]` has no closed form (it depends on the whole similarity "
        "graph). The "
        "default correction is simulated as in stabm: corrected for chance only up to "
        "Monte Carlo error, hence not claimed (M = 2, d = 3, k = (1, 1), "
        ":math:`c_{01} = 1`: :math:`E[I \\mid H_0] = 5/9` exactly, "
        ":math:`E[\\hat\\Phi \\mid H_0] = -0.001` at :math:`10^4` draws). "
        "correction_for_chance='exact' computes :math:`E[I \\mid H_0]` exactly by "
        "enumeration over "
        "the similarity graph's connected components (stabm's 'exact' enumerates all "
        "pairs of subsets; docs/correlated.md), with null expectation 0. Not bounded below "
        "(the estimand is :math:`-(n^2 + 1)/(2n)` on yu's family). Without any similar "
        "features I = r and "
        ":math:`E[I \\mid H_0] = k_i k_j / d` exactly." + notes + STABM_NOTES,
    )


@_register_intersection(
    "intersection_count",
    "stabilityIntersectionCount",
    "corrected |F_i ∩ F_j| + min(#F_i-side, #F_j-side with a similar partner)",
)
@with_formula
def intersection_count(
    sel,
    *,
    similarity=None,
    threshold=0.9,
    correction_for_chance="estimate",
    n_simulations=10_000,
    random_state=0,
):
    """stabm's adjusted intersection with counts (``stabilityIntersectionCount``).

    :math:`I(F_i, F_j) = |F_i \\cap F_j| + \\min(C_{ij}, C_{ji})`, with :math:`C_{ij}` the
    number of x in :math:`F_i \\setminus F_j` having a similar y in
    :math:`F_j \\setminus F_i` (:math:`F_i` the set of run i, :math:`s_i` in the
    :doc:`/notation`).

    Examples
    --------
    >>> from propstab.measures import intersection_count
    >>> S = [[1, .95, 0, 0], [.95, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    >>> intersection_count([[1, 0, 1, 0], [0, 1, 1, 0]], similarity=S,
    ...                    correction_for_chance="none")
    2.0
    """
    return adjusted_intersection(
        "intersection_count",
        sel,
        score_count,
        similarity,
        threshold,
        correction_for_chance,
        n_simulations,
        random_state,
    )


@_register_intersection(
    "intersection_mean",
    "stabilityIntersectionMean",
    "corrected |F_i ∩ F_j| + min of summed mean similarities",
)
@with_formula
def intersection_mean(
    sel,
    *,
    similarity=None,
    threshold=0.9,
    correction_for_chance="estimate",
    n_simulations=10_000,
    random_state=0,
):
    """stabm's adjusted intersection with mean similarities (``stabilityIntersectionMean``).

    :math:`I(F_i, F_j) = |F_i \\cap F_j| + \\min(C_{ij}, C_{ji})`, with :math:`C_{ij}` the
    sum over x in :math:`F_i \\setminus F_j` of the mean similarity of x to its similar
    features in :math:`F_j \\setminus F_i` (:math:`F_i` the set of run i, :math:`s_i` in
    the :doc:`/notation`).

    Examples
    --------
    >>> from propstab.measures import intersection_mean
    >>> S = [[1, .95, .9, 0], [.95, 1, 0, 0], [.9, 0, 1, 0], [0, 0, 0, 1]]
    >>> intersection_mean([[1, 0, 0, 1], [0, 1, 1, 1]], similarity=S,
    ...                   correction_for_chance="none")       # 1 + min(0.925, 1.85)
    1.925
    """
    return adjusted_intersection(
        "intersection_mean",
        sel,
        score_mean,
        similarity,
        threshold,
        correction_for_chance,
        n_simulations,
        random_state,
    )


@_register_intersection(
    "intersection_greedy",
    "stabilityIntersectionGreedy",
    "corrected |F_i ∩ F_j| + greedy matching of similar features",
    notes=" Ties between equal similarities are taken in column-major "
    "order of the difference block; stabm's order of tied entries "
    "follows its sparse storage and may differ.",
)
@with_formula
def intersection_greedy(
    sel,
    *,
    similarity=None,
    threshold=0.9,
    correction_for_chance="estimate",
    n_simulations=10_000,
    random_state=0,
):
    """stabm's adjusted intersection with a greedy matching (``stabilityIntersectionGreedy``).

    :math:`I(F_i, F_j) = |F_i \\cap F_j|` + the size of the matching built greedily between
    :math:`F_i \\setminus F_j` and :math:`F_j \\setminus F_i`, taking similar pairs by
    decreasing similarity (:math:`F_i` the set of run i, :math:`s_i` in the
    :doc:`/notation`).

    Examples
    --------
    >>> from propstab.measures import intersection_greedy
    >>> S = [[1, 0, .95, .92], [0, 1, .91, 0], [.95, .91, 1, 0], [.92, 0, 0, 1]]
    >>> intersection_greedy([[1, 1, 0, 0], [0, 0, 1, 1]], similarity=S,
    ...                     correction_for_chance="none")   # 0-2 first, then 1-3 is no edge
    1.0
    """
    return adjusted_intersection(
        "intersection_greedy",
        sel,
        score_greedy,
        similarity,
        threshold,
        correction_for_chance,
        n_simulations,
        random_state,
    )


@_register_intersection(
    "intersection_mbm",
    "stabilityIntersectionMBM",
    "corrected |F_i ∩ F_j| + maximum bipartite matching of similar features",
)
@with_formula
def intersection_mbm(
    sel,
    *,
    similarity=None,
    threshold=0.9,
    correction_for_chance="estimate",
    n_simulations=10_000,
    random_state=0,
):
    """stabm's adjusted intersection with a maximum matching (``stabilityIntersectionMBM``).

    :math:`I(F_i, F_j) = |F_i \\cap F_j| + \\mathrm{MBM}(F_i \\setminus F_j,
    F_j \\setminus F_i)`, the size of a
    maximum bipartite matching in the graph of similar pairs (:math:`F_i` the set of run
    i, :math:`s_i` in the :doc:`/notation`); all pairs of runs are
    solved in one call of ``scipy.sparse.csgraph.maximum_bipartite_matching`` on the
    block-diagonal graph.

    Examples
    --------
    >>> from propstab.measures import intersection_mbm
    >>> S = [[1, 0, .95, .92], [0, 1, .91, 0], [.95, .91, 1, 0], [.92, 0, 0, 1]]
    >>> intersection_mbm([[1, 1, 0, 0], [0, 0, 1, 1]], similarity=S,
    ...                  correction_for_chance="none")     # 0-3 and 1-2
    2.0
    """
    return adjusted_intersection(
        "intersection_mbm",
        sel,
        score_mbm,
        similarity,
        threshold,
        correction_for_chance,
        n_simulations,
        random_state,
    )


# ----------------------------------------------------------------------------------
# Zhang et al.: POGR and nPOGR; Pearson correlation of importances


@register(
    name="pogr",
    family="correlated",
    summary="(|F_i ∩ F_j| + O_ij) / k_i over ordered pairs",
    references=(ZHANG, HAMER + ", eq. 4"),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    parameters=(SIMILARITY, THRESHOLD),
    notes=":math:`O_{ij}` counts the features of :math:`F_i` not in :math:`F_j` with a "
    "similar (>= threshold) feature in "
    ":math:`F_j` (Hamer's reading of Zhang et al.). With a non-identity similarity "
    "different "
    "rows reach 1; with the identity it is POG.",
)
def pogr(sel, *, similarity=None, threshold=0.9):
    """Zhang et al.'s percentage of overlapping genes-related, POGR (Hamer eq. 4).

    .. math:: \\mathrm{POGR} = \\frac{1}{M(M-1)}\\sum_{i \\ne j}
              \\frac{|F_i \\cap F_j| + O_{ij}}{k_i}

    with :math:`O_{ij}` the number of features selected in run i, not in run j, but similar
    (similarity >= threshold) to at least one feature selected in run j (:math:`F_i` the
    set of run i, :math:`s_i` in the :doc:`/notation`).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a run is empty.

    Examples
    --------
    >>> from propstab.measures import pogr
    >>> S = [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    >>> pogr([[1, 0, 1, 0], [0, 1, 1, 0]], similarity=S)
    1.0
    """
    r, O, _ = pogr_parts(sel, similarity, threshold)
    k = sel.row_sizes.astype(np.float64)
    return pair_mean("pogr", r + O, np.broadcast_to(k[:, None], r.shape), "a run is empty")


@register(
    name="npogr",
    family="correlated",
    summary="(|F_i ∩ F_j| + O_ij - E_ij) / (k_i - E_ij) over ordered pairs, E_ij exact",
    references=(ZHANG, HAMER + ", eq. 4", SECHIDIS + ", sec. 2.2"),
    claims=claims(
        fully_defined=False,
        monotonicity=False,
        bounds=False,
        maximum=False,
        correction_for_chance=True,
    ),
    lower=-math.inf,
    upper=1,
    null_value=0.0,
    scale=TABLE_6_1,
    parameters=(SIMILARITY, THRESHOLD),
    notes="Zhang et al. estimate :math:`E_{ij} = E[|F_i \\cap F_j| + O_{ij} \\mid H_0]` by "
    "simulation; propstab "
    "uses its exact value (independent uniformly random subsets), so "
    ":math:`E[\\hat\\Phi \\mid H_0] = 0`. "
    "With the identity similarity it is nPOG. Not bounded below (as nPOG), undefined "
    "when :math:`E_{ij} = k_i` (e.g. a complete similarity graph).",
)
def npogr(sel, *, similarity=None, threshold=0.9):
    """Zhang et al.'s normalised POGR with the exact null expectation.

    .. math:: \\mathrm{nPOGR} = \\frac{1}{M(M-1)}\\sum_{i \\ne j}
              \\frac{|F_i \\cap F_j| + O_{ij} - E_{ij}}{k_i - E_{ij}},\\quad
              E_{ij} = \\frac{k_i k_j}{d} + \\frac{k_i}{d}\\sum_x\\Big(\\frac{d - k_j}{d}
              - \\frac{\\binom{d-1-g_x}{k_j}}{\\binom{d}{k_j}}\\Big)

    with :math:`g_x` the number of features similar to x (:math:`F_i` the set of run i,
    :math:`s_i` in the :doc:`/notation`).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When :math:`k_i = E_{ij}` for some pair (an empty run, a run of all features).

    Examples
    --------
    >>> from propstab.measures import npogr, npog
    >>> Z = [[1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [0, 1, 1, 0, 0]]
    >>> abs(npogr(Z) - npog(Z)) < 1e-12       # identity similarity
    True
    """
    return pair_mean(
        "npogr",
        *npogr_parts(sel, similarity, threshold),
        "a run's size equals the pair's null expectation (0/0)",
    )


@register(
    name="pearson",
    family="correlated",
    aliases=("phi_pears",),
    summary="mean over pairs of the Pearson correlation of the importance rows w_i, w_j",
    references=(
        HAMER + ", eq. 5",
        "Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection "
        "algorithms. Knowl. Inf. Syst. 12(1), 95-116",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=False,
    ),
    lower=-1,
    upper=1,
    parameters=(IMPORTANCES,),
    notes="With importances=None (weights 0/1) it is the phi coefficient measure `phi`, "
    "which also has the maximum and correction-for-chance properties; with "
    "importances, identical selections with different weights are not maximal "
    "(:math:`\\sqrt{3}/2` for rows [110, 110] weighted (1, 1) and (1, 2)) and, for "
    "importances W = Z * U with fixed positive weights U, "
    ":math:`E[\\hat\\Phi \\mid H_0] = (4 - 2\\sqrt{3})/9` at "
    "d = 3, k = (2, 2), U = (1, 2, 1) for both runs, so these are not claimed.",
)
def pearson(sel, *, importances=None):
    """phi_pears: the average Pearson correlation between weight vectors (Hamer eq. 5).

    .. math:: \\phi_{pears} = \\frac{2}{M(M-1)}\\sum_{i<j}
              \\frac{\\sum_f (w_{i,f} - \\mu_i)(w_{j,f} - \\mu_j)}
              {\\sqrt{\\sum_f (w_{i,f} - \\mu_i)^2}\\sqrt{\\sum_f (w_{j,f} - \\mu_j)^2}}

    computed from the sparse Gram matrix ``W W^T - d mu mu^T``. With binary weights
    (``importances=None``) it is the phi coefficient (:func:`propstab.measures.phi`).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    importances : M x d array, optional
        The weights w (zero exactly where Z is 0); None uses Z itself.

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a run's weights are constant (an empty run, or all d features with equal
        weights).

    Examples
    --------
    >>> from propstab.measures import pearson, phi
    >>> Z = [[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 0]]
    >>> abs(pearson(Z) - phi(Z)) < 1e-12
    True
    >>> round(pearson(Z, importances=[[2, 1, 0, 0], [1, 0, 1, 0], [3, 1, 1, 0]]), 6)
    0.629662
    """
    return pair_mean("pearson", *pearson_parts(sel, importances), "a run's weights are constant")


__test__ = module_doctests(__name__)
