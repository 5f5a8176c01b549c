"""Named properties of Conger's kappa (``conger``), in exact arithmetic.

The derivation (docs/varying_sizes.md): under the thesis's null model (Definition 2,
run i a uniformly random subset of its fixed size k_i) column f's count is a sum of
independent Bernoulli(q_i), q_i = k_i/d, so
E[(1/d) sum_f s_f^2 | H0] = qbar (1 - qbar) + var_pop(q)/(M - 1); ``conger`` divides by
that instead of Nogueira's qbar (1 - qbar). Checked here against the slow twins of
tests/twins.py (Conger's pairwise definition and Definition 3, in fractions):

- E[conger | H0] = 0 exactly, by enumerating every tuple of subsets, for sizes that
  vary (and E[nogueira | H0] is the closed form of propstab.chance.nogueira_expectation);
- conger >= nogueira, with equality exactly when the size is constant (and then the
  fast paths agree bit for bit);
- -1 <= -1/(M - 1) <= conger <= 1, and conger = 1 exactly when all rows are identical;
- its delta-method variance is thesis Thm 6's for a constant size.
"""
import itertools
import math
from fractions import Fraction

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from propstab import as_selection
from propstab.measures._variance import conger_delta, thm6
from propstab.chance import nogueira_expectation
from propstab.measures import conger, nogueira
from propstab.strategies import null_configurations, selection_matrices

from property_settings import AUDIT_EXAMPLES
from twins import twin_conger, twin_nogueira

SETTINGS = settings(max_examples=AUDIT_EXAMPLES, database=None, deadline=None, derandomize=True)
ENUMERATION_LIMIT = 1500  # tuples of subsets per configuration


def _defined(Z) -> bool:
    return 0 < Z.sum() < Z.size


def _small(config) -> bool:
    return (
        math.prod(math.comb(config.n_features, k) for k in config.row_sizes) <= ENUMERATION_LIMIT
    )


def _rows(d, subsets):
    Z = np.zeros((len(subsets), d), dtype=int)
    for i, s in enumerate(subsets):
        Z[i, list(s)] = 1
    return Z


def _null_means(config):
    """E[twin | H0] of conger and nogueira in fractions, by enumeration, and the mean of
    the fast float conger."""
    d, ks = config.n_features, config.row_sizes
    total_c = total_n = Fraction(0)
    fast = []
    count = 0
    for subsets in itertools.product(*(itertools.combinations(range(d), k) for k in ks)):
        Z = _rows(d, subsets)
        total_c += twin_conger(Z.tolist())
        total_n += twin_nogueira(Z.tolist())
        fast.append(conger(Z))
        count += 1
    return total_c / count, total_n / count, math.fsum(fast) / count


@SETTINGS
@given(null_configurations(max_runs=4, max_features=6, subset_sizes="proper").filter(_small))
def test_conger_is_corrected_for_chance_exactly(config):
    """E[conger | H0] = 0 for every M, d and k_1..k_M, by exact enumeration."""
    e_conger, e_nogueira, e_fast = _null_means(config)
    assert e_conger == 0, (config, e_conger)
    assert abs(e_fast) <= 1e-13
    M, d, ks = config.n_runs, config.n_features, config.row_sizes
    N = sum(ks)
    assert e_nogueira == Fraction(-(M * sum(k * k for k in ks) - N * N), (M - 1) * N * (M * d - N))
    assert math.isclose(nogueira_expectation(ks, d), float(e_nogueira), abs_tol=1e-15)
    assert (e_nogueira == 0) == (len(set(ks)) == 1)


def test_conger_null_mean_is_zero_where_nogueira_is_biased():
    """The example of docs/table41.md (M = 2, d = 3, sizes 1 and 2): E[nogueira] = -1/9,
    E[conger] = 0; and a larger one with sizes 1, 2, 4 of d = 5."""
    from propstab.strategies import NullConfiguration

    for config, bias in (
        (NullConfiguration(2, 3, (1, 2)), Fraction(-1, 9)),
        (NullConfiguration(3, 5, (1, 2, 4)), Fraction(-1, 8)),
    ):  # -14/112
        e_conger, e_nogueira, _ = _null_means(config)
        assert (e_conger, e_nogueira) == (0, bias)


@SETTINGS
@given(selection_matrices(max_runs=8, max_features=10))
def test_conger_at_least_nogueira_equal_iff_constant_size(Z):
    assume(_defined(Z))
    exact_c, exact_n = twin_conger(Z.tolist()), twin_nogueira(Z.tolist())
    constant = len(set(Z.sum(axis=1).tolist())) == 1
    assert exact_c >= exact_n
    assert (exact_c == exact_n) == constant
    assert math.isclose(conger(Z), float(exact_c), rel_tol=1e-12, abs_tol=1e-12)
    if constant:  # the same rational, one rounding: bit for bit
        assert conger(Z) == nogueira(Z)


@SETTINGS
@given(selection_matrices(max_runs=8, max_features=10))
def test_conger_bounds_and_maximum(Z):
    """-1 <= -1/(M-1) <= conger <= 1, and conger = 1 iff all rows are identical."""
    assume(_defined(Z))
    M = Z.shape[0]
    exact = twin_conger(Z.tolist())
    assert Fraction(-1, M - 1) <= exact <= 1
    identical = bool((Z == Z[0]).all())
    assert (exact == 1) == identical
    assert (conger(Z) == 1.0) == identical


@SETTINGS
@given(selection_matrices(subset_sizes="proper_constant", min_runs=2, max_runs=8, max_features=10))
def test_conger_variance_is_thm6_for_a_constant_size(Z):
    sel = as_selection(Z)
    v_c, _, f_c = conger_delta(sel, conger(sel))
    v_n, _, f_n = thm6(sel, nogueira(sel))
    assert f_c == f_n
    assert math.isclose(v_c, v_n, rel_tol=1e-9, abs_tol=1e-15)


@st.composite
def _size_vectors(draw):
    M = draw(st.integers(2, 6))
    d = draw(st.integers(2, 9))
    return d, draw(st.lists(st.integers(0, d), min_size=M, max_size=M))


@SETTINGS
@given(_size_vectors())
def test_nogueira_expectation_matches_poisson_binomial_columns(args):
    """The closed form against E[s_f^2] computed from the Poisson-binomial law of a
    column count (propstab.chance.column_count_pmf), independently of the algebra."""
    from propstab.chance import column_count_pmf

    d, ks = args
    M, N = len(ks), sum(ks)
    assume(0 < N < M * d)
    pmf = column_count_pmf(ks, d)
    F = np.arange(M + 1)
    mean_s2 = float(np.dot(pmf, F * (M - F))) / (M * (M - 1))  # E[s_f^2]
    qbar = N / (M * d)
    assert math.isclose(
        1 - mean_s2 / (qbar * (1 - qbar)), nogueira_expectation(ks, d), rel_tol=1e-9, abs_tol=1e-12
    )
