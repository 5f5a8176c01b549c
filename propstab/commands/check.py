"""``propstab check FILE --at-least 0.7``: is the stability of FILE's runs shown to exceed a
value? For any CI: exit status 0 when it is, 1 when it is not, 2 on bad input; one line
saying why."""
from __future__ import annotations

from ._common import READ_HELP, add_measure_arguments, add_reading_arguments, add_confidence_level
from ._runs import checked, decided, read_runs


def run(args) -> int:
    from ..registry._registry import get_measure
    from .._utils.text import interval, number
    from ..testing._assertions import assert_stable

    info = get_measure(args.measure)
    (runs,), options = read_runs(args, [args.file], info)
    passed, res = checked(
        "propstab check",
        assert_stable,
        runs,
        args.at_least,
        confidence_level=args.confidence_level,
        measure=info.name,
        **options,
    )
    if not passed:
        return decided("propstab check", False, res)
    e = res.estimate
    low, high = res.confidence_interval(args.confidence_level)
    return decided(
        "propstab check",
        True,
        f"{e.measure} = {number(e.statistic, fixed=True)} ({e.n_runs} runs), "
        f"one-sided {args.confidence_level:.0%} interval {interval(low, high)} lies "
        f"above {number(args.at_least)}; p = {number(res.pvalue)} for H0: Phi <= "
        f"{number(args.at_least)}",
    )


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "check",
        help="exit 0 when the stability is shown to exceed --at-least, 1 when not",
        description="One-sided test (thesis sec. 5.2.5) of H0: Phi <= AT_LEAST against H1: "
        "Phi > AT_LEAST; passes (exit 0) when H0 is rejected at level "
        "1 - CONFIDENCE, so a pipeline no more stable than AT_LEAST passes at "
        "most at that rate. Exit 1 when it fails, 2 on bad input; one line "
        "saying why (propstab.testing.assert_stable).",
    )
    p.add_argument(
        "file",
        metavar="FILE",
        help=READ_HELP + ", or a stability baseline " "(.npz, propstab.testing.Baseline)",
    )
    p.add_argument(
        "--at-least",
        type=float,
        required=True,
        metavar="PHI0",
        help="the stability the runs must be shown to exceed",
    )
    add_confidence_level(p, "one-sided confidence level in (0.5, 1)")
    add_measure_arguments(p)
    add_reading_arguments(p)
    p.set_defaults(func=run)
