"""Plain-text tables shared by the printed reports (audit, measures, cross-check)."""
from __future__ import annotations

from typing import List, Sequence

__all__ = ["field_lines", "table_lines"]


def table_lines(heads: Sequence, body: Sequence[Sequence]) -> List[str]:
    """The header, a rule of dashes and one line per row of ``body``.

    Columns are left-aligned, as wide as their widest cell, and separated by two
    spaces; cells are printed with ``str``.

    >>> print("\\n".join(table_lines(["a", "bb"], [["xyz", 12]])))
    a    bb
    ---  --
    xyz  12
    """
    widths = [max(len(str(x)) for x in col) for col in zip(heads, *body)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return [fmt.format(*heads), fmt.format(*["-" * w for w in widths]),
            *(fmt.format(*row) for row in body)]


def field_lines(rows: Sequence[Sequence]) -> List[str]:
    """``(name, value)`` pairs as lines, the values aligned two spaces after the longest name.

    >>> print("\\n".join(field_lines([("estimate", "0.5"), ("CI", "[0.4, 0.6]")])))
    estimate  0.5
    CI        [0.4, 0.6]
    """
    width = max(len(str(key)) for key, _ in rows)
    return [f"{str(key):<{width}}  {value}" for key, value in rows]
