"""The whole package keeps the shape issue 21 gave it (docs/contributing.md, "Who may
import whom"): every module of propstab/ under about 800 lines, no name with a leading
underscore imported from another module, and no import cycle between modules, counting
the imports inside functions too (a lazy import that goes back is still a cycle: the
last one, between inference._estimates and inference._sampled, came in that way).

A package's ``__init__`` gathering its modules, and a module importing its own package
(``propstab.__version__``), are not cycles: the package is its modules' front.
"""
import ast
import pathlib

import shared  # tests/shared.py: import_order

import propstab

ROOT = pathlib.Path(propstab.__file__).resolve().parent
MAX_LINES = 800


def modules():
    """Dotted name -> path of every module of propstab/."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(name, path, known):
    """(module imported from, imported names) of every propstab import in the module,
    at top level or inside a function."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] == "propstab":
                yield source, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "propstab":
                    yield a.name, []


def graph_of(found):
    """Module -> the modules it imports (a name imported from a package that is a module
    of it counts as that module), without the edges between a package and its own
    modules."""
    graph = {}
    for name, path in found.items():
        deps = set()
        for source, names in imports(name, path, found):
            for n in names:
                deps.add(f"{source}.{n}" if f"{source}.{n}" in found else source)
            if not names:
                deps.add(source)
        graph[name] = {d for d in deps if d in found and d != name
                       and not name.startswith(d + ".") and not d.startswith(name + ".")}
    return graph


def test_every_module_is_under_about_800_lines():
    long = {name: n for name, path in modules().items()
            if (n := path.read_text(encoding="utf-8").count("\n")) > MAX_LINES}
    assert not long, f"split by concern: {long}"


def test_no_private_name_crosses_a_module_boundary():
    found = modules()
    crossing = [(name, source, n) for name, path in found.items()
                for source, names in imports(name, path, found) for n in names
                if n.startswith("_") and not (n.startswith("__") and n.endswith("__"))
                and f"{source}.{n}" not in found]
    assert not crossing, crossing


def test_no_import_cycle_even_through_imports_inside_functions():
    order = shared.import_order(graph_of(modules()))
    assert order.index("propstab.inference._wald") < order.index(
        "propstab.inference._sampled") < order.index("propstab.inference._estimates")


def test_the_checks_see_a_cycle_a_private_import_and_a_long_module(tmp_path):
    """The three checks can fail: a lazy import back, ``from .a import _x``."""
    pkg = tmp_path / "propstab"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\n")
    (pkg / "a.py").write_text("from .sub.b import g\n\ndef f():\n    return g()\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def g():\n    from ..a import _x\n    return _x\n")
    found = {"propstab": pkg / "__init__.py", "propstab.a": pkg / "a.py",
             "propstab.sub": pkg / "sub" / "__init__.py",
             "propstab.sub.b": pkg / "sub" / "b.py"}
    graph = graph_of(found)
    assert graph["propstab.sub.b"] == {"propstab.a"}
    assert graph["propstab.a"] == {"propstab.sub.b"}
    try:
        shared.import_order(graph)
    except AssertionError as exc:
        assert "propstab.a" in str(exc) and "propstab.sub.b" in str(exc)
    else:
        raise AssertionError("the cycle a -> sub.b -> a was not seen")
    assert [n for s, names in imports("propstab.sub.b", found["propstab.sub.b"], found)
            for n in names] == ["_x"]
