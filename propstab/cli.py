"""Command line interface: ``propstab COMMAND``.

The CLI holds no logic of its own; each subcommand lives in a module of
:mod:`propstab.commands` (``measures`` first, ``audit``, ``crosscheck``, ``estimate``...)
that reads the registry and the library and formats the result.

Every failure is one line on stderr, ``propstab COMMAND: error: MESSAGE``, and a
non-zero exit status: 2 when the command line or an input is wrong (argparse's usage
errors included), 3 when the command cannot run here (rpy2, R or an R package
missing, or an internal error). ``PROPSTAB_DEBUG=1`` re-raises instead, with the
traceback. Warnings print as one line per category, ``propstab COMMAND: warning: ...``.
"""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import warnings
from typing import List, Optional

from . import commands
from ._utils.text import one_line

ORDER = ("measures", "audit", "estimate", "compare", "crosscheck", "agree", "check")
USAGE_ERROR, ENVIRONMENT_ERROR = 2, 3
#: The exit status of an interrupted command (Ctrl-C): 128 + SIGINT, as a shell reports it.
INTERRUPTED = 130
#: The exit status when the reader of the output went away (``propstab measures | head``):
#: 128 + SIGPIPE, what a shell reports for a command ended by a closed pipe, and no message.
CLOSED_PIPE = 141


def _version() -> str:
    """``propstab X.Y.Z from /path/to/propstab (python 3.11)``, as ``pip --version``."""
    import pathlib
    from ._version import __version__

    where = pathlib.Path(__file__).resolve().parent
    return (
        f"propstab {__version__} from {where} (python {sys.version_info[0]}.{sys.version_info[1]})"
    )


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors as one line (subcommand parsers inherit it)."""

    def error(self, message):
        self.exit(
            USAGE_ERROR, f"{self.prog}: error: {one_line(message)} " f"(see {self.prog} --help)\n"
        )


def command_names() -> List[str]:
    """The subcommands: the public modules of :mod:`propstab.commands`, in ORDER first."""
    names = [m.name for m in pkgutil.iter_modules(commands.__path__) if not m.name.startswith("_")]
    return sorted(names, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="propstab",
        description="Stability of feature selection: measures, audits, "
        "inference and R cross-checks. Exit status 2: a usage "
        "or input error; 3: the command cannot run here (R, "
        "rpy2 or a package missing); 130: interrupted (Ctrl-C); 141: the output's "
        "reader closed the pipe (as with | head). "
        "PROPSTAB_DEBUG=1 shows tracebacks.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=_version(),
        help="print the version, the location of the package and the Python",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in command_names():
        importlib.import_module(f"{commands.__name__}.{name}").add_parser(sub)
    return parser


def given_options(parser: argparse.ArgumentParser, argv, command: str) -> frozenset:
    """The destinations of the options (and positionals) given on the command line, told
    apart from defaults: the line parsed again with every default of the subcommand
    suppressed. A subcommand refuses an option given where it does not apply
    (:func:`propstab.commands._common.refuse_unused`), even when its value is the
    default's."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[
        command
    ]
    saved = [(a, a.default) for a in sub._actions]
    defaults, sub._defaults = sub._defaults, {}
    try:
        for action, _ in saved:
            action.default = argparse.SUPPRESS
        given = vars(parser.parse_args(argv))
    finally:
        for action, default in saved:
            action.default = default
        sub._defaults = defaults
    return frozenset(given) - {"command", "help"}


#: The library's argument names that a subcommand's option of another name sets.
LIBRARY_NAMES = {"measures": "measure"}


def option_names(parser: argparse.ArgumentParser, command: str) -> dict:
    """The subcommand's options by the library's name of the argument each one sets
    (``n_resamples``: ``--n-resamples``, ``measures``: ``--measure``), for errors of the
    library to name the option the user typed."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[
        command
    ]
    flags = {
        a.dest: max(a.option_strings, key=len)
        for a in sub._actions
        if a.option_strings and a.dest not in ("help", "base") and a.help != argparse.SUPPRESS
    }
    names = {dest: flag for dest, flag in flags.items()}
    names.update(
        (library, flags[dest]) for library, dest in LIBRARY_NAMES.items() if dest in flags
    )
    return names


def exit_status(exc: BaseException) -> int:
    """2 for a wrong command line or input, 3 for what the environment lacks (and for
    internal errors)."""
    if isinstance(exc, ImportError):  # includes RUnavailableError
        return ENVIRONMENT_ERROR
    if isinstance(exc, (ValueError, TypeError, OSError)):
        return USAGE_ERROR
    return ENVIRONMENT_ERROR


def error_message(exc: BaseException) -> str:
    """The one-line message of a failure."""
    from ._utils.exceptions import RReferenceError

    if isinstance(exc, (ValueError, TypeError, ImportError, RReferenceError)):
        return one_line(exc)
    if isinstance(exc, OSError):
        where = f" {exc.filename!r}" if getattr(exc, "filename", None) else ""
        return one_line(f"{exc.strerror or exc}{where}")
    return one_line(
        f"internal error {type(exc).__name__}: {exc} (PROPSTAB_DEBUG=1 shows " f"the traceback)"
    )


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    # the DeprecationWarnings of old option spellings, printed as the command's warnings
    with warnings.catch_warnings(record=True) as parsing:
        warnings.simplefilter("always")
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version, usage errors
            _print_warnings("propstab", parsing)
            return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        except BrokenPipeError:  # `propstab --help | head`
            _quiet_stdout()
            return CLOSED_PIPE
    if getattr(args, "command", None) is not None:
        with warnings.catch_warnings():  # the same line parsed again: warned above
            warnings.simplefilter("ignore", DeprecationWarning)
            args.given_options = given_options(parser, argv, args.command)
    if not getattr(args, "func", None):
        print(
            f"propstab: error: give a COMMAND ({', '.join(command_names())}); see "
            f"propstab --help",
            file=sys.stderr,
        )
        return USAGE_ERROR
    prefix = f"propstab {args.command}"
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                return int(args.func(args) or 0)
            finally:
                _print_warnings(prefix, list(parsing) + list(caught))
    except BrokenPipeError:  # `propstab measures | head`: the reader has what it wanted
        _quiet_stdout()
        return CLOSED_PIPE
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback
        if os.environ.get("PROPSTAB_DEBUG") == "1":
            raise
        print(f"{prefix}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except Exception as exc:
        if os.environ.get("PROPSTAB_DEBUG") == "1":
            raise
        from ._utils.exceptions import InvalidParameterError

        if isinstance(exc, InvalidParameterError):  # the library's names, as options
            exc = exc.renamed(option_names(parser, args.command))
        print(f"{prefix}: error: {error_message(exc)}", file=sys.stderr)
        return exit_status(exc)


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of
    what could not be written to the closed pipe does not fail again on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (stdout replaced): nothing to flush
        pass


def _print_warnings(prefix: str, caught) -> None:
    """One line per warning category: the first message, and how many there were."""
    seen: "dict[type, list]" = {}
    for w in caught:
        seen.setdefault(w.category, []).append(w)
    for category, items in seen.items():
        more = f" ({len(items)} warnings of this kind, the first shown)" if len(items) > 1 else ""
        print(
            f"{prefix}: warning: {category.__name__}: {one_line(items[0].message)}{more}",
            file=sys.stderr,
        )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
