"""The overlap (Szymkiewicz-Simpson) coefficient: its values, its R value, its slow twin.

Added by docs/contributing.md alone: ``propstab/measures/pairwise.py`` and this file.
The twin below is the measure's definition literally (frozensets, ``Fraction``);
tests/twins.py finds it here (``@twins.slow_twin``), so tests/test_slow_twins.py,
tests/evidence.py and properties/test_axioms.py use it like the others.
"""
import os
import shutil
from fractions import Fraction

import numpy as np
import pytest

import shared  # tests/shared.py: processes under a timeout

import propstab
from propstab import Axiom, UndefinedMeasureWarning
from propstab.measures import overlap_coefficient

import twins  # tests/ is on sys.path (rootdir-relative import mode)

NAME = "overlap_coefficient"


@twins.slow_twin(NAME, similarity=True)
def sim_overlap_coefficient(a, b, d):
    """Szymkiewicz (1934), Simpson (1943): |a ∩ b| / min(|a|, |b|); undefined for an
    empty run."""
    if not a or not b:
        return None
    return Fraction(len(a & b), min(len(a), len(b)))


def test_exact_value_by_hand():
    """Runs {0,1,2}, {0,1}, {2,3} of d = 5: the pairs score 2/2, 1/2 and 0/2, so the mean
    over pairs is (1 + 1/2 + 0)/3 = 1/2; with the twin, in fractions."""
    Z = [[1, 1, 1, 0, 0], [1, 1, 0, 0, 0], [0, 0, 1, 1, 0]]
    assert overlap_coefficient(Z) == 0.5
    assert twins.twin(NAME, Z) == Fraction(1, 2)
    assert propstab.stability([[0, 1, 2], [0, 1], [2, 3]], NAME, n_features=5) == 0.5


def test_nested_runs_score_the_maximum_and_empty_runs_are_undefined():
    assert overlap_coefficient([[1, 1, 1, 0], [0, 1, 0, 0], [1, 1, 0, 0]]) == 1.0
    with pytest.warns(UndefinedMeasureWarning, match="a run is empty"):
        assert np.isnan(overlap_coefficient([[1, 0, 0], [0, 0, 0]]))


def test_equals_dice_ochiai_and_pog_at_a_constant_size():
    """With |s_i| = k for every run, r_ij / min(k, k) = 2 r_ij / 2k = r_ij / sqrt(k k)."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        Z = twins.random_subsets(rng, 6, 9, 4)
        value = overlap_coefficient(Z)
        for other in ("dice", "ochiai", "pog"):
            assert value == pytest.approx(propstab.stability(Z, other), rel=1e-14)


def test_declared_claims_and_the_audit_agree():
    """MAXIMUM and MONOTONICITY disclaimed (nested runs score 1; pair weights 1/min(k_i,
    k_j) differ), the others claimed; the audit reproduces each verdict."""
    info = propstab.get_measure(NAME)
    assert info.claimed_axioms == (Axiom.FULLY_DEFINED, Axiom.BOUNDS)
    table = propstab.audit(NAME, max_examples=40)
    assert [table.status(NAME, a) for a in Axiom] == [
        "holds",
        "refuted",
        "holds",
        "refuted",
        "refuted",
    ]
    # MONOTONICITY: sizes (2, 2, 1), d = 4, the same total intersection 1, spread over
    # different pairs: (1/2)/3 against 1/3
    Z1 = [[1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 1]]
    Z2 = [[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0]]
    assert twins.total_variance(Z1) == twins.total_variance(Z2)
    assert (twins.twin(NAME, Z1), twins.twin(NAME, Z2)) == (Fraction(1, 6), Fraction(1, 3))


#: Base R, from the definition: the mean over ordered pairs of runs i != j of
#: |s_i ∩ s_j| / min(|s_i|, |s_j|) (Z one run per row); and stabm's Dice at a constant size.
R_CODE = """
overlap <- function(Z) {
  M <- nrow(Z); s <- 0
  for (i in 1:M) for (j in 1:M) if (i != j)
    s <- s + sum(Z[i, ] & Z[j, ]) / min(sum(Z[i, ]), sum(Z[j, ]))
  s / (M * (M - 1))
}
Z <- matrix(c(%s), nrow = %d, byrow = TRUE)
cat(sprintf("%%.17g", overlap(Z)), "\\n")
C <- matrix(c(%s), nrow = %d, byrow = TRUE)
cat(sprintf("%%.17g", overlap(C)),
    sprintf("%%.17g", stabm::stabilityDice(lapply(1:nrow(C), function(i) which(C[i, ] == 1)),
                                          p = ncol(C))), "\\n")
"""


def test_r_values():
    if shutil.which("Rscript") is None:
        if os.environ.get("PROPSTAB_SKIP_R") == "1":
            pytest.skip("PROPSTAB_SKIP_R=1: R not checked")
        pytest.fail("Rscript not found; set PROPSTAB_SKIP_R=1 to skip", pytrace=False)
    Z = twins.random_subsets(np.random.default_rng(5), 7, 11, [1, 3, 5, 2, 4, 6, 3]).astype(int)
    C = twins.random_subsets(np.random.default_rng(6), 5, 8, 3).astype(int)
    code = R_CODE % (
        ", ".join(map(str, Z.ravel())),
        Z.shape[0],
        ", ".join(map(str, C.ravel())),
        C.shape[0],
    )
    out = shared.run(
        ["Rscript", "-e", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout.split()
    r_varying, r_constant, r_dice = map(float, out)
    assert overlap_coefficient(Z) == pytest.approx(r_varying, rel=1e-13)
    assert overlap_coefficient(C) == pytest.approx(r_constant, rel=1e-13)
    assert overlap_coefficient(C) == pytest.approx(r_dice, rel=1e-13)  # stabm
