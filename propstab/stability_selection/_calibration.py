"""Calibrating stability selection by data: sharp's stability score and Stabl's FDP+.

Stability selection needs a threshold pi on the selection proportions (and a penalty,
or a path of them). :class:`propstab.StabilitySelection` offers three calibrations
(``calibration=``): stabs's fixed cutoff with a PFER bound (``"pfer"``,
:mod:`propstab.error_control`), and the two of this module:

- ``"stability_score"`` (Bodinier et al. 2023, the R package sharp): the penalty and
  pi chosen jointly by the maximal :func:`stability_score`, minus the log-likelihood
  of the numbers of stably selected, unstable and stably excluded features under
  uniform selection;
- ``"fdp"`` (Hedou et al. 2024, the Python package Stabl): artificial features
  (each column permuted) join the data, and the threshold minimises :func:`fdp_plus`,
  the estimate of the false discovery proportion they give.

``choose_by_stability_score`` and ``choose_by_fdp`` make the choice from the
frequencies (both return a :class:`Calibration`, the ``calibration_`` attribute of a
fitted ``StabilitySelection``); :func:`propstab.plots.plot_calibration` draws it.
"""
from __future__ import annotations

import dataclasses
import math
from numbers import Integral, Real
from typing import ClassVar, Optional

import numpy as np

from .._utils.checks import as_real_array, fail, shown
from .._utils.exceptions import InvalidParameterError, UndefinedMeasureWarning, warn
from .._utils.params import Checked, Interval, Options, validate_params
from .._utils.results import Result
from .._utils.text import Summary, number, summary

__all__ = ["Calibration", "SHARP_PI_GRID", "STABL_THRESHOLDS", "fdp_plus", "stability_score"]

#: sharp's default grid of pi for the stability score, ``seq(0.6, 0.9, by = 0.01)``,
#: computed as R computes it (``0.6 + (0:30) * 0.01``), so that ``round(K * pi)``
#: gives the same counts.
SHARP_PI_GRID = 0.6 + np.arange(31) * 0.01
#: Stabl's default grid of thresholds, ``np.arange(0., 1., .01)``.
STABL_THRESHOLDS = np.arange(0.0, 1.0, 0.01)


def _is_boolean(value) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return True
    try:
        return np.asarray(value).dtype == bool
    except (TypeError, ValueError):
        return False


def _real_array(name, value, what, function):
    """:func:`as_real_array` without booleans, its error naming the declaring function."""
    if _is_boolean(value):
        fail(
            f"{name}: must be an array of {what}, not booleans; got {shown(value)}",
            TypeError,
            function=function,
        )
    try:
        return as_real_array(name, value, what)
    except InvalidParameterError as exc:
        fail(exc.args[0], exc.kind, function=function)


def _frequencies(name, value, function=None, *, ndim=(1, 2)):
    arr = _real_array(name, value, "selection proportions in [0, 1]", function)
    if arr.ndim not in ndim or arr.shape[-1] == 0:
        fail(
            f"{name}: must be a non-empty {' or '.join(f'{k}-D' for k in ndim)} array of "
            f"selection proportions; got shape {arr.shape}",
            function=function,
        )
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        i = np.unravel_index(int(np.argmax(bad)), arr.shape)
        fail(
            f"{name}: every entry must be in [0, 1]; got {name}[{', '.join(map(str, i))}] "
            f"= {arr[i]!r}",
            function=function,
        )
    return arr


def check_thresholds(name, value, function=None, *, low=0.0, high=1.0, closed="neither"):
    """A threshold or a 1-D grid of them in the interval (``closed`` as
    :class:`propstab._utils.params.Interval`'s), as a float array."""
    return _grid(name, value, function, low=low, high=high, closed=closed)


def _grid(name, value, function=None, *, low=0.0, high=1.0, closed="neither"):
    arr = _real_array(name, value, "thresholds", function)
    if arr.ndim > 1 or arr.size == 0:
        fail(
            f"{name}: must be a number or a non-empty 1-D sequence of numbers; got shape "
            f"{arr.shape}",
            function=function,
        )
    low_bad = arr <= low if closed in ("neither", "right") else arr < low
    high_bad = arr >= high if closed in ("neither", "left") else arr > high
    bad = ~np.isfinite(arr) | low_bad | high_bad
    if bad.any():
        i = int(np.argmax(bad.ravel()))
        left = "(" if closed in ("neither", "right") else "["
        right = ")" if closed in ("neither", "left") else "]"
        fail(
            f"{name}: every value must be in {left}{low}, {high}{right}; got "
            f"{arr.ravel()[i]!r}",
            function=function,
        )
    return arr


_PI = Checked(
    _grid,
    "a number or 1-D sequence in (0, 1)",
    invalid=(0.0, 1.0, -0.5, [0.7, 1.5], "0.7", [[0.7]], float("nan")),
    like=Interval(Real, 0, 1, closed="neither"),
)
_THRESHOLDS = Checked(
    lambda name, value, function=None: _grid(name, value, function, closed="left"),
    "a number or 1-D sequence in [0, 1)",
    invalid=(1.0, -0.5, [0.5, 2.0], "0.5", [[0.5]], float("nan")),
    like=Interval(Real, 0, 1, closed="left"),
)


def _binomial_logs(q, n_features, K, thr_down, thr_up):
    """log P(X <= thr_down), log P(thr_down < X < thr_up), log P(X >= thr_up) for
    X ~ Binomial(K, q / N), broadcast over q (``(..., 1)``) and the thresholds; finite
    wherever the probability is positive (log space throughout)."""
    p = q / n_features
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        low = log_cdf(thr_down, K, p)
        high = log_sf(thr_up - 1, K, p)
        # the middle mass from the tails on the side away from the mode, so that it is
        # not a difference of two numbers close to 1 (see the Notes of stability_score):
        # log(A - B) = log A + log1p(-B / A)
        above, beyond = log_sf(thr_down, K, p), high  # P(X > t0), P(X >= t1)
        below, under = log_cdf(thr_up - 1, K, p), low  # P(X < t1), P(X <= t0)
        from_sf = above + np.log1p(-np.exp(beyond - above))
        from_cdf = below + np.log1p(-np.exp(under - below))
        middle = np.where(low > np.log(0.5), from_sf, from_cdf)
    return low, middle, high


#: the terms of a tail summed term by term where scipy's tail underflows
_TAIL_TERMS = 4096
#: below this log tail probability (about 1e-261) the tail is summed term by term:
#: scipy 1.10's binomial tails lose digits from about 1e-300 on (relative error of the
#: log 1e-3 at e^-700 against 50-digit mpmath sums; 2e-13 above e^-700)
_SUM_BELOW = -600.0


def _log_upper_tail(k, K, p):
    """log P(X > k), X ~ Binomial(K, p), by summing the pmf in log space from k + 1:
    log pmf(k + 1) + log(1 + r_1 + r_1 r_2 + ...), r_j the ratios of successive
    probabilities (all below 1 beyond the mode), over at most ``_TAIL_TERMS`` terms and
    the geometric bound of the rest. For tails beyond the mode (where scipy underflows)."""
    from scipy.stats import binom

    k, p = np.broadcast_arrays(np.asarray(k, dtype=np.float64), np.asarray(p, dtype=np.float64))
    out = np.full(k.shape, -np.inf)
    ok = (k + 1 <= K) & (p > 0)
    if not ok.any():
        return out
    kk, pp = k[ok], p[ok]
    values = np.empty(kk.size)
    for s in range(0, kk.size, 256):  # 256 x _TAIL_TERMS at a time
        kb, pb = kk[s : s + 256], pp[s : s + 256]
        first = binom.logpmf(kb + 1, K, pb)
        j = kb[:, None] + 1 + np.arange(_TAIL_TERMS - 1)[None, :]  # j -> j + 1
        odds = np.where(pb < 1, pb / np.where(pb < 1, 1 - pb, 1.0), np.inf)[:, None]
        ratio = np.where(j < K, (K - j) / (j + 1) * odds, 0.0)
        steps = np.cumprod(ratio, axis=1)
        last, r = steps[:, -1], ratio[:, -1]
        rest = np.where(r < 1, last * r / np.where(r < 1, 1 - r, 1.0), np.inf)
        values[s : s + 256] = first + np.log1p(steps.sum(axis=1) + rest)
    out[ok] = values
    return out


def log_sf(k, K, p):
    """log P(X > k), X ~ Binomial(K, p), accurate where it is close to 0 as well (and
    where it is below the smallest double: the pmf summed in log space)."""
    from scipy.stats import binom

    with np.errstate(divide="ignore", invalid="ignore"):
        cdf = binom.cdf(k, K, p)
        value = np.where(cdf < 0.5, np.log1p(-cdf), binom.logsf(k, K, p))
        tiny = ~(value > _SUM_BELOW) & (np.asarray(k) < K) & (np.asarray(p) > 0)
        tiny = np.broadcast_to(tiny, np.shape(value))
        if tiny.any():
            kb, pb = np.broadcast_arrays(
                np.asarray(k, dtype=np.float64), np.asarray(p, dtype=np.float64)
            )
            kb, pb = np.broadcast_to(kb, value.shape), np.broadcast_to(pb, value.shape)
            value = np.array(value, dtype=np.float64)
            value[tiny] = _log_upper_tail(kb[tiny], K, pb[tiny])
        return value


def log_cdf(k, K, p):
    """log P(X <= k), X ~ Binomial(K, p): ``log1p(-sf)`` where the probability is
    close to 1 (``binom.logcdf`` is ``log(cdf)`` there and loses the small tail), and
    the lower tail as the upper tail of K - X ~ Binomial(K, 1 - p) where it is tiny."""
    from scipy.stats import binom

    with np.errstate(divide="ignore", invalid="ignore"):
        sf = binom.sf(k, K, p)
        value = np.where(sf < 0.5, np.log1p(-sf), binom.logcdf(k, K, p))
        tiny = ~(value > _SUM_BELOW) & (np.asarray(k) >= 0) & (np.asarray(p) < 1)
        tiny = np.broadcast_to(tiny, np.shape(value))
        if tiny.any():
            kb, pb = np.broadcast_arrays(
                np.asarray(k, dtype=np.float64), np.asarray(p, dtype=np.float64)
            )
            kb, pb = np.broadcast_to(kb, value.shape), np.broadcast_to(pb, value.shape)
            value = np.array(value, dtype=np.float64)
            value[tiny] = _log_upper_tail(K - kb[tiny] - 1, K, 1 - pb[tiny])
        return value


def rounded_sum(freq: np.ndarray) -> np.ndarray:
    """sharp's q, ``round(sum(selprop))`` per row: the correctly rounded sum
    (:func:`math.fsum`, as R's long-double accumulation gives it) where the float sum
    is near a half-integer, then rounded half to even as R's ``round``."""
    total = np.asarray(freq.sum(axis=-1), dtype=np.float64)
    near = np.abs(total - np.floor(total) - 0.5) < 1e-9 * (1 + freq.shape[-1])
    if near.any():
        rows = freq.reshape(-1, freq.shape[-1])
        flat = total.reshape(-1)
        for r in np.flatnonzero(near.reshape(-1)):  # only the ambiguous rows
            flat[r] = math.fsum(rows[r])
        total = flat.reshape(total.shape)
    return np.rint(total)


def _count_at_most(freq: np.ndarray, x: np.ndarray, strict: bool) -> np.ndarray:
    """For every row of ``freq`` (..., d) and every value of ``x`` (P,), the number of
    entries ``<= x`` (``< x`` when ``strict``): exact comparisons, broadcast in blocks
    of rows so that the boolean block stays below about 2**24 entries."""
    lead = freq.shape[:-1]
    rows = freq.reshape(-1, freq.shape[-1])
    block = max(1, (1 << 24) // max(1, x.size * rows.shape[1]))
    compare = np.less if strict else np.less_equal
    counts = (
        np.concatenate(
            [
                compare(rows[i : i + block, None, :], x[None, :, None]).sum(axis=2)
                for i in range(0, rows.shape[0], block)
            ]
        )
        if rows.shape[0]
        else np.zeros((0, x.size), dtype=np.int64)
    )
    return counts.reshape(lead + (x.size,))


@validate_params(
    {
        "frequencies": Checked(
            _frequencies,
            "a 1-D or 2-D array of selection proportions in " "[0, 1]",
            invalid=([], [1.5, 0.2], [[-0.1]], "0.5", [np.nan], [[[0.5]]]),
        ),
        "n_runs": Interval(Integral, 1, 10**9),
        "pi": [_PI, None],
        "n_categories": Options(2, 3),
    }
)
def stability_score(frequencies, n_runs, pi=None, *, n_categories=3):
    r"""sharp's stability score of selection proportions, for one or several thresholds.

    The N features are classed by their selection proportion :math:`\hat p_j` over K
    runs: stably selected (:math:`\hat p_j \ge \pi`), stably excluded
    (:math:`\hat p_j \le 1 - \pi`) and unstable (in between). Under uniform selection
    each feature's selection count is Binomial(K, q/N), with q the number of
    features selected per run on average, rounded; the score is minus the
    log-likelihood of the three counts:

    .. math::

        S(\pi) = -\big[S_0 \log F(t_{0}) + U \log\{F(t_{1} - 1) - F(t_{0})\}
                 + S_1 \log\{1 - F(t_{1} - 1)\}\big],

    with F the Binomial(K, q/N) distribution function, :math:`t_1 = round(K\pi)`,
    :math:`t_0 = round(K(1 - \pi))`, :math:`q = round(\sum_j \hat p_j)`, and
    :math:`S_1, U, S_0` the numbers of stably selected, unstable and stably excluded
    features. Higher is more stable (less likely under uniform selection). With
    ``n_categories=2`` the classes are :math:`\hat p_j \ge \pi` or not, with
    probabilities :math:`1 - F(t_1 - 1)` and :math:`F(t_1 - 1)`.

    Parameters
    ----------
    frequencies : array-like (n_features,) or (n_grid, n_features)
        Selection proportions in [0, 1]; a 2-D array holds one row per penalty (sharp's
        ``selprop``: rows are the penalties, columns the features).
    n_runs : int
        K, the number of runs (subsamples) the proportions come from, at most 10**9.
    pi : float or array-like ``(n_pi,)``, optional
        Thresholds in (0, 1). Default: sharp's ``seq(0.6, 0.9, by = 0.01)``
        (:data:`SHARP_PI_GRID`).
    n_categories : {3, 2}, default 3
        sharp's ``n_cat``.

    Returns
    -------
    float or ndarray
        Shape ``frequencies.shape[:-1] + pi.shape``: a float for 1-D frequencies and
        one pi, ``(n_pi,)`` for a grid of pi, ``(n_grid, n_pi)`` for 2-D frequencies. NaN where
        the score is undefined, as sharp's NA: no unstable class between the two
        thresholds (``round(K (1 - pi)) >= round(K pi) - 1``, e.g. pi <= 1/2 with three
        categories), or an infinite log-likelihood (a class that cannot occur under the
        null, e.g. q = 0, or q = N).

    Raises
    ------
    InvalidParameterError
        ``frequencies`` not a 1-D or 2-D array in [0, 1]; ``n_runs`` not a positive
        integer; ``pi`` outside (0, 1); ``n_categories`` not 2 or 3.

    Warns
    -----
    UndefinedMeasureWarning
        Some scores are undefined (NaN), with the number of them.

    See Also
    --------
    propstab.StabilitySelection : ``calibration="stability_score"`` chooses the
        penalty and pi by this score.
    fdp_plus : Stabl's calibration by artificial features.

    Notes
    -----
    sharp's conventions, kept: q is ``round()`` of the summed proportions (ties to
    even, as R's ``round`` and :func:`numpy.rint`); the count thresholds are
    ``round(K pi)`` and ``round(K (1 - pi))`` while the classes compare the
    proportions with ``pi`` and ``1 - pi`` themselves; a class of zero features whose
    probability is zero gives NaN (R's ``0 * -Inf``), not zero.

    One deliberate difference: sharp computes the middle probability as
    ``pbinom(t1 - 1) - pbinom(t0)``, falling back on a sum of ``dbinom`` when that
    difference is exactly 0. When both are close to 1 the subtraction loses digits;
    here the middle mass is the difference of the two upper tails when
    :math:`F(t_0) > 1/2` (and of the distribution functions otherwise), accurate to
    a few ulps. The two agree to 1e-10 except where sharp's subtraction has lost
    more than that (:doc:`/calibration`, "One deliberate difference").

    Every probability is kept in log space: where a binomial tail is below about
    :math:`e^{-600}` (scipy's tails lose digits near the smallest double and underflow
    to 0 below it) its log is the log of the first term plus the log of the sum of the
    ratios of successive terms, so the score is finite wherever sharp's (R's
    ``pbinom(log.p = TRUE)``) is: e.g. one always-selected feature among 1,000 at
    K = 200 scores 697.26 and 1180.77 at pi = 0.6 and 0.9, as sharp does
    (the live cross-check with sharp covers K up to 1000, N up to :math:`10^4`, pi up to
    0.99).

    References
    ----------
    Bodinier, B., Filippi, S., Nost, T. H., Chiquet, J., Chadeau-Hyam, M. (2023).
    Automated calibration for stability selection in penalised regression and
    graphical models. JRSS C 72(5), 1375-1393, doi:10.1093/jrsssc/qlad058 (the
    stability score, Section 2.3); the R package sharp 1.4.8, ``StabilityScore`` and
    ``BinomialProbabilities``.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.calibration import stability_score
    >>> freq = np.array([1.0, 0.95, 0.9, 0.1, 0.05, 0.0, 0.0, 0.0, 0.5, 0.0])
    >>> round(float(stability_score(freq, 20, 0.8)), 6)     # q = round(3.5) = 4
    42.083395
    >>> stability_score(freq, 20, [0.6, 0.7, 0.8]).round(4).tolist()   # as sharp's
    [12.7842, 23.7375, 42.0834]
    """
    freq = _frequencies("frequencies", frequencies, "stability_score")  # as an array
    K = int(n_runs)
    pis = SHARP_PI_GRID if pi is None else _grid("pi", pi, "stability_score")
    scalar = pis.ndim == 0
    pis = np.atleast_1d(pis).astype(np.float64)
    N = freq.shape[-1]
    q = rounded_sum(freq)[..., None]  # (..., 1)
    thr_up = np.rint(K * pis)  # (P,)
    ordered = freq
    with np.errstate(invalid="ignore"):
        if n_categories == 3:
            thr_down = np.rint(K * (1 - pis))
            log_low, log_mid, log_high = _binomial_logs(q, N, K, thr_down, thr_up)
            stable_out = _count_at_most(ordered, 1 - pis, strict=False)
            stable_in = N - _count_at_most(ordered, pis, strict=True)
            unstable = N - stable_out - stable_in
            loglik = stable_out * log_low + unstable * log_mid + stable_in * log_high
            loglik = np.where(thr_down >= thr_up - 1, np.nan, loglik)
        else:
            log_below = log_cdf(thr_up - 1, K, q / N)
            log_high = log_sf(thr_up - 1, K, q / N)
            below = _count_at_most(ordered, pis, strict=True)
            loglik = below * log_below + (N - below) * log_high
    score = np.where(np.isfinite(loglik), -loglik, np.nan)
    n_nan = int(np.isnan(score).sum())
    if n_nan:
        warn(
            f"stability_score: {n_nan} of {score.size} scores undefined (NaN): no unstable "
            f"class between round(K (1 - pi)) and round(K pi), or a class impossible under "
            f"uniform selection (q = {number(float(q.min()))} of N = {N})",
            UndefinedMeasureWarning,
        )
    if scalar:
        score = score[..., 0]
    return float(score) if score.ndim == 0 else score


@validate_params(
    {
        "frequencies": Checked(
            lambda name, value, function=None: _frequencies(name, value, function, ndim=(1,)),
            "a 1-D array of selection proportions in [0, 1]",
            invalid=([], [1.5], [[0.5]], "0.5", [np.nan]),
        ),
        "artificial_frequencies": Checked(
            lambda name, value, function=None: _frequencies(name, value, function, ndim=(1,)),
            "a 1-D array of selection proportions in [0, 1]",
            invalid=([], [1.5], [[0.5]], "0.5", [np.nan]),
        ),
        "thresholds": [_THRESHOLDS, None],
        "artificial_proportion": Interval(Real, 0, None, closed="neither"),
    }
)
def fdp_plus(frequencies, artificial_frequencies, thresholds=None, *, artificial_proportion=1.0):
    r"""Stabl's FDP+: the false discovery proportion estimated from artificial features.

    For a threshold t on the (maximal over the path) selection proportions of the
    real features :math:`\hat p_j` and of the artificial ones :math:`\hat a_k`,

    .. math::

        FDP^+(t) = \frac{1 + \#\{k : \hat a_k > t\} / r}
                        {\max(1, \#\{j : \hat p_j > t\})},

    r the artificial proportion (the number of artificial features over the number
    of real ones). Stabl selects the real features with :math:`\hat p_j > t^*`,
    :math:`t^*` the first threshold of the grid minimising FDP+ (1, selecting nothing,
    when the minimum exceeds 1).

    Parameters
    ----------
    frequencies : array-like (n_features,)
        The real features' selection proportions (their maximum over the path).
    artificial_frequencies : array-like (n_artificial,)
        The artificial features' (maximum over the path), fitted with the real ones.
    thresholds : float or array-like (n_thresholds,), optional
        Values of t in [0, 1). Default: Stabl's ``np.arange(0., 1., .01)``
        (:data:`STABL_THRESHOLDS`).
    artificial_proportion : float, default 1.0
        r, Stabl's ``artificial_proportion`` (1: one artificial feature per real one).

    Returns
    -------
    float or ndarray (n_thresholds,)
        FDP+ at each threshold.

    Raises
    ------
    InvalidParameterError
        Proportions not a 1-D array in [0, 1]; a threshold outside [0, 1);
        ``artificial_proportion`` not positive.

    See Also
    --------
    propstab.StabilitySelection : ``calibration="fdp"`` appends permuted copies of the
        columns and thresholds by this curve.
    stability_score : The criterion of sharp's calibration.

    References
    ----------
    Hedou, J., Maric, I., Bellan, G. et al. (2024). Discovery of sparse, reliable omic
    biomarkers with Stabl. Nature Biotechnology 42, 1581-1593,
    doi:10.1038/s41587-023-02033-x (FDP+, Methods); the Python package Stabl,
    ``Stabl._compute_FDPplus`` (stabl/stabl.py).

    Examples
    --------
    >>> from propstab.calibration import fdp_plus
    >>> real = [0.95, 0.9, 0.6, 0.3, 0.1]
    >>> artificial = [0.5, 0.2, 0.1, 0.0, 0.0]
    >>> fdp_plus(real, artificial, [0.0, 0.4, 0.7]).tolist()   # (1+3)/5, (1+1)/3, 1/2
    [0.8, 0.6666666666666666, 0.5]
    """
    t = (
        STABL_THRESHOLDS
        if thresholds is None
        else check_thresholds("thresholds", thresholds, "fdp_plus", closed="left")
    )
    scalar = t.ndim == 0
    t = np.atleast_1d(t)
    real = np.sort(_frequencies("frequencies", frequencies, "fdp_plus", ndim=(1,)))
    fake = np.sort(
        _frequencies("artificial_frequencies", artificial_frequencies, "fdp_plus", ndim=(1,))
    )
    n_real = real.size - np.searchsorted(real, t, side="right")  # > t
    n_fake = fake.size - np.searchsorted(fake, t, side="right")
    curve = (1 + n_fake / float(artificial_proportion)) / np.maximum(1, n_real)
    return float(curve[0]) if scalar else curve


@dataclasses.dataclass(frozen=True, repr=False)
class Calibration(Result):
    """What a calibration of stability selection chose, and why.

    The ``calibration_`` attribute of a fitted :class:`propstab.StabilitySelection`.

    Parameters
    ----------
    method : {"pfer", "stability_score", "fdp"}
        The calibration.
    param_name : str
        The regularisation parameter of the path.
    penalty : float
        The chosen penalty (``"stability_score"``); NaN for the two calibrations that
        threshold the maximum over the path.
    threshold : float
        The chosen threshold on the selection proportions: the cutoff (``"pfer"``),
        pi (``"stability_score"``, selected when ``>= pi``) or t (``"fdp"``, selected
        when ``> t``).
    criterion : float
        The realised PFER bound, the maximal stability score, or the minimal FDP+.
    n_selected : int
        The number of features selected.
    param_grid : ndarray (n_grid,)
        The path.
    thresholds : ndarray or None
        The grid of pi (``"stability_score"``) or t (``"fdp"``).
    curve : ndarray or None
        The stability scores ``(n_grid, n_pi)``, NaN where undefined or excluded by the
        PFER constraint, or the FDP+ curve (n_thresholds,).
    pfer_bound : float or None
        The constraint on sharp's PFER bound (``"stability_score"``), None if none.

    Returns
    -------
    Calibration

    Raises
    ------
    TypeError
        A missing field (dataclass construction).

    See Also
    --------
    propstab.plots.plot_calibration : Draws ``curve``.
    stability_score, fdp_plus : The criteria.

    References
    ----------
    Bodinier, B. et al. (2023). JRSS C 72(5), 1375-1393. Hedou, J. et al. (2024).
    Nature Biotechnology 42, 1581-1593.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.calibration import Calibration
    >>> c = Calibration("fdp", "alpha", float("nan"), 0.7, 0.5, 2, np.array([0.1]),
    ...                 np.array([0.0, 0.7]), np.array([0.8, 0.5]))
    >>> c
    Calibration(method='fdp', threshold=0.7, criterion=0.5, n_selected=2)
    """

    method: str
    param_name: str
    penalty: float
    threshold: float
    criterion: float
    n_selected: int
    param_grid: np.ndarray
    thresholds: Optional[np.ndarray] = None
    curve: Optional[np.ndarray] = None
    pfer_bound: Optional[float] = None

    _repr_fields: ClassVar[tuple] = ("method", "threshold", "criterion", "n_selected")

    def _repr_values(self):
        out = {"method": self.method}
        if self.method == "stability_score":
            out["penalty"] = float(self.penalty)
        out.update(
            threshold=float(self.threshold),
            criterion=float(self.criterion),
            n_selected=int(self.n_selected),
        )
        return out

    def summary(self) -> Summary:
        """The choice in a few lines.

        Returns
        -------
        Summary
        """
        if self.method == "pfer":
            fields = [
                ("calibration", "pfer (stabs: fixed cutoff, PFER bound)"),
                ("cutoff", number(self.threshold)),
                ("PFER bound", number(self.criterion)),
            ]
        elif self.method == "stability_score":
            constraint = (
                "none"
                if self.pfer_bound is None
                else f"sharp's PFER bound <= {number(self.pfer_bound)}"
            )
            fields = [
                ("calibration", "stability_score (sharp: maximal stability score)"),
                (self.param_name, number(self.penalty)),
                ("pi", number(self.threshold)),
                ("stability score", number(self.criterion)),
                (
                    "grid",
                    f"{len(self.param_grid)} penalties x " f"{len(self.thresholds)} values of pi",
                ),
                ("constraint", constraint),
            ]
        else:
            fields = [
                ("calibration", "fdp (Stabl: permuted artificial features)"),
                ("threshold", f"t = {number(self.threshold)} (selected: > t)"),
                ("min FDP+", number(self.criterion)),
            ]
        fields.append(("selected", str(int(self.n_selected))))
        return summary("Calibration", fields)


def sharp_pfer(q, pi, n_features):
    """sharp's PFER bound (``PFER_method = "MB"``): ``q**2 / ((2 pi - 1) N)`` with q
    the rounded mean number selected (:func:`rounded_sum`), Inf for pi <= 1/2;
    broadcast over its inputs."""
    q = np.asarray(q, dtype=np.float64)
    pi = np.asarray(pi, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = q**2 / ((2 * pi - 1) * n_features)
    return np.where(pi > 0.5, bound, np.inf)


def choose_by_stability_score(
    frequencies, n_runs, pi_grid, param_grid, param_name, pfer_bound=None
) -> Calibration:
    """sharp's joint choice of the penalty and pi (``StabilityMetrics`` and ``ArgmaxId``).

    ``frequencies`` is (n_grid, d). Scores where sharp's PFER bound exceeds
    ``pfer_bound`` are NaN. Per penalty, the best pi is the largest one reaching the
    row's maximum (NaN counted as 0; a maximum of 0 is no choice); the penalty is the
    first of the path with the largest best score. The selected features have
    proportion ``>= pi`` at that penalty.
    """
    import warnings

    freq = np.asarray(frequencies, dtype=np.float64)
    with warnings.catch_warnings():  # undefined scores are part of the grid
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        scores = np.asarray(stability_score(freq, n_runs, pi_grid), dtype=np.float64)
    scores = scores.reshape(freq.shape[0], len(pi_grid))
    if pfer_bound is not None:
        bound = sharp_pfer(rounded_sum(freq)[:, None], pi_grid[None, :], freq.shape[1])
        scores = np.where(bound <= pfer_bound, scores, np.nan)
    filled = np.where(np.isnan(scores), 0.0, scores)
    best = filled.max(axis=1)
    last = filled.shape[1] - 1 - np.argmax(filled[:, ::-1] == best[:, None], axis=1)
    row_best = np.where(best > 0, best, 0.0)
    g = int(np.argmax(row_best))
    if row_best[g] > 0:
        pi = float(pi_grid[last[g]])
        n_selected = int((freq[g] >= pi).sum())
        criterion = float(row_best[g])
    else:
        warn(
            "StabilitySelection: no stability score is defined on the grid (under the "
            "PFER constraint); nothing is selected",
            UndefinedMeasureWarning,
        )
        pi, n_selected, criterion = math.nan, 0, math.nan
    return Calibration(
        "stability_score",
        param_name,
        float(param_grid[g]),
        pi,
        criterion,
        n_selected,
        np.asarray(param_grid),
        np.asarray(pi_grid),
        scores,
        None if pfer_bound is None else float(pfer_bound),
    )


def choose_by_fdp(
    frequencies, artificial_frequencies, thresholds, param_grid, param_name
) -> Calibration:
    """Stabl's choice of the threshold: the first of the grid minimising FDP+ over the
    maxima over the path (1 when the minimum exceeds 1); selected: ``> t``."""
    real = np.asarray(frequencies, dtype=np.float64)
    curve = fdp_plus(real, artificial_frequencies, thresholds)
    i = int(np.argmin(curve))
    minimum = float(curve[i])
    t = 1.0 if minimum > 1 else min(float(thresholds[i]), 1.0)
    return Calibration(
        "fdp",
        param_name,
        math.nan,
        t,
        minimum,
        int((real > t).sum()),
        np.asarray(param_grid),
        np.asarray(thresholds),
        curve,
    )
