"""The five properties ("axioms") of a stability measure.

Nogueira, *Quantifying the Stability of Feature Selection*, PhD thesis, University
of Manchester, 2018, chapter 4 (box "Our proposed properties for a stability
measure") and Nogueira, Sechidis and Brown, JMLR 18(174), 2018.

Notation: ``Z`` is a binary ``M x d`` selection matrix (``M >= 2`` runs,
``d >= 2`` features), ``k_i`` the size of run ``i`` and ``s_f^2 = M/(M-1) p_f (1-p_f)``
the sample variance of column ``f`` with ``p_f`` its selection frequency.
"""
from __future__ import annotations

import enum

__all__ = ["Axiom"]


class Axiom(enum.Enum):
    """The five desirable properties of a stability measure (thesis, ch. 4).

    Each member's ``statement`` is the formal statement that
    :mod:`propstab` checks; ``label`` is a short column heading.

    Examples
    --------
    >>> from propstab import Axiom
    >>> [a.label for a in Axiom]
    ['fully defined', 'monotonicity', 'bounds', 'maximum', 'correction']
    """

    FULLY_DEFINED = (
        "fully defined",
        "The measure takes a finite value (no NaN, no warning, no exception) on every "
        "Z whose row sizes k_1..k_M lie in 1..d-1, the sizes being allowed to differ "
        "between rows.",
    )
    MONOTONICITY = (
        "monotonicity",
        "Among matrices with the same M, d and row sizes k_1..k_M, the value is a "
        "strictly decreasing function of the total sample variance sum_f s_f^2 "
        "(equivalently, by thesis Thm 2, strictly increasing in the average pairwise "
        "intersection): lower total variance gives a strictly higher value and equal "
        "total variance gives an equal value.",
    )
    BOUNDS = (
        "bounds",
        "There are constants lo <= hi, independent of M, d and the row sizes, with "
        "lo <= value <= hi on the measure's domain.",
    )
    MAXIMUM = (
        "maximum",
        "The value equals its declared maximum if and only if all rows of Z are "
        "identical (for a measure where lower means more stable: its declared minimum).",
    )
    CORRECTION_FOR_CHANCE = (
        "correction",
        "Under the null model H0 (thesis Definition 2: run i draws a uniformly random "
        "subset of size k_i), E[value | H0] is the same constant for every M, d and "
        "k_1..k_M.",
    )

    def __init__(self, label: str, statement: str) -> None:
        self.label = label
        self.statement = statement

    def __repr__(self) -> str:
        return f"Axiom.{self.name}"
