"""Literal twins of propstab.calibration: exact rational arithmetic, Python loops.

Used by tests/test_calibration.py and r_compat/test_sharp_live.py (tests/ is on sys.path).
"""
import math
from fractions import Fraction


def r_round(x: Fraction) -> int:
    """R's round(x) (digits = 0) on an exact value: nearest integer, ties to even."""
    f = math.floor(x)
    d = x - f
    if d != Fraction(1, 2):
        return f + 1 if d > Fraction(1, 2) else f
    return f if f % 2 == 0 else f + 1


def _log(p: Fraction) -> float:
    """log of an exact probability, correctly rounded near 1 as well."""
    if p > Fraction(1, 2):
        return math.log1p(float(p - 1))
    return math.log(p.numerator) - math.log(p.denominator)


def stability_score_twin(freq, K: int, pi: float, n_cat: int = 3) -> float:
    """sharp's StabilityScore for one pi, literally: the classes counted one feature at
    a time, the binomial probabilities summed exactly in fractions."""
    N = len(freq)
    q = r_round(sum(Fraction(f) for f in freq))
    p = Fraction(int(q), N)
    pmf = [math.comb(K, k) * p**k * (1 - p) ** (K - k) for k in range(K + 1)]
    up = r_round(Fraction(K * pi))  # round(K * pi) of the double product
    if n_cat == 2:
        terms = [
            (sum(1 for f in freq if f < pi), sum(pmf[:up])),
            (sum(1 for f in freq if f >= pi), sum(pmf[up:])),
        ]
    else:
        down = r_round(Fraction(K * (1 - pi)))
        if down >= up - 1:
            return math.nan  # no unstable class: sharp's NA
        terms = [
            (sum(1 for f in freq if f <= 1 - pi), sum(pmf[: down + 1])),
            (sum(1 for f in freq if 1 - pi < f < pi), sum(pmf[down + 1 : up])),
            (sum(1 for f in freq if f >= pi), sum(pmf[up:])),
        ]
    total = 0.0
    for count, prob in terms:
        if prob == 0:
            return math.nan  # R: count * log(0) is -Inf or NaN
        total += count * _log(prob)
    return -total


def fdp_plus_twin(real, artificial, t: float) -> float:
    """Stabl's FDP+ at one threshold, counting one feature at a time."""
    n_fake = 0
    for a in artificial:
        if a > t:
            n_fake += 1
    n_real = 0
    for f in real:
        if f > t:
            n_real += 1
    return (1 + n_fake) / max(1, n_real)
