"""Validation of propstab's inference for the stability of rankings, by simulation.

The ranking measures are means over pairs of runs of a pair score (Spearman's rho,
Kendall's tau-b, Jurman's Canberra over its normaliser): U-statistics of degree 2,
unbiased for the population value E[h(R, R')] of two independent runs. Their variance
is estimated analytically (the U-statistic variance, Hoeffding 1948, in the form of the
thesis's Thm 6: ``method="analytic"``, for spearman and kendall) or by the delete-one
jackknife (every measure). Studies, each with pass/fail checks:

1. coverage of the Wald intervals (95 %, also 90 and 99 %), analytic and jackknife, for
   d = 20 and 100 features, M = 10, 30, 100 runs, three strengths of the ranking
   signal and one population with many ties;
2. the level and power of the two-sample test (thesis Thm 7) for spearman.

Populations (a Thurstone model): run i scores feature f as mu_f + e_if with e_if
independent N(0, 1) and ranks the features by decreasing score; mu_f = c (d - f) / d
for a strength c. In the tied population the scores are rounded to integers (so each
run has tie groups). The population value of spearman, kendall and canberra is
estimated without bias from a large independent sample: the same U-statistic over
N_pop runs (its standard error is printed); for ``top_k``, Nogueira's estimator is not
unbiased, so its estimand is E[value] at that M, from an independent pilot (as the
jackknife study of studies/validate_inference.py does).

Usage::

    /usr/bin/python3 studies/validate_ranking_inference.py            # full (~15 min)
    /usr/bin/python3 studies/validate_ranking_inference.py --quick    # quick (< 1 min)

Options: ``--seed``, ``--json PATH``. Prints Markdown tables; exits with status 1 when
a check fails.
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
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import propstab  # noqa: E402

LEVELS = (0.99, 0.95, 0.90)
#: measure -> the variance methods studied
METHODS = {
    "spearman": ("analytic", "jackknife"),
    "kendall": ("analytic", "jackknife"),
    "canberra": ("jackknife",),
    "top_k": ("jackknife",),
}
#: Strengths c of the signal (mu_f = c (d - f) / d) and whether scores are rounded (ties).
CASES = {
    "strong": (6.0, False),
    "medium": (2.5, False),
    "weak": (0.8, False),
    "tied": (2.5, True),
    "weaker": (2.0, False),
}
COVERAGE_CASES = ("strong", "medium", "weak", "tied")

MODES = {
    "quick": dict(
        d=(30,),
        M=(20, 60),
        cases=("medium", "tied"),
        repeats=200,
        population_runs=3000,
        canberra_runs=1500,
        pilot=150,
        test_repeats=150,
    ),
    "full": dict(
        d=(20, 100),
        M=(10, 30, 100),
        cases=COVERAGE_CASES,
        repeats=2000,
        population_runs=20000,
        canberra_runs=3000,
        pilot=2000,
        test_repeats=2000,
    ),
}


def binomial_se(p: float, n: int) -> float:
    return math.sqrt(p * (1 - p) / n)


def draw(rng, case: str, M: int, d: int) -> np.ndarray:
    """M runs' scores of d features (rank them with as_rankings(kind="scores"))."""
    c, tied = CASES[case]
    mu = c * (d - np.arange(d)) / d
    scores = mu + rng.standard_normal((M, d))
    return np.round(scores) if tied else scores


def top_k_size(d: int) -> int:
    return max(1, d // 10)


def options(measure: str, d: int) -> dict:
    return {"k": top_k_size(d)} if measure == "top_k" else {}


def population_value(rng, case, d, measure, runs):
    """The population value E[h(R, R')] (spearman, kendall, canberra: the U-statistic over
    ``runs`` independent runs, unbiased) with its standard error (the U-statistic
    variance)."""
    R = propstab.as_rankings(draw(rng, case, runs, d), kind="scores")
    est = propstab.estimate(
        R, measure, method="analytic" if measure != "canberra" else "jackknife"
    )
    return est.statistic, est.standard_error


def study_coverage(rng, cfg, mode):
    rows, checks = [], []
    z = {lvl: stats.norm.ppf(0.5 + lvl / 2) for lvl in LEVELS}
    R = cfg["repeats"]
    for d in cfg["d"]:
        for case in cfg["cases"]:
            targets = {}
            for m in ("spearman", "kendall", "canberra"):
                runs = (
                    cfg["population_runs"]
                    if m != "kendall" or d <= 30
                    else cfg["population_runs"] // 4
                )
                if m == "canberra":
                    runs = min(runs, cfg["canberra_runs"])  # O(N^2 d) pair matrix
                targets[m] = population_value(rng, case, d, m, runs)
            for M in cfg["M"]:
                pilot = np.array(
                    [
                        propstab.stability(
                            propstab.as_rankings(draw(rng, case, M, d), kind="scores"),
                            "top_k",
                            **options("top_k", d),
                        )
                        for _ in range(cfg["pilot"])
                    ]
                )
                target = dict(
                    targets,
                    top_k=(float(pilot.mean()), float(pilot.std(ddof=1) / math.sqrt(pilot.size))),
                )
                hits = {
                    (m, meth): {lvl: 0 for lvl in LEVELS}
                    for m, ms in METHODS.items()
                    for meth in ms
                }
                se_ratio = {key: [] for key in hits}
                values = {m: [] for m in METHODS}
                for _ in range(R):
                    rk = propstab.as_rankings(draw(rng, case, M, d), kind="scores")
                    for m, ms in METHODS.items():
                        for meth in ms:
                            est = propstab.estimate(rk, m, method=meth, **options(m, d))
                            for lvl in LEVELS:
                                hits[m, meth][lvl] += (
                                    abs(est.statistic - target[m][0])
                                    <= z[lvl] * est.standard_error
                                )
                            se_ratio[m, meth].append(est.standard_error)
                        values[m].append(est.statistic)
                for (m, meth), h in hits.items():
                    cov = [100.0 * h[lvl] / R for lvl in LEVELS]
                    sd = float(np.std(values[m], ddof=1))
                    rows.append(
                        dict(
                            d=d,
                            case=case,
                            M=M,
                            measure=m,
                            method=meth,
                            target=target[m][0],
                            target_se=target[m][1],
                            mean=float(np.mean(values[m])),
                            sd=sd,
                            mean_se=float(np.mean(se_ratio[m, meth])),
                            repeats=R,
                            coverage=cov,
                        )
                    )
                    if M >= 30 or (mode == "quick" and M >= 20):
                        tol = 4 * 100 * binomial_se(0.95, R) + (1.0 if M < 100 else 0.5)
                        checks.append(
                            dict(
                                name=f"coverage {m} {meth} d={d} {case} M={M} nominal 95%",
                                value=cov[1],
                                target=f"95 +- {tol:.2f}",
                                passed=bool(abs(cov[1] - 95) <= tol),
                            )
                        )
    return rows, checks


def study_tests(rng, cfg):
    """Level and power of the two-sample test (spearman, analytic variance), two
    procedures on independent resamples: the same population (H0) or a weaker signal
    (c = 2 instead of 2.5: population Spearman about 0.27 against 0.34)."""
    d, M, R, alpha = 30, 50, cfg["test_repeats"], 0.05
    out, checks = [], []
    for label, second in (("H0", "medium"), ("H1", "weaker")):
        reject = 0
        for _ in range(R):
            R1 = propstab.as_rankings(draw(rng, "medium", M, d), kind="scores")
            R2 = propstab.as_rankings(draw(rng, second, M, d), kind="scores")
            reject += (
                propstab.two_sample_test(R1, R2, measure="spearman", test="wald").pvalue < alpha
            )
        out.append(
            dict(hypothesis=label, second=second, d=d, M=M, repeats=R, rejection_rate=reject / R)
        )
    tol = 4 * binomial_se(alpha, R)
    checks.append(
        dict(
            name="two-sample test level (spearman)",
            value=out[0]["rejection_rate"],
            target=f"{alpha} +- {tol:.3f}",
            passed=bool(abs(out[0]["rejection_rate"] - alpha) <= tol),
        )
    )
    floor = alpha + 4 * binomial_se(alpha, R)
    checks.append(
        dict(
            name="two-sample test power (spearman, medium vs weaker)",
            value=out[1]["rejection_rate"],
            target=f"> {floor:.3f}",
            passed=bool(out[1]["rejection_rate"] > floor),
        )
    )
    return out, checks


def run(mode: str = "quick", *, seed: int = 20170620):
    """Run both studies; ``{"results": ..., "checks": [...], "seconds": ...}``."""
    cfg = MODES[mode]
    rng = np.random.default_rng(seed)
    results, checks, seconds = {}, [], {}
    for name, fn in (
        ("coverage", lambda: study_coverage(rng, cfg, mode)),
        ("tests", lambda: study_tests(rng, cfg)),
    ):
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("error", propstab.UndefinedMeasureWarning)
            results[name], c = fn()
        seconds[name] = time.perf_counter() - t
        checks += c
    return dict(mode=mode, seed=seed, results=results, checks=checks, seconds=seconds)


def report(out) -> str:
    """Markdown tables of the results."""
    r = out["results"]
    L = [
        f"## Mode {out['mode']} (seed {out['seed']})",
        "",
        "### Coverage of the Wald intervals (%), ranking measures",
        "",
        "| d | population | M | measure | variance | estimand (SE) | mean estimate | "
        "sd | mean SE | repeats | 99 % | 95 % | 90 % |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for x in r["coverage"]:
        c = x["coverage"]
        L.append(
            f"| {x['d']} | {x['case']} | {x['M']} | {x['measure']} | {x['method']} | "
            f"{x['target']:.4f} ({x['target_se']:.4f}) | {x['mean']:.4f} | "
            f"{x['sd']:.4f} | {x['mean_se']:.4f} | {x['repeats']} | {c[0]:.1f} | "
            f"{c[1]:.1f} | {c[2]:.1f} |"
        )
    L += [
        "",
        "### Two-sample test (spearman, analytic variance, alpha = 0.05)",
        "",
        "| hypothesis | populations | d | M | repeats | rejection rate |",
        "|---|---|---|---|---|---|",
    ]
    for x in r["tests"]:
        L.append(
            f"| {x['hypothesis']} | medium vs {x['second']} | {x['d']} | {x['M']} | "
            f"{x['repeats']} | {x['rejection_rate']:.3f} |"
        )
    L += ["", "### Checks", "", "| check | value | target | passed |", "|---|---|---|---|"]
    for c in out["checks"]:
        L.append(
            f"| {c['name']} | {c['value']:.4g} | {c['target']} | "
            f"{'yes' if c['passed'] else 'NO'} |"
        )
    L += ["", "Seconds per study: " + ", ".join(f"{k} {v:.1f}" for k, v in out["seconds"].items())]
    return "\n".join(L)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="hundreds of repeats (< 1 min)")
    parser.add_argument("--seed", type=int, default=20170620)
    parser.add_argument("--json", help="write every number to this JSON file")
    args = parser.parse_args(argv)
    out = run("quick" if args.quick else "full", seed=args.seed)
    print(report(out))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
    return 0 if all(c["passed"] for c in out["checks"]) else 1


if __name__ == "__main__":
    sys.exit(main())
