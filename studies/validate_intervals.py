"""Coverage of propstab's confidence intervals near the top of the range.

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

``--degenerate`` (with or without ``--quick``) runs the study of degenerate variances instead: the
coverage of nogueira's default Wald interval, whose zero Thm 6 variances from runs
that differ ``propstab.estimate`` replaces (bootstrap variance, else NaN),
against the Wald interval of Thm 6's own variance, in the populations behind the
issue's two examples (M = 10 in quick mode, 10 and 30 in full mode)::

    /usr/bin/python3 studies/validate_intervals.py --degenerate          # about 1 min
    /usr/bin/python3 studies/validate_intervals.py --degenerate --quick  # < 15 s
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
from propstab.inference import SmallSampleWarning  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "validate_inference", os.path.join(HERE, "validate_inference.py")
)
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
    """The five intervals of one selection matrix (method -> (low, high)). The study
    measures each method at small M on purpose: the small-sample warnings it would get
    (the very numbers this study measures) are not raised here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)
        return _intervals(Z, n_resamples, seed)


def _intervals(Z, n_resamples: int, seed: int):
    analytic = propstab.estimate(Z)
    jack = propstab.estimate(Z, method="jackknife")
    out = {
        "wald": analytic.confidence_interval(LEVEL),
        "wald (jackknife)": jack.confidence_interval(LEVEL),
        "logit": analytic.confidence_interval(LEVEL, method="logit"),
    }
    for method in ("bootstrap", "bca"):
        out[method] = analytic.confidence_interval(
            LEVEL, method=method, n_resamples=n_resamples, random_state=seed
        )
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
                    cis = intervals(Z, cfg["n_resamples"], int(rng.integers(2**31)))
                for m, (low, high) in cis.items():
                    hits[m] += low <= Phi <= high
                    width[m] += high - low
                    point[m] += low == high
                    outside += not -1.0 <= low <= high <= 1.0
            rows.append(
                dict(
                    case=phi,
                    Phi=float(Phi),
                    M=M,
                    repeats=n,
                    coverage={m: 100.0 * hits[m] / n for m in METHODS},
                    se={m: 100.0 * vi.binomial_se(hits[m] / n, n) for m in METHODS},
                    width={m: width[m] / n for m in METHODS},
                    degenerate={m: 100.0 * point[m] / n for m in METHODS},
                    outside=outside,
                )
            )
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
            add(
                f"{m} within 1.5 points + 4 SE of 95 %, {tag}",
                x["coverage"][m],
                f">= {95 - 1.5 - slack:.1f}",
                x["coverage"][m] >= 95 - 1.5 - slack,
            )
    return out


def run(mode: str = "quick", *, seed: int = 20240513):
    cfg = MODES[mode]
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    rows = study(rng, cfg)
    return dict(
        mode=mode,
        seed=seed,
        rows=rows,
        checks=checks_of(rows),
        seconds=time.perf_counter() - t,
        n_resamples=cfg["n_resamples"],
    )


def report(out) -> str:
    L = [
        f"### Coverage (%) of the 95 % intervals of nogueira near the top (d = {D}; "
        f"mode {out['mode']}, seed {out['seed']}, B = {out['n_resamples']} bootstrap "
        f"resamples)",
        "",
        "| Phi | M | repeats | " + " | ".join(METHODS) + " |",
        "|---|---|---|" + "---|" * len(METHODS),
    ]
    for x in out["rows"]:
        L.append(
            f"| {x['Phi']:.4f} | {x['M']} | {x['repeats']} | "
            + " | ".join(f"{x['coverage'][m]:.1f} ({x['se'][m]:.1f})" for m in METHODS)
            + " |"
        )
    L += [
        "",
        "### Mean width (share of one-point intervals, %)",
        "",
        "| Phi | M | " + " | ".join(METHODS) + " |",
        "|---|---|" + "---|" * len(METHODS),
    ]
    for x in out["rows"]:
        L.append(
            f"| {x['Phi']:.4f} | {x['M']} | "
            + " | ".join(f"{x['width'][m]:.3f} ({x['degenerate'][m]:.0f})" for m in METHODS)
            + " |"
        )
    L += ["", "### Checks", "", "| check | value | target | passed |", "|---|---|---|---|"]
    for c in out["checks"]:
        L.append(
            f"| {c['name']} | {c['value']:.3g} | {c['target']} | "
            f"{'yes' if c['passed'] else 'NO'} |"
        )
    L += ["", f"{out['seconds']:.0f} s"]
    return "\n".join(L)


# ------------------------------------------------------------------ degenerate variances

#: The populations behind the two known examples of a zero Thm 6 variance from runs that
#: differ: "halves" (``[[1,1,1,0,0,0],[1,1,0,1,0,0]] * 5``: features 0, 1 always, 2 or 3
#: each in half of the runs) and "k5" (SelectKBest(f_classif, k=5) on breast cancer,
#: 10 runs: four features always, features 2 and 23 each in half of the runs, d = 30).
#: "sets": each run is one of the two observed sets with probability 1/2 (the sizes stay
#: constant, as in the examples); "Bernoulli": each feature independently with its
#: observed frequency. Both have the same population Phi (2/3 and 0.88).
DEGENERATE_POPULATIONS = {
    "halves": (6, (0, 1), (2, 3)),
    "k5": (30, (7, 20, 22, 27), (2, 23)),
}
DEGENERATE_MODES = {
    "quick": dict(M=(10,), repeats=300),
    "full": dict(M=(10, 30), repeats=2000),
}


def degenerate_population(name: str):
    """``(d, always, halves, p)``: the features always selected, the two selected
    in half of the runs each, and the selection probabilities."""
    d, always, halves = DEGENERATE_POPULATIONS[name]
    p = np.zeros(d)
    p[list(always)] = 1.0
    p[list(halves)] = 0.5
    return d, always, halves, p


def degenerate_draw(rng, name: str, kind: str, M: int) -> np.ndarray:
    """M runs of population ``name``: ``kind="sets"`` (one of the two sets) or
    ``"Bernoulli"`` (features independent)."""
    d, always, halves, p = degenerate_population(name)
    if kind == "Bernoulli":
        return (rng.random((M, d)) < p).astype(np.int8)
    Z = np.zeros((M, d), dtype=np.int8)
    Z[:, list(always)] = 1
    first = rng.random(M) < 0.5
    Z[first, halves[0]] = 1
    Z[~first, halves[1]] = 1
    return Z


def _wald(stat: float, v: float) -> tuple:
    from propstab.inference import _intervals

    half = 1.959963984540054 * math.sqrt(v)
    return _intervals.clip(stat - half, stat + half, -1.0, 1.0)


def _thm6_wald(Z) -> tuple:
    """The Wald interval of Thm 6's own variance, degenerate or not (the old answer)."""
    from propstab.measures import _variance
    from propstab.measures import nogueira

    sel = propstab.as_selection(Z)
    stat = nogueira(sel)
    return _wald(stat, _variance.thm6(sel, stat)[0])


def _jackknife_wald(Z) -> tuple:
    """The Wald interval of the jackknife variance (the replacement not taken)."""
    est = propstab.estimate(Z, method="jackknife")
    loo = (
        est.terms
        if est.method == "jackknife"
        else propstab.measures._variance.leave_one_out(
            est.selection, propstab.get_measure("nogueira"), {}
        )
    )
    return _wald(
        est.statistic, float(propstab.measures._variance.spread(loo, (len(loo) - 1) / len(loo)))
    )


def degenerate_study(rng, cfg):
    """Coverage of nogueira's default Wald interval, with its degenerate variances
    replaced (propstab.estimate), against Thm 6's own, in those populations."""
    rows = []
    for name in DEGENERATE_POPULATIONS:
        Phi = propstab.population_stability(degenerate_population(name)[3])
        for kind in ("sets", "Bernoulli"):
            for M in cfg["M"]:
                n = cfg["repeats"]
                c = dict(
                    old=0,
                    new=0,
                    n_deg=0,
                    deg_new=0,
                    deg_width=0.0,
                    zero_width=0,
                    nan=0,
                    bootstrap=0,
                    identical=0,
                    deg_jack=0,
                    deg_jack_width=0.0,
                )
                for _ in range(n):
                    Z = degenerate_draw(rng, name, kind, M)
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        est = propstab.estimate(Z)
                        low, high = est.confidence_interval(LEVEL)
                    old = _thm6_wald(Z)
                    c["old"] += old[0] <= Phi <= old[1]
                    c["new"] += low <= Phi <= high
                    c["identical"] += bool(np.all(Z == Z[:1]))
                    if est.variance_note is None:
                        continue
                    c["n_deg"] += 1
                    c["deg_new"] += low <= Phi <= high
                    c["deg_width"] += (high - low) if high == high else 0.0
                    c["zero_width"] += low == high
                    c["nan"] += math.isnan(est.variance)
                    c["bootstrap"] += est.method == "bootstrap"
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        jlow, jhigh = _jackknife_wald(Z)
                    c["deg_jack"] += jlow <= Phi <= jhigh
                    c["deg_jack_width"] += jhigh - jlow
                    assert any(
                        issubclass(w.category, propstab.inference.DegenerateVarianceWarning)
                        for w in caught
                    )
                k = c["n_deg"]
                rows.append(
                    dict(
                        population=name,
                        kind=kind,
                        Phi=float(Phi),
                        M=M,
                        repeats=n,
                        degenerate=100.0 * k / n,
                        identical=100.0 * c["identical"] / n,
                        old=100.0 * c["old"] / n,
                        new=100.0 * c["new"] / n,
                        se_new=100.0 * vi.binomial_se(c["new"] / n, n),
                        degenerate_coverage=100.0 * c["deg_new"] / k if k else float("nan"),
                        degenerate_width=c["deg_width"] / k if k else float("nan"),
                        zero_width=c["zero_width"],
                        nan=c["nan"],
                        bootstrap=c["bootstrap"],
                        jackknife_coverage=100.0 * c["deg_jack"] / k if k else float("nan"),
                        jackknife_width=c["deg_jack_width"] / k if k else float("nan"),
                    )
                )
    return rows


def degenerate_checks(rows):
    """No zero-width interval from a replaced variance; replacing never loses coverage."""
    out = []
    for x in rows:
        tag = f"{x['population']} ({x['kind']}) M={x['M']}"
        out.append(
            dict(
                name=f"no zero-width interval from runs that differ, {tag}",
                value=float(x["zero_width"]),
                target="0",
                passed=x["zero_width"] == 0,
            )
        )
        out.append(
            dict(
                name=f"coverage with the replacement >= Thm 6's own, {tag}",
                value=float(x["new"]),
                target=f">= {x['old']:.1f}",
                passed=x["new"] >= x["old"],
            )
        )
    return out


def run_degenerate(mode: str = "quick", *, seed: int = 20261126):
    cfg = DEGENERATE_MODES[mode]
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    rows = degenerate_study(rng, cfg)
    return dict(
        mode=mode,
        seed=seed,
        rows=rows,
        checks=degenerate_checks(rows),
        seconds=time.perf_counter() - t,
    )


def report_degenerate(out) -> str:
    L = [
        f"### Degenerate variances: coverage (%) of nogueira's 95 % Wald interval "
        f"(mode {out['mode']}, seed {out['seed']})",
        "",
        "| population | runs | Phi | M | repeats | degenerate (%) | identical (%) "
        "| Thm 6 as is | with replacement (SE) | on degenerate draws (mean width) "
        "| jackknife instead, there (mean width) | bootstrap / NaN |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for x in out["rows"]:
        L.append(
            f"| {x['population']} | {x['kind']} | {x['Phi']:.4f} | {x['M']} | "
            f"{x['repeats']} | {x['degenerate']:.1f} | {x['identical']:.1f} | "
            f"{x['old']:.1f} | {x['new']:.1f} ({x['se_new']:.1f}) | "
            f"{x['degenerate_coverage']:.1f} ({x['degenerate_width']:.3f}) | "
            f"{x['jackknife_coverage']:.1f} ({x['jackknife_width']:.3f}) | "
            f"{x['bootstrap']} / {x['nan']} |"
        )
    L += ["", "| check | value | target | passed |", "|---|---|---|---|"]
    for c in out["checks"]:
        L.append(
            f"| {c['name']} | {c['value']:.3g} | {c['target']} | "
            f"{'yes' if c['passed'] else 'NO'} |"
        )
    L += ["", f"{out['seconds']:.0f} s"]
    return "\n".join(L)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="150 repeats (< 1 min)")
    parser.add_argument("--seed", type=int, default=20240513)
    parser.add_argument("--json", help="write all numbers to this JSON file")
    parser.add_argument(
        "--degenerate",
        action="store_true",
        help="the degenerate-variance study instead",
    )
    args = parser.parse_args(argv)
    mode = "quick" if args.quick else "full"
    if args.degenerate:
        out = run_degenerate(mode, seed=20261126 if args.seed == 20240513 else args.seed)
        print(report_degenerate(out))
    else:
        out = run(mode, seed=args.seed)
        print(report(out))
    return vi.finish(out, args.json)


if __name__ == "__main__":
    sys.exit(main())
