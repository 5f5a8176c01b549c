"""``propstab crosscheck``: propstab against the R reference implementations (stabm, irr)."""
from __future__ import annotations

from .estimate import fail


def run(args) -> int:
    try:
        from ..r import crosscheck
        report = crosscheck(args.measure, max_examples=args.max_examples, seed=args.seed)
    except (TypeError, ValueError, ImportError) as exc:    # ImportError: rpy2, R or a package
        return fail("crosscheck", exc)
    print(report.to_json() if args.json else report)
    return 0 if report.ok else 1


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "crosscheck", help="compare every measure with its R reference (stabm, irr) through "
                           "rpy2 and print the agreement table with the R and package versions")
    p.add_argument("--measure", action="append", metavar="NAME",
                   help="only this measure (repeatable); default: every measure with an R "
                        "reference")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--max-examples", type=int, default=50, metavar="N",
                   help="generated cases per measure (default 50)")
    p.add_argument("--seed", type=int, default=0, help="seed of the case generation (default 0)")
    p.set_defaults(func=run)
