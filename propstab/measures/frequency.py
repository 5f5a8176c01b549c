"""Frequency-based stability measures.

These read Z through its column counts F_f = M p_f (how many runs selected
feature f), the row sizes k_i and N = sum_i k_i (thesis sec. 3.2; Somol and
Novovicova 2010, where n = M, |Y| = d and F_f are the feature frequencies).
Sums of integers are formed exactly (Python integers) before the one division.

This module holds the declarations; the formulas' summaries live in
:mod:`~propstab.measures.kernels`, CW_rel's extremes and Krizek's maximum in
:mod:`~propstab.measures.extremes`, and the exact null expectations of the corrected
global scores (Davis, Novovicova) in :mod:`~propstab.measures.count_nulls`.
"""
from __future__ import annotations

import math

import numpy as np

from ..registry import (
    Bound,
    ExpectedDifference,
    Parameter,
    RReference,
    Variant,
    claims,
    module_doctests,
    register,
)
from ..axioms import Axiom
from ._variance import conger_delta, thm6
from .count_nulls import davis_expectation, novovicova_expectation
from .extremes import cw_extremes, cw_extremes_equal, cw_max, cw_min, krizek_upper  # noqa: F401
from .kernels import count_kernel, divide, xlogx
from .r_differences import NAN_NOT_NA
from .references import BOMMERT, SOMOL, TABLE_6_1, THESIS

CONGER = (
    "Conger, A. J. (1980). Integration and generalization of kappas for multiple "
    "raters. Psychological Bulletin 88(2), 322-328. doi:10.1037/0033-2909.88.2.322"
)
NOVOVICOVA = (
    "Novovicova, J., Somol, P., Haindl, M., Pudil, P. (2009). Conditional mutual "
    "information based feature selection for classification task. CIARP"
)

CORRECTION_GLOBAL = Parameter(
    "correction_for_chance",
    "none",
    "'exact': :math:`(\\hat\\Phi - E[\\hat\\Phi \\mid H_0]) / (1 - E[\\hat\\Phi \\mid H_0])` "
    "with the exact expectation of the whole "
    "score under the null model (not stabm's pairwise expectation, see the docs).",
    choices=("none", "exact"),
)


LN2 = math.log(2.0)


# ------------------------------------------------- known differences of the R reference


def _global_score_many_runs(measure, sel, options) -> bool:
    return options.get("correction_for_chance") == "exact" and sel.n_runs > 2


def _davis_penalty(measure, sel, options) -> bool:
    return options.get("correction_for_chance") == "exact" and options.get("penalty", 0) > 0


def _single_subject(measure, sel, options) -> bool:
    return sel.n_features == 1


def _equal_extremes(measure, sel, options) -> bool:
    return cw_extremes_equal(sel)


CORRECTED_GLOBAL_SCORE = ExpectedDifference(
    key="corrected_global_score",
    r_functions=("stabm::stabilityDavis", "stabm::stabilityNovovicova"),
    summary="corrected Davis and Novovicova subtract pairwise expectations from a " "global score",
    reason="with correction.for.chance, stabm computes the global score S of all M runs, "
    "then for every pair of runs i, j the expectation Eᵢⱼ of the score of two random "
    "runs of sizes kᵢ and kⱼ, and returns the mean over the pairs of "
    "(S - Eᵢⱼ) / (max - Eᵢⱼ). The "
    "expectation of S itself depends on all M sizes, so for M > 2 the result is "
    "not corrected for chance (its null expectation is not 0). propstab subtracts "
    "the exact expectation of S under the null model (union-size law for Davis, "
    "Poisson-binomial column counts for Novovicova). For M = 2 both coincide "
    "(with Davis's penalty 0, see davis_penalty_maximum).",
    example="stabilityDavis(list(1:2, 2:3, c(1, 3)), p = 4, correction.for.chance = "
    '"exact"); stabilityNovovicova(list(1:2, 2:3, c(1, 3)), p = 4, '
    'correction.for.chance = "exact")',
    r_result="-0.0909090909 (Davis); 0.2618595071 (Novovicova)",
    propstab_result="0.1910112360 (Davis); 0.1506549719 (Novovicova); for M = 2, "
    "list(1:2, 2:3): both give -0.0909090909 (Davis) and 0 (Novovicova)",
    applies=_global_score_many_runs,
)

DAVIS_PENALTY_MAXIMUM = ExpectedDifference(
    key="davis_penalty_maximum",
    r_functions=("stabm::stabilityDavis",),
    summary="corrected Davis with a penalty: stabm normalises by "
    "max(1 - penalty/p, floor((M-1)/2)/M), propstab by 1",
    reason="stabm's maximum for Davis is max(1 - penalty/p, floor((M - 1)/2)/M), whatever "
    "the sizes; propstab's correction (Phi - E) / (1 - E) uses the measure's "
    "declared maximum 1. Neither is the maximum over matrices with the observed "
    "sizes (1 - penalty * median(k)/d for identical rows), so the two differ by the "
    "normalising constant even for M = 2; where stabm's maximum equals the "
    "expectation (e.g. both 0 when penalty >= p) stabm gives NA, propstab 0.",
    example='stabilityDavis(list(1:2, 2:3), p = 4, correction.for.chance = "exact", '
    "penalty = 1)",
    r_result="-0.05",
    propstab_result="-0.0344827586 (= -1/29)",
    applies=_davis_penalty,
)

SOMOL_EQUAL_EXTREMES = ExpectedDifference(
    key="somol_equal_extremes",
    r_functions=("stabm::stabilitySomol",),
    summary="stabm's Somol is NaN/NA where CW_max = CW_min; Somol and Novovicova define "
    "CW_rel = CW there",
    reason="Somol and Novovicova (2010) eq. 6 set CW_rel = CW when CW_max = CW_min; stabm "
    "divides by zero (NaN) and returns NA explicitly when every run selects all p "
    "features. propstab follows the paper.",
    example="stabilitySomol(list(1, 1:2), p = 2); stabilitySomol(list(1:2, 1:2), p = 2)",
    r_result="NaN; NA",
    propstab_result="CW = 2/3; CW = 1",
    applies=_equal_extremes,
)

IRR_SINGLE_SUBJECT = ExpectedDifference(
    key="irr_single_subject",
    r_functions=("irr::kappam.fleiss",),
    summary="irr::kappam.fleiss fails for a single subject (d = 1)",
    reason="kappam.fleiss first removes rows with NA by ratings[keep, ], which drops a "
    "one-row matrix to a vector, so ncol() is NULL and the loop 1:nr fails. Fleiss' "
    "kappa of one subject is defined when the raters disagree; propstab's nogueira "
    "(equal to it, thesis Thm 5) gives -1/(M - 1) for Z = [[1], [0]], and conger "
    "(Cohen's kappa for M = 2) 0; irr fails with exact = TRUE too.",
    example="irr::kappam.fleiss(matrix(c(1L, 0L), nrow = 1))",
    r_result="error: argument of length 0 (in 1:nr)",
    propstab_result="nogueira([[1], [0]]) = -1.0; conger([[1], [0]]) = 0.0",
    applies=_single_subject,
)


@register(
    name="nogueira",
    family="frequency",
    summary="1 - mean_f s_f^2 / ((k̄/d)(1 - k̄/d))",
    references=(
        THESIS + ", Definition 3",
        "Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature "
        "selection algorithms. JMLR 18(174), 1-54",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=True,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=-1,
    upper=1,
    analytic_variance=thm6,
    scale=TABLE_6_1,
    r_reference=RReference("stabm", "stabilityNogueira"),
    r_also=(
        RReference(
            "irr",
            "kappam.fleiss",
            input="ratings",
            note="Fleiss' kappa of the d x M ratings equals nogueira (thesis Thm 5)",
            differences=(IRR_SINGLE_SUBJECT,),
        ),
    ),
    notes=(
        "The tight lower bound is -1/(M-1) (thesis App. B.6); the constant bound is -1. "
        "Correction for chance holds for a constant size (E = 0, thesis Thm 4) but not for "
        "fixed sizes that differ: :math:`E[\\hat\\Phi \\mid H_0] = -\\sum_i (k_i - \\bar k)^2 "
        "/ (M (M-1) \\bar k (d - \\bar k))`, "
        "e.g. -1/9 for M = 2, d = 3, k = (1, 2). Thesis Thm 3 assumes identically "
        "distributed rows; see docs/table41.md. conger divides by the exact null "
        "expectation instead (docs/varying_sizes.md)."
    ),
)
@count_kernel(
    undefined_when=lambda c: (c.total == 0) | (c.total == c.n_runs * c.n_features),
    reason="the mean subset size is 0 or d",
)
def nogueira(c):
    """Nogueira's stability estimator (thesis Definition 3).

    .. math:: \\hat\\Phi(Z) = 1 - \\frac{\\frac{1}{d}\\sum_f s_f^2}
              {\\frac{\\bar k}{d}\\left(1 - \\frac{\\bar k}{d}\\right)},\\qquad
              s_f^2 = \\frac{M}{M-1}\\hat p_f (1 - \\hat p_f)

    computed exactly from integer sums as
    ``1 - M d (M N - sum F_f^2) / ((M - 1) N (M d - N))``. It equals Fleiss' kappa
    of the M x d ratings (thesis Thm 5) and, for a constant size, Kuncheva's,
    Wald's and nPOG's measures (Thm 4). Its minimum is -1/(M-1) (App. B.6).

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When k̄ is 0 or d (no run selects anything, or every run selects everything).

    Examples
    --------
    >>> from propstab.measures import nogueira
    >>> nogueira([[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0]])
    1.0
    >>> nogueira([[1, 0], [0, 1]])      # the minimum -1/(M-1)
    -1.0
    """
    M, d, N, S2 = c.n_runs, c.n_features, c.total, c.sum_squares
    return 1.0 - (M * d * (M * N - S2)) / ((M - 1) * N * (M * d - N))


@register(
    name="conger",
    family="frequency",
    aliases=("fleiss_exact",),
    summary="1 - mean_f s_f^2 / E[mean_f s_f^2 | H0]: Nogueira's estimator corrected for "
    "chance exactly for any sizes",
    references=(
        CONGER,
        "Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability "
        "and agreement. R package 0.84.1, kappam.fleiss(exact = TRUE)",
        THESIS + ", Definitions 2 and 3",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=True,
        bounds=True,
        maximum=True,
        correction_for_chance=True,
    ),
    lower=-1,
    upper=1,
    null_value=0.0,
    analytic_variance=conger_delta,
    scale=TABLE_6_1,
    r_reference=RReference(
        "irr",
        "kappam.fleiss",
        input="ratings",
        fixed={"exact": True},
        note="irr's exact kappa (Conger 1980) of the d x M ratings",
        differences=(IRR_SINGLE_SUBJECT,),
    ),
    notes=(
        "Equal to nogueira when the subset size is constant; otherwise larger by a "
        "factor of :math:`(1 - \\hat\\Phi_{nogueira})\\,\\mathrm{var}_{pop}(k/d) / "
        "((M - 1)\\, E[A \\mid H_0])` (docs/varying_sizes.md). "
        "Its null expectation is 0 for every M, d and row sizes (the denominator is the "
        "exact null expectation of the numerator); nogueira's is "
        ":math:`-\\mathrm{var}_{pop}(k/d) / ((M-1)\\, \\bar q (1 - \\bar q))`. "
        "The tight lower bound is -1/(M-1), as nogueira's; the constant bound is -1."
    ),
)
@count_kernel(
    undefined_when=lambda c: (c.total == 0) | (c.total == c.n_runs * c.n_features),
    reason="the mean subset size is 0 or d",
)
def conger(c):
    """Conger's kappa: Nogueira's estimator corrected for chance exactly, for any sizes.

    .. math:: \\hat\\Phi_C(Z) = 1 - \\frac{\\frac{1}{d}\\sum_f s_f^2}
              {E\\big[\\frac{1}{d}\\sum_f s_f^2 \\mid H_0\\big]}
              = 1 - \\frac{\\frac{1}{d}\\sum_f s_f^2}
              {\\bar q (1 - \\bar q) + \\frac{1}{M - 1}\\cdot\\frac{1}{M}
               \\sum_i (q_i - \\bar q)^2}

    with :math:`s_f^2 = \\frac{M}{M-1}\\hat p_f(1 - \\hat p_f)`, :math:`q_i = k_i/d` and
    :math:`\\bar q = \\bar k/d`. Under the thesis's null model (Definition 2: run i is a
    uniformly random subset of its size :math:`k_i`) column f's count is a sum of
    independent :math:`\\mathrm{Bernoulli}(q_i)`, which gives the denominator; so
    :math:`E[\\hat\\Phi_C \\mid H_0] = 0` for every M, d and sizes (the symbols are defined
    in the :doc:`/notation`). Nogueira's estimator (:func:`nogueira`) has
    :math:`\\bar q (1 - \\bar q)`
    alone in the denominator and equals this measure exactly when the size is
    constant; with sizes that vary it is smaller, and its null expectation is
    negative. Equivalently, with :math:`H_{ij} = |S_i \\triangle S_j|` the Hamming distance
    of two runs,

    .. math:: \\hat\\Phi_C(Z) = 1 - \\frac{\\sum_{i \\ne j} H_{ij}}
              {\\sum_{i \\ne j} E[H_{ij} \\mid H_0]},\\qquad
              E[H_{ij} \\mid H_0] = \\frac{k_i (d - k_j) + k_j (d - k_i)}{d},

    which is Conger's (1980) kappa for M raters (each rater's own marginals in the
    chance agreement), irr's ``kappam.fleiss(ratings, exact = TRUE)`` of the d x M
    ratings, and for M = 2 Cohen's kappa of the two runs. Computed exactly from
    integer sums as :math:`1 - d (M N - \\sum_f F_f^2) / ((M - 1) d N - N^2 + \\sum_i k_i^2)`.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When k̄ is 0 or d (no run selects anything, or every run selects everything).

    See Also
    --------
    nogueira : The same numerator over the constant-size null expectation.

    Notes
    -----
    The analytic variance of :func:`propstab.estimate` is the delta method for the
    ratio of the two U-statistics above,
    which for a constant size is thesis Thm 6. See docs/varying_sizes.md.

    Examples
    --------
    >>> from propstab.measures import conger, nogueira
    >>> Z = [[1, 1, 0, 0], [1, 1, 1, 0], [1, 0, 0, 0]]       # sizes 2, 3, 1
    >>> round(conger(Z), 4), round(nogueira(Z), 4)
    (0.3846, 0.3333)
    >>> conger([[1, 1, 0, 0], [1, 0, 1, 0]]) == nogueira([[1, 1, 0, 0], [1, 0, 1, 0]])
    True
    """
    M, d, N, S2, K2 = c.n_runs, c.n_features, c.total, c.sum_squares, c.size_squares
    return 1.0 - (d * (M * N - S2)) / ((M - 1) * d * N - N * N + K2)


@register(
    name="goh",
    family="frequency",
    summary="(1/d) sum_f p_f = k̄/d",
    references=(
        "Goh, W. W. B., Wong, L. (2016). Evaluating feature-selection stability in "
        "next-generation proteomics. J. Bioinform. Comput. Biol. 14(5)",
        THESIS + ", Table 3.2 and eq. B.1",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
)
@count_kernel()
def goh(c):
    """Goh and Wong's average frequency of selection.

    .. math:: \\hat\\Phi(Z) = \\frac{1}{d}\\sum_f \\hat p_f = \\frac{\\bar k}{d}

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional

    Returns
    -------
    float

    Examples
    --------
    >>> from propstab.measures import goh
    >>> goh([[1, 1, 0, 0], [1, 0, 0, 0]])
    0.375
    """
    return c.total / (c.n_runs * c.n_features)


@register(
    name="davis",
    family="frequency",
    summary="max(0, (1/F) sum_f p_f - penalty * median(k)/d), F = |union of runs|",
    references=(
        "Davis, C. A. et al. (2006). Reliable gene signatures for microarray "
        "classification: assessment of stability and performance. Bioinformatics "
        "22(19), 2356-2363",
        THESIS + ", Table 3.2",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    parameters=(
        Parameter(
            "penalty",
            0.0,
            "alpha >= 0, the weight of the size penalty " "median(k)/d (stabm's default 0)",
            minimum=0.0,
        ),
        CORRECTION_GLOBAL,
    ),
    r_reference=RReference(
        "stabm",
        "stabilityDavis",
        arguments={"penalty": "penalty", "correction_for_chance": "correction.for.chance"},
        differences=(CORRECTED_GLOBAL_SCORE, DAVIS_PENALTY_MAXIMUM),
    ),
    variants=(
        Variant(
            {"penalty": 0.5},
            {Axiom.MAXIMUM: False},
            reason="with a penalty alpha > 0 identical rows score 1 - alpha median(k)/d "
            "< 1, so they do not reach the maximum 1 (thesis Table 4.1's Davis)",
        ),
        Variant(
            {"correction_for_chance": "exact"},
            {Axiom.CORRECTION_FOR_CHANCE: True},
            lower=-1,
            reason=":math:`(\\hat\\Phi - E[\\hat\\Phi \\mid H_0]) / "
            "(1 - E[\\hat\\Phi \\mid H_0])` with the exact union-size law: "
            "the null expectation is 0 for every configuration",
        ),
    ),
    notes="With correction_for_chance='exact', propstab subtracts the exact null expectation "
    "of the whole score (union size by its exact law); stabm subtracts a pairwise "
    "expectation from the global score, which is not a correction for chance when M > 2. "
    "The claims are those of the default penalty 0, where the value is 1 exactly when "
    "all runs are identical (MAXIMUM); with a penalty > 0, as in thesis Table 4.1, "
    "identical runs score 1 - penalty median(k)/d and MAXIMUM fails.",
)
@count_kernel(
    undefined_when=lambda c: c.total == 0,
    reason="no run selects any feature",
    expectation=davis_expectation,
    maximal_when_identical=lambda penalty=0.0: penalty == 0,
)
def davis(c, *, penalty=0.0):
    """Davis et al.'s penalised frequency of selection.

    .. math:: \\hat\\Phi(Z) = \\max\\left(0, \\frac{1}{F}\\sum_f \\hat p_f
              - \\alpha\\,\\frac{\\mathrm{median}(k_1, \\dots, k_M)}{d}\\right)

    with F the number of features selected in at least one run.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional
    penalty : float, default 0
        alpha >= 0.
    correction_for_chance : {"none", "exact"}
        ``"exact"``: :math:`(\\hat\\Phi - E[\\hat\\Phi \\mid H_0]) / (1 - E[\\hat\\Phi \\mid H_0])`
        with the exact null expectation, the union size F following its exact law under
        :math:`H_0`.

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When no run selects any feature.

    Examples
    --------
    >>> from propstab.measures import davis
    >>> davis([[1, 1, 0, 0], [1, 0, 0, 0]])
    0.75
    >>> davis([[1, 1, 0, 0], [1, 0, 0, 0]], penalty=1.0)
    0.375
    """
    return np.maximum(
        0.0, c.total / (c.n_runs * c.n_union) - penalty * c.median_size / c.n_features
    )


@register(
    name="krizek",
    family="frequency",
    orientation="lower",
    domain="constant_size",
    summary="-sum_s p(s) log2 p(s) over the distinct feature sets s",
    references=(
        "Krizek, P., Kittler, J., Hlavac, V. (2007). Improving stability of feature "
        "selection methods. CAIP, LNCS 4673, 929-936",
        THESIS + ", Table 3.2",
    ),
    claims=claims(
        fully_defined=False,
        monotonicity=False,
        bounds=False,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=0,
    upper=Bound("log2(min(M, C(d, k)))", func=lambda M, d, k: krizek_upper(M, d, k)),
)
@count_kernel()
def krizek(c):
    """Krizek et al.'s entropy of the feature sets (lower is more stable).

    .. math:: \\hat\\Phi(Z) = -\\sum_{s} \\hat p(s) \\log_2 \\hat p(s)

    over the distinct subsets s in Z, with :math:`\\hat p(s)` their frequency.
    Defined for a constant subset size (thesis sec. 3.2.3). With :math:`c_s = M \\hat p(s)`
    the number of runs that chose s, it is computed as
    :math:`(M \\ln M - \\sum_s c_s \\ln c_s) / (M \\ln 2)`.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When the row sizes vary.

    Examples
    --------
    >>> from propstab.measures import krizek
    >>> krizek([[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]])
    1.0
    """
    M = c.n_runs
    return (xlogx(M) - c.subset_xlogx) / (M * LN2) + 0.0


@register(
    name="guzman",
    family="frequency",
    domain="constant_size",
    summary="1 - D_JS(q_1..q_M) / D*_JS = 1 - sum_f p_f log p_f / (k log(k/d))",
    references=(
        "Guzman-Martinez, R., Alaiz-Rodriguez, R. (2011). Feature selection stability "
        "assessment based on the Jensen-Shannon divergence. ECML PKDD, LNCS 6911",
        THESIS + ", eq. B.2",
    ),
    claims=claims(
        fully_defined=False,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    notes=(
        "Not corrected for chance, contrary to thesis Table 4.1: "
        ":math:`E[\\hat\\Phi \\mid H_0] = 1/2` for M = 2, "
        "d = 2, k = 1. The Jensen argument of thesis App. B.5 divides by k log(k/d) < 0 "
        "without reversing the inequality; it only shows E >= 0. See docs/table41.md."
    ),
)
@count_kernel(
    undefined_when=lambda c: (c.size == 0) | (c.size == c.n_features),
    reason="k is 0 or d, so log(k/d) is -inf or 0",
)
def guzman(c):
    """Guzman-Martinez and Alaiz-Rodriguez's Jensen-Shannon measure, constant k.

    .. math:: \\hat\\Phi(Z) = 1 - \\frac{D_{JS}(q_1, \\dots, q_M)}{D^*_{JS}}
              = 1 - \\frac{\\sum_f \\hat p_f \\log \\hat p_f}{k \\log(k/d)}

    (thesis eq. B.2; ``q_i`` is row i divided by k and :math:`D^*_{JS} = \\log(d/k)`).

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When the row sizes vary, or k is 0 or d.

    Examples
    --------
    >>> from propstab.measures import guzman
    >>> guzman([[1, 0], [0, 1]])
    0.0
    >>> guzman([[1, 0], [1, 0]])
    1.0
    """
    k = c.size
    return 1.0 - c.column_plogp / (k * np.log(k / c.n_features))


@register(
    name="cwrel",
    family="frequency",
    aliases=("somol",),
    summary="(CW - CW_min) / (CW_max - CW_min), Somol-Novovicova eq. 15",
    references=(SOMOL + ", Def. 3 and Prop. 1 (eq. 15)", THESIS + ", eq. 3.4"),
    claims=claims(
        fully_defined=True,
        monotonicity=True,
        bounds=True,
        maximum=False,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    r_reference=RReference(
        "stabm",
        "stabilitySomol",
        differences=(NAN_NOT_NA.applying(_equal_extremes), SOMOL_EQUAL_EXTREMES),
    ),
    notes="Where CW_max = CW_min, Somol and Novovicova define CW_rel = CW (eq. 6); stabm "
    "returns NaN there.",
)
@count_kernel(undefined_when=lambda c: c.total == 0, reason="no run selects any feature")
def cwrel(c):
    """Somol and Novovicova's relative weighted consistency CW_rel (alias ``"somol"``).

    .. math:: CW_{rel} = \\frac{CW - CW_{min}}{CW_{max} - CW_{min}}
              = \\frac{d\\,(N - D + \\sum_f F_f(F_f - 1)) - N^2 + D^2}
              {d\\,(H^2 + M(N - H) - D) - N^2 + D^2}

    with N the sum of the sizes, :math:`D = N \\bmod d` and :math:`H = N \\bmod M` (eq. 15;
    thesis eq. 3.4), :math:`CW = \\sum_f F_f (F_f - 1) / (N (M - 1))`
    (:func:`weighted_consistency`) and the extremes :func:`cw_min` and :func:`cw_max`.
    Where :math:`CW_{max} = CW_{min}`, :math:`CW_{rel} = CW` (eq. 6).
    Computed in exact integers.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When no run selects any feature.

    See Also
    --------
    cw_min, cw_max, weighted_consistency

    Examples
    --------
    >>> from propstab.measures import cwrel
    >>> Z2 = [[1] * k + [0] * (7 - k) for k in range(7, 0, -1)]   # Fig. 4, system S2
    >>> round(cwrel(Z2), 12)
    0.333333333333
    """
    M, d, N = c.n_runs, c.n_features, c.total
    sff = c.sum_squares - N  # sum_f F_f (F_f - 1) = N (M-1) CW
    low, high = cw_extremes(N, M, d)  # d N (M-1) CW_min, d N (M-1) CW_max
    return divide(d * sff - low, high - low, sff / (N * (M - 1)))  # equal extremes: CW


@register(
    name="lausser",
    family="frequency",
    domain="constant_size",
    summary="(1/(M^2 k)) sum_i i^2 a_i = (1/k) sum_f p_f^2",
    references=(
        "Lausser, L., Muessel, C., Maucher, M., Kestler, H. A. (2013). Measuring and "
        "visualizing the stability of biomarker selection techniques. Comput. Stat. "
        "28(1), 51-65",
        THESIS + ", Table 3.2 and eq. B.3",
    ),
    claims=claims(
        fully_defined=False,
        monotonicity=True,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    notes="The tight lower bound is 1/M (thesis Table 3.2); the constant bound is 0.",
)
@count_kernel(undefined_when=lambda c: c.size == 0, reason="k = 0")
def lausser(c):
    """Lausser et al.'s measure for a constant subset size k.

    .. math:: \\hat\\Phi(Z) = \\frac{1}{M^2 k}\\sum_{i=1}^M i^2 a^{(i)}
              = \\frac{1}{k}\\sum_f \\hat p_f^2

    with :math:`a^{(i)}` the number of features selected exactly i times (eq. B.3).

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When the row sizes vary, or k = 0.

    Examples
    --------
    >>> from propstab.measures import lausser
    >>> lausser([[1, 1, 0, 0], [1, 0, 1, 0]])
    0.75
    """
    M = c.n_runs
    return c.sum_squares / (M * M * c.size)


@register(
    name="consistency",
    family="frequency",
    summary="(1/|X|) sum_{f in X} (F_f - 1)/(M - 1), X = union of runs",
    references=(SOMOL + ", Def. 1 (eq. 3)",),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
)
@count_kernel(undefined_when=lambda c: c.total == 0, reason="no run selects any feature")
def consistency(c):
    """Somol and Novovicova's consistency C.

    .. math:: C = \\frac{1}{|X|}\\sum_{f \\in X}\\frac{F_f - 1}{M - 1}

    with X the features selected at least once.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When no run selects any feature.

    Examples
    --------
    >>> from propstab.measures import consistency
    >>> Z3 = [[1] + [0] * 2] * 13 + [[1, 1, 0], [0, 0, 1]]   # Fig. 3 (13 x {1}, {1,2}, {3})
    >>> consistency(Z3) == 13 / 42
    True
    """
    X = c.n_union
    return (c.total - X) / (X * (c.n_runs - 1))


@register(
    name="weighted_consistency",
    family="frequency",
    summary="sum_f (F_f/N) (F_f - 1)/(M - 1)",
    references=(SOMOL + ", Def. 2 (eqs. 4-5)",),
    claims=claims(
        fully_defined=True,
        monotonicity=True,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
)
@count_kernel(undefined_when=lambda c: c.total == 0, reason="no run selects any feature")
def weighted_consistency(c):
    """Somol and Novovicova's weighted consistency CW.

    .. math:: CW = \\sum_f \\frac{F_f}{N}\\cdot\\frac{F_f - 1}{M - 1}

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When no run selects any feature.

    Examples
    --------
    >>> from propstab.measures import weighted_consistency
    >>> Z3 = [[1] + [0] * 2] * 13 + [[1, 1, 0], [0, 0, 1]]   # Fig. 3: CW = 0.8125
    >>> weighted_consistency(Z3)
    0.8125
    """
    N = c.total
    return (c.sum_squares - N) / (N * (c.n_runs - 1))


@register(
    name="novovicova",
    family="frequency",
    summary="sum_{f in X} F_f log2 F_f / (N log2 M)",
    references=(NOVOVICOVA, BOMMERT + ", stabilityNovovicova"),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    parameters=(CORRECTION_GLOBAL,),
    r_reference=RReference(
        "stabm",
        "stabilityNovovicova",
        arguments={"correction_for_chance": "correction.for.chance"},
        differences=(CORRECTED_GLOBAL_SCORE,),
        needs_p=False,
    ),
    variants=(
        Variant(
            {"correction_for_chance": "exact"},
            {Axiom.CORRECTION_FOR_CHANCE: True},
            lower=-1,
            reason=":math:`(SH - E[SH \\mid H_0]) / (1 - E[SH \\mid H_0])` with "
            "Poisson-binomial column counts: "
            "the null expectation is 0 for every configuration",
        ),
    ),
    notes="With correction_for_chance='exact', propstab subtracts the exact null expectation "
    "of the whole score (column counts Poisson-binomial); stabm subtracts a pairwise "
    "expectation from the global score.",
)
@count_kernel(
    undefined_when=lambda c: c.total == 0,
    reason="no run selects any feature",
    expectation=novovicova_expectation,
)
def novovicova(c):
    """Novovicova et al.'s entropy-based measure (stabm's ``stabilityNovovicova``).

    .. math:: SH = \\frac{\\sum_{f \\in X} F_f \\log_2 F_f}{N \\log_2 M}
              = \\frac{\\sum_{f \\in X} F_f \\ln F_f}{N \\ln M}

    (a ratio of logarithms, so the base does not matter).

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional
    correction_for_chance : {"none", "exact"}
        ``"exact"``: :math:`(SH - E[SH \\mid H_0]) / (1 - E[SH \\mid H_0])`, the column
        counts being Poisson-binomial under :math:`H_0`.

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When no run selects any feature.

    Examples
    --------
    >>> from propstab.measures import novovicova
    >>> novovicova([[1, 1, 0], [1, 1, 0]])
    1.0
    >>> novovicova([[1, 0, 0], [0, 1, 0]])
    0.0
    """
    return c.column_xlogx / (c.total * np.log(c.n_runs))


__test__ = module_doctests(__name__)
