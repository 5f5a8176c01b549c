"""The five properties ("axioms") of a stability measure.

Nogueira, *Quantifying the Stability of Feature Selection*, PhD thesis, University
of Manchester, 2018, chapter 4 (box "Our proposed properties for a stability
measure") and Nogueira, Sechidis and Brown, JMLR 18(174), 2018.

Notation: ``Z`` is a binary ``M x d`` selection matrix (``M >= 2`` runs,
``d >= 2`` features), ``k_i`` the size of run ``i`` and ``s_f^2 = M/(M-1) p_f (1-p_f)``
the sample variance of column ``f`` with ``p_f`` its selection frequency.

Each axiom has a second formal statement for *rank matrices* (the ranking family,
:func:`propstab.as_rankings`): ``R`` is an ``M x d`` matrix whose run i ranks the d
features by midranks (tied features share the mean of their positions), ``s_f^2`` the
sample variance of feature f's rank over the runs, and a run's *tie pattern* the
multiset of its midranks (without ties, 1..d). A subset of size k is the ranking with
two tie groups (k tied first, d - k tied last): the tie pattern is the analogue of the
subset size. :meth:`Axiom.statement_for` gives the statement for an input kind.
"""
from __future__ import annotations

import enum

from ._utils.checks import fail

__all__ = ["Axiom"]


class Axiom(enum.Enum):
    """The five desirable properties of a stability measure (thesis, ch. 4).

    Each member's ``statement`` is the formal statement that
    :mod:`propstab` checks; ``label`` is a short column heading.

    See Also
    --------
    propstab.audit : Checks every measure's claimed and disclaimed axioms.
    propstab.MeasureInfo : A registry entry; ``claims`` maps each axiom to a claim.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, ch. 4 (the five properties) and Table 4.1.
    Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature selection
    algorithms. JMLR 18(174), 1-54, sec. 3.

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

    @property
    def ranking_statement(self) -> str:
        """The formal statement for rank matrices (the ranking family).

        >>> from propstab import Axiom
        >>> Axiom.MAXIMUM.ranking_statement.split(" if and only if ")[1][:36]
        'all runs rank the features identical'
        """
        return _RANKING_STATEMENTS[self.name]

    def statement_for(self, input: str) -> str:
        """The statement checked for measures reading ``input`` (``"selection"``: a 0/1
        selection matrix, ``"ranking"``: a rank matrix).

        >>> from propstab import Axiom
        >>> Axiom.BOUNDS.statement_for("selection") == Axiom.BOUNDS.statement
        True
        """
        if input == "ranking":
            return self.ranking_statement
        if input != "selection":
            fail(f"input: must be 'selection' or 'ranking'; got {input!r}")
        return self.statement

    def __repr__(self) -> str:
        return f"Axiom.{self.name}"


#: The statements of the five axioms for rank matrices (see the module docstring).
_RANKING_STATEMENTS = {
    "FULLY_DEFINED": "The measure takes a finite value (no NaN, no warning, no exception) on every rank "
    "matrix R (M >= 2 runs, d >= 2 features, ties allowed) in which no run ranks all d "
    "features equal (the analogue of row sizes in 1..d-1).",
    "MONOTONICITY": "Among rank matrices with the same M, d and the same tie pattern in each run (run "
    "i of both matrices has the same multiset of midranks), the value is a strictly "
    "decreasing function of the total sample variance of the ranks sum_f s_f^2: lower "
    "total variance gives a strictly more stable value and equal total variance gives "
    "an equal value.",
    "BOUNDS": "There are constants lo <= hi, independent of M, d and the tie patterns, with "
    "lo <= value <= hi on the measure's domain.",
    "MAXIMUM": "The value equals its declared maximum (for a measure where lower means more "
    "stable: its declared minimum) if and only if all runs rank the features "
    "identically (the same midranks).",
    "CORRECTION_FOR_CHANCE": "Under the null model H0 for rankings (run i ranks the features by a uniformly "
    "random permutation of its own midranks; without ties, each of the d! rankings "
    "with probability 1/d!), E[value | H0] is the same constant for every M, d and "
    "tie patterns.",
}
