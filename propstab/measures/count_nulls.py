"""Exact null expectations of the frequency measures corrected as a global score.

With ``correction_for_chance="exact"``, Davis's and Novovicova's measures become
``(Phi - E[Phi|H0]) / (1 - E[Phi|H0])`` with the exact expectation of the whole score
under the null model (thesis Definition 2: run i a uniformly random subset of its size
k_i). Each function here is a count kernel's ``expectation`` (see
:func:`~propstab.measures.kernels.count_kernel`): it evaluates the measure's own
formula on :class:`~propstab.measures.kernels.Counts` whose one random summary is
replaced by its null law (:mod:`propstab.chance`), so no second formula is written.
"""
from __future__ import annotations

import numpy as np

from .. import chance
from ._common import FifoMemo
from .kernels import xlogx

__all__ = ["davis_expectation", "novovicova_expectation"]


#: The null laws by (function, row sizes, d), oldest dropped first: pure functions of
#: them that the audit's searches ask for again and again (read-only arrays).
_LAWS = FifoMemo(1024)


def _law(function, sizes, d: int) -> np.ndarray:
    """``function(sizes, d)`` (:func:`propstab.chance.union_size_pmf`, whose chain adds
    the runs in order, or :func:`propstab.chance.column_count_pmf`), memoised by the
    sizes in their order: the same numbers."""
    sizes = np.asarray(sizes)

    def make():
        pmf = function(sizes, d)
        pmf.setflags(write=False)
        return pmf

    return _LAWS.get_or_make((function, tuple(sizes.tolist()), int(d)), make)


def davis_expectation(c, formula, *, penalty=0.0):
    """E[Davis | H0]: the formula averaged over the exact law of the union size |X|
    (the other summaries are fixed by the row sizes)."""
    pmf = _law(chance.union_size_pmf, c.sizes, c.n_features)
    union = np.arange(1, c.n_features + 1)
    return float(np.dot(pmf[1:], formula(c.replace(n_union=union), penalty=penalty)))


def novovicova_expectation(c, formula):
    """E[SH | H0]: SH is linear in sum_f F_f ln F_f, whose expectation is d E[F ln F]
    with F Poisson-binomial (each column's count under H0)."""
    pmf = _law(chance.column_count_pmf, c.sizes, c.n_features)
    expected = c.n_features * float(np.dot(pmf, xlogx(np.arange(pmf.size))))
    return float(formula(c.replace(column_xlogx=expected)))
