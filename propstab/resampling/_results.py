"""The results of the resampling protocol's runs: :class:`ResamplingResult` (what
:func:`propstab.resample` returns), :class:`RunFailure` (one failed run), and the warnings
of the protocol (failed fits, failed scoring, selectors without a score, a target
half-width not reached)."""
from __future__ import annotations

import dataclasses
from typing import Any, Optional, Tuple

import numpy as np

from .._utils.checks import fail
from .._utils.exceptions import PropstabWarning
from .._utils.results import Result
from .._data.selection import Selection
from .._utils.text import Summary, number, shorten, size_text, summary

__all__ = [
    "FailedFitWarning",
    "HalfwidthNotReachedWarning",
    "ResamplingResult",
    "RunFailure",
    "ScoringFailedWarning",
    "UnscoredWarning",
    "by_feature",
    "feature_index",
    "most_selected",
]


class FailedFitWarning(PropstabWarning, RuntimeWarning):
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


class ScoringFailedWarning(PropstabWarning, RuntimeWarning):
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


class UnscoredWarning(PropstabWarning, UserWarning):
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


class HalfwidthNotReachedWarning(PropstabWarning, RuntimeWarning):
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


def by_feature(values: np.ndarray, names, name: str):
    """``values`` (one per feature) as a pandas Series indexed by the feature names, or
    the ndarray itself when the features have no names."""
    if names is None:
        return values
    import pandas as pd

    return pd.Series(values, index=pd.Index(list(names), name="feature"), name=name)


def feature_index(names, d: int):
    import pandas as pd

    if names is None:
        return pd.RangeIndex(d, name="feature")
    return pd.Index(list(names), name="feature")


def most_selected(frequencies, names, top: int = 5) -> str:
    """The ``top`` most frequently selected features, ``name (p)``, most frequent first."""
    freq = np.asarray(frequencies, dtype=np.float64)
    order = np.argsort(-freq, kind="stable")[:top]
    labels = [f"x{j}" if names is None else str(names[j]) for j in order]
    return shorten((f"{label} ({freq[j]:.2f})" for label, j in zip(labels, order)), width=76)


@dataclasses.dataclass(frozen=True, repr=False)
class ResamplingResult(Result):
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
    estimand: Optional[str] = None

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
        return by_feature(
            self.selection.column_counts / self.selection.n_runs, self.feature_names, "frequency"
        )

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
        from ..measures._stability import stability

        return stability(self.data_for(measure), measure, **options)

    def data_for(self, measure: str):
        """What ``measure`` reads: the selection, or the rankings for a ranking measure
        (ValueError when they were not recorded)."""
        from ..registry._registry import get_measure

        if get_measure(measure).input != "ranking":
            return self.selection
        if self.rankings is None:
            fail(
                f"measure: {measure!r} reads rankings, which this resampling did "
                f"not record; resample with output='ranking'"
            )
        return self.rankings

    def _repr_values(self):
        return dict(
            n_runs=self.n_runs,
            n_failed=len(self.failures),
            n_features=self.selection.n_features,
            mean_size=float(np.mean(self.selection.row_sizes)),
            mean_score=self.mean_score,
        )

    def summary(self) -> Summary:
        """A few lines: runs (and failures), features, subset sizes, rows per run, score.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        sel = self.selection
        rows = [
            *([("estimand", self.estimand)] if self.estimand else []),
            ("runs x features", f"{sel.n_runs} x {sel.n_features}"),
            ("subset size", size_text(sel.row_sizes)),
            *self.run_summary_rows(),
            (
                "rows per run",
                f"{np.mean([len(t) for t in self.train_indices]):.1f} "
                f"training, {np.mean([len(t) for t in self.test_indices]):.1f}"
                f" held out (mean)",
            ),
            (
                "most selected",
                most_selected(self.selection.column_counts / sel.n_runs, self.feature_names),
            ),
        ]
        return summary("Resampling result", rows)

    def run_summary_rows(self):
        """The summary's rows on failed runs and the mean score (an assessment's summary
        shows them too), as ``(label, text)`` pairs.

        Returns
        -------
        list of (str, str)
        """
        rows = []
        if self.failures:
            first = self.failures[0]
            rows += [
                ("failed runs", f"{len(self.failures)} of {self.n_runs} (excluded)"),
                (
                    "first failure",
                    shorten([f"run {first.run}: {first.error_type}: " f"{first.message}"]),
                ),
            ]
        if self.score_failures:
            first = self.score_failures[0]
            rows.append(
                (
                    "scoring failed",
                    shorten(
                        [
                            f"{len(self.score_failures)} of {self.n_runs} runs (selections kept, "
                            f"scores NaN); run {first.run}: {first.error_type}: {first.message}"
                        ]
                    ),
                )
            )
        if self.scores is not None and np.isfinite(self.scores).any():
            by = self.scored_by or ""
            if by.startswith("the selector (") and by.endswith(")"):
                by = f"; the selector's own {by[len('the selector ('):-1]}"
            elif by:
                by = f"; {by}"
            m = int(np.isfinite(self.scores).sum())
            rows.append(
                (
                    "mean score",
                    f"{number(self.mean_score, fixed=True)} (SE "
                    f"{number(self.score_standard_error, fixed=True)}, {m} "
                    f"runs{by})",
                )
            )
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
        for column, values in (
            ("size", self.selection.row_sizes),
            ("n_train", [len(t) for t in self.train_indices]),
            ("n_test", [len(t) for t in self.test_indices]),
        ):
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
