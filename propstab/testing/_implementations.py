"""The implementation under test (:func:`propstab.testing.assert_agrees`): called on a
case in the user's input form (a Python function, an R function through rpy2, or a
command speaking the JSON-lines protocol), its answer read as a value, undefined or an
error, and the line of code (Python, R or shell) that reproduces a case."""
from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any, Mapping, Optional

import numpy as np

from .._utils.checks import fail
from ._command import Command, CommandError, payload

__all__ = [
    "CommandImplementation",
    "Implementation",
    "RImplementation",
    "Side",
    "as_side",
    "r_value",
]


@dataclasses.dataclass(frozen=True)
class Side:
    """One side's answer on a case: ``state`` is ``"value"``, ``"undefined"`` or
    ``"error"`` (``"invalid"`` for the reference refusing the input)."""

    state: str
    value: float = math.nan
    message: str = ""

    def text(self) -> str:
        if self.state == "value":
            return repr(self.value)
        if self.state == "undefined":
            return "undefined (NaN)" + (f": {self.message}" if self.message else "")
        return f"{'invalid input' if self.state == 'invalid' else 'error'}: {self.message}"


def as_side(value) -> Side:
    if isinstance(value, CommandError):
        return Side("error", message=str(value))
    if value is None:
        return Side("undefined")
    if isinstance(value, (bool, np.bool_)):
        return Side("error", message=f"returned {value!r}, not a number")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return Side(
            "error", message=f"returned {type(value).__name__} {value!r}, not a " f"number"
        )
    if arr.size != 1:
        return Side("error", message=f"returned {arr.size} values, not one number")
    x = float(arr.reshape(()))
    return Side("undefined") if math.isnan(x) else Side("value", x)


class Implementation:
    """The implementation under test, called on a case in the user's input form (a
    Python function, an R function through rpy2, or a :class:`Command`)."""

    def __init__(
        self, f, input: str, base: int, name: Optional[str], language: str, arrays: bool = False
    ):
        self.f, self.input, self.base, self.arrays = f, input, base, arrays
        self.language = language
        self.name = name or getattr(f, "__name__", None) or "f"
        if language != "command" and not self.name.isidentifier():
            self.name = "f"

    @classmethod
    def of(
        cls,
        f,
        input: Optional[str],
        base: Optional[int],
        name: Optional[str] = None,
        language: Optional[str] = None,
    ) -> "Implementation":
        if isinstance(f, Command):
            return CommandImplementation(
                f, input or f.form, f.base if base is None else base, name or f.__name__, "command"
            )
        if is_rpy2_function(f):
            return RImplementation(f, input or "matrix", base or 0, name, "R")
        if not callable(f):
            fail(
                f"f: must be a callable, an R function (rpy2) or "
                f"propstab.testing.command(...); got {type(f).__name__} {f!r}",
                TypeError,
            )
        return cls(
            f, input or "matrix", base or 0, name, language or "Python", arrays=language == "R"
        )

    def arguments(self, Z: np.ndarray, flawed: bool = False) -> tuple:
        """The case in the implementation's form; ``flawed``: made invalid (an entry 2 in
        the matrix, or the first run also selecting the index ``n_features + base``)."""
        if self.input == "matrix":
            A = Z.astype(np.int64) if Z.dtype == bool else Z.copy()
            if flawed:
                A[0, 0] = 2
            return (A,)
        if self.input == "sets":
            sets = [np.flatnonzero(row) + self.base for row in Z]
            if flawed:
                sets[0] = np.append(sets[0], Z.shape[1] + self.base)
            return (
                [s.astype(np.int64) if self.arrays else s.tolist() for s in sets],
                int(Z.shape[1]),
            )
        return Z.sum(axis=0).astype(np.int64), int(Z.shape[0])

    def reference_input(self, Z: np.ndarray, flawed: bool):
        """What propstab's measure is called on: Z, or the flawed input as propstab
        reads it (raising InvalidParameterError, as it refuses it)."""
        if not flawed:
            return Z
        if self.input == "sets":
            from ..strategies import matrix_from_rows

            sets, d = self.arguments(Z, True)
            return matrix_from_rows([list(map(int, s)) for s in sets], d, base=self.base)
        return self.arguments(Z, True)[0]

    def side(self, Z: np.ndarray, options: Mapping[str, Any], flawed: bool = False) -> Side:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                value = self.f(*self.arguments(Z, flawed), **options)
            except Exception as exc:  # the user's error: compared, not raised
                return Side(
                    "error", message=f"{type(exc).__name__}: " f"{' '.join(str(exc).split())}"
                )
        return as_side(value)

    # the line that reproduces the case
    def code(
        self, Z: np.ndarray, options: Mapping[str, Any], measure: str, flawed: bool = False
    ) -> str:
        if self.language == "R":
            return r_code(
                self.name,
                self.arguments(Z, flawed),
                options,
                self.input,
                measure,
                None if flawed else Z,
            )
        args = [py_literal(a) for a in self.arguments(Z, flawed)]
        args += [f"{k}={py_literal(v)}" for k, v in options.items()]
        if flawed and self.input == "sets":
            sets = py_literal(self.arguments(Z, True)[0])
            first = (
                f"propstab.strategies.matrix_from_rows({sets}, {Z.shape[1]}, " f"base={self.base})"
            )
        else:
            first = py_literal(
                self.arguments(Z, True)[0] if flawed else Z.astype(int) if Z.dtype == bool else Z
            )
        ref = ", ".join([first] + [f"{k}={py_literal(v)}" for k, v in options.items()])
        return (
            f"import numpy as np, propstab; print({self.name}({', '.join(args)}), "
            f"propstab.get_measure({measure!r})({ref}))"
        )


class RImplementation(Implementation):
    """An R function through rpy2: the arguments as R vectors, matrices and lists."""

    def side(self, Z, options, flawed=False):
        from rpy2 import robjects as ro
        from rpy2.rinterface_lib.embedded import RRuntimeError

        args = [to_r(a) for a in self.arguments(Z, flawed)]
        try:
            out = self.f(*args, **{k: to_r(v) for k, v in options.items()})
        except RRuntimeError as exc:
            return Side("error", message=" ".join(str(exc).split()))
        if out is ro.NULL or len(out) != 1:
            return Side(
                "error",
                message=f"returned {len(out) if out is not ro.NULL else 0} "
                f"values, not one number",
            )
        x = out[0]
        if x is ro.NA_Logical or x is ro.NA_Real or x is ro.NA_Integer:
            return Side("undefined")
        return as_side(x)


class CommandImplementation(Implementation):
    def request(self, Z, options, flawed):
        message = payload(Z, options, input=self.input, base=self.base)
        if flawed and self.input == "sets":
            message["sets"][0].append(int(Z.shape[1]) + self.base)
        elif flawed:
            message["Z"][0][0] = 2
        return message

    def side(self, Z, options, flawed=False):
        return as_side(self.f.request(self.request(Z, options, flawed)))

    def code(self, Z, options, measure, flawed=False):
        import json
        import shlex

        line = json.dumps(self.request(Z, options, flawed))
        return f"echo {shlex.quote(line)} | {self.f.line}"


def is_rpy2_function(f) -> bool:
    if not type(f).__module__.startswith("rpy2"):
        return False
    from rpy2.robjects.functions import Function

    return isinstance(f, Function)


def to_r(value):
    from rpy2 import robjects as ro

    if isinstance(value, list):  # sets: a list of integer vectors
        return ro.r["list"](*[to_r(np.asarray(v, dtype=np.int64)) for v in value])
    if isinstance(value, np.ndarray):
        if value.ndim == 2:
            flat = value.ravel(order="F")
            vec = (
                ro.IntVector(flat.tolist())
                if value.dtype.kind in "iub"
                else ro.FloatVector(flat.tolist())
            )
            return ro.r["matrix"](vec, nrow=value.shape[0])
        return (
            ro.IntVector(value.tolist())
            if value.dtype.kind in "iub"
            else ro.FloatVector(value.tolist())
        )
    if value is None:
        return ro.NULL
    if isinstance(value, (np.integer, np.floating)):
        return value.item()
    return value


def py_literal(value) -> str:
    if isinstance(value, np.ndarray):
        return f"np.array({value.tolist()!r})"
    return repr(value)


def r_vector(values) -> str:
    values = list(values)
    if not values:
        return "integer(0)"
    if all(float(v).is_integer() for v in values):
        return "c(" + ", ".join(f"{int(v)}L" for v in values) + ")"
    return "c(" + ", ".join(f"{float(v):.17g}" for v in values) + ")"


def r_value(value) -> str:
    if isinstance(value, list):
        return "list(" + ", ".join(r_vector(v) for v in value) + ")"
    if isinstance(value, np.ndarray):
        if value.ndim == 2:
            return "rbind(" + ", ".join(r_vector(r) for r in value.tolist()) + ")"
        return r_vector(value.tolist())
    if value is None:
        return "NULL"
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (int, np.integer)):
        return f"{int(value)}L"
    return f"{float(value):.17g}"


def r_code(name, arguments, options, input, measure, Z) -> str:
    args = [r_value(a) for a in arguments]
    args += [f"{k} = {r_value(v)}" for k, v in options.items()]
    if Z is None:  # a flawed input: propstab refuses it
        return f"{name}({', '.join(args)})"
    features = "list(" + ", ".join(r_vector(np.flatnonzero(r) + 1) for r in Z) + ")"
    ref = (
        f"propstab::stability({features}, p = {Z.shape[1]}L, measure = {r_value(measure)}"
        + "".join(f", {k} = {r_value(v)}" for k, v in options.items())
        + ")"
        if Z.dtype == bool
        else ""
    )
    return f"{name}({', '.join(args)})" + (f"  # propstab: {ref}" if ref else "")
