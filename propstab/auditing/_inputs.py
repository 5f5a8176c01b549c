"""The input kinds of the audit: what each check draws and computes for a measure reading
a selection matrix (``Declaration.input == "selection"``) or a rank matrix
(``"ranking"``).

The five checks (:mod:`propstab.auditing._checks`) are written once; a subject's
declaration says its input kind, and :func:`input_kind` gives the matrices to search
(FULLY_DEFINED's domain, pairs of MONOTONICITY, identical and near-identical matrices of
MAXIMUM), the exact total variance, the constructive families and explicit examples, and
the null model's configurations with their exact expectations. Each axiom's formal
statement for the kind is :meth:`propstab.Axiom.statement_for`.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Callable, Optional, Tuple

import numpy as np

from ..strategies import (
    identical_rankings,
    identical_rows,
    matrix_pairs,
    near_identical_rankings,
    near_identical_rows,
    rank_matrices,
    rank_matrix_pairs,
    selection_matrices,
)
from ._examples import EQUAL_VARIANCE_PAIRS, FAMILIES, MAXIMUM_EXAMPLES, REFERENCE_CONFIGS
from ._expectations import Expectation, configurations_strategy, null_expectation
from ._rankings import (
    RANKING_EQUAL_VARIANCE_PAIRS,
    RANKING_FAMILIES,
    RANKING_FULLY_DEFINED_EXAMPLES,
    RANKING_MAXIMUM_EXAMPLES,
    RANKING_REFERENCE_CONFIGS,
    rank_configurations_strategy,
    rank_null_expectation,
    rank_total_variance,
)

__all__ = ["InputKind", "input_kind", "selection_total_variance"]


def selection_total_variance(Z: np.ndarray) -> Fraction:
    """sum_f s_f^2 = (N M - sum_f F_f^2) / (M (M - 1)) of a 0/1 matrix, exactly."""
    M = Z.shape[0]
    F = Z.sum(axis=0).astype(np.int64)
    return Fraction(int(F.sum()) * M - int(np.dot(F, F)), M * (M - 1))


@dataclasses.dataclass(frozen=True)
class InputKind:
    """What the checks draw and compute for one input kind.

    Attributes
    ----------
    name : {"selection", "ranking"}
    proper : callable () -> strategy
        FULLY_DEFINED's domain (row sizes in 1..d-1; no run ranking all features equal).
    matrices, pairs, identical, near_identical : callable (sizes) -> strategy
        Matrices of the subject's domain (``sizes``: the subject's ``subset_sizes``),
        pairs for MONOTONICITY, identical and near-identical matrices for MAXIMUM.
    total_variance : callable
        sum_f s_f^2, exactly.
    families, equal_variance_pairs, maximum_examples, reference_configs
        The constructive evidence and the explicit examples.
    fully_defined_examples : tuple
        Matrices tried before the FULLY_DEFINED search.
    configurations : callable (subject) -> strategy
        Null-model configurations small enough for exact expectations.
    null_expectation : callable (subject, config, cache) -> Expectation or None
    reference : ndarray
        Identical runs, whose value is the maximum of a measure declaring none.
    """

    name: str
    proper: Callable[[], object]
    matrices: Callable[[object], object]
    pairs: Callable[[object], object]
    identical: Callable[[object], object]
    near_identical: Callable[[object], object]
    total_variance: Callable[[np.ndarray], Fraction]
    families: Tuple
    equal_variance_pairs: Tuple
    maximum_examples: Tuple
    reference_configs: Tuple
    configurations: Callable[[object], object]
    null_expectation: Callable[..., Optional[Expectation]]
    reference: np.ndarray
    fully_defined_examples: Tuple = ()


def _selection(max_runs: int, max_features: int) -> InputKind:
    def sized(strategy, sizes):
        return strategy(subset_sizes=sizes, max_runs=max_runs, max_features=max_features)

    return InputKind(
        name="selection",
        proper=lambda: sized(selection_matrices, "proper"),
        matrices=lambda sizes: sized(selection_matrices, sizes),
        pairs=lambda sizes: sized(matrix_pairs, sizes),
        identical=lambda sizes: sized(identical_rows, sizes),
        near_identical=lambda sizes: sized(near_identical_rows, sizes),
        total_variance=selection_total_variance,
        families=FAMILIES,
        equal_variance_pairs=EQUAL_VARIANCE_PAIRS,
        maximum_examples=MAXIMUM_EXAMPLES,
        reference_configs=REFERENCE_CONFIGS,
        configurations=configurations_strategy,
        null_expectation=null_expectation,
        reference=np.array([[True, False], [True, False]]),
    )


def _ranking(max_runs: int, max_features: int) -> InputKind:
    def sized(strategy, ties):
        return strategy(max_runs=max_runs, max_features=max_features, ties=ties)

    return InputKind(
        name="ranking",
        proper=lambda: sized(rank_matrices, "proper"),
        matrices=lambda sizes: sized(rank_matrices, "any"),
        pairs=lambda sizes: sized(rank_matrix_pairs, "any"),
        identical=lambda sizes: sized(identical_rankings, "any"),
        near_identical=lambda sizes: sized(near_identical_rankings, "proper"),
        total_variance=rank_total_variance,
        families=RANKING_FAMILIES,
        equal_variance_pairs=RANKING_EQUAL_VARIANCE_PAIRS,
        maximum_examples=RANKING_MAXIMUM_EXAMPLES,
        reference_configs=RANKING_REFERENCE_CONFIGS,
        configurations=rank_configurations_strategy,
        null_expectation=rank_null_expectation,
        reference=np.array([[1.0, 2.0], [1.0, 2.0]]),
        fully_defined_examples=RANKING_FULLY_DEFINED_EXAMPLES,
    )


_BUILDERS = {"selection": _selection, "ranking": _ranking}


def input_kind(subject, max_runs: int, max_features: int) -> InputKind:
    """The input kind of ``subject`` (its declaration's ``input``), with the checks'
    search sizes."""
    return _BUILDERS[subject.declaration.input](max_runs, max_features)
