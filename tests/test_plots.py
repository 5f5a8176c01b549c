"""Plots render to PNG with the Agg backend and draw what they claim."""
import numpy as np
import pytest

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import shared  # noqa: E402 - tests/shared.py

from propstab import StabilitySelection, resample  # noqa: E402
from propstab.error_control import LargePFERWarning  # noqa: E402
from propstab.plots import (
    plot_feature_stability_map,
    plot_pareto_front,  # noqa: E402
    plot_selection_frequencies,
    plot_stability_path,
)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _fitted():
    X, y = shared.regression(n=150, d=8, coef=(2.0, -2.0))
    # no PFER target and a path down to alpha = 0.1: the realised bound is large
    with pytest.warns(LargePFERWarning, match="allows half or more"):
        return StabilitySelection(
            shared.lasso(alpha=1.0),
            param_grid=[0.1, 0.2, 0.5, 1.0, 2.0],
            n_subsamples=10,
            sampling="mb",
            cutoff=0.9,
            PFER=None,
            random_state=0,
        ).fit(X, y)


def _png_ok(fig, path):
    fig.savefig(path)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000


def test_stability_path(tmp_path):
    ss = _fitted()
    ax = plot_stability_path(ss)
    _png_ok(ax.figure, tmp_path / "path.png")
    assert len(ax.lines) == 8 + 1  # one per feature + cutoff
    cutoff_line = ax.lines[-1]
    assert set(cutoff_line.get_ydata()) == {0.9}
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    stable = np.flatnonzero(ss.support_)
    assert {0, 1} <= set(stable) and stable.size < 8
    assert labels == [f"x{j}" for j in stable] + ["cutoff 0.9"]  # only stable ones named
    first_stable = ax.lines[8 - stable.size]
    np.testing.assert_allclose(first_stable.get_ydata(), ss.stability_scores_[stable[0]])
    assert ax.get_xscale() == "linear"  # grid spans a factor 20
    assert plot_stability_path(ss, log_scale=True).get_xscale() == "log"
    assert ax.get_ylabel() == "selection probability"


def test_selection_frequencies(tmp_path):
    ss = _fitted()
    ax = plot_selection_frequencies(ss, cutoff=0.9)
    _png_ok(ax.figure, tmp_path / "freq.png")
    heights = [p.get_height() for p in ax.patches]
    np.testing.assert_allclose(heights, np.sort(ss.selection_probabilities_)[::-1])
    colours = [p.get_facecolor() for p in ax.patches]
    assert colours[0] != colours[-1]  # stable bars highlighted
    ax2 = plot_selection_frequencies([0.2, 0.9, 0.5], feature_names=["a", "b", "c"], sort=True)
    assert [t.get_text() for t in ax2.get_xticklabels()] == ["b", "c", "a"]
    with pytest.raises(ValueError, match="1-D"):
        plot_selection_frequencies([[0.1, 0.2]])


def test_feature_stability_map_is_clustered_like_stabm(tmp_path):
    Z = np.array([[1, 0, 1, 0, 0], [0, 1, 0, 1, 0], [1, 0, 1, 0, 0], [0, 1, 0, 1, 0]])
    ax = plot_feature_stability_map(Z, feature_names=list("abcde"))
    _png_ok(ax.figure, tmp_path / "map.png")
    img = ax.images[0].get_array()
    assert img.shape == (4, 4)  # feature e never selected
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
    res = resample(lambda X, y: np.argsort(-np.abs(X.T @ y))[:2], X, y, n_runs=12, random_state=0)
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


# ----------------------------------------------------------------------------------
# what the figures say


def _boxes(ax, artists):
    renderer = ax.figure.canvas.get_renderer()
    return [a.get_window_extent(renderer) for a in artists]


def test_selection_frequencies_are_named_by_a_series_index():
    """plot_selection_frequencies(assessment.frequencies) named the bars x0, x2, ...
    although the Series carries the feature names."""
    import pandas as pd

    freq = pd.Series([0.2, 0.9, 0.5, 0.7], index=["age", "bmi", "bp", "s1"])
    ax = plot_selection_frequencies(freq)
    assert [t.get_text() for t in ax.get_xticklabels()] == list(
        freq.sort_values(ascending=False, kind="stable").index
    )
    ax = plot_selection_frequencies(freq, sort=False)
    assert [t.get_text() for t in ax.get_xticklabels()] == list(freq.index)
    # given names still win over the index
    ax = plot_selection_frequencies(freq, sort=False, feature_names=list("abcd"))
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcd")


def test_stability_path_names_its_x_axis():
    ss = _fitted()
    ax = plot_stability_path(ss)
    assert ss.param_name_ == "alpha" and ax.get_xlabel() == "alpha"


def test_halfwidth_band_reaches_the_runs_needed():
    """The predicted band stopped at the current M while the axis (and the line at the
    runs needed) went on: it now spans the axis from the first prefix to the runs
    needed (propstab.inference.runs_needed)."""
    from propstab.inference import runs_needed
    from propstab.plots import plot_halfwidth

    rng = np.random.default_rng(0)
    Z = (rng.random((30, 12)) < np.linspace(0.95, 0.05, 12)).astype(int)
    needed = runs_needed(Z, 0.02)
    assert needed > 30
    ax = plot_halfwidth(Z, start=5, target_halfwidth=0.02)
    band = [ln for ln in ax.lines if ln.get_linestyle() == "--"]
    assert len(band) == 2
    for ln in band:
        xs = np.asarray(ln.get_xdata(), dtype=float)
        assert (xs.min(), xs.max()) == (5, needed)
    # with n_runs_max beyond the runs needed the band goes to n_runs_max
    ax = plot_halfwidth(Z, start=5, target_halfwidth=0.02, n_runs_max=4 * needed)
    assert (
        max(np.max(ln.get_xdata()) for ln in ax.lines if ln.get_linestyle() == "--") == 4 * needed
    )


@pytest.mark.parametrize("case", range(3))
def test_pareto_labels_overlap_neither_each_other_nor_the_legend(case):
    """Close points (selectors of similar score and stability, as in the tutorial) got
    labels at one offset, on top of each other, and the legend's "best" place ignores
    text: the labels' boxes must be disjoint and the legend must cover none of them."""
    score, stab, labels = [
        (
            [0.90, 0.901, 0.902, 0.95, 0.96],
            [0.80, 0.799, 0.798, 0.5, 0.45],
            ["lasso alpha=0.1", "lasso alpha=0.2", "elastic net", "kbest k=5", "kbest k=10"],
        ),
        (
            [0.1, 0.2, 0.3, 0.31, 0.32],
            [0.95, 0.94, 0.93, 0.92, 0.3],
            ["first selector", "second selector", "third", "fourth", "fifth"],
        ),
        (
            list(np.linspace(0.5, 0.6, 8)),
            list(np.linspace(0.99, 0.9, 8)),
            [f"selector number {i}" for i in range(8)],
        ),
    ][case]
    ax = plot_pareto_front(score, stab, labels=labels)
    ax.figure.canvas.draw()
    texts = _boxes(ax, ax.texts)
    assert sorted(t.get_text() for t in ax.texts) == sorted(labels)  # all on the front
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            assert not texts[i].overlaps(texts[j]), (
                ax.texts[i].get_text(),
                ax.texts[j].get_text(),
            )
    legend = _boxes(ax, [ax.get_legend()])[0]
    assert not any(legend.overlaps(t) for t in texts)


def test_feature_stability_map_has_a_key():
    """The map had no key: a legend says which shade is "selected"."""
    from matplotlib import colormaps

    ax = plot_feature_stability_map([[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 1, 0]])
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["selected", "not selected"]
    greys = colormaps["Greys"]
    handles = getattr(legend, "legend_handles", None) or legend.legendHandles  # mpl < 3.7
    colours = [tuple(h.get_facecolor()) for h in handles]
    assert colours == [tuple(greys(1.0)), tuple(greys(0.0))]
    # the key sits beside the map, covering no cell
    ax.figure.canvas.draw()
    image, key = _boxes(ax, [ax.images[0], legend])
    assert not image.overlaps(key)


def test_selection_frequencies_cutoff_is_named_cutoff_and_threshold_is_deprecated():
    """A frequency cutoff is ``cutoff`` (StabilitySelection's and stabs's name); the old
    ``threshold=`` still works with a FutureWarning naming the new argument."""
    freq = [0.2, 0.9, 0.5]
    ax = plot_selection_frequencies(freq, cutoff=0.5, sort=False)
    new = [p.get_facecolor() for p in ax.patches]
    assert new[0] != new[1] == new[2]  # 0.9 and 0.5 reach 0.5
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["cutoff 0.5"]
    with pytest.warns(FutureWarning, match="use cutoff="):
        old = plot_selection_frequencies(freq, threshold=0.5, sort=False)
    assert [p.get_facecolor() for p in old.patches] == new
    with pytest.raises(TypeError, match="^threshold: .*cutoff"):
        plot_selection_frequencies(freq, cutoff=0.5, threshold=0.5)
    with pytest.raises(ValueError, match="^cutoff: "):
        plot_selection_frequencies(freq, cutoff=1.5)


def test_pareto_labels_sit_off_the_error_bars_and_the_front():
    """The gallery's case (four selectors, long labels, stability intervals): each label's
    text crosses no error bar and no segment of the front (a label on a bar reads as
    struck through); the labels placed at a marker's right before crossed three bars."""
    import numpy as np
    from matplotlib.collections import LineCollection

    fig, ax = plt.subplots(figsize=(7, 4.5))
    score = [0.9482, 0.9465, 0.9679, 0.9628]
    stab = [0.958, 0.815, 0.692, 0.514]
    ci = [(0.92, 0.98), (0.80, 0.83), (0.64, 0.74), (0.46, 0.57)]
    labels = [
        "F-test, k=10 [LogisticRegression (default)]",
        "forest, top 10 [LogisticRegression (default)]",
        "L1 logistic [LogisticRegression (own)]",
        "RFE, k=10 [RFE (own)]",
    ]
    plot_pareto_front(score, stab, stability_ci=ci, labels=labels, ax=ax)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    segments = [
        seg for c in ax.collections if isinstance(c, LineCollection) for seg in c.get_segments()
    ]
    segments += [
        np.column_stack(line.get_data())[k : k + 2]
        for line in ax.get_lines()
        for k in range(len(line.get_xdata()) - 1)
    ]
    assert len(segments) >= 4 + 1  # the four intervals and the front
    shown = ax.transData.transform(np.asarray(segments, dtype=float).reshape(-1, 2)).reshape(
        -1, 2, 2
    )
    for text in ax.texts:
        t = np.linspace(0, 1, 400)[None, :, None]
        pts = shown[:, 0][:, None] + t * (shown[:, 1] - shown[:, 0])[:, None]
        box = text.get_window_extent(renderer)
        inside = (
            (pts[..., 0] > box.x0)
            & (pts[..., 0] < box.x1)
            & (pts[..., 1] > box.y0)
            & (pts[..., 1] < box.y1)
        )
        assert not inside.any(), text.get_text()
    plt.close(fig)


def test_selection_frequency_names_are_not_cut():
    """Long feature names, turned by 90 degrees, stay inside the figure (the gallery once
    showed "imeter" for "mean perimeter"): every tick label's box is within the figure's."""
    names = [f"worst concave points {i}" for i in range(15)]
    ax = plot_selection_frequencies(np.linspace(1, 0, 15), feature_names=names)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    inside = fig.bbox
    for label in ax.get_xticklabels():
        box = label.get_window_extent(renderer)
        assert box.y0 >= inside.y0 - 0.5 and box.x0 >= inside.x0 - 0.5, label.get_text()
        assert box.x1 <= inside.x1 + 0.5 and box.y1 <= inside.y1 + 0.5, label.get_text()
    plt.close(fig)
