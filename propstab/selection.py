"""Stability selection (Meinshausen and Buhlmann 2010) with error control.

Two public objects:

- :func:`error_control`, the per-family error rate (PFER) calculator of
  Meinshausen and Buhlmann (2010, Theorem 1) and of Shah and Samworth (2013,
  Theorem 1 with the unimodal and r-concave bounds): given two of ``cutoff``,
  ``q`` and ``PFER`` it returns all three and the realised bound, exactly as
  R's ``stabs::stabsel_parameters`` (stabs 0.7.1) does, including its numerical
  root finding (Brent's zeroin and Brent's localmin as in R's ``uniroot`` and
  ``optimize``), R's long-double sums and R's ``signif``.
- :class:`StabilitySelection`, a scikit-learn transformer: the estimator is fitted
  on subsamples of size floor(n/2) (independent subsamples, ``sampling="mb"``, or
  B complementary pairs, ``sampling="ss"``) for every value of a regularisation
  grid, the same subsamples reused across the grid; features whose maximal
  selection probability over the grid reaches ``cutoff`` form the stable set.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import warnings

import numpy as np

from ._validation import check_choice, check_int_range, check_real_range

__all__ = ["ErrorControl", "StabilitySelection", "error_control"]

_DBL_EPS = float(np.finfo(float).eps)
_DBL_MAX = float(np.finfo(float).max)
_SAMPLINGS = ("mb", "ss")
_ASSUMPTIONS = ("none", "unimodal", "r-concave")


# ----------------------------------------------------------------------------------
# R's numerics, reproduced operation by operation so that the bounds match stabs


def _r_sum(values) -> float:
    """R's ``sum`` of doubles: sequential accumulation in long double, then rounded."""
    return float(np.cumsum(np.asarray(values, dtype=np.float64), dtype=np.longdouble)[-1])


def _r_pow(base: np.ndarray, exponent: float) -> np.ndarray:
    """R's ``x^y`` for y not 2: the C library's ``pow`` element by element.

    numpy's vectorised ``power`` may use SIMD kernels that differ from libm in
    the last bit; ``math.pow`` calls libm as R does.
    """
    return np.array([math.pow(b, exponent) for b in base.tolist()], dtype=np.float64)


def _r_signif(x: float, digits: int) -> float:
    """R's ``signif(x, digits)`` (nmath ``fprec``) for finite doubles of ordinary size."""
    if x == 0 or not math.isfinite(x):
        return x
    sgn = -1.0 if x < 0 else 1.0
    x = abs(x)
    l10 = math.log10(x)
    e10 = int(digits - 1 - math.floor(l10))
    if e10 > 0:
        pow10 = 10.0 ** e10
        return sgn * (float(np.rint(x * pow10)) / pow10)
    pow10 = 10.0 ** (-e10)
    return sgn * (float(np.rint(x / pow10)) * pow10)


def _finite_or_max(value: float) -> float:
    """R replaces a non-finite function value by the largest double (keeping -Inf's sign)."""
    if math.isfinite(value):
        return value
    return -_DBL_MAX if value == -math.inf else _DBL_MAX


def _r_uniroot(f, lower: float, upper: float, tol: float = _DBL_EPS ** 0.25,
               maxiter: int = 1000) -> float:
    """R's ``uniroot(f, lower=, upper=, tol=)$root`` (no interval extension).

    Brent's zeroin (Forsythe, Malcolm and Moler 1977) in the form of R's
    ``R_zeroin2``: bisection combined with linear or inverse quadratic interpolation.
    """
    if not lower < upper:
        raise ValueError(f"uniroot: lower < upper is not fulfilled ({lower!r}, {upper!r})")
    fa, fb = f(lower), f(upper)
    if math.isnan(fa) or math.isnan(fb):
        raise ValueError("uniroot: f is NaN at an end point")
    if not np.sign(fa) * np.sign(fb) <= 0:
        raise ValueError("uniroot: f() values at end points not of opposite sign")
    a, b = lower, upper
    c, fc = a, fa
    if fa == 0.0:
        return a
    if fb == 0.0:
        return b
    for _ in range(maxiter + 1):
        prev_step = b - a
        if abs(fc) < abs(fb):
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol_act = 2 * _DBL_EPS * abs(b) + tol / 2
        new_step = (c - b) / 2
        if abs(new_step) <= tol_act or fb == 0.0:
            return b
        if abs(prev_step) >= tol_act and abs(fa) > abs(fb):
            cb = c - b
            if a == c:
                t1 = fb / fa
                p = cb * t1
                q = 1.0 - t1
            else:
                q = fa / fc
                t1 = fb / fc
                t2 = fb / fa
                p = t2 * (cb * q * (q - t1) - (b - a) * (t1 - 1.0))
                q = (q - 1.0) * (t1 - 1.0) * (t2 - 1.0)
            if p > 0:
                q = -q
            else:
                p = -p
            if p < (0.75 * cb * q - abs(tol_act * q) / 2) and p < abs(prev_step * q / 2):
                new_step = p / q
        if abs(new_step) < tol_act:
            new_step = tol_act if new_step > 0 else -tol_act
        a, fa = b, fb
        b += new_step
        fb = _finite_or_max(f(b))
        if (fb > 0 and fc > 0) or (fb < 0 and fc < 0):
            c, fc = a, fa
    warnings.warn(f"uniroot: _NOT_ converged in {maxiter} iterations", RuntimeWarning,
                  stacklevel=2)
    return b


def _r_optimize_max(f, lower: float, upper: float, tol: float = _DBL_EPS ** 0.25) -> float:
    """R's ``optimize(f, lower=, upper=, maximum=TRUE)$objective``.

    Brent's localmin (Brent 1973, golden section with parabolic interpolation) in
    the form of R's ``Brent_fmin``, applied to ``-f``; returns f at the maximiser.
    """
    if not (math.isfinite(lower) and math.isfinite(upper)):
        raise ValueError("optimize: invalid interval end point")
    if lower >= upper:
        raise ValueError("optimize: 'xmin' not less than 'xmax'")

    def g(x):
        return _finite_or_max(-f(x))

    c = (3.0 - math.sqrt(5.0)) * 0.5
    eps = math.sqrt(_DBL_EPS)
    a, b = lower, upper
    v = w = x = a + c * (b - a)
    d = e = 0.0
    fx = fv = fw = g(x)
    tol3 = tol / 3.0
    while True:
        xm = (a + b) * 0.5
        tol1 = eps * abs(x) + tol3
        t2 = tol1 * 2.0
        if abs(x - xm) <= t2 - (b - a) * 0.5:
            break
        p = q = r = 0.0
        if abs(e) > tol1:
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = (q - r) * 2.0
            if q > 0.0:
                p = -p
            else:
                q = -q
            r = e
            e = d
        if abs(p) >= abs(q * 0.5 * r) or p <= q * (a - x) or p >= q * (b - x):
            e = (b - x) if x < xm else (a - x)
            d = c * e
        else:
            d = p / q
            u = x + d
            if u - a < t2 or b - u < t2:
                d = tol1
                if x >= xm:
                    d = -d
        if abs(d) >= tol1:
            u = x + d
        elif d > 0.0:
            u = x + tol1
        else:
            u = x - tol1
        fu = g(u)
        if fu <= fx:
            if u < x:
                b = x
            else:
                a = x
            v, w, x = w, x, u
            fv, fw, fx = fw, fx, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv = w, fw
                w, fw = u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
    return f(x)


# ----------------------------------------------------------------------------------
# the bounds of stabs 0.7.1 (stabsel_parameters.default and its helpers)


def _um_const(cutoff: float, B: int, theta: float) -> float:
    """Shah and Samworth's unimodal constant (their eq. 8 and Corollary 4)."""
    if cutoff <= 3 / 4:
        if cutoff < 1 / 2 + min(theta * theta, 1 / (2 * B) + 3 / 4 * (theta * theta)):
            raise ValueError(f"cutoff: {cutoff!r} is out of bounds for the unimodal bound "
                             f"(q/p = {theta!r}, B = {B})")
        return 2 * (2 * cutoff - 1 - 1 / (2 * B))
    if cutoff > 1:
        raise ValueError(f"cutoff: {cutoff!r} is out of bounds (above 1)")
    return (1 + 1 / B) / (4 * (1 - cutoff + 1 / (2 * B)))


@functools.lru_cache(maxsize=256)
def _a_vec(theta: float, B: int, s: float):
    """The root a_k of the r-concave extremal distribution's mean equation, k = k0..B."""
    thetaB = theta * B
    k_start = math.ceil(2 * thetaB) + 1
    a_vec = [1e5] * (B + 1)          # 1-based as in R; entry k_start - 1 is the start
    for k in range(k_start, B + 1):
        ks = np.arange(k + 1, dtype=np.float64)

        def calc_a(a, ks=ks):
            powers = _r_pow(a + ks, s)
            return _r_sum(ks * powers) / _r_sum(powers) - thetaB

        a_vec[k] = _r_uniroot(calc_a, 1e-5, a_vec[k - 1], tol=_DBL_EPS ** 0.75)
    return tuple(a_vec)


@functools.lru_cache(maxsize=4096)
def _D(theta: float, which: int, B: int, r: float) -> float:
    """Shah and Samworth's D(eta, t, B, r): the r-concave tail bound (stabs ``D``)."""
    s = 1 / r
    thetaB = theta * B
    k_start = math.ceil(2 * thetaB) + 1
    if which < k_start:
        return 1.0
    if k_start > B:
        raise ValueError("q: too large for the r-concave bound (theta too large)")
    if k_start == B:
        raise ValueError("q: too large for the r-concave bound (no interval to optimise over)")
    a_vec = _a_vec(theta, B, s)
    best = 0.0
    for k in range(k_start, B):
        span = np.arange(max(which, k + 1), dtype=np.float64)
        weights = (k + 1) - span[:k + 1]

        def optim_int(a, k=k, span=span, weights=weights):
            # R evaluates (a + 0:(t-1))^s and (a + 0:k)^s separately; the powers of
            # equal arguments are equal, so one vector serves both sums
            powers = _r_pow(a + span, s)
            num = (k + 1 - thetaB) * _r_sum(powers[:which])
            denom = _r_sum(weights * powers[:k + 1])
            return 1 - num / denom

        best = max(best, _r_optimize_max(optim_int, a_vec[k + 1], a_vec[k]))
    return best


def _max_q(p: int, B: int) -> int:
    """The largest q for which the r-concave bound is defined (stabs ``maxQ``)."""
    fact_1 = 4 * B / p
    q = np.arange(1, int(p) + 1, dtype=np.float64)
    res = np.ceil(q * fact_1) + 1 - 2 * B
    return int(np.count_nonzero(res < 0))


def _min_D(q: float, p: int, cutoff: float, B: int) -> float:
    """min(1, D(q^2/p^2, ...), D(q/p, ...)): Shah and Samworth's r-concave bound / p."""
    which = math.ceil(_r_signif(cutoff / (1 / (2 * B)), 10))
    max_q = _max_q(p, B)
    if q > max_q:
        raise ValueError(f"q: must be <= {max_q} for the r-concave bound with "
                         f"n_features={p}, B={B}; got {q!r}")
    return min(1.0, _D((q * q) / (p * p), which - B, B, -1 / 2),
               _D(q / p, which, 2 * B, -1 / 4))


def _optimal_cutoff(p, q, PFER, B, assumption):
    if assumption == "unimodal":
        grid = [1 / 2 + j / (2 * B) for j in range(2, B + 1)]
        c_min = min(0.5 + (q / p) * (q / p), 0.5 + 1 / (2 * B) + 0.75 * ((q / p) * (q / p)))
        grid = [c for c in grid if c > c_min]
        if not grid:
            max_q = max(math.floor(p * math.sqrt(0.5)),
                        math.floor(p * math.sqrt((0.5 - 1 / (2 * B)) * 4 / 3)))
            raise ValueError(f"q: must be <= {max_q} for the unimodal bound; got {q!r}")
        for c in grid:
            if (q * q) / p / _um_const(c, B, q / p) < PFER:
                return c
        raise ValueError(f"PFER: no cutoff on the grid 1/2 + j/(2B) attains PFER < {PFER!r} "
                         f"with q = {q!r} (n_features={p}, B={B}) under the unimodal bound")
    grid = [j / (2 * B) for j in range(2 * B, 0, -1)]
    grid = [c for c in grid if c > q / p]
    if not grid:
        raise ValueError(f"q: q/p = {q / p!r} leaves no cutoff for the r-concave bound")
    for i, c in enumerate(grid):
        if _min_D(q, p, c, B) * p > PFER:
            return grid[0] if i == 0 else grid[i - 1]
    return grid[-1]


def _optimal_q(p, cutoff, PFER, B, assumption):
    if assumption == "unimodal":
        if cutoff <= 0.75:
            upper_q = max(p * math.sqrt(cutoff - 0.5),
                          p * math.sqrt(4 / 3 * (cutoff - 0.5 - 1 / (2 * B))))
            upper_q = math.ceil(upper_q - 1)
        else:
            upper_q = p
        try:
            root = _r_uniroot(lambda q: (q * q) / p / _um_const(cutoff, B, q / p) - PFER,
                              1.0, float(upper_q))
        except ValueError as exc:
            raise ValueError(f"PFER: no q in [1, {upper_q}] attains PFER = {PFER!r} with "
                             f"cutoff = {cutoff!r} under the unimodal bound ({exc})") from None
        return float(math.floor(root))
    max_q = _max_q(p, B)
    q = 1
    for q in range(1, max(max_q, 1) + 1):
        if _min_D(q, p, cutoff, B) * p > PFER:
            q -= 1
            break
    return float(max(1, q))


def _bound(p, q, cutoff, B, assumption) -> float:
    """The PFER bound E(V) <= ... for given q and cutoff (before rounding)."""
    if assumption == "none":
        denominator = 2 * cutoff - 1
        if denominator == 0:            # cutoff 1/2: R's q^2/p/0, Inf (or NaN for q = 0)
            return math.inf if q > 0 else math.nan
        return (q * q) / p / denominator
    if assumption == "unimodal":
        return (q * q) / p / _um_const(cutoff, B, q / p)
    return _min_D(q, p, cutoff, B) * p


@dataclasses.dataclass(frozen=True)
class ErrorControl:
    """The error-control parameters of stability selection.

    Attributes
    ----------
    cutoff : float
        The selection-probability threshold pi_thr.
    q : float
        The (average) number of features selected per subsample.
    PFER : float
        The realised upper bound on the expected number of false selections,
        rounded to 3 significant digits as by stabs.
    specified_PFER : float
        The PFER that was asked for; when PFER was derived, the unrounded bound.
    n_features, n_subsamples : int
        p and B (for ``sampling="ss"`` B is the number of complementary pairs).
    sampling, assumption : str
    """

    cutoff: float
    q: float
    PFER: float
    specified_PFER: float
    n_features: int
    n_subsamples: int
    sampling: str
    assumption: str

    @property
    def significance_level(self) -> float:
        """PFER / p, the per-feature error rate (without multiplicity adjustment)."""
        return _r_signif(self.PFER / self.n_features, 3)


def _resolve_assumption(sampling, assumption):
    check_choice("sampling", sampling, _SAMPLINGS)
    if assumption is None:
        return "none" if sampling == "mb" else "unimodal"
    check_choice("assumption", assumption, _ASSUMPTIONS)
    if sampling == "mb" and assumption != "none":
        raise ValueError(f"assumption: the Meinshausen-Buhlmann bound (sampling='mb') takes "
                         f"no assumption, use assumption='none' with it; got {assumption!r}")
    return assumption


def error_control(n_features, *, cutoff=None, q=None, PFER=None, sampling="ss",
                  assumption=None, n_subsamples=50) -> ErrorControl:
    r"""The cutoff, q and PFER bound of stability selection, given two of them.

    Parameters
    ----------
    n_features : int
        p, the number of features.
    cutoff : float, optional
        The threshold pi_thr on the selection probabilities, in [1/2, 1]
        (in [0, 1] and above q/p for the r-concave bound).
    q : float, optional
        The expected number of features selected per subsample, 0 <= q <= p.
    PFER : float, optional
        The upper bound asked for the per-family error rate E(V), V the number
        of falsely selected (noise or low-probability) features.
    sampling : {"ss", "mb"}, default "ss"
        ``"mb"``: Meinshausen and Buhlmann's subsampling; ``"ss"``: Shah and
        Samworth's complementary pairs.
    assumption : {"unimodal", "r-concave", "none"}, optional
        The assumption of Shah and Samworth's improved bound; default
        ``"unimodal"`` for ``sampling="ss"`` and ``"none"`` (the only one
        allowed) for ``"mb"``. ``"none"`` with ``"ss"`` gives the MB bound.
    n_subsamples : int, default 50
        B as in stabs: the number of complementary pairs for ``"ss"`` (2B
        subsample fits), the number of subsamples for ``"mb"`` (the MB bound
        does not depend on it).

    Returns
    -------
    ErrorControl
        All three parameters and the realised bound ``PFER`` (3 significant digits).

    Raises
    ------
    ValueError, TypeError
        Not exactly two of cutoff, q, PFER; values out of range; a combination
        outside the domain of the chosen bound.

    Notes
    -----
    The bounds, as implemented by ``stabs::stabsel_parameters`` (stabs 0.7.1):

    - no assumption (Meinshausen and Buhlmann 2010, Theorem 1):

      .. math:: E(V) \le \frac{q^2}{(2\pi_{thr} - 1) p};

      given q and PFER, :math:`\pi_{thr} = \min(1, (q^2/(\mathrm{PFER}\,p) + 1)/2)`;
      given the cutoff and PFER, :math:`q = \lfloor\sqrt{\mathrm{PFER}(2\pi_{thr}-1)p}\rfloor`.
    - unimodal (Shah and Samworth 2013, Corollary 4):
      :math:`E(V) \le q^2 / (p\, C(\pi_{thr}, B))` with
      :math:`C = 2(2\pi_{thr} - 1 - 1/(2B))` for :math:`\pi_{thr} \le 3/4` and
      :math:`C = (1 + 1/B) / (4(1 - \pi_{thr} + 1/(2B)))` above; the cutoff is the
      first grid value :math:`1/2 + j/(2B)` whose bound is below PFER, q the
      floor of the root of bound(q) = PFER.
    - r-concave (Shah and Samworth 2013, Theorem 3, eq. 9):
      :math:`E(V) \le p \min\{1, D(q^2/p^2, 2B\pi_{thr} - B, B, -1/2),
      D(q/p, 2B\pi_{thr}, 2B, -1/4)\}`, D computed by root finding and
      optimisation exactly as stabs does.

    References
    ----------
    Meinshausen, N., Buhlmann, P. (2010). Stability selection. JRSS B 72(4),
    417-473. https://doi.org/10.1111/j.1467-9868.2010.00740.x

    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80.
    https://doi.org/10.1111/j.1467-9868.2011.01034.x

    Hofner, B., Boccuto, L., Goker, M. (2015). Controlling false discoveries in
    high-dimensional situations: boosting with stability selection. BMC
    Bioinformatics 16:144 (the R package stabs).

    Examples
    --------
    >>> from propstab.selection import error_control
    >>> ec = error_control(1000, cutoff=0.75, q=50, sampling="mb")
    >>> ec.PFER                                   # 50^2 / ((2 * 0.75 - 1) * 1000)
    5.0
    >>> error_control(1000, cutoff=0.75, PFER=1, sampling="mb").q
    22.0
    >>> ec = error_control(100, q=10, PFER=1, sampling="ss", assumption="unimodal")
    >>> ec.cutoff, ec.PFER                        # as stabs::stabsel_parameters
    (0.76, 0.98)
    """
    p = check_int_range("n_features", n_features, minimum=1)
    B = check_int_range("n_subsamples", n_subsamples, minimum=2)
    assumption = _resolve_assumption(sampling, assumption)
    given = [name for name, v in (("cutoff", cutoff), ("q", q), ("PFER", PFER)) if v is not None]
    if len(given) != 2:
        raise ValueError(f"error_control: exactly two of cutoff, q and PFER must be given; "
                         f"got {', '.join(given) if given else 'none'}")
    if PFER is not None:
        PFER = check_real_range("PFER", PFER, low=0.0, low_open=True)
    if cutoff is not None:
        low = 0.0 if assumption == "r-concave" else 0.5
        cutoff = check_real_range("cutoff", cutoff, low=low, high=1.0)
    if q is not None:
        q = check_real_range("q", q, low=0.0, high=float(p))

    if cutoff is None:
        if assumption == "none":
            cutoff = min(1.0, ((q * q) / (PFER * p) + 1) / 2)
        else:
            cutoff = _optimal_cutoff(p, q, PFER, B, assumption)
    elif q is None:
        if assumption == "none":
            q = float(math.floor(math.sqrt(PFER * (2 * cutoff - 1) * p)))
        else:
            q = _optimal_q(p, cutoff, PFER, B, assumption)
    if "cutoff" in given and assumption == "r-concave" and cutoff <= q / p:
        raise ValueError(f"cutoff: must be larger than q/p = {q / p!r} for the r-concave "
                         f"bound; got {cutoff!r}")
    bound = _bound(p, q, cutoff, B, assumption)
    specified = bound if PFER is None else PFER
    return ErrorControl(cutoff=float(cutoff), q=float(q), PFER=_r_signif(bound, 3),
                        specified_PFER=float(specified), n_features=p, n_subsamples=B,
                        sampling=sampling, assumption=assumption)


# ----------------------------------------------------------------------------------
# the transformer


def _sklearn_base():
    try:
        from sklearn.base import BaseEstimator
        from sklearn.feature_selection import SelectorMixin
    except ImportError:
        raise ImportError("StabilitySelection needs scikit-learn; install it with "
                          "`pip install propstab[sklearn]`") from None
    return BaseEstimator, SelectorMixin


def _subsamples(n: int, n_subsamples: int, sampling: str, rng) -> np.ndarray:
    """Row indices of the subsamples, shape (n_fits, floor(n/2)), each row sorted.

    ``"mb"``: B independent subsamples without replacement; ``"ss"``: B random
    splits into two disjoint halves (complementary pairs), 2B subsamples.
    """
    half = n // 2
    if sampling == "mb":
        rows = [rng.permutation(n)[:half] for _ in range(n_subsamples)]
    else:
        rows = []
        for _ in range(n_subsamples):
            perm = rng.permutation(n)
            rows.extend((perm[:half], perm[half:2 * half]))
    return np.sort(np.asarray(rows, dtype=np.intp), axis=1)


def _fit_path(estimator, param_name, grid, X, y, rows, threshold):
    """Fit the estimator on one subsample for every grid value: selections and importances."""
    from sklearn.exceptions import ConvergenceWarning
    from .resampling import _clone, _support_of, _take
    Xs, ys = _take(X, rows), _take(y, rows)
    d = X.shape[1]
    masks = np.zeros((len(grid), d), dtype=bool)
    imps = np.zeros((len(grid), d), dtype=np.float64)
    for g, value in enumerate(grid):
        est = _clone(estimator).set_params(**{param_name: value})
        with warnings.catch_warnings():       # weak penalties on half the data
            warnings.simplefilter("ignore", category=ConvergenceWarning)
            est.fit(Xs, ys)
        mask, imp = _support_of(est, d, threshold=threshold)
        masks[g] = mask
        if imp is not None:
            imps[g] = imp
    return masks, imps


def _first_q(masks: np.ndarray, imps: np.ndarray, order: np.ndarray, q: int) -> np.ndarray:
    """Restrict one subsample's path to the first q features to enter it.

    Features are ranked by the first grid value (in order of increasing model size)
    at which they are selected, ties by larger importance there, then by index;
    as the fitters of stabs keep the first q variables on the path.
    """
    m = masks[order]                                   # (G, d) in path order
    ever = m.any(axis=0)
    entry = np.where(ever, np.argmax(m, axis=0), len(order))
    entry_imp = imps[order][np.minimum(entry, len(order) - 1), np.arange(m.shape[1])]
    rank = np.lexsort((np.arange(m.shape[1]), -entry_imp, entry))
    keep = np.zeros(m.shape[1], dtype=bool)
    keep[rank[:q]] = True
    keep &= ever
    return masks & keep


try:  # scikit-learn is optional: without it the class exists but fit() says what to install
    _BASES = tuple(reversed(_sklearn_base()))          # (SelectorMixin, BaseEstimator)
except ImportError:  # pragma: no cover
    _BASES = (object,)


class StabilitySelection(*_BASES):
    r"""Stability selection (Meinshausen and Buhlmann 2010) as a scikit-learn selector.

    The estimator is fitted on subsamples of floor(n/2) rows for every value of
    ``param_name`` in ``param_grid``, the same subsamples for the whole grid. The
    selection probability of feature f at grid value lambda is the fraction of
    subsamples whose fit selects f (nonzero ``coef_``, ``get_support()`` or
    importance above ``threshold``); the stable set is

    .. math:: \hat S^{stable} = \{f : \max_{\lambda \in \Lambda} \hat\Pi_f^\lambda
              \ge \pi_{thr}\}

    (``>=`` as in the paper and in stabs). The per-family error rate E(V) is then
    bounded by :func:`error_control` with q the mean size of the union of the
    selections over the grid per subsample.

    Parameters
    ----------
    estimator : estimator
        Fitted with ``coef_``, ``feature_importances_`` or ``get_support()``,
        e.g. ``Lasso`` or ``LogisticRegression(penalty="l1", solver="liblinear")``.
    param_name : str, default "alpha"
        The regularisation parameter the grid runs over.
    param_grid : array-like, optional
        Its values (default: the estimator's own value, a one-point grid).
    n_subsamples : int, default 100
        B as in stabs: the number of subsamples for ``"mb"``, of complementary
        pairs for ``"ss"`` (2B fits per grid value).
    sampling : {"mb", "ss"}, default "mb"
    cutoff : float or None, default 0.6
        pi_thr in [1/2, 1].
    PFER, q : float, optional
        With ``cutoff``, at most one of them: ``PFER`` fixes q by
        :func:`error_control`; ``q`` fixes the number of features kept per
        subsample. With ``cutoff=None`` both: the cutoff is derived. When q is
        fixed, each subsample keeps the first q features entering its path.
    assumption : {"none", "unimodal", "r-concave"}, default "none"
        The bound (see :func:`error_control`); ``"mb"`` allows only ``"none"``.
    threshold : float, optional
        Importance threshold turning ``feature_importances_`` into selections.
    random_state : None, int or numpy Generator
    n_jobs : int, optional
        Subsamples fitted in parallel with joblib.

    Attributes
    ----------
    param_grid_ : ndarray (n_grid,)
    subsamples_ : ndarray (n_fits, floor(n/2))
        The row indices of the subsamples.
    stability_scores_ : ndarray (n_features_in_, n_grid)
        Selection probabilities per feature and grid value.
    selection_probabilities_ : ndarray (n_features_in_,)
        Their maximum over the grid.
    cutoff_, q_, PFER_ : float
        The cutoff used, the realised q (mean number of features selected per
        subsample over the grid) and the realised PFER bound.
    error_control_ : ErrorControl or None
        The bound's parameters (None when the bound does not apply, with a warning).
    support_ : ndarray of bool
    n_features_in_, feature_names_in_

    References
    ----------
    Meinshausen, N., Buhlmann, P. (2010). Stability selection. JRSS B 72(4), 417-473.
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import StabilitySelection
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 10))
    >>> y = 2 * X[:, 0] - 2 * X[:, 1] + rng.normal(size=200)
    >>> ss = StabilitySelection(Lasso(), param_grid=[0.2, 0.5, 1.0],
    ...                         n_subsamples=20, cutoff=0.8, random_state=0)
    >>> ss.fit(X, y).get_support(indices=True).tolist()
    [0, 1]
    >>> ss.stability_scores_.shape
    (10, 3)
    >>> ss.q_, ss.PFER_                 # E(V) <= 3^2 / ((2 * 0.8 - 1) * 10)
    (3.0, 1.5)
    """

    _required_parameters = ["estimator"]     # scikit-learn's checks build it with SelectFwe()

    def __init__(self, estimator, *, param_name="alpha", param_grid=None, n_subsamples=100,
                 sampling="mb", cutoff=0.6, PFER=None, q=None, assumption="none",
                 threshold=None, random_state=None, n_jobs=None):
        self.estimator = estimator
        self.param_name = param_name
        self.param_grid = param_grid
        self.n_subsamples = n_subsamples
        self.sampling = sampling
        self.cutoff = cutoff
        self.PFER = PFER
        self.q = q
        self.assumption = assumption
        self.threshold = threshold
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _more_tags(self):
        return {"requires_y": True}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _validate(self, X, y):
        try:
            from sklearn.utils.validation import validate_data
        except ImportError:          # scikit-learn < 1.6
            return self._validate_data(X, y, accept_sparse="csr", y_numeric=False,
                                       multi_output=False)
        return validate_data(self, X, y, accept_sparse="csr")

    def _check_params(self, n_features):
        B = check_int_range("n_subsamples", self.n_subsamples, minimum=2)
        assumption = _resolve_assumption(self.sampling, self.assumption)
        given = {k: v for k, v in (("cutoff", self.cutoff), ("PFER", self.PFER),
                                   ("q", self.q)) if v is not None}
        if "cutoff" in given and len(given) == 3:
            raise ValueError("StabilitySelection: give at most two of cutoff, PFER and q")
        if "cutoff" not in given and len(given) != 2:
            raise ValueError("StabilitySelection: with cutoff=None give both PFER and q")
        target = None
        if len(given) == 2:
            target = error_control(n_features, cutoff=self.cutoff, q=self.q, PFER=self.PFER,
                                   sampling=self.sampling, assumption=assumption,
                                   n_subsamples=B)
        else:
            check_real_range("cutoff", self.cutoff, low=0.5, high=1.0)
        return B, assumption, target

    def _grid(self):
        if not isinstance(self.param_name, str):
            raise TypeError(f"param_name: must be a parameter name; got {self.param_name!r}")
        params = self.estimator.get_params(deep=True)
        if self.param_name not in params:
            raise ValueError(f"param_name: {type(self.estimator).__name__} has no parameter "
                             f"{self.param_name!r}")
        if self.param_grid is None:
            return np.asarray([params[self.param_name]])
        grid = np.asarray(self.param_grid)
        if grid.ndim != 1 or grid.size == 0:
            raise ValueError(f"param_grid: must be a non-empty 1-D sequence; got shape "
                             f"{grid.shape}")
        return grid

    def fit(self, X, y):
        """Fit the estimator on every subsample and grid value; find the stable set."""
        _sklearn_base()
        X, y = self._validate(X, y)
        n, d = X.shape
        if n < 4:
            raise ValueError(f"X: stability selection needs subsamples of floor(n/2) >= 2 "
                             f"rows; got n_samples = {n}")
        B, assumption, target = self._check_params(d)
        grid = self._grid()
        rng = np.random.default_rng(self.random_state)
        subsamples = _subsamples(n, B, self.sampling, rng)
        if self.n_jobs is None or self.n_jobs == 1:
            paths = [_fit_path(self.estimator, self.param_name, grid, X, y, rows, self.threshold)
                     for rows in subsamples]
        else:
            import joblib
            paths = joblib.Parallel(n_jobs=self.n_jobs)(
                joblib.delayed(_fit_path)(self.estimator, self.param_name, grid, X, y, rows,
                                          self.threshold) for rows in subsamples)
        masks = np.stack([p[0] for p in paths])         # (n_fits, G, d)
        if target is not None:
            q_max = int(math.floor(target.q))
            order = np.argsort(masks.sum(axis=(0, 2)), kind="stable")
            masks = np.stack([_first_q(m, p[1], order, q_max) for m, p in zip(masks, paths)])
        cutoff = target.cutoff if target is not None else float(self.cutoff)
        self.param_grid_ = grid
        self.subsamples_ = subsamples
        self.stability_scores_ = masks.mean(axis=0).T
        self.selection_probabilities_ = self.stability_scores_.max(axis=1)
        self.q_ = float(masks.any(axis=1).sum(axis=1).mean())
        self.cutoff_ = cutoff
        self.support_ = self.selection_probabilities_ >= cutoff
        self.error_control_ = self._realised_bound(d, B, assumption)
        self.PFER_ = self.error_control_.PFER if self.error_control_ is not None else math.nan
        return self

    def _realised_bound(self, d, B, assumption):
        if self.q_ == 0:
            return ErrorControl(cutoff=self.cutoff_, q=0.0, PFER=0.0, specified_PFER=0.0,
                                n_features=d, n_subsamples=B, sampling=self.sampling,
                                assumption=assumption)
        try:
            return error_control(d, cutoff=self.cutoff_, q=self.q_, sampling=self.sampling,
                                 assumption=assumption, n_subsamples=B)
        except ValueError as exc:
            warnings.warn(f"StabilitySelection: the {assumption!r} PFER bound does not apply "
                          f"to the realised q = {self.q_:.3g} and cutoff {self.cutoff_}: {exc}; "
                          f"PFER_ is NaN", RuntimeWarning, stacklevel=3)
            return None

    def _get_support_mask(self):
        from sklearn.utils.validation import check_is_fitted
        check_is_fitted(self, "support_")
        return self.support_
