"""Scoring the runs: the task of y, who scores (the selector, or a downstream model fitted
on the selected columns), the scorer, and one run's out-of-sample score."""
from __future__ import annotations

import numbers

import numpy as np

from .._utils.checks import fail
from .._utils.checks import shown
from ..selectors import clone, final_estimator, fits_a_classifier, is_estimator, take

__all__ = [
    "can_score",
    "check_downstream",
    "check_task",
    "default_downstream",
    "is_continuous",
    "model_name",
    "require",
    "score_run",
    "scorer_of",
    "scoring_plan",
    "task_of",
    "values_of",
]


def require(module: str, extra: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(
            f"{module} is needed for this; install it with " f"`pip install propstab[{extra}]`"
        ) from None


def is_continuous(y) -> bool:
    """Whether ``y`` is a regression target by the package's one rule
    (:func:`task_of`): True for a continuous y, False otherwise or when undecidable."""
    try:
        return task_of(y) in ("continuous", "continuous-multioutput")
    except (ValueError, TypeError, ImportError):
        return False


def task_of(y) -> str:
    """The task of ``y``: scikit-learn's ``type_of_target``, except that a float y of
    whole numbers with more than two values (diabetes' progression score) is
    ``"continuous"`` where ``type_of_target`` says multiclass. The one rule by which
    :func:`resample` picks the default downstream model, refuses a classifier on a
    continuous y and ``stratify=True`` with one."""
    from sklearn.utils.multiclass import type_of_target

    task = type_of_target(y)
    if task == "multiclass" and np.asarray(y).dtype.kind == "f":
        task = "continuous"
    return task


def values_of(y) -> str:
    values = np.unique(np.asarray(y))
    return f"{values.size} distinct values ({shown(values[0])}, ..., {shown(values[-1])})"


def can_score(estimator) -> bool:
    """Whether an estimator scores by itself (``score`` or ``predict``): selectors such
    as SelectKBest, SelectFromModel or VarianceThreshold do not."""
    return hasattr(estimator, "score") or hasattr(estimator, "predict")


def columns_of(X, mask):
    """The columns ``mask`` of X (``.iloc`` for a DataFrame)."""
    if hasattr(X, "iloc"):
        return X.iloc[:, np.flatnonzero(mask)]
    return X[:, np.flatnonzero(mask)]


def score_run(selector, fitted, mask, X, y, Xtr, ytr, test, scorer, downstream):
    """The run's out-of-sample score: the downstream model's (given, or the default for a
    selector that cannot score) fitted on the selected columns of the training rows, or
    else the selector's own (NaN without held-out rows, without a model to score, or
    when nothing was selected for the downstream model)."""
    if not len(test):
        return np.nan
    if downstream is not None:
        if y is None or not mask.any():
            return np.nan
        model = clone(downstream)
        model.fit(columns_of(Xtr, mask), ytr)
        Xte, yte = columns_of(take(X, test), mask), take(y, test)
        return float(scorer(model, Xte, yte) if scorer is not None else model.score(Xte, yte))
    if not is_estimator(selector) or (scorer is None and not hasattr(fitted, "score")):
        return np.nan
    Xte = take(X, test)
    yte = None if y is None else take(y, test)
    return float(scorer(fitted, Xte, yte) if scorer is not None else fitted.score(Xte, yte))


def default_downstream(y):
    """The documented default downstream model for the task of ``y`` (decided as
    scikit-learn's ``type_of_target``, :func:`task_of`), its description, and the reason
    when there is none: ``(model, description, None)`` or ``(None, None, reason)``."""
    if y is None:
        return None, None, "no y to score against"
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    try:
        task = task_of(y)
    except (ValueError, TypeError) as exc:
        return None, None, f"the task of y could not be decided: {exc}"
    if task in ("binary", "multiclass"):
        return (
            make_pipeline(StandardScaler(with_mean=False), LogisticRegression(max_iter=1000)),
            "downstream LogisticRegression (default)",
            None,
        )
    if task in ("continuous", "continuous-multioutput"):
        return Ridge(), "downstream Ridge (default)", None
    return None, None, f"no default downstream model for a {task} y; pass downstream="


def check_downstream(downstream):
    """None (the default per task), False (none) or an estimator with fit()."""
    if downstream is None or downstream is False:
        return downstream
    if isinstance(downstream, (bool, str, bytes, numbers.Number, type)) or not hasattr(
        downstream, "fit"
    ):
        fail(
            f"downstream: must be an estimator with fit() (and score() or "
            f"predict()), None (the default per task) or False (no downstream "
            f"model); got {shown(downstream)}",
            TypeError,
        )
    return downstream


def model_name(estimator) -> str:
    """The model that scores for ``estimator``: its class name, a pipeline's final step's."""
    return type(final_estimator(estimator)).__name__


def scoring_plan(selector, y, downstream):
    """Who scores the runs: ``(downstream model or None, scored_by, unscored_reason)``.
    A given downstream model scores every selector, those that can score themselves
    too, so that selectors compared are scored alike."""
    if downstream is not None and downstream is not False and y is not None:
        return downstream, f"downstream {model_name(downstream)}", None
    if is_estimator(selector) and can_score(selector):
        return None, f"the selector ({model_name(selector)})", None
    if downstream is False:
        return None, None, "the selector cannot score and downstream=False"
    if y is None:
        return None, None, "no y to score against"
    if not is_estimator(selector):
        return (
            None,
            None,
            (
                "a function has no model to score; pass downstream= (an "
                "estimator fitted on the selected columns)"
            ),
        )
    return default_downstream(y)


def check_task(selector, downstream, y):
    """A classifier (the selector, a step of it, or the downstream model) needs class
    labels: refuse a continuous ``y`` by the rule of :func:`task_of`."""
    if y is None:
        return
    for who, model in (("selector", selector), ("downstream", downstream)):
        if model is None or model is False or not is_estimator(model):
            continue
        if fits_a_classifier(model) and is_continuous(y):
            fail(
                f"y: the {who} ({model_name(model)}) is a classifier, which "
                f"needs class labels, but y is continuous (a float y of more "
                f"than two values, whole or not, is a regression target, as "
                f"when the default downstream model is chosen) with "
                f"{values_of(y)}; use a regressor, or pass class labels "
                f"(integers or strings)"
            )


def scorer_of(scoring):
    """The scorer ``scorer(estimator, X, y)`` of ``scoring`` (a scikit-learn scorer name or
    a callable), or None for the estimator's own ``score``."""
    if scoring is None:
        return None
    if isinstance(scoring, str):
        metrics = require("sklearn.metrics", "sklearn")
        try:
            return metrics.get_scorer(scoring)
        except ValueError:
            fail(
                f"scoring: {scoring!r} is not a scikit-learn scorer name (see "
                f"sklearn.metrics.get_scorer_names()); got {scoring!r}"
            )
    if callable(scoring):
        return scoring
    fail(f"scoring: must be a scorer name or a callable; got {scoring!r}", TypeError)
