"""Writes rpackage/R/measure_pages.R: one roxygen help page per stabm-style function of the
R package (stabm's 20 and the 4 propstab adds), generated from propstab's registry and
from stabm_differences() (every documented difference of that function).

Each function's definition carries ``@rdname <function>`` (its usage); its arguments are
inherited from the family page (stabm_pairs, stabm_frequencies, stabm_similar,
more_measures). A page's "Differences from stabm" lists the differences of its measure's
value; the differences of the interface, which many functions share (warnings, argument
checks, ``correction.for.chance = "estimate"``, ...), are written once, as the sections of
one internal page (stabm_interface_differences), and each function's page inherits those
that apply to it (``@inheritSection``). Run ``make rdoc`` afterwards (roxygen2 writes
man/). A test (tests/test_rpackage_docs.py) checks the committed file is what this script
writes.

Usage: python scripts/gen_r_pages.py [--check]
"""
from __future__ import annotations

import inspect
import pathlib
import re
import sys
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from propstab.registry._registry import get_measure  # noqa: F401
from propstab.r._frontend import differences, stabm_functions  # noqa: E402
from propstab.r._interface import INTERFACE_DIFFERENCES  # noqa: E402

OUT = ROOT / "rpackage" / "R" / "measure_pages.R"

#: The stabm-style functions propstab adds (R function -> measure), as R's .more_functions.
MORE = {
    "stabilityKuncheva": "kuncheva",
    "stabilityPOG": "pog",
    "stabilityNPOG": "npog",
    "stabilityMSI": "msi",
}
FAMILY_PAGE = {"frequency": "stabm_frequencies", "correlated": "stabm_similar"}
#: The internal page holding the interface differences, one section each.
SHARED_PAGE = "stabm_interface_differences"
ASCII = {
    "∩": " cap ",
    "∪": " cup ",
    "k̄": "k-bar",
    "≥": ">=",
    "≤": "<=",
    "−": "-",
    "×": "x",
    "√": "sqrt",
    "∑": "sum",
    "Σ": "sum",
    "·": "*",
    "–": "-",
    "—": "-",
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "é": "e",
    "ö": "o",
    "ü": "u",
    "á": "a",
}


#: Formulas in the registry's and the differences' prose (as written there, Unicode) ->
#: (LaTeX, the ASCII text of R's text help): written as Rd's ``\eqn{}{}``, typeset on
#: the site and in the PDF manual. Longest first (a formula holding another is replaced
#: whole).
FORMULAS = {
    "(rᵢⱼ - kᵢ kⱼ/p) / (√(kᵢ kⱼ) - kᵢ kⱼ/p)": (
        r"(r_{ij} - k_i k_j/p) / (\sqrt{k_i k_j} - k_i k_j/p)",
        "(rij - ki kj/p) / (sqrt(ki kj) - ki kj/p)",
    ),
    "kᵢ kⱼ / p": (r"k_i k_j / p", "ki kj / p"),
    "(kᵢ + kⱼ)/2": (r"(k_i + k_j)/2", "(ki + kj)/2"),
    "√(kᵢ kⱼ)": (r"\sqrt{k_i k_j}", "sqrt(ki kj)"),
    "1/sqrt(N)": (r"1/\sqrt{N}", "1/sqrt(N)"),
}


def eqn(tex: str, text: str) -> str:
    """Rd's inline formula: LaTeX for the PDF manual and the site, ``text`` for R's text
    help (both verbatim Rd)."""
    return "\\eqn{" + tex.replace("%", "\\%") + "}{" + ascii(text).replace("%", "\\%") + "}"


def ascii(text: str) -> str:
    """R sources stay ASCII (R CMD check): the registry's symbols spelled out."""
    for symbol, word in ASCII.items():
        text = text.replace(symbol, word)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(text.split())


def rd(text: str) -> str:
    """Markdown roxygen text: escape what Rd or markdown would read; the formulas of
    :data:`FORMULAS` become ``\\eqn{}{}``."""
    found = []
    for source in sorted(FORMULAS, key=len, reverse=True):
        while source in text:
            text = text.replace(source, f"FORMULA{len(found)}X", 1)
            found.append(eqn(*FORMULAS[source]))
    escaped = _escape(text)
    for i, formula in enumerate(found):
        escaped = escaped.replace(f"FORMULA{i}X", formula, 1)
    return escaped


def _escape(text: str) -> str:
    return (
        ascii(text)
        .replace("\\", "\\\\")
        .replace("%", "\\%")
        .replace("{", "\\{")
        .replace("}", "\\}")
        .replace("[", "\\[")
        .replace("]", "\\]")
        .replace("_", "\\_")
        .replace("*", "\\*")
    )


def _tex(doc: str) -> str:
    """The first ``.. math::`` formula of a docstring (the measure's definition), on one line."""
    lines = inspect.cleandoc(doc or "").splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith(".. math::"):
            indent = len(line) - len(line.lstrip())
            body = [line.strip()[len(".. math::") :]]
            for more in lines[i + 1 :]:
                if more.strip() and len(more) - len(more.lstrip()) <= indent:
                    break
                body.append(more)
            return " ".join(" ".join(body).split())
    raise ValueError(f"no .. math:: formula in the docstring: {doc[:60]!r}")


def deqn(tex: str, text: str) -> str:
    """Rd's display formula: LaTeX for the PDF manual, HTML help and the site (which
    typesets it), ``text`` (ASCII) for R's text help. Both arguments are verbatim Rd."""
    latex = tex.replace("%", "\\%")
    plain = ascii(text).replace("\\", "\\\\").replace("%", "\\%")
    return "\\deqn{" + latex + "}{" + plain + "}"


#: A word of the text to wrap: an ``\eqn{}{}`` whole (its spaces kept on one line), or a
#: run of non-blanks.
_WORD = re.compile(r"\\eqn\{(?:[^{}]|\{[^{}]*\})*\}\{[^{}]*\}\S*|\S+")


def wrap(text: str, first: str = "", indent: str = "#' ") -> list:
    words, lines, line = _WORD.findall(text), [], "#' " + first
    for w in words:
        if len(line) + len(w) + 1 > 90:
            lines.append(line.rstrip())
            line = indent
        line += w + " "
    lines.append(line.rstrip())
    return lines


def example(function: str, measure: str, similarity: bool) -> list:
    if similarity:
        return [
            "S <- diag(5); S[1, 2] <- S[2, 1] <- 0.95",
            f"{function}(list(c(1, 3), c(2, 3), c(1, 4)), sim.mat = S)",
        ]
    return [f"{function}(list(1:3, 2:4, c(1, 3, 5)), p = 6)"]


def page(function: str, measure: str, similarity: bool, in_stabm: bool) -> list:
    info = get_measure(measure)
    family = FAMILY_PAGE.get(info.family, "stabm_pairs") if in_stabm else "more_measures"
    low, high = (ascii(b.text) for b in info.bounds)
    lines = [f"#' Stability measure {function[len('stability'):]}", "#'"]
    lines += wrap(
        f'The stability of feature selection as propstab\'s measure `"{measure}"`, with '
        + (
            f"the name, arguments and value of stabm's `{function}()`"
            if in_stabm
            else "stabm's conventions (stabm has no such function)"
        )
        + f'; the same value as `stability(features, measure = "{measure}")`. '
        f"Its range is \\[{rd(low)}, {rd(high)}\\]. Its definition:"
    )
    lines += ["#' " + deqn(_tex(info.function.__doc__), info.summary), "#'"]
    lines += wrap(f"Family page, with the arguments shared by these functions: [{family}].")
    # the family page's arguments, then those it lacks (stabm_pairs' for the other stabm
    # families, stability()'s for the functions stabm lacks), each page named once
    inherited = [family, "stabm_pairs" if in_stabm else "stability"]
    lines += [f"#' @inheritParams {name}" for name in dict.fromkeys(inherited)]
    lines += [
        "#' @return The stability, a number; `NA` with a warning saying why where the",
        "#'   measure is undefined (and `impute.na` is `NULL`, where the function has it).",
        "#' @section Differences from stabm:",
    ]
    rows = differences(function) if in_stabm else []
    values = [row for row in rows if row["measures"] != "(interface)"]
    shared = [row for row in rows if row["measures"] == "(interface)"]
    if values:
        lines.append("#' \\itemize{")
        for row in values:
            lines += item(row)
        lines.append("#' }")
    elif in_stabm:
        lines += wrap("The value is stabm's; the differences of the interface follow.")
    else:
        lines += wrap("stabm has no such function; the measure follows its reference below.")
    lines += [f"#' @inheritSection {SHARED_PAGE} {section_title(row)}" for row in shared]
    lines += ["#' @references"]
    lines += wrap("; ".join(rd(r) for r in info.references) + ".", indent="#'   ")
    lines += [
        f"#' @seealso [{family}], [stability()], [stabm_differences()],",
        "#'   [listStabilityMeasures()].",
        "#' @examplesIf propstab_available()",
    ]
    lines += [f"#' {line}" for line in example(function, measure, similarity)]
    lines += [f"#' @name {function}", "NULL", ""]
    return lines


def item(row: dict) -> list:
    """One difference as an item of an Rd list."""
    return wrap(
        f"\\item {rd(row['summary'])} (`stabm_differences()` key "
        f"`{row['key']}`): {rd(row['reason']).rstrip('.')}.",
        indent="#'   ",
    )


def section_title(row: dict) -> str:
    """The title of an interface difference's section: plain words (no markdown), the
    same in the section and in every @inheritSection that copies it."""
    words = ascii(row["summary"]).replace('"', "").replace("`", "").replace(":", " -")
    words = "".join(c for c in words if c not in "[]*_{}%\\")  # (the title ends at a colon)
    return "Difference from stabm - " + words


def shared_page() -> list:
    """The internal page holding each interface difference once, as a section that the
    pages of the functions it applies to inherit."""
    lines = ["#' Differences of propstab's stabm interface shared by many functions", "#'"]
    lines += wrap(
        "The differences from stabm of the interface (not of a measure's value) "
        "that several stability* functions share, one section each; each "
        "function's help page includes those that apply to it. "
        "[stabm_differences()] lists them with examples."
    )
    for d in INTERFACE_DIFFERENCES:
        row = {**d.as_dict(), "measures": "(interface)"}
        if not any(
            f.startswith("stability") or f.startswith("all stability") for f in d.r_functions
        ):
            continue
        lines += [f"#' @section {section_title(row)}:"]
        lines += wrap(
            f"{rd(row['reason']).rstrip('.')} (`stabm_differences()` key " f"`{row['key']}`)."
        )
    lines += [
        "#' @seealso [stabm_differences()]",
        "#' @keywords internal",
        f"#' @name {SHARED_PAGE}",
        "NULL",
        "",
    ]
    return lines


def generate() -> str:
    out = [
        "# Generated by scripts/gen_r_pages.py from propstab's registry: do not edit by hand.",
        "# One help page per stabm-style function (each function carries @rdname), and the",
        "# internal page of the interface differences they share (@inheritSection).",
        "",
    ]
    out += shared_page()
    specs = stabm_functions()
    entries = [(f, s.measure, s.similarity, True) for f, s in specs.items()]
    entries += [(f, m, m == "msi", False) for f, m in MORE.items()]
    for entry in sorted(entries):
        out += page(*entry)
    return "\n".join(out)


if __name__ == "__main__":
    text = generate()
    if "--check" in sys.argv:
        sys.exit(0 if OUT.exists() and OUT.read_text() == text else 1)
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
