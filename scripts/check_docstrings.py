"""List the public names whose docstrings lack sections of the project's standard.

The standard (developers' guide; issue 15, part 4): every public function and class has
a numpydoc docstring with Parameters, Returns, Raises, See Also, References and
Examples. Parameters is required where the callable takes parameters; Returns (or
Yields) and Raises for functions only. Public names are those of the API reference:
every name of ``__all__`` of propstab and its public modules, each object once
(docs/_ext/propstab_sphinx.py, ``public_names``); data objects (constants, tables)
are documented by their module and not checked.

Usage::

    /usr/bin/python3 scripts/check_docstrings.py             # one line per incomplete name
    /usr/bin/python3 scripts/check_docstrings.py --json      # the same as JSON
    /usr/bin/python3 scripts/check_docstrings.py --strict    # exit 1 if any name is incomplete
    /usr/bin/python3 scripts/check_docstrings.py --codes     # numpydoc.validate's error codes,
                                                             # counted over names and members

The site's build (docs/conf.py) runs numpydoc's validation with the codes that every
documented object passes today; ``--codes`` shows what the others would find.
"""
from __future__ import annotations

import argparse
import collections
import enum
import importlib.util
import inspect
import json
import pathlib
import sys
import warnings
from typing import Dict, List, Optional, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

SECTIONS = ("Parameters", "Returns", "Raises", "See Also", "References", "Examples")
REGISTRY_TABLE = "Declared properties (generated from the registry)"


def _site_extension():
    spec = importlib.util.spec_from_file_location(
        "propstab_sphinx", ROOT / "docs" / "_ext" / "propstab_sphinx.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def public_objects() -> List[Tuple[str, object]]:
    """``(full name, object)`` for every documented public name, each object once."""
    sections, _ = _site_extension().public_names()
    out, seen = [], set()
    for module, entries in sections:
        for name, canonical in entries:
            if canonical in seen:
                continue
            seen.add(canonical)
            modname, _, attr = canonical.rpartition(".")
            out.append((canonical, getattr(importlib.import_module(modname), attr)))
    return out


def docstring(obj) -> str:
    """The docstring as written, without the properties table the registry appends to a
    measure's docstring (generated; not part of the written docstring)."""
    doc = obj.__doc__ if isinstance(obj.__doc__, str) else ""
    if REGISTRY_TABLE in doc:
        doc = doc[: doc.index(REGISTRY_TABLE)]
    return inspect.cleandoc(doc)


def _takes_parameters(obj) -> bool:
    target = obj.__init__ if inspect.isclass(obj) else obj
    if inspect.isclass(obj) and target is object.__init__:
        return False
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return False
    names = [p for p in signature.parameters.values() if p.name not in ("self", "cls")]
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        return [p.kind for p in names] not in (
            [],
            [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD],
            [inspect.Parameter.VAR_POSITIONAL],
        )
    return bool(names)


def kind(obj) -> Optional[str]:
    """``"class"``, ``"function"`` or None (data: not checked)."""
    if inspect.isclass(obj):
        return "class"
    if inspect.isroutine(obj):
        return "function"
    return None


def required_sections(obj) -> Tuple[str, ...]:
    """The sections the standard asks of ``obj``'s docstring."""
    if kind(obj) == "class":
        wanted = ["Parameters", "See Also", "References", "Examples"]
    else:
        wanted = list(SECTIONS)
        if inspect.isgeneratorfunction(obj):
            wanted[1] = "Yields"
    if not _takes_parameters(obj) or (inspect.isclass(obj) and issubclass(obj, enum.Enum)):
        wanted.remove("Parameters")  # an Enum's members are not constructed
    return tuple(wanted)


def missing_sections(obj) -> Tuple[str, ...]:
    """The required sections that ``obj``'s docstring lacks (all of them without one)."""
    from numpydoc.docscrape import NumpyDocString

    text = docstring(obj)
    if not text:
        return ("docstring",) + required_sections(obj)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown sections are numpydoc's business
        parsed = NumpyDocString(text)
    return tuple(s for s in required_sections(obj) if not parsed[s])


def incomplete_names() -> Dict[str, Tuple[str, ...]]:
    """Every public function and class lacking a section -> the sections it lacks."""
    out = {}
    for name, obj in public_objects():
        if kind(obj) is None:
            continue
        missing = missing_sections(obj)
        if missing:
            out[name] = missing
    return out


def validation_codes() -> "collections.Counter[str]":
    """numpydoc.validate's error codes over every documented public object and the
    public members of the public classes (what the site's autodoc documents)."""
    from numpydoc.validate import validate

    names = []
    for name, obj in public_objects():
        if kind(obj) is None:
            continue
        names.append(name)
        if inspect.isclass(obj):
            names += [
                f"{name}.{member}"
                for member, value in vars(obj).items()
                if not member.startswith("_")
                and (callable(value) or isinstance(value, property))
                and getattr(value, "__doc__", None)
            ]
    counts: "collections.Counter[str]" = collections.Counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            counts.update({code for code, _ in validate(name)["errors"]})
    return counts


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 when a name lacks a section"
    )
    parser.add_argument(
        "--codes", action="store_true", help="count numpydoc.validate's error codes instead"
    )
    args = parser.parse_args(argv)
    if args.codes:
        from numpydoc.validate import ERROR_MSGS

        counts = validation_codes()
        if args.json:
            print(json.dumps(dict(sorted(counts.items())), indent=1))
        else:
            for code, n in sorted(counts.items()):
                print(f"{code}  {n:4d}  {ERROR_MSGS[code]}")
        return 0
    incomplete = incomplete_names()
    if args.json:
        print(json.dumps({k: list(v) for k, v in incomplete.items()}, indent=1))
    else:
        width = max((len(k) for k in incomplete), default=0)
        for name, missing in incomplete.items():
            print(f"{name:<{width}}  {', '.join(missing)}")
        total = sum(1 for _, obj in public_objects() if kind(obj) is not None)
        print(
            f"\n{len(incomplete)} of {total} public functions and classes lack a section "
            f"({', '.join(SECTIONS)})."
        )
    return 1 if args.strict and incomplete else 0


if __name__ == "__main__":
    sys.exit(main())
