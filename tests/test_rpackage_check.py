"""The R package passes ``R CMD check --as-cran`` and stabm's own testthat suite
with propstab's functions swapped in fails only where stabm_differences() says why.

``scripts/r_check.sh --also-without-python`` builds rpackage/ and checks it (no network:
the CRAN incoming checks are off; absent suggested packages are skipped), then checks the
same tarball with the Python side hidden, as CRAN's machines see it (examples and tests
skip; a minute more); this test, part of ``make test``, fails on any ERROR or WARNING of
either check, on a NOTE that rpackage/cran-comments.md does not explain, and when
cran-comments.md does not state the counts the checks print. ``scripts/stabm_suite.R``
runs stabm's tests (from the stabm source tarball in STABM_SOURCE, else downloaded from
CRAN; skipped without either). Both run the Python
package of this checkout (PYTHONPATH). Minutes: R CMD check runs the package's examples
and its testthat suite; this is the one run of that suite in ``make test`` (the test reads
testthat's summary: no failure, and the expectations really ran, not skipped for want of
Python). Without R: fails unless PROPSTAB_SKIP_R=1.
"""
import os
import pathlib
import re
import shutil

import pytest

import shared  # tests/shared.py: processes under a timeout

ROOT = pathlib.Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    os.environ.get("PROPSTAB_SKIP_R") == "1", reason="PROPSTAB_SKIP_R=1: R not used"
)


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def _counts(out, prefix):
    counts = re.search(
        rf"^{re.escape(prefix)}: (\d+) ERROR, (\d+) WARNING, (\d+) NOTE$", out, re.M
    )
    assert counts is not None, out
    return tuple(map(int, counts.groups()))


def _testthat_summary(rout):
    """(failed, warned, skipped, passed) of testthat's last summary line."""
    summary = re.findall(r"\[ FAIL (\d+) \| WARN (\d+) \| SKIP (\d+) \| PASS (\d+) \]", rout)
    assert summary, rout[-3000:]
    return tuple(map(int, summary[-1]))


#: What Python prints for a warning nobody recorded ("sys:1: SmallSampleWarning: ..."):
#: in an R test, a call of the Python side not wrapped in py_warning_classes().
_PYTHON_WARNING_LINE = re.compile(r"[\w./-]+:\d+: \w*Warning: ")


@pytest.mark.timeout(4200)  # two R CMD checks --as-cran, each under r_check.sh's own limit
def test_r_cmd_check_as_cran_has_no_error_or_warning_with_and_without_python(tmp_path):
    if shutil.which("R") is None:
        pytest.fail("R not found: run scripts/setup.sh or set PROPSTAB_SKIP_R=1", pytrace=False)
    run = shared.run(
        ["bash", str(ROOT / "scripts" / "r_check.sh"), "--also-without-python", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=2400,
        env=_env(),
    )
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    with_python = _counts(out, "r_check")
    without_python = _counts(out, "r_check (no Python)")
    assert with_python[:2] == (0, 0) and without_python[:2] == (0, 0), out
    explained = (ROOT / "rpackage" / "cran-comments.md").read_text()
    for note in re.findall(r"^\* checking (.*) \.\.\. (?:\[.*\] )?NOTE$", out, re.M):
        assert (
            f"checking {note}" in explained
        ), f"the NOTE of 'checking {note}' is not explained in rpackage/cran-comments.md"
    # cran-comments.md states what the checks print
    for label, (errors, warnings, notes) in [
        ("with Python", with_python),
        ("without Python", without_python),
    ]:
        bullet = re.search(rf"^\* {label} .*?(?=^\* |^$)", explained, re.M | re.S)
        assert bullet is not None, f"rpackage/cran-comments.md has no bullet '* {label}'"
        stated = f"{errors} errors, {warnings} warnings, {notes} NOTE"
        assert stated in " ".join(
            bullet.group(0).split()
        ), f"rpackage/cran-comments.md does not say '{stated}' {label}"
    # the testthat suite ran inside the check (its one run in make test): no failure, and
    # its expectations were evaluated (a missing Python side would skip them all silently)
    rout = (tmp_path / "propstab.Rcheck" / "tests" / "testthat.Rout").read_text()
    failed, warned, skipped, passed = _testthat_summary(rout)
    assert failed == 0 and passed > 1500, (failed, skipped, passed)  # 2100+ in December 2026
    # a quiet suite, as pytest's: every warning a test provokes is asserted
    # (expect_warning(class = ...), py_warning_classes() for the Python twins)
    assert warned == 0, rout[-6000:]
    assert not _PYTHON_WARNING_LINE.findall(rout), _PYTHON_WARNING_LINE.findall(rout)[:5]
    # without Python: every test file that needs it skips (no failure), the examples
    # that need it are not run (0 ERROR above)
    rout = (tmp_path / "nopython" / "propstab.Rcheck" / "tests" / "testthat.Rout").read_text()
    failed, warned, skipped, passed = _testthat_summary(rout)
    assert failed == 0 and skipped >= 10 and passed < 100, (failed, skipped, passed, rout)
    assert warned == 0, rout[-6000:]
    assert "propstab is hidden for the check without Python" in rout


@pytest.mark.timeout(1200)  # stabm's suite: under its own 900 s limit
def test_stabm_suite_with_propstab_fails_only_where_documented():
    if shutil.which("Rscript") is None:
        pytest.fail(
            "Rscript not found: run scripts/setup.sh or set PROPSTAB_SKIP_R=1", pytrace=False
        )
    run = shared.run(
        ["Rscript", str(ROOT / "scripts" / "stabm_suite.R"), str(ROOT / "rpackage")],
        capture_output=True,
        text=True,
        timeout=900,
        env=_env(),
    )
    out = run.stdout + run.stderr
    if "stabm_suite: SKIP" in out:
        pytest.skip(out.strip().splitlines()[-1])
    assert run.returncode == 0, out
    summary = re.search(
        r"(\d+) failing tests, (\d+) explained by stabm_differences\(\), " r"(\d+) unexplained",
        out,
    )
    assert summary is not None and summary.group(3) == "0", out
    passed = re.search(r"(\d+) expectations: (\d+) passed", out)
    assert int(passed.group(2)) > 250, out  # stabm 1.2.2: 278 pass
