"""Plots of stability: the stability path, selection frequencies, the
feature-stability map and the accuracy-versus-stability Pareto front.

matplotlib is imported only when a plot is drawn (``pip install propstab[plot]``).
Every function draws on ``ax`` (a new figure's axes by default) and returns it.
"""
from __future__ import annotations

import numpy as np

from ._validation import (_shown, as_real_array, as_selection, as_similarity, check_axes,
                          check_bool,
                          check_int_range, check_labels, check_probabilities, check_text,
                          check_unit_interval)

__all__ = ["plot_feature_stability_map", "plot_pareto_front", "plot_selection_frequencies",
           "plot_stability_path"]


def _axes(ax):
    if ax is not None:
        return check_axes("ax", ax)
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib; install it with "
                          "`pip install propstab[plot]`") from None
    _, ax = plt.subplots(figsize=(7, 4.5))
    return ax


def plot_stability_path(selector, *, feature_names=None, log_scale=None, ax=None,
                        max_labels=10):
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
        raise TypeError(f"selector: a stability path needs a numeric param_grid; got "
                        f"{_shown(selector.param_grid_)}") from None
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
    ax.axhline(selector.cutoff_, color="k", ls="--", lw=1,
               label=f"cutoff {selector.cutoff_:g}")
    if log_scale is None:
        positive = grid[grid > 0]
        log_scale = positive.size == grid.size and grid.size > 1 and \
            positive.max() / positive.min() > 20
    if log_scale:
        ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(getattr(selector, "param_name", "regularisation"))
    ax.set_ylabel("selection probability")
    ax.set_title(f"stability path: {int(stable.sum())} stable of {d} features")
    ax.legend(loc="best", fontsize="small")
    return ax


def _check_fitted_selection(selector):
    """A fitted StabilitySelection (or an object with its fitted attributes)."""
    needed = ("stability_scores_", "param_grid_", "support_", "cutoff_")
    if not hasattr(selector, "fit") and not all(hasattr(selector, a) for a in needed):
        raise TypeError(f"selector: must be a fitted StabilitySelection; got "
                        f"{_shown(selector)}")
    missing = [a for a in needed if not hasattr(selector, a)]
    if missing:
        from sklearn.exceptions import NotFittedError   # a ValueError
        raise NotFittedError(f"selector: this {type(selector).__name__} is not fitted (no "
                             f"{missing[0]}); call fit(X, y) before plotting its path")


def plot_selection_frequencies(frequencies, *, feature_names=None, threshold=None,
                               sort=True, max_features=50, ax=None):
    """Bar chart of per-feature selection frequencies p̂_f.

    Parameters
    ----------
    frequencies : array-like (d,) or object with ``frequencies`` or ``selection_probabilities_``
        E.g. a :class:`~propstab.resampling.ResamplingResult`, an
        :class:`~propstab.resampling.Assessment` or a fitted StabilitySelection.
    feature_names : sequence, optional
    threshold : float, optional
        Drawn as a dashed line; bars at or above it are highlighted.
    sort : bool, default True
        Most frequent features first.
    max_features : int, default 50
        Show at most this many bars.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from propstab.plots import plot_selection_frequencies
    >>> ax = plot_selection_frequencies([0.1, 0.9, 0.5], feature_names=["a", "b", "c"])
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['b', 'c', 'a']
    """
    for attr in ("frequencies", "selection_probabilities_"):
        if hasattr(frequencies, attr):
            if feature_names is None:
                feature_names = getattr(getattr(frequencies, "result", frequencies),
                                        "feature_names", None) or \
                    getattr(frequencies, "feature_names_in_", None)
            frequencies = getattr(frequencies, attr)
            break
    freq = check_probabilities("frequencies", frequencies)
    d = freq.size
    names = [f"x{j}" for j in range(d)] if feature_names is None else [
        str(n) for n in check_labels("feature_names", feature_names, d, "frequency")]
    if threshold is not None:
        threshold = check_unit_interval("threshold", threshold)
    sort = check_bool("sort", sort)
    max_features = check_int_range("max_features", max_features, minimum=1)
    ax = _axes(ax)
    order = np.argsort(-freq, kind="stable") if sort else np.arange(d)
    order = order[:max_features]
    colors = ["C0" if threshold is None or freq[j] >= threshold else "0.7" for j in order]
    ax.bar(np.arange(order.size), freq[order], color=colors)
    ax.set_xticks(np.arange(order.size))
    ax.set_xticklabels([names[j] for j in order], rotation=90, fontsize="small")
    if threshold is not None:
        ax.axhline(threshold, color="k", ls="--", lw=1, label=f"threshold {threshold:g}")
        ax.legend(loc="upper right", fontsize="small")
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("selection frequency")
    return ax


def _average_linkage_order(rows: np.ndarray, distance=None) -> np.ndarray:
    """Leaf order of average-linkage clustering on Manhattan distances (as stabm)."""
    from scipy.cluster.hierarchy import leaves_list, linkage
    from scipy.spatial.distance import pdist, squareform
    if rows.shape[0] < 2:
        return np.arange(rows.shape[0])
    condensed = pdist(rows.astype(np.float64), metric="cityblock") if distance is None \
        else squareform(distance, checks=False)
    return leaves_list(linkage(condensed, method="average"))


def plot_feature_stability_map(Z, *, n_features=None, feature_names=None, similarity=None,
                               cluster=True, ax=None):
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
        :func:`propstab._validation.as_similarity` (symmetric, in [0, 1], unit diagonal).
    cluster : bool, default True
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

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
        raise ValueError("Z: no feature is selected in any run; nothing to plot")
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
            col_order = _average_linkage_order(mat.T, distance=sub) if used.size > 1 \
                else col_order
        else:
            col_order = _average_linkage_order(mat.T)
    ax.imshow(mat[np.ix_(row_order, col_order)], aspect="auto", interpolation="nearest",
              cmap="Greys", vmin=0, vmax=1)
    if used.size <= 60:
        ax.set_xticks(np.arange(used.size))
        ax.set_xticklabels([str(names[used[j]]) for j in col_order], rotation=90,
                           fontsize="small")
    ax.set_xlabel("feature")
    ax.set_ylabel("run")
    ax.set_title(f"feature-stability map: {sel.n_runs} runs, {used.size} features selected")
    return ax


def _points(name: str, values) -> np.ndarray:
    """A 1-D array of numbers, one per point (NaN allowed: never on the front)."""
    arr = as_real_array(name, values)
    if arr.ndim != 1:
        raise ValueError(f"{name}: must be 1-D, one value per point; got shape {arr.shape}")
    return arr


def plot_pareto_front(score, stability, *, labels=None, stability_ci=None,
                      xlabel="mean out-of-sample score", ax=None):
    """Stability against score, Pareto-optimal points highlighted and joined.

    Parameters
    ----------
    score, stability : array-like (n_points,)
        Both to be maximised (Sechidis et al. 2019, sec. 4.1).
    labels : sequence, optional
        A label per point (e.g. the regularisation value).
    stability_ci : array-like (n_points, 2), optional
        Confidence intervals of the stabilities, drawn as error bars.
    xlabel : str
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from propstab.plots import plot_pareto_front
    >>> ax = plot_pareto_front([0.7, 0.8, 0.6], [0.9, 0.5, 0.4])
    >>> ax.lines[0].get_xdata().tolist()   # the front, by increasing score
    [0.7, 0.8]
    """
    from .resampling import pareto_front
    x, y = (_points(name, values) for name, values in (("score", score),
                                                        ("stability", stability)))
    if x.size != y.size:
        raise ValueError(f"score, stability: must have one value per point each; got "
                         f"{x.size} scores and {y.size} stabilities")
    if labels is not None:
        labels = check_labels("labels", labels, x.size, "point")
    ci = None
    if stability_ci is not None:
        ci = as_real_array("stability_ci", stability_ci, "(low, high) pairs of numbers")
        if ci.shape != (x.size, 2):
            raise ValueError(f"stability_ci: must have shape (n_points, 2) = ({x.size}, 2); "
                             f"got {ci.shape}")
    xlabel = check_text("xlabel", xlabel)
    front = pareto_front(x, y)
    ax = _axes(ax)
    if ci is not None:
        ax.errorbar(x, y, yerr=np.abs(np.vstack([y - ci[:, 0], ci[:, 1] - y])), fmt="none",
                    ecolor="0.6", lw=0.8, zorder=1)
    ax.scatter(x[~front], y[~front], color="0.6", s=18, zorder=2, label="dominated")
    order = np.argsort(x[front])
    ax.plot(x[front][order], y[front][order], "o-", color="C3", zorder=3, label="Pareto front")
    if labels is not None:
        for xi, yi, lab, f in zip(x, y, labels, front):
            if f:
                ax.annotate(str(lab), (xi, yi), textcoords="offset points", xytext=(4, 4),
                            fontsize="x-small")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("stability")
    ax.legend(loc="best", fontsize="small")
    return ax


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

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from propstab.plots import plot_rank_distributions
    >>> ax = plot_rank_distributions([[1, 2, 3], [2, 1, 3], [1, 3, 2]],
    ...                              feature_names=["a", "b", "c"], top_k=1)
    >>> [t.get_text() for t in ax.get_xticklabels()], ax.get_ylim()[0] > ax.get_ylim()[1]
    (['a', 'b', 'c'], True)
    """
    from ._validation import as_rankings, check_feature_names, check_int_range
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
    ax.boxplot([ranks[:, j] for j in order], positions=np.arange(order.size),
               widths=0.6, showmeans=True, meanprops=dict(marker="o", markersize=3))
    ax.set_xticks(np.arange(order.size))
    ax.set_xticklabels([names[j] for j in order], rotation=90, fontsize="small")
    if top_k is not None:
        k = check_int_range("top_k", top_k, minimum=1, maximum=d)
        ax.axhline(k + 0.5, color="k", ls="--", lw=1, label=f"top {k}")
        ax.legend(loc="lower right", fontsize="small")
    ax.set_ylim(d + 0.5, 0.5)
    ax.set_ylabel(f"rank over {rk.n_runs} runs (1 = most important)")
    return ax
