"""Plots render to PNG with the Agg backend and draw what they claim."""
import numpy as np
import pytest

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from propstab import StabilitySelection, resample  # noqa: E402
from propstab.plots import (plot_feature_stability_map, plot_pareto_front,  # noqa: E402
                            plot_selection_frequencies, plot_stability_path)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _fitted():
    from sklearn.linear_model import Lasso
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 8))
    y = 2 * X[:, 0] - 2 * X[:, 1] + rng.normal(size=150)
    return StabilitySelection(Lasso(), param_grid=[0.1, 0.2, 0.5, 1.0, 2.0],
                              n_subsamples=10, sampling="mb", cutoff=0.9, PFER=None,
                              random_state=0).fit(X, y)


def _png_ok(fig, path):
    fig.savefig(path)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000


def test_stability_path(tmp_path):
    ss = _fitted()
    ax = plot_stability_path(ss)
    _png_ok(ax.figure, tmp_path / "path.png")
    assert len(ax.lines) == 8 + 1                              # one per feature + cutoff
    cutoff_line = ax.lines[-1]
    assert set(cutoff_line.get_ydata()) == {0.9}
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    stable = np.flatnonzero(ss.support_)
    assert {0, 1} <= set(stable) and stable.size < 8
    assert labels == [f"x{j}" for j in stable] + ["cutoff 0.9"]   # only stable ones named
    first_stable = ax.lines[8 - stable.size]
    np.testing.assert_allclose(first_stable.get_ydata(), ss.stability_scores_[stable[0]])
    assert ax.get_xscale() == "linear"                        # grid spans a factor 20
    assert plot_stability_path(ss, log_scale=True).get_xscale() == "log"
    assert ax.get_ylabel() == "selection probability"


def test_selection_frequencies(tmp_path):
    ss = _fitted()
    ax = plot_selection_frequencies(ss, threshold=0.9)
    _png_ok(ax.figure, tmp_path / "freq.png")
    heights = [p.get_height() for p in ax.patches]
    np.testing.assert_allclose(heights, np.sort(ss.selection_probabilities_)[::-1])
    colours = [p.get_facecolor() for p in ax.patches]
    assert colours[0] != colours[-1]                          # stable bars highlighted
    ax2 = plot_selection_frequencies([0.2, 0.9, 0.5], feature_names=["a", "b", "c"], sort=True)
    assert [t.get_text() for t in ax2.get_xticklabels()] == ["b", "c", "a"]
    with pytest.raises(ValueError, match="1-D"):
        plot_selection_frequencies([[0.1, 0.2]])


def test_feature_stability_map_is_clustered_like_stabm(tmp_path):
    Z = np.array([[1, 0, 1, 0, 0],
                  [0, 1, 0, 1, 0],
                  [1, 0, 1, 0, 0],
                  [0, 1, 0, 1, 0]])
    ax = plot_feature_stability_map(Z, feature_names=list("abcde"))
    _png_ok(ax.figure, tmp_path / "map.png")
    img = ax.images[0].get_array()
    assert img.shape == (4, 4)                                 # feature e never selected
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert sorted(ticks) == ["a", "b", "c", "d"]
    # identical columns (a, c) and (b, d) sit next to each other after clustering
    assert abs(ticks.index("a") - ticks.index("c")) == 1
    assert abs(ticks.index("b") - ticks.index("d")) == 1
    # identical runs too: rows 0 and 2, rows 1 and 3 adjacent
    rows = [tuple(r) for r in np.asarray(img)]
    assert rows[0] == rows[1] and rows[2] == rows[3]
    unclustered = plot_feature_stability_map(Z, cluster=False)
    np.testing.assert_array_equal(unclustered.images[0].get_array(), Z[:, :4])
    with pytest.raises(ValueError, match="no feature"):
        plot_feature_stability_map(np.zeros((3, 4)))


def test_feature_map_from_a_resampling_result_and_similarity(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 6))
    y = X[:, 0] + rng.normal(size=60)
    res = resample(lambda X, y: np.argsort(-np.abs(X.T @ y))[:2], X, y, n_runs=12,
                   random_state=0)
    S = np.eye(6)
    ax = plot_feature_stability_map(res, similarity=S)
    _png_ok(ax.figure, tmp_path / "map2.png")
    assert ax.images[0].get_array().shape[0] == 12
    with pytest.raises(ValueError, match="similarity"):
        plot_feature_stability_map(res, similarity=np.eye(3))


def test_pareto_front_plot(tmp_path):
    score = [0.1, 0.2, 0.3, 0.25]
    stab = [0.9, 0.8, 0.4, 0.3]
    ci = np.array([[0.8, 1.0], [0.7, 0.9], [0.3, 0.5], [0.2, 0.4]])
    ax = plot_pareto_front(score, stab, labels=["a", "b", "c", "d"], stability_ci=ci)
    _png_ok(ax.figure, tmp_path / "pareto.png")
    front = ax.lines[0]
    np.testing.assert_allclose(front.get_xdata(), [0.1, 0.2, 0.3])
    np.testing.assert_allclose(front.get_ydata(), [0.9, 0.8, 0.4])
    assert sorted(t.get_text() for t in ax.texts) == ["a", "b", "c"]
