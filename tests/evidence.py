"""Independent confirmation of the audit's refutations, for the tests only.

The audit reports a counterexample for every disclaimed axiom it refutes. Comparing the
registry with a copy of itself proves nothing; the evidence is the counterexample. Here
each one is recomputed WITHOUT propstab's measures or propstab's null expectations: the
values come from the slow literal twins of tests/twins.py (exact fractions wherever the
quantity is rational), the total variance from its definition, the null expectations by
enumerating every tuple of subsets (or, for a pairwise mean, every pair of subsets), and
the constructive families are rebuilt from their definitions below. Only the measure's
declaration (claims, bounds, orientation, null value) is read from the registry.

:func:`confirm` raises AssertionError, with the reason, when a counterexample does not
refute the axiom on this independent evidence.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

import twins
from propstab import Axiom

TOLERANCE = 1e-9
#: Tuples of subsets an enumeration may visit (the audit's counterexamples are shrunk).
ENUMERATION_LIMIT = 200_000


def rows(d: int, *runs) -> np.ndarray:
    Z = np.zeros((len(runs), d), dtype=bool)
    for i, run in enumerate(runs):
        Z[i, list(run)] = True
    return Z


#: The audit's constructive families, rebuilt from their definitions: name -> (Z_n, C_n).
def _isolated(n):
    C = np.ones((n + 1, n + 1))
    C[0, 1:] = C[1:, 0] = 0
    return C


def _without_matching(n):
    C = np.ones((2 * n, 2 * n))
    for f in range(0, 2 * n, 2):
        C[f, f + 1] = C[f + 1, f] = 0
    return C


FAMILIES = {
    "disjoint_unbalanced": lambda n: (rows(n + 1, range(n), [n]), None),
    "nested": lambda n: (rows(n + 1, [0], range(n)), None),
    "distinct_singletons": lambda n: (rows(n, *[[f] for f in range(n)]), None),
    "disjoint_halves": lambda n: (rows(2 * n, range(n), range(n, 2 * n)), None),
    "isolated_feature": lambda n: (rows(n + 1, [0], [1]), _isolated(n)),
    "without_matching": lambda n: (
        rows(
            2 * n, [f for f in range(2 * n) if f % 4 < 2], [f for f in range(2 * n) if f % 4 >= 2]
        ),
        _without_matching(n),
    ),
}
FAMILY_SIZES = (2, 4, 8, 16, 32, 64, 128)


def twin_of(name: str, options) -> Optional[Callable]:
    """``value(Z, C) -> Fraction, float or None`` (None: undefined) for the measure, or
    None when tests/twins.py has no twin for it at these options."""
    options = dict(options)
    if name == "sechidis" and not options:
        return lambda Z, C: twins.twin_sechidis(Z, np.eye(Z.shape[1]) if C is None else C)
    if name not in twins.TWINS:
        return None
    return lambda Z, C: twins.twin(name, Z, **options) if C is None else None


def same(a, b) -> bool:
    """Exact equality of rationals, equality up to rounding otherwise."""
    if isinstance(a, (int, Fraction)) and isinstance(b, (int, Fraction)):
        return a == b
    return math.isclose(float(a), float(b), rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def exceeds(a, b) -> bool:
    """a > b, strictly beyond rounding for floats."""
    if isinstance(a, (int, Fraction)) and isinstance(b, (int, Fraction)):
        return a > b
    return float(a) - float(b) > TOLERANCE * max(1.0, abs(float(a)), abs(float(b)))


def refutes_monotonicity(where: str, V1, V2, v1, v2, sign: int) -> None:
    """A pair with total variances V1, V2 and values v1, v2 (``sign`` 1 when higher is
    more stable) refutes MONOTONICITY: equal variances with different values, or the
    lower variance with a strictly more stable value. (Sets and rankings alike.)"""
    assert v1 is not None and v2 is not None, f"{where}: undefined on the pair"
    if V1 == V2:
        assert not same(v1, v2), f"{where}: equal variance {V1} and equal values {v1}"
    else:
        (_, low), (_, high) = sorted([(V1, v1), (V2, v2)], key=lambda p: p[0])
        assert not exceeds(
            sign * low, sign * high
        ), f"{where}: lower variance gives a strictly more stable value"


def refutes_maximum(where: str, identical: bool, v, m, sign: int) -> None:
    """A counterexample with value v refutes MAXIMUM m: identical runs that do not reach
    it, or different runs that reach or pass it."""
    assert v is not None, f"{where}: undefined"
    if identical:
        assert not same(v, m), f"{where}: identical runs reach the maximum {m}"
    else:
        assert same(v, m) or exceeds(
            sign * v, sign * m
        ), f"{where}: different runs stay below the maximum ({v} vs {m})"


def refutes_correction_for_chance(where: str, result, declaration, expected) -> None:
    """The audit's null expectations (``result.expectations``) equal the enumerated ones,
    ``expected(record, reference)``, and the first differs from its reference: a second
    configuration's expectation, or the declared null value."""
    e = result.expectations[0]
    found = expected(e, False)
    assert found is not None and same(
        found, e.value
    ), f"{where}: the enumerated expectation {found} is not the audit's {e.value}"
    if len(result.expectations) > 1:  # the reference: another configuration's
        r = result.expectations[1]
        reference = expected(r, True)
        assert reference is not None and same(
            reference, r.value
        ), f"{where}: the enumerated reference {reference} is not the audit's {r.value}"
    else:  # the reference: the declared null value
        reference = declaration.null_value
    assert not same(found, reference), f"{where}: E = {found} equals the reference"


def _similarity(result):
    if result.context is None:
        return None
    assert result.context.weights is None, "importances: no twin"
    return result.context.similarity


def _expectation(value, name: str, options, sizes, d: int, C):
    """E[value | H0] by enumeration: every pair of subsets for a pairwise measure at its
    default options (the mean over ordered pairs of runs of E[phi | k_i, k_j, d]), every
    tuple of subsets otherwise."""
    if name in twins.SIMILARITIES and not options and C is None:
        sim = twins.SIMILARITIES[name]
        M = len(sizes)
        pairs = [
            twins.expected_similarity(sim, sizes[i], sizes[j], d)
            for i in range(M)
            for j in range(M)
            if i != j
        ]
        return None if None in pairs else sum(pairs) / len(pairs)
    count = math.prod(math.comb(d, k) for k in sizes)
    assert count <= ENUMERATION_LIMIT, f"{count} tuples of subsets: too many to enumerate"
    return twins.expected_measure(lambda X: value(np.asarray(X, dtype=bool), C), sizes, d)


def confirm(name: str, options, declaration, result) -> None:
    """Check a refutation (``result.status`` "refuted" or "violated") of ``name`` at
    ``options`` against the declaration on independent evidence; AssertionError if the
    counterexample does not refute the axiom."""
    value = twin_of(name, options)
    assert value is not None, f"{name} {dict(options)}: no twin"
    C = _similarity(result)
    axiom, ce = result.axiom, result.counterexample
    sign = 1 if declaration.orientation == "higher" else -1
    where = f"{result.measure}, {axiom.name}"

    if axiom is Axiom.FULLY_DEFINED:
        M, d = ce.shape
        k = ce.sum(axis=1)
        assert ((1 <= k) & (k <= d - 1)).all(), f"{where}: row sizes {k} outside 1..d-1"
        v = value(ce, C)
        assert v is None or not math.isfinite(v), f"{where}: the twin is defined ({v})"

    elif axiom is Axiom.MONOTONICITY:
        Z1, Z2 = ce
        assert (
            Z1.shape == Z2.shape and (Z1.sum(axis=1) == Z2.sum(axis=1)).all()
        ), f"{where}: not the same M, d and row sizes"
        refutes_monotonicity(
            where,
            twins.total_variance(Z1),
            twins.total_variance(Z2),
            value(Z1, C),
            value(Z2, C),
            sign,
        )

    elif axiom is Axiom.BOUNDS:
        family = re.search(r"along the family (\w+)", result.reason)
        if family is None:  # one value outside declared constant bounds
            lo, hi = declaration.constant_bounds
            v = value(ce, C)
            assert v is not None and not lo <= float(v) <= hi, f"{where}: {v} within bounds"
        else:
            values = []
            for n in FAMILY_SIZES:
                Z, Cn = FAMILIES[family.group(1)](n)
                values.append(value(Z, Cn))
            assert None not in values, f"{where}: undefined along the family"
            steps = [b - a for a, b in zip(values, values[1:])]
            assert all(s > 0 for s in steps) or all(
                s < 0 for s in steps
            ), f"{where}: not monotone along the family: {values}"
            assert all(
                abs(b) >= abs(a) * (1 - TOLERANCE) for a, b in zip(steps, steps[1:])
            ), f"{where}: the steps shrink (convergent): {values}"
            assert all(
                same(a, b) for a, b in zip(values, result.values)
            ), f"{where}: the audit's values {result.values} are not the twin's {values}"

    elif axiom is Axiom.MAXIMUM:
        M, d = ce.shape
        bound = declaration.upper if declaration.orientation == "higher" else declaration.lower
        m = bound.evaluate(M, d, ce.sum(axis=1))
        refutes_maximum(where, bool((ce == ce[0]).all()), value(ce, C), m, sign)

    elif axiom is Axiom.CORRECTION_FOR_CHANCE:
        e = result.expectations[0]
        assert (e.n_runs, e.n_features, tuple(e.row_sizes)) == tuple(ce[:2]) + (tuple(ce[2]),)
        refutes_correction_for_chance(
            where,
            result,
            declaration,
            lambda record, reference: _expectation(
                value,
                name,
                options,
                list(record.row_sizes),
                record.n_features,
                None if reference else C,
            ),
        )
    else:  # pragma: no cover
        raise AssertionError(f"unknown axiom {axiom}")
