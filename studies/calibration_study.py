"""Calibrating stability selection with a known truth (issue 22, part 3).

Simulated data: n rows, p features in blocks of 10 equicorrelated features
(correlation ``rho``), s true features, one per block in the first s blocks, with
coefficients of alternating sign and magnitude ``beta``; a linear model
(``y = X beta + N(0, 1)``) or a logistic one (``y ~ Bernoulli(expit(X beta))``). On
each replicate data set, five rules choose a support:

- **stabs**: ``StabilitySelection`` with stabs's documented example's calibration
  (``calibration="pfer"``, cutoff 0.75, PFER 1, complementary pairs);
- **sharp**: ``calibration="stability_score"`` (penalty and pi by the maximal
  stability score, sharp's default of no PFER constraint);
- **Stabl**: ``calibration="fdp"`` (permuted artificial features, the threshold
  minimising FDP+);
- **1-SE stability**: ``propstab.assess`` over a grid of Lasso penalties (L1-logistic
  C's) on the same bootstrap samples; the most stable candidate whose mean
  out-of-bag score is within one standard error of the best, ties to the sparser;
  refitted on the whole replicate;
- **CV lasso**: ``LassoCV`` (``LogisticRegressionCV`` with the L1 penalty), 5 folds.

Per rule and setting: precision, recall and F1 of the support against the truth
(mean over replicates), the mean size, and the stability of what the rule selects
across the replicates (Nogueira's estimator on the replicates' supports, with its
95 % interval): a rule that recovers the same features from every data set of the
same law is stable.

Run:  /usr/bin/python3 studies/calibration_study.py --quick      (< 60 s; the test)
      /usr/bin/python3 studies/calibration_study.py --mode medium   (the docs' table)
      /usr/bin/python3 studies/calibration_study.py                 (full: >= 50 replicates)
Writes ``calibration_study.md`` and ``calibration_study.png`` in ``--out``
(default ``docs/figures``; the table is copied into ``docs/calibration.md``).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULES = ("stabs", "sharp", "Stabl", "1-SE stability", "CV lasso")
BLOCK = 10

#: (model, n, p, s) per mode, with the subsampling sizes
MODES = {
    "quick": dict(settings=[("linear", 100, 50, 5), ("logistic", 150, 50, 5)],
                  replicates=3, n_subsamples=6, n_alphas=6, n_runs=8, n_candidates=5),
    "medium": dict(settings=[("linear", 200, 100, 5), ("logistic", 300, 100, 5)],
                   replicates=10, n_subsamples=10, n_alphas=10, n_runs=20, n_candidates=6),
    "large": dict(settings=[("linear", 300, 300, 10), ("logistic", 400, 300, 10)],
                  replicates=20, n_subsamples=10, n_alphas=10, n_runs=20, n_candidates=6),
    "full": dict(settings=[("linear", 100, 100, 5), ("linear", 500, 1000, 20),
                           ("logistic", 200, 100, 5), ("logistic", 500, 1000, 20)],
                 replicates=50, n_subsamples=50, n_alphas=25, n_runs=50, n_candidates=10),
}


def simulate(model, n, p, s, rng, rho=0.5, beta=1.0):
    """One replicate: X (n, p) in equicorrelated blocks, y, and the true support."""
    n_blocks = -(-p // BLOCK)
    shared = np.repeat(rng.normal(size=(n, n_blocks)), BLOCK, axis=1)[:, :p]
    X = np.sqrt(rho) * shared + np.sqrt(1 - rho) * rng.normal(size=(n, p))
    truth = np.zeros(p, dtype=bool)
    if s * BLOCK > p:
        raise ValueError(f"s: at most p / {BLOCK} true features (one per block); got s = {s}, p = {p}")
    truth[np.arange(s) * BLOCK] = True
    coef = np.zeros(p)
    coef[truth] = beta * np.where(np.arange(s) % 2 == 0, 1.0, -1.0)
    eta = X @ coef
    if model == "linear":
        y = eta + rng.normal(size=n)
    else:
        y = (rng.random(n) < 1 / (1 + np.exp(-eta))).astype(int)
    return X, y, truth


def _estimator(model):
    from sklearn.linear_model import Lasso, LogisticRegression
    if model == "linear":
        return Lasso()
    return LogisticRegression(penalty="l1", solver="liblinear")


def one_se_rule(model, X, y, n_runs, n_candidates, seed):
    """The most stable penalty within one standard error of the best mean score (ties
    to the sparser), from propstab.assess on the same bootstrap samples; the support of
    the winner refitted on all of X."""
    import propstab
    from propstab.stability_selection import StabilitySelection  # noqa: F401 (sklearn)
    from sklearn.base import clone
    from sklearn.svm import l1_min_c
    base = _estimator(model)
    Xc = X - X.mean(axis=0)
    if model == "linear":
        top = np.max(np.abs(Xc.T @ (y - y.mean()))) / len(y)
        grid = np.geomspace(top, top / 30, n_candidates + 1)[1:]     # sparse to dense
        candidates = {f"{a:.4g}": clone(base).set_params(alpha=a) for a in grid}
    else:
        c_min = l1_min_c(X, y, loss="log")
        grid = np.geomspace(c_min, 100 * c_min, n_candidates + 1)[1:]
        candidates = {f"{c:.4g}": clone(base).set_params(C=c) for c in grid}
    comparison = propstab.assess(candidates, X, y, n_runs=n_runs, random_state=seed)
    rows = list(comparison.assessments.values())
    scores = np.array([a.mean_score for a in rows])
    best = int(np.nanargmax(scores))
    ok = scores >= scores[best] - rows[best].score_standard_error
    stab = np.array([a.stability if np.isfinite(a.stability) else -np.inf for a in rows])
    # candidates run from sparse to dense: the first of the maximal stability is sparser
    chosen = int(np.flatnonzero(ok)[np.argmax(stab[ok])])
    winner = clone(list(candidates.values())[chosen]).fit(X, y)
    return np.abs(np.ravel(winner.coef_)) > 0


def cv_lasso(model, X, y, seed):
    from sklearn.linear_model import LassoCV, LogisticRegressionCV
    if model == "linear":
        fitted = LassoCV(cv=5, random_state=seed).fit(X, y)
    else:
        fitted = LogisticRegressionCV(Cs=10, cv=5, penalty="l1", solver="liblinear",
                                      random_state=seed).fit(X, y)
    return np.abs(np.ravel(fitted.coef_)) > 0


def supports(model, X, y, cfg, seed):
    """The support of each rule on one replicate."""
    from propstab import StabilitySelection
    common = dict(n_subsamples=cfg["n_subsamples"], n_alphas=cfg["n_alphas"],
                  random_state=seed)
    est = _estimator(model)
    out = {}
    out["stabs"] = StabilitySelection(est, cutoff=0.75, PFER=1.0, **common).fit(X, y).support_
    out["sharp"] = StabilitySelection(est, calibration="stability_score", PFER=None,
                                      **common).fit(X, y).support_
    out["Stabl"] = StabilitySelection(est, calibration="fdp", **common).fit(X, y).support_
    out["1-SE stability"] = one_se_rule(model, X, y, cfg["n_runs"], cfg["n_candidates"], seed)
    out["CV lasso"] = cv_lasso(model, X, y, seed)
    return out


def scores(selected, truth):
    tp = int((selected & truth).sum())
    precision = tp / selected.sum() if selected.sum() else 0.0
    recall = tp / truth.sum()
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def run(mode="quick", seed=2026):
    """Every setting of ``mode``: per rule the mean precision, recall, F1, size and the
    stability of the supports over the replicates. Returns a dict (JSON-able)."""
    import propstab
    cfg = MODES[mode]
    root = np.random.SeedSequence(seed)
    results = []
    for k, (model, n, p, s) in enumerate(cfg["settings"]):
        rng = np.random.default_rng(root.spawn(1)[0])
        per_rule = {r: [] for r in RULES}
        truth = None
        for rep in range(cfg["replicates"]):
            X, y, truth = simulate(model, n, p, s, rng)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                chosen = supports(model, X, y, cfg, seed=int(rng.integers(2 ** 31)))
            for rule, mask in chosen.items():
                per_rule[rule].append(np.asarray(mask, dtype=bool))
        for rule in RULES:
            Z = np.array(per_rule[rule])
            prf = np.array([scores(z, truth) for z in Z])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = propstab.estimate(Z.astype(int), "nogueira")
                low, high = est.confidence_interval(0.95)
            results.append(dict(model=model, n=n, p=p, s=s, rule=rule,
                                replicates=len(Z), precision=float(prf[:, 0].mean()),
                                recall=float(prf[:, 1].mean()), f1=float(prf[:, 2].mean()),
                                size=float(Z.sum(axis=1).mean()),
                                stability=float(est.statistic), low=float(low),
                                high=float(high)))
    return dict(mode=mode, seed=seed, config={k: v for k, v in cfg.items()},
                results=results)


def markdown(result) -> str:
    cfg = result["config"]
    lines = [f"Mode `{result['mode']}` (seed {result['seed']}): {cfg['replicates']} "
             f"replicates per setting; stability selection with "
             f"{cfg['n_subsamples']} complementary pairs over {cfg['n_alphas']} penalties; "
             f"the 1-SE rule over {cfg['n_candidates']} penalties and {cfg['n_runs']} "
             f"bootstraps.", "",
             "| model | n | p | s | rule | precision | recall | F1 | mean size | "
             "stability (95 % CI) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in result["results"]:
        lines.append(f"| {r['model']} | {r['n']} | {r['p']} | {r['s']} | {r['rule']} | "
                     f"{r['precision']:.2f} | {r['recall']:.2f} | {r['f1']:.2f} | "
                     f"{r['size']:.1f} | {r['stability']:.2f} [{r['low']:.2f}, "
                     f"{r['high']:.2f}] |")
    return "\n".join(lines) + "\n"


def figure(result, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    settings = []
    for r in result["results"]:
        key = (r["model"], r["n"], r["p"], r["s"])
        if key not in settings:
            settings.append(key)
    fig, axes = plt.subplots(1, len(settings), figsize=(4.2 * len(settings), 3.8),
                             squeeze=False, sharey=True)
    for ax, key in zip(axes[0], settings):
        rows = [r for r in result["results"]
                if (r["model"], r["n"], r["p"], r["s"]) == key]
        for i, r in enumerate(rows):
            ax.errorbar(r["stability"], r["f1"], xerr=[[r["stability"] - r["low"]],
                                                       [r["high"] - r["stability"]]],
                        fmt="o", color=f"C{i}", label=r["rule"], capsize=3)
        ax.set_title(f"{key[0]}, n={key[1]}, p={key[2]}, s={key[3]}", fontsize="medium")
        ax.set_xlabel("stability over replicates (nogueira)")
        ax.set_xlim(-0.05, 1.05)
        ax.set_ylim(-0.05, 1.05)
    axes[0][0].set_ylabel("F1 of the support")
    axes[0][-1].legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the quick mode (< 60 s)")
    parser.add_argument("--mode", choices=tuple(MODES), default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(ROOT / "docs" / "figures"))
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else (args.mode or "full")
    start = time.time()
    result = run(mode, seed=args.seed)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table = markdown(result)
    (out / "calibration_study.md").write_text(table)
    (out / "calibration_study.json").write_text(json.dumps(result, indent=1))
    figure(result, out / "calibration_study.png")
    print(table)
    print(f"{mode} mode: {time.time() - start:.0f} s; wrote {out}/calibration_study.*")
    return 0


if __name__ == "__main__":
    sys.exit(main())
