"""Sphinx extension: numpydoc's docstring template loaded once per build, the same text.

numpydoc 1.5's ``get_doc_object`` (``numpydoc.docscrape_sphinx``), called for every
docstring autodoc reads (about 1,100 on this site), makes a new template loader and a new
Jinja environment each time, and so reads and compiles ``numpydoc_docstring.rst`` again:
about 2.5 of Sphinx's CPU seconds here. :func:`get_doc_object` below is numpydoc's, with
the template made as numpydoc makes it (the same loader: the builder's template paths and
theme, then numpydoc's templates) but once per builder. The template only renders: the
same template gives the same text. Only for the numpydoc version it was copied from
(:data:`NUMPYDOC_VERSION`); with another, numpydoc's own function stays.

numpydoc's validation (``numpydoc_validation_checks``) of each docstring also costs more
than it needs, in two of its ``Validator``'s properties: ``section_titles`` reads the whole
docstring again on each of its ~25 reads per docstring, and ``source_file_def_line`` (the
line number of the definition, which the build never shows: numpydoc's Sphinx hook reads
only the errors) tokenises the object's whole source with ``inspect.getsourcelines`` to
find the block that it then drops. :class:`Validator` reads the titles once per
docstring (the same list: the docstring does not change) and takes the line number
from ``inspect.findsource``, the number ``getsourcelines`` returns (without its block);
numpydoc's ``validate`` uses it in the Sphinx process, for the same numpydoc version
only. And the same docstring is validated twice, for its autosummary line and for its own
page: :func:`validate` keeps numpydoc's result per (docstring class, object, docstring
lines), the whole of what the validation reads. Together 1.6 -> 0.7 CPU-s here.
"""
from __future__ import annotations

import inspect
import os
import pydoc
from collections.abc import Callable

import numpydoc
from numpydoc import docscrape_sphinx
from numpydoc import validate as numpydoc_validate

#: The numpydoc whose ``docscrape_sphinx.get_doc_object`` this module copies.
NUMPYDOC_VERSION = "1.5.0"

#: id(builder) -> (builder, template); None: the template without a builder.
_TEMPLATES: dict = {}


def _template(builder):
    """``numpydoc_docstring.rst`` as numpydoc's ``get_doc_object`` loads it, once per
    builder."""
    held = _TEMPLATES.get(id(builder))
    if held is None or held[0] is not builder:
        template_dirs = [os.path.join(os.path.dirname(docscrape_sphinx.__file__), "templates")]
        if builder is not None:
            loader = docscrape_sphinx.BuiltinTemplateLoader()
            loader.init(builder, dirs=template_dirs)
        else:
            loader = docscrape_sphinx.FileSystemLoader(template_dirs)
        env = docscrape_sphinx.SandboxedEnvironment(loader=loader)
        held = _TEMPLATES[id(builder)] = (builder, env.get_template("numpydoc_docstring.rst"))
    return held[1]


def get_doc_object(obj, what=None, doc=None, config=None, builder=None):
    """numpydoc 1.5's ``docscrape_sphinx.get_doc_object``, its template loaded once."""
    if what is None:
        if inspect.isclass(obj):
            what = "class"
        elif inspect.ismodule(obj):
            what = "module"
        elif isinstance(obj, Callable):
            what = "function"
        else:
            what = "object"

    if config is None:
        config = {}
    config["template"] = _template(builder)

    if what == "class":
        return docscrape_sphinx.SphinxClassDoc(
            obj, func_doc=docscrape_sphinx.SphinxFunctionDoc, doc=doc, config=config
        )
    elif what in ("function", "method"):
        return docscrape_sphinx.SphinxFunctionDoc(obj, doc=doc, config=config)
    else:
        if doc is None:
            doc = pydoc.getdoc(obj)
        return docscrape_sphinx.SphinxObjDoc(obj, doc, config=config)


class Validator(numpydoc_validate.Validator):
    """numpydoc 1.5's ``Validator``, its section titles read once and its definition's
    line number found without tokenising the definition."""

    @property
    def section_titles(self):
        titles = self.__dict__.get("_section_titles")
        if titles is None:
            titles = self.__dict__["_section_titles"] = super().section_titles
        return titles

    @property
    def source_file_def_line(self):
        """``inspect.getsourcelines(self.code_obj)[-1]``, as numpydoc's: 0 for a module,
        else the first line of the definition (``findsource``'s index + 1)."""
        try:
            obj = inspect.unwrap(self.code_obj)
            lnum = inspect.findsource(obj)[1]
        except (OSError, TypeError):
            return None
        if inspect.istraceback(obj):
            obj = obj.tb_frame
        if inspect.ismodule(obj) or (inspect.isframe(obj) and obj.f_code.co_name == "<module>"):
            return 0
        return lnum + 1


#: (docstring class, id(object), lines) -> (object, numpydoc's validation result).
_VALIDATED: dict = {}


def validate(doc):
    """``numpydoc.validate.validate(doc)``, once per docstring: its result depends only on
    the object (its ``__doc__``, source and signature) and the docstring's lines."""
    key = (type(doc), id(doc._obj), tuple(doc._doc._str))
    held = _VALIDATED.get(key)
    if held is None or held[0] is not doc._obj:
        held = _VALIDATED[key] = (doc._obj, numpydoc_validate.validate(doc))
    return held[1]


def _use(app, config) -> None:
    """After numpydoc's set-up (which sets its module's ``get_doc_object``)."""
    import numpydoc.numpydoc as module

    if numpydoc.__version__ == NUMPYDOC_VERSION:
        module.get_doc_object = get_doc_object
        numpydoc_validate.Validator = Validator
        module.validate = validate


def setup(app):
    app.setup_extension("numpydoc")
    app.connect("config-inited", _use)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
