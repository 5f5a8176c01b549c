"""The axiom audit: every measure's declared axioms, checked.

Each of the five axioms (:class:`propstab.Axiom`, thesis ch. 4 in the formal
statements of :attr:`Axiom.statement`) has one check, ``check_<axiom>``, usable in
both directions:

- a **claimed** axiom is searched for a counterexample: none found gives
  ``"holds"``, one found gives ``"violated"`` (the declaration is wrong);
- a **disclaimed** axiom is searched for a counterexample that refutes it: one
  found gives ``"refuted"``, none found gives ``"unrefuted"`` (never "holds").

Searches are Hypothesis searches over selection matrices (:mod:`propstab.strategies`),
seeded and without an example database so that an audit is reproducible, and the
counterexample reported is Hypothesis's shrunk, minimal one (or one of the small
explicit matrices tried first: pairs of matrices with equal total variance, and
matrices at the declared maximum). Where blind search is weak the checks add
constructive families (unbounded values along :math:`Z_n`, thesis App. B.3) and exact
computation: CORRECTION_FOR_CHANCE compares exact null
expectations (hypergeometric per pair for pairwise measures, exact enumeration of
all tuples of subsets otherwise), never simulated ones.

A measure with a ``similarity`` or ``importances`` option (the correlated family)
declares its axioms for EVERY admissible similarity matrix C (symmetric, entries in
[0, 1], unit diagonal) and importance matrix: each search draws C
(:func:`propstab.strategies.similarity_matrices`: identity, 0/1 groups, general) and
importance weights U (importances ``Z * U``, :func:`propstab.strategies.importance_weights`)
with every example, the counterexample reports them (:attr:`CheckResult.context`),
BOUNDS adds constructive families of pairs :math:`(Z_n, C_n)` and
CORRECTION_FOR_CHANCE enumerates :math:`H_0` exactly for each drawn C (the null model does not
involve C), the constant being the same for every M, d, sizes and C.

A measure of the ranking family (declaration ``input="ranking"``) is checked against the
axioms' statements for rank matrices (:attr:`Axiom.ranking_statement`) on rank matrices
(:func:`propstab.strategies.rank_matrices` and its companions), with exact null
expectations over the arrangements of each run's midranks (docs/rankings.md).

:func:`audit` runs every check on every registered measure (and on the parameter
values where verdicts differ, :data:`VARIANTS`) or on a user function, and returns
an :class:`AuditTable`. The searches use the one engine of :mod:`propstab.search`.

Examples
--------
>>> import propstab
>>> table = propstab.audit("kuncheva", max_examples=30)
>>> table.status("kuncheva", "correction")
'holds'
>>> table.status("kuncheva", "fully defined")     # constant sizes only: refuted
'refuted'
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Optional

# the machinery's public names, re-exported (CHECKS, DEFAULT_MAX_EXAMPLES, the sizes and
# limits of the searches are read by the CLI and the property suite)
from ._checks import (
    CHECKS,
    DEFAULT_MAX_EXAMPLES,
    check_bounds,
    check_correction_for_chance,
    check_fully_defined,
    check_maximum,
    check_monotonicity,
)
from ._loader import load_function
from ._report import AuditTable, CheckResult
from ._subjects import VARIANTS, Subject, registered_subjects, subject
from ..registry._registry import MeasureInfo, Variant, as_axiom, list_measures, lookup
from .._utils.checks import fail
from .._utils.execution import BACKEND, FORK, fork_available, run_tasks
from .._utils.params import (
    RENAMED_SEED,
    Boolean,
    Checked,
    Integral,
    Interval,
    renamed,
    validate_params,
)
from .._utils.progress import progress_counter, wanted
from .._utils.checks import check_n_jobs
from ..axioms import Axiom

__all__ = [
    "AuditTable",
    "CheckResult",
    "Variant",
    "VARIANTS",
    "audit",
    "audited_subjects",
    "check_bounds",
    "check_correction_for_chance",
    "check_fully_defined",
    "check_maximum",
    "check_monotonicity",
    "load_function",
    "subject",
]


def audited_subjects(measures=None, **declaration) -> "list[Subject]":
    """The :class:`~propstab.auditing._subjects.Subject` rows an audit covers: each
    registered measure at its default options and at its :data:`VARIANTS`, or user
    functions with ``declaration``.

    Parameters
    ----------
    measures : None, str, MeasureInfo, callable, or a list of them
        As for :func:`audit`.
    **declaration
        For a callable, as for :func:`subject`; a keyword (not None) given with a
        registered measure raises ValueError.

    Returns
    -------
    list of Subject

    Raises
    ------
    TypeError
        If ``measures`` (or an item of it) is neither a name, a MeasureInfo nor a
        callable.
    ValueError
        An unknown measure name, a declaration keyword with a registered measure, an
        invalid declaration.

    See Also
    --------
    propstab.auditing.subject : One subject.
    propstab.audit : Checks every subject.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Table 4.1 (every measure against
    every property).

    Examples
    --------
    >>> from propstab.auditing import audited_subjects
    >>> [s.name for s in audited_subjects("jaccard")]
    ['jaccard', 'jaccard[correction_for_chance=exact]']
    """
    if measures is None:
        measures = list_measures()
    elif isinstance(measures, (str, MeasureInfo)) or callable(measures):
        measures = [measures]
    elif isinstance(measures, (bytes, Mapping)) or not isinstance(measures, Iterable):
        fail(
            f"measures: must be a measure name, a MeasureInfo, a function "
            f"f(Z) -> float or a list of them; got {type(measures).__name__} "
            f"{measures!r}",
            TypeError,
        )
    out = []
    for m in measures:
        if not isinstance(m, (str, MeasureInfo)) and not callable(m):
            fail(
                f"measures: every item must be a measure name, a MeasureInfo or "
                f"a function f(Z) -> float; got {type(m).__name__} {m!r}",
                TypeError,
            )
        if isinstance(m, str):
            m = lookup(m, argument="measures")
        if isinstance(m, MeasureInfo):
            out.extend(registered_subjects(m, **declaration))
        else:
            out.append(subject(m, **declaration))
    return out


#: joblib's n_jobs (the message of :func:`propstab._utils.checks.check_n_jobs`)
N_JOBS = Checked(
    check_n_jobs, "None or a non-zero integer (-1: all cores)", invalid=(0, 1.5, "2", True, [2])
)


def check_one(max_examples: int, seed: int, subject: Subject, axiom: Axiom) -> CheckResult:
    """One check of one subject: the task the audit sends to a worker (one at a time in
    a worker's process: Hypothesis's engine, numpy's global random state and the
    warning filters are the process's, and concurrent searches in a dask worker's
    threads corrupted each other: Hypothesis raised Flaky)."""
    return CHECKS[axiom](subject, max_examples=max_examples, random_state=seed)


#: The mean CPU seconds of one check at 200 examples, by the subject's kind and the axiom
#: (one process, every check in turn, on this project's machine; benchmarks/bench_audit.py
#: times the whole audit): parallel audits send the costly checks first, so that the last
#: ones, short, even out the workers.
CHECK_SECONDS = {
    "correlated": {
        Axiom.FULLY_DEFINED: 0.23,
        Axiom.MONOTONICITY: 0.01,
        Axiom.BOUNDS: 0.83,
        Axiom.MAXIMUM: 0.06,
        Axiom.CORRECTION_FOR_CHANCE: 0.46,
    },
    "ranking": {
        Axiom.FULLY_DEFINED: 0.14,
        Axiom.MONOTONICITY: 0.01,
        Axiom.BOUNDS: 0.56,
        Axiom.MAXIMUM: 0.26,
        Axiom.CORRECTION_FOR_CHANCE: 0.41,
    },
    "pairwise": {
        Axiom.FULLY_DEFINED: 0.11,
        Axiom.MONOTONICITY: 0.06,
        Axiom.BOUNDS: 0.62,
        Axiom.MAXIMUM: 0.34,
        Axiom.CORRECTION_FOR_CHANCE: 0.41,
    },
    "other": {
        Axiom.FULLY_DEFINED: 0.11,
        Axiom.MONOTONICITY: 0.17,
        Axiom.BOUNDS: 0.38,
        Axiom.MAXIMUM: 0.27,
        Axiom.CORRECTION_FOR_CHANCE: 0.07,
    },
}


def expected_seconds(subject: Subject, axiom: Axiom) -> float:
    """The expected CPU time of a check (:data:`CHECK_SECONDS`)."""
    kind = (
        "correlated"
        if subject.contexts is not None
        else "ranking"
        if subject.declaration.input == "ranking"
        else "pairwise"
        if subject.pairwise
        else "other"
    )
    return CHECK_SECONDS[kind][axiom]


def raise_if_broken(measures) -> None:
    """Raise the ProtocolError of a :func:`propstab.testing.command` among ``measures``
    that broke the protocol during the audit (its checks read an error as undefined)."""
    for m in measures if isinstance(measures, (list, tuple)) else [measures]:
        if getattr(m, "broken", None) is not None:
            raise m.broken


#: The most Hypothesis examples per check (``max_examples``): a check of 200 examples
#: takes about a second, so 10**6 is already days of searching for the whole registry.
MAX_EXAMPLES = 10**6


@renamed(RENAMED_SEED)
@validate_params(
    {
        "max_examples": Interval(Integral, 1, MAX_EXAMPLES),
        "random_state": Interval(Integral, 0, None),
        "progress": Boolean(none=True),
        "n_jobs": N_JOBS,
        "backend": BACKEND,
    }
)
def audit(
    measures=None,
    *,
    max_examples: int = DEFAULT_MAX_EXAMPLES,
    random_state: int = 0,
    axioms: Optional[Iterable] = None,
    progress=None,
    n_jobs=None,
    backend=None,
    **declaration,
) -> AuditTable:
    """Check every declared axiom of stability measures.

    Parameters
    ----------
    measures : None, str, MeasureInfo, callable, or a list of them
        ``None``: every registered measure, each at its default options and at the
        parameter values of :data:`VARIANTS`. A callable ``f(Z) -> float`` (Z a
        boolean ndarray) is audited without being registered.
    max_examples : int, default 200
        Hypothesis examples per check, at most 10**6.
    random_state : int, default 0
        The seed: the audit is reproducible for a fixed one (``seed=`` is its
        deprecated name: a DeprecationWarning).
    axioms : iterable of Axiom or names, optional
        Only these axioms.
    progress : bool or None, default None
        A progress bar with one step per (measure, axiom) check: None shows it only when
        a person watches (a terminal or a Jupyter kernel),
        True always, False never.
    n_jobs : int, optional
        The checks run in this many processes (-1: every core; None or 1: here, one
        after the other): on Linux forked from this one (they start at once, with
        propstab imported), elsewhere joblib's loky. Each check is seeded on its own:
        the table is the same for every ``n_jobs`` and ``backend``.
    backend : None, str or dask.distributed.Client, optional
        Where the checks run instead (docs/scaling.md): a ``Client`` (the workers of
        its cluster, for instance ``Client("tcp://scheduler:8786")``), ``"dask"`` (the
        current default client) or the name of a joblib backend of processes with
        ``n_jobs`` (not ``"threading"``: Hypothesis is not thread-safe). A user's
        function travels to the workers pickled by value (cloudpickle).
    **declaration
        For a callable: ``claims``, ``lower``, ``upper``, ``orientation``, ``domain``,
        ``null_value``, ``pairwise``, ``symmetric``, ``input`` (``"ranking"`` for a
        function of rank matrices; see :func:`subject`). A registered measure declares
        its own: a declaration keyword with one raises ValueError.

    Returns
    -------
    AuditTable

    Raises
    ------
    ValueError
        ``max_examples`` < 1, ``random_state`` < 0, an unknown measure or axiom, a declaration
        keyword for a registered measure, an invalid declaration, an
        unknown backend name or ``"threading"``.
    TypeError
        An unknown keyword, a measure that is neither a name nor a callable, a
        backend that is neither a name nor a Client.

    See Also
    --------
    propstab.AuditTable : The table returned.
    propstab.Axiom : The five properties checked.
    propstab.crosscheck : The other check of every measure, against R.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 4, Table 4.1 and App. B.
    Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature selection
    algorithms. JMLR 18(174), 1-54, sec. 3.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891.

    Examples
    --------
    >>> import propstab
    >>> def coverage(Z):                    # the mean selection frequency (Goh's measure)
    ...     return float(Z.mean())
    >>> table = propstab.audit(coverage, claims=["bounds"], lower=0, upper=1,
    ...                        max_examples=30)
    >>> [table.status("coverage", a) for a in ("bounds", "maximum", "correction")]
    ['holds', 'refuted', 'refuted']
    >>> propstab.audit("nogueira", claims=["bounds"])
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: claims: 'nogueira' is a registered measure: it declares its
    own claims and
    bounds; declaration keywords apply only to a user function f(Z) -> float; got
    claims=['bounds']
    """
    if isinstance(axioms, (str, Axiom)):
        axioms = [axioms]
    elif axioms is not None and (
        isinstance(axioms, (bytes, Mapping)) or not isinstance(axioms, Iterable)
    ):
        fail(
            f"axioms: must be an iterable of axioms or their names; got "
            f"{type(axioms).__name__} {axioms!r}",
            TypeError,
        )
    chosen = list(Axiom) if axioms is None else [as_axiom(a, "axioms") for a in axioms]
    if backend == "threading":
        fail(
            "backend: must run the checks in processes (Hypothesis's searches share "
            "global state and are not thread-safe): None, 'loky', 'multiprocessing', "
            "'dask' or a dask.distributed Client; got 'threading'",
            function="audit",
        )
    wanted(progress)  # checked before the long part
    pairs = [(s, a) for s in audited_subjects(measures, **declaration) for a in chosen]
    # in parallel the longest checks go first (each check is seeded on its own, so the
    # order changes nothing but the time); the rows come back in the table's order
    order = list(range(len(pairs)))
    parallel = n_jobs not in (None, 1) or backend is not None
    if parallel:
        order.sort(key=lambda i: -expected_seconds(*pairs[i]))
    if backend is None and parallel and fork_available():
        backend = FORK
    with progress_counter(progress=progress, total=len(pairs), desc="audit") as bar:
        done = run_tasks(
            check_one,
            [pairs[i] for i in order],
            shared=(max_examples, random_state),
            n_jobs=n_jobs,
            bar=bar,
            backend=backend,
            exclusive=True,
        )
    rows = [None] * len(pairs)
    for i, row in zip(order, done):
        rows[i] = row
    raise_if_broken(measures)  # a command off the protocol: not a table of NaN
    return AuditTable(rows)
