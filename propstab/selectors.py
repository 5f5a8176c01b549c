"""Selector adapters: how a user's feature selector becomes a support mask.

propstab accepts two kinds of selectors (:func:`propstab.resample`,
:class:`propstab.StabilitySelection`):

- an *estimator* with ``fit``: a scikit-learn selector (``get_support()`` after
  fitting), or a model with ``coef_`` or ``feature_importances_``, whose
  importances become a selection (nonzero coefficients, the ``top_k`` largest, or
  those above ``threshold``);
- a *function* ``f(X, y)`` returning selected feature indices or a boolean mask.

This module is the public face of that conversion, and says how rows are taken from
``X`` and ``y`` (arrays, sparse matrices, DataFrames and Series) and how estimators are
copied and seeded; the rules for reading a fitted estimator or pipeline (importances,
support, ranking) are exported here. A run is two
stages, ``fit_selector`` (fit a clone, or call the function) and
``read_selection`` (the support mask and what else the run records):
:func:`fit_select` and :func:`fit_rank` are the two stages together, and the resampling
protocol (:func:`propstab.resample`) runs them one after the other, so that a failed fit
is told from a selection that cannot be read. Stability selection
(:mod:`propstab.stability_selection`) reads its fits with :func:`support_of`.
"""
from __future__ import annotations

import copy

import numpy as np

# the rules for reading a fitted estimator; exported here (fits_a_classifier and
# final_estimator for the resampling protocol)
from ._utils.estimators import (  # noqa: F401
    fits_a_classifier,
    final_estimator,
    has_rule,
    importances_of,
    ranking_of,
    support_of,
)
from ._utils.params import (
    N_FEATURES,
    RENAMED_SEED,
    Integral,
    Interval,
    Options,
    Param,
    Real,
    renamed,
    validate_params,
)
from ._utils.checks import (
    as_real_array,
    check_int_range,
    check_n_features,
    check_real,
    fail,
    shown,
)

__all__ = [
    "clone",
    "fit_select",
    "importances_of",
    "is_estimator",
    "mask_from_output",
    "run_seeds",
    "seeded",
    "support_of",
    "take",
]


def take(X, rows):
    """The rows ``rows`` of ``X`` (positional, repeats allowed).

    Parameters
    ----------
    X : array-like, scipy.sparse matrix, DataFrame or Series
    rows : array of int

    Returns
    -------
    The same kind of object as ``X``: pandas objects by ``.iloc`` (their index
    kept), everything else by ``X[rows]``.

    Raises
    ------
    TypeError
        ``X`` is not an array, sparse matrix, DataFrame or Series (or is a ragged
        list); ``rows`` is not a 1-D sequence of integers.
    ValueError
        A position in ``rows`` is outside the rows of ``X``.

    See Also
    --------
    propstab.resample : Draws the rows of each run and takes them with this.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn's ``utils.resample`` and its indexing of
    arrays, sparse matrices and DataFrames (``.iloc`` for pandas).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.selectors import take
    >>> take(np.arange(10).reshape(5, 2), [3, 3, 0]).tolist()
    [[6, 7], [6, 7], [0, 1]]
    """
    if isinstance(X, (list, tuple)):
        try:
            X = np.asarray(X)
        except (ValueError, TypeError):
            fail(
                f"X: must be an array, sparse matrix, DataFrame or Series; got a "
                f"ragged {type(X).__name__}",
                TypeError,
            )
    if (
        X is None
        or isinstance(X, (str, bytes))
        or not hasattr(X, "__getitem__")
        or getattr(X, "ndim", 1) == 0
    ):
        fail(
            f"X: must be an array, sparse matrix, DataFrame or Series; got " f"{type(X).__name__}",
            TypeError,
        )
    try:
        idx = np.asarray(rows)
    except (ValueError, TypeError):
        fail(
            f"rows: must be a 1-D sequence of integer row positions; got "
            f"{type(rows).__name__} {rows!r}",
            TypeError,
        )
    if idx.size == 0 and idx.ndim == 1:
        idx = idx.astype(np.intp)
    if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
        fail(
            f"rows: must be a 1-D sequence of integer row positions; got "
            f"{idx.dtype} array of shape {idx.shape}",
            TypeError,
        )
    n = X.shape[0] if hasattr(X, "shape") and len(X.shape) else len(X)
    if idx.size and (idx.min() < -n or idx.max() >= n):
        fail(
            f"rows: positions must be in 0..{n - 1}; got "
            f"{int(idx.min() if idx.min() < -n else idx.max())}"
        )
    if hasattr(X, "iloc"):
        return X.iloc[idx]
    return X[idx]


def is_estimator(selector) -> bool:
    """True when ``selector`` is an estimator (it has ``fit``), False for a function.

    Parameters
    ----------
    selector : object
        An estimator or a function ``(X, y) -> selection``.

    Returns
    -------
    bool
        Whether ``selector`` has a ``fit`` attribute.

    Raises
    ------
    Exception
        Nothing of its own: only what ``selector``'s attribute lookup raises other
        than AttributeError (``hasattr`` catches that one).

    See Also
    --------
    propstab.selectors.fit_select : Fits an estimator, calls a function.
    propstab.selectors.clone : Copies an estimator before it is fitted.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn developer's guide, "Developing scikit-learn
    estimators" (``fit``, ``get_params``, cloning).

    Examples
    --------
    >>> from sklearn.linear_model import Lasso
    >>> from propstab.selectors import is_estimator
    >>> is_estimator(Lasso()), is_estimator(lambda X, y: [0])
    (True, False)
    """
    return hasattr(selector, "fit")


def clone(estimator):
    """An unfitted copy of ``estimator``: ``sklearn.base.clone``, or a deep copy for
    objects it cannot clone (and when scikit-learn is not installed).

    Parameters
    ----------
    estimator : estimator
        The estimator to copy (never modified).

    Returns
    -------
    estimator
        An unfitted estimator with the same parameters.

    Raises
    ------
    RuntimeError
        From ``sklearn.base.clone``: the estimator's constructor does not set or
        modifies its parameters.
    TypeError
        ``copy.deepcopy`` cannot copy an object that scikit-learn cannot clone.

    See Also
    --------
    propstab.selectors.fit_select : Fits a clone on each run's data.
    propstab.selectors.is_estimator : Tells an estimator from a function.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn developer's guide, "Developing scikit-learn
    estimators" (``fit``, ``get_params``, cloning).

    Examples
    --------
    >>> from sklearn.linear_model import Lasso
    >>> from propstab.selectors import clone
    >>> est = Lasso(alpha=0.3)
    >>> twin = clone(est)
    >>> twin is est, twin.alpha
    (False, 0.3)
    """
    try:
        from sklearn.base import clone as sklearn_clone
    except ImportError:  # pragma: no cover - estimators without scikit-learn
        return copy.deepcopy(estimator)
    try:
        return sklearn_clone(estimator)
    except TypeError:
        return copy.deepcopy(estimator)


def _random_state_keys(params) -> list:
    """The names of the random-state parameters in ``get_params(deep=True)``: every
    ``random_state`` and ``<step>__random_state``, as scikit-learn's ensembles find them."""
    return sorted(k for k in params if k == "random_state" or k.endswith("__random_state"))


@renamed(RENAMED_SEED)
def seeded(estimator, random_state: int):
    """An unfitted clone of ``estimator`` whose unset random states are set to
    ``random_state``.

    Every parameter named ``random_state``, or ending in ``__random_state`` (the steps
    of a pipeline, the estimator inside ``SelectFromModel`` or ``RFE``, found through
    ``get_params(deep=True)``) whose value is None is set to the integer ``seed``, as
    scikit-learn's ensembles seed their members. This is how :func:`propstab.resample`
    and :class:`propstab.StabilitySelection` make a model's own randomness (a random
    forest's bootstrap, the shuffling of ``saga`` or ``liblinear``) reproducible from
    their ``random_state``: each run gets its own seed, drawn up front.

    Parameters
    ----------
    estimator : estimator
        Never modified. An object without ``get_params`` is copied (:func:`clone`)
        unchanged.
    random_state : int in 0..2**32 - 1
        The seed of this fit (``seed=`` is its deprecated name: a DeprecationWarning).

    Returns
    -------
    estimator
        The clone.

    Raises
    ------
    TypeError
        ``estimator`` is not an estimator (a function: its randomness, if any, cannot
        be reached: seed it inside the function), or ``random_state`` is not an integer.
    ValueError
        ``random_state`` is outside 0..2**32 - 1.

    See Also
    --------
    propstab.resample : Seeds every run's estimator with this.
    propstab.selectors.run_seeds : The seeds of the runs.

    Notes
    -----
    Random states set explicitly are left alone: an integer gives every run the same
    model randomness (only the resample differs), and a ``RandomState`` instance is
    copied by cloning, so every run's model starts from the same state of it.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn User Guide, "Controlling randomness", and
    ``sklearn.ensemble._base._set_random_states`` (the seeding of an ensemble's
    members, which this follows).

    Examples
    --------
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sklearn.feature_selection import SelectFromModel
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from propstab.selectors import seeded
    >>> pipe = make_pipeline(SelectFromModel(RandomForestClassifier()),
    ...                      LogisticRegression(random_state=1))
    >>> params = seeded(pipe, 7).get_params()
    >>> params["selectfrommodel__estimator__random_state"], params[
    ...     "logisticregression__random_state"]
    (7, 1)
    >>> pipe.get_params()["selectfrommodel__estimator__random_state"] is None  # untouched
    True
    """
    if not is_estimator(estimator):
        fail(
            f"estimator: must be an estimator with fit() (a function cannot be "
            f"seeded from outside); got {type(estimator).__name__}",
            TypeError,
        )
    seed = check_int_range("random_state", random_state, minimum=0, maximum=2**32 - 1)
    est = clone(estimator)
    if not (hasattr(est, "get_params") and hasattr(est, "set_params")):
        return est
    params = est.get_params(deep=True)
    unset = {k: seed for k in _random_state_keys(params) if params[k] is None}
    if unset:
        est.set_params(**unset)
    return est


def run_seeds(root, start: int, stop: int) -> np.ndarray:
    """The integer seeds of runs ``start``..``stop - 1`` drawn from the ``SeedSequence``
    ``root``: run i's seed is the first 32-bit word of the child with spawn key i (the
    i-th child ``root.spawn`` would give, computed without spawning, so ``root`` is not
    modified). A run's seed depends on i alone, never on how many runs are drawn, in
    which batch or on which worker.

    Parameters
    ----------
    root : numpy.random.SeedSequence
    start, stop : int
        The runs, ``0 <= start <= stop``.

    Returns
    -------
    ndarray of int64, shape (stop - start,)
        Each in 0..2**32 - 1.

    Raises
    ------
    TypeError
        ``root`` is not a SeedSequence; ``start`` or ``stop`` is not an integer.
    ValueError
        ``stop`` is negative, or ``start`` outside 0..``stop``.

    See Also
    --------
    propstab.selectors.seeded : Seeds an estimator with one of them.

    References
    ----------
    NumPy documentation, "Parallel random number generation" (``SeedSequence.spawn``:
    independent streams for parallel work).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.selectors import run_seeds
    >>> root = np.random.SeedSequence(0)
    >>> first = run_seeds(root, 0, 4)
    >>> bool((run_seeds(root, 2, 4) == first[2:]).all())
    True
    >>> child = np.random.SeedSequence(0).spawn(3)[2]
    >>> bool(first[2] == child.generate_state(1)[0])
    True
    """
    if not isinstance(root, np.random.SeedSequence):
        fail(f"root: must be a numpy SeedSequence; got {type(root).__name__}", TypeError)
    stop = check_int_range("stop", stop, minimum=0)
    start = check_int_range("start", start, minimum=0, maximum=stop)
    return np.array(
        [
            np.random.SeedSequence(
                root.entropy, spawn_key=root.spawn_key + (i,), pool_size=root.pool_size
            ).generate_state(1)[0]
            for i in range(start, stop)
        ],
        dtype=np.int64,
    )


def mask_from_output(out, n_features: int) -> np.ndarray:
    """The boolean mask of what a selector function returned.

    Parameters
    ----------
    out : array-like
        Selected feature indices (integers in 0..n_features-1, any order), or a
        boolean mask of length ``n_features``.
    n_features : int

    Returns
    -------
    ndarray of bool, shape (n_features,)

    Raises
    ------
    TypeError
        Neither integer indices nor a boolean mask.
    ValueError
        A mask of the wrong length, or an index outside 0..n_features-1.

    See Also
    --------
    propstab.selectors.fit_select : Calls a function and reads its output with this.
    propstab.selectors.mask_from_scores : The mask of a function's scores.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 2.2.3 (a feature set as a row of the binary
    matrix Z).

    Examples
    --------
    >>> from propstab.selectors import mask_from_output
    >>> mask_from_output([3, 0], 4).tolist()
    [True, False, False, True]
    >>> mask_from_output([], 2).tolist()
    [False, False]
    >>> mask_from_output([4], 4)
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: selector: returned the feature index 4, outside 0..3
    """
    n_features = check_n_features(n_features)
    try:
        arr = np.asarray(out)
    except (ValueError, TypeError):
        fail(
            f"selector: a function must return feature indices or a boolean mask; "
            f"got {type(out).__name__} {out!r}",
            TypeError,
        )
    if arr.dtype == bool:
        if arr.shape != (n_features,):
            fail(
                f"selector: a boolean mask must have {n_features} entries; got "
                f"shape {arr.shape}"
            )
        return arr
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        fail(
            f"selector: a function must return feature indices or a boolean "
            f"mask; got {arr.dtype} array of shape {arr.shape}",
            TypeError,
        )
    mask = np.zeros(n_features, dtype=bool)
    if arr.size:
        outside = (arr < 0) | (arr >= n_features)
        if outside.any():
            fail(
                f"selector: returned the feature index {arr[outside][0]}, outside "
                f"0..{n_features - 1}"
            )
        mask[arr] = True
    return mask


def fit_select(selector, X, y, *, n_features: int, threshold=None, top_k=None):
    """Run a selector on ``(X, y)``: its support mask, importances and fitted estimator.

    Parameters
    ----------
    selector : estimator or callable
        An estimator is cloned (:func:`clone`; the argument is never modified),
        fitted on ``(X, y)`` (on ``X`` alone when ``y`` is None) and read by
        :func:`support_of`; a function is called as ``selector(X, y)`` and its
        output read by :func:`mask_from_output`.
    X, y : the training data (``y`` may be None)
    n_features : int
        d, the number of columns of ``X``.
    threshold, top_k : optional
        As for :func:`support_of` (estimators only).

    Returns
    -------
    mask : ndarray of bool, shape (n_features,)
    importances : ndarray or None
        None for a function.
    fitted : estimator or None
        The fitted clone (for scoring), None for a function.

    Raises
    ------
    TypeError
        ``selector`` is neither an estimator nor callable; or what
        :func:`support_of` and :func:`mask_from_output` raise, naming ``selector``.
    ValueError
        The estimator's ``fit`` fails with ValueError (renamed to name ``selector``),
        or what :func:`support_of` and :func:`mask_from_output` raise.

    See Also
    --------
    propstab.selectors.fit_rank : The same for ``output="ranking"``.
    propstab.resample : Runs its two stages (``fit_selector``, ``read_selection``) once per
        run.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn User Guide, sec. 1.13 Feature selection
    (``get_support``, ``SelectFromModel``'s importances ``coef_`` and
    ``feature_importances_``, ``RFE``'s ``ranking_``, ``SelectKBest``'s ``scores_``).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab.selectors import fit_select
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3)); y = 3 * X[:, 2] + 0.1 * rng.normal(size=50)
    >>> fit_select(Lasso(alpha=0.5), X, y, n_features=3)[0].tolist()
    [False, False, True]
    >>> fit_select(lambda X, y: [0, 2], X, y, n_features=3)[0].tolist()
    [True, False, True]
    """
    if not is_estimator(selector) and not callable(selector):
        fail(
            f"selector: must be an estimator with fit() or a function (X, y) -> "
            f"indices; got {type(selector).__name__} {selector!r}",
            TypeError,
        )
    fitted = fit_selector(selector, X, y)
    mask, imp = read_selection(selector, fitted, n_features, threshold=threshold, top_k=top_k)
    return mask, imp, fitted if is_estimator(selector) else None


# ------------------------------------------------------------------ rankings (output="ranking")

__all__ += ["fit_rank", "mask_from_scores", "ranking_of"]


def mask_from_scores(
    scores,
    n_features: int,
    *,
    threshold=None,
    top_k=None,
    argument: str = "scores",
    context: str = "",
) -> np.ndarray:
    """The selection a function's scores stand for: the ``top_k`` largest (ties broken by
    feature index), the scores above ``threshold``, or else the nonzero scores.

    Parameters
    ----------
    scores : array-like of length ``n_features``
        Finite numbers or NaN (no score: never selected).
    n_features : int
    threshold, top_k : optional
    argument : str, default "scores"
        The caller's name for the scores, which the messages start with
        (``"selector"`` for what a selector function returned).
    context : str, default ""
        What the scores are to the caller, said after ``argument`` in the messages.

    Returns
    -------
    ndarray of bool, shape (n_features,)

    Raises
    ------
    TypeError, ValueError
        Not a numeric vector of ``n_features`` entries, or infinite scores.

    See Also
    --------
    propstab.selectors.mask_from_output : The mask of a function's selection.
    propstab.selectors.fit_rank : Reads a function's scores with this.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn User Guide, sec. 1.13 Feature selection
    (``SelectKBest`` keeps the k highest scores, ``SelectFromModel`` those above a
    threshold).

    Examples
    --------
    >>> from propstab.selectors import mask_from_scores
    >>> mask_from_scores([0.5, 0.0, 2.0, 0.1], 4).tolist()
    [True, False, True, True]
    >>> mask_from_scores([0.5, 0.0, 2.0, 0.1], 4, top_k=2).tolist()
    [True, False, True, False]
    """
    n_features = check_n_features(n_features)
    head = f"{argument}: {context}: " if context else f"{argument}: "
    s = as_real_array(argument, scores, "scores")
    if s.shape != (n_features,):
        fail(f"{head}must be {n_features} scores (one per feature); got shape {s.shape}")
    if np.isinf(s).any():
        fail(f"{head}must be finite (NaN: no score); got {s[np.isinf(s)][0]!r}")
    if top_k is not None:
        top_k = check_int_range("top_k", top_k, minimum=0, maximum=n_features)
    if threshold is not None:
        threshold = check_real("threshold", threshold)
    ranked = np.where(np.isnan(s), -np.inf, s)
    if top_k is not None:
        mask = np.zeros(n_features, dtype=bool)
        if top_k > 0:
            mask[np.argsort(-ranked, kind="stable")[:top_k]] = True
        return mask
    if threshold is not None:
        return ranked > threshold
    return ~np.isnan(s) & (s != 0)


def fit_rank(selector, X, y, *, n_features: int, threshold=None, top_k=None):
    """Run a selector on ``(X, y)`` for ``output="ranking"``: its support mask, its ranking
    of the features (and how to read it) and the fitted estimator.

    Parameters
    ----------
    selector : estimator or callable
        An estimator (cloned and fitted as by :func:`fit_select`) ranks the features by
        :func:`ranking_of`; a function ``f(X, y)`` returns one score per feature (the
        largest the most important), its selection given by :func:`mask_from_scores`.
    X, y : the training data (``y`` may be None)
    n_features : int
    threshold, top_k : optional
        As for :func:`support_of`; for an estimator with ``feature_importances_`` only
        and neither of them, the selection is the nonzero importances.

    Returns
    -------
    mask : ndarray of bool
    values : ndarray of float64
    kind : {"ranks", "scores"}
    fitted : estimator or None

    Raises
    ------
    TypeError
        An estimator without ``ranking_``, ``scores_``, ``coef_`` or
        ``feature_importances_``.

    See Also
    --------
    propstab.selectors.fit_select : The same for ``output="selection"``.
    propstab.selectors.ranking_of : How an estimator's ranking is read.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn User Guide, sec. 1.13 Feature selection
    (``get_support``, ``SelectFromModel``'s importances ``coef_`` and
    ``feature_importances_``, ``RFE``'s ``ranking_``, ``SelectKBest``'s ``scores_``).
    Kalousis, A., Prados, J., Hilario, M. (2007). Stability of feature selection
    algorithms: a study on high-dimensional spaces. Knowl. Inf. Syst. 12(1), 95-116
    (the stability of rankings and weights).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab.selectors import fit_rank
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3)); y = 3 * X[:, 2] + X[:, 0] + 0.1 * rng.normal(size=50)
    >>> mask, values, kind, _ = fit_rank(Lasso(alpha=0.5), X, y, n_features=3)
    >>> mask.tolist(), kind, int(np.argmax(values))
    ([True, False, True], 'scores', 2)
    """
    n_features = check_n_features(n_features)
    if top_k is not None:
        top_k = check_int_range("top_k", top_k, minimum=0, maximum=n_features)
    if not is_estimator(selector) and not callable(selector):
        fail(
            f"selector: must be an estimator with fit() or a function (X, y) -> "
            f"scores; got {type(selector).__name__} {selector!r}",
            TypeError,
        )
    fitted = fit_selector(selector, X, y)
    mask, (values, kind) = read_selection(
        selector, fitted, n_features, threshold=threshold, top_k=top_k, output="ranking"
    )
    return mask, values, kind, fitted if is_estimator(selector) else None


# ------------------------------------------------------------------ the two stages of a run

OUTPUTS = ("selection", "ranking")


__all__ += ["fit_selector", "read_selection"]


def fit_selector(selector, X, y):
    """The first stage of a run: an estimator's fitted clone, or a function's output.

    Parameters
    ----------
    selector : estimator or callable
        An estimator is cloned (:func:`clone`) and fitted on ``(X, y)`` (on ``X``
        alone when ``y`` is None); a function is called as ``selector(X, y)``.
    X, y : the training data (``y`` may be None)

    Returns
    -------
    The fitted clone, or what the function returned (read by :func:`read_selection`).

    Raises
    ------
    ValueError, TypeError
        The estimator's ``fit`` fails with one of them: reported as
        :class:`~propstab.InvalidParameterError` naming ``selector`` (of the fit's
        class); whatever else the fit or the function raises passes through.

    See Also
    --------
    propstab.selectors.read_selection : The second stage.
    propstab.selectors.fit_select : Both stages at once.
    propstab.resample : Runs both stages on every resample.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn developer's guide, "Developing scikit-learn estimators"
    (``clone`` and ``fit``).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab.selectors import fit_selector
    >>> X = np.eye(4); y = np.arange(4.0)
    >>> type(fit_selector(Lasso(alpha=0.1), X, y)).__name__
    'Lasso'
    >>> fit_selector(lambda X, y: [0, 2], X, y)
    [0, 2]
    """
    if not is_estimator(selector) and not callable(selector):
        fail(
            f"selector: must be an estimator with fit() or a function (X, y) -> selection; "
            f"got {shown(selector)}",
            TypeError,
        )
    if is_estimator(selector):
        est = clone(selector)
        try:
            est.fit(X, y) if y is not None else est.fit(X)
        except (ValueError, TypeError) as exc:
            fail(f"selector: {type(est).__name__}.fit failed: {exc}", exc)
        return est
    return selector(X, y)


@validate_params(
    {
        "n_features": N_FEATURES,
        "threshold": [Interval(Real), None],
        "top_k": [Interval(Integral, 0, Param("n_features")), None],
        "output": Options(*OUTPUTS),
    }
)
def read_selection(
    selector, fitted, n_features: int, *, threshold=None, top_k=None, output="selection"
):
    """The second stage of a run: the support mask of what :func:`fit_selector` returned,
    and what else the run records.

    Errors here are the selector's set-up (a rule missing, a pipeline that cannot be
    mapped back, a function returning something else than a selection), not the
    data's.

    Parameters
    ----------
    selector : estimator or callable
        The selector given to :func:`fit_selector` (it tells how ``fitted`` is read).
    fitted : fitted estimator, or a function's output
        What :func:`fit_selector` returned.
    n_features : int
        d, the number of columns of X.
    threshold, top_k : optional
        As for :func:`support_of`.
    output : {"selection", "ranking"}, default "selection"
        Read a selection, or a ranking as well.

    Returns
    -------
    mask : ndarray of bool, shape (n_features,)
    recorded : ndarray, tuple or None
        With ``output="selection"``: the importances (:func:`support_of`; None for a
        function). With ``output="ranking"``: the pair ``(values, kind)`` of the run's
        ranking (:func:`ranking_of` for an estimator; a function's scores, ``kind``
        ``"scores"``).

    Raises
    ------
    ValueError, TypeError
        What :func:`support_of`, :func:`mask_from_output`, :func:`mask_from_scores`
        raise, naming ``selector``; an estimator that does not rank the features with
        ``output="ranking"``; an unknown ``output``.

    See Also
    --------
    propstab.selectors.fit_selector : The first stage.
    propstab.selectors.fit_rank : Both stages with ``output="ranking"``.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830; scikit-learn User Guide, sec. 1.13 Feature selection (``get_support``,
    ``coef_``, ``feature_importances_``, ``ranking_``).

    Examples
    --------
    >>> from propstab.selectors import read_selection
    >>> f = lambda X, y: [0, 2]
    >>> mask, recorded = read_selection(f, [0, 2], 3)
    >>> mask.tolist(), recorded
    ([True, False, True], None)
    >>> read_selection(f, [0.5, 0.0, 2.0], 3, output="ranking")[0].tolist()
    [True, False, True]
    """
    if output != "ranking":
        if not is_estimator(selector):
            return mask_from_output(fitted, n_features), None
        return support_of(fitted, n_features, threshold=threshold, top_k=top_k)
    if not is_estimator(selector):
        mask = mask_from_scores(
            fitted,
            n_features,
            threshold=threshold,
            top_k=top_k,
            argument="selector",
            context=(
                "with output='ranking' a function must return one " "score per feature; its scores"
            ),
        )
        return mask, (np.asarray(fitted, dtype=np.float64), "scores")
    est = fitted
    values, kind = ranking_of(est)
    if (
        values is not None
        and kind == "scores"
        and threshold is None
        and top_k is None
        and not has_rule(est)
    ):
        mask = mask_from_scores(values, n_features)  # importances without a rule: nonzero
    else:
        mask, _ = support_of(est, n_features, threshold=threshold, top_k=top_k)
    if values is None:
        fail(
            f"selector: {type(est).__name__} has neither ranking_, scores_, coef_ "
            f"nor feature_importances_: it does not rank the features",
            TypeError,
        )
    if values.shape != (n_features,):
        fail(
            f"selector: its ranking of shape {values.shape} does not match "
            f"{n_features} features"
        )
    return mask, (values, kind)
