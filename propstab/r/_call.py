"""Starting R, loading R packages and calling R functions, with errors a user can act on.

rpy2 is imported on first use only. Every failure of the R side surfaces as one
of three exceptions, without rpy2's internal traceback:

- :class:`ImportError` when rpy2 is not installed (``pip install propstab[r]``);
- :class:`~propstab._utils.exceptions.RUnavailableError` (an ``ImportError``) when R
  cannot be found or started, or an R package (or a package it needs) is not
  installed or cannot be loaded, naming what is missing and the exact command;
- :class:`~propstab._utils.exceptions.RReferenceError` when an R function raises an
  error: R's message and the R call that failed.

Environment faults are told apart from R errors: R is first started in a child
process (a broken installation makes R abort the process that embeds it, before any
message of propstab's), a package that does not load is checked for a missing or
outdated dependency, and an R error saying that a package is missing (a package
loaded lazily by the R function, such as stabm's igraph) is a
:class:`~propstab._utils.exceptions.RUnavailableError`, not an R error.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from typing import Any, NamedTuple, Optional

import numpy as np

from .._utils.exceptions import RReferenceError, RUnavailableError, RWarning

__all__ = [
    "RValue",
    "call_r",
    "call_r_code",
    "formals",
    "r_package",
    "r_versions",
    "require_package",
    "robjects",
]

_STATE: dict = {}

# What as_rvalue() reads from an R value, in one R call: 0 one number, 1 NA, 2 NaN,
# 3 anything else (not of length 1, or neither numeric nor logical).
_NUMBER_KIND = """
function(x) {
  if (length(x) != 1L || !(is.numeric(x) || is.logical(x))) 3L
  else if (is.nan(x)) 2L else if (is.na(x)) 1L else 0L
}
"""
_NUMBER_KINDS = ("number", "NA", "NaN", None)

# Runs an R function inside tryCatch so that an error comes back as data (R's
# message and the failing call) instead of an rpy2 exception; warnings are
# collected and re-emitted in Python; messages (e.g. "Loading required namespace")
# are muffled.
_SAFE_CALL = """
function(f, args) {
  warns <- character(0)
  value <- withCallingHandlers(
    tryCatch(do.call(f, args), error = function(e) {
      cl <- conditionCall(e)
      shown <- if (is.null(cl)) "" else paste(deparse(cl, nlines = 4L), collapse = " ")
      structure(list(message = conditionMessage(e), call = shown), class = "propstab_r_error")
    }),
    warning = function(w) {
      warns <<- c(warns, conditionMessage(w))
      invokeRestart("muffleWarning")
    },
    message = function(m) invokeRestart("muffleMessage"))
  list(value = value, warnings = warns, failed = inherits(value, "propstab_r_error"))
}
"""


def _r_home_problem() -> str:
    """Why R cannot be started ('' when it can); checked before rpy2 initialises R,
    because R aborts the whole process when its home is wrong."""
    import logging
    from rpy2 import situation

    log = logging.getLogger("rpy2.situation")  # it logs its failures to stderr
    quiet, propagate = logging.NullHandler(), log.propagate
    log.addHandler(quiet)
    log.propagate = False
    try:
        r_home = situation.get_r_home()
    finally:
        log.removeHandler(quiet)
        log.propagate = propagate
    if not r_home:
        return (
            "R was not found: `R RHOME` failed and R_HOME is not set. Install R "
            "(https://cran.r-project.org, or `apt-get install r-base-core`) and make sure "
            "`R` is on PATH or R_HOME points to it"
        )
    if not os.path.isdir(os.path.join(r_home, "library", "base")):
        return (
            f"R was not found at R_HOME={r_home!r} (no base package under it). Install R "
            "(https://cran.r-project.org) or set R_HOME to the directory printed by "
            "`R RHOME`"
        )
    return ""


#: How a missing or unloadable R package shows in R's messages (either quote style).
_Q = "[\u2018\u2019'\"]"
_PACKAGE_FAULTS = (
    re.compile(f"there is no package called {_Q}([^\u2018\u2019'\"]+){_Q}"),
    re.compile(
        f"namespace {_Q}([^\u2018\u2019'\"]+){_Q} \\S+ is (?:already loaded|being "
        f"loaded), but >= \\S+ is required"
    ),
    re.compile(f"package {_Q}([^\u2018\u2019'\"]+){_Q} was installed before R 4"),
)
# The probe only asks whether the embedded R starts. rpy2's import of rinterface first runs
# a whole Rscript to read the LD_LIBRARY_PATH that R's start-up script would set, used only
# for the children R itself starts later (too late for this process's own R, rpy2 says):
# none in the probe, so it is not asked (one R start, ~0.25 CPU-s, less per process that
# embeds R). A broken R fails initr_simple() just the same.
_PROBE = (
    "import rpy2.situation as s; s.r_ld_library_path_from_subprocess = lambda home: ''; "
    "import rpy2.rinterface as ri; ri.initr_simple()"
)
_PROBE_SECONDS = 120


def missing_r_package(message: str) -> Optional[str]:
    """The R package an R error message says is missing, too old or built for an older R
    (None when the message is about something else).

    >>> from propstab.r._call import missing_r_package
    >>> missing_r_package("there is no package called \u2018igraph\u2019")
    'igraph'
    >>> missing_r_package("Assertion on 'penalty' failed") is None
    True
    """
    for pattern in _PACKAGE_FAULTS:
        found = pattern.search(message)
        if found:
            return found.group(1)
    return None


def _install_command(name: str) -> str:
    return f"Rscript -e 'install.packages(\"{name}\")'"


def _r_start_problem() -> str:
    """Why R cannot be started by rpy2 ('' when it can), found in a child process: a
    broken R installation (a wrong R_HOME, a missing base package, an unreadable
    Renviron) makes R print its own message and end the process that embeds it."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", _PROBE],
            capture_output=True,
            text=True,
            timeout=_PROBE_SECONDS,
            env=os.environ.copy(),
        )
    except subprocess.TimeoutExpired:
        return (
            f"R did not start within {_PROBE_SECONDS} s (rpy2 in a child process); "
            f"check that `R --version` runs, or reinstall R (apt-get install r-base-core)"
        )
    except OSError:  # this Python cannot be started again: no probe
        return ""
    if out.returncode == 0:
        return ""
    lines = [
        line.strip()
        for text in (out.stderr, out.stdout)
        for line in text.splitlines()
        if line.strip() and not line.startswith(("Traceback", "  File "))
    ]
    fatal = [line for line in lines if line.startswith(("Fatal error", "Error"))]
    detail = (fatal or lines or [f"exit status {out.returncode}"])[-1]
    home = os.environ.get("R_HOME") or "from R RHOME"
    return (
        f"R could not be started (R_HOME={home!r}): {detail}. Reinstall R (apt-get "
        f"install r-base-core, or https://cran.r-project.org) or set R_HOME to the "
        f"directory printed by `R RHOME`"
    )


def robjects():
    """The ``rpy2.robjects`` module, R started on first use.

    R is first started in a child process: a broken R installation makes R end the
    process that embeds it, so the fault is found and reported before this process
    embeds R.

    Returns
    -------
    module
        ``rpy2.robjects``, with R running in this process.

    Raises
    ------
    ImportError
        rpy2 is not installed (``pip install propstab[r]``).
    RUnavailableError
        R cannot be found or started; the message says how to install it.

    See Also
    --------
    propstab.r.call_r : Calls an R function with R's errors as Python exceptions.
    propstab.r.r_versions : The versions of R, rpy2 and the R packages.

    References
    ----------
    rpy2 documentation, "R packages" and "Calling functions"
    (https://rpy2.github.io/doc/latest/html/).

    Examples
    --------
    >>> from propstab.r import robjects
    >>> robjects().r("1 + 1")[0]
    2.0
    """
    ro = _STATE.get("robjects")
    if ro is not None:
        return ro
    try:
        import rpy2  # noqa: F401
    except ImportError:
        raise ImportError(
            "the R bridge of propstab needs rpy2, which is not installed; "
            "install it with `pip install propstab[r]`"
        ) from None
    problem = _r_home_problem()
    if not problem and "rpy2.robjects" not in sys.modules:  # R not yet started here
        problem = _r_start_problem()
    if problem:
        raise RUnavailableError(problem, package=None) from None
    try:
        import rpy2.robjects as ro
    except Exception as exc:  # R present but its shared library does not load
        raise RUnavailableError(
            f"R could not be started by rpy2: {type(exc).__name__}: {exc}", package=None
        ) from None
    _STATE["robjects"] = ro
    _STATE["safe_call"] = ro.r(_SAFE_CALL)
    _STATE["number_kind"] = ro.r(_NUMBER_KIND)
    return ro


def base_function(name: str):
    """The base R function ``name`` (e.g. ``"list"``) as an rpy2 function, looked up once.

    rpy2's ``robjects.r[name]`` searches R's environments and wraps the function anew
    (reading its formals) on every use: about 1 ms, more than the call it makes.

    >>> from propstab.r._call import base_function
    >>> base_function("sum")(1.5, 2)[0]
    3.5
    """
    functions = _STATE.setdefault("base", {})
    fn = functions.get(name)
    if fn is None:
        fn = functions[name] = robjects().r[name]
    return fn


def require_package(name: str) -> None:
    """Check that the R package ``name`` is installed (``requireNamespace``), cached.

    A package that is installed but does not load is told apart from a missing one: the
    message then names the missing or outdated dependency.

    Parameters
    ----------
    name : str
        The R package, e.g. ``"stabm"``.

    Returns
    -------
    None
        Returns when the package loads.

    Raises
    ------
    RUnavailableError
        The package is not installed in R, or does not load; the message gives the
        install command (also as the error's ``command``).
    ImportError, RUnavailableError
        From :func:`propstab.r.robjects`: rpy2 or R is missing.

    See Also
    --------
    propstab.r.r_package : The package as an rpy2 object.
    propstab.r.RUnavailableError : The error raised when it is missing.

    References
    ----------
    R Core Team. R: A Language and Environment for Statistical Computing. R Foundation
    for Statistical Computing, Vienna (``?requireNamespace``).

    Examples
    --------
    >>> from propstab.r import require_package
    >>> require_package("stabm")                 # installed: nothing happens
    """
    present = _STATE.setdefault("present", set())
    if name in present:
        return
    ro = robjects()
    if not ro.r["requireNamespace"](name, quietly=True)[0]:
        lib = ", ".join(str(p) for p in ro.r(".libPaths()"))
        if not str(ro.r["system.file"](package=name)[0]):
            command = _install_command(name)
            raise RUnavailableError(
                f"the R package {name!r} is not installed (R library paths: {lib}); "
                f"install it with: {command}",
                package=name,
                command=command,
            ) from None
        why = str(
            ro.r(
                "function(p) tryCatch({loadNamespace(p); ''}, error = function(e) "
                "conditionMessage(e))"
            )(name)[0]
        ).strip()
        needed = missing_r_package(why) or name
        command = _install_command(needed)
        what = (
            f"its dependency {needed!r} is missing or outdated"
            if needed != name
            else "it must be reinstalled"
        )
        raise RUnavailableError(
            f"the R package {name!r} is installed but cannot be loaded: {what} (R: "
            f"{' '.join(why.split())}; R library paths: {lib}); install it with: {command}",
            package=needed,
            command=command,
        ) from None
    present.add(name)


def r_package(name: str):
    """The R package ``name`` as an rpy2 package object (``importr``), cached.

    Parameters
    ----------
    name : str
        The R package, e.g. ``"stabm"``.

    Returns
    -------
    rpy2.robjects.packages.Package
        The package's namespace; its R functions are attributes (dots as underscores).

    Raises
    ------
    RUnavailableError
        The package is not installed in R; the message gives the install command.

    See Also
    --------
    propstab.r.require_package : Checks that the package is installed.
    propstab.r.call_r : Calls a package's function by name.

    References
    ----------
    rpy2 documentation, "R packages" and "Calling functions"
    (https://rpy2.github.io/doc/latest/html/).

    Examples
    --------
    >>> from propstab.r import r_package
    >>> r_package("stabm").__rname__
    'stabm'
    """
    packages = _STATE.setdefault("packages", {})
    if name not in packages:
        require_package(name)
        from rpy2.robjects.packages import importr

        packages[name] = importr(name)
    return packages[name]


def formals(package: str, function: str) -> "tuple[str, ...]":
    """The argument names of the R function ``package::function`` (cached).

    Examples
    --------
    >>> from propstab.r._call import formals
    >>> formals("stabm", "stabilityJaccard")
    ('features', 'p', 'correction.for.chance', 'N', 'impute.na')
    """
    cache = _STATE.setdefault("formals", {})
    key = (package, function)
    if key not in cache:
        require_package(package)
        ro = robjects()
        names = ro.r(f"function() names(formals({package}::`{function}`))")()
        cache[key] = tuple(names) if names is not ro.NULL else ()
    return cache[key]


def _describe(value: Any) -> str:
    """A short R-like rendering of an argument for error messages."""
    ro = _STATE["robjects"]
    if isinstance(value, ro.vectors.ListVector):
        kinds = {type(v).__name__ for v in value}
        return f"<list of {len(value)} {'/'.join(sorted(kinds))}>"
    if isinstance(value, (str, bool, int, float, np.integer, np.floating)):
        return repr(value) if not isinstance(value, bool) else str(value).upper()
    if value is ro.NULL:
        return "NULL"
    try:
        dims = tuple(int(x) for x in ro.r["dim"](value))
    except Exception:  # noqa: BLE001 - any object without dim
        dims = ()
    rclass = "/".join(ro.r["class"](value))
    return f"<{rclass} {'x'.join(map(str, dims))}>" if dims else f"<{rclass}>"


def _quiet_console():
    """R's console output (``cat(file = stderr())`` and the like, e.g. requireNamespace's
    "Failed with error") kept from the terminal during a call: the call's errors and
    warnings come back as data, and a command's failure stays one line."""
    import contextlib
    from rpy2.rinterface_lib import callbacks

    stack = contextlib.ExitStack()
    for name in ("consolewrite_print", "consolewrite_warnerror"):
        stack.enter_context(callbacks.obj_in_module(callbacks, name, lambda text: None))
    return stack


def call_r(package: str, function: str, /, *args, **kwargs):
    """Call ``package::function(*args, **kwargs)`` in R and return the R value.

    Keyword names are R argument names (dots allowed through ``**{...}``). Python
    scalars and strings are converted by rpy2; use :mod:`propstab.r` converters for
    selections and matrices. R warnings are re-emitted as :class:`~propstab.r.RWarning`.

    Parameters
    ----------
    package : str
        The R package, e.g. ``"stabm"`` (``"base"`` for base R).
    function : str
        The function's name in the package.
    *args
        Positional arguments, Python values or R objects.
    **kwargs
        Keyword arguments by R argument name.

    Returns
    -------
    rpy2 R object
        The R value (an R vector for a number: read it with ``[0]``).

    Raises
    ------
    RReferenceError
        The R function raised an error; the message has R's message, the call as
        made from Python and the R call that failed.
    RUnavailableError, ImportError
        R, the package or rpy2 is missing.

    Warns
    -----
    RWarning
        Each warning R raised during the call, prefixed with ``package::function``
        (a :class:`RuntimeWarning` too).

    See Also
    --------
    propstab.r.call_r_code : The same for an R function written as source code.
    propstab.r.call_reference : Calls a measure's R reference from its registry entry.

    References
    ----------
    R Core Team. R: A Language and Environment for Statistical Computing. R Foundation
    for Statistical Computing, Vienna (``?tryCatch``, ``?conditions``).
    rpy2 documentation, "R packages" and "Calling functions"
    (https://rpy2.github.io/doc/latest/html/).

    Examples
    --------
    >>> from propstab.r import call_r
    >>> float(call_r("base", "sum", 1, 2)[0])
    3.0
    """
    functions = _STATE.setdefault("functions", {})
    if (package, function) not in functions:
        require_package(package)  # a clear error when it is not installed
        functions[package, function] = _STATE["robjects"].r(f"{package}::`{function}`")
    return _safe_call(functions[package, function], f"{package}::{function}", args, kwargs)


def call_r_code(code: str, label: str, /, *args, **kwargs):
    """Call the R function written as R source ``code`` (e.g. ``"function(R) ..."``) with
    ``args`` and ``kwargs``, as :func:`call_r` calls a package's function: errors as
    :class:`~propstab.r.RReferenceError` naming ``label``, warnings re-emitted.

    Parameters
    ----------
    code : str
        R source code evaluating to a function, e.g. ``"function(x, y) x * y"``
        (parsed once and cached).
    label : str
        The name the function goes by in error messages and warnings.
    *args
        Positional arguments, Python values or R objects.
    **kwargs
        Keyword arguments by R argument name.

    Returns
    -------
    rpy2 R object
        The R value.

    Raises
    ------
    RReferenceError
        The R function raised an error; the message names ``label``.
    RUnavailableError, ImportError
        R, an R package the code needs, or rpy2 is missing.

    See Also
    --------
    propstab.r.call_r : The same for a package's function.
    propstab.measures.spearman : Its R reference is base R code called this way.

    References
    ----------
    R Core Team. R: A Language and Environment for Statistical Computing. R Foundation
    for Statistical Computing, Vienna (``?tryCatch``, ``?conditions``).

    Examples
    --------
    >>> from propstab.r import call_r_code
    >>> float(call_r_code("function(x, y) x * y", "product", 3, y=4)[0])
    12.0
    """
    ro = robjects()
    functions = _STATE.setdefault("code", {})
    if code not in functions:
        functions[code] = ro.r(code)
    return _safe_call(functions[code], label, args, kwargs)


def _safe_call(fn, label: str, args, kwargs):
    """``fn(*args, **kwargs)`` in R inside tryCatch: the value, or RReferenceError."""
    with _quiet_console():
        out = _STATE["safe_call"](fn, base_function("list")(*args, **kwargs))
    value, warns, failed = out[0], list(out[1]), bool(out[2][0])
    for message in warns:
        warnings.warn(f"{label}: R warning: {message}", RWarning, stacklevel=3)
    if failed:
        r_message = str(value.rx2("message")[0]).strip()
        needed = missing_r_package(r_message)
        if needed is not None:  # an environment fault, not an error of the call
            command = _install_command(needed)
            raise RUnavailableError(
                f"{label} needs the R package {needed!r}, which is missing or "
                f"cannot be loaded (R: {' '.join(r_message.split())}); install it with: "
                f"{command}",
                package=needed,
                command=command,
            ) from None
        r_call = str(value.rx2("call")[0])
        if len(r_call) > 300:
            r_call = r_call[:300] + " ..."
        shown = ", ".join(
            [_describe(a) for a in args] + [f"{k} = {_describe(v)}" for k, v in kwargs.items()]
        )
        made = f"{label}({shown})"
        raise RReferenceError(
            f"R error in {made}: {r_message}"
            + (f"\n  the R call that failed: {r_call}" if r_call else ""),
            r_message=r_message,
            r_call=r_call or made,
        ) from None
    return value


class RValue(NamedTuple):
    """A number returned by R: ``value`` (NaN for NA and NaN) and ``kind``, one of
    ``"number"``, ``"NA"`` (missing) or ``"NaN"`` (not a number).

    R has two kinds of missing number: ``NA`` (a value not available, what stabm returns
    for an undefined measure) and ``NaN`` (the result of an undefined operation such as
    0/0); both read as a Python NaN, and ``kind`` keeps them apart.

    See Also
    --------
    propstab.r.reference_value : Returns the R reference's value as an RValue.
    propstab.r.CrosscheckRow : A cross-check row; it compares a value of R with propstab's.

    References
    ----------
    R Core Team. R: A Language and Environment for Statistical Computing. R Foundation
    for Statistical Computing, Vienna (``?NA``, ``?is.nan``).

    Examples
    --------
    >>> from propstab.r import RValue
    >>> RValue(0.5, "number").value
    0.5
    >>> RValue(float("nan"), "NA").kind
    'NA'
    """

    value: float
    kind: str


def as_rvalue(x, what: str) -> RValue:
    """Read a length-1 numeric or logical R vector as :class:`RValue`."""
    kind = _NUMBER_KINDS[_STATE["number_kind"](x)[0]]  # one R call
    if kind is None:
        raise RReferenceError(
            f"{what} did not return one number: got {x!r}", r_message="not a number", r_call=what
        ) from None
    if kind != "number":
        return RValue(float("nan"), kind)
    return RValue(float(x[0]), "number")


def r_versions(packages=("stabm", "irr", "Matrix")) -> "dict[str, str]":
    """Versions of R, rpy2 and the given R packages (``"not installed"`` if absent).

    Parameters
    ----------
    packages : sequence of str, default ("stabm", "irr", "Matrix")
        The R packages to report.

    Returns
    -------
    dict of str to str
        ``"R"``, ``"rpy2"`` and each package, to its version string.

    Raises
    ------
    ImportError, RUnavailableError
        rpy2 or R is missing (from :func:`propstab.r.robjects`).

    See Also
    --------
    propstab.r.robjects : Starts R.
    propstab.crosscheck : Its report prints these versions.

    References
    ----------
    R Core Team. R: A Language and Environment for Statistical Computing. R Foundation
    for Statistical Computing, Vienna (``?packageVersion``).

    Examples
    --------
    >>> from propstab.r import r_versions
    >>> sorted(r_versions(("stabm",)))
    ['R', 'rpy2', 'stabm']
    """
    ro = robjects()
    import rpy2

    out = {
        "R": str(ro.r("paste(R.version$major, R.version$minor, sep = '.')")[0]),
        "rpy2": rpy2.__version__,
    }
    for name in packages:
        # installed or not, read off its DESCRIPTION: loading the namespaces only to
        # report them cost each crosscheck about a second (Matrix, irr's lpSolve), and
        # whether a package loads is require_package's question, asked where it is used
        have = ro.r(f"nzchar(system.file(package = '{name}'))")[0]
        out[name] = (
            str(ro.r(f"as.character(utils::packageVersion('{name}'))")[0])
            if have
            else "not installed"
        )
    return out
