"""StabilityGridSearch: the rules against hand computations on the
same resamples, scikit-learn's estimator checks, pipelines, cloning, pickling, bad
inputs, its plot; and fitted searches (GridSearchCV, ...) as selectors."""
from __future__ import annotations

import math
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn.base import clone
from sklearn.linear_model import Lasso, LogisticRegression
from sklearn.model_selection import GridSearchCV, RandomizedSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

import propstab
from propstab import InvalidParameterError, StabilityGridSearch
from propstab.tuning import CONSTRAINTS

ALPHAS = [0.05, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5]
M = 30


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 10))
    y = X[:, 0] - X[:, 1] + 0.5 * X[:, 2] + 2 * rng.normal(size=100)
    return X, y


@pytest.fixture(scope="module")
def search(data):
    X, y = data
    return StabilityGridSearch(Lasso(), {"alpha": ALPHAS}, n_runs=M, random_state=3).fit(X, y)


def _by_hand(X, y, alphas, n_runs, seed):
    """Each candidate resampled alone with the same seed (the same resamples), and its
    Nogueira stability, mean score and standard error computed with plain numpy."""
    rows = []
    for alpha in alphas:
        res = propstab.resample(Lasso(alpha=alpha), X, y, n_runs=n_runs, random_state=seed)
        Z = np.asarray(res.Z, dtype=float)
        m, d = Z.shape
        p = Z.mean(axis=0)
        k = Z.sum(axis=1).mean()
        # Nogueira et al. (2018), JMLR 18(174), eq. (4): 1 - mean s_f^2 / (k/d (1 - k/d))
        phi = 1 - np.mean(m / (m - 1) * p * (1 - p)) / (k / d * (1 - k / d))
        s = np.asarray(res.scores, dtype=float)
        rows.append(
            dict(
                stability=phi,
                mean=s.mean(),
                se=s.std(ddof=1) / math.sqrt(s.size),
                size=k,
                train=res.train_indices,
            )
        )
    return rows


def test_1se_rule_equals_a_hand_computation_on_the_same_resamples(data, search):
    X, y = data
    rows = _by_hand(X, y, ALPHAS, M, 3)
    mean = np.array([r["mean"] for r in rows])
    se = np.array([r["se"] for r in rows])
    stab = np.array([r["stability"] for r in rows])
    size = np.array([r["size"] for r in rows])
    best = int(np.argmax(mean))
    eligible = [i for i in range(len(rows)) if mean[i] >= mean[best] - se[best]]
    chosen = max(eligible, key=lambda i: (stab[i], -size[i], -i))
    assert search.best_params_ == {"alpha": ALPHAS[chosen]}
    assert search.best_index_ == chosen
    assert chosen != best  # the rule matters here: not the best score
    cv = search.cv_results_
    np.testing.assert_allclose(cv["mean_stability"], stab, rtol=1e-12)
    np.testing.assert_allclose(cv["mean_test_score"], mean, rtol=1e-12)
    np.testing.assert_allclose(cv["score_standard_error"], se, rtol=1e-12)
    np.testing.assert_allclose(cv["mean_n_selected"], size, rtol=1e-12)
    # paired: every candidate ran on the same training rows
    for a in search.results_.assessments.values():
        for t, u in zip(a.result.train_indices, rows[0]["train"]):
            np.testing.assert_array_equal(t, u)


def test_cv_results_follow_scikit_learns_layout(search):
    cv = search.cv_results_
    n = len(ALPHAS)
    assert [p["alpha"] for p in cv["params"]] == ALPHAS
    assert isinstance(cv["param_alpha"], np.ma.MaskedArray)
    assert cv["param_alpha"].tolist() == ALPHAS
    for key in (
        "mean_test_score",
        "std_test_score",
        "rank_test_score",
        "mean_stability",
        "stability_ci_low",
        "stability_ci_high",
        "mean_n_selected",
    ):
        assert len(cv[key]) == n, key
    assert cv["rank_test_score"][np.argmax(cv["mean_test_score"])] == 1
    assert sorted(cv["rank_test_score"]) == list(range(1, n + 1))
    assert (cv["stability_ci_low"] <= cv["mean_stability"]).all()
    assert (cv["mean_stability"] <= cv["stability_ci_high"]).all()
    frame = pd.DataFrame(cv)
    assert frame.shape[0] == n
    a = search.results_.assessments["alpha=0.3"]
    assert cv["std_test_score"][3] == pytest.approx(np.std(a.result.scores))
    low, high = a.confidence_interval(0.95)
    assert (cv["stability_ci_low"][3], cv["stability_ci_high"][3]) == (low, high)


def test_fitted_attributes_select_like_the_best_estimator(data, search):
    X, y = data
    best = search.best_estimator_
    assert isinstance(best, Lasso) and best.alpha == search.best_params_["alpha"]
    np.testing.assert_array_equal(search.get_support(), best.coef_ != 0)
    np.testing.assert_array_equal(search.transform(X), X[:, best.coef_ != 0])
    assert search.n_features_in_ == 10
    assert search.best_score_ == search.cv_results_["mean_test_score"][search.best_index_]


def test_pareto_rule_is_the_knee_of_the_front(data, search):
    X, y = data
    # 10 runs, not M = 30: the same front (candidates 3-6) with the knee inside it (5,
    # heights 1, 1.28, 1.41, 1); the front's first, last, most stable and best-scoring
    # candidates are all other than the knee, so each of those mutants of the rule fails
    # nogueira as in the search fixture: the lasso's sizes vary at 10 runs
    with pytest.warns(propstab.inference.VaryingSizesWarning, match="subset sizes vary"):
        knee = StabilityGridSearch(
            Lasso(), {"alpha": ALPHAS}, n_runs=10, random_state=3, rule="pareto"
        ).fit(X, y)
    cv = knee.cv_results_
    front = np.flatnonzero(cv["pareto_optimal"])
    s, m = cv["mean_stability"][front], cv["mean_test_score"][front]
    height = (s - s.min()) / (s.max() - s.min()) + (m - m.min()) / (m.max() - m.min())
    assert knee.best_index_ == front[np.argmax(height)]
    assert cv["pareto_optimal"][knee.best_index_]
    assert 0 < np.argmax(height) < len(front) - 1  # an inner point: the rule matters


def test_callable_rule_receives_the_results_frame(data):
    X, y = data
    seen = {}

    def sparsest(frame):
        seen["frame"] = frame
        return int(frame["mean_n_selected"].to_numpy().argmin())

    s = StabilityGridSearch(
        Lasso(), {"alpha": [0.05, 0.5]}, measure="conger", n_runs=5, random_state=0, rule=sparsest
    ).fit(X, y)
    assert isinstance(seen["frame"], pd.DataFrame)
    assert {"params", "param_alpha", "mean_stability"} <= set(seen["frame"].columns)
    assert s.best_params_ == {"alpha": 0.5}
    bad = StabilityGridSearch(
        Lasso(),
        {"alpha": [0.05, 0.5]},
        measure="conger",
        n_runs=5,
        random_state=0,
        rule=lambda frame: 7,
    )
    with pytest.raises(ValueError, match="^rule: .*got 7"):
        bad.fit(X, y)


def test_1se_drifts_with_the_runs_and_tolerance_does_not():
    """The SE of a mean over M runs shrinks as 1/sqrt(M): the same candidates (means,
    spread of one run's score 0.1) give another choice at 4 times the runs; a fixed
    tolerance gives the same choice."""
    from propstab.tuning import _one_standard_error

    mean = np.array([0.80, 0.79, 0.785, 0.77])
    stab = np.array([0.5, 0.6, 0.7, 0.9])
    size = np.array([5.0, 4.0, 3.0, 2.0])
    sd = 0.1
    chosen = {
        M: _one_standard_error(mean, np.full(4, sd / math.sqrt(M)), stab, size)
        for M in (25, 100, 400)
    }
    assert chosen == {25: 2, 100: 1, 400: 0}  # SE 0.02, 0.01, 0.005
    fixed = {
        M: _one_standard_error(mean, np.full(4, sd / math.sqrt(M)), stab, size, tolerance=0.02)
        for M in (25, 100, 400)
    }
    assert set(fixed.values()) == {2}


def test_tolerance_in_a_search(data, search):
    X, y = data
    cv = search.cv_results_
    best = float(np.max(cv["mean_test_score"]))
    loose = StabilityGridSearch(
        Lasso(), {"alpha": ALPHAS}, n_runs=M, random_state=3, tolerance=1.0
    ).fit(X, y)
    # a loss of 1.0 of R^2 accepts every candidate: the most stable is chosen
    assert loose.best_index_ == int(np.argmax(cv["mean_stability"]))
    exact = StabilityGridSearch(
        Lasso(), {"alpha": ALPHAS}, n_runs=M, random_state=3, tolerance=0.0
    ).fit(X, y)
    assert exact.best_score_ == best  # no loss: the best score
    assert "tolerance=1" in str(loose.summary()) and "1/sqrt(runs)" in str(search.summary())
    with pytest.raises(InvalidParameterError, match="^tolerance: replaces the standard error"):
        StabilityGridSearch(Lasso(), {"alpha": ALPHAS}, rule="pareto", tolerance=0.1).fit(X, y)


def test_ties_go_to_the_sparser_then_the_first():
    from propstab.tuning import _one_standard_error

    mean = np.array([0.9, 0.9, 0.89, 0.5])
    se = np.array([0.05, 0.05, 0.05, 0.05])
    stab = np.array([0.7, 0.8, 0.8, 1.0])
    size = np.array([3.0, 4.0, 2.0, 1.0])
    assert _one_standard_error(mean, se, stab, size) == 2  # 0.8 twice: sparser
    assert _one_standard_error(mean, se, stab, np.array([3.0, 2.0, 2.0, 1.0])) == 1


def test_same_seed_same_search_whatever_n_jobs(data):
    X, y = data
    kw = dict(n_runs=6, random_state=7, measure="conger")  # the lasso's sizes vary
    one = StabilityGridSearch(Lasso(), {"alpha": [0.1, 0.3]}, **kw).fit(X, y)
    two = StabilityGridSearch(
        Lasso(), {"alpha": [0.1, 0.3]}, n_jobs=2, backend="threading", **kw
    ).fit(X, y)
    for key in ("mean_stability", "mean_test_score"):
        np.testing.assert_array_equal(one.cv_results_[key], two.cv_results_[key])


def test_works_inside_a_pipeline_clones_and_pickles(data):
    X, y = data
    yb = (y > np.median(y)).astype(int)
    search = StabilityGridSearch(
        LogisticRegression(penalty="l1", solver="liblinear"),
        {"C": [0.05, 0.5]},
        measure="conger",  # the sizes vary
        n_runs=5,
        random_state=0,
    )
    pipe = make_pipeline(StandardScaler(), search, LogisticRegression()).fit(X, yb)
    fitted = pipe[1]
    assert pipe.predict(X).shape == (100,)
    assert pipe[-1].coef_.shape[1] == fitted.get_support().sum()
    copy = clone(search)
    assert copy.get_params()["param_grid"] == {"C": [0.05, 0.5]}
    assert not hasattr(copy, "best_params_")
    back = pickle.loads(pickle.dumps(fitted))
    assert back.best_params_ == fitted.best_params_
    np.testing.assert_array_equal(back.transform(X), fitted.transform(X))


def test_dataframe_names_reach_the_candidates_and_the_results(data):
    X, y = data
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(10)])
    s = StabilityGridSearch(Lasso(), {"alpha": [0.3, 0.5]}, n_runs=5, random_state=0).fit(frame, y)
    assert list(s.feature_names_in_) == list(frame.columns)
    a = s.results_.assessments["alpha=0.5"]
    assert list(a.frequencies.index) == list(frame.columns)
    assert list(s.get_feature_names_out()) == [
        c for c, k in zip(frame.columns, s.get_support()) if k
    ]


def test_single_candidate_and_refit_false(data):
    X, y = data
    kw = dict(measure="conger", n_runs=5, random_state=0)  # the lasso's sizes vary
    one = StabilityGridSearch(Lasso(), {"alpha": [0.3]}, **kw).fit(X, y)
    assert one.best_index_ == 0 and isinstance(one.results_, propstab.resampling.Assessment)
    report = StabilityGridSearch(Lasso(), {"alpha": [0.1, 0.3]}, refit=False, **kw).fit(X, y)
    assert not hasattr(report, "best_estimator_")
    with pytest.raises(AttributeError, match="refit=False"):
        report.get_support()


@pytest.mark.parametrize(
    "argument, value, match",
    [
        ("rule", "best", "^rule: must be one of '1se', 'pareto' or a function"),
        ("n_runs", 1, "^n_runs: must be >= 2 and <= 1000000; got 1"),
        ("confidence_level", 1.0, "^confidence_level: must be in \\(0.0, 1.0\\); got 1.0"),
        ("refit", "yes", "^refit: must be True or False"),
        ("param_grid", {"no_such": [1]}, "^param_grid: must name parameters of Lasso"),
        ("param_grid", "alpha", "^param_grid: must be a dict of parameter name"),
        ("estimator", "lasso", "^estimator: must be a scikit-learn estimator"),
        ("random_state", -1, "^random_state: "),
        ("n_jobs", 0, "^n_jobs: "),
        ("tolerance", -0.1, "^tolerance: must be >= 0.0"),
    ],
)
def test_bad_arguments_are_named(data, argument, value, match):
    X, y = data
    kw = dict(estimator=Lasso(), param_grid={"alpha": [0.1, 0.3]}, n_runs=3)
    kw[argument] = value
    with pytest.raises(InvalidParameterError, match=match) as caught:
        StabilityGridSearch(**kw).fit(X, y)
    assert caught.value.argument == argument
    assert str(caught.value).endswith("(in StabilityGridSearch)")


class _StopAfter(Lasso):
    """A lasso whose fits raise KeyboardInterrupt once ``FITS["left"]`` reaches 0 (an
    interruption in the middle of a search)."""

    FITS = {"left": None, "done": 0}

    def fit(self, X, y, **kw):
        if _StopAfter.FITS["left"] is not None:
            _StopAfter.FITS["left"] -= 1
            if _StopAfter.FITS["left"] < 0:
                raise KeyboardInterrupt
        _StopAfter.FITS["done"] += 1
        return super().fit(X, y, **kw)


def test_an_interrupted_search_resumes_to_the_uninterrupted_choice(data, tmp_path):
    """checkpoint=: an interrupted search, fitted again with the same
    arguments and directory, runs only the missing runs and gives the uninterrupted
    search's results; another search's directory, or no fixed seed, is refused."""
    X, y = data
    make = lambda **kw: StabilityGridSearch(  # noqa: E731
        _StopAfter(), {"alpha": [0.1, 0.3, 0.5]}, measure="conger", n_runs=8, random_state=4, **kw
    )
    _StopAfter.FITS.update(left=None, done=0)
    whole = make().fit(X, y)
    _StopAfter.FITS.update(left=13, done=0)  # 13 of the 24 runs, then Ctrl-C
    with pytest.raises(KeyboardInterrupt):
        make(checkpoint=tmp_path).fit(X, y)
    assert len(list(tmp_path.glob("selector-*/task-*.npz"))) == 13
    _StopAfter.FITS.update(left=None, done=0)
    resumed = make(checkpoint=tmp_path).fit(X, y)
    assert _StopAfter.FITS["done"] == 24 - 13 + 1  # the missing runs and the refit
    for key in ("mean_stability", "stability_ci_low", "mean_test_score", "mean_n_selected"):
        np.testing.assert_array_equal(resumed.cv_results_[key], whole.cv_results_[key])
    assert resumed.best_params_ == whole.best_params_
    np.testing.assert_array_equal(resumed.support_, whole.support_)
    with pytest.raises(ValueError, match="checkpoint: .*holds the runs of another call"):
        StabilityGridSearch(
            _StopAfter(), {"alpha": [0.1, 0.3, 0.5]}, n_runs=9, random_state=4, checkpoint=tmp_path
        ).fit(X, y)
    with pytest.raises(
        ValueError,
        match=r"^checkpoint: needs a fixed random_state.*" r"\(in StabilityGridSearch\)$",
    ):
        StabilityGridSearch(
            Lasso(), {"alpha": [0.1, 0.3]}, n_runs=4, checkpoint=tmp_path / "new"
        ).fit(X, y)


def test_arguments_passed_on_are_checked_by_assess(data):
    X, y = data
    with pytest.raises(ValueError, match="^scheme: "):
        StabilityGridSearch(Lasso(), {"alpha": [0.1, 0.3]}, n_runs=3, scheme="jackknife").fit(X, y)
    with pytest.raises(ValueError, match="measure"):
        StabilityGridSearch(
            Lasso(), {"alpha": [0.1, 0.3]}, n_runs=3, measure="no_such_measure"
        ).fit(X, y)


def test_declared_rules_cover_the_own_arguments():
    assert {
        "estimator",
        "param_grid",
        "rule",
        "n_runs",
        "confidence_level",
        "random_state",
        "n_jobs",
        "progress",
        "refit",
        "checkpoint",
        "tolerance",
    } == set(CONSTRAINTS)


def test_plot_draws_every_candidate_and_marks_the_chosen(search):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = search.plot()
    try:
        assert len(ax.texts) == len(ALPHAS)
        assert [t.get_text() for t in ax.texts][search.best_index_] == "alpha=0.4"
        chosen = [line for line in ax.lines if line.get_marker() == "*"]
        assert len(chosen) == 1
        x, s = chosen[0].get_xdata()[0], chosen[0].get_ydata()[0]
        assert (x, s) == (search.best_score_, search.best_stability_)
        assert len(ax.collections) >= 2  # the two error bar sets
        cv = search.cv_results_
        top = int(np.argmax(cv["mean_test_score"]))
        limit = [line for line in ax.lines if line.get_linestyle() == ":"]
        assert len(limit) == 1 and limit[0].get_xdata()[0] == pytest.approx(
            cv["mean_test_score"][top] - cv["score_standard_error"][top]
        )
        assert ax.get_ylabel() == "stability (nogueira)"
    finally:
        plt.close("all")
    with pytest.raises(TypeError, match="^ax: "):
        search.plot(ax=5)


def test_summary_marks_the_chosen_candidate(search):
    text = str(search.summary())
    chosen = [line for line in text.splitlines() if line.rstrip().endswith("<")]
    assert len(chosen) == 1 and chosen[0].startswith("alpha=0.4")


# ------------------------------------------------------------------ scikit-learn's checks


@parametrize_with_checks(
    [StabilityGridSearch(Lasso(alpha=0.01), {"alpha": [0.01, 0.02]}, n_runs=3)]
)
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(estimator)


# ------------------------------------------------------------------ searches as selectors


def _breast_cancer(n=150):
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    return X[:n], y[:n]


def test_a_grid_search_is_a_selector_in_resample():
    X, y = _breast_cancer()
    grid = GridSearchCV(
        LogisticRegression(penalty="l1", solver="liblinear"), {"C": [0.05, 0.5]}, cv=3
    )
    res = propstab.resample(grid, X, y, n_runs=4, random_state=0)
    # by hand: each run's fitted search, its best estimator's nonzero coefficients
    for train, row in zip(res.train_indices, np.asarray(res.Z)):
        fitted = clone(grid).fit(X[train], y[train])
        np.testing.assert_array_equal(row, fitted.best_estimator_.coef_.ravel() != 0)
    assert np.isfinite(res.scores).all()


def test_fitted_searches_are_read_through_best_estimator():
    from propstab.selectors import support_of

    X, y = _breast_cancer()
    grid = GridSearchCV(
        LogisticRegression(penalty="l1", solver="liblinear"), {"C": [0.05, 0.5]}, cv=3
    ).fit(X, y)
    mask, imp = support_of(grid, X.shape[1])
    np.testing.assert_array_equal(mask, grid.best_estimator_.coef_.ravel() != 0)
    pipe = GridSearchCV(
        make_pipeline(StandardScaler(), Lasso()), {"lasso__alpha": [0.05, 0.2]}, cv=3
    ).fit(X, y.astype(float))
    mask, _ = support_of(pipe, X.shape[1])
    np.testing.assert_array_equal(mask, pipe.best_estimator_[-1].coef_ != 0)
    rand = RandomizedSearchCV(
        Lasso(), {"alpha": [0.05, 0.1, 0.2]}, n_iter=2, cv=3, random_state=0
    ).fit(X, y.astype(float))
    np.testing.assert_array_equal(support_of(rand, X.shape[1])[0], rand.best_estimator_.coef_ != 0)
    a = propstab.assess(grid, X, y, n_runs=3, random_state=0)
    assert a.result.selection.n_runs == 3


def test_a_search_without_refit_is_refused_naming_the_selector():
    from propstab.selectors import support_of

    X, y = _breast_cancer()
    grid = GridSearchCV(Lasso(), {"alpha": [0.05, 0.2]}, cv=3, refit=False).fit(X, y.astype(float))
    with pytest.raises(TypeError, match="^selector: GridSearchCV .*refit=False"):
        support_of(grid, X.shape[1])


def test_docs_page_examples_run():
    import doctest
    import pathlib

    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "tuning.md"
    with warnings.catch_warnings():
        result = doctest.testfile(
            str(page),
            module_relative=False,
            optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
        )
    assert result.attempted >= 10
    assert result.failed == 0
