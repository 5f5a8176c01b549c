"""propstab/_utils/fixes.py: the one door to scikit-learn's renamed and private APIs.

Debian ships scikit-learn 1.2 here, so the 1.6+ branch (``validate_data`` as a function,
``ensure_all_finite``, ``get_tags``) is driven by patching the version and standing in
scikit-learn's new functions with recorders that delegate to the old ones; the old branch
runs for real, and by the same patching on a newer scikit-learn.
"""
import pathlib
import re
import types

import numpy as np
import pytest

import propstab
from propstab._utils import fixes

ROOT = pathlib.Path(propstab.__file__).resolve().parent


@pytest.fixture
def new_api(monkeypatch):
    """scikit-learn >= 1.6 as seen by fixes: a recording ``validate_data`` that accepts
    only the new keyword, and ``get_tags`` returning the new tag objects."""
    import sklearn.utils
    import sklearn.utils.validation

    calls = []

    def validate_data(estimator, X, y="no_validation", **kwargs):
        assert "force_all_finite" not in kwargs, "removed in scikit-learn 1.8"
        calls.append(dict(kwargs))
        kwargs["force_all_finite"] = kwargs.pop("ensure_all_finite")
        return estimator._validate_data(X, y, **kwargs)

    def get_tags(estimator):
        from sklearn.utils._tags import _safe_tags

        return types.SimpleNamespace(
            input_tags=types.SimpleNamespace(allow_nan=_safe_tags(estimator, "allow_nan")),
            target_tags=types.SimpleNamespace(required=_safe_tags(estimator, "requires_y")),
        )

    monkeypatch.setattr(fixes, "sklearn_version", lambda: (1, 6))
    monkeypatch.setattr(sklearn.utils.validation, "validate_data", validate_data, raising=False)
    monkeypatch.setattr(sklearn.utils, "get_tags", get_tags, raising=False)
    return calls


def test_the_version_is_read_as_numbers(monkeypatch):
    import sklearn

    monkeypatch.setattr(sklearn, "__version__", "1.10.0rc1")
    assert fixes.sklearn_version() == (1, 10) > fixes.NEW_API
    monkeypatch.setattr(sklearn, "__version__", "1.2.post1")
    assert fixes.sklearn_version() == (1, 2) < fixes.NEW_API


def test_the_old_branch_passes_force_all_finite(monkeypatch):
    seen = {}

    class Old:
        def _validate_data(self, X, y, **kwargs):
            seen.update(kwargs, y=y)
            return X

    monkeypatch.setattr(fixes, "sklearn_version", lambda: (1, 5))
    fixes.validate_data(Old(), "X", ensure_all_finite=False, dtype="numeric")
    assert seen == {"force_all_finite": False, "dtype": "numeric", "y": "no_validation"}


def test_the_new_branch_passes_ensure_all_finite(new_api):
    from sklearn.base import BaseEstimator

    est = BaseEstimator()
    X, y = fixes.validate_data(est, np.ones((4, 3)), np.arange(4.0), ensure_all_finite=False)
    assert X.shape == (4, 3) and est.n_features_in_ == 3
    assert new_api == [{"ensure_all_finite": False}]


@pytest.mark.parametrize("patched", [False, True])
def test_tags_in_both_branches(request, patched):
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.linear_model import Lasso

    if patched:
        request.getfixturevalue("new_api")
    assert fixes.estimator_tags(Lasso()) == (False, True)
    assert fixes.estimator_tags(HistGradientBoostingRegressor())[0] is True


@pytest.mark.parametrize("patched", [False, True])
def test_the_search_and_the_transformer_run_on_both_branches(request, patched):
    """StabilityGridSearch's and StabilitySelection's validation through each branch: the
    same choice and selection, NaN refused by Lasso's search in the same words."""
    from sklearn.linear_model import Lasso

    calls = request.getfixturevalue("new_api") if patched else None
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 6))
    # noise enough that the runs differ (at 0.1 both candidates select X_0..X_2 in every
    # run: a zero jackknife variance) and the measure for varying sizes (the lasso's vary)
    y = X[:, :3].sum(axis=1) + 0.5 * rng.standard_normal(40)
    search = propstab.StabilityGridSearch(
        Lasso(), {"alpha": [0.05, 0.2]}, measure="conger", n_runs=6, random_state=0
    ).fit(X, y)
    selector = propstab.StabilitySelection(
        Lasso(), n_alphas=3, n_subsamples=10, cutoff=0.9, PFER=1, random_state=0
    ).fit(X, y)
    assert search.best_params_ in ({"alpha": 0.05}, {"alpha": 0.2})
    assert selector.get_support().shape == (6,)
    X[0, 0] = np.nan
    with pytest.raises(propstab.InvalidParameterError, match="X, y: .*NaN"):
        propstab.StabilityGridSearch(Lasso(), {"alpha": [0.1]}, n_runs=4, random_state=0).fit(X, y)
    if patched:
        assert calls and all("ensure_all_finite" in c for c in calls)


def test_no_module_calls_a_renamed_or_private_sklearn_api_but_fixes():
    pattern = re.compile(
        r"_validate_data|force_all_finite|_safe_tags|sklearn\.utils\._"
        r"|import get_tags|validation import validate_data"
    )
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in ROOT.rglob("*.py")
        if p.name != "fixes.py"
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if pattern.search(line) and "_param_validation" not in line
    ]
    assert not found
