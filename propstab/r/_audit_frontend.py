"""The axiom audit of a measure written in R (what ``audit_measure()`` of the R package
calls through :func:`propstab.r._frontend.invoke`)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from .._utils.checks import fail

__all__ = ["PROBE", "audit_function"]


def _number(value, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        fail(
            f"fun: {name} must return one number; got {type(value).__name__} " f"{value!r}",
            TypeError,
        )
    return float(value)


#: The matrix a user function is tried on before its audit (a first, readable failure).
PROBE = np.array([[1, 1, 0], [1, 0, 1]], dtype=bool)


def audit_function(
    fun: Callable, name: str, *, max_examples: int = 200, seed: int = 0, axioms=None, **declaration
) -> dict:
    """The axiom audit (:func:`propstab.audit`) of a function ``fun(Z) -> number`` written in
    R (reticulate passes it as a Python callable; Z arrives as a logical matrix).

    ``declaration`` is the function's claims and bounds as for
    :func:`propstab.auditing.subject` (``claims``, ``lower``, ``upper``, ``orientation``,
    ``domain``, ``null_value``, ``pairwise``, ``symmetric``). ``fun`` is first called on a
    2 x 3 matrix: an error there is reported as such (during the audit, an error counts as
    an undefined value).

    Returns
    -------
    dict
        ``rows``: one dict per axiom (axiom, claimed, status, reason, counterexample as
        text, values); ``text``: the audit table as propstab prints it.

    Examples
    --------
    >>> from propstab.r._audit_frontend import audit_function
    >>> out = audit_function(lambda Z: float(Z.mean()), "coverage", claims=["bounds"],
    ...                      lower=0, upper=1, max_examples=30)
    >>> [(r["axiom"], r["status"]) for r in out["rows"]][:3]
    [('fully defined', 'unrefuted'), ('monotonicity', 'refuted'), ('bounds', 'holds')]
    """
    from ..auditing._audit import audit

    def measure(Z):
        return _number(fun(np.asarray(Z, dtype=bool)), name)

    measure.__name__ = name
    try:
        value = fun(PROBE)
    except Exception as exc:  # the user's function failed: say where
        fail(f"fun: {name} failed on the selection matrix " f"{PROBE.astype(int).tolist()}: {exc}")
    _number(value, name)
    declaration = {k: v for k, v in declaration.items() if v is not None}
    if isinstance(declaration.get("claims"), str):
        declaration["claims"] = [declaration["claims"]]
    table = audit(
        measure,
        max_examples=int(max_examples),
        random_state=int(seed),
        axioms=[axioms] if isinstance(axioms, str) else axioms,
        **declaration,
    )
    rows = []
    for r in table:
        d = r.to_dict()
        ce = d.get("counterexample")
        rows.append(
            {
                "axiom": r.axiom.label,
                "claimed": r.claimed,
                "status": r.status,
                "reason": r.reason,
                "counterexample": "" if ce is None else repr(ce),
                "values": [float(v) for v in r.values],
            }
        )
    return {"rows": rows, "text": str(table)}
