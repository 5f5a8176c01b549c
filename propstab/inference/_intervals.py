"""Confidence intervals of a stability estimate beyond the plain Wald interval.

Helpers of :mod:`propstab.inference` (``StabilityEstimate.confidence_interval``):

- :func:`measure_range`: the measure's declared range for this M, d and these sizes,
  to which every interval of a single stability value is clipped;
- :func:`transformed_wald`: the Wald interval on the logit of the position within the
  range (Fisher's z for a range [-1, 1]), mapped back: it cannot leave the range;
- :func:`bootstrap_replicates`: the measure on B resamples of the runs (rows of Z drawn
  with replacement), vectorised through the measure's kernel where it has one
  (:class:`BootstrapCounts` for the frequency measures, the pair-score matrix for the
  pairwise ones) and recomputed B times otherwise (also the tests' slow twin);
- :func:`replicates`: the same for any B x m matrix of row indices (the bootstrap's
  resamples, or the groups of a permutation test, :mod:`propstab.inference._permutation`);
- :func:`percentile_interval` and :func:`bca_interval`: Efron's percentile and
  bias-corrected and accelerated intervals from those replicates;
- :func:`bootstrap_variance` and :func:`degenerate_fallback`: the bootstrap variance
  from those replicates, and the one rule that puts it in place of a degenerate
  variance (:func:`propstab.measures._variance.degenerate`).
"""
from __future__ import annotations

import functools
import math
import warnings
from typing import Tuple

import numpy as np
from scipy import special, stats

from .._utils.exceptions import UndefinedMeasureWarning
from ..measures._variance import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    PER_RUN_OPTIONS,
    degenerate,
    identical_runs,
    take_rows,
)
from ..measures.kernels import CountKernel, PairKernel, pair_fractions, xlogx

__all__ = [
    "BootstrapCounts",
    "bca_interval",
    "bootstrap_replicates",
    "bootstrap_variance",
    "clip",
    "degenerate_fallback",
    "measure_range",
    "percentile_interval",
    "replicates",
    "resample_weights",
    "row_weights",
    "transformed_wald",
]

#: float64 entries of one temporary (B x d or B x M x ...) of the vectorised bootstrap
_BLOCK = 2**22


def measure_range(info, n_runs: int, n_features: int, sizes) -> Tuple[float, float]:
    """``(lo, hi)``: the measure's declared bounds evaluated at this M, d and these row
    sizes; -inf / inf where a bound is undeclared or cannot be evaluated."""
    out = []
    for side, bound in zip((-math.inf, math.inf), info.bounds):
        value = side
        if bound is not None:
            try:
                value = bound.evaluate(n_runs, n_features, () if sizes is None else sizes)
            except (TypeError, ValueError, ZeroDivisionError, IndexError):
                value = side
            if not math.isfinite(value) and value != side:
                value = side
        out.append(float(value))
    lo, hi = out
    return (lo, hi) if lo <= hi else (-math.inf, math.inf)


def clip(low: float, high: float, lo: float, hi: float) -> Tuple[float, float]:
    """``[low, high]`` intersected with ``[lo, hi]`` (NaN ends stay NaN)."""
    if math.isnan(low) or math.isnan(high):
        return low, high
    return float(min(max(low, lo), hi)), float(max(min(high, hi), lo))


def range_transform(lo: float, hi: float):
    """The scale that maps the range ``[lo, hi]`` onto the real line, as
    ``(g, slope, back)``: ``g(t)``, its derivative ``slope(t)`` and the inverse
    ``back(s)``; None when neither bound is finite (the plain scale).

    Both ends finite: :math:`g(\\theta) = \\operatorname{logit}((\\theta - lo)/(hi - lo))`;
    one end finite: :math:`g = \\log(\\theta - lo)` or :math:`-\\log(hi - \\theta)`.

    >>> g, slope, back = range_transform(-1.0, 1.0)
    >>> round(g(0.5), 6), round(2 * math.atanh(0.5), 6), round(back(g(0.3)), 12)
    (1.098612, 1.098612, 0.3)
    """
    finite_lo, finite_hi = math.isfinite(lo), math.isfinite(hi)
    if finite_lo and finite_hi:
        width = hi - lo

        def g(t):
            u = (t - lo) / width
            return math.log(u / (1 - u)) if 0 < u < 1 else math.copysign(math.inf, u - 0.5)

        def slope(t):
            u = (t - lo) / width
            return 1.0 / (width * u * (1 - u))

        return g, slope, lambda s: lo + width * float(special.expit(s))
    if finite_lo:
        return (
            lambda t: math.log(t - lo) if t > lo else -math.inf,
            lambda t: 1.0 / (t - lo),
            lambda s: lo + math.exp(s),
        )
    if finite_hi:
        return (
            lambda t: -math.log(hi - t) if t < hi else math.inf,
            lambda t: 1.0 / (hi - t),
            lambda s: hi - math.exp(-s),
        )
    return None


def _inside(center: float, lo: float, hi: float) -> bool:
    return (not math.isfinite(lo) or center > lo) and (not math.isfinite(hi) or center < hi)


def transformed_wald(
    center: float, variance: float, z: float, lo: float, hi: float
) -> Tuple[float, float]:
    """The Wald interval of half-width ``z`` standard errors on a scale that maps the
    measure's range onto the real line (:func:`range_transform`), mapped back.

    By the delta method the standard error of :math:`g(\\hat\\theta)` is
    :math:`g'(\\hat\\theta)\\sqrt{v}`. At a bound (g infinite), or with no finite
    bound, the result is the plain Wald interval (the caller clips it).
    """
    se = math.sqrt(variance)
    scale = range_transform(lo, hi)
    if scale is None or not _inside(center, lo, hi):
        return center - z * se, center + z * se
    g, slope, back = scale
    half = z * slope(center) * se
    return float(back(g(center) - half)), float(back(g(center) + half))


def transformed_statistic(
    center: float, null: float, variance: float, lo: float, hi: float
) -> float:
    """The z statistic on the scale of :func:`transformed_wald`,
    :math:`(g(\\hat\\theta) - g(\\theta_0)) / (g'(\\hat\\theta)\\sqrt{v})`, whose
    test that interval inverts; the plain :math:`(\\hat\\theta - \\theta_0)/\\sqrt v`
    where :func:`transformed_wald` is the plain interval. ``variance`` > 0.

    >>> round(transformed_statistic(0.5, 0.2, 0.04, -1.0, 1.0), 4)      # Fisher's z:
    1.2997
    >>> round((math.atanh(0.5) - math.atanh(0.2)) / (0.2 / (1 - 0.5 ** 2)), 4)
    1.2997
    """
    se = math.sqrt(variance)
    scale = range_transform(lo, hi)
    if scale is None or not _inside(center, lo, hi):
        return (center - null) / se
    g, slope, _ = scale
    return (g(center) - g(null)) / (slope(center) * se)


# ------------------------------------------------------------------------- bootstrap


def resample_weights(rng, n_resamples: int, n_runs: int) -> np.ndarray:
    """``(indices, weights)``: B rows of M run indices drawn with replacement, and how
    often each run appears in each resample (B x M counts)."""
    idx = rng.integers(0, n_runs, size=(n_resamples, n_runs))
    return idx, row_weights(idx, n_runs)


def row_weights(idx, n_runs: int) -> np.ndarray:
    """How often each of ``n_runs`` runs appears in each row of the index matrix ``idx``
    (B x m): a B x ``n_runs`` matrix of counts.

    >>> row_weights(np.array([[0, 0, 2], [1, 2, 3]]), 4).tolist()
    [[2.0, 0.0, 1.0, 0.0], [0.0, 1.0, 1.0, 1.0]]
    """
    idx = np.asarray(idx)
    B, m = idx.shape
    # one bincount over the flat cells (row b, run i) -> b * n_runs + i: the same
    # integer counts as np.add.at, without its slow unbuffered loop
    cells = (np.arange(B, dtype=np.int64)[:, None] * n_runs + idx).ravel()
    return np.bincount(cells, minlength=B * n_runs).reshape(B, n_runs).astype(np.float64)


class BootstrapCounts:
    """The :class:`~propstab.measures.kernels.Counts` summaries of B resamples of the
    runs at once (arrays of length B), from the resample weights W (B x M, how often
    each run is drawn): the column counts are ``W Z``, the sums over runs ``W k``.
    ``n_runs`` is the number of runs of each resample (default M, the bootstrap's; a
    subset of m runs, weights 0/1, for the groups of a permutation test).

    Summaries the frequency formulas read and that depend on more than these weighted
    sums (``sizes``, ``median_size``) are absent: a formula reading them falls back to
    recomputing the measure on each resample.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab import as_selection
    >>> sel = as_selection([[1, 1, 0], [1, 0, 1], [1, 0, 0]])
    >>> c = BootstrapCounts(sel, np.array([[1.0, 1, 1], [0, 3, 0]]))  # Z, then run 1 x 3
    >>> c.total.tolist(), c.sum_squares.tolist(), c.n_union.tolist()
    ([5.0, 6.0], [11.0, 18.0], [3.0, 2.0])
    """

    def __init__(self, sel, W: np.ndarray, n_runs=None) -> None:
        self.sel, self.W = sel, np.asarray(W, dtype=np.float64)
        self.n_runs = sel.n_runs if n_runs is None else int(n_runs)
        self.n_features = sel.n_features

    @functools.cached_property
    def _F(self) -> np.ndarray:
        Z = self.sel.stored()
        if hasattr(Z, "tocsr"):
            return np.asarray((Z.T @ self.W.T).T, dtype=np.float64)
        return self.W @ np.asarray(Z, dtype=np.float64)

    @functools.cached_property
    def _k(self) -> np.ndarray:
        return self.sel.row_sizes.astype(np.float64)

    @functools.cached_property
    def total(self) -> np.ndarray:
        return self.W @ self._k

    @functools.cached_property
    def sum_squares(self) -> np.ndarray:
        return np.einsum("bf,bf->b", self._F, self._F)

    @functools.cached_property
    def size_squares(self) -> np.ndarray:
        return self.W @ (self._k * self._k)

    @functools.cached_property
    def n_union(self) -> np.ndarray:
        return np.count_nonzero(self._F, axis=1).astype(np.float64)

    @functools.cached_property
    def size(self) -> np.ndarray:
        if np.any(self._k != self._k[0]):
            raise AttributeError("size: the row sizes vary")
        return np.full(self.W.shape[0], self._k[0])

    @functools.cached_property
    def column_xlogx(self) -> np.ndarray:
        return xlogx(self._F).sum(axis=1)

    @functools.cached_property
    def column_plogp(self) -> np.ndarray:
        return xlogx(self._F / self.n_runs).sum(axis=1)

    @functools.cached_property
    def subset_xlogx(self) -> np.ndarray:
        idx = self.sel.index_matrix()
        M = self.sel.n_runs
        if idx.shape[1] == 0:
            return np.full(self.W.shape[0], float(xlogx(np.array([self.n_runs]))[0]))
        _, which = np.unique(idx, axis=0, return_inverse=True)
        which = np.ravel(which)
        G = np.zeros((M, which.max() + 1))
        G[np.arange(M), which] = 1.0
        return xlogx(self.W @ G).sum(axis=1)


def _count_replicates(kernel: CountKernel, sel, W, options, n_runs):
    c = BootstrapCounts(sel, W, n_runs)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.broadcast_to(
            np.asarray(kernel.formula(c, **options), dtype=np.float64), (W.shape[0],)
        ).copy()
        if kernel.undefined_when is not None:
            values[np.broadcast_to(kernel.undefined_when(c), values.shape)] = np.nan
    return values


def _pair_replicates(kernel: PairKernel, sel, W, correction, n_runs):
    """Mean over ordered pairs of positions a != b of a resample of ``n_runs`` runs: the
    pairs (i, j) of distinct runs weighted w_i w_j, and run i with a copy of itself
    w_i (w_i - 1)."""
    M = n_runs
    num, den = pair_fractions(sel, kernel.score, correction)
    num, den = np.broadcast_arrays(num, den)
    bad = den == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        P = np.where(bad, 0.0, num / np.where(bad, 1.0, den))
    diag_P, diag_bad = np.diag(P).copy(), np.diag(bad).astype(np.float64)
    np.fill_diagonal(P, 0.0)
    B_off = bad.astype(np.float64)
    np.fill_diagonal(B_off, 0.0)
    self_pairs = W * (W - 1.0)
    total = np.einsum("bi,bi->b", W @ P, W) + self_pairs @ diag_P
    n_bad = np.einsum("bi,bi->b", W @ B_off, W) + self_pairs @ diag_bad
    return np.where(n_bad > 0, np.nan, total / (M * (M - 1)))


def _rank_pair_matrix(kernel, rk, options):
    """``(P, bad)``: the N x N pair scores of a ranking measure's kernel on all runs (the
    diagonal: a run's score with an identical copy of itself) and the runs with which a
    pair score is undefined; None for a kernel of another kind."""
    from ..measures.rank_kernels import CosineKernel, PairMatrixKernel

    if isinstance(kernel, CosineKernel):
        sq = np.asarray(kernel.squares(rk), dtype=np.float64)
        bad = sq == 0
        scale = np.where(bad, 0.0, 1.0 / np.sqrt(np.where(bad, 1.0, sq)))
        P = np.zeros((rk.n_runs, rk.n_runs))
        for block in kernel.function(rk, **options):
            u = np.asarray(block, dtype=np.float64) * scale[:, None]
            P += u @ u.T
        np.fill_diagonal(P, np.where(bad, 0.0, 1.0))  # cos(v, v) = 1
        return P, bad
    if isinstance(kernel, PairMatrixKernel):
        P = np.array(kernel.function(rk, **options), dtype=np.float64)
        return P, np.zeros(rk.n_runs, dtype=bool)
    return None


def _matrix_replicates(P, bad, W, n_runs):
    """The mean pair score over ordered pairs of positions of each weighted resample:
    pairs of distinct runs weighted w_i w_j, a run with its copy w_i (w_i - 1); NaN where
    the resample holds a run whose pair scores are undefined."""
    off = P.copy()
    diag = np.diag(P).copy()
    np.fill_diagonal(off, 0.0)
    total = np.einsum("bi,bi->b", W @ off, W) + (W * (W - 1.0)) @ diag
    values = total / (n_runs * (n_runs - 1))
    return np.where(W @ bad.astype(np.float64) > 0, np.nan, values)


def _generic_replicates(sel, info, options, idx):
    Zm = sel.stored()
    per_run = {
        name: value
        for name, value in options.items()
        if name in PER_RUN_OPTIONS and value is not None
    }
    out = np.empty(idx.shape[0])
    for b, rows in enumerate(idx):  # one resample at a time: no kernel to batch
        extra = {name: take_rows(value, rows) for name, value in per_run.items()}
        out[b] = info.function(Zm[rows], **{**options, **extra})
    return out


def replicates(sel, info, options, idx, *, generic=False):
    """The measure on the runs ``idx[b]`` of ``sel``, for each row b of the B x m index
    matrix ``idx`` (indices may repeat: a bootstrap resample; or not: a subset).

    Vectorised over the rows through the measure's count or pair kernel (in blocks of
    rows, from the weights :func:`row_weights`); recomputed once per row where the
    measure has no kernel, its kernel reads a summary :class:`BootstrapCounts` lacks, or
    with ``generic=True`` (the slow twin of the tests). NaN where the measure is
    undefined on a row (a measure for a constant subset size: where the sizes of the
    row's runs vary).
    """
    idx = np.asarray(idx, dtype=np.intp)
    n_rows, m = idx.shape
    if info.domain == "constant_size" and np.any(sel.row_sizes != sel.row_sizes[0]):
        k = np.asarray(sel.row_sizes)[idx]
        defined = np.all(k == k[:, :1], axis=1)  # rows whose runs share one size
        values = np.full(n_rows, np.nan)
        if defined.any():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMeasureWarning)
                values[defined] = _generic_replicates(sel, info, options, idx[defined])
        return values
    kernel = getattr(info, "kernel", None)
    values = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        if not generic and info.input == "selection":
            correction = options.get("correction_for_chance", "none")
            block = max(1, _BLOCK // max(sel.n_features, sel.n_runs * 4))
            try:
                if isinstance(kernel, CountKernel) and correction == "none":
                    rest = {k: v for k, v in options.items() if k != "correction_for_chance"}
                    values = np.concatenate(
                        [
                            _count_replicates(
                                kernel, sel, row_weights(idx[s : s + block], sel.n_runs), rest, m
                            )
                            for s in range(0, n_rows, block)
                        ]
                    )
                elif isinstance(kernel, PairKernel) and set(options) <= {"correction_for_chance"}:
                    values = np.concatenate(
                        [
                            _pair_replicates(
                                kernel,
                                sel,
                                row_weights(idx[s : s + block], sel.n_runs),
                                correction,
                                m,
                            )
                            for s in range(0, n_rows, block)
                        ]
                    )
            except AttributeError:  # a summary BootstrapCounts does not have
                values = None
        elif not generic and info.input == "ranking" and m >= 2:
            values = _ranking_replicates(kernel, sel, options, idx, m)
        if values is None:
            values = _generic_replicates(sel, info, options, idx)
    return values


def _ranking_replicates(kernel, rk, options, idx, m):
    """A ranking measure on each row of runs, from its kernel: the pair-score matrix of
    all runs once (cosine and pair-matrix kernels), or the count kernel of Nogueira's
    estimator on the runs' top-k sets (``top_k``); None for any other kernel."""
    from ..registry._registry import get_measure

    if hasattr(kernel, "_selection"):  # top_k: nogueira on the top-k sets
        top = kernel._selection(rk, options.get("k"))
        counts = get_measure("nogueira").kernel
        block = max(1, _BLOCK // max(top.n_features, top.n_runs * 4))
        return np.concatenate(
            [
                _count_replicates(counts, top, row_weights(idx[s : s + block], top.n_runs), {}, m)
                for s in range(0, idx.shape[0], block)
            ]
        )
    found = _rank_pair_matrix(kernel, rk, options)
    if found is None:
        return None
    P, bad = found
    block = max(1, _BLOCK // max(rk.n_runs * 4, 1))
    return np.concatenate(
        [
            _matrix_replicates(P, bad, row_weights(idx[s : s + block], rk.n_runs), m)
            for s in range(0, idx.shape[0], block)
        ]
    )


def bootstrap_replicates(sel, info, options, n_resamples: int, rng, *, generic=False):
    """The measure on ``n_resamples`` resamples of the M runs (drawn with replacement):
    :func:`replicates` on B rows of M run indices drawn from ``rng``. NaN where the
    measure is undefined on a resample.
    """
    idx, _ = resample_weights(rng, n_resamples, sel.n_runs)
    return replicates(sel, info, options, idx, generic=generic)


def percentile_interval(replicates, level: float) -> Tuple[float, float]:
    """Efron's percentile interval: the alpha/2 and 1 - alpha/2 quantiles of the
    replicates (NaN replicates dropped)."""
    r = np.asarray(replicates, dtype=np.float64)
    r = r[~np.isnan(r)]
    alpha = 1.0 - level
    low, high = np.quantile(r, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def acceleration(jackknife_values) -> float:
    """Efron's acceleration from the leave-one-out values: 0 when they are all equal."""
    u = np.asarray(jackknife_values, dtype=np.float64)
    dev = u.mean() - u
    den = 6.0 * float(np.sum(dev * dev)) ** 1.5
    return float(np.sum(dev**3) / den) if den > 0 else 0.0


def bca_interval(
    replicates, statistic: float, jackknife_values, level: float
) -> Tuple[float, float]:
    """Efron's (1987) bias-corrected and accelerated interval.

    The bias correction is :math:`z_0 = \\Phi^{-1}(p)` with p the share of replicates
    below the estimate, ties counted half (the replicates of a statistic of discrete
    data tie with it often); p is kept within [1/(2B), 1 - 1/(2B)] so that z_0 stays
    finite. The acceleration is :func:`acceleration` of the jackknife values.
    """
    r = np.asarray(replicates, dtype=np.float64)
    r = r[~np.isnan(r)]
    B = r.size
    p = (np.count_nonzero(r < statistic) + 0.5 * np.count_nonzero(r == statistic)) / B
    p = min(max(p, 0.5 / B), 1.0 - 0.5 / B)
    z0 = float(special.ndtri(p))
    a = acceleration(jackknife_values)
    alpha = 1.0 - level
    probs = []
    for q in (alpha / 2, 1 - alpha / 2):
        zq = z0 + float(special.ndtri(q))
        den = 1.0 - a * zq
        probs.append(float(special.ndtr(z0 + zq / den)) if den > 0 else (0.0 if q < 0.5 else 1.0))
    low, high = np.quantile(r, probs)
    return float(low), float(high)


def bootstrap_variance(
    sel,
    info,
    options,
    *,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    other=None,
):
    """The bootstrap variance of the measure (the variance, ddof = 1, of its values on
    ``n_resamples`` resamples of the M runs drawn with replacement, as
    ``scipy.stats.bootstrap``'s ``standard_error`` squared), and the replicates.

    With ``other`` (a second selection of the same M runs) the variance is that of the
    difference ``measure(other resample) - measure(sel resample)`` over the same
    resampled run indices: the paired bootstrap. NaN replicates (the measure undefined on
    a resample) are dropped; fewer than two defined: NaN.
    """
    reps = bootstrap_replicates(sel, info, options, n_resamples, np.random.default_rng(seed))
    if other is not None:
        reps = (
            bootstrap_replicates(other, info, options, n_resamples, np.random.default_rng(seed))
            - reps
        )
    defined = reps[~np.isnan(reps)]
    if defined.size < 2:
        return float("nan"), reps
    return float(np.var(defined, ddof=1)), reps


def degenerate_fallback(sel, info, options, method: str, terms):
    """The variance that replaces a degenerate one, and why, or None when the variance
    of ``method`` with these per-run ``terms`` is not degenerate.

    A variance is degenerate when its terms are equal up to rounding (:func:`degenerate`)
    while the runs are not all the same (identical runs keep their exact 0), or when it
    is an analytic variance from M = 2 differing runs: Thm 6's two terms then differ by
    a multiple of k_1 - k_2 (with :math:`\\sum_f z_{1f}\\hat p_f = (k_1 + |S_1 \\cap S_2|)/2`
    every other part of the difference cancels) and Conger's two terms are equal (each
    is the one pair's kernel), so the variance says nothing about how the runs differ.

    The replacement is the bootstrap variance (:func:`bootstrap_variance`; M >= 3), NaN
    when that is degenerate too. Not the jackknife: like Thm 6 it is a linearisation,
    0 or nearly so at the same points (the measure stationary in the runs' weights),
    and its Wald interval covered none of the degenerate draws of the validation study
    (docs/inference_validation.md, "Degenerate variances"), where the bootstrap's
    covered all.

    Returns
    -------
    None or (variance, terms, factor, method, reason) : the new variance, its per-run
        terms and factor (NaN: the bootstrap has none), ``"bootstrap"`` or the original
        ``method`` (with a NaN variance), and a phrase saying why, for the estimate's
        summary and warning.
    """
    M, d = sel.n_runs, sel.n_features
    if np.isnan(np.asarray(terms, dtype=np.float64)).any():
        return None  # undefined: NaN, warned elsewhere
    two_runs = method == "analytic" and M == 2
    if not (two_runs or degenerate(terms, M, d)) or identical_runs(sel, options):
        return None
    name = method
    if method == "analytic":
        source = getattr(info.analytic_variance, "source", None)
        name = "analytic" if source is None else f"analytic ({source})"
    if two_runs:
        return (
            float("nan"),
            np.full(M, np.nan),
            float("nan"),
            method,
            f"the {name} variance from 2 runs does not measure how they differ, and "
            f"the bootstrap needs at least 3 runs",
        )
    why = f"the {name} variance was 0 although the runs differ"
    variance, reps = bootstrap_variance(sel, info, options)
    defined = reps[~np.isnan(reps)]
    if defined.size >= 2 and not degenerate(defined, M, d):
        return variance, np.full(M, np.nan), float("nan"), "bootstrap", why
    return (
        float("nan"),
        np.full(M, np.nan),
        float("nan"),
        method,
        f"{why}, and {info.name} takes one value on each of {defined.size} bootstrap "
        f"resamples of the runs",
    )
