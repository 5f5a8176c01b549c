"""The selector adapters (propstab.selectors): how an estimator or a function becomes a
support mask, and how rows are taken from X and y.

Expected values are worked by hand on tiny inputs; the same rules are exercised end to
end through resample() in tests/test_resampling.py.
"""
import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.feature_selection import SelectKBest, f_regression
from sklearn.linear_model import Lasso, LogisticRegression
from sklearn.tree import DecisionTreeRegressor

from propstab.selectors import (clone, fit_select, importances_of, is_estimator,
                                mask_from_output, support_of, take)


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
    with pytest.raises(ValueError, match=r"selector: importances of shape \(2,\) do not "
                                         r"match 3 features"):
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
    assert fitted is not est and not hasattr(est, "coef_")          # never modified
    assert mask.tolist() == (fitted.coef_[0] != 0).tolist() and mask[1]
    assert imp.tolist() == np.abs(fitted.coef_[0]).tolist()
    seen = {}

    def first_column_only(Xs, ys):
        seen["y"] = ys
        return [0]

    assert fit_select(first_column_only, X, None, n_features=4)[0].tolist() == [True, False,
                                                                                False, False]
    assert seen["y"] is None
    mask, imp, fitted = fit_select(first_column_only, X, y, n_features=4)
    assert imp is None and fitted is None
