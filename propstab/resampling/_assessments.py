"""The answers of :func:`propstab.assess`: :class:`Assessment` (one selector),
:class:`RankingAssessment` (one selector's rankings, ``output="ranking"``) and
:class:`Comparison` (several selectors on the same resamples)."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Optional, Tuple

import numpy as np

from .. import inference
from ..inference import variance_label
from .._utils.results import Result, frame_of
from .._utils.text import Summary, interval, level_label, number, shorten, summary
from .._utils.checks import check_confidence_level, check_real_range
from ._results import ResamplingResult, by_feature, feature_index, most_selected

__all__ = [
    "Assessment",
    "CONFIDENCE",
    "Comparison",
    "RankingAssessment",
    "halfwidth_of",
    "scorer_label",
]

CONFIDENCE = 0.95  # the level of the interval target_halfwidth refers to


def halfwidth_of(assessment) -> float:
    """The half-width of the 95% confidence interval of an assessment's stability."""
    low, high = inference.quietly(assessment.confidence_interval, CONFIDENCE)
    return float((high - low) / 2)


@dataclasses.dataclass(frozen=True, repr=False)
class Assessment(Result):
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
    estimand         stability under bootstrap resampling of these 80 rows, given the data
    estimate         0.4969 (intermediate to good, thesis Table 6.1)
    standard error   0.0924 (delete-one-run jackknife, the interval's; analytic: thesis Thm 6:
    0.0845)
    95% CI           [0.2955, 0.6559] (logit, jackknife variance; M < 100)
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
        return halfwidth_of(self)

    @property
    def score_standard_error(self) -> float:
        """The standard error of :attr:`mean_score` over the resamples
        (:attr:`ResamplingResult.score_standard_error`: the runs are resamples, so it
        understates the uncertainty about new data)."""
        return self.result.score_standard_error

    def confidence_interval(self, confidence_level: float = 0.95):
        """The (low, high) confidence interval of the stability."""
        return self.estimate.confidence_interval(confidence_level)

    def _repr_values(self):
        return dict(
            measure=self.measure,
            stability=self.stability,
            standard_error=self.estimate.standard_error,
            n_runs=self.estimate.n_runs,
            n_features=self.estimate.n_features,
            mean_score=self.mean_score,
        )

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
        rows = [*self.estimate.summary_rows(confidence_level), *self.result.run_summary_rows()]
        if getattr(self.result, "estimand", None):
            rows.insert(1, ("estimand", self.result.estimand))
        if self.target_halfwidth is not None:
            width = self.halfwidth
            verdict = "reached" if width <= self.target_halfwidth else "not reached"
            rows.append(
                (
                    "target half-width",
                    f"{number(self.target_halfwidth)} {verdict}: "
                    f"{number(width)} after {self.result.n_runs} "
                    f"runs (95% CI)",
                )
            )
        rows.append(("most selected", most_selected(self.frequencies, self.result.feature_names)))
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
        return pd.DataFrame(
            {"frequency": freq}, index=feature_index(self.result.feature_names, freq.size)
        )


@dataclasses.dataclass(frozen=True, repr=False)
class Comparison(Result):
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
    lasso0.05  0.0292     0.0493  [-0.0324, 0.0906]  0.2365 (0.0430)  4.5        0
    lasso0.2   0.4430     0.0678  [0.2840, 0.5783]   0.2739 (0.0359)  3          0       *
    lasso0.5   0.9587     0.0360  [0.7300, 0.9943]   0.2195 (0.0220)  2.05       0       *
    scores: Lasso (own) on held-out rows; SE over resamples
    paired two-sided permutation tests, Holm's correction: 3 of 3 pairs differ at p < 0.05 (see
    .tests)
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

    def _repr_values(self):
        measure, n_runs, d = self._shape()
        extra = {"left_out": tuple(self.left_out)} if self.left_out else {}
        return dict(
            selectors=tuple(self.assessments),
            measure=measure,
            n_runs=n_runs,
            n_features=d,
            pareto_optimal=tuple(self.pareto_optimal),
            **extra,
        )

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
        alpha = check_real_range("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)
        measure, n_runs, d = self._shape()
        ranking = self._ranking()
        first_k = next(iter(self.assessments.values())).top_k[0][0] if ranking else None
        scorers = {
            name: scorer_label(a.result)
            for name, a in self.assessments.items()
            if a.result.scored_by is not None
        }
        mixed = len(set(scorers.values())) > 1
        heads = [
            "selector",
            "stability",
            "SE",
            level_label(confidence_level),
            "score (SE)",
            *(["scored by"] if mixed else []),
            f"top-{first_k}" if ranking else "mean size",
            "failed",
            "Pareto",
        ]
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
            body.append(
                [
                    name,
                    number(a.stability, fixed=True),
                    number(a.estimate.standard_error, fixed=True),
                    interval(low, high),
                    score,
                    *([scorers.get(name, "none")] if mixed else []),
                    size,
                    len(a.result.failures),
                    "*"
                    if name in self.pareto_optimal
                    else "left out"
                    if name in self.left_out
                    else "",
                ]
            )
        notes = [
            f"left out of the Pareto front: {name} ({why})" for name, why in self.left_out.items()
        ]
        if mixed:
            notes.append(
                "scores from different models (scored by), not like for like: "
                "downstream= scores all alike"
            )
        elif scorers:
            notes.append(
                f"scores: {next(iter(scorers.values()))} on held-out rows; SE over " f"resamples"
            )
        notes += [
            f"SE of {name}: {variance_label(a.estimate)}"
            for name, a in self.assessments.items()
            if a.estimate.variance_note
        ]
        if self.tests is not None:
            t = self.tests
            hits = sum(r[t.adjusted_key] < alpha for r in t.rows)
            kind = "paired " if t.paired else ""
            phrase = inference.CORRECTIONS[t.correction][1]
            ran = "/".join(sorted({r.get("test", "wald") for r in t.rows}))
            ran = ran.replace("wald", "Wald")
            notes.append(
                f"{kind}{t.alternative} {ran} tests, {phrase}: {hits} of "
                f"{len(t.rows)} pairs differ at p < {alpha:g} (see .tests)"
            )
        title = (
            f"Comparison of {len(self.assessments)} selectors on the same resamples: "
            f"{measure}, {n_runs} runs x {d} features"
        )
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
        return frame_of(
            self._records(confidence_level), owner="Comparison.to_frame", index="selector"
        )

    def _records(self, confidence_level: float = 0.95):
        ranking = self._ranking()
        rows = []
        for name, a in self.assessments.items():
            low, high = inference.quietly(a.confidence_interval, confidence_level)
            row = {
                "selector": name,
                "stability": a.stability,
                "standard_error": a.estimate.standard_error,
                "ci_low": low,
                "ci_high": high,
                "mean_score": a.mean_score,
                "score_standard_error": a.result.score_standard_error,
                "scored_by": a.result.scored_by,
                "n_runs": a.estimate.n_runs,
                "n_failed": len(a.result.failures),
            }
            if ranking:
                row["n_ranked"] = a.rankings.n_features
                row.update({f"top_{k}": est.statistic for k, est in a.top_k})
            else:
                row["mean_size"] = float(np.mean(a.result.selection.row_sizes))
            row.update(
                {
                    "pareto_optimal": name in self.pareto_optimal,
                    "left_out": self.left_out.get(name),
                }
            )
            rows.append(row)
        return rows

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
        index = feature_index(first.result.feature_names, first.estimate.n_features)
        return pd.DataFrame(
            {
                name: np.asarray(a.frequencies, dtype=np.float64)
                for name, a in self.assessments.items()
            },
            index=index,
        )


def scorer_label(result) -> str:
    """Short text of what scored a result: the model, "(own)" for the selector's own."""
    by = result.scored_by
    if by is None:
        return "none"
    if by.startswith("the selector (") and by.endswith(")"):
        return f"{by[len('the selector ('):-1]} (own)"
    return by[len("downstream ") :] if by.startswith("downstream ") else by


@dataclasses.dataclass(frozen=True, repr=False)
class RankingAssessment(Result):
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
        rk = self.rankings
        return by_feature(rk.rank_sums / rk.n_runs, rk.feature_names, "mean_rank")

    def _repr_values(self):
        return dict(
            measure=self.measure,
            stability=self.stability,
            standard_error=self.estimate.standard_error,
            n_runs=self.estimate.n_runs,
            n_features=self.estimate.n_features,
            mean_score=self.mean_score,
        )

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
        rows = [
            row
            for row in self.estimate.summary_rows(confidence_level)
            if row[0] not in ("subset size",)
        ]
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
            rows.append(
                (
                    "weights",
                    f"{number(self.weights, fixed=True)} (mean pairwise "
                    f"Pearson correlation, pearson)",
                )
            )
        rows += self.result.run_summary_rows()
        rk = self.rankings
        mean = rk.rank_sums / rk.n_runs
        order = np.argsort(mean, kind="stable")[:5]
        names = rk.feature_names
        rows.append(
            (
                "best ranked",
                shorten(
                    f"{'x' + str(j) if names is None else names[j]} ({mean[j]:.1f})" for j in order
                ),
            )
        )
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

        rk = self.rankings
        R = rk.toarray()
        frame = pd.DataFrame(
            {
                "mean_rank": R.mean(axis=0),
                "median_rank": np.median(R, axis=0),
                "sd_rank": R.std(axis=0, ddof=1),
            },
            index=feature_index(rk.feature_names, rk.n_features),
        )
        for k, _ in self.top_k:
            frame[f"top_{k}"] = rk.top_k(k).column_counts / rk.n_runs
        return frame.sort_values("mean_rank", kind="stable")
