"""Frequency-based stability measures.

These read Z through its column counts F_f = M p_f (how many runs selected
feature f), the row sizes k_i and N = sum_i k_i (thesis sec. 3.2; Somol and
Novovicova 2010, where n = M, |Y| = d and F_f are the feature frequencies).
Sums of integers are formed exactly (Python integers) before the one division.
"""
from __future__ import annotations

import math

import numpy as np

from .. import chance
from .._registry import Bound, Parameter, RReference, module_doctests, register
from .._validation import check_int_range
from ._common import constant_size, undefined
from .kernels import count_kernel
from .pairwise import BOMMERT, SOMOL, THESIS, _claims

NOVOVICOVA = ("Novovicova, J., Somol, P., Haindl, M., Pudil, P. (2009). Conditional mutual "
              "information based feature selection for classification task. CIARP")

CORRECTION_GLOBAL = Parameter(
    "correction_for_chance", "none",
    "'exact': (Phi - E[Phi|H0]) / (1 - E[Phi|H0]) with the exact expectation of the whole "
    "score under the null model (not stabm's pairwise expectation, see the docs).",
    choices=("none", "exact"))


def _corrected(name, value, expectation, maximum=1.0):
    if not math.isfinite(value):
        return value
    if expectation == maximum:
        return undefined(name, "its null expectation equals its maximum")
    return (value - expectation) / (maximum - expectation)


@register(
    name="nogueira", family="frequency",
    summary="1 - mean_f s_f^2 / ((k̄/d)(1 - k̄/d))",
    references=(THESIS + ", Definition 3",
                "Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature "
                "selection algorithms. JMLR 18(174), 1-54"),
    claims=_claims(True, True, True, True, False), lower=-1, upper=1,
    r_reference=RReference("stabm", "stabilityNogueira",
                           note="also irr::kappam.fleiss on the M x d ratings (thesis Thm 5)"),
    notes=("The tight lower bound is -1/(M-1) (thesis App. B.6); the constant bound is -1. "
           "Correction for chance holds for a constant size (E = 0, thesis Thm 4) but not for "
           "fixed sizes that differ: E[Phi|H0] = -sum_i (k_i - k̄)^2 / (M (M-1) k̄ (d - k̄)), "
           "e.g. -1/9 for M = 2, d = 3, k = (1, 2). Thesis Thm 3 assumes identically "
           "distributed rows; see docs/table41.md."))
@count_kernel(undefined_when=lambda c: (c.total == 0) | (c.total == c.n_runs * c.n_features),
              reason="the mean subset size is 0 or d")
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
    name="goh", family="frequency",
    summary="(1/d) sum_f p_f = k̄/d",
    references=("Goh, W. W. B., Wong, L. (2016). Evaluating feature-selection stability in "
                "next-generation proteomics. J. Bioinform. Comput. Biol. 14(5)",
                THESIS + ", Table 3.2 and eq. B.1"),
    claims=_claims(True, False, True, False, False), lower=0, upper=1)
def goh(sel):
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
    return sel.total / (sel.n_runs * sel.n_features)


def _davis_value(N, M, n_union, penalty, med, d):
    """Davis's score max(0, N / (M |union|) - penalty median(k) / d); arrays broadcast."""
    return np.maximum(0.0, N / (M * n_union) - penalty * med / d)


@register(
    name="davis", family="frequency",
    summary="max(0, (1/F) sum_f p_f - penalty * median(k)/d), F = |union of runs|",
    references=("Davis, C. A. et al. (2006). Reliable gene signatures for microarray "
                "classification: assessment of stability and performance. Bioinformatics "
                "22(19), 2356-2363", THESIS + ", Table 3.2"),
    claims=_claims(True, False, True, True, False), lower=0, upper=1,
    parameters=(Parameter("penalty", 0.0, "alpha >= 0, the weight of the size penalty "
                          "median(k)/d (stabm's default 0)", minimum=0.0),
                CORRECTION_GLOBAL),
    r_reference=RReference("stabm", "stabilityDavis",
                           arguments={"penalty": "penalty",
                                      "correction_for_chance": "correction.for.chance"}),
    notes="With correction_for_chance='exact', propstab subtracts the exact null expectation "
          "of the whole score (union size by its exact law); stabm subtracts a pairwise "
          "expectation from the global score, which is not a correction for chance when M > 2. "
          "The claims are those of the default penalty 0, where the value is 1 exactly when "
          "all runs are identical (MAXIMUM); with a penalty > 0, as in thesis Table 4.1, "
          "identical runs score 1 - penalty median(k)/d and MAXIMUM fails.")
def davis(sel, *, penalty=0.0, correction_for_chance="none"):
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
        ``"exact"``: ``(Phi - E[Phi|H0]) / (1 - E[Phi|H0])`` with the exact null
        expectation, the union size F following its exact law under H0.

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
    M, d, N = sel.n_runs, sel.n_features, sel.total
    if N == 0:
        return undefined("davis", "no run selects any feature")
    k = sel.row_sizes
    med = float(np.median(k))
    n_union = int(np.count_nonzero(sel.column_counts))
    value = float(_davis_value(N, M, n_union, penalty, med, d))
    if correction_for_chance == "none":
        return value
    pmf = chance.union_size_pmf(k, d)
    u = np.arange(1, d + 1)
    scores = _davis_value(N, M, u, penalty, med, d)
    return _corrected("davis", value, float(np.dot(pmf[1:], scores)))


@register(
    name="krizek", family="frequency", orientation="lower", domain="constant_size",
    summary="-sum_s p(s) log2 p(s) over the distinct feature sets s",
    references=("Krizek, P., Kittler, J., Hlavac, V. (2007). Improving stability of feature "
                "selection methods. CAIP, LNCS 4673, 929-936", THESIS + ", Table 3.2"),
    claims=_claims(False, False, False, True, False),
    lower=0, upper=Bound("log2(min(M, C(d, k)))",
                         func=lambda M, d, k: math.log2(min(M, math.comb(d, int(k[0]))))))
def krizek(sel):
    """Krizek et al.'s entropy of the feature sets (lower is more stable).

    .. math:: \\hat\\Phi(Z) = -\\sum_{s} \\hat p(s) \\log_2 \\hat p(s)

    over the distinct subsets s in Z, with :math:`\\hat p(s)` their frequency.
    Defined for a constant subset size (thesis sec. 3.2.3).

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
    if constant_size(sel, "krizek") is None:
        return float("nan")
    idx = sel.index_matrix()
    if idx.shape[1] == 0:
        return 0.0
    _, counts = np.unique(idx, axis=0, return_counts=True)
    p = counts / sel.n_runs
    return float(-np.sum(p * np.log2(p)) + 0.0)


@register(
    name="guzman", family="frequency", domain="constant_size",
    summary="1 - D_JS(q_1..q_M) / D*_JS = 1 - sum_f p_f log p_f / (k log(k/d))",
    references=("Guzman-Martinez, R., Alaiz-Rodriguez, R. (2011). Feature selection stability "
                "assessment based on the Jensen-Shannon divergence. ECML PKDD, LNCS 6911",
                THESIS + ", eq. B.2"),
    claims=_claims(False, False, True, True, False), lower=0, upper=1,
    notes=("Not corrected for chance, contrary to thesis Table 4.1: E[Phi|H0] = 1/2 for M = 2, "
           "d = 2, k = 1. The Jensen argument of thesis App. B.5 divides by k log(k/d) < 0 "
           "without reversing the inequality; it only shows E >= 0. See docs/table41.md."))
def guzman(sel):
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
    k = constant_size(sel, "guzman")
    if k is None:
        return float("nan")
    d = sel.n_features
    if k == 0 or k == d:
        return undefined("guzman", "k is 0 or d, so log(k/d) is -inf or 0")
    F = sel.column_counts
    p = F[F > 0] / sel.n_runs
    return 1.0 - float(np.sum(p * np.log(p))) / (k * math.log(k / d))


def _cw_parts(N: int, n: int, Y: int):
    D = N % Y
    H = N % n
    num_min = N * N - Y * (N - D) - D * D          # CW_min = num_min / (Y N (n-1))
    num_max = H * H + N * (n - 1) - H * n          # CW_max = num_max / (N (n-1))
    return D, H, num_min, num_max


def cw_min(total, n_runs, n_features):
    """Minimum weighted consistency CW_min(N, n, Y) (Somol and Novovicova 2010, eq. 11).

    .. math:: CW_{min}(N, n, Y) = \\frac{N^2 - |Y|(N - D) - D^2}{|Y| N (n - 1)},
              \\quad D = N \\bmod |Y|

    Parameters
    ----------
    total : int
        N, the total number of selections (sum of the subset sizes).
    n_runs : int
        n >= 2, the number of subsets.
    n_features : int
        ``|Y|``, the number of features.

    Returns
    -------
    float

    Examples
    --------
    >>> from propstab.measures import cw_min
    >>> from fractions import Fraction
    >>> Fraction(cw_min(23, 7, 6)).limit_denominator(1000)   # Fig. 2(a): 11/23
    Fraction(11, 23)
    """
    check_int_range("total", total, minimum=1, owner="cw_min")
    check_int_range("n_runs", n_runs, minimum=2, owner="cw_min")
    check_int_range("n_features", n_features, minimum=1, owner="cw_min")
    _, _, num_min, _ = _cw_parts(int(total), int(n_runs), int(n_features))
    return num_min / (n_features * total * (n_runs - 1))


def cw_max(total, n_runs):
    """Maximum weighted consistency CW_max(N, n) (Somol and Novovicova 2010, eq. 14).

    .. math:: CW_{max}(N, n) = \\frac{H^2 + N(n - 1) - H n}{N (n - 1)},
              \\quad H = N \\bmod n

    Parameters
    ----------
    total : int
        N, the total number of selections.
    n_runs : int
        n >= 2.

    Returns
    -------
    float

    Examples
    --------
    >>> from propstab.measures import cw_max
    >>> from fractions import Fraction
    >>> Fraction(cw_max(23, 7)).limit_denominator(1000)      # Fig. 2(b): 64/69
    Fraction(64, 69)
    """
    check_int_range("total", total, minimum=1, owner="cw_max")
    check_int_range("n_runs", n_runs, minimum=2, owner="cw_max")
    _, _, _, num_max = _cw_parts(int(total), int(n_runs), 1)
    return num_max / (total * (n_runs - 1))


@register(
    name="cwrel", family="frequency", aliases=("somol",),
    summary="(CW - CW_min) / (CW_max - CW_min), Somol-Novovicova eq. 15",
    references=(SOMOL + ", Def. 3 and Prop. 1 (eq. 15)", THESIS + ", eq. 3.4"),
    claims=_claims(True, True, True, False, False), lower=0, upper=1,
    r_reference=RReference("stabm", "stabilitySomol"),
    notes="Where CW_max = CW_min, Somol and Novovicova define CW_rel = CW (eq. 6); stabm "
          "returns NaN there.")
def cwrel(sel):
    """Somol and Novovicova's relative weighted consistency CW_rel (alias ``"somol"``).

    .. math:: CW_{rel} = \\frac{d\\,(N - D + \\sum_f F_f(F_f - 1)) - N^2 + D^2}
              {d\\,(H^2 + M(N - H) - D) - N^2 + D^2}

    with N = sum of the sizes, D = N mod d and H = N mod M (eq. 15; thesis eq. 3.4).
    Where CW_max = CW_min, CW_rel = CW (eq. 6). Computed in exact integers.

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
    M, d, N = sel.n_runs, sel.n_features, sel.total
    if N == 0:
        return undefined("cwrel", "no run selects any feature")
    sff = sel.column_sum_squares - N                   # sum_f F_f (F_f - 1)
    D, H = N % d, N % M
    num = d * (N - D + sff) - N * N + D * D
    den = d * (H * H + M * (N - H) - D) - N * N + D * D
    if den == 0:
        return sff / (N * (M - 1))                     # CW_max = CW_min: CW_rel = CW
    return num / den


@register(
    name="lausser", family="frequency", domain="constant_size",
    summary="(1/(M^2 k)) sum_i i^2 a_i = (1/k) sum_f p_f^2",
    references=("Lausser, L., Muessel, C., Maucher, M., Kestler, H. A. (2013). Measuring and "
                "visualizing the stability of biomarker selection techniques. Comput. Stat. "
                "28(1), 51-65", THESIS + ", Table 3.2 and eq. B.3"),
    claims=_claims(False, True, True, True, False), lower=0, upper=1,
    notes="The tight lower bound is 1/M (thesis Table 3.2); the constant bound is 0.")
def lausser(sel):
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
    k = constant_size(sel, "lausser")
    if k is None:
        return float("nan")
    if k == 0:
        return undefined("lausser", "k = 0")
    M = sel.n_runs
    return sel.column_sum_squares / (M * M * k)


@register(
    name="consistency", family="frequency",
    summary="(1/|X|) sum_{f in X} (F_f - 1)/(M - 1), X = union of runs",
    references=(SOMOL + ", Def. 1 (eq. 3)",),
    claims=_claims(True, False, True, True, False), lower=0, upper=1)
def consistency(sel):
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
    M, N = sel.n_runs, sel.total
    if N == 0:
        return undefined("consistency", "no run selects any feature")
    X = int(np.count_nonzero(sel.column_counts))
    return (N - X) / (X * (M - 1))


@register(
    name="weighted_consistency", family="frequency",
    summary="sum_f (F_f/N) (F_f - 1)/(M - 1)",
    references=(SOMOL + ", Def. 2 (eqs. 4-5)",),
    claims=_claims(True, True, True, True, False), lower=0, upper=1)
def weighted_consistency(sel):
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
    M, N = sel.n_runs, sel.total
    if N == 0:
        return undefined("weighted_consistency", "no run selects any feature")
    return (sel.column_sum_squares - N) / (N * (M - 1))


def _novovicova_score(F, N, M):
    F = F[F > 0].astype(np.float64)
    return float(np.sum(F * np.log2(F))) / (N * math.log2(M))


@register(
    name="novovicova", family="frequency",
    summary="sum_{f in X} F_f log2 F_f / (N log2 M)",
    references=(NOVOVICOVA, BOMMERT + ", stabilityNovovicova"),
    claims=_claims(True, False, True, True, False), lower=0, upper=1,
    parameters=(CORRECTION_GLOBAL,),
    r_reference=RReference("stabm", "stabilityNovovicova",
                           arguments={"correction_for_chance": "correction.for.chance"}),
    notes="With correction_for_chance='exact', propstab subtracts the exact null expectation "
          "of the whole score (column counts Poisson-binomial); stabm subtracts a pairwise "
          "expectation from the global score.")
def novovicova(sel, *, correction_for_chance="none"):
    """Novovicova et al.'s entropy-based measure (stabm's ``stabilityNovovicova``).

    .. math:: SH = \\frac{\\sum_{f \\in X} F_f \\log_2 F_f}{N \\log_2 M}

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    n_features, feature_names : optional
    correction_for_chance : {"none", "exact"}
        ``"exact"``: ``(SH - E[SH|H0]) / (1 - E[SH|H0])``, the column counts being
        Poisson-binomial under H0.

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
    M, d, N = sel.n_runs, sel.n_features, sel.total
    if N == 0:
        return undefined("novovicova", "no run selects any feature")
    value = _novovicova_score(sel.column_counts, N, M)
    if correction_for_chance == "none":
        return value
    if N == M * d:      # E = SH = 1 exactly; in floating point 1 - E may not be 0
        return undefined("novovicova", "every run selects every feature, so its null "
                                       "expectation equals its maximum")
    pmf = chance.column_count_pmf(sel.row_sizes, d)
    c = np.arange(pmf.size, dtype=np.float64)
    g = np.zeros_like(c)
    g[1:] = c[1:] * np.log2(c[1:])
    expectation = d * float(np.dot(pmf, g)) / (N * math.log2(M))
    return _corrected("novovicova", value, expectation)


__test__ = module_doctests(__name__)
