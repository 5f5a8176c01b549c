"""Pairwise (similarity-based) stability measures.

Each measure is the average of a similarity phi(s_i, s_j) over the M(M-1)
ordered pairs of distinct runs (thesis sec. 3.3, "Stability measure"):

.. math:: \\hat\\Phi(Z) = \\frac{1}{M(M-1)} \\sum_{i \\ne j} \\phi(s_i, s_j),

computed from the intersection matrix ``r = Z Z^T`` and the row sizes ``k``;
nothing loops over pairs. A similarity is written as ``numerator / denominator``
of (r, k_i, k_j, d); a zero denominator makes the measure undefined (NaN with
:class:`~propstab.UndefinedMeasureWarning`).
"""
from __future__ import annotations

import numpy as np

from ..registry import Bound, Parameter, RReference, Variant, claims, module_doctests, register
from ..axioms import Axiom
from ._variance import thm6
from .kernels import pair_kernel
from .r_differences import NAN_NOT_NA
from .references import BOMMERT, SOMOL, TABLE_6_1, THESIS, YU, ZUCKNICK

CORRECTION = Parameter(
    "correction_for_chance",
    "none",
    "'exact': replace each pair's score :math:`\\phi` by "
    ":math:`(\\phi - E[\\phi \\mid H_0]) / (1 - E[\\phi \\mid H_0])`, with "
    ":math:`E[\\phi \\mid H_0]` the exact hypergeometric expectation for the pair's sizes "
    "(stabm's correction.for.chance).",
    choices=("none", "exact"),
)

#: The audited variant of every measure taking :data:`CORRECTION`: its claims differ.
EXACT_PER_PAIR = Variant(
    {"correction_for_chance": "exact"},
    {Axiom.CORRECTION_FOR_CHANCE: True, Axiom.MONOTONICITY: False},
    lower=-1,
    reason="each pair's score :math:`\\phi` becomes "
    ":math:`(\\phi - E[\\phi \\mid H_0]) / (1 - E[\\phi \\mid H_0])` with the exact "
    "hypergeometric expectation: the null expectation is 0 for every configuration and "
    "the values lie in [-1, 1]; the pair-dependent rescaling makes the value depend on "
    "how the intersections are spread, not only on the total variance",
)


def _stabm(function, *, needs_p=True, **arguments):
    return RReference("stabm", function, arguments=arguments, needs_p=needs_p)


def _full_and_nonempty_run(measure, sel, options) -> bool:
    """A pair (a run selecting all d features, a non-empty run): Wald's 0/0, NaN in stabm."""
    k = sel.row_sizes
    return bool(np.all(k > 0) and np.any(k == sel.n_features))


def _not_monotone(why: str) -> str:
    """The note of a measure that Thesis Table 4.1 calls monotone from dphi/dr_ij > 0 only."""
    return (
        "Not strictly monotone in propstab's formal sense (the value is not a function of "
        "the total variance at fixed row sizes): " + why + ". Thesis Table 4.1 claims "
        "monotonicity from :math:`\\partial\\phi / \\partial r_{ij} > 0` (App. B.2.1), a "
        "weaker property; see "
        "docs/table41.md."
    )


# ---------------------------------------------------------------- measures


@register(
    name="hamming",
    family="pairwise",
    summary="1 - (|s_i \\ s_j| + |s_j \\ s_i|) / d",
    references=(
        "Dunne, K., Cunningham, P., Azuaje, F. (2002). Solutions to instability problems "
        "with sequential wrapper-based approaches to feature selection. TCD-CD-2002-28",
        THESIS + ", Table 3.1",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=True,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=0,
    upper=1,
    parameters=(CORRECTION,),
    variants=(EXACT_PER_PAIR,),
    r_reference=_stabm("stabilityHamming", correction_for_chance="correction.for.chance"),
)
@pair_kernel(reason="d is zero")
def hamming(r, ki, kj, d):
    """Normalised Hamming similarity averaged over pairs of runs.

    .. math:: \\phi(s_i, s_j) = 1 - \\frac{|s_i \\setminus s_j| + |s_j \\setminus s_i|}{d}
              = \\frac{d - k_i - k_j + 2 r_{ij}}{d}

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
        The selection matrix (M runs x d features); see :func:`propstab.as_selection`.
    n_features, feature_names : optional
        For index collections.
    correction_for_chance : {"none", "exact"}
        ``"exact"`` corrects each pair's score with its exact hypergeometric null
        expectation (as stabm's ``correction.for.chance``).

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        With ``correction_for_chance="exact"``, when a pair's null expectation is 1.

    References
    ----------
    Dunne et al. (2002); thesis Table 3.1.

    Examples
    --------
    >>> from propstab.measures import hamming
    >>> hamming([[1, 1, 0, 0], [1, 0, 1, 0]])
    0.5
    """
    return d - ki - kj + 2 * r, d + 0 * r


@register(
    name="jaccard",
    family="pairwise",
    aliases=("gk",),
    summary="|s_i ∩ s_j| / |s_i ∪ s_j|",
    references=(
        "Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection "
        "algorithms. Knowl. Inf. Syst. 12(1), 95-116",
        THESIS + ", Table 3.1",
        SOMOL + " (generalized Kalousis GK, Def. 4)",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    notes=_not_monotone(
        ":math:`\\phi` is nonlinear in :math:`r_{ij}`, so spreading the same total intersection "
        "differently changes the value even at a constant size"
    ),
    lower=0,
    upper=1,
    parameters=(CORRECTION,),
    variants=(EXACT_PER_PAIR,),
    r_reference=_stabm(
        "stabilityJaccard", needs_p=False, correction_for_chance="correction.for.chance"
    ),
)
@pair_kernel(reason="two runs are both empty")
def jaccard(r, ki, kj, d):
    """Jaccard (Tanimoto) index averaged over pairs of runs; also Somol and
    Novovicova's generalized Kalousis measure GK (alias ``"gk"``).

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij}}{k_i + k_j - r_{ij}}

    GK (Somol and Novovicova 2010, eq. 7) averages the same index over unordered
    pairs, which is the same number.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional
    correction_for_chance : {"none", "exact"}

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When two runs are both empty (0/0).

    Examples
    --------
    >>> from propstab.measures import jaccard
    >>> jaccard([[1, 1, 0], [1, 0, 1]])
    0.3333333333333333
    """
    return r, ki + kj - r


@register(
    name="dice",
    family="pairwise",
    summary="2 |s_i ∩ s_j| / (|s_i| + |s_j|)",
    references=(YU, THESIS + ", Table 3.1"),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    notes=_not_monotone("with varying sizes each pair's weight :math:`2/(k_i + k_j)` differs"),
    lower=0,
    upper=1,
    parameters=(CORRECTION,),
    variants=(EXACT_PER_PAIR,),
    r_reference=_stabm(
        "stabilityDice", needs_p=False, correction_for_chance="correction.for.chance"
    ),
)
@pair_kernel(reason="two runs are both empty")
def dice(r, ki, kj, d):
    """Dice-Sorensen index averaged over pairs of runs.

    .. math:: \\phi(s_i, s_j) = \\frac{2 r_{ij}}{k_i + k_j}

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional
    correction_for_chance : {"none", "exact"}

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When two runs are both empty.

    Examples
    --------
    >>> from propstab.measures import dice
    >>> dice([[1, 1, 0], [1, 0, 1]])
    0.5
    """
    return 2 * r, ki + kj


@register(
    name="ochiai",
    family="pairwise",
    summary="|s_i ∩ s_j| / sqrt(|s_i| |s_j|)",
    references=(ZUCKNICK, THESIS + ", Table 3.1"),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    notes=_not_monotone("with varying sizes each pair's weight :math:`1/\\sqrt{k_i k_j}` differs"),
    lower=0,
    upper=1,
    parameters=(CORRECTION,),
    variants=(EXACT_PER_PAIR,),
    r_reference=_stabm(
        "stabilityOchiai", needs_p=False, correction_for_chance="correction.for.chance"
    ),
)
@pair_kernel(reason="a run is empty")
def ochiai(r, ki, kj, d):
    """Ochiai's index averaged over pairs of runs.

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij}}{\\sqrt{k_i k_j}}

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional
    correction_for_chance : {"none", "exact"}

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a run is empty.

    Examples
    --------
    >>> from propstab.measures import ochiai
    >>> ochiai([[1, 1, 0, 0], [1, 0, 0, 0]])
    0.7071067811865475
    """
    return r, np.sqrt(ki * kj)


@register(
    name="pog",
    family="pairwise",
    summary="|s_i ∩ s_j| / |s_i| (ordered pairs)",
    references=(
        "Shi, L. et al. (2005). Cross-platform comparability of microarray technology. "
        "BMC Bioinformatics 6(Suppl 2)",
        THESIS + ", Table 3.1",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=False,
    ),
    notes=_not_monotone("with varying sizes each pair's weight :math:`(1/k_i + 1/k_j)/2` differs"),
    lower=0,
    upper=1,
)
@pair_kernel(reason="a run is empty")
def pog(r, ki, kj, d):
    """Percentage of overlapping genes, averaged over ordered pairs of runs.

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij}}{k_i}

    POG is not symmetric; the average over ordered pairs equals that of its
    symmetrised form (thesis sec. 3.3).

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
        When a run is empty.

    Examples
    --------
    >>> from propstab.measures import pog
    >>> pog([[1, 1, 0, 0], [1, 0, 0, 0]])
    0.75
    """
    return r, ki + 0 * kj


@register(
    name="kuncheva",
    family="pairwise",
    domain="constant_size",
    summary="(r_ij - k^2/d) / (k - k^2/d), constant k",
    references=(
        "Kuncheva, L. I. (2007). A stability index for feature selection. AIAP, 421-427",
        THESIS + ", eq. 3.1",
    ),
    claims=claims(
        fully_defined=False,
        monotonicity=True,
        bounds=True,
        maximum=True,
        correction_for_chance=True,
    ),
    lower=-1,
    upper=1,
    null_value=0.0,
    analytic_variance=thm6,
    scale=TABLE_6_1,
)  # = Nogueira's Phi-hat on its domain (Thm 4)
@pair_kernel(reason="k is 0 or d")
def kuncheva(r, ki, kj, d):
    """Kuncheva's consistency index averaged over pairs of runs.

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij} - k^2/d}{k - k^2/d}

    Defined only when every run selects the same number k of features, with
    0 < k < d.

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
    >>> from propstab.measures import kuncheva
    >>> kuncheva([[1, 1, 0, 0], [1, 0, 1, 0]])
    0.0
    """
    return d * r - ki * kj, d * ki - ki * kj  # k_i = k_j = k on the domain


@register(
    name="lustgarten",
    family="pairwise",
    summary="(r_ij - k_i k_j/d) / (min(k_i, k_j) - max(0, k_i + k_j - d))",
    references=(
        "Lustgarten, J. L., Gopalakrishnan, V., Visweswaran, S. (2009). Measuring "
        "stability of feature selection in biomedical datasets. AMIA Annu. Symp. Proc.",
        THESIS + ", Table 3.1",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=True,
    ),
    notes=_not_monotone(
        "with varying sizes each pair's weight "
        ":math:`1/(\\min(k_i, k_j) - \\max(0, k_i + k_j - d))` differs"
    ),
    lower=-1,
    upper=1,
    null_value=0.0,
    scale=TABLE_6_1,
    r_reference=_stabm("stabilityLustgarten"),
)
@pair_kernel(reason="a run is empty or selects all features")
def lustgarten(r, ki, kj, d):
    """Lustgarten's extension of Kuncheva's index to varying subset sizes.

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij} - k_i k_j / d}
              {\\min(k_i, k_j) - \\max(0, k_i + k_j - d)}

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
        When a run is empty or selects all d features.

    Examples
    --------
    >>> from propstab.measures import lustgarten
    >>> lustgarten([[1, 1, 0, 0], [1, 1, 0, 0]])
    0.5
    """
    return d * r - ki * kj, d * (np.minimum(ki, kj) - np.maximum(0, ki + kj - d))


@register(
    name="wald",
    family="pairwise",
    summary="(r_ij - k_i k_j/d) / (min(k_i, k_j) - k_i k_j/d)",
    references=(
        "Wald, R., Khoshgoftaar, T. M., Napolitano, A. (2013). Stability of filter- and "
        "wrapper-based feature subset selection. ICTAI",
        THESIS + ", eq. 3.2",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=False,
        maximum=False,
        correction_for_chance=True,
    ),
    notes=_not_monotone(
        "with varying sizes each pair's weight " ":math:`1/(\\min(k_i, k_j) - k_i k_j/d)` differs"
    ),
    lower=Bound("1 - d", func=lambda M, d, k: 1 - d),
    upper=1,
    null_value=0.0,
    scale=TABLE_6_1,
    r_reference=RReference(
        "stabm", "stabilityWald", differences=(NAN_NOT_NA.applying(_full_and_nonempty_run),)
    ),
)
@pair_kernel(reason="a run is empty or selects all features")
def wald(r, ki, kj, d):
    """Wald's extension of Kuncheva's index to varying subset sizes.

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij} - k_i k_j / d}{\\min(k_i, k_j) - k_i k_j / d}

    Its minimum is 1 - d (thesis Table 3.1 and App. B.3), so it is not bounded
    by constants.

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
        When a run is empty or selects all d features.

    Examples
    --------
    >>> from propstab.measures import wald
    >>> wald([[1, 1, 1, 0], [0, 0, 0, 1]])
    -3.0
    """
    return d * r - ki * kj, d * np.minimum(ki, kj) - ki * kj


@register(
    name="npog",
    family="pairwise",
    summary="(r_ij - k_i k_j/d) / (k_i - k_i k_j/d) (ordered pairs)",
    references=(
        "Zhang, M. et al. (2009). Evaluating reproducibility of differential expression "
        "discoveries in microarray studies by considering correlated molecular changes. "
        "Bioinformatics 25(13), 1662-1668",
        THESIS + ", eq. 3.3",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=False,
        maximum=True,
        correction_for_chance=True,
    ),
    notes=_not_monotone("with varying sizes each pair's weight differs"),
    lower=Bound("1 - d", func=lambda M, d, k: 1 - d),
    upper=1,
    null_value=0.0,
    scale=TABLE_6_1,
)
@pair_kernel(reason="a run is empty or selects all features")
def npog(r, ki, kj, d):
    """Normalised percentage of overlapping genes, over ordered pairs.

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij} - k_i k_j / d}{k_i - k_i k_j / d}

    Zhang et al. estimate the expectation by simulation; propstab uses its exact
    value :math:`k_i k_j / d`, as the thesis does.

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
        When a run is empty or selects all d features.

    Examples
    --------
    >>> from propstab.measures import npog
    >>> npog([[1, 1, 0, 0], [1, 0, 1, 0]])
    0.0
    """
    return d * r - ki * kj, d * ki - ki * kj


@register(
    name="kappa",
    family="pairwise",
    summary="(r_ij - k_i k_j/d) / ((k_i + k_j)/2 - k_i k_j/d)",
    references=(
        BOMMERT + ", stabilityKappa",
        "Carletta, J. (1996). Assessing agreement on classification tasks: the kappa "
        "statistic. Computational Linguistics 22(2)",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=True,
    ),
    lower=-1,
    upper=1,
    null_value=0.0,
    scale=TABLE_6_1,
    r_reference=_stabm("stabilityKappa"),
)
@pair_kernel(reason="two runs are both empty or both select all features")
def kappa(r, ki, kj, d):
    """Cohen's kappa between pairs of runs (stabm's ``stabilityKappa``).

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij} - k_i k_j / d}{(k_i + k_j)/2 - k_i k_j / d}

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
        When two runs are both empty or both select all features.

    Examples
    --------
    >>> from propstab.measures import kappa
    >>> kappa([[1, 1, 0, 0], [1, 1, 1, 0]])
    0.5
    """
    return d * r - ki * kj, d * (ki + kj) / 2 - ki * kj


@register(
    name="phi",
    family="pairwise",
    summary="Pearson correlation of the binary vectors z_i and z_j",
    references=(
        BOMMERT + ", stabilityPhi",
        "Nogueira, S., Brown, G. (2016). Measuring the stability of feature selection. "
        "ECML PKDD",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=True,
    ),
    lower=-1,
    upper=1,
    null_value=0.0,
    scale=TABLE_6_1,
    r_reference=_stabm("stabilityPhi"),
)
@pair_kernel(reason="a run is empty or selects all features")
def phi(r, ki, kj, d):
    """Phi coefficient (Pearson correlation of the 0/1 rows) between pairs of runs.

    .. math:: \\phi(s_i, s_j) = \\frac{d\\, r_{ij} - k_i k_j}
              {\\sqrt{k_i (d - k_i) k_j (d - k_j)}}

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
        When a run is empty or selects all features (zero variance).

    Examples
    --------
    >>> from propstab.measures import phi
    >>> phi([[1, 1, 0, 0], [1, 0, 1, 0]])
    0.0
    """
    return d * r - ki * kj, np.sqrt(ki * (d - ki) * kj * (d - kj))


@register(
    name="unadjusted",
    family="pairwise",
    summary="(r_ij - k_i k_j/d) / (sqrt(k_i k_j) - k_i k_j/d)",
    references=(BOMMERT + ", stabilityUnadjusted",),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=True,
        correction_for_chance=True,
    ),
    lower=-1,
    upper=1,
    null_value=0.0,
    scale=TABLE_6_1,
    r_reference=_stabm("stabilityUnadjusted"),
)
@pair_kernel(reason="a run is empty, or two runs both select all features")
def unadjusted(r, ki, kj, d):
    """stabm's "unadjusted" measure: the intersection corrected for chance and
    scaled by the geometric mean of the sizes.

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij} - k_i k_j / d}{\\sqrt{k_i k_j} - k_i k_j / d}

    It is the adjusted intersection measures' formula of stabm (Bommert 2020)
    without any similar features; with a constant size k it equals Kuncheva's index.

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
        When a run is empty, or two runs both select all features.

    Examples
    --------
    >>> from propstab.measures import unadjusted
    >>> unadjusted([[1, 1, 0, 0], [1, 0, 1, 0]])
    0.0
    """
    return d * r - ki * kj, d * np.sqrt(ki * kj) - ki * kj


@register(
    name="overlap_coefficient",
    family="pairwise",
    summary="|s_i ∩ s_j| / min(|s_i|, |s_j|)",
    references=(
        "Simpson, G. G. (1943). Mammals and the nature of continents. American "
        "Journal of Science 241(1), 1-31 (the overlap coefficient, Simpson's index "
        "of faunal resemblance; also Szymkiewicz 1934)",
        THESIS + ", sec. 3.1.3 and Table 3.1 (POG, the same intersection over one " "run's size)",
    ),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=False,
    ),
    notes="The intersection over the smaller run: 1 whenever one run contains the other, "
    "so MAXIMUM (1 if and only if the runs are identical) fails on nested runs; "
    + _not_monotone("with varying sizes each pair's weight :math:`1/\\min(k_i, k_j)` " "differs"),
    lower=0,
    upper=1,
)
@pair_kernel(reason="a run is empty")
def overlap_coefficient(r, ki, kj, d):
    """The overlap (Szymkiewicz-Simpson) coefficient averaged over pairs of runs.

    .. math:: \\phi(s_i, s_j) = \\frac{r_{ij}}{\\min(k_i, k_j)}

    The share of the smaller run that the other run also selects. With a constant size
    k it is :math:`r_{ij} / k`, equal to Dice's, Ochiai's and POG's similarity; with varying sizes
    it forgives a run for selecting more than the other (a subset scores 1), which is
    what it measures and why MAXIMUM does not hold.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
        The selection matrix (M runs x d features); see :func:`propstab.as_selection`.
    n_features, feature_names : optional
        For index collections.

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a run is empty.

    Examples
    --------
    >>> from propstab.measures import overlap_coefficient
    >>> overlap_coefficient([[1, 1, 0, 0], [1, 0, 1, 0]])
    0.5
    >>> overlap_coefficient([[1, 1, 0, 0], [1, 0, 0, 0]])   # nested runs
    1.0
    """
    return r, np.minimum(ki, kj)


__test__ = module_doctests(__name__)
