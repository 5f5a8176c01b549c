"""Settings that change how much memory a computation may hold, never its result.

The pairwise measures (jaccard, dice, kuncheva, ...) average a score over the
M(M-1) ordered pairs of runs, read from the intersection counts :math:`Z Z^T`. Those
counts are computed and reduced in blocks of rows so that one block holds at most
:func:`get_pair_memory` bytes (default 64 MiB): the peak memory is
:math:`O(\\mathrm{rows} \\times M)` instead of :math:`O(M^2)` (0.8 GB for the int64 counts
alone at :math:`M = 10^4`). Each row's sum
does not depend on how the rows are blocked and the row sums are added exactly
(``math.fsum``), so the value is the same to the last bit for every budget.

Examples
--------
>>> import propstab
>>> from propstab.settings import get_pair_memory, pair_memory
>>> Z = [[1, 1, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]]
>>> with pair_memory("1KiB"):                      # the smallest budget
...     small = propstab.stability(Z, "jaccard")
>>> small == propstab.stability(Z, "jaccard"), get_pair_memory() == 64 * 2 ** 20
(True, True)
"""
from __future__ import annotations

import contextlib
import math
import re
from numbers import Integral, Real

from ._data.gram import get_pair_memory as budget_in_bytes, set_pair_memory as set_budget_in_bytes
from ._utils.checks import fail, shown
from ._utils.params import Checked, validate_params

__all__ = ["get_pair_memory", "pair_memory", "parse_memory", "set_pair_memory"]

_UNITS = {
    "": 1,
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}
_MEMORY_RULE = (
    "must be a number of bytes >= 1024 or a string like '256MB' or '1GiB' "
    "(units B, kB, MB, GB, TB, KiB, MiB, GiB, TiB)"
)


def parse_memory(name: str, value, *, function=None) -> int:
    """A memory size in bytes from an int or a string such as ``"256MB"`` (the rule of
    the ``memory`` argument: at least 1024 bytes).

    Parameters
    ----------
    name : str
        The argument's name, for the message.
    value : int, float or str
        Bytes, or a number with a unit (decimal kB/MB/GB/TB or binary KiB/MiB/GiB/TiB).
    function : str, optional
        The public function whose rule it is (ends the message).

    Returns
    -------
    int

    Raises
    ------
    InvalidParameterError
        (ValueError or TypeError) naming the argument, the rule and the value.

    See Also
    --------
    set_pair_memory : The rule's user.

    References
    ----------
    IEC 80000-13:2008, Quantities and units - Part 13: Information science and
    technology (decimal kB/MB/GB and binary KiB/MiB/GiB prefixes).

    Examples
    --------
    >>> parse_memory("memory", "256MB"), parse_memory("memory", "1GiB")
    (256000000, 1073741824)
    >>> parse_memory("memory", 4096)
    4096
    """
    if isinstance(value, bool) or not isinstance(value, (Real, str)):
        fail(f"{name}: {_MEMORY_RULE}; got {shown(value)}", TypeError, function=function)
    if isinstance(value, str):
        match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?)\s*([A-Za-z]*)\s*", value)
        unit = match.group(2).lower() if match else None
        if match is None or unit not in _UNITS:
            fail(f"{name}: {_MEMORY_RULE}; got {shown(value)}", function=function)
        number = float(match.group(1)) * _UNITS[unit]
    else:
        number = float(value)
    if not math.isfinite(number) or number < 1024:
        fail(f"{name}: {_MEMORY_RULE}; got {shown(value)}", function=function)
    return int(number)


#: a memory size: bytes >= 1024 or a string with a unit
MEMORY = Checked(
    parse_memory,
    "a number of bytes >= 1024 or a string like '256MB'",
    invalid=(0, 100, -5, float("nan"), "lots", "12XB", True, [1024]),
)


def get_pair_memory() -> int:
    """The memory budget of one row block of the pairwise measures (bytes).

    Returns
    -------
    int
        Default 64 MiB (67108864).

    Raises
    ------
    None
        Nothing of its own: it reads a setting.

    See Also
    --------
    set_pair_memory, pair_memory

    Notes
    -----
    A block of ``b`` rows of :math:`Z Z^\\top` holds about :math:`20\\, b M` bytes (int64 counts
    and the product's output), so ``b = memory / (20 M)`` rows, at least one.

    References
    ----------
    Golub, G. H., Van Loan, C. F. (2013). Matrix Computations, 4th ed., sec. 1.3
    (block matrix products).

    Examples
    --------
    >>> from propstab.settings import get_pair_memory
    >>> get_pair_memory()
    67108864
    """
    return budget_in_bytes()


@validate_params({"memory": MEMORY})
def set_pair_memory(memory) -> int:
    """Set the memory budget of one row block of the pairwise measures.

    Parameters
    ----------
    memory : int or str
        Bytes (at least 1024), or a string such as ``"256MB"`` or ``"1GiB"``.

    Returns
    -------
    int
        The previous budget (bytes), to restore it.

    Raises
    ------
    InvalidParameterError
        For a size below 1024 bytes or a string that is not a size.

    See Also
    --------
    pair_memory : The same for a ``with`` block.

    Notes
    -----
    Rows per block :math:`b = \\max(1, \\lfloor memory / (20 M) \\rfloor)`; the value of
    every pairwise measure is the same for every budget (row sums are blocking-invariant
    and added exactly).

    References
    ----------
    Golub, G. H., Van Loan, C. F. (2013). Matrix Computations, 4th ed., sec. 1.3.

    Examples
    --------
    >>> from propstab.settings import set_pair_memory
    >>> previous = set_pair_memory("256MB")
    >>> set_pair_memory(previous)
    256000000
    """
    return set_budget_in_bytes(memory)


@contextlib.contextmanager
def pair_memory(memory):
    """Within a ``with`` block, the memory budget of one row block of the pairwise measures.

    Parameters
    ----------
    memory : int or str
        As for :func:`set_pair_memory`.

    Returns
    -------
    contextlib.AbstractContextManager
        Entering it gives the budget in bytes; leaving it restores the previous one.

    Raises
    ------
    InvalidParameterError
        For a size below 1024 bytes or a string that is not a size (as
        :func:`set_pair_memory`).

    See Also
    --------
    set_pair_memory, get_pair_memory

    Notes
    -----
    Rows per block :math:`b = \\max(1, \\lfloor memory / (20 M) \\rfloor)`; restored on exit.

    References
    ----------
    Golub, G. H., Van Loan, C. F. (2013). Matrix Computations, 4th ed., sec. 1.3.

    Examples
    --------
    >>> from propstab.settings import pair_memory
    >>> with pair_memory("16MiB") as budget:
    ...     budget
    16777216
    """
    previous = set_pair_memory(memory)
    try:
        yield budget_in_bytes()
    finally:
        set_budget_in_bytes(previous)
