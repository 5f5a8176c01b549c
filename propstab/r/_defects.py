"""Known differences of the R references (stabm 1.2.2, irr 0.85) that propstab does not copy.

Each difference is data (:class:`~propstab.registry.ExpectedDifference`) defined beside
the measures it concerns and attached to their registry entries
(``RReference(..., differences=(...))``): the measures and R functions it concerns, why
R differs, a minimal example in R with both values, and ``applies(measure, sel,
options)`` telling the cross-check harness whether a case falls under it (``None`` when
the bridge can never produce such a case: the difference is pinned by an R-level test
only). A case under a difference whose values differ is reported as *expected*; any
other difference fails the cross-check. Every entry is pinned by a test in
``r_compat/`` (live) and by the committed reference values.

This module only reads the registry: :data:`EXPECTED_DIFFERENCES` is the set of all the
differences attached to registered measures, :func:`expected_differences_for` those of
one measure.
"""
from __future__ import annotations

from typing import Tuple

from .. import measures  # noqa: F401  (registers the measures)
from ..registry._registry import ExpectedDifference, get_measure, list_measures

__all__ = [
    "EXPECTED_DIFFERENCES",
    "ExpectedDifference",
    "expected_differences_for",
    "markdown_table",
]


def expected_differences_for(measure: str) -> "tuple[ExpectedDifference, ...]":
    """The known R-side differences of ``measure`` (the ``differences`` of its registry
    entry's R references, each once).

    >>> from propstab.r._defects import expected_differences_for
    >>> [e.key for e in expected_differences_for("davis")]
    ['corrected_global_score', 'davis_penalty_maximum']
    """
    found = {}
    for ref in get_measure(measure).r_references:
        for e in ref.differences:
            found.setdefault(e.key, e)
    return tuple(found.values())


def _collect() -> "Tuple[ExpectedDifference, ...]":
    seen: "dict[str, ExpectedDifference]" = {}
    for info in list_measures():
        for e in expected_differences_for(info.name):
            seen.setdefault(e.key, e)  # a shared difference once (per-measure predicates)
    return tuple(seen.values())


#: Every known difference, once, in the order of the registry (for docs/r_crosscheck.md).
EXPECTED_DIFFERENCES: Tuple[ExpectedDifference, ...] = _collect()


def markdown_table() -> str:
    """The expected differences as a Markdown table (embedded in docs/r_crosscheck.md)."""

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = [
        "| key | measures (R functions) | what differs and why | minimal example (R) "
        "| R gives | propstab gives |",
        "|---|---|---|---|---|---|",
    ]
    for e in EXPECTED_DIFFERENCES:
        funcs = ", ".join(f"`{f}`" for f in e.r_functions)
        lines.append(
            f"| `{e.key}` | {', '.join(e.measures)} ({funcs}) | "
            f"**{cell(e.summary)}.** {cell(e.reason)} | `{cell(e.example)}` | "
            f"{cell(e.r_result)} | {cell(e.propstab_result)} |"
        )
    return "\n".join(lines)
