"""The quick mode of studies/calibration_study.py (issue 22, part 3): five rules of
choosing a support (stabs, sharp, Stabl, the 1-SE stability rule, CV lasso) on
simulated linear and logistic data with correlated blocks and a known truth."""
from __future__ import annotations

import numpy as np
import pytest

import shared  # tests/shared.py (tests/ is on sys.path)


@pytest.fixture(scope="module")
def study():
    return shared.load_study("calibration_study")


@pytest.fixture(scope="module")
def quick(study):
    return study.run("quick")


def test_quick_mode_covers_every_rule_and_setting(study, quick):
    rows = quick["results"]
    assert {r["rule"] for r in rows} == set(study.RULES)
    assert {r["model"] for r in rows} == {"linear", "logistic"}
    for r in rows:
        assert 0 <= r["precision"] <= 1 and 0 <= r["recall"] <= 1 and 0 <= r["f1"] <= 1
        assert r["low"] <= r["stability"] <= r["high"] <= 1
        assert r["replicates"] == study.MODES["quick"]["replicates"]
    table = study.markdown(quick)
    assert table.count("\n| linear") == len(study.RULES)


def test_stability_selection_rules_are_more_precise_than_cv_lasso(quick):
    """The known qualitative result (Meinshausen and Buhlmann 2010, sec. 2.2): CV lasso
    selects many noise features; every calibrated stability selection fewer."""
    for model in ("linear", "logistic"):
        rows = {r["rule"]: r for r in quick["results"] if r["model"] == model}
        for rule in ("stabs", "sharp", "Stabl"):
            assert rows[rule]["precision"] > rows["CV lasso"]["precision"], (model, rule)
            assert rows[rule]["size"] < rows["CV lasso"]["size"]


def test_simulation_has_the_declared_truth_and_correlation(study):
    rng = np.random.default_rng(0)
    X, y, truth = study.simulate("linear", 4000, 30, 3, rng, rho=0.5)
    assert np.flatnonzero(truth).tolist() == [0, 10, 20]
    corr = np.corrcoef(X, rowvar=False)
    assert abs(corr[0, 1] - 0.5) < 0.05 and abs(corr[0, 10]) < 0.05
    with pytest.raises(ValueError, match="s: at most"):
        study.simulate("linear", 10, 30, 4, rng)


def test_one_se_rule_equals_a_hand_computation_from_assess(study):
    import propstab
    from sklearn.linear_model import Lasso
    rng = np.random.default_rng(1)
    X, y, _ = study.simulate("linear", 120, 40, 3, rng)
    got = study.one_se_rule("linear", X, y, n_runs=12, n_candidates=4, seed=5)
    Xc = X - X.mean(axis=0)
    top = np.max(np.abs(Xc.T @ (y - y.mean()))) / len(y)
    grid = np.geomspace(top, top / 30, 5)[1:]
    comparison = propstab.assess({f"{a:.4g}": Lasso(alpha=a) for a in grid}, X, y,
                                 n_runs=12, random_state=5)
    rows = list(comparison.assessments.values())
    best = max(range(4), key=lambda i: rows[i].mean_score)
    within = [i for i in range(4)
              if rows[i].mean_score >= rows[best].mean_score - rows[best].score_standard_error]
    chosen = within[0]
    for i in within:                       # the most stable; ties: the earlier (sparser)
        if rows[i].stability > rows[chosen].stability:
            chosen = i
    expected = Lasso(alpha=grid[chosen]).fit(X, y).coef_ != 0
    np.testing.assert_array_equal(got, expected)
