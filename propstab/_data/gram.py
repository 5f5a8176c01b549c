"""The intersection counts Z Z^T: two exact products and the cost model choosing one.

``r_ij = |s_i ∩ s_j|`` for every pair of runs is one matrix product. It is computed
either by a float BLAS product (:func:`gram_dense`, exact for integer counts below
2**24 in float32) or by a CSR product (:func:`gram_sparse`); :func:`intersections`
picks the cheaper by the cost model below. The choice never changes the result.

The constants are fitted by ``benchmarks/calibrate_gram.py`` (see
benchmarks/README.md, "The cost model for Z Z^T").
"""
from __future__ import annotations

import numpy as np

__all__ = [
    "DENSE_NS",
    "DENSIFY_MAX_BYTES",
    "DENSIFY_NS",
    "FLOAT32_EXACT",
    "PAIR_BYTES",
    "PAIR_MEMORY_DEFAULT",
    "SCAN_NS",
    "SPARSE_NS",
    "block_rows",
    "dense_gram_ns",
    "dense_is_surely_cheaper",
    "get_pair_memory",
    "gram_dense",
    "gram_sparse",
    "intersection_blocks",
    "intersections",
    "set_pair_memory",
    "sparse_gram_ns",
    "sparse_is_cheaper",
    "use_sparse",
]

FLOAT32_EXACT = 2**24  # integers up to this are exact in float32 sums

# Cost model of the intersection counts Z Z^T, in nanoseconds, fitted by
# benchmarks/calibrate_gram.py (least squares of the relative error) to timings on
# this project's machine: 2 cores, Debian's OpenBLAS 0.3.21 (pthread), scipy 1.10.
# Only the choice of product depends on it, never the result.
DENSE_NS = (4e3, 7e-3, 0.7, 1.0)  # fixed, per M^2 d, per M d, per M^2
SCAN_NS = (0.2, 5.0)  # dense Z -> CSR: per M d, per nnz
SPARSE_NS = (1e5, 19.0, 1.7, 5.7, 0.3)  # fixed, per nnz, per sum F^2, per output, per M^2
DENSIFY_NS = 1.0  # per M d: toarray of a sparse input
DENSIFY_MAX_BYTES = 2**27  # never densify a sparse input beyond this


def dense_gram_ns(M: int, d: int) -> float:
    """Estimated time of ``A @ A.T`` on the float32 copy of a dense boolean Z."""
    fixed, per_m2d, per_md, per_m2 = DENSE_NS
    return fixed + per_m2d * M * M * d + per_md * M * d + per_m2 * M * M


def sparse_gram_ns(M: int, d: int, nnz: float, sum_sq: float, *, scan: bool) -> float:
    """Estimated time of the CSR product ``S @ S.T`` and its dense M x M copy.

    ``sum_sq`` = sum_f F_f^2 (F the column counts) is the number of scalar
    products the CSR product performs and bounds its nonzero outputs (as M^2
    does); ``scan`` adds the conversion of a dense Z to CSR.
    """
    fixed, per_nnz, per_sq, per_out, per_m2 = SPARSE_NS
    cost = fixed + per_nnz * nnz + per_sq * sum_sq + per_out * min(M * M, sum_sq) + per_m2 * M * M
    if scan:
        cost += SCAN_NS[0] * M * d + SCAN_NS[1] * nnz
    return cost


def dense_is_surely_cheaper(M: int, d: int, nnz: int) -> bool:
    """BLAS beats the sparse product on a dense Z whatever its column counts.

    Decided from the number of nonzeros alone, with the least sum_f F_f^2
    possible, nnz^2 / d (Cauchy-Schwarz), and the scan into CSR included: so no
    scan is spent when BLAS wins anyway (few runs, or dense selections).
    """
    return dense_gram_ns(M, d) <= sparse_gram_ns(M, d, nnz, nnz * nnz / d, scan=True)


def sparse_is_cheaper(M: int, d: int, nnz: int, sum_sq: float, *, dense_input: bool) -> bool:
    """Cost model for ``Z Z^T``: is the sparse product cheaper than a float BLAS product?

    The BLAS product costs ~ M^2 d (plus the M d float copy); the CSR product
    costs ~ sum_sq = sum_f F_f^2 with F the column counts (plus nnz and M^2
    terms), so it wins when the selections are sparse and spread, and loses when
    a few features are selected by most runs. For a dense Z the scan into CSR has
    been paid when this is asked; for a sparse Z the dense copy is added to the
    BLAS side (:func:`intersections` asks only when that copy stays under
    ``DENSIFY_MAX_BYTES``, so d = 10^6 is never densified).
    """
    densify_ns = 0.0 if dense_input else DENSIFY_NS * M * d
    return sparse_gram_ns(M, d, nnz, sum_sq, scan=False) < dense_gram_ns(M, d) + densify_ns


def gram_dense(dense: np.ndarray) -> np.ndarray:
    """``Z Z^T`` of a dense boolean Z by one BLAS product (syrk).

    Exact: the sums are integers at most d, exact in float32 below 2**24.
    """
    dtype = np.float32 if dense.shape[1] < FLOAT32_EXACT else np.float64
    A = dense.astype(dtype)
    return (A @ A.T).astype(np.int64)


def gram_sparse(csr) -> np.ndarray:
    """``Z Z^T`` by a CSR product in int64 (int8 data would overflow), as a dense array."""
    S = csr.astype(np.int64)
    return (S @ S.T).toarray()


def use_sparse(selection) -> bool:
    """The cost model's choice for ``Z Z^T`` of a :class:`~propstab.Selection`: the CSR
    product (True) or the float BLAS product (False); see :func:`intersections`."""
    M, d = selection.shape
    dense_input = not selection.is_sparse
    if not dense_input and M * d * 4 > DENSIFY_MAX_BYTES:
        return True
    if dense_input and dense_is_surely_cheaper(M, d, selection.total):
        return False
    csr = selection.tocsr()
    return sparse_is_cheaper(M, d, csr.nnz, selection.column_sum_squares, dense_input=dense_input)


def intersections(selection) -> np.ndarray:
    """``Z Z^T`` of a :class:`~propstab.Selection` (int64, M x M) by the cheaper product.

    A large sparse Z (its float32 copy above ``DENSIFY_MAX_BYTES``, e.g. d = 10^6)
    is never densified. A dense Z goes to BLAS at once when
    :func:`dense_is_surely_cheaper`; otherwise it is scanned into CSR (cached by the
    selection) and :func:`sparse_is_cheaper` decides with the exact sum_f F_f^2.

    Examples
    --------
    >>> from propstab import as_selection
    >>> from propstab._data.gram import intersections
    >>> intersections(as_selection([[1, 1, 0], [0, 1, 1]])).tolist()
    [[2, 1], [1, 2]]
    """
    if use_sparse(selection):
        return gram_sparse(selection.tocsr())
    return gram_dense(selection.toarray())


# ------------------------------------------------------- row blocks in bounded memory

#: Bytes per pair of runs that a row block of Z Z^T holds at once: the int64 counts (8),
#: and the CSR product's output before its dense copy (int32 index + int64 value, 12)
#: or the float32 BLAS output (4). The pair scores are then evaluated on ~1 MB slices.
PAIR_BYTES = 20
PAIR_MEMORY_DEFAULT = 64 * 2**20  # a block's pair matrix stays below ~64 MB
_PAIR_MEMORY = [PAIR_MEMORY_DEFAULT]


def get_pair_memory() -> int:
    """The memory budget (bytes) of one row block of Z Z^T (see :func:`block_rows`)."""
    return _PAIR_MEMORY[0]


def set_pair_memory(memory: int) -> int:
    """Set the budget of :func:`get_pair_memory` (bytes, already validated); returns the
    previous one. The public, validated face is :func:`propstab.settings.set_pair_memory`."""
    previous = _PAIR_MEMORY[0]
    _PAIR_MEMORY[0] = int(memory)
    return previous


def block_rows(n_runs: int, memory=None) -> int:
    """Rows of Z Z^T per block so that a block holds at most ``memory`` bytes
    (default :func:`get_pair_memory`), at least one row.

    >>> block_rows(10_000, 64 * 2 ** 20), block_rows(100, 64 * 2 ** 20)
    (335, 100)
    """
    memory = get_pair_memory() if memory is None else memory
    return int(max(1, min(n_runs, memory // (PAIR_BYTES * max(n_runs, 1)))))


def intersection_blocks(selection, rows: int):
    """The rows of ``Z Z^T`` in blocks of ``rows``: yields ``(start, stop, r)`` with ``r``
    the int64 counts of rows ``start:stop`` against every run, ``(stop - start) x M``.

    Each block is one product of the same kind :func:`intersections` would choose
    (:func:`use_sparse`), so its integers equal the whole matrix's rows exactly; only
    one block is held at a time (peak O(rows x M), not O(M^2)).

    Examples
    --------
    >>> from propstab import as_selection
    >>> sel = as_selection([[1, 1, 0], [0, 1, 1], [1, 0, 1]])
    >>> [(a, b, r.tolist()) for a, b, r in intersection_blocks(sel, 2)]
    [(0, 2, [[2, 1, 1], [1, 2, 1]]), (2, 3, [[1, 1, 2]])]
    """
    M, d = selection.shape
    if use_sparse(selection):
        S = selection.tocsr().astype(np.int64)
        ST = S.T.tocsr()  # one CSR of Z^T, reused by every block
        for start in range(0, M, rows):
            stop = min(M, start + rows)
            yield start, stop, (S[start:stop] @ ST).toarray()
        return
    dtype = np.float32 if d < FLOAT32_EXACT else np.float64
    A = selection.toarray().astype(dtype)
    for start in range(0, M, rows):
        stop = min(M, start + rows)
        yield start, stop, (A[start:stop] @ A.T).astype(np.int64)
