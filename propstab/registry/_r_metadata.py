"""The R metadata of the measure registry: a measure's R references and the known
differences from them.

:class:`RReference` (the R function computing the same quantity and how to call it),
:class:`RDefault` (an R default that differs from propstab's) and
:class:`ExpectedDifference` (a documented difference between propstab and R). They are
declared with a measure (``register(r_reference=..., r_also=...)``) and read by the R
bridge (:mod:`propstab.r`), the docstrings and ``propstab measures``. Documented in
:mod:`propstab.registry`.

This module imports nothing of the registry: :func:`propstab.registry.register` records
each measure's references here (:func:`record_references`), which is how
:attr:`ExpectedDifference.measures` knows the measures a difference concerns.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .._utils.checks import fail

__all__ = [
    "ExpectedDifference",
    "RDefault",
    "RReference",
    "default_difference_text",
    "forget_references",
    "record_references",
]

#: difference key -> the registered measures whose R references list it, in
#: registration order (filled by :func:`record_references`, called by ``register``).
_MEASURES_BY_DIFFERENCE: Dict[str, List[str]] = {}


def record_references(measure: str, references: Sequence["RReference"]) -> None:
    """Note that ``measure`` is registered with ``references`` (for
    :attr:`ExpectedDifference.measures`)."""
    for key in dict.fromkeys(e.key for ref in references for e in ref.differences):
        users = _MEASURES_BY_DIFFERENCE.setdefault(key, [])
        if measure not in users:
            users.append(measure)


def forget_references(measure: str) -> None:
    """Undo :func:`record_references` for ``measure`` (called by ``unregister``)."""
    for users in _MEASURES_BY_DIFFERENCE.values():
        if measure in users:
            users.remove(measure)


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
        return tuple(_MEASURES_BY_DIFFERENCE.get(self.key, ()))

    def applying(self, applies: Callable[..., bool]) -> "ExpectedDifference":
        """The same difference with the predicate of one measure (a difference shared
        by measures whose cases fall under it under different conditions)."""
        return dataclasses.replace(self, applies=applies)

    def as_dict(self) -> "dict":
        d = {"key": self.key, "measures": self.measures}
        d.update(
            (f.name, getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name not in ("key", "applies")
        )
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

    def default_differences(self, parameters: Sequence[Any]) -> "list[dict]":
        """One dict per option whose R default differs: option, R's and propstab's
        default (as propstab values) and the reason, in the order of ``parameters``."""
        return [
            {
                "option": p.name,
                "r_default": self.defaults[p.name].value,
                "propstab_default": p.default,
                "reason": self.defaults[p.name].reason,
            }
            for p in parameters
            if p.name in self.defaults
        ]

    def check_defaults(self, measure: str, parameters: Sequence[Any]) -> None:
        """Check :attr:`defaults` against the measure's declared ``parameters``: each is an
        :class:`RDefault` of a declared option that has an R argument, differs from
        propstab's default and gives a reason. ``register`` calls it; the errors name
        ``register(measure)`` and the option."""
        if not self.defaults:
            return
        declared = {p.name: p for p in parameters}
        for option, r_default in self.defaults.items():
            where = f"register({measure!r}): r_reference.defaults[{option!r}]"
            if not isinstance(r_default, RDefault):
                fail(
                    f"{where}: must be an RDefault(value, reason); got {r_default!r}",
                    TypeError,
                    argument="r_reference",
                )
            if option not in declared:
                fail(
                    f"{where}: not an option of the measure; options: "
                    f"{', '.join(declared) or 'none'}",
                    argument="r_reference",
                )
            if option not in self.arguments:
                fail(
                    f"{where}: the option has no R argument in " f"r_reference.arguments",
                    argument="r_reference",
                )
            if r_default.value == declared[option].default:
                fail(
                    f"{where}: R's default {r_default.value!r} equals propstab's; "
                    f"declare only defaults that differ",
                    argument="r_reference",
                )
            if not r_default.reason:
                fail(f"{where}: give the reason for the difference", argument="r_reference")

    def __str__(self) -> str:
        return f"{self.package}::{self.function}"


def default_difference_text(diff: Mapping[str, Any], package: str = "stabm") -> str:
    """``"threshold = 0.9 in stabm, None in propstab (reason)"`` for one entry of
    :meth:`RReference.default_differences`."""
    return (
        f"{diff['option']} = {diff['r_default']!r} in {package}, "
        f"{diff['propstab_default']!r} in propstab ({diff['reason']})"
    )
