"""Writes rpackage/R/measure_pages.R: one roxygen help page per stabm-style function of the
R package (stabm's 20 and the 4 propstab adds), generated from propstab's registry and
from stabm_differences() (every documented difference of that function).

Each function's definition carries ``@rdname <function>`` (its usage); its arguments are
inherited from the family page (stabm_pairs, stabm_frequencies, stabm_similar,
more_measures). Run ``make rdoc`` afterwards (roxygen2 writes man/). A test
(tests/test_rpackage_docs.py) checks the committed file is what this script writes.

Usage: python scripts/gen_r_pages.py [--check]
"""
from __future__ import annotations

import inspect
import pathlib
import sys
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from propstab.registry._registry import get_measure  # noqa: F401
from propstab.r._frontend import differences, stabm_functions  # noqa: E402

OUT = ROOT / "rpackage" / "R" / "measure_pages.R"

#: The stabm-style functions propstab adds (R function -> measure), as R's .more_functions.
MORE = {
    "stabilityKuncheva": "kuncheva",
    "stabilityPOG": "pog",
    "stabilityNPOG": "npog",
    "stabilityMSI": "msi",
}
FAMILY_PAGE = {"frequency": "stabm_frequencies", "correlated": "stabm_similar"}
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


def ascii(text: str) -> str:
    """R sources stay ASCII (R CMD check): the registry's symbols spelled out."""
    for symbol, word in ASCII.items():
        text = text.replace(symbol, word)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(text.split())


def rd(text: str) -> str:
    """Markdown roxygen text: escape what Rd or markdown would read."""
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


def wrap(text: str, first: str = "", indent: str = "#' ") -> list:
    words, lines, line = text.split(), [], "#' " + first
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
    lines += [
        f"#' @inheritParams {family}",
        f"#' @inheritParams {'stabm_pairs' if in_stabm else 'stability'}",
        "#' @return The stability, a number; `NA` with a warning saying why where the",
        "#'   measure is undefined (and `impute.na` is `NULL`, where the function has it).",
        "#' @section Differences from stabm:",
    ]
    rows = differences(function) if in_stabm else []
    if rows:
        lines.append("#' \\itemize{")
        for row in rows:
            lines += wrap(
                f"\\item {rd(row['summary'])} (`stabm_differences()` key "
                f"`{row['key']}`): {rd(row['reason']).rstrip('.')}.",
                indent="#'   ",
            )
        lines.append("#' }")
    else:
        lines += wrap("stabm has no such function; the measure follows its reference below.")
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


def generate() -> str:
    out = [
        "# Generated by scripts/gen_r_pages.py from propstab's registry: do not edit by hand.",
        "# One help page per stabm-style function (each function carries @rdname).",
        "",
    ]
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
