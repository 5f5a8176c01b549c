"""Sampled pairs: a pairwise measure from a random sample of pairs of runs (an
incomplete U-statistic), with the variances of its two sources.

A pairwise measure is the U-statistic :math:`U = \\frac{1}{M(M-1)}\\sum_{i \\ne j} h_{ij}`
with kernel :math:`h_{ij} = \\phi(s_i, s_j)`. With B ordered pairs drawn uniformly and
independently (with replacement) from the M(M-1) pairs, the mean
:math:`U_B = \\frac1B \\sum_b h_{i_b j_b}` is unbiased for U given the runs, and

.. math:: \\operatorname{Var}(U_B) = \\operatorname{Var}(U)
          + \\frac{E[S_N^2]}{B}, \\qquad
          S_N^2 = \\frac{1}{M(M-1)}\\sum_{i \\ne j}(h_{ij} - U)^2,

(conditioning on the runs: :math:`E[U_B | Z] = U`, :math:`\\operatorname{Var}(U_B | Z) =
S_N^2 / B`); with :math:`E[S_N^2] = \\sigma_h^2 - \\operatorname{Var}(U)` this is
Blom's :math:`(1 - 1/B)\\operatorname{Var}(U) + \\sigma_h^2 / B` (Blom 1976; Lee 1990,
sec. 4.3). The first part is estimated by Hoeffding's
:math:`\\operatorname{Var}(U) = \\frac{4(M-2)\\zeta_1 + 2\\zeta_2}{M(M-1)}` with
:math:`\\zeta_1 = \\operatorname{Cov}(h_{ij}, h_{il})` estimated from the sampled pairs
that share a run minus those that share none, and :math:`\\zeta_2 \\approx s^2`; the
second by :math:`s^2 / B` (s^2 the sample variance of the B scores).

References
----------
Blom, G. (1976). Some properties of incomplete U-statistics. Biometrika 63(3), 573-580.
Janson, S. (1984). The asymptotic distributions of incomplete U-statistics. Z. Wahrsch.
Verw. Gebiete 66, 495-505. Lee, A. J. (1990). U-Statistics: Theory and Practice. Marcel
Dekker, ch. 4.3 (incomplete U-statistics). Hoeffding, W. (1948). A class of statistics
with asymptotically normal distribution. Ann. Math. Stat. 19(3), 293-325.
"""
from __future__ import annotations

import math
from typing import NamedTuple, Optional

import numpy as np

from .._utils.checks import check_random_state, fail, seed_sequence, shown
from .._utils.exceptions import SampledPairsWarning, undefined, warn
from .._utils.params import Integral, Interval, Options
from .kernels import PairKernel

__all__ = [
    "PAIRS",
    "PAIRS_AUTO",
    "PAIRS_AUTO_ABOVE",
    "PAIRS_MAX",
    "PairSample",
    "pair_sample",
    "sampled_pairs_of",
]

#: pairs="auto" samples when the unordered pairs M(M-1)/2 exceed this (M > 31,623)
PAIRS_AUTO_ABOVE = 5 * 10**8
#: the number of pairs pairs="auto" then samples (standard error ~ 0.003 s_h)
PAIRS_AUTO = 10**5
#: the most pairs one call samples (each costs ~50 bytes while it runs: 5 GB)
PAIRS_MAX = 10**8
#: the declared rule of ``pairs``: a number of pairs in 1..PAIRS_MAX, "all" or "auto"
PAIRS = [Interval(Integral, 1, PAIRS_MAX), Options("all", "auto")]
_CHUNK_ENTRIES = 4 * 10**6  # selections (CSR) or cells (dense) per chunk of pairs


class PairSample(NamedTuple):
    """The scores of B sampled ordered pairs and the variances of their mean."""

    statistic: float  # U_B, the mean of the sampled scores
    n_pairs: int  # B
    pairs_variance: float  # s^2 / B: Var(U_B | runs), around the all-pairs value U
    runs_variance: float  # Hoeffding's Var(U) estimated from the sample
    scores_variance: float  # s^2


def sampled_pairs_of(
    kernel, options, pairs, n_runs: int, *, measure: str, function: Optional[str] = None
) -> Optional[int]:
    """The number of pairs to sample for ``pairs`` (already validated), or None for all.

    ``"all"``: None. ``"auto"``: :data:`PAIRS_AUTO` for a pairwise measure without the
    per-pair correction when M(M-1)/2 > :data:`PAIRS_AUTO_ABOVE` (with a
    :class:`~propstab.SampledPairsWarning`), else None. An integer needs a pairwise
    measure without ``correction_for_chance``.
    """
    pairwise = (
        isinstance(kernel, PairKernel)
        and options.get("correction_for_chance", "none") == "none"
        and set(options) <= {"correction_for_chance"}
    )
    if pairs == "all":
        return None
    if pairs == "auto":
        if not pairwise or n_runs * (n_runs - 1) // 2 <= PAIRS_AUTO_ABOVE:
            return None
        warn(
            f"{measure}: M = {n_runs} runs have {n_runs * (n_runs - 1) // 2} pairs, more "
            f"than {PAIRS_AUTO_ABOVE}: the value is the mean over {PAIRS_AUTO} sampled "
            f"pairs (pairs='auto'; pairs='all' for the exact value)",
            SampledPairsWarning,
        )
        return PAIRS_AUTO
    if not pairwise:
        fail(
            f"pairs: sampled pairs apply only to a pairwise measure (a mean over pairs of "
            f"runs) without correction_for_chance; got {shown(pairs)} for measure "
            f"{measure!r}",
            function=function,
        )
    return int(pairs)


def _intersections(sel, i, j) -> np.ndarray:
    """r_ij = |s_i ∩ s_j| for the pairs (i_b, j_b), in chunks of bounded size (int64)."""
    B = i.size
    out = np.empty(B, dtype=np.int64)
    if sel.is_sparse:
        S = sel.tocsr()
        per_pair = max(1.0, S.nnz / max(sel.n_runs, 1))
        step = max(1, int(_CHUNK_ENTRIES / per_pair))
        for a in range(0, B, step):
            b = min(B, a + step)
            both = S[i[a:b]].multiply(S[j[a:b]])
            out[a:b] = np.asarray(both.sum(axis=1, dtype=np.int64)).ravel()
        return out
    Z = sel.toarray()
    step = max(1, _CHUNK_ENTRIES // max(sel.n_features, 1))
    for a in range(0, B, step):
        b = min(B, a + step)
        out[a:b] = np.count_nonzero(Z[i[a:b]] & Z[j[a:b]], axis=1)
    return out


def pair_sample(sel, kernel, n_pairs: int, random_state, *, measure: str) -> PairSample:
    """The mean of a pairwise measure's score over ``n_pairs`` ordered pairs i != j drawn
    uniformly with replacement (seeded: ``numpy.random.SeedSequence`` of
    ``random_state``), and the variances of that mean (see the module's docstring).

    NaN with an :class:`~propstab.UndefinedMeasureWarning` when a sampled pair's score is
    undefined.

    >>> from propstab import as_selection, get_measure
    >>> sel = as_selection([[1, 1, 0], [1, 1, 0], [1, 1, 0]])
    >>> pair_sample(sel, get_measure("jaccard").kernel, 50, 0, measure="jaccard")[:2]
    (1.0, 50)
    """
    M, d = sel.n_runs, sel.n_features
    rng = np.random.default_rng(seed_sequence(check_random_state("random_state", random_state)))
    i = rng.integers(0, M, n_pairs)
    j = rng.integers(0, M - 1, n_pairs)
    j += j >= i  # uniform over the ordered pairs i != j
    r = _intersections(sel, i, j).astype(np.float64)
    k = sel.row_sizes.astype(np.float64)
    num, den = np.broadcast_arrays(*kernel.score(r, k[i], k[j], float(d)))
    zero = den == 0
    if zero.any():
        value = undefined(
            measure, f"{kernel.reason} ({int(zero.sum())} of the {n_pairs} " f"sampled pairs)"
        )
        return PairSample(value, n_pairs, math.nan, math.nan, math.nan)
    h = num / den
    statistic = math.fsum(h.tolist()) / n_pairs
    s2 = float(np.var(h, ddof=1)) if n_pairs > 1 else math.nan
    return PairSample(statistic, n_pairs, s2 / n_pairs, _runs_variance(h, i, j, M, s2), s2)


def _runs_variance(h, i, j, M, s2) -> float:
    """Hoeffding's Var(U) = (4 (M-2) zeta_1 + 2 zeta_2) / (M (M-1)) from the sample:
    zeta_1 = E[h h'] over sampled pairs sharing one run minus E[h h'] over those sharing
    none, zeta_2 ~ s^2 (Hoeffding 1948, eq. 5.13)."""
    B = h.size
    if B < 3 or M < 3:
        return math.nan
    S = np.bincount(i, h, M) + np.bincount(j, h, M)  # sum of h over pairs touching run
    Q = np.bincount(i, h * h, M) + np.bincount(j, h * h, M)
    n = np.bincount(i, minlength=M) + np.bincount(j, minlength=M)
    # couples of sampled entries drawing the same unordered pair share both runs: counted
    # at each of the two runs above, they are taken out of the couples sharing one run
    _, key, c = np.unique(
        np.minimum(i, j) * M + np.maximum(i, j), return_inverse=True, return_counts=True
    )
    hs, hq = np.bincount(key, h), np.bincount(key, h * h)
    both_sum, both_n = float(np.sum(hs * hs - hq)), float(np.sum(c * (c - 1.0)))
    one_sum = float(np.sum(S * S - Q)) - 2.0 * both_sum  # ordered couples sharing one run
    one_n = float(np.sum(n * (n - 1.0))) - 2.0 * both_n
    total = float(h.sum())
    none_sum = total * total - float(np.dot(h, h)) - one_sum - both_sum
    none_n = B * (B - 1.0) - one_n - both_n
    if one_n <= 0 or none_n <= 0:
        return math.nan
    zeta1 = max(0.0, one_sum / one_n - none_sum / none_n)  # a covariance of h, >= 0
    return (4.0 * (M - 2) * zeta1 + 2.0 * s2) / (M * (M - 1.0))
