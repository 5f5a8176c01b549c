"""propstab.testing: the assertions' decisions computed independently (scipy.stats.norm on
the estimate and its variance), their messages, baselines, bad inputs."""
import math

import numpy as np
import pytest
from scipy import stats

import shared  # tests/shared.py: processes under a timeout

import propstab
from propstab.testing import (
    Baseline,
    BaselineMismatchError,
    assert_measure_properties,
    assert_not_less_stable,
    assert_stable,
    decision,
    parametrize_with_checks,
)


def noisy(M, d=10, k=3, flip=0.08, seed=0):
    """M runs selecting the first k of d features, each entry flipped with prob. flip."""
    rng = np.random.default_rng(seed)
    Z = np.zeros((M, d), dtype=bool)
    Z[:, :k] = True
    return Z ^ (rng.random(Z.shape) < flip)


def nogueira_and_thm6(Z):
    """Nogueira's estimator and its Thm 6 variance, written out from the thesis
    (eq. 4.2 and Thm 6) with numpy, independently of the library."""
    Z = np.asarray(Z, dtype=float)
    M, d = Z.shape
    p = Z.mean(axis=0)
    k = Z.sum(axis=1)
    kbar = k.mean()
    s2 = M / (M - 1) * p * (1 - p)
    denom = kbar / d * (1 - kbar / d)
    phi = 1 - s2.mean() / denom
    # Thm 6: phi_i = (1/denom) (z_i . p / d - k_i kbar / d^2 + (phi/2)(2 kbar k_i / d^2
    # - k_i/d - kbar/d + 1)), the sign of the phi/2 term the delta method's (docs/inference.md)
    phis = (
        Z @ p / d - k * kbar / d**2 + phi / 2 * (2 * kbar * k / d**2 - k / d - kbar / d + 1)
    ) / denom
    v = 4 / M**2 * np.sum((phis - phis.mean()) ** 2)
    return phi, v


# ----------------------------------------------------------------------------- assert_stable


def test_the_independent_twin_matches_the_library():
    Z = noisy(150)
    phi, v = nogueira_and_thm6(Z)
    est = propstab.estimate(Z, method="analytic")
    assert est.statistic == pytest.approx(phi, rel=1e-12)
    assert est.variance == pytest.approx(v, rel=1e-10)


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_assert_stable_decides_as_the_one_sided_wald_test(confidence):
    """M >= 100: the Wald test with Thm 6's variance; the decision boundary is
    phi - z_c sqrt(v), computed here with scipy: just below it passes, just above fails."""
    Z = noisy(150)
    phi, v = nogueira_and_thm6(Z)
    bound = phi - stats.norm.ppf(confidence) * math.sqrt(v)
    res = assert_stable(Z, bound - 1e-3, confidence=confidence)
    assert res.pvalue == pytest.approx(stats.norm.sf((phi - bound + 1e-3) / math.sqrt(v)))
    assert res.pvalue < 1 - confidence
    with pytest.raises(AssertionError) as caught:
        assert_stable(Z, bound + 1e-3, confidence=confidence)
    p = stats.norm.sf((phi - bound - 1e-3) / math.sqrt(v))
    message = str(caught.value)
    assert f"{phi:.4f}" in message and f"SE {math.sqrt(v):.4f}" in message
    assert f"p = {p:.4g}" in message
    assert f"one-sided {confidence:.0%} interval [{bound:.4f}, 1.0000]" in message
    # the runs that would decide: z_c^2 M v / (phi - at_least)^2 (Thm 6: v ~ 1/M)
    m = math.ceil(stats.norm.ppf(confidence) ** 2 * 150 * v / (phi - bound - 1e-3) ** 2)
    assert f"about {m} runs would decide it" in message


def test_assert_stable_below_100_runs_uses_the_logit_test_with_the_jackknife():
    Z = noisy(30, seed=3)
    est = propstab.estimate(Z, method="jackknife")
    lo, hi = -1.0, 1.0  # nogueira's range
    for at_least in (0.3, 0.5, 0.6, 0.7):
        # the logit statistic: (g(phi) - g(phi0)) / (g'(phi) sd), g(x) = log((x-lo)/(hi-x))
        g = lambda x: math.log((x - lo) / (hi - x))
        slope = (hi - lo) / ((est.statistic - lo) * (hi - est.statistic))
        z = (g(est.statistic) - g(at_least)) / (slope * math.sqrt(est.variance))
        expected_pass = stats.norm.sf(z) < 0.05
        try:
            res = assert_stable(Z, at_least)
            passed = True
            assert res.pvalue == pytest.approx(stats.norm.sf(z))
        except AssertionError:
            passed = False
        assert passed == expected_pass, at_least


def test_assert_stable_a_random_selector_fails_and_says_no_runs_would_help():
    Z = np.random.default_rng(0).random((40, 12)) < 0.3
    with pytest.raises(
        AssertionError, match="no number of runs would decide it: the " "estimate is not above 0.5"
    ):
        assert_stable(Z, 0.5)


@pytest.mark.filterwarnings("ignore:the variance:propstab.inference.ZeroVarianceWarning")
def test_assert_stable_reads_resampling_results_and_baselines():
    X = np.random.default_rng(0).normal(size=(30, 5))
    res = propstab.resample(lambda X, y: [0, 1], X, n_runs=12, random_state=0)
    assert assert_stable(res, 0.5).estimate.statistic == 1.0  # every run the same
    assert assert_stable(Baseline.from_result(res), 0.5).pvalue == 0.0


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"at_least": "0.5"}, "at_least"),
        ({"at_least": float("nan")}, "at_least"),
        ({"at_least": 1.5}, "at_least"),  # outside nogueira's range [-1, 1]
        ({"at_least": 0.5, "confidence": 0.3}, "confidence"),
        ({"at_least": 0.5, "confidence": 1.0}, "confidence"),
        ({"at_least": 0.5, "measure": "nope"}, "measure"),
    ],
)
def test_assert_stable_refuses_bad_arguments_naming_them(kwargs, argument):
    with pytest.raises(propstab.InvalidParameterError) as caught:
        assert_stable(noisy(20), **kwargs)
    assert caught.value.argument == argument
    assert str(caught.value).startswith(f"{argument}: ")


# ---------------------------------------------------------------------- non-inferiority


def test_non_inferiority_decides_as_the_independent_test():
    """Independent runs, M >= 100: D = phi_c - phi_b, v = v_b + v_c (thesis Thm 7);
    passes iff 1 - N((D + margin)/sqrt(v)) < alpha. The boundary margin is
    -(D - z sqrt(v)): just above passes, just below fails."""
    base, cur = noisy(120, seed=1), noisy(120, flip=0.1, seed=2)
    (pb, vb), (pc, vc) = nogueira_and_thm6(base), nogueira_and_thm6(cur)
    D, sd = pc - pb, math.sqrt(vb + vc)
    boundary = -(D - stats.norm.ppf(0.95) * sd)
    assert boundary > 0
    res = assert_not_less_stable(base, cur, margin=boundary + 1e-3)
    assert res.difference == pytest.approx(D)
    assert res.standard_error == pytest.approx(sd)
    assert res.pvalue == pytest.approx(stats.norm.sf((D + boundary + 1e-3) / sd))
    assert not res.paired
    with pytest.raises(AssertionError) as caught:
        assert_not_less_stable(base, cur, margin=boundary - 1e-3)
    message = str(caught.value)
    for text in (
        f"baseline nogueira = {pb:.4f}",
        f"current {pc:.4f}",
        f"difference current - baseline {D:.4f}",
        f"one-sided 95% interval [{D - stats.norm.ppf(0.95) * sd:.4f}, 2.0000] "
        f"contains -margin",
        "independent runs",
    ):
        assert text in message, (text, message)


def test_the_drop_test_fails_only_on_evidence_of_a_drop_beyond_the_margin():
    base, cur = noisy(120, seed=1), noisy(120, flip=0.2, seed=2)
    (pb, vb), (pc, vc) = nogueira_and_thm6(base), nogueira_and_thm6(cur)
    D, sd = pc - pb, math.sqrt(vb + vc)
    boundary = -(D + stats.norm.ppf(0.95) * sd)  # the largest margin that still fails
    assert boundary > 0
    with pytest.raises(AssertionError, match="lies below -margin"):
        assert_not_less_stable(base, cur, margin=boundary - 1e-3, test="drop")
    res = assert_not_less_stable(base, cur, margin=boundary + 1e-3, test="drop")
    assert res.pvalue == pytest.approx(stats.norm.cdf((D + boundary + 1e-3) / sd))
    assert res.passed


def test_decision_is_vectorised_and_matches_scipy():
    d = np.array([-0.1, 0.0, 0.05, 0.0])
    v = np.array([0.01, 0.0004, 0.0, np.nan])
    z, p, passed = decision(d, v, 0.05)
    assert np.allclose(z[:2], (d[:2] + 0.05) / np.sqrt(v[:2]))
    assert z[2] == np.inf and np.isnan(z[3])
    assert np.allclose(p[:2], stats.norm.sf(z[:2]))
    assert passed.tolist() == [False, True, True, False]
    assert decision(d, v, 0.05, test="drop")[2].tolist() == [True, True, True, False]


@pytest.mark.filterwarnings("ignore:the variance:propstab.inference.ZeroVarianceWarning")
def test_pairing_is_detected_from_the_resamples():
    X = np.random.default_rng(0).normal(size=(40, 6))
    y = X[:, 0] + np.random.default_rng(1).normal(size=40)

    def top_corr(X, y):  # the 2 features most correlated with y
        c = np.abs([np.corrcoef(X[:, j], y)[0, 1] for j in range(X.shape[1])])
        return np.argsort(-c)[:2]

    a = propstab.resample(top_corr, X, y, n_runs=20, random_state=0)
    b = propstab.resample(top_corr, X, y, n_runs=20, random_state=0)
    c = propstab.resample(top_corr, X, y, n_runs=20, random_state=5)
    assert assert_not_less_stable(a, b, margin=0.1).paired  # the same resamples
    assert assert_not_less_stable(Baseline.from_result(a), b, margin=0.1).paired
    res = assert_not_less_stable(a, c, margin=0.5, test="drop")
    assert not res.paired
    # explicit pairing is the paired two-sample test's variance
    ref = propstab.two_sample_test(
        c.selection, a.selection, paired=True, method="jackknife", test="asymptotic"
    )
    forced = assert_not_less_stable(a, c, margin=0.5, paired=True, test="drop")
    assert forced.paired and forced.standard_error**2 == pytest.approx(ref.variance)


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"margin": -0.1}, "margin"),
        ({"margin": "0.1"}, "margin"),
        ({"margin": 0.1, "paired": "yes"}, "paired"),
        ({"margin": 0.1, "test": "superiority"}, "test"),
        ({"margin": 0.1, "confidence": 0.5}, "confidence"),
        ({"margin": 0.1, "measure": "nope"}, "measure"),
    ],
)
def test_non_inferiority_refuses_bad_arguments_naming_them(kwargs, argument):
    with pytest.raises(propstab.InvalidParameterError) as caught:
        assert_not_less_stable(noisy(20), noisy(20, seed=1), **kwargs)
    assert caught.value.argument == argument


def test_non_inferiority_names_current_and_baseline_in_input_errors():
    with pytest.raises(propstab.InvalidParameterError) as caught:
        assert_not_less_stable(noisy(20, d=10), noisy(20, d=8), margin=0.1)
    assert caught.value.argument == "current, baseline"


# ------------------------------------------------------------------------------ baselines


def test_baseline_round_trip(tmp_path):
    X = np.random.default_rng(0).normal(size=(30, 5))
    y = (X[:, 0] > 0).astype(int)
    res = propstab.resample(lambda X, y: [0, 1], X, y, n_runs=6, random_state=3)
    from sklearn.linear_model import LogisticRegression

    sel = LogisticRegression(C=0.5, penalty="l1", solver="liblinear")
    b = Baseline.from_result(res, X=X, y=y, selector=sel, seed=3, measure="jaccard")
    path = b.save(tmp_path / "sub" / "base")
    assert path.endswith("base.npz")
    back = Baseline.load(path)
    assert np.array_equal(back.selection, res.Z)
    assert back.measure == "jaccard" and back.seed == 3 and back.splits == b.splits
    assert back.data == b.data and back.data["X"]["shape"] == [30, 5]
    assert "C=0.5" in back.selector and "penalty='l1'" in back.selector
    assert back.versions["propstab"] == propstab.__version__
    assert back.versions["sklearn"] is not None
    assert all(np.array_equal(t, u) for t, u in zip(back.train_indices, res.train_indices))
    assert back.stability() == propstab.stability(res.Z, "jaccard")
    assert "Stability baseline" in str(back) and repr(back).startswith("Baseline(")
    back.check_compatible(
        X=X.copy(),
        y=y,
        selector=LogisticRegression(C=0.5, penalty="l1", solver="liblinear"),
        measure="jaccard",
    )


def test_baseline_refuses_other_data_selector_and_measure_naming_each():
    X = np.arange(20.0).reshape(5, 4)
    b = Baseline.from_result(noisy(10, d=4), X=X, y=np.arange(5), selector=lambda X, y: [0])
    with pytest.raises(BaselineMismatchError) as caught:
        b.check_compatible(X=X[::-1], y=np.arange(1, 6), measure="jaccard")
    message = str(caught.value)
    assert message.startswith("X: differs from the data")
    assert (
        "; y: differs" in message
        and "measure: the baseline is compared under " "'nogueira'; got 'jaccard'" in message
    )
    with pytest.raises(BaselineMismatchError, match="X: .*4 x 5"):
        b.check_compatible(X=X.T)
    with pytest.raises(BaselineMismatchError, match="n_features: the baseline has 4"):
        assert_not_less_stable(b, noisy(10, d=5), margin=0.1)
    with pytest.raises(BaselineMismatchError, match="measure"):
        assert_not_less_stable(b, noisy(10, d=4), margin=0.1, measure="jaccard")
    with pytest.raises(BaselineMismatchError, match="^X: "):
        assert_not_less_stable(b, noisy(10, d=4), margin=0.1, X=X + 1)


def test_loading_something_else_is_refused(tmp_path):
    np.savez(tmp_path / "other.npz", a=np.zeros(3))
    with pytest.raises(ValueError, match="not a baseline file: it holds a"):
        Baseline.load(tmp_path / "other.npz")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(ValueError, match="not a baseline file"):
        Baseline.load(tmp_path / "text.npz")
    with pytest.raises(FileNotFoundError):
        Baseline.load(tmp_path / "missing.npz")


def test_fingerprints_tell_dataframes_and_object_arrays_apart():
    pd = pytest.importorskip("pandas")
    from propstab.testing import fingerprint

    df = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]})
    assert fingerprint(df) == fingerprint(df.copy())
    assert fingerprint(df) != fingerprint(df.rename(columns={"b": "c"}))
    assert fingerprint(np.array(["x", None], dtype=object)) == fingerprint(
        np.array(["x", None], dtype=object)
    )


# --------------------------------------------------------------------------------- audit


def coverage(Z):
    return float(Z.mean())


def test_assert_measure_properties_fails_with_the_shrunk_counterexample():
    with pytest.raises(AssertionError) as caught:
        assert_measure_properties(
            coverage, claims=["bounds", "maximum"], lower=0, upper=1, max_examples=30
        )
    message = str(caught.value)
    assert message.startswith("coverage claims MAXIMUM but it is violated")
    ce = message.split("shrunk counterexample [")[1].split("]")[0].split(", ")
    Z = np.array([[int(c) for c in row] for row in ce], dtype=bool)
    assert (Z == Z[0]).all() and coverage(Z) != 1  # identical rows, not the max
    assert Z.size <= 4  # shrunk: 2 runs x 2 features
    table = assert_measure_properties(
        coverage, claims=["bounds"], lower=0, upper=1, max_examples=30
    )
    assert table.status("coverage", "bounds") == "holds"
    assert (
        assert_measure_properties("jaccard", max_examples=20).status("jaccard", "bounds")
        == "holds"
    )


def test_assert_measure_properties_refuses_claims_for_a_registered_measure():
    with pytest.raises(propstab.InvalidParameterError, match="^claims: "):
        assert_measure_properties("nogueira", claims=["bounds"])


@parametrize_with_checks(["kuncheva"], max_examples=20)
def test_parametrize_with_checks_runs_each_claim(measure, check):
    row = check(measure)
    assert row.status == "holds" and row.claimed


def test_parametrize_with_checks_ids_and_a_violated_claim():
    mark = parametrize_with_checks(
        [coverage], claims=["bounds", "maximum"], lower=0, upper=1, max_examples=30
    )
    params = mark.args[1]
    assert [p.id for p in params] == ["coverage-bounds", "coverage-maximum"]
    subject, check = params[1].values
    with pytest.raises(AssertionError, match="coverage claims MAXIMUM"):
        check(subject)
    with pytest.raises(propstab.InvalidParameterError, match="^max_examples: "):
        parametrize_with_checks(["jaccard"], max_examples=0)


def test_testing_is_a_lazy_submodule():
    import sys

    out = shared.run(
        [
            sys.executable,
            "-c",
            "import sys, propstab; "
            "assert 'propstab.testing' not in sys.modules; "
            "print(propstab.testing.assert_stable.__name__); "
            "assert 'hypothesis' not in sys.modules",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert out.stdout.strip() == "assert_stable"
