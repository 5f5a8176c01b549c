"""Stability selection (Meinshausen and Bühlmann 2010) as a scikit-learn transformer.

:class:`StabilitySelection` fits the estimator on subsamples of size floor(n/2)
(independent subsamples, ``sampling="mb"``, or B complementary pairs,
``sampling="ss"``, the default as in stabs) for every value of a regularisation path
(by default data-driven, from the largest useful penalty down), the same subsamples
reused along the path; features whose maximal selection probability over the grid
reaches ``cutoff`` form the stable set. Its error bound comes from
:func:`error_control` (:mod:`propstab.error_control`, re-exported here with
:class:`ErrorControl`). The subsamples are drawn by the resampling schemes of
:func:`propstab.resample`: complementary pairs are the same draws as
``propstab.resample(..., scheme="complementary_pairs")``.

``propstab.selection``, the module's name before, re-exports it: ``propstab.selection.
StabilitySelection`` and ``propstab.selection.error_control`` keep working.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from collections.abc import Mapping

from .._utils.exceptions import UndefinedMeasureWarning, warn
from .._utils.params import (
    N_JOBS,
    Boolean,
    Integral,
    Interval,
    Options,
    RandomState,
    Real,
    validate_arguments,
)
from .._utils.progress import progress_counter
from .._utils.fixes import validate_data
from ._regularisation import default_path, infer_param_name, locate_penalty
from .._utils.text import Summary, interval, number, shorten, summary
from .._utils.checks import check_random_state, check_real_range, fail, seed_sequence, shown
from ._error_control import (
    ASSUMPTIONS,
    BOUND_NAMES,
    SAMPLINGS,
    ErrorControl,
    LargePFERWarning,
    PFERBoundWarning,
    default_n_subsamples,
    error_control,
    resolve_assumption,
)
from ._calibration import (
    SHARP_PI_GRID,
    STABL_THRESHOLDS,
    Calibration,
    choose_by_fdp,
    choose_by_stability_score,
    rounded_sum,
    sharp_pfer,
)
from .._utils.execution import BACKEND, run_tasks
from .._utils.checkpoint import (
    CHECKPOINT,
    Checkpoint,
    check_checkpoint_seed,
    data_hash,
    described,
    task_digest,
)
from ..resampling._schemes import subsamples as draw_subsamples
from ..selectors import clone, run_seeds, seeded, support_of, take

__all__ = [
    "ErrorControl",
    "LargePFERWarning",
    "PFERBoundWarning",
    "StabilitySelection",
    "error_control",
]

CALIBRATIONS = ("pfer", "stability_score", "fdp")
#: The spawn key (below the root's) of the seed of the artificial features of
#: ``calibration="fdp"``; the subsamples' seeds use keys 0..n_fits - 1.
PERMUTATION_KEY = 2**31


def _sklearn_base():
    try:
        from sklearn.base import BaseEstimator
        from sklearn.feature_selection import SelectorMixin
    except ImportError:
        raise ImportError(
            "StabilitySelection needs scikit-learn; install it with "
            "`pip install propstab[sklearn]`"
        ) from None
    return BaseEstimator, SelectorMixin


#: The most subsamples B (``n_subsamples``): each is a path of fits, and every
#: subsample is drawn up front; stabs's defaults are 50 and 100, and the error bounds
#: gain nothing from B beyond a few hundred.
MAX_SUBSAMPLES = 10**4


def _fit_path(estimator, param_name, grid, X, y, threshold, rows, seed=None):
    """Fit the estimator on one subsample for every grid value: selections and importances.
    ``seed`` (the subsample's, drawn up front) fills the estimator's unset random states
    (:func:`propstab.selectors.seeded`), the same for every grid value."""
    from sklearn.exceptions import ConvergenceWarning

    Xs, ys = take(X, rows), take(y, rows)
    d = X.shape[1]
    masks = np.zeros((len(grid), d), dtype=bool)
    imps = np.zeros((len(grid), d), dtype=np.float64)
    for g, value in enumerate(grid):
        est = (clone(estimator) if seed is None else seeded(estimator, seed)).set_params(
            **{param_name: value}
        )
        with warnings.catch_warnings():  # weak penalties on half the data
            warnings.simplefilter("ignore", category=ConvergenceWarning)
            try:
                est.fit(Xs, ys)
            except (ValueError, TypeError) as exc:
                fail(
                    f"estimator: {type(est).__name__}({param_name}={value!r}) failed to fit "
                    f"a subsample: {exc}",
                    exc,
                )
        mask, imp = support_of(est, d, threshold=threshold, argument="estimator")
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
    m = masks[order]  # (G, d) in path order
    ever = m.any(axis=0)
    entry = np.where(ever, np.argmax(m, axis=0), len(order))
    entry_imp = imps[order][np.minimum(entry, len(order) - 1), np.arange(m.shape[1])]
    rank = np.lexsort((np.arange(m.shape[1]), -entry_imp, entry))
    keep = np.zeros(m.shape[1], dtype=bool)
    keep[rank[:q]] = True
    keep &= ever
    return masks & keep


try:  # scikit-learn is optional: without it the class exists but fit() says what to install
    _BASES = tuple(reversed(_sklearn_base()))  # (SelectorMixin, BaseEstimator)
except ImportError:  # pragma: no cover
    _BASES = (object,)


class StabilitySelection(*_BASES):
    r"""Stability selection (Meinshausen and Bühlmann 2010) as a scikit-learn selector.

    The estimator is fitted on subsamples of floor(n/2) rows for every value of its
    regularisation parameter along a path, the same subsamples for the whole path.
    The selection probability of feature f at penalty lambda is the fraction of
    subsamples whose fit selects f (nonzero ``coef_``, ``get_support()`` or
    importance above ``threshold``); the stable set is

    .. math:: \hat S^{stable} = \{f : \max_{\lambda \in \Lambda} \hat\Pi_f^\lambda
              \ge \pi_{thr}\}

    (``>=`` as in the paper and in stabs). The per-family error rate E(V) is bounded
    by :func:`error_control` with q the mean size of the union of the selections over
    the path per subsample. The defaults are those of R's stabs (complementary pairs,
    B = 50, the unimodal bound) with stabs's documented example's cutoff 0.75 and
    PFER 1; docs/stability_selection_stabs.md lists where propstab differs.

    Parameters
    ----------
    estimator : estimator
        Fitted with ``coef_``, ``feature_importances_`` or ``get_support()``,
        e.g. ``Lasso`` or ``LogisticRegression(penalty="l1", solver="liblinear")``.
    param_name : str, optional
        The regularisation parameter the path runs over. Default: inferred,
        ``"alpha"`` for Lasso, LassoLars and ElasticNet, ``"C"`` for
        LogisticRegression and LinearSVC with ``penalty="l1"``,
        ``"<step>__<param>"`` inside a Pipeline or SelectFromModel.
    param_grid : array-like, optional
        Its values. Default: the data-driven path of the inferred parameter, from
        the largest useful penalty (where the first feature enters) down, ``n_alphas``
        values over a ratio ``eps`` (see Notes).
    n_alphas : int, default 25
        The number of values on the default path (scikit-learn's ``n_alphas``).
    eps : float in (0, 1), default 1e-3
        The ratio of the smallest to the largest penalty on the default path
        (scikit-learn's ``eps``).
    n_subsamples : int, optional
        B as in stabs: the number of complementary pairs for ``"ss"`` (2B fits per
        path value), of subsamples for ``"mb"``. Default, as stabs: 50 for ``"ss"``,
        100 for ``"mb"``; at most 10**4 (:data:`MAX_SUBSAMPLES`).
    sampling : {"ss", "mb"}, default "ss"
        Complementary pairs (Shah and Samworth 2013) or independent subsamples
        (Meinshausen and Bühlmann 2010); stabs's default is ``"SS"``.
    cutoff : float or None, default 0.75
        pi_thr in (1/2, 1]: the threshold on the selection probabilities (stabs's
        ``cutoff``; ``threshold`` below is on the importances of one fit).
    PFER : float or None, default 1
        The bound asked for on E(V). With ``cutoff`` it fixes q by
        :func:`error_control`; pass ``PFER=None`` to use ``cutoff`` alone (q is then
        whatever the path yields, and the realised bound is reported).
    q : float, optional
        The number of features kept per subsample; with ``cutoff`` (and
        ``PFER=None``) or with ``PFER`` (and ``cutoff=None``, the cutoff derived).
        When q is fixed, each subsample keeps the first q features entering its path.
    assumption : {"unimodal", "r-concave", "none"}, optional
        The bound (see :func:`error_control`); default ``"unimodal"`` for ``"ss"``
        and ``"none"`` (the only one allowed) for ``"mb"``, as stabs.
    threshold : float, optional
        A threshold on the importances of one fit (``|coef_|`` or
        ``feature_importances_``) turning them into that fit's selection, as the
        ``threshold`` of :func:`propstab.resample`. Not the threshold on the
        selection probabilities: that is ``cutoff``.
    random_state : None, int, numpy Generator, SeedSequence or RandomState
        One ``SeedSequence`` is made from it; the subsamples and one seed per
        subsample are drawn from it up front, so the fit does not depend on
        ``n_jobs``. Each subsample's fits (every path value) use a clone of the
        estimator whose random states left at None are set to the subsample's seed
        (:func:`propstab.selectors.seeded`; explicit ones are left alone).
    n_jobs : int, optional
        Subsamples fitted in parallel with joblib.
    backend : str or dask.distributed.Client, optional
        Where the subsample fits go (each subsample's whole path is one task): a joblib
        backend (``"loky"``, ``"threading"``), a ``dask.distributed.Client`` (e.g.
        ``Client("tcp://scheduler:8786")``) or ``"dask"`` (the current default
        client), as :func:`propstab.resample`. The estimator, X and y travel to the
        workers once; the result does not depend on the backend or worker count.
        scikit-learn's ``clone`` (``GridSearchCV``, ``cross_validate``) cannot copy a
        ``Client``: there pass ``"dask"``, which finds the current client at fit time.
    progress : bool, optional
        A progress bar over the subsamples (``tqdm.auto``), advanced as each subsample's
        fits finish; None: shown only when a person watches (a terminal or a notebook).
    calibration : {"pfer", "stability_score", "fdp"}, default "pfer"
        How the threshold (and the penalty) is chosen. ``"pfer"``: stabs's fixed
        ``cutoff`` with the PFER bound, as above. ``"stability_score"``: sharp's
        (Bodinier et al. 2023): the penalty and pi maximising
        :func:`propstab.stability_score` over the path x ``pi_grid``, the features
        selected at that penalty with proportion ``>= pi``; ``PFER`` is then sharp's
        constraint ``PFER_thr`` on its bound :math:`q^2 / ((2 \pi - 1) p)` (q the rounded mean
        number selected at the penalty; ``PFER=None``, sharp's default, for none), and
        ``cutoff``, ``assumption`` play no part in the choice. ``"fdp"``: Stabl's
        (Hedou et al. 2024): a copy of X with each column permuted (independently,
        seeded from ``random_state``) is appended, every fit sees both, and the
        threshold t on the maximal proportions over the path is the first of
        ``pi_grid`` minimising :func:`propstab.calibration.fdp_plus`; features with
        proportion ``> t`` are selected (``cutoff`` and ``PFER`` are not used); the
        default path then spans Stabl's ratio (``auto_mode_lambda_grid``: alpha from
        alpha_max / 30, C up to 100 C_min) instead of ``eps``, as a path down to
        saturation would give every feature, real or artificial, proportion 1.
        ``q`` is only for ``"pfer"``.
    pi_grid : array-like, optional
        The thresholds searched: pi in (0, 1) for ``"stability_score"`` (default
        sharp's ``seq(0.6, 0.9, by = 0.01)``), t in [0, 1) for ``"fdp"`` (default
        Stabl's ``np.arange(0, 1, 0.01)``). Not used by ``"pfer"``.
    checkpoint : str or path, optional
        A directory where each subsample's path of fits is written as it finishes, with
        a manifest of the arguments (the estimator's parameters, the path, hashes of X
        and y, the subsamples, the seed, propstab's version). Fitting again with the
        same arguments and directory after an interruption fits only the missing
        subsamples, with exactly the uninterrupted result; a directory of another fit
        is refused (ValueError naming what differs). Reading runs no code (NumPy arrays
        read with ``allow_pickle=False``, a JSON header; nothing is unpickled); a
        subsample's file that cannot be used (unreadable, truncated, of another fit or
        subsample) is fitted again with a :class:`~propstab.CheckpointWarning` naming
        it. A file, or a directory that cannot be created or written, is refused. Needs
        a fixed ``random_state``.

    Attributes
    ----------
    param_name_ : str
        The parameter the path ran over (inferred or given).
    param_grid_ : ndarray (n_grid,)
        The path (the default path starts at the largest useful penalty).
    subsamples_ : ndarray (n_fits, floor(n/2))
        The row indices of the subsamples.
    stability_scores_ : ndarray or DataFrame (``n_features_in_``, n_grid)
        Selection probabilities per feature and path value. Fitted on a DataFrame
        (string column names, so that ``feature_names_in_`` is set): a DataFrame,
        rows indexed by the feature names, columns by the path values (named by
        ``param_name_``); otherwise an ndarray.
    selection_probabilities_ : ndarray or Series (``n_features_in_``,)
        Their maximum over the path; a Series indexed by the feature names when
        fitted on a DataFrame.
    cutoff_, q_, PFER_ : float
        The cutoff used, the realised q (mean number of features selected per
        subsample over the path) and the realised PFER bound. With
        ``calibration="stability_score"``: the chosen pi, the mean number selected at
        the chosen penalty, and NaN (no E(V) bound holds for a penalty and pi chosen
        from the data: the bounds assume a fixed threshold; what is enforced is sharp's
        constraint ``PFER`` on its PFER bound, shown by ``summary()``); with
        ``"fdp"``: the chosen t, q over the path, and NaN (FDP+ is an estimate, not a
        bound).
    calibration_ : Calibration
        What the calibration chose and why (:class:`propstab.calibration.Calibration`):
        the penalty, the threshold, the criterion (PFER bound, maximal stability
        score, minimal FDP+) and, for the data-driven calibrations, the stability
        scores over penalty x pi or the FDP+ curve
        (:func:`propstab.plots.plot_calibration` draws them).
    error_control_ : ErrorControl or None
        The bound's parameters (None when the bound does not apply, with a warning).
    artificial_probabilities_ : ndarray (``n_features_in_``,)
        Only with ``calibration="fdp"``: the artificial features' selection
        probabilities, maximum over the path (column j: the permuted copy of j).
    stability_path_ : dict of ndarrays (n_grid,)
        ``"estimate"``, ``"low"``, ``"high"`` (Nogueira's stability of the
        estimator's own selections across the subsamples at each path value, with
        its 95 % interval, :func:`propstab.estimate`) and ``"mean_size"``.
    stable_param_ : float
        The path value chosen by stability (see Notes); NaN when no value selects
        a feature on average with a defined stability.
    support_ : ndarray of bool
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        The DataFrame's column names (scikit-learn's convention; only when fitted
        on a DataFrame with string column names); ``get_feature_names_out()`` gives
        the selected ones.

    Warns
    -----
    LargePFERWarning
        The realised bound allows half or more of the selected features to be
        false selections: ``PFER_ >= n_selected / 2`` (with n_selected >= 1).
    PFERBoundWarning
        The bound does not apply to the realised q and cutoff (``PFER_`` is NaN).

    See Also
    --------
    propstab.selection.error_control : The bound that links cutoff, q and PFER.
    propstab.plots.plot_stability_path : Draws ``stability_scores_`` over the grid.
    propstab.assess : The stability of a selector's selections over resamples.

    Notes
    -----
    **The default path.** For Lasso, LassoLars and ElasticNet,
    :math:`\alpha_{max} = \max_j |x_j^T (y - \bar y)| / (n\,\rho)`, the smallest
    penalty at which the lasso on the whole data selects nothing (``rho`` the
    ``l1_ratio``; ``y`` not centred without intercept), then ``n_alphas`` values
    log-spaced down to ``eps`` alpha_max, the grid of scikit-learn's ``LassoCV``.
    For L1 LogisticRegression and LinearSVC, :math:`C_{min}` of
    :func:`sklearn.svm.l1_min_c` up to :math:`C_{min}/\mathrm{eps}`. In a Pipeline
    the steps before the model are fitted first, and the path is computed on the
    data the model sees.

    **Choosing the penalty by stability.** At each path value the selections of
    the 2B (or B) subsample fits form a selection matrix; ``stability_path_`` holds
    its Nogueira stability with the 95 % interval of :func:`propstab.estimate`.
    ``stable_param_`` is the most stable path value among those selecting at least
    one feature on average (ties: the one selecting more features). It is
    reported, not used: the stable set is always the cutoff rule above.

    References
    ----------
    Meinshausen, N., Bühlmann, P. (2010). Stability selection. JRSS B 72(4), 417-473.
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80.
    Hofner, B., Boccuto, L., Goker, M. (2015). Controlling false discoveries in
    high-dimensional situations: boosting with stability selection. BMC
    Bioinformatics 16:144 (the R package stabs).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import StabilitySelection
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 10))
    >>> y = 2 * X[:, 0] - 2 * X[:, 1] + rng.normal(size=200)
    >>> ss = StabilitySelection(Lasso(), n_subsamples=20, random_state=0).fit(X, y)
    >>> ss.param_name_, len(ss.param_grid_)     # inferred; the default path
    ('alpha', 25)
    >>> ss.get_support(indices=True).tolist()
    [0, 1]
    >>> ss.stability_scores_.shape
    (10, 25)
    >>> ss.cutoff_, ss.q_, ss.PFER_     # q from cutoff 0.75 and PFER 1 (unimodal bound)
    (0.75, 3.0, 0.947)
    """

    _required_parameters = ["estimator"]  # no default estimator for scikit-learn's checks

    #: The declared rules of the parameters, checked at :meth:`fit` (scikit-learn's
    #: convention: ``__init__`` only stores them); the rules that read the data or the
    #: estimator (the bounds of q, the cutoff of a bound, ``param_name``) are checked there.
    parameter_constraints = {
        "n_alphas": Interval(Integral, 1, 10**4),
        "eps": Interval(Real, 0.0, 1.0, closed="neither"),
        "n_subsamples": [Interval(Integral, 2, MAX_SUBSAMPLES), None],
        "sampling": Options(*SAMPLINGS),
        "assumption": [Options(*ASSUMPTIONS), None],
        "cutoff": [Interval(Real, 0.0, 1.0, closed="right"), None],
        "PFER": [Interval(Real, 0.0, None, closed="neither"), None],
        "q": [Interval(Real, 0.0, None, closed="neither"), None],
        "threshold": [Interval(Real), None],
        "random_state": RandomState(),
        "n_jobs": N_JOBS,
        "progress": Boolean(none=True),
        "calibration": Options(*CALIBRATIONS),
        "backend": BACKEND,
        "checkpoint": CHECKPOINT,
    }

    def __init__(
        self,
        estimator,
        *,
        param_name=None,
        param_grid=None,
        n_alphas=25,
        eps=1e-3,
        n_subsamples=None,
        sampling="ss",
        cutoff=0.75,
        PFER=1.0,
        q=None,
        assumption=None,
        threshold=None,
        random_state=None,
        n_jobs=None,
        backend=None,
        progress=None,
        calibration="pfer",
        pi_grid=None,
        checkpoint=None,
    ):
        self.estimator = estimator
        self.param_name = param_name
        self.param_grid = param_grid
        self.n_alphas = n_alphas
        self.eps = eps
        self.n_subsamples = n_subsamples
        self.sampling = sampling
        self.cutoff = cutoff
        self.PFER = PFER
        self.q = q
        self.assumption = assumption
        self.threshold = threshold
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.progress = progress
        self.calibration = calibration
        self.pi_grid = pi_grid
        self.backend = backend
        self.checkpoint = checkpoint

    def _more_tags(self):
        return {"requires_y": True}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _validate(self, X, y):
        try:
            return validate_data(
                self, X, y, accept_sparse="csr", y_numeric=False, multi_output=False
            )
        except (ValueError, TypeError) as exc:  # scikit-learn's checks, named
            fail(f"X, y: {' '.join(str(exc).split())}", exc)

    def _check_calibration(self):
        """The calibration and its grid of thresholds (None for ``"pfer"``)."""
        from ._calibration import check_thresholds

        method = self.calibration  # declared: one of CALIBRATIONS
        if method == "pfer":
            if self.pi_grid is not None:  # not used, but never accepted if invalid
                check_thresholds("pi_grid", self.pi_grid, closed="left")
            return method, None
        if self.q is not None:
            fail(
                f"q: only with calibration='pfer' (the number kept per subsample); got "
                f"q={self.q!r} with calibration={method!r}",
                function="StabilitySelection",
            )
        default = SHARP_PI_GRID if method == "stability_score" else STABL_THRESHOLDS
        grid = (
            default
            if self.pi_grid is None
            else np.atleast_1d(
                check_thresholds(
                    "pi_grid",
                    self.pi_grid,
                    closed="neither" if method == "stability_score" else "left",
                )
            )
        )
        return method, grid

    def _check_params(self, n_features):
        validate_arguments(
            self.parameter_constraints,
            {name: getattr(self, name) for name in self.parameter_constraints},
            function="StabilitySelection",
        )
        assumption = resolve_assumption(
            self.sampling, self.assumption, function="StabilitySelection"
        )
        check_checkpoint_seed(
            self.checkpoint, self.random_state, "subsamples", function="StabilitySelection"
        )
        B = (
            default_n_subsamples(self.sampling)
            if self.n_subsamples is None
            else int(self.n_subsamples)
        )
        if self._check_calibration()[0] != "pfer":
            return B, assumption, None
        given = {
            k: v
            for k, v in (("cutoff", self.cutoff), ("PFER", self.PFER), ("q", self.q))
            if v is not None
        }
        given_text = ", ".join(f"{k}={v!r}" for k, v in given.items()) or "none"
        if "cutoff" in given and len(given) == 3:
            fail(
                f"cutoff, PFER, q: give at most two of them (PFER defaults to 1: pass "
                f"PFER=None to give cutoff and q); got {given_text}",
                function="StabilitySelection",
            )
        if "cutoff" not in given and len(given) != 2:
            fail(
                f"cutoff, PFER, q: with cutoff=None give both PFER and q; got {given_text}",
                function="StabilitySelection",
            )
        target = None
        if len(given) == 2:
            target = error_control(
                n_features,
                cutoff=self.cutoff,
                q=self.q,
                PFER=self.PFER,
                sampling=self.sampling,
                assumption=assumption,
                n_subsamples=B,
            )
        else:
            check_real_range(
                "cutoff",
                self.cutoff,
                low=0.5,
                high=1.0,
                low_open=True,
                function="StabilitySelection",
            )
        return B, assumption, target

    def _path(self, X, y, stabl=False):
        """The parameter name and the path (given, or data-driven; ``stabl``: over
        Stabl's ratio, 1/30 for alpha and 1/100 for C, instead of ``eps``)."""
        est = self.estimator
        if not (hasattr(est, "fit") and hasattr(est, "get_params") and hasattr(est, "set_params")):
            fail(
                f"estimator: must be a scikit-learn estimator (fit, get_params, "
                f"set_params); got {shown(est)}",
                TypeError,
            )
        if self.param_name is not None and not isinstance(self.param_name, str):
            fail(
                f"param_name: must be a parameter name or None; got " f"{shown(self.param_name)}",
                TypeError,
            )
        located = locate_penalty(est)
        name = self.param_name if self.param_name is not None else infer_param_name(est)
        if name not in est.get_params(deep=True):
            fail(f"param_name: {type(est).__name__} has no parameter {name!r}")
        if self.param_grid is None:
            if located is None or located.param_name != name:
                fail(
                    f"param_grid: no data-driven path for param_name={name!r} "
                    f"of {type(est).__name__} (known: the alpha of Lasso, "
                    f"LassoLars, ElasticNet and the C of L1 LogisticRegression, "
                    f"LinearSVC); give param_grid="
                )
            eps = (
                (1 / 100 if name.rpartition("__")[2] == "C" else 1 / 30)
                if stabl
                else float(self.eps)
            )
            return name, default_path(located, X, y, n_alphas=int(self.n_alphas), eps=eps)
        if isinstance(self.param_grid, (str, bytes, Mapping)):
            fail(
                f"param_grid: must be a 1-D sequence of values of {name!r}; got "
                f"{shown(self.param_grid)}",
                TypeError,
            )
        grid = np.asarray(self.param_grid)
        if grid.ndim != 1 or grid.size == 0:
            fail(f"param_grid: must be a non-empty 1-D sequence; got shape " f"{grid.shape}")
        return name, grid

    def fit(self, X, y):
        """Fit the estimator on every subsample and path value; find the stable set.

        Parameters
        ----------
        X : array-like or sparse matrix (n_samples, n_features)
        y : array-like (n_samples,)

        Returns
        -------
        self
        """
        _sklearn_base()
        X, y = self._validate(X, y)
        n, d = X.shape
        if n < 4:
            fail(
                f"X: stability selection needs subsamples of floor(n/2) >= 2 "
                f"rows; got n_samples = {n}"
            )
        B, assumption, target = self._check_params(d)
        method, thresholds = self._check_calibration()
        root = seed_sequence(check_random_state("random_state", self.random_state))
        if method == "fdp":  # Stabl's artificial features: each column permuted
            X = _with_permuted_copy(
                X,
                np.random.default_rng(
                    np.random.SeedSequence(
                        root.entropy,
                        spawn_key=tuple(root.spawn_key) + (PERMUTATION_KEY,),
                        pool_size=root.pool_size,
                    )
                ),
            )
        name, grid = self._path(X, y, stabl=method == "fdp")
        subsamples = draw_subsamples(n, B, self.sampling, np.random.default_rng(root))
        seeds = [int(v) for v in run_seeds(root, 0, len(subsamples))]  # one per subsample
        checkpoint = None
        if self.checkpoint is not None:
            fingerprint = {
                "estimator": described(self.estimator),
                "param_name": name,
                "param_grid": data_hash(np.asarray(grid)),
                "X": data_hash(X),
                "y": data_hash(y),
                "threshold": repr(self.threshold),
                "sampling": self.sampling,
                "n_subsamples": B,
                "random_state": f"SeedSequence(entropy={root.entropy}, "
                f"spawn_key={tuple(root.spawn_key)})",
                "subsamples": data_hash(np.asarray(subsamples)),
            }
            checkpoint = Checkpoint(self.checkpoint, fingerprint, function="StabilitySelection")
        tags = (
            None
            if checkpoint is None
            else [task_digest(rows, seed) for rows, seed in zip(subsamples, seeds)]
        )
        with progress_counter(
            progress=self.progress, total=len(subsamples), desc="StabilitySelection"
        ) as bar:
            paths = run_tasks(
                _fit_path,
                list(zip(subsamples, seeds)),
                shared=(self.estimator, name, grid, X, y, self.threshold),
                n_jobs=self.n_jobs,
                backend=self.backend,
                bar=bar,
                checkpoint=checkpoint,
                tags=tags,
            )
        raw = np.stack([p[0] for p in paths])  # (n_fits, G, d)
        artificial = raw[:, :, d:]  # empty unless calibration="fdp"
        raw = raw[:, :, :d]
        masks = raw
        if target is not None:
            q_max = int(math.floor(target.q))
            order = np.argsort(raw.sum(axis=(0, 2)), kind="stable")
            masks = np.stack([_first_q(m, p[1], order, q_max) for m, p in zip(raw, paths)])
        cutoff = target.cutoff if target is not None else float(self.cutoff)
        self.param_name_ = name
        self.param_grid_ = grid
        self.subsamples_ = subsamples
        scores = masks.mean(axis=0).T  # (d, G)
        probabilities = scores.max(axis=1)
        self.stability_scores_, self.selection_probabilities_ = self._labelled(
            scores, probabilities, name, grid
        )
        self.q_ = float(masks.any(axis=1).sum(axis=1).mean())
        self.cutoff_ = cutoff
        self.support_ = probabilities >= cutoff
        if method == "stability_score":
            cal = choose_by_stability_score(
                raw.mean(axis=0), len(subsamples), thresholds, grid, name, pfer_bound=self.PFER
            )
            g = int(np.flatnonzero(grid == cal.penalty)[0])
            self.cutoff_ = cal.threshold
            self.q_ = float(raw[:, g, :].sum(axis=1).mean())
            self.support_ = (
                raw[:, g, :].mean(axis=0) >= cal.threshold
                if cal.n_selected
                else np.zeros(d, dtype=bool)
            )
        elif method == "fdp":
            cal = choose_by_fdp(
                probabilities, artificial.mean(axis=0).max(axis=0), thresholds, grid, name
            )
            self.cutoff_ = cal.threshold
            self.support_ = probabilities > cal.threshold
            self.artificial_probabilities_ = artificial.mean(axis=0).max(axis=0)
        # only stabs's fixed cutoff has an E(V) bound: Shah and Samworth's and
        # Meinshausen and Buhlmann's bounds assume a threshold fixed before the data, and
        # the stability score chooses the penalty and pi from them (what it enforces is
        # sharp's constraint on its PFER bound, printed as a constraint)
        bounded = method == "pfer"
        self.error_control_ = self._realised_bound(d, B, assumption) if bounded else None
        self.PFER_ = self.error_control_.PFER if self.error_control_ is not None else math.nan
        if method == "pfer":
            cal = Calibration(
                "pfer",
                name,
                math.nan,
                self.cutoff_,
                self.PFER_,
                int(self.support_.sum()),
                np.asarray(grid),
            )
        self.calibration_ = cal
        self.stability_path_ = stability_path(raw)
        self.stable_param_ = _most_stable(grid, self.stability_path_)
        self._warn_large_bound()
        return self

    def _labelled(self, scores, probabilities, name, grid):
        """Feature-indexed results as pandas objects when X had feature names
        (``feature_names_in_``, set by scikit-learn's validation for a DataFrame),
        arrays otherwise."""
        names = getattr(self, "feature_names_in_", None)
        if names is None:
            return scores, probabilities
        import pandas as pd

        index = pd.Index(names, name="feature")
        columns = pd.Index(grid, name=name)
        return (
            pd.DataFrame(scores, index=index, columns=columns),
            pd.Series(probabilities, index=index, name="selection probability"),
        )

    def _realised_bound(self, d, B, assumption):
        if self.q_ == 0:
            return ErrorControl(
                cutoff=self.cutoff_,
                q=0.0,
                PFER=0.0,
                specified_PFER=0.0,
                n_features=d,
                n_subsamples=B,
                sampling=self.sampling,
                assumption=assumption,
            )
        try:
            return error_control(
                d,
                cutoff=self.cutoff_,
                q=self.q_,
                sampling=self.sampling,
                assumption=assumption,
                n_subsamples=B,
            )
        except ValueError as exc:
            warn(
                f"StabilitySelection: the {assumption!r} PFER bound does not apply "
                f"to the realised q = {number(self.q_)} and cutoff {number(self.cutoff_)}: "
                f"{exc}; PFER_ is NaN",
                PFERBoundWarning,
            )
            return None

    def _warn_large_bound(self):
        selected = int(self.support_.sum())
        if selected >= 1 and self.PFER_ >= selected / 2:
            warn(
                f"StabilitySelection: the realised PFER bound {number(self.PFER_)} allows "
                f"half or more of the {selected} selected features to be false selections "
                f"(E(V) <= {number(self.PFER_)} with q = {number(self.q_)}, cutoff "
                f"{number(self.cutoff_)}); ask for a smaller PFER= (q then follows), or "
                f"raise the cutoff",
                LargePFERWarning,
            )

    def _get_support_mask(self):
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "support_")
        return self.support_

    def summary(self) -> Summary:
        """The fitted selection in a few lines: the stable set, the error bound and the
        stability along the path.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before :meth:`fit`.
        """
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "support_")
        names = (
            self.feature_names_in_
            if hasattr(self, "feature_names_in_")
            else [f"x{j}" for j in range(self.n_features_in_)]
        )
        chosen = [str(names[j]) for j in np.flatnonzero(self.support_)]
        ec = self.error_control_
        bound = (
            "not applicable"
            if ec is None
            else f"E(V) <= {number(self.PFER_)} ({BOUND_NAMES[ec.assumption]})"
        )
        method = self.calibration_.method
        if method == "stability_score":
            cal = self.calibration_
            g = (
                int(np.flatnonzero(self.param_grid_ == cal.penalty)[0])
                if not math.isnan(cal.threshold)
                else 0
            )
            q = rounded_sum(np.asarray(self.stability_scores_, dtype=np.float64)[:, g])
            realised = (
                math.nan
                if math.isnan(cal.threshold)
                else float(sharp_pfer(q, cal.threshold, self.n_features_in_))
            )
            guarantee = (
                "PFER constraint",
                (
                    "none enforced"
                    if cal.pfer_bound is None
                    else f"sharp's PFER <= {number(cal.pfer_bound)} enforced over the grid"
                )
                + f" (at the choice: {number(realised)}); no E(V) bound: the "
                f"penalty and pi were chosen from the data",
            )
        elif method == "fdp":
            guarantee = (
                "FDP+",
                f"{number(self.calibration_.criterion)}, an estimate of the "
                f"false discovery proportion, not a bound",
            )
        else:
            guarantee = ("PFER bound", bound)
        grid = self.param_grid_
        n_sub = len(self.subsamples_)
        fits = (
            f"{n_sub} subsamples x {len(grid)} path values = {n_sub * len(grid)} fits"
            if len(grid) > 1
            else f"{n_sub} fits"
        )
        scheme = f"{n_sub // 2} complementary pairs: {fits}" if self.sampling == "ss" else fits
        path = self.stability_path_
        fields = [
            ("estimator", type(self.estimator).__name__),
            (
                "path",
                f"{self.param_name_} from {number(grid[0])} to {number(grid[-1])} "
                f"({len(grid)} values)",
            ),
            ("sampling", scheme),
            *(
                []
                if self.calibration_.method == "pfer"
                else [("calibration", _calibration_line(self.calibration_))]
            ),
            ("cutoff", number(self.cutoff_)),
            ("q", number(self.q_)),
            guarantee,
            (
                "selected",
                f"{len(chosen)} of {self.n_features_in_}: "
                f"{shorten(chosen) if chosen else '(none)'}",
            ),
        ]
        if math.isnan(self.stable_param_):
            fields.append(("most stable", "undefined (no path value selects a feature)"))
        else:
            g = int(np.flatnonzero(grid == self.stable_param_)[0])
            fields.append(
                (
                    "most stable",
                    f"{self.param_name_} = {number(self.stable_param_)}: "
                    f"nogueira {number(path['estimate'][g], fixed=True)} "
                    f"{interval(path['low'][g], path['high'][g])}, "
                    f"mean size {number(path['mean_size'][g])}",
                )
            )
        return summary("Stability selection", fields)


def stability_path(masks: np.ndarray, confidence_level: float = 0.95) -> dict:
    """Nogueira's stability with its interval at each path value.

    ``masks`` is (n_fits, n_grid, d): the selections of every subsample fit at every
    path value. Returns arrays of n_grid ``"estimate"``, ``"low"``, ``"high"`` and
    ``"mean_size"``; NaN where the stability is undefined (no feature, or every
    feature, selected by every fit).
    """
    from ..inference import SmallSampleWarning, estimate

    n_grid = masks.shape[1]
    out = {key: np.full(n_grid, np.nan) for key in ("estimate", "low", "high")}
    out["mean_size"] = masks.sum(axis=2).mean(axis=0).astype(np.float64)
    for g in range(n_grid):
        with warnings.catch_warnings():  # undefined at the ends of the path: NaN
            warnings.simplefilter("ignore", UndefinedMeasureWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            warnings.simplefilter("ignore", SmallSampleWarning)  # a band along the path
            est = estimate(masks[:, g, :], "nogueira")
            ci = est.confidence_interval(confidence_level)
        out["estimate"][g] = est.statistic
        out["low"][g], out["high"][g] = ci[0], ci[1]
    return out


def _most_stable(grid: np.ndarray, path: dict) -> float:
    """The path value of largest stability among those selecting >= 1 feature on
    average; ties go to the larger mean size. NaN when there is none."""
    ok = np.isfinite(path["estimate"]) & (path["mean_size"] >= 1)
    if not ok.any():
        return math.nan
    idx = np.flatnonzero(ok)
    order = np.lexsort((-path["mean_size"][idx], -path["estimate"][idx]))
    return float(grid[idx[order[0]]])


def _with_permuted_copy(X, rng):
    """X with a copy appended whose every column is permuted independently (Stabl's
    ``artificial_type="random_permutation"`` with ``artificial_proportion=1``)."""
    import scipy.sparse as sp

    dense = X.toarray() if sp.issparse(X) else np.asarray(X)
    rows = rng.permuted(np.tile(np.arange(dense.shape[0])[:, None], (1, dense.shape[1])), axis=0)
    fake = np.take_along_axis(dense, rows, axis=0)
    return (
        sp.hstack([X, sp.csr_matrix(fake)], format="csr")
        if sp.issparse(X)
        else np.hstack([dense, fake])
    )


def _calibration_line(cal) -> str:
    """The summary's line of a data-driven calibration (``"pfer"`` has none: its
    cutoff and bound lines say it)."""
    if cal.method == "stability_score":
        if math.isnan(cal.threshold):
            return "stability_score (sharp): no score defined, nothing selected"
        return (
            f"stability_score (sharp): {cal.param_name} = {number(cal.penalty)}, "
            f"pi = {number(cal.threshold)}, score {number(cal.criterion)}"
        )
    return (
        f"fdp (Stabl): t = {number(cal.threshold)}, min FDP+ "
        f"{number(cal.criterion)} (selected: > t)"
    )
