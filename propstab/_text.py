"""Plain-text tables shared by the printed reports (audit, measures, cross-check)."""
from __future__ import annotations

from typing import List, Sequence

__all__ = ["table_lines"]


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
