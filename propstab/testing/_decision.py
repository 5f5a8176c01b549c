"""The decisions of the CI assertions where the normal approximation has nothing to stand on,
and the planner of their runs.

Part of :mod:`propstab.testing` (the public name ``runs_needed`` and the result
``RunsPlan`` are imported from there).

- **Identical runs.** When every run of a sample selects the same features, the estimated
  variance is 0 and a normal test would decide with certainty (p = 0). What M identical
  runs support is an exact binomial statement: the selected set has probability at least
  pi_L, with pi_L^M + (1 - pi_L)^M = alpha. The lower confidence bound of the stability
  is the stability of the least favourable population with that share: the observed run
  with probability pi_L, the rest spread over runs of the same size as far from it as the
  features allow (:func:`mixture_stability`). :func:`identical_bound` gives it, and
  :func:`identical_pvalue` the p-value of H0: Phi <= phi0 (the largest probability that M
  runs of such a population coincide).
- **Planning.** :func:`runs_needed` gives the current runs that decide a comparison with
  the wanted power, and the baseline runs too when the baseline's own standard error
  already uses up what the margin allows.

The imports are absolute: ``pytest --doctest-modules`` imports this file by its path.
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from numbers import Real
from typing import Optional

import numpy as np
from scipy import optimize, stats

from .._utils.checks import fail
from .._utils.results import UnpackingResult
from .._utils.text import number, summary

__all__ = [
    "RunsPlan",
    "coincidence_probability",
    "decision",
    "identical_bound",
    "identical_decision",
    "identical_pvalue",
    "mixture_stability",
    "plain_number",
    "identical_runs_needed",
    "plan",
    "runs_needed",
    "share_bound",
    "bootstrap_pvalue",
    "bootstrapped",
    "BOOTSTRAP_RESAMPLES",
    "BOOTSTRAP_SEED",
]

#: rows of the synthetic population for measures without a population formula
POPULATION_ROWS = 400


def coincidence_probability(share, n_runs: int):
    """The largest probability that ``n_runs`` independent runs all select the same set,
    when no set has probability above ``share``: ``share^M + (1 - share)^M`` for
    ``share >= 1/2`` (the rest concentrated on one set), ``share^(M - 1)`` below.

    Examples
    --------
    >>> round(coincidence_probability(0.849, 10), 4)          # 0.849^10 + 0.151^10
    0.1946
    """
    s = np.asarray(share, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        out = np.where(s >= 0.5, s**n_runs + (1 - s) ** n_runs, s ** (n_runs - 1))
    return float(out) if out.ndim == 0 else out


def share_bound(alpha: float, n_runs: int) -> float:
    """pi_L: the smallest share of the observed set that ``n_runs`` identical runs do not
    reject at level ``alpha`` (:func:`coincidence_probability` = alpha); 0 when even a
    share of 1/2 cannot be rejected.

    Examples
    --------
    >>> round(share_bound(0.05, 10), 4), round(0.05 ** 0.1, 4)
    (0.7411, 0.7411)
    """
    if coincidence_probability(0.5, n_runs) >= alpha:
        return 0.5
    return float(
        optimize.brentq(lambda s: coincidence_probability(s, n_runs) - alpha, 0.5, 1.0, xtol=1e-12)
    )


def _alternative_frequencies(row: np.ndarray) -> np.ndarray:
    """The selection frequencies of runs of the row's size as far from the row as the
    features allow: uniform outside it (and over it, for what does not fit outside)."""
    d, k = row.size, int(row.sum())
    q = np.zeros(d)
    if d - k >= k:
        q[~row] = k / (d - k) if d > k else 0.0
    else:
        q[~row] = 1.0
        q[row] = (2 * k - d) / k
    return q


def mixture_stability(share: float, row, measure: str = "nogueira", options=None) -> float:
    """The stability of the population that selects ``row`` with probability ``share``
    and otherwise a set of the same size spread over the other features
    (:func:`_alternative_frequencies`): the least favourable population with that share.

    Nogueira's measure has it in closed form (thesis Thm 6, the population value at
    the frequencies); another measure is evaluated on a synthetic population of
    ``POPULATION_ROWS`` runs (fixed seed).

    Examples
    --------
    >>> row = np.array([1, 1, 1] + [0] * 15, dtype=bool)
    >>> round(mixture_stability(1.0, row), 4), round(mixture_stability(0.9, row), 4)
    (1.0, 0.7744)
    """
    row = np.asarray(row, dtype=bool)
    d, k = row.size, int(row.sum())
    if k == 0 or k == d:
        return math.nan
    if measure == "nogueira" and not options:
        p = share * row + (1 - share) * _alternative_frequencies(row)
        pbar = p.mean()
        return float(1 - (p * (1 - p)).mean() / (pbar * (1 - pbar)))
    from propstab.measures._stability import stability

    rng = np.random.default_rng(0)
    n_same = int(round(share * POPULATION_ROWS))
    q = _alternative_frequencies(row)
    others = np.zeros((POPULATION_ROWS - n_same, d), dtype=bool)
    weights = q / q.sum()
    for i in range(others.shape[0]):  # one draw of k features per run
        others[i, rng.choice(d, k, replace=False, p=weights)] = True
    Z = np.vstack([np.tile(row, (n_same, 1)), others])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(stability(Z, measure, **dict(options or {})))


def identical_bound(
    row, n_runs: int, alpha: float, measure: str = "nogueira", options=None
) -> float:
    """The one-sided (1 - alpha) lower confidence bound of the stability from ``n_runs``
    runs that all selected ``row``: :func:`mixture_stability` at the share bound
    :func:`share_bound` (NaN when the row selects nothing or everything).

    Examples
    --------
    >>> row = np.array([1, 1, 1] + [0] * 15, dtype=bool)
    >>> [round(identical_bound(row, m, 0.05), 3) for m in (10, 30, 100)]
    [0.475, 0.785, 0.93]
    """
    return mixture_stability(share_bound(alpha, n_runs), row, measure, options)


def identical_pvalue(
    row, n_runs: int, phi0: float, measure: str = "nogueira", options=None
) -> float:
    """The p-value of H0: Phi <= ``phi0`` from ``n_runs`` identical runs: the largest
    probability that the runs of a least favourable population with stability ``phi0``
    coincide (:func:`coincidence_probability` at the largest share whose
    :func:`mixture_stability` is at most ``phi0``). Never 0; 1 when undefined.

    Examples
    --------
    >>> row = np.array([1, 1, 1] + [0] * 15, dtype=bool)
    >>> round(identical_pvalue(row, 10, 0.9), 4), round(identical_pvalue(row, 100, 0.5), 6)
    (0.6459, 0.0)
    """

    def f(s):
        return mixture_stability(s, row, measure, options) - phi0

    top = f(1.0)
    if not top > 0:  # undefined, or phi0 at the maximum: nothing is shown
        return 1.0
    low = f(0.0)
    share = 0.0 if low > 0 else float(optimize.brentq(f, 0.0, 1.0, xtol=1e-12))
    return float(max(coincidence_probability(share, n_runs), np.finfo(float).tiny))


@dataclasses.dataclass(frozen=True, repr=False)
class RunsPlan(UnpackingResult):
    """The runs a comparison with a baseline needs (:func:`runs_needed`): unpacks as
    ``current_runs, baseline_runs``.

    Attributes
    ----------
    current_runs : int or None
        The current runs that decide the comparison with the wanted power (None when the
        baseline's standard error is too large for any number: see ``baseline_runs``).
    baseline_runs : int or None
        None when the baseline suffices; else the runs to remake the baseline with (the
        current runs then as many).
    test : str
    margin, power, confidence_level, gap : float
        ``gap`` is the distance the test must resolve: the margin (non-inferiority,
        nothing changed) or ``drop - margin`` (the drop test).
    baseline_se : float
        The baseline's standard error.
    target_se : float
        The standard error of the difference that gives the power.
    baseline_n_runs : int

    Parameters
    ----------
    current_runs, baseline_runs, test, margin, power, confidence_level, gap, baseline_se, \
target_se, baseline_n_runs
        As the attributes.

    See Also
    --------
    runs_needed : Returns it.

    References
    ----------
    Chow, S.-C., Shao, J. and Wang, H. (2008). Sample Size Calculations in Clinical
    Research, 2nd ed., ch. 3.

    Examples
    --------
    >>> from propstab.testing import RunsPlan
    >>> plan = RunsPlan(120, None, "drop", 0.0, 0.8, 0.95, 0.1, 0.02, 0.04, 100)
    >>> current, baseline = plan
    >>> current, baseline
    (120, None)
    """

    current_runs: Optional[int]
    baseline_runs: Optional[int]
    test: str
    margin: float
    power: float
    confidence_level: float
    gap: float
    baseline_se: float
    target_se: float
    baseline_n_runs: int
    _unpack = ("current_runs", "baseline_runs")

    def _repr_values(self):
        return dict(
            current_runs=self.current_runs, baseline_runs=self.baseline_runs, test=self.test
        )

    def message(self) -> str:
        """The plan in one sentence."""
        what = (
            f"to show non-inferiority within margin {_num(self.margin)} when nothing " f"changed"
            if self.test == "non-inferiority"
            else f"to detect a drop of {_num(self.gap + self.margin)} (margin "
            f"{_num(self.margin)})"
        )
        if self.baseline_runs is None:
            return (
                f"{what} with {self.power:.0%} power: about {self.current_runs} current " f"runs"
            )
        return (
            f"{what} with {self.power:.0%} power: the baseline's own SE "
            f"{_num(self.baseline_se, 4)} ({self.baseline_n_runs} runs) already exceeds "
            f"the {_num(self.target_se, 4)} the difference may have, so no number of "
            f"current runs decides it; remake the baseline with at least "
            f"{self.baseline_runs} runs (and as many current runs)"
        )

    def summary(self):
        """A few lines: the test, the gap, both standard errors and the runs."""
        return summary(
            "Runs needed",
            [
                ("test", f"{self.test}, margin {_num(self.margin)}"),
                ("gap to resolve", _num(self.gap)),
                ("power, confidence", f"{self.power:.0%}, {self.confidence_level:.0%}"),
                ("baseline SE", f"{_num(self.baseline_se, 4)} ({self.baseline_n_runs} runs)"),
                ("target SE of the difference", _num(self.target_se, 4)),
                (
                    "current runs",
                    "none suffices" if self.current_runs is None else str(self.current_runs),
                ),
                (
                    "baseline runs",
                    "the baseline suffices"
                    if self.baseline_runs is None
                    else f"remake with at least {self.baseline_runs}",
                ),
            ],
        )


def plain_number(x, digits: int = 4, fixed: bool = False) -> str:
    """:func:`propstab._utils.text.number` without a negative zero: ``-0.05``, never ``-0``.

    >>> plain_number(-0.0), plain_number(-0.05)
    ('0', '-0.05')
    """
    x = float(x) + 0.0
    return number(0.0 if x == 0 else x, digits, fixed=fixed)


_num = plain_number


def plan(
    baseline_variance: float,
    baseline_n_runs: int,
    per_run: float,
    *,
    gap: float,
    power: float,
    confidence_level: float,
    test: str,
    margin: float,
) -> RunsPlan:
    """:func:`runs_needed` from the baseline's variance and the per-run constant c of the
    current runs' variance (v = c / m, thesis Thm 6)."""
    z = stats.norm.ppf(confidence_level) + stats.norm.ppf(power)
    target = (gap / z) ** 2 if gap > 0 else 0.0
    vb = float(baseline_variance)
    current = base = None
    if target > 0 and vb < target and per_run > 0:
        current = max(2, math.ceil(per_run / (target - vb)))
    elif target > 0 and per_run > 0:
        base = max(2, math.ceil(2 * per_run / target))
        current = None
    elif target > 0:  # no variance in the runs: any number decides
        current = 2
    return RunsPlan(
        current,
        base,
        test,
        float(margin),
        float(power),
        float(confidence_level),
        float(gap),
        math.sqrt(max(vb, 0.0)),
        math.sqrt(target),
        int(baseline_n_runs),
    )


def runs_needed(
    baseline_or_Z,
    *,
    margin: float,
    power: float = 0.8,
    test: str = "drop",
    drop: Optional[float] = None,
    confidence_level: float = 0.95,
    measure: Optional[str] = None,
    **options,
) -> RunsPlan:
    r"""The runs a comparison with a baseline needs to decide with the wanted power.

    Parameters
    ----------
    baseline_or_Z : Baseline, ResamplingResult, selection matrix or StabilityEstimate
        The baseline (its estimate and variance; the current runs are assumed to have the
        same per-run variance).
    margin : float >= 0
        The margin of :func:`assert_not_less_stable`.
    power : float in (0, 1), default 0.8
        ``test="drop"``: the probability of failing when the stability dropped by
        ``drop``; ``test="non-inferiority"``: of passing when nothing changed.
    test : {"drop", "non-inferiority"}, default "drop"
    drop : float, optional
        The drop the drop test should detect (default ``margin + 0.05``); must exceed
        ``margin``.
    confidence_level : float in (0.5, 1), default 0.95
    measure : str, optional
        The baseline's (a :class:`Baseline`'s), else "nogueira".
    **options
        The measure's options.

    Returns
    -------
    RunsPlan
        ``current_runs`` and, when the baseline itself limits the answer,
        ``baseline_runs`` (remake the baseline with at least that many).

    Raises
    ------
    ValueError, TypeError
        Invalid arguments (``InvalidParameterError``).

    See Also
    --------
    propstab.inference.runs_needed : The runs for an interval's half-width.
    assert_not_less_stable : The comparison it plans.

    Notes
    -----
    The difference :math:`D` of two estimates from independent runs has variance
    :math:`v_b + c/m` (thesis Thm 6 and 7: :math:`v = c/m`, c estimated as
    :math:`M_b v_b`; below 100 runs from the jackknife). The test resolves a gap g (the
    margin for non-inferiority, ``drop - margin`` for the drop test) with power
    :math:`1-\beta` when :math:`g \ge (z_{c} + z_{1-\beta})\sqrt{v_b + c/m}`. When
    :math:`v_b` alone exceeds :math:`(g/(z_c + z_{1-\beta}))^2` no m suffices, and the
    plan is a new baseline and current runs of :math:`2c/v^*` each.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 6 and 7; Chow, S.-C., Shao, J. and Wang, H. (2008).
    Sample Size Calculations in Clinical Research, 2nd ed., ch. 3 (two-sample
    non-inferiority).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.testing import runs_needed
    >>> rng = np.random.default_rng(0)
    >>> Z = np.zeros((100, 10), dtype=bool); Z[:, :3] = True
    >>> Z ^= rng.random(Z.shape) < 0.1
    >>> plan = runs_needed(Z, margin=0.05, test="non-inferiority")
    >>> plan.baseline_runs is not None and plan.current_runs is None
    True
    >>> runs_needed(Z, margin=0.0, drop=0.1).current_runs
    120
    """
    from propstab._utils.exceptions import InvalidParameterError  # noqa: F401
    from propstab.inference import SMALL_M_BELOW, StabilityEstimate, estimate
    from propstab.inference import ZeroVarianceWarning

    if not isinstance(margin, Real) or not margin >= 0:
        fail(f"margin: must be a number >= 0; got {margin!r}", argument="margin")
    if not isinstance(power, Real) or not 0 < power < 1:
        fail(f"power: must lie in (0, 1); got {power!r}", argument="power")
    if not isinstance(confidence_level, Real) or not 0.5 < confidence_level < 1:
        fail(
            f"confidence_level: must lie in (0.5, 1); got {confidence_level!r}",
            argument="confidence_level",
        )
    if test not in ("drop", "non-inferiority"):
        fail(f"test: must be 'drop' or 'non-inferiority'; got {test!r}", argument="test")
    if test == "drop":
        drop = margin + 0.05 if drop is None else drop
        if not isinstance(drop, Real) or not drop > margin:
            fail(
                f"drop: the drop to detect must exceed the margin {margin!r}; got {drop!r}",
                argument="drop",
            )
        gap = drop - margin
    else:
        gap = margin
    if isinstance(baseline_or_Z, StabilityEstimate):
        est = baseline_or_Z
    else:
        data = baseline_or_Z
        if measure is None:
            measure = getattr(data, "measure", None) or "nogueira"
        if not options and hasattr(data, "options") and isinstance(data.options, dict):
            options = dict(data.options)
        if hasattr(data, "data_for"):
            data = data.data_for(measure)
        n = (
            np.shape(getattr(data, "selection", data))[0]
            if not hasattr(data, "n_runs")
            else data.n_runs
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ZeroVarianceWarning)
            est = estimate(
                data, measure, method="jackknife" if n < SMALL_M_BELOW else "auto", **options
            )
    v = est.variance if est.variance >= 0 else math.nan
    if math.isnan(v):
        fail("baseline_or_Z: its variance is undefined (NaN); no plan", argument="baseline_or_Z")
    return plan(
        v,
        est.n_runs,
        est.n_runs * v,
        gap=gap,
        power=power,
        confidence_level=confidence_level,
        test=test,
        margin=margin,
    )


def identical_decision(e_base, e_cur, margin, alpha, test, info, options):
    """z, p and the one-sided interval of the difference when the runs carrying the
    burden of proof are identical: their exact bound and the other sample's Wald bound,
    each at alpha/2; p is the smallest alpha at which the test rejects (bisection)."""
    from propstab.measures._variance import identical_runs

    lo_range, hi_range = e_cur.range

    def bound(e, a, lower):
        if identical_runs(e.selection, options):
            row = np.asarray(e.selection.toarray(), dtype=bool)[0]
            return identical_bound(row, e.n_runs, a, info.name, options) if lower else e.statistic
        se = math.sqrt(max(e.variance, 0.0))
        shift = stats.norm.isf(a) * se
        return max(lo_range, e.statistic - shift) if lower else min(hi_range, e.statistic + shift)

    def gap(a):  # > 0: H0 rejected at level a
        if test == "non-inferiority":
            return bound(e_cur, a / 2, True) - bound(e_base, a / 2, False) + margin
        return bound(e_base, a / 2, True) - margin - bound(e_cur, a / 2, False)

    grid = np.concatenate([np.geomspace(1e-12, 0.5, 60), np.linspace(0.5, 0.999999, 40)])
    values = np.array([gap(a) for a in grid])
    rejected = np.flatnonzero(values > 0)
    if rejected.size == 0:
        p = 1.0
    elif rejected[0] == 0:
        p = float(grid[0])
    else:
        i = rejected[0]
        p = float(optimize.brentq(gap, grid[i - 1], grid[i], xtol=1e-10))
    if test == "non-inferiority":
        low = bound(e_cur, alpha / 2, True) - bound(e_base, alpha / 2, False)
        interval_ = (low, hi_range - lo_range)
        z = math.inf if p < alpha else math.nan
    else:
        high = bound(e_cur, alpha / 2, False) - bound(e_base, alpha / 2, True)
        interval_ = (lo_range - hi_range, high)
        z = -math.inf if p < alpha else math.nan
    return z, p, interval_


def decision(difference, variance, margin: float, confidence: float = 0.95, test: str = "drop"):
    """The decision of :func:`assert_not_less_stable` from the difference
    D = Phi_current - Phi_baseline and its variance v (arrays: one decision each).

    ``test="drop"``: Z = (D + margin)/sqrt(v), p = N(Z) for H0: Phi_cur - Phi_base >=
    -margin; passes unless p < 1 - confidence. ``test="non-inferiority"``: p = 1 - N(Z)
    for H0: Phi_cur - Phi_base <= -margin; passes when p < 1 - confidence. A zero
    variance never passes non-inferiority (p is NaN: no pass by certainty; the assertion
    uses the identical-runs bound instead); for the drop test it gives Z = +-inf by the
    sign of D + margin. An undefined variance fails.

    Returns
    -------
    z, p, passed : ndarray (0-d for scalars)

    Examples
    --------
    >>> z, p, passed = decision(0.0, 0.03 ** 2, 0.05, test="non-inferiority")
    >>> round(float(z), 4), round(float(p), 4), bool(passed)
    (1.6667, 0.0478, True)
    >>> bool(decision(-0.2, 0.03 ** 2, 0.05)[2])
    False
    >>> bool(decision(0.0, 0.0, 0.05, test="non-inferiority")[2])    # no pass by certainty
    False
    """
    d = np.asarray(difference, dtype=np.float64)
    v = np.asarray(variance, dtype=np.float64)
    shift = d + margin
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(
            v > 0,
            shift / np.sqrt(np.where(v > 0, v, 1.0)),
            np.where(v == 0, np.sign(shift) * np.inf, np.nan),
        )
    if test == "non-inferiority":
        p = np.where(v > 0, stats.norm.sf(z), np.nan)
    else:
        p = stats.norm.cdf(z)
    rejected = p < 1 - confidence
    passed = (rejected if test == "non-inferiority" else ~rejected) & ~np.isnan(p)
    return z, p, passed


def identical_runs_needed(
    row,
    threshold: float,
    alpha: float,
    measure: str = "nogueira",
    options=None,
    limit: int = 100000,
) -> Optional[int]:
    """The fewest identical runs of ``row`` whose lower bound (:func:`identical_bound` at
    ``alpha``) exceeds ``threshold``; None when not even ``limit`` runs would.

    Examples
    --------
    >>> row = np.array([1, 1, 1] + [0] * 15, dtype=bool)
    >>> identical_runs_needed(row, 0.9, 0.05)
    69
    """

    def ok(m):
        return identical_bound(row, m, alpha, measure, options) > threshold

    if not ok(limit):
        return None
    lo, hi = 1, 2
    while not ok(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def _nogueira_and_variance(W, Z, k):
    """Nogueira's estimate and its Thm 6 variance for each row of weights ``W`` (B x M,
    multinomial counts of a bootstrap of the runs ``Z``, M x d, sizes ``k``)."""
    M, d = Z.shape
    n = W.sum(axis=1, keepdims=True)  # M each
    p = (W @ Z) / n  # B x d
    kbar = (W @ k) / n[:, 0]  # B
    s2 = M / (M - 1) * p * (1 - p)
    denom = kbar / d * (1 - kbar / d)
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = 1 - s2.mean(axis=1) / denom
        # Thm 6 per-run terms, one column per resample (M x B)
        terms = (
            Z @ p.T / d
            - np.outer(k, kbar) / d**2
            + phi / 2 * (2 * np.outer(k, kbar) / d**2 - k[:, None] / d - kbar / d + 1)
        ) / denom
        mean = (W.T * terms).sum(axis=0) / n[:, 0]
        var = 4 / M**2 * (W.T * (terms - mean) ** 2).sum(axis=0)
    return phi, var


def bootstrapped(info, paired: bool, options, variance: float) -> bool:
    """Whether the non-inferiority test is the bootstrap-t (:func:`bootstrap_pvalue`):
    Nogueira's measure without options, independent runs, a positive variance;
    otherwise the asymptotic normal test."""
    return (
        getattr(info, "name", info) == "nogueira" and not paired and not options and variance > 0
    )


#: resamples of each sample in the bootstrap-t of the non-inferiority test (and its seed)
BOOTSTRAP_RESAMPLES = 999
BOOTSTRAP_SEED = 0


def bootstrap_pvalue(
    baseline,
    current,
    margin: float,
    test: str,
    *,
    confidence_level: float = 0.95,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
):
    """The studentized bootstrap (bootstrap-t) of the difference of Nogueira's stability,
    current - baseline, for the drop or the non-inferiority test: each sample's runs
    resampled with replacement (independently), t* = (D* - D) / sqrt(v*) with the Thm 6
    variances of both resamples, against t = (D + margin) / sqrt(v) (Hall 1992).

    Returns
    -------
    p : float
        The p-value (NaN when the variance is 0).
    bound : float
        The one-sided ``confidence_level`` bound of the difference that the test inverts:
        the lower one for non-inferiority (it passes when above -margin), the upper one
        for the drop test.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> A = rng.random((60, 12)) < np.r_[[0.9] * 3, [0.1] * 9]
    >>> B = rng.random((60, 12)) < np.r_[[0.9] * 3, [0.1] * 9]
    >>> p, bound = bootstrap_pvalue(A, B, 0.0, "drop")
    >>> 0.05 < p < 0.95
    True
    """
    Zb = np.asarray(baseline, dtype=np.float64)
    Zc = np.asarray(current, dtype=np.float64)
    rng = np.random.default_rng(seed)
    out = []
    for Z in (Zb, Zc):
        M = Z.shape[0]
        k = Z.sum(axis=1)
        W = rng.multinomial(M, np.full(M, 1.0 / M), size=n_resamples).astype(np.float64)
        out.append(
            (_nogueira_and_variance(np.ones((1, M)), Z, k), _nogueira_and_variance(W, Z, k))
        )
    ((pb, vb), (pb_star, vb_star)), ((pc, vc), (pc_star, vc_star)) = out
    D, v = float(pc[0] - pb[0]), float(vb[0] + vc[0])
    if not v > 0:
        return math.nan, math.nan
    D_star, v_star = pc_star - pb_star, vb_star + vc_star
    ok = v_star > 0
    t_star = (D_star[ok] - D) / np.sqrt(v_star[ok])
    t = (D + margin) / math.sqrt(v)
    if test == "non-inferiority":  # reject for large t
        p = float((1 + np.sum(t_star >= t)) / (1 + t_star.size))
        return p, D - float(np.quantile(t_star, confidence_level)) * math.sqrt(v)
    p = float((1 + np.sum(t_star <= t)) / (1 + t_star.size))
    return p, D - float(np.quantile(t_star, 1 - confidence_level)) * math.sqrt(v)
