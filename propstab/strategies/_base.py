"""The frame every propstab strategy shares: Hypothesis's import, the lazily validated
public strategy (a composite whose repr is the call), validation errors as
``InvalidArgument``, and the size limits of the drawn examples."""
from __future__ import annotations

import functools
import inspect

from .._utils.checks import check_int_range

try:
    from hypothesis import strategies as st
    from hypothesis.errors import InvalidArgument
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("propstab.strategies needs Hypothesis: pip install propstab[audit]") from exc

__all__ = [
    "st",
    "InvalidArgument",
    "public",
    "invalid",
    "run_feature_bounds",
    "memoised",
    "integers",
    "int_lists",
    "sampled",
    "DEFAULT_MAX_RUNS",
    "DEFAULT_MAX_FEATURES",
    "LIMIT_RUNS",
    "LIMIT_FEATURES",
    "LIMIT_SIMILARITY_FEATURES",
]

DEFAULT_MAX_RUNS = 6
DEFAULT_MAX_FEATURES = 8
#: The largest sizes the strategies draw: Hypothesis draws small examples (its buffer
#: holds a few thousand choices), and a counterexample is read by a person.
LIMIT_RUNS, LIMIT_FEATURES, LIMIT_SIMILARITY_FEATURES = 50, 50, 50


def public(build):
    """The public strategy function of ``build(draw, ...)``: calling it returns a lazily
    evaluated strategy whose repr is the call (a Hypothesis composite); ``build`` validates
    its arguments (raising InvalidArgument) before its first draw."""
    composite = st.composite(build)

    @functools.wraps(build)
    def strategy(*args, **kwargs):
        return composite(*args, **kwargs)

    signature = inspect.signature(build)
    strategy.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])
    del strategy.__wrapped__  # the signature above, not build's
    return strategy


def memoised(factory):
    """``factory(*args)`` -> strategy, one object per (hashable) arguments.

    The strategies drawn inside a composite depend on earlier draws (sizes, shapes), so a
    composite used to build them anew on every example; Hypothesis then re-created,
    validated and inspected a fresh lazy strategy each time, a visible share of a search.
    A strategy is an immutable description and its draws depend only on its arguments
    (its labels on its class and its parts), so the same object gives the same choices,
    the same examples and the same shrinks.
    """
    cached = functools.lru_cache(maxsize=4096)(factory)

    @functools.wraps(factory)
    def strategy(*args):
        try:
            return cached(*args)
        except TypeError:  # an unhashable argument: built anew
            return factory(*args)

    return strategy


@memoised
def integers(lo: int, hi: int):
    """``st.integers(lo, hi)``, memoised."""
    return st.integers(lo, hi)


@memoised
def int_lists(lo: int, hi: int, size: int, unique: bool = False):
    """``st.lists(st.integers(lo, hi), min_size=size, max_size=size, unique=unique)``,
    memoised."""
    return st.lists(st.integers(lo, hi), min_size=size, max_size=size, unique=unique)


@memoised
def sampled(values: tuple):
    """``st.sampled_from(values)`` for a tuple, memoised."""
    return st.sampled_from(values)


def invalid(check, *args, **kwargs):
    """``check(*args, **kwargs)`` with its ValueError/TypeError as InvalidArgument."""
    try:
        return check(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        raise InvalidArgument(str(exc)) from None


def run_feature_bounds(owner, min_runs, max_runs, min_features, max_features, *, least_features=1):
    """The validated ``(min_runs, max_runs, min_features, max_features)`` of a strategy
    called ``owner``: the maxima default to the larger of the minimum and the default
    maximum; InvalidArgument names the argument, the rule and the value."""
    min_runs = invalid(
        check_int_range, "min_runs", min_runs, minimum=1, maximum=LIMIT_RUNS, owner=owner
    )
    max_runs = (
        max(min_runs, DEFAULT_MAX_RUNS)
        if max_runs is None
        else invalid(
            check_int_range,
            "max_runs",
            max_runs,
            minimum=min_runs,
            maximum=LIMIT_RUNS,
            owner=owner,
        )
    )
    min_features = invalid(
        check_int_range,
        "min_features",
        min_features,
        minimum=least_features,
        maximum=LIMIT_FEATURES,
        owner=owner,
    )
    max_features = (
        max(min_features, DEFAULT_MAX_FEATURES)
        if max_features is None
        else invalid(
            check_int_range,
            "max_features",
            max_features,
            minimum=min_features,
            maximum=LIMIT_FEATURES,
            owner=owner,
        )
    )
    return min_runs, max_runs, min_features, max_features
