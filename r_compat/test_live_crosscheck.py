"""The live cross-check: propstab against R (stabm 1.2.2, irr 0.85) through rpy2.

Every test here uses the ``r_live`` fixture (r_compat/conftest.py): without R and
the reference packages these tests FAIL, unless PROPSTAB_SKIP_R=1 opts out.
Each documented stabm defect (propstab.r.EXPECTED_DIFFERENCES, attached to the registry
entries of the measures it concerns) is pinned by a test below.
"""
import dataclasses
import json
import math
import pickle
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import sparse

import propstab
from propstab import UndefinedMeasureWarning
from propstab._utils.exceptions import RReferenceError
from propstab.r import (
    EXPECTED_DIFFERENCES,
    call_r,
    call_reference,
    crosscheck,
    fleiss_kappa_r,
    reference_value,
    to_r_features,
    to_r_similarity,
)
from propstab.r import _crosscheck as cc
from propstab.r import _evaluation as cc_evaluation

import twins  # tests/twins.py (r_compat/conftest.py puts tests/ on sys.path)

pytestmark = pytest.mark.usefixtures("r_live", "r_values_once")

MAX_EXAMPLES = 25
CROSS_CHECKED = [m.name for m in propstab.list_measures() if m.r_reference is not None]


_R_VALUES = {}  # (measure, Z's and the options' pickles) -> R's RValue, this module


@pytest.fixture
def r_values_once(request, monkeypatch):
    """The cross-check's R reference values computed once per distinct case in this module.

    The same generated case comes back within a search (Hypothesis replays and shrinks to
    equal cases) and across tests (the same seed generates the same first cases; the docs'
    and the CLI's examples repeat the parametrised runs): R's value, deterministic for a
    given case (stochastic options such as stabm's "estimate" are never generated), is
    read from here the second time; every propstab value is still computed. A failing R
    call is not stored. The reproducibility test of the report calls R every time."""
    if request.node.get_closest_marker("r_every_time"):
        return
    compute = cc_evaluation.reference_value

    def once(measure, Z, /, **options):
        try:
            key = (measure, pickle.dumps((Z, sorted(options.items()))))
        except (pickle.PicklingError, TypeError, AttributeError):
            return compute(measure, Z, **options)
        if key not in _R_VALUES:
            _R_VALUES[key] = compute(measure, Z, **options)
        return _R_VALUES[key]

    monkeypatch.setattr(cc_evaluation, "reference_value", once)


def _registered(name):
    names = {m.name for m in propstab.list_measures()}
    assert name in names, f"measure {name!r} is not registered: this pinned defect is unchecked"
    return propstab.get_measure(name)


@pytest.mark.parametrize("measure", CROSS_CHECKED)
def test_measure_agrees_with_its_r_references(measure):
    report = crosscheck(measure, max_examples=MAX_EXAMPLES, random_state=0)
    assert report.rows, measure
    for row in report.rows:
        assert row.cases >= MAX_EXAMPLES
        assert row.status == "agree", f"{row.measure} vs {row.r_function}: {row.counterexample}"
        assert not row.max_relative_difference > 1e-10


def test_nogueira_is_cross_checked_against_fleiss_kappa_of_irr():
    report = crosscheck("nogueira", max_examples=10)
    assert [r.r_function for r in report.rows] == [
        "stabm::stabilityNogueira",
        "irr::kappam.fleiss",
    ]
    # thesis Thm 5: the subjects are the features (rows of the ratings), the runs rate them
    Z = np.array([[1, 1, 0, 0, 1], [1, 0, 1, 0, 1], [1, 1, 0, 1, 0]], dtype=bool)
    assert abs(fleiss_kappa_r(Z).value - propstab.stability(Z)) <= 1e-12
    ratings_other_way = call_r("irr", "kappam.fleiss", propstab.r.to_r_matrix(Z))
    assert abs(ratings_other_way.rx2("value")[0] - propstab.stability(Z)) > 0.1


def test_conger_is_irr_exact_kappa_to_1e12_with_varying_sizes():
    """conger = irr::kappam.fleiss(ratings, exact = TRUE) (Conger 1980) on seeded
    selections whose sizes vary (per-run Bernoulli rates, empty and full runs included),
    to 1e-12; and the harness cross-checks it against that call."""
    report = crosscheck("conger", max_examples=10)
    assert [r.r_function for r in report.rows] == ["irr::kappam.fleiss"]
    assert report.rows[0].status == "agree"
    rng = np.random.default_rng(20240612)
    compared = varying = 0
    for _ in range(150):
        M, d = int(rng.integers(2, 12)), int(rng.integers(2, 15))
        Z = rng.random((M, d)) < rng.uniform(0.05, 0.95, size=(M, 1))
        k = Z.sum(axis=1)
        if k.sum() in (0, M * d):
            continue
        ratings = propstab.r.to_r_matrix(Z, transpose=True)
        exact = call_r("irr", "kappam.fleiss", ratings, exact=True).rx2("value")[0]
        assert abs(exact - propstab.stability(Z, "conger")) <= 1e-12, Z.astype(int).tolist()
        fleiss = call_r("irr", "kappam.fleiss", ratings).rx2("value")[0]
        assert abs(fleiss - propstab.stability(Z, "nogueira")) <= 1e-12
        compared += 1
        varying += bool(np.ptp(k))
    assert compared >= 120 and varying >= 100


@pytest.mark.parametrize(
    "measure",
    ["intersection_count", "intersection_mean", "intersection_greedy", "intersection_mbm"],
)
def test_exact_adjusted_intersections_equal_stabm_enumeration(measure):
    """correction_for_chance='exact' (enumeration over the similarity graph's components)
    against stabm's "exact" (every pair of subsets), on seeded selections with varying
    sizes and tied similarities."""
    rng = np.random.default_rng(sum(map(ord, measure)))
    compared = 0
    for _ in range(12):
        d, M = int(rng.integers(3, 7)), int(rng.integers(2, 5))
        C = np.triu(rng.choice([0, 0, 0.3, 0.5, 0.9, 0.95, 1.0], size=(d, d)), 1)
        C = C + C.T
        np.fill_diagonal(C, 1)
        Z = np.zeros((M, d), dtype=int)
        for i in range(M):
            Z[i, rng.choice(d, int(rng.integers(1, d)), replace=False)] = 1
        kw = dict(
            similarity=C, threshold=float(rng.choice([0.5, 0.9])), correction_for_chance="exact"
        )
        with warnings.catch_warnings():  # 0/0 pairs: NaN on both sides
            warnings.simplefilter("ignore", UndefinedMeasureWarning)
            ours = propstab.stability(Z, measure, **kw)
            theirs = call_reference(measure, Z, **kw)
        if math.isnan(ours) and math.isnan(theirs):
            continue
        assert abs(ours - theirs) <= 1e-10, (Z.tolist(), C.tolist(), kw["threshold"])
        compared += 1
    assert compared >= 8


@pytest.mark.parametrize(
    "measure", ["jaccard", "dice", "ochiai", "hamming", "davis", "novovicova", "yu"]
)
def test_exact_correction_on_full_and_empty_runs_equals_stabm(measure):
    """Generated runs that are all-selected or empty (each pair determined under H0, so
    E[score] is the score) at values of d where a rounded sum of probabilities missed 1:
    NaN exactly where stabm gives NA, the same value elsewhere. Davis and
    Novovicova on two runs only (for M > 2 stabm's pairwise expectation differs, a
    documented difference)."""
    rng = np.random.default_rng(sum(map(ord, measure)))
    runs = 2 if measure in ("davis", "novovicova") else 4
    compared = nan = 0
    for d in (9, 10, 13, 17, 18, 23, 50, 200):
        for _ in range(4):
            Z = np.zeros((runs, d), dtype=int)
            Z[rng.random(runs) < 0.6] = 1  # full runs, the rest empty
            if Z.sum() == 0:
                Z[0] = 1
            kw = dict(correction_for_chance="exact")
            if measure == "yu":
                kw.update(similarity=np.eye(d))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMeasureWarning)
                ours = propstab.stability(Z, measure, **kw)
                theirs = call_reference(measure, Z, **kw)
            if math.isnan(theirs):
                assert math.isnan(ours), (measure, Z.sum(axis=1).tolist(), ours)
                nan += 1
                continue
            assert abs(ours - theirs) <= 1e-10, (measure, Z.sum(axis=1).tolist(), ours, theirs)
            compared += 1
    assert nan >= 4


def test_harness_finds_and_shrinks_a_disagreement():
    # a wrong "jaccard" (Dice's formula) must be caught with a minimal counterexample
    info = propstab.get_measure("jaccard")
    wrong = dataclasses.replace(info, function=propstab.measures.dice)
    row = cc._row(wrong, cc.references_of(info)[0], 1e-10, 50, 0)
    assert row.status == "DISAGREE"
    example = row.counterexample
    assert example["status"] == "mismatch"
    assert len(example["features"]) == 2 and example["p"] <= 3
    assert "stabm::stabilityJaccard(list(" in example["r_code"]


@pytest.mark.r_every_time
def test_report_records_versions_and_serialises():
    report = crosscheck(["lustgarten", "cwrel"], max_examples=5, random_state=3)
    assert report.versions["stabm"] == "1.2.2" and report.versions["irr"] == "0.85"
    assert report.versions["R"].startswith("4.") and "rpy2" in report.versions
    data = json.loads(report.to_json())
    assert data["versions"] == dict(report.versions) and data["ok"] is report.ok
    assert [r["measure"] for r in data["rows"]] == ["lustgarten", "cwrel"]
    text = str(report)
    assert "stabm 1.2.2" in text and "stabm::stabilityLustgarten" in text
    assert repr(report) == (
        f"CrosscheckReport(ok={report.ok}, n_rows=2, disagree="
        f"{sum(r.status != 'agree' for r in report.rows)}, tolerance="
        f"{report.tolerance:.4g}, seed=3, max_examples=5)"
    )
    again = crosscheck(["lustgarten", "cwrel"], max_examples=5, random_state=3)
    assert again.to_dict() == report.to_dict()  # reproducible for a fixed seed


def test_crosscheck_rejects_measures_without_reference():
    with pytest.raises(ValueError, match="'goh' have no R reference"):
        crosscheck("goh")
    with pytest.raises(ValueError, match="max_examples"):
        crosscheck("jaccard", max_examples=0)


def test_cli_prints_table_and_json(capsys):
    from propstab.cli import main

    assert main(["crosscheck", "--measure", "kappa", "--max-examples", "3"]) == 0
    out = capsys.readouterr().out
    assert "stabm::stabilityKappa" in out and "irr 0.85" in out and "agree" in out
    assert main(["crosscheck", "--measure", "phi", "--json", "--max-examples", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"][0]["r_function"] == "stabm::stabilityPhi"


# ---------------------------------------------------------------- the stabm defects, pinned


def _r(code):
    return propstab.r.robjects().r(code)


def test_defect_adjusted_no_similar_pair_r_side():
    # stabm's Yu with no similar pair is stabilityUnadjusted, not Yu's formula (= kappa)
    yu = _r(
        "stabm::stabilityYu(list(1, 1:2), sim.mat = diag(3), threshold = 0.9, "
        'correction.for.chance = "exact")'
    )[0]
    unadjusted = _r("stabm::stabilityUnadjusted(list(1, 1:2), p = 3)")[0]
    kappa = _r("stabm::stabilityKappa(list(1, 1:2), p = 3)")[0]
    assert yu == unadjusted == pytest.approx((1 - 2 / 3) / (2**0.5 - 2 / 3), abs=1e-15)
    assert kappa == pytest.approx((1 - 2 / 3) / (1.5 - 2 / 3), abs=1e-15)


def test_defect_adjusted_no_similar_pair_propstab_side():
    _registered("yu")
    Z, C = [[0], [0, 1]], np.eye(3)
    opts = dict(similarity=C, threshold=0.9, correction_for_chance="exact")
    ours = propstab.stability(Z, "yu", n_features=3, **opts)
    assert ours == pytest.approx(0.4, abs=1e-15)  # Yu's definition, = stabm's kappa
    assert call_reference("yu", Z, n_features=3, **opts) == pytest.approx(0.4459029, abs=1e-7)
    info = propstab.get_measure("yu")
    case = cc.Case(
        "pin",
        propstab.as_selection(Z, n_features=3).toarray(),
        propstab.registry._option_checks.check_options(info, opts),
    )
    outcome = cc.evaluate(info, cc.references_of(info)[0], case, 1e-10)
    assert outcome.status == "expected" and outcome.expected == ("adjusted_no_similar_pair",)
    # without correction: two empty runs, Yu undefined, stabm's intersection.common 0
    empty = dict(similarity=np.eye(2), threshold=0.9, correction_for_chance="none")
    assert call_reference("yu", [[], []], n_features=2, **empty) == 0.0
    with pytest.warns(UndefinedMeasureWarning):
        assert math.isnan(propstab.stability([[], []], "yu", n_features=2, **empty))


def test_defect_adjusted_no_similar_pair_is_harmless_for_intersections():
    # score, maximum and expectation k_i k_j / p are unchanged by the switch
    _registered("intersection_count")
    Z, C = [[0], [0, 1], [1, 2]], np.eye(3)
    for measure in (
        "intersection_count",
        "intersection_mean",
        "intersection_greedy",
        "intersection_mbm",
    ):
        _registered(measure)
        ours = propstab.stability(
            Z, measure, n_features=3, similarity=C, threshold=0.9, correction_for_chance="none"
        )
        r = call_reference(
            measure, Z, n_features=3, similarity=C, threshold=0.9, correction_for_chance="none"
        )
        assert ours == pytest.approx(r, abs=1e-12)


def test_defect_corrected_global_score_m3_differs_m2_agrees():
    M3, M2 = [[0, 1], [1, 2], [0, 2]], [[0, 1], [1, 2]]
    dense3 = propstab.as_selection(M3, n_features=4).toarray().tolist()
    # r3: stabm 1.2.2 (printed by the live call below); ours: the slow twin that enumerates
    # every matrix of the null model (tests/twins.py), davis exactly 17/89
    for measure, r3 in (("davis", -0.090909090909090939), ("novovicova", 0.26185950714291506)):
        ours3 = float(twins.twin(measure, dense3, correction_for_chance="exact"))
        assert call_reference(
            measure, M3, n_features=4, correction_for_chance="exact"
        ) == pytest.approx(r3, abs=1e-14)
        assert propstab.stability(
            M3, measure, n_features=4, correction_for_chance="exact"
        ) == pytest.approx(ours3, rel=1e-12)
        assert abs(r3 - ours3) > 0.1  # the difference pinned
        two = [
            call_reference(measure, M2, n_features=4, correction_for_chance="exact"),
            propstab.stability(M2, measure, n_features=4, correction_for_chance="exact"),
        ]
        assert abs(two[0] - two[1]) <= 1e-10


def test_defect_corrected_global_score_is_not_corrected_for_chance_in_r():
    # all 8 equally likely matrices of M = 3 runs of size 1 out of d = 2 (the null model):
    # propstab's corrected Novovicova averages to 0, stabm's to (E[S] - 1/2) / (1/2) = 0.131
    import itertools

    runs = list(itertools.product([[0], [1]], repeat=3))
    r_values = [
        call_reference("novovicova", list(z), n_features=2, correction_for_chance="exact")
        for z in runs
    ]
    ours = [
        propstab.stability(list(z), "novovicova", n_features=2, correction_for_chance="exact")
        for z in runs
    ]
    assert abs(np.mean(ours)) <= 1e-12
    assert abs(np.mean(r_values)) > 0.05


def test_defect_davis_penalty_maximum():
    Z = [[0, 1], [1, 2]]
    r = call_reference("davis", Z, n_features=4, correction_for_chance="exact", penalty=1.0)
    ours = propstab.stability(Z, "davis", n_features=4, correction_for_chance="exact", penalty=1.0)
    assert r == pytest.approx(-0.05, abs=1e-15)
    exact = twins.twin(
        "davis",
        propstab.as_selection(Z, n_features=4).toarray().tolist(),
        penalty=1.0,
        correction_for_chance="exact",
    )  # by enumeration
    assert exact == Fraction(-1, 29)
    assert ours == pytest.approx(float(exact), abs=1e-15)


def test_defect_sparse_similarity_dimensions():
    ro = propstab.r.robjects()
    feats = ro.r("list(c(1, 3), c(2, 4), c(1, 4))")
    no_diagonal = ro.r(
        "Matrix::sparseMatrix(i = c(1, 3), j = c(2, 4), x = c(0.95, 0.5), "
        "dims = c(4, 4), symmetric = TRUE)"
    )
    with pytest.raises(RReferenceError, match="Must be a subset of \\{'1','2'\\}"):
        call_r("stabm", "stabilityZucknick", feats, **{"sim.mat": no_diagonal, "threshold": 0.9})
    C = np.eye(4)
    C[0, 1] = C[1, 0] = 0.95
    C[2, 3] = C[3, 2] = 0.5
    dense = call_r(
        "stabm", "stabilityZucknick", feats, **{"sim.mat": to_r_similarity(C), "threshold": 0.9}
    )[0]
    bridged = call_r(
        "stabm",
        "stabilityZucknick",
        feats,  # the bridge stores the diagonal
        **{"sim.mat": to_r_similarity(sparse.csr_matrix(C)), "threshold": 0.9},
    )[0]
    assert dense == bridged == pytest.approx(0.4069444, abs=1e-7)


def test_defect_threshold_zero_dense_sparse():
    ro = propstab.r.robjects()
    C = np.eye(4)
    C[0, 1] = C[1, 0] = 0.5
    feats = ro.r("list(c(1, 3), c(2, 4), 3)")
    values = [
        call_r(
            "stabm",
            "stabilityYu",
            feats,
            **{"sim.mat": S, "threshold": 0, "correction.for.chance": "none"},
        )[0]
        for S in (to_r_similarity(C), to_r_similarity(sparse.csr_matrix(C)))
    ]
    assert values == [pytest.approx(1.5), pytest.approx(2 / 3)]
    _registered("yu")
    ours = [
        propstab.stability(
            [[0, 2], [1, 3], [2]],
            "yu",
            n_features=4,
            similarity=S,
            threshold=0,
            correction_for_chance="none",
        )
        for S in (C, sparse.csr_matrix(C))
    ]
    assert ours == [pytest.approx(2 / 3)] * 2


def test_defect_nan_not_na():
    assert reference_value("wald", [[0, 1], [0]], n_features=2).kind == "NaN"
    assert reference_value("cwrel", [[0], [0, 1]], n_features=2).kind == "NaN"
    assert reference_value("lustgarten", [[0, 1], [0, 1]], n_features=2).kind == "NA"
    with pytest.warns(UndefinedMeasureWarning):
        assert math.isnan(propstab.stability([[0, 1], [0]], "wald", n_features=2))


def test_defect_somol_equal_extremes_follows_the_paper():
    # Somol & Novovicova eq. 6: CW_rel = CW where CW_max = CW_min
    assert reference_value("cwrel", [[0], [0, 1]], n_features=2).kind == "NaN"
    assert reference_value("cwrel", [[0, 1], [0, 1]], n_features=2).kind == "NA"
    assert propstab.stability([[0], [0, 1]], "cwrel", n_features=2) == pytest.approx(2 / 3)
    assert propstab.stability(
        [[0], [0, 1]], "weighted_consistency", n_features=2
    ) == pytest.approx(2 / 3)
    assert propstab.stability([[0, 1], [0, 1]], "cwrel", n_features=2) == 1.0


def test_defect_irr_single_subject():
    with pytest.raises(RReferenceError, match="argument of length 0"):
        fleiss_kappa_r([[1], [0]])
    assert propstab.stability([[1], [0]]) == -1.0


PINNED = {
    "adjusted_no_similar_pair",
    "corrected_global_score",
    "davis_penalty_maximum",
    "sparse_similarity_dimensions",
    "threshold_zero_dense_sparse",
    "nan_not_na",
    "somol_equal_extremes",
    "irr_single_subject",
}


def test_every_expected_difference_is_pinned_here():
    assert {e.key for e in EXPECTED_DIFFERENCES} == PINNED
    for e in EXPECTED_DIFFERENCES:
        assert e.reason and e.example and e.r_result and e.propstab_result
        assert set(e.as_dict()) >= {"key", "measures", "reason", "example"}


def test_features_conversion_is_one_based():
    feats = to_r_features([[1, 0, 1], [0, 0, 0], [1, 1, 1]])
    assert [list(v) for v in feats] == [[1, 3], [], [1, 2, 3]]


def test_docs_examples_run():
    import doctest
    import pathlib

    page = pathlib.Path(__file__).parents[1] / "docs" / "r_crosscheck.md"
    result = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 6 and result.failed == 0


@pytest.mark.parametrize(
    "name", [m for m in CROSS_CHECKED if propstab.get_measure(m).r_reference.package == "stabm"]
)
def test_needs_p_matches_the_r_functions_default_for_p(name):
    """``RReference.needs_p`` is False exactly where stabm's function has ``p = NULL``
    (read from R's own formals, an independent source)."""
    from propstab.r._call import robjects

    ref = propstab.get_measure(name).r_reference
    has_p = "p" in propstab.r._call.formals(ref.package, ref.function)
    if not has_p:  # the adjusted measures take sim.mat
        assert ref.needs_p, name
        return
    default = robjects().r(f"function() deparse(formals({ref.package}::{ref.function})$p)")()[0]
    assert ref.needs_p == (default == ""), (name, default)


def test_crosscheck_progress_bar_counts_one_step_per_measure(capsys):
    crosscheck(["lustgarten", "cwrel"], max_examples=2, random_state=1)
    assert capsys.readouterr().err == ""  # not a terminal: no bar
    crosscheck(["lustgarten", "cwrel"], max_examples=2, random_state=1, progress=True)
    assert "crosscheck" in (err := capsys.readouterr().err) and "2/2" in err
    with pytest.raises(TypeError, match="progress"):
        crosscheck("cwrel", max_examples=1, progress=1.5)
