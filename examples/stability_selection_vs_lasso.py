"""Thesis sec. 6.2.2: how stable is stability selection, compared with the lasso?

On data sets shipped with scikit-learn (diabetes: regression, d = 10; breast
cancer: binary, d = 30, fitted as a linear probability model), M bootstraps of the
data are drawn once. On each bootstrap we run

- the lasso with lambda chosen by 10-fold cross-validation and the one-standard-error
  rule (the largest lambda whose CV error is within one standard error of the
  minimum, as in the thesis's Figure 6.12);
- stability selection (Meinshausen and Buhlmann 2010) with the lasso over a grid of
  lambdas, complementary pairs, cutoff pi_thr in {0.6, 0.9} and q in {q_D, 1.5 q_D,
  2 q_D}, q_D = sqrt(0.8 d) (the thesis caption's default; the thesis text reads
  "sqrt(0.8) d", which would exceed d/2 for these data), each subsample keeping the
  first q features to enter its lasso path.

Each procedure's selections over the bootstraps form a selection matrix; we report
Nogueira's stability with its 95 % confidence interval and the paired two-sample
test (thesis sec. 5.2.5; the procedures ran on the same bootstraps) of equal
stability of stability selection and the lasso.

    /usr/bin/python3 examples/stability_selection_vs_lasso.py            # full: M = 100
    /usr/bin/python3 examples/stability_selection_vs_lasso.py --quick    # a few seconds
"""
from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
FIGURES = HERE.parent / "docs" / "figures"


def load(name):
    from sklearn import datasets
    from sklearn.preprocessing import StandardScaler

    loader = {"diabetes": datasets.load_diabetes, "breast_cancer": datasets.load_breast_cancer}[
        name
    ]
    data = loader()
    X = StandardScaler().fit_transform(data.data)
    return X, data.target.astype(np.float64)


def lasso_one_se(X, y, seed):
    """Features of the lasso at the 1-SE lambda of 10-fold CV."""
    import warnings
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Lasso, LassoCV

    with warnings.catch_warnings():  # the smallest alphas of the CV path
        warnings.simplefilter("ignore", ConvergenceWarning)
        cv = LassoCV(cv=10, n_alphas=30, random_state=seed).fit(X, y)
    mse = cv.mse_path_.mean(axis=1)
    se = cv.mse_path_.std(axis=1, ddof=1) / math.sqrt(cv.mse_path_.shape[1])
    best = int(np.argmin(mse))
    alpha = float(np.max(cv.alphas_[mse <= mse[best] + se[best]]))
    return Lasso(alpha=alpha).fit(X, y).coef_ != 0


def alpha_grid(X, y, n_grid):
    """A geometric lasso grid from lambda_max (nothing selected) down to lambda_max / 100."""
    alpha_max = np.max(np.abs(X.T @ (y - y.mean()))) / X.shape[0]
    return np.geomspace(alpha_max, alpha_max / 100, n_grid)


def study(name, n_runs, n_pairs, n_grid, seed, n_jobs):
    import propstab
    from propstab import StabilitySelection, resample
    from sklearn.linear_model import Lasso

    X, y = load(name)
    d = X.shape[1]
    q_d = math.sqrt(0.8 * d)
    qs = {"q_D": q_d, "1.5 q_D": 1.5 * q_d, "2 q_D": 2 * q_d}
    cutoffs = (0.6, 0.9)
    # the lasso (1-SE rule) on M bootstraps; its resamples are reused for every method
    lasso = resample(
        lambda Xb, yb: lasso_one_se(Xb, yb, seed),
        X,
        y,
        n_runs=n_runs,
        random_state=seed,
        n_jobs=n_jobs,
    )
    grid = alpha_grid(X, y, n_grid)
    rows = {f"SS pi={c}, {qn}": [] for qn in qs for c in cutoffs}
    for train in lasso.train_indices:
        Xb, yb = X[train], y[train]
        for qn, q in qs.items():
            ss = StabilitySelection(
                Lasso(),
                param_grid=grid,
                n_subsamples=n_pairs,
                sampling="ss",
                assumption="none",
                cutoff=0.6,
                PFER=None,
                q=math.floor(q),
                random_state=seed,
                n_jobs=n_jobs,
            )
            probs = ss.fit(Xb, yb).selection_probabilities_
            for c in cutoffs:
                rows[f"SS pi={c}, {qn}"].append(probs >= c)
    methods = {"lasso (1-SE)": lasso.selection}
    methods.update({k: propstab.as_selection(np.array(v)) for k, v in rows.items()})
    out = {}
    for k, Z in methods.items():
        est = propstab.estimate(Z)
        test = None
        if k != "lasso (1-SE)":
            # first minus second: stability selection minus the lasso
            test = propstab.two_sample_test(
                Z, lasso.selection, paired=True, alternative="two-sided"
            )
        out[k] = dict(
            stability=est.statistic,
            ci=tuple(est.confidence_interval(0.95)),
            size=float(Z.row_sizes.mean()),
            test=test,
        )
    return dict(name=name, d=d, methods=out, lasso_selection=lasso.selection.toarray())


def figure(results, out_dir, *, n_subsamples=50, n_grid=25):
    """The two figures; the stability path's own stability selection runs
    ``n_subsamples`` complementary pairs over ``n_grid`` lambdas (the quick mode's are
    smaller: it only proves that the figures are drawn)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, len(results), figsize=(6 * len(results), 4), squeeze=False)
    for ax, res in zip(axes[0], results):
        names = list(res["methods"])
        vals = np.array([res["methods"][k]["stability"] for k in names])
        ci = np.array([res["methods"][k]["ci"] for k in names])
        x = np.arange(len(names))
        colours = ["C3"] + ["k"] * (len(names) - 1)
        ax.errorbar(
            x,
            vals,
            yerr=np.abs(np.vstack([vals - ci[:, 0], ci[:, 1] - vals])),
            fmt="none",
            ecolor="0.5",
        )
        ax.scatter(x, vals, c=colours, marker="o", zorder=3)
        for i, k in enumerate(names[1:], start=1):
            t = res["methods"][k]["test"]
            if t.pvalue < 0.05:
                ax.annotate("*", (x[i], ci[i, 1]), ha="center", color="g", fontsize=14)
        ax.set_xticks(x)
        ax.set_xticklabels(names, rotation=60, ha="right", fontsize="small")
        ax.set_ylabel("stability (Nogueira) with 95% CI")
        ax.set_title(f"{res['name']} (d={res['d']}); * paired test p < 0.05")
    fig.tight_layout()
    paths = [out_dir / "stability_selection_vs_lasso.png"]
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    # the stability path and the lasso's feature-stability map of the first data set
    from propstab import StabilitySelection
    from propstab.plots import plot_feature_stability_map, plot_stability_path
    from sklearn import datasets
    from sklearn.linear_model import Lasso

    res = results[0]
    X, y = load(res["name"])
    names = getattr(datasets, f"load_{res['name']}")().feature_names
    q = math.floor(1.5 * math.sqrt(0.8 * X.shape[1]))
    ss = StabilitySelection(
        Lasso(),
        param_grid=alpha_grid(X, y, n_grid),
        n_subsamples=n_subsamples,
        sampling="ss",
        assumption="unimodal",
        cutoff=0.75,
        PFER=None,
        q=q,
        random_state=0,
    ).fit(X, y)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2))
    plot_stability_path(ss, feature_names=list(names), ax=axes[0])
    axes[0].set_title(
        f"{res['name']}: stability path, q <= {q}, E(V) <= {ss.PFER_:.3g} " f"(unimodal)",
        fontsize="medium",
    )
    plot_feature_stability_map(res["lasso_selection"], feature_names=list(names), ax=axes[1])
    axes[1].set_title(f"{res['name']}: lasso (1-SE) on the bootstraps")
    fig.tight_layout()
    paths.append(out_dir / "stability_path_and_map.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small run for the tests")
    parser.add_argument("--seed", type=int, default=2018)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--figures", type=pathlib.Path, default=None)
    args = parser.parse_args(argv)
    if args.quick:
        names, n_runs, n_pairs, n_grid = ("diabetes",), 8, 5, 6
    else:
        names, n_runs, n_pairs, n_grid = ("diabetes", "breast_cancer"), 100, 25, 12
    out_dir = args.figures if args.figures is not None else (None if args.quick else FIGURES)
    t0 = time.perf_counter()
    results = [study(name, n_runs, n_pairs, n_grid, args.seed, args.n_jobs) for name in names]
    print(
        f"stability of stability selection vs the lasso: M={n_runs} bootstraps, "
        f"B={n_pairs} complementary pairs, {n_grid} lambdas "
        f"({time.perf_counter() - t0:.1f} s)"
    )
    for res in results:
        print(f"\n{res['name']} (d={res['d']})")
        print(f"{'method':<22} {'size':>5} {'stability [95% CI]':>24} {'T_M':>7} {'p':>7}")
        for k, m in res["methods"].items():
            t = m["test"]
            tail = "" if t is None else f" {t.statistic:7.2f} {t.pvalue:7.4f}"
            print(
                f"{k:<22} {m['size']:5.1f} {m['stability']:6.3f} "
                f"[{m['ci'][0]:6.3f}, {m['ci'][1]:6.3f}]{tail}"
            )
    if out_dir is not None:
        sizes = dict(n_subsamples=10, n_grid=10) if args.quick else {}
        for path in figure(results, out_dir, **sizes):
            print(f"figure: {path}")
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
