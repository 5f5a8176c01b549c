"""What a newcomer meets first: warnings point at the user's own line, and ``dir``
lists the lazily loaded names."""
import importlib
import warnings

import numpy as np
import pytest

import shared  # tests/shared.py: processes under a timeout

import propstab
from propstab import UndefinedMeasureWarning


def _caught(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert caught, "no warning was issued"
    return caught


@pytest.mark.parametrize(
    "call",
    [
        lambda: propstab.stability([[0, 0, 0], [0, 0, 0]]),  # registry wrapper
        lambda: propstab.measures.kuncheva([[1, 0, 0], [1, 1, 0]]),  # a family module
        lambda: propstab.stability([[0, 0], [0, 0]], measure="jaccard"),
        lambda: propstab.estimate([[1, 0, 0], [0, 1, 0]], "jaccard"),  # jackknife, M < 3
        lambda: propstab.population_stability([0.0, 0.0]),
        lambda: propstab.estimate(np.ones((4, 3)) * [1, 0, 0]).confidence_interval(),
    ],
    ids=["stability", "measure", "jaccard", "jackknife", "population", "zero-variance"],
)
def test_warnings_point_at_the_callers_line(call):
    for w in _caught(call):
        assert (
            w.filename == __file__
        ), f"{w.category.__name__} attributed to {w.filename}:{w.lineno}, not to the caller"


def test_undefined_warning_class_is_kept():
    caught = _caught(lambda: propstab.stability([[0, 0, 0], [0, 0, 0]]))
    assert issubclass(caught[0].category, UndefinedMeasureWarning)


def test_dir_lists_the_lazy_names():
    names = dir(propstab)
    for name in (
        "estimate",
        "assess",
        "resample",
        "audit",
        "StabilitySelection",
        "crosscheck",
        "stability",
        "list_measures",
    ):
        assert name in names
    assert set(propstab.__all__) <= set(names)


@pytest.mark.parametrize("name", sorted(propstab._LAZY))
def test_every_lazy_name_resolves(name):
    """The lazy name is the object of that name in the module it is loaded from (a name
    mapped to the wrong module raises; one mapped to another object fails here)."""
    obj = getattr(propstab, name)
    assert obj.__name__ == name
    assert obj is getattr(importlib.import_module(propstab._LAZY[name]), name)


def test_the_submodule_list_is_every_public_module():
    import pkgutil

    found = {m.name for m in pkgutil.iter_modules(propstab.__path__) if not m.name.startswith("_")}
    assert set(propstab._SUBMODULES) == found


def test_every_public_submodule_is_an_attribute_after_import_propstab():
    """In a fresh interpreter: ``import propstab`` alone, then each public
    submodule as an attribute, the README's ``propstab.selection.error_control`` and a
    warnings filter naming ``propstab.resampling.FailedFitWarning``."""
    import os
    import sys

    code = (
        "import warnings, propstab\n"
        "warnings.filterwarnings('ignore', category=propstab.resampling.FailedFitWarning)\n"
        "assert callable(propstab.inference.runs_needed)\n"
        "assert callable(propstab.selection.error_control)\n"
        "assert propstab.selection.error_control is propstab.error_control.error_control\n"
        "for name in propstab._SUBMODULES:\n"
        "    module = getattr(propstab, name)\n"
        "    assert module.__name__ == 'propstab.' + name, name\n"
        "    assert name in dir(propstab), name\n"
        "print('ok')\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(propstab.__file__)))
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = shared.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=240
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_a_missing_attribute_still_raises_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        propstab.nonexistent
