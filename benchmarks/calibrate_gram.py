"""Calibrate the cost model that chooses how propstab computes Z Z^T.

``Selection.intersections`` computes the intersection counts Z Z^T either by one
float32 BLAS product or by a CSR product (propstab/_data/gram.py). The choice is made
by ``dense_is_surely_cheaper`` and ``sparse_is_cheaper`` from the constants
``DENSE_NS``, ``SCAN_NS`` and ``SPARSE_NS`` of that module. This script times both paths on a grid of selection matrices
(uniform and "stable" selections, where a core of features is chosen by most
runs), fits those constants by weighted least squares (relative error), and
prints the fitted constants next to the ones in use, with the regret of the
choice made by the constants in use: the chosen path's time over the faster
path's time, per case.

Run:  /usr/bin/python3 benchmarks/calibrate_gram.py [--quick]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.optimize import nnls

from propstab._data import gram as _gram
from propstab._data.selection import column_counts_csr, csr_from_dense


def _median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def selections(rng, M: int, d: int, k: int, kind: str) -> np.ndarray:
    """A dense boolean M x d matrix with k features per run.

    ``uniform``: each run a uniform random k-subset; ``stable``: each run takes
    Binomial(k, 0.8) features of one fixed core of k features, the rest at random.
    """
    Z = np.zeros((M, d), dtype=bool)
    if kind == "uniform":
        Z[np.arange(M)[:, None], np.argsort(rng.random((M, d)), axis=1)[:, :k]] = True
        return Z
    core = rng.choice(d, k, replace=False)
    outside = np.setdiff1d(np.arange(d), core)
    for i in range(M):
        n_out = min(rng.binomial(k, 0.2), outside.size)
        Z[i, rng.choice(core, k - n_out, replace=False)] = True
        Z[i, rng.choice(outside, n_out, replace=False)] = True
    return Z


def grid(quick: bool):
    if quick:
        return [
            (M, d, k, kind)
            for M in (20, 60)
            for d in (200, 1000)
            for k in (5, 50)
            for kind in ("uniform", "stable")
        ]
    return [
        (M, d, k, kind)
        for M in (20, 100, 300, 1000)
        for d in (500, 5000, 20000)
        for k in (10, 100, 400)
        for kind in ("uniform", "stable")
        if k < d and M * d <= 2e7
    ]


def measure(cases, repeats: int, rng):
    """Per case: M, d, k, kind, nnz, sum F^2, and the times of the BLAS path, of
    the scan of Z into CSR and of the CSR product."""
    rows = []
    for M, d, k, kind in cases:
        Z = selections(rng, M, d, k, kind)
        csr = csr_from_dense(Z)
        F = column_counts_csr(csr, d).astype(np.float64)
        dense = _gram.gram_dense(Z)
        sparse = _gram.gram_sparse(csr)
        if not np.array_equal(dense, sparse):
            raise AssertionError(f"the two products differ at M={M}, d={d}, k={k}, {kind}")
        t_dense = _median_time(lambda: _gram.gram_dense(Z), repeats)
        t_scan = _median_time(lambda: csr_from_dense(Z), repeats)
        t_sparse = _median_time(lambda: _gram.gram_sparse(csr), repeats)
        rows.append((M, d, k, kind, F.sum(), float(F @ F), t_dense, t_scan, t_sparse))
    return rows


def fit(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Non-negative least squares of relative error: min ||(X c - y) / y||."""
    coef, _ = nnls(X / y[:, None], np.ones_like(y))
    return coef


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny grid (a smoke test)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(20240601)
    rows = measure(grid(args.quick), 1 if args.quick else args.repeats, rng)
    M, d, nnz, sq, t_dense, t_scan, t_sparse = (
        np.array([r[i] for r in rows], dtype=np.float64) for i in (0, 1, 4, 5, 6, 7, 8)
    )
    ns = 1e9
    dense_X = np.c_[np.ones_like(M), M * M * d, M * d, M * M]
    dense_c = fit(dense_X, t_dense * ns)
    # the scan (dense Z -> CSR) and the product are timed apart; the model adds them
    scan_c = fit(np.c_[M * d, nnz], t_scan * ns)
    prod_c = fit(np.c_[np.ones_like(M), nnz, sq, np.minimum(M * M, sq), M * M], t_sparse * ns)
    print(
        "fitted DENSE_NS  (fixed, per M^2 d, per M d, per M^2):",
        ", ".join(f"{c:.3g}" for c in dense_c),
    )
    print("fitted SCAN_NS   (per M d, per nnz):", ", ".join(f"{c:.3g}" for c in scan_c))
    print(
        "fitted SPARSE_NS (fixed, per nnz, per sum F^2, per output, per M^2):",
        ", ".join(f"{c:.3g}" for c in prod_c),
    )
    for name in ("DENSE_NS", "SCAN_NS", "SPARSE_NS"):
        print(f"in use {name:<9}:", ", ".join(f"{c:.3g}" for c in getattr(_gram, name)))
    print()
    print(
        f"{'M':>5} {'d':>6} {'k':>4} {'kind':>8} {'BLAS ms':>9} {'CSR ms':>9} "
        f"{'chosen':>7} {'regret':>7}"
    )
    regrets = []
    for r, td, ts, tsp in zip(rows, t_dense, t_scan, t_sparse):
        Mi, di, ki, kind = r[:4]
        # what Selection.intersections does on a dense Z: BLAS at once when the
        # count of nonzeros shows it is cheaper anyway, otherwise the scan into CSR,
        # then the cheaper product by the model
        if _gram.dense_is_surely_cheaper(Mi, di, int(r[4])):
            chosen, spent = "BLAS", td
        elif _gram.sparse_is_cheaper(Mi, di, r[4], r[5], dense_input=True):
            chosen, spent = "CSR", ts + tsp
        else:
            chosen, spent = "BLAS", ts + td
        best = min(td, ts + tsp)
        regrets.append(spent / best)
        print(
            f"{Mi:>5} {di:>6} {ki:>4} {kind:>8} {td * 1e3:>9.3f} {(ts + tsp) * 1e3:>9.3f} "
            f"{chosen:>7} {spent / best:>7.2f}"
        )
    print(
        f"\nregret of the model in use: median {np.median(regrets):.2f}, "
        f"max {np.max(regrets):.2f} (chosen path's time / faster path's time)"
    )


if __name__ == "__main__":
    main()
