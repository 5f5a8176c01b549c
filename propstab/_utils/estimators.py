"""How a fitted estimator is read as a selection: its importances, its support, its
ranking, and a scikit-learn ``Pipeline`` read through its steps back to the columns of X.

The public names are documented and exported by :mod:`propstab.selectors`
(``propstab.selectors.support_of``, ...); this module holds the rules.
"""
from __future__ import annotations

import numbers
from typing import Optional, Tuple

import numpy as np

from .checks import check_int_range, check_n_features, check_real, fail

__all__ = [
    "fits_a_classifier",
    "final_estimator",
    "has_rule",
    "importances_of",
    "is_pipeline",
    "pipeline_steps",
    "ranking_of",
    "searched",
    "support_of",
]


def searched(estimator):
    """A fitted search's refitted best estimator, else ``estimator`` itself.

    A fitted ``GridSearchCV`` or ``RandomizedSearchCV`` (anything with
    ``best_estimator_`` and no ``get_support()`` of its own) selects what its best
    estimator selects; one fitted with ``refit=False`` (``cv_results_`` but no
    ``best_estimator_``) has no selection and raises TypeError naming ``selector``.

    >>> from types import SimpleNamespace
    >>> best = SimpleNamespace(coef_=[1.0, 0.0])
    >>> searched(SimpleNamespace(best_estimator_=best, cv_results_={})) is best
    True
    """
    if hasattr(estimator, "get_support"):
        return estimator
    if hasattr(estimator, "best_estimator_"):
        return estimator.best_estimator_
    if hasattr(estimator, "cv_results_"):
        fail(
            f"selector: {type(estimator).__name__} was fitted with refit=False: "
            f"it has no best_estimator_ to read a selection from; use "
            f"refit=True",
            TypeError,
        )
    return estimator


def importances_of(estimator) -> Optional[np.ndarray]:
    """The importances of a fitted estimator, or None when it has none.

    Parameters
    ----------
    estimator : fitted estimator
        A model, or a scikit-learn ``Pipeline`` (its final step's importances, mapped
        back to the columns of X through the selection steps before it: 0 for the
        features they removed).

    Returns
    -------
    ndarray of float64 or None
        ``|coef_|``, else ``feature_importances_``, else None. A 2-D ``coef_`` (one
        row per class or output) becomes the L1 norm of each column, scikit-learn's
        convention (``SelectFromModel``'s default ``norm_order=1``).

    Raises
    ------
    TypeError
        A pipeline step changes the number of columns and is not a selector
        (no ``get_support()``): its output cannot be mapped back to the features.

    See Also
    --------
    propstab.selectors.support_of : The support these importances give.
    propstab.selectors.ranking_of : The ranking read from them when there is none.

    Notes
    -----
    For ``coef_`` of shape (K, d): :math:`w_f = \\sum_k |\\beta_{kf}|`, as
    ``sklearn.feature_selection.SelectFromModel`` ranks features.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn User Guide, sec. 1.13 Feature selection
    (``get_support``, ``SelectFromModel``'s importances ``coef_`` and
    ``feature_importances_``, ``RFE``'s ``ranking_``, ``SelectKBest``'s ``scores_``).

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from propstab.selectors import importances_of
    >>> importances_of(SimpleNamespace(coef_=np.array([-2.0, 0.0, 1.0]))).tolist()
    [2.0, 0.0, 1.0]
    >>> importances_of(SimpleNamespace(coef_=np.array([[3.0, 0.0], [-4.0, 1.0]]))).tolist()
    [7.0, 1.0]
    """
    estimator = searched(estimator)
    if is_pipeline(estimator):
        return pipeline_importances(estimator)
    if hasattr(estimator, "coef_"):
        coef = np.asarray(estimator.coef_, dtype=np.float64)
        if coef.ndim == 1:
            return np.abs(coef)
        return np.sum(np.abs(coef.reshape(-1, coef.shape[-1])), axis=0)
    if hasattr(estimator, "feature_importances_"):
        return np.asarray(estimator.feature_importances_, dtype=np.float64)
    return None


# ------------------------------------------------------------------ pipelines


def is_pipeline(estimator) -> bool:
    """A scikit-learn Pipeline (or a look-alike: a list of (name, step) ``steps``)."""
    steps = getattr(estimator, "steps", None)
    return (
        isinstance(steps, list)
        and len(steps) > 0
        and not isinstance(estimator, type)
        and all(isinstance(s, tuple) and len(s) == 2 for s in steps)
    )


def pipeline_steps(pipe):
    """The (name, step) pairs that do something (``None``/"passthrough" dropped)."""
    return [
        (name, step)
        for name, step in pipe.steps
        if step is not None and not (isinstance(step, str) and step == "passthrough")
    ]


def fits_a_classifier(estimator) -> bool:
    """Whether fitting ``estimator`` fits a classifier on y: it is one
    (``sklearn.base.is_classifier``), or a step of a pipeline, or the ``estimator`` of a
    meta-selector (``SelectFromModel``, ``RFE``, ...), is one.

    >>> from sklearn.feature_selection import SelectFromModel
    >>> from sklearn.linear_model import Lasso, LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> fits_a_classifier(make_pipeline(StandardScaler(), LogisticRegression()))
    True
    >>> fits_a_classifier(SelectFromModel(LogisticRegression())), fits_a_classifier(Lasso())
    (True, False)
    """
    try:
        from sklearn.base import is_classifier
    except ImportError:  # pragma: no cover
        return False
    if is_classifier(estimator):
        return True
    if is_pipeline(estimator):
        return any(fits_a_classifier(step) for _, step in pipeline_steps(estimator))
    inner = getattr(estimator, "estimator", None)
    return inner is not None and not isinstance(inner, type) and fits_a_classifier(inner)


def columns_through(pipe, steps, n_features: int, argument: str = "selector"):
    """Follow the columns of X through ``steps`` (all but the last are applied): the
    original indices of the columns that reach each step. Selection steps
    (``get_support()``) keep their selected columns; other steps must keep the number
    of columns (read from the next step's ``n_features_in_``), else TypeError."""
    cols = np.arange(n_features)
    for i, (name, step) in enumerate(steps):
        width = getattr(step, "n_features_in_", None)
        if i and isinstance(width, numbers.Integral) and int(width) != cols.size:
            before_name, before = steps[i - 1]
            fail(
                f"{argument}: the Pipeline step {before_name!r} "
                f"({type(before).__name__}) changes the number of columns "
                f"({cols.size} -> {int(width)}) and is not a selector (no "
                f"get_support()): its output cannot be mapped back to the "
                f"features of X; select the features before it, or leave it "
                f"out",
                TypeError,
            )
        if i == len(steps) - 1:
            break
        if hasattr(step, "get_support"):
            mask = np.asarray(step.get_support())
            if mask.dtype != bool or mask.shape != (cols.size,):
                fail(
                    f"{argument}: the Pipeline step {name!r} "
                    f"({type(step).__name__}).get_support() must return a "
                    f"boolean mask of {cols.size} entries; got {mask.dtype} of "
                    f"shape {mask.shape}"
                )
            cols = cols[mask]
    return cols


def pipeline_importances(pipe) -> Optional[np.ndarray]:
    steps = pipeline_steps(pipe)
    if not steps:
        return None
    n_features = getattr(steps[0][1], "n_features_in_", None)
    final = importances_of(steps[-1][1])
    if final is None or not isinstance(n_features, numbers.Integral):
        return None
    cols = columns_through(pipe, steps, int(n_features))
    if final.shape != (cols.size,):
        return None
    full = np.zeros(int(n_features))
    full[cols] = final
    return full


def pipeline_support(pipe, n_features: int, threshold, top_k, argument: str = "selector"):
    """The support of a fitted pipeline over the columns of X, and its importances."""
    steps = pipeline_steps(pipe)
    name = type(pipe).__name__
    if not steps:
        fail(f"{argument}: the {name} has no steps", TypeError)
    selecting = [i for i, (_, step) in enumerate(steps) if hasattr(step, "get_support")]
    if selecting and threshold is None and top_k is None:
        last = selecting[-1]
        cols = columns_through(pipe, steps[: last + 1], n_features, argument)
        step_name, step = steps[last]
        mask = np.asarray(step.get_support())
        if mask.dtype != bool or mask.shape != (cols.size,):
            fail(
                f"{argument}: the Pipeline step {step_name!r} "
                f"({type(step).__name__}).get_support() must return a boolean "
                f"mask of {cols.size} entries; got {mask.dtype} of shape "
                f"{mask.shape}"
            )
        support = np.zeros(n_features, dtype=bool)
        support[cols[mask]] = True
        return support, pipeline_importances(pipe)
    cols = columns_through(pipe, steps, n_features, argument)
    final_name, final = steps[-1]
    imp = importances_of(final)
    if imp is None:
        fail(
            f"{argument}: the {name} has no selection step (get_support()) and "
            f"its final step {final_name!r} ({type(final).__name__}) has neither "
            f"coef_ nor feature_importances_",
            TypeError,
        )
    if imp.shape != (cols.size,):
        fail(
            f"{argument}: the importances of the final step {final_name!r} have "
            f"shape {imp.shape}; {cols.size} columns reach it"
        )
    full = np.zeros(n_features)
    full[cols] = imp
    rule_free = threshold is None and top_k is None and not hasattr(final, "coef_")
    if rule_free:
        fail(
            f"{argument}: the final step {final_name!r} of the {name} has "
            f"feature_importances_; pass threshold= or top_k= to turn them "
            f"into a selection"
        )
    return mask_of_importances(full, threshold, top_k), full


def has_rule(est) -> bool:
    """Whether a fitted estimator selects by itself: ``get_support()`` or ``coef_`` (for a
    pipeline: a selection step, or a final model with ``coef_``; for a fitted search: its
    best estimator)."""
    est = searched(est)
    if is_pipeline(est):
        steps = pipeline_steps(est)
        return bool(steps) and (
            any(hasattr(s, "get_support") for _, s in steps) or hasattr(steps[-1][1], "coef_")
        )
    return hasattr(est, "get_support") or hasattr(est, "coef_")


def mask_of_importances(imp, threshold, top_k):
    """The ``top_k`` largest importances, those above ``threshold``, or the nonzero."""
    if top_k is not None:
        mask = np.zeros(imp.size, dtype=bool)
        if top_k > 0:
            mask[np.argsort(-imp, kind="stable")[:top_k]] = True
        return mask
    if threshold is not None:
        return imp > threshold
    return imp != 0


def support_of(
    estimator, n_features: int, *, threshold=None, top_k=None, argument: str = "selector"
) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """The boolean support of a fitted estimator and its importances.

    Parameters
    ----------
    estimator : fitted estimator
    n_features : int
        d, the number of columns of the data it was fitted on.
    threshold : float, optional
        Select the features whose importance is above ``threshold``.
    top_k : int, optional
        Select the ``top_k`` largest importances (ties broken by feature index).
    argument : str, default "selector"
        The caller's name for the estimator, which the messages start with
        (``"estimator"`` in :class:`~propstab.StabilitySelection`).

    Returns
    -------
    mask : ndarray of bool, shape (n_features,)
    importances : ndarray or None
        As :func:`importances_of`.

    Raises
    ------
    TypeError
        The estimator has neither ``get_support()``, ``coef_`` nor
        ``feature_importances_``; or a pipeline step changes the number of columns
        without being a selector.
    ValueError
        Its importances do not have one entry per feature; or it has only
        ``feature_importances_`` and neither ``threshold`` nor ``top_k`` is given.

    See Also
    --------
    propstab.selectors.importances_of : The importances it reads.
    propstab.selectors.fit_select : Fits an estimator and reads its support.

    Notes
    -----
    With neither ``threshold`` nor ``top_k``, a selector's ``get_support()`` is
    used, else the nonzero ``coef_``. ``feature_importances_`` (of trees) are
    rarely exactly zero, so they need a rule.

    A scikit-learn ``Pipeline`` is read through its steps: the support of its last
    selection step (``get_support()``), mapped back through the selection steps
    before it to the columns of X; or, without a selection step (or with
    ``threshold``/``top_k``), its final model's importances mapped back the same way
    (0 for the features an earlier step removed). Steps that keep the number of
    columns (``StandardScaler``, imputers) pass through; a step that changes it and is
    not a selector (``PCA``) raises TypeError naming the step.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn User Guide, sec. 1.13 Feature selection
    (``get_support``, ``SelectFromModel``'s importances ``coef_`` and
    ``feature_importances_``, ``RFE``'s ``ranking_``, ``SelectKBest``'s ``scores_``).

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from propstab.selectors import support_of
    >>> model = SimpleNamespace(coef_=np.array([0.5, 0.0, -2.0, 0.1]))
    >>> support_of(model, 4)[0].tolist()
    [True, False, True, True]
    >>> support_of(model, 4, top_k=2)[0].tolist()
    [True, False, True, False]
    >>> support_of(model, 4, threshold=0.3)[0].tolist()
    [True, False, True, False]
    """
    n_features = check_n_features(n_features)
    if threshold is not None:
        threshold = check_real("threshold", threshold)
    if top_k is not None:
        top_k = check_int_range("top_k", top_k, minimum=0)
    estimator = searched(estimator)
    if is_pipeline(estimator):
        return pipeline_support(estimator, n_features, threshold, top_k, argument)
    if top_k is None and threshold is None and hasattr(estimator, "get_support"):
        mask = np.asarray(estimator.get_support())
        if mask.dtype != bool or mask.shape != (n_features,):
            fail(
                f"{argument}: {type(estimator).__name__}.get_support() must return "
                f"a boolean mask of {n_features} entries; got {mask.dtype} of "
                f"shape {mask.shape}"
            )
        return mask, importances_of(estimator)
    imp = importances_of(estimator)
    if imp is None:
        fail(
            f"{argument}: {type(estimator).__name__} has neither get_support(), "
            f"coef_ nor feature_importances_ after fitting",
            TypeError,
        )
    if imp.shape != (n_features,):
        fail(
            f"{argument}: importances of shape {imp.shape} do not match " f"{n_features} features"
        )
    if top_k is None and threshold is None and not hasattr(estimator, "coef_"):
        fail(
            f"{argument}: {type(estimator).__name__} has feature_importances_; "
            f"pass threshold= or top_k= to turn them into a selection"
        )
    return mask_of_importances(imp, threshold, top_k), imp


def ranking_of(estimator) -> Tuple[Optional[np.ndarray], str]:
    """A fitted estimator's ranking of the features, and how to read it.

    Parameters
    ----------
    estimator : fitted estimator

    Returns
    -------
    values : ndarray of float64 or None
        ``ranking_`` (recursive feature elimination: 1 for the selected features, then
        the order of elimination), else ``scores_`` (univariate selectors such as
        ``SelectKBest``), else the importances of :func:`importances_of`; None when the
        estimator has none of them.
    kind : {"ranks", "scores"}
        ``"ranks"`` (1 the most important) for ``ranking_``, ``"scores"`` (the largest
        the most important) otherwise: the ``kind`` of :func:`propstab.as_rankings`.

    Raises
    ------
    TypeError
        ``estimator`` is None, a string or a number rather than a fitted estimator.

    See Also
    --------
    propstab.selectors.importances_of : The importances used when there is no ranking.
    propstab.as_rankings : Reads the values with their ``kind``.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn User Guide, sec. 1.13 Feature selection
    (``get_support``, ``SelectFromModel``'s importances ``coef_`` and
    ``feature_importances_``, ``RFE``'s ``ranking_``, ``SelectKBest``'s ``scores_``).

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from propstab.selectors import ranking_of
    >>> ranking_of(SimpleNamespace(ranking_=np.array([1, 1, 3, 2])))
    (array([1., 1., 3., 2.]), 'ranks')
    >>> ranking_of(SimpleNamespace(coef_=np.array([-2.0, 0.0, 1.0])))
    (array([2., 0., 1.]), 'scores')
    """
    if estimator is None or isinstance(estimator, (str, bytes, numbers.Number)):
        fail(
            f"estimator: must be a fitted estimator; got "
            f"{type(estimator).__name__} {estimator!r}",
            TypeError,
        )
    estimator = searched(estimator)
    if hasattr(estimator, "ranking_"):
        return np.asarray(estimator.ranking_, dtype=np.float64), "ranks"
    if hasattr(estimator, "scores_"):
        return np.asarray(estimator.scores_, dtype=np.float64), "scores"
    return importances_of(estimator), "scores"


def final_estimator(estimator):
    """The model that predicts for ``estimator``: a pipeline's final step (recursively),
    else the estimator itself.

    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.linear_model import Lasso
    >>> type(final_estimator(make_pipeline(StandardScaler(), Lasso()))).__name__
    'Lasso'
    """
    if is_pipeline(estimator) and pipeline_steps(estimator):
        return final_estimator(pipeline_steps(estimator)[-1][1])
    return estimator
