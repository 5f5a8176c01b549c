"""Reading the runs a CI check compares: a selection file (every format the readers take)
or a stability baseline (``.npz`` written by :meth:`propstab.testing.Baseline.save`)."""
from __future__ import annotations

from typing import Any, List, Tuple

from ._common import IDENTITY, READING, measure_options, read_inputs, refuse_unused


def is_baseline(path: str) -> bool:
    return path.lower().endswith(".npz")


def read_runs(args, paths, info) -> Tuple[List[Any], dict]:
    """The runs of each path (a Baseline for ``.npz``, else the file's Selection) and the
    measure's options from the command line."""
    from ..testing._assertions import Baseline

    files = [p for p in paths if not is_baseline(p)]
    if not files:
        refuse_unused(
            args,
            READING,
            "not used: every file is a stability baseline (.npz), "
            "and the reading options apply to selection files",
        )
        if args.similarity not in (None, IDENTITY):
            refuse_unused(
                args,
                ("similarity",),
                "a similarity file is read with a selection "
                "file, and every file is a stability baseline (.npz); use "
                "--similarity identity, or a selection file",
            )
    read, sim = read_inputs(args, files, kind=info.input) if files else ([], None)
    by_path = {f.path: f.selection for f in read}
    runs = [Baseline.load(p) if is_baseline(p) else by_path[p] for p in paths]
    options, _ = measure_options(args, info, sim)
    return runs, options


def decided(prefix: str, passed: bool, text: str) -> int:
    """Print the one line of a check's decision; 0 when it passed, 1 when it failed."""
    from .._utils.text import one_line

    print(f"{prefix}: {'PASS' if passed else 'FAIL'}: {one_line(text)}")
    return 0 if passed else 1


#: the command line's names of the assertions' arguments
OPTION_NAMES = {
    "at_least": "--at-least",
    "confidence_level": "--confidence-level",
    "measure": "--measure",
    "margin": "--noninferiority",
}


def checked(prefix: str, assertion, *args, names=OPTION_NAMES, **kwargs):
    """``(True, result)`` or ``(False, message)`` of an assertion; its argument errors
    name the command line's options."""
    from .._utils.exceptions import InvalidParameterError

    try:
        return True, assertion(*args, **kwargs)
    except AssertionError as failure:
        return False, str(failure)
    except InvalidParameterError as error:
        raise error.renamed(names) from None
