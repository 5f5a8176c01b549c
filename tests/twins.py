"""Slow literal twins of every registered measure, for the tests only.

Each twin is written from the paper's definition, independently of the fast
vectorised code in :mod:`propstab.measures`: pairwise measures loop over the
M(M-1) ordered pairs of distinct runs with Python set operations, frequency
measures loop over features and runs, and every quantity that is rational is
computed exactly with :class:`fractions.Fraction`. Irrational quantities
(square roots, logarithms) are computed last, in floating point.

A twin returns ``None`` where the measure is undefined (a zero denominator, a
constant-size measure on rows of varying size); the fast path must then return
NaN with :class:`propstab.UndefinedMeasureWarning`.

Sources
-------
- Nogueira, S. (2018), PhD thesis: Table 3.1 (similarities), Table 3.2 and
  eqs. B.1-B.3 (frequency measures), Definition 3 (the estimator), App. B.2
  (Guzman's D_JS definition).
- Somol, P., Novovicova, J. (2010): eqs. 3, 5, 6, 7, 11, 14.
- Bommert, A. (2020) / R package stabm 1.2.2: kappa (Cohen's kappa of two runs),
  phi (Pearson correlation of two 0/1 rows), unadjusted
  ``(r - E[r]) / (sqrt(k_i k_j) - E[r])``, Novovicova's entropy score, and the
  per-pair ``correction.for.chance = "exact"``.
- Sechidis, K. et al. (2019): Definition 2 and Theorem 3 (the correlated ``sechidis``).
- Conger, A. J. (1980): kappa for M raters, pairwise agreement with each rater's own
  chance marginals (``conger``).
- The null model H0 (thesis Definition 2): run i is a uniformly random subset of
  size k_i. The ``*_expectation`` twins ENUMERATE every subset (itertools), with
  no use of :mod:`propstab.chance`.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Callable, Dict, List, Sequence, Tuple

import numpy as np

Sets = List[frozenset]


def as_sets(Z) -> Tuple[Sets, int]:
    """The runs of a dense 0/1 matrix as frozensets of column indices, and d."""
    rows = [list(map(int, row)) for row in Z]
    d = len(rows[0])
    return [frozenset(f for f in range(d) if row[f]) for row in rows], d


def _median(values: Sequence[int]) -> Fraction:
    v = sorted(values)
    m = len(v)
    return Fraction(v[m // 2]) if m % 2 else Fraction(v[m // 2 - 1] + v[m // 2], 2)


# --------------------------------------------------------------------------- pairwise
# Each similarity phi(a, b, d) returns a number, or None when undefined.


def sim_hamming(a, b, d):
    """Dunne et al. (2002): 1 - (|a \\ b| + |b \\ a|) / d (thesis Table 3.1)."""
    return 1 - Fraction(len(a - b) + len(b - a), d)


def sim_jaccard(a, b, d):
    """Kalousis et al.: |a ∩ b| / |a ∪ b| (thesis Table 3.1; Somol eq. 7)."""
    union = a | b
    return None if not union else Fraction(len(a & b), len(union))


def sim_dice(a, b, d):
    """Yu et al.: 2 |a ∩ b| / (|a| + |b|) (thesis Table 3.1)."""
    s = len(a) + len(b)
    return None if s == 0 else Fraction(2 * len(a & b), s)


def sim_ochiai(a, b, d):
    """Zucknick et al.: |a ∩ b| / sqrt(|a| |b|) (thesis Table 3.1)."""
    if not a or not b:
        return None
    root = math.isqrt(len(a) * len(b))
    if root * root == len(a) * len(b):  # rational: exact
        return Fraction(len(a & b), root)
    return len(a & b) / math.sqrt(len(a) * len(b))


def sim_pog(a, b, d):
    """Shi et al.: |a ∩ b| / |a| (thesis Table 3.1, not symmetric)."""
    return None if not a else Fraction(len(a & b), len(a))


def _expected_r(a, b, d):
    return Fraction(len(a) * len(b), d)


def sim_kuncheva(a, b, d):
    """Kuncheva (2007), eq. 3.1: (r - k^2/d) / (k - k^2/d), |a| = |b| = k."""
    k = len(a)
    assert len(b) == k
    den = k - Fraction(k * k, d)
    return None if den == 0 else (len(a & b) - Fraction(k * k, d)) / den


def sim_lustgarten(a, b, d):
    """Lustgarten et al.: (r - E r) / (max r - min r) (thesis Table 3.1)."""
    den = min(len(a), len(b)) - max(0, len(a) + len(b) - d)
    return None if den == 0 else (len(a & b) - _expected_r(a, b, d)) / den


def sim_wald(a, b, d):
    """Wald et al., eq. 3.2: (r - E r) / (min(k_i, k_j) - E r)."""
    den = min(len(a), len(b)) - _expected_r(a, b, d)
    return None if den == 0 else (len(a & b) - _expected_r(a, b, d)) / den


def sim_npog(a, b, d):
    """Zhang et al., eq. 3.3: (r - E r) / (|a| - E r)."""
    den = len(a) - _expected_r(a, b, d)
    return None if den == 0 else (len(a & b) - _expected_r(a, b, d)) / den


def sim_kappa(a, b, d):
    """Cohen's kappa of the two 0/1 rows over the d features (stabm's Kappa):
    (p_o - p_e) / (1 - p_e), p_o the observed agreement, p_e the chance agreement
    from the two rows' marginals."""
    both = len(a & b)
    neither = d - len(a | b)
    p_o = Fraction(both + neither, d)
    p_e = Fraction(len(a), d) * Fraction(len(b), d) + Fraction(d - len(a), d) * Fraction(
        d - len(b), d
    )
    return None if p_e == 1 else (p_o - p_e) / (1 - p_e)


def sim_phi(a, b, d):
    """Pearson correlation of the two 0/1 rows x, y (stabm's Phi), from the sums
    over the d features: (d sum xy - sum x sum y) / sqrt((d sum x^2 - (sum x)^2)
    (d sum y^2 - (sum y)^2)), all sums exact integers."""
    x = [1 if f in a else 0 for f in range(d)]
    y = [1 if f in b else 0 for f in range(d)]
    sx, sy = sum(x), sum(y)
    cov = d * sum(xi * yi for xi, yi in zip(x, y)) - sx * sy
    vx = d * sum(xi * xi for xi in x) - sx * sx
    vy = d * sum(yi * yi for yi in y) - sy * sy
    if vx == 0 or vy == 0:
        return None
    return cov / math.sqrt(vx * vy)


def sim_unadjusted(a, b, d):
    """stabm's intersection.common with its "unadjusted" correction:
    (r - k_i k_j / d) / (sqrt(k_i k_j) - k_i k_j / d)."""
    expected = _expected_r(a, b, d)
    maximum = math.sqrt(len(a) * len(b))
    if maximum == expected:
        return None
    return (len(a & b) - float(expected)) / (maximum - float(expected))


SIMILARITIES: Dict[str, Callable] = {
    "hamming": sim_hamming,
    "jaccard": sim_jaccard,
    "dice": sim_dice,
    "ochiai": sim_ochiai,
    "pog": sim_pog,
    "kuncheva": sim_kuncheva,
    "lustgarten": sim_lustgarten,
    "wald": sim_wald,
    "npog": sim_npog,
    "kappa": sim_kappa,
    "phi": sim_phi,
    "unadjusted": sim_unadjusted,
}


def pairwise_average(sim, runs: Sets, d: int):
    """(1 / (M(M-1))) sum over ordered pairs i != j of sim(s_i, s_j, d)."""
    M = len(runs)
    total = 0
    for i in range(M):
        for j in range(M):
            if i == j:
                continue
            value = sim(runs[i], runs[j], d)
            if value is None:
                return None
            total += value
    return total / (M * (M - 1))


def _pairwise_twin(name):
    sim = SIMILARITIES[name]

    def twin(Z):
        runs, d = as_sets(Z)
        if name == "kuncheva" and len({len(s) for s in runs}) > 1:
            return None
        return pairwise_average(sim, runs, d)

    twin.__name__ = f"twin_{name}"
    twin.__doc__ = f"Average of {sim.__name__} over ordered pairs of distinct runs."
    return twin


# --------------------------------------------------------------- null model by enumeration


def subsets(d: int, k: int):
    """Every subset of size k of the d features, as frozensets."""
    return [frozenset(c) for c in itertools.combinations(range(d), k)]


_PAIR_CACHE: dict = {}


def expected_similarity(sim, ka: int, kb: int, d: int):
    """E[sim(A, B) | H0] with A, B uniform subsets of sizes ka, kb: the average
    over ALL (C(d, ka) C(d, kb)) pairs of subsets. None when sim is undefined for
    some pair."""
    key = (sim.__name__, ka, kb, d)
    if key not in _PAIR_CACHE:
        total, count, ok = 0, 0, True
        for A in subsets(d, ka):
            for B in subsets(d, kb):
                value = sim(A, B, d)
                if value is None:
                    ok = False
                    break
                total += value
                count += 1
            if not ok:
                break
        _PAIR_CACHE[key] = total / count if ok else None
    return _PAIR_CACHE[key]


def corrected_pairwise(name: str, Z):
    """stabm's correction.for.chance = "exact": each pair's score phi becomes
    (phi - E[phi|H0]) / (1 - E[phi|H0]) (maximum 1), then the average over pairs."""
    sim = SIMILARITIES[name]
    runs, d = as_sets(Z)

    def corrected(a, b, dd):
        value = sim(a, b, dd)
        if value is None:
            return None
        expected = expected_similarity(sim, len(a), len(b), dd)
        if expected is None or expected == 1:
            return None
        return (value - expected) / (1 - expected)

    return pairwise_average(corrected, runs, d)


def expected_measure(twin: Callable, row_sizes: Sequence[int], d: int):
    """E[twin(Z) | H0]: the average of the twin over every matrix whose run i is a
    subset of size k_i (the product of the M sets of subsets, enumerated)."""
    total, count = 0, 0
    for runs in itertools.product(*[subsets(d, k) for k in row_sizes]):
        Z = [[1 if f in s else 0 for f in range(d)] for s in runs]
        value = twin(Z)
        if value is None:
            return None
        total += value
        count += 1
    return total / count


# --------------------------------------------------------------------------- frequency


def _columns(Z):
    runs, d = as_sets(Z)
    M = len(runs)
    F = [sum(1 for s in runs if f in s) for f in range(d)]  # F_f = M p_f
    return runs, M, d, F


def total_variance(Z) -> Fraction:
    """sum_f s_f^2 with s_f^2 = M/(M-1) p_f (1 - p_f) (thesis Definition 3), exactly: the
    total variance MONOTONICITY is stated for, (M sum_f F_f - sum_f F_f^2) / (M (M - 1))."""
    runs, M, d, F = _columns(Z)
    return Fraction(M * sum(F) - sum(c * c for c in F), M * (M - 1))


def twin_nogueira(Z):
    """Thesis Definition 3: 1 - ((1/d) sum_f s_f^2) / ((kbar/d)(1 - kbar/d)),
    s_f^2 = M/(M-1) p_f (1 - p_f)."""
    runs, M, d, F = _columns(Z)
    p = [Fraction(c, M) for c in F]
    s2 = [Fraction(M, M - 1) * pf * (1 - pf) for pf in p]
    kbar = Fraction(sum(len(s) for s in runs), M)
    den = (kbar / d) * (1 - kbar / d)
    return None if den == 0 else 1 - (sum(s2) / d) / den


def twin_conger(Z):
    """Conger (1980), kappa for M raters with each rater's own marginals: one minus the
    observed disagreement over all ordered pairs of runs (Hamming distances
    |a \\ b| + |b \\ a|) divided by its chance counterpart, each pair's expected Hamming
    distance for independent runs of frequencies |a|/d and |b|/d over d features."""
    runs, d = as_sets(Z)
    observed = expected = Fraction(0)
    for i, a in enumerate(runs):
        for j, b in enumerate(runs):
            if i != j:
                observed += len(a - b) + len(b - a)
                pa, pb = Fraction(len(a), d), Fraction(len(b), d)
                expected += d * (pa * (1 - pb) + pb * (1 - pa))
    return None if expected == 0 else 1 - observed / expected


def twin_goh(Z):
    """Goh and Wong (thesis Table 3.2): (1/d) sum_f p_f."""
    runs, M, d, F = _columns(Z)
    return sum(Fraction(c, M) for c in F) / d


def twin_davis(Z, penalty=0):
    """Davis et al. (thesis Table 3.2): max(0, (1/F) sum_f p_f - alpha median(k)/d),
    F = |union of the runs|."""
    runs, M, d, F = _columns(Z)
    union = frozenset().union(*runs)
    if not union:
        return None
    value = (
        sum(Fraction(c, M) for c in F) / len(union)
        - Fraction(penalty) * _median([len(s) for s in runs]) / d
    )
    return max(Fraction(0), value)


def twin_krizek(Z):
    """Krizek et al. (thesis Table 3.2): entropy (log2) of the distinct feature sets,
    counted by their number of occurrences among the rows. Constant size only."""
    runs, d = as_sets(Z)
    if len({len(s) for s in runs}) > 1:
        return None
    M = len(runs)
    return -sum((c / M) * math.log2(c / M) for c in Counter(runs).values()) + 0.0


def twin_guzman(Z):
    """Guzman-Martinez and Alaiz-Rodriguez, from the original definition (thesis
    App. B.2): 1 - D_JS / D*_JS with q_{f,i} = z_{i,f} / k, qbar_f = mean_i q_{f,i},
    D_JS = (1/M) sum_i sum_f q_{f,i} log(q_{f,i} / qbar_f), D*_JS = log(d/k)."""
    runs, d = as_sets(Z)
    sizes = {len(s) for s in runs}
    if len(sizes) > 1:
        return None
    k = sizes.pop()
    if k == 0 or k == d:
        return None  # q undefined (k = 0) or D* = log 1 = 0
    M = len(runs)
    q = [[Fraction(1 if f in s else 0, k) for f in range(d)] for s in runs]
    qbar = [sum(q[i][f] for i in range(M)) / M for f in range(d)]
    djs = (
        sum(
            float(q[i][f]) * math.log(q[i][f] / qbar[f])
            for i in range(M)
            for f in range(d)
            if q[i][f] > 0
        )
        / M
    )
    return 1.0 - djs / math.log(d / k)


def twin_cw(runs: Sets, d: int):
    """Somol and Novovicova eq. 5: CW = sum_f (F_f / N) (F_f - 1)/(n - 1)."""
    n = len(runs)
    F = [sum(1 for s in runs if f in s) for f in range(d)]
    N = sum(F)
    return sum(Fraction(c, N) * Fraction(c - 1, n - 1) for c in F)


def twin_cw_min(N: int, n: int, Y: int) -> Fraction:
    """Somol and Novovicova eq. 11, D = N mod |Y| (eq. 9)."""
    D = N % Y
    return Fraction(N * N - Y * (N - D) - D * D, Y * N * (n - 1))


def twin_cw_max(N: int, n: int) -> Fraction:
    """Somol and Novovicova eq. 14, H = N mod n (eq. 13)."""
    H = N % n
    return Fraction(H * H + N * (n - 1) - H * n, N * (n - 1))


def twin_cwrel(Z):
    """Somol and Novovicova eq. 6 with eqs. 5, 11 and 14 (not the closed form eq. 15):
    (CW - CW_min) / (CW_max - CW_min), and CW where CW_max = CW_min."""
    runs, d = as_sets(Z)
    N = sum(len(s) for s in runs)
    if N == 0:
        return None
    n = len(runs)
    cw, lo, hi = twin_cw(runs, d), twin_cw_min(N, n, d), twin_cw_max(N, n)
    return cw if hi == lo else (cw - lo) / (hi - lo)


def twin_lausser(Z):
    """Lausser et al. (thesis Table 3.2): (1/(M^2 k)) sum_i i^2 a^(i), a^(i) the
    number of features selected exactly i times. Constant size only."""
    runs, M, d, F = _columns(Z)
    sizes = {len(s) for s in runs}
    if len(sizes) > 1:
        return None
    k = sizes.pop()
    if k == 0:
        return None
    a = {i: sum(1 for c in F if c == i) for i in range(1, M + 1)}
    return Fraction(sum(i * i * a[i] for i in a), M * M * k)


def twin_consistency(Z):
    """Somol and Novovicova eq. 3: (1/|X|) sum_{f in X} (F_f - 1)/(n - 1)."""
    runs, M, d, F = _columns(Z)
    X = [f for f in range(d) if F[f] > 0]
    if not X:
        return None
    return sum(Fraction(F[f] - 1, M - 1) for f in X) / len(X)


def twin_weighted_consistency(Z):
    """Somol and Novovicova eq. 4: sum_{f in X} w_f (F_f - 1)/(n - 1), w_f = F_f / sum F."""
    runs, M, d, F = _columns(Z)
    X = [f for f in range(d) if F[f] > 0]
    if not X:
        return None
    total = sum(F[g] for g in X)
    return sum(Fraction(F[f], total) * Fraction(F[f] - 1, M - 1) for f in X)


def twin_novovicova(Z):
    """stabm's novovicova score: sum_{f in X} F_f log2 F_f / (N log2 M), the
    frequencies F_f counted from the list of all selected features."""
    runs, d = as_sets(Z)
    freq = Counter(f for s in runs for f in s)
    N = sum(freq.values())
    if N == 0:
        return None
    return sum(c * math.log2(c) for c in freq.values()) / (N * math.log2(len(runs)))


# --------------------------------------------------------------------------- correlated


def twin_sechidis(Z, C) -> Fraction:
    """Sechidis et al. (2019), Definition 2 with Theorem 3's Sigma0, in fractions:
    1 - tr(C S) / tr(C Sigma0), S the unbiased d x d covariance of the columns
    (M/(M-1) (p_fg - p_f p_g)), Sigma0 with var0 = (kbar/d)(1 - kbar/d) on the diagonal and
    cov0 = (mean(k^2) - kbar)/(d^2 - d) - kbar^2/d^2 off it (mean of k^2, as propstab; the
    paper prints kbar^2 for a constant size). Each entry of C is taken exactly as given
    (a float is converted to its exact binary fraction). None when tr(C Sigma0) = 0."""
    rows = [list(map(int, row)) for row in Z]
    M, d = len(rows), len(rows[0])
    C = [[Fraction(x) for x in row] for row in C]
    p = [Fraction(sum(r[f] for r in rows), M) for f in range(d)]
    pp = [[Fraction(sum(r[f] * r[g] for r in rows), M) for g in range(d)] for f in range(d)]
    trCS = sum(
        C[f][g] * Fraction(M, M - 1) * (pp[f][g] - p[f] * p[g]) for f in range(d) for g in range(d)
    )
    k = [sum(r) for r in rows]
    kbar, k2 = Fraction(sum(k), M), Fraction(sum(x * x for x in k), M)
    var0 = kbar / d * (1 - kbar / d)
    cov0 = (k2 - kbar) / (d * d - d) - kbar**2 / d**2
    trC0 = sum(C[f][g] * (var0 if f == g else cov0) for f in range(d) for g in range(d))
    return None if trC0 == 0 else 1 - trCS / trC0


def null_covariance_sum(Z) -> Tuple[List[List[Fraction]], List[Fraction]]:
    """The exact E[S | H0] of the unbiased covariance matrix S of Z's columns for runs of
    Z's sizes, from the general identity for independent, not identically distributed
    rows: E[S] = (1/M) sum_i Cov_i + (1/(M-1)) sum_i (mu_i - mu)(mu_i - mu)^T, with run
    i's mean q_i 1 (q_i = k_i/d) and covariance q_i (1 - q_i) on the diagonal,
    k_i (k_i - 1)/(d (d - 1)) - q_i^2 off it (a uniform k_i-subset). Returns E[S] as a
    d x d list of fractions and the q_i."""
    rows = [list(map(int, row)) for row in Z]
    M, d = len(rows), len(rows[0])
    k = [sum(r) for r in rows]
    q = [Fraction(x, d) for x in k]
    qbar = sum(q) / M
    spread = sum((x - qbar) ** 2 for x in q) / (M - 1)
    var = sum(x * (1 - x) for x in q) / M
    cov = (
        sum(Fraction(x * (x - 1), d * (d - 1)) - y * y for x, y in zip(k, q)) / M
        if d > 1
        else Fraction(0)
    )
    return [[(var if f == g else cov) + spread for g in range(d)] for f in range(d)], q


def sample_covariance(Z) -> List[List[Fraction]]:
    """The unbiased covariance matrix of the columns of Z, in fractions."""
    rows = [list(map(int, row)) for row in Z]
    M, d = len(rows), len(rows[0])
    p = [Fraction(sum(r[f] for r in rows), M) for f in range(d)]
    return [
        [
            Fraction(M, M - 1) * (Fraction(sum(r[f] * r[g] for r in rows), M) - p[f] * p[g])
            for g in range(d)
        ]
        for f in range(d)
    ]


def twin_sechidis_exact(Z, C):
    """Sechidis et al.'s Definition 2 with the exact null expectation in the denominator:
    1 - tr(C S) / tr(C E[S | H0]) (:func:`null_covariance_sum`), in fractions. None when
    the denominator is 0 or the mean size is 0 or d."""
    rows = [list(map(int, row)) for row in Z]
    M, d = len(rows), len(rows[0])
    N = sum(map(sum, rows))
    if N == 0 or N == M * d:
        return None
    C = [[Fraction(x) for x in row] for row in C]
    S = sample_covariance(rows)
    ES, _ = null_covariance_sum(rows)
    trCS = sum(C[f][g] * S[f][g] for f in range(d) for g in range(d))
    trCE = sum(C[f][g] * ES[f][g] for f in range(d) for g in range(d))
    return None if trCE == 0 else 1 - trCS / trCE


FREQUENCY_TWINS: Dict[str, Callable] = {
    "nogueira": twin_nogueira,
    "conger": twin_conger,
    "goh": twin_goh,
    "davis": twin_davis,
    "krizek": twin_krizek,
    "guzman": twin_guzman,
    "cwrel": twin_cwrel,
    "lausser": twin_lausser,
    "consistency": twin_consistency,
    "weighted_consistency": twin_weighted_consistency,
    "novovicova": twin_novovicova,
}

TWINS: Dict[str, Callable] = {**{n: _pairwise_twin(n) for n in SIMILARITIES}, **FREQUENCY_TWINS}


#: The measures whose twins are written in this file.
_WRITTEN_HERE = frozenset(TWINS)


def slow_twin(name: str, *, similarity: bool = False):
    """Register the slow literal twin of measure ``name``, where the measure is tested.

    A measure added after this file keeps its twin in its own test file,
    ``tests/test_measure_<name>.py`` (docs/contributing.md), decorated with
    ``@twins.slow_twin("<name>")``: ``twin(Z, **options)`` from the definition (Python
    loops, :class:`fractions.Fraction`; None where undefined). With ``similarity=True``
    the function is the pair similarity ``phi(a, b, d)`` of a pairwise measure (frozensets
    ``a``, ``b``), averaged over the ordered pairs of runs like the twins above, which
    also gives the enumerated exact correction for chance. Every ``tests/test_measure_*.py``
    is imported at the end of this module, so :data:`TWINS` is complete wherever it is read
    (tests/test_slow_twins.py, tests/evidence.py, properties/).
    """

    def decorate(function):
        if name in _WRITTEN_HERE:
            raise ValueError(f"slow_twin: {name!r} already has its twin in tests/twins.py")
        if similarity:
            SIMILARITIES[name] = function
            TWINS[name] = _pairwise_twin(name)
        else:
            TWINS[name] = function
        return function

    return decorate


def twin(name: str, Z, **options):
    """The twin of measure ``name`` on the dense 0/1 matrix ``Z`` with ``options``
    (``penalty`` for davis; ``correction_for_chance="exact"`` by enumeration)."""
    options = dict(options)
    correction = options.pop("correction_for_chance", "none")
    if correction == "none":
        return TWINS[name](Z, **options)
    if name in SIMILARITIES:
        return corrected_pairwise(name, Z)
    base = lambda X: TWINS[name](X, **options)
    value = base(Z)
    if value is None:
        return None
    runs, d = as_sets(Z)
    expected = expected_measure(base, [len(s) for s in runs], d)
    if expected is None or expected == 1:
        return None
    return (value - expected) / (1 - expected)


# --------------------------------------------------------------------------- generators


def random_subsets(rng, n_runs: int, n_features: int, sizes):
    """A seeded random selection: run i is a uniformly random subset of size ``sizes[i]``
    (or of the constant size ``sizes``), drawn with ``rng.choice`` (the null model H0 of
    thesis Definition 2). A bool array of shape (n_runs, n_features)."""
    Z = np.zeros((n_runs, n_features), dtype=bool)
    for i in range(n_runs):
        k = sizes[i] if np.ndim(sizes) else sizes
        Z[i, rng.choice(n_features, k, replace=False)] = True
    return Z


# ----------------------------------------------------------------------------------
# Error control: stabs's walks over the cutoff grid and over q (stabs 0.7.1,
# optimal_cutoff / optimal_q), literally. propstab bisects instead (the bound is
# monotone in both); these walks are the slow twins of that bisection.


def rconcave_cutoff_walk(p: int, q: float, PFER: float, B: int) -> float:
    """Walk the grid j/(2B) > q/p down from 1; keep the last cutoff whose bound is
    <= PFER, stop at the first one above it (1 when already 1 is above)."""
    from propstab.stability_selection._rconcave import rconcave_bound as _rconcave_bound

    grid = [j / (2 * B) for j in range(2 * B, 0, -1) if j / (2 * B) > q / p]
    chosen = grid[0]
    for cutoff in grid:
        if _rconcave_bound(q, p, cutoff, B) > PFER:
            break
        chosen = cutoff
    return chosen


def rconcave_q_walk(p: int, cutoff: float, PFER: float, B: int) -> float:
    """Walk q = 1, 2, ... up to the r-concave limit; keep the last q whose bound is
    <= PFER (at least 1)."""
    from propstab.stability_selection._rconcave import (
        rconcave_bound as _rconcave_bound,
        rconcave_max_q as _rconcave_max_q,
    )

    chosen = 1
    for q in range(1, _rconcave_max_q(p, B) + 1):
        if _rconcave_bound(q, p, cutoff, B) > PFER:
            break
        chosen = q
    return float(chosen)


# ----------------------------------------------------------------------------------
# The twins that live with their measure's tests (``@slow_twin`` in tests/test_measure_*.py).


def _discover_measure_twins() -> None:
    import importlib
    import pathlib

    for path in sorted(pathlib.Path(__file__).resolve().parent.glob("test_measure_*.py")):
        importlib.import_module(path.stem)  # tests/ is on sys.path (rootdir-relative)


_discover_measure_twins()
