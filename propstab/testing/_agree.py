"""Differential testing of an implementation against propstab's measure: the engine of
:func:`propstab.testing.assert_agrees` and of :func:`propstab.crosscheck`.

One search (:func:`first_disagreement`, on :func:`propstab.search.search`) draws cases from
the measure's own domain, evaluates both sides and returns the case on which they
disagree, shrunk by Hypothesis. The rules of agreement:

- both defined: ``|a - b| <= max(atol, rtol * max(|a|, |b|))`` (:func:`close`);
- NaN (or ``None``, R's ``NA``, JSON's ``null``) agrees only where propstab declares the
  value undefined (NaN with an :class:`~propstab.UndefinedMeasureWarning`);
- a raised error (``{"error": ...}`` from a command) agrees only where propstab refuses the
  input (:class:`~propstab.InvalidParameterError`).

A case under a declared expected difference (``expected_differences=``) whose values
differ counts as *expected*, not as a disagreement.
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any, Callable, Iterable, Mapping, Optional, Tuple

import numpy as np

from .._utils.checks import fail
from ._command import ProtocolError
from ._implementations import Implementation, Side
from .._utils.exceptions import InvalidParameterError, UndefinedMeasureWarning
from ..registry._registry import lookup
from .._utils.results import UnpackingResult
from .._utils.text import number, summary

__all__ = [
    "Agreement",
    "Comparison",
    "DisagreementError",
    "agreement",
    "assert_agrees",
    "close",
    "first_disagreement",
]

INPUTS = ("matrix", "sets", "frequencies")
#: The shapes of the drawn cases: Hypothesis shrinks towards few runs and features.
MAX_RUNS, MAX_FEATURES = 10, 12
#: The similarity values drawn for a correlated measure (both sides of stabm's 0.9).
SIMILARITY_VALUES = (0.0, 0.3, 0.5, 0.9, 0.95, 1.0)


def close(a: float, b: float, atol: float, rtol: float) -> bool:
    """``|a - b| <= max(atol, rtol * max(|a|, |b|))`` (symmetric in a and b; with
    ``atol = rtol = t``: ``|a - b| / max(|a|, |b|, 1) <= t``, the cross-check's rule).

    >>> from propstab.testing._agree import close
    >>> close(0.5, 0.5 + 1e-12, 1e-10, 1e-10), close(1e6, 1e6 + 1, 1e-10, 1e-10)
    (True, False)
    """
    return abs(a - b) <= max(atol, rtol * max(abs(a), abs(b)))


# ---------------------------------------------------------------------- the engine


def first_disagreement(
    strategy,
    evaluate: Callable[[Any], Any],
    *,
    max_examples: int,
    seed: int,
    disagrees: Callable[[Any], bool],
    record: Optional[Callable[[Any], None]] = None,
    abort: Tuple[type, ...] = (),
    examples: Iterable = (),
):
    """The first outcome of ``evaluate`` on examples of ``strategy`` for which
    ``disagrees(outcome)``, shrunk by Hypothesis (the one reproducible search,
    :func:`propstab.search.search`); None when every example agrees.

    Every outcome is passed to ``record``. An exception of a type in ``abort`` (a broken
    implementation: R failing, a command off the protocol) stops the search and is raised
    after it: nothing is shrunk over a broken implementation.
    """
    from ..search import Found, search

    failed: list = []

    class _Disagreement(Found):
        def __init__(self, outcome):
            super().__init__(outcome, (), "the implementations disagree")
            self.outcome = outcome

    def probe(example):
        if failed:
            return None
        try:
            outcome = evaluate(example)
        except abort as exc:
            failed.append(exc)
            return None
        if record is not None:
            record(outcome)
        return _Disagreement(outcome) if disagrees(outcome) else None

    found = search(
        strategy, probe, max_examples=max_examples, random_state=seed, examples=examples
    )
    if failed:
        raise failed[0]
    return found.outcome if isinstance(found, _Disagreement) else None


# ---------------------------------------------------------------------- the cases


def domain_strategy(info, options: Mapping[str, Any], invalid: bool = False):
    """Hypothesis strategy of ``(Z, options)`` pairs from the measure's own domain:
    selection matrices (empty and full runs, constant and varying sizes, one in five made
    of empty and full runs only; constant sizes only for a measure defined on them) or
    rank matrices (ties or none), and a similarity
    matrix when the measure takes one and ``options`` does not give it."""
    from hypothesis import strategies as st
    from ..strategies import rank_matrices, selection_matrices, similarity_matrices

    if info.input == "ranking":
        matrices = st.one_of(
            *[
                rank_matrices(
                    min_runs=2,
                    max_runs=MAX_RUNS,
                    min_features=2,
                    max_features=MAX_FEATURES,
                    ties=t,
                )
                for t in ("any", "none", "proper")
            ]
        )
    else:
        constant = info.domain == "constant_size"
        sizes = (
            ("constant", "proper_constant")
            if constant
            else ("any", "proper", "constant", "proper_constant")
        )
        matrices = st.one_of(
            *[
                selection_matrices(
                    min_runs=2,
                    max_runs=MAX_RUNS,
                    min_features=1,
                    max_features=MAX_FEATURES,
                    subset_sizes=s,
                )
                for s in sizes
            ],
            _empty_or_full_runs(constant),
        )
    fixed = dict(options)
    # with ``invalid``: one case in four made invalid (shrinking towards a valid one)
    flaws = st.sampled_from((False, False, False, True)) if invalid else st.just(False)
    if "similarity" not in info.parameter_names or "similarity" in fixed:
        return st.tuples(matrices, st.just(fixed), flaws)

    @st.composite
    def with_similarity(draw):
        Z = draw(matrices)
        S = draw(
            similarity_matrices(
                Z.shape[1], kinds=("general",), elements=st.sampled_from(SIMILARITY_VALUES)
            )
        )
        return Z, dict(fixed, similarity=np.asarray(S, dtype=np.float64)), draw(flaws)

    return with_similarity()


def _empty_or_full_runs(constant: bool):
    """Matrices whose every run selects nothing or everything (all alike when
    ``constant``): where the 0/0s of the normalisations live, drawn often on purpose."""
    from hypothesis import strategies as st

    @st.composite
    def matrices(draw):
        M = draw(st.integers(2, MAX_RUNS))
        d = draw(st.integers(1, MAX_FEATURES))
        full = (
            [draw(st.booleans())] * M
            if constant
            else draw(st.lists(st.booleans(), min_size=M, max_size=M))
        )
        return np.repeat(np.array(full, dtype=bool)[:, None], d, axis=1)

    return matrices()


# ---------------------------------------------------------------------- both sides


def reference_side(
    info, Z: np.ndarray, options: Mapping[str, Any], impl=None, flawed: bool = False
) -> Side:
    """propstab's answer: its value, undefined (NaN with an UndefinedMeasureWarning) or
    invalid (InvalidParameterError; ``flawed``: on the input ``impl`` is given)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if flawed:
                Z = impl.reference_input(Z, True)
            value = float(info.function(Z, **options))
        except InvalidParameterError as exc:
            return Side("invalid", message=" ".join(str(exc).split()))
    if math.isnan(value):
        why = next(
            (str(w.message) for w in caught if issubclass(w.category, UndefinedMeasureWarning)), ""
        )
        return Side("undefined", message=" ".join(why.split()))
    return Side("value", value)


# ---------------------------------------------------------------------- comparison


@dataclasses.dataclass(frozen=True)
class Comparison:
    """One case evaluated on both sides, and the verdict."""

    Z: np.ndarray
    options: Mapping[str, Any]
    reference: Side
    candidate: Side
    difference: float  # |a - b| when both are numbers, else inf (0: both undefined)
    status: str  # "agree" | "expected" | "disagree"
    reason: str
    expected: Tuple[str, ...] = ()
    flawed: bool = False  # the input was made invalid (``invalid_inputs=True``)


def compare(reference: Side, candidate: Side, atol: float, rtol: float) -> Tuple[bool, str, float]:
    """``(agrees, reason, difference)`` of two sides by the rules of the module."""
    r, c = reference, candidate
    if r.state == "invalid":
        if c.state == "error":
            return True, "both refuse the input", 0.0
        return (
            False,
            "propstab refuses this input but the implementation gives "
            + ("NaN" if c.state == "undefined" else repr(c.value)),
            math.inf,
        )
    if c.state == "error":
        return False, "the implementation fails on a valid input", math.inf
    if r.state == "undefined":
        if c.state == "undefined":
            return True, "undefined on both sides", 0.0
        return (
            False,
            "propstab declares the value undefined but the implementation gives " "a number",
            math.inf,
        )
    if c.state == "undefined":
        return False, "the implementation gives NaN where propstab's value is defined", math.inf
    diff = abs(r.value - c.value)
    if close(r.value, c.value, atol, rtol):
        return True, "equal within the tolerance", diff
    return False, f"the values differ by {diff:.3g}", diff


def _expected_keys(expected, info, Z, options) -> Tuple[str, ...]:
    from .._data.convert_rankings import as_input

    keys = []
    sel = None
    for e in expected:
        if callable(e) and not hasattr(e, "applies"):
            if e(Z, options):
                keys.append(getattr(e, "__name__", "expected"))
            continue
        if e.applies is None:
            continue
        if sel is None:
            sel = as_input(info.input, Z)
        if e.applies(info.name, sel, {**_full(info, options)}):
            keys.append(e.key)
    return tuple(keys)


def _full(info, options):
    from ..registry._option_checks import check_options

    return check_options(info, dict(options))


def _expected_differences(value, info) -> tuple:
    if value is None:
        return ()
    if isinstance(value, str) or callable(value) or hasattr(value, "applies"):
        value = [value]
    out = []
    known = {e.key: e for ref in info.r_references for e in ref.differences}
    for e in value:
        if isinstance(e, str):
            if e not in known:
                fail(
                    f"expected_differences: {e!r} is not a declared difference of "
                    f"{info.name}; declared: {', '.join(known) or 'none'}"
                )
            out.append(known[e])
        elif hasattr(e, "applies") or callable(e):
            out.append(e)
        else:
            fail(
                f"expected_differences: each must be an ExpectedDifference, the key of "
                f"one of the measure's, or a function f(Z, options) -> bool; got "
                f"{type(e).__name__} {e!r}",
                TypeError,
            )
    return tuple(out)


# ---------------------------------------------------------------------- the result


@dataclasses.dataclass(frozen=True, repr=False)
class Agreement(UnpackingResult):
    """The outcome of :func:`propstab.testing.agreement`: unpacks as ``(agrees,
    counterexample)``; ``summary()`` (and ``print``) gives the counts and, when they
    disagree, the shrunk case with the code that reproduces it.

    Parameters
    ----------
    agrees, counterexample, measure, implementation, n_examples, n_undefined, n_expected, \
largest_difference, code, language, options, atol, rtol, input, base
        As the attributes below (built by :func:`propstab.testing.agreement`).

    See Also
    --------
    propstab.testing.agreement : Returns it.
    propstab.testing.assert_agrees : Raises when it does not agree.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (test oracles,
    shrinking).

    Examples
    --------
    >>> from propstab.testing import agreement
    >>> agrees, counterexample = agreement(lambda Z: Z.mean(), "goh", max_examples=20)
    >>> agrees, counterexample
    (True, None)

    Attributes
    ----------
    agrees : bool
        No case disagreed (expected differences aside).
    counterexample : Comparison or None
        The shrunk disagreeing case, with both sides (``reference``, ``candidate``).
    measure, implementation : str
        propstab's measure and the implementation's name.
    n_examples : int
        Cases evaluated (the shrinking's included).
    n_undefined : int
        Cases on which propstab's value is undefined (and the implementation agreed).
    n_expected : int
        Cases under a declared expected difference whose values differed.
    largest_difference : float
        The largest ``|a - b|`` over the agreeing cases with two numbers.
    code : str
        A line that reproduces the counterexample ("" when it agrees).
    """

    agrees: bool
    counterexample: Optional[Comparison]
    measure: str
    implementation: str
    n_examples: int
    n_undefined: int
    n_expected: int
    largest_difference: float
    code: str = ""
    language: str = "Python"
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    atol: float = 0.0
    rtol: float = 0.0
    input: str = "matrix"
    base: int = 0

    _unpack = ("agrees", "counterexample")
    _repr_fields = (
        "agrees",
        "measure",
        "n_examples",
        "n_undefined",
        "n_expected",
        "largest_difference",
    )

    def summary(self):
        rows = [
            ("measure", self.measure),
            (
                "implementation",
                f"{self.implementation} " f"({self.language}, input {self.input!r})",
            ),
            ("verdict", "agrees" if self.agrees else "DISAGREES"),
            ("examples", str(self.n_examples)),
            ("undefined", f"{self.n_undefined} (NaN on both sides)"),
            ("expected differences", str(self.n_expected)),
            ("largest difference", number(self.largest_difference, 3)),
            ("tolerance", f"atol {self.atol:g}, rtol {self.rtol:g}"),
        ]
        notes = [] if self.agrees else counterexample_lines(self)
        return summary("Agreement with propstab", rows, notes=notes)


def counterexample_lines(result: Agreement) -> "list[str]":
    c = result.counterexample
    M, d = c.Z.shape
    Z = c.Z.astype(int) if c.Z.dtype == bool else c.Z
    rows = np.array2string(np.asarray(Z), separator=", ", prefix="  Z = ")
    lines = [
        f"shrunk counterexample: {M} runs, {d} feature{'s' * (d != 1)}"
        + (f", options {dict(_shown(c.options))}" if c.options else ""),
        f"  Z = {rows}",
    ]
    if c.flawed:
        lines.append(
            "  made invalid: "
            + (
                f"the first run also selects {d + result.base}, outside {result.base}.."
                f"{d - 1 + result.base}"
                if result.input == "sets"
                else "Z[0, 0] = 2 (not 0/1)"
            )
        )
    lines += [
        f"  propstab ({result.measure}): {c.reference.text()}",
        f"  {result.implementation}: {c.candidate.text()}",
        f"  difference: {c.difference:.6g} ({c.reason})"
        if math.isfinite(c.difference)
        else f"  difference: {c.reason}",
        f"reproduce ({result.language}):",
        f"  {result.code}",
    ]
    return lines


def _shown(options):
    for k, v in options.items():
        yield k, (f"<{v.shape[0]} x {v.shape[1]} matrix>" if hasattr(v, "shape") else v)


class DisagreementError(AssertionError):
    """:func:`propstab.testing.assert_agrees` failed; ``agreement`` holds the result.

    Parameters
    ----------
    result : Agreement
        The disagreeing result; the message is its shrunk case and reproducing code.

    See Also
    --------
    propstab.testing.Agreement : The result it carries.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (test oracles,
    shrinking).

    Examples
    --------
    >>> from propstab.testing import DisagreementError, assert_agrees
    >>> try:
    ...     assert_agrees(lambda Z: 0.5, "goh", max_examples=20)
    ... except DisagreementError as error:
    ...     error.agreement.counterexample.Z.astype(int).tolist()
    [[0], [0]]
    """

    def __init__(self, result: Agreement):
        super().__init__(
            f"{result.implementation} disagrees with propstab's "
            f"{result.measure}\n" + "\n".join(counterexample_lines(result))
        )
        self.agreement = result


# ---------------------------------------------------------------------- the entry points


def _check_number(name, value, *, minimum=0.0):
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float, np.number))
        or not (math.isfinite(value) and value >= minimum)
    ):
        fail(f"{name}: must be a finite number >= {minimum:g}; got {value!r}")
    return float(value)


def agreement(
    f,
    measure: str,
    *,
    options: Optional[Mapping[str, Any]] = None,
    atol: float = 1e-9,
    rtol: float = 1e-9,
    max_examples: int = 200,
    random_state: int = 0,
    expected_differences=None,
    input: Optional[str] = None,
    base: Optional[int] = None,
    name: Optional[str] = None,
    language: Optional[str] = None,
    invalid_inputs: bool = False,
) -> Agreement:
    """:func:`assert_agrees` without the assertion: the :class:`Agreement` either way,
    for use outside pytest.

    Parameters
    ----------
    f, measure, options, atol, rtol, max_examples, random_state, expected_differences, \
input, base, name
        As for :func:`propstab.testing.assert_agrees`.
    language : {"Python", "R"}, optional
        The syntax of the reproducing code for a Python callable that wraps an R function
        (the R package's ``expect_agrees()``); an rpy2 function or a command is detected.
    invalid_inputs : bool, default False
        As for :func:`propstab.testing.assert_agrees`.

    Returns
    -------
    Agreement
        Unpacks as ``(agrees, counterexample)``; the counts of examples, undefined cases
        and expected differences, the largest difference, the reproducing code.

    Raises
    ------
    propstab.InvalidParameterError
        As :func:`propstab.testing.assert_agrees`.
    ProtocolError
        A command that does not follow the protocol.

    See Also
    --------
    propstab.testing.assert_agrees : The same check as an assertion.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (test oracles,
    shrinking).

    Examples
    --------
    >>> from propstab.testing import agreement
    >>> result = agreement(lambda Z: 0.0, "nogueira", max_examples=50)
    >>> result.agrees, result.counterexample.Z.astype(int).tolist()
    (False, [[0], [0]])
    >>> result.counterexample.reference.state, result.counterexample.candidate.value
    ('undefined', 0.0)
    """
    from .._utils.checks import check_int_range

    info = lookup(measure, argument="measure")
    if input is not None and input not in INPUTS:
        fail(f"input: must be one of {', '.join(map(repr, INPUTS))}; got {input!r}")
    if base is not None and (isinstance(base, bool) or base not in (0, 1)):
        fail(f"base: must be 0 or 1; got {base!r}")
    impl = Implementation.of(f, input, base, name, language)
    if impl.input != "matrix" and info.input == "ranking":
        fail(
            f"input: {info.name} reads a rank matrix: only input='matrix'; got " f"{impl.input!r}"
        )
    if impl.input == "frequencies" and info.family != "frequency":
        fail(
            f"input: 'frequencies' only for a measure of the frequency family (its value "
            f"a function of how often each feature is selected); {info.name} is "
            f"{info.family}"
        )
    if options is not None and not isinstance(options, Mapping):
        fail(
            f"options: must be a mapping of {info.name}'s options; got "
            f"{type(options).__name__} {options!r}",
            TypeError,
        )
    options = dict(options or {})
    _full(info, options)  # unknown or invalid options raise
    atol, rtol = _check_number("atol", atol), _check_number("rtol", rtol)
    max_examples = check_int_range("max_examples", max_examples, minimum=1, owner="assert_agrees")
    seed = check_int_range("random_state", random_state, minimum=0, owner="assert_agrees")
    expected = _expected_differences(expected_differences, info)
    counts = {"n": 0, "undefined": 0, "expected": 0, "largest": 0.0}

    def evaluate(case) -> Comparison:
        Z, opts, flawed = case
        ref = reference_side(info, Z, opts, impl, flawed)
        cand = impl.side(Z, opts, flawed)
        ok, reason, diff = compare(ref, cand, atol, rtol)
        keys = () if ok or flawed else _expected_keys(expected, info, Z, opts)
        status = "agree" if ok else ("expected" if keys else "disagree")
        return Comparison(Z, opts, ref, cand, diff, status, reason, keys, flawed)

    def record(c: Comparison) -> None:
        counts["n"] += 1
        if c.status == "expected":
            counts["expected"] += 1
        elif c.status == "agree":
            if c.reference.state == "undefined":
                counts["undefined"] += 1
            elif c.reference.state == "value":
                counts["largest"] = max(counts["largest"], c.difference)

    if invalid_inputs not in (True, False):
        fail(f"invalid_inputs: must be True or False; got {invalid_inputs!r}", TypeError)
    if invalid_inputs and (impl.input == "frequencies" or info.input == "ranking"):
        fail(
            "invalid_inputs: only for a selection matrix or sets (input='matrix' or "
            "'sets' of a measure reading selections)"
        )
    found = first_disagreement(
        domain_strategy(info, options, invalid_inputs),
        evaluate,
        max_examples=max_examples,
        seed=seed,
        disagrees=lambda c: c.status == "disagree",
        record=record,
        abort=(ProtocolError,),
    )
    code = "" if found is None else impl.code(found.Z, found.options, info.name, found.flawed)
    return Agreement(
        found is None,
        found,
        info.name,
        impl.name,
        counts["n"],
        counts["undefined"],
        counts["expected"],
        counts["largest"],
        code,
        impl.language,
        options,
        atol,
        rtol,
        impl.input,
        impl.base,
    )


def assert_agrees(
    f,
    measure: str,
    *,
    options: Optional[Mapping[str, Any]] = None,
    atol: float = 1e-9,
    rtol: float = 1e-9,
    max_examples: int = 200,
    random_state: int = 0,
    expected_differences=None,
    input: Optional[str] = None,
    base: Optional[int] = None,
    name: Optional[str] = None,
    invalid_inputs: bool = False,
) -> Agreement:
    """Assert that an implementation ``f`` computes propstab's ``measure``: fail with the
    shrunk minimal case on which they disagree.

    Cases are drawn from the measure's own domain (selection matrices with empty and full
    runs, constant and varying sizes; rank matrices for a ranking measure; a similarity
    matrix for a measure taking one), ``f`` and propstab are evaluated on each, and on the
    first disagreement Hypothesis shrinks the case to a minimal one, reported with both
    values, their difference and a line of code that reproduces it.

    Parameters
    ----------
    f : callable, R function or Command
        The implementation: a Python function, an R function (rpy2's
        ``robjects.r["my_fn"]``; the arguments become R objects, the reproducing code is
        R), or :func:`propstab.testing.command` (any language). It is called on the
        input form ``input`` with ``options`` as keywords:

        - ``"matrix"``: ``f(Z, **options)``, Z an M x d integer 0/1 array (the midranks,
          float, for a ranking measure);
        - ``"sets"``: ``f(sets, n_features, **options)``, the runs as lists of feature
          indices counted from ``base``;
        - ``"frequencies"``: ``f(F, n_runs, **options)``, F the d selection counts (for
          the frequency family).

        It returns a number, NaN or None where undefined, or raises where it refuses the
        input.
    measure : str
        The registered measure it implements (:func:`propstab.list_measures`).
    options : mapping, optional
        The measure's options, passed to both sides (default: none, propstab's
        defaults). A measure taking ``similarity`` without one given gets a drawn matrix.
    atol, rtol : float, default 1e-9
        Two numbers agree when ``|a - b| <= max(atol, rtol * max(|a|, |b|))``.
    max_examples : int, default 200
        Generated cases (Hypothesis's ``max_examples``).
    random_state : int, default 0
        The seed of the generation: the same seed gives the same cases and verdict.
    expected_differences : iterable, optional
        Cases where a difference is expected, not a failure: the measure's declared
        :class:`~propstab.registry.ExpectedDifference` objects (or their keys, e.g.
        ``"nan_not_na"``), or functions ``g(Z, options) -> bool``.
    input : {"matrix", "sets", "frequencies"}, optional
        The form ``f`` takes (default ``"matrix"``; a command's own ``input``).
    base : {0, 1}, optional
        The first feature index of ``input="sets"`` (default 0; a command's own).
    name : str, optional
        The implementation's name in the report and in the reproducing code.
    invalid_inputs : bool, default False
        Also send invalid inputs (one case in four: an entry 2 in the matrix, or a run
        selecting the index ``n_features + base`` in the sets), which propstab refuses:
        the implementation must refuse them too (raise, or answer ``{"error": ...}``)
        rather than compute a value.

    Returns
    -------
    Agreement
        When they agree: the counts of examples, of undefined cases and of expected
        differences, and the largest difference seen.

    Raises
    ------
    DisagreementError
        An AssertionError: the shrunk case, both values, their difference and the code.
    propstab.InvalidParameterError
        An unknown measure or option, an input form the measure cannot take, a
        negative tolerance.
    ProtocolError
        A command that does not follow the protocol (a ValueError).

    See Also
    --------
    propstab.testing.agreement : The same check, returning the result.
    propstab.testing.command : An implementation in any language.
    propstab.crosscheck : Propstab against stabm and irr, on the same engine.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (test oracles,
    shrinking).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.testing import assert_agrees
    >>> def goh(Z):                                  # the mean selection frequency
    ...     return Z.mean()
    >>> assert_agrees(goh, "goh", max_examples=50).agrees
    True
    >>> def nogueira(Z):                             # 0/0 returned as 0
    ...     M, d = Z.shape
    ...     k = Z.sum() / M / d
    ...     s2 = Z.var(axis=0, ddof=1).mean()
    ...     return 0.0 if k in (0, 1) else 1 - s2 / (k * (1 - k))
    >>> assert_agrees(nogueira, "nogueira", max_examples=200)
    Traceback (most recent call last):
    ...
    propstab.testing._agree.DisagreementError: nogueira disagrees with propstab's nogueira
    shrunk counterexample: 2 runs, 1 feature
      Z = [[0],
           [0]]
    ...
    """
    __tracebackhide__ = True
    result = agreement(
        f,
        measure,
        options=options,
        atol=atol,
        rtol=rtol,
        max_examples=max_examples,
        random_state=random_state,
        expected_differences=expected_differences,
        input=input,
        base=base,
        name=name,
        invalid_inputs=invalid_inputs,
    )
    if not result.agrees:
        raise DisagreementError(result)
    return result
