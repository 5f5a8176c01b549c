"""The one-sample test and its result (thesis sec. 5.2.5, Cor. 1), and what the
two-sample tests share with it (the result's frame, the normal p-value).

Part of :mod:`propstab.inference` (public names are imported from there).
"""
from __future__ import annotations

import dataclasses
import math
from scipy import special
from ._intervals import clip, transformed_statistic, transformed_wald
from ..measures._variance import leave_one_out
from ..measures._stability import MEASURE_NAME
from .._utils.params import Interval, N_FEATURES, Options, Real, validate_params
from ..registry._registry import get_measure, lookup
from .._utils.results import UnpackingResult
from .._utils.text import Summary, interval, level_label, number, summary
from ..registry._option_checks import check_null_value
from .._utils.checks import check_confidence_level
from ._warnings import (
    ALTERNATIVES,
    CI_METHODS,
    ONE_SAMPLE_TESTS,
    VARIANCE_METHODS,
    auto_interval,
    warn_small_sample,
    warn_zero,
)
from ._estimates import ESTIMAND, StabilityEstimate, estimate, quietly, variance_label
from ._wald import ConfidenceInterval, wald_interval


def z_and_pvalue(difference: float, variance: float, alternative: str, what: str):
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


class TestResult(UnpackingResult):
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
        rows.insert(1, ("estimand", ESTIMAND))
        return summary(title, rows)


@dataclasses.dataclass(frozen=True, repr=False)
class OneSampleTestResult(TestResult):
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
    >>> import warnings
    >>> from propstab import one_sample_test
    >>> with warnings.catch_warnings(record=True) as caught:   # M = 4
    ...     warnings.simplefilter("always")
    ...     res = one_sample_test([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]], 0.2,
    ...                           test="wald")             # the thesis's test
    >>> print(caught[0].message)
    M < 10 runs: the one-sided 5 % Wald test rejected a true value 4.5-19.3 % at M = 10 in the
    small-M study; for 5 % use 50 or more runs
    >>> res
    OneSampleTestResult(statistic=1.386, pvalue=0.08293, alternative='greater', phi0=0.2,
                        measure='nogueira')
    >>> statistic, pvalue = res
    >>> round(statistic, 4), round(pvalue, 4)
    (1.3856, 0.0829)
    >>> print(res)
    One-sample test of stability (thesis sec. 5.2.5)
    hypotheses       H0: Phi = 0.2, H1: Phi > 0.2
    estimand         Phi of the process that made these runs (resampled data: given that data set)
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
        >>> import warnings
        >>> from propstab import one_sample_test
        >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
        >>> with warnings.catch_warnings(record=True) as caught:   # M = 4
        ...     warnings.simplefilter("always")
        ...     res = one_sample_test(Z, 0.2, test="wald")    # H1: Phi > 0.2
        >>> caught[0].category.__name__
        'SmallSampleWarning'
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
        When M is below ``SMALL_M_BELOW`` (100) and the small-M study measured the test
        that ran above its nominal level at that M (by more than the study's tolerance of
        3 binomial SE): the message gives the measured rate and the runs that hold it.
        Not for a NaN p-value, nor for the default one-sided ``"greater"`` test where it
        held its level.

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
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     res = one_sample_test(Z, 0.2, test="wald")     # thesis sec. 5.2.5
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (1.3856, 0.0829)
    >>> print(caught[0].message)                            # the Wald test at M = 4
    M < 10 runs: the one-sided 5 % Wald test rejected a true value 4.5-19.3 % at M = 10 in the
    small-M study; for 5 % use 50 or more runs
    """
    measure = lookup(measure, argument="measure", function="one_sample_test").name
    est = estimate(
        Z, measure, method=method, n_features=n_features, feature_names=feature_names, **options
    )
    check_null_value(phi0, get_measure(est.measure), est.n_runs, est.n_features, est.subset_sizes)
    asked_auto = test == "auto"
    if asked_auto:
        test, jackknife = auto_interval(est.n_runs)
        if jackknife and method == "auto":
            est = with_jackknife(est)
    if test == "logit" and est.variance > 0 and not math.isnan(est.statistic):
        lo, hi = est.range
        z = transformed_statistic(est.statistic, phi0, est.variance, lo, hi)
        p = {"greater": special.ndtr(-z), "less": special.ndtr(z)}.get(
            alternative, 2 * special.ndtr(-abs(z))
        )
        z, p = float(z), float(p)
    else:
        z, p = z_and_pvalue(est.statistic - phi0, est.variance, alternative, est.measure)
    key = f"{test} (jackknife)" if est.method == "jackknife" else test
    warn_small_sample(est.n_runs, key, alternative, asked_auto=asked_auto, undefined=math.isnan(p))
    return OneSampleTestResult(z, p, alternative, phi0, est, test)


def with_jackknife(est: StabilityEstimate) -> StabilityEstimate:
    """The estimate with the delete-one-run jackknife variance in place of Thm 6's (as
    it is, where the jackknife does not apply or is its variance already)."""
    if not est._jackknife_applies():
        return est
    return dataclasses.replace(
        est,
        variance=est.jackknife_variance(),
        method="jackknife",
        terms=leave_one_out(est.selection, get_measure(est.measure), dict(est.options or {})),
        factor=(est.n_runs - 1) / est.n_runs,
    )
