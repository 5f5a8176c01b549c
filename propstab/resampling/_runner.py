"""Planning and executing the runs of :func:`propstab.resample`: the arguments checked,
every run's split and seed drawn as the runs need them, the runs executed (in order, or
with joblib) and collected into a :class:`ResamplingResult`."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Optional

import numpy as np

from .._utils.exceptions import warn
from .._utils.execution import BACKEND, run_tasks
from .._utils.checkpoint import (
    CHECKPOINT,
    Checkpoint,
    check_checkpoint_seed,
    data_hash,
    described,
    task_digest,
)
from .._utils.params import (
    N_JOBS,
    Boolean,
    Integral,
    Interval,
    Joint,
    Options,
    RandomState,
    Real,
    validate_params,
)
from .._utils.progress import progress_counter
from .._data.convert_selection import as_selection
from .._utils.checks import (
    check_int_range,
    check_random_state,
    fail,
    is_one_of,
    seed_sequence,
    shown,
)
from ..selectors import (
    OUTPUTS,
    fit_selector,
    is_estimator,
    read_selection,
    run_seeds,
    seeded,
    take,
)
from ._results import FailedFitWarning, ResamplingResult, RunFailure, ScoringFailedWarning
from ._schemes import (
    SCHEMES,
    check_fraction,
    check_rows_left,
    groups_of,
    is_splitter,
    iter_splits,
    scheme_splits,
    splitter_splits,
    strata_of,
)
from ._scoring import check_downstream, check_task, score_run, scorer_of, scoring_plan

__all__ = [
    "DrawnSplits",
    "MAX_RUNS",
    "OUTPUTS",
    "Plan",
    "RUN_RULES",
    "RunSeeds",
    "checked_data",
    "collect_plan",
    "execute",
    "planned",
    "resample",
    "run_one",
]


def run_one(
    selector,
    X,
    y,
    train,
    test,
    n_features,
    scorer,
    threshold,
    top_k,
    keep_importances,
    output="selection",
    downstream=None,
    seed=None,
):
    """One run: fit on train, select, score on test. Returns
    ``(mask, imp, score, error, score_error)``; with ``output="ranking"`` the importances
    slot holds ``(values, kind)``, the run's ranking. ``error`` is None or ``(type name,
    message, stage, is_value_or_type_error, argument)``, the stage being "fit" (fitting,
    or calling a function) or "read" (turning the fitted selector into a selection: its
    set-up), ``argument`` the one an InvalidParameterError names (else None); the run
    then has no selection. ``score_error`` is None or ``(type name,
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
        fitted = fit_selector(model, Xtr, ytr)
        stage = "read"
        mask, imp = read_selection(
            selector, fitted, n_features, threshold=threshold, top_k=top_k, output=output
        )
    except Exception as exc:  # noqa: BLE001 - every failure is reported, not dropped
        # an InvalidParameterError is recorded as the builtin class of its rule
        return (
            None,
            None,
            np.nan,
            (
                getattr(exc, "kind", type(exc)).__name__,
                str(exc),
                stage,
                isinstance(exc, (ValueError, TypeError)),
                getattr(exc, "argument", None),
            ),
            None,
        )
    imp = imp if keep_importances or output == "ranking" else None
    try:
        if downstream is not None and seed is not None:
            downstream = seeded(downstream, seed)
        score = score_run(selector, fitted, mask, X, y, Xtr, ytr, test, scorer, downstream)
    except Exception as exc:  # noqa: BLE001 - the selection stands; the score is NaN
        return mask, imp, np.nan, None, (getattr(exc, "kind", type(exc)).__name__, str(exc))
    return mask, imp, score, None, None


def checked_data(X, y):
    """X (array-like, sparse matrix or DataFrame, kept as given when it has a shape) and
    y (one value per row), checked: n_samples >= 2, n_features >= 1."""
    if isinstance(X, (str, bytes)) or X is None or isinstance(X, Mapping):
        fail(
            f"X: must be a 2-D data matrix (array-like, sparse matrix or "
            f"DataFrame); got {type(X).__name__}",
            TypeError,
        )
    if getattr(X, "shape", None) is None:
        try:
            X = np.asarray(X)
        except (TypeError, ValueError) as exc:
            fail(f"X: could not be read as a 2-D data matrix: {exc}", TypeError)
    names = tuple(X.columns) if hasattr(X, "columns") else None
    shape = tuple(X.shape)
    if len(shape) != 2:
        fail(f"X: must be 2-dimensional (samples x features); got shape {shape}")
    n, d = int(shape[0]), int(shape[1])
    if n < 2 or d < 1:
        fail(
            f"X: needs at least 2 samples (rows) and 1 feature (column) to "
            f"resample; got shape {shape}"
        )
    if y is not None:
        if not hasattr(y, "iloc"):
            try:
                y = np.asarray(y)
            except (ValueError, TypeError):
                fail(
                    f"y: must be a sequence with one value per row of X; got " f"{shown(y)}",
                    TypeError,
                )
        if np.ndim(y) == 0:
            fail(
                f"y: must be a sequence with one value per row of X; got " f"{type(y).__name__}",
                TypeError,
            )
        if len(y) != n:
            fail(f"y: must have one value per row of X ({n}); got {len(y)}")
    return X, y, n, d, names


def _at_most_one(*, top_k, threshold, function=None):
    if top_k is not None and threshold is not None:
        fail(
            f"top_k, threshold: give at most one of them; got top_k={top_k!r} and "
            f"threshold={threshold!r}",
            function=function,
        )


#: The most runs of one call (``n_runs``, ``max_runs``): a million fits is far beyond any
#: useful precision (the interval's half-width shrinks as 1/sqrt(M): at M = 10**4 it is
#: already about 1% of the standard deviation), and a larger number is almost surely a
#: mistake that would run for days.
MAX_RUNS = 10**6

#: Runs drawn and sent to the execution layer at once (the first run always alone,
#: before any other is drawn).
BATCH = 1000


#: The declared rules of the arguments that :func:`resample` and
#: :func:`propstab.assess` share (the data, the selector, the scheme and what depends on
#: them, ``fraction``, ``stratify``, ``scoring``, ``downstream``, are checked with the data)
RUN_RULES = {
    "n_runs": [Interval(Integral, 2, MAX_RUNS), None],
    "random_state": RandomState(),
    "n_jobs": N_JOBS,
    "backend": BACKEND,
    "keep_importances": Boolean(),
    "top_k": [Interval(Integral, 0, None), None],
    "threshold": [Interval(Real), None],
    "output": Options(*OUTPUTS),
    "progress": Boolean(none=True),
    ("top_k", "threshold"): Joint(
        _at_most_one,
        "at most one of top_k and threshold",
        invalid=({"top_k": 1, "threshold": 0.5},),
    ),
    "checkpoint": CHECKPOINT,
}


@validate_params(RUN_RULES)
def resample(
    selector,
    X,
    y=None,
    *,
    n_runs=None,
    scheme="bootstrap",
    fraction=None,
    stratify=None,
    random_state=None,
    n_jobs=None,
    backend=None,
    progress=None,
    keep_importances=False,
    top_k=None,
    threshold=None,
    scoring=None,
    output="selection",
    downstream=None,
    checkpoint=None,
) -> ResamplingResult:
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
        M, the number of resamples (even for ``"complementary_pairs"``), at most
        10**6; default 100,
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
        ``scheme(n_samples, n_runs, rng)`` returns exactly n_runs items, each
        the training indices or a ``(train, test)`` pair: a list (checked whole
        before the first run) or a generator, read as the runs need them (each
        item checked as it is drawn; one that ends early or yields more than
        n_runs items is refused when that is seen), so that a generator draws
        nothing before the first run. A scikit-learn splitter object (anything with
        ``split(X, y)`` and ``get_n_splits``: ``ShuffleSplit``,
        ``StratifiedShuffleSplit``, ``RepeatedStratifiedKFold``, ...): each of its
        splits is one run, at most 10**6, read from ``split(X, y)`` as the runs
        need them. Its splits follow the splitter's own ``random_state``
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
    backend : str or dask.distributed.Client, optional
        Where the runs go: a joblib backend (``"loky"``, ``"threading"``), a
        ``dask.distributed.Client`` (e.g. ``Client("tcp://scheduler:8786")``), or
        ``"dask"``, the current default client. The selector, X and y travel to the
        workers once (scattered on dask), each run's split indices and seed with it;
        the results are identical for every backend and number of workers
        (docs/scaling.md).
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
    checkpoint : str or path, optional
        A directory (created if missing; a file, or a directory that cannot be created
        or written, is refused) where each finished run is written as it finishes,
        atomically, with a manifest of the call's arguments (the selector's
        parameters, hashes of X and y, the scheme, the seed, propstab's version); each
        run's file holds its resample and seed's digest. Called again with the same
        arguments and directory (after an interruption, a killed worker or process),
        the finished runs are read and only the others run: the result is exactly that
        of an uninterrupted call. Reading runs no code (NumPy arrays read with
        ``allow_pickle=False`` and a JSON header; nothing is unpickled); a run's file
        that cannot be used (unreadable, truncated, of another call or run) is run
        again with a :class:`~propstab.CheckpointWarning` naming it. Needs a fixed
        ``random_state``.

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
        ``checkpoint`` when its directory holds the runs of another call (the message
        says which argument differs) or ``random_state`` is None; naming
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
    CheckpointWarning
        A run's file in ``checkpoint`` could not be used; the run was run again.
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
    random_state = check_random_state("random_state", random_state, function="resample")
    plan = planned(
        selector,
        X,
        y,
        n_runs=n_runs,
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
        output=output,
        downstream=downstream,
        checkpoint=checkpoint,
    )
    with progress_counter(
        progress=progress, total=len(plan.splits), desc="resample", minimum=20
    ) as bar:
        outputs = execute(plan, 0, len(plan.splits), bar)
    return collect_plan(plan, outputs)


def planned(
    selector,
    X,
    y,
    *,
    n_runs,
    scheme,
    fraction,
    stratify,
    random_state,
    n_jobs,
    backend,
    keep_importances,
    top_k,
    threshold,
    scoring,
    output,
    downstream,
    checkpoint=None,
    name=None,
):
    """The arguments of :func:`resample` checked, and every run's split and seed drawn;
    with ``checkpoint`` (a directory) the :class:`~propstab._utils.execution.Checkpoint` of
    the call opened (``name``: the selector's name in a mapping)."""
    X, y, n, d, names = checked_data(X, y)
    splitter = is_splitter(scheme)
    if n_runs is None and not splitter:
        n_runs = 100
    if not splitter and not callable(scheme) and not is_one_of(scheme, SCHEMES):
        fail(
            f"scheme: must be one of {', '.join(map(repr, SCHEMES))}, a "
            f"callable or a scikit-learn splitter (split(X, y), get_n_splits); "
            f"got {shown(scheme)}"
        )
    if not splitter and scheme == "complementary_pairs" and n_runs % 2:
        fail(f"n_runs: must be even for scheme='complementary_pairs'; got {n_runs}")
    scheme_name = (
        f"a {type(scheme).__name__} splitter"
        if splitter
        else "a callable"
        if callable(scheme)
        else scheme
    )
    given_fraction = fraction is not None
    fraction = check_fraction(fraction, scheme_name)
    if top_k is not None:
        top_k = check_int_range("top_k", top_k, minimum=0, maximum=d)  # d: from X
    check_checkpoint_seed(checkpoint, random_state, "resamples")
    if not is_estimator(selector) and not callable(selector):
        fail(
            f"selector: must be an estimator with fit() or a function (X, y) -> "
            f"indices; got {type(selector).__name__}",
            TypeError,
        )
    scorer = scorer_of(scoring)
    downstream = check_downstream(downstream)
    check_task(selector, downstream, y)
    downstream, scored_by, unscored_reason = scoring_plan(selector, y, downstream)
    if splitter and stratify is not None and stratify is not False:
        fail(
            f"stratify: not with a splitter object as scheme (it resamples by "
            f"itself: use a stratified splitter such as StratifiedShuffleSplit); "
            f"got stratify={shown(stratify)}"
        )
    strata = strata_of(stratify, y, n)
    if fraction is not None:
        check_rows_left(scheme, fraction, given_fraction, groups_of(strata, n), n)
    root = seed_sequence(random_state)
    # every scheme's splits drawn as the runs need them, in batches (a sized result of a
    # callable scheme, already in memory, checked whole)
    if splitter:
        splits = DrawnSplits(*reversed(splitter_splits(scheme, X, y, n, n_runs, MAX_RUNS)))
    elif callable(scheme):
        splits = scheme_splits(scheme, n, n_runs, np.random.default_rng(root))
        if not isinstance(splits, list):
            splits = DrawnSplits(splits, n_runs)
    else:
        splits = DrawnSplits(
            iter_splits(scheme, n, n_runs, fraction, strata, np.random.default_rng(root)), n_runs
        )
    seeds = RunSeeds(root, len(splits))
    if checkpoint is not None:
        checkpoint = Checkpoint(
            checkpoint,
            _fingerprint(
                name=name,
                selector=selector,
                X=X,
                y=y,
                n_runs=len(splits),
                root=root,
                scheme=scheme_name,
                fraction=fraction,
                stratify=stratify,
                top_k=top_k,
                threshold=threshold,
                keep_importances=keep_importances,
                scoring=scoring,
                output=output,
                downstream=downstream,
            ),
        )
    return Plan(
        selector=selector,
        X=X,
        y=y,
        names=names,
        d=d,
        splits=splits,
        scorer=scorer,
        threshold=threshold,
        top_k=top_k,
        keep_importances=keep_importances,
        output=output,
        downstream=downstream,
        n_jobs=n_jobs,
        backend=backend,
        scored_by=scored_by,
        unscored_reason=unscored_reason,
        seeds=seeds,
        checkpoint=checkpoint,
        estimand=estimand_of(scheme_name, fraction, n),
    )


class DrawnSplits:
    """Every run's (train, test), drawn from one stream in run order as the runs need
    them: a named scheme's (:func:`~propstab.resampling._schemes.iter_splits`), a
    splitter's ``split(X, y)`` or a callable scheme's generator
    (:func:`~propstab.resampling._schemes.checked_splits`). The first run starts before
    the others are drawn, and a call that stops early draws no more. Indexed as a list
    (an int or a slice from 0)."""

    def __init__(self, draws, n_runs: int):
        self._draws, self._drawn, self.n_runs = draws, [], int(n_runs)

    def __len__(self) -> int:
        return self.n_runs

    def _draw(self, stop: int) -> None:
        while len(self._drawn) < min(stop, self.n_runs):
            self._drawn.append(next(self._draws))

    def __getitem__(self, i):
        if isinstance(i, slice):
            runs = range(*i.indices(self.n_runs))
            self._draw(max(runs, default=-1) + 1)
            return [self._drawn[j] for j in runs]
        if not -self.n_runs <= i < self.n_runs:
            raise IndexError(i)
        i = i % self.n_runs
        self._draw(i + 1)
        return self._drawn[i]


class RunSeeds:
    """Every run's seed (:func:`propstab.selectors.run_seeds`: run i's depends on i
    alone), computed as the runs need them."""

    def __init__(self, root, n_runs: int):
        self.root, self.n_runs = root, int(n_runs)

    def __len__(self) -> int:
        return self.n_runs

    def __getitem__(self, i: int) -> int:
        return int(run_seeds(self.root, i, i + 1)[0])


def _fingerprint(
    *,
    name,
    selector,
    X,
    y,
    n_runs,
    root,
    scheme,
    fraction,
    stratify,
    top_k,
    threshold,
    keep_importances,
    scoring,
    output,
    downstream,
) -> dict:
    """What the runs of a call depend on, as text (a checkpoint's manifest); each run's
    own resample and seed are in its task file (:meth:`Plan.tag`)."""
    return {
        "selector": described(selector),
        "selector name": repr(name),
        "X": data_hash(X),
        "y": data_hash(y),
        "n_runs": n_runs,
        "scheme": scheme,
        "fraction": repr(fraction),
        "stratify": data_hash(stratify),
        "random_state": f"SeedSequence(entropy={root.entropy}, "
        f"spawn_key={tuple(root.spawn_key)})",
        "top_k": repr(top_k),
        "threshold": repr(threshold),
        "keep_importances": repr(keep_importances),
        "scoring": described(scoring),
        "output": output,
        "downstream": described(downstream),
    }


@dataclasses.dataclass(frozen=True)
class Plan:
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
    seeds: Any = ()
    checkpoint: Any = None
    estimand: Optional[str] = None

    def task(self, i: int):
        """Every argument of run i's :func:`run_one`."""
        return (*self.shared(), *self.own(i))

    def shared(self) -> tuple:
        """The arguments common to every run (sent to the workers once)."""
        return self.selector, self.X, self.y

    def own(self, i: int) -> tuple:
        """Run i's own arguments (its split and seed travel with it)."""
        train, test = self.splits[i]
        return (
            train,
            test,
            self.d,
            self.scorer,
            self.threshold,
            self.top_k,
            self.keep_importances,
            self.output,
            self.downstream,
            self.seeds[i],
        )

    def tag(self, i: int) -> str:
        """Run i's own arguments (its resample and seed) as a digest: its task file is
        used only for this run."""
        train, test = self.splits[i]
        return task_digest(np.asarray(train), np.asarray(test), self.seeds[i])


def execute(plan: Plan, start: int, stop: int, bar) -> list:
    """The outputs of runs ``start``..``stop - 1`` through the execution layer
    (:func:`propstab._utils.execution.run_tasks`: serial, joblib or dask; read from and written
    to the plan's checkpoint). Run 0 goes first, alone and here: when it fails for a
    reason every run would meet, resample stops there (:func:`_first_failed`)."""
    outputs = []
    tags = (
        (lambda runs: None)
        if plan.checkpoint is None
        else (lambda runs: [plan.tag(i) for i in runs])
    )
    if start == 0:
        first = run_tasks(
            run_one,
            [plan.own(0)],
            shared=plan.shared(),
            bar=bar,
            keys=[0],
            checkpoint=plan.checkpoint,
            tags=tags([0]),
        )[0]
        if first[3] is not None:
            _first_failed(plan, first[3], len(plan.splits))
        outputs.append(first)
        start = 1
    for begin in range(start, stop, BATCH):  # the splits drawn a batch at a time
        runs = range(begin, min(stop, begin + BATCH))
        outputs.extend(
            run_tasks(
                run_one,
                [plan.own(i) for i in runs],
                shared=plan.shared(),
                n_jobs=plan.n_jobs,
                backend=plan.backend,
                bar=bar,
                keys=runs,
                checkpoint=plan.checkpoint,
                tags=tags(runs),
            )
        )
    return outputs


def _first_failed(plan: Plan, error, n_runs: int) -> None:
    """Stop after the first run when its failure is the selector's set-up, met by every
    run: an estimator's selection could not be read (a ValueError or TypeError of the
    adapters: no rule for feature_importances_, a pipeline that cannot be mapped back),
    or the fit fails on the full data too. Otherwise (a resample missing a class, say)
    the run is one failed run among others."""
    type_name, message, stage, value_or_type, argument = error
    skipped = f"(on the first run; the other {n_runs - 1} runs were not attempted)"
    if stage == "read" and value_or_type and is_estimator(plan.selector):
        kind = TypeError if type_name == "TypeError" else ValueError
        if argument is not None:  # a rule of propstab's, naming its argument
            fail(f"{message} {skipped}", kind, argument=argument)
        fail(f"selector: {message} {skipped}", kind)  # another library's error
    if stage != "fit":
        return
    try:
        fit_selector(plan.selector, plan.X, plan.y)
    except Exception:  # noqa: BLE001 - the same failure on the full data
        fail(
            f"selector: the first run failed and so does a fit on the full data "
            f"{skipped}: {type_name}: {message}"
        )


def collect_plan(plan: Plan, outputs) -> ResamplingResult:
    """The result of the first ``len(outputs)`` runs of ``plan``."""
    m = len(outputs)
    result = _collect(
        outputs, plan.splits[:m], plan.names, plan.selector, plan.keep_importances, m, plan.output
    )
    scored = plan.scored_by is not None
    return dataclasses.replace(
        result,
        scores=result.scores if scored else None,
        scored_by=plan.scored_by if scored else None,
        unscored_reason=plan.unscored_reason,
        estimand=plan.estimand,
    )


def estimand_of(scheme, fraction, n) -> str:
    """What a stability estimate from these runs estimates, in words: the stability of
    the procedure under this resampling scheme on these n rows, given the data set (not
    the stability across independent data sets of the population).

    >>> estimand_of("subsample", 0.5, 150)
    'stability under subsampling (fraction 0.5) of these 150 rows, given the data'
    """
    what = {
        "bootstrap": "bootstrap resampling",
        "subsample": f"subsampling (fraction {fraction:g})" if fraction else "subsampling",
        "complementary_pairs": "complementary pairs of halves",
        "leave_out": f"leave-out resampling (fraction {fraction:g})"
        if fraction
        else "leave-out resampling",
    }.get(scheme, f"resampling by {scheme}")
    return f"stability under {what} of these {n} rows, given the data"


def _rankings_of(outputs, ok, names):
    """The successful runs' rankings (``(values, kind)`` per run) as Rankings, and the
    scores as importances (None for ranks)."""
    from .._data.convert_rankings import as_rankings

    kinds = {outputs[i][1][1] for i in ok}
    values = np.vstack([outputs[i][1][0] for i in ok])
    if len(kinds) > 1:
        raise RuntimeError(
            f"resample: the runs ranked the features in different ways "
            f"({', '.join(sorted(kinds))}); a selector must give either ranks "
            f"or scores"
        )
    kind = kinds.pop()
    rankings = as_rankings(values, kind=kind, feature_names=names)
    return rankings, (values if kind == "scores" else None)


def _collect(outputs, splits, names, selector, keep_importances, n_runs, output="selection"):
    failures = tuple(
        RunFailure(i, out[3][0], out[3][1], out[3][2])
        for i, out in enumerate(outputs)
        if out[3] is not None
    )
    score_failures = tuple(
        RunFailure(i, out[4][0], out[4][1], "score")
        for i, out in enumerate(outputs)
        if out[4] is not None
    )
    ok = np.array([i for i, out in enumerate(outputs) if out[3] is None], dtype=np.intp)
    if ok.size < 2:
        first = failures[0] if failures else None
        detail = (
            f"; first failure (run {first.run}): {first.error_type}: {first.message}"
            if first
            else ""
        )
        fail(
            f"selector: {len(failures)} of {n_runs} runs failed and fewer than "
            f"2 succeeded{detail}"
        )
    if failures:
        warn(
            f"resample: {len(failures)} of {n_runs} runs failed (at the {failures[0].stage} "
            f"stage) and are excluded from Z (see .failures); first: "
            f"{failures[0].error_type}: {failures[0].message}",
            FailedFitWarning,
        )
    if score_failures:
        first = score_failures[0]
        warn(
            f"resample: scoring failed in {len(score_failures)} of {n_runs} runs; their "
            f"selections are kept in Z and their scores are NaN (see .score_failures); "
            f"first (run {first.run}): {first.error_type}: {first.message}",
            ScoringFailedWarning,
        )
    Z = np.vstack([outputs[i][0] for i in ok])
    scores = np.array([outputs[i][2] for i in ok], dtype=np.float64)
    importances = rankings = None
    if output == "ranking":
        rankings, importances = _rankings_of(outputs, ok, names)
    elif keep_importances and all(outputs[i][1] is not None for i in ok):
        importances = np.vstack([outputs[i][1] for i in ok])
    return ResamplingResult(
        selection=as_selection(Z, feature_names=names),
        scores=scores,
        runs=ok,
        train_indices=tuple(splits[i][0] for i in ok),
        test_indices=tuple(splits[i][1] for i in ok),
        importances=importances,
        failures=failures,
        n_runs=n_runs,
        rankings=rankings,
        score_failures=score_failures,
    )
