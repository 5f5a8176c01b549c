"""Benchmark the execution layer (propstab/_utils/execution.py) on one ``assess``.

One assessment (an L1 logistic regression, liblinear, on a synthetic classification
problem; bootstrap resamples) is run:

- **serial** (the baseline, ``backend=None``);
- **joblib/loky** with ``n_jobs=2`` (two local processes);
- **dask LocalCluster** with two worker processes of one thread (``backend=client``);
- **serial + checkpoint** (every run written to a directory as it finishes), and the
  same call again, **resumed** (every run read back, nothing fitted);

and prints each time as a ratio to the serial time measured in the same run, with a
check that every backend gave the identical selection matrix and stability. The
cluster's start-up is not timed (a cluster is started once per session); the first
call on it, which imports propstab in the workers, is timed separately as ``warm-up``.

Run:  /usr/bin/python3 benchmarks/bench_execution.py            (about a minute)
      /usr/bin/python3 benchmarks/bench_execution.py --quick    (seconds; the test runs it)
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings

import numpy as np


def _problem(n, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] - X[:, 1] + 0.5 * X[:, 2] + rng.normal(size=n) > 0).astype(int)
    return X, y


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (seconds)")
    args = parser.parse_args(argv)
    import distributed
    from sklearn.linear_model import LogisticRegression

    import propstab

    n, d, runs = (120, 20, 16) if args.quick else (2000, 200, 200)
    X, y = _problem(n, d)
    selector = LogisticRegression(penalty="l1", solver="liblinear", C=0.1)
    kw = dict(n_runs=runs, random_state=0, downstream=False)

    def timed(**extra):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = propstab.assess(selector, X, y, **kw, **extra)
        return time.perf_counter() - start, a

    rows = []
    timed()  # warm-up: first imports and fits, not timed
    base, ref = timed()
    rows.append(("serial (baseline)", base, ref))
    rows.append(("joblib loky, n_jobs=2",) + timed(n_jobs=2))
    # every server on the loopback (with dashboard_address=None, distributed 2022.12 still
    # serves HTTP on 0.0.0.0:8787 and on 0.0.0.0 in each worker), no dashboard; a worker
    # that has not started within a minute fails the start instead of waiting for ever
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
            scheduler_kwargs={"dashboard": False},
            worker_dashboard_address="127.0.0.1:0",
            death_timeout=60,
        )
    try:
        with distributed.Client(cluster, timeout=60) as client:
            rows.append(("dask LocalCluster 2x1, warm-up",) + timed(backend=client))
            rows.append(("dask LocalCluster 2x1",) + timed(backend=client))
    finally:
        cluster.close(timeout=60)
    with tempfile.TemporaryDirectory() as folder:
        rows.append(("serial + checkpoint",) + timed(checkpoint=folder))
        rows.append(("resumed from checkpoint",) + timed(checkpoint=folder))
        files = len([f for f in os.listdir(folder) if f.startswith("task-")])
    print(
        f"assess: LogisticRegression(L1, liblinear), n={n}, d={d}, M={runs} runs; "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'backend':34s} {'seconds':>9s} {'/ serial':>9s}  identical")
    for name, seconds, a in rows:
        same = np.array_equal(a.result.Z, ref.result.Z) and a.stability == ref.stability
        print(f"{name:34s} {seconds:9.3f} {seconds / base:9.2f}  {same}")
        if not same:
            raise SystemExit(f"{name}: the result differs from the serial one")
    print(f"checkpoint files: {files} (one per run)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
