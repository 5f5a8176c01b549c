"""Benchmark propstab's measures against their floor and against R's stabm.

For ``nogueira`` (frequency family) and ``jaccard`` (pairwise family) this prints,
in one run and on the same selections:

- **propstab**: ``propstab.stability(Z, measure)`` on the raw input (a dense
  boolean array or a ``scipy.sparse.csr_matrix``), so validation is included;
- **floor**: the work no implementation can avoid on that input.
  ``nogueira`` needs one pass over the selections, the column counts:
  ``np.count_nonzero(Z, axis=0)`` (dense) or ``np.bincount(Z.indices)`` (sparse).
  ``jaccard`` needs the intersection counts Z Z^T: the faster of a float32 BLAS
  product (``Z.astype(float32)``, then ``A @ A.T``) and a CSR product (CSR built
  from ``np.flatnonzero(Z)``, then ``S @ S.T``; the given matrix itself for sparse
  input). Both are timed and the minimum is the floor. Building each product's
  operand from the input is part of it; the dense M x M copy of the counts is not;
- **stabm**: R's ``stabm::stabilityNogueira`` / ``stabilityJaccard`` on the same
  feature sets, read by ``Rscript`` from a file of 1-based index lists; the time
  is measured inside R with ``system.time`` around the call only (reading the file
  is reported apart). stabm's Jaccard loops over the M(M-1)/2 pairs in R, so it
  is first timed on the first 100 runs; when the full call is estimated above
  ``--stabm-cap`` seconds it is not run and the figure extrapolated by the number
  of pairs is shown, labelled "extrapolated".

Times are medians of at least ``--repeats`` repeats (sub-second timings are
repeated more, within ``--budget`` seconds), propstab and the floor's candidates
interleaved so that load from other processes touches them alike (except the
BLAS candidate, timed in its own loop: OpenBLAS threads spin after a product and
would slow what runs next on 2 cores). The ratios printed are
propstab/floor (target <= 2) and stabm/propstab (target >= 50 for jaccard). For
the sparse case the peak memory of the propstab call is measured with tracemalloc
and checked to be below the size of any dense M x d copy.

Run:  /usr/bin/python3 benchmarks/bench_measures.py            (full, with R)
      /usr/bin/python3 benchmarks/bench_measures.py --quick    (tiny sizes, no R)
"""
from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from typing import Callable, Optional

import numpy as np
import scipy
from scipy import sparse

import propstab

MEASURES = ("nogueira", "jaccard")
TARGET_FLOOR = 2.0  # propstab / floor at most
TARGET_STABM = 50.0  # stabm / propstab at least (pairwise measures)
STABM_SUBSET = 100  # runs on which stabm is timed first, to estimate the full call
MAX_REPEATS = 201  # repeats of a fast timing (see median_times)


@dataclasses.dataclass(frozen=True)
class Case:
    n_runs: int
    n_features: int
    size: int
    form: str  # "dense" or "sparse"

    @property
    def label(self) -> str:
        return f"M={self.n_runs} d={self.n_features} k={self.size} {self.form}"


FULL_CASES = (
    Case(200, 2_000, 50, "dense"),
    Case(1_000, 20_000, 100, "dense"),
    Case(1_000, 1_000_000, 100, "sparse"),
)
QUICK_CASES = (Case(20, 300, 10, "dense"), Case(40, 400_000, 5, "sparse"))


@dataclasses.dataclass
class Row:
    case: str
    measure: str
    propstab_ms: float
    floor_ms: float
    floor_detail: str
    value: float
    stabm_ms: Optional[float] = None
    stabm_timing: str = "not run"
    stabm_value: Optional[float] = None

    @property
    def floor_ratio(self) -> float:
        return self.propstab_ms / self.floor_ms

    @property
    def stabm_ratio(self) -> Optional[float]:
        return None if self.stabm_ms is None else self.stabm_ms / self.propstab_ms


# ------------------------------------------------------------------ data and timing


def feature_sets(case: Case, rng: np.random.Generator) -> list:
    """M uniform random k-subsets of range(d), each sorted (0-based)."""
    return [
        np.sort(rng.choice(case.n_features, case.size, replace=False)) for _ in range(case.n_runs)
    ]


def as_input(case: Case, sets: list):
    """The selection matrix in the case's input form: dense bool, or CSR of float64 ones."""
    M, d = case.n_runs, case.n_features
    indices = np.concatenate(sets)
    indptr = np.arange(M + 1) * case.size
    if case.form == "sparse":
        return sparse.csr_matrix((np.ones(indices.size), indices, indptr), shape=(M, d))
    Z = np.zeros((M, d), dtype=bool)
    Z[np.repeat(np.arange(M), case.size), indices] = True
    return Z


#: the clock of a timing: wall time, or with --cpu the CPU time of the calling thread
#: (``time.thread_time``; BLAS then limited to that one thread), which load from other
#: processes on a shared machine inflates far less than wall time
CLOCK = [time.perf_counter]


def _once(fn: Callable[[], object]) -> float:
    clock = CLOCK[0]
    start = clock()
    fn()
    return clock() - start


def median_times(fns: dict, repeats: int, budget: float) -> tuple:
    """Median seconds of each callable, the callables interleaved within each repeat.

    One untimed warm-up round first; then at least ``repeats`` rounds, more (up to
    ``MAX_REPEATS``) while the rounds fit in ``budget`` seconds, so that sub-millisecond
    timings are medians of many samples. Returns (medians, number of rounds).
    """
    start = time.perf_counter()
    for fn in fns.values():
        fn()
    warm = time.perf_counter() - start
    rounds = max(repeats, min(MAX_REPEATS, int(budget / max(warm, 1e-9))))
    times = {name: [] for name in fns}
    gc.collect()
    gc.disable()  # as timeit does: no collection inside a timing
    try:
        for _ in range(rounds):
            for name, fn in fns.items():
                times[name].append(_once(fn))
    finally:
        gc.enable()
    return {name: float(np.median(t)) for name, t in times.items()}, rounds


# ------------------------------------------------------------------ the floors


def _csr_of_dense(Z: np.ndarray):
    """CSR of a dense Z by one scan (faster than ``scipy.sparse.csr_matrix(Z)``)."""
    M, d = Z.shape
    flat = np.flatnonzero(Z)
    index = np.int32 if max(d, flat.size) < 2**31 else np.int64
    indptr = np.searchsorted(flat, np.arange(M + 1) * d).astype(index)
    return sparse.csr_matrix(
        (np.ones(flat.size, dtype=np.float32), (flat % d).astype(index), indptr), shape=(M, d)
    )


def floor_functions(measure: str, Z) -> dict:
    """The floor's candidate computations on the given input (the fastest counts)."""
    if measure == "nogueira":
        if sparse.issparse(Z):
            return {"bincount": lambda: np.bincount(Z.indices, minlength=Z.shape[1])}
        return {"count_nonzero": lambda: np.count_nonzero(Z, axis=0)}
    if sparse.issparse(Z):
        fns = {"CSR product": lambda: Z @ Z.T}
        if Z.shape[0] * Z.shape[1] * 4 <= 2**30:
            fns["BLAS"] = lambda: (lambda A: A @ A.T)(Z.toarray().astype(np.float32))
        return fns
    return {
        "BLAS": lambda: (lambda A: A @ A.T)(Z.astype(np.float32)),
        "CSR product": lambda: (lambda S: S @ S.T)(_csr_of_dense(Z)),
    }


def time_propstab_and_floor(case: Case, measure: str, Z, repeats: int, budget: float) -> Row:
    """propstab and the floor's candidates, each a median; the floor is the fastest candidate.

    The BLAS candidate is timed in a loop of its own: OpenBLAS's threads keep spinning
    for a while after a product, which on 2 cores would slow whatever runs next.
    """
    floors = floor_functions(measure, Z)
    blas = {name: fn for name, fn in floors.items() if name == "BLAS"}
    t, rounds = median_times(
        {
            "propstab": lambda: propstab.stability(Z, measure),
            **{name: fn for name, fn in floors.items() if name not in blas},
        },
        repeats,
        budget,
    )
    if blas:
        t_blas, rounds_blas = median_times(blas, repeats, budget)
        t.update(t_blas)
    best = min(floors, key=t.get)
    detail = f"medians of {rounds}: " + "; ".join(
        f"{name} {t[name] * 1e3:.3g} ms"
        + (f" (median of {rounds_blas}, own loop)" if name in blas else "")
        for name in floors
    )
    if sparse.issparse(Z) and measure == "jaccard" and not blas:
        gigabytes = Z.shape[0] * Z.shape[1] * 4 / 1e9
        detail += f"; BLAS not run (a float32 copy takes {gigabytes:.1f} GB)"
    return Row(
        case=case.label,
        measure=measure,
        propstab_ms=t["propstab"] * 1e3,
        floor_ms=t[best] * 1e3,
        floor_detail=f"{best} (" + detail + ")",
        value=propstab.stability(Z, measure),
    )


def min_thread_times(fns: dict, rounds: int) -> dict:
    """The least CPU time of the calling thread (``time.thread_time``) of each callable over
    ``rounds`` interleaved rounds (one warm-up first, garbage collection off): the cost
    of the computation itself, the least disturbed by other processes of a shared
    machine (their load inflates wall times and, less, medians of CPU times)."""
    for fn in fns.values():
        fn()
    best = {name: math.inf for name in fns}
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for name, fn in fns.items():
                start = time.thread_time()
                fn()
                best[name] = min(best[name], time.thread_time() - start)
    finally:
        gc.enable()
    return best


#: the case of issue 24 ("small and whole"): jaccard within 2x its floor at M = 200, d = 2,000
SMALL_CASE = Case(200, 2_000, 50, "dense")


def small_case_ratio(case: Case, Z, rounds: int) -> str:
    """One line: jaccard's least thread-CPU time over its floor's (the faster of the CSR
    and BLAS products, BLAS on one thread), interleaved, on ``case``."""
    from threadpoolctl import threadpool_limits

    floors = floor_functions("jaccard", Z)
    with threadpool_limits(1):
        best = min_thread_times(
            {"propstab": lambda: propstab.stability(Z, "jaccard"), **floors}, rounds
        )
    floor = min(floors, key=best.get)
    ratio = best["propstab"] / best[floor]
    ok = ratio <= TARGET_FLOOR
    return (
        f"  {case.label} | jaccard: propstab {best['propstab'] * 1e3:.3g} ms / floor "
        f"({floor}) {best[floor] * 1e3:.3g} ms = {ratio:.2f} "
        f"{'<=' if ok else '>'} {TARGET_FLOOR:g} {'met' if ok else 'MISSED'} "
        f"(least thread-CPU time of {rounds} interleaved rounds)"
    )


def peak_bytes(fn: Callable[[], object]) -> int:
    """Peak of the memory traced by tracemalloc (numpy's arrays included) during ``fn``."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# ------------------------------------------------------------------ R's stabm

R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
path <- args[1]; p <- as.integer(args[2]); cap <- as.numeric(args[3])
repeats <- as.integer(args[4]); subset <- as.integer(args[5])
measures <- strsplit(args[6], ",", fixed = TRUE)[[1]]
suppressPackageStartupMessages(library(stabm))
io <- system.time({
  feats <- lapply(strsplit(readLines(path), " ", fixed = TRUE), as.integer)
})[["elapsed"]]
cat("IO", sprintf("%.6f", io), "\n")
calls <- list(nogueira = function(f) stabilityNogueira(f, p = p),
              jaccard = function(f) stabilityJaccard(f))
M <- length(feats)
for (m in measures) {
  fun <- calls[[m]]
  m0 <- min(M, subset)
  t0 <- system.time(fun(feats[seq_len(m0)]))[["elapsed"]]
  # stabm's pairwise measures loop over pairs, its frequency measures over runs
  scale <- if (m == "nogueira") M / m0 else (M * (M - 1)) / (m0 * (m0 - 1))
  est <- t0 * scale
  if (est > cap) {
    cat("EXTRAPOLATED", m, sprintf("%.6f", est), m0, sprintf("%.6f", t0), "\n")
    next
  }
  n <- max(1L, min(repeats, as.integer(floor(cap / max(est, 1e-3)))))
  times <- numeric(n)
  for (i in seq_len(n)) times[i] <- system.time(v <- fun(feats))[["elapsed"]]
  cat("MEASURED", m, sprintf("%.17g", v), sprintf("%.6f", times), "\n")
}
"""


def stabm_available() -> Optional[str]:
    """None if Rscript with stabm is usable, else the reason it is not."""
    if shutil.which("Rscript") is None:
        return "Rscript not found"
    probe = subprocess.run(
        ["Rscript", "-e", "cat(as.character(packageVersion('stabm')))"],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        return "the R package stabm is not installed (r_compat/install.R)"
    return None


def stabm_version() -> str:
    out = subprocess.run(
        [
            "Rscript",
            "-e",
            "cat(R.version$version.string, '| stabm'," " as.character(packageVersion('stabm')))",
        ],
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def run_stabm(case: Case, sets: list, rows: list, cap: float, repeats: int) -> str:
    """Time stabm on the feature sets; fill the rows' stabm fields; return the I/O note."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sets.txt")
        with open(path, "w") as fh:
            for s in sets:
                fh.write(" ".join(map(str, (s + 1).tolist())) + "\n")
        script = os.path.join(tmp, "bench.R")
        with open(script, "w") as fh:
            fh.write(R_SCRIPT)
        out = subprocess.run(
            [
                "Rscript",
                script,
                path,
                str(case.n_features),
                str(cap),
                str(repeats),
                str(STABM_SUBSET),
                ",".join(r.measure for r in rows),
            ],
            capture_output=True,
            text=True,
        )
    if out.returncode != 0:
        raise RuntimeError(f"Rscript failed:\n{out.stderr}")
    by_measure = {r.measure: r for r in rows}
    io_note = ""
    for line in out.stdout.splitlines():
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "IO":
            io_note = f"R reads the index file in {float(fields[1]) * 1e3:.0f} ms (not counted)"
        elif fields[0] == "MEASURED":
            row = by_measure[fields[1]]
            times = [float(x) for x in fields[3:]]
            row.stabm_value = float(fields[2])
            row.stabm_ms = float(np.median(times)) * 1e3
            row.stabm_timing = f"measured, median of {len(times)}"
        elif fields[0] == "EXTRAPOLATED":
            row = by_measure[fields[1]]
            row.stabm_ms = float(fields[2]) * 1e3
            row.stabm_value = None
            row.stabm_timing = (
                f"EXTRAPOLATED from {fields[3]} runs ({float(fields[4]):.2f} s);"
                f" full call not run (estimate > cap {cap:g} s)"
            )
    return io_note


# ------------------------------------------------------------------ report


def blas_description() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "unknown (threadpoolctl not installed)"
    blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    if not blas:
        return "no BLAS library found by threadpoolctl"
    return "; ".join(
        f"{i.get('internal_api')} {i.get('version')} ({i.get('threading_layer')}, "
        f"{i.get('num_threads')} threads, {i.get('architecture')}) "
        f"{i.get('filepath')}"
        for i in blas
    )


def _fmt(x: Optional[float], spec: str = ".3g") -> str:
    return "n/a" if x is None else format(x, spec)


def print_table(rows: list) -> None:
    head = (
        f"{'case':<34} {'measure':<9} {'propstab_ms':>11} {'floor_ms':>10} "
        f"{'stabm_ms':>10} {'propstab/floor':>14} {'stabm/propstab':>14}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r.case:<34} {r.measure:<9} {r.propstab_ms:>11.3g} {r.floor_ms:>10.3g} "
            f"{_fmt(r.stabm_ms):>10} {r.floor_ratio:>14.2f} {_fmt(r.stabm_ratio, '.1f'):>14}"
        )


def print_details(rows: list, notes: dict) -> None:
    print("\ndetails")
    for r in rows:
        print(f"  {r.case} | {r.measure}")
        print(f"    floor: {r.floor_detail}")
        print(f"    stabm: {r.stabm_timing}")
        if r.stabm_value is not None:
            print(
                f"    value: propstab {r.value:.17g}, stabm {r.stabm_value:.17g}, "
                f"|difference| {abs(r.value - r.stabm_value):.1e}"
            )
        else:
            print(f"    value: propstab {r.value:.17g}")
    for case, lines in notes.items():
        for line in lines:
            print(f"  {case}: {line}")


def print_targets(rows: list) -> None:
    print("\ntargets")
    for r in rows:
        ok = r.floor_ratio <= TARGET_FLOOR
        print(
            f"  {r.case} | {r.measure}: propstab/floor {r.floor_ratio:.2f} "
            f"{'<=' if ok else '>'} {TARGET_FLOOR:g} {'met' if ok else 'MISSED'}"
        )
        if r.measure == "jaccard" and r.stabm_ratio is not None:
            ok = r.stabm_ratio >= TARGET_STABM
            print(
                f"  {r.case} | {r.measure}: stabm/propstab {r.stabm_ratio:.1f} "
                f"{'>=' if ok else '<'} {TARGET_STABM:g} {'met' if ok else 'MISSED'}"
                + (" (stabm extrapolated)" if r.stabm_timing.startswith("EXTRA") else "")
            )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes and no R: checks that the script works"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="least number of repeats per timing (default 7, or 3 with "
        "--quick); fast timings are repeated more, see --budget",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="seconds per timing within which fast timings add repeats, "
        f"up to {MAX_REPEATS} (default 1, or 0.05 with --quick)",
    )
    parser.add_argument("--stabm-repeats", type=int, default=3)
    parser.add_argument(
        "--stabm-cap",
        type=float,
        default=120.0,
        help="seconds: a stabm call estimated longer is not run (default 120)",
    )
    parser.add_argument("--no-r", action="store_true", help="skip R's stabm")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument(
        "--small-rounds",
        type=int,
        default=300,
        help="rounds of the small case's least-CPU-time ratio (default 300)",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time by the CPU time of the calling thread, BLAS on that one "
        "thread (for a loaded machine: wall time counts the waits)",
    )
    parser.add_argument(
        "--small-only",
        action="store_true",
        help="only the small case's least-CPU-time ratio (jaccard, M=200, " "d=2,000)",
    )
    args = parser.parse_args(argv)
    if args.small_only:
        Z_small = as_input(SMALL_CASE, feature_sets(SMALL_CASE, np.random.default_rng(args.seed)))
        print("small and whole (issue 24): jaccard over its floor, by least CPU time")
        print(small_case_ratio(SMALL_CASE, Z_small, args.small_rounds))
        return 0
    if args.cpu:
        from threadpoolctl import threadpool_limits

        CLOCK[0] = time.thread_time
        limits = threadpool_limits(1)  # noqa: F841 (kept for the whole run)
    repeats = args.repeats or (3 if args.quick else 7)
    budget = args.budget if args.budget is not None else (0.05 if args.quick else 1.0)
    cases = QUICK_CASES if args.quick else FULL_CASES
    use_r = not (args.quick or args.no_r)
    why_no_r = None
    if use_r:
        why_no_r = stabm_available()
        use_r = why_no_r is None
    elif args.quick:
        why_no_r = "--quick"
    else:
        why_no_r = "--no-r"

    print(
        "propstab benchmark: propstab vs its floor vs R's stabm "
        f"(medians of at least {repeats} repeats; times in ms)"
    )
    print(
        f"numpy {np.__version__}, scipy {scipy.__version__}, "
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    )
    print(f"BLAS: {blas_description()}")
    if args.cpu:
        print("clock: CPU time of the calling thread (--cpu), BLAS on one thread")
    print(f"R: {stabm_version() if use_r else 'not run (' + why_no_r + ')'}")
    print()

    rng = np.random.default_rng(args.seed)
    rows, notes = [], {}
    for case in cases:
        sets = feature_sets(case, rng)
        Z = as_input(case, sets)
        case_rows = [time_propstab_and_floor(case, m, Z, repeats, budget) for m in MEASURES]
        rows += case_rows
        notes[case.label] = []
        if case.form == "sparse":
            dense_bytes = case.n_runs * case.n_features  # even a bool copy is this big
            for m in MEASURES:
                peak = peak_bytes(lambda: propstab.stability(Z, m))
                if peak >= dense_bytes // 2:
                    raise AssertionError(
                        f"{case.label}, {m}: peak memory {peak} bytes suggests "
                        f"a dense M x d copy ({dense_bytes} bytes as bool)"
                    )
                notes[case.label].append(
                    f"{m}: peak traced memory {peak / 1e6:.1f} MB, below half of a dense bool "
                    f"M x d copy ({dense_bytes / 1e6:.0f} MB): no dense copy"
                )
        if use_r:
            io = run_stabm(case, sets, case_rows, args.stabm_cap, args.stabm_repeats)
            if io:
                notes[case.label].append(io)

    print_table(rows)
    print_details(rows, notes)
    print_targets(rows)
    small = QUICK_CASES[0] if args.quick else SMALL_CASE
    Z_small = as_input(small, feature_sets(small, np.random.default_rng(args.seed)))
    print("\nsmall and whole (issue 24): jaccard over its floor, by least CPU time")
    print(small_case_ratio(small, Z_small, 20 if args.quick else args.small_rounds))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(
                [
                    {
                        **dataclasses.asdict(r),
                        "floor_ratio": r.floor_ratio,
                        "stabm_ratio": r.stabm_ratio,
                    }
                    for r in rows
                ],
                fh,
                indent=1,
            )
    if not all(math.isfinite(r.floor_ratio) for r in rows):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
