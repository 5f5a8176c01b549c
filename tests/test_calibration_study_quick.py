"""The quick mode of studies/calibration_study.py (issue 22, part 3): five rules of
choosing a support (stabs, sharp, Stabl, the 1-SE stability rule, CV lasso) on
simulated linear and logistic data with correlated blocks and a known truth."""
from __future__ import annotations

import json

import numpy as np
import pytest

import shared  # tests/shared.py (tests/ is on sys.path)


@pytest.fixture(scope="module")
def study():
    return shared.load_study("calibration_study")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("calibration") / "quick.jsonl"


@pytest.fixture(scope="module")
def quick(study, cache):
    return study.run("quick", cache=cache)


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
    comparison = propstab.assess(
        {f"{a:.4g}": Lasso(alpha=a) for a in grid}, X, y, n_runs=12, random_state=5
    )
    rows = list(comparison.assessments.values())
    best = max(range(4), key=lambda i: rows[i].mean_score)
    within = [
        i
        for i in range(4)
        if rows[i].mean_score >= rows[best].mean_score - rows[best].score_standard_error
    ]
    chosen = within[0]
    for i in within:  # the most stable; ties: the earlier (sparser)
        if rows[i].stability > rows[chosen].stability:
            chosen = i
    expected = Lasso(alpha=grid[chosen]).fit(X, y).coef_ != 0
    np.testing.assert_array_equal(got, expected)


def test_stabs_and_sharp_sharing_one_set_of_fits_equal_two_fits(tmp_path):
    """The study fits the subsample paths once for stabs and sharp (the sharp fit reads
    the stabs fit's checkpoint): the result is that of a fit of its own."""
    from propstab import StabilitySelection
    from sklearn.linear_model import Lasso

    X, y, _ = study_module().simulate("linear", 80, 40, 3, np.random.default_rng(4))
    common = dict(n_subsamples=4, n_alphas=6, eps=1 / 30, random_state=9)
    StabilitySelection(Lasso(), cutoff=0.75, PFER=1.0, checkpoint=tmp_path, **common).fit(X, y)
    shared = StabilitySelection(
        Lasso(), calibration="stability_score", PFER=None, checkpoint=tmp_path, **common
    ).fit(X, y)
    alone = StabilitySelection(Lasso(), calibration="stability_score", PFER=None, **common).fit(
        X, y
    )
    np.testing.assert_array_equal(shared.support_, alone.support_)
    np.testing.assert_array_equal(shared.stability_scores_, alone.stability_scores_)
    assert (shared.calibration_.penalty, shared.calibration_.threshold) == (
        alone.calibration_.penalty,
        alone.calibration_.threshold,
    )


def study_module():
    return shared.load_script(shared.STUDIES / "calibration_study.py", "calibration_study_twin")


def _measured(result):
    """The results without the CPU times (which differ from run to run)."""
    return [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in result["results"]]


def test_a_stopped_run_continues_from_its_cache(study, quick, cache, tmp_path):
    """Each finished replicate is one line of the cache; a rerun runs only the missing
    replicates (each from its own seed) and gives the uninterrupted run's result."""
    lines = [x for x in cache.read_text().splitlines() if x]
    n_rep = study.MODES["quick"]["replicates"]
    assert len(lines) == len(study.MODES["quick"]["settings"]) * n_rep
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:40])  # cut mid-line
    resumed = study.run("quick", cache=stopped)
    assert _measured(resumed) == _measured(quick)
    again = [
        json.loads(x)
        for x in stopped.read_text().splitlines()
        if x.startswith("{") and x.endswith("}")
    ]
    assert again[-1]["selected"] == json.loads(lines[-1])["selected"]
    only = study.run("quick", cache=stopped, compute=False)
    assert _measured(only) == _measured(quick)
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text(lines[0] + "\n")
    with pytest.raises(ValueError, match="cache: .* another run"):
        study.run("quick", seed=1, cache=foreign, compute=False)


def test_paired_difference_is_scipys_paired_t_interval(study):
    from scipy import stats

    rng = np.random.default_rng(3)
    a, b = rng.random(12), rng.random(12)
    mean, low, high = study.paired_difference(a, b)
    ci = stats.ttest_rel(a, b).confidence_interval(0.95)
    np.testing.assert_allclose([mean, low, high], [np.mean(a - b), ci.low, ci.high], rtol=1e-12)
    assert all(np.isnan(study.paired_difference([1.0], [0.0])))
