"""The quick mode of studies/validate_small_m.py (issue 20, scenario 6): levels of the
two-sample tests (asymptotic and permutation, independent and paired), of the one-sample
test, and coverage of the intervals at small M, with a fixed seed.

The quick mode's checks: the default two-sample tests (permutation below 100 runs) within
5 % + 3 binomial standard errors at M = 10 and 30.
"""
from __future__ import annotations

import pytest

import shared  # tests/shared.py (tests/ is on sys.path)


@pytest.fixture(scope="module")
def study():
    return shared.load_study("validate_small_m")


@pytest.fixture(scope="module")
def quick(study):
    return study.run("quick")


def test_quick_study_checks_pass(quick):
    assert not shared.failed_checks(quick)
    names = shared.check_names(quick)
    for part in (
        "default independent test (permutation) level, middle, nogueira, M=10",
        "default paired test (permutation) level, middle, jaccard, M=30",
    ):
        assert part in names


def test_quick_study_reports_every_rate(study, quick):
    text = study.report(quick)
    assert "| middle (Phi 0.390) | nogueira | 10 |" in text
    for row in quick["rows"]:
        assert set(row["rates"]) == {
            "independent asymptotic",
            "independent permutation",
            "paired asymptotic",
            "paired permutation",
            "one-sample two-sided",
            "one-sample greater",
            "cover wald",
            "cover logit",
            "cover bootstrap",
            "cover bca",
        }
        # the two-sided one-sample test and the Wald interval use the same variance
        assert row["rates"]["one-sample two-sided"] == pytest.approx(
            100 - row["rates"]["cover wald"]
        )


def test_populations_are_the_issues(study):
    import propstab

    phi = propstab.population_stability(
        study.thresholds(study.POPULATIONS["middle"]) / study.vi.SCALE
    )
    assert round(phi, 3) == 0.390  # the issue's population, Phi = 0.390
    top = propstab.population_stability(
        study.thresholds(study.POPULATIONS["top"]) / study.vi.SCALE
    )
    assert 0.88 < top < 0.91


def test_quick_jackknife_run_gives_the_default_intervals_coverage(study):
    """``--jackknife-only``: the logit interval with the jackknife variance (the default
    below 100 runs) and the one-sided test inverting it, on the intervals-only draws."""
    out = study.run("quick", jackknife_only=True, repeats=20)
    for row in out["rows"]:
        assert set(row["rates"]) == {
            "cover wald (jackknife)",
            "cover logit (jackknife)",
            "one-sample greater (logit jackknife)",
        }
        assert 50 <= row["rates"]["cover logit (jackknife)"] <= 100
    assert "| logit (jackknife) |" in study.report(out)
