"""Every import path a reader meets works: each ``from propstab... import ...``, ``import
propstab...`` and dotted ``propstab.x.y`` name written in the README, the documentation
pages, the gallery and examples, the R package's calls into Python, and the tests, is
imported here (the package's layout may change; its documented paths may not). The tests
import their own paths as they run. In R sources only the Python modules the package
imports count (``propstab.warn`` there is an R option's name)."""
import enum
import importlib
import pathlib
import re

import pytest

import propstab

REPO = pathlib.Path(__file__).resolve().parent.parent
SOURCES = [
    "README.md",
    "docs/**/*.md",
    "docs/gallery/**/*.py",
    "examples/*.py",
    "rpackage/R/*.R",
    "rpackage/vignettes/*.Rmd",
]
FROM = re.compile(r"from (propstab(?:\.\w+)*) import \(?([\w, \n]+?)\)?(?:\s*#.*)?$", re.M)
DOTTED = re.compile(r"(?<![\w./])propstab(?:\.[A-Za-z_]\w*)+")
MODULE = re.compile(r"""(?:import\(|import_module\()["'](propstab(?:\.\w+)*)["']""")


def documented_paths():
    """(source, module, name or None) of every path the sources write."""
    out = set()
    for pattern in SOURCES:
        for path in sorted(REPO.glob(pattern)):
            if "_build" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            where = str(path.relative_to(REPO))
            for module, names in FROM.findall(text):
                for item in names.split(","):
                    name = item.split(" as ")[0].strip()
                    if name and not name.startswith("#"):
                        out.add((where, module, name))
            for module in MODULE.findall(text):
                out.add((where, module, None))
            if path.suffix in (".md", ".py"):
                for dotted in DOTTED.findall(text):
                    out.add((where, dotted, "*"))
    return sorted(out, key=lambda t: (t[0], t[1], str(t[2])))


def resolve(dotted):
    """The object a dotted name ``propstab.a.b.c`` names: the longest importable module
    prefix, then attributes."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            if isinstance(obj, enum.EnumMeta) and not hasattr(obj, attr):
                obj = getattr(next(iter(obj)), attr)  # a member's attribute (Axiom.statement)
            else:
                obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


PATHS = documented_paths()
# a file name written as text (propstab.egg-info) or a name defined by the page itself
NOT_PATHS = {"propstab.egg", "propstab.py"}


def test_the_sources_are_read():
    modules = {m for _, m, _ in PATHS}
    assert {"propstab.testing", "propstab.r._frontend", "propstab.registry"} <= modules


@pytest.mark.parametrize("where, module, name", PATHS, ids=[f"{w}:{m}:{n}" for w, m, n in PATHS])
def test_a_documented_path_imports(where, module, name):
    if name == "*":
        if any(module.startswith(p) for p in NOT_PATHS):
            return
        resolve(module)
    elif name is None:
        importlib.import_module(module)
    else:
        assert hasattr(importlib.import_module(module), name) or importlib.import_module(
            f"{module}.{name}"
        ), f"{where}: from {module} import {name}"


def test_the_package_root_still_offers_its_names():
    for name in propstab.__all__:
        assert getattr(propstab, name) is not None
