"""propstab.calibration: sharp's stability score and Stabl's FDP+.

Expected values: sharp 1.4.8's StabilityScore (r_compat/sharp_reference.json, generated
by r_compat/generate_sharp_reference.R; the live check is r_compat/test_sharp_live.py),
and the literal twins of tests/calibration_twins.py (exact rational arithmetic).
"""
import json
import math
import pathlib
import warnings

import numpy as np
import pytest
from scipy.stats import binom

from calibration_twins import fdp_plus_twin, stability_score_twin
from propstab import InvalidParameterError, UndefinedMeasureWarning
from propstab.calibration import SHARP_PI_GRID, STABL_THRESHOLDS, fdp_plus, stability_score

R_COMPAT = pathlib.Path(__file__).resolve().parents[1] / "r_compat"
REFERENCE = R_COMPAT / "sharp_reference.json"
DIFFERENCES = R_COMPAT / "sharp_expected_differences.json"


def _quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        return f(*args, **kwargs)


def cancellation_applies(selprop, K, pi):
    """The declared difference (sharp_expected_differences.json, "applies")."""
    N = len(selprop)
    q = float(np.rint(math.fsum(selprop)))
    t0, t1 = np.rint(K * (1 - pi)), np.rint(K * pi)
    below = binom.cdf(t0, K, q / N)
    middle = binom.sf(t0, K, q / N) - binom.sf(t1 - 1, K, q / N)
    return below > 0.5 and middle < 1e-6


def close(a, b, tol):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tol * max(1.0, abs(b))


def test_sharp_default_grid_is_rs_seq():
    # R: sprintf("%.17g", seq(0.6, 0.9, by = 0.01)[c(2, 8, 31)])
    assert len(SHARP_PI_GRID) == 31
    assert [repr(x) for x in SHARP_PI_GRID[[1, 7, 30]]] == [
        "0.61",
        "0.6699999999999999",
        "0.8999999999999999",
    ]
    assert len(STABL_THRESHOLDS) == 100 and STABL_THRESHOLDS[-1] == 0.99


def test_reference_values_of_sharp_without_r():
    """Every pinned sharp value to 1e-10, except the declared difference, where
    propstab equals the exact twin instead."""
    ref = json.loads(REFERENCE.read_text())
    assert ref["sharp"] == json.loads(DIFFERENCES.read_text())["sharp"] == "1.4.8"
    n_compared = n_declared = 0
    for case in ref["cases"]:
        got = np.atleast_1d(
            _quiet(
                stability_score, case["selprop"], case["K"], case["pi"], n_categories=case["n_cat"]
            )
        )
        for g, pi, expected in zip(got, case["pi"], case["score"]):
            expected = math.nan if expected is None else expected
            n_compared += 1
            if close(g, expected, 1e-10):
                continue
            assert case["n_cat"] == 3 and cancellation_applies(case["selprop"], case["K"], pi)
            twin = stability_score_twin(case["selprop"], case["K"], pi, case["n_cat"])
            assert close(g, twin, 1e-12), (g, twin, expected)
            n_declared += 1
    assert n_compared > 500 and 0 < n_declared < n_compared / 20


def test_the_declared_example():
    diff = json.loads(DIFFERENCES.read_text())["differences"][0]["example"]
    selprop = [0.12, 0.03, 0.02, 0.05, 0.02, 0.02, 0.02, 0.03, 0.5, 0, 0.02, 0.11]
    got = stability_score(selprop, 100, 0.64)
    assert got == pytest.approx(diff["propstab"], rel=1e-13)
    assert got == pytest.approx(stability_score_twin(selprop, 100, 0.64), rel=1e-13)
    assert abs(got - diff["sharp"]) > 1e-3


@pytest.mark.parametrize("n_cat", [2, 3])
def test_equals_the_literal_twin_on_random_proportions(n_cat):
    rng = np.random.default_rng(2026)
    for _ in range(60):
        K = int(rng.integers(2, 150))
        d = int(rng.integers(1, 40))
        freq = rng.integers(0, K + 1, size=d) / K
        freq = np.where(rng.random(d) < rng.random(), 0.0, freq)
        pis = np.round(rng.uniform(0.01 if n_cat == 2 else 0.4, 0.99, 6), 2)
        got = _quiet(stability_score, freq, K, pis, n_categories=n_cat)
        expected = [stability_score_twin(list(freq), K, p, n_cat) for p in pis]
        for g, e in zip(got, expected):
            assert close(g, e, 1e-12), (K, d, pis, got, expected)


def test_shapes_over_pi_and_a_grid_of_penalties():
    rng = np.random.default_rng(0)
    freq = rng.integers(0, 21, size=(4, 15)) / 20
    grid = _quiet(stability_score, freq, 20)
    assert grid.shape == (4, len(SHARP_PI_GRID))
    assert _quiet(stability_score, freq, 20, [0.7, 0.8]).shape == (4, 2)
    assert _quiet(stability_score, freq[0], 20, [0.7]).shape == (1,)
    assert isinstance(_quiet(stability_score, freq[0], 20, 0.7), float)
    for g in range(4):  # rows are independent
        np.testing.assert_array_equal(grid[g], _quiet(stability_score, freq[g], 20))


def test_undefined_scores_are_nan_with_a_named_warning():
    with pytest.warns(UndefinedMeasureWarning, match="1 of 1 scores undefined"):
        assert math.isnan(stability_score([1.0, 0.5, 0.0], 20, 0.5))  # no unstable class
    with pytest.warns(UndefinedMeasureWarning, match="q = 0"):
        assert np.isnan(stability_score(np.zeros(10), 50, [0.6, 0.8])).all()


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        (dict(frequencies=[1.5, 0.2], n_runs=10), "frequencies"),
        (dict(frequencies=np.zeros((2, 2, 2)), n_runs=10), "frequencies"),
        (dict(frequencies=[], n_runs=10), "frequencies"),
        (dict(frequencies="0.5", n_runs=10), "frequencies"),
        (dict(frequencies=[0.5], n_runs=0), "n_runs"),
        (dict(frequencies=[0.5], n_runs=2.5), "n_runs"),
        (dict(frequencies=[0.5], n_runs=10, pi=1.0), "pi"),
        (dict(frequencies=[0.5], n_runs=10, pi=[0.7, 0.0]), "pi"),
        (dict(frequencies=[0.5], n_runs=10, n_categories=4), "n_categories"),
    ],
)
def test_bad_inputs_name_the_argument(kwargs, argument):
    with pytest.raises(InvalidParameterError) as info:
        stability_score(**kwargs)
    assert info.value.argument == argument and "stability_score" in str(info.value)


def test_fdp_plus_equals_the_twin_and_stabl_arithmetic():
    rng = np.random.default_rng(5)
    for _ in range(30):
        real = rng.integers(0, 51, size=int(rng.integers(1, 30))) / 50
        fake = rng.integers(0, 51, size=int(rng.integers(1, 30))) / 50
        curve = fdp_plus(real, fake)
        assert curve.shape == STABL_THRESHOLDS.shape
        expected = [fdp_plus_twin(real, fake, t) for t in STABL_THRESHOLDS]
        np.testing.assert_allclose(curve, expected, rtol=1e-15)
    # Stabl divides the artificial count by the artificial proportion
    assert fdp_plus([0.9], [0.8, 0.8], 0.5, artificial_proportion=2.0) == (1 + 2 / 2) / 1
    with pytest.raises(InvalidParameterError, match="thresholds"):
        fdp_plus([0.5], [0.5], 1.0)
    with pytest.raises(InvalidParameterError, match="artificial_proportion"):
        fdp_plus([0.5], [0.5], artificial_proportion=0)
