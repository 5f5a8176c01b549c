"""The declaration types of the measure registry: what a measure states about itself.

:class:`Bound`, :class:`Parameter`, :class:`Declaration` (claims, bounds, orientation,
domain, null value: the audit's input), :class:`Variant` (option values whose claims
differ), :class:`MeasureInfo` (a registry entry, the whole contract) and :func:`claims`
(the five axiom claims, by keyword). The R metadata (:class:`~propstab.registry.RReference`)
is in :mod:`propstab.registry._r_metadata`; :func:`~propstab.registry.register` and the lookup in
:mod:`propstab.registry._registry`. The documented home of all of them is :mod:`propstab.registry`.
"""
from __future__ import annotations

import dataclasses
import inspect
import math
import types
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence, Tuple

import numpy as np

from .._utils.checks import check_choice, fail
from ..axioms import Axiom

if TYPE_CHECKING:  # annotations only: no import at run time
    from ._r_metadata import RReference

__all__ = [
    "Bound",
    "Declaration",
    "MeasureInfo",
    "Parameter",
    "Variant",
    "as_axiom",
    "claims",
    "const_bound",
    "DOMAINS",
    "FAMILIES",
    "INPUTS",
    "ORIENTATIONS",
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


def const_bound(x: float) -> Bound:
    """The constant bound ``x`` (printed ``inf``/``-inf`` for infinities)."""
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
    if isinstance(b, (np.generic, np.ndarray)) and np.ndim(b) == 0 and b.dtype.kind in "iuf":
        b = b.item()  # a NumPy number (np.int64(0), np.float32(1), np.array(0.5))
    if isinstance(b, bool) or not isinstance(b, (int, float)):
        fail(
            f"{name}: must be a number, a Bound or None; got {type(b).__name__} " f"{b!r}",
            TypeError,
        )
    if math.isnan(b):
        fail(f"{name}: must be a number, a Bound or None, not nan; got {b!r}")
    return const_bound(float(b))


def as_axiom(value, argument: str = "claims") -> Axiom:
    """``value`` as an :class:`Axiom`: the member itself, its name or its label (any case);
    ValueError naming ``argument`` otherwise."""
    if isinstance(value, Axiom):
        return value
    if isinstance(value, str):
        for a in Axiom:
            if value.lower() in (a.name.lower(), a.label):
                return a
    fail(
        f"{argument}: {value!r} is not an axiom; expected an Axiom or one of "
        f"{', '.join(a.name for a in Axiom)}"
    )


def _as_claims(claims) -> "dict[Axiom, bool]":
    """Every axiom decided: a mapping {Axiom or name: bool} (unlisted: False), an iterable
    of the claimed axioms, or None (nothing claimed)."""
    if claims is None:
        return {a: False for a in Axiom}
    if isinstance(claims, Mapping):
        out = {a: False for a in Axiom}
        for key, value in claims.items():
            if not isinstance(value, bool):
                fail(
                    f"claims: the value for {key!r} must be True or False; got "
                    f"{type(value).__name__} {value!r}",
                    TypeError,
                )
            out[as_axiom(key)] = value
        return out
    if isinstance(claims, (str, Axiom)):
        claims = [claims]
    if isinstance(claims, bytes) or not isinstance(claims, Iterable):
        fail(
            f"claims: must be a mapping {{axiom: bool}} or an iterable of the "
            f"claimed axioms; got {type(claims).__name__} {claims!r}",
            TypeError,
        )
    claimed = {as_axiom(c) for c in claims}
    return {a: a in claimed for a in Axiom}


@dataclasses.dataclass(frozen=True)
class Declaration:
    """What a measure declares about itself: the input of the axiom audit.

    The one declaration type: a registered measure's (``MeasureInfo.declaration``), a
    variant's (:meth:`Variant.declaration`) and a user function's
    (:meth:`Declaration.of`) are all of this type.

    Parameters
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
        :math:`E[\\hat\\Phi \\mid H_0]`, for a measure claiming correction for chance.
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

    See Also
    --------
    propstab.registry.register : Builds a registered measure's declaration.
    propstab.registry.claims : The claims, axiom by axiom.
    propstab.audit : Checks a declaration against the measure.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 4 (the five properties) and Table 4.1.

    Examples
    --------
    >>> from propstab import get_measure
    >>> from propstab.registry import Declaration
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

    def bounds_at(self, n_runs: int, n_features: int, row_sizes) -> tuple:
        """``(lower, upper)`` evaluated for matrices of this shape and these row sizes
        (None where undeclared); an inverted pair (lower > upper: a bound depending on M,
        d or the sizes, which the declaration could not compare) is refused here, at its
        first evaluation, naming ``lower`` and both values.

        >>> from propstab.registry import Bound, Declaration
        >>> d = Declaration(claims={}, lower=Bound("M", func=lambda M, d, k: M), upper=1)
        >>> d.bounds_at(1, 3, [1])
        (1.0, 1.0)
        >>> d.bounds_at(2, 3, [1, 1])
        Traceback (most recent call last):
        ...
        propstab.InvalidParameterError: lower: must be at most upper (the declared bounds of
        the measure's values); at M = 2, d = 3 and row sizes [1, 1] got lower=M = 2 > upper=1
        = 1
        """
        sizes = [int(k) for k in np.asarray(row_sizes).ravel()]
        values = []
        for side, b in (("lower", self.lower), ("upper", self.upper)):
            try:
                values.append(None if b is None else b.evaluate(n_runs, n_features, row_sizes))
            except Exception as exc:  # noqa: BLE001 - the declared bound's own error, named
                fail(
                    f"{side}: the declared bound {b} could not be evaluated at M = "
                    f"{n_runs}, d = {n_features} and row sizes {sizes}: "
                    f"{type(exc).__name__}: {exc}"
                )
        lo, hi = values
        if lo is not None and hi is not None and lo > hi:
            fail(
                f"lower: must be at most upper (the declared bounds of the measure's "
                f"values); at M = {n_runs}, d = {n_features} and row sizes {sizes} got "
                f"lower={self.lower} = {lo:g} > upper={self.upper} = {hi:g}"
            )
        return lo, hi

    def __post_init__(self):
        claims = self.claims
        if (
            not isinstance(claims, Mapping)
            or set(claims) != set(Axiom)
            or any(not isinstance(v, bool) for v in claims.values())
        ):
            claims = _as_claims(claims)
        object.__setattr__(self, "claims", types.MappingProxyType(dict(claims)))
        object.__setattr__(self, "lower", _as_bound(self.lower, "lower"))
        object.__setattr__(self, "upper", _as_bound(self.upper, "upper"))
        bounds = self.constant_bounds
        if bounds is not None and bounds[0] > bounds[1]:
            fail(
                f"lower: must be at most upper (the declared bounds of the measure's "
                f"values); got lower={self.lower} > upper={self.upper}"
            )
        for argument, value, allowed in (
            ("orientation", self.orientation, ORIENTATIONS),
            ("domain", self.domain, DOMAINS),
            ("input", self.input, INPUTS),
        ):
            check_choice(argument, value, allowed)  # an array or a list too: named
        if self.null_value is not None and (
            isinstance(self.null_value, bool)
            or not isinstance(self.null_value, (int, float))
            or not math.isfinite(self.null_value)
        ):
            fail(
                f"null_value: must be a finite number or None; got " f"{self.null_value!r}",
                TypeError,
            )

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
            fail(
                f"{unknown[0]}: not a declaration keyword (unexpected "
                f"keyword(s) {', '.join(unknown)}); known: "
                f"{', '.join(sorted(fields))}",
                TypeError,
            )
        values = {}
        for name in fields:
            value = given.get(name)
            if value is None:
                value = getattr(function, name, None)
            if value is not None:
                values[name] = value
        for name in ("pairwise", "symmetric"):
            if name in values and not isinstance(values[name], bool):
                fail(
                    f"{name}: must be True or False; got "
                    f"{type(values[name]).__name__} {values[name]!r}",
                    TypeError,
                )
        values.setdefault("claims", None)  # nothing claimed
        return cls(**values)

    def replace(self, **changes) -> "Declaration":
        """A copy with some fields changed (``claims`` may be a partial mapping that
        overrides the claims of those axioms only)."""
        if "claims" in changes and isinstance(changes["claims"], Mapping):
            changes["claims"] = {
                **self.claims,
                **{as_axiom(k): v for k, v in changes["claims"].items()},
            }
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
class MeasureInfo:
    """The registry entry of one stability measure: its whole contract.

    Entries are created by :func:`propstab.registry.register` at a measure's
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
            fail(
                f"measure: {self.name!r} has no R reference in the registry "
                f"(measures with one: see propstab.list_measures())"
            )
        if label is None:
            return refs[0]
        for ref in refs:
            if str(ref) == label:
                return ref
        fail(
            f"reference: {self.name!r} is cross-checked against "
            f"{', '.join(repr(str(r)) for r in refs)}; got {label!r}"
        )

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
        return (
            f"MeasureInfo(name={self.name!r}, family={self.family!r}, "
            f"claims={marks}, bounds=[{self.bounds[0]}, {self.bounds[1]}])"
        )


#: The keywords of :func:`claims`, in the order of thesis Table 4.1 (and of :class:`Axiom`).
CLAIM_KEYWORDS = tuple(a.name.lower() for a in Axiom)


def claims(*positional, **decided) -> "dict[Axiom, bool]":
    """The five axiom claims of a declaration, each decided by keyword.

    Every axiom must be decided explicitly, True (claimed) or False (disclaimed); there are
    no defaults, so that a declaration cannot claim or disclaim a property by omission.
    Positional values are refused: five booleans in a row were easy to misorder.

    Parameters
    ----------
    fully_defined : bool
        A finite value for every Z whose row sizes are in 1..d-1 (``Axiom.FULLY_DEFINED``).
    monotonicity : bool
        A strictly decreasing function of the total variance at fixed M, d and row sizes.
    bounds : bool
        Constant finite bounds (claimed exactly when ``register``'s ``lower`` and ``upper``
        are finite constants).
    maximum : bool
        The declared maximum is reached if and only if all runs are identical.
    correction_for_chance : bool
        :math:`E[\\hat\\Phi \\mid H_0]` is the same constant (``register``'s ``null_value``)
        for every M, d and row sizes.

    Returns
    -------
    dict of Axiom to bool
        Every axiom decided, in the order of :class:`~propstab.Axiom`.

    Raises
    ------
    TypeError
        If a value is given positionally (the message names the keyword it would have
        been), a keyword is missing or unknown, or a value is not True or False.

    See Also
    --------
    propstab.registry.register : Takes the claims as ``claims=``.
    propstab.Axiom : The five properties and their formal statements.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 4 and Table 4.1 (the five properties, in this order).

    Examples
    --------
    >>> from propstab.registry import claims
    >>> c = claims(fully_defined=True, monotonicity=True, bounds=True, maximum=True,
    ...            correction_for_chance=False)
    >>> [a.name for a, claimed in c.items() if not claimed]
    ['CORRECTION_FOR_CHANCE']
    >>> claims(True, True, True, True, False)
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: fully_defined: claims(...) takes each axiom by keyword
    (fully_defined=..., monotonicity=..., bounds=..., maximum=..., correction_for_chance=...);
    got 5 positional value(s): (True, True, True, True, False)
    """
    spelled = ", ".join(f"{k}=..." for k in CLAIM_KEYWORDS)
    if positional:
        fail(
            f"{CLAIM_KEYWORDS[0]}: claims(...) takes each axiom by keyword "
            f"({spelled}); got {len(positional)} positional value(s): "
            f"{positional!r}",
            TypeError,
        )
    unknown = [k for k in decided if k not in CLAIM_KEYWORDS]
    if unknown:
        fail(
            f"{unknown[0]}: not an axiom of claims(...); the keywords are "
            f"{', '.join(CLAIM_KEYWORDS)}",
            TypeError,
        )
    missing = [k for k in CLAIM_KEYWORDS if k not in decided]
    if missing:
        fail(
            f"{missing[0]}: claims(...) decides every axiom explicitly; missing "
            f"{', '.join(missing)} (pass True or False for each of {spelled})",
            TypeError,
        )
    for keyword in CLAIM_KEYWORDS:
        value = decided[keyword]
        if not isinstance(value, bool):
            fail(
                f"{keyword}: must be True or False; got " f"{type(value).__name__} {value!r}",
                TypeError,
            )
    return {a: decided[a.name.lower()] for a in Axiom}


claims.__signature__ = inspect.Signature(
    [
        inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, annotation=bool)
        for k in CLAIM_KEYWORDS
    ],
    return_annotation="dict[Axiom, bool]",
)
