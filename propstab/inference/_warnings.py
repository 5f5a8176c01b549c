"""The warnings of inference, the constants its modules share, and the small-M study's
numbers that the warnings quote.

Part of :mod:`propstab.inference` (public names are imported from there).
"""
from __future__ import annotations

from typing import Optional, Tuple
from ..chance import nogueira_expectation
from .._utils.exceptions import PropstabWarning, warn
from ..registry._registry import get_measure
from .._utils.site import page_url
from .._utils.checks import check_row_sizes

# the site's pages that the warnings send the reader to (public URLs, not repository paths)
_SMALL_M_PAGE = page_url("inference_validation", "small-m")
_VARYING_SIZES_PAGE = page_url("varying_sizes")

THESIS = (
    "Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis, "
    "University of Manchester, sec. 5.2"
)


ALTERNATIVES = ("two-sided", "greater", "less")


#: The intervals of :meth:`StabilityEstimate.confidence_interval` and their labels.
CI_METHODS = {
    "auto": "by M, the small-M study's closest",
    "wald": "Wald, thesis Cor. 1",
    "logit": "logit-transformed Wald",
    "bootstrap": "bootstrap percentile",
    "bca": "bootstrap BCa",
}


VARIANCE_METHODS = ("auto", "analytic", "jackknife")


#: The tests of :func:`one_sample_test` (argument ``test``): ``"auto"`` inverts the
#: default interval (``auto_interval``).
ONE_SAMPLE_TESTS = ("auto", "wald", "logit")


#: The tests of :func:`two_sample_test` (argument ``test``).
TEST_METHODS = ("auto", "permutation", "wald")


#: ``test="auto"`` runs the permutation test when a sample has fewer runs than this, the
#: Wald test (thesis Thm 7) otherwise: below M = 100 the Wald test rejects
#: more often than its nominal level, the permutation test never does
#: (docs/inference_validation.md, "Small M").
PERMUTATION_BELOW = 100


#: Below this many runs ``test="auto"`` rejects only where the studentized permutation
#: test and the N(0, 1) test of the same studentized statistic both reject (the larger
#: p-value). In the small-M study's designs of equal stability (one population drawn
#: twice; relabelled probabilities; different sizes) at M = 10 and 30, 200 repeats per
#: cell, the permutation test alone reached 9.0 % (independent runs, relabelled and
#: different sizes, M = 10) and the N(0, 1) test alone 10.0 % (paired, same
#: population, M = 30); together they stayed at 2.0-8.0 %, within 5 % + 3 SE (9.62 %)
#: in every cell (studies/small_m_equal_stability.json).
COMBINED_BELOW = 100


class ZeroVarianceWarning(PropstabWarning, RuntimeWarning):
    """The estimated variance is zero because every run is the same.

    Identical runs are the one case where a variance estimate of exactly 0 is kept: a
    confidence interval then collapses to the point estimate, and a test statistic
    (difference / 0) is taken as +inf or -inf by the sign of the difference, or 0 when
    the difference is 0 too; p-values follow from these values. The warning gives what
    identical runs do support: with confidence level 1 - alpha, a run differs from
    them with probability at most :math:`1 - \\alpha^{1/M}` (exact binomial bound). A zero or
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

    Thesis Thm 6's variance (a delta method) is 0 wherever :math:`\\hat\\Phi` is
    stationary in the runs' weights, e.g. for two different feature sets each selected
    by half of the runs, although :math:`\\hat\\Phi` does vary from sample to sample; the
    jackknife is 0, or
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


class SmallSampleWarning(PropstabWarning, UserWarning):
    """Too few runs for the method that ran to hold its level, as measured.

    Emitted by :func:`one_sample_test`, :meth:`StabilityEstimate.confidence_interval`
    and :func:`two_sample_test` only when the small-M validation study measured the
    method that ran, at the studied M nearest below M, to miss its nominal level by more
    than the study's tolerance (3 binomial standard errors): the 95 % interval's lowest
    coverage below 95 % minus it, or the 5 % test's highest level above 5 % plus it. The
    message (one line, under 200 characters) gives the measured level and what to do (the
    default method, or the number of runs from which the study saw the level held). It
    names the studied range of M rather than M, so Python's default filter shows it once
    per call site. Printed summaries do not warn. The default interval (logit, jackknife
    variance) warns below 20 runs only (92.0-95.0 % at M = 10).

    See Also
    --------
    propstab.two_sample_test : Its default holds its level in the small-M study.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 6 and Cor. 1 (asymptotic in M); the small-M study
    (documentation: "Inference validation", "Small M").

    Examples
    --------
    >>> import warnings
    >>> from propstab import estimate
    >>> est = estimate([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]] * 3)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     low, high = est.confidence_interval()
    >>> caught[0].category.__name__, "M = 10-19 runs" in str(caught[0].message)
    ('SmallSampleWarning', True)
    """


class VaryingSizesWarning(PropstabWarning, UserWarning):
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
        The row sizes :math:`k_i`, the number of features selected in each run (None: no
        note).
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
    subset sizes vary: nogueira's expectation under chance is -0.1667, not 0; measure='conger' is
    corrected for chance exactly (https://propstab.readthedocs.io/en/latest/varying_sizes.html)
    """
    if get_measure(measure).name != "nogueira" or subset_sizes is None:
        return None
    sizes, d = check_row_sizes(subset_sizes, n_features, name="subset_sizes")
    if sizes.size < 2 or sizes.sum() in (0, sizes.size * d):
        return None
    bias = nogueira_expectation(sizes, d)
    if not bias < -SIZE_BIAS_LIMIT:
        return None
    return (
        f"subset sizes vary: nogueira's expectation under chance is {bias:.4f}, not 0; "
        f"measure='conger' is corrected for chance exactly ({_VARYING_SIZES_PAGE})"
    )


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
    "wald (jackknife)": {10: (87.8, 92.9), 20: (91.4, 93.4), 30: (93.5, 94.3), 50: (93.7, 94.3)},
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
    "wald": "Wald interval",
    "wald (jackknife)": "Wald interval with the jackknife variance",
    "logit": "logit interval",
    "logit (jackknife)": "logit interval with the jackknife variance",
    "bootstrap": "percentile bootstrap interval",
    "bca": "BCa bootstrap interval",
}


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
    The small-M study: docs/inference_validation.md, "Small M".

    Examples
    --------
    >>> auto_interval(10), auto_interval(100)
    (('logit', True), ('wald', False))
    """
    return ("logit", True) if n_runs < SMALL_M_BELOW else ("wald", False)


#: How far the small-M study's measured level may miss the nominal one before
#: :class:`SmallSampleWarning` warns: 3 binomial standard errors of the study's cells, in
#: percentage points (a 95 % coverage or a 5 % level, 600 repeats for ``"wald"``, 1000
#: for the others; the tests' levels below come from the same tolerance).
SMALL_M_REPEATS = {
    "wald": 600,
    "wald (jackknife)": 1000,
    "logit": 1000,
    "logit (jackknife)": 1000,
    "bootstrap": 1000,
    "bca": 1000,
}


def small_m_tolerance(repeats: int) -> float:
    """3 binomial standard errors (percentage points) of a 5 % rate over ``repeats``.

    >>> round(small_m_tolerance(1000), 2), round(small_m_tolerance(600), 2)
    (2.07, 2.67)
    """
    return 300.0 * (0.05 * 0.95 / repeats) ** 0.5


def _studied(table, n_runs):
    """The largest studied M not above ``n_runs`` (the smallest for fewer runs)."""
    return ([m for m in sorted(table) if m <= n_runs] or [min(table)])[-1]


def small_sample_note(
    n_runs: int, *, short: bool = False, method: str = "auto", alternative: Optional[str] = None
) -> Optional[str]:
    """The :class:`SmallSampleWarning` message for M = ``n_runs`` runs, or None when the
    method that ran holds its level there: the small-M study's lowest coverage of the
    95 % interval that ran (``method``, a key of ``SMALL_M_COVERAGE``, or ``"auto"``:
    the one ``auto_interval`` picks) at the largest studied M not above ``n_runs`` (the
    smallest for fewer runs) is more than the study's tolerance (3 binomial SE,
    :func:`small_m_tolerance`) below 95 %; for ``alternative="greater"`` the one-sided
    5 % test's highest level more than that above 5 % (where the study measured it).

    Parameters
    ----------
    n_runs : int
        M.
    short : bool, default False
        Kept for the command line's ``note`` (the message is one short line either way).
    method : str, default "auto"
        The interval that ran: ``"auto"`` or a key of ``SMALL_M_COVERAGE``.
    alternative : str or None, default None
        A one-sample test's alternative: ``"greater"`` judges the one-sided level.

    Returns
    -------
    str or None
        Under 200 characters: the measured level and what to do.

    Raises
    ------
    None
        ``n_runs`` is an estimate's M, already validated.

    See Also
    --------
    SmallSampleWarning

    References
    ----------
    The small-M study (documentation: "Inference validation", "Small M").

    Examples
    --------
    >>> small_sample_note(100) is None
    True
    >>> small_sample_note(30) is None              # the default holds its level at M = 30
    True
    >>> print(small_sample_note(12))
    M = 10-19 runs: the 95 % logit interval (jackknife variance) covered 92.0-95.0 % at M = 10 in
    the small-M study; for 95 % use 20 or more runs
    >>> print(small_sample_note(30, method="wald"))
    M = 30-49 runs: the 95 % Wald interval covered 90.2-94.0 % at M = 30 in the small-M study;
    method='auto' holds its level here
    """
    if n_runs >= SMALL_M_BELOW or not SMALL_M_STUDY:
        return None
    if method == "auto":
        method = "logit (jackknife)" if auto_interval(n_runs)[1] else "wald"
    tol = small_m_tolerance(SMALL_M_REPEATS[method])
    table = SMALL_M_COVERAGE[method]
    m = _studied(table, n_runs)
    low, high = table[m]
    greater = alternative == "greater" and method in SMALL_M_GREATER
    if greater:
        g_low, g_high = SMALL_M_GREATER[method][m]
        if g_high <= 5 + tol:
            return None
        measured = (
            f"the one-sided 5 % {INTERVAL_LABELS[method].replace(' interval', '')} "
            f"test rejected a true value {g_low:.1f}-{g_high:.1f} %"
        )
        holds = {M for M, (a, b) in SMALL_M_GREATER[method].items() if b <= 5 + tol}
    else:
        if low >= 95 - tol:
            return None
        measured = f"the 95 % {INTERVAL_LABELS[method]} covered {low:.1f}-{high:.1f} %"
        holds = {M for M, (a, b) in table.items() if a >= 95 - tol}
    default = "logit (jackknife)"
    d_low = SMALL_M_COVERAGE[default][m][0]
    if method != default and d_low >= 95 - 2.07 and not greater:
        advice = "method='auto' holds its level here"
    else:
        larger = sorted(M for M in holds if M > m)
        advice = (
            f"for {'5 %' if greater else '95 %'} use {larger[0]} or more runs"
            if larger
            else f"for {'5 %' if greater else '95 %'} use {SMALL_M_BELOW} or more runs"
        )
    studied = sorted(table) + [SMALL_M_BELOW]
    if n_runs < studied[0]:
        runs = f"M < {studied[0]}"
    else:
        runs = f"M = {m}-{studied[studied.index(m) + 1] - 1}"
    # the text names the studied range, not M itself: Python's default filter then shows
    # it once per call site
    text = f"{runs} runs: {measured} at M = {m} in the small-M study; {advice}"
    return text.replace("with the jackknife variance", "(jackknife variance)")


def warn_small_sample(
    n_runs: int, method: str = "auto", alternative: Optional[str] = None
) -> None:
    note = small_sample_note(n_runs, method=method, alternative=alternative)
    if note is not None:
        warn(note, SmallSampleWarning)


def warn_zero(what: str) -> None:
    warn(f"{what}; the interval or test is degenerate", ZeroVarianceWarning)
