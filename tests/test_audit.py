"""The axiom audit: strategies, checks in both directions, the audit table, user
functions, the CLI, and thesis Table 4.1 as corrected by the audit (docs/table41.md),
with every disagreement confirmed in exact rational arithmetic."""
import itertools
import json
import math
import pathlib
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import find, settings

import propstab
from propstab import Axiom, get_measure
from propstab.auditing import (AuditTable, audit, check_bounds, check_correction_for_chance,
                               check_fully_defined, check_maximum, check_monotonicity,
                               load_function, subject)
from propstab.cli import main
from propstab.strategies import (identical_rows, matrix_pairs, near_identical_rows,
                                 null_configurations, selection_matrices)

import twins  # tests/ is on sys.path (rootdir-relative import mode)

FD, MONO, BND, MAX, CORR = (Axiom.FULLY_DEFINED, Axiom.MONOTONICITY, Axiom.BOUNDS,
                            Axiom.MAXIMUM, Axiom.CORRECTION_FOR_CHANCE)
DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs" / "table41.md"

#: find() reproducibly: the same examples on every run, no example database (CI)
FIND = settings(database=None, derandomize=True)


def Z_(*rows):
    return np.array([[c == "1" for c in r] for r in rows])


# ---------------------------------------------------------------- strategies

@pytest.mark.parametrize("kwargs, exc, words", [
    (dict(min_runs=3, max_runs=2), ValueError, "max_runs"),
    (dict(min_features=0), ValueError, "min_features"),
    (dict(subset_sizes="proper", max_features=1, min_features=1), ValueError, "d >= 2"),
    (dict(subset_sizes=9, max_features=8), ValueError, "subset_sizes"),
    (dict(subset_sizes="sometimes"), ValueError, "subset_sizes"),
    (dict(max_runs=2.5), TypeError, "max_runs"),
])
def test_impossible_strategy_arguments_raise_at_once(kwargs, exc, words):
    with pytest.raises(exc, match=words):
        selection_matrices(**kwargs)


def test_near_identical_rows_needs_room_for_a_swap_and_two_runs():
    with pytest.raises(ValueError, match="subset_sizes"):
        near_identical_rows(subset_sizes=2, max_features=2)
    with pytest.raises(ValueError, match="min_runs"):
        near_identical_rows(min_runs=1)


@pytest.mark.parametrize("condition", [
    lambda Z: (Z.sum(axis=1) == 0).any(),                       # an empty row
    lambda Z: (Z.sum(axis=1) == Z.shape[1]).any(),              # a full row
    lambda Z: ((Z.sum(axis=0) == Z.shape[0]) & Z.any(axis=1).all()).any(),  # constant column
])
def test_defaults_include_degenerate_cases(condition):
    assert condition(find(selection_matrices(), condition, settings=FIND))


def test_strategies_respect_their_arguments():
    Z = find(selection_matrices(subset_sizes="proper_constant", min_runs=3, min_features=5),
             lambda Z: True, settings=FIND)
    assert Z.shape == (3, 5) and len(set(Z.sum(axis=1))) == 1 and 0 < Z.sum(axis=1)[0] < 5
    Z1, Z2 = find(matrix_pairs(subset_sizes="proper"), lambda p: (p[0] != p[1]).any(),
                  settings=FIND)
    assert (Z1.sum(axis=1) == Z2.sum(axis=1)).all()
    assert (find(identical_rows(min_runs=4), lambda Z: Z.any(), settings=FIND)
            == [[1, 0]] * 4).all()
    Z = find(near_identical_rows(subset_sizes=2, min_features=4), lambda Z: True, settings=FIND)
    assert (Z.sum(axis=1) == 2).all() and not (Z == Z[0]).all()
    c = find(null_configurations(subset_sizes="proper_constant"), lambda c: c.n_runs > 2,
             settings=FIND)
    assert c == (3, 2, (1, 1, 1))


def test_a_wrong_measure_shrinks_to_a_tiny_counterexample():
    """A measure that breaks on three selections: the reported matrix is minimal."""
    def fragile(Z):
        return math.nan if Z.sum() >= 3 else float(Z.mean())

    r = check_fully_defined(fragile, claimed=True, max_examples=100)
    assert r.status == "violated"
    assert r.counterexample.sum() == 3 and r.counterexample.size <= 6

    def reversed_nogueira(Z):                  # decreasing in stability, claimed monotone
        return -propstab.measures.nogueira(Z)

    r = check_monotonicity(reversed_nogueira, claimed=True, max_examples=100)
    assert r.status == "violated"
    assert all(z.shape == (2, 2) for z in r.counterexample)


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
    a = audit(["goh", "lausser"], max_examples=25, seed=3)
    b = audit(["goh", "lausser"], max_examples=25, seed=3)
    assert a.to_json() == b.to_json()
    rows = json.loads(a.to_json())
    assert len(rows) == 10 and {r["status"] for r in rows} <= {"holds", "refuted", "unrefuted"}
    frame = a.to_frame()
    assert list(frame.columns[:4]) == ["measure", "axiom", "claimed", "status"]
    text = str(a)
    assert repr(a) == ("AuditTable(n_measures=2, n_rows=10, holds={holds}, violated=0, "
                       "refuted={refuted}, unrefuted={unrefuted}, skipped=0)").format(
        **{s: sum(r.status == s for r in a) for s in ("holds", "refuted", "unrefuted")})
    assert text.splitlines()[0].split()[:2] == ["measure", "fully"]
    assert "[1] goh, monotonicity: Z1 = " in text
    assert isinstance(a, AuditTable) and len(a) == 10


def test_audit_rejects_bad_arguments():
    with pytest.raises(ValueError, match="max_examples"):
        audit("goh", max_examples=0)
    with pytest.raises(ValueError, match="not a registered measure"):
        audit("gohh")
    with pytest.raises(ValueError, match="not an axiom"):
        audit(lambda Z: 0.0, claims=["boundz"])


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
    assert table.status("overlap", "maximum") == "violated"      # empty rows score 0, not 1
    assert table.status("overlap", "correction") == "refuted"
    code = main(["audit", f"{path}:overlap", "--json", "--max-examples", "40"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 1                                             # a claim is violated
    assert [r["status"] for r in rows] == [r.status for r in table]
    with pytest.raises(ValueError, match="defines no function"):
        load_function(f"{path}:nothing")


def test_cli_audits_one_registered_measure(capsys):
    assert main(["audit", "--measure", "kuncheva", "--max-examples", "20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("measure") and "kuncheva" in out and "[1] kuncheva, fully defined" in out
    assert main(["audit", "--measure", "nogeuira"]) == 2
    assert "Did you mean 'nogueira'" in capsys.readouterr().err


# ---------------------------------------------------------------- thesis Table 4.1

#: Thesis Table 4.1 (p. 57, "1" in the text extraction is a tick): (FD, MONO, BND, MAX, CORR).
THESIS_TABLE_41 = {
    "hamming": "YYYY-", "jaccard": "YYYY-", "dice": "YYYY-", "ochiai": "YYYY-",
    "pog": "YYYY-", "kuncheva": "-YYYY", "lustgarten": "YYY-Y", "wald": "YY--Y",
    "npog": "YY-YY", "goh": "Y-Y--", "davis": "Y-Y--", "krizek": "---Y-",
    "guzman": "--YYY", "cwrel": "YYY--", "lausser": "-YYY-",
}

#: propstab's declarations after the audit (docs/table41.md).
FINAL_TABLE_41 = {
    "hamming": "YYYY-", "jaccard": "Y-YY-", "dice": "Y-YY-", "ochiai": "Y-YY-",
    "pog": "Y-YY-", "kuncheva": "-YYYY", "lustgarten": "Y-Y-Y", "wald": "Y---Y",
    "npog": "Y--YY", "goh": "Y-Y--", "davis": "Y-YY-", "krizek": "---Y-",
    "guzman": "--YY-", "cwrel": "YYY--", "lausser": "-YYY-",
}


def _marks(name):
    claims = get_measure(name).claims
    return "".join("Y" if claims[a] else "-" for a in Axiom)


def test_registry_declares_the_corrected_table():
    assert {name: _marks(name) for name in FINAL_TABLE_41} == FINAL_TABLE_41


def test_every_disagreement_is_documented():
    text = DOCS.read_text(encoding="utf-8")
    for name, thesis in THESIS_TABLE_41.items():
        for axiom, t, f in zip(Axiom, thesis, FINAL_TABLE_41[name]):
            if t != f:
                assert f"| {name} | {axiom.name} |" in text, (name, axiom)


# Slow literal twins in exact arithmetic (thesis Table 3.1 and eqs 3.1-3.3): tests/twins.py.

def exact_pairwise(name, Z):
    value = twins.twin(name, Z)
    assert isinstance(value, Fraction), (name, value)     # rational on these matrices
    return value


exact_total_variance = twins.total_variance


# (measure, Z1, Z2, exact value on Z1, exact value on Z2): same M, d, row sizes and total
# variance, different values, so MONOTONICITY (strict) fails. U has sizes (4, 1, 1).
U = (Z_("11110", "10000", "00001"), Z_("11110", "00001", "00001"))
MONOTONICITY_COUNTEREXAMPLES = [
    ("jaccard", Z_("1100", "1100", "0011"), Z_("1100", "1010", "0101"),
     Fraction(1, 3), Fraction(2, 9)),                        # constant size k = 2
    ("jaccard", *U, Fraction(1, 12), Fraction(1, 3)),
    ("dice", *U, Fraction(2, 15), Fraction(1, 3)),
    ("ochiai", *U, Fraction(1, 6), Fraction(1, 3)),
    ("pog", *U, Fraction(5, 24), Fraction(1, 3)),
    ("wald", *U, Fraction(-13, 12), Fraction(-7, 3)),
    ("npog", *U, Fraction(-59, 96), Fraction(-13, 12)),
    ("lustgarten", Z_("1000", "1000", "1001", "0101"), Z_("1000", "0100", "1001", "1001"),
     Fraction(1, 8), Fraction(1, 24)),
]


@pytest.mark.parametrize("name, Z1, Z2, v1, v2", MONOTONICITY_COUNTEREXAMPLES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(MONOTONICITY_COUNTEREXAMPLES)])
def test_monotonicity_counterexamples_in_exact_arithmetic(name, Z1, Z2, v1, v2):
    assert (Z1.sum(axis=1) == Z2.sum(axis=1)).all()
    assert exact_total_variance(Z1) == exact_total_variance(Z2)
    assert (exact_pairwise(name, Z1), exact_pairwise(name, Z2)) == (v1, v2)
    assert v1 != v2
    f = get_measure(name).function
    assert math.isclose(f(Z1), v1, rel_tol=1e-12) and math.isclose(f(Z2), v2, rel_tol=1e-12)


@pytest.mark.parametrize("name", ["jaccard", "dice", "ochiai", "pog", "lustgarten", "wald",
                                  "npog"])
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
        assert v in (0.0, 1.0)                   # exactly: the logarithms cancel
        values.append(Fraction(int(v)))
    assert sum(values) / len(values) == Fraction(1, 2)
    assert twins.expected_measure(twins.twin_guzman, [1, 1], 2) == Fraction(1, 2)
    # the thesis's declaration (Table 4.1: corrected, null value 0) is violated at once
    import dataclasses
    from propstab.auditing import subject
    registered = subject("guzman")
    thesis = dataclasses.replace(
        registered, null_value=0.0,
        claims={**registered.claims, Axiom.CORRECTION_FOR_CHANCE: True})
    r = check_correction_for_chance(thesis, claimed=True, max_examples=10)
    assert r.status == "violated"
    assert r.counterexample == (2, 2, (1, 1)) and r.expectations[0].value == 0.5


def test_nogueira_is_not_corrected_for_chance_when_sizes_differ():
    """M = 2, d = 3, k = (1, 2): E[Phi | H0] = -1/9 = -sum_i (k_i - kbar)^2 / (M (M-1) kbar
    (d - kbar)), not 0."""
    E = twins.expected_measure(twins.twin_nogueira, [1, 2], 3)   # every (A, B) enumerated
    assert E == Fraction(-1, 9)
    k, M, d = [1, 2], 2, 3
    kbar = Fraction(sum(k), M)
    assert E == -sum((x - kbar) ** 2 for x in k) / (M * (M - 1) * kbar * (d - kbar))
    r = check_correction_for_chance("nogueira", claimed=True, max_examples=20)
    assert r.status == "violated" and math.isclose(r.values[0], -1 / 9, rel_tol=1e-12)
    # with a constant size the expectation is 0 (thesis Thm 4: it equals Kuncheva's)
    constant = subject(propstab.measures.nogueira, domain="constant_size", null_value=0.0,
                       claims=["correction"])
    assert check_correction_for_chance(constant, max_examples=30).status == "holds"


def test_davis_maximum_depends_on_the_penalty():
    """Penalty 0 (the default): 1 iff all runs identical; penalty 0.5: identical runs of
    size k score 1 - k/(2d) (thesis Table 4.1's Davis, whose MAXIMUM cell is empty)."""
    assert check_maximum("davis", max_examples=60).status == "holds"
    r = check_maximum("davis", options={"penalty": 0.5}, max_examples=60)
    assert r.status == "refuted" and r.values == (0.75, 1.0)
