"""Sphinx support for propstab's documentation site.

Pages generated from the code at build time (written before Sphinx reads the sources,
into folders that git ignores, so they cannot drift from the package):

- ``catalogue/``: one page per registered measure (formula, declared properties with the
  audit's verdicts, bounds, options, R reference, references) and an index, read from
  the registry (:func:`propstab.list_measures`) and from an axiom audit run during the
  build (``shared_audit.audit_rows``, docs/_ext/shared_audit.py);
- ``api/index.rst`` and ``api/<module>.rst``: the API reference, an index of the public
  modules and a page per module with one autosummary entry per public name of its
  ``__all__``, each object documented once, at its canonical location
  (:func:`public_names`).

The extension part (:func:`setup`) resolves cross-references to a public name through
any of its public spellings (``propstab.estimate`` and ``propstab.inference.estimate``
are the same function, documented once).
"""
from __future__ import annotations

import importlib
import inspect
import pathlib
import re
import textwrap
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: The public modules, in the order of the API reference, with a heading each.
API_SECTIONS = (
    ("propstab", "Top level"),
    ("propstab.measures", "Measures"),
    ("propstab.registry", "The measure registry: declaring a measure"),
    ("propstab.axioms", "Axioms"),
    ("propstab.inference", "Inference"),
    ("propstab.auditing", "The axiom audit"),
    ("propstab.strategies", "Hypothesis strategies"),
    ("propstab.search", "Reproducible searches for counterexamples"),
    ("propstab.chance", "Exact null-model distributions"),
    ("propstab.resampling", "From data to stability"),
    ("propstab.error_control", "Error control of stability selection"),
    ("propstab.stability_selection", "Stability selection"),
    ("propstab.calibration", "Calibrating stability selection (sharp, Stabl)"),
    ("propstab.selection", "Stability selection, by its former module name"),
    ("propstab.tuning", "Tuning for stability"),
    ("propstab.selectors", "Selectors: estimators and callables as feature selectors"),
    ("propstab.similarity", "Similarity matrices"),
    ("propstab.plots", "Plots"),
    ("propstab.r", "The R bridge"),
    ("propstab.testing", "Stability as a regression test"),
    ("propstab.settings", "Settings: the memory of the pairwise measures"),
)

#: One notation for the property tables (the catalogue's index and every measure page):
#: the audit's status of a (measure, property) row -> its mark and its meaning.
MARKS = {"holds": "✓", "violated": "✗", "refuted": "–", "unrefuted": "–?", "skipped": "·"}
MEANINGS = {
    "holds": "claimed and confirmed: the audit found no counterexample",
    "violated": "claimed but refuted: the audit found a counterexample (a wrong claim)",
    "refuted": "not claimed, and rightly so: the audit shows a counterexample",
    "unrefuted": "not claimed; the audit found no counterexample either",
    "skipped": "not audited (the check does not apply)",
}
LEGEND = (
    "Marks: "
    + "; ".join(f"{MARKS[k]} {MEANINGS[k]}" for k in MARKS)
    + ". The symbols are defined in the :doc:`/notation`."
)


def _scale_text(scale) -> str:
    """An interpretation scale ``((0.4, "poor"), (0.75, ...), (inf, "excellent"))`` as
    ``below 0.4: poor; 0.4 to 0.75: ...; above 0.75: excellent``."""
    parts, low = [], None
    for upper, label in scale:
        if low is None:
            parts.append(f"below {upper:g}: {label}")
        elif upper == float("inf"):
            parts.append(f"above {low:g}: {label}")
        else:
            parts.append(f"{low:g} to {upper:g}: {label}")
        low = upper
    return "; ".join(parts)


# ------------------------------------------------------------------ small helpers


def write_if_changed(path: pathlib.Path, text: str) -> None:
    """Write ``text`` unless the file already holds it (Sphinx re-reads changed files)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def remove_stale(folder: pathlib.Path, keep, pattern: str = "*.rst") -> None:
    """Delete generated files of ``folder`` that this build did not write."""
    for f in folder.glob(pattern):
        if f.name not in keep:
            f.unlink()


def rst_escape(text) -> str:
    """Plain text as reStructuredText: inline markup characters escaped."""
    text = " ".join(str(text).split())
    return re.sub(r"([\\*`|_<>\[\]])", r"\\\1", text)


#: A page of this site named by its source file (``docs/inference.md``) in a docstring
#: or a registry note: on the site it becomes a link to the page.
_DOC_PATH = re.compile(r"\bdocs/([\w/]+)\.md\b")
# the same path as inline code (``docs/x.md``): the link replaces the code, backticks too
_DOC_CODE = re.compile(r"``docs/([\w/]+)\.md``")


def _doc_link(match) -> str:
    name = match.group(1)
    if (ROOT / "docs" / f"{name}.md").is_file():
        return f":doc:`/{name}`"
    return match.group(0)


_MATH_ROLE = re.compile(r":math:`[^`]+`")


def rst_text(text) -> str:
    """Like :func:`rst_escape`, with each ``docs/<page>.md`` turned into a link and each
    ``:math:`...``` formula of a registry text kept for MathJax."""
    text = " ".join(str(text).split())
    out, last = [], 0
    pattern = re.compile(f"{_DOC_PATH.pattern}|{_MATH_ROLE.pattern}")

    def escape(part):
        return re.sub(r"([\\*`|_<>\[\]])", r"\\\1", part)

    for m in pattern.finditer(text):
        out.append(escape(text[last : m.start()]))
        out.append(m.group(0) if m.group(0).startswith(":math:") else _doc_link(m))
        last = m.end()
    out.append(escape(text[last:]))
    return "".join(out)


def _docstring_doc_links(app, what, name, obj, options, lines):
    """``docs/<page>.md`` in a docstring's prose -> a link to that page of the site
    (``help()`` keeps the readable path); doctest blocks are left as they are."""
    in_doctest = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(">>>"):
            in_doctest = True
        elif not stripped:
            in_doctest = False
        if not in_doctest and "docs/" in line:
            lines[i] = _DOC_PATH.sub(_doc_link, _DOC_CODE.sub(_doc_link, line))


def heading(text: str, char: str = "=") -> str:
    return f"{text}\n{char * len(text)}\n"


# ------------------------------------------------------------------ the measure catalogue


def _math_blocks(doc: str) -> list:
    """The ``.. math::`` directives of a docstring, with their indented bodies."""
    lines = inspect.cleandoc(doc or "").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].lstrip().startswith(".. math::"):
            indent = len(lines[i]) - len(lines[i].lstrip())
            block = [lines[i][indent:]]
            i += 1
            while i < len(lines) and (
                not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
            ):
                block.append(lines[i][indent:] if lines[i].strip() else "")
                i += 1
            while block and not block[-1].strip():
                block.pop()
            blocks.append("\n".join(block))
        else:
            i += 1
    return blocks


def _matrix(Z, ranking: bool = False) -> str:
    """A 0/1 matrix as ``[110, 011]``; a rank matrix as ``[1 2 3, 2 1 3]``."""
    if ranking:
        return "[" + ", ".join(" ".join(f"{c:g}" for c in row) for row in Z) + "]"
    return "[" + ", ".join("".join(str(int(c)) for c in row) for row in Z) + "]"


#: The audit's reasons write the null expectation as ``E[value | H0]``: typeset here.
_REASON_MATH = {"E[value | H0]": r":math:`E[\text{value} \mid H_0]`"}


def _reason(text: str) -> str:
    text = " ".join(str(text).split())
    parts = re.split("(" + "|".join(map(re.escape, _REASON_MATH)) + ")", text)
    return "".join(
        _REASON_MATH.get(part) or re.sub(r"([\\*`|_<>\[\]])", r"\\\1", part) for part in parts
    )


def _evidence(row: dict, ranking: bool = False) -> str:
    """The evidence cell of a verdict: the reason, and the counterexample in full (a
    rank matrix R for a measure of the ranking family)."""
    parts = [_reason(row["reason"])]
    ce = row.get("counterexample")
    Z = "R" if ranking else "Z"
    if isinstance(ce, list) and ce and isinstance(ce[0][0], list):  # a pair
        parts.append(
            f"``{Z}1 = {_matrix(ce[0], ranking)}``, " f"``{Z}2 = {_matrix(ce[1], ranking)}``"
        )
    elif isinstance(ce, list) and ce:
        parts.append(f"``{Z} = {_matrix(ce, ranking)}``")
    context = row.get("context") or {}
    if context.get("similarity") is not None:
        C = context["similarity"]
        parts.append("with ``C = [" + "; ".join(" ".join(f"{x:g}" for x in r) for r in C) + "]``")
    if context.get("importance_weights") is not None:
        parts.append("with importance weights")
    return " ".join(parts)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _verdict_table(rows: list, axioms, ranking: bool = False) -> str:
    by_axiom = {r["axiom"]: r for r in rows}
    lines = [
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 16 6 78",
        "   :class: verdicts",
        "",
        "   * - property",
        "     - mark",
        "     - the audit's evidence",
    ]
    for a in axioms:
        r = by_axiom.get(a.name)
        mark = MARKS[r["status"]] if r else MARKS["skipped"]
        meaning = MEANINGS[r["status"]] if r else MEANINGS["skipped"]
        lines += [
            f"   * - :ref:`{a.label} <axiom-{a.name.lower()}>`",
            f"     - {mark}",
            f"     - {meaning[0].upper() + meaning[1:]}. "
            f"{_capital(_evidence(r, ranking)) if r else ''}",
        ]
    return "\n".join(lines) + "\n"


def _measure_page(info, rows_by_label: dict, audit_note: str) -> str:
    from propstab import Axiom
    from propstab.auditing import VARIANTS

    name = info.name
    out = [f".. _measure-{name}:\n", heading(f"{name}"), ""]
    first = " ".join((inspect.getdoc(info.function) or info.summary).split("\n\n")[0].split())
    out.append(
        f"*{info.family} family* — {first} The symbols are defined in " "the :doc:`/notation`.\n"
    )
    ranking = info.input == "ranking"
    Z = "R" if ranking else "Z"
    fields = [
        (
            ":Call:",
            f'``propstab.stability({Z}, measure="{name}")`` or '
            f":func:`propstab.measures.{name}`",
        )
    ]
    if ranking:
        fields.append(
            (
                ":Input:",
                "a rank matrix R (runs x features, rank 1 the most "
                "important; :func:`propstab.as_rankings`), audited "
                "against the axioms stated for rankings "
                "(:doc:`/rankings`)",
            )
        )
    if info.aliases:
        fields.append((":Aliases:", ", ".join(f"``{a}``" for a in info.aliases)))
    lo, hi = info.bounds
    fields.append(
        (
            ":Bounds:",
            f"[``{lo}``, ``{hi}``]"
            + (
                ""
                if lo is not None and hi is not None and lo.is_constant and hi.is_constant
                else " (functions of M, d and the sizes k)"
            ),
        )
    )
    fields.append(
        (":Stable when:", "higher values" if info.orientation == "higher" else "lower values")
    )
    fields.append(
        (
            ":Domain:",
            f"every {Z}"
            if info.domain == "any"
            else "a constant subset size only (elsewhere NaN with "
            ":class:`~propstab.UndefinedMeasureWarning`)",
        )
    )
    if info.null_value is not None:
        fields.append(
            (
                ":Null value:",
                rf":math:`E[\,\cdot \mid H_0] = {info.null_value:g}`"
                " (the expected value under selection at random)",
            )
        )
    if info.scale:
        fields.append(
            (
                ":Scale:",
                rst_escape(_scale_text(info.scale))
                + " (Nogueira's thesis, Table 6.1, after Fleiss' kappa)",
            )
        )
    out += [f"{k} {v}" for k, v in fields] + [""]

    out.append(heading("Formula", "-"))
    blocks = _math_blocks(info.function.__doc__)
    if not blocks:
        out.append(f"``{info.summary}``\n")
    for block in blocks:
        out.append(block + "\n")
    out.append(f"The full docstring, with examples: :func:`propstab.measures.{name}`.\n")

    if info.parameters:
        out.append(heading("Options", "-"))
        for p in info.parameters:
            extra = f" One of {', '.join(f'``{c!r}``' for c in p.choices)}." if p.choices else ""
            out.append(
                f"``{p.name}`` (default ``{p.default!r}``)\n"
                f"   {rst_text(p.description)}{extra}\n"
            )

    out.append(heading("Properties: declared and audited", "-"))
    out.append(audit_note + "\n")
    out.append(LEGEND + "\n")
    out.append(_verdict_table(rows_by_label.get(name, []), Axiom, ranking))
    for v in VARIANTS.get(name, ()):
        label = name + "[" + ", ".join(f"{k}={val}" for k, val in v.options.items()) + "]"
        options = ", ".join(f"{k}={val!r}" for k, val in v.options.items())
        out.append(heading(f"With {options}", "~"))
        out.append(rst_text(v.reason) + ".\n")
        out.append(_verdict_table(rows_by_label.get(label, []), Axiom, ranking))
    if info.notes:
        out.append(".. note::\n\n   " + rst_text(info.notes) + "\n")

    out.append(heading("Confidence interval", "-"))
    out.append(
        f'``propstab.estimate({Z}, measure="{name}")`` gives the value with its '
        "variance (its ``method`` says which: analytic where a closed form is known, "
        "else the delete-one-run jackknife or the bootstrap); its "
        "``confidence_interval()`` is the interval (below 100 runs "
        "the logit interval with the jackknife variance, which held its level best in "
        "the validation study), and :func:`propstab.one_sample_test` and "
        ":func:`propstab.two_sample_test` test it. The methods and their coverage: "
        ":doc:`/inference`.\n"
    )

    out.append(heading("R reference", "-"))
    ref = info.r_reference
    if ref is None:
        out.append("None: no R package computes this measure.\n")
    else:
        text = f"``{ref}``, compared with propstab on every CI run " "(:doc:`/r_crosscheck`)."
        if ref.arguments:
            text += (
                " Options: "
                + ", ".join(f"``{k}`` → ``{v}``" for k, v in ref.arguments.items())
                + "."
            )
        if ref.note:
            text += " " + rst_text(ref.note)
        out.append(text + "\n")
        from propstab.r import EXPECTED_DIFFERENCES

        diffs = [d for d in EXPECTED_DIFFERENCES if name in d.measures]
        if diffs:
            out.append(
                "Documented differences (propstab follows the definition; see "
                ":doc:`/r_crosscheck`):\n"
            )
            out += [f"- ``{d.key}``: {rst_escape(d.summary)}" for d in diffs]
            out.append("")

    out.append(heading("References", "-"))
    out += [f"- {rst_escape(r)}" for r in info.references]
    out.append("")
    return "\n".join(out)


def _index_page(infos, rows_by_label: dict, audit_note: str) -> str:
    from propstab import Axiom

    out = [".. _catalogue:\n", heading("Measure catalogue"), ""]
    out.append(
        "Every stability measure propstab registers, one page each, generated from the "
        "registry when this site is built. A measure *declares* which of the five "
        "properties (:ref:`properties`) it has; the axiom audit searches each claimed "
        "property for a counterexample and each disclaimed one for a refutation. The "
        "marks below combine both; each measure's page shows the evidence.\n"
    )
    out.append(LEGEND + "\n")
    out.append(audit_note + "\n")
    out.append(
        "The same table as one Markdown page: :doc:`/measures` (also printed by "
        "``propstab measures``).\n"
    )
    titles = {
        "pairwise": "Pairwise measures",
        "frequency": "Frequency-based measures",
        "correlated": "Measures for correlated feature spaces",
    }
    blurbs = {
        "pairwise": "The mean over pairs of runs of a similarity between two feature sets.",
        "frequency": "Functions of the features' selection frequencies (or counts).",
        "correlated": "Measures that credit the selection of similar (correlated) features "
        "or use importances; they take a ``similarity`` matrix, a threshold "
        "or ``importances`` (:doc:`/correlated`).",
    }
    for family in ("pairwise", "frequency", "correlated"):
        members = [m for m in infos if m.family == family]
        if not members:
            continue
        out.append(heading(titles[family], "-"))
        out.append(blurbs[family] + "\n")
        # the marks first, next to the name (visible without scrolling at any width);
        # the formula, the widest cell, last
        out += [
            ".. list-table::",
            "   :header-rows: 1",
            "   :class: catalogue",
            "   :widths: 14 6 6 6 6 6 10 46",
            "",
            "   * - measure",
        ]
        out += [f"     - {a.label}" for a in Axiom]
        out += ["     - range", "     - formula"]
        for m in members:
            by_axiom = {r["axiom"]: r for r in rows_by_label.get(m.name, [])}
            blocks = _math_blocks(m.function.__doc__)
            formula = (
                f"``{m.summary}``" if not blocks else textwrap.indent(blocks[0], " " * 7).lstrip()
            )
            out.append(f"   * - :ref:`{m.name} <measure-{m.name}>`")
            out += [
                f"     - {MARKS[by_axiom[a.name]['status']] if a.name in by_axiom else ''}"
                for a in Axiom
            ]
            out.append(f"     - [``{m.bounds[0]}``, ``{m.bounds[1]}``]")
            out += [f"     - {formula}", ""]
        out.append("")
    out += [".. toctree::", "   :hidden:", "", "   /measures"]
    out += [f"   {m.name}" for m in infos]
    out.append("")
    return "\n".join(out)


def generate_catalogue(folder: pathlib.Path, rows: list, audit_note: str) -> int:
    """Write ``folder/index.rst`` and one ``folder/<measure>.rst`` per registered measure;
    returns the number of measure pages."""
    import propstab

    infos = propstab.list_measures()
    rows_by_label: dict = {}
    for r in rows:
        rows_by_label.setdefault(r["measure"], []).append(r)
    written = {"index.rst"}
    write_if_changed(folder / "index.rst", _index_page(infos, rows_by_label, audit_note))
    for info in infos:
        write_if_changed(
            folder / f"{info.name}.rst", _measure_page(info, rows_by_label, audit_note)
        )
        written.add(f"{info.name}.rst")
    remove_stale(folder, written)
    return len(infos)


# ------------------------------------------------------------------ the API reference


def _is_documentable(obj) -> bool:
    return not isinstance(obj, types.ModuleType)


def public_names():
    """``(sections, aliases)``.

    ``sections``: for each public module of :data:`API_SECTIONS`, the list of
    ``(name, canonical)``: every name of its ``__all__`` with the full name under which
    the object is documented. An object is documented once: in :mod:`propstab.registry`
    for the declaration API, else at the top level when ``propstab`` exports it, else in
    the first module listing it.
    ``aliases``: every other public spelling of a documented object -> its canonical
    full name (used to resolve cross-references).
    """
    canonical_by_id: dict = {}
    sections, aliases = [], {}
    # the declaration API is documented in its home, propstab.registry, though the top
    # level re-exports some of it (propstab.RReference, as before)
    home = importlib.import_module("propstab.registry")
    for name in home.__all__:
        canonical_by_id.setdefault(id(getattr(home, name)), f"propstab.registry.{name}")
    top = importlib.import_module("propstab")
    for name in top.__all__:
        obj = getattr(top, name)
        if _is_documentable(obj):
            canonical_by_id.setdefault(id(obj), f"propstab.{name}")
    for modname, _ in API_SECTIONS:
        module = importlib.import_module(modname)
        entries = []
        for name in module.__all__:
            obj = getattr(module, name)
            if not _is_documentable(obj):
                continue
            full = f"{modname}.{name}"
            canonical = canonical_by_id.setdefault(id(obj), full)
            entries.append((name, canonical))
            if canonical != full:
                aliases[full] = canonical
        sections.append((modname, entries))
    return sections, aliases


def _module_summary(modname: str) -> str:
    """The first paragraph of a module's docstring, on one line."""
    doc = inspect.getdoc(importlib.import_module(modname)) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())


def _api_module_page(modname: str, title: str, entries) -> str:
    """One public module's page: its docstring and a table of its public names (one line
    each, linking the name's own page)."""
    out = [heading(f"{title}: ``{modname}``"), ""]
    out += [
        f".. automodule:: {modname}",
        "   :no-members:",
        "",
        f".. currentmodule:: {modname}",
        "",
    ]
    own = [n for n, c in entries if c == f"{modname}.{n}"]
    elsewhere = [c for n, c in entries if c != f"{modname}.{n}"]
    if own:
        out += [".. autosummary::", "   :toctree: generated/", "   :nosignatures:", ""]
        out += [f"   {n}" for n in own]
        out.append("")
    if elsewhere:
        out.append("Also public here, documented under the name shown:\n")
        out += [".. autosummary::", "   :nosignatures:", ""]
        out += [f"   ~{c}" for c in elsewhere]
        out.append("")
    return "\n".join(out)


def _api_index() -> str:
    """The API reference's index: one line per public module (its title, its name and its
    docstring's summary), each linking the module's page."""
    sections, _ = public_names()
    titles = dict(API_SECTIONS)
    out = [".. _api:\n", heading("API reference"), ""]
    out.append(
        "Every public name of propstab, one page per public module (generated from each "
        "module's ``__all__`` when this site is built). A name exported at the top level "
        "(``propstab.estimate``) is documented there; the module that defines it lists "
        "it with a link. ``propstab.stability(Z, measure=...)`` is the entry point; the "
        "measures are also plain functions of :mod:`propstab.measures`.\n"
    )
    out += [".. toctree::", "   :hidden:", ""]
    out += [f"   {modname}" for modname, _ in sections]
    out.append("")
    for modname, entries in sections:
        out.append(
            f"- :doc:`{titles[modname]} <{modname}>` (``{modname}``, {len(entries)} "
            f"name{'s' * (len(entries) != 1)}): "
            f"{_module_summary(modname)}"
        )
    out.append("")
    return "\n".join(out)


#: The user guide's page for each public module (``Read more in the User Guide`` on the
#: API pages); names listed in GUIDE_BY_NAME override their module's page.
GUIDE_BY_MODULE = {
    "propstab": ("/user_guide/choosing", "Measures, and how to choose one"),
    "propstab.measures": ("/user_guide/choosing", "Measures, and how to choose one"),
    "propstab.registry": ("/contributing", "Adding a measure"),
    "propstab.axioms": ("/user_guide/properties", "The five properties, and the audit"),
    "propstab.inference": ("/inference", "Inference for stability"),
    "propstab.auditing": ("/user_guide/properties", "The five properties, and the audit"),
    "propstab.strategies": ("/user_guide/properties", "The five properties, and the audit"),
    "propstab.search": ("/user_guide/properties", "The five properties, and the audit"),
    "propstab.chance": ("/varying_sizes", "Varying subset sizes"),
    "propstab.resampling": ("/from_data", "From data to stability"),
    "propstab.error_control": ("/stability_selection", "Stability selection"),
    "propstab.stability_selection": ("/stability_selection", "Stability selection"),
    "propstab.selection": ("/stability_selection", "Stability selection"),
    "propstab.selectors": ("/from_data", "From data to stability"),
    "propstab.similarity": ("/correlated", "Correlated feature spaces"),
    "propstab.plots": ("/auto_gallery/index", "the gallery"),
    "propstab.r": ("/r_crosscheck", "Cross-checking with R"),
}
GUIDE_BY_NAME = {
    "estimate": "propstab.inference",
    "one_sample_test": "propstab.inference",
    "two_sample_test": "propstab.inference",
    "pairwise_tests": "propstab.inference",
    "population_stability": "propstab.inference",
    "StabilityEstimate": "propstab.inference",
    "resample": "propstab.resampling",
    "assess": "propstab.resampling",
    "compare": "propstab.resampling",
    "StabilitySelection": "propstab.stability_selection",
    "audit": "propstab.auditing",
    "Axiom": "propstab.axioms",
    "AuditTable": "propstab.auditing",
    "crosscheck": "propstab.r",
}
RANKING_PAGE = ("/rankings", "The stability of rankings and weights")


def guide_pages() -> dict:
    """Canonical full name of every documented public object -> ``(page, title)`` of the
    user guide that explains it (the API pages link to it)."""
    sections, _ = public_names()
    out = {}
    for module, entries in sections:
        for name, canonical in entries:
            if canonical in out:
                continue
            home = GUIDE_BY_NAME.get(name, canonical.rpartition(".")[0])
            if "rank" in name.lower():
                out[canonical] = RANKING_PAGE
            elif home in GUIDE_BY_MODULE:
                out[canonical] = GUIDE_BY_MODULE[home]
    return out


def formula_pages() -> set:
    """Canonical full names of the documented objects whose docstrings (a class's with its
    public members') write a formula (``:math:`` or ``.. math::``): their API pages link
    to the notation page, where the symbols are defined."""
    sections, _ = public_names()
    out = set()
    for module, entries in sections:
        for name, canonical in entries:
            obj = getattr(importlib.import_module(module), name)
            docs = [inspect.getdoc(obj) or ""]
            if inspect.isclass(obj):
                docs += [
                    inspect.getdoc(member) or ""
                    for key, member in vars(obj).items()
                    if not key.startswith("_")
                ]
            if any(":math:" in doc or ".. math::" in doc for doc in docs):
                out.add(canonical)
    return out


def generate_api(folder: pathlib.Path) -> None:
    """Write ``folder/index.rst`` and a page per public module, ``folder/<module>.rst``
    (autosummary generates the object pages from them); pages of modules no longer
    public are removed."""
    sections, _ = public_names()
    titles = dict(API_SECTIONS)
    write_if_changed(folder / "index.rst", _api_index())
    for modname, entries in sections:
        write_if_changed(
            folder / f"{modname}.rst", _api_module_page(modname, titles[modname], entries)
        )
    remove_stale(folder, {"index.rst"} | {f"{m}.rst" for m, _ in sections})


# ------------------------------------------------------------------ gallery


def _format_warning(message, category, filename, lineno, line=None):
    """A warning as a reader of the gallery should see it: its class and message, without
    the path of the file on the machine that built the site."""
    return f"{category.__name__}: {message}\n"


def forget_gallery_outputs(gallery_dir, conf: dict) -> bool:
    """Make sphinx-gallery run every example again when how the gallery prints changed.

    sphinx-gallery runs an example again only when the example's own source changed
    (its ``.md5`` file in ``gallery_dir``): an output saved before a change of
    :func:`gallery_warnings` or of ``ignore_repr_types`` (warnings with the build's
    file paths, the reprs of matplotlib calls) would stay on the site. The printing
    code and options are fingerprinted in ``gallery_dir/.output_format``; when the
    fingerprint differs, the saved ``.md5`` files go. True when they went."""
    import hashlib
    import inspect

    folder = pathlib.Path(gallery_dir)
    text = "\n".join(
        [
            inspect.getsource(gallery_warnings),
            inspect.getsource(_format_warning),
            repr(conf.get("ignore_repr_types")),
            repr([getattr(f, "__name__", f) for f in conf.get("reset_modules", ())]),
        ]
    )
    stamp = hashlib.sha256(text.encode()).hexdigest()
    saved = folder / ".output_format"
    if saved.is_file() and saved.read_text().strip() == stamp:
        return False
    for md5 in folder.rglob("*.py.md5"):
        md5.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    saved.write_text(stamp + "\n")
    return True


def gallery_scraper(block, block_vars, gallery_conf, **kwargs):
    """sphinx-gallery's matplotlib scraper, each figure saved with its smallest text
    size in its PNG (scripts/site_audit.py's ``TEXT_KEY``) for the site audit's
    legibility check."""
    import functools
    import importlib.util

    import matplotlib.pyplot as plt
    from sphinx_gallery.scrapers import matplotlib_scraper

    spec = importlib.util.spec_from_file_location("site_audit", ROOT / "scripts" / "site_audit.py")
    site_audit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site_audit)

    for num in plt.get_fignums():
        fig = plt.figure(num)
        save = type(fig).savefig.__get__(fig)

        def savefig(*args, _save=save, _fig=fig, **options):
            dpi = options.get("dpi") or plt.rcParams["savefig.dpi"]
            if dpi == "figure":
                dpi = _fig.dpi
            metadata = dict(options.pop("metadata", None) or {})
            px = site_audit.smallest_text_px(_fig, float(dpi))
            metadata[site_audit.TEXT_KEY] = f"{px:.1f}"
            return _save(*args, metadata=metadata, **options)

        fig.savefig = functools.update_wrapper(savefig, save)
    return matplotlib_scraper(block, block_vars, gallery_conf, **kwargs)


def gallery_warnings(gallery_conf, fname):
    """sphinx-gallery ``reset_modules`` hook: before each example, warnings print as
    ``SmallSampleWarning: message`` (no build path, no source line)."""
    import warnings

    warnings.formatwarning = _format_warning


# ------------------------------------------------------------------ the extension


def _parameter_names_as_code(app, doctree):
    """numpydoc writes the names in Parameters, Attributes, ... in bold (``**name**``):
    they are names of code, as in the signature, so they are marked as literals too
    (class ``literal``; the theme styles them as before). A name such as
    ``max_examples`` is then read as code, not as a formula in prose."""
    from docutils import nodes

    for field in doctree.findall(nodes.field):
        for term in field.findall(nodes.term):
            for child in term.children:
                if isinstance(child, nodes.strong) and "literal" not in child["classes"]:
                    child["classes"].append("literal")


def _resolve_alias(app, env, node, contnode):
    """Resolve a py reference that Sphinx could not, in this order:

    1. another public spelling of a documented object (``propstab.inference.estimate``,
       or ``resample`` written inside propstab.resampling) -> its documented name;
    2. a bare name (no dot) that exactly one documented object ends with (``VARIANTS``
       written in the docstring of ``propstab.audit``, documented in propstab.auditing);
    3. ``Class.attribute``, or ``attribute`` inside the class's own docstrings, where the
       attribute is described in the class's Attributes section (not an object of its
       own) -> the class.

    Anything else stays unresolved, and ``nitpicky`` makes it an error.
    """
    if node.get("refdomain") != "py":
        return None
    aliases = app.config.propstab_aliases
    target = node["reftarget"].lstrip(".~")
    module = node.get("py:module")
    domain = env.get_domain("py")
    objects = domain.objects

    def resolve(canonical):
        new = node.deepcopy()
        new["reftarget"] = canonical
        new["refspecific"] = False
        return domain.resolve_xref(
            env, node["refdoc"], app.builder, "obj", canonical, new, contnode
        )

    candidates = [f"{module}.{target}", target] if module else [target]
    for candidate in candidates:
        parts = candidate.split(".")
        for cut in range(len(parts), 0, -1):  # longest aliased prefix first
            prefix = ".".join(parts[:cut])
            if prefix in aliases:
                return resolve(".".join([aliases[prefix], *parts[cut:]]))
    public = {
        name: entry
        for name, entry in objects.items()
        if not entry.aliased and name.startswith("propstab.") and "._" not in name
    }
    if "." not in target:
        matches = [name for name in public if name.endswith("." + target)]
        if len(matches) == 1:
            return resolve(matches[0])
        klass = node.get("py:class")
        if module and klass:  # an attribute of the documenting class
            owner = aliases.get(f"{module}.{klass}", f"{module}.{klass}")
            if owner in public and public[owner].objtype in ("class", "exception"):
                return resolve(owner)
    else:
        owner, _, _ = target.rpartition(".")
        for candidate in [f"{module}.{owner}", owner] if module else [owner]:
            candidate = aliases.get(candidate, candidate)
            if objects.get(candidate) is not None and objects[candidate].objtype in (
                "class",
                "exception",
            ):
                return resolve(candidate)
        if "." not in owner:
            matches = [
                name
                for name, entry in public.items()
                if name.endswith("." + owner) and entry.objtype == "class"
            ]
            if len(matches) == 1:
                return resolve(matches[0])
    return None


REGISTRY_TABLE = "Declared properties (generated from the registry)"


def _measure_docstring(app, what, name, obj, options, lines):
    """A registered measure's docstring ends with a properties table that the registry
    appends for ``help()``; on the site the catalogue page has it (with the audit's
    verdicts), so the table is replaced by a link to that page. The table is appended
    unindented to an indented docstring, so the rest is dedented here too, before
    numpydoc parses the sections."""
    info = getattr(obj, "info", None)
    if REGISTRY_TABLE not in lines or getattr(info, "function", None) is not obj:
        return
    del lines[lines.index(REGISTRY_TABLE) :]
    body = textwrap.dedent("\n".join(lines[1:])).splitlines()
    lines[1:] = body
    while lines and not lines[-1].strip():
        lines.pop()
    summary_end = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
    lines[summary_end:summary_end] = [
        "",
        f"Declared properties, the audit's verdicts, bounds and R reference: "
        f":ref:`measure-{info.name}` in the measure catalogue.",
    ]


def _numpydoc_settings(app):
    """numpydoc: link the type words of parameters that are propstab names, Python's
    built-in types and the numpy/pandas types below (through the local inventories of
    intersphinx); leave every other word unlinked. Set once the builder exists: Sphinx
    checks config types until the theme is loaded, and the documented ``"all"`` is not of
    the declared type."""
    from numpydoc.xref import DEFAULT_LINKS

    config = app.config
    config.numpydoc_xref_ignore = "all"
    python = "python" in (config.intersphinx_mapping or {})
    links = {
        word: (link if python and "numpy" not in link else word)
        for word, link in DEFAULT_LINKS.items()
    }
    links.update(
        {
            "ndarray": "numpy.ndarray",
            "array": "numpy.ndarray",
            "np.ndarray": "numpy.ndarray",
            "RandomState": "numpy.random.RandomState",
            "np.random.RandomState": "numpy.random.RandomState",
            "Generator": "numpy.random.Generator",
            "numpy.random.Generator": "numpy.random.Generator",
            "SeedSequence": "numpy.random.SeedSequence",
            "DataFrame": "pandas.DataFrame",
            "pandas.DataFrame": "pandas.DataFrame",
            "Series": "pandas.Series",
            "pandas.Series": "pandas.Series",
        }
    )
    config.numpydoc_xref_aliases_complete = {**links, **config.numpydoc_xref_aliases}


# ------------------------------------------------------------------ links to other projects

#: The numpy names these pages use, with their pages on numpy.org (relative to
#: https://numpy.org/doc/stable/): numpy has no Debian documentation package with an
#: inventory, so :func:`write_numpy_inventory` writes this one for intersphinx.
NUMPY_OBJECTS = {
    "numpy.ndarray": ("py:class", "reference/generated/numpy.ndarray.html"),
    "numpy.array": ("py:function", "reference/generated/numpy.array.html"),
    "numpy.random.Generator": ("py:class", "reference/random/generator.html"),
    "numpy.random.default_rng": ("py:function", "reference/random/generator.html"),
    "numpy.random.RandomState": ("py:class", "reference/random/legacy.html"),
    "numpy.random.SeedSequence": (
        "py:class",
        "reference/random/bit_generators/generated/numpy.random.SeedSequence.html",
    ),
    "numpy.nan": ("py:data", "reference/constants.html"),
}

#: Names written in inline code on the guide pages (`GridSearchCV`), linked to the full
#: name's page when an inventory has it (:func:`_link_external_literals`).
EXTERNAL_NAMES = {
    "GridSearchCV": "sklearn.model_selection.GridSearchCV",
    "RandomizedSearchCV": "sklearn.model_selection.RandomizedSearchCV",
    "Pipeline": "sklearn.pipeline.Pipeline",
    "make_pipeline": "sklearn.pipeline.make_pipeline",
    "SelectFromModel": "sklearn.feature_selection.SelectFromModel",
    "SelectKBest": "sklearn.feature_selection.SelectKBest",
    "RFE": "sklearn.feature_selection.RFE",
    "LogisticRegression": "sklearn.linear_model.LogisticRegression",
    "Lasso": "sklearn.linear_model.Lasso",
    "LassoCV": "sklearn.linear_model.LassoCV",
    "RandomForestClassifier": "sklearn.ensemble.RandomForestClassifier",
    "ShuffleSplit": "sklearn.model_selection.ShuffleSplit",
    "StratifiedShuffleSplit": "sklearn.model_selection.StratifiedShuffleSplit",
    "RepeatedStratifiedKFold": "sklearn.model_selection.RepeatedStratifiedKFold",
    "KFold": "sklearn.model_selection.KFold",
    "SeedSequence": "numpy.random.SeedSequence",
    "RandomState": "numpy.random.RandomState",
    "DataFrame": "pandas.DataFrame",
    "pd.DataFrame": "pandas.DataFrame",
    "np.random.SeedSequence": "numpy.random.SeedSequence",
    "np.random.default_rng": "numpy.random.default_rng",
}
_DOTTED = re.compile(
    r"(?:numpy|np|scipy|sklearn|pandas|pd|warnings|functools|itertools)" r"(?:\.\w+)+"
)
_OBJECT_TYPES = (
    "py:class",
    "py:function",
    "py:method",
    "py:exception",
    "py:data",
    "py:attribute",
    "py:module",
)


def write_numpy_inventory(path: pathlib.Path) -> pathlib.Path:
    """Write :data:`NUMPY_OBJECTS` as a Sphinx inventory (version 2) at ``path``."""
    import zlib

    lines = "".join(
        f"{name} {kind} 1 {uri}#{name} -\n" for name, (kind, uri) in sorted(NUMPY_OBJECTS.items())
    )
    data = (
        b"# Sphinx inventory version 2\n# Project: NumPy\n# Version: stable\n"
        b"# The remainder of this file is compressed using zlib.\n"
        + zlib.compress(lines.encode("utf-8"))
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_bytes() != data:
        path.write_bytes(data)
    return path


def _link_external_literals(app, doctree):
    """Inline code that names an object of another project's inventory (`GridSearchCV`,
    `numpy.random.SeedSequence`, `pandas.DataFrame()`) becomes a link to its page, where
    intersphinx has loaded that project's inventory; other code stays as it is."""
    from docutils import nodes
    from sphinx import addnodes

    inventory = getattr(app.builder.env, "intersphinx_inventory", None) or {}
    if not inventory:
        return
    known = {}
    for kind in _OBJECT_TYPES:
        for name in inventory.get(kind, {}):
            known.setdefault(name, kind.split(":")[1])
    names = app.config.propstab_external_names
    for literal in list(doctree.findall(nodes.literal)):
        if isinstance(literal.parent, (nodes.reference, addnodes.pending_xref)):
            continue
        text = literal.astext()
        bare = text[:-2] if text.endswith("()") else text
        target = names.get(bare, bare if _DOTTED.fullmatch(bare) else None)
        if target is not None:
            target = target.replace("np.", "numpy.", 1) if target.startswith("np.") else target
            target = target.replace("pd.", "pandas.", 1) if target.startswith("pd.") else target
        if target not in known:
            continue
        role = {"function": "func", "method": "meth", "exception": "exc", "attribute": "attr"}.get(
            known[target], known[target]
        )
        xref = addnodes.pending_xref(
            "", refdomain="py", reftype=role, reftarget=target, refexplicit=True, refwarn=False
        )
        literal.replace_self(xref)
        xref += literal


def _skip_generated_members(app, what, name, obj, skip, options):
    """Leave out the members whose docstring Python generates (a namedtuple's fields,
    "Alias for field number 0"): the class's docstring describes them."""
    doc = getattr(obj, "__doc__", None)
    if isinstance(doc, str) and doc.startswith("Alias for field number"):
        return True
    return None


def data_names() -> list:
    """The documented public names that are data (constants, tables), not functions or
    classes: their docstring is their type's, so numpydoc does not validate them."""
    sections, _ = public_names()
    out = []
    for module, entries in sections:
        for name, canonical in entries:
            modname, _, attr = canonical.rpartition(".")
            obj = getattr(importlib.import_module(modname), attr)
            if not (inspect.isclass(obj) or inspect.isroutine(obj)):
                out.append(canonical)
    return sorted(set(out))


_VIEWCODE_BACK = re.compile(r'(<a class="viewcode-back" href=")([^"#]+)#([^"]+)(")')


def _fix_viewcode_anchors(app, exception):
    """Point the ``[docs]`` links of the highlighted sources (``_modules/``) at the
    anchors that exist.

    Sphinx's viewcode writes each link as the documenting page plus
    ``#<module>.<name>``, with one module name per source file: the spelling under which
    the file's first object was documented. A file whose objects are documented under
    several public spellings (``propstab.estimate``, ``propstab.inference.ConfidenceInterval``)
    gets anchors that do not exist; each is replaced here by the one id of the target
    page that ends with the object's name (longest matching suffix first).
    """
    if exception is not None or app.builder.format != "html":
        return
    out = pathlib.Path(app.outdir)
    ids_of: dict = {}

    def ids(page: pathlib.Path) -> set:
        if page not in ids_of:
            text = page.read_text(encoding="utf-8") if page.is_file() else ""
            ids_of[page] = set(re.findall(r'\bid="([^"]+)"', text))
        return ids_of[page]

    def fix(source: pathlib.Path, match) -> str:
        href, anchor = match.group(2), match.group(3)
        target = (source.parent / href).resolve()
        found = ids(target)
        if anchor in found:
            return match.group(0)
        parts = anchor.split(".")
        for cut in range(1, len(parts)):
            suffix = ".".join(parts[cut:])
            matches = [i for i in found if i == suffix or i.endswith("." + suffix)]
            if len(matches) == 1:
                return f"{match.group(1)}{href}#{matches[0]}{match.group(4)}"
        return match.group(0)

    for source in (out / "_modules").rglob("*.html"):
        text = source.read_text(encoding="utf-8")
        fixed = _VIEWCODE_BACK.sub(lambda m: fix(source, m), text)
        if fixed != text:
            source.write_text(fixed, encoding="utf-8")


#: Abbreviations after which autosummary's first sentence of a docstring does not end
#: (the API index showed "... (thesis, ch." and "(e.g.").
ABBREVIATIONS = (
    " e.g.",
    "(e.g.",
    " i.e.",
    "(i.e.",
    " ch.",
    " eq.",
    "(eq.",
    " al.",
    " Thm.",
    " sec.",
    " Sec.",
    " Fig.",
    " cf.",
    "(cf.",
    " vs.",
    " App.",
    " Cor.",
    " Prop.",
    " Def.",
    " no.",
    " Tab.",
    " Eq.",
    " pp.",
    " p.",
)


def setup(app):
    from sphinx.ext import autosummary

    # the module object is wrapped (Sphinx's deprecation shim): set the function's global
    namespace = autosummary.extract_summary.__globals__
    namespace["WELL_KNOWN_ABBREVIATIONS"] = tuple(
        dict.fromkeys((*namespace["WELL_KNOWN_ABBREVIATIONS"], *ABBREVIATIONS))
    )
    app.add_config_value("propstab_aliases", {}, "env")
    app.add_config_value("propstab_external_names", {}, "env")
    app.connect("doctree-read", _link_external_literals)
    app.connect("build-finished", _fix_viewcode_anchors)
    app.connect("missing-reference", _resolve_alias)
    app.connect("doctree-read", _parameter_names_as_code)
    app.connect("autodoc-process-docstring", _measure_docstring, priority=100)
    app.connect("autodoc-process-docstring", _docstring_doc_links, priority=200)
    app.connect("autodoc-skip-member", _skip_generated_members)
    app.connect("builder-inited", _numpydoc_settings)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
