"""Issue 24, part 3: pairwise measures from sampled pairs (an incomplete U-statistic)."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import sparse

import propstab
from propstab import (
    InvalidParameterError,
    SampledPairsEstimate,
    SampledPairsWarning,
    UndefinedMeasureWarning,
    estimate,
    stability,
)
from propstab.measures import _sampled_pairs

import shared  # tests/shared.py (tests/ is on sys.path)


def _structured(rng, M, d):
    """Runs with feature probabilities from 0.05 to 0.9 (pair scores vary, zeta_1 > 0)."""
    Z = rng.random((M, d)) < np.linspace(0.05, 0.9, d)
    Z[Z.sum(axis=1) == 0, 0] = True
    return Z


def _literal_sample(Z, B, seed):
    """The twin: the same draws (SeedSequence(seed)), each pair's Jaccard by Python sets."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    M = len(Z)
    i = rng.integers(0, M, B)
    j = rng.integers(0, M - 1, B)
    j = j + (j >= i)
    sets = [set(np.flatnonzero(row).tolist()) for row in Z]
    return np.array([len(sets[a] & sets[b]) / len(sets[a] | sets[b]) for a, b in zip(i, j)])


@pytest.mark.parametrize("as_sparse", [False, True])
def test_sampled_value_and_pairs_variance_equal_the_literal_twin(as_sparse):
    rng = np.random.default_rng(11)
    Z = _structured(rng, 40, 25)
    h = _literal_sample(Z, 3000, 7)
    data = sparse.csr_matrix(Z.astype(float)) if as_sparse else Z
    est = estimate(data, "jaccard", pairs=3000, random_state=7)
    assert isinstance(est, SampledPairsEstimate) and est.sampled and est.n_pairs == 3000
    assert est.statistic == pytest.approx(h.mean(), rel=1e-14)
    assert est.pairs_variance == pytest.approx(h.var(ddof=1) / 3000, rel=1e-12)
    assert stability(data, "jaccard", pairs=3000, random_state=7) == est.statistic


def test_a_seed_reproduces_the_sample_and_another_seed_differs():
    Z = _structured(np.random.default_rng(2), 60, 30)
    a = estimate(Z, "dice", pairs=500, random_state=3)
    b = estimate(Z, "dice", pairs=500, random_state=3)
    c = estimate(Z, "dice", pairs=500, random_state=4)
    assert (a.statistic, a.variance) == (b.statistic, b.variance)
    assert a.statistic != c.statistic
    g = estimate(Z, "dice", pairs=500, random_state=np.random.SeedSequence(3))
    assert g.statistic == a.statistic


@pytest.mark.parametrize("name", ["jaccard", "dice", "ochiai", "kuncheva", "hamming"])
def test_many_sampled_pairs_approach_the_exact_value(name):
    rng = np.random.default_rng(sum(map(ord, name)))
    Z = _structured(rng, 50, 20)
    if name == "kuncheva":  # constant size
        Z = np.zeros((50, 20), dtype=bool)
        for row in Z:
            row[rng.choice(20, 6, replace=False)] = True
    exact = stability(Z, name)
    est = estimate(Z, name, pairs=200_000, random_state=1)
    assert abs(est.statistic - exact) < 5 * math.sqrt(est.pairs_variance)
    assert math.sqrt(est.pairs_variance) < 0.002


def test_runs_variance_agrees_with_the_jackknife_variance_of_the_exact_value():
    """Hoeffding's Var(U) from sampled pairs against the delete-one jackknife (all pairs)."""
    Z = _structured(np.random.default_rng(5), 300, 30)
    jack = estimate(Z, "jaccard", pairs="all").variance
    est = estimate(Z, "jaccard", pairs=400_000, random_state=0)
    assert est.runs_variance == pytest.approx(jack, rel=0.2)
    assert est.variance == est.runs_variance + est.pairs_variance


def test_interval_for_the_exact_value_covers_it_at_about_the_nominal_rate():
    Z = _structured(np.random.default_rng(9), 30, 20)
    exact = stability(Z, "jaccard")
    hits = 0
    for seed in range(200):
        low, high = estimate(Z, "jaccard", pairs=400, random_state=seed).confidence_interval(
            target="all pairs"
        )
        hits += low <= exact <= high
    assert 0.90 <= hits / 200 <= 0.99  # 95 %: binomial sd 1.5 %


def test_auto_samples_above_the_size_limit_with_a_warning(monkeypatch):
    Z = _structured(np.random.default_rng(4), 40, 20)
    exact = stability(Z, "jaccard")
    assert stability(Z, "jaccard", pairs="all") == exact
    monkeypatch.setattr(_sampled_pairs, "PAIRS_AUTO_ABOVE", 100)
    monkeypatch.setattr(_sampled_pairs, "PAIRS_AUTO", 5000)
    with pytest.warns(SampledPairsWarning, match="780 pairs, more than 100"):
        value = stability(Z, "jaccard")
    assert value != exact and abs(value - exact) < 0.02
    with pytest.warns(SampledPairsWarning):
        est = estimate(Z, "jaccard")
    assert isinstance(est, SampledPairsEstimate) and est.n_pairs == 5000
    assert est.statistic == value
    with warnings.catch_warnings():
        warnings.simplefilter("error", SampledPairsWarning)
        assert stability(Z, "jaccard", pairs="all") == exact
        assert stability(Z, "nogueira") == stability(Z, "nogueira", pairs="all")
        stability(Z, "jaccard", correction_for_chance="exact")  # never sampled


@pytest.mark.parametrize(
    "pairs, kind",
    [(0, ValueError), (-3, ValueError), (2.5, TypeError), ("some", ValueError), (True, TypeError)],
)
def test_pairs_rule_is_declared_and_names_the_argument(pairs, kind):
    for function in (stability, estimate):
        with pytest.raises(kind, match=r"^pairs: ") as info:
            function([[1, 0], [0, 1]], "jaccard", pairs=pairs)
        assert isinstance(info.value, InvalidParameterError)
        assert info.value.argument == "pairs" and function.__name__ in str(info.value)


def test_pairs_need_a_pairwise_measure_without_the_correction():
    with pytest.raises(
        ValueError, match=r"^pairs: sampled pairs apply only.*'nogueira'.*" r"\(in stability\)"
    ):
        stability([[1, 0], [0, 1]], "nogueira", pairs=10)
    with pytest.raises(ValueError, match=r"^pairs: .*\(in estimate\)"):
        estimate([[1, 0], [0, 1]], "jaccard", pairs=10, correction_for_chance="exact")


def test_an_undefined_sampled_pair_gives_nan_with_the_reason():
    Z = np.zeros((6, 4), dtype=bool)
    Z[:3, :2] = True  # runs 3-5 empty: jaccard 0/0
    with pytest.warns(UndefinedMeasureWarning, match="both empty"):
        est = estimate(Z, "jaccard", pairs=200, random_state=0)
    assert math.isnan(est.statistic) and math.isnan(est.variance)


def test_result_prints_a_one_line_repr_and_a_short_summary():
    est = estimate(
        _structured(np.random.default_rng(1), 20, 10), "jaccard", pairs=1000, random_state=0
    )
    assert "\n" not in repr(est) and repr(est).startswith("SampledPairsEstimate(")
    text = str(est)
    assert text.splitlines()[0] == "Stability estimate from sampled pairs"
    assert "sampled ordered pairs" in text and len(text.splitlines()) < 12
    with pytest.raises(ValueError, match="^target: "):
        est.confidence_interval(target="runs")
    assert est.to_frame().shape == (1, 6)
    assert propstab.SampledPairsEstimate is SampledPairsEstimate


def test_large_sparse_selection_is_estimated_from_sampled_pairs_quickly():
    """M = 2 x 10^4 runs (2 x 10^8 pairs), d = 10^5: no M x M matrix, value near exact
    on a subset's scale (the budget of the test, not a timing)."""
    rng = np.random.default_rng(0)
    M, d, k = 20_000, 100_000, 40
    indices = np.sort(rng.integers(0, d, (M, k)), axis=1)
    keep = np.ones_like(indices, dtype=bool)
    keep[:, 1:] = indices[:, 1:] != indices[:, :-1]
    S = sparse.csr_matrix(
        (np.ones(keep.sum()), indices[keep], np.concatenate([[0], np.cumsum(keep.sum(axis=1))])),
        shape=(M, d),
    )
    est = estimate(S, "jaccard", pairs=50_000, random_state=0)
    # uniform random sets: E[jaccard] ~ k^2/d / (2k) = k / (2d)
    assert est.statistic == pytest.approx(k / (2 * d), rel=0.1)


def test_coverage_study_quick_mode_runs_and_reports_nominal_coverage(tmp_path, capsys):
    out = tmp_path / "coverage.json"
    study = shared.load_study("sampled_pairs_coverage")  # in this process
    assert study.main(["--quick", "--json", str(out)]) == 0
    import json

    rows = json.loads(out.read_text())
    assert rows and all(0.85 <= row["coverage"] <= 1.0 for row in rows)
    assert "coverage" in capsys.readouterr().out
