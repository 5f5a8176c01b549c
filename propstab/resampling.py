"""From data to stability: the resampling protocol for any feature selector.

:func:`resample` runs a selector on M resamples of a data set and returns the
selection matrix Z with the per-run out-of-sample scores, the resample indices and
any failed fits (Sechidis et al. 2019, Algorithm 1; thesis sec. 5.2.2 for the
bootstrap). :func:`assess` goes on to the stability estimate with its confidence
interval, the per-feature selection frequencies and the mean score, and for several
selectors at once to the accuracy-versus-stability Pareto front (Sechidis et al.
sec. 4.1) and pairwise tests on paired resamples.

Failed fits: a run whose fit (or selection, or scoring) raises is recorded in
``ResamplingResult.failures`` with the exception's type and message, excluded from
Z and the scores, and a :class:`FailedFitWarning` says how many runs failed. If
every run fails, or fewer than 2 succeed, :func:`resample` raises ``ValueError``
naming ``selector`` and quoting the first failure (the selector does not work on
these data: a programming error in a selector function, or a model that fails to
fit, is met in every run).
"""
from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Iterable
from typing import Any, Mapping, Optional, Tuple

import numpy as np

from . import inference
from ._exceptions import warn
from ._text import (Summary, call_repr, interval, level_label, number, shorten, size_text,
                    summary)
from ._selection import Selection
from ._rank_assessment import RankingAssessment
from ._validation import (_is_one_of, _shown, as_real_array, as_selection, check_bool,
                          check_confidence_level, check_int_range, check_mapping, check_n_jobs,
                          check_random_state, check_real, check_real_range, check_text)
from ._progress import progress_counter
from .selectors import _call, _read, clone, is_estimator, take

__all__ = ["Assessment", "Comparison", "FailedFitWarning", "HalfwidthNotReachedWarning",
           "RankingAssessment", "ResamplingResult", "RunFailure", "UnscoredWarning", "assess",
           "pareto_front", "resample"]

OUTPUTS = ("selection", "ranking")

SCHEMES = ("bootstrap", "subsample", "leave_out", "complementary_pairs")
_DEFAULT_FRACTION = {"subsample": 0.5, "leave_out": 0.05}


class FailedFitWarning(RuntimeWarning):
    """Some runs of the resampling protocol failed; they are excluded from Z.

    See Also
    --------
    propstab.resample : Warns with it; the failed runs are in ``failures``.
    propstab.resampling.RunFailure : One failed run.

    References
    ----------
    Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116
    (selection on resamples of the data).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from propstab import resample
    >>> X = np.random.default_rng(0).normal(size=(20, 4))
    >>> def flaky(X, y):                              # fails on some resamples
    ...     if X[:, 0].mean() > 0:
    ...         raise ValueError("bad sample")
    ...     return [0, 1]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = resample(flaky, X, n_runs=10, random_state=0)
    >>> caught[0].category.__name__, result.selection.n_runs, len(result.failures)
    ('FailedFitWarning', 6, 4)
    """


class UnscoredWarning(UserWarning):
    """A selector of a comparison has no out-of-sample score: it is left out of the
    Pareto front (the message names it and says why).

    See Also
    --------
    propstab.assess : Warns with it for a mapping of selectors.
    propstab.resampling.pareto_front : Warns with it for points with a NaN objective.

    References
    ----------
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD 2019, sec. 4.1 (the Pareto front of accuracy and stability).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from propstab import assess
    >>> from propstab.resampling import UnscoredWarning
    >>> X = np.random.default_rng(0).normal(size=(20, 4))
    >>> with warnings.catch_warnings(record=True) as caught:   # no y: nothing to score
    ...     warnings.simplefilter("always")
    ...     comparison = assess({"a": lambda X, y: [0], "b": lambda X, y: [1]}, X,
    ...                         n_runs=5, random_state=0)
    >>> [w.category for w in caught].count(UnscoredWarning), sorted(comparison.left_out)
    (1, ['a', 'b'])
    """


class HalfwidthNotReachedWarning(RuntimeWarning):
    """``assess(target_halfwidth=...)`` stopped at ``max_runs`` with a wider interval.

    See Also
    --------
    propstab.assess : Warns with it when ``max_runs`` is reached first.
    propstab.inference.runs_needed : The runs a target half-width needs.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2, Cor. 1 (the interval whose
    half-width is targeted).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from propstab import assess
    >>> X = np.random.default_rng(0).normal(size=(20, 4))
    >>> def top2(X, y):
    ...     return np.argsort(-X.mean(axis=0))[:2]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     a = assess(top2, X, n_runs=10, random_state=0, target_halfwidth=0.01,
    ...                max_runs=20)
    >>> caught[0].category.__name__, a.result.n_runs
    ('HalfwidthNotReachedWarning', 20)
    """


def _require(module: str, extra: str):
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"{module} is needed for this; install it with "
                          f"`pip install propstab[{extra}]`") from None


# ----------------------------------------------------------------------------------
# results


@dataclasses.dataclass(frozen=True)
class RunFailure:
    """A run whose fit raised: its number, the exception type and message.

    Parameters
    ----------
    run : int
        The run's number (0 to n_runs - 1).
    error_type : str
        The name of the exception's type.
    message : str
        The exception's message.

    See Also
    --------
    propstab.resampling.ResamplingResult : Lists them in ``failures``.
    propstab.resampling.FailedFitWarning : Says how many runs failed.

    References
    ----------
    Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116
    (selection on resamples of the data).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from propstab import resample
    >>> X = np.random.default_rng(0).normal(size=(20, 4))
    >>> def flaky(X, y):                              # fails on some resamples
    ...     if X[:, 0].mean() > 0:
    ...         raise ValueError("bad sample")
    ...     return [0, 1]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = resample(flaky, X, n_runs=10, random_state=0)
    >>> result.failures[0]
    RunFailure(run=0, error_type='ValueError', message='bad sample')
    """

    run: int
    error_type: str
    message: str


def _by_feature(values: np.ndarray, names, name: str):
    """``values`` (one per feature) as a pandas Series indexed by the feature names, or
    the ndarray itself when the features have no names."""
    if names is None:
        return values
    import pandas as pd
    return pd.Series(values, index=pd.Index(list(names), name="feature"), name=name)


def _feature_index(names, d: int):
    import pandas as pd
    if names is None:
        return pd.RangeIndex(d, name="feature")
    return pd.Index(list(names), name="feature")


def _most_selected(frequencies, names, top: int = 5) -> str:
    """The ``top`` most frequently selected features, ``name (p)``, most frequent first."""
    freq = np.asarray(frequencies, dtype=np.float64)
    order = np.argsort(-freq, kind="stable")[:top]
    labels = [f"x{j}" if names is None else str(names[j]) for j in order]
    return shorten((f"{label} ({freq[j]:.2f})" for label, j in zip(labels, order)), width=76)


@dataclasses.dataclass(frozen=True, repr=False)
class ResamplingResult:
    """The outcome of :func:`resample`.

    ``repr`` is one line and ``str`` (and ``print``) show :meth:`summary`: the row
    indices of every resample stay attributes and are never printed.
    :meth:`to_frame` gives one row per run.

    Parameters
    ----------
    selection : Selection
        Z, one row per successful run.
    scores : ndarray or None
        The out-of-sample score of each successful run.
    runs : ndarray
        The run numbers of the rows of Z.
    train_indices : tuple of ndarray
        The training rows of each successful run.
    test_indices : tuple of ndarray
        The held-out rows of each successful run.
    importances : ndarray or None
        The importances of each successful run.
    failures : tuple of RunFailure
        The runs that failed.
    n_runs : int
        The number of runs attempted.
    rankings : Rankings or None, optional
        The rankings of each successful run.
    scored_by : str or None, optional
        What produced the scores.
    unscored_reason : str or None, optional
        Why there are no scores.

    Attributes
    ----------
    selection : Selection
        Z, one row per successful run (M x d), with the feature names.
    scores : ndarray or None
        Out-of-sample score of each successful run (NaN where the run had no
        held-out rows); None when the selector cannot score.
    runs : ndarray
        The run numbers (0..n_runs-1) of the rows of Z.
    train_indices, test_indices : tuple of ndarray
        Row indices of each successful run's training (possibly repeated) and
        held-out samples.
    importances : ndarray or None
        ``|coef_|`` or ``feature_importances_`` per successful run (M x d), when kept.
    failures : tuple of RunFailure
        The runs that failed, excluded from everything above.
    n_runs : int
        The number of runs attempted.
    rankings : Rankings or None
        With ``output="ranking"``: each successful run's ranking of the features
        (M x d, :func:`propstab.as_rankings`), from the selector's ``ranking_``,
        ``scores_`` or importances, or a function's scores; None otherwise.
    scored_by : str or None
        What produced the scores: ``"the selector"``, or ``"downstream <model>"`` for a
        selector that cannot score (``downstream=`` of :func:`resample`); None when
        there are no scores.
    unscored_reason : str or None
        Why there are no scores (None when there are).

    See Also
    --------
    propstab.resample : Returns it.
    propstab.resampling.Assessment : Its stability with a confidence interval.

    References
    ----------
    Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116
    (selection on resamples of the data).
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 3 (the stability of a selector over
    resamples of the data).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab import resample
    >>> X = np.random.default_rng(0).normal(size=(40, 4))
    >>> res = resample(lambda X, y: [0, 1], X, n_runs=5, random_state=0)
    >>> res
    ResamplingResult(n_runs=5, n_failed=0, n_features=4, mean_size=2, mean_score=nan)
    >>> res.to_frame().columns.tolist()
    ['status', 'size', 'score', 'n_train', 'n_test', 'error']
    """

    selection: Selection
    scores: Optional[np.ndarray]
    runs: np.ndarray
    train_indices: Tuple[np.ndarray, ...]
    test_indices: Tuple[np.ndarray, ...]
    importances: Optional[np.ndarray]
    failures: Tuple[RunFailure, ...]
    n_runs: int
    rankings: Any = None
    scored_by: Optional[str] = None
    unscored_reason: Optional[str] = None

    @property
    def Z(self) -> np.ndarray:
        """The dense boolean selection matrix."""
        return self.selection.toarray()

    @property
    def feature_names(self):
        return self.selection.feature_names

    @property
    def frequencies(self):
        """p̂_f, the fraction of successful runs selecting each feature: a pandas Series
        indexed by feature name when X had column names (a DataFrame), else an ndarray."""
        return _by_feature(self.selection.column_counts / self.selection.n_runs,
                           self.feature_names, "frequency")

    @property
    def mean_score(self) -> float:
        """The mean out-of-sample score (NaN when there is none)."""
        if self.scores is None or not np.isfinite(self.scores).any():
            return float("nan")
        return float(np.nanmean(self.scores))

    def stability(self, measure: str = "nogueira", **options) -> float:
        """The stability of Z under a registered measure (:func:`propstab.stability`); of
        the rankings for a measure of the ranking family (``output="ranking"``)."""
        from ._api import stability
        return stability(self.data_for(measure), measure, **options)

    def data_for(self, measure: str):
        """What ``measure`` reads: the selection, or the rankings for a ranking measure
        (ValueError when they were not recorded)."""
        from ._registry import get_measure
        if get_measure(measure).input != "ranking":
            return self.selection
        if self.rankings is None:
            raise ValueError(f"measure: {measure!r} reads rankings, which this resampling did "
                             f"not record; resample with output='ranking'")
        return self.rankings

    def __repr__(self) -> str:
        return call_repr("ResamplingResult", n_runs=self.n_runs, n_failed=len(self.failures),
                         n_features=self.selection.n_features,
                         mean_size=float(np.mean(self.selection.row_sizes)),
                         mean_score=self.mean_score)

    def __str__(self) -> str:
        return str(self.summary())          # a plain str, not the Summary subclass

    def summary(self) -> Summary:
        """A few lines: runs (and failures), features, subset sizes, rows per run, score.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        sel = self.selection
        rows = [("runs x features", f"{sel.n_runs} x {sel.n_features}"),
                ("subset size", size_text(sel.row_sizes)),
                *self._run_fields(),
                ("rows per run", f"{np.mean([len(t) for t in self.train_indices]):.1f} "
                                 f"training, {np.mean([len(t) for t in self.test_indices]):.1f}"
                                 f" held out (mean)"),
                ("most selected", _most_selected(self.selection.column_counts / sel.n_runs,
                                                 self.feature_names))]
        return summary("Resampling result", rows)

    def _run_fields(self):
        """The lines on failed runs and the mean score, shared with the assessment."""
        rows = []
        if self.failures:
            first = self.failures[0]
            rows += [("failed runs", f"{len(self.failures)} of {self.n_runs} (excluded)"),
                     ("first failure", shorten([f"run {first.run}: {first.error_type}: "
                                                f"{first.message}"]))]
        if self.scores is not None and np.isfinite(self.scores).any():
            by = "" if self.scored_by in (None, "the selector") else f", {self.scored_by}"
            rows.append(("mean score", f"{number(self.mean_score, fixed=True)} "
                                       f"(out-of-sample{by})"))
        return rows

    def to_frame(self):
        """One row per attempted run (index ``run``): its status ("ok" or "failed"), subset
        size, out-of-sample score, numbers of training and held-out rows, and the error
        of a failed run ("Type: message").

        Returns
        -------
        pandas.DataFrame
            Failed runs have missing size, rows and score (they were not recorded).
        """
        import pandas as pd
        frame = pd.DataFrame(index=pd.RangeIndex(self.n_runs, name="run"))
        ok = np.asarray(self.runs, dtype=np.intp)
        frame["status"] = "failed"
        frame.loc[ok, "status"] = "ok"
        for column, values in (("size", self.selection.row_sizes),
                               ("n_train", [len(t) for t in self.train_indices]),
                               ("n_test", [len(t) for t in self.test_indices])):
            col = pd.Series(pd.NA, index=frame.index, dtype="Int64")
            col.iloc[ok] = np.asarray(values, dtype=np.int64)
            frame[column] = col
        score = np.full(self.n_runs, np.nan)
        if self.scores is not None:
            score[ok] = self.scores
        frame["score"] = score
        frame["error"] = None
        for f in self.failures:
            frame.loc[f.run, "error"] = f"{f.error_type}: {f.message}"
        return frame[["status", "size", "score", "n_train", "n_test", "error"]]


# ----------------------------------------------------------------------------------
# resampling schemes


def _check_fraction(fraction, scheme):
    if fraction is None:
        return _DEFAULT_FRACTION.get(scheme)
    if scheme not in _DEFAULT_FRACTION:
        raise ValueError(f"fraction: only used by the schemes 'subsample' and 'leave_out', "
                         f"not by scheme={scheme!r}; got {fraction!r}")
    return check_real_range("fraction", fraction, low=0.0, high=1.0, low_open=True,
                            high_open=True)


def _strata(stratify, y, n):
    """Group labels for stratified resampling, or None."""
    if stratify is None or stratify is False:
        return None
    labels = y if stratify is True else stratify
    if labels is None:
        raise ValueError("stratify: True needs y (the class labels)")
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.shape[0] != n:
        raise ValueError(f"stratify: must give one label per sample ({n}); got shape "
                         f"{labels.shape}")
    return labels


def _groups(strata, n):
    if strata is None:
        return [np.arange(n)]
    _, inverse = np.unique(strata, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    bounds = np.cumsum(np.bincount(inverse))[:-1]
    return np.split(order, bounds)


def _scheme_rows(rows, n: int, what: str) -> np.ndarray:
    """Row indices yielded by a callable scheme: a 1-D integer array in 0..n-1."""
    arr = np.asarray(rows)
    if arr.dtype == bool:
        raise TypeError(f"scheme: {what} must be row indices (integers in 0..{n - 1}), not a "
                        f"boolean mask; use np.flatnonzero(mask)")
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise TypeError(f"scheme: {what} must be a 1-D sequence of integer row indices; got "
                        f"{arr.dtype} array of shape {arr.shape}")
    outside = (arr < 0) | (arr >= n)
    if outside.any():
        raise ValueError(f"scheme: {what}: the row index {arr[outside][0]} is outside "
                         f"0..{n - 1} (n_samples={n})")
    return arr.astype(np.intp)


def _scheme_splits(scheme, n: int, n_runs: int, rng):
    """The (train, test) pairs of a callable ``scheme(n_samples, n_runs, rng)``, checked:
    exactly n_runs items (read lazily, so an endless generator is refused too), each a
    non-empty array of training rows or a (train, test) pair of index arrays."""
    import itertools
    drawn = scheme(n, n_runs, rng)
    if isinstance(drawn, (str, bytes, np.ndarray)) or not isinstance(drawn, Iterable):
        raise TypeError(f"scheme: the callable must return an iterable of n_runs={n_runs} "
                        f"resamples (arrays of row indices or (train, test) pairs); got "
                        f"{type(drawn).__name__}")
    items = list(itertools.islice(drawn, n_runs + 1))
    if len(items) != n_runs:
        got = f"more than {n_runs}" if len(items) > n_runs else str(len(items))
        raise ValueError(f"scheme: the callable must yield n_runs={n_runs} resamples; got {got}")
    out = []
    for i, item in enumerate(items):
        if isinstance(item, tuple) and len(item) == 2:
            train = _scheme_rows(item[0], n, f"the training rows of run {i}")
            test = _scheme_rows(item[1], n, f"the held-out rows of run {i}")
        else:
            train = _scheme_rows(item, n, f"run {i}")
            test = np.setdiff1d(np.arange(n), train)
        if train.size == 0:
            raise ValueError(f"scheme: run {i} has no training rows")
        out.append((train, test))
    return out


def _draw(scheme, n, n_runs, fraction, strata, rng):
    """The (train, test) index pairs of every run, drawn in the main process."""
    if callable(scheme):
        return _scheme_splits(scheme, n, n_runs, rng)
    groups = _groups(strata, n)
    out = []
    if scheme == "complementary_pairs":
        for _ in range(n_runs // 2):
            first, second = [], []
            for g in groups:
                perm = rng.permutation(g)
                half = len(g) // 2
                first.append(perm[:half])
                second.append(perm[half:2 * half])
            for part in (np.concatenate(first), np.concatenate(second)):
                part = np.sort(part)
                out.append((part, np.setdiff1d(np.arange(n), part)))
        return out
    for _ in range(n_runs):
        parts = []
        for g in groups:
            if scheme == "bootstrap":
                parts.append(g[rng.integers(0, len(g), size=len(g))])
            else:
                size = int(np.floor(fraction * len(g))) if scheme == "subsample" else \
                    len(g) - int(np.floor(fraction * len(g)))
                parts.append(rng.choice(g, size=size, replace=False))
        train = np.sort(np.concatenate(parts))
        in_bag = np.zeros(n, dtype=bool)
        in_bag[train] = True
        out.append((train, np.flatnonzero(~in_bag)))
    return out


# ----------------------------------------------------------------------------------
# one run


def _run_one(selector, X, y, train, test, n_features, scorer, threshold, top_k,
             keep_importances, output="selection", downstream=None):
    """One run: fit on train, select, score on test. Returns (mask, imp, score, error);
    with ``output="ranking"`` the importances slot holds ``(values, kind)``, the run's
    ranking. ``error`` is None or ``(type name, message, stage, is_value_or_type_error)``,
    the stage being "fit" (fitting, or calling a function), "read" (turning the fitted
    selector into a selection: its set-up) or "score"."""
    stage = "fit"
    try:
        Xtr = take(X, train)
        ytr = None if y is None else take(y, train)
        fitted = _call(selector, Xtr, ytr)
        stage = "read"
        mask, imp = _read(selector, fitted, n_features, threshold, top_k, output)
        stage = "score"
        score = _score(selector, fitted, mask, X, y, Xtr, ytr, test, scorer, downstream)
        return mask, (imp if keep_importances or output == "ranking" else None), score, None
    except Exception as exc:  # noqa: BLE001 - every failure is reported, not dropped
        return None, None, np.nan, (type(exc).__name__, str(exc), stage,
                                    isinstance(exc, (ValueError, TypeError)))


def _can_score(estimator) -> bool:
    """Whether an estimator scores by itself (``score`` or ``predict``): selectors such
    as SelectKBest, SelectFromModel or VarianceThreshold do not."""
    return hasattr(estimator, "score") or hasattr(estimator, "predict")


def _columns(X, mask):
    """The columns ``mask`` of X (``.iloc`` for a DataFrame)."""
    if hasattr(X, "iloc"):
        return X.iloc[:, np.flatnonzero(mask)]
    return X[:, np.flatnonzero(mask)]


def _score(selector, fitted, mask, X, y, Xtr, ytr, test, scorer, downstream):
    """The run's out-of-sample score: the selector's own, or the downstream model's fitted
    on the selected columns of the training rows (NaN without held-out rows, without a
    model to score, or when nothing was selected for the downstream model)."""
    if not len(test):
        return np.nan
    own = is_estimator(selector) and _can_score(fitted)
    if not own and downstream is not None:
        if y is None or not mask.any():
            return np.nan
        model = clone(downstream)
        model.fit(_columns(Xtr, mask), ytr)
        Xte, yte = _columns(take(X, test), mask), take(y, test)
        return float(scorer(model, Xte, yte) if scorer is not None else model.score(Xte, yte))
    if not is_estimator(selector) or (scorer is None and not hasattr(fitted, "score")):
        return np.nan
    Xte = take(X, test)
    yte = None if y is None else take(y, test)
    return float(scorer(fitted, Xte, yte) if scorer is not None else fitted.score(Xte, yte))


def _default_downstream(y):
    """The documented default downstream model for the task of ``y`` (decided as
    scikit-learn's ``type_of_target``), its description, and the reason when there is
    none: ``(model, description, None)`` or ``(None, None, reason)``."""
    if y is None:
        return None, None, "no y to score against"
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.utils.multiclass import type_of_target
    try:
        task = type_of_target(y)
    except (ValueError, TypeError) as exc:
        return None, None, f"the task of y could not be decided: {exc}"
    if task == "multiclass" and np.asarray(y).dtype.kind == "f":
        task = "continuous"     # a float y of whole numbers (diabetes' progression score)
    if task in ("binary", "multiclass"):
        return (make_pipeline(StandardScaler(with_mean=False), LogisticRegression(max_iter=1000)),
                "downstream LogisticRegression (default)", None)
    if task in ("continuous", "continuous-multioutput"):
        return Ridge(), "downstream Ridge (default)", None
    return None, None, f"no default downstream model for a {task} y; pass downstream="


def _check_downstream(downstream):
    """None (the default per task), False (none) or an estimator with fit()."""
    if downstream is None or downstream is False:
        return downstream
    if isinstance(downstream, (bool, str, bytes, numbers.Number, type)) \
            or not hasattr(downstream, "fit"):
        raise TypeError(f"downstream: must be an estimator with fit() (and score() or "
                        f"predict()), None (the default per task) or False (no downstream "
                        f"model); got {_shown(downstream)}")
    return downstream


def _scoring_plan(selector, y, downstream):
    """Who scores the runs: ``(downstream model or None, scored_by, unscored_reason)``."""
    if is_estimator(selector) and _can_score(selector):
        return None, "the selector", None
    if downstream is False:
        return None, None, "the selector cannot score and downstream=False"
    if y is None:
        return None, None, "no y to score against"
    if downstream is not None:
        return downstream, f"downstream {type(downstream).__name__}", None
    if not is_estimator(selector):
        return None, None, ("a function has no model to score; pass downstream= (an "
                            "estimator fitted on the selected columns)")
    return _default_downstream(y)


def _data(X, y):
    """X (array-like, sparse matrix or DataFrame, kept as given when it has a shape) and
    y (one value per row), checked: n_samples >= 2, n_features >= 1."""
    if isinstance(X, (str, bytes)) or X is None or isinstance(X, Mapping):
        raise TypeError(f"X: must be a 2-D data matrix (array-like, sparse matrix or "
                        f"DataFrame); got {type(X).__name__}")
    if getattr(X, "shape", None) is None:
        try:
            X = np.asarray(X)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"X: could not be read as a 2-D data matrix: {exc}") from None
    names = tuple(X.columns) if hasattr(X, "columns") else None
    shape = tuple(X.shape)
    if len(shape) != 2:
        raise ValueError(f"X: must be 2-dimensional (samples x features); got shape {shape}")
    n, d = int(shape[0]), int(shape[1])
    if n < 2 or d < 1:
        raise ValueError(f"X: needs at least 2 samples (rows) and 1 feature (column) to "
                         f"resample; got shape {shape}")
    if y is not None:
        if not hasattr(y, "iloc"):
            try:
                y = np.asarray(y)
            except (ValueError, TypeError):
                raise TypeError(f"y: must be a sequence with one value per row of X; got "
                                f"{_shown(y)}") from None
        if np.ndim(y) == 0:
            raise TypeError(f"y: must be a sequence with one value per row of X; got "
                            f"{type(y).__name__}")
        if len(y) != n:
            raise ValueError(f"y: must have one value per row of X ({n}); got {len(y)}")
    return X, y, n, d, names


def _check_backend(backend):
    """A joblib backend name, or None."""
    backend = check_text("backend", backend, none=True)
    if backend is not None:
        from joblib.parallel import BACKENDS, EXTERNAL_BACKENDS
        known = sorted(set(BACKENDS) | set(EXTERNAL_BACKENDS))
        if backend not in known:
            raise ValueError(f"backend: must be a joblib backend ({', '.join(known)}); got "
                             f"{backend!r}")
    return backend


def resample(selector, X, y=None, *, n_runs=100, scheme="bootstrap", fraction=None,
             stratify=None, random_state=None, n_jobs=None, backend=None, progress=None,
             keep_importances=False, top_k=None, threshold=None,
             scoring=None, output="selection", downstream=None) -> ResamplingResult:
    """Run a feature selector on ``n_runs`` resamples of ``(X, y)``.

    Parameters
    ----------
    selector : estimator or callable
        - a scikit-learn selector (``get_support()`` after ``fit``);
        - an estimator with ``coef_`` or ``feature_importances_``: the nonzero
          coefficients, or the ``top_k`` largest importances, or importances
          above ``threshold``;
        - a function ``f(X_train, y_train)`` returning selected feature indices
          or a boolean mask.

        Estimators are cloned for every run; the argument is never modified.
    X : array-like, sparse matrix or DataFrame (n_samples, n_features)
        DataFrame columns name the features.
    y : array-like, optional
    n_runs : int, default 100
        M, the number of resamples (even for ``"complementary_pairs"``).
    scheme : {"bootstrap", "subsample", "leave_out", "complementary_pairs"} or callable
        ``"bootstrap"``: n draws with replacement, out-of-bag rows held out
        (thesis sec. 5.2.2). ``"subsample"``: floor(fraction * n) rows without
        replacement (fraction 0.5 by default). ``"leave_out"``: leave out
        floor(delta * n) rows, delta = ``fraction`` (default 0.05, as in
        Sechidis et al.'s Algorithm 1).
        ``"complementary_pairs"``: n_runs/2 random splits into two disjoint halves
        of floor(n/2) rows (Shah and Samworth 2013). A callable
        ``scheme(n_samples, n_runs, rng)`` yields per run the training indices
        or a ``(train, test)`` pair.
    fraction : float, optional
        The subsample fraction, or the left-out fraction delta.
    stratify : array-like or True, optional
        Class labels (True: ``y``) to resample within each class.
    random_state : None, int or numpy Generator
        All resamples are drawn up front from this seed, so results do not depend
        on ``n_jobs`` or the backend.
    n_jobs : int, optional
        Parallel runs with joblib (None: 1, or all the backend's workers when
        ``backend`` is given; -1: all cores).
    backend : str, optional
        A joblib backend, e.g. ``"loky"``, ``"threading"`` or ``"dask"`` (needs a
        running ``dask.distributed.Client``).
    progress : bool, optional
        A progress bar (``tqdm.auto``: a widget in Jupyter); by default (None) only when
        a person is watching (a terminal or a notebook) and for 20 runs or more.
    keep_importances : bool, default False
        Keep ``|coef_|`` or ``feature_importances_`` of every run.
    top_k, threshold : optional
        How an estimator's importances become a selection (see above).
    scoring : str or callable, optional
        A scikit-learn scorer name or ``scorer(estimator, X, y)`` for the
        out-of-sample scores; by default the estimator's ``score`` method.
    output : {"selection", "ranking"}, default "selection"
        ``"ranking"``: record each run's ranking of the features too
        (``ResamplingResult.rankings``): an estimator's ``ranking_`` (RFE), ``scores_``
        (univariate selectors) or importances (``|coef_|``, ``feature_importances_``,
        kept as ``importances``); a function then returns one score per feature (the
        largest the most important), its selection being the ``top_k`` largest, the
        scores above ``threshold`` or the nonzero scores.
    downstream : estimator, None or False, default None
        The model that scores a selector which cannot score itself (no ``score`` or
        ``predict``: ``SelectKBest``, ``SelectFromModel``, ``VarianceThreshold``, a
        pipeline ending in a selector, a function): in every run a clone is fitted on
        the selected columns of the training rows and scored (``scoring=`` or its
        ``score``) on the same columns of the held-out rows (NaN when nothing was
        selected). None: a default per task, decided from ``y`` as scikit-learn's
        ``type_of_target`` does, for estimators: ``LogisticRegression(max_iter=1000)``
        after ``StandardScaler(with_mean=False)`` for a binary or multiclass ``y``,
        ``Ridge()`` for a continuous one (a float ``y`` of more than two whole
        numbers, such as diabetes' progression score, counts as continuous, where
        ``type_of_target`` says multiclass); functions are scored only with an explicit
        ``downstream``. False: no downstream model (no scores).

    Returns
    -------
    ResamplingResult

    Raises
    ------
    ValueError, TypeError
        Invalid arguments.
        ``ValueError`` naming ``selector`` when fewer than 2 runs succeeded (the
        message quotes the first failure).
        ``ValueError`` or ``TypeError`` naming ``selector`` after the *first* run when
        it fails for a reason every run would meet, before the other runs: an
        estimator whose fit cannot be read as a selection (``feature_importances_``
        without ``threshold=`` or ``top_k=``, a pipeline step that changes the columns
        and is not a selector), or a selector whose fit fails on the full data too.

    Warns
    -----
    FailedFitWarning
        Some runs failed; they are listed in ``failures`` and excluded from Z.

    See Also
    --------
    propstab.assess : Resamples and estimates the stability with its interval.
    propstab.resampling.ResamplingResult : The result.

    References
    ----------
    Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116
    (selection on resamples of the data).
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 3 (the protocol: a selector run on
    M resamples of the data, its selections the rows of Z) and sec. 5.2 (the
    inference, valid for bootstrap resampling).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab import resample
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 5)); y = X[:, 0] + 0.1 * rng.normal(size=60)
    >>> def top2(X, y):                 # the two features most correlated with y
    ...     r = np.abs([np.corrcoef(X[:, j], y)[0, 1] for j in range(X.shape[1])])
    ...     return np.argsort(-r)[:2]
    >>> res = resample(top2, X, y, n_runs=10, random_state=0)
    >>> res.selection.n_runs, float(res.frequencies[0])
    (10, 1.0)
    """
    progress = check_bool("progress", progress, none=True)
    plan = _planned(selector, X, y, n_runs=n_runs, scheme=scheme, fraction=fraction,
                    stratify=stratify, random_state=random_state, n_jobs=n_jobs,
                    backend=backend, keep_importances=keep_importances, top_k=top_k,
                    threshold=threshold, scoring=scoring, output=output,
                    downstream=downstream)
    with progress_counter(progress=progress, total=n_runs, desc="resample",
                          minimum=20) as bar:
        outputs = _execute(plan, 0, len(plan.splits), bar)
    return _collect_plan(plan, outputs)


def _planned(selector, X, y, *, n_runs, scheme, fraction, stratify, random_state, n_jobs,
             backend, keep_importances, top_k, threshold, scoring, output, downstream):
    """The arguments of :func:`resample` checked, and every run's split drawn."""
    X, y, n, d, names = _data(X, y)
    if not _is_one_of(output, OUTPUTS):
        raise ValueError(f"output: must be one of {', '.join(map(repr, OUTPUTS))}; got "
                         f"{_shown(output)}")
    n_runs = check_int_range("n_runs", n_runs, minimum=2)
    if not callable(scheme) and not _is_one_of(scheme, SCHEMES):
        raise ValueError(f"scheme: must be one of {', '.join(map(repr, SCHEMES))} or a "
                         f"callable; got {_shown(scheme)}")
    if scheme == "complementary_pairs" and n_runs % 2:
        raise ValueError(f"n_runs: must be even for scheme='complementary_pairs'; got {n_runs}")
    fraction = _check_fraction(fraction, "a callable" if callable(scheme) else scheme)
    if top_k is not None:
        top_k = check_int_range("top_k", top_k, minimum=0, maximum=d)
    if threshold is not None:
        threshold = check_real("threshold", threshold)
    random_state = check_random_state("random_state", random_state)
    n_jobs = check_n_jobs("n_jobs", n_jobs)
    backend = _check_backend(backend)
    keep_importances = check_bool("keep_importances", keep_importances)
    if top_k is not None and threshold is not None:
        raise ValueError(f"top_k, threshold: give at most one of them; got top_k={top_k!r} and "
                         f"threshold={threshold!r}")
    if not is_estimator(selector) and not callable(selector):
        raise TypeError(f"selector: must be an estimator with fit() or a function (X, y) -> "
                        f"indices; got {type(selector).__name__}")
    scorer = None
    if scoring is not None:
        if isinstance(scoring, str):
            metrics = _require("sklearn.metrics", "sklearn")
            try:
                scorer = metrics.get_scorer(scoring)
            except ValueError:
                raise ValueError(f"scoring: {scoring!r} is not a scikit-learn scorer name (see "
                                 f"sklearn.metrics.get_scorer_names()); got {scoring!r}") from None
        elif callable(scoring):
            scorer = scoring
        else:
            raise TypeError(f"scoring: must be a scorer name or a callable; got {scoring!r}")
    downstream, scored_by, unscored_reason = _scoring_plan(selector, y,
                                                           _check_downstream(downstream))
    strata = _strata(stratify, y, n)
    rng = np.random.default_rng(random_state)
    splits = _draw(scheme, n, n_runs, fraction, strata, rng)
    return _Plan(selector=selector, X=X, y=y, names=names, d=d, splits=splits, scorer=scorer,
                 threshold=threshold, top_k=top_k, keep_importances=keep_importances,
                 output=output, downstream=downstream, n_jobs=n_jobs, backend=backend,
                 scored_by=scored_by, unscored_reason=unscored_reason)


@dataclasses.dataclass(frozen=True)
class _Plan:
    """Everything a batch of runs needs: the checked arguments and every run's split."""

    selector: Any
    X: Any
    y: Any
    names: Any
    d: int
    splits: list
    scorer: Any
    threshold: Any
    top_k: Any
    keep_importances: bool
    output: str
    downstream: Any
    n_jobs: Any
    backend: Any
    scored_by: Optional[str]
    unscored_reason: Optional[str]

    def task(self, i: int):
        train, test = self.splits[i]
        return (self.selector, self.X, self.y, train, test, self.d, self.scorer, self.threshold,
                self.top_k, self.keep_importances, self.output, self.downstream)


def _execute(plan: _Plan, start: int, stop: int, bar) -> list:
    """The outputs of runs ``start``..``stop - 1``. Run 0 goes first, alone: when it
    fails for a reason every run would meet, resample stops there (:func:`_first_failed`)."""
    outputs = []
    if start == 0:
        first = _run_one(*plan.task(0))
        bar.update(1)
        if first[3] is not None:
            _first_failed(plan, first[3], len(plan.splits))
        outputs.append(first)
        start = 1
    if plan.n_jobs in (None, 1) and plan.backend is None:
        for i in range(start, stop):
            outputs.append(_run_one(*plan.task(i)))
            bar.update(1)
        return outputs
    joblib = _require("joblib", "sklearn")

    def counted():
        for i in range(start, stop):
            yield joblib.delayed(_run_one)(*plan.task(i))
            bar.update(1)

    with joblib.parallel_backend(plan.backend or "loky", n_jobs=plan.n_jobs or -1):
        outputs.extend(joblib.Parallel()(counted()))
    return outputs


def _first_failed(plan: _Plan, error, n_runs: int) -> None:
    """Stop after the first run when its failure is the selector's set-up, met by every
    run: an estimator's selection could not be read (a ValueError or TypeError of the
    adapters: no rule for feature_importances_, a pipeline that cannot be mapped back),
    or the fit fails on the full data too. Otherwise (a resample missing a class, say)
    the run is one failed run among others."""
    type_name, message, stage, value_or_type = error
    skipped = f"(on the first run; the other {n_runs - 1} runs were not attempted)"
    if stage == "read" and value_or_type and is_estimator(plan.selector):
        text = message if message.startswith("selector: ") else f"selector: {message}"
        raise (TypeError if type_name == "TypeError" else ValueError)(f"{text} {skipped}")
    if stage != "fit":
        return
    try:
        _call(plan.selector, plan.X, plan.y)
    except Exception as exc:  # noqa: BLE001 - the same failure on the full data
        raise ValueError(f"selector: the first run failed and so does a fit on the full data "
                         f"{skipped}: {type_name}: {message}") from None


def _collect_plan(plan: _Plan, outputs) -> ResamplingResult:
    """The result of the first ``len(outputs)`` runs of ``plan``."""
    m = len(outputs)
    result = _collect(outputs, plan.splits[:m], plan.names, plan.selector,
                      plan.keep_importances, m, plan.output)
    scored = plan.scored_by is not None
    return dataclasses.replace(result, scores=result.scores if scored else None,
                               scored_by=plan.scored_by if scored else None,
                               unscored_reason=plan.unscored_reason)


def _rankings_of(outputs, ok, names):
    """The successful runs' rankings (``(values, kind)`` per run) as Rankings, and the
    scores as importances (None for ranks)."""
    from ._validation import as_rankings
    kinds = {outputs[i][1][1] for i in ok}
    values = np.vstack([outputs[i][1][0] for i in ok])
    if len(kinds) > 1:
        raise RuntimeError(f"resample: the runs ranked the features in different ways "
                           f"({', '.join(sorted(kinds))}); a selector must give either ranks "
                           f"or scores")
    kind = kinds.pop()
    rankings = as_rankings(values, kind=kind, feature_names=names)
    return rankings, (values if kind == "scores" else None)


def _collect(outputs, splits, names, selector, keep_importances, n_runs, output="selection"):
    failures = tuple(RunFailure(i, err[0], err[1]) for i, (_, _, _, err) in enumerate(outputs)
                     if err is not None)
    ok = np.array([i for i, out in enumerate(outputs) if out[3] is None], dtype=np.intp)
    if ok.size < 2:
        first = failures[0] if failures else None
        detail = f"; first failure (run {first.run}): {first.error_type}: {first.message}" \
            if first else ""
        raise ValueError(f"selector: {len(failures)} of {n_runs} runs failed and fewer than "
                         f"2 succeeded{detail}")
    if failures:
        warn(f"resample: {len(failures)} of {n_runs} runs failed and are excluded "
                      f"from Z (see .failures); first: {failures[0].error_type}: "
                      f"{failures[0].message}", FailedFitWarning)
    Z = np.vstack([outputs[i][0] for i in ok])
    scores = np.array([outputs[i][2] for i in ok], dtype=np.float64)
    importances = rankings = None
    if output == "ranking":
        rankings, importances = _rankings_of(outputs, ok, names)
    elif keep_importances and all(outputs[i][1] is not None for i in ok):
        importances = np.vstack([outputs[i][1] for i in ok])
    return ResamplingResult(
        selection=as_selection(Z, feature_names=names), scores=scores,
        runs=ok, train_indices=tuple(splits[i][0] for i in ok),
        test_indices=tuple(splits[i][1] for i in ok), importances=importances,
        failures=failures, n_runs=n_runs, rankings=rankings)


# ----------------------------------------------------------------------------------
# from data to answer


@dataclasses.dataclass(frozen=True, repr=False)
class Assessment:
    """Stability of one selector on one data set, with its uncertainty.

    ``repr`` is one line and ``str`` (and ``print``) show :meth:`summary`; the
    resamples' row indices stay in ``result`` and are never printed.
    :meth:`to_frame` gives the selection frequencies.

    Parameters
    ----------
    estimate : StabilityEstimate
        The stability estimate.
    frequencies : pandas Series or ndarray
        The selection frequency of each feature.
    mean_score : float
        The mean out-of-sample score.
    result : ResamplingResult
        The runs.
    measure : str
        The measure's registered name.
    target_halfwidth : float or None, optional
        The target half-width of ``assess``.

    Attributes
    ----------
    estimate : StabilityEstimate
        From :func:`propstab.estimate` (``.statistic``, ``.variance``).
    frequencies : pandas Series or ndarray
        p̂_f, the selection frequency of each feature: a Series indexed by feature name
        when X had column names (a DataFrame), else an ndarray.
    mean_score : float
        The mean out-of-sample score (NaN when the selector cannot score).
    result : ResamplingResult
    measure : str
    target_halfwidth : float or None
        The target of ``assess(target_halfwidth=...)`` (None without one); the runs used
        are ``result.n_runs`` and the half-width reached :attr:`halfwidth`.

    See Also
    --------
    propstab.assess : Returns it.
    propstab.resampling.Comparison : Several selectors assessed on the same resamples.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2 (the estimate and its
    interval); Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116
    (selection on resamples of the data).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import assess
    >>> rng = np.random.default_rng(1)
    >>> X = pd.DataFrame(rng.normal(size=(80, 4)), columns=["a", "b", "c", "d"])
    >>> y = X["a"] - X["b"] + 2 * rng.normal(size=80)
    >>> a = assess(Lasso(alpha=0.2), X, y, n_runs=20, random_state=0)
    >>> a
    Assessment(measure='nogueira', stability=0.4969, standard_error=0.08451, n_runs=20,
               n_features=4, mean_score=0.2807)
    >>> print(a)
    Stability assessment
    measure          nogueira
    estimate         0.4969 (intermediate to good, thesis Table 6.1)
    standard error   0.0845 (analytic: thesis Thm 6)
    95% CI           [0.3312, 0.6625] (Wald, thesis Cor. 1)
    runs x features  20 x 4
    subset size      2 to 4 (mean 2.65)
    mean score       0.2807 (out-of-sample)
    most selected    a (1.00), b (1.00), d (0.40), c (0.25)
    >>> a.frequencies.round(2).to_dict()                    # a Series: X had column names
    {'a': 1.0, 'b': 1.0, 'c': 0.25, 'd': 0.4}
    """

    estimate: Any
    frequencies: np.ndarray
    mean_score: float
    result: ResamplingResult
    measure: str
    target_halfwidth: Optional[float] = None

    @property
    def stability(self) -> float:
        return float(self.estimate.statistic)

    @property
    def halfwidth(self) -> float:
        """The half-width of the 95% confidence interval of the stability."""
        return _halfwidth(self)

    def confidence_interval(self, confidence_level: float = 0.95):
        """The (low, high) confidence interval of the stability."""
        return self.estimate.confidence_interval(confidence_level)

    def __repr__(self) -> str:
        return call_repr("Assessment", measure=self.measure, stability=self.stability,
                         standard_error=self.estimate.standard_error,
                         n_runs=self.estimate.n_runs, n_features=self.estimate.n_features,
                         mean_score=self.mean_score)

    def __str__(self) -> str:
        return str(self.summary())          # a plain str, not the Summary subclass

    def summary(self, confidence_level: float = 0.95) -> Summary:
        """A few lines: the estimate with its standard error and interval, M, d, sizes,
        failed runs, the mean score and the most selected features.

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        rows = [*self.estimate._fields(confidence_level), *self.result._run_fields()]
        if self.target_halfwidth is not None:
            width = self.halfwidth
            verdict = "reached" if width <= self.target_halfwidth else "not reached"
            rows.append(("target half-width", f"{number(self.target_halfwidth)} {verdict}: "
                                              f"{number(width)} after {self.result.n_runs} "
                                              f"runs (95% CI)"))
        rows.append(("most selected", _most_selected(self.frequencies,
                                                     self.result.feature_names)))
        return summary("Stability assessment", rows)

    def to_frame(self):
        """The selection frequencies as a DataFrame, one row per feature.

        Returns
        -------
        pandas.DataFrame
            Column ``frequency``; the index (named ``feature``) holds the feature names
            when X had them, else 0..d-1.
        """
        import pandas as pd
        freq = np.asarray(self.frequencies, dtype=np.float64)
        return pd.DataFrame({"frequency": freq},
                            index=_feature_index(self.result.feature_names, freq.size))


@dataclasses.dataclass(frozen=True, repr=False)
class Comparison:
    """Several selectors assessed on the same resamples.

    ``repr`` is one line and ``str`` (and ``print``) show :meth:`summary`, one line per
    selector; :meth:`to_frame` gives the same table as a DataFrame.

    Parameters
    ----------
    assessments : mapping of str to Assessment
        The assessment of each selector.
    pareto_optimal : tuple of str
        The non-dominated selectors.
    tests : PairwiseTestTable
        The paired pairwise tests.
    left_out : mapping of str to str, optional
        The selectors left out of the Pareto front, with the reason.

    Attributes
    ----------
    assessments : dict of name -> Assessment
    pareto_optimal : tuple of str
        The non-dominated selectors in (mean score, stability), both higher better.
    tests : PairwiseTestTable
        The result of :func:`propstab.pairwise_tests` on the paired selection matrices,
        one row per pair (first, second) in the order of the selectors: the difference
        is first minus second (the permutation test below 100 runs, the asymptotic one
        from 100 on).
    left_out : dict of name -> str
        The selectors left out of the Pareto front, with the reason (no out-of-sample
        score: it cannot score and no downstream model scored it; or an undefined
        stability). Never on the front, never silently: :func:`assess` warns
        (:class:`UnscoredWarning`) and :meth:`summary` lists them.

    See Also
    --------
    propstab.assess : Returns it for a mapping of selectors.
    propstab.resampling.pareto_front : The front over (mean score, stability).
    propstab.pairwise_tests : The tests in ``tests``.

    References
    ----------
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD 2019, sec. 4.1 (the Pareto front of accuracy and stability).
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 7 (the tests).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import assess
    >>> rng = np.random.default_rng(1)
    >>> X = rng.normal(size=(80, 5)); y = X[:, 0] - X[:, 1] + 2 * rng.normal(size=80)
    >>> c = assess({f"lasso{alpha}": Lasso(alpha=alpha) for alpha in (0.05, 0.2, 0.5)},
    ...            X, y, n_runs=20, random_state=0)
    >>> c
    Comparison(selectors=('lasso0.05', 'lasso0.2', 'lasso0.5'), measure='nogueira',
               n_runs=20, n_features=5, pareto_optimal=('lasso0.2', 'lasso0.5'))
    >>> print(c)
    Comparison of 3 selectors on the same resamples: nogueira, 20 runs x 5 features
    selector   stability  SE      95% CI             mean score  mean size  failed  Pareto
    ---------  ---------  ------  -----------------  ----------  ---------  ------  ------
    lasso0.05  0.0292     0.0493  [-0.0673, 0.1258]  0.2365      4.5        0
    lasso0.2   0.4430     0.0678  [0.3101, 0.5759]   0.2739      3          0       *
    lasso0.5   0.9587     0.0360  [0.8882, 1.0000]   0.2195      2.05       0       *
    paired two-sided permutation tests, Holm's correction: 3 of 3 pairs differ at p < 0.05 (see .tests)
    >>> c.to_frame()["pareto_optimal"].tolist()
    [False, True, True]
    """

    assessments: Mapping[str, Assessment]
    pareto_optimal: Tuple[str, ...]
    tests: Any
    left_out: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def _shape(self):
        first = next(iter(self.assessments.values()))
        return first.measure, first.result.n_runs, first.estimate.n_features

    def __repr__(self) -> str:
        measure, n_runs, d = self._shape()
        extra = {"left_out": tuple(self.left_out)} if self.left_out else {}
        return call_repr("Comparison", selectors=tuple(self.assessments), measure=measure,
                         n_runs=n_runs, n_features=d, pareto_optimal=tuple(self.pareto_optimal),
                         **extra)

    def __str__(self) -> str:
        return str(self.summary())          # a plain str, not the Summary subclass

    def summary(self, confidence_level: float = 0.95, alpha: float = 0.05) -> Summary:
        """One line per selector: stability, standard error, interval, mean score, mean
        subset size, failed runs and Pareto optimality ("left out" for a selector
        without a score); then why each left-out selector is left out, and a count of
        the pairwise tests significant after the correction (Holm's).

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95
        alpha : float, default 0.05
            The level at which the adjusted p-values are counted.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        confidence_level = check_confidence_level(confidence_level)
        alpha = check_real_range("alpha", alpha, low=0.0, high=1.0, low_open=True,
                                 high_open=True)
        measure, n_runs, d = self._shape()
        heads = ["selector", "stability", "SE", level_label(confidence_level),
                 "mean score", "mean size", "failed", "Pareto"]
        body = []
        for name, a in self.assessments.items():
            low, high = inference.quietly(a.confidence_interval, confidence_level)
            body.append([name, number(a.stability, fixed=True),
                         number(a.estimate.standard_error, fixed=True), interval(low, high),
                         number(a.mean_score, fixed=True),
                         number(float(np.mean(a.result.selection.row_sizes)), 3),
                         len(a.result.failures), "*" if name in self.pareto_optimal else
                         "left out" if name in self.left_out else ""])
        notes = [f"left out of the Pareto front: {name} ({why})"
                 for name, why in self.left_out.items()]
        if self.tests is not None:
            t = self.tests
            hits = sum(r[t.adjusted_key] < alpha for r in t.rows)
            kind = "paired " if t.paired else ""
            phrase = inference.CORRECTIONS[t.correction][1]
            ran = "/".join(sorted({r.get("test", "asymptotic") for r in t.rows}))
            notes.append(f"{kind}{t.alternative} {ran} tests, {phrase}: {hits} of "
                         f"{len(t.rows)} pairs differ at p < {alpha:g} (see .tests)")
        title = (f"Comparison of {len(self.assessments)} selectors on the same resamples: "
                 f"{measure}, {n_runs} runs x {d} features")
        return summary(title, table=(heads, body), notes=notes)

    def to_frame(self, confidence_level: float = 0.95):
        """One row per selector (index ``selector``).

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95
            The level of the ``ci_low``, ``ci_high`` columns.

        Returns
        -------
        pandas.DataFrame
            Columns ``stability``, ``standard_error``, ``ci_low``, ``ci_high``,
            ``mean_score``, ``n_runs`` (successful runs), ``n_failed``, ``mean_size``,
            ``pareto_optimal``, ``left_out`` (why a selector is not on the front:
            no score or stability; None for the others).
        """
        confidence_level = check_confidence_level(confidence_level)
        import pandas as pd
        rows = []
        for name, a in self.assessments.items():
            low, high = inference.quietly(a.confidence_interval, confidence_level)
            rows.append({"selector": name, "stability": a.stability,
                         "standard_error": a.estimate.standard_error, "ci_low": low,
                         "ci_high": high, "mean_score": a.mean_score,
                         "n_runs": a.estimate.n_runs, "n_failed": len(a.result.failures),
                         "mean_size": float(np.mean(a.result.selection.row_sizes)),
                         "pareto_optimal": name in self.pareto_optimal,
                         "left_out": self.left_out.get(name)})
        return pd.DataFrame(rows).set_index("selector")

    @property
    def frequencies(self):
        """The selection frequencies, one column per selector and one row per feature
        (index ``feature``: the feature names when X had them, else 0..d-1).

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd
        first = next(iter(self.assessments.values()))
        index = _feature_index(first.result.feature_names, first.estimate.n_features)
        return pd.DataFrame({name: np.asarray(a.frequencies, dtype=np.float64)
                             for name, a in self.assessments.items()}, index=index)


def pareto_front(*objectives, labels=None) -> np.ndarray:
    """The non-dominated points when every objective is to be maximised.

    A point is dominated when another point is at least as good in every
    objective and strictly better in one (Sechidis et al. 2019, sec. 4.1: "no other
    point has both higher accuracy and higher stability"). A point with a NaN
    objective (a selector without a score) is never on the front, and a warning names
    it: nothing is left out silently.

    Parameters
    ----------
    *objectives : array-like of shape (n_points,)
    labels : sequence of str, optional
        A name per point, used in the warning about points left out.

    Returns
    -------
    ndarray of bool, the mask of Pareto-optimal points.

    Raises
    ------
    TypeError, ValueError
        No objective, objectives of different lengths or not numeric, or labels not
        one per point.

    Warns
    -----
    UnscoredWarning
        Some points have a NaN objective and are left out of the front.

    Notes
    -----
    Point i is dominated when some j has :math:`P_{jk} \\ge P_{ik}` for every
    objective k and :math:`P_{jk} > P_{ik}` for one.

    See Also
    --------
    propstab.assess : Takes the front over several selectors.
    propstab.plots.plot_pareto_front : Draws it.

    References
    ----------
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD 2019, sec. 4.1 (the Pareto front of accuracy and stability).

    Examples
    --------
    >>> from propstab.resampling import pareto_front
    >>> pareto_front([0.9, 0.8, 0.7, 0.9], [0.5, 0.7, 0.6, 0.4]).tolist()
    [True, True, False, False]
    """
    if not objectives:
        raise TypeError("objectives: give at least one array of values (one per point)")
    columns = []
    for i, o in enumerate(objectives):
        column = as_real_array(f"objectives[{i}]", o)
        if column.ndim != 1 or (columns and column.size != columns[0].size):
            raise ValueError(f"objectives[{i}]: every objective must be 1-D with one value per "
                             f"point; objective {i} has shape {column.shape}"
                             + (f", objective 0 {columns[0].shape}" if columns else ""))
        columns.append(column)
    if labels is not None:
        from ._validation import check_labels
        labels = check_labels("labels", labels, columns[0].size, "point")
    front, valid = _front(np.column_stack(columns))
    if not valid.all():
        names = [str(labels[i]) if labels is not None else f"point {i}"
                 for i in np.flatnonzero(~valid)]
        warn(f"pareto_front: left out of the front (a NaN objective, e.g. no score): "
             f"{shorten(names, width=70)}", UnscoredWarning)
    return front


def _front(P: np.ndarray):
    """The Pareto mask of the rows of P (maximising every column), and the rows without
    NaN (the others are never on the front)."""
    valid = ~np.isnan(P).any(axis=1)
    ge = (P[:, None, :] >= P[None, :, :]).all(axis=2)     # ge[j, i]: j at least as good as i
    gt = (P[:, None, :] > P[None, :, :]).any(axis=2)
    dominated = (ge & gt & valid[:, None]).any(axis=0)
    return valid & ~dominated, valid


def _assess_one(result, measure, options, top_k_sizes=None):
    if result.rankings is not None:
        from ._rank_assessment import assess_rankings
        return assess_rankings(result, measure, options, top_k_sizes)
    est = inference.estimate(result.selection, measure=measure, **options)
    if est.note is not None:                   # nogueira biased by varying sizes
        warn(est.note, inference.VaryingSizesWarning)
    return Assessment(estimate=est, frequencies=result.frequencies,
                      mean_score=result.mean_score, result=result, measure=measure)


def assess(selector, X, y=None, *, measure=None, measure_options=None, output="selection",
           top_k_sizes=None, target_halfwidth=None, max_runs=None, progress=None,
           **resample_options):
    """From data to answer: stability with its CI, frequencies and mean score.

    Parameters
    ----------
    selector : selector or mapping of name -> selector
        Anything :func:`resample` accepts. A mapping assesses several selectors on
        the *same* resamples (paired) and returns a :class:`Comparison`.
    X, y :
        The data.
    measure : str, optional
        The measure given to :func:`propstab.estimate`: ``"nogueira"`` by default, or
        with ``output="ranking"`` a measure of the ranking family (``"spearman"`` by
        default).
    measure_options : dict, optional
        Options of the measure.
    output : {"selection", "ranking"}, default "selection"
        ``"ranking"``: the selector's ranking of the features is recorded in every run
        (:func:`resample`) and the result is a :class:`RankingAssessment`: the ranking
        stability, the set stability of the top-k sets at several k, and the weights'
        correlation, from one run.
    top_k_sizes : sequence of int, optional
        With ``output="ranking"``: the sizes k of the top-k sets reported (default:
        5, 10, 20, 50, 100 below d).
    target_halfwidth : float > 0, optional
        Add runs until the half-width of the 95% confidence interval of the stability
        is at most ``target_halfwidth`` (for a mapping: of every selector's), or until
        ``max_runs``. ``n_runs`` (default 100) is the first batch; each next batch
        aims at the M the variance's 1/M decay predicts, at least 10 runs more. The
        runs come from one stream of resamples drawn from ``random_state``: the
        result equals ``resample(..., n_runs=M)`` with the same seed, M the runs used.
    max_runs : int, optional
        The budget of runs per selector with ``target_halfwidth`` (default 1000; at
        least ``n_runs``).
    progress : bool, optional
        A progress bar over every run of every selector (and every batch of the
        ``target_halfwidth`` loop); by default (None) only when a person is watching
        (a terminal or a notebook) and for 20 runs or more.
    **resample_options
        Passed to :func:`resample` (n_runs, scheme, random_state, n_jobs, downstream,
        scoring, ...). Give ``random_state`` for reproducible and, with a mapping,
        paired runs.

    Returns
    -------
    Assessment (RankingAssessment with ``output="ranking"``), or Comparison for a
    mapping of selectors.

    Raises
    ------
    ValueError, TypeError
        Invalid arguments (as :func:`resample`); ``max_runs`` without
        ``target_halfwidth`` or below ``n_runs``.

    Warns
    -----
    UnscoredWarning
        A selector of a mapping has no score (it cannot score, and no downstream model
        could score it): it is left out of the Pareto front, named with the reason.
    HalfwidthNotReachedWarning
        ``max_runs`` was reached before the half-width fell to ``target_halfwidth``.

    See Also
    --------
    propstab.resample : The runs alone.
    propstab.estimate : The stability estimate of a selection matrix.
    propstab.pairwise_tests : The tests of a comparison.

    Notes
    -----
    The confidence interval is that of :func:`propstab.estimate` (thesis sec. 5.2,
    valid for bootstrap resampling, the default scheme). For several selectors
    the Pareto front is taken over (mean score, stability) (Sechidis et al. sec.
    4.1) and the pairwise tests are paired, the selectors having run on the same
    resamples. A selector that cannot score is scored by a downstream model
    (:func:`resample`'s ``downstream=``); one left without a score is never on the
    front, and the comparison says so (``Comparison.left_out``).

    The stopping rule of ``target_halfwidth``: with half-width h_M after M runs, the
    variance of the estimate decays as 1/M, so h_M' is about h_M sqrt(M / M') and the
    next M' is ceil(M (h_M / target)^2), at least M + 10, at most ``max_runs``.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 5.2 (the estimate and its
    interval); Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116
    (selection on resamples of the data).
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD 2019, sec. 4.1 (the Pareto front of accuracy and stability).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab import assess
    >>> rng = np.random.default_rng(1)
    >>> X = rng.normal(size=(80, 6)); y = X[:, 0] - X[:, 1] + 2 * rng.normal(size=80)
    >>> def top2(X, y):
    ...     return np.argsort(-np.abs(X.T @ (y - y.mean())))[:2]
    >>> a = assess(top2, X, y, n_runs=20, random_state=0)
    >>> a.frequencies.round(2).tolist()
    [0.75, 0.95, 0.05, 0.2, 0.05, 0.0]
    >>> low, high = a.confidence_interval(0.95)
    >>> bool(low < a.stability < high)
    True
    >>> b = assess(top2, X, y, n_runs=20, random_state=0, target_halfwidth=0.1)
    >>> b.result.n_runs, bool(b.halfwidth <= 0.1)
    (88, True)
    """
    options = check_mapping("measure_options", measure_options)
    measure = _assessed_measure(measure, output)
    from ._registry import get_measure
    from ._validation import check_options
    try:
        check_options(get_measure(measure), options)       # before any fit
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"measure_options: {exc}") from None
    progress = check_bool("progress", progress, none=True)
    unknown = sorted(set(resample_options) - set(_RESAMPLE_OPTIONS) - {"progress"})
    if unknown:
        raise TypeError(f"{unknown[0]}: not an argument of assess or resample; got "
                        f"{unknown[0]}={resample_options[unknown[0]]!r}")
    resample_options.pop("progress", None)
    opts = {**_RESAMPLE_OPTIONS, **resample_options, "output": output}
    n_runs = check_int_range("n_runs", opts.pop("n_runs"), minimum=2)
    target, budget = _check_target(target_halfwidth, max_runs, n_runs)
    if isinstance(selector, Mapping):
        if len(selector) < 2:
            raise ValueError(f"selector: a mapping must name at least 2 selectors; got "
                             f"{len(selector)}")
        seed = opts.pop("random_state")
        if seed is None or isinstance(seed, np.random.Generator):
            # one integer seed, so that every selector sees the same resamples
            seed = int(np.random.default_rng(seed).integers(2 ** 32))
        opts["random_state"] = seed
        selectors = dict(selector)
    else:
        selectors = {None: selector}
    plans = {name: _planned(sel, X, y, n_runs=budget, **opts)
             for name, sel in selectors.items()}
    even = isinstance(opts["scheme"], str) and opts["scheme"] == "complementary_pairs"
    results = _run_until(plans, n_runs, target, budget, progress, even,
                         lambda r: _assess_one(r, measure, options, top_k_sizes))
    assessments = {name: _assess_one(r, measure, options, top_k_sizes)
                   for name, r in results.items()}
    if target is not None:
        assessments = {name: _with_target(a, target) for name, a in assessments.items()}
        _warn_halfwidth(assessments, target, budget)
    if not isinstance(selector, Mapping):
        return assessments[None]
    return _compare(assessments, results, measure, options, output)


_RESAMPLE_OPTIONS = dict(n_runs=100, scheme="bootstrap", fraction=None, stratify=None,
                         random_state=None, n_jobs=None, backend=None, keep_importances=False,
                         top_k=None, threshold=None, scoring=None, downstream=None)

_CONFIDENCE = 0.95      # the level of the interval target_halfwidth refers to


def _check_target(target_halfwidth, max_runs, n_runs):
    """``target_halfwidth`` (> 0 or None) and the budget of runs."""
    if target_halfwidth is None:
        if max_runs is not None:
            raise ValueError(f"max_runs: only used with target_halfwidth=; got "
                             f"max_runs={max_runs!r}")
        return None, n_runs
    target = check_real_range("target_halfwidth", target_halfwidth, low=0.0, low_open=True)
    budget = 1000 if max_runs is None else check_int_range("max_runs", max_runs, minimum=2)
    if budget < n_runs:
        raise ValueError(f"max_runs: must be at least n_runs={n_runs}; got {budget}")
    return target, budget


def _halfwidth(assessment) -> float:
    low, high = inference.quietly(assessment.confidence_interval, _CONFIDENCE)
    return float((high - low) / 2)


def _run_until(plans, n_runs, target, budget, progress, even, assess_one):
    """Run every plan on runs 0..M-1, M = n_runs, then (with ``target``) add batches of
    the same resamples until every half-width is at most ``target`` or M = ``budget``.
    Returns the results of the runs done."""
    import warnings
    outputs = {name: [] for name in plans}
    done, upto = 0, n_runs
    total = (budget if target is not None else n_runs) * len(plans)
    with progress_counter(progress=progress, total=total, desc="assess", minimum=20) as bar:
        while True:
            for name, plan in plans.items():
                if name is not None:
                    bar.set_postfix_str(str(name))
                outputs[name] += _execute(plan, done, upto, bar)
            done = upto
            if target is None or done >= budget:
                break
            with warnings.catch_warnings():          # the final results warn, not each batch
                warnings.simplefilter("ignore")
                widths = [_halfwidth(assess_one(_collect_plan(plans[name], out)))
                          for name, out in outputs.items()]
            worst = max(widths)
            if not np.isfinite(worst) or worst <= target:
                break
            upto = min(budget, max(done + 10, int(np.ceil(done * (worst / target) ** 2))))
            if even and upto % 2:
                upto = min(budget, upto + 1)
    return {name: _collect_plan(plans[name], out) for name, out in outputs.items()}


def _with_target(assessment, target):
    if isinstance(assessment, Assessment):
        return dataclasses.replace(assessment, target_halfwidth=target)
    return assessment


def _warn_halfwidth(assessments, target, budget):
    for name, a in assessments.items():
        width = _halfwidth(a)
        if not width <= target:
            who = "" if name is None else f" of {name!r}"
            warn(f"target_halfwidth: the 95% interval's half-width{who} is {width:.4g} after "
                 f"max_runs={budget} runs, above the target {target:g}; raise max_runs or "
                 f"accept the wider interval", HalfwidthNotReachedWarning)


def _compare(assessments, results, measure, options, output):
    """The Comparison: the Pareto front over the selectors with a score (the others named
    in a warning and in ``left_out``), and the paired tests."""
    names = list(assessments)
    left_out = {}
    for name in names:
        a = assessments[name]
        if not np.isfinite(a.mean_score):
            r = a.result
            left_out[name] = (r.unscored_reason if r.unscored_reason is not None
                              else "no run had a finite out-of-sample score")
        elif not np.isfinite(a.stability):
            left_out[name] = "its stability is undefined (NaN)"
    if left_out:
        warn("assess: left out of the Pareto front (no score or stability): "
             + "; ".join(f"{name!r}: {why}" for name, why in left_out.items()),
             UnscoredWarning)
    kept = [k for k in names if k not in left_out]
    front = pareto_front([assessments[k].mean_score for k in kept],
                         [assessments[k].stability for k in kept]) if kept else []
    common = _common_runs(results)
    matrices = {name: _common_rows(results[name], common, output) for name in names}
    tests = inference.pairwise_tests(matrices, paired=True, measure=measure, **options)
    return Comparison(assessments=assessments,
                      pareto_optimal=tuple(k for k, f in zip(kept, front) if f),
                      tests=tests, left_out=left_out)


def _assessed_measure(measure, output) -> str:
    """The measure of :func:`assess`, checked against the output (a ranking measure
    exactly for ``output="ranking"``)."""
    from ._registry import get_measure
    if not _is_one_of(output, OUTPUTS):
        raise ValueError(f"output: must be one of {', '.join(map(repr, OUTPUTS))}; got "
                         f"{_shown(output)}")
    if measure is None:
        return "spearman" if output == "ranking" else "nogueira"
    kind = get_measure(measure).input
    if (kind == "ranking") != (output == "ranking"):
        reads = "rankings" if kind == "ranking" else "selections"
        wanted = "ranking" if output == "ranking" else "set"
        raise ValueError(f"measure: {measure!r} reads {reads}; with output={output!r} choose a "
                         f"{wanted} measure"
                         + ("" if output == "ranking" else " (or pass output='ranking')"))
    return measure


def _common_rows(result, common, output):
    """The rows of the runs in ``common``: the selection, or the rankings."""
    keep = np.isin(result.runs, common)
    if output == "ranking":
        from ._validation import as_rankings
        return as_rankings(result.rankings.toarray()[keep],
                           feature_names=result.rankings.feature_names)
    return as_selection(result.Z[keep], feature_names=result.feature_names)


def _common_runs(results):
    """Runs that succeeded for every selector (pairing needs the same resamples)."""
    common = None
    for r in results.values():
        common = r.runs if common is None else np.intersect1d(common, r.runs)
    return common
