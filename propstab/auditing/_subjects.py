"""What the audit checks: a measure, its options and its :class:`Declaration`.

A :class:`Subject` is built from a registry entry (at its default options or at one of
its :class:`Variant` s) or from a user function, whose declaration comes from keywords
or from the function's attributes (:meth:`Declaration.of`): the declaration type is
the registry's, for all of them. A correlated measure (options ``similarity`` or
``importances``) also carries the machinery that draws a :class:`Context` with every
example (:func:`search_in_contexts`).
"""
from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import math
import warnings
from typing import Any, Callable, Iterator, Mapping, Optional, Tuple

import numpy as np
from hypothesis import strategies as st

from ..registry._registry import Declaration, MeasureInfo, Variant, get_measure, list_measures
from ..registry._option_checks import check_options
from ..search import search
from ..strategies import importance_weights, similarity_matrices
from ._expectations import ENUMERATION_LIMIT
from ._prng import numpy_state_cheaply
from .._utils.checks import fail

__all__ = [
    "CONTEXT_ENUMERATION_LIMIT",
    "CONTEXT_PARAMETERS",
    "Context",
    "DECLARATION_KEYWORDS",
    "Subject",
    "TOLERANCE",
    "VARIANTS",
    "close",
    "label",
    "registered_subjects",
    "search_in_contexts",
    "subject",
]

TOLERANCE = 1e-9  # relative/absolute tolerance of "equal" values

#: The options of a correlated measure whose values a search draws with each example: a
#: declaration holds for EVERY admissible similarity matrix and importance matrix.
CONTEXT_PARAMETERS = ("similarity", "importances")
#: Tuples of subsets per exact null expectation when a similarity is drawn (the measure is
#: then not invariant under feature permutations, so no run is fixed by symmetry).
CONTEXT_ENUMERATION_LIMIT = 256
#: The keywords of a user function's declaration (the fields of :class:`Declaration`).
DECLARATION_KEYWORDS = tuple(f.name for f in dataclasses.fields(Declaration))


def close(a: float, b: float) -> bool:
    """Equality of two measure values up to floating-point rounding."""
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def label(name: str, options: Mapping[str, Any]) -> str:
    """A subject's name: ``name[option=value, ...]`` (``name`` without options)."""
    if not options:
        return name
    return name + "[" + ", ".join(f"{k}={v}" for k, v in options.items()) + "]"


class _RegisteredVariants(Mapping):
    """{measure name: its variants} for every registered measure that has variants, read
    from the registry on each access (registration order)."""

    def _current(self) -> "dict[str, Tuple[Variant, ...]]":
        return {m.name: m.variants for m in list_measures() if m.variants}

    def __getitem__(self, name: str) -> Tuple[Variant, ...]:
        return self._current()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())

    def __repr__(self) -> str:
        return repr(self._current())


#: The parameter values audited besides each measure's defaults (a read-only view of the
#: registry's ``MeasureInfo.variants``): {measure name: tuple of Variant}.
VARIANTS: Mapping[str, Tuple[Variant, ...]] = _RegisteredVariants()


@dataclasses.dataclass(frozen=True, eq=False)
class Context:
    """What a correlated measure reads besides Z, drawn with each example.

    ``similarity`` is the d x d feature-similarity matrix C (None: the identity);
    ``weights`` are positive M x d weights U giving the importances ``W = Z * U`` of any
    selection Z of that shape (None: equal importances, the measure's default).
    """

    similarity: Optional[np.ndarray] = None
    weights: Optional[np.ndarray] = None

    def is_read_by(self, names) -> bool:
        """True when a measure taking the options ``names`` reads all of this context."""
        return (self.similarity is None or "similarity" in names) and (
            self.weights is None or "importances" in names
        )

    @property
    def is_default(self) -> bool:
        """True for the identity similarity and equal importances (the defaults)."""
        C = self.similarity
        return self.weights is None and (C is None or bool((C == np.eye(len(C))).all()))

    def options(self, Z: np.ndarray, names) -> dict:
        """The measure's keyword options for Z (only the parameters in ``names``)."""
        out = {}
        if "similarity" in names:
            out["similarity"] = self.similarity
        if "importances" in names:
            out["importances"] = None if self.weights is None else Z * self.weights
        return out

    def key(self) -> tuple:
        """A hashable identity (for memoising expectations)."""
        return tuple(
            None if a is None else (a.shape, a.tobytes()) for a in (self.similarity, self.weights)
        )

    def to_dict(self) -> dict:
        return {
            "similarity": None if self.similarity is None else self.similarity.tolist(),
            "importance_weights": None if self.weights is None else self.weights.tolist(),
        }

    def __str__(self) -> str:
        def text(a):
            return "[" + ", ".join("[" + ", ".join(f"{x:g}" for x in row) + "]" for row in a) + "]"

        C = self.similarity
        parts = (
            [] if C is None else ["C = I"] if (C == np.eye(len(C))).all() else [f"C = {text(C)}"]
        )
        if self.weights is not None:
            parts.append(f"importances Z * {text(self.weights)}")
        return ", ".join(parts) or "the defaults (C = I, equal importances)"


@dataclasses.dataclass(frozen=True)
class Subject:
    """A measure under audit: a name, an evaluation, its options and its declaration.

    ``evaluate(Z)`` takes a boolean ndarray; ``declaration`` is the registry's
    :class:`~propstab.registry.Declaration` (claims, bounds, orientation, domain,
    null value, pairwise, symmetric), whose fields are also read as attributes of the
    subject (``subject.claims``, ``subject.lower``, ...).

    A measure reading a similarity matrix or importances (the correlated family) has
    ``contexts``, a function ``(M, d) -> SearchStrategy`` of :class:`Context`, and
    ``evaluate_in(Z, context)``; ``reads`` names the options it takes ("similarity",
    "importances"). Its claims are claims for every context, so every search draws one
    with each example, and :meth:`bind` fixes one (``context``).
    ``enumeration_limit`` caps the tuples of subsets of an exact expectation.
    """

    name: str
    evaluate: Callable[[np.ndarray], float]
    declaration: Declaration
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    contexts: Optional[Callable[[int, int], Any]] = None
    reads: frozenset = frozenset()
    evaluate_in: Optional[Callable[[np.ndarray, Context], float]] = None
    context: Optional[Context] = None
    enumeration_limit: int = ENUMERATION_LIMIT
    #: {(context, Z): value} of :meth:`value` for a registered measure (a function of Z and
    #: its options, so a matrix met again, as Hypothesis's searches often do, is not
    #: computed again); None for a user function, which is called every time.
    values: Optional[dict] = dataclasses.field(default=None, compare=False, repr=False)

    # the declaration's fields, read through the subject
    claims = property(lambda self: self.declaration.claims)
    lower = property(lambda self: self.declaration.lower)
    upper = property(lambda self: self.declaration.upper)
    constant_bounds = property(lambda self: self.declaration.constant_bounds)
    orientation = property(lambda self: self.declaration.orientation)
    domain = property(lambda self: self.declaration.domain)
    null_value = property(lambda self: self.declaration.null_value)
    pairwise = property(lambda self: self.declaration.pairwise)
    symmetric = property(lambda self: self.declaration.symmetric)

    def declaring(self, **changes) -> "Subject":
        """This subject with its declaration changed (:meth:`Declaration.replace`; a
        ``claims`` mapping overrides the axioms it lists)."""
        return dataclasses.replace(self, declaration=self.declaration.replace(**changes))

    def bind(self, context: Context) -> "Subject":
        """This subject with its similarity/importances fixed to ``context``: invariant
        under feature permutations only for the default context."""
        evaluate_in = self.evaluate_in
        return dataclasses.replace(
            self,
            evaluate=lambda Z: evaluate_in(Z, context),
            contexts=None,
            evaluate_in=None,
            context=context,
            declaration=self.declaration.replace(symmetric=self.symmetric and context.is_default),
        )

    @property
    def sign(self) -> int:
        """+1 when a higher value is more stable, -1 otherwise."""
        return 1 if self.orientation == "higher" else -1

    @property
    def sizes(self) -> str:
        """The ``subset_sizes`` argument of the strategies for this measure's domain."""
        return "constant" if self.domain == "constant_size" else "any"

    def value(self, Z: np.ndarray) -> float:
        """The value, NaN where the measure is undefined (warning or error swallowed)."""
        memo = self.values
        if memo is not None and REUSE[0]:
            key = (
                None if self.context is None else self.context.key(),
                Z.dtype.str,
                Z.shape,
                Z.tobytes(),
            )
            v = memo.get(key)
            if v is None:
                v = memo[key] = self._value(Z)
            return v
        return self._value(Z)

    def _value(self, Z: np.ndarray) -> float:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                v = float(self.evaluate(Z))
            except Exception:  # undefined here; FULLY_DEFINED reports exceptions
                return math.nan
        return v if math.isfinite(v) else math.nan

    def maximum(self, Z: np.ndarray) -> Optional[float]:
        """The declared most-stable value for Z's shape (upper bound, or lower bound
        when lower is more stable); None when undeclared."""
        bound = self.upper if self.orientation == "higher" else self.lower
        if bound is None:
            return None
        M, d = Z.shape
        lo, hi = self.declaration.bounds_at(M, d, Z.sum(axis=1))  # an inverted pair refused
        return hi if self.orientation == "higher" else lo


@functools.lru_cache(maxsize=1024)
def _contexts_of(names: frozenset, M: int, d: int):
    """The strategy of contexts for the shape (M, d), one object per shape (see
    :func:`propstab.strategies._base.memoised`: the same draws as a new one)."""
    return st.builds(
        Context,
        similarity=similarity_matrices(d) if "similarity" in names else st.none(),
        weights=importance_weights(M, d) if "importances" in names else st.none(),
    )


def _context_strategy(names):
    names = frozenset(names)

    def contexts(M, d):
        return _contexts_of(names, M, d)

    contexts.names = names  # what it draws, for replayed searches
    return contexts


def _registered(info: MeasureInfo, variant: Optional[Variant] = None) -> Subject:
    options = dict(variant.options) if variant else {}
    declaration = info.declaration if variant is None else variant.declaration(info.declaration)
    function = info.function
    contextual = {}
    names = {p.name for p in info.parameters} & set(CONTEXT_PARAMETERS) - set(options)
    if names:
        contextual = dict(
            contexts=_context_strategy(names),
            reads=frozenset(names),
            evaluate_in=lambda Z, context: function(Z, **options, **context.options(Z, names)),
            enumeration_limit=CONTEXT_ENUMERATION_LIMIT,
        )
    return Subject(
        name=label(info.name, options),
        evaluate=lambda Z: function(Z, **options),
        declaration=declaration,
        options=options,
        values={},
        **contextual,
    )


def _no_declaration(what: str, declaration: Mapping[str, Any]) -> None:
    """Reject declaration keywords for a measure that has its own declaration."""
    unknown = sorted(set(declaration) - set(DECLARATION_KEYWORDS))
    if unknown:
        fail(
            f"{unknown[0]}: not a declaration keyword (unexpected keyword(s) "
            f"{', '.join(unknown)}); known: {', '.join(DECLARATION_KEYWORDS)}",
            TypeError,
        )
    given = [k for k in DECLARATION_KEYWORDS if declaration.get(k) is not None]
    if given:
        fail(
            f"{', '.join(given)}: {what} declares its own claims and bounds; "
            f"declaration keywords apply only to a user function f(Z) -> float; "
            f"got {', '.join(f'{k}={declaration[k]!r}' for k in given)}"
        )


def registered_subjects(measure, **declaration) -> "list[Subject]":
    """A registered measure (name or :class:`MeasureInfo`) at its default options and at
    each of its variants; declaration keywords (not None) raise ValueError."""
    info = get_measure(measure) if isinstance(measure, str) else measure
    _no_declaration(f"{info.name!r} is a registered measure: it", declaration)
    return [_registered(info), *(_registered(info, v) for v in info.variants)]


def subject(
    measure,
    *,
    options: Optional[Mapping[str, Any]] = None,
    claims=None,
    lower=None,
    upper=None,
    orientation: Optional[str] = None,
    domain: Optional[str] = None,
    null_value: Optional[float] = None,
    pairwise: Optional[bool] = None,
    symmetric: Optional[bool] = None,
    input: Optional[str] = None,
) -> Subject:
    """What to audit: a registered measure (name or :class:`MeasureInfo`) at ``options``,
    or a user function ``f(Z) -> float`` taking a boolean ndarray (called as
    ``f(Z, **options)``).

    A registered measure's declaration is its registry entry's (at a registered
    :class:`Variant`'s options, the variant's); passing a declaration keyword for it
    raises ValueError. A user function's declaration
    (:meth:`~propstab.registry.Declaration.of`) comes
    from the keywords or from attributes of the function of the same names
    (``f.claims``, ``f.lower``, ``f.upper``, ``f.orientation``, ``f.domain``,
    ``f.null_value``, ``f.pairwise``, ``f.symmetric``, ``f.input``), keywords first. ``claims`` is
    a
    mapping {Axiom or name: bool} or an iterable of the claimed axioms; unlisted axioms
    are disclaimed. ``pairwise=True`` states that f is the average of a pair score over
    pairs of runs, which makes exact null expectations available for any size;
    ``symmetric=True`` that f is invariant under permutations of features and of runs,
    which lets exact enumeration fix one run (registered measures are both as their
    family says).

    Parameters
    ----------
    measure : str, MeasureInfo, Subject or callable
        A registered measure's name or entry, a subject (returned as it is), or a user
        function ``f(Z, **options) -> float``.
    options : mapping, optional
        The measure's options; a registered measure at a variant's options takes the
        variant's declaration.
    claims : mapping or iterable, optional
        A user function's claimed axioms (Axiom members, names or labels).
    lower, upper : float or Bound, optional
        A user function's declared bounds (None: undeclared).
    orientation : {"higher", "lower"}, optional
        Whether a higher value is more stable (default ``"higher"``).
    domain : {"any", "constant_size"}, optional
        ``"constant_size"``: defined only when every run selects as many features.
    null_value : float, optional
        :math:`E[\\hat\\Phi \\mid H_0]` when CORRECTION_FOR_CHANCE is claimed.
    pairwise, symmetric : bool, optional
        See above.
    input : {"selection", "ranking"}, optional
        What f reads: a boolean selection matrix (default) or a rank matrix of midranks
        (float); the checks then search rank matrices against the axioms' statements
        for rankings (:attr:`propstab.Axiom.ranking_statement`).

    Returns
    -------
    Subject
        The name (with the options), the evaluation, the options and the declaration.

    Raises
    ------
    ValueError
        A declaration keyword for a registered measure (or a :class:`Subject`), an
        unknown measure name, an invalid declaration.
    TypeError
        ``measure`` is neither a name, a MeasureInfo, a Subject nor a callable.

    See Also
    --------
    propstab.auditing.audited_subjects : The subjects an audit covers.
    propstab.auditing.audit : Every check on subjects, as a table.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 4 (the
    properties a declaration claims) and Definition 2 (the null model).

    Examples
    --------
    >>> from propstab import Axiom
    >>> from propstab.auditing import subject
    >>> subject("nogueira").claims[Axiom.BOUNDS]
    True
    >>> subject("davis", options={"penalty": 0.5}).name
    'davis[penalty=0.5]'
    >>> s = subject(lambda Z: float(Z.mean()), claims=["bounds"], lower=0, upper=1)
    >>> [a.name for a, c in s.claims.items() if c]
    ['BOUNDS']
    >>> subject("nogueira", claims=["bounds"])
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: claims: 'nogueira' is a registered measure: it declares its
    own claims and
    bounds; declaration keywords apply only to a user function f(Z) -> float; got
    claims=['bounds']
    """
    declaration = dict(
        claims=claims,
        lower=lower,
        upper=upper,
        orientation=orientation,
        domain=domain,
        null_value=null_value,
        pairwise=pairwise,
        symmetric=symmetric,
        input=input,
    )
    if options is not None and not isinstance(options, Mapping):
        fail(
            f"options: must be a mapping of the measure's options; got "
            f"{type(options).__name__} {options!r}",
            TypeError,
        )
    if isinstance(measure, Subject):
        _no_declaration(f"the Subject {measure.name!r}", declaration)
        return measure
    if isinstance(measure, str):
        measure = get_measure(measure)
    if isinstance(measure, MeasureInfo):
        _no_declaration(f"{measure.name!r} is a registered measure: it", declaration)
        if not options:
            return _registered(measure)
        check_options(measure, dict(options), argument="options")
        known = [v for v in measure.variants if dict(v.options) == dict(options)]
        return _registered(
            measure,
            known[0] if known else Variant(dict(options), {}, reason="the default's claims"),
        )
    if not callable(measure):
        fail(
            f"measure: must be a registered name, a MeasureInfo or a callable "
            f"f(Z) -> float; got {type(measure).__name__} {measure!r}",
            TypeError,
        )
    options = dict(options or {})
    name = getattr(measure, "__name__", type(measure).__name__)
    return Subject(
        name=label(name, options),
        evaluate=functools.partial(measure, **options) if options else measure,
        declaration=Declaration.of(measure, **declaration),
        options=options,
    )


#: Hypothesis's lambda descriptions, by code object (see :func:`lambda_sources_memoised`).
_LAMBDA_SOURCES: dict = {}
#: Whether searches reuse work across searches (memoised lambda descriptions, replayed
#: examples, memoised values of registered measures); False only to time the audit
#: without it (benchmarks/bench_audit.py): the results are the same either way.
REUSE = [True]


@contextlib.contextmanager
def lambda_sources_memoised():
    """Within the block, Hypothesis describes each lambda once per code object.

    Hypothesis (6.67) records a description of every mapped value it draws, for printing a
    failing example; the map inside its own ``given`` is a lambda, whose description
    (``hypothesis.internal.reflection.extract_lambda_source``) re-reads and re-parses its
    source file on every example: about a tenth of an audit's time. The description of a
    lambda without default values depends only on its code object, so it is memoised
    by it. Nothing drawn changes: the same examples, the same shrinking, the same
    descriptions.
    """
    from hypothesis.internal import reflection

    original = getattr(reflection, "extract_lambda_source", None)  # Hypothesis's internals
    if (
        original is None
        or getattr(original, "memoised_by_propstab", False)  # inside one
        or not REUSE[0]
    ):
        yield
        return

    def memoised(f):
        if f.__defaults__ or f.__kwdefaults__:  # the signature shows them
            return original(f)
        try:
            return _LAMBDA_SOURCES[f.__code__]
        except KeyError:
            text = _LAMBDA_SOURCES[f.__code__] = original(f)
            return text

    memoised.memoised_by_propstab = True
    reflection.extract_lambda_source = memoised
    try:
        yield
    finally:
        reflection.extract_lambda_source = original


def search_in_contexts(
    subject: Subject,
    strategy,
    probe,
    shape,
    *,
    max_examples: int,
    seed: int,
    examples=(),
    context_examples=(),
    replay: bool = False,
):
    """:func:`propstab.search.search` with ``probe(subject, example)``, drawing a context
    for subjects that have them.

    For a subject with ``contexts`` each example is drawn with a :class:`Context` for
    its shape ``shape(example) -> (M, d)``; the probe sees the bound subject and a
    :class:`~propstab.search.Found` carries the (shrunk) context. ``examples`` are tried
    with the default context, then those of ``context_examples``, ``(example, Context)``
    pairs, that the subject reads. A subject without contexts is searched exactly as by
    :func:`~propstab.search.search`.

    ``replay=True`` (for a probe that never calls :func:`propstab.search.target`, and a
    strategy that its repr determines) reuses the examples of an earlier search with the
    same strategy, contexts, ``max_examples`` and seed (see :func:`_search_replaying`):
    the same result as searching again, without drawing the examples again.
    """
    with lambda_sources_memoised(), numpy_state_cheaply():
        return _search_in_contexts(
            subject,
            strategy,
            probe,
            shape,
            max_examples=max_examples,
            seed=seed,
            examples=examples,
            context_examples=context_examples,
            replay=replay,
        )


def _search_in_contexts(
    subject, strategy, probe, shape, *, max_examples, seed, examples, context_examples, replay
):
    if subject.contexts is None:
        names = ()
        searched, function, explicit = (
            strategy,
            lambda example: probe(subject, example),
            list(examples),
        )
    else:
        names = getattr(subject.contexts, "names", None)  # None: contexts of unknown origin

        @st.composite
        def drawn(draw):
            example = draw(strategy)
            return example, draw(subject.contexts(*shape(example)))

        def run(pair):
            example, context = pair
            found = probe(subject.bind(context), example)
            if found is not None:
                found.context = context
            return found

        searched, function = drawn(), run
        explicit = [(example, Context()) for example in examples] + [
            (example, context)
            for example, context in context_examples
            if context.is_read_by(subject.reads)
        ]
    if replay and names is not None and REUSE[0]:
        key = (
            repr(strategy),
            tuple(sorted(names)),
            getattr(shape, "__qualname__", None),
            max_examples,
            seed,
        )
        return _search_replaying(
            key, searched, function, max_examples=max_examples, seed=seed, explicit=explicit
        )
    return search(
        searched, function, max_examples=max_examples, random_state=seed, examples=explicit
    )


#: The examples Hypothesis generated in a search that found nothing and rejected nothing:
#: {(strategy, contexts, shape, max_examples, seed): examples, in the order drawn}.
_DRAWN: dict = {}


def _search_replaying(key, strategy, function, *, max_examples: int, seed: int, explicit):
    """:func:`~propstab.search.search`, replaying the examples of an earlier search.

    Hypothesis's examples for a strategy, a seed and ``max_examples`` are the same for
    every probe that refutes nothing, rejects nothing (no :func:`~propstab.search.assume`
    fails) and targets nothing: the test's outcome is then always "passed", and nothing
    else steers the generation. The first such search records its examples; a later one
    with the same ``key`` tries the explicit examples as :func:`~propstab.search.search`
    does, then calls the probe on the recorded examples in order, each as Hypothesis
    calls a test (:func:`hypothesis.internal.entropy.deterministic_PRNG`, on a copy). If
    every call passes the result is None, as the search would find; at the first call that
    refutes, rejects, targets or raises, the search is run in full instead, which finds
    and shrinks the same counterexample as without the replay.
    """
    from hypothesis.errors import UnsatisfiedAssumption

    try:  # Hypothesis's internals: without them, search
        from hypothesis.internal.entropy import deterministic_PRNG
    except ImportError:  # pragma: no cover - other Hypothesis versions
        return search(
            strategy, function, max_examples=max_examples, random_state=seed, examples=explicit
        )

    drawn = _DRAWN.get(key)
    if drawn is None:
        calls, rejected = [], []

        def recording(example):
            calls.append(copy.deepcopy(example))
            try:
                return function(example)
            except UnsatisfiedAssumption:
                rejected.append(example)
                raise

        found = search(
            strategy, recording, max_examples=max_examples, random_state=seed, examples=explicit
        )
        if found is None and not rejected:
            _DRAWN[key] = calls[len(explicit) :]
        return found
    if explicit:
        nothing = object()
        found = search(
            st.just(nothing),
            lambda e: None if e is nothing else function(e),
            max_examples=1,
            random_state=seed,
            examples=explicit,
        )
        if found is not None:
            return found
    for example in drawn:
        try:
            with deterministic_PRNG():
                passed = function(copy.deepcopy(example)) is None
        except Exception:  # a rejection, a target, an error: as Hypothesis would
            passed = False
        if not passed:
            return search(
                strategy, function, max_examples=max_examples, random_state=seed, examples=explicit
            )
    return None
