"""Benchmark phi_msi (Hamer and Dupont 2021, eqs 8-12) against the generic dense LP.

In one run and on the same selections it times:

- **propstab**: ``propstab.measures.msi(Z, similarity=S[, importances=W])``, input
  validation included. Only selected features with a positive similarity enter the
  problems; 0/1 similarities with equal importances are solved as one integer
  maximum-flow problem, real similarities with equal importances and a constant size
  as one assignment problem per pair (Theorem 5.1), anything else as LPs batched
  many pairs per HiGHS call;
- **dense one by one**: the textbook formulation, one ``scipy.optimize.linprog``
  (HiGHS) call per pair of runs with all k_i k_j links as variables and a dense
  constraint matrix (eqs 9-10), as one would code eq. (8) directly.

Both values are checked to agree (1e-8). Three cases on M runs of k features among
d: 0/1 group similarity; real-valued within-group similarities; real similarities
with real importances. Selections mimic a selector swapping inside correlated
groups: 3/4 of each run come from 10 relevant groups of 10 features, the rest at
random. Targets (full size M=100, k=20, d=2000): propstab under 5 s and at least 5x
faster than the dense one-by-one LPs, for every case. The exit code is 1 when a
target is missed.

Run:  /usr/bin/python3 benchmarks/bench_msi.py            (M=100, k=20, d=2000)
      /usr/bin/python3 benchmarks/bench_msi.py --quick    (M=16, k=10, d=400)
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

import propstab
from propstab.measures import msi

TARGET_SECONDS = 5.0
TARGET_RATIO = 5.0


def make_case(M, k, d, seed=0, group=10, n_relevant=10):
    rng = np.random.default_rng(seed)
    groups = np.arange(d).reshape(-1, group)
    relevant = groups[rng.choice(len(groups), n_relevant, replace=False)].ravel()
    Z = np.zeros((M, d), bool)
    n_rel = (3 * k) // 4
    for i in range(M):  # data generation only
        pick = rng.choice(relevant, n_rel, replace=False)
        rest = rng.choice(np.setdiff1d(np.arange(d), pick), k - n_rel, replace=False)
        Z[i, pick] = Z[i, rest] = True
    binary = propstab.similarity_from_groups([g.tolist() for g in groups], d)
    real = binary.tocoo()
    vals = rng.uniform(0.5, 1.0, real.nnz)
    real = sparse.csr_matrix((vals, (real.row, real.col)), shape=(d, d))
    real = sparse.triu(real, 1)
    real = (real + real.T + sparse.identity(d)).tocsr()
    W = np.where(Z, rng.uniform(0.1, 2.0, Z.shape), 0.0)
    return Z, binary, real, W


def dense_one_by_one(Z, S, W=None):
    """eq. (8) coded directly: one dense LP with k_i k_j variables per pair."""
    S = S.toarray() if sparse.issparse(S) else np.asarray(S)
    Wf = Z.astype(float) if W is None else W
    shares = Wf / Wf.sum(axis=1, keepdims=True)
    M = Z.shape[0]
    total = 0.0
    for i in range(M):
        Fi = np.flatnonzero(Z[i])
        for j in range(i + 1, M):
            Fj = np.flatnonzero(Z[j])
            a, b = Fi.size, Fj.size
            A = np.zeros((a + b, a * b))
            A[np.repeat(np.arange(a), b), np.arange(a * b)] = 1
            A[a + np.tile(np.arange(b), a), np.arange(a * b)] = 1
            res = linprog(
                -S[np.ix_(Fi, Fj)].ravel(),
                A_ub=A,
                b_ub=np.concatenate([shares[i, Fi], shares[j, Fj]]),
                bounds=(0, None),
                method="highs",
            )
            total -= res.fun
    return total / (M * (M - 1) / 2)


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - t


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (seconds)")
    args = parser.parse_args(argv)
    M, k, d = (16, 10, 400) if args.quick else (100, 20, 2000)
    Z, binary, real, W = make_case(M, k, d)
    print(f"phi_msi benchmark: M={M}, k={k}, d={d} ({M * (M - 1) // 2} pairs of runs)")
    print(f"{'case':<34}{'propstab s':>11}{'dense LPs s':>13}{'ratio':>8}{'value':>10}  ok")
    ok_all = True
    cases = [
        ("0/1 similarity (max flow)", binary, None),
        ("real similarity (assignment)", real, None),
        ("real similarity + importances (LP)", real, W),
    ]
    for label, S, Wi in cases:
        fast, t_fast = timed(msi, Z, similarity=S, importances=Wi)
        slow, t_slow = timed(dense_one_by_one, Z, S, Wi)
        agree = abs(fast - slow) <= 1e-8
        ratio = t_slow / t_fast
        ok = agree and (args.quick or (t_fast < TARGET_SECONDS and ratio >= TARGET_RATIO))
        ok_all &= ok
        print(
            f"{label:<34}{t_fast:>11.3f}{t_slow:>13.2f}{ratio:>8.1f}{fast:>10.6f}  "
            f"{'yes' if ok else 'NO'}{'' if agree else ' (values differ: %.3g)' % slow}"
        )
    if not args.quick:
        print(
            f"targets: propstab < {TARGET_SECONDS:g} s and >= {TARGET_RATIO:g}x faster than "
            f"the dense LPs: {'met' if ok_all else 'MISSED'}"
        )
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
