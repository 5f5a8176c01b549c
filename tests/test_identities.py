"""Identities the thesis proves (Nogueira 2018), checked exactly or to rel 1e-12.

- Thm 2 (App. A.2): mean pairwise intersection = kbar - sum_f s_f^2.
- Thm 4 / Lemma 1 (App. A.4): constant k => Kuncheva = Wald = nPOG = Phi-hat.
  Checked here, and true as well: stabm's kappa, phi and unadjusted reduce to
  Kuncheva's index for constant k (their denominators all become k - k^2/d).
  Not true: Lustgarten's measure, which divides by the range of r instead.
- Thm 1 (App. A.1): constant k => CW_rel ~ Kuncheva as M grows, the difference
  being the exact remainder of eq. A.2.
- Thm 5 (App. A.5): Phi-hat = Fleiss' kappa of the d x 2 table of counts.
"""
from fractions import Fraction

import numpy as np
import pytest

import propstab

import twins  # tests/ is on sys.path (rootdir-relative import mode)

REL = 1e-12


def constant_k_matrices(seed, n, *, max_runs=9, max_features=9):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        M, d = int(rng.integers(2, max_runs + 1)), int(rng.integers(2, max_features + 1))
        k = int(rng.integers(1, d))
        Z = np.zeros((M, d), dtype=int)
        for i in range(M):
            Z[i, rng.choice(d, size=k, replace=False)] = 1
        out.append(Z)
    return out


def varying_matrices(seed, n):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        M, d = int(rng.integers(2, 9)), int(rng.integers(2, 9))
        Z = (rng.random((M, d)) < rng.uniform(0.1, 0.9)).astype(int)
        if 0 < Z.sum() < M * d:
            out.append(Z)
    return out


def test_theorem2_mean_intersection_is_kbar_minus_total_variance():
    for Z in varying_matrices(1, 150):
        runs, d = twins.as_sets(Z.tolist())
        M = len(runs)
        mean_r = Fraction(
            sum(len(runs[i] & runs[j]) for i in range(M) for j in range(M) if i != j), M * (M - 1)
        )
        kbar = Fraction(sum(map(len, runs)), M)
        assert mean_r == kbar - twins.total_variance(Z.tolist())
        # and the library's intersection matrix agrees with the set intersections
        r = propstab.as_selection(Z).intersections
        assert all(r[i, j] == len(runs[i] & runs[j]) for i in range(M) for j in range(M))


EQUAL_FOR_CONSTANT_K = ["kuncheva", "wald", "npog", "nogueira", "kappa", "phi", "unadjusted"]


def test_theorem4_constant_k_equalities():
    for Z in constant_k_matrices(2, 150):
        exact = twins.twin("kuncheva", Z.tolist())
        assert exact == twins.twin_nogueira(Z.tolist())  # exact, Fractions
        assert exact == twins.twin("wald", Z.tolist()) == twins.twin("npog", Z.tolist())
        assert exact == twins.twin("kappa", Z.tolist())
        for name in EQUAL_FOR_CONSTANT_K:
            assert propstab.stability(Z, name) == pytest.approx(
                float(exact), rel=REL, abs=1e-14
            ), (name, Z.tolist())


def test_lustgarten_is_not_kuncheva_for_constant_k():
    """Lustgarten = Kuncheva * (k - k^2/d) / (k - max(0, 2k - d)): equal only where
    Kuncheva's value is 0; so Lemma 1's equivalence does not extend to it."""
    differs = 0
    for Z in constant_k_matrices(3, 100):
        M, d = Z.shape
        k = int(Z[0].sum())
        kun = twins.twin("kuncheva", Z.tolist())
        lus = twins.twin("lustgarten", Z.tolist())
        assert lus == kun * Fraction(k * d - k * k, d * (k - max(0, 2 * k - d)))
        differs += lus != kun
    assert differs > 50


def a2(Z):
    """CW_rel by the thesis's eq. A.2 (exact): numerator and denominator in s_f^2,
    kbar, D = (M kbar) mod d and H = (M kbar) mod M."""
    M, d = Z.shape
    N = int(Z.sum())
    kbar = Fraction(N, M)
    D, H = N % d, N % M
    q = kbar / d * (1 - kbar / d)
    t = Fraction(D, M * M * d) * (1 - Fraction(D, d))
    num = -Fraction(1, d) * Fraction(M - 1, M) * twins.total_variance(Z.tolist()) + q - t
    den = q - t + Fraction(H * H, d * M * M) - Fraction(H, M * d)
    return num / den


def test_equation_a2_is_cwrel():
    """Eq. A.2 equals Somol and Novovicova's eq. 6 (the twin), any sizes, where
    CW_max != CW_min."""
    checked = 0
    for Z in varying_matrices(4, 150) + constant_k_matrices(5, 50):
        runs, d = twins.as_sets(Z.tolist())
        N, n = int(Z.sum()), Z.shape[0]
        if twins.twin_cw_max(N, n) != twins.twin_cw_min(N, n, d):
            assert a2(Z) == twins.twin_cwrel(Z.tolist())
            checked += 1
    assert checked > 150


def test_theorem1_cwrel_tends_to_kuncheva():
    """Tile a constant-k pattern r times (M = r M0, same p_f). With V = sum p_f(1-p_f)
    and c = k(1 - k/d), A.2 gives CW_rel - Kuncheva = V (M / ((M-1) c) - 1/(c - t_M)),
    t_M = D/M^2 (1 - D/d): O(1/M). Checked exactly against the measures."""
    rng = np.random.default_rng(8)
    for base in constant_k_matrices(9, 12, max_runs=5, max_features=8):
        M0, d = base.shape
        k = int(base[0].sum())
        p = [Fraction(int(c), M0) for c in base.sum(axis=0)]
        V = sum(x * (1 - x) for x in p)
        if V == 0:
            continue
        c = k * (1 - Fraction(k, d))
        diffs = []
        for r in (1, 2, 4, 8, 16, 32, 64):
            Z = np.tile(base, (r, 1))[rng.permutation(r * M0)]
            M = r * M0
            D = (M * k) % d
            t = Fraction(D, M * M) * (1 - Fraction(D, d))
            remainder = V * (Fraction(M, (M - 1)) / c - 1 / (c - t))
            diff = propstab.stability(Z, "cwrel") - propstab.stability(Z, "kuncheva")
            assert diff == pytest.approx(float(remainder), rel=1e-9, abs=1e-13)
            assert a2(Z) - (1 - Fraction(M, M - 1) * V / c) == remainder
            # = V/(c(M-1)) - V t/(c(c-t)) with 0 <= t <= d/(4 M^2): O(1/M)
            assert remainder == V / (c * (M - 1)) - V * t / (c * (c - t))
            assert abs(remainder) <= V / (c * (M - 1)) + Fraction(d, 4 * M * M) * V / (c * (c - t))
            diffs.append(abs(float(remainder)))
        assert diffs[-1] < diffs[0] / 16 + 1e-15
        assert diffs[-1] < 0.05


def test_theorem5_nogueira_is_fleiss_kappa():
    from statsmodels.stats.inter_rater import fleiss_kappa

    for Z in varying_matrices(10, 150) + constant_k_matrices(11, 50):
        M = Z.shape[0]
        F = Z.sum(axis=0)
        table = np.column_stack([M - F, F])  # subjects = features, raters = runs
        assert propstab.stability(Z, "nogueira") == pytest.approx(
            fleiss_kappa(table, method="fleiss"), rel=REL, abs=1e-14
        )
