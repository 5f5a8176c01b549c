"""Loading a user's measure from ``path/to/file.py:function`` (``propstab audit FILE.py:F``)."""
from __future__ import annotations

from typing import Callable

import numpy as np
from .._utils.checks import fail

__all__ = ["load_function"]


def load_function(spec: str) -> Callable[[np.ndarray], float]:
    """The function named by ``"path/to/file.py:function"`` (for ``propstab audit``).

    Parameters
    ----------
    spec : str
        ``"path/to/file.py:function"``; the file is executed as a module.

    Returns
    -------
    callable

    Raises
    ------
    ValueError
        When ``spec`` is not of that form, the file does not exist, has a syntax error,
        fails while being imported (e.g. a missing module) or does not define a callable
        of that name; the message names the file.

    See Also
    --------
    propstab.audit : Audits the loaded function.
    propstab.auditing.subject : The declaration of a user function.

    References
    ----------
    Python documentation, ``importlib.util.spec_from_file_location`` (importing a
    source file directly, https://docs.python.org/3/library/importlib.html).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from propstab.auditing import load_function
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "mine.py"
    ...     _ = path.write_text("def coverage(Z):\\n    return float(Z.mean())\\n")
    ...     load_function(f"{path}:coverage").__name__
    'coverage'
    >>> load_function("mine.txt:coverage")
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: target: must be 'path/to/file.py:function'; got 'mine.txt:coverage'
    """
    import importlib.util
    import pathlib

    path, sep, name = str(spec).rpartition(":")
    if not sep or not path.endswith(".py") or not name.isidentifier():
        fail(f"target: must be 'path/to/file.py:function'; got {spec!r}")
    file = pathlib.Path(path)
    if not file.is_file():
        fail(f"target: no such file {path!r}")
    module_spec = importlib.util.spec_from_file_location(f"_propstab_audit_{file.stem}", file)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except SyntaxError as exc:
        fail(f"target: {path!r} has a syntax error at line {exc.lineno}: " f"{exc.msg}")
    except (Exception, SystemExit) as exc:  # the user's module failed (or exited) on import
        fail(
            f"target: importing {path!r} failed: {type(exc).__name__}: "
            f"{' '.join(str(exc).split())}"
        )
    function = getattr(module, name, None)
    if not callable(function):
        fail(f"target: {path!r} defines no function {name!r}")
    return function
