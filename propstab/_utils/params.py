"""Declared argument rules: each public entry point states its parameters' constraints
once, as data, and one validator reads them (in the manner of scikit-learn's
``validate_params``).

>>> @validate_params({"n": Interval(Integral, 1, None), "how": Options("a", "b")})
... def f(n, how="a"):
...     return n, how
>>> f(2)
(2, 'a')
>>> f(0)
Traceback (most recent call last):
...
propstab.InvalidParameterError: n: must be >= 1; got 0 (in f)

A parameter's rule is a constraint or a list of them (the value must satisfy one);
``None`` in the list allows None. The constraint types: :class:`Interval` (a range of
integers or reals; a bound may name another parameter, :class:`Param`),
:class:`Options` (one of given values), :class:`Boolean`, :class:`Callable`,
:class:`RandomState` and :class:`Checked` (a value that an existing ``check_*`` or
converter validates). Each constraint checks a value with the ``check_*`` rules of
:mod:`propstab._utils.checks` (so the messages are theirs, ending with ``(in <function>)``)
and lists values that break it (:meth:`Constraint.invalid_values`), which the fuzz
suite uses instead of restating the rules. A rule that depends on several arguments
at once (``exactly two of cutoff, q and PFER``) stays in the function's body.

The decorated function keeps its signature; its declaration is
``parameter_constraints(function)``. The arguments are validated in the order of the
declaration, and the function receives them **as given**: a declaration checks, it does
not convert, so that a parameter's annotation says what the body receives. A body that
needs a converted value converts it by an explicit call (the registry's entry of a measure
name: ``lookup``; a seed from any random state: ``check_random_state``).
"""
from __future__ import annotations

import functools
import inspect
import math
import warnings
from numbers import Integral, Real
from typing import Any, Mapping, Optional, Sequence

from .checks import (
    check_bool,
    check_choice,
    check_int_range,
    check_n_features,
    check_n_jobs,
    check_random_state,
    check_real_range,
    check_unit_interval,
    fail,
    shown,
)

__all__ = [
    "Boolean",
    "Callable",
    "Checked",
    "Constraint",
    "Integral",
    "Interval",
    "Joint",
    "N_FEATURES",
    "N_JOBS",
    "Options",
    "Param",
    "RandomState",
    "Real",
    "UNIT_INTERVAL",
    "breaks",
    "invalid_values",
    "parameter_constraints",
    "RENAMED_CONFIDENCE",
    "RENAMED_SEED",
    "RENAMED_TESTS",
    "renamed",
    "renamed_spellings",
    "validate_arguments",
    "validate_params",
]


class Param:
    """A bound of an :class:`Interval` read from another argument of the same call
    (validated before it), e.g. ``Interval(Real, 0, Param("n_features"),
    closed="right")`` for ``0 < q <= n_features``."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"Param({self.name!r})"


class Constraint:
    """A rule for one argument: :meth:`check` returns the checked value or raises
    :class:`~propstab.InvalidParameterError` naming the argument and the function;
    :meth:`invalid_values` lists values that break it (for the tests)."""

    def check(self, name: str, value, arguments: Mapping[str, Any], function: str):
        raise NotImplementedError

    def is_satisfied_by(self, value, arguments: Mapping[str, Any] = None) -> bool:
        try:
            self.check("value", value, arguments or {}, "")
        except (ValueError, TypeError):
            return False
        return True

    def invalid_values(self, arguments: Mapping[str, Any] = None) -> list:
        raise NotImplementedError


class Interval(Constraint):
    """An integer (``Integral``) or a finite real (``Real``) in a range.

    ``left`` and ``right`` are numbers, None (no bound) or a :class:`Param`;
    ``closed`` is ``"both"``, ``"left"``, ``"right"`` or ``"neither"``. Booleans are
    not numbers here.
    """

    def __init__(self, kind, left=None, right=None, *, closed: str = "both"):
        if kind not in (Integral, Real):
            fail(f"kind: must be numbers.Integral or numbers.Real; got {kind!r}", TypeError)
        if closed not in ("both", "left", "right", "neither"):
            fail(f"closed: must be 'both', 'left', 'right' or 'neither'; got " f"{closed!r}")
        self.kind, self.left, self.right, self.closed = kind, left, right, closed

    def bounds(self, arguments: Mapping[str, Any]):
        """The bounds at this call (a :class:`Param` read from ``arguments``)."""

        def value(bound):
            if isinstance(bound, Param):
                bound = arguments.get(bound.name)
            return bound

        return value(self.left), value(self.right)

    @property
    def left_open(self) -> bool:
        return self.closed in ("right", "neither")

    @property
    def right_open(self) -> bool:
        return self.closed in ("left", "neither")

    def check(self, name, value, arguments, function):
        low, high = self.bounds(arguments)
        if self.kind is Integral:
            minimum = (
                None
                if low is None
                else (math.floor(low) + 1 if self.left_open else math.ceil(low))
            )
            maximum = (
                None
                if high is None
                else (math.ceil(high) - 1 if self.right_open else math.floor(high))
            )
            return check_int_range(
                name,
                value,
                minimum=minimum if minimum is not None else -math.inf,
                maximum=maximum,
                function=function,
            )
        return check_real_range(
            name,
            value,
            low=None if low is None else float(low),
            high=None if high is None else float(high),
            low_open=self.left_open,
            high_open=self.right_open,
            function=function,
        )

    def invalid_values(self, arguments=None) -> list:
        low, high = self.bounds(arguments or {})
        out = ["1", None, True, [1], 1 + 1j]
        if self.kind is Integral:
            out.append(1.5 if low is None else low + 0.5)
            step = 1
        else:
            out += [math.nan, math.inf]
            step = 0.5
        if low is not None:
            out.append(low if self.left_open else low - step)
        if high is not None:
            out.append(high if self.right_open else high + step)
        return out

    def __str__(self):
        left = "-inf" if self.left is None else self.left
        right = "inf" if self.right is None else self.right
        kind = "an integer" if self.kind is Integral else "a real number"
        return (
            f"{kind} in {'(' if self.left_open else '['}{left}, {right}"
            f"{')' if self.right_open else ']'}"
        )

    def __repr__(self):
        return (
            f"Interval({self.kind.__name__}, {self.left!r}, {self.right!r}, "
            f"closed={self.closed!r})"
        )


class Options(Constraint):
    """One of the given values (compared without numpy's elementwise equality and
    without True standing for 1)."""

    def __init__(self, *choices):
        self.choices = tuple(choices)

    def check(self, name, value, arguments, function):
        return check_choice(name, value, self.choices, function=function)

    def invalid_values(self, arguments=None) -> list:
        texts = [c for c in self.choices if isinstance(c, str)]
        return ["no_such_option", 5, None, [self.choices[0]]] + [
            t.upper() for t in texts if t.upper() != t
        ][:1]

    def __str__(self):
        return f"one of {', '.join(map(repr, self.choices))}"

    def __repr__(self):
        return f"Options{self.choices!r}"


class Boolean(Constraint):
    """True or False (numpy's booleans included); None too when ``none``."""

    def __init__(self, *, none: bool = False):
        self.none = none

    def check(self, name, value, arguments, function):
        return check_bool(name, value, none=self.none, function=function)

    def invalid_values(self, arguments=None) -> list:
        return [1, "yes", [True]] + ([] if self.none else [None])

    def __str__(self):
        return "True, False or None" if self.none else "True or False"

    def __repr__(self):
        return f"Boolean(none={self.none})"


class Callable(Constraint):
    """A callable (a function, or an object with ``__call__``); ``what`` describes it
    in the message."""

    def __init__(self, what: str = "a function"):
        self.what = what

    def check(self, name, value, arguments, function):
        if not callable(value):
            fail(f"{name}: must be {self.what}; got {shown(value)}", TypeError, function=function)
        return value

    def invalid_values(self, arguments=None) -> list:
        return [None, 5, "f"]

    def __str__(self):
        return self.what

    def __repr__(self):
        return f"Callable({self.what!r})"


class RandomState(Constraint):
    """A seed: None, a non-negative integer, a numpy Generator, BitGenerator,
    SeedSequence or RandomState (:func:`propstab._utils.checks.check_random_state`)."""

    def check(self, name, value, arguments, function):
        return check_random_state(name, value, function=function)

    def invalid_values(self, arguments=None) -> list:
        return [-1, 1.5, "0"]

    def __str__(self):
        return "a seed"

    def __repr__(self):
        return "RandomState()"


class Checked(Constraint):
    """A value validated by an existing check or converter ``check(name, value,
    function=..., **read)`` (its message is the check's own), ``read`` being the other
    arguments named in ``reads`` (validated before it: a range that depends on them);
    ``invalid`` lists values known to break it, ``like`` an equivalent constraint
    without the dependence (for the tests); ``what`` describes the rule."""

    def __init__(
        self, check, what: str, invalid: Sequence = (), *, like=None, reads: Sequence[str] = ()
    ):
        self.check_function = check
        self.what = what
        self.invalid = tuple(invalid)
        self.like = like
        self.reads = tuple(reads)

    def check(self, name, value, arguments, function):
        read = {r: arguments.get(r) for r in self.reads}
        return self.check_function(name, value, function=function, **read)

    def invalid_values(self, arguments=None) -> list:
        return list(self.invalid)

    def __str__(self):
        return self.what

    def __repr__(self):
        return f"Checked({self.what!r})"


#: d, a positive integer (the message of :func:`propstab._utils.checks.check_n_features`)
N_FEATURES = Checked(
    lambda name, value, function=None: check_n_features(value, name, function=function),
    "a positive integer",
    invalid=(0, -1, 1.5, "4", True, [3]),
    like=Interval(Integral, 1, None),
)

#: a number in [0, 1] (the message of :func:`propstab._utils.checks.check_unit_interval`)
UNIT_INTERVAL = Checked(
    check_unit_interval,
    "a number in [0, 1]",
    invalid=(-0.5, 1.5, float("nan"), float("inf"), "0.5", True, [0.5]),
    like=Interval(Real, 0, 1),
)


#: joblib's ``n_jobs``: None or a non-zero integer of absolute value at most 10**4, -1 all
#: cores (the message of :func:`propstab._utils.checks.check_n_jobs`)
N_JOBS = [
    Checked(
        lambda name, value, function=None: check_n_jobs(name, value, function=function),
        "a non-zero integer of absolute value at most 10**4 (-1: all cores)",
        invalid=(0, 1.5, "2", True, 10**4 + 1, -(10**20)),
    ),
    None,
]


class Joint:
    """A rule between several arguments, declared under the tuple of their names:
    ``check(function=..., **arguments)`` raises naming them (``"cutoff, q, PFER: exactly
    two of them must be given"``); ``invalid`` lists combinations that break it, as
    dicts of those arguments."""

    def __init__(self, check, what: str, invalid: Sequence[Mapping[str, Any]] = ()):
        self.check_function = check
        self.what = what
        self.invalid = tuple(invalid)

    def check(self, names, arguments, function):
        self.check_function(function=function, **{n: arguments.get(n) for n in names})

    def invalid_values(self, arguments=None) -> list:
        return [dict(v) for v in self.invalid]

    def __str__(self):
        return self.what

    def __repr__(self):
        return f"Joint({self.what!r})"


def _as_rule(rule) -> tuple:
    rules = tuple(rule) if isinstance(rule, (list, tuple)) else (rule,)
    for r in rules:
        if r is not None and not isinstance(r, Constraint):
            fail(
                f"constraints: a rule is a Constraint, None or a list of them; " f"got {r!r}",
                TypeError,
            )
    return rules


def _validate(name: str, value, rules: tuple, arguments, function: str):
    """``value`` checked against ``rules`` (one must hold); the checked value."""
    if value is None and None in rules:
        return None
    constraints = [r for r in rules if r is not None]
    if len(constraints) == 1:
        return constraints[0].check(name, value, arguments, function)
    for c in constraints:
        if c.is_satisfied_by(value, arguments):
            return c.check(name, value, arguments, function)
    allowed = [str(c) for c in constraints] + (["None"] if None in rules else [])
    fail(
        f"{name}: must be {' or '.join(allowed)}; got {shown(value)}",
        TypeError if all(isinstance(c, (Boolean, Callable)) for c in constraints) else ValueError,
        function=function,
    )


def validate_params(constraints: Mapping[str, Any], *, function: Optional[str] = None):
    """Declare the rules of a function's parameters; every call validates them first.

    Parameters
    ----------
    constraints : dict
        ``{parameter: rule}``, a rule being a :class:`Constraint`, None (the value
        None is allowed) or a list of them, and ``{(parameter, ...): Joint(...)}`` for
        a rule between arguments; validated in this order.
    function : str, optional
        The name messages give the function (default: its ``__name__``).

    Returns
    -------
    callable
        The decorator. The decorated function has the same signature and receives its
        arguments unchanged; an invalid argument raises
        :class:`~propstab.InvalidParameterError` naming the parameter and the function,
        before the function runs.
    """
    rules = {
        name: (rule if isinstance(name, tuple) else _as_rule(rule))
        for name, rule in constraints.items()
    }

    def decorate(func):
        signature = inspect.signature(func)
        unknown = [
            n
            for key in rules
            for n in (key if isinstance(key, tuple) else (key,))
            if n not in signature.parameters
        ]
        if unknown:
            fail(
                f"constraints: {func.__qualname__} has no parameter(s) "
                f"{', '.join(map(repr, unknown))}",
                TypeError,
            )
        name = function or func.__name__

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            __tracebackhide__ = True  # pytest shows the caller, not this frame
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:  # as Python itself says it
                raise TypeError(f"{name}: {exc}") from None
            bound.apply_defaults()
            validate_arguments(rules, dict(bound.arguments), function=name)
            return func(*bound.args, **bound.kwargs)  # the values as given: checked only

        wrapper.parameter_constraints = rules
        return wrapper

    return decorate


def validate_arguments(constraints: Mapping[str, Any], arguments, *, function: str):
    """Check ``arguments`` (a mutable mapping of every declared parameter's value)
    against a declaration, in its order, replacing each value by its checked value: what
    a :func:`validate_params` function does before it runs, and what an estimator whose
    parameters are set in ``__init__`` does at ``fit`` (scikit-learn's convention), with
    ``{name: getattr(self, name)}`` and its class's ``parameter_constraints``.

    Parameters
    ----------
    constraints : dict
        As for :func:`validate_params`.
    arguments : dict
        The values by parameter name; changed in place.
    function : str
        The name the messages give the function or class.

    Returns
    -------
    dict
        ``arguments``.

    Examples
    --------
    >>> rules = {"n": Interval(Integral, 1, None)}
    >>> validate_arguments(rules, {"n": 2}, function="Thing")
    {'n': 2}
    >>> validate_arguments(rules, {"n": 0}, function="Thing")
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: n: must be >= 1; got 0 (in Thing)
    """
    for parameter, rule in constraints.items():
        if isinstance(parameter, tuple):  # a rule between arguments
            rule.check(parameter, arguments, function)
            continue
        arguments[parameter] = _validate(
            parameter, arguments[parameter], _as_rule(rule), arguments, function
        )
    return arguments


def breaks(rule, value, arguments: Mapping[str, Any] = None) -> bool:
    """Whether ``value`` breaks ``rule`` (a constraint, None or a list of them): no
    constraint of the rule holds (None holds when the rule lists None)."""
    rules = _as_rule(rule)
    if value is None and None in rules:
        return False
    return not any(c.is_satisfied_by(value, arguments or {}) for c in rules if c is not None)


def invalid_values(rule, arguments: Mapping[str, Any] = None) -> list:
    """Values that break ``rule`` as a whole, from its constraint types (a value invalid
    for one constraint of a list but valid for another is left out)."""
    out = []
    for c in _as_rule(rule):
        if c is not None:
            out += [v for v in c.invalid_values(arguments) if breaks(rule, v, arguments)]
    return out


def parameter_constraints(function) -> Optional[dict]:
    """The declaration of a function decorated with :func:`validate_params`
    (``{parameter: tuple of rules}``), or of a class with a ``parameter_constraints``
    attribute (an estimator checking its parameters at ``fit``), or None."""
    rules = getattr(function, "parameter_constraints", None)
    if rules is None:
        return None
    return {
        name: (rule if isinstance(name, tuple) else _as_rule(rule)) for name, rule in rules.items()
    }


#: propstab's one vocabulary (docs/contributing.md, "Vocabulary"): the old spellings that
#: still work, with a DeprecationWarning, through :func:`renamed`.
#: The confidence level is ``confidence_level`` (scipy's name) everywhere.
RENAMED_CONFIDENCE = {"confidence": "confidence_level"}
#: The seed of a randomised method is ``random_state`` (scipy's and scikit-learn's name).
RENAMED_SEED = {"seed": "random_state"}
#: The N(0, 1) test of a studentized statistic is ``test="wald"`` in the one- and
#: two-sample tests, as the interval it inverts is ``method="wald"``.
RENAMED_TESTS = {"test": {"asymptotic": "wald"}}


def renamed_spellings(
    kwargs: dict,
    *,
    function: str,
    arguments: Optional[Mapping[str, str]] = None,
    values: Optional[Mapping[str, Mapping[Any, Any]]] = None,
) -> dict:
    """``kwargs`` in propstab's one vocabulary (docs/contributing.md, "Vocabulary"): each
    old argument name in ``arguments`` (``{old: new}``) and each old value in ``values``
    (``{argument: {old: new}}``) replaced by the new spelling, with a DeprecationWarning
    that names both. Giving an argument under its old and its new name at once is an
    :class:`~propstab.InvalidParameterError`.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     renamed_spellings({"confidence": 0.9, "test": "asymptotic"}, function="f",
    ...                       arguments={"confidence": "confidence_level"},
    ...                       values={"test": {"asymptotic": "wald"}})
    {'test': 'wald', 'confidence_level': 0.9}
    >>> print(w[0].message)
    f: confidence= is renamed confidence_level= (one vocabulary across propstab); confidence= \
will be removed
    >>> print(w[1].message)
    f: test='asymptotic' is renamed test='wald' (one vocabulary across propstab); 'asymptotic' \
will be removed
    """
    out = dict(kwargs)
    for old, new in (arguments or {}).items():
        if old not in out:
            continue
        if new in out:
            fail(
                f"{new}: give {new}= only ({old}= is its deprecated name); got both "
                f"{old}={shown(out[old])} and {new}={shown(out[new])} (in {function})"
            )
        warnings.warn(
            f"{function}: {old}= is renamed {new}= (one vocabulary across propstab); "
            f"{old}= will be removed",
            DeprecationWarning,
            stacklevel=3,
        )
        out[new] = out.pop(old)
    for argument, table in (values or {}).items():
        value = out.get(argument)
        if isinstance(value, str) and value in table:
            warnings.warn(
                f"{function}: {argument}={value!r} is renamed {argument}={table[value]!r} "
                f"(one vocabulary across propstab); {value!r} will be removed",
                DeprecationWarning,
                stacklevel=3,
            )
            out[argument] = table[value]
    return out


def renamed(
    arguments: Optional[Mapping[str, str]] = None,
    values: Optional[Mapping[str, Mapping[Any, Any]]] = None,
    *,
    function: Optional[str] = None,
):
    """Decorator: the function also takes the old spellings of its keyword arguments
    (``arguments``: ``{old: new}``) and of their values (``values``: ``{argument:
    {old: new}}``), each with a DeprecationWarning naming the old and the new spelling
    (:func:`renamed_spellings`). The function's signature shows the new names only; its
    body receives the new spellings. Put it outside :func:`validate_params`, which then
    validates the new spellings. The renames are kept as ``renamed_spellings`` on the
    function, for the test of the vocabulary.

    >>> @renamed({"seed": "random_state"})
    ... def f(*, random_state=0):
    ...     return random_state
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     f(seed=3)
    3
    """

    def decorate(func):
        name = function or func.__qualname__

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            __tracebackhide__ = True
            if kwargs:
                kwargs = renamed_spellings(
                    kwargs, function=name, arguments=arguments, values=values
                )
            return func(*args, **kwargs)

        wrapper.renamed_spellings = {
            "arguments": dict(arguments or {}),
            "values": {k: dict(v) for k, v in (values or {}).items()},
        }
        return wrapper

    return decorate
