"""Stability measures for correlated (or semantically related) feature spaces.

A selector that swaps between interchangeable features looks unstable to the
classical measures. The measures here read, besides Z, a feature-similarity
matrix ``similarity=`` (d x d, symmetric, entries in [0, 1], unit diagonal,
validated by :func:`propstab._validation.as_similarity`; ``None`` is the
identity) and, for importance-weighted measures, ``importances=`` (M x d,
non-negative, zero exactly where a feature is not selected).

- ``sechidis``: effective stability (Sechidis et al. 2019, Definition 2, Thm 3).
- ``msi``: maximal shared importance (Hamer and Dupont 2021, eqs 8-12).
- ``yu_matching``: Yu et al.'s maximum weighted bipartite matching (Hamer sec. 2, Thm 5.1).
- ``yu``, ``zucknick``, ``intersection_count``, ``intersection_greedy``,
  ``intersection_mbm``, ``intersection_mean``: stabm's adjusted measures
  (Bommert 2020), with stabm's per-pair correction for chance.
- ``pogr``, ``npogr``: Zhang et al. 2009 (Hamer eq. 4); ``pearson``: Hamer eq. 5.

Declared properties are those of each measure with its default options, for
every admissible similarity (and importance) matrix: where an axiom holds only
for the identity similarity, it is not claimed and ``notes`` say so.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
from scipy import sparse
from scipy import stats

from .._registry import Parameter, RReference, module_doctests, register
from .._validation import as_importances, as_selection, as_similarity, check_int_range
from .._exceptions import warn
from ._common import constant_size, pair_mean, undefined
from .pairwise import BOMMERT, _claims

SECHIDIS = ("Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On "
            "the stability of feature selection in the presence of feature correlations. "
            "ECML PKDD, LNCS 11906, 327-342")
HAMER = ("Hamer, V., Dupont, P. (2021). Robust selection stability estimation in correlated "
         "spaces. ECML PKDD, LNCS 12977, 446-461")
YU = ("Yu, L., Ding, C., Loscalzo, S. (2008). Stable feature selection via dense feature "
      "groups. KDD, 803-811")
ZHANG = ("Zhang, M. et al. (2009). Evaluating reproducibility of differential expression "
         "discoveries in microarray studies by considering correlated molecular changes. "
         "Bioinformatics 25(13), 1662-1668")
ZUCKNICK = ("Zucknick, M., Richardson, S., Stronach, E. A. (2008). Comparing the "
            "characteristics of gene expression profiles derived by univariate and multivariate "
            "classification methods. Stat. Appl. Genet. Mol. Biol. 7(1)")

SIMILARITY = Parameter(
    "similarity", None,
    "d x d feature similarity (ndarray, scipy.sparse or DataFrame): symmetric, entries in "
    "[0, 1], unit diagonal; None is the identity (no two features related)")
THRESHOLD_C = Parameter(
    "threshold", None, "entries of the similarity below it are set to 0; None keeps it as given")
THRESHOLD = Parameter(
    "threshold", 0.9, "features x != y are similar when similarity(x, y) >= threshold "
    "(and > 0); stabm's default 0.9", minimum=0.0)
IMPORTANCES = Parameter(
    "importances", None, "M x d non-negative importances, zero exactly where Z is 0 (Hamer "
    "eqs 6-7); None gives every selected feature of a run the same importance")
N_SIMULATIONS = Parameter(
    "n_simulations", 10_000, "number of random pairs of subsets per pair of sizes for "
    "correction_for_chance='estimate' (stabm's N)", minimum=1)
RANDOM_STATE = Parameter(
    "random_state", 0, "seed (int) of the simulation for correction_for_chance='estimate'")


def _correction(default, exact: bool):
    choices = ("none", "exact", "estimate") if exact else ("none", "estimate")
    how = ("'exact': the exact null expectation (closed form); " if exact else "")
    return Parameter(
        "correction_for_chance", default,
        "stabm's per-pair correction (I - E[I|H0]) / (max - E[I|H0]); " + how +
        "'estimate': E[I|H0] by a seeded simulation of n_simulations random pairs of subsets "
        "per pair of sizes; 'none': the mean of the raw scores I", choices=choices)


def _stabm_ref(function, correction=True, note=""):
    args = {"similarity": "sim.mat", "threshold": "threshold"}
    if correction:
        args.update(correction_for_chance="correction.for.chance", n_simulations="N")
    return RReference("stabm", function, arguments=args, note=note)


# ----------------------------------------------------------------------------------
# shared pieces

def _similarity(sel, similarity, threshold=None):
    return as_similarity(similarity, sel.n_features, threshold=threshold,
                         feature_names=sel.feature_names)


def _off_diagonal(C):
    """C without its diagonal (the similarity of distinct features), csr."""
    C0 = (C - sparse.diags(C.diagonal())).tocsr()
    C0.eliminate_zeros()
    return C0


def _binary(C):
    B = C.copy()
    B.data[:] = 1.0
    return B


def _rowsum(X) -> np.ndarray:
    return np.asarray(X.sum(axis=1)).ravel()


def _pairs(M):
    return np.triu_indices(M, 1)


def _pair_rows(Zf, ii, jj):
    """The selection rows of the runs of each pair, as two P x d csr matrices."""
    return Zf[ii].tocsr(), Zf[jj].tocsr()


def _pair_edges(L, R, W):
    """Edges of the per-pair bipartite graphs, all pairs at once.

    For P x d csr matrices ``L`` and ``R`` (row p: the features of either side of
    pair p) and a d x d csr ``W``, the edges are the (p, x, y) with L[p, x] != 0,
    R[p, y] != 0 and W[x, y] > 0. Returns ``(p, left, right, w)`` with ``left`` and
    ``right`` the positions of (p, x) in L's and of (p, y) in R's stored entries.
    """
    P, d = L.shape
    Lc = L.tocoo()
    deg = np.diff(W.indptr)[Lc.col]
    total = int(deg.sum())
    left = np.repeat(np.arange(Lc.nnz), deg)
    offset = np.arange(total) - np.repeat(np.cumsum(deg) - deg, deg)
    pos = W.indptr[Lc.col][left] + offset
    y = W.indices[pos].astype(np.int64)
    w = W.data[pos]
    p = Lc.row[left].astype(np.int64)
    Rc = R.tocoo()
    rkeys = Rc.row.astype(np.int64) * d + Rc.col          # sorted: R is csr, sorted indices
    keys = p * d + y
    right = np.searchsorted(rkeys, keys)
    right = np.minimum(right, max(rkeys.size - 1, 0))
    keep = (rkeys.size > 0) & (rkeys[right] == keys) if rkeys.size else np.zeros(total, bool)
    return p[keep], left[keep], right[keep], w[keep]


def _csr(Z):
    Z = Z.tocsr().astype(np.float64)
    Z.sort_indices()
    return Z


# ----------------------------------------------------------------------------------
# Sechidis et al.: effective stability

def effective_intersections(Z, /, *, similarity=None, n_features=None, feature_names=None):
    """The effective intersections r^C_ij = z_i C z_j^T (Sechidis et al. 2019, Def. 1).

    By Lemma 1, ``r^C_ij = |s_i ∩ s_j| + sum_{f != f'} c_{f,f'} z_{i,f} z_{j,f'}``,
    so for a non-negative C it is at least the intersection (Theorem 1).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    similarity : d x d similarity matrix, optional (None: identity)
    n_features, feature_names : optional

    Returns
    -------
    ndarray, shape (M, M)

    Examples
    --------
    >>> from propstab.measures.correlated import effective_intersections
    >>> Z = [[1, 0, 1, 0], [0, 1, 1, 0]]
    >>> C = [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    >>> effective_intersections(Z, similarity=C).tolist()
    [[2.0, 2.0], [2.0, 2.0]]
    """
    sel = as_selection(Z, n_features=n_features, feature_names=feature_names)
    C = _similarity(sel, similarity)
    Zf = _csr(sel.tocsr())
    return np.asarray((Zf @ C @ Zf.T).toarray())


@register(
    name="sechidis", family="correlated",
    summary="1 - tr(C S) / tr(C Sigma0), S the unbiased covariance of Z's columns",
    references=(SECHIDIS + ", Definition 2 and Theorem 3", HAMER + ", eq. 3"),
    claims=_claims(False, False, False, False, False), lower=-math.inf, upper=math.inf,
    parameters=(SIMILARITY, THRESHOLD_C),
    r_reference=RReference("stabm", "stabilitySechidis",
                           arguments={"similarity": "sim.mat", "threshold": "threshold"},
                           values={("threshold", None): 0.0},
                           note="stabm forms the d x d covariance; its Sigma0 uses the mean "
                                "of the squared sizes, as propstab does"),
    notes="Declared for every admissible C (any symmetric C in [0, 1] with unit diagonal, as "
          "validated; the audit draws C). With C = I it is Nogueira's estimator and has its "
          "properties. For a general C: not bounded below (Hamer and Dupont, Table 1, "
          "scenario 2: -> -inf; 1 - (n + 1)^2 / (2n) for Z = [{0}, {1}] when feature 0 is "
          "similar to none of n mutually similar features), at most 1 for a positive "
          "semi-definite C but not bounded above otherwise (4n - 1 with C = all ones minus a "
          "perfect matching, d = 2n), so no maximum; 1 for different rows that swap similar "
          "features (Sechidis eq. 1), not monotone in the classical intersection, undefined "
          "(0/0) for C = all ones with constant sizes, and not corrected for chance when the "
          "sizes vary (E = -1/9 for C = I, M = 2, d = 3, sizes 1 and 2, by enumeration). "
          "Theorem 3's off-diagonal null covariance is read with the mean of the squared "
          "sizes (its exact value under H0 with varying sizes, and stabm's); the printed "
          "k-bar^2 is the same number for a constant size.")
def sechidis(sel, *, similarity=None, threshold=None):
    """Sechidis et al.'s effective stability Phi_C (Definition 2, Theorem 3).

    .. math:: \\hat\\Phi_C(Z) = 1 - \\frac{\\mathrm{tr}(C S)}{\\mathrm{tr}(C \\Sigma^0)}

    with S the unbiased covariance matrix of the columns of Z and Sigma0 its null
    counterpart: diagonal ``(k̄/d)(1 - k̄/d)``, off-diagonal
    ``(mean(k^2) - k̄)/(d^2 - d) - k̄^2/d^2``. Neither d x d matrix is formed:

    .. math:: \\mathrm{tr}(C S) = \\frac{1}{M-1}\\Big(\\sum_i z_i C z_i^T
              - \\frac{F^T C F}{M}\\Big), \\qquad
              \\mathrm{tr}(C\\Sigma^0) = d\\,\\sigma_0^2 + c_0\\,(\\mathbf{1}^T C \\mathbf{1} - d)

    (F the column counts, C with unit diagonal), so a sparse C costs O(nnz(Z C)).
    With C = I it is Nogueira's estimator (:func:`propstab.measures.nogueira`).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
        C (dense, sparse or DataFrame); None is the identity.
    threshold : float, optional
        Entries of C below it are set to 0 (stabm's ``threshold``).

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When k̄ is 0 or d, or tr(C Sigma0) = 0 (C all ones with a constant size).

    Examples
    --------
    >>> from propstab.measures import sechidis, nogueira
    >>> Z = [[1, 0, 1, 0, 0, 0], [0, 1, 1, 0, 0, 0], [1, 0, 0, 1, 0, 0], [0, 1, 0, 1, 0, 0]]
    >>> C = [[1, 1, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], [0, 0, 1, 1, 0, 0],
    ...      [0, 0, 1, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]
    >>> sechidis(Z, similarity=C)          # Sechidis eq. (1): effectively stable
    1.0
    >>> round(sechidis(Z), 12), round(nogueira(Z), 12)
    (0.0, 0.0)
    """
    C = _similarity(sel, similarity, threshold)
    M, d, N = sel.n_runs, sel.n_features, sel.total
    if N == 0 or N == M * d:
        return undefined("sechidis", "the mean subset size is 0 or d")
    Z = _csr(sel.tocsr())
    F = sel.column_counts.astype(np.float64)
    quad = float((Z @ C).multiply(Z).sum())            # sum_i z_i C z_i^T
    tr_CS = (quad - float(F @ (C @ F)) / M) / (M - 1)
    k = sel.row_sizes.astype(np.float64)
    kbar, k2bar = N / M, float(np.mean(k * k))
    var0 = kbar / d * (1 - kbar / d)
    cov0 = (k2bar - kbar) / (d * d - d) - kbar ** 2 / d ** 2 if d > 1 else 0.0
    den = d * var0 + cov0 * (float(C.sum()) - d)
    if abs(den) <= 1e-12 * d * var0:
        return undefined("sechidis", "tr(C Sigma0) = 0 (C is all ones and the sizes are "
                                     "constant)")
    return 1.0 - tr_CS / den


# ----------------------------------------------------------------------------------
# Hamer and Dupont: maximal shared importance

def _importance_shares(sel, importances):
    """Row-normalised importances q_if = I_if / k̄ (rows sum to 1), csr, and whether equal."""
    W = as_importances(importances, sel)
    equal = W is None
    if equal:
        W = _csr(sel.tocsr())
    sums = _rowsum(W)
    inv = np.divide(1.0, sums, out=np.zeros_like(sums), where=sums > 0)
    Q = (sparse.diags(inv) @ W).tocsr()
    Q.sort_indices()
    return Q, equal


def _flow_values(p, left, right, Q1, Q2, k1, k2, P):
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
    if caps.size and caps.max() >= 2 ** 31:
        raise OverflowError("msi: sizes too large for the integer flow solver")
    G = sparse.csr_matrix((caps.astype(np.int32), (rows, cols)), shape=(n, n))
    res = maximum_flow(G, 0, 1)
    flow = res.flow if hasattr(res, "flow") else res.residual
    out = np.asarray(flow[0].toarray()).ravel()[2:2 + nL]
    per_pair = np.bincount(lp, weights=out, minlength=P)
    return per_pair / (k1 * k2)


def _assignment_values(p, left, right, w, Q1, Q2, k, P):
    """Per-pair maximum weight assignment (k x k blocks), divided by k (Thm 5.1)."""
    from scipy.optimize import linear_sum_assignment
    blocks = np.zeros((P, k, k))
    blocks[p, left - Q1.indptr[p], right - Q2.indptr[p]] = w
    out = np.empty(P)
    for t in range(P):                      # one assignment problem per pair (C code)
        r, c = linear_sum_assignment(blocks[t], maximize=True)
        out[t] = blocks[t, r, c].sum()
    return out / k


_LP_CHUNK = 5_000       # variables per batched HiGHS problem (smaller is faster here)


def _lp_values(p, left, right, w, Q1, Q2, P):
    """Per-pair LP optimum (eqs 8-11 with shares q), many pairs per HiGHS call.

    The pairs' problems are independent, so a block-diagonal LP has the sum of
    their optima as optimum; each block's objective at the solution is its own optimum.
    """
    from scipy.optimize import linprog
    out = np.zeros(P)
    if p.size == 0:
        return out
    cuts = np.searchsorted(p, np.arange(P + 1))          # edges are sorted by pair
    start = 0
    while start < P:
        stop = max(start + 1, int(np.searchsorted(cuts, cuts[start] + _LP_CHUNK, "right")) - 1)
        stop = min(stop, P)
        e0, e1 = cuts[start], cuts[stop]
        if e1 > e0:
            ll, lidx = np.unique(left[e0:e1], return_inverse=True)
            rr, ridx = np.unique(right[e0:e1], return_inverse=True)
            n = e1 - e0
            A = sparse.csr_matrix(
                (np.ones(2 * n), (np.concatenate([lidx, ll.size + ridx]),
                                  np.concatenate([np.arange(n), np.arange(n)]))),
                shape=(ll.size + rr.size, n))
            b = np.concatenate([Q1.data[ll], Q2.data[rr]])
            res = linprog(-w[e0:e1], A_ub=A, b_ub=b, bounds=(0, None), method="highs")
            if res.status != 0:                          # pragma: no cover - HiGHS failure
                raise RuntimeError(f"msi: HiGHS did not solve the LP: {res.message}")
            out += np.bincount(p[e0:e1], weights=w[e0:e1] * res.x, minlength=P)
        start = stop
    return out


def _msi_pair_values(sel, similarity, importances, solver="auto"):
    """S(i, j) for the pairs i < j (Hamer eqs 8-11 and the empty-run convention)."""
    C = _similarity(sel, similarity)
    Q, equal = _importance_shares(sel, importances)
    M = sel.n_runs
    ii, jj = _pairs(M)
    k = sel.row_sizes
    k1, k2 = k[ii], k[jj]
    P = ii.size
    out = np.zeros(P)
    both_empty = (k1 == 0) & (k2 == 0)
    out[both_empty] = 1.0                       # footnote 1: S = 1 if k_i = k_j = 0
    live = (k1 > 0) & (k2 > 0)                  # S = 0 if exactly one run is empty
    if not live.any():
        return out
    Q1, Q2 = _pair_rows(Q, ii[live], jj[live])
    p, left, right, w = _pair_edges(Q1, Q2, C)
    n_live = int(live.sum())
    binary_c = bool(np.all(C.data == 1.0))
    if solver == "lp":
        vals = _lp_values(p, left, right, w, Q1, Q2, n_live)
    elif binary_c and equal:
        vals = _flow_values(p, left, right, Q1, Q2, k1[live].astype(np.int64),
                            k2[live].astype(np.int64), n_live)
    elif equal and np.all(k[k > 0] == k[k > 0][0]):
        vals = _assignment_values(p, left, right, w, Q1, Q2, int(k[k > 0][0]), n_live)
    else:
        vals = _lp_values(p, left, right, w, Q1, Q2, n_live)
    out[live] = vals
    return out


@register(
    name="msi", family="correlated",
    summary="mean over pairs of the LP max sum s_fg x_fg / k̄ (shared importance)",
    references=(HAMER + ", eqs 8-12, Properties 5.1-5.3",),
    claims=_claims(True, False, True, False, False), lower=0, upper=1,
    parameters=(SIMILARITY, IMPORTANCES,
                Parameter("solver", "auto", "'auto' exploits structure (integer max flow "
                          "for 0/1 similarity and equal importances, assignment for equal "
                          "importances and a constant size, batched HiGHS LP otherwise); 'lp' "
                          "solves every pair's LP with HiGHS", choices=("auto", "lp"))),
    notes="Property 5.1 (bounds [0, 1]) and 5.2 (fully defined, with S(i, j) = 0 when "
          "exactly one run is empty and 1 when both are) hold. The maximum 1 is reached iff "
          "every importance is fully shared with perfectly similar features (Property 5.3), "
          "so with a non-identity similarity different rows can be maximal ([{0}, {1}] with "
          "s_01 = 1 scores 1): the classical maximum axiom is not claimed. Not monotone (pairs "
          "are normalised by k̄ of their own shares) and not corrected for chance (E = 1/d for "
          "two singletons at C = I). Claims hold for every admissible similarity and "
          "importance matrix (the audit draws both).")
def msi(sel, *, similarity=None, importances=None, solver="auto"):
    """Hamer and Dupont's stability as maximal shared importance, phi_msi (eqs 8-12).

    For each pair of runs i < j,

    .. math:: S(i, j) = \\max_{x \\ge 0} \\frac{1}{\\bar k}\\sum_{f \\in F_i}
              \\sum_{g \\in F_j} s_{f,g}\\, x_{f,g}
              \\quad\\text{s.t.}\\quad \\sum_{g} x_{f,g} \\le I_{i,f},\\;
              \\sum_{f} x_{f,g} \\le I_{j,g}

    and :math:`\\phi_{msi} = \\frac{2}{M(M-1)}\\sum_{i<j} S(i, j)`. Importances are
    normalised so that each row sums to k̄ (eq. 7 and the text after it); k̄ then
    cancels, so the LP is solved with the shares ``q_if = I_if / sum_f I_if``. With
    ``importances=None`` every selected feature of run i has the share 1/k_i. By the
    footnote to eq. 12, S(i, j) = 0 if exactly one of the runs is empty and 1 if
    both are. Only edges with s_fg > 0 between selected features enter the problems:

    - 0/1 similarity and equal importances: one integer maximum-flow problem for all
      pairs (capacities scaled by k_i k_j; exact);
    - equal importances and a constant size k: one assignment problem per pair
      (Theorem 5.1: the LP has an integral optimum; S = matching weight / k);
    - otherwise: the LPs, many pairs per call to HiGHS (block-diagonal problems).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
        S with entries in [0, 1] (e.g. absolute Spearman correlations); None: identity.
    importances : M x d array, optional
        Non-negative importances (e.g. absolute model coefficients), zero exactly
        where Z is zero.
    solver : {"auto", "lp"}

    Returns
    -------
    float

    Examples
    --------
    >>> from propstab.measures import msi
    >>> Z = [[1, 0, 1, 0], [0, 1, 1, 0]]
    >>> msi(Z)                                  # identity similarity: r / max(k_i, k_j)
    0.5
    >>> S = [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    >>> msi(Z, similarity=S)
    1.0
    """
    return float(np.mean(_msi_pair_values(sel, similarity, importances, solver)))


@register(
    name="yu_matching", family="correlated", domain="constant_size",
    summary="mean over pairs of the maximum weighted bipartite matching of F_i, F_j / k",
    references=(YU, HAMER + ", sec. 2 and Theorem 5.1"),
    claims=_claims(False, False, True, False, False), lower=0, upper=1,
    parameters=(SIMILARITY,),
    notes="Defined for a constant subset size only (Hamer sec. 2). Equals msi with equal "
          "importances (Theorem 5.1). With a non-identity similarity different rows reach 1 "
          "and equal total variance gives different values ([{0}, {1}] against [{0}, {2}] with "
          "s_01 = 1: 1 and 0). Bounds [0, 1] hold for every admissible similarity.")
def yu_matching(sel, *, similarity=None):
    """Yu et al.'s stability: maximum weighted bipartite matching between runs.

    .. math:: \\hat\\Phi = \\frac{2}{M(M-1)}\\sum_{i<j}\\frac{1}{k}
              \\max_{\\pi} \\sum_{f \\in F_i} s_{f, \\pi(f)}

    over the one-to-one matchings pi of F_i onto F_j, the edge weights being the
    similarities (Hamer and Dupont, sec. 2). Defined when every run selects the same
    number k > 0 of features; by Theorem 5.1 it equals :func:`msi` with equal
    importances. Solved by ``scipy.optimize.linear_sum_assignment``.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When the row sizes vary or k = 0.

    Examples
    --------
    >>> from propstab.measures import yu_matching
    >>> S = [[1, 0.5, 0], [0.5, 1, 0], [0, 0, 1]]
    >>> yu_matching([[1, 0, 0], [0, 1, 0]], similarity=S)
    0.5
    """
    k = constant_size(sel, "yu_matching")
    if k is None:
        return float("nan")
    if k == 0:
        return undefined("yu_matching", "k = 0")
    C = _similarity(sel, similarity)
    Z = _csr(sel.tocsr())
    ii, jj = _pairs(sel.n_runs)
    Z1, Z2 = _pair_rows(Z, ii, jj)
    p, left, right, w = _pair_edges(Z1, Z2, C)
    return float(np.mean(_assignment_values(p, left, right, w, Z1, Z2, k, ii.size)))


# ----------------------------------------------------------------------------------
# stabm's adjusted measures: per-pair scores, exact or simulated null expectations

@dataclasses.dataclass(frozen=True)
class _Graph:
    """The thresholded similarity: weights C0 (off-diagonal) and 0/1 adjacency B."""

    C0: object
    B: object
    degree: np.ndarray
    mean_off: float

    @classmethod
    def build(cls, sel, similarity, threshold):
        C = _similarity(sel, similarity, threshold)
        C0 = _off_diagonal(C)
        d = sel.n_features
        mean_off = float(C0.sum()) / (d * (d - 1)) if d > 1 else 0.0
        return cls(C0=C0, B=_binary(C0), degree=np.diff(C0.indptr), mean_off=mean_off)


# The per-pair scores take two P x d matrices of 0/1 rows (row p: the two runs of pair
# p), dense ndarrays when P d is small (faster) or csr matrices; these helpers do both.
_DENSE_CELLS = 20_000_000


def _workform(Z):
    """csr -> dense float array when small enough, else csr with sorted indices."""
    if Z.shape[0] * Z.shape[1] <= _DENSE_CELLS:
        return Z.toarray()
    return _csr(Z)


def _mul(X, Y):
    if isinstance(X, np.ndarray):
        return X * (Y.toarray() if sparse.issparse(Y) else Y)
    return X.multiply(Y).tocsr()


def _times(X, W):
    """X @ W for a symmetric sparse W (dense X gives a dense result)."""
    if isinstance(X, np.ndarray):
        return np.asarray((W @ X.T).T)
    return X @ W


def _tocsr(X):
    return _csr(sparse.csr_matrix(X)) if isinstance(X, np.ndarray) else X


def _split(Z1, Z2):
    """Intersection sizes and the two set differences of each pair of rows."""
    both = _mul(Z1, Z2)
    r = _rowsum(both)
    D1, D2 = Z1 - both, Z2 - both
    if not isinstance(D1, np.ndarray):
        D1, D2 = D1.tocsr(), D2.tocsr()
        D1.eliminate_zeros()
        D2.eliminate_zeros()
    return r, D1, D2


def _n_with_neighbour(D, E, B):
    """For each pair p: #x in D[p] with at least one neighbour (in B) in E[p]."""
    return _rowsum(_mul(D, _times(E, B) > 0))


def _score_yu(Z1, Z2, g):
    r, D1, D2 = _split(Z1, Z2)
    return r + (_n_with_neighbour(D1, D2, g.B) + _n_with_neighbour(D2, D1, g.B)) / 2


def _score_count(Z1, Z2, g):
    r, D1, D2 = _split(Z1, Z2)
    return r + np.minimum(_n_with_neighbour(D1, D2, g.B), _n_with_neighbour(D2, D1, g.B))


def _mean_similarity_sum(D, E, g):
    """sum over x in D[p] with neighbours in E[p] of the mean similarity to them."""
    cnt = _mul(D, _times(E, g.B))
    tot = _mul(D, _times(E, g.C0))
    if isinstance(cnt, np.ndarray):
        return np.divide(tot, cnt, out=np.zeros_like(tot), where=cnt > 0).sum(axis=1)
    return _rowsum(tot.multiply(cnt.power(-1.0)))


def _score_mean(Z1, Z2, g):
    r, D1, D2 = _split(Z1, Z2)
    return r + np.minimum(_mean_similarity_sum(D1, D2, g), _mean_similarity_sum(D2, D1, g))


def _score_mbm(Z1, Z2, g):
    """r + maximum bipartite matching between the differences, all pairs in one call."""
    from scipy.sparse.csgraph import maximum_bipartite_matching
    r, D1, D2 = _split(Z1, Z2)
    D1, D2 = _tocsr(D1), _tocsr(D2)
    p, left, right, _ = _pair_edges(D1, D2, g.B)
    if p.size == 0:
        return r
    G = sparse.csr_matrix((np.ones(p.size), (left, right)), shape=(D1.nnz, D2.nnz))
    match = maximum_bipartite_matching(G, perm_type="column")
    lp = np.repeat(np.arange(Z1.shape[0]), np.diff(D1.indptr))
    return r + np.bincount(lp[match >= 0], minlength=Z1.shape[0])


def _score_greedy(Z1, Z2, g):
    """r + greedy matching between the differences, highest similarity first.

    Ties are taken in column-major order of the (F_i minus F_j) x (F_j minus F_i)
    similarity block (features in increasing index order).
    """
    r, D1, D2 = _split(Z1, Z2)
    D1, D2 = _tocsr(D1), _tocsr(D2)
    p, left, right, w = _pair_edges(D1, D2, g.C0)
    order = np.lexsort((left, right, -w, p))
    p, left, right = p[order], left[order], right[order]
    add = np.zeros(Z1.shape[0])
    cuts = np.searchsorted(p, np.arange(Z1.shape[0] + 1))
    for t in np.nonzero(np.diff(cuts))[0]:      # greedy matching is sequential per pair
        used_l, used_r = set(), set()
        for a, b in zip(left[cuts[t]:cuts[t + 1]].tolist(), right[cuts[t]:cuts[t + 1]].tolist()):
            if a not in used_l and b not in used_r:
                used_l.add(a)
                used_r.add(b)
        add[t] = len(used_l)
    return r + add


def _score_zucknick(Z1, Z2, g):
    r, D1, D2 = _split(Z1, Z2)
    a, b = _rowsum(Z1), _rowsum(Z2)
    s21 = _rowsum(_mul(D2, _times(Z1, g.C0)))    # sum over x in F2 minus F1, y in F1
    s12 = _rowsum(_mul(D1, _times(Z2, g.C0)))
    add1 = np.divide(s21, b, out=np.zeros_like(s21), where=b > 0)
    add2 = np.divide(s12, a, out=np.zeros_like(s12), where=a > 0)
    union = a + b - r
    with np.errstate(divide="ignore", invalid="ignore"):
        return (r + add1 + add2) / union


def _hyper(d, a, b):
    """Support r and P(|F_1 ∩ F_2| = r) for random subsets of sizes a, b of d features."""
    r = np.arange(min(a, b) + 1)
    return r, stats.hypergeom.pmf(r, d, a, b)


def _expected_yu(a, b, d, g):
    """E[r + (O_12 + O_21)/2 | H0], exactly.

    Given r, F_1 minus F_2 is a uniform (a - r)-subset, and for x in it, F_2 minus F_1
    is a uniform (b - r)-subset of the other d - 1 features, which misses all g_x
    neighbours of x with probability hypergeom(d - 1, g_x, b - r) at 0.
    """
    r, h = _hyper(d, a, b)
    deg, cnt = np.unique(g.degree, return_counts=True)

    def e_o(a_, b_):
        draws = np.minimum(b_ - r, d - 1)[:, None]      # b - r <= d - 1 wherever a - r > 0
        miss = stats.hypergeom.pmf(0, d - 1, deg[None, :], draws)
        hit = (cnt[None, :] * (1.0 - miss)).sum(axis=1)
        return float(np.sum(h * (a_ - r) / d * hit))
    return a * b / d + (e_o(a, b) + e_o(b, a)) / 2


def _expected_zucknick(a, b, d, g):
    """E[(r + add_1 + add_2) / |F_1 ∪ F_2| | H0], exactly (sum over the hypergeometric r).

    Given r, the (b - r) a ordered pairs (x in F_2 minus F_1, y in F_1) are uniform
    pairs of distinct features, so E[add_1 | r] = (b - r) a c̄ / b with c̄ the mean
    off-diagonal thresholded similarity.
    """
    if a + b == 0:
        return math.nan
    r, h = _hyper(d, a, b)
    add = (np.where(b > 0, (b - r) * a / max(b, 1), 0.0)
           + np.where(a > 0, (a - r) * b / max(a, 1), 0.0)) * g.mean_off
    return float(np.sum(h * (r + add) / (a + b - r)))


def _random_subsets(rng, sizes, d):
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
    for s in np.unique(sizes[small]).tolist():             # loop over distinct sizes
        todo = np.flatnonzero(sizes == s)
        while todo.size:                                   # rejection of repeated features
            draw = np.sort(rng.integers(0, d, size=(todo.size, s)), axis=1)
            bad = np.any(draw[:, 1:] == draw[:, :-1], axis=1) if s > 1 else np.zeros(
                todo.size, bool)
            rows.append(np.repeat(todo[~bad], s))
            cols.append(draw[~bad].ravel())
            todo = todo[bad]
    for s in np.unique(sizes[(sizes > 0) & ~small]).tolist():
        idx_rows = np.flatnonzero(sizes == s)
        chunk = max(1, 4_000_000 // d)
        for c0 in range(0, idx_rows.size, chunk):          # bounded memory
            part = idx_rows[c0:c0 + chunk]
            pick = np.argpartition(rng.random((part.size, d)), s - 1, axis=1)[:, :s]
            rows.append(np.repeat(part, s))
            cols.append(pick.ravel())
    r, c = np.concatenate(rows), np.concatenate(cols)
    Z = sparse.csr_matrix((np.ones(r.size), (r, c)), shape=(n, d))
    Z.sort_indices()
    return Z


_SIM_ROWS = 200_000     # simulated pairs scored per batch


def _simulated(score, sizes, d, g, n, rng):
    """Monte Carlo E[I | H0] and its standard error for each row (a, b) of ``sizes``.

    n random pairs of subsets per pair of sizes, all pairs of sizes scored in batches.
    """
    U = len(sizes)
    mean, se = np.empty(U), np.empty(U)
    per = max(1, _SIM_ROWS // n)
    for u0 in range(0, U, per):                              # batches of pairs of sizes
        block = sizes[u0:u0 + per]
        group = np.repeat(np.arange(len(block)), n)
        vals = score(_workform(_random_subsets(rng, np.repeat(block[:, 0], n), d)),
                     _workform(_random_subsets(rng, np.repeat(block[:, 1], n), d)), g)
        m = np.bincount(group, weights=vals) / n
        var = np.bincount(group, weights=(vals - m[group]) ** 2) / max(n - 1, 1)
        mean[u0:u0 + len(block)] = m
        se[u0:u0 + len(block)] = np.sqrt(var / n) if n > 1 else np.inf
    return mean, se


class MonteCarloWarning(RuntimeWarning):
    """The simulated correction for chance has a non-negligible Monte Carlo error."""


_MC_TOLERANCE = 0.005


def _stabm_measure(name, sel, score, maximum, *, similarity, threshold, correction,
                   n_simulations, random_state, exact=None):
    """stabm's mean over pairs i < j of I or of (I - E[I|H0]) / (max - E[I|H0])."""
    check_int_range("random_state", random_state, minimum=0, owner=name)
    g = _Graph.build(sel, similarity, threshold)
    Z = _csr(sel.tocsr())
    ii, jj = _pairs(sel.n_runs)
    Z1, Z2 = _pair_rows(Z, ii, jj)
    I = score(_workform(Z1), _workform(Z2), g)
    k = sel.row_sizes
    a, b = k[ii], k[jj]
    if not np.all(np.isfinite(I)) or (score is _score_yu and np.any(a + b == 0)):
        return undefined(name, "two runs are both empty")
    if correction == "none":
        return float(np.mean(I))
    d = sel.n_features
    # every score here is symmetric in distribution under H0: one expectation per
    # unordered pair of sizes
    pair_sizes = np.sort(np.stack([a, b], axis=1), axis=1)
    sizes, inverse = np.unique(pair_sizes, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    E = np.empty(len(sizes))
    se = np.zeros(len(sizes))
    if correction == "exact":
        E[:] = [exact(sa, sb, d, g) for sa, sb in sizes.tolist()]   # distinct pairs of sizes
    elif g.B.nnz == 0 and score is not _score_zucknick:
        E[:] = sizes[:, 0] * sizes[:, 1] / d                # no similar pairs: I = r
    else:
        E, se = _simulated(score, sizes, d, g, n_simulations,
                           np.random.default_rng(random_state))
    Ep = E[inverse]
    mx = maximum(a.astype(np.float64), b.astype(np.float64))
    den = mx - Ep
    if np.any(np.abs(den) <= 1e-12 * np.maximum(mx, 1.0)):
        return undefined(name, "a pair's null expectation equals its maximum, so the "
                               "corrected score is 0/0")
    value = float(np.mean((I - Ep) / den))
    if correction == "estimate":
        slope = (I - mx) / den ** 2 / I.size         # d value / d E_p (delta method)
        err = math.sqrt(float(np.sum(np.bincount(inverse, weights=slope) ** 2 * se ** 2)))
        if err > _MC_TOLERANCE:
            warn(f"{name}: the simulated correction for chance leaves a Monte Carlo "
                          f"standard error of about {err:.3g} on the value {value:.4f}; "
                          f"increase n_simulations (now {n_simulations})",
                          MonteCarloWarning)
    return value


def _half_sum(a, b):
    return (a + b) / 2


def _geo_mean(a, b):
    return np.sqrt(a * b)


def _one(a, b):
    return np.ones_like(a)


_STABM_NOTES = (
    " The correction is stabm's, per pair: (I - E[I|H0]) / (max - E[I|H0]) with E for "
    "independent uniformly random subsets of the two runs' sizes; 'estimate' simulates "
    "n_simulations pairs per distinct pair of sizes (seeded, random_state) and warns "
    "(MonteCarloWarning) when the propagated standard error of the value exceeds 0.005. "
    "Similar means similarity >= threshold and > 0. Axioms are declared for every "
    "admissible similarity: maximal values for different rows that swap similar features, "
    "so the classical maximum and monotonicity are not claimed; a complete similarity "
    "graph makes E[I|H0] equal to the maximum (0/0).")


@register(
    name="yu", family="correlated",
    summary="(I - E[I]) / ((k_i + k_j)/2 - E[I]), I = |F_i ∩ F_j| + (O_ij + O_ji)/2",
    references=(BOMMERT + ", stabilityYu", YU, ZHANG),
    claims=_claims(False, False, False, False, True), lower=-math.inf, upper=1,
    null_value=0.0,
    parameters=(SIMILARITY, THRESHOLD, _correction("exact", True), N_SIMULATIONS,
                RANDOM_STATE),
    r_reference=_stabm_ref("stabilityYu", note="stabm's default correction is 'estimate' "
                           "(N = 1e4); without similar features stabm switches to the "
                           "normaliser sqrt(k_i k_j) (propstab keeps (k_i + k_j)/2)"),
    notes="The null expectation of O_ij has a closed form in the degrees of the similarity "
          "graph, so the default correction is exact and E[value|H0] = 0 for every "
          "similarity (checked by exact enumeration). With the identity similarity it is "
          "stabm's kappa. Not bounded below: -(n^2 + 1)/(2n) for Z = [{0}, {1}] when "
          "feature 0 is similar to none of n mutually similar features." + _STABM_NOTES)
def yu(sel, *, similarity=None, threshold=0.9, correction_for_chance="exact",
       n_simulations=10_000, random_state=0):
    """stabm's adjusted measure of Yu et al. (``stabilityYu``).

    .. math:: I(F_i, F_j) = |F_i \\cap F_j| + \\frac{O_{ij} + O_{ji}}{2},\\quad
              \\hat\\Phi = \\frac{2}{M(M-1)}\\sum_{i<j}
              \\frac{I - E[I|H_0]}{\\frac{k_i + k_j}{2} - E[I|H_0]}

    with O_ij the number of features of F_i minus F_j that have a similar feature
    (similarity >= threshold) in F_j minus F_i. The exact null expectation is

    .. math:: E[O_{ij}] = \\sum_r P(r)\\,\\frac{k_i - r}{d}\\sum_x
              \\Big(1 - \\frac{\\binom{d-1-g_x}{k_j - r}}{\\binom{d-1}{k_j - r}}\\Big)

    with P(r) hypergeometric and g_x the number of features similar to x.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9
    correction_for_chance : {"exact", "estimate", "none"}
        "none" returns the mean of I (a count, as stabm).
    n_simulations, random_state : for "estimate".

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When two runs are empty, or a pair's null expectation equals its maximum.
    MonteCarloWarning
        With "estimate", when the Monte Carlo error exceeds 0.005.

    Examples
    --------
    >>> from propstab.measures import yu, kappa
    >>> Z = [[1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [0, 1, 1, 0, 0]]
    >>> abs(yu(Z) - kappa(Z)) < 1e-12      # identity similarity: stabm's kappa
    True
    >>> S = [[1, 0, 0, 0, 0], [0, 1, .95, 0, 0], [0, .95, 1, 0, 0], [0, 0, 0, 1, 0],
    ...      [0, 0, 0, 0, 1]]
    >>> round(yu(Z, similarity=S, correction_for_chance="none"), 6)   # (2 + 1 + 1) / 3
    1.333333
    """
    return _stabm_measure("yu", sel, _score_yu, _half_sum, similarity=similarity,
                          threshold=threshold, correction=correction_for_chance,
                          n_simulations=n_simulations, random_state=random_state,
                          exact=_expected_yu)


@register(
    name="zucknick", family="correlated",
    summary="(|F_i ∩ F_j| + C(F_i, F_j) + C(F_j, F_i)) / |F_i ∪ F_j|",
    references=(BOMMERT + ", stabilityZucknick", ZUCKNICK),
    claims=_claims(True, False, True, False, False), lower=0, upper=1,
    parameters=(SIMILARITY, THRESHOLD, _correction("none", True), N_SIMULATIONS,
                RANDOM_STATE),
    r_reference=_stabm_ref("stabilityZucknick"),
    notes="Bounded by [0, 1]: (k_j - r) k_i / k_j + (k_i - r) k_j / k_i <= k_i + k_j - 2r. "
          "With correction_for_chance='exact' the null expectation is exact (a sum over the "
          "hypergeometric intersection)." + _STABM_NOTES)
def zucknick(sel, *, similarity=None, threshold=0.9, correction_for_chance="none",
             n_simulations=10_000, random_state=0):
    """Zucknick et al.'s measure as adapted by stabm (``stabilityZucknick``).

    .. math:: \\phi(F_i, F_j) = \\frac{|F_i \\cap F_j| + C(F_i, F_j) + C(F_j, F_i)}
              {|F_i \\cup F_j|},\\quad C(F_k, F_l) = \\frac{1}{|F_l|}
              \\sum_{x \\in F_k,\\, y \\in F_l \\setminus F_k} s'(x, y)

    with s' the similarity with entries below the threshold set to 0.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9
    correction_for_chance : {"none", "exact", "estimate"}
    n_simulations, random_state : for "estimate".

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When two runs are both empty.

    Examples
    --------
    >>> from propstab.measures import zucknick, jaccard
    >>> Z = [[1, 1, 0, 0], [1, 0, 1, 0]]
    >>> zucknick(Z) == jaccard(Z)
    True
    >>> S = [[1, 0, 0, 0], [0, 1, .95, 0], [0, .95, 1, 0], [0, 0, 0, 1]]
    >>> round(zucknick(Z, similarity=S), 6)      # (1 + 0.95/2 + 0.95/2) / 3
    0.65
    """
    return _stabm_measure("zucknick", sel, _score_zucknick, _one, similarity=similarity,
                          threshold=threshold, correction=correction_for_chance,
                          n_simulations=n_simulations, random_state=random_state,
                          exact=_expected_zucknick)


def _with_formula(core):
    """Insert the adjusted-intersection formula and parameters before the Examples."""
    head, sep, tail = core.__doc__.partition("    Examples")
    core.__doc__ = head + _INTERSECTION_FORMULA.lstrip("\n") + "\n" + sep + tail
    return core


def _register_intersection(name, function, summary, notes=""):
    return register(
        name=name, family="correlated", summary=summary,
        references=(BOMMERT + ", " + function,
                    "Bommert, A., Rahnenfuehrer, J. (2020). Adjusted measures for feature "
                    "selection stability for data sets with similar features. LOD 2020, LNCS "
                    "12565, 203-214"),
        claims=_claims(False, False, False, False, False), lower=-math.inf, upper=1,
        parameters=(SIMILARITY, THRESHOLD, _correction("estimate", False), N_SIMULATIONS,
                    RANDOM_STATE),
        r_reference=_stabm_ref(function),
        notes="E[I|H0] has no closed form (it depends on the whole similarity graph), so "
              "the correction is simulated as in stabm: corrected for chance only up to "
              "Monte Carlo error, hence not claimed (M = 2, d = 3, k = (1, 1), s_01 = 1: "
              "E[I|H0] = 5/9 exactly, E[value|H0] = -0.001 at 10^4 draws). Not bounded below "
              "(the estimand is -(n^2 + 1)/(2n) on yu's family). Without any similar "
              "features I = r and "
              "E[I|H0] = k_i k_j / d exactly." + notes + _STABM_NOTES)


_INTERSECTION_FORMULA = """
    .. math:: \\hat\\Phi = \\frac{2}{M(M-1)}\\sum_{i<j}
              \\frac{I(F_i, F_j) - E[I|H_0]}{\\sqrt{k_i k_j} - E[I|H_0]}

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9
        x and y are similar when similarity(x, y) >= threshold.
    correction_for_chance : {"estimate", "none"}
        "estimate": E[I|H0] simulated with ``n_simulations`` random pairs of subsets per
        distinct pair of sizes, seeded by ``random_state`` (default 0, so results are
        reproducible); the Monte Carlo standard error of each expectation is
        sd(I)/sqrt(n_simulations), at most about 0.5 k / sqrt(n) (0.005 k for 10^4),
        and a MonteCarloWarning reports it when its effect on the value exceeds 0.005.
        "none": the mean of I.
    n_simulations : int, default 10000
    random_state : int, default 0

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a pair's expectation equals its maximum (0/0).
    MonteCarloWarning
        When the simulation's error on the value exceeds 0.005.
"""


@_register_intersection("intersection_count", "stabilityIntersectionCount",
                        "corrected |F_i ∩ F_j| + min(#F_i-side, #F_j-side with a similar partner)")
@_with_formula
def intersection_count(sel, *, similarity=None, threshold=0.9,
                       correction_for_chance="estimate", n_simulations=10_000, random_state=0):
    """stabm's adjusted intersection with counts (``stabilityIntersectionCount``).

    I(F_i, F_j) = ``|F_i ∩ F_j|`` + min(C_ij, C_ji), with C_ij the number of x in
    F_i minus F_j having a similar y in F_j minus F_i.

    Examples
    --------
    >>> from propstab.measures import intersection_count
    >>> S = [[1, .95, 0, 0], [.95, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    >>> intersection_count([[1, 0, 1, 0], [0, 1, 1, 0]], similarity=S,
    ...                    correction_for_chance="none")
    2.0
    """
    return _stabm_measure("intersection_count", sel, _score_count, _geo_mean,
                          similarity=similarity, threshold=threshold,
                          correction=correction_for_chance, n_simulations=n_simulations,
                          random_state=random_state)


@_register_intersection("intersection_mean", "stabilityIntersectionMean",
                        "corrected |F_i ∩ F_j| + min of summed mean similarities")
@_with_formula
def intersection_mean(sel, *, similarity=None, threshold=0.9,
                      correction_for_chance="estimate", n_simulations=10_000, random_state=0):
    """stabm's adjusted intersection with mean similarities (``stabilityIntersectionMean``).

    I(F_i, F_j) = ``|F_i ∩ F_j|`` + min(C_ij, C_ji), with C_ij the sum over x in F_i
    minus F_j of the mean similarity of x to its similar features in F_j minus F_i.

    Examples
    --------
    >>> from propstab.measures import intersection_mean
    >>> S = [[1, .95, .9, 0], [.95, 1, 0, 0], [.9, 0, 1, 0], [0, 0, 0, 1]]
    >>> intersection_mean([[1, 0, 0, 1], [0, 1, 1, 1]], similarity=S,
    ...                   correction_for_chance="none")       # 1 + min(0.925, 1.85)
    1.925
    """
    return _stabm_measure("intersection_mean", sel, _score_mean, _geo_mean,
                          similarity=similarity, threshold=threshold,
                          correction=correction_for_chance, n_simulations=n_simulations,
                          random_state=random_state)


@_register_intersection("intersection_greedy", "stabilityIntersectionGreedy",
                        "corrected |F_i ∩ F_j| + greedy matching of similar features",
                        notes=" Ties between equal similarities are taken in column-major "
                              "order of the difference block; stabm's order of tied entries "
                              "follows its sparse storage and may differ.")
@_with_formula
def intersection_greedy(sel, *, similarity=None, threshold=0.9,
                        correction_for_chance="estimate", n_simulations=10_000,
                        random_state=0):
    """stabm's adjusted intersection with a greedy matching (``stabilityIntersectionGreedy``).

    I(F_i, F_j) = ``|F_i ∩ F_j|`` + the size of the matching built greedily between
    F_i minus F_j and F_j minus F_i, taking similar pairs by decreasing similarity.

    Examples
    --------
    >>> from propstab.measures import intersection_greedy
    >>> S = [[1, 0, .95, .92], [0, 1, .91, 0], [.95, .91, 1, 0], [.92, 0, 0, 1]]
    >>> intersection_greedy([[1, 1, 0, 0], [0, 0, 1, 1]], similarity=S,
    ...                     correction_for_chance="none")   # 0-2 first, then 1-3 is no edge
    1.0
    """
    return _stabm_measure("intersection_greedy", sel, _score_greedy, _geo_mean,
                          similarity=similarity, threshold=threshold,
                          correction=correction_for_chance, n_simulations=n_simulations,
                          random_state=random_state)


@_register_intersection("intersection_mbm", "stabilityIntersectionMBM",
                        "corrected |F_i ∩ F_j| + maximum bipartite matching of similar features")
@_with_formula
def intersection_mbm(sel, *, similarity=None, threshold=0.9,
                     correction_for_chance="estimate", n_simulations=10_000, random_state=0):
    """stabm's adjusted intersection with a maximum matching (``stabilityIntersectionMBM``).

    I(F_i, F_j) = ``|F_i ∩ F_j|`` + MBM(F_i minus F_j, F_j minus F_i), the size of a
    maximum bipartite matching in the graph of similar pairs; all pairs of runs are
    solved in one call of ``scipy.sparse.csgraph.maximum_bipartite_matching`` on the
    block-diagonal graph.

    Examples
    --------
    >>> from propstab.measures import intersection_mbm
    >>> S = [[1, 0, .95, .92], [0, 1, .91, 0], [.95, .91, 1, 0], [.92, 0, 0, 1]]
    >>> intersection_mbm([[1, 1, 0, 0], [0, 0, 1, 1]], similarity=S,
    ...                  correction_for_chance="none")     # 0-3 and 1-2
    2.0
    """
    return _stabm_measure("intersection_mbm", sel, _score_mbm, _geo_mean,
                          similarity=similarity, threshold=threshold,
                          correction=correction_for_chance, n_simulations=n_simulations,
                          random_state=random_state)


# ----------------------------------------------------------------------------------
# Zhang et al.: POGR and nPOGR; Pearson correlation of importances

def _pogr_parts(sel, similarity, threshold):
    """r_ij, O_ij (ordered) and the graph: O_ij = #x in F_i minus F_j with a similar y in F_j."""
    g = _Graph.build(sel, similarity, threshold)
    Z = _csr(sel.tocsr())
    H = ((Z @ g.B) > 0).astype(np.float64)            # H[j, x]: x has a neighbour in F_j
    r = sel.intersections.astype(np.float64)
    O = np.asarray((Z @ H.T).toarray()) - np.asarray((Z @ Z.multiply(H).T).toarray())
    return r, O, g


@register(
    name="pogr", family="correlated",
    summary="(|F_i ∩ F_j| + O_ij) / k_i over ordered pairs",
    references=(ZHANG, HAMER + ", eq. 4"),
    claims=_claims(True, False, True, False, False), lower=0, upper=1,
    parameters=(SIMILARITY, THRESHOLD),
    notes="O_ij counts the features of F_i not in F_j with a similar (>= threshold) feature in "
          "F_j (Hamer's reading of Zhang et al.). With a non-identity similarity different "
          "rows reach 1; with the identity it is POG.")
def pogr(sel, *, similarity=None, threshold=0.9):
    """Zhang et al.'s percentage of overlapping genes-related, POGR (Hamer eq. 4).

    .. math:: \\mathrm{POGR} = \\frac{1}{M(M-1)}\\sum_{i \\ne j}
              \\frac{|F_i \\cap F_j| + O_{ij}}{k_i}

    with O_ij the number of features selected in run i, not in run j, but similar
    (similarity >= threshold) to at least one feature selected in run j.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a run is empty.

    Examples
    --------
    >>> from propstab.measures import pogr
    >>> S = [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    >>> pogr([[1, 0, 1, 0], [0, 1, 1, 0]], similarity=S)
    1.0
    """
    r, O, _ = _pogr_parts(sel, similarity, threshold)
    k = sel.row_sizes.astype(np.float64)
    return pair_mean("pogr", r + O, np.broadcast_to(k[:, None], r.shape), "a run is empty")


def _expected_pogr(k, d, g):
    """E[|F_i ∩ F_j| + O_ij | H0] for all ordered pairs of sizes (exact).

    P(x in F_i) = k_i / d and, independently, P(x not in F_j, a neighbour of x in F_j) =
    (d - k_j)/d - C(d - 1 - g_x, k_j) / C(d, k_j).
    """
    sizes, inverse = np.unique(k, return_inverse=True)
    deg, cnt = np.unique(g.degree, return_counts=True)
    avoid = stats.hypergeom.pmf(0, d, deg[None, :] + 1, sizes[:, None])   # (U, degrees)
    hit = ((d - sizes) / d * cnt.sum() - (cnt[None, :] * avoid).sum(axis=1))  # per k_j
    Ea = sizes[:, None] * sizes[None, :] / d + sizes[:, None] / d * hit[None, :]
    inverse = inverse.ravel()
    return Ea[np.ix_(inverse, inverse)]


@register(
    name="npogr", family="correlated",
    summary="(|F_i ∩ F_j| + O_ij - E_ij) / (k_i - E_ij) over ordered pairs, E_ij exact",
    references=(ZHANG, HAMER + ", eq. 4", SECHIDIS + ", sec. 2.2"),
    claims=_claims(False, False, False, False, True), lower=-math.inf, upper=1,
    null_value=0.0, parameters=(SIMILARITY, THRESHOLD),
    notes="Zhang et al. estimate E_ij = E[|F_i ∩ F_j| + O_ij | H0] by simulation; propstab "
          "uses its exact value (independent uniformly random subsets), so E[value|H0] = 0. "
          "With the identity similarity it is nPOG. Not bounded below (as nPOG), undefined "
          "when E_ij = k_i (e.g. a complete similarity graph).")
def npogr(sel, *, similarity=None, threshold=0.9):
    """Zhang et al.'s normalised POGR with the exact null expectation.

    .. math:: \\mathrm{nPOGR} = \\frac{1}{M(M-1)}\\sum_{i \\ne j}
              \\frac{|F_i \\cap F_j| + O_{ij} - E_{ij}}{k_i - E_{ij}},\\quad
              E_{ij} = \\frac{k_i k_j}{d} + \\frac{k_i}{d}\\sum_x\\Big(\\frac{d - k_j}{d}
              - \\frac{\\binom{d-1-g_x}{k_j}}{\\binom{d}{k_j}}\\Big)

    with g_x the number of features similar to x.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    similarity : d x d matrix, optional
    threshold : float, default 0.9

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When k_i = E_ij for some pair (an empty run, a run of all features).

    Examples
    --------
    >>> from propstab.measures import npogr, npog
    >>> Z = [[1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [0, 1, 1, 0, 0]]
    >>> abs(npogr(Z) - npog(Z)) < 1e-12       # identity similarity
    True
    """
    r, O, g = _pogr_parts(sel, similarity, threshold)
    k = sel.row_sizes
    E = _expected_pogr(k, sel.n_features, g)
    den = k[:, None].astype(np.float64) - E
    den = np.where(np.abs(den) <= 1e-12 * np.maximum(1.0, k[:, None]), 0.0, den)
    return pair_mean("npogr", r + O - E, den, "k_i equals the null expectation E_ij (0/0)")


@register(
    name="pearson", family="correlated", aliases=("phi_pears",),
    summary="mean over pairs of the Pearson correlation of the importance rows w_i, w_j",
    references=(HAMER + ", eq. 5",
                "Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection "
                "algorithms. Knowl. Inf. Syst. 12(1), 95-116"),
    claims=_claims(True, False, True, False, False), lower=-1, upper=1,
    parameters=(IMPORTANCES,),
    notes="With importances=None (weights 0/1) it is the phi coefficient measure `phi`, "
          "which also has the maximum and correction-for-chance properties; with "
          "importances, identical selections with different weights are not maximal "
          "(sqrt(3)/2 for rows [110, 110] weighted (1, 1) and (1, 2)) and, for importances "
          "W = Z * U with fixed positive weights U, E[value|H0] = (4 - 2 sqrt(3))/9 at "
          "d = 3, k = (2, 2), U = (1, 2, 1) for both runs, so these are not claimed.")
def pearson(sel, *, importances=None):
    """phi_pears: the average Pearson correlation between weight vectors (Hamer eq. 5).

    .. math:: \\phi_{pears} = \\frac{2}{M(M-1)}\\sum_{i<j}
              \\frac{\\sum_f (w_{i,f} - \\mu_i)(w_{j,f} - \\mu_j)}
              {\\sqrt{\\sum_f (w_{i,f} - \\mu_i)^2}\\sqrt{\\sum_f (w_{j,f} - \\mu_j)^2}}

    computed from the sparse Gram matrix ``W W^T - d mu mu^T``. With binary weights
    (``importances=None``) it is the phi coefficient (:func:`propstab.measures.phi`).

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
    importances : M x d array, optional
        The weights w (zero exactly where Z is 0); None uses Z itself.

    Returns
    -------
    float

    Warns
    -----
    UndefinedMeasureWarning
        When a run's weights are constant (an empty run, or all d features with equal
        weights).

    Examples
    --------
    >>> from propstab.measures import pearson, phi
    >>> Z = [[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 0]]
    >>> abs(pearson(Z) - phi(Z)) < 1e-12
    True
    >>> round(pearson(Z, importances=[[2, 1, 0, 0], [1, 0, 1, 0], [3, 1, 1, 0]]), 6)
    0.629662
    """
    W = as_importances(importances, sel)
    if W is None:
        W = _csr(sel.tocsr())
    d = sel.n_features
    mu = _rowsum(W) / d
    G = np.asarray((W @ W.T).toarray()) - d * np.outer(mu, mu)
    var = np.diag(G).copy()
    scale = np.maximum(np.abs(_rowsum(W.multiply(W))), 1e-300)
    var[var <= 1e-12 * scale] = 0.0
    den = np.sqrt(np.outer(var, var))
    return pair_mean("pearson", G, den, "a run's weights are constant")


__test__ = module_doctests(__name__)
