"""The axiom audit: every measure's declared axioms, checked.

Each of the five axioms (:class:`propstab.Axiom`, thesis ch. 4 in the formal
statements of :attr:`Axiom.statement`) has one check, ``check_<axiom>``, usable in
both directions:

- a **claimed** axiom is searched for a counterexample: none found gives
  ``"holds"``, one found gives ``"violated"`` (the declaration is wrong);
- a **disclaimed** axiom is searched for a counterexample that refutes it: one
  found gives ``"refuted"``, none found gives ``"unrefuted"`` (never "holds").

Searches are Hypothesis searches over selection matrices (:mod:`propstab.strategies`),
seeded and without an example database so that an audit is reproducible, and the
counterexample reported is Hypothesis's shrunk, minimal one (or one of the small
explicit matrices tried first, :data:`propstab._checks.EQUAL_VARIANCE_PAIRS` and
:data:`propstab._checks.MAXIMUM_EXAMPLES`). Where blind search is weak the checks add
constructive families (unbounded values along Z_n, thesis App. B.3) and exact
computation: CORRECTION_FOR_CHANCE compares exact null
expectations (hypergeometric per pair for pairwise measures, exact enumeration of
all tuples of subsets otherwise), never simulated ones.

A measure with a ``similarity`` or ``importances`` option (the correlated family)
declares its axioms for EVERY admissible similarity matrix C (symmetric, entries in
[0, 1], unit diagonal) and importance matrix: each search draws C
(:func:`propstab.strategies.similarity_matrices`: identity, 0/1 groups, general) and
importance weights U (importances ``Z * U``, :func:`propstab.strategies.importance_weights`)
with every example, the counterexample reports them (:attr:`CheckResult.context`),
BOUNDS adds families of (Z_n, C_n) (:data:`propstab._checks.CONTEXT_FAMILIES`) and
CORRECTION_FOR_CHANCE enumerates H0 exactly for each drawn C (the null model does not
involve C), the constant being the same for every M, d, sizes and C.

:func:`audit` runs every check on every registered measure (and on the parameter
values where verdicts differ, :data:`VARIANTS`) or on a user function, and returns
an :class:`AuditTable`.

Examples
--------
>>> import propstab
>>> table = propstab.audit("kuncheva", max_examples=30)
>>> table.status("kuncheva", "correction")
'holds'
>>> table.status("kuncheva", "fully defined")     # constant sizes only: refuted
'refuted'
"""
from __future__ import annotations

import dataclasses
import json
import math
import warnings
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Tuple

import numpy as np

from . import _checks
from ._checks import Context, Expectation, Found, Subject, close, search_in_contexts
from ._registry import DOMAINS, ORIENTATIONS, Bound, MeasureInfo, get_measure, list_measures
from ._text import Summary, call_repr, summary
from ._validation import check_bool, check_choice, check_int_range, check_options, check_real
from .axioms import Axiom
from .strategies import (NullConfiguration, identical_rows, importance_weights, matrix_pairs,
                         near_identical_rows, selection_matrices, similarity_matrices)
from hypothesis import strategies as st  # noqa: E402  (after .strategies names the extra)

__all__ = [
    "AuditTable", "CheckResult", "Variant", "VARIANTS", "audit", "audited_subjects",
    "check_bounds",
    "check_correction_for_chance", "check_fully_defined", "check_maximum",
    "check_monotonicity", "load_function", "subject",
]

DEFAULT_MAX_EXAMPLES = 200
MAX_RUNS, MAX_FEATURES = 5, 7           # sizes of the searched matrices


# ---------------------------------------------------------------- results

@dataclasses.dataclass(frozen=True)
class CheckResult:
    """The outcome of one check of one axiom on one measure.

    Attributes
    ----------
    measure : str
        The measure's name (with its options, e.g. ``"davis[penalty=0.5]"``).
    axiom : Axiom
    claimed : bool
    status : {"holds", "violated", "refuted", "unrefuted", "skipped"}
    counterexample : ndarray, tuple of two ndarrays, NullConfiguration or None
        The minimal refuting matrix (a pair for MONOTONICITY, a null-model
        configuration for CORRECTION_FOR_CHANCE).
    values : tuple of float
        The measure's values behind the counterexample.
    expectations : tuple of Expectation
        For CORRECTION_FOR_CHANCE: the exact null expectations found.
    reason : str
    context : Context or None
        For a measure reading a similarity matrix or importances: the (shrunk)
        similarity C and importance weights of the counterexample.
    """

    measure: str
    axiom: Axiom
    claimed: bool
    status: str
    counterexample: Any = None
    values: Tuple[float, ...] = ()
    expectations: Tuple[Expectation, ...] = ()
    reason: str = ""
    context: Optional[Context] = None

    def to_dict(self) -> dict:
        """A JSON-ready dict (matrices as nested lists of 0/1)."""
        ce = self.counterexample
        if isinstance(ce, np.ndarray):
            ce = ce.astype(int).tolist()
        elif isinstance(ce, NullConfiguration):
            ce = {"n_runs": ce.n_runs, "n_features": ce.n_features,
                  "row_sizes": list(ce.row_sizes)}
        elif isinstance(ce, tuple):
            ce = [z.astype(int).tolist() for z in ce]
        out = {"measure": self.measure, "axiom": self.axiom.name, "claimed": self.claimed,
               "status": self.status, "counterexample": ce,
               "values": [None if math.isnan(v) else v for v in self.values],
               "expectations": [dataclasses.asdict(e) for e in self.expectations],
               "reason": self.reason}
        if self.context is not None:
            out["context"] = self.context.to_dict()
        return out


def _verdict(subject: Subject, axiom: Axiom, found, reason_none: str, *,
             expectations=(), claimed=None) -> CheckResult:
    claimed = subject.claims[axiom] if claimed is None else claimed
    if found == "unsatisfiable":
        return CheckResult(subject.name, axiom, claimed, "skipped",
                           reason="no generated matrix is in the measure's domain of "
                                  "definition")
    if found is None:
        if subject.contexts is not None:
            reason_none += (", each example with a drawn similarity matrix (identity, groups, "
                            "general) and/or importance weights")
        return CheckResult(subject.name, axiom, claimed, "holds" if claimed else "unrefuted",
                           expectations=tuple(expectations), reason=reason_none)
    return CheckResult(subject.name, axiom, claimed, "violated" if claimed else "refuted",
                       counterexample=found.example, values=tuple(found.values),
                       expectations=tuple(expectations), reason=found.reason,
                       context=found.context)


# ---------------------------------------------------------------- subjects

@dataclasses.dataclass(frozen=True)
class Variant:
    """A parameter setting of a registered measure audited separately.

    ``claims`` overrides the measure's declared claims at these options; ``lower``
    and ``upper`` override its bounds (``None``: undeclared); ``reason`` says why
    the verdicts differ from the default options.
    """

    options: Mapping[str, Any]
    claims: Mapping[Axiom, bool]
    reason: str
    lower: Any = "declared"
    upper: Any = "declared"


FD, MONO, BND, MAX, CORR = (Axiom.FULLY_DEFINED, Axiom.MONOTONICITY, Axiom.BOUNDS,
                            Axiom.MAXIMUM, Axiom.CORRECTION_FOR_CHANCE)

_EXACT = {"correction_for_chance": "exact"}
_MINUS_ONE = Bound("-1", value=-1.0)
_PAIR_EXACT = Variant(
    _EXACT, {CORR: True, MONO: False}, lower=_MINUS_ONE,
    reason="each pair's score phi becomes (phi - E[phi|H0]) / (1 - E[phi|H0]) with the exact "
           "hypergeometric expectation: the null expectation is 0 for every configuration and "
           "the values lie in [-1, 1]; the pair-dependent rescaling makes the value depend on "
           "how the intersections are spread, not only on the total variance")

#: Parameter values audited besides each measure's defaults, where the verdicts differ.
#: Every pairwise measure taking ``correction_for_chance`` (read from the registry) has
#: the exact per-pair correction.
VARIANTS: Mapping[str, Tuple[Variant, ...]] = {
    **{m.name: (_PAIR_EXACT,) for m in list_measures("pairwise")
       if "correction_for_chance" in m.parameter_names},
    "davis": (
        Variant({"penalty": 0.5}, {MAX: False},
                reason="with a penalty alpha > 0 identical rows score 1 - alpha median(k)/d "
                       "< 1, so they do not reach the maximum 1 (thesis Table 4.1's Davis)"),
        Variant(_EXACT, {CORR: True}, lower=_MINUS_ONE,
                reason="(Phi - E[Phi|H0]) / (1 - E[Phi|H0]) with the exact union-size law: "
                       "the null expectation is 0 for every configuration"),
    ),
    "novovicova": (
        Variant(_EXACT, {CORR: True}, lower=_MINUS_ONE,
                reason="(SH - E[SH|H0]) / (1 - E[SH|H0]) with Poisson-binomial column counts: "
                       "the null expectation is 0 for every configuration"),
    ),
}


def _label(name: str, options: Mapping[str, Any]) -> str:
    if not options:
        return name
    return name + "[" + ", ".join(f"{k}={v}" for k, v in options.items()) + "]"


def _bound_func(bound):
    return None if bound is None else bound.evaluate


def _registered_subject(info: MeasureInfo, variant: Optional[Variant] = None) -> Subject:
    options = dict(variant.options) if variant else {}
    claims = dict(info.claims)
    lower, upper = info.bounds
    if variant is not None:
        claims.update(variant.claims)
        lower = lower if variant.lower == "declared" else variant.lower
        upper = upper if variant.upper == "declared" else variant.upper
    constant = (None if lower is None or upper is None or not (lower.is_constant and
                                                              upper.is_constant)
                else (lower.value, upper.value))
    function = info.function
    contextual = {}
    names = {p.name for p in info.parameters} & set(_CONTEXT_PARAMETERS) - set(options)
    if names:
        contextual = dict(
            contexts=_context_strategy(names), reads=frozenset(names),
            evaluate_in=lambda Z, context: function(Z, **options,
                                                    **context.options(Z, names)),
            enumeration_limit=CONTEXT_ENUMERATION_LIMIT)
    return Subject(
        name=_label(info.name, options), evaluate=lambda Z: function(Z, **options),
        claims=claims, orientation=info.orientation, domain=info.domain,
        lower=_bound_func(lower), upper=_bound_func(upper), constant_bounds=constant,
        null_value=info.null_value, pairwise=info.family == "pairwise", symmetric=True,
        options=options, **contextual)


#: The options of a correlated measure whose values a search draws with each example: a
#: declaration holds for EVERY admissible similarity matrix and importance matrix.
_CONTEXT_PARAMETERS = ("similarity", "importances")
#: Tuples of subsets per exact null expectation when a similarity is drawn (the measure is
#: then not invariant under feature permutations, so no run is fixed by symmetry).
CONTEXT_ENUMERATION_LIMIT = 256


def _context_strategy(names):
    def contexts(M, d):
        return st.builds(
            Context,
            similarity=similarity_matrices(d) if "similarity" in names else st.none(),
            weights=importance_weights(M, d) if "importances" in names else st.none())
    return contexts


def _axiom(value) -> Axiom:
    if isinstance(value, Axiom):
        return value
    if isinstance(value, str):
        for a in Axiom:
            if value.lower() in (a.name.lower(), a.label):
                return a
    raise ValueError(f"claims: {value!r} is not an axiom; expected an Axiom or one of "
                     f"{', '.join(a.name for a in Axiom)}")


def _claims_mapping(claims) -> dict:
    if claims is None:
        return {a: False for a in Axiom}
    if isinstance(claims, Mapping):
        out = {a: False for a in Axiom}
        for key, value in claims.items():
            if not isinstance(value, bool):
                raise TypeError(f"claims: the value for {key!r} must be True or False; got "
                                f"{value!r}")
            out[_axiom(key)] = value
        return out
    if isinstance(claims, (str, Axiom)):
        claims = [claims]
    if isinstance(claims, bytes) or not isinstance(claims, Iterable):
        raise TypeError(f"claims: must be a mapping {{axiom: bool}} or an iterable of the "
                        f"claimed axioms; got {type(claims).__name__} {claims!r}")
    claimed = {_axiom(c) for c in claims}
    return {a: a in claimed for a in Axiom}


def _constant(name: str, x) -> Optional[Callable[..., float]]:
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"{name}: a bound must be a number (or None); got {type(x).__name__} "
                        f"{x!r}")
    return lambda M, d, k: float(x)


def subject(measure, *, options: Optional[Mapping[str, Any]] = None, claims=None,
            lower=None, upper=None, orientation: Optional[str] = None,
            domain: Optional[str] = None, null_value: Optional[float] = None,
            pairwise: Optional[bool] = None, symmetric: Optional[bool] = None) -> Subject:
    """What to audit: a registered measure (name or :class:`MeasureInfo`) at ``options``,
    or a user function ``f(Z) -> float`` taking a boolean ndarray.

    A user function's declaration comes from the keywords or from attributes of the
    function of the same names (``f.claims``, ``f.lower``, ``f.upper``,
    ``f.orientation``, ``f.domain``, ``f.null_value``, ``f.pairwise``,
    ``f.symmetric``), keywords first. ``claims`` is a mapping {Axiom or name: bool} or
    an iterable of the claimed axioms; unlisted axioms are disclaimed.
    ``pairwise=True`` states that f is the average of a pair score over pairs of runs,
    which makes exact null expectations available for any size; ``symmetric=True``
    that f is invariant under permutations of features and of runs, which lets exact
    enumeration fix one run (registered measures are both as their family says).

    Examples
    --------
    >>> from propstab.auditing import subject
    >>> subject("nogueira").claims[Axiom.BOUNDS]
    True
    >>> s = subject(lambda Z: float(Z.mean()), claims=["bounds"], lower=0, upper=1)
    >>> [a.name for a, c in s.claims.items() if c]
    ['BOUNDS']
    """
    if isinstance(measure, Subject):
        return measure
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options: must be a mapping of the measure's options; got "
                        f"{type(options).__name__} {options!r}")
    if isinstance(measure, str):
        measure = get_measure(measure)
    if isinstance(measure, MeasureInfo):
        if not options:
            return _registered_subject(measure)
        try:
            check_options(measure, dict(options))
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"options: {exc}") from None
        known = [v for v in VARIANTS.get(measure.name, ()) if dict(v.options) == dict(options)]
        return _registered_subject(measure, known[0] if known else
                                   Variant(dict(options), {}, reason="the default's claims"))
    if not callable(measure):
        raise TypeError(f"measure: must be a registered name, a MeasureInfo or a callable "
                        f"f(Z) -> float; got {type(measure).__name__} {measure!r}")

    def attr(name, given, default=None):
        return given if given is not None else getattr(measure, name, default)

    claims = _claims_mapping(attr("claims", claims))
    bounds = (attr("lower", lower), attr("upper", upper))
    orientation, domain = attr("orientation", orientation, "higher"), attr("domain", domain, "any")
    check_choice("orientation", orientation, ORIENTATIONS)
    check_choice("domain", domain, DOMAINS)
    return Subject(name=getattr(measure, "__name__", type(measure).__name__), evaluate=measure,
                   claims=claims, orientation=orientation, domain=domain,
                   lower=_constant("lower", bounds[0]), upper=_constant("upper", bounds[1]),
                   constant_bounds=None if None in bounds else tuple(map(float, bounds)),
                   null_value=(None if attr("null_value", null_value) is None else
                               check_real("null_value", attr("null_value", null_value))),
                   pairwise=check_bool("pairwise", attr("pairwise", pairwise, False)),
                   symmetric=check_bool("symmetric", attr("symmetric", symmetric, False)))


def _prepare(measure, options, claimed, axiom, max_examples, seed):
    check_int_range("max_examples", max_examples, minimum=1, owner=f"check_{axiom.name.lower()}")
    check_int_range("seed", seed, minimum=0, owner=f"check_{axiom.name.lower()}")
    s = subject(measure, options=options)
    claimed = check_bool("claimed", claimed, none=True)
    if claimed is not None:
        s = dataclasses.replace(s, claims={**s.claims, axiom: bool(claimed)})
    return s


def _matrix_text(Z: np.ndarray) -> str:
    return "[" + ", ".join("".join(str(int(x)) for x in row) for row in Z) + "]"


def _total_variance(Z: np.ndarray) -> Fraction:
    """sum_f s_f^2 = (N M - sum_f F_f^2) / (M (M - 1)), exactly."""
    M = Z.shape[0]
    F = Z.sum(axis=0).astype(np.int64)
    return Fraction(int(F.sum()) * M - int(np.dot(F, F)), M * (M - 1))


# ---------------------------------------------------------------- the five checks

def check_fully_defined(measure, *, options=None, claimed=None,
                        max_examples=DEFAULT_MAX_EXAMPLES, seed=0) -> CheckResult:
    """FULLY_DEFINED: a finite value, no warning and no exception on every Z whose
    row sizes lie in 1..d-1 (sizes may differ between rows).

    Parameters
    ----------
    measure : str, MeasureInfo or callable
        See :func:`subject`.
    options : mapping, optional
        The measure's options (e.g. ``{"penalty": 0.5}``).
    claimed : bool, optional
        Check this direction instead of the declared one.
    max_examples : int
    seed : int

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> from propstab.auditing import check_fully_defined
    >>> r = check_fully_defined("kuncheva", max_examples=20)
    >>> r.status, r.counterexample.astype(int).tolist()
    ('refuted', [[1, 0, 0], [1, 0, 1]])
    """
    s = _prepare(measure, options, claimed, FD, max_examples, seed)

    def probe(s, Z):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                v = float(s.evaluate(Z))
            except Exception as exc:        # any exception breaks FULLY_DEFINED
                return Found(Z, (), f"raises {type(exc).__name__}: {exc}")
        if caught:
            return Found(Z, (v,), f"warns {caught[0].category.__name__}: {caught[0].message}")
        if not math.isfinite(v):
            return Found(Z, (v,), f"value {v}")
        return None

    found = search_in_contexts(
        s, selection_matrices(subset_sizes="proper", max_runs=MAX_RUNS,
                              max_features=MAX_FEATURES),
        probe, np.shape, max_examples=max_examples, seed=seed,
        context_examples=_checks.CONTEXT_EXAMPLES[FD])
    return _verdict(s, FD, found, f"finite, without warning, on every searched Z with row "
                                  f"sizes in 1..d-1 ({max_examples} examples)")


def check_monotonicity(measure, *, options=None, claimed=None,
                       max_examples=DEFAULT_MAX_EXAMPLES, seed=0) -> CheckResult:
    """MONOTONICITY (strict): at fixed M, d and row sizes, the value is a strictly
    decreasing function of the total variance sum_f s_f^2.

    Pairs (Z1, Z2) with the same M, d and row sizes (:func:`propstab.strategies.matrix_pairs`)
    are searched for equal total variance with different values, or lower total
    variance without a strictly more stable value.

    Examples
    --------
    >>> from propstab.auditing import check_monotonicity
    >>> check_monotonicity("nogueira", max_examples=50).status
    'holds'
    """
    s = _prepare(measure, options, claimed, MONO, max_examples, seed)

    def probe(s, pair):
        Z1, Z2 = pair
        v1, v2 = _checks.assume_defined(s.value(Z1)), _checks.assume_defined(s.value(Z2))
        V1, V2 = _total_variance(Z1), _total_variance(Z2)
        if V1 == V2:
            if not close(v1, v2):
                return Found((Z1, Z2), (v1, v2), f"equal total variance {V1} but different "
                                                 f"values {v1:.6g} and {v2:.6g}")
            return None
        (Va, va), (Vb, vb) = sorted([(V1, v1), (V2, v2)])        # Va < Vb
        if not s.sign * (va - vb) > _checks.TOLERANCE * max(1.0, abs(va), abs(vb)):
            return Found((Z1, Z2), (v1, v2), f"total variances {V1} and {V2} but values "
                                             f"{v1:.6g} and {v2:.6g}: lower variance does "
                                             f"not give a strictly more stable value")
        return None

    found = search_in_contexts(
        s, matrix_pairs(subset_sizes=s.sizes, max_runs=MAX_RUNS, max_features=MAX_FEATURES),
        probe, lambda pair: pair[0].shape, max_examples=max_examples, seed=seed,
        examples=_checks.EQUAL_VARIANCE_PAIRS, context_examples=_checks.CONTEXT_EXAMPLES[MONO])
    return _verdict(s, MONO, found, f"strictly decreasing in the total variance on every "
                                    f"searched pair ({max_examples} examples)")


def _family_evidence(s: Subject):
    """A refuting family member for BOUNDS: a value outside constant declared bounds,
    or values diverging along a family."""
    families = [f for f in _checks.FAMILIES + (_checks.CONTEXT_FAMILIES if s.contexts else ())
                if f.constant_size or s.domain == "any"]
    for family in families:
        values = _checks.family_values(s, family)
        if s.constant_bounds is not None:
            lo, hi = s.constant_bounds
            for n, v in zip(_checks.FAMILY_SIZES, values):
                if not math.isnan(v) and not lo - 1e-12 <= v <= hi + 1e-12:
                    return _in_family(Found(family.build(n), (v,),
                                            f"value {v:.6g} outside the declared bounds "
                                            f"[{lo:g}, {hi:g}]"), family, n)
        if _checks.diverges(values):
            sizes = ", ".join(f"{v:.4g}" for v in values)
            n = _checks.FAMILY_SIZES[1]
            return _in_family(Found(family.build(n), values,
                                    f"unbounded along the family {family.name} "
                                    f"({family.text}): values at n = 2, 4, ..., 128: {sizes}"),
                              family, n)
    return None


def _in_family(found: Found, family, n: int) -> Found:
    """``found`` with the context of member n of ``family`` (if it has one)."""
    if family.context is not None:
        found.context = family.context(n)
    return found


def check_bounds(measure, *, options=None, claimed=None, max_examples=DEFAULT_MAX_EXAMPLES,
                 seed=0) -> CheckResult:
    """BOUNDS: constants lo <= hi with lo <= value <= hi on the measure's domain.

    Constructive families Z_n (n = 2, 4, ..., 128) come first: a refutation needs
    values that leave *every* interval, e.g. Wald's 1 - d (thesis App. B.3), which
    one matrix cannot show. Then a targeted Hypothesis search (``hypothesis.target``
    pushes the value to both extremes) for a value outside the declared constant
    bounds.

    Examples
    --------
    >>> from propstab.auditing import check_bounds
    >>> r = check_bounds("wald", max_examples=20)
    >>> r.status, r.values[:4]
    ('refuted', (-2.0, -4.0, -8.0, -16.0))
    """
    s = _prepare(measure, options, claimed, BND, max_examples, seed)
    if s.claims[BND] and s.constant_bounds is None and (s.lower or s.upper):
        return CheckResult(s.name, BND, True, "violated",
                           reason="the declared bounds depend on M, d or the sizes")
    found = _family_evidence(s)
    if found is None and s.constant_bounds is not None:
        lo, hi = s.constant_bounds

        def probe(s, Z):
            v = _checks.assume_defined(s.value(Z))
            _checks.target(v, "value")
            _checks.target(-v, "-value")
            if not lo - 1e-12 <= v <= hi + 1e-12:
                return Found(Z, (v,), f"value {v:.6g} outside the declared bounds "
                                      f"[{lo:g}, {hi:g}]")
            return None

        found = search_in_contexts(
            s, selection_matrices(subset_sizes=s.sizes, max_runs=MAX_RUNS,
                                  max_features=MAX_FEATURES),
            probe, np.shape, max_examples=max_examples, seed=seed)
    where = (f"within [{s.constant_bounds[0]:g}, {s.constant_bounds[1]:g}]"
             if s.constant_bounds else "no family diverges (no constant bounds declared)")
    return _verdict(s, BND, found, f"{where} on every searched Z ({max_examples} examples) "
                                   f"and along the constructive families")


def check_maximum(measure, *, options=None, claimed=None, max_examples=DEFAULT_MAX_EXAMPLES,
                  seed=0) -> CheckResult:
    """MAXIMUM: the value equals its declared maximum (the minimum when lower is more
    stable) if and only if all rows of Z are identical.

    Searched over identical rows, near-identical rows (one run differs by one
    feature) and general matrices, with ``hypothesis.target`` pushing non-identical
    matrices towards the maximum.

    Examples
    --------
    >>> from propstab.auditing import check_maximum
    >>> r = check_maximum("wald", max_examples=50)     # nested sets score 1
    >>> r.status, r.counterexample.astype(int).tolist()
    ('refuted', [[1, 1, 0], [1, 0, 0]])

    A correlated measure is checked for every similarity C (drawn with each example):
    different rows reach Hamer and Dupont's maximum when C links the swapped features.

    >>> r = check_maximum("msi", max_examples=20)
    >>> r.counterexample.astype(int).tolist(), str(r.context)
    ([[1, 0, 0], [0, 1, 0]], 'C = [[1, 1, 0], [1, 1, 0], [0, 0, 1]]')
    """
    s = _prepare(measure, options, claimed, MAX, max_examples, seed)
    maximum = None
    if s.upper is None and s.lower is None:
        reference = s.value(np.array([[True, False], [True, False]]))
        if math.isnan(reference):
            return CheckResult(s.name, MAX, s.claims[MAX], "skipped",
                               reason="no declared maximum and the value on identical rows "
                                      "[10, 10] is undefined")
        maximum = lambda Z: reference                           # noqa: E731

    def probe(s, Z):
        v = _checks.assume_defined(s.value(Z))
        m = s.maximum(Z) if maximum is None else maximum(Z)
        if (Z == Z[0]).all():
            if not close(v, m):
                return Found(Z, (v, m), f"identical rows but value {v:.6g} != declared "
                                        f"maximum {m:.6g}")
            return None
        _checks.target(s.sign * v, "value")
        if close(v, m) or s.sign * (v - m) > 0:
            return Found(Z, (v, m), f"rows differ but the value {v:.6g} reaches the declared "
                                    f"maximum {m:.6g}")
        return None

    kw = dict(subset_sizes=s.sizes, max_runs=MAX_RUNS, max_features=MAX_FEATURES)
    strategy = st.one_of(
        identical_rows(**kw), near_identical_rows(**kw), selection_matrices(**kw))
    found = search_in_contexts(s, strategy, probe, np.shape, max_examples=max_examples,
                               seed=seed, examples=_checks.MAXIMUM_EXAMPLES,
                               context_examples=_checks.CONTEXT_EXAMPLES[MAX])
    return _verdict(s, MAX, found, f"the declared maximum is reached exactly on identical "
                                   f"rows on every searched Z ({max_examples} examples)")


_REFERENCE_CONFIGS = tuple(NullConfiguration(2, d, (k, k)) for d, k in
                           ((2, 1), (3, 1), (4, 2), (5, 2)))


def check_correction_for_chance(measure, *, options=None, claimed=None,
                                max_examples=DEFAULT_MAX_EXAMPLES, seed=0) -> CheckResult:
    """CORRECTION_FOR_CHANCE: E[value | H0] is the same constant for every M, d and
    k_1..k_M (thesis Definition 2: run i draws a uniform random subset of size k_i).

    Every expectation is exact: for a pairwise measure, the mean over pairs of
    E[phi | k_i, k_j, d] with the hypergeometric law of the intersection
    (:func:`propstab.chance.expected_pairwise`; the pair score is read off the measure
    on two-run matrices); otherwise the exact mean over all prod_i C(d, k_i) tuples of
    subsets (configurations small enough to enumerate). The reference constant is the
    declared null value when claimed, else the expectation of the smallest defined
    configuration. A measure on a constant-size domain is checked with constant sizes.

    Examples
    --------
    Thesis Table 4.1 claims it for Guzman's measure; exact expectations refute it (the
    registry follows the evidence and disclaims it, so the status is "refuted"):

    >>> from propstab.auditing import check_correction_for_chance
    >>> r = check_correction_for_chance("guzman", max_examples=10)
    >>> r.status, r.counterexample
    ('refuted', NullConfiguration(n_runs=2, n_features=3, row_sizes=(1, 1)))
    >>> for e in r.expectations:
    ...     print(e)
    E[value | M=2, d=3, k=[1, 1]] = 0.57938 (exact: enumeration of 3 tuples of subsets,
    one run fixed by symmetry)
    E[value | M=2, d=2, k=[1, 1]] = 0.5 (exact: enumeration of 2 tuples of subsets, one
    run fixed by symmetry)
    """
    s = _prepare(measure, options, claimed, CORR, max_examples, seed)
    caches: dict = {}
    memo: dict = {}

    def expectation(config, bound=s):
        # a drawn context (C, importance weights) is part of the key; weights belong to
        # runs, so the order of the sizes then matters too
        sizes = (tuple(config.row_sizes) if bound.context is not None
                 else tuple(sorted(config.row_sizes)))
        context = None if bound.context is None else bound.context.key()
        key = (config.n_features, sizes, context)
        if key not in memo:
            memo[key] = _checks.null_expectation(bound, config, caches.setdefault(context, {}))
        return memo[key]

    reference = s.null_value if s.claims[CORR] else None
    ref_exp = None
    if reference is None:
        candidates = [c for c in _REFERENCE_CONFIGS if s.domain == "any" or
                      len(set(c.row_sizes)) == 1]
        for config in candidates:
            ref_exp = expectation(config)
            if ref_exp is not None:
                reference = ref_exp.value
                break
        if reference is None:
            return CheckResult(s.name, CORR, s.claims[CORR], "skipped",
                               reason="no exact null expectation is defined on the small "
                                      "reference configurations")
    seen = []

    def probe(bound, config):
        e = expectation(config, bound)
        _checks.assume(e is not None)
        if len(seen) < 6 and all(x != e for x in seen):
            seen.append(e)
        _checks.target(abs(e.value - reference), "distance")
        if not close(e.value, reference):
            what = (f"the declared null value {reference:g}" if ref_exp is None else
                    f"{reference:.6g} at M={ref_exp.n_runs}, d={ref_exp.n_features}, "
                    f"k={list(ref_exp.row_sizes)}")
            return Found(config, (e.value, reference), f"E[value | H0] = {e.value:.6g} at "
                                                       f"M={config.n_runs}, "
                                                       f"d={config.n_features}, "
                                                       f"k={list(config.row_sizes)} differs "
                                                       f"from {what}")
        return None

    examples = max_examples if s.pairwise else max(10, max_examples // 8)
    found = search_in_contexts(s, _checks.configurations_strategy(s), probe,
                               lambda c: (c.n_runs, c.n_features), max_examples=examples,
                               seed=seed, context_examples=_checks.CONTEXT_EXAMPLES[CORR])
    refs = (ref_exp,) if ref_exp is not None else ()
    if isinstance(found, Found):
        bound = s if found.context is None else s.bind(found.context)
        return _verdict(s, CORR, found, "",
                        expectations=(expectation(found.example, bound), *refs))
    constant = (f"the declared null value {reference:g}" if ref_exp is None
                else f"{reference:.6g}")
    return _verdict(s, CORR, found, f"E[value | H0] = {constant} exactly on every searched "
                                    f"configuration ({examples} examples)",
                    expectations=(*refs, *seen))


CHECKS: Mapping[Axiom, Callable[..., CheckResult]] = {
    FD: check_fully_defined, MONO: check_monotonicity, BND: check_bounds,
    MAX: check_maximum, CORR: check_correction_for_chance,
}


# ---------------------------------------------------------------- the table

_MARKS = {"holds": "✓", "violated": "!", "refuted": "✗", "unrefuted": "?", "skipped": "-"}


class _MissingRow(KeyError, ValueError):
    """No row of an audit table for a measure and an axiom (a KeyError, as a lookup, and a
    ValueError, as every argument error of propstab)."""

    def __str__(self) -> str:
        return str(self.args[0])


class AuditTable:
    """The audit's rows: one :class:`CheckResult` per (measure, axiom).

    ``repr`` is one line with the counts per status; ``str`` (and ``print``) show
    :meth:`summary`: measures as rows and axioms as columns with a mark per cell
    (✓ claimed and holds, ! claimed but violated, ✗ disclaimed and refuted,
    ? disclaimed but unrefuted, - skipped) and numbered footnotes with the
    counterexamples. :meth:`to_frame` and :meth:`to_json` export the rows.

    Examples
    --------
    >>> from propstab import audit
    >>> table = audit("kuncheva", max_examples=20)
    >>> table
    AuditTable(n_measures=1, n_rows=5, holds=4, violated=0, refuted=1, unrefuted=0,
               skipped=0)
    >>> print(table.summary().splitlines()[2])
    kuncheva  ✗[1]           ✓             ✓       ✓        ✓
    """

    def __init__(self, rows: Sequence[CheckResult]):
        self.rows: Tuple[CheckResult, ...] = tuple(rows)

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def measures(self) -> Tuple[str, ...]:
        return tuple(dict.fromkeys(r.measure for r in self.rows))

    def result(self, measure: str, axiom) -> CheckResult:
        """The row of ``measure`` (its label, e.g. ``"davis[penalty=0.5]"``) and ``axiom``."""
        try:
            axiom = _axiom(axiom)
        except ValueError as exc:
            raise ValueError(f"axiom: {str(exc).partition(': ')[2]}") from None
        if not isinstance(measure, str):
            raise TypeError(f"measure: must be a measure's label (str); got "
                            f"{type(measure).__name__} {measure!r}")
        for r in self.rows:
            if r.measure == measure and r.axiom is axiom:
                return r
        raise _MissingRow(f"measure, axiom: no row for {measure!r} and {axiom.name} in this "
                          f"audit; measures: {', '.join(self.measures)}")

    def status(self, measure: str, axiom) -> str:
        """The status of one cell."""
        return self.result(measure, axiom).status

    @property
    def disagreements(self) -> Tuple[CheckResult, ...]:
        """Rows whose declaration is contradicted (violated)."""
        return tuple(r for r in self.rows if r.status == "violated")

    def to_frame(self):
        """The rows as a pandas DataFrame."""
        import pandas as pd
        return pd.DataFrame([r.to_dict() for r in self.rows])

    def to_json(self, **kwargs) -> str:
        """The rows as a JSON array."""
        return json.dumps([r.to_dict() for r in self.rows], ensure_ascii=False, **kwargs)

    def __repr__(self) -> str:
        counts = {status: 0 for status in _MARKS}
        for r in self.rows:
            counts[r.status] += 1
        return call_repr("AuditTable", n_measures=len(self.measures), n_rows=len(self.rows),
                         **counts)

    def __str__(self) -> str:
        return str(self.summary())          # a plain str, not the Summary subclass

    def summary(self) -> Summary:
        """The marks table (one line per measure, one column per axiom), its legend and
        a footnote per counterexample or skipped check.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        heads = ["measure", *[a.label for a in Axiom]]
        body, notes = [], []
        for m in self.measures:
            cells = []
            for a in Axiom:
                try:
                    r = self.result(m, a)
                except KeyError:
                    cells.append("")
                    continue
                mark = _MARKS[r.status]
                if r.status in ("violated", "refuted", "skipped"):
                    notes.append(_footnote(len(notes) + 1, r))
                    mark += f"[{len(notes)}]"
                cells.append(mark)
            body.append([m, *cells])
        legend = ["", "✓ claimed, holds   ! claimed, VIOLATED   ✗ not claimed, refuted   "
                      "? not claimed, unrefuted   - skipped", ""]
        variants = [f"{_label(name, v.options)}: {v.reason}" for name, vs in VARIANTS.items()
                    for v in vs if _label(name, v.options) in self.measures]
        if variants:
            notes += ["", "Parameter variants (claims differ from the defaults):", *variants]
        return summary(None, table=(heads, body), notes=legend + notes)


def _footnote(i: int, r: CheckResult) -> str:
    ce = r.counterexample
    if isinstance(ce, np.ndarray):
        where = f" Z = {_matrix_text(ce)}"
    elif isinstance(ce, tuple) and len(ce) == 2 and isinstance(ce[0], np.ndarray):
        where = f" Z1 = {_matrix_text(ce[0])}, Z2 = {_matrix_text(ce[1])}"
    else:
        where = ""
    if r.context is not None:
        where += f" with {r.context}"
    return f"[{i}] {r.measure}, {r.axiom.label}:{where} -- {r.reason}"


# ---------------------------------------------------------------- audit

_DECLARATION_KEYWORDS = frozenset({"claims", "lower", "upper", "orientation", "domain",
                                   "null_value", "pairwise", "symmetric"})


def audited_subjects(measures=None, **declaration) -> list:
    """The :class:`Subject` rows an audit covers: each registered measure at its default
    options and at its :data:`VARIANTS`, or user functions with ``declaration``.

    Parameters
    ----------
    measures : None, str, MeasureInfo, callable, or a list of them
        As for :func:`audit`.
    **declaration
        For a callable, as for :func:`subject`.

    Returns
    -------
    list of Subject

    Examples
    --------
    >>> from propstab.auditing import audited_subjects
    >>> [s.name for s in audited_subjects("jaccard")]
    ['jaccard', 'jaccard[correction_for_chance=exact]']
    """
    unknown = sorted(set(declaration) - _DECLARATION_KEYWORDS)
    if unknown:
        raise TypeError(f"{unknown[0]}: not a declaration keyword (those of a function: "
                        f"{', '.join(sorted(_DECLARATION_KEYWORDS))}); got "
                        f"{', '.join(f'{k}=' for k in unknown)}")
    if measures is None:
        measures = list_measures()
    elif isinstance(measures, (str, MeasureInfo)) or callable(measures):
        measures = [measures]
    elif isinstance(measures, (bytes, Mapping)) or not isinstance(measures, Iterable):
        raise TypeError(f"measures: must be a measure name, a MeasureInfo, a function "
                        f"f(Z) -> float or a list of them; got {type(measures).__name__} "
                        f"{measures!r}")
    out = []
    for m in measures:
        if not isinstance(m, (str, MeasureInfo)) and not callable(m):
            raise TypeError(f"measures: every item must be a measure name, a MeasureInfo or "
                            f"a function f(Z) -> float; got {type(m).__name__} {m!r}")
        if isinstance(m, str):
            try:
                m = get_measure(m)
            except ValueError as exc:
                raise ValueError(f"measures: {str(exc).partition(': ')[2]}") from None
        if isinstance(m, MeasureInfo):
            if declaration:
                key = sorted(declaration)[0]
                raise TypeError(f"{key}: a declaration is given for a function only; "
                                f"{m.name!r} is registered and its declaration is its "
                                f"registry entry; got {key}={declaration[key]!r}")
            out.append(_registered_subject(m))
            out.extend(_registered_subject(m, v) for v in VARIANTS.get(m.name, ()))
        else:
            out.append(subject(m, **declaration))
    return out


def audit(measures=None, *, max_examples: int = DEFAULT_MAX_EXAMPLES, seed: int = 0,
          axioms: Optional[Iterable] = None, **declaration) -> AuditTable:
    """Check every declared axiom of stability measures.

    Parameters
    ----------
    measures : None, str, MeasureInfo, callable, or a list of them
        ``None``: every registered measure, each at its default options and at the
        parameter values of :data:`VARIANTS`. A callable ``f(Z) -> float`` (Z a
        boolean ndarray) is audited without being registered.
    max_examples : int, default 200
        Hypothesis examples per check.
    seed : int, default 0
        The audit is reproducible for a fixed seed.
    axioms : iterable of Axiom or names, optional
        Only these axioms.
    **declaration
        For a callable: ``claims``, ``lower``, ``upper``, ``orientation``, ``domain``,
        ``null_value``, ``pairwise``, ``symmetric`` (see :func:`subject`).

    Returns
    -------
    AuditTable

    Examples
    --------
    >>> import propstab
    >>> def coverage(Z):                    # the mean selection frequency (Goh's measure)
    ...     return float(Z.mean())
    >>> table = propstab.audit(coverage, claims=["bounds"], lower=0, upper=1,
    ...                        max_examples=30)
    >>> [table.status("coverage", a) for a in ("bounds", "maximum", "correction")]
    ['holds', 'refuted', 'refuted']
    """
    max_examples = check_int_range("max_examples", max_examples, minimum=1, owner="audit")
    seed = check_int_range("seed", seed, minimum=0, owner="audit")
    if axioms is not None and (isinstance(axioms, (bytes, Mapping))
                               or not isinstance(axioms, Iterable)):
        raise TypeError(f"axioms: must be an iterable of axioms or their names; got "
                        f"{type(axioms).__name__} {axioms!r}")
    try:
        chosen = list(Axiom) if axioms is None else [_axiom(a) for a in (
            [axioms] if isinstance(axioms, (str, Axiom)) else axioms)]
    except ValueError as exc:
        raise ValueError(f"axioms: {str(exc).partition(': ')[2]}") from None
    rows = []
    for s in audited_subjects(measures, **declaration):
        for a in chosen:
            rows.append(CHECKS[a](s, max_examples=max_examples, seed=seed))
    return AuditTable(rows)


def load_function(spec: str) -> Callable[[np.ndarray], float]:
    """The function named by ``"path/to/file.py:function"`` (for ``propstab audit``).

    Parameters
    ----------
    spec : str
        ``"path/to/file.py:function"``; the file is executed as a module.

    Returns
    -------
    callable

    Raises
    ------
    ValueError
        When ``spec`` is not of that form, the file does not exist, has a syntax error,
        fails while being imported (e.g. a missing module) or does not define a callable
        of that name; the message names the file.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from propstab.auditing import load_function
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "mine.py"
    ...     _ = path.write_text("def coverage(Z):\\n    return float(Z.mean())\\n")
    ...     load_function(f"{path}:coverage").__name__
    'coverage'
    >>> load_function("mine.txt:coverage")
    Traceback (most recent call last):
    ...
    ValueError: target: must be 'path/to/file.py:function'; got 'mine.txt:coverage'
    """
    import importlib.util
    import pathlib

    path, sep, name = str(spec).rpartition(":")
    if not sep or not path.endswith(".py") or not name.isidentifier():
        raise ValueError(f"target: must be 'path/to/file.py:function'; got {spec!r}")
    file = pathlib.Path(path)
    if not file.is_file():
        raise ValueError(f"target: no such file {path!r}")
    module_spec = importlib.util.spec_from_file_location(f"_propstab_audit_{file.stem}", file)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise ValueError(f"target: {path!r} has a syntax error at line {exc.lineno}: "
                         f"{exc.msg}") from None
    except (Exception, SystemExit) as exc:   # the user's module failed (or exited) on import
        raise ValueError(f"target: importing {path!r} failed: {type(exc).__name__}: "
                         f"{' '.join(str(exc).split())}") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise ValueError(f"target: {path!r} defines no function {name!r}")
    return function
