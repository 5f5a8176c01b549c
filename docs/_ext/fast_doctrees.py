"""Sphinx extension: each page's doctree handed from reading to writing in memory, the same
HTML.

Sphinx 5 pickles every page's doctree to ``_build/doctrees`` when it has read the page
(``Builder.write_doctree``) and unpickles it again when it writes the page
(``BuildEnvironment.get_and_resolve_doctree``): about 1 of Sphinx's CPU seconds here, for
the 292 pages. Sphinx 7.1 keeps the doctree it has just pickled in memory and gives it to
the page's writing once (``env._write_doc_doctree_cache``); this module does the same for
Sphinx 5.3 (:data:`SPHINX_VERSION`; with another, Sphinx's own functions stay). The
pickles are still written, and any other reader of a doctree (or a second request for
the same page) still unpickles it. The tree given to the writer is the one that was
pickled, with the environment and the reporter set as ``get_doctree`` sets them (a build
with and without this extension writes the same pages; checked on this site's 347 pages
with ``diff -r``).
"""
from __future__ import annotations

import functools

import sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import LoggingReporter

#: The Sphinx whose ``write_doctree``/``get_and_resolve_doctree`` this module wraps.
SPHINX_VERSION = "5.3.0"

#: docname -> (environment, the doctree just pickled), until the page is written.
_DOCTREES: dict = {}


def _keep_after_pickling(write_doctree):
    @functools.wraps(write_doctree)
    def wrapper(self, docname, doctree, *args, **kwargs):
        write_doctree(self, docname, doctree, *args, **kwargs)
        _DOCTREES[docname] = (self.env, doctree)

    wrapper.kept_in_memory = True
    return wrapper


def _kept_doctree_once(get_and_resolve_doctree):
    @functools.wraps(get_and_resolve_doctree)
    def wrapper(self, docname, builder, doctree=None, *args, **kwargs):
        if doctree is None:
            held = _DOCTREES.pop(docname, None)
            if held is not None and held[0] is self:
                doctree = held[1]
                doctree.settings.env = self  # as get_doctree sets them
                doctree.reporter = LoggingReporter(self.doc2path(docname))
        return get_and_resolve_doctree(self, docname, builder, doctree, *args, **kwargs)

    wrapper.kept_in_memory = True
    return wrapper


def _forget(app, exception) -> None:
    _DOCTREES.clear()


def setup(app):
    if sphinx.__version__ == SPHINX_VERSION and not app.parallel > 1:
        if not getattr(Builder.write_doctree, "kept_in_memory", False):
            Builder.write_doctree = _keep_after_pickling(Builder.write_doctree)
        if not getattr(BuildEnvironment.get_and_resolve_doctree, "kept_in_memory", False):
            BuildEnvironment.get_and_resolve_doctree = _kept_doctree_once(
                BuildEnvironment.get_and_resolve_doctree
            )
    app.connect("build-finished", _forget)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
