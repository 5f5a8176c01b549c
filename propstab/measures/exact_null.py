"""Exact null expectations of stabm's adjusted intersections (count, mean, greedy, MBM).

The score of a pair of runs (A, B) is I = |A ∩ B| + adj(A minus B, B minus A), where
adj depends only on the similar pairs of features between the two differences
(:mod:`propstab.measures.matching`). Under H0, A and B are independent uniformly random
subsets of sizes a and b of the d features (thesis Definition 2), and

- E|A ∩ B| = a b / d;
- a similar pair never joins two connected components of the similarity graph, so adj
  decomposes over them: the greedy and the maximum matchings are sums of per-component
  matchings, and count and mean are min(X_12, X_21) of two sums over components;
- a feature with no similar partner never enters adj.

Restricted to a component c of n_c features, the differences are a pair of disjoint
subsets (D_1, D_2) of c, and the pairs (A ∩ c, B ∩ c) giving them with |A ∩ c| = |D_1| + t
and |B ∩ c| = |D_2| + t number C(n_c - |D_1| - |D_2|, t) (the common part T). So

- for the matchings, E[adj] = sum_c sum_{D_1, D_2} P_c(|D_1|, |D_2|) adj_c(D_1, D_2), with
  P_c(i, j) = sum_t C(n_c - i - j, t) h_a(i + t) h_b(j + t) and
  h_a(s) = C(d - n_c, a - s) / C(d, a), the probability that A ∩ c is a given s-subset;
- for count and mean, min(X, Y) = (X + Y - |X - Y|) / 2: E[X + Y] is a sum over
  components as above, and the law of X - Y jointly with the numbers s, u of features
  of A and B in the union of the components comes from dynamic programming over the
  components; the n_rest features outside them take the a - s and b - u others, in
  C(n_rest, a - s) C(n_rest, b - u) of the C(d, a) C(d, b) equally likely ways.

Each component's pairs (D_1, D_2) are enumerated with |D_1| <= max a and |D_2| <= max b
only and scored by the measure's own score function (no second formula): never more
pairs than stabm's enumeration of all C(d, a) C(d, b) pairs of subsets, and far fewer
when the components are small. Beyond :data:`ENUMERATION_LIMIT` pairs or
:data:`STATE_LIMIT` states of the dynamic programme a ValueError names the sizes.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.special import gammaln

from .._utils.checks import fail
from ._common import FifoMemo
from .matching import (
    Graph,
    count_parts,
    mean_parts,
    score_count,
    score_greedy,
    score_mbm,
    score_mean,
)

__all__ = [
    "ENUMERATION_LIMIT",
    "STATE_LIMIT",
    "exact_expectation",
    "expected_adjusted",
    "n_disjoint_pairs",
]

#: Pairs of disjoint subsets scored, over all components of the similarity graph.
ENUMERATION_LIMIT = 2_000_000
#: States (s, u, X_12 - X_21) of the dynamic programme over components.
STATE_LIMIT = 2_000_000
_CHUNK = 40_000

#: The two directed parts whose minimum is adj, for the scores that take one.
_PARTS = {score_count: count_parts, score_mean: mean_parts}
#: The scores whose adj is additive over components (matchings).
_ADDITIVE = (score_greedy, score_mbm)


def _log_comb(n, k):
    """log C(n, k) elementwise, -inf where k < 0 or k > n."""
    n = np.asarray(n, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    ok = (k >= 0) & (k <= n)
    with np.errstate(invalid="ignore"):
        out = (
            gammaln(n + 1) - gammaln(np.where(ok, k, 0) + 1) - gammaln(np.where(ok, n - k, 0) + 1)
        )
    return np.where(ok, out, -np.inf)


def n_disjoint_pairs(n: int, max_first: int, max_second: int) -> int:
    """The number of pairs of disjoint subsets (D_1, D_2) of n features with
    |D_1| <= max_first and |D_2| <= max_second.

    >>> n_disjoint_pairs(2, 2, 2)      # 3^2: each feature in D_1, D_2 or neither
    9
    >>> n_disjoint_pairs(10, 1, 1)     # 1 + 10 + 10 + 10 * 9
    111
    """
    return sum(
        math.comb(n, i) * math.comb(n - i, j)
        for i in range(min(max_first, n) + 1)
        for j in range(min(max_second, n - i) + 1)
    )


def _combinations(n: int, k: int) -> np.ndarray:
    out = np.array(list(itertools.combinations(range(n), k)), dtype=np.int64)
    return out.reshape(-1, k) if k else np.zeros((1, 0), dtype=np.int64)


def _disjoint_pairs(n: int, i: int, j: int):
    """All pairs of disjoint subsets of range(n) of sizes i and j, as two P x n 0/1
    float arrays, in chunks of about _CHUNK pairs."""
    first = _combinations(n, i)
    second = _combinations(n - i, j)
    keep = np.ones((len(first), n), dtype=bool)
    keep[np.arange(len(first))[:, None], first] = False
    rest = np.nonzero(keep)[1].reshape(len(first), n - i)  # complement of each D_1
    per = max(1, _CHUNK // len(second))
    for f0 in range(0, len(first), per):
        F, R = first[f0 : f0 + per], rest[f0 : f0 + per]
        a = np.arange(len(F))[:, None, None]
        b = np.arange(len(second))[None, :, None]
        Z1 = np.zeros((len(F), len(second), n))
        Z2 = np.zeros((len(F), len(second), n))
        Z1[a, b, F[:, None, :]] = 1.0
        Z2[a, b, R[:, second]] = 1.0
        yield Z1.reshape(-1, n), Z2.reshape(-1, n)


def _components(g):
    """The connected components (sorted feature indices) of the similarity graph with at
    least one similar pair."""
    from scipy.sparse.csgraph import connected_components

    n, labels = connected_components(g.B, directed=False)
    sizes = np.bincount(labels, minlength=n)
    order = np.argsort(labels, kind="stable")
    groups = np.split(order, np.cumsum(sizes)[:-1])
    return [np.sort(groups[c]) for c in np.flatnonzero(sizes > 1)]


def _subgraph(g, idx) -> Graph:
    C0 = g.C0[idx][:, idx].tocsr()
    B = g.B[idx][:, idx].tocsr()
    return Graph(C0=C0, B=B, degree=np.diff(B.indptr), mean_off=0.0)


def _too_large(what: str, sizes, d: int, detail: str):
    a, b = int(sizes[:, 0].max()), int(sizes[:, 1].max())
    fail(
        f"correction_for_chance: the exact null expectation needs {what} "
        f"({detail}; subset sizes up to {a} and {b} of d = {d} features); use "
        f"correction_for_chance='estimate'"
    )


#: expected_adjusted(...) by its arguments' content (see :func:`exact_expectation`)
_EXACT = FifoMemo(512)


def exact_expectation(score):
    """``expected_adjusted`` for one score: ``f(sizes, d, g)`` over all pairs of sizes at
    once (:func:`propstab.measures.simulation.stabm_measure`'s ``exact``).

    Memoised by the content of its arguments (the score, the pairs of sizes, d and the
    graph's weights ``g.C0``, from which ``g.B`` and the degrees are read): the audit's
    exact enumeration of every tuple of subsets of one configuration asks for the same
    sizes over the same similarity again and again; a hit returns a copy of the same
    numbers.
    """

    def expectation(sizes, d, g):
        sizes = np.asarray(sizes, dtype=np.int64).reshape(-1, 2)
        C0 = g.C0
        key = (
            score,
            sizes.shape,
            sizes.tobytes(),
            int(d),
            C0.shape,
            C0.data.dtype.str,
            C0.data.tobytes(),
            C0.indices.tobytes(),
            C0.indptr.tobytes(),
        )
        return _EXACT.get_or_make(key, lambda: expected_adjusted(score, sizes, d, g)).copy()

    expectation.batched = True
    return expectation


def _component_table(score, gc, n: int, amax: int, bmax: int):
    """Per (|D_1|, |D_2|) = (i, j): the sum of adj (matchings) or of X_12 + X_21 and the
    counts of each value of X_12 - X_21 (count, mean), over all pairs of disjoint subsets
    of the component's features."""
    total = np.zeros((amax + 1, bmax + 1))
    deltas = []  # rows (i, j, delta, count)
    parts = _PARTS.get(score)
    for i in range(min(amax, n) + 1):
        for j in range(min(bmax, n - i) + 1):
            pairs = math.comb(n, i) * math.comb(n - i, j)
            if i == 0 or j == 0:  # no pair of differences: adj = 0
                deltas.append((i, j, 0.0, float(pairs)))
                continue
            for Z1, Z2 in _disjoint_pairs(n, i, j):
                if parts is None:
                    total[i, j] += float(np.sum(score(Z1, Z2, gc)))
                    continue
                _, x12, x21 = parts(Z1, Z2, gc)
                total[i, j] += float(np.sum(x12) + np.sum(x21))
                values, counts = np.unique(
                    np.asarray(x12 - x21, dtype=np.float64), return_counts=True
                )
                deltas.extend(
                    (i, j, v, float(c)) for v, c in zip(values.tolist(), counts.tolist())
                )
    return total, np.array(deltas, dtype=np.float64).reshape(-1, 4)


def _pair_probabilities(n: int, d: int, sizes, amax: int, bmax: int) -> np.ndarray:
    """P_c(i, j) for each pair of sizes (a, b): shape (U, amax + 1, bmax + 1)."""
    i = np.arange(amax + 1)[:, None, None]
    j = np.arange(bmax + 1)[None, :, None]
    t = np.arange(n + 1)[None, None, :]
    a = sizes[:, 0].astype(np.float64)[:, None, None, None]
    b = sizes[:, 1].astype(np.float64)[:, None, None, None]
    log_p = (
        _log_comb(n - i - j, t)[None]
        + _log_comb(d - n, a - (i + t)[None])
        - _log_comb(d, a)
        + _log_comb(d - n, b - (j + t)[None])
        - _log_comb(d, b)
    )
    return np.exp(log_p).sum(axis=-1)


def _aggregate(s, u, delta, w):
    """Sum the weights of equal (s, u, delta): one integer key per distinct triple."""
    values, which = np.unique(delta, return_inverse=True)
    width = int(u.max()) + 1 if u.size else 1
    su = s.astype(np.int64) * width + u.astype(np.int64)
    key = which.ravel().astype(np.int64) * (int(su.max()) + 1 if su.size else 1) + su
    keys, inverse = np.unique(key, return_inverse=True)
    inverse = inverse.ravel()
    first = np.zeros(keys.size, dtype=np.int64)
    first[inverse] = np.arange(key.size)  # one representative of each key
    return s[first], u[first], delta[first], np.bincount(inverse, weights=w, minlength=keys.size)


def _difference_law(tables, amax: int, bmax: int, sizes, d: int):
    """The law of (s, u, X_12 - X_21) over all components (weights up to exp(log_scale))."""
    s = np.zeros(1)
    u = np.zeros(1)
    delta = np.zeros(1)
    w = np.ones(1)
    log_scale = 0.0
    for n, deltas in tables:
        t = np.arange(n + 1)
        # entries (i + t, j + t, delta) with C(n - i - j, t) choices of the common part
        i, j, dv, cnt = (deltas[:, k][:, None] for k in range(4))
        mult = np.exp(_log_comb(n - i - j, t[None, :])) * cnt
        es, eu = (i + t).ravel(), (j + t).ravel()
        ed, ew = np.broadcast_to(dv, mult.shape).ravel(), mult.ravel()
        ok = (ew > 0) & (es <= amax) & (eu <= bmax)
        es, eu, ed, ew = _aggregate(es[ok], eu[ok], ed[ok], ew[ok])
        if s.size * es.size > 20 * STATE_LIMIT:  # the product below, in memory
            _too_large(
                f"more than {20 * STATE_LIMIT} combinations of states",
                sizes,
                d,
                f"{s.size} states times {es.size} values of a component",
            )
        ns = (s[:, None] + es[None, :]).ravel()
        nu = (u[:, None] + eu[None, :]).ravel()
        keep = (ns <= amax) & (nu <= bmax)
        nd = (delta[:, None] + ed[None, :]).ravel()
        nw = (w[:, None] * ew[None, :]).ravel()
        s, u, delta, w = _aggregate(ns[keep], nu[keep], nd[keep], nw[keep])
        if s.size > STATE_LIMIT:
            _too_large(
                f"more than {STATE_LIMIT} states of the law of X_12 - X_21",
                sizes,
                d,
                f"{s.size} states",
            )
        top = float(w.max())
        w = w / top
        log_scale += math.log(top)
    return s, u, delta, w, log_scale


def expected_adjusted(score, sizes, d: int, g) -> np.ndarray:
    """E[I | H0] of an adjusted intersection for each row (a, b) of ``sizes``, exactly.

    Parameters
    ----------
    score : one of the score functions of :mod:`propstab.measures.matching`
        ``score_count``, ``score_mean``, ``score_greedy`` or ``score_mbm``.
    sizes : int array (U, 2)
        The pairs of subset sizes.
    d : int
    g : Graph
        The thresholded similarity graph.

    Returns
    -------
    ndarray (U,)

    Raises
    ------
    ValueError
        When the enumeration over the components, or the dynamic programme, exceeds
        :data:`ENUMERATION_LIMIT` or :data:`STATE_LIMIT` (the message names the sizes).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab import as_selection
    >>> from propstab.measures.matching import Graph, score_mbm
    >>> C = np.eye(3)
    >>> C[0, 1] = C[1, 0] = 1.0
    >>> g = Graph.build(as_selection([[1, 0, 0], [0, 1, 0]]), C, None)
    >>> expected_adjusted(score_mbm, np.array([[1, 1]]), 3, g).round(12).tolist()
    [0.555555555556]

    (Two singletons: r = 1 with probability 1/3; {0} and {1} in either order, 2/9:
    1/3 + 2/9 = 5/9.)
    """
    sizes = np.asarray(sizes, dtype=np.int64).reshape(-1, 2)
    base = sizes[:, 0] * sizes[:, 1] / d
    comps = _components(g)
    if not comps:
        return base.astype(np.float64)
    amax, bmax = int(sizes[:, 0].max()), int(sizes[:, 1].max())
    counts = [n_disjoint_pairs(len(c), amax, bmax) for c in comps]
    if sum(counts) > ENUMERATION_LIMIT:
        big = max(len(c) for c in comps)
        _too_large(
            f"{sum(counts)} pairs of subsets of the similarity graph's components "
            f"(more than {ENUMERATION_LIMIT})",
            sizes,
            d,
            f"{len(comps)} components, the largest of {big} features",
        )
    memo = {}
    adj = np.zeros(len(sizes))
    tables = []
    for c in comps:
        gc = _subgraph(g, c)
        key = (len(c), gc.C0.indices.tobytes(), gc.C0.indptr.tobytes(), gc.C0.data.tobytes())
        if key not in memo:  # components of the same shape
            memo[key] = _component_table(score, gc, len(c), amax, bmax)
        total, deltas = memo[key]
        P = _pair_probabilities(len(c), d, sizes, amax, bmax)
        adj += np.einsum("uij,ij->u", P, total)
        if score in _PARTS:
            tables.append((len(c), deltas))
    if score in _PARTS:  # min(X, Y) = (X + Y - |X - Y|) / 2
        s, u, delta, w, log_scale = _difference_law(tables, amax, bmax, sizes, d)
        rest = d - sum(len(c) for c in comps)
        a = sizes[:, 0].astype(np.float64)[:, None]
        b = sizes[:, 1].astype(np.float64)[:, None]
        log_w = (
            log_scale
            + _log_comb(rest, a - s[None, :])
            + _log_comb(rest, b - u[None, :])
            - _log_comb(d, a)
            - _log_comb(d, b)
        )
        absolute = (np.exp(log_w) * w[None, :] * np.abs(delta)[None, :]).sum(axis=1)
        adj = (adj - absolute) / 2
    return base + adj
