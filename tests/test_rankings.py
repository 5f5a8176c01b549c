"""The ranking family: input validation and the tie rule, the variance identity, agreement
with scipy.stats and with the slow literal twins (tests/rank_twins.py), exact null
expectations by enumeration, the worked example of Jurman et al.'s group, and the
kernels' leave-one-out values against recomputation."""
import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import stats

import propstab
import rank_twins
from propstab import UndefinedMeasureWarning, as_rankings
from propstab.measures._variance import leave_one_out
from propstab.measures.ranking import canberra_expectation

RANKING = [m.name for m in propstab.list_measures("ranking")]


def permutations_matrix(rng, M, d):
    return np.argsort(rng.random((M, d)), axis=1) + 1.0


def tied_matrix(rng, M, d):
    """Ranks drawn with replacement from 1..d: many ties, any tie rule's output."""
    R = rng.integers(1, d + 1, size=(M, d)).astype(float)
    R[:, 0] = 1.0  # no run constant
    R[:, -1] = d
    return R


def pair_mean(function, R):
    R = np.asarray(R, dtype=float)
    return float(
        np.mean([function(R[i], R[j]) for i, j in itertools.combinations(range(len(R)), 2)])
    )


# ------------------------------------------------------------------- validation, tie rule


@pytest.mark.parametrize(
    "bad, error, message",
    [
        ([[1, 2], [2, 1, 3]], TypeError, "(equal-length rows)"),
        ([[1, 2, 3]], ValueError, "R: a rank matrix needs at least 2 runs"),
        ([[1], [1]], ValueError, "R: a rank matrix needs at least 2 features"),
        ([[0, 1, 2], [1, 2, 3]], ValueError, "R: ranks must be numbers in 1..d (d = 3); got 0.0"),
        ([[1, 2, 4], [1, 2, 3]], ValueError, "R: ranks must be numbers in 1..d (d = 3); got 4.0"),
        ([[1, 2.25, 3], [1, 2, 3]], ValueError, "R: ranks must be whole or half numbers"),
        ([[1, np.inf, 3], [1, 2, 3]], ValueError, "R: ranks must be numbers in 1..d"),
        ([[True, False], [False, True]], TypeError, "got booleans (a selection matrix"),
        ([["a", "b"], ["b", "a"]], TypeError, "R: must hold numbers (ranks)"),
        ("12", TypeError, "R: expected a rank matrix"),
        ({"a": [1, 2]}, TypeError, "R: expected a rank matrix"),
        ([[[1, 2]], [[2, 1]]], ValueError, "R: must be 2-dimensional"),
    ],
)
def test_invalid_rank_matrices_raise_naming_the_argument(bad, error, message):
    with pytest.raises(error) as info:
        as_rankings(bad)
    assert message in str(info.value)
    for name in RANKING:  # every public entry point, the same contract
        with pytest.raises(error):
            propstab.stability(bad, name)


def test_invalid_options_of_as_rankings():
    with pytest.raises(ValueError, match="kind: must be one of 'ranks', 'scores'; got 'x'"):
        as_rankings([[1, 2], [2, 1]], kind="x")
    with pytest.raises(ValueError, match=r"top_k: must be >= 1 and <= 3"):
        as_rankings([[1, 2, 3], [3, 2, 1]], top_k=4)
    with pytest.raises(ValueError, match="R: scores must be finite numbers"):
        as_rankings([[1.0, np.inf], [0.0, 1.0]], kind="scores")
    with pytest.raises(ValueError, match="n_features: 4 does not match R's 3 features"):
        as_rankings([[1, 2, 3], [3, 2, 1]], n_features=4)
    with pytest.raises(TypeError, match="R: a sparse matrix cannot hold ranks"):
        from scipy import sparse

        as_rankings(sparse.csr_matrix([[1, 2], [2, 1]]))


@given(
    st.integers(2, 5).flatmap(
        lambda M: st.integers(2, 7).flatmap(
            lambda d: st.lists(
                st.lists(st.integers(1, d), min_size=d, max_size=d), min_size=M, max_size=M
            )
        )
    )
)
def test_tie_rule_is_the_average_rank_of_scipy_and_the_twin(rows):
    R = np.array(rows, dtype=float)
    got = as_rankings(R).toarray()
    assert got.tolist() == stats.rankdata(R, method="average", axis=1).tolist()
    assert got.tolist() == [[float(x) for x in row] for row in rank_twins.as_midranks(R)]
    # the best position of each tie group (the top-k sets): scipy's "min" rule
    assert (
        as_rankings(R).best_positions.tolist() == stats.rankdata(R, method="min", axis=1).tolist()
    )
    # the midranks are a fixed point, and any tie rule of the same order gives them
    assert as_rankings(got).toarray().tolist() == got.tolist()
    for method in ("min", "max", "dense"):  # ("ordinal" breaks ties: another ranking)
        other = stats.rankdata(R, method=method, axis=1)
        assert as_rankings(other).toarray().tolist() == got.tolist()


def test_scores_rank_largest_first_and_nan_is_last():
    W = np.array([[0.5, 2.0, np.nan, 2.0], [0.0, 0.1, 0.2, 0.3]])
    rk = as_rankings(W, kind="scores")
    assert rk.toarray().tolist() == [[3.0, 1.5, 4.0, 1.5], [4.0, 3.0, 2.0, 1.0]]
    assert rk.scores is not None and np.array_equal(rk.scores, W, equal_nan=True)
    assert as_rankings([[1, np.nan, 2, np.nan], [1, 2, 3, 4]]).toarray()[0].tolist() == [
        1.0,
        3.5,
        2.0,
        3.5,
    ]


def test_dataframe_names_the_features():
    import pandas as pd

    frame = pd.DataFrame([[1, 2, 3], [2, 1, 3]], columns=["a", "b", "c"])
    rk = as_rankings(frame)
    assert rk.feature_names == ("a", "b", "c")
    assert propstab.stability(frame, "spearman") == propstab.stability(
        frame.to_numpy(), "spearman"
    )


def test_top_k_lists_tie_the_rest_and_keep_a_straddling_group_whole():
    R = [[1, 2, 3, 4, 5], [2, 2, 2, 4, 5]]  # run 1: features 0-2 tied at 2
    assert as_rankings(R, top_k=2).toarray().tolist() == [
        [1.0, 2.0, 4.0, 4.0, 4.0],
        [2.0, 2.0, 2.0, 4.5, 4.5],
    ]
    assert as_rankings(R).top_k(2).toarray().astype(int).tolist() == [
        [1, 1, 0, 0, 0],
        [1, 1, 1, 0, 0],
    ]
    assert np.array_equal(as_rankings(R).top_k(2).toarray(), rank_twins.top_k_sets(R, 2))


# --------------------------------------------------------------------- the identity


def test_v_rank_is_the_variance_of_a_uniform_rank_by_enumeration():
    """E[s_f^2] over the d! rankings of each of M runs equals (d^2 - 1)/12 (the sample
    variance is unbiased and the ranks of one feature in independent runs are i.i.d.
    uniform on 1..d): enumerated exactly for small d and M."""
    for d, M in ((2, 2), (3, 2), (3, 3), (4, 2)):
        perms = list(itertools.permutations(range(1, d + 1)))
        total = Fraction(0)
        for runs in itertools.product(perms, repeat=M):
            column = [Fraction(run[0]) for run in runs]
            mean = sum(column) / M
            total += sum((x - mean) ** 2 for x in column) / (M - 1)
        assert total / len(perms) ** M == Fraction(d * d - 1, 12)


@given(
    st.integers(2, 6).flatmap(
        lambda M: st.integers(2, 8).flatmap(
            lambda d: st.lists(st.permutations(range(1, d + 1)), min_size=M, max_size=M)
        )
    )
)
def test_spearman_is_one_minus_mean_rank_variance_over_v_rank(runs):
    """Untied rankings: the mean pairwise rho equals 1 - mean_f s_f^2 / ((d^2 - 1)/12)
    exactly (Nogueira, Sechidis and Brown 2017; thesis sec. 7.2.2)."""
    R = np.array(runs, dtype=float)
    M, d = R.shape
    identity = rank_twins.spearman_by_variances(R)
    assert rank_twins.twin_spearman(R) == identity  # exact, pair by pair
    assert propstab.stability(R, "spearman") == pytest.approx(float(identity), abs=1e-12)
    rk = as_rankings(R)
    V_rank = (d * d - 1) / 12
    assert 1 - rk.rank_variances.mean() / V_rank == pytest.approx(float(identity), abs=1e-12)


def test_identity_with_ties_uses_normalised_ranks():
    """With ties: mean pairwise rho = 1 - sum_f s_f^2(u), u the centred midranks scaled
    to unit length per run; 1 - mean_f s_f^2 / V_rank is then another number."""
    rng = np.random.default_rng(3)
    R = tied_matrix(rng, 6, 7)
    rk = as_rankings(R)
    u = rk.centred / np.sqrt(rk.row_squares)[:, None]
    value = propstab.stability(R, "spearman")
    assert value == pytest.approx(1 - u.var(axis=0, ddof=1).sum(), abs=1e-12)
    assert value == pytest.approx(pair_mean(lambda a, b: stats.spearmanr(a, b)[0], R), abs=1e-12)
    d = R.shape[1]
    assert abs(value - (1 - rk.rank_variances.mean() / ((d * d - 1) / 12))) > 1e-3


# ---------------------------------------------------------- scipy and the literal twins


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_spearman_and_kendall_agree_with_scipy_averaged_over_pairs(ties, seed):
    rng = np.random.default_rng(seed)
    M, d = int(rng.integers(2, 9)), int(rng.integers(2, 12))
    R = (tied_matrix if ties else permutations_matrix)(rng, M, d)
    assert propstab.stability(R, "spearman") == pytest.approx(
        pair_mean(lambda a, b: stats.spearmanr(a, b)[0], R), abs=1e-12
    )
    assert propstab.stability(R, "kendall") == pytest.approx(
        pair_mean(lambda a, b: stats.kendalltau(a, b)[0], R), abs=1e-12
    )


def test_kendall_on_larger_inputs_uses_blocks_and_agrees_with_scipy():
    rng = np.random.default_rng(0)
    R = tied_matrix(rng, 12, 400)
    assert propstab.stability(R, "kendall") == pytest.approx(
        pair_mean(lambda a, b: stats.kendalltau(a, b)[0], R), abs=1e-12
    )


@given(
    st.integers(2, 5).flatmap(
        lambda M: st.integers(2, 6).flatmap(
            lambda d: st.tuples(
                st.lists(
                    st.lists(st.integers(1, d), min_size=d, max_size=d), min_size=M, max_size=M
                ),
                st.integers(1, d),
            )
        )
    )
)
def test_every_ranking_measure_matches_its_literal_twin(case):
    rows, k = case
    R = np.array(rows, dtype=float)
    for name in RANKING:
        options = {"k": k} if name in ("canberra", "top_k") else {}
        expected = rank_twins.twin(name, R, **options)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = propstab.stability(R, name, **options)
        if expected is None:
            assert math.isnan(value), (name, rows)
            assert any(issubclass(w.category, UndefinedMeasureWarning) for w in caught)
        else:
            assert value == pytest.approx(float(expected), abs=1e-12), (name, rows, k)
            assert not caught


# ----------------------------------------------------------------------------- Canberra


def test_canberra_reproduces_the_worked_example_of_jurman_et_al_s_implementation():
    """mlpy's documentation (Jurman et al.'s group): position lists (0-based)
    [[2, 4, 1, 3, 0], [3, 4, 1, 2, 0], [2, 4, 3, 0, 1]], k = 3 -> 0.74862979571499755."""
    positions = np.array([[2, 4, 1, 3, 0], [3, 4, 1, 2, 0], [2, 4, 3, 0, 1]])
    value = propstab.stability(positions + 1, "canberra", k=3)
    assert value == pytest.approx(0.74862979571499755, abs=1e-15)
    assert float(rank_twins.twin_canberra(positions + 1, k=3)) == pytest.approx(value, abs=1e-15)


@pytest.mark.parametrize(
    "d, k", [(2, 2), (3, 1), (5, 3), (10, 10), (10, 3), (50, 7), (200, 200), (1000, 20)]
)
def test_canberra_expectation_against_jurman_closed_form_and_enumeration(d, k):
    E = canberra_expectation(d, k)
    assert E == pytest.approx(rank_twins.jurman_closed_form(d, k), rel=1e-12)
    if d <= 50:
        assert E == pytest.approx(float(rank_twins.canberra_expectation(d, k)), rel=1e-14)


def test_canberra_is_zero_iff_identical_and_its_location_parameter():
    assert propstab.stability([[1, 2, 3], [1, 2, 3]], "canberra") == 0.0
    R = [[1, 2, 3, 4], [1, 2, 4, 3]]  # same top 2, different beyond
    assert propstab.stability(R, "canberra", k=2) == 0.0
    assert propstab.stability(R, "canberra") > 0
    with pytest.raises(ValueError, match="k: must be >= 1 and <= 4 for canberra"):
        propstab.stability(R, "canberra", k=5)


# ----------------------------------------------------------------------------- top-k


def test_top_k_is_nogueira_on_the_top_k_sets():
    rng = np.random.default_rng(1)
    R = tied_matrix(rng, 7, 9)
    for k in (1, 3, 5):
        assert propstab.stability(R, "top_k", k=k) == propstab.stability(
            as_rankings(R).top_k(k), "nogueira"
        )
    assert propstab.stability(R, "top_k") == propstab.stability(
        as_rankings(R).top_k(4), "nogueira"
    )
    with pytest.warns(UndefinedMeasureWarning, match="top_k is undefined"):
        assert math.isnan(propstab.stability([[1, 3, 3, 3], [1, 3, 3, 3]], "top_k", k=2))


# -------------------------------------------------------------------------- undefined


@pytest.mark.parametrize("name", ["spearman", "kendall"])
def test_a_constant_run_makes_a_correlation_undefined(name):
    with pytest.warns(
        UndefinedMeasureWarning,
        match=f"{name} is undefined here: a run " f"ranks every feature equal",
    ):
        assert math.isnan(propstab.stability([[1, 2, 3], [2, 2, 2]], name))


# ------------------------------------------------------------- exact null expectations

PATTERNS = [
    ((1, 2, 3), (1, 2, 3)),
    ((1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)),
    ((1, 2.5, 2.5, 4), (1, 2, 3, 4)),
    ((1.5, 1.5, 3, 4), (1, 3, 3, 3), (2, 2, 2, 4)),
    ((1, 2, 3, 4, 5), (1.5, 1.5, 4, 4, 4)),
]


@pytest.mark.parametrize("patterns", PATTERNS, ids=str)
def test_spearman_and_kendall_are_zero_in_expectation_for_every_tie_pattern(patterns):
    """E[value | H0] = 0 exactly: enumerated over every tuple of distinct permutations
    of the runs' midranks, with the literal twins and with propstab."""
    for name in ("spearman", "kendall"):
        E = rank_twins.expected(rank_twins.TWINS[name], patterns)
        assert float(E) == pytest.approx(0.0, abs=1e-12), name
        mine = rank_twins.expected(lambda R: propstab.stability(R, name), patterns)
        assert mine == pytest.approx(0.0, abs=1e-12), name


def test_canberra_is_one_in_expectation_without_ties_but_not_with_them():
    for d, M in ((3, 2), (4, 3), (5, 2)):
        untied = [tuple(range(1, d + 1))] * M
        for k in range(1, d + 1):
            E = rank_twins.expected(lambda R: rank_twins.twin_canberra(R, k=k), untied)
            assert E == 1, (d, M, k)  # exact, in fractions
    # with ties the normaliser (the untied expectation) is not E[Ca | H0]: exact values
    for tied, E in (
        (((1, 2.5, 2.5, 4), (1, 2.5, 2.5, 4)), Fraction(5238, 5759)),
        (((1, 2.5, 2.5, 4), (1, 2, 3, 4)), Fraction(381283, 380094)),
    ):
        assert rank_twins.expected(lambda R: rank_twins.twin_canberra(R), tied) == E
        mine = rank_twins.expected(lambda R: propstab.stability(R, "canberra"), tied)
        assert mine == pytest.approx(float(E), abs=1e-12)


def test_top_k_is_zero_in_expectation_without_ties():
    for d, M, k in ((4, 2, 2), (4, 3, 1), (5, 2, 2)):
        E = rank_twins.expected(
            lambda R: rank_twins.twin_top_k(R, k=k), [tuple(range(1, d + 1))] * M
        )
        assert E == 0, (d, M, k)


# ------------------------------------------------------ jackknife: kernels vs recomputing


@pytest.mark.parametrize("name", RANKING)
@pytest.mark.parametrize("ties", [False, True])
def test_kernel_leave_one_out_equals_recomputation(name, ties):
    rng = np.random.default_rng(7)
    R = (tied_matrix if ties else permutations_matrix)(rng, 6, 8)
    info = propstab.get_measure(name)
    rk = as_rankings(R)
    fast = leave_one_out(rk, info, {})
    slow = leave_one_out(rk, info, {}, generic=True)
    assert fast == pytest.approx(slow, abs=1e-12)


def test_leave_one_out_with_one_constant_run_is_defined_only_without_it():
    rk = as_rankings([[1, 2, 3], [2, 2, 2], [3, 2, 1], [1, 3, 2]])
    info = propstab.get_measure("spearman")
    loo = leave_one_out(rk, info, {})
    assert np.isnan(loo[[0, 2, 3]]).all()
    assert loo[1] == pytest.approx(
        propstab.stability([[1, 2, 3], [3, 2, 1], [1, 3, 2]], "spearman"), abs=1e-12
    )
