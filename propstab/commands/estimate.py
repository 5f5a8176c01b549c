"""``propstab estimate FILE``: a stability estimate with its confidence interval."""
from __future__ import annotations

from ..registry._registry import get_measure
from .._utils.text import field_lines
from ._common import (
    READ_HELP,
    add_measure_arguments,
    add_reading_arguments,
    add_confidence_level,
    measure_options,
    read_inputs,
)


def run(args) -> int:
    import warnings
    from .._utils.checks import check_confidence_level
    from ..inference import SmallSampleWarning, estimate, small_sample_note
    from ..inference._estimates import ESTIMAND

    check_confidence_level(args.confidence_level)  # before any warning of the estimate
    info = get_measure(args.measure)
    (read,), sim = read_inputs(args, [args.file], kind=info.input)
    options, option_lines = measure_options(args, info, sim)
    est = estimate(read.selection, info.name, **options)
    with warnings.catch_warnings():  # the "small M" line says it instead
        warnings.simplefilter("ignore", SmallSampleWarning)
        ci = est.confidence_interval(args.confidence_level)
    small = small_sample_note(est.n_runs, short=True)
    interpretation = (
        "- (thesis Table 6.1 is a scale for kappa-like measures)"
        if est.interpretation is None
        else f"{est.interpretation} (thesis Table 6.1)"
    )
    rows = [
        ("file", f"{read.path}: {read.description}"),
        ("measure", est.measure),
        *option_lines,
        ("estimand", ESTIMAND),
        ("runs x features", f"{est.n_runs} x {est.n_features}"),
        ("estimate", f"{est.statistic:.4f}"),
        ("standard error", est.standard_error_text()),
        (
            f"{args.confidence_level:.0%} CI",
            f"[{ci.low:.4f}, {ci.high:.4f}] " f"({est.interval_method()})",
        ),
        ("interpretation", interpretation),
        *([("note", est.note)] if est.note is not None else []),
        *([("small M", small)] if small is not None else []),
    ]
    print("\n".join(field_lines(rows)))
    return 0


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "estimate",
        help="stability estimate, confidence interval and " "interpretation of a selection matrix",
    )
    p.add_argument("file", metavar="FILE", help=READ_HELP)
    add_confidence_level(p, "confidence level in (0, 1)")
    add_measure_arguments(p)
    add_reading_arguments(p)
    p.set_defaults(func=run)
