"""The one registry of stability measures.

Every measure is declared once, at its definition, by :func:`register`. The docs
table, the CLI, the tests, the axiom audit and the R bridge all read the
:class:`MeasureInfo` entries returned by :func:`list_measures`.
"""
from __future__ import annotations

import dataclasses
import difflib
import functools
import inspect
import math
import types
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple

from .axioms import Axiom

__all__ = [
    "Bound",
    "MeasureInfo",
    "Parameter",
    "RDefault",
    "RReference",
    "get_measure",
    "list_measures",
    "register",
]

FAMILIES = ("pairwise", "frequency", "correlated")
ORIENTATIONS = ("higher", "lower")
DOMAINS = ("any", "constant_size")


@dataclasses.dataclass(frozen=True)
class Bound:
    """A lower or upper bound of a measure.

    ``value`` is the constant when the bound does not depend on the data's shape;
    otherwise ``value`` is ``None`` and ``func(n_runs, n_features, row_sizes)``
    evaluates it. ``text`` is the printed form, e.g. ``"-1"`` or ``"1 - d"``.
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
    """A keyword option of a measure (e.g. Davis's ``penalty``)."""

    name: str
    default: Any
    description: str
    choices: Optional[Tuple[Any, ...]] = None
    minimum: Optional[float] = None


@dataclasses.dataclass(frozen=True)
class RDefault:
    """The R reference's default of an option, where it differs from propstab's.

    ``value`` is R's default spelled as the propstab option value that reproduces
    it (e.g. ``0.9`` for stabm's ``threshold = 0.9``); ``reason`` says why
    propstab's default is another one.
    """

    value: Any
    reason: str


@dataclasses.dataclass(frozen=True)
class RReference:
    """The R function computing the same quantity, and how to call it.

    ``arguments`` maps a propstab option name to the R argument name; ``values``
    maps (option, propstab value) to the R value where they are spelled
    differently. ``input`` says what the R function takes (``"stabm"``: a list of
    integer vectors of 1-based indices plus ``p``). ``defaults`` maps an option to
    the R function's default (:class:`RDefault`) where it differs from the
    measure's own default; the docstring, ``propstab measures`` and
    ``propstab crosscheck`` (which compares at R's defaults) read it.
    """

    package: str
    function: str
    arguments: Mapping[str, str] = dataclasses.field(default_factory=dict)
    values: Mapping[Tuple[str, Any], Any] = dataclasses.field(default_factory=dict)
    input: str = "stabm"
    note: str = ""
    defaults: Mapping[str, RDefault] = dataclasses.field(default_factory=dict)

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
    """The declaration of one stability measure.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"nogueira"``.
    function : callable
        The public function ``f(Z, /, *, n_features=None, feature_names=None, **options)``.
    family : {"pairwise", "frequency", "correlated"}
    summary : str
        One-line formula.
    references : tuple of str
    claims : mapping of Axiom to bool
        For each of the five axioms, whether the measure claims it.
    bounds : (Bound, Bound)
        Declared lower and upper bounds.
    orientation : {"higher", "lower"}
        ``"higher"`` when a higher value means more stable.
    domain : {"any", "constant_size"}
        ``"constant_size"``: defined only when every run selects the same number
        of features.
    null_value : float or None
        E[value | H0] for measures claiming correction for chance.
    parameters : tuple of Parameter
    r_reference : RReference or None
    aliases : tuple of str
    notes : str
        Where propstab's declaration departs from a source, and why.
    """

    name: str
    function: Callable[..., float]
    family: str
    summary: str
    references: Tuple[str, ...]
    claims: Mapping[Axiom, bool]
    bounds: Tuple[Bound, Bound]
    orientation: str = "higher"
    domain: str = "any"
    null_value: Optional[float] = None
    parameters: Tuple[Parameter, ...] = ()
    r_reference: Optional[RReference] = None
    aliases: Tuple[str, ...] = ()
    notes: str = ""

    def claimed(self, axiom: Axiom) -> bool:
        """Whether the measure claims ``axiom``."""
        return self.claims[axiom]

    @property
    def claimed_axioms(self) -> Tuple[Axiom, ...]:
        return tuple(a for a in Axiom if self.claims[a])

    @property
    def disclaimed_axioms(self) -> Tuple[Axiom, ...]:
        return tuple(a for a in Axiom if not self.claims[a])

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
             f"domain: {'constant subset size only' if info.domain == 'constant_size' else 'any Z'}."]
    if info.r_reference is not None:
        extra.append(f"R reference: ``{info.r_reference}``.")
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


def register(*, name: str, family: str, summary: str, references: Sequence[str],
             claims: Mapping[Axiom, bool], lower, upper, orientation: str = "higher",
             domain: str = "any", null_value: Optional[float] = None,
             parameters: Sequence[Parameter] = (), r_reference: Optional[RReference] = None,
             aliases: Sequence[str] = (), notes: str = ""):
    """Declare a measure. Decorates ``core(selection, **options) -> float``.

    The decorated name becomes the public function: it accepts ``Z`` in every
    supported form (validated once by :func:`propstab._validation.as_selection`),
    checks the options against ``parameters`` and returns a Python float.
    """
    missing = [a for a in Axiom if a not in claims]
    if missing or any(not isinstance(v, bool) for v in claims.values()):
        raise ValueError(f"register({name!r}): claims must decide every axiom with True/False; "
                         f"undecided: {[a.name for a in missing]}")
    for argument, value, allowed in (("family", family, FAMILIES),
                                     ("orientation", orientation, ORIENTATIONS),
                                     ("domain", domain, DOMAINS)):
        if value not in allowed:
            raise ValueError(f"register({name!r}): {argument} must be one of "
                             f"{', '.join(map(repr, allowed))}; got {value!r}")

    _check_r_defaults(name, parameters, r_reference)

    def decorator(core: Callable[..., float]):
        from ._validation import as_selection, check_options

        param_tuple = tuple(parameters)

        @functools.wraps(core)
        def public(Z, /, *, n_features=None, feature_names=None, **options) -> float:
            sel = as_selection(Z, n_features=n_features, feature_names=feature_names)
            opts = check_options(info, options)
            return float(core(sel, **opts))

        params = [inspect.Parameter("Z", inspect.Parameter.POSITIONAL_ONLY),
                  inspect.Parameter("n_features", inspect.Parameter.KEYWORD_ONLY, default=None),
                  inspect.Parameter("feature_names", inspect.Parameter.KEYWORD_ONLY, default=None)]
        params += [inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default)
                   for p in param_tuple]
        public.__signature__ = inspect.Signature(params, return_annotation=float)

        info = MeasureInfo(
            name=name, function=public, family=family, summary=summary,
            references=tuple(references), claims=types.MappingProxyType(dict(claims)),
            bounds=(_bound(lower), _bound(upper)), orientation=orientation, domain=domain,
            null_value=null_value, parameters=param_tuple, r_reference=r_reference,
            aliases=tuple(aliases), notes=notes)
        for key in (name, *aliases):
            if key in _REGISTRY or key in _ALIASES:
                raise ValueError(f"register: the name {key!r} is already registered")
        _REGISTRY[name] = info
        for alias in aliases:
            _ALIASES[alias] = name
        public.__doc__ = (core.__doc__ or "").rstrip() + _properties_table(info)
        public.info = info
        public.core = core
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


def _ensure_loaded() -> None:
    from . import measures  # noqa: F401  (registers every measure on import)


def list_measures(family: Optional[str] = None) -> "list[MeasureInfo]":
    """All registered measures, in registration order.

    Parameters
    ----------
    family : {"pairwise", "frequency", "correlated"}, optional
        Restrict to one family.

    Examples
    --------
    >>> import propstab
    >>> infos = propstab.list_measures()
    >>> "nogueira" in [m.name for m in infos]
    True
    """
    _ensure_loaded()
    if family is not None and family not in FAMILIES:
        raise ValueError(f"list_measures: family must be one of {FAMILIES}; got {family!r}")
    return [m for m in _REGISTRY.values() if family is None or m.family == family]


def get_measure(name: str) -> MeasureInfo:
    """The registry entry for ``name`` (an alias resolves to its measure).

    Examples
    --------
    >>> from propstab import get_measure
    >>> get_measure("somol").name
    'cwrel'
    """
    _ensure_loaded()
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
