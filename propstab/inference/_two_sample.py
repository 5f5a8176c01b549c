"""The two-sample tests of equal stability and their result (thesis Thm 7; the
studentized permutation test below 100 runs).

Part of :mod:`propstab.inference` (public names are imported from there).
"""
from __future__ import annotations

import dataclasses

import math
import warnings
from typing import Optional, Tuple
import numpy as np
from .._utils.checks import fail
from ._intervals import bootstrap_variance
from ._permutation import permutation_test
from ..measures._variance import PER_RUN_OPTIONS, degenerate, spread
from .._utils.exceptions import UndefinedMeasureWarning, warn
from ..measures._stability import MEASURE_NAME
from .._utils.params import (
    Boolean,
    Integral,
    Interval,
    N_FEATURES,
    Options,
    RENAMED_TESTS,
    RandomState,
    renamed,
    validate_params,
)
from ..registry._registry import get_measure, lookup
from .._utils.text import number
from .._data.convert_rankings import as_named_input
from ..registry._option_checks import check_comparable
from .._utils.checks import check_confidence_level, check_random_state
from ._warnings import (
    ALTERNATIVES,
    COMBINED_BELOW,
    PERMUTATION_BELOW,
    TEST_METHODS,
    VARIANCE_METHODS,
    ZeroVarianceWarning,
    warn_zero,
)
from ._estimates import StabilityEstimate, estimate
from ._wald import ConfidenceInterval, wald_interval


from ._tests import HYPOTHESES, TestResult, with_jackknife, z_and_pvalue


@dataclasses.dataclass(frozen=True, repr=False)
class TwoSampleTestResult(TestResult):
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
    test : str, default "wald"
        The test that gave the p-value: ``"wald"`` or ``"permutation"``.
    n_resamples : int or None, optional
        The rearrangements of the permutation test (None for the Wald test).
    exact : bool or None, optional
        Whether the permutation test enumerated every rearrangement.
    studentized : bool or None, optional
        Whether the permutation test permuted the difference over its jackknife SE
        (False where that SE is degenerate or undefined: the plain difference).
    combined : bool or None, optional
        Whether the p-value is the larger of the permutation p-value and the N(0, 1)
        p-value of the same statistic (``test="auto"`` below 100 runs).

    Attributes
    ----------
    statistic : float
        :math:`(\\hat\\Phi(Z_1) - \\hat\\Phi(Z_2)) / \\sqrt{v_D}` (:math:`v_D` the variance
        of the difference): minus the thesis's :math:`T_M`
        (Thm 7 writes second minus first), in the direction of scipy's and R's tests.
    pvalue : float
        From N(0, 1) (``test="wald"``) or from the permutation distribution of the
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
        ``"wald"`` or ``"permutation"``.
    n_resamples : int or None
        The number of rearrangements the permutation p-value is based on.
    exact : bool or None
        True when the permutation test enumerated all rearrangements.
    studentized : bool or None
        True when the permutation test permuted the studentized difference.
    combined : bool or None
        True when the p-value is the larger of the permutation and N(0, 1) p-values.

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
    >>> res = two_sample_test(Z2, Z1, test="wald")
    >>> res
    TwoSampleTestResult(statistic=2.241, pvalue=0.02502, alternative='two-sided', paired=False,
                        difference=0.6, measure='nogueira', test='wald')
    >>> print(res)
    Two-sample test of stability (thesis Thm 7)
    hypotheses       H0: Phi_1 = Phi_2, H1: Phi_1 != Phi_2
    estimand         Phi of the process that made these runs (resampled data: given that data set)
    estimates        Phi_1 0.6000 (SE 0.2147), Phi_2 0.0000 (SE 0.1600)
    difference       0.6000 (Phi_1 - Phi_2, SE 0.2677)
    statistic        2.2411 (difference / SE; thesis T_M = -2.2411)
    test             Wald: N(0, 1) (thesis Thm 7)
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
    test: str = "wald"
    n_resamples: Optional[int] = None
    exact: Optional[bool] = None
    studentized: Optional[bool] = None
    combined: Optional[bool] = None

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
        if self.test == "wald":
            return "Wald: N(0, 1) (thesis Thm 7)"
        what = "swap patterns" if self.paired else "splits"
        how = (
            f"exact, all {self.n_resamples} {what}"
            if self.exact
            else f"Monte Carlo, {self.n_resamples} random {what}"
        )
        if self.studentized is False:
            return f"permutation of the difference (no jackknife SE; {how})"
        if self.combined:
            return f"studentized permutation ({how}) and N(0, 1), larger p"
        return f"studentized permutation ({how})"

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
        >>> res = two_sample_test(Z2, Z1, alternative="greater",  # H1: Z2 more stable
        ...                       test="wald")
        >>> low, high = res.confidence_interval(0.95)
        >>> round(low, 4), high                  # up to 1 - (-1), the largest difference
        (0.1596, 2.0)
        >>> res = two_sample_test(Z2, Z1, alternative="greater")  # M = 5: permutation
        >>> low, high = res.confidence_interval(0.95)             # with the jackknife SE
        >>> round(low, 4), high
        (-0.2206, 2.0)
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
        if self.test == "permutation":
            title = (
                f"{'Paired two' if self.paired else 'Two'}-sample test of stability "
                f"(studentized permutation)"
            )
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
                    f"{number(self.statistic, fixed=True)} (difference / SE"
                    + (
                        f"; thesis T_M = {number(-self.statistic + 0.0, fixed=True)})"
                        if self.test == "wald"
                        else ")"
                    ),
                ),
                ("test", self.test_description),
                ("p-value", number(self.pvalue)),
                (
                    "runs x features",
                    f"{e1.n_runs} x {e1.n_features} and " f"{e2.n_runs} x {e2.n_features}",
                ),
            ],
        )


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
    test : {"auto", "permutation", "wald"}
    n_runs1, n_runs2 : int
        :math:`M_1` and :math:`M_2`.

    Returns
    -------
    str
        ``"permutation"`` when ``test="auto"`` and either sample has fewer than
        ``PERMUTATION_BELOW`` (100) runs, ``"wald"`` for ``"auto"`` otherwise;
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
    ('permutation', 'wald', 'permutation')
    """
    if test != "auto":
        return test
    return "permutation" if min(n_runs1, n_runs2) < PERMUTATION_BELOW else "wald"


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
    combined = test == "auto" and min(e1.n_runs, e2.n_runs) < COMBINED_BELOW
    test = chosen_test(test, e1.n_runs, e2.n_runs)
    if test == "wald":
        z, p = z_and_pvalue(diff, variance, alternative, f"the difference of {e1.measure}")
        return TwoSampleTestResult(z, p, alternative, paired, diff, variance, (e1, e2))
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
    if perm.studentized and method == "auto" and "bootstrap" not in (e1.method, e2.method):
        # the SEs shown are those of the statistic permuted (and of one_sample_test)
        e1, e2, variance = with_jackknife(e1), with_jackknife(e2), perm.variance
        z = perm.statistic
        if variance == 0:
            warn_zero(f"the jackknife variance of the difference of {e1.measure} is 0")
    else:
        with warnings.catch_warnings():  # the p-value does not divide by the variance
            warnings.simplefilter("ignore", ZeroVarianceWarning)
            z, _ = z_and_pvalue(diff, variance, alternative, f"the difference of {e1.measure}")
    pvalue = perm.pvalue
    if combined and perm.studentized and not math.isnan(pvalue):
        # below COMBINED_BELOW runs: reject only where the studentized permutation test and
        # the N(0, 1) test of the same statistic both reject (the larger p-value), the
        # one choice within its level in every cell of the small-M study
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ZeroVarianceWarning)
            pvalue = max(pvalue, z_and_pvalue(perm.statistic, 1.0, alternative, "")[1])
    else:
        combined = False
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
        pvalue,
        alternative,
        paired,
        diff,
        variance,
        (e1, e2),
        "permutation",
        perm.n_resamples,
        perm.exact,
        perm.studentized,
        combined,
    )


@renamed(values=RENAMED_TESTS)
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
    test : {"auto", "permutation", "wald"}, default "auto"
        ``"wald"``: the statistic against N(0, 1) (thesis Thm 7; ``"asymptotic"`` is
        its deprecated name): a test of
        H0: Phi_1 = Phi_2, valid as M grows. ``"permutation"``: the studentized
        permutation test (difference over its jackknife SE, see Notes): exact at any M
        when the runs are exchangeable (both procedures draw runs from one
        distribution), and asymptotically valid for H0: Phi_1 = Phi_2 when they are not
        (equal stability, different features). ``"auto"``: when either sample has
        fewer than ``PERMUTATION_BELOW`` (100) runs, the permutation test, rejecting
        only where the N(0, 1) test of the same studentized statistic rejects too (the
        larger p-value, ``combined`` on the result: the one choice within its level in
        every cell of the small-M study's designs of equal stability and different
        features); the Wald test otherwise. The result's ``test`` and summary say
        which ran.
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
        When the variance of the difference is 0 (Wald test).
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

    Permutation test: the statistic permuted is the studentized difference
    :math:`T = D / \\sqrt{v_J}`, :math:`D = \\hat\\Phi(Z_1) - \\hat\\Phi(Z_2)` and
    :math:`v_J` its delete-one-run jackknife variance (the sum of the two jackknife
    variances; paired, the jackknife of the per-resample differences of the
    leave-one-out values), both recomputed on each rearrangement. Independent samples:
    the pooled runs split again into :math:`M_1` and :math:`M_2` runs; paired: the two
    runs of each resample swapped or not (the studentized sign-flip). Under
    exchangeable runs (both procedures draw runs from one distribution) the level holds
    exactly at any M; otherwise the permutation distribution of T tends to N(0, 1), the
    law of T under H0: Phi_1 = Phi_2, so the test holds that null asymptotically
    (Chung and Romano 2013). Permuting D itself would test equal distributions only.
    The p-values are scipy's ``permutation_test``'s (``(#{T* >= T} + a) / (n + a)`` for
    "greater", a = 0 exact, 1 Monte Carlo; twice the smaller one-sided p-value for
    "two-sided"). With ``method="auto"`` the result's SEs and ``variance`` are the
    jackknife's the test divides by. Where the jackknife of runs that differ is 0 up to
    rounding, D itself is permuted (``studentized=False`` on the result).

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 7 (the test) and sec. 5.2; Efron,
    B., Stein, C. (1981). The jackknife estimate of variance. Ann. Stat. 9(3), 586-596
    (the paired variance from per-run terms); Good, P. (2005). Permutation, Parametric
    and Bootstrap Tests of Hypotheses, 3rd ed. Springer (permutation tests); Phipson, B.,
    Smyth, G. K. (2010). Permutation p-values should never be zero. Stat. Appl. Genet.
    Mol. Biol. 9(1), 39 (the + 1 of the Monte Carlo p-value); Chung, E., Romano, J. P.
    (2013). Exact and asymptotically robust permutation tests. Ann. Statist. 41(2),
    484-507 (the studentized permutation test).

    Examples
    --------
    >>> from propstab import two_sample_test
    >>> Z1 = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
    >>> Z2 = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]
    >>> res = two_sample_test(Z1, Z2, test="wald")       # Z1 is more stable
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (2.2411, 0.025)
    >>> res = two_sample_test(Z1, Z2)          # M = 5: "auto" runs the permutation test
    >>> res.test, res.exact, res.n_resamples, round(res.pvalue, 4)
    ('permutation', True, 252, 0.2857)
    >>> round(two_sample_test(Z1, Z2, paired=True, test="wald").statistic, 4)
    3.289
    """
    measure = lookup(measure, argument="measure", function="two_sample_test").name
    random_state = check_random_state("random_state", random_state, function="two_sample_test")
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
