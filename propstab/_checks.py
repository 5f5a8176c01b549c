"""Machinery behind the axiom checks of :mod:`propstab.auditing`.

- :class:`Subject`: what is audited (a registered measure at given options, or a
  user function) with its declaration.
- :func:`search`: a seeded, reproducible Hypothesis search whose minimal failing
  example is returned (shrunk) rather than raised.
- :data:`FAMILIES`: constructive families of matrices indexed by a size n, for the
  properties that blind search cannot refute (unbounded values, thesis App. B.3).
- :func:`null_expectation`: the exact E[value | H0] of a configuration: the
  hypergeometric law per pair for pairwise measures (:func:`propstab.chance.expected_pairwise`),
  exact enumeration of every tuple of subsets otherwise.
"""
from __future__ import annotations

import contextvars
import dataclasses
import itertools
import math
import warnings
from typing import Any, Callable, Mapping, Optional, Tuple

import numpy as np

from . import chance
from .axioms import Axiom
from .strategies import NullConfiguration, _matrix

try:
    import hypothesis
    from hypothesis import HealthCheck, Verbosity
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the axiom audit needs Hypothesis: pip install propstab[audit]") from exc

ENUMERATION_LIMIT = 1024       # at most this many tuples of subsets per exact expectation
TOLERANCE = 1e-9               # relative/absolute tolerance of "equal" values


def close(a: float, b: float) -> bool:
    """Equality of two measure values up to floating-point rounding."""
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


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
        return ((self.similarity is None or "similarity" in names)
                and (self.weights is None or "importances" in names))

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
        return tuple(None if a is None else (a.shape, a.tobytes())
                     for a in (self.similarity, self.weights))

    def to_dict(self) -> dict:
        return {"similarity": None if self.similarity is None else self.similarity.tolist(),
                "importance_weights": None if self.weights is None else self.weights.tolist()}

    def __str__(self) -> str:
        def text(a):
            return "[" + ", ".join("[" + ", ".join(f"{x:g}" for x in row) + "]"
                                   for row in a) + "]"
        C = self.similarity
        parts = ([] if C is None else
                 ["C = I"] if (C == np.eye(len(C))).all() else [f"C = {text(C)}"])
        if self.weights is not None:
            parts.append(f"importances Z * {text(self.weights)}")
        return ", ".join(parts) or "the defaults (C = I, equal importances)"


@dataclasses.dataclass(frozen=True)
class Subject:
    """A measure under audit and its declaration.

    ``evaluate(Z)`` takes a boolean ndarray; ``upper``/``lower`` are callables
    ``(M, d, row_sizes) -> float`` (or None when undeclared) and ``constant_bounds``
    the pair of constants when both declared bounds are constants; ``null_value`` the
    declared E[value | H0] (the reference of CORRECTION_FOR_CHANCE when claimed);
    ``pairwise`` whether the value is a mean of a pair score over pairs of runs;
    ``symmetric`` whether it is invariant under permutations of the features and of the
    runs (every registered measure is), so that exact enumeration may fix one run.

    A measure reading a similarity matrix or importances (the correlated family) has
    ``contexts``, a function ``(M, d) -> SearchStrategy`` of :class:`Context`, and
    ``evaluate_in(Z, context)``; ``reads`` names the options it takes ("similarity",
    "importances"). Its claims are claims for every context, so every search draws one
    with each example, and :meth:`bind` fixes one (``context``).
    ``enumeration_limit`` caps the tuples of subsets of an exact expectation.
    """

    name: str
    evaluate: Callable[[np.ndarray], float]
    claims: Mapping[Axiom, bool]
    orientation: str = "higher"
    domain: str = "any"
    lower: Optional[Callable[..., float]] = None
    upper: Optional[Callable[..., float]] = None
    constant_bounds: Optional[Tuple[float, float]] = None
    null_value: Optional[float] = None
    pairwise: bool = False
    symmetric: bool = False
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    contexts: Optional[Callable[[int, int], Any]] = None
    reads: frozenset = frozenset()
    evaluate_in: Optional[Callable[[np.ndarray, Context], float]] = None
    context: Optional[Context] = None
    enumeration_limit: int = ENUMERATION_LIMIT

    def bind(self, context: Context) -> "Subject":
        """This subject with its similarity/importances fixed to ``context``: invariant
        under feature permutations only for the default context."""
        evaluate_in = self.evaluate_in
        return dataclasses.replace(
            self, evaluate=lambda Z: evaluate_in(Z, context), contexts=None,
            evaluate_in=None, context=context,
            symmetric=self.symmetric and context.is_default)

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
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                v = float(self.evaluate(Z))
            except Exception:        # undefined here; FULLY_DEFINED reports exceptions
                return math.nan
        return v if math.isfinite(v) else math.nan

    def maximum(self, Z: np.ndarray) -> Optional[float]:
        """The declared most-stable value for Z's shape (upper bound, or lower bound
        when lower is more stable); None when undeclared."""
        bound = self.upper if self.orientation == "higher" else self.lower
        if bound is None:
            return None
        M, d = Z.shape
        return float(bound(M, d, Z.sum(axis=1)))


class Found(Exception):
    """Raised inside a search when an example refutes the property under test."""

    def __init__(self, example, values, reason):
        super().__init__(reason)
        self.example, self.values, self.reason = example, values, reason
        self.context: Optional[Context] = None


def search(strategy, probe: Callable[[Any], Optional[Found]], *, max_examples: int,
           seed: int, examples=()):
    """Run ``probe`` on examples of ``strategy``; the shrunk :class:`Found` or None.

    ``probe`` returns a :class:`Found` for a refuting example and None otherwise (it
    may call :func:`assume` and :func:`target`). ``examples`` are tried first, in
    order and as given (not shrunk). The search is reproducible: a fixed seed, no
    example database, no deadline.

    Returns
    -------
    Found, None, or the string ``"unsatisfiable"`` when no example satisfied the
    assumptions.
    """
    @hypothesis.settings(max_examples=max_examples, database=None, deadline=None,
                         derandomize=False, report_multiple_bugs=False, print_blob=False,
                         verbosity=Verbosity.quiet, suppress_health_check=list(HealthCheck))
    @hypothesis.seed(seed)
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
    return None


def search_in_contexts(subject: Subject, strategy, probe, shape, *, max_examples: int,
                       seed: int, examples=(), context_examples=()):
    """:func:`search` with ``probe(subject, example)``, drawing a context for subjects
    that have them.

    For a subject with ``contexts`` each example is drawn with a :class:`Context` for
    its shape ``shape(example) -> (M, d)``; the probe sees the bound subject and a
    :class:`Found` carries the (shrunk) context. ``examples`` are tried with the default
    context, then those of ``context_examples``, ``(example, Context)`` pairs, that the
    subject reads. A subject
    without contexts is searched exactly as by :func:`search`.
    """
    if subject.contexts is None:
        return search(strategy, lambda example: probe(subject, example),
                      max_examples=max_examples, seed=seed, examples=examples)

    @st.composite
    def drawn(draw):
        example = draw(strategy)
        return example, draw(subject.contexts(*shape(example)))

    def run(pair):
        example, context = pair
        found = probe(subject.bind(context), example)
        if isinstance(found, Found):
            found.context = context
        return found

    explicit = [(example, Context()) for example in examples] + [
        (example, context) for example, context in context_examples
        if context.is_read_by(subject.reads)]
    return search(drawn(), run, max_examples=max_examples, seed=seed, examples=explicit)


# ---------------------------------------------------------------- constructive families

def _rows(d: int, *rows) -> np.ndarray:
    return _matrix([list(row) for row in rows], d)


@dataclasses.dataclass(frozen=True)
class Family:
    """Matrices ``build(n)`` indexed by n >= 2; ``constant_size`` when every member
    has a constant row size; ``context(n)`` the similarity of member n for a family of
    correlated feature spaces (None: no similarity)."""

    name: str
    text: str
    build: Callable[[int], np.ndarray]
    constant_size: bool
    context: Optional[Callable[[int], Context]] = None


FAMILIES = (
    Family("disjoint_unbalanced", "Z_n = [{0..n-1}, {n}], d = n + 1",
           lambda n: _rows(n + 1, range(n), [n]), False),
    Family("nested", "Z_n = [{0}, {0..n-1}], d = n + 1",
           lambda n: _rows(n + 1, [0], range(n)), False),
    Family("distinct_singletons", "Z_n = [{0}, {1}, ..., {n-1}], d = n",
           lambda n: np.eye(n, dtype=bool), True),
    Family("disjoint_halves", "Z_n = [{0..n-1}, {n..2n-1}], d = 2n",
           lambda n: _rows(2 * n, range(n), range(n, 2 * n)), True),
)
FAMILY_SIZES = tuple(2 ** j for j in range(1, 8))       # n = 2, 4, ..., 128


def _isolated_first(n: int) -> Context:
    C = np.ones((n + 1, n + 1))
    C[0, 1:] = C[1:, 0] = 0.0
    return Context(similarity=C)


def _without_matching(n: int) -> Context:
    C = np.ones((2 * n, 2 * n))
    C[np.arange(0, 2 * n, 2), np.arange(1, 2 * n, 2)] = 0.0
    C[np.arange(1, 2 * n, 2), np.arange(0, 2 * n, 2)] = 0.0
    return Context(similarity=C)


#: Families of (Z_n, C_n) for measures reading a similarity (docs/table41.md, "Correlated
#: feature spaces"): (a) feature 0 similar to no other feature, features 1..n all fully
#: similar: a random pair of singletons is similar with probability 1 - O(1/n), so a
#: chance-corrected score of the dissimilar pair [{0}, {1}] is about -n/2 (Sechidis's
#: Phi_C = 1 - (n + 1)^2 / (2n) exactly: unbounded below); (b) C = all ones except a
#: perfect matching (2f, 2f+1) of dissimilar pairs, not positive semi-definite, and runs
#: that each take whole matched pairs: Phi_C = 4n - 1 exactly (unbounded above).
CONTEXT_FAMILIES = (
    Family("isolated_feature", "Z_n = [{0}, {1}], d = n + 1, C = all ones except "
           "feature 0 similar to no other", lambda n: _rows(n + 1, [0], [1]), True,
           _isolated_first),
    Family("without_matching", "Z_n = [{0, 1, 4, 5, ...}, {2, 3, 6, 7, ...}], d = 2n, "
           "C = all ones except C[2f, 2f+1] = 0",
           lambda n: _rows(2 * n, [f for f in range(2 * n) if f % 4 < 2],
                           [f for f in range(2 * n) if f % 4 >= 2]), True,
           _without_matching),
)


def family_values(subject: Subject, family: Family) -> Tuple[float, ...]:
    """The subject's values along a family at n = 2, 4, ..., 128 (NaN where undefined)."""
    if family.context is None:
        return tuple(subject.value(family.build(n)) for n in FAMILY_SIZES)
    return tuple(subject.bind(family.context(n)).value(family.build(n)) for n in FAMILY_SIZES)


def diverges(values) -> bool:
    """True when the sequence leaves every bounded interval by extrapolation.

    The values along n = 2, 4, 8, ... must be finite, strictly monotone, and their
    steps must not shrink (|v_{j+1} - v_j| non-decreasing): the sequence then grows
    at least linearly in log n, so it is unbounded if the pattern persists. A
    convergent sequence (steps shrinking, e.g. 1 - 1/n) is not reported.
    """
    v = np.asarray(values, dtype=float)
    if v.size < 3 or not np.all(np.isfinite(v)):
        return False
    steps = np.diff(v)
    if not (np.all(steps > 0) or np.all(steps < 0)):
        return False
    mag = np.abs(steps)
    return bool(np.all(mag[1:] >= mag[:-1] * (1 - TOLERANCE)))


#: Pairs with the same M, d and row sizes and the same total variance that blind search
#: meets only by luck, tried before the search (docs/table41.md):
#: (a) k = 2, d = 4, intersections (2, 0, 0) against (1, 1, 0): the same sum of r_ij spread
#:     differently (refutes a measure nonlinear in r_ij, e.g. Jaccard, at a constant size);
#: (b) k = 2, d = 4, column counts (2, 2, 2, 0) against (3, 1, 1, 1): the same sum of
#:     F_f^2 (refutes a measure that is not a function of it, e.g. an entropy);
#: (c) sizes (4, 1, 1), d = 5: the one shared feature moves from a (4, 1) pair to the
#:     (1, 1) pair (refutes pair weights that depend on the sizes: Dice, Wald, ...);
#: (d) sizes (1, 1, 2, 2), d = 4: the same for Lustgarten's weights.
EQUAL_VARIANCE_PAIRS = (
    (_rows(4, [0, 1], [0, 1], [2, 3]), _rows(4, [0, 1], [0, 2], [1, 3])),
    (_rows(4, [0, 1], [1, 2], [0, 2]), _rows(4, [0, 1], [0, 2], [0, 3])),
    (_rows(5, range(4), [0], [4]), _rows(5, range(4), [4], [4])),
    (_rows(4, [0], [0], [0, 3], [1, 3]), _rows(4, [0], [1], [0, 3], [0, 3])),
)

#: Matrices tried before the MAXIMUM search: identical rows (sizes 1 and 2), one swapped
#: feature, and nested runs (where Wald's index reaches 1).
MAXIMUM_EXAMPLES = (
    _rows(2, [0], [0]), _rows(3, [0, 1], [0, 1], [0, 1]), _rows(2, [0], [1]),
    _rows(3, [0, 1], [0]),
)


def _groups(*labels) -> Context:
    g = np.asarray(labels)
    return Context(similarity=(g[:, None] == g[None, :]).astype(np.float64))


#: (example, Context) pairs tried before the searches of measures reading a similarity:
#: FULLY_DEFINED: two singletons in a complete similarity graph (C = all ones), where a
#: null expectation equals the maximum (0/0); MONOTONICITY: [{0}, {1}] and [{0}, {2}]
#: with features 0 and 1 linked, the same total variance but one pair similar;
#: MAXIMUM: different rows [{0}, {1}] with 0 and 1 linked (Sechidis eq. 1 in miniature);
#: CORRECTION_FOR_CHANCE: two runs of 2 of 3 features whose importances weight the middle
#: feature twice (a row's Pearson correlation is scale-free only for equal weights).
CONTEXT_EXAMPLES = {
    Axiom.FULLY_DEFINED: ((_rows(2, [0], [1]), _groups(0, 0)),),
    Axiom.MONOTONICITY: (((_rows(3, [0], [1]), _rows(3, [0], [2])), _groups(0, 0, 1)),),
    Axiom.MAXIMUM: ((_rows(3, [0], [1]), _groups(0, 0, 1)),),
    Axiom.CORRECTION_FOR_CHANCE: (
        (NullConfiguration(2, 3, (2, 2)), Context(weights=np.array([[1.0, 2.0, 1.0]] * 2))),),
}


# ---------------------------------------------------------------- null expectations

@dataclasses.dataclass(frozen=True)
class Expectation:
    """E[value | H0] for one null-model configuration, and how it was obtained."""

    n_runs: int
    n_features: int
    row_sizes: Tuple[int, ...]
    value: float
    method: str

    def __str__(self) -> str:
        return (f"E[value | M={self.n_runs}, d={self.n_features}, k={list(self.row_sizes)}] "
                f"= {self.value:.6g} ({self.method})")


def _enumerated_sizes(config, symmetric: bool):
    """(size of the run fixed to {0..k-1} or None, sizes enumerated). Under H0 the runs
    are independent and, for a measure invariant under permutations of the features,
    E[value] = E[value | run 1 = {0..k_1-1}]; fixing the run of largest C(d, k) saves
    most."""
    d, ks = config.n_features, list(config.row_sizes)
    if not symmetric:
        return None, ks
    ks.sort(key=lambda k: math.comb(d, k), reverse=True)
    return ks[0], ks[1:]


def n_outcomes(config, *, symmetric: bool = False) -> int:
    """The number of tuples of subsets to enumerate: prod_i C(d, k_i), without the
    fixed run when ``symmetric``."""
    _, ks = _enumerated_sizes(config, symmetric)
    return math.prod(math.comb(config.n_features, k) for k in ks)


def pair_matrix(a: int, b: int, r: int, d: int) -> np.ndarray:
    """Two runs of sizes a and b over d features sharing r features."""
    return _rows(d, range(a), list(range(r)) + list(range(a, a + b - r)))


def _pairwise_expectation(subject: Subject, config, cache: dict) -> float:
    """Mean over pairs of E[psi(k_i, k_j, r)], r hypergeometric, psi read off the
    measure itself on two-run matrices (the pairwise average of two runs is the
    symmetrised score)."""
    M, d, ks = config
    sizes = np.unique(np.asarray(ks, dtype=np.int64)).tolist()
    table = np.zeros((len(sizes), len(sizes), max(sizes) + 1))
    for ia, a in enumerate(sizes):
        for ib, b in enumerate(sizes):
            for r in range(max(0, a + b - d), min(a, b) + 1):   # the support of r
                key = (min(a, b), max(a, b), r, d)
                if key not in cache:
                    cache[key] = subject.value(pair_matrix(key[0], key[1], r, d))
                table[ia, ib, r] = cache[key]
    E, _ = chance.expected_pairwise(lambda r, a, b, dd: (table, 1.0), ks, d)
    off = ~np.eye(M, dtype=bool)
    return float(E[off].mean())


def _enumerated_expectation(subject: Subject, config) -> float:
    d = config.n_features
    fixed, ks = _enumerated_sizes(config, subject.symmetric)
    first = () if fixed is None else (list(range(fixed)),)
    subsets = {k: [list(c) for c in itertools.combinations(range(d), k)] for k in set(ks)}
    values = []
    for rows in itertools.product(*(subsets[k] for k in ks)):   # every tuple of subsets
        v = subject.value(_rows(d, *first, *rows))
        if math.isnan(v):
            return math.nan
        values.append(v)
    return math.fsum(values) / len(values)


def null_expectation(subject: Subject, config, cache: dict) -> Optional[Expectation]:
    """The exact E[value | H0] for ``config``, or None when it cannot be computed
    exactly within the subject's ``enumeration_limit`` (or is undefined: NaN)."""
    if subject.pairwise:
        value = _pairwise_expectation(subject, config, cache)
        method = "exact: hypergeometric per pair"
    else:
        count = n_outcomes(config, symmetric=subject.symmetric)
        if count > subject.enumeration_limit:
            return None
        value = _enumerated_expectation(subject, config)
        method = (f"exact: enumeration of {count} tuples of subsets"
                  + (", one run fixed by symmetry" if subject.symmetric else ""))
    if math.isnan(value):
        return None
    return Expectation(config.n_runs, config.n_features, tuple(config.row_sizes), value, method)


def configurations_strategy(subject: Subject):
    """Null-model configurations for ``subject``: sizes in 1..d-1 (constant on a
    constant-size domain); small enough for exact enumeration when not pairwise."""
    from .strategies import null_configurations
    sizes = "proper_constant" if subject.domain == "constant_size" else "proper"
    if subject.pairwise:
        return null_configurations(max_runs=6, max_features=16, subset_sizes=sizes)
    symmetric = subject.symmetric and subject.contexts is None   # C breaks the symmetry
    return null_configurations(max_runs=4, max_features=8, subset_sizes=sizes).filter(
        lambda c: n_outcomes(c, symmetric=symmetric) <= subject.enumeration_limit)


_EXPLICIT = contextvars.ContextVar("propstab_explicit_example", default=False)


class _Skip(Exception):
    """An explicit example outside the property's domain (its ``assume`` failed)."""


def assume(condition) -> None:
    """``hypothesis.assume`` inside a search; skips an explicit example otherwise."""
    if not condition:
        if _EXPLICIT.get():
            raise _Skip
        hypothesis.assume(False)


def assume_defined(v: float) -> float:
    """``v``, after assuming it is not NaN (the measure is defined on the example)."""
    assume(not math.isnan(v))
    return v


def target(observation: float, label: str) -> None:
    """``hypothesis.target`` for finite observations of generated examples."""
    if math.isfinite(observation) and not _EXPLICIT.get():
        hypothesis.target(float(observation), label=label)


__all__ = ["CONTEXT_EXAMPLES", "CONTEXT_FAMILIES", "Context", "EQUAL_VARIANCE_PAIRS",
           "Expectation", "FAMILIES", "Family", "Found", "MAXIMUM_EXAMPLES", "Subject", "assume",
           "assume_defined", "close", "configurations_strategy", "diverges", "family_values",
           "n_outcomes", "null_expectation", "pair_matrix", "search", "search_in_contexts",
           "target"]
