"""``propstab crosscheck``: propstab against the R reference implementations (stabm, irr),
on generated cases or on the user's own selections (``--input FILE``)."""
from __future__ import annotations

from ..registry._registry import get_measure, list_measures
from ._common import (
    IDENTITY,
    READ_HELP,
    READING,
    add_measure_arguments,
    add_random_state,
    add_reading_arguments,
    parse_options,
    positive_int,
    read_inputs,
    refuse_unused,
)
from .._utils.checks import fail


def run(args) -> int:
    from ..r import crosscheck

    if not args.input:
        given = [
            flag
            for flag, value in (
                ("--similarity", args.similarity),
                ("--threshold", args.threshold),
                ("--option", args.option),
            )
            if value
        ]
        if given:
            fail(
                f"{given[0]}: only with --input FILE (the generated cases draw "
                f"every comparable option value)"
            )
        refuse_unused(
            args,
            READING,
            "only with --input FILE (the generated cases are not " "read from files)",
        )
        report = crosscheck(
            args.measure, max_examples=args.max_examples, random_state=args.random_state
        )
    else:
        refuse_unused(
            args,
            ("max_examples",),
            "not used with --input FILE (the number of "
            "generated cases; your files are the cases)",
        )
        files, sim = read_inputs(args, args.input)
        names = [f.path for f in files]
        if len(set(names)) != len(names):
            fail(f"--input: a file is given twice: {names}")
        infos = (
            [get_measure(n) for n in args.measure]
            if args.measure
            else [m for m in list_measures() if m.r_reference is not None]
        )
        options = parse_options(args, infos)
        if args.similarity is not None:
            options["similarity"] = None if args.similarity == IDENTITY else sim.matrix
        report = crosscheck(
            args.measure,
            inputs={f.path: f.selection for f in files},
            options=options,
            random_state=args.random_state,
        )
        if not args.json:
            for f in files:
                print(f"input {f.path}: {f.description}")
            if sim is not None:
                print(f"similarity {sim.path}: {sim.description}")
    print(report.to_json() if args.json else report)
    return 0 if report.ok else 1


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "crosscheck",
        help="compare every measure with its R reference (stabm, irr) through "
        "rpy2, on generated cases or on your selections (--input), and "
        "print the agreement table with the R and package versions",
        description="Both sides are called with R's default options (propstab with the "
        "options that reproduce them, listed in the report); exit status 1 when "
        "a measure disagrees, 3 when R, rpy2 or an R package is missing.",
    )
    p.add_argument(
        "--input",
        action="append",
        metavar="FILE",
        help="cross-check on this selection file instead of generated cases "
        "(repeatable); " + READ_HELP,
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument(
        "--max-examples",
        type=positive_int,
        default=50,
        metavar="N",
        help="generated cases per measure (default 50)",
    )
    add_random_state(p, "the case generation")
    add_measure_arguments(p, many=True)
    add_reading_arguments(p)
    p.set_defaults(func=run)
