"""The stability estimate: StabilityEstimate and its intervals, estimate(), the Wald
interval, population_stability.

Part of :mod:`propstab.inference` (public names are imported from there).
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any, Dict, List, Mapping, Optional, Tuple
import numpy as np
from scipy import special
from ._intervals import (
    bca_interval,
    bootstrap_replicates,
    clip,
    degenerate_fallback,
    measure_range,
    percentile_interval,
    transformed_wald,
)
from ..measures._variance import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    identical_runs,
    leave_one_out,
    spread,
)
from .._utils.exceptions import UndefinedMeasureWarning, undefined, warn
from ..measures._stability import MEASURE_NAME
from .._utils.params import N_FEATURES, Options, validate_params
from ..registry._registry import get_measure, list_measures, lookup
from .._utils.results import Result
from .._utils.text import Summary, interval, level_label, number, size_text, summary
from .._data.convert_rankings import as_input
from .._utils.checks import (
    check_choice,
    fail,
    check_confidence_level,
    check_int_range,
    check_probabilities,
    check_random_state,
)
from ..measures._sampled_pairs import PAIRS, sampled_pairs_of
from ..measures.references import TABLE_6_1
from ._sampled import sampled_estimate
from ._wald import ConfidenceInterval, wald_interval
from ._warnings import (
    CI_METHODS,
    DegenerateVarianceWarning,
    SMALL_M_BELOW,
    SmallSampleWarning,
    VARIANCE_METHODS,
    ZeroVarianceWarning,
    auto_interval,
    varying_sizes_note,
    warn_small_sample,
    warn_zero,
)


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
class StabilityEstimate(Result):
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
        Per-run terms :math:`u_i` with
        :math:`v = \\mathrm{factor} \\cdot \\sum_i (u_i - \\bar u)^2`: the
        thesis's :math:`\\hat\\Phi_{(i)}` (factor :math:`4/M^2`) or the leave-one-out values
        (factor :math:`(M-1)/M`);
        NaN for the bootstrap variance. Used by the paired test.
    factor : float
    subset_sizes : ndarray or None
        The row sizes :math:`k_i`, the number of features selected in each run (None
        when not recorded).
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
    estimand         Phi of the process that made these runs (resampled data: given that data set)
    estimate         0.5000 (intermediate to good, thesis Table 6.1)
    standard error   0.5000 (delete-one-run jackknife, the interval's; analytic: thesis Thm 6:
    0.2165)
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
    subset_sizes: Optional[np.ndarray] = dataclasses.field(default=None, repr=False, compare=False)
    selection: Any = dataclasses.field(default=None, repr=False, compare=False)
    options: Optional[Mapping[str, Any]] = dataclasses.field(
        default=None, repr=False, compare=False
    )
    variance_note: Optional[str] = dataclasses.field(default=None, repr=False, compare=False)

    def _repr_values(self) -> Dict[str, Any]:
        return {
            "measure": self.measure,
            "statistic": self.statistic,
            "standard_error": self.standard_error,
            "n_runs": self.n_runs,
            "n_features": self.n_features,
            "method": self.method,
        }

    def _records(self) -> List[Mapping[str, Any]]:
        low, high = quietly(self.confidence_interval, 0.95)
        return [{**self._repr_values(), "ci_low": low, "ci_high": high}]

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
        rows = self.summary_rows(confidence_level)
        rows.insert(1, ("estimand", ESTIMAND))
        return summary("Stability estimate", rows)

    def summary_rows(self, confidence_level: float = 0.95) -> List[Tuple[str, str]]:
        """The rows of :meth:`summary` as ``(label, text)`` pairs (an assessment's summary
        shows them too).

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95

        Returns
        -------
        list of (str, str)
        """
        confidence_level = check_confidence_level(confidence_level)
        low, high = quietly(self.confidence_interval, confidence_level)
        ran = self.interval_method()
        label = self.interpretation
        value = number(self.statistic, fixed=True)
        rows = [
            ("measure", self.measure),
            ("estimate", value if label is None else f"{value} ({label}, thesis Table 6.1)"),
            ("standard error", self.standard_error_text()),
            (level_label(confidence_level), f"{interval(low, high)} ({ran})"),
            ("runs x features", f"{self.n_runs} x {self.n_features}"),
        ]
        if self.subset_sizes is not None and len(self.subset_sizes):
            rows.append(("subset size", size_text(self.subset_sizes)))
        if self.note is not None:
            rows.append(("note", self.note))
        return rows

    def standard_error_text(self) -> str:
        """The summary's standard error: the one the default interval is built from,
        labelled (below 100 runs the jackknife's, with the estimate's own beside it where
        that differs), so that the SE shown belongs to the interval shown.

        Returns
        -------
        str
            ``"<SE> (<label>)"``, the pair of :meth:`interval_standard_error`.
        """
        value, label = self.interval_standard_error()
        return f"{number(value, fixed=True)} ({label})"

    def interval_standard_error(self) -> Tuple[float, str]:
        """The standard error the default interval (``confidence_interval()``) is built
        from, and its label: below 100 runs the delete-one-run jackknife's where it
        differs from the estimate's own (the label then gives the own one too), else
        :attr:`standard_error` labelled by its source. Python's, the command line's and
        R's summaries print this pair.

        Returns
        -------
        (float, str)

        Examples
        --------
        >>> from propstab import estimate
        >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
        >>> value, label = estimate(Z).interval_standard_error()
        >>> round(value, 4), label
        (0.5, "delete-one-run jackknife, the interval's; analytic: thesis Thm 6: 0.2165")
        """
        own = variance_label(self)
        if auto_interval(self.n_runs)[1] and self._jackknife_applies():
            return (
                math.sqrt(self.jackknife_variance()),
                f"delete-one-run jackknife, the interval's; "
                f"{own}: {number(self.standard_error, fixed=True)}",
            )
        return self.standard_error, own

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
        return measure_range(
            get_measure(self.measure), self.n_runs, self.n_features, self.subset_sizes
        )

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
        if (
            self.method != "analytic"
            or sel is None
            or self.n_runs < 3
            or math.isnan(self.statistic)
        ):
            return self.variance
        info = get_measure(self.measure)
        terms = leave_one_out(sel, info, dict(self.options or {}))
        if (
            np.isnan(terms).any()
            or degenerate_fallback(sel, info, dict(self.options or {}), "jackknife", terms)
            is not None
        ):
            return self.variance
        return float(spread(terms, (self.n_runs - 1) / self.n_runs))

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
        variance = (
            "jackknife" if self.method == "jackknife" or self._jackknife_applies() else self.method
        )
        return f"{name}, {variance} variance; M < {SMALL_M_BELOW}"

    def _jackknife_applies(self) -> bool:
        return (
            self.method == "analytic"
            and self.selection is not None
            and self.n_runs >= 3
            and self.jackknife_variance() != self.variance
        )

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        method: str = "auto",
        n_resamples: int = 2000,
        random_state=0,
    ) -> ConfidenceInterval:
        r"""An approximate confidence interval for the population stability, within the
        measure's range.

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95
        method : {"auto", "wald", "logit", "bootstrap", "bca"}, default "auto"
            ``"auto"``: the small-M study's closest to the nominal coverage at this M
            (``propstab.inference.auto_interval``): below ``SMALL_M_BELOW`` (100)
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
        warning gives. docs/inference_intervals.md and
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
        >>> with warnings.catch_warnings(record=True) as caught:   # M = 30: small-M warnings
        ...     warnings.simplefilter("always")
        ...     wald = est.confidence_interval(method="wald")
        ...     logit = est.confidence_interval(method="logit")
        ...     bca = est.confidence_interval(method="bca")
        >>> [round(x, 4) for x in wald]   # clipped at 1
        [0.7201, 1.0]
        >>> [round(x, 4) for x in logit]
        [0.482, 0.9843]
        >>> [round(x, 4) for x in bca]
        [0.569, 1.0]
        >>> [w.category.__name__ for w in caught]
        ['SmallSampleWarning', 'SmallSampleWarning', 'SmallSampleWarning']
        >>> print(caught[0].message)
        M = 30-49 runs: the 95 % Wald interval covered 90.2-94.0 % at M = 30 in the small-M
        study; method='auto' holds its level here
        >>> est.range
        (-1.0, 1.0)
        """
        level = check_confidence_level(confidence_level)
        method = check_choice("method", method, tuple(CI_METHODS))
        B = check_int_range("n_resamples", n_resamples, minimum=100, maximum=10**6)
        seed = check_random_state("random_state", random_state)
        variance, kind = self.variance, self.method
        asked_auto = method == "auto"
        if asked_auto:
            method, jackknife = auto_interval(self.n_runs)
            if jackknife and self._jackknife_applies():
                variance, kind = self.jackknife_variance(), "jackknife"
        interval = self._confidence_interval(level, method, B, seed, variance, kind)
        key = (
            method
            if method in ("bootstrap", "bca")
            else (f"{method} (jackknife)" if kind == "jackknife" else method)
        )
        undefined = math.isnan(interval[0]) and math.isnan(interval[1])
        # after any ZeroVarianceWarning; none for an undefined interval (its own warning
        # says why) and, when "auto" fell back to another method, no advice to use "auto"
        warn_small_sample(self.n_runs, key, asked_auto=asked_auto, undefined=undefined)
        return interval

    def _confidence_interval(self, level, method, B, seed, variance, kind):
        lo, hi = self.range
        what = f"the {kind} variance of {self.measure}"
        if variance == 0 and self.selection is not None:
            what += _identical_runs_note(self.selection, level, self.options)
        if method == "wald":
            return wald_interval(self.statistic, variance, level, "two-sided", what, (lo, hi))
        if method == "logit":
            if variance == 0 or not variance > 0 or math.isnan(self.statistic):
                return wald_interval(self.statistic, variance, level, "two-sided", what, (lo, hi))
            z = float(special.ndtri(0.5 + level / 2))
            low, high = transformed_wald(self.statistic, variance, z, lo, hi)
            return ConfidenceInterval(*clip(low, high, lo, hi))
        return self._bootstrap_interval(method, level, B, seed, (lo, hi))

    def _bootstrap_interval(self, method, level, B, seed, bounds) -> ConfidenceInterval:
        if self.selection is None:
            fail(
                f"method: {method!r} resamples the runs, and this estimate "
                f"does not hold them (selection is None); build it with "
                f"propstab.estimate"
            )
        if math.isnan(self.statistic):
            return ConfidenceInterval(float("nan"), float("nan"))
        info = get_measure(self.measure)
        options = dict(self.options or {})
        reps = bootstrap_replicates(self.selection, info, options, B, np.random.default_rng(seed))
        n_nan = int(np.isnan(reps).sum())
        if n_nan == B:
            nan = undefined(
                f"the bootstrap interval of {self.measure}",
                "the measure is undefined on every resample",
            )
            return ConfidenceInterval(nan, nan)
        if n_nan:
            warn(
                f"{self.measure} is undefined on {n_nan} of {B} bootstrap resamples; the "
                f"interval uses the other {B - n_nan}",
                UndefinedMeasureWarning,
            )
        defined = reps[~np.isnan(reps)]
        if np.all(defined == self.statistic):
            warn_zero(
                f"every bootstrap replicate of {self.measure} equals the estimate"
                + _identical_runs_note(self.selection, level)
            )
            return ConfidenceInterval(float(self.statistic), float(self.statistic))
        if method == "bootstrap":
            low, high = percentile_interval(defined, level)
        else:
            loo = (
                self.terms
                if self.method == "jackknife"
                else leave_one_out(self.selection, info, options)
            )
            low, high = bca_interval(defined, self.statistic, loo, level)
        return ConfidenceInterval(*clip(low, high, *bounds))


def _identical_runs_note(sel, level: float, options=None) -> str:
    """When every run is the same, the exact bound on the share of runs that differ."""
    M = sel.n_runs
    if M < 1 or not identical_runs(sel, options):
        return ""
    bound = 1.0 - (1.0 - level) ** (1.0 / M)
    return (
        f" (all {M} runs are the same: what they support is that, with "
        f"{100 * level:g}% confidence, a run differs from them with probability at "
        f"most {bound:.3g}, exact binomial bound 1 - alpha^(1/M))"
    )


_METHOD_SOURCES = {
    "jackknife": "delete-one-run jackknife",
    "bootstrap": (
        f"bootstrap of the runs ({BOOTSTRAP_RESAMPLES} resamples, " f"seed {BOOTSTRAP_SEED})"
    ),
}


#: What an estimate from a selection matrix alone estimates (an assessment's summary
#: names the resampling scheme and the rows): the interval covers the runs' noise only.
ESTIMAND = "Phi of the process that made these runs (resampled data: given that data set)"


def variance_label(est) -> str:
    """``"analytic: thesis Thm 6"`` or ``"delete-one-run jackknife"``, followed by why
    when a degenerate variance was replaced, e.g. ``"bootstrap of the runs (2000
    resamples, seed 0), as the analytic (thesis Thm 6) variance was 0 although the runs
    differ"``."""
    label = f"analytic: {est.variance_source}" if est.method == "analytic" else est.variance_source
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


@validate_params(
    {
        "measure": MEASURE_NAME,
        "method": Options(*VARIANCE_METHODS),
        "n_features": [N_FEATURES, None],
        "pairs": PAIRS,
    }
)
def estimate(
    Z,
    /,
    measure: str = "nogueira",
    *,
    method: str = "auto",
    n_features=None,
    feature_names=None,
    pairs="auto",
    **options,
) -> StabilityEstimate:
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
        (equal to Thm 6 for a constant size);
        ``"jackknife"``: delete-one-run jackknife, for any measure; ``"auto"``:
        Thm 6 for ``nogueira`` and ``kuncheva``, else the jackknife (also for
        ``conger``, whose jackknife intervals cover better for M < 100,
        docs/inference_validation.md). A variance that is degenerate although the runs
        differ is replaced (see Notes); the result's ``method`` is the one that ran.
    n_features, feature_names : optional
        For index collections.
    pairs : int, "all" or "auto", default "auto"
        For a pairwise measure (a mean over pairs of runs, without
        ``correction_for_chance``): an integer B (at most 10^8) estimates it from B
        ordered pairs drawn uniformly with replacement (seeded by the option
        ``random_state``, default 0) and returns a
        :class:`~propstab.inference.SampledPairsEstimate` with the variance of
        both sources (runs and pairs); ``"all"`` uses every pair; ``"auto"`` samples
        10^5 pairs (with a :class:`~propstab.SampledPairsWarning`) only above 5 x 10^8
        pairs of runs (M > 31,623), else uses every pair.
    **options
        The measure's own options.

    Returns
    -------
    StabilityEstimate or SampledPairsEstimate

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
    and the runs are not all the same, the
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
    >>> import warnings
    >>> from propstab import estimate
    >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
    >>> est = estimate(Z)
    >>> round(est.statistic, 4), round(est.variance, 4), est.method
    (0.5, 0.0469, 'analytic')
    >>> with warnings.catch_warnings(record=True) as caught:   # M = 4: small-M warnings
    ...     warnings.simplefilter("always")
    ...     wald = est.confidence_interval(0.9, method="wald")
    ...     default = est.confidence_interval(0.9)     # M < 100: logit, jackknife variance
    >>> [round(x, 4) for x in wald]
    [0.1439, 0.8561]
    >>> [round(x, 4) for x in default]
    [-0.4985, 0.9283]
    >>> for w in caught:
    ...     print(w.message)
    M < 10 runs: the 95 % Wald interval covered 81.8-94.3 % at M = 10 in the small-M study; for
    95 % use 50 or more runs
    M < 10 runs: the 95 % logit interval (jackknife variance) covered 92.0-95.0 % at M = 10 in
    the small-M study; for 95 % use 20 or more runs
    >>> round(estimate(Z, "jaccard").variance, 4)
    0.1111
    """
    measure = lookup(measure, argument="measure", function="estimate").name
    info = get_measure(measure)
    sel = as_input(
        info.input,
        Z,
        n_features=n_features,
        feature_names=feature_names,
        argument="Z",
        owner=info.name,
    )
    if method == "analytic" and info.analytic_variance is None:
        having = [m.name for m in list_measures() if m.analytic_variance is not None]
        fail(
            f"method: 'analytic' (thesis Thm 6, or the U-statistic variance of a ranking "
            f"measure) applies only to {', '.join(having)}; got measure {info.name!r} "
            f"(use method='jackknife')",
            function="estimate",
        )
    sampled = sampled_pairs_of(
        info.kernel,
        {o: v for o, v in options.items() if o != "random_state"},
        pairs,
        sel.n_runs,
        measure=info.name,
        function="estimate",
    )
    if sampled is not None:
        return sampled_estimate(sel, info, sampled, options.get("random_state", 0))
    statistic = info.function(sel, **options)
    M, d = sel.n_runs, sel.n_features
    if info.analytic_variance is not None and (
        method == "analytic"
        or (method == "auto" and getattr(info.analytic_variance, "default", True))
    ):
        variance, terms, factor = info.analytic_variance(sel, statistic)
        kind = "analytic"
    else:
        kind, factor = "jackknife", (M - 1) / M
        if M < 3:
            terms = np.full(M, np.nan)
        else:
            terms = leave_one_out(sel, info, options)
        if not math.isnan(statistic) and np.isnan(terms).any():
            i = int(np.argmax(np.isnan(terms)))
            why = (
                "it needs at least 3 runs"
                if M < 3
                else f"{info.name} is undefined once run {i} is deleted"
            )
            undefined(f"the jackknife variance of {info.name}", why)
        variance = spread(terms, factor)
    note = None
    if not math.isnan(statistic):
        replaced = degenerate_fallback(sel, info, options, kind, terms)
        if replaced is not None:
            variance, terms, factor, kind, note = replaced
            _warn_degenerate(info.name, kind, variance, note)
    return StabilityEstimate(
        statistic,
        float(variance),
        M,
        d,
        info.name,
        kind,
        terms,
        factor,
        getattr(sel, "row_sizes", None),
        sel,
        dict(options),
        note,
    )


def _warn_degenerate(measure: str, method: str, variance: float, note: str) -> None:
    """The :class:`DegenerateVarianceWarning` of an estimate whose variance was replaced."""
    if math.isnan(variance):
        then = "the variance is NaN (no interval or test)"
    else:
        then = (
            f"the variance is now from the {_METHOD_SOURCES[method]}, standard error "
            f"{math.sqrt(variance):.3g}"
        )
    warn(f"{measure}: {note}; {then}", DegenerateVarianceWarning)


def population_stability(p) -> float:
    """The population stability Phi of independent-run Bernoulli selection probabilities.

    Parameters
    ----------
    p : sequence of float in [0, 1], length d
        :math:`p_f`, the probability that feature f is selected in a run.

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
        When every :math:`p_f` is 0 or every :math:`p_f` is 1 (:math:`\\bar p` is 0 or 1);
        the result is NaN.

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
