"""One case evaluated in both languages: the agreement rule, the outcome, and the search for
a minimal disagreeing case."""
from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any, Callable, Mapping, Optional, Tuple

from .._utils.exceptions import RReferenceError, UndefinedMeasureWarning
from ..registry._registry import MeasureInfo
from .._data.convert_rankings import as_input
from ..search import Found, search
from ._call import RValue, formals
from ._defects import expected_differences_for
from ._reference import reference_value
from ._cases import Case, case_strategy

TOLERANCE = 1e-10


def relative_difference(a: float, b: float) -> float:
    """``|a - b| / max(|a|, |b|, 1)``: relative for values beyond 1 in magnitude,
    absolute below (stability values near 0 come from cancellations and carry no
    relative accuracy). NaN against NaN is 0; NaN against a number is inf.

    Examples
    --------
    >>> from propstab.r._crosscheck import relative_difference
    >>> relative_difference(0.5, 0.5 + 1e-12) < 1e-10
    True
    >>> relative_difference(float("nan"), 1.0)
    inf
    """
    if math.isnan(a) and math.isnan(b):
        return 0.0
    if math.isnan(a) or math.isnan(b):
        return math.inf
    return abs(a - b) / max(abs(a), abs(b), 1.0)


# ---------------------------------------------------------------------- evaluation


@dataclasses.dataclass(frozen=True)
class Outcome:
    case: Case
    propstab: float
    warned: bool
    r: Optional[RValue]
    error: str
    relative_difference: float
    expected: Tuple[str, ...]
    status: str  # "agree" | "expected" | "mismatch"

    def to_dict(self, ref: "Reference") -> dict:
        return {
            **self.case.to_dict(),
            "r_code": self.case.r_code(
                ref.code or ref.label, ref.arguments, ref.takes_p, ref.input, ref.fixed
            ),
            "propstab": as_json_number(self.propstab),
            "propstab_warned": self.warned,
            "r": None if self.r is None else as_json_number(self.r.value),
            "r_kind": None if self.r is None else self.r.kind,
            "error": self.error,
            "relative_difference": as_json_number(self.relative_difference),
            "expected": list(self.expected),
            "status": self.status,
        }


def as_json_number(x: float):
    return x if math.isfinite(x) else str(x)


@dataclasses.dataclass(frozen=True)
class Reference:
    measure: str
    label: str
    evaluate: Callable[[Case], RValue]
    arguments: Mapping[str, str]
    takes_p: bool = True
    code: str = ""  # base R code of a ranking reference (input "ranks")
    input: str = "stabm"  # RReference.input
    fixed: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def references_of(info: MeasureInfo) -> "list[Reference]":
    """Every R reference of the measure's registry entry (``r_references``)."""
    return [
        Reference(
            info.name,
            str(ref),
            lambda c, n=info.name, label=str(ref): reference_value(
                n, c.Z, reference=label, **c.options
            ),
            dict(ref.arguments),
            ref.input == "stabm" and "p" in formals(ref.package, ref.function),
            ref.r_code,
            ref.input,
            dict(ref.fixed),
        )
        for ref in info.r_references
    ]


def evaluate(info: MeasureInfo, ref: Reference, case: Case, tolerance: float) -> Outcome:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        py = info.function(case.Z, **case.options)
    warned = any(issubclass(w.category, UndefinedMeasureWarning) for w in caught)
    sel = as_input(info.input, case.Z)
    expected = tuple(
        e.key
        for e in expected_differences_for(info.name)
        if ref.label in e.r_functions
        and e.applies is not None
        and e.applies(info.name, sel, case.options)
    )
    try:
        r = ref.evaluate(case)
        error = ""
    except RReferenceError as exc:
        if not expected:
            # R failed where propstab computes a value and no documented difference says
            # R refuses such input: no number to compare, so not a disagreement. The
            # cross-check cannot run here (exit status 3 on the command line).
            raise RReferenceError(
                f"{exc} [R failed while cross-checking {info.name} on case {case.name}: "
                f"an R failure, not a disagreement]",
                r_message=exc.r_message,
                r_call=exc.r_call,
            ) from None
        r, error = None, str(exc)
    rel = math.inf if r is None else relative_difference(py, r.value)
    agree = r is not None and rel <= tolerance and (warned or not math.isnan(py))
    if agree and not (r.kind == "NaN" and "nan_not_na" in expected):
        status = "agree"
    elif expected:
        status = "expected"
    else:
        status = "mismatch"
    return Outcome(case, py, warned, r, error, rel, expected, status)


class Mismatch(Found):
    """A case on which propstab and R disagree (outside the documented differences)."""

    def __init__(self, outcome: Outcome):
        super().__init__(
            outcome.case,
            (outcome.propstab, outcome.r),
            f"propstab and R differ by {outcome.relative_difference:.3g}",
        )
        self.outcome = outcome


def generated_outcome(info, ref, tolerance, max_examples, seed, record) -> Optional[Outcome]:
    """The minimal disagreeing generated case (shrunk by the search), or None; every
    evaluated case is passed to ``record``. An R failure stops the search and is raised
    outside it (no shrinking over a broken R, no flakiness)."""
    failed: "list[RReferenceError]" = []

    def probe(case):
        if failed:  # R failed: no more calls, nothing to shrink
            return None
        try:
            outcome = evaluate(info, ref, case, tolerance)
        except RReferenceError as exc:
            failed.append(exc)
            return None
        record(outcome)
        return Mismatch(outcome) if outcome.status == "mismatch" else None

    found = search(case_strategy(info), probe, max_examples=max_examples, seed=seed)
    if failed:
        raise failed[0]
    return found.outcome if isinstance(found, Mismatch) else None
