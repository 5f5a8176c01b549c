"""``propstab estimate FILE``: a stability estimate with its confidence interval.

Also the reader of selection-matrix files shared with ``propstab compare``, and
:func:`fail`, the error report of every command.
"""
from __future__ import annotations

import os
import sys

import numpy as np

from .._text import field_lines

READ_HELP = ("a selection matrix: .npy (M x d array of 0/1), or CSV/text with one run per "
             "line, either a 0/1 row (comma or space separated, optional header of feature "
             "names) or, with --n-features, the indices of the selected features (0-based)")


def _tokens(line: str):
    return line.replace(",", " ").split()


def read_selection(path: str, n_features=None):
    """Read a selection file into ``(Z, keyword arguments for as_selection)``.

    Raises ValueError (or OSError) naming the file and the problem.
    """
    ext = os.path.splitext(path)[1].lower()
    if ext == ".npy":
        return np.load(path, allow_pickle=False), {"n_features": n_features}
    if ext not in (".csv", ".txt", ".tsv"):
        raise ValueError(f"FILE: must end in .npy, .csv, .tsv or .txt; got {path!r}")
    with open(path, encoding="utf-8") as fh:
        lines = [ln for ln in fh.read().splitlines() if not ln.lstrip().startswith("#")]
    if n_features is not None:                     # one line of feature indices per run
        while lines and not lines[-1].strip():
            lines.pop()
        try:
            runs = [[int(t) for t in _tokens(ln)] for ln in lines]
        except ValueError as exc:
            raise ValueError(f"{path}: with --n-features every line must list integer feature "
                             f"indices ({exc})") from None
        return runs, {"n_features": n_features}
    rows = [_tokens(ln) for ln in lines if ln.strip()]
    names = None
    if rows and any(not _is_number(t) for t in rows[0]):
        names, rows = rows[0], rows[1:]
    widths = {len(r) for r in rows}
    if len(widths) > 1:
        raise ValueError(f"{path}: the 0/1 rows have different lengths ({sorted(widths)}); "
                         f"to give feature indices per run use --n-features")
    try:
        Z = np.array([[float(t) for t in r] for r in rows])
    except ValueError as exc:
        raise ValueError(f"{path}: every entry must be 0 or 1 ({exc}); to give feature indices "
                         f"per run use --n-features") from None
    return Z, {"feature_names": names}


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def fail(command: str, exc: Exception) -> int:
    """Print ``propstab COMMAND: error: MESSAGE`` on stderr; return the exit status 2."""
    print(f"propstab {command}: error: {exc}", file=sys.stderr)
    return 2


def run(args) -> int:
    from ..inference import estimate
    try:
        Z, kw = read_selection(args.file, args.n_features)
        est = estimate(Z, args.measure, **kw)
        ci = est.confidence_interval(args.confidence)
    except (ValueError, TypeError, OSError) as exc:
        return fail("estimate", exc)
    source = ("thesis Thm 6" if est.method == "analytic" else "delete-one-run jackknife")
    interpretation = ("- (thesis Table 6.1 is a scale for kappa-like measures)"
                      if est.interpretation is None
                      else f"{est.interpretation} (thesis Table 6.1)")
    rows = [("measure", est.measure),
            ("runs x features", f"{est.n_runs} x {est.n_features}"),
            ("estimate", f"{est.statistic:.4f}"),
            ("standard error", f"{est.standard_error:.4f} ({est.method}: {source})"),
            (f"{args.confidence:.0%} CI", f"[{ci.low:.4f}, {ci.high:.4f}]"),
            ("interpretation", interpretation)]
    print("\n".join(field_lines(rows)))
    return 0


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("estimate", help="stability estimate, confidence interval and "
                                               "interpretation of a selection matrix")
    p.add_argument("file", metavar="FILE", help=READ_HELP)
    p.add_argument("--measure", default="nogueira", help="registered measure (default nogueira)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="confidence level in (0, 1) (default 0.95)")
    p.add_argument("--n-features", type=int, help="d, when FILE lists feature indices per run")
    p.set_defaults(func=run)
