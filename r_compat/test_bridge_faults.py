"""Environment faults of the R bridge, injected, each told apart from a disagreement.

Every fault runs ``propstab crosscheck`` in a child process whose environment simulates
it (nothing is uninstalled): R missing (R_HOME pointing nowhere, or no R on PATH), R
broken (an R_HOME that passes the quick check but from which R cannot start: R would
end the process before any message of propstab's), rpy2 missing (a stand-in module
that cannot be imported), an R package missing, a package that stabm or irr needs
missing (R's library paths narrowed by the start-up profile r_compat/faults/Rprofile.R
to links to every other package), and R raising an error in the middle of a run (the
same profile makes stabm::stabilityJaccard fail from its fourth call on).

Each gives exit status 3 (the command cannot run here; 1 is kept for disagreements)
and one line on stderr naming what is missing and the command that installs it, or
R's own error, with no traceback and no report on stdout.

The tests needing a working R to simulate a fault use the ``r_live`` fixture (they
fail without R unless PROPSTAB_SKIP_R=1); the others need neither R nor rpy2.
"""
import functools
import os
import pathlib
import re
import sys

import pytest

import shared  # tests/shared.py: processes under a timeout

ROOT = pathlib.Path(__file__).resolve().parents[1]
PROFILE = ROOT / "r_compat" / "faults" / "Rprofile.R"
live = pytest.mark.usefixtures("r_live")


def crosscheck(*args, env=None, unset=()):
    """``propstab crosscheck ARGS`` in a child process: (exit status, stdout, stderr)."""
    environ = {k: v for k, v in os.environ.items() if k not in unset}
    environ["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT)] + [p for p in environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    )
    environ.pop("PROPSTAB_DEBUG", None)
    environ.update(env or {})
    out = shared.run(
        [sys.executable, "-m", "propstab", "crosscheck", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=240,
        cwd=ROOT,
    )
    return out.returncode, out.stdout, out.stderr


def assert_environment_fault(result, *fragments):
    code, out, err = result
    assert code == 3, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err  # one line, R's console kept quiet
    assert lines[0].startswith("propstab crosscheck: error: "), err
    assert "Traceback" not in err and "DISAGREE" not in out + err
    assert out == ""  # no report: nothing was compared
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


@functools.lru_cache(maxsize=None)
def _library_paths():
    """R's library paths outside its own library (asked of R once per session)."""
    paths = shared.run(
        ["Rscript", "-e", "cat(setdiff(.libPaths(), .Library), sep = '\\n')"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return tuple(filter(None, paths.splitlines()))


def _library_without(tmp_path, *hidden):
    """A directory of links to every installed R package (outside R's own library)
    except ``hidden``: R's library paths narrowed to it miss exactly those."""
    lib = tmp_path / ("lib_without_" + "_".join(hidden))
    lib.mkdir()
    for directory in _library_paths():
        for package in pathlib.Path(directory).iterdir():
            if (
                package.name not in hidden
                and not (lib / package.name).exists()
                and (package / "DESCRIPTION").exists()
            ):
                (lib / package.name).symlink_to(package)
    return lib


def _narrowed(lib):
    return {"R_PROFILE_USER": str(PROFILE), "PROPSTAB_TEST_R_LIBRARY": str(lib)}


# ------------------------------------------------------------------ R itself


def test_r_missing_r_home_points_nowhere():
    line = assert_environment_fault(
        crosscheck("--measure", "jaccard", env={"R_HOME": "/nonexistent/R"}),
        "R was not found at R_HOME='/nonexistent/R'",
        "Install R",
    )
    assert "apt-get install r-base-core" in line or "cran.r-project.org" in line


def test_r_missing_not_on_path():
    assert_environment_fault(
        crosscheck("--measure", "jaccard", env={"PATH": "/nonexistent"}, unset=("R_HOME",)),
        "R was not found",
        "Install R",
    )


def test_r_broken_does_not_end_the_process(tmp_path):
    # an R_HOME with a base package directory passes the quick check; R itself then
    # cannot start ("Fatal error: unable to open the base package") and would end the
    # embedding process with exit status 2, before propstab could say anything
    home = tmp_path / "R"
    (home / "library" / "base").mkdir(parents=True)
    line = assert_environment_fault(
        crosscheck("--measure", "jaccard", env={"R_HOME": str(home)}),
        f"R could not be started (R_HOME='{home}')",
        "Reinstall R",
    )
    assert "apt-get install r-base-core" in line


def test_rpy2_missing(tmp_path):
    stand_in = tmp_path / "rpy2"
    stand_in.mkdir()
    (stand_in / "__init__.py").write_text("raise ImportError('No module named rpy2')\n")
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    assert_environment_fault(
        crosscheck("--measure", "jaccard", env=env), "needs rpy2", "pip install propstab[r]"
    )


# ------------------------------------------------------------------ R packages


@live
def test_stabm_missing(tmp_path):
    lib = _library_without(tmp_path, "stabm")
    line = assert_environment_fault(
        crosscheck("--measure", "jaccard", env=_narrowed(lib)),
        "the R package 'stabm' is not installed",
        "install it with: Rscript -e 'install.packages(\"stabm\")'",
    )
    assert str(lib) in line  # the library paths R searched


@live
def test_a_package_irr_imports_missing(tmp_path):
    # irr's NAMESPACE imports lpSolve: requireNamespace("irr") fails although irr is there
    lib = _library_without(tmp_path, "lpSolve")
    assert_environment_fault(
        crosscheck("--measure", "nogueira", "--max-examples", "2", env=_narrowed(lib)),
        "the R package 'irr' is installed but cannot be loaded",
        "its dependency 'lpSolve' is missing",
        "install it with: Rscript -e 'install.packages(\"lpSolve\")'",
    )


@live
def test_a_package_stabm_calls_missing(tmp_path):
    # stabm loads without checkmate (called as checkmate::...) and fails at the call:
    # R's "there is no package called 'checkmate'" was reported as a DISAGREE row
    lib = _library_without(tmp_path, "checkmate")
    assert_environment_fault(
        crosscheck("--measure", "jaccard", "--max-examples", "2", env=_narrowed(lib)),
        "stabm::stabilityJaccard needs the R package 'checkmate'",
        "install it with: Rscript -e 'install.packages(\"checkmate\")'",
    )


@live
def test_a_package_stabm_suggests_missing(tmp_path):
    # stabm's intersection measures load igraph when a matching is needed
    lib = _library_without(tmp_path, "igraph")
    assert_environment_fault(
        crosscheck("--measure", "intersection_mbm", "--max-examples", "5", env=_narrowed(lib)),
        "stabm::stabilityIntersectionMBM needs the R package 'igraph'",
        "install it with: Rscript -e 'install.packages(\"igraph\")'",
    )


# ------------------------------------------------------------------ R failing mid-run


@live
def test_r_raising_mid_run_is_not_a_disagreement():
    env = {"R_PROFILE_USER": str(PROFILE), "PROPSTAB_TEST_R_FAIL_AFTER": "3"}
    line = assert_environment_fault(
        crosscheck("--measure", "jaccard", "--max-examples", "10", env=env),
        "R error in stabm::stabilityJaccard(",
        "simulated R failure after 3 calls",
        "R failed while cross-checking jaccard",
        "not a disagreement",
    )
    assert "the R call that failed:" in line


@live
def test_the_same_profile_without_a_fault_agrees(tmp_path):
    # the injection itself changes nothing when no fault is asked for: five selection
    # files, five calls of stabm::stabilityJaccard (more than the fault above lets
    # through), each agreeing; generated cases would add the worked examples' exact
    # corrections in stabm, ~2 CPU-s that test nothing about the profile
    tables = [
        "1,1,0,0,0\n0,1,1,0,0\n",  # runs (rows) x features
        "1,1,0,0,0,0\n1,0,1,0,0,0\n0,1,1,0,1,0\n",
        "1,0,1,0\n1,0,1,0\n0,1,0,1\n1,1,0,0\n",
        "0,0,0,0,0\n1,1,1,0,0\n1,1,1,1,1\n",  # an empty and a full run
        "1,1,1,0,0,0,0\n0,0,1,1,1,0,0\n0,0,0,0,1,1,1\n1,0,0,0,0,0,1\n",
    ]
    inputs = []
    for k, table in enumerate(tables):
        path = tmp_path / f"runs{k}.csv"
        path.write_text(table)
        inputs += ["--input", str(path)]
    code, out, err = crosscheck(
        "--measure", "jaccard", *inputs, env={"R_PROFILE_USER": str(PROFILE)}
    )
    assert code == 0 and err == "", err
    assert re.search(r"stabm::stabilityJaccard +5 .* agree ", out), out  # the summary
    assert (
        len(re.findall(r"runs\d\.csv +jaccard +stabm::stabilityJaccard .* agree$", out, re.M)) == 5
    ), out  # each input
