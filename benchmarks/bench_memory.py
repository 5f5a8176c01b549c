"""Peak memory and time of a pairwise measure: row blocks of Z Z^T vs the whole matrix.

Each (M, path) runs in its own subprocess, which builds the same seeded CSR selection
(M runs, d features, k per run), calls ``propstab.stability(S, "jaccard")`` and
reports its time and its peak resident memory (``resource.getrusage`` ``ru_maxrss``:
the whole process, interpreter, numpy and the input included; and the increase over
the peak just before the call). The blocked path uses the default budget
(``propstab.settings.get_pair_memory()``, 64 MiB per block); the whole-matrix path
sets a budget above M^2 so that one block holds every row (the former path, which
held the M x M counts). The values of both paths are printed in full and must be equal.

    /usr/bin/python3 benchmarks/bench_memory.py              # M = 10^4 and 3 x 10^4, d = 10^6
    /usr/bin/python3 benchmarks/bench_memory.py --quick      # M = 500, 1000, d = 10^5 (the test)
    /usr/bin/python3 benchmarks/bench_memory.py --whole-up-to 30000   # also the 7 GB whole path

By default the whole-matrix path runs only up to M = 10^4 (``--whole-up-to``): at
M = 3 x 10^4 it holds about 7 GB, too much beside other jobs on a shared machine.
Also prints the sampled-pairs estimate (``pairs=``, 10^5 pairs) at the largest M, its
time and its distance to the exact value in standard errors, and at M = 10^5,
d = 10^4; ``--growth`` adds the exact blocked path on a grid of M and d (with
``--quick``, in one subprocess: its rows' times only, the peak is the running one). Wall times
depend on the load of the machine; the cpu column (``time.process_time``, all threads)
less so.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def selection(M: int, d: int, k: int, seed: int = 0):
    """The benchmark's CSR selection: M uniform random k-subsets of d features."""
    import numpy as np
    from scipy import sparse

    rng = np.random.default_rng(seed)
    draws = np.sort(rng.integers(0, d, (M, 2 * k)), axis=1)  # k distinct of 2k draws
    fresh = np.ones(draws.shape, dtype=bool)
    fresh[:, 1:] = draws[:, 1:] != draws[:, :-1]
    priority = np.where(fresh, rng.random(draws.shape), np.inf)  # a uniform k of the distinct
    chosen = np.sort(
        np.take_along_axis(draws, np.argsort(priority, axis=1)[:, :k], axis=1), axis=1
    )
    short = np.flatnonzero(fresh.sum(axis=1) < k)  # (d small): redraw those rows
    for i in short:
        chosen[i] = np.sort(rng.choice(d, k, replace=False))
    indices = chosen.ravel()
    return sparse.csr_matrix((np.ones(M * k), indices, np.arange(M + 1) * k), shape=(M, d))


def child(M: int, d: int, k: int, path: str, pairs: int, memory: int) -> dict:
    """One measurement in this process (run by the parent as a subprocess)."""
    import resource
    import propstab
    from propstab.settings import get_pair_memory, set_pair_memory

    S = selection(M, d, k)
    if memory:
        set_pair_memory(memory)
    if path == "whole":
        set_pair_memory(max(get_pair_memory(), 64 * M * M))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start, cpu = time.perf_counter(), time.process_time()
    if path == "sampled":
        est = propstab.estimate(S, "jaccard", pairs=pairs, random_state=0)
        value, extra = est.statistic, {"standard_error": est.standard_error}
    else:
        value, extra = propstab.stability(S, "jaccard"), {}
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return dict(
        M=M,
        d=d,
        k=k,
        path=path,
        seconds=seconds,
        cpu_seconds=cpu,
        peak_bytes=peak,
        increase_bytes=max(0, peak - before),
        value=repr(float(value)),
        budget=get_pair_memory(),
        **extra,
    )


def measure(M, d, k, path, pairs, timeout, memory=0):
    cmd = [
        sys.executable,
        os.path.abspath(__file__),
        "--child",
        str(M),
        str(d),
        str(k),
        path,
        str(pairs),
        str(memory),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure_in_one(specs, timeout):
    """Several measurements ``(M, d, k, path, pairs, memory)`` in one subprocess, one
    after the other (one interpreter start instead of one each; each row's peak is then
    the process's peak so far)."""
    cmd = [sys.executable, os.path.abspath(__file__), "--children", json.dumps(specs)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--whole-up-to",
        type=int,
        default=10_000,
        help="run the whole-matrix path only up to this M",
    )
    parser.add_argument("--json", help="write the rows to this file")
    parser.add_argument(
        "--growth",
        action="store_true",
        help="also time the exact blocked path on a grid of M and d",
    )
    parser.add_argument(
        "--memory",
        type=int,
        default=0,
        help="pair-memory budget of the blocked path in bytes (default: "
        "the library's, 64 MiB; --quick: 1 MB, so that it blocks)",
    )
    parser.add_argument("--child", nargs=6, help=argparse.SUPPRESS)
    parser.add_argument("--children", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.children:
        print(json.dumps([child(*spec) for spec in json.loads(args.children)]))
        return 0
    if args.child:
        M, d, k, path, pairs, memory = args.child
        print(json.dumps(child(int(M), int(d), int(k), path, int(pairs), int(memory))))
        return 0
    sizes, d, k, pairs = (
        ((500, 1000), 100_000, 20, 20_000)
        if args.quick
        else ((10_000, 30_000), 1_000_000, 100, 100_000)
    )
    memory = args.memory or (10**6 if args.quick else 0)
    rows = []
    print(
        f"jaccard, CSR input, d = {d}, k = {k} per run; peak = ru_maxrss of the subprocess; "
        f"blocked budget {memory or 'default (64 MiB)'}"
    )
    print(f"{'M':>7} {'path':>8} {'time s':>8} {'cpu s':>8} {'peak GB':>8} {'call +GB':>9}  value")
    for M in sizes:
        paths = ["blocked"] + (["whole"] if M <= args.whole_up_to else [])
        found = {}
        for path in paths:
            row = measure(
                M, d, k, path, pairs, timeout=3600, memory=memory if path == "blocked" else 0
            )
            rows.append(row)
            found[path] = row
            print(
                f"{M:>7} {path:>8} {row['seconds']:>8.2f} {row['cpu_seconds']:>8.2f} "
                f"{row['peak_bytes'] / 1e9:>8.3f} "
                f"{row['increase_bytes'] / 1e9:>9.3f}  {row['value']}",
                flush=True,
            )
        if "whole" in found:
            b, w = found["blocked"], found["whole"]
            same = b["value"] == w["value"]
            print(
                f"{M:>7}    ratio blocked/whole: time {b['seconds'] / w['seconds']:.2f}, "
                f"cpu {b['cpu_seconds'] / w['cpu_seconds']:.2f}, "
                f"peak {b['peak_bytes'] / w['peak_bytes']:.2f}; same value: {same}"
            )
            if not same:
                print("FAIL: the blocked and whole-matrix values differ")
                return 1
        else:
            print(f"{M:>7}    whole-matrix path not run (M > --whole-up-to {args.whole_up_to})")
    M = sizes[-1]
    row = measure(M, d, k, "sampled", pairs, timeout=3600)
    rows.append(row)
    exact = float(next(r["value"] for r in rows if r["M"] == M and r["path"] == "blocked"))
    z = (float(row["value"]) - exact) / row["standard_error"]
    print(
        f"{M:>7}  sampled ({pairs} pairs): {row['seconds']:.2f} s ({row['cpu_seconds']:.2f} s "
        f"cpu), peak "
        f"{row['peak_bytes'] / 1e9:.3f} GB, value {float(row['value']):.6f} "
        f"+- {row['standard_error']:.2g} (exact {exact:.6f}, {z:+.2f} SE)"
    )
    big, big_d = (20_000, 10_000) if args.quick else (100_000, 10_000)
    row = measure(big, big_d, k, "sampled", pairs, timeout=3600)
    rows.append(row)
    print(
        f"{big:>7}  sampled ({pairs} pairs), d = {big_d}: {row['seconds']:.2f} s "
        f"({row['cpu_seconds']:.2f} s cpu), peak {row['peak_bytes'] / 1e9:.3f} GB, value "
        f"{float(row['value']):.6f} +- {row['standard_error']:.2g}"
    )
    if args.growth:
        print(
            f"\ngrowth of the exact blocked path with M and d (k = {k}, default budget"
            + (
                "; --quick: one subprocess for the grid, peak = its peak so far)"
                if args.quick
                else ")"
            )
        )
        print(f"{'M':>7} {'d':>9} {'time s':>8} {'cpu s':>8} {'peak GB':>8}")
        grid = [
            (M, d_, k, "blocked", pairs, 0)
            for d_ in (10_000, 100_000, 1_000_000)
            for M in ((250, 500, 1000) if args.quick else (1000, 3000, 10_000))
        ]
        found = (
            measure_in_one(grid, timeout=3600)
            if args.quick
            else (measure(*spec[:5], timeout=3600) for spec in grid)
        )
        for (M, d_, *_), row in zip(grid, found):
            rows.append(dict(row, growth=True))
            print(
                f"{M:>7} {d_:>9} {row['seconds']:>8.2f} {row['cpu_seconds']:>8.2f} "
                f"{row['peak_bytes'] / 1e9:>8.3f}",
                flush=True,
            )
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
