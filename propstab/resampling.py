"""From data to stability: the resampling protocol for any feature selector.

:func:`resample` runs a selector on M resamples of a data set and returns the
selection matrix Z with the per-run out-of-sample scores, the resample indices and
any failed fits (Sechidis et al. 2019, Algorithm 1; thesis sec. 5.2.2 for the
bootstrap). :func:`assess` goes on to the stability estimate with its confidence
interval, the per-feature selection frequencies and the mean score, and for several
selectors at once to the accuracy-versus-stability Pareto front (Sechidis et al.
sec. 4.1) and pairwise tests on paired resamples.

Failed fits: a run whose fit (or the reading of its selection) raises is recorded in
``ResamplingResult.failures`` with the exception's type and message and the failing
stage, excluded from Z and the scores, and a :class:`FailedFitWarning` says how many
runs failed. A run whose *scoring* alone fails keeps its selection in Z, with a NaN
score, and is recorded in ``ResamplingResult.score_failures``
(:class:`ScoringFailedWarning`). If
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
                          check_random_state, check_real, check_real_range, check_text,
                          seed_sequence)
from ._progress import progress_counter
from .selectors import (_call, _read, clone, fits_a_classifier, is_estimator, run_seeds,
                        seeded, take)

__all__ = ["Assessment", "Comparison", "FailedFitWarning", "HalfwidthNotReachedWarning",
           "RankingAssessment", "ResamplingResult", "RunFailure", "ScoringFailedWarning",
           "UnscoredWarning", "assess", "pareto_front", "resample"]

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


class ScoringFailedWarning(RuntimeWarning):
    """The out-of-sample scoring failed in some runs: their selections are kept in Z and
    their scores are NaN (the message says how many runs and quotes the first error;
    each is in ``ResamplingResult.score_failures`` with ``stage="score"``).

    A scorer that cannot be computed on some held-out rows (``roc_auc_ovr`` when a rare
    class is missing from them, say) says nothing about the selector: its selection
    stands.

    See Also
    --------
    propstab.resample : Warns with it.
    propstab.resampling.RunFailure : One failed run, with its ``stage``.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn User Guide, sec. 3.3.1 (the ``scoring`` parameter).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import resample
    >>> from propstab.resampling import ScoringFailedWarning
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(30, 4)); y = X[:, 0] + rng.normal(size=30)
    >>> def broken(estimator, X, y):
    ...     raise ValueError("cannot score")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     res = resample(Lasso(alpha=0.1), X, y, n_runs=5, scoring=broken, random_state=0)
    >>> [w.category for w in caught] == [ScoringFailedWarning], res.selection.n_runs
    (True, 5)
    >>> res.score_failures[0].stage, bool(np.isnan(res.scores).all())
    ('score', True)
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
    """A run that raised: its number, the exception type and message, and the stage.

    Parameters
    ----------
    run : int
        The run's number (0 to n_runs - 1).
    error_type : str
        The name of the exception's type.
    message : str
        The exception's message.
    stage : {"fit", "read", "score"}, default "fit"
        Where the run failed: ``"fit"`` (fitting the estimator, or calling the
        function, on the training rows), ``"read"`` (turning the fitted selector into a
        selection) or ``"score"`` (scoring on the held-out rows). A run failing at
        ``"fit"`` or ``"read"`` is excluded from Z (``ResamplingResult.failures``); one
        failing at ``"score"`` keeps its selection, with a NaN score
        (``ResamplingResult.score_failures``).

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
    RunFailure(run=0, error_type='ValueError', message='bad sample', stage='fit')
    """

    run: int
    error_type: str
    message: str
    stage: str = "fit"


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
    score_failures : tuple of RunFailure, optional
        The runs whose scoring failed (``stage="score"``); their selections are in Z.

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
        What produced the scores: ``"the selector (<model>)"`` (its own ``score`` or
        ``scoring=`` on it; the model is a pipeline's final step), or
        ``"downstream <model>"`` (``downstream=`` of :func:`resample`, or the default
        for a selector that cannot score); None when there are no scores.
    unscored_reason : str or None
        Why there are no scores (None when there are).
    score_failures : tuple of RunFailure
        The runs whose scoring raised (``stage="score"``): their selections are kept
        in Z and their scores are NaN (:class:`ScoringFailedWarning`).

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
    score_failures: Tuple[RunFailure, ...] = ()

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

    @property
    def score_standard_error(self) -> float:
        """The standard error of :attr:`mean_score`: the standard deviation of the finite
        per-run scores (ddof 1) over the square root of their number m (NaN for m < 2).

        The runs are resamples of one data set, not independent test sets: their
        training (and for the bootstrap their held-out) rows overlap, so the per-run
        scores are positively correlated and this standard error, which treats them as
        independent, understates the uncertainty of the mean score as an estimate of
        the selector's accuracy on new data (Nadeau and Bengio 2003; Bengio and
        Grandvalet 2004: no unbiased estimator of that variance exists). It measures the
        spread over resamples, and compares selectors run on the same resamples.
        """
        if self.scores is None:
            return float("nan")
        finite = self.scores[np.isfinite(self.scores)]
        if finite.size < 2:
            return float("nan")
        return float(np.std(finite, ddof=1) / np.sqrt(finite.size))

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
        if self.score_failures:
            first = self.score_failures[0]
            rows.append(("scoring failed", shorten([
                f"{len(self.score_failures)} of {self.n_runs} runs (selections kept, "
                f"scores NaN); run {first.run}: {first.error_type}: {first.message}"])))
        if self.scores is not None and np.isfinite(self.scores).any():
            by = self.scored_by or ""
            if by.startswith("the selector (") and by.endswith(")"):
                by = f"; the selector's own {by[len('the selector ('):-1]}"
            elif by:
                by = f"; {by}"
            m = int(np.isfinite(self.scores).sum())
            rows.append(("mean score", f"{number(self.mean_score, fixed=True)} (SE "
                                       f"{number(self.score_standard_error, fixed=True)}, {m} "
                                       f"runs{by})"))
        return rows

    def to_frame(self):
        """One row per attempted run (index ``run``): its status ("ok", "failed", or
        "score failed" for a run whose selection is kept but whose scoring raised),
        subset size, out-of-sample score, numbers of training and held-out rows, and the
        error of a failed run ("Type: message").

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
        for f in self.failures + tuple(self.score_failures):
            frame.loc[f.run, "error"] = f"{f.error_type}: {f.message}"
        for f in self.score_failures:
            frame.loc[f.run, "status"] = "score failed"
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


def _check_rows_left(scheme, fraction, given, groups, n):
    """Refuse a ``fraction`` that leaves no training row, or no held-out row, in every
    run: ``subsample`` trains on floor(fraction n_g) rows of each stratum g (of n_g
    rows; one stratum of n rows without ``stratify``), ``leave_out`` leaves out
    floor(fraction n_g)."""
    if scheme not in _DEFAULT_FRACTION:
        return
    if sum(int(np.floor(fraction * len(g))) for g in groups):
        return
    largest = max(len(g) for g in groups)
    rows = (f"n_samples={n}" if len(groups) == 1 else
            f"strata of at most {largest} rows (stratify=)")
    if scheme == "subsample":
        what = "trains on floor(fraction * n) rows: none"
        why = "no run would have a training row"
    else:
        what = "leaves out floor(fraction * n) rows: none"
        why = "no run would hold a row out, every run fitting all the data"
    shown = f"{fraction!r}" + ("" if given else " (the default)")
    raise ValueError(f"fraction: scheme={scheme!r} {what} with {rows}, so {why}; needs "
                     f"fraction >= 1/{largest} = {1 / largest:.4g}; got fraction={shown}")


def _is_splitter(scheme) -> bool:
    """A scikit-learn splitter object (``split(X, y)`` and ``get_n_splits``)."""
    return (not isinstance(scheme, (str, bytes, type)) and hasattr(scheme, "split")
            and hasattr(scheme, "get_n_splits"))


def _splitter_splits(splitter, X, y, n: int, n_runs):
    """The (train, test) pairs of a scikit-learn splitter, each split one run; a given
    ``n_runs`` must equal the splitter's number of splits."""
    name = type(splitter).__name__
    try:
        count = int(splitter.get_n_splits(X, y))
        drawn = list(splitter.split(X, y))
    except Exception as exc:  # noqa: BLE001 - the splitter's own error, named
        raise ValueError(f"scheme: {name}.split(X, y) failed: {type(exc).__name__}: "
                         f"{exc}") from None
    if len(drawn) != count:
        raise ValueError(f"scheme: {name} yielded {len(drawn)} splits but get_n_splits says "
                         f"{count}")
    if n_runs is not None and int(n_runs) != count:
        raise ValueError(f"n_runs: with scheme={name}(...) every split is one run, and it "
                         f"makes {count} splits (get_n_splits); leave n_runs out or give "
                         f"n_runs={count}; got n_runs={n_runs}")
    if count < 2:
        raise ValueError(f"scheme: {name} makes {count} split(s); resampling needs at least 2")
    out = []
    for i, (train, test) in enumerate(drawn):
        train = _scheme_rows(train, n, f"the training rows of split {i}")
        test = _scheme_rows(test, n, f"the held-out rows of split {i}")
        if train.size == 0:
            raise ValueError(f"scheme: split {i} of {name} has no training rows")
        out.append((train, test))
    return out


def _continuous(y) -> bool:
    """Whether ``y`` is a regression target by the package's one rule
    (:func:`_task_of`): True for a continuous y, False otherwise or when undecidable."""
    try:
        return _task_of(y) in ("continuous", "continuous-multioutput")
    except (ValueError, TypeError, ImportError):
        return False


def _task_of(y) -> str:
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


def _values_of(y) -> str:
    values = np.unique(np.asarray(y))
    return f"{values.size} distinct values ({_shown(values[0])}, ..., {_shown(values[-1])})"


def _strata(stratify, y, n):
    """Group labels for stratified resampling, or None."""
    if stratify is None or stratify is False:
        return None
    labels = y if stratify is True else stratify
    if labels is None:
        raise ValueError("stratify: True needs y (the class labels)")
    if stratify is True and _continuous(y):
        raise ValueError(f"stratify: True resamples within each class of y, but y is "
                         f"continuous (a float y of more than two values, whole or not, is "
                         f"a regression target) with {_values_of(y)}: every value would be "
                         f"a stratum; pass class labels as stratify=, or leave it out")
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
             keep_importances, output="selection", downstream=None, seed=None):
    """One run: fit on train, select, score on test. Returns
    ``(mask, imp, score, error, score_error)``; with ``output="ranking"`` the importances
    slot holds ``(values, kind)``, the run's ranking. ``error`` is None or ``(type name,
    message, stage, is_value_or_type_error)``, the stage being "fit" (fitting, or
    calling a function) or "read" (turning the fitted selector into a selection: its
    set-up); the run then has no selection. ``score_error`` is None or ``(type name,
    message)`` when the scoring alone failed: the selection stands, the score is NaN.
    ``seed`` (an int) seeds the estimator's and the downstream model's unset random
    states (:func:`propstab.selectors.seeded`)."""
    stage = "fit"
    try:
        Xtr = take(X, train)
        ytr = None if y is None else take(y, train)
        model = selector
        if seed is not None and is_estimator(selector):
            model = seeded(selector, seed)
        fitted = _call(model, Xtr, ytr)
        stage = "read"
        mask, imp = _read(selector, fitted, n_features, threshold, top_k, output)
    except Exception as exc:  # noqa: BLE001 - every failure is reported, not dropped
        return None, None, np.nan, (type(exc).__name__, str(exc), stage,
                                    isinstance(exc, (ValueError, TypeError))), None
    imp = imp if keep_importances or output == "ranking" else None
    try:
        if downstream is not None and seed is not None:
            downstream = seeded(downstream, seed)
        score = _score(selector, fitted, mask, X, y, Xtr, ytr, test, scorer, downstream)
    except Exception as exc:  # noqa: BLE001 - the selection stands; the score is NaN
        return mask, imp, np.nan, None, (type(exc).__name__, str(exc))
    return mask, imp, score, None, None


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
    scikit-learn's ``type_of_target``, :func:`_task_of`), its description, and the reason
    when there is none: ``(model, description, None)`` or ``(None, None, reason)``."""
    if y is None:
        return None, None, "no y to score against"
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    try:
        task = _task_of(y)
    except (ValueError, TypeError) as exc:
        return None, None, f"the task of y could not be decided: {exc}"
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


def _model_name(estimator) -> str:
    """The model that scores for ``estimator``: its class name, a pipeline's final step's."""
    from .selectors import _is_pipeline, _steps
    if _is_pipeline(estimator) and _steps(estimator):
        return _model_name(_steps(estimator)[-1][1])
    return type(estimator).__name__


def _scoring_plan(selector, y, downstream):
    """Who scores the runs: ``(downstream model or None, scored_by, unscored_reason)``.
    A given downstream model scores every selector, those that can score themselves
    too, so that selectors compared are scored alike."""
    if downstream is not None and downstream is not False and y is not None:
        return downstream, f"downstream {_model_name(downstream)}", None
    if is_estimator(selector) and _can_score(selector):
        return None, f"the selector ({_model_name(selector)})", None
    if downstream is False:
        return None, None, "the selector cannot score and downstream=False"
    if y is None:
        return None, None, "no y to score against"
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


def resample(selector, X, y=None, *, n_runs=None, scheme="bootstrap", fraction=None,
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
    n_runs : int, optional
        M, the number of resamples (even for ``"complementary_pairs"``); default 100,
        or with a splitter object as ``scheme`` its number of splits (a different
        ``n_runs`` is refused).
    scheme : {"bootstrap", "subsample", "leave_out", "complementary_pairs"}, callable or splitter
        ``"bootstrap"``: n draws with replacement, out-of-bag rows held out
        (thesis sec. 5.2.2). ``"subsample"``: floor(fraction * n) rows without
        replacement (fraction 0.5 by default). ``"leave_out"``: leave out
        floor(delta * n) rows, delta = ``fraction`` (default 0.05, as in
        Sechidis et al.'s Algorithm 1).
        ``"complementary_pairs"``: n_runs/2 random splits into two disjoint halves
        of floor(n/2) rows (Shah and Samworth 2013). A callable
        ``scheme(n_samples, n_runs, rng)`` yields per run the training indices
        or a ``(train, test)`` pair. A scikit-learn splitter object (anything with
        ``split(X, y)`` and ``get_n_splits``: ``ShuffleSplit``,
        ``StratifiedShuffleSplit``, ``RepeatedStratifiedKFold``, ...): each of its
        splits is one run. Its splits follow the splitter's own ``random_state``
        (set it for reproducible splits; with None they differ between calls, as in
        scikit-learn); ``random_state`` here then seeds only the estimators.
    fraction : float, optional
        The subsample fraction, or the left-out fraction delta. A fraction that
        leaves no row in (``"subsample"``) or none out (``"leave_out"``) for the n
        rows given (floor(fraction * n) = 0) is refused.
    stratify : array-like or True, optional
        Class labels (True: ``y``, refused for a continuous ``y``) to resample within
        each class; not with a splitter object (it stratifies by itself).
    random_state : None, int, numpy Generator, SeedSequence or RandomState
        The one source of randomness of the call: from it one
        ``numpy.random.SeedSequence`` is made, and every run's resample *and* every
        run's seed are drawn from it up front, in run order, so results do not
        depend on ``n_jobs``, the backend or batching. Each run fits a clone of an
        estimator selector (and of ``downstream``) whose random-state parameters left
        at None (``random_state``, ``<step>__random_state``) are set to the run's seed
        (:func:`propstab.selectors.seeded`); random states set explicitly are left
        alone. A function selector cannot be seeded from outside: seed its own
        randomness inside it. A ``RandomState`` is advanced, as in scikit-learn (one
        rule for every entry point).
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
        How an estimator's importances become a selection (see above):
        ``threshold`` is a threshold on the importances of one fit, not on the
        selection frequencies over the runs (that is a ``cutoff``, as in
        :class:`~propstab.StabilitySelection` and
        :func:`~propstab.plots.plot_selection_frequencies`).
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
        The model that scores the runs: in every run a clone is fitted on the
        selected columns of the training rows and scored (``scoring=`` or its
        ``score``) on the same columns of the held-out rows (NaN when nothing was
        selected). Given, it scores *every* selector, those that score themselves
        too (a pipeline ending in a model, a Lasso), so that the scores of selectors
        compared are like for like. None: a selector that scores itself does;
        one that cannot (no ``score`` or ``predict``: ``SelectKBest``,
        ``SelectFromModel``, ``VarianceThreshold``, a pipeline ending in a selector,
        a function) is scored by a default per task, decided from ``y`` as scikit-learn's
        ``type_of_target`` does, for estimators: ``LogisticRegression(max_iter=1000)``
        after ``StandardScaler(with_mean=False)`` for a binary or multiclass ``y``,
        ``Ridge()`` for a continuous one (a float ``y`` of more than two whole
        numbers, such as diabetes' progression score, counts as continuous, where
        ``type_of_target`` says multiclass); functions are scored only with an explicit
        ``downstream``. False: no downstream model (a selector that cannot score has
        no scores). ``ResamplingResult.scored_by`` says which model scored.

    Returns
    -------
    ResamplingResult

    Raises
    ------
    ValueError, TypeError
        Invalid arguments.
        ``ValueError`` naming ``y`` when the selector (or ``downstream``) is or
        contains a classifier and ``y`` is continuous (the rule of the default
        downstream model: a float ``y`` of more than two values, whole or not);
        naming ``stratify`` for ``stratify=True`` with such a ``y``; naming
        ``fraction`` when it leaves no row in or out; naming ``n_runs`` when it
        differs from a splitter's number of splits.
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
    ScoringFailedWarning
        The scoring failed in some runs: their selections are kept, their scores are
        NaN, and they are listed in ``score_failures``.

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
    with progress_counter(progress=progress, total=len(plan.splits), desc="resample",
                          minimum=20) as bar:
        outputs = _execute(plan, 0, len(plan.splits), bar)
    return _collect_plan(plan, outputs)


def _check_task(selector, downstream, y):
    """A classifier (the selector, a step of it, or the downstream model) needs class
    labels: refuse a continuous ``y`` by the rule of :func:`_task_of`."""
    if y is None:
        return
    for who, model in (("selector", selector), ("downstream", downstream)):
        if model is None or model is False or not is_estimator(model):
            continue
        if fits_a_classifier(model) and _continuous(y):
            raise ValueError(f"y: the {who} ({_model_name(model)}) is a classifier, which "
                             f"needs class labels, but y is continuous (a float y of more "
                             f"than two values, whole or not, is a regression target, as "
                             f"when the default downstream model is chosen) with "
                             f"{_values_of(y)}; use a regressor, or pass class labels "
                             f"(integers or strings)")


def _planned(selector, X, y, *, n_runs, scheme, fraction, stratify, random_state, n_jobs,
             backend, keep_importances, top_k, threshold, scoring, output, downstream):
    """The arguments of :func:`resample` checked, and every run's split and seed drawn."""
    X, y, n, d, names = _data(X, y)
    if not _is_one_of(output, OUTPUTS):
        raise ValueError(f"output: must be one of {', '.join(map(repr, OUTPUTS))}; got "
                         f"{_shown(output)}")
    splitter = _is_splitter(scheme)
    if n_runs is not None or not splitter:
        n_runs = check_int_range("n_runs", 100 if n_runs is None else n_runs, minimum=2)
    if not splitter and not callable(scheme) and not _is_one_of(scheme, SCHEMES):
        raise ValueError(f"scheme: must be one of {', '.join(map(repr, SCHEMES))}, a "
                         f"callable or a scikit-learn splitter (split(X, y), get_n_splits); "
                         f"got {_shown(scheme)}")
    if not splitter and scheme == "complementary_pairs" and n_runs % 2:
        raise ValueError(f"n_runs: must be even for scheme='complementary_pairs'; got {n_runs}")
    scheme_name = (f"a {type(scheme).__name__} splitter" if splitter else
                   "a callable" if callable(scheme) else scheme)
    given_fraction = fraction is not None
    fraction = _check_fraction(fraction, scheme_name)
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
    downstream = _check_downstream(downstream)
    _check_task(selector, downstream, y)
    downstream, scored_by, unscored_reason = _scoring_plan(selector, y, downstream)
    if splitter and stratify is not None and stratify is not False:
        raise ValueError(f"stratify: not with a splitter object as scheme (it resamples by "
                         f"itself: use a stratified splitter such as StratifiedShuffleSplit); "
                         f"got stratify={_shown(stratify)}")
    strata = _strata(stratify, y, n)
    if fraction is not None:
        _check_rows_left(scheme, fraction, given_fraction, _groups(strata, n), n)
    root = seed_sequence(random_state)
    if splitter:
        splits = _splitter_splits(scheme, X, y, n, n_runs)
    else:
        splits = _draw(scheme, n, n_runs, fraction, strata, np.random.default_rng(root))
    seeds = tuple(int(v) for v in run_seeds(root, 0, len(splits)))
    return _Plan(selector=selector, X=X, y=y, names=names, d=d, splits=splits, scorer=scorer,
                 threshold=threshold, top_k=top_k, keep_importances=keep_importances,
                 output=output, downstream=downstream, n_jobs=n_jobs, backend=backend,
                 scored_by=scored_by, unscored_reason=unscored_reason, seeds=seeds)


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
    seeds: Tuple[int, ...] = ()

    def task(self, i: int):
        train, test = self.splits[i]
        return (self.selector, self.X, self.y, train, test, self.d, self.scorer, self.threshold,
                self.top_k, self.keep_importances, self.output, self.downstream,
                self.seeds[i])


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
    failures = tuple(RunFailure(i, out[3][0], out[3][1], out[3][2])
                     for i, out in enumerate(outputs) if out[3] is not None)
    score_failures = tuple(RunFailure(i, out[4][0], out[4][1], "score")
                           for i, out in enumerate(outputs) if out[4] is not None)
    ok = np.array([i for i, out in enumerate(outputs) if out[3] is None], dtype=np.intp)
    if ok.size < 2:
        first = failures[0] if failures else None
        detail = f"; first failure (run {first.run}): {first.error_type}: {first.message}" \
            if first else ""
        raise ValueError(f"selector: {len(failures)} of {n_runs} runs failed and fewer than "
                         f"2 succeeded{detail}")
    if failures:
        warn(f"resample: {len(failures)} of {n_runs} runs failed (at the {failures[0].stage} "
             f"stage) and are excluded from Z (see .failures); first: "
             f"{failures[0].error_type}: {failures[0].message}", FailedFitWarning)
    if score_failures:
        first = score_failures[0]
        warn(f"resample: scoring failed in {len(score_failures)} of {n_runs} runs; their "
             f"selections are kept in Z and their scores are NaN (see .score_failures); "
             f"first (run {first.run}): {first.error_type}: {first.message}",
             ScoringFailedWarning)
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
        failures=failures, n_runs=n_runs, rankings=rankings, score_failures=score_failures)


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
    mean score       0.2807 (SE 0.0324, 20 runs; the selector's own Lasso)
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

    @property
    def score_standard_error(self) -> float:
        """The standard error of :attr:`mean_score` over the resamples
        (:attr:`ResamplingResult.score_standard_error`: the runs are resamples, so it
        understates the uncertainty about new data)."""
        return self.result.score_standard_error

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
    selector   stability  SE      95% CI             score (SE)       mean size  failed  Pareto
    ---------  ---------  ------  -----------------  ---------------  ---------  ------  ------
    lasso0.05  0.0292     0.0493  [-0.0673, 0.1258]  0.2365 (0.0430)  4.5        0
    lasso0.2   0.4430     0.0678  [0.3101, 0.5759]   0.2739 (0.0359)  3          0       *
    lasso0.5   0.9587     0.0360  [0.8882, 1.0000]   0.2195 (0.0220)  2.05       0       *
    scores: Lasso (own) on held-out rows; SE over resamples
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

    def _ranking(self) -> bool:
        return isinstance(next(iter(self.assessments.values())), RankingAssessment)

    def summary(self, confidence_level: float = 0.95, alpha: float = 0.05) -> Summary:
        """One line per selector: stability, standard error, interval, mean score with
        its standard error, the model that scored it (a column when the models differ,
        else one note naming the model), mean subset size, failed runs and Pareto
        optimality ("left out" for a selector without a score); then why each
        left-out selector is left out, and a count of the pairwise tests significant
        after the correction (Holm's).

        The score's standard error is that of
        :attr:`ResamplingResult.score_standard_error` (the SD of the per-run scores over
        the square root of their number; the runs are resamples, not independent test
        sets, so it understates the uncertainty about new data). With
        ``output="ranking"`` the selectors are compared by their rankings: in place of
        the mean subset size (a ranker with nonzero weights "selects" every feature),
        the column ``top-k`` gives the stability of the runs' top-k sets at the first
        reported k (:class:`RankingAssessment`), "undefined" where it is undefined.

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
        ranking = self._ranking()
        first_k = next(iter(self.assessments.values())).top_k[0][0] if ranking else None
        scorers = {name: _scorer_label(a.result) for name, a in self.assessments.items()
                   if a.result.scored_by is not None}
        mixed = len(set(scorers.values())) > 1
        heads = ["selector", "stability", "SE", level_label(confidence_level),
                 "score (SE)", *(["scored by"] if mixed else []),
                 f"top-{first_k}" if ranking else "mean size", "failed", "Pareto"]
        body = []
        for name, a in self.assessments.items():
            low, high = inference.quietly(a.confidence_interval, confidence_level)
            score = number(a.mean_score, fixed=True)
            if np.isfinite(a.mean_score):
                score += f" ({number(a.result.score_standard_error, fixed=True)})"
            if ranking:
                top = a.top_k[0][1].statistic
                size = number(top, fixed=True) if np.isfinite(top) else "undefined"
            else:
                size = number(float(np.mean(a.result.selection.row_sizes)), 3)
            body.append([name, number(a.stability, fixed=True),
                         number(a.estimate.standard_error, fixed=True), interval(low, high),
                         score, *([scorers.get(name, "none")] if mixed else []), size,
                         len(a.result.failures), "*" if name in self.pareto_optimal else
                         "left out" if name in self.left_out else ""])
        notes = [f"left out of the Pareto front: {name} ({why})"
                 for name, why in self.left_out.items()]
        if mixed:
            notes.append("scores from different models (scored by), not like for like: "
                         "downstream= scores all alike")
        elif scorers:
            notes.append(f"scores: {next(iter(scorers.values()))} on held-out rows; SE over "
                         f"resamples")
        notes += [f"SE of {name}: {inference._variance_label(a.estimate)}"
                  for name, a in self.assessments.items() if a.estimate.variance_note]
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
            ``mean_score``, ``score_standard_error`` (the SD of the per-run scores over
            the square root of their number: the runs are resamples, see
            :attr:`ResamplingResult.score_standard_error`), ``scored_by`` (the model
            that scored, :attr:`ResamplingResult.scored_by`; None without scores),
            ``n_runs`` (successful runs), ``n_failed``, ``mean_size`` (with
            ``output="ranking"`` instead ``n_ranked``, the number of features each run
            ranks, and ``top_<k>``, the top-k set stability at each reported k),
            ``pareto_optimal``, ``left_out`` (why a selector is not on the front:
            no score or stability; None for the others).
        """
        confidence_level = check_confidence_level(confidence_level)
        import pandas as pd
        ranking = self._ranking()
        rows = []
        for name, a in self.assessments.items():
            low, high = inference.quietly(a.confidence_interval, confidence_level)
            row = {"selector": name, "stability": a.stability,
                   "standard_error": a.estimate.standard_error, "ci_low": low,
                   "ci_high": high, "mean_score": a.mean_score,
                   "score_standard_error": a.result.score_standard_error,
                   "scored_by": a.result.scored_by,
                   "n_runs": a.estimate.n_runs, "n_failed": len(a.result.failures)}
            if ranking:
                row["n_ranked"] = a.rankings.n_features
                row.update({f"top_{k}": est.statistic for k, est in a.top_k})
            else:
                row["mean_size"] = float(np.mean(a.result.selection.row_sizes))
            row.update({"pareto_optimal": name in self.pareto_optimal,
                        "left_out": self.left_out.get(name)})
            rows.append(row)
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


def _scorer_label(result) -> str:
    """Short text of what scored a result: the model, "(own)" for the selector's own."""
    by = result.scored_by
    if by is None:
        return "none"
    if by.startswith("the selector (") and by.endswith(")"):
        return f"{by[len('the selector ('):-1]} (own)"
    return by[len("downstream "):] if by.startswith("downstream ") else by


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


def assess(selector, X, y=None, *, n_runs=None, random_state=None, scheme="bootstrap",
           fraction=None, stratify=None, n_jobs=None, backend=None, downstream=None,
           scoring=None, top_k=None, threshold=None, keep_importances=False,
           measure=None, measure_options=None, output="selection", top_k_sizes=None,
           target_halfwidth=None, max_runs=None, progress=None):
    """From data to answer: stability with its CI, frequencies and mean score.

    Parameters
    ----------
    selector : selector or mapping of name -> selector
        Anything :func:`resample` accepts. A mapping assesses several selectors on
        the *same* resamples (paired) and returns a :class:`Comparison`.
    X, y :
        The data.
    n_runs : int, optional
        M, the number of resamples (the first batch with ``target_halfwidth``);
        default 100, or a splitter's number of splits. As :func:`resample`.
    random_state : None, int, numpy Generator, SeedSequence or RandomState
        The seed of every resample and of every run's estimator (as
        :func:`resample`). Give it for reproducible and, with a mapping, paired runs
        (without it, a mapping's selectors still share one fresh seed).
    scheme : str, callable or scikit-learn splitter, default "bootstrap"
        How the rows are resampled (:func:`resample`).
    fraction : float, optional
        The subsample or left-out fraction (:func:`resample`).
    stratify : array-like or True, optional
        Resample within each class (:func:`resample`).
    n_jobs : int, optional
        Parallel runs with joblib; the result does not depend on it.
    backend : str, optional
        A joblib backend, e.g. ``"loky"`` or ``"dask"``.
    downstream : estimator, None or False, default None
        The model that scores the runs (:func:`resample`): given, it scores *every*
        selector on the same held-out rows, so that a comparison is like for like.
    scoring : str or callable, optional
        The out-of-sample score (a scikit-learn scorer name or ``scorer(est, X, y)``).
    top_k, threshold : optional
        How an estimator's importances become a selection (:func:`resample`).
    keep_importances : bool, default False
        Keep every run's importances (:func:`resample`).
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

    Returns
    -------
    Assessment (RankingAssessment with ``output="ranking"``), or Comparison for a
    mapping of selectors.

    Raises
    ------
    ValueError, TypeError
        Invalid arguments (as :func:`resample`); ``max_runs`` without
        ``target_halfwidth`` or below ``n_runs``; ``target_halfwidth`` with a splitter
        object (its number of splits is fixed).

    Warns
    -----
    UnscoredWarning
        A selector of a mapping has no score (it cannot score, and no downstream model
        could score it): it is left out of the Pareto front, named with the reason.
    HalfwidthNotReachedWarning
        ``max_runs`` was reached before the half-width fell to ``target_halfwidth``.
    FailedFitWarning, ScoringFailedWarning
        As :func:`resample`.
    UndefinedMeasureWarning
        With ``output="ranking"``: a top-k set stability is undefined (the reason is
        given, and repeated in the summary).

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
    opts = dict(scheme=scheme, fraction=fraction, stratify=stratify,
                random_state=random_state, n_jobs=n_jobs, backend=backend,
                keep_importances=keep_importances, top_k=top_k, threshold=threshold,
                scoring=scoring, downstream=downstream, output=output)
    splitter = _is_splitter(scheme)
    if splitter and target_halfwidth is not None:
        raise ValueError(f"target_halfwidth: cannot add runs to scheme="
                         f"{type(scheme).__name__}(...), whose number of splits is fixed; "
                         f"use a scheme name, or more splits; got "
                         f"target_halfwidth={target_halfwidth!r}")
    if not splitter or n_runs is not None:
        n_runs = check_int_range("n_runs", 100 if n_runs is None else n_runs, minimum=2)
    target, budget = _check_target(target_halfwidth, max_runs, n_runs)
    if isinstance(selector, Mapping):
        if len(selector) < 2:
            raise ValueError(f"selector: a mapping must name at least 2 selectors; got "
                             f"{len(selector)}")
        # one SeedSequence, so that every selector sees the same resamples and seeds
        opts["random_state"] = seed_sequence(check_random_state("random_state",
                                                                random_state))
        selectors = dict(selector)
    else:
        selectors = {None: selector}
    plans = {}
    for name, sel in selectors.items():
        plan = _planned(sel, X, y, n_runs=budget, **opts)
        if plans:                      # a mapping: the first selector's resamples, shared
            first = next(iter(plans.values()))
            plan = dataclasses.replace(plan, splits=first.splits, seeds=first.seeds)
        plans[name] = plan
    if splitter:
        n_runs = budget = len(next(iter(plans.values())).splits)
    even = isinstance(scheme, str) and scheme == "complementary_pairs"
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
