"""Checkpoints: the finished tasks of a long call kept in a directory, so that the call run
again after an interruption (Ctrl-C, a lost worker, a killed job) runs only the others
and returns exactly the uninterrupted result.

One module for every entry point that takes ``checkpoint=`` (:func:`propstab.resample`,
:func:`propstab.assess`, :class:`propstab.StabilitySelection`,
:class:`propstab.StabilityGridSearch`):

- the argument's rule (:func:`check_checkpoint`, declared as :data:`CHECKPOINT`): a
  non-empty path of a directory that exists or can be created, and can be written;
- a directory holds one call: ``manifest.json`` holds the call's fingerprint (the data's
  hashes, the selector, the scheme, the seed, propstab's version); another call's
  directory is refused, naming what differs;
- each task's output is one file, ``task-<key>.npz``, written atomically (a temporary
  file in the directory, flushed and ``fsync``-ed, then renamed over the old one), so a
  process killed at any instant leaves either the old state or the new;
- the format never executes code when read: a NumPy ``.npz`` archive read with
  ``np.load(allow_pickle=False)`` holding the task's arrays and a JSON header (format
  name and version, the call's fingerprint, the task's key and the digest of the task's
  own arguments: its resample and seed) that describes the output's structure. Nothing
  is unpickled;
- the one rule for a task file that cannot be used (unreadable, truncated, empty, of
  another format or version, of another call or of another task): its task is run
  again, with a :class:`~propstab.CheckpointWarning` naming ``checkpoint`` and the file,
  and the file is rewritten. A manifest that cannot be read is refused (the directory
  may be someone else's), naming ``checkpoint`` and the file.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import stat
import tempfile
from numbers import Integral, Real
from typing import Dict, Mapping, Optional, Sequence

import numpy as np

from .checks import fail, shown
from .exceptions import CheckpointWarning, warn
from .params import Checked

__all__ = [
    "CHECKPOINT",
    "FORMAT",
    "VERSION",
    "Checkpoint",
    "check_checkpoint",
    "check_checkpoint_seed",
    "data_hash",
    "described",
    "make_directory",
    "task_digest",
]

#: The name and version of the task files' format (in every file's header and in the
#: manifest: a directory of another version is another call's).
FORMAT = "propstab-checkpoint"
VERSION = 2


def check_checkpoint(name: str, value, function=None) -> str:
    """``checkpoint=``: a non-empty path (str or ``os.PathLike``) of a directory that
    exists, or whose nearest existing parent is a directory, and that is writable;
    returned as a str. Whether it can really be created and written is seen when it is
    opened (:class:`Checkpoint`), with the same kind of message.

    >>> check_checkpoint("checkpoint", "")
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: checkpoint: must be a non-empty directory path; got ''
    >>> import os
    >>> check_checkpoint("checkpoint", os.devnull)
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: checkpoint: must be a directory ... which is a file
    """
    if not isinstance(value, (str, os.PathLike)):
        fail(
            f"{name}: must be a directory path (str or os.PathLike); got {shown(value)}",
            TypeError,
            function=function,
        )
    path = os.fspath(value)
    if not isinstance(path, str):
        fail(
            f"{name}: must be a directory path given as text (str or os.PathLike of "
            f"str); got {shown(value)}",
            TypeError,
            function=function,
        )
    if not path.strip():
        fail(f"{name}: must be a non-empty directory path; got {path!r}", function=function)
    if "\0" in path:
        fail(f"{name}: a path cannot hold a NUL character; got {path!r}", function=function)
    if os.path.exists(path):
        if not os.path.isdir(path):
            fail(
                f"{name}: must be a directory (created if missing); got {path!r}, which is "
                f"a file",
                function=function,
            )
        if not os.access(path, os.W_OK | os.X_OK):
            fail(f"{name}: the directory {path!r} is not writable", function=function)
        return path
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        fail(
            f"{name}: the directory {path!r} cannot be created: {parent!r} is a file",
            function=function,
        )
    if not os.access(parent, os.W_OK | os.X_OK):
        fail(
            f"{name}: the directory {path!r} cannot be created: {parent!r} is not " f"writable",
            function=function,
        )
    return path


#: The declared rule of ``checkpoint=`` (resample, assess, StabilitySelection,
#: StabilityGridSearch).
CHECKPOINT = [
    Checked(
        check_checkpoint,
        "a path of a directory that can be created and written",
        invalid=("", " ", 5, b"dir", os.devnull, os.path.join(os.devnull, "sub")),
    ),
    None,
]


def check_checkpoint_seed(checkpoint, random_state, draws: str, function=None) -> None:
    """A checkpoint needs a fixed ``random_state``: rerun, the call must draw the same
    ``draws`` (resamples, subsamples) to resume.

    >>> check_checkpoint_seed("ckpt", None, "resamples")
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: checkpoint: needs a fixed random_state ...
    """
    if checkpoint is not None and random_state is None:
        fail(
            f"checkpoint: needs a fixed random_state (an int or a SeedSequence), so that "
            f"the call run again draws the same {draws}; got random_state=None",
            function=function,
        )


def data_hash(value) -> str:
    """A content hash (SHA-256, hex) of a data argument: an ndarray (dtype, shape and
    bytes), a scipy sparse matrix (its CSR arrays), a pandas object (its values and
    labels), None, or anything picklable (pickled to be hashed, never unpickled).

    >>> import numpy as np
    >>> data_hash(np.arange(3)) == data_hash(np.arange(3)), data_hash(None)[:8]
    (True, 'dc937b59')
    """
    h = hashlib.sha256()
    if value is None:
        h.update(b"None")
    elif hasattr(value, "tocsr") and hasattr(value, "nnz"):
        m = value.tocsr()
        h.update(repr((m.shape, str(m.dtype))).encode())
        for part in (m.data, m.indices, m.indptr):
            h.update(np.ascontiguousarray(part).tobytes())
    elif hasattr(value, "iloc"):
        import pandas as pd

        h.update(pickle.dumps(list(getattr(value, "columns", [getattr(value, "name", None)]))))
        h.update(pd.util.hash_pandas_object(value, index=True).to_numpy().tobytes())
    elif isinstance(value, np.ndarray) and value.dtype != object:
        h.update(repr((value.shape, str(value.dtype))).encode())
        h.update(np.ascontiguousarray(value).tobytes())
    else:
        h.update(pickle.dumps(value))
    return h.hexdigest()


def described(value) -> str:
    """A stable text of an argument for a checkpoint's fingerprint: an estimator's class
    and parameters, a function's qualified name, else its repr; memory addresses
    removed.

    >>> described(len), described([1, 2])
    ('builtins.len', '[1, 2]')
    """
    if hasattr(value, "get_params"):
        params = sorted(value.get_params(deep=False).items())
        text = (
            f"{type(value).__qualname__}("
            + ", ".join(f"{k}={described(v)}" for k, v in params)
            + ")"
        )
    elif callable(value) and hasattr(value, "__qualname__"):
        text = f"{getattr(value, '__module__', '')}.{value.__qualname__}"
    else:
        text = repr(value)
    return re.sub(r" at 0x[0-9a-fA-F]+", "", text)


def task_digest(*parts) -> str:
    """The digest (SHA-256, hex) of a task's own arguments (index arrays, seeds): stored
    in its file, so that a file is used only for the very task that wrote it.

    >>> import numpy as np
    >>> task_digest(np.arange(3), 7) == task_digest(np.arange(3), 7)
    True
    >>> task_digest(np.arange(3), 7) == task_digest(np.arange(3), 8)
    False
    """
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, np.ndarray):
            h.update(repr((part.shape, str(part.dtype))).encode())
            h.update(np.ascontiguousarray(part).tobytes())
        else:
            h.update(repr(part).encode())
        h.update(b";")
    return h.hexdigest()


# ----------------------------------------------------------------------------------
# a task's output as arrays plus a JSON tree


class _Unusable(Exception):
    """Why a task file is not used (the text of the warning)."""


def _encode(value, arrays: list):
    """``value`` as a JSON tree, its arrays appended to ``arrays`` (referred to by
    position). Only data: None, booleans, numbers, text, arrays of a non-object dtype,
    tuples, lists and dicts of text keys."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real):
        return float(value)
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise RuntimeError(f"checkpoint: cannot store an array of dtype {value.dtype}")
        arrays.append(value)
        return {"array": len(arrays) - 1}
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [_encode(v, arrays) for v in value]}
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        return {"dict": {k: _encode(v, arrays) for k, v in value.items()}}
    raise RuntimeError(
        f"checkpoint: cannot store a task output of type " f"{type(value).__name__}"
    )  # a task of propstab's returns data


def _decode(tree, arrays: Mapping[str, np.ndarray]):
    """The inverse of :func:`_encode` (:class:`_Unusable` for a tree it does not write)."""
    if tree is None or isinstance(tree, (bool, int, float, str)):
        return tree
    if isinstance(tree, dict) and len(tree) == 1:
        ((kind, content),) = tree.items()
        if kind == "array" and isinstance(content, int) and not isinstance(content, bool):
            return arrays[f"a{content}"]
        if kind in ("tuple", "list") and isinstance(content, list):
            items = [_decode(v, arrays) for v in content]
            return tuple(items) if kind == "tuple" else items
        if kind == "dict" and isinstance(content, dict):
            return {k: _decode(v, arrays) for k, v in content.items()}
    raise _Unusable(f"cannot be read (an unknown entry {str(tree)[:40]!r})")


def make_directory(path: str, *, argument: str = "checkpoint", function=None) -> str:
    """Create the directory ``path`` (checked by :func:`check_checkpoint`) if missing; an
    error of the file system refused naming ``argument`` and the path."""
    path = check_checkpoint(argument, path, function)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        fail(
            f"{argument}: the directory {path!r} cannot be created ({exc.strerror or exc})",
            function=function,
        )
    return path


class Checkpoint:
    """A directory holding the finished tasks of one call (see the module's text for the
    format and the rule for files that cannot be used).

    Parameters
    ----------
    directory : str or path
        Created if missing; checked by :func:`check_checkpoint`.
    fingerprint : mapping of str to str
        What the call's result depends on (arguments, data hashes, seed); propstab's
        version and the format's version are added.
    argument : str
        The user's argument named in errors and warnings.
    function : str, optional
        The public function or class named in errors.

    Examples
    --------
    >>> import tempfile
    >>> from propstab._utils.checkpoint import Checkpoint
    >>> folder = tempfile.mkdtemp()
    >>> cp = Checkpoint(folder, {"n_runs": "10"})
    >>> cp.save(3, (np.array([True, False]), 0.5, None)); cp.load([2, 3])
    {3: (array([ True, False]), 0.5, None)}
    >>> Checkpoint(folder, {"n_runs": "20"})
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: checkpoint: ... n_runs differs (checkpoint: 10, ...
    """

    MANIFEST = "manifest.json"

    def __init__(
        self,
        directory,
        fingerprint: Mapping[str, str],
        *,
        argument: str = "checkpoint",
        function: Optional[str] = None,
    ):
        from .._version import __version__

        self.argument = argument
        self.directory = check_checkpoint(argument, directory, function)
        self.fingerprint = {str(k): str(v) for k, v in fingerprint.items()}
        self.fingerprint.setdefault("propstab version", __version__)
        self.fingerprint.setdefault("checkpoint format", f"{FORMAT} {VERSION}")
        self.digest = hashlib.sha256(
            json.dumps(self.fingerprint, sort_keys=True).encode()
        ).hexdigest()
        make_directory(self.directory, argument=argument, function=function)
        manifest = os.path.join(self.directory, self.MANIFEST)
        if os.path.lexists(manifest):
            stored = self._manifest(manifest, function)
            differ = [
                k
                for k in sorted(set(stored) | set(self.fingerprint))
                if stored.get(k) != self.fingerprint.get(k)
            ]
            if differ:
                fail(
                    f"{argument}: {self.directory!r} holds the runs of another call: "
                    + "; ".join(
                        f"{k} differs " f"({_difference(stored.get(k), self.fingerprint.get(k))})"
                        for k in differ
                    )
                    + "; use another directory, or delete this one to start again",
                    function=function,
                )
            data = None  # only checked to be writable
        else:
            data = json.dumps(self.fingerprint, indent=1, sort_keys=True).encode()
        try:
            if data is None:
                fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-")
                os.close(fd)
                os.unlink(tmp)
            else:
                self._write(self.MANIFEST, lambda f: f.write(data))
        except OSError as exc:
            fail(
                f"{argument}: the directory {self.directory!r} is not writable "
                f"({exc.strerror or exc})",
                function=function,
            )

    def _manifest(self, path: str, function) -> dict:
        """The stored fingerprint; a manifest that is not one is refused."""
        try:
            with open(path, "rb") as f:
                stored = json.loads(f.read(1 << 20).decode("utf-8"))
            if not (isinstance(stored, dict) and all(isinstance(v, str) for v in stored.values())):
                raise _Unusable("not a mapping of names to texts")
        except (OSError, ValueError, _Unusable) as exc:
            why = str(exc) if isinstance(exc, _Unusable) else f"{type(exc).__name__}: {exc}"
            fail(
                f"{self.argument}: {path!r} is not the manifest of a propstab checkpoint "
                f"({why}); use another directory, or delete this one to start again"
            )
        return stored

    def __getstate__(self):
        return {
            "argument": self.argument,
            "directory": self.directory,
            "fingerprint": self.fingerprint,
            "digest": self.digest,
        }

    def __setstate__(self, state):
        self.__dict__.update(state)

    def _write(self, name: str, write) -> None:
        """``write(file)`` into a temporary file of the directory, flushed and synced,
        then renamed to ``name`` (atomic: a reader sees the old file or the new)."""
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                write(f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, os.path.join(self.directory, name))
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        try:  # the rename itself, durable
            dir_fd = os.open(self.directory, os.O_RDONLY)
        except OSError:  # pragma: no cover - not on every platform
            return
        try:
            os.fsync(dir_fd)
        except OSError:  # pragma: no cover
            pass
        finally:
            os.close(dir_fd)

    @staticmethod
    def _name(key) -> str:
        return f"task-{key}.npz"

    def path(self, key) -> str:
        """The file of the task ``key``."""
        return os.path.join(self.directory, self._name(key))

    def save(self, key, value, tag: Optional[str] = None) -> None:
        """Write one task's output (atomically); ``tag``: the digest of the task's own
        arguments (:func:`task_digest`)."""
        arrays: list = []
        header = {
            "format": FORMAT,
            "version": VERSION,
            "fingerprint": self.digest,
            "key": key,
            "task": tag,
            "value": _encode(value, arrays),
        }
        payload = {"header": np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8)}
        payload.update((f"a{i}", np.asarray(a)) for i, a in enumerate(arrays))
        self._write(
            self._name(key),
            lambda f: np.savez(f, allow_pickle=False, **payload)
            if _SAVEZ_TAKES_ALLOW_PICKLE
            else np.savez(f, **payload),
        )

    def load(self, keys, tags: Optional[Sequence[Optional[str]]] = None) -> Dict:
        """The outputs of the finished tasks among ``keys`` (``tags``: their digests).
        A file that cannot be used is left out with a :class:`CheckpointWarning`."""
        tags = [None] * len(keys) if tags is None else list(tags)
        found = {}
        for key, tag in zip(keys, tags):
            path = self.path(key)
            if not os.path.lexists(path):
                continue
            if os.path.isdir(path) and not os.path.islink(path):
                fail(
                    f"{self.argument}: {path!r} is a directory where a task file belongs, and "
                    f"cannot be replaced by the task's output; remove it"
                )
            try:
                try:
                    mode = os.stat(path).st_mode
                except OSError as exc:  # a dangling link
                    raise _Unusable(f"cannot be read ({type(exc).__name__})") from None
                if not stat.S_ISREG(mode):  # a FIFO would block reading
                    raise _Unusable("is not a regular file")
                found[key] = self._read(path, key, tag)
            except _Unusable as why:
                warn(
                    f"{self.argument}: the task file {path!r} {why}; its task is run again "
                    f"and the file rewritten",
                    CheckpointWarning,
                )
        return found

    def _read(self, path: str, key, tag):
        try:  # opened here and closed here: np.load leaves a file it opened open when it
            # is a zip archive that cannot be read (a truncated task file: BadZipFile)
            with open(path, "rb") as handle, np.load(handle, allow_pickle=False) as archive:
                if "header" not in archive.files:
                    raise _Unusable("is not a propstab checkpoint file (no header)")
                header = json.loads(archive["header"].tobytes().decode("utf-8"))
                if not isinstance(header, dict) or header.get("format") != FORMAT:
                    raise _Unusable("is not a propstab checkpoint file (another format)")
                if header.get("version") != VERSION:
                    raise _Unusable(
                        f"has the format version {header.get('version')!r}, " f"not {VERSION}"
                    )
                if header.get("fingerprint") != self.digest:
                    raise _Unusable("was written by another call (its fingerprint differs)")
                if header.get("key") != key:
                    raise _Unusable(f"holds the task {header.get('key')!r}, not {key!r}")
                if header.get("task") != tag:
                    raise _Unusable(f"holds another resample or seed for the task {key!r}")
                arrays = {name: archive[name] for name in archive.files if name != "header"}
                return _decode(header.get("value"), arrays)
        except _Unusable:
            raise
        except Exception as exc:  # noqa: BLE001 - any unreadable file, by the one rule
            text = str(exc).splitlines()[0][:120] if str(exc) else ""
            raise _Unusable(
                f"cannot be read ({type(exc).__name__}" + (f": {text})" if text else ")")
            ) from None


def _savez_takes_allow_pickle() -> bool:
    import inspect

    try:
        return "allow_pickle" in inspect.signature(np.savez).parameters
    except (TypeError, ValueError):  # pragma: no cover
        return False


_SAVEZ_TAKES_ALLOW_PICKLE = _savez_takes_allow_pickle()


def _difference(old, new) -> str:
    """Two texts of a fingerprint shown where they differ (hashes shortened, long texts
    cut around the first difference)."""
    if old is None or new is None:
        return f"checkpoint: {_cut(old, 0)}, this call: {_cut(new, 0)}"
    first = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    return f"checkpoint: {_cut(old, first)}, this call: {_cut(new, first)}"


def _cut(text, first: int) -> str:
    if text is None:
        return "absent"
    if len(text) == 64 and all(c in "0123456789abcdef" for c in text):
        return f"content hash {text[:12]}"
    if len(text) <= 60:
        return text
    start = max(0, first - 20)
    return (
        ("..." if start else "")
        + text[start : start + 50]
        + ("..." if start + 50 < len(text) else "")
    )
