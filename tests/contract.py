"""The contract every public entry point keeps, as one assertion, for the fuzz suites.

README, "Invalid input raises an error naming the argument, the rule and the value; a
measure that is undefined on valid input returns nan with an UndefinedMeasureWarning":

- a call either returns, or raises ``ValueError`` or ``TypeError`` (subclasses
  included) whose message names the argument at fault; nothing else escapes;
- a NaN result comes with an ``UndefinedMeasureWarning``;
- no ``numpy.ComplexWarning`` (a complex input silently cut to its real part) and no
  numpy ``RuntimeWarning`` such as "invalid value encountered" (an unguarded 0/0);
- the arguments are not modified.

:func:`check_call` makes that one assertion and returns what happened;
:class:`Kind` and its subclasses say which values of an argument are valid (the
oracle: an invalid value MUST raise, naming the argument); :data:`HOSTILE` and
:data:`EXPLICIT` are the values a hostile user tries. :data:`COUNTS` records how many
cases each entry point was tried with (``PROPSTAB_FUZZ_REPORT=path`` writes them as
JSON at the end of the session, see tests/test_fuzz_entry_points.py).
"""
from __future__ import annotations

import copy
import dataclasses
import math
import numbers
import re
import warnings
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Optional, Sequence

import numpy as np
import pandas as pd
from hypothesis import strategies as st
from scipy import sparse

import propstab

#: cases tried per entry point (by the explicit lists and by Hypothesis)
COUNTS: Counter = Counter()

ALLOWED = (ValueError, TypeError)
try:  # numpy >= 1.25 moved it
    from numpy.exceptions import ComplexWarning
except ImportError:  # pragma: no cover - numpy 1.24
    ComplexWarning = np.ComplexWarning


class ContractViolation(AssertionError):
    """A call broke the contract (the message says how)."""


@dataclasses.dataclass
class Outcome:
    """What a call under :func:`check_call` did."""

    value: Any = None
    error: Optional[BaseException] = None
    warnings: tuple = ()

    @property
    def raised(self) -> bool:
        return self.error is not None

    @property
    def message(self) -> str:
        return "" if self.error is None else str(self.error)


def names(message: str, argument: str) -> bool:
    """Whether ``message`` names ``argument`` as a token ("q: ...", "Z1, Z2: ...",
    "unexpected option(s) 'foo'", "--n-features: ...", "matrices['a']: ...")."""
    return (
        re.search(rf"(^|[\s,(\['\"`]){re.escape(argument)}($|[\s:=,)\]'\"`\[.])", message)
        is not None
    )


# ----------------------------------------------------------------------------------
# input mutation


def snapshot(value):
    """A deep copy to compare with after the call (None when it cannot be copied)."""
    try:
        return copy.deepcopy(value)
    except Exception:  # noqa: BLE001 - generators, locks, modules
        return _UNCOPIABLE


_UNCOPIABLE = object()


def same(before, after) -> bool:
    """``before`` (a deep copy) and ``after`` hold the same data."""
    if before is _UNCOPIABLE:
        return True
    if type(before) is not type(after):
        return False
    if isinstance(before, np.ndarray):
        return (
            before.shape == after.shape
            and before.dtype == after.dtype
            and bool(np.array_equal(before, after, equal_nan=before.dtype.kind in "fc"))
        )
    if sparse.issparse(before):
        return (
            before.shape == after.shape
            and before.format == after.format
            and before.dtype == after.dtype
            and (before != after).nnz == 0
        )
    if isinstance(before, (pd.DataFrame, pd.Series)):
        return (
            before.equals(after)
            and list(before.index) == list(after.index)
            and (
                not isinstance(before, pd.DataFrame) or list(before.columns) == list(after.columns)
            )
        )
    if isinstance(before, dict):
        return before.keys() == after.keys() and all(same(before[k], after[k]) for k in before)
    if isinstance(before, (list, tuple)):
        return len(before) == len(after) and all(same(a, b) for a, b in zip(before, after))
    if isinstance(before, float) and math.isnan(before):
        return isinstance(after, float) and math.isnan(after)
    if hasattr(before, "get_params") and hasattr(before, "fit"):  # an estimator
        return same(dict(vars(before)), dict(vars(after)))
    if dataclasses.is_dataclass(before) and hasattr(before, "__dict__"):
        # its own == first; when that says different, attribute by attribute (a
        # dataclass's == compares arrays with ==, NaN != NaN: a copy of a result holding
        # NaN scores was never the same); a cycle of references: different, as before
        if _equal(before, after):
            return True
        try:
            return same(dict(vars(before)), dict(vars(after)))
        except RecursionError:
            return False
    if type(before).__eq__ is object.__eq__:  # identity only: compare the state
        state = getattr(before, "__dict__", None)
        return state is None or same(dict(state), dict(vars(after)))
    return _equal(before, after)


def _equal(before, after) -> bool:
    """``before == after`` (or the same object); True for objects without equality."""
    try:
        return bool(before == after) or before is after
    except Exception:  # noqa: BLE001 - objects without equality
        return True


# ----------------------------------------------------------------------------------
# the one assertion


def _forbidden(w) -> Optional[str]:
    if issubclass(w.category, ComplexWarning):
        return "a ComplexWarning (a complex value cut to its real part)"
    if w.category is RuntimeWarning and "encountered in" in str(w.message):
        return f"numpy's RuntimeWarning {str(w.message)!r} (an unguarded operation)"
    return None


def check_call(
    call: Callable,
    kwargs: dict,
    *,
    entry: str,
    argument: Optional[str] = None,
    aliases: Sequence[str] = (),
    argument_names: Sequence[str] = (),
    must_raise: bool = False,
    nan_ok: bool = False,
) -> Outcome:
    """Call ``call(**kwargs)`` and assert the contract; return the :class:`Outcome`.

    ``argument``: the argument given a hostile value; an error must then name it, or
    (when ``must_raise`` is False: the value may be valid and clash with another
    argument) one of ``argument_names``. ``must_raise``: the value is invalid for
    ``argument`` by itself, so returning is a violation (invalid input accepted).
    """
    COUNTS[entry] += 1
    before = {k: snapshot(v) for k, v in kwargs.items()}
    where = f"{entry}({argument}={_short(kwargs.get(argument))})" if argument else entry
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value, error = call(**kwargs), None
        except ALLOWED as exc:
            value, error = None, exc
        except Exception as exc:  # noqa: BLE001 - the contract's point
            raise ContractViolation(
                f"{where}: {type(exc).__name__} escaped (only ValueError "
                f"and TypeError may): {exc}"
            ) from exc
    outcome = Outcome(value, error, tuple(caught))
    for w in caught:
        why = _forbidden(w)
        if why:
            raise ContractViolation(f"{where}: {why} at {w.filename}:{w.lineno}")
    for k, v in kwargs.items():
        if not same(before[k], v):
            raise ContractViolation(f"{where}: the call modified its argument {k}")
    if error is not None:
        message = str(error)
        if not message.strip():
            raise ContractViolation(f"{where}: {type(error).__name__} with an empty message")
        own = [argument, *aliases] if argument else []
        wanted = own if must_raise else own + list(argument_names)
        if wanted and not any(names(message, a) for a in wanted):
            raise ContractViolation(
                f"{where}: the message does not name "
                f"{' or '.join(wanted[:6])}: {type(error).__name__}: "
                f"{message}"
            )
    else:
        if must_raise:
            raise ContractViolation(
                f"{where}: invalid input accepted, returned " f"{_short(value)}"
            )
        if (
            not nan_ok
            and isinstance(value, float)
            and math.isnan(value)
            and not any(issubclass(w.category, propstab.UndefinedMeasureWarning) for w in caught)
        ):
            raise ContractViolation(f"{where}: NaN without an UndefinedMeasureWarning")
    return outcome


def _short(value) -> str:
    text = f"{type(value).__name__} {value!r}"
    return text if len(text) <= 90 else text[:87] + "..."


# ----------------------------------------------------------------------------------
# argument kinds: the oracle of validity


class Kind:
    """Which values of an argument are valid. ``valid`` returns True, False or None
    (cannot tell: then only the general contract applies); ``expensive`` marks valid
    values a fuzz run must not try (a billion runs); ``invalid`` lists values known
    to be invalid whatever the argument's type rule says."""

    none = False

    def __init__(self, *, none: bool = False, invalid: Sequence = ()):
        self.none = none
        self.invalid = tuple(invalid)

    def valid(self, value) -> Optional[bool]:
        if value is None:
            return self.none
        return self._valid(value)

    def _valid(self, value) -> Optional[bool]:
        return None

    def expensive(self, value) -> bool:
        return False

    def strategy(self):
        """Hostile values, with values of this kind's own type near its edges."""
        return HOSTILE


class Anything(Kind):
    """Validity depends on other arguments or is not a simple rule (None too, unless
    ``none`` is given)."""

    def __init__(self, *, none=None, invalid=()):
        super().__init__(none=none, invalid=invalid)


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    return (
        isinstance(v, numbers.Real)
        and not isinstance(v, (bool, np.bool_))
        and not isinstance(v, Decimal)
    )


class Int(Kind):
    def __init__(self, low: int, high: Optional[int] = None, *, cheap: Optional[int] = None, **kw):
        super().__init__(**kw)
        self.low, self.high, self.cheap = low, high, cheap

    def _valid(self, v):
        return _is_int(v) and self.low <= v and (self.high is None or v <= self.high)

    def expensive(self, v):
        return bool(self.valid(v)) and v is not None and self.cheap is not None and v > self.cheap

    def strategy(self):
        edge = st.integers(self.low - 3, self.low + 3)
        return st.one_of(HOSTILE, edge, st.floats(self.low - 2, self.low + 3))


class Real(Kind):
    def __init__(self, low=None, high=None, *, low_open=False, high_open=False, **kw):
        super().__init__(**kw)
        self.low, self.high, self.low_open, self.high_open = low, high, low_open, high_open

    def _valid(self, v):
        if not _is_real(v) or not math.isfinite(float(v)):
            return False
        v = float(v)
        if self.low is not None and (v <= self.low if self.low_open else v < self.low):
            return False
        if self.high is not None and (v >= self.high if self.high_open else v > self.high):
            return False
        return True

    def strategy(self):
        lo = -2.0 if self.low is None else self.low - 1.0
        hi = 2.0 if self.high is None else self.high + 1.0
        edges = [x for x in (self.low, self.high) if x is not None]
        return st.one_of(
            HOSTILE,
            st.floats(lo, hi),
            st.sampled_from(edges or [0.0]),
            st.integers(int(lo) - 1, int(hi) + 1),
        )


class Choice(Kind):
    def __init__(self, *choices, **kw):
        super().__init__(**kw)
        self.choices = choices

    def _valid(self, v):
        if isinstance(v, np.ndarray) or not _hashable(v):
            return False
        for c in self.choices:
            if v is c:
                return True
            if isinstance(v, (bool, np.bool_)) != isinstance(c, bool):
                continue
            try:
                if type(v) is not str and isinstance(c, str):
                    if isinstance(v, str) and v == c:  # str subclasses (np.str_)
                        return True
                    continue
                if v == c:
                    return True
            except Exception:  # noqa: BLE001
                continue
        return False

    def strategy(self):
        texts = [c for c in self.choices if isinstance(c, str)]
        variants = [t.upper() for t in texts] + [t + " " for t in texts] + [t[:-1] for t in texts]
        return st.one_of(HOSTILE, st.sampled_from(list(self.choices) + variants or [None]))


def _hashable(v) -> bool:
    try:
        hash(v)
        return True
    except TypeError:
        return False


class Bool(Kind):
    def _valid(self, v):
        return isinstance(v, (bool, np.bool_))


class Seed(Kind):
    def __init__(self, **kw):
        super().__init__(none=True, **kw)

    def _valid(self, v):
        if isinstance(
            v,
            (
                np.random.Generator,
                np.random.BitGenerator,
                np.random.SeedSequence,
                np.random.RandomState,
            ),
        ):
            return True
        return _is_int(v) and v >= 0


class NJobs(Kind):
    def __init__(self, **kw):
        super().__init__(none=True, **kw)

    def _valid(self, v):
        return _is_int(v) and v != 0

    def expensive(self, v):  # workers take seconds to start: None and 1 only
        return bool(self.valid(v)) and v not in (None, 1)


class Text(Kind):
    def _valid(self, v):
        return isinstance(v, str)


# ----------------------------------------------------------------------------------
# what a hostile user tries


EXPLICIT = (
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    0.5,
    1.5,
    -0.5,
    math.nan,
    math.inf,
    -math.inf,
    1 + 1j,
    "",
    "x",
    "auto",
    b"x",
    [],
    [1],
    [[1]],
    [0, 1],
    {},
    {"a": 1},
    {1},
    (),
    (1, 2),
    np.array([1, 2]),
    np.array([[1.0]]),
    np.array([]),
    np.int64(2),
    np.float64(math.nan),
    np.bool_(True),
    np.array(["a"]),
    10**20,
    Fraction(1, 2),
    Decimal("1"),
    object(),
)

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.complex_numbers(max_magnitude=10),
    st.just(complex(math.nan, 1)),
    st.text(max_size=4),
    st.binary(max_size=3),
    st.lists(st.integers(-2, 5), max_size=4),
    st.lists(st.lists(st.integers(-1, 2), max_size=3), max_size=3),
    st.tuples(st.integers(-2, 3), st.integers(-2, 3)),
    st.dictionaries(st.text(max_size=2), st.integers(-1, 2), max_size=2),
    st.sets(st.integers(0, 3), max_size=3),
    st.sampled_from(
        [
            np.nan,
            np.inf,
            -np.inf,
            np.float32(0.5),
            np.int64(3),
            np.uint8(1),
            np.bool_(False),
            Fraction(1, 3),
            Decimal("0.5"),
            Ellipsis,
            range(3),
            slice(1),
            pd.NA,
            "nogueira",
            "none",
            "exact",
            "two-sided",
        ]
    ),
    st.builds(
        lambda shape, kind: np.zeros(shape, dtype=kind),
        st.sampled_from([(0,), (2,), (2, 2), (1, 3), (2, 2, 2)]),
        st.sampled_from([bool, np.int8, np.float64, complex, object, "U1"]),
    ),
)


def integers_of(kind_low: int, kind_high: int):
    """Integers around a range, for arguments that take integers."""
    return st.integers(kind_low - 2, kind_high + 2)


# ----------------------------------------------------------------------------------
# kinds read from a function's declared rules (propstab._utils.params)


def kind_of(rule, *, cheap: Optional[int] = None) -> Kind:
    """The :class:`Kind` of a declared rule (a constraint, None or a list of them), so
    that a fuzz table reads an entry point's declaration instead of restating it; the
    values that break the rule, from its constraint types, are the kind's ``invalid``."""
    from numbers import Integral as _Integral

    from propstab._utils import params as _params

    rules = tuple(rule) if isinstance(rule, (list, tuple)) else (rule,)
    none = None in rules
    constraints = [r for r in rules if r is not None]
    invalid = tuple(_params.invalid_values(rule))
    if len(constraints) == 1:
        c = constraints[0]
        c = getattr(c, "like", None) or c
        if isinstance(c, _params.Interval):
            low = c.left if not isinstance(c.left, _params.Param) else None
            high = c.right if not isinstance(c.right, _params.Param) else None
            if c.kind is _Integral:
                lo = -(10**9) if low is None else (low + 1 if c.left_open else low)
                hi = None if high is None else (high - 1 if c.right_open else high)
                return Int(lo, hi, cheap=cheap, none=none, invalid=invalid)
            if isinstance(c.right, _params.Param):  # valid or not depends on the call
                return Anything(none=none, invalid=invalid)
            return Real(
                low, high, low_open=c.left_open, high_open=c.right_open, none=none, invalid=invalid
            )
        if isinstance(c, _params.Options):
            return Choice(*c.choices, none=none, invalid=invalid)
        if isinstance(c, _params.Boolean):
            return Bool(none=none or c.none, invalid=invalid)
        if isinstance(c, _params.RandomState):
            return Seed(invalid=invalid)
    return Anything(none=none, invalid=invalid)
