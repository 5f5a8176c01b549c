"""Plots of stability: the stability path, selection frequencies, the
feature-stability map and the accuracy-versus-stability Pareto front.

matplotlib is imported only when a plot is drawn (``pip install propstab[plot]``).
Every function draws on ``ax`` (a new figure's axes by default) and returns it.
"""
from __future__ import annotations

import warnings

import numpy as np

from ._utils.checks import fail
from ._utils.checks import (
    as_real_array,
    check_axes,
    check_bool,
    check_int_range,
    check_labels,
    check_probabilities,
    check_text,
    check_unit_interval,
    shown,
)
from ._data.convert_selection import as_selection
from ._data.convert_matrices import as_similarity
from .stability_selection._plots import plot_calibration
from ._utils.plot_labels import place_labels, point_boxes, renderer_of

__all__ = [
    "plot_calibration",
    "plot_feature_stability_map",
    "plot_pareto_front",
    "plot_selection_frequencies",
    "plot_stability_path",
]


def _axes(ax):
    if ax is not None:
        return check_axes("ax", ax)
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(
            "plots need matplotlib; install it with " "`pip install propstab[plot]`"
        ) from None
    # constrained layout: long tick labels (feature names turned by 90 degrees) and
    # titles stay inside the figure instead of being cut at its edge
    _, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    return ax


def plot_stability_path(selector, *, feature_names=None, log_scale=None, ax=None, max_labels=10):
    """Selection probability of every feature against the regularisation parameter.

    Parameters
    ----------
    selector : StabilitySelection
        Fitted; its ``stability_scores_`` (d x grid), ``param_grid_``, ``cutoff_``
        and ``support_`` are drawn. Stable features are coloured and labelled,
        the others grey, and the cutoff is a dashed line.
    feature_names : sequence, optional
        Default: ``feature_names_in_`` or "x0", "x1", ...
    log_scale : bool, optional
        Logarithmic x axis (default: when the positive grid spans a factor > 20).
    ax : matplotlib Axes, optional
    max_labels : int, default 10
        Label at most this many stable features in the legend.

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    TypeError
        ``selector`` is not a StabilitySelection, or its ``param_grid_`` is not numeric;
        an invalid ``feature_names``, ``log_scale``, ``max_labels`` or ``ax``.
    ValueError
        ``selector`` is not fitted (scikit-learn's ``NotFittedError``, a ValueError);
        ``feature_names`` of the wrong length; ``max_labels`` below 0.
    ImportError
        ``ax`` is not given and matplotlib is not installed.

    See Also
    --------
    propstab.StabilitySelection : The fitted selector whose path is drawn.
    propstab.plots.plot_selection_frequencies : The frequencies of one run of resamples.

    References
    ----------
    Meinshausen, N., Bühlmann, P. (2010). Stability selection. JRSS B 72(4),
    417-473 (the stability path: selection probabilities against the
    regularisation).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import StabilitySelection
    >>> from propstab.plots import plot_stability_path
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 5)); y = 3 * X[:, 0] + rng.normal(size=100)
    >>> ss = StabilitySelection(Lasso(), param_grid=[0.2, 0.5, 1.0], n_subsamples=10,
    ...                         sampling="mb", cutoff=0.9, PFER=None,
    ...                         random_state=0).fit(X, y)
    >>> ax = plot_stability_path(ss)
    >>> len(ax.lines)                      # 5 features and the cutoff line
    6
    """
    _check_fitted_selection(selector)
    scores = np.asarray(selector.stability_scores_)
    stable = np.asarray(selector.support_, dtype=bool)
    try:
        grid = np.asarray(selector.param_grid_, dtype=np.float64)
    except (TypeError, ValueError):
        fail(
            f"selector: a stability path needs a numeric param_grid; got "
            f"{shown(selector.param_grid_)}",
            TypeError,
        )
    d = scores.shape[0]
    if feature_names is None:
        feature_names = getattr(selector, "feature_names_in_", None)
    if feature_names is None:
        feature_names = [f"x{j}" for j in range(d)]
    feature_names = check_labels("feature_names", feature_names, d, "feature")
    log_scale = check_bool("log_scale", log_scale, none=True)
    max_labels = check_int_range("max_labels", max_labels, minimum=0)
    ax = _axes(ax)
    order = np.argsort(grid)
    for j in np.flatnonzero(~stable):
        ax.plot(grid[order], scores[j, order], color="0.75", lw=0.8, zorder=1)
    labelled = 0
    for j in np.flatnonzero(stable):
        label = str(feature_names[j]) if labelled < max_labels else None
        labelled += 1
        ax.plot(grid[order], scores[j, order], lw=1.8, zorder=2, label=label)
    ax.axhline(selector.cutoff_, color="k", ls="--", lw=1, label=f"cutoff {selector.cutoff_:g}")
    if log_scale is None:
        positive = grid[grid > 0]
        log_scale = (
            positive.size == grid.size and grid.size > 1 and positive.max() / positive.min() > 20
        )
    if log_scale:
        ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(
        str(
            getattr(selector, "param_name_", None)
            or getattr(selector, "param_name", None)
            or "regularisation"
        )
    )
    ax.set_ylabel("selection probability")
    ax.set_title(f"stability path: {int(stable.sum())} stable of {d} features")
    ax.legend(loc="best", fontsize="small")
    return ax


def _check_fitted_selection(selector):
    """A fitted StabilitySelection (or an object with its fitted attributes)."""
    needed = ("stability_scores_", "param_grid_", "support_", "cutoff_")
    if not hasattr(selector, "fit") and not all(hasattr(selector, a) for a in needed):
        fail(
            f"selector: must be a fitted StabilitySelection; got " f"{shown(selector)}", TypeError
        )
    missing = [a for a in needed if not hasattr(selector, a)]
    if missing:
        from sklearn.exceptions import NotFittedError  # a ValueError

        raise NotFittedError(
            f"selector: this {type(selector).__name__} is not fitted (no "
            f"{missing[0]}); call fit(X, y) before plotting its path"
        )


def plot_selection_frequencies(
    frequencies,
    *,
    feature_names=None,
    cutoff=None,
    sort=True,
    max_features=50,
    ax=None,
    threshold=None,
):
    """Bar chart of per-feature selection frequencies p̂_f.

    Parameters
    ----------
    frequencies : array-like (d,) or object with ``frequencies`` or ``selection_probabilities_``
        E.g. a :class:`~propstab.resampling.ResamplingResult`, an
        :class:`~propstab.resampling.Assessment` or a fitted StabilitySelection;
        a pandas Series (``Assessment.frequencies`` when X had column names) names
        the bars by its index.
    feature_names : sequence, optional
        Default: the Series' index, the object's feature names, or "x0", "x1", ...
    cutoff : float in [0, 1], optional
        A cutoff on the selection frequencies (pi_thr, the ``cutoff`` of
        :class:`~propstab.StabilitySelection` and of stabs), drawn as a dashed line;
        bars at or above it are highlighted.
    sort : bool, default True
        Most frequent features first.
    max_features : int, default 50
        Show at most this many bars.
    ax : matplotlib Axes, optional
    threshold : float, optional
        Deprecated: the old name of ``cutoff`` (a frequency cutoff). In propstab
        ``threshold`` names a threshold on importances (``resample``,
        ``StabilitySelection``) or on similarities (``similarity_from_data``), never
        on frequencies.

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    TypeError
        ``frequencies`` not numeric; an invalid ``feature_names``, ``sort``,
        ``max_features`` or ``ax``; both ``cutoff`` and ``threshold`` given.
    ValueError
        ``frequencies`` outside [0, 1]; ``cutoff`` outside [0, 1]; ``feature_names``
        of the wrong length; ``max_features`` below 1.
    ImportError
        ``ax`` is not given and matplotlib is not installed.

    Warns
    -----
    FutureWarning
        ``threshold=`` is given: use ``cutoff=``.

    See Also
    --------
    propstab.resample : Its result's ``frequencies``.
    propstab.plots.plot_feature_stability_map : The runs behind the frequencies.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2 and Thm 6 (the selection
    frequencies p̂_f that Phi is built from). Meinshausen, N., Bühlmann, P. (2010).
    Stability selection. JRSS B 72(4), 417-473 (selection probabilities and their
    threshold).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from propstab.plots import plot_selection_frequencies
    >>> ax = plot_selection_frequencies([0.1, 0.9, 0.5], feature_names=["a", "b", "c"],
    ...                                 cutoff=0.5)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['b', 'c', 'a']
    >>> ax.get_legend().get_texts()[0].get_text()
    'cutoff 0.5'
    """
    if threshold is not None:
        if cutoff is not None:
            fail(
                f"threshold: the old name of cutoff; give cutoff= alone; got "
                f"cutoff={cutoff!r} and threshold={threshold!r}",
                TypeError,
            )
        from ._utils.exceptions import warn

        warn(
            "plot_selection_frequencies: threshold= is deprecated and will be removed; "
            "use cutoff= (a cutoff on selection frequencies, as StabilitySelection's "
            "cutoff)",
            FutureWarning,
        )
        cutoff = threshold
    for attr in ("frequencies", "selection_probabilities_"):
        if hasattr(frequencies, attr):
            if feature_names is None:
                feature_names = getattr(
                    getattr(frequencies, "result", frequencies), "feature_names", None
                ) or getattr(frequencies, "feature_names_in_", None)
            frequencies = getattr(frequencies, attr)
            break
    if feature_names is None and _is_series(frequencies):  # the index names the bars
        feature_names = list(frequencies.index)
    freq = check_probabilities("frequencies", frequencies)
    d = freq.size
    names = (
        [f"x{j}" for j in range(d)]
        if feature_names is None
        else [str(n) for n in check_labels("feature_names", feature_names, d, "frequency")]
    )
    if cutoff is not None:
        cutoff = check_unit_interval("cutoff", cutoff)
    sort = check_bool("sort", sort)
    max_features = check_int_range("max_features", max_features, minimum=1)
    ax = _axes(ax)
    order = np.argsort(-freq, kind="stable") if sort else np.arange(d)
    order = order[:max_features]
    colors = ["C0" if cutoff is None or freq[j] >= cutoff else "0.7" for j in order]
    ax.bar(np.arange(order.size), freq[order], color=colors)
    ax.set_xticks(np.arange(order.size))
    ax.set_xticklabels([names[j] for j in order], rotation=90, fontsize="small")
    if cutoff is not None:
        ax.axhline(cutoff, color="k", ls="--", lw=1, label=f"cutoff {cutoff:g}")
        ax.legend(loc="upper right", fontsize="small")
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("selection frequency")
    return ax


def _is_series(x) -> bool:
    """A pandas Series (without importing pandas)."""
    return type(x).__name__ == "Series" and hasattr(x, "index") and hasattr(x, "to_numpy")


def _average_linkage_order(rows: np.ndarray, distance=None) -> np.ndarray:
    """Leaf order of average-linkage clustering on Manhattan distances (as stabm)."""
    from scipy.cluster.hierarchy import leaves_list, linkage
    from scipy.spatial.distance import pdist, squareform

    if rows.shape[0] < 2:
        return np.arange(rows.shape[0])
    condensed = (
        pdist(rows.astype(np.float64), metric="cityblock")
        if distance is None
        else squareform(distance, checks=False)
    )
    return leaves_list(linkage(condensed, method="average"))


def plot_feature_stability_map(
    Z, *, n_features=None, feature_names=None, similarity=None, cluster=True, ax=None
):
    """Heat map of runs x features, clustered, like ``stabm::plotFeatures``.

    Only features selected in at least one run are shown. With ``cluster=True``
    the runs and the features are ordered by average-linkage hierarchical
    clustering of their Manhattan distances (for features, of ``1 - similarity``
    when a feature-similarity matrix is given), as stabm does.

    Parameters
    ----------
    Z : selection matrix
        Anything :func:`propstab.as_selection` accepts, or a ResamplingResult.
    n_features, feature_names : optional
        As for :func:`propstab.as_selection`.
    similarity : array-like (d, d), sparse matrix or DataFrame, optional
        Feature similarities used to order the features, validated by
        a feature similarity matrix (symmetric, in [0, 1], unit diagonal).
    cluster : bool, default True
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        With a key (legend beside the map): black "selected", white "not selected".

    Raises
    ------
    TypeError, ValueError
        ``Z`` is not a selection matrix (as :func:`propstab.as_selection`); an invalid
        ``similarity`` (not symmetric, outside [0, 1], not d x d), ``cluster`` or
        ``ax``.
    ValueError
        No feature is selected in any run: nothing to plot.
    ImportError
        ``ax`` is not given and matplotlib is not installed.

    See Also
    --------
    propstab.plots.plot_selection_frequencies : The column means of the map.
    propstab.resample : Its result is drawn directly.

    References
    ----------
    Bommert, A. (2020). stabm: Stability Measures for Feature Selection. R package
    (``plotFeatures``, the plot this follows). Nogueira, S. (2018). Quantifying the
    Stability of Feature Selection. PhD thesis, University of Manchester, sec. 2.2.3
    (the binary matrix Z of M runs over d features).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from propstab.plots import plot_feature_stability_map
    >>> ax = plot_feature_stability_map([[1, 0, 1, 0], [0, 1, 0, 0], [1, 0, 1, 0]])
    >>> ax.images[0].get_array().shape     # 3 runs x the 3 features ever selected
    (3, 3)
    """
    if hasattr(Z, "selection") and not hasattr(Z, "toarray"):
        Z = Z.selection
    sel = as_selection(Z, n_features=n_features, feature_names=feature_names)
    cluster = check_bool("cluster", cluster)
    ax = _axes(ax)
    dense = sel.toarray()
    used = np.flatnonzero(sel.column_counts > 0)
    if used.size == 0:
        fail("Z: no feature is selected in any run; nothing to plot")
    mat = dense[:, used]
    names = sel.feature_names or tuple(range(sel.n_features))
    row_order = np.arange(mat.shape[0])
    col_order = np.arange(mat.shape[1])
    if cluster:
        row_order = _average_linkage_order(mat)
        if similarity is not None:
            S = as_similarity(similarity, sel.n_features, feature_names=sel.feature_names)
            sub = 1.0 - S[used][:, used].toarray()
            np.fill_diagonal(sub, 0.0)
            col_order = _average_linkage_order(mat.T, distance=sub) if used.size > 1 else col_order
        else:
            col_order = _average_linkage_order(mat.T)
    image = ax.imshow(
        mat[np.ix_(row_order, col_order)],
        aspect="auto",
        interpolation="nearest",
        cmap="Greys",
        vmin=0,
        vmax=1,
    )
    from matplotlib.patches import Patch

    key = [
        Patch(facecolor=image.cmap(image.norm(v)), edgecolor="0.3", lw=0.5, label=text)
        for v, text in ((1, "selected"), (0, "not selected"))
    ]
    ax.legend(
        handles=key,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0,
        fontsize="small",
        frameon=False,
    )  # beside the map: no cell hidden
    if used.size <= 60:
        ax.set_xticks(np.arange(used.size))
        ax.set_xticklabels([str(names[used[j]]) for j in col_order], rotation=90, fontsize="small")
    ax.set_xlabel("feature")
    ax.set_ylabel("run")
    ax.set_title(f"feature-stability map: {sel.n_runs} runs, {used.size} features selected")
    return ax


def _points(name: str, values) -> np.ndarray:
    """A 1-D array of numbers, one per point (NaN allowed: never on the front)."""
    arr = as_real_array(name, values)
    if arr.ndim != 1:
        fail(f"{name}: must be 1-D, one value per point; got shape {arr.shape}")
    return arr


def plot_pareto_front(
    score,
    stability=None,
    *,
    labels=None,
    stability_ci=None,
    xlabel="mean out-of-sample score",
    ax=None,
):
    """Stability against score, Pareto-optimal points highlighted and joined.

    Points without a score or stability (NaN) cannot be drawn and are never on the
    front; the plot says so: the legend's title lists them ("left out: ...", with the
    reason for a :class:`~propstab.resampling.Comparison`). Labels are written next to
    the points of the front, and for a Comparison next to every selector shown.

    Parameters
    ----------
    score : array-like (n_points,) or Comparison
        The mean scores (to be maximised, Sechidis et al. 2019, sec. 4.1); or the
        result of ``assess({...})``, whose selectors are plotted with their names,
        95% intervals, the mean score's standard error (horizontal bars) and the
        reasons why any is left out; the model that scored them is named in the
        x-axis label when one model scored every selector, else after each name.
    stability : array-like (n_points,)
        The stabilities (to be maximised); not given with a Comparison.
    labels : sequence, optional
        A label per point (e.g. the regularisation value).
    stability_ci : array-like (n_points, 2), optional
        Confidence intervals of the stabilities, drawn as error bars.
    xlabel : str
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    TypeError, ValueError
        Arrays of different lengths, not numeric, or ``stability`` missing (or given
        with a Comparison).

    See Also
    --------
    propstab.resampling.pareto_front : The non-dominated points.
    propstab.assess : Its Comparison is drawn directly.

    References
    ----------
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD 2019, sec. 4.1 (accuracy against stability, the Pareto front).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from propstab.plots import plot_pareto_front
    >>> ax = plot_pareto_front([0.7, 0.8, 0.6], [0.9, 0.5, 0.4])
    >>> ax.lines[0].get_xdata().tolist()   # the front, by increasing score
    [0.7, 0.8]
    >>> ax = plot_pareto_front([0.7, float("nan")], [0.9, 0.95], labels=["lasso", "kbest"])
    >>> ax.get_legend().get_title().get_text()
    'left out (no score or stability): kbest'
    """
    from .resampling import Comparison
    from .resampling._assess import pareto_mask

    reasons, comparison = {}, None
    if isinstance(score, Comparison):
        if stability is not None or labels is not None or stability_ci is not None:
            fail(
                "stability: with a Comparison, give neither stability, labels "
                "nor stability_ci (they come from the comparison)",
                TypeError,
            )
        comparison = score
        labels = list(comparison.assessments)
        score = [a.mean_score for a in comparison.assessments.values()]
        stability = [a.stability for a in comparison.assessments.values()]
        stability_ci = [a.confidence_interval(0.95) for a in comparison.assessments.values()]
        reasons = dict(comparison.left_out)
        from .resampling._assessments import scorer_label

        scorers = [
            scorer_label(a.result) if a.result.scored_by is not None else None
            for a in comparison.assessments.values()
        ]
        score_se = np.array(
            [a.result.score_standard_error for a in comparison.assessments.values()]
        )
        distinct = {by for by in scorers if by is not None}
        if len(distinct) == 1 and xlabel == "mean out-of-sample score":
            xlabel = f"mean out-of-sample score (scored by {distinct.pop()}; bars: SE)"
        elif len(distinct) > 1:  # name the model after each selector it scored
            named = [name if by is None else f"{name} [{by}]" for name, by in zip(labels, scorers)]
            reasons = {new: reasons[old] for old, new in zip(labels, named) if old in reasons}
            labels = named
    elif stability is None:
        fail(
            "stability: give the stabilities (one per point), or pass a "
            "Comparison as the first argument",
            TypeError,
        )
    x, y = (_points(name, values) for name, values in (("score", score), ("stability", stability)))
    if x.size != y.size:
        fail(
            f"score, stability: must have one value per point each; got "
            f"{x.size} scores and {y.size} stabilities"
        )
    if labels is not None:
        labels = check_labels("labels", labels, x.size, "point")
    ci = None
    if stability_ci is not None:
        ci = as_real_array("stability_ci", stability_ci, "(low, high) pairs of numbers")
        if ci.shape != (x.size, 2):
            fail(
                f"stability_ci: must have shape (n_points, 2) = ({x.size}, 2); " f"got {ci.shape}"
            )
    xlabel = check_text("xlabel", xlabel)
    front, valid = pareto_mask(np.column_stack([x, y]))
    ax = _axes(ax)
    if comparison is not None and np.isfinite(score_se).any():
        ax.errorbar(x, y, xerr=np.nan_to_num(score_se), fmt="none", ecolor="0.6", lw=0.8, zorder=1)
    if ci is not None:
        ax.errorbar(
            x,
            y,
            yerr=np.abs(np.vstack([y - ci[:, 0], ci[:, 1] - y])),
            fmt="none",
            ecolor="0.6",
            lw=0.8,
            zorder=1,
        )
    ax.scatter(
        x[valid & ~front], y[valid & ~front], color="0.6", s=18, zorder=2, label="dominated"
    )
    order = np.argsort(x[front])
    f = np.flatnonzero(front)
    ax.plot(x[front][order], y[front][order], "o-", color="C3", zorder=3, label="Pareto front")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("stability")
    title = None
    if not valid.all():
        missing = [
            str(labels[i]) if labels is not None else f"point {i}" for i in np.flatnonzero(~valid)
        ]
        if reasons:
            title = "left out: " + "; ".join(
                f"{m} ({reasons[m]})" if m in reasons else m for m in missing
            )
        else:
            title = "left out (no score or stability): " + ", ".join(missing)
    if title is not None:
        import textwrap

        title = "\n".join(textwrap.wrap(title, 60)) if len(title) > 60 else title
    boxes = []
    if labels is not None:
        shown = valid if comparison is not None else front  # every selector is named
        # the error bars and the front's line: labels are placed off them (a label on a
        # bar reads as struck through)
        segments = [((x[f][i], y[f][i]), (x[f][j], y[f][j])) for i, j in zip(order, order[1:])]
        if comparison is not None:
            se = np.nan_to_num(score_se)
            segments += [((a - e, b), (a + e, b)) for a, b, e in zip(x, y, se) if e > 0]
        if ci is not None:
            segments += [((a, lo), (a, hi)) for a, (lo, hi) in zip(x, ci)]
        boxes = place_labels(
            ax,
            x[shown],
            y[shown],
            [str(lab) for lab, ok in zip(labels, shown) if ok],
            np.column_stack([x[valid], y[valid]]),
            segments,
        )
    _place_legend(
        ax,
        boxes,
        np.column_stack([x[valid], y[valid]]),
        fontsize="small",
        title=title,
        title_fontsize="x-small",
    )
    return ax


def _place_legend(ax, boxes, points, **kwargs):
    """The legend in the first corner of the axes where it covers no label and no
    marker; beside the axes (right, top-aligned) when every corner is taken."""
    renderer = renderer_of(ax.figure)
    avoid = list(boxes) + point_boxes(ax, points)
    if renderer is not None:
        for loc in (
            "upper right",
            "upper left",
            "lower right",
            "lower left",
            "center right",
            "center left",
            "upper center",
            "lower center",
        ):
            legend = ax.legend(loc=loc, **kwargs)
            box = legend.get_window_extent(renderer)
            if not any(box.overlaps(b) for b in avoid):
                return legend
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0, **kwargs)


__all__ += ["plot_rank_distributions"]


def plot_rank_distributions(R, *, feature_names=None, max_features=30, top_k=None, ax=None):
    """Box plots of each feature's rank over the runs, the best-ranked features first.

    Parameters
    ----------
    R : rank matrix, Rankings, or an object with ``rankings``
        Any form accepted by :func:`propstab.as_rankings` (ranks, 1 the most
        important), e.g. a :class:`~propstab.resampling.RankingAssessment` or a
        :class:`~propstab.resampling.ResamplingResult` from ``output="ranking"``.
    feature_names : sequence, optional
        Default: the rankings' feature names, or "x0", "x1", ...
    max_features : int, default 30
        Show the ``max_features`` features of smallest mean rank.
    top_k : int, optional
        Draw the boundary of the top-k sets (a dashed line at k + 1/2).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        Rank 1 at the top; features ordered by mean rank (ties by median).

    Raises
    ------
    TypeError, ValueError
        ``R`` is not a rank matrix (as :func:`propstab.as_rankings`); an invalid
        ``feature_names``, ``max_features``, ``top_k`` (outside 1..d) or ``ax``.
    ImportError
        ``ax`` is not given and matplotlib is not installed.

    See Also
    --------
    propstab.as_rankings : The rank matrices accepted.
    propstab.assess : With ``output="ranking"`` its result is drawn directly.

    References
    ----------
    Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116
    (the stability of feature rankings).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from propstab.plots import plot_rank_distributions
    >>> ax = plot_rank_distributions([[1, 2, 3], [2, 1, 3], [1, 3, 2]],
    ...                              feature_names=["a", "b", "c"], top_k=1)
    >>> [t.get_text() for t in ax.get_xticklabels()], ax.get_ylim()[0] > ax.get_ylim()[1]
    (['a', 'b', 'c'], True)
    """
    from ._data.convert_rankings import as_rankings
    from ._utils.checks import check_feature_names, check_int_range

    rk = as_rankings(getattr(R, "rankings", R))
    ranks = rk.toarray()
    d = rk.n_features
    max_features = check_int_range("max_features", max_features, minimum=1)
    if feature_names is not None:
        names = check_feature_names(feature_names, d)
    else:
        names = rk.feature_names or [f"x{j}" for j in range(d)]
    names = [str(n) for n in names]
    order = np.lexsort((np.median(ranks, axis=0), ranks.mean(axis=0)))[:max_features]
    ax = _axes(ax)
    ax.boxplot(
        [ranks[:, j] for j in order],
        positions=np.arange(order.size),
        widths=0.6,
        showmeans=True,
        meanprops=dict(marker="o", markersize=3),
    )
    ax.set_xticks(np.arange(order.size))
    ax.set_xticklabels([names[j] for j in order], rotation=90, fontsize="small")
    if top_k is not None:
        k = check_int_range("top_k", top_k, minimum=1, maximum=d)
        ax.axhline(k + 0.5, color="k", ls="--", lw=1, label=f"top {k}")
        ax.legend(loc="lower right", fontsize="small")
    ax.set_ylim(d + 0.5, 0.5)
    ax.set_ylabel(f"rank over {rk.n_runs} runs (1 = most important)")
    return ax


__all__ += ["plot_halfwidth"]


def plot_halfwidth(
    Z,
    measure: str = "nogueira",
    *,
    method: str = "auto",
    ci_method: str = "wald",
    confidence_level: float = 0.95,
    start=None,
    step: int = 1,
    n_runs_max=None,
    target_halfwidth=None,
    ax=None,
    **options,
):
    r"""The estimate and its confidence band against the number of runs M.

    The estimate and its interval on the first m runs (nested prefixes, m = ``start``,
    ``start + step``, ..., M) as a line in a shaded band, and, dashed, the band the
    full estimate predicts for m runs, :math:`\hat\Phi_M \pm h(m)` with
    :math:`h(m) = z_{1-\alpha/2}\sqrt{M v / m}`
    (:func:`propstab.inference.halfwidth_curve`), up to ``n_runs_max``.

    Parameters
    ----------
    Z : selection matrix or StabilityEstimate
        The runs, in the order they were made (or an estimate from
        :func:`propstab.estimate`, which holds them).
    measure, method
        As for :func:`propstab.estimate` (with a selection matrix only).
    ci_method : {"wald", "auto", "logit", "bootstrap", "bca"}, default "wald"
        The interval of each prefix (``StabilityEstimate.confidence_interval``).
    confidence_level : float in (0, 1), default 0.95
    start : int, optional
        The first prefix (default 3, the fewest runs the jackknife needs; at most M).
    step : int >= 1, default 1
    n_runs_max : int, optional
        Extend the predicted band to this many runs (default M). The band always
        reaches the runs needed for ``target_halfwidth`` too, so that it spans the
        whole axis.
    target_halfwidth : float > 0, optional
        Mark :func:`propstab.inference.runs_needed` for this half-width with a vertical
        line (the predicted band is drawn up to it).
    ax : matplotlib Axes, optional
    **options
        The measure's options, as for :func:`propstab.estimate`.

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ValueError, TypeError
        Invalid arguments; fewer than 3 runs.

    See Also
    --------
    propstab.inference.halfwidth_curve, propstab.inference.runs_needed

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2, Thm 6 and Cor. 1 (the
    variance and the interval, whose half-width shrinks as :math:`1/\sqrt{M}`).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import numpy as np
    >>> from propstab.plots import plot_halfwidth
    >>> rng = np.random.default_rng(0)
    >>> Z = (rng.random((40, 12)) < np.linspace(0.95, 0.05, 12)).astype(int)
    >>> ax = plot_halfwidth(Z, n_runs_max=200, target_halfwidth=0.05)
    >>> ax.lines[0].get_xdata()[[0, -1]].tolist()     # the prefixes m = 3..40
    [3.0, 40.0]
    """
    from . import inference
    from ._utils.checks import check_choice, check_confidence_level, check_real_range

    est = inference.as_estimate(Z, measure, method, options)
    ci_method = check_choice("ci_method", ci_method, tuple(inference.CI_METHODS))
    level = check_confidence_level(confidence_level)
    M = est.n_runs
    if M < 3:
        fail(f"Z: needs at least 3 runs to draw estimates against M; got {M}")
    start = 3 if start is None else check_int_range("start", start, minimum=2, maximum=M)
    step = check_int_range("step", step, minimum=1)
    top = M if n_runs_max is None else check_int_range("n_runs_max", n_runs_max, minimum=M)
    if target_halfwidth is not None:
        target_halfwidth = check_real_range(
            "target_halfwidth", target_halfwidth, low=0.0, low_open=True
        )
    with warnings.catch_warnings():
        # the first m runs are few by design: one SmallSampleWarning per prefix would
        # repeat what the estimate of all M runs already says
        warnings.simplefilter("ignore", inference.SmallSampleWarning)
        rows = inference.nested_prefixes(est, start, step, level, ci_method)
    ax = _axes(ax)
    m, phi, low, high = rows.T
    ax.plot(m, phi, "-", color="C0", lw=1.2, label="estimate on the first m runs")
    ax.fill_between(
        m,
        low,
        high,
        color="C0",
        alpha=0.2,
        lw=0,
        label=f"{100 * level:g}% CI ({inference.CI_METHODS[ci_method]})",
    )
    needed = None
    if target_halfwidth is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            needed = inference.runs_needed(est, target_halfwidth, level)
        if needed == needed:  # not NaN: the band reaches it
            top = max(top, int(needed))
    grid = np.unique(np.geomspace(start, top, 200).round().astype(int))
    with np.errstate(invalid="ignore"):
        h = inference.halfwidth_curve(est, grid.tolist(), level)
    lo, hi = est.range
    ax.plot(
        grid,
        np.clip(est.statistic + h, lo, hi),
        "--",
        color="C3",
        lw=1,
        label=f"predicted from M = {M}: estimate ± z sqrt(c/m)",
    )
    ax.plot(grid, np.clip(est.statistic - h, lo, hi), "--", color="C3", lw=1)
    if needed is not None and needed == needed:  # not NaN
        ax.axvline(
            needed,
            color="0.4",
            ls=":",
            lw=1,
            label=f"half-width {target_halfwidth:g}: m = {needed}",
        )
    ax.set_xlabel("runs m")
    ax.set_ylabel(f"stability ({est.measure})")
    ax.legend(loc="best", fontsize="small")
    return ax
