"""The cross-check harness: every measure with an R reference against R.

For each registered measure whose registry entry names an R reference (and for
``nogueira`` also against ``irr::kappam.fleiss``, thesis Thm 5), propstab and R
are evaluated on

- Hypothesis-generated cases: constant and varying subset sizes, empty and full
  runs, small and larger M and d, every option value (similarity matrices, dense
  and sparse, for the measures taking ``similarity=``), and
- the worked examples of the papers (Somol and Novovicova 2010, Figs 2-4; the
  thesis's App. B and Fig. 4.1).

A measure of the ranking family (its R reference's ``input="ranks"``: base R code on the
matrix of midranks, e.g. the mean over pairs of runs of ``stats::cor(t(R), method =
"spearman")``) is evaluated on generated rank matrices (untied, tied, with runs ranking
every feature equal) and on :data:`WORKED_RANKINGS`.

Agreement: ``|a - b| / max(|a|, |b|, 1) <= tolerance`` (1e-10), and NaN exactly
where R gives NA or NaN, a NaN from propstab always coming with an
UndefinedMeasureWarning. A case under a documented stabm defect
(:data:`~propstab.r.EXPECTED_DIFFERENCES`) whose values differ is an *expected
difference*; any other difference is a disagreement, shrunk by Hypothesis to a
minimal counterexample (the reproducible search of :mod:`propstab.search`, the audit's).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from .._utils.checks import fail
from .._utils.progress import progress_bar, wanted
from ..registry._registry import MeasureInfo, get_measure, list_measures
from .._data.convert_rankings import as_input
from .._utils.checks import check_int_range, check_mapping, check_real_range
from ..registry._option_checks import check_options
from .._utils.params import RENAMED_SEED, renamed
from ._call import r_versions
from ._cases import (
    STOCHASTIC,
    WORKED_EXAMPLES,
    WORKED_RANKINGS,
    Case,
    comparable_options,
    r_default_options,
    shown_options,
    worked_cases,
)
from ._evaluation import (
    TOLERANCE,
    Outcome,
    Reference,
    as_json_number,
    evaluate,
    generated_outcome,
    references_of,
    relative_difference,
)
from ._report import CrosscheckReport, CrosscheckRow, summary_row

__all__ = [
    "Case",
    "CrosscheckReport",
    "CrosscheckRow",
    "WORKED_EXAMPLES",
    "WORKED_RANKINGS",
    "crosscheck",
    "relative_difference",
]


def _row(info: MeasureInfo, ref: Reference, tolerance, max_examples, seed) -> CrosscheckRow:
    outcomes: "list[Outcome]" = []
    minimal = generated_outcome(info, ref, tolerance, max_examples, seed, outcomes.append)
    for case in worked_cases(info):
        outcome = evaluate(info, ref, case, tolerance)
        outcomes.append(outcome)
        if outcome.status == "mismatch" and minimal is None:
            minimal = outcome
    r_options = r_default_options(info)
    simulated = {k: v for k, v in r_options.items() if isinstance(v, str) and v in STOCHASTIC}
    notes = tuple(
        f"{info.name}: {k} = {v!r} (the R default) is simulated, not comparable; "
        f"the cases use the other choices"
        for k, v in simulated.items()
    )
    shown = {k: v for k, v in shown_options(info, r_options).items() if k not in simulated}
    return summary_row(info, ref, outcomes, minimal, options=shown, notes=notes)


def _input_rows(
    info: MeasureInfo,
    inputs: "list[tuple[str, np.ndarray]]",
    options: Mapping[str, Any],
    tolerance,
) -> "list[CrosscheckRow]":
    """The rows of ``info`` on the user's inputs, at R's defaults and the given options."""
    from scipy import sparse

    given = {k: v for k, v in options.items() if k in info.parameter_names}
    cases, notes = [], []
    for name, Z in inputs:
        opts = dict(r_default_options(info), **given)
        if "similarity" in info.parameter_names:
            S = given["similarity"]
            if S is None:  # the identity, as R needs a matrix
                S = sparse.identity(Z.shape[1], format="csr")
            elif type(S).__module__.startswith("pandas"):
                S = S.to_numpy(dtype=np.float64)
            opts["similarity"] = S
        opts, changed = comparable_options(info, check_options(info, opts), Z, tuple(given))
        notes += [n for n in changed if n not in notes]
        cases.append(Case(name, Z, opts))
    rows = []
    for ref in references_of(info):
        outcomes = [evaluate(info, ref, case, tolerance) for case in cases]
        minimal = next((o for o in outcomes if o.status == "mismatch"), None)
        values = tuple(
            {
                "input": o.case.name,
                "propstab": as_json_number(o.propstab),
                "r": None if o.r is None else as_json_number(o.r.value),
                "status": o.status,
            }
            for o in outcomes
        )
        rows.append(
            summary_row(
                info,
                ref,
                outcomes,
                minimal,
                options=shown_options(info, cases[0].options),
                notes=tuple(notes),
                values=values,
            )
        )
    return rows


def _input_matrices(inputs, kind: str = "selection") -> "list[tuple[str, np.ndarray]]":
    """The inputs validated as selection matrices (0/1, bool) or, for ``kind="ranking"``,
    as rank matrices (midranks, float)."""
    if not isinstance(inputs, Mapping) or not inputs:
        fail(
            f"inputs: must be a non-empty mapping of names to selection matrices; "
            f"got {type(inputs).__name__}",
            TypeError,
        )
    out = []
    for name, Z in inputs.items():
        checked = as_input(kind, Z, argument=f"inputs[{name!r}]")
        out.append(
            (
                str(name),
                np.asarray(checked.toarray(), dtype=np.float64 if kind == "ranking" else bool),
            )
        )
    return out


def _matrices_by_kind(inputs, infos, explicit: bool):
    """{input kind: validated inputs} for the measures' kinds, and the measures kept. With
    ``explicit`` measures an input of the wrong kind raises; otherwise the measures whose
    kind the inputs are not are left out (with a note)."""
    matrices, errors = {}, {}
    for kind in dict.fromkeys(m.input for m in infos):
        try:
            matrices[kind] = _input_matrices(inputs, kind)
        except (ValueError, TypeError) as exc:
            if explicit:
                raise
            errors[kind] = exc
    if not matrices:
        raise next(iter(errors.values()))
    kept = [m for m in infos if m.input in matrices]
    left = [m.name for m in infos if m.input not in matrices]
    what = {"ranking": "rank matrices", "selection": "selection matrices"}
    notes = [
        f"not cross-checked: the inputs are not {what[k]} ("
        f"{', '.join(m for m in left if get_measure(m).input == k)})"
        for k in errors
    ]
    return matrices, kept, notes


@renamed(RENAMED_SEED)
def crosscheck(
    measures=None,
    *,
    max_examples: int = 50,
    random_state: int = 0,
    tolerance: float = TOLERANCE,
    inputs=None,
    options=None,
    progress=None,
) -> CrosscheckReport:
    """Cross-check propstab against the R reference implementations.

    Parameters
    ----------
    measures : str or sequence of str, optional
        Measure names (default: every registered measure with an R reference; with
        ``inputs``, those taking a similarity only when ``options`` gives one).
    max_examples : int, default 50
        Hypothesis-generated cases per measure and reference (plus the papers'
        worked examples).
    random_state : int, default 0
        Seed of the generation; a fixed seed gives the same cases (``seed=`` is its
        deprecated name: a DeprecationWarning).
    tolerance : float, default 1e-10
        Largest accepted ``|a - b| / max(|a|, |b|, 1)``.
    inputs : mapping of str to selection matrix, optional
        The user's selections (any form accepted by :func:`propstab.as_selection`,
        a :class:`~propstab.Selection` included), by name: each measure is evaluated
        on them by propstab and by R, instead of on generated cases. Rank matrices
        (:func:`propstab.as_rankings`) for the ranking measures; with ``measures=None``
        the measures whose input kind the inputs are not are left out (a note says so).
    options : mapping, optional
        With ``inputs``: options applied to every measure that declares them (e.g.
        ``{"similarity": S, "threshold": 0.5}``; ``similarity=None`` is the identity).
        The other options are R's defaults (:func:`r_default_options`); a simulated
        R default ('estimate') is replaced by 'exact' or 'none', as the row's notes say.
    progress : bool or None, default None
        A progress bar with one step per measure: None shows it only when a person
        watches (a terminal or a Jupyter kernel), True
        always, False never.

    Returns
    -------
    CrosscheckReport
        One row per (measure, R reference), with the versions of R, rpy2 and the
        R packages, the options used and, for inputs, both values per input.

    Raises
    ------
    ValueError
        An unknown measure, one without an R reference, an option no measure
        declares, a measure needing a similarity without one, an option value that
        cannot be compared (simulated, or an exact correction too large for stabm).
    TypeError
        ``measures`` not a name or a sequence of names, a non-integer ``random_state`` or
        ``max_examples``, ``inputs`` not a non-empty mapping, an input that is not a
        selection (or rank) matrix.
    ImportError
        rpy2, R, an R package or Hypothesis is missing (the message says how to
        install it; :class:`~propstab.r.RUnavailableError` is an ImportError).

    See Also
    --------
    propstab.r.call_reference : One measure's R value on one selection.
    propstab.r.ExpectedDifference : The documented differences the report counts.
    propstab.audit : The other check of every measure, against its declared axioms.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891 (the generated cases).

    Examples
    --------
    >>> import propstab
    >>> report = propstab.crosscheck("kappa", max_examples=5)
    >>> report.rows[0].r_function, report.rows[0].status
    ('stabm::stabilityKappa', 'agree')
    >>> mine = propstab.crosscheck("sechidis", inputs={"mine": [[1, 1, 0], [1, 0, 1]]},
    ...                            options={"similarity": None})
    >>> mine.rows[0].options, mine.rows[0].values[0]["status"]
    ({'similarity': '<3 x 3 matrix>', 'threshold': 0.9}, 'agree')
    """
    if isinstance(measures, str):
        measures = [measures]
    elif measures is not None and (
        isinstance(measures, (bytes, Mapping)) or not isinstance(measures, Sequence)
    ):
        fail(
            f"measures: must be a measure name or a sequence of names; got "
            f"{type(measures).__name__} {measures!r}",
            TypeError,
        )
    seed = check_int_range("random_state", random_state, minimum=0, owner="crosscheck")
    tolerance = check_real_range("tolerance", tolerance, low=0.0)
    options = check_mapping("options", options)
    with_r = [m for m in list_measures() if m.r_reference is not None]
    notes = []
    if measures is None:
        infos = with_r
        if inputs is not None and "similarity" not in options:
            left = [m.name for m in infos if "similarity" in m.parameter_names]
            infos = [m for m in infos if m.name not in left]
            if left:
                notes.append(
                    f"not cross-checked without a similarity matrix: " f"{', '.join(left)}"
                )
    else:
        infos = [get_measure(name) for name in measures]
        lacking = [m.name for m in infos if m.r_reference is None]
        if lacking:
            fail(
                f"measures: {', '.join(map(repr, lacking))} have no R reference "
                f"in the registry; cross-checkable: "
                f"{', '.join(m.name for m in with_r)}"
            )
    max_examples = check_int_range(
        "max_examples", max_examples, minimum=1, maximum=10**6, owner="crosscheck"
    )  # as audit's
    wanted(progress)  # checked before the long part
    if inputs is None:
        if options:
            fail(
                f"options: only with inputs= (the generated cases draw every "
                f"comparable value); got {', '.join(options)}"
            )
        versions = r_versions()
        rows = [
            _row(info, ref, tolerance, max_examples, seed)
            for info in progress_bar(infos, progress=progress, total=len(infos), desc="crosscheck")
            for ref in references_of(info)
        ]
        return CrosscheckReport(
            tuple(rows), versions, float(tolerance), int(seed), int(max_examples)
        )
    matrices, infos, skipped = _matrices_by_kind(inputs, infos, explicit=measures is not None)
    notes += skipped
    declared = {p.name for m in infos for p in m.parameters}
    unknown = [k for k in options if k not in declared]
    if unknown:
        fail(
            f"options: {', '.join(map(repr, unknown))} not an option of "
            f"{', '.join(m.name for m in infos)}; their options: "
            f"{', '.join(sorted(declared)) or 'none'}"
        )
    for m in infos:
        if "similarity" in m.parameter_names and "similarity" not in options:
            fail(
                f"options: {m.name} needs a similarity matrix to be cross-checked "
                f"on inputs; pass options={{'similarity': S}} (None: the "
                f"identity)"
            )
    versions = r_versions()
    rows = [
        row
        for info in progress_bar(infos, progress=progress, total=len(infos), desc="crosscheck")
        for row in _input_rows(info, matrices[info.input], options, tolerance)
    ]
    names = tuple(f"{n} ({Z.shape[0]} x {Z.shape[1]})" for n, Z in next(iter(matrices.values())))
    return CrosscheckReport(
        tuple(rows),
        versions,
        float(tolerance),
        int(seed),
        int(max_examples),
        inputs=names,
        notes=tuple(notes),
    )
