"""propstab.chance against brute-force enumeration of the null model H0 (thesis
Definition 2: run i is a uniformly random subset of size k_i): every pair of
subsets for the pairwise expectations, every matrix for the column-count and
union-size laws. Exact Fractions on the enumeration side."""
import functools
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from propstab import chance, get_measure, list_measures

import twins  # tests/ is on sys.path (rootdir-relative import mode)

REL, ABS = 1e-12, 1e-13


PAIRWISE = [m.name for m in list_measures(family="pairwise")]  # every registered one


def test_every_pairwise_measure_has_a_pair_score_and_a_twin():
    assert all(callable(get_measure(name).kernel.score) for name in PAIRWISE)
    assert sorted(PAIRWISE) == sorted(twins.SIMILARITIES)


@pytest.mark.parametrize("name", PAIRWISE)
def test_expected_pairwise_matches_enumeration(name):
    score = get_measure(name).kernel.score
    sim = twins.SIMILARITIES[name]
    constant = get_measure(name).domain == "constant_size"  # kuncheva: k_a = k_b only
    for d in range(2, 7):
        sizes = np.arange(d + 1)
        E, defined = chance.expected_pairwise(score, sizes, d)
        for ka, kb in itertools.product(range(d + 1), repeat=2):
            if constant and ka != kb:
                continue
            exact = twins.expected_similarity(sim, ka, kb, d)
            if exact is None:
                assert not defined[ka, kb] and math.isnan(E[ka, kb]), (name, d, ka, kb)
            else:
                assert defined[ka, kb], (name, d, ka, kb)
                assert E[ka, kb] == pytest.approx(float(exact), rel=REL, abs=ABS), (d, ka, kb)


def _enumerate_matrices(row_sizes, d):
    return itertools.product(*[twins.subsets(d, k) for k in row_sizes])


@pytest.mark.parametrize(
    "row_sizes,d", [([1, 1], 2), ([2, 1, 3], 4), ([0, 2, 5], 5), ([3, 3, 3], 5), ([1, 4, 2, 2], 5)]
)
def test_column_count_pmf_matches_enumeration(row_sizes, d):
    counts = [0] * (len(row_sizes) + 1)
    total = 0
    for runs in _enumerate_matrices(row_sizes, d):
        counts[sum(1 for s in runs if 0 in s)] += 1  # the count of feature 0
        total += 1
    exact = [Fraction(c, total) for c in counts]
    pmf = chance.column_count_pmf(row_sizes, d)
    assert len(pmf) == len(exact)
    assert pmf == pytest.approx([float(x) for x in exact], rel=REL, abs=ABS)


@pytest.mark.parametrize(
    "row_sizes,d",
    [([1, 1], 2), ([2, 1, 3], 4), ([0, 2, 5], 5), ([3, 3, 3], 5), ([1, 4, 2, 2], 5), ([0, 0], 3)],
)
def test_union_size_pmf_matches_enumeration(row_sizes, d):
    counts = [0] * (d + 1)
    total = 0
    for runs in _enumerate_matrices(row_sizes, d):
        counts[len(frozenset().union(*runs))] += 1
        total += 1
    pmf = chance.union_size_pmf(row_sizes, d)
    assert pmf == pytest.approx([float(Fraction(c, total)) for c in counts], rel=REL, abs=ABS)


@pytest.mark.parametrize("d", [3, 6, 20])
def test_expected_intersection_is_kikj_over_d(d):
    """E[r_ij | H0] = k_i k_j / d (thesis sec. 3.1.6), for every pair of sizes."""
    sizes = np.arange(d + 1)
    E, defined = chance.expected_pairwise(lambda r, a, b, dd: (r, 1.0 + 0 * r), sizes, d)
    assert defined.all()
    assert np.allclose(E, np.outer(sizes, sizes) / d, rtol=REL, atol=ABS)


def test_pmfs_are_distributions():
    rng = np.random.default_rng(3)
    for _ in range(20):
        d = int(rng.integers(1, 30))
        sizes = rng.integers(0, d + 1, size=int(rng.integers(2, 12)))
        for pmf in (chance.column_count_pmf(sizes, d), chance.union_size_pmf(sizes, d)):
            assert np.all(pmf >= -1e-15) and math.isclose(pmf.sum(), 1.0, rel_tol=1e-12)
        # the union is at least the largest run and at most min(d, N)
        u = chance.union_size_pmf(sizes, d)
        support = np.flatnonzero(u > 1e-300)
        assert support.min() >= sizes.max() and support.max() <= min(d, sizes.sum())


# ---------------------------------------------------------------------------------
# The chance-corrected 0/0 (issue 20, scenario 5): decided on the integer sizes, not by
# comparing a rounded sum of probabilities with 1. A slow literal twin enumerates the
# hypergeometric law of the intersection in Fractions and scores one representative
# pair of sets per point with the set-based similarities of tests/twins.py.


@functools.lru_cache(maxsize=None)
def _hypergeometric(ka, kb, d):
    """((r, P(r)), ...) over the support, exact; once per (ka, kb, d) in the module (the
    zero-over-zero tests ask for the same laws once per measure)."""
    return tuple(
        (r, Fraction(math.comb(ka, r) * math.comb(d - ka, kb - r), math.comb(d, kb)))
        for r in range(max(0, ka + kb - d), min(ka, kb) + 1)
    )


def _sets(ka, kb, r):
    """Two subsets of sizes ka, kb with intersection r (ka + kb - r <= d)."""
    a = frozenset(range(ka))
    return a, frozenset(range(r)) | frozenset(range(ka, ka + kb - r))


def _corrected_twin(name, ka, kb, r, d):
    """('raw', None) when the score is undefined, ('0/0', None) when the null expectation
    is the maximum 1, else ('value', exact value): stabm's (phi - E) / (1 - E)."""
    sim = twins.SIMILARITIES[name]
    if sim(*_sets(ka, kb, r), d) is None:
        return "raw", None
    law = _hypergeometric(ka, kb, d)
    if name == "ochiai":  # phi = r / s, s = sqrt(ka kb): (r - E r) / (s - E r), exact test
        Er = sum(p * x for x, p in law)
        if Er * Er == ka * kb:
            return "0/0", None
        return "value", (r - Er) / (math.sqrt(ka * kb) - Er)
    E = _null_mean(name, ka, kb, d)
    phi = sim(*_sets(ka, kb, r), d)
    if E == 1:
        return "0/0", None
    return "value", (phi - E) / (1 - E)


@functools.lru_cache(maxsize=None)
def _null_mean(name, ka, kb, d):
    """E[sim | H0] over the exact law, once per (name, ka, kb, d): _cases(d) pairs several
    intersections r with the same sizes (the expectation does not depend on r)."""
    sim = twins.SIMILARITIES[name]
    return sum(p * sim(*_sets(ka, kb, x), d) for x, p in _hypergeometric(ka, kb, d))


def _cases(d):
    """(ka, kb, r): every run all-selected or empty, and mixed pairs."""
    k, k2 = d // 2, max(1, (2 * d) // 3)
    out = [(d, d, d), (0, 0, 0), (d, 0, 0), (0, d, 0), (d, k, k), (0, k, 0), (k, k, k)]
    out += [
        (k, k, max(0, 2 * k - d)),
        (k, k2, min(k, k2)),
        (k, k2, max(0, k + k2 - d)),
        (d - 1, d - 1, d - 1),
        (d - 1, d - 1, max(0, d - 2)),
        (1, 1, 1),
    ]
    return sorted(
        {
            c
            for c in out
            if 0 <= c[0] <= d
            and 0 <= c[1] <= d
            and max(0, c[0] + c[1] - d) <= c[2] <= min(c[0], c[1])
        }
    )


def _matrix(ka, kb, r, d):
    a, b = _sets(ka, kb, r)
    return np.array([[f in s for f in range(d)] for s in (a, b)], dtype=np.int8)


ZERO_OVER_ZERO_MEASURES = ("jaccard", "dice", "ochiai", "hamming")


@pytest.fixture(scope="module")
def exact_corrections():
    """{(name, d, ka, kb, r): (value, warned)}: ``stability(Z, name,
    correction_for_chance="exact")`` of every case of every d, for the four measures, and
    whether it warned UndefinedMeasureWarning. Called d by d, case by case, the four
    measures one after the other: their calls for one pair of sizes meet the same
    hypergeometric law, which propstab.chance keeps in a cache of the last 512 (met
    measure by measure, each of the 1,789 laws was computed again for every measure).
    Each call gets its own copy of the matrix."""
    from propstab import UndefinedMeasureWarning, stability
    import warnings

    out = {}
    for d in range(1, 201):
        for ka, kb, r in _cases(d):
            Z = _matrix(ka, kb, r, d)
            for name in ZERO_OVER_ZERO_MEASURES:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    got = stability(Z.copy(), name, correction_for_chance="exact")
                out[name, d, ka, kb, r] = (
                    got,
                    any(issubclass(w.category, UndefinedMeasureWarning) for w in caught),
                )
    return out


@pytest.mark.parametrize("name", ZERO_OVER_ZERO_MEASURES)
def test_exact_correction_zero_over_zero_is_decided_exactly(name, exact_corrections):
    zero_over_zero = []
    for d in range(1, 201):
        for ka, kb, r in _cases(d):
            kind, exact = _corrected_twin(name, ka, kb, r, d)
            got, warned = exact_corrections[name, d, ka, kb, r]
            where = (name, d, ka, kb, r, kind, got)
            if kind == "value":
                assert not warned and got == pytest.approx(
                    float(exact), rel=1e-12, abs=1e-12
                ), where
                continue
            assert math.isnan(got) and warned, where
            if kind == "0/0":
                zero_over_zero.append((ka, kb, d))
                # only a pair whose null law is one point can have E = max
                assert len(_hypergeometric(ka, kb, d)) == 1, where
                assert chance.degenerate_intersection(ka, kb, d), where
    # the case is among them for every d: both runs select all features
    assert {(d, d, d) for d in range(1, 201)} <= set(zero_over_zero)


def test_degenerate_intersection_is_the_one_point_support():
    for dd in range(1, 41):
        k = np.arange(dd + 1)
        got = chance.degenerate_intersection(k[:, None], k[None, :], dd)
        for a in range(dd + 1):
            for b in range(dd + 1):
                assert got[a, b] == (len(_hypergeometric(a, b, dd)) == 1)


@functools.lru_cache(maxsize=None)
def _global_twin(name, ka, kb, d):
    """(v - E) / (1 - E) of a frequency measure on two runs (None for 0/0): E over the
    hypergeometric intersection, the twin of tests/twins.py on a representative matrix
    per point (M = 2: the matrix is determined up to relabelling by r). Once per
    (name, ka, kb, d): _cases(d) pairs several intersections r with the same sizes."""
    twin = twins.TWINS[name]
    law = _hypergeometric(ka, kb, d)
    E = sum(p * twin(_matrix(ka, kb, x, d).tolist()) for x, p in law)
    return None if E == 1 else E


@pytest.mark.parametrize("name", ["davis", "novovicova"])
def test_exact_global_correction_zero_over_zero_is_decided_exactly(name):
    from propstab import UndefinedMeasureWarning, stability
    import warnings

    # every d up to 60 and a few large ones: the twin's exact expectation sums over the
    # whole hypergeometric law, so d up to 200 took a minute for Davis alone
    for d in [*range(1, 61), 97, 128, 199, 200]:
        for ka, kb, r in _cases(d):
            if ka + kb == 0:
                continue  # no run selects anything: raw undefined
            Z = _matrix(ka, kb, r, d)
            E = _global_twin(name, ka, kb, d)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                got = stability(Z, name, correction_for_chance="exact")
            warned = any(issubclass(w.category, UndefinedMeasureWarning) for w in caught)
            where = (name, d, ka, kb, r, got)
            if E is None:
                assert math.isnan(got) and warned and ka == kb == d, where
                continue
            v = twins.TWINS[name](Z.tolist())
            assert not warned and got == pytest.approx(
                float((v - E) / (1 - E)), rel=1e-12, abs=1e-12
            ), where


def _exact_correction_measures():
    return [
        m.name
        for m in list_measures()
        if any(
            p.name == "correction_for_chance" and "exact" in (p.choices or ())
            for p in m.parameters
        )
    ]


def test_every_exact_correction_is_undefined_when_all_runs_select_all_features():
    """Every measure offering correction_for_chance='exact', on runs that all select
    every feature (E = max = the value): NaN with UndefinedMeasureWarning, at every d."""
    from propstab import UndefinedMeasureWarning, stability

    names = _exact_correction_measures()
    assert {"jaccard", "dice", "ochiai", "hamming", "davis", "novovicova", "yu"} <= set(names)
    for name in names:
        for d in list(range(1, 31)) + [37, 64, 99, 128, 150, 199, 200]:
            with pytest.warns(UndefinedMeasureWarning):
                got = stability(
                    np.ones((3, d), dtype=np.int8), name, correction_for_chance="exact"
                )
            assert math.isnan(got), (name, d, got)


def test_exact_davis_with_a_penalty_on_full_runs_is_zero_not_undefined():
    """Identical full runs score 1 - penalty < 1 = the maximum: E = value, (v - E)/(1 - E)
    = 0/penalty = 0 exactly."""
    from propstab import stability

    for d in (1, 9, 10, 13, 200):
        assert (
            stability(np.ones((2, d)), "davis", penalty=0.5, correction_for_chance="exact") == 0.0
        )
