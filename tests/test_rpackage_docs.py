"""The R package's committed Rd files and NAMESPACE are those its roxygen comments generate.

roxygen2 (Debian's r-cran-roxygen2, installed by scripts/setup.sh) regenerates them in a
copy of rpackage/; a difference means ``make rdoc`` was not run after editing a comment.
The package's behaviour is tested by its testthat suite (rpackage/tests/testthat, run by
``make test``). Like the live R cross-checks, this fails without R unless
PROPSTAB_SKIP_R=1.
"""
import filecmp
import os
import pathlib
import re
import shutil

import pytest

import shared  # tests/shared.py: processes under a timeout

RPACKAGE = pathlib.Path(__file__).resolve().parent.parent / "rpackage"


@pytest.fixture(scope="module")
def roxygen():
    """Rscript is there (else a failure saying how to get it); whether roxygen2 is
    installed is read off the roxygenise run itself (no separate R start to ask)."""
    if os.environ.get("PROPSTAB_SKIP_R") == "1":
        pytest.skip("PROPSTAB_SKIP_R=1: R not used")
    if shutil.which("Rscript") is None:
        pytest.fail(
            "Rscript not found: run scripts/setup.sh or set PROPSTAB_SKIP_R=1", pytrace=False
        )


@pytest.mark.timeout(600)  # roxygen2 in R: under its own 300 s limit
def test_rd_files_and_namespace_are_generated_from_the_sources(roxygen, tmp_path):
    copy = tmp_path / "propstab"
    shutil.copytree(RPACKAGE, copy)
    shutil.rmtree(copy / "man")
    (copy / "NAMESPACE").unlink()
    run = shared.run(
        ["Rscript", "-e", f"roxygen2::roxygenise('{copy}')"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if run.returncode != 0 and re.search("there is no package called .roxygen2.", run.stderr):
        pytest.fail(
            "the R package roxygen2 is missing: run scripts/setup.sh "
            "(r-cran-roxygen2) or set PROPSTAB_SKIP_R=1",
            pytrace=False,
        )
    assert run.returncode == 0, run.stderr
    # roxygen's warnings (not a file name such as suppressPropstabWarnings.Rd)
    assert not any(
        line.lstrip().startswith("Warning") for line in run.stderr.splitlines()
    ), run.stderr
    generated = sorted(p.name for p in (copy / "man").iterdir())
    assert generated == sorted(p.name for p in (RPACKAGE / "man").iterdir())
    for name in ["NAMESPACE", *(f"man/{n}" for n in generated)]:
        assert filecmp.cmp(
            copy / name, RPACKAGE / name, shallow=False
        ), f"rpackage/{name} differs from what roxygen2 generates: run make rdoc"


@pytest.mark.timeout(600)  # the generator: under its own 300 s limit
def test_one_help_page_per_stabm_function_generated_from_the_registry():
    """rpackage/R/measure_pages.R is what scripts/gen_r_pages.py writes: one
    page per stabm-style function, each with its stabm_differences()."""
    import sys

    run = shared.run(
        [sys.executable, str(RPACKAGE.parent / "scripts" / "gen_r_pages.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(RPACKAGE.parent)},
    )
    assert run.returncode == 0, "rpackage/R/measure_pages.R is stale: run scripts/gen_r_pages.py"
    pages = {p.stem for p in (RPACKAGE / "man").glob("stability[A-Z]*.Rd")}
    assert len(pages) == 24, sorted(pages)
    davis = (RPACKAGE / "man" / "stabilityDavis.Rd").read_text()
    assert "corrected_global_score" in davis and "\\usage{" in davis


def test_generated_pages_name_each_family_once_and_share_the_interface_differences():
    """Each generated page inherits a page's arguments once, and the differences of the
    interface that many functions share are written once (a section of one internal page
    that each function's page inherits), not copied onto every page."""
    from propstab.r._interface import INTERFACE_DIFFERENCES

    text = (RPACKAGE / "R" / "measure_pages.R").read_text()
    pages = text.split("\nNULL\n")
    for page in pages:
        inherited = re.findall(r"^#' @inheritParams (\S+)$", page, re.M)
        assert len(inherited) == len(set(inherited)), page[:200]
    for difference in INTERFACE_DIFFERENCES:
        if not any(f.startswith(("stability", "all stability")) for f in difference.r_functions):
            continue
        reason_start = " ".join(difference.reason.split()[:6])
        assert " ".join(text.split()).count(reason_start) == 1, difference.key
    assert text.count("@inheritSection stabm_interface_differences") >= 40


def test_no_python_source_in_the_r_code():
    """The Python the R package runs is a file of the package (inst/python), not a
    string in its R code."""
    assert (RPACKAGE / "inst" / "python" / "propstab_import.py").is_file()
    for path in (RPACKAGE / "R").glob("*.R"):
        code = path.read_text()
        assert "py_run_string" not in code and "import importlib" not in code, path.name


site_audit = shared.load_script(RPACKAGE.parent / "scripts" / "site_audit.py", "site_audit")


def plain_text_formulas(man: pathlib.Path, out: pathlib.Path) -> dict:
    """Each help page of ``man`` as R writes it in HTML (math in ``\\eqn``/``\\deqn``
    becomes ``<code class="reqn">``, code ``<code>``), read by the site audit's formula
    check: page -> its plain-text formulas in prose."""
    out.mkdir(parents=True, exist_ok=True)
    script = (
        f"for (f in Sys.glob('{man}/*.Rd')) tools::Rd2HTML(f, "
        f"file.path('{out}', sub('[.]Rd$', '.html', basename(f))))"
    )
    run = shared.run(["Rscript", "-e", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    for page in out.glob("*.html"):  # the audit reads a page's main column
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("<body>", "<body><main>", 1), encoding="utf-8")
    found = site_audit.scan(out)
    return {
        page: kept
        for page, problems in found.items()
        if (kept := [p for p in problems if p.split(":", 1)[0] in site_audit.FORMULA_PATTERNS])
    }


@pytest.mark.timeout(600)
def test_help_pages_typeset_their_formulas(roxygen, tmp_path):
    """No help page writes a formula as plain text in its prose (``1/sqrt(N)``,
    ``sqrt(ki kj)``: they are ``\\eqn{}{}``, typeset on the site, with the text kept for
    R's text help); the check finds the old pages' (a page with ``1/sqrt(N)`` in prose)."""
    assert not plain_text_formulas(RPACKAGE / "man", tmp_path / "html")
    old = tmp_path / "old"
    old.mkdir()
    (old / "old.Rd").write_text(
        "\\name{old}\\alias{old}\\title{Old}\\description{The values differ by the "
        "simulation error, about 1/sqrt(N), and \\eqn{1/\\sqrt{N}}{1/sqrt(N)} is typeset.}\n"
    )
    [(page, [problem])] = plain_text_formulas(old, tmp_path / "old-html").items()
    assert (
        problem.startswith("plain-text sqrt: 'sqrt('") and "1/sqrt(N), and is typeset" in problem
    )
