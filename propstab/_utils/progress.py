"""Progress bars for long calls: one rule for every entry point.

``progress=None`` (the default everywhere) shows a bar only where a person is watching:
an interactive terminal (``sys.stderr.isatty()``) or a Jupyter kernel; never in a
script run by CI, a pipe or a log file. ``progress=True`` forces a bar and
``progress=False`` silences it. The bar is ``tqdm.auto`` (a widget in a notebook, text
on a terminal); without tqdm installed, ``progress=True`` raises ImportError naming it
and ``progress=None`` shows nothing.
"""
from __future__ import annotations

import contextlib
import sys
from typing import Iterable, Iterator, Optional

from .checks import check_bool

__all__ = ["interactive", "progress_bar", "progress_counter", "wanted"]


def interactive() -> bool:
    """Whether a person is watching: stderr is a terminal, or the code runs in a Jupyter
    (IPython kernel) session."""
    if bool(getattr(sys.stderr, "isatty", lambda: False)()):
        return True
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        ip = shell.get_ipython()
    except Exception:  # noqa: BLE001 - a half-imported IPython
        return False
    return ip is not None and "IPKernelApp" in getattr(ip, "config", {})


def wanted(progress, total: Optional[int] = None, *, minimum: int = 2) -> bool:
    """``progress`` checked (None, True or False) and resolved: True/False as given; None:
    :func:`interactive` and at least ``minimum`` steps."""
    progress = check_bool("progress", progress, none=True)
    if progress is not None:
        return progress
    return interactive() and (total is None or total >= minimum)


def _tqdm():
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        raise ImportError(
            "progress=True needs tqdm: pip install tqdm (Debian: " "python3-tqdm)"
        ) from None
    return tqdm


def progress_bar(
    iterable: Iterable, *, progress, total: Optional[int] = None, desc: str = "", minimum: int = 2
) -> Iterator:
    """``iterable`` wrapped in a ``tqdm.auto`` bar when :func:`wanted`, else as it is.

    Examples
    --------
    >>> from propstab._utils.progress import progress_bar
    >>> list(progress_bar(range(3), progress=False))
    [0, 1, 2]
    """
    if not wanted(progress, total, minimum=minimum):
        return iter(iterable)
    return iter(_tqdm()(iterable, total=total, desc=desc, file=sys.stderr))


@contextlib.contextmanager
def progress_counter(*, progress, total: Optional[int] = None, desc: str = "", minimum: int = 2):
    """A bar updated by hand (``bar.update(n)``) for loops that are not iterables, e.g. a
    Hypothesis search; a do-nothing object when not :func:`wanted`.

    Examples
    --------
    >>> from propstab._utils.progress import progress_counter
    >>> with progress_counter(progress=False, total=2) as bar:
    ...     bar.update(1)
    """
    if not wanted(progress, total, minimum=minimum):
        yield _Silent()
        return
    bar = _tqdm()(total=total, desc=desc, file=sys.stderr)
    try:
        yield bar
    finally:
        bar.close()


class _Silent:
    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, s: str = "") -> None:
        pass
