"""The confidence interval's type and the one Wald interval of :mod:`propstab.inference`
(of an estimate, a sampled-pairs estimate and the tests' differences).

Part of :mod:`propstab.inference` (public names are imported from there).
"""
from __future__ import annotations

import math
from typing import NamedTuple, Tuple

from scipy import special

from ._intervals import clip
from ._warnings import warn_zero


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
    >>> import warnings
    >>> from propstab import estimate
    >>> est = estimate([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]])
    >>> with warnings.catch_warnings(record=True) as caught:   # M = 4: small-M warnings
    ...     warnings.simplefilter("always")
    ...     low, high = est.confidence_interval(0.95)    # M < 100: logit, jackknife variance
    ...     wald = est.confidence_interval(0.95, method="wald")     # thesis Cor. 1
    >>> round(low, 4), round(high, 4)
    (-0.6395, 0.9523)
    >>> round(wald.low, 4), round(wald.high, 4)
    (0.0757, 0.9243)
    >>> [w.category.__name__ for w in caught]
    ['SmallSampleWarning', 'SmallSampleWarning']
    """

    low: float
    high: float


def wald_interval(
    center: float,
    variance: float,
    level: float,
    alternative: str,
    what: str,
    bounds: Tuple[float, float] = (-math.inf, math.inf),
) -> ConfidenceInterval:
    """The Wald interval of level ``level`` around ``center`` with variance ``variance``,
    one-sided for ``alternative="greater"`` (``[low, hi]``) or ``"less"``
    (``[lo, high]``), clipped to ``bounds = (lo, hi)``: the set of null values in the
    range that the matching z-test does not reject.

    The one place where a Wald interval is computed (thesis Cor. 1; for a difference,
    the normal limit in the proof of Thm 7).
    """
    if variance == 0:
        warn_zero(f"{what} is 0")
    se = math.sqrt(variance) if variance >= 0 else float("nan")
    if math.isnan(center) or math.isnan(se):
        return ConfidenceInterval(float("nan"), float("nan"))
    if alternative == "two-sided":
        half = float(special.ndtri(0.5 + level / 2)) * se
        low, high = center - half, center + half
    else:
        half = float(special.ndtri(level)) * se
        low, high = (
            (center - half, math.inf) if alternative == "greater" else (-math.inf, center + half)
        )
    return ConfidenceInterval(*clip(float(low), float(high), *bounds))
