"""Every worked example of the seed papers, with its source.

S&N = Somol and Novovicova (2010), seeds/002_f5fb4093d4ebc1f7.txt.
Thesis = Nogueira (2018), seeds/001_20ecffffd8fd8ba6.txt.

Printed values are rounded: a printed value p with r decimals is "reproduced"
when |exact - p| <= 0.5 * 10**-r. Exact values are computed with Fractions by
the slow twins (tests/twins.py) and the fast measures must agree with them.
Where a printed value is NOT reproduced, the test pins the exact value and
asserts that the printed one is not reached, listing the readings tried; the
discrepancies are written up in docs/paper_values.md.
"""
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import propstab
from propstab import chance, get_measure
from propstab.measures import cw_max, cw_min

import twins  # tests/ is on sys.path (rootdir-relative import mode)


def printed(exact, value, decimals):
    """True when ``value`` printed with ``decimals`` decimals is a rounding of ``exact``."""
    return abs(Fraction(exact) - Fraction(str(value))) <= Fraction(1, 2 * 10**decimals)


def matrix(system, d, base=1):
    """A system of feature subsets (features numbered from ``base``) as a 0/1 matrix."""
    Z = np.zeros((len(system), d), dtype=int)
    for i, s in enumerate(system):
        Z[i, [f - base for f in s]] = 1
    return Z


def value(name, Z, **options):
    return propstab.stability(np.asarray(Z), name, **options)


# ----------------------------------------------------------------- Somol and Novovicova

# S&N Fig. 2(a): the minimal system, N = 23, n = 7, |Y| = 6 (the first seven subsets
# listed; the extracted text repeats a row under the "a)" label).
FIG2_MIN = [{1, 2, 3, 4}, {5, 6, 1, 2}, {3, 4, 5}, {6, 1, 2}, {3, 4, 5}, {6, 1, 2}, {3, 4, 5}]
# S&N Fig. 2(b): the maximal system, N = 23, n = 7, |X| = 4.
FIG2_MAX = [{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}]


def test_somol_fig2_cw_min_and_cw_max():
    for system in (FIG2_MIN, FIG2_MAX):
        assert sum(map(len, system)) == 23 and len(system) == 7
    # eq. 11 and eq. 14 give the printed 11/23 and 64/69
    assert twins.twin_cw_min(23, 7, 6) == Fraction(11, 23)
    assert twins.twin_cw_max(23, 7) == Fraction(64, 69)
    assert cw_min(23, 7, 6) == 11 / 23
    assert cw_max(23, 7) == 64 / 69
    # and the two systems of the figure attain them (eq. 5)
    Zmin, Zmax = matrix(FIG2_MIN, 6), matrix(FIG2_MAX, 6)
    assert twins.twin_weighted_consistency(Zmin.tolist()) == Fraction(11, 23)
    assert twins.twin_weighted_consistency(Zmax.tolist()) == Fraction(64, 69)
    assert value("weighted_consistency", Zmin) == pytest.approx(11 / 23, rel=1e-15)
    assert value("weighted_consistency", Zmax) == pytest.approx(64 / 69, rel=1e-15)
    # so CW_rel is 0 and 1 on them (eq. 6)
    assert value("cwrel", Zmin) == 0.0
    assert value("cwrel", Zmax) == 1.0


@pytest.mark.parametrize("n_runs,n_features", [(3, 4), (4, 3), (2, 5)])
def test_somol_lemmas_4_and_6_by_brute_force(n_runs, n_features):
    """Eqs. 11 and 14 are the minimum and maximum of CW over EVERY system of n
    non-empty subsets of Y with the same N (S&N Lemmas 3-6)."""
    nonempty = [
        frozenset(c)
        for r in range(1, n_features + 1)
        for c in itertools.combinations(range(n_features), r)
    ]
    extremes = {}
    for system in itertools.product(nonempty, repeat=n_runs):
        N = sum(map(len, system))
        cw = twins.twin_cw(list(system), n_features)
        lo, hi = extremes.get(N, (cw, cw))
        extremes[N] = (min(lo, cw), max(hi, cw))
    assert len(extremes) == n_runs * (n_features - 1) + 1
    for N, (lo, hi) in extremes.items():
        assert lo == twins.twin_cw_min(N, n_runs, n_features), N
        assert hi == twins.twin_cw_max(N, n_runs), N
        assert cw_min(N, n_runs, n_features) == pytest.approx(float(lo), rel=1e-15)
        assert cw_max(N, n_runs) == pytest.approx(float(hi), rel=1e-15)


# S&N Fig. 3: fifteen subsets, thirteen {1}, one {1, 2}, one {3} (in the printed order).
FIG3 = [{1}] * 5 + [{1, 2}] + [{1}] * 6 + [{3}] + [{1}] * 2


def test_somol_fig3_c_cw_gk_reproduced():
    assert len(FIG3) == 15 and FIG3.count({1}) == 13
    Z = matrix(FIG3, 3)
    exact = {
        "consistency": Fraction(13, 42),
        "weighted_consistency": Fraction(13, 16),
        "gk": Fraction(169, 210),
    }
    assert twins.twin_consistency(Z.tolist()) == exact["consistency"]
    assert twins.twin_weighted_consistency(Z.tolist()) == exact["weighted_consistency"]
    assert twins.twin("jaccard", Z.tolist()) == exact["gk"]
    for name, x in exact.items():
        assert value(name, Z) == pytest.approx(float(x), rel=1e-14)
    # printed C = 0.31, CW = 0.813, GK = 0.805
    assert printed(exact["consistency"], 0.31, 2)
    assert printed(exact["weighted_consistency"], 0.813, 3)
    assert printed(exact["gk"], 0.805, 3)


def test_somol_fig3_cw_rel_printed_value_not_reproduced():
    """Printed CW_rel = 0.806 is reached for NO |Y|. The system fixes N = 16,
    n = 15 and CW = 13/16 (confirmed by the printed C, CW and GK); |Y| is not
    given. CW_rel (eq. 6 with eqs. 11, 14, identical to eq. 15) increases with
    |Y| from 4/5 (|Y| = 3, the smallest possible) to 13/15 (|Y| >= 16, where
    D = N and CW_min = 0), jumping over 0.806 between |Y| = 3 (0.8) and 4 (67/81)."""
    Z3 = matrix(FIG3, 3)
    values = {}
    for Y in range(3, 201):
        Z = np.hstack([Z3, np.zeros((15, Y - 3), dtype=int)])
        exact = twins.twin_cwrel(Z.tolist())
        assert value("cwrel", Z) == pytest.approx(float(exact), rel=1e-14)
        values[Y] = exact
        assert not printed(exact, 0.806, 3), Y
    assert values[3] == Fraction(4, 5)
    assert values[4] == Fraction(67, 81)
    assert all(values[Y] == Fraction(13, 15) for Y in range(16, 201))
    assert all(values[Y] < values[Y + 1] for Y in range(3, 16))
    # Reading 2: the printed (rounded) CW = 0.813 in eq. 6 (0.8008 for |Y| = 3): no |Y|
    # gives 0.806 either. (Readings that do print 0.806 are not the paper's formula:
    # n = 16 in CW_min with |Y| = 3 gives 25/31; see docs/paper_values.md.)
    assert (Fraction(13, 16) - twins.twin_cw_min(16, 16, 3)) / (
        twins.twin_cw_max(16, 15) - twins.twin_cw_min(16, 16, 3)
    ) == Fraction(25, 31)
    cw_printed = Fraction("0.813")
    for Y in range(3, 201):
        lo, hi = twins.twin_cw_min(16, 15, Y), twins.twin_cw_max(16, 15)
        assert not printed((cw_printed - lo) / (hi - lo), 0.806, 3), Y


# S&N Fig. 4: |Y| = 7.
FIG4_S2 = [set(range(1, k + 1)) for k in range(7, 0, -1)]
FIG4_S3 = [{1, 2, 3, 4}] * 4 + [{1, 2, 3, 5}, {1, 2, 6, 5}, {1, 7, 6, 5}]


def test_somol_fig4_both_systems():
    for system, gk in ((FIG4_S2, Fraction(1, 2)), (FIG4_S3, Fraction(1243, 2205))):
        Z = matrix(system, 7)
        exact = {
            "consistency": Fraction(1, 2),
            "weighted_consistency": Fraction(2, 3),
            "cwrel": Fraction(1, 3),
            "gk": gk,
        }
        assert twins.twin_consistency(Z.tolist()) == exact["consistency"]
        assert twins.twin_weighted_consistency(Z.tolist()) == exact["weighted_consistency"]
        assert twins.twin_cwrel(Z.tolist()) == exact["cwrel"]
        assert twins.twin("jaccard", Z.tolist()) == exact["gk"]
        for name, x in exact.items():
            assert value(name, Z) == pytest.approx(float(x), rel=1e-14), name
    # printed: C = 0.5, CW = 0.66.., CW_rel = 0.33.., GK(S2) = 0.5, GK(S3) = 0.564
    assert printed(Fraction(1243, 2205), 0.564, 3)


# S&N Tables 1-3: (data set, |Y|, mean subset size, CW, CW_rel, CW_min, CW_max) per row;
# n = 1000 runs, so N = 1000 x mean size, known to +-5 from the two printed decimals.
SN_TABLES = [
    ("wine Gauss SFS", 13, "3.73", "0.519", "0.353", "0.286", "0.947"),
    ("wine Gauss SFFS", 13, "3.58", "0.514", "0.365", "0.275", "0.932"),
    ("wine 3-NN SFS", 13, "7.12", "0.752", "0.467", "0.547", "0.985"),
    ("wine 3-NN SFFS", 13, "6.91", "0.763", "0.508", "0.531", "0.988"),
    ("wine SVM SFS", 13, "9.09", "0.758", "0.203", "0.699", "0.991"),
    ("wine SVM SFFS", 13, "8.46", "0.816", "0.516", "0.650", "0.971"),
    ("wdbc Gauss SFS", 30, "11.95", "0.506", "0.181", "0.397", "0.996"),
    ("wdbc Gauss SFFS", 30, "12.17", "0.556", "0.259", "0.405", "0.988"),
    ("wdbc 3-NN SFS", 30, "15.45", "0.584", "0.148", "0.514", "0.984"),
    ("wdbc 3-NN SFFS", 30, "17.96", "0.658", "0.149", "0.598", "0.998"),
    ("wdbc SVM SFS", 30, "9.32", "0.433", "0.185", "0.310", "0.977"),
    ("wdbc SVM SFFS", 30, "10.82", "0.472", "0.179", "0.360", "0.987"),
    ("cloud Gauss SFS", 10, "4.80", "0.794", "0.644", "0.480", "0.967"),
    ("cloud Gauss SFFS", 10, "5.02", "0.839", "0.682", "0.501", "0.997"),
    ("cloud 3-NN SFS", 10, "1", "1", "1", "0.099", "1.0"),
]


@pytest.mark.parametrize("row", SN_TABLES, ids=[r[0] for r in SN_TABLES])
def test_somol_tables_cw_min_cw_max_and_cw_rel_columns(row):
    """CW_min, CW_max (eqs. 11, 14) for some N = 1000 x (mean size +- 0.005), and
    CW_rel = (CW - CW_min)/(CW_max - CW_min) (eq. 6) within the rounding of the
    printed CW, CW_min, CW_max. One printed CW_min is not reproduced: wdbc Gauss SFS
    (0.397), whose exact values for N in 11945..11955 lie in [0.39756, 0.39790] and
    print as 0.398 (as does its C column); 0.397 needs N <= 11943 (mean <= 11.943)."""
    name, Y, mean, cw, rel, lo, hi = row
    n = 1000
    exact_mean = Fraction(mean)
    decimals = len(mean.split(".")[1]) if "." in mean else 0
    half = Fraction(1, 2 * 10**decimals) if decimals else Fraction(0)
    candidates = range(math.ceil(n * (exact_mean - half)), math.floor(n * (exact_mean + half)) + 1)
    matches_max = [N for N in candidates if printed(twins.twin_cw_max(N, n), hi, 3)]
    matches_min = [N for N in candidates if printed(twins.twin_cw_min(N, n, Y), lo, 3)]
    assert matches_max
    if name == "wdbc Gauss SFS":
        assert matches_min == []
        values = [twins.twin_cw_min(N, n, Y) for N in candidates]
        assert Fraction("0.39756") <= min(values) and max(values) <= Fraction("0.39790")
        assert (
            max(N for N in range(11800, 12000) if printed(twins.twin_cw_min(N, n, Y), lo, 3))
            == 11943
        )
    else:
        assert set(matches_min) & set(matches_max)
    if cw == "1":  # identical subsets: CW = CW_max = 1, so CW_rel = 1
        assert rel == "1" and set(matches_max) == {1000}
        return
    h = Fraction(1, 2000)  # eq. 6 over the rounding box of the printed values
    corners = [
        (Fraction(cw) + a - Fraction(lo) - b) / (Fraction(hi) + c - Fraction(lo) - b)
        for a, b, c in itertools.product((-h, h), repeat=3)
    ]
    assert min(corners) - h <= Fraction(rel) <= max(corners) + h


# ----------------------------------------------------------------- thesis, Appendix B

#: sum_f s_f^2 with s_f^2 = M/(M-1) p_f (1 - p_f) (thesis Definition 3), exactly
s2_sum = twins.total_variance


def test_thesis_b2_krizek_counterexample():
    """Thesis App. B.2 (Krizek): k = 2, d = 4, M = 4; both matrices have entropy 1,
    sums of variances 4/3 and 2/3."""
    Z1 = [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]]
    Z2 = [[1, 0, 1, 0], [1, 0, 1, 0], [0, 0, 1, 1], [0, 0, 1, 1]]
    for Z in (Z1, Z2):
        assert twins.twin_krizek(Z) == 1.0
        assert value("krizek", Z) == 1.0
    assert s2_sum(Z1) == Fraction(4, 3)
    assert s2_sum(Z2) == Fraction(2, 3)


def test_thesis_b2_guzman_counterexample():
    """Thesis App. B.2 (Guzman): printed Guzman values ~0.24 and ~0.31 are
    reproduced; the printed "sums of variances" ~0.15 and ~0.17 are NOT the sums
    of s_f^2 (1 and 7/6) nor of p_f(1-p_f) (3/4 and 7/8): they are the MEANS
    (1/d) sum_f p_f(1-p_f) = 3/20 and 7/40 (= 0.175, printed 0.17). Every reading
    orders Z1 below Z2 in both stability and variance, so the counterexample stands."""
    Z1 = [[1, 0, 0, 1, 0], [0, 1, 0, 1, 0], [0, 0, 0, 1, 1], [0, 0, 1, 1, 0]]
    Z2 = [[1, 0, 0, 1, 0], [0, 1, 0, 1, 0], [1, 0, 1, 0, 0], [0, 1, 0, 1, 0]]
    g1, g2 = twins.twin_guzman(Z1), twins.twin_guzman(Z2)
    assert value("guzman", Z1) == pytest.approx(g1, rel=1e-12)
    assert value("guzman", Z2) == pytest.approx(g2, rel=1e-12)
    assert printed(g1, 0.24, 2) and printed(g2, 0.31, 2)
    assert g1 < g2

    def readings(Z):
        Z = np.asarray(Z)
        M, d = Z.shape
        pq = [Fraction(int(c), M) * (1 - Fraction(int(c), M)) for c in Z.sum(axis=0)]
        return {
            "sum s2": s2_sum(Z),
            "sum p(1-p)": sum(pq),
            "mean p(1-p)": sum(pq) / d,
            "mean s2": s2_sum(Z) / d,
        }

    r1, r2 = readings(Z1), readings(Z2)
    assert r1 == {
        "sum s2": 1,
        "sum p(1-p)": Fraction(3, 4),
        "mean p(1-p)": Fraction(3, 20),
        "mean s2": Fraction(1, 5),
    }
    assert r2 == {
        "sum s2": Fraction(7, 6),
        "sum p(1-p)": Fraction(7, 8),
        "mean p(1-p)": Fraction(7, 40),
        "mean s2": Fraction(7, 30),
    }
    assert [k for k in r1 if printed(r1[k], 0.15, 2)] == ["mean p(1-p)"]
    assert not printed(r2["sum s2"], 0.17, 2) and not printed(r2["sum p(1-p)"], 0.17, 2)
    assert abs(r2["mean p(1-p)"] - Fraction(17, 100)) == Fraction(1, 200)  # 0.175 -> 0.17
    assert all(r1[k] < r2[k] for k in r1)


def wald_block_matrix(M, d):
    """Thesis App. B.3: M/2 runs select the first d-1 features, M/2 runs the last
    one (the matrix as printed; the text's "only select the first feature" would
    give r = 1 and Wald = 1, not the stated value)."""
    top = [[1] * (d - 1) + [0]] * (M // 2)
    bottom = [[0] * (d - 1) + [1]] * (M // 2)
    return top + bottom


@pytest.mark.parametrize("M", [2, 4, 6, 10])
@pytest.mark.parametrize("d", [2, 3, 5, 9])
def test_thesis_b3_wald_and_npog_unbounded(M, d):
    Z = wald_block_matrix(M, d)
    wald = Fraction(M // 2 - 1, M - 1) + Fraction(M * (1 - d), 2 * (M - 1))  # as printed
    assert twins.twin("wald", Z) == wald
    assert value("wald", Z) == pytest.approx(float(wald), rel=1e-13)
    # nPOG "similarly": its inter-block ordered pairs give 1 - d (k_i = 1) and
    # -1/(d-1) (k_i = d-1), so its value is (our derivation, checked by the twin):
    npog = (
        Fraction(M // 2 - 1, M - 1)
        + Fraction(M * (1 - d), 4 * (M - 1))
        - Fraction(M, 4 * (M - 1) * (d - 1))
    )
    assert twins.twin("npog", Z) == npog
    assert value("npog", Z) == pytest.approx(float(npog), rel=1e-13)
    # both decrease without bound in d: no constant lower bound (Bounds disclaimed)
    assert twins.twin("wald", wald_block_matrix(M, d + 1)) < wald
    assert twins.twin("npog", wald_block_matrix(M, d + 1)) < npog


def test_thesis_b4_cwrel_forward_counterexample():
    """Thesis App. B.4: CW_rel = 1 although the rows differ."""
    Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 0]]
    assert twins.twin_cwrel(Z) == 1
    assert value("cwrel", Z) == 1.0


@pytest.mark.parametrize("k", range(2, 10))
def test_thesis_fig_4_1a_wald_and_cwrel_reach_one(k):
    """Thesis Fig. 4.1a (d = 10, M = 100): half the runs select {X1..Xk}, half
    {X1..X(k-1)}; Wald and CW_rel still return their maximum 1, the others do not."""
    d = 10
    Z = np.array([[1] * k + [0] * (d - k)] * 50 + [[1] * (k - 1) + [0] * (d - k + 1)] * 50)
    assert value("wald", Z) == 1.0
    assert value("cwrel", Z) == 1.0
    assert twins.twin_cwrel(Z.tolist()) == 1
    for name in ("nogueira", "jaccard", "dice", "kappa", "phi"):
        assert value(name, Z) < 1.0, name


def test_thesis_fig_4_1b_lustgarten_on_deterministic_selection():
    """Thesis Fig. 4.1b (d = 10): the same k features on every run. Lustgarten's
    value (k - k^2/d)/(k - max(0, 2k - d)) = max(1 - k/d, k/d) varies with k;
    measures claiming the Maximum property return 1."""
    d, M = 10, 20
    seen = []
    for k in range(1, d):
        Z = np.array([[1] * k + [0] * (d - k)] * M)
        exact = Fraction(k * d - k * k, d * (k - max(0, 2 * k - d)))
        assert exact == max(1 - Fraction(k, d), Fraction(k, d))
        assert twins.twin("lustgarten", Z[:4].tolist()) == exact
        assert value("lustgarten", Z) == pytest.approx(float(exact), rel=1e-14)
        seen.append(exact)
        for info in propstab.list_measures("pairwise") + propstab.list_measures("frequency"):
            if info.claims[propstab.Axiom.MAXIMUM] and info.orientation == "higher":
                assert value(info.name, Z) == pytest.approx(info.bounds[1].value, abs=1e-15), (
                    info.name,
                    k,
                )
    assert len(set(seen)) == 5 and max(seen) < 1


# ----------------------------------------------------------------- thesis B.5 closed forms


def enumerate_expectation(name, sizes, d):
    return twins.expected_measure(lambda Z: twins.twin(name, Z), sizes, d)


def test_thesis_b5_hamming_expectation():
    """E[Hamming | H0]: with constant k the printed 1 - 2(k/d)(1 - k/d) is right.
    The printed general form 1 - 2kbar/d + M/(M-1) kbar^2/d^2 - sum k_i^2/(M(M-1)d^2)
    is NOT (it drops the 2 of |s_i \\ s_j| + |s_j \\ s_i| = k_i + k_j - 2 r_ij and
    contradicts its own constant-k case); the correct one doubles the last two terms."""
    for k, d in [(1, 3), (2, 4), (3, 5)]:
        E = enumerate_expectation("hamming", [k, k, k], d)
        assert E == 1 - 2 * Fraction(k, d) * (1 - Fraction(k, d))
    for sizes, d in [([1, 2, 3], 4), ([0, 2, 5], 5), ([1, 3], 4)]:
        M = len(sizes)
        kbar = Fraction(sum(sizes), M)
        sq = sum(Fraction(k * k, d * d) for k in sizes)
        E = enumerate_expectation("hamming", sizes, d)
        as_printed = (
            1 - 2 * kbar / d + Fraction(M, M - 1) * kbar**2 / d**2 - sq / (M * (M - 1))
        )
        corrected = (
            1 - 2 * kbar / d + 2 * Fraction(M, M - 1) * kbar**2 / d**2 - 2 * sq / (M * (M - 1))
        )
        assert E == corrected
        assert E != as_printed
        Ep, _ = chance.expected_pairwise(get_measure("hamming").kernel.score, sizes, d)
        off = ~np.eye(M, dtype=bool)
        assert Ep[off].mean() == pytest.approx(float(E), rel=1e-13)


def test_thesis_b5_dice_ochiai_pog_jaccard_expectations():
    for sizes, d in [([2, 2, 2], 5), ([1, 2, 3], 4), ([1, 4], 5)]:
        M = len(sizes)
        pairs = [(a, b) for i, a in enumerate(sizes) for j, b in enumerate(sizes) if i != j]
        dice = Fraction(2, M * (M - 1) * d) * sum(Fraction(a * b, a + b) for a, b in pairs)
        assert enumerate_expectation("dice", sizes, d) == dice
        ochiai = -Fraction(1, M - 1) * Fraction(sum(sizes), M * d) + sum(
            math.sqrt(k / d) for k in sizes
        ) ** 2 / (M * (M - 1))
        assert float(enumerate_expectation("ochiai", sizes, d)) == pytest.approx(ochiai, rel=1e-13)
        assert enumerate_expectation("pog", sizes, d) == Fraction(sum(sizes), M * d)
        if len(set(sizes)) == 1:
            k = sizes[0]
            assert dice == Fraction(k, d)  # "becomes k/d"
            assert ochiai == pytest.approx(k / d, rel=1e-13)
            hypergeom = [
                Fraction(math.comb(k, n) * math.comb(d - k, k - n), math.comb(d, k))
                for n in range(k + 1)
            ]
            jaccard = sum(Fraction(n, 2 * k - n) * hypergeom[n] for n in range(1, k + 1))
            assert enumerate_expectation("jaccard", sizes, d) == jaccard


def test_thesis_fig_4_2_random_selection_of_9_out_of_10():
    """Thesis Fig. 4.2 (d = 10, random k-subsets): "for k = 9 ... the Dice index is
    about 0.9", Kuncheva's close to 0. Exactly: E[Dice | H0] = k/d = 9/10 and
    E[Kuncheva | H0] = 0 (every pair of 9-subsets of 10 features enumerated)."""
    assert twins.expected_similarity(twins.sim_dice, 9, 9, 10) == Fraction(9, 10)
    assert twins.expected_similarity(twins.sim_kuncheva, 9, 9, 10) == 0
    for k in range(1, 10):
        E, _ = chance.expected_pairwise(get_measure("dice").kernel.score, [k, k], 10)
        assert E[0, 1] == pytest.approx(k / 10, rel=1e-13)


def test_thesis_b5_corrected_similarities_have_null_expectation_zero():
    """Kuncheva, Lustgarten, Wald, nPOG (and stabm's kappa, phi, unadjusted) are
    linear in r_ij with E[r_ij | H0] = k_i k_j / d, so E = 0 for every sizes."""
    for name in ("lustgarten", "wald", "npog", "kappa", "phi", "unadjusted"):
        for sizes, d in [([1, 2, 3], 4), ([2, 2, 3], 5), ([1, 3], 4)]:
            assert enumerate_expectation(name, sizes, d) == pytest.approx(0, abs=1e-14), name
    assert enumerate_expectation("kuncheva", [2, 2, 2], 5) == 0


@pytest.mark.parametrize("M,k,d", [(2, 1, 3), (3, 2, 4), (3, 1, 5), (4, 2, 4)])
def test_thesis_b5_lausser_expectation(M, k, d):
    """E[Lausser | H0] = 1/M + (M-1)k/(dM): enumeration and propstab.chance."""
    closed = Fraction(1, M) + Fraction((M - 1) * k, d * M)
    assert enumerate_expectation("lausser", [k] * M, d) == closed
    pmf = chance.column_count_pmf([k] * M, d)  # E[sum_f F_f^2] = d E[F^2]
    c = np.arange(pmf.size)
    assert d * float(np.dot(pmf, c * c)) / (M * M * k) == pytest.approx(float(closed), rel=1e-13)


@pytest.mark.parametrize("M,k,d", [(2, 1, 3), (3, 2, 4), (4, 1, 3), (3, 2, 5)])
def test_thesis_b5_cwrel_expectation_constant_k(M, k, d):
    """E[CW_rel | H0] by the thesis's expression (A.2 with Thm 3), constant k (H = 0)."""
    q = Fraction(k, d)
    D = (M * k) % d
    t = Fraction(D, M * M * d) * (1 - Fraction(D, d))
    closed = (q * (1 - q) / M - t) / (q * (1 - q) - t)
    assert enumerate_expectation("cwrel", [k] * M, d) == closed


def test_thesis_b5_guzman_is_not_corrected_for_chance():
    """Thesis App. B.5 concludes E[Guzman | H0] = 0. Its Jensen step divides by
    (k/d) log(k/d) < 0 without reversing the inequality; in fact Guzman >= 0 with
    equality only when every p_f = k/d, so E[Guzman | H0] > 0. Exact counterexample:
    M = 2, d = 2, k = 1: identical rows (probability 1/2) give 1, complementary rows 0."""
    assert enumerate_expectation("guzman", [1, 1], 2) == pytest.approx(0.5, abs=1e-15)
    for M, k, d in [(2, 1, 3), (3, 2, 4), (3, 1, 4)]:
        assert enumerate_expectation("guzman", [k] * M, d) > 0.05


def test_thesis_theorem3_holds_only_for_constant_sizes():
    """Thm 3 (E[s_f^2 | H0] = (kbar/d)(1 - kbar/d)) assumes identically distributed
    rows. Under Definition 2 with FIXED sizes k_1..k_M (propstab's Axiom statement),
    E[s_f^2 | H0] = qbar(1 - qbar) + sum_i (q_i - qbar)^2 / (M(M-1)), q_i = k_i/d, so
    E[Nogueira | H0] = -sum_i (q_i - qbar)^2 / (M(M-1) qbar(1 - qbar)): 0 only when
    the sizes are constant."""
    for sizes, d in [([1, 3], 4), ([1, 2, 3], 4), ([0, 2], 3), ([1, 1, 2], 3), ([2, 2, 2], 5)]:
        M = len(sizes)
        q = [Fraction(k, d) for k in sizes]
        qbar = sum(q) / M
        closed = -sum((x - qbar) ** 2 for x in q) / (M * (M - 1) * qbar * (1 - qbar))
        assert enumerate_expectation("nogueira", sizes, d) == closed
        assert (closed == 0) == (len(set(sizes)) == 1)
    assert enumerate_expectation("nogueira", [1, 3], 4) == Fraction(-1, 4)


# ----------------------------------------------------------------- thesis App. B.6


@pytest.mark.parametrize("M", [2, 3, 4, 6])
def test_nogueira_minimum_attained(M):
    """App. B.6: Phi-hat >= -1/(M-1), attained when all p_f are equal (here run i
    selects only feature i, d = M)."""
    Z = np.eye(M, dtype=int)
    assert twins.twin_nogueira(Z.tolist()) == Fraction(-1, M - 1)
    assert value("nogueira", Z) == pytest.approx(-1 / (M - 1), rel=1e-15)


def test_nogueira_one_on_identical_rows_and_bound_holds():
    rng = np.random.default_rng(6)
    for _ in range(200):
        M, d = int(rng.integers(2, 8)), int(rng.integers(2, 9))
        row = (rng.random(d) < 0.5).astype(int)
        if 0 < row.sum() < d:
            assert value("nogueira", np.tile(row, (M, 1))) == 1.0
        Z = (rng.random((M, d)) < rng.uniform(0.1, 0.9)).astype(int)
        if 0 < Z.sum() < M * d:
            exact = twins.twin_nogueira(Z.tolist())
            assert exact >= Fraction(-1, M - 1)
            assert value("nogueira", Z) == pytest.approx(float(exact), rel=1e-12, abs=1e-14)
