"""The cross-check's cases: a measure's input and options in both languages (generated
by Hypothesis or taken from the papers' worked examples), and R's default options."""
from __future__ import annotations

import dataclasses
import json
import math
from typing import Any, Mapping, Optional, Sequence, Tuple

import numpy as np
from hypothesis import strategies as st

from .._utils.checks import fail
from ..registry._registry import MeasureInfo
from ..registry._option_checks import check_options
from ..strategies import matrix_from_rows, rank_matrices, selection_matrices, similarity_matrices

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
STOCHASTIC = ("estimate",)


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
        runs = {"ranks": self.Z.tolist()} if self.is_ranking else {"features": self.features()}
        return {
            "name": self.name,
            **runs,
            "p": self.n_features,
            "options": {k: _jsonable(v) for k, v in self.options.items()},
        }

    def r_code(
        self,
        r_function: str,
        arguments: Optional[Mapping[str, str]] = None,
        takes_p: bool = True,
        input: str = "stabm",
        fixed: Optional[Mapping[str, Any]] = None,
    ) -> str:
        """The case as an R call of ``r_function``; ``arguments`` maps the options
        to R argument names (options without one are not passed); ``takes_p``: pass
        ``p`` (stabm's adjusted measures take the dimension from ``sim.mat``);
        ``input`` is the reference's input kind (``"ratings"``: irr's d x M matrix);
        ``fixed``: arguments passed on every call (conger's ``exact = TRUE``). A rank
        matrix is passed to ``r_function``, R code, as its first argument."""
        if self.is_ranking:
            cells = ", ".join(f"{x:g}" for x in self.Z.ravel(order="F"))
            args = [f"matrix(c({cells}), {self.n_runs})"]
            args += [
                f"{arguments[k]} = {_r_literal(v) if v is not None else 'NULL'}"
                for k, v in self.options.items()
                if k in (arguments or {})
            ]
            return f"({r_function})({', '.join(args)})"
        runs = ", ".join(
            "integer(0)" if not f else f"c({', '.join(map(str, f))})" for f in self.features()
        )
        extra = "".join(f", {k} = {_r_literal(v)}" for k, v in (fixed or {}).items())
        if input == "ratings":
            return (
                f"{r_function}(t(do.call(rbind, lapply(list({runs}), function(f) "
                f"as.integer(seq_len({self.n_features}) %in% f)))){extra})"
            )
        args = [f"list({runs})"] + ([f"p = {self.n_features}"] if takes_p else [])
        arguments = arguments or {}
        args += [
            f"{arguments[k]} = {_r_literal(v)}" for k, v in self.options.items() if k in arguments
        ]
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
        "somol_fig2a": _one_based(
            6, [[1, 2, 3, 4], [5, 6, 1, 2], [3, 4, 5], [6, 1, 2], [3, 4, 5], [6, 1, 2], [3, 4, 5]]
        ),
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
    "jurman_mlpy_positions": np.array(
        [[3, 5, 2, 4, 1], [4, 5, 2, 3, 1], [3, 5, 4, 1, 2]], dtype=float
    ),
    "identical": np.array([[1, 2, 3, 4]] * 3, dtype=float),
    "reversed": np.array([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]], dtype=float),
    "ties_min_rule": np.array([[1, 2, 2, 4, 5], [1, 1, 3, 3, 5], [5, 4, 3, 2, 1]], dtype=float),
    "partial_top2": np.array([[1, 2, 4, 4, 4], [2, 1, 4, 4, 4], [1, 3.5, 2, 3.5, 5]], dtype=float),
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
        return st.sampled_from([c for c in p.choices if c not in STOCHASTIC])
    if r_arg in _R_RANGES:
        lo, hi = _R_RANGES[r_arg]
        r_default = ref.defaults.get(p.name)
        fixed = [p.default] + ([] if r_default is None else [r_default.value])
        return st.one_of(st.sampled_from(fixed), st.sampled_from([lo, hi]), st.floats(lo, hi))
    return st.just(p.default)


def _uses_enumeration(info: MeasureInfo, options: Mapping) -> bool:
    ref = info.r_reference
    return any(
        isinstance(options.get(name), str) and options[name] == "exact"
        for name in (ref.arguments if ref else {})
    )


def _enumeration_small(Z: np.ndarray) -> bool:
    """Whether stabm's exact correction (all pairs of subsets of the runs' sizes) is
    small enough to run: at most _EXACT_MAX_SUBSET_PAIRS pairs."""
    d = Z.shape[1]
    cap = 10 * _EXACT_MAX_SUBSET_PAIRS  # beyond it the count does not matter
    subsets = np.array([min(math.comb(d, int(k)), cap) for k in Z.sum(axis=1)], dtype=float)
    return (subsets.sum() ** 2 - (subsets**2).sum()) / 2 <= _EXACT_MAX_SUBSET_PAIRS


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
    >>> from propstab.r import r_default_options
    >>> r_default_options(get_measure("sechidis"))
    {'similarity': None, 'threshold': 0.9}
    """
    options = check_options(info, {})
    if info.r_reference is not None:
        options.update({k: d.value for k, d in info.r_reference.defaults.items()})
    return options


def comparable_options(
    info: MeasureInfo, options: Mapping[str, Any], Z: np.ndarray, given: Sequence[str] = ()
) -> "tuple[dict, tuple[str, ...]]":
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
        if not (isinstance(value, str) and value in STOCHASTIC):
            continue
        if p.name in given:
            fail(
                f"{p.name}: {value!r} is simulated (R's and numpy's random "
                f"numbers differ), so {info.name} cannot be cross-checked with "
                f"it; choose one of "
                f"{', '.join(repr(c) for c in p.choices if c != value)}"
            )
        new = "exact" if "exact" in p.choices and small else "none"
        out[p.name] = new
        notes.append(
            f"{info.name}: {p.name} = {value!r} (the R default) is simulated, not "
            f"comparable; compared at {new!r}"
        )
    if _uses_enumeration(info, out) and not small:
        fail(
            f"{info.name}: stabm's exact correction for chance enumerates every "
            f"pair of subsets of the runs' sizes, more than "
            f"{_EXACT_MAX_SUBSET_PAIRS} pairs on this input (d = {Z.shape[1]}); "
            f"cross-check it with correction_for_chance='none'"
        )
    return out, tuple(notes)


def shown_options(info: MeasureInfo, options: Mapping[str, Any]) -> "dict[str, Any]":
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
    return st.one_of(
        *[
            selection_matrices(
                min_runs=runs[0],
                max_runs=runs[1],
                min_features=features[0],
                max_features=features[1],
                subset_sizes=sizes,
            )
            for sizes in ("proper", "proper_constant", "any", "constant")
        ]
    )


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
        options = {
            p.name: draw(_option_strategy(info, p))
            for p in info.parameters
            if p.name != "similarity"
        }
        if _uses_enumeration(info, options):
            shapes = [((2, _EXACT_MAX_RUNS), (1, _EXACT_MAX_FEATURES))]
        else:
            shapes = [((2, 6), (1, 8)), ((10, 30), (10, 40))]
        runs, features = draw(st.sampled_from(shapes))
        Z = draw(_matrices(runs, features))
        if "similarity" in info.parameter_names:
            options["similarity"] = draw(
                similarity_matrices(
                    Z.shape[1],
                    kinds=("general",),
                    elements=st.sampled_from(_SIMILARITY_VALUES),
                    formats=("dense", "sparse"),
                )
            )
        return Case("generated", Z, check_options(info, options))

    return cases()


def _rank_cases(info: MeasureInfo):
    @st.composite
    def cases(draw):
        runs, features = draw(st.sampled_from([((2, 6), (2, 8)), ((10, 30), (10, 40))]))
        R = draw(
            st.one_of(
                *[
                    rank_matrices(
                        min_runs=runs[0],
                        max_runs=runs[1],
                        min_features=features[0],
                        max_features=features[1],
                        ties=ties,
                    )
                    for ties in ("proper", "none", "any")
                ]
            )
        )
        options = {
            p.name: draw(st.one_of(st.none(), st.integers(1, R.shape[1])))
            for p in info.parameters
            if p.name == "k"
        }
        return Case("generated", R, check_options(info, options))

    return cases()


def worked_cases(info: MeasureInfo) -> "list[Case]":
    """The worked examples at R's default options (:func:`r_default_options`), and at
    every other comparable choice of an option when the example is small enough for
    stabm's enumeration."""
    if "similarity" in info.parameter_names:  # needs a similarity matrix
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
                if (
                    value != defaults[p.name]
                    and value not in STOCHASTIC
                    and (small or not _uses_enumeration(info, opts))
                ):
                    cases.append(Case(f"{name} ({p.name}={value!r})", Z, opts))
    return cases
