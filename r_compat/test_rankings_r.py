"""The ranking family against base R: cor(method = "spearman" / "kendall") and
dist(method = "canberra") on the runs, averaged over pairs of runs, called through rpy2.

R does its own ranking: the raw ranks are passed to R as given (ties written by any
rule, e.g. R's rank(ties.method = "min") or a dense ranking), so the comparison checks
propstab's tie rule (midranks) against R's average ranks, not only the formulas. Every
test uses the ``r_live`` fixture: without R these tests FAIL unless PROPSTAB_SKIP_R=1.
"""
import numpy as np
import pytest
from scipy import stats

import propstab
from propstab.r import call_r_code, crosscheck, robjects

pytestmark = pytest.mark.usefixtures("r_live")

PAIR_MEAN = "function(R, method) { C <- cor(t(R), method = method); mean(C[upper.tri(C)]) }"


def r_matrix(R):
    ro = robjects()
    R = np.asarray(R, dtype=float)
    return ro.r["matrix"](ro.FloatVector(R.ravel(order="F").tolist()), nrow=R.shape[0])


def r_pair_mean(R, method):
    return float(call_r_code(PAIR_MEAN, "cor pair mean", r_matrix(R), method)[0])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("rule", ["untied", "min", "dense", "max"])
def test_spearman_and_kendall_equal_base_r_cor_averaged_over_pairs(seed, rule):
    rng = np.random.default_rng(seed)
    M, d = int(rng.integers(2, 12)), int(rng.integers(3, 30))
    if rule == "untied":
        R = np.argsort(rng.random((M, d)), axis=1) + 1.0
    else:  # scores with ties, ranked by another tie rule than midranks
        scores = rng.integers(0, max(2, d // 3), size=(M, d))
        scores[:, 0], scores[:, 1] = -1, d  # no run constant
        R = stats.rankdata(scores, method=rule, axis=1)
    for measure, method in (("spearman", "spearman"), ("kendall", "kendall")):
        assert propstab.stability(R, measure) == pytest.approx(r_pair_mean(R, method), abs=1e-12)


def test_canberra_equals_base_r_dist_over_its_expectation():
    """Jurman et al.'s indicator: R's dist(method = "canberra") on the ranks truncated at
    k + 1, over E computed in R by summing over every pair of truncated ranks; and the
    worked example of mlpy (0.74862979571499755)."""
    code = (
        "function(R, k) { d <- ncol(R); v <- pmin(seq_len(d), k + 1); "
        "E <- sum(outer(v, v, function(a, b) abs(a - b) / (a + b))) / d; "
        "D <- as.matrix(dist(pmin(R, k + 1), method = 'canberra')); "
        "mean(D[upper.tri(D)]) / E }"
    )
    positions = np.array([[2, 4, 1, 3, 0], [3, 4, 1, 2, 0], [2, 4, 3, 0, 1]])
    r_value = float(call_r_code(code, "canberra", r_matrix(positions + 1), 3)[0])
    assert r_value == pytest.approx(0.74862979571499755, abs=1e-15)
    assert propstab.stability(positions + 1, "canberra", k=3) == pytest.approx(r_value, abs=1e-15)
    rng = np.random.default_rng(0)
    R = np.argsort(rng.random((8, 20)), axis=1) + 1.0
    for k in (1, 5, 20):
        assert propstab.stability(R, "canberra", k=k) == pytest.approx(
            float(call_r_code(code, "canberra", r_matrix(R), k)[0]), abs=1e-12
        )


def test_crosscheck_of_the_ranking_family_agrees():
    report = crosscheck(["spearman", "kendall", "canberra"], max_examples=25, random_state=0)
    assert report.ok, str(report)
    assert [r.r_function for r in report.rows] == ["stats::cor", "stats::cor", "stats::dist"]
    assert all(r.cases >= 25 for r in report.rows)


def test_a_constant_run_is_na_in_r_and_nan_with_a_warning_in_propstab():
    R = [[1, 2, 3], [2, 2, 2], [3, 2, 1]]
    with pytest.warns(RuntimeWarning, match="the standard deviation is zero"):
        assert np.isnan(r_pair_mean(np.array(R), "spearman"))
    with pytest.warns(propstab.UndefinedMeasureWarning):
        assert np.isnan(propstab.stability(R, "spearman"))
