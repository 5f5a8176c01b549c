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
    res = assert_stable(Z, bound - 1e-3, confidence_level=confidence)
    assert res.pvalue == pytest.approx(stats.norm.sf((phi - bound + 1e-3) / math.sqrt(v)))
    assert res.pvalue < 1 - confidence
    with pytest.raises(AssertionError) as caught:
        assert_stable(Z, bound + 1e-3, confidence_level=confidence)
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
    assert assert_stable(res, 0.3).estimate.statistic == 1.0  # every run the same
    # 12 identical runs: the identical-runs bound, not p = 0 from the zero variance
    assert 0 < assert_stable(Baseline.from_result(res), 0.3).pvalue < 0.05


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        ({"at_least": "0.5"}, "at_least"),
        ({"at_least": float("nan")}, "at_least"),
        ({"at_least": 1.5}, "at_least"),  # outside nogueira's range [-1, 1]
        ({"at_least": 0.5, "confidence_level": 0.3}, "confidence_level"),
        ({"at_least": 0.5, "confidence_level": 1.0}, "confidence_level"),
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
    """Independent runs: D = phi_c - phi_b, v = v_b + v_c (thesis Thm 7); for Nogueira's
    measure the decision is the studentized bootstrap's (bootstrap-t): passes iff its
    lower bound D - t*_(0.95) sqrt(v) lies above -margin. Just above the boundary passes,
    just below fails; the normal test's boundary is close (well-behaved runs)."""
    from propstab.testing._decision import bootstrap_pvalue

    base, cur = noisy(120, seed=1), noisy(120, flip=0.1, seed=2)
    (pb, vb), (pc, vc) = nogueira_and_thm6(base), nogueira_and_thm6(cur)
    D, sd = pc - pb, math.sqrt(vb + vc)
    _, low = bootstrap_pvalue(base, cur, 0.0, "non-inferiority")
    boundary = -low
    assert boundary > 0
    assert boundary == pytest.approx(-(D - stats.norm.ppf(0.95) * sd), abs=0.01)
    res = assert_not_less_stable(base, cur, margin=boundary + 1e-3, test="non-inferiority")
    assert res.difference == pytest.approx(D)
    assert res.standard_error == pytest.approx(sd)
    assert res.pvalue == bootstrap_pvalue(base, cur, boundary + 1e-3, "non-inferiority")[0]
    assert res.pvalue < 0.05 and not res.paired and "studentized bootstrap" in res.method
    with pytest.raises(AssertionError) as caught:
        assert_not_less_stable(base, cur, margin=boundary - 1e-3, test="non-inferiority")
    message = str(caught.value)
    for text in (
        f"not shown non-inferior within margin {boundary - 1e-3:.4g}: ",
        f"baseline: nogueira = {pb:.4f}",
        f"current {pc:.4f}",
        f"difference current - baseline {D:.4f}",
        f"one-sided 95% interval [{low:.4f}, 2.0000] " f"contains -{boundary - 1e-3:.4g}",
        "test: non-inferiority test",
        "studentized bootstrap of the difference (bootstrap-t: 999 resamples",
        "with 80% power",
    ):
        assert text in message, (text, message)


def test_the_bootstrap_is_its_slow_literal_twin():
    """bootstrap_pvalue against a loop: the same resamples (the same generator draws),
    each resample's estimate and Thm 6 variance from propstab.estimate."""
    from propstab.testing._decision import bootstrap_pvalue

    base, cur = noisy(25, seed=3), noisy(30, flip=0.15, seed=4)
    B = 60
    rng = np.random.default_rng(7)
    stats_ = []
    for Z in (base, cur):
        W = rng.multinomial(len(Z), np.full(len(Z), 1 / len(Z)), size=B)
        est = propstab.estimate(Z, method="analytic")
        boot = [propstab.estimate(np.repeat(Z, w, axis=0), method="analytic") for w in W]
        stats_.append(
            (
                est.statistic,
                est.variance,
                np.array([e.statistic for e in boot]),
                np.array([e.variance for e in boot]),
            )
        )
    (pb, vb, pbs, vbs), (pc, vc, pcs, vcs) = stats_
    # the vectorised kernel: each resample's estimate and Thm 6 variance
    from propstab.testing._decision import _nogueira_and_variance

    W = np.random.default_rng(7).multinomial(25, np.full(25, 1 / 25), size=B)
    phi, var = _nogueira_and_variance(
        W.astype(float), base.astype(float), base.sum(1).astype(float)
    )
    assert np.allclose(phi, pbs) and np.allclose(var, vbs)
    D, v = pc - pb, vb + vc
    t_star = (pcs - pbs - D) / np.sqrt(vbs + vcs)
    for margin in (0.0, 0.1, 0.3):
        t = (D + margin) / math.sqrt(v)
        p_ni = (1 + np.sum(t_star >= t)) / (1 + B)
        p_drop = (1 + np.sum(t_star <= t)) / (1 + B)
        assert bootstrap_pvalue(base, cur, margin, "non-inferiority", n_resamples=B, seed=7)[
            0
        ] == pytest.approx(p_ni)
        assert bootstrap_pvalue(base, cur, margin, "drop", n_resamples=B, seed=7)[
            0
        ] == pytest.approx(p_drop)


def test_the_drop_test_fails_only_on_evidence_of_a_drop_beyond_the_margin():
    base, cur = noisy(120, seed=1), noisy(120, flip=0.2, seed=2)
    (pb, vb), (pc, vc) = nogueira_and_thm6(base), nogueira_and_thm6(cur)
    D, sd = pc - pb, math.sqrt(vb + vc)
    boundary = -(D + stats.norm.ppf(0.95) * sd)  # the largest margin that still fails
    assert boundary > 0
    with pytest.raises(
        AssertionError,
        match=r"^stability dropped by more than 0\.\d+: " r"(.|\n)*lies below -0\.\d+\n",
    ):
        assert_not_less_stable(base, cur, margin=boundary - 1e-3, test="drop")
    res = assert_not_less_stable(base, cur, margin=boundary + 1e-3, test="drop")
    assert res.pvalue == pytest.approx(stats.norm.cdf((D + boundary + 1e-3) / sd))
    assert res.passed


def test_decision_is_vectorised_and_matches_scipy():
    d = np.array([-0.1, 0.0, 0.05, 0.0])
    v = np.array([0.01, 0.0004, 0.0, np.nan])
    z, p, passed = decision(d, v, 0.05, test="non-inferiority")
    assert np.allclose(z[:2], (d[:2] + 0.05) / np.sqrt(v[:2]))
    assert z[2] == np.inf and np.isnan(z[3])
    assert np.allclose(p[:2], stats.norm.sf(z[:2]))
    # a zero variance never passes non-inferiority by certainty (p NaN, not 0)
    assert np.isnan(p[2]) and passed.tolist() == [False, True, False, False]
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
        c.selection, a.selection, paired=True, method="jackknife", test="wald"
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
        ({"margin": 0.1, "confidence_level": 0.5}, "confidence_level"),
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


# ------------------------------------------------------- what changed since the baseline


def test_a_changed_selector_is_compared_and_listed_parameter_by_parameter(tmp_path):
    """The regression a test exists to judge is not refused: a lower lasso penalty is
    compared, and the failure names the parameter; strict=True refuses it; other data
    and another measure are still refused."""
    from sklearn.linear_model import Lasso

    X = np.random.default_rng(0).normal(size=(20, 10))
    base = Baseline.from_result(noisy(100, flip=0.02, seed=1), X=X, selector=Lasso(alpha=0.3))
    base = Baseline.load(base.save(tmp_path / "b"))  # as the fixture reads it
    assert base.changes(Lasso(alpha=0.3)) == []
    assert base.changes(Lasso(alpha=0.25)) == ["Lasso(alpha: 0.3 -> 0.25)"]
    with pytest.raises(AssertionError) as caught:
        assert_not_less_stable(
            base, noisy(100, flip=0.2, seed=2), margin=0.05, X=X, selector=Lasso(alpha=0.25)
        )
    message = str(caught.value)
    assert message.startswith(
        "stability dropped by more than 0.05: baseline " f"{tmp_path / 'b.npz'}: nogueira = "
    )
    assert "changed since the baseline: Lasso(alpha: 0.3 -> 0.25)" in message
    assert "update the baseline: pytest --propstab-update-baselines" in message
    with pytest.raises(
        BaselineMismatchError, match=r"selector: Lasso\(alpha: 0.3 -> 0.25\) " r"\(strict=True"
    ):
        assert_not_less_stable(
            base, noisy(100, seed=2), margin=0.05, selector=Lasso(alpha=0.25), strict=True
        )
    with pytest.raises(BaselineMismatchError, match="X: differs"):
        assert_not_less_stable(
            base, noisy(100, seed=2), margin=0.05, X=X + 1, selector=Lasso(alpha=0.25)
        )


def test_a_function_selector_is_fingerprinted_by_its_code_not_its_name():
    from propstab.testing import selector_description

    namespace = {}
    exec("def f(X, y):\n    return [0, 1]\n", namespace)
    first = namespace["f"]
    exec("def f(X, y):\n    return [0, 2]\n", namespace)  # same name, other body
    b = Baseline.from_result(noisy(10), selector=first)
    assert selector_description(first)["code"] != selector_description(namespace["f"])["code"]
    assert b.changes(first) == []
    [change] = b.changes(namespace["f"])
    assert change.startswith("function f: its code changed (sha256 ")


def test_an_old_baseline_without_a_description_is_read_from_its_selector_text(tmp_path):
    from sklearn.linear_model import Lasso

    b = Baseline.from_result(noisy(10), selector=Lasso(alpha=0.3))
    old = Baseline(b.selection, selector=b.selector)  # as format 1 stored it
    back = Baseline.load(old.save(tmp_path / "old"))
    assert back.changes(Lasso(alpha=0.25), versions=False) == ["Lasso(alpha: 0.3 -> 0.25)"]


def test_versions_that_changed_are_listed():
    b = Baseline.from_result(noisy(10))
    import dataclasses

    old = dataclasses.replace(b, versions={**b.versions, "numpy": "0.0.1"})
    assert old.changes() == [f"numpy 0.0.1 -> {np.__version__}"]


# -------------------------------------------------------------- no pass by certainty


def scenario(M, rng, d=18):
    """The selector of true stability 0.897: {1, 2, 3} with probability 0.849, else
    {1, 2, 4}, out of 18 features."""
    Z = np.zeros((M, d), dtype=bool)
    Z[:, :2] = True
    alt = rng.random(M) >= 0.849
    Z[~alt, 2] = True
    Z[alt, 3] = True
    return Z


def test_the_scenarios_population_stability_is_0897():
    from propstab.testing._decision import mixture_stability  # noqa: F401 (importable)

    p = np.array([1, 1, 0.849, 0.151] + [0] * 14)
    phi = 1 - (p * (1 - p)).mean() / (p.mean() * (1 - p.mean()))
    assert phi == pytest.approx(0.8974, abs=1e-4)


@pytest.mark.parametrize("M", [10, 30, 100])
def test_identical_runs_do_not_pass_by_certainty(M):
    """A selector of stability 0.897 passed at_least=0.9 in 17 % of tries at M = 10 with
    the zero variance of identical runs (P(all identical) = 0.849^10 = 0.195). With the
    identical-runs bound the rate is at most 5 % + 3 binomial SE at M = 10, 30, 100."""
    rng = np.random.default_rng(M)
    R = 200
    passed = 0
    for _ in range(R):
        try:
            assert_stable(scenario(M, rng), at_least=0.9)
            passed += 1
        except AssertionError:
            pass
    assert passed / R <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / R)


def test_identical_runs_pass_only_what_the_exact_bound_supports():
    from propstab.testing._decision import coincidence_probability, identical_bound, share_bound

    Z = np.zeros((30, 18), dtype=bool)
    Z[:, :3] = True
    low = identical_bound(Z[0], 30, 0.05)
    share = share_bound(0.05, 30)
    assert coincidence_probability(share, 30) == pytest.approx(0.05)
    # the bound is the closed form of the least favourable mixture: share on the set,
    # the rest spread over the 15 other features
    p = np.r_[[share] * 3, [(1 - share) * 3 / 15] * 15]
    assert low == pytest.approx(1 - (p * (1 - p)).mean() / (p.mean() * (1 - p.mean())))
    res = assert_stable(Z, at_least=low - 1e-3)
    assert 0 < res.pvalue < 0.05 and res.test == "identical-runs bound"
    with pytest.raises(AssertionError, match="all 30 runs selected the same 3 features"):
        assert_stable(Z, at_least=low + 1e-3)
    # the same for another measure (a synthetic least favourable population)
    assert assert_stable(Z, at_least=0.2, measure="jaccard").pvalue > 0
    # non-inferiority with identical current runs: no p = 0
    base = noisy(30, d=18, flip=0.01)
    res = assert_not_less_stable(base, Z, margin=0.5, test="non-inferiority")
    assert 0 < res.pvalue < 0.05 and "identical" in res.method
    with pytest.raises(AssertionError, match="not shown non-inferior within margin 0.05"):
        assert_not_less_stable(Z, Z.copy(), margin=0.05, test="non-inferiority")


def test_a_drop_test_against_an_identical_baseline_uses_its_bound():
    """Baseline runs all identical by chance (true stability below 1): the drop test does
    not take the baseline for certain (a current run of the same selector passes)."""
    rng = np.random.default_rng(5)
    base = np.zeros((10, 18), dtype=bool)
    base[:, :3] = True
    current = scenario(100, rng)
    res = assert_not_less_stable(base, current, margin=0.05)
    assert res.passed and "baseline's 10 runs are identical" in res.method


# -------------------------------------------------------------------------- the planner


def test_runs_needed_solves_the_power_equation_and_says_when_the_baseline_limits():
    from propstab.testing import runs_needed

    base = noisy(200, flip=0.05, seed=3)
    phi, v = nogueira_and_thm6(base)
    z = stats.norm.ppf(0.95) + stats.norm.ppf(0.8)
    plan = runs_needed(base, margin=0.05, drop=0.15)
    target = (0.1 / z) ** 2
    assert plan.baseline_runs is None
    assert plan.current_runs == math.ceil(200 * v / (target - v))
    current, baseline = plan  # unpacks
    assert (current, baseline) == (plan.current_runs, None)
    small = runs_needed(base[:40], margin=0.02, test="non-inferiority")
    assert small.current_runs is None and small.baseline_runs > 40
    assert "remake the baseline with at least" in small.message()
    with pytest.raises(propstab.InvalidParameterError, match="drop: "):
        runs_needed(base, margin=0.1, drop=0.05)


def test_a_non_inferiority_failure_uses_the_planner():
    with pytest.raises(AssertionError) as caught:
        assert_not_less_stable(
            noisy(40, seed=1), noisy(40, seed=2), margin=0.02, test="non-inferiority"
        )
    assert "no number of current runs decides it; remake the baseline with at least" in str(
        caught.value
    )


def test_confidence_is_renamed_confidence_level_and_still_works():
    Z = noisy(100, flip=0.02)
    with pytest.warns(DeprecationWarning, match="confidence= is renamed confidence_level="):
        old = assert_stable(Z, at_least=0.5, confidence=0.9)
    assert old.pvalue == assert_stable(Z, at_least=0.5, confidence_level=0.9).pvalue
    with pytest.warns(DeprecationWarning):
        res = assert_not_less_stable(Z, Z, margin=0.1, confidence=0.9)
    assert res.confidence_level == 0.9


def test_numbers_print_without_a_negative_zero():
    res = assert_not_less_stable(noisy(100), noisy(100, seed=1), margin=0.0)
    text = res.message() + str(res.summary())
    assert "-0 " not in text and "-0\n" not in text and not text.endswith("-0")
    assert "H0: Phi_current >= Phi_baseline - 0;" in text
