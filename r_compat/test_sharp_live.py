"""Live cross-check of propstab.stability_score against R's sharp::StabilityScore.

Generated cases (random selection counts of N features over K runs, a grid of pi, three
and two categories) are compared with sharp through rpy2 to 1e-10 (relative to
max(1, |score|)); where they differ more, the declared difference of
r_compat/sharp_expected_differences.json must apply and propstab must equal the exact
rational twin (tests/calibration_twins.py).

Policy of r_compat: when R or sharp cannot be loaded the tests FAIL, unless
PROPSTAB_SKIP_R=1 is set, in which case they are skipped (install sharp with
r_compat/install.R).
"""
import json
import math
import pathlib
import warnings

import numpy as np
import pytest
from shared import live_package  # tests/shared.py (on sys.path)

from calibration_twins import stability_score_twin
from propstab import UndefinedMeasureWarning
from propstab.calibration import stability_score
from test_calibration import cancellation_applies, close

REFERENCE = pathlib.Path(__file__).resolve().parent / "sharp_reference.json"


@pytest.fixture(scope="module")
def sharp():
    return live_package("sharp")


def _r_scores(sharp, selprop, K, pis, n_cat):
    from rpy2 import robjects

    out = sharp.StabilityScore(
        robjects.FloatVector(selprop),
        pi_list=robjects.FloatVector(pis),
        K=int(K),
        n_cat=int(n_cat),
    )
    return [
        math.nan if (v is None or (isinstance(v, float) and math.isnan(v))) else float(v)
        for v in out
    ]


def _cases(seed, n):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        K = int(rng.choice([5, 10, 20, 50, 100, 150, 200]))
        N = int(rng.choice([1, 3, 10, 40, 200, 1000]))
        sparse = rng.random(N) < rng.uniform(0.2, 0.97)
        counts = np.where(sparse, rng.binomial(K, 0.03, N), rng.integers(0, K + 1, N))
        pis = np.round(rng.uniform(0.3, 0.99, int(rng.integers(1, 12))), 2)
        yield counts / K, K, pis


@pytest.mark.parametrize("n_cat", [3, 2])
def test_stability_score_equals_live_sharp_on_generated_cases(sharp, n_cat):
    n_values = n_declared = 0
    for selprop, K, pis in _cases(20261126 + n_cat, 150):
        expected = _r_scores(sharp, selprop, K, pis, n_cat)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMeasureWarning)
            got = np.atleast_1d(stability_score(selprop, K, pis, n_categories=n_cat))
        for g, e, pi in zip(got, expected, pis):
            n_values += 1
            if close(g, e, 1e-10):
                continue
            assert n_cat == 3 and cancellation_applies(selprop, K, pi), (K, pi, g, e)
            assert close(g, stability_score_twin(list(selprop), K, pi, n_cat), 1e-12)
            n_declared += 1
    assert n_values > 500 and n_declared <= n_values // 10


def test_default_grid_is_sharps(sharp):
    """No pi given: sharp's default seq(0.6, 0.9, by = 0.01)."""
    from rpy2 import robjects

    selprop = np.array([1.0, 0.96, 0.9, 0.7, 0.5, 0.2, 0.04, 0.02, 0.0, 0.0, 0.0, 0.0])
    expected = [float(v) for v in sharp.StabilityScore(robjects.FloatVector(selprop), K=50)]
    got = stability_score(selprop, 50)
    assert all(close(g, e, 1e-12) for g, e in zip(got, expected))


def test_pinned_reference_is_what_the_installed_sharp_computes(sharp):
    from rpy2 import robjects

    ref = json.loads(REFERENCE.read_text())
    assert ref["sharp"] == str(robjects.r('as.character(packageVersion("sharp"))')[0])
    for case in ref["cases"][::7]:
        expected = [math.nan if v is None else v for v in case["score"]]
        live = _r_scores(sharp, case["selprop"], case["K"], case["pi"], case["n_cat"])
        assert all(close(a, b, 1e-15) for a, b in zip(live, expected))
