"""propstab against the committed R reference values, without R.

r_compat/reference_values.json is written by r_compat/generate_reference.R (stabm
1.2.2, irr 0.85): inputs in stabm's form (1-based feature lists, p), the R function
and its R arguments, and R's value with 17 significant digits. Each case is mapped
back to a propstab measure and options through the registry's ``r_reference``
(so the registry's argument translation is checked too) and judged by the live
harness's own rule (:func:`propstab.r._evaluation.evaluate`): agreement within
1e-10 and NaN exactly where R gives NA/NaN, or a documented expected difference.
Cases tagged with a defect key are its minimal example and must show it.
"""
import json
import pathlib

import numpy as np
import pytest
from scipy import sparse

import propstab
from propstab._utils.exceptions import RReferenceError
from propstab.r._call import RValue
from propstab.r._cases import WORKED_EXAMPLES, Case
from propstab.r._evaluation import TOLERANCE, Reference, evaluate
from propstab.r._defects import EXPECTED_DIFFERENCES

TABLE = json.loads((pathlib.Path(__file__).with_name("reference_values.json")).read_text())


def _matrix(inp) -> np.ndarray:
    Z = np.zeros((len(inp["features"]), inp["p"]), dtype=bool)
    for i, f in enumerate(inp["features"]):
        Z[i, np.asarray(f, dtype=int) - 1] = True
    return Z


def _reference_for(r_function, arguments=None):
    """The registered measure and its R reference (``r_references``) that is
    ``r_function`` called with ``arguments`` ((None, None) if none yet): a reference's
    ``fixed`` arguments (irr's ``exact = TRUE`` for conger) tell two measures of one R
    function apart."""
    arguments = arguments or {}
    for m in propstab.list_measures():
        for ref in m.r_references:
            if (
                str(ref) == r_function
                and all(arguments.get(k) == v for k, v in ref.fixed.items())
                and all(k in ref.fixed or k in ref.arguments.values() for k in arguments)
            ):
                return m, ref
    return None, None


def _measure_for(r_function, arguments=None):
    return _reference_for(r_function, arguments)[0]


def _r_to_option(value):
    if isinstance(value, dict) and set(value) in ({"dense"}, {"sparse"}):
        arr = np.asarray(next(iter(value.values())), dtype=np.float64)
        return sparse.csr_matrix(arr) if "sparse" in value else arr
    return value


def _options(info, arguments: dict, ref) -> dict:
    """R arguments -> propstab options, inverting the translation of the registry's
    reference ``ref``."""
    if not arguments:
        return {}
    by_r = {r: name for name, r in ref.arguments.items()}
    back = {(opt, r_value): value for (opt, value), r_value in ref.values.items()}
    out = {}
    for r_name, r_value in arguments.items():
        if r_name in ref.fixed:  # passed on every call, not an option
            assert r_value == ref.fixed[r_name], (r_name, r_value)
            continue
        assert r_name in by_r, (
            f"{ref} is called with R argument {r_name!r}, which "
            f"{info.name}'s registry entry does not translate"
        )
        opt = by_r[r_name]
        r_value = _r_to_option(r_value)
        out[opt] = back.get((opt, r_value), r_value) if not hasattr(r_value, "shape") else r_value
    return out


def _stored(case):
    if case["value"] == "error":

        def failing(_case):
            raise RReferenceError(
                f"R error: {case['error']}", r_message=case["error"], r_call=case["r_function"]
            )

        return failing
    kind = case["value"] if case["value"] in ("NA", "NaN") else "number"
    value = float("nan") if kind != "number" else float(case["value"])
    return lambda _case: RValue(value, kind)


def _registered_cases():
    out = []
    for i, case in enumerate(TABLE["cases"]):
        info = _measure_for(case["r_function"], case["arguments"])
        if info is not None:
            args = "".join(f",{k}={v}" for k, v in case["arguments"].items() if k != "sim.mat")
            out.append(
                pytest.param(case, info, id=f"{case['input']}-{case['r_function']}{args}-{i}")
            )
    return out


R_ONLY = {e.key for e in EXPECTED_DIFFERENCES if e.applies is None}


@pytest.mark.parametrize("case,info", _registered_cases())
def test_propstab_matches_r_reference_value(case, info):
    if set(case["expected_difference"]) & R_ONLY:
        # an input propstab rejects (e.g. a similarity without its diagonal): R's failure
        # on it is the pin
        assert case["value"] == "error", case
        return
    Z = _matrix(TABLE["inputs"][case["input"]])
    _, registered = _reference_for(case["r_function"], case["arguments"])
    options = propstab.registry._option_checks.check_options(
        info, _options(info, case["arguments"], registered)
    )
    ref = Reference(info.name, case["r_function"], _stored(case), dict(registered.arguments))
    outcome = evaluate(info, ref, Case(case["input"], Z, options), TOLERANCE)
    tags = case["expected_difference"]
    if not tags:  # agreement, or a case under a documented defect (as in the harness)
        assert outcome.status in ("agree", "expected"), (
            f"propstab {info.name} = {outcome.propstab!r} (warned: {outcome.warned}), "
            f"R {case['r_function']} = {case['value']} {case.get('error') or ''}"
        )
    else:  # the minimal example of a documented stabm defect shows it
        assert outcome.status == "expected", outcome
        assert set(tags) <= set(outcome.expected), (tags, outcome.expected)


def test_table_records_its_provenance():
    assert TABLE["generated_by"] == "r_compat/generate_reference.R"
    assert TABLE["versions"]["stabm"] == "1.2.2"
    assert TABLE["versions"]["irr"] == "0.85"
    numbers = [c["value"] for c in TABLE["cases"] if c["value"] not in ("NA", "NaN", "error")]
    assert numbers and all(float(v) == float(repr(float(v))) for v in numbers)
    # 17 significant digits (trailing zeros aside): the binary double is recovered exactly
    digits = [len(v.split("e")[0].lstrip("-").replace(".", "").lstrip("0")) for v in numbers]
    assert max(digits) == 17


def test_every_cross_checked_measure_has_reference_values():
    """Every measure whose reference is an R package's function (stabm, irr). The ranking
    family's references are base R code on the rank matrix (stats::cor, stats::dist):
    they are checked live only (r_compat/test_live_crosscheck.py), not stored here."""
    covered = {
        getattr(_measure_for(c["r_function"], c["arguments"]), "name", None)
        for c in TABLE["cases"]
    }
    for m in propstab.list_measures():
        if m.r_reference is not None and m.r_reference.input != "ranks":
            assert m.name in covered, f"{m.name}: no reference values for {m.r_reference}"


def test_every_r_function_in_the_table_has_a_registered_measure():
    # the correlated family is registered: no reference value may be silently left out of
    # test_propstab_matches_r_reference_value (which only sees cases with a measure)
    pending = {
        c["r_function"]
        for c in TABLE["cases"]
        if _measure_for(c["r_function"], c["arguments"]) is None
    }
    assert pending == set()
    assert len(_registered_cases()) == len(TABLE["cases"])


def test_every_expected_difference_concerns_the_r_function_it_is_attached_to():
    """A difference sits in the registry entry of each measure it concerns, and names
    that measure's R reference (or irr's Fleiss kappa, nogueira's second reference)."""
    assert EXPECTED_DIFFERENCES
    for m in propstab.list_measures():
        for ref in m.r_references:
            for e in ref.differences:
                assert m.name in e.measures, (m.name, e.key)
                assert str(ref) in e.r_functions, (m.name, str(ref), e.key)


def test_every_expected_difference_has_a_minimal_example_in_the_table():
    tagged = {t for c in TABLE["cases"] for t in c["expected_difference"]}
    assert tagged == {e.key for e in EXPECTED_DIFFERENCES}


def test_worked_examples_are_the_same_in_r_and_in_the_harness():
    for name, Z in WORKED_EXAMPLES.items():
        np.testing.assert_array_equal(_matrix(TABLE["inputs"][name]), Z, err_msg=name)


def test_m2_corrected_davis_and_novovicova_agree_with_stabm():
    # the counterpart of corrected_global_score: with two runs the pairwise expectation
    # is the global one, and propstab equals stabm
    cases = [c for c in TABLE["cases"] if c["input"] == "defect_global_score_M2"]
    assert {c["r_function"] for c in cases} == {
        "stabm::stabilityDavis",
        "stabm::stabilityNovovicova",
    }
    for c in cases:
        info = _measure_for(c["r_function"])
        Z = _matrix(TABLE["inputs"][c["input"]])
        value = info.function(Z, correction_for_chance="exact")
        assert abs(value - float(c["value"])) <= TOLERANCE


def test_docs_table_of_expected_differences_is_up_to_date():
    from propstab.r._defects import markdown_table

    page = (pathlib.Path(__file__).parents[1] / "docs" / "r_crosscheck.md").read_text()
    assert markdown_table() in page, (
        "docs/r_crosscheck.md: regenerate the table from " "propstab.r._defects.markdown_table()"
    )
