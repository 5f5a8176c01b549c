"""The docstrings of the registered measures, generated from their registry entries.

:func:`register <propstab.registry.register>` writes each measure's public docstring from
the author's: :func:`complete_docstring` adds the numpydoc sections every public function
has (Raises, See Also, References) where the author left them out, and
:func:`properties_table` appends the table of declared properties (the claims, bounds,
orientation, domain and R reference of the entry).
"""
from __future__ import annotations

import textwrap
from typing import Any

from ._r_metadata import default_difference_text
from ..axioms import Axiom

__all__ = [
    "SECTION_ORDER",
    "complete_docstring",
    "properties_table",
    "split_sections",
    "with_table",
]


def properties_table(info: Any) -> str:
    """The table of the declared properties of a registry entry ``info``, for its
    docstring (claims, bounds, orientation, domain, R references and R's defaults)."""
    rows = [(a.label, "claimed" if info.claims[a] else "not claimed") for a in Axiom]
    w = max(len(r[0]) for r in rows)
    v = max(len(r[1]) for r in rows)
    line = "=" * w + " " + "=" * v
    body = "\n".join(f"{a:<{w}} {c}" for a, c in rows)
    extra = [
        f"Bounds: [{info.bounds[0]}, {info.bounds[1]}]; higher is "
        f"{'more' if info.orientation == 'higher' else 'less'} stable; "
        f"domain: {'constant subset size only' if info.domain == 'constant_size' else 'any R' if info.input == 'ranking' else 'any Z'}."
    ]
    if info.r_reference is not None:
        extra.append(
            f"R reference: ``{info.r_reference}``"
            + "".join(f"; also ``{ref}``" for ref in info.r_also)
            + "."
        )
        diffs = info.r_reference.default_differences(info.parameters)
        if diffs:
            extra.append(
                f"Where {info.r_reference.package}'s defaults differ from propstab's: "
                + "; ".join(default_difference_text(d, info.r_reference.package) for d in diffs)
                + ". ``propstab crosscheck`` compares at "
                + f"{info.r_reference.package}'s defaults where they are "
                "deterministic."
            )
    return (
        "\n\nDeclared properties (generated from the registry)\n"
        "-------------------------------------------------\n"
        f"{line}\n{'axiom':<{w}} {'declaration':<{v}}\n{line}\n{body}\n{line}\n\n"
        + "\n".join(extra)
        + "\n"
    )


#: numpydoc's section order (the sections a measure's docstring may have).
SECTION_ORDER = (
    "Parameters",
    "Returns",
    "Raises",
    "Warns",
    "See Also",
    "Notes",
    "References",
    "Examples",
)


def split_sections(doc: str):
    """(preamble lines, {title: lines}) of a numpydoc docstring, its body dedented."""
    lines = textwrap.dedent("\n".join(doc.splitlines()[1:])).splitlines()
    head, sections, current = [doc.splitlines()[0].strip()] if doc else [], {}, None
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if (
            line.strip()
            and nxt.strip()
            and set(nxt.strip()) == {"-"}
            and len(nxt.strip()) == len(line.strip())
        ):
            current = line.strip()
            sections[current] = []
            i += 2
            continue
        (sections[current] if current else head).append(line)
        i += 1
    return head, sections


def complete_docstring(doc: str, info: Any) -> str:
    """A measure's docstring with the sections every public function has (numpydoc),
    written from the registry where the author left them out: Raises (the input
    contract), See Also (the entry points that take the measure by name) and References
    (the registry entry's ``references``)."""
    head, sections = split_sections(doc or "")
    reads = "propstab.as_rankings" if info.input == "ranking" else "propstab.as_selection"
    generated = {
        "Raises": [
            "ValueError, TypeError",
            "    Invalid input or options: the message names the argument, the rule "
            "and the value",
            f"    (the input rules are :func:`{reads}`'s).",
        ],
        "See Also": [
            "propstab.stability : Any registered measure by name.",
            "propstab.estimate : The value with its variance and confidence interval.",
            "propstab.get_measure : The registry entry (claims, bounds, R reference).",
        ],
        "References": [
            line
            for i, ref in enumerate(info.references, 1)
            for line in textwrap.wrap(
                ref, 84, initial_indent=f".. [{i}] ", subsequent_indent="   "
            )
        ],
    }
    for title, lines in generated.items():
        if title not in sections and lines:
            sections[title] = lines + [""]
    order = [t for t in SECTION_ORDER if t in sections]
    order += [t for t in sections if t not in SECTION_ORDER]
    body = list(head[1:])
    for title in order:
        if body and body[-1].strip():
            body.append("")
        body += [title, "-" * len(title), *sections[title]]
    text = "\n".join(line.rstrip() for line in body).rstrip()
    return head[0] + "\n" + textwrap.indent(text, "    ") + "\n    " if head else doc


def with_table(doc: str, table: str) -> str:
    """``doc`` with ``table`` appended at the indentation of the docstring's body (so that
    ``help()`` and numpydoc read one consistently indented text)."""
    body = [line for line in doc.splitlines()[1:] if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in body), default=0)
    return doc.rstrip() + textwrap.indent(table, " " * indent) + " " * indent
