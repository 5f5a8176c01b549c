"""Thesis sec. 6.2.1: stability versus likelihood of L1-regularised logistic regression.

Kamkar et al.'s synthetic data (n = 2000, d = 100, the first 50 features relevant,
redundancy rho among them in {0, 0.3, 0.5, 0.8}): the positive class is drawn from
N(mu+, Sigma), the negative from N(-mu+, Sigma), mu+ = (1 x 50, 0 x 50), Sigma =
blockdiag(Sigma*, I) with Sigma* = (1 - rho) I + rho 11^T. Half of the rows (1000)
choose lambda, the other half gives the final feature set.

For every lambda on a grid, M bootstraps of the model-selection half are fitted
with L1 logistic regression (penalty lambda on the mean log-likelihood, i.e.
scikit-learn's C = 1 / (n lambda)); we record Nogueira's stability with its 95 %
confidence interval (thesis sec. 5.2) and the mean out-of-bag log-likelihood per
example with its 95 % interval. Two choices of lambda are compared (thesis Table
6.4): the one maximising likelihood, and the stability trade-off, the Pareto-optimal
lambda of maximal stability whose likelihood is within ``--tolerance`` of the
best. Each chosen lambda is refitted on the hold-out half, and its false positives
(irrelevant features selected) and false negatives (relevant features missed) are
counted.

    /usr/bin/python3 examples/kamkar_l1_logistic.py            # full: M = 100, 15 lambdas
    /usr/bin/python3 examples/kamkar_l1_logistic.py --quick    # a few seconds
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
FIGURES = HERE.parent / "docs" / "figures"


def kamkar_data(n, rho, rng, d=100, relevant=50):
    """n rows of Kamkar et al.'s two-class Gaussian data with redundancy rho."""
    cov = np.eye(d)
    block = np.full((relevant, relevant), rho)
    np.fill_diagonal(block, 1.0)
    cov[:relevant, :relevant] = block
    chol = np.linalg.cholesky(cov)
    y = np.repeat([1, 0], [n // 2, n - n // 2])
    mu = np.zeros(d)
    mu[:relevant] = 1.0
    X = rng.standard_normal((n, d)) @ chol.T + np.where(y[:, None] == 1, mu, -mu)
    perm = rng.permutation(n)
    return X[perm], y[perm]


def l1_logistic(lam, n):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(
        penalty="l1", solver="liblinear", C=1.0 / (n * lam), random_state=0, max_iter=1000
    )


def study(rho, lambdas, n_runs, n, rng, random_state, tolerance, n_jobs):
    """All numbers for one degree of redundancy."""
    from propstab import assess
    from propstab.resampling import pareto_front

    X, y = kamkar_data(n, rho, rng)
    half = n // 2
    Xs, ys, Xh, yh = X[:half], y[:half], X[half:], y[half:]
    rows = []
    for lam in lambdas:
        a = assess(
            l1_logistic(lam, half),
            Xs,
            ys,
            n_runs=n_runs,
            scoring="neg_log_loss",
            random_state=random_state,
            n_jobs=n_jobs,
        )
        scores = a.result.scores
        half_width = 1.96 * scores.std(ddof=1) / np.sqrt(scores.size)
        rows.append(
            dict(
                lam=lam,
                stability=a.stability,
                ci=tuple(a.confidence_interval(0.95)),
                loglik=a.mean_score,
                loglik_ci=(a.mean_score - half_width, a.mean_score + half_width),
                n_selected=float(a.result.selection.row_sizes.mean()),
                frequencies=a.frequencies,
            )
        )
    stab = np.array([r["stability"] for r in rows])
    lik = np.array([r["loglik"] for r in rows])
    front = pareto_front(lik, stab)
    i_lik = int(np.nanargmax(lik))
    eligible = front & (lik >= lik[i_lik] - tolerance)
    i_stab = int(np.flatnonzero(eligible)[np.nanargmax(stab[eligible])])
    outcome = {}
    for key, i in (("likelihood", i_lik), ("stability", i_stab)):
        est = l1_logistic(lambdas[i], Xh.shape[0]).fit(Xh, yh)
        selected = np.flatnonzero(est.coef_.ravel() != 0)
        outcome[key] = dict(
            index=i,
            lam=lambdas[i],
            stability=stab[i],
            loglik=lik[i],
            FP=int(np.sum(selected >= 50)),
            FN=int(50 - np.sum(selected < 50)),
        )
    return dict(rho=rho, rows=rows, front=front, outcome=outcome)


def figures(results, lambdas, out_dir):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from propstab.plots import plot_pareto_front, plot_selection_frequencies

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    fig, axes = plt.subplots(len(results), 2, figsize=(10, 2.6 * len(results)), squeeze=False)
    for (ax_l, ax_s), res in zip(axes, results):
        rows = res["rows"]
        lik = np.array([r["loglik"] for r in rows])
        lci = np.array([r["loglik_ci"] for r in rows])
        st = np.array([r["stability"] for r in rows])
        sci = np.array([r["ci"] for r in rows])
        ax_l.plot(lambdas, lik, "o-", ms=3)
        ax_l.fill_between(lambdas, lci[:, 0], lci[:, 1], alpha=0.3)
        ax_s.plot(lambdas, st, "o-", ms=3, color="k")
        ax_s.fill_between(lambdas, sci[:, 0], sci[:, 1], alpha=0.3, color="0.5")
        for ax in (ax_l, ax_s):
            ax.set_xscale("log")
            ax.axvline(res["outcome"]["likelihood"]["lam"], color="C6", ls="--", lw=1)
            ax.axvline(res["outcome"]["stability"]["lam"], color="k", ls="--", lw=1)
        ax_l.set_ylabel(f"rho={res['rho']}\nOOB log-lik / n")
        ax_s.set_ylabel("stability")
    axes[-1, 0].set_xlabel("lambda")
    axes[-1, 1].set_xlabel("lambda")
    fig.tight_layout()
    paths.append(out_dir / "kamkar_likelihood_stability.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    fig, axes = plt.subplots(1, len(results), figsize=(4 * len(results), 3.6), squeeze=False)
    for ax, res in zip(axes[0], results):
        rows = res["rows"]
        plot_pareto_front(
            [r["loglik"] for r in rows],
            [r["stability"] for r in rows],
            labels=[f"{r['lam']:.3g}" for r in rows],
            stability_ci=np.array([r["ci"] for r in rows]),
            xlabel="OOB log-likelihood / n",
            ax=ax,
        )
        ax.set_title(f"rho = {res['rho']}")
    fig.tight_layout()
    paths.append(out_dir / "kamkar_pareto.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    res = results[-1]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.4))
    for ax, key in zip(axes, ("likelihood", "stability")):
        o = res["outcome"][key]
        plot_selection_frequencies(
            res["rows"][o["index"]]["frequencies"], sort=False, max_features=100, ax=ax
        )
        ax.axvline(49.5, color="r", lw=1)
        ax.set_xticks([0, 49, 99])
        ax.set_xticklabels(["1", "50", "100"], rotation=0)
        ax.set_title(f"rho={res['rho']}, optimising {key}: lambda={o['lam']:.3g}")
    fig.tight_layout()
    paths.append(out_dir / "kamkar_frequencies.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small run for the tests")
    parser.add_argument("--runs", type=int, help="M bootstraps (default 100, quick 10)")
    parser.add_argument(
        "--tolerance",
        type=float,
        default=0.01,
        help="likelihood loss per example accepted for stability",
    )
    parser.add_argument("--seed", type=int, default=2018)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument(
        "--figures",
        type=pathlib.Path,
        default=None,
        help=f"directory for the PNGs (full mode default: {FIGURES})",
    )
    args = parser.parse_args(argv)
    if args.quick:
        rhos, n, lambdas = (0.0, 0.8), 400, np.geomspace(0.005, 0.1, 4)
        n_runs = args.runs or 8
    else:
        rhos, n, lambdas = (0.0, 0.3, 0.5, 0.8), 2000, np.geomspace(0.002, 0.1, 15)
        n_runs = args.runs or 100
    out_dir = args.figures if args.figures is not None else (None if args.quick else FIGURES)
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    results = [
        study(rho, lambdas, n_runs, n, rng, args.seed, args.tolerance, args.n_jobs) for rho in rhos
    ]
    print(
        f"Kamkar et al. synthetic data, n={n}, d=100, M={n_runs} bootstraps, "
        f"{len(lambdas)} lambdas ({time.perf_counter() - t0:.1f} s)"
    )
    print(f"{'rho':>4} | {'optimising likelihood':^44} | {'stability trade-off':^44}")
    print(
        f"{'':>4} | {'lambda':>7} {'stab [95% CI]':>20} {'loglik':>7} {'FP':>3} {'FN':>3} "
        f"| {'lambda':>7} {'stab [95% CI]':>20} {'loglik':>7} {'FP':>3} {'FN':>3}"
    )
    for res in results:
        cells = []
        for key in ("likelihood", "stability"):
            o = res["outcome"][key]
            lo, hi = res["rows"][o["index"]]["ci"]
            cells.append(
                f"{o['lam']:7.4f} {o['stability']:5.2f} [{lo:5.2f}, {hi:5.2f}] "
                f"{o['loglik']:7.3f} {o['FP']:3d} {o['FN']:3d}"
            )
        print(f"{res['rho']:4.1f} | {cells[0]} | {cells[1]}")
    if out_dir is not None:
        for path in figures(results, lambdas, out_dir):
            print(f"figure: {path}")
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
