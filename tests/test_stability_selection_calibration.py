"""StabilitySelection(calibration=...): "pfer" (stabs, the default), "stability_score"
(sharp) and "fdp" (Stabl).

The choices are recomputed in the tests from the fitted frequencies with the literal
twins of tests/calibration_twins.py and sharp's rules written out as loops
(StabilityMetrics: NaN as 0, the largest pi among ties; ArgmaxId: the first penalty of
the maximum; PFER: q^2 / ((2 pi - 1) N) with q = round(sum)); Stabl's
(_compute_FDPplus: the first threshold of the minimum, 1 when it exceeds 1).
"""
import math
import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import Lasso, LogisticRegression

from calibration_twins import fdp_plus_twin, r_round, stability_score_twin
from fractions import Fraction
from propstab import InvalidParameterError, StabilitySelection
from propstab.calibration import SHARP_PI_GRID, STABL_THRESHOLDS, Calibration


def _data(n=120, d=12, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = 2 * X[:, 0] - 1.5 * X[:, 1] + X[:, 2] + rng.normal(size=n)
    return X, y


def _fit(**kw):
    X, y = _data()
    base = dict(n_alphas=8, n_subsamples=10, random_state=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return StabilitySelection(Lasso(), **{**base, **kw}).fit(X, y)


def sharp_choice_twin(freq_rows, K, pis, pfer_thr=None):
    """sharp's StabilityMetrics + ArgmaxId, one penalty and one pi at a time."""
    best_rows = []
    for row in freq_rows:
        N = len(row)
        q = r_round(sum(Fraction(f) for f in row))
        scores = []
        for pi in pis:
            bound = q**2 / ((2 * pi - 1) * N) if pi > 0.5 else math.inf
            if pfer_thr is not None and not bound <= pfer_thr:
                scores.append(0.0)
                continue
            s = stability_score_twin(list(row), K, pi)
            scores.append(0.0 if math.isnan(s) else s)
        top = max(scores)
        j = max(i for i, s in enumerate(scores) if s == top)
        best_rows.append((top, j))
    g = 0
    for i, (top, _) in enumerate(best_rows):
        if top > best_rows[g][0]:
            g = i
    return g, best_rows[g][1], best_rows[g][0]


def test_pfer_is_the_default_and_unchanged():
    default, pfer = _fit(), _fit(calibration="pfer")
    assert StabilitySelection(Lasso()).calibration == "pfer"
    np.testing.assert_array_equal(default.support_, pfer.support_)
    np.testing.assert_array_equal(default.stability_scores_, pfer.stability_scores_)
    assert (default.cutoff_, default.q_, default.PFER_) == (pfer.cutoff_, pfer.q_, pfer.PFER_)
    cal = pfer.calibration_
    assert isinstance(cal, Calibration) and cal.method == "pfer"
    assert (cal.threshold, cal.criterion, cal.n_selected) == (
        0.75,
        pfer.PFER_,
        int(pfer.support_.sum()),
    )
    assert "calibration" not in str(pfer.summary())  # the summary as before


@pytest.mark.parametrize("pfer", [None, 1.0, 3.0])
def test_stability_score_choice_equals_the_literal_argmax(pfer):
    ss = _fit(calibration="stability_score", PFER=pfer)
    freq = np.asarray(ss.stability_scores_).T  # (n_grid, d)
    K = len(ss.subsamples_)
    g, j, top = sharp_choice_twin(freq, K, list(SHARP_PI_GRID), pfer)
    cal = ss.calibration_
    assert cal.penalty == ss.param_grid_[g] and cal.threshold == SHARP_PI_GRID[j]
    assert cal.criterion == pytest.approx(top, rel=1e-12)
    np.testing.assert_array_equal(ss.support_, freq[g] >= SHARP_PI_GRID[j])
    assert ss.cutoff_ == cal.threshold and cal.curve.shape == (len(ss.param_grid_), 31)
    assert ss.q_ == pytest.approx(freq[g].sum())
    assert "stability_score (sharp)" in str(ss.summary())


def test_stability_score_on_a_given_pi_grid():
    pis = [0.55, 0.7, 0.85, 0.95]
    ss = _fit(calibration="stability_score", PFER=None, pi_grid=pis)
    freq = np.asarray(ss.stability_scores_).T
    g, j, _ = sharp_choice_twin(freq, len(ss.subsamples_), pis)
    assert (ss.calibration_.penalty, ss.calibration_.threshold) == (ss.param_grid_[g], pis[j])


def test_fdp_threshold_equals_the_literal_twin():
    ss = _fit(calibration="fdp")
    real = np.asarray(ss.selection_probabilities_)
    fake = ss.artificial_probabilities_
    curve = [fdp_plus_twin(real, fake, t) for t in STABL_THRESHOLDS]
    i = min(range(len(curve)), key=lambda k: (curve[k], k))
    t = 1.0 if curve[i] > 1 else STABL_THRESHOLDS[i]
    cal = ss.calibration_
    np.testing.assert_allclose(cal.curve, curve, rtol=1e-15)
    assert cal.threshold == t and ss.cutoff_ == t
    np.testing.assert_array_equal(ss.support_, real > t)
    assert math.isnan(ss.PFER_) and ss.error_control_ is None
    assert set(ss.get_support(indices=True)) == {0, 1, 2}  # the true features
    assert "fdp (Stabl)" in str(ss.summary())


def test_fdp_artificial_features_are_independent_column_permutations():
    from propstab.stability_selection._transformer import _with_permuted_copy

    X, _ = _data(n=50, d=6)
    Xa = _with_permuted_copy(X, np.random.default_rng(0))
    assert Xa.shape == (50, 12)
    np.testing.assert_array_equal(Xa[:, :6], X)
    for j in range(6):
        np.testing.assert_array_equal(np.sort(Xa[:, 6 + j]), np.sort(X[:, j]))
        assert not np.array_equal(Xa[:, 6 + j], X[:, j])
    orders = [
        tuple(np.argsort(np.argsort(Xa[:, 6 + j])) - np.argsort(np.argsort(X[:, j])))
        for j in range(6)
    ]
    assert len(set(orders)) == 6  # not one shared permutation


@pytest.mark.parametrize("calibration", ["stability_score", "fdp"])
def test_reproducible_from_the_seed_whatever_n_jobs(calibration):
    a = _fit(calibration=calibration)
    b = _fit(calibration=calibration, n_jobs=2)
    c = _fit(calibration=calibration, random_state=4)
    np.testing.assert_array_equal(a.calibration_.curve, b.calibration_.curve)
    assert repr(a.calibration_) == repr(b.calibration_)
    assert not np.array_equal(a.stability_scores_, c.stability_scores_)


def test_clone_pickle_and_logistic():
    ss = _fit(calibration="fdp")
    assert clone(ss).get_params()["calibration"] == "fdp"
    again = pickle.loads(pickle.dumps(ss))
    assert repr(again.calibration_) == repr(ss.calibration_)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(150, 8))
    y = (X[:, 0] - X[:, 1] + 0.5 * rng.normal(size=150) > 0).astype(int)
    est = LogisticRegression(penalty="l1", solver="liblinear")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for calibration in ("stability_score", "fdp"):
            fitted = StabilitySelection(
                est, n_alphas=6, n_subsamples=8, random_state=0, calibration=calibration, PFER=None
            ).fit(X, y)
            assert {0, 1} <= set(fitted.get_support(indices=True))


@pytest.mark.parametrize(
    "kwargs, argument",
    [
        (dict(calibration="sharp"), "calibration"),
        (dict(calibration=None), "calibration"),
        (dict(calibration="stability_score", q=3, PFER=None), "q"),
        (dict(calibration="stability_score", PFER=-1.0), "PFER"),
        (dict(calibration="stability_score", pi_grid=[0.7, 1.0]), "pi_grid"),
        (dict(calibration="stability_score", pi_grid=[]), "pi_grid"),
        (dict(calibration="fdp", pi_grid=[-0.1, 0.5]), "pi_grid"),
        (dict(calibration="fdp", pi_grid="0.5"), "pi_grid"),
    ],
)
def test_bad_calibration_arguments_name_the_argument(kwargs, argument):
    X, y = _data()
    with pytest.raises((ValueError, TypeError), match=f"^{argument}:"):
        StabilitySelection(Lasso(), n_subsamples=2, **kwargs).fit(X, y)


def test_plot_calibration():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from propstab.plots import plot_calibration

    ax = plot_calibration(_fit(calibration="stability_score", PFER=None))
    assert len(ax.images) == 1 and ax.get_xlabel() == "pi" and len(ax.lines) == 1
    fdp = _fit(calibration="fdp")
    ax = plot_calibration(fdp)
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), fdp.calibration_.curve)
    assert ax.lines[1].get_xdata()[0] == fdp.calibration_.threshold
    with pytest.raises(ValueError, match="calibration='pfer'"):
        plot_calibration(_fit())
    with pytest.raises(ValueError, match="not fitted"):
        plot_calibration(StabilitySelection(Lasso(), calibration="fdp"))
    with pytest.raises(TypeError, match="selector"):
        plot_calibration("model")
    plt.close("all")


@pytest.mark.parametrize("calibration", ["pfer", "stability_score", "fdp"])
def test_calibration_result_prints_short(calibration):
    cal = _fit(calibration=calibration, PFER=None if calibration != "pfer" else 1.0).calibration_
    text = str(cal)
    assert text.startswith("Calibration\n") and len(text.splitlines()) <= 8
    assert text.splitlines()[1].split()[:2] == ["calibration", calibration]
    assert repr(cal).startswith(f"Calibration(method='{calibration}'") and "\n" not in repr(cal)
    frame = cal.to_frame()
    assert len(frame) == 1 and frame.loc[0, "method"] == calibration
    assert "<" in cal._repr_html_()


def test_fdp_on_sparse_x_equals_dense():
    import scipy.sparse as sp

    X, y = _data(n=80, d=10)
    kw = dict(n_alphas=5, n_subsamples=5, random_state=1, calibration="fdp")
    dense = StabilitySelection(Lasso(), **kw).fit(X, y)
    sparse = StabilitySelection(Lasso(), **kw).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.stability_scores_, dense.stability_scores_)
    np.testing.assert_allclose(sparse.artificial_probabilities_, dense.artificial_probabilities_)
    assert sparse.calibration_.threshold == dense.calibration_.threshold
