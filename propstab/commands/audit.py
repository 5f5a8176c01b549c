"""``propstab audit``: check every declared axiom of the registered measures, or of a
user function given as ``path/to/file.py:function``."""
from __future__ import annotations

import argparse
import warnings

from .._utils.checks import MAX_JOBS, fail
from .._utils.exceptions import InvalidParameterError
from ._common import add_random_state, positive_int, refuse_unused


def _jobs(text: str) -> int:
    """argparse type: a non-zero integer (-1: every core)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a non-zero integer (-1: every core); got " f"{text!r}"
        ) from None
    if value == 0:
        raise argparse.ArgumentTypeError("must be a non-zero integer (-1: every core); got 0")
    if abs(value) > MAX_JOBS:  # the library's rule for n_jobs
        raise argparse.ArgumentTypeError(
            f"must be a non-zero integer of absolute value at most {MAX_JOBS} (-1: every "
            f"core); got {value}"
        )
    return value


def default_jobs(measures) -> int:
    """``--jobs`` when it is not given: every core (-1) for an audit of several measures
    or variants, one process (1) for a single one. Its five checks gain nothing from
    workers: loky's (elsewhere than Linux) each import propstab, and a user's function at
    200 examples took 3.1 s on every core of a 2-core machine and 1.4 s in one process;
    forked ones (Linux) start at once and break even (kuncheva: 2.3 s against 2.2 s).

    >>> default_jobs("kuncheva"), default_jobs("jaccard"), default_jobs(None)
    (1, -1, -1)
    """
    from ..auditing._audit import audited_subjects

    return -1 if len(audited_subjects(measures)) > 1 else 1


#: Seconds to wait for the dask scheduler of ``--scheduler`` to answer.
CONNECT_SECONDS = 10


def connect(address: str):
    """A dask.distributed ``Client`` of the scheduler at ``address`` (``--scheduler``);
    one line (ValueError naming ``--scheduler``) when none answers within
    :data:`CONNECT_SECONDS`."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - a dependency of [dask]
        raise ImportError(
            "--scheduler needs dask.distributed: pip install propstab[dask] "
            "(Debian: python3-distributed)"
        ) from None
    try:
        with warnings.catch_warnings():  # distributed's own ("make_current is deprecated")
            warnings.simplefilter("ignore", DeprecationWarning)
            # not this process's default client: one that fails half-way (a malformed
            # address) would stay the default, and runs on other clients followed its loop
            return Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except Exception as exc:  # refused, timed out, a malformed address
        detail = " ".join(str(exc).split()) or type(exc).__name__
        fail(
            f"--scheduler: must be the address of a dask scheduler that answers within "
            f"{CONNECT_SECONDS} s; got {address!r} ({detail})",
            argument="--scheduler",
        )


def run(args) -> int:
    from ..auditing._audit import DEFAULT_MAX_EXAMPLES, audit, load_function

    if args.target and args.measure:
        fail(
            f"give either FILE.py:FUNCTION or --measure, not both; got "
            f"{args.target!r} and --measure {', '.join(args.measure)}",
            argument="FILE.py:FUNCTION, --measure",
        )
    if args.command_line is not None:
        return _run_command(args)
    refuse_unused(args, ["timeout"], "only with --command (the time a command may take)")
    measures = load_function(args.target) if args.target else args.measure
    max_examples = DEFAULT_MAX_EXAMPLES if args.max_examples is None else args.max_examples
    if args.scheduler is not None:
        if args.jobs is not None:
            fail(
                f"give either --jobs or --scheduler, not both (the cluster's workers run "
                f"the checks); got --jobs {args.jobs} and --scheduler {args.scheduler!r}",
                argument="--jobs, --scheduler",
            )
        client = connect(args.scheduler)
        try:
            table = audit(
                measures, max_examples=max_examples, random_state=args.random_state, backend=client
            )
        finally:
            client.close()
    else:
        jobs = default_jobs(measures) if args.jobs is None else args.jobs
        table = audit(
            measures, max_examples=max_examples, random_state=args.random_state, n_jobs=jobs
        )
    print(table.to_json(indent=2) if args.json else table)
    return 1 if table.disagreements else 0


def _run_command(args) -> int:
    """``--command``: the audit of an implementation in any language (the JSON-lines
    protocol of ``propstab agree``), against the declaration of ``--measure``."""
    from ..auditing._audit import DEFAULT_MAX_EXAMPLES, audit
    from ..testing import command

    if args.target:
        fail(
            f"give either FILE.py:FUNCTION or --command, not both; got {args.target!r} and "
            f"--command {args.command_line!r}",
            argument="FILE.py:FUNCTION, --command",
        )
    if not args.measure or len(args.measure) != 1:
        fail(
            "--measure: with --command, name the one registered measure whose claims the "
            "command's audit checks (e.g. --measure nogueira)",
            argument="--measure",
        )
    if args.scheduler is not None or args.jobs not in (None, 1):
        fail(
            "--command: the audit of a command runs in one process (no --jobs or " "--scheduler)",
            argument="--command",
        )
    max_examples = DEFAULT_MAX_EXAMPLES if args.max_examples is None else args.max_examples
    try:
        cmd = command(args.command_line, timeout=args.timeout, like=args.measure[0])
    except InvalidParameterError as error:
        raise error.renamed({"like": "--measure", "timeout": "--timeout"}) from None
    with cmd:
        cmd([[1, 1, 0], [1, 0, 1]])  # a first request: a broken command is one line
        table = audit(cmd, max_examples=max_examples, random_state=args.random_state, n_jobs=1)
    print(table.to_json(indent=2) if args.json else table)
    return 1 if table.disagreements else 0


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "audit",
        help="check the declared axioms of every measure (or of your function)",
        description="Search for counterexamples to each measure's declared axioms and print "
        "the table (measures x axioms, footnotes with counterexamples). Exit "
        "status 1 when a claimed axiom is violated, 2 on a usage error.",
    )
    p.add_argument(
        "target",
        nargs="?",
        metavar="FILE.py:FUNCTION",
        help="audit a function f(Z) -> float from a Python file; its claims come "
        "from its attributes (f.claims, f.lower, f.upper, ...)",
    )
    p.add_argument(
        "--measure",
        action="append",
        metavar="NAME",
        help="only this registered measure (repeatable)",
    )
    p.add_argument(
        "--command",
        dest="command_line",
        default=None,
        metavar="'COMMAND LINE'",
        help="audit an implementation in any language: a command reading one JSON "
        "object per line and writing one value per line (as propstab agree), "
        "against the claims of the one --measure it implements",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="with --command: seconds it may take to answer one request (default 60)",
    )
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.add_argument(
        "--max-examples",
        type=positive_int,
        default=None,
        metavar="N",
        help="Hypothesis examples per check, at least 1 (default: "
        "propstab.auditing.DEFAULT_MAX_EXAMPLES, 200)",
    )
    add_random_state(p, "the searches")
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="run the checks in N processes (-1: every core; 1: one after the "
        "other; default: every core for several measures or variants, one "
        "process for a single one); the table does not depend on it",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run the checks on the workers of the dask.distributed cluster whose "
        "scheduler listens at ADDRESS (tcp://host:8786) instead of local "
        "processes; the same table",
    )
    p.set_defaults(func=run)
