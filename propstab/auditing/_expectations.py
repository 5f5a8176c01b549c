"""Exact null expectations E[value | H0] (thesis Definition 2: run i draws a uniformly
random subset of size k_i), the input of CORRECTION_FOR_CHANCE.

- a pairwise measure (the mean of a pair score over pairs of runs): the mean over pairs
  of E[phi | k_i, k_j, d] with the hypergeometric law of the intersection
  (:func:`propstab.chance.expected_pairwise`), the pair score read off the measure on
  two-run matrices (:func:`pair_matrix`);
- otherwise: the exact mean over every tuple of subsets (:func:`n_outcomes` of them,
  one run fixed when the measure is invariant under permutations of the features).

Nothing is simulated. A subject here is anything with ``value(Z)``, ``pairwise``,
``symmetric``, ``domain``, ``contexts`` and ``enumeration_limit``
(:class:`propstab.auditing._subjects.Subject`).
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Optional, Tuple

import numpy as np

from .. import chance
from ..strategies import matrix_from_rows, null_configurations

__all__ = [
    "ENUMERATION_LIMIT",
    "Expectation",
    "configurations_strategy",
    "n_outcomes",
    "null_expectation",
    "pair_matrix",
    "sizes_text",
]

ENUMERATION_LIMIT = 1024  # at most this many tuples of subsets per exact expectation


@dataclasses.dataclass(frozen=True)
class Expectation:
    """E[value | H0] for one null-model configuration, and how it was obtained."""

    n_runs: int
    n_features: int
    row_sizes: Tuple[int, ...]
    value: float
    method: str

    def __str__(self) -> str:
        return (
            f"E[value | M={self.n_runs}, d={self.n_features}, "
            f"{sizes_text(self.row_sizes)}] = {self.value:.6g} ({self.method})"
        )


def sizes_text(row_sizes) -> str:
    """``k=[1, 2]`` for the row sizes of a selection configuration; ``patterns=[1 2 3,
    1 2.5 2.5]`` for the tie patterns (midranks) of a configuration of rankings.

    >>> sizes_text((1, 2)), sizes_text(((1.0, 2.0, 3.0), (1.0, 2.5, 2.5)))
    ('k=[1, 2]', 'patterns=[1 2 3, 1 2.5 2.5]')
    """
    if row_sizes and isinstance(row_sizes[0], tuple):
        return "patterns=[" + ", ".join(" ".join(f"{x:g}" for x in p) for p in row_sizes) + "]"
    return f"k={list(row_sizes)}"


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
    return matrix_from_rows([range(a), list(range(r)) + list(range(a, a + b - r))], d)


def _pairwise_expectation(subject, config, cache: dict) -> float:
    """Mean over pairs of E[psi(k_i, k_j, r)], r hypergeometric, psi read off the
    measure itself on two-run matrices (the pairwise average of two runs is the
    symmetrised score)."""
    M, d, ks = config
    sizes = np.unique(np.asarray(ks, dtype=np.int64)).tolist()
    table = np.zeros((len(sizes), len(sizes), max(sizes) + 1))
    for ia, a in enumerate(sizes):
        for ib, b in enumerate(sizes):
            for r in range(max(0, a + b - d), min(a, b) + 1):  # the support of r
                key = (min(a, b), max(a, b), r, d)
                if key not in cache:
                    cache[key] = subject.value(pair_matrix(key[0], key[1], r, d))
                table[ia, ib, r] = cache[key]
    E, _ = chance.expected_pairwise(lambda r, a, b, dd: (table, 1.0), ks, d)
    off = ~np.eye(M, dtype=bool)
    return float(E[off].mean())


def _subset_rows(d: int, k: int) -> np.ndarray:
    """Every k-subset of range(d) as a boolean row, in ``itertools.combinations`` order."""
    rows = np.zeros((math.comb(d, k), d), dtype=bool)
    for i, c in enumerate(itertools.combinations(range(d), k)):
        rows[i, list(c)] = True
    return rows


def _enumerated_expectation(subject, config) -> float:
    d = config.n_features
    fixed, ks = _enumerated_sizes(config, subject.symmetric)
    blocks = [] if fixed is None else [np.arange(d)[None, :] < fixed]
    subsets = {k: _subset_rows(d, k) for k in set(ks)}
    # every tuple of subsets (itertools.product order), the matrices built at once
    index = np.indices([len(subsets[k]) for k in ks]).reshape(len(ks), -1)
    n = index.shape[1]
    Zs = np.stack(
        [np.broadcast_to(b, (n, d)) for b in blocks]
        + [subsets[k][index[j]] for j, k in enumerate(ks)],
        axis=1,
    )
    counts = np.ones(n, dtype=np.int64)
    if subject.symmetric:
        Zs, counts = _orbits(Zs)
    values = []
    for Z in Zs:
        v = subject.value(Z.copy())
        if math.isnan(v):
            return math.nan
        values.append(v)
    # the exactly rounded sum of every tuple's value (each orbit's value counted once for
    # each of its tuples): the sum over the tuples one by one
    return math.fsum(np.repeat(values, counts).tolist()) / n


def _orbits(Zs: np.ndarray):
    """The tuples ``Zs`` (n x M x d) up to a permutation of the features, on which a
    measure invariant under such permutations takes one value: the first tuple of each
    orbit (in ``Zs``'s order) and the orbit's size. Two tuples are in one orbit when
    their columns are the same multiset of patterns (column f's pattern: which runs
    select f)."""
    M = Zs.shape[1]
    codes = (Zs.astype(np.int64) << np.arange(M, dtype=np.int64)[None, :, None]).sum(axis=1)
    codes.sort(axis=1)
    _, first, counts = np.unique(codes, axis=0, return_index=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    return Zs[first[order]], counts[order]


def null_expectation(subject, config, cache: dict) -> Optional[Expectation]:
    """The exact E[value | H0] for ``config``, or None when it cannot be computed
    exactly within the subject's ``enumeration_limit`` (or is undefined: NaN).

    ``cache`` memoises a pairwise measure's pair scores (keyed by sizes, intersection
    and d); pass the same dict for the same subject."""
    if subject.pairwise:
        value = _pairwise_expectation(subject, config, cache)
        method = "exact: hypergeometric per pair"
    else:
        count = n_outcomes(config, symmetric=subject.symmetric)
        if count > subject.enumeration_limit:
            return None
        value = _enumerated_expectation(subject, config)
        method = f"exact: enumeration of {count} tuples of subsets" + (
            ", one run fixed by symmetry" if subject.symmetric else ""
        )
    if math.isnan(value):
        return None
    return Expectation(config.n_runs, config.n_features, tuple(config.row_sizes), value, method)


def configurations_strategy(subject):
    """Null-model configurations for ``subject``: sizes in 1..d-1 (constant on a
    constant-size domain); small enough for exact enumeration when not pairwise."""
    sizes = "proper_constant" if subject.domain == "constant_size" else "proper"
    if subject.pairwise:
        return null_configurations(max_runs=6, max_features=16, subset_sizes=sizes)
    symmetric = subject.symmetric and subject.contexts is None  # C breaks the symmetry
    return null_configurations(max_runs=4, max_features=8, subset_sizes=sizes).filter(
        lambda c: n_outcomes(c, symmetric=symmetric) <= subject.enumeration_limit
    )
