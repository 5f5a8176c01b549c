"""``propstab compare FILE1 FILE2``: do two procedures have equal stability?"""
from __future__ import annotations

from .._utils.checks import fail
from ..registry._registry import get_measure
from .._utils.text import field_lines
from ..inference import HYPOTHESES, ALTERNATIVES, TEST_METHODS, two_sample_test
from ..inference._estimates import ESTIMAND
from ._common import (
    READ_HELP,
    add_measure_arguments,
    add_reading_arguments,
    add_random_state,
    add_confidence_level,
    given,
    measure_options,
    read_inputs,
    refuse_unused,
    renamed_value,
)
from .._utils.params import RENAMED_TESTS
from ._runs import OPTION_NAMES, checked, decided, read_runs


def refuse_unused_options(args) -> None:
    """The options of the mode not chosen: the two-sample test's with a margin, the
    margin's without one, the permutation test's with the Wald one."""
    margin = (
        "--noninferiority"
        if given(args, "noninferiority")
        else "--drop"
        if given(args, "drop")
        else None
    )
    if margin is not None:
        refuse_unused(
            args,
            ("alternative", "test", "n_resamples", "random_state"),
            f"not used with {margin} (a one-sided test of the margin; this option "
            f"is the two-sample test's, without a margin)",
        )
        return
    refuse_unused(
        args,
        ("confidence_level",),
        "only with --noninferiority or --drop (the "
        "two-sample test gives a p-value, not a one-sided interval)",
    )
    if args.test == "wald":
        refuse_unused(
            args,
            ("n_resamples", "random_state"),
            "only for the permutation test "
            "(--test permutation, or auto below 100 runs), not with --test "
            "wald",
        )


def run(args) -> int:
    refuse_unused_options(args)
    info = get_measure(args.measure)
    if args.noninferiority is not None or args.drop is not None:
        return not_less_stable(args, info)
    (r1, r2), sim = read_inputs(args, [args.file1, args.file2], kind=info.input)
    n1, n2 = r1.selection.feature_names, r2.selection.feature_names
    if n1 != n2:
        fail(
            f"{r1.path}, {r2.path}: the feature names differ "
            f"({'none' if n1 is None else len(n1)} vs "
            f"{'none' if n2 is None else len(n2)} names"
            + (
                ", first difference: " + next(f"{a!r} vs {b!r}" for a, b in zip(n1, n2) if a != b)
                if n1 and n2 and len(n1) == len(n2)
                else ""
            )
            + ")",
            argument="FILE1, FILE2",
        )
    options, option_lines = measure_options(args, info, sim)
    res = two_sample_test(
        r1.selection,
        r2.selection,
        paired=args.paired,
        alternative=args.alternative,
        measure=info.name,
        test=args.test,
        n_resamples=args.n_resamples,
        random_state=args.random_state,
        **options,
    )
    e1, e2 = res.estimates
    label1, label2 = _labels(r1.path, r2.path)
    design = (
        "paired: the same resamples, variance from per-run terms"
        if res.paired
        else "independent samples (thesis Thm 7)"
    )
    rows = [
        ("files", f"{r1.path}: {r1.description}"),
        ("", f"{r2.path}: {r2.description}"),
        ("measure", e1.measure),
        *option_lines,
        ("estimand", ESTIMAND),  # the words of every summary (Python, R)
        ("design", design),
        (label1, f"{e1.statistic:.4f} (se {e1.standard_error:.4f}, M = {e1.n_runs})"),
        (label2, f"{e2.statistic:.4f} (se {e2.standard_error:.4f}, M = {e2.n_runs})"),
        ("difference", f"{res.difference:.4f} ({label1} - {label2})"),
        (
            "statistic",
            f"{res.statistic:.4f} (difference / SE; thesis T_M = " f"{-res.statistic + 0.0:.4f})",
        ),
        ("test", res.test_description),
        (
            "p-value",
            f"{res.pvalue:.4g} ({res.alternative}, H1: {label1} "
            f"{HYPOTHESES[res.alternative]} {label2})",
        ),
    ]
    print("\n".join(field_lines(rows)))
    return 0


def not_less_stable(args, info) -> int:
    """``--noninferiority MARGIN`` (or ``--drop MARGIN``): FILE1 is the baseline, FILE2
    the current runs (propstab.testing.assert_not_less_stable); one line, exit 0 or 1."""
    from ..testing._assertions import assert_not_less_stable

    (base, current), options = read_runs(args, [args.file1, args.file2], info)
    test = "non-inferiority" if args.noninferiority is not None else "drop"
    margin = args.noninferiority if args.noninferiority is not None else args.drop
    flag = "--noninferiority" if test == "non-inferiority" else "--drop"
    passed, res = checked(
        "propstab compare",
        assert_not_less_stable,
        base,
        current,
        margin=margin,
        confidence_level=args.confidence_level,
        paired=True if args.paired else None,
        measure=info.name,
        test=test,
        names={**OPTION_NAMES, "margin": flag, "baseline": "FILE1", "current": "FILE2"},
        **options,
    )
    if not passed:
        return decided("propstab compare", False, res)
    return decided("propstab compare", True, res.headline() + ": " + res.message())


def _labels(path1: str, path2: str):
    """The files' names, or their paths as given when the names coincide."""
    import os

    a, b = os.path.basename(path1), os.path.basename(path2)
    return (a, b) if a != b else (path1, path2 if path1 != path2 else path2 + " (2nd)")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "compare",
        help="test whether two selection matrices come from " "procedures with equal stability",
    )
    p.add_argument("file1", metavar="FILE1", help=READ_HELP)
    p.add_argument(
        "file2",
        metavar="FILE2",
        help="the second selection file, same format; " "results are labelled by the file names",
    )
    p.add_argument(
        "--paired",
        action="store_true",
        help="the two procedures ran on the same resamples (row i of both files)",
    )
    p.add_argument(
        "--alternative",
        default="two-sided",
        choices=ALTERNATIVES,
        help="H1 about stability(FILE1) - stability(FILE2): 'greater' means FILE1 "
        "is more stable, as in scipy and R (default two-sided)",
    )
    p.add_argument(
        "--test",
        default="auto",
        type=renamed_value(RENAMED_TESTS["test"], "--test"),
        choices=TEST_METHODS,
        help="permutation (studentized; exact when the runs are exchangeable), wald "
        "(N(0, 1), thesis Thm 7, M >= 100) or auto: below 100 runs both must reject "
        "(default auto)",
    )
    p.add_argument(
        "--n-resamples",
        type=int,
        default=9999,
        help="rearrangements of the permutation test (all of them when there "
        "are at most this many; default 9999)",
    )
    add_random_state(p, "the permutation test's random rearrangements")
    g = p.add_argument_group(
        "a CI check of FILE2 (the current runs) against FILE1 (the baseline: a selection "
        "file or a .npz stability baseline); exit 0 pass, 1 fail, 2 bad input, one line"
    )
    which = g.add_mutually_exclusive_group()
    which.add_argument(
        "--noninferiority",
        type=float,
        metavar="MARGIN",
        help="pass when FILE2 is shown to be less stable than FILE1 by less "
        "than MARGIN (H0: Phi_2 <= Phi_1 - MARGIN rejected)",
    )
    which.add_argument(
        "--drop",
        type=float,
        metavar="MARGIN",
        help="fail only when FILE2 is shown to be less stable than FILE1 by "
        "more than MARGIN (H0: Phi_2 >= Phi_1 - MARGIN rejected)",
    )
    add_confidence_level(
        g, "one-sided confidence level in (0.5, 1) of --noninferiority and --drop"
    )
    add_measure_arguments(p)
    add_reading_arguments(p)
    p.set_defaults(func=run)
