"""Inference at small M (issue 20, scenario 6): levels of the tests, coverage of intervals.

For M = 10, 20, 30, 50, 100 runs, three measures (nogueira, conger, jaccard) and two
populations of independent Bernoulli runs, d = 50:

- ``middle``: five features at 0.9 and 45 at 0.1 (Phi = 0.390, the issue's case);
- ``top``: five features at 0.97 and 45 at 0.008 (Phi = 0.892);

the study measures, at the nominal 5 %,

- the rejection rate of the independent two-sample test (two samples of M runs from the
  same population), asymptotic (thesis Thm 7) and permutation;
- the same for the paired test: the two samples drawn from shared uniforms (80 % of a
  run's uniforms shared with its partner run) and the two runs of each pair swapped with
  probability 1/2, so that the pairs are exchangeable;
- the rejection rate of the one-sample test (two-sided and the default "greater") at the
  measure's population value (Phi(p) for nogueira and conger, E[J] of two independent
  runs for jaccard, from a pilot), i.e. one minus the coverage of the Wald interval;
- the coverage of the 95 % intervals: Wald (the default variance), logit, bootstrap
  percentile and BCa.

The permutation tests use ``n_resamples`` random rearrangements (exact enumeration where
there are fewer): their level holds for any number of rearrangements (the Monte Carlo
p-value (1 + #)/(1 + B) is valid), so the study's B need not be the default 9999.

Usage::

    /usr/bin/python3 studies/validate_small_m.py            # full mode (tens of minutes)
    /usr/bin/python3 studies/validate_small_m.py --quick    # quick mode (< 1 min)

Options: ``--seed``, ``--repeats N``, ``--json PATH``. Prints Markdown tables; exits with
status 1 when a check fails (the default two-sample tests within their nominal level,
up to 3 binomial standard errors above 5 %, at every M).
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import os
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import propstab  # noqa: E402
from propstab.inference import chosen_test  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "validate_inference", os.path.join(HERE, "validate_inference.py")
)
vi = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vi)

D = 50
POPULATIONS = {"middle": [0.9] * 5 + [0.1] * 45, "top": [0.97] * 5 + [0.008] * 45}
MEASURES = ("nogueira", "conger", "jaccard")
ALPHA = 0.05
SHARE = 0.8
INTERVALS = ("wald", "logit", "bootstrap", "bca")
#: ``--intervals-only``: the intervals and, for measures whose default variance is not the
#: jackknife (nogueira: Thm 6), the Wald interval with the jackknife variance too.
JACKKNIFE = "wald (jackknife)"
#: ``--intervals-only``: the logit interval with the jackknife variance (the default
#: interval below 100 runs, ``confidence_interval(method="auto")``) and the one-sided
#: test that inverts it (``one_sample_test``'s default "greater" below 100 runs).
LOGIT_JACKKNIFE = "logit (jackknife)"
GREATER_JACKKNIFE = "one-sample greater (logit jackknife)"
MODES = {
    "quick": dict(
        M=(10, 30),
        populations=("middle",),
        measures=("nogueira", "jaccard"),
        repeats=60,
        n_resamples=199,
        n_bootstrap=200,
        pilot=2000,
    ),
    "full": dict(
        M=(10, 20, 30, 50, 100),
        populations=("middle", "top"),
        measures=MEASURES,
        repeats=600,
        n_resamples=199,
        n_bootstrap=400,
        pilot=200000,
    ),
}


def thresholds(p):
    return np.rint(np.asarray(p) * vi.SCALE).astype(np.int32)


def estimands(rng, thr, measures, pilot):
    """The population value each measure estimates: Phi(p) for nogueira and conger (both
    estimate it for independent runs), E[J(Z_1, Z_2)] for jaccard (a U-statistic: its
    expectation at any M), from ``pilot`` independent pairs of runs."""
    p = thr / vi.SCALE
    phi = propstab.population_stability(p)
    out = {}
    for m in measures:
        if m == "jaccard":
            a = vi.draw(rng, thr, (pilot,))
            b = vi.draw(rng, thr, (pilot,))
            inter = np.sum(a & b, axis=1)
            union = np.sum(a | b, axis=1)
            out[m] = float(np.mean(np.where(union > 0, inter / np.maximum(union, 1), 1.0)))
        else:
            out[m] = float(phi)
    return out


def intervals_repeat(rng, thr, M, measures, target, cfg):
    """Coverages (0/1) of one repeat, per measure: the intervals and the jackknife Wald
    and logit intervals (with ``cfg["jackknife_only"]`` only these: the same draws)."""
    Z1 = vi.draw(rng, thr, (M,))
    seed = int(rng.integers(2**31))
    out = {}
    for m in measures:
        est = propstab.estimate(Z1, m)
        row = {}
        for method in () if cfg.get("jackknife_only") else INTERVALS:
            low, high = est.confidence_interval(
                0.95, method=method, n_resamples=cfg["n_bootstrap"], random_state=seed
            )
            row[f"cover {method}"] = bool(low <= target[m] <= high)
        jack = propstab.estimate(Z1, m, method="jackknife")
        low, high = jack.confidence_interval(0.95, method="wald")
        row[f"cover {JACKKNIFE}"] = bool(low <= target[m] <= high)
        low, high = jack.confidence_interval(0.95, method="logit")
        row[f"cover {LOGIT_JACKKNIFE}"] = bool(low <= target[m] <= high)
        low, _ = jack.confidence_interval(0.90, method="logit")  # one-sided 95 % bound
        row[GREATER_JACKKNIFE] = bool(target[m] < low)
        out[m] = row
    return out


def one_repeat(rng, thr, M, measures, target, cfg):
    """Rejections (0/1) and coverages (0/1) of one repeat, per measure."""
    Z1, Z2 = vi.draw(rng, thr, (M,)), vi.draw(rng, thr, (M,))
    u1 = vi.random_u16(rng, (M, D))
    u2 = np.where(rng.random((M, D)) < SHARE, u1, vi.random_u16(rng, (M, D)))
    P1, P2 = vi.draw(rng, thr, (M,), u1), vi.draw(rng, thr, (M,), u2)
    swap = rng.random(M) < 0.5
    P1, P2 = np.where(swap[:, None], P2, P1), np.where(swap[:, None], P1, P2)
    seed = int(rng.integers(2**31))
    out = {}
    for m in measures:
        row = {}
        for design, (A, B), paired in (
            ("independent", (Z1, Z2), False),
            ("paired", (P1, P2), True),
        ):
            for test in ("asymptotic", "permutation"):
                res = propstab.two_sample_test(
                    A,
                    B,
                    paired=paired,
                    measure=m,
                    test=test,
                    n_resamples=cfg["n_resamples"],
                    random_state=seed,
                )
                row[f"{design} {test}"] = bool(res.pvalue <= ALPHA)
        est = propstab.estimate(Z1, m)
        for alternative in ("two-sided", "greater"):
            res = propstab.one_sample_test(
                Z1, target[m], alternative=alternative, measure=m, test="wald"
            )  # the thesis's test
            row[f"one-sample {alternative}"] = bool(res.pvalue <= ALPHA)
        for method in INTERVALS:
            low, high = est.confidence_interval(
                0.95, method=method, n_resamples=cfg["n_bootstrap"], random_state=seed
            )
            row[f"cover {method}"] = bool(low <= target[m] <= high)
        out[m] = row
    return out


def run(mode="quick", *, seed=20261126, repeats=None, intervals_only=False, jackknife_only=False):
    cfg = dict(MODES[mode])
    if repeats:
        cfg["repeats"] = repeats
    cfg["intervals_only"] = bool(intervals_only or jackknife_only)
    cfg["jackknife_only"] = bool(jackknife_only)
    intervals_only = cfg["intervals_only"]
    repeat = intervals_repeat if intervals_only else one_repeat
    rng = np.random.default_rng(seed)
    rows, checks = [], []
    t0 = time.perf_counter()
    for pop in cfg["populations"]:
        thr = thresholds(POPULATIONS[pop])
        phi = propstab.population_stability(thr / vi.SCALE)
        target = estimands(rng, thr, cfg["measures"], cfg["pilot"])
        for M in cfg["M"]:
            counts = {m: {} for m in cfg["measures"]}
            R = cfg["repeats"]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # zero variances, undefined values
                for _ in range(R):
                    for m, row in repeat(rng, thr, M, cfg["measures"], target, cfg).items():
                        for key, hit in row.items():
                            counts[m][key] = counts[m].get(key, 0) + int(hit)
            for m in cfg["measures"]:
                rates = {key: 100.0 * n / R for key, n in counts[m].items()}
                rows.append(
                    dict(
                        population=pop,
                        Phi=float(phi),
                        M=M,
                        measure=m,
                        target=target[m],
                        repeats=R,
                        rates=rates,
                    )
                )
                tol = 100 * 3 * math.sqrt(ALPHA * (1 - ALPHA) / R)
                for design in () if intervals_only else ("independent", "paired"):
                    default = chosen_test("auto", M, M)
                    value = rates[f"{design} {default}"]
                    checks.append(
                        dict(
                            name=f"default {design} test ({default}) level, {pop}, {m}, M={M}",
                            value=value,
                            target=f"<= {100 * ALPHA:.0f} + {tol:.2f}",
                            passed=bool(value <= 100 * ALPHA + tol),
                        )
                    )
            print(
                f"# {pop} M={M} done at {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return dict(
        mode=mode,
        seed=seed,
        config={k: v for k, v in cfg.items()},
        rows=rows,
        checks=checks,
        seconds=time.perf_counter() - t0,
    )


def report(out) -> str:
    R = out["config"]["repeats"]
    se = 100 * math.sqrt(ALPHA * (1 - ALPHA) / R)
    L = [
        f"## Small M (mode {out['mode']}, seed {out['seed']}, {R} repeats per cell; "
        f"binomial SE of a 5 % rate {se:.2f} points, of a 95 % coverage {se:.2f})",
        "",
    ]
    if out["config"].get("intervals_only"):
        methods = (() if out["config"].get("jackknife_only") else INTERVALS) + (
            JACKKNIFE,
            LOGIT_JACKKNIFE,
        )
        L += [
            "### Coverage (%) of the 95 % intervals",
            "",
            "| population | measure | target | M | "
            + " | ".join(methods)
            + " | one-sample greater, logit jackknife (rejection %) |",
            "|---|---|---|---|" + "---|" * (len(methods) + 1),
        ]
        for x in out["rows"]:
            r = x["rates"]
            L.append(
                f"| {x['population']} (Phi {x['Phi']:.3f}) | {x['measure']} | "
                f"{x['target']:.4f} | {x['M']} | "
                + " | ".join(f"{r.get('cover ' + k, float('nan')):.1f}" for k in methods)
                + f" | {r.get(GREATER_JACKKNIFE, float('nan')):.1f} |"
            )
        L += ["", f"Total {out['seconds']:.0f} s"]
        return "\n".join(L)
    L += [
        "### Rejection rates (%) at nominal 5 % under H0",
        "",
        "| population | measure | M | independent, asymptotic | independent, permutation "
        "| paired, asymptotic | paired, permutation | one-sample two-sided | "
        "one-sample greater |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for x in out["rows"]:
        r = x["rates"]
        L.append(
            f"| {x['population']} (Phi {x['Phi']:.3f}) | {x['measure']} | {x['M']} | "
            + " | ".join(
                f"{r[k]:.1f}"
                for k in (
                    "independent asymptotic",
                    "independent permutation",
                    "paired asymptotic",
                    "paired permutation",
                    "one-sample two-sided",
                    "one-sample greater",
                )
            )
            + " |"
        )
    L += [
        "",
        "### Coverage (%) of the 95 % intervals",
        "",
        "| population | measure | target | M | wald | logit | bootstrap | bca |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for x in out["rows"]:
        r = x["rates"]
        L.append(
            f"| {x['population']} | {x['measure']} | {x['target']:.4f} | {x['M']} | "
            + " | ".join(f"{r['cover ' + k]:.1f}" for k in INTERVALS)
            + " |"
        )
    L += ["", "### Checks", "", "| check | value | target | passed |", "|---|---|---|---|"]
    for c in out["checks"]:
        L.append(
            f"| {c['name']} | {c['value']:.2f} | {c['target']} | "
            f"{'yes' if c['passed'] else 'NO'} |"
        )
    L += ["", f"Total {out['seconds']:.0f} s"]
    return "\n".join(L)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a minute")
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--repeats", type=int, help="repeats per cell (default: the mode's)")
    parser.add_argument("--json", help="write all numbers to this JSON file")
    parser.add_argument(
        "--intervals-only",
        action="store_true",
        help="only the intervals' coverage, with the jackknife Wald interval " "(minutes)",
    )
    parser.add_argument(
        "--jackknife-only",
        action="store_true",
        help="the intervals-only run's draws, only the jackknife Wald and "
        "logit intervals and the one-sided test inverting the latter "
        "(a minute)",
    )
    args = parser.parse_args(argv)
    out = run(
        "quick" if args.quick else "full",
        seed=args.seed,
        repeats=args.repeats,
        intervals_only=args.intervals_only,
        jackknife_only=args.jackknife_only,
    )
    print(report(out))
    return vi.finish(out, args.json)


if __name__ == "__main__":
    sys.exit(main())
