"""propstab's pytest plugin: the fixture ``stability_baseline`` and the option
``--propstab-update-baselines``.

Registered as the ``pytest11`` entry point ``propstab.pytest_plugin`` (loaded by every
pytest run once propstab is installed; ``-p no:propstab.pytest_plugin`` turns it off;
``-p propstab.pytest_plugin`` loads it from a checkout that is not installed). It adds
one command-line option and one fixture, imports nothing of propstab until the fixture is
used, and changes nothing else of a test run.

A test compares a new run with the baseline stored beside it::

    from propstab.testing import assert_not_less_stable

    def test_selection_is_not_less_stable(stability_baseline):
        def make():
            return propstab.resample(selector, X, y, n_runs=30, random_state=0)
        baseline = stability_baseline(make, X=X, y=y, selector=selector)
        current = propstab.resample(selector, X, y, n_runs=30, random_state=1)
        assert_not_less_stable(baseline, current, margin=0.1, X=X, y=y, selector=selector)

The baseline lives in ``<test file's folder>/baselines/<test name>.npz``; it is made
(``make()`` called, stored and returned) when the file does not exist or when pytest
runs with ``--propstab-update-baselines``.
"""
from __future__ import annotations

import re

import pytest

OPTION = "--propstab-update-baselines"


def pytest_addoption(parser):
    group = parser.getgroup("propstab", "propstab: stability baselines")
    group.addoption(
        OPTION,
        action="store_true",
        default=False,
        help="make the stability baselines again (call each test's make() and "
        "store the result in baselines/<test name>.npz beside the test)",
    )


def baseline_path(request, name=None):
    """``<test file's folder>/baselines/<name or the test's name>.npz`` (characters
    outside ``[A-Za-z0-9_.-]`` of a parametrised name replaced by ``_``)."""
    import pathlib

    folder = pathlib.Path(str(request.node.fspath)).resolve().parent / "baselines"
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name or request.node.name).strip("_")
    return folder / f"{stem}.npz"


@pytest.fixture
def stability_baseline(request):
    """A callable ``stability_baseline(make, *, name=None, X=None, y=None,
    selector=None, seed=None, measure="nogueira", **options)`` returning the
    :class:`propstab.testing.Baseline` stored beside the test.

    ``make()`` returns a :class:`~propstab.resampling.ResamplingResult`, a selection
    matrix or a Baseline; it is called (and its baseline stored) only when the file is
    missing or with ``--propstab-update-baselines``. ``X``, ``y`` and ``selector`` are
    fingerprinted into a new baseline and checked against a stored one
    (:class:`~propstab.testing.BaselineMismatchError` naming what differs).
    """
    update = request.config.getoption("propstab_update_baselines")

    def get(
        make, *, name=None, X=None, y=None, selector=None, seed=None, measure="nogueira", **options
    ):
        from propstab._utils.checks import fail
        from propstab.testing._assertions import Baseline

        if not callable(make):
            fail(
                f"make: must be a function returning selections or a "
                f"resampling result; got {type(make).__name__} {make!r}",
                TypeError,
            )
        path = baseline_path(request, name)
        if update or not path.exists():
            baseline = Baseline.from_result(
                make(), X=X, y=y, selector=selector, seed=seed, measure=measure, **options
            )
            baseline.save(path)
            return baseline
        baseline = Baseline.load(path)
        baseline.check_compatible(
            X=X, y=y, selector=selector, measure=measure, options=options or None
        )
        return baseline

    return get
