"""The error rates of ``propstab.testing.assert_not_less_stable`` in CI.

Three pipelines on real data sets from scikit-learn: an L1-penalised logistic regression
(its nonzero coefficients), a random forest (its 5 largest importances) and a univariate
filter (SelectKBest, ANOVA F, k = 5), each run on subsamples (half the rows) of
``breast_cancer`` and ``wine`` (class 0 against the rest).

For each pipeline a *pool* of N runs is made once with :func:`propstab.resample` (fresh
seeds: one SeedSequence, one child per run). The pool's empirical distribution is the
population of runs: a replicate draws the baseline's M runs and the current M runs from
it at random without replacement, independently, as a CI job that reruns an unchanged
pipeline with fresh seeds. Its true stability Phi is the population value of Nogueira's
measure at the pool's selection frequencies p_f,

    Phi(p) = 1 - (sum_f p_f (1 - p_f) / d) / ((k/d) (1 - k/d)),   k = sum_f p_f

(Nogueira 2018, thesis eq. 4.2 in the limit M -> infinity).

A *drop* of delta, two ways (q solved so that Phi drops by exactly delta):

- ``runs``: each current run is replaced, with probability q, by a random subset of the
  same size (k unchanged); the frequencies become (1 - q) p_f + q k/d. The drop is
  carried by a few runs (q M of them): the hardest case for an asymptotic test.
- ``features``: each selected feature of each run leaves, with probability q, for a
  random unselected feature (sizes kept); the frequencies are computed exactly
  (:func:`swapped_frequencies`). The drop is spread over every run.

For each M the study reports, over R replicates:

- ``test="drop"`` (the default; margin 0.05): the false-failure rate when nothing
  changed, its level (the failure rate at a drop of exactly the margin) and its power
  at drops of 0.1 and 0.15;
- ``test="non-inferiority"`` (margin 0.05; the studentized bootstrap of the difference,
  as the assertion runs it for Nogueira's measure): its level (the pass rate at a drop
  of the margin) and its pass rate when nothing changed.

A third drop, ``penalty``: a lasso on ``diabetes`` whose penalty is lowered so that Phi
drops by 0.05, 0.1 and 0.15 (:func:`lasso_pools`).

Usage::

    /usr/bin/python3 studies/ci_error_rate.py --quick     # < 1 min (a test runs it)
    /usr/bin/python3 studies/ci_error_rate.py             # full mode (minutes)

Options: ``--seed``, ``--repeats R``, ``--pool N``, ``--json PATH``. Prints a Markdown
table; exits with status 1 when a check fails: the ``drop`` test failing a drop of its
margin more often than 5 % + 3 binomial standard errors, or unchanged runs more often
than at its margin, or the non-inferiority test passing a drop of its margin (``features``
model) more often than 5 % + 3 standard errors from M = 100 on. Reported, not checked:
the non-inferiority test below 100 runs and for the ``runs`` model, where no test can
hold the level with useful power (a fraction (1 - q)^M of the current samples holds none
of the replaced runs and is a sample of the unchanged pipeline).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import warnings

import numpy as np
from scipy import optimize, stats

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import propstab  # noqa: E402
from propstab.inference import SMALL_M_BELOW  # noqa: E402
from propstab.testing import assert_not_less_stable, decision  # noqa: E402
from propstab.testing._decision import bootstrap_pvalue  # noqa: E402

ALPHA = 0.05
MARGIN = 0.05
DROPS = (0.0, 0.05, 0.1, 0.15)
MODES = {
    "quick": dict(
        M=(30,),
        pipelines=("l1-logistic", "filter"),
        datasets=("breast_cancer",),
        repeats=100,
        pool=120,
        lasso=False,
    ),
    "full": dict(
        M=(30, 50, 100),
        pipelines=("l1-logistic", "forest", "filter"),
        datasets=("breast_cancer", "wine"),
        repeats=300,
        pool=600,
        lasso=True,
    ),
}
#: the hyperparameter scenario: a lasso on diabetes whose penalty is lowered
LASSO_ALPHA = 5.0


def data(name: str):
    from sklearn import datasets
    from sklearn.preprocessing import StandardScaler

    if name == "breast_cancer":
        X, y = datasets.load_breast_cancer(return_X_y=True)
    else:
        X, y = datasets.load_wine(return_X_y=True)
        y = (y == 0).astype(int)
    return StandardScaler().fit_transform(X), y


def pipeline(name: str):
    """The selector and the keywords of :func:`propstab.resample` that read it."""
    if name == "l1-logistic":
        from sklearn.linear_model import LogisticRegression

        return LogisticRegression(penalty="l1", C=0.05, solver="liblinear"), {}
    if name == "forest":
        from sklearn.ensemble import RandomForestClassifier

        return RandomForestClassifier(n_estimators=50, max_features="sqrt"), {"top_k": 5}
    from sklearn.feature_selection import SelectKBest

    return SelectKBest(k=5), {}


def population_phi(p: np.ndarray) -> float:
    """Nogueira's stability of the population with selection frequencies ``p``."""
    d = p.size
    k = p.sum()
    return float(1 - (p * (1 - p)).sum() / d / ((k / d) * (1 - k / d)))


def mixing_for_drop(p: np.ndarray, delta: float) -> float:
    """q such that Phi((1 - q) p + q k/d) = Phi(p) - delta (0 for no drop)."""
    if delta == 0:
        return 0.0
    target = population_phi(p) - delta
    k_over_d = p.sum() / p.size
    return float(
        optimize.brentq(lambda q: population_phi((1 - q) * p + q * k_over_d) - target, 0.0, 1.0)
    )


def expected_swaps(k: np.ndarray, d: int, q: float) -> np.ndarray:
    """E[min(S, d - k)] for S ~ Binomial(k, q): a run's expected number of swaps."""
    out = np.empty(k.size)
    for value in np.unique(k):  # a handful of distinct sizes
        s = np.arange(value + 1)
        pmf = stats.binom.pmf(s, value, q)
        out[k == value] = (np.minimum(s, d - value) * pmf).sum()
    return out


def swapped_frequencies(Z: np.ndarray, q: float) -> np.ndarray:
    """The selection frequencies of the pool's runs after :func:`swap`, exactly: a
    selected feature of run i leaves with probability e_i/k_i, an unselected one enters
    with probability e_i/(d - k_i), e_i the run's expected number of swaps."""
    M, d = Z.shape
    k = Z.sum(axis=1)
    e = expected_swaps(k, d, q)
    with np.errstate(divide="ignore", invalid="ignore"):
        leave = np.where(k > 0, e / k, 0.0)
        enter = np.where(k < d, e / (d - k), 0.0)
    return (Z * (1 - leave)[:, None] + (~Z) * enter[:, None]).mean(axis=0)


def swap(Z: np.ndarray, q: float, rng) -> np.ndarray:
    """The diffuse drop: each selected feature of each run leaves with probability q for
    a random unselected one (S ~ Binomial(k_i, q) swaps, at most d - k_i; sizes kept)."""
    M, d = Z.shape
    k = Z.sum(axis=1)
    s = np.minimum(rng.binomial(k, q), d - k)
    keys = rng.random((M, d))
    rank_in = np.where(Z, keys, np.inf).argsort(axis=1).argsort(axis=1)
    rank_out = np.where(Z, np.inf, keys).argsort(axis=1).argsort(axis=1)
    leave = Z & (rank_in < s[:, None])
    enter = ~Z & (rank_out < s[:, None])
    return (Z & ~leave) | enter


def swap_for_drop(Z: np.ndarray, delta: float) -> float:
    """q such that the swapped pool's Phi is Phi(pool) - delta."""
    if delta == 0:
        return 0.0
    target = population_phi(Z.mean(axis=0)) - delta
    return float(
        optimize.brentq(lambda q: population_phi(swapped_frequencies(Z, q)) - target, 0.0, 1.0)
    )


def degrade(Z: np.ndarray, q: float, rng) -> np.ndarray:
    """Each row replaced with probability q by a random subset of its own size."""
    M, d = Z.shape
    k = Z.sum(axis=1)
    ranks = rng.random((M, d)).argsort(axis=1).argsort(axis=1)
    random_rows = ranks < k[:, None]
    replace = rng.random(M) < q
    return np.where(replace[:, None], random_rows, Z)


def failed(assertion, *args, **kwargs) -> bool:
    try:
        assertion(*args, **kwargs)
    except AssertionError:
        return True
    return False


def decisions(base, current, M):
    """Whether each test fails: the difference and its variance from the two-sample test
    (thesis Thm 7; below 100 runs the jackknife variances, as the assertion takes them),
    then :func:`propstab.testing.decision` for both tests, margin 0.05 (what
    assert_not_less_stable does; :func:`agrees` checks it on the first replicate of
    every cell)."""
    res = propstab.two_sample_test(
        current,
        base,
        alternative="greater",
        test="wald",
        method="jackknife" if M < SMALL_M_BELOW else "auto",
    )
    ni = decision(res.difference, res.variance, MARGIN, 1 - ALPHA, "non-inferiority")[2]
    if res.variance > 0:  # the assertion's bootstrap-t (Nogueira, independent)
        ni = (
            bootstrap_pvalue(base, current, MARGIN, "non-inferiority", confidence_level=1 - ALPHA)[
                0
            ]
            < ALPHA
        )
    drop = decision(res.difference, res.variance, MARGIN, 1 - ALPHA, "drop")[2]
    return not bool(ni), not bool(drop)


def agrees(base, current, M) -> bool:
    """The assertion itself decides as :func:`decisions`."""
    return decisions(base, current, M) == (
        failed(assert_not_less_stable, base, current, margin=MARGIN, test="non-inferiority"),
        failed(assert_not_less_stable, base, current, margin=MARGIN),
    )


def lasso_pools(pool, root):
    """The hyperparameter scenario: pools of a lasso on diabetes (standardised) at the
    penalty ``LASSO_ALPHA`` and at the lower penalties whose stability is 0.05, 0.1 and
    0.15 lower (bisection on alpha, each pool ``pool`` runs with fresh seeds)."""
    from sklearn import datasets
    from sklearn.linear_model import Lasso
    from sklearn.preprocessing import StandardScaler

    X, y = datasets.load_diabetes(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    seed = root.spawn(1)[0]

    def runs(alpha):
        return propstab.resample(
            Lasso(alpha=alpha), X, y, n_runs=pool, scheme="subsample", random_state=seed
        ).Z

    base = runs(LASSO_ALPHA)
    phi = population_phi(base.mean(axis=0))
    pools, alphas = {0.0: base}, {0.0: LASSO_ALPHA}
    for delta in DROPS[1:]:
        lo, hi = 0.5, LASSO_ALPHA
        for _ in range(12):
            mid = (lo + hi) / 2
            Z = runs(mid)
            if population_phi(Z.mean(axis=0)) > phi - delta:
                hi = mid
            else:
                lo = mid
        alphas[delta] = (lo + hi) / 2
        pools[delta] = runs(alphas[delta])
    return pools, alphas, phi


def study(pipelines, datasets, Ms, repeats, pool, seed, report=None):
    rows = []
    root = np.random.SeedSequence(seed)
    for dataset in datasets:
        X, y = data(dataset)
        for name in pipelines:
            selector, keywords = pipeline(name)
            start = time.perf_counter()
            res = propstab.resample(
                selector,
                X,
                y,
                n_runs=pool,
                scheme="subsample",
                random_state=root.spawn(1)[0],
                **keywords,
            )
            Zpool = res.Z
            p = Zpool.mean(axis=0)
            phi = population_phi(p)
            models = {
                "runs": (degrade, {delta: mixing_for_drop(p, delta) for delta in DROPS}),
                "features": (swap, {delta: swap_for_drop(Zpool, delta) for delta in DROPS}),
            }
            rng = np.random.default_rng(root.spawn(1)[0])
            for M, model in ((M, model) for M in Ms for model in models):
                change, qs = models[model]
                counts = {
                    (test, delta): 0 for test in ("non-inferiority", "drop") for delta in DROPS
                }
                agreed = True
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    for r in range(repeats):
                        base = Zpool[rng.choice(pool, M, replace=False)]
                        fresh = Zpool[rng.choice(pool, M, replace=False)]
                        for delta in DROPS:
                            current = change(fresh, qs[delta], rng)
                            if r == 0:
                                agreed &= agrees(base, current, M)
                            ni, drop = decisions(base, current, M)
                            counts["non-inferiority", delta] += ni
                            counts["drop", delta] += drop
                rows.append(
                    dict(
                        dataset=dataset,
                        pipeline=name,
                        M=M,
                        phi=phi,
                        model=model,
                        k=float(p.sum()),
                        repeats=repeats,
                        q=[qs[0.05], qs[0.1]],
                        agreed=bool(agreed),
                        seconds=time.perf_counter() - start,
                        **{
                            f"{test}@{delta}": counts[test, delta] / repeats
                            for (test, delta) in counts
                        },
                    )
                )
                if report:
                    report(rows)
    return rows


def lasso_study(Ms, repeats, pool, seed, rows, report=None):
    """The hyperparameter scenario: baseline from the pool at LASSO_ALPHA, current from
    the pool at the penalty of each drop (the same seeds: a realistic change)."""
    root = np.random.SeedSequence([seed, 1])
    start = time.perf_counter()
    pools, alphas, phi = lasso_pools(pool, root)
    rng = np.random.default_rng(root.spawn(1)[0])
    for M in Ms:
        counts = {(test, delta): 0 for test in ("non-inferiority", "drop") for delta in DROPS}
        agreed = True
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for r in range(repeats):
                base = pools[0.0][rng.choice(pool, M, replace=False)]
                for delta in DROPS:
                    current = pools[delta][rng.choice(pool, M, replace=False)]
                    if r == 0:
                        agreed &= agrees(base, current, M)
                    ni, drop = decisions(base, current, M)
                    counts["non-inferiority", delta] += ni
                    counts["drop", delta] += drop
        rows.append(
            dict(
                dataset="diabetes",
                pipeline="lasso",
                M=M,
                phi=phi,
                model="penalty",
                k=float(pools[0.0].mean(0).sum()),
                repeats=repeats,
                q=[alphas[0.05], alphas[0.1]],
                alphas={str(k): v for k, v in alphas.items()},
                agreed=bool(agreed),
                seconds=time.perf_counter() - start,
                **{f"{test}@{delta}": counts[test, delta] / repeats for (test, delta) in counts},
            )
        )
        if report:
            report(rows)
    return rows


def markdown(rows) -> str:
    head = (
        "| data | pipeline | Phi | drop shape | q or alpha (0.05, 0.1) | M | "
        "drop test: fails, unchanged | fails, drop 0.05 (level) | power, drop 0.1 | "
        "power, drop 0.15 | NI: passes, drop 0.05 (level) | passes, unchanged |"
    )
    lines = [head, "|" + "---|" * 12]
    for r in rows:
        lines.append(
            f"| {r['dataset']} | {r['pipeline']} | {r['phi']:.3f} | {r['model']} | "
            f"{r['q'][0]:.3f}, {r['q'][1]:.3f} | {r['M']} | "
            f"{r['drop@0.0']:.1%} | {r['drop@0.05']:.1%} | {r['drop@0.1']:.1%} | "
            f"{r.get('drop@0.15', float('nan')):.1%} | "
            f"{1 - r['non-inferiority@0.05']:.1%} | {1 - r['non-inferiority@0.0']:.1%} |"
        )
    return "\n".join(lines)


def where(r) -> str:
    return f"{r['dataset']}/{r['pipeline']}/M={r['M']}/{r['model']}"


def checks(rows):
    problems = []
    for r in rows:
        if not r["agreed"]:
            problems.append(
                f"{r['dataset']}/{r['pipeline']}/M={r['M']}: "
                f"assert_not_less_stable decided otherwise than the study"
            )
        se = math.sqrt(ALPHA * (1 - ALPHA) / r["repeats"])
        if r["drop@0.05"] > ALPHA + 3 * se:
            problems.append(
                f"{where(r)}: the drop test failed {r['drop@0.05']:.1%} of drops " f"of its margin"
            )
        if r["drop@0.0"] > r["drop@0.05"] + 3 * se:
            problems.append(
                f"{where(r)}: the drop test failed unchanged runs more often "
                f"than at its margin"
            )
        if (
            r["M"] >= SMALL_M_BELOW
            and r["model"] == "features"
            and 1 - r["non-inferiority@0.05"] > ALPHA + 3 * se
        ):
            problems.append(
                f"{where(r)}: non-inferiority "
                f"passed {1 - r['non-inferiority@0.05']:.1%} of drops of the "
                f"margin"
            )
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int)
    parser.add_argument("--pool", type=int)
    parser.add_argument("--M", type=int, nargs="+")
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--datasets", nargs="*")
    parser.add_argument("--no-lasso", action="store_true")
    parser.add_argument("--pipelines", nargs="+")
    args = parser.parse_args(argv)
    mode = dict(MODES["quick" if args.quick else "full"])
    if args.datasets is not None:
        mode["datasets"] = tuple(args.datasets)
    if args.no_lasso:
        mode["lasso"] = False
    if args.pipelines:
        mode["pipelines"] = tuple(args.pipelines)
    for key in ("repeats", "pool", "M"):
        if getattr(args, key) is not None:
            mode[key] = tuple(getattr(args, key)) if key == "M" else getattr(args, key)

    def report(rows):  # the rows so far (a long run can be cut)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(
                    {
                        "mode": {
                            k: list(v) if isinstance(v, tuple) else v for k, v in mode.items()
                        },
                        "seed": args.seed,
                        "rows": rows,
                    },
                    f,
                    indent=1,
                )

    rows = study(
        mode["pipelines"],
        mode["datasets"],
        mode["M"],
        mode["repeats"],
        mode["pool"],
        args.seed,
        report,
    )
    if mode["lasso"]:
        lasso_study(mode["M"], mode["repeats"], mode["pool"], args.seed, rows, report)
    print(markdown(rows))
    problems = checks(rows)
    for problem in problems:
        print(f"CHECK FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
