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
        def runs(seed):
            return propstab.resample(selector, X, y, n_runs=100, random_state=seed)
        baseline = stability_baseline(runs, X=X, y=y, selector=selector)   # runs(0)
        assert_not_less_stable(baseline, runs(1), margin=0.05, X=X, y=y, selector=selector)

The baseline lives in ``<test file's folder>/baselines/<test name>.npz``; it is made
(``make(seed)`` called, stored with the seed and returned) when the file does not exist,
and remade when pytest runs with ``--propstab-update-baselines`` (the test is then
reported as skipped, "updated", and compares nothing).
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
        help="make the stability baselines again and compare nothing (call each "
        "test's make() and "
        "store the result in baselines/<test name>.npz beside the test)",
    )


def baseline_path(request, name=None):
    """``<test file's folder>/baselines/<name or the test's name>.npz`` (characters
    outside ``[A-Za-z0-9_.-]`` of a parametrised name replaced by ``_``)."""
    import pathlib

    folder = pathlib.Path(str(request.node.fspath)).resolve().parent / "baselines"
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name or request.node.name).strip("_")
    return folder / f"{stem}.npz"


def _takes_seed(make) -> bool:
    """Whether ``make`` takes one positional argument (the seed)."""
    import inspect

    try:
        params = list(inspect.signature(make).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [
        p
        for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    return len(positional) == 1


@pytest.fixture
def stability_baseline(request):
    """A callable ``stability_baseline(make, *, name=None, X=None, y=None,
    selector=None, random_state=0, measure="nogueira", **options)`` returning the
    :class:`propstab.testing.Baseline` stored beside the test.

    ``make(random_state)`` (or ``make()``) returns a
    :class:`~propstab.resampling.ResamplingResult`, a selection matrix or a Baseline; it
    is called (and its baseline stored, with the seed) only when the file is missing or
    with ``--propstab-update-baselines``: in that mode the test stops there, reported as
    skipped ("updated ..."), and compares nothing. ``X`` and ``y`` are fingerprinted
    into a new baseline and checked against a stored one
    (:class:`~propstab.testing.BaselineMismatchError` naming what differs); ``selector``
    is recorded, and a comparison lists what changed. ``seed=`` is the deprecated name
    of ``random_state`` (a DeprecationWarning).
    """
    from propstab._utils.params import RENAMED_SEED, renamed

    update = request.config.getoption("propstab_update_baselines")

    @renamed(RENAMED_SEED, function="stability_baseline")
    def get(
        make,
        *,
        name=None,
        X=None,
        y=None,
        selector=None,
        random_state=0,
        measure="nogueira",
        **options,
    ):
        __tracebackhide__ = True
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
            takes = _takes_seed(make)
            made = make(random_state) if takes else make()
            baseline = Baseline.from_result(
                made,
                X=X,
                y=y,
                selector=selector,
                seed=random_state if takes else None,
                measure=measure,
                **options,
            )
            baseline.save(path)
            if update:
                pytest.skip(
                    f"propstab: updated the stability baseline {path} "
                    f"({baseline.n_runs} runs); comparisons skipped in this mode"
                )
            return baseline
        baseline = Baseline.load(path)
        baseline.check_compatible(X=X, y=y, measure=measure, options=options or None)
        return baseline

    return get
