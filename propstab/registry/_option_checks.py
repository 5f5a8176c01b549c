"""Checks of a measure's options and of the arguments that depend on a measure or on
two inputs: :func:`check_options` (keyword options against the registry's declared
parameters), :func:`check_matrix_options`, :func:`check_null_value`,
:func:`check_comparable`."""
from __future__ import annotations

import math
import numbers
from typing import Optional

from .._utils.checks import fail, finite, is_one_of, shown
from .._data.convert_matrices import as_importances, as_similarity
from .._data.selection import Selection

__all__ = ["check_comparable", "check_matrix_options", "check_null_value", "check_options"]


def check_options(info, options: dict, *, argument: Optional[str] = None) -> dict:
    """Validate keyword options against ``info.parameters``; fill defaults. The messages
    name the option at fault; given ``argument`` (the user's name for the options, as
    ``measure_options`` of ``assess``), they start with it: ``"measure_options: penalty:
    must be ..."``.

    >>> from propstab import get_measure
    >>> check_options(get_measure("davis"), {"penalty": -1}, argument="measure_options")
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: measure_options: penalty: must be a finite number >= 0.0
    for measure 'davis'; got -1
    """
    at = f"{argument}: " if argument else ""
    known = {p.name: p for p in info.parameters}
    unknown = [k for k in options if k not in known]
    if unknown:
        allowed = ", ".join(known) if known else "none"
        fail(
            f"{at}{info.name}: unexpected option(s) {', '.join(map(repr, unknown))}; "
            f"this measure's options: {allowed}",
            TypeError,
        )
    out = {}
    for name, p in known.items():
        value = options.get(name, p.default)
        if p.choices is not None and not is_one_of(value, p.choices):
            fail(
                f"{at}{name}: must be one of {', '.join(map(repr, p.choices))} for measure "
                f"{info.name!r}; got {shown(value)}"
            )
        integral = isinstance(p.default, numbers.Integral) and not isinstance(p.default, bool)
        if integral and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
            fail(
                f"{at}{name}: must be an integer for measure {info.name!r}; got "
                f"{shown(value)}",
                TypeError,
            )
        if p.minimum is not None:
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                fail(
                    f"{at}{name}: must be a number >= {p.minimum} for measure {info.name!r}; "
                    f"got {type(value).__name__} {value!r}",
                    TypeError,
                )
            if not finite(value) or value < p.minimum:
                fail(
                    f"{at}{name}: must be a finite number >= {p.minimum} for measure "
                    f"{info.name!r}; got {value!r}"
                )
        out[name] = value
    return out


def check_matrix_options(sel: Selection, options: dict) -> None:
    """Validate a measure's matrix options (``similarity``, ``importances``) against the
    selection: where a measure is undefined on ``sel`` and returns NaN without computing,
    an invalid matrix must still raise."""
    if "similarity" in options:
        as_similarity(
            options["similarity"],
            sel.n_features,
            threshold=options.get("threshold"),
            feature_names=sel.feature_names,
        )
    if "importances" in options:
        as_importances(options["importances"], sel)


def check_null_value(phi0: float, info, n_runs: int, n_features: int, row_sizes) -> float:
    """A null value H0: Phi = phi0 the measure ``info`` can take: within its declared
    bounds for matrices of this shape (bounds depending on M, d or the sizes evaluated;
    an undeclared or infinite bound limits nothing)."""
    sizes = () if row_sizes is None else row_sizes
    for side, bound in zip(("lower", "upper"), info.bounds):
        if bound is None:
            continue
        try:
            value = bound.evaluate(n_runs, n_features, sizes)
        except (TypeError, ValueError, ZeroDivisionError, IndexError):
            continue
        if math.isfinite(value) and (phi0 < value if side == "lower" else phi0 > value):
            low, high = (str(b) if b is not None else "?" for b in info.bounds)
            fail(
                f"phi0: must lie in the range of {info.name}, [{low}, {high}] (for M = "
                f"{n_runs}, d = {n_features} the {side} bound is {value:g}); got {phi0!r}"
            )
    return phi0


def check_comparable(
    first: Selection, second: Selection, *, paired: bool, names=("Z1", "Z2")
) -> None:
    """Two selection matrices over the same d features (and, if paired, the same M runs)."""
    a, b = names
    if first.n_features != second.n_features:
        fail(
            f"{a}, {b}: must have the same number of features d to be compared; got "
            f"{first.n_features} and {second.n_features}"
        )
    if paired and first.n_runs != second.n_runs:
        fail(
            f"{a}, {b}: a paired comparison needs the same M runs (the same resamples); got "
            f"{first.n_runs} and {second.n_runs} runs"
        )
    n1, n2 = first.feature_names, second.feature_names
    if n1 is not None and n2 is not None and tuple(n1) != tuple(n2):
        where = next(j for j, (x, y) in enumerate(zip(n1, n2)) if x != y)
        fail(
            f"{a}, {b}: must name the same features in the same order to be compared; "
            f"feature {where} is {n1[where]!r} in {a} and {n2[where]!r} in {b}"
        )
