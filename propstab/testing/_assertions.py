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
  number of runs: ``docs/ci.md`` gives it, measured by ``studies/ci_error_rate.py``.
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
from ._baselines import Baseline, BaselineMismatchError, fingerprint, selector_parameters
from .._utils.exceptions import InvalidParameterError
from .._utils.params import Boolean, Interval, Options, validate_params
from ..registry._registry import lookup
from .._utils.results import UnpackingResult
from .._utils.text import interval, number, summary
from ..axioms import Axiom
from ..inference import (
    SMALL_M_BELOW,
    SmallSampleWarning,
    StabilityEstimate,
    ZeroVarianceWarning,
    one_sample_test,
    runs_needed,
    two_sample_test,
)

__all__ = [
    "Baseline",
    "BaselineMismatchError",
    "NonInferiorityResult",
    "assert_measure_properties",
    "assert_not_less_stable",
    "assert_stable",
    "fingerprint",
    "parametrize_with_checks",
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
        return runs_needed(est, distance, 2 * confidence - 1)


def _plan(m, n_runs: int, what: str) -> str:
    if m is None:
        return f"no number of runs would decide it: {what}"
    if m <= n_runs:
        return (
            f"at the estimated variance {n_runs} runs should have decided it (a "
            f"chance failure, or the variance is underestimated)"
        )
    return f"about {m} runs would decide it if the estimate held (now {n_runs})"


@validate_params(
    {"at_least": Interval(Real, None, None), "confidence": CONFIDENCE, "measure": MEASURE}
)
def assert_stable(
    Z_or_result, at_least: float, *, confidence: float = 0.95, measure: str = "nogueira", **options
):
    r"""Assert that the population stability exceeds ``at_least``, at a stated error rate.

    Parameters
    ----------
    Z_or_result : selection matrix, ResamplingResult or Baseline
        The runs: Z (M x d, any form :func:`propstab.stability` takes), the result of
        :func:`propstab.resample`, or a :class:`Baseline`.
    at_least : float
        Phi_0 of H0: Phi <= Phi_0 (within the measure's range).
    confidence : float in (0.5, 1), default 0.95
        The assertion passes when H0 is rejected at level ``1 - confidence``.
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
    info = measure  # validated: the MeasureInfo
    try:
        with warnings.catch_warnings():  # the assertion states its own error rate
            warnings.simplefilter("ignore", SmallSampleWarning)
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
    if res.pvalue < alpha:
        return res
    e = res.estimate
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
    statistic, pvalue, difference, standard_error, margin, confidence : float
        As the attributes.
    interval : tuple of float
    paired : bool
    estimates : tuple of StabilityEstimate
    runs_to_decide : int or None
    test : str

    Attributes
    ----------
    statistic : float
        (difference + margin) / SE.
    pvalue : float
        For H0: Phi_current - Phi_baseline <= -margin.
    difference : float
        Phi_current - Phi_baseline.
    standard_error : float
    margin : float
    confidence : float
    interval : tuple of float
        The one-sided ``confidence`` interval of the difference.
    paired : bool
    estimates : tuple of StabilityEstimate
        Baseline and current.
    runs_to_decide : int or None
    test : str
        ``"non-inferiority"`` or ``"drop"``.

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
    >>> res = assert_not_less_stable(Z, Z.copy(), margin=0.1)
    >>> statistic, pvalue = res
    >>> res.passed, round(res.difference, 4)
    (True, 0.0)
    """

    statistic: float
    pvalue: float
    difference: float
    standard_error: float
    margin: float
    confidence: float
    interval: Tuple[float, float]
    paired: bool
    estimates: Tuple[StabilityEstimate, StabilityEstimate]
    runs_to_decide: Optional[int] = None
    test: str = "non-inferiority"
    _unpack = ("statistic", "pvalue")

    @property
    def passed(self) -> bool:
        """Whether the assertion passed (:func:`decision`)."""
        rejected = self.pvalue < 1 - self.confidence
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
            paired=self.paired,
            passed=self.passed,
        )

    def message(self) -> str:
        """The decision in one line: both estimates, the difference's one-sided interval
        against -margin, the p-value and the design (the assertion's message)."""
        b, c = self.estimates
        level = f"{self.confidence:.0%}"
        return (
            f"baseline {b.measure} = {number(b.statistic, fixed=True)} (SE "
            f"{number(b.standard_error, fixed=True)}, {b.n_runs} runs), current "
            f"{number(c.statistic, fixed=True)} (SE {number(c.standard_error, fixed=True)}"
            f", {c.n_runs} runs); difference current - baseline "
            f"{number(self.difference, fixed=True)}, one-sided {level} interval "
            f"{interval(*self.interval)} "
            + _relation(self.interval, -self.margin)
            + f" -margin = {number(-self.margin)}; p = {number(self.pvalue)} for H0: "
            + self.hypotheses()[0]
            + " ("
            + ("paired: the same resamples" if self.paired else "independent runs")
            + ")"
        )

    def hypotheses(self):
        """H0 and H1 as text."""
        m = number(self.margin)
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
                    f"baseline {number(b.statistic, fixed=True)} (SE "
                    f"{number(b.standard_error, fixed=True)}), current "
                    f"{number(c.statistic, fixed=True)} (SE "
                    f"{number(c.standard_error, fixed=True)})",
                ),
                (
                    "difference",
                    f"{number(self.difference, fixed=True)} (current - baseline, SE "
                    f"{number(self.standard_error, fixed=True)}, "
                    + ("paired" if self.paired else "independent")
                    + ")",
                ),
                (f"{self.confidence:.0%} one-sided", interval(*self.interval)),
                ("p-value", number(self.pvalue)),
                ("decision", "pass" if self.passed else "fail"),
                (
                    "runs x features",
                    f"{b.n_runs} x {b.n_features} and {c.n_runs} x " f"{c.n_features}",
                ),
            ],
        )


@validate_params(
    {
        "margin": Interval(Real, 0, None),
        "confidence": CONFIDENCE,
        "paired": Boolean(none=True),
        "measure": [MEASURE, None],
        "test": Options("non-inferiority", "drop"),
    }
)
def assert_not_less_stable(
    baseline,
    current,
    *,
    margin: float,
    confidence: float = 0.95,
    paired: Optional[bool] = None,
    measure: Optional[str] = None,
    test: str = "non-inferiority",
    X=None,
    y=None,
    selector=None,
    **options,
) -> NonInferiorityResult:
    r"""Assert that ``current`` is not less stable than ``baseline`` by ``margin`` or more.

    Parameters
    ----------
    baseline, current : Baseline, ResamplingResult or selection matrix
        The baseline's runs (a :class:`Baseline` carries its measure and options and
        the fingerprints of what produced it) and the new ones.
    margin : float >= 0
        The largest drop of stability that is tolerated.
    confidence : float in (0.5, 1), default 0.95
        The assertion passes when H0 is rejected at level ``1 - confidence``.
    paired : bool or None, default None
        Whether both ran on the same resamples (row i of both from resample i). None:
        detected, True when both are results or baselines with the same training rows.
    measure : str or None, default None
        The baseline's measure (a :class:`Baseline`'s), else "nogueira".
    test : {"non-inferiority", "drop"}, default "non-inferiority"
        Where the burden of proof lies. ``"non-inferiority"``: H0: Phi_current <=
        Phi_baseline - ``margin``; passes on evidence that the drop is smaller than
        ``margin`` (a drop of ``margin`` or more passes at most at rate
        ``1 - confidence``; with too few runs it fails even when nothing changed).
        ``"drop"``: H0: Phi_current >= Phi_baseline - ``margin``; fails on evidence of a
        drop larger than ``margin`` (when nothing changed it fails at most at rate
        ``1 - confidence``; with too few runs it misses drops). ``docs/ci.md`` gives both
        rates against M.
    X, y, selector : optional
        Checked against a :class:`Baseline`'s fingerprints when given.
    **options
        The measure's options (a Baseline's by default).

    Returns
    -------
    NonInferiorityResult
        When the assertion passes.

    Raises
    ------
    AssertionError
        When H0 is not rejected: the message shows both estimates and the difference's
        one-sided interval against ``-margin``.
    BaselineMismatchError
        A Baseline made from other data, by another selector, under another measure or
        options, or over another number of features.
    ValueError, TypeError
        Invalid arguments.

    See Also
    --------
    propstab.two_sample_test : The two-sample test (thesis Thm 7) whose difference and
        variance this uses.

    Notes
    -----
    With :math:`D = \hat\Phi_{cur} - \hat\Phi_{base}` and its variance v (the sum of both
    estimates' variances, thesis Thm 7, or paired the spread of the per-run
    differences), :math:`Z = (D + \delta)/\sqrt{v}` is asymptotically N(0, 1) at the
    boundary of H0: :math:`\Phi_{cur} - \Phi_{base} \le -\delta`; p = 1 - N(Z). Below
    100 runs the variances are the jackknife's (the small-M study). The interval is
    :math:`[D - z_c\sqrt v, \max]`; the test passes exactly when it lies above
    :math:`-\delta`.

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
    >>> res = assert_not_less_stable(base, current, margin=0.05, paired=True)
    >>> res.passed, round(res.difference, 4), round(res.standard_error, 4)
    (True, -0.0291, 0.0072)
    >>> assert_not_less_stable(base[:50], current[:50], margin=0.05, test="drop").passed
    True
    >>> noisy = rng.random(base.shape) < 0.4               # a random selector
    >>> assert_not_less_stable(base, noisy, margin=0.05)
    Traceback (most recent call last):
    ...
    AssertionError: current less stable than the baseline: baseline nogueira = ...
    """
    if isinstance(baseline, Baseline):
        if measure is None:
            measure = baseline.measure
        if not options:
            options = dict(baseline.options)
        baseline.check_compatible(
            X=X,
            y=y,
            selector=selector,
            measure=getattr(measure, "name", measure),
            options=options,
            n_features=_n_features(current),
        )
    info = lookup(getattr(measure, "name", measure or "nogueira"), argument="measure")
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
        res = two_sample_test(
            c,
            b,
            paired=paired,
            measure=info.name,
            alternative="greater" if test == "non-inferiority" else "less",
            method=method,
            test="asymptotic",
            **options,
        )
    except InvalidParameterError as error:
        raise error.renamed({"Z1": "current", "Z2": "baseline"}) from None
    d, v = res.difference, res.variance
    z, p, passed = decision(d, v, margin, confidence, test)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroVarianceWarning)
        low, high = res.confidence_interval(confidence)
    e_cur, e_base = res.estimates
    n = max(e_cur.n_runs, e_base.n_runs)
    m = None
    if test == "non-inferiority":
        m = _runs_to_decide(
            dataclasses.replace(e_cur, variance=v, n_runs=n), d + margin, confidence
        )
    out = NonInferiorityResult(
        float(z),
        float(p),
        float(d),
        math.sqrt(v) if v >= 0 else math.nan,
        float(margin),
        float(confidence),
        (low, high),
        bool(paired),
        (e_base, e_cur),
        m,
        test,
    )
    if passed:
        return out
    if test == "drop":
        raise AssertionError("current less stable than the baseline: " + out.message())
    raise AssertionError(
        "current less stable than the baseline: "
        + out.message()
        + "; "
        + _plan(m, n, f"the difference is not above -{number(margin)}")
    )


def decision(
    difference, variance, margin: float, confidence: float = 0.95, test: str = "non-inferiority"
):
    """The decision of :func:`assert_not_less_stable` from the difference
    D = Phi_current - Phi_baseline and its variance v (arrays: one decision each).

    ``test="non-inferiority"``: Z = (D + margin)/sqrt(v), p = 1 - N(Z) for H0: Phi_cur -
    Phi_base <= -margin; passes when p < 1 - confidence. ``test="drop"``: p = N(Z) for
    H0: Phi_cur - Phi_base >= -margin; passes unless p < 1 - confidence. A zero variance
    gives Z = +-inf by the sign of D + margin; an undefined one fails.

    Returns
    -------
    z, p, passed : ndarray (0-d for scalars)

    Examples
    --------
    >>> z, p, passed = decision(0.0, 0.03 ** 2, 0.05)      # Z = 0.05 / 0.03
    >>> round(float(z), 4), round(float(p), 4), bool(passed)
    (1.6667, 0.0478, True)
    >>> bool(decision(-0.2, 0.03 ** 2, 0.05, test="drop")[2])
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
    p = stats.norm.sf(z) if test == "non-inferiority" else stats.norm.cdf(z)
    rejected = p < 1 - confidence
    passed = (rejected if test == "non-inferiority" else ~rejected) & ~np.isnan(p)
    return z, p, passed


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
        Invalid arguments (as :func:`propstab.audit`).

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

    row = CHECKS[axiom](measure, max_examples=max_examples, seed=seed)
    if row.status == "violated":
        raise AssertionError(claim_message(row))
    if row.status == "skipped":
        import pytest

        pytest.skip(row.reason)
    return row


@validate_params(
    {"max_examples": Interval(Integral, 1, None), "seed": Interval(Integral, 0, None)}
)
def parametrize_with_checks(
    measures=None, *, max_examples: int = 100, seed: int = 0, **declaration
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
    seed : int, default 0
    **declaration
        For callables: ``claims``, ``lower``, ``upper``, ... (as :func:`propstab.audit`).

    Returns
    -------
    pytest.MarkDecorator

    Raises
    ------
    ValueError, TypeError
        Invalid ``max_examples`` or ``seed``; measures or declarations as
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
                _check_claim, axiom=axiom, max_examples=int(max_examples), seed=int(seed)
            )
            check.__name__ = f"check_{axiom.name.lower()}"
            params.append(pytest.param(subject, check, id=f"{subject.name}-{axiom.name.lower()}"))
    return pytest.mark.parametrize(("measure", "check"), params)
