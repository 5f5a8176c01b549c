"""The calibration plot of stability selection (:func:`plot_calibration`), exported by
:mod:`propstab.plots`: sharp's stability score over penalty x pi (as sharp's
``CalibrationPlot``), or Stabl's FDP+ curve."""
from __future__ import annotations

import math

import numpy as np

from .._utils.checks import check_axes, check_bool, fail, shown


def plot_calibration(selector, *, log_scale=None, ax=None):
    r"""The calibration of a fitted StabilitySelection: what was maximised or minimised.

    ``calibration="stability_score"``: the stability score (Bodinier et al. 2023) over
    the path (rows) and pi (columns) as a heat map, as sharp's ``CalibrationPlot``;
    white where it is undefined or excluded by the PFER constraint; the chosen
    (penalty, pi) is marked. ``calibration="fdp"``: the FDP+ curve of Stabl (Hedou
    et al. 2024) against the threshold t,

    .. math:: FDP^+(t) = \frac{1 + \#\{\text{artificial} > t\}}{\max(1, \#\{\text{real} > t\})},

    with the chosen t marked.

    Parameters
    ----------
    selector : StabilitySelection
        Fitted with ``calibration="stability_score"`` or ``"fdp"``.
    log_scale : bool, optional
        For the heat map: label the penalties on a log scale (default: when the
        positive path spans a factor > 20). Not used for the FDP+ curve.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    TypeError
        ``selector`` is not a fitted StabilitySelection; an invalid ``log_scale`` or
        ``ax``.
    ValueError
        ``selector`` was fitted with ``calibration="pfer"`` (a fixed cutoff: no curve;
        see :func:`propstab.plots.plot_stability_path`), or is not fitted.
    ImportError
        ``ax`` is not given and matplotlib is not installed.

    See Also
    --------
    propstab.StabilitySelection : Its ``calibration_`` is drawn.
    propstab.stability_score, propstab.calibration.fdp_plus : The criteria.

    References
    ----------
    Bodinier, B. et al. (2023). Automated calibration for stability selection in
    penalised regression and graphical models. JRSS C 72(5), 1375-1393 (sharp's
    ``CalibrationPlot``). Hedou, J. et al. (2024). Discovery of sparse, reliable omic
    biomarkers with Stabl. Nature Biotechnology 42, 1581-1593.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import StabilitySelection
    >>> from propstab.plots import plot_calibration
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 8)); y = 3 * X[:, 0] + rng.normal(size=100)
    >>> ss = StabilitySelection(Lasso(), n_alphas=5, n_subsamples=10, random_state=0,
    ...                         calibration="stability_score", PFER=None).fit(X, y)
    >>> ax = plot_calibration(ss)
    >>> len(ax.images), ax.get_xlabel()
    (1, 'pi')
    """
    cal = getattr(selector, "calibration_", None)
    if cal is None:
        if hasattr(selector, "fit") and hasattr(selector, "calibration"):
            from sklearn.exceptions import NotFittedError  # a ValueError

            raise NotFittedError(
                f"selector: this {type(selector).__name__} is not fitted; "
                f"call fit(X, y) before plotting its calibration"
            )
        fail(
            f"selector: must be a fitted StabilitySelection; got " f"{shown(selector)}", TypeError
        )
    if cal.method == "pfer":
        fail(
            "selector: fitted with calibration='pfer' (a fixed cutoff), which "
            "has no calibration curve; fit with calibration='stability_score' "
            "or 'fdp', or draw plot_stability_path(selector)"
        )
    log_scale = check_bool("log_scale", log_scale, none=True)
    ax = check_axes("ax", ax) if ax is not None else _new_axes()
    if cal.method == "fdp":
        return _fdp_curve(cal, ax)
    return _score_map(cal, ax, log_scale)


def _new_axes():
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(
            "plots need matplotlib; install it with " "`pip install propstab[plot]`"
        ) from None
    return plt.subplots(figsize=(7, 4.5))[1]


def _fdp_curve(cal, ax):
    ax.plot(cal.thresholds, cal.curve, color="C0", lw=1.6, label="FDP+")
    ax.axvline(
        cal.threshold,
        color="k",
        ls="--",
        lw=1,
        label=f"t = {cal.threshold:.3g} (FDP+ {cal.criterion:.3g}, " f"{cal.n_selected} selected)",
    )
    ax.set_xlabel("threshold t on the maximal selection proportion")
    ax.set_ylabel("FDP+")
    ax.set_title("calibration by artificial features (Stabl's FDP+)")
    ax.legend(loc="best", fontsize="small")
    return ax


def _score_map(cal, ax, log_scale):
    scores = np.ma.masked_invalid(np.asarray(cal.curve, dtype=np.float64))
    pis = np.asarray(cal.thresholds, dtype=np.float64)
    grid = np.asarray(cal.param_grid)
    half = (pis[1] - pis[0]) / 2 if pis.size > 1 else 0.005
    image = ax.imshow(
        scores,
        aspect="auto",
        origin="upper",
        cmap="viridis",
        interpolation="nearest",
        extent=(pis[0] - half, pis[-1] + half, grid.size - 0.5, -0.5),
    )
    ax.figure.colorbar(image, ax=ax, label="stability score")
    ticks = np.unique(np.linspace(0, grid.size - 1, min(grid.size, 8)).round().astype(int))
    ax.set_yticks(ticks)
    if log_scale is None:
        positive = grid[grid > 0] if np.issubdtype(grid.dtype, np.number) else grid[:0]
        log_scale = positive.size == grid.size > 1 and positive.max() / positive.min() > 20
    ax.set_yticklabels(
        [f"{grid[i]:.3g}" if np.issubdtype(grid.dtype, np.number) else str(grid[i]) for i in ticks]
    )
    if not math.isnan(cal.threshold):
        g = int(np.flatnonzero(grid == cal.penalty)[0])
        ax.plot(
            [cal.threshold],
            [g],
            marker="o",
            ms=9,
            mfc="none",
            mec="red",
            mew=2,
            label=f"{cal.param_name} = {cal.penalty:.3g}, pi = {cal.threshold:.3g}",
        )
        ax.legend(loc="lower right", fontsize="small")
    ax.set_xlabel("pi")
    ax.set_ylabel(f"{cal.param_name}{' (log-spaced path)' if log_scale else ''}")
    ax.set_title("calibration by the stability score (sharp)")
    return ax
