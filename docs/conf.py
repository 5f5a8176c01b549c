"""Sphinx configuration of propstab's documentation site.

Built by ``make docs`` (``sphinx-build -W --keep-going -E -b html docs docs/_build/html``):
warnings are errors. Everything comes from Debian packages (python3-sphinx, numpydoc,
myst-parser, sphinx-gallery, pydata-sphinx-theme, libjs-mathjax); nothing is fetched
from the network when the site is built or read.

Generated when this file is read, into folders git ignores:

- ``catalogue/``: one page per registered measure, with the verdicts of an axiom audit
  run now (``PROPSTAB_DOCS_AUDIT_EXAMPLES`` Hypothesis examples per check, default 40 as
  in the CI property suite; cached in ``_build/cache`` under a hash of the sources);
- ``api/index.rst`` and ``api/<module>.rst``: the API reference, an index and a page per
  public module, from the modules' ``__all__``;
- ``auto_gallery/``: sphinx-gallery runs ``gallery/plot_*.py`` (self-contained examples,
  small versions of the experiments of examples/ and studies/) and keeps their output and
  figures.
"""
import importlib.util
import os
import pathlib
import re
import shutil
import sys

DOCS = pathlib.Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # document this checkout, not an installed copy
sys.path.insert(0, str(DOCS / "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")

import propstab  # noqa: E402
import propstab_sphinx  # noqa: E402
import shared_audit  # noqa: E402

# -- project -------------------------------------------------------------------------
project = "propstab"
author = "The propstab developers"  # as CITATION.cff and R's citation()
copyright = "2026, The propstab developers"
release = version = propstab.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "sphinx.ext.intersphinx",
    "sphinx_copybutton",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "propstab_sphinx",
    "fast_toctree",  # the navigation's copies, faster (docs/_ext)
    "fast_numpydoc",  # numpydoc's template loaded once (docs/_ext)
    "fast_smartquotes",  # SmartQuotes only where it can change text
    "fast_doctrees",  # a read doctree handed to its writing in memory
    "fast_gc",  # the cyclic collector run less often
]

root_doc = "index"
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "README.md", "_templates", "_ext"]
templates_path = ["_templates"]
default_role = "literal"

# Broken references are errors: every Python cross-reference must resolve (nitpicky),
# except the few private names that docstrings mention (listed, for the docstring pass).
nitpicky = True
nitpick_ignore_regex = [
    ("py:.*", r"propstab\.(\w+\.)*_\w.*"),  # names inside private modules (not documented)
    ("py:.*", r"(numpy|np|scipy|pandas|pd|sklearn|matplotlib|hypothesis|rpy2)(\..*)?"),
    # Private classes that public docstrings name (a link target is missing: the
    # docstring pass decides whether to document or rephrase them).
    ("py:class", r"Subject"),
]

# -- generated pages -----------------------------------------------------------------
AUDIT_EXAMPLES = int(os.environ.get("PROPSTAB_DOCS_AUDIT_EXAMPLES", "40"))
AUDIT_NOTE = (
    f"Verdicts of ``propstab.audit(max_examples={AUDIT_EXAMPLES}, random_state=0)``, run "
    "when this site was built (the test suite runs the same checks with 40 examples; the "
    "command ``propstab audit`` with 200). A verdict is a search result: "
    "*holds* means no counterexample was found, never a proof; a refutation is a "
    "counterexample, shown in full and checked in exact arithmetic in the test suite "
    "(:doc:`/table41`)."
)
_rows = shared_audit.audit_rows(DOCS / "_build" / "cache", max_examples=AUDIT_EXAMPLES, seed=0)
propstab_sphinx.generate_catalogue(DOCS / "catalogue", _rows, AUDIT_NOTE)
# docs/measures.md, the one-page table of the registry: generated here (not kept in git),
# so that a new measure is one family module and its test file
_gen_docs_spec = importlib.util.spec_from_file_location(
    "gen_docs", DOCS.parent / "scripts" / "gen_docs.py"
)
_gen_docs = importlib.util.module_from_spec(_gen_docs_spec)
_gen_docs_spec.loader.exec_module(_gen_docs)
propstab_sphinx.write_if_changed(DOCS / "measures.md", _gen_docs.render_measures_markdown())
propstab_sphinx.generate_api(DOCS / "api")
# the R package's reference site (pkgdown: a page per help topic with its examples run,
# "Get started", NEWS, citation), built when rpackage/ changed and copied into the
# output's r/ (html_extra_path below); the From R page links to it
_r_site_spec = importlib.util.spec_from_file_location(
    "build_r_site", ROOT / "scripts" / "build_r_site.py"
)
build_r_site = importlib.util.module_from_spec(_r_site_spec)
_r_site_spec.loader.exec_module(build_r_site)
R_SITE = build_r_site.build(quiet=True)
propstab_aliases = propstab_sphinx.public_names()[1]

# -- links to Python's, numpy's, scipy's, scikit-learn's and pandas's documentation -------
# From LOCAL inventories (Debian's python3-doc, python-scipy-doc, python-sklearn-doc,
# python-pandas-doc; numpy has no Debian documentation package, so a small inventory of
# the numpy names these pages use is written here): nothing is fetched when the site is
# built, and the links point to the projects' public pages. A missing package leaves its
# names unlinked (the build does not fail).
_INVENTORIES = {
    "python": (
        "https://docs.python.org/3/",
        "/usr/share/doc/python3/html/objects.inv",
        "/usr/share/doc/python3.11/html/objects.inv",
    ),
    "scipy": (
        "https://docs.scipy.org/doc/scipy/",
        "/usr/share/doc/python-scipy-doc/html/objects.inv",
    ),
    "sklearn": (
        "https://scikit-learn.org/stable/",
        "/usr/share/doc/python-sklearn-doc/html/objects.inv",
    ),
    "pandas": (
        "https://pandas.pydata.org/docs/",
        "/usr/share/doc/python-pandas-doc/html/objects.inv",
    ),
    "numpy": (
        "https://numpy.org/doc/stable/",
        str(propstab_sphinx.write_numpy_inventory(DOCS / "_build" / "numpy-objects.inv")),
    ),
}
intersphinx_mapping = {}
for _name, (_url, *_files) in _INVENTORIES.items():
    _local = next((f for f in _files if pathlib.Path(f).is_file()), None)
    if _local is not None:
        intersphinx_mapping[_name] = (_url, _local)
intersphinx_disabled_reftypes = ["std:doc"]  # {doc} links stay within this site
# inline code naming an object of those inventories (`GridSearchCV`,
# `numpy.random.SeedSequence`, `pandas.DataFrame`) links to its page: propstab_sphinx
propstab_external_names = propstab_sphinx.EXTERNAL_NAMES

# -- copy buttons: the code of an example without its prompts and output ---------------
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True  # a >>> block: its input lines only
copybutton_remove_prompts = True

# -- autodoc, autosummary, numpydoc --------------------------------------------------
autosummary_generate = True
# "Read more in the User Guide" on every API page: the guide page of each public name
autosummary_context = {"propstab_guide": propstab_sphinx.guide_pages()}
# ... and to the notation page where their docstrings write formulas
autosummary_context["propstab_formulas"] = propstab_sphinx.formula_pages()
autodoc_typehints = "none"  # the numpydoc sections carry the types
autodoc_member_order = "bysource"
numpydoc_show_class_members = False  # members come from the autosummary templates
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = True
# Only the propstab names below are linked in parameter types (set to "all" by the
# propstab_sphinx extension: other words stay plain text; no intersphinx offline).
numpydoc_xref_aliases = {
    name: f"propstab.{name}"
    for name in (
        "Selection",
        "MeasureInfo",
        "Axiom",
        "Bound",
        "Parameter",
        "RReference",
        "UndefinedMeasureWarning",
        "StabilityEstimate",
        "AuditTable",
        "StabilitySelection",
    )
}
# numpydoc validation of every documented object (public names and their members): a
# failed check is a warning, hence an error. The docstring pass has not
# been done yet, so only the checks that every documented object passes today are on;
# the others (ES01, EX01, GL01, GL02, GL06, GL07, PR01, PR04, PR05, PR07, PR08, RT01, RT03,
# SA01, SA04, SS02, SS05, SS06) are off. `scripts/check_docstrings.py --codes` counts
# them; `scripts/check_docstrings.py` lists the names lacking a required section.
numpydoc_validation_checks = {
    "GL03",
    "GL05",
    "GL08",
    "GL09",
    "GL10",  # layout; GL08: no docstring at all
    "SS01",
    "SS03",
    "SS04",  # a summary line, ending with a period
    "PR02",
    "PR03",
    "PR06",
    "PR09",
    "PR10",  # documented parameters exist, in order
    "RT02",
    "RT04",
    "RT05",
    "YD01",
    "SA02",
    "SA03",
}
numpydoc_validation_exclude = {
    r"\.__\w+__$",  # special methods
    # data (VARIANTS, FLEISS, ...): documented by their module, their docstring is their type's
    *(re.escape(name) + "$" for name in propstab_sphinx.data_names()),
}

# -- Markdown (the evidence pages) ---------------------------------------------------
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
# MyST would mark each Markdown page "tex2jax_ignore" and configure MathJax 3 to process
# only its math spans; the site runs MathJax 2, which then typeset nothing on those pages
myst_update_mathjax = False
myst_heading_anchors = 4

# -- math: MathJax 2 from Debian's libjs-mathjax, copied into the site -----------------
MATHJAX_SOURCE = pathlib.Path("/usr/share/javascript/mathjax")
MATHJAX_PARTS = (
    "MathJax.js",
    "config/TeX-AMS_SVG.js",
    "config/local",
    "extensions",
    "jax/input/TeX",
    "jax/element",
    "jax/output/SVG/jax.js",
    "jax/output/SVG/autoload",
    "jax/output/SVG/config.js",
    "jax/output/SVG/fonts/TeX",
    "localization/en",
)


def _mathjax_static() -> pathlib.Path:
    """The parts of MathJax that TeX input with SVG output needs (no web fonts), in a
    static folder of the build (3 MB instead of the package's 54 MB)."""
    target = DOCS / "_build" / "mathjax-static"
    if not (target / "mathjax" / "MathJax.js").exists():
        if not (MATHJAX_SOURCE / "MathJax.js").exists():
            raise RuntimeError(
                "MathJax not found in /usr/share/javascript/mathjax: "
                "install Debian's libjs-mathjax (scripts/setup.sh)"
            )
        for part in MATHJAX_PARTS:
            src, dst = MATHJAX_SOURCE / part, target / "mathjax" / part
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, dst, dirs_exist_ok=True)
            elif src.exists():
                shutil.copy2(src, dst)
    return target


mathjax_path = "mathjax/MathJax.js?config=TeX-AMS_SVG"
mathjax2_config = {"SVG": {"font": "TeX"}, "showMathMenu": False, "messageStyle": "none"}

# -- gallery -------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": ["gallery"],
    "gallery_dirs": ["auto_gallery"],
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"(__init__|/_\w+)\.py$",
    # matplotlib's, each figure recording its smallest text for the site audit
    "image_scrapers": (propstab_sphinx.gallery_scraper,),
    "download_all_examples": False,
    "remove_config_comments": True,
    "show_memory": False,
    "min_reported_time": 1,
    "abort_on_example_error": False,  # run all, then fail the build on any failure
    # an example's output shows what it prints, not the reprs of matplotlib calls
    "ignore_repr_types": r"matplotlib\.(text|axes|legend|lines|figure|collections|image)",
    # warnings print without the build machine's file paths
    "reset_modules": ("matplotlib", propstab_sphinx.gallery_warnings),
}
# an example runs again when its source changed, and also when how the gallery prints did
# (else outputs saved before, with warnings' file paths, would stay on the site)
propstab_sphinx.forget_gallery_outputs(DOCS / "auto_gallery", sphinx_gallery_conf)

# -- HTML ----------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"propstab {release}"
html_static_path = ["_static", str(_mathjax_static())]
html_extra_path = [str(R_SITE.parent)]  # the R reference site, as r/
html_css_files = ["propstab.css"]
html_favicon = "_static/favicon.svg"
html_theme_options = {
    "navigation_depth": 2,
    "show_toc_level": 2,
    "show_prev_next": False,
    "navbar_end": ["search-field.html"],
    "footer_items": ["copyright", "sphinx-version"],
}
html_sidebars = {"**": ["sidebar-nav-bs.html"]}
html_show_sourcelink = False
html_copy_source = False
