"""The audit for rank matrices: the axioms' statements for rankings, the rank-matrix
strategies (lazily validated, shrinking towards untied identity rankings), the checks
drawing rank matrices for a subject whose declaration reads rankings (registered or a
user function), and the exact null expectations over arrangements of midranks."""
import collections
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import find, given
from hypothesis.errors import InvalidArgument

import propstab
import rank_twins
from propstab import Axiom
from propstab.auditing._rankings import rank_null_expectation, rank_total_variance
from propstab.auditing import check_monotonicity, subject
from propstab.search import REPRODUCIBLE, Found, search
from propstab.strategies import (
    RankConfiguration,
    identical_rankings,
    midranks_of_pattern,
    near_identical_rankings,
    rank_matrices,
    rank_matrix_pairs,
    rank_null_configurations,
)


def test_every_axiom_has_a_statement_for_rankings():
    for a in Axiom:
        assert a.statement_for("selection") == a.statement
        assert a.statement_for("ranking") == a.ranking_statement != a.statement
    assert "tie pattern" in Axiom.MONOTONICITY.ranking_statement
    assert (
        "uniformly random permutation of its own midranks"
        in Axiom.CORRECTION_FOR_CHANCE.ranking_statement
    )
    with pytest.raises(ValueError, match="input: must be 'selection' or 'ranking'"):
        Axiom.BOUNDS.statement_for("weights")


def _is_midranks(R):
    return np.array_equal(propstab.as_rankings(R).toarray(), R)


@given(rank_matrices(ties="any", max_features=6))
def test_rank_matrices_are_midranks(R):
    assert R.dtype == np.float64 and _is_midranks(R)


@given(rank_matrices(ties="none"))
def test_untied_rank_matrices_are_permutations(R):
    assert (np.sort(R, axis=1) == np.arange(1, R.shape[1] + 1)).all()


@given(rank_matrices(ties="proper"))
def test_proper_rank_matrices_have_no_constant_run(R):
    assert (R.max(axis=1) > R.min(axis=1)).all()


@given(rank_matrix_pairs())
def test_pairs_have_the_same_tie_pattern_in_each_run(pair):
    R1, R2 = pair
    assert R1.shape == R2.shape
    assert np.array_equal(np.sort(R1, axis=1), np.sort(R2, axis=1))


@given(identical_rankings())
def test_identical_rankings(R):
    assert (R == R[0]).all() and _is_midranks(R)


@given(near_identical_rankings())
def test_near_identical_rankings_differ_in_one_run_by_one_swap(R):
    rows = collections.Counter(tuple(r) for r in R.tolist())
    assert len(rows) == 2 and min(rows.values()) == 1  # one run differs from the others
    a, b = (np.array(r) for r in rows)
    assert (a != b).sum() == 2 and sorted(a) == sorted(b)


@given(rank_null_configurations())
def test_null_configurations_carry_midrank_patterns(config):
    for p in config.patterns:
        assert len(p) == config.n_features and list(p) == sorted(p)
        assert _is_midranks(np.array([p, p]))
    assert config.row_sizes == config.patterns


@pytest.mark.parametrize(
    "strategy, message",
    [
        (rank_matrices(ties="some"), "ties: must be one of 'any', 'proper', 'none'"),
        (rank_matrices(min_features=1), "min_features: must be >= 2"),
        (rank_matrix_pairs(min_runs=3, max_runs=2), "max_runs: must be >= 3"),
        (near_identical_rankings(min_runs=1, max_runs=1), "needs at least 2 runs"),
    ],
)
def test_strategies_validate_their_arguments_lazily(strategy, message):
    with pytest.raises(InvalidArgument, match=message):
        find(strategy, lambda x: True, settings=REPRODUCIBLE)


def test_midranks_of_pattern():
    assert midranks_of_pattern([2, 2]) == (1.5, 1.5, 3.5, 3.5)
    assert midranks_of_pattern([4]) == (2.5,) * 4


def test_total_variance_is_exact():
    R = np.array([[1, 2.5, 2.5, 4], [2, 1, 3, 4], [1.5, 1.5, 3.5, 3.5]])
    from rank_evidence import total_variance

    assert rank_total_variance(R) == total_variance(R) == Fraction(7, 6)


def test_spearman_is_monotone_on_untied_rankings():
    """Refuted with mixed tie patterns (docs/rankings.md), but without ties the value is
    1 - mean_f s_f^2 / V_rank, linear in the total variance: the search on untied pairs
    finds no counterexample."""
    s = subject("spearman")

    def probe(pair):
        R1, R2 = pair
        v1, v2 = s.value(R1), s.value(R2)
        V1, V2 = rank_total_variance(R1), rank_total_variance(R2)
        if (
            (V1 == V2 and not math.isclose(v1, v2, abs_tol=1e-12))
            or (V1 < V2 and not v1 > v2)
            or (V2 < V1 and not v2 > v1)
        ):
            return Found(pair, (v1, v2), "not monotone")
        return None

    assert search(rank_matrix_pairs(ties="none"), probe, max_examples=300, random_state=0) is None
    assert check_monotonicity("spearman", max_examples=20).status == "refuted"


def test_a_user_ranking_measure_is_audited_on_rank_matrices():
    seen = []

    def footrule(R):  # mean pairwise Spearman footrule, normalised
        seen.append(R)
        R = np.asarray(R, dtype=float)
        M, d = R.shape
        D = np.abs(R[:, None, :] - R[None, :, :]).sum(axis=2)
        return float(1 - D.sum() / (M * (M - 1)) / (d * d / 2))

    table = propstab.audit(
        footrule, input="ranking", claims=["bounds"], lower=-1, upper=1, max_examples=20
    )
    assert seen and all(R.dtype == np.float64 and _is_midranks(R) for R in seen)
    assert table.status("footrule", "bounds") == "holds"
    assert table.status("footrule", "maximum") == "unrefuted"  # 1 exactly when identical
    # E[sum_f |r_if - r_jf|] = (d^2 - 1)/3 under H0: the value depends on d
    correction = table.result("footrule", "correction")
    assert correction.status == "refuted" and "patterns=" in correction.reason
    assert "R1 = " in str(table)  # the monotonicity counterexample


def test_rank_null_expectation_is_exact_and_matches_enumeration():
    s = subject("kendall")
    config = RankConfiguration(
        3,
        4,
        (
            midranks_of_pattern([1, 2, 1]),
            midranks_of_pattern([1, 1, 1, 1]),
            midranks_of_pattern([3, 1]),
        ),
    )
    e = rank_null_expectation(s, config, {})
    assert e.value == pytest.approx(0.0, abs=1e-12)
    assert "patterns=[1 2.5 2.5 4, 1 2 3 4, 2 2 2 4]" in str(e)
    s = subject("top_k")  # not a pairwise mean: every tuple
    config = RankConfiguration(2, 3, (midranks_of_pattern([1, 1, 1]), midranks_of_pattern([2, 1])))
    e = rank_null_expectation(s, config, {})
    E = rank_twins.expected(lambda R: rank_twins.twin_top_k(R), config.patterns)
    assert e.value == pytest.approx(float(E), abs=1e-12) and "tuples of rankings" in e.method
