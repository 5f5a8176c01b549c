"""How stable are four feature rankers on real data? (the ranking family, docs/rankings.md)

On the Wisconsin breast cancer data shipped with scikit-learn (569 samples, d = 30
features, standardised), M bootstraps are drawn once and four rankers run on each:

- ``mutual information``: the univariate mutual information with the class
  (``SelectKBest(mutual_info_classif, k=10)``, its ``scores_``);
- ``random forest``: the impurity importances of 200 trees (``feature_importances_``),
  selection: the top 10;
- ``L1 logistic``: |coefficients| of an L1-penalised logistic regression (C = 0.1);
- ``RFE``: recursive feature elimination with a logistic regression down to 10 features
  (``ranking_``: the 10 selected tie at rank 1, then the order of elimination).

From one resampling run per ranker (``propstab.assess(..., output="ranking")``), the
script reports the ranking stability (mean pairwise Spearman and Kendall with 95 %
intervals, Jurman's Canberra indicator at k = 10), the stability of the top-5 and top-10
sets (Nogueira's estimator), the weights' Pearson correlation, the out-of-bag accuracy,
and paired two-sample tests of equal Spearman stability (the rankers ran on the same
bootstraps). Figure: each feature's rank distribution under the most and the least
stable ranker.

    /usr/bin/python3 examples/ranking_stability_breast_cancer.py            # full: M = 100
    /usr/bin/python3 examples/ranking_stability_breast_cancer.py --quick    # M = 10
"""
from __future__ import annotations

import argparse
import functools
import pathlib
import sys
import time
import warnings

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
FIGURES = HERE.parent / "docs" / "figures"
sys.path.insert(0, str(HERE.parent))

import propstab  # noqa: E402


def load():
    """The breast cancer data as a standardised DataFrame (feature names kept) and y."""
    import pandas as pd
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler

    data = load_breast_cancer()
    X = pd.DataFrame(
        StandardScaler().fit_transform(data.data), columns=[str(c) for c in data.feature_names]
    )
    return X, data.target


def rankers(quick: bool):
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.feature_selection import RFE, SelectKBest, mutual_info_classif
    from sklearn.linear_model import LogisticRegression

    return {
        "mutual information": SelectKBest(
            functools.partial(mutual_info_classif, random_state=0), k=10
        ),
        "random forest": RandomForestClassifier(n_estimators=20 if quick else 200, random_state=0),
        "L1 logistic": LogisticRegression(penalty="l1", C=0.1, solver="liblinear"),
        "RFE": RFE(
            LogisticRegression(max_iter=2000), n_features_to_select=10, step=5 if quick else 2
        ),
    }


def accuracy(estimator, X, y):
    """Out-of-bag accuracy of the fitted model: the classifier itself, or for a filter
    (``SelectKBest``) the default downstream model propstab fits on its selected features
    (a logistic regression); NaN for a model that does not predict classes."""
    if not hasattr(estimator, "predict_proba") and not hasattr(estimator, "estimator_"):
        return np.nan
    return float(np.mean(estimator.predict(X) == y))


def save_figure(fig, path, dpi=100):
    """scripts/site_audit.py's ``save_figure``: the PNG records its smallest text (the
    site audit checks it is at least 9 px as the page shows the figure)."""
    import importlib.util

    script = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "site_audit.py"
    spec = importlib.util.spec_from_file_location("site_audit", script)
    site_audit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site_audit)
    return site_audit.save_figure(fig, path, dpi)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="M = 10 bootstraps")
    parser.add_argument(
        "--figures", default=None, help="directory of the PNG figure " "(full mode: docs/figures)"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    M = 10 if args.quick else 100
    X, y = load()
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # mutual information on ties
        comparison = propstab.assess(
            rankers(args.quick),
            X,
            y,
            output="ranking",
            n_runs=M,
            random_state=args.seed,
            top_k_sizes=(5, 10),
            scoring=accuracy,
        )
    seconds = time.perf_counter() - t
    rows = []
    print(f"Breast cancer, d = {X.shape[1]} features, M = {M} bootstraps " f"({seconds:.0f} s)\n")
    head = (
        "| ranker | Spearman [95 % CI] | Kendall [95 % CI] | Canberra k=10 | "
        "top-5 sets | top-10 sets | weights (Pearson) | accuracy |"
    )
    print(head)
    print("|" + "---|" * 8)
    for name, a in comparison.assessments.items():
        rk = a.rankings
        kendall = propstab.estimate(rk, "kendall")
        canberra = propstab.stability(rk, "canberra", k=10)
        (k5, e5), (k10, e10) = a.top_k
        row = dict(
            name=name,
            spearman=a.stability,
            spearman_ci=a.confidence_interval(),
            kendall=kendall.statistic,
            kendall_ci=kendall.confidence_interval(),
            canberra=canberra,
            top5=e5.statistic,
            top10=e10.statistic,
            weights=a.weights,
            accuracy=a.mean_score,
            assessment=a,
        )
        rows.append(row)
        w = "-" if a.weights is None else f"{a.weights:.3f}"
        acc = "-" if np.isnan(a.mean_score) else f"{a.mean_score:.3f}"
        print(
            f"| {name} | {row['spearman']:.3f} [{row['spearman_ci'][0]:.3f}, "
            f"{row['spearman_ci'][1]:.3f}] | {row['kendall']:.3f} "
            f"[{row['kendall_ci'][0]:.3f}, {row['kendall_ci'][1]:.3f}] | {canberra:.3f} | "
            f"{row['top5']:.3f} | {row['top10']:.3f} | {w} | {acc} |"
        )
    print("\nPaired two-sample tests of equal Spearman stability (Holm's correction):\n")
    print(comparison.tests)
    order = sorted(rows, key=lambda r: r["spearman"])
    figures = args.figures or (None if args.quick else str(FIGURES))
    if figures:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from propstab.plots import plot_rank_distributions

        # one ranker per row, 700 px wide: shown at its natural size in the site's column
        fig, axes = plt.subplots(2, 1, figsize=(7, 10))
        for ax, r in zip(axes, (order[-1], order[0])):
            plot_rank_distributions(r["assessment"], max_features=15, top_k=10, ax=ax)
            ax.set_title(f"{r['name']}: Spearman {r['spearman']:.2f}")
        fig.tight_layout()
        path = pathlib.Path(figures)
        path.mkdir(parents=True, exist_ok=True)
        save_figure(fig, path / "ranking_rank_distributions.png")
        plt.close(fig)
    return rows, comparison


if __name__ == "__main__":
    main()
