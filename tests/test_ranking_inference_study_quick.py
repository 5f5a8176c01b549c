"""The quick mode of studies/validate_ranking_inference.py: coverage of the Wald intervals
of the ranking measures (U-statistic and jackknife variances, untied and tied
populations) and the level and power of the two-sample test, with hundreds of repeats
(fixed seed) and tolerances of 4 binomial standard errors plus 1 point."""
from __future__ import annotations

import numpy as np
import pytest

import shared  # tests/shared.py (tests/ is on sys.path)


@pytest.fixture(scope="module")
def study():
    return shared.load_study("validate_ranking_inference")


@pytest.fixture(scope="module")
def quick(study):
    return study.run("quick")


def test_quick_study_checks_pass(quick):
    assert not shared.failed_checks(quick)
    names = shared.check_names(quick)
    for part in (
        "coverage spearman analytic",
        "coverage spearman jackknife",
        "coverage kendall analytic",
        "coverage canberra jackknife",
        "coverage top_k jackknife",
        "tied",
        "two-sample test level",
        "two-sample test power",
    ):
        assert part in names


def test_quick_study_report(study, quick):
    text = study.report(quick)
    assert "| 30 | medium | 60 | spearman | analytic |" in text
    assert "Two-sample test" in text


def test_population_values_are_unbiased_u_statistics(study):
    """The estimand of a pairwise ranking measure is E[h(R, R')] for two independent runs:
    its U-statistic over many runs agrees with the mean of h over independent pairs (h
    here Spearman's rho written out: Pearson's correlation of the two runs' ranks, the
    'medium' population having no ties)."""
    rng = np.random.default_rng(5)
    value, se = study.population_value(rng, "medium", 12, "spearman", 4000)
    scores = study.draw(rng, "medium", 2 * 4000, 12).reshape(4000, 2, 12)
    ranks = np.argsort(np.argsort(-scores, axis=-1), axis=-1) + 1.0
    c = ranks - ranks.mean(axis=-1, keepdims=True)
    pairs = (c[:, 0] * c[:, 1]).sum(-1) / np.sqrt((c[:, 0] ** 2).sum(-1) * (c[:, 1] ** 2).sum(-1))
    assert abs(value - np.mean(pairs)) < 4 * np.hypot(se, np.std(pairs) / np.sqrt(4000))
