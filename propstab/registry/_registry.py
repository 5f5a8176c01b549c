"""The one registry of stability measures: :func:`register` and the lookup.

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

The registry is three modules by concern: the declaration types
(:mod:`propstab.registry._declarations`), the R metadata (:mod:`propstab.registry._r_metadata`)
and the
generated docstrings (:mod:`propstab.registry._measure_docs`); this module holds the entries,
:func:`register` and the lookup, and re-exports the types (``from propstab.registry._registry
import RReference`` keeps working). Contributors import everything from the public
:mod:`propstab.registry`.
"""
from __future__ import annotations

import difflib
import functools
import inspect
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple

import numpy as np

from ._declarations import (
    DOMAINS,
    FAMILIES,
    INPUTS,
    ORIENTATIONS,
    Bound,
    Declaration,
    MeasureInfo,
    Parameter,
    Variant,
    as_axiom,
    claims,
    const_bound,
)
from .._utils.exceptions import undefined
from ._measure_docs import complete_docstring, properties_table, with_table
from ._r_metadata import (
    ExpectedDifference,
    RDefault,
    RReference,
    default_difference_text,
    forget_references,
    record_references,
)
from .._utils.checks import fail
from .._data.convert_rankings import as_input
from ._option_checks import check_matrix_options, check_options
from .._utils.params import Options, validate_params
from ..axioms import Axiom

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
    "module_doctests",
    "register",
    "unregister",
    "Variant",
    "as_axiom",
    "claims",
    "default_difference_text",
    "DOMAINS",
    "FAMILIES",
    "INPUTS",
    "ORIENTATIONS",
]

_REGISTRY: "dict[str, MeasureInfo]" = {}
_ALIASES: "dict[str, str]" = {}


def _bound(b) -> Bound:
    if isinstance(b, Bound):
        return b
    if isinstance(b, (np.generic, np.ndarray)) and np.ndim(b) == 0 and b.dtype.kind in "iuf":
        b = b.item()  # a NumPy number
    if isinstance(b, (int, float)) and not isinstance(b, bool):
        return const_bound(float(b))
    fail(
        f"register: a bound must be a number or a Bound; got {b!r}",
        TypeError,
        argument="lower, upper",
    )


def register(
    *,
    name: str,
    family: str,
    summary: str,
    references: Sequence[str],
    aliases: Sequence[str] = (),
    notes: str = "",
    claims: Mapping[Axiom, bool],
    lower,
    upper,
    orientation: str = "higher",
    domain: str = "any",
    null_value: Optional[float] = None,
    pairwise: Optional[bool] = None,
    variants: Sequence[Variant] = (),
    parameters: Sequence[Parameter] = (),
    analytic_variance: Optional[Callable[..., Any]] = None,
    scale: Optional[Sequence[Tuple[float, str]]] = None,
    r_reference: Optional[RReference] = None,
    r_also: Sequence[RReference] = (),
):
    """Declare a measure: the decorator that registers it and builds its public function.

    Decorates ``core(selection, **options) -> float``, or a *kernel*: an object with
    ``value(name, selection, **options) -> float`` and ``leave_one_out(selection,
    **options)`` (see ``propstab.measures.kernels``), whose value and leave-one-run-out
    values then come from one formula. The decorated name becomes the public function: it
    accepts ``Z`` in every supported form (validated once by :func:`propstab.as_selection`;
    for the ranking family the rank matrix ``R``, by :func:`propstab.as_rankings`), checks
    the options against ``parameters``, returns NaN with an
    :class:`~propstab.UndefinedMeasureWarning` outside a constant-size domain, and returns
    a Python float. Its docstring is completed from the entry (References, See Also,
    Raises, the table of declared properties). Every keyword is keyword-only; they fall
    in five groups.

    Parameters
    ----------
    name : str
        **What it is.** The registry name (lower case, ``[a-z_]+``), also the public
        function's name in :mod:`propstab.measures`.
    family : {"pairwise", "frequency", "correlated", "ranking"}
        The family module it belongs to; ``"ranking"`` measures read rank matrices.
    summary : str
        One line: the formula, for the tables and ``propstab measures``.
    references : sequence of str
        The sources, full citations (shared strings in ``propstab/measures/references.py``).
    aliases : sequence of str, optional
        Other names resolving to this measure (``get_measure("somol")`` is ``cwrel``).
    notes : str, optional
        Where the declaration departs from a source, and why.
    claims : mapping of Axiom to bool
        **What it claims** (the audit's input). Every axiom decided: write it with
        :func:`claims`, ``claims(fully_defined=..., monotonicity=..., bounds=...,
        maximum=..., correction_for_chance=...)``. BOUNDS is claimed exactly when both
        bounds are finite constants; CORRECTION_FOR_CHANCE requires ``null_value``.
    lower, upper : float or Bound
        The declared bounds: numbers (``-math.inf``/``math.inf`` when unbounded), or a
        :class:`Bound` whose ``func`` depends on M, d and the sizes.
    orientation : {"higher", "lower"}, optional
        ``"higher"`` (default) when a higher value means more stable.
    domain : {"any", "constant_size"}, optional
        ``"constant_size"``: defined only for a constant subset size; the registry returns
        NaN with a warning when the sizes vary, so the formula never checks it.
    null_value : float, optional
        :math:`E[\\hat\\Phi \\mid H_0]` (thesis Definition 2), for a measure claiming
        correction for chance.
    pairwise : bool, optional
        The value is a mean over pairs of runs (exact null expectations per pair); by
        default True exactly for the pairwise family.
    variants : sequence of Variant, optional
        Option values whose claims or bounds differ from the defaults', audited as rows of
        their own (one shared object where several measures have the same variant).
    parameters : sequence of Parameter, optional
        **Its options**: the keyword options of the public function (choices, minimum),
        checked on every call.
    analytic_variance : callable, optional
        **Inference.** ``analytic_variance(sel, statistic) -> (variance, terms, factor)``,
        a closed-form variance where one applies (``thm6``, thesis Thm 6); its ``source``
        attribute names it, ``default = False`` keeps ``estimate(method="auto")`` on the
        jackknife.
    scale : sequence of (float, str), optional
        The interpretation scale of the values (``TABLE_6_1``, thesis Table 6.1), for
        kappa-like values only.
    r_reference : RReference, optional
        **R.** The R function computing the same value and how to call it, with the
        known R-side differences (:class:`ExpectedDifference`).
    r_also : sequence of RReference, optional
        Further independent R implementations cross-checked too (needs ``r_reference``).

    Returns
    -------
    callable
        The decorator: applied to the core or kernel, it registers the entry and returns
        the public function ``f(Z, /, *, n_features=None, feature_names=None,
        **options) -> float`` (the entry is ``f.info``).

    Raises
    ------
    ValueError
        If the claims leave an axiom undecided, ``family``, ``orientation`` or ``domain``
        is not one of its values, ``r_also`` is given without ``r_reference``, an R
        default is inconsistent with ``parameters``, or the name or an alias is already
        registered (each message names ``register(name)`` and the argument).
    TypeError
        If a bound is neither a number nor a :class:`Bound`, or ``null_value`` is not a
        finite number.

    See Also
    --------
    propstab.registry.claims : The ``claims=`` argument, axiom by axiom.
    propstab.registry.get_measure : The entry of a registered measure.
    propstab.audit : Checks the declared claims and bounds.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 4 and Table 4.1 (the five properties a measure claims).

    Examples
    --------
    A count kernel declared as in ``docs/contributing.md`` (registered under a throwaway
    name and removed again with :func:`unregister`, so that the example leaves the
    registry as it was):

    >>> from propstab.registry import claims, get_measure, register, unregister
    >>> from propstab.measures.kernels import count_kernel
    >>> @register(name="example_mean_frequency", family="frequency",
    ...           summary="(1/|X|) sum_f F_f / M", references=("An example",),
    ...           claims=claims(fully_defined=True, monotonicity=False, bounds=True,
    ...                         maximum=False, correction_for_chance=False),
    ...           lower=0, upper=1)
    ... @count_kernel(undefined_when=lambda c: c.total == 0, reason="no run selects any feature")
    ... def example_mean_frequency(c):
    ...     'Mean selection frequency of the selected features.'
    ...     return c.total / (c.n_runs * c.n_union)
    >>> example_mean_frequency([[1, 1, 0], [1, 0, 0]])
    0.75
    >>> get_measure("example_mean_frequency").claimed_axioms
    (Axiom.FULLY_DEFINED, Axiom.BOUNDS)
    >>> unregister("example_mean_frequency").name
    'example_mean_frequency'
    """
    missing = [a for a in Axiom if a not in claims]
    if missing or any(not isinstance(v, bool) for v in claims.values()):
        fail(
            f"register({name!r}): claims must decide every axiom with True/False; "
            f"undecided: {[a.name for a in missing]}",
            argument="claims",
        )
    if family not in FAMILIES:
        fail(
            f"register({name!r}): family must be one of "
            f"{', '.join(map(repr, FAMILIES))}; got {family!r}",
            argument="family",
        )
    input = "ranking" if family == "ranking" else "selection"
    declaration = Declaration(
        claims=claims,
        lower=_bound(lower),
        upper=_bound(upper),
        orientation=orientation,
        domain=domain,
        null_value=null_value,
        pairwise=pairwise if pairwise is not None else family == "pairwise",
        symmetric=True,
        input=input,
    )

    if r_also and r_reference is None:
        fail(f"register({name!r}): r_also needs an r_reference first", argument="r_also")
    for ref in (r_reference, *r_also):
        if ref is not None:
            ref.check_defaults(name, parameters)

    def decorator(core):
        param_tuple = tuple(parameters)
        kernel = core if hasattr(core, "leave_one_out") else None
        compute = functools.partial(kernel.value, name) if kernel is not None else core

        @functools.wraps(core)
        def public(Z, /, *, n_features=None, feature_names=None, **options) -> float:
            sel = as_input(
                input, Z, n_features=n_features, feature_names=feature_names, owner=name
            )
            opts = check_options(info, options)
            if domain == "constant_size" and sel.common_size() is None:
                check_matrix_options(sel, opts)  # invalid input raises, even here
                sizes = sel.row_sizes
                return undefined(
                    name,
                    f"it is defined only for a constant subset size and "
                    f"the row sizes vary (min {int(sizes.min())}, "
                    f"max {int(sizes.max())})",
                )
            return float(compute(sel, **opts))

        first = "R" if input == "ranking" else "Z"
        params = [
            inspect.Parameter(first, inspect.Parameter.POSITIONAL_ONLY),
            inspect.Parameter("n_features", inspect.Parameter.KEYWORD_ONLY, default=None),
            inspect.Parameter("feature_names", inspect.Parameter.KEYWORD_ONLY, default=None),
        ]
        params += [
            inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default)
            for p in param_tuple
        ]
        public.__signature__ = inspect.Signature(params, return_annotation=float)

        info = MeasureInfo(
            name=name,
            function=public,
            family=family,
            summary=summary,
            references=tuple(references),
            declaration=declaration,
            parameters=param_tuple,
            r_reference=r_reference,
            r_also=tuple(r_also),
            aliases=tuple(aliases),
            notes=notes,
            kernel=kernel,
            analytic_variance=analytic_variance,
            variants=tuple(variants),
            scale=None if scale is None else tuple(scale),
        )
        for key in (name, *aliases):
            if key in _REGISTRY or key in _ALIASES:
                fail(
                    f"register: the name {key!r} is already registered",
                    argument="name" if key == name else "aliases",
                )
        _REGISTRY[name] = info
        for alias in aliases:
            _ALIASES[alias] = name
        record_references(name, info.r_references)
        public.__doc__ = with_table(
            complete_docstring(core.__doc__ or "", info), properties_table(info)
        )
        public.info = info
        public.core = compute
        return public

    return decorator


def unregister(name: str) -> MeasureInfo:
    """Remove a measure that :func:`register` added, with its aliases.

    For a measure tried out in a session, a notebook or a test: after it, the name is
    free again and no entry point (``propstab.stability``, the audit, ``list_measures``)
    knows the measure. The measures that propstab itself defines cannot be removed.

    Parameters
    ----------
    name : str
        The measure's registered name or one of its aliases.

    Returns
    -------
    MeasureInfo
        The entry removed (its ``function`` still computes the measure).

    Raises
    ------
    ValueError, TypeError
        When ``name`` is not a registered measure (the message suggests close names), or
        is one of propstab's own measures.

    See Also
    --------
    propstab.registry.register : Adds a measure.
    propstab.list_measures : The registered measures.

    References
    ----------
    The contributor's guide, :doc:`/contributing` ("Adding a measure").

    Examples
    --------
    >>> import propstab
    >>> from propstab.registry import claims, register, unregister
    >>> @register(name="first_run_size", family="frequency", summary="k_1 / d",
    ...           references=("An example",),
    ...           claims=claims(fully_defined=True, monotonicity=False, bounds=True,
    ...                         maximum=False, correction_for_chance=False),
    ...           lower=0, upper=1)
    ... def first_run_size(sel):
    ...     'The share of the features that the first run selects.'
    ...     return sel.row_sizes[0] / sel.n_features
    >>> propstab.stability([[1, 1, 0, 0], [1, 0, 0, 0]], "first_run_size")
    0.5
    >>> unregister("first_run_size").name
    'first_run_size'
    >>> "first_run_size" in [m.name for m in propstab.list_measures()]
    False
    """
    info = lookup(name, argument="name", function="unregister")
    if info.function.__module__.startswith("propstab.measures"):
        fail(
            f"name: {name!r} is one of propstab's own measures, which cannot be "
            f"unregistered; only measures added with register() can",
            function="unregister",
        )
    del _REGISTRY[info.name]
    for alias in info.aliases:
        _ALIASES.pop(alias, None)
    forget_references(info.name)
    return info


def module_doctests(module_name: str) -> "dict[str, str]":
    """Docstrings of the measures registered from ``module_name``, for ``__test__``.

    The public functions are wrappers built here, so doctest's finder would not
    attribute them to their defining module; each family module exposes them via
    ``__test__ = module_doctests(__name__)``.

    Parameters
    ----------
    module_name : str
        The defining module's ``__name__``.

    Returns
    -------
    dict of str to str
        Measure name -> its public docstring, for the measures defined there.

    Raises
    ------
    None
        Nothing of its own: a module that defines no measure gives an empty dict.

    See Also
    --------
    propstab.registry.register : Builds the public functions and their docstrings.

    References
    ----------
    Python documentation, ``doctest``: the ``__test__`` dictionary of a module.

    Examples
    --------
    >>> from propstab.registry import module_doctests
    >>> "nogueira" in module_doctests("propstab.measures.frequency")
    True
    """
    return {
        m.name: m.function.__doc__
        for m in _REGISTRY.values()
        if m.function.__module__ == module_name
    }


@validate_params({"family": [Options(*FAMILIES), None]})
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
    return lookup(name)


def lookup(name, *, argument: str = "measure", function: Optional[str] = None) -> MeasureInfo:
    """:func:`get_measure`, its messages naming ``argument`` (the user's name for the
    measure: ``measures`` in ``audit``) and ``function``.

    >>> lookup("jacard", argument="measures")
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: measures: 'jacard' is not a registered measure. Did you
    mean 'jaccard'?...
    """
    if not isinstance(name, str):
        fail(
            f"{argument}: must be a measure name (str); got {type(name).__name__} {name!r}",
            TypeError,
            function=function,
        )
    key = _ALIASES.get(name, name)
    if key not in _REGISTRY:
        known = sorted([*_REGISTRY, *_ALIASES])
        close = difflib.get_close_matches(name, known, n=3)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        fail(
            f"{argument}: {name!r} is not a registered measure.{hint} "
            f"Known: {', '.join(known)}",
            function=function,
        )
    return _REGISTRY[key]
