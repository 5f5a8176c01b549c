"""The cross-check's results: one row per (measure, R reference), and the report that prints
them."""
from __future__ import annotations

import dataclasses
import json
import math
from typing import Any, Mapping, Optional, Tuple

from .. import __version__
from ..registry._registry import MeasureInfo
from .._utils.results import Result
from .._utils.text import Summary, table_lines
from ._evaluation import Outcome, Reference, as_json_number

# ---------------------------------------------------------------------- report


@dataclasses.dataclass(frozen=True)
class CrosscheckRow:
    """The cross-check of one measure against one R reference.

    ``status`` is ``"agree"`` (every case agrees or is a documented expected
    difference) or ``"DISAGREE"``; ``counterexample`` is the minimal disagreeing
    case (a dict with the inputs, both values and the R call), ``expected`` counts
    the cases under each documented stabm defect. ``options`` are the options where
    they differ from propstab's defaults: R's defaults (the worked examples run at
    them, the generated cases draw them), or the options of the user's inputs;
    ``notes`` say where an option was replaced to be comparable; ``values`` hold, for
    the user's inputs, each input's name, both values and its status.

    Parameters
    ----------
    measure : str
        The measure's registry name.
    r_function : str
        The R reference, ``package::function``.
    cases : int
        The number of cases compared.
    max_relative_difference : float
        The largest ``|a - b| / max(|a|, |b|, 1)`` over the compared cases (NaN when
        none was comparable).
    status : {"agree", "DISAGREE"}
        The verdict.
    expected : mapping of str to int
        The number of cases under each documented difference, by its key.
    counterexample : mapping, optional
        The minimal disagreeing case.
    options : mapping of str to object, optional
        The options that differ from propstab's defaults.
    notes : tuple of str, optional
        Where an option was replaced to be comparable.
    values : tuple of mapping, optional
        For the user's inputs: each input's name, both values and its status.

    See Also
    --------
    propstab.r.CrosscheckReport : The rows of one cross-check.
    propstab.r.ExpectedDifference : A documented difference counted in ``expected``.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.

    Examples
    --------
    >>> import propstab
    >>> row = propstab.crosscheck("kappa", max_examples=5).rows[0]
    >>> row.r_function, row.status, row.max_relative_difference < 1e-10
    ('stabm::stabilityKappa', 'agree', True)
    """

    measure: str
    r_function: str
    cases: int
    max_relative_difference: float
    status: str
    expected: Mapping[str, int]
    counterexample: Optional[Mapping[str, Any]] = None
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    notes: Tuple[str, ...] = ()
    values: Tuple[Mapping[str, Any], ...] = ()

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["max_relative_difference"] = as_json_number(self.max_relative_difference)
        d["expected"] = dict(self.expected)
        d["options"] = dict(self.options)
        d["notes"] = list(self.notes)
        d["values"] = [dict(v) for v in self.values]
        return d


@dataclasses.dataclass(frozen=True, repr=False)
class CrosscheckReport(Result):
    """Rows of :func:`crosscheck`, with the versions of R and the packages used.

    ``ok`` is True when no row disagrees. ``repr`` is one line with the counts; ``str``
    (and ``print``) show the table with the versions; ``to_json()`` gives the data.
    ``inputs`` names the user's selections (empty for generated cases); ``notes``
    list the measures left out and why.

    Parameters
    ----------
    rows : tuple of CrosscheckRow
        One row per (measure, R reference).
    versions : mapping of str to str
        The versions of R, rpy2 and the R packages.
    tolerance : float
        The largest accepted relative difference.
    seed : int
        The seed of the generated cases.
    max_examples : int
        Generated cases per measure and reference.
    inputs : tuple of str, optional
        The names of the user's selections (empty for generated cases).
    notes : tuple of str, optional
        The measures left out, and why.

    See Also
    --------
    propstab.crosscheck : Builds the report.
    propstab.r.CrosscheckRow : One row of the report.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1.

    Examples
    --------
    >>> import propstab
    >>> report = propstab.crosscheck(["kappa", "lustgarten"], max_examples=5)
    >>> report.ok, [row.measure for row in report.rows]
    (True, ['kappa', 'lustgarten'])
    """

    rows: Tuple[CrosscheckRow, ...]
    versions: Mapping[str, str]
    tolerance: float
    seed: int
    max_examples: int
    inputs: Tuple[str, ...] = ()
    notes: Tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return all(r.status == "agree" for r in self.rows)

    def to_dict(self) -> dict:
        from ._defects import EXPECTED_DIFFERENCES

        keys = {k for r in self.rows for k in r.expected}
        return {
            "propstab": __version__,
            "versions": dict(self.versions),
            "tolerance": self.tolerance,
            "seed": self.seed,
            "max_examples": self.max_examples,
            "inputs": list(self.inputs),
            "notes": list(self.notes),
            "ok": self.ok,
            "rows": [r.to_dict() for r in self.rows],
            "expected_differences": [e.as_dict() for e in EXPECTED_DIFFERENCES if e.key in keys],
        }

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def _repr_values(self):
        return dict(
            ok=self.ok,
            n_rows=len(self.rows),
            disagree=sum(r.status != "agree" for r in self.rows),
            tolerance=self.tolerance,
            seed=self.seed,
            max_examples=self.max_examples,
        )

    def _records(self):
        return [r.to_dict() for r in self.rows]

    def summary(self) -> Summary:
        """The versions, one line per (measure, R reference), the user's values, notes
        and disagreements.

        Returns
        -------
        Summary
            A ``str`` whose ``repr`` is the text itself.
        """
        heads = [
            "measure",
            "R function",
            "cases",
            "max rel diff",
            "status",
            "expected differences",
            "options",
        ]
        body = []
        for r in self.rows:
            exp = ", ".join(f"{k} ({n})" for k, n in r.expected.items()) or "-"
            diff = (
                "-"
                if math.isnan(r.max_relative_difference)
                else f"{r.max_relative_difference:.1e}"
            )
            opts = (
                ", ".join(
                    f"{k}={v if isinstance(v, str) and v.startswith('<') else repr(v)}"
                    for k, v in r.options.items()
                )
                or "-"
            )
            body.append([r.measure, r.r_function, str(r.cases), diff, r.status, exp, opts])
        where = (
            f"inputs {', '.join(self.inputs)}"
            if self.inputs
            else f"seed {self.seed}; max_examples {self.max_examples}"
        )
        lines = [
            "versions: "
            + ", ".join(f"{k} {v}" for k, v in self.versions.items())
            + f", propstab {__version__}; tolerance {self.tolerance:g}; {where}"
        ]
        lines += [line.rstrip() for line in table_lines(heads, body)]
        values = [(r, v) for r in self.rows for v in r.values]
        if values:
            lines.append("")
            lines += [
                line.rstrip()
                for line in table_lines(
                    ["input", "measure", "R function", "propstab", "R", "status"],
                    [
                        [
                            v["input"],
                            r.measure,
                            r.r_function,
                            _shown(v["propstab"]),
                            _shown(v["r"]),
                            v["status"],
                        ]
                        for r, v in values
                    ],
                )
            ]
        lines.append(
            "options: where they differ from propstab's defaults, given to both "
            "sides: "
            + (
                "the inputs' options (R's defaults unless given)"
                if self.inputs
                else "R's defaults, at which the worked "
                "examples run (generated cases draw every comparable "
                "value, these included)"
            )
        )
        for r in self.rows:
            lines += [f"note {n}" for n in r.notes]
            if r.counterexample is not None:
                c = r.counterexample
                call = (
                    c["r_code"]
                    if len(c["r_code"]) <= 300
                    else f"{c['name']} ({len(c['features'])} runs x {c['p']} features)"
                )
                lines.append(
                    f"DISAGREE {r.measure} vs {r.r_function}: {call} -> R "
                    f"{c['r']} ({c['r_kind']}), propstab {c['propstab']}"
                    + (f"; {c['error']}" if c["error"] else "")
                )
        lines += [f"note {n}" for n in self.notes]
        lines.append(
            "expected differences: see propstab.r.EXPECTED_DIFFERENCES and " "docs/r_crosscheck.md"
        )
        return Summary("\n".join(lines))


def _shown(x) -> str:
    return "-" if x is None else (f"{x:.10g}" if isinstance(x, float) else str(x))


def summary_row(
    info: MeasureInfo,
    ref: Reference,
    outcomes: "list[Outcome]",
    minimal: Optional[Outcome],
    **fields,
) -> CrosscheckRow:
    compared = [
        o.relative_difference
        for o in outcomes
        if o.status != "expected" and o.r is not None and math.isfinite(o.relative_difference)
    ]
    counts: "dict[str, int]" = {}
    for o in outcomes:
        if o.status == "expected":
            for key in o.expected:
                counts[key] = counts.get(key, 0) + 1
    return CrosscheckRow(
        measure=info.name,
        r_function=ref.label,
        cases=len(outcomes),
        max_relative_difference=max(compared) if compared else float("nan"),
        status="DISAGREE" if minimal is not None else "agree",
        expected=counts,
        counterexample=None if minimal is None else minimal.to_dict(ref),
        **fields,
    )
