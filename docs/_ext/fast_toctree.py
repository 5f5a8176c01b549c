"""Sphinx extension: the theme's navigation built faster, the same HTML.

The theme (pydata-sphinx-theme 0.7) builds the navigation bar and the sidebar of every
page from the site's toctree, and Sphinx 5 resolves each of those by deep-copying the
table of contents of every page the toctree reaches (``env.tocs[name].deepcopy()`` in
``TocTree.resolve``), node by node in Python: with about 350 pages, about a quarter of
the build. Here each page's table of contents is pickled once and every copy is an
unpickling, which builds the same nodes (the same classes, attributes, text and
children) several times faster.

The navigation bar (the theme's ``generate_nav_html("navbar", maxdepth=1, ...)``: the
site's sections, the one holding the page marked current) is the same HTML for every
page of a folder under the same toctree ancestors: its links are relative to the page's
folder, and the entry marked "current" is the top-level ancestor (a depth-1 entry is
marked when the page or a page below it is there; deeper entries are pruned). It is
built once per (folder, ancestors; the page itself when it is a section's page, which
links itself) and reused.

The sidebar (the theme's ``generate_nav_html("sidebar", ...)``: the section holding the
page, with the page marked current) of a page without a toctree of its own (a leaf, such as
the 206 API pages) differs from the sidebar of another leaf of the same folder, under the
same toctree ancestors and in the same toctrees of its parent, only in which entry is
marked: the same entries, links relative to the same folder, the same branch expanded
(Sphinx marks the page's entry and the branch above it, which the two share; a leaf has
no children to show). The sidebar of the first leaf of such a group is built by the
theme; for the second it is built by the theme and also derived from the first (the first
page's entry unmarked, the second's marked), and the derivation is used for the rest of
the group only when the two agree byte for byte (else the theme builds every page of the
group). The theme built each sidebar over the whole section (each of the 206 API pages'
over 206 entries): 20 of Sphinx's 51 CPU seconds on this site.

Only the work changes: resolve, the theme and the HTML they write are Sphinx's own, and a
derived sidebar is the theme's with one mark moved (a build with and without this
extension writes the same pages, byte for byte; checked on this site's 347 pages).
"""
from __future__ import annotations

import functools
import pickle
import posixpath
import re

from sphinx import addnodes
from sphinx.environment.adapters.toctree import TocTree


class _PickledCopy:
    """Stands for ``env.tocs[name]`` inside ``TocTree.resolve``: its ``deepcopy()`` is
    an unpickling of the node pickled once (again if the node is replaced)."""

    __slots__ = ("node", "cache")

    def __init__(self, node, cache: dict):
        self.node, self.cache = node, cache

    def deepcopy(self):
        held = self.cache.get(id(self.node))
        if held is None or held[0] is not self.node:
            held = self.cache[id(self.node)] = (
                self.node,
                pickle.dumps(self.node, protocol=pickle.HIGHEST_PROTOCOL),
            )
        return pickle.loads(held[1])


class _Tocs:
    """``env.tocs`` for the time of one resolve: lookups as the dict's, copies pickled."""

    def __init__(self, tocs: dict, cache: dict):
        self.tocs, self.cache = tocs, cache

    def __getitem__(self, name):
        return _PickledCopy(self.tocs[name], self.cache)  # KeyError as the dict's

    def __contains__(self, name):
        return name in self.tocs


#: id(node) -> (node, its pickle), for the pages' tables of contents (emptied when the
#: environment was updated: a page read again has a new table).
_PICKLES: dict = {}


def _resolve_with_pickled_copies(resolve):
    cache = _PICKLES

    @functools.wraps(resolve)
    def wrapper(self, *args, **kwargs):
        env = self.env
        tocs = env.tocs
        if isinstance(tocs, _Tocs):  # a resolve inside a resolve
            return resolve(self, *args, **kwargs)
        env.tocs = _Tocs(tocs, cache)
        try:
            return resolve(self, *args, **kwargs)
        finally:
            env.tocs = tocs

    wrapper.pickled_copies = True
    return wrapper


#: The navigation bar's HTML by (arguments, folder, toctree ancestors, the page itself
#: when it is a section's page).
_NAVBARS: dict = {}


def _navbar_once(app, pagename, templatename, context, doctree):
    """Wrap the theme's ``generate_nav_html`` of this page so that the navigation bar
    (``kind="navbar"`` at ``maxdepth=1``) is built once per key of :data:`_NAVBARS`, and
    the sidebar of a leaf page is derived when its group allows it (:func:`_sidebar`)."""
    generate = context.get("generate_nav_html")
    if generate is None:
        return
    adapter = TocTree(app.env)
    ancestors = tuple(a for a in adapter.get_toctree_ancestors(pagename) if a != pagename)

    def generate_nav_html(kind, startdepth=None, **kwargs):
        if kind == "sidebar" and startdepth is None:
            return _sidebar(app, pagename, ancestors, generate, kwargs)
        if kind != "navbar" or startdepth not in (None, 0) or kwargs.get("maxdepth") != 1:
            return generate(kind, startdepth, **kwargs)
        root = app.env.config.root_doc
        sections = set(app.env.toctree_includes.get(root, ())) | {root}
        # a section's own page links itself with "" (Sphinx's relative_uri): its own key
        key = (
            tuple(sorted(kwargs.items())),
            posixpath.dirname(pagename),
            ancestors,
            pagename if pagename in sections else None,
        )
        if key not in _NAVBARS:
            _NAVBARS[key] = generate(kind, startdepth, **kwargs)
        return _NAVBARS[key]

    context["generate_nav_html"] = generate_nav_html


#: The sidebars of the leaf pages by (arguments, folder, toctree ancestors, the parent's
#: toctrees holding the page): the first
#: page's name and sidebar, and whether the derivation agreed with the theme on the second.
_SIDEBARS: dict = {}

#: The entry of the current page in a sidebar (``li`` and ``a`` marked current, ``#``).
_MARKED = re.compile(
    r'(<li class="toctree-l\d+) current active(">\s*<a class=")current '
    r'(reference internal" href=")#(">)'
)


def _entry(href: str):
    """The unmarked entry linking ``href`` in a sidebar."""
    return re.compile(
        r'(<li class="toctree-l\d+)(">\s*<a class=")(reference internal" '
        r'href=")' + re.escape(href) + r'(">)'
    )


def _moved_mark(html: str, marked_href: str, target_href: str):
    """The sidebar ``html`` with its current entry's mark moved to the entry linking
    ``target_href`` (the current entry links ``marked_href`` once unmarked); None unless
    there is exactly one current entry and one entry linking ``target_href``."""
    if len(_MARKED.findall(html)) != 1:
        return None
    html = _MARKED.sub(
        lambda m: m.group(1) + m.group(2) + m.group(3) + marked_href + m.group(4), html
    )
    target = _entry(target_href)
    if len(target.findall(html)) != 1:
        return None
    return target.sub(
        lambda m: m.group(1)
        + " current active"
        + m.group(2)
        + "current "
        + m.group(3)
        + "#"
        + m.group(4),
        html,
    )


#: For each parent page: page -> the positions of the parent's toctrees that include it.
_TOCTREES: dict = {}


def _toctrees_holding(env, parent: str, page: str) -> tuple:
    """The positions, among the toctrees of ``parent``, of those that include ``page``
    (each toctree is a list of its own in the sidebar, marked current when it holds the
    current page)."""
    table = _TOCTREES.get(parent)
    if table is None:
        table = _TOCTREES[parent] = {}
        for i, node in enumerate(env.tocs[parent].findall(addnodes.toctree)):
            for ref in node["includefiles"]:
                table.setdefault(ref, []).append(i)
    return tuple(table.get(page, ()))


def _sidebar(app, pagename, ancestors, generate, kwargs):
    """The theme's sidebar of ``pagename``, derived from its group's first page's when the
    group's check passed (see the module's docstring)."""
    if app.env.toctree_includes.get(pagename):  # not a leaf: the theme's
        return generate("sidebar", None, **kwargs)
    key = (
        tuple(sorted(kwargs.items())),
        posixpath.dirname(pagename),
        ancestors,
        _toctrees_holding(app.env, ancestors[0], pagename) if ancestors else (),
    )
    group = _SIDEBARS.get(key)
    if group is None:
        html = generate("sidebar", None, **kwargs)
        _SIDEBARS[key] = {"page": pagename, "html": html, "agreed": None}
        return html
    uri = app.builder.get_relative_uri
    derived = _moved_mark(
        group["html"], uri(pagename, group["page"]), uri(group["page"], pagename)
    )
    if group["agreed"] is None:  # the second page: the check
        html = generate("sidebar", None, **kwargs)
        group["agreed"] = derived == html
        return html
    if group["agreed"] and derived is not None:
        return derived
    return generate("sidebar", None, **kwargs)


def _forget(app, env) -> None:
    """After the pages were read: tables and navigation bars are built anew."""
    _PICKLES.clear()
    _NAVBARS.clear()
    _SIDEBARS.clear()
    _TOCTREES.clear()


def setup(app):
    if not getattr(TocTree.resolve, "pickled_copies", False):
        TocTree.resolve = _resolve_with_pickled_copies(TocTree.resolve)
    app.connect("env-updated", _forget)
    app.connect("html-page-context", _navbar_once, priority=900)  # after the theme's
    return {"parallel_read_safe": True, "parallel_write_safe": False}
