"""Tests of propstab.inference: Thm 6 variance, jackknife, CIs, tests, CLI."""
from __future__ import annotations

import gc
import math
import warnings
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

import propstab
from propstab.measures import _variance
from propstab.measures.kernels import LeaveOneOutCounts
from propstab.inference import (
    CORRECTIONS,
    ConfidenceInterval,
    DegenerateVarianceWarning,
    SmallSampleWarning,
    ZeroVarianceWarning,
    estimate,
    interpret,
    one_sample_test,
    pairwise_tests,
    population_stability,
    two_sample_test,
)

from twins import random_subsets  # tests/ is on sys.path (rootdir-relative import mode)


def random_selection(rng, M, d, *, constant=None, p=0.3):
    if constant is not None:
        return random_subsets(rng, M, d, constant).astype(np.int8)
    return (rng.random((M, d)) < rng.uniform(0.1, 0.8, d) * p / 0.45).astype(np.int8)


def thm6_literal(Z):
    """Slow twin: thesis Thm 6 written term by term with Python loops."""
    Z = np.asarray(Z, dtype=float)
    M, d = Z.shape
    p = [sum(Z[i][f] for i in range(M)) / M for f in range(d)]
    k = [sum(Z[i]) for i in range(M)]
    kbar = sum(p)
    den = (kbar / d) * (1 - kbar / d)
    phi = 1 - (M / (M - 1)) * (sum(pf * (1 - pf) for pf in p) / d) / den
    terms = []
    for i in range(M):
        s = sum(Z[i][f] * p[f] for f in range(d)) / d
        terms.append(
            (
                s
                - k[i] * kbar / d**2
                + phi / 2 * (2 * kbar * k[i] / d**2 - k[i] / d - kbar / d + 1)
            )
            / den
        )
    mean = sum(terms) / M
    return phi, 4 / M**2 * sum((t - mean) ** 2 for t in terms), terms


# ------------------------------------------------------------------ Theorem 6


@pytest.mark.parametrize("seed", range(4))
def test_thm6_variance_equals_literal_formula(seed):
    rng = np.random.default_rng(seed)
    Z = random_selection(rng, 12, 9)
    est = estimate(Z)
    phi, v, terms = thm6_literal(Z)
    assert est.method == "analytic"
    assert est.statistic == pytest.approx(phi, rel=1e-12)
    assert est.variance == pytest.approx(v, rel=1e-10)
    np.testing.assert_allclose(est.terms, terms, rtol=1e-10)
    assert est.factor == 4 / 12**2


def _thm6_batch(Z):
    """Phi-hat (nogueira's own count formula on batched sums) and Thm 6 for each Z[r]."""
    R, M, d = Z.shape
    F = Z.sum(1).astype(np.int64)
    k = Z.sum(2)
    ZF = np.einsum("rmd,rd->rm", Z.astype(float), F.astype(float))
    sums = SimpleNamespace(n_runs=M, n_features=d, total=F.sum(1), sum_squares=(F * F).sum(1))
    phi = propstab.get_measure("nogueira").kernel.formula(sums)
    variance, terms = _variance.thm6_terms(F, k, ZF, M, d, phi)
    return phi, variance, terms


def test_thm6_sign_pinned_by_simulation_with_varying_sizes():
    """The +Phi/2 sign of Thm 6 (delta method, docs/inference.md) matches the Monte Carlo
    variance of Phi-hat when the subset sizes vary; the opposite sign does not.

    Runs select 4 core features, half of them 26 more, plus 3 % noise: k_i is
    bimodal (about 6 or 31 of d = 60), where the Phi/2 term matters.
    """
    rng = np.random.default_rng(5)
    d, M, R = 60, 100, 4000
    big = rng.random((R, M)) < 0.5
    Z = np.zeros((R, M, d), dtype=bool)
    Z[:, :, :4] = True
    Z[:, :, 4:30] |= big[..., None]
    Z |= rng.random((R, M, d)) < 0.03
    k = Z.sum(2)
    assert k.std() > 10  # sizes really vary
    phi, v, terms = _thm6_batch(Z)
    # the batched helper is the one estimate() uses: same numbers on one repeat
    one = estimate(Z[0])
    assert one.variance == pytest.approx(v[0], rel=1e-10)
    assert one.statistic == pytest.approx(phi[0], rel=1e-12)

    s2 = phi.var(ddof=1)
    se_s2 = math.sqrt((np.mean((phi - phi.mean()) ** 4) - s2**2) / R)
    se_v = v.std(ddof=1) / math.sqrt(R)
    tol = 4 * math.hypot(se_s2, se_v)
    assert abs(v.mean() - s2) < tol

    p = Z.sum(1) / M
    kb = p.sum(-1)[:, None]
    den = (kb / d) * (1 - kb / d)
    half = phi[:, None] / 2 * (2 * kb * k / d**2 - k / d - kb / d + 1) / den
    v_wrong = _variance.spread(terms - 2 * half, 4 / M**2)
    assert abs(v_wrong.mean() - s2) > 10 * tol


def test_thm6_sign_does_not_matter_for_constant_sizes():
    """With a constant k the Phi/2 term is the same for every run: it drops out."""
    rng = np.random.default_rng(3)
    Z = random_selection(rng, 30, 20, constant=5)
    est = estimate(Z)
    assert estimate(Z, "kuncheva").variance == pytest.approx(est.variance, rel=1e-12)
    assert estimate(Z, "kuncheva").method == "analytic"
    k = Z.sum(1)
    assert np.all(k == 5)
    d, kb = 20, 5
    half = (
        est.statistic / 2 * (2 * kb * k / d**2 - k / d - kb / d + 1) / ((kb / d) * (1 - kb / d))
    )
    # the opposite sign of the Phi/2 term gives the same variance: it only shifts the terms
    v_other_sign = _variance.spread(np.asarray(est.terms) - 2 * half, 4 / 30**2)
    assert float(v_other_sign) == pytest.approx(est.variance, rel=1e-12)
    assert est.variance == pytest.approx(thm6_literal(Z)[1], rel=1e-10)


def test_undefined_statistic_has_undefined_variance():
    with pytest.warns(propstab.UndefinedMeasureWarning, match="kuncheva"):
        est = estimate([[1, 1, 0], [1, 0, 0], [0, 1, 0]], "kuncheva")
    assert math.isnan(est.statistic) and math.isnan(est.variance)
    with pytest.warns(propstab.UndefinedMeasureWarning, match="nogueira"):
        est = estimate([[0, 0, 0], [0, 0, 0]])
    assert math.isnan(est.statistic) and math.isnan(est.variance)
    assert est.interpretation is None
    assert all(math.isnan(b) for b in est.confidence_interval())


def test_estimate_nogueira_jackknife_is_close_to_thm6_for_large_m():
    rng = np.random.default_rng(11)
    Z = random_selection(rng, 400, 30)
    a = estimate(Z)
    j = estimate(Z, method="jackknife")
    assert j.method == "jackknife"
    assert j.statistic == a.statistic
    assert j.variance == pytest.approx(a.variance, rel=0.05)


# ------------------------------------------------------------------ jackknife


def _measure_cases():
    """Every registered measure with its defaults, and each other chance correction."""
    for info in propstab.list_measures():
        names = {par.name for par in info.parameters}
        base = {"n_simulations": 200} if "n_simulations" in names else {}
        yield pytest.param(info.name, base, id=info.name)
        for par in info.parameters:
            if par.name == "correction_for_chance":
                for choice in par.choices:
                    if choice != par.default:
                        yield pytest.param(
                            info.name, {**base, par.name: choice}, id=f"{info.name}-{choice}"
                        )


def _jackknife_cases():
    """(measure, options, sizes): varying sizes only where the measure is defined for them."""
    for case in _measure_cases():
        name, options = case.values
        for sizes in ("constant", "varying"):
            if sizes == "varying" and propstab.get_measure(name).domain == "constant_size":
                continue
            yield pytest.param(name, options, sizes, id=f"{case.id}-{sizes}")


@pytest.mark.filterwarnings("ignore:.*simulated correction for chance")
@pytest.mark.parametrize("name, options, sizes", list(_jackknife_cases()))
def test_jackknife_fast_path_equals_recomputation(name, options, sizes):
    """Every registered measure: the vectorised leave-one-out values equal the measure
    recomputed with each run deleted (the slow twin)."""
    info = propstab.get_measure(name)
    rng = np.random.default_rng(len(name))
    if info.input == "ranking":  # rank matrices: untied ("constant"), or tied
        Z = (
            np.argsort(rng.random((9, 12)), axis=1) + 1.0
            if sizes == "constant"
            else rng.integers(1, 13, size=(9, 12)).astype(float)
        )
    elif sizes == "constant":
        Z = random_selection(rng, 9, 12, constant=4)
    else:
        Z = random_selection(rng, 9, 12)
        Z[:, 0] = 1  # no empty run
        Z[5, 3:] = 1  # sizes really vary
    sel = propstab._data.convert_rankings.as_input(info.input, Z)
    fast = _variance.leave_one_out(sel, info, options)
    slow = _variance.leave_one_out(sel, info, options, generic=True)
    np.testing.assert_allclose(fast, slow, rtol=1e-9, atol=1e-12)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = estimate(Z, name, method="jackknife", **options)
    loo = np.array([info.function(np.delete(Z, i, axis=0), **options) for i in range(9)])
    if np.ptp(loo) == 0:  # the runs differ: a degenerate jackknife is replaced
        assert any(issubclass(w.category, DegenerateVarianceWarning) for w in caught)
        assert est.method == "bootstrap" or math.isnan(est.variance)
    else:
        assert est.variance == pytest.approx(
            8 / 9 * np.sum((loo - loo.mean()) ** 2), rel=1e-9, abs=1e-15
        )
    assert est.statistic == info.function(Z, **options)


@pytest.mark.parametrize("M", [4, 5, 8])
def test_leave_one_out_median_and_davis_penalty(M):
    rng = np.random.default_rng(M)
    k = rng.integers(0, 4, M)
    sizes = np.zeros((M, 4), dtype=bool)
    for i, ki in enumerate(k):
        sizes[i, :ki] = True
    np.testing.assert_array_equal(
        LeaveOneOutCounts(propstab.as_selection(sizes)).median_size,
        [np.median(np.delete(k, i)) for i in range(M)],
    )
    Z = random_selection(rng, M, 10)
    Z[:, 0] = 1
    sel, info = propstab.as_selection(Z), propstab.get_measure("davis")
    np.testing.assert_allclose(
        _variance.leave_one_out(sel, info, {"penalty": 0.5}),
        _variance.leave_one_out(sel, info, {"penalty": 0.5}, generic=True),
        rtol=1e-12,
    )


def test_leave_one_out_krizek_with_repeated_subsets():
    Z = np.array([[1, 1, 0, 0]] * 3 + [[0, 1, 1, 0]] * 2 + [[0, 0, 1, 1]])
    sel, info = propstab.as_selection(Z), propstab.get_measure("krizek")
    fast = _variance.leave_one_out(sel, info, {})
    np.testing.assert_allclose(fast, _variance.leave_one_out(sel, info, {}, generic=True))
    # deleting the single {2, 3}: counts (3, 2) of 5
    assert fast[5] == pytest.approx(-(0.6 * math.log2(0.6) + 0.4 * math.log2(0.4)))


def test_jackknife_deletes_per_run_importances_with_the_run():
    rng = np.random.default_rng(4)
    Z = random_selection(rng, 7, 6)
    Z[:, 0] = 1
    W = Z * rng.uniform(0.5, 2.0, Z.shape)
    info = propstab.get_measure("pearson")
    loo = [
        info.function(np.delete(Z, i, axis=0), importances=np.delete(W, i, axis=0))
        for i in range(7)
    ]
    est = estimate(Z, "pearson", importances=W)
    np.testing.assert_allclose(est.terms, loo, rtol=1e-12)
    with pytest.raises(ValueError, match="importances"):
        two_sample_test(Z, Z, measure="pearson", importances=W)


def test_jackknife_of_a_pair_mean_by_hand():
    # jaccard pairs: rows 0, 1, 3 identical (1), row 2 vs each of them 1/3
    Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
    est = estimate(Z, "jaccard")
    assert est.statistic == pytest.approx(2 / 3)
    np.testing.assert_allclose(est.terms, [5 / 9, 5 / 9, 1, 5 / 9])
    assert est.variance == pytest.approx(3 / 4 * (3 / 81 + 1 / 9))


def test_jackknife_sparse_and_index_inputs_agree():
    rng = np.random.default_rng(2)
    Z = random_selection(rng, 15, 25)
    Z[:, 0] = 1
    idx = [np.flatnonzero(r).tolist() for r in Z]
    for name in ("jaccard", "cwrel", "consistency", "novovicova", "nogueira"):
        dense = estimate(Z, name)
        assert estimate(sp.csr_matrix(Z), name).variance == pytest.approx(dense.variance)
        assert estimate(idx, name, n_features=25).variance == pytest.approx(dense.variance)


def test_jackknife_undefined_is_nan_with_warning():
    with pytest.warns(propstab.UndefinedMeasureWarning, match="at least 3 runs"):
        est = estimate([[1, 0, 1], [1, 1, 0]], "jaccard")
    assert math.isnan(est.variance) and est.statistic == pytest.approx(1 / 3)
    # deleting run 0 leaves no selected feature: k-bar = 0
    with pytest.warns(propstab.UndefinedMeasureWarning, match="run 0 is deleted"):
        est = estimate([[1, 0, 0], [0, 0, 0], [0, 0, 0]], method="jackknife")
    # M = 3, d = 3, N = 1, sum F^2 = 1: 1 - M d (M N - 1) / ((M - 1) N (M d - N)) = -1/8
    assert math.isnan(est.variance) and est.statistic == pytest.approx(-1 / 8)


# ------------------------------------------------------------------ estimate object


def test_estimate_fields_ci_and_interpretation():
    Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
    est = estimate(Z)
    assert (est.n_runs, est.n_features, est.measure) == (4, 4, "nogueira")
    assert est.standard_error == pytest.approx(math.sqrt(est.variance))
    ci = est.confidence_interval(0.95, method="wald")
    assert isinstance(ci, ConfidenceInterval)
    z = stats.norm.ppf(0.975)
    assert ci.low == pytest.approx(est.statistic - z * est.standard_error)
    assert ci.high == pytest.approx(est.statistic + z * est.standard_error)
    narrow = est.confidence_interval(0.5, method="wald")
    assert ci.low < narrow.low < narrow.high < ci.high
    assert estimate(Z, "dice").interpretation is None  # not chance-corrected
    assert estimate(Z, "krizek").interpretation is None  # lower is more stable


@pytest.mark.parametrize(
    "value, label",
    [
        (-0.2, "poor"),
        (0.3999, "poor"),
        (0.40, "intermediate to good"),
        (0.75, "intermediate to good"),
        (0.7501, "excellent"),
        (1.0, "excellent"),
    ],
)
def test_interpretation_scale_of_table_6_1(value, label):
    assert interpret(value) == label


def test_interpretation_on_estimates():
    assert estimate([[1, 1, 0, 0]] * 5).interpretation == "excellent"
    with pytest.warns(ZeroVarianceWarning):
        estimate([[1, 1, 0, 0]] * 5).confidence_interval()
    assert estimate([[1, 0], [0, 1], [1, 0], [0, 1]]).interpretation == "poor"


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1])
def test_confidence_level_out_of_range(level):
    with pytest.raises(ValueError, match="confidence_level"):
        estimate([[1, 0, 1], [1, 1, 0], [0, 1, 1]]).confidence_interval(level)


def test_confidence_level_type_and_method():
    est = estimate([[1, 0, 1], [1, 1, 0], [0, 1, 1]])
    with pytest.raises(TypeError, match="confidence_level"):
        est.confidence_interval("0.95")
    with pytest.raises(ValueError, match="method"):
        est.confidence_interval(0.95, method="percentile")
    with pytest.raises(ValueError, match="method"):
        estimate([[1, 0, 1], [1, 1, 0], [0, 1, 1]], method="delta")
    with pytest.raises(ValueError, match="analytic"):
        estimate([[1, 0, 1], [1, 1, 0], [0, 1, 1]], "jaccard", method="analytic")


def test_zero_variance_ci_is_the_point():
    est = estimate([[1, 1, 0, 0]] * 5, "jaccard")
    assert est.variance == 0
    with pytest.warns(ZeroVarianceWarning):
        assert est.confidence_interval(0.9) == (1.0, 1.0)


# ------------------------------------------------------------------ population stability


def test_population_stability_formula():
    p = np.array([0.9, 0.8, 0.2, 0.1, 0.05])
    pbar = p.mean()
    assert population_stability(p) == pytest.approx(1 - np.mean(p * (1 - p)) / (pbar * (1 - pbar)))
    assert population_stability([1, 1, 0, 0, 0]) == 1.0
    assert population_stability([0.3] * 7) == pytest.approx(0.0)


def test_population_stability_is_the_limit_of_phi_hat():
    rng = np.random.default_rng(8)
    p = rng.uniform(0, 1, 40) ** 2
    Z = rng.random((20000, 40)) < p
    est = estimate(Z)
    assert abs(est.statistic - population_stability(p)) < 4 * est.standard_error


def test_population_stability_validation():
    with pytest.warns(propstab.UndefinedMeasureWarning):
        assert math.isnan(population_stability([0, 0, 0]))
    with pytest.warns(propstab.UndefinedMeasureWarning):
        assert math.isnan(population_stability([1, 1]))
    with pytest.raises(ValueError, match=r"p\[1\] = 1.5"):
        population_stability([0.2, 1.5])
    with pytest.raises(ValueError, match="non-empty"):
        population_stability([])
    with pytest.raises(ValueError, match="1-D"):
        population_stability([[0.1, 0.2]])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        population_stability([0.1, float("nan")])


# ------------------------------------------------------------------ one-sample test

ZA = [
    [1, 1, 0, 0, 0],
    [1, 1, 0, 0, 0],
    [1, 0, 1, 0, 0],
    [1, 1, 0, 0, 0],
    [0, 1, 1, 0, 0],
    [1, 1, 0, 0, 1],
]


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_one_sample_statistic_and_pvalues(alternative):
    est = estimate(ZA)
    res = one_sample_test(ZA, 0.2, alternative=alternative, test="wald")
    V = (est.statistic - 0.2) / est.standard_error
    assert res.statistic == pytest.approx(V)
    expected = {
        "greater": 1 - stats.norm.cdf(V),
        "less": stats.norm.cdf(V),
        "two-sided": 2 * (1 - stats.norm.cdf(abs(V))),
    }[alternative]
    assert res.pvalue == pytest.approx(expected)
    assert res.alternative == alternative and res.phi0 == 0.2 and res.estimate == est


def test_one_sample_validation_and_zero_variance():
    with pytest.raises(ValueError, match="alternative"):
        one_sample_test(ZA, 0.2, alternative="bigger")
    with pytest.raises(TypeError, match="phi0"):
        one_sample_test(ZA, "0.2")
    with pytest.raises(ValueError, match="phi0"):
        one_sample_test(ZA, float("nan"))
    with pytest.warns(ZeroVarianceWarning):
        res = one_sample_test([[1, 1, 0]] * 4, 0.5)
    assert res.statistic == math.inf and res.pvalue == 0.0
    with pytest.warns(ZeroVarianceWarning):
        res = one_sample_test([[1, 1, 0]] * 4, 1.0, alternative="two-sided")
    assert res.statistic == 0.0 and res.pvalue == 1.0


def test_one_sample_with_jackknife_measure():
    res = one_sample_test(ZA, 0.3, measure="jaccard", test="wald")
    est = estimate(ZA, "jaccard")
    assert res.statistic == pytest.approx((est.statistic - 0.3) / est.standard_error)


# ------------------------------------------------------------------ two-sample tests

ZB = [
    [1, 1, 0, 0, 0],
    [1, 1, 0, 0, 0],
    [1, 1, 0, 0, 0],
    [1, 1, 0, 0, 0],
    [1, 0, 1, 0, 0],
    [1, 1, 0, 0, 0],
]


def test_two_sample_tm_of_theorem_7():
    e1, e2 = estimate(ZA), estimate(ZB)
    res = two_sample_test(ZA, ZB, test="wald")
    # thesis Thm 7: T_M = (Phi(Z2) - Phi(Z1)) / sqrt(v1 + v2); the statistic is -T_M
    T = (e2.statistic - e1.statistic) / math.sqrt(e1.variance + e2.variance)
    assert res.statistic == pytest.approx(-T)
    assert res.pvalue == pytest.approx(2 * (1 - stats.norm.cdf(abs(T))))
    assert res.estimates == (e1, e2) and not res.paired and res.test == "wald"
    assert res.difference == pytest.approx(e1.statistic - e2.statistic)
    # "greater": the first is more stable, p = P(N(0, 1) >= (Phi_1 - Phi_2) / se)
    assert two_sample_test(ZA, ZB, alternative="greater", test="wald").pvalue == pytest.approx(
        1 - stats.norm.cdf(-T)
    )
    assert two_sample_test(ZB, ZA, test="wald").statistic == pytest.approx(T)


def test_paired_variance_from_per_run_terms():
    e1, e2 = estimate(ZA), estimate(ZB)
    res = two_sample_test(ZA, ZB, paired=True, test="wald")
    delta = np.array(thm6_literal(ZA)[2]) - np.array(thm6_literal(ZB)[2])
    v = 4 / 6**2 * np.sum((delta - delta.mean()) ** 2)
    assert res.variance == pytest.approx(v)
    assert res.statistic == pytest.approx((e1.statistic - e2.statistic) / math.sqrt(v))
    assert res.paired
    # jackknife measure: the jackknife of the difference of the leave-one-out values
    rj = two_sample_test(ZA, ZB, paired=True, measure="jaccard")
    j1, j2 = estimate(ZA, "jaccard"), estimate(ZB, "jaccard")
    dl = j1.terms - j2.terms
    assert rj.variance == pytest.approx(5 / 6 * np.sum((dl - dl.mean()) ** 2))
    # the default below 100 runs, the studentized permutation test: the jackknife of the
    # per-resample differences of the leave-one-out values (the SE it permutes), and the
    # jackknife SEs of the estimates (those of one_sample_test below 100 runs)
    perm = two_sample_test(ZA, ZB, paired=True)
    la = [propstab.stability(np.delete(np.array(ZA), i, axis=0)) for i in range(6)]
    lb = [propstab.stability(np.delete(np.array(ZB), i, axis=0)) for i in range(6)]
    dl = np.array(la) - np.array(lb)
    assert perm.test == "permutation"
    assert perm.variance == pytest.approx(5 / 6 * np.sum((dl - dl.mean()) ** 2))
    assert perm.statistic == pytest.approx(perm.difference / math.sqrt(perm.variance))
    assert perm.estimates[0].standard_error == pytest.approx(
        propstab.one_sample_test(ZA, 0.0).estimate.standard_error
    )


def test_paired_identical_matrices_zero_variance():
    with pytest.warns(ZeroVarianceWarning):
        res = two_sample_test(ZA, ZA, paired=True, test="wald")
    assert res.statistic == 0.0 and res.pvalue == 1.0
    res = two_sample_test(ZA, ZA, paired=True)  # every swap pattern gives D = 0
    assert res.test == "permutation" and res.statistic == 0.0 and res.pvalue == 1.0


def test_two_sample_validation():
    with pytest.raises(ValueError, match="same number of features"):
        two_sample_test(ZA, [r + [0] for r in ZB])
    with pytest.raises(ValueError, match="same M runs"):
        two_sample_test(ZA, ZB[:5], paired=True)
    two_sample_test(ZA, ZB[:5])  # independent: M may differ
    with pytest.raises(ValueError, match="alternative"):
        two_sample_test(ZA, ZB, alternative="two_sided")
    with pytest.raises(TypeError, match="paired: must be True or False"):
        two_sample_test(ZA, ZB, paired="yes")


# ------------------------------------------------------------------ many procedures


def holm_literal(pvalues):
    """Slow twin of Holm (1979): p~_(j) = max_{l<=j} min(1, (m - l + 1) p_(l)), by loops;
    an undefined (NaN) p-value counts in m, is sorted last and stays NaN."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (math.isnan(pvalues[i]), pvalues[i]))
    out = [math.nan] * m
    running = 0.0
    for j, i in enumerate(order):
        if math.isnan(pvalues[i]):
            continue
        running = max(running, min(1.0, (m - j) * pvalues[i]))
        out[i] = running
    return out


def test_holm_literal_twin_on_a_worked_case():
    # sorted 0.01, 0.03, 0.04: 3 x 0.01 = 0.03; max(0.03, 2 x 0.03) = 0.06; max(0.06, 0.04)
    assert holm_literal([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06], abs=1e-15)
    assert math.isnan(holm_literal([0.01, math.nan, 0.2])[1])
    assert holm_literal([0.01, math.nan, 0.2])[::2] == pytest.approx([0.03, 0.4], abs=1e-15)


def test_pairwise_tests_table():
    ZC = [[1, 1, 0, 0, 0]] * 5 + [[0, 1, 1, 0, 0]]
    table = pairwise_tests({"A": ZA, "B": ZB, "C": ZC})
    assert [(r["first"], r["second"]) for r in table.rows] == [("A", "B"), ("A", "C"), ("B", "C")]
    raw = [two_sample_test(a, b).pvalue for a, b in ((ZA, ZB), (ZA, ZC), (ZB, ZC))]
    np.testing.assert_allclose([r["pvalue"] for r in table.rows], raw)
    np.testing.assert_allclose(
        [r["pvalue_holm"] for r in table.rows], holm_literal(raw), rtol=1e-15
    )
    frame = table.to_frame()
    assert list(frame.columns) == list(table.COLUMNS) and len(frame) == 3
    assert "p (Holm)" in str(table) and "\n" not in repr(table)
    paired = pairwise_tests([ZA, ZB, ZC], paired=True)
    assert [(r["first"], r["second"]) for r in paired.rows] == [(0, 1), (0, 2), (1, 2)]
    assert paired.rows[0]["statistic"] == pytest.approx(
        two_sample_test(ZA, ZB, paired=True).statistic
    )


@pytest.mark.parametrize("correction", sorted(CORRECTIONS))
def test_pairwise_tests_every_correction_is_statsmodels(correction):
    from statsmodels.stats.multitest import multipletests

    ZC = [[1, 1, 0, 0, 0]] * 5 + [[0, 1, 1, 0, 0]]
    ZD = [[1, 0, 0, 0, 1]] * 3 + [[0, 1, 0, 1, 0]] * 3
    table = pairwise_tests({"A": ZA, "B": ZB, "C": ZC, "D": ZD}, correction=correction)
    raw = [r["pvalue"] for r in table.rows]
    key = "pvalue_" + correction.replace("-", "_")
    assert table.adjusted_key == key and table.correction == correction
    with np.errstate(divide="ignore"):  # statsmodels at p = 1 (Sidak, GBS)
        expected = multipletests(raw, method=correction)[1]
    np.testing.assert_allclose([r[key] for r in table.rows], expected, rtol=1e-15)
    assert list(table.to_frame().columns)[-1] == key
    heading = CORRECTIONS[correction][0]
    assert f"p ({heading})" in str(table) and CORRECTIONS[correction][1] in str(table)
    assert ("correction=" in repr(table)) == (correction != "holm")


def test_holm_is_statsmodels_on_random_pvalues_with_ties_and_ones():
    """propstab's own Holm step-down (statsmodels' Holm branch calls gc.collect) gives
    statsmodels' numbers, ties and p = 1 included."""
    from statsmodels.stats.multitest import multipletests
    from propstab.inference._multiple import holm

    rng = np.random.default_rng(3)
    cases = [rng.random(m) ** 3 for m in (1, 2, 3, 7, 40, 200)]
    cases += [rng.choice([rng.random(), 1.0, 0.5, 1e-12], size=m) for m in (3, 7, 40)]
    cases += [np.array([0.01, 0.01, 0.04, 1.0, 0.03, 0.01])]  # ties and a one
    # each call runs statsmodels' gc.collect (0.2 s over a whole test session's heap):
    # gc.freeze() sets the objects already alive aside, so it scans only the new ones
    gc.freeze()
    try:
        for p in cases:
            np.testing.assert_array_equal(holm(p), multipletests(p, method="holm")[1])
    finally:
        gc.unfreeze()


def test_pairwise_tests_undefined_pvalue_counts_and_stays_nan():
    full = [[1, 1, 1, 1, 1]] * 6  # Nogueira undefined: k = d in every run
    ZC = [[1, 1, 0, 0, 0]] * 5 + [[0, 1, 1, 0, 0]]
    with pytest.warns(propstab.UndefinedMeasureWarning):
        table = pairwise_tests({"A": ZA, "B": ZB, "C": ZC, "F": full})
    raw = [r["pvalue"] for r in table.rows]
    assert sum(math.isnan(p) for p in raw) == 3
    adjusted = [r["pvalue_holm"] for r in table.rows]
    np.testing.assert_allclose(adjusted, holm_literal(raw), rtol=1e-15)
    assert [math.isnan(p) for p in adjusted] == [math.isnan(p) for p in raw]


def test_pairwise_tests_validation():
    with pytest.raises(ValueError, match="at least 2"):
        pairwise_tests([ZA])
    with pytest.raises(TypeError, match="matrices"):
        pairwise_tests(np.array(ZA))
    with pytest.raises(ValueError, match="same number of features"):
        pairwise_tests({"A": ZA, "B": [r + [1] for r in ZB]})
    with pytest.raises(ValueError, match="same M runs"):
        pairwise_tests({"A": ZA, "B": ZB[:4]}, paired=True)
    with pytest.raises(
        ValueError, match=r"correction: must be one of 'holm', 'bonferroni'.*" r"got 'Holm'"
    ):
        pairwise_tests({"A": ZA, "B": ZB}, correction="Holm")
    with pytest.raises(ValueError, match="correction: 'fdr_tsbky' is not supported"):
        pairwise_tests({"A": ZA, "B": ZB}, correction="fdr_tsbky")


def test_pairwise_tests_without_statsmodels_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "statsmodels.stats.multitest", None)
    with pytest.raises(ImportError, match=r"pip install propstab\[inference\]"):
        pairwise_tests({"A": ZA, "B": ZB})


def test_top_level_names():
    for name in (
        "estimate",
        "StabilityEstimate",
        "one_sample_test",
        "two_sample_test",
        "pairwise_tests",
        "population_stability",
    ):
        assert getattr(propstab, name) is getattr(propstab.inference, name)


# ------------------------------------------------------------------ CLI


def test_cli_estimate_csv_matrix(tmp_path, capsys):
    from propstab.cli import main

    f = tmp_path / "z.csv"
    f.write_text("\n".join(",".join(map(str, r)) for r in ZA) + "\n")
    assert main(["estimate", str(f), "--confidence-level", "0.9"]) == 0
    out = capsys.readouterr().out
    est = estimate(ZA)
    ci = est.confidence_interval(0.9)
    assert f"{est.statistic:.4f}" in out and f"{ci.low:.4f}" in out and f"{ci.high:.4f}" in out
    assert est.interpretation in out and "90%" in out


def test_cli_estimate_index_lines_and_npy(tmp_path, capsys):
    from propstab.cli import main

    f = tmp_path / "runs.csv"
    f.write_text("0,1\n0,1\n0,2\n0,1\n1,2\n0,1,4\n")
    assert main(["estimate", str(f), "--n-features", "5", "--measure", "jaccard"]) == 0
    out = capsys.readouterr().out
    assert f"{estimate(ZA, 'jaccard').statistic:.4f}" in out and "jackknife" in out
    g = tmp_path / "z.npy"
    np.save(g, np.array(ZA))
    assert main(["estimate", str(g)]) == 0
    assert f"{estimate(ZA).statistic:.4f}" in capsys.readouterr().out


def test_cli_compare(tmp_path, capsys):
    from propstab.cli import main

    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.array(ZA))
    np.save(b, np.array(ZB))
    assert main(["compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert f"{two_sample_test(ZA, ZB).statistic:.4f}" in out
    assert main(["compare", str(a), str(b), "--paired"]) == 0
    assert f"{two_sample_test(ZA, ZB, paired=True).statistic:.4f}" in capsys.readouterr().out


def test_cli_errors(tmp_path, capsys):
    from propstab.cli import main

    f = tmp_path / "z.csv"
    f.write_text("1,0,2\n0,1,1\n")
    assert main(["estimate", str(f)]) == 2
    assert "error" in capsys.readouterr().err
    assert main(["estimate", str(tmp_path / "missing.csv")]) == 2
    g = tmp_path / "z.dat"
    g.write_text("1,0\n")
    assert main(["estimate", str(g)]) == 2
    assert ".npy" in capsys.readouterr().err
    r = tmp_path / "ragged.csv"
    r.write_text("0,1\n0,1,2\n")
    assert main(["estimate", str(r)]) == 2
    assert "different lengths" in capsys.readouterr().err
    h = tmp_path / "ok.csv"
    h.write_text("1,0,1\n1,1,0\n0,1,1\n")
    assert main(["estimate", str(h), "--confidence-level", "1.5"]) == 2
    assert "--confidence-level" in capsys.readouterr().err  # the option typed


def test_docs_inference_examples_run():
    import doctest
    import pathlib

    doc = pathlib.Path(__file__).resolve().parents[1] / "docs" / "inference.md"
    result = doctest.testfile(
        str(doc), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert result.attempted >= 10 and result.failed == 0


def test_cli_reads_header_and_comments(tmp_path, capsys):
    from propstab.cli import main

    f = tmp_path / "named.csv"
    f.write_text("# runs of a selector\ngene_a,gene_b,gene_c\n1,1,0\n1,0,1\n1,1,0\n")
    assert main(["estimate", str(f)]) == 0
    assert (
        f"{estimate([[1, 1, 0], [1, 0, 1], [1, 1, 0]]).statistic:.4f}" in capsys.readouterr().out
    )


# ---------------------------------------------------------------- Conger's kappa


def _conger_batch(Z):
    """Conger's kappa (its own count formula on batched sums), its delta-method variance
    and its jackknife variance (the kernel's leave-one-out formula) for each Z[r]."""
    R, M, d = Z.shape
    F = Z.sum(1).astype(np.int64)
    k = Z.sum(2).astype(np.int64)
    ZF = np.einsum("rmd,rd->rm", Z.astype(float), F.astype(float))
    N, S2, K2 = k.sum(1), (F * F).sum(1), (k * k).sum(1)
    formula = propstab.get_measure("conger").kernel.formula
    kappa = formula(
        SimpleNamespace(n_runs=M, n_features=d, total=N, sum_squares=S2, size_squares=K2)
    )
    delta, _ = _variance.conger_terms(k, ZF, M, d, kappa)
    loo = formula(
        SimpleNamespace(
            n_runs=M - 1,
            n_features=d,
            total=N[:, None] - k,
            sum_squares=S2[:, None] - 2 * ZF + k,
            size_squares=K2[:, None] - k * k,
        )
    )
    return kappa, delta, _variance.spread(loo, (M - 1) / M)


def test_conger_variances_match_the_monte_carlo_variance_with_varying_sizes():
    """The same bimodal sizes as the Thm 6 sign test (about 6 or 31 of d = 60), M = 100:
    the mean delta-method and jackknife variances of conger are within 4 standard errors
    of its Monte Carlo variance; the batched helpers are the ones estimate() uses."""
    rng = np.random.default_rng(6)
    d, M, R = 60, 100, 3000
    big = rng.random((R, M)) < 0.5
    Z = np.zeros((R, M, d), dtype=bool)
    Z[:, :, :4] = True
    Z[:, :, 4:30] |= big[..., None]
    Z |= rng.random((R, M, d)) < 0.03
    kappa, delta, jack = _conger_batch(Z)
    assert estimate(Z[0], "conger", method="analytic").variance == pytest.approx(
        delta[0], rel=1e-10
    )
    assert estimate(Z[0], "conger").variance == pytest.approx(jack[0], rel=1e-9)
    assert estimate(Z[0], "conger").statistic == pytest.approx(kappa[0], rel=1e-12)
    s2 = kappa.var(ddof=1)
    se_s2 = math.sqrt((np.mean((kappa - kappa.mean()) ** 4) - s2**2) / R)
    for v in (delta, jack):
        tol = 4 * math.hypot(se_s2, v.std(ddof=1) / math.sqrt(R))
        assert abs(v.mean() - s2) < tol


def test_conger_estimate_methods_and_tests():
    """auto takes the jackknife for conger (better coverage for small M), analytic its
    delta method; the one-sample, two-sample (independent and paired) and pairwise tests
    run on it."""
    rng = np.random.default_rng(8)
    Z1 = rng.random((25, 30)) < np.linspace(0.9, 0.05, 30) * rng.uniform(0.6, 1.2, (25, 1))
    Z2 = Z1 ^ (rng.random((25, 30)) < 0.1)
    auto = estimate(Z1, "conger")
    analytic = estimate(Z1, "conger", method="analytic")
    assert auto.method == "jackknife" and analytic.method == "analytic"
    assert analytic.variance_source == "delta method in thesis Thm 6's form"
    assert "analytic: delta method in thesis Thm 6's form" in str(analytic)
    assert "delete-one-run jackknife" in str(auto)
    assert auto.statistic == analytic.statistic > estimate(Z1).statistic
    assert 0.5 < auto.variance / analytic.variance < 2
    assert auto.interpretation is not None
    res = propstab.one_sample_test(Z1, 0.2, measure="conger")
    assert res.estimate.measure == "conger" and 0 <= res.pvalue <= 1
    for paired in (False, True):
        for method in ("auto", "analytic"):
            res = propstab.two_sample_test(Z1, Z2, measure="conger", paired=paired, method=method)
            assert math.isfinite(res.statistic) and 0 <= res.pvalue <= 1
    table = propstab.pairwise_tests([Z1, Z2, Z1[::-1]], measure="conger", paired=True)
    assert len(table) == 3


# ---------------------------------------------------------------- degenerate variances
# A variance of 0 (or rounding noise) from runs that differ is replaced when the estimate
# is built. Expected values: Thm 6 and Phi-hat in exact rationals,
# a literal jackknife and a literal bootstrap (loops), the ideal bootstrap by enumeration,
# scipy.stats.bootstrap.

HALVES = [[1, 1, 1, 0, 0, 0], [1, 1, 0, 1, 0, 0]] * 5  # a known example
ROUNDING = [[1, 1, 0, 1, 1, 1], [0, 0, 0, 0, 1, 0], [1, 0, 1, 1, 0, 0]]


def phi_exact(Z):
    """Phi-hat (thesis Def. 3) in exact rationals."""
    from fractions import Fraction

    M, d = len(Z), len(Z[0])
    p = [Fraction(sum(row[f] for row in Z), M) for f in range(d)]
    kbar = sum(p)
    return 1 - Fraction(M, M - 1) * (sum(x * (1 - x) for x in p) / d) / (
        (kbar / d) * (1 - kbar / d)
    )


def thm6_exact(Z):
    """Thesis Thm 6's variance in exact rationals (the formula of thm6_literal)."""
    from fractions import Fraction

    M, d = len(Z), len(Z[0])
    p = [Fraction(sum(row[f] for row in Z), M) for f in range(d)]
    k = [sum(row) for row in Z]
    kbar = sum(p)
    den = (kbar / d) * (1 - kbar / d)
    phi = phi_exact(Z)
    terms = [
        (
            Fraction(sum(Z[i][f] * p[f] for f in range(d)), d)
            - k[i] * kbar / d**2
            + phi / 2 * (2 * kbar * k[i] / d**2 - Fraction(k[i], d) - kbar / d + 1)
        )
        / den
        for i in range(M)
    ]
    mean = sum(terms) / M
    return Fraction(4, M**2) * sum((t - mean) ** 2 for t in terms)


def jackknife_literal(Z, measure="nogueira"):
    """Leave one run out, recompute, (M - 1)/M times the sum of squares."""
    Z = np.asarray(Z)
    M = len(Z)
    loo = [propstab.stability(np.delete(Z, i, axis=0), measure=measure) for i in range(M)]
    mean = sum(loo) / M
    return (M - 1) / M * sum((v - mean) ** 2 for v in loo)


def bootstrap_literal(Z, measure="nogueira", other=None, B=2000, seed=0):
    """B resamples of the runs, drawn as B x M indices from default_rng(seed); the
    measure (or the difference other - Z on the same indices) recomputed on each;
    variance with ddof = 1 (scipy.stats.bootstrap's standard_error squared)."""
    Z = np.asarray(Z)
    idx = np.random.default_rng(seed).integers(0, len(Z), size=(B, len(Z)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", propstab.UndefinedMeasureWarning)
        values = [propstab.stability(Z[rows], measure=measure) for rows in idx]
        if other is not None:
            other = np.asarray(other)
            values = [
                propstab.stability(other[rows], measure=measure) - v
                for rows, v in zip(idx, values)
            ]
    values = np.array(values)
    values = values[~np.isnan(values)]
    return float(np.var(values, ddof=1))


def test_zero_thm6_variance_from_runs_that_differ_is_replaced_at_construction():
    assert thm6_exact(HALVES) == 0 and jackknife_literal(HALVES) == pytest.approx(0, abs=1e-28)
    with pytest.warns(DegenerateVarianceWarning, match="although the runs differ"):
        est = estimate(HALVES)  # at construction, not from the CI
    assert est.statistic == pytest.approx(float(phi_exact(HALVES)), rel=1e-14)
    assert est.method == "bootstrap"
    assert est.variance == pytest.approx(bootstrap_literal(HALVES), rel=1e-12)
    low, high = est.confidence_interval()
    assert high - low > 0.1
    text = str(est)
    assert "bootstrap of the runs" in text and "although the runs differ" in text


def test_bootstrap_replacement_agrees_with_the_ideal_bootstrap_and_scipy():
    """HALVES: a resample has a ~ Binomial(10, 1/2) copies of the first run; the ideal
    bootstrap variance of Phi-hat is its variance over a, in exact rationals."""
    from fractions import Fraction

    A, B = HALVES[0], HALVES[1]
    ideal_mean = sum(
        Fraction(math.comb(10, a), 2**10) * phi_exact([A] * a + [B] * (10 - a))
        for a in range(11)
    )
    ideal = float(
        sum(
            Fraction(math.comb(10, a), 2**10)
            * (phi_exact([A] * a + [B] * (10 - a)) - ideal_mean) ** 2
            for a in range(11)
        )
    )
    with pytest.warns(DegenerateVarianceWarning):
        est = estimate(HALVES)
    assert est.variance == pytest.approx(ideal, rel=0.15)
    Z = np.array(HALVES)
    res = stats.bootstrap(
        (np.arange(10),),
        lambda i: propstab.stability(Z[np.asarray(i, int)]),
        vectorized=False,
        n_resamples=2000,
        random_state=1,
        method="percentile",
    )
    assert est.standard_error == pytest.approx(res.standard_error, rel=0.15)


def test_zero_thm6_variance_is_replaced_by_the_bootstrap_even_where_the_jackknife_is_not():
    """The jackknife is a linearisation like Thm 6: on the degenerate draws of the
    validation study its Wald interval covered nothing, so the bootstrap replaces."""
    Z = [[1, 1, 1], [0, 0, 0], [0, 1, 1], [1, 0, 0]]
    assert thm6_exact(Z) == 0 and jackknife_literal(Z) > 0
    with pytest.warns(DegenerateVarianceWarning, match=r"analytic \(thesis Thm 6\) variance"):
        est = estimate(Z)
    assert est.method == "bootstrap"
    assert est.variance == pytest.approx(bootstrap_literal(Z), rel=1e-12)
    assert est.variance_note == (
        "the analytic (thesis Thm 6) variance was 0 although the " "runs differ"
    )
    assert "bootstrap of the runs (2000 resamples, seed 0), as the analytic" in str(est)


def test_zero_jackknife_variance_from_runs_that_differ_is_replaced():
    with pytest.warns(DegenerateVarianceWarning, match="the jackknife variance was 0"):
        est = estimate(HALVES, "jaccard")
    assert jackknife_literal(HALVES, "jaccard") == pytest.approx(0, abs=1e-28)
    assert est.method == "bootstrap"
    assert est.variance == pytest.approx(bootstrap_literal(HALVES, "jaccard"), rel=1e-12)


def test_rounding_noise_variance_is_degenerate():
    """Thm 6's variance is exactly 0 here; float64 gives ~1e-32, from which the old
    code's statistic was -3e15 (p = 0)."""
    assert thm6_exact(ROUNDING) == 0
    from propstab.measures import nogueira

    sel = propstab.as_selection(ROUNDING)
    raw, terms, _ = _variance.thm6(sel, nogueira(sel))
    assert 0 < raw < 1e-30 and _variance.degenerate(terms, 3, 6)
    with pytest.warns(DegenerateVarianceWarning):
        res = one_sample_test(ROUNDING, 0.0, alternative="less", test="wald")
    v = bootstrap_literal(ROUNDING)
    assert res.estimate.method == "bootstrap"
    assert res.estimate.variance == pytest.approx(v, rel=1e-12)
    assert res.pvalue == pytest.approx(
        stats.norm.cdf(float(phi_exact(ROUNDING)) / math.sqrt(v)), rel=1e-9
    )


def test_degenerate_tolerance_separates_rounding_from_spread():
    assert _variance.degenerate([0.5, 0.5, 0.5 + 1e-15], 3, 4)
    assert not _variance.degenerate([0.5, 0.5, 0.5 + 1e-9], 3, 4)
    assert not _variance.degenerate([0.5, float("nan"), 0.5], 3, 4)


def test_identical_runs_keep_the_exact_zero_and_their_bound():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing at construction
        est = estimate([[1, 1, 0, 0]] * 5)
    assert est.variance == 0 and est.method == "analytic" and est.variance_note is None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.confidence_interval()
    # besides the zero variance only the small-M warning (M = 5 < 100), never a degenerate one
    assert [w.category for w in caught if w.category is not SmallSampleWarning] == [
        ZeroVarianceWarning
    ]
    caught = [w for w in caught if w.category is ZeroVarianceWarning]
    bound = 1 - 0.05 ** (1 / 5)
    assert "all 5 runs are the same" in str(caught[0].message)
    assert f"{bound:.3g}" in str(caught[0].message)


@pytest.mark.parametrize(
    "Z",
    [
        [[1, 1, 1, 0, 1, 0, 1], [0, 0, 1, 0, 1, 0, 1]],  # p 4e-34
        [[1, 1, 0, 1, 0], [1, 1, 0, 1, 1]],  # p 1.6e-16
        [[1, 1, 0, 0], [1, 0, 1, 0]],
    ],
)  # SE 0
def test_two_runs_that_differ_give_no_variance(Z):
    """Thm 6 from 2 runs: the two terms differ by a multiple of k_1 - k_2 only."""
    if sum(Z[0]) == sum(Z[1]):  # equal sizes, different sets: Thm 6 says 0 exactly
        assert thm6_exact(Z) == 0
    with pytest.warns(DegenerateVarianceWarning, match="2 runs"):
        res = one_sample_test(Z, 0.0)
    assert math.isnan(res.estimate.variance) and math.isnan(res.pvalue)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateVarianceWarning)
        assert estimate([Z[0], Z[0]]).variance == 0  # identical: exact 0


def test_tests_inherit_the_replaced_variance():
    Z1 = [[1, 1, 1, 0, 0, 0, 0], [1, 1, 0, 1, 0, 0, 0]] * 5  # Thm 6 variance 0
    Z2 = [
        [1, 1, 1, 0, 0, 0, 0],
        [1, 0, 1, 0, 1, 0, 0],
        [1, 1, 0, 0, 0, 1, 0],
        [0, 1, 1, 1, 0, 0, 0],
        [1, 1, 1, 0, 0, 0, 0],
    ] * 2
    assert thm6_exact(Z1) == 0 and thm6_exact(Z2) > 0
    with pytest.warns(DegenerateVarianceWarning):
        paired = two_sample_test(Z1, Z2, paired=True)
    v = bootstrap_literal(Z1, other=Z2)
    assert paired.variance == pytest.approx(v, rel=1e-12)
    assert paired.statistic == pytest.approx(paired.difference / math.sqrt(v), rel=1e-12)
    with pytest.warns(DegenerateVarianceWarning):
        independent = two_sample_test(Z1, Z2)
    assert independent.variance == pytest.approx(
        bootstrap_literal(Z1) + float(thm6_exact(Z2)), rel=1e-12
    )
    with pytest.warns(DegenerateVarianceWarning):
        table = pairwise_tests([Z1, Z2], paired=True)
    assert table.rows[0]["pvalue"] == pytest.approx(paired.pvalue, rel=1e-12)


def test_assess_k5_on_breast_cancer_has_no_zero_standard_error():
    """SelectKBest(k=5) on breast cancer splits its runs 5/5 between two
    sets; Thm 6 gave SE 0 and the paired comparison a tiny p-value, silently."""
    pytest.importorskip("sklearn")
    from sklearn.datasets import load_breast_cancer
    from sklearn.feature_selection import SelectKBest, f_classif
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    l1 = make_pipeline(
        StandardScaler(), LogisticRegression(penalty="l1", solver="liblinear", C=0.1)
    )
    with pytest.warns(DegenerateVarianceWarning):
        comparison = propstab.assess(
            {"k5": SelectKBest(f_classif, k=5), "l1": l1}, X, y, n_runs=10, random_state=0
        )
    k5 = comparison.assessments["k5"]
    Z1 = np.asarray(k5.result.selection.toarray()).astype(int)
    Z2 = np.asarray(comparison.assessments["l1"].result.selection.toarray()).astype(int)
    assert thm6_exact(Z1.tolist()) == 0 and len({tuple(r) for r in Z1}) > 1
    assert k5.estimate.method != "analytic" and k5.estimate.standard_error > 0.005
    assert (
        "SE of k5: bootstrap of the runs (2000 resamples, seed 0), as the analytic "
        "(thesis Thm 6) variance was 0 although the runs differ"
    ) in str(comparison)
    row = comparison.tests.rows[0]
    v = bootstrap_literal(Z1, other=Z2)
    assert row["statistic"] == pytest.approx(
        (row["stability_first"] - row["stability_second"]) / math.sqrt(v), rel=1e-9
    )  # first - second


def test_degenerate_rule_is_the_same_for_sparse_runs():
    with pytest.warns(DegenerateVarianceWarning):
        sparse = estimate(sp.csr_matrix(np.array(HALVES)))
    with pytest.warns(DegenerateVarianceWarning):
        dense = estimate(HALVES)
    assert (sparse.method, sparse.variance) == (dense.method, dense.variance)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateVarianceWarning)
        assert estimate(sp.csr_matrix(np.array([HALVES[0]] * 6))).variance == 0


def test_cli_estimate_says_which_variance_ran(tmp_path, capsys):
    from propstab.cli import main

    path = tmp_path / "halves.npy"
    np.save(path, np.array(HALVES, dtype=np.int8))
    assert main(["estimate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert (
        "(bootstrap of the runs (2000 resamples, seed 0), as the analytic "
        "(thesis Thm 6) variance was 0 although the runs differ)"
    ) in out
    assert "warning: DegenerateVarianceWarning" in err


def test_one_sample_test_no_longer_rejects_from_a_zero_variance():
    """HALVES against phi0 = 0.6: Thm 6's variance 0 made V_M infinite (p = 0); with
    the bootstrap variance p = 1 - Phi_N((Phi-hat - 0.6) / se), about 0.28."""
    with pytest.warns(DegenerateVarianceWarning):
        res = one_sample_test(HALVES, 0.6, test="wald")
    v = bootstrap_literal(HALVES)
    z = (float(phi_exact(HALVES)) - 0.6) / math.sqrt(v)
    assert res.statistic == pytest.approx(z, rel=1e-9)
    assert res.pvalue == pytest.approx(stats.norm.sf(z), rel=1e-9) and res.pvalue > 0.2
