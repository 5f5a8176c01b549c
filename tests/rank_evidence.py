"""Independent confirmation of the audit's refutations for the ranking family (the analogue
of tests/evidence.py): each counterexample is recomputed WITHOUT propstab's measures,
total variances or null expectations, with the literal twins of tests/rank_twins.py
(exact fractions where rational), the total variance of the midranks from its
definition, and the null expectation by enumerating every tuple of distinct
permutations of the runs' midranks. Only the declaration is read from the registry.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np

import rank_twins
from evidence import refutes_correction_for_chance, refutes_maximum, refutes_monotonicity
from propstab import Axiom


def total_variance(R) -> Fraction:
    """sum_f s_f^2 of the midranks (divisor M - 1), in fractions."""
    ranks = rank_twins.as_midranks(R)
    M, d = len(ranks), len(ranks[0])
    total = Fraction(0)
    for f in range(d):
        column = [ranks[i][f] for i in range(M)]
        mean = sum(column) / M
        total += sum((x - mean) ** 2 for x in column) / (M - 1)
    return total


def _pattern(row):
    return sorted(rank_twins.midranks(list(row)))


FAMILIES = {
    "reversed": lambda n: np.array([list(range(1, n + 1)), list(range(n, 0, -1))], float),
    "cyclic": lambda n: np.array([[(i + f) % n + 1 for f in range(n)] for i in range(n)], float),
    "top_tied": lambda n: np.array(
        [[1 if f == i else (n + 2) / 2 for f in range(n)] for i in range(n)], float
    ),
}


def confirm(name: str, options, declaration, result) -> None:
    """AssertionError unless the counterexample of ``result`` refutes the axiom of
    ``name`` at ``options`` on the twins' evidence."""

    def value(R):
        return rank_twins.twin(name, np.asarray(R, dtype=float), **dict(options))

    axiom, ce = result.axiom, result.counterexample
    sign = 1 if declaration.orientation == "higher" else -1
    where = f"{result.measure}, {axiom.name}"

    if axiom is Axiom.FULLY_DEFINED:
        assert all(len(set(row)) > 1 for row in ce.tolist()), f"{where}: a constant run"
        v = value(ce)
        assert v is None or not math.isfinite(v), f"{where}: the twin is defined ({v})"

    elif axiom is Axiom.MONOTONICITY:
        R1, R2 = ce
        assert R1.shape == R2.shape and all(
            _pattern(a) == _pattern(b) for a, b in zip(R1.tolist(), R2.tolist())
        ), f"{where}: not the same M, d and tie patterns"
        refutes_monotonicity(
            where, total_variance(R1), total_variance(R2), value(R1), value(R2), sign
        )

    elif axiom is Axiom.BOUNDS:
        family = re.search(r"along the family (\w+)", result.reason)
        if family is None:
            lo, hi = declaration.constant_bounds
            v = value(ce)
            assert v is not None and not lo <= float(v) <= hi, f"{where}: {v} within bounds"
        else:
            values = [value(FAMILIES[family.group(1)](n)) for n in (2, 4, 8, 16)]
            steps = np.diff([float(v) for v in values])
            assert (steps > 0).all() or (steps < 0).all(), f"{where}: {values}"

    elif axiom is Axiom.MAXIMUM:
        M, d = ce.shape
        bound = declaration.upper if declaration.orientation == "higher" else declaration.lower
        m = bound.evaluate(M, d, ce.sum(axis=1))
        refutes_maximum(where, bool((ce == ce[0]).all()), value(ce), m, sign)

    elif axiom is Axiom.CORRECTION_FOR_CHANCE:
        e = result.expectations[0]
        assert (e.n_runs, e.n_features, tuple(e.row_sizes)) == (
            ce.n_runs,
            ce.n_features,
            tuple(ce.patterns),
        )
        refutes_correction_for_chance(
            where,
            result,
            declaration,
            lambda record, reference: rank_twins.expected(value, record.row_sizes),
        )
    else:  # pragma: no cover
        raise AssertionError(f"unknown axiom {axiom}")
