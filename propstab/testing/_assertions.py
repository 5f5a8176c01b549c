"""Stability as a regression test: assertions with a stated error rate, baselines, checks.

A feature-selection pipeline is random (resamples, seeds), so comparing its selections
for equality (a snapshot test) is meaningless and a fixed threshold on a point estimate
is flaky. The assertions here are hypothesis tests whose error rate is stated:

- :func:`assert_stable`: H0: Phi <= ``at_least`` against H1: Phi > ``at_least``
  (the one-sample test of thesis sec. 5.2.5, :func:`propstab.one_sample_test`); it
  passes when H0 is rejected at level ``1 - confidence``, so a pipeline whose
  stability is at most ``at_least`` passes with probability at most ``1 - confidence``.
- :func:`assert_not_less_stable`: the non-inferiority test H0: Phi_current <=
  Phi_baseline - ``margin`` against H1: Phi_current > Phi_baseline - ``margin``, on
  the two-sample machinery of thesis Thm 7 (paired when both ran on the same
  resamples); a drop of ``margin`` or more passes with probability at most
  ``1 - confidence``. When nothing changed, the rate of false failures depends on the
  number of runs: :doc:`/ci` gives it, measured on real data.
- :func:`assert_measure_properties`: the axiom audit (:func:`propstab.audit`) as an
  assertion, failing with the shrunk counterexample of the first violated claim.

:class:`Baseline` stores a run's selections with what produced them, and
:func:`parametrize_with_checks` turns each declared property of each measure into a
test of its own (as scikit-learn's ``parametrize_with_checks``). The pytest plugin
The pytest plugin ``propstab.pytest_plugin`` adds the fixture ``stability_baseline``.

>>> import numpy as np
>>> from propstab.testing import assert_stable
>>> Z = np.array([[1, 1, 1, 0, 0, 0]] * 28 + [[1, 1, 0, 1, 0, 0]] * 2)
>>> round(assert_stable(Z, at_least=0.5).pvalue, 6)      # H0: Phi <= 0.5 rejected
0.002031
"""
from __future__ import annotations

import dataclasses
import functools
import math
import warnings
from numbers import Integral, Real
from typing import TYPE_CHECKING, Optional, Tuple

import numpy as np
from scipy import stats

from ..measures._stability import MEASURE
from .._data.convert_rankings import as_named_input
from ._baselines import (
    Baseline,
    BaselineMismatchError,
    fingerprint,
    selector_description,
    selector_parameters,
)
from .._utils.checks import fail
from .._utils.exceptions import InvalidParameterError
from .._utils.params import (
    RENAMED_CONFIDENCE,
    RENAMED_SEED,
    Boolean,
    Interval,
    Options,
    renamed,
    validate_params,
)
from ..registry._registry import lookup
from .._utils.results import UnpackingResult
from .._utils.text import interval, number, summary
from ..axioms import Axiom
from ..measures._variance import identical_runs
from ..inference import (
    SMALL_M_BELOW,
    SmallSampleWarning,
    StabilityEstimate,
    ZeroVarianceWarning,
    one_sample_test,
    runs_needed as _halfwidth_runs,
    two_sample_test,
)

from ._decision import (
    RunsPlan,
    decision,
    identical_bound,
    identical_decision,
    identical_pvalue,
    identical_runs_needed,
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    bootstrap_pvalues,
    bootstrapped,
    plain_number as _num,
    plan as _plan_runs,
    runs_needed,
)  # noqa: F401
from ._unseen import guarded_noninferiority, normal_pvalues, odd_agreement_for, unseen_for

__all__ = [
    "Baseline",
    "BaselineMismatchError",
    "NonInferiorityResult",
    "RunsPlan",
    "assert_measure_properties",
    "assert_not_less_stable",
    "assert_stable",
    "fingerprint",
    "parametrize_with_checks",
    "runs_needed",
    "selector_description",
    "selector_parameters",
]

if TYPE_CHECKING:  # the audit needs Hypothesis: imported on use
    from ..auditing._report import CheckResult

#: a one-sided confidence level: in (0.5, 1)
CONFIDENCE = Interval(Real, 0.5, 1, closed="neither")


def _data(obj, measure: str):
    """What ``measure`` reads from a ResamplingResult or a Baseline; Z itself otherwise."""
    return obj.data_for(measure) if hasattr(obj, "data_for") else obj


def _splits(obj) -> Optional[str]:
    """The digest of the resamples behind ``obj`` (None when unknown)."""
    if isinstance(obj, Baseline):
        return obj.splits
    if hasattr(obj, "train_indices") and hasattr(obj, "selection"):
        return Baseline.from_result(obj).splits
    return None


def _runs_to_decide(est: StabilityEstimate, distance: float, confidence: float):
    """The runs at which the one-sided ``confidence`` bound would clear ``distance``, with
    the variance of ``est`` shrinking as M v / m (thesis Thm 6;
    :func:`propstab.inference.runs_needed`); None when the estimate is on the wrong
    side (no number of runs decides for it) or the variance is undefined."""
    if not distance > 0 or not est.variance >= 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroVarianceWarning)
        # the one-sided z_{confidence} is the two-sided quantile at 2 confidence - 1
        return _halfwidth_runs(est, distance, 2 * confidence - 1)


def _plan(m, n_runs: int, what: str) -> str:
    if m is None:
        return f"no number of runs would decide it: {what}"
    if m <= n_runs:
        return (
            f"at the estimated variance {n_runs} runs should have decided it (a "
            f"chance failure, or the variance is underestimated)"
        )
    return f"about {m} runs would decide it if the estimate held (now {n_runs})"


@renamed(RENAMED_CONFIDENCE)
@validate_params(
    {
        "at_least": Interval(Real, None, None),
        "confidence_level": CONFIDENCE,
        "measure": MEASURE,
    }
)
def assert_stable(
    Z_or_result,
    at_least: float,
    *,
    confidence_level: float = 0.95,
    measure: str = "nogueira",
    **options,
):
    r"""Assert that the population stability exceeds ``at_least``, at a stated error rate.

    Parameters
    ----------
    Z_or_result : selection matrix, ResamplingResult or Baseline
        The runs: Z (M x d, any form :func:`propstab.stability` takes), the result of
        :func:`propstab.resample`, or a :class:`Baseline`.
    at_least : float
        Phi_0 of H0: Phi <= Phi_0 (within the measure's range).
    confidence_level : float in (0.5, 1), default 0.95
        The assertion passes when H0 is rejected at level ``1 - confidence_level``
        (``confidence=`` is its deprecated name: a DeprecationWarning).
    measure : str, default "nogueira"
    **options
        For :func:`propstab.one_sample_test` (``test``, ``method``) and the measure.

    Returns
    -------
    OneSampleTestResult
        The test (when it passes).

    Raises
    ------
    AssertionError
        When H0 is not rejected: the message gives the estimate, the one-sided
        interval, the p-value and the number of runs that would decide it.
    ValueError, TypeError
        Invalid arguments (``InvalidParameterError``).

    Warns
    -----
    DeprecationWarning
        When ``confidence=`` is given.

    See Also
    --------
    propstab.one_sample_test : The test.
    assert_not_less_stable : Against a baseline instead of a fixed value.

    Notes
    -----
    The test is :func:`propstab.one_sample_test` with ``alternative="greater"``:
    :math:`V_M = (\hat\Phi - \Phi_0)/\sqrt{v}` against N(0, 1) (thesis sec. 5.2.5; below
    100 runs on the logit scale with the jackknife variance). It passes when
    :math:`p < 1 - c`, equivalently when the one-sided ``confidence`` interval
    :math:`[L, \max]` lies above :math:`\Phi_0`. Runs that would decide: with
    :math:`v(m) = M v / m` (Thm 6), the smallest m with
    :math:`z_{c}\sqrt{M v/m} < \hat\Phi - \Phi_0`.

    When every run selected the same features the variance is 0 and the normal test
    would pass with p = 0 at any ``at_least``. Instead the p-value is the largest
    probability that M runs coincide in a population of stability ``at_least`` whose
    runs select one set with probability pi and otherwise sets of its size spread over
    the other features (the least favourable such population): :math:`\pi^M + (1 - \pi)^M`
    (``identical_pvalue`` of the testing package). A selector of stability
    0.897 that picks one set with probability 0.849 passes ``at_least=0.9`` by identical
    runs in 19.5 % of tries at M = 10 with the normal test; with the bound it cannot
    (the test suite checks it).

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2.5 and Thm 6.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.testing import assert_stable
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.random((30, 8)) < 0.5                     # a random selector
    >>> assert_stable(Z, at_least=0.5)
    Traceback (most recent call last):
    ...
    AssertionError: stability not shown to exceed 0.5 at 95% confidence: nogueira ...
    """
    __tracebackhide__ = True  # pytest shows the user's assertion
    info = lookup(measure, argument="measure", function="assert_stable")
    confidence = confidence_level
    try:
        with warnings.catch_warnings():  # the assertion states its own error rate
            warnings.simplefilter("ignore", SmallSampleWarning)
            warnings.simplefilter("ignore", ZeroVarianceWarning)
            res = one_sample_test(
                _data(Z_or_result, info.name),
                at_least,
                alternative="greater",
                measure=info.name,
                **options,
            )
    except InvalidParameterError as error:
        raise error.renamed({"phi0": "at_least", "Z": "Z_or_result"}) from None
    alpha = 1 - confidence
    e = res.estimate
    if e.variance == 0 and identical_runs(e.selection, options):
        row = np.asarray(e.selection.toarray(), dtype=bool)[0]
        p = identical_pvalue(row, e.n_runs, at_least, info.name, options)
        res = dataclasses.replace(res, pvalue=p, test="identical-runs bound")
        if p < alpha:
            return res
        low = identical_bound(row, e.n_runs, alpha, info.name, options)
        raise AssertionError(
            f"stability not shown to exceed {number(at_least)} at {confidence:.0%} "
            f"confidence: all {e.n_runs} runs selected the same {int(row.sum())} features, "
            f"so the variance is 0 and a normal test would pass by certainty; what {e.n_runs} "
            f"identical runs show (exact binomial bound on the share of that set, least "
            f"favourable population) is {e.measure} >= {number(low, fixed=True)} at "
            f"{confidence:.0%} confidence, not above {number(at_least)}; p = {number(p)} for "
            f"H0: Phi <= {number(at_least)}"
        )
    if res.pvalue < alpha:
        return res
    low, high = res.confidence_interval(confidence)
    m = _runs_to_decide(e, e.statistic - at_least, confidence)
    raise AssertionError(
        f"stability not shown to exceed {number(at_least)} at {confidence:.0%} confidence: "
        f"{e.measure} = {number(e.statistic, fixed=True)} (SE "
        f"{number(e.standard_error, fixed=True)}, {e.n_runs} runs x {e.n_features} "
        f"features); one-sided {confidence:.0%} interval {interval(low, high)} does not lie "
        f"above {number(at_least)}; p = {number(res.pvalue)} for H0: Phi <= "
        f"{number(at_least)} ({res.test} test); "
        + _plan(m, e.n_runs, f"the estimate is not above {number(at_least)}")
    )


@dataclasses.dataclass(frozen=True, repr=False)
class NonInferiorityResult(UnpackingResult):
    """Result of :func:`assert_not_less_stable`: unpacks as ``statistic, pvalue``.

    Parameters
    ----------
    statistic, pvalue, difference, standard_error, margin, confidence_level : float
        As the attributes.
    interval : tuple of float
    paired : bool
    estimates : tuple of StabilityEstimate
    runs_to_decide : int or None
    test : str
    method : str
    changes : tuple of str
    baseline_path, update : str or None
    plan : RunsPlan or None
    detectable : float

    Attributes
    ----------
    statistic : float
        (difference + margin) / SE (infinite or NaN for the identical-runs bound).
    pvalue : float
        For H0 of the test (never 0 by a zero variance).
    difference : float
        Phi_current - Phi_baseline.
    standard_error : float
    margin : float
    confidence_level : float
    interval : tuple of float
        The one-sided ``confidence_level`` interval of the difference: ``[low, max]``
        for non-inferiority, ``[min, high]`` for the drop test.
    paired : bool
    estimates : tuple of StabilityEstimate
        Baseline and current.
    runs_to_decide : int or None
        The current runs a non-inferiority test needs (``plan.current_runs``).
    test : str
        ``"drop"`` or ``"non-inferiority"``.
    method : str
        Which test ran: the asymptotic normal test of thesis Thm 7 (and its variances),
        or the identical-runs bound.
    changes : tuple of str
        What changed since the baseline (``"Lasso(alpha: 0.3 -> 0.25)"``, versions).
    baseline_path : str or None
        The baseline's file.
    update : str or None
        The command that makes the baseline again.
    plan : RunsPlan or None
        :func:`runs_needed` for this comparison.
    detectable : float
        The drop the drop test detects with 80 % power at these runs.

    See Also
    --------
    assert_not_less_stable : Returns it.

    References
    ----------
    Nogueira (2018), thesis Thm 7; Wellek (2010), ch. 2.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.testing import assert_not_less_stable
    >>> Z = np.array([[1, 1, 0, 0]] * 95 + [[1, 0, 1, 0]] * 5)
    >>> res = assert_not_less_stable(Z, Z.copy(), margin=0.2, test="non-inferiority")
    >>> statistic, pvalue = res
    >>> res.passed, round(res.difference, 4)
    (True, 0.0)
    """

    statistic: float
    pvalue: float
    difference: float
    standard_error: float
    margin: float
    confidence_level: float
    interval: Tuple[float, float]
    paired: bool
    estimates: Tuple[StabilityEstimate, StabilityEstimate]
    runs_to_decide: Optional[int] = None
    test: str = "drop"
    method: str = "wald"
    changes: Tuple[str, ...] = ()
    baseline_path: Optional[str] = None
    update: Optional[str] = None
    plan: Optional[RunsPlan] = None
    detectable: float = math.nan
    _unpack = ("statistic", "pvalue")

    @property
    def confidence(self) -> float:
        """Deprecated name of :attr:`confidence_level`."""
        return self.confidence_level

    @property
    def passed(self) -> bool:
        """Whether the assertion passed (:func:`decision`)."""
        rejected = self.pvalue < 1 - self.confidence_level
        return bool(
            rejected
            if self.test == "non-inferiority"
            else not rejected and not math.isnan(self.pvalue)
        )

    def _repr_values(self):
        return dict(
            statistic=self.statistic,
            pvalue=self.pvalue,
            difference=self.difference,
            margin=self.margin,
            test=self.test,
            passed=self.passed,
        )

    def headline(self) -> str:
        """The decision by the test's logic, e.g. ``"stability dropped by more than
        0.05"``."""
        m = _num(self.margin)
        if self.test == "drop":
            return (
                f"stability dropped by more than {m}"
                if not self.passed
                else f"no drop of stability beyond {m} shown"
            )
        return (
            f"not shown non-inferior within margin {m}"
            if not self.passed
            else f"shown non-inferior within margin {m}"
        )

    def message(self) -> str:
        """What a CI user acts on, one statement per line: the baseline (file, estimate),
        the current estimate, the difference and its one-sided interval against
        -margin, the test that ran and what it can detect, what changed since the
        baseline, and how to update the baseline."""
        b, c = self.estimates
        level = f"{self.confidence_level:.0%}"
        where = f"baseline {self.baseline_path}" if self.baseline_path else "baseline"
        h0 = self.hypotheses()[0]
        lines = [
            f"{where}: {b.measure} = {_num(b.statistic, 4, True)} (SE "
            f"{_num(b.standard_error, 4, True)}, {b.n_runs} runs); current "
            f"{_num(c.statistic, 4, True)} (SE {_num(c.standard_error, 4, True)}, "
            f"{c.n_runs} runs)",
            f"difference current - baseline {_num(self.difference, 4, True)}, one-sided "
            f"{level} interval {interval(*self.interval)} "
            + _relation(self.interval, -self.margin)
            + f" -{_num(self.margin)}"
            if self.margin
            else f"difference current - baseline {_num(self.difference, 4, True)}, one-sided "
            f"{level} interval {interval(*self.interval)} " + _relation(self.interval, 0.0) + " 0",
            f"test: {self.test} test, H0: {h0}; {self.method}; p = {_num(self.pvalue)}",
        ]
        if self.test == "drop":
            lines.append(
                f"it fails only on evidence of a drop larger than "
                f"{_num(self.margin)}; with these runs it detects a drop of "
                f"{_num(self.detectable, 2)} with 80% power"
            )
        elif not self.passed and self.plan is not None:
            lines.append(self.plan.message())
        elif not self.passed and self.runs_to_decide is not None:
            lines.append(
                f"identical current runs would show it from about "
                f"{self.runs_to_decide} runs (now {c.n_runs})"
            )
        lines.append(
            "changed since the baseline: "
            + (
                "; ".join(self.changes)
                if self.changes
                else "nothing recorded (selector, versions)"
            )
        )
        if self.update:
            lines.append(f"if the change is intended, update the baseline: {self.update}")
        return "\n".join(lines)

    def hypotheses(self):
        """H0 and H1 as text."""
        m = _num(self.margin)
        if self.test == "non-inferiority":
            return (f"Phi_current <= Phi_baseline - {m}", f"Phi_current > Phi_baseline - {m}")
        return (f"Phi_current >= Phi_baseline - {m}", f"Phi_current < Phi_baseline - {m}")

    def summary(self):
        """A few lines: the hypotheses, both estimates, the difference and its interval."""
        b, c = self.estimates
        h0, h1 = self.hypotheses()
        title = (
            "Non-inferiority test of stability (thesis Thm 7)"
            if self.test == "non-inferiority"
            else "Test for a drop of stability (thesis Thm 7)"
        )
        return summary(
            title,
            [
                ("hypotheses", f"H0: {h0}, H1: {h1}"),
                (
                    "estimates",
                    f"baseline {_num(b.statistic, 4, True)} (SE "
                    f"{_num(b.standard_error, 4, True)}), current "
                    f"{_num(c.statistic, 4, True)} (SE "
                    f"{_num(c.standard_error, 4, True)})",
                ),
                (
                    "difference",
                    f"{_num(self.difference, 4, True)} (current - baseline, SE "
                    f"{_num(self.standard_error, 4, True)}, "
                    + ("paired" if self.paired else "independent")
                    + ")",
                ),
                (f"{self.confidence_level:.0%} one-sided", interval(*self.interval)),
                ("test", self.method),
                ("p-value", _num(self.pvalue)),
                ("decision", "pass" if self.passed else "fail"),
                (
                    "runs x features",
                    f"{b.n_runs} x {b.n_features} and {c.n_runs} x " f"{c.n_features}",
                ),
            ],
        )


@renamed(RENAMED_CONFIDENCE)
@validate_params(
    {
        "margin": Interval(Real, 0, None),
        "confidence_level": CONFIDENCE,
        "paired": Boolean(none=True),
        "measure": [MEASURE, None],
        "test": Options("drop", "non-inferiority"),
        "strict": Boolean(),
    }
)
def assert_not_less_stable(
    baseline,
    current,
    *,
    margin: float,
    confidence_level: float = 0.95,
    paired: Optional[bool] = None,
    measure: Optional[str] = None,
    test: str = "drop",
    X=None,
    y=None,
    selector=None,
    strict: bool = False,
    **options,
) -> NonInferiorityResult:
    r"""Assert that ``current`` did not lose more than ``margin`` of the baseline's stability.

    Parameters
    ----------
    baseline, current : Baseline, ResamplingResult or selection matrix
        The baseline's runs (a :class:`Baseline` carries its measure and options and
        what produced it) and the new ones.
    margin : float >= 0
        The largest drop of stability that is tolerated.
    confidence_level : float in (0.5, 1), default 0.95
        The one-sided level of the test (``confidence=`` is its deprecated name: a
        DeprecationWarning).
    paired : bool or None, default None
        Whether both ran on the same resamples (row i of both from resample i). None:
        detected, True when both are results or baselines with the same training rows.
    measure : str or None, default None
        The baseline's measure (a :class:`Baseline`'s), else "nogueira".
    test : {"drop", "non-inferiority"}, default "drop"
        Where the burden of proof lies. ``"drop"`` (the default: an unchanged pipeline
        fails at most at rate ``1 - confidence_level``): H0: Phi_current >=
        Phi_baseline - ``margin``; fails on evidence of a drop larger than ``margin``;
        with too few runs it misses drops (the message says which drop it detects).
        ``"non-inferiority"``: H0: Phi_current <= Phi_baseline - ``margin``; passes only
        on evidence that the drop is smaller than ``margin`` (a drop of ``margin`` passes
        at most at rate ``1 - confidence_level``, spread over the runs or carried by a
        few odd runs the current sample may have missed: the test is guarded against
        them, :func:`propstab.testing._unseen.guarded_noninferiority`, which states
        the null it holds for); with too few runs it fails even when nothing changed
        (the message gives the runs that decide, :func:`runs_needed`, which plans the
        guarded test). ``docs/ci_error_rates.md`` gives both rates against M and the bound no test
        escapes.
    X, y : optional
        Checked against a :class:`Baseline`'s fingerprints: other data is refused.
    selector : optional
        Compared with a :class:`Baseline`'s: what changed is listed in the message
        (``Lasso(alpha: 0.3 -> 0.25)``); refused only with ``strict=True``.
    strict : bool, default False
        Refuse a baseline made by another selector or other parameters.
    **options
        The measure's options (a Baseline's by default).

    Returns
    -------
    NonInferiorityResult
        When the assertion passes.

    Raises
    ------
    AssertionError
        When the test decides against ``current``: the message is headed by the test's
        logic and gives the baseline's file, both estimates, the difference's one-sided
        interval against ``-margin``, the test that ran, what changed since the baseline
        and the command that updates it.
    BaselineMismatchError
        A Baseline made from other data, under another measure or options, or over
        another number of features (with ``strict=True``: by another selector).
    ValueError, TypeError
        Invalid arguments.

    Warns
    -----
    DeprecationWarning
        When ``confidence=`` is given.

    See Also
    --------
    propstab.two_sample_test : The two-sample test (thesis Thm 7) whose difference and
        variance this uses.
    runs_needed : The runs a comparison needs.

    Notes
    -----
    With :math:`D = \hat\Phi_{cur} - \hat\Phi_{base}` and its variance v (the sum of both
    estimates' variances, thesis Thm 7, or paired the spread of the per-run
    differences), :math:`Z = (D + \delta)/\sqrt{v}` is asymptotically N(0, 1) at the
    boundary of either H0. Below 100 runs the variances are the jackknife's (the small-M
    study). When the runs whose stability carries the burden of proof are all identical
    (the current runs for non-inferiority, the baseline's for the drop test), v would
    be 0 and the normal test would decide by certainty; instead their bound is the
    exact one of :func:`assert_stable` (identical runs) at level alpha/2, the other
    sample's the Wald bound at alpha/2 (Bonferroni), and the test decides on those.
    Non-inferiority (Nogueira's measure, independent runs: the studentized bootstrap of
    D; otherwise the normal test) is guarded against a drop carried by a few odd runs
    that all M current runs missed: p = 2 max over -margin <= s <= 0 of w(s) p(D <= s),
    w(s) the probability of missing the least favourable odd runs that would carry the
    rest of the drop (:func:`propstab.testing._unseen.guarded_noninferiority`).

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 7; Wellek, S. (2010). Testing Statistical Hypotheses of
    Equivalence and Noninferiority, 2nd ed. CRC Press, ch. 2 (non-inferiority).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.testing import assert_not_less_stable
    >>> rng = np.random.default_rng(1)
    >>> base = np.array([[1, 1, 1, 0, 0, 0, 0, 0]] * 300)
    >>> base[rng.random(base.shape) < 0.05] ^= 1         # a stable selector, 5% noise
    >>> current = base.copy()
    >>> current[rng.random(base.shape) < 0.01] ^= 1       # slightly noisier
    >>> res = assert_not_less_stable(base, current, margin=0.1, paired=True,
    ...                              test="non-inferiority")
    >>> res.passed, round(res.difference, 4), round(res.standard_error, 4)
    (True, -0.0291, 0.0072)
    >>> assert_not_less_stable(base[:50], current[:50], margin=0.05).passed
    True
    >>> noisy = rng.random(base.shape) < 0.4               # a random selector
    >>> assert_not_less_stable(base, noisy, margin=0.05)
    Traceback (most recent call last):
    ...
    AssertionError: stability dropped by more than 0.05: baseline: nogueira = ...
    """
    __tracebackhide__ = True  # pytest shows the user's assertion
    confidence = confidence_level
    changes, path, update = (), None, None
    if isinstance(baseline, Baseline):
        if measure is None:
            measure = baseline.measure
        if not options:
            options = dict(baseline.options)
        baseline.check_compatible(
            X=X,
            y=y,
            selector=selector,
            measure=None if measure is None else lookup(measure, argument="measure").name,
            options=options,
            n_features=_n_features(current),
            strict=strict,
        )
        changes, path, update = tuple(baseline.changes(selector)), baseline.path, baseline.update
    info = lookup(measure or "nogueira", argument="measure", function="assert_not_less_stable")
    if paired is None:
        s1, s2 = _splits(baseline), _splits(current)
        paired = s1 is not None and s1 == s2
    b = as_named_input(info.input, _data(baseline, info.name), "baseline", owner=info.name)
    c = as_named_input(info.input, _data(current, info.name), "current", owner=info.name)
    m1, m2 = b.n_runs, c.n_runs
    method = options.pop("method", None) or (
        "jackknife" if min(m1, m2) < SMALL_M_BELOW else "auto"
    )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ZeroVarianceWarning)
            res = two_sample_test(
                c,
                b,
                paired=paired,
                measure=info.name,
                alternative="greater" if test == "non-inferiority" else "less",
                method=method,
                test="wald",
                **options,
            )
    except InvalidParameterError as error:
        raise error.renamed({"Z1": "current", "Z2": "baseline"}) from None
    d, v = res.difference, res.variance
    e_cur, e_base = res.estimates
    identical_needed = None
    alpha = 1 - confidence
    described = (
        "asymptotic normal test (thesis Thm 7), "
        + ("jackknife variances" if method == "jackknife" else "Thm 6 variances")
        + (", paired: the same resamples" if paired else ", independent runs")
    )
    degenerate = e_cur if test == "non-inferiority" else e_base
    if identical_runs(degenerate.selection, options) and info.input != "ranking":
        z, p, (low, high) = identical_decision(e_base, e_cur, margin, alpha, test, info, options)
        if test == "non-inferiority" and not p < alpha:
            row = np.asarray(e_cur.selection.toarray(), dtype=bool)[0]
            top = e_base.statistic + stats.norm.isf(alpha / 2) * math.sqrt(
                max(e_base.variance, 0.0)
            )
            identical_needed = identical_runs_needed(
                row, min(top, e_base.range[1]) - margin, alpha / 2, info.name, options
            )
        described = (
            "the "
            + ("current" if test == "non-inferiority" else "baseline's")
            + f" {degenerate.n_runs} runs are identical (variance 0): exact "
            f"identical-runs bound at alpha/2, the other sample's Wald bound at "
            f"alpha/2 (Bonferroni)"
        )
    else:
        z, p, _ = decision(d, v, margin, confidence, test)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ZeroVarianceWarning)
            low, high = res.confidence_interval(confidence)
        if test == "non-inferiority" and v > 0:
            boot = bootstrapped(info, paired, options, v)
            g = guarded_noninferiority(
                e_base.statistic,
                e_cur.n_runs,
                margin,
                alpha,
                odd_agreement_for(c, info.name, options, e_cur.range[0]),
                (bootstrap_pvalues(b.toarray(), c.toarray()) if boot else normal_pvalues(d, v)),
                top=e_cur.range[1] if math.isfinite(e_cur.range[1]) else 1.0,
            )
            p, low = g.pvalue, g.low
            described = (
                (
                    f"studentized bootstrap of the difference (bootstrap-t: "
                    f"{BOOTSTRAP_RESAMPLES} resamples of each sample's runs, seed "
                    f"{BOOTSTRAP_SEED}, Thm 6 variances)"
                    if boot
                    else described
                )
                + f", guarded against a drop carried by a few odd runs that the "
                f"{e_cur.n_runs} current runs may have missed: p = 2 max(p at the "
                f"margin {_num(g.p_margin, 3)}, max over s of w(s) p(D <= s)) with w "
                f"= {_num(g.unseen, 3)} at s = {_num(g.where, 3)}"
            )
    per_run = (
        e_cur.n_runs * e_cur.variance
        if e_cur.variance > 0
        else (e_base.n_runs * max(e_base.variance, 0.0))
    )
    z_power = stats.norm.ppf(confidence) + stats.norm.ppf(0.8)
    sd = math.sqrt(v) if v >= 0 else math.nan
    runs_plan = None
    if test == "non-inferiority" and margin > 0 and v > 0:
        runs_plan = _plan_runs(
            max(e_base.variance, 0.0),
            e_base.n_runs,
            per_run,
            gap=margin,
            power=0.8,
            confidence_level=confidence,
            test=test,
            margin=margin,
            unseen=unseen_for(e_base, margin, info.name, options),
        )
    out = NonInferiorityResult(
        float(z),
        float(p),
        float(d),
        sd,
        float(margin),
        float(confidence),
        (low, high),
        bool(paired),
        (e_base, e_cur),
        identical_needed if runs_plan is None else runs_plan.current_runs,
        test,
        described,
        changes,
        path,
        update,
        runs_plan,
        float(margin + z_power * sd),
    )
    if out.passed:
        return out
    raise AssertionError(out.headline() + ": " + out.message())


def _relation(bounds, value) -> str:
    low, high = bounds
    if low > value:
        return "lies above"
    if high < value:
        return "lies below"
    return "contains"


def _n_features(obj) -> Optional[int]:
    data = obj.selection if hasattr(obj, "selection") else obj
    if hasattr(data, "n_features"):
        return int(data.n_features)
    shape = getattr(data, "shape", None)
    return int(shape[1]) if shape is not None and len(shape) == 2 else None


def _counterexample_text(row: "CheckResult") -> str:
    from ..auditing._report import matrix_text

    ce = row.counterexample
    if isinstance(ce, np.ndarray):
        return matrix_text(ce)
    if isinstance(ce, tuple) and all(isinstance(z, np.ndarray) for z in ce):
        return " and ".join(matrix_text(z) for z in ce)
    return repr(ce)


def claim_message(row: "CheckResult") -> str:
    """The assertion message of a violated claim: the measure, the axiom, the reason, the
    shrunk counterexample and the values behind it."""
    values = ", ".join(number(v) for v in row.values)
    return (
        f"{row.measure} claims {row.axiom.name} but it is violated: {row.reason}; "
        f"shrunk counterexample {_counterexample_text(row)}"
        + (f" (values {values})" if values else "")
    )


def assert_measure_properties(f, claims=None, **options):
    """Assert that a measure has the properties it claims: the audit as an assertion.

    Parameters
    ----------
    f : str, MeasureInfo or callable ``f(Z) -> float``
        A registered measure (its own claims) or a function with the ``claims`` given.
    claims : list of axioms or their names, optional
        For a function, as :func:`propstab.audit` takes them (``["bounds", "maximum"]``).
    **options
        For :func:`propstab.audit`: ``lower``, ``upper``, ``max_examples``, ``seed``,
        ``axioms``, ...

    Returns
    -------
    AuditTable
        When every claim holds.

    Raises
    ------
    AssertionError
        With the shrunk counterexample of the first violated claim.
    ValueError, TypeError
        Invalid arguments (as :func:`propstab.audit`), ``lower > upper`` among them;
        ``f=None`` (a TypeError: the assertion is about one measure;
        :func:`propstab.audit` audits them all).

    See Also
    --------
    propstab.audit : The audit.
    parametrize_with_checks : One test per claim.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 4, Table 4.1 (the properties).

    Examples
    --------
    >>> from propstab.testing import assert_measure_properties
    >>> def coverage(Z):
    ...     return float(Z.mean())
    >>> assert_measure_properties(coverage, claims=["bounds", "maximum"], lower=0, upper=1,
    ...                           max_examples=30)
    Traceback (most recent call last):
    ...
    AssertionError: coverage claims MAXIMUM but it is violated: identical rows but value ...
    """
    if f is None:  # audit(None) audits every registered measure: not this assertion
        fail(
            "f: must be a registered measure's name, a MeasureInfo or a function "
            "f(Z) -> float; got None (to audit every registered measure, use "
            "propstab.audit() or parametrize_with_checks())",
            TypeError,
            function="assert_measure_properties",
        )
    from ..auditing._audit import audit

    if claims is not None:
        options["claims"] = claims
    table = audit(f, progress=False, **options)
    for row in table:
        if row.status == "violated":
            raise AssertionError(claim_message(row))
    return table


def _check_claim(measure, *, axiom: Axiom, max_examples: int, seed: int) -> "CheckResult":
    from ..auditing._checks import CHECKS

    row = CHECKS[axiom](measure, max_examples=max_examples, random_state=seed)
    if row.status == "violated":
        raise AssertionError(claim_message(row))
    if row.status == "skipped":
        import pytest

        pytest.skip(row.reason)
    return row


@renamed(RENAMED_SEED)
@validate_params(
    {
        "max_examples": Interval(Integral, 1, 10**6),  # as audit's
        "random_state": Interval(Integral, 0, None),
    }
)
def parametrize_with_checks(
    measures=None, *, max_examples: int = 100, random_state: int = 0, **declaration
):
    """A pytest ``parametrize`` mark with one test per claimed property of each measure.

    In the manner of scikit-learn's ``parametrize_with_checks``: the decorated test takes
    ``measure`` and ``check`` and calls ``check(measure)``, which raises AssertionError
    with the shrunk counterexample when the claim is violated. Test ids read
    ``<measure>-<axiom>``, so ``pytest -k "jaccard and bounds"`` selects one.

    Parameters
    ----------
    measures : None, str, MeasureInfo, callable or a list of them
        As for :func:`propstab.audit` (None: every registered measure and variant).
    max_examples : int, default 100
        Hypothesis examples per check.
    random_state : int, default 0
        The seed of the searches (``seed=`` is its deprecated name: a
        DeprecationWarning).
    **declaration
        For callables: ``claims``, ``lower``, ``upper``, ... (as :func:`propstab.audit`).

    Returns
    -------
    pytest.MarkDecorator

    Raises
    ------
    ValueError, TypeError
        Invalid ``max_examples`` or ``random_state``; measures or declarations as
        :func:`propstab.audit` refuses them.

    See Also
    --------
    assert_measure_properties : Every claim in one assertion.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830 (``sklearn.utils.estimator_checks.parametrize_with_checks``).

    Examples
    --------
    >>> from propstab.testing import parametrize_with_checks
    >>> mark = parametrize_with_checks(["jaccard"], max_examples=20)
    >>> [p.id for p in mark.args[1]][:3]
    ['jaccard-fully_defined', 'jaccard-bounds', 'jaccard-maximum']
    """
    import pytest
    from ..auditing._audit import audited_subjects

    params = []
    for subject in audited_subjects(measures, **declaration):
        for axiom in Axiom:
            if not subject.claims.get(axiom):
                continue
            check = functools.partial(
                _check_claim, axiom=axiom, max_examples=int(max_examples), seed=int(random_state)
            )
            check.__name__ = f"check_{axiom.name.lower()}"
            params.append(pytest.param(subject, check, id=f"{subject.name}-{axiom.name.lower()}"))
    return pytest.mark.parametrize(("measure", "check"), params)
