"""``propstab agree``: check an implementation in any language, behind a command speaking
the JSON-lines protocol, against propstab's measure (``propstab agree --measure jaccard --
Rscript my_measure.R``)."""
from __future__ import annotations

import argparse

from .._utils.checks import fail
from .._utils.exceptions import InvalidParameterError
from ._common import add_random_state, parse_options, positive_int, refuse_unused

#: exit status when the implementation disagrees (a usage error or a command off the
#: protocol is 2, as every usage error)
DISAGREES = 1


def _command_line(args) -> "list[str] | str":
    rest = list(args.argv or [])
    if rest and rest[0] == "--":
        rest = rest[1:]
    if args.command_line and rest:
        fail(
            f"give the command either after -- or as --command, not both; got "
            f"--command {args.command_line!r} and {' '.join(rest)!r}",
            argument="--command",
        )
    if not args.command_line and not rest:
        fail(
            "--command: give the command that computes the measure after -- (e.g. "
            "propstab agree --measure jaccard -- Rscript my_measure.R)",
            argument="--command",
        )
    return args.command_line or rest


def run(args) -> int:
    from ..registry._registry import lookup
    from ..testing import agreement, command

    info = lookup(args.measure, argument="--measure")
    if args.input != "sets":
        refuse_unused(args, ["base"], "only with --input sets (the runs' feature indices)")
    options = parse_options(args, [info])
    base = 1 if args.base == "one" else 0
    try:
        implementation = command(
            _command_line(args), timeout=args.timeout, input=args.input, base=base
        )
    except InvalidParameterError as error:
        raise error.renamed({"input": "--input", "base": "--one-based"}) from None
    with implementation:
        result = _agreement(
            agreement,
            implementation,
            info.name,
            options=options,
            atol=args.atol,
            rtol=args.rtol,
            max_examples=args.max_examples,
            random_state=args.random_state,
            expected_differences=args.expected or None,
            invalid_inputs=args.invalid_inputs,
        )
    print(result)
    return 0 if result.agrees else DISAGREES


def _agreement(agreement, *args, **kwargs):
    """``agreement`` with its errors named by the command line's options."""
    try:
        return agreement(*args, **kwargs)
    except InvalidParameterError as error:
        raise error.renamed(
            {
                "expected_differences": "--expected",
                "random_state": "--random-state",
                "options": "--option",
            }
        ) from None


def _tolerance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number >= 0; got {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0; got {text!r}")
    return value


def _timeout(text: str) -> float:
    value = _tolerance(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds; got {text!r}")
    return value


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "agree",
        help="check your implementation of a measure, in any language, against "
        "propstab's: a command reading one JSON object per line and writing "
        "one value per line",
        description="Draws cases from the measure's domain, sends each to the command as "
        'one JSON line ({"Z": [[...]], "options": {...}}, or sets or '
        "frequencies with --input) and reads one JSON value per line (a number, "
        'null for undefined, {"error": "..."}); on a disagreement prints the '
        "shrunk minimal case and a line reproducing it. Exit status 0: agrees; "
        "1: disagrees; 2: a usage error or a command that does not follow the "
        "protocol (its first offending line quoted).",
    )
    p.add_argument(
        "--measure",
        required=True,
        metavar="NAME",
        help="the registered measure the command implements (propstab measures)",
    )
    p.add_argument(
        "--command",
        dest="command_line",
        default=None,
        metavar="'COMMAND LINE'",
        help="the command, as one string (or give it after --)",
    )
    p.add_argument(
        "--input",
        choices=("matrix", "sets", "frequencies"),
        default="matrix",
        help="the form of the requests: the 0/1 matrix Z (default), the runs as "
        "sets of feature indices (with --one-based for R's 1-based indices), "
        "or the features' selection counts",
    )
    p.add_argument(
        "--one-based",
        dest="base",
        action="store_const",
        const="one",
        default="zero",
        help="with --input sets: indices start at 1 (R, Julia, " "MATLAB)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of the measure, sent to both sides (repeatable)",
    )
    p.add_argument(
        "--threshold", type=float, default=None, metavar="X", help="the measure's threshold option"
    )
    p.add_argument(
        "--expected",
        action="append",
        default=[],
        metavar="KEY",
        help="a declared expected difference of the measure whose cases may "
        "differ (repeatable; e.g. nan_not_na)",
    )
    p.add_argument(
        "--invalid-inputs",
        action="store_true",
        help="also send invalid inputs (one case in four: an entry 2, or a run "
        "selecting an index past the last feature), which the command must "
        'refuse with {"error": "..."}',
    )
    p.add_argument(
        "--max-examples",
        type=positive_int,
        default=200,
        metavar="N",
        help="generated cases (default 200)",
    )
    add_random_state(p, "the generation")
    p.add_argument(
        "--atol",
        type=_tolerance,
        default=1e-9,
        metavar="X",
        help="absolute tolerance (default 1e-9)",
    )
    p.add_argument(
        "--rtol",
        type=_tolerance,
        default=1e-9,
        metavar="X",
        help="relative tolerance (default 1e-9)",
    )
    p.add_argument(
        "--timeout",
        type=_timeout,
        default=60.0,
        metavar="SECONDS",
        help="seconds the command may take to answer one case (default 60); "
        "past it the command is killed (exit status 2)",
    )
    p.add_argument(
        "argv",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND ...",
        help="the command line that computes the measure",
    )
    p.set_defaults(func=run, similarity=None)
