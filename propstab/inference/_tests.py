"""The one- and two-sample tests and their results (thesis sec. 5.2.5, Thm 7; permutation tests below 100 runs).

Part of :mod:`propstab.inference` (public names are imported from there).
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Optional, Tuple
import numpy as np
from scipy import special, stats
from .._utils.checks import fail
from ._intervals import bootstrap_variance, clip, transformed_statistic, transformed_wald
from ._permutation import permutation_test
from ..measures._variance import PER_RUN_OPTIONS, degenerate, leave_one_out, spread
from .._utils.exceptions import UndefinedMeasureWarning, warn
from ..measures._stability import MEASURE_NAME
from .._utils.params import (
    Boolean,
    Integral,
    Interval,
    N_FEATURES,
    Options,
    RandomState,
    Real,
    validate_params,
)
from ..registry._registry import get_measure
from .._utils.results import UnpackingResult
from .._utils.text import Summary, interval, level_label, number, summary
from .._data.convert_rankings import as_named_input
from ..registry._option_checks import check_comparable, check_null_value
from .._utils.checks import check_confidence_level
from ._warnings import (
    ALTERNATIVES,
    CI_METHODS,
    ONE_SAMPLE_TESTS,
    PERMUTATION_BELOW,
    TEST_METHODS,
    VARIANCE_METHODS,
    ZeroVarianceWarning,
    auto_interval,
    warn_small_sample,
    warn_zero,
)
from ._estimates import StabilityEstimate, estimate, quietly, variance_label
from ._wald import ConfidenceInterval, wald_interval


def _z_and_pvalue(difference: float, variance: float, alternative: str, what: str):
    if variance == 0:
        warn_zero(f"the variance of {what} is 0")
        z = 0.0 if difference == 0 else math.copysign(math.inf, difference)
    else:
        z = difference / math.sqrt(variance) if variance > 0 else float("nan")
    if alternative == "greater":
        p = special.ndtr(-z)
    elif alternative == "less":
        p = special.ndtr(z)
    else:
        p = 2 * special.ndtr(-abs(z))
    return float(z), float(p)


HYPOTHESES = {"two-sided": "!=", "greater": ">", "less": "<"}


class _TestResult(UnpackingResult):
    """What every test result shares beyond the result base: it unpacks as
    ``(statistic, pvalue)`` like scipy's results (``statistic, pvalue = result``), its
    summary shows the confidence interval matching the test, and its frame row adds
    that interval to the ``repr``'s fields."""

    statistic: float
    pvalue: float
    _unpack = ("statistic", "pvalue")

    def _records(self):
        low, high = quietly(self.confidence_interval, 0.95)
        return [{**self._repr_values(), "ci_low": low, "ci_high": high}]

    def summary(self, confidence_level: float = 0.95) -> Summary:
        """A few lines: the hypotheses, the estimate(s), the statistic, the p-value and the
        confidence interval matching the test's alternative.

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        confidence_level = check_confidence_level(confidence_level)
        title, rows = self._summary_rows()
        low, high = quietly(self.confidence_interval, confidence_level)
        rows.insert(-1, (level_label(confidence_level), interval(low, high)))
        return summary(title, rows)


@dataclasses.dataclass(frozen=True, repr=False)
class OneSampleTestResult(_TestResult):
    """Result of :func:`one_sample_test`.

    Unpacks as ``statistic, pvalue = result`` (like scipy's results); ``repr`` is one
    line, ``str`` (and ``print``) show :meth:`summary`.

    Parameters
    ----------
    statistic : float
        :math:`V_M`, the test statistic.
    pvalue : float
        The p-value.
    alternative : str
        ``"two-sided"``, ``"greater"`` or ``"less"``.
    phi0 : float
        The value of the null hypothesis.
    estimate : StabilityEstimate
        The estimate tested.

    Attributes
    ----------
    statistic : float
        :math:`V_M = (\\hat\\Phi - \\phi_0) / \\sqrt{v}`.
    pvalue : float
    alternative : str
    phi0 : float
    estimate : StabilityEstimate

    See Also
    --------
    propstab.one_sample_test : Returns it.
    propstab.inference.TwoSampleTestResult : The result of the two-sample test.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2.5 (the one-sample test) and
    Cor. 1.

    Examples
    --------
    >>> from propstab import one_sample_test
    >>> res = one_sample_test([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]], 0.2,
    ...                       test="wald")                 # the thesis's test
    >>> res
    OneSampleTestResult(statistic=1.386, pvalue=0.08293, alternative='greater', phi0=0.2,
                        measure='nogueira')
    >>> statistic, pvalue = res
    >>> round(statistic, 4), round(pvalue, 4)
    (1.3856, 0.0829)
    >>> print(res)
    One-sample test of stability (thesis sec. 5.2.5)
    hypotheses       H0: Phi = 0.2, H1: Phi > 0.2
    estimate         0.5000 (SE 0.2165, nogueira, analytic: thesis Thm 6)
    V_M              1.3856
    p-value          0.08293
    95% CI           [0.1439, 1.0000]
    runs x features  4 x 4
    """

    statistic: float
    pvalue: float
    alternative: str
    phi0: float
    estimate: StabilityEstimate
    test: str = "wald"

    def _repr_values(self):
        return {
            "statistic": self.statistic,
            "pvalue": self.pvalue,
            "alternative": self.alternative,
            "phi0": self.phi0,
            "measure": self.estimate.measure,
        }

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The confidence interval for the population stability Phi that matches the test.

        Two-sided for ``alternative="two-sided"``; ``[low, hi]`` for ``"greater"`` and
        ``[lo, high]`` for ``"less"``, with [lo, hi] the measure's range
        (:attr:`StabilityEstimate.range`; an undeclared bound is infinite): the interval
        holds the values phi0 in the range that the test would not reject at level
        1 - ``confidence_level``, so a phi0 (which must lie in the range) lies outside it
        exactly when ``pvalue < 1 - confidence_level``. Every interval is clipped to the
        range.

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``; NaN bounds when the estimate or its variance is undefined.

        Raises
        ------
        ValueError, TypeError
            ``confidence_level`` not a number in (0, 1).

        Warns
        -----
        ZeroVarianceWarning
            When the variance is 0 (the interval is then degenerate).

        See Also
        --------
        StabilityEstimate.confidence_interval : The two-sided interval of an estimate.

        Notes
        -----
        The variance is the one the test uses, :math:`v(\\hat\\Phi)` (thesis Thm 6, or
        the jackknife): with :math:`z_q` the standard normal q-quantile and
        :math:`\\alpha = 1 - ` ``confidence_level``,

        .. math:: [\\hat\\Phi - z_{1-\\alpha}\\sqrt{v}, \\infty) \\quad
                  (\\text{greater}), \\qquad
                  \\hat\\Phi \\pm z_{1-\\alpha/2}\\sqrt{v} \\quad (\\text{two-sided}),

        the inversion of :math:`V_M = (\\hat\\Phi - \\Phi_0)/\\sqrt{v}`
        (thesis sec. 5.2.5); the two-sided interval is thesis Cor. 1.

        References
        ----------
        Nogueira (2018), thesis sec. 5.2, Cor. 1 and sec. 5.2.5.

        Examples
        --------
        >>> from propstab import one_sample_test
        >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
        >>> res = one_sample_test(Z, 0.2, test="wald")        # H1: Phi > 0.2
        >>> low, high = res.confidence_interval(0.9)
        >>> round(low, 4), high                  # up to nogueira's maximum
        (0.2225, 1.0)
        >>> res = one_sample_test(Z, 0.2)        # M < 100: logit scale, jackknife variance
        >>> low, high = res.confidence_interval(0.9)
        >>> round(low, 4), high
        (-0.2959, 1.0)
        >>> bool(res.pvalue < 0.1) == bool(low > 0.2)         # the interval inverts the test
        True
        """
        level = check_confidence_level(confidence_level)
        e = self.estimate
        what = f"the {e.method} variance of {e.measure}"
        if self.test == "logit" and e.variance > 0 and not math.isnan(e.statistic):
            lo, hi = e.range
            two = self.alternative == "two-sided"
            z = float(special.ndtri(0.5 + level / 2 if two else level))
            low, high = transformed_wald(e.statistic, e.variance, z, lo, hi)
            low, high = (
                low if self.alternative != "less" else -math.inf,
                high if self.alternative != "greater" else math.inf,
            )
            return ConfidenceInterval(*clip(low, high, lo, hi))
        return wald_interval(e.statistic, e.variance, level, self.alternative, what, e.range)

    def _summary_rows(self):
        e, op = self.estimate, HYPOTHESES[self.alternative]
        phi0 = number(self.phi0)
        return (
            "One-sample test of stability (thesis sec. 5.2.5)",
            [
                ("hypotheses", f"H0: Phi = {phi0}, H1: Phi {op} {phi0}"),
                (
                    "estimate",
                    f"{number(e.statistic, fixed=True)} (SE "
                    f"{number(e.standard_error, fixed=True)}, {e.measure}, "
                    f"{variance_label(e)})",
                ),
                (
                    "V_M" if self.test == "wald" else "V_M (logit)",
                    number(self.statistic, fixed=True)
                    + (
                        ""
                        if self.test == "wald"
                        else f" (on the logit scale of the range, {CI_METHODS['logit']})"
                    ),
                ),
                ("p-value", number(self.pvalue)),
                ("runs x features", f"{e.n_runs} x {e.n_features}"),
            ],
        )


@dataclasses.dataclass(frozen=True, repr=False)
class TwoSampleTestResult(_TestResult):
    """Result of :func:`two_sample_test`.

    Unpacks as ``statistic, pvalue = result`` (like scipy's results); ``repr`` is one
    line, ``str`` (and ``print``) show :meth:`summary`.

    Parameters
    ----------
    statistic : float
        The standardised difference (first minus second), the test statistic.
    pvalue : float
        The p-value.
    alternative : str
        ``"two-sided"``, ``"greater"`` or ``"less"``, about Phi_1 - Phi_2.
    paired : bool
        Whether the runs were paired.
    difference : float
        Phi(Z1) - Phi(Z2).
    variance : float
        The estimated variance of the difference.
    estimates : tuple of StabilityEstimate
        The estimates for Z1 and Z2.
    test : str, default "asymptotic"
        The test that gave the p-value: ``"asymptotic"`` or ``"permutation"``.
    n_resamples : int or None, optional
        The rearrangements of the permutation test (None for the asymptotic test).
    exact : bool or None, optional
        Whether the permutation test enumerated every rearrangement.

    Attributes
    ----------
    statistic : float
        :math:`(\\hat\\Phi(Z_1) - \\hat\\Phi(Z_2)) / \\sqrt{v_D}` (:math:`v_D` the variance
        of the difference): minus the thesis's :math:`T_M`
        (Thm 7 writes second minus first), in the direction of scipy's and R's tests.
    pvalue : float
        From N(0, 1) (``test="asymptotic"``) or from the permutation distribution of the
        difference (``test="permutation"``).
    alternative : str
        About Phi_1 - Phi_2 ("greater": the first is more stable), as
        ``scipy.stats.ttest_rel(a, b, alternative="greater")`` (a > b) and R's
        ``t.test(x, y, alternative = "greater")`` (x > y).
    paired : bool
    difference : float
        Phi(Z1) - Phi(Z2).
    variance : float
        Estimated variance of the difference: v1 + v2, or from the paired terms.
    estimates : tuple of StabilityEstimate
        The estimates for Z1 and Z2.
    test : str
        ``"asymptotic"`` or ``"permutation"``.
    n_resamples : int or None
        The number of rearrangements the permutation p-value is based on.
    exact : bool or None
        True when the permutation test enumerated all rearrangements.

    See Also
    --------
    propstab.two_sample_test : Returns it.
    propstab.inference.PairwiseTestTable : The same test over every pair of procedures.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 7 (the two-sample test) and
    sec. 5.2.

    Examples
    --------
    >>> from propstab import two_sample_test
    >>> Z1 = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]
    >>> Z2 = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
    >>> res = two_sample_test(Z2, Z1, test="asymptotic")
    >>> res
    TwoSampleTestResult(statistic=2.241, pvalue=0.02502, alternative='two-sided', paired=False,
                        difference=0.6, measure='nogueira', test='asymptotic')
    >>> print(res)
    Two-sample test of stability (thesis Thm 7)
    hypotheses       H0: Phi_1 = Phi_2, H1: Phi_1 != Phi_2
    estimates        Phi_1 0.6000 (SE 0.2147), Phi_2 0.0000 (SE 0.1600)
    difference       0.6000 (Phi_1 - Phi_2, SE 0.2677)
    statistic        2.2411 (difference / SE; thesis T_M = -2.2411)
    test             asymptotic: N(0, 1) (thesis Thm 7)
    p-value          0.02502
    95% CI           [0.0753, 1.1247]
    runs x features  5 x 4 and 5 x 4
    """

    statistic: float
    pvalue: float
    alternative: str
    paired: bool
    difference: float
    variance: float
    estimates: Tuple[StabilityEstimate, StabilityEstimate]
    test: str = "asymptotic"
    n_resamples: Optional[int] = None
    exact: Optional[bool] = None

    def _repr_values(self):
        return {
            "statistic": self.statistic,
            "pvalue": self.pvalue,
            "alternative": self.alternative,
            "paired": self.paired,
            "difference": self.difference,
            "measure": self.estimates[0].measure,
            "test": self.test,
        }

    @property
    def test_description(self) -> str:
        """Which test gave the p-value, in words (the summary's ``test`` line)."""
        if self.test == "asymptotic":
            return "asymptotic: N(0, 1) (thesis Thm 7)"
        what = "swap patterns of the pairs" if self.paired else "splits of the pooled runs"
        how = (
            f"exact, all {self.n_resamples} {what}"
            if self.exact
            else f"Monte Carlo, {self.n_resamples} random {what}"
        )
        return f"permutation of the difference ({how})"

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The confidence interval for Phi_1 - Phi_2 that matches the test's alternative.

        Two-sided for ``alternative="two-sided"``; one-sided for ``"greater"`` (H1:
        Phi_1 > Phi_2: ``[low, hi]``) and ``"less"`` (``[lo, high]``), as scipy's
        ``TtestResult``: it holds the differences the asymptotic test would not reject,
        so 0 lies outside it exactly when its p-value is below ``1 - confidence_level``.
        It is clipped to the range of a difference, [lo_1 - hi_2, hi_1 - lo_2] from the
        measure's range (e.g. [-2, 2] for ``nogueira``), which is also the open end of a
        one-sided interval. It is the Wald interval of the difference for either test
        (the permutation test gives a p-value, not an interval).

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95

        Returns
        -------
        ConfidenceInterval
            ``(low, high)`` for the difference; NaN bounds when it or its variance is
            undefined.

        Raises
        ------
        ValueError, TypeError
            ``confidence_level`` not a number in (0, 1).

        Warns
        -----
        ZeroVarianceWarning
            When the variance of the difference is 0.

        See Also
        --------
        OneSampleTestResult.confidence_interval

        Notes
        -----
        The variance is :attr:`variance`, the one the test divides by:
        :math:`v(\\hat\\Phi(Z_1)) + v(\\hat\\Phi(Z_2))` (thesis Thm 7) or, paired, the
        spread of the per-run differences. By the proof of Thm 7 the difference is
        asymptotically normal with mean :math:`\\Phi_1 - \\Phi_2`, so (two-sided)

        .. math:: \\hat\\Phi(Z_1) - \\hat\\Phi(Z_2) \\pm z_{1-\\alpha/2}\\sqrt{v},

        and :math:`z_{1-\\alpha}` with one end at the range's for one-sided alternatives.

        References
        ----------
        Nogueira (2018), thesis sec. 5.2, Cor. 1 and Thm 7.

        Examples
        --------
        >>> from propstab import two_sample_test
        >>> Z1 = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]
        >>> Z2 = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
        >>> res = two_sample_test(Z2, Z1, alternative="greater")   # H1: Z2 more stable
        >>> low, high = res.confidence_interval(0.95)
        >>> round(low, 4), high                  # up to 1 - (-1), the largest difference
        (0.1596, 2.0)
        """
        level = check_confidence_level(confidence_level)
        (lo1, hi1), (lo2, hi2) = (e.range for e in self.estimates)
        return wald_interval(
            self.difference,
            self.variance,
            level,
            self.alternative,
            f"the variance of the difference of {self.estimates[0].measure}",
            (lo1 - hi2, hi1 - lo2),
        )

    def _summary_rows(self):
        e1, e2 = self.estimates
        op = HYPOTHESES[self.alternative]
        sd = math.sqrt(self.variance) if self.variance >= 0 else float("nan")
        title = "Two-sample test of stability (thesis Thm 7)"
        if self.paired:
            title = "Paired two-sample test of stability (thesis Thm 7, paired variance)"
        return (
            title,
            [
                ("hypotheses", f"H0: Phi_1 = Phi_2, H1: Phi_1 {op} Phi_2"),
                (
                    "estimates",
                    f"Phi_1 {number(e1.statistic, fixed=True)} "
                    f"(SE {number(e1.standard_error, fixed=True)}), "
                    f"Phi_2 {number(e2.statistic, fixed=True)} "
                    f"(SE {number(e2.standard_error, fixed=True)})",
                ),
                (
                    "difference",
                    f"{number(self.difference, fixed=True)} (Phi_1 - Phi_2, SE "
                    f"{number(sd, fixed=True)})",
                ),
                (
                    "statistic",
                    f"{number(self.statistic, fixed=True)} (difference / SE; "
                    f"thesis T_M = {number(-self.statistic + 0.0, fixed=True)})",
                ),
                ("test", self.test_description),
                ("p-value", number(self.pvalue)),
                (
                    "runs x features",
                    f"{e1.n_runs} x {e1.n_features} and " f"{e2.n_runs} x {e2.n_features}",
                ),
            ],
        )


@validate_params(
    {
        "phi0": Interval(Real),
        "alternative": Options(*ALTERNATIVES),
        "measure": MEASURE_NAME,
        "method": Options(*VARIANCE_METHODS),
        "test": Options(*ONE_SAMPLE_TESTS),
        "n_features": [N_FEATURES, None],
    }
)
def one_sample_test(
    Z,
    /,
    phi0: float,
    *,
    alternative: str = "greater",
    measure: str = "nogueira",
    method: str = "auto",
    test: str = "auto",
    n_features=None,
    feature_names=None,
    **options,
) -> OneSampleTestResult:
    """Test whether the population stability exceeds (is below, differs from) ``phi0``.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    phi0 : float
        The stability under the null hypothesis H0: Phi = phi0.
    alternative : {"greater", "less", "two-sided"}
        H1: Phi > phi0 (the thesis's test), Phi < phi0, or Phi != phi0.
    measure, method
        As for :func:`estimate`; with ``test="auto"`` and ``method="auto"`` below
        ``SMALL_M_BELOW`` (100) runs the variance is the jackknife's.
    test : {"auto", "wald", "logit"}, default "auto"
        ``"wald"``: :math:`V_M = (\\hat\\Phi - \\Phi_0)/\\sqrt v` against N(0, 1)
        (thesis sec. 5.2.5); ``"logit"``: the same on the logit scale of the measure's
        range, the test that the
        logit interval inverts; ``"auto"``: the test that inverts the default interval
        (``propstab.inference.auto_interval``): below 100 runs the logit test with the jackknife
        variance (in the small-M study the one-sided 5 % test rejected a true value
        0.8-6.2 % of the time at M = 10, the Wald test with Thm 6's variance 16.0-19.3 %
        for nogueira), from 100 runs on the Wald test.
    n_features, feature_names, **options
        As for :func:`estimate`.

    Returns
    -------
    OneSampleTestResult

    Raises
    ------
    ValueError, TypeError
        Invalid input, ``alternative`` or ``phi0``.

    Warns
    -----
    ZeroVarianceWarning
        When the estimated variance is 0 (every run the same).
    DegenerateVarianceWarning
        When the estimate's variance was degenerate and replaced (:func:`estimate`).
    SmallSampleWarning
        When M is below ``SMALL_M_BELOW`` (100): no test holds its nominal level
        everywhere there; the message gives the rate the small-M study measured for the
        test that ran.

    See Also
    --------
    propstab.estimate : The estimate and variance the test uses.
    propstab.two_sample_test : Compares two procedures.

    Notes
    -----
    Thesis sec. 5.2.5: :math:`V_M = (\\hat\\Phi - \\Phi_0)/\\sqrt{v(\\hat\\Phi)}` is
    asymptotically N(0, 1) under H0; the p-value of "greater" is
    :math:`1 - \\Phi_{N}(V_M)`.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2.5 (the test) and Cor. 1.

    Examples
    --------
    >>> from propstab import one_sample_test
    >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
    >>> res = one_sample_test(Z, 0.2)        # M < 100: the logit test, jackknife variance
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (0.5199, 0.3016)
    >>> res = one_sample_test(Z, 0.2, test="wald")         # thesis sec. 5.2.5
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (1.3856, 0.0829)
    """
    est = estimate(
        Z, measure, method=method, n_features=n_features, feature_names=feature_names, **options
    )
    check_null_value(phi0, get_measure(est.measure), est.n_runs, est.n_features, est.subset_sizes)
    if test == "auto":
        test, jackknife = auto_interval(est.n_runs)
        if jackknife and method == "auto" and est._jackknife_applies():
            est = dataclasses.replace(
                est,
                variance=est.jackknife_variance(),
                method="jackknife",
                terms=leave_one_out(
                    est.selection, get_measure(est.measure), dict(est.options or {})
                ),
                factor=(est.n_runs - 1) / est.n_runs,
            )
    if test == "logit" and est.variance > 0 and not math.isnan(est.statistic):
        lo, hi = est.range
        z = transformed_statistic(est.statistic, phi0, est.variance, lo, hi)
        p = {"greater": special.ndtr(-z), "less": special.ndtr(z)}.get(
            alternative, 2 * special.ndtr(-abs(z))
        )
        z, p = float(z), float(p)
    else:
        z, p = _z_and_pvalue(est.statistic - phi0, est.variance, alternative, est.measure)
    key = f"{test} (jackknife)" if est.method == "jackknife" else test
    warn_small_sample(est.n_runs, key, alternative)
    return OneSampleTestResult(z, p, alternative, phi0, est, test)


def _paired_variance(e1: StabilityEstimate, e2: StabilityEstimate) -> float:
    """The variance of the difference from the per-run terms of both estimates; where one
    of them replaced a degenerate variance by the bootstrap
    (``StabilityEstimate.variance_note``), the paired bootstrap of the difference
    (the same resamples of the runs for both), and NaN where one is NaN. A degenerate
    difference of runs that differ takes the paired bootstrap too."""
    if math.isnan(e1.variance) or math.isnan(e2.variance):
        return float("nan")
    info = get_measure(e1.measure)
    options = dict(e1.options or {})
    if e1.method == e2.method != "bootstrap":
        delta = e2.terms - e1.terms
        if not (
            degenerate(delta, e1.n_runs, e1.n_features)
            and not _same_runs(e1.selection, e2.selection)
        ):
            return float(spread(delta, e1.factor))
    if e1.selection is None or e2.selection is None:
        return float("nan")
    return bootstrap_variance(e1.selection, info, options, other=e2.selection)[0]


def _same_runs(sel1, sel2) -> bool:
    """Whether two selections hold the same runs (then their difference is exactly 0)."""
    if sel1 is None or sel2 is None:
        return True
    a, b = sel1.stored(), sel2.stored()
    a = a.toarray() if hasattr(a, "toarray") else np.asarray(a)
    b = b.toarray() if hasattr(b, "toarray") else np.asarray(b)
    return a.shape == b.shape and bool(np.all(a == b))


def chosen_test(test: str, n_runs1: int, n_runs2: int) -> str:
    """The test ``test="auto"`` runs for samples of ``n_runs1`` and ``n_runs2`` runs.

    Parameters
    ----------
    test : {"auto", "permutation", "asymptotic"}
    n_runs1, n_runs2 : int
        :math:`M_1` and :math:`M_2`.

    Returns
    -------
    str
        ``"permutation"`` when ``test="auto"`` and either sample has fewer than
        ``PERMUTATION_BELOW`` (100) runs, ``"asymptotic"`` for ``"auto"`` otherwise;
        any other ``test`` as it is.

    Raises
    ------
    None
        The arguments are validated by the callers.

    See Also
    --------
    two_sample_test : Its argument ``test``.

    References
    ----------
    docs/inference_validation.md, "Small M" (the small-M study): the levels
    this rule follows.

    Examples
    --------
    >>> chosen_test("auto", 30, 30), chosen_test("auto", 100, 100), chosen_test("auto", 99, 500)
    ('permutation', 'asymptotic', 'permutation')
    """
    if test != "auto":
        return test
    return "permutation" if min(n_runs1, n_runs2) < PERMUTATION_BELOW else "asymptotic"


#: the declared rules that two_sample_test and pairwise_tests share
COMPARISON_RULES = {
    "paired": Boolean(),
    "alternative": Options(*ALTERNATIVES),
    "measure": MEASURE_NAME,
    "method": Options(*VARIANCE_METHODS),
    "test": Options(*TEST_METHODS),
    "n_resamples": Interval(Integral, 99, 10**6),
    "random_state": RandomState(),
    "n_features": [N_FEATURES, None],
}


def compare(
    sel1,
    sel2,
    *,
    paired,
    alternative,
    measure,
    method,
    options,
    names,
    test="auto",
    n_resamples=9999,
    rng=None,
):
    check_comparable(sel1, sel2, paired=paired, names=names)
    for name in PER_RUN_OPTIONS:
        if options.get(name) is not None:
            fail(
                f"{name}: holds one row per run of one matrix, so it cannot be "
                f"shared by the compared matrices; compare estimates computed "
                f"with propstab.estimate instead; got {name}= for {measure!r}"
            )
    e1 = estimate(sel1, measure, method=method, **options)
    e2 = estimate(sel2, measure, method=method, **options)
    diff = e1.statistic - e2.statistic
    variance = _paired_variance(e1, e2) if paired else e1.variance + e2.variance
    test = chosen_test(test, e1.n_runs, e2.n_runs)
    if test == "asymptotic":
        z, p = _z_and_pvalue(diff, variance, alternative, f"the difference of {e1.measure}")
        return TwoSampleTestResult(z, p, alternative, paired, diff, variance, (e1, e2))
    with warnings.catch_warnings():  # the p-value does not divide by the variance
        warnings.simplefilter("ignore", ZeroVarianceWarning)
        z, _ = _z_and_pvalue(diff, variance, alternative, f"the difference of {e1.measure}")
    info = get_measure(measure)
    perm = permutation_test(
        sel1,
        sel2,
        info,
        dict(options),
        paired=paired,
        alternative=alternative,
        n_resamples=n_resamples,
        rng=np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng,
    )
    n_nan = int(np.isnan(perm.null_distribution).sum())
    if n_nan and not math.isnan(perm.pvalue):
        warn(
            f"{info.name} is undefined on {n_nan} of {perm.n_resamples} rearrangements of "
            f"the runs; the permutation p-value uses the other "
            f"{perm.n_resamples - n_nan}",
            UndefinedMeasureWarning,
        )
    return TwoSampleTestResult(
        z,
        perm.pvalue,
        alternative,
        paired,
        diff,
        variance,
        (e1, e2),
        "permutation",
        perm.n_resamples,
        perm.exact,
    )


@validate_params(COMPARISON_RULES)
def two_sample_test(
    Z1,
    Z2,
    /,
    *,
    paired: bool = False,
    alternative: str = "two-sided",
    measure: str = "nogueira",
    method: str = "auto",
    test: str = "auto",
    n_resamples: int = 9999,
    random_state=0,
    n_features=None,
    feature_names=None,
    **options,
) -> TwoSampleTestResult:
    """Test whether two feature selection procedures have equal population stability.

    The difference is first minus second, Phi_1 - Phi_2, and ``alternative="greater"``
    means that the first (``Z1``) is more stable, as in
    ``scipy.stats.ttest_ind(a, b, alternative="greater")`` (a > b) and R's
    ``t.test(x, y, alternative = "greater")`` (x > y).

    Parameters
    ----------
    Z1, Z2 : selection matrices over the same d features
    paired : bool, default False
        False: independent samples (thesis Thm 7). True: the two procedures were run on
        the same M resamples (row i of Z1 and of Z2 come from resample i); the variance
        of the difference is then estimated from the per-run terms of both estimates,
        and the permutation test swaps the two runs of a resample.
    alternative : {"two-sided", "greater", "less"}
        H1: Phi_1 != Phi_2, Phi_1 > Phi_2 (the first is more stable), Phi_1 < Phi_2.
    measure, method
        As for :func:`estimate` (the same measure for both; ``method`` is the variance).
    test : {"auto", "permutation", "asymptotic"}, default "auto"
        ``"asymptotic"``: the statistic against N(0, 1) (thesis Thm 7), which holds its
        level for M >= 100 runs. ``"permutation"``: the permutation distribution of the
        difference (see Notes), whose level holds at any M. ``"auto"``: the permutation
        test when either sample has fewer than ``PERMUTATION_BELOW`` (100) runs, the
        asymptotic one otherwise (docs/inference_validation.md, "Small M"). The result's
        ``test`` and summary say which ran.
    n_resamples : int, default 9999
        The permutation test's rearrangements: all of them are enumerated when there
        are at most ``n_resamples`` (:math:`\\binom{M_1 + M_2}{M_1}` splits, or
        :math:`2^M` swap patterns when
        paired), else ``n_resamples`` are drawn at random (scipy's
        ``permutation_test`` rule and default).
    random_state : None, int or numpy Generator, default 0
        The seed of the random rearrangements (the default 0 makes the p-value
        reproducible).
    n_features, feature_names, **options
        As for :func:`estimate`.

    Returns
    -------
    TwoSampleTestResult

    Raises
    ------
    ValueError, TypeError
        Invalid input, different d, ``paired=True`` with different M, an unknown
        ``test`` or an invalid ``n_resamples`` (an integer from 99 to 10^6) or
        ``random_state``.

    Warns
    -----
    ZeroVarianceWarning
        When the variance of the difference is 0 (asymptotic test).
    DegenerateVarianceWarning
        When an estimate's variance was degenerate and replaced (:func:`estimate`); the
        paired variance is then the bootstrap variance of the difference over the same
        resamples of the runs.
    UndefinedMeasureWarning
        When the measure is undefined on some rearrangements (permutation test; the
        p-value uses the others).

    See Also
    --------
    propstab.pairwise_tests : The test over every pair of several procedures.
    propstab.one_sample_test : Tests one procedure against a value.
    scipy.stats.permutation_test : The same p-values for a statistic of one's own.

    Notes
    -----
    The statistic is the standardised difference

    .. math:: \\frac{\\hat\\Phi(Z_1) - \\hat\\Phi(Z_2)}
              {\\sqrt{v(\\hat\\Phi(Z_1)) + v(\\hat\\Phi(Z_2))}} = -T_M,

    asymptotically N(0, 1) under H0 (thesis Thm 7, whose :math:`T_M` is second minus
    first: the two-sided p-value is the same, the one-sided alternatives exchange).

    Paired: with per-run terms :math:`u_i` of each estimate (Thm 6's
    :math:`\\hat\\Phi_{(i)}`, or leave-one-out values), the difference's variance is
    :math:`c\\sum_i (\\delta_i - \\bar\\delta)^2` with :math:`\\delta_i = u^{(1)}_i - u^{(2)}_i`
    (:math:`c = 4/M^2`, or :math:`(M-1)/M` for the jackknife): the delta method (jackknife)
    applied to
    the difference, which keeps the covariance the independent test ignores.

    Permutation test: the statistic permuted is the difference
    :math:`D = \\hat\\Phi(Z_1) - \\hat\\Phi(Z_2)` itself (not studentised).
    Independent samples: the pooled runs split again into :math:`M_1` and :math:`M_2`
    runs; paired: the two runs of each resample swapped or not. Under :math:`H_0` that
    the runs (the pairs' two
    members) are exchangeable, i.e. both procedures draw runs from one distribution, the
    level holds exactly at any M. The p-values are scipy's ``permutation_test``'s
    (``(#{D* >= D} + a) / (n + a)`` for "greater", a = 0 exact, 1 Monte Carlo; twice the
    smaller one-sided p-value for "two-sided"). The rearrangements' values come from the
    measure's kernels all at once (as the bootstrap intervals' do).

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 7 (the test) and sec. 5.2; Efron,
    B., Stein, C. (1981). The jackknife estimate of variance. Ann. Stat. 9(3), 586-596
    (the paired variance from per-run terms); Good, P. (2005). Permutation, Parametric
    and Bootstrap Tests of Hypotheses, 3rd ed. Springer (permutation tests); Phipson, B.,
    Smyth, G. K. (2010). Permutation p-values should never be zero. Stat. Appl. Genet.
    Mol. Biol. 9(1), 39 (the + 1 of the Monte Carlo p-value).

    Examples
    --------
    >>> from propstab import two_sample_test
    >>> Z1 = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
    >>> Z2 = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]
    >>> res = two_sample_test(Z1, Z2, test="asymptotic")       # Z1 is more stable
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (2.2411, 0.025)
    >>> res = two_sample_test(Z1, Z2)          # M = 5: "auto" runs the permutation test
    >>> res.test, res.exact, res.n_resamples, round(res.pvalue, 4)
    ('permutation', True, 252, 0.2857)
    >>> round(two_sample_test(Z1, Z2, paired=True, test="asymptotic").statistic, 4)
    3.289
    """
    kind = get_measure(measure).input
    sel1 = as_named_input(
        kind, Z1, "Z1", n_features=n_features, feature_names=feature_names, owner=measure
    )
    sel2 = as_named_input(
        kind, Z2, "Z2", n_features=n_features, feature_names=feature_names, owner=measure
    )
    return compare(
        sel1,
        sel2,
        paired=paired,
        alternative=alternative,
        measure=measure,
        method=method,
        options=options,
        names=("Z1", "Z2"),
        test=test,
        n_resamples=n_resamples,
        rng=random_state,
    )
