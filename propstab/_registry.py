"""The one registry of stability measures.

Every measure is declared once, at its definition, by :func:`register`. The docs
table, the CLI, the tests, the axiom audit, inference and the R bridge all read the
:class:`MeasureInfo` entries returned by :func:`list_measures`; nothing else keeps a
table keyed by a measure's name.

A registry entry is a measure's whole contract:

- its value: the decorated function, or a *kernel* (an object with
  ``value(name, sel, **options)`` and ``leave_one_out(sel, **options)``) that computes the
  value and its M leave-one-run-out values from one formula (the jackknife's input);
- its :class:`Declaration` (claimed axioms, bounds, orientation, domain, null value),
  which is also the audit's input, and its :class:`Variant` s (option values whose
  claims differ from the defaults);
- ``analytic_variance`` where a closed-form variance applies (thesis Thm 6);
- ``scale``, the interpretation scale of its values (thesis Table 6.1) where one applies;
- its :class:`RReference`, with the known R-side differences (:class:`ExpectedDifference`).
"""
from __future__ import annotations

import dataclasses
import difflib
import functools
import inspect
import math
import textwrap
import types
from collections.abc import Iterable
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple

from ._exceptions import undefined
from ._validation import as_input, check_matrix_options, check_options
from .axioms import Axiom

__all__ = [
    "Bound",
    "Declaration",
    "ExpectedDifference",
    "MeasureInfo",
    "Parameter",
    "RDefault",
    "RReference",
    "get_measure",
    "list_measures",
    "register",
    "Variant",
    "as_axiom",
]

FAMILIES = ("pairwise", "frequency", "correlated", "ranking")
ORIENTATIONS = ("higher", "lower")
DOMAINS = ("any", "constant_size")
#: What a measure reads: a 0/1 selection matrix, or a rank matrix (the ranking family).
INPUTS = ("selection", "ranking")


@dataclasses.dataclass(frozen=True)
class Bound:
    """A lower or upper bound of a measure.

    ``value`` is the constant when the bound does not depend on the data's shape;
    otherwise ``value`` is ``None`` and ``func(n_runs, n_features, row_sizes)``
    evaluates it. ``text`` is the printed form, e.g. ``"-1"`` or ``"1 - d"``.

    Parameters
    ----------
    text : str
        The printed form of the bound, as in the measure catalogue.
    value : float, optional
        The constant bound; None when the bound depends on M, d or the row sizes.
    func : callable, optional
        ``func(n_runs, n_features, row_sizes) -> float`` for a bound that depends on
        the shape (used when ``value`` is None).

    See Also
    --------
    propstab.MeasureInfo : A registry entry; ``bounds`` holds its two bounds.
    propstab.auditing.check_bounds : Checks a measure's values against its bounds.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 4.2.3 (Bounds) and Table 4.1.

    Examples
    --------
    >>> from propstab import get_measure
    >>> lower, upper = get_measure("kuncheva").bounds
    >>> lower.is_constant, lower.value, str(upper)
    (True, -1.0, '1')
    >>> upper = get_measure("krizek").bounds[1]   # depends on M, d and the sizes
    >>> str(upper), upper.evaluate(4, 10, [3, 3, 3, 3])
    ('log2(min(M, C(d, k)))', 2.0)
    """

    text: str
    value: Optional[float] = None
    func: Optional[Callable[..., float]] = None

    @property
    def is_constant(self) -> bool:
        """True when the bound is a constant independent of M, d and the sizes."""
        return self.value is not None

    def evaluate(self, n_runs: int, n_features: int, row_sizes: Sequence[int]) -> float:
        """The bound's value for matrices of this shape and these row sizes."""
        if self.value is not None:
            return float(self.value)
        return float(self.func(n_runs, n_features, row_sizes))

    def __str__(self) -> str:
        return self.text


def _const(x: float) -> Bound:
    text = {math.inf: "inf", -math.inf: "-inf"}.get(x, f"{x:g}")
    return Bound(text=text, value=float(x))


@dataclasses.dataclass(frozen=True)
class Parameter:
    """A keyword option of a measure (e.g. Davis's ``penalty``).

    The registry checks every call's options against these declarations (choices,
    minimum) before the measure runs, and the docs and ``propstab measures`` print them.

    Parameters
    ----------
    name : str
        The keyword's name.
    default : object
        Its default value.
    description : str
        What the option does.
    choices : tuple, optional
        The allowed values; None when any value of the right type is allowed.
    minimum : float, optional
        The smallest allowed value of a numeric option.

    See Also
    --------
    propstab.MeasureInfo : A registry entry; ``parameters`` lists its options.
    propstab.RDefault : The R reference's default of an option, where it differs.

    References
    ----------
    Davis, C. A. et al. (2006). Reliable gene signatures for microarray classification:
    assessment of stability and performance. Bioinformatics 22(19), 2356-2363 (the
    penalty option of the example).

    Examples
    --------
    >>> from propstab import get_measure
    >>> penalty = get_measure("davis").parameters[0]
    >>> penalty.name, penalty.default, penalty.minimum
    ('penalty', 0.0, 0.0)
    """

    name: str
    default: Any
    description: str
    choices: Optional[Tuple[Any, ...]] = None
    minimum: Optional[float] = None


def _as_bound(b, name: str = "bound") -> Optional[Bound]:
    if b is None or isinstance(b, Bound):
        return b
    if isinstance(b, bool) or not isinstance(b, (int, float)):
        raise TypeError(f"{name}: must be a number, a Bound or None; got {type(b).__name__} "
                        f"{b!r}")
    return _const(float(b))


def as_axiom(value, argument: str = "claims") -> Axiom:
    """``value`` as an :class:`Axiom`: the member itself, its name or its label (any case);
    ValueError naming ``argument`` otherwise."""
    if isinstance(value, Axiom):
        return value
    if isinstance(value, str):
        for a in Axiom:
            if value.lower() in (a.name.lower(), a.label):
                return a
    raise ValueError(f"{argument}: {value!r} is not an axiom; expected an Axiom or one of "
                     f"{', '.join(a.name for a in Axiom)}")


def _as_claims(claims) -> "dict[Axiom, bool]":
    """Every axiom decided: a mapping {Axiom or name: bool} (unlisted: False), an iterable
    of the claimed axioms, or None (nothing claimed)."""
    if claims is None:
        return {a: False for a in Axiom}
    if isinstance(claims, Mapping):
        out = {a: False for a in Axiom}
        for key, value in claims.items():
            if not isinstance(value, bool):
                raise TypeError(f"claims: the value for {key!r} must be True or False; got "
                                f"{type(value).__name__} {value!r}")
            out[as_axiom(key)] = value
        return out
    if isinstance(claims, (str, Axiom)):
        claims = [claims]
    if isinstance(claims, bytes) or not isinstance(claims, Iterable):
        raise TypeError(f"claims: must be a mapping {{axiom: bool}} or an iterable of the "
                        f"claimed axioms; got {type(claims).__name__} {claims!r}")
    claimed = {as_axiom(c) for c in claims}
    return {a: a in claimed for a in Axiom}


@dataclasses.dataclass(frozen=True)
class Declaration:
    """What a measure declares about itself: the input of the axiom audit.

    The one declaration type: a registered measure's (``MeasureInfo.declaration``), a
    variant's (:meth:`Variant.declaration`) and a user function's
    (:meth:`Declaration.of`) are all of this type.

    Attributes
    ----------
    claims : mapping of Axiom to bool
        Every axiom decided.
    lower, upper : Bound or None
        Declared bounds (None: undeclared).
    orientation : {"higher", "lower"}
        ``"higher"`` when a higher value means more stable.
    domain : {"any", "constant_size"}
        ``"constant_size"``: defined only when every run selects the same number of
        features.
    null_value : float or None
        E[value | H0], for a measure claiming correction for chance.
    pairwise : bool
        The value is the mean of a pair score over pairs of runs (exact null
        expectations are then available for any size).
    symmetric : bool
        The value is invariant under permutations of the features and of the runs
        (exact enumeration may then fix one run).
    input : {"selection", "ranking"}
        What the measure reads: a 0/1 selection matrix Z, or a rank matrix R (midranks,
        :func:`propstab.as_rankings`). The audit checks the axioms' statements for that
        input (:meth:`Axiom.statement_for`) on matrices of that kind.

    Examples
    --------
    >>> from propstab import get_measure
    >>> from propstab._registry import Declaration
    >>> get_measure("nogueira").declaration.claimed_axioms
    (Axiom.FULLY_DEFINED, Axiom.MONOTONICITY, Axiom.BOUNDS, Axiom.MAXIMUM)
    >>> def coverage(Z):
    ...     return float(Z.mean())
    >>> coverage.claims = ["bounds"]
    >>> Declaration.of(coverage, lower=0, upper=1).constant_bounds
    (0.0, 1.0)
    """

    claims: Mapping[Axiom, bool]
    lower: Optional[Bound] = None
    upper: Optional[Bound] = None
    orientation: str = "higher"
    domain: str = "any"
    null_value: Optional[float] = None
    pairwise: bool = False
    symmetric: bool = False
    input: str = "selection"

    def __post_init__(self):
        claims = self.claims
        if not isinstance(claims, Mapping) or set(claims) != set(Axiom) or any(
                not isinstance(v, bool) for v in claims.values()):
            claims = _as_claims(claims)
        object.__setattr__(self, "claims", types.MappingProxyType(dict(claims)))
        object.__setattr__(self, "lower", _as_bound(self.lower, "lower"))
        object.__setattr__(self, "upper", _as_bound(self.upper, "upper"))
        for argument, value, allowed in (("orientation", self.orientation, ORIENTATIONS),
                                         ("domain", self.domain, DOMAINS),
                                         ("input", self.input, INPUTS)):
            if value not in allowed:
                raise ValueError(f"{argument}: must be one of {', '.join(map(repr, allowed))}; "
                                 f"got {value!r}")
        if self.null_value is not None and (isinstance(self.null_value, bool) or not isinstance(
                self.null_value, (int, float)) or not math.isfinite(self.null_value)):
            raise TypeError(f"null_value: must be a finite number or None; got "
                            f"{self.null_value!r}")

    @classmethod
    def of(cls, function, **given) -> "Declaration":
        """The declaration of a user function: each field from the keyword of that name,
        else from the function's attribute of that name (``f.claims``, ``f.lower``,
        ``f.upper``, ``f.orientation``, ``f.domain``, ``f.null_value``, ``f.pairwise``,
        ``f.symmetric``, ``f.input``), else the default (nothing claimed, no bounds, a
        selection matrix as input)."""
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(given) - fields)
        if unknown:
            raise TypeError(f"{unknown[0]}: not a declaration keyword (unexpected "
                            f"keyword(s) {', '.join(unknown)}); known: "
                            f"{', '.join(sorted(fields))}")
        values = {}
        for name in fields:
            value = given.get(name)
            if value is None:
                value = getattr(function, name, None)
            if value is not None:
                values[name] = value
        for name in ("pairwise", "symmetric"):
            if name in values and not isinstance(values[name], bool):
                raise TypeError(f"{name}: must be True or False; got "
                                f"{type(values[name]).__name__} {values[name]!r}")
        values.setdefault("claims", None)          # nothing claimed
        return cls(**values)

    def replace(self, **changes) -> "Declaration":
        """A copy with some fields changed (``claims`` may be a partial mapping that
        overrides the claims of those axioms only)."""
        if "claims" in changes and isinstance(changes["claims"], Mapping):
            changes["claims"] = {**self.claims, **{as_axiom(k): v
                                                   for k, v in changes["claims"].items()}}
        return dataclasses.replace(self, **changes)

    @property
    def bounds(self) -> "Tuple[Optional[Bound], Optional[Bound]]":
        return (self.lower, self.upper)

    @property
    def constant_bounds(self) -> "Optional[Tuple[float, float]]":
        """``(lo, hi)`` when both bounds are declared constants, else None."""
        if self.lower is None or self.upper is None:
            return None
        if not (self.lower.is_constant and self.upper.is_constant):
            return None
        return (self.lower.value, self.upper.value)

    @property
    def claimed_axioms(self) -> Tuple[Axiom, ...]:
        return tuple(a for a in Axiom if self.claims[a])

    @property
    def disclaimed_axioms(self) -> Tuple[Axiom, ...]:
        return tuple(a for a in Axiom if not self.claims[a])


_DECLARED = "declared"


@dataclasses.dataclass(frozen=True)
class Variant:
    """Option values of a registered measure whose declaration differs from the
    defaults' (audited as a row of its own).

    ``claims`` overrides the claims of the axioms it lists; ``lower`` and ``upper``
    replace the bounds (``None``: undeclared; the default keeps the measure's);
    ``reason`` says why the verdicts differ.

    Parameters
    ----------
    options : mapping of str to object
        The option values, e.g. ``{"correction_for_chance": "exact"}``.
    claims : mapping of Axiom to bool
        The claims that differ from the measure's (the other axioms keep theirs).
    reason : str
        Why the claims differ.
    lower, upper : Bound, float or None, optional
        Replacement bounds (None: undeclared); by default the measure's bounds.

    See Also
    --------
    propstab.MeasureInfo : A registry entry; ``variants`` lists its variants.
    propstab.audit : Audits each variant as a row of its own.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 4 (the five properties) and Table 4.1.

    Examples
    --------
    >>> from propstab import get_measure
    >>> variant = get_measure("jaccard").variants[0]
    >>> variant.label
    'correction_for_chance=exact'
    >>> [a.name for a, c in variant.claims.items() if c]
    ['CORRECTION_FOR_CHANCE']
    """

    options: Mapping[str, Any]
    claims: Mapping[Axiom, bool]
    reason: str
    lower: Any = _DECLARED
    upper: Any = _DECLARED

    def declaration(self, base: Declaration) -> Declaration:
        """``base`` with this variant's changes."""
        changes: dict = {"claims": dict(self.claims)}
        if self.lower is not _DECLARED and self.lower != _DECLARED:
            changes["lower"] = self.lower
        if self.upper is not _DECLARED and self.upper != _DECLARED:
            changes["upper"] = self.upper
        return base.replace(**changes)

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.options.items())


@dataclasses.dataclass(frozen=True)
class ExpectedDifference:
    """A documented difference between propstab and its R reference.

    Defined once, beside the measures it concerns, and attached to the
    :class:`RReference` of each of them (``RReference(..., differences=(...))``).

    Parameters
    ----------
    key : str
        Short identifier, used in reports and tests.
    r_functions : tuple of str
        The R functions, ``package::function``.
    summary : str
        One line.
    reason : str
        Why the values differ, and which side follows the definition.
    example : str
        A minimal example, as R code.
    r_result, propstab_result : str
        What R and propstab give on the example.
    applies : callable or None
        ``applies(measure, sel, options) -> bool`` for a case (the measure's name, a
        validated Selection and the measure's full options); None when the bridge
        never produces such a case.

    See Also
    --------
    propstab.RReference : Lists the differences of one R reference.
    propstab.crosscheck : Counts the cases under each difference.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1.

    Examples
    --------
    >>> from propstab.r import EXPECTED_DIFFERENCES
    >>> difference = EXPECTED_DIFFERENCES[0]
    >>> difference.key, difference.measures
    ('nan_not_na', ('wald', 'cwrel'))
    >>> difference.r_functions
    ('stabm::stabilityWald', 'stabm::stabilitySomol')
    """

    key: str
    r_functions: Tuple[str, ...]
    summary: str
    reason: str
    example: str
    r_result: str
    propstab_result: str
    applies: Optional[Callable[..., bool]] = None

    @property
    def measures(self) -> Tuple[str, ...]:
        """The registered measures whose R reference lists this difference (by key)."""
        return tuple(m.name for m in _REGISTRY.values()
                     if any(e.key == self.key for ref in m.r_references
                            for e in ref.differences))

    def applying(self, applies: Callable[..., bool]) -> "ExpectedDifference":
        """The same difference with the predicate of one measure (a difference shared
        by measures whose cases fall under it under different conditions)."""
        return dataclasses.replace(self, applies=applies)

    def as_dict(self) -> "dict":
        d = {"key": self.key, "measures": self.measures}
        d.update((f.name, getattr(self, f.name)) for f in dataclasses.fields(self)
                 if f.name not in ("key", "applies"))
        return d


@dataclasses.dataclass(frozen=True)
class RDefault:
    """The R reference's default of an option, where it differs from propstab's.

    ``value`` is R's default spelled as the propstab option value that reproduces
    it (e.g. ``0.9`` for stabm's ``threshold = 0.9``); ``reason`` says why
    propstab's default is another one.

    Parameters
    ----------
    value : object
        R's default, as the propstab option value that reproduces it.
    reason : str
        Why propstab's default differs.

    See Also
    --------
    propstab.RReference : The R function whose defaults these are.
    propstab.r.r_default_options : A measure's options at the R reference's defaults.

    References
    ----------
    Bommert, A. (2020). stabm: Stability Measures for Feature Selection. R package
    (the documented defaults, e.g. ``stabilitySechidis(threshold = 0.9)``).

    Examples
    --------
    >>> from propstab import get_measure
    >>> get_measure("sechidis").r_reference.defaults["threshold"].value
    0.9
    """

    value: Any
    reason: str


@dataclasses.dataclass(frozen=True)
class RReference:
    """The R function computing the same quantity, and how to call it.

    ``arguments`` maps a propstab option name to the R argument name; ``values``
    maps (option, propstab value) to the R value where they are spelled
    differently. ``input`` says what the R function takes (``"stabm"``: a list of
    integer vectors of 1-based indices plus ``p``; ``"ratings"``: irr's d x M matrix
    of ratings, features as subjects in rows and runs as raters in columns, the
    value being the result's ``$value``). ``fixed`` holds R arguments passed with
    the same value on every call (e.g. ``{"exact": True}`` for irr's exact kappa).
    ``defaults`` maps an option to
    the R function's default (:class:`RDefault`) where it differs from the
    measure's own default; the docstring, ``propstab measures`` and
    ``propstab crosscheck`` (which compares at R's defaults) read it.
    ``needs_p``: False when the R function's ``p`` (d) is optional because the value
    does not depend on d (stabm's ``p = NULL``; needed only for a chance correction).
    ``input="ranks"`` (the ranking family): the reference is base R code, ``r_code``, an
    R function of the M x d matrix of midranks (and of the R arguments of the options)
    returning the value, written with the R function ``package::function`` it rests on
    (e.g. the mean over pairs of runs of ``stats::cor(t(R), method = "spearman")``).

    Parameters
    ----------
    package : str
        The R package, e.g. ``"stabm"``.
    function : str
        The R function, e.g. ``"stabilityNogueira"``.
    arguments : mapping of str to str, optional
        propstab option name to R argument name.
    values : mapping of (str, object) to object, optional
        (option, propstab value) to R value where they are spelled differently.
    input : {"stabm", "ratings", "ranks"}, optional
        What the R function takes (see above).
    note : str, optional
        A remark printed with the reference.
    differences : tuple of ExpectedDifference, optional
        The known, documented differences from propstab.
    defaults : mapping of str to RDefault, optional
        R's defaults where they differ from the measure's.
    needs_p : bool, optional
        Whether the R function needs ``p`` (the number of features d).
    fixed : mapping of str to object, optional
        R arguments passed with the same value on every call.
    r_code : str, optional
        For ``input="ranks"``: the R function computing the value.

    See Also
    --------
    propstab.crosscheck : Compares every measure with its R references.
    propstab.r.call_reference : Calls a measure's R reference on a selection matrix.
    propstab.r.ExpectedDifference : A documented difference between propstab and R.

    References
    ----------
    Bommert, A. (2020). stabm: Stability Measures for Feature Selection. R package.
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1.

    Examples
    --------
    >>> from propstab import get_measure
    >>> [str(ref) for ref in get_measure("nogueira").r_references]
    ['stabm::stabilityNogueira', 'irr::kappam.fleiss']
    """

    package: str
    function: str
    arguments: Mapping[str, str] = dataclasses.field(default_factory=dict)
    values: Mapping[Tuple[str, Any], Any] = dataclasses.field(default_factory=dict)
    input: str = "stabm"
    note: str = ""
    differences: Tuple[ExpectedDifference, ...] = ()
    defaults: Mapping[str, RDefault] = dataclasses.field(default_factory=dict)
    needs_p: bool = True
    fixed: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    r_code: str = ""

    def default_differences(self, parameters: Sequence["Parameter"]) -> "list[dict]":
        """One dict per option whose R default differs: option, R's and propstab's
        default (as propstab values) and the reason, in the order of ``parameters``."""
        return [{"option": p.name, "r_default": self.defaults[p.name].value,
                 "propstab_default": p.default, "reason": self.defaults[p.name].reason}
                for p in parameters if p.name in self.defaults]

    def __str__(self) -> str:
        return f"{self.package}::{self.function}"


@dataclasses.dataclass(frozen=True)
class MeasureInfo:
    """The registry entry of one stability measure: its whole contract.

    Entries are created by :func:`propstab._registry.register` at a measure's
    definition; read them with :func:`propstab.get_measure` and
    :func:`propstab.list_measures`. Calling an entry calls the measure.

    Parameters
    ----------
    name : str
        Registry name, e.g. ``"nogueira"``.
    function : callable
        The public function ``f(Z, /, *, n_features=None, feature_names=None, **options)``.
    family : {"pairwise", "frequency", "correlated", "ranking"}
    summary : str
        One-line formula.
    references : tuple of str
    declaration : Declaration
        Claimed axioms, bounds, orientation, domain, null value (read also through the
        properties ``claims``, ``bounds``, ``orientation``, ``domain``, ``null_value``).
    parameters : tuple of Parameter
    r_reference : RReference or None
        With the known R-side differences (``r_reference.differences``).
    r_also : tuple of RReference
        Further independent R implementations of the same value, cross-checked too
        (nogueira: irr's Fleiss kappa, thesis Thm 5); ``r_references`` lists all.
    aliases : tuple of str
    notes : str
        Where propstab's declaration departs from a source, and why.
    kernel : object or None
        Computes the value and its M leave-one-run-out values from one formula
        (``kernel.value(name, sel, **options)``, ``kernel.leave_one_out(sel, **options)``,
        the latter None where the options give no fast path). None: the jackknife
        recomputes the measure M times.
    analytic_variance : callable or None
        ``analytic_variance(sel, statistic) -> (variance, terms, factor)``: a closed-form
        variance (thesis Thm 6) where one applies. Its attribute ``source`` names it in
        printouts; ``default`` (True when absent) says whether ``estimate(method="auto")``
        uses it, False where the jackknife covers better (``conger``).
    variants : tuple of Variant
        Option values audited separately because their claims differ.
    scale : tuple of (float, str) or None
        The interpretation scale of the values: ``(upper end, label)`` bands
        (thesis Table 6.1 for kappa-like measures); None where no scale applies.

    See Also
    --------
    propstab.get_measure : The entry of one measure, by name or alias.
    propstab.list_measures : Every entry, in registration order.
    propstab.audit : Checks the entry's declared claims and bounds.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Tables 3.1, 3.2 (the measures) and 4.1 (their properties).
    Bommert, A. (2020). stabm: Stability Measures for Feature Selection. R package
    (``listStabilityMeasures()``, the table this registry extends).

    Examples
    --------
    >>> from propstab import get_measure
    >>> info = get_measure("nogueira")
    >>> info.family, [a.name for a in info.disclaimed_axioms]
    ('frequency', ['CORRECTION_FOR_CHANCE'])
    >>> round(info([[1, 1, 0], [1, 0, 1]]), 4)
    -0.5
    """

    name: str
    function: Callable[..., float]
    family: str
    summary: str
    references: Tuple[str, ...]
    declaration: Declaration
    parameters: Tuple[Parameter, ...] = ()
    r_reference: Optional[RReference] = None
    r_also: Tuple[RReference, ...] = ()
    aliases: Tuple[str, ...] = ()
    notes: str = ""
    kernel: Any = None
    analytic_variance: Optional[Callable[..., Any]] = None
    variants: Tuple[Variant, ...] = ()
    scale: Optional[Tuple[Tuple[float, str], ...]] = None

    @property
    def claims(self) -> Mapping[Axiom, bool]:
        return self.declaration.claims

    @property
    def r_references(self) -> Tuple[RReference, ...]:
        """Every R implementation the measure is cross-checked against: ``r_reference``
        first, then ``r_also``."""
        return (() if self.r_reference is None else (self.r_reference,)) + self.r_also

    def r_reference_named(self, label: Optional[str] = None) -> RReference:
        """The R reference ``label`` (``"package::function"``; None: ``r_reference``).

        Raises ValueError naming ``reference`` when the measure has no such reference.
        """
        refs = self.r_references
        if not refs:
            raise ValueError(f"measure: {self.name!r} has no R reference in the registry "
                             f"(measures with one: see propstab.list_measures())")
        if label is None:
            return refs[0]
        for ref in refs:
            if str(ref) == label:
                return ref
        raise ValueError(f"reference: {self.name!r} is cross-checked against "
                         f"{', '.join(repr(str(r)) for r in refs)}; got {label!r}")

    @property
    def bounds(self) -> Tuple[Bound, Bound]:
        return self.declaration.bounds

    @property
    def orientation(self) -> str:
        return self.declaration.orientation

    @property
    def domain(self) -> str:
        return self.declaration.domain

    @property
    def null_value(self) -> Optional[float]:
        return self.declaration.null_value

    @property
    def input(self) -> str:
        """What the measure reads: ``"selection"`` (Z) or ``"ranking"`` (a rank matrix)."""
        return self.declaration.input

    def claimed(self, axiom: Axiom) -> bool:
        """Whether the measure claims ``axiom``."""
        return self.claims[axiom]

    @property
    def claimed_axioms(self) -> Tuple[Axiom, ...]:
        return self.declaration.claimed_axioms

    @property
    def disclaimed_axioms(self) -> Tuple[Axiom, ...]:
        return self.declaration.disclaimed_axioms

    @property
    def parameter_names(self) -> Tuple[str, ...]:
        return tuple(p.name for p in self.parameters)

    def __call__(self, Z, /, **options) -> float:
        return self.function(Z, **options)

    def __repr__(self) -> str:
        marks = "".join("Y" if self.claims[a] else "-" for a in Axiom)
        return (f"MeasureInfo(name={self.name!r}, family={self.family!r}, "
                f"claims={marks}, bounds=[{self.bounds[0]}, {self.bounds[1]}])")


_REGISTRY: "dict[str, MeasureInfo]" = {}
_ALIASES: "dict[str, str]" = {}


def _bound(b) -> Bound:
    if isinstance(b, Bound):
        return b
    if isinstance(b, (int, float)):
        return _const(float(b))
    raise TypeError(f"register: a bound must be a number or a Bound; got {b!r}")


def _properties_table(info: MeasureInfo) -> str:
    rows = [(a.label, "claimed" if info.claims[a] else "not claimed") for a in Axiom]
    w = max(len(r[0]) for r in rows)
    v = max(len(r[1]) for r in rows)
    line = "=" * w + " " + "=" * v
    body = "\n".join(f"{a:<{w}} {c}" for a, c in rows)
    extra = [f"Bounds: [{info.bounds[0]}, {info.bounds[1]}]; higher is "
             f"{'more' if info.orientation == 'higher' else 'less'} stable; "
             f"domain: {'constant subset size only' if info.domain == 'constant_size' else 'any R' if info.input == 'ranking' else 'any Z'}."]
    if info.r_reference is not None:
        extra.append(f"R reference: ``{info.r_reference}``"
                     + "".join(f"; also ``{ref}``" for ref in info.r_also) + ".")
        diffs = info.r_reference.default_differences(info.parameters)
        if diffs:
            extra.append(f"Where {info.r_reference.package}'s defaults differ from propstab's: "
                         + "; ".join(default_difference_text(d, info.r_reference.package)
                                     for d in diffs)
                         + ". ``propstab crosscheck`` compares at "
                         + f"{info.r_reference.package}'s defaults where they are "
                           "deterministic.")
    return ("\n\nDeclared properties (generated from the registry)\n"
            "-------------------------------------------------\n"
            f"{line}\n{'axiom':<{w}} {'declaration':<{v}}\n{line}\n{body}\n{line}\n\n"
            + "\n".join(extra) + "\n")


def default_difference_text(diff: Mapping[str, Any], package: str = "stabm") -> str:
    """``"threshold = 0.9 in stabm, None in propstab (reason)"`` for one entry of
    :meth:`RReference.default_differences`."""
    return (f"{diff['option']} = {diff['r_default']!r} in {package}, "
            f"{diff['propstab_default']!r} in propstab ({diff['reason']})")


def _check_r_defaults(name: str, parameters: Sequence[Parameter],
                      ref: Optional[RReference]) -> None:
    if ref is None or not ref.defaults:
        return
    declared = {p.name: p for p in parameters}
    for option, r_default in ref.defaults.items():
        where = f"register({name!r}): r_reference.defaults[{option!r}]"
        if not isinstance(r_default, RDefault):
            raise TypeError(f"{where}: must be an RDefault(value, reason); got {r_default!r}")
        if option not in declared:
            raise ValueError(f"{where}: not an option of the measure; options: "
                             f"{', '.join(declared) or 'none'}")
        if option not in ref.arguments:
            raise ValueError(f"{where}: the option has no R argument in r_reference.arguments")
        if r_default.value == declared[option].default:
            raise ValueError(f"{where}: R's default {r_default.value!r} equals propstab's; "
                             f"declare only defaults that differ")
        if not r_default.reason:
            raise ValueError(f"{where}: give the reason for the difference")


#: numpydoc's section order (the sections a measure's docstring may have).
_SECTION_ORDER = ("Parameters", "Returns", "Raises", "Warns", "See Also", "Notes",
                  "References", "Examples")


def _split_sections(doc: str):
    """(preamble lines, {title: lines}) of a numpydoc docstring, its body dedented."""
    lines = textwrap.dedent("\n".join(doc.splitlines()[1:])).splitlines()
    head, sections, current = [doc.splitlines()[0].strip()] if doc else [], {}, None
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() and nxt.strip() and set(nxt.strip()) == {"-"} \
                and len(nxt.strip()) == len(line.strip()):
            current = line.strip()
            sections[current] = []
            i += 2
            continue
        (sections[current] if current else head).append(line)
        i += 1
    return head, sections


def _complete_docstring(doc: str, info: "MeasureInfo") -> str:
    """A measure's docstring with the sections every public function has (numpydoc),
    written from the registry where the author left them out: Raises (the input
    contract), See Also (the entry points that take the measure by name) and References
    (the registry entry's ``references``)."""
    head, sections = _split_sections(doc or "")
    reads = "propstab.as_rankings" if info.input == "ranking" else "propstab.as_selection"
    generated = {
        "Raises": ["ValueError, TypeError",
                   "    Invalid input or options: the message names the argument, the rule "
                   "and the value",
                   f"    (the input rules are :func:`{reads}`'s)."],
        "See Also": ["propstab.stability : Any registered measure by name.",
                     "propstab.estimate : The value with its variance and confidence interval.",
                     "propstab.get_measure : The registry entry (claims, bounds, R reference)."],
        "References": [line for i, ref in enumerate(info.references, 1)
                       for line in textwrap.wrap(ref, 84, initial_indent=f".. [{i}] ",
                                                 subsequent_indent="   ")],
    }
    for title, lines in generated.items():
        if title not in sections and lines:
            sections[title] = lines + [""]
    order = [t for t in _SECTION_ORDER if t in sections]
    order += [t for t in sections if t not in _SECTION_ORDER]
    body = list(head[1:])
    for title in order:
        if body and body[-1].strip():
            body.append("")
        body += [title, "-" * len(title), *sections[title]]
    text = "\n".join(line.rstrip() for line in body).rstrip()
    return head[0] + "\n" + textwrap.indent(text, "    ") + "\n    " if head else doc


def _with_table(doc: str, table: str) -> str:
    """``doc`` with ``table`` appended at the indentation of the docstring's body (so that
    ``help()`` and numpydoc read one consistently indented text)."""
    body = [line for line in doc.splitlines()[1:] if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in body), default=0)
    return doc.rstrip() + textwrap.indent(table, " " * indent) + " " * indent


def register(*, name: str, family: str, summary: str, references: Sequence[str],
             claims: Mapping[Axiom, bool], lower, upper, orientation: str = "higher",
             domain: str = "any", null_value: Optional[float] = None,
             parameters: Sequence[Parameter] = (), r_reference: Optional[RReference] = None,
             r_also: Sequence[RReference] = (),
             aliases: Sequence[str] = (), notes: str = "", variants: Sequence[Variant] = (),
             analytic_variance: Optional[Callable[..., Any]] = None,
             scale: Optional[Sequence[Tuple[float, str]]] = None,
             pairwise: Optional[bool] = None):
    """Declare a measure. Decorates ``core(selection, **options) -> float``, or a kernel.

    A kernel is an object with ``value(name, selection, **options) -> float`` and
    ``leave_one_out(selection, **options)`` (see :mod:`propstab.measures.kernels`):
    the value and its leave-one-run-out values then come from one formula.

    The decorated name becomes the public function: it accepts ``Z`` in every
    supported form (validated once by :func:`propstab._validation.as_selection`; for
    the ranking family, the rank matrix ``R`` by :func:`propstab.as_rankings`),
    checks the options against ``parameters``, returns NaN with an
    :class:`~propstab.UndefinedMeasureWarning` outside a constant-size domain, and
    returns a Python float.
    """
    missing = [a for a in Axiom if a not in claims]
    if missing or any(not isinstance(v, bool) for v in claims.values()):
        raise ValueError(f"register({name!r}): claims must decide every axiom with True/False; "
                         f"undecided: {[a.name for a in missing]}")
    if family not in FAMILIES:
        raise ValueError(f"register({name!r}): family must be one of "
                         f"{', '.join(map(repr, FAMILIES))}; got {family!r}")
    input = "ranking" if family == "ranking" else "selection"
    declaration = Declaration(claims=claims, lower=_bound(lower), upper=_bound(upper),
                              orientation=orientation, domain=domain, null_value=null_value,
                              pairwise=pairwise if pairwise is not None else family == "pairwise",
                              symmetric=True, input=input)

    if r_also and r_reference is None:
        raise ValueError(f"register({name!r}): r_also needs an r_reference first")
    for ref in (r_reference, *r_also):
        if ref is not None:
            _check_r_defaults(name, parameters, ref)

    def decorator(core):
        param_tuple = tuple(parameters)
        kernel = core if hasattr(core, "leave_one_out") else None
        compute = (functools.partial(kernel.value, name) if kernel is not None else core)

        @functools.wraps(core)
        def public(Z, /, *, n_features=None, feature_names=None, **options) -> float:
            sel = as_input(input, Z, n_features=n_features, feature_names=feature_names,
                           owner=name)
            opts = check_options(info, options)
            if domain == "constant_size" and sel.common_size() is None:
                check_matrix_options(sel, opts)        # invalid input raises, even here
                sizes = sel.row_sizes
                return undefined(name, f"it is defined only for a constant subset size and "
                                       f"the row sizes vary (min {int(sizes.min())}, "
                                       f"max {int(sizes.max())})")
            return float(compute(sel, **opts))

        first = "R" if input == "ranking" else "Z"
        params = [inspect.Parameter(first, inspect.Parameter.POSITIONAL_ONLY),
                  inspect.Parameter("n_features", inspect.Parameter.KEYWORD_ONLY, default=None),
                  inspect.Parameter("feature_names", inspect.Parameter.KEYWORD_ONLY, default=None)]
        params += [inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default)
                   for p in param_tuple]
        public.__signature__ = inspect.Signature(params, return_annotation=float)

        info = MeasureInfo(
            name=name, function=public, family=family, summary=summary,
            references=tuple(references), declaration=declaration, parameters=param_tuple,
            r_reference=r_reference, r_also=tuple(r_also), aliases=tuple(aliases), notes=notes, kernel=kernel,
            analytic_variance=analytic_variance, variants=tuple(variants),
            scale=None if scale is None else tuple(scale))
        for key in (name, *aliases):
            if key in _REGISTRY or key in _ALIASES:
                raise ValueError(f"register: the name {key!r} is already registered")
        _REGISTRY[name] = info
        for alias in aliases:
            _ALIASES[alias] = name
        public.__doc__ = _with_table(_complete_docstring(core.__doc__ or "", info),
                                     _properties_table(info))
        public.info = info
        public.core = compute
        return public

    return decorator


def module_doctests(module_name: str) -> "dict[str, str]":
    """Docstrings of the measures registered from ``module_name``, for ``__test__``.

    The public functions are wrappers built here, so doctest's finder would not
    attribute them to their defining module; each family module exposes them via
    ``__test__ = module_doctests(__name__)``.
    """
    return {m.name: m.function.__doc__ for m in _REGISTRY.values()
            if m.function.__module__ == module_name}


def list_measures(family: Optional[str] = None) -> "list[MeasureInfo]":
    """All registered measures, in registration order.

    Parameters
    ----------
    family : {"pairwise", "frequency", "correlated", "ranking"}, optional
        Restrict to one family.

    Returns
    -------
    list of MeasureInfo
        The registry entries, in registration order (aliases are not repeated).

    Raises
    ------
    ValueError
        If ``family`` is not one of the four families (the message names ``family``).

    See Also
    --------
    propstab.get_measure : The entry of one measure, by name or alias.
    propstab.stability : Computes a registered measure by name.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Tables 3.1 and 3.2 (the measures of the literature).

    Examples
    --------
    >>> import propstab
    >>> infos = propstab.list_measures()
    >>> "nogueira" in [m.name for m in infos]
    True
    >>> [m.name for m in propstab.list_measures("ranking")][:2]
    ['spearman', 'kendall']
    """
    if family is not None and family not in FAMILIES:
        raise ValueError(f"list_measures: family must be one of {FAMILIES}; got {family!r}")
    return [m for m in _REGISTRY.values() if family is None or m.family == family]


def get_measure(name: str) -> MeasureInfo:
    """The registry entry for ``name`` (an alias resolves to its measure).

    Parameters
    ----------
    name : str
        A registered measure's name or one of its aliases (``"somol"`` is ``"cwrel"``).

    Returns
    -------
    MeasureInfo
        The measure's registry entry.

    Raises
    ------
    TypeError
        If ``name`` is not a str.
    ValueError
        If no measure has that name or alias; the message suggests close names.

    See Also
    --------
    propstab.list_measures : Every entry, in registration order.
    propstab.stability : Computes a registered measure by name.

    References
    ----------
    Somol, P., Novovicova, J. (2010). Evaluating stability and comparing output of
    feature selectors that optimize feature subset cardinality. IEEE TPAMI 32(11),
    1921-1939 (CW_rel, registered as ``cwrel`` with the alias ``somol``).

    Examples
    --------
    >>> from propstab import get_measure
    >>> get_measure("somol").name
    'cwrel'
    """
    if not isinstance(name, str):
        raise TypeError(f"measure: must be a measure name (str); got {type(name).__name__} {name!r}")
    key = _ALIASES.get(name, name)
    if key not in _REGISTRY:
        known = sorted([*_REGISTRY, *_ALIASES])
        close = difflib.get_close_matches(name, known, n=3)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        raise ValueError(f"measure: {name!r} is not a registered measure.{hint} "
                         f"Known: {', '.join(known)}")
    return _REGISTRY[key]
