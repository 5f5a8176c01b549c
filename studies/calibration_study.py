"""Calibrating stability selection with a known truth.

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

stabs and sharp share one set of subsample fits (the sharp fit reads the stabs fit's
checkpoint, with the result of a fit of its own), and every rule searches Stabl's
penalty range (``PATH_RATIO``). Each replicate's data and seeds come from
``SeedSequence(seed, spawn_key=(setting, replicate))``, so replicates run in parallel
(``--n-jobs``) and in any order with the same result; each finished replicate is
appended to a JSON-lines cache (``--cache``) and a rerun continues from it.

Run:  /usr/bin/python3 studies/calibration_study.py --quick      (< 60 s; the test)
      /usr/bin/python3 studies/calibration_study.py --mode medium   (10 replicates)
      /usr/bin/python3 studies/calibration_study.py --mode full --n-jobs 2 \
          --cache studies/calibration_study_full.jsonl \
          --json studies/calibration_study_full.json                 (the docs' table)
      ... --report-only    (summarise the cache as it stands, running nothing)
Writes ``calibration_study.md``, ``.json`` and ``.png`` in ``--out`` (default
``docs/figures``; the table is copied into ``docs/calibration_study.md``).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import sys
import time
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULES = ("stabs", "sharp", "Stabl", "1-SE stability", "CV lasso")
BLOCK = 10

#: (model, n, p, s) per mode, with the subsampling sizes. Every rule searches the same
#: penalty range, Stabl's (alpha_max down to alpha_max / 30, C_min up to 100 C_min; the
#: 1-SE rule's grid spans it too). "full" spans the issue's ranges (n 100..500,
#: p 100..1000, s 5..20, linear and logistic) with 50 replicates per setting and
#: smaller subsampling sizes than stabs's default (B = 20 complementary pairs instead of
#: 50, 10 penalties instead of 25); its settings run cheapest first.
MODES = {
    "quick": dict(
        settings=[("linear", 100, 50, 5), ("logistic", 150, 50, 5)],
        replicates=3,
        n_subsamples=6,
        n_alphas=6,
        n_runs=8,
        n_candidates=5,
    ),
    "medium": dict(
        settings=[("linear", 200, 100, 5), ("logistic", 300, 100, 5)],
        replicates=10,
        n_subsamples=10,
        n_alphas=10,
        n_runs=20,
        n_candidates=6,
    ),
    "large": dict(
        settings=[("linear", 300, 300, 10), ("logistic", 400, 300, 10)],
        replicates=20,
        n_subsamples=10,
        n_alphas=10,
        n_runs=20,
        n_candidates=6,
    ),
    "full": dict(
        settings=[
            ("linear", 100, 100, 5),
            ("logistic", 200, 100, 5),
            ("linear", 500, 1000, 20),
            ("logistic", 500, 1000, 20),
        ],
        replicates=50,
        n_subsamples=20,
        n_alphas=10,
        n_runs=20,
        n_candidates=8,
    ),
}
#: The ratio of the smallest to the largest penalty of the stability selection path
#: (StabilitySelection's ``eps``): Stabl's range, which calibration="fdp" uses anyway.
PATH_RATIO = {"linear": 1 / 30, "logistic": 1 / 100}


def simulate(model, n, p, s, rng, rho=0.5, beta=1.0):
    """One replicate: X (n, p) in equicorrelated blocks, y, and the true support."""
    n_blocks = -(-p // BLOCK)
    shared = np.repeat(rng.normal(size=(n, n_blocks)), BLOCK, axis=1)[:, :p]
    X = np.sqrt(rho) * shared + np.sqrt(1 - rho) * rng.normal(size=(n, p))
    truth = np.zeros(p, dtype=bool)
    if s * BLOCK > p:
        raise ValueError(
            f"s: at most p / {BLOCK} true features (one per block); got s = {s}, p = {p}"
        )
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
        grid = np.geomspace(top, top / 30, n_candidates + 1)[1:]  # sparse to dense
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
        fitted = LogisticRegressionCV(
            Cs=10, cv=5, penalty="l1", solver="liblinear", random_state=seed
        ).fit(X, y)
    return np.abs(np.ravel(fitted.coef_)) > 0


def supports(model, X, y, cfg, seed, times=None):
    """The support of each rule on one replicate (``times``, a dict, receives each
    rule's CPU seconds).

    stabs and sharp share one set of subsample fits: the stabs fit writes them to a
    checkpoint directory and the sharp fit, whose path, subsamples and seeds are the
    same, reads them back instead of fitting again (``StabilitySelection``'s
    ``checkpoint=``; the result is that of a fit of its own)."""
    import tempfile
    from propstab import StabilitySelection

    common = dict(n_subsamples=cfg["n_subsamples"], n_alphas=cfg["n_alphas"], random_state=seed)
    est = _estimator(model)
    times = {} if times is None else times
    out = {}
    clock = time.process_time()

    def lap(rule):
        nonlocal clock
        now = time.process_time()
        times[rule] = now - clock
        clock = now

    with tempfile.TemporaryDirectory(prefix="calibration-study-") as shared:
        out["stabs"] = (
            StabilitySelection(
                est, cutoff=0.75, PFER=1.0, eps=PATH_RATIO[model], checkpoint=shared, **common
            )
            .fit(X, y)
            .support_
        )
        lap("stabs")
        out["sharp"] = (
            StabilitySelection(
                est,
                calibration="stability_score",
                PFER=None,
                eps=PATH_RATIO[model],
                checkpoint=shared,
                **common,
            )
            .fit(X, y)
            .support_
        )
        lap("sharp")
    out["Stabl"] = StabilitySelection(est, calibration="fdp", **common).fit(X, y).support_
    lap("Stabl")
    out["1-SE stability"] = one_se_rule(model, X, y, cfg["n_runs"], cfg["n_candidates"], seed)
    lap("1-SE stability")
    out["CV lasso"] = cv_lasso(model, X, y, seed)
    lap("CV lasso")
    return out


def scores(selected, truth):
    tp = int((selected & truth).sum())
    precision = tp / selected.sum() if selected.sum() else 0.0
    recall = tp / truth.sum()
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def replicate(mode, k, rep, seed=2026):
    """Replicate ``rep`` of setting ``k`` of ``mode``: what each rule selects (feature
    indices), the truth and each rule's CPU seconds. Its data and seeds come from
    ``SeedSequence(seed, spawn_key=(k, rep))`` alone, so replicates can run in any
    order, in parallel, or in another run (the cache)."""
    cfg = MODES[mode]
    model, n, p, s = cfg["settings"][k]
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k, rep)))
    X, y, truth = simulate(model, n, p, s, rng)
    times = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chosen = supports(model, X, y, cfg, seed=int(rng.integers(2**31)), times=times)
    return dict(
        setting=[model, n, p, s],
        replicate=rep,
        truth=np.flatnonzero(truth).tolist(),
        selected={r: np.flatnonzero(m).tolist() for r, m in chosen.items()},
        cpu_seconds={r: round(t, 3) for r, t in times.items()},
    )


def fingerprint(mode, seed):
    """What a cached replicate depends on: a cache line of another run is refused."""
    return dict(
        mode=mode,
        seed=seed,
        config=json.loads(json.dumps(MODES[mode])),
        path_ratio=PATH_RATIO,
        version=2,
    )


def read_cache(path, mode, seed):
    """The replicates finished in an earlier run, keyed by (setting index, replicate)."""
    path = pathlib.Path(path)
    done = {}
    if not path.exists():
        return done
    expected = fingerprint(mode, seed)
    settings = [list(x) for x in MODES[mode]["settings"]]
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:  # a line cut by a kill: that replicate reruns
            continue
        if record.get("fingerprint") != expected:
            raise ValueError(
                f"cache: {path} line {number} holds a replicate of another "
                f"run (mode, seed or configuration differ); use another "
                f"--cache file or delete this one"
            )
        done[(settings.index(record["setting"]), record["replicate"])] = record
    return done


def _cached_replicate(mode, k, rep, seed, cache):
    record = replicate(mode, k, rep, seed)
    record["fingerprint"] = fingerprint(mode, seed)
    if cache is not None:  # one write of one line (after a newline: a line cut by a
        with open(cache, "a", encoding="utf-8") as f:  # kill is left on its own)
            f.write("\n" + json.dumps(record) + "\n")
            f.flush()
            os.fsync(f.fileno())
    return record


def paired_difference(a, b, confidence_level=0.95):
    """The mean of a - b over the replicates (the same data sets for both rules) with
    its t interval; NaNs for fewer than 2 replicates, the mean alone when a == b."""
    from scipy import stats

    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if len(d) < 2:
        return math.nan, math.nan, math.nan
    mean = float(d.mean())
    half = float(
        stats.t.ppf((1 + confidence_level) / 2, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d))
    )
    return mean, mean - half, mean + half


def run(mode="quick", seed=2026, cache=None, n_jobs=1, compute=True, only=None):
    """Every setting of ``mode``: per rule the mean precision, recall, F1, size and the
    stability of the supports over the replicates. Returns a dict (JSON-able).

    ``cache`` (a JSON-lines file): each finished replicate is appended to it, and the
    replicates it already holds are not run again, so a stopped run continues where it
    stopped. ``n_jobs``: replicates in parallel (joblib; the result does not depend on
    it). ``compute=False``: summarise what the cache holds, running nothing. ``only``:
    the indices of the settings to run (the summary covers every setting in the cache)."""
    import propstab

    cfg = MODES[mode]
    done = read_cache(cache, mode, seed) if cache is not None else {}
    todo = [
        (k, rep)
        for k in range(len(cfg["settings"]))
        for rep in range(cfg["replicates"])
        if (k, rep) not in done and (only is None or k in only)
    ]
    if compute and todo:
        if n_jobs == 1:
            new = [_cached_replicate(mode, k, rep, seed, cache) for k, rep in todo]
        else:
            from joblib import Parallel, delayed

            new = Parallel(n_jobs=n_jobs)(
                delayed(_cached_replicate)(mode, k, rep, seed, cache) for k, rep in todo
            )
        done.update({(k, rep): r for (k, rep), r in zip(todo, new)})
    results = []
    for k, (model, n, p, s) in enumerate(cfg["settings"]):
        records = [done[key] for key in sorted(done) if key[0] == k]
        if not records:
            continue
        truth = np.zeros(p, dtype=bool)
        truth[records[0]["truth"]] = True
        f1 = {}
        for rule in RULES:
            Z = np.zeros((len(records), p), dtype=bool)
            for i, r in enumerate(records):
                Z[i, r["selected"][rule]] = True
            prf = np.array([scores(z, truth) for z in Z])
            f1[rule] = prf[:, 2]
            diff, diff_low, diff_high = paired_difference(prf[:, 2], f1[RULES[0]])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = propstab.estimate(Z.astype(int), "nogueira")
                low, high = est.confidence_interval(0.95)
            results.append(
                dict(
                    model=model,
                    n=n,
                    p=p,
                    s=s,
                    rule=rule,
                    replicates=len(Z),
                    precision=float(prf[:, 0].mean()),
                    recall=float(prf[:, 1].mean()),
                    f1=float(prf[:, 2].mean()),
                    f1_sd=float(prf[:, 2].std(ddof=1)) if len(Z) > 1 else math.nan,
                    f1_minus_stabs=diff,
                    f1_minus_stabs_low=diff_low,
                    f1_minus_stabs_high=diff_high,
                    size=float(Z.sum(axis=1).mean()),
                    stability=float(est.statistic),
                    low=float(low),
                    high=float(high),
                    cpu_seconds=float(sum(r["cpu_seconds"][rule] for r in records)),
                )
            )
    return dict(
        mode=mode,
        seed=seed,
        config={k: v for k, v in cfg.items()},
        path_ratio=PATH_RATIO,
        results=results,
    )


def markdown(result) -> str:
    cfg = result["config"]
    counts = {}
    for r in result["results"]:
        counts[(r["model"], r["n"], r["p"], r["s"])] = r["replicates"]
    reached = ", ".join(f"{m} n={n} p={p} s={s}: {c}" for (m, n, p, s), c in counts.items())
    cpu = sum(r["cpu_seconds"] for r in result["results"])
    lines = [
        f"Mode `{result['mode']}` (seed {result['seed']}): {cfg['replicates']} "
        f"replicates per setting asked; reached: {reached}. Stability selection with "
        f"{cfg['n_subsamples']} complementary pairs over {cfg['n_alphas']} penalties "
        f"(stabs and sharp on the same fits; every rule over Stabl's penalty range); "
        f"the 1-SE rule over {cfg['n_candidates']} penalties and {cfg['n_runs']} "
        f"bootstraps. CPU time of the replicates: {cpu / 60:.1f} min. F1 is the mean "
        f"(standard deviation over the replicates); F1 - stabs is the mean paired "
        f"difference from stabs on the same data sets with its 95 % t interval.",
        "",
        "| model | n | p | s | replicates | rule | precision | recall | F1 (sd) | "
        "F1 - stabs (95 % CI) | mean size | stability (95 % CI) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in result["results"]:
        lines.append(
            f"| {r['model']} | {r['n']} | {r['p']} | {r['s']} | {r['replicates']} | "
            f"{r['rule']} | {r['precision']:.2f} | {r['recall']:.2f} | "
            f"{r['f1']:.2f} ({r['f1_sd']:.2f}) | "
            f"{'' if r['rule'] == RULES[0] else _signed(r)} | {r['size']:.1f} | "
            f"{r['stability']:.2f} [{r['low']:.2f}, {r['high']:.2f}] |"
        )
    return "\n".join(lines) + "\n"


def _signed(r):
    return (
        f"{r['f1_minus_stabs']:+.2f} [{r['f1_minus_stabs_low']:+.2f}, "
        f"{r['f1_minus_stabs_high']:+.2f}]"
    )


def save_figure(fig, path, dpi):
    """scripts/site_audit.py's ``save_figure``: the PNG records its smallest text."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("site_audit", ROOT / "scripts" / "site_audit.py")
    site_audit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site_audit)
    return site_audit.save_figure(fig, path, dpi)


def figure(result, path, dpi=100):
    """F1 against stability, one panel per setting in a 2 x 2 grid (720 px wide at the
    default dpi, shown at its natural size: its smallest text, the legend's, is 11.6 px),
    with one legend for the rules below the panels."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    settings = []
    for r in result["results"]:
        key = (r["model"], r["n"], r["p"], r["s"])
        if key not in settings:
            settings.append(key)
    rules = list(dict.fromkeys(r["rule"] for r in result["results"]))
    ncols = min(2, len(settings))
    nrows = -(-len(settings) // ncols)
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(3.6 * ncols, 3.2 * nrows + 0.4),
        squeeze=False,
        sharex=True,
        sharey=True,
    )
    for ax, key in zip(axes.flat, settings):
        rows = [r for r in result["results"] if (r["model"], r["n"], r["p"], r["s"]) == key]
        for r in rows:
            half = (
                1.96 * r["f1_sd"] / math.sqrt(r["replicates"]) if r["replicates"] > 1 else 0.0
            )  # the mean F1's normal interval
            ax.errorbar(
                r["stability"],
                r["f1"],
                xerr=[[r["stability"] - r["low"]], [r["high"] - r["stability"]]],
                yerr=half,
                fmt="o",
                color=f"C{rules.index(r['rule'])}",
                label=r["rule"],
                capsize=3,
            )
        ax.set_title(
            f"{key[0]}, n={key[1]}, p={key[2]}, s={key[3]}\n"
            f"({rows[0]['replicates']} replicates)",
            fontsize="medium",
        )
        ax.set_xlim(-0.05, 1.05)
        ax.set_ylim(-0.05, 1.05)
    for ax in axes.flat[len(settings) :]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("stability over replicates (nogueira)")
    for ax in axes[:, 0]:
        ax.set_ylabel("F1 of the support")
    handles = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    legend = fig.legend(
        list(handles.values()),
        list(handles),
        loc="lower center",
        ncol=len(handles),
        fontsize="small",
        frameon=False,
    )
    # the panels above the legend (its height measured, as a fraction of the figure's)
    height = legend.get_window_extent(fig.canvas.get_renderer()).height / fig.bbox.height
    fig.tight_layout(rect=(0, height, 1, 1))
    px = save_figure(fig, path, dpi)
    plt.close(fig)
    return px


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the quick mode (< 60 s)")
    parser.add_argument("--mode", choices=tuple(MODES), default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(ROOT / "docs" / "figures"))
    parser.add_argument(
        "--cache",
        default=None,
        help="JSON-lines file of finished replicates, continued on a rerun "
        "(default: calibration_study_<mode>.jsonl in --out)",
    )
    parser.add_argument("--n-jobs", type=int, default=1, help="replicates in parallel")
    parser.add_argument(
        "--settings",
        type=int,
        nargs="+",
        default=None,
        help="run only these settings (0-based indices of the mode's list)",
    )
    parser.add_argument(
        "--report-only", action="store_true", help="summarise the cache without running replicates"
    )
    parser.add_argument(
        "--json",
        default=None,
        help="also write the summary to this file (e.g. " "studies/calibration_study_full.json)",
    )
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else (args.mode or "full")
    start = time.time()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cache = args.cache or out / f"calibration_study_{mode}.jsonl"
    result = run(
        mode,
        seed=args.seed,
        cache=cache,
        n_jobs=args.n_jobs,
        compute=not args.report_only,
        only=args.settings,
    )
    table = markdown(result)
    (out / "calibration_study.md").write_text(table)
    (out / "calibration_study.json").write_text(json.dumps(result, indent=1))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    figure(result, out / "calibration_study.png")
    print(table)
    print(f"{mode} mode: {time.time() - start:.0f} s; wrote {out}/calibration_study.*")
    return 0


if __name__ == "__main__":
    sys.exit(main())
