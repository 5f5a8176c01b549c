"""Similarity graphs, pairs of runs and the intersection scores of the correlated family.

The machinery of :mod:`propstab.measures.correlated` that works on pairs of runs:
the validated similarity matrix and its thresholded graph (:class:`Graph`), the pairs
i < j and the edges of their bipartite graphs (:func:`pair_edges`, all pairs at
once), and the per-pair scores I(F_i, F_j) of stabm's adjusted measures (Yu,
intersection count / mean / greedy / MBM, Zucknick) and of POGR. A score takes two
P x d matrices of 0/1 rows (row p: the two runs of pair p), dense or csr.
"""
from __future__ import annotations

import dataclasses
import functools

import numpy as np
from scipy import sparse

from .._data.convert_matrices import as_importances, as_similarity
from ._common import FifoMemo


#: Validated similarity matrices and their graphs, by content (see :func:`_memo_key`):
#: {key: [C, Graph or None]}, oldest dropped first.
_VALIDATED = FifoMemo(256)
#: Only small dense similarity matrices are memoised (their bytes are the key).
_MEMO_CELLS = 4096


def _memo_key(similarity, d, threshold):
    """The content of a small dense (or absent) similarity, d and the threshold; None
    for anything else (sparse, DataFrame, lists, large matrices, a threshold other than
    None or a plain int or float: validated every time)."""
    if threshold is not None and type(threshold) not in (int, float):
        return None
    if similarity is None:
        content = None
    elif (
        type(similarity) is np.ndarray
        and similarity.ndim == 2
        and similarity.size <= _MEMO_CELLS
        and similarity.dtype.kind in "biuf"
    ):
        content = (similarity.dtype.str, similarity.shape, similarity.tobytes())
    else:
        return None
    return content, int(d), type(threshold), threshold


def _read_only(X):
    """X with its stored arrays frozen (a memoised matrix is shared by its callers)."""
    for a in (X.data, X.indices, X.indptr):
        a.flags.writeable = False
    return X


def _memo(key):
    return None if key is None else _VALIDATED.get_or_make(key, lambda: [None, None])


def similarity_matrix(sel, similarity, threshold=None):
    """The validated similarity (:func:`propstab._data.convert_matrices.as_similarity`), csr.

    A small dense ndarray (or None) is validated once per content, d and threshold and
    the same read-only csr returned afterwards: the result is a function of them alone,
    and the audit's exact enumerations call a measure up to 256 times with one C.
    """
    key = _memo_key(similarity, sel.n_features, threshold)
    entry = _memo(key)
    if entry is not None and entry[0] is not None:
        return entry[0]
    C = as_similarity(
        similarity, sel.n_features, threshold=threshold, feature_names=sel.feature_names
    )
    if entry is not None:
        entry[0] = _read_only(C)
    return C


def off_diagonal(C):
    """C without its diagonal (the similarity of distinct features), csr."""
    C0 = (C - sparse.diags(C.diagonal())).tocsr()
    C0.eliminate_zeros()
    return C0


def binary(C):
    B = C.copy()
    B.data[:] = 1.0
    return B


def rowsum(X) -> np.ndarray:
    return np.asarray(X.sum(axis=1)).ravel()


@functools.lru_cache(maxsize=64)
def upper_pairs(M):
    """The pairs i < j of M runs, ``np.triu_indices(M, 1)`` (read-only, one per M)."""
    ii, jj = np.triu_indices(M, 1)
    ii.flags.writeable = False
    jj.flags.writeable = False
    return ii, jj


def pair_rows(Zf, ii, jj):
    """The selection rows of the runs of each pair, as two P x d csr matrices."""
    return Zf[ii].tocsr(), Zf[jj].tocsr()


def pair_edges(L, R, W):
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
    rkeys = Rc.row.astype(np.int64) * d + Rc.col  # sorted: R is csr, sorted indices
    keys = p * d + y
    right = np.searchsorted(rkeys, keys)
    right = np.minimum(right, max(rkeys.size - 1, 0))
    keep = (rkeys.size > 0) & (rkeys[right] == keys) if rkeys.size else np.zeros(total, bool)
    return p[keep], left[keep], right[keep], w[keep]


def as_csr(Z):
    Z = Z.tocsr().astype(np.float64)
    Z.sort_indices()
    return Z


@dataclasses.dataclass(frozen=True)
class Graph:
    """The thresholded similarity: weights C0 (off-diagonal) and 0/1 adjacency B."""

    C0: object
    B: object
    degree: np.ndarray
    mean_off: float

    @classmethod
    def build(cls, sel, similarity, threshold):
        """The graph of a similarity (memoised with it, read-only, by
        :func:`similarity_matrix`'s key)."""
        C = similarity_matrix(sel, similarity, threshold)
        entry = _memo(_memo_key(similarity, sel.n_features, threshold))
        if entry is not None and entry[1] is not None:
            return entry[1]
        C0 = off_diagonal(C)
        d = sel.n_features
        mean_off = float(C0.sum()) / (d * (d - 1)) if d > 1 else 0.0
        g = cls(C0=C0, B=binary(C0), degree=np.diff(C0.indptr), mean_off=mean_off)
        if entry is not None:
            _read_only(g.C0), _read_only(g.B)
            g.degree.flags.writeable = False
            entry[1] = g
        return g


# The per-pair scores take two P x d matrices of 0/1 rows (row p: the two runs of pair
# p), dense ndarrays when P d is small (faster) or csr matrices; these helpers do both.
DENSE_CELLS = 20_000_000


def workform(Z):
    """csr -> dense float array when small enough, else csr with sorted indices."""
    if Z.shape[0] * Z.shape[1] <= DENSE_CELLS:
        return Z.toarray()
    return as_csr(Z)


def multiply(X, Y):
    if isinstance(X, np.ndarray):
        return X * (Y.toarray() if sparse.issparse(Y) else Y)
    return X.multiply(Y).tocsr()


#: Dense 0/1 X with at least this many rows is multiplied through its distinct rows
#: (:func:`times`).
DISTINCT_ROWS_FROM = 256


def _distinct_rows(X):
    """(first, inverse) of the distinct rows of a 0/1 matrix (``X[first][inverse]`` is X),
    found from its rows packed into bits; None when X has another value."""
    if np.count_nonzero(X) != np.count_nonzero(X == 1):
        return None
    packed = np.packbits(X != 0, axis=1)
    _, first, inverse = np.unique(
        packed.view(np.dtype((np.void, packed.shape[1]))).ravel(),
        return_index=True,
        return_inverse=True,
    )
    return first, inverse.ravel()


def times(X, W):
    """X @ W for a symmetric sparse W (dense X gives a dense result).

    A tall dense X (the pairs of many runs: P = M (M - 1) rows of 0/1) repeats few distinct
    rows; W is then multiplied with those alone and the result spread back. Each entry of
    ``W @ X.T`` is its own sum over W's stored row (scipy's csr_matvecs), whatever the
    other columns, so the values are the same to the last bit; the result has the same
    layout (the transpose of a C-ordered d x P array)."""
    if isinstance(X, np.ndarray):
        distinct = _distinct_rows(X) if X.shape[0] >= DISTINCT_ROWS_FROM else None
        if distinct is not None and 2 * len(distinct[0]) <= X.shape[0]:
            first, inverse = distinct
            return np.asarray(W @ X[first].T).take(inverse, axis=1).T
        return np.asarray((W @ X.T).T)
    return X @ W


def to_csr(X):
    return as_csr(sparse.csr_matrix(X)) if isinstance(X, np.ndarray) else X


def split(Z1, Z2):
    """Intersection sizes and the two set differences of each pair of rows."""
    both = multiply(Z1, Z2)
    r = rowsum(both)
    D1, D2 = Z1 - both, Z2 - both
    if not isinstance(D1, np.ndarray):
        D1, D2 = D1.tocsr(), D2.tocsr()
        D1.eliminate_zeros()
        D2.eliminate_zeros()
    return r, D1, D2


def n_with_neighbour(D, E, B):
    """For each pair p: #x in D[p] with at least one neighbour (in B) in E[p]."""
    return rowsum(multiply(D, times(E, B) > 0))


def score_yu(Z1, Z2, g):
    r, D1, D2 = split(Z1, Z2)
    return r + (n_with_neighbour(D1, D2, g.B) + n_with_neighbour(D2, D1, g.B)) / 2


def count_parts(Z1, Z2, g):
    """r and the two directed counts of :func:`score_count`: #x in F_1 minus F_2 with a
    similar feature in F_2 minus F_1, and the same the other way."""
    r, D1, D2 = split(Z1, Z2)
    return r, n_with_neighbour(D1, D2, g.B), n_with_neighbour(D2, D1, g.B)


def score_count(Z1, Z2, g):
    r, o12, o21 = count_parts(Z1, Z2, g)
    return r + np.minimum(o12, o21)


def mean_similarity_sum(D, E, g):
    """sum over x in D[p] with neighbours in E[p] of the mean similarity to them."""
    cnt = multiply(D, times(E, g.B))
    tot = multiply(D, times(E, g.C0))
    if isinstance(cnt, np.ndarray):
        return np.divide(tot, cnt, out=np.zeros_like(tot), where=cnt > 0).sum(axis=1)
    return rowsum(tot.multiply(cnt.power(-1.0)))


def mean_parts(Z1, Z2, g):
    """r and the two directed sums of mean similarities of :func:`score_mean`."""
    r, D1, D2 = split(Z1, Z2)
    return r, mean_similarity_sum(D1, D2, g), mean_similarity_sum(D2, D1, g)


def score_mean(Z1, Z2, g):
    r, m12, m21 = mean_parts(Z1, Z2, g)
    return r + np.minimum(m12, m21)


def score_mbm(Z1, Z2, g):
    """r + maximum bipartite matching between the differences, all pairs in one call."""
    from scipy.sparse.csgraph import maximum_bipartite_matching

    r, D1, D2 = split(Z1, Z2)
    D1, D2 = to_csr(D1), to_csr(D2)
    p, left, right, _ = pair_edges(D1, D2, g.B)
    if p.size == 0:
        return r
    G = sparse.csr_matrix((np.ones(p.size), (left, right)), shape=(D1.nnz, D2.nnz))
    match = maximum_bipartite_matching(G, perm_type="column")
    lp = np.repeat(np.arange(Z1.shape[0]), np.diff(D1.indptr))
    return r + np.bincount(lp[match >= 0], minlength=Z1.shape[0])


def score_greedy(Z1, Z2, g):
    """r + greedy matching between the differences, highest similarity first.

    Ties are taken in column-major order of the (F_i minus F_j) x (F_j minus F_i)
    similarity block (features in increasing index order).
    """
    r, D1, D2 = split(Z1, Z2)
    D1, D2 = to_csr(D1), to_csr(D2)
    p, left, right, w = pair_edges(D1, D2, g.C0)
    order = np.lexsort((left, right, -w, p))
    p, left, right = p[order], left[order], right[order]
    add = np.zeros(Z1.shape[0])
    cuts = np.searchsorted(p, np.arange(Z1.shape[0] + 1))
    for t in np.nonzero(np.diff(cuts))[0]:  # greedy matching is sequential per pair
        used_l, used_r = set(), set()
        for a, b in zip(
            left[cuts[t] : cuts[t + 1]].tolist(), right[cuts[t] : cuts[t + 1]].tolist()
        ):
            if a not in used_l and b not in used_r:
                used_l.add(a)
                used_r.add(b)
        add[t] = len(used_l)
    return r + add


def score_zucknick(Z1, Z2, g):
    r, D1, D2 = split(Z1, Z2)
    a, b = rowsum(Z1), rowsum(Z2)
    s21 = rowsum(multiply(D2, times(Z1, g.C0)))  # sum over x in F2 minus F1, y in F1
    s12 = rowsum(multiply(D1, times(Z2, g.C0)))
    add1 = np.divide(s21, b, out=np.zeros_like(s21), where=b > 0)
    add2 = np.divide(s12, a, out=np.zeros_like(s12), where=a > 0)
    union = a + b - r
    with np.errstate(divide="ignore", invalid="ignore"):
        return (r + add1 + add2) / union


def pogr_parts(sel, similarity, threshold):
    """r_ij, O_ij (ordered) and the graph: O_ij = #x in F_i minus F_j with a similar y in F_j."""
    g = Graph.build(sel, similarity, threshold)
    Z = as_csr(sel.tocsr())
    H = ((Z @ g.B) > 0).astype(np.float64)  # H[j, x]: x has a neighbour in F_j
    r = sel.intersections.astype(np.float64)
    O = np.asarray((Z @ H.T).toarray()) - np.asarray((Z @ Z.multiply(H).T).toarray())
    return r, O, g


def pearson_parts(sel, importances):
    """The M x M numerator and denominator of the Pearson correlations of the importance
    rows (Hamer eq. 5): the sparse Gram matrix ``W W^T - d mu mu^T`` and the product of
    the rows' sums of squares (0 where a row's weights are constant, up to rounding).
    ``importances=None`` uses Z itself (the phi coefficient)."""
    W = as_importances(importances, sel)
    if W is None:
        W = as_csr(sel.tocsr())
    d = sel.n_features
    mu = rowsum(W) / d
    G = np.asarray((W @ W.T).toarray()) - d * np.outer(mu, mu)
    var = np.diag(G).copy()
    scale = np.maximum(np.abs(rowsum(W.multiply(W))), 1e-300)
    var[var <= 1e-12 * scale] = 0.0
    return G, np.sqrt(np.outer(var, var))
