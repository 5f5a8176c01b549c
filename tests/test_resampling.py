"""The resampling protocol: schemes, selectors, reproducibility, parallel and Dask
execution, failure reporting, and assess() from data to a stability estimate."""

import distributed
import numpy as np
import pandas as pd
import pytest

import propstab
from propstab import assess, resample
from propstab.resampling import (Assessment, Comparison, FailedFitWarning, ResamplingResult,
                                 UnscoredWarning,
                                 pareto_front)


def _regression(n=120, d=8, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = X[:, 0] - X[:, 1] + rng.normal(size=n)
    return X, y


def _classification(n=120, d=8, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0.3).astype(int)
    return X, y


def top3(X, y):
    return np.argsort(-np.abs(np.asarray(X).T @ (y - y.mean())))[:3]


# ----------------------------------------------------------------------------------
# schemes


def test_bootstrap_draws_n_with_replacement_and_holds_out_the_out_of_bag_rows():
    X, y = _regression(n=50)
    res = resample(top3, X, y, n_runs=20, random_state=0)
    for train, test in zip(res.train_indices, res.test_indices):
        assert train.size == 50
        np.testing.assert_array_equal(test, np.setdiff1d(np.arange(50), train))
    assert any(np.unique(t).size < 50 for t in res.train_indices)    # repeats occur


@pytest.mark.parametrize("scheme, fraction, size", [
    ("subsample", None, 25), ("subsample", 0.3, 15), ("leave_out", None, 49),
    ("leave_out", 0.2, 41)])
def test_subsample_and_leave_out_sizes(scheme, fraction, size):
    X, y = _regression(n=51)
    res = resample(top3, X, y, n_runs=6, scheme=scheme, fraction=fraction, random_state=1)
    for train, test in zip(res.train_indices, res.test_indices):
        assert train.size == size and np.unique(train).size == size
        assert np.intersect1d(train, test).size == 0 and train.size + test.size == 51


def test_complementary_pairs_are_disjoint_halves():
    X, y = _regression(n=51)
    res = resample(top3, X, y, n_runs=8, scheme="complementary_pairs", random_state=2)
    tr = res.train_indices
    for a, b in zip(tr[0::2], tr[1::2]):
        assert a.size == b.size == 25 and np.intersect1d(a, b).size == 0
    with pytest.raises(ValueError, match="even"):
        resample(top3, X, y, n_runs=7, scheme="complementary_pairs")


def test_stratified_subsample_keeps_class_counts():
    X, y = _classification(n=100)
    counts = np.bincount(y)
    res = resample(lambda X, y: [0], X, y, n_runs=5, scheme="subsample", stratify=True,
                   random_state=0)
    for train in res.train_indices:
        np.testing.assert_array_equal(np.bincount(y[train]), counts // 2)
    res = resample(lambda X, y: [0], X, y, n_runs=4, stratify=y, random_state=0)
    for train in res.train_indices:                       # stratified bootstrap
        np.testing.assert_array_equal(np.bincount(y[train]), counts)


def test_callable_scheme():
    X, y = _regression(n=30)

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
    X, y = _regression()
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
    X, y = _regression()
    res = resample(SelectKBest(f_regression, k=2), X, y, n_runs=5, random_state=0)
    assert (res.selection.row_sizes == 2).all() and res.scores is not None
    forest = RandomForestRegressor(n_estimators=5, random_state=0)
    res = resample(forest, X, y, n_runs=4, top_k=3, random_state=0)
    assert (res.selection.row_sizes == 3).all()
    res = resample(forest, X, y, n_runs=4, threshold=0.2, random_state=0, keep_importances=True)
    np.testing.assert_array_equal(res.Z, res.importances > 0.2)
    with pytest.raises(ValueError, match="selector: .*threshold= or top_k="):
        with pytest.warns(FailedFitWarning):
            resample(forest, X, y, n_runs=3, random_state=0)


def test_function_selectors_indices_or_mask_and_no_scores():
    X, y = _regression()
    a = resample(top3, X, y, n_runs=6, random_state=5)
    b = resample(lambda X, y: np.isin(np.arange(X.shape[1]), top3(X, y)), X, y, n_runs=6,
                 random_state=5)
    np.testing.assert_array_equal(a.Z, b.Z)
    assert a.scores is None and np.isnan(a.mean_score)
    assert (a.selection.row_sizes == 3).all()


def test_multiclass_coef_uses_the_norm_over_classes():
    from sklearn.linear_model import LogisticRegression
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 5))
    y = np.argmax(X[:, :3] + 0.3 * rng.normal(size=(150, 3)), axis=1)
    res = resample(LogisticRegression(max_iter=500), X, y, n_runs=3, top_k=3, random_state=0,
                   keep_importances=True)
    est = LogisticRegression(max_iter=500).fit(X[res.train_indices[0]], y[res.train_indices[0]])
    # scikit-learn's convention: SelectFromModel's norm_order=1, the L1 norm over classes
    np.testing.assert_allclose(res.importances[0], np.linalg.norm(est.coef_, ord=1, axis=0))
    assert res.Z[:, :3].all()


def test_scoring_by_name():
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss
    X, y = _classification()
    est = LogisticRegression(penalty="l1", solver="liblinear", C=0.5, random_state=0)
    res = resample(est, X, y, n_runs=3, scoring="neg_log_loss", random_state=0)
    train, test = res.train_indices[0], res.test_indices[0]
    fitted = LogisticRegression(penalty="l1", solver="liblinear", C=0.5,
                                random_state=0).fit(X[train], y[train])
    assert res.scores[0] == pytest.approx(-log_loss(y[test], fitted.predict_proba(X[test])))


def test_dataframe_names_features():
    X, y = _regression()
    df = pd.DataFrame(X, columns=[f"gene{j}" for j in range(X.shape[1])])
    res = resample(top3, df, pd.Series(y), n_runs=4, random_state=0)
    assert res.feature_names == tuple(df.columns)
    assert res.selection.feature_names == tuple(df.columns)


def test_selector_is_not_modified():
    from sklearn.linear_model import Lasso
    X, y = _regression()
    est = Lasso(alpha=0.3)
    resample(est, X, y, n_runs=3, random_state=0)
    assert not hasattr(est, "coef_")


# ----------------------------------------------------------------------------------
# reproducibility and execution


def test_reproducible_and_independent_of_n_jobs():
    from sklearn.linear_model import Lasso
    X, y = _regression()
    a = resample(Lasso(alpha=0.1), X, y, n_runs=8, random_state=11)
    b = resample(Lasso(alpha=0.1), X, y, n_runs=8, random_state=11, n_jobs=2)
    c = resample(Lasso(alpha=0.1), X, y, n_runs=8, random_state=11, backend="threading",
                 n_jobs=2)
    for other in (b, c):
        np.testing.assert_array_equal(a.Z, other.Z)
        np.testing.assert_array_equal(a.scores, other.scores)
    d = resample(Lasso(alpha=0.1), X, y, n_runs=8, random_state=12)
    assert any(not np.array_equal(s, t) for s, t in zip(a.train_indices, d.train_indices))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_dask_distributed_backend_on_a_local_cluster():
    from sklearn.linear_model import Lasso
    X, y = _regression()
    local = resample(Lasso(alpha=0.1), X, y, n_runs=6, random_state=3)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        res = resample(Lasso(alpha=0.1), X, y, n_runs=6, random_state=3, backend="dask",
                       n_jobs=2)
        assert len(client.scheduler_info()["workers"]) == 2
    np.testing.assert_array_equal(res.Z, local.Z)
    np.testing.assert_allclose(res.scores, local.scores)


def test_progress_bar_only_when_asked_or_interactive(capsys):
    X, y = _regression()
    resample(top3, X, y, n_runs=25, random_state=0)
    assert capsys.readouterr().err == ""                     # not a terminal: no bar
    resample(top3, X, y, n_runs=25, random_state=0, progress=True)
    assert "25/25" in capsys.readouterr().err


# ----------------------------------------------------------------------------------
# failures


def test_failed_runs_are_reported_and_excluded():
    X, y = _regression()
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
    X, y = _regression()

    def broken(X_, y_):
        raise ValueError("no luck")

    with pytest.raises(ValueError, match="selector: .*ValueError: no luck"):
        resample(broken, X, y, n_runs=4)


@pytest.mark.parametrize("kwargs, exc, message", [
    (dict(n_runs=1), ValueError, "n_runs"),
    (dict(scheme="jackknife"), ValueError, "scheme"),
    (dict(scheme="subsample", fraction=1.5), ValueError, "fraction"),
    (dict(scheme="bootstrap", fraction=0.5), ValueError, "fraction"),
    (dict(top_k=99), ValueError, "top_k"),
    (dict(stratify=[0, 1]), ValueError, "stratify"),
    (dict(scoring=3), TypeError, "scoring"),
])
def test_invalid_arguments(kwargs, exc, message):
    X, y = _regression()
    with pytest.raises(exc, match=message):
        resample(top3, X, y, **kwargs)


def test_invalid_selector_and_shapes():
    X, y = _regression()
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
    X, y = _regression()
    a = assess(Lasso(alpha=0.15), X, y, n_runs=15, random_state=2)
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
    X, y = _regression()
    selectors = {"weak": Lasso(alpha=0.01), "medium": Lasso(alpha=0.2),
                 "strong": Lasso(alpha=0.6)}
    comp = assess(selectors, X, y, n_runs=15, random_state=9)
    assert isinstance(comp, Comparison)
    runs = [a.result.train_indices for a in comp.assessments.values()]
    for other in runs[1:]:                                    # the same resamples: paired
        assert all(np.array_equal(s, t) for s, t in zip(runs[0], other))
    unseeded = assess(selectors, X, y, n_runs=5, random_state=np.random.default_rng(1))
    runs = [a.result.train_indices for a in unseeded.assessments.values()]
    assert all(np.array_equal(s, t) for s, t in zip(runs[0], runs[1]))
    stab = [comp.assessments[k].stability for k in selectors]
    score = [comp.assessments[k].mean_score for k in selectors]
    front = pareto_front(score, stab)
    assert comp.pareto_optimal == tuple(k for k, f in zip(selectors, front) if f)
    expected = propstab.pairwise_tests({k: comp.assessments[k].result.selection
                                        for k in selectors}, paired=True)
    assert [r["pvalue"] for r in comp.tests.rows] == [r["pvalue"] for r in expected.rows]


def test_pareto_front_against_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(20):
        a, b = rng.integers(0, 5, size=(2, 12)).astype(float)
        mask = pareto_front(a, b)
        for i in range(12):
            dominated = any(a[j] >= a[i] and b[j] >= b[i] and (a[j] > a[i] or b[j] > b[i])
                            for j in range(12))
            assert mask[i] == (not dominated)
    with pytest.warns(UnscoredWarning, match="left out of the front .*: point 1"):
        assert pareto_front([1.0, np.nan], [0.0, 5.0]).tolist() == [True, False]


def test_docs_page_examples_run():
    import doctest
    import pathlib
    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "from_data.md"
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted >= 5
    assert result.failed == 0
