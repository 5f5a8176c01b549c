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
Also prints the sampled-pairs estimate (``pairs=``) at the largest M, its time and
its distance to the exact value in standard errors.
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
    indices = np.concatenate([np.sort(rng.choice(d, k, replace=False)) for _ in range(M)])
    return sparse.csr_matrix((np.ones(M * k), indices, np.arange(M + 1) * k), shape=(M, d))


def child(M: int, d: int, k: int, path: str, pairs: int) -> dict:
    """One measurement in this process (run by the parent as a subprocess)."""
    import resource
    import propstab
    from propstab.settings import get_pair_memory, set_pair_memory
    S = selection(M, d, k)
    if path == "whole":
        set_pair_memory(max(get_pair_memory(), 64 * M * M))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.perf_counter()
    if path == "sampled":
        est = propstab.estimate(S, "jaccard", pairs=pairs, random_state=0)
        value, extra = est.statistic, {"standard_error": est.standard_error}
    else:
        value, extra = propstab.stability(S, "jaccard"), {}
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return dict(M=M, d=d, k=k, path=path, seconds=seconds, peak_bytes=peak,
                increase_bytes=max(0, peak - before), value=repr(float(value)),
                budget=get_pair_memory(), **extra)


def measure(M, d, k, path, pairs, timeout):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", str(M), str(d), str(k), path,
           str(pairs)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--whole-up-to", type=int, default=10_000,
                        help="run the whole-matrix path only up to this M")
    parser.add_argument("--json", help="write the rows to this file")
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        M, d, k, path, pairs = args.child
        print(json.dumps(child(int(M), int(d), int(k), path, int(pairs))))
        return 0
    sizes, d, k, pairs = (((500, 1000), 100_000, 20, 20_000) if args.quick
                          else ((10_000, 30_000), 1_000_000, 100, 1_000_000))
    rows = []
    print(f"jaccard, CSR input, d = {d}, k = {k} per run; peak = ru_maxrss of the subprocess")
    print(f"{'M':>7} {'path':>8} {'time s':>8} {'peak GB':>8} {'call +GB':>9}  value")
    for M in sizes:
        paths = ["blocked"] + (["whole"] if M <= args.whole_up_to else [])
        found = {}
        for path in paths:
            row = measure(M, d, k, path, pairs, timeout=3600)
            rows.append(row)
            found[path] = row
            print(f"{M:>7} {path:>8} {row['seconds']:>8.2f} {row['peak_bytes'] / 1e9:>8.3f} "
                  f"{row['increase_bytes'] / 1e9:>9.3f}  {row['value']}", flush=True)
        if "whole" in found:
            b, w = found["blocked"], found["whole"]
            same = b["value"] == w["value"]
            print(f"{M:>7}    ratio blocked/whole: time {b['seconds'] / w['seconds']:.2f}, "
                  f"peak {b['peak_bytes'] / w['peak_bytes']:.2f}; same value: {same}")
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
    print(f"{M:>7}  sampled ({pairs} pairs): {row['seconds']:.2f} s, peak "
          f"{row['peak_bytes'] / 1e9:.3f} GB, value {float(row['value']):.6f} "
          f"+- {row['standard_error']:.2g} (exact {exact:.6f}, {z:+.2f} SE)")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
