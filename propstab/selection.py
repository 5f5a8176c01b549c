"""Stability selection (Meinshausen and Buhlmann 2010) as a scikit-learn transformer.

:class:`StabilitySelection` fits the estimator on subsamples of size floor(n/2)
(independent subsamples, ``sampling="mb"``, or B complementary pairs,
``sampling="ss"``) for every value of a regularisation grid, the same subsamples
reused across the grid; features whose maximal selection probability over the grid
reaches ``cutoff`` form the stable set. Its error bound comes from
:func:`error_control` (:mod:`propstab.error_control`, re-exported here with
:class:`ErrorControl`, so ``propstab.selection.error_control`` keeps working).
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ._exceptions import warn
from collections.abc import Mapping

from ._validation import (_shown, check_int_range, check_n_jobs, check_random_state,
                          check_real, check_real_range)
from .error_control import ErrorControl, error_control, resolve_assumption
from .selectors import _renamed, clone, support_of, take

__all__ = ["ErrorControl", "StabilitySelection", "error_control"]


def _sklearn_base():
    try:
        from sklearn.base import BaseEstimator
        from sklearn.feature_selection import SelectorMixin
    except ImportError:
        raise ImportError("StabilitySelection needs scikit-learn; install it with "
                          "`pip install propstab[sklearn]`") from None
    return BaseEstimator, SelectorMixin


def _subsamples(n: int, n_subsamples: int, sampling: str, rng) -> np.ndarray:
    """Row indices of the subsamples, shape (n_fits, floor(n/2)), each row sorted.

    ``"mb"``: B independent subsamples without replacement; ``"ss"``: B random
    splits into two disjoint halves (complementary pairs), 2B subsamples.
    """
    half = n // 2
    if sampling == "mb":
        rows = [rng.permutation(n)[:half] for _ in range(n_subsamples)]
    else:
        rows = []
        for _ in range(n_subsamples):
            perm = rng.permutation(n)
            rows.extend((perm[:half], perm[half:2 * half]))
    return np.sort(np.asarray(rows, dtype=np.intp), axis=1)


def _fit_path(estimator, param_name, grid, X, y, rows, threshold):
    """Fit the estimator on one subsample for every grid value: selections and importances."""
    from sklearn.exceptions import ConvergenceWarning
    Xs, ys = take(X, rows), take(y, rows)
    d = X.shape[1]
    masks = np.zeros((len(grid), d), dtype=bool)
    imps = np.zeros((len(grid), d), dtype=np.float64)
    for g, value in enumerate(grid):
        est = clone(estimator).set_params(**{param_name: value})
        with warnings.catch_warnings():       # weak penalties on half the data
            warnings.simplefilter("ignore", category=ConvergenceWarning)
            try:
                est.fit(Xs, ys)
            except (ValueError, TypeError) as exc:
                raise _renamed(exc, f"estimator: {type(est).__name__}({param_name}={value!r}) "
                                    f"failed to fit a subsample: {exc}") from None
        try:
            mask, imp = support_of(est, d, threshold=threshold)
        except (ValueError, TypeError) as exc:
            raise _renamed(exc, f"estimator: {str(exc).partition(': ')[2]}") from None
        masks[g] = mask
        if imp is not None:
            imps[g] = imp
    return masks, imps


def _first_q(masks: np.ndarray, imps: np.ndarray, order: np.ndarray, q: int) -> np.ndarray:
    """Restrict one subsample's path to the first q features to enter it.

    Features are ranked by the first grid value (in order of increasing model size)
    at which they are selected, ties by larger importance there, then by index;
    as the fitters of stabs keep the first q variables on the path.
    """
    m = masks[order]                                   # (G, d) in path order
    ever = m.any(axis=0)
    entry = np.where(ever, np.argmax(m, axis=0), len(order))
    entry_imp = imps[order][np.minimum(entry, len(order) - 1), np.arange(m.shape[1])]
    rank = np.lexsort((np.arange(m.shape[1]), -entry_imp, entry))
    keep = np.zeros(m.shape[1], dtype=bool)
    keep[rank[:q]] = True
    keep &= ever
    return masks & keep


try:  # scikit-learn is optional: without it the class exists but fit() says what to install
    _BASES = tuple(reversed(_sklearn_base()))          # (SelectorMixin, BaseEstimator)
except ImportError:  # pragma: no cover
    _BASES = (object,)


class StabilitySelection(*_BASES):
    r"""Stability selection (Meinshausen and Buhlmann 2010) as a scikit-learn selector.

    The estimator is fitted on subsamples of floor(n/2) rows for every value of
    ``param_name`` in ``param_grid``, the same subsamples for the whole grid. The
    selection probability of feature f at grid value lambda is the fraction of
    subsamples whose fit selects f (nonzero ``coef_``, ``get_support()`` or
    importance above ``threshold``); the stable set is

    .. math:: \hat S^{stable} = \{f : \max_{\lambda \in \Lambda} \hat\Pi_f^\lambda
              \ge \pi_{thr}\}

    (``>=`` as in the paper and in stabs). The per-family error rate E(V) is then
    bounded by :func:`error_control` with q the mean size of the union of the
    selections over the grid per subsample.

    Parameters
    ----------
    estimator : estimator
        Fitted with ``coef_``, ``feature_importances_`` or ``get_support()``,
        e.g. ``Lasso`` or ``LogisticRegression(penalty="l1", solver="liblinear")``.
    param_name : str, default "alpha"
        The regularisation parameter the grid runs over.
    param_grid : array-like, optional
        Its values (default: the estimator's own value, a one-point grid).
    n_subsamples : int, default 100
        B as in stabs: the number of subsamples for ``"mb"``, of complementary
        pairs for ``"ss"`` (2B fits per grid value).
    sampling : {"mb", "ss"}, default "mb"
    cutoff : float or None, default 0.6
        pi_thr in (1/2, 1].
    PFER, q : float, optional
        With ``cutoff``, at most one of them: ``PFER`` fixes q by
        :func:`error_control`; ``q`` fixes the number of features kept per
        subsample. With ``cutoff=None`` both: the cutoff is derived. When q is
        fixed, each subsample keeps the first q features entering its path.
    assumption : {"none", "unimodal", "r-concave"}, default "none"
        The bound (see :func:`error_control`); ``"mb"`` allows only ``"none"``.
    threshold : float, optional
        Importance threshold turning ``feature_importances_`` into selections.
    random_state : None, int or numpy Generator
    n_jobs : int, optional
        Subsamples fitted in parallel with joblib.

    Attributes
    ----------
    param_grid_ : ndarray (n_grid,)
    subsamples_ : ndarray (n_fits, floor(n/2))
        The row indices of the subsamples.
    stability_scores_ : ndarray (``n_features_in_``, n_grid)
        Selection probabilities per feature and grid value.
    selection_probabilities_ : ndarray (``n_features_in_``,)
        Their maximum over the grid.
    cutoff_, q_, PFER_ : float
        The cutoff used, the realised q (mean number of features selected per
        subsample over the grid) and the realised PFER bound.
    error_control_ : ErrorControl or None
        The bound's parameters (None when the bound does not apply, with a warning).
    support_ : ndarray of bool
    n_features_in_, feature_names_in_

    References
    ----------
    Meinshausen, N., Buhlmann, P. (2010). Stability selection. JRSS B 72(4), 417-473.
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import StabilitySelection
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 10))
    >>> y = 2 * X[:, 0] - 2 * X[:, 1] + rng.normal(size=200)
    >>> ss = StabilitySelection(Lasso(), param_grid=[0.2, 0.5, 1.0],
    ...                         n_subsamples=20, cutoff=0.8, random_state=0)
    >>> ss.fit(X, y).get_support(indices=True).tolist()
    [0, 1]
    >>> ss.stability_scores_.shape
    (10, 3)
    >>> ss.q_, ss.PFER_                 # E(V) <= 3^2 / ((2 * 0.8 - 1) * 10)
    (3.0, 1.5)
    """

    _required_parameters = ["estimator"]     # scikit-learn's checks build it with SelectFwe()

    def __init__(self, estimator, *, param_name="alpha", param_grid=None, n_subsamples=100,
                 sampling="mb", cutoff=0.6, PFER=None, q=None, assumption="none",
                 threshold=None, random_state=None, n_jobs=None):
        self.estimator = estimator
        self.param_name = param_name
        self.param_grid = param_grid
        self.n_subsamples = n_subsamples
        self.sampling = sampling
        self.cutoff = cutoff
        self.PFER = PFER
        self.q = q
        self.assumption = assumption
        self.threshold = threshold
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _more_tags(self):
        return {"requires_y": True}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _validate(self, X, y):
        try:
            from sklearn.utils.validation import validate_data
        except ImportError:          # scikit-learn < 1.6
            def validate_data(self, X, y, **kwargs):
                return self._validate_data(X, y, y_numeric=False, multi_output=False,
                                           **kwargs)
        try:
            return validate_data(self, X, y, accept_sparse="csr")
        except (ValueError, TypeError) as exc:     # scikit-learn's checks, named
            raise _renamed(exc, f"X, y: {' '.join(str(exc).split())}") from None

    def _check_params(self, n_features):
        B = check_int_range("n_subsamples", self.n_subsamples, minimum=2)
        assumption = resolve_assumption(self.sampling, self.assumption)
        given = {k: v for k, v in (("cutoff", self.cutoff), ("PFER", self.PFER),
                                   ("q", self.q)) if v is not None}
        shown = ", ".join(f"{k}={v!r}" for k, v in given.items()) or "none"
        if "cutoff" in given and len(given) == 3:
            raise ValueError(f"StabilitySelection: give at most two of cutoff, PFER and q; "
                             f"got {shown}")
        if "cutoff" not in given and len(given) != 2:
            raise ValueError(f"StabilitySelection: with cutoff=None give both PFER and q; "
                             f"got {shown}")
        target = None
        if len(given) == 2:
            target = error_control(n_features, cutoff=self.cutoff, q=self.q, PFER=self.PFER,
                                   sampling=self.sampling, assumption=assumption,
                                   n_subsamples=B)
        else:
            check_real_range("cutoff", self.cutoff, low=0.5, high=1.0, low_open=True)
        if self.threshold is not None:
            check_real("threshold", self.threshold)
        check_random_state("random_state", self.random_state)
        check_n_jobs("n_jobs", self.n_jobs)
        return B, assumption, target

    def _grid(self):
        est = self.estimator
        if not (hasattr(est, "fit") and hasattr(est, "get_params") and hasattr(est, "set_params")):
            raise TypeError(f"estimator: must be a scikit-learn estimator (fit, get_params, "
                            f"set_params); got {_shown(est)}")
        if not isinstance(self.param_name, str):
            raise TypeError(f"param_name: must be a parameter name; got {self.param_name!r}")
        params = self.estimator.get_params(deep=True)
        if self.param_name not in params:
            raise ValueError(f"param_name: {type(self.estimator).__name__} has no parameter "
                             f"{self.param_name!r}")
        if self.param_grid is None:
            return np.asarray([params[self.param_name]])
        if isinstance(self.param_grid, (str, bytes, Mapping)):
            raise TypeError(f"param_grid: must be a 1-D sequence of values of "
                            f"{self.param_name!r}; got {_shown(self.param_grid)}")
        grid = np.asarray(self.param_grid)
        if grid.ndim != 1 or grid.size == 0:
            raise ValueError(f"param_grid: must be a non-empty 1-D sequence; got shape "
                             f"{grid.shape}")
        return grid

    def fit(self, X, y):
        """Fit the estimator on every subsample and grid value; find the stable set."""
        _sklearn_base()
        X, y = self._validate(X, y)
        n, d = X.shape
        grid = self._grid()
        if n < 4:
            raise ValueError(f"X: stability selection needs subsamples of floor(n/2) >= 2 "
                             f"rows; got n_samples = {n}")
        B, assumption, target = self._check_params(d)
        rng = np.random.default_rng(self.random_state)
        subsamples = _subsamples(n, B, self.sampling, rng)
        if self.n_jobs is None or self.n_jobs == 1:
            paths = [_fit_path(self.estimator, self.param_name, grid, X, y, rows, self.threshold)
                     for rows in subsamples]
        else:
            import joblib
            paths = joblib.Parallel(n_jobs=self.n_jobs)(
                joblib.delayed(_fit_path)(self.estimator, self.param_name, grid, X, y, rows,
                                          self.threshold) for rows in subsamples)
        masks = np.stack([p[0] for p in paths])         # (n_fits, G, d)
        if target is not None:
            q_max = int(math.floor(target.q))
            order = np.argsort(masks.sum(axis=(0, 2)), kind="stable")
            masks = np.stack([_first_q(m, p[1], order, q_max) for m, p in zip(masks, paths)])
        cutoff = target.cutoff if target is not None else float(self.cutoff)
        self.param_grid_ = grid
        self.subsamples_ = subsamples
        self.stability_scores_ = masks.mean(axis=0).T
        self.selection_probabilities_ = self.stability_scores_.max(axis=1)
        self.q_ = float(masks.any(axis=1).sum(axis=1).mean())
        self.cutoff_ = cutoff
        self.support_ = self.selection_probabilities_ >= cutoff
        self.error_control_ = self._realised_bound(d, B, assumption)
        self.PFER_ = self.error_control_.PFER if self.error_control_ is not None else math.nan
        return self

    def _realised_bound(self, d, B, assumption):
        if self.q_ == 0:
            return ErrorControl(cutoff=self.cutoff_, q=0.0, PFER=0.0, specified_PFER=0.0,
                                n_features=d, n_subsamples=B, sampling=self.sampling,
                                assumption=assumption)
        try:
            return error_control(d, cutoff=self.cutoff_, q=self.q_, sampling=self.sampling,
                                 assumption=assumption, n_subsamples=B)
        except ValueError as exc:
            warn(f"StabilitySelection: the {assumption!r} PFER bound does not apply "
                          f"to the realised q = {self.q_:.3g} and cutoff {self.cutoff_}: {exc}; "
                          f"PFER_ is NaN", RuntimeWarning)
            return None

    def _get_support_mask(self):
        from sklearn.utils.validation import check_is_fitted
        check_is_fitted(self, "support_")
        return self.support_
