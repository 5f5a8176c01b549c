"""Inference at small M: levels of the tests, coverage of intervals.

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
                    test={"asymptotic": "wald"}.get(test, test),  # the label stays
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


# ---------------------------------------------------------------- equal stability

#: ``--equal-stability``: the two-sample tests under H0: Phi_1 = Phi_2 when the two
#: procedures differ (the runs are not exchangeable), beside one population drawn twice.
#: d = 40 features; ``beta`` holds the probabilities Beta(0.6, 0.9) of seed 0.
ES_D = 40
ES_MEASURES = {
    "same population": ("nogueira", "conger", "jaccard"),
    "relabelled": ("nogueira", "conger", "jaccard"),
    "different sizes": ("nogueira", "conger"),
}
#: the tests compared: the studentized permutation test (``test="permutation"``), the
#: plain-difference permutation test (the former default), the asymptotic test with the
#: default variance and with the jackknife variance, and both of the latter two's
#: studentized ones at once (reject when both reject: the larger p-value)
ES_TESTS = (
    "permutation",
    "plain permutation",
    "asymptotic",
    "asymptotic (jackknife)",
    "permutation and asymptotic (jackknife)",
)
ES_MODES = {
    "quick": dict(
        M=(10, 30), designs=("relabelled",), measures=("nogueira",), repeats=40, n_resamples=99
    ),
    "full": dict(
        M=(10, 30, 100), designs=tuple(ES_MEASURES), measures=None, repeats=200, n_resamples=199
    ),
}


def es_populations():
    """``{design: (p1, p2)}``: the feature probabilities of the two procedures, of equal
    population stability Phi(p1) = Phi(p2) (thesis Def. 4's population value)."""
    from scipy.optimize import brentq

    rng = np.random.default_rng(0)  # the reproducer's draws
    p = rng.beta(0.6, 0.9, ES_D)
    relabelled = rng.permutation(p)
    first = np.array([0.9] * 5 + [0.1] * (ES_D - 5))  # kbar 8.0
    phi = propstab.population_stability(first)

    def second(x):
        return np.array([x] * 15 + [0.05] * (ES_D - 15))  # kbar 15 x + 1.25

    x = brentq(lambda x: propstab.population_stability(second(x)) - phi, 0.3, 0.999)
    return {
        "same population": (first, first),
        "relabelled": (p, relabelled),
        "different sizes": (first, second(x)),
    }


def es_repeat(rng, p1, p2, M, measures, cfg):
    """Rejections (0/1) of one repeat, per measure, test and design (independent,
    paired: shared uniforms, as the issue's reproducer; for one population drawn twice,
    80 % of the uniforms shared and the pair's runs swapped with probability 1/2)."""
    from propstab.inference._permutation import permutation_test
    from propstab.registry._registry import get_measure
    from propstab._data.convert_rankings import as_input

    d = p1.size
    I1, I2 = rng.random((M, d)) < p1, rng.random((M, d)) < p2
    U = rng.random((M, d))
    if p1 is p2:
        V = np.where(rng.random((M, d)) < SHARE, U, rng.random((M, d)))
        P1, P2 = U < p1, V < p2
        swap = rng.random(M) < 0.5
        P1, P2 = np.where(swap[:, None], P2, P1), np.where(swap[:, None], P1, P2)
    else:
        P1, P2 = U < p1, U < p2
    seed = int(rng.integers(2**31))
    out = {}
    for m in measures:
        row = {}
        info = get_measure(m)
        for design, (A, B), paired in (
            ("independent", (I1, I2), False),
            ("paired", (P1, P2), True),
        ):
            perm = propstab.two_sample_test(
                A,
                B,
                paired=paired,
                measure=m,
                test="permutation",
                n_resamples=cfg["n_resamples"],
                random_state=seed,
            ).pvalue
            plain = permutation_test(
                as_input(info.input, A),
                as_input(info.input, B),
                info,
                {},
                paired=paired,
                alternative="two-sided",
                n_resamples=cfg["n_resamples"],
                rng=np.random.default_rng(seed),
                studentized=False,
            ).pvalue
            asym = propstab.two_sample_test(A, B, paired=paired, measure=m, test="wald").pvalue
            jack = propstab.two_sample_test(
                A, B, paired=paired, measure=m, method="jackknife", test="wald"
            ).pvalue
            for test, p in zip(ES_TESTS, (perm, plain, asym, jack, max(perm, jack))):
                row[f"{design} {test}"] = bool(p <= ALPHA)
        out[m] = row
    return out


def equal_stability_run(
    mode="quick",
    *,
    seed=20261207,
    repeats=None,
    designs=None,
    Ms=None,
    measures=None,
    n_resamples=None,
):
    """The rejection rates (%) of the two-sample tests under H0: Phi_1 = Phi_2 per design,
    measure and M, and the checks: the default test (``test="auto"``) within 5 % + 3
    binomial SE in every cell."""
    cfg = dict(ES_MODES[mode])
    if repeats:
        cfg["repeats"] = repeats
    if designs:
        cfg["designs"] = tuple(designs)
    if Ms:
        cfg["M"] = tuple(Ms)
    if measures:
        cfg["measures"] = tuple(measures)
    if n_resamples:
        cfg["n_resamples"] = n_resamples
    rng = np.random.default_rng([seed, *(sorted(ES_MEASURES).index(d) for d in designs or ())])
    pops = es_populations()
    rows = []
    t0 = time.perf_counter()
    R = cfg["repeats"]
    tol = 100 * 3 * math.sqrt(ALPHA * (1 - ALPHA) / R)
    for name in cfg["designs"]:
        p1, p2 = pops[name]
        measures = [m for m in cfg["measures"] or ES_MEASURES[name] if m in ES_MEASURES[name]]
        for M in cfg["M"]:
            counts = {m: {} for m in measures}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for _ in range(R):
                    for m, row in es_repeat(rng, p1, p2, M, measures, cfg).items():
                        for key, hit in row.items():
                            counts[m][key] = counts[m].get(key, 0) + int(hit)
            for m in measures:
                rates = {key: 100.0 * n / R for key, n in counts[m].items()}
                rows.append(
                    dict(
                        design=name,
                        Phi=float(propstab.population_stability(p1)),
                        Phi2=float(propstab.population_stability(p2)),
                        M=M,
                        measure=m,
                        repeats=R,
                        rates=rates,
                    )
                )
            print(
                f"# {name} M={M} done at {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return dict(
        mode=mode,
        seed=seed,
        config=cfg,
        rows=rows,
        checks=es_checks(rows, tol),
        seconds=time.perf_counter() - t0,
        tolerance=tol,
    )


def merge_equal_stability(paths):
    """One output from the JSON outputs of runs of single designs (their checks taken
    again with the current default test)."""
    import json

    outs = [json.load(open(p)) for p in paths]
    rows = [row for out in outs for row in out["rows"]]
    R = min(out["config"]["repeats"] for out in outs)
    tol = 100 * 3 * math.sqrt(ALPHA * (1 - ALPHA) / R)
    order = {d: i for i, d in enumerate(ES_MEASURES)}
    rows.sort(key=lambda x: (order[x["design"]], x["M"]))
    return dict(
        mode=outs[0]["mode"],
        seed=outs[0]["seed"],
        config={
            **outs[0]["config"],
            "designs": [d for out in outs for d in out["config"]["designs"]],
        },
        rows=rows,
        checks=es_checks(rows),
        tolerance=tol,
        seconds=sum(out["seconds"] for out in outs),
    )


def es_checks(rows, tol=None):
    """The default test (``test="auto"``) within 5 % + 3 binomial SE of each row's number
    of repeats (``tol``: one tolerance for every row) in each row's cell."""
    checks = []
    for x in rows:
        if tol is None or len({r["repeats"] for r in rows}) > 1:
            tol = 100 * 3 * math.sqrt(ALPHA * (1 - ALPHA) / x["repeats"])
        for paired in ("independent", "paired"):
            default = default_test(x["M"], paired)
            value = x["rates"][f"{paired} {default}"]
            checks.append(
                dict(
                    name=f"default {paired} test ({default}) level, {x['design']}, "
                    f"{x['measure']}, M={x['M']}",
                    value=value,
                    target=f"<= {100 * ALPHA:.0f} + {tol:.2f}",
                    passed=bool(value <= 100 * ALPHA + tol),
                )
            )
    return checks


def default_test(M, paired):
    """The name (a key of ``ES_TESTS``) of the test ``two_sample_test(test="auto")`` runs
    for two samples of M runs."""
    from propstab.inference import COMBINED_BELOW

    if M < COMBINED_BELOW:
        return "permutation and asymptotic (jackknife)"
    return {"permutation": "permutation", "wald": "asymptotic"}[chosen_test("auto", M, M)]


def equal_stability_report(out) -> str:
    R = out["config"]["repeats"]
    se = 100 * math.sqrt(ALPHA * (1 - ALPHA) / R)
    L = [
        f"## Equal stability, different procedures (mode {out['mode']}, seed {out['seed']}, "
        f"{R} repeats per cell (at least); binomial SE of a 5 % rate {se:.2f} points, "
        f"nominal + 3 SE = {5 + 3 * se:.2f} %)",
        "",
        "Rejection rates (%) at nominal 5 % under H0: Phi_1 = Phi_2.",
        "",
    ]
    for paired in ("independent", "paired"):
        L += [
            f"### {paired.capitalize()} runs",
            "",
            "| design | Phi_1, Phi_2 | measure | M | " + " | ".join(ES_TESTS) + " |",
            "|---|---|---|---|" + "---|" * len(ES_TESTS),
        ]
        for x in out["rows"]:
            r = x["rates"]
            L.append(
                f"| {x['design']} | {x['Phi']:.3f}, {x['Phi2']:.3f} | {x['measure']} | "
                f"{x['M']} | " + " | ".join(f"{r[f'{paired} {t}']:.1f}" for t in ES_TESTS) + " |"
            )
        L.append("")
    L += ["### Checks", "", "| check | value | target | passed |", "|---|---|---|---|"]
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
    parser.add_argument(
        "--equal-stability",
        action="store_true",
        help="the two-sample tests when the procedures differ but their "
        "stability is equal (tens of minutes; --quick: seconds)",
    )
    parser.add_argument(
        "--design",
        action="append",
        choices=tuple(ES_MEASURES),
        help="with --equal-stability: only this design (repeatable; the runs "
        "of several processes merge with --merge)",
    )
    parser.add_argument(
        "--M", type=int, action="append", help="with --equal-stability: only this M (repeatable)"
    )
    parser.add_argument(
        "--measure", action="append", help="with --equal-stability: only this measure (repeatable)"
    )
    parser.add_argument(
        "--n-resamples",
        type=int,
        help="with --equal-stability: the permutation tests' rearrangements",
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        metavar="JSON",
        help="with --equal-stability: report the merged JSON outputs of " "runs of single designs",
    )
    args = parser.parse_args(argv)
    if args.equal_stability and args.merge:
        out = merge_equal_stability(args.merge)
        print(equal_stability_report(out))
        return vi.finish(out, args.json)
    if args.equal_stability:
        out = equal_stability_run(
            "quick" if args.quick else "full",
            repeats=args.repeats,
            designs=args.design,
            Ms=args.M,
            measures=args.measure,
            n_resamples=args.n_resamples,
        )
        print(equal_stability_report(out))
        return vi.finish(out, args.json)
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
