"""Stored stability baselines: the selections of a pipeline with what produced them.

Part of :mod:`propstab.testing` (the public name ``Baseline`` is imported from there).

A baseline is one ``.npz`` file: the selection matrix (``selection``, M x d, 0/1), the
row indices of each run's training sample when known (``train_indices`` and
``train_offsets``, for pairing a later run on the same resamples), and a JSON document
(``metadata``) with the fingerprints of X and y (SHA-256 of the bytes, shape, dtype),
the selector's parameters, the seed, the measure and its options, and the versions of
propstab, numpy and scikit-learn. Nothing is pickled (``numpy.load(...,
allow_pickle=False)`` reads it).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from typing import Any, Mapping, Optional, Tuple

import numpy as np

from .._utils.checks import fail
from ..registry._registry import get_measure, lookup
from .._utils.results import Result
from .._utils.text import number, summary
from .._data.convert_selection import as_selection

__all__ = [
    "Baseline",
    "BaselineMismatchError",
    "code_digest",
    "fingerprint",
    "selector_changes",
    "selector_description",
    "selector_parameters",
]

FORMAT = 1
#: how to make a baseline again (a failure message gives it)
UPDATE = "pytest --propstab-update-baselines"


class BaselineMismatchError(ValueError):
    """A baseline compared with selections made from other data or under another measure
    (or, with ``strict=True``, by another selector): the message names each field that
    differs.

    A ``ValueError`` (the command line exits with status 2 on it).

    See Also
    --------
    propstab.testing.Baseline.check_compatible : Raises it.

    References
    ----------
    The fingerprints are SHA-256 digests: NIST FIPS 180-4 (2015), Secure Hash Standard.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.testing import Baseline, BaselineMismatchError
    >>> b = Baseline.from_result([[1, 0], [1, 1]], measure="jaccard")
    >>> try:
    ...     b.check_compatible(measure="nogueira")
    ... except BaselineMismatchError as error:
    ...     print(error)
    measure: the baseline is compared under 'jaccard'; got 'nogueira' (a comparison needs
    the data and the measure the baseline was made with; if the change is intended, make the
    baseline again: pytest --propstab-update-baselines)
    """


BaselineMismatchError.__module__ = "propstab.testing"  # its documented home


def fingerprint(a) -> Optional[dict]:
    """The fingerprint of an array-like (X or y): SHA-256 of its bytes, shape and dtype.

    A DataFrame is fingerprinted column by column (names, dtypes and values); an
    object array by the ``repr`` of its items (its bytes are addresses).

    Parameters
    ----------
    a : array-like, DataFrame, Series, sparse matrix or None

    Returns
    -------
    dict or None
        ``{"sha256": ..., "shape": [...], "dtype": ...}``; None for None.

    Raises
    ------
    None
        Any array-like is fingerprinted (an object array by the ``repr`` of its items).

    See Also
    --------
    Baseline.check_compatible : Compares fingerprints.

    References
    ----------
    NIST FIPS 180-4 (2015), Secure Hash Standard (SHA-256).

    Examples
    --------
    >>> f = fingerprint(np.arange(6.0).reshape(3, 2))
    >>> f["shape"], f["dtype"], len(f["sha256"])
    ([3, 2], 'float64', 64)
    >>> f == fingerprint(np.arange(6.0).reshape(3, 2))
    True
    >>> f == fingerprint(np.arange(6).reshape(3, 2))       # the dtype counts
    False
    """
    if a is None:
        return None
    h = hashlib.sha256()
    if hasattr(a, "columns") and hasattr(a, "dtypes"):  # a DataFrame
        for name in a.columns:
            col = a[name].to_numpy()
            h.update(repr(name).encode())
            h.update(str(col.dtype).encode())
            h.update(_bytes(col))
        return {"sha256": h.hexdigest(), "shape": list(a.shape), "dtype": "DataFrame"}
    if hasattr(a, "tocsr"):  # scipy.sparse
        m = a.tocsr()
        m.sort_indices()
        for part in (m.data, m.indices, m.indptr):
            h.update(_bytes(np.asarray(part)))
        return {"sha256": h.hexdigest(), "shape": list(m.shape), "dtype": str(m.dtype)}
    arr = a.to_numpy() if hasattr(a, "to_numpy") else np.asarray(a)
    h.update(_bytes(arr))
    return {"sha256": h.hexdigest(), "shape": list(arr.shape), "dtype": str(arr.dtype)}


def _bytes(arr: np.ndarray) -> bytes:
    if arr.dtype == object:
        return "\x1f".join(map(repr, arr.ravel().tolist())).encode()
    return np.ascontiguousarray(arr).tobytes()


def selector_parameters(selector) -> Optional[str]:
    """The selector as text: ``ClassName(params)`` from ``get_params(deep=True)``
    (sorted, each value's ``repr``), a function's qualified name, or None.

    Parameters
    ----------
    selector : estimator, callable or None

    Returns
    -------
    str or None

    Raises
    ------
    None
        Anything else is described by its ``repr``.

    See Also
    --------
    Baseline.check_compatible : Compares it with the baseline's.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830 (``get_params``).

    Examples
    --------
    >>> def top_two(X, y):
    ...     return [0, 1]
    >>> selector_parameters(top_two)[:30]
    'function top_two (code sha256 '
    """
    described = selector_description(selector)
    if described is None:
        return None
    if "class" in described:
        inner = ", ".join(f"{k}={v}" for k, v in described["params"].items())
        return f"{described['class']}({inner})"
    if "function" in described:
        return f"function {described['function']} (code sha256 {described['code'][:12]})"
    return described["repr"]


def selector_description(selector) -> Optional[dict]:
    """What a baseline records of its selector, to list what changed since:
    ``{"class": name, "params": {name: repr}}`` for an estimator (``get_params(deep=True)``,
    sorted), ``{"function": qualified name, "code": sha256}`` for a function (its source,
    or its bytecode and constants when the source is not available: an edit of the body
    changes it), ``{"repr": ...}`` otherwise; None for None.

    Parameters
    ----------
    selector : estimator, callable or None

    Returns
    -------
    dict or None

    Raises
    ------
    None
        Anything is described (by its ``repr`` at worst).

    See Also
    --------
    Baseline.changes : Lists what changed between two descriptions.

    References
    ----------
    Pedregosa, F. et al. (2011). Scikit-learn: Machine learning in Python. JMLR 12,
    2825-2830 (``get_params``); NIST FIPS 180-4 (2015), SHA-256.

    Examples
    --------
    >>> def top(X, y):
    ...     return [0]
    >>> d = selector_description(top)
    >>> d["function"], len(d["code"])
    ('top', 64)
    """
    if selector is None:
        return None
    if hasattr(selector, "get_params"):
        params = selector.get_params(deep=True)
        return {
            "class": type(selector).__name__,
            "params": {str(k): _short(v) for k, v in sorted(params.items())},
        }
    if callable(selector):
        return {
            "function": getattr(selector, "__qualname__", type(selector).__name__),
            "code": code_digest(selector),
        }
    return {"repr": repr(selector)}


def code_digest(function) -> str:
    """SHA-256 of a function's source (``inspect.getsource``), else of its bytecode,
    constants and names (nested functions included); else of its ``repr``."""
    import inspect

    h = hashlib.sha256()
    target = getattr(function, "func", function)  # a functools.partial
    try:
        h.update(inspect.getsource(target).encode())
        return h.hexdigest()
    except (OSError, TypeError):
        pass
    code = getattr(target, "__code__", None) or getattr(
        getattr(target, "__call__", None), "__code__", None
    )
    if code is None:
        h.update(repr(target).encode())
        return h.hexdigest()
    _update_code(h, code)
    return h.hexdigest()


def _update_code(h, code) -> None:
    h.update(code.co_code)
    h.update(repr(code.co_names).encode())
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            _update_code(h, const)
        else:
            h.update(repr(const).encode())


def selector_changes(before: Optional[dict], now: Optional[dict]) -> list:
    """What changed between two :func:`selector_description` s, one text per change:
    ``"Lasso(alpha: 0.3 -> 0.25)"``, ``"Lasso -> ElasticNet"``, ``"function f: its code
    changed"``.

    Examples
    --------
    >>> a = {"class": "Lasso", "params": {"alpha": "0.3", "max_iter": "1000"}}
    >>> selector_changes(a, {"class": "Lasso", "params": {"alpha": "0.25", "max_iter": "1000"}})
    ['Lasso(alpha: 0.3 -> 0.25)']
    """
    if before is None or now is None or before == now:
        return []
    if "class" in before and "class" in now and before["class"] == now["class"]:
        b, n = before["params"], now["params"]
        moved = [
            f"{k}: {b.get(k, '(none)')} -> {n.get(k, '(none)')}"
            for k in sorted(set(b) | set(n))
            if b.get(k) != n.get(k)
        ]
        return [f"{now['class']}({', '.join(moved)})"] if moved else []
    if "function" in before and "function" in now:
        if before["function"] != now["function"]:
            return [f"function {before['function']} -> {now['function']}"]
        return [
            f"function {now['function']}: its code changed (sha256 "
            f"{before['code'][:12]} -> {now['code'][:12]})"
        ]
    return [f"{_label(before)} -> {_label(now)}"]


def _label(described: dict) -> str:
    if "class" in described:
        return described["class"]
    if "function" in described:
        return f"function {described['function']}"
    return described.get("repr", "?")


def _parsed_selector(text: Optional[str]) -> Optional[dict]:
    """A description from the text of :func:`selector_parameters` (a baseline written
    before descriptions were stored): ``Name(k=v, ...)`` split at its top-level commas."""
    if text is None:
        return None
    if text.startswith("function "):
        return {"repr": text}
    match = re.fullmatch(r"(\w+)\((.*)\)", text, flags=re.S)
    if not match:
        return {"repr": text}
    params, depth, start, body = {}, 0, 0, match.group(2)
    for i, ch in enumerate(body + ","):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            item = body[start:i].strip()
            if "=" in item:
                key, value = item.split("=", 1)
                params[key] = value
            start = i + 1
    return {"class": match.group(1), "params": params}


def _short(value) -> str:
    """An estimator inside the parameters by class name (its own parameters are listed
    under ``<name>__``); anything else by ``repr``, without memory addresses."""
    if hasattr(value, "get_params"):
        return type(value).__name__
    text = repr(value)
    return text if " at 0x" not in text else type(value).__name__


def _seed(random_state) -> Any:
    if random_state is None or isinstance(random_state, (int, np.integer)):
        return None if random_state is None else int(random_state)
    if isinstance(random_state, np.random.SeedSequence):
        return {"entropy": str(random_state.entropy), "spawn_key": list(random_state.spawn_key)}
    return repr(random_state)


def _versions() -> dict:
    from .._version import __version__

    out = {"propstab": __version__, "numpy": np.__version__}
    try:
        import sklearn

        out["sklearn"] = sklearn.__version__
    except ImportError:  # pragma: no cover - scikit-learn is optional
        out["sklearn"] = None
    return out


def _jsonable(options: Mapping[str, Any]) -> dict:
    out = {}
    for k, v in options.items():
        try:
            json.dumps(v)
        except TypeError:
            fail(
                f"{k}: a baseline stores a measure's options as JSON; "
                f"{type(v).__name__} is not (compare matrices' options in "
                f"Python with propstab.two_sample_test)"
            )
        out[k] = v
    return out


def _splits_digest(train_indices) -> Optional[str]:
    if train_indices is None:
        return None
    h = hashlib.sha256()
    for t in train_indices:
        h.update(np.asarray(t, dtype=np.int64).tobytes())
        h.update(b"|")
    return h.hexdigest()


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class Baseline(Result):
    """A pipeline's selections with what produced them, saved beside the tests.

    Parameters
    ----------
    selection : ndarray of bool, shape (M, d)
        The selection matrix Z of the baseline run.
    measure : str, default "nogueira"
        The registered measure the baseline is compared under.
    options : dict, optional
        The measure's options (JSON values).
    feature_names : tuple of str or None, optional
    data : dict, optional
        ``{"X": fingerprint, "y": fingerprint}`` (:func:`fingerprint`; None where not
        given).
    selector : str or None, optional
        :func:`selector_parameters` of the selector.
    seed : int, str, dict or None, optional
        The ``random_state`` the runs were drawn from.
    splits : str or None, optional
        SHA-256 of every run's training rows: two results with equal ``splits`` were run
        on the same resamples (a paired comparison).
    versions : dict, optional
        propstab, numpy and scikit-learn versions that made the baseline.
    train_indices : tuple of ndarray or None, optional
        Each run's training rows.
    selector_params : dict or None, optional
        :func:`selector_description` of the selector: what a comparison lists as changed
        (parameter by parameter, a function by the digest of its code).
    path : str or None, optional
        The file it was read from or written to (not stored in it): failure messages
        name it.
    update : str, optional
        How to make it again (not stored): failure messages give it.

    See Also
    --------
    propstab.testing.assert_not_less_stable : Compares a new run with a baseline.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 3 (the stability of a selector over resamples).

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.testing import Baseline
    >>> X = np.arange(12.0).reshape(4, 3)
    >>> b = Baseline.from_result([[1, 1, 0], [1, 0, 1], [1, 1, 0]], X=X, seed=0)  # Phi = 0
    >>> b
    Baseline(measure='nogueira', n_runs=3, n_features=3, stability=0, data='X')
    >>> b.check_compatible(X=X + 1)
    Traceback (most recent call last):
    ...
    propstab.testing.BaselineMismatchError: X: differs from the data the baseline was made from
    (fingerprint 4 x 3 float64 ...
    """

    selection: np.ndarray
    measure: str = "nogueira"
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    feature_names: Optional[Tuple[str, ...]] = None
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    selector: Optional[str] = None
    seed: Any = None
    splits: Optional[str] = None
    versions: Mapping[str, Any] = dataclasses.field(default_factory=_versions)
    train_indices: Optional[Tuple[np.ndarray, ...]] = None
    selector_params: Optional[Mapping[str, Any]] = None
    path: Optional[str] = None
    update: str = UPDATE

    # ------------------------------------------------------------------ building
    @classmethod
    def from_result(
        cls,
        result,
        *,
        X=None,
        y=None,
        selector=None,
        seed=None,
        measure: str = "nogueira",
        **options,
    ) -> "Baseline":
        """A baseline from a :class:`~propstab.resampling.ResamplingResult` or from
        selections (any form of Z).

        Parameters
        ----------
        result : ResamplingResult, Baseline or selection matrix
        X, y : array-like, optional
            The data the selections were made from (fingerprinted, not stored).
        selector : estimator or callable, optional
            Its parameters are stored (:func:`selector_parameters`).
        seed : int, SeedSequence or None, optional
            The ``random_state`` given to :func:`propstab.resample`.
        measure : str, default "nogueira"
        **options
            The measure's options.

        Returns
        -------
        Baseline
        """
        info = lookup(measure, argument="measure")
        if isinstance(result, Baseline):
            return result
        train = getattr(result, "train_indices", None)
        sel = result.selection if hasattr(result, "train_indices") else as_selection(result)
        Z = np.asarray(sel.toarray(), dtype=bool)
        names = sel.feature_names
        return cls(
            Z,
            info.name,
            _jsonable(options),
            None if names is None else tuple(map(str, names)),
            {"X": fingerprint(X), "y": fingerprint(y)},
            selector_parameters(selector),
            _seed(seed),
            _splits_digest(train),
            _versions(),
            None if train is None else tuple(np.asarray(t) for t in train),
            selector_description(selector),
        )

    # ------------------------------------------------------------------ files
    def save(self, path) -> str:
        """Write the baseline to ``path`` (``.npz`` added when missing); returns the path.

        The directory is created when needed.
        """
        path = os.fspath(path)
        if not path.endswith(".npz"):
            path += ".npz"
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        meta = {
            "format": FORMAT,
            "measure": self.measure,
            "options": dict(self.options),
            "feature_names": None if self.feature_names is None else list(self.feature_names),
            "data": dict(self.data),
            "selector": self.selector,
            "seed": self.seed,
            "splits": self.splits,
            "versions": dict(self.versions),
            "selector_params": (
                None if self.selector_params is None else dict(self.selector_params)
            ),
        }
        arrays = {
            "selection": np.asarray(self.selection, dtype=np.uint8),
            "metadata": np.array(json.dumps(meta, sort_keys=True)),
        }
        if self.train_indices is not None:
            arrays["train_indices"] = np.concatenate(
                [np.asarray(t, dtype=np.int64) for t in self.train_indices]
                or [np.zeros(0, np.int64)]
            )
            arrays["train_offsets"] = np.cumsum([0] + [len(t) for t in self.train_indices])
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)
        object.__setattr__(self, "path", path)
        return path

    @classmethod
    def load(cls, path) -> "Baseline":
        """Read a baseline written by :meth:`save`.

        Raises
        ------
        OSError
            No such file.
        ValueError
            Not a baseline file (or one of a newer format).
        """
        path = os.fspath(path)
        try:  # the file opened and closed here: np.load leaves a truncated archive open
            with open(path, "rb") as handle, np.load(handle, allow_pickle=False) as f:
                arrays = {k: f[k] for k in f.files}
        except FileNotFoundError:
            raise
        except Exception as exc:  # noqa: BLE001 - any unreadable file (BadZipFile, a .npy)
            fail(
                f"{path}: not a baseline file (a .npz written by Baseline.save): "
                f"{type(exc).__name__}: {exc}",
                argument="path",
            )
        if "selection" not in arrays or "metadata" not in arrays:
            fail(
                f"{path}: not a baseline file: it holds "
                f"{', '.join(sorted(arrays)) or 'nothing'}, not selection and "
                f"metadata",
                argument="path",
            )
        meta = json.loads(str(arrays["metadata"]))
        if meta.get("format", 0) > FORMAT:
            fail(
                f"{path}: a baseline of format {meta['format']}, newer than "
                f"this propstab reads ({FORMAT}); upgrade propstab",
                argument="path",
            )
        train = None
        if "train_indices" in arrays:
            off = arrays["train_offsets"]
            train = tuple(arrays["train_indices"][a:b] for a, b in zip(off[:-1], off[1:]))
        names = meta.get("feature_names")
        return cls(
            arrays["selection"].astype(bool),
            meta["measure"],
            meta.get("options", {}),
            None if names is None else tuple(names),
            meta.get("data", {}),
            meta.get("selector"),
            meta.get("seed"),
            meta.get("splits"),
            meta.get("versions", {}),
            train,
            meta.get("selector_params") or _parsed_selector(meta.get("selector")),
            path,
        )

    # ------------------------------------------------------------------ comparing
    def check_compatible(
        self,
        *,
        X=None,
        y=None,
        selector=None,
        measure=None,
        options=None,
        n_features=None,
        strict: bool = False,
    ) -> None:
        """Refuse a comparison that would not judge the pipeline: runs made from other data
        (X, y fingerprints), under another measure or options, or over another number of
        features. Another selector, other parameters or other versions are what a
        regression test judges: they are compared (:meth:`changes` lists them), and
        refused only with ``strict=True``.

        Only what is given is compared (None: not checked).

        Raises
        ------
        BaselineMismatchError
            Naming every field that differs, with both values.
        """
        diffs = []
        for name, value in (("X", X), ("y", y)):
            if value is None:
                continue
            stored, now = self.data.get(name), fingerprint(value)
            if stored is None:
                continue
            if stored != now:
                diffs.append(
                    f"{name}: differs from the data the baseline was made from "
                    f"(fingerprint {_fp(stored)}, now {_fp(now)})"
                )
        if measure is not None:
            name = lookup(measure, argument="measure").name
            if name != self.measure:
                diffs.append(
                    f"measure: the baseline is compared under {self.measure!r}; " f"got {name!r}"
                )
        if options is not None and dict(options) != dict(self.options):
            diffs.append(
                f"options: the baseline's are {dict(self.options)!r}; got " f"{dict(options)!r}"
            )
        if n_features is not None and n_features != self.n_features:
            diffs.append(
                f"n_features: the baseline has {self.n_features} features; got " f"{n_features}"
            )
        if strict:
            diffs += [
                f"selector: {c} (strict=True refuses a changed selector)"
                for c in self.changes(selector, versions=False)
            ]
        if diffs:
            where = f"baseline {self.path}: " if self.path else ""
            raise BaselineMismatchError(
                where + "; ".join(diffs) + " (a comparison needs the data and the measure "
                "the baseline was made with; if the change is intended, make the baseline "
                f"again: {self.update})"
            )

    def changes(self, selector=None, *, versions: bool = True) -> list:
        """What changed since the baseline was made, one text per change: the selector's
        parameters (``"Lasso(alpha: 0.3 -> 0.25)"``), a function's code, and the versions
        of propstab, numpy and scikit-learn (``"sklearn 1.2.1 -> 1.4.0"``).

        Examples
        --------
        >>> from sklearn.linear_model import Lasso
        >>> b = Baseline.from_result([[1, 0], [1, 1]], selector=Lasso(alpha=0.3))
        >>> b.changes(Lasso(alpha=0.25))
        ['Lasso(alpha: 0.3 -> 0.25)']
        """
        out = selector_changes(self.selector_params, selector_description(selector))
        if versions:
            now = _versions()
            out += [
                f"{k} {self.versions.get(k)} -> {now[k]}"
                for k in now
                if self.versions.get(k) is not None and self.versions.get(k) != now[k]
            ]
        return out

    # ------------------------------------------------------------------ reading
    @property
    def n_runs(self) -> int:
        """M, the number of runs of the baseline."""
        return int(self.selection.shape[0])

    @property
    def n_features(self) -> int:
        """d, the number of features."""
        return int(self.selection.shape[1])

    def stability(self) -> float:
        """The baseline's stability under its measure and options."""
        from ..measures._stability import stability

        return stability(self.selection, self.measure, **dict(self.options))

    def data_for(self, measure: str):
        """The selection matrix (what a set measure reads), as a ResamplingResult's."""
        if get_measure(measure).input == "ranking":
            fail(f"measure: {measure!r} reads rankings; a baseline stores " f"selections")
        return self.selection

    def _repr_values(self):
        given = [k for k in ("X", "y") if self.data.get(k) is not None]
        return dict(
            measure=self.measure,
            n_runs=self.n_runs,
            n_features=self.n_features,
            stability=self.stability(),
            data=", ".join(given) or None,
        )

    def summary(self):
        """A few lines: the measure and value, runs, what produced it, versions."""
        rows = [
            (
                "measure",
                f"{self.measure} = {number(self.stability(), fixed=True)}"
                + (f" ({self.options})" if self.options else ""),
            ),
            ("runs x features", f"{self.n_runs} x {self.n_features}"),
            (
                "data",
                ", ".join(f"{k} {_fp(v)}" for k, v in self.data.items() if v is not None)
                or "not fingerprinted",
            ),
            ("selector", self.selector or "not recorded"),
            ("seed", "not recorded" if self.seed is None else str(self.seed)),
            (
                "resamples",
                "recorded (a later run on them is paired)" if self.splits else "not recorded",
            ),
            ("versions", ", ".join(f"{k} {v}" for k, v in self.versions.items())),
        ]
        return summary("Stability baseline", rows)


def _fp(f: Optional[dict]) -> str:
    if f is None:
        return "none"
    shape = " x ".join(map(str, f["shape"]))
    return f"{shape} {f['dtype']} sha256 {f['sha256'][:12]}"
