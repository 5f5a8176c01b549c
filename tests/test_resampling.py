"""The resampling protocol: schemes, selectors, reproducibility, parallel and Dask
execution, failure reporting, and assess() from data to a stability estimate."""

import numpy as np
import pandas as pd
import pytest

import propstab
import shared  # tests/shared.py: the data and selectors the tests share
from propstab import assess, resample
from propstab.resampling import (
    Assessment,
    Comparison,
    FailedFitWarning,
    ResamplingResult,
    UnscoredWarning,
    pareto_front,
)


def top3(X, y):
    return np.argsort(-np.abs(np.asarray(X).T @ (y - y.mean())))[:3]


# ----------------------------------------------------------------------------------
# schemes


def test_bootstrap_draws_n_with_replacement_and_holds_out_the_out_of_bag_rows():
    X, y = shared.regression(n=50)
    res = resample(top3, X, y, n_runs=20, random_state=0)
    for train, test in zip(res.train_indices, res.test_indices):
        assert train.size == 50
        np.testing.assert_array_equal(test, np.setdiff1d(np.arange(50), train))
    assert any(np.unique(t).size < 50 for t in res.train_indices)  # repeats occur


@pytest.mark.parametrize(
    "scheme, fraction, size",
    [
        ("subsample", None, 25),
        ("subsample", 0.3, 15),
        ("leave_out", None, 49),
        ("leave_out", 0.2, 41),
    ],
)
def test_subsample_and_leave_out_sizes(scheme, fraction, size):
    X, y = shared.regression(n=51)
    res = resample(top3, X, y, n_runs=6, scheme=scheme, fraction=fraction, random_state=1)
    for train, test in zip(res.train_indices, res.test_indices):
        assert train.size == size and np.unique(train).size == size
        assert np.intersect1d(train, test).size == 0 and train.size + test.size == 51


def test_complementary_pairs_are_disjoint_halves():
    X, y = shared.regression(n=51)
    res = resample(top3, X, y, n_runs=8, scheme="complementary_pairs", random_state=2)
    tr = res.train_indices
    for a, b in zip(tr[0::2], tr[1::2]):
        assert a.size == b.size == 25 and np.intersect1d(a, b).size == 0
    with pytest.raises(ValueError, match="even"):
        resample(top3, X, y, n_runs=7, scheme="complementary_pairs")


def test_stratified_subsample_keeps_class_counts():
    X, y = shared.classification(n=100)
    counts = np.bincount(y)
    res = resample(
        lambda X, y: [0], X, y, n_runs=5, scheme="subsample", stratify=True, random_state=0
    )
    for train in res.train_indices:
        np.testing.assert_array_equal(np.bincount(y[train]), counts // 2)
    res = resample(lambda X, y: [0], X, y, n_runs=4, stratify=y, random_state=0)
    for train in res.train_indices:  # stratified bootstrap
        np.testing.assert_array_equal(np.bincount(y[train]), counts)


def test_callable_scheme():
    X, y = shared.regression(n=30)

    def first_halves(n, n_runs, rng):
        for i in range(n_runs):
            yield np.arange(i, i + n // 2)

    res = resample(top3, X, y, n_runs=3, scheme=first_halves)
    np.testing.assert_array_equal(res.train_indices[1], np.arange(1, 16))
    with pytest.raises(ValueError, match="n_runs=4"):
        resample(top3, X, y, n_runs=4, scheme=lambda n, m, rng: [np.arange(5)])


# ----------------------------------------------------------------------------------
# selectors


def test_estimator_selection_matches_a_slow_twin():
    from sklearn.linear_model import Lasso

    X, y = shared.regression()
    res = resample(Lasso(alpha=0.2), X, y, n_runs=12, random_state=4, keep_importances=True)
    for i, (train, test) in enumerate(zip(res.train_indices, res.test_indices)):
        est = Lasso(alpha=0.2).fit(X[train], y[train])
        np.testing.assert_array_equal(res.Z[i], est.coef_ != 0)
        np.testing.assert_allclose(res.importances[i], np.abs(est.coef_))
        assert res.scores[i] == pytest.approx(est.score(X[test], y[test]))
    assert res.mean_score == pytest.approx(res.scores.mean())


def test_sklearn_selector_and_top_k_and_threshold():
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.feature_selection import SelectKBest, f_regression

    X, y = shared.regression()
    res = resample(SelectKBest(f_regression, k=2), X, y, n_runs=5, random_state=0)
    assert (res.selection.row_sizes == 2).all() and res.scores is not None
    forest = RandomForestRegressor(n_estimators=5, random_state=0)
    res = resample(forest, X, y, n_runs=4, top_k=3, random_state=0)
    assert (res.selection.row_sizes == 3).all()
    res = resample(forest, X, y, n_runs=4, threshold=0.2, random_state=0, keep_importances=True)
    np.testing.assert_array_equal(res.Z, res.importances > 0.2)
    with pytest.raises(
        ValueError,
        match="selector: .*threshold= or top_k=.*the other 2 runs " "were not attempted",
    ):
        resample(forest, X, y, n_runs=3, random_state=0)  # after the first run, no warning


def test_function_selectors_indices_or_mask_and_no_scores():
    X, y = shared.regression()
    a = resample(top3, X, y, n_runs=6, random_state=5)
    b = resample(
        lambda X, y: np.isin(np.arange(X.shape[1]), top3(X, y)), X, y, n_runs=6, random_state=5
    )
    np.testing.assert_array_equal(a.Z, b.Z)
    assert a.scores is None and np.isnan(a.mean_score)
    assert (a.selection.row_sizes == 3).all()


def test_multiclass_coef_uses_the_norm_over_classes():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 5))
    y = np.argmax(X[:, :3] + 0.3 * rng.normal(size=(150, 3)), axis=1)
    res = resample(
        LogisticRegression(max_iter=500),
        X,
        y,
        n_runs=3,
        top_k=3,
        random_state=0,
        keep_importances=True,
    )
    est = LogisticRegression(max_iter=500).fit(X[res.train_indices[0]], y[res.train_indices[0]])
    # scikit-learn's convention: SelectFromModel's norm_order=1, the L1 norm over classes
    np.testing.assert_allclose(res.importances[0], np.linalg.norm(est.coef_, ord=1, axis=0))
    assert res.Z[:, :3].all()


def test_scoring_by_name():
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss

    X, y = shared.classification()
    est = LogisticRegression(penalty="l1", solver="liblinear", C=0.5, random_state=0)
    res = resample(est, X, y, n_runs=3, scoring="neg_log_loss", random_state=0)
    train, test = res.train_indices[0], res.test_indices[0]
    fitted = LogisticRegression(penalty="l1", solver="liblinear", C=0.5, random_state=0).fit(
        X[train], y[train]
    )
    assert res.scores[0] == pytest.approx(-log_loss(y[test], fitted.predict_proba(X[test])))


def test_dataframe_names_features():
    X, y = shared.regression()
    df = pd.DataFrame(X, columns=[f"gene{j}" for j in range(X.shape[1])])
    res = resample(top3, df, pd.Series(y), n_runs=4, random_state=0)
    assert res.feature_names == tuple(df.columns)
    assert res.selection.feature_names == tuple(df.columns)


def test_selector_is_not_modified():
    from sklearn.linear_model import Lasso

    X, y = shared.regression()
    est = Lasso(alpha=0.3)
    resample(est, X, y, n_runs=3, random_state=0)
    assert not hasattr(est, "coef_")


# ----------------------------------------------------------------------------------
# reproducibility and execution


def test_reproducible_and_independent_of_n_jobs():
    from sklearn.linear_model import Lasso

    X, y = shared.regression()
    a = resample(Lasso(alpha=0.1), X, y, n_runs=8, random_state=11)
    b = resample(Lasso(alpha=0.1), X, y, n_runs=8, random_state=11, n_jobs=2)
    c = resample(Lasso(alpha=0.1), X, y, n_runs=8, random_state=11, backend="threading", n_jobs=2)
    for other in (b, c):
        np.testing.assert_array_equal(a.Z, other.Z)
        np.testing.assert_array_equal(a.scores, other.scores)
    d = resample(Lasso(alpha=0.1), X, y, n_runs=8, random_state=12)
    assert any(not np.array_equal(s, t) for s, t in zip(a.train_indices, d.train_indices))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_dask_distributed_backend_on_a_local_cluster():
    from sklearn.linear_model import Lasso

    X, y = shared.regression()
    local = resample(Lasso(alpha=0.1), X, y, n_runs=6, random_state=3)
    with shared.local_cluster(n_workers=2, threads_per_worker=1, processes=False) as client:
        res = resample(Lasso(alpha=0.1), X, y, n_runs=6, random_state=3, backend="dask", n_jobs=2)
        assert len(client.scheduler_info()["workers"]) == 2
    np.testing.assert_array_equal(res.Z, local.Z)
    np.testing.assert_allclose(res.scores, local.scores)


def test_progress_bar_only_when_asked_or_interactive(capsys):
    X, y = shared.regression()
    resample(top3, X, y, n_runs=25, random_state=0)
    assert capsys.readouterr().err == ""  # not a terminal: no bar
    resample(top3, X, y, n_runs=25, random_state=0, progress=True)
    assert "25/25" in capsys.readouterr().err


# ----------------------------------------------------------------------------------
# failures


def test_failed_runs_are_reported_and_excluded():
    X, y = shared.regression()
    calls = []

    def flaky(X_, y_):
        calls.append(1)
        if len(calls) % 3 == 0:
            raise np.linalg.LinAlgError("singular matrix")
        return top3(X_, y_)

    with pytest.warns(FailedFitWarning, match="3 of 9 runs failed"):
        res = resample(flaky, X, y, n_runs=9, random_state=0)
    assert [f.run for f in res.failures] == [2, 5, 8]
    assert {f.error_type for f in res.failures} == {"LinAlgError"}
    assert res.failures[0].message == "singular matrix"
    assert res.runs.tolist() == [0, 1, 3, 4, 6, 7] and res.selection.n_runs == 6
    assert res.n_runs == 9 and len(res.train_indices) == 6


def test_all_failed_raises_with_the_first_error():
    X, y = shared.regression()

    def broken(X_, y_):
        raise ValueError("no luck")

    with pytest.raises(ValueError, match="selector: .*ValueError: no luck"):
        resample(broken, X, y, n_runs=4)


@pytest.mark.parametrize(
    "kwargs, exc, message",
    [
        (dict(n_runs=1), ValueError, "n_runs"),
        (dict(scheme="jackknife"), ValueError, "scheme"),
        (dict(scheme="subsample", fraction=1.5), ValueError, "fraction"),
        (dict(scheme="bootstrap", fraction=0.5), ValueError, "fraction"),
        (dict(top_k=99), ValueError, "top_k"),
        (dict(stratify=[0, 1]), ValueError, "stratify"),
        (dict(scoring=3), TypeError, "scoring"),
    ],
)
def test_invalid_arguments(kwargs, exc, message):
    X, y = shared.regression()
    with pytest.raises(exc, match=message):
        resample(top3, X, y, **kwargs)


def test_invalid_selector_and_shapes():
    X, y = shared.regression()
    with pytest.raises(TypeError, match="selector"):
        resample(42, X, y)
    with pytest.raises(ValueError, match="y: must have one value"):
        resample(top3, X, y[:-1])
    with pytest.raises(ValueError, match="X: must be 2-dimensional"):
        resample(top3, X[:, 0], y)


# ----------------------------------------------------------------------------------
# assess and the Pareto front


def test_assess_gives_the_estimate_of_the_resampled_matrix():
    from sklearn.linear_model import Lasso

    X, y = shared.regression()
    a = assess(Lasso(alpha=0.15), X, y, n_runs=20, random_state=2)  # 20: the interval's level
    assert isinstance(a, Assessment) and isinstance(a.result, ResamplingResult)
    direct = propstab.estimate(a.result.selection, measure="nogueira")
    assert a.stability == direct.statistic
    assert a.confidence_interval(0.9) == direct.confidence_interval(confidence_level=0.9)
    assert a.stability == propstab.stability(a.result.Z)
    np.testing.assert_array_equal(a.frequencies, a.result.Z.mean(axis=0))
    assert a.mean_score == pytest.approx(np.mean(a.result.scores))
    with pytest.raises(ValueError, match="confidence_level"):
        a.confidence_interval(1.5)


def test_assess_several_selectors_paired_with_pareto_front_and_tests():
    from sklearn.linear_model import Lasso

    X, y = shared.regression()
    selectors = {"weak": Lasso(alpha=0.01), "medium": Lasso(alpha=0.2), "strong": Lasso(alpha=0.6)}
    comp = assess(selectors, X, y, n_runs=15, random_state=9)
    assert isinstance(comp, Comparison)
    runs = [a.result.train_indices for a in comp.assessments.values()]
    for other in runs[1:]:  # the same resamples: paired
        assert all(np.array_equal(s, t) for s, t in zip(runs[0], other))
    # 5 runs: the weak lasso's varying number of noise features shows in nogueira
    with pytest.warns(VaryingSizesWarning, match="subset sizes vary"):
        unseeded = assess(selectors, X, y, n_runs=5, random_state=np.random.default_rng(1))
    runs = [a.result.train_indices for a in unseeded.assessments.values()]
    assert all(np.array_equal(s, t) for s, t in zip(runs[0], runs[1]))
    stab = [comp.assessments[k].stability for k in selectors]
    score = [comp.assessments[k].mean_score for k in selectors]
    front = pareto_front(score, stab)
    assert comp.pareto_optimal == tuple(k for k, f in zip(selectors, front) if f)
    expected = propstab.pairwise_tests(
        {k: comp.assessments[k].result.selection for k in selectors}, paired=True
    )
    assert [r["pvalue"] for r in comp.tests.rows] == [r["pvalue"] for r in expected.rows]


def test_pareto_front_against_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(20):
        a, b = rng.integers(0, 5, size=(2, 12)).astype(float)
        mask = pareto_front(a, b)
        for i in range(12):
            dominated = any(
                a[j] >= a[i] and b[j] >= b[i] and (a[j] > a[i] or b[j] > b[i]) for j in range(12)
            )
            assert mask[i] == (not dominated)
    with pytest.warns(UnscoredWarning, match="left out of the front .*: point 1"):
        assert pareto_front([1.0, np.nan], [0.0, 5.0]).tolist() == [True, False]


def test_docs_page_examples_run():
    import doctest
    import pathlib

    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "from_data.md"
    result = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
    )
    assert result.attempted >= 5
    assert result.failed == 0


# ----------------------------------------------------------------------------------
# fail on the first run, downstream scores, honest comparisons, runs until a
# target half-width, progress

from sklearn.ensemble import RandomForestRegressor  # noqa: E402
from sklearn.feature_selection import RFE, SelectKBest, f_classif  # noqa: E402
from sklearn.linear_model import LogisticRegression, Ridge  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from propstab.inference import VaryingSizesWarning, ZeroVarianceWarning  # noqa: E402
from propstab.resampling import HalfwidthNotReachedWarning  # noqa: E402

FITS = []


class CountingForest(RandomForestRegressor):
    """A forest counting its fits (clones share the module-level list)."""

    def fit(self, X, y, sample_weight=None):
        FITS.append(1)
        return super().fit(X, y, sample_weight)


class CountingScaler(StandardScaler):
    def fit(self, X, y=None, sample_weight=None):
        FITS.append(1)
        return super().fit(X, y, sample_weight)


class CountingL1Lbfgs(LogisticRegression):
    """penalty='l1' with the default lbfgs solver: every fit raises ValueError."""

    def fit(self, X, y, sample_weight=None):
        FITS.append(1)
        return super().fit(X, y, sample_weight)


def test_a_forest_without_a_rule_fails_after_one_fit():
    X, y = shared.diabetes()
    FITS.clear()
    with pytest.raises(
        ValueError,
        match=r"selector: CountingForest has feature_importances_; "
        r"pass threshold= or top_k= .*the other 99 runs "
        r"were not attempted",
    ):
        resample(CountingForest(n_estimators=5, random_state=0), X, y, n_runs=100, random_state=0)
    assert len(FITS) == 1


def test_a_misconfigured_pipeline_fails_after_one_fit():
    from sklearn.decomposition import PCA

    X, y = shared.diabetes()
    FITS.clear()
    with pytest.raises(TypeError, match=r"selector: the Pipeline step 'pca' .*not a selector"):
        assess(make_pipeline(CountingScaler(), PCA(3), Ridge()), X, y, n_runs=50, random_state=0)
    assert len(FITS) == 1
    FITS.clear()  # a fit that fails on the full data too: 2 fits
    Xc, yc = shared.breast_cancer()
    with pytest.raises(
        ValueError,
        match="selector: the first run failed and so does a fit on "
        "the full data .*ValueError: .*l1",
    ):
        resample(CountingL1Lbfgs(penalty="l1"), Xc, yc, n_runs=40, random_state=0)
    assert len(FITS) == 2


def test_a_first_run_failing_on_its_resample_only_is_one_failed_run():
    X = np.column_stack([np.arange(40.0), np.random.default_rng(0).normal(size=(40, 3))])
    seen = []

    def needs_row_0(X_, y_):  # fails on the resamples without row 0, not on X
        seen.append(1)
        if 0 not in X_[:, 0]:
            raise ValueError("row 0 is missing")
        return [1, 2]

    rows = [np.arange(1, 40)] + [np.arange(40)] * 5  # run 0 lacks row 0
    with pytest.warns(FailedFitWarning, match="1 of 6 runs failed"):
        res = resample(needs_row_0, X, n_runs=6, scheme=lambda n, m, rng: rows)
    assert res.runs.tolist() == [1, 2, 3, 4, 5] and len(seen) == 7  # 6 runs + the full data


def test_a_selector_that_cannot_score_is_scored_downstream(breast_cancer):
    X, y = breast_cancer
    res = resample(
        SelectKBest(f_classif, k=10), X, y, n_runs=4, scoring="accuracy", random_state=0
    )
    assert res.scored_by == "downstream LogisticRegression (default)"
    assert np.isfinite(res.scores).all() and 0.85 < res.mean_score <= 1
    # one run by hand: the downstream model on the selected columns of the split
    model = Ridge(alpha=3.0)
    res = resample(SelectKBest(f_classif, k=5), X, y, n_runs=3, random_state=1, downstream=model)
    train, test, mask = res.train_indices[0], res.test_indices[0], res.Z[0]
    twin = Ridge(alpha=3.0).fit(X.iloc[train, mask], y.iloc[train])
    assert res.scores[0] == pytest.approx(twin.score(X.iloc[test, mask], y.iloc[test]))
    assert res.scored_by == "downstream Ridge"
    Xd, yd = shared.diabetes()
    res = resample(SelectKBest(k=3), Xd, yd, n_runs=3, random_state=0)
    assert res.scored_by == "downstream Ridge (default)" and np.isfinite(res.mean_score)
    res = resample(SelectKBest(k=3), Xd, yd, n_runs=3, random_state=0, downstream=False)
    assert res.scores is None and "downstream=False" in res.unscored_reason
    res = resample(top3, Xd, yd, n_runs=3, random_state=0, downstream=Ridge())
    assert np.isfinite(res.scores).all()
    with pytest.raises(TypeError, match="downstream: must be an estimator"):
        resample(top3, Xd, yd, n_runs=3, downstream="ridge")


def test_the_issue_comparison_keeps_the_most_stable_selector(breast_cancer):
    """{SelectKBest k=10, L1-logistic, RFE k=10} on breast cancer: SelectKBest, the most
    stable, used to be dropped from the Pareto front without a word (no score)."""
    X, y = breast_cancer
    selectors = {
        "kbest10": SelectKBest(f_classif, k=10),
        "l1": make_pipeline(
            StandardScaler(), LogisticRegression(penalty="l1", solver="liblinear", C=0.05)
        ),
        "rfe10": RFE(LogisticRegression(solver="liblinear"), n_features_to_select=10, step=5),
    }
    c = assess(selectors, X, y, n_runs=20, random_state=0, scoring="accuracy")
    stab = {k: a.stability for k, a in c.assessments.items()}
    assert max(stab, key=stab.get) == "kbest10"
    assert np.isfinite(c.assessments["kbest10"].mean_score) and not c.left_out
    assert "kbest10" in c.pareto_optimal
    assert list(c.frequencies.index) == list(X.columns)  # names flow to every output


def test_a_selector_without_a_score_is_left_out_loudly():
    import matplotlib

    matplotlib.use("Agg")
    from propstab.plots import plot_pareto_front

    X, y = shared.regression()
    with pytest.warns(UnscoredWarning, match="'top3': a function has no model to score"):
        # 20 runs: the plot's intervals reach their level
        c = assess({"lasso": shared.lasso(), "top3": top3}, X, y, n_runs=20, random_state=0)
    assert "top3" in c.left_out and "top3" not in c.pareto_optimal
    assert c.pareto_optimal == ("lasso",)
    assert "left out of the Pareto front: top3 (a function has no model" in str(c)
    assert c.to_frame().loc["top3", "left_out"].startswith("a function has no model")
    assert "left_out=('top3',)" in repr(c)
    ax = plot_pareto_front(c)
    assert ax.get_legend().get_title().get_text().startswith("left out: top3 (a function")
    assert sorted(t.get_text() for t in ax.texts) == ["lasso"]


def test_target_halfwidth_adds_runs_until_reached_reproducibly():
    X, y = shared.regression()
    a = assess(shared.lasso(), X, y, n_runs=10, random_state=3, target_halfwidth=0.05)
    low, high = a.confidence_interval(0.95)
    assert (high - low) / 2 == pytest.approx(a.halfwidth) and a.halfwidth <= 0.05
    M = a.result.n_runs
    assert M > 10
    again = assess(shared.lasso(), X, y, n_runs=10, random_state=3, target_halfwidth=0.05)
    np.testing.assert_array_equal(again.result.Z, a.result.Z)
    plain = resample(shared.lasso(), X, y, n_runs=M, random_state=3)  # the same stream of runs
    np.testing.assert_array_equal(plain.Z, a.result.Z)
    assert f"target half-width  0.05 reached: {a.halfwidth:.4g} after {M} runs" in str(a)


def test_target_halfwidth_warns_at_the_budget():
    X, y = shared.regression()
    with pytest.warns(
        HalfwidthNotReachedWarning,
        match=r"target_halfwidth: the 95% interval's half-width is 0\.\d+ after "
        r"max_runs=30 runs, above the target 0\.001",
    ):
        a = assess(
            shared.lasso(), X, y, n_runs=10, random_state=0, target_halfwidth=0.001, max_runs=30
        )
    assert a.result.n_runs == 30 and a.halfwidth > 0.001
    with pytest.raises(ValueError, match="max_runs: only used with target_halfwidth"):
        assess(shared.lasso(), X, y, n_runs=10, max_runs=30)
    with pytest.raises(ValueError, match="max_runs: must be at least n_runs=10"):
        assess(shared.lasso(), X, y, n_runs=10, target_halfwidth=0.1, max_runs=5)
    from sklearn.linear_model import Lasso

    c = assess(
        {"a": Lasso(alpha=0.05), "b": Lasso(alpha=0.3)},
        X,
        y,
        n_runs=10,
        random_state=0,
        target_halfwidth=0.08,
        max_runs=400,
    )
    assert all(x.halfwidth <= 0.08 for x in c.assessments.values())
    assert len({x.result.n_runs for x in c.assessments.values()}) == 1  # paired runs


def test_progress_for_resample_and_assess(capsys):
    X, y = shared.regression()
    assess(
        {"a": shared.lasso(), "b": top3},
        X,
        y,
        n_runs=12,
        random_state=0,
        progress=True,
        downstream=Ridge(),
        measure="conger",  # the lasso's sizes vary
    )
    err = capsys.readouterr().err
    assert "assess" in err and "24/24" in err
    assess(shared.lasso(), X, y, n_runs=12, random_state=0, progress=False, measure="conger")
    resample(shared.lasso(), X, y, n_runs=12, random_state=0)  # not interactive: silent
    assert capsys.readouterr().err == ""
    resample(shared.lasso(), X, y, n_runs=12, random_state=0, progress=True)
    assert "resample" in capsys.readouterr().err


# ----------------------------------------------------------------------------------
# seeds that reproduce, like-for-like comparisons, a classifier on a
# continuous y, scoring failures, splitters and fractions, assess's signature

from sklearn.ensemble import RandomForestClassifier  # noqa: E402


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize(
    "make",
    [lambda: RandomForestClassifier(n_estimators=20), lambda: shared.l1_logistic_pipeline(C=0.1)],
    ids=["forest", "l1-liblinear-pipeline"],
)
def test_random_state_reproduces_estimators_with_randomness_of_their_own(make):
    """The issue's scenario 3: two identical calls with random_state=0 (the estimator's
    own random_state None) give the same Z and scores, also with n_jobs=2 (loky)."""
    X, y = shared.breast_cancer()
    top_k = 5 if isinstance(make(), RandomForestClassifier) else None
    first = resample(make(), X, y, n_runs=10, top_k=top_k, random_state=0)
    second = resample(make(), X, y, n_runs=10, top_k=top_k, random_state=0)
    np.testing.assert_array_equal(first.Z, second.Z)
    np.testing.assert_array_equal(first.scores, second.scores)
    assert first.stability() == second.stability()
    parallel = resample(
        make(), X, y, n_runs=10, top_k=top_k, random_state=0, n_jobs=2, backend="loky"
    )
    np.testing.assert_array_equal(first.Z, parallel.Z)
    np.testing.assert_array_equal(first.scores, parallel.scores)


def test_random_state_reproduces_assess_batches_with_a_forest():
    """target_halfwidth's batches use the seeds of the runs they hold: the result equals
    resample(n_runs=M) with the same random_state, for a forest seeded per run."""
    X, y = shared.breast_cancer()
    forest = RandomForestClassifier(n_estimators=5, max_depth=3)
    a = assess(
        forest, X, y, n_runs=10, top_k=5, random_state=4, target_halfwidth=0.08, max_runs=40
    )
    M = a.result.n_runs
    assert M > 10
    plain = resample(forest, X, y, n_runs=M, top_k=5, random_state=4)
    np.testing.assert_array_equal(plain.Z, a.result.Z)
    np.testing.assert_array_equal(plain.scores, a.result.scores)


def test_a_legacy_RandomState_is_accepted_by_resample_and_assess():
    X, y = shared.breast_cancer()
    forest = RandomForestClassifier(n_estimators=5)
    one = resample(forest, X, y, n_runs=4, top_k=5, random_state=np.random.RandomState(2))
    two = resample(forest, X, y, n_runs=4, top_k=5, random_state=np.random.RandomState(2))
    np.testing.assert_array_equal(one.Z, two.Z)
    c = assess(
        {"a": forest, "b": RandomForestClassifier(n_estimators=3)},
        X,
        y,
        n_runs=4,
        top_k=5,
        random_state=np.random.RandomState(2),
    )
    first, second = (r.result for r in c.assessments.values())
    assert all(np.array_equal(s, t) for s, t in zip(first.train_indices, second.train_indices))


def test_downstream_scores_every_selector_like_for_like():
    """The issue's scenario 4 on diabetes: with downstream=Ridge() the two lasso entries,
    whose selections are the same, get the same scores, each equal to a Ridge fitted by
    hand on the selected columns of the run's training rows; the summary, frame and
    Pareto plot say that Ridge scored them, with the score's standard error."""
    import matplotlib

    matplotlib.use("Agg")
    from sklearn.feature_selection import SelectFromModel, f_regression
    from sklearn.linear_model import Lasso
    from propstab.plots import plot_pareto_front

    X, y = shared.diabetes()
    selectors = {
        "lasso": make_pipeline(StandardScaler(), Lasso(alpha=5)),
        "lasso via SFM": make_pipeline(StandardScaler(), SelectFromModel(Lasso(alpha=5))),
        "kbest": SelectKBest(f_regression, k=4),
    }
    # the two lasso entries select alike on purpose: their difference has no variance
    with pytest.warns(ZeroVarianceWarning, match="difference of nogueira is 0"):
        c = assess(selectors, X, y, n_runs=20, random_state=0, downstream=Ridge())
    lasso, sfm = c.assessments["lasso"].result, c.assessments["lasso via SFM"].result
    np.testing.assert_array_equal(lasso.Z, sfm.Z)
    np.testing.assert_array_equal(lasso.scores, sfm.scores)
    for i in (0, 7):
        train, test, mask = lasso.train_indices[i], lasso.test_indices[i], lasso.Z[i]
        twin = Ridge().fit(X[train][:, mask], y[train])
        assert lasso.scores[i] == pytest.approx(twin.score(X[test][:, mask], y[test]), rel=1e-12)
    frame = c.to_frame()
    assert frame["scored_by"].tolist() == ["downstream Ridge"] * 3
    s = lasso.scores
    assert frame.loc["lasso", "score_standard_error"] == pytest.approx(
        np.std(s, ddof=1) / np.sqrt(s.size), rel=1e-12
    )
    text = str(c)
    assert "scores: Ridge on held-out rows; SE over resamples" in text
    assert f"({frame.loc['kbest', 'score_standard_error']:.4f})" in text
    ax = plot_pareto_front(c)
    assert "Ridge" in ax.get_xlabel()
    # without downstream=, a selector that scores itself says so, by its model's name
    own = resample(selectors["lasso"], X, y, n_runs=3, random_state=0)
    assert own.scored_by == "the selector (Lasso)"
    mixed = assess(
        {"lasso": selectors["lasso"], "kbest": selectors["kbest"]}, X, y, n_runs=20, random_state=0
    )  # 20 runs: the plot's intervals reach their level
    ax = plot_pareto_front(mixed)
    assert sorted(t.get_text() for t in ax.texts) == [
        "kbest [Ridge (default)]",
        "lasso [Lasso (own)]",
    ]
    assert mixed.to_frame()["scored_by"].tolist() == [
        "the selector (Lasso)",
        "downstream Ridge (default)",
    ]
    assert "scored by" in str(mixed) and "not like for like" in str(mixed)
    assert "Lasso (own)" in str(mixed).splitlines()[3]


def test_a_classifier_on_a_continuous_target_is_refused():
    """An L1-logistic pipeline on diabetes' y (floats of whole numbers: continuous by the
    rule choosing the default downstream model) used to run, stability 0.12."""
    X, y = shared.diabetes()
    l1 = make_pipeline(StandardScaler(), LogisticRegression(penalty="l1", solver="liblinear"))
    with pytest.raises(
        ValueError,
        match=r"^y: the selector \(LogisticRegression\) is a " r"classifier.*continuous",
    ):
        resample(l1, X, y, n_runs=4, random_state=0)
    from sklearn.feature_selection import SelectFromModel

    with pytest.raises(ValueError, match=r"^y: the selector .*classifier"):
        assess(SelectFromModel(LogisticRegression()), X, y, n_runs=4, random_state=0)
    with pytest.raises(ValueError, match=r"^y: the downstream \(LogisticRegression\)"):
        resample(SelectKBest(k=3), X, y, n_runs=4, downstream=LogisticRegression())
    with pytest.raises(ValueError, match=r"^stratify: True .*continuous"):
        resample(Ridge(), X, y, n_runs=4, stratify=True, top_k=3)
    # class labels stay accepted: integers, and a float y of two values (binary)
    yb = (y > np.median(y)).astype(float)
    assert resample(l1, X, yb, n_runs=3, random_state=0, stratify=True).selection.n_runs == 3


def _rare_class_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 5))
    y = np.where(X[:, 0] > 0, 1, 0)
    y[:3] = 2  # a rare third class: 3 of 60 rows
    return X, y


def test_a_scoring_failure_keeps_the_selections_and_says_so():
    """scoring='roc_auc_ovr' with a rare class: the held-out rows (or the fit) miss the
    class in some runs; the selections stand, those scores are NaN, and the warning and
    RunFailure.stage say the scoring failed (not 'selector: 20 of 20 runs failed')."""
    from propstab.resampling import ScoringFailedWarning

    X, y = _rare_class_data()
    l1 = make_pipeline(StandardScaler(), LogisticRegression(penalty="l1", solver="liblinear"))
    with pytest.warns(
        ScoringFailedWarning,
        match=r"scoring failed in \d+ of 20 runs; their "
        r"selections are kept.*first \(run \d+\)",
    ):
        res = resample(l1, X, y, n_runs=20, random_state=0, scoring="roc_auc_ovr")
    assert res.selection.n_runs == 20 and not res.failures
    failed = [f.run for f in res.score_failures]
    assert failed and all(f.stage == "score" for f in res.score_failures)
    assert np.isnan(res.scores[failed]).all()
    assert np.isfinite(np.delete(res.scores, failed)).all()
    frame = res.to_frame()
    assert (frame.loc[failed, "status"] == "score failed").all()
    assert "scoring failed" in str(res)


def test_run_failure_names_the_failing_stage():
    X = np.random.default_rng(0).normal(size=(20, 4))

    def flaky(X, y):
        if X[:, 0].mean() > 0:
            raise ValueError("bad sample")
        return [0, 1]

    with pytest.warns(FailedFitWarning, match="at the fit stage"):
        res = resample(flaky, X, n_runs=10, random_state=0)
    assert res.failures and {f.stage for f in res.failures} == {"fit"}


@pytest.mark.parametrize(
    "make, count",
    [
        (
            lambda: __import__("sklearn.model_selection", fromlist=["x"]).ShuffleSplit(
                n_splits=6, test_size=0.25, random_state=0
            ),
            6,
        ),
        (
            lambda: __import__("sklearn.model_selection", fromlist=["x"]).StratifiedShuffleSplit(
                n_splits=5, test_size=0.3, random_state=0
            ),
            5,
        ),
        (
            lambda: __import__("sklearn.model_selection", fromlist=["x"]).RepeatedStratifiedKFold(
                n_splits=3, n_repeats=2, random_state=0
            ),
            6,
        ),
    ],
    ids=["ShuffleSplit", "StratifiedShuffleSplit", "RepeatedStratifiedKFold"],
)
def test_a_scikit_learn_splitter_is_a_scheme(make, count):
    """Each split is one run, exactly the splitter's (train, test) rows; n_runs comes from
    it and a conflicting one is refused."""
    X, y = shared.classification()
    res = resample(top3, X, y, scheme=make())
    expected = list(make().split(X, y))
    assert res.n_runs == count == len(expected)
    for (train, test), got_train, got_test in zip(expected, res.train_indices, res.test_indices):
        np.testing.assert_array_equal(got_train, train)
        np.testing.assert_array_equal(got_test, test)
    assert resample(top3, X, y, scheme=make(), n_runs=count).n_runs == count
    with pytest.raises(
        ValueError,
        match=rf"^n_runs: with scheme=\w+\(\.\.\.\) every split "
        rf"is one run, and it makes {count} splits.*got "
        rf"n_runs=50",
    ):
        resample(top3, X, y, scheme=make(), n_runs=50)
    c = assess({"a": top3, "b": lambda X, y: [0, 1]}, X, y, scheme=make(), downstream=Ridge())
    assert {a.result.n_runs for a in c.assessments.values()} == {count}
    with pytest.raises(ValueError, match="^target_halfwidth: cannot add runs"):
        assess(top3, X, y, scheme=make(), target_halfwidth=0.1)
    with pytest.raises(ValueError, match="^stratify: not with a splitter"):
        resample(top3, X, y, scheme=make(), stratify=True)


def test_a_fraction_leaving_no_row_out_or_in_is_refused():
    X, y = shared.regression(n=12)
    with pytest.raises(
        ValueError,
        match=r"^fraction: scheme='leave_out' leaves out "
        r"floor\(fraction \* n\) rows: none with "
        r"n_samples=12.*fraction >= 1/12.*got "
        r"fraction=0.05 \(the default\)",
    ):
        resample(top3, X, y, n_runs=4, scheme="leave_out")
    with pytest.raises(
        ValueError,
        match=r"^fraction: scheme='subsample' trains on .*no run "
        r"would have a training row.*got fraction=0.05$",
    ):
        resample(top3, X, y, n_runs=4, scheme="subsample", fraction=0.05)
    ok = resample(top3, X, y, n_runs=4, scheme="leave_out", fraction=0.1)  # floor(1.2) = 1
    assert all(t.size == 1 for t in ok.test_indices)


def test_assess_names_the_main_resampling_options_in_its_signature():
    """n_runs, random_state and the other main options are keyword-only parameters of
    assess (tab completion), documented in its docstring, and still reach resample."""
    import inspect

    params = inspect.signature(assess).parameters
    main = (
        "n_runs",
        "random_state",
        "scheme",
        "fraction",
        "stratify",
        "n_jobs",
        "backend",
        "downstream",
        "scoring",
        "top_k",
        "threshold",
        "keep_importances",
        "progress",
    )
    for name in main:
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert (
            f"\n    {name} :" in assess.__doc__
            or f", {name} :" in assess.__doc__
            or f"\n    {name}, " in assess.__doc__
        ), name
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    X, y = shared.regression()
    a = assess(
        shared.lasso(),
        X,
        y,
        n_runs=7,
        random_state=1,
        scheme="subsample",
        fraction=0.6,
        measure="conger",  # the lasso's sizes vary
    )
    b = resample(shared.lasso(), X, y, n_runs=7, random_state=1, scheme="subsample", fraction=0.6)
    np.testing.assert_array_equal(a.result.Z, b.Z)
    with pytest.raises(TypeError, match="no_such_option"):
        assess(shared.lasso(), X, y, no_such_option=1)


# ----------------------------------------------------------------------------------
# the package's shape

RESAMPLING_SIDE = (
    "resampling/__init__",
    "resampling/_schemes",
    "resampling/_scoring",
    "resampling/_runner",
    "resampling/_results",
    "resampling/_assessments",
    "resampling/_assess",
    "selectors",
    "_utils/estimators",
    "stability_selection/_transformer",
    "selection",
    "plots",
)


def test_the_resampling_side_is_split_by_concern_without_cycles_or_private_imports():
    """resampling is a package by concern (schemes, scoring, runner, results,
    assessments, assess), selectors and stability selection beside it: no name with a
    leading underscore imported from another module, and the
    modules import one another in one direction (the ranking assessment used to import
    resampling, which imported it)."""
    import pathlib

    root = pathlib.Path(propstab.__file__).parent
    names = {
        m: "propstab." + m.replace("/__init__", "").replace("/", ".") for m in RESAMPLING_SIDE
    }
    graph = {}
    for m, full in names.items():
        path = root / f"{m}.py"
        deps = set()
        for module, imported in shared.imports_of(path, root):
            assert not [n for n in imported if n.startswith("_")], (m, module, imported)
            deps |= {module} | {f"{module}.{n}" for n in imported}
        graph[full] = {d for d in deps if d in names.values() and d != full}
    package = "propstab.resampling"
    for full in graph:  # the package's __init__ only re-exports its modules
        if full.startswith(package + "."):
            graph[full].discard(package)
    order = shared.import_order(graph)
    assert (
        order.index("propstab.resampling._schemes")
        < order.index("propstab.stability_selection._transformer")
        < order.index("propstab.selection")
    )
    assert not (root / "_rank_assessment.py").exists()
