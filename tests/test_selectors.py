"""The selector adapters (propstab.selectors): how an estimator or a function becomes a
support mask, and how rows are taken from X and y.

Expected values are worked by hand on tiny inputs; the same rules are exercised end to
end through resample() in tests/test_resampling.py.
"""
import functools

import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.feature_selection import SelectKBest, f_regression
from sklearn.linear_model import Lasso, LogisticRegression
from sklearn.tree import DecisionTreeRegressor

from propstab.selectors import (
    clone,
    fit_select,
    importances_of,
    is_estimator,
    mask_from_output,
    support_of,
    take,
)


class _Model:
    """A fitted model without scikit-learn's get_params: clone() falls back to deepcopy."""

    def __init__(self, coef):
        self.coef_ = np.asarray(coef, dtype=np.float64)

    def fit(self, X, y=None):
        return self


def test_take_keeps_the_kind_of_its_input():
    X = np.arange(12).reshape(4, 3)
    rows = np.array([2, 2, 0])
    assert take(X, rows).tolist() == [[6, 7, 8], [6, 7, 8], [0, 1, 2]]
    S = take(sparse.csr_matrix(X), rows)
    assert sparse.issparse(S) and S.toarray().tolist() == take(X, rows).tolist()
    frame = pd.DataFrame(X, columns=["a", "b", "c"], index=[10, 11, 12, 13])
    taken = take(frame, rows)
    assert list(taken.index) == [12, 12, 10] and list(taken.columns) == ["a", "b", "c"]
    assert take(pd.Series([5, 6, 7, 8], index=list("wxyz")), rows).tolist() == [7, 7, 5]


def test_clone_is_unfitted_and_falls_back_to_deepcopy():
    est = Lasso(alpha=0.3).fit(np.eye(3), [1.0, 2.0, 3.0])
    twin = clone(est)
    assert twin is not est and twin.alpha == 0.3 and not hasattr(twin, "coef_")
    model = _Model([1.0, 0.0])
    copied = clone(model)
    assert copied is not model and copied.coef_ is not model.coef_
    assert copied.coef_.tolist() == [1.0, 0.0]


def test_is_estimator():
    assert is_estimator(Lasso()) and is_estimator(_Model([1.0]))
    assert not is_estimator(lambda X, y: [0]) and not is_estimator(np.sum)


def test_importances_coef_norm_over_classes_and_feature_importances():
    assert importances_of(_Model([-3.0, 0.0, 2.0])).tolist() == [3.0, 0.0, 2.0]
    # the L1 norm over classes: SelectFromModel's norm_order=1
    assert importances_of(_Model([[3.0, 0.0], [-4.0, 2.0]])).tolist() == [7.0, 2.0]
    tree = DecisionTreeRegressor(random_state=0).fit([[0, 1], [1, 1], [2, 0]], [0, 1, 2])
    assert importances_of(tree).tolist() == tree.feature_importances_.tolist()
    assert importances_of(object()) is None


def test_support_rules():
    model = _Model([0.5, 0.0, -2.0, 0.1])
    mask, imp = support_of(model, 4)
    assert mask.tolist() == [True, False, True, True] and imp.tolist() == [0.5, 0.0, 2.0, 0.1]
    assert support_of(model, 4, top_k=2)[0].tolist() == [True, False, True, False]
    assert support_of(model, 4, top_k=0)[0].tolist() == [False] * 4
    assert support_of(_Model([1.0, 1.0, 0.5]), 3, top_k=1)[0].tolist() == [True, False, False]
    assert support_of(model, 4, threshold=0.1)[0].tolist() == [True, False, True, False]
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5))
    y = X[:, 3] + 0.1 * rng.normal(size=40)
    kbest = SelectKBest(f_regression, k=1).fit(X, y)
    assert support_of(kbest, 5)[0].tolist() == [False, False, False, True, False]


def test_support_errors_name_the_selector():
    with pytest.raises(TypeError, match="selector: object has neither get_support"):
        support_of(object(), 3)
    with pytest.raises(
        ValueError, match=r"selector: importances of shape \(2,\) do not " r"match 3 features"
    ):
        support_of(_Model([1.0, 0.0]), 3)
    tree = DecisionTreeRegressor(random_state=0).fit([[0, 1], [1, 1], [2, 0]], [0, 1, 2])
    with pytest.raises(ValueError, match="pass threshold= or top_k="):
        support_of(tree, 2)


def test_mask_from_output():
    assert mask_from_output(np.array([2, 0]), 3).tolist() == [True, False, True]
    assert mask_from_output([True, False], 2).tolist() == [True, False]
    assert mask_from_output([], 2).tolist() == [False, False]
    with pytest.raises(ValueError, match="boolean mask must have 3 entries"):
        mask_from_output([True, False], 3)
    with pytest.raises(ValueError, match=r"feature index -1, outside 0\.\.2"):
        mask_from_output([-1], 3)
    with pytest.raises(TypeError, match="feature indices or a boolean mask"):
        mask_from_output([0.5], 3)
    with pytest.raises(TypeError, match="feature indices or a boolean mask"):
        mask_from_output([[0, 1]], 3)


def test_fit_select_clones_fits_and_reads_the_support():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 4))
    y = (X[:, 1] > 0).astype(int)
    est = LogisticRegression(penalty="l1", solver="liblinear", C=0.1)
    mask, imp, fitted = fit_select(est, X, y, n_features=4)
    assert fitted is not est and not hasattr(est, "coef_")  # never modified
    assert mask.tolist() == (fitted.coef_[0] != 0).tolist() and mask[1]
    assert imp.tolist() == np.abs(fitted.coef_[0]).tolist()
    seen = {}

    def first_column_only(Xs, ys):
        seen["y"] = ys
        return [0]

    assert fit_select(first_column_only, X, None, n_features=4)[0].tolist() == [
        True,
        False,
        False,
        False,
    ]
    assert seen["y"] is None
    mask, imp, fitted = fit_select(first_column_only, X, y, n_features=4)
    assert imp is None and fitted is None


# ----------------------------------------------------------------------------------
# selectors as users write them, on scikit-learn's own data sets; the expected
# supports come from scikit-learn itself (get_support(), get_feature_names_out(),
# SelectFromModel's own reading of importances)

import warnings  # noqa: E402

from sklearn.datasets import load_wine  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.feature_selection import (
    RFE,
    RFECV,
    SelectFromModel,  # noqa: E402
    SelectPercentile,
    SequentialFeatureSelector,
    VarianceThreshold,
    f_classif,
)
from sklearn.linear_model import Ridge  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.base import clone as sk_clone  # noqa: E402

import shared  # noqa: E402 - tests/shared.py

CANCER = functools.partial(shared.breast_cancer, as_frame=True)
DIABETES = functools.partial(shared.diabetes, as_frame=True)


def _l1():
    return LogisticRegression(penalty="l1", solver="liblinear", C=0.1)


SELECTOR_KINDS = {
    "SelectKBest": (lambda: SelectKBest(f_classif, k=10), CANCER),
    "SelectPercentile": (lambda: SelectPercentile(f_classif, percentile=20), CANCER),
    "SelectFromModel": (lambda: SelectFromModel(_l1()), CANCER),
    "RFE": (
        lambda: RFE(LogisticRegression(solver="liblinear"), n_features_to_select=10, step=5),
        CANCER,
    ),
    "RFECV": (lambda: RFECV(Ridge(), step=2, cv=3), DIABETES),
    "SequentialFeatureSelector": (
        lambda: SequentialFeatureSelector(Ridge(), n_features_to_select=3, cv=2),
        DIABETES,
    ),
    "VarianceThreshold": (lambda: VarianceThreshold(threshold=1.0), CANCER),
}


@pytest.mark.parametrize("kind", sorted(SELECTOR_KINDS))
def test_every_sklearn_selector_kind_on_real_data(kind):
    make, data = SELECTOR_KINDS[kind]
    X, y = data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mask, _, fitted = fit_select(make(), X, y, n_features=X.shape[1])
        own = sk_clone(make()).fit(X, y).get_support()
    np.testing.assert_array_equal(mask, own)
    assert 0 < mask.sum() < X.shape[1] and fitted is not None


def test_coef_models_single_and_multiclass_and_importances_as_scikit_learn_reads_them():
    X, y = shared.diabetes(as_frame=True)
    from sklearn.linear_model import Lasso as _Lasso

    mask, imp, fitted = fit_select(_Lasso(alpha=1.0), X, y, n_features=10)
    np.testing.assert_array_equal(mask, fitted.coef_ != 0)
    # multi-class coef_ (3 x 13, wine): the top 4 as SelectFromModel ranks them (norm_order=1)
    Xw, yw = load_wine(return_X_y=True)
    Xw = StandardScaler().fit_transform(Xw)
    mask, imp, fitted = fit_select(
        LogisticRegression(max_iter=1000), Xw, yw, n_features=13, top_k=4
    )
    ref = SelectFromModel(fitted, prefit=True, max_features=4, threshold=-np.inf)
    np.testing.assert_array_equal(mask, ref.get_support())
    np.testing.assert_allclose(imp, np.abs(fitted.coef_).sum(axis=0))
    # feature_importances_: a rule is needed; top_k as SelectFromModel(max_features=k)
    Xc, yc = shared.breast_cancer(as_frame=True)
    forest = RandomForestClassifier(n_estimators=20, random_state=0)
    mask, imp, fitted = fit_select(forest, Xc, yc, n_features=30, top_k=5)
    ref = SelectFromModel(fitted, prefit=True, max_features=5, threshold=-np.inf)
    np.testing.assert_array_equal(mask, ref.get_support())
    with pytest.raises(ValueError, match="selector: .*pass threshold= or top_k="):
        fit_select(forest, Xc, yc, n_features=30)


def test_pipeline_selection_step_mapped_back_through_earlier_selection_steps():
    X, y = shared.breast_cancer(as_frame=True)
    pipe = make_pipeline(
        StandardScaler(),
        SelectKBest(f_classif, k=20),
        SelectFromModel(_l1()),
        LogisticRegression(),
    )
    mask, imp, fitted = fit_select(pipe, X, y, n_features=30)
    # scikit-learn's own mapping of the columns: the names that leave the selection steps
    kept = fitted[:-1].get_feature_names_out()
    assert list(X.columns[mask]) == list(kept) and 0 < mask.sum() < 20
    # the issue's pipeline: scaler, L1 SelectFromModel, logistic regression
    issue = make_pipeline(StandardScaler(), SelectFromModel(_l1()), LogisticRegression())
    mask, imp, fitted = fit_select(issue, X, y, n_features=30)
    np.testing.assert_array_equal(mask, fitted.named_steps["selectfrommodel"].get_support())
    assert (imp[~mask] == 0).all() and (imp[mask] > 0).all()  # the final model's |coef_|


def test_pipeline_final_model_coefficients_mapped_back():
    X, y = shared.breast_cancer(as_frame=True)
    pipe = make_pipeline(StandardScaler(), _l1())
    mask, imp, fitted = fit_select(pipe, X, y, n_features=30)
    np.testing.assert_array_equal(mask, fitted[-1].coef_[0] != 0)
    np.testing.assert_allclose(imp, np.abs(fitted[-1].coef_[0]))
    # after a selection step, with top_k: the final model's importances, 0 for dropped columns
    pipe = make_pipeline(SelectKBest(f_classif, k=12), StandardScaler(), LogisticRegression())
    mask, imp, fitted = fit_select(pipe, X, y, n_features=30, top_k=3)
    kept = fitted[0].get_support()
    assert mask.sum() == 3 and not (mask & ~kept).any() and (imp[~kept] == 0).all()
    top = np.argsort(-np.abs(fitted[-1].coef_[0]), kind="stable")[:3]
    assert sorted(np.flatnonzero(kept)[top]) == sorted(np.flatnonzero(mask))


def test_pipeline_errors_name_the_step():
    X, y = shared.breast_cancer(as_frame=True)
    with pytest.raises(
        TypeError,
        match=r"selector: the Pipeline step 'pca' \(PCA\) changes "
        r"the number of columns \(30 -> 5\)",
    ):
        fit_select(
            make_pipeline(StandardScaler(), PCA(5), LogisticRegression()), X, y, n_features=30
        )
    with pytest.raises(
        TypeError,
        match=r"selector: the Pipeline has no selection step .*" r"'kneighborsclassifier'",
    ):
        fit_select(make_pipeline(StandardScaler(), KNeighborsClassifier()), X, y, n_features=30)
    with pytest.raises(
        ValueError, match="final step 'randomforestclassifier' .*pass " "threshold= or top_k="
    ):
        fit_select(
            make_pipeline(StandardScaler(), RandomForestClassifier(n_estimators=3)),
            X,
            y,
            n_features=30,
        )


def test_fit_rank_reads_a_pipeline():
    from propstab.selectors import fit_rank

    X, y = shared.breast_cancer(as_frame=True)
    pipe = make_pipeline(StandardScaler(), SelectFromModel(_l1()), LogisticRegression())
    mask, values, kind, fitted = fit_rank(pipe, X, y, n_features=30)
    np.testing.assert_array_equal(mask, fitted.named_steps["selectfrommodel"].get_support())
    assert kind == "scores" and values.shape == (30,) and (values[~mask] == 0).all()


# ----------------------------------------------------------------------------------
# seeding a run's estimator (seeded, run_seeds)


def test_seeded_fills_every_unset_random_state_and_leaves_explicit_ones():
    """Every random_state / <step>__random_state that is None gets the seed (as
    scikit-learn's _set_random_states finds them); ints and RandomState instances set by
    the user stay; the argument is not modified."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.feature_selection import SelectFromModel
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from propstab.selectors import seeded

    rs = np.random.RandomState(5)
    pipe = make_pipeline(
        StandardScaler(),
        SelectFromModel(RandomForestClassifier()),
        LogisticRegression(random_state=3),
    )
    forest = RandomForestClassifier(random_state=rs)
    before = pipe.get_params(deep=True)
    got = seeded(pipe, 11).get_params(deep=True)
    assert got["selectfrommodel__estimator__random_state"] == 11
    assert got["logisticregression__random_state"] == 3
    keys = {k for k in before if k == "random_state" or k.endswith("__random_state")}
    assert keys == {"selectfrommodel__estimator__random_state", "logisticregression__random_state"}
    assert pipe.get_params(deep=True)["selectfrommodel__estimator__random_state"] is None
    assert isinstance(seeded(forest, 11).random_state, np.random.RandomState)
    assert seeded(LogisticRegression(), 2**32 - 1).random_state == 2**32 - 1
    with pytest.raises(TypeError, match="estimator"):
        seeded(lambda X, y: [0], 1)
    with pytest.raises(ValueError, match="random_state"):
        seeded(LogisticRegression(), 2**32)


def test_run_seeds_are_numpy_spawned_children_and_independent_of_the_batch():
    """Run i's seed is the first word of SeedSequence.spawn's i-th child (numpy's
    documented way to make independent streams), whatever the slice drawn."""
    from propstab.selectors import run_seeds

    root = np.random.SeedSequence(1234)
    children = np.random.SeedSequence(1234).spawn(10)
    expected = [int(c.generate_state(1)[0]) for c in children]
    assert run_seeds(root, 0, 10).tolist() == expected
    assert run_seeds(root, 4, 10).tolist() == expected[4:]
    assert root.n_children_spawned == 0  # root left as it was
    with pytest.raises(TypeError, match="root"):
        run_seeds(0, 0, 3)


def test_random_state_accepts_a_legacy_RandomState_as_scikit_learn_does():
    """One rule (check_random_state): a RandomState seeds as scikit-learn uses one; two
    fresh RandomState(0) give the same stream, and the instance is advanced."""
    from propstab._utils.checks import check_random_state

    a = check_random_state("random_state", np.random.RandomState(0))
    b = check_random_state("random_state", np.random.RandomState(0))
    assert np.array_equal(a.generate_state(4), b.generate_state(4))
    rs = np.random.RandomState(0)
    first = check_random_state("random_state", rs)
    second = check_random_state("random_state", rs)
    assert not np.array_equal(first.generate_state(4), second.generate_state(4))


def test_fits_a_classifier_looks_through_pipelines_and_meta_selectors():
    from sklearn.feature_selection import RFE, SelectFromModel
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from propstab.selectors import fits_a_classifier

    assert fits_a_classifier(make_pipeline(StandardScaler(), LogisticRegression()))
    assert fits_a_classifier(make_pipeline(SelectFromModel(LogisticRegression()), Lasso()))
    assert fits_a_classifier(RFE(LogisticRegression()))
    assert not fits_a_classifier(make_pipeline(StandardScaler(), Lasso()))
    assert not fits_a_classifier(SelectKBest(f_regression))


# ---------------------------------------------------------------- the two stages of a run


def test_resample_reads_every_run_as_the_public_adapters_do():
    """resample runs the adapters' two stages: each run's selection and importances are
    fit_select's on the run's training rows, and with output="ranking" fit_rank's."""
    from propstab import resample
    from propstab.selectors import fit_rank

    X, y = shared.regression(n=60, d=6)
    res = resample(Lasso(alpha=0.1), X, y, n_runs=3, random_state=0, keep_importances=True)
    ranked = resample(Ridge(), X, y, n_runs=3, random_state=0, output="ranking")
    for i in range(3):
        rows = res.train_indices[i]
        mask, imp, fitted = fit_select(Lasso(alpha=0.1), X[rows], y[rows], n_features=6)
        assert res.Z[i].tolist() == mask.tolist() and type(fitted) is Lasso
        np.testing.assert_array_equal(res.importances[i], imp)
        rows = ranked.train_indices[i]
        mask, values, kind, _ = fit_rank(Ridge(), X[rows], y[rows], n_features=6)
        assert kind == "scores" and ranked.Z[i].tolist() == mask.tolist()
        np.testing.assert_array_equal(ranked.importances[i], values)


def test_the_two_stages_tell_a_failed_fit_from_a_selection_that_cannot_be_read():
    from propstab.selectors import fit_selector, read_selection

    X, y = shared.regression(n=20, d=3)
    with pytest.raises(ValueError, match=r"^selector: Lasso.fit failed: "):
        fit_selector(Lasso(alpha=-1.0), X, y)  # the fit's own error
    fitted = fit_selector(DecisionTreeRegressor(random_state=0), X, y)
    with pytest.raises(ValueError, match="feature_importances_; pass threshold= or top_k="):
        read_selection(DecisionTreeRegressor(), fitted, 3)  # no rule for importances
    assert read_selection(DecisionTreeRegressor(), fitted, 3, top_k=1)[0].sum() == 1
    assert fit_selector(lambda X, y: [2], X, y) == [2]  # a function is called
    with pytest.raises(ValueError, match=r"^output: must be one of 'selection', 'ranking'"):
        read_selection(lambda X, y: [2], [2], 3, output="rankings")
    with pytest.raises(
        ValueError, match="with output='ranking' a function must return one " "score per feature"
    ):
        read_selection(lambda X, y: [2], [2], 3, output="ranking")
