"""The r-concave PFER bound of stability selection (Shah and Samworth 2013, sec. 3.3,
Theorem 3): the largest upper-tail probability over r-concave laws with a given mean,
by the path of extremal laws, and its inversions for q and the cutoff.
:mod:`propstab.error_control` states the bounds and their domain; this module computes
this one."""
from __future__ import annotations

import functools
import math

import numpy as np

from .._utils.checks import fail
from .._utils.text import number, significant

__all__ = [
    "rconcave_bound",
    "rconcave_cutoff",
    "rconcave_extremal",
    "rconcave_max_q",
    "rconcave_q",
    "rconcave_tail_bound",
    "rconcave_terms",
]

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
_BLOCK = 2**21


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
    return base**s


@functools.lru_cache(maxsize=1024)
def mean_matching_parameters(mu: float, first: int, n: int, s: float):
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
    for _ in range(8):  # Newton on m(x) - mu, m the mean, x = log a, in the bracket
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
    for _ in range(7):  # at most 80 halvings in all
        if np.all(np.nextafter(lo, hi) >= hi):
            break
        lo, hi = halve(lo, hi, 10)
    below, above = np.exp(lo), np.exp(hi)
    below.flags.writeable = above.flags.writeable = False  # shared by the cache
    return below, above


def mean_matching_parameters_bisection(mu: float, first: int, n: int, s: float):
    """The same roots by 80 plain halvings of [-60, 40] (kept for the tests)."""
    support = np.arange(n + 1.0)
    inside = support <= np.arange(first, n + 1)[:, None]
    lo = np.full(n + 1 - first, -60.0)
    hi = np.full(n + 1 - first, 40.0)
    for _ in range(80):  # width 100 / 2^80: below one ulp of log a
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
        for start in range(0, rows, step):  # blocks of rows, not single values
            block = slice(start, start + step)
            w = _powers(a[block][..., None] + support, s)
            out[block] = (w * top[block]).sum(axis=-1) / (w * bottom[block]).sum(axis=-1)
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
        left = f1 >= f2  # the maximum is in [lo, x2]
        hi, lo = np.where(left, x2, hi), np.where(left, lo, x1)
        x2, x1 = (
            np.where(left, x1, lo + golden * (hi - lo)),
            np.where(left, hi - golden * (hi - lo), x2),
        )
        fx = f(np.where(left, x1, x2))
        f2, f1 = np.where(left, f1, fx), np.where(left, fx, f2)
    return np.where(f1 >= f2, x1, x2), np.maximum(f1, f2)


@functools.lru_cache(maxsize=8192)
def rconcave_extremal(theta: float, t: int, n: int, r: float) -> "tuple[float, float, int]":
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
        fail(
            f"q: too large for the r-concave bound: the mean {number(mu, 6)} of the "
            f"selection count on 0..{n} leaves no extremal law"
        )
    first = max(k0, t - 1)
    below, above = mean_matching_parameters(mu, k0, n, s)
    pieces = np.arange(first, n)
    start, stop = above[first - k0 + 1 :], below[first - k0 : -1]  # piece k: [a_{k+1}, a_k]
    u = np.linspace(0.0, 1.0, _PIECE_GRID)
    grid = np.exp(np.log(start)[:, None] + u * np.log(stop / start)[:, None])
    grid[:, 0], grid[:, -1] = start, stop  # the ends exactly
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


def rconcave_tail_bound(theta: float, t: int, n: int, r: float) -> float:
    """D(theta, t, n, r): the largest P(X >= t) over the extremal r-concave family."""
    return rconcave_extremal(theta, t, n, r)[0]


def rconcave_max_q(p: int, B: int) -> int:
    """The largest integer q for which the r-concave bound is defined.

    The q/p term's count lives on {0..2B} with mean 2Bq/p; its family needs
    ceil(4Bq/p) + 1 < 2B, i.e. 2Bq <= (B - 1) p.
    """
    return min(p, (B - 1) * p // (2 * B))


def rconcave_terms(q: float, p: int, cutoff: float, B: int):
    """The arguments (theta, t, n, r) of the two D terms of the r-concave bound.

    Shah and Samworth (2013, Theorem 3): the simultaneous selection proportion over
    the B pairs (mean <= (q/p)^2, -1/2-concave) must reach 2 pi - 1, the proportion
    over the 2B subsamples (mean <= q/p, -1/4-concave) must reach pi. The count
    threshold 2B pi is rounded to 10 significant digits before its ceiling.
    """
    t = math.ceil(significant(2 * B * cutoff, 10))
    return (q * q / (p * p), t - B, B, -0.5), (q / p, t, 2 * B, -0.25)


def rconcave_bound(q: float, p: int, cutoff: float, B: int) -> float:
    """p min{1, D(q^2/p^2, 2B pi - B, B, -1/2), D(q/p, 2B pi, 2B, -1/4)}."""
    largest = rconcave_max_q(p, B)
    if q > largest:
        fail(
            f"q: must be <= {largest} for the r-concave bound with "
            f"n_features={p}, B={B}; got {q!r}"
        )
    if q == 0:  # nothing is ever selected
        return 0.0
    pairs, singles = rconcave_terms(q, p, cutoff, B)
    return min(1.0, rconcave_tail_bound(*pairs), rconcave_tail_bound(*singles)) * p


def rconcave_above(q: float, p: int, cutoff: float, B: int, PFER: float) -> bool:
    """Whether the r-concave bound exceeds PFER, the cheaper pairs term (on {0..B})
    first: when p min{1, D_pairs} <= PFER already, so is the bound (rounding is
    monotone), and the singles term (on {0..2B}, four times the work) is not needed."""
    if 0 < q <= rconcave_max_q(p, B):
        pairs, _ = rconcave_terms(q, p, cutoff, B)
        if min(1.0, rconcave_tail_bound(*pairs)) * p <= PFER:
            return False
    return rconcave_bound(q, p, cutoff, B) > PFER


def rconcave_cutoff(p: int, q: float, PFER: float, B: int) -> float:
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
        fail(f"q: q/p = {number(q / p, 6)} leaves no cutoff for the r-concave bound")
    if rconcave_above(q, p, float(grid[-1]), B, PFER):
        return float(grid[-1])
    lo, hi = -1, grid.size - 1  # bound(grid[hi]) <= PFER; grid[lo] unknown
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if rconcave_above(q, p, float(grid[mid]), B, PFER):
            lo = mid
        else:
            hi = mid
    return float(grid[hi])


def rconcave_q(p: int, cutoff: float, PFER: float, B: int) -> float:
    """The largest q in 1..max_q up to which the bound stays <= PFER (at least 1: then
    the caller warns that the bound exceeds PFER).

    stabs walks q up from 1 and stops at the first q whose bound exceeds PFER. The bound
    grows with q (D is non-decreasing in the mean of X), so that walk ends at the
    largest q whose bound is <= PFER: found by bisection over 1..max_q, O(log p) bounds
    instead of O(q) (the literal walk is the slow twin in tests/twins.py). This is what
    keeps large p fast: at p = 10^5 the walk took minutes.
    """
    top = rconcave_max_q(p, B)
    if top < 1:
        fail(
            f"n_features: {p} features leave no q >= 1 for the r-concave "
            f"bound with B = {B} (q must be <= (B - 1) p / (2B))"
        )
    if rconcave_above(1, p, cutoff, B, PFER):
        return 1.0
    lo, hi = 1, top + 1  # bound(lo) <= PFER; hi: beyond or above
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if rconcave_above(mid, p, cutoff, B, PFER):
            hi = mid
        else:
            lo = mid
    return float(lo)
