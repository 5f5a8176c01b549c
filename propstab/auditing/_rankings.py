"""What the audit draws for a measure of rank matrices (declaration ``input="ranking"``).

The five checks are the same for every input kind; what differs is the matrices they
search and the exact quantities they compare (:class:`InputKind`, :data:`INPUT_KINDS`):

- the searched matrices: rank matrices of midranks (:func:`propstab.strategies.rank_matrices`
  and its companions) instead of 0/1 selection matrices, with the domain of
  FULLY_DEFINED "no run ranks all features equal" in place of "row sizes in 1..d-1";
- MONOTONICITY: pairs with the same tie pattern in each run, and the total variance of
  the midranks, exactly (midranks are half-integers);
- BOUNDS: constructive families of rank matrices;
- CORRECTION_FOR_CHANCE: the null model for rankings (run i ranks the features by a
  uniformly random permutation of its midranks), its expectations exact: for a pairwise
  measure the mean over pairs of runs of the pair score averaged over every distinct
  permutation of one run's midranks (the other fixed, by symmetry), otherwise the mean
  over every tuple of distinct permutations (one run fixed).
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

from ..strategies import RankConfiguration, midranks_of_pattern, rank_null_configurations
from ._expectations import Expectation

__all__ = [
    "RANKING_EQUAL_VARIANCE_PAIRS",
    "RANKING_FAMILIES",
    "RANKING_FULLY_DEFINED_EXAMPLES",
    "RANKING_MAXIMUM_EXAMPLES",
    "RANKING_REFERENCE_CONFIGS",
    "RankFamily",
    "distinct_permutations",
    "rank_configurations_strategy",
    "rank_null_expectation",
    "rank_total_variance",
]

#: Distinct permutations a pair expectation may enumerate (d = 7 untied: 5040).
PAIR_ENUMERATION_LIMIT = 5040


def rank_total_variance(R: np.ndarray) -> Fraction:
    """sum_f s_f^2 of the midranks, exactly: with c = 2 r (integers),
    (M sum c^2 - (sum c)^2) / (4 M (M - 1)) summed over the features."""
    M = R.shape[0]
    c = np.rint(2 * np.asarray(R, dtype=np.float64)).astype(np.int64)
    num = M * np.einsum("ij,ij->j", c, c) - c.sum(axis=0) ** 2
    return Fraction(int(num.sum()), 4 * M * (M - 1))


def distinct_permutations(pattern) -> "list[tuple]":
    """Every distinct arrangement of a run's midranks (equally likely under H0)."""
    return sorted(set(itertools.permutations(pattern)))


def _count(pattern) -> int:
    """The number of distinct arrangements: d! / prod_groups t!."""
    counts = {}
    for x in pattern:
        counts[x] = counts.get(x, 0) + 1
    return math.factorial(len(pattern)) // math.prod(math.factorial(t) for t in counts.values())


def _pair_expectation(subject, a, b, cache: dict) -> float:
    """E[h(r_a, r_b)] with run a fixed (its pattern in order) and run b uniformly random:
    the pair score read off the measure on two-run matrices."""
    key = (a, b) if a <= b else (b, a)
    if key not in cache:
        fixed = np.asarray(key[0], dtype=np.float64)
        values = [
            subject.value(np.vstack([fixed, np.asarray(p, dtype=np.float64)]))
            for p in distinct_permutations(key[1])
        ]
        cache[key] = math.fsum(values) / len(values)
    return cache[key]


def _enumerated(subject, config: RankConfiguration) -> float:
    first = np.asarray(config.patterns[0], dtype=np.float64)
    others = [distinct_permutations(p) for p in config.patterns[1:]]
    values = []
    for rest in itertools.product(*others):
        v = subject.value(np.vstack([first, *np.asarray(rest, dtype=np.float64)]))
        if math.isnan(v):
            return math.nan
        values.append(v)
    return math.fsum(values) / len(values)


def _outcomes(config: RankConfiguration, pairwise: bool) -> int:
    if pairwise:
        return max(_count(p) for p in config.patterns)
    return math.prod(_count(p) for p in config.patterns[1:])


def rank_null_expectation(
    subject, config: RankConfiguration, cache: dict
) -> Optional[Expectation]:
    """The exact E[value | H0] for rankings with these patterns, or None when it cannot be
    computed within the limits (or is undefined: NaN)."""
    if subject.pairwise:
        if _outcomes(config, True) > PAIR_ENUMERATION_LIMIT:
            return None
        M = config.n_runs
        values = [
            _pair_expectation(subject, config.patterns[i], config.patterns[j], cache)
            for i in range(M)
            for j in range(M)
            if i != j
        ]
        value = math.fsum(values) / len(values)
        method = "exact: every arrangement of one run per pair of runs"
    else:
        count = _outcomes(config, False)
        if count > subject.enumeration_limit:
            return None
        value = _enumerated(subject, config)
        method = f"exact: enumeration of {count} tuples of rankings, one run fixed by " f"symmetry"
    if math.isnan(value):
        return None
    return Expectation(config.n_runs, config.n_features, tuple(config.patterns), value, method)


def rank_configurations_strategy(subject):
    """Null configurations for rankings, small enough to enumerate exactly."""
    if subject.pairwise:
        return rank_null_configurations(max_runs=5, max_features=6).filter(
            lambda c: _outcomes(c, True) <= PAIR_ENUMERATION_LIMIT
        )
    return rank_null_configurations(max_runs=3, max_features=5).filter(
        lambda c: _outcomes(c, False) <= subject.enumeration_limit
    )


def _runs(*rows) -> np.ndarray:
    return np.asarray(rows, dtype=np.float64)


@dataclasses.dataclass(frozen=True)
class RankFamily:
    """Rank matrices ``build(n)`` indexed by n >= 2 (the constructive evidence of BOUNDS)."""

    name: str
    text: str
    build: Callable[[int], np.ndarray]
    constant_size: bool = True
    context: None = None


def _reversed(n: int) -> np.ndarray:
    up = np.arange(1, n + 1, dtype=np.float64)
    return np.vstack([up, up[::-1]])


def _cyclic(n: int) -> np.ndarray:
    up = np.arange(n)
    return ((up[None, :] + up[:, None]) % n + 1).astype(np.float64)


def _top_tied(n: int) -> np.ndarray:
    """Run i ranks feature i first and ties the others."""
    R = np.full((n, n), (n + 2) / 2)
    np.fill_diagonal(R, 1.0)
    return R


RANKING_FAMILIES = (
    RankFamily("reversed", "R_n = [1..n, n..1], d = n", _reversed),
    RankFamily("cyclic", "R_n = the n cyclic shifts of 1..n, d = n", _cyclic),
    RankFamily(
        "top_tied", "R_n: run i ranks feature i first and ties the others, d = n", _top_tied
    ),
)

#: Pairs with the same M, d and tie patterns and tried before the MONOTONICITY search:
#: (a) untied, M = 2, d = 5: total variances 3 and 2 but Kendall's tau 0.6 for both (tau
#:     counts discordant pairs, not squared rank differences);
#: (b) M = 3, d = 4, one run with a tie: equal total variance 5/6 but Spearman 0.8252 and
#:     0.8288 (each run's ranks are scaled by their own spread).
RANKING_EQUAL_VARIANCE_PAIRS = (
    (_runs([1, 2, 3, 4, 5], [1, 2, 4, 5, 3]), _runs([1, 2, 3, 4, 5], [1, 3, 2, 5, 4])),
    (
        _runs([1, 2, 3, 4], [1, 2, 3, 4], [1.5, 1.5, 4, 3]),
        _runs([1, 2, 3, 4], [1, 2, 4, 3], [1.5, 1.5, 3, 4]),
    ),
)

#: Rank matrices tried before the FULLY_DEFINED search: two runs ranking feature 0 first and
#: tying the other three (d = 4): the tie group starts at position 2, so a top-2 set holds
#: all four features (Nogueira's estimator on full runs is 0/0).
RANKING_FULLY_DEFINED_EXAMPLES = (_runs([1, 3, 3, 3], [1, 3, 3, 3]),)

#: Rank matrices tried before the MAXIMUM search: identical runs, one swap of adjacent
#: ranks, a swap beyond the top 2 (where a top-k measure scores its maximum), a tie.
RANKING_MAXIMUM_EXAMPLES = (
    _runs([1, 2], [1, 2]),
    _runs([1, 2, 3], [2, 1, 3]),
    _runs([1, 2, 3, 4], [1, 2, 4, 3]),
    _runs([1, 2, 3], [1, 2.5, 2.5]),
)

#: The configurations whose exact expectation is CORRECTION_FOR_CHANCE's reference when no
#: null value is declared: untied rankings of 2, 3, 4 features by two runs.
RANKING_REFERENCE_CONFIGS = tuple(
    RankConfiguration(2, d, (midranks_of_pattern([1] * d),) * 2) for d in (2, 3, 4)
)
