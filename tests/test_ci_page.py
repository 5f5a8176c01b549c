"""docs/ci.md ("Stability in your CI") runs as written: its project's three files, copied
exactly as printed into a fresh folder, pass with the plain ``pytest`` command; changing
the lasso's penalty as the page says fails with the printed message (the drop test's
headline, the changed parameter, the baseline's file, the update command, no propstab
frames); the update mode writes the baseline and compares nothing. The CI configurations
on the page run that same command."""
import os
import pathlib
import re
import shutil
import subprocess

import pytest

CHECKOUT = pathlib.Path(__file__).resolve().parents[1]
PAGE = CHECKOUT / "docs" / "ci.md"


def block_after(text: str, marker: str, language: str) -> str:
    """The first fenced block of ``language`` after ``marker``."""
    start = text.index(marker)
    match = re.compile(rf"```{language}\n(.*?)```", re.S).search(text, start)
    return match.group(1)


def page_files():
    text = PAGE.read_text()
    return {
        "conftest.py": block_after(text, "`conftest.py` (empty", "python"),
        "selection.py": block_after(text, "`selection.py`:", "python"),
        "tests/test_stability.py": block_after(
            text, "`test_stability.py`, in the project's `tests` folder:", "python"
        ),
    }


def plain_pytest(folder, *args):
    """The page's command, ``pytest``, as found on PATH, in the project's folder (this
    checkout's propstab importable; nothing else added)."""
    exe = shutil.which("pytest")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(CHECKOUT)
    out = subprocess.run(
        [exe, *args], cwd=folder, env=env, capture_output=True, text=True, timeout=300
    )
    return out.returncode, out.stdout + out.stderr


@pytest.mark.skipif(shutil.which("pytest") is None, reason="no pytest command on PATH")
def test_the_pages_project_runs_with_plain_pytest_and_catches_the_lowered_penalty(tmp_path):
    pytest.importorskip("sklearn")
    for name, text in page_files().items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    code, out = plain_pytest(tmp_path)
    assert code == 0, out
    stored = tmp_path / "tests" / "baselines" / "test_not_less_stable.npz"
    assert stored.exists()
    from propstab.testing import Baseline

    assert Baseline.load(stored).seed == 0  # the fixture records it

    selection = tmp_path / "selection.py"
    selection.write_text(selection.read_text().replace("Lasso(alpha=5.0)", "Lasso(alpha=2.0)"))
    code, out = plain_pytest(tmp_path, "-k", "not_less_stable")
    assert code == 1, out
    for text in (
        "AssertionError: stability dropped by more than 0.05: baseline " f"{stored}: nogueira = ",
        "changed since the baseline: Lasso(alpha: 5.0 -> 2.0)",
        "if the change is intended, update the baseline: pytest " "--propstab-update-baselines",
        "test: drop test, H0: Phi_current >= Phi_baseline - 0.05",
        "lies below -0.05",
    ):
        assert text in out, (text, out)
    assert (
        "propstab/testing/_assertions.py" not in out and "_params.py" not in out
    )  # hidden frames
    assert "-0 " not in out and "-0\n" not in out

    made = stored.stat().st_mtime_ns
    code, out = plain_pytest(tmp_path, "--propstab-update-baselines", "-rs")
    assert code == 1 and "1 failed, 1 skipped" in out, out  # assert_stable still judges
    assert "updated the stability baseline" in out
    assert stored.stat().st_mtime_ns != made
    code, out = plain_pytest(tmp_path)  # the new baseline
    assert "test_not_less_stable PASSED" in out or "1 failed, 1 passed" in out, out
    selection.write_text(selection.read_text().replace("Lasso(alpha=2.0)", "Lasso(alpha=5.0)"))
    code, out = plain_pytest(tmp_path, "--propstab-update-baselines")
    assert code == 0 and "1 passed, 1 skipped" in out, out


def test_the_ci_configurations_run_the_command_the_page_runs():
    yaml = pytest.importorskip("yaml")
    text = PAGE.read_text()
    github = yaml.safe_load(block_after(text, "`.github/workflows/stability.yml`:", "yaml"))
    gitlab = yaml.safe_load(block_after(text, "`.gitlab-ci.yml`:", "yaml"))
    steps = github["jobs"]["stability"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    script = gitlab["stability"]["script"]
    for commands in (runs, script):
        assert commands[-1] == "pytest"  # what the test above runs
        install = commands[0]
        assert install.startswith("pip install ")
        # what the project imports: propstab with scikit-learn (the "all" extra), pytest
        assert '"propstab[all]"' in install and " pytest" in install
    extras = (CHECKOUT / "pyproject.toml").read_text()
    assert re.search(r'^all = \["propstab\[.*sklearn', extras, re.M)
    assert re.search(r'^sklearn = \["scikit-learn', extras, re.M)


@pytest.mark.skipif(
    shutil.which("Rscript") is None or os.environ.get("PROPSTAB_SKIP_R"),
    reason="R is not installed (scripts/setup.sh) or PROPSTAB_SKIP_R is set",
)
def test_the_pages_r_block_defines_what_it_uses_and_runs(tmp_path):
    text = PAGE.read_text()
    code = block_after(text, "The R package has the same tests", "r")
    (tmp_path / "page.R").write_text(code)
    env = dict(os.environ, PYTHONPATH=str(CHECKOUT))
    out = subprocess.run(
        ["Rscript", str(tmp_path / "page.R")], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Test passed" in out.stdout, out.stdout
