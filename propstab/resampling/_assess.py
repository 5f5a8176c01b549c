"""From data to answer: :func:`assess` (one selector, or several compared on the same
resamples), the Pareto front over (mean score, stability), and the assessment of
rankings (``output="ranking"``)."""
from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Mapping
from typing import Optional, Sequence, Tuple

import numpy as np

from .. import inference
from .._utils.checks import fail
from .._utils.exceptions import UndefinedMeasureWarning, warn
from ..measures._stability import MEASURE_NAME
from .._utils.params import Checked, Integral, Interval, Real, validate_params
from .._utils.progress import progress_counter
from .._utils.text import shorten
from .._utils.checks import as_real_array, check_int_range, check_mapping, seed_sequence
from .._data.convert_selection import as_selection
from ._assessments import Assessment, Comparison, RankingAssessment, halfwidth_of
from ._results import HalfwidthNotReachedWarning, UnscoredWarning
from ._runner import RUN_RULES, collect_plan, execute, planned
from ._schemes import is_splitter

__all__ = ["assess", "assess_rankings", "default_top_k_sizes", "pareto_front", "pareto_mask"]


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
        fail("objectives: give at least one array of values (one per point)", TypeError)
    columns = []
    for i, o in enumerate(objectives):
        column = as_real_array(f"objectives[{i}]", o)
        if column.ndim != 1 or (columns and column.size != columns[0].size):
            fail(
                f"objectives[{i}]: every objective must be 1-D with one value per "
                f"point; objective {i} has shape {column.shape}"
                + (f", objective 0 {columns[0].shape}" if columns else "")
            )
        columns.append(column)
    if labels is not None:
        from .._utils.checks import check_labels

        labels = check_labels("labels", labels, columns[0].size, "point")
    front, valid = pareto_mask(np.column_stack(columns))
    if not valid.all():
        names = [
            str(labels[i]) if labels is not None else f"point {i}" for i in np.flatnonzero(~valid)
        ]
        warn(
            f"pareto_front: left out of the front (a NaN objective, e.g. no score): "
            f"{shorten(names, width=70)}",
            UnscoredWarning,
        )
    return front


def pareto_mask(P: np.ndarray):
    """The Pareto mask of the rows of P (maximising every column), and the rows without
    NaN (the others are never on the front)."""
    valid = ~np.isnan(P).any(axis=1)
    ge = (P[:, None, :] >= P[None, :, :]).all(axis=2)  # ge[j, i]: j at least as good as i
    gt = (P[:, None, :] > P[None, :, :]).any(axis=2)
    dominated = (ge & gt & valid[:, None]).any(axis=0)
    return valid & ~dominated, valid


def _assess_one(result, measure, options, top_k_sizes=None):
    if result.rankings is not None:
        return assess_rankings(result, measure, options, top_k_sizes)
    est = inference.estimate(result.selection, measure=measure, **options)
    if est.note is not None:  # nogueira biased by varying sizes
        warn(est.note, inference.VaryingSizesWarning)
    return Assessment(
        estimate=est,
        frequencies=result.frequencies,
        mean_score=result.mean_score,
        result=result,
        measure=measure,
    )


@validate_params(
    {
        **RUN_RULES,
        "measure": [MEASURE_NAME, None],
        "measure_options": [
            Checked(
                check_mapping,
                "a mapping of option names to values",
                invalid=([1, 2], "x", 5, {1: 2}),
                like=None,
            ),
            None,
        ],
        "target_halfwidth": [Interval(Real, 0, None, closed="neither"), None],
        "max_runs": [Interval(Integral, 2, None), None],
    }
)
def assess(
    selector,
    X,
    y=None,
    *,
    n_runs=None,
    random_state=None,
    scheme="bootstrap",
    fraction=None,
    stratify=None,
    n_jobs=None,
    backend=None,
    downstream=None,
    scoring=None,
    top_k=None,
    threshold=None,
    keep_importances=False,
    measure=None,
    measure_options=None,
    output="selection",
    top_k_sizes=None,
    target_halfwidth=None,
    max_runs=None,
    progress=None,
    checkpoint=None,
):
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
    backend : str or dask.distributed.Client, optional
        A joblib backend (``"loky"``, ``"threading"``), a ``dask.distributed.Client``
        or ``"dask"`` (the current default client), as :func:`resample`; the result
        does not depend on it.
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
    checkpoint : str or path, optional
        A directory where every finished run is written as it finishes (as
        :func:`resample`; for a mapping, one subdirectory per selector): the call run
        again with the same arguments after an interruption runs only the missing runs
        and returns exactly the uninterrupted result. Needs a fixed ``random_state``.

    Returns
    -------
    Assessment (RankingAssessment with ``output="ranking"``), or Comparison for a
    mapping of selectors.

    Raises
    ------
    ValueError, TypeError
        Invalid arguments (as :func:`resample`); ``max_runs`` without
        ``target_halfwidth`` or below ``n_runs``; ``target_halfwidth`` with a splitter
        object (its number of splits is fixed); a ``checkpoint`` holding the runs of
        another call, or with ``random_state=None``.

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

    The stopping rule of ``target_halfwidth``: with half-width :math:`h_M` after M runs,
    the variance of the estimate decays as 1/M, so :math:`h_{M'} \\approx h_M \\sqrt{M/M'}`
    and the next :math:`M' = \\lceil M (h_M / \\mathrm{target})^2 \\rceil`, at least
    M + 10, at most ``max_runs``.

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
    (102, True)
    """
    options = measure_options or {}
    measure = _assessed_measure(measure, output)
    from ..registry._registry import get_measure
    from ..registry._option_checks import check_options

    check_options(get_measure(measure), options, argument="measure_options")  # before any fit
    opts = dict(
        scheme=scheme,
        fraction=fraction,
        stratify=stratify,
        random_state=random_state,
        n_jobs=n_jobs,
        backend=backend,
        keep_importances=keep_importances,
        top_k=top_k,
        threshold=threshold,
        scoring=scoring,
        downstream=downstream,
        output=output,
    )
    splitter = is_splitter(scheme)
    if splitter and target_halfwidth is not None:
        fail(
            f"target_halfwidth: cannot add runs to scheme="
            f"{type(scheme).__name__}(...), whose number of splits is fixed; "
            f"use a scheme name, or more splits; got "
            f"target_halfwidth={target_halfwidth!r}"
        )
    if not splitter and n_runs is None:
        n_runs = 100
    target, budget = _check_target(target_halfwidth, max_runs, n_runs)
    if checkpoint is not None and random_state is None:
        fail(
            "checkpoint: needs a fixed random_state (an int or a SeedSequence), so that "
            "the call run again draws the same resamples; got random_state=None"
        )
    if isinstance(selector, Mapping):
        if len(selector) < 2:
            fail(f"selector: a mapping must name at least 2 selectors; got " f"{len(selector)}")
        # one SeedSequence, so that every selector sees the same resamples and seeds
        opts["random_state"] = seed_sequence(random_state)
        selectors = dict(selector)
    else:
        selectors = {None: selector}
    plans = {}
    for k, (name, sel) in enumerate(selectors.items()):
        where = checkpoint
        if isinstance(checkpoint, (str, os.PathLike)) and name is not None:
            where = os.path.join(os.fspath(checkpoint), f"selector-{k}")
        plan = planned(sel, X, y, n_runs=budget, checkpoint=where, name=name, **opts)
        if plans:  # a mapping: the first selector's resamples, shared
            first = next(iter(plans.values()))
            plan = dataclasses.replace(plan, splits=first.splits, seeds=first.seeds)
        plans[name] = plan
    if splitter:
        n_runs = budget = len(next(iter(plans.values())).splits)
    even = isinstance(scheme, str) and scheme == "complementary_pairs"
    results = _run_until(
        plans,
        n_runs,
        target,
        budget,
        progress,
        even,
        lambda r: _assess_one(r, measure, options, top_k_sizes),
    )
    assessments = {
        name: _assess_one(r, measure, options, top_k_sizes) for name, r in results.items()
    }
    if target is not None:
        assessments = {name: _with_target(a, target) for name, a in assessments.items()}
        _warn_halfwidth(assessments, target, budget)
    if not isinstance(selector, Mapping):
        return assessments[None]
    return _compare(assessments, results, measure, options, output)


def _check_target(target_halfwidth, max_runs, n_runs):
    """``target_halfwidth`` (> 0 or None) and the budget of runs."""
    if target_halfwidth is None:
        if max_runs is not None:
            fail(f"max_runs: only used with target_halfwidth=; got " f"max_runs={max_runs!r}")
        return None, n_runs
    target = target_halfwidth  # > 0 and >= 2: the declared rules
    budget = 1000 if max_runs is None else max_runs
    if budget < n_runs:
        fail(f"max_runs: must be at least n_runs={n_runs}; got {budget}")
    return target, budget


def _run_until(plans, n_runs, target, budget, progress, even, assess_one):
    """Run every plan on runs 0..M-1, M = n_runs, then (with ``target``) add batches of
    the same resamples until every half-width is at most ``target`` or M = ``budget``.
    Returns the results of the runs done."""
    outputs = {name: [] for name in plans}
    done, upto = 0, n_runs
    total = (budget if target is not None else n_runs) * len(plans)
    with progress_counter(progress=progress, total=total, desc="assess", minimum=20) as bar:
        while True:
            for name, plan in plans.items():
                if name is not None:
                    bar.set_postfix_str(str(name))
                outputs[name] += execute(plan, done, upto, bar)
            done = upto
            if target is None or done >= budget:
                break
            with warnings.catch_warnings():  # the final results warn, not each batch
                warnings.simplefilter("ignore")
                widths = [
                    halfwidth_of(assess_one(collect_plan(plans[name], out)))
                    for name, out in outputs.items()
                ]
            worst = max(widths)
            if not np.isfinite(worst) or worst <= target:
                break
            upto = min(budget, max(done + 10, int(np.ceil(done * (worst / target) ** 2))))
            if even and upto % 2:
                upto = min(budget, upto + 1)
    return {name: collect_plan(plans[name], out) for name, out in outputs.items()}


def _with_target(assessment, target):
    if isinstance(assessment, Assessment):
        return dataclasses.replace(assessment, target_halfwidth=target)
    return assessment


def _warn_halfwidth(assessments, target, budget):
    for name, a in assessments.items():
        width = halfwidth_of(a)
        if not width <= target:
            who = "" if name is None else f" of {name!r}"
            warn(
                f"target_halfwidth: the 95% interval's half-width{who} is {width:.4g} after "
                f"max_runs={budget} runs, above the target {target:g}; raise max_runs or "
                f"accept the wider interval",
                HalfwidthNotReachedWarning,
            )


def _compare(assessments, results, measure, options, output):
    """The Comparison: the Pareto front over the selectors with a score (the others named
    in a warning and in ``left_out``), and the paired tests."""
    names = list(assessments)
    left_out = {}
    for name in names:
        a = assessments[name]
        if not np.isfinite(a.mean_score):
            r = a.result
            left_out[name] = (
                r.unscored_reason
                if r.unscored_reason is not None
                else "no run had a finite out-of-sample score"
            )
        elif not np.isfinite(a.stability):
            left_out[name] = "its stability is undefined (NaN)"
    if left_out:
        warn(
            "assess: left out of the Pareto front (no score or stability): "
            + "; ".join(f"{name!r}: {why}" for name, why in left_out.items()),
            UnscoredWarning,
        )
    kept = [k for k in names if k not in left_out]
    front = (
        pareto_front(
            [assessments[k].mean_score for k in kept], [assessments[k].stability for k in kept]
        )
        if kept
        else []
    )
    common = _common_runs(results)
    matrices = {name: _common_rows(results[name], common, output) for name in names}
    tests = inference.pairwise_tests(matrices, paired=True, measure=measure, **options)
    return Comparison(
        assessments=assessments,
        pareto_optimal=tuple(k for k, f in zip(kept, front) if f),
        tests=tests,
        left_out=left_out,
    )


def _assessed_measure(measure, output) -> str:
    """The measure of :func:`assess`, checked against the output (a ranking measure
    exactly for ``output="ranking"``)."""
    from ..registry._registry import get_measure

    if measure is None:
        return "spearman" if output == "ranking" else "nogueira"
    kind = get_measure(measure).input
    if (kind == "ranking") != (output == "ranking"):
        reads = "rankings" if kind == "ranking" else "selections"
        wanted = "ranking" if output == "ranking" else "set"
        fail(
            f"measure: {measure!r} reads {reads}; with output={output!r} choose a "
            f"{wanted} measure" + ("" if output == "ranking" else " (or pass output='ranking')")
        )
    return measure


def _common_rows(result, common, output):
    """The rows of the runs in ``common``: the selection, or the rankings."""
    keep = np.isin(result.runs, common)
    if output == "ranking":
        from .._data.convert_rankings import as_rankings

        return as_rankings(
            result.rankings.toarray()[keep], feature_names=result.rankings.feature_names
        )
    return as_selection(result.Z[keep], feature_names=result.feature_names)


def _common_runs(results):
    """Runs that succeeded for every selector (pairing needs the same resamples)."""
    common = None
    for r in results.values():
        common = r.runs if common is None else np.intersect1d(common, r.runs)
    return common


# ----------------------------------------------------------------------------------
# rankings


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
    from ..measures import pearson

    W = np.abs(np.nan_to_num(np.asarray(importances, dtype=np.float64)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        return float(pearson(W != 0, importances=W))


def assess_rankings(result, measure: str, options, top_k_sizes: Optional[Sequence[int]]):
    """The :class:`RankingAssessment` of a resampling run with ``output="ranking"``."""
    rk = result.rankings
    sizes = (
        default_top_k_sizes(rk.n_features)
        if top_k_sizes is None
        else tuple(
            check_int_range("top_k_sizes", k, minimum=1, maximum=rk.n_features)
            for k in top_k_sizes
        )
    )
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
        warn(
            "assess: the stability of the top-k sets is undefined (NaN) at "
            + "; ".join(f"k={k}: {why}" for k, why in undefined)
            + "; report k below the number of features the runs rank apart "
            "(top_k_sizes=)",
            UndefinedMeasureWarning,
        )
    return RankingAssessment(
        estimate=est,
        top_k=tuple(sets),
        weights=_weights_pearson(result.importances),
        result=result,
        measure=measure,
        mean_score=result.mean_score,
        top_k_undefined=tuple(undefined),
    )


def _top_k_reason(rk, k: int, caught) -> str:
    """Why the top-k set stability (or its interval) is NaN: every run's top-k set is all
    d features (a tie group from within the top k to the last rank), or the warning the
    estimate gave."""
    sizes = rk.top_k(k).row_sizes
    d = rk.n_features
    if (np.asarray(sizes) == d).all():
        return (
            f"every run's top-{k} set holds all {d} features: tied ranks (e.g. "
            f"weights 0) from within the top {k} to the last"
        )
    messages = [str(w.message) for w in caught]
    return messages[0] if messages else "the estimate or its interval is NaN"
