"""Intervals that behave: clipped to the measure's range, the logit (Fisher z)
interval, the bootstrap percentile and BCa intervals over runs, the degenerate case of
identical runs, and the half-width as a function of M."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

import propstab
from propstab.inference import _intervals
from propstab import as_selection, estimate, one_sample_test
from propstab.inference import (
    DegenerateVarianceWarning,
    SmallSampleWarning,
    StabilityEstimate,
    ZeroVarianceWarning,
    halfwidth_curve,
    runs_needed,
)

#: 29 identical runs and one different one
NEAR_TOP = [[1, 1, 0, 0, 0, 0]] * 29 + [[0, 0, 1, 1, 0, 0]]
METHODS = ("wald", "logit", "bootstrap", "bca")
#: the SmallSampleWarning of each of METHODS at NEAR_TOP's 30 runs (the small-M study)
AT_30 = "M = 30-49 runs"


def _population(rng, M, d=30):
    return (rng.random((M, d)) < np.linspace(0.97, 0.03, d)).astype(int)


def test_wald_interval_near_the_top_ends_at_one():
    est = estimate(NEAR_TOP)
    z = stats.norm.ppf(0.975)
    raw = (est.statistic - z * est.standard_error, est.statistic + z * est.standard_error)
    assert raw[1] > 1  # the unclipped interval leaves [-1, 1]
    with pytest.warns(SmallSampleWarning, match=AT_30):
        assert est.confidence_interval(method="wald") == pytest.approx((raw[0], 1.0), abs=1e-15)
    for method in METHODS:
        with pytest.warns(SmallSampleWarning, match=AT_30):
            low, high = est.confidence_interval(method=method)
        assert -1 <= low <= est.statistic <= high <= 1, method


def test_every_method_stays_in_each_measures_range():
    Z = NEAR_TOP[:9] + [[0, 0, 0, 0, 1, 1]]
    for name in ("jaccard", "kappa", "goh", "wald", "conger", "lustgarten"):
        if name == "goh":  # one value on every resample of runs that differ (below)
            with pytest.warns(DegenerateVarianceWarning, match="although the runs differ"):
                est = estimate(Z, name)
        else:
            est = estimate(Z, name)
        lo, hi = est.range
        for method in METHODS:
            # M = 10: every method missed its level in the small-M study; goh's bootstrap
            # replicates all equal the estimate
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                low, high = est.confidence_interval(0.99, method=method)
            expected = [SmallSampleWarning]
            if name == "goh" and method in ("bootstrap", "bca"):
                expected = [ZeroVarianceWarning, SmallSampleWarning]
            if math.isnan(est.variance) and method in ("wald", "logit"):
                # goh depends on the sizes only: one value on every resample of these
                # runs, which differ; a degenerate variance is NaN, not 0, and an
                # undefined interval gets no small-sample advice
                assert math.isnan(low) and math.isnan(high), (name, method)
                assert caught == [], (name, method)
                continue
            assert [w.category for w in caught] == expected, (name, method)
            assert "M = 10-19 runs" in str(caught[-1].message)
            assert lo <= low <= high <= hi, (name, method)


def test_range_evaluates_bounds_that_depend_on_d():
    assert estimate(NEAR_TOP, "wald").range == (1 - 6, 1.0)  # Wald's lower bound 1 - d
    assert estimate(NEAR_TOP).range == (-1.0, 1.0)
    assert estimate(NEAR_TOP, "yu").range == (-math.inf, 1.0)  # undeclared: no clipping


def test_one_and_two_sample_intervals_are_clipped():
    with pytest.warns(SmallSampleWarning, match=AT_30):
        res = one_sample_test(NEAR_TOP, 0.5, alternative="two-sided", test="wald")
    assert res.confidence_interval()[1] == 1.0
    with pytest.warns(SmallSampleWarning, match=AT_30):
        assert one_sample_test(NEAR_TOP, 0.5, test="wald").confidence_interval()[1] == 1.0
    for alternative in ("two-sided", "greater", "less"):  # the default: logit
        low, high = one_sample_test(NEAR_TOP, 0.5, alternative=alternative).confidence_interval()
        assert -1.0 <= low <= high <= 1.0
    diff = propstab.two_sample_test(
        NEAR_TOP, NEAR_TOP[:29] + [[1, 1, 0, 0, 0, 0]], alternative="less"
    )
    assert diff.confidence_interval()[0] == -2.0  # Phi_2 - Phi_1 >= -1 - 1


def test_logit_interval_is_fishers_z_on_minus_one_one():
    rng = np.random.default_rng(3)
    for _ in range(5):
        est = estimate(_population(rng, 25))
        phi, se = est.statistic, est.standard_error
        z = stats.norm.ppf(0.95)
        half = z * se / (1 - phi**2)  # d atanh / d phi = 1 / (1 - phi^2)
        expected = (math.tanh(math.atanh(phi) - half), math.tanh(math.atanh(phi) + half))
        with pytest.warns(SmallSampleWarning, match="M = 20-29 runs"):  # M = 25
            ci = est.confidence_interval(0.9, method="logit")
        assert ci == pytest.approx(expected, rel=1e-12)


def test_logit_interval_with_one_finite_bound_is_log_scale():
    # g = -log(1 - theta), se(g) = se / (1 - theta) = 0.1 / 0.5: half-width 1.96 x 0.2
    low, high = _intervals.transformed_wald(0.5, 0.01, 1.96, -math.inf, 1.0)
    assert (low, high) == pytest.approx((1 - 0.5 * math.exp(0.392), 1 - 0.5 * math.exp(-0.392)))
    assert _intervals.transformed_wald(0.5, 0.01, 2.0, -math.inf, math.inf) == (0.3, 0.7)


@pytest.mark.parametrize("sizes", ["varying", "constant"])
def test_vectorised_bootstrap_replicates_equal_the_slow_twin(sizes):
    rng = np.random.default_rng(7)
    if sizes == "varying":
        Z = _population(rng, 25, 20)
    else:
        S = rng.random((25, 20)) + np.linspace(1.5, 0, 20)
        Z = (S >= np.sort(S, axis=1)[:, [-6]]).astype(int)
    sel = as_selection(Z)
    checked = 0
    for info in propstab.list_measures():
        if info.input != "selection" or info.kernel is None:
            continue
        fast = _intervals.bootstrap_replicates(sel, info, {}, 60, np.random.default_rng(1))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            slow = _intervals.bootstrap_replicates(
                sel, info, {}, 60, np.random.default_rng(1), generic=True
            )
        np.testing.assert_allclose(fast, slow, rtol=1e-10, atol=1e-12, err_msg=info.name)
        checked += 1
    assert checked >= 20


def test_percentile_interval_is_the_quantiles_of_the_replicates():
    Z = _population(np.random.default_rng(11), 30)
    est = estimate(Z, "jaccard")
    reps = _intervals.bootstrap_replicates(
        est.selection,
        propstab.get_measure("jaccard"),
        {},
        500,
        np.random.default_rng(5),
        generic=True,
    )
    expected = tuple(np.quantile(reps, [0.05, 0.95]))
    with pytest.warns(SmallSampleWarning, match=AT_30):
        ci = est.confidence_interval(0.9, method="bootstrap", n_resamples=500, random_state=5)
    assert ci == pytest.approx(expected, rel=1e-12)


def test_bca_agrees_with_scipy_bootstrap():
    # an independent implementation (scipy.stats.bootstrap, method="BCa") resampling the
    # same runs: equal up to Monte Carlo error with 4000 resamples each
    Z = np.asarray(_population(np.random.default_rng(13), 40))
    nogueira = propstab.get_measure("nogueira").function
    res = stats.bootstrap(
        (np.arange(40),),
        lambda i: nogueira(Z[i.astype(int)]),
        vectorized=False,
        n_resamples=4000,
        method="BCa",
        random_state=np.random.default_rng(2),
        confidence_level=0.9,
    )
    with pytest.warns(SmallSampleWarning, match=AT_30):  # M = 40
        ours = estimate(Z).confidence_interval(0.9, method="bca", n_resamples=4000)
    ci = res.confidence_interval
    assert ours == pytest.approx((ci.low, ci.high), abs=0.01)
    with pytest.warns(SmallSampleWarning, match=AT_30):
        percentile = estimate(Z).confidence_interval(0.9, method="bootstrap", n_resamples=4000)
    assert ours != pytest.approx(percentile, abs=1e-4)  # the corrections do something


def test_acceleration_is_efrons_skewness_of_the_jackknife_values():
    u = np.array([0.1, 0.2, 0.2, 0.9])
    dev = u.mean() - u
    assert _intervals.acceleration(u) == pytest.approx(
        (dev**3).sum() / (6 * ((dev**2).sum()) ** 1.5)
    )
    assert _intervals.acceleration([0.3, 0.3, 0.3]) == 0.0


def test_identical_runs_degenerate_with_the_binomial_bound():
    est = estimate([[1, 1, 0, 0]] * 10)
    for method in METHODS:
        with pytest.warns(ZeroVarianceWarning, match=r"at most 0\.259"):
            assert est.confidence_interval(method=method) == (1.0, 1.0)
    assert 1 - 0.05 ** (1 / 10) == pytest.approx(0.2589, abs=1e-4)


def test_bootstrap_needs_the_runs():
    est = estimate(NEAR_TOP)
    bare = StabilityEstimate(
        est.statistic,
        est.variance,
        est.n_runs,
        est.n_features,
        est.measure,
        est.method,
        est.terms,
        est.factor,
    )
    with pytest.raises(ValueError, match="method"):
        bare.confidence_interval(method="bootstrap")
    with pytest.warns(SmallSampleWarning, match=AT_30):
        bare_wald = bare.confidence_interval(method="wald")
    with pytest.warns(SmallSampleWarning, match=AT_30):
        assert bare_wald == est.confidence_interval(method="wald")
    # without the runs there is no jackknife: "auto" takes the logit interval with the
    # estimate's own variance, and warns as that interval does
    with pytest.warns(SmallSampleWarning, match=AT_30 + ": the 95 % logit interval covered"):
        bare_auto = bare.confidence_interval()
    with pytest.warns(SmallSampleWarning, match=AT_30):
        assert bare_auto == bare.confidence_interval(method="logit")
    with pytest.raises(ValueError, match="n_resamples"):
        est.confidence_interval(method="bca", n_resamples=10)
    with pytest.raises(TypeError, match="random_state"):
        est.confidence_interval(method="bca", random_state="x")


def test_bootstrap_interval_is_reproducible_and_seeded():
    est = estimate(_population(np.random.default_rng(17), 20))
    with warnings.catch_warnings(record=True) as caught:  # M = 20: each call warns
        warnings.simplefilter("always")
        a = est.confidence_interval(method="bootstrap", random_state=3)
        assert a == est.confidence_interval(method="bootstrap", random_state=3)
        assert a != est.confidence_interval(method="bootstrap", random_state=4)
    assert [w.category for w in caught] == [SmallSampleWarning] * 3
    assert all("M = 20-29 runs: the 95 % percentile bootstrap" in str(w.message) for w in caught)


# ------------------------------------------------------------------ half-width against M


def test_halfwidth_at_the_current_m_is_the_wald_half_width():
    # 50 runs: the Wald interval holds its level from 50 runs (no SmallSampleWarning)
    est = estimate(_population(np.random.default_rng(19), 50))
    low, high = est.confidence_interval(0.9, method="wald")
    assert halfwidth_curve(est, 50, 0.9)[0] == pytest.approx((high - low) / 2, rel=1e-12)
    h = halfwidth_curve(est, [10, 40, 160])
    assert h[0] / h[1] == pytest.approx(2.0) and h[1] / h[2] == pytest.approx(2.0)


def test_predicted_halfwidth_matches_the_half_width_of_more_runs():
    # c = M v estimated from 40 runs predicts the half-width of 640 runs of the same
    # population: averaged over 40 repetitions, within 10 % (the variance is ~ c / M)
    rng = np.random.default_rng(23)
    predicted, observed = [], []
    for _ in range(40):
        Z = _population(rng, 640)
        predicted.append(halfwidth_curve(Z[:40], 640)[0])
        low, high = estimate(Z).confidence_interval()
        observed.append((high - low) / 2)
    assert np.mean(predicted) == pytest.approx(np.mean(observed), rel=0.10)


def test_runs_needed_is_the_smallest_m_reaching_the_target():
    Z = _population(np.random.default_rng(29), 30)
    est = estimate(Z, "jaccard", method="jackknife")
    m = runs_needed(est, 0.02)
    assert halfwidth_curve(est, m)[0] <= 0.02 < halfwidth_curve(est, m - 1)[0]
    assert runs_needed(Z, 0.02, measure="jaccard", method="jackknife") == m
    with pytest.warns(ZeroVarianceWarning):
        assert runs_needed([[1, 1, 0]] * 5, 0.1) == 5
    with pytest.raises(ValueError, match="halfwidth"):
        runs_needed(est, 0.0)
    with pytest.raises(ValueError, match="measure"):
        runs_needed(est, 0.1, measure="jaccard")


def test_plot_halfwidth_draws_the_prefixes_and_the_prediction():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from propstab.plots import plot_halfwidth

    Z = _population(np.random.default_rng(31), 30)
    ax = plot_halfwidth(Z, step=3, n_runs_max=120, target_halfwidth=0.05)
    line, upper, lower, target = ax.lines
    m, phi = line.get_xdata(), line.get_ydata()
    assert m.tolist() == list(range(3, 31, 3))
    assert phi[-1] == pytest.approx(estimate(Z).statistic)
    assert phi[0] == pytest.approx(estimate(Z[:3]).statistic)
    assert upper.get_xdata()[-1] == 120
    h = halfwidth_curve(Z, 120)[0]
    assert upper.get_ydata()[-1] == pytest.approx(min(1.0, estimate(Z).statistic + h))
    assert target.get_xdata()[0] == runs_needed(Z, 0.05)
    plt.close("all")
    with pytest.raises(ValueError, match="start"):
        plot_halfwidth(Z, start=40)


def test_identical_runs_have_exactly_zero_variance():
    # d = 100, k = 30: the Thm 6 terms are equal but their floating-point mean is not
    # (it gave v = 7.9e-32, a hair-wide interval and no warning)
    Z = np.zeros((10, 100), dtype=int)
    Z[:, :30] = 1
    for method in ("analytic", "jackknife"):
        est = estimate(Z, method=method)
        assert est.variance == 0.0
        with pytest.warns(ZeroVarianceWarning, match="all 10 runs are the same"):
            assert est.confidence_interval() == (1.0, 1.0)


# ------------------------------------------------- the default interval follows M


def _nogueira_literal(Z):
    Z = np.asarray(Z, dtype=float)
    M, d = Z.shape
    p, k = Z.mean(axis=0), Z.sum(axis=1).mean()
    return 1 - np.mean(M / (M - 1) * p * (1 - p)) / ((k / d) * (1 - k / d))


def _jaccard_literal(Z):
    Z = np.asarray(Z, dtype=bool)
    pairs = [(a, b) for i, a in enumerate(Z) for j, b in enumerate(Z) if i != j]
    return np.mean([(a & b).sum() / (a | b).sum() for a, b in pairs])


def _logit_jackknife_literal(Z, value, lo, hi, level=0.95):
    """Slow twin: delete each run and recompute (M times), the jackknife variance
    (M-1)/M sum (theta_(-i) - mean)^2, then the Wald interval on the logit of the
    position in [lo, hi] mapped back (Fisher's z for [-1, 1])."""
    Z = np.asarray(Z)
    M = len(Z)
    theta = value(Z)
    loo = np.array([value(np.delete(Z, i, axis=0)) for i in range(M)])
    v = (M - 1) / M * np.sum((loo - loo.mean()) ** 2)
    u = (theta - lo) / (hi - lo)
    g, se_g = math.log(u / (1 - u)), math.sqrt(v) / ((hi - lo) * u * (1 - u))
    z = stats.norm.ppf(0.5 + level / 2)
    back = lambda t: lo + (hi - lo) / (1 + math.exp(-t))  # noqa: E731
    return theta, v, (back(g - z * se_g), back(g + z * se_g))


def test_default_interval_below_100_runs_is_the_logit_jackknife_interval():
    rng = np.random.default_rng(2026)
    Z = (rng.random((10, 12)) < np.linspace(0.9, 0.1, 12)).astype(int)
    for name, value, (lo, hi) in (
        ("nogueira", _nogueira_literal, (-1.0, 1.0)),
        ("jaccard", _jaccard_literal, (0.0, 1.0)),
    ):
        est = estimate(Z, name)
        theta, v, expected = _logit_jackknife_literal(Z, value, lo, hi)
        assert est.statistic == pytest.approx(theta, rel=1e-12)
        assert est.jackknife_variance() == pytest.approx(v, rel=1e-9)
        with pytest.warns(propstab.inference.SmallSampleWarning):
            assert est.confidence_interval() == pytest.approx(expected, rel=1e-9)
        if name == "nogueira":  # Fisher's z: tanh(atanh(Phi) -/+ z se/(1-Phi^2))
            h = stats.norm.ppf(0.975) * math.sqrt(v) / (1 - theta**2)
            assert expected == pytest.approx(
                (math.tanh(math.atanh(theta) - h), math.tanh(math.atanh(theta) + h)), rel=1e-12
            )
            assert est.method == "analytic" and est.variance != pytest.approx(v)
        assert (
            f"[{expected[0]:.4f}, {expected[1]:.4f}] (logit, jackknife variance; M < 100)"
            in str(est)
        )


def test_default_one_sample_test_below_100_runs_inverts_the_default_interval():
    rng = np.random.default_rng(7)
    Z = (rng.random((12, 10)) < np.linspace(0.9, 0.1, 10)).astype(int)
    theta, v, _ = _logit_jackknife_literal(Z, _nogueira_literal, -1.0, 1.0)
    z = (math.atanh(theta) - math.atanh(0.1)) / (math.sqrt(v) / (1 - theta**2))
    with warnings.catch_warnings():  # its one-sided level held in the small-M study
        warnings.simplefilter("error", propstab.inference.SmallSampleWarning)  # (6.2 %)
        res = one_sample_test(Z, 0.1)
    assert (res.statistic, res.pvalue) == pytest.approx((z, stats.norm.sf(z)), rel=1e-9)
    assert res.test == "logit" and res.estimate.method == "jackknife"
    assert "V_M (logit)" in str(res)
    # the 90 % one-sided interval holds exactly the phi0 it does not reject at 10 %
    low, high = res.confidence_interval(0.9)
    h = stats.norm.ppf(0.9) * math.sqrt(v) / (1 - theta**2)
    assert (low, high) == (pytest.approx(math.tanh(math.atanh(theta) - h), rel=1e-12), 1.0)
    for phi0 in (low - 1e-6, low + 1e-6):  # no SmallSampleWarning either ("greater")
        p = one_sample_test(Z, phi0).pvalue
        assert (p < 0.1) == (phi0 < low)


def test_default_interval_from_100_runs_is_the_wald_interval():
    rng = np.random.default_rng(150)
    Z = (rng.random((150, 12)) < np.linspace(0.9, 0.1, 12)).astype(int)
    est = estimate(Z)
    z = stats.norm.ppf(0.975)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no SmallSampleWarning
        ci = est.confidence_interval()
        res = one_sample_test(Z, 0.3, alternative="two-sided")
    assert ci == pytest.approx(
        (est.statistic - z * est.standard_error, est.statistic + z * est.standard_error), rel=1e-12
    )
    assert ci == est.confidence_interval(method="wald")
    assert res.test == "wald" and res.statistic == pytest.approx(
        (est.statistic - 0.3) / est.standard_error, rel=1e-12
    )
    assert "(Wald, thesis Cor. 1)" in str(est)
