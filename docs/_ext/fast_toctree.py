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

Only the work changes: resolve, the theme and the HTML they write are Sphinx's own (a
build with and without this extension writes the same pages, byte for byte; checked on
this site's 346 pages).
"""
from __future__ import annotations

import functools
import pickle
import posixpath

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
                self.node, pickle.dumps(self.node, protocol=pickle.HIGHEST_PROTOCOL))
        return pickle.loads(held[1])


class _Tocs:
    """``env.tocs`` for the time of one resolve: lookups as the dict's, copies pickled."""

    def __init__(self, tocs: dict, cache: dict):
        self.tocs, self.cache = tocs, cache

    def __getitem__(self, name):
        return _PickledCopy(self.tocs[name], self.cache)        # KeyError as the dict's

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
        if isinstance(tocs, _Tocs):                      # a resolve inside a resolve
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
    (``kind="navbar"`` at ``maxdepth=1``) is built once per key of :data:`_NAVBARS`."""
    generate = context.get("generate_nav_html")
    if generate is None:
        return
    adapter = TocTree(app.env)
    ancestors = tuple(a for a in adapter.get_toctree_ancestors(pagename) if a != pagename)

    def generate_nav_html(kind, startdepth=None, **kwargs):
        if kind != "navbar" or startdepth not in (None, 0) or kwargs.get("maxdepth") != 1:
            return generate(kind, startdepth, **kwargs)
        root = app.env.config.root_doc
        sections = set(app.env.toctree_includes.get(root, ())) | {root}
        # a section's own page links itself with "" (Sphinx's relative_uri): its own key
        key = (tuple(sorted(kwargs.items())), posixpath.dirname(pagename), ancestors,
               pagename if pagename in sections else None)
        if key not in _NAVBARS:
            _NAVBARS[key] = generate(kind, startdepth, **kwargs)
        return _NAVBARS[key]

    context["generate_nav_html"] = generate_nav_html


def _forget(app, env) -> None:
    """After the pages were read: tables and navigation bars are built anew."""
    _PICKLES.clear()
    _NAVBARS.clear()


def setup(app):
    if not getattr(TocTree.resolve, "pickled_copies", False):
        TocTree.resolve = _resolve_with_pickled_copies(TocTree.resolve)
    app.connect("env-updated", _forget)
    app.connect("html-page-context", _navbar_once, priority=900)     # after the theme's
    return {"parallel_read_safe": True, "parallel_write_safe": False}
