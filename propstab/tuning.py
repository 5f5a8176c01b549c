"""Tuning for stability: a scikit-learn search that weighs accuracy and stability.

:class:`StabilityGridSearch` runs every candidate of a parameter grid on the *same* M
resamples of the data (one ``SeedSequence`` drawn from ``random_state``: the
comparison is paired), through :func:`propstab.assess`, and records per candidate the
stability of its selections with a confidence interval and its mean out-of-sample
score with a standard error. A rule then picks the candidate: the most stable one
whose score is within one standard error of the best (``"1se"``), the knee of the
Pareto front of (score, stability) (``"pareto"``), or a function of the results frame.
The chosen candidate is refitted on all the data and selects the features, so the
search is itself a scikit-learn selector (``get_support``, ``transform``, a step of a
``Pipeline``).
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

import numpy as np

from ._utils.checks import check_n_jobs, fail, seed_sequence, shown
from ._utils.exceptions import InvalidParameterError, UndefinedMeasureWarning, warn
from ._utils.checkpoint import CHECKPOINT, check_checkpoint_seed
from ._utils.fixes import estimator_tags, validate_data
from ._utils.params import (
    Boolean,
    Callable,
    Checked,
    Integral,
    Interval,
    Options,
    RandomState,
    Real,
    validate_params,
)
from ._utils.text import Summary, interval, number, summary, table_lines
from ._utils.plot_labels import place_labels
from .resampling._runner import MAX_RUNS
from .selectors import clone, run_seeds, seeded, support_of

__all__ = ["StabilityGridSearch"]

#: the named rules of :class:`StabilityGridSearch`
RULES = ("1se", "pareto")


def _sklearn_base():
    try:
        from sklearn.base import BaseEstimator, MetaEstimatorMixin
        from sklearn.feature_selection import SelectorMixin
    except ImportError:
        raise ImportError(
            "StabilityGridSearch needs scikit-learn; install it with "
            "`pip install propstab[sklearn]`"
        ) from None
    return MetaEstimatorMixin, SelectorMixin, BaseEstimator


try:  # scikit-learn is optional: without it the class exists but fit() says what to install
    _BASES = _sklearn_base()
except ImportError:  # pragma: no cover
    _BASES = (object,)


# ------------------------------------------------------------------ declared rules


def _check_estimator(name, value, function=None):
    if not all(hasattr(value, a) for a in ("fit", "get_params", "set_params")) or isinstance(
        value, type
    ):
        fail(
            f"{name}: must be a scikit-learn estimator (fit, get_params, set_params); got "
            f"{shown(value)}",
            TypeError,
            function=function,
        )
    return value


#: The most candidates of a grid (``param_grid``): each is assessed on every resample, and a
#: grid of millions (a fine logspace crossed with another) would not return.
MAX_CANDIDATES = 10**4


def _check_param_grid(name, value, function=None, estimator=None):
    """A grid scikit-learn's ``ParameterGrid`` reads, naming parameters of ``estimator``."""
    from sklearn.model_selection import ParameterGrid

    rule = (
        "must be a dict of parameter name -> list of values, or a non-empty list of "
        "such dicts (scikit-learn's ParameterGrid)"
    )
    if not isinstance(value, (Mapping, list, tuple)) or isinstance(value, (str, bytes)):
        fail(f"{name}: {rule}; got {shown(value)}", TypeError, function=function)
    try:
        grid = ParameterGrid(value)
        size = len(grid)  # counted without listing the candidates
    except (TypeError, ValueError) as exc:
        fail(
            f"{name}: {rule} ({' '.join(str(exc).split())}); got {shown(value)}",
            type(exc),
            function=function,
        )
    if size > MAX_CANDIDATES:
        fail(
            f"{name}: at most {MAX_CANDIDATES} candidates (each is assessed on every "
            f"resample); got a grid of {size}",
            function=function,
        )
    candidates = list(grid)
    if not candidates:
        fail(f"{name}: {rule}, with at least one candidate; got {shown(value)}", function=function)
    if not hasattr(estimator, "get_params"):  # checked by its own rule
        return value
    known = estimator.get_params(deep=True)
    unknown = sorted({k for c in candidates for k in c if k not in known})
    if unknown:
        fail(
            f"{name}: must name parameters of {type(estimator).__name__} (its "
            f"get_params(deep=True)); got {', '.join(map(repr, unknown))}",
            function=function,
        )
    return value


def _check_jobs(name, value, function=None):
    """joblib's ``n_jobs`` (:func:`propstab._utils.checks.check_n_jobs`), named in ``function``."""
    try:
        return check_n_jobs(name, value)
    except InvalidParameterError as exc:
        fail(str(exc), exc.kind, function=function)


def _arguments(
    estimator,
    param_grid,
    *,
    rule="1se",
    measure="nogueira",
    n_runs=None,
    scheme="bootstrap",
    fraction=None,
    scoring=None,
    downstream=None,
    top_k=None,
    threshold=None,
    confidence_level=0.95,
    random_state=None,
    n_jobs=None,
    backend=None,
    progress=None,
    refit=True,
    checkpoint=None,
    tolerance=None,
):
    """The arguments of :class:`StabilityGridSearch`, checked (returned by name)."""
    if tolerance is not None and rule != "1se":
        fail(
            f"tolerance: replaces the standard error of rule='1se' and applies to it only; "
            f"got tolerance={tolerance!r} with rule={rule!r}",
            function="StabilityGridSearch",
        )
    return dict(
        estimator=estimator,
        param_grid=param_grid,
        rule=rule,
        measure=measure,
        tolerance=tolerance,
        n_runs=n_runs,
        scheme=scheme,
        fraction=fraction,
        scoring=scoring,
        downstream=downstream,
        top_k=top_k,
        threshold=threshold,
        confidence_level=confidence_level,
        random_state=random_state,
        n_jobs=n_jobs,
        backend=backend,
        progress=progress,
        refit=refit,
        checkpoint=checkpoint,
    )


#: The declared rules of :class:`StabilityGridSearch`'s parameters, checked by ``fit``
#: (scikit-learn's convention: ``__init__`` only stores them). The arguments passed on
#: to :func:`propstab.assess` (``measure``, ``scheme``, ``fraction``, ``scoring``,
#: ``downstream``, ``top_k``, ``threshold``, ``backend``) are checked there, by name;
#: ``checkpoint`` here too, before any fit.
CONSTRAINTS = {
    "estimator": Checked(
        _check_estimator, "a scikit-learn estimator", invalid=(None, 5, "lasso", len)
    ),
    "param_grid": Checked(
        _check_param_grid,
        "a parameter grid of the estimator",
        invalid=(None, 5, "C", [], {"no_such_parameter": [1, 2]}, {"alpha": 0.1}),
        reads=("estimator",),
    ),
    "rule": [Options(*RULES), Callable("a function of the results frame")],
    "tolerance": [Interval(Real, 0.0, None, closed="left"), None],
    "n_runs": [Interval(Integral, 2, MAX_RUNS), None],
    "confidence_level": Interval(Real, 0.0, 1.0, closed="neither"),
    "random_state": RandomState(),
    "n_jobs": [Checked(_check_jobs, "a non-zero integer", invalid=(0, 1.5, "2")), None],
    "progress": Boolean(none=True),
    "refit": Boolean(),
    "checkpoint": CHECKPOINT,
}

_checked_arguments = validate_params(CONSTRAINTS, function="StabilityGridSearch")(_arguments)


# ------------------------------------------------------------------ the rules


def _one_standard_error(mean, se, stability, size, tolerance=None) -> int:
    """The most stable candidate whose mean score is at least the best mean score minus
    its standard error (or minus ``tolerance``, an absolute score loss, when given);
    ties: fewer features selected on average, then grid order. An undefined (NaN)
    stability ranks below every defined one."""
    ok = np.isfinite(mean)
    best = int(np.flatnonzero(ok)[np.argmax(mean[ok])])
    if tolerance is not None:
        limit = mean[best] - float(tolerance)
    else:
        limit = mean[best] - (se[best] if np.isfinite(se[best]) else 0.0)
    index = np.flatnonzero(ok & (mean >= limit))
    key = np.where(np.isfinite(stability[index]), stability[index], -np.inf)
    order = np.lexsort((index, size[index], -key))
    return int(index[order[0]])


def _pareto_knee(mean, stability, size) -> int:
    """The knee of the Pareto front of (mean score, stability): both objectives scaled to
    [0, 1] over the front, the member farthest above the line joining the front's most
    accurate and most stable members (maximal scaled score + scaled stability); ties:
    the more stable, then fewer features, then grid order."""
    from .resampling import pareto_front

    ok = np.isfinite(mean) & np.isfinite(stability)
    index = np.flatnonzero(ok)
    on_front = index[pareto_front(mean[index], stability[index])]

    def scaled(v):
        v = v[on_front]
        span = v.max() - v.min()
        return np.zeros_like(v) if span == 0 else (v - v.min()) / span

    height = scaled(mean) + scaled(stability)
    order = np.lexsort((on_front, size[on_front], -stability[on_front], -height))
    return int(on_front[order[0]])


# ------------------------------------------------------------------ the search


class StabilityGridSearch(*_BASES):
    r"""Exhaustive search over a parameter grid for an accurate *and* stable selector.

    Every candidate of ``ParameterGrid(param_grid)`` is run by :func:`propstab.assess`
    on the same ``n_runs`` resamples (paired: one ``SeedSequence`` from
    ``random_state`` draws every resample and every run's seed), which gives per
    candidate the stability of its M selections with a confidence interval and its mean
    out-of-sample score with a standard error. ``rule`` chooses the candidate, which is
    refitted on all the data (``refit=True``); the search then selects that
    candidate's features (``get_support``, ``transform``), as any scikit-learn selector.

    Parameters
    ----------
    estimator : estimator
        A feature selector :func:`propstab.resample` accepts (``get_support()``,
        ``coef_`` or ``feature_importances_`` with ``top_k``/``threshold``; a
        ``Pipeline``). Cloned for every candidate and run; never modified.
    param_grid : dict or list of dicts
        As scikit-learn's ``GridSearchCV``: parameter name (``get_params(deep=True)``,
        ``step__name`` in a pipeline) -> list of values, or a list of such dicts; at most
        10**4 candidates (:data:`MAX_CANDIDATES`).
    rule : {"1se", "pareto"} or callable, default "1se"
        ``"1se"``: the most stable candidate whose mean score is at least the best mean
        score minus that best candidate's standard error; ties to the candidate with
        fewer selected features on average, then to the first in grid order.
        ``"pareto"``: the knee of the Pareto front of (mean score, stability): both
        scaled to [0, 1] over the front, the member farthest from the line joining the
        front's most accurate and most stable members (ties to the more stable, then
        the sparser, then the first). A callable receives ``pandas.DataFrame(
        cv_results_)`` and returns the position (int) of the chosen row, as
        ``GridSearchCV``'s callable ``refit``. The one standard error shrinks as
        :math:`1/\sqrt M` with the number of runs M, so ``"1se"`` accepts a smaller
        loss of score, and picks a less stable candidate, the more runs it is given
        (see Notes); ``tolerance`` fixes the loss instead.
    measure : str or None, default "nogueira"
        The stability measure (:func:`propstab.estimate`); None: that of
        :func:`propstab.assess` (``"nogueira"``, or ``"spearman"`` for rankings).
    n_runs : int, optional
        M, the number of resamples, the same for every candidate: 100 by default, or a
        splitter's number of splits; at most 10**6.
    scheme : str, callable or splitter, default "bootstrap"
        How the rows are resampled (:func:`propstab.resample`).
    fraction : float, optional
        The subsample or left-out fraction (:func:`propstab.resample`).
    scoring : str or callable, optional
        The out-of-sample score (a scikit-learn scorer name or ``scorer(est, X, y)``);
        by default the estimator's own ``score``, or the downstream model's.
    downstream : estimator, None or False, optional
        The model that scores every candidate on the held-out rows
        (:func:`propstab.resample`): give it to compare selectors like for like.
    top_k, threshold : optional
        How importances become a selection (:func:`propstab.resample`).
    confidence_level : float in (0, 1), default 0.95
        The level of the stability intervals in ``cv_results_``.
    random_state : None, int, Generator or SeedSequence
        The one seed of the search: the resamples, every run's estimator seed and the
        refit's seed (the seed run M would have) come from it.
    n_jobs : int, optional
        Parallel runs (:func:`propstab.assess`); the result does not depend on it.
    backend : None, str or dask.distributed.Client, optional
        Where the runs go (:func:`propstab.assess`): a joblib backend's name, ``"dask"``
        or a ``Client`` (docs/scaling.md); the result does not depend on it.
    progress : bool, optional
        A progress bar over the runs (:func:`propstab.assess`).
    refit : bool, default True
        Refit the chosen candidate on all the data (``best_estimator_``); without it
        the search reports but does not select.
    checkpoint : str or path, optional
        A directory where every finished run of every candidate is written as it
        finishes (:func:`propstab.assess`: one subdirectory per candidate, each with a
        manifest of its arguments): fitting again with the same arguments and directory
        after an interruption runs only the missing runs and chooses exactly as the
        uninterrupted search; a directory of another search is refused (ValueError
        naming what differs); a file, or a directory that cannot be created or
        written, is refused. Read as :func:`propstab.resample` reads it: no code is
        run, and a run's file that cannot be used is run again with a
        :class:`~propstab.CheckpointWarning`. Needs a fixed ``random_state``.
    tolerance : float >= 0 or None, default None
        With ``rule="1se"``: the absolute loss of mean score accepted, in the score's
        units (e.g. 0.01 of :math:`R^2`), in place of the best candidate's standard error: the
        most stable candidate whose mean score is at least the best minus
        ``tolerance``. Unlike the standard error it does not depend on the number of
        runs. None: one standard error.

    Attributes
    ----------
    best_index_ : int
        The chosen candidate's position in ``cv_results_["params"]``.
    best_params_ : dict
        Its parameters.
    best_estimator_ : estimator
        Its clone refitted on all the data (``refit=True``).
    best_score_ : float
        Its mean out-of-sample score.
    best_stability_ : float
        Its stability.
    results_ : Comparison
        What :func:`propstab.assess` returned for the candidates (an ``Assessment``
        when the grid has a single candidate): ``print(search.results_)`` shows the
        table with the Pareto front and the paired tests.
    cv_results_ : dict of arrays
        scikit-learn's layout (``pandas.DataFrame(cv_results_)``): ``params``,
        ``param_<name>`` (masked arrays), ``mean_test_score``, ``std_test_score`` (the
        runs' scores' standard deviation), ``rank_test_score``, and
        ``score_standard_error``, ``mean_stability``, ``stability_standard_error``,
        ``stability_ci_low``, ``stability_ci_high``, ``mean_n_selected``,
        ``pareto_optimal``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When X was a DataFrame with string column names.

    Raises
    ------
    propstab.InvalidParameterError
        From :meth:`fit`: an argument breaks its declared rule (the message names it,
        the rule and the value).
    ValueError
        From :meth:`fit`: no candidate has a finite mean score (nothing scored the
        runs); a callable ``rule`` returns no valid row position; ``y`` is None for an
        estimator that requires it; a ``checkpoint`` with ``random_state=None``, or
        holding the runs of another search.

    Warns
    -----
    UndefinedMeasureWarning
        From :meth:`fit`: the stability is undefined for every candidate with a score
        (each selects no feature, or every feature, in every run); the rule falls back
        to the sparsest candidate within one standard error of the best score.

    See Also
    --------
    propstab.assess : The paired comparison each search runs.
    propstab.StabilitySelection : Stability selection, another use of resamples.
    sklearn.model_selection.GridSearchCV : The interface this search follows.

    Notes
    -----
    With :math:`\bar s_c` the mean score of candidate c over the M runs,
    :math:`\mathrm{SE}_c` its standard error (the runs' scores' standard deviation over
    :math:`\sqrt M`) and :math:`\hat\Phi_c` its stability, the one-standard-error rule
    chooses

    .. math:: \arg\max \{\hat\Phi_c : \bar s_c \ge \bar s_{c^*} - \mathrm{SE}_{c^*}\},
              \quad c^* = \arg\max_c \bar s_c,

    the stability analogue of the one-standard-error rule of cross-validation (Hastie,
    Tibshirani and Friedman 2009, sec. 7.10), and the trade-off of Nogueira's thesis
    sec. 6.2.1 (the Pareto-optimal penalty of maximal stability within a tolerance of
    the best likelihood). The standard errors treat the runs as independent, which
    they are not (their training rows overlap), so the tolerance is a convention rather
    than a test.

    The tolerance shrinks as runs are added: :math:`\mathrm{SE}_{c^*}` is the standard
    error of a mean over M runs, :math:`\approx \sigma / \sqrt M` with :math:`\sigma` the
    spread of one run's score, so with 4 times the runs the rule accepts half the loss
    of score. More compute then moves the choice towards the best-scoring candidate
    (at many runs, towards ``GridSearchCV``'s choice), although the candidates
    themselves did not change. The
    one-standard-error rule of cross-validation does not drift this way, because its
    number of folds is fixed. ``tolerance=`` sets the accepted loss in the score's units
    and gives the same choice for any number of runs (up to the noise of the means).

    Because every candidate runs on the same resamples, the differences
    between candidates are free of the resampling noise that independent runs would
    add (``results_.tests`` holds the paired tests).

    References
    ----------
    Hastie, T., Tibshirani, R., Friedman, J. (2009). The Elements of Statistical
    Learning, 2nd ed., Springer, sec. 7.10 (the one-standard-error rule).
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 6.2.1 (stability against likelihood, the choice of
    the penalty).
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD 2019, sec. 4.1 (the Pareto front of accuracy and stability).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import StabilityGridSearch
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 6)); y = X[:, 0] - X[:, 1] + rng.normal(size=80)
    >>> search = StabilityGridSearch(Lasso(), {"alpha": [0.01, 0.1, 0.5]}, n_runs=20,
    ...                              random_state=0).fit(X, y)
    >>> search.best_params_             # the most stable within one SE of the best score
    {'alpha': 0.1}
    >>> search.get_support().tolist()
    [True, True, False, False, False, False]
    >>> np.round(search.cv_results_["mean_stability"], 2).tolist()
    [0.0, 0.32, 1.0]
    >>> np.round(search.cv_results_["mean_test_score"], 2).tolist()
    [0.64, 0.67, 0.52]
    """

    _required_parameters = ["estimator", "param_grid"]

    #: The declared rules ``fit`` checks (read as for a function decorated with
    #: ``validate_params``).
    parameter_constraints = _checked_arguments.parameter_constraints

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        rule="1se",
        measure="nogueira",
        n_runs=None,
        scheme="bootstrap",
        fraction=None,
        scoring=None,
        downstream=None,
        top_k=None,
        threshold=None,
        confidence_level=0.95,
        random_state=None,
        n_jobs=None,
        backend=None,
        progress=None,
        refit=True,
        checkpoint=None,
        tolerance=None,
    ):
        self.estimator = estimator
        self.param_grid = param_grid
        self.rule = rule
        self.tolerance = tolerance
        self.measure = measure
        self.n_runs = n_runs
        self.scheme = scheme
        self.fraction = fraction
        self.scoring = scoring
        self.downstream = downstream
        self.top_k = top_k
        self.threshold = threshold
        self.confidence_level = confidence_level
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.backend = backend
        self.progress = progress
        self.refit = refit
        self.checkpoint = checkpoint

    def _inner_tags(self):
        """The estimator's ``allow_nan`` and ``requires_y`` (the search inherits them)."""
        return estimator_tags(self.estimator)

    def _more_tags(self):
        allow_nan, requires_y = self._inner_tags()
        return {"allow_nan": allow_nan, "requires_y": requires_y}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan, tags.target_tags.required = self._inner_tags()
        return tags

    def _validate(self, X, y):
        """scikit-learn's validation of X and y (``n_features_in_``,
        ``feature_names_in_``); a DataFrame is passed on as given so that the
        candidates see its column names."""
        allow_nan, requires_y = self._inner_tags()
        kwargs = dict(
            accept_sparse=("csr", "csc"),
            dtype="numeric",
            ensure_min_samples=2,
            ensure_all_finite=not allow_nan,
        )
        if y is None and requires_y:
            fail(
                f"y: {type(self.estimator).__name__} requires y to be passed, "
                f"but the target y is None"
            )
        try:
            if y is None:
                checked = validate_data(self, X, **kwargs)
                return (X if hasattr(X, "iloc") else checked), None
            checked, y_checked = validate_data(self, X, y, multi_output=False, **kwargs)
        except (ValueError, TypeError) as exc:  # scikit-learn's checks, named
            fail(f"X, y: {' '.join(str(exc).split())}", exc)
        return (X if hasattr(X, "iloc") else checked), (y if hasattr(y, "iloc") else y_checked)

    def fit(self, X, y=None):
        """Run every candidate on the same resamples, choose one, refit it.

        Parameters
        ----------
        X : array-like, sparse matrix or DataFrame (n_samples, n_features)
        y : array-like (n_samples,), optional

        Returns
        -------
        self
        """
        _sklearn_base()
        args = _checked_arguments(**self.get_params(deep=False))
        from sklearn.model_selection import ParameterGrid
        from .resampling import assess

        check_checkpoint_seed(
            self.checkpoint, args["random_state"], "resamples", function="StabilityGridSearch"
        )
        X, y = self._validate(X, y)
        candidates = list(ParameterGrid(args["param_grid"]))
        labels = _labels(candidates)
        root = seed_sequence(args["random_state"])
        selectors = {
            label: clone(self.estimator).set_params(**params)
            for label, params in zip(labels, candidates)
        }
        options = dict(
            n_runs=args["n_runs"],
            random_state=root,
            scheme=self.scheme,
            fraction=self.fraction,
            scoring=self.scoring,
            downstream=self.downstream,
            top_k=self.top_k,
            threshold=self.threshold,
            measure=self.measure,
            n_jobs=args["n_jobs"],
            backend=self.backend,
            progress=args["progress"],
            checkpoint=self.checkpoint,
        )
        if len(selectors) == 1:
            result = assess(next(iter(selectors.values())), X, y, **options)
            assessments = {labels[0]: result}
            front = (labels[0],)
        else:
            result = assess(selectors, X, y, **options)
            assessments = result.assessments
            front = result.pareto_optimal
        self.results_ = result
        self.cv_results_ = _cv_results(
            candidates, labels, assessments, front, args["confidence_level"]
        )
        self.best_index_ = _choose(args["rule"], self.cv_results_, args["tolerance"])
        self.best_params_ = dict(candidates[self.best_index_])
        self.best_score_ = float(self.cv_results_["mean_test_score"][self.best_index_])
        self.best_stability_ = float(self.cv_results_["mean_stability"][self.best_index_])
        if args["refit"]:
            n_runs = assessments[labels[0]].result.n_runs  # runs attempted
            seed = int(run_seeds(root, n_runs, n_runs + 1)[0])
            best = seeded(clone(self.estimator).set_params(**self.best_params_), seed)
            best.fit(X, y) if y is not None else best.fit(X)
            self.best_estimator_ = best
            self.support_ = support_of(
                best, self.n_features_in_, threshold=self.threshold, top_k=self.top_k
            )[0]
        return self

    def _get_support_mask(self):
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "best_index_")
        if not hasattr(self, "support_"):
            raise AttributeError(
                "StabilityGridSearch: fitted with refit=False, so no "
                "candidate was refitted and nothing is selected; fit with "
                "refit=True"
            )
        return self.support_

    def summary(self) -> Summary:
        """The search in a few lines: the rule, the chosen candidate, and one line per
        candidate (stability with its interval, mean score with its standard error,
        mean number of features selected; ``*`` on the Pareto front, ``<`` chosen).

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before :meth:`fit`.

        See Also
        --------
        propstab.resampling.Comparison : The comparison behind it (``results_``), with
            its own table.

        References
        ----------
        Hastie, T., Tibshirani, R., Friedman, J. (2009). The Elements of Statistical
        Learning, 2nd ed., sec. 7.10 (the one-standard-error rule).

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.linear_model import Lasso
        >>> from propstab import StabilityGridSearch
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(60, 4)); y = X[:, 0] + rng.normal(size=60)
        >>> s = StabilityGridSearch(Lasso(), {"alpha": [0.05, 0.3]}, n_runs=10,
        ...                         measure="conger", random_state=0).fit(X, y)  # sizes vary
        >>> print(s.summary().splitlines()[0])
        Stability grid search
        """
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "best_index_")
        cv = self.cv_results_
        level = self.confidence_level
        heads = [
            "candidate",
            "stability",
            f"{level:.0%} CI",
            "score (SE)",
            "mean size",
            "Pareto",
            "chosen",
        ]
        body = [
            [
                _label(p),
                number(cv["mean_stability"][i], fixed=True),
                interval(cv["stability_ci_low"][i], cv["stability_ci_high"][i]),
                f"{number(cv['mean_test_score'][i], fixed=True)} "
                f"({number(cv['score_standard_error'][i], fixed=True)})",
                number(cv["mean_n_selected"][i], 3),
                "*" if cv["pareto_optimal"][i] else "",
                "<" if i == self.best_index_ else "",
            ]
            for i, p in enumerate(cv["params"])
        ]
        rule = (
            self.rule
            if isinstance(self.rule, str)
            else getattr(self.rule, "__name__", "a callable")
        )
        if rule == "1se":
            rule = (
                "1se: the most stable candidate within one SE of the best mean score "
                "(the SE shrinks as 1/sqrt(runs))"
                if self.tolerance is None
                else f"1se with tolerance={number(self.tolerance)}: the most stable candidate "
                f"within {number(self.tolerance)} of the best mean score"
            )
        fields = [
            ("rule", str(rule)),
            (
                "runs",
                f"{self._n_runs()} paired resamples per candidate " f"({len(body)} candidates)",
            ),
            ("chosen", _label(self.best_params_)),
        ]
        text = summary("Stability grid search", fields)
        return Summary(str(text) + "\n" + "\n".join(table_lines(heads, body)))

    def _n_runs(self) -> int:
        first = (
            self.results_
            if not hasattr(self.results_, "assessments")
            else next(iter(self.results_.assessments.values()))
        )
        return first.result.n_runs

    def plot(self, ax=None):
        """Stability against mean score, one point per candidate, with the stability's
        confidence interval and the score's standard error as bars; the chosen
        candidate is marked, every point labelled with its parameter values, the Pareto
        front joined and the best score minus its standard error (the limit of the
        ``"1se"`` rule) drawn as a dotted line.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Drawn on a new figure when None.

        Returns
        -------
        matplotlib Axes

        Raises
        ------
        TypeError
            ``ax`` is not a matplotlib Axes.
        sklearn.exceptions.NotFittedError
            Before :meth:`fit`.

        See Also
        --------
        propstab.plots.plot_pareto_front : The same plane for any comparison.

        References
        ----------
        Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019).
        On the stability of feature selection in the presence of feature correlations.
        ECML PKDD 2019, sec. 4.1 (accuracy against stability).

        Examples
        --------
        >>> import matplotlib; matplotlib.use("Agg")
        >>> import numpy as np
        >>> from sklearn.linear_model import Lasso
        >>> from propstab import StabilityGridSearch
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(60, 4)); y = X[:, 0] + rng.normal(size=60)
        >>> s = StabilityGridSearch(Lasso(), {"alpha": [0.05, 0.3]}, n_runs=10,
        ...                         measure="conger", random_state=0).fit(X, y)  # sizes vary
        >>> ax = s.plot()
        >>> len(ax.texts)               # one label per candidate
        2
        """
        from sklearn.utils.validation import check_is_fitted
        from ._utils.checks import check_axes

        ax = check_axes("ax", ax)
        check_is_fitted(self, "best_index_")
        if ax is None:
            try:
                import matplotlib.pyplot as plt
            except ImportError:
                raise ImportError(
                    "plots need matplotlib; install it with " "`pip install propstab[plot]`"
                ) from None
            _, ax = plt.subplots(figsize=(7, 4.5))
        cv = self.cv_results_
        x = np.asarray(cv["mean_test_score"], dtype=float)
        s = np.asarray(cv["mean_stability"], dtype=float)
        xerr = np.nan_to_num(np.asarray(cv["score_standard_error"], dtype=float))
        yerr = np.vstack([s - cv["stability_ci_low"], cv["stability_ci_high"] - s])
        yerr = np.nan_to_num(np.clip(yerr, 0, None))
        ax.errorbar(
            x,
            s,
            xerr=xerr,
            yerr=yerr,
            fmt="o",
            color="0.3",
            ecolor="0.6",
            capsize=3,
            label="candidates (95% CI, score SE)"
            if self.confidence_level == 0.95
            else "candidates",
        )
        front = np.asarray(cv["pareto_optimal"], dtype=bool)
        if front.any():
            order = np.argsort(x[front], kind="stable")
            ax.plot(x[front][order], s[front][order], "-", color="C0", lw=1, label="Pareto front")
        b = self.best_index_
        rule = self.rule if isinstance(self.rule, str) else "callable"
        if np.isfinite(x).any():
            top = int(np.nanargmax(x))
            ax.axvline(x[top] - xerr[top], color="0.5", ls=":", lw=1, label="best score - 1 SE")
        ax.plot([x[b]], [s[b]], marker="*", ms=16, color="C3", ls="none", label=f"chosen ({rule})")
        drawn = np.isfinite(x) & np.isfinite(s)
        low, high = s - yerr[0], s + yerr[1]
        place_labels(  # off the error bars, the front's line and each other
            ax,
            x[drawn],
            s[drawn],
            [_label(p) for p, ok in zip(cv["params"], drawn) if ok],
            np.column_stack([x[drawn], s[drawn]]),
            [((a - e, b), (a + e, b)) for a, b, e in zip(x, s, xerr) if e > 0]
            + [((a, lo), (a, hi)) for a, lo, hi in zip(x, low, high)]
            + [
                (
                    (x[front][order][k], s[front][order][k]),
                    (x[front][order][k + 1], s[front][order][k + 1]),
                )
                for k in range(int(front.sum()) - 1)
            ],
        )
        ax.set_xlabel("mean out-of-sample score")
        ax.set_ylabel(f"stability ({self.measure})")
        ax.legend(loc="best", fontsize=8)
        return ax


# ------------------------------------------------------------------ results


def _label(params) -> str:
    """``"C=0.1, penalty='l1'"``: a candidate's parameters as text."""
    return ", ".join(f"{k}={v!r}" for k, v in params.items()) or "(defaults)"


def _labels(candidates) -> list:
    """One distinct label per candidate (a repeated one gets ``#i``)."""
    labels, seen = [], set()
    for i, params in enumerate(candidates):
        label = _label(params)
        if label in seen:
            label = f"{label} #{i}"
        seen.add(label)
        labels.append(label)
    return labels


def _cv_results(candidates, labels, assessments, front, level) -> dict:
    """``cv_results_`` in scikit-learn's layout, from the candidates' assessments."""
    from scipy.stats import rankdata
    from .inference import quietly

    n = len(candidates)
    rows = [assessments[label] for label in labels]
    mean = np.array([a.mean_score for a in rows], dtype=float)
    se = np.array([a.result.score_standard_error for a in rows], dtype=float)
    std = np.array(
        [
            np.nanstd(a.result.scores)
            if a.result.scores is not None and np.isfinite(a.result.scores).any()
            else math.nan
            for a in rows
        ]
    )
    ci = np.array([quietly(a.confidence_interval, level) for a in rows], dtype=float)
    cv = {"params": [dict(c) for c in candidates]}
    for name in sorted({k for c in candidates for k in c}):
        column = np.ma.MaskedArray(np.empty(n, dtype=object), mask=True)
        for i, c in enumerate(candidates):
            if name in c:
                column[i] = c[name]
        cv[f"param_{name}"] = column
    cv["mean_test_score"] = mean
    cv["std_test_score"] = std
    if np.isnan(mean).all():
        rank = np.ones(n, dtype=np.int32)
    else:
        rank = rankdata(-np.nan_to_num(mean, nan=np.nanmin(mean) - 1), method="min").astype(
            np.int32
        )
    cv["rank_test_score"] = rank
    cv["score_standard_error"] = se
    cv["mean_stability"] = np.array([a.stability for a in rows], dtype=float)
    cv["stability_standard_error"] = np.array(
        [a.estimate.standard_error for a in rows], dtype=float
    )
    cv["stability_ci_low"] = ci[:, 0]
    cv["stability_ci_high"] = ci[:, 1]
    cv["mean_n_selected"] = np.array([float(np.mean(a.result.selection.row_sizes)) for a in rows])
    cv["pareto_optimal"] = np.array([label in front for label in labels])
    return cv


def _choose(rule, cv, tolerance=None) -> int:
    """The chosen candidate's position under ``rule`` (``tolerance``: the absolute score
    loss the ``"1se"`` rule accepts instead of one standard error)."""
    mean = cv["mean_test_score"]
    stability = cv["mean_stability"]
    if callable(rule):
        import pandas as pd

        chosen = rule(pd.DataFrame(cv))
        n = len(mean)
        if (
            isinstance(chosen, (bool, np.bool_))
            or not isinstance(chosen, numbers.Integral)
            or not 0 <= int(chosen) < n
        ):
            fail(
                f"rule: a callable rule must return the position of a row of "
                f"the results frame, an integer in [0, {n - 1}]; got "
                f"{shown(chosen)}"
            )
        return int(chosen)
    if not np.isfinite(mean).any():
        fail(
            "StabilityGridSearch: no candidate has a finite mean score (see "
            "results_); give scoring= or downstream= so that the runs are "
            "scored",
            argument="scoring, downstream",
        )
    if not (np.isfinite(mean) & np.isfinite(stability)).any():
        warn(
            f"StabilityGridSearch: the stability is undefined (NaN) for every candidate "
            f"with a score; rule={rule!r} falls back to the sparsest candidate within one "
            f"standard error of the best score",
            UndefinedMeasureWarning,
        )
        rule = "1se"
    size = cv["mean_n_selected"]
    if rule == "1se":
        return _one_standard_error(mean, cv["score_standard_error"], stability, size, tolerance)
    return _pareto_knee(mean, stability, size)
