"""Benchmark: the resampling protocol's overhead beyond the selector's own work.

Floor: a bare loop over the same M=100 bootstrap index sets that only fits the
estimator on each resample and scores it on the out-of-bag rows (the work any
protocol must do). Peer: propstab.resample doing the same plus drawing the
resamples, cloning, selection, failure handling and building the validated
selection matrix. One fit takes about 10 ms. Then n_jobs=2 against n_jobs=1.

    /usr/bin/python3 benchmarks/bench_resampling.py [--runs 100] [--repeats 5]
    /usr/bin/python3 benchmarks/bench_resampling.py --quick     # seconds, for the tests

Prints the ratios; the target is an overhead below 5 % and a wall-time ratio of
n_jobs=2 to n_jobs=1 near 0.5 on 2 free cores.
"""
import argparse
import time

import numpy as np
from threadpoolctl import threadpool_limits


def data(n=1500, d=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, :10].sum(axis=1) + rng.normal(size=n) > 0).astype(int)
    return X, y


def estimator():
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(penalty="l1", solver="liblinear", C=0.05, random_state=0)


def bare_loop(X, y, splits):
    for train, test in splits:
        est = estimator().fit(X[train], y[train])
        est.score(X[test], y[test])


def best_of(fn, repeats, clock=time.perf_counter):
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def main(argv=None):
    from propstab import resample

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="tiny sizes (M=10, 300 x 30, 1 repeat) to check the script runs",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.repeats = 10, 1
        X, y = data(n=300, d=30)
    else:
        X, y = data()
    res = resample(estimator(), X, y, n_runs=args.runs, random_state=0)
    splits = list(zip(res.train_indices, res.test_indices))
    # The overhead is measured in CPU time of this process (BLAS limited to one thread),
    # which the other jobs of a shared machine do not inflate; floor and peer alternate.
    cpu = time.process_time
    t_bare = t_protocol = t_serial = t_parallel = np.inf
    with threadpool_limits(1):
        for _ in range(args.repeats):
            t_bare = min(t_bare, best_of(lambda: bare_loop(X, y, splits), 1, cpu))
            t_protocol = min(
                t_protocol,
                best_of(
                    lambda: resample(estimator(), X, y, n_runs=args.runs, random_state=0), 1, cpu
                ),
            )
    # n_jobs: wall time, serial against 2 loky workers (each limited to one BLAS thread,
    # as joblib does for its workers)
    with threadpool_limits(1):
        for _ in range(args.repeats):
            t_serial = min(
                t_serial,
                best_of(lambda: resample(estimator(), X, y, n_runs=args.runs, random_state=0), 1),
            )
            t_parallel = min(
                t_parallel,
                best_of(
                    lambda: resample(
                        estimator(), X, y, n_runs=args.runs, random_state=0, n_jobs=2
                    ),
                    1,
                ),
            )
    overhead = t_protocol / t_bare - 1
    print(
        f"data {X.shape}, M = {args.runs}, one fit + score {1e3 * t_bare / args.runs:.1f} ms "
        f"CPU"
    )
    print(f"bare fit+score loop      {t_bare:7.3f} s CPU")
    print(
        f"propstab.resample        {t_protocol:7.3f} s CPU   overhead {100 * overhead:+.1f} % "
        f"(target < 5 %)"
    )
    print(f"resample, n_jobs=1       {t_serial:7.3f} s wall")
    print(
        f"resample, n_jobs=2       {t_parallel:7.3f} s wall  ratio {t_parallel / t_serial:.2f} "
        f"(ideal 0.50 on 2 idle cores)"
    )
    return overhead, t_parallel / t_serial


if __name__ == "__main__":
    main()
