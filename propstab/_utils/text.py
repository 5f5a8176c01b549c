"""Plain text shared by every printed result: tables, fields, numbers and the summary.

Every result object prints through the same few helpers: :func:`call_repr` for its
one-line ``repr`` and :func:`summary` for its ``summary()`` (which ``str`` and
``print`` show); nothing else formats a result.
"""
from __future__ import annotations

import html
import math
import numbers
import re
from typing import Iterable, List, Optional, Sequence, Tuple

import numpy as np

__all__ = [
    "Summary",
    "call_repr",
    "field_lines",
    "interval",
    "level_label",
    "number",
    "plain_math",
    "shorten",
    "significant",
    "size_text",
    "summary",
    "table_lines",
]


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
    return [
        fmt.format(*heads),
        fmt.format(*["-" * w for w in widths]),
        *(fmt.format(*row) for row in body),
    ]


def field_lines(rows: Sequence[Sequence]) -> List[str]:
    """``(name, value)`` pairs as lines, the values aligned two spaces after the longest name.

    >>> print("\\n".join(field_lines([("estimate", "0.5"), ("CI", "[0.4, 0.6]")])))
    estimate  0.5
    CI        [0.4, 0.6]
    """
    width = max(len(str(key)) for key, _ in rows)
    return [f"{str(key):<{width}}  {value}" for key, value in rows]


def number(x, digits: int = 4, *, fixed: bool = False) -> str:
    """A number as short text: integers as they are, floats to ``digits`` significant
    digits (``fixed=True``: ``digits`` decimals, for columns of estimates).

    >>> number(3), number(0.81234), number(1.5e-9), number(0.021, fixed=True)
    ('3', '0.8123', '1.5e-09', '0.0210')
    >>> number(float("nan")), number(float("-inf"), fixed=True)
    ('nan', '-inf')
    """
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return str(int(x))
    x = float(x)
    return f"{x:.{digits}f}" if fixed else f"{x:.{digits}g}"


def interval(low: float, high: float, digits: int = 4) -> str:
    """``[low, high]`` with ``digits`` decimals; an infinite end gets a round bracket.

    >>> interval(0.12345, 0.5), interval(0.1, float("inf")), interval(float("-inf"), 0.2)
    ('[0.1235, 0.5000]', '[0.1000, inf)', '(-inf, 0.2000]')
    """
    left = "(" if low == -math.inf else "["
    right = ")" if high == math.inf else "]"
    return (
        f"{left}{number(low, digits, fixed=True)}, " f"{number(high, digits, fixed=True)}{right}"
    )


def level_label(confidence_level: float) -> str:
    """The heading of a confidence interval, ``"95% CI"``.

    >>> level_label(0.95), level_label(0.9)
    ('95% CI', '90% CI')
    """
    return f"{100 * confidence_level:g}% CI"


def size_text(sizes) -> str:
    """Subset sizes k_i as ``"lo to hi (mean m)"``, or ``"k (all runs)"`` when constant.

    >>> size_text([2, 2, 2]), size_text([1, 2, 4])
    ('2 (all runs)', '1 to 4 (mean 2.33)')
    """
    lo, hi = int(np.min(sizes)), int(np.max(sizes))
    if lo == hi:
        return f"{lo} (all runs)"
    return f"{lo} to {hi} (mean {number(float(np.mean(sizes)), 3)})"


def shorten(items: Iterable[str], width: int = 88, separator: str = ", ") -> str:
    """Join ``items`` up to ``width`` characters, ending in ``...`` when some are left out.

    >>> shorten(["alpha", "beta", "gamma"], width=14)
    'alpha, beta, ...'
    >>> shorten(["a", "b"])
    'a, b'
    """
    items = list(items)
    out = ""
    for item in items:
        piece = item if not out else separator + item
        if len(out) + len(piece) > width and out:
            return out + separator + "..."
        out += piece
    return out


def _value(v) -> str:
    if isinstance(v, (bool, str)) or v is None:
        return repr(v)
    if isinstance(v, numbers.Real):
        return number(v)
    if isinstance(v, (tuple, list)):
        inner = ", ".join(_value(x) for x in v)
        return (
            f"({inner},)"
            if isinstance(v, tuple) and len(v) == 1
            else (f"({inner})" if isinstance(v, tuple) else f"[{inner}]")
        )
    return repr(v)


def call_repr(name: str, **fields) -> str:
    """A one-line ``repr``: ``name(key=value, ...)``, numbers to 4 significant digits.

    >>> call_repr("StabilityEstimate", measure="nogueira", statistic=0.81234, n_runs=100,
    ...           names=("a", "b"))
    "StabilityEstimate(measure='nogueira', statistic=0.8123, n_runs=100, names=('a', 'b'))"
    """
    return f"{name}({', '.join(f'{k}={_value(v)}' for k, v in fields.items())})"


class Summary(str):
    """The text of a result's ``summary()``: a ``str`` that prints and displays as itself
    (``repr`` is the text, so a notebook cell shows the lines, not a quoted string).

    >>> s = Summary("Title\\nvalue  1")
    >>> s
    Title
    value  1
    >>> s.splitlines()
    ['Title', 'value  1']
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return str.__str__(self)

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(self)}</pre>"


def summary(
    title: Optional[str],
    fields: Sequence[Tuple[str, str]] = (),
    table: Optional[Tuple[Sequence, Sequence[Sequence]]] = None,
    notes: Sequence[str] = (),
) -> Summary:
    """The one formatter of every result's summary: a title (None: no title line),
    aligned ``(name, value)`` fields, an optional table ``(heads, rows)`` and closing
    notes. Trailing spaces are stripped from every line.

    >>> print(summary("Stability estimate", [("measure", "nogueira"), ("estimate", "0.81")],
    ...               table=(["run", "size"], [[0, 3], [1, 4]]), notes=["note"]))
    Stability estimate
    measure   nogueira
    estimate  0.81
    run  size
    ---  ----
    0    3
    1    4
    note
    """
    lines = [] if title is None else [title]
    if fields:
        lines += field_lines(fields)
    if table is not None:
        lines += table_lines(*table)
    lines += list(notes)
    return Summary("\n".join(line.rstrip() for line in lines))


def significant(x: float, digits: int) -> float:
    """``x`` rounded to ``digits`` significant decimal digits (as stabs reports bounds).

    >>> significant(0.0098765, 3), significant(123456.0, 2)
    (0.00988, 120000.0)
    """
    if x == 0 or not math.isfinite(x):
        return float(x)
    return float(np.round(x, digits - 1 - math.floor(math.log10(abs(x)))))


# ------------------------------------------------------------------ formulas as plain text

#: TeX commands of the registry's ``:math:`` formulas, as the Unicode a terminal shows.
_TEX_SYMBOLS = {
    "phi": "φ",
    "Phi": "Φ",
    "theta": "θ",
    "alpha": "α",
    "beta": "β",
    "sigma": "σ",
    "Sigma": "Σ",
    "mu": "μ",
    "rho": "ρ",
    "tau": "τ",
    "pi": "π",
    "kappa": "κ",
    "delta": "δ",
    "zeta": "ζ",
    "lambda": "λ",
    "partial": "∂",
    "sum": "∑",
    "prod": "∏",
    "mid": "|",
    "ne": "≠",
    "neq": "≠",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "cap": "∩",
    "cup": "∪",
    "setminus": "∖",
    "cdot": "·",
    "times": "×",
    "in": "∈",
    "pm": "±",
    "infty": "∞",
    "approx": "≈",
    "triangle": "△",
    "dots": "…",
    "ldots": "…",
    "cdots": "⋯",
    "to": "→",
    "lvert": "|",
    "rvert": "|",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lceil": "⌈",
    "rceil": "⌉",
    "top": "ᵀ",
    "bmod": "mod",
    "max": "max",
    "min": "min",
    "log": "log",
    "ln": "ln",
    "exp": "exp",
    "quad": "  ",
    "qquad": "  ",
    ",": " ",
    ";": " ",
    "!": "",
    " ": " ",
    "{": "{",
    "}": "}",
    "%": "%",
    "_": "_",
}
#: Sizing commands that print nothing in plain text.
_TEX_SILENT = {"left", "right", "big", "Big", "bigl", "bigr", "Bigl", "Bigr", "displaystyle"}
#: Commands whose one argument is printed as it is.
_TEX_PLAIN = {"mathrm", "operatorname", "text", "mathbf", "mathit", "textrm", "mathbb"}
_ACCENTS = {"hat": "\u0302", "bar": "\u0304", "tilde": "\u0303"}
_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_SUP = dict(zip("0123456789+-=()inT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿᵀ"))
_MATH_ROLE = re.compile(r":math:`([^`]*)`")


def _group(tex: str, i: int) -> Tuple[str, int]:
    """The argument starting at ``tex[i]`` (a braced group, a command or one character)
    and the index after it."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    if tex[i] == "{":
        depth = 0
        for j in range(i, len(tex)):
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                return tex[i + 1 : j], j + 1
        return tex[i + 1 :], len(tex)
    if tex[i] == "\\":
        m = re.match(r"\\(?:[A-Za-z]+|.)", tex[i:])
        return m.group(0), i + m.end()
    return tex[i], i + 1


def _wrapped(text: str) -> str:
    """``text`` in parentheses when it is more than one symbol (a fraction's part)."""
    return text if re.fullmatch(r"[\w.̂̄̃]+", text) else f"({text})"


def _script(text: str, table: dict, mark: str) -> str:
    if text and all(c in table for c in text) and (len(text) <= 2 or not text.isalpha()):
        return "".join(table[c] for c in text)
    return mark + (text if len(text) == 1 or (mark == "_" and text.isalnum()) else f"({text})")


def _tex_to_text(tex: str) -> str:
    out, i = [], 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            m = re.match(r"\\(?:[A-Za-z]+|.)", tex[i:])
            name, i = m.group(0)[1:], i + m.end()
            if name in ("frac", "tfrac", "dfrac"):
                num, i = _group(tex, i)
                den, i = _group(tex, i)
                out.append(f"{_wrapped(_tex_to_text(num))}/{_wrapped(_tex_to_text(den))}")
            elif name == "binom":
                n, i = _group(tex, i)
                k, i = _group(tex, i)
                out.append(f"C({_tex_to_text(n)}, {_tex_to_text(k)})")
            elif name == "sqrt":
                arg, i = _group(tex, i)
                out.append("√" + _wrapped(_tex_to_text(arg)))
            elif name in _ACCENTS:
                arg, i = _group(tex, i)
                out.append(_tex_to_text(arg) + _ACCENTS[name])
            elif name in _TEX_PLAIN:
                arg, i = _group(tex, i)
                out.append(_tex_to_text(arg))
            elif name in _TEX_SILENT:
                continue
            else:
                out.append(_TEX_SYMBOLS.get(name, name))
                if name in ("partial", "sum", "prod"):  # prefixes: no space after
                    while i < len(tex) and tex[i] == " ":
                        i += 1
                if (
                    name.isalpha()
                    and i < len(tex)
                    and tex[i].isalnum()
                    and len(_TEX_SYMBOLS.get(name, name)) > 1
                ):
                    out.append(" ")
        elif c in "_^":
            arg, i = _group(tex, i + 1)
            text = _tex_to_text(arg)
            out.append(_script(text, _SUB, "_") if c == "_" else _script(text, _SUP, "^"))
        elif c in "{}":
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def plain_math(text: str) -> str:
    r"""``text`` with each ``:math:`...``` formula (the reStructuredText role the registry's
    notes use, typeset on the site) written in Unicode for a terminal or an R console.

    >>> plain_math(r"each score :math:`\phi` becomes "
    ...            r":math:`(\phi - E[\phi \mid H_0]) / (1 - E[\phi \mid H_0])`")
    'each score φ becomes (φ - E[φ | H₀]) / (1 - E[φ | H₀])'
    >>> plain_math(r":math:`\hat\Phi_{(i)} = \frac{1}{M}\sum_f s_f^2`, :math:`\bar k \le d`")
    'Φ̂₍ᵢ₎ = 1/M∑_f s_f², k̄ ≤ d'
    >>> plain_math(r":math:`\sqrt{k_i k_j}`, :math:`\binom{d}{k_j}`, :math:`r_{ij}`")
    '√(kᵢ kⱼ), C(d, kⱼ), rᵢⱼ'
    """
    return _MATH_ROLE.sub(lambda m: _tex_to_text(m.group(1)), text)
