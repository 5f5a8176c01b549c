"""Solvers of the per-pair problems of Hamer and Dupont's maximal shared importance.

Each pair of runs i < j is a transport problem between the importance shares of F_i
and F_j (Hamer and Dupont 2021, eqs 8-11). :func:`msi_pair_values` picks the solver
from the problem's structure: one integer maximum flow for all pairs (0/1 similarity,
equal importances), one assignment problem per pair (equal importances, a constant
size: Theorem 5.1, also Yu et al.'s matching), or batched HiGHS linear programs.
"""
from __future__ import annotations

import numpy as np
from scipy import sparse

from .._data.convert_matrices import as_importances
from .matching import as_csr, pair_edges, pair_rows, rowsum, similarity_matrix, upper_pairs


def importance_shares(sel, importances):
    """Row-normalised importances q_if = I_if / k̄ (rows sum to 1), csr, and whether equal."""
    W = as_importances(importances, sel)
    equal = W is None
    if equal:
        W = as_csr(sel.tocsr())
    sums = rowsum(W)
    inv = np.divide(1.0, sums, out=np.zeros_like(sums), where=sums > 0)
    Q = (sparse.diags(inv) @ W).tocsr()
    Q.sort_indices()
    return Q, equal


def flow_values(p, left, right, Q1, Q2, k1, k2, P):
    """Per-pair maximum flow for 0/1 similarity and equal importances (exact integers).

    Capacities are scaled by k_i k_j: source -> f has k_j, g -> sink has k_i, f -> g
    is unbounded; S(i, j) = flow / (k_i k_j).
    """
    from scipy.sparse.csgraph import maximum_flow

    nL, nR = Q1.nnz, Q2.nnz
    lp = np.repeat(np.arange(P), np.diff(Q1.indptr))
    rp = np.repeat(np.arange(P), np.diff(Q2.indptr))
    n = 2 + nL + nR
    src = np.zeros(nL, np.int64)
    rows = np.concatenate([src, 2 + left, 2 + nL + np.arange(nR)])
    cols = np.concatenate([2 + np.arange(nL), 2 + nL + right, np.ones(nR, np.int64)])
    big = (k1 * k2)[p]
    caps = np.concatenate([k2[lp], big, k1[rp]]).astype(np.int64)
    if caps.size and caps.max() >= 2**31:
        raise OverflowError("msi: sizes too large for the integer flow solver")
    G = sparse.csr_matrix((caps.astype(np.int32), (rows, cols)), shape=(n, n))
    res = maximum_flow(G, 0, 1)
    flow = res.flow if hasattr(res, "flow") else res.residual
    out = np.asarray(flow[0].toarray()).ravel()[2 : 2 + nL]
    per_pair = np.bincount(lp, weights=out, minlength=P)
    return per_pair / (k1 * k2)


def assignment_values(p, left, right, w, Q1, Q2, k, P):
    """Per-pair maximum weight assignment (k x k blocks), divided by k (Thm 5.1)."""
    from scipy.optimize import linear_sum_assignment

    blocks = np.zeros((P, k, k))
    blocks[p, left - Q1.indptr[p], right - Q2.indptr[p]] = w
    out = np.empty(P)
    for t in range(P):  # one assignment problem per pair (C code)
        r, c = linear_sum_assignment(blocks[t], maximize=True)
        out[t] = blocks[t, r, c].sum()
    return out / k


def matching_values(sel, C, k):
    """Yu et al.'s score of the pairs i < j for a constant size k > 0: the maximum
    weighted bipartite matching of F_i and F_j (weights the similarities C) over k,
    one assignment problem per pair (Hamer and Dupont, sec. 2 and Theorem 5.1)."""
    Z = as_csr(sel.tocsr())
    ii, jj = upper_pairs(sel.n_runs)
    Z1, Z2 = pair_rows(Z, ii, jj)
    p, left, right, w = pair_edges(Z1, Z2, C)
    return assignment_values(p, left, right, w, Z1, Z2, k, ii.size)


LP_CHUNK = 5_000  # variables per batched HiGHS problem (smaller is faster here)


def lp_values(p, left, right, w, Q1, Q2, P):
    """Per-pair LP optimum (eqs 8-11 with shares q), many pairs per HiGHS call.

    The pairs' problems are independent, so a block-diagonal LP has the sum of
    their optima as optimum; each block's objective at the solution is its own optimum.
    """
    from scipy.optimize import linprog

    out = np.zeros(P)
    if p.size == 0:
        return out
    cuts = np.searchsorted(p, np.arange(P + 1))  # edges are sorted by pair
    start = 0
    while start < P:
        stop = max(start + 1, int(np.searchsorted(cuts, cuts[start] + LP_CHUNK, "right")) - 1)
        stop = min(stop, P)
        e0, e1 = cuts[start], cuts[stop]
        if e1 > e0:
            ll, lidx = np.unique(left[e0:e1], return_inverse=True)
            rr, ridx = np.unique(right[e0:e1], return_inverse=True)
            n = e1 - e0
            A = sparse.csr_matrix(
                (
                    np.ones(2 * n),
                    (
                        np.concatenate([lidx, ll.size + ridx]),
                        np.concatenate([np.arange(n), np.arange(n)]),
                    ),
                ),
                shape=(ll.size + rr.size, n),
            )
            b = np.concatenate([Q1.data[ll], Q2.data[rr]])
            res = linprog(-w[e0:e1], A_ub=A, b_ub=b, bounds=(0, None), method="highs")
            if res.status != 0:  # pragma: no cover - HiGHS failure
                raise RuntimeError(f"msi: HiGHS did not solve the LP: {res.message}")
            out += np.bincount(p[e0:e1], weights=w[e0:e1] * res.x, minlength=P)
        start = stop
    return out


def msi_pair_values(sel, similarity, importances, solver="auto"):
    """S(i, j) for the pairs i < j (Hamer eqs 8-11 and the empty-run convention)."""
    C = similarity_matrix(sel, similarity)
    Q, equal = importance_shares(sel, importances)
    M = sel.n_runs
    ii, jj = upper_pairs(M)
    k = sel.row_sizes
    k1, k2 = k[ii], k[jj]
    P = ii.size
    out = np.zeros(P)
    both_empty = (k1 == 0) & (k2 == 0)
    out[both_empty] = 1.0  # footnote 1: S = 1 if k_i = k_j = 0
    live = (k1 > 0) & (k2 > 0)  # S = 0 if exactly one run is empty
    if not live.any():
        return out
    Q1, Q2 = pair_rows(Q, ii[live], jj[live])
    p, left, right, w = pair_edges(Q1, Q2, C)
    n_live = int(live.sum())
    binary_c = bool(np.all(C.data == 1.0))
    if solver == "lp":
        vals = lp_values(p, left, right, w, Q1, Q2, n_live)
    elif binary_c and equal:
        vals = flow_values(
            p, left, right, Q1, Q2, k1[live].astype(np.int64), k2[live].astype(np.int64), n_live
        )
    elif equal and np.all(k[k > 0] == k[k > 0][0]):
        vals = assignment_values(p, left, right, w, Q1, Q2, int(k[k > 0][0]), n_live)
    else:
        vals = lp_values(p, left, right, w, Q1, Q2, n_live)
    out[live] = vals
    return out
