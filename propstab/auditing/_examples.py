"""The audit's constructive evidence: families of matrices and explicit examples.

- :data:`FAMILIES`, :data:`CONTEXT_FAMILIES`: matrices Z_n (and similarities C_n)
  indexed by a size n, for the property blind search cannot refute: unbounded values
  (thesis App. B.3), read by :func:`family_values` and judged by :func:`diverges`;
- :data:`EQUAL_VARIANCE_PAIRS`, :data:`MAXIMUM_EXAMPLES`, :data:`CONTEXT_EXAMPLES`:
  small matrices tried before a search, which blind search meets only by luck;
- :data:`REFERENCE_CONFIGS`: the null-model configurations whose exact expectation is
  the reference constant of CORRECTION_FOR_CHANCE when no null value is declared.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Optional, Tuple

import numpy as np

from ..axioms import Axiom
from ..strategies import NullConfiguration, matrix_from_rows
from ._subjects import TOLERANCE, Context, Subject

__all__ = [
    "CONTEXT_EXAMPLES",
    "CONTEXT_FAMILIES",
    "EQUAL_VARIANCE_PAIRS",
    "FAMILIES",
    "FAMILY_SIZES",
    "Family",
    "MAXIMUM_EXAMPLES",
    "REFERENCE_CONFIGS",
    "diverges",
    "family_values",
]


def _rows(d: int, *rows) -> np.ndarray:
    return matrix_from_rows(rows, d)


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
    Family(
        "disjoint_unbalanced",
        "Zₙ = [{0..n-1}, {n}], d = n + 1",
        lambda n: _rows(n + 1, range(n), [n]),
        False,
    ),
    Family(
        "nested", "Zₙ = [{0}, {0..n-1}], d = n + 1", lambda n: _rows(n + 1, [0], range(n)), False
    ),
    Family(
        "distinct_singletons",
        "Zₙ = [{0}, {1}, ..., {n-1}], d = n",
        lambda n: np.eye(n, dtype=bool),
        True,
    ),
    Family(
        "disjoint_halves",
        "Zₙ = [{0..n-1}, {n..2n-1}], d = 2n",
        lambda n: _rows(2 * n, range(n), range(n, 2 * n)),
        True,
    ),
)
FAMILY_SIZES = tuple(2**j for j in range(1, 8))  # n = 2, 4, ..., 128


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
    Family(
        "isolated_feature",
        "Zₙ = [{0}, {1}], d = n + 1, C = all ones except " "feature 0 similar to no other",
        lambda n: _rows(n + 1, [0], [1]),
        True,
        _isolated_first,
    ),
    Family(
        "without_matching",
        "Zₙ = [{0, 1, 4, 5, ...}, {2, 3, 6, 7, ...}], d = 2n, "
        "C = all ones except C[2f, 2f+1] = 0",
        lambda n: _rows(
            2 * n, [f for f in range(2 * n) if f % 4 < 2], [f for f in range(2 * n) if f % 4 >= 2]
        ),
        True,
        _without_matching,
    ),
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
    _rows(2, [0], [0]),
    _rows(3, [0, 1], [0, 1], [0, 1]),
    _rows(2, [0], [1]),
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
        (NullConfiguration(2, 3, (2, 2)), Context(weights=np.array([[1.0, 2.0, 1.0]] * 2))),
    ),
}

#: The configurations whose exact expectation is CORRECTION_FOR_CHANCE's reference when
#: no null value is declared: the first defined one (constant sizes on a constant-size
#: domain).
REFERENCE_CONFIGS = tuple(
    NullConfiguration(2, d, (k, k)) for d, k in ((2, 1), (3, 1), (4, 2), (5, 2))
)
