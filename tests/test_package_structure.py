"""The whole package keeps the shape issue 21 gave it (docs/contributing.md, "Who may
import whom"): every module of propstab/ under about 800 lines, no name with a leading
underscore imported from another module, and no import cycle between modules, counting
the imports inside functions too (a lazy import that goes back is still a cycle: the
last one, between inference._estimates and inference._sampled, came in that way).

A package's ``__init__`` gathering its modules, and a module importing its own package
(``propstab.__version__``), are not cycles: the package is its modules' front.
"""
import pathlib

import shared  # tests/shared.py: import_order

import propstab

ROOT = pathlib.Path(propstab.__file__).resolve().parent
MAX_LINES = 800


def modules(root=ROOT):
    """Dotted name -> path of every module of the package at ``root``."""
    out = {}
    for path in sorted(pathlib.Path(root).rglob("*.py")):
        parts = path.relative_to(pathlib.Path(root).parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def long_modules(found, limit=MAX_LINES):
    """Module -> its number of lines, for those over ``limit``."""
    return {
        name: n
        for name, path in found.items()
        if (n := path.read_text(encoding="utf-8").count("\n")) > limit
    }


def private_imports(found, root=ROOT):
    """(module, imported from, name) of every name with a leading underscore (not a
    dunder, not a module) that a module imports from another."""
    return [
        (name, source, n)
        for name, path in found.items()
        for source, names in shared.imports_of(path, root)
        for n in names
        if n.startswith("_")
        and not (n.startswith("__") and n.endswith("__"))
        and f"{source}.{n}" not in found
    ]


def graph_of(found, root=ROOT):
    """Module -> the modules it imports (a name imported from a package that is a module
    of it counts as that module), without the edges between a package and its own
    modules."""
    graph = {}
    for name, path in found.items():
        deps = set()
        for source, names in shared.imports_of(path, root):
            for n in names:
                deps.add(f"{source}.{n}" if f"{source}.{n}" in found else source)
            if not names:
                deps.add(source)
        graph[name] = {
            d
            for d in deps
            if d in found
            and d != name
            and not name.startswith(d + ".")
            and not d.startswith(name + ".")
        }
    return graph


def test_every_module_is_under_about_800_lines():
    assert not long_modules(modules()), "split by concern"


def test_no_private_name_crosses_a_module_boundary():
    assert not private_imports(modules())


def test_no_import_cycle_even_through_imports_inside_functions():
    order = shared.import_order(graph_of(modules()))
    assert (
        order.index("propstab.inference._wald")
        < order.index("propstab.inference._sampled")
        < order.index("propstab.inference._estimates")
    )


def test_the_checks_see_a_cycle_a_private_import_and_a_long_module(tmp_path):
    """The three checks can fail: a lazy import back (sub.b -> a -> sub.b), ``from ..a
    import _x``, a module of 801 lines."""
    pkg = tmp_path / "propstab"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\n")
    (pkg / "a.py").write_text("from .sub.b import g\n\ndef f():\n    return g()\n" + "#\n" * 797)
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def g():\n    from ..a import _x\n    return _x\n")
    found = modules(pkg)
    assert sorted(found) == ["propstab", "propstab.a", "propstab.sub", "propstab.sub.b"]
    assert long_modules(found) == {"propstab.a": 801}
    assert private_imports(found, pkg) == [("propstab.sub.b", "propstab.a", "_x")]
    graph = graph_of(found, pkg)
    assert graph["propstab.sub.b"] == {"propstab.a"}
    assert graph["propstab.a"] == {"propstab.sub.b"}
    try:
        shared.import_order(graph)
    except AssertionError as exc:
        assert "propstab.a" in str(exc) and "propstab.sub.b" in str(exc)
    else:
        raise AssertionError("the cycle a -> sub.b -> a was not seen")
