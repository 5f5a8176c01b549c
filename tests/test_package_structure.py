"""The package keeps the shape docs/contributing.md ("Module map") describes:

- the top level of propstab/ holds its public faces only: public modules, ``__init__``,
  ``__main__`` and the leaf ``_version``; every private module lives inside the package of
  its concern (shared internals in ``_utils/``, input data in ``_data/``);
- no name with a leading underscore is imported from another module;
- no import cycle between modules, counting the imports inside functions (a lazy import
  that goes back is still a cycle);
- a shallow graph: with each top-level module and each folder (a subpackage, ``scripts/``,
  ``studies/``, ``benchmarks/``) one node, at most ``MAX_LEVELS`` levels, no cycle, and
  nothing inside the package imports the package root (``__version__`` is in ``_version``);
- modules are cut by concern, not by size: one over ``LONG`` lines states why on a line
  ``# Long module: <reason>`` among its first lines.

A package's ``__init__`` gathering its modules, and a module importing its own package,
are not cycles: the package is its modules' front.
"""
import pathlib

import shared  # tests/shared.py: imports_of, import_order

import propstab

ROOT = pathlib.Path(propstab.__file__).resolve().parent
REPO = ROOT.parent
LONG = 1000
MAX_LEVELS = 12
TOP_LEVEL_PRIVATE = {"__init__.py", "__main__.py", "_version.py"}
PRIVATE_FOLDERS = {"_utils", "_data"}
OUTSIDE = ("scripts", "studies", "benchmarks")
REASON = "# Long module: "


def modules(root=ROOT):
    """Dotted name -> path of every module of the package at ``root``."""
    out = {}
    for path in sorted(pathlib.Path(root).rglob("*.py")):
        parts = path.relative_to(pathlib.Path(root).parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def private_at_top(root=ROOT):
    """The private modules and folders lying at the package's top level."""
    root = pathlib.Path(root)
    files = [p.name for p in root.glob("_*.py") if p.name not in TOP_LEVEL_PRIVATE]
    folders = [
        p.name
        for p in root.iterdir()
        if p.is_dir()
        and p.name.startswith("_")
        and p.name != "__pycache__"
        and p.name not in PRIVATE_FOLDERS
    ]
    return sorted(files + folders)


def long_modules_without_reason(found, limit=LONG):
    """Module -> its number of lines, for those over ``limit`` that do not say why."""
    out = {}
    for name, path in found.items():
        text = path.read_text(encoding="utf-8")
        head = text.splitlines()[:5]
        if text.count("\n") > limit and not any(line.startswith(REASON) for line in head):
            out[name] = text.count("\n")
    return out


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


def root_imports(found, root=ROOT):
    """(module, name) of every import of the package root from inside the package (a name
    of the root that is not one of its modules, or ``import propstab`` itself)."""
    top = pathlib.Path(root).name
    out = []
    for name, path in found.items():
        if name in (top, f"{top}.__main__"):
            continue
        for source, names in shared.imports_of(path, root):
            if source == top:
                out += [(name, n) for n in names or [top] if f"{top}.{n}" not in found]
    return out


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


def node_of(module, found):
    """The node of a module in the folder graph: the top-level module itself, or its
    top-level folder (the package root's ``__init__`` is a node of its own)."""
    parts = module.split(".")
    if len(parts) == 1:
        return f"{parts[0]}/__init__"
    top = ".".join(parts[:2])
    return top + "/" if any(m.startswith(top + ".") for m in found) else top


def folder_graph(found, root=ROOT, outside=()):
    """Node -> the nodes it imports, for the package's modules and for the folders
    ``outside`` (paths of folders of scripts that import the package)."""
    graph = {}
    sources = [(node_of(name, found), path) for name, path in found.items()]
    sources += [
        (pathlib.Path(folder).name + "/", path)
        for folder in outside
        for path in sorted(pathlib.Path(folder).rglob("*.py"))
    ]
    for node, path in sources:
        deps = graph.setdefault(node, set())
        for source, names in shared.imports_of(path, root):
            for n in names or [None]:
                full = f"{source}.{n}" if n and f"{source}.{n}" in found else source
                if full in found and node_of(full, found) != node:
                    deps.add(node_of(full, found))
    return graph


def levels(graph):
    """Node -> its level: 1 for a node importing nothing, else one more than the highest
    of what it imports (AssertionError naming the nodes of a cycle)."""
    out = {}
    for node in shared.import_order(graph):
        out[node] = 1 + max((out[d] for d in graph[node]), default=0)
    return out


def test_the_top_level_holds_no_private_module():
    assert not private_at_top(), "move it into the package of its concern"


def test_a_module_over_1000_lines_says_why():
    assert not long_modules_without_reason(modules()), f"cut by concern, or add '{REASON}...'"


def test_no_private_name_crosses_a_module_boundary():
    assert not private_imports(modules())


def test_nothing_inside_the_package_imports_its_root():
    assert not root_imports(modules())


def test_no_import_cycle_even_through_imports_inside_functions():
    order = shared.import_order(graph_of(modules()))
    assert order.index("propstab._utils.checks") < order.index("propstab._data.selection")


def test_the_folder_graph_is_shallow_and_acyclic():
    found = modules()
    graph = folder_graph(found, outside=[REPO / d for d in OUTSIDE if (REPO / d).is_dir()])
    depth = levels(graph)
    assert max(depth.values()) <= MAX_LEVELS, sorted(depth.items(), key=lambda x: -x[1])
    assert depth["propstab._version"] == 1 and depth["propstab._utils/"] <= 2


def test_the_checks_see_each_defect(tmp_path):
    """Every check can fail: a lazy import back (sub.b -> a -> sub.b), ``from ..a import
    _x``, a long module with no reason, a private top-level module, an import of the
    root from inside, and a chain deeper than the limit."""
    pkg = tmp_path / "propstab"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\nVERSION = 1\n")
    (pkg / "a.py").write_text("from .sub.b import g\n\ndef f():\n    return g()\n" + "#\n" * 997)
    (pkg / "_loose.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def g():\n    from ..a import _x\n    return _x\n")
    (pkg / "sub" / "c.py").write_text("from .. import VERSION\n")
    found = modules(pkg)
    assert sorted(found) == [
        "propstab",
        "propstab._loose",
        "propstab.a",
        "propstab.sub",
        "propstab.sub.b",
        "propstab.sub.c",
    ]
    assert long_modules_without_reason(found) == {"propstab.a": 1001}
    (pkg / "a.py").write_text(REASON + "one generated table\n" + (pkg / "a.py").read_text())
    assert long_modules_without_reason(modules(pkg)) == {}
    assert private_at_top(pkg) == ["_loose.py"]
    assert private_imports(found, pkg) == [("propstab.sub.b", "propstab.a", "_x")]
    assert root_imports(found, pkg) == [("propstab.sub.c", "VERSION")]
    graph = graph_of(found, pkg)
    assert graph["propstab.sub.b"] == {"propstab.a"}
    assert graph["propstab.a"] == {"propstab.sub.b"}
    for g in (graph, folder_graph(found, pkg)):
        try:
            shared.import_order(g)
        except AssertionError as exc:
            assert "propstab.a" in str(exc)
        else:
            raise AssertionError("the cycle a -> sub -> a was not seen")
    chain = {f"m{i}": {f"m{i + 1}"} for i in range(MAX_LEVELS)}
    chain[f"m{MAX_LEVELS}"] = set()
    assert max(levels(chain).values()) == MAX_LEVELS + 1
