"""The audit's results: one :class:`CheckResult` per (measure, axiom) and the
:class:`AuditTable` of them, with its printed form (marks, footnotes, variants) and
its exports (JSON, pandas)."""
from __future__ import annotations

import dataclasses
import json
import math
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from ..registry._registry import as_axiom
from .._utils.results import Result
from .._utils.text import Summary, plain_math, summary
from ..axioms import Axiom
from ..strategies import NullConfiguration, RankConfiguration
from ._expectations import Expectation
from ._subjects import VARIANTS, Context, label
from .._utils.checks import fail

__all__ = ["AuditTable", "CheckResult", "MARKS", "matrix_list", "matrix_text"]

#: The mark of each status in the printed table.
MARKS = {"holds": "✓", "violated": "!", "refuted": "✗", "unrefuted": "?", "skipped": "-"}


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """The outcome of one check of one axiom on one measure.

    Parameters
    ----------
    measure : str
        The measure's name (with its options, e.g. ``"davis[penalty=0.5]"``).
    axiom : Axiom
        The axiom checked.
    claimed : bool
        Whether the measure claims it.
    status : {"holds", "violated", "refuted", "unrefuted", "skipped"}
        The verdict: a claim that holds or is violated, a disclaimer that is refuted
        (a counterexample found) or unrefuted (none found, which proves nothing), or
        a check that does not apply.
    counterexample : ndarray, tuple of two ndarrays, NullConfiguration, RankConfiguration or None
        The minimal refuting matrix (a 0/1 selection matrix, or a rank matrix of
        midranks for the ranking family; a pair for MONOTONICITY, a null-model
        configuration for CORRECTION_FOR_CHANCE).
    values : tuple of float
        The measure's values behind the counterexample.
    expectations : tuple of Expectation
        For CORRECTION_FOR_CHANCE: the exact null expectations found.
    reason : str
        Why, in one sentence.
    context : Context or None
        For a measure reading a similarity matrix or importances: the (shrunk)
        similarity C and importance weights of the counterexample.

    See Also
    --------
    propstab.AuditTable : The rows of an audit.
    propstab.auditing.check_bounds : One of the five checks that return a CheckResult.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 4, Table 4.1 and App. B (the
    properties and their counterexamples).

    Examples
    --------
    >>> from propstab import Axiom, get_measure
    >>> from propstab.auditing import check_bounds, subject
    >>> row = check_bounds(subject(get_measure("jaccard")), max_examples=20, random_state=0)
    >>> row.axiom is Axiom.BOUNDS, row.claimed, row.status
    (True, True, 'holds')
    """

    measure: str
    axiom: Axiom
    claimed: bool
    status: str
    counterexample: Any = None
    values: Tuple[float, ...] = ()
    expectations: Tuple[Expectation, ...] = ()
    reason: str = ""
    context: Optional[Context] = None

    def to_dict(self) -> dict:
        """A JSON-ready dict (matrices as nested lists of 0/1)."""
        ce = self.counterexample
        if isinstance(ce, np.ndarray):
            ce = matrix_list(ce)
        elif isinstance(ce, NullConfiguration):
            ce = {
                "n_runs": ce.n_runs,
                "n_features": ce.n_features,
                "row_sizes": list(ce.row_sizes),
            }
        elif isinstance(ce, RankConfiguration):
            ce = {
                "n_runs": ce.n_runs,
                "n_features": ce.n_features,
                "patterns": [list(p) for p in ce.patterns],
            }
        elif isinstance(ce, tuple):
            ce = [matrix_list(z) for z in ce]
        out = {
            "measure": self.measure,
            "axiom": self.axiom.name,
            "claimed": self.claimed,
            "status": self.status,
            "counterexample": ce,
            "values": [None if math.isnan(v) else v for v in self.values],
            "expectations": [dataclasses.asdict(e) for e in self.expectations],
            "reason": self.reason,
        }
        if self.context is not None:
            out["context"] = self.context.to_dict()
        return out


class MissingRowError(KeyError, ValueError):
    """No row of an audit table for a measure and an axiom: a KeyError (a lookup) and a
    ValueError (as every argument error of propstab)."""

    def __str__(self) -> str:
        return str(self.args[0])


class AuditTable(Result):
    """The audit's rows: one :class:`CheckResult` per (measure, axiom).

    ``repr`` is one line with the counts per status; ``str`` (and ``print``) show
    :meth:`summary`: measures as rows and axioms as columns with a mark per cell
    (✓ claimed and holds, ! claimed but violated, ✗ disclaimed and refuted,
    ? disclaimed but unrefuted, - skipped) and numbered footnotes with the
    counterexamples. :meth:`to_frame` and :meth:`to_json` export the rows.

    Parameters
    ----------
    rows : sequence of CheckResult
        One row per (measure, axiom), in the order to print.

    See Also
    --------
    propstab.audit : Runs the checks and returns the table.
    propstab.auditing.CheckResult : One row.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Table 4.1 (the table the audit
    reproduces).

    Examples
    --------
    >>> from propstab import audit
    >>> table = audit("kuncheva", max_examples=20)
    >>> table
    AuditTable(n_measures=1, n_rows=5, holds=4, violated=0, refuted=1, unrefuted=0,
               skipped=0)
    >>> print(table.summary().splitlines()[2])
    kuncheva  ✗[1]           ✓             ✓       ✓        ✓
    """

    def __init__(self, rows: Sequence[CheckResult]):
        self.rows: Tuple[CheckResult, ...] = tuple(rows)

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def measures(self) -> Tuple[str, ...]:
        return tuple(dict.fromkeys(r.measure for r in self.rows))

    def result(self, measure: str, axiom) -> CheckResult:
        """The row of ``measure`` (its label, e.g. ``"davis[penalty=0.5]"``) and ``axiom``."""
        axiom = as_axiom(axiom, "axiom")
        if not isinstance(measure, str):
            fail(
                f"measure: must be a measure's label (str); got "
                f"{type(measure).__name__} {measure!r}",
                TypeError,
            )
        for r in self.rows:
            if r.measure == measure and r.axiom is axiom:
                return r
        raise MissingRowError(
            f"measure, axiom: no row for {measure!r} and {axiom.name} in "
            f"this audit; measures: {', '.join(self.measures)}"
        )

    def status(self, measure: str, axiom) -> str:
        """The status of one cell."""
        return self.result(measure, axiom).status

    @property
    def disagreements(self) -> Tuple[CheckResult, ...]:
        """Rows whose declaration is contradicted (violated)."""
        return tuple(r for r in self.rows if r.status == "violated")

    def _records(self):
        return [r.to_dict() for r in self.rows]

    def to_json(self, **kwargs) -> str:
        """The rows as a JSON array."""
        return json.dumps([r.to_dict() for r in self.rows], ensure_ascii=False, **kwargs)

    def _repr_values(self):
        counts = {status: 0 for status in MARKS}
        for r in self.rows:
            counts[r.status] += 1
        return dict(n_measures=len(self.measures), n_rows=len(self.rows), **counts)

    def summary(self) -> Summary:
        """The marks table (one line per measure, one column per axiom), its legend and
        a footnote per counterexample or skipped check.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        heads = ["measure", *[a.label for a in Axiom]]
        body, notes = [], []
        for m in self.measures:
            cells = []
            for a in Axiom:
                try:
                    r = self.result(m, a)
                except KeyError:
                    cells.append("")
                    continue
                mark = MARKS[r.status]
                if r.status in ("violated", "refuted", "skipped"):
                    notes.append(_footnote(len(notes) + 1, r))
                    mark += f"[{len(notes)}]"
                cells.append(mark)
            body.append([m, *cells])
        legend = [
            "",
            "✓ claimed, holds   ! claimed, VIOLATED   ✗ not claimed, refuted   "
            "? not claimed, unrefuted   - skipped",
            "",
        ]
        variants = [
            f"{label(name, v.options)}: {plain_math(v.reason)}"
            for name, vs in VARIANTS.items()
            for v in vs
            if label(name, v.options) in self.measures
        ]
        if variants:
            notes += ["", "Parameter variants (claims differ from the defaults):", *variants]
        return summary(None, table=(heads, body), notes=legend + notes)


def _is_selection(Z: np.ndarray) -> bool:
    return Z.dtype == bool or Z.dtype.kind in "iu"


def matrix_list(Z: np.ndarray) -> list:
    """A matrix as nested lists: 0/1 for a selection matrix, midranks (whole numbers as
    ints) for a rank matrix."""
    if _is_selection(Z):
        return Z.astype(int).tolist()
    return [[int(x) if float(x).is_integer() else float(x) for x in row] for row in Z]


def matrix_text(Z: np.ndarray) -> str:
    """A 0/1 matrix as ``[110, 011]`` (one string of digits per run); a rank matrix as
    ``[1 2 3, 2 1 3]`` (each run's midranks).

    >>> import numpy as np
    >>> matrix_text(np.array([[True, False], [False, True]])), matrix_text(np.array(
    ...     [[1.0, 2.5, 2.5], [3.0, 2.0, 1.0]]))
    ('[10, 01]', '[1 2.5 2.5, 3 2 1]')
    """
    if _is_selection(Z):
        return "[" + ", ".join("".join(str(int(x)) for x in row) for row in Z) + "]"
    return "[" + ", ".join(" ".join(f"{x:g}" for x in row) for row in Z) + "]"


def _footnote(i: int, r: CheckResult) -> str:
    ce = r.counterexample
    if isinstance(ce, np.ndarray):
        name = "Z" if _is_selection(ce) else "R"
        where = f" {name} = {matrix_text(ce)}"
    elif isinstance(ce, tuple) and len(ce) == 2 and isinstance(ce[0], np.ndarray):
        name = "Z" if _is_selection(ce[0]) else "R"
        where = f" {name}1 = {matrix_text(ce[0])}, {name}2 = {matrix_text(ce[1])}"
    else:
        where = ""
    if r.context is not None:
        where += f" with {r.context}"
    return f"[{i}] {r.measure}, {r.axiom.label}:{where} -- {r.reason}"
