"""Measures for correlated feature spaces: paper evidence, slow twins, stabm values."""
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import sparse
from scipy.optimize import linprog

import propstab
from propstab import Axiom, UndefinedMeasureWarning
from propstab.measures import (
    conger,
    intersection_count,
    intersection_greedy,
    intersection_mbm,
    intersection_mean,
    jaccard,
    kappa,
    msi,
    nogueira,
    npog,
    npogr,
    pearson,
    phi,
    pog,
    pogr,
    sechidis,
    sechidis_exact,
    yu,
    yu_matching,
    zucknick,
)
from propstab.measures import matching, simulation
from propstab.measures.correlated import MonteCarloWarning, effective_intersections

from twins import random_subsets as random_selection  # tests/ is on sys.path
from twins import null_covariance_sum, sample_covariance, twin_sechidis, twin_sechidis_exact

NEW = [
    "sechidis",
    "sechidis_exact",
    "msi",
    "yu_matching",
    "yu",
    "zucknick",
    "intersection_count",
    "intersection_greedy",
    "intersection_mbm",
    "intersection_mean",
    "pogr",
    "npogr",
    "pearson",
]


# ------------------------------------------------------------------ slow literal twins


def msi_twin(Z, S, W=None):
    """Hamer eqs 8-12 literally: one dense LP per pair (all k_i k_j links), k̄ kept."""
    Z = np.asarray(Z, bool)
    M = Z.shape[0]
    W = Z.astype(float) if W is None else np.asarray(W, float)
    kbar = Z.sum() / M
    I = W / W.sum(axis=1, keepdims=True).clip(1e-300) * kbar  # eq. 7: rows sum to k̄
    vals = []
    for i in range(M):
        for j in range(i + 1, M):
            Fi, Fj = np.flatnonzero(Z[i]), np.flatnonzero(Z[j])
            if Fi.size == 0 or Fj.size == 0:
                vals.append(float(Fi.size == Fj.size))
                continue
            c = -np.asarray(S)[np.ix_(Fi, Fj)].ravel()
            A = np.zeros((Fi.size + Fj.size, Fi.size * Fj.size))
            for a in range(Fi.size):
                for b in range(Fj.size):
                    A[a, a * Fj.size + b] = 1
                    A[Fi.size + b, a * Fj.size + b] = 1
            res = linprog(
                c,
                A_ub=A,
                b_ub=np.concatenate([I[i, Fi], I[j, Fj]]),
                bounds=(0, None),
                method="highs",
            )
            vals.append(-res.fun / kbar)
    return float(np.mean(vals))


def random_similarity(rng, d, density=0.3, binary=False):
    A = rng.random((d, d))
    A = (A + A.T) / 2
    A[A < 1 - density] = 0
    if binary:
        A[A > 0] = 1
    np.fill_diagonal(A, 1)
    return A


# ------------------------------------------------------------------ registry


def test_all_new_measures_are_registered_as_correlated():
    names = [m.name for m in propstab.list_measures("correlated")]
    assert sorted(names) == sorted(NEW)
    for name in names:
        info = propstab.get_measure(name)
        assert set(info.claims) == set(Axiom)
        assert "similarity" in info.parameter_names or "importances" in info.parameter_names
    for name, fn in [
        ("yu", "stabilityYu"),
        ("zucknick", "stabilityZucknick"),
        ("intersection_count", "stabilityIntersectionCount"),
        ("intersection_greedy", "stabilityIntersectionGreedy"),
        ("intersection_mbm", "stabilityIntersectionMBM"),
        ("intersection_mean", "stabilityIntersectionMean"),
        ("sechidis", "stabilitySechidis"),
    ]:
        ref = propstab.get_measure(name).r_reference
        assert (ref.package, ref.function) == ("stabm", fn)
        assert ref.arguments["similarity"] == "sim.mat"
        assert ref.arguments["threshold"] == "threshold"
    assert (
        propstab.get_measure("yu").r_reference.arguments["correction_for_chance"]
        == "correction.for.chance"
    )


# ------------------------------------------------------------------ Sechidis et al. 2019

Z_EQ1 = np.array([[1, 0, 1, 0, 0, 0], [0, 1, 1, 0, 0, 0], [1, 0, 0, 1, 0, 0], [0, 1, 0, 1, 0, 0]])
C_EQ1 = propstab.similarity_from_groups([[0, 1], [2, 3]], 6)


def test_sechidis_eq1_effective_stability_is_one_and_classical_far_below():
    assert sechidis(Z_EQ1, similarity=C_EQ1) == pytest.approx(1.0, abs=1e-14)
    # Nogueira: p_f = 1/2 on 4 features, s_f^2 = 1/3, k̄ = 2, d = 6: 1 - (4/3)/(4/3) = 0
    assert nogueira(Z_EQ1) == pytest.approx(0.0, abs=1e-14)
    assert sechidis(Z_EQ1) == pytest.approx(0.0, abs=1e-14)
    np.testing.assert_array_equal(
        effective_intersections(Z_EQ1, similarity=C_EQ1), np.full((4, 4), 2.0)
    )


@pytest.mark.parametrize("seed", range(5))
def test_sechidis_equals_nogueira_at_identity(seed):
    rng = np.random.default_rng(seed)
    Z = rng.random((7, 25)) < rng.uniform(0.1, 0.6)
    Z[0, 0] = True
    expected = nogueira(Z)
    assert sechidis(Z) == pytest.approx(expected, abs=1e-12)
    assert sechidis(sparse.csr_matrix(Z), similarity=sparse.identity(25)) == pytest.approx(
        expected, abs=1e-12
    )


@pytest.mark.parametrize("seed", range(4))
def test_sechidis_trace_identities_match_the_d_by_d_definition(seed):
    rng = np.random.default_rng(seed)
    Z = random_selection(rng, 6, 15, rng.integers(1, 10, size=6))
    C = random_similarity(rng, 15, density=0.5)
    assert sechidis(Z, similarity=C) == pytest.approx(float(twin_sechidis(Z, C)), rel=1e-12)
    Ct = np.where(C >= 0.8, C, 0)
    np.fill_diagonal(Ct, 1)
    assert sechidis(Z, similarity=C, threshold=0.8) == pytest.approx(
        float(twin_sechidis(Z, Ct)), rel=1e-12
    )


def test_sechidis_sparse_similarity_with_large_d_is_cheap():
    rng = np.random.default_rng(3)
    d = 200_000
    groups = [list(range(g * 5, g * 5 + 5)) for g in range(2000)]
    C = propstab.similarity_from_groups(groups, d)
    Z60 = random_selection(rng, 20, 60, 10)
    Z = sparse.csr_matrix(Z60.astype(np.int8))
    Z = sparse.hstack([Z, sparse.csr_matrix((20, d - 60))]).tocsr()
    value = sechidis(Z, similarity=C)
    # Definition 2 by hand: the never-selected columns have zero covariance, so tr(C S)
    # runs over the first 60 features; tr(C Sigma0) = d var0 + cov0 (sum of C off the
    # diagonal), k = 10 in every run (Thm 3)
    S = np.cov(Z60.astype(float), rowvar=False)
    trCS = np.sum(C[:60, :60].toarray() * S)
    kbar = 10
    var0 = kbar / d * (1 - kbar / d)
    cov0 = (kbar**2 - kbar) / (d * d - d) - kbar**2 / d**2
    tr0 = d * var0 + cov0 * (C.sum() - d)
    assert value == pytest.approx(1 - trCS / tr0, rel=1e-10)


@pytest.mark.parametrize("seed", range(4))
def test_sechidis_theorem1_effective_intersection_at_least_intersection(seed):
    rng = np.random.default_rng(seed)
    Z = random_selection(rng, 8, 20, rng.integers(0, 12, size=8))
    C = random_similarity(rng, 20, density=0.4)
    R = effective_intersections(Z, similarity=C)
    r = Z.astype(int) @ Z.T.astype(int)
    assert np.all(R >= r - 1e-12)
    off = C - np.eye(20)  # Lemma 1
    np.testing.assert_allclose(R, r + Z.astype(float) @ off @ Z.T.astype(float), atol=1e-12)


def test_sechidis_undefined_and_unbounded_cases():
    with pytest.warns(UndefinedMeasureWarning, match="tr\\(C Sigma0\\) = 0"):
        assert math.isnan(sechidis([[1, 0, 0], [0, 1, 0]], similarity=np.ones((3, 3))))
    with pytest.warns(UndefinedMeasureWarning, match="mean subset size is 0 or d"):
        sechidis([[0, 0], [0, 0]])
    # not positive semi-definite C: above 1 (why the upper bound is not claimed)
    C = [[1, 1, 0], [1, 1, 1], [0, 1, 1]]
    assert sechidis([[1, 0, 1], [0, 1, 0]], similarity=C) > 1


def test_sechidis_not_corrected_for_chance_with_varying_sizes():
    # exact null expectation by enumeration (M = 2, d = 3, sizes 1 and 2) at C = I
    values = [
        Fraction(
            sechidis([[int(f in a) for f in range(3)], [int(f in b) for f in range(3)]])
        ).limit_denominator(1000)
        for a in itertools.combinations(range(3), 1)
        for b in itertools.combinations(range(3), 2)
    ]
    assert sum(values) / len(values) == Fraction(-1, 9)


# ------------------------------------------------------------------ the exact correction


def test_null_covariance_of_varying_sizes_by_enumeration():
    """E[S | H0] = Sigma0 + var_pop(k/d)/(M - 1) 11^T (docs/varying_sizes.md): the
    sample covariance averaged over every tuple of subsets of sizes (1, 2, 3), d = 4,
    equals the identity for non-identically distributed rows (tests/twins.py), and
    differs from Sigma0 by var_pop(q)/(M - 1) in every entry."""
    d, sizes = 4, (1, 2, 3)
    total, count = None, 0
    for runs in itertools.product(*(itertools.combinations(range(d), k) for k in sizes)):
        Z = [[int(f in run) for f in range(d)] for run in runs]
        S = sample_covariance(Z)
        total = S if total is None else [[a + b for a, b in zip(r, t)] for r, t in zip(S, total)]
        count += 1
    mean = [[x / count for x in row] for row in total]
    expected, q = null_covariance_sum(Z)
    assert mean == expected
    kbar, k2bar = Fraction(sum(sizes), 3), Fraction(sum(k * k for k in sizes), 3)
    var0 = kbar / d * (1 - kbar / d)
    cov0 = (k2bar - kbar) / (d * d - d) - kbar**2 / d**2  # Theorem 3's Sigma0
    shift = sum((x - sum(q) / 3) ** 2 for x in q) / 3 / 2  # var_pop(q) / (M - 1)
    assert shift == Fraction(1, 48)  # (1/24) / 2
    assert all(
        mean[f][g] == (var0 if f == g else cov0) + shift for f in range(d) for g in range(d)
    )


@pytest.mark.parametrize("seed", range(4))
def test_sechidis_exact_matches_its_twin(seed):
    rng = np.random.default_rng(seed)
    Z = random_selection(rng, 6, 12, rng.integers(1, 11, size=6))
    C = random_similarity(rng, 12, density=0.5)
    assert sechidis_exact(Z, similarity=C) == pytest.approx(
        float(twin_sechidis_exact(Z, C)), rel=1e-12
    )
    Ct = np.where(C >= 0.7, C, 0)
    np.fill_diagonal(Ct, 1)
    assert sechidis_exact(Z, similarity=C, threshold=0.7) == pytest.approx(
        float(twin_sechidis_exact(Z, Ct)), rel=1e-12
    )
    assert sechidis_exact(Z, similarity=sparse.csr_matrix(C)) == pytest.approx(
        sechidis_exact(Z, similarity=C), rel=1e-12
    )


@pytest.mark.parametrize("seed", range(5))
def test_sechidis_exact_is_conger_at_identity_and_sechidis_at_constant_size(seed):
    rng = np.random.default_rng(seed)
    Z = rng.random((7, 25)) < rng.uniform(0.1, 0.6, size=(7, 1))
    Z[0, 0] = True
    assert sechidis_exact(Z) == pytest.approx(conger(Z), abs=1e-12)
    assert sechidis_exact(sparse.csr_matrix(Z), similarity=sparse.identity(25)) == pytest.approx(
        conger(Z), abs=1e-12
    )
    Zc = random_selection(rng, 5, 12, 4)
    C = random_similarity(rng, 12, density=0.4)
    assert sechidis_exact(Zc, similarity=C) == pytest.approx(sechidis(Zc, similarity=C), rel=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_sechidis_exact_is_corrected_for_chance_exactly(seed):
    """Every tuple of subsets of sizes (1, 3, 2), d = 5, with a random C: the mean of the
    twin is exactly 0, and of the fast path 0 to 1e-13, where sechidis's is not."""
    rng = np.random.default_rng(seed)
    d, sizes = 5, (1, 3, 2)
    C = random_similarity(rng, d, density=0.6)
    exact, fast, plain = Fraction(0), [], []
    count = 0
    for runs in itertools.product(*(itertools.combinations(range(d), k) for k in sizes)):
        Z = np.array([[int(f in run) for f in range(d)] for run in runs])
        exact += twin_sechidis_exact(Z, C)
        fast.append(sechidis_exact(Z, similarity=C))
        plain.append(sechidis(Z, similarity=C))
        count += 1
    assert exact == 0
    assert abs(math.fsum(fast) / count) < 1e-13
    assert math.fsum(plain) / count < -0.05


def test_sechidis_exact_undefined_cases():
    with pytest.warns(UndefinedMeasureWarning, match=r"the null expectation of tr\(C S\) is 0"):
        assert math.isnan(sechidis_exact([[1, 0, 0], [0, 1, 0]], similarity=np.ones((3, 3))))
    with pytest.warns(UndefinedMeasureWarning, match="mean subset size is 0 or d"):
        sechidis_exact([[0, 0], [0, 0]])
    # C = all ones with varying sizes: tr(C S) is the sample variance of the sizes, equal
    # to its expectation, so the value is 0
    assert sechidis_exact([[1, 0, 0], [1, 1, 0]], similarity=np.ones((3, 3))) == pytest.approx(
        0, abs=1e-12
    )


# ------------------------------------------------------------------ Hamer and Dupont 2021


def fig3():
    """Hamer Fig. 3 with features 1..7 at indices 0..6."""
    S = np.eye(7)
    for a, b, v in [(1, 5, 0.6), (1, 6, 0.8), (3, 6, 0.4)]:
        S[a - 1, b - 1] = S[b - 1, a - 1] = v
    W = np.zeros((2, 7))
    W[0, [0, 1, 2, 3]] = [1.3, 0.7, 1.0, 1.0]
    W[1, [4, 1, 5, 6]] = [0.7, 1.0, 1.4, 0.9]
    return S, W


def test_hamer_fig3_value_and_optimal_links():
    S, W = fig3()
    value = msi(W > 0, similarity=S, importances=W)
    assert value == pytest.approx(0.48, abs=1e-9)
    assert msi(W > 0, similarity=S, importances=W, solver="lp") == pytest.approx(0.48, abs=1e-9)
    # the links printed in Fig. 3 are feasible and reach the optimum (k̄ = 4)
    links = {(1, 5): 0.7, (1, 6): 0.6, (2, 2): 0.7, (3, 6): 0.8}
    rows, cols = {}, {}
    for (f, g), x in links.items():
        rows[f] = rows.get(f, 0) + x
        cols[g] = cols.get(g, 0) + x
    assert all(rows[f] <= W[0, f - 1] + 1e-12 for f in rows)
    assert all(cols[g] <= W[1, g - 1] + 1e-12 for g in cols)
    objective = sum(S[f - 1, g - 1] * x for (f, g), x in links.items()) / 4
    assert objective == pytest.approx(0.48, abs=1e-12)  # 0.42 + 0.48 + 0.7 + 0.32
    assert msi_twin(W > 0, S, W) == pytest.approx(0.48, abs=1e-9)


def scenario(q, which, d, uneven=None):
    """Hamer Figs 1 and 2: group G = 0..q-1 (perfectly correlated), green feature q,
    run 1 also q+1, q+2; run 2 also q+3, q+4. Importances relative (each part 1)."""
    W = np.zeros((2, d))
    share = np.full(q, 1.0 / q) if uneven is None else uneven
    if which == 1:
        W[0, :q] = share
    else:
        W[0, 0] = 1.0  # one feature carries the group
    W[1, :q] = share
    W[0, [q, q + 1, q + 2]] = 1
    W[1, [q, q + 3, q + 4]] = 1
    groups = [list(range(q))]
    return W, groups


TABLE1 = {  # Hamer Table 1 (closed forms, d -> infinity)
    1: {
        "sechidis": lambda q: (q + 1) / (q + 3),
        "nogueira": lambda q: (q + 1) / (q + 3),
        "pearson": lambda q: (q + 1) / (3 * q + 1),
        "pogr": lambda q: (q + 1) / (q + 3),
    },
    2: {
        "sechidis": lambda q: 1 - (q * q - 2 * q + 5) / (q + 7),
        "nogueira": lambda q: 1 - (q + 3) / (q + 7),
        "pearson": lambda q: (1 / (4 * q) + 1 / 4) / math.sqrt(1 / (4 * q) + 3 / 4),
        "pogr": lambda q: 0.5 * (0.5 + (q + 1) / (q + 3)),
    },
}


@pytest.mark.parametrize("which", [1, 2])
def test_hamer_table1_closed_forms_and_msi_constant(which):
    d = 200_000  # "d tends to infinity"
    rng = np.random.default_rng(which)
    for q in range(1, 21):
        W, groups = scenario(q, which, d)
        Wz = sparse.csr_matrix(W)
        Z = (Wz > 0).astype(np.int8)
        C = propstab.similarity_from_groups(groups, d)
        forms = TABLE1[which]
        kbar = Z.sum() / 2
        # phi: exact at finite d, (1 - phi_d)(1 - k̄/d) = 1 - phi_inf
        assert (1 - nogueira(Z)) * (1 - kbar / d) == pytest.approx(
            1 - forms["nogueira"](q), rel=1e-12
        )
        # phi_S: Hamer takes tr(C Sigma0) = k̄ (d -> inf); at finite d, Thm 3 gives
        # tr(C Sigma0) = d var0 + cov0 q (q - 1), so (1 - phi_S) tr(C Sigma0) / k̄ is exact
        k = np.asarray(Z.sum(axis=1)).ravel().astype(float)
        var0 = kbar / d * (1 - kbar / d)
        cov0 = ((k**2).mean() - kbar) / (d * d - d) - kbar**2 / d**2
        tr0 = d * var0 + cov0 * q * (q - 1)
        assert (1 - sechidis(Z, similarity=C)) * tr0 / kbar == pytest.approx(
            1 - forms["sechidis"](q), rel=1e-10
        )
        assert pearson(Z, importances=Wz) == pytest.approx(forms["pearson"](q), rel=5e-4)
        assert pogr(Z, similarity=C) == pytest.approx(forms["pogr"](q), rel=1e-14)
        # phi_msi = 1/2 for every q, also with the group's importance split unevenly
        assert msi(Z, similarity=C, importances=Wz) == pytest.approx(0.5, abs=1e-9)
        uneven = rng.dirichlet(np.ones(q))
        Wu, _ = scenario(q, which, d, uneven)
        assert msi(Z, similarity=C, importances=sparse.csr_matrix(Wu)) == pytest.approx(
            0.5, abs=1e-9
        )


def test_hamer_table1_limits():
    f1, f2 = TABLE1[1], TABLE1[2]
    assert [f1[m](1) for m in f1] == [0.5] * 4
    assert [round(f2[m](1), 12) for m in f2] == [0.5] * 4
    assert f2["pearson"](10**9) == pytest.approx(math.sqrt(3) / 6, abs=1e-6)
    assert f2["pogr"](10**9) == pytest.approx(0.75, abs=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_msi_matches_the_literal_lp_twin_on_every_solver_path(seed):
    rng = np.random.default_rng(seed)
    d, M = 14, 5
    const = random_selection(rng, M, d, 4)
    vary = random_selection(rng, M, d, rng.integers(1, 8, size=M))
    S = random_similarity(rng, d, density=0.35)
    B = random_similarity(rng, d, density=0.35, binary=True)
    W = np.where(vary, rng.uniform(0.1, 2.0, size=vary.shape), 0)
    cases = [
        (const, S, None),
        (vary, S, None),
        (const, B, None),
        (vary, B, None),
        (vary, S, W),
        (vary, B, W),
    ]
    for Z, C, Wi in cases:
        expected = msi_twin(Z, C, Wi)
        assert msi(Z, similarity=C, importances=Wi) == pytest.approx(expected, abs=1e-9)
        assert msi(Z, similarity=C, importances=Wi, solver="lp") == pytest.approx(
            expected, abs=1e-9
        )


def test_msi_property_5_1_bounds_and_empty_run_convention():
    rng = np.random.default_rng(7)
    for _ in range(20):
        Z = random_selection(rng, 6, 12, rng.integers(0, 12, size=6))
        value = msi(Z, similarity=random_similarity(rng, 12, 0.5))
        assert 0 <= value <= 1 + 1e-12
    assert msi([[0, 0, 0], [0, 0, 0]]) == 1.0  # both empty: S = 1
    assert msi([[1, 0, 0], [0, 0, 0]]) == 0.0  # exactly one empty: S = 0
    assert msi([[1, 0, 0], [0, 0, 0], [0, 0, 0]]) == pytest.approx(1 / 3)


def test_msi_property_5_3_maximal_iff_fully_shared_with_perfect_links():
    # swaps inside perfectly similar groups with importances matched group by group: 1
    C = propstab.similarity_from_groups([[0, 1, 2], [3, 4]], 6)
    Z = [[1, 0, 0, 1, 0, 0], [0, 1, 1, 0, 1, 0], [1, 1, 0, 0, 1, 0]]
    W = [[2, 0, 0, 1, 0, 0], [0, 1.2, 0.8, 0, 1, 0], [1.5, 0.5, 0, 0, 1, 0]]
    assert msi(Z, similarity=C, importances=W) == pytest.approx(1.0, abs=1e-12)
    # the group totals differ between runs: a constraint (9) cannot be active
    W2 = [[3, 0, 0, 1, 0, 0], [0, 1.2, 0.8, 0, 1, 0], [1.5, 0.5, 0, 0, 1, 0]]
    assert msi(Z, similarity=C, importances=W2) < 1 - 1e-6
    # a link of similarity < 1 is needed: not maximal
    C3 = np.eye(6)
    C3[0, 1] = C3[1, 0] = 0.99
    assert msi([[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], similarity=C3) == pytest.approx(0.99)


@pytest.mark.parametrize("seed", range(4))
def test_theorem_5_1_yu_matching_equals_msi(seed):
    rng = np.random.default_rng(seed)
    Z = random_selection(rng, 6, 16, 5)
    S = random_similarity(rng, 16, density=0.4)
    assert yu_matching(Z, similarity=S) == pytest.approx(
        msi(Z, similarity=S, solver="lp"), abs=1e-9
    )
    with pytest.warns(UndefinedMeasureWarning, match="constant subset size"):
        yu_matching([[1, 1, 0], [1, 0, 0]])


def test_importance_measures_at_binary_weights_reduce_to_classical():
    rng = np.random.default_rng(11)
    Z = random_selection(rng, 6, 12, rng.integers(1, 11, size=6))
    assert pearson(Z) == pytest.approx(phi(Z), abs=1e-12)
    assert pogr(Z) == pytest.approx(pog(Z), abs=1e-12)
    assert npogr(Z) == pytest.approx(npog(Z), abs=1e-12)
    assert zucknick(Z) == pytest.approx(jaccard(Z), abs=1e-12)
    assert yu(Z) == pytest.approx(kappa(Z), abs=1e-12)
    assert msi(Z) == pytest.approx(
        np.mean(
            [
                (Z[i] & Z[j]).sum() / max(Z[i].sum(), Z[j].sum())
                for i in range(6)
                for j in range(i + 1, 6)
            ]
        ),
        abs=1e-12,
    )


def test_pearson_matches_numpy_corrcoef_on_importances():
    rng = np.random.default_rng(5)
    Z = random_selection(rng, 5, 9, 4)
    W = np.where(Z, rng.uniform(0.1, 3, Z.shape), 0.0)
    c = np.corrcoef(W)
    assert pearson(Z, importances=W) == pytest.approx(c[np.triu_indices(5, 1)].mean(), abs=1e-12)


# ------------------------------------------------------------------ stabm values

# R 4.2, stabm 1.2.2:
#   p = 8; mat = 0.92 ^ abs(outer(1:p, 1:p, "-"))
#   feats = list(c(1,2,3), c(2,4,5,6), c(1,3,7), c(4,5), c(2,3,8))
#   stabilityYu(feats, mat, threshold = 0.8, correction.for.chance = m)  # and the others
#   stabilitySechidis(feats, mat, threshold = 0.8); stabilitySechidis(feats, mat, threshold = 0)
R_FEATS = [[0, 1, 2], [1, 3, 4, 5], [0, 2, 6], [3, 4], [1, 2, 7]]
R_MAT = 0.92 ** np.abs(np.subtract.outer(np.arange(8), np.arange(8)))
R_NONE = {
    yu: 2.45,
    zucknick: 0.5264016,
    intersection_count: 2.3,
    intersection_mean: 2.134027,
    intersection_greedy: 2.1,
    intersection_mbm: 2.3,
}
R_EXACT = {
    yu: 0.0349548,
    zucknick: -0.04868385,
    intersection_count: 0.0447219,
    intersection_mean: 0.003441244,
    intersection_greedy: -0.148512,
    intersection_mbm: 0.05612084,
}


@pytest.mark.parametrize("fn", list(R_NONE), ids=lambda f: f.__name__)
def test_stabm_raw_scores(fn):
    value = fn(
        R_FEATS, n_features=8, similarity=R_MAT, threshold=0.8, correction_for_chance="none"
    )
    assert value == pytest.approx(R_NONE[fn], abs=5e-7)


@pytest.mark.parametrize("fn", list(R_EXACT), ids=lambda f: f.__name__)
def test_exact_correction_equals_stabm_enumeration(fn):
    value = fn(
        R_FEATS, n_features=8, similarity=R_MAT, threshold=0.8, correction_for_chance="exact"
    )
    assert value == pytest.approx(R_EXACT[fn], abs=5e-7)


@pytest.mark.parametrize("fn", list(R_EXACT), ids=lambda f: f.__name__)
def test_simulated_correction_within_monte_carlo_error_of_stabm_exact(fn):
    value = fn(
        R_FEATS,
        n_features=8,
        similarity=R_MAT,
        threshold=0.8,
        correction_for_chance="estimate",
        n_simulations=40_000,
        random_state=1,
    )
    assert value == pytest.approx(R_EXACT[fn], abs=0.004)  # > 4 standard errors


def test_sechidis_equals_stabm():
    assert sechidis(R_FEATS, n_features=8, similarity=R_MAT, threshold=0.8) == pytest.approx(
        -0.5281805, abs=5e-7
    )
    assert sechidis(R_FEATS, n_features=8, similarity=R_MAT) == pytest.approx(-0.1951978, abs=5e-7)


def test_simulation_is_seeded_and_warns_when_too_short():
    kw = dict(n_features=8, similarity=R_MAT, threshold=0.8)
    with pytest.warns(MonteCarloWarning):
        a = intersection_mbm(R_FEATS, n_simulations=500, random_state=3, **kw)
    with pytest.warns(MonteCarloWarning):
        b = intersection_mbm(R_FEATS, n_simulations=500, random_state=3, **kw)
    assert a == b
    with pytest.warns(MonteCarloWarning, match="Monte Carlo standard error"):
        intersection_count(R_FEATS, n_simulations=20, **kw)
    with pytest.raises(ValueError, match="random_state"):
        intersection_count(R_FEATS, random_state=-1, **kw)


def enumerate_null(fn, sizes, d, **kw):
    """Exact mean of fn over all pairs of subsets of the given sizes (H0, M = 2)."""
    vals = [
        fn([list(a), list(b)], n_features=d, **kw)
        for a in itertools.combinations(range(d), sizes[0])
        for b in itertools.combinations(range(d), sizes[1])
    ]
    return float(np.mean(vals))


@pytest.mark.parametrize("fn", [yu, npogr], ids=lambda f: f.__name__)
def test_exact_corrections_have_null_expectation_zero(fn):
    S = random_similarity(np.random.default_rng(2), 6, density=0.5)
    kw = dict(similarity=S, threshold=0.5)
    assert enumerate_null(fn, (2, 3), 6, **kw) == pytest.approx(0.0, abs=1e-12)
    assert enumerate_null(fn, (1, 4), 6, **kw) == pytest.approx(0.0, abs=1e-12)


ADJUSTED = {
    intersection_count: matching.score_count,
    intersection_mean: matching.score_mean,
    intersection_greedy: matching.score_greedy,
    intersection_mbm: matching.score_mbm,
}


def brute_expected(score, a, b, d, g):
    """E[I | H0] by scoring every pair of subsets of sizes a and b (stabm's 'exact')."""
    pairs = list(
        itertools.product(itertools.combinations(range(d), a), itertools.combinations(range(d), b))
    )
    Z1, Z2 = np.zeros((len(pairs), d)), np.zeros((len(pairs), d))
    for p, (x, y) in enumerate(pairs):
        Z1[p, list(x)] = 1
        Z2[p, list(y)] = 1
    return float(np.mean(score(Z1, Z2, g)))


@pytest.mark.parametrize("seed", range(6))
def test_exact_adjusted_expectation_equals_enumeration_of_all_pairs(seed):
    """The component decomposition (propstab.measures.exact_null) against scoring all
    C(d, a) C(d, b) pairs of subsets, tied similarities included, sizes 0 to d."""
    from propstab.measures.exact_null import expected_adjusted

    rng = np.random.default_rng(seed)
    d = int(rng.integers(4, 8))
    C = np.triu(rng.choice([0, 0, 0, 0.5, 0.9, 0.95, 1.0], size=(d, d)), 1)
    C = C + C.T
    np.fill_diagonal(C, 1)
    g = matching.Graph.build(propstab.as_selection([[0], [1]], n_features=d), C, 0.5)
    sizes = np.array([[0, 2], [1, 1], [2, 3], [3, 2], [d, 1], [d - 1, d - 2]])
    for score in ADJUSTED.values():
        got = expected_adjusted(score, sizes, d, g)
        want = [brute_expected(score, a, b, d, g) for a, b in sizes.tolist()]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=score.__name__)


#: d of the enumeration under H0 below: every pair of subsets of sizes (2, 3) and (4, 1)
NULL_D = 5


@pytest.mark.parametrize("fn", list(ADJUSTED), ids=lambda f: f.__name__)
def test_exact_adjusted_corrections_have_null_expectation_zero(fn):
    # d = 5: 125 pairs of subsets, one measure call each (d = 6 took 390). The raw means
    # are 0.9 to 1.9 and differ between the four scores, and an exact expectation off by
    # 1e-9 gives means of -1e-9 to -2e-9: each mutant fails abs=1e-12.
    S = random_similarity(np.random.default_rng(3), NULL_D, density=0.6)
    kw = dict(similarity=S, threshold=0.5, correction_for_chance="exact")
    assert enumerate_null(fn, (2, 3), NULL_D, **kw) == pytest.approx(0.0, abs=1e-12)
    assert enumerate_null(fn, (4, 1), NULL_D, **kw) == pytest.approx(0.0, abs=1e-12)


def test_exact_adjusted_agrees_with_simulation_where_components_are_small():
    """d = 400 with 60 similar pairs and 10 triangles: C(400, 20)^2 pairs of subsets for
    stabm's enumeration, a few thousand pairs of differences here (the component rule);
    the value agrees with the simulated correction within its Monte Carlo error.

    10,000 simulations: over seeds 0-7 the estimate's sd about the exact value is 2.0e-4
    (7e-5 at 20,000), so abs=0.003 is still 15 sd and an exact value off by more than
    0.0035 fails either way. 10,000 costs half the CPU of 20,000 (and of 5,000, whose
    smaller batches of pairs cost more system time)."""
    rng = np.random.default_rng(0)
    d = 400
    C = np.eye(d)
    for f in range(0, 120, 2):
        C[f, f + 1] = C[f + 1, f] = 0.95
    for f in range(120, 150, 3):
        C[f, f + 1] = C[f + 1, f] = C[f + 1, f + 2] = C[f + 2, f + 1] = 0.92
    Z = np.zeros((6, d), dtype=int)
    for i in range(6):
        Z[i, rng.choice(200, int(rng.integers(12, 22)), replace=False)] = 1
    for fn in ADJUSTED:
        exact = fn(Z, similarity=C, correction_for_chance="exact")
        estimate = fn(Z, similarity=C, correction_for_chance="estimate", n_simulations=10_000)
        assert exact == pytest.approx(estimate, abs=0.003), fn.__name__


def test_exact_adjusted_refuses_a_component_too_large_naming_the_sizes():
    Z = np.zeros((2, 40), dtype=int)
    Z[0, :15] = Z[1, 10:26] = 1
    with pytest.raises(
        ValueError,
        match="components.*largest of 40 features.*subset "
        "sizes up to 15 and 16 of d = 40.*'estimate'",
    ):
        intersection_mbm(Z, similarity=np.ones((40, 40)), correction_for_chance="exact")


def test_zucknick_exact_expectation_by_enumeration():
    S = random_similarity(np.random.default_rng(4), 6, density=0.5)
    raw = enumerate_null(
        zucknick, (2, 3), 6, similarity=S, threshold=0.3, correction_for_chance="none"
    )
    g = matching.Graph.build(propstab.as_selection([[0], [1]], n_features=6), S, 0.3)
    assert simulation.expected_zucknick(2, 3, 6, g) == pytest.approx(raw, abs=1e-12)


def test_greedy_and_mbm_differ_where_greedy_is_suboptimal():
    S = np.eye(4)
    for a, b, v in [(0, 2, 0.95), (0, 3, 0.92), (1, 2, 0.91)]:
        S[a, b] = S[b, a] = v
    Z = [[1, 1, 0, 0], [0, 0, 1, 1]]
    kw = dict(similarity=S, correction_for_chance="none")
    assert intersection_greedy(Z, **kw) == 1.0
    assert intersection_mbm(Z, **kw) == 2.0
    assert intersection_count(Z, **kw) == 2.0


def test_undefined_pairs_warn():
    with pytest.warns(UndefinedMeasureWarning, match="both empty"):
        yu([[0, 0, 0], [0, 0, 0]], correction_for_chance="none")
    with pytest.warns(UndefinedMeasureWarning, match="both empty"):
        zucknick([[0, 0, 0], [0, 0, 0]])
    with pytest.warns(UndefinedMeasureWarning, match="null expectation equals its maximum"):
        yu([[1, 0, 0], [0, 1, 0]], similarity=np.ones((3, 3)))
    with pytest.warns(UndefinedMeasureWarning, match="a run is empty"):
        pogr([[1, 0, 0], [0, 0, 0]])


def test_options_are_keyword_and_checked():
    with pytest.raises(TypeError, match="unexpected option"):
        propstab.stability(Z_EQ1, measure="msi", threshold=0.5)
    with pytest.raises(ValueError, match="correction_for_chance: must be one of"):
        intersection_mbm(Z_EQ1, correction_for_chance="simulate")
    assert propstab.stability(Z_EQ1, measure="sechidis", similarity=C_EQ1) == pytest.approx(1.0)
    assert propstab.stability(Z_EQ1, measure="phi_pears") == pytest.approx(phi(Z_EQ1))


def test_greedy_ties_and_mbm_equal_stabm():
    # R: mat = diag(6); mat[1,3] = mat[3,1] = mat[1,4] = mat[4,1] = mat[2,3] = mat[3,2] = 0.95
    #    feats = list(c(1,2), c(3,4), c(1,5), c(3,6))
    #    stabilityIntersectionGreedy(feats, mat, correction.for.chance = "none")  # 1
    #    stabilityIntersectionMBM(feats, mat, correction.for.chance = "none")     # 1.166667
    S = np.eye(6)
    for a, b in [(0, 2), (0, 3), (1, 2)]:
        S[a, b] = S[b, a] = 0.95
    feats = [[0, 1], [2, 3], [0, 4], [2, 5]]
    kw = dict(n_features=6, similarity=S, correction_for_chance="none")
    assert intersection_greedy(feats, **kw) == pytest.approx(1.0, abs=1e-12)
    assert intersection_mbm(feats, **kw) == pytest.approx(7 / 6, abs=1e-12)
