"""The audit's reuse across searches (propstab/_audit/subjects.py) changes nothing but
the time: replayed examples and memoised lambda descriptions give the same results as
searching again, and the caches of exact quantities give the same numbers."""
import numpy as np
import pytest
from hypothesis.internal import reflection

from propstab import Axiom, as_selection, chance
from propstab._audit import subjects
from propstab.auditing import audited_subjects, check_one
from propstab.measures import simulation

SUBJECTS = {s.name: s for s in audited_subjects()}


def _without_reuse(subject, axiom, max_examples=40, seed=3):
    subjects.REUSE[0] = False
    try:
        return check_one(max_examples, seed, subject, axiom)
    finally:
        subjects.REUSE[0] = True


@pytest.mark.parametrize("axiom, names", [
    # nogueira first records the examples; the others replay them (kuncheva's and wald's
    # refutations fall back to a full search, which shrinks as before); the correlated
    # measures draw a similarity with each example (their own recording)
    (Axiom.FULLY_DEFINED, ["nogueira", "jaccard", "kuncheva", "wald", "goh", "msi", "yu",
                           "sechidis"]),
    # hamming records; nogueira's search rejects undefined values (a fall back), the
    # others refute
    (Axiom.MONOTONICITY, ["hamming", "nogueira", "lustgarten", "kuncheva", "goh", "msi"]),
])
def test_replayed_searches_give_the_results_of_new_searches(axiom, names):
    subjects._DRAWN.clear()
    replayed = [check_one(40, 3, SUBJECTS[n], axiom) for n in names]
    assert subjects._DRAWN, "no search was recorded: the test tests nothing"
    fresh = [_without_reuse(SUBJECTS[n], axiom) for n in names]
    assert [r.to_dict() for r in replayed] == [r.to_dict() for r in fresh]
    assert {r.status for r in fresh} >= {"holds", "refuted"}       # both paths are exercised


def test_a_replay_that_meets_a_counterexample_searches_in_full():
    subjects._DRAWN.clear()
    check_one(40, 3, SUBJECTS["nogueira"], Axiom.FULLY_DEFINED)          # records
    replayed = check_one(40, 3, SUBJECTS["kuncheva"], Axiom.FULLY_DEFINED)
    assert replayed.status == "refuted"
    assert replayed.to_dict() == _without_reuse(SUBJECTS["kuncheva"],
                                                Axiom.FULLY_DEFINED).to_dict()


def test_memoised_lambda_descriptions_equal_hypothesis_own():
    fs = [lambda x: x + 1, lambda a, b: (a, b)]
    with subjects.lambda_sources_memoised():
        memo = [reflection.extract_lambda_source(f) for f in fs * 2]
        assert getattr(reflection.extract_lambda_source, "memoised_by_propstab", False)
    assert not getattr(reflection.extract_lambda_source, "memoised_by_propstab", False)
    assert memo == [reflection.extract_lambda_source(f) for f in fs * 2]


def test_cached_hypergeometric_law_equals_scipy():
    from scipy import stats
    dice = lambda r, a, b, d: (2 * r, a + b)                          # noqa: E731
    for sizes, d in (([1, 3, 3], 7), ([2, 5], 9)):
        E, _ = chance.expected_pairwise(dice, np.array(sizes), d)
        u = np.unique(sizes)
        r = np.arange(u.max() + 1)
        pmf = stats.hypergeom.pmf(r[None, None, :], d, u[:, None, None], u[None, :, None])
        direct = np.sum(pmf * np.where(pmf > 0, 2 * r / (u[:, None, None] + u[None, :, None]),
                                       0.0), axis=2)
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
    again = simulation.simulated_once(score_yu, sizes, 5, g, 200, 7)       # from the memo
    assert len(simulation._SIMULATED) == 1
    direct = simulation.simulated(score_yu, sizes, 5, g, 200, np.random.default_rng(7))
    for x, y, z in zip(first, again, direct):
        assert np.array_equal(x, z) and np.array_equal(y, z)
