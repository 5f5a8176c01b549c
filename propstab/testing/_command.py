"""A measure implemented in any language, behind a command: one long-running process that
answers one JSON line per example (the protocol of :func:`propstab.testing.command`).

The protocol
------------
propstab writes one JSON object per line on the command's standard input, and the command
writes one JSON value per line on its standard output, in the same order:

- a request: ``{"Z": [[1, 0, 1], [1, 1, 0]], "options": {...}}`` (a 0/1 selection matrix,
  runs in rows; a rank matrix of midranks for a ranking measure), or
  ``{"sets": [[1, 3], [1, 2]], "base": 1, "n_features": 3, "options": {...}}`` (the runs
  as feature indices counted from ``base``), or ``{"frequencies": [2, 1, 1], "n_runs": 2,
  "n_features": 3, "options": {...}}`` (how many runs selected each feature);
- an answer: a number; ``null`` where the measure is undefined (the non-standard ``NaN``
  and the strings ``"NA"`` and ``"NaN"`` are read as ``null`` too, as R's jsonlite and
  Julia's JSON write them, and so is a list of one such value); or ``{"error": "..."}``
  where the implementation refuses the input.

Anything else on standard output (a line that is not JSON, or JSON of another shape), an
early exit, or no answer within ``timeout`` seconds is a :class:`ProtocolError` (a
ValueError) quoting the first offending line and the end of the command's standard error.
The process is started on the first request, and ended when the :class:`Command` is closed
(it is a context manager), garbage-collected or when Python exits.
"""
from __future__ import annotations

import atexit
import json
import math
import os
import selectors
import shlex
import subprocess
import tempfile
import threading
import time
import weakref
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np

from .._utils.checks import fail

__all__ = ["Command", "CommandError", "ProtocolError", "command", "payload"]

#: Seconds a command may take to answer one request (its start included) by default.
DEFAULT_TIMEOUT = 60.0
_INPUTS = ("matrix", "sets", "frequencies")
_UNDEFINED_STRINGS = ("NA", "NaN", "nan", "NAN")
_LIVE: "weakref.WeakSet[Command]" = weakref.WeakSet()


class ProtocolError(ValueError):
    """The command does not follow the JSON-lines protocol (a line that is not an
    answer, an exit, no answer in time); the message quotes the offending line.

    A ValueError, so that ``propstab agree`` exits with status 2 (a usage error).

    See Also
    --------
    propstab.testing.command : The protocol.

    References
    ----------
    JSON Lines, https://jsonlines.org (one JSON value per line); ECMA-404, The JSON Data
    Interchange Syntax, 2nd ed. (2017).

    Examples
    --------
    >>> import sys
    >>> from propstab.testing import ProtocolError, command
    >>> try:
    ...     command([sys.executable, "-c", "print('[1] 0.5')"])([[1, 0], [0, 1]])
    ... except ProtocolError as error:
    ...     print(str(error).rsplit(": ", 1)[1])
    '[1] 0.5'
    """


class CommandError(RuntimeError):
    """The command answered ``{"error": "..."}``: it refuses the input (raised by calling
    a :class:`Command`; :func:`propstab.testing.assert_agrees` compares it instead).

    See Also
    --------
    propstab.testing.command : The protocol.

    References
    ----------
    JSON Lines, https://jsonlines.org (one JSON value per line); ECMA-404, The JSON Data
    Interchange Syntax, 2nd ed. (2017).

    Examples
    --------
    >>> import sys
    >>> from propstab.testing import CommandError, command
    >>> script = "import sys; [print('{\\"error\\": \\"no\\"}', flush=True) for _ in sys.stdin]"
    >>> try:
    ...     command([sys.executable, "-c", script])([[1, 0], [0, 1]])
    ... except CommandError as error:
    ...     print(error)
    no
    """


def _jsonable(value):
    from scipy import sparse

    if sparse.issparse(value):
        return sparse.csr_matrix(value).toarray().tolist()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def payload(
    Z: np.ndarray,
    options: Optional[Mapping[str, Any]] = None,
    *,
    input: str = "matrix",
    base: int = 0,
) -> dict:
    """The request for ``Z`` in the form ``input`` (a dict ready for ``json.dumps``).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.testing._command import payload
    >>> Z = np.array([[1, 0, 1], [1, 1, 0]], dtype=bool)
    >>> payload(Z)
    {'Z': [[1, 0, 1], [1, 1, 0]], 'options': {}}
    >>> payload(Z, input="sets", base=1)
    {'sets': [[1, 3], [1, 2]], 'base': 1, 'n_features': 3, 'options': {}}
    >>> payload(Z, {"threshold": 0.5}, input="frequencies")
    {'frequencies': [2, 1, 1], 'n_runs': 2, 'n_features': 3, 'options': {'threshold': 0.5}}
    """
    opts = _jsonable(dict(options or {}))
    Z = np.asarray(Z)
    if input == "matrix":
        cells = Z.astype(int) if Z.dtype == bool else Z
        return {"Z": _jsonable(cells), "options": opts}
    if input == "sets":
        return {
            "sets": [(np.flatnonzero(row) + base).tolist() for row in Z],
            "base": base,
            "n_features": int(Z.shape[1]),
            "options": opts,
        }
    if input == "frequencies":
        return {
            "frequencies": Z.sum(axis=0).astype(int).tolist(),
            "n_runs": int(Z.shape[0]),
            "n_features": int(Z.shape[1]),
            "options": opts,
        }
    fail(f"input: must be one of {', '.join(map(repr, _INPUTS))}; got {input!r}")


def _shorten(text: str, size: int = 200) -> str:
    return text if len(text) <= size else text[:size] + "..."


def read_answer(line: str):
    """The value of one answer line: a float (NaN: undefined) or a :class:`CommandError`
    instance for ``{"error": ...}``; ProtocolError for anything else.

    Examples
    --------
    >>> from propstab.testing._command import read_answer
    >>> read_answer("0.5"), read_answer("null"), read_answer('"NA"'), read_answer("[0.25]")
    (0.5, nan, nan, 0.25)
    >>> read_answer('{"error": "p must be positive"}')
    CommandError('p must be positive')
    >>> try:
    ...     read_answer("[1] 0.5")
    ... except ProtocolError as error:
    ...     print(str(error).rsplit(": ", 1)[1])
    '[1] 0.5'
    """

    def wrong(why=""):
        raise ProtocolError(
            f"the command wrote a line that is not a JSON answer (a number, "
            f'null or {{"error": "..."}}){why}: {_shorten(line)!r}'
        )

    try:
        value = json.loads(line)
    except ValueError:
        wrong()
    if isinstance(value, list) and len(value) == 1:  # jsonlite without auto_unbox
        value = value[0]
    if value is None or (isinstance(value, str) and value in _UNDEFINED_STRINGS):
        return math.nan
    if isinstance(value, bool):
        wrong(" (a boolean)")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dict) and set(value) == {"error"}:
        message = value["error"]
        if isinstance(message, list) and len(message) == 1:
            message = message[0]
        return CommandError(str(message))
    wrong()


class Command:
    """A measure computed by a command in any language, speaking the JSON-lines protocol:
    made by :func:`propstab.testing.command`, whose parameters it takes.

    Parameters
    ----------
    command, timeout, input, base, cwd, env, name, like, **declaration
        As for :func:`propstab.testing.command`.

    See Also
    --------
    propstab.testing.command : Makes one, and documents the protocol.
    propstab.testing.assert_agrees : Checks it against propstab's measure.

    References
    ----------
    JSON Lines, https://jsonlines.org (one JSON value per line); ECMA-404, The JSON Data
    Interchange Syntax, 2nd ed. (2017).

    Examples
    --------
    >>> import sys
    >>> from propstab.testing import Command
    >>> echo = "import sys; [print(len(line), flush=True) for line in sys.stdin]"
    >>> with Command([sys.executable, "-c", echo]) as length:     # the request line's length
    ...     length([[1]]), length.requests
    (28.0, 1)
    """

    def __init__(
        self,
        command: Union[str, Sequence[str]],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        input: str = "matrix",
        base: int = 0,
        cwd=None,
        env=None,
        name: Optional[str] = None,
        like: Optional[str] = None,
        **declaration,
    ):
        if isinstance(command, str):
            argv = shlex.split(command)
        elif isinstance(command, Sequence) and all(isinstance(a, str) for a in command):
            argv = list(command)
        else:
            fail(
                f"command: must be a command line (str) or a sequence of str; got "
                f"{type(command).__name__} {command!r}",
                TypeError,
            )
        if not argv:
            fail("command: must not be empty; got an empty command line")
        if (
            isinstance(timeout, bool)
            or not isinstance(timeout, (int, float))
            or not (timeout > 0 and math.isfinite(timeout))
        ):
            fail(f"timeout: must be a positive number of seconds; got {timeout!r}")
        if input not in _INPUTS:
            fail(f"input: must be one of {', '.join(map(repr, _INPUTS))}; got {input!r}")
        if isinstance(base, bool) or base not in (0, 1):
            fail(f"base: must be 0 or 1; got {base!r}")
        self.argv = argv
        self.line = command if isinstance(command, str) else shlex.join(argv)
        self.timeout = float(timeout)
        self.form, self.base = input, int(base)
        self.cwd, self.env = cwd, env
        script = next((a for a in argv[1:] if os.path.isfile(a)), argv[0])
        self.__name__ = name or os.path.basename(script)
        if like is not None:  # a registered measure's declaration
            import dataclasses
            from ..registry._registry import lookup

            adopted = lookup(like, argument="like").declaration
            declaration = {
                **{f.name: getattr(adopted, f.name) for f in dataclasses.fields(adopted)},
                **declaration,
            }
            declaration["claims"] = dict(declaration["claims"])
        for key, value in declaration.items():  # claims, lower, upper... for the audit
            setattr(self, key, value)
        self._process: Optional[subprocess.Popen] = None
        self._pid = None
        self._stderr = None
        self._buffer = b""
        self._lock = threading.Lock()
        self.requests = 0
        self.broken: Optional[ProtocolError] = None
        _LIVE.add(self)

    def __repr__(self) -> str:
        return f"command({self.line!r})"

    # ------------------------------------------------------------------ the process
    def _start(self) -> None:
        if self._stderr is not None:  # a restart: the previous process's file first
            self._stderr.close()
        self._stderr = tempfile.TemporaryFile()
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                cwd=self.cwd,
                env=self.env,
                bufsize=0,
            )
        except OSError as exc:
            self._stderr.close()
            self._stderr = None
            fail(f"command: cannot start {self.line!r}: {exc.strerror or exc}")
        self._pid, self._buffer = os.getpid(), b""

    def _stderr_tail(self, size: int = 400) -> str:
        if self._stderr is None:
            return ""
        try:
            self._stderr.seek(0, os.SEEK_END)
            end = self._stderr.tell()
            self._stderr.seek(max(0, end - size))
            text = self._stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""
        return (
            f"; its standard error ends with: {' | '.join(text.splitlines()[-5:])}" if text else ""
        )

    def _broken(self, message: str) -> ProtocolError:
        error = ProtocolError(f"command {self.line!r}: {message}{self._stderr_tail()}")
        self.close()
        self.broken = error
        return error

    def _readline(self, deadline: float) -> str:
        fd = self._process.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise self._broken(f"no answer within {self.timeout:g} s (timeout=)")
                chunk = os.read(fd, 65536)
                if not chunk:
                    code = self._process.poll()
                    if code is None:
                        code = self._process.wait(timeout=5)
                    tail = self._buffer.decode("utf-8", "replace").strip()
                    raise self._broken(
                        f"exited (status {code}) before answering"
                        + (f"; its last output line: {_shorten(tail)!r}" if tail else "")
                    )
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").strip()

    def request(self, message: Mapping[str, Any]):
        """Send one request; its answer (a float, NaN: undefined, or a CommandError
        instance for ``{"error": ...}``)."""
        with self._lock:
            if self.broken is not None:
                raise self.broken
            if self._process is None or self._pid != os.getpid():
                self._start()
            deadline = time.monotonic() + self.timeout
            data = (json.dumps(message, allow_nan=False) + "\n").encode()
            try:
                self._process.stdin.write(data)
                self._process.stdin.flush()
            except (BrokenPipeError, OSError):
                raise self._broken("closed its standard input (it exited?)") from None
            line = self._readline(deadline)
            while not line:  # blank lines are ignored
                line = self._readline(deadline)
            self.requests += 1
            try:
                return read_answer(line)
            except ProtocolError as exc:
                raise self._broken(f"request {self.requests}: {exc}") from None

    def __call__(self, Z, **options) -> float:
        """The value on the selection matrix ``Z`` (sent in this command's ``input``
        form): a float, NaN where undefined; :class:`CommandError` for an error answer.
        """
        value = self.request(payload(np.asarray(Z), options, input=self.form, base=self.base))
        if isinstance(value, CommandError):
            raise value
        return value

    def close(self) -> None:
        """End the process: close its standard input, wait a second, then kill it."""
        process, self._process = self._process, None
        if process is not None and self._pid == os.getpid():
            try:
                process.stdin.close()
            except OSError:
                pass
            try:
                process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            process.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def __enter__(self) -> "Command":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutting down
            pass


@atexit.register
def _close_all() -> None:
    for cmd in list(_LIVE):
        cmd.close()


def command(
    command: Union[str, Sequence[str]],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    input: str = "matrix",
    base: int = 0,
    cwd=None,
    env=None,
    name: Optional[str] = None,
    like: Optional[str] = None,
    **declaration,
) -> Command:
    """A measure implemented in any language: a command speaking propstab's JSON-lines
    protocol, run as one long-running process for all examples.

    Parameters
    ----------
    command : str or sequence of str
        The command line (split as a shell would, without running a shell), e.g.
        ``"Rscript my_measure.R"``, or its arguments.
    timeout : float, default 60
        Seconds the command may take to answer one request (its start included); past
        it the process is killed and :class:`ProtocolError` raised.
    input : {"matrix", "sets", "frequencies"}, default "matrix"
        The form of the requests sent by calling the command as ``f(Z, **options)``
        (:func:`propstab.audit`); :func:`propstab.testing.assert_agrees` takes its own
        ``input``.
    base : {0, 1}, default 0
        The first feature index of ``input="sets"``.
    cwd, env : optional
        The process's working directory and environment (``subprocess.Popen``'s).
    name : str, optional
        The name shown in reports (default: the script's file name).
    like : str, optional
        A registered measure whose declaration (claims, bounds, domain...) the command's
        audit checks (:func:`propstab.audit`); the keywords below override it.
    **declaration
        For :func:`propstab.audit`: the claims and bounds of the implementation
        (``claims``, ``lower``, ``upper``, ``orientation``, ``domain``, ...), as a
        Python function's attributes.

    Returns
    -------
    Command
        A callable ``f(Z, **options) -> float`` and a context manager that ends the
        process.

    Raises
    ------
    ValueError
        An empty command, a non-positive timeout, an unknown ``input`` or ``base``.
    TypeError
        ``command`` neither a str nor a sequence of str.

    See Also
    --------
    propstab.testing.assert_agrees : Checks the command against propstab's measure.
    propstab.audit : Checks its declared properties.

    References
    ----------
    JSON Lines, https://jsonlines.org (one JSON value per line); ECMA-404, The JSON Data
    Interchange Syntax, 2nd ed. (2017).

    Notes
    -----
    The protocol is in this module's docstring and on the page "Check your
    implementation": one JSON object per line in, one JSON value per line out (a number,
    ``null`` for undefined, ``{"error": "..."}``). The process starts at the first
    request; a process forked with the caller starts its own.

    Examples
    --------
    >>> import sys
    >>> from propstab.testing import command
    >>> script = ("import json, sys\\n"
    ...           "for line in sys.stdin:\\n"
    ...           "    Z = json.loads(line)['Z']\\n"
    ...           "    print(sum(map(sum, Z)) / (len(Z) * len(Z[0])), flush=True)\\n")
    >>> with command([sys.executable, "-c", script]) as mean:
    ...     mean([[1, 0], [1, 1]])
    0.75
    """
    return Command(
        command,
        timeout=timeout,
        input=input,
        base=base,
        cwd=cwd,
        env=env,
        name=name,
        like=like,
        **declaration,
    )
