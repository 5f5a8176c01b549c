"""The pytest plugin in a user's project: a throwaway project whose test file uses the
fixture ``stability_baseline`` and the assertions passes, then fails with the
assertions' messages once its selector is made unstable; a changed selector is compared
(its code's digest), the update mode writes and skips."""
import os
import pathlib
import sys
from importlib.metadata import entry_points

import pytest

import shared  # tests/shared.py: processes under a timeout

CHECKOUT = pathlib.Path(__file__).resolve().parents[1]
pytest_plugins = ["pytester"]

SELECTOR = '''
import numpy as np

rng = np.random.default_rng(0)
X = rng.normal(size=(60, 8))
y = X[:, 0] + 0.8 * X[:, 1] + 0.6 * X[:, 2] + 0.3 * rng.normal(size=60)
UNSTABLE = {unstable}


def select(X, y):
    """The 3 features most correlated with y (or, unstable, 3 at random)."""
    if UNSTABLE:
        return np.random.default_rng().choice(X.shape[1], 3, replace=False)
    Xc, yc = X - X.mean(0), y - y.mean()
    corr = np.abs(Xc.T @ yc) / np.sqrt((Xc ** 2).sum(0) * (yc ** 2).sum())
    return np.argsort(-corr)[:3]
'''

TESTS = """
import propstab
from propstab.testing import assert_not_less_stable, assert_stable
from selector import X, select, y


def run(seed):
    return propstab.resample(select, X, y, n_runs=25, random_state=seed)


def test_stable_enough():
    assert_stable(run(1), at_least=0.5)


def test_not_less_stable(stability_baseline):
    baseline = stability_baseline(lambda: run(0), X=X, y=y, selector=select)
    assert_not_less_stable(baseline, run(1), margin=0.2, X=X, y=y, selector=select)
"""


def plugin_installed() -> bool:
    return any(e.value == "propstab.pytest_plugin" for e in entry_points(group="pytest11"))


class Outcome:
    """What a pytest run of a project gave: its exit status and its printed report."""

    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def run_pytest(pytester, project: pathlib.Path, *extra):
    """pytest run on ``project`` in this process (``pytester``: the project's modules
    are imported afresh and forgotten afterwards, as in a new process, without paying a
    new interpreter and its imports); the plugin found through its entry point, or
    named with ``-p`` from a checkout that is not installed."""
    plugin = [] if plugin_installed() else ["-p", "propstab.pytest_plugin"]
    result = pytester.runpytest_inprocess(
        "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *plugin, *extra, str(project)
    )
    return Outcome(int(result.ret), "\n".join(result.outlines), "\n".join(result.errlines))


def make_project(tmp_path, unstable: bool) -> pathlib.Path:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "selector.py").write_text(SELECTOR.format(unstable=unstable))
    # a name no test module of this suite has: pytester imports it in this process, where
    # an xdist worker may already hold tests/test_selection.py as "test_selection"
    (tmp_path / "test_throwaway_stability.py").write_text(TESTS)
    return tmp_path


def test_a_project_using_the_fixture_passes_then_fails_when_less_stable(tmp_path, pytester):
    project = make_project(tmp_path, unstable=False)
    first = run_pytest(pytester, project)
    assert first.returncode == 0, first.stdout + first.stderr
    stored = project / "baselines" / "test_not_less_stable.npz"
    assert stored.exists()  # made on the first run
    made = stored.stat().st_mtime_ns
    again = run_pytest(pytester, project)
    assert again.returncode == 0, again.stdout + again.stderr
    assert stored.stat().st_mtime_ns == made  # read, not made again

    make_project(tmp_path, unstable=True)  # the selector regresses
    failed = run_pytest(pytester, project)
    out = failed.stdout
    assert failed.returncode == 1, out + failed.stderr
    assert "2 failed" in out
    assert "AssertionError: stability not shown to exceed 0.5 at 95% confidence" in out
    assert f"AssertionError: stability dropped by more than 0.2: baseline {stored}: " in out
    assert "lies below -0.2" in out and "runs are identical (variance 0)" in out
    assert "update the baseline: pytest --propstab-update-baselines" in out
    assert (
        "propstab/testing/_assertions.py" not in out and "_params.py" not in out
    )  # hidden frames

    # the update mode remakes the baseline and compares nothing (skipped, "updated"); the
    # fixed threshold still fails
    updated = run_pytest(pytester, project, "--propstab-update-baselines", "-rs")
    assert updated.returncode == 1 and "1 failed, 1 skipped" in updated.stdout, updated.stdout
    assert "updated the stability baseline" in updated.stdout
    assert stored.stat().st_mtime_ns != made
    from propstab.testing import Baseline

    assert Baseline.load(stored).seed is None  # make() took no seed
    again = run_pytest(pytester, project, "-k", "not_less")
    assert again.returncode == 0, again.stdout


def test_a_baseline_from_other_data_is_refused_in_the_fixture(tmp_path, pytester):
    project = make_project(tmp_path, unstable=False)
    assert run_pytest(pytester, project).returncode == 0
    text = (
        (project / "selector.py")
        .read_text()
        .replace("X = rng.normal(size=(60, 8))", "X = rng.normal(size=(60, 8)) + 1e-9")
    )
    (project / "selector.py").write_text(text)
    out = run_pytest(pytester, project, "-k", "not_less")
    assert out.returncode == 1
    assert "BaselineMismatchError: baseline " in out.stdout
    assert "X: differs from the data the baseline was made from" in out.stdout, out.stdout


def test_an_edited_selector_function_is_compared_and_named(tmp_path, pytester):
    """Editing the selector's body is what the comparison judges: it is not refused, and
    a failure says the function's code changed."""
    project = make_project(tmp_path, unstable=False)
    assert run_pytest(pytester, project).returncode == 0
    text = (
        (project / "selector.py").read_text().replace("    if UNSTABLE:", "    if True:  # edited")
    )
    (project / "selector.py").write_text(text)
    out = run_pytest(pytester, project, "-k", "not_less")
    assert out.returncode == 1
    assert "stability dropped by more than 0.2" in out.stdout
    assert "changed since the baseline: function select: its code changed" in out.stdout


def test_the_option_is_listed_and_loading_the_plugin_imports_nothing_heavy(tmp_path, pytester):
    make_project(tmp_path, unstable=False)
    out = run_pytest(pytester, tmp_path, "--help")
    assert "--propstab-update-baselines" in out.stdout
    code = (
        "import sys, propstab.pytest_plugin; "
        "print(sorted(m for m in ('propstab.testing', 'propstab.inference', 'sklearn', "
        "'propstab.auditing') if m in sys.modules))"
    )
    env = dict(os.environ, PYTHONPATH=str(CHECKOUT))
    loaded = shared.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert loaded.stdout.strip() == "[]"


@pytest.mark.skipif(
    not plugin_installed(),
    reason="the pytest11 entry point is installed " "by scripts/setup.sh (pip install -e)",
)
def test_the_entry_point_is_the_module_so_an_explicit_p_is_harmless(tmp_path, pytester):
    make_project(tmp_path, unstable=False)
    out = run_pytest(pytester, tmp_path, "-p", "propstab.pytest_plugin")
    assert out.returncode == 0, out.stdout + out.stderr
