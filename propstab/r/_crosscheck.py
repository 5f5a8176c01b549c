"""The cross-check harness: every measure with an R reference against R.

For each registered measure whose registry entry names an R reference (and for
``nogueira`` also against ``irr::kappam.fleiss``, thesis Thm 5), propstab and R
are evaluated on

- Hypothesis-generated cases: constant and varying subset sizes, empty and full
  runs, small and larger M and d, every option value (similarity matrices, dense
  and sparse, for the measures taking ``similarity=``), and
- the worked examples of the papers (Somol and Novovicova 2010, Figs 2-4; the
  thesis's App. B and Fig. 4.1).

A measure of the ranking family (its R reference's ``input="ranks"``: base R code on the
matrix of midranks, e.g. the mean over pairs of runs of ``stats::cor(t(R), method =
"spearman")``) is evaluated on generated rank matrices (untied, tied, with runs ranking
every feature equal) and on :data:`WORKED_RANKINGS`.

Agreement: ``|a - b| / max(|a|, |b|, 1) <= tolerance`` (1e-10), and NaN exactly
where R gives NA or NaN, a NaN from propstab always coming with an
UndefinedMeasureWarning. A case under a documented stabm defect
(:data:`~propstab.r.EXPECTED_DIFFERENCES`) whose values differ is an *expected
difference*; any other difference is a disagreement, shrunk by Hypothesis to a
minimal counterexample (the reproducible search of :mod:`propstab.search`, the audit's).
"""
from __future__ import annotations

import dataclasses
import json
import math
import warnings
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple

import numpy as np
from hypothesis import strategies as st

from .. import __version__
from .._exceptions import RReferenceError, UndefinedMeasureWarning
from .._progress import progress_bar, wanted
from .._registry import MeasureInfo, get_measure, list_measures
from .._text import call_repr, table_lines
from .._validation import (as_input, as_selection, check_int_range, check_mapping,
                           check_options, check_real_range)
from ..search import Found, search
from ..strategies import (matrix_from_rows, rank_matrices, selection_matrices,
                          similarity_matrices)
from ._call import RValue, formals, r_versions
from ._defects import expected_differences_for
from ._reference import reference_value

__all__ = ["Case", "CrosscheckReport", "CrosscheckRow", "WORKED_EXAMPLES", "WORKED_RANKINGS",
           "crosscheck", "relative_difference"]

TOLERANCE = 1e-10

# stabm's exact correction for chance enumerates combn(p, k_i) x combn(p, k_j) pairs
# of subsets for every pair of runs (about 0.2 ms each): generated cases using it stay
# this small, and worked examples use it below this many subset pairs.
_EXACT_MAX_RUNS, _EXACT_MAX_FEATURES = 4, 6
_EXACT_MAX_SUBSET_PAIRS = 10_000
# Sampling ranges of numeric options, by R argument (stabm accepts threshold in [0, 1]).
_R_RANGES = {"threshold": (0.0, 1.0), "penalty": (0.0, 3.0)}
# The similarities of generated cases: values on both sides of stabm's threshold 0.9.
_SIMILARITY_VALUES = (0.0, 0.3, 0.5, 0.9, 0.95, 1.0)
# Option values whose R result is random (stabm's correction.for.chance = "estimate"
# simulates the expectation with R's RNG): not comparable at 1e-10, never generated.
_STOCHASTIC = ("estimate",)


def relative_difference(a: float, b: float) -> float:
    """``|a - b| / max(|a|, |b|, 1)``: relative for values beyond 1 in magnitude,
    absolute below (stability values near 0 come from cancellations and carry no
    relative accuracy). NaN against NaN is 0; NaN against a number is inf.

    Examples
    --------
    >>> from propstab.r._crosscheck import relative_difference
    >>> relative_difference(0.5, 0.5 + 1e-12) < 1e-10
    True
    >>> relative_difference(float("nan"), 1.0)
    inf
    """
    if math.isnan(a) and math.isnan(b):
        return 0.0
    if math.isnan(a) or math.isnan(b):
        return math.inf
    return abs(a - b) / max(abs(a), abs(b), 1.0)


# ---------------------------------------------------------------------- cases

@dataclasses.dataclass(frozen=True, eq=False)
class Case:
    """One input: a 0/1 selection matrix (or, for the ranking family, a float matrix of
    midranks) and the measure's options (all of them).

    Parameters
    ----------
    name : str
        The case's name in reports (e.g. a paper's worked example).
    Z : ndarray
        The M x d selection matrix (bool), or for the ranking family the midranks
        (float64).
    options : mapping of str to object, optional
        The measure's options, all of them.

    See Also
    --------
    propstab.crosscheck : Evaluates cases with propstab and with R.
    propstab.r.CrosscheckRow : Holds the minimal disagreeing case, if any.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.r import Case
    >>> case = Case("toy", np.array([[1, 1, 0], [1, 0, 1]], dtype=bool))
    >>> case.features()
    [[1, 2], [1, 3]]
    >>> case.r_code("stabm::stabilityJaccard")
    'stabm::stabilityJaccard(list(c(1, 2), c(1, 3)), p = 3)'
    """

    name: str
    Z: np.ndarray
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def n_runs(self) -> int:
        return int(self.Z.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.Z.shape[1])

    @property
    def is_ranking(self) -> bool:
        """True for a rank matrix (midranks), False for a 0/1 selection matrix."""
        return self.Z.dtype != bool

    def features(self) -> "list[list[int]]":
        """The runs as lists of 1-based feature indices (stabm's ``features``)."""
        return [(np.flatnonzero(row) + 1).tolist() for row in self.Z]

    def to_dict(self) -> dict:
        runs = ({"ranks": self.Z.tolist()} if self.is_ranking else
                {"features": self.features()})
        return {"name": self.name, **runs, "p": self.n_features,
                "options": {k: _jsonable(v) for k, v in self.options.items()}}

    def r_code(self, r_function: str, arguments: Optional[Mapping[str, str]] = None,
               takes_p: bool = True, input: str = "stabm",
               fixed: Optional[Mapping[str, Any]] = None) -> str:
        """The case as an R call of ``r_function``; ``arguments`` maps the options
        to R argument names (options without one are not passed); ``takes_p``: pass
        ``p`` (stabm's adjusted measures take the dimension from ``sim.mat``);
        ``input`` is the reference's input kind (``"ratings"``: irr's d x M matrix);
        ``fixed``: arguments passed on every call (conger's ``exact = TRUE``). A rank
        matrix is passed to ``r_function``, R code, as its first argument."""
        if self.is_ranking:
            cells = ", ".join(f"{x:g}" for x in self.Z.ravel(order="F"))
            args = [f"matrix(c({cells}), {self.n_runs})"]
            args += [f"{arguments[k]} = {_r_literal(v) if v is not None else 'NULL'}"
                     for k, v in self.options.items() if k in (arguments or {})]
            return f"({r_function})({', '.join(args)})"
        runs = ", ".join("integer(0)" if not f else f"c({', '.join(map(str, f))})"
                         for f in self.features())
        extra = "".join(f", {k} = {_r_literal(v)}" for k, v in (fixed or {}).items())
        if input == "ratings":
            return (f"{r_function}(t(do.call(rbind, lapply(list({runs}), function(f) "
                    f"as.integer(seq_len({self.n_features}) %in% f)))){extra})")
        args = [f"list({runs})"] + ([f"p = {self.n_features}"] if takes_p else [])
        arguments = arguments or {}
        args += [f"{arguments[k]} = {_r_literal(v)}" for k, v in self.options.items()
                 if k in arguments]
        return f"{r_function}({', '.join(args)})"


def _jsonable(value):
    from scipy import sparse
    if sparse.issparse(value):
        return {"sparse": sparse.csr_matrix(value).toarray().tolist()}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    return value


def _r_literal(value) -> str:
    from scipy import sparse
    if sparse.issparse(value) or isinstance(value, np.ndarray):
        arr = np.asarray(sparse.csr_matrix(value).toarray() if sparse.issparse(value) else value)
        cells = ", ".join(f"{x:.17g}" for x in arr.ravel(order="F"))
        dense = f"matrix(c({cells}), {arr.shape[0]})"
        return f"Matrix::Matrix({dense}, sparse = TRUE)" if sparse.issparse(value) else dense
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    return repr(_jsonable(value))


def _one_based(d: int, rows) -> np.ndarray:
    return matrix_from_rows(rows, d, base=1)


def _worked_examples() -> "dict[str, np.ndarray]":
    fig4_s2 = [list(range(1, k + 1)) for k in range(7, 0, -1)]
    fig4_s3 = [[1, 2, 3, 4]] * 4 + [[1, 2, 3, 5], [1, 2, 6, 5], [1, 7, 6, 5]]
    return {
        # Somol & Novovicova (2010): Fig. 2(a) minimal and 2(b) maximal systems
        # (N = 23, n = 7, |Y| = 6), Fig. 3 (13 x {1}, {1,2}, {3}), Fig. 4 S2 and S3.
        "somol_fig2a": _one_based(6, [[1, 2, 3, 4], [5, 6, 1, 2], [3, 4, 5], [6, 1, 2],
                                      [3, 4, 5], [6, 1, 2], [3, 4, 5]]),
        "somol_fig2b": _one_based(6, [[1, 2, 3, 4]] * 2 + [[1, 2, 3]] * 5),
        "somol_fig3": _one_based(3, [[1]] * 5 + [[1, 2]] + [[1]] * 6 + [[3]] + [[1]] * 2),
        "somol_fig4_S2": _one_based(7, fig4_s2),
        "somol_fig4_S3": _one_based(7, fig4_s3),
        # Thesis App. B: B.2 Krizek's and Guzman's counterexamples, B.3 Wald's unbounded
        # family (M = 4, d = 5), B.4 the CW_rel counterexample; Fig. 4.1 (d = 10, M = 100).
        "thesis_B2_krizek_Z1": _one_based(4, [[1, 2], [1, 2], [3, 4], [3, 4]]),
        "thesis_B2_krizek_Z2": _one_based(4, [[1, 3], [1, 3], [3, 4], [3, 4]]),
        "thesis_B2_guzman_Z1": _one_based(5, [[1, 4], [2, 4], [4, 5], [3, 4]]),
        "thesis_B2_guzman_Z2": _one_based(5, [[1, 4], [2, 4], [1, 3], [2, 4]]),
        "thesis_B3_wald": _one_based(5, [[1, 2, 3, 4]] * 2 + [[5]] * 2),
        "thesis_B4_cwrel": _one_based(4, [[1, 2]] * 2 + [[1, 2, 3]] * 2),
        "thesis_fig4_1a": _one_based(10, [[1, 2, 3, 4, 5]] * 50 + [[1, 2, 3, 4]] * 50),
        "thesis_fig4_1b": _one_based(10, [[1, 2, 3]] * 100),
    }


#: The papers' worked examples (name -> 0/1 matrix), run for every measure at R's
#: default options (and every choice of its options when small enough for stabm).
WORKED_EXAMPLES: Mapping[str, np.ndarray] = _worked_examples()

#: Rank matrices run for every ranking measure: mlpy's example of Jurman et al.'s Canberra
#: indicator (positions + 1), identical and reversed runs, ties of every tie rule, a
#: partial ranking (NaN: unranked) and a run ranking every feature equal.
WORKED_RANKINGS: Mapping[str, np.ndarray] = {
    "jurman_mlpy_positions": np.array([[3, 5, 2, 4, 1], [4, 5, 2, 3, 1], [3, 5, 4, 1, 2]],
                                      dtype=float),
    "identical": np.array([[1, 2, 3, 4]] * 3, dtype=float),
    "reversed": np.array([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]], dtype=float),
    "ties_min_rule": np.array([[1, 2, 2, 4, 5], [1, 1, 3, 3, 5], [5, 4, 3, 2, 1]],
                              dtype=float),
    "partial_top2": np.array([[1, 2, 4, 4, 4], [2, 1, 4, 4, 4], [1, 3.5, 2, 3.5, 5]],
                             dtype=float),
    "constant_run": np.array([[1, 2, 3], [2, 2, 2], [3, 2, 1]], dtype=float),
}


def _option_strategy(info: MeasureInfo, p):
    """Every comparable value of an option: its choices but the stochastic ones, a range
    for the numeric options stabm takes (threshold, penalty) with propstab's and R's
    defaults, else the default."""
    ref = info.r_reference
    r_arg = ref.arguments.get(p.name) if ref is not None else None
    if r_arg is None:
        return st.just(p.default)
    if p.choices is not None:
        return st.sampled_from([c for c in p.choices if c not in _STOCHASTIC])
    if r_arg in _R_RANGES:
        lo, hi = _R_RANGES[r_arg]
        r_default = ref.defaults.get(p.name)
        fixed = [p.default] + ([] if r_default is None else [r_default.value])
        return st.one_of(st.sampled_from(fixed), st.sampled_from([lo, hi]), st.floats(lo, hi))
    return st.just(p.default)


def _uses_enumeration(info: MeasureInfo, options: Mapping) -> bool:
    ref = info.r_reference
    return any(isinstance(options.get(name), str) and options[name] == "exact"
               for name in (ref.arguments if ref else {}))


def _enumeration_small(Z: np.ndarray) -> bool:
    """Whether stabm's exact correction (all pairs of subsets of the runs' sizes) is
    small enough to run: at most _EXACT_MAX_SUBSET_PAIRS pairs."""
    d = Z.shape[1]
    cap = 10 * _EXACT_MAX_SUBSET_PAIRS                 # beyond it the count does not matter
    subsets = np.array([min(math.comb(d, int(k)), cap) for k in Z.sum(axis=1)], dtype=float)
    return (subsets.sum() ** 2 - (subsets ** 2).sum()) / 2 <= _EXACT_MAX_SUBSET_PAIRS


def r_default_options(info: MeasureInfo) -> "dict[str, Any]":
    """The options that reproduce a call of ``info``'s R reference with R's defaults:
    propstab's defaults, with the R defaults its registry entry declares in their place.

    Parameters
    ----------
    info : MeasureInfo
        The measure's registry entry (:func:`propstab.get_measure`).

    Returns
    -------
    dict of str to object
        Every option of the measure, at the value that reproduces R's default call.

    Raises
    ------
    AttributeError
        If ``info`` is not a registry entry (it has no ``parameters``).

    See Also
    --------
    propstab.RDefault : An R default that differs from propstab's, with its reason.
    propstab.crosscheck : Runs the worked examples at these options.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010. (the defaults of each ``stability*`` function).

    Examples
    --------
    >>> from propstab import get_measure
    >>> from propstab.r._crosscheck import r_default_options
    >>> r_default_options(get_measure("sechidis"))
    {'similarity': None, 'threshold': 0.9}
    """
    options = check_options(info, {})
    if info.r_reference is not None:
        options.update({k: d.value for k, d in info.r_reference.defaults.items()})
    return options


def comparable_options(info: MeasureInfo, options: Mapping[str, Any], Z: np.ndarray,
                       given: Sequence[str] = ()) -> "tuple[dict, tuple[str, ...]]":
    """``options`` made comparable at the tolerance on ``Z``, and notes saying what changed.

    A simulated value ('estimate': R's and numpy's random numbers differ) is replaced by
    'exact' when the measure has it and stabm's enumeration is small enough for ``Z``,
    else by 'none'. An option named in ``given`` (the user's choice) is never replaced:
    a simulated or too large exact correction there raises ValueError.
    """
    out = dict(options)
    notes = []
    small = _enumeration_small(Z)
    for p in info.parameters:
        value = out[p.name]
        if not (isinstance(value, str) and value in _STOCHASTIC):
            continue
        if p.name in given:
            raise ValueError(f"{p.name}: {value!r} is simulated (R's and numpy's random "
                             f"numbers differ), so {info.name} cannot be cross-checked with "
                             f"it; choose one of "
                             f"{', '.join(repr(c) for c in p.choices if c != value)}")
        new = "exact" if "exact" in p.choices and small else "none"
        out[p.name] = new
        notes.append(f"{info.name}: {p.name} = {value!r} (the R default) is simulated, not "
                     f"comparable; compared at {new!r}")
    if _uses_enumeration(info, out) and not small:
        raise ValueError(f"{info.name}: stabm's exact correction for chance enumerates every "
                         f"pair of subsets of the runs' sizes, more than "
                         f"{_EXACT_MAX_SUBSET_PAIRS} pairs on this input (d = {Z.shape[1]}); "
                         f"cross-check it with correction_for_chance='none'")
    return out, tuple(notes)


def _shown_options(info: MeasureInfo, options: Mapping[str, Any]) -> "dict[str, Any]":
    """The options that differ from propstab's defaults, JSON-ready (matrices by shape)."""
    shown = {}
    for p in info.parameters:
        value = options.get(p.name, p.default)
        if hasattr(value, "shape"):
            shown[p.name] = f"<{' x '.join(map(str, value.shape))} matrix>"
        elif value != p.default:
            shown[p.name] = _jsonable(value)
    return shown


def _matrices(runs: Tuple[int, int], features: Tuple[int, int]):
    """Selection matrices of these shapes, sizes varying or constant: half of them with
    sizes in 1..d-1, half with sizes in 0..d (empty and full runs)."""
    return st.one_of(*[selection_matrices(min_runs=runs[0], max_runs=runs[1],
                                          min_features=features[0], max_features=features[1],
                                          subset_sizes=sizes)
                       for sizes in ("proper", "proper_constant", "any", "constant")])


def case_strategy(info: MeasureInfo):
    """Hypothesis strategy of generated :class:`Case` objects for ``info``: options first
    (every comparable value), then a matrix, small when stabm enumerates subsets for an
    exact correction, else small (M <= 6, d <= 8) or larger (M <= 30, d <= 40), then a
    similarity matrix (dense or sparse) if the measure takes one. For a ranking measure:
    a rank matrix (any ties, no ties, or no run constant), small or larger, and its
    integer options (``k``) drawn in 1..d or None."""
    if info.input == "ranking":
        return _rank_cases(info)

    @st.composite
    def cases(draw):
        options = {p.name: draw(_option_strategy(info, p)) for p in info.parameters
                   if p.name != "similarity"}
        if _uses_enumeration(info, options):
            shapes = [((2, _EXACT_MAX_RUNS), (1, _EXACT_MAX_FEATURES))]
        else:
            shapes = [((2, 6), (1, 8)), ((10, 30), (10, 40))]
        runs, features = draw(st.sampled_from(shapes))
        Z = draw(_matrices(runs, features))
        if "similarity" in info.parameter_names:
            options["similarity"] = draw(similarity_matrices(
                Z.shape[1], kinds=("general",), elements=st.sampled_from(_SIMILARITY_VALUES),
                formats=("dense", "sparse")))
        return Case("generated", Z, check_options(info, options))

    return cases()


def _rank_cases(info: MeasureInfo):
    @st.composite
    def cases(draw):
        runs, features = draw(st.sampled_from([((2, 6), (2, 8)), ((10, 30), (10, 40))]))
        R = draw(st.one_of(*[rank_matrices(min_runs=runs[0], max_runs=runs[1],
                                           min_features=features[0],
                                           max_features=features[1], ties=ties)
                             for ties in ("proper", "none", "any")]))
        options = {p.name: draw(st.one_of(st.none(), st.integers(1, R.shape[1])))
                   for p in info.parameters if p.name == "k"}
        return Case("generated", R, check_options(info, options))
    return cases()


# ---------------------------------------------------------------------- evaluation

@dataclasses.dataclass(frozen=True)
class _Outcome:
    case: Case
    propstab: float
    warned: bool
    r: Optional[RValue]
    error: str
    relative_difference: float
    expected: Tuple[str, ...]
    status: str                    # "agree" | "expected" | "mismatch"

    def to_dict(self, ref: "_Reference") -> dict:
        return {**self.case.to_dict(),
                "r_code": self.case.r_code(ref.code or ref.label, ref.arguments,
                                           ref.takes_p, ref.input, ref.fixed),
                "propstab": _num(self.propstab), "propstab_warned": self.warned,
                "r": None if self.r is None else _num(self.r.value),
                "r_kind": None if self.r is None else self.r.kind, "error": self.error,
                "relative_difference": _num(self.relative_difference),
                "expected": list(self.expected), "status": self.status}


def _num(x: float):
    return x if math.isfinite(x) else str(x)


@dataclasses.dataclass(frozen=True)
class _Reference:
    measure: str
    label: str
    evaluate: Callable[[Case], RValue]
    arguments: Mapping[str, str]
    takes_p: bool = True
    code: str = ""                 # base R code of a ranking reference (input "ranks")
    input: str = "stabm"           # RReference.input
    fixed: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def _references(info: MeasureInfo) -> "list[_Reference]":
    """Every R reference of the measure's registry entry (``r_references``)."""
    return [_Reference(info.name, str(ref),
                       lambda c, n=info.name, label=str(ref): reference_value(
                           n, c.Z, reference=label, **c.options),
                       dict(ref.arguments),
                       ref.input == "stabm" and "p" in formals(ref.package, ref.function),
                       ref.r_code, ref.input, dict(ref.fixed))
            for ref in info.r_references]


def _evaluate(info: MeasureInfo, ref: _Reference, case: Case, tolerance: float) -> _Outcome:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        py = info.function(case.Z, **case.options)
    warned = any(issubclass(w.category, UndefinedMeasureWarning) for w in caught)
    sel = as_input(info.input, case.Z)
    expected = tuple(e.key for e in expected_differences_for(info.name)
                     if ref.label in e.r_functions and e.applies is not None
                     and e.applies(info.name, sel, case.options))
    try:
        r = ref.evaluate(case)
        error = ""
    except RReferenceError as exc:
        if not expected:
            # R failed where propstab computes a value and no documented difference says
            # R refuses such input: no number to compare, so not a disagreement. The
            # cross-check cannot run here (exit status 3 on the command line).
            raise RReferenceError(
                f"{exc} [R failed while cross-checking {info.name} on case {case.name}: "
                f"an R failure, not a disagreement]", r_message=exc.r_message,
                r_call=exc.r_call) from None
        r, error = None, str(exc)
    rel = math.inf if r is None else relative_difference(py, r.value)
    agree = r is not None and rel <= tolerance and (warned or not math.isnan(py))
    if agree and not (r.kind == "NaN" and "nan_not_na" in expected):
        status = "agree"
    elif expected:
        status = "expected"
    else:
        status = "mismatch"
    return _Outcome(case, py, warned, r, error, rel, expected, status)


class _Mismatch(Found):
    """A case on which propstab and R disagree (outside the documented differences)."""

    def __init__(self, outcome: _Outcome):
        super().__init__(outcome.case, (outcome.propstab, outcome.r),
                         f"propstab and R differ by {outcome.relative_difference:.3g}")
        self.outcome = outcome


def _generated(info, ref, tolerance, max_examples, seed, record) -> Optional[_Outcome]:
    """The minimal disagreeing generated case (shrunk by the search), or None; every
    evaluated case is passed to ``record``. An R failure stops the search and is raised
    outside it (no shrinking over a broken R, no flakiness)."""
    failed: "list[RReferenceError]" = []

    def probe(case):
        if failed:                    # R failed: no more calls, nothing to shrink
            return None
        try:
            outcome = _evaluate(info, ref, case, tolerance)
        except RReferenceError as exc:
            failed.append(exc)
            return None
        record(outcome)
        return _Mismatch(outcome) if outcome.status == "mismatch" else None

    found = search(case_strategy(info), probe, max_examples=max_examples, seed=seed)
    if failed:
        raise failed[0]
    return found.outcome if isinstance(found, _Mismatch) else None


def _worked(info: MeasureInfo) -> "list[Case]":
    """The worked examples at R's default options (:func:`r_default_options`), and at
    every other comparable choice of an option when the example is small enough for
    stabm's enumeration."""
    if "similarity" in info.parameter_names:      # needs a similarity matrix
        return []
    if info.input == "ranking":
        return [Case(name, R, check_options(info, {})) for name, R in WORKED_RANKINGS.items()]
    cases = []
    for name, Z in WORKED_EXAMPLES.items():
        defaults, _ = comparable_options(info, r_default_options(info), Z)
        cases.append(Case(name, Z, defaults))
        small = _enumeration_small(Z)
        for p in info.parameters:
            for value in p.choices or ():
                opts = dict(defaults, **{p.name: value})
                if (value != defaults[p.name] and value not in _STOCHASTIC
                        and (small or not _uses_enumeration(info, opts))):
                    cases.append(Case(f"{name} ({p.name}={value!r})", Z, opts))
    return cases


# ---------------------------------------------------------------------- report

@dataclasses.dataclass(frozen=True)
class CrosscheckRow:
    """The cross-check of one measure against one R reference.

    ``status`` is ``"agree"`` (every case agrees or is a documented expected
    difference) or ``"DISAGREE"``; ``counterexample`` is the minimal disagreeing
    case (a dict with the inputs, both values and the R call), ``expected`` counts
    the cases under each documented stabm defect. ``options`` are the options where
    they differ from propstab's defaults: R's defaults (the worked examples run at
    them, the generated cases draw them), or the options of the user's inputs;
    ``notes`` say where an option was replaced to be comparable; ``values`` hold, for
    the user's inputs, each input's name, both values and its status.

    Parameters
    ----------
    measure : str
        The measure's registry name.
    r_function : str
        The R reference, ``package::function``.
    cases : int
        The number of cases compared.
    max_relative_difference : float
        The largest ``|a - b| / max(|a|, |b|, 1)`` over the compared cases (NaN when
        none was comparable).
    status : {"agree", "DISAGREE"}
        The verdict.
    expected : mapping of str to int
        The number of cases under each documented difference, by its key.
    counterexample : mapping, optional
        The minimal disagreeing case.
    options : mapping of str to object, optional
        The options that differ from propstab's defaults.
    notes : tuple of str, optional
        Where an option was replaced to be comparable.
    values : tuple of mapping, optional
        For the user's inputs: each input's name, both values and its status.

    See Also
    --------
    propstab.r.CrosscheckReport : The rows of one cross-check.
    propstab.r.ExpectedDifference : A documented difference counted in ``expected``.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.

    Examples
    --------
    >>> import propstab
    >>> row = propstab.crosscheck("jaccard", max_examples=5).rows[0]
    >>> row.r_function, row.status, row.max_relative_difference < 1e-10
    ('stabm::stabilityJaccard', 'agree', True)
    """

    measure: str
    r_function: str
    cases: int
    max_relative_difference: float
    status: str
    expected: Mapping[str, int]
    counterexample: Optional[Mapping[str, Any]] = None
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    notes: Tuple[str, ...] = ()
    values: Tuple[Mapping[str, Any], ...] = ()

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["max_relative_difference"] = _num(self.max_relative_difference)
        d["expected"] = dict(self.expected)
        d["options"] = dict(self.options)
        d["notes"] = list(self.notes)
        d["values"] = [dict(v) for v in self.values]
        return d


@dataclasses.dataclass(frozen=True)
class CrosscheckReport:
    """Rows of :func:`crosscheck`, with the versions of R and the packages used.

    ``ok`` is True when no row disagrees. ``repr`` is one line with the counts; ``str``
    (and ``print``) show the table with the versions; ``to_json()`` gives the data.
    ``inputs`` names the user's selections (empty for generated cases); ``notes``
    list the measures left out and why.

    Parameters
    ----------
    rows : tuple of CrosscheckRow
        One row per (measure, R reference).
    versions : mapping of str to str
        The versions of R, rpy2 and the R packages.
    tolerance : float
        The largest accepted relative difference.
    seed : int
        The seed of the generated cases.
    max_examples : int
        Generated cases per measure and reference.
    inputs : tuple of str, optional
        The names of the user's selections (empty for generated cases).
    notes : tuple of str, optional
        The measures left out, and why.

    See Also
    --------
    propstab.crosscheck : Builds the report.
    propstab.r.CrosscheckRow : One row of the report.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1.

    Examples
    --------
    >>> import propstab
    >>> report = propstab.crosscheck(["jaccard", "dice"], max_examples=5)
    >>> report.ok, [row.measure for row in report.rows]
    (True, ['jaccard', 'dice'])
    """

    rows: Tuple[CrosscheckRow, ...]
    versions: Mapping[str, str]
    tolerance: float
    seed: int
    max_examples: int
    inputs: Tuple[str, ...] = ()
    notes: Tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return all(r.status == "agree" for r in self.rows)

    def to_dict(self) -> dict:
        from ._defects import EXPECTED_DIFFERENCES
        keys = {k for r in self.rows for k in r.expected}
        return {"propstab": __version__, "versions": dict(self.versions),
                "tolerance": self.tolerance, "seed": self.seed,
                "max_examples": self.max_examples, "inputs": list(self.inputs),
                "notes": list(self.notes), "ok": self.ok,
                "rows": [r.to_dict() for r in self.rows],
                "expected_differences": [e.as_dict() for e in EXPECTED_DIFFERENCES
                                         if e.key in keys]}

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def __repr__(self) -> str:
        return call_repr("CrosscheckReport", ok=self.ok, n_rows=len(self.rows),
                         disagree=sum(r.status != "agree" for r in self.rows),
                         tolerance=self.tolerance, seed=self.seed,
                         max_examples=self.max_examples)

    def __str__(self) -> str:
        heads = ["measure", "R function", "cases", "max rel diff", "status",
                 "expected differences", "options"]
        body = []
        for r in self.rows:
            exp = ", ".join(f"{k} ({n})" for k, n in r.expected.items()) or "-"
            diff = ("-" if math.isnan(r.max_relative_difference)
                    else f"{r.max_relative_difference:.1e}")
            opts = ", ".join(f"{k}={v if isinstance(v, str) and v.startswith('<') else repr(v)}"
                             for k, v in r.options.items()) or "-"
            body.append([r.measure, r.r_function, str(r.cases), diff, r.status, exp, opts])
        where = (f"inputs {', '.join(self.inputs)}" if self.inputs else
                 f"seed {self.seed}; max_examples {self.max_examples}")
        lines = ["versions: " + ", ".join(f"{k} {v}" for k, v in self.versions.items())
                 + f", propstab {__version__}; tolerance {self.tolerance:g}; {where}"]
        lines += [line.rstrip() for line in table_lines(heads, body)]
        values = [(r, v) for r in self.rows for v in r.values]
        if values:
            lines.append("")
            lines += [line.rstrip() for line in table_lines(
                ["input", "measure", "R function", "propstab", "R", "status"],
                [[v["input"], r.measure, r.r_function, _shown(v["propstab"]), _shown(v["r"]),
                  v["status"]] for r, v in values])]
        lines.append("options: where they differ from propstab's defaults, given to both "
                     "sides: " + ("the inputs' options (R's defaults unless given)"
                                  if self.inputs else "R's defaults, at which the worked "
                                  "examples run (generated cases draw every comparable "
                                  "value, these included)"))
        for r in self.rows:
            lines += [f"note {n}" for n in r.notes]
            if r.counterexample is not None:
                c = r.counterexample
                call = (c["r_code"] if len(c["r_code"]) <= 300
                        else f"{c['name']} ({len(c['features'])} runs x {c['p']} features)")
                lines.append(f"DISAGREE {r.measure} vs {r.r_function}: {call} -> R "
                             f"{c['r']} ({c['r_kind']}), propstab {c['propstab']}"
                             + (f"; {c['error']}" if c["error"] else ""))
        lines += [f"note {n}" for n in self.notes]
        lines.append("expected differences: see propstab.r.EXPECTED_DIFFERENCES and "
                     "docs/r_crosscheck.md")
        return "\n".join(lines)


def _shown(x) -> str:
    return "-" if x is None else (f"{x:.10g}" if isinstance(x, float) else str(x))


def _summary(info: MeasureInfo, ref: _Reference, outcomes: "list[_Outcome]",
             minimal: Optional[_Outcome], **fields) -> CrosscheckRow:
    compared = [o.relative_difference for o in outcomes
                if o.status != "expected" and o.r is not None
                and math.isfinite(o.relative_difference)]
    counts: "dict[str, int]" = {}
    for o in outcomes:
        if o.status == "expected":
            for key in o.expected:
                counts[key] = counts.get(key, 0) + 1
    return CrosscheckRow(
        measure=info.name, r_function=ref.label, cases=len(outcomes),
        max_relative_difference=max(compared) if compared else float("nan"),
        status="DISAGREE" if minimal is not None else "agree", expected=counts,
        counterexample=None if minimal is None else minimal.to_dict(ref), **fields)


def _row(info: MeasureInfo, ref: _Reference, tolerance, max_examples, seed) -> CrosscheckRow:
    outcomes: "list[_Outcome]" = []
    minimal = _generated(info, ref, tolerance, max_examples, seed, outcomes.append)
    for case in _worked(info):
        outcome = _evaluate(info, ref, case, tolerance)
        outcomes.append(outcome)
        if outcome.status == "mismatch" and minimal is None:
            minimal = outcome
    r_options = r_default_options(info)
    simulated = {k: v for k, v in r_options.items() if isinstance(v, str) and v in _STOCHASTIC}
    notes = tuple(f"{info.name}: {k} = {v!r} (the R default) is simulated, not comparable; "
                  f"the cases use the other choices" for k, v in simulated.items())
    shown = {k: v for k, v in _shown_options(info, r_options).items() if k not in simulated}
    return _summary(info, ref, outcomes, minimal, options=shown, notes=notes)


def _input_rows(info: MeasureInfo, inputs: "list[tuple[str, np.ndarray]]",
                options: Mapping[str, Any], tolerance) -> "list[CrosscheckRow]":
    """The rows of ``info`` on the user's inputs, at R's defaults and the given options."""
    from scipy import sparse
    given = {k: v for k, v in options.items() if k in info.parameter_names}
    cases, notes = [], []
    for name, Z in inputs:
        opts = dict(r_default_options(info), **given)
        if "similarity" in info.parameter_names:
            S = given["similarity"]
            if S is None:                        # the identity, as R needs a matrix
                S = sparse.identity(Z.shape[1], format="csr")
            elif type(S).__module__.startswith("pandas"):
                S = S.to_numpy(dtype=np.float64)
            opts["similarity"] = S
        opts, changed = comparable_options(info, check_options(info, opts), Z, tuple(given))
        notes += [n for n in changed if n not in notes]
        cases.append(Case(name, Z, opts))
    rows = []
    for ref in _references(info):
        outcomes = [_evaluate(info, ref, case, tolerance) for case in cases]
        minimal = next((o for o in outcomes if o.status == "mismatch"), None)
        values = tuple({"input": o.case.name, "propstab": _num(o.propstab),
                        "r": None if o.r is None else _num(o.r.value), "status": o.status}
                       for o in outcomes)
        rows.append(_summary(info, ref, outcomes, minimal,
                             options=_shown_options(info, cases[0].options),
                             notes=tuple(notes), values=values))
    return rows


def _input_matrices(inputs, kind: str = "selection") -> "list[tuple[str, np.ndarray]]":
    """The inputs validated as selection matrices (0/1, bool) or, for ``kind="ranking"``,
    as rank matrices (midranks, float)."""
    if not isinstance(inputs, Mapping) or not inputs:
        raise TypeError(f"inputs: must be a non-empty mapping of names to selection matrices; "
                        f"got {type(inputs).__name__}")
    out = []
    for name, Z in inputs.items():
        try:
            checked = as_input(kind, Z)
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"inputs[{name!r}]: {exc}") from None
        out.append((str(name), np.asarray(checked.toarray(),
                                          dtype=np.float64 if kind == "ranking" else bool)))
    return out


def _matrices_by_kind(inputs, infos, explicit: bool):
    """{input kind: validated inputs} for the measures' kinds, and the measures kept. With
    ``explicit`` measures an input of the wrong kind raises; otherwise the measures whose
    kind the inputs are not are left out (with a note)."""
    matrices, errors = {}, {}
    for kind in dict.fromkeys(m.input for m in infos):
        try:
            matrices[kind] = _input_matrices(inputs, kind)
        except (ValueError, TypeError) as exc:
            if explicit:
                raise
            errors[kind] = exc
    if not matrices:
        raise next(iter(errors.values()))
    kept = [m for m in infos if m.input in matrices]
    left = [m.name for m in infos if m.input not in matrices]
    what = {"ranking": "rank matrices", "selection": "selection matrices"}
    notes = [f"not cross-checked: the inputs are not {what[k]} ("
             f"{', '.join(m for m in left if get_measure(m).input == k)})" for k in errors]
    return matrices, kept, notes


def crosscheck(measures=None, *, max_examples: int = 50, seed: int = 0,
               tolerance: float = TOLERANCE, inputs=None, options=None,
               progress=None) -> CrosscheckReport:
    """Cross-check propstab against the R reference implementations.

    Parameters
    ----------
    measures : str or sequence of str, optional
        Measure names (default: every registered measure with an R reference; with
        ``inputs``, those taking a similarity only when ``options`` gives one).
    max_examples : int, default 50
        Hypothesis-generated cases per measure and reference (plus the papers'
        worked examples).
    seed : int, default 0
        Seed of the generation; a fixed seed gives the same cases.
    tolerance : float, default 1e-10
        Largest accepted ``|a - b| / max(|a|, |b|, 1)``.
    inputs : mapping of str to selection matrix, optional
        The user's selections (any form accepted by :func:`propstab.as_selection`,
        a :class:`~propstab.Selection` included), by name: each measure is evaluated
        on them by propstab and by R, instead of on generated cases. Rank matrices
        (:func:`propstab.as_rankings`) for the ranking measures; with ``measures=None``
        the measures whose input kind the inputs are not are left out (a note says so).
    options : mapping, optional
        With ``inputs``: options applied to every measure that declares them (e.g.
        ``{"similarity": S, "threshold": 0.5}``; ``similarity=None`` is the identity).
        The other options are R's defaults (:func:`r_default_options`); a simulated
        R default ('estimate') is replaced by 'exact' or 'none', as the row's notes say.
    progress : bool or None, default None
        A progress bar with one step per measure: None shows it only when a person
        watches (a terminal or a Jupyter kernel; :mod:`propstab._progress`), True
        always, False never.

    Returns
    -------
    CrosscheckReport
        One row per (measure, R reference), with the versions of R, rpy2 and the
        R packages, the options used and, for inputs, both values per input.

    Raises
    ------
    ValueError
        An unknown measure, one without an R reference, an option no measure
        declares, a measure needing a similarity without one, an option value that
        cannot be compared (simulated, or an exact correction too large for stabm).
    TypeError
        ``measures`` not a name or a sequence of names, a non-integer ``seed`` or
        ``max_examples``, ``inputs`` not a non-empty mapping, an input that is not a
        selection (or rank) matrix.
    ImportError
        rpy2, R, an R package or Hypothesis is missing (the message says how to
        install it; :class:`~propstab.r.RUnavailableError` is an ImportError).

    See Also
    --------
    propstab.r.call_reference : One measure's R value on one selection.
    propstab.r.ExpectedDifference : The documented differences the report counts.
    propstab.audit : The other check of every measure, against its declared axioms.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891 (the generated cases).

    Examples
    --------
    >>> import propstab
    >>> report = propstab.crosscheck("jaccard", max_examples=5)
    >>> report.rows[0].r_function, report.rows[0].status
    ('stabm::stabilityJaccard', 'agree')
    >>> mine = propstab.crosscheck("sechidis", inputs={"mine": [[1, 1, 0], [1, 0, 1]]},
    ...                            options={"similarity": None})
    >>> mine.rows[0].options, mine.rows[0].values[0]["status"]
    ({'similarity': '<3 x 3 matrix>', 'threshold': 0.9}, 'agree')
    """
    if isinstance(measures, str):
        measures = [measures]
    elif measures is not None and (isinstance(measures, (bytes, Mapping))
                                   or not isinstance(measures, Sequence)):
        raise TypeError(f"measures: must be a measure name or a sequence of names; got "
                        f"{type(measures).__name__} {measures!r}")
    seed = check_int_range("seed", seed, minimum=0, owner="crosscheck")
    tolerance = check_real_range("tolerance", tolerance, low=0.0)
    options = check_mapping("options", options)
    with_r = [m for m in list_measures() if m.r_reference is not None]
    notes = []
    if measures is None:
        infos = with_r
        if inputs is not None and "similarity" not in options:
            left = [m.name for m in infos if "similarity" in m.parameter_names]
            infos = [m for m in infos if m.name not in left]
            if left:
                notes.append(f"not cross-checked without a similarity matrix: "
                             f"{', '.join(left)}")
    else:
        infos = [get_measure(name) for name in measures]
        lacking = [m.name for m in infos if m.r_reference is None]
        if lacking:
            raise ValueError(f"measures: {', '.join(map(repr, lacking))} have no R reference "
                             f"in the registry; cross-checkable: "
                             f"{', '.join(m.name for m in with_r)}")
    max_examples = check_int_range("max_examples", max_examples, minimum=1, owner="crosscheck")
    wanted(progress)                                  # checked before the long part
    if inputs is None:
        if options:
            raise ValueError(f"options: only with inputs= (the generated cases draw every "
                             f"comparable value); got {', '.join(options)}")
        versions = r_versions()
        rows = [_row(info, ref, tolerance, max_examples, seed)
                for info in progress_bar(infos, progress=progress, total=len(infos),
                                         desc="crosscheck")
                for ref in _references(info)]
        return CrosscheckReport(tuple(rows), versions, float(tolerance), int(seed),
                                int(max_examples))
    matrices, infos, skipped = _matrices_by_kind(inputs, infos, explicit=measures is not None)
    notes += skipped
    declared = {p.name for m in infos for p in m.parameters}
    unknown = [k for k in options if k not in declared]
    if unknown:
        raise ValueError(f"options: {', '.join(map(repr, unknown))} not an option of "
                         f"{', '.join(m.name for m in infos)}; their options: "
                         f"{', '.join(sorted(declared)) or 'none'}")
    for m in infos:
        if "similarity" in m.parameter_names and "similarity" not in options:
            raise ValueError(f"options: {m.name} needs a similarity matrix to be cross-checked "
                             f"on inputs; pass options={{'similarity': S}} (None: the "
                             f"identity)")
    versions = r_versions()
    rows = [row for info in progress_bar(infos, progress=progress, total=len(infos),
                                         desc="crosscheck")
            for row in _input_rows(info, matrices[info.input], options, tolerance)]
    names = tuple(f"{n} ({Z.shape[0]} x {Z.shape[1]})" for n, Z in next(iter(
        matrices.values())))
    return CrosscheckReport(tuple(rows), versions, float(tolerance), int(seed),
                            int(max_examples), inputs=names, notes=tuple(notes))
