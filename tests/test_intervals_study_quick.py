"""The quick mode of studies/validate_intervals.py: coverage of every interval of
``StabilityEstimate.confidence_interval`` near the top of nogueira's range (Phi = 0.9,
0.99; M = 10, 100), 150 repeats, fixed seed, tolerance 1.5 points + 4 binomial SE at
M = 100."""
from __future__ import annotations

import math

import numpy as np
import pytest

import shared  # tests/shared.py (tests/ is on sys.path)


@pytest.fixture(scope="module")
def study():
    return shared.load_study("validate_intervals")


@pytest.fixture(scope="module")
def quick(study):
    return study.run("quick")


def test_quick_study_checks_pass(study, quick):
    assert not shared.failed_checks(quick)
    names = shared.check_names(quick)
    for method in study.METHODS:
        assert f"{method} within 1.5 points" in names
    assert {(x["case"], x["M"]) for x in quick["rows"]} == {
        (0.9, 10),
        (0.9, 100),
        (0.99, 10),
        (0.99, 100),
    }


def test_quick_study_report_has_every_method(study, quick):
    text = study.report(quick)
    assert "| 0.9900 | 100 | 150 |" in text
    for method in study.METHODS:
        assert method in text.splitlines()[2]


def test_step_population_has_the_asked_stability(study):
    for phi in study.CASES:
        thresholds, p, Phi = study.step_population(phi)
        assert abs(Phi - phi) < 1e-4 and p.min() >= 0 and p.max() <= 1


# ---------------------------------------------------------------- degenerate variances


@pytest.fixture(scope="module")
def degenerate_quick(study):
    return study.run_degenerate("quick")


def test_degenerate_quick_study_checks_pass(study, degenerate_quick):
    """Issue 20: in the populations behind its two examples (M = 10), no replaced
    variance gives a zero-width interval, and the replacement never loses coverage."""
    rows = degenerate_quick["rows"]
    assert {(x["population"], x["kind"]) for x in rows} == {
        ("halves", "sets"),
        ("halves", "Bernoulli"),
        ("k5", "sets"),
        ("k5", "Bernoulli"),
    }
    failed = [c["name"] for c in degenerate_quick["checks"] if not c["passed"]]
    assert not failed
    halves = next(x for x in rows if (x["population"], x["kind"]) == ("halves", "sets"))
    # a draw is degenerate when exactly 5 of the 10 runs pick each set: C(10, 5) / 2^10
    p = math.comb(10, 5) / 2**10
    se = math.sqrt(p * (1 - p) / halves["repeats"]) * 100
    assert abs(halves["degenerate"] - 100 * p) < 4 * se
    assert halves["degenerate_coverage"] == 100.0 and halves["bootstrap"] > 0
    assert halves["new"] > halves["old"] + 10  # Thm 6's own misses those draws


def test_degenerate_populations_have_the_examples_stability(study):
    """Population Phi (thesis Thm 6's formula) from the examples' frequencies: halves,
    p = (1, 1, 1/2, 1/2, 0, 0): 1 - (1/12) / (1/4) = 2/3; k5: four features at 1, two at
    1/2 of d = 30: 1 - (0.5 / 30) / ((5 / 30) (25 / 30)) = 0.88."""
    import propstab

    for name, phi in (("halves", 2 / 3), ("k5", 0.88)):
        p = study.degenerate_population(name)[3]
        assert propstab.population_stability(p) == pytest.approx(phi, rel=1e-12)
        for kind in ("sets", "Bernoulli"):
            Z = study.degenerate_draw(np.random.default_rng(0), name, kind, 4000)
            assert np.abs(Z.mean(axis=0) - p).max() < 0.03
