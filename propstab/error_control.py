"""Error control of stability selection: the per-family error rate (PFER) bounds.

:func:`error_control` is the PFER calculator of Meinshausen and Buhlmann (2010,
Theorem 1) and of Shah and Samworth (2013, with their unimodal and r-concave
bounds): given two of ``cutoff``, ``q`` and ``PFER`` it returns all three and the
realised bound as an :class:`ErrorControl`. Its values are checked against R's
``stabs::stabsel_parameters`` (stabs 0.7.1). The bounds and their inversions are
here; the scikit-learn transformer that uses them is
:class:`propstab.selection.StabilitySelection` (``propstab.selection`` re-exports
both names of this module).
"""
from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

from ._exceptions import warn
from ._text import Summary, call_repr, number, summary
from ._validation import check_choice, check_int_range, check_real_range

__all__ = ["ErrorControl", "LargePFERWarning", "PFERExceededWarning", "error_control"]

SAMPLINGS = ("mb", "ss")
#: The largest B (``n_subsamples``): the unimodal cutoff is searched on a grid of B
#: values, and no stability selection needs more subsamples.
MAX_B = 10 ** 6
#: The largest B of the r-concave bound: each of its evaluations scans the extremal
#: path on {0..2B}, O(B^2) work (about 0.3 s for any p up to 10^7 at B = 50, 0.8 s at
#: B = 100; benchmarks/bench_error_control.py).
RCONCAVE_MAX_B = 100


class PFERExceededWarning(RuntimeWarning):
    """The realised PFER bound exceeds the PFER asked for: no cutoff up to 1 attains
    it with the given q (stabs returns cutoff 1 too, and warns when verbose).

    See Also
    --------
    propstab.selection.error_control : Warns with it.
    propstab.selection.LargePFERWarning : A fitted stability selection's large bound.

    References
    ----------
    Meinshausen, N., Buhlmann, P. (2010). Stability selection. JRSS B 72(4),
    417-473, Theorem 1 (the error bound without assumptions).
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80, secs 3.2 and 3.3
    (the bounds under unimodality and r-concavity).

    Examples
    --------
    >>> import warnings
    >>> from propstab.selection import error_control
    >>> with warnings.catch_warnings(record=True) as caught:   # q too large for PFER 1
    ...     warnings.simplefilter("always")
    ...     ec = error_control(100, q=40, PFER=1, assumption="none")
    >>> caught[0].category.__name__, ec.cutoff, ec.PFER
    ('PFERExceededWarning', 1.0, 16.0)
    """


class LargePFERWarning(RuntimeWarning):
    """The realised PFER bound of a fitted stability selection is large compared with
    the number of features it selected: ``PFER_ >= n_selected / 2``, so the bound
    allows half or more of the stable set to be false selections.

    See Also
    --------
    propstab.StabilitySelection : Warns with it after ``fit``.
    propstab.selection.error_control : The bound it compares.

    References
    ----------
    Meinshausen, N., Buhlmann, P. (2010). Stability selection. JRSS B 72(4),
    417-473, Theorem 1 (the error bound without assumptions).
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80, secs 3.2 and 3.3
    (the bounds under unimodality and r-concavity).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import StabilitySelection
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6)); y = X[:, 0] + rng.normal(size=40)
    >>> ss = StabilitySelection(Lasso(), q=3, cutoff=0.6, PFER=None, assumption="none",
    ...                         n_subsamples=10, random_state=0)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     ss = ss.fit(X, y)
    >>> caught[0].category.__name__, ss.PFER_, int(ss.support_.sum())
    ('LargePFERWarning', 7.5, 1)
    """


ASSUMPTIONS = ("none", "unimodal", "r-concave")


def _significant(x: float, digits: int) -> float:
    """``x`` rounded to ``digits`` significant decimal digits (as stabs reports bounds)."""
    if x == 0 or not math.isfinite(x):
        return float(x)
    return float(np.round(x, digits - 1 - math.floor(math.log10(abs(x)))))


# ----------------------------------------------------------------------------------
# Meinshausen-Buhlmann and the unimodal bound: closed forms


def _mb_bound(q: float, p: int, cutoff: float) -> float:
    """Meinshausen and Buhlmann (2010, Theorem 1): E(V) <= q^2 / ((2 pi - 1) p).

    At pi = 1/2 the bound is infinite (NaN for q = 0), as the division gives in R.
    """
    excess = 2 * cutoff - 1
    if excess == 0:
        return math.inf if q > 0 else math.nan
    return q * q / p / excess


def _unimodal_min_cutoff(theta: float, B: int) -> float:
    """The smallest cutoff for which Shah and Samworth's unimodal bound holds, q/p = theta."""
    return 0.5 + min(theta * theta, 1 / (2 * B) + 0.75 * (theta * theta))


def _unimodal_denominator(cutoff, B: int):
    """K(pi, B) in the unimodal bound E(V) <= q^2 / (p K(pi, B)) (scalar or array pi).

    Shah and Samworth (2013, sec. 3.2): K = 2 (2 pi - 1 - 1/(2B)) for pi <= 3/4 and
    K = (1 + 1/B) / (4 (1 - pi + 1/(2B))) for 3/4 < pi <= 1.
    """
    cutoff = np.asarray(cutoff, dtype=np.float64)
    low = 2 * (2 * cutoff - 1 - 1 / (2 * B))
    high = (1 + 1 / B) / (4 * (1 - cutoff + 1 / (2 * B)))
    return np.where(cutoff <= 0.75, low, high)


def _unimodal_bound(q: float, p: int, cutoff: float, B: int) -> float:
    """Shah and Samworth's bound for unimodal selection proportions.

    Its branch pi <= 3/4 holds from :func:`_unimodal_min_cutoff` on; the branch
    pi > 3/4 has no condition on q/p.
    """
    if cutoff <= 0.75 and cutoff < _unimodal_min_cutoff(q / p, B):
        raise ValueError(f"cutoff: {cutoff!r} is out of bounds for the unimodal bound "
                         f"(must be >= 1/2 + min((q/p)^2, 1/(2B) + 3/4 (q/p)^2) with "
                         f"q/p = {number(q / p, 6)}, B = {B})")
    return q * q / p / float(_unimodal_denominator(cutoff, B))


def _unimodal_cutoff(p: int, q: float, PFER: float, B: int) -> float:
    """The smallest cutoff 1/2 + j/(2B), j = 2..B, whose unimodal bound is below PFER."""
    grid = 0.5 + np.arange(2, B + 1) / (2 * B)
    grid = grid[grid > _unimodal_min_cutoff(q / p, B)]
    if grid.size == 0:
        largest = max(math.floor(p * math.sqrt(0.5)),
                      math.floor(p * math.sqrt((0.5 - 1 / (2 * B)) * 4 / 3)))
        raise ValueError(f"q: must be <= {largest} for the unimodal bound; got {q!r}")
    below = q * q / p / _unimodal_denominator(grid, B) < PFER
    if not below.any():
        raise ValueError(f"PFER: no cutoff on the grid 1/2 + j/(2B) attains PFER < {PFER!r} "
                         f"with q = {q!r} (n_features={p}, B={B}) under the unimodal bound")
    return float(grid[np.argmax(below)])


def _unimodal_q_top(p: int, cutoff: float, B: int) -> int:
    """The largest integer q in [0, p] inside the unimodal bound's domain at ``cutoff``.

    Above 3/4 every q is (p); at or below it q/p = theta must satisfy
    pi >= 1/2 + min(theta^2, 1/(2B) + 3/4 theta^2), i.e. q <= p sqrt(max(pi - 1/2,
    4/3 (pi - 1/2 - 1/(2B)))): the integer below that limit, settled with the
    condition itself (the one :func:`_unimodal_bound` applies), so that a float
    rounding at the limit cannot let a q through that the bound then refuses.
    """
    if cutoff > 0.75:
        return p
    limit = p * math.sqrt(max(cutoff - 0.5, 4 / 3 * (cutoff - 0.5 - 1 / (2 * B))))
    q = min(p, math.floor(limit) + 1)
    while q >= 1 and cutoff < _unimodal_min_cutoff(q / p, B):
        q -= 1
    return q


def _unimodal_q(p: int, cutoff: float, PFER: float, B: int) -> float:
    """The largest integer q whose unimodal bound q^2 / (p K(pi, B)) is <= PFER.

    K does not depend on q, so the bound reaches PFER at q* = sqrt(PFER p K): q is
    floor(q*), or q_top (:func:`_unimodal_q_top`, the largest q in the bound's
    domain at this cutoff) when q* lies beyond it, since the bound increases with q.
    (stabs floors a numerical root of tolerance eps^(1/4) on [1, q_top] instead:
    where q* is an integer its answer is q* or q* - 1, and where q* > q_top it
    stops with an error, although q_top attains the PFER; e.g. p = 5 at its own
    example's cutoff 0.75 and PFER 1: q* = 2.21, q_top = 2, bound 0.816; see
    docs/stability_selection.md.)
    """
    if cutoff <= 0.75 and cutoff < 0.5 + 1 / (2 * B):
        raise ValueError(f"cutoff: must be >= 1/2 + 1/(2B) = {number(0.5 + 1 / (2 * B), 10)} "
                         f"to derive q under the unimodal bound; got {cutoff!r}")
    q_top = _unimodal_q_top(p, cutoff, B)
    if q_top < 1:
        raise ValueError(f"cutoff: {cutoff!r} is out of bounds for the unimodal bound "
                         f"with n_features={p}, B={B}: no q >= 1 is admissible")
    root = math.sqrt(PFER * p * float(_unimodal_denominator(cutoff, B)))
    if root < 1:
        raise ValueError(f"PFER: no q >= 1 attains PFER <= {PFER!r} with cutoff = "
                         f"{cutoff!r} under the unimodal bound (n_features={p}, "
                         f"n_subsamples={B}): the bound at q = 1 is "
                         f"{number(1 / p / float(_unimodal_denominator(cutoff, B)), 3)}")
    if root > q_top and cutoff > 0.75:
        # stabs's uniroot fails here too; the branch above 3/4 states no limit on q/p,
        # and q = p (every feature in every subsample) would make any bound below p false
        raise ValueError(f"PFER: {PFER!r} is above the unimodal bound of every q up to "
                         f"n_features={p} at cutoff = {cutoff!r} (q* = {number(root)}, "
                         f"n_subsamples={B}); ask for a smaller PFER or give q")
    return float(min(math.floor(root), q_top))


# ----------------------------------------------------------------------------------
# The r-concave bound
#
# Shah and Samworth (2013, sec. 3.3, Theorem 3): the bound is p times the largest
# upper-tail probability P(X >= t) over r-concave laws on {0, 1, ..., n} with mean
# mu. For r < 0 a law is r-concave when f^r is convex on its support. The extremal
# laws form a one-parameter family: for a > 0 and a support end k,
#
#     P(X = j) = c (a + j)^(1/r)  (j = 0..k),   P(X = k + 1) = 1 - c sum_j (a + j)^(1/r),
#
# with c fixed by E(X) = mu: c = (k + 1 - mu) / sum_{j<=k} (k + 1 - j) (a + j)^(1/r).
# Writing a_k for the a at which the pure power law on {0..k} has mean mu, the law is
# admissible (r-concave, P(X = k + 1) in [0, c (a + k + 1)^(1/r)]) for a in
# [a_{k+1}, a_k]: the pieces k = k0, ..., n - 1 join into one path from the power law
# on {0..k0} to the one on {0..n}. Its tail is 1 - c sum_{j<t} (a + j)^(1/r) for
# t <= k + 1 and 0 beyond.

# Grid points per piece of the path before the local refinement (log-spaced in a,
# both ends included); the dense-scan twin in tests/test_selection.py checks that
# this resolves every maximum of the pinned cases.
_PIECE_GRID = 33
# Golden-section steps refining each local maximum of the grid: the bracket (two grid
# cells, of log-width below 0.03 in a on the pinned cases) shrinks by 0.618 per step,
# to below 2e-8 after 30 steps; at an interior maximum, where the objective is
# quadratic, the value is then exact to rounding (a grid of 257 points and 70 steps
# change no pinned D by more than a relative 1.5e-12).
_GOLDEN_STEPS = 30
# Weights (a + j)^(1/r) held at once when evaluating the tails of many laws (16 MB).
_BLOCK = 2 ** 21


def _powers(base, s: float):
    """``base ** s`` for the exponents 1/r of the two terms, s = -2 and s = -4, by a
    reciprocal and squarings (several times faster than the general power; the
    difference is a rounding or two, far below the bisection's one-ulp resolution of
    the roots); any other s by the general power."""
    if s == -2 or s == -4:
        w = 1.0 / base
        w *= w
        if s == -4:
            w *= w
        return w
    return base ** s


@functools.lru_cache(maxsize=1024)
def _mean_matching_parameters(mu: float, first: int, n: int, s: float):
    """a_k for k = first..n: the a > 0 at which the power law on {0..k},
    P(X = j) proportional to (a + j)^s, has mean mu (needs 0 < mu < first/2).

    The mean increases from 0 (a -> 0) to k/2 (a -> infinity, the uniform law), so
    each root is bracketed on log a in [-60, 40] and the bracket shrunk, all k at
    once, to adjacent doubles: the resolution of the doubles. Returns the two ends of
    the final bracket, ``below`` (mean < mu) and ``above`` (mean >= mu): a piece
    [a_{k+1}, a_k] of the path is taken as [above_{k+1}, below_k], so that its laws
    are admissible.

    Shrinking: 12 halvings, then 8 steps of Newton's method on the mean, each also
    shrinking the bracket (a step leaving it is replaced by a halving), then a bracket
    of a few ulps around Newton's root, checked, and halved to adjacent doubles: about
    30 evaluations of the K x (n + 1) weights instead of the 80 halvings of plain
    bisection. Both end at adjacent doubles where the computed mean crosses mu (the
    computed mean is not exactly monotone at the last bits, so the two may end a few
    ulps apart, where the admissibility of a law is decided by rounding anyway).
    """
    support = np.arange(n + 1.0)
    inside = support <= np.arange(first, n + 1)[:, None]

    def weights(x, power):
        return np.where(inside, _powers(np.exp(x)[:, None] + support, power), 0.0)

    def low_mean(x):
        w = weights(x, s)
        return (w @ support) < mu * w.sum(axis=1)

    def halve(lo, hi, steps):
        for _ in range(steps):
            mid = 0.5 * (lo + hi)
            low = low_mean(mid)
            lo, hi = np.where(low, mid, lo), np.where(low, hi, mid)
        return lo, hi

    lo, hi = halve(np.full(n + 1 - first, -60.0), np.full(n + 1 - first, 40.0), 12)
    x = 0.5 * (lo + hi)
    for _ in range(8):        # Newton on m(x) - mu, m the mean, x = log a, in the bracket
        a = np.exp(x)
        w = weights(x, s)
        total, first_moment = w.sum(axis=1), w @ support
        low = first_moment < mu * total
        lo, hi = np.where(low, x, lo), np.where(low, hi, x)
        # dm/dx = s a Cov(j, 1/(a + j)) under the law, in two passes (no cancellation)
        law = w / total[:, None]
        mean = law @ support
        u = 1.0 / (a[:, None] + support)
        centred = np.where(inside, u - (law * u).sum(axis=1)[:, None], 0.0)
        slope = s * a * ((law * (support - mean[:, None])) * centred).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = x - (mean - mu) / slope
        x = np.where(np.isfinite(step) & (step >= lo) & (step <= hi), step, 0.5 * (lo + hi))
    width = 8 * np.spacing(np.maximum(np.abs(x), 1.0))
    near_lo, near_hi = np.maximum(x - width, lo), np.minimum(x + width, hi)
    good = low_mean(near_lo) & ~low_mean(near_hi)
    lo, hi = np.where(good, near_lo, lo), np.where(good, near_hi, hi)
    for _ in range(7):        # at most 80 halvings in all
        if np.all(np.nextafter(lo, hi) >= hi):
            break
        lo, hi = halve(lo, hi, 10)
    below, above = np.exp(lo), np.exp(hi)
    below.flags.writeable = above.flags.writeable = False      # shared by the cache
    return below, above


def _mean_matching_parameters_bisection(mu: float, first: int, n: int, s: float):
    """The same roots by 80 plain halvings of [-60, 40] (kept for the tests)."""
    support = np.arange(n + 1.0)
    inside = support <= np.arange(first, n + 1)[:, None]
    lo = np.full(n + 1 - first, -60.0)
    hi = np.full(n + 1 - first, 40.0)
    for _ in range(80):                        # width 100 / 2^80: below one ulp of log a
        mid = 0.5 * (lo + hi)
        w = np.where(inside, _powers(np.exp(mid)[:, None] + support, s), 0.0)
        low = (w @ support) < mu * w.sum(axis=1)
        lo, hi = np.where(low, mid, lo), np.where(low, hi, mid)
    return np.exp(lo), np.exp(hi)


def _extremal_tails(k: np.ndarray, mu: float, t: int, s: float):
    """The function a -> P(X >= t) of the extremal laws with support ends k (t <= k + 1).

    Computed as [sum_{t<=j<=k} (k + 1 - j) w_j + sum_{j<t} (mu - j) w_j] / sum_{j<=k}
    (k + 1 - j) w_j, w_j = (a + j)^s: the same as 1 - c sum_{j<t} w_j without its
    cancellation when the tail is small. ``a`` broadcasts against ``k``; the leading
    axis is evaluated in blocks of about ``_BLOCK`` weights, so that the temporaries
    stay small for large n.
    """
    k = np.asarray(k, dtype=np.float64)[..., None]
    support = np.arange(np.max(k) + 1.0)
    inside = support <= k
    top = np.where(support < t, mu - support, k + 1 - support) * inside
    bottom = (k + 1 - support) * inside

    def tails(a):
        nonlocal top, bottom
        a = np.asarray(a, dtype=np.float64)
        rows = a.shape[0] if a.ndim else 1
        per_row = max(1, a.size // max(rows, 1)) * support.size
        step = max(1, _BLOCK // per_row)
        if a.ndim == 0 or rows <= step:
            w = _powers(a[..., None] + support, s)
            return (w * top).sum(axis=-1) / (w * bottom).sum(axis=-1)
        top, bottom = (np.broadcast_to(x, (rows,) + x.shape[1:]) for x in (top, bottom))
        out = np.empty(a.shape)
        for start in range(0, rows, step):           # blocks of rows, not single values
            block = slice(start, start + step)
            w = _powers(a[block][..., None] + support, s)
            out[block] = ((w * top[block]).sum(axis=-1)
                          / (w * bottom[block]).sum(axis=-1))
        return out
    return tails


def _golden_maximise(f, lo: np.ndarray, hi: np.ndarray, steps: int):
    """Golden-section search for a maximum of ``f`` on each bracket [lo_i, hi_i].

    ``f`` maps an array of points (one per bracket) to their values. Each step keeps
    the part of the bracket holding the larger of the two inner values, shrinking it
    by (sqrt 5 - 1)/2 with one new evaluation per bracket. Returns the best inner
    point of every bracket and its value (the ends themselves are never evaluated).
    """
    golden = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - golden * (hi - lo), lo + golden * (hi - lo)
    f1, f2 = f(x1), f(x2)
    for _ in range(steps):
        left = f1 >= f2                                     # the maximum is in [lo, x2]
        hi, lo = np.where(left, x2, hi), np.where(left, lo, x1)
        x2, x1 = (np.where(left, x1, lo + golden * (hi - lo)),
                  np.where(left, hi - golden * (hi - lo), x2))
        fx = f(np.where(left, x1, x2))
        f2, f1 = np.where(left, f1, fx), np.where(left, fx, f2)
    return np.where(f1 >= f2, x1, x2), np.maximum(f1, f2)


@functools.lru_cache(maxsize=8192)
def _rconcave_extremal(theta: float, t: int, n: int, r: float) -> "tuple[float, float, int]":
    """D(theta, t, n, r) and the extremal law attaining it, as (D, a, k).

    X lives on {0..n} with mean mu = theta n; D is the largest P(X >= t) over the
    extremal path. Conventions of stabs 0.7.1: thresholds t <= ceil(2 mu) give the
    trivial bound 1 (returned with a = nan, k = -1); the path starts at
    k0 = ceil(2 mu) + 1. Pieces ending below t - 1 have tail 0 and are skipped.

    The maximum is taken to rounding, not to stabs's tolerance: every piece [a_{k+1}, a_k]
    is scanned on a log-spaced grid including both ends (maxima at the ends of a
    piece, frequent at the end a_n of the path, are thus evaluated exactly), and
    every local maximum of the grid is refined by golden-section search on the two
    cells around it, all pieces at once.
    """
    s = 1 / r
    mu = theta * n
    k0 = math.ceil(2 * mu) + 1
    if t < k0:
        return 1.0, math.nan, -1
    if k0 >= n:
        raise ValueError(f"q: too large for the r-concave bound: the mean {number(mu, 6)} of the "
                         f"selection count on 0..{n} leaves no extremal law")
    first = max(k0, t - 1)
    below, above = _mean_matching_parameters(mu, k0, n, s)
    pieces = np.arange(first, n)
    start, stop = above[first - k0 + 1:], below[first - k0:-1]   # piece k: [a_{k+1}, a_k]
    u = np.linspace(0.0, 1.0, _PIECE_GRID)
    grid = np.exp(np.log(start)[:, None] + u * np.log(stop / start)[:, None])
    grid[:, 0], grid[:, -1] = start, stop                   # the ends exactly
    values = _extremal_tails(pieces[:, None], mu, t, s)(grid)
    # local maxima of the grid on each piece (ends included), refined in log a
    padded = np.pad(values, ((0, 0), (1, 1)), constant_values=-np.inf)
    row, col = np.nonzero((values >= padded[:, :-2]) & (values >= padded[:, 2:]))
    lo = np.log(grid[row, np.maximum(col - 1, 0)])
    hi = np.log(grid[row, np.minimum(col + 1, _PIECE_GRID - 1)])
    ks = pieces[row]
    tails = _extremal_tails(ks, mu, t, s)
    refined, peaks = _golden_maximise(lambda x: tails(np.exp(x)), lo, hi, _GOLDEN_STEPS)
    candidates = np.concatenate([values.ravel(), peaks])
    params = np.concatenate([grid.ravel(), np.exp(refined)])
    supports = np.concatenate([np.repeat(pieces, _PIECE_GRID), ks])
    best = int(np.argmax(candidates))
    return max(0.0, float(candidates[best])), float(params[best]), int(supports[best])


def _rconcave_tail_bound(theta: float, t: int, n: int, r: float) -> float:
    """D(theta, t, n, r): the largest P(X >= t) over the extremal r-concave family."""
    return _rconcave_extremal(theta, t, n, r)[0]


def _rconcave_max_q(p: int, B: int) -> int:
    """The largest integer q for which the r-concave bound is defined.

    The q/p term's count lives on {0..2B} with mean 2Bq/p; its family needs
    ceil(4Bq/p) + 1 < 2B, i.e. 2Bq <= (B - 1) p.
    """
    return min(p, (B - 1) * p // (2 * B))


def _rconcave_terms(q: float, p: int, cutoff: float, B: int):
    """The arguments (theta, t, n, r) of the two D terms of the r-concave bound.

    Shah and Samworth (2013, Theorem 3): the simultaneous selection proportion over
    the B pairs (mean <= (q/p)^2, -1/2-concave) must reach 2 pi - 1, the proportion
    over the 2B subsamples (mean <= q/p, -1/4-concave) must reach pi. The count
    threshold 2B pi is rounded to 10 significant digits before its ceiling.
    """
    t = math.ceil(_significant(2 * B * cutoff, 10))
    return (q * q / (p * p), t - B, B, -0.5), (q / p, t, 2 * B, -0.25)


def _rconcave_bound(q: float, p: int, cutoff: float, B: int) -> float:
    """p min{1, D(q^2/p^2, 2B pi - B, B, -1/2), D(q/p, 2B pi, 2B, -1/4)}."""
    largest = _rconcave_max_q(p, B)
    if q > largest:
        raise ValueError(f"q: must be <= {largest} for the r-concave bound with "
                         f"n_features={p}, B={B}; got {q!r}")
    if q == 0:                                   # nothing is ever selected
        return 0.0
    pairs, singles = _rconcave_terms(q, p, cutoff, B)
    return min(1.0, _rconcave_tail_bound(*pairs), _rconcave_tail_bound(*singles)) * p


def _rconcave_above(q: float, p: int, cutoff: float, B: int, PFER: float) -> bool:
    """Whether the r-concave bound exceeds PFER, the cheaper pairs term (on {0..B})
    first: when p min{1, D_pairs} <= PFER already, so is the bound (rounding is
    monotone), and the singles term (on {0..2B}, four times the work) is not needed."""
    if 0 < q <= _rconcave_max_q(p, B):
        pairs, _ = _rconcave_terms(q, p, cutoff, B)
        if min(1.0, _rconcave_tail_bound(*pairs)) * p <= PFER:
            return False
    return _rconcave_bound(q, p, cutoff, B) > PFER


def _rconcave_cutoff(p: int, q: float, PFER: float, B: int) -> float:
    """The lowest cutoff j/(2B) > q/p from which on (upwards) the bound stays <= PFER;
    1 when already the bound at 1 exceeds PFER (the caller then warns).

    stabs walks the grid down from 1 and stops at the first cutoff whose bound exceeds
    PFER. The bound decreases as the cutoff grows (a larger threshold t, and D is a
    maximum of tails P(X >= t)), so that walk ends at the lowest grid cutoff whose bound
    is <= PFER: found here by bisection over the grid, O(log B) bounds instead of O(B)
    (the literal walk is the slow twin in tests/twins.py).
    """
    grid = np.arange(1, 2 * B + 1) / (2 * B)
    grid = grid[grid > q / p]
    if grid.size == 0:
        raise ValueError(f"q: q/p = {number(q / p, 6)} leaves no cutoff for the r-concave bound")
    if _rconcave_above(q, p, float(grid[-1]), B, PFER):
        return float(grid[-1])
    lo, hi = -1, grid.size - 1                 # bound(grid[hi]) <= PFER; grid[lo] unknown
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _rconcave_above(q, p, float(grid[mid]), B, PFER):
            lo = mid
        else:
            hi = mid
    return float(grid[hi])


def _rconcave_q(p: int, cutoff: float, PFER: float, B: int) -> float:
    """The largest q in 1..max_q up to which the bound stays <= PFER (at least 1: then
    the caller warns that the bound exceeds PFER).

    stabs walks q up from 1 and stops at the first q whose bound exceeds PFER. The bound
    grows with q (D is non-decreasing in the mean of X), so that walk ends at the
    largest q whose bound is <= PFER: found by bisection over 1..max_q, O(log p) bounds
    instead of O(q) (the literal walk is the slow twin in tests/twins.py). This is what
    keeps large p fast: at p = 10^5 the walk took minutes.
    """
    top = _rconcave_max_q(p, B)
    if top < 1:
        raise ValueError(f"n_features: {p} features leave no q >= 1 for the r-concave "
                         f"bound with B = {B} (q must be <= (B - 1) p / (2B))")
    if _rconcave_above(1, p, cutoff, B, PFER):
        return 1.0
    lo, hi = 1, top + 1                        # bound(lo) <= PFER; hi: beyond or above
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _rconcave_above(mid, p, cutoff, B, PFER):
            hi = mid
        else:
            lo = mid
    return float(lo)


def _bound(p, q, cutoff, B, assumption) -> float:
    """The PFER bound E(V) <= ... for given q and cutoff (before rounding)."""
    if assumption == "none":
        return _mb_bound(q, p, cutoff)
    if assumption == "unimodal":
        return _unimodal_bound(q, p, cutoff, B)
    return _rconcave_bound(q, p, cutoff, B)


_BOUND_NAMES = {"none": "Meinshausen and Buhlmann (2010) bound",
                "unimodal": "Shah and Samworth (2013) unimodal bound",
                "r-concave": "Shah and Samworth (2013) r-concave bound"}


@dataclasses.dataclass(frozen=True, repr=False)
class ErrorControl:
    """The error-control parameters of stability selection.

    ``repr`` is one line; ``str`` (and ``print``) show :meth:`summary`.

    Parameters
    ----------
    cutoff : float
        The threshold pi_thr.
    q : float
        The number of features selected per subsample.
    PFER : float
        The realised bound.
    specified_PFER : float
        The PFER asked for.
    n_features : int
        p, the number of features.
    n_subsamples : int
        B, the subsamples (complementary pairs for ``sampling="ss"``).
    sampling : str
        ``"ss"`` (complementary pairs) or ``"mb"`` (subsamples).
    assumption : str
        ``"none"``, ``"unimodal"`` or ``"r-concave"``.

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

    See Also
    --------
    propstab.selection.error_control : Computes it.
    propstab.StabilitySelection : Uses it to choose the stable features.

    References
    ----------
    Meinshausen, N., Buhlmann, P. (2010). Stability selection. JRSS B 72(4),
    417-473, Theorem 1 (the error bound without assumptions).
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80, secs 3.2 and 3.3
    (the bounds under unimodality and r-concavity).

    Examples
    --------
    >>> from propstab.error_control import error_control
    >>> ec = error_control(100, q=10, PFER=1, sampling="ss", assumption="unimodal")
    >>> ec
    ErrorControl(cutoff=0.76, q=10, PFER=0.98, n_features=100, n_subsamples=50, sampling='ss',
                 assumption='unimodal')
    >>> print(ec)
    Stability selection error control: Shah and Samworth (2013) unimodal bound
    cutoff        0.76 (threshold pi_thr on the selection probabilities)
    q             10 (features selected per subsample, on average)
    PFER bound    0.98 (specified_PFER 1, significance level 0.0098)
    features p    100
    subsamples B  50 complementary pairs (100 subsamples)
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
        return _significant(self.PFER / self.n_features, 3)

    def __repr__(self) -> str:
        return call_repr("ErrorControl", cutoff=self.cutoff, q=self.q, PFER=self.PFER,
                         n_features=self.n_features, n_subsamples=self.n_subsamples,
                         sampling=self.sampling, assumption=self.assumption)

    def __str__(self) -> str:
        return str(self.summary())          # a plain str, not the Summary subclass

    def summary(self) -> Summary:
        """A few lines: the bound used, cutoff, q, the PFER bound, p and B.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        B = self.n_subsamples
        subsamples = (f"{B} complementary pairs ({2 * B} subsamples)" if self.sampling == "ss"
                      else f"{B} subsamples")
        rows = [("cutoff", f"{number(self.cutoff)} (threshold pi_thr on the selection "
                           f"probabilities)"),
                ("q", f"{number(self.q)} (features selected per subsample, on average)"),
                ("PFER bound", f"{number(self.PFER)} (specified_PFER "
                               f"{number(self.specified_PFER)}, significance level "
                               f"{number(self.significance_level)})"),
                ("features p", str(self.n_features)),
                ("subsamples B", subsamples)]
        return summary(f"Stability selection error control: {_BOUND_NAMES[self.assumption]}",
                       rows)


def resolve_assumption(sampling, assumption) -> str:
    """The bound's assumption for a sampling scheme, validated; None gives the default
    (``"none"`` for ``"mb"``, ``"unimodal"`` for ``"ss"``)."""
    check_choice("sampling", sampling, SAMPLINGS)
    if assumption is None:
        return "none" if sampling == "mb" else "unimodal"
    check_choice("assumption", assumption, ASSUMPTIONS)
    if sampling == "mb" and assumption != "none":
        raise ValueError(f"assumption: the Meinshausen-Buhlmann bound (sampling='mb') takes "
                         f"no assumption, use assumption='none' with it; got {assumption!r}")
    return assumption


def default_n_subsamples(sampling) -> int:
    """B by default, as stabs (``B = ifelse(sampling.type == "MB", 100, 50)``): 50
    complementary pairs for ``"ss"``, 100 subsamples for ``"mb"``.

    >>> from propstab.error_control import default_n_subsamples
    >>> default_n_subsamples("ss"), default_n_subsamples("mb")
    (50, 100)
    """
    check_choice("sampling", sampling, SAMPLINGS)
    return 50 if sampling == "ss" else 100


def error_control(n_features, *, cutoff=None, q=None, PFER=None, sampling="ss",
                  assumption=None, n_subsamples=None) -> ErrorControl:
    r"""The cutoff, q and PFER bound of stability selection, given two of them.

    Parameters
    ----------
    n_features : int
        p, the number of features.
    cutoff : float, optional
        The threshold pi_thr on the selection probabilities, in (1/2, 1]
        (in (0, 1] and above q/p for the r-concave bound).
    q : float, optional
        The expected number of features selected per subsample, 0 < q <= p.
    PFER : float, optional
        The upper bound asked for the per-family error rate E(V), V the number
        of falsely selected (noise or low-probability) features, 0 < PFER < p.
    sampling : {"ss", "mb"}, default "ss"
        ``"mb"``: Meinshausen and Buhlmann's subsampling; ``"ss"``: Shah and
        Samworth's complementary pairs.
    assumption : {"unimodal", "r-concave", "none"}, optional
        The assumption of Shah and Samworth's improved bound; default
        ``"unimodal"`` for ``sampling="ss"`` and ``"none"`` (the only one
        allowed) for ``"mb"``. ``"none"`` with ``"ss"`` gives the MB bound.
    n_subsamples : int, optional
        B as in stabs: the number of complementary pairs for ``"ss"`` (2B
        subsample fits), the number of subsamples for ``"mb"`` (the MB bound
        does not depend on it); at most 10^6, and 100 for the r-concave bound.
        Default, as stabs: 50 for ``"ss"``, 100 for ``"mb"``.

    Returns
    -------
    ErrorControl
        All three parameters and the realised bound ``PFER`` (3 significant digits).

    Raises
    ------
    ValueError, TypeError
        Not exactly two of cutoff, q, PFER; values out of range; a combination
        outside the domain of the chosen bound (see Notes).

    Warns
    -----
    PFERExceededWarning
        No cutoff up to 1 attains the PFER asked for with the given q: the cutoff
        is 1 and ``PFER`` reports the (larger) realised bound.

    See Also
    --------
    propstab.StabilitySelection : Stability selection with these parameters.
    propstab.selection.ErrorControl : The result.

    Notes
    -----
    The bounds (p features, B = ``n_subsamples``, pi = cutoff):

    - no assumption (Meinshausen and Buhlmann 2010, Theorem 1):

      .. math:: E(V) \le \frac{q^2}{(2\pi - 1) p};

      given q and PFER, :math:`\pi = \min(1, (q^2/(\mathrm{PFER}\,p) + 1)/2)`;
      given the cutoff and PFER, :math:`q = \lfloor\sqrt{\mathrm{PFER}(2\pi-1)p}\rfloor`.
    - unimodal (Shah and Samworth 2013, sec. 3.2):
      :math:`E(V) \le q^2 / (p\, K(\pi, B))` with
      :math:`K = 2(2\pi - 1 - 1/(2B))` for :math:`\pi \le 3/4` (valid from
      :math:`\pi \ge 1/2 + \min(q^2/p^2, 1/(2B) + 3q^2/(4p^2))`) and
      :math:`K = (1 + 1/B) / (4(1 - \pi + 1/(2B)))` above; the cutoff is the
      first grid value :math:`1/2 + j/(2B)` whose bound is below PFER, q the
      largest integer with bound <= PFER.
    - r-concave (Shah and Samworth 2013, sec. 3.3, Theorem 3):
      :math:`E(V) \le p \min\{1, D(q^2/p^2, 2B\pi - B, B, -1/2),
      D(q/p, 2B\pi, 2B, -1/4)\}`, D(theta, t, n, r) the largest P(X >= t) over
      r-concave laws on {0..n} with mean theta n, the maximum over the
      one-parameter extremal family, taken to rounding (see
      docs/stability_selection.md). The cutoff is searched downwards on j/(2B),
      q upwards on 1, 2, ...

    The domain (docs/stability_selection.md): p >= 1; 2 <= B <= 10^6 (<= 100 for
    the r-concave bound); cutoff in (1/2, 1] ((0, 1] and above q/p for the
    r-concave bound; above 1/2 + 1/(4B) for the unimodal bound below 3/4, where
    its constant K is positive); q in (0, p]; PFER in (0, p). A derived q must be
    >= 1. When no cutoff up to 1 attains the PFER (MB and r-concave), the cutoff
    is 1 and :class:`PFERExceededWarning` says that the realised bound exceeds it.
    The r-concave q and cutoff are found by bisection (the bound is monotone in
    both): O(log p) evaluations of D, each O(B^2), so p up to 10^7 takes well
    under a second at B = 50.

    Checked against ``stabs::stabsel_parameters`` (stabs 0.7.1) on 1128 pinned
    cases (tests/test_selection.py): 78 of stabs's 90 errors raise, 931 of the 1038
    other cases agree bit for bit. The other 119 are documented differences
    (r_compat/stabs_expected_differences.json): in 61 r-concave cases stabs's
    numerical maximisation stops short of the maximum, so its bound is lower
    (by up to 4.9 % on the pinned grid, 61.8 % on a wider one) than the supremum
    it defines, which propstab returns; in 9 unimodal cases the exact q* is an
    integer and stabs's numerical root lands on q* - 1, propstab returns q*; in
    37 cases without assumption the input lies outside the domain (cutoff 1/2, a
    derived q of 0, PFER >= p), where stabs returns a value and propstab raises;
    in 12 unimodal cases q* lies beyond the bound's domain, stabs stops with an
    error and propstab returns the largest admissible q (its bound is below the
    PFER), as for StabilitySelection's defaults on 5 features (q = 2, PFER 0.816).

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
    >>> from propstab.error_control import error_control
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
    assumption = resolve_assumption(sampling, assumption)
    if n_subsamples is None:
        n_subsamples = default_n_subsamples(sampling)
    B = check_int_range("n_subsamples", n_subsamples, minimum=2,
                        maximum=RCONCAVE_MAX_B if assumption == "r-concave" else MAX_B,
                        owner="the r-concave bound" if assumption == "r-concave" else "")
    given = [name for name, v in (("cutoff", cutoff), ("q", q), ("PFER", PFER)) if v is not None]
    if len(given) != 2:
        raise ValueError(f"error_control: exactly two of cutoff, q and PFER must be given; "
                         f"got {', '.join(given) if given else 'none'}")
    if PFER is not None:
        PFER = _check_pfer(PFER, p)
    if cutoff is not None:
        cutoff = _check_cutoff(cutoff, assumption, B)
    if q is not None:
        q = check_real_range("q", q, low=0.0, high=float(p), low_open=True)

    if cutoff is None:
        if assumption == "none":
            cutoff = min(1.0, (q * q / (PFER * p) + 1) / 2)
        elif assumption == "unimodal":
            cutoff = _unimodal_cutoff(p, q, PFER, B)
        else:
            cutoff = _rconcave_cutoff(p, q, PFER, B)
    elif q is None:
        if assumption == "none":
            q = float(math.floor(math.sqrt(PFER * (2 * cutoff - 1) * p)))
        elif assumption == "unimodal":
            q = _unimodal_q(p, cutoff, PFER, B)
        else:
            q = _rconcave_q(p, cutoff, PFER, B)
        if q < 1 or _bound(p, 1.0, cutoff, B, assumption) > PFER:
            raise ValueError(f"PFER: no q >= 1 attains PFER <= {PFER!r} with cutoff = "
                             f"{cutoff!r} under the {_BOUND_NAMES[assumption]} (n_features="
                             f"{p}, n_subsamples={B}): the bound at q = 1 is "
                             f"{_bound(p, 1.0, cutoff, B, assumption):.3g}")
    if "cutoff" in given and assumption == "r-concave" and cutoff <= q / p:
        raise ValueError(f"cutoff: must be larger than q/p = {number(q / p, 6)} for the r-concave "
                         f"bound; got {cutoff!r}")
    bound = _bound(p, q, cutoff, B, assumption)
    if PFER is not None and bound > PFER * (1 + 1e-12):
        # only a derived cutoff can get here: no cutoff up to 1 attains PFER with this q
        warn(f"error_control: no cutoff up to 1 attains PFER <= {PFER!r} with q = "
             f"{number(q)} (n_features={p}); at cutoff {number(cutoff)} the "
             f"{_BOUND_NAMES[assumption]} is {_significant(bound, 3)!r}, above the PFER "
             f"asked for", PFERExceededWarning)
    specified = bound if PFER is None else PFER
    return ErrorControl(cutoff=float(cutoff), q=float(q), PFER=_significant(bound, 3),
                        specified_PFER=float(specified), n_features=p, n_subsamples=B,
                        sampling=sampling, assumption=assumption)


def _check_pfer(PFER, p: int) -> float:
    """PFER in (0, p): E(V) <= p holds without stability selection, so a PFER of p or
    more asks for nothing (stabs accepts it, and then derives q > p)."""
    PFER = check_real_range("PFER", PFER, low=0.0, low_open=True)
    if PFER >= p:
        raise ValueError(f"PFER: must be below n_features = {p} (E(V) <= p holds for any "
                         f"selection, so a PFER of p or more bounds nothing); got {PFER!r}")
    return PFER


def _check_cutoff(cutoff, assumption: str, B: int) -> float:
    """The cutoff's range: (1/2, 1] (the MB bound is infinite at 1/2), (0, 1] for the
    r-concave bound, and above 1/2 + 1/(4B) for the unimodal one below 3/4, where its
    constant K(pi, B) = 2 (2 pi - 1 - 1/(2B)) is positive."""
    if assumption == "r-concave":
        return check_real_range("cutoff", cutoff, low=0.0, high=1.0, low_open=True)
    cutoff = check_real_range("cutoff", cutoff, low=0.5, high=1.0, low_open=True)
    if assumption == "unimodal" and cutoff <= 0.5 + 1 / (4 * B):
        raise ValueError(f"cutoff: must be > 1/2 + 1/(4B) = {number(0.5 + 1 / (4 * B), 10)} "
                         f"for the unimodal bound with n_subsamples={B} (below it the constant "
                         f"2 (2 pi - 1 - 1/(2B)) is <= 0 and the bound negative or "
                         f"infinite); got {cutoff!r}")
    return cutoff
