"""The axiom audit of the correlated measures, pinned with exact arithmetic.

A correlated measure's declaration holds for EVERY admissible similarity matrix C (and
importance matrix): the audit draws C (and importance weights) with each example
(``search_in_contexts`` in propstab/auditing/_subjects.py). Every cell of the final table (docs/table41.md,
"Correlated feature spaces") is pinned here: each refutation by its minimal counterexample
with the values recomputed in fractions (slow literal twins of the definitions), each
claim by the audit and, for CORRECTION_FOR_CHANCE, by exact enumeration of H0 with a
non-trivial C.
"""
import itertools
import math
import warnings
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

import propstab
from propstab import Axiom, UndefinedMeasureWarning, list_measures
from propstab import measures as pm
from propstab.auditing._examples import CONTEXT_FAMILIES
from propstab.auditing._expectations import null_expectation
from propstab.auditing._subjects import Context
from propstab._data.convert_matrices import as_similarity
from propstab.auditing import (
    CHECKS,
    audit,
    audited_subjects,
    check_bounds,
    check_correction_for_chance,
    check_maximum,
    subject,
)
from propstab.measures.correlated import MonteCarloWarning
from propstab.strategies import (
    REPRODUCIBLE,
    NullConfiguration,
    importance_weights,
    similarity_matrices,
)

from twins import subsets, total_variance  # tests/ is on sys.path (rootdir-relative mode)
from twins import twin_sechidis as sechidis_twin

import shared

_ROOT = shared.STUDIES.parent
#: The audit's checks shared with the property suite and the site (one computation each
#: per test run), at the property suite's number of examples.
shared_audit = shared.load_script(
    _ROOT / "docs" / "_ext" / "shared_audit.py", "shared_audit", reuse=True
)
AUDIT_EXAMPLES = shared.load_script(
    _ROOT / "properties" / "property_settings.py", "property_settings", reuse=True
).AUDIT_EXAMPLES


FD, MONO, BND, MAX, CORR = list(Axiom)
CORRELATED = [m.name for m in list_measures(family="correlated")]


def rows(d, *sets):
    Z = np.zeros((len(sets), d), dtype=bool)
    for i, s in enumerate(sets):
        Z[i, list(s)] = True
    return Z


def groups(*labels):
    g = np.asarray(labels)
    return (g[:, None] == g[None, :]).astype(float)


# ---------------------------------------------------------------- slow literal twins


def similar(C, threshold):
    return [
        [f != g and C[f][g] >= threshold and C[f][g] > 0 for g in range(len(C))]
        for f in range(len(C))
    ]


def overlap(A, B, sim):
    """O_AB: features of A minus B with a similar feature in B minus A (Zhang; stabm)."""
    return sum(1 for x in A - B if any(sim[x][y] for y in B - A))


def yu_pair(A, B, sim, d):
    """stabm's stabilityYu for one pair, the null expectation by enumeration."""

    def I(a, b):
        return len(a & b) + Fraction(overlap(a, b, sim) + overlap(b, a, sim), 2)

    pairs = [(a, b) for a in subsets(d, len(A)) for b in subsets(d, len(B))]
    E = sum(I(a, b) for a, b in pairs) / len(pairs)
    return (I(A, B) - E) / (Fraction(len(A) + len(B), 2) - E)


def npogr_pair(A, B, sim, d):
    """(|A ∩ B| + O_AB - E) / (|A| - E), E = E[|A ∩ B| + O_AB | H0] by enumeration, O_AB
    the features of A minus B similar to a feature of B (Zhang et al.; Hamer eq. 4)."""

    def I(a, b):
        return len(a & b) + sum(1 for x in a - b if any(sim[x][y] for y in b))

    pairs = [(a, b) for a in subsets(d, len(A)) for b in subsets(d, len(B))]
    E = Fraction(sum(I(a, b) for a, b in pairs), len(pairs))
    return (I(A, B) - E) / (len(A) - E)


# ---------------------------------------------------------------- the final table


def test_the_audit_of_every_correlated_row_follows_its_claims():
    """Every cell settled, as declared: each claim of a correlated measure (and of its
    variants: with the exact null expectation the adjusted intersections are corrected
    for chance) holds and each disclaimer is refuted, nothing unrefuted. The expected
    statuses derive from the registry's claims; the table of docs/table41.md is compared
    with the registry once, in tests/test_audit.py (the change detector). The evidence for
    each refuted cell is pinned below with exact arithmetic, sechidis's also by
    properties/test_axioms.py (tests/evidence.py).

    The checks are the property suite's (``CHECKS[axiom](subject, max_examples=40,
    seed=0)``), each computed once per test run by whichever of this test, the property
    suite and the site's catalogue reaches it first (docs/_ext/shared_audit.py)."""
    folder = shared_audit.run_folder(AUDIT_EXAMPLES, 0)
    subjects = audited_subjects(CORRELATED)
    got = {
        s.name: tuple(
            shared_audit.check(folder, s, a, max_examples=AUDIT_EXAMPLES, seed=0).status
            for a in Axiom
        )
        for s in subjects
    }
    expected = {
        s.name: tuple("holds" if s.claims[a] else "refuted" for a in Axiom) for s in subjects
    }
    assert len(expected) > len(CORRELATED)  # variants too
    assert got == expected


def test_counterexamples_carry_their_similarity():
    table = audit("msi", max_examples=20, axioms=["maximum"])
    r = table.result("msi", "maximum")
    assert r.counterexample.astype(int).tolist() == [[1, 0, 0], [0, 1, 0]]
    assert r.context.similarity.tolist() == groups(0, 0, 1).tolist()
    assert r.to_dict()["context"]["similarity"] == groups(0, 0, 1).tolist()
    assert "with C = [[1, 1, 0], [1, 1, 0], [0, 0, 1]]" in str(table)
    plain = audit("nogueira", max_examples=10, axioms=["correction"])
    assert "context" not in plain.rows[0].to_dict()  # other families: unchanged


def test_only_measures_reading_a_similarity_or_importances_draw_one():
    reads = {s.name: s.reads for s in audited_subjects()}
    assert reads["sechidis"] == {"similarity"}
    assert reads["msi"] == {"similarity", "importances"}
    assert reads["pearson"] == {"importances"}
    assert all(not reads[m.name] for m in list_measures() if m.family != "correlated")


# ---------------------------------------------------------------- claims: power of the search


def test_a_wrong_claim_is_caught_with_its_similarity():
    r = check_maximum("msi", claimed=True, max_examples=20)
    assert r.status == "violated" and r.context is not None
    r = check_bounds("sechidis", claimed=True, max_examples=5)
    assert r.status == "violated"  # [-inf, inf]: no constants
    r = check_correction_for_chance("intersection_count", claimed=True, max_examples=10)
    assert r.status == "violated"


def test_yu_is_corrected_for_chance_exactly_for_a_general_similarity():
    """The claim, checked by exact enumeration against a fraction twin: every value of
    yu on M = 2, d = 4, sizes (2, 1) with a non-trivial C equals the twin, and the twin's
    E[value | H0] is exactly 0."""
    C = np.array([[1, 0.95, 0, 0.3], [0.95, 1, 0.92, 0], [0, 0.92, 1, 0], [0.3, 0, 0, 1]])
    sim = similar(C.tolist(), 0.9)
    d, total, n = 4, Fraction(0), 0
    for A in subsets(d, 2):
        for B in subsets(d, 1):
            twin = yu_pair(A, B, sim, d)
            assert pm.yu(rows(d, A, B), similarity=C) == pytest.approx(float(twin), abs=1e-12)
            total, n = total + twin, n + 1
    assert total / n == 0
    e = null_expectation(
        subject("yu").bind(Context(similarity=C)), NullConfiguration(2, 4, (2, 1)), {}
    )
    assert e.value == pytest.approx(0, abs=1e-12)


def test_npogr_is_corrected_for_chance_exactly_for_a_general_similarity():
    C = groups(0, 0, 1, 1, 2)
    sim = similar(C.tolist(), 0.9)
    d, total, n = 5, Fraction(0), 0
    for A in subsets(d, 2):
        for B in subsets(d, 1):
            twin = (npogr_pair(A, B, sim, d) + npogr_pair(B, A, sim, d)) / 2
            assert pm.npogr(rows(d, A, B), similarity=C) == pytest.approx(float(twin), abs=1e-12)
            total, n = total + twin, n + 1
    assert total / n == 0


# ---------------------------------------------------------------- refutations, exactly

J2 = np.ones((2, 2))


@pytest.mark.parametrize(
    "name",
    [
        "sechidis",
        "yu",
        "npogr",
        "intersection_count",
        "intersection_mean",
        "intersection_greedy",
        "intersection_mbm",
    ],
)
def test_fully_defined_fails_on_a_complete_similarity_graph(name):
    """Z = [{0}, {1}], C = all ones: the null expectation equals the maximum (0/0);
    for sechidis tr(C Sigma0) = 0."""
    with pytest.warns(UndefinedMeasureWarning):
        v = getattr(pm, name)(rows(2, [0], [1]), similarity=J2)
    assert math.isnan(v)


def test_sechidis_monotonicity_and_yu_matching_monotonicity():
    """Equal total variance 1, values 1 and -5/4 (sechidis), 1 and 0 (yu_matching)."""
    C = groups(0, 0, 1)
    Z1, Z2 = rows(3, [0], [1]), rows(3, [0], [2])
    assert total_variance(Z1) == total_variance(Z2) == 1
    assert sechidis_twin(Z1, C) == 1 and sechidis_twin(Z2, C) == Fraction(-5, 4)
    assert pm.sechidis(Z1, similarity=C) == pytest.approx(1, abs=1e-12)
    assert pm.sechidis(Z2, similarity=C) == pytest.approx(-1.25, abs=1e-12)
    assert pm.yu_matching(Z1, similarity=C) == 1 and pm.yu_matching(Z2, similarity=C) == 0


def test_identity_similarity_monotonicity_counterexamples():
    """The minimal pair at C = I: Z1 = [1111 0, 10000, 00001], Z2 = [11110, 00001, 00001],
    total variance 5/3 both. msi = mean of r/max(k_i, k_j): 1/12 and 1/3; pogr = mean of
    r/k_i over ordered pairs: 5/24 and 1/3; intersection_*: (r - k_i k_j/d)/sqrt(k_i k_j)
    - ...: -1/4 and -1/9."""
    Z1 = rows(5, range(4), [0], [4])
    Z2 = rows(5, range(4), [4], [4])
    assert total_variance(Z1) == total_variance(Z2) == Fraction(5, 3)
    assert pm.msi(Z1) == pytest.approx(1 / 12) and pm.msi(Z2) == pytest.approx(1 / 3)
    assert pm.pogr(Z1) == pytest.approx(5 / 24) and pm.pogr(Z2) == pytest.approx(1 / 3)

    def adjusted(Z):  # without similar features I = r and E[I|H0] = k_i k_j / d
        k, d, out = Z.sum(axis=1).tolist(), Z.shape[1], []
        for i, j in itertools.combinations(range(3), 2):
            r, E = int((Z[i] & Z[j]).sum()), Fraction(k[i] * k[j], d)
            out.append((r - E) / (Fraction(math.isqrt(k[i] * k[j])) - E))
        return sum(out) / 3

    assert adjusted(Z1) == Fraction(-1, 4) and adjusted(Z2) == Fraction(-1, 9)
    for name in (
        "intersection_count",
        "intersection_mean",
        "intersection_greedy",
        "intersection_mbm",
    ):
        assert getattr(pm, name)(Z1) == pytest.approx(-0.25, abs=1e-12)
        assert getattr(pm, name)(Z2) == pytest.approx(-1 / 9, abs=1e-12)


@pytest.mark.parametrize("n", [2, 3, 4, 8, 16, 32])
def test_sechidis_is_unbounded_both_ways(n):
    """isolated_feature: Phi_C = 1 - (n + 1)^2 / (2n) -> -inf; without_matching (C = all
    ones minus a perfect matching, not PSD): Phi_C = 4n - 1 -> +inf."""
    below, above = CONTEXT_FAMILIES
    Z, C = below.build(n), below.context(n).similarity
    assert sechidis_twin(Z, C) == 1 - Fraction((n + 1) ** 2, 2 * n)
    assert pm.sechidis(Z, similarity=C) == pytest.approx(1 - (n + 1) ** 2 / (2 * n), rel=1e-12)
    if n % 2 == 0:
        Z, C = above.build(n), above.context(n).similarity
        assert np.linalg.eigvalsh(C).min() < 0
        if n <= 8:
            assert sechidis_twin(Z, C) == 4 * n - 1
        assert pm.sechidis(Z, similarity=C) == pytest.approx(4 * n - 1, rel=1e-9)


def test_sechidis_is_at_most_one_for_psd_similarities():
    """With a positive semi-definite C, tr(C S) >= 0 (S is a covariance), so Phi_C <= 1,
    with 1 on identical rows. The validator accepts any symmetric C in [0, 1] with unit
    diagonal, PSD or not, so the declaration cannot claim [., 1] (without_matching above).
    PSD examples: the Laplace kernel exp(-|x_f - x_g|) and 0/1 group matrices."""
    rng = np.random.default_rng(0)
    for _ in range(30):
        x = rng.normal(size=6)
        kernel = np.exp(-np.abs(x[:, None] - x[None, :]))
        block = groups(*rng.integers(0, 3, size=6))
        Z = rng.random((4, 6)) < 0.5
        Z[:, 0], Z[:, 1] = True, False
        for C in (kernel, block):
            assert np.linalg.eigvalsh(C).min() > -1e-12
            assert pm.sechidis(Z, similarity=C) <= 1 + 1e-12
            assert pm.sechidis(Z[[0, 0, 0]], similarity=C) == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("n", [2, 4, 8, 16])
def test_yu_and_the_stabm_intersections_are_unbounded_below(n):
    """isolated_feature: E[I | H0] = 1 - 2n/(n + 1)^2 for two singletons over d = n + 1,
    I = 0, so yu = -(n^2 + 1)/(2n) exactly; the stabm intersections simulate E and follow
    it within Monte Carlo error (at 10^4 draws with random_state=0 about 7 % above the
    exact value at n = 16; 0.4 % at 2 x 10^5 draws)."""
    below = CONTEXT_FAMILIES[0]
    Z, C = below.build(n), below.context(n).similarity
    sim = similar(C.tolist(), 0.9)
    exact = -Fraction(n * n + 1, 2 * n)
    assert yu_pair(frozenset([0]), frozenset([1]), sim, n + 1) == exact
    assert pm.yu(Z, similarity=C) == pytest.approx(float(exact), rel=1e-12)
    for name in (
        "intersection_count",
        "intersection_mean",
        "intersection_greedy",
        "intersection_mbm",
    ):
        with warnings.catch_warnings():  # the error is reported (and within 10 %)
            warnings.simplefilter("ignore", MonteCarloWarning)
            v = getattr(pm, name)(Z, similarity=C)
        assert v == pytest.approx(float(exact), rel=0.1)


@pytest.mark.parametrize(
    "name",
    [
        "msi",
        "yu_matching",
        "yu",
        "zucknick",
        "pogr",
        "npogr",
        "intersection_count",
        "intersection_mean",
        "intersection_greedy",
        "intersection_mbm",
    ],
)
def test_different_rows_reach_the_maximum_when_c_links_them(name):
    """Z = [{0}, {1}], features 0 and 1 fully similar, feature 2 not: every similarity-aware
    measure is 1 (msi: Hamer Property 5.3's condition holds for different rows), so
    'maximum iff identical rows' fails."""
    assert getattr(pm, name)(rows(3, [0], [1]), similarity=groups(0, 0, 1)) == pytest.approx(
        1, abs=1e-12
    )


def test_sechidis_has_no_maximum():
    """Identical rows give 1 but the values are unbounded above (4n - 1 above): the
    declared most-stable value is +inf and is never reached."""
    assert pm.sechidis(rows(2, [0], [0])) == 1
    assert check_maximum("sechidis", max_examples=5).values == (1.0, math.inf)


def test_pearson_maximum_fails_with_unequal_importances():
    """Identical rows [110, 110] with importances (1, 1) and (1, 2): the correlation is
    sqrt(3)/2 (its square is 3/4 exactly), not the maximum 1."""
    Z = rows(3, [0, 1], [0, 1])
    W = np.array([[1.0, 1.0, 0.0], [1.0, 2.0, 0.0]])
    a, b = [Fraction(1), Fraction(1), Fraction(0)], [Fraction(1), Fraction(2), Fraction(0)]
    ma, mb = sum(a) / 3, sum(b) / 3
    num = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    den2 = sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b)
    assert num > 0 and num * num / den2 == Fraction(3, 4)
    assert pm.pearson(Z, importances=W) == pytest.approx(math.sqrt(3) / 2, abs=1e-12)


def test_pearson_is_not_corrected_for_chance_with_importances():
    """M = 2, d = 3, k = (2, 2), importance weights (1, 2, 1): E[value | H0] = (4 - 2 sqrt 3)/9
    (three identical pairs score 1, two pairs 1/2, four pairs -sqrt(3)/2), not 0 (= its value
    with equal importances, where it is phi)."""
    getcontext().prec = 40
    U = np.array([[1.0, 2.0, 1.0]] * 2)
    values = [
        pm.pearson(rows(3, A, B), importances=rows(3, A, B) * U)
        for A in subsets(3, 2)
        for B in subsets(3, 2)
    ]
    exact = (4 - 2 * Decimal(3).sqrt()) / 9
    assert math.fsum(values) / 9 == pytest.approx(float(exact), abs=1e-14)
    assert float(exact) == pytest.approx(0.0595443, abs=1e-7)
    e = null_expectation(
        subject("pearson").bind(Context(weights=U)), NullConfiguration(2, 3, (2, 2)), {}
    )
    assert e.value == pytest.approx(float(exact), abs=1e-14)


def test_msi_is_not_corrected_for_chance():
    """At C = I, equal importances, two singletons: S = [same], E = 1/d (1/2 at d = 2,
    1/3 at d = 3); with importance weights (1, 2, 1), k = (2, 2), d = 3: E = 17/27."""
    for d in (2, 3):
        vals = [pm.msi(rows(d, A, B)) for A in subsets(d, 1) for B in subsets(d, 1)]
        assert math.fsum(vals) / d**2 == pytest.approx(1 / d)
    U = np.array([[1.0, 2.0, 1.0]] * 2)
    # shares q = w / sum(w); S = sum_f min(q_if, q_jf) at C = I
    total = Fraction(0)
    for A in subsets(3, 2):
        for B in subsets(3, 2):
            wa = {f: Fraction(int(U[0, f])) for f in A}
            wb = {f: Fraction(int(U[1, f])) for f in B}
            qa = {f: w / sum(wa.values()) for f, w in wa.items()}
            qb = {f: w / sum(wb.values()) for f, w in wb.items()}
            total += sum(min(qa[f], qb[f]) for f in A & B)
            assert pm.msi(rows(3, A, B), importances=rows(3, A, B) * U) == pytest.approx(
                float(sum(min(qa[f], qb[f]) for f in A & B)), abs=1e-9
            )
    assert total / 9 == Fraction(17, 27)


def test_stabm_intersections_are_corrected_only_up_to_monte_carlo_error():
    """M = 2, d = 3, k = (1, 1), C links features 0 and 1: E[I | H0] = 1/3 + 2/9 = 5/9
    exactly, the simulated estimate E' differs, and the exact mean over H0 of
    (I - E')/(1 - E') is (5/9 - E')/(1 - E') != 0 (about -0.001 at stabm's 10^4 draws);
    with E' = 5/9 it would be 0."""
    C = groups(0, 0, 1)
    for name in (
        "intersection_count",
        "intersection_mean",
        "intersection_greedy",
        "intersection_mbm",
    ):
        f = getattr(pm, name)
        with pytest.warns(MonteCarloWarning):  # the error it leaves, reported
            v0 = f(rows(3, [0], [2]), similarity=C)  # I = 0: -E'/(1 - E')
        E_sim = v0 / (v0 - 1)
        assert E_sim != pytest.approx(5 / 9, abs=1e-9)
        assert abs(E_sim - 5 / 9) < 0.02  # 4 standard errors at 10^4
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MonteCarloWarning)
            values = [f(rows(3, A, B), similarity=C) for A in subsets(3, 1) for B in subsets(3, 1)]
        mean = math.fsum(values) / 9
        assert mean == pytest.approx((5 / 9 - E_sim) / (1 - E_sim), abs=1e-12)
        assert mean != pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize("name", ["yu_matching", "zucknick", "pogr"])
def test_identity_null_expectation_depends_on_d(name):
    """Two singletons: each score is [same feature], E = 1/d: 1/2 at d = 2, 1/3 at d = 3."""
    for d in (2, 3):
        vals = [getattr(pm, name)(rows(d, A, B)) for A in subsets(d, 1) for B in subsets(d, 1)]
        assert math.fsum(vals) / d**2 == pytest.approx(1 / d)


# ---------------------------------------------------------------- the claims that hold


@settings(REPRODUCIBLE, max_examples=60)
@given(st.data())
def test_bounded_measures_stay_in_bounds_for_any_similarity_and_importances(data):
    """Hamer Property 5.1 (msi), zucknick's AM-GM bound, POGR's r + O <= k_i, a matching's
    weight <= k, |Pearson| <= 1: for every drawn Z, C and importance weights."""
    M, d = data.draw(st.integers(2, 4)), data.draw(st.integers(2, 6))
    Z = np.asarray(
        data.draw(
            st.lists(st.lists(st.booleans(), min_size=d, max_size=d), min_size=M, max_size=M)
        )
    )
    Z[:, 0], Z[:, 1] = True, False  # proper sizes
    C = data.draw(similarity_matrices(d))
    U = data.draw(importance_weights(M, d, equal=False))
    W = Z * U
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for v in (
            pm.msi(Z, similarity=C, importances=W),
            pm.zucknick(Z, similarity=C),
            pm.pogr(Z, similarity=C),
        ):
            assert -1e-12 <= v <= 1 + 1e-12
        assert -1 - 1e-12 <= pm.pearson(Z, importances=W) <= 1 + 1e-12


# ---------------------------------------------------------------- strategies


@settings(REPRODUCIBLE, max_examples=50)
@given(st.integers(1, 6).flatmap(lambda d: similarity_matrices(d)))
def test_similarity_matrices_are_admissible(C):
    d = C.shape[0]
    assert C.shape == (d, d) and (C == C.T).all() and (np.diag(C) == 1).all()
    assert ((0 <= C) & (C <= 1)).all()
    assert np.array_equal(as_similarity(C, d).toarray(), C)


def test_similarity_matrices_cover_every_kind():
    from hypothesis import find

    once = REPRODUCIBLE
    assert np.array_equal(find(similarity_matrices(3), lambda C: True, settings=once), np.eye(3))
    block = find(similarity_matrices(4), lambda C: C[0, 1] == 1 and C[0, 2] == 0, settings=once)
    assert set(np.unique(block)) == {0.0, 1.0}
    general = find(similarity_matrices(3), lambda C: ((C > 0) & (C < 1)).any(), settings=once)
    assert ((general > 0) & (general < 1)).any()
    with pytest.raises(InvalidArgument, match="kinds"):
        find(similarity_matrices(3, kinds=["psd"]), lambda C: True, settings=once)


@settings(REPRODUCIBLE, max_examples=30)
@given(importance_weights(3, 4, equal=False))
def test_importance_weights_are_positive(U):
    assert U.shape == (3, 4) and (U > 0).all() and np.isfinite(U).all()


def test_every_check_accepts_a_correlated_subject():
    for a, check in CHECKS.items():
        assert check("pogr", max_examples=5).axiom is a
