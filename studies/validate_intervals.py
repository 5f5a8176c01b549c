"""Coverage of propstab's confidence intervals near the top of the range (issue 13).

Nogueira's estimator with every interval of ``StabilityEstimate.confidence_interval``:

- ``wald``: thesis Cor. 1 with the Thm 6 variance, clipped to [-1, 1];
- ``wald (jackknife)``: the same with the delete-one-run jackknife variance;
- ``logit``: the Wald interval on logit((Phi + 1) / 2), i.e. Fisher's z, mapped back;
- ``bootstrap``: the percentile interval over resamples of the runs;
- ``bca``: the bias-corrected and accelerated bootstrap interval (Efron 1987);

for populations with Phi = 0.9, 0.95 and 0.99 (d = 100) and M = 10, 30 and 100 runs,
nominal 95 %. The population: 30 of the d features have selection probability
p-bar + t (1 - p-bar), the others p-bar - t p-bar (p-bar = 0.3): shrinking the perfectly
stable step profile towards its mean by t gives Phi = t^2 exactly (as in
studies/validate_inference.py, whose 16-bit sampler is reused; Phi is recomputed from
the rounded probabilities with :func:`propstab.population_stability`).

Usage::

    /usr/bin/python3 studies/validate_intervals.py            # full mode (about 10 min)
    /usr/bin/python3 studies/validate_intervals.py --quick    # quick mode (< 1 min)

Options: ``--seed``, ``--json PATH``. Prints a Markdown table (coverage with its binomial
standard error, mean width, share of degenerate intervals); exits with status 1 when a
check fails.
"""
from __future__ import annotations

import argparse
import importlib.util
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

_spec = importlib.util.spec_from_file_location("validate_inference",
                                               os.path.join(HERE, "validate_inference.py"))
vi = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vi)

CASES = (0.9, 0.95, 0.99)
METHODS = ("wald", "wald (jackknife)", "logit", "bootstrap", "bca")
LEVEL = 0.95
D = 100
MODES = {
    "quick": dict(M=(10, 100), cases=(0.9, 0.99), repeats=150, n_resamples=300),
    "full": dict(M=(10, 30, 100), cases=CASES, repeats=2000, n_resamples=1000),
}


def step_population(phi: float, d: int = D):
    """16-bit thresholds, probabilities and exact Phi of the shrunk step profile."""
    base = np.zeros(d)
    base[: int(0.3 * d)] = 1.0
    return vi.population(phi, d, base=base)


def intervals(Z, n_resamples: int, seed: int):
    """The five intervals of one selection matrix (method -> (low, high))."""
    analytic = propstab.estimate(Z)
    jack = propstab.estimate(Z, method="jackknife")
    out = {"wald": analytic.confidence_interval(LEVEL),
           "wald (jackknife)": jack.confidence_interval(LEVEL),
           "logit": analytic.confidence_interval(LEVEL, method="logit")}
    for method in ("bootstrap", "bca"):
        out[method] = analytic.confidence_interval(LEVEL, method=method,
                                                   n_resamples=n_resamples, random_state=seed)
    return out


def study(rng, cfg):
    rows = []
    for phi in cfg["cases"]:
        thresholds, p, Phi = step_population(phi)
        for M in cfg["M"]:
            n = cfg["repeats"]
            hits = {m: 0 for m in METHODS}
            width = {m: 0.0 for m in METHODS}
            point = {m: 0 for m in METHODS}
            outside = 0
            for r in range(n):
                Z = vi.draw(rng, thresholds, (M,)).astype(np.int8)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", propstab.inference.ZeroVarianceWarning)
                    cis = intervals(Z, cfg["n_resamples"], int(rng.integers(2 ** 31)))
                for m, (low, high) in cis.items():
                    hits[m] += low <= Phi <= high
                    width[m] += high - low
                    point[m] += low == high
                    outside += not -1.0 <= low <= high <= 1.0
            rows.append(dict(case=phi, Phi=float(Phi), M=M, repeats=n,
                             coverage={m: 100.0 * hits[m] / n for m in METHODS},
                             se={m: 100.0 * vi.binomial_se(hits[m] / n, n) for m in METHODS},
                             width={m: width[m] / n for m in METHODS},
                             degenerate={m: 100.0 * point[m] / n for m in METHODS},
                             outside=outside))
    return rows


def checks_of(rows):
    """Pass/fail checks: at M >= 100 every interval covers within 1.5 points plus 4
    binomial standard errors of 95 %, and no interval leaves nogueira's range."""
    out = []

    def add(name, value, target, passed):
        out.append(dict(name=name, value=float(value), target=target, passed=bool(passed)))
    for x in rows:
        tag = f"Phi={x['case']} M={x['M']}"
        add(f"every interval within [-1, 1], {tag}", x["outside"], "0", x["outside"] == 0)
        if x["M"] < 100:
            continue
        slack = 4 * math.sqrt(LEVEL * (1 - LEVEL) / x["repeats"]) * 100
        for m in METHODS:
            add(f"{m} within 1.5 points + 4 SE of 95 %, {tag}", x["coverage"][m],
                f">= {95 - 1.5 - slack:.1f}", x["coverage"][m] >= 95 - 1.5 - slack)
    return out


def run(mode: str = "quick", *, seed: int = 20240513):
    cfg = MODES[mode]
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    rows = study(rng, cfg)
    return dict(mode=mode, seed=seed, rows=rows, checks=checks_of(rows),
                seconds=time.perf_counter() - t, n_resamples=cfg["n_resamples"])


def report(out) -> str:
    L = [f"### Coverage (%) of the 95 % intervals of nogueira near the top (d = {D}; "
         f"mode {out['mode']}, seed {out['seed']}, B = {out['n_resamples']} bootstrap "
         f"resamples)", "",
         "| Phi | M | repeats | " + " | ".join(METHODS) + " |",
         "|---|---|---|" + "---|" * len(METHODS)]
    for x in out["rows"]:
        L.append(f"| {x['Phi']:.4f} | {x['M']} | {x['repeats']} | "
                 + " | ".join(f"{x['coverage'][m]:.1f} ({x['se'][m]:.1f})" for m in METHODS)
                 + " |")
    L += ["", "### Mean width (share of one-point intervals, %)", "",
          "| Phi | M | " + " | ".join(METHODS) + " |", "|---|---|" + "---|" * len(METHODS)]
    for x in out["rows"]:
        L.append(f"| {x['Phi']:.4f} | {x['M']} | "
                 + " | ".join(f"{x['width'][m]:.3f} ({x['degenerate'][m]:.0f})"
                              for m in METHODS) + " |")
    L += ["", "### Checks", "", "| check | value | target | passed |", "|---|---|---|---|"]
    for c in out["checks"]:
        L.append(f"| {c['name']} | {c['value']:.3g} | {c['target']} | "
                 f"{'yes' if c['passed'] else 'NO'} |")
    L += ["", f"{out['seconds']:.0f} s"]
    return "\n".join(L)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="150 repeats (< 1 min)")
    parser.add_argument("--seed", type=int, default=20240513)
    parser.add_argument("--json", help="write all numbers to this JSON file")
    args = parser.parse_args(argv)
    out = run("quick" if args.quick else "full", seed=args.seed)
    print(report(out))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1, default=float)
    failed = [c["name"] for c in out["checks"] if not c["passed"]]
    if failed:
        print("FAILED checks: " + "; ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
