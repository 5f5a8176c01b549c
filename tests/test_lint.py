"""The code is formatted by black and clean under flake8: `make lint` (the paths and
settings in one place: the Makefile, pyproject.toml's [tool.black], setup.cfg's [flake8])
passes, and it fails on a file that breaks either tool."""
import pathlib
import shutil

import pytest

import shared  # tests/shared.py: processes under a timeout

REPO = pathlib.Path(__file__).resolve().parent.parent


def lint(cwd, *args):
    return shared.run(
        ["make", "-s", "--no-print-directory", "lint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def tools():
    missing = [t for t in ("black", "flake8") if shutil.which(t) is None]
    assert not missing, f"{missing}: install them with scripts/setup.sh (Debian's packages)"


@pytest.mark.timeout(900)
def test_make_lint_passes(tools):
    done = lint(REPO)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.timeout(300)
def test_make_lint_fails_on_a_format_or_lint_difference(tools, tmp_path):
    """A copy of the lint settings with one unformatted file, then one unused import."""
    for name in ("Makefile", "pyproject.toml", "setup.cfg"):
        shutil.copy(REPO / name, tmp_path / name)
    (tmp_path / "propstab").mkdir()
    bad = tmp_path / "propstab" / "bad.py"
    bad.write_text("x = {'a':1}\n")
    done = lint(tmp_path, "LINT_PATHS=propstab")
    assert done.returncode != 0 and "would reformat" in done.stdout + done.stderr
    bad.write_text('import os\n\nx = {"a": 1}\n')
    done = lint(tmp_path, "LINT_PATHS=propstab")
    assert done.returncode != 0 and "F401" in done.stdout + done.stderr
    bad.write_text('x = {"a": 1}\n')
    assert lint(tmp_path, "LINT_PATHS=propstab").returncode == 0
