"""``propstab compare FILE1 FILE2``: do two procedures have equal stability?"""
from __future__ import annotations

from .._text import field_lines
from ..inference import ALTERNATIVES, two_sample_test
from .estimate import READ_HELP, fail, read_selection


def run(args) -> int:
    try:
        Z1, kw1 = read_selection(args.file1, args.n_features)
        Z2, kw2 = read_selection(args.file2, args.n_features)
        if kw1.get("feature_names") != kw2.get("feature_names"):
            raise ValueError("FILE1, FILE2: the feature-name headers differ")
        res = two_sample_test(Z1, Z2, paired=args.paired, alternative=args.alternative,
                              measure=args.measure, **kw1)
    except (ValueError, TypeError, OSError) as exc:
        return fail("compare", exc)
    e1, e2 = res.estimates
    design = ("paired: the same resamples, variance from per-run terms" if res.paired
              else "independent samples (thesis Thm 7)")
    rows = [("measure", e1.measure), ("test", design),
            ("FILE1", f"{e1.statistic:.4f} (se {e1.standard_error:.4f}, M = {e1.n_runs})"),
            ("FILE2", f"{e2.statistic:.4f} (se {e2.standard_error:.4f}, M = {e2.n_runs})"),
            ("difference", f"{res.difference:.4f} (FILE2 - FILE1)"),
            ("T_M", f"{res.statistic:.4f}"),
            ("p-value", f"{res.pvalue:.4g} ({res.alternative})")]
    print("\n".join(field_lines(rows)))
    return 0


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("compare", help="test whether two selection matrices come from "
                                              "procedures with equal stability")
    p.add_argument("file1", metavar="FILE1", help=READ_HELP)
    p.add_argument("file2", metavar="FILE2", help="the second selection matrix, same format")
    p.add_argument("--paired", action="store_true",
                   help="the two procedures ran on the same resamples (row i of both files)")
    p.add_argument("--alternative", default="two-sided", choices=ALTERNATIVES,
                   help="H1 about stability(FILE2) - stability(FILE1) (default two-sided)")
    p.add_argument("--measure", default="nogueira", help="registered measure (default nogueira)")
    p.add_argument("--n-features", type=int, help="d, when the files list feature indices")
    p.set_defaults(func=run)
