"""Command line interface: ``propstab COMMAND``.

The CLI holds no logic of its own; each subcommand lives in a module of
:mod:`propstab.commands` (``measures`` first, ``audit``, ``crosscheck``, ``estimate``...)
that reads the registry and the library and formats the result.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import List, Optional

from . import commands

ORDER = ("measures", "audit", "estimate", "compare", "crosscheck")


def _version() -> str:
    """``propstab X.Y.Z from /path/to/propstab (python 3.11)``, as ``pip --version``."""
    import pathlib
    from . import __version__
    where = pathlib.Path(__file__).resolve().parent
    return f"propstab {__version__} from {where} (python {sys.version_info[0]}.{sys.version_info[1]})"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="propstab", description="Stability of feature selection: measures, audits, "
                                     "inference and R cross-checks.")
    parser.add_argument("--version", action="version", version=_version(),
                        help="print the version, the location of the package and the Python")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = [m.name for m in pkgutil.iter_modules(commands.__path__)]
    names.sort(key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))
    for name in names:
        importlib.import_module(f"{commands.__name__}.{name}").add_parser(sub)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
