"""``propstab measures``: every registered measure with its declared axioms and bounds."""
from __future__ import annotations

import json
from typing import List, Optional

from ..registry._r_metadata import default_difference_text
from ..registry._registry import FAMILIES, list_measures
from .._utils.text import table_lines
from ..axioms import Axiom

YES, NO = "✓", "·"


def measure_rows(family: Optional[str] = None) -> List[dict]:
    """One JSON-ready row per registered measure: name, claims, bounds, ..."""
    rows = []
    for m in list_measures(family):
        rows.append(
            {
                "name": m.name,
                "aliases": list(m.aliases),
                "family": m.family,
                "claims": {a.name.lower(): m.claims[a] for a in Axiom},
                "bounds": [str(m.bounds[0]), str(m.bounds[1])],
                "orientation": m.orientation,
                "domain": m.domain,
                "null_value": m.null_value,
                "parameters": [p.name for p in m.parameters],
                "r_reference": None if m.r_reference is None else str(m.r_reference),
                "r_default_differences": (
                    []
                    if m.r_reference is None
                    else m.r_reference.default_differences(m.parameters)
                ),
                "summary": m.summary,
            }
        )
    return rows


def format_measures_table(rows: List[dict]) -> str:
    """A plain-text table: measures as rows, the five axioms as columns."""
    heads = [
        "measure",
        "family",
        *[a.label[:5] for a in Axiom],
        "bounds",
        "stable when",
        "domain",
        "R reference",
    ]
    body = []
    for r in rows:
        name = r["name"] + (f" ({', '.join(r['aliases'])})" if r["aliases"] else "")
        marks = [YES if r["claims"][a.name.lower()] else NO for a in Axiom]
        body.append(
            [
                name,
                r["family"],
                *marks,
                f"[{r['bounds'][0]}, {r['bounds'][1]}]",
                r["orientation"],
                "constant k" if r["domain"] == "constant_size" else "any",
                r["r_reference"] or "-",
            ]
        )
    lines = table_lines(heads, body)
    lines.append("")
    lines.append(
        f"{YES} claimed, {NO} not claimed; columns: "
        + ", ".join(f"{a.label[:5]} = {a.name}" for a in Axiom)
    )
    lines.append("stable when: 'higher' means a higher value is more stable.")
    differ = [
        (r["name"], r["r_reference"].split("::")[0], d)
        for r in rows
        for d in r["r_default_differences"]
    ]
    if differ:
        lines.append(
            "R defaults that differ from propstab's (propstab crosscheck compares at "
            "R's defaults where they are deterministic):"
        )
        lines += [
            f"  {name}: {default_difference_text(d, package)}" for name, package, d in differ
        ]
    return "\n".join(lines)


def run(args) -> int:
    rows = measure_rows(args.family)
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        print(format_measures_table(rows))
    return 0


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "measures", help="list every registered measure with its " "declared axioms and bounds"
    )
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.add_argument("--family", choices=FAMILIES, help="only this family")
    p.set_defaults(func=run)
