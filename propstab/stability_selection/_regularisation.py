"""The regularisation parameter of an estimator and its data-driven path.

:func:`locate_penalty` finds, inside an estimator (a Pipeline's last step, a
SelectFromModel's estimator, nested), the sparse model whose penalty stability
selection runs over, and its parameter name as ``set_params`` spells it
(``"lasso__alpha"``, ``"selectfrommodel__estimator__C"``). :func:`default_path`
computes the path from the largest useful penalty, where the first feature enters,
down over a log grid of ``n_alphas`` values spanning a ratio ``eps``:

- Lasso, LassoLars, ElasticNet: :math:`\\alpha_{max} = \\max_j |x_j^T (y - \\bar y)|
  / (n \\, \\rho)` (``rho`` = ``l1_ratio``; ``y`` uncentred without intercept), then
  ``logspace(log10(eps alpha_max), log10(alpha_max), n_alphas)`` in decreasing order,
  the grid of scikit-learn's ``LassoCV``/``ElasticNetCV`` (centring X does not change
  :math:`X^T (y - \\bar y)`);
- L1 LogisticRegression and LinearSVC: :math:`C_{min}` from
  :func:`sklearn.svm.l1_min_c` (below it the model is empty), then
  ``C_min * logspace(0, -log10(eps), n_alphas)`` in increasing order.

The steps before the model in a Pipeline are fitted on the data first, so the path is
computed on the data the model sees.
"""
from __future__ import annotations

import dataclasses
from typing import Optional, Tuple

import numpy as np

from .._utils.checks import fail, shown

__all__ = ["Penalty", "default_path", "locate_penalty"]


@dataclasses.dataclass(frozen=True)
class Penalty:
    """Where an estimator's sparsity penalty is: the parameter name (as ``set_params``
    spells it), the model holding it, its kind (``"alpha"`` or ``"C"``), and the
    transformers that come before the model (outermost first)."""

    param_name: str
    model: object
    kind: str
    before: Tuple[object, ...] = ()


def _l1_model(est) -> Optional[str]:
    """``"alpha"`` or ``"C"`` when ``est`` is a sparse linear model stability selection
    knows the path of, else None."""
    from sklearn.linear_model import ElasticNet, LassoLars, LogisticRegression
    from sklearn.svm import LinearSVC

    if isinstance(est, (ElasticNet, LassoLars)):  # Lasso is an ElasticNet
        return "alpha"
    if (
        isinstance(est, (LogisticRegression, LinearSVC))
        and est.get_params().get("penalty") == "l1"
    ):
        return "C"
    return None


def locate_penalty(estimator, prefix: str = "") -> Optional[Penalty]:
    """The sparsity penalty of ``estimator``, looked for in a Pipeline's last step and a
    SelectFromModel's estimator (recursively); None when there is none it knows.

    Examples
    --------
    >>> from sklearn.linear_model import Lasso, LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from propstab.stability_selection._regularisation import locate_penalty
    >>> locate_penalty(Lasso()).param_name
    'alpha'
    >>> l1 = LogisticRegression(penalty="l1", solver="liblinear")
    >>> locate_penalty(make_pipeline(StandardScaler(), l1)).param_name
    'logisticregression__C'
    """
    from sklearn.feature_selection import SelectFromModel
    from sklearn.pipeline import Pipeline

    kind = _l1_model(estimator)
    if kind is not None:
        return Penalty(prefix + kind, estimator, kind)
    if isinstance(estimator, Pipeline) and estimator.steps:
        name, last = estimator.steps[-1]
        inner = locate_penalty(last, f"{prefix}{name}__")
        if inner is None:
            return None
        before = (Pipeline(estimator.steps[:-1]),) if len(estimator.steps) > 1 else ()
        return dataclasses.replace(inner, before=before + inner.before)
    if isinstance(estimator, SelectFromModel):
        return locate_penalty(estimator.estimator, prefix + "estimator__")
    return None


def infer_param_name(estimator) -> str:
    """The name of ``estimator``'s sparsity penalty, or ValueError naming ``param_name``."""
    found = locate_penalty(estimator)
    if found is None:
        fail(
            f"param_name: cannot be inferred for {shown(estimator)} (known: "
            f"Lasso, LassoLars, ElasticNet: 'alpha'; LogisticRegression and "
            f"LinearSVC with penalty='l1': 'C'; a Pipeline or SelectFromModel "
            f"ending in one of them: '<step>__<param>'); pass param_name= and "
            f"param_grid="
        )
    return found.param_name


def default_path(penalty: Penalty, X, y, *, n_alphas: int, eps: float) -> np.ndarray:
    """The data-driven path of ``penalty`` on (X, y), largest penalty first.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab.stability_selection._regularisation import default_path, locate_penalty
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])
    >>> y = np.array([3.0, 1.0, 4.0, 0.0])
    >>> path = default_path(locate_penalty(Lasso()), X, y, n_alphas=3, eps=0.01)
    >>> [round(float(a), 4) for a in path]      # max |X^T (y - 2)| / 4 = 0.75, down 100-fold
    [0.75, 0.075, 0.0075]
    """
    from sklearn.base import clone

    for step in penalty.before:
        X = clone(step).fit_transform(X, y)
    model = penalty.model
    name = type(model).__name__
    if penalty.kind == "alpha":
        rho = float(getattr(model, "l1_ratio", 1.0))
        if rho <= 0:
            fail(
                f"param_grid: {name}(l1_ratio={rho!r}) has no L1 penalty, so no "
                f"path on which features enter; give param_grid="
            )
        try:
            y = np.asarray(y, dtype=np.float64)
        except (TypeError, ValueError):
            fail(f"y: {name} needs a numeric target for its alpha path; got " f"{shown(y)}")
        if model.get_params().get("fit_intercept", True):
            y = y - y.mean()
        Xy = np.abs(np.asarray(X.T @ y, dtype=np.float64)).ravel()
        top = float(Xy.max()) / (X.shape[0] * rho)
        tiny = np.finfo(float).resolution
        if top <= tiny:  # y constant: as scikit-learn's alpha grid
            return np.full(n_alphas, tiny)
        return np.logspace(np.log10(top * eps), np.log10(top), num=n_alphas)[::-1]
    from sklearn.svm import l1_min_c

    loss = "log" if name == "LogisticRegression" else "squared_hinge"
    params = model.get_params()
    try:
        c_min = l1_min_c(
            X,
            y,
            loss=loss,
            fit_intercept=params.get("fit_intercept", True),
            intercept_scaling=params.get("intercept_scaling", 1.0),
        )
    except ValueError as exc:
        fail(f"y: no L1 path for {name}: {exc}")
    return c_min * np.logspace(0.0, -np.log10(eps), num=n_alphas)
