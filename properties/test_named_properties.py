"""Named properties of Nogueira's estimator, on generated selection matrices.

- thesis App. B.6: Phi-hat >= -1/(M-1), attained;
- thesis Thm 5: Phi-hat equals Fleiss' kappa of the d subjects (features) rated by the
  M raters (runs) into 2 categories, as computed by statsmodels;
- thesis Thm 4: for a constant subset size, Phi-hat equals Kuncheva's, Wald's and
  nPOG's measures.
"""
import math
from fractions import Fraction

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from propstab.measures import kuncheva, nogueira, npog, wald
from propstab.strategies import REPRODUCIBLE, selection_matrices

from property_settings import AUDIT_EXAMPLES
from statsmodels.stats import inter_rater
from twins import twin_nogueira

# propstab's one settings object: the same examples on every run (CI must not be flaky)
SETTINGS = settings(REPRODUCIBLE, max_examples=AUDIT_EXAMPLES)


def _defined(Z) -> bool:
    """Phi-hat is defined unless every run is empty or every run is full (k̄ = 0 or d)."""
    return 0 < Z.sum() < Z.size


def _slow_nogueira(Z) -> Fraction:
    """Definition 3 literally, in exact arithmetic (the slow twin of tests/twins.py)."""
    exact = twin_nogueira(Z)
    assert exact is not None, "called on a matrix where Phi-hat is undefined"
    return exact


@SETTINGS
@given(selection_matrices(max_runs=8, max_features=10))
def test_nogueira_lower_bound(Z):
    assume(_defined(Z))
    M = Z.shape[0]
    exact = _slow_nogueira(Z)
    assert exact >= Fraction(-1, M - 1)
    assert math.isclose(nogueira(Z), float(exact), rel_tol=1e-12, abs_tol=1e-12)


@st.composite
def partitions(draw):
    """Z whose M runs partition the d features into M non-empty blocks (k̄ = d/M)."""
    M = draw(st.integers(2, 8))
    d = draw(st.integers(M, 12))
    labels = draw(
        st.permutations(
            list(range(M)) + draw(st.lists(st.integers(0, M - 1), min_size=d - M, max_size=d - M))
        )
    )
    return np.array([[label == i for label in labels] for i in range(M)])


@SETTINGS
@given(partitions())
def test_nogueira_lower_bound_is_attained(Z):
    """Each feature selected exactly once and N = d: Phi-hat = -1/(M-1) (App. B.6)."""
    M = Z.shape[0]
    assert _slow_nogueira(Z) == Fraction(-1, M - 1)
    assert math.isclose(nogueira(Z), -1 / (M - 1), rel_tol=1e-12)


@SETTINGS
@given(selection_matrices(max_runs=8, max_features=10))
def test_nogueira_equals_fleiss_kappa(Z):
    assume(_defined(Z))
    M = Z.shape[0]
    F = Z.sum(axis=0)
    table = np.column_stack([F, M - F])  # d subjects x 2 categories
    assert math.isclose(
        nogueira(Z), inter_rater.fleiss_kappa(table, method="fleiss"), rel_tol=1e-9, abs_tol=1e-12
    )


@SETTINGS
@given(selection_matrices(subset_sizes="proper_constant", max_runs=8, max_features=10))
def test_kuncheva_identities(Z):
    """Thesis Thm 4: for a constant size k in 1..d-1, Kuncheva = Wald = nPOG = Phi-hat."""
    phi = nogueira(Z)
    for other in (kuncheva, wald, npog):
        assert math.isclose(other(Z), phi, rel_tol=1e-9, abs_tol=1e-12), other.__name__
