"""The live R suite must not pass by skipping.

Tests using the ``r_live`` fixture (every test of test_live_crosscheck.py and the
R-dependent tests of test_bridge_errors.py) FAIL when R, rpy2, Hypothesis or the R
packages stabm, irr and Matrix cannot be loaded. Users without R opt out
explicitly with the environment variable ``PROPSTAB_SKIP_R=1``: the live tests
are then skipped with that reason. test_reference_values.py needs no R.

The slow literal twins live in ONE place, tests/twins.py: tests/ is put on sys.path so
that the suites here import them (``import twins``) when run alone.
"""
import os
import pathlib
import sys

import pytest

_TESTS = str(pathlib.Path(__file__).resolve().parents[1] / "tests")
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

SKIP_ENV = "PROPSTAB_SKIP_R"
R_PACKAGES = ("stabm", "irr", "Matrix")


def load_live_r():
    """Load rpy2, R and the reference packages; return the versions or raise."""
    import hypothesis  # noqa: F401  (the harness generates cases with it)
    from propstab.r import require_package, r_versions

    for name in R_PACKAGES:
        require_package(name)
    return r_versions(R_PACKAGES)


@pytest.fixture(scope="session")
def r_live():
    """Versions of R and the reference packages; fails (or skips under
    PROPSTAB_SKIP_R=1) when they cannot be loaded."""
    try:
        return load_live_r()
    except ImportError as exc:  # rpy2, Hypothesis, R or an R package missing
        problem = str(exc)
    if os.environ.get(SKIP_ENV) == "1":
        pytest.skip(f"{SKIP_ENV}=1: live R cross-checks skipped ({problem})")
    pytest.fail(
        f"the live R cross-checks cannot run: {problem}\nInstall R and the reference "
        f"packages with scripts/setup.sh (r_compat/install.R), or set {SKIP_ENV}=1 "
        f"to skip them explicitly.",
        pytrace=False,
    )
