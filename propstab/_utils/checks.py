"""Argument checks: scalars, choices, seeds, labels and the other small arguments.

Each ``check_*`` takes the argument's name (the name the user gave it) and raises
:class:`~propstab.InvalidParameterError` with a message that names the argument, the
rule and the value received, so no caller rewrites a message. The input converters
(selection matrices, rankings, similarity and importance matrices) are
:mod:`propstab._data.convert_selection`, :mod:`propstab._data.convert_rankings` and
:mod:`propstab._data.convert_matrices`; the declared rules of the public entry points,
built on these checks, are :mod:`propstab._utils.params`.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping, Set
from decimal import Decimal
from typing import Any, NoReturn, Optional

import numpy as np

from .exceptions import InvalidParameterError

__all__ = [
    "MAX_JOBS",
    "as_real_array",
    "check_axes",
    "check_bool",
    "check_choice",
    "check_confidence_level",
    "check_feature_names",
    "check_int_range",
    "check_labels",
    "check_mapping",
    "check_n_features",
    "check_n_jobs",
    "check_probabilities",
    "check_r_indices",
    "check_random_state",
    "check_real",
    "check_real_range",
    "check_row_sizes",
    "check_text",
    "check_unit_interval",
    "fail",
    "finite",
    "is_label",
    "is_one_of",
    "seed_sequence",
    "shown",
]


def fail(
    rule: str, exc=ValueError, *, function: Optional[str] = None, argument: Optional[str] = None
) -> NoReturn:
    """Raise :class:`~propstab.InvalidParameterError` with ``rule``, a message that
    starts with the argument's name (``"q: must be > 0; got -1"``): the name before the
    first ``": "`` is the error's ``argument`` (unless ``argument`` names it: a message
    that starts with its value or its function, ``"--similarity a.csv: ..."``), ``exc``
    (ValueError or TypeError) its ``kind``; ``function``, the public function whose
    declared rule it is (:mod:`propstab._utils.params`), ends the message as ``(in function)``.

    ``exc`` may also be an error caught from another library (scikit-learn's checks, an
    estimator's ``fit``) that ``rule`` reports under the user's argument: the kind is
    then its own (TypeError or ValueError).

    >>> fail("q: must be > 0; got -1", function="error_control")
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: q: must be > 0; got -1 (in error_control)
    >>> try:
    ...     int("x")
    ... except ValueError as caught:
    ...     fail(f"X: cannot be read ({caught})", caught)
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: X: cannot be read (invalid literal for int() with base 10: 'x')
    """
    if isinstance(exc, BaseException):
        exc = getattr(exc, "kind", None) or (
            TypeError
            if isinstance(exc, TypeError) and not isinstance(exc, ValueError)
            else ValueError
        )
    if argument is None:
        argument = rule.partition(": ")[0] if ": " in rule else None
    message = f"{rule} (in {function})" if function else rule
    # from None: the message says everything (an error caught while checking is not
    # shown as the context of this one)
    raise InvalidParameterError(message, argument=argument, function=function, kind=exc) from None


def check_n_features(
    n_features, name: str = "n_features", *, function: Optional[str] = None
) -> int:
    """``n_features`` (d): a positive integer (the argument called ``name``)."""
    if isinstance(n_features, bool) or not isinstance(n_features, numbers.Integral):
        fail(
            f"{name}: must be a positive integer; got {type(n_features).__name__} "
            f"{n_features!r}",
            TypeError,
            function=function,
        )
    if n_features < 1:
        fail(f"{name}: must be a positive integer; got {n_features}", function=function)
    return int(n_features)


def is_label(value) -> bool:
    """Whether ``value`` can name a feature: hashable all the way down (a tuple holding
    a list is not), and not a list, dict, set or array.

    >>> is_label("a"), is_label(("a", 1)), is_label(("a", ["x"])), is_label(["a"])
    (True, True, False, False)
    """
    if not isinstance(value, Hashable) or isinstance(value, (list, dict, set, np.ndarray)):
        return False
    try:
        hash(value)
    except TypeError:
        return False
    return True


def check_feature_names(feature_names, d: Optional[int]) -> tuple:
    """Unique feature names as a tuple, one per feature when ``d`` is given."""
    if isinstance(feature_names, (str, bytes)) or not isinstance(feature_names, Iterable):
        fail(
            f"feature_names: must be a sequence of names; got {type(feature_names).__name__} "
            f"{feature_names!r}",
            TypeError,
        )
    names = tuple(feature_names)
    if d is not None and len(names) != d:
        fail(
            f"feature_names: must have one name per feature (n_features={d}); "
            f"got {len(names)} names"
        )
    seen = set()
    for name in names:
        if not is_label(name):
            fail(
                f"feature_names: every name must be a hashable label (a string or a "
                f"number); got {type(name).__name__} {name!r}",
                TypeError,
            )
        if isinstance(name, float) and math.isnan(name):
            fail("feature_names: a name cannot be NaN")
        if name in seen:
            fail(f"feature_names: names must be unique; {name!r} appears more than once")
        seen.add(name)
    return names


def check_confidence_level(confidence_level) -> float:
    """A confidence level strictly between 0 and 1."""
    if isinstance(confidence_level, (bool, np.bool_)) or not isinstance(
        confidence_level, numbers.Real
    ):
        fail(
            f"confidence_level: must be a number in (0, 1); got "
            f"{type(confidence_level).__name__} {confidence_level!r}",
            TypeError,
        )
    if not 0 < confidence_level < 1:
        fail(f"confidence_level: must be in (0, 1); got {confidence_level!r}")
    return float(confidence_level)


def is_one_of(value, choices) -> bool:
    """``value in choices`` without numpy's elementwise comparison of an array (whose
    truth value is ambiguous) and without True == 1 standing for a choice 1."""
    if isinstance(value, np.ndarray) or not isinstance(value, Hashable):
        return False
    for c in choices:
        try:
            if value is c or (
                isinstance(value, (bool, np.bool_)) == isinstance(c, bool) and bool(value == c)
            ):
                return True
        except (TypeError, ValueError):
            continue
    return False


def check_choice(name: str, value: Any, choices, *, function: Optional[str] = None) -> Any:
    """``value`` must be one of ``choices``."""
    if not is_one_of(value, choices):
        fail(
            f"{name}: must be one of {', '.join(map(repr, choices))}; got " f"{shown(value)}",
            function=function,
        )
    return value


def shown(value) -> str:
    """A value as a message shows it: its type and a repr cut to 80 characters."""
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return (
        f"{type(value).__name__} {text}"
        if not isinstance(value, (str, int, float)) or isinstance(value, bool)
        else text
    )


def check_bool(name: str, value, *, none: bool = False, function: Optional[str] = None):
    """True or False (numpy's booleans included); None too when ``none``."""
    if value is None and none:
        return None
    if not isinstance(value, (bool, np.bool_)):
        allowed = "True, False or None" if none else "True or False"
        fail(f"{name}: must be {allowed}; got {shown(value)}", TypeError, function=function)
    return bool(value)


def check_random_state(name: str, value, *, function: Optional[str] = None):
    """A seed for ``numpy.random.default_rng``: None, a non-negative integer, or a numpy
    ``Generator``, ``BitGenerator``, ``SeedSequence`` or legacy ``RandomState``.

    One rule for every entry point taking ``random_state`` (``resample``, ``assess``,
    ``StabilitySelection``, the bootstrap of ``estimate``). A ``RandomState`` is used as
    scikit-learn uses one: it is advanced (by one draw of 128 bits, made here, whose
    value seeds a ``SeedSequence``), so two calls given the same instance differ and
    two calls given ``RandomState(0)`` afresh agree. Everything else is returned as
    given (an integer as ``int``).

    >>> import numpy as np
    >>> a = check_random_state("random_state", np.random.RandomState(0))
    >>> b = check_random_state("random_state", np.random.RandomState(0))
    >>> type(a).__name__, a.entropy == b.entropy
    ('SeedSequence', True)
    """
    if value is None or isinstance(
        value, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)
    ):
        return value
    if isinstance(value, np.random.RandomState):
        words = value.randint(0, 2**32, size=4, dtype=np.uint64)
        return np.random.SeedSequence([int(w) for w in words])
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        fail(
            f"{name}: must be None, a non-negative integer, a numpy Generator or a "
            f"RandomState; got {shown(value)}",
            TypeError,
            function=function,
        )
    if value < 0:
        fail(f"{name}: must be a non-negative integer (a seed); got {value}", function=function)
    return int(value)


def seed_sequence(value) -> np.random.SeedSequence:
    """The root ``SeedSequence`` of a random state checked by :func:`check_random_state`,
    from which every random draw of a call comes (the resamples, and every run's seed).

    None: fresh entropy. An integer ``s``: ``SeedSequence(s)`` (``default_rng`` of it
    is ``default_rng(s)``). A ``SeedSequence``: itself (never spawned from, so it is not
    modified). A ``Generator`` or ``BitGenerator``: seeded by one draw of 128 bits from
    it (it is advanced, so two calls with the same generator differ).

    >>> import numpy as np
    >>> bool(np.random.default_rng(seed_sequence(3)).integers(100) ==
    ...      np.random.default_rng(3).integers(100))
    True
    """
    if value is None:
        return np.random.SeedSequence()
    if isinstance(value, np.random.SeedSequence):
        return value
    if isinstance(value, (np.random.Generator, np.random.BitGenerator)):
        words = np.random.default_rng(value).integers(0, 2**32, size=4, dtype=np.uint64)
        return np.random.SeedSequence([int(w) for w in words])
    return np.random.SeedSequence(int(value))


#: The most workers ``n_jobs`` may ask for, either way (-MAX_JOBS: all cores but
#: MAX_JOBS - 1): far beyond any machine or cluster; joblib fails on a larger number with
#: its own error (10**20: islice's "Stop argument ... must be ... <= sys.maxsize").
MAX_JOBS = 10**4


def check_n_jobs(name: str, value, *, function: Optional[str] = None):
    """joblib's ``n_jobs``: None or a non-zero integer (-1: all cores), at most
    :data:`MAX_JOBS` in absolute value."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        fail(
            f"{name}: must be None or a non-zero integer (-1: all cores); got " f"{shown(value)}",
            TypeError,
            function=function,
        )
    if value == 0:
        fail(
            f"{name}: must be None or a non-zero integer (-1: all cores); got 0", function=function
        )
    if abs(value) > MAX_JOBS:
        fail(
            f"{name}: must be a non-zero integer of absolute value at most {MAX_JOBS} "
            f"(-1: all cores); got {value}",
            function=function,
        )
    return int(value)


def check_mapping(name: str, value, *, none: bool = True, function: Optional[str] = None) -> dict:
    """A mapping with string keys (keyword options), as a new dict; None gives {}."""
    if value is None and none:
        return {}
    if not isinstance(value, Mapping):
        fail(
            f"{name}: must be a mapping of option names to values (a dict); got "
            f"{shown(value)}",
            TypeError,
            function=function,
        )
    bad = [k for k in value if not isinstance(k, str)]
    if bad:
        fail(
            f"{name}: option names must be strings; got {shown(bad[0])}",
            TypeError,
            function=function,
        )
    return dict(value)


def check_axes(name: str, value):
    """A matplotlib ``Axes`` to draw on, or None (a new figure)."""
    if value is None:
        return None
    from matplotlib.axes import Axes

    if not isinstance(value, Axes):
        fail(
            f"{name}: must be a matplotlib Axes (or None for a new figure); got "
            f"{shown(value)}",
            TypeError,
        )
    return value


def check_labels(name: str, labels, n: int, what: str) -> list:
    """One label per item (``n`` of them), as a list; any objects printable with str()."""
    if (
        isinstance(labels, (str, bytes))
        or not isinstance(labels, Iterable)
        or isinstance(labels, Mapping)
    ):
        fail(
            f"{name}: must be a sequence of {n} labels, one per {what}; got " f"{shown(labels)}",
            TypeError,
        )
    labels = list(labels)
    if len(labels) != n:
        fail(f"{name}: must have one label per {what} ({n}); got {len(labels)}")
    return labels


def check_text(name: str, value, *, none: bool = False, function: Optional[str] = None):
    """A string (None too when ``none``)."""
    if value is None and none:
        return None
    if not isinstance(value, str):
        fail(
            f"{name}: must be a string{' or None' if none else ''}; got {shown(value)}",
            TypeError,
            function=function,
        )
    return value


# ----------------------------------------------------------------------------------
# integer ranges (arguments of strategies and audits)


def check_int_range(
    name: str,
    value,
    *,
    minimum: int,
    maximum=None,
    owner: str = "",
    function: Optional[str] = None,
) -> int:
    """An integer in ``[minimum, maximum]`` (``maximum=None``: no upper limit)."""
    where = f" for {owner}" if owner else ""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        fail(
            f"{name}: must be an integer{where}; got {type(value).__name__} {value!r}",
            TypeError,
            function=function,
        )
    if value < minimum or (maximum is not None and value > maximum):
        upper = "" if maximum is None else f" and <= {maximum}"
        fail(f"{name}: must be >= {minimum}{upper}{where}; got {value}", function=function)
    return int(value)


# ----------------------------------------------------------------------------------
# inference: probabilities, null values, comparable selection matrices


def as_real_array(name: str, value, what: str = "numbers") -> np.ndarray:
    """``value`` (array-like) as a float64 array of real numbers, refusing what numpy
    would convert silently or fail on obscurely: ragged nesting, strings (numpy reads
    "0.5" as 0.5), complex numbers (numpy drops the imaginary part), None and
    objects that are not numbers."""
    if value is None or isinstance(value, (str, bytes, Mapping, Set)):
        fail(f"{name}: must be an array of {what}; got {shown(value)}", TypeError)
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        fail(
            f"{name}: must be an array of {what} (equal-length rows); got "
            f"{shown(value)} ({' '.join(str(exc).split())[:80]})",
            TypeError,
        )
    if arr.dtype.kind == "c":
        fail(f"{name}: must hold real {what}; got complex values", TypeError)
    if arr.dtype.kind in "biuf":
        return arr.astype(np.float64)
    if arr.dtype == object:
        for x in arr.ravel():
            if isinstance(x, (bool, np.bool_)) or (
                isinstance(x, numbers.Real) and not isinstance(x, Decimal)
            ):
                continue
            fail(f"{name}: must hold real {what}; got {shown(x)}", TypeError)
        return arr.astype(np.float64)
    fail(
        f"{name}: must hold {what}; got {arr.dtype} values such as "
        f"{shown(arr.ravel()[0] if arr.size else value)}",
        TypeError,
    )


def check_probabilities(name: str, p) -> np.ndarray:
    """A non-empty 1-D array of finite numbers in [0, 1]."""
    arr = as_real_array(name, p, "probabilities in [0, 1]")
    if arr.ndim != 1 or arr.size == 0:
        fail(f"{name}: must be a non-empty 1-D sequence of probabilities; got shape {arr.shape}")
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        i = int(np.argmax(bad))
        fail(f"{name}: every entry must be in [0, 1]; got {name}[{i}] = {arr[i]!r}")
    return arr


def finite(value) -> bool:
    """Whether a real number is finite as a double (an int beyond 1e308 is not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def check_real(name: str, value, *, function: Optional[str] = None) -> float:
    """A finite real number."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        fail(
            f"{name}: must be a finite real number; got {type(value).__name__} {value!r}",
            TypeError,
            function=function,
        )
    if not finite(value):
        fail(f"{name}: must be a finite real number; got {value!r}", function=function)
    return float(value)


def check_row_sizes(row_sizes, n_features, *, name: str = "row_sizes") -> "tuple[np.ndarray, int]":
    """Subset sizes k_1..k_M of a null model: a non-empty 1-D sequence of integers in
    0..d, with d = ``n_features`` (a positive integer). Returns (k as int64, d). The
    messages name ``name`` (``subset_sizes`` in ``varying_sizes_note``)."""
    d = check_n_features(n_features)
    if isinstance(row_sizes, (str, bytes, Mapping)) or not isinstance(row_sizes, Iterable):
        fail(
            f"{name}: must be a 1-D sequence of subset sizes (integers); got "
            f"{shown(row_sizes)}",
            TypeError,
        )
    try:
        arr = np.asarray(list(row_sizes) if not isinstance(row_sizes, np.ndarray) else row_sizes)
    except (ValueError, TypeError):
        fail(
            f"{name}: must be a 1-D sequence of subset sizes (integers); got "
            f"{shown(row_sizes)}",
            TypeError,
        )
    if arr.ndim != 1 or arr.size == 0:
        fail(
            f"{name}: must be a non-empty 1-D sequence of subset sizes; got shape " f"{arr.shape}"
        )
    if arr.dtype.kind not in "iu" and not (
        arr.dtype == object
        and all(isinstance(k, numbers.Integral) and not isinstance(k, bool) for k in arr)
    ):
        fail(
            f"{name}: subset sizes must be integers; got {arr.dtype} values "
            f"{shown(arr.tolist())}",
            TypeError,
        )
    k = arr.astype(np.int64)
    bad = (k < 0) | (k > d)
    if bad.any():
        fail(
            f"{name}: every subset size must be in 0..{d} (n_features={d}); got "
            f"{int(k[np.argmax(bad)])}"
        )
    return k, d


def check_unit_interval(name: str, value, *, function: Optional[str] = None) -> float:
    """A finite number in [0, 1]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        fail(
            f"{name}: must be a number in [0, 1]; got {type(value).__name__} {value!r}",
            TypeError,
            function=function,
        )
    if not (finite(value) and 0 <= value <= 1):
        fail(f"{name}: must be a number in [0, 1]; got {value!r}", function=function)
    return float(value)


# ----------------------------------------------------------------------------------
# real ranges (resampling fractions, stability-selection cutoffs, q and PFER)


def check_real_range(
    name: str,
    value,
    *,
    low=None,
    high=None,
    low_open: bool = False,
    high_open: bool = False,
    function: Optional[str] = None,
) -> float:
    """A finite real number within ``low`` / ``high`` (inclusive unless ``*_open``)."""
    value = check_real(name, value, function=function)
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        if low is not None and high is not None:
            rule = f"in {'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
        elif low is not None:
            rule = f"{'>' if low_open else '>='} {low}"
        else:
            rule = f"{'<' if high_open else '<='} {high}"
        fail(f"{name}: must be {rule}; got {value!r}", function=function)
    return value


# ----------------------------------------------------------------------------------
# feature indices written by R (the R bridge, propstab.r)


def check_r_indices(values, *, run: int, n_features: int, argument: str = "x") -> np.ndarray:
    """R's 1-based feature indices of one run -> 0-based int64 indices.

    ``values`` is a numeric array (R integers, or doubles such as ``c(1, 3)``).
    Raises ValueError naming the run and the index when an index is not a whole
    number or lies outside 1..n_features.
    """
    arr = np.asarray(values, dtype=np.float64)
    bad = ~np.isfinite(arr) | (arr != np.round(arr))
    if bad.any():
        fail(
            f"{argument}: run {run} contains {arr[np.argmax(bad)]!r}; R feature indices "
            f"must be whole numbers"
        )
    out = arr.astype(np.int64)
    outside = (out < 1) | (out > n_features)
    if outside.any():
        fail(
            f"{argument}: run {run} contains the feature index {int(out[np.argmax(outside)])}; "
            f"R feature indices are 1-based, in 1..{n_features} (n_features={n_features})"
        )
    return out - 1
