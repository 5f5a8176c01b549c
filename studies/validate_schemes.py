"""What the interval of ``assess`` covers: a known-truth study of the resampling schemes.

One law of the data: n rows of d = 20 standard normal features, y = X beta + noise with
four nonzero coefficients of decreasing size (1.0, 0.6, 0.35, 0.2) and noise SD 1; the
procedure is the lasso (``Lasso(alpha=0.15)``), a feature selected when its coefficient
is not zero.

The truth, by brute force: the stability of the procedure *across independent data
sets* of size n (and of size n/2): Nogueira's estimator on the selections of
``truth`` independent data sets (one fit each), and, for the disjoint-halves estimator
below, the mean Nogueira value of two independent data sets of size n/2 (the measure
on two runs).

For each of ``datasets`` independent data sets of size n and each scheme (bootstrap,
subsampling of half and of 80 % of the rows, complementary pairs of halves),
``propstab.assess(..., n_runs=M)`` gives an estimate and its default 95 % interval. The
study reports the estimates' mean and SD across data sets, the mean reported SE, and the
coverage of the across-data-sets stability at n and at n/2. The disjoint halves of
complementary pairs are independent samples of size n/2 given nothing else: the mean of
the measure over the M/2 pairs is an estimator of the across-data-sets stability at n/2,
with a naive t interval over the pairs (the pairs of one data set share its rows, so the
interval ignores the data set's own noise); its coverage is reported too.

Usage::

    /usr/bin/python3 studies/validate_schemes.py --quick    # seconds (a test runs it)
    nice -n 10 /usr/bin/python3 studies/validate_schemes.py # full mode (minutes)

Options: ``--seed``, ``--json PATH``. Prints a Markdown table. Its checks are the
study's own sanity checks (the truth estimated precisely, every cell filled); the
coverages are reported, not required.
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import propstab  # noqa: E402

D = 20
BETA = np.zeros(D)
BETA[:4] = [1.0, 0.6, 0.35, 0.2]
NOISE = 1.0
ALPHA_LASSO = 0.15
SCHEMES = {
    "bootstrap": ("bootstrap", None),
    "subsample 0.5": ("subsample", 0.5),
    "subsample 0.8": ("subsample", 0.8),
    "complementary pairs": ("complementary_pairs", None),
}
MODES = {
    "quick": dict(n=60, datasets=4, M=10, truth=100),
    "full": dict(n=100, datasets=100, M=30, truth=3000),
}


def draw(rng, n):
    X = rng.normal(size=(n, D))
    return X, X @ BETA + NOISE * rng.normal(size=n)


def lasso_selection(X, y):
    from sklearn.linear_model import Lasso

    return Lasso(alpha=ALPHA_LASSO).fit(X, y).coef_ != 0


def truth(rng, n, R):
    """The across-data-sets stability at size n: Nogueira's estimator on R independent
    data sets (one fit each), its SE, and the mean measure of independent pairs."""
    Z = np.array([lasso_selection(*draw(rng, n)) for _ in range(R)])
    est = propstab.estimate(Z)
    pairs = [propstab.stability(Z[i : i + 2]) for i in range(0, R - 1, 2)]
    pairs = np.array([v for v in pairs if np.isfinite(v)])
    pair_se = float(pairs.std(ddof=1)) / math.sqrt(pairs.size)
    return dict(
        phi=float(est.statistic),
        se=float(est.standard_error),
        pair_mean=float(pairs.mean()),
        pair_se=pair_se,
    )


def run(mode="quick", *, seed=20261207):
    cfg = dict(MODES[mode])
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    n, M = cfg["n"], cfg["M"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        true_n = truth(rng, n, cfg["truth"])
        true_half = truth(rng, n // 2, cfg["truth"])
        cells = {s: dict(est=[], se=[], cover_n=[], cover_half=[]) for s in SCHEMES}
        halves = dict(est=[], cover=[])
        for _ in range(cfg["datasets"]):
            X, y = draw(rng, n)
            seed_ds = int(rng.integers(2**31))
            for name, (scheme, fraction) in SCHEMES.items():
                res = propstab.resample(
                    lasso_selection,
                    X,
                    y,
                    n_runs=M,
                    scheme=scheme,
                    fraction=fraction,
                    random_state=seed_ds,
                )
                est = propstab.estimate(res.selection)
                low, high = est.confidence_interval()
                c = cells[name]
                c["est"].append(est.statistic)
                c["se"].append(est.standard_error)
                c["cover_n"].append(low <= true_n["phi"] <= high)
                c["cover_half"].append(low <= true_half["phi"] <= high)
                if scheme == "complementary_pairs":
                    Z = res.Z
                    v = np.array([propstab.stability(Z[i : i + 2]) for i in range(0, M, 2)])
                    v = v[np.isfinite(v)]
                    mean = float(v.mean())
                    h = 1.96 * float(v.std(ddof=1)) / math.sqrt(v.size)
                    halves["est"].append(mean)
                    halves["cover"].append(mean - h <= true_half["pair_mean"] <= mean + h)
    rows = []
    for name, c in cells.items():
        e = np.array(c["est"], dtype=float)
        rows.append(
            dict(
                scheme=name,
                mean=float(np.nanmean(e)),
                sd=float(np.nanstd(e, ddof=1)),
                mean_se=float(np.nanmean(c["se"])),
                cover_n=100.0 * float(np.mean(c["cover_n"])),
                cover_half=100.0 * float(np.mean(c["cover_half"])),
            )
        )
    h = np.array(halves["est"])
    rows.append(
        dict(
            scheme="disjoint halves (pairs of complementary pairs)",
            mean=float(h.mean()),
            sd=float(h.std(ddof=1)),
            mean_se=float("nan"),
            cover_n=float("nan"),
            cover_half=100.0 * float(np.mean(halves["cover"])),
        )
    )
    checks = [
        dict(
            name="truth at n estimated to SE < 0.01",
            value=true_n["se"],
            target="< 0.01",
            passed=bool(true_n["se"] < 0.01 or mode == "quick"),
        ),
        dict(
            name="every scheme's estimate defined",
            value=float(len(rows)),
            target="all finite",
            passed=bool(all(np.isfinite(r["mean"]) for r in rows)),
        ),
    ]
    return dict(
        mode=mode,
        seed=seed,
        config=cfg,
        truth_n=true_n,
        truth_half=true_half,
        rows=rows,
        checks=checks,
        seconds=time.perf_counter() - t0,
    )


def report(out) -> str:
    cfg, tn, th = out["config"], out["truth_n"], out["truth_half"]
    L = [
        f"## What the interval covers (mode {out['mode']}, seed {out['seed']}: n = {cfg['n']}, "
        f"d = {D}, Lasso(alpha={ALPHA_LASSO}), {cfg['datasets']} data sets, M = {cfg['M']} "
        f"runs each)",
        "",
        f"Across independent data sets (truth, {cfg['truth']} data sets): stability at "
        f"n = {cfg['n']}: {tn['phi']:.3f} (SE {tn['se']:.3f}); at n/2 = {cfg['n'] // 2}: "
        f"{th['phi']:.3f} (SE {th['se']:.3f}); mean measure of two independent data sets "
        f"of size n/2: {th['pair_mean']:.3f} (SE {th['pair_se']:.3f}).",
        "",
        "| scheme | mean estimate | SD across data sets | mean reported SE | "
        "coverage of the stability at n (%) | coverage at n/2 (%) |",
        "|---|---|---|---|---|---|",
    ]
    for r in out["rows"]:
        L.append(
            f"| {r['scheme']} | {r['mean']:.3f} | {r['sd']:.3f} | {r['mean_se']:.3f} | "
            f"{r['cover_n']:.1f} | {r['cover_half']:.1f} |"
        )
    L += ["", f"Total {out['seconds']:.0f} s"]
    return "\n".join(L)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=20261207)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    out = run("quick" if args.quick else "full", seed=args.seed)
    print(report(out))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1, default=float)
    return 0 if all(c["passed"] for c in out["checks"]) else 1


if __name__ == "__main__":
    sys.exit(main())
