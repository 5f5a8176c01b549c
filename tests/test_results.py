"""Result objects that fit in a notebook: short reprs, summaries, frames,
pandas outputs named by feature, scipy-style unpacking of test results, and confidence
intervals that invert the tests."""
from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer
from statsmodels.stats import weightstats

import propstab
from propstab import assess, estimate, one_sample_test, pairwise_tests, resample, two_sample_test
from propstab._utils.text import Summary, summary
from propstab.inference import (
    ConfidenceInterval,
    OneSampleTestResult,
    TwoSampleTestResult,
    ZeroVarianceWarning,
)
from propstab.resampling import FailedFitWarning
from propstab.selection import error_control

ALTERNATIVES = ("two-sided", "greater", "less")


def assert_short(obj, *, max_repr=250, max_lines=12, width=100):
    """repr on one line, str (the summary) a handful of lines of bounded width."""
    r, s = repr(obj), str(obj)
    assert "\n" not in r and len(r) <= max_repr, r
    lines = s.splitlines()
    assert 2 <= len(lines) <= max_lines, s
    assert max(len(line) for line in lines) <= width, s
    assert "array(" not in r + s and "..." not in r
    return r, s


# ---------------------------------------------------------------- the sizes


@pytest.fixture(scope="module")
def breast_cancer():
    return load_breast_cancer(return_X_y=True, as_frame=True)


def test_a_100_run_assessment_prints_short(breast_cancer):
    # before: repr and str were 432,727 characters (every resample's row indices)
    from sklearn.feature_selection import SelectKBest, f_classif

    X, y = breast_cancer
    X, y = X.iloc[::3], y.iloc[::3]  # 190 rows (100 default downstream fits a third of the
    # cost): every resample's row indices would still print about 100,000 characters
    a = assess(SelectKBest(f_classif, k=10), X, y, n_runs=100, random_state=0)
    r, s = assert_short(a, max_repr=160, max_lines=10)
    assert len(s) <= 800
    assert r.startswith("Assessment(measure='nogueira', stability=")
    assert "n_runs=100, n_features=30" in r
    assert "runs x features  100 x 30" in s and "subset size      10 (all runs)" in s
    low, high = a.confidence_interval(0.95)
    assert f"[{low:.4f}, {high:.4f}]" in s and f"{a.stability:.4f}" in s
    # the data stay reachable as attributes
    assert len(a.result.train_indices) == 100 and a.result.train_indices[0].size == len(X)
    # frequencies named by feature, as X was a DataFrame
    freq = a.frequencies
    assert isinstance(freq, pd.Series) and list(freq.index) == list(X.columns)
    np.testing.assert_array_equal(freq.to_numpy(), a.result.Z.mean(axis=0))
    top = freq.sort_values(ascending=False, kind="stable").index[0]
    assert f"most selected    {top} ({freq[top]:.2f})" in s
    frame = a.to_frame()
    assert list(frame.columns) == ["frequency"] and frame.index.name == "feature"
    np.testing.assert_array_equal(frame["frequency"].to_numpy(), freq.to_numpy())


def test_a_comparison_of_several_selectors_prints_short(breast_cancer):
    # before: repr and str were 1,298,536 characters
    from sklearn.feature_selection import SelectKBest, f_classif

    X, y = breast_cancer
    X, y = X.iloc[::3], y.iloc[::3]  # 190 of the 569 rows: 400 default downstream fits
    ks = (3, 5, 10, 20)  # (LogisticRegression) a third of the cost
    c = assess(
        {f"k{k}": SelectKBest(f_classif, k=k) for k in ks}, X, y, n_runs=100, random_state=0
    )
    r, s = assert_short(c, max_repr=200, max_lines=5 + len(ks))  # + what scored them
    # SelectKBest cannot score: the default downstream model (LogisticRegression) scores it,
    # so the front is not empty (it used to be (), every selector left out silently)
    front = tuple(
        k
        for k, a in c.assessments.items()
        if a.result.scored_by == "downstream LogisticRegression (default)"
    )
    assert len(front) == len(ks)
    assert c.pareto_optimal and r == (
        "Comparison(selectors=('k3', 'k5', 'k10', 'k20'), "
        "measure='nogueira', n_runs=100, n_features=30, "
        f"pareto_optimal={c.pareto_optimal!r})"
    )
    lines = s.splitlines()
    assert [line.split()[0] for line in lines[3 : 3 + len(ks)]] == [f"k{k}" for k in ks]
    frame = c.to_frame()
    assert list(frame.index) == [f"k{k}" for k in ks] and frame.index.name == "selector"
    for name, a in c.assessments.items():
        row = frame.loc[name]
        low, high = a.confidence_interval()
        assert (row["stability"], row["ci_low"], row["ci_high"]) == (a.stability, low, high)
        assert row["standard_error"] == a.estimate.standard_error
        assert row["mean_size"] == float(name[1:]) and row["n_runs"] == 100
        assert f"{a.stability:.4f}" in lines[3 + list(c.assessments).index(name)]
    freq = c.frequencies
    assert list(freq.columns) == list(c.assessments) and list(freq.index) == list(X.columns)
    np.testing.assert_array_equal(freq["k5"].to_numpy(), c.assessments["k5"].result.Z.mean(0))
    significant = sum(r["pvalue_holm"] < 0.05 for r in c.tests.rows)
    assert {r["test"] for r in c.tests.rows} == {"wald"}  # M = 100
    assert lines[-1] == (
        f"paired two-sided Wald tests, Holm's correction: "
        f"{significant} of 6 pairs differ at p < 0.05 (see .tests)"
    )
    assert_short(c.tests, max_lines=3 + 6 + 1)


def test_pareto_marks_and_scores_in_the_comparison():
    from sklearn.linear_model import Lasso

    rng = np.random.default_rng(3)
    X = rng.normal(size=(90, 6))
    y = X[:, 0] - X[:, 1] + rng.normal(size=90)
    c = assess({"a": Lasso(alpha=0.05), "b": Lasso(alpha=0.3)}, X, y, n_runs=15, random_state=1)
    frame = c.to_frame()
    assert list(frame.index[frame["pareto_optimal"]]) == list(c.pareto_optimal)
    body = str(c).splitlines()[3:5]
    for line, name in zip(body, ("a", "b")):
        assert line.endswith("*") == (name in c.pareto_optimal)
        assert f"{c.assessments[name].mean_score:.4f}" in line
    # no names: frequencies keep today's type (an ndarray), the frames a RangeIndex
    a = c.assessments["a"]
    assert isinstance(a.frequencies, np.ndarray)
    assert isinstance(c.frequencies.index, pd.RangeIndex)
    assert list(a.to_frame().index) == list(range(6))


# ---------------------------------------------------------------- resampling results


def test_resampling_result_frame_records_failed_runs():
    rng = np.random.default_rng(0)
    X = np.column_stack([np.arange(30), rng.normal(size=(30, 3))])

    def needs_row_0(X, y):
        if 0 not in X[:, 0]:
            raise ValueError("row 0 is missing")
        return [1, 2]

    with pytest.warns(FailedFitWarning):
        res = resample(needs_row_0, X, n_runs=12, random_state=2)
    failed = {f.run for f in res.failures}
    assert 0 < len(failed) < 12
    frame = res.to_frame()
    assert list(frame.index) == list(range(12)) and frame.index.name == "run"
    assert set(frame.index[frame["status"] == "failed"]) == failed
    assert frame.loc[sorted(failed), "size"].isna().all()
    assert (frame.loc[res.runs, "size"] == 2).all()
    assert list(frame.loc[res.runs, "n_train"]) == [len(t) for t in res.train_indices]
    assert list(frame.loc[res.runs, "n_test"]) == [len(t) for t in res.test_indices]
    assert frame.loc[min(failed), "error"] == "ValueError: row 0 is missing"
    r, s = assert_short(res, max_lines=8)
    assert f"n_runs=12, n_failed={len(failed)}, n_features=4" in r
    assert f"failed runs      {len(failed)} of 12 (excluded)" in s
    assert f"first failure    run {min(failed)}: ValueError: row 0 is missing" in s


def test_resampling_frequencies_follow_the_feature_names():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(40, 3)), columns=["u", "v", "w"])
    res = resample(lambda X, y: [0, 2], X, n_runs=4, random_state=0)
    assert res.frequencies.to_dict() == {"u": 1.0, "v": 0.0, "w": 1.0}
    assert res.frequencies.name == "frequency" and res.frequencies.index.name == "feature"
    plain = resample(lambda X, y: [0, 2], X.to_numpy(), n_runs=4, random_state=0)
    assert isinstance(plain.frequencies, np.ndarray)
    assert plain.frequencies.tolist() == [1.0, 0.0, 1.0]


# ---------------------------------------------------------------- estimates and tests

Z1 = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1]]
Z2 = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]


def test_estimate_repr_and_summary():
    est = estimate(Z2)
    r, s = assert_short(est, max_lines=8)
    assert r == (
        f"StabilityEstimate(measure='nogueira', statistic={est.statistic:.4g}, "
        f"standard_error={est.standard_error:.4g}, n_runs=5, n_features=4, "
        f"method='analytic')"
    )
    low, high = est.confidence_interval(0.9)  # M < 100: logit, jackknife variance
    assert (
        f"90% CI           [{low:.4f}, {high:.4f}] (logit, jackknife variance; " f"M < 100)"
    ) in est.summary(0.9)
    assert "subset size      2 (all runs)" in s
    jack = estimate([[1, 0, 0], [1, 1, 0], [1, 1, 1], [0, 1, 0]], "jaccard")
    assert "delete-one-run jackknife" in str(jack) and "1 to 3 (mean 1.75)" in str(jack)
    assert jack.interpretation is None and "Table 6.1" not in str(jack).splitlines()[2]


@pytest.mark.parametrize(
    "make",
    [
        lambda: one_sample_test(Z2, 0.1, alternative="two-sided"),
        lambda: two_sample_test(Z1, Z2),
        lambda: two_sample_test(Z1, Z2, paired=True, alternative="less", measure="jaccard"),
    ],
    ids=["one-sample", "two-sample", "paired-jackknife"],
)
def test_test_results_unpack_like_scipy(make):
    res = make()
    statistic, pvalue = res
    assert (statistic, pvalue) == (res.statistic, res.pvalue) == (res[0], res[1])
    assert len(res) == 2 and list(res) == [res.statistic, res.pvalue]
    r, s = assert_short(res, max_lines=10)  # with the estimand line
    assert f"pvalue={res.pvalue:.4g}" in r and f"p-value          {res.pvalue:.4g}" in s
    low, high = res.confidence_interval()
    assert "95% CI" in s and f"{low:.4f}" in s


def test_test_results_keep_their_fields():
    res = one_sample_test(Z2, 0.2)
    assert [f.name for f in dataclasses.fields(OneSampleTestResult)] == [
        "statistic",
        "pvalue",
        "alternative",
        "phi0",
        "estimate",
        "test",
    ]
    assert [f.name for f in dataclasses.fields(TwoSampleTestResult)] == [
        "statistic",
        "pvalue",
        "alternative",
        "paired",
        "difference",
        "variance",
        "estimates",
        "test",
        "n_resamples",
        "exact",
        "studentized",
        "combined",
    ]
    assert res == dataclasses.replace(res)


# ---------------------------------------------------------------- intervals invert tests


def _random_pairs(n_cases, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n_cases):
        M, d = int(rng.integers(5, 25)), int(rng.integers(4, 12))
        p = rng.uniform(0.05, 0.95, d)
        A, B = (rng.random((M, d)) < p).astype(int), (rng.random((M, d)) < p**2).astype(int)
        for Z in (A, B):  # no empty run, where jaccard is undefined
            Z[np.arange(M), rng.integers(0, d, M)] = 1
        yield A, B


def _excludes(ci, value):
    return value < ci.low or value > ci.high


@pytest.mark.parametrize("measure", ["nogueira", "jaccard"])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_one_sample_interval_excludes_phi0_exactly_when_p_below_alpha(alternative, measure):
    checked = 0
    for A, _ in _random_pairs(12, seed=1):
        # phi0 within the measure's range (jaccard's is [0, 1]: -0.2 raises there)
        for phi0 in (-0.2, 0.0, 0.3, 0.6, 0.9)[measure == "jaccard" :]:
            res = one_sample_test(A, phi0, alternative=alternative, measure=measure)
            if not 0 < res.estimate.variance < math.inf:
                continue
            for alpha in (0.01, 0.05, 0.1, 0.2, 0.5, 0.8):
                if abs(res.pvalue - alpha) < 1e-9:
                    continue
                ci = res.confidence_interval(1 - alpha)
                assert _excludes(ci, phi0) == (res.pvalue < alpha), (phi0, alpha, res)
                checked += 1
            # at the level 1 - p, phi0 sits on the finite end of the interval
            if 1e-6 < res.pvalue < 1 - 1e-6:  # (1 - p loses digits of tiny p)
                ci = res.confidence_interval(1 - res.pvalue)
                end = ci.high if alternative == "less" else ci.low
                if alternative == "two-sided":
                    end = ci.low if res.statistic > 0 else ci.high
                assert end == pytest.approx(phi0, abs=1e-9)
    assert checked > 200


@pytest.mark.parametrize("paired", [False, True])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_two_sample_interval_excludes_zero_exactly_when_p_below_alpha(alternative, paired):
    checked = 0
    for A, B in _random_pairs(25, seed=2):
        res = two_sample_test(A, B, paired=paired, alternative=alternative, test="wald")
        if not 0 < res.variance < math.inf:
            continue
        for alpha in (0.001, 0.01, 0.05, 0.1, 0.3, 0.6):
            if abs(res.pvalue - alpha) < 1e-9:
                continue
            assert _excludes(res.confidence_interval(1 - alpha), 0.0) == (res.pvalue < alpha)
            checked += 1
    assert checked > 100


def test_intervals_agree_with_statsmodels_z_intervals():
    # an independent implementation of the normal (Wald) interval and z-test
    names = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}
    for A, B in _random_pairs(6, seed=3):
        for alternative in ALTERNATIVES:
            one = one_sample_test(A, 0.25, alternative=alternative, test="wald")
            two = two_sample_test(A, B, alternative=alternative, test="wald")
            for center, se, res, null in (
                (one.estimate.statistic, one.estimate.standard_error, one, 0.25),
                (two.difference, math.sqrt(two.variance), two, 0.0),
            ):
                low, high = weightstats._zconfint_generic(center, se, 0.1, names[alternative])
                # statsmodels' interval, clipped to nogueira's range [-1, 1] (for the
                # difference [-2, 2])
                r = 1.0 if res is one else 2.0
                low, high = min(max(low, -r), r), max(min(high, r), -r)
                assert res.confidence_interval(0.9) == pytest.approx((low, high), rel=1e-12)
                z, p = weightstats._zstat_generic2(center - null, se, names[alternative])
                assert (res.statistic, res.pvalue) == pytest.approx((z, p), rel=1e-9)


def test_interval_shapes_follow_the_alternative():
    est = estimate(Z2)
    two = one_sample_test(Z2, 0.1, alternative="two-sided").confidence_interval(0.9)
    assert isinstance(two, ConfidenceInterval) and two == est.confidence_interval(0.9)
    greater = one_sample_test(Z2, 0.1, alternative="greater").confidence_interval(0.95)
    less = one_sample_test(Z2, 0.1, alternative="less").confidence_interval(0.95)
    # the open end is the end of nogueira's range [-1, 1]
    assert greater.high == 1.0 and less.low == -1.0
    # the finite end of a one-sided 95% interval is an end of the two-sided 90% one
    assert (greater.low, less.high) == pytest.approx(two)
    diff = two_sample_test(Z2, Z1, alternative="greater", test="wald").confidence_interval(0.95)
    assert diff.high == 2.0  # Phi_1 - Phi_2 <= 1 - (-1)
    assert diff.low == pytest.approx(0.6 - stats.norm.ppf(0.95) * math.sqrt(0.07168))
    # "less": the interval is [lo, high], its finite end above the difference
    diff = two_sample_test(Z1, Z2, alternative="less", test="wald").confidence_interval(0.95)
    assert diff.low == -2.0
    assert diff.high == pytest.approx(-0.6 + stats.norm.ppf(0.95) * math.sqrt(0.07168))
    with pytest.raises(ValueError, match="confidence_level"):
        two_sample_test(Z1, Z2).confidence_interval(1.5)


def test_zero_variance_warns_in_the_interval_not_in_the_printout():
    Z = [[1, 1, 0]] * 4
    with pytest.warns(ZeroVarianceWarning):
        res = one_sample_test(Z, 0.5)
    with pytest.warns(ZeroVarianceWarning):
        assert res.confidence_interval() == (1.0, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = str(res) + str(res.estimate)
    assert "[1.0000, inf)" not in text and text.count("[1.0000, 1.0000]") == 2


def test_undefined_estimates_print_nan():
    with pytest.warns(propstab.UndefinedMeasureWarning):
        est = estimate([[1, 0, 0], [0, 1, 1]], "kuncheva")
    assert math.isnan(est.statistic)
    assert "statistic=nan" in repr(est) and "[nan, nan]" in str(est)


# ---------------------------------------------------------------- the other results


def test_pairwise_table_prints_one_line_per_pair():
    table = pairwise_tests({"A": Z1, "B": Z2, "C": [[1, 1, 0, 0]] * 4 + [[0, 1, 1, 0]]})
    r, s = assert_short(table, max_lines=7)
    assert r == (
        "PairwiseTestTable(n_pairs=3, paired=False, alternative='two-sided', "
        "measure='nogueira')"
    )
    lines = s.splitlines()
    for line, row in zip(lines[3:], table.rows):
        assert line.split()[:2] == [row["first"], row["second"]]
        assert line.split()[-2:] == [f"{row['pvalue']:.4g}", f"{row['pvalue_holm']:.4g}"]


def test_error_control_repr_and_summary():
    ec = error_control(100, q=10, PFER=1, sampling="ss", assumption="unimodal")
    r, s = assert_short(ec, max_lines=7)
    assert r.startswith("ErrorControl(cutoff=0.76, q=10, PFER=0.98, n_features=100")
    assert "50 complementary pairs (100 subsamples)" in s and "unimodal bound" in s
    mb = error_control(1000, cutoff=0.75, q=50, sampling="mb")
    assert "Meinshausen and Buhlmann (2010)" in str(mb) and "100 subsamples" in str(mb)
    assert mb == error_control(1000, cutoff=0.75, q=50, sampling="mb")


def test_audit_table_repr_counts_and_str_is_the_table():
    table = propstab.audit(["kuncheva", "jaccard"], max_examples=15)
    counts = {
        s: sum(r.status == s for r in table)
        for s in ("holds", "violated", "refuted", "unrefuted", "skipped")
    }
    assert table.measures == ("kuncheva", "jaccard", "jaccard[correction_for_chance=exact]")
    assert repr(table) == (
        "AuditTable(n_measures=3, n_rows=15, "
        + ", ".join(f"{k}={v}" for k, v in counts.items())
        + ")"
    )
    text = str(table)
    assert text == table.summary() and text.startswith("measure")
    assert [line.split()[0] for line in text.splitlines()[2:5]] == list(table.measures)


def test_crosscheck_report_repr_is_one_line():
    from propstab.r import CrosscheckReport, CrosscheckRow

    row = CrosscheckRow(
        measure="jaccard",
        r_function="stabm::stabilityJaccard",
        cases=3,
        max_relative_difference=0.0,
        status="agree",
        expected={},
    )
    report = CrosscheckReport(
        rows=(row, row), versions={"R": "4.2"}, tolerance=1e-10, seed=0, max_examples=3
    )
    assert repr(report) == (
        "CrosscheckReport(ok=True, n_rows=2, disagree=0, tolerance=1e-10, "
        "seed=0, max_examples=3)"
    )
    assert "stabm::stabilityJaccard" in str(report) and "R 4.2" in str(report)


def test_the_summary_formatter():
    s = summary("T", [("a", "1"), ("long name", "2")], notes=["n  "])
    assert isinstance(s, Summary) and isinstance(s, str)
    assert repr(s) == str(s) == "T\na          1\nlong name  2\nn"
    assert (
        Summary("<b>").__repr__() == "<b>"
        and Summary("<b>")._repr_html_() == "<pre>&lt;b&gt;</pre>"
    )


# ---------------------------------------------------------------- the result base


def _numbers_in(text):
    import re

    return re.findall(r"-?\d+\.\d{4}", text)


@pytest.mark.parametrize(
    "make, columns",
    [
        (
            lambda: estimate(Z2),
            [
                "measure",
                "statistic",
                "standard_error",
                "n_runs",
                "n_features",
                "method",
                "ci_low",
                "ci_high",
            ],
        ),
        (
            lambda: one_sample_test(Z2, 0.1, alternative="two-sided"),
            ["statistic", "pvalue", "alternative", "phi0", "measure", "ci_low", "ci_high"],
        ),
        (
            lambda: two_sample_test(Z1, Z2, test="wald"),
            [
                "statistic",
                "pvalue",
                "alternative",
                "paired",
                "difference",
                "measure",
                "test",
                "ci_low",
                "ci_high",
            ],
        ),
        (
            lambda: pairwise_tests({"A": Z1, "B": Z2, "C": [[1, 1, 0, 0]] * 4 + [[0, 1, 1, 0]]}),
            [
                "first",
                "second",
                "stability_first",
                "stability_second",
                "difference",
                "statistic",
                "test",
                "pvalue",
                "pvalue_holm",
            ],
        ),
    ],
    ids=["StabilityEstimate", "OneSampleTestResult", "TwoSampleTestResult", "PairwiseTestTable"],
)
def test_inference_results_share_the_result_base(make, columns):
    from propstab._utils.results import Result, UnpackingResult

    res = make()
    assert isinstance(res, Result)
    assert isinstance(res, UnpackingResult) == hasattr(res, "pvalue")
    r = repr(res)
    assert "\n" not in r and r.startswith(type(res).__name__ + "(")
    assert str(res) == str(res.summary()) and type(str(res)) is str
    html = res._repr_html_()
    assert html.startswith("<pre>") and html.endswith("</pre>")
    numbers = _numbers_in(str(res))
    assert numbers and all(n in html for n in numbers)
    frame = res.to_frame()
    assert list(frame.columns) == columns
    if isinstance(res, propstab.inference.PairwiseTestTable):
        assert len(frame) == len(res) == 3
        assert frame["pvalue_holm"].tolist() == [row["pvalue_holm"] for row in res.rows]
    else:
        assert len(frame) == 1
        row = frame.iloc[0]
        assert (row["ci_low"], row["ci_high"]) == tuple(res.confidence_interval(0.95))
        assert f"{row['ci_low']:.4f}" in str(res)
        if hasattr(res, "pvalue"):
            assert row["pvalue"] == res.pvalue and row["statistic"] == res.statistic
        else:
            assert row["statistic"] == res.statistic
            assert row["standard_error"] == res.standard_error
