"""Reproducible searches for counterexamples (the ``audit`` extra).

One search engine serves the axiom audit (:mod:`propstab.auditing`) and the R
cross-check (:func:`propstab.crosscheck`): :func:`search` runs a *probe* on examples
of a Hypothesis strategy and returns the minimal refuting example, shrunk by
Hypothesis, instead of raising it. Every search, and the test suite's Hypothesis
profile, derives its settings from the one settings object :data:`REPRODUCIBLE`: no
example database, no deadline, and either derandomised (:data:`REPRODUCIBLE` itself)
or seeded (:func:`search`), so that a search gives the same result on every machine
and every run.

A probe returns a :class:`Found` for a refuting example and None otherwise; it may
call :func:`assume` (the example is outside the property's domain), :func:`assume_defined`
and :func:`target` (guide the search towards large values).

Examples
--------
The smallest pair of integers whose product exceeds their sum by more than 5:

>>> from hypothesis import strategies as st
>>> from propstab.search import Found, search
>>> def probe(pair):
...     a, b = pair
...     if a * b > a + b + 5:
...         return Found(pair, (a * b, a + b), "the product exceeds the sum by more than 5")
...     return None
>>> found = search(st.tuples(st.integers(0, 100), st.integers(0, 100)), probe,
...                max_examples=200, random_state=0)
>>> found.example, found.reason
((2, 8), 'the product exceeds the sum by more than 5')
"""
from __future__ import annotations

import contextvars
import math
from typing import Any, Callable, Iterable, Optional, Tuple, Union

import numpy as np

from ._utils.params import RENAMED_SEED, renamed

try:
    import hypothesis
    from hypothesis import HealthCheck, Phase, Verbosity
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("propstab's searches need Hypothesis: pip install propstab[audit]") from exc

__all__ = ["REPRODUCIBLE", "Found", "assume", "assume_defined", "search", "target"]

REPRODUCIBLE = hypothesis.settings(database=None, deadline=None, derandomize=True)
"""The Hypothesis settings every propstab search derives from: no example database (the
same examples on every machine), no per-example deadline (timings are not properties),
derandomised. :func:`search` keeps the first two and replaces derandomisation by a seed;
``hypothesis.find(strategy, condition, settings=REPRODUCIBLE)`` finds the same minimal
example on every run, and the test suite's Hypothesis profile is this object."""


# Every phase but ``explain``: it only words the report of a failure (which a search
# returns as its Found, never prints), and to do so runs each shrinking step under
# sys.settrace; the examples drawn, targeted and shrunk are the same without it.
_PHASES = tuple(p for p in Phase if p.name != "explain")


class Found(Exception):
    """A refuting example, raised inside a search and returned by :func:`search`.

    Parameters
    ----------
    example : object
        The refuting example.
    values : tuple, optional
        The values that refute the property on it.
    reason : str, optional
        Why they refute it, in one sentence (also the exception's message).

    Attributes
    ----------
    example : object
        The example (shrunk by Hypothesis when it was generated).
    values : tuple
        The values that refute the property on it.
    reason : str
        Why they refute it, in one sentence.
    context : object or None
        Anything drawn with the example that the property depends on (for the audit:
        the similarity matrix and importance weights of a correlated measure).

    See Also
    --------
    propstab.search.search : Runs a probe and returns the minimal Found.
    propstab.auditing.CheckResult : The audit's verdict, which carries a Found's example.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (a failing example, raised
    and then shrunk).

    Examples
    --------
    >>> from propstab.search import Found
    >>> found = Found([[1, 0], [0, 1]], (-1.0,), "below the declared lower bound 0")
    >>> found.example, found.values, str(found)
    ([[1, 0], [0, 1]], (-1.0,), 'below the declared lower bound 0')
    """

    def __init__(self, example: Any, values: Tuple = (), reason: str = ""):
        super().__init__(reason)
        self.example, self.values, self.reason = example, values, reason
        self.context: Any = None


_EXPLICIT = contextvars.ContextVar("propstab_explicit_example", default=False)


class _Skip(Exception):
    """An explicit example outside the property's domain (its ``assume`` failed)."""


@renamed(RENAMED_SEED)
def search(
    strategy,
    probe: Callable[[Any], Optional[Found]],
    *,
    max_examples: int,
    random_state: int,
    examples: Iterable = (),
) -> Union[Found, None, str]:
    """Run ``probe`` on examples of ``strategy``; the shrunk :class:`Found` or None.

    Parameters
    ----------
    strategy : SearchStrategy
        The examples to search.
    probe : callable
        ``probe(example) -> Found or None``: a :class:`Found` for a refuting example.
        It may call :func:`assume`, :func:`assume_defined` and :func:`target`.
    max_examples : int
        Generated examples (Hypothesis's ``max_examples``).
    random_state : int
        The seed of the generation (Hypothesis's ``@seed``; ``seed=`` is its deprecated
        name: a DeprecationWarning).
    examples : iterable, optional
        Explicit examples tried first, in order and as given (never shrunk); an
        explicit example whose :func:`assume` fails is skipped.

    Returns
    -------
    Found, None or ``"unsatisfiable"``
        The minimal refuting example (Hypothesis's shrunk one, or the first refuting
        explicit example); None when no example refutes; ``"unsatisfiable"`` when no
        generated example satisfied the probe's assumptions.

    Raises
    ------
    hypothesis.errors.InvalidArgument
        A ``TypeError``: an invalid ``strategy``, or ``max_examples`` not an integer
        >= 1 (Hypothesis's own validation).
    Exception
        Any exception of ``probe`` other than :class:`Found` propagates unchanged.
        A probe that refutes an example and not when Hypothesis replays it (a flaky
        probe: a timing, a command's timeout) gives that first refutation, unshrunk,
        never Hypothesis's ``Flaky``.

    See Also
    --------
    propstab.search.assume : Skips an example outside the property's domain.
    propstab.search.target : Guides the search towards large values.
    propstab.audit : The axiom audit, built on this search.

    Notes
    -----
    The settings are :data:`REPRODUCIBLE` with ``max_examples``, the seed instead of
    derandomisation, one counterexample only, quiet output and no health checks (a
    search may reject many examples by design): the same strategy, probe, number of
    examples and seed give the same result on every run.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (``given``, ``seed``,
    ``settings``
    and shrinking).

    Examples
    --------
    >>> from hypothesis import strategies as st
    >>> from propstab.search import Found, assume, search
    >>> def odd_square_above_50(n):
    ...     assume(n % 2 == 1)
    ...     return Found(n, (n * n,), "odd, square above 50") if n * n > 50 else None
    >>> search(st.integers(0, 1000), odd_square_above_50, max_examples=100, random_state=0).example
    9
    >>> search(st.integers(0, 5), odd_square_above_50, max_examples=100, random_state=0) is None
    True
    """

    # a NumPy integer is an integer here (Hypothesis takes only int: random.seed refuses
    # np.int64 and settings an np.int64 max_examples); anything else is left to Hypothesis
    random_state, max_examples = (
        int(v) if isinstance(v, np.integer) else v for v in (random_state, max_examples)
    )

    @hypothesis.settings(
        REPRODUCIBLE,
        max_examples=max_examples,
        derandomize=False,
        report_multiple_bugs=False,
        print_blob=False,
        phases=_PHASES,
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
    )
    @hypothesis.seed(random_state)
    @hypothesis.given(strategy)
    def run(example):
        found = probe(example)
        if found is not None:
            raise found

    token = _EXPLICIT.set(True)
    try:
        for example in examples:
            try:
                found = probe(example)
            except _Skip:
                continue
            if found is not None:
                return found
    finally:
        _EXPLICIT.reset(token)
    try:
        run()
    except Found as found:
        return found
    except hypothesis.errors.Unsatisfiable:
        return "unsatisfiable"
    except hypothesis.errors.Flaky as flaky:  # refuted once, not when replayed
        return _first_cause(flaky)
    return None


def _first_cause(flaky):
    """The first refutation of a flaky probe (one that refuted an example and did not when
    Hypothesis replayed it: a timing, a command's timeout): that :class:`Found`, unshrunk;
    another exception of the probe propagates as the probe raised it."""
    causes = [flaky.__cause__, *getattr(flaky, "exceptions", ())]
    for cause in causes:
        if isinstance(cause, Found):
            return cause
    for cause in causes:
        if isinstance(cause, Exception):
            raise cause
    raise flaky


def assume(condition) -> None:
    """Skip the current example unless ``condition`` holds.

    Inside a :func:`search`: ``hypothesis.assume`` for a generated example (Hypothesis
    then draws another), and a skip for an explicit example (the next one is tried).

    Parameters
    ----------
    condition : bool
        Whether the example is in the property's domain.

    Returns
    -------
    None
        Returns when ``condition`` holds.

    Raises
    ------
    hypothesis.errors.UnsatisfiedAssumption
        For a generated example whose ``condition`` fails: Hypothesis's signal to draw
        another, caught by :func:`search` (an explicit example is skipped likewise).

    See Also
    --------
    assume_defined : Assume that a measure's value is defined.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (``hypothesis.assume``).

    Examples
    --------
    >>> from hypothesis import strategies as st
    >>> from propstab.search import Found, assume, search
    >>> def even_above_10(n):
    ...     assume(n % 2 == 0)
    ...     return Found(n, (), "even, above 10") if n > 10 else None
    >>> search(st.integers(0, 100), even_above_10, max_examples=50, random_state=0,
    ...        examples=[13, 40]).example           # 13 is skipped, 40 refutes as given
    40
    """
    if not condition:
        if _EXPLICIT.get():
            raise _Skip
        hypothesis.assume(False)


def assume_defined(value: float) -> float:
    """``value``, after :func:`assume` that it is not NaN (the measure is defined on the
    example).

    Parameters
    ----------
    value : float
        A measure's value on the example.

    Returns
    -------
    float
        ``value`` itself.

    Raises
    ------
    TypeError
        If ``value`` is not a real number.
    hypothesis.errors.UnsatisfiedAssumption
        For a generated example whose value is NaN (as :func:`assume`).

    See Also
    --------
    propstab.search.assume : The general form.
    propstab.UndefinedMeasureWarning : The warning that comes with a NaN value.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (``hypothesis.assume``).

    Examples
    --------
    >>> import math
    >>> from hypothesis import strategies as st
    >>> from propstab.search import Found, assume_defined, search
    >>> def probe(x):
    ...     v = assume_defined(math.log(x) if x > 0 else math.nan)
    ...     return Found(x, (v,), "log above 2") if v > 2 else None
    >>> search(st.integers(-5, 100), probe, max_examples=100, random_state=0).example
    8
    """
    assume(not math.isnan(value))
    return value


def target(observation: float, label: str) -> None:
    """Guide a :func:`search` towards large values of ``observation`` (``hypothesis.target``).

    Only finite observations of generated examples are targeted; explicit examples and
    NaN or infinite observations are ignored.

    Parameters
    ----------
    observation : float
        The quantity to maximise (e.g. a measure's value, or minus it).
    label : str
        Its name; each label is maximised separately.

    Returns
    -------
    None
        The observation is recorded for Hypothesis's targeted search.

    Raises
    ------
    TypeError
        If ``observation`` is not a real number.
    hypothesis.errors.InvalidArgument
        A ``TypeError``: ``label`` not a str, or two observations with one label in
        one example (Hypothesis's rules for ``target``).

    See Also
    --------
    propstab.search.search : The search it guides.

    References
    ----------
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891.
    Loscher, A., Sagonas, K. (2017). Targeted property-based testing. ISSTA,
    46-56 (the idea behind ``hypothesis.target``).

    Examples
    --------
    >>> from hypothesis import strategies as st
    >>> from propstab.search import Found, search, target
    >>> def probe(xs):
    ...     target(float(sum(xs)), "sum")
    ...     return Found(xs, (sum(xs),), "sum above 150") if sum(xs) > 150 else None
    >>> found = search(st.lists(st.integers(0, 20), max_size=10), probe, max_examples=200,
    ...                random_state=0)
    >>> sum(found.example) == 151                 # shrunk to the boundary
    True
    """
    if math.isfinite(observation) and not _EXPLICIT.get():
        hypothesis.target(float(observation), label=label)
