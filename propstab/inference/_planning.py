"""Run planning: the half-width against M (halfwidth_curve) and the runs a half-width needs
(runs_needed).

Part of :mod:`propstab.inference` (public names are imported from there).
"""
from __future__ import annotations

import math
import warnings
from typing import Sequence
import numpy as np
from scipy import stats
from .._utils.checks import fail
from ..measures._variance import PER_RUN_OPTIONS, take_rows
from .._utils.exceptions import UndefinedMeasureWarning, undefined
from ..registry._registry import get_measure
from .._data.convert_rankings import as_input
from .._utils.checks import check_confidence_level, check_int_range, check_real_range
from ._warnings import VARIANCE_METHODS, ZeroVarianceWarning, warn_zero
from ._estimates import StabilityEstimate, estimate


def as_estimate(Z, measure, method, options) -> StabilityEstimate:
    """``Z`` itself when it is a :class:`StabilityEstimate` (then ``measure``,
    ``method`` and options must be left at their defaults), else ``estimate(Z)``."""
    if isinstance(Z, StabilityEstimate):
        if options or measure != "nogueira" or method != "auto":
            given = sorted(options) + [
                n
                for n, v, default in (("measure", measure, "nogueira"), ("method", method, "auto"))
                if v != default
            ]
            fail(
                f"{given[0]}: applies to a selection matrix; got a "
                f"StabilityEstimate, which already has its measure and method"
            )
        return Z
    return estimate(Z, measure, method=method, **options)


def _runs_constant(est: StabilityEstimate) -> float:
    """c in v(M) = c / M, from the estimate's own variance: c = M v."""
    return est.n_runs * est.variance


def halfwidth_curve(
    Z,
    /,
    n_runs,
    confidence_level: float = 0.95,
    *,
    measure: str = "nogueira",
    method: str = "auto",
    **options,
) -> np.ndarray:
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
    >>> import warnings
    >>> from propstab import estimate
    >>> from propstab.inference import halfwidth_curve
    >>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]] * 5
    >>> est = estimate(Z)
    >>> [round(float(h), 4) for h in halfwidth_curve(est, [20, 80, 320])]
    [0.1898, 0.0949, 0.0474]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     low, high = est.confidence_interval(method="wald")   # at M = 20: the same
    >>> round((high - low) / 2, 4)
    0.1898
    >>> print(caught[0].message)                      # the Wald interval at M = 20
    M = 20-29 runs: the 95 % Wald interval covered 87.3-94.0 % at M = 20 in the small-M study;
    method='auto' holds its level here
    """
    est = as_estimate(Z, measure, method, options)
    level = check_confidence_level(confidence_level)
    scalar = not isinstance(n_runs, (Sequence, np.ndarray)) or isinstance(n_runs, (str, bytes))
    values = [n_runs] if scalar else list(np.asarray(n_runs, dtype=object).ravel())
    if not values:
        fail("n_runs: must hold at least one number of runs; got an empty " "sequence")
    m = np.array([check_int_range("n_runs", v, minimum=2) for v in values], dtype=np.float64)
    z = float(stats.norm.ppf(0.5 + level / 2))
    c = _runs_constant(est)
    with np.errstate(invalid="ignore"):
        return z * np.sqrt(c / m) if c >= 0 else np.full(m.shape, np.nan)


def runs_needed(
    Z,
    /,
    halfwidth: float,
    confidence_level: float = 0.95,
    *,
    measure: str = "nogueira",
    method: str = "auto",
    **options,
):
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
    est = as_estimate(Z, measure, method, options)
    h = check_real_range("halfwidth", halfwidth, low=0.0, low_open=True)
    level = check_confidence_level(confidence_level)
    c = _runs_constant(est)
    if math.isnan(c) or c < 0:
        return undefined(f"runs_needed for {est.measure}", "its variance is undefined")
    if c == 0:
        warn_zero(
            f"the {est.method} variance of {est.measure} is 0, so no number of runs "
            f"can be planned from it; returning the current M = {est.n_runs}"
        )
        return est.n_runs
    z = float(stats.norm.ppf(0.5 + level / 2))
    ratio = z * z * c / (h * h)
    m = math.ceil(ratio - 1e-9 * ratio)  # an exact integer ratio stays itself
    return max(2, int(m))


def nested_prefixes(est: StabilityEstimate, start: int, step: int, level: float, ci_method: str):
    """The estimate and its interval on the first m runs, m = start, start + step, ...,
    M (the last always included): rows ``(m, statistic, low, high)``."""
    sel = est.selection
    if sel is None:
        fail(
            "Z: this StabilityEstimate does not hold its runs (selection is "
            "None); pass the selection matrix"
        )
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
        for m in ms:  # one estimate per prefix, not per pair
            prefix = _prefix(sel, Zm, m, kind)
            options = {
                name: (
                    take_rows(value, np.arange(m))
                    if name in PER_RUN_OPTIONS and value is not None
                    else value
                )
                for name, value in (est.options or {}).items()
            }
            e = estimate(
                prefix,
                est.measure,
                method=(est.method if est.method in VARIANCE_METHODS else "auto"),
                **options,
            )
            low, high = e.confidence_interval(level, method=ci_method)
            rows.append((m, e.statistic, low, high))
    return np.array(rows, dtype=np.float64)


def _prefix(sel, Zm, m, kind):
    if kind == "selection":
        return as_input(
            kind,
            Zm[:m],
            n_features=sel.n_features,
            feature_names=getattr(sel, "feature_names", None),
        )
    return Zm[:m]
