"""propstab.chance against brute-force enumeration of the null model H0 (thesis
Definition 2: run i is a uniformly random subset of size k_i): every pair of
subsets for the pairwise expectations, every matrix for the column-count and
union-size laws. Exact Fractions on the enumeration side."""
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from propstab import chance, get_measure, list_measures

import twins  # tests/ is on sys.path (rootdir-relative import mode)

REL, ABS = 1e-12, 1e-13


PAIRWISE = [m.name for m in list_measures(family="pairwise")]     # every registered one


def test_every_pairwise_measure_has_a_pair_score_and_a_twin():
    assert all(callable(get_measure(name).kernel.score) for name in PAIRWISE)
    assert sorted(PAIRWISE) == sorted(twins.SIMILARITIES)


@pytest.mark.parametrize("name", PAIRWISE)
def test_expected_pairwise_matches_enumeration(name):
    score = get_measure(name).kernel.score
    sim = twins.SIMILARITIES[name]
    constant = get_measure(name).domain == "constant_size"      # kuncheva: k_a = k_b only
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


@pytest.mark.parametrize("row_sizes,d", [([1, 1], 2), ([2, 1, 3], 4), ([0, 2, 5], 5),
                                         ([3, 3, 3], 5), ([1, 4, 2, 2], 5)])
def test_column_count_pmf_matches_enumeration(row_sizes, d):
    counts = [0] * (len(row_sizes) + 1)
    total = 0
    for runs in _enumerate_matrices(row_sizes, d):
        counts[sum(1 for s in runs if 0 in s)] += 1        # the count of feature 0
        total += 1
    exact = [Fraction(c, total) for c in counts]
    pmf = chance.column_count_pmf(row_sizes, d)
    assert len(pmf) == len(exact)
    assert pmf == pytest.approx([float(x) for x in exact], rel=REL, abs=ABS)


@pytest.mark.parametrize("row_sizes,d", [([1, 1], 2), ([2, 1, 3], 4), ([0, 2, 5], 5),
                                         ([3, 3, 3], 5), ([1, 4, 2, 2], 5), ([0, 0], 3)])
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
