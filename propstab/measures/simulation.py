"""Null expectations of the correlated family's scores: exact, or by seeded simulation.

stabm's per-pair correction for chance (I - E[I|H0]) / (max - E[I|H0])
(:func:`stabm_measure`), with E exact where a closed form exists (Yu, Zucknick,
POGR: sums over the hypergeometric intersection and the degrees of the similarity
graph) and otherwise simulated from seeded random pairs of subsets, with the Monte
Carlo error propagated to the value (:class:`MonteCarloWarning`).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import sparse

from .. import chance
from .._utils.exceptions import PropstabWarning, warn
from .._utils.checks import check_int_range
from .._utils.exceptions import undefined
from ._common import FifoMemo
from .matching import (
    DENSE_CELLS,
    Graph,
    as_csr,
    pair_rows,
    pogr_parts,
    score_yu,
    score_zucknick,
    upper_pairs,
    workform,
)


def hypergeometric(d, a, b):
    """Support r and P(|F_1 ∩ F_2| = r) for random subsets of sizes a, b of d features."""
    from scipy import stats  # (imported on first use: 0.4 s)

    r = np.arange(min(a, b) + 1)
    return r, stats.hypergeom.pmf(r, d, a, b)


def expected_yu(a, b, d, g):
    """E[r + (O_12 + O_21)/2 | H0], exactly.

    Given r, F_1 minus F_2 is a uniform (a - r)-subset, and for x in it, F_2 minus F_1
    is a uniform (b - r)-subset of the other d - 1 features, which misses all g_x
    neighbours of x with probability hypergeom(d - 1, g_x, b - r) at 0.
    """
    from scipy import stats  # (imported on first use: 0.4 s)

    r, h = hypergeometric(d, a, b)
    deg, cnt = np.unique(g.degree, return_counts=True)

    def e_o(a_, b_):
        if d == 1:  # no other feature: O = 0
            return 0.0
        draws = np.minimum(b_ - r, d - 1)[:, None]  # b - r <= d - 1 wherever a - r > 0
        miss = stats.hypergeom.pmf(0, d - 1, deg[None, :], draws)
        hit = (cnt[None, :] * (1.0 - miss)).sum(axis=1)
        return float(np.sum(h * (a_ - r) / d * hit))

    return a * b / d + (e_o(a, b) + e_o(b, a)) / 2


def expected_zucknick(a, b, d, g):
    """E[(r + add_1 + add_2) / |F_1 ∪ F_2| | H0], exactly (sum over the hypergeometric r).

    Given r, the (b - r) a ordered pairs (x in F_2 minus F_1, y in F_1) are uniform
    pairs of distinct features, so E[add_1 | r] = (b - r) a c̄ / b with c̄ the mean
    off-diagonal thresholded similarity.
    """
    if a + b == 0:
        return math.nan
    r, h = hypergeometric(d, a, b)
    add = (
        np.where(b > 0, (b - r) * a / max(b, 1), 0.0)
        + np.where(a > 0, (a - r) * b / max(a, 1), 0.0)
    ) * g.mean_off
    return float(np.sum(h * (r + add) / (a + b - r)))


def random_subsets(rng, sizes, d):
    """One uniformly random subset of [d] per entry of ``sizes``, as a csr matrix.

    Small subsets (size^2 <= d) are drawn with replacement and the rows with a repeated
    feature drawn again (rejection keeps them uniform); larger ones take the smallest
    of d random keys, in chunks of rows of one size.
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    n = sizes.size
    rows = [np.zeros(0, np.int64)]
    cols = [np.zeros(0, np.int64)]
    small = (sizes > 0) & (sizes * sizes <= d)
    for s in np.unique(sizes[small]).tolist():  # loop over distinct sizes
        todo = np.flatnonzero(sizes == s)
        while todo.size:  # rejection of repeated features
            draw = np.sort(rng.integers(0, d, size=(todo.size, s)), axis=1)
            bad = (
                np.any(draw[:, 1:] == draw[:, :-1], axis=1) if s > 1 else np.zeros(todo.size, bool)
            )
            rows.append(np.repeat(todo[~bad], s))
            cols.append(draw[~bad].ravel())
            todo = todo[bad]
    for s in np.unique(sizes[(sizes > 0) & ~small]).tolist():
        idx_rows = np.flatnonzero(sizes == s)
        chunk = max(1, 4_000_000 // d)
        for c0 in range(0, idx_rows.size, chunk):  # bounded memory
            part = idx_rows[c0 : c0 + chunk]
            pick = np.argpartition(rng.random((part.size, d)), s - 1, axis=1)[:, :s]
            rows.append(np.repeat(part, s))
            cols.append(pick.ravel())
    r, c = np.concatenate(rows), np.concatenate(cols)
    Z = sparse.csr_matrix((np.ones(r.size), (r, c)), shape=(n, d))
    Z.sort_indices()
    return Z


SIM_ROWS = 200_000  # simulated pairs scored per batch


def simulated(score, sizes, d, g, n, rng):
    """Monte Carlo E[I | H0] and its standard error for each row (a, b) of ``sizes``.

    n random pairs of subsets per pair of sizes, all pairs of sizes scored in batches.
    """
    U = len(sizes)
    mean, se = np.empty(U), np.empty(U)
    per = max(1, SIM_ROWS // n)
    for u0 in range(0, U, per):  # batches of pairs of sizes
        block = sizes[u0 : u0 + per]
        group = np.repeat(np.arange(len(block)), n)
        vals = score(
            workform(random_subsets(rng, np.repeat(block[:, 0], n), d)),
            workform(random_subsets(rng, np.repeat(block[:, 1], n), d)),
            g,
        )
        m = np.bincount(group, weights=vals) / n
        var = np.bincount(group, weights=(vals - m[group]) ** 2) / max(n - 1, 1)
        mean[u0 : u0 + len(block)] = m
        se[u0 : u0 + len(block)] = np.sqrt(var / n) if n > 1 else np.inf
    return mean, se


#: simulated(...) by its arguments' content (see :func:`simulated_once`), oldest dropped
_SIMULATED = FifoMemo(512)


def simulated_once(score, sizes, d, g, n, random_state):
    """:func:`simulated` with a generator seeded by ``random_state``, memoised.

    The simulation is a function of the score, the pairs of sizes, d, the thresholded
    similarity (its weights ``g.C0``; ``g.B``, the degrees and the mean are read off
    them), n and the seed: a selection with the same sizes over the same similarity
    (the audit's exact enumeration of every tuple of subsets) reuses it, the same
    numbers, instead of simulating them again.
    """
    C0 = g.C0
    key = (
        score,
        sizes.dtype.str,
        sizes.shape,
        sizes.tobytes(),
        int(d),
        C0.shape,
        C0.data.tobytes(),
        C0.indices.tobytes(),
        C0.indptr.tobytes(),
        int(n),
        int(random_state),
    )
    hit = _SIMULATED.get_or_make(
        key, lambda: simulated(score, sizes, d, g, n, np.random.default_rng(random_state))
    )
    return hit[0].copy(), hit[1].copy()


class MonteCarloWarning(PropstabWarning, RuntimeWarning):
    """The simulated correction for chance has a non-negligible Monte Carlo error."""


MC_TOLERANCE = 0.005


def stabm_measure(
    name,
    sel,
    score,
    maximum,
    *,
    similarity,
    threshold,
    correction,
    n_simulations,
    random_state,
    exact=None,
    pairs=False,
):
    """stabm's mean over pairs i < j of I or of (I - E[I|H0]) / (max - E[I|H0]).

    With ``pairs=True`` the pair scores themselves (the M(M-1)/2 pairs i < j in the order
    of :func:`~propstab.measures.matching.upper_pairs`), NaN where a pair's score is
    undefined (both runs empty, or a corrected score 0/0): stabm's ``scores`` before its
    ``impute.na`` and mean, where the value is undefined as soon as one pair is.
    """
    check_int_range("random_state", random_state, minimum=0, owner=name)
    g = Graph.build(sel, similarity, threshold)
    ii, jj = upper_pairs(sel.n_runs)
    if not sel.is_sparse and ii.size * sel.n_features <= DENSE_CELLS:
        Z = sel.toarray()  # the dense 0/1 rows workform would give
        I = score(Z[ii].astype(np.float64), Z[jj].astype(np.float64), g)
    else:
        Z1, Z2 = pair_rows(as_csr(sel.tocsr()), ii, jj)
        I = score(workform(Z1), workform(Z2), g)
    k = sel.row_sizes
    a, b = k[ii], k[jj]
    empty = ~np.isfinite(I) | ((a + b == 0) if score is score_yu else False)
    if np.any(empty):
        if not pairs:
            return undefined(name, "two runs are both empty")
        I = np.where(empty, np.nan, I)
    if correction == "none":
        return I if pairs else float(np.mean(I))
    d = sel.n_features
    # every score here is symmetric in distribution under H0: one expectation per
    # unordered pair of sizes
    # (the rows of np.unique(pair sizes, axis=0), in its order, from one integer code each)
    codes, inverse = np.unique(np.minimum(a, b) * (d + 1) + np.maximum(a, b), return_inverse=True)
    sizes = np.stack([codes // (d + 1), codes % (d + 1)], axis=1)
    inverse = inverse.ravel()
    E = np.empty(len(sizes))
    se = np.zeros(len(sizes))
    if correction == "exact" and getattr(exact, "batched", False):
        E[:] = exact(sizes, d, g)  # all pairs of sizes at once
    elif correction == "exact":
        E[:] = [exact(sa, sb, d, g) for sa, sb in sizes.tolist()]  # distinct pairs of sizes
    elif g.B.nnz == 0 and score is not score_zucknick:
        E[:] = sizes[:, 0] * sizes[:, 1] / d  # no similar pairs: I = r
    else:
        E, se = simulated_once(score, sizes, d, g, n_simulations, random_state)
    Ep = E[inverse]
    # both runs empty or full: the pair is determined under H0, E = I exactly (an
    # integer test, chance.degenerate_intersection of each run with itself)
    determined = chance.degenerate_intersection(a, a, d) & chance.degenerate_intersection(b, b, d)
    Ep = np.where(determined, I, Ep)
    mx = maximum(a.astype(np.float64), b.astype(np.float64))
    den = mx - Ep
    if not pairs and not np.all(np.isfinite(den)):
        return undefined(name, "a pair's null expectation is undefined")
    # elsewhere the similarity graph itself can make I = max for every pair of subsets
    # of the sizes (a complete graph), which only a relative tolerance detects here
    with np.errstate(invalid="ignore"):
        zero = np.where(determined, den == 0, np.abs(den) <= 1e-12 * np.maximum(mx, 1.0))
    if not pairs and np.any(zero):
        return undefined(
            name, "a pair's null expectation equals its maximum, so the " "corrected score is 0/0"
        )
    bad = zero | ~np.isfinite(den) | ~np.isfinite(I)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.where(bad, np.nan, (I - Ep) / np.where(bad, 1.0, den))
    value = float(np.nanmean(values)) if not np.all(bad) else math.nan
    if correction == "estimate" and not np.all(bad):
        with np.errstate(divide="ignore", invalid="ignore"):
            slope = np.where(bad, 0.0, (I - mx) / np.where(bad, 1.0, den) ** 2 / I.size)
        err = math.sqrt(float(np.sum(np.bincount(inverse, weights=slope) ** 2 * se**2)))
        if err > MC_TOLERANCE:
            warn(
                f"{name}: the simulated correction for chance leaves a Monte Carlo "
                f"standard error of about {err:.3g} on the value {value:.4f}; "
                f"increase n_simulations (now {n_simulations})",
                MonteCarloWarning,
            )
    return values if pairs else value


def expected_pogr(k, d, g):
    """E[|F_i ∩ F_j| + O_ij | H0] for all ordered pairs of sizes (exact).

    P(x in F_i) = k_i / d and, independently, P(x not in F_j, a neighbour of x in F_j) =
    (d - k_j)/d - C(d - 1 - g_x, k_j) / C(d, k_j).
    """
    from scipy import stats  # (imported on first use: 0.4 s)

    sizes, inverse = np.unique(k, return_inverse=True)
    deg, cnt = np.unique(g.degree, return_counts=True)
    avoid = stats.hypergeom.pmf(0, d, deg[None, :] + 1, sizes[:, None])  # (U, degrees)
    hit = (d - sizes) / d * cnt.sum() - (cnt[None, :] * avoid).sum(axis=1)  # per k_j
    Ea = sizes[:, None] * sizes[None, :] / d + sizes[:, None] / d * hit[None, :]
    inverse = inverse.ravel()
    return Ea[np.ix_(inverse, inverse)]


def npogr_parts(sel, similarity, threshold):
    """The M x M numerator and denominator of nPOGR's ordered pairs: r + O - E and
    k_i - E, with E the exact E[r + O | H0] (:func:`expected_pogr`); a denominator
    within rounding of 0 is 0 (the pair is then undefined)."""
    r, O, g = pogr_parts(sel, similarity, threshold)
    k = sel.row_sizes
    E = expected_pogr(k, sel.n_features, g)
    den = k[:, None].astype(np.float64) - E
    den = np.where(np.abs(den) <= 1e-12 * np.maximum(1.0, k[:, None]), 0.0, den)
    return r + O - E, den
