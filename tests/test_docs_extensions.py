"""The site's build shortcuts in docs/_ext: a leaf page's sidebar derived from another's
is the one the theme writes, and a group whose derivation disagrees with the theme falls
back to the theme for every page (fast_toctree.py); numpydoc's template loaded once
writes the same docstrings, and its faster Validator validates as numpydoc's
(fast_numpydoc.py); SmartQuotes skipping the tokens it cannot change gives docutils' text
(fast_smartquotes.py); a page written from its doctree kept in memory is the page written
from its pickle (fast_doctrees.py).

The whole-site check (a build with and without the extension, byte for byte) is in the
extension's docstring; these tests pin the derivation's rules on sidebars written as
pydata-sphinx-theme writes them.
"""
import pathlib
import sys
import types

import pytest

pytest.importorskip("sphinx")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "docs" / "_ext"))
import fast_numpydoc  # noqa: E402
import fast_toctree  # noqa: E402
from docutils import nodes  # noqa: E402
from sphinx import addnodes  # noqa: E402


def entry(href, title, current=False):
    if current:
        return (
            f' <li class="toctree-l1 current active">\n  <a class="current reference '
            f'internal" href="#">\n   {title}\n  </a>\n </li>\n'
        )
    return (
        f' <li class="toctree-l1">\n  <a class="reference internal" href="{href}">\n'
        f"   {title}\n  </a>\n </li>\n"
    )


def sidebar(current, pages=("a", "b", "c"), other=("x",)):
    """A sidebar as the theme writes it: the parent's two toctrees, each a list; the one
    holding the current page is marked current."""
    first = "".join(entry(f"{p}.html", f"page {p}", p == current) for p in pages)
    second = "".join(entry(f"{p}.html", f"page {p}", p == current) for p in other)
    mark = "current " if current in pages else ""
    mark2 = "current " if current in other else ""
    return (
        f'<ul class="{mark}nav bd-sidenav">\n{first}</ul>\n'
        f'<ul class="{mark2}nav bd-sidenav">\n{second}</ul>\n'
    )


def test_moved_mark_gives_the_other_pages_sidebar():
    assert fast_toctree._moved_mark(sidebar("a"), "a.html", "c.html") == sidebar("c")
    assert fast_toctree._moved_mark(sidebar("c"), "c.html", "b.html") == sidebar("b")


def test_moved_mark_refuses_what_it_cannot_place():
    assert fast_toctree._moved_mark(sidebar("zz"), "zz.html", "a.html") is None  # no mark
    twice = sidebar("a", pages=("a", "b", "b"))
    assert fast_toctree._moved_mark(twice, "a.html", "b.html") is None  # two entries
    assert fast_toctree._moved_mark(sidebar("a"), "a.html", "q.html") is None  # none


def fake_app(toctrees):
    toc = nodes.bullet_list()
    for included in toctrees:
        node = addnodes.toctree()
        node["includefiles"] = list(included)
        toc += node
    env = types.SimpleNamespace(
        toctree_includes={"api/index": [p for t in toctrees for p in t]}, tocs={"api/index": toc}
    )
    builder = types.SimpleNamespace(
        get_relative_uri=lambda frm, to: to.rpartition("/")[2] + ".html"
    )
    return types.SimpleNamespace(env=env, builder=builder)


def run(pages, theme, toctrees):
    """The sidebars of ``pages`` through the shortcut, and the pages the theme built."""
    fast_toctree._forget(None, None)
    app = fake_app(toctrees)
    built, out = [], []
    for page in pages:

        def generate(kind, startdepth, page=page, **kwargs):
            built.append(page)
            return theme(page)

        out.append(
            fast_toctree._sidebar(
                app, "api/" + page, ("api/index",), generate, {"maxdepth": 2, "collapse": True}
            )
        )
    return out, built


def test_sidebar_derived_after_the_check():
    toctrees = [("api/a", "api/b", "api/c"), ("api/x",)]
    pages = ["a", "b", "c", "x"]
    out, built = run(pages, sidebar, toctrees)
    assert out == [sidebar(p) for p in pages]
    # a, b: the group's first page and its check; c derived; x alone in its toctree
    assert built == ["a", "b", "x"]


def test_sidebar_group_falls_back_when_the_check_disagrees():
    def theme(page):  # a theme marking something the derivation does not know
        return sidebar(page).replace("page b", "page b (current)" if page == "b" else "page b")

    toctrees = [("api/a", "api/b", "api/c"), ("api/x",)]
    out, built = run(["a", "b", "c"], theme, toctrees)
    assert out == [theme(p) for p in "abc"]
    assert built == ["a", "b", "c"]


def build_text(tmp_path, extensions):
    """A two-object page through autodoc and numpydoc, built as text."""
    from sphinx.application import Sphinx

    src = tmp_path / "src"
    src.mkdir(parents=True)
    (src / "conf.py").write_text(f"extensions = {extensions!r}\n")
    (src / "index.rst").write_text(
        "Page\n====\n\n.. autofunction:: propstab.estimate\n\n"
        ".. autoclass:: propstab.Selection\n"
    )
    out = tmp_path / "out"
    app = Sphinx(
        str(src),
        str(src),
        str(out),
        str(tmp_path / "doctrees"),
        "text",
        status=None,
        warning=None,
        freshenv=True,
    )
    app.build()
    return (out / "index.txt").read_text()


def test_numpydoc_template_once_writes_the_same_text(tmp_path, monkeypatch):
    import numpydoc.numpydoc

    # the extension replaces numpydoc's function for the whole process: put numpydoc's
    # own back after this test, for the other tests of this worker
    monkeypatch.setattr(numpydoc.numpydoc, "get_doc_object", numpydoc.numpydoc.get_doc_object)
    import numpydoc.validate

    monkeypatch.setattr(numpydoc.validate, "Validator", numpydoc.validate.Validator)
    monkeypatch.setattr(numpydoc.numpydoc, "validate", numpydoc.numpydoc.validate)
    base = ["sphinx.ext.autodoc", "numpydoc"]
    plain = build_text(tmp_path / "plain", base)
    assert numpydoc.numpydoc.get_doc_object is not fast_numpydoc.get_doc_object
    fast_numpydoc._TEMPLATES.clear()
    fast = build_text(tmp_path / "fast", base + ["fast_numpydoc"])
    assert numpydoc.numpydoc.get_doc_object is fast_numpydoc.get_doc_object
    # one template for the builder, one for numpydoc's signatures (made without one)
    assert sorted(type(b).__name__ for b, _ in fast_numpydoc._TEMPLATES.values()) == [
        "NoneType",
        "TextBuilder",
    ]
    assert "Parameters" in plain and fast == plain


def test_smartquotes_shortcut_educates_as_docutils():
    """fast_smartquotes gives docutils' text for every token, context included: random
    token runs over the characters the substitutions read (quotes, dashes, dots,
    backslashes, entities), in every mode."""
    import random
    import fast_smartquotes

    pieces = [
        "a",
        "b",
        " ",
        "'",
        '"',
        "`",
        "-",
        "--",
        ".",
        "...",
        ". . .",
        "\\",
        "&#39;",
        "&quot;",
        "(",
        "[",
        "1",
        "70s",
        "\u2014",
        "\n",
    ]
    rng = random.Random(0)
    for attr in ("qDe", "1", "2", "3", "-1", "qBw", "qbde", "q"):
        for language in ("en", "de", "fr"):
            for _ in range(300):
                tokens = [
                    (
                        rng.choice(["plain", "plain", "plain", "literal", "tag"]),
                        "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6))),
                    )
                    for _ in range(rng.randint(1, 6))
                ]
                expected = list(fast_smartquotes.ORIGINAL(iter(tokens), attr, language))
                assert (
                    list(fast_smartquotes.educate_tokens(iter(tokens), attr, language)) == expected
                ), tokens


def test_numpydoc_validator_gives_numpydocs_results(monkeypatch):
    """fast_numpydoc.Validator: numpydoc's validation (errors, file, line), its section
    titles and line numbers, for functions, a class, methods, a property and a module."""
    import propstab
    from numpydoc import validate as nv

    original = fast_numpydoc.Validator.__mro__[1]
    objects = [
        propstab.estimate,
        propstab.Selection,
        propstab.Selection.intersections,
        propstab.StabilityGridSearch.fit,
        propstab.Selection.row_sizes,
        propstab.chance,
        propstab.audit,
    ]
    for obj in objects:
        results = []
        for cls in (original, fast_numpydoc.Validator):
            monkeypatch.setattr(nv, "Validator", cls)
            doc = fast_numpydoc.get_doc_object(obj)
            validator = cls(doc)
            results.append(
                (
                    nv.validate(fast_numpydoc.get_doc_object(obj)),
                    validator.section_titles,
                    validator.section_titles,
                    validator.source_file_def_line,
                )
            )
        assert results[0] == results[1], obj
        assert results[1][3] is not None or isinstance(obj, property), obj


def test_doctrees_kept_in_memory_write_the_same_text(tmp_path, monkeypatch):
    """fast_doctrees: the page is written from the doctree kept after pickling (no
    unpickling), and the text is the same as Sphinx's own round trip writes."""
    import fast_doctrees
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

    # the extension wraps Sphinx's methods for the whole process: put Sphinx's own back
    monkeypatch.setattr(Builder, "write_doctree", Builder.write_doctree)
    monkeypatch.setattr(
        BuildEnvironment, "get_and_resolve_doctree", BuildEnvironment.get_and_resolve_doctree
    )
    unpickled = []
    get_doctree = BuildEnvironment.get_doctree
    monkeypatch.setattr(
        BuildEnvironment,
        "get_doctree",
        lambda self, name: (unpickled.append(name) or get_doctree(self, name)),
    )
    base = ["sphinx.ext.autodoc", "numpydoc"]
    plain = build_text(tmp_path / "plain", base)
    assert unpickled == ["index"]
    unpickled.clear()
    fast = build_text(tmp_path / "fast", base + ["fast_doctrees"])
    assert unpickled == [] and not fast_doctrees._DOCTREES
    assert "Parameters" in plain and fast == plain


def test_numpydoc_validation_kept_per_docstring(monkeypatch):
    """fast_numpydoc.validate: numpydoc's result, computed once per (object, docstring
    lines); other lines for the same object are validated anew."""
    import propstab
    from numpydoc import validate as nv

    monkeypatch.setattr(fast_numpydoc, "_VALIDATED", {})
    calls = []
    real = nv.validate
    monkeypatch.setattr(nv, "validate", lambda doc: calls.append(doc) or real(doc))
    page = fast_numpydoc.validate(fast_numpydoc.get_doc_object(propstab.estimate))
    line = fast_numpydoc.validate(fast_numpydoc.get_doc_object(propstab.estimate))
    assert line is page and len(calls) == 1
    assert page == real(fast_numpydoc.get_doc_object(propstab.estimate))
    other = fast_numpydoc.get_doc_object(
        propstab.estimate,
        doc="no period\n\nParameters\n" "----------\nnope : int\n    Not a parameter.\n",
    )
    assert fast_numpydoc.validate(other) == real(other) != page and len(calls) == 2


def test_gc_extension_freezes_after_the_configuration_and_collects_less_often():
    """fast_gc: young collections every THRESHOLD allocations (not 700), and the objects
    alive after the configuration frozen."""
    import gc
    import fast_gc

    old, connected = gc.get_threshold(), []
    app = types.SimpleNamespace(connect=lambda *args, **kwargs: connected.append(args))
    try:
        fast_gc.setup(app)
        assert gc.get_threshold() == (fast_gc.THRESHOLD, 20, 20) and fast_gc.THRESHOLD > 700
        [(event, handler)] = connected
        assert event == "config-inited"
        handler(app, None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*old)
