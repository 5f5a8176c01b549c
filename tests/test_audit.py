"""The axiom audit: strategies, the search engine, checks in both directions, the audit
table, user functions, the CLI, and thesis Table 4.1 as corrected by the audit
(docs/table41.md), with every disagreement confirmed in exact rational arithmetic."""
import itertools
import json
import math
import pathlib
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

import propstab
from propstab import Axiom, get_measure
from propstab.auditing import (
    AuditTable,
    audit,
    check_bounds,
    check_correction_for_chance,
    check_fully_defined,
    check_maximum,
    check_monotonicity,
    load_function,
    subject,
)
from propstab.cli import main
from propstab.search import REPRODUCIBLE, Found, assume, search, target
from propstab.strategies import (
    identical_rows,
    importance_weights,
    matrix_from_rows,
    matrix_pairs,
    near_identical_rows,
    null_configurations,
    selection_matrices,
    similarity_matrices,
)

import evidence  # tests/ is on sys.path (rootdir-relative import mode)
import twins

FD, MONO, BND, MAX, CORR = (
    Axiom.FULLY_DEFINED,
    Axiom.MONOTONICITY,
    Axiom.BOUNDS,
    Axiom.MAXIMUM,
    Axiom.CORRECTION_FOR_CHANCE,
)
DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs" / "table41.md"

#: find() reproducibly: the same examples on every run, no example database (CI)
FIND = REPRODUCIBLE


def Z_(*rows):
    return np.array([[c == "1" for c in r] for r in rows])


# ---------------------------------------------------------------- strategies


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (
            dict(min_runs=3, max_runs=2),
            "max_runs: must be >= 3 and <= 50 for selection_matrices; got 2",
        ),
        (
            dict(min_features=0),
            "min_features: must be >= 1 and <= 50 for selection_matrices; got 0",
        ),
        (dict(subset_sizes="proper", max_features=1, min_features=1), "d >= 2"),
        (dict(subset_sizes=9, max_features=8), "subset_sizes: must be >= 0 and <= 8"),
        (dict(subset_sizes="sometimes"), "subset_sizes: .*got 'sometimes'"),
        (dict(max_runs=2.5), "max_runs: must be an integer for selection_matrices; got float"),
    ],
)
def test_impossible_strategy_arguments_raise_invalid_argument_when_used(kwargs, words):
    strategy = selection_matrices(**kwargs)  # lazy: nothing checked yet
    with pytest.raises(InvalidArgument, match=words):
        find(strategy, lambda Z: True, settings=FIND)


def test_near_identical_rows_needs_room_for_a_swap_and_two_runs():
    with pytest.raises(InvalidArgument, match="subset_sizes"):
        find(near_identical_rows(subset_sizes=2, max_features=2), lambda Z: True)
    with pytest.raises(InvalidArgument, match="min_runs"):
        find(near_identical_rows(min_runs=1), lambda Z: True)


@pytest.mark.parametrize(
    "strategy, words",
    [
        (lambda: similarity_matrices(0), "n_features: must be >= 1"),
        (lambda: similarity_matrices(3, kinds=[]), "kinds"),
        (lambda: similarity_matrices(3, formats=["csv"]), "formats: .*got \\['csv'\\]"),
        (
            lambda: similarity_matrices(3, elements=[0.5]),
            "elements: must be a Hypothesis strategy",
        ),
        (
            lambda: similarity_matrices(3, kinds=["general"], elements=st.just(1.5)),
            "elements: .*drew 1.5",
        ),
        (
            lambda: importance_weights(2, 0),
            "n_features: must be >= 1 and <= 50 for importance_weights",
        ),
        (lambda: importance_weights(2, 2, equal="yes"), "equal: must be True or False"),
        (lambda: null_configurations(max_features=1, min_features=1), "d >= 2"),
    ],
)
def test_every_strategy_validates_lazily(strategy, words):
    built = strategy()
    with pytest.raises(InvalidArgument, match=words):
        find(built, lambda x: True, settings=FIND)


def test_strategy_reprs_show_the_call():
    assert repr(selection_matrices(max_runs=5)) == "selection_matrices(max_runs=5)"
    assert repr(selection_matrices()) == "selection_matrices()"
    assert repr(matrix_pairs(subset_sizes="proper")) == "matrix_pairs(subset_sizes='proper')"
    assert (
        repr(similarity_matrices(3, kinds=["groups"]))
        == "similarity_matrices(3, kinds=['groups'])"
    )
    assert repr(null_configurations(min_runs=3)) == "null_configurations(min_runs=3)"
    assert repr(selection_matrices(max_runs=-1)) == "selection_matrices(max_runs=-1)"


def test_matrix_from_rows():
    assert matrix_from_rows([[0, 2], [], [1]], 3).astype(int).tolist() == [
        [1, 0, 1],
        [0, 0, 0],
        [0, 1, 0],
    ]
    assert (matrix_from_rows([[1, 3]], 3, base=1) == matrix_from_rows([[0, 2]], 3)).all()
    assert matrix_from_rows([], 2).shape == (0, 2)
    with pytest.raises(ValueError, match="rows: run 1 selects the index 0, outside 1..3"):
        matrix_from_rows([[1], [0]], 3, base=1)
    with pytest.raises(TypeError, match="rows: run 0 must list integer"):
        matrix_from_rows([[0.5]], 3)
    with pytest.raises(ValueError, match="base: must be 0 or 1"):
        matrix_from_rows([[0]], 3, base=2)
    with pytest.raises(ValueError, match="n_features"):
        matrix_from_rows([[0]], 0)


@settings(REPRODUCIBLE, max_examples=40)
@given(st.data())
def test_sparse_similarities_equal_their_dense_twins(data):
    d = data.draw(st.integers(1, 5))
    values = st.sampled_from([0.0, 0.3, 1.0])
    C = data.draw(similarity_matrices(d, kinds=["general"], elements=values, formats=["sparse"]))
    assert C.format == "csr"
    dense = C.toarray()
    assert (dense == dense.T).all() and (np.diag(dense) == 1).all()
    assert set(np.unique(dense)) <= {0.0, 0.3, 1.0}


@pytest.mark.parametrize(
    "condition",
    [
        lambda Z: (Z.sum(axis=1) == 0).any(),  # an empty row
        lambda Z: (Z.sum(axis=1) == Z.shape[1]).any(),  # a full row
        lambda Z: ((Z.sum(axis=0) == Z.shape[0]) & Z.any(axis=1).all()).any(),  # constant column
    ],
)
def test_defaults_include_degenerate_cases(condition):
    assert condition(find(selection_matrices(), condition, settings=FIND))


def test_strategies_respect_their_arguments():
    Z = find(
        selection_matrices(subset_sizes="proper_constant", min_runs=3, min_features=5),
        lambda Z: True,
        settings=FIND,
    )
    assert Z.shape == (3, 5) and len(set(Z.sum(axis=1))) == 1 and 0 < Z.sum(axis=1)[0] < 5
    Z1, Z2 = find(
        matrix_pairs(subset_sizes="proper"), lambda p: (p[0] != p[1]).any(), settings=FIND
    )
    assert (Z1.sum(axis=1) == Z2.sum(axis=1)).all()
    assert (
        find(identical_rows(min_runs=4), lambda Z: Z.any(), settings=FIND) == [[1, 0]] * 4
    ).all()
    Z = find(near_identical_rows(subset_sizes=2, min_features=4), lambda Z: True, settings=FIND)
    assert (Z.sum(axis=1) == 2).all() and not (Z == Z[0]).all()
    c = find(
        null_configurations(subset_sizes="proper_constant"), lambda c: c.n_runs > 2, settings=FIND
    )
    assert c == (3, 2, (1, 1, 1))


def test_a_wrong_measure_shrinks_to_a_tiny_counterexample():
    """A measure that breaks on three selections: the reported matrix is minimal."""

    def fragile(Z):
        return math.nan if Z.sum() >= 3 else float(Z.mean())

    r = check_fully_defined(fragile, claimed=True, max_examples=100)
    assert r.status == "violated"
    assert r.counterexample.sum() == 3 and r.counterexample.size <= 6

    def reversed_nogueira(Z):  # decreasing in stability, claimed monotone
        return -propstab.measures.nogueira(Z)

    r = check_monotonicity(reversed_nogueira, claimed=True, max_examples=100)
    assert r.status == "violated"
    assert all(z.shape == (2, 2) for z in r.counterexample)


# ---------------------------------------------------------------- the search engine


def test_search_shrinks_and_is_reproducible():
    def probe(n):
        return Found(n, (n,), "large") if n >= 1000 else None

    found = search(st.integers(0, 10**6), probe, max_examples=100, random_state=0)
    assert isinstance(found, Found) and found.example == 1000  # shrunk to the boundary
    assert search(st.integers(0, 999), probe, max_examples=100, random_state=0) is None
    runs = [
        search(
            st.lists(st.integers(0, 9)),
            lambda xs: Found(xs, (), "") if sum(xs) > 20 else None,
            max_examples=50,
            random_state=s,
        ).example
        for s in (1, 1)
    ]
    assert runs[0] == runs[1]


def test_search_tries_explicit_examples_first_as_given():
    seen = []

    def probe(n):
        seen.append(n)
        assume(n != 7)  # an explicit example outside the domain: skipped
        target(float(n), "n")  # ignored for explicit examples
        return Found(n, (n,), "any") if n > 50 else None

    found = search(st.integers(0, 100), probe, max_examples=10, random_state=0, examples=[7, 99])
    assert seen[:2] == [7, 99] and found.example == 99  # not shrunk
    assert (
        search(st.integers(0, 100), lambda n: assume(False), max_examples=10, random_state=0)
        == "unsatisfiable"
    )


def test_search_settings_derive_from_the_one_settings_object():
    assert REPRODUCIBLE.database is None and REPRODUCIBLE.deadline is None
    assert REPRODUCIBLE.derandomize
    assert settings().database is None and settings().derandomize  # the suite's profile


# ---------------------------------------------------------------- checks, both directions


def test_checks_in_both_directions():
    assert check_bounds("nogueira", max_examples=20).status == "holds"
    assert check_bounds("nogueira", claimed=False, max_examples=20).status == "unrefuted"
    assert check_maximum("wald", max_examples=50).status == "refuted"
    assert check_maximum("wald", claimed=True, max_examples=50).status == "violated"


def test_bounds_refutation_uses_a_diverging_family():
    """Wald's value 1 - d along Z_n (thesis App. B.3) leaves every interval."""
    r = check_bounds("wald", max_examples=10)
    assert r.status == "refuted"
    assert r.values == tuple(float(-n) for n in (2, 4, 8, 16, 32, 64, 128))
    assert "disjoint_unbalanced" in r.reason


def test_correction_uses_exact_expectations():
    r = check_correction_for_chance("dice", max_examples=30)
    assert r.status == "refuted"
    assert all(e.method.startswith("exact") for e in r.expectations)
    # Dice's E under H0 with a constant size k is k/d (thesis App. B.5.1)
    for e in r.expectations:
        if len(set(e.row_sizes)) == 1:
            assert math.isclose(e.value, e.row_sizes[0] / e.n_features, rel_tol=1e-12)
    r = check_correction_for_chance("kappa", max_examples=30)
    assert r.status == "holds" and len(r.expectations) > 1
    assert all(abs(e.value) < 1e-12 for e in r.expectations)


def test_audit_is_reproducible_and_exports():
    a = audit(["goh", "lausser"], max_examples=25, random_state=3)
    b = audit(["goh", "lausser"], max_examples=25, random_state=3)
    assert a.to_json() == b.to_json()
    rows = json.loads(a.to_json())
    assert len(rows) == 10 and {r["status"] for r in rows} <= {"holds", "refuted", "unrefuted"}
    frame = a.to_frame()
    assert list(frame.columns[:4]) == ["measure", "axiom", "claimed", "status"]
    text = str(a)
    assert repr(a) == (
        "AuditTable(n_measures=2, n_rows=10, holds={holds}, violated=0, "
        "refuted={refuted}, unrefuted={unrefuted}, skipped=0)"
    ).format(**{s: sum(r.status == s for r in a) for s in ("holds", "refuted", "unrefuted")})
    assert text.splitlines()[0].split()[:2] == ["measure", "fully"]
    assert "[1] goh, monotonicity: Z1 = " in text
    assert isinstance(a, AuditTable) and len(a) == 10


def test_audit_rejects_bad_arguments():
    with pytest.raises(ValueError, match="max_examples"):
        audit("goh", max_examples=0)
    with pytest.raises(ValueError, match="not a registered measure"):
        audit("gohh")
    with pytest.raises(ValueError, match="^claims: 'boundz' is not an axiom"):
        audit(lambda Z: 0.0, claims=["boundz"])
    with pytest.raises(ValueError, match="^axioms: 'boundz' is not an axiom"):
        audit("goh", axioms=["boundz"])
    with pytest.raises(TypeError, match="lower: must be a number"):
        audit(lambda Z: 0.0, lower="zero")
    with pytest.raises(ValueError, match="orientation: must be one of"):
        audit(lambda Z: 0.0, orientation="up")
    with pytest.raises(TypeError, match="unexpected keyword.*colour"):
        audit("goh", colour="red")


@pytest.fixture(scope="module")
def goh_audit_without_claims():
    """``audit("goh", max_examples=5, claims=None)``: the same call for each keyword of
    the test below (a deterministic audit), run once (0.3 s)."""
    return audit("goh", max_examples=5, claims=None)


@pytest.mark.parametrize(
    "keywords, named",
    [
        (dict(claims=["bounds"]), "claims"),
        (dict(lower=0, upper=1), "lower, upper"),
        (dict(null_value=0.0), "null_value"),
        (dict(domain="any"), "domain"),
    ],
)
def test_a_registered_measure_keeps_its_own_declaration(keywords, named, goh_audit_without_claims):
    """Declaration keywords were silently ignored for registered measures: now an error
    naming them, from audit(), audited_subjects() and subject() alike."""
    for call in (
        lambda: audit("goh", max_examples=1, **keywords),
        lambda: audit(None, max_examples=1, **keywords),
        lambda: audit(["goh", lambda Z: 0.0], max_examples=1, **keywords),
        lambda: subject("goh", **keywords),
    ):
        with pytest.raises(ValueError, match=f"^{named}: '[a-z_]+' is a registered measure"):
            call()
    assert goh_audit_without_claims.status("goh", "bounds") == "holds"


def test_a_user_function_is_a_measure_plus_options():
    def scaled(Z, *, factor=1.0):
        return factor * float(Z.mean())

    s = subject(scaled, options={"factor": 2.0}, claims=["bounds"], lower=0, upper=2)
    assert s.name == "scaled[factor=2.0]" and s.options == {"factor": 2.0}
    assert s.value(np.ones((2, 2), dtype=bool)) == 2.0
    assert s.declaration.constant_bounds == (0.0, 2.0)
    assert check_bounds(s, max_examples=20).status == "holds"
    r = check_bounds(scaled, options={"factor": 3.0}, max_examples=40)
    assert r.measure == "scaled[factor=3.0]" and r.status == "unrefuted"  # nothing declared
    scaled.claims, scaled.upper, scaled.lower = ["bounds"], 1, 0  # attributes
    assert check_bounds(scaled, options={"factor": 3.0}, max_examples=40).status == "violated"


def test_variants_are_declared_in_the_registry():
    """auditing.VARIANTS is a view of MeasureInfo.variants; each variant's options are
    options the measure accepts, and its subject carries the variant's declaration."""
    from propstab.registry._registry import Variant
    from propstab.auditing import VARIANTS

    assert propstab.auditing.Variant is Variant
    pairwise = [
        m.name
        for m in propstab.list_measures("pairwise")
        if "correction_for_chance" in m.parameter_names
    ]
    assert pairwise == ["hamming", "jaccard", "dice", "ochiai"]
    intersections = [
        m.name for m in propstab.list_measures("correlated") if m.name.startswith("intersection_")
    ]
    assert list(VARIANTS) == [*pairwise, "davis", "novovicova", *intersections, "canberra"]
    assert len({id(VARIANTS[name][0]) for name in pairwise}) == 1  # one shared object
    assert len({id(VARIANTS[name][0]) for name in intersections}) == 1
    for name, variants in VARIANTS.items():
        for v in variants:
            info = get_measure(name)
            example = (
                np.array([[1.0, 2, 3], [3, 1, 2]])
                if info.input == "ranking"
                else np.eye(3, dtype=bool)
            )
            info.function(example, **v.options)  # accepted
            s = subject(name, options=dict(v.options))
            assert s.claims == v.declaration(get_measure(name).declaration).claims
    assert subject("davis", options={"penalty": 0.5}).claims[Axiom.MAXIMUM] is False
    assert subject("davis", options={"penalty": 0.25}).claims == get_measure("davis").claims
    # the exact null expectation makes the adjusted intersections corrected for chance,
    # and the audit confirms it (the simulated default is not claimed)
    for name in intersections:
        r = propstab.auditing.check_correction_for_chance(
            name, options={"correction_for_chance": "exact"}, max_examples=25
        )
        assert r.claimed and r.status == "holds", (name, r)


# ---------------------------------------------------------------- user functions, CLI

USER_MEASURE = '''
def overlap(Z):
    """Mean selection frequency of the selected features, weighted by frequency."""
    F = Z.sum(axis=0)
    return float((F * F).sum() / (Z.shape[0] * max(F.sum(), 1)))

overlap.claims = ["bounds", "maximum"]
overlap.lower, overlap.upper = 0, 1
'''


def test_audit_a_user_function_from_python_and_the_cli(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text(USER_MEASURE)
    f = load_function(f"{path}:overlap")
    table = propstab.audit(f, max_examples=40)
    assert table.status("overlap", "bounds") == "holds"
    assert table.status("overlap", "maximum") == "violated"  # empty rows score 0, not 1
    assert table.status("overlap", "correction") == "refuted"
    code = main(["audit", f"{path}:overlap", "--json", "--max-examples", "40", "--jobs", "2"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 1  # a claim is violated
    assert [r["status"] for r in rows] == [r.status for r in table]
    with pytest.raises(ValueError, match="defines no function"):
        load_function(f"{path}:nothing")


@pytest.mark.parametrize(
    "argv, jobs",
    [
        (["--measure", "kuncheva"], 1),  # one subject: here
        (["--measure", "jaccard"], -1),  # jaccard and its exact variant
        (["--measure", "kuncheva", "--measure", "nogueira"], -1),
        ([], -1),  # every measure
        (["--measure", "kuncheva", "--jobs", "3"], 3),  # as given
        (["--jobs", "1"], 1),
    ],
)
def test_cli_audit_processes_by_default(monkeypatch, capsys, argv, jobs):
    """Without --jobs: one process for a single measure (the workers' start costs more
    than its five checks), every core for several; --jobs as given otherwise."""
    import propstab.auditing

    seen = []

    def fake(measures, **kwargs):
        seen.append(kwargs["n_jobs"])
        return propstab.auditing.AuditTable([])

    monkeypatch.setattr(propstab.auditing._audit, "audit", fake)  # what the CLI calls
    main(["audit", *argv])
    assert seen == [jobs]


def test_cli_audits_one_registered_measure(capsys):
    assert main(["audit", "--measure", "kuncheva", "--max-examples", "20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("measure") and "kuncheva" in out and "[1] kuncheva, fully defined" in out
    assert main(["audit", "--measure", "nogeuira"]) == 2
    assert "Did you mean 'nogueira'" in capsys.readouterr().err


# ---------------------------------------------------------------- thesis Table 4.1

#: Thesis Table 4.1 (p. 57, "1" in the text extraction is a tick): (FD, MONO, BND, MAX, CORR).
THESIS_TABLE_41 = {
    "hamming": "YYYY-",
    "jaccard": "YYYY-",
    "dice": "YYYY-",
    "ochiai": "YYYY-",
    "pog": "YYYY-",
    "kuncheva": "-YYYY",
    "lustgarten": "YYY-Y",
    "wald": "YY--Y",
    "npog": "YY-YY",
    "goh": "Y-Y--",
    "davis": "Y-Y--",
    "krizek": "---Y-",
    "guzman": "--YYY",
    "cwrel": "YYY--",
    "lausser": "-YYY-",
}

#: The audit's marks: claimed and holds / disclaimed and refuted (docs/table41.md prints
#: only these two; any other mark there is an error of the page).
_MARK_CLAIMED = {"✓": "Y", "✗": "-"}


def documented_audit_rows():
    """docs/table41.md's audit tables (its ``propstab audit`` output blocks, Table 4.1's
    measures with the others of the page and the correlated rows): row -> claim marks
    (FD, MONO, BND, MAX, CORR; Y claimed, - disclaimed)."""
    rows = {}
    for block in re.findall(r"```\n(measure .*?)```", DOCS.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines()[2:]:
            cells = line.split()
            if len(cells) != 6 or cells[0].startswith("["):
                continue
            marks = [cell[0] for cell in cells[1:]]
            assert set(marks) <= set(_MARK_CLAIMED), (
                line,
                "docs/table41.md: a cell that is " "neither holds nor refuted",
            )
            rows[cells[0]] = "".join(_MARK_CLAIMED[m] for m in marks)
    return rows


def _marks(name):
    claims = get_measure(name).claims
    return "".join("Y" if claims[a] else "-" for a in Axiom)


def test_change_detector_registry_declarations_match_docs_table41():
    """THE change detector of the audit table: every row of docs/table41.md's audit output
    against the registry's declarations (the measure's or its variant's claims). Fails when
    a declaration changes without the page: update docs/table41.md with it. The evidence
    is the counterexamples (properties/test_axioms.py: the audit's status is "holds" for
    every claim and "refuted" for every disclaimer, of every registered measure), not this
    comparison; a measure the page does not discuss needs no entry here."""
    documented = documented_audit_rows()
    subjects = {s.name: s for s in propstab.auditing.audited_subjects()}
    assert set(THESIS_TABLE_41) <= set(documented)
    assert {"sechidis", "msi", "yu", "pearson"} <= set(documented)  # the correlated block
    assert set(documented) <= set(subjects), set(documented) - set(subjects)
    declared = {
        row: "".join("Y" if subjects[row].claims[a] else "-" for a in Axiom) for row in documented
    }
    assert declared == documented


@pytest.mark.parametrize("name", sorted(THESIS_TABLE_41))
def test_every_thesis_claim_the_registry_drops_is_refuted_on_independent_evidence(name):
    """Each Table 4.1 tick that propstab disclaims: the audit, checked in the thesis's
    direction, finds a counterexample, and the counterexample refutes the axiom on
    evidence computed without propstab (tests/evidence.py: the slow twin in fractions,
    exact total variance, null expectations by enumeration)."""
    info = get_measure(name)
    dropped = [
        a for a, t, f in zip(Axiom, THESIS_TABLE_41[name], _marks(name)) if t == "Y" and f == "-"
    ]
    for axiom in dropped:
        check = {
            FD: check_fully_defined,
            MONO: check_monotonicity,
            BND: check_bounds,
            MAX: check_maximum,
            CORR: check_correction_for_chance,
        }[axiom]
        result = check(name, claimed=True, max_examples=100)
        assert result.status == "violated", (name, axiom, result.reason)
        evidence.confirm(name, {}, info.declaration, result)


def _fake(axiom, counterexample, values=(), reason="", expectations=()):
    from propstab.auditing import CheckResult

    return CheckResult(
        "test", axiom, False, "refuted", counterexample, values, expectations, reason
    )


def test_the_independent_evidence_can_fail():
    """tests/evidence.py rejects counterexamples that do not refute: it is a test."""
    from propstab.auditing._expectations import Expectation
    from propstab.strategies import NullConfiguration

    nog = get_measure("nogueira").declaration
    bad = [
        ("nogueira", _fake(FD, Z_("10", "01"))),  # defined there
        (
            "nogueira",
            _fake(
                MONO, (Z_("1100", "1100", "0011"), Z_("1100", "1010", "0101"))  # Thm 2: a function
            ),
        ),  # of the variance
        ("nogueira", _fake(MAX, Z_("10", "10"))),  # 1 on identical
        (
            "nogueira",
            _fake(
                BND,
                Z_("10", "01"),
                values=(0.0,) * 7,
                reason="unbounded along the family disjoint_halves",
            ),
        ),
        (
            "kuncheva",
            _fake(
                CORR,
                NullConfiguration(2, 3, (1, 1)),
                expectations=(
                    Expectation(2, 3, (1, 1), 0.0, "exact"),
                    Expectation(2, 2, (1, 1), 0.0, "exact"),
                ),
            ),
        ),
    ]
    for name, result in bad:
        declaration = get_measure(name).declaration
        with pytest.raises(AssertionError):
            evidence.confirm(name, {}, declaration, result)
    # and accepts a real one: Jaccard's equal-variance pair (1/3 against 2/9)
    evidence.confirm(
        "jaccard",
        {},
        get_measure("jaccard").declaration,
        _fake(MONO, (Z_("1100", "1100", "0011"), Z_("1100", "1010", "0101"))),
    )
    assert nog.claims[MONO]


def test_every_disagreement_is_documented():
    text = DOCS.read_text(encoding="utf-8")
    for name, thesis in THESIS_TABLE_41.items():
        for axiom, t, f in zip(Axiom, thesis, _marks(name)):
            if t != f:
                assert f"| {name} | {axiom.name} |" in text, (name, axiom)


# Slow literal twins in exact arithmetic (thesis Table 3.1 and eqs 3.1-3.3): tests/twins.py.


def exact_pairwise(name, Z):
    value = twins.twin(name, Z)
    assert isinstance(value, Fraction), (name, value)  # rational on these matrices
    return value


exact_total_variance = twins.total_variance


# (measure, Z1, Z2, exact value on Z1, exact value on Z2): same M, d, row sizes and total
# variance, different values, so MONOTONICITY (strict) fails. U has sizes (4, 1, 1).
U = (Z_("11110", "10000", "00001"), Z_("11110", "00001", "00001"))
MONOTONICITY_COUNTEREXAMPLES = [
    (
        "jaccard",
        Z_("1100", "1100", "0011"),
        Z_("1100", "1010", "0101"),
        Fraction(1, 3),
        Fraction(2, 9),
    ),  # constant size k = 2
    ("jaccard", *U, Fraction(1, 12), Fraction(1, 3)),
    ("dice", *U, Fraction(2, 15), Fraction(1, 3)),
    ("ochiai", *U, Fraction(1, 6), Fraction(1, 3)),
    ("pog", *U, Fraction(5, 24), Fraction(1, 3)),
    ("wald", *U, Fraction(-13, 12), Fraction(-7, 3)),
    ("npog", *U, Fraction(-59, 96), Fraction(-13, 12)),
    (
        "lustgarten",
        Z_("1000", "1000", "1001", "0101"),
        Z_("1000", "0100", "1001", "1001"),
        Fraction(1, 8),
        Fraction(1, 24),
    ),
]


@pytest.mark.parametrize(
    "name, Z1, Z2, v1, v2",
    MONOTONICITY_COUNTEREXAMPLES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(MONOTONICITY_COUNTEREXAMPLES)],
)
def test_monotonicity_counterexamples_in_exact_arithmetic(name, Z1, Z2, v1, v2):
    assert (Z1.sum(axis=1) == Z2.sum(axis=1)).all()
    assert exact_total_variance(Z1) == exact_total_variance(Z2)
    assert (exact_pairwise(name, Z1), exact_pairwise(name, Z2)) == (v1, v2)
    assert v1 != v2
    f = get_measure(name).function
    assert math.isclose(f(Z1), v1, rel_tol=1e-12) and math.isclose(f(Z2), v2, rel_tol=1e-12)


@pytest.mark.parametrize(
    "name", ["jaccard", "dice", "ochiai", "pog", "lustgarten", "wald", "npog"]
)
def test_the_audit_finds_the_monotonicity_disagreements(name):
    """Checked in the thesis's direction (claimed), the axiom is violated."""
    r = check_monotonicity(name, claimed=True, max_examples=100)
    assert r.status == "violated"
    Z1, Z2 = r.counterexample
    assert exact_total_variance(Z1) == exact_total_variance(Z2)
    assert not math.isclose(*r.values)


def test_guzman_is_not_corrected_for_chance():
    """M = 2, d = 2, k = 1: identical runs (probability 1/2) score 1, different runs score
    1 - 2 (1/2) log(1/2) / (1 log(1/2)) = 0, so E[value | H0] = 1/2, not 0."""
    subsets = [(0,), (1,)]
    guzman = get_measure("guzman").function
    values = []
    for s, t in itertools.product(subsets, subsets):
        Z = np.zeros((2, 2), dtype=bool)
        Z[0, list(s)] = Z[1, list(t)] = True
        v = guzman(Z)
        assert v in (0.0, 1.0)  # exactly: the logarithms cancel
        values.append(Fraction(int(v)))
    assert sum(values) / len(values) == Fraction(1, 2)
    assert twins.expected_measure(twins.twin_guzman, [1, 1], 2) == Fraction(1, 2)
    # the thesis's declaration (Table 4.1: corrected, null value 0) is violated at once
    thesis = subject("guzman").declaring(
        null_value=0.0, claims={Axiom.CORRECTION_FOR_CHANCE: True}
    )
    r = check_correction_for_chance(thesis, claimed=True, max_examples=10)
    assert r.status == "violated"
    assert r.counterexample == (2, 2, (1, 1)) and r.expectations[0].value == 0.5


def test_nogueira_is_not_corrected_for_chance_when_sizes_differ():
    """M = 2, d = 3, k = (1, 2): E[Phi | H0] = -1/9 = -sum_i (k_i - kbar)^2 / (M (M-1) kbar
    (d - kbar)), not 0."""
    E = twins.expected_measure(twins.twin_nogueira, [1, 2], 3)  # every (A, B) enumerated
    assert E == Fraction(-1, 9)
    k, M, d = [1, 2], 2, 3
    kbar = Fraction(sum(k), M)
    assert E == -sum((x - kbar) ** 2 for x in k) / (M * (M - 1) * kbar * (d - kbar))
    r = check_correction_for_chance("nogueira", claimed=True, max_examples=20)
    assert r.status == "violated" and math.isclose(r.values[0], -1 / 9, rel_tol=1e-12)
    # with a constant size the expectation is 0 (thesis Thm 4: it equals Kuncheva's)
    constant = subject(
        propstab.measures.nogueira, domain="constant_size", null_value=0.0, claims=["correction"]
    )
    assert check_correction_for_chance(constant, max_examples=30).status == "holds"


def test_davis_maximum_depends_on_the_penalty():
    """Penalty 0 (the default): 1 iff all runs identical; penalty 0.5: identical runs of
    size k score 1 - k/(2d) (thesis Table 4.1's Davis, whose MAXIMUM cell is empty)."""
    assert check_maximum("davis", max_examples=60).status == "holds"
    r = check_maximum("davis", options={"penalty": 0.5}, max_examples=60)
    assert r.status == "refuted" and r.values == (0.75, 1.0)


def test_audit_progress_bar_counts_one_step_per_check(capsys):
    propstab.audit("goh", max_examples=2, axioms=["bounds", "maximum"])
    assert capsys.readouterr().err == ""  # not a terminal: no bar
    propstab.audit(["goh", "jaccard"], max_examples=2, axioms=["bounds", "maximum"], progress=True)
    n = 2 * len(propstab.auditing.audited_subjects(["goh", "jaccard"]))  # (measure, axiom) pairs
    assert "audit" in (err := capsys.readouterr().err) and f"{n}/{n}" in err
    with pytest.raises(TypeError, match="progress"):
        propstab.audit("goh", max_examples=1, progress="yes")
