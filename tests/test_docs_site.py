"""The documentation site (docs/): the examples of its hand-written pages run; the site
builds with warnings as errors (``make docs-html``: broken references, numpydoc
validation, failed gallery examples all fail it) and has a page for every registered
measure and every public name; its pages render in headless Chromium
(scripts/check_site.py: title, navigation, no error box, formulas typeset, images
loaded, a clean browser console), with screenshots in docs/_build/screenshots/.

The build and the browser check are marked ``docs`` (``pytest -m "not docs"`` leaves
them out). The build takes a few minutes on 2 cores: the gallery runs the evidence
scripts in their --quick modes and the catalogue audits every measure; both are cached
by content in docs/_build, so a second build takes about a minute.
"""
import doctest
import fcntl
import os
import pathlib
import re
import textwrap

import pytest

import propstab
import shared  # tests/shared.py (tests/ is on sys.path)

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
HTML = DOCS / "_build" / "html"
GENERATED = ("_build", "api", "catalogue", "auto_gallery")  # git ignores these


check_site = shared.load_script(ROOT / "scripts" / "check_site.py", "check_site")
check_docstrings = shared.load_script(ROOT / "scripts" / "check_docstrings.py", "check_docstrings")
shared_audit = shared.load_script(DOCS / "_ext" / "shared_audit.py", "shared_audit", reuse=True)

# ---------------------------------------------------------------- the pages' examples

#: Pages whose examples another test already runs: page -> that test's file.
DOCTESTED_ELSEWHERE = {
    "inference.md": "tests/test_inference.py",
    "from_data.md": "tests/test_resampling.py",
    "stability_selection.md": "tests/test_selection.py",
    "tuning.md": "tests/test_tuning.py",
    "r_crosscheck.md": "r_compat/test_live_crosscheck.py",  # needs R
}
HAND_WRITTEN = sorted(
    p for p in DOCS.rglob("*.md") if p.relative_to(DOCS).parts[0] not in GENERATED
)
WITH_EXAMPLES = [p for p in HAND_WRITTEN if ">>>" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize(
    "page",
    [p for p in WITH_EXAMPLES if p.name not in DOCTESTED_ELSEWHERE],
    ids=lambda p: str(p.relative_to(DOCS)),
)
def test_page_examples_run(page):
    result = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
    )
    assert result.attempted >= 1
    assert result.failed == 0


def test_every_page_with_examples_is_doctested():
    """The pages left to other tests are named by those tests (and still exist)."""
    names = {p.name for p in WITH_EXAMPLES}
    for page, test in DOCTESTED_ELSEWHERE.items():
        assert page in names, f"docs/{page} has no examples any more: drop it from the list"
        assert f'"{page}"' in (ROOT / test).read_text(
            encoding="utf-8"
        ), f"{test} does not doctest docs/{page}"
    assert {"getting_started.md", "choosing.md", "properties.md", "index.md"} <= names


# ---------------------------------------------------------------- the docstring checker


def test_docstring_checker_lists_missing_sections():
    def complete(x):
        """Double x.

        Parameters
        ----------
        x : float

        Returns
        -------
        float

        Raises
        ------
        TypeError
            For a non-number.

        See Also
        --------
        propstab.stability

        References
        ----------
        .. [1] A paper.

        Examples
        --------
        >>> complete(1)
        2
        """
        return 2 * x

    def partial(x):
        """Double x.

        Parameters
        ----------
        x : float
        """
        return 2 * x

    def bare():
        return 0

    assert check_docstrings.missing_sections(complete) == ()
    assert check_docstrings.missing_sections(partial) == (
        "Returns",
        "Raises",
        "See Also",
        "References",
        "Examples",
    )
    assert check_docstrings.missing_sections(bare) == (
        "docstring",
        "Returns",
        "Raises",
        "See Also",
        "References",
        "Examples",
    )


def test_docstring_checker_covers_every_public_function_and_class():
    checked = {
        name
        for name, obj in check_docstrings.public_objects()
        if check_docstrings.kind(obj) is not None
    }
    assert {
        "propstab.stability",
        "propstab.estimate",
        "propstab.measures.jaccard",
        "propstab.StabilitySelection",
        "propstab.auditing.check_bounds",
    } <= checked
    assert set(check_docstrings.incomplete_names()) <= checked


def test_every_public_function_and_class_has_every_section():
    """The docstring standard: Parameters, Returns, Raises, See Also, References and Examples
    (as scripts/check_docstrings.py requires them per kind) on every public name; a new
    public name without them fails here, and its Examples run as doctests."""
    missing = check_docstrings.incomplete_names()
    assert not missing, "\n".join(
        f"{name}: {', '.join(sections)}" for name, sections in sorted(missing.items())
    )


# ---------------------------------------------------------------- the site


@pytest.fixture(scope="session")
def site():
    """Build the site as ``make docs`` does (without the set-up), once per test run.

    Under pytest-xdist each worker that runs a site test asks for the site; two
    concurrent Sphinx builds into one tree break each other, so the build runs under a
    file lock and a worker finding the site already built in this run (a stamp with
    xdist's run id) uses it. The catalogue's audit shares its checks with
    properties/test_axioms.py in this run (docs/_ext/shared_audit.py): the build gets
    the run's id.
    """
    run_id = shared_audit.current_run_id()
    (DOCS / "_build").mkdir(exist_ok=True)
    stamp = DOCS / "_build" / ".built-by-test-run"
    with open(DOCS / "_build" / ".site-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if stamp.is_file() and stamp.read_text() == run_id:
                return HTML
            stamp.unlink(missing_ok=True)
            run = shared.run(
                ["make", "--no-print-directory", "-s", "docs-html"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=1800,
                env={**os.environ, shared_audit.ENV: run_id},
            )
            output = run.stdout + run.stderr
            problems = [
                line for line in output.splitlines() if "WARNING" in line or "ERROR" in line
            ]
            assert (
                run.returncode == 0
            ), "the site's build failed (warnings are errors):\n" + "\n".join(
                problems[:40] or output.splitlines()[-40:]
            )
            stamp.write_text(run_id)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return HTML


#: The tests that use the built site: the first to run builds it (``make docs-html``, under
#: its own 1800 s limit) or waits for the other worker's build, within its own timeout.
BUILDS_THE_SITE = pytest.mark.timeout(2100)


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium per xdist worker, for every browser check the worker runs (a
    start costs ~2.5 s and ~3 CPU-s; the browser audit's parts reach a worker as units of
    their own, after other modules, where a module's fixture would have been closed)."""
    with check_site.browser() as driver, shared.watched(driver.service.process.pid):
        driver.set_script_timeout(60)
        yield driver


@pytest.fixture(scope="session")
def reader(site, chromium):
    """The built site served over HTTP and the worker's Chromium reading it: the
    ``opened`` session of scripts/check_site.py and scripts/site_audit.py."""
    with check_site.serve(site) as base:
        yield base, chromium


@pytest.mark.docs
@BUILDS_THE_SITE
def test_site_has_every_section_measure_and_public_name(site):
    for page in (
        "index",
        "getting_started",
        "user_guide/index",
        "user_guide/choosing",
        "user_guide/properties",
        "findings/index",
        "table41",
        "paper_values",
        "inference",
        "correlated",
        "from_data",
        "stability_selection",
        "r_crosscheck",
        "catalogue/index",
        "api/index",
        "auto_gallery/index",
        "about",
        "r/reference/index",
        "r/articles/propstab",
    ):
        assert (site / f"{page}.html").is_file(), page
    for m in propstab.list_measures():
        assert (site / "catalogue" / f"{m.name}.html").is_file(), m.name
    sections, _ = check_docstrings._site_extension().public_names()
    for module, _ in sections:  # the API reference: a page per public module
        assert (site / "api" / f"{module}.html").is_file(), module
    documented = {canonical for _, entries in sections for _, canonical in entries}
    for name in documented:
        assert (site / "api" / "generated" / f"{name}.html").is_file(), name
    figures = sorted((site / "_images").glob("sphx_glr_plot_*.png"))
    for example in (
        "how_stable_is_my_selector",
        "selection_matrix",
        "choosing_a_penalty",
        "kamkar_l1_logistic",
        "stability_selection_vs_lasso",
        "hamer_simulation",
        "validate_inference",
    ):
        assert any(
            f"plot_{example}_0" in f.name for f in figures
        ), f"the gallery example {example} produced no figure"


@pytest.mark.docs
@BUILDS_THE_SITE
def test_tutorial_ran_with_its_output(site):
    """The tutorial "How stable is my selector?" is executed at build time:
    its page shows the comparison, the intervals, the paired tests and its figures."""
    html = site / "auto_gallery" / "basics" / "plot_how_stable_is_my_selector.html"
    text = " ".join(re.sub(r"<[^>]+>", " ", html.read_text(encoding="utf-8")).split())
    for shown in (
        "Comparison of 4 selectors on the same resamples",
        "Pareto optimal:",
        "default interval: logit, jackknife variance",
        "logit-jackknife [",
        "Pairwise tests of stability",
        "BCa [",
        "runs for a half-width of 0.02",
    ):
        assert shown in text, shown
    figures = sorted((site / "_images").glob("sphx_glr_plot_how_stable_is_my_selector_[0-9]*.png"))
    assert len(figures) == 3, figures


@pytest.mark.docs
@BUILDS_THE_SITE
def test_measure_pages_show_the_audits_counterexamples(site):
    """docs/table41.md's counterexample to Jaccard's monotonicity (checked in exact
    arithmetic by tests/test_audit.py) is the one the catalogue page shows."""

    def text(name):
        html = (site / "catalogue" / f"{name}.html").read_text(encoding="utf-8")
        return " ".join(re.sub(r"<[^>]+>", "", html).split())

    jaccard = text("jaccard")
    assert "Z1 = [1100, 1100, 0011], Z2 = [1100, 1010, 0101]" in jaccard
    assert "stabm::stabilityJaccard" in jaccard
    assert "a constant subset size only" in text("kuncheva")


@pytest.mark.docs
@BUILDS_THE_SITE
def test_site_renders_in_chromium(site, reader):
    results = check_site.check_pages(site, opened=reader)
    report = "\n".join(str(r) for r in results)
    print(report)  # pytest -s shows the screenshots' paths
    assert [r.page for r in results] == list(check_site.DEFAULT_PAGES)
    assert not [r for r in results if r.problems], report
    by_page = {r.page: r for r in results}
    assert by_page["catalogue/nogueira.html"].formulas >= 1  # typeset by MathJax
    assert by_page["auto_gallery/basics/plot_selection_matrix.html"].images >= 2
    for r in results:
        assert r.screenshot.is_file() and r.screenshot.stat().st_size > 10_000


@pytest.mark.docs
def test_browser_check_finds_a_broken_page(tmp_path, chromium):
    """The check can fail: an error box, a missing image and no navigation are found."""
    (tmp_path / "broken.html").write_text(
        textwrap.dedent(
            """\
        <html><head><title>broken - propstab</title></head><body>
        <h1>A broken page</h1>
        <div class="system-message">ERROR: Unknown target name</div>
        <img src="missing.png" alt="a figure that was not built">
        <p>"""
            + "Some text. " * 40
            + """</p></body></html>"""
        )
    )
    with check_site.serve(tmp_path) as base:
        [result] = check_site.check_pages(
            tmp_path, ["broken.html"], tmp_path / "shots", opened=(base, chromium)
        )
    found = "\n".join(result.problems)
    assert "error boxes" in found
    assert "images not loaded" in found
    assert "navigation lacks" in found
    assert "missing.png" in found  # the console's 404


# ---------------------------------------------------------------- every page, as a reader meets it

site_audit = shared.load_script(ROOT / "scripts" / "site_audit.py", "site_audit")

#: Pages written for contributors (the module map names private modules and test files).
FOR_CONTRIBUTORS = {"contributing.html"}
#: Problems known and open: page (or folder, ending in "/") -> (why, the kinds of problem
#: left). None now; a kind not listed fails.
KNOWN_OPEN: dict = {}


def _known_open(page: str, problem: str) -> bool:
    return any(
        (page == key or key.endswith("/") and page.startswith(key)) and problem.startswith(kinds)
        for key, (_, kinds) in KNOWN_OPEN.items()
    )


#: Pages that still write some formulas as plain text (``sum_f p_f^2``): none now (the guide
#: pages use dollar math, the API and measure pages ``:math:``, the R reference the LaTeX of
#: the help pages' ``\deqn``). A page listed here must have such formulas (the test fails
#: on a listed page without them, so the list only shrinks); every other page fails on any
#: plain-text formula.
FORMULAS_TO_TYPESET: set = set()


def _is_formula(problem: str) -> bool:
    return problem.split(":", 1)[0] in site_audit.FORMULA_PATTERNS


def _is_internal(problem: str) -> bool:
    return problem.split(":", 1)[0] in site_audit.INTERNAL_PATTERNS


#: The pages are audited in this many parts (every AUDIT_PARTS-th page from the i-th), so
#: that both xdist workers share the browser's minutes once the site is built.
AUDIT_PARTS = 6


@pytest.mark.docs
@BUILDS_THE_SITE
def test_pages_left_to_type_formulas_exist(site):
    """Every page of FORMULAS_TO_TYPESET is a page of the site (a page that is gone has
    no formula left: drop it from the list)."""
    gone = sorted(set(FORMULAS_TO_TYPESET) - set(site_audit.pages(site)))
    assert not gone, f"no such page: {gone}: drop them from the list"


@pytest.mark.docs
@pytest.mark.parametrize("part", range(AUDIT_PARTS))
@BUILDS_THE_SITE
def test_every_page_fits_links_and_reads_for_users(site, reader, part):
    """Every page of the site, in headless Chromium at 1,400 px (AUDIT_PARTS parts of
    the pages, one test each): no page wider than the window, no broken link or anchor
    (the sources' [docs] links included), no raw TeX or plain-text formula in prose, no
    words for the project instead of the reader (scripts/site_audit.py). About 4 minutes
    for 345 pages on a loaded machine, shared by the workers."""
    names = site_audit.pages(site)[part::AUDIT_PARTS]
    found = site_audit.audit(site, only=names, opened=reader)
    left = {}
    for page, problems in found.items():
        problems = [
            p
            for p in problems
            if not (page in FORMULAS_TO_TYPESET and _is_formula(p))
            and not (page in FOR_CONTRIBUTORS and _is_internal(p))
            and not _known_open(page, p)
        ]
        if problems:
            left[page] = problems
    assert not left, "\n".join(f"{page}: {p}" for page, ps in sorted(left.items()) for p in ps[:8])
    typeset = [
        p
        for p in FORMULAS_TO_TYPESET
        if p in names and not any(_is_formula(x) for x in found.get(p, []))
    ]
    assert not typeset, f"no plain-text formula left on {typeset}: drop them from the list"


# The measures read in a page opened in the window itself (a navigation), for the frame
# of site_audit.widths to be checked against.
_IN_WINDOW = """
const done = arguments[arguments.length - 1];
function report() {
  done([document.scrollingElement.scrollWidth, window.innerWidth,
        document.querySelectorAll("main span.math, main div.math").length,
        document.querySelectorAll(
          "main .MathJax_SVG, main .MathJax_SVG_Display, main .MathJax_Error").length]);
}
if (typeof MathJax !== "undefined" && MathJax.Hub) {
  MathJax.Hub.Register.StartupHook("End", function () { MathJax.Hub.Queue(report); });
} else { report(); }
"""


@pytest.mark.docs
@BUILDS_THE_SITE
def test_frame_measures_a_page_as_the_window_does(site, reader):
    """site_audit.widths reads each page in a frame outside the window (nothing painted):
    the page's width, the viewport's and the formulas typeset are those of the page
    opened in the window, on pages with formulas, a wide table, code and figures."""
    pages = [
        "catalogue/nogueira.html",
        "api/generated/propstab.estimate.html",
        "table41.html",
        "auto_gallery/basics/plot_selection_matrix.html",
        "_modules/propstab/measures/pairwise.html",
    ]
    framed = site_audit.widths(site, only=pages, opened=reader)
    base, driver = reader
    driver.set_window_size(check_site.WIDTH, check_site.HEIGHT)
    for page in pages:
        driver.get(base + page)
        assert tuple(driver.execute_async_script(_IN_WINDOW)) == framed[page], page
    assert all(
        framed[p][3] >= framed[p][2] > 0  # formulas, typeset
        for p in ("catalogue/nogueira.html", "api/generated/propstab.estimate.html")
    )
    # a page wider than the frame: test_site_audit_finds_each_kind_of_problem


@pytest.mark.docs
def test_site_audit_finds_each_kind_of_problem(tmp_path, chromium):
    """The checks can fail: a too-wide page, a broken link and anchor, a formula in plain
    text and one in raw TeX, words for the project, a private import in an example."""
    (tmp_path / "target.html").write_text(
        '<html><body><main><h1 id="here">T</h1>' + "<p>Text.</p>" * 20 + "</main></body></html>"
    )
    (tmp_path / "bad.html").write_text(
        textwrap.dedent(
            """\
        <html><head><title>bad - propstab</title></head><body><main>
        <h1>A bad page</h1>
        <p>The value is sum_f p_f^2 over E[Phi | H0], with qbar and \\frac{a}{b}; see
        docs/inference.md, {work_item} and tests/test_x.py; the main job runs it.</p>
        <p><code>x_1 is code, not prose</code> <span class="math">\\(p_f^2\\)</span></p>
        <p>As the thesis says, it falls like sqrt(n) and E(V) &lt;= PFER; see
        <code>studies/x_study.py</code>.</p>
        <pre>from propstab.measures._variance import degenerate</pre>
        <a href="missing.html">a</a> <a href="target.html#nowhere">b</a>
        <a href="target.html#here">c</a> <a href="https://example.org/x#y">d</a>
        <div style="width: 3000px">wide</div>
        </main></body></html>"""
        ).replace(
            "{work_item}", "issue" + " 13"
        )  # in two parts: no project file names one
    )
    with check_site.serve(tmp_path) as base:
        found = site_audit.audit(tmp_path, opened=(base, chromium))
    assert set(found) == {"bad.html"}
    kinds = {p.split(":", 1)[0] for p in found["bad.html"]}
    assert {
        "plain-text sum",
        "plain-text power",
        "plain-text expectation",
        "plain-text H0",
        "plain-text bar or hat",
        "raw TeX",
        "a bare repository path",
        "an issue number",
        "a test file",
        "the main job",
        "a private import in code",
        "wider than the window at 1400 px",
        "wider than the window at 390 px",
        "formulas not typeset",
        "a repository path in code",
        "the thesis unnamed",
        "plain-text sqrt",
        "plain-text bound",
    } <= kinds, kinds
    assert sum("broken link" in p for p in found["bad.html"]) == 1
    assert sum("broken anchor" in p for p in found["bad.html"]) == 1
    assert not [p for p in found["bad.html"] if "x_1" in p]  # code is not prose


def test_site_audit_counts_the_words_of_a_readers_page(tmp_path):
    """A reader's page over MAX_WORDS words (code included) is reported; one at the limit
    is not, nor a long validation page (the old API index: 7,628 words)."""
    limit = site_audit.MAX_WORDS

    def page(name, prose, code):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            "<html><body><nav>"
            + "menu " * 500
            + "</nav><main><h1>T</h1><p>"
            + "word " * prose
            + "</p><pre>"
            + "x = 1\n" * code
            + "</pre></main></body></html>"
        )

    page("long.html", limit - 100, 51)  # 1 + limit - 100 + 3 * 51 words
    page("fits.html", limit - 1, 0)
    page("table41.html", 2 * limit, 0)
    found = site_audit.scan(tmp_path)
    assert found == {
        "long.html": [
            f"too long for one page: {limit + 54} words (a reader's page holds at most "
            f"{limit}: split it)"
        ]
    }


def _figure_png(path, width_in, fontsize, record=True):
    """A one-axes figure ``width_in`` inches wide at 100 dpi, its texts ``fontsize`` pt,
    saved with its smallest text recorded (or not)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width_in, 3))
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(fontsize=fontsize)
    ax.tick_params(labelsize=fontsize)
    ax.set_xlabel("x", fontsize=fontsize)
    meta = {site_audit.TEXT_KEY: f"{fontsize * 100 / 72:.1f}"} if record else {}
    fig.savefig(path, dpi=100, metadata=meta)
    plt.close(fig)


@pytest.mark.docs
def test_site_audit_measures_figure_text_as_shown(tmp_path, chromium):
    """A figure's recorded text size is scaled by the width the page shows it at: a wide
    figure squeezed into the column fails (the old calibration figure: 1,584 px, its
    smallest text 12.7 px, shown at ~749 px: ~6 px), the same figure at its natural
    size passes, and a figure of the site without the record is reported."""
    images = tmp_path / "_images"
    images.mkdir()
    _figure_png(images / "wide.png", 15.84, 9.1)
    _figure_png(images / "fits.png", 7.0, 9.1)
    _figure_png(images / "bare.png", 7.0, 9.1, record=False)
    body = (
        '<div style="width: 749px"><img src="_images/wide.png" style="max-width: 100%"></div>'
        '<div style="width: 749px"><img src="_images/fits.png" style="max-width: 100%"></div>'
    )
    (tmp_path / "squeezed.html").write_text(
        f"<html><body><main><h1>S</h1>{body}</main></body></html>"
    )
    (tmp_path / "bare.html").write_text(
        '<html><body><main><h1>B</h1><img src="_images/bare.png"></main></body></html>'
    )
    with check_site.serve(tmp_path) as base:
        found = site_audit.audit(tmp_path, opened=(base, chromium), phone=None)
    assert set(found) == {"squeezed.html", "bare.html"}, found
    [small] = found["squeezed.html"]
    assert small.startswith("figure text too small: _images/wide.png: 6.0 px"), small
    assert found["bare.html"] == [
        f"figure without its text size: _images/bare.png (key {site_audit.TEXT_KEY!r})"
    ]


#: The article column's width at 1,400 px (the site audit measures each figure as shown;
#: this bound lets a test check a study's figure without building the site).
COLUMN_PX = 740


def test_calibration_figure_is_legible_in_the_column(tmp_path):
    """The calibration study's figure, drawn from the full run's summary: its smallest
    text is at least 9 px when shown in the column (the old 4-panel row, 1,584 px wide
    with 12.7 px text, gave 5.9 px), and the committed PNG is that figure."""
    import json

    study = shared.load_script(ROOT / "studies" / "calibration_study.py", "calibration_study")
    summary = json.loads((ROOT / "studies" / "calibration_study_full.json").read_text())
    px = study.figure(summary, tmp_path / "f.png")
    width = check_site_png_width(tmp_path / "f.png")
    assert px * min(1.0, COLUMN_PX / width) >= site_audit.MIN_FIGURE_TEXT, (px, width)
    committed = DOCS / "figures" / "calibration_study.png"
    assert site_audit.png_text(committed)[site_audit.TEXT_KEY] == f"{px:.1f}"
    assert check_site_png_width(committed) == width


def check_site_png_width(path) -> int:
    """A PNG's width in pixels (its IHDR chunk)."""
    return int.from_bytes(pathlib.Path(path).read_bytes()[16:20], "big")


# ---------------------------------------------------------------- pages users expect


def test_install_page_names_every_extra_and_the_supported_pythons():
    """docs/install.md follows pyproject.toml: every optional extra, the Python floor, the
    license."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    page = (DOCS / "install.md").read_text(encoding="utf-8")
    for extra in project["optional-dependencies"]:
        assert f"| `{extra}` |" in page, extra
    floor = project["requires-python"].lstrip(">=")
    assert f"Python {floor} or newer" in page
    assert "BSD 3-Clause" in page and project["license"]["text"] == "BSD-3-Clause"
    assert 'pip install ".[' in page  # from the source: not on PyPI yet
    for route in (
        "PROPSTAB_PYTHON",
        "options(propstab.python",
        "R CMD INSTALL rpackage",
        "python3 -m venv",
    ):
        assert route in page, route


def test_citation_cff_is_valid_cff_1_2():
    """CITATION.cff: the keys CFF 1.2 requires (cff-version, message, title, authors with a
    name), and the version and license of pyproject.toml."""
    import tomllib
    import yaml

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert cff["cff-version"] == "1.2.0"
    assert {"message", "title", "authors"} <= set(cff)
    assert cff["authors"] and all("name" in a or "family-names" in a for a in cff["authors"])
    assert str(cff["version"]) == project["version"]
    assert cff["license"] == project["license"]["text"]
    for ref in cff.get("references", []):
        assert {"type", "title", "authors"} <= set(ref)


def test_shared_audit_computes_each_check_once_and_waits_for_a_claimed_one(tmp_path):
    """docs/_ext/shared_audit.py (the catalogue's audit and properties/test_axioms.py share
    each check in a test run): a check is computed once, then read (the same result as
    CHECKS gives); a check claimed by a live process is left (wait=False) or waited for;
    a claim dies with its process."""
    import multiprocessing
    from propstab import Axiom, get_measure
    from propstab.auditing import CHECKS, subject

    jaccard = subject(get_measure("jaccard"))
    direct = CHECKS[Axiom.MONOTONICITY](jaccard, max_examples=10, random_state=0)
    first = shared_audit.check(tmp_path, jaccard, Axiom.MONOTONICITY, max_examples=10, seed=0)
    assert first.to_dict() == direct.to_dict() and first.status == "refuted"
    result_path, claim_path = shared_audit._paths(tmp_path, jaccard, Axiom.MONOTONICITY)
    stored = result_path.read_bytes()
    again = shared_audit.check(tmp_path, jaccard, Axiom.MONOTONICITY, max_examples=10, seed=0)
    assert again.to_dict() == direct.to_dict() and result_path.read_bytes() == stored

    result_path, claim_path = shared_audit._paths(tmp_path, jaccard, Axiom.BOUNDS)
    claimed, release = multiprocessing.Event(), multiprocessing.Event()

    def claimer():
        fd = os.open(claim_path, os.O_CREAT | os.O_RDWR)
        fcntl.flock(fd, fcntl.LOCK_EX)
        claimed.set()
        release.wait(60)
        os._exit(0)  # dies holding the claim

    process = multiprocessing.get_context("fork").Process(target=claimer)
    process.start()
    assert claimed.wait(60)
    assert (
        shared_audit.check(tmp_path, jaccard, Axiom.BOUNDS, max_examples=10, seed=0, wait=False)
        is None
    )
    assert not result_path.exists()
    import threading

    threading.Timer(0.5, release.set).start()  # blocks until the claimer dies
    waited = shared_audit.check(tmp_path, jaccard, Axiom.BOUNDS, max_examples=10, seed=0)
    assert (
        waited.to_dict()
        == CHECKS[Axiom.BOUNDS](jaccard, max_examples=10, random_state=0).to_dict()
    )
    assert result_path.exists() and not process.is_alive()
    process.join(60)


_NAVBAR = """
const items = [...document.querySelectorAll(".navbar-nav .nav-item")];
return items.map(e => [Math.round(e.getBoundingClientRect().top),
                       Math.round(e.getBoundingClientRect().height)]);
"""
# per catalogue table: the right edge of its box and of the last property mark's header
_MARKS = """
return [...document.querySelectorAll("table.catalogue")].map(t =>
  [Math.round(t.getBoundingClientRect().right),
   Math.round(t.querySelectorAll("thead th")[6].getBoundingClientRect().right)]);
"""


@pytest.mark.docs
def test_navbar_on_one_line_and_catalogue_marks_visible_at_1400_px(site, reader):
    """At 1,400 px the navigation bar's sections sit on one line (each label one line
    high), and every table of the catalogue shows its five property marks and the range
    without scrolling sideways (the formula, last, may scroll)."""
    base, driver = reader
    driver.set_window_size(check_site.WIDTH, check_site.HEIGHT)
    driver.get(base + "index.html")
    items = driver.execute_script(_NAVBAR)
    assert len(items) >= 8 and len({top for top, _ in items}) == 1, items
    assert max(height for _, height in items) < 45, items
    driver.get(base + "catalogue/index.html")
    tables = driver.execute_script(_MARKS)
    assert len(tables) == 3 and all(marks <= box for box, marks in tables), tables


@pytest.mark.docs
@BUILDS_THE_SITE
def test_measure_pages_read_on_a_phone(site, reader):
    """At 390 px the article of a catalogue page starts within the first screen (the
    section's 42-page list is a short scrolling box above it, not a screen of links)."""
    pages = [
        "catalogue/index.html",
        "catalogue/jaccard.html",
        "inference.html",
        "auto_gallery/basics/plot_how_stable_is_my_selector.html",
    ]
    seen = site_audit.phone_layout(site, pages, opened=reader)
    for page, s in seen.items():
        assert s["top"] < s["screen"] / 2, (page, s)
