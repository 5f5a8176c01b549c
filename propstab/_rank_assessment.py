"""From data to the stability of rankings: :class:`RankingAssessment`, the result of
``propstab.assess(..., output="ranking")``.

One resampling run gives, for every run, the selector's ranking of the features (and its
selection): the assessment reports the ranking stability (Spearman by default, with its
confidence interval), the set stability of the top-k sets at several k (Nogueira's
estimator, ``top_k``), the Pearson correlation of the weights where the selector scores
the features (``pearson`` of the correlated family, Hamer and Dupont eq. 5), and each
feature's rank distribution.
"""
from __future__ import annotations

import dataclasses
import warnings
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from . import inference
from ._exceptions import UndefinedMeasureWarning, warn
from ._text import Summary, call_repr, interval, number, shorten, summary

__all__ = ["RankingAssessment", "assess_rankings", "default_top_k_sizes"]

#: The top-k sizes reported by default (those below d; d // 2 when none is).
TOP_K_SIZES = (5, 10, 20, 50, 100)


def default_top_k_sizes(d: int) -> Tuple[int, ...]:
    """The sizes k of the top-k sets reported for d features.

    >>> default_top_k_sizes(30), default_top_k_sizes(4)
    ((5, 10, 20), (2,))
    """
    sizes = tuple(k for k in TOP_K_SIZES if k < d)
    return sizes or (max(1, d // 2),)


def _weights_pearson(importances) -> Optional[float]:
    """The mean pairwise Pearson correlation of the runs' weights (``pearson`` with
    importances |W|, zero exactly where a weight is 0); NaN where undefined."""
    if importances is None:
        return None
    from .measures import pearson
    W = np.abs(np.nan_to_num(np.asarray(importances, dtype=np.float64)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        return float(pearson(W != 0, importances=W))


@dataclasses.dataclass(frozen=True, repr=False)
class RankingAssessment:
    """The stability of a selector's rankings, from :func:`propstab.assess` with
    ``output="ranking"``.

    ``repr`` is one line and ``str`` (and ``print``) show :meth:`summary`;
    :meth:`to_frame` gives each feature's rank distribution and top-k frequencies.

    Parameters
    ----------
    estimate : StabilityEstimate
        The ranking measure's estimate (``spearman`` by default) with its variance.
    top_k : tuple of (int, StabilityEstimate)
        The stability of the runs' top-k sets (Nogueira's estimator, measure ``top_k``)
        for each k.
    weights : float or None
        The mean pairwise Pearson correlation of the weights (``pearson`` on
        ``|importances|``), where the selector scores the features; None for ranks
        (``ranking_``).
    result : ResamplingResult
        With ``rankings`` and ``selection``.
    measure : str
        The ranking measure's name.
    mean_score : float
        The mean out-of-sample score of the runs (NaN when there is none).
    top_k_undefined : tuple of (int, str), optional
        The sizes k whose top-k set stability or its interval is undefined (NaN), each
        with the reason; :func:`propstab.assess` warns with them
        (``UndefinedMeasureWarning``) and :meth:`summary` prints them.

    See Also
    --------
    propstab.assess : Builds it with ``output="ranking"``.
    propstab.as_rankings : The rank matrices it summarises.
    propstab.measures.spearman : The default ranking measure.

    References
    ----------
    Nogueira, S., Sechidis, K., Brown, G. (2017). On the use of Spearman's rho to
    measure the stability of feature rankings. IbPRIA, LNCS 10255, 381-391.
    Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116
    (ranking stability and the stability of weights).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Ridge
    >>> from propstab import assess
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 8)); y = X @ np.linspace(1, 0, 8) + rng.normal(size=60)
    >>> a = assess(Ridge(), X, y, output="ranking", n_runs=20, random_state=0)
    >>> a.measure, round(a.stability, 3), [k for k, _ in a.top_k]
    ('spearman', 0.789, [5])
    """

    estimate: Any
    top_k: Tuple[Tuple[int, Any], ...]
    weights: Optional[float]
    result: Any
    measure: str
    mean_score: float
    top_k_undefined: Tuple[Tuple[int, str], ...] = ()

    @property
    def stability(self) -> float:
        """The ranking stability (the estimate's statistic)."""
        return float(self.estimate.statistic)

    @property
    def rankings(self):
        """The runs' rankings (:class:`~propstab.Rankings`)."""
        return self.result.rankings

    def confidence_interval(self, confidence_level: float = 0.95):
        """The (low, high) confidence interval of the ranking stability."""
        return self.estimate.confidence_interval(confidence_level)

    @property
    def score_standard_error(self) -> float:
        """The standard error of the mean score over the resamples
        (:attr:`ResamplingResult.score_standard_error`)."""
        return self.result.score_standard_error

    @property
    def mean_ranks(self):
        """Each feature's mean rank over the runs (1 the most important): a pandas Series
        indexed by feature name when X had column names, else an ndarray."""
        from .resampling import _by_feature
        rk = self.rankings
        return _by_feature(rk.rank_sums / rk.n_runs, rk.feature_names, "mean_rank")

    def __repr__(self) -> str:
        return call_repr("RankingAssessment", measure=self.measure, stability=self.stability,
                         standard_error=self.estimate.standard_error,
                         n_runs=self.estimate.n_runs, n_features=self.estimate.n_features,
                         mean_score=self.mean_score)

    def __str__(self) -> str:
        return str(self.summary())

    def summary(self, confidence_level: float = 0.95) -> Summary:
        """A few lines: the ranking stability with its interval, the top-k set stability
        at each k, the weights' correlation, M, d, failed runs, the mean score and the
        best-ranked features.

        Parameters
        ----------
        confidence_level : float in (0, 1), default 0.95

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        rows = [row for row in self.estimate._fields(confidence_level)
                if row[0] not in ("subset size",)]
        sets = []
        why = dict(self.top_k_undefined)
        for k, est in self.top_k:
            low, high = inference.quietly(est.confidence_interval, confidence_level)
            if not np.isfinite(est.statistic):
                sets.append(f"k={k}: undefined ({why.get(k, 'NaN')})")
                continue
            text = f"k={k}: {number(est.statistic, fixed=True)} {interval(low, high)}"
            if not (np.isfinite(low) and np.isfinite(high)) and k in why:
                text += f" (no interval: {why[k]})"
            sets.append(text)
        rows.append(("top-k sets", "; ".join(sets) + " (nogueira on the top-k sets)"))
        if self.weights is not None:
            rows.append(("weights", f"{number(self.weights, fixed=True)} (mean pairwise "
                                    f"Pearson correlation, pearson)"))
        rows += self.result._run_fields()
        rk = self.rankings
        mean = rk.rank_sums / rk.n_runs
        order = np.argsort(mean, kind="stable")[:5]
        names = rk.feature_names
        rows.append(("best ranked", shorten(
            f"{'x' + str(j) if names is None else names[j]} ({mean[j]:.1f})" for j in order)))
        return summary("Stability of rankings", rows)

    def to_frame(self):
        """One row per feature: mean, median and standard deviation of its rank over the
        runs, and the fraction of runs with it in the top k for each reported k.

        Returns
        -------
        pandas.DataFrame
            Index ``feature`` (names when X had them, else 0..d-1), sorted by mean rank.
        """
        import pandas as pd
        from .resampling import _feature_index
        rk = self.rankings
        R = rk.toarray()
        frame = pd.DataFrame({"mean_rank": R.mean(axis=0), "median_rank": np.median(R, axis=0),
                              "sd_rank": R.std(axis=0, ddof=1)},
                             index=_feature_index(rk.feature_names, rk.n_features))
        for k, _ in self.top_k:
            frame[f"top_{k}"] = rk.top_k(k).column_counts / rk.n_runs
        return frame.sort_values("mean_rank", kind="stable")


def assess_rankings(result, measure: str, options, top_k_sizes: Optional[Sequence[int]]):
    """The :class:`RankingAssessment` of a resampling run with ``output="ranking"``."""
    from ._validation import check_int_range
    rk = result.rankings
    sizes = (default_top_k_sizes(rk.n_features) if top_k_sizes is None else
             tuple(check_int_range("top_k_sizes", k, minimum=1, maximum=rk.n_features)
                   for k in top_k_sizes))
    est = inference.estimate(rk, measure, **options)
    sets, undefined = [], []
    for k in sizes:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            top = inference.estimate(rk, "top_k", k=k)
            low, high = top.confidence_interval(0.95)
        if np.isfinite(top.statistic) and np.isfinite(low) and np.isfinite(high):
            sets.append((k, top))
            continue
        sets.append((k, top))
        undefined.append((k, _top_k_reason(rk, k, caught)))
    if undefined:
        warn("assess: the stability of the top-k sets is undefined (NaN) at "
             + "; ".join(f"k={k}: {why}" for k, why in undefined)
             + "; report k below the number of features the runs rank apart "
               "(top_k_sizes=)", UndefinedMeasureWarning)
    return RankingAssessment(estimate=est, top_k=tuple(sets), weights=_weights_pearson(
        result.importances), result=result, measure=measure, mean_score=result.mean_score,
        top_k_undefined=tuple(undefined))


def _top_k_reason(rk, k: int, caught) -> str:
    """Why the top-k set stability (or its interval) is NaN: every run's top-k set is all
    d features (a tie group from within the top k to the last rank), or the warning the
    estimate gave."""
    sizes = rk.top_k(k).row_sizes
    d = rk.n_features
    if (np.asarray(sizes) == d).all():
        return (f"every run's top-{k} set holds all {d} features: tied ranks (e.g. "
                f"weights 0) from within the top {k} to the last")
    messages = [str(w.message) for w in caught]
    return messages[0] if messages else "the estimate or its interval is NaN"
