"""Stability of feature rankings: the ranking family.

These measures read a rank matrix R (M runs x d features; run i ranks the features, 1
the most important), validated once by :func:`propstab.as_rankings` into midranks (the
average-rank tie rule; scores or importances are ranked the same way, the largest
first). Their properties are the five axioms stated for rank matrices
(:attr:`propstab.Axiom.ranking_statement`), audited like those of the set measures.

- ``spearman``: the mean pairwise Spearman correlation, through the variance identity
  (Nogueira, Sechidis and Brown 2017; thesis sec. 7.2.2);
- ``kendall``: the mean pairwise Kendall tau-b, through the same identity on the signs
  of the rank differences;
- ``canberra``: Jurman et al.'s (2008) Canberra stability indicator, with its location
  parameter for top-k lists;
- ``top_k``: Nogueira's estimator on the runs' top-k sets.

Weights (importances, coefficients) are compared by the Pearson correlation of their
rows, ``propstab.measures.pearson(W != 0, importances=abs(W))`` (Hamer and Dupont eq. 5,
in the correlated family). The pair sums of the pairwise measures come from the kernels
of :mod:`propstab.measures.rank_kernels`, which also give the jackknife and the
U-statistic variance.
"""
from __future__ import annotations

import math

import numpy as np

from ..registry import Parameter, RReference, Variant, claims, module_doctests, register
from .._utils.checks import check_int_range
from ..axioms import Axiom
from .rank_kernels import (
    RankKernel,
    cosine_kernel,
    pair_matrix_kernel,
    row_blocks,
    u_statistic_variance,
)
from .references import THESIS

NOGUEIRA_2017 = (
    "Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho "
    "to measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391"
)
KALOUSIS = (
    "Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection "
    "algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116"
)
JURMAN = (
    "Jurman, G., Merler, S., Barla, A., Paoli, S., Galea, A., Furlanello, C. (2008). "
    "Algebraic stability indicators for ranked lists in molecular profiling. "
    "Bioinformatics 24(2), 258-264"
)
KENDALL = (
    "Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika "
    "33(3), 239-251 (tau-b)"
)
HOEFFDING = (
    "Hoeffding, W. (1948). A class of statistics with asymptotically normal "
    "distribution. Ann. Math. Stat. 19(3), 293-325"
)

# (R's cor() warns "the standard deviation is zero" and gives NA for a constant run,
# where propstab warns UndefinedMeasureWarning and gives NaN: the warning is silenced.)
_SPEARMAN_R = (
    'function(R) { C <- suppressWarnings(stats::cor(t(R), method = "spearman")); '
    "mean(C[upper.tri(C)]) }"
)
_KENDALL_R = (
    'function(R) { C <- suppressWarnings(stats::cor(t(R), method = "kendall")); '
    "mean(C[upper.tri(C)]) }"
)
_CANBERRA_R = (
    "function(R, k = NULL) { d <- ncol(R); L <- if (is.null(k)) d else k; "
    "v <- pmin(seq_len(d), L + 1); "
    "E <- sum(outer(v, v, function(a, b) abs(a - b) / (a + b))) / d; "
    'D <- as.matrix(stats::dist(pmin(R, L + 1), method = "canberra")); '
    "mean(D[upper.tri(D)]) / E }"
)

CONSTANT_RUN = "a run ranks every feature equal (no correlation is defined with it)"


# ------------------------------------------------------------------------- Spearman


@register(
    name="spearman",
    family="ranking",
    summary="1 - sum_f s_f^2(u): mean pairwise Spearman rho (untied: 1 - mean_f s_f^2 / "
    "((d^2 - 1)/12))",
    references=(NOGUEIRA_2017, THESIS + ", sec. 7.2.2", KALOUSIS),
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
    analytic_variance=u_statistic_variance("spearman"),
    pairwise=True,
    r_reference=RReference(
        "stats",
        "cor",
        input="ranks",
        r_code=_SPEARMAN_R,
        note='mean over pairs of runs of cor(t(R), method = "spearman")',
    ),
    notes="Monotonicity holds when every run has the same tie pattern (in particular "
    "without ties: the value is :math:`1 - \\frac{1}{d}\\sum_f s_f^2 / V_{rank}`, linear "
    "in the total "
    "variance), but not when runs with different tie patterns are mixed: each run's "
    "ranks are then scaled by their own spread. The tight lower bound is -1/(M - 1).",
)
@cosine_kernel(squares=lambda rk: rk.row_squares, reason=CONSTANT_RUN)
def spearman(rk):
    """The mean pairwise Spearman correlation of the runs' rankings, by the variance identity.

    Spearman's rho of two runs is Pearson's correlation of their midranks (as
    ``scipy.stats.spearmanr`` and R's ``cor(method = "spearman")``). With :math:`u_i` the
    centred midranks of run i scaled to unit length (the symbols are defined in the
    :doc:`/notation`),

    .. math:: \\bar\\rho = \\frac{1}{M(M-1)}\\sum_{i \\ne j} u_i \\cdot u_j
              = 1 - \\sum_{f=1}^d s_f^2(u),

    :math:`s_f^2(u)` the sample variance of feature f's normalised rank over the runs
    (the mean pairwise cosine of unit vectors is one minus their total variance).
    Without ties every run has :math:`\\sum_f (r_{if} - \\frac{d+1}{2})^2 = d V_{rank}`
    with :math:`V_{rank} = (d^2 - 1)/12`, the variance of a uniformly random rank, and

    .. math:: \\bar\\rho = 1 - \\frac{\\frac{1}{d}\\sum_f s_f^2}{V_{rank}}

    (Nogueira, Sechidis and Brown 2017; thesis sec. 7.2.2): the form of Nogueira's
    estimator for sets, :math:`E[s_f^2 \\mid H_0] = V_{rank}` making it 0 in expectation
    for random
    rankings. Computed from the column sums of the normalised ranks in O(M d), with
    the leave-one-run-out values and the U-statistic variance from the same sums.

    Parameters
    ----------
    R : rank matrix in any form accepted by :func:`propstab.as_rankings`
        M runs x d features (ranks, 1 the most important; a
        :class:`~propstab.Rankings` for scores).
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a run ranks every feature equal.

    Examples
    --------
    >>> from propstab.measures import spearman
    >>> R = [[1, 2, 3, 4], [2, 1, 3, 4], [1, 2, 4, 3]]
    >>> round(spearman(R), 6)                    # the pairs: rho = 0.8, 0.8, 0.6
    0.733333
    >>> from scipy.stats import spearmanr
    >>> rho = spearmanr([[1, 2, 3, 4], [2, 1, 3, 4], [1, 2, 4, 3]], axis=1)[0]
    >>> round(float((rho.sum() - 3) / 6), 6)
    0.733333
    """
    yield rk.centred


# -------------------------------------------------------------------------- Kendall


def _ordered_untied_pairs(rk) -> np.ndarray:
    """Per run, the ordered pairs of features (f, g), f != g, with different ranks:
    d (d - 1) - sum over tie groups t (t - 1)."""
    s = rk.tie_patterns
    M, d = s.shape
    new = np.ones((M, d), dtype=bool)
    new[:, 1:] = s[:, 1:] != s[:, :-1]
    group = np.cumsum(new, axis=1) - 1 + (np.arange(M) * d)[:, None]
    sizes = np.bincount(group.ravel(), minlength=M * d).reshape(M, d).astype(np.float64)
    return d * d - (sizes * sizes).sum(axis=1)


@register(
    name="kendall",
    family="ranking",
    summary="1 - sum_(f,g) s_fg^2(u): mean pairwise Kendall tau-b (untied: "
    "1 - mean_(f,g) s^2(sign(r_f - r_g)))",
    references=(KENDALL, KALOUSIS, NOGUEIRA_2017),
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
    analytic_variance=u_statistic_variance("kendall"),
    pairwise=True,
    r_reference=RReference(
        "stats",
        "cor",
        input="ranks",
        r_code=_KENDALL_R,
        note='mean over pairs of runs of cor(t(R), method = "kendall")',
    ),
    notes="Kendall's tau is not a function of the rank variances :math:`s_f^2`: two rank "
    "matrices "
    "with the same total variance can have different values (monotonicity refuted). "
    "The tight lower bound is -1/(M - 1).",
)
@cosine_kernel(squares=_ordered_untied_pairs, reason=CONSTANT_RUN)
def kendall(rk):
    """The mean pairwise Kendall tau-b of the runs' rankings, by the variance identity.

    Kendall's tau-b of two runs (``scipy.stats.kendalltau``'s default, R's
    ``cor(method = "kendall")``) is the cosine of their vectors of signs
    :math:`\\mathrm{sign}(r_{if} - r_{ig})` over the ordered pairs of features
    (f, g): concordant minus discordant pairs over
    :math:`\\sqrt{(n_0 - n_1)(n_0 - n_2)}`, the untied pairs of each run. With :math:`u_i`
    those sign vectors scaled to unit length, as for :func:`spearman`,

    .. math:: \\bar\\tau_b = 1 - \\sum_{f \\ne g} s_{fg}^2(u),

    and without ties :math:`\\bar\\tau = 1 - \\frac{1}{d(d-1)}\\sum_{f \\ne g}
    s^2(\\mathrm{sign}(r_f - r_g))`, the variance of a random sign being 1. Computed
    on blocks of features in :math:`O(M d^2)` time and :math:`O(M d)` memory per block,
    never a loop
    over pairs of runs.

    Parameters
    ----------
    R : rank matrix in any form accepted by :func:`propstab.as_rankings`
    n_features, feature_names : optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a run ranks every feature equal.

    Examples
    --------
    >>> from propstab.measures import kendall
    >>> round(kendall([[1, 2, 3, 4], [2, 1, 3, 4], [1, 2, 4, 3]]), 6)   # 2/3, 2/3, 1/3
    0.555556
    """
    R = rk.toarray()
    M, d = R.shape
    for rows in row_blocks(d, M * d):  # blocks of features f
        block = R[:, rows]
        yield np.sign(block[:, :, None] - R[:, None, :]).reshape(M, -1)


# ------------------------------------------------------------------------- Canberra

LOCATION = Parameter(
    "k",
    None,
    "the location parameter: ranks beyond k count as k + 1 (top-k lists, Jurman "
    "et al. 2008); None: d, the whole ranking",
)


def _location(rk, k) -> int:
    if k is None:
        return rk.n_features
    return check_int_range("k", k, minimum=1, maximum=rk.n_features, owner="canberra")


def canberra_expectation(d: int, k: int) -> float:
    """E[Ca] of two independent uniformly random rankings of d features (no ties), the
    ranks truncated at k + 1: the normaliser of Jurman et al.'s indicator.

    Each feature's two ranks are independent and uniform on 1..d, so
    E = (1/d) sum_{a, b = 1}^{d} g(min(a, k+1), min(b, k+1)), g(x, y) = |x - y| / (x + y),
    summed over the k + 1 distinct truncated values with their multiplicities.

    Examples
    --------
    >>> round(canberra_expectation(2, 2), 12)       # (1/2) (2 x 1/3)
    0.333333333333
    >>> round(canberra_expectation(10, 10), 6), round(canberra_expectation(10, 3), 6)
    (3.319634, 1.713333)
    """
    values = np.arange(1, k + 2, dtype=np.float64)
    weights = np.ones(k + 1)
    weights[k] = d - k
    g = np.abs(values[:, None] - values[None, :]) / (values[:, None] + values[None, :])
    return float(weights @ g @ weights) / d


@register(
    name="canberra",
    family="ranking",
    orientation="lower",
    summary="mean pairwise sum_f |r_if - r_jf| / (r_if + r_jf) (ranks truncated at k + 1) "
    "over its expectation for random rankings",
    references=(JURMAN + ", eqs. 2-4",),
    claims=claims(
        fully_defined=True,
        monotonicity=False,
        bounds=False,
        maximum=True,
        correction_for_chance=False,
    ),
    lower=0,
    upper=math.inf,
    parameters=(LOCATION,),
    pairwise=True,
    variants=(
        Variant(
            {"k": 2},
            {Axiom.MAXIMUM: False},
            reason="with a location parameter k < d, runs that agree on their "
            "top k but not beyond score 0",
        ),
    ),
    r_reference=RReference(
        "stats",
        "dist",
        input="ranks",
        r_code=_CANBERRA_R,
        arguments={"k": "k"},
        note="mean over pairs of runs of dist(pmin(R, k + 1), method = "
        '"canberra"), over E computed in R by summing over all pairs '
        "of truncated ranks",
    ),
    notes="Lower is more stable; 0 exactly for identical rankings (k = d). The normaliser is "
    "the expectation for untied rankings (Jurman et al.), so "
    ":math:`E[\\hat\\Phi \\mid H_0] = 1` without "
    "ties but not with them (correction for chance refuted on tied rankings). Bounded "
    "(each term is below 1, at most about 2k + 1 features differ, and the normaliser "
    "grows as fast) but the supremum has no known closed form: no constant bound is "
    "declared.",
)
@pair_matrix_kernel()
def canberra(rk, *, k=None):
    """Jurman et al.'s Canberra stability indicator of ranked lists.

    With the ranks truncated at the location parameter, :math:`t_{if} = \\min(r_{if}, k+1)`,

    .. math:: Ca(r_i, r_j) = \\sum_{f=1}^d \\frac{|t_{if} - t_{jf}|}{t_{if} + t_{jf}},
              \\qquad
              \\mathrm{canberra} = \\frac{\\frac{1}{M(M-1)}\\sum_{i \\ne j} Ca(r_i, r_j)}
              {E_{d,k}},

    :math:`E_{d,k}` the expected Canberra distance of two independent uniformly random
    rankings (``canberra_expectation(d, k)``). 0 for identical rankings, about 1 for
    random ones, lower is more stable. With ties, the midranks are truncated.

    Parameters
    ----------
    R : rank matrix in any form accepted by :func:`propstab.as_rankings`
    n_features, feature_names : optional
    k : int in 1..d, optional
        The location parameter (top-k lists); None: d.

    Returns
    -------
    float

    References
    ----------
    The worked example of mlpy's ``canberra_stability`` (the implementation of Jurman
    et al.'s group): position lists [[2, 4, 1, 3, 0], [3, 4, 1, 2, 0], [2, 4, 3, 0, 1]]
    with k = 3 give 0.74862979571499755.

    Examples
    --------
    >>> from propstab.measures import canberra
    >>> positions = [[2, 4, 1, 3, 0], [3, 4, 1, 2, 0], [2, 4, 3, 0, 1]]
    >>> round(canberra([[p + 1 for p in run] for run in positions], k=3), 12)
    0.748629795715
    >>> canberra([[1, 2, 3], [1, 2, 3]])
    0.0
    """
    L = _location(rk, k)
    T = np.minimum(rk.toarray(), L + 1)
    M, d = T.shape
    P = np.empty((M, M))
    for rows in row_blocks(M, M * d):
        a, b = T[rows, None, :], T[None, :, :]
        P[rows] = (np.abs(a - b) / (a + b)).sum(axis=2)
    return P / canberra_expectation(d, L)


# ---------------------------------------------------------------------------- top-k

TOP_K = Parameter(
    "k",
    None,
    "the size of the top sets; None: d // 2. A tie group straddling position k "
    "enters whole (Rankings.top_k)",
)


class _TopKKernel(RankKernel):
    """Nogueira's estimator on the top-k sets: its count kernel on the derived selection."""

    def _selection(self, rk, k):
        k = (
            rk.n_features // 2
            if k is None
            else check_int_range("k", k, minimum=1, maximum=rk.n_features, owner="top_k")
        )
        return rk.top_k(k)

    def value(self, name: str, rk, *, k=None) -> float:
        from .frequency import nogueira

        return float(nogueira.info.kernel.value(name, self._selection(rk, k)))

    def leave_one_out(self, rk, *, k=None) -> np.ndarray:
        from .frequency import nogueira

        return nogueira.info.kernel.leave_one_out(self._selection(rk, k))


@register(
    name="top_k",
    family="ranking",
    summary="Nogueira's estimator on the runs' top-k sets",
    references=(THESIS + ", Definition 3 and sec. 2.1 (a ranking thresholded to a subset)",),
    claims=claims(
        fully_defined=False,
        monotonicity=False,
        bounds=True,
        maximum=False,
        correction_for_chance=False,
    ),
    lower=-1,
    upper=1,
    parameters=(TOP_K,),
    notes="A set measure of the top-k sets: it ignores the order within and beyond the top "
    "k (maximum and monotonicity refuted). Without ties every top-k set has k features "
    "and :math:`E[\\hat\\Phi \\mid H_0] = 0` (thesis Thm 4); a tie group straddling "
    "position k enlarges "
    "a run's set, and sizes that differ break the correction for chance (as for "
    "`nogueira`). Every run's top-k set is all d features when a tie group starting "
    "within the top k reaches the end (the value is then undefined).",
)
@_TopKKernel
def top_k(rk, *, k=None):
    """The stability of the runs' top-k sets: Nogueira's estimator (thesis Definition 3).

    Feature f is in run i's top-k set when fewer than k features are ranked before it
    (:meth:`propstab.Rankings.top_k`), so that ties never make a random choice.

    .. math:: \\hat\\Phi(\\mathrm{top}_k(R)) = 1 - \\frac{\\frac{1}{d}\\sum_f s_f^2}
              {\\frac{\\bar k}{d}(1 - \\frac{\\bar k}{d})}

    on the selection matrix of the top-k sets; the same value as
    ``propstab.stability(rankings.top_k(k))``.

    Parameters
    ----------
    R : rank matrix in any form accepted by :func:`propstab.as_rankings`
    n_features, feature_names : optional
    k : int in 1..d, optional
        The size of the top sets; None: d // 2.

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When every top-k set holds all d features.

    Examples
    --------
    >>> from propstab.measures import top_k
    >>> R = [[1, 2, 3, 4], [2, 1, 3, 4], [1, 3, 2, 4]]
    >>> round(top_k(R, k=2), 6)                  # sets {0, 1}, {0, 1}, {0, 2}
    0.333333
    """


__test__ = module_doctests(__name__)
