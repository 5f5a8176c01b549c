"""The audit's reuse across searches (propstab/auditing/_subjects.py) changes nothing but
the time: replayed examples and memoised lambda descriptions give the same results as
searching again, and the caches of exact quantities give the same numbers."""
import numpy as np
import pytest
from hypothesis.internal import reflection

from propstab import Axiom, as_selection, chance
from propstab.auditing import _subjects as subjects
from propstab.auditing import audited_subjects, check_one
from propstab.measures import simulation

SUBJECTS = {s.name: s for s in audited_subjects()}


def _without_reuse(subject, axiom, max_examples=40, seed=3):
    subjects.REUSE[0] = False
    try:
        return check_one(max_examples, seed, subject, axiom)
    finally:
        subjects.REUSE[0] = True


@pytest.mark.parametrize(
    "axiom, names",
    [
        # nogueira first records the examples; the others replay them (kuncheva's and wald's
        # refutations fall back to a full search, which shrinks as before); the correlated
        # measures draw a similarity with each example (their own recording)
        (
            Axiom.FULLY_DEFINED,
            ["nogueira", "jaccard", "kuncheva", "wald", "goh", "msi", "yu", "sechidis"],
        ),
        # hamming records; nogueira's search rejects undefined values (a fall back), the
        # others refute
        (Axiom.MONOTONICITY, ["hamming", "nogueira", "lustgarten", "kuncheva", "goh", "msi"]),
    ],
)
def test_replayed_searches_give_the_results_of_new_searches(axiom, names):
    subjects._DRAWN.clear()
    replayed = [check_one(40, 3, SUBJECTS[n], axiom) for n in names]
    assert subjects._DRAWN, "no search was recorded: the test tests nothing"
    fresh = [_without_reuse(SUBJECTS[n], axiom) for n in names]
    assert [r.to_dict() for r in replayed] == [r.to_dict() for r in fresh]
    assert {r.status for r in fresh} >= {"holds", "refuted"}  # both paths are exercised


def test_a_replay_that_meets_a_counterexample_searches_in_full():
    subjects._DRAWN.clear()
    check_one(40, 3, SUBJECTS["nogueira"], Axiom.FULLY_DEFINED)  # records
    replayed = check_one(40, 3, SUBJECTS["kuncheva"], Axiom.FULLY_DEFINED)
    assert replayed.status == "refuted"
    assert (
        replayed.to_dict() == _without_reuse(SUBJECTS["kuncheva"], Axiom.FULLY_DEFINED).to_dict()
    )


def test_memoised_lambda_descriptions_equal_hypothesis_own():
    fs = [lambda x: x + 1, lambda a, b: (a, b)]
    with subjects.lambda_sources_memoised():
        memo = [reflection.extract_lambda_source(f) for f in fs * 2]
        assert getattr(reflection.extract_lambda_source, "memoised_by_propstab", False)
    assert not getattr(reflection.extract_lambda_source, "memoised_by_propstab", False)
    assert memo == [reflection.extract_lambda_source(f) for f in fs * 2]


def test_cached_hypergeometric_law_equals_scipy():
    from scipy import stats

    dice = lambda r, a, b, d: (2 * r, a + b)  # noqa: E731
    for sizes, d in (([1, 3, 3], 7), ([2, 5], 9)):
        E, _ = chance.expected_pairwise(dice, np.array(sizes), d)
        u = np.unique(sizes)
        r = np.arange(u.max() + 1)
        pmf = stats.hypergeom.pmf(r[None, None, :], d, u[:, None, None], u[None, :, None])
        direct = np.sum(
            pmf * np.where(pmf > 0, 2 * r / (u[:, None, None] + u[None, :, None]), 0.0), axis=2
        )
        inv = np.searchsorted(u, sizes)
        assert np.array_equal(E, direct[np.ix_(inv, inv)])


def test_memoised_simulation_equals_a_new_simulation():
    from propstab.measures.matching import Graph, score_yu

    sel = as_selection([[1, 1, 0, 0, 0], [0, 1, 1, 0, 0], [0, 0, 1, 1, 1]])
    C = np.eye(5)
    C[0, 1] = C[1, 0] = 0.7
    g = Graph.build(sel, C, 0.5)
    sizes = np.array([[2, 2], [2, 3]])
    simulation._SIMULATED.clear()
    first = simulation.simulated_once(score_yu, sizes, 5, g, 200, 7)
    again = simulation.simulated_once(score_yu, sizes, 5, g, 200, 7)  # from the memo
    assert len(simulation._SIMULATED) == 1
    direct = simulation.simulated(score_yu, sizes, 5, g, 200, np.random.default_rng(7))
    for x, y, z in zip(first, again, direct):
        assert np.array_equal(x, z) and np.array_equal(y, z)


def test_memoised_exact_expectation_equals_a_new_computation():
    from propstab.measures import exact_null
    from propstab.measures.matching import Graph, score_count, score_mbm

    sel = as_selection([[1, 1, 0, 0, 0], [0, 1, 1, 0, 0], [0, 0, 1, 1, 1]])
    C = np.eye(5)
    C[0, 1] = C[1, 0] = C[2, 3] = C[3, 2] = 0.95
    g = Graph.build(sel, C, 0.9)
    sizes = np.array([[2, 2], [2, 3]])
    exact_null._EXACT.clear()
    for score in (score_mbm, score_count):
        f = exact_null.exact_expectation(score)
        first, again = f(sizes, 5, g), f(sizes, 5, g)  # again: the memo
        direct = exact_null.expected_adjusted(score, sizes, 5, g)
        assert np.array_equal(first, direct) and np.array_equal(again, direct)
        again[:] = -1.0  # a hit is a copy: the memo keeps
        assert np.array_equal(f(sizes, 5, g), direct)
    assert len(exact_null._EXACT) == 2  # one entry per score


def test_memoised_pair_expectations_equal_the_unmemoised_corrected_mean():
    from propstab.measures import kernels
    from propstab.measures._common import pair_mean
    from propstab import get_measure

    kernels._NULL_EXPECTATIONS.clear()
    for name in ("jaccard", "dice", "hamming"):
        info = get_measure(name)
        for rows in (
            [[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 0, 1]],
            [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 0, 0]],
        ):
            sel = as_selection(rows)
            num, den = kernels.pair_fractions(sel, info.kernel.score, "exact")
            direct = pair_mean(name, num, den, "")
            for _ in range(2):  # the second from the memo
                assert info.function(rows, correction_for_chance="exact") == direct
    assert len(kernels._NULL_EXPECTATIONS) == 6


@pytest.mark.parametrize(
    "name", ["nogueira", "novovicova", "davis", "intersection_mbm", "jaccard"]
)
def test_enumeration_by_orbits_equals_the_literal_enumeration(name):
    """The exact expectation of a symmetric measure from one value per orbit of tuples
    equals, to the last bit, the mean over every tuple of subsets one by one."""
    import itertools
    import math
    from propstab.auditing._expectations import _enumerated_expectation, _enumerated_sizes, _orbits
    from propstab.strategies import NullConfiguration

    subject = SUBJECTS[name]
    assert subject.symmetric
    for M, d, ks in ((2, 4, (2, 2)), (3, 4, (1, 2, 2)), (3, 5, (2, 1, 3)), (4, 3, (1, 1, 2, 1))):
        config = NullConfiguration(M, d, ks)
        fixed, rest = _enumerated_sizes(config, True)  # run 1 = {0..fixed-1}, as there
        tuples = itertools.product(*(itertools.combinations(range(d), k) for k in rest))
        values = [
            subject.value(
                np.array([[f < fixed for f in range(d)]] + [[f in s for f in range(d)] for s in t])
            )
            for t in tuples
        ]
        literal = (
            math.nan if any(math.isnan(v) for v in values) else math.fsum(values) / len(values)
        )
        got = _enumerated_expectation(subject, config)
        assert got == literal or (math.isnan(got) and math.isnan(literal))
    # M = 2, d = 4, k = (2, 2), one run fixed: the orbits are the intersections 0, 1, 2
    Zs = np.array(
        [
            [[f in (0, 1) for f in range(4)], [f in s for f in range(4)]]
            for s in itertools.combinations(range(4), 2)
        ]
    )
    reps, counts = _orbits(Zs)
    assert counts.tolist() == [1, 4, 1] and reps[:, 1].tolist() == Zs[[0, 1, 5], 1].tolist()


def test_memoised_null_laws_equal_new_ones():
    from propstab import get_measure
    from propstab.measures import count_nulls

    rows = [[1, 1, 0, 0, 0], [0, 1, 1, 1, 0], [1, 0, 0, 0, 0]]
    for name in ("davis", "novovicova"):
        f = get_measure(name).function
        count_nulls._LAWS.clear()
        first = f(rows, correction_for_chance="exact")
        assert len(count_nulls._LAWS) == 1
        assert f(rows, correction_for_chance="exact") == first  # from the memo
    for function in (chance.union_size_pmf, chance.column_count_pmf):
        for sizes in ([3, 1, 2], [2, 3, 1]):  # the order is the key
            assert np.array_equal(
                count_nulls._law(function, np.array(sizes), 5), function(sizes, 5)
            )


def test_products_through_distinct_rows_equal_the_direct_product(monkeypatch):
    """matching.times multiplies a tall 0/1 matrix through its distinct rows: the same
    values to the last bit (a general similarity, not only 0/1) and the same layout;
    a matrix with another value takes the direct product."""
    from scipy import sparse
    from propstab.measures import matching

    rng = np.random.default_rng(5)
    used = []
    distinct_rows = matching._distinct_rows
    monkeypatch.setattr(
        matching, "_distinct_rows", lambda X: used.append(distinct_rows(X)) or used[-1]
    )
    for d, P, u in ((7, 300, 4), (40, 1200, 30), (130, 600, 2000), (129, 16512, 129)):
        W = sparse.random(d, d, density=0.6, random_state=int(rng.integers(1 << 30)), format="csr")
        W = (W + W.T).tocsr()
        W.data = rng.standard_normal(W.nnz) * np.pi
        X = (rng.random((u, d)) < 0.5).astype(float)[rng.integers(0, u, P)]
        for Y in (X, np.where(X == 1, 0.5, 0.0)):
            direct = np.asarray((W @ Y.T).T)
            got = matching.times(Y, W)
            assert np.array_equal(got, direct) and got.strides == direct.strides
    assert [len(x[0]) * 2 <= len(x[1]) for x in used if x is not None] == [True, True, False, True]
    assert sum(x is None for x in used) == 4  # the 0/0.5 matrices


def test_cheap_numpy_states_equal_hypothesis_own():
    """Within numpy_state_cheaply, Hypothesis's deterministic_PRNG seeds each example with
    0 and restores numpy's global state exactly as without it: examples that draw nothing,
    that draw, that leave a cached Gaussian, and draws between examples."""
    from hypothesis.internal.entropy import deterministic_PRNG
    from propstab.auditing._prng import numpy_state_cheaply

    def scenario():
        np.random.seed(11)
        out = []
        for step in range(12):
            with deterministic_PRNG():
                out.append(np.random.get_state()[1][:3].tolist())  # seed 0 inside
                if step % 3 == 1:
                    out.append(np.random.random(2).tolist())
                if step % 4 == 2:
                    out.append(np.random.standard_normal())  # caches a Gaussian
            if step % 5 == 3:
                out.append(np.random.standard_normal())  # outside: moves it
            state = np.random.get_state()
            out.append((state[1].tolist(), state[2], state[3], state[4]))
        return out

    plain = scenario()
    with numpy_state_cheaply():
        from hypothesis.internal import entropy

        assert getattr(entropy.NP_RANDOM, "saved_by_propstab", False)
        with numpy_state_cheaply():  # nested: unchanged
            cheap = scenario()
    assert not getattr(entropy.NP_RANDOM, "saved_by_propstab", False)
    assert cheap == plain
    assert np.random.get_state()[1].tolist() == plain[-1][0]
