"""The Python half of the R package's testthat expectations (``rpackage/R/testing.R``):
``expect_stable()``, ``expect_not_less_stable()`` and ``expect_measure_properties()``
call :mod:`propstab.testing` through :func:`invoke` (as the rest of the package calls
:mod:`propstab.r._frontend`), and receive the decision and the assertion's message as
data: ``{"passed": bool, "message": str, ...}``.
"""
from __future__ import annotations

import ast
from typing import Any, Mapping

from .._utils.exceptions import InvalidParameterError
from ._audit_frontend import audit_function
from ._frontend import run_entry, runs_selection

__all__ = [
    "R_NAMES",
    "expect_agrees",
    "expect_measure_properties",
    "expect_not_less_stable",
    "expect_stable",
    "invoke",
    "r_literal",
    "violation_message",
]


def _selection(measure: str, sizes, indices, n_features):
    """The measure's entry and the runs, converted as the front end converts them (the
    options are propstab's, by their Python names)."""
    from ..registry._registry import lookup

    return lookup(measure, argument="measure"), runs_selection(sizes, indices, n_features)


def expect_stable(
    measure: str,
    sizes,
    indices,
    n_features,
    *,
    at_least: float,
    confidence: float = 0.95,
    options=None,
) -> dict:
    """:func:`propstab.testing.assert_stable` on stabm-style ``features``: ``passed``,
    ``message`` (the assertion's, or a one-line account of the pass), ``pvalue``.

    Examples
    --------
    >>> from propstab.r._testing_frontend import expect_stable
    >>> out = expect_stable("nogueira", [2] * 30, [1, 2] * 28 + [1, 3, 2, 4], 4,
    ...                     at_least=0.5)
    >>> out["passed"], round(out["pvalue"], 6)
    (True, 0.01926)
    """
    from ..testing._assertions import assert_stable

    info, sel = _selection(measure, sizes, indices, n_features)
    try:
        res = assert_stable(
            sel, at_least, confidence_level=confidence, measure=info.name, **dict(options or {})
        )
    except AssertionError as failure:
        return {"passed": False, "message": str(failure), "pvalue": None}
    e = res.estimate
    return {
        "passed": True,
        "pvalue": res.pvalue,
        "message": f"{e.measure} = {e.statistic:.4f} is shown to exceed {at_least:g} "
        f"(p = {res.pvalue:.4g})",
    }


def expect_not_less_stable(
    measure: str,
    baseline,
    current,
    n_features,
    *,
    margin: float,
    confidence: float = 0.95,
    paired: bool = False,
    test: str = "drop",
    options=None,
) -> dict:
    """:func:`propstab.testing.assert_not_less_stable` with ``baseline`` and ``current``
    as ``(sizes, indices)`` pairs: ``passed``, ``message``, ``pvalue``, ``difference``.

    Examples
    --------
    >>> from propstab.r._testing_frontend import expect_not_less_stable
    >>> base = ([2] * 30, [1, 2] * 28 + [1, 3, 2, 4])
    >>> current = ([2] * 30, [1, 2] * 27 + [1, 3, 2, 4, 1, 4])
    >>> out = expect_not_less_stable("nogueira", base, current, 4, margin=0.3)
    >>> out["passed"], round(out["difference"], 4)
    (True, -0.0621)
    """
    from ..testing._assertions import assert_not_less_stable

    info, base = _selection(measure, *baseline, n_features)
    _, cur = _selection(measure, *current, n_features)
    try:
        res = assert_not_less_stable(
            base,
            cur,
            margin=margin,
            confidence_level=confidence,
            paired=bool(paired),
            measure=info.name,
            test=test,
            **dict(options or {}),
        )
    except AssertionError as failure:
        return {"passed": False, "message": str(failure), "pvalue": None, "difference": None}
    return {
        "passed": True,
        "message": res.message(),
        "pvalue": res.pvalue,
        "difference": res.difference,
    }


def r_literal(value) -> str:
    """A counterexample (nested lists of 0/1) as R code: a matrix as ``rbind(c(1, 0),
    c(1, 0))`` (runs in rows, so positions read 1-based as R indexes them), a pair as
    ``list(...)``.

    Examples
    --------
    >>> r_literal([[1, 0], [1, 0]])
    'rbind(c(1, 0), c(1, 0))'
    >>> r_literal([[[1]], [[0]]])
    'list(rbind(c(1)), rbind(c(0)))'
    """
    if isinstance(value, list) and value and all(isinstance(r, list) for r in value):
        if all(not isinstance(x, list) for r in value for x in r):
            return (
                "rbind("
                + ", ".join("c(" + ", ".join(f"{x:g}" for x in r) + ")" for r in value)
                + ")"
            )
        return "list(" + ", ".join(r_literal(v) for v in value) + ")"
    return repr(value)


def expect_measure_properties(fun, name: str, **arguments) -> dict:
    """The audit of an R function (:func:`propstab.r._audit_frontend.audit_function`) as an
    expectation: ``passed``, ``message`` (the first violated claim with its shrunk
    counterexample as R code), ``text`` (the audit table).

    Examples
    --------
    >>> from propstab.r._testing_frontend import expect_measure_properties
    >>> out = expect_measure_properties(lambda Z: float(Z.mean()), "coverage",
    ...                                 claims=["bounds", "maximum"], lower=0, upper=1,
    ...                                 max_examples=30)
    >>> out["passed"], out["message"]
    (False, 'coverage claims maximum but it is violated: identical rows but value 0.5 != declared
    maximum 1; shrunk counterexample rbind(c(1, 0), c(1, 0)) (values 0.5, 1)')
    """
    out = audit_function(fun, name, **arguments)
    for row in out["rows"]:
        if row["status"] == "violated":
            return {
                "passed": False,
                "text": out["text"],
                "message": violation_message(
                    name, row["axiom"], row["reason"], row["counterexample"], row["values"]
                ),
            }
    return {
        "passed": True,
        "text": out["text"],
        "message": f"{name}: every claimed property holds",
    }


def violation_message(name: str, axiom: str, reason: str, counterexample: str, values=()) -> str:
    """The message of a violated claim, its counterexample (the audit's text, nested
    lists) as R code (:func:`r_literal`).

    Examples
    --------
    >>> violation_message("coverage", "maximum", "identical rows but value 0.5", "[[1, 0]]")
    'coverage claims maximum but it is violated: identical rows but value 0.5; shrunk
    counterexample rbind(c(1, 0))'
    """
    try:
        code = r_literal(ast.literal_eval(counterexample)) if counterexample else "none"
    except (ValueError, SyntaxError):
        code = counterexample
    shown = ", ".join(f"{v:g}" for v in (values or ()))
    return (
        f"{name} claims {axiom} but it is violated: {reason}; shrunk counterexample "
        f"{code}" + (f" (values {shown})" if shown else "")
    )


def expect_agrees(
    fun,
    measure: str,
    *,
    input: str = "matrix",
    base: int = 1,
    options=None,
    max_examples: int = 200,
    seed: int = 0,
    atol: float = 1e-9,
    rtol: float = 1e-9,
    name: str = "fun",
) -> dict:
    """:func:`propstab.testing.agreement` of an R function (reticulate passes it as a
    Python callable: a matrix arrives as an integer matrix, sets as a list of integer
    vectors): ``passed``, ``message`` (the shrunk case with its R code), ``text`` (the
    summary), ``n_examples``, ``n_undefined``, ``largest_difference``.

    Examples
    --------
    >>> from propstab.r._testing_frontend import expect_agrees
    >>> out = expect_agrees(lambda Z: 0.5, "nogueira", max_examples=20, name="half")
    >>> out["passed"]
    False
    >>> print(out["message"].splitlines()[-1].split("  # ")[0])
      half(rbind(c(0L), c(0L)))
    """
    from ..testing._agree import agreement, counterexample_lines

    res = agreement(
        fun,
        measure,
        options=dict(options or {}),
        atol=atol,
        rtol=rtol,
        max_examples=int(max_examples),
        random_state=int(seed),
        input=input,
        base=int(base),
        name=name,
        language="R",
    )
    message = (
        f"{name} agrees with propstab's {res.measure} on {res.n_examples} cases"
        if res.agrees
        else f"{name} disagrees with propstab's {res.measure}\n"
        + "\n".join(counterexample_lines(res))
    )
    return {
        "passed": res.agrees,
        "message": message,
        "text": str(res),
        "n_examples": res.n_examples,
        "n_undefined": res.n_undefined,
        "largest_difference": res.largest_difference,
    }


#: the R package's names of the expectations' arguments
R_NAMES = {
    "at_least": "at.least",
    "confidence": "conf.level",
    "confidence_level": "conf.level",
    "margin": "margin",
    "max_examples": "max.examples",
}


def _r_named(function):
    def call(**arguments):
        try:
            return function(**arguments)
        except InvalidParameterError as error:
            raise error.renamed(R_NAMES) from None

    call.__name__ = function.__name__
    return call


_ENTRY_POINTS = {
    f.__name__: _r_named(f)
    for f in (
        expect_stable,
        expect_not_less_stable,
        expect_measure_properties,
        violation_message,
        expect_agrees,
    )
}


def invoke(entry: str, arguments: Mapping[str, Any]) -> dict:
    """:func:`propstab.r._frontend.invoke` for the entry points of this module.

    Examples
    --------
    >>> from propstab.r._testing_frontend import invoke
    >>> invoke("expect_stable", {"measure": "nogueira", "sizes": [2, 2], "indices": [1, 2, 1, 2],
    ...                          "n_features": 3, "at_least": 5})["error"]["message"][:30]
    'at.least: must lie in the rang'
    """
    if entry not in _ENTRY_POINTS:
        return {
            "value": None,
            "warnings": [],
            "error": {
                "class": "ValueError",
                "traceback": "",
                "message": f"entry: {entry!r} is not an entry point of propstab's testthat "
                f"expectations; known: {', '.join(sorted(_ENTRY_POINTS))}",
            },
        }
    return run_entry(_ENTRY_POINTS[entry], arguments)
