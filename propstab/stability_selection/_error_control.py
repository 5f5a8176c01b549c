"""Error control of stability selection: the per-family error rate (PFER) bounds.

:func:`error_control` is the PFER calculator of Meinshausen and Bühlmann (2010,
Theorem 1) and of Shah and Samworth (2013, with their unimodal and r-concave
bounds): given two of ``cutoff``, ``q`` and ``PFER`` it returns all three and the
realised bound as an :class:`ErrorControl`. Its values are checked against R's
``stabs::stabsel_parameters`` (stabs 0.7.1). The bounds and their inversions are
here; the scikit-learn transformer that uses them is
:class:`propstab.selection.StabilitySelection` (``propstab.selection`` re-exports
both names of this module).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._utils.exceptions import PropstabWarning, warn
from ._rconcave import rconcave_bound, rconcave_cutoff, rconcave_q
from .._utils.results import Result
from .._utils.text import Summary, number, significant, summary
from .._utils.checks import check_choice, check_int_range, check_real_range, fail
from .._utils.params import (
    Checked,
    Integral,
    Interval,
    Joint,
    Options,
    Param,
    Real,
    validate_params,
)

__all__ = [
    "ErrorControl",
    "LargePFERWarning",
    "PFERBoundWarning",
    "PFERExceededWarning",
    "error_control",
]

SAMPLINGS = ("mb", "ss")
#: The largest B (``n_subsamples``): the unimodal cutoff is searched on a grid of B
#: values, and no stability selection needs more subsamples.
MAX_B = 10**6
#: The largest B of the r-concave bound: each of its evaluations scans the extremal
#: path on {0..2B}, O(B^2) work (about 0.3 s for any p up to 10^7 at B = 50, 0.8 s at
#: B = 100; benchmarks/bench_error_control.py).
RCONCAVE_MAX_B = 100


class PFERExceededWarning(PropstabWarning, RuntimeWarning):
    """The realised PFER bound exceeds the PFER asked for: no cutoff up to 1 attains
    it with the given q (stabs returns cutoff 1 too, and warns when verbose).

    See Also
    --------
    propstab.selection.error_control : Warns with it.
    propstab.selection.LargePFERWarning : A fitted stability selection's large bound.

    References
    ----------
    Meinshausen, N., Bühlmann, P. (2010). Stability selection. JRSS B 72(4),
    417-473, Theorem 1 (the error bound without assumptions).
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80, secs 3.2 and 3.3
    (the bounds under unimodality and r-concavity).

    Examples
    --------
    >>> import warnings
    >>> from propstab.selection import error_control
    >>> with warnings.catch_warnings(record=True) as caught:   # q too large for PFER 1
    ...     warnings.simplefilter("always")
    ...     ec = error_control(100, q=40, PFER=1, assumption="none")
    >>> caught[0].category.__name__, ec.cutoff, ec.PFER
    ('PFERExceededWarning', 1.0, 16.0)
    """


class PFERBoundWarning(PropstabWarning, RuntimeWarning):
    """The error bound asked for does not apply to a fitted stability selection's
    realised q and cutoff (for example the unimodal bound needs a cutoff above
    :math:`1/2 + \\min((q/p)^2, 1/(2B) + 3 (q/p)^2 / 4)`); ``PFER_`` is then NaN.

    What to do: a cutoff the bound covers (the message gives its range), more
    subsamples, or ``assumption="none"`` (Meinshausen and Bühlmann's bound, which holds
    for every cutoff above 1/2).

    See Also
    --------
    propstab.StabilitySelection : Warns with it after ``fit``.
    propstab.selection.error_control : The bounds and where each applies.

    References
    ----------
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80, secs 3.2 and 3.3
    (the bounds under unimodality and r-concavity, and their ranges of cutoffs).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import StabilitySelection
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 4)); y = X[:, 0] + rng.normal(size=40)
    >>> ss = StabilitySelection(Lasso(), param_grid=[0.05, 0.3], cutoff=0.6, PFER=None,
    ...                         n_subsamples=2, random_state=0)    # the unimodal default
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     ss = ss.fit(X, y)
    >>> [w.category.__name__ for w in caught], ss.PFER_
    (['PFERBoundWarning'], nan)
    >>> print(caught[0].message)                                  # doctest: +ELLIPSIS
    StabilitySelection: the 'unimodal' PFER bound does not apply to the realised q = 3 and
    cutoff 0.6: cutoff: must be > 1/2 + 1/(4B) = 0.625 ...; PFER_ is NaN
    """


class LargePFERWarning(PropstabWarning, RuntimeWarning):
    """The realised PFER bound of a fitted stability selection is large compared with
    the number of features it selected: ``PFER_ >= n_selected / 2``, so the bound
    allows half or more of the stable set to be false selections.

    See Also
    --------
    propstab.StabilitySelection : Warns with it after ``fit``.
    propstab.selection.error_control : The bound it compares.

    References
    ----------
    Meinshausen, N., Bühlmann, P. (2010). Stability selection. JRSS B 72(4),
    417-473, Theorem 1 (the error bound without assumptions).
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80, secs 3.2 and 3.3
    (the bounds under unimodality and r-concavity).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from sklearn.linear_model import Lasso
    >>> from propstab import StabilitySelection
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6)); y = X[:, 0] + rng.normal(size=40)
    >>> ss = StabilitySelection(Lasso(), q=3, cutoff=0.6, PFER=None, assumption="none",
    ...                         n_subsamples=10, random_state=0)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     ss = ss.fit(X, y)
    >>> caught[0].category.__name__, ss.PFER_, int(ss.support_.sum())
    ('LargePFERWarning', 7.5, 1)
    """


ASSUMPTIONS = ("none", "unimodal", "r-concave")


# ----------------------------------------------------------------------------------
# Meinshausen-Buhlmann and the unimodal bound: closed forms


def _mb_bound(q: float, p: int, cutoff: float) -> float:
    """Meinshausen and Bühlmann (2010, Theorem 1): E(V) <= q^2 / ((2 pi - 1) p).

    At pi = 1/2 the bound is infinite (NaN for q = 0), as the division gives in R.
    """
    excess = 2 * cutoff - 1
    if excess == 0:
        return math.inf if q > 0 else math.nan
    return q * q / p / excess


def _unimodal_min_cutoff(theta: float, B: int) -> float:
    """The smallest cutoff for which Shah and Samworth's unimodal bound holds, q/p = theta."""
    return 0.5 + min(theta * theta, 1 / (2 * B) + 0.75 * (theta * theta))


def _unimodal_denominator(cutoff, B: int):
    """K(pi, B) in the unimodal bound E(V) <= q^2 / (p K(pi, B)) (scalar or array pi).

    Shah and Samworth (2013, sec. 3.2): K = 2 (2 pi - 1 - 1/(2B)) for pi <= 3/4 and
    K = (1 + 1/B) / (4 (1 - pi + 1/(2B))) for 3/4 < pi <= 1.
    """
    cutoff = np.asarray(cutoff, dtype=np.float64)
    low = 2 * (2 * cutoff - 1 - 1 / (2 * B))
    high = (1 + 1 / B) / (4 * (1 - cutoff + 1 / (2 * B)))
    return np.where(cutoff <= 0.75, low, high)


def _unimodal_bound(q: float, p: int, cutoff: float, B: int) -> float:
    """Shah and Samworth's bound for unimodal selection proportions.

    Its branch pi <= 3/4 holds from :func:`_unimodal_min_cutoff` on; the branch
    pi > 3/4 has no condition on q/p.
    """
    if cutoff <= 0.75 and cutoff < _unimodal_min_cutoff(q / p, B):
        fail(
            f"cutoff: {cutoff!r} is out of bounds for the unimodal bound "
            f"(must be >= 1/2 + min((q/p)^2, 1/(2B) + 3/4 (q/p)^2) with "
            f"q/p = {number(q / p, 6)}, B = {B})"
        )
    return q * q / p / float(_unimodal_denominator(cutoff, B))


def _unimodal_cutoff(p: int, q: float, PFER: float, B: int) -> float:
    """The smallest cutoff 1/2 + j/(2B), j = 2..B, whose unimodal bound is below PFER."""
    grid = 0.5 + np.arange(2, B + 1) / (2 * B)
    grid = grid[grid > _unimodal_min_cutoff(q / p, B)]
    if grid.size == 0:
        largest = max(
            math.floor(p * math.sqrt(0.5)), math.floor(p * math.sqrt((0.5 - 1 / (2 * B)) * 4 / 3))
        )
        fail(f"q: must be <= {largest} for the unimodal bound; got {q!r}")
    below = q * q / p / _unimodal_denominator(grid, B) < PFER
    if not below.any():
        fail(
            f"PFER: no cutoff on the grid 1/2 + j/(2B) attains PFER < {PFER!r} "
            f"with q = {q!r} (n_features={p}, B={B}) under the unimodal bound"
        )
    return float(grid[np.argmax(below)])


def _unimodal_q_top(p: int, cutoff: float, B: int) -> int:
    """The largest integer q in [0, p] inside the unimodal bound's domain at ``cutoff``.

    Above 3/4 every q is (p); at or below it q/p = theta must satisfy
    pi >= 1/2 + min(theta^2, 1/(2B) + 3/4 theta^2), i.e. q <= p sqrt(max(pi - 1/2,
    4/3 (pi - 1/2 - 1/(2B)))): the integer below that limit, settled with the
    condition itself (the one :func:`_unimodal_bound` applies), so that a float
    rounding at the limit cannot let a q through that the bound then refuses.
    """
    if cutoff > 0.75:
        return p
    limit = p * math.sqrt(max(cutoff - 0.5, 4 / 3 * (cutoff - 0.5 - 1 / (2 * B))))
    q = min(p, math.floor(limit) + 1)
    while q >= 1 and cutoff < _unimodal_min_cutoff(q / p, B):
        q -= 1
    return q


def _unimodal_q(p: int, cutoff: float, PFER: float, B: int) -> float:
    """The largest integer q whose unimodal bound q^2 / (p K(pi, B)) is <= PFER.

    K does not depend on q, so the bound reaches PFER at q* = sqrt(PFER p K): q is
    floor(q*), or q_top (:func:`_unimodal_q_top`, the largest q in the bound's
    domain at this cutoff) when q* lies beyond it, since the bound increases with q.
    (stabs floors a numerical root of tolerance eps^(1/4) on [1, q_top] instead:
    where q* is an integer its answer is q* or q* - 1, and where q* > q_top it
    stops with an error, although q_top attains the PFER; e.g. p = 5 at its own
    example's cutoff 0.75 and PFER 1: q* = 2.21, q_top = 2, bound 0.816; see
    docs/stability_selection_stabs.md.)
    """
    if cutoff <= 0.75 and cutoff < 0.5 + 1 / (2 * B):
        fail(
            f"cutoff: must be >= 1/2 + 1/(2B) = {number(0.5 + 1 / (2 * B), 10)} "
            f"to derive q under the unimodal bound; got {cutoff!r}"
        )
    q_top = _unimodal_q_top(p, cutoff, B)
    if q_top < 1:
        fail(
            f"cutoff: {cutoff!r} is out of bounds for the unimodal bound "
            f"with n_features={p}, B={B}: no q >= 1 is admissible"
        )
    root = math.sqrt(PFER * p * float(_unimodal_denominator(cutoff, B)))
    if root < 1:
        fail(
            f"PFER: no q >= 1 attains PFER <= {PFER!r} with cutoff = "
            f"{cutoff!r} under the unimodal bound (n_features={p}, "
            f"n_subsamples={B}): the bound at q = 1 is "
            f"{number(1 / p / float(_unimodal_denominator(cutoff, B)), 3)}"
        )
    if root > q_top and cutoff > 0.75:
        # stabs's uniroot fails here too; the branch above 3/4 states no limit on q/p,
        # and q = p (every feature in every subsample) would make any bound below p false
        fail(
            f"PFER: {PFER!r} is above the unimodal bound of every q up to "
            f"n_features={p} at cutoff = {cutoff!r} (q* = {number(root)}, "
            f"n_subsamples={B}); ask for a smaller PFER or give q"
        )
    return float(min(math.floor(root), q_top))


def _bound(p, q, cutoff, B, assumption) -> float:
    """The PFER bound E(V) <= ... for given q and cutoff (before rounding)."""
    if assumption == "none":
        return _mb_bound(q, p, cutoff)
    if assumption == "unimodal":
        return _unimodal_bound(q, p, cutoff, B)
    return rconcave_bound(q, p, cutoff, B)


BOUND_NAMES = {
    "none": "Meinshausen and Buhlmann (2010) bound",
    "unimodal": "Shah and Samworth (2013) unimodal bound",
    "r-concave": "Shah and Samworth (2013) r-concave bound",
}


@dataclasses.dataclass(frozen=True, repr=False)
class ErrorControl(Result):
    """The error-control parameters of stability selection.

    ``repr`` is one line; ``str`` (and ``print``) show :meth:`summary`.

    Parameters
    ----------
    cutoff : float
        The threshold pi_thr.
    q : float
        The number of features selected per subsample.
    PFER : float
        The realised bound.
    specified_PFER : float
        The PFER asked for.
    n_features : int
        p, the number of features.
    n_subsamples : int
        B, the subsamples (complementary pairs for ``sampling="ss"``).
    sampling : str
        ``"ss"`` (complementary pairs) or ``"mb"`` (subsamples).
    assumption : str
        ``"none"``, ``"unimodal"`` or ``"r-concave"``.

    Attributes
    ----------
    cutoff : float
        The selection-probability threshold pi_thr.
    q : float
        The (average) number of features selected per subsample.
    PFER : float
        The realised upper bound on the expected number of false selections,
        rounded to 3 significant digits as by stabs.
    specified_PFER : float
        The PFER that was asked for; when PFER was derived, the unrounded bound.
    n_features, n_subsamples : int
        p and B (for ``sampling="ss"`` B is the number of complementary pairs).
    sampling, assumption : str

    See Also
    --------
    propstab.selection.error_control : Computes it.
    propstab.StabilitySelection : Uses it to choose the stable features.

    References
    ----------
    Meinshausen, N., Bühlmann, P. (2010). Stability selection. JRSS B 72(4),
    417-473, Theorem 1 (the error bound without assumptions).
    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80, secs 3.2 and 3.3
    (the bounds under unimodality and r-concavity).

    Examples
    --------
    >>> from propstab.error_control import error_control
    >>> ec = error_control(100, q=10, PFER=1, sampling="ss", assumption="unimodal")
    >>> ec
    ErrorControl(cutoff=0.76, q=10, PFER=0.98, n_features=100, n_subsamples=50, sampling='ss',
                 assumption='unimodal')
    >>> print(ec)
    Stability selection error control: Shah and Samworth (2013) unimodal bound
    cutoff        0.76 (threshold pi_thr on the selection probabilities)
    q             10 (features selected per subsample, on average)
    PFER bound    0.98 (specified_PFER 1, significance level 0.0098)
    features p    100
    subsamples B  50 complementary pairs (100 subsamples)
    """

    cutoff: float
    q: float
    PFER: float
    specified_PFER: float
    n_features: int
    n_subsamples: int
    sampling: str
    assumption: str

    _repr_fields = ("cutoff", "q", "PFER", "n_features", "n_subsamples", "sampling", "assumption")

    @property
    def significance_level(self) -> float:
        """PFER / p, the per-feature error rate (without multiplicity adjustment)."""
        return significant(self.PFER / self.n_features, 3)

    def summary(self) -> Summary:
        """A few lines: the bound used, cutoff, q, the PFER bound, p and B.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        B = self.n_subsamples
        subsamples = (
            f"{B} complementary pairs ({2 * B} subsamples)"
            if self.sampling == "ss"
            else f"{B} subsamples"
        )
        rows = [
            (
                "cutoff",
                f"{number(self.cutoff)} (threshold pi_thr on the selection " f"probabilities)",
            ),
            ("q", f"{number(self.q)} (features selected per subsample, on average)"),
            (
                "PFER bound",
                f"{number(self.PFER)} (specified_PFER "
                f"{number(self.specified_PFER)}, significance level "
                f"{number(self.significance_level)})",
            ),
            ("features p", str(self.n_features)),
            ("subsamples B", subsamples),
        ]
        return summary(f"Stability selection error control: {BOUND_NAMES[self.assumption]}", rows)


def resolve_assumption(sampling, assumption, *, function=None) -> str:
    """The bound's assumption for a sampling scheme, validated; None gives the default
    (``"none"`` for ``"mb"``, ``"unimodal"`` for ``"ss"``)."""
    check_choice("sampling", sampling, SAMPLINGS, function=function)
    if assumption is None:
        return "none" if sampling == "mb" else "unimodal"
    check_choice("assumption", assumption, ASSUMPTIONS, function=function)
    if sampling == "mb" and assumption != "none":
        fail(
            f"assumption: the Meinshausen-Buhlmann bound (sampling='mb') takes "
            f"no assumption, use assumption='none' with it; got {assumption!r}",
            function=function,
        )
    return assumption


def default_n_subsamples(sampling) -> int:
    """B by default, as stabs (``B = ifelse(sampling.type == "MB", 100, 50)``): 50
    complementary pairs for ``"ss"``, 100 subsamples for ``"mb"``.

    >>> from propstab.error_control import default_n_subsamples
    >>> default_n_subsamples("ss"), default_n_subsamples("mb")
    (50, 100)
    """
    check_choice("sampling", sampling, SAMPLINGS)
    return 50 if sampling == "ss" else 100


def _assumption_rule(name, value, *, sampling, function=None) -> str:
    return resolve_assumption(sampling, value, function=function)


def _n_subsamples_rule(name, value, *, sampling, assumption, function=None) -> int:
    assumption = resolve_assumption(sampling, assumption)
    rconcave = assumption == "r-concave"
    return check_int_range(
        name,
        value,
        minimum=2,
        maximum=RCONCAVE_MAX_B if rconcave else MAX_B,
        owner="the r-concave bound" if rconcave else "",
        function=function,
    )


def _two_of_three(*, cutoff, q, PFER, function=None) -> None:
    given = [name for name, v in (("cutoff", cutoff), ("q", q), ("PFER", PFER)) if v is not None]
    if len(given) != 2:
        fail(
            f"cutoff, q, PFER: exactly two of them must be given; got "
            f"{', '.join(given) if given else 'none'}",
            function=function,
        )


def _pfer_rule(name, value, *, n_features, function=None) -> float:
    return _check_pfer(value, n_features, function=function)


def _cutoff_rule(name, value, *, sampling, assumption, n_subsamples, function=None) -> float:
    B = default_n_subsamples(sampling) if n_subsamples is None else n_subsamples
    return _check_cutoff(value, resolve_assumption(sampling, assumption), B, function=function)


@validate_params(
    {
        "n_features": Interval(Integral, 1, None),
        "sampling": Options(*SAMPLINGS),
        "assumption": [
            Checked(
                _assumption_rule,
                "one of 'none', 'unimodal', 'r-concave' ('none' " "with sampling='mb')",
                invalid=("convex", 5, "Unimodal"),
                like=Options(*ASSUMPTIONS),
                reads=("sampling",),
            ),
            None,
        ],
        "n_subsamples": [
            Checked(
                _n_subsamples_rule,
                "an integer in [2, 10**6] ([2, 100] for the " "r-concave bound)",
                invalid=(1, 0, 10**6 + 1, 2.5, "50", True),
                like=Interval(Integral, 2, MAX_B),
                reads=("sampling", "assumption"),
            ),
            None,
        ],  # None: stabs's
        ("cutoff", "q", "PFER"): Joint(
            _two_of_three,
            "exactly two of cutoff, q and PFER",
            invalid=(
                {"cutoff": None, "q": None, "PFER": None},
                {"cutoff": 0.9, "q": 5, "PFER": 1.0},
            ),
        ),
        "PFER": [
            Checked(
                _pfer_rule,
                "a real number in (0, n_features)",
                invalid=(0.0, -1.0, float("nan"), "1"),
                like=Interval(Real, 0.0, Param("n_features"), closed="neither"),
                reads=("n_features",),
            ),
            None,
        ],
        "cutoff": [
            Checked(
                _cutoff_rule,
                "a real number in (1/2, 1] ((0, 1] for the r-concave " "bound)",
                invalid=(0.0, 1.5, float("nan"), "0.9"),
                like=Interval(Real, 0.0, 1.0, closed="right"),
                reads=("sampling", "assumption", "n_subsamples"),
            ),
            None,
        ],
        "q": [Interval(Real, 0.0, Param("n_features"), closed="right"), None],
    }
)
def error_control(
    n_features,
    *,
    cutoff=None,
    q=None,
    PFER=None,
    sampling="ss",
    assumption=None,
    n_subsamples=None,
) -> ErrorControl:
    r"""The cutoff, q and PFER bound of stability selection, given two of them.

    Parameters
    ----------
    n_features : int
        p, the number of features.
    cutoff : float, optional
        The threshold pi_thr on the selection probabilities, in (1/2, 1]
        (in (0, 1] and above q/p for the r-concave bound).
    q : float, optional
        The expected number of features selected per subsample, 0 < q <= p.
    PFER : float, optional
        The upper bound asked for the per-family error rate E(V), V the number
        of falsely selected (noise or low-probability) features, 0 < PFER < p.
    sampling : {"ss", "mb"}, default "ss"
        ``"mb"``: Meinshausen and Bühlmann's subsampling; ``"ss"``: Shah and
        Samworth's complementary pairs.
    assumption : {"unimodal", "r-concave", "none"}, optional
        The assumption of Shah and Samworth's improved bound; default
        ``"unimodal"`` for ``sampling="ss"`` and ``"none"`` (the only one
        allowed) for ``"mb"``. ``"none"`` with ``"ss"`` gives the MB bound.
    n_subsamples : int, optional
        B as in stabs: the number of complementary pairs for ``"ss"`` (2B
        subsample fits), the number of subsamples for ``"mb"`` (the MB bound
        does not depend on it); at most 10^6, and 100 for the r-concave bound.
        Default, as stabs: 50 for ``"ss"``, 100 for ``"mb"``.

    Returns
    -------
    ErrorControl
        All three parameters and the realised bound ``PFER`` (3 significant digits).

    Raises
    ------
    ValueError, TypeError
        Not exactly two of cutoff, q, PFER; values out of range; a combination
        outside the domain of the chosen bound (see Notes).

    Warns
    -----
    PFERExceededWarning
        No cutoff up to 1 attains the PFER asked for with the given q: the cutoff
        is 1 and ``PFER`` reports the (larger) realised bound.

    See Also
    --------
    propstab.StabilitySelection : Stability selection with these parameters.
    propstab.selection.ErrorControl : The result.

    Notes
    -----
    The bounds (p features, B = ``n_subsamples``, pi = cutoff):

    - no assumption (Meinshausen and Bühlmann 2010, Theorem 1):

      .. math:: E(V) \le \frac{q^2}{(2\pi - 1) p};

      given q and PFER, :math:`\pi = \min(1, (q^2/(\mathrm{PFER}\,p) + 1)/2)`;
      given the cutoff and PFER, :math:`q = \lfloor\sqrt{\mathrm{PFER}(2\pi-1)p}\rfloor`.
    - unimodal (Shah and Samworth 2013, sec. 3.2):
      :math:`E(V) \le q^2 / (p\, K(\pi, B))` with
      :math:`K = 2(2\pi - 1 - 1/(2B))` for :math:`\pi \le 3/4` (valid from
      :math:`\pi \ge 1/2 + \min(q^2/p^2, 1/(2B) + 3q^2/(4p^2))`) and
      :math:`K = (1 + 1/B) / (4(1 - \pi + 1/(2B)))` above; the cutoff is the
      first grid value :math:`1/2 + j/(2B)` whose bound is below PFER, q the
      largest integer with bound <= PFER.
    - r-concave (Shah and Samworth 2013, sec. 3.3, Theorem 3):
      :math:`E(V) \le p \min\{1, D(q^2/p^2, 2B\pi - B, B, -1/2),
      D(q/p, 2B\pi, 2B, -1/4)\}`, D(theta, t, n, r) the largest P(X >= t) over
      r-concave laws on {0..n} with mean theta n, the maximum over the
      one-parameter extremal family, taken to rounding (see
      docs/stability_selection_error_control.md). The cutoff is searched
      downwards on j/(2B), q upwards on 1, 2, ...

    The domain (docs/stability_selection_error_control.md): p >= 1; 2 <= B <= 10^6 (<= 100 for
    the r-concave bound); cutoff in (1/2, 1] ((0, 1] and above q/p for the
    r-concave bound; above 1/2 + 1/(4B) for the unimodal bound below 3/4, where
    its constant K is positive); q in (0, p]; PFER in (0, p). A derived q must be
    >= 1. When no cutoff up to 1 attains the PFER (MB and r-concave), the cutoff
    is 1 and :class:`PFERExceededWarning` says that the realised bound exceeds it.
    The r-concave q and cutoff are found by bisection (the bound is monotone in
    both): :math:`O(\log p)` evaluations of D, each :math:`O(B^2)`, so p up to
    :math:`10^7` takes well under a second at B = 50.

    Checked against ``stabs::stabsel_parameters`` (stabs 0.7.1) on 1128 pinned
    cases (in the test suite): 78 of stabs's 90 errors raise, 931 of the 1038
    other cases agree bit for bit. The other 119 are documented differences
    (listed with their evidence in docs/stability_selection_stabs.md): in 61 r-concave
    cases stabs's numerical maximisation stops short of the maximum, so its bound is lower
    (by up to 4.9 % on the pinned grid, 61.8 % on a wider one) than the supremum
    it defines, which propstab returns; in 9 unimodal cases the exact q* is an
    integer and stabs's numerical root lands on q* - 1, propstab returns q*; in
    37 cases without assumption the input lies outside the domain (cutoff 1/2, a
    derived q of 0, PFER >= p), where stabs returns a value and propstab raises;
    in 12 unimodal cases q* lies beyond the bound's domain, stabs stops with an
    error and propstab returns the largest admissible q (its bound is below the
    PFER), as for StabilitySelection's defaults on 5 features (q = 2, PFER 0.816).

    References
    ----------
    Meinshausen, N., Bühlmann, P. (2010). Stability selection. JRSS B 72(4),
    417-473. https://doi.org/10.1111/j.1467-9868.2010.00740.x

    Shah, R. D., Samworth, R. J. (2013). Variable selection with error control:
    another look at stability selection. JRSS B 75(1), 55-80.
    https://doi.org/10.1111/j.1467-9868.2011.01034.x

    Hofner, B., Boccuto, L., Goker, M. (2015). Controlling false discoveries in
    high-dimensional situations: boosting with stability selection. BMC
    Bioinformatics 16:144 (the R package stabs).

    Examples
    --------
    >>> from propstab.error_control import error_control
    >>> ec = error_control(1000, cutoff=0.75, q=50, sampling="mb")
    >>> ec.PFER                                   # 50^2 / ((2 * 0.75 - 1) * 1000)
    5.0
    >>> error_control(1000, cutoff=0.75, PFER=1, sampling="mb").q
    22.0
    >>> ec = error_control(100, q=10, PFER=1, sampling="ss", assumption="unimodal")
    >>> ec.cutoff, ec.PFER                        # as stabs::stabsel_parameters
    (0.76, 0.98)
    """
    # the arguments' rules are declared above (validated in that order, values unchanged);
    # what follows converts them, then computes and checks the derived values
    p = int(n_features)
    B = default_n_subsamples(sampling) if n_subsamples is None else int(n_subsamples)
    cutoff, q, PFER = (None if v is None else float(v) for v in (cutoff, q, PFER))
    assumption = resolve_assumption(sampling, assumption)
    given = [name for name, v in (("cutoff", cutoff), ("q", q), ("PFER", PFER)) if v is not None]

    if cutoff is None:
        if assumption == "none":
            cutoff = min(1.0, (q * q / (PFER * p) + 1) / 2)
        elif assumption == "unimodal":
            cutoff = _unimodal_cutoff(p, q, PFER, B)
        else:
            cutoff = rconcave_cutoff(p, q, PFER, B)
    elif q is None:
        if assumption == "none":
            q = float(math.floor(math.sqrt(PFER * (2 * cutoff - 1) * p)))
        elif assumption == "unimodal":
            q = _unimodal_q(p, cutoff, PFER, B)
        else:
            q = rconcave_q(p, cutoff, PFER, B)
        if q < 1 or _bound(p, 1.0, cutoff, B, assumption) > PFER:
            fail(
                f"PFER: no q >= 1 attains PFER <= {PFER!r} with cutoff = "
                f"{cutoff!r} under the {BOUND_NAMES[assumption]} (n_features="
                f"{p}, n_subsamples={B}): the bound at q = 1 is "
                f"{_bound(p, 1.0, cutoff, B, assumption):.3g}"
            )
    if "cutoff" in given and assumption == "r-concave" and cutoff <= q / p:
        fail(
            f"cutoff: must be larger than q/p = {number(q / p, 6)} for the r-concave "
            f"bound; got {cutoff!r}"
        )
    bound = _bound(p, q, cutoff, B, assumption)
    if PFER is not None and bound > PFER * (1 + 1e-12):
        # only a derived cutoff can get here: no cutoff up to 1 attains PFER with this q
        warn(
            f"error_control: no cutoff up to 1 attains PFER <= {PFER!r} with q = "
            f"{number(q)} (n_features={p}); at cutoff {number(cutoff)} the "
            f"{BOUND_NAMES[assumption]} is {significant(bound, 3)!r}, above the PFER "
            f"asked for",
            PFERExceededWarning,
        )
    specified = bound if PFER is None else PFER
    return ErrorControl(
        cutoff=float(cutoff),
        q=float(q),
        PFER=significant(bound, 3),
        specified_PFER=float(specified),
        n_features=p,
        n_subsamples=B,
        sampling=sampling,
        assumption=assumption,
    )


def _check_pfer(PFER, p: int, *, function=None) -> float:
    """PFER in (0, p): E(V) <= p holds without stability selection, so a PFER of p or
    more asks for nothing (stabs accepts it, and then derives q > p)."""
    PFER = check_real_range("PFER", PFER, low=0.0, low_open=True, function=function)
    if PFER >= p:
        fail(
            f"PFER: must be below n_features = {p} (E(V) <= p holds for any "
            f"selection, so a PFER of p or more bounds nothing); got {PFER!r}",
            function=function,
        )
    return PFER


def _check_cutoff(cutoff, assumption: str, B: int, *, function=None) -> float:
    """The cutoff's range: (1/2, 1] (the MB bound is infinite at 1/2), (0, 1] for the
    r-concave bound, and above 1/2 + 1/(4B) for the unimodal one below 3/4, where its
    constant K(pi, B) = 2 (2 pi - 1 - 1/(2B)) is positive."""
    if assumption == "r-concave":
        return check_real_range(
            "cutoff", cutoff, low=0.0, high=1.0, low_open=True, function=function
        )
    cutoff = check_real_range(
        "cutoff", cutoff, low=0.5, high=1.0, low_open=True, function=function
    )
    if assumption == "unimodal" and cutoff <= 0.5 + 1 / (4 * B):
        fail(
            f"cutoff: must be > 1/2 + 1/(4B) = {number(0.5 + 1 / (4 * B), 10)} "
            f"for the unimodal bound with n_subsamples={B} (below it the constant "
            f"2 (2 pi - 1 - 1/(2B)) is <= 0 and the bound negative or "
            f"infinite); got {cutoff!r}",
            function=function,
        )
    return cutoff
