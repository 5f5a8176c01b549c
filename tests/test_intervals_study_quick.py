"""The quick mode of studies/validate_intervals.py: coverage of every interval of
``StabilityEstimate.confidence_interval`` near the top of nogueira's range (Phi = 0.9,
0.99; M = 10, 100), 150 repeats, fixed seed, tolerance 1.5 points + 4 binomial SE at
M = 100."""
from __future__ import annotations

import importlib.util
import os

import pytest

STUDY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "studies",
                     "validate_intervals.py")


@pytest.fixture(scope="module")
def study():
    spec = importlib.util.spec_from_file_location("validate_intervals", STUDY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def quick(study):
    return study.run("quick")


def test_quick_study_checks_pass(study, quick):
    failed = [(c["name"], c["value"], c["target"]) for c in quick["checks"] if not c["passed"]]
    assert not failed
    names = " ".join(c["name"] for c in quick["checks"])
    for method in study.METHODS:
        assert f"{method} within 1.5 points" in names
    assert {(x["case"], x["M"]) for x in quick["rows"]} == {(0.9, 10), (0.9, 100),
                                                           (0.99, 10), (0.99, 100)}


def test_quick_study_report_has_every_method(study, quick):
    text = study.report(quick)
    assert "| 0.9900 | 100 | 150 |" in text
    for method in study.METHODS:
        assert method in text.splitlines()[2]


def test_step_population_has_the_asked_stability(study):
    for phi in study.CASES:
        thresholds, p, Phi = study.step_population(phi)
        assert abs(Phi - phi) < 1e-4 and p.min() >= 0 and p.max() <= 1
