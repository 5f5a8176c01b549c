"""Statistical inference for stability: variance, confidence intervals, hypothesis tests.

A stability value computed from M resamples is an estimate of a population
quantity. For Nogueira's estimator (and Kuncheva's index, equal to it where it is
defined) the thesis gives its asymptotic normal distribution (Nogueira 2018,
sec. 5.2, Thm 6) through its equality with Fleiss' kappa (Gwet 2008); every other
registered measure gets the delete-one-run jackknife variance. On top of these:
Wald confidence intervals (Cor. 1), the one-sample test V_M (sec. 5.2.5), the
two-sample test T_M (Thm 7), a paired version for two procedures run on the same
resamples, and all pairwise comparisons with a multiple-testing correction (Holm by
default).

>>> import propstab
>>> Z = [[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [1, 1, 0, 0, 0], [0, 1, 1, 0, 0]]
>>> est = propstab.estimate(Z)
>>> round(est.statistic, 4), round(est.standard_error, 4), est.interpretation
(0.4167, 0.1461, 'intermediate to good')
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

import numpy as np
from scipy import stats

from . import _intervals, _permutation, _variance, chance
from ._exceptions import UndefinedMeasureWarning, undefined, warn
from ._registry import get_measure, list_measures
from ._text import Summary, call_repr, interval, level_label, number, size_text, summary
from ._validation import (as_input, as_named_input, check_bool, check_choice,
                          check_comparable, check_confidence_level, check_int_range,
                          check_null_value, check_probabilities, check_random_state,
                          check_real, check_real_range, check_row_sizes)
from .measures.references import TABLE_6_1

__all__ = [
    "ConfidenceInterval", "DegenerateVarianceWarning", "OneSampleTestResult",
    "PairwiseTestTable", "SmallSampleWarning", "StabilityEstimate",
    "TwoSampleTestResult", "VaryingSizesWarning", "ZeroVarianceWarning", "estimate",
    "halfwidth_curve", "runs_needed",
    "one_sample_test", "varying_sizes_note",
    "pairwise_tests", "population_stability", "two_sample_test",
]

THESIS = ("Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis, "
          "University of Manchester, sec. 5.2")

ALTERNATIVES = ("two-sided", "greater", "less")
#: The intervals of :meth:`StabilityEstimate.confidence_interval` and their labels.
CI_METHODS = {"auto": "by M, the small-M study's closest",
              "wald": "Wald, thesis Cor. 1", "logit": "logit-transformed Wald",
              "bootstrap": "bootstrap percentile", "bca": "bootstrap BCa"}
VARIANCE_METHODS = ("auto", "analytic", "jackknife")
#: The tests of :func:`one_sample_test` (argument ``test``): ``"auto"`` inverts the
#: default interval (:func:`auto_interval`).
ONE_SAMPLE_TESTS = ("auto", "wald", "logit")
#: The tests of :func:`two_sample_test` (argument ``test``).
TEST_METHODS = ("auto", "permutation", "asymptotic")
#: ``test="auto"`` runs the permutation test when a sample has fewer runs than this, the
#: asymptotic test (thesis Thm 7) otherwise: below M = 100 the asymptotic test rejects
#: more often than its nominal level, the permutation test never does
#: (docs/inference_validation.md, "Small M").
PERMUTATION_BELOW = 100


class ZeroVarianceWarning(RuntimeWarning):
    """The estimated variance is zero because every run is the same.

    Identical runs are the one case where a variance estimate of exactly 0 is kept: a
    confidence interval then collapses to the point estimate, and a test statistic
    (difference / 0) is taken as +inf or -inf by the sign of the difference, or 0 when
    the difference is 0 too; p-values follow from these values. The warning gives what
    identical runs do support: with confidence level 1 - alpha, a run differs from
    them with probability at most 1 - alpha^(1/M) (exact binomial bound). A zero or
    degenerate variance from runs that differ is never kept:
    :class:`DegenerateVarianceWarning` (a subclass) says what replaced it.

    See Also
    --------
    propstab.StabilityEstimate : Its ``confidence_interval`` collapses to a point.
    propstab.one_sample_test : The test whose statistic becomes infinite.
    propstab.inference.DegenerateVarianceWarning : The zero variance of runs that differ.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2, Thm 6 (the variance estimate
    that is zero when every run selects the same features) and Cor. 1.

    Examples
    --------
    >>> import warnings
    >>> from propstab import estimate
    >>> est = estimate([[1, 1, 0, 0]] * 4)                  # identical runs
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     low, high = est.confidence_interval()
    >>> (low, high), caught[0].category.__name__
    ((1.0, 1.0), 'ZeroVarianceWarning')
    """


class DegenerateVarianceWarning(ZeroVarianceWarning):
    """A variance estimate was 0, or rounding noise, although the runs differ, and was
    replaced.

    Thesis Thm 6's variance (a delta method) is 0 wherever Phi-hat is stationary in the
    runs' weights, e.g. for two different feature sets each selected by half of the
    runs, although Phi-hat does vary from sample to sample; the jackknife is 0, or
    nearly, there too. Reporting 0 would give a zero-width interval and a p-value near
    0. :func:`propstab.estimate` then takes the bootstrap variance (2000 resamples of
    the runs, seed 0), or NaN when that is degenerate too (and always at M = 2, where an
    analytic variance does not measure how the two runs differ); it warns at once and
    ``StabilityEstimate.variance_note`` and the summary say which variance ran and
    why. A subclass of :class:`ZeroVarianceWarning`, so a filter on that catches both.

    See Also
    --------
    propstab.estimate : Detects the degenerate variance and replaces it.
    propstab.inference.ZeroVarianceWarning : The exact zero of identical runs.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2, Thm 6. Efron, B., Tibshirani, R. J. (1993). An
    Introduction to the Bootstrap, ch. 6 and 11 (bootstrap and jackknife standard errors).

    Examples
    --------
    >>> import warnings
    >>> from propstab import estimate
    >>> Z = [[1, 1, 1, 0, 0, 0], [1, 1, 0, 1, 0, 0]] * 5     # Thm 6 variance 0
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     est = estimate(Z)
    >>> caught[0].category.__name__, est.method, est.standard_error > 0
    ('DegenerateVarianceWarning', 'bootstrap', True)
    """


class SmallSampleWarning(UserWarning):
    """Too few runs for the asymptotic one-sample test and intervals to hold their level.

    Emitted by :func:`one_sample_test` and :meth:`StabilityEstimate.confidence_interval`
    when M is below ``SMALL_M_BELOW`` (100): the message gives the coverage of the 95 %
    Wald interval (and the level of the 5 % test) that the small-M validation study
    measured at that M (``SMALL_M_STUDY``), and that of the interval that came closest
    to 95 % there, the logit interval with the jackknife variance (``SMALL_M_BEST``;
    docs/inference_validation.md, "Small M"). No method of the study holds the level
    everywhere below 100 runs. Printed summaries do not warn.
    Two-sample tests do not warn: below 100 runs they are permutation tests, whose level
    holds at any M.

    See Also
    --------
    propstab.inference.small_sample_note : The message.
    propstab.two_sample_test : Its permutation test holds the level at small M.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 6 and Cor. 1 (asymptotic in M);
    studies/validate_small_m.py.

    Examples
    --------
    >>> import warnings
    >>> from propstab import estimate
    >>> est = estimate([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]] * 3)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     low, high = est.confidence_interval()
    >>> caught[0].category.__name__, "M = 12" in str(caught[0].message)
    ('SmallSampleWarning', True)
    """


class VaryingSizesWarning(UserWarning):
    """The subset sizes vary so much that Nogueira's estimator is biased at chance level.

    Its expectation under the null model for the observed sizes,
    -var_pop(k/d) / ((M - 1) q̄ (1 - q̄)) (:func:`propstab.chance.nogueira_expectation`),
    is below -``SIZE_BIAS_LIMIT`` (0.01); ``measure="conger"`` is corrected for chance
    exactly for any sizes (docs/varying_sizes.md).

    See Also
    --------
    propstab.inference.varying_sizes_note : The note this warning carries.
    propstab.chance.nogueira_expectation : The null expectation it is based on.
    propstab.assess : Warns with it when the runs' subset sizes vary.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Def. 3 (the estimator) and sec. 5.2;
    Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
    Psychol. Bull. 88(2), 322-328 (the chance-corrected alternative ``conger``).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from propstab import assess
    >>> X = np.random.default_rng(0).normal(size=(6, 8))
    >>> def positive_means(X, y):                           # subset sizes vary
    ...     return np.flatnonzero(X.mean(axis=0) > 0)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = assess(positive_means, X, n_runs=5, random_state=0)
    >>> [w.category.__name__ for w in caught]
    ['VaryingSizesWarning']
    """


#: How far below 0 Nogueira's null expectation may be before :func:`varying_sizes_note`
#: (and ``propstab.assess``, ``propstab estimate``) suggest ``conger``.
SIZE_BIAS_LIMIT = 0.01


def varying_sizes_note(measure: str, subset_sizes, n_features: int) -> Optional[str]:
    """A one-line note when ``measure`` is Nogueira's estimator and, for these subset
    sizes, its null expectation is below -``SIZE_BIAS_LIMIT`` (0.01); None otherwise.

    Parameters
    ----------
    measure : str
        A registered measure name (only ``"nogueira"`` can give a note).
    subset_sizes : array_like of int or None
        k_i, the number of features selected in each run (None: no note).
    n_features : int
        d, the number of features.

    Returns
    -------
    str or None
        The note, naming Nogueira's null expectation and suggesting ``conger``; None
        when the measure is not ``nogueira``, the sizes are unknown, fewer than two, all
        empty or all full, or the expectation is at least -``SIZE_BIAS_LIMIT``.

    Raises
    ------
    ValueError
        ``measure`` is not a registered measure, or ``subset_sizes`` are not integers in
        [0, ``n_features``].
    TypeError
        ``subset_sizes`` or ``n_features`` has the wrong type.

    See Also
    --------
    propstab.chance.nogueira_expectation : The null expectation the note reports.
    propstab.inference.VaryingSizesWarning : The warning that carries this note.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Def. 3 (the estimator, whose chance
    correction assumes a constant subset size); docs/varying_sizes.md.

    Examples
    --------
    >>> varying_sizes_note("nogueira", [2, 2, 2, 2], 10) is None
    True
    >>> print(varying_sizes_note("nogueira", [1, 9, 2, 8], 10))
    subset sizes vary: nogueira's expectation under chance is -0.1667, not 0; measure='conger' is corrected for chance exactly (docs/varying_sizes.md)
    """
    if get_measure(measure).name != "nogueira" or subset_sizes is None:
        return None
    try:
        sizes, d = check_row_sizes(subset_sizes, n_features)
    except (ValueError, TypeError) as exc:
        argument, _, rule = str(exc).partition(": ")
        raise type(exc)(f"{'subset_sizes' if argument == 'row_sizes' else argument}: "
                        f"{rule}") from None
    if sizes.size < 2 or sizes.sum() in (0, sizes.size * d):
        return None
    bias = chance.nogueira_expectation(sizes, d)
    if not bias < -SIZE_BIAS_LIMIT:
        return None
    return (f"subset sizes vary: nogueira's expectation under chance is {bias:.4f}, not 0; "
            f"measure='conger' is corrected for chance exactly (docs/varying_sizes.md)")


#: Below this many runs the asymptotic one-sample test and the intervals miss their level
#: in the small-M study (docs/inference_validation.md, "Small M"): SmallSampleWarning.
SMALL_M_BELOW = 100
#: The small-M study (studies/validate_small_m.py, full mode, 600 repeats per cell;
#: studies/small_m_results.json): for each M, the lowest and highest coverage (%) of the
#: 95 % Wald interval (the default interval, with the default variance) over nogueira,
#: conger and jaccard and the two populations (Phi 0.39 and 0.89); the two-sided 5 %
#: one-sample test rejects 100 minus these.
SMALL_M_STUDY = {10: (81.8, 94.3), 20: (87.3, 94.0), 30: (90.2, 94.0), 50: (92.5, 94.3)}
#: The same study's best interval at each M, the default below ``SMALL_M_BELOW`` runs
#: (``confidence_interval(method="auto")``): the logit interval with the jackknife
#: variance, its lowest and highest coverage (%) over the three measures and the two
#: populations (studies/small_m_jackknife.json, 1000 repeats per cell, the draws of
#: studies/small_m_intervals.json).
SMALL_M_BEST = {10: (92.0, 95.0), 20: (93.6, 95.0), 30: (93.6, 94.9), 50: (94.5, 95.2)}
#: The coverage (%) the small-M study measured for each 95 % interval, lowest and highest
#: per M over the measures and populations: ``"wald"`` and ``"logit"`` with the
#: measures' default variances (nogueira: Thm 6; conger, jaccard: the jackknife),
#: ``"wald (jackknife)"`` and ``"logit (jackknife)"`` with the jackknife variance for
#: all three, the bootstrap intervals (studies/small_m_results.json for ``"wald"``, 600
#: repeats; studies/small_m_intervals.json and small_m_jackknife.json for the others,
#: 1000 repeats).
SMALL_M_COVERAGE = {
    "wald": SMALL_M_STUDY,
    "wald (jackknife)": {10: (87.8, 92.9), 20: (91.4, 93.4), 30: (93.5, 94.3),
                         50: (93.7, 94.3)},
    "logit": {10: (80.8, 95.0), 20: (89.4, 95.0), 30: (90.2, 94.9), 50: (92.4, 95.2)},
    "logit (jackknife)": SMALL_M_BEST,
    "bootstrap": {10: (50.2, 83.3), 20: (67.0, 89.8), 30: (75.2, 92.2), 50: (84.5, 92.5)},
    "bca": {10: (17.9, 79.8), 20: (52.6, 89.3), 30: (63.3, 91.2), 50: (79.5, 92.3)},
}
#: The rejection rate (%) of the one-sided ("greater") 5 % one-sample test at the true
#: value: the Wald test with the default variance (studies/small_m_results.json) and the
#: test that inverts the logit interval with the jackknife variance, the default below
#: ``SMALL_M_BELOW`` runs (studies/small_m_jackknife.json).
SMALL_M_GREATER = {
    "wald": {10: (4.5, 19.3), 20: (5.7, 13.2), 30: (4.7, 11.7), 50: (5.3, 6.8)},
    "logit (jackknife)": {10: (0.8, 6.2), 20: (3.7, 6.4), 30: (3.1, 6.3), 50: (3.8, 4.5)},
}
#: What each key of ``SMALL_M_COVERAGE`` is, in words.
INTERVAL_LABELS = {
    "wald": "Wald interval", "wald (jackknife)": "Wald interval with the jackknife variance",
    "logit": "logit interval", "logit (jackknife)": "logit interval with the jackknife variance",
    "bootstrap": "percentile bootstrap interval", "bca": "BCa bootstrap interval"}


def auto_interval(n_runs: int) -> Tuple[str, bool]:
    """The interval ``method="auto"`` runs for M = ``n_runs``: ``("logit", True)`` (the
    logit interval with the jackknife variance, the closest to the nominal level in the
    small-M study) below ``SMALL_M_BELOW`` runs, ``("wald", False)`` (the Wald interval
    with the estimate's own variance, thesis Cor. 1) from it on.

    Parameters
    ----------
    n_runs : int
        M.

    Returns
    -------
    (str, bool)
        The interval method and whether it takes the jackknife variance.

    Raises
    ------
    None
        ``n_runs`` is an estimate's M, already validated.

    See Also
    --------
    StabilityEstimate.confidence_interval, one_sample_test

    References
    ----------
    studies/validate_small_m.py; docs/inference_validation.md, "Small M".

    Examples
    --------
    >>> auto_interval(10), auto_interval(100)
    (('logit', True), ('wald', False))
    """
    return ("logit", True) if n_runs < SMALL_M_BELOW else ("wald", False)


def small_sample_note(n_runs: int, *, short: bool = False, method: str = "auto",
                      alternative: Optional[str] = None) -> Optional[str]:
    """The :class:`SmallSampleWarning` message for M = ``n_runs`` runs, or None from
    ``SMALL_M_BELOW`` runs on: the coverage the small-M study measured for the interval
    that ran (``method``, a key of ``SMALL_M_COVERAGE``, or ``"auto"``: the one
    :func:`auto_interval` picks) at the largest studied M not above ``n_runs`` (at the
    smallest studied M for fewer runs, where it is worse still).

    Parameters
    ----------
    n_runs : int
        M.
    short : bool, default False
        One line for a printout (the command line's ``note``) instead of the warning's
        sentence.
    method : str, default "auto"
        The interval that ran: ``"auto"`` or a key of ``SMALL_M_COVERAGE``.
    alternative : str or None, default None
        A one-sample test's alternative: ``"greater"`` adds the one-sided level the
        study measured for that test (where it measured it).

    Returns
    -------
    str or None

    Raises
    ------
    None
        ``n_runs`` is an estimate's M, already validated.

    See Also
    --------
    SmallSampleWarning

    References
    ----------
    studies/validate_small_m.py; docs/inference_validation.md, "Small M".

    Examples
    --------
    >>> small_sample_note(100) is None
    True
    >>> "M = 10" in small_sample_note(10)
    True
    >>> "92.0-95.0 %" in small_sample_note(10)          # the logit-jackknife default
    True
    >>> "81.8-94.3 %" in small_sample_note(10, method="wald")
    True
    """
    if n_runs >= SMALL_M_BELOW or not SMALL_M_STUDY:
        return None
    if method == "auto":
        method = "logit (jackknife)" if auto_interval(n_runs)[1] else "wald"
    table = SMALL_M_COVERAGE[method]
    studied = [m for m in sorted(table) if m <= n_runs] or [min(table)]
    m = studied[-1]
    low, high = table[m]
    where = f"M = {m}" + ("" if m == n_runs else " (fewer runs: worse)" if n_runs < m
                          else " (the nearest studied M below)")
    what = INTERVAL_LABELS[method]
    if short:
        return (f"M < {SMALL_M_BELOW}: at {where} the 95 % {what} covered "
                f"{low:.1f}-{high:.1f} % in the small-M study (docs/inference_validation.md)")
    level = (f"a two-sided 5 % test rejecting a true value {100 - high:.1f}-"
             f"{100 - low:.1f} % of the time")
    if alternative == "greater" and method in SMALL_M_GREATER:
        g_low, g_high = SMALL_M_GREATER[method][m]
        level += f", the one-sided 5 % test 'greater' {g_low:.1f}-{g_high:.1f} %"
    best_low, best_high = SMALL_M_BEST[m]
    best = ("this was the closest to 95 %" if method == "logit (jackknife)" else
            f"the closest to 95 % was the logit interval with the jackknife variance "
            f"(method='auto', the default: {best_low:.1f}-{best_high:.1f} %)")
    return (f"M = {n_runs} runs is too few for the asymptotic intervals and one-sample test "
            f"(thesis Cor. 1) to hold their level: at {where} the validation study measured "
            f"{low:.1f}-{high:.1f} % coverage for the 95 % {what} ({level}) for nogueira, "
            f"conger and jaccard; {best}; no method reached 95 % everywhere below "
            f"M = {SMALL_M_BELOW} (docs/inference_validation.md, 'Small M')")


def _warn_small_sample(n_runs: int, method: str = "auto",
                       alternative: Optional[str] = None) -> None:
    note = small_sample_note(n_runs, method=method, alternative=alternative)
    if note is not None:
        warn(note, SmallSampleWarning)


class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)``.

    Parameters
    ----------
    low : float
        The lower bound.
    high : float
        The upper bound.

    See Also
    --------
    propstab.StabilityEstimate : Its ``confidence_interval`` returns one.
    propstab.inference.TwoSampleTestResult : Its ``confidence_interval`` matches the test.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Cor. 1 (the asymptotic confidence
    interval of the stability).

    Examples
    --------
    >>> from propstab import estimate
    >>> est = estimate([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]])
    >>> low, high = est.confidence_interval(0.95)    # M < 100: logit, jackknife variance
    >>> round(low, 4), round(high, 4)
    (-0.6395, 0.9523)
    >>> low, high = est.confidence_interval(0.95, method="wald")     # thesis Cor. 1
    >>> round(low, 4), round(high, 4)
    (0.0757, 0.9243)
    """

    low: float
    high: float


def interpret(value: float) -> str:
    """Label of ``value`` on the benchmark scale of thesis Table 6.1.

    < 0.40 poor, 0.40 to 0.75 intermediate to good, > 0.75 excellent.

    >>> interpret(0.3), interpret(0.4), interpret(0.75), interpret(0.9)
    ('poor', 'intermediate to good', 'intermediate to good', 'excellent')
    """
    if value < TABLE_6_1[0][0]:
        return TABLE_6_1[0][1]
    if value <= TABLE_6_1[1][0]:
        return TABLE_6_1[1][1]
    return TABLE_6_1[2][1]


def _on_kappa_scale(info) -> bool:
    """Whether the measure declares Table 6.1 as its interpretation scale
    (``register(scale=TABLE_6_1)``: kappa-like values)."""
    return info.scale == TABLE_6_1


@dataclasses.dataclass(frozen=True, repr=False)
class StabilityEstimate:
    """A stability estimate with its estimated sampling variance.

    ``repr`` is one line; ``str`` (and ``print``) show :meth:`summary`.

    Parameters
    ----------
    statistic : float
        The measure's value on Z.
    variance : float
        Its estimated variance.
    n_runs : int
        M, the number of runs.
    n_features : int
        d, the number of features.
    measure : str
        The registered name of the measure.
    method : str
        ``"analytic"`` or ``"jackknife"``.
    terms : ndarray
        The per-run terms of the variance.
    factor : float
        The factor of their sum of squares.
    subset_sizes : ndarray or None, optional
        The number of features selected in each run.
    selection : Selection, Rankings or None, optional
        The runs themselves.
    options : mapping or None, optional
        The measure's options.
    variance_note : str or None, optional
        Why ``method`` is not the one asked for (a degenerate variance replaced).

    Attributes
    ----------
    statistic : float
        The measure's value on Z.
    variance : float
        Estimated variance of ``statistic``: thesis Thm 6 (``method="analytic"``) or the
        delete-one-run jackknife (``method="jackknife"``).
    n_runs, n_features : int
        M and d.
    measure : str
        The registered name of the measure.
    method : str
        The variance that ran: ``"analytic"``, ``"jackknife"``, or ``"bootstrap"``
        (only in place of a degenerate variance, see ``variance_note``).
    terms : ndarray
        Per-run terms u_i with ``variance = factor * sum_i (u_i - mean u)^2``: the
        thesis's Phi_(i) (factor 4/M^2) or the leave-one-out values (factor (M-1)/M);
        NaN for the bootstrap variance. Used by the paired test.
    factor : float
    subset_sizes : ndarray or None
        k_i, the number of features selected in each run (None when not recorded).
    selection : Selection, Rankings or None
        The runs themselves, which the bootstrap intervals resample (None when not
        recorded).
    options : mapping or None
        The measure's options the statistic was computed with.
    variance_note : str or None
        None, or why the variance asked for was replaced (it was 0 or rounding noise
        although the runs differ; :class:`DegenerateVarianceWarning`), e.g. ``"the
        analytic (thesis Thm 6) variance was 0 although the runs differ"``.

    See Also
    --------
    propstab.estimate : Computes one from a selection matrix.
    propstab.one_sample_test : Tests it against a value.
    propstab.inference.runs_needed : The runs its Wald interval needs for a given half-width.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2: Def. 3 (the estimator),
    Thm 6 (its variance) and Cor. 1 (the confidence interval).

    Examples
    --------
    >>> from propstab import estimate
    >>> est = estimate([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]])
    >>> est
    StabilityEstimate(measure='nogueira', statistic=0.5, standard_error=0.2165, n_runs=4,
                      n_features=4, method='analytic')
    >>> print(est)
    Stability estimate
    measure          nogueira
    estimate         0.5000 (intermediate to good, thesis Table 6.1)
    standard error   0.2165 (analytic: thesis Thm 6)
    95% CI           [-0.6395, 0.9523] (logit, jackknife variance; M < 100)
    runs x features  4 x 4
    subset size      2 (all runs)
    """

    statistic: float
    variance: float
    n_runs: int
    n_features: int
    measure: str
    method: str
    terms: np.ndarray = dataclasses.field(repr=False, compare=False)
    factor: float = dataclasses.field(repr=False, compare=False)
    subset_sizes: Optional[np.ndarray] = dataclasses.field(default=None, repr=False,
                                                           compare=False)
    selection: Any = dataclasses.field(default=None, repr=False, compare=False)
    options: Optional[Mapping[str, Any]] = dataclasses.field(default=None, repr=False,
                                                             compare=False)
    variance_note: Optional[str] = dataclasses.field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        return call_repr("StabilityEstimate", measure=self.measure, statistic=self.statistic,
                         standard_error=self.standard_error, n_runs=self.n_runs,
                         n_features=self.n_features, method=self.method)

    def __str__(self) -> str:
        return str(self.summary())          # a plain str, not the Summary subclass

    def summary(self, confidence_level: float = 0.95) -> Summary:
        """A few lines: the estimate, its standard error and Wald interval, M, d, sizes.

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        return summary("Stability estimate", self._fields(confidence_level))

    def _fields(self, confidence_level: float) -> List[Tuple[str, str]]:
        confidence_level = check_confidence_level(confidence_level)
        low, high = quietly(self.confidence_interval, confidence_level)
        ran = self.interval_method()
        label = self.interpretation
        value = number(self.statistic, fixed=True)
        rows = [("measure", self.measure),
                ("estimate", value if label is None else f"{value} ({label}, thesis Table 6.1)"),
                ("standard error", f"{number(self.standard_error, fixed=True)} "
                                   f"({_variance_label(self)})"),
                (level_label(confidence_level), f"{interval(low, high)} ({ran})"),
                ("runs x features", f"{self.n_runs} x {self.n_features}")]
        if self.subset_sizes is not None and len(self.subset_sizes):
            rows.append(("subset size", size_text(self.subset_sizes)))
        if self.note is not None:
            rows.append(("note", self.note))
        return rows

    @property
    def note(self) -> Optional[str]:
        """:func:`varying_sizes_note` for this estimate (None: nothing to note)."""
        return varying_sizes_note(self.measure, self.subset_sizes, self.n_features)

    @property
    def variance_source(self) -> str:
        """Where :attr:`variance` comes from: the measure's closed form (its
        ``analytic_variance``'s ``source``, e.g. ``"thesis Thm 6"``) or the jackknife."""
        if self.method == "analytic":
            return getattr(get_measure(self.measure).analytic_variance, "source", "closed form")
        return _METHOD_SOURCES[self.method]

    @property
    def standard_error(self) -> float:
        """The square root of :attr:`variance`."""
        return math.sqrt(self.variance) if self.variance >= 0 else float("nan")

    @property
    def interpretation(self) -> Optional[str]:
        """The statistic's label on thesis Table 6.1 (poor / intermediate to good /
        excellent), or None for an undefined (NaN) statistic or a measure not on a
        kappa-like scale (Fleiss' kappa = ``nogueira``, or null value 0, maximum 1, higher
        is more stable): the scale is Fleiss' kappa's."""
        if math.isnan(self.statistic) or not _on_kappa_scale(get_measure(self.measure)):
            return None
        return interpret(self.statistic)

    @property
    def range(self) -> Tuple[float, float]:
        """The measure's declared range ``(lo, hi)`` for this M, d and these subset sizes
        (its registry bounds, evaluated where they depend on M, d or the sizes); an
        undeclared bound, or one that cannot be evaluated here, is -inf or inf."""
        return _intervals.measure_range(get_measure(self.measure), self.n_runs,
                                        self.n_features, self.subset_sizes)

    def jackknife_variance(self) -> float:
        """The delete-one-run jackknife variance of this estimate (its own
        :attr:`variance` when that is the jackknife's, or the bootstrap's that replaced a
        degenerate one, or when the runs are not held or the jackknife is undefined or
        degenerate here).

        Returns
        -------
        float
        """
        sel = self.selection
        if (self.method != "analytic" or sel is None or self.n_runs < 3
                or math.isnan(self.statistic)):
            return self.variance
        info = get_measure(self.measure)
        terms = _variance.leave_one_out(sel, info, dict(self.options or {}))
        if np.isnan(terms).any() or _variance.degenerate_fallback(
                sel, info, dict(self.options or {}), "jackknife", terms) is not None:
            return self.variance
        return float(_variance.spread(terms, (self.n_runs - 1) / self.n_runs))

    def interval_method(self, method: str = "auto") -> str:
        """What :meth:`confidence_interval` runs for ``method``: the interval and the
        variance, in words (what the summary prints beside the interval).

        Parameters
        ----------
        method : {"auto", "wald", "logit", "bootstrap", "bca"}, default "auto"

        Returns
        -------
        str
            E.g. ``"Wald, thesis Cor. 1"`` or ``"logit, jackknife variance; M < 100"``.
        """
        method = check_choice("method", method, tuple(CI_METHODS))
        if method != "auto":
            return CI_METHODS[method]
        name, jackknife = auto_interval(self.n_runs)
        if not jackknife:
            return CI_METHODS[name]
        variance = ("jackknife" if self.method == "jackknife" or self._jackknife_applies()
                    else self.method)
        return f"{name}, {variance} variance; M < {SMALL_M_BELOW}"

    def _jackknife_applies(self) -> bool:
        return (self.method == "analytic" and self.selection is not None
                and self.n_runs >= 3 and self.jackknife_variance() != self.variance)

    def confidence_interval(self, confidence_level: float = 0.95, *, method: str = "auto",
                            n_resamples: int = 2000, random_state=0) -> ConfidenceInterval:
        r"""An approximate confidence interval for the population stability, within the
        measure's range.

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95
        method : {"auto", "wald", "logit", "bootstrap", "bca"}, default "auto"
            ``"auto"``: the small-M study's closest to the nominal coverage at this M
            (:func:`propstab.inference.auto_interval`): below ``SMALL_M_BELOW`` (100)
            runs the logit interval with the delete-one-run jackknife variance
            (:meth:`jackknife_variance`; 92.0-95.0 % at M = 10 where Thm 6's Wald
            interval covered 80.6-82.4 %), from 100 runs on the Wald interval with
            :attr:`variance`.
            ``"wald"``: :math:`\hat\Phi \pm z_{1-\alpha/2}\sqrt{v}` (thesis Cor. 1,
            v from Thm 6 or the jackknife). ``"logit"``: the Wald interval on the logit
            of the position within the range (Fisher's z for a range [-1, 1]), mapped
            back. ``"bootstrap"``: the percentile interval of the measure over
            ``n_resamples`` resamples of the runs. ``"bca"``: the bias-corrected and
            accelerated bootstrap interval (Efron 1987). See Notes.
        n_resamples : int >= 100, default 2000
            B, the bootstrap resamples (``"bootstrap"`` and ``"bca"`` only).
        random_state : None, int or numpy Generator, default 0
            The seed of the resamples (the default 0 makes the interval reproducible).

        Returns
        -------
        ConfidenceInterval
            ``(low, high)`` within :attr:`range`; NaN bounds when the statistic or its
            variance is undefined.

        Raises
        ------
        ValueError, TypeError
            An invalid argument; a bootstrap method for an estimate that does not hold
            its runs (:attr:`selection` is None).

        Warns
        -----
        SmallSampleWarning
            When M is below ``SMALL_M_BELOW`` (100): no method holds the nominal
            coverage there in the small-M study; the message gives the coverage it
            measured for the interval that ran (``SMALL_M_COVERAGE``).
        ZeroVarianceWarning
            When the variance is 0, or every bootstrap replicate equals the estimate:
            the interval is then the single point (when every run selected the same
            features, the message gives the one statement the runs support, an exact
            binomial bound on the share of runs that select another set).
        UndefinedMeasureWarning
            When the measure is undefined on some bootstrap resamples (the interval
            uses the others).

        See Also
        --------
        runs_needed : The runs that bring the Wald interval to a given half-width.

        Notes
        -----
        With :math:`\alpha = 1 -` ``confidence_level`` and (lo, hi) the range:

        - Wald: :math:`[\hat\Phi - z\sqrt v, \hat\Phi + z\sqrt v] \cap [lo, hi]`
          with :math:`z = z_{1-\alpha/2}`;
        - logit: with :math:`u = (\hat\Phi - lo)/(hi - lo)` and
          :math:`g = \operatorname{logit} u`, by the delta method
          :math:`\mathrm{se}(g) = \sqrt v / ((hi - lo) u (1 - u))`, and the interval is
          :math:`lo + (hi - lo)\,\operatorname{expit}(g \pm z\,\mathrm{se}(g))`. For
          [lo, hi] = [-1, 1] this is Fisher's z interval,
          :math:`\tanh(\operatorname{atanh}\hat\Phi \pm z\sqrt v/(1 - \hat\Phi^2))`.
          With one infinite bound the transform is the log of the distance to the finite
          one; with none, the plain Wald interval. It is asymmetric and never leaves the
          range: near the top it reaches less far up than down;
        - bootstrap: rows of Z drawn with replacement, B times; the measure on each
          (:math:`\hat\Phi^*_b`, vectorised through the measure's count or pair-score
          kernel); the :math:`\alpha/2` and :math:`1 - \alpha/2` quantiles;
        - BCa: the quantiles at
          :math:`\Phi_N\big(z_0 + \frac{z_0 + z_q}{1 - a (z_0 + z_q)}\big)` for
          :math:`q = \alpha/2, 1 - \alpha/2`, with the bias correction
          :math:`z_0 = \Phi_N^{-1}(\#\{\hat\Phi^*_b < \hat\Phi\}/B)` (ties counted half)
          and the acceleration :math:`a = \sum_i (\bar\theta - \theta_{(-i)})^3 /
          (6 [\sum_i (\bar\theta - \theta_{(-i)})^2]^{3/2})` from the leave-one-run-out
          values :math:`\theta_{(-i)}`.

        A perfectly stable selector (every run the same subset) has v = 0 and every
        replicate equal to 1: each method returns [1, 1] with a ZeroVarianceWarning. No
        interval for Phi follows from such runs without a model of how the rare
        different runs would look (one run with a disjoint set of k features out of d
        lowers Phi by about 2/(M (k/d)(1 - k/d))); what they do bound exactly is the
        probability that a run differs from the common set: at most
        :math:`1 - \alpha^{1/M}` (about 3/M at 95 %, the "rule of three"), which the
        warning gives. docs/inference.md, "Intervals near the bounds", and
        docs/inference_validation.md give the coverage of each method near the top.

        References
        ----------
        Nogueira (2018), thesis Cor. 1. Efron, B. (1987). Better bootstrap confidence
        intervals. JASA 82(397), 171-185. Efron, B., Tibshirani, R. J. (1993). An
        Introduction to the Bootstrap, ch. 13-14. Fisher, R. A. (1921). On the "probable
        error" of a coefficient of correlation. Metron 1, 3-32.

        Examples
        --------
        >>> import warnings
        >>> from propstab import estimate
        >>> Z = [[1, 1, 0, 0, 0, 0]] * 29 + [[0, 0, 1, 1, 0, 0]]
        >>> est = estimate(Z)
        >>> [round(x, 4) for x in est.confidence_interval(method="wald")]   # clipped at 1
        [0.7201, 1.0]
        >>> [round(x, 4) for x in est.confidence_interval(method="logit")]
        [0.482, 0.9843]
        >>> [round(x, 4) for x in est.confidence_interval(method="bca")]
        [0.569, 1.0]
        >>> est.range
        (-1.0, 1.0)
        """
        level = check_confidence_level(confidence_level)
        method = check_choice("method", method, tuple(CI_METHODS))
        B = check_int_range("n_resamples", n_resamples, minimum=100, maximum=10 ** 6)
        seed = check_random_state("random_state", random_state)
        variance, kind = self.variance, self.method
        if method == "auto":
            method, jackknife = auto_interval(self.n_runs)
            if jackknife and self._jackknife_applies():
                variance, kind = self.jackknife_variance(), "jackknife"
        interval = self._confidence_interval(level, method, B, seed, variance, kind)
        key = method if method in ("bootstrap", "bca") else (
            f"{method} (jackknife)" if kind == "jackknife" else method)
        _warn_small_sample(self.n_runs, key)          # after any ZeroVarianceWarning
        return interval

    def _confidence_interval(self, level, method, B, seed, variance, kind):
        lo, hi = self.range
        what = f"the {kind} variance of {self.measure}"
        if variance == 0 and self.selection is not None:
            what += _identical_runs_note(self.selection, level, self.options)
        if method == "wald":
            return wald_interval(self.statistic, variance, level, "two-sided", what,
                                  (lo, hi))
        if method == "logit":
            if variance == 0 or not variance > 0 or math.isnan(self.statistic):
                return wald_interval(self.statistic, variance, level, "two-sided",
                                      what, (lo, hi))
            z = float(stats.norm.ppf(0.5 + level / 2))
            low, high = _intervals.transformed_wald(self.statistic, variance, z, lo, hi)
            return ConfidenceInterval(*_intervals.clip(low, high, lo, hi))
        return self._bootstrap_interval(method, level, B, seed, (lo, hi))

    def _bootstrap_interval(self, method, level, B, seed, bounds) -> ConfidenceInterval:
        if self.selection is None:
            raise ValueError(f"method: {method!r} resamples the runs, and this estimate "
                             f"does not hold them (selection is None); build it with "
                             f"propstab.estimate")
        if math.isnan(self.statistic):
            return ConfidenceInterval(float("nan"), float("nan"))
        info = get_measure(self.measure)
        options = dict(self.options or {})
        reps = _intervals.bootstrap_replicates(self.selection, info, options, B,
                                               np.random.default_rng(seed))
        n_nan = int(np.isnan(reps).sum())
        if n_nan == B:
            nan = undefined(f"the bootstrap interval of {self.measure}",
                            "the measure is undefined on every resample")
            return ConfidenceInterval(nan, nan)
        if n_nan:
            warn(f"{self.measure} is undefined on {n_nan} of {B} bootstrap resamples; the "
                 f"interval uses the other {B - n_nan}", UndefinedMeasureWarning)
        defined = reps[~np.isnan(reps)]
        if np.all(defined == self.statistic):
            _warn_zero(f"every bootstrap replicate of {self.measure} equals the estimate"
                       + _identical_runs_note(self.selection, level))
            return ConfidenceInterval(float(self.statistic), float(self.statistic))
        if method == "bootstrap":
            low, high = _intervals.percentile_interval(defined, level)
        else:
            loo = (self.terms if self.method == "jackknife" else
                   _variance.leave_one_out(self.selection, info, options))
            low, high = _intervals.bca_interval(defined, self.statistic, loo, level)
        return ConfidenceInterval(*_intervals.clip(low, high, *bounds))


def _identical_runs_note(sel, level: float, options=None) -> str:
    """When every run is the same, the exact bound on the share of runs that differ."""
    M = sel.n_runs
    if M < 1 or not _variance.identical_runs(sel, options):
        return ""
    bound = 1.0 - (1.0 - level) ** (1.0 / M)
    return (f" (all {M} runs are the same: what they support is that, with "
            f"{100 * level:g}% confidence, a run differs from them with probability at "
            f"most {bound:.3g}, exact binomial bound 1 - alpha^(1/M))")


_METHOD_SOURCES = {
    "jackknife": "delete-one-run jackknife",
    "bootstrap": (f"bootstrap of the runs ({_variance.BOOTSTRAP_RESAMPLES} resamples, "
                  f"seed {_variance.BOOTSTRAP_SEED})")}


def _variance_label(est) -> str:
    """``"analytic: thesis Thm 6"`` or ``"delete-one-run jackknife"``, followed by why
    when a degenerate variance was replaced, e.g. ``"bootstrap of the runs (2000
    resamples, seed 0), as the analytic (thesis Thm 6) variance was 0 although the runs
    differ"``."""
    label = (f"analytic: {est.variance_source}" if est.method == "analytic"
             else est.variance_source)
    note = getattr(est, "variance_note", None)
    if note is None:
        return label
    return f"{label}, as {note}" if est.variance == est.variance else f"undefined: {note}"


def quietly(function, *args):
    """``function(*args)`` without ZeroVarianceWarning or SmallSampleWarning: a printout
    does not warn."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroVarianceWarning)
        warnings.simplefilter("ignore", SmallSampleWarning)
        return function(*args)


def _warn_zero(what: str) -> None:
    warn(f"{what}; the interval or test is degenerate", ZeroVarianceWarning)


def wald_interval(center: float, variance: float, level: float, alternative: str,
                   what: str, bounds: Tuple[float, float] = (-math.inf, math.inf)
                   ) -> ConfidenceInterval:
    """The Wald interval of level ``level`` around ``center`` with variance ``variance``,
    one-sided for ``alternative="greater"`` (``[low, hi]``) or ``"less"``
    (``[lo, high]``), clipped to ``bounds = (lo, hi)``: the set of null values in the
    range that the matching z-test does not reject.

    The one place where a Wald interval is computed (thesis Cor. 1; for a difference,
    the normal limit in the proof of Thm 7).
    """
    if variance == 0:
        _warn_zero(f"{what} is 0")
    se = math.sqrt(variance) if variance >= 0 else float("nan")
    if math.isnan(center) or math.isnan(se):
        return ConfidenceInterval(float("nan"), float("nan"))
    if alternative == "two-sided":
        half = float(stats.norm.ppf(0.5 + level / 2)) * se
        low, high = center - half, center + half
    else:
        half = float(stats.norm.ppf(level)) * se
        low, high = ((center - half, math.inf) if alternative == "greater"
                     else (-math.inf, center + half))
    return ConfidenceInterval(*_intervals.clip(float(low), float(high), *bounds))


def estimate(Z, /, measure: str = "nogueira", *, method: str = "auto", n_features=None,
             feature_names=None, **options) -> StabilityEstimate:
    """Estimate the stability of the selections in ``Z`` with its variance.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
        The selection matrix (M runs x d features); see :func:`propstab.as_selection`.
    measure : str, default "nogueira"
        A registered measure (see :func:`propstab.list_measures`).
    method : {"auto", "analytic", "jackknife"}
        ``"analytic"``: thesis Thm 6, for ``nogueira`` and ``kuncheva`` (equal to it
        on its domain, Thm 4), and its delta-method counterpart for ``conger``
        (:func:`propstab._variance.conger_delta`, equal to Thm 6 for a constant size);
        ``"jackknife"``: delete-one-run jackknife, for any measure; ``"auto"``:
        Thm 6 for ``nogueira`` and ``kuncheva``, else the jackknife (also for
        ``conger``, whose jackknife intervals cover better for M < 100,
        docs/inference_validation.md). A variance that is degenerate although the runs
        differ is replaced (see Notes); the result's ``method`` is the one that ran.
    n_features, feature_names : optional
        For index collections.
    **options
        The measure's own options.

    Returns
    -------
    StabilityEstimate

    Raises
    ------
    ValueError, TypeError
        Invalid ``Z``, an unknown measure, option or method, or ``method="analytic"``
        for a measure other than ``nogueira``/``kuncheva``/``conger``.

    Warns
    -----
    UndefinedMeasureWarning
        When the measure, or one of its leave-one-out values, is undefined (NaN).
    DegenerateVarianceWarning
        When the variance asked for is 0, or rounding noise, although the runs differ
        (or is analytic from 2 differing runs): it is replaced by the bootstrap
        variance, else NaN, and ``StabilityEstimate.variance_note`` and the summary
        say so. Identical runs keep their exact 0 (a
        :class:`ZeroVarianceWarning` comes from the interval or test built on it).

    See Also
    --------
    propstab.one_sample_test : Tests the population stability against a value.
    propstab.two_sample_test : Compares two procedures.
    propstab.inference.runs_needed : The runs that bring the interval to a given half-width.

    Notes
    -----
    Thesis Thm 6: :math:`v = \\frac{4}{M^2}\\sum_i (\\hat\\Phi_{(i)} - \\bar\\Phi_{(.)})^2`
    with

    .. math:: \\hat\\Phi_{(i)} = \\frac{1}{\\frac{\\bar k}{d}(1 - \\frac{\\bar k}{d})}
              \\Big[\\frac{1}{d}\\sum_f z_{if}\\hat p_f - \\frac{k_i \\bar k}{d^2}
              + \\frac{\\hat\\Phi}{2}\\Big(\\frac{2 \\bar k k_i}{d^2} - \\frac{k_i}{d}
              - \\frac{\\bar k}{d} + 1\\Big)\\Big].

    Jackknife: :math:`v_J = \\frac{M-1}{M}\\sum_i (\\hat\\theta_{(-i)} - \\bar\\theta)^2` with
    :math:`\\hat\\theta_{(-i)}` the measure without run i, computed from the pair-score
    matrix (pairwise measures) or the column counts minus each row (frequency measures);
    only measures with no such structure are recomputed M times.

    Degenerate variances: either variance is 0 whenever the measure is stationary in the
    runs' weights (e.g. two feature sets each chosen by half of the runs), although the
    estimate does vary from sample to sample; an analytic variance from M = 2 runs does
    not measure how they differ. Where the per-run terms are equal up to rounding
    (:func:`propstab._variance.degenerate`) and the runs are not all the same, the
    estimate takes the bootstrap variance (2000 resamples of the runs, seed 0; not the
    jackknife, a linearisation that is 0 or nearly so at the same points), else NaN,
    and warns (:class:`DegenerateVarianceWarning`).
    The coverage of the replacement is in docs/inference_validation.md, "Degenerate
    variances".

    References
    ----------
    Nogueira (2018), thesis sec. 5.2, Thm 6 and Cor. 1; Gwet, K. L. (2008). Variance
    estimation of nominal-scale inter-rater reliability with random selection of raters.
    Psychometrika 73(3), 407-430. doi:10.1007/s11336-007-9054-8. Efron, B., Stein, C.
    (1981). The jackknife estimate of variance. Ann. Stat. 9(3), 586-596.

    Examples
    --------
    >>> from propstab import estimate
    >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
    >>> est = estimate(Z)
    >>> round(est.statistic, 4), round(est.variance, 4), est.method
    (0.5, 0.0469, 'analytic')
    >>> low, high = est.confidence_interval(0.9, method="wald")
    >>> round(low, 4), round(high, 4)
    (0.1439, 0.8561)
    >>> low, high = est.confidence_interval(0.9)      # M < 100: logit, jackknife variance
    >>> round(low, 4), round(high, 4)
    (-0.4985, 0.9283)
    >>> round(estimate(Z, "jaccard").variance, 4)
    0.1111
    """
    info = get_measure(measure)
    sel = as_input(info.input, Z, n_features=n_features, feature_names=feature_names,
                   argument="Z", owner=info.name)
    check_choice("method", method, VARIANCE_METHODS)
    if method == "analytic" and info.analytic_variance is None:
        having = [m.name for m in list_measures() if m.analytic_variance is not None]
        raise ValueError(f"method: 'analytic' (thesis Thm 6, or the U-statistic variance of "
                         f"a ranking measure) applies only to "
                         f"{', '.join(having)}; got measure {info.name!r} "
                         f"(use method='jackknife')")
    statistic = info.function(sel, **options)
    M, d = sel.n_runs, sel.n_features
    if info.analytic_variance is not None and (
            method == "analytic"
            or (method == "auto" and getattr(info.analytic_variance, "default", True))):
        variance, terms, factor = info.analytic_variance(sel, statistic)
        kind = "analytic"
    else:
        kind, factor = "jackknife", (M - 1) / M
        if M < 3:
            terms = np.full(M, np.nan)
        else:
            terms = _variance.leave_one_out(sel, info, options)
        if not math.isnan(statistic) and np.isnan(terms).any():
            i = int(np.argmax(np.isnan(terms)))
            why = ("it needs at least 3 runs" if M < 3 else
                   f"{info.name} is undefined once run {i} is deleted")
            undefined(f"the jackknife variance of {info.name}", why)
        variance = _variance.spread(terms, factor)
    note = None
    if not math.isnan(statistic):
        replaced = _variance.degenerate_fallback(sel, info, options, kind, terms)
        if replaced is not None:
            variance, terms, factor, kind, note = replaced
            _warn_degenerate(info.name, kind, variance, note)
    return StabilityEstimate(statistic, float(variance), M, d, info.name, kind, terms, factor,
                             getattr(sel, "row_sizes", None), sel, dict(options), note)


def _warn_degenerate(measure: str, method: str, variance: float, note: str) -> None:
    """The :class:`DegenerateVarianceWarning` of an estimate whose variance was replaced."""
    if math.isnan(variance):
        then = "the variance is NaN (no interval or test)"
    else:
        then = (f"the variance is now from the {_METHOD_SOURCES[method]}, standard error "
                f"{math.sqrt(variance):.3g}")
    warn(f"{measure}: {note}; {then}", DegenerateVarianceWarning)


def population_stability(p) -> float:
    """The population stability Phi of independent-run Bernoulli selection probabilities.

    Parameters
    ----------
    p : sequence of float in [0, 1], length d
        p_f, the probability that feature f is selected in a run.

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        When ``p`` is not a non-empty sequence of numbers in [0, 1].

    Warns
    -----
    UndefinedMeasureWarning
        When every p_f is 0 or every p_f is 1 (p-bar is 0 or 1); the result is NaN.

    See Also
    --------
    propstab.estimate : Estimates Phi from observed runs.
    propstab.measures.nogueira : The estimator of Phi.

    Notes
    -----
    Thesis Thm 6:

    .. math:: \\Phi = 1 - \\frac{\\frac{1}{d}\\sum_f p_f(1 - p_f)}{\\bar p(1 - \\bar p)},
              \\qquad \\bar p = \\frac{1}{d}\\sum_f p_f = \\frac{\\bar k}{d},

    with :math:`\\bar k = \\sum_f p_f` the expected subset size. It is the limit of
    :math:`\\hat\\Phi` as M grows.

    References
    ----------
    Nogueira (2018), thesis Thm 6.

    Examples
    --------
    >>> from propstab import population_stability
    >>> population_stability([1, 1, 0, 0])
    1.0
    >>> population_stability([0.5, 0.5, 0.5, 0.5])
    0.0
    >>> round(population_stability([0.9, 0.8, 0.2, 0.1]), 6)
    0.5
    """
    p = check_probabilities("p", p)
    pbar = float(p.mean())
    den = pbar * (1.0 - pbar)
    if den == 0:
        return undefined("population stability", "the mean selection probability is 0 or 1")
    return 1.0 - float(np.mean(p * (1.0 - p))) / den


# ------------------------------------------------------------------ hypothesis tests

def _z_and_pvalue(difference: float, variance: float, alternative: str, what: str):
    if variance == 0:
        _warn_zero(f"the variance of {what} is 0")
        z = 0.0 if difference == 0 else math.copysign(math.inf, difference)
    else:
        z = difference / math.sqrt(variance) if variance > 0 else float("nan")
    if alternative == "greater":
        p = stats.norm.sf(z)
    elif alternative == "less":
        p = stats.norm.cdf(z)
    else:
        p = 2 * stats.norm.sf(abs(z))
    return float(z), float(p)


_HYPOTHESES = {"two-sided": "!=", "greater": ">", "less": "<"}


class _TestResult:
    """What every test result shares: it unpacks as ``(statistic, pvalue)`` like scipy's
    results (``statistic, pvalue = result``), prints as its summary, and its repr is one
    line."""

    statistic: float
    pvalue: float

    def __iter__(self):
        return iter((self.statistic, self.pvalue))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index):
        return (self.statistic, self.pvalue)[index]

    def __str__(self) -> str:
        return str(self.summary())          # a plain str, not the Summary subclass

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
        V_M, the test statistic.
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
        V_M = (estimate - phi0) / sqrt(v).
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

    def __repr__(self) -> str:
        return call_repr("OneSampleTestResult", statistic=self.statistic, pvalue=self.pvalue,
                         alternative=self.alternative, phi0=self.phi0,
                         measure=self.estimate.measure)

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
            z = float(stats.norm.ppf(0.5 + level / 2 if two else level))
            low, high = _intervals.transformed_wald(e.statistic, e.variance, z, lo, hi)
            low, high = (low if self.alternative != "less" else -math.inf,
                         high if self.alternative != "greater" else math.inf)
            return ConfidenceInterval(*_intervals.clip(low, high, lo, hi))
        return wald_interval(e.statistic, e.variance, level, self.alternative, what, e.range)

    def _summary_rows(self):
        e, op = self.estimate, _HYPOTHESES[self.alternative]
        phi0 = number(self.phi0)
        return ("One-sample test of stability (thesis sec. 5.2.5)",
                [("hypotheses", f"H0: Phi = {phi0}, H1: Phi {op} {phi0}"),
                 ("estimate", f"{number(e.statistic, fixed=True)} (SE "
                              f"{number(e.standard_error, fixed=True)}, {e.measure}, "
                              f"{_variance_label(e)})"),
                 ("V_M" if self.test == "wald" else "V_M (logit)",
                  number(self.statistic, fixed=True)
                  + ("" if self.test == "wald" else
                     f" (on the logit scale of the range, {CI_METHODS['logit']})")),
                 ("p-value", number(self.pvalue)),
                 ("runs x features", f"{e.n_runs} x {e.n_features}")])


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
        (Phi(Z1) - Phi(Z2)) / sqrt(variance of the difference): minus the thesis's T_M
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

    def __repr__(self) -> str:
        return call_repr("TwoSampleTestResult", statistic=self.statistic, pvalue=self.pvalue,
                         alternative=self.alternative, paired=self.paired,
                         difference=self.difference, measure=self.estimates[0].measure,
                         test=self.test)

    @property
    def test_description(self) -> str:
        """Which test gave the p-value, in words (the summary's ``test`` line)."""
        if self.test == "asymptotic":
            return "asymptotic: N(0, 1) (thesis Thm 7)"
        what = "swap patterns of the pairs" if self.paired else "splits of the pooled runs"
        how = (f"exact, all {self.n_resamples} {what}" if self.exact else
               f"Monte Carlo, {self.n_resamples} random {what}")
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
        return wald_interval(self.difference, self.variance, level, self.alternative,
                              f"the variance of the difference of {self.estimates[0].measure}",
                              (lo1 - hi2, hi1 - lo2))

    def _summary_rows(self):
        e1, e2 = self.estimates
        op = _HYPOTHESES[self.alternative]
        sd = math.sqrt(self.variance) if self.variance >= 0 else float("nan")
        title = "Two-sample test of stability (thesis Thm 7)"
        if self.paired:
            title = "Paired two-sample test of stability (thesis Thm 7, paired variance)"
        return (title,
                [("hypotheses", f"H0: Phi_1 = Phi_2, H1: Phi_1 {op} Phi_2"),
                 ("estimates", f"Phi_1 {number(e1.statistic, fixed=True)} "
                               f"(SE {number(e1.standard_error, fixed=True)}), "
                               f"Phi_2 {number(e2.statistic, fixed=True)} "
                               f"(SE {number(e2.standard_error, fixed=True)})"),
                 ("difference", f"{number(self.difference, fixed=True)} (Phi_1 - Phi_2, SE "
                                f"{number(sd, fixed=True)})"),
                 ("statistic", f"{number(self.statistic, fixed=True)} (difference / SE; "
                               f"thesis T_M = {number(-self.statistic + 0.0, fixed=True)})"),
                 ("test", self.test_description),
                 ("p-value", number(self.pvalue)),
                 ("runs x features", f"{e1.n_runs} x {e1.n_features} and "
                                     f"{e2.n_runs} x {e2.n_features}")])


def one_sample_test(Z, /, phi0: float, *, alternative: str = "greater",
                    measure: str = "nogueira", method: str = "auto", test: str = "auto",
                    n_features=None, feature_names=None, **options) -> OneSampleTestResult:
    """Test whether the population stability exceeds (is below, differs from) ``phi0``.

    Parameters
    ----------
    Z : array-like, DataFrame, sparse matrix or index collections
    phi0 : float
        The stability under the null hypothesis H0: Phi = phi0.
    alternative : {"greater", "less", "two-sided"}
        H1: Phi > phi0 (the thesis's test), Phi < phi0, or Phi != phi0.
    measure, method, n_features, feature_names, **options
        As for :func:`estimate`; with ``test="auto"`` and ``method="auto"`` below
        ``SMALL_M_BELOW`` (100) runs the variance is the jackknife's.
    test : {"auto", "wald", "logit"}, default "auto"
        ``"wald"``: :math:`V_M = (\\hat\\Phi - \\Phi_0)/\\sqrt v` against N(0, 1)
        (thesis sec. 5.2.5); ``"logit"``: the same on the logit scale of the measure's
        range (:func:`propstab._intervals.transformed_statistic`), the test that the
        logit interval inverts; ``"auto"``: the test that inverts the default interval
        (:func:`auto_interval`): below 100 runs the logit test with the jackknife
        variance (in the small-M study the one-sided 5 % test rejected a true value
        0.8-6.2 % of the time at M = 10, the Wald test with Thm 6's variance 16.0-19.3 %
        for nogueira), from 100 runs on the Wald test.

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
    check_choice("alternative", alternative, ALTERNATIVES)
    check_choice("test", test, ONE_SAMPLE_TESTS)
    phi0 = check_real("phi0", phi0)
    est = estimate(Z, measure, method=method, n_features=n_features,
                   feature_names=feature_names, **options)
    check_null_value(phi0, get_measure(est.measure), est.n_runs, est.n_features,
                     est.subset_sizes)
    if test == "auto":
        test, jackknife = auto_interval(est.n_runs)
        if jackknife and method == "auto" and est._jackknife_applies():
            est = dataclasses.replace(est, variance=est.jackknife_variance(),
                                      method="jackknife", terms=_variance.leave_one_out(
                                          est.selection, get_measure(est.measure),
                                          dict(est.options or {})),
                                      factor=(est.n_runs - 1) / est.n_runs)
    if test == "logit" and est.variance > 0 and not math.isnan(est.statistic):
        lo, hi = est.range
        z = _intervals.transformed_statistic(est.statistic, phi0, est.variance, lo, hi)
        p = {"greater": stats.norm.sf(z), "less": stats.norm.cdf(z)}.get(
            alternative, 2 * stats.norm.sf(abs(z)))
        z, p = float(z), float(p)
    else:
        z, p = _z_and_pvalue(est.statistic - phi0, est.variance, alternative, est.measure)
    key = f"{test} (jackknife)" if est.method == "jackknife" else test
    _warn_small_sample(est.n_runs, key, alternative)
    return OneSampleTestResult(z, p, alternative, phi0, est, test)


def _paired_variance(e1: StabilityEstimate, e2: StabilityEstimate) -> float:
    """The variance of the difference from the per-run terms of both estimates; where one
    of them replaced a degenerate variance by the bootstrap
    (``StabilityEstimate.variance_note``), the paired bootstrap of the difference
    (the same resamples of the runs for both), and NaN where one is NaN. A degenerate
    difference of runs that differ takes the paired bootstrap too
    (:func:`propstab._variance.degenerate`)."""
    if math.isnan(e1.variance) or math.isnan(e2.variance):
        return float("nan")
    info = get_measure(e1.measure)
    options = dict(e1.options or {})
    if e1.method == e2.method != "bootstrap":
        delta = e2.terms - e1.terms
        if not (_variance.degenerate(delta, e1.n_runs, e1.n_features)
                and not _same_runs(e1.selection, e2.selection)):
            return float(_variance.spread(delta, e1.factor))
    if e1.selection is None or e2.selection is None:
        return float("nan")
    return _variance.bootstrap_variance(e1.selection, info, options, other=e2.selection)[0]


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
        M_1 and M_2.

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
    docs/inference_validation.md, "Small M" (studies/validate_small_m.py): the levels
    this rule follows.

    Examples
    --------
    >>> chosen_test("auto", 30, 30), chosen_test("auto", 100, 100), chosen_test("auto", 99, 500)
    ('permutation', 'asymptotic', 'permutation')
    """
    if test != "auto":
        return test
    return "permutation" if min(n_runs1, n_runs2) < PERMUTATION_BELOW else "asymptotic"


def _check_test_options(test, n_resamples, random_state):
    check_choice("test", test, TEST_METHODS)
    B = check_int_range("n_resamples", n_resamples, minimum=99, maximum=10 ** 6)
    return test, B, check_random_state("random_state", random_state)


def _compare(sel1, sel2, *, paired, alternative, measure, method, options, names,
             test="auto", n_resamples=9999, rng=None):
    check_comparable(sel1, sel2, paired=paired, names=names)
    for name in _variance.PER_RUN_OPTIONS:
        if options.get(name) is not None:
            raise ValueError(f"{name}: holds one row per run of one matrix, so it cannot be "
                             f"shared by the compared matrices; compare estimates computed "
                             f"with propstab.estimate instead; got {name}= for {measure!r}")
    e1 = estimate(sel1, measure, method=method, **options)
    e2 = estimate(sel2, measure, method=method, **options)
    diff = e1.statistic - e2.statistic
    variance = _paired_variance(e1, e2) if paired else e1.variance + e2.variance
    test = chosen_test(test, e1.n_runs, e2.n_runs)
    if test == "asymptotic":
        z, p = _z_and_pvalue(diff, variance, alternative, f"the difference of {e1.measure}")
        return TwoSampleTestResult(z, p, alternative, paired, diff, variance, (e1, e2))
    with warnings.catch_warnings():         # the p-value does not divide by the variance
        warnings.simplefilter("ignore", ZeroVarianceWarning)
        z, _ = _z_and_pvalue(diff, variance, alternative, f"the difference of {e1.measure}")
    info = get_measure(measure)
    perm = _permutation.permutation_test(sel1, sel2, info, dict(options), paired=paired,
                                         alternative=alternative, n_resamples=n_resamples,
                                         rng=np.random.default_rng(rng) if not isinstance(
                                             rng, np.random.Generator) else rng)
    n_nan = int(np.isnan(perm.null_distribution).sum())
    if n_nan and not math.isnan(perm.pvalue):
        warn(f"{info.name} is undefined on {n_nan} of {perm.n_resamples} rearrangements of "
             f"the runs; the permutation p-value uses the other "
             f"{perm.n_resamples - n_nan}", UndefinedMeasureWarning)
    return TwoSampleTestResult(z, perm.pvalue, alternative, paired, diff, variance, (e1, e2),
                               "permutation", perm.n_resamples, perm.exact)


def two_sample_test(Z1, Z2, /, *, paired: bool = False, alternative: str = "two-sided",
                    measure: str = "nogueira", method: str = "auto", test: str = "auto",
                    n_resamples: int = 9999, random_state=0, n_features=None,
                    feature_names=None, **options) -> TwoSampleTestResult:
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
    measure, method, n_features, feature_names, **options
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
        are at most ``n_resamples`` (C(M_1 + M_2, M_1) splits, or 2^M swap patterns when
        paired), else ``n_resamples`` are drawn at random (scipy's
        ``permutation_test`` rule and default).
    random_state : None, int or numpy Generator, default 0
        The seed of the random rearrangements (the default 0 makes the p-value
        reproducible).

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
    (c = 4/M^2, or (M-1)/M for the jackknife): the delta method (jackknife) applied to
    the difference, which keeps the covariance the independent test ignores.

    Permutation test: the statistic permuted is the difference
    :math:`D = \\hat\\Phi(Z_1) - \\hat\\Phi(Z_2)` itself (not studentised).
    Independent samples: the pooled runs split again into M_1 and M_2 runs; paired: the
    two runs of each resample swapped or not. Under H0 that the runs (the pairs' two
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
    check_choice("alternative", alternative, ALTERNATIVES)
    paired = check_bool("paired", paired)
    test, B, seed = _check_test_options(test, n_resamples, random_state)
    kind = get_measure(measure).input
    sel1 = as_named_input(kind, Z1, "Z1", n_features=n_features, feature_names=feature_names,
                          owner=measure)
    sel2 = as_named_input(kind, Z2, "Z2", n_features=n_features, feature_names=feature_names,
                          owner=measure)
    return _compare(sel1, sel2, paired=bool(paired), alternative=alternative, measure=measure,
                    method=method, options=options, names=("Z1", "Z2"), test=test,
                    n_resamples=B, rng=seed)


#: The corrections of :func:`pairwise_tests`: statsmodels' ``multipletests`` methods, with
#: the column heading and the phrase of their summary line.
CORRECTIONS = {
    "holm": ("Holm", "Holm's correction"),
    "bonferroni": ("Bonferroni", "Bonferroni's correction"),
    "sidak": ("Sidak", "Sidak's correction"),
    "holm-sidak": ("Holm-Sidak", "the Holm-Sidak correction"),
    "simes-hochberg": ("Hochberg", "Hochberg's (Simes-Hochberg) correction"),
    "hommel": ("Hommel", "Hommel's correction"),
    "fdr_bh": ("BH", "the Benjamini-Hochberg FDR correction"),
    "fdr_by": ("BY", "the Benjamini-Yekutieli FDR correction"),
    "fdr_tsbh": ("TSBH", "the two-stage Benjamini-Hochberg FDR correction"),
    "fdr_gbs": ("GBS", "the Gavrilov-Benjamini-Sarkar FDR correction"),
}


def _check_correction(correction) -> str:
    if correction == "fdr_tsbky":
        raise ValueError("correction: 'fdr_tsbky' is not supported: its adjusted p-values "
                         "depend on the level alpha, and a table of adjusted p-values is "
                         "read at any level; use 'fdr_tsbh' or 'fdr_bh'")
    return check_choice("correction", correction, tuple(CORRECTIONS))


def _adjusted_pvalues(pvalues, correction: str) -> np.ndarray:
    """The p-values adjusted by statsmodels' ``multipletests(method=correction)``.

    An undefined p-value (NaN) counts as one of the m tests and is never rejected: it
    enters as 1 and comes back NaN (for Holm, exactly the step-down formula with NaN
    sorted last).
    """
    try:
        from statsmodels.stats.multitest import multipletests
    except ImportError:
        raise ImportError("pairwise_tests needs statsmodels for the multiple-testing "
                          "correction; install it with `pip install propstab[inference]`"
                          ) from None
    p = np.asarray(pvalues, dtype=np.float64)
    undefined = np.isnan(p)
    with np.errstate(divide="ignore"):          # p = 1: log1p(-1) in Sidak, 1/(1 - p) in GBS
        adjusted = np.array(multipletests(np.where(undefined, 1.0, p), method=correction)[1],
                            dtype=np.float64)
    adjusted[undefined] = np.nan
    return adjusted


@dataclasses.dataclass(frozen=True, repr=False)
class PairwiseTestTable:
    """All pairwise comparisons of :func:`pairwise_tests`, one row per pair.

    ``repr`` is one line; ``str`` (and ``print``) show :meth:`summary`, one line per
    pair; :meth:`to_frame` gives the rows as a DataFrame.

    Parameters
    ----------
    rows : tuple of dict
        One row per pair (see Attributes).
    paired : bool
        Whether the runs were paired.
    alternative : str
        ``"two-sided"``, ``"greater"`` or ``"less"``.
    measure : str or None, optional
        The measure compared.
    correction : str, default "holm"
        The multiple-testing correction.

    Attributes
    ----------
    rows : tuple of dict
        Keys: first, second, statistic, pvalue, difference (stability_first minus
        stability_second), stability_first, stability_second, test ("permutation" or
        "asymptotic"), and the adjusted p-value under :attr:`adjusted_key`
        (``pvalue_holm`` for the default Holm correction, ``pvalue_fdr_bh`` for
        ``correction="fdr_bh"``, ``pvalue_holm_sidak`` for ``"holm-sidak"``).
    paired : bool
    alternative : str
    measure : str or None
        The measure compared (None when not recorded).
    correction : str
        The multiple-testing correction (a key of ``CORRECTIONS``), default "holm".

    See Also
    --------
    propstab.pairwise_tests : Returns it.
    propstab.inference.TwoSampleTestResult : One pair's test.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 7 (each pair's test). Holm, S.
    (1979). A simple sequentially rejective multiple test procedure. Scand. J. Stat.
    6(2), 65-70.

    Examples
    --------
    >>> from propstab import pairwise_tests
    >>> A = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]
    >>> B = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
    >>> table = pairwise_tests({"B": B, "C": [[1, 1, 0, 0]] * 4 + [[0, 1, 1, 0]], "A": A})
    >>> table
    PairwiseTestTable(n_pairs=3, paired=False, alternative='two-sided', measure='nogueira')
    >>> print(table)
    Pairwise tests of stability (thesis Thm 7), two-sided, Holm's correction over 3 pairs
    first  second  Phi first  Phi second  difference  statistic  test         p       p (Holm)
    -----  ------  ---------  ----------  ----------  ---------  -----------  ------  --------
    B      C       0.6000     0.6000      0.0000      0.0000     permutation  1       1
    B      A       0.6000     0.0000      0.6000      2.2411     permutation  0.2857  0.8571
    C      A       0.6000     0.0000      0.6000      2.2411     permutation  0.4048  0.8571
    difference = Phi first - Phi second ("greater": the first is more stable); statistic = -T_M
    """

    rows: Tuple[Dict[str, Any], ...]
    paired: bool
    alternative: str
    measure: Optional[str] = None
    correction: str = "holm"

    @property
    def adjusted_key(self) -> str:
        """The key of the adjusted p-value in :attr:`rows`: ``"pvalue_"`` and the correction."""
        return "pvalue_" + self.correction.replace("-", "_")

    @property
    def COLUMNS(self) -> Tuple[str, ...]:
        """The keys of a row, in the order of :meth:`to_frame`'s columns."""
        return ("first", "second", "stability_first", "stability_second", "difference",
                "statistic", "test", "pvalue", self.adjusted_key)

    def to_frame(self):
        """The table as a pandas DataFrame (pandas is needed)."""
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - pandas is a test dependency
            raise ImportError("PairwiseTestTable.to_frame needs pandas: "
                              "pip install pandas") from exc
        return pd.DataFrame(list(self.rows), columns=list(self.COLUMNS))

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        extra = {} if self.correction == "holm" else {"correction": self.correction}
        return call_repr("PairwiseTestTable", n_pairs=len(self.rows), paired=self.paired,
                         alternative=self.alternative, measure=self.measure, **extra)

    def __str__(self) -> str:
        return str(self.summary())          # a plain str, not the Summary subclass

    def summary(self) -> Summary:
        """One line per pair: both stabilities, the difference (first minus second), the
        statistic (difference / SE, minus the thesis's T_M), the test that ran, p and the
        adjusted p.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        kind = "paired, " if self.paired else ""
        heading, phrase = CORRECTIONS[self.correction]
        title = (f"Pairwise tests of stability (thesis Thm 7), {kind}{self.alternative}, "
                 f"{phrase} over {len(self.rows)} pairs")
        heads = ["first", "second", "Phi first", "Phi second", "difference", "statistic",
                 "test", "p", f"p ({heading})"]
        body = [[r["first"], r["second"], *(number(r[k], fixed=True) for k in
                 ("stability_first", "stability_second", "difference", "statistic")),
                 r.get("test", "asymptotic"), number(r["pvalue"]),
                 number(r[self.adjusted_key])] for r in self.rows]
        return summary(title, table=(heads, body),
                       notes=["difference = Phi first - Phi second (\"greater\": the first "
                              "is more stable); statistic = -T_M"])


def pairwise_tests(matrices, /, *, paired: bool = False, alternative: str = "two-sided",
                   measure: str = "nogueira", method: str = "auto", correction: str = "holm",
                   test: str = "auto", n_resamples: int = 9999, random_state=0,
                   n_features=None, feature_names=None, **options) -> PairwiseTestTable:
    r"""Compare the stability of every pair of procedures, with a multiple-testing correction.

    Parameters
    ----------
    matrices : mapping of name -> selection matrix, or sequence of selection matrices
        At least two, all over the same d features (and the same M runs if paired).
    paired, alternative, measure, method, test, n_resamples
        As for :func:`two_sample_test`, applied to every pair (first, second) in the
        order of ``matrices``: the difference is first minus second and
        ``alternative="greater"`` means the first is more stable (``method`` is the
        variance method of the tests, ``test`` the test: permutation below 100 runs).
    random_state : None, int or numpy Generator, default 0
        The seed of the permutation tests' random rearrangements (one stream for all
        pairs, in order: the table is reproducible).
    correction : str, default "holm"
        The correction of the p-values over all m(m-1)/2 pairs, by statsmodels'
        ``multipletests``: ``"holm"`` (step-down, family-wise error rate),
        ``"bonferroni"``, ``"sidak"``, ``"holm-sidak"``, ``"simes-hochberg"``,
        ``"hommel"``, or a false discovery rate correction ``"fdr_bh"``
        (Benjamini-Hochberg), ``"fdr_by"``, ``"fdr_tsbh"``, ``"fdr_gbs"``.
        ``"fdr_tsbky"`` is refused: its adjusted p-values depend on the level.
    n_features, feature_names, **options
        As for :func:`two_sample_test`.

    Returns
    -------
    PairwiseTestTable
        One row per pair with T_M, its p-value and the adjusted p-value (key
        ``pvalue_holm`` by default, see :attr:`PairwiseTestTable.adjusted_key`).

    Raises
    ------
    ValueError, TypeError
        Invalid arguments, as for :func:`two_sample_test`; an unknown ``correction``
        (the message lists the corrections).
    ImportError
        statsmodels is not installed (the extra ``propstab[inference]``).

    See Also
    --------
    propstab.two_sample_test : The test of one pair.
    propstab.assess : Compares several selectors on the same resamples.

    Notes
    -----
    Holm's adjusted p-values (Holm 1979) are, for the sorted p-values
    :math:`p_{(1)} \le \dots \le p_{(m)}`,

    .. math:: \tilde p_{(j)} = \max_{l \le j} \min\{1, (m - l + 1)\, p_{(l)}\}.

    An undefined p-value (NaN, when a measure is undefined for a procedure) counts
    as one of the m tests, is never rejected and stays NaN.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scand.
    J. Stat. 6(2), 65-70.

    Benjamini, Y., Hochberg, Y. (1995). Controlling the false discovery rate: a
    practical and powerful approach to multiple testing. JRSS B 57(1), 289-300.

    Examples
    --------
    >>> from propstab import pairwise_tests
    >>> A = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]
    >>> B = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
    >>> C = [[1, 1, 0, 0]] * 4 + [[0, 1, 1, 0]]
    >>> table = pairwise_tests({"B": B, "C": C, "A": A})    # M = 5: permutation tests
    >>> [(r["first"], r["second"], round(r["difference"], 2), round(r["pvalue_holm"], 3))
    ...  for r in table.rows]
    [('B', 'C', 0.0, 1.0), ('B', 'A', 0.6, 0.857), ('C', 'A', 0.6, 0.857)]
    >>> fdr = pairwise_tests({"B": B, "C": C, "A": A}, correction="fdr_bh", test="asymptotic")
    >>> [round(r["pvalue_fdr_bh"], 4) for r in fdr.rows]     # 1, then 3/2 x 0.02502 twice
    [1.0, 0.0375, 0.0375]
    """
    check_choice("alternative", alternative, ALTERNATIVES)
    paired = check_bool("paired", paired)
    correction = _check_correction(correction)
    if isinstance(matrices, Mapping):
        names, items = list(matrices.keys()), list(matrices.values())
    elif isinstance(matrices, Sequence) and not isinstance(matrices, (str, bytes)):
        names, items = list(range(len(matrices))), list(matrices)
    else:
        raise TypeError(f"matrices: must be a mapping of names to selection matrices or a "
                        f"sequence of selection matrices; got {type(matrices).__name__}")
    if len(items) < 2:
        raise ValueError(f"matrices: at least 2 selection matrices are needed; got {len(items)}")
    kind = get_measure(measure).input
    sels = [as_named_input(kind, Z, f"matrices[{name!r}]", n_features=n_features,
                           feature_names=feature_names, owner=measure)
            for name, Z in zip(names, items)]
    test, B, seed = _check_test_options(test, n_resamples, random_state)
    rng = np.random.default_rng(seed)
    results: List[Tuple[Any, Any, TwoSampleTestResult]] = []
    for a in range(len(sels)):
        for b in range(a + 1, len(sels)):
            res = _compare(sels[a], sels[b], paired=bool(paired), alternative=alternative,
                           measure=measure, method=method, options=options,
                           names=(f"matrices[{names[a]!r}]", f"matrices[{names[b]!r}]"),
                           test=test, n_resamples=B, rng=rng)
            results.append((names[a], names[b], res))
    adjusted = _adjusted_pvalues([r.pvalue for _, _, r in results], correction)
    key = "pvalue_" + correction.replace("-", "_")
    rows = tuple({"first": a, "second": b,
                  "stability_first": r.estimates[0].statistic,
                  "stability_second": r.estimates[1].statistic,
                  "difference": r.difference, "statistic": r.statistic,
                  "pvalue": r.pvalue, key: float(q), "test": r.test}
                 for (a, b, r), q in zip(results, adjusted))
    return PairwiseTestTable(rows, bool(paired), alternative,
                             results[0][2].estimates[0].measure, correction)


# ------------------------------------------------------------------ how many runs are enough

def _as_estimate(Z, measure, method, options) -> StabilityEstimate:
    """``Z`` itself when it is a :class:`StabilityEstimate` (then ``measure``,
    ``method`` and options must be left at their defaults), else ``estimate(Z)``."""
    if isinstance(Z, StabilityEstimate):
        if options or measure != "nogueira" or method != "auto":
            given = sorted(options) + [n for n, v, default in (
                ("measure", measure, "nogueira"), ("method", method, "auto")) if v != default]
            raise ValueError(f"{given[0]}: applies to a selection matrix; got a "
                             f"StabilityEstimate, which already has its measure and method")
        return Z
    return estimate(Z, measure, method=method, **options)


def _runs_constant(est: StabilityEstimate) -> float:
    """c in v(M) = c / M, from the estimate's own variance: c = M v."""
    return est.n_runs * est.variance


def halfwidth_curve(Z, /, n_runs, confidence_level: float = 0.95, *,
                    measure: str = "nogueira", method: str = "auto",
                    **options) -> np.ndarray:
    r"""The Wald interval's half-width predicted for other numbers of runs.

    Parameters
    ----------
    Z : StabilityEstimate or selection matrix
        An estimate (from :func:`estimate`), or the runs (M x d) to estimate from.
    n_runs : int or sequence of int, each >= 2
        The numbers of runs m to predict the half-width for.
    confidence_level : float in (0, 1), default 0.95
    measure, method, **options
        As for :func:`estimate`, when ``Z`` is a selection matrix.

    Returns
    -------
    ndarray of float
        The half-widths, one per m (NaN where the variance is undefined).

    Raises
    ------
    ValueError, TypeError
        Invalid arguments; ``measure``, ``method`` or options with a StabilityEstimate.

    See Also
    --------
    runs_needed : The smallest m with a half-width at most a target.
    propstab.plots.plot_halfwidth : The estimate and its band against M.

    Notes
    -----
    Both the Thm 6 variance and the jackknife variance of an estimate from m
    independent runs shrink like :math:`c/m` (thesis Thm 6: :math:`\hat\Phi` is
    asymptotically normal with variance of order 1/m); c is estimated from the current
    M runs as :math:`\hat c = M\,v`, so that

    .. math:: h(m) = z_{1-\alpha/2}\sqrt{\hat c / m}
              = h(M)\sqrt{M/m}.

    The prediction keeps the current estimate of c: it is as good as that estimate
    (itself from M runs), and it ignores the clipping to the measure's range.

    References
    ----------
    Nogueira (2018), thesis Thm 6 and Cor. 1.

    Examples
    --------
    >>> from propstab import estimate
    >>> from propstab.inference import halfwidth_curve
    >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]] * 5
    >>> est = estimate(Z)
    >>> [round(float(h), 4) for h in halfwidth_curve(est, [20, 80, 320])]
    [0.1898, 0.0949, 0.0474]
    >>> low, high = est.confidence_interval(method="wald")   # at M = 20: the same
    >>> round((high - low) / 2, 4)
    0.1898
    """
    est = _as_estimate(Z, measure, method, options)
    level = check_confidence_level(confidence_level)
    scalar = not isinstance(n_runs, (Sequence, np.ndarray)) or isinstance(n_runs, (str, bytes))
    values = [n_runs] if scalar else list(np.asarray(n_runs, dtype=object).ravel())
    if not values:
        raise ValueError("n_runs: must hold at least one number of runs; got an empty "
                         "sequence")
    m = np.array([check_int_range("n_runs", v, minimum=2) for v in values], dtype=np.float64)
    z = float(stats.norm.ppf(0.5 + level / 2))
    c = _runs_constant(est)
    with np.errstate(invalid="ignore"):
        return z * np.sqrt(c / m) if c >= 0 else np.full(m.shape, np.nan)


def runs_needed(Z, /, halfwidth: float, confidence_level: float = 0.95, *,
                measure: str = "nogueira", method: str = "auto", **options):
    r"""How many runs bring the Wald interval's half-width down to ``halfwidth``.

    Parameters
    ----------
    Z : StabilityEstimate or selection matrix
        An estimate (from :func:`estimate`), or the runs (M x d) to estimate from.
    halfwidth : float > 0
        The target half-width of the ``confidence_level`` interval.
    confidence_level : float in (0, 1), default 0.95
    measure, method, **options
        As for :func:`estimate`, when ``Z`` is a selection matrix.

    Returns
    -------
    int or float
        The smallest m >= 2 with predicted half-width at most ``halfwidth`` (it may be
        below the current M: fewer runs would have done); NaN (with
        UndefinedMeasureWarning) when the variance is undefined.

    Raises
    ------
    ValueError, TypeError
        Invalid arguments; ``measure``, ``method`` or options with a StabilityEstimate.

    Warns
    -----
    ZeroVarianceWarning
        When the variance is 0 (every run the same): no number of runs can be planned
        from it, and the current M is returned.
    UndefinedMeasureWarning
        When the variance is undefined.

    See Also
    --------
    halfwidth_curve

    Notes
    -----
    With :math:`\hat c = M v` (see :func:`halfwidth_curve`),

    .. math:: m = \Big\lceil \frac{z_{1-\alpha/2}^2\,\hat c}{h^2} \Big\rceil.

    Runs are cheap to add in steps: plan with this, run, and ask again, since
    :math:`\hat c` is re-estimated from more runs each time.

    References
    ----------
    Nogueira (2018), thesis Thm 6 and Cor. 1.

    Examples
    --------
    >>> from propstab import estimate
    >>> from propstab.inference import runs_needed
    >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]] * 5
    >>> runs_needed(estimate(Z), 0.05)        # 1.96^2 x (20 x 0.009375) / 0.05^2 = 288.1
    289
    >>> runs_needed(Z, 0.1, confidence_level=0.9)
    51
    """
    est = _as_estimate(Z, measure, method, options)
    h = check_real_range("halfwidth", halfwidth, low=0.0, low_open=True)
    level = check_confidence_level(confidence_level)
    c = _runs_constant(est)
    if math.isnan(c) or c < 0:
        return undefined(f"runs_needed for {est.measure}", "its variance is undefined")
    if c == 0:
        _warn_zero(f"the {est.method} variance of {est.measure} is 0, so no number of runs "
                   f"can be planned from it; returning the current M = {est.n_runs}")
        return est.n_runs
    z = float(stats.norm.ppf(0.5 + level / 2))
    ratio = z * z * c / (h * h)
    m = math.ceil(ratio - 1e-9 * ratio)          # an exact integer ratio stays itself
    return max(2, int(m))


def _nested_prefixes(est: StabilityEstimate, start: int, step: int, level: float,
                     ci_method: str):
    """The estimate and its interval on the first m runs, m = start, start + step, ...,
    M (the last always included): rows ``(m, statistic, low, high)``."""
    sel = est.selection
    if sel is None:
        raise ValueError("Z: this StabilityEstimate does not hold its runs (selection is "
                         "None); pass the selection matrix")
    M = est.n_runs
    ms = list(range(start, M + 1, step))
    if ms[-1] != M:
        ms.append(M)
    Zm = sel.stored()
    rows = []
    kind = get_measure(est.measure).input
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroVarianceWarning)
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        for m in ms:                              # one estimate per prefix, not per pair
            prefix = _prefix(sel, Zm, m, kind)
            options = {name: (_variance._take_rows(value, np.arange(m))
                              if name in _variance.PER_RUN_OPTIONS and value is not None
                              else value) for name, value in (est.options or {}).items()}
            e = estimate(prefix, est.measure, method=(
                est.method if est.method in VARIANCE_METHODS else "auto"), **options)
            low, high = e.confidence_interval(level, method=ci_method)
            rows.append((m, e.statistic, low, high))
    return np.array(rows, dtype=np.float64)


def _prefix(sel, Zm, m, kind):
    if kind == "selection":
        return as_input(kind, Zm[:m], n_features=sel.n_features,
                        feature_names=getattr(sel, "feature_names", None))
    return Zm[:m]
