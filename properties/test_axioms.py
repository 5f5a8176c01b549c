"""Every check on every registered measure: one test item per (measure, axiom).

Generated from the registry (each measure's ``variants``, :data:`propstab.auditing.VARIANTS`),
so a new measure is audited as soon as it is registered. Ids are ``<measure>-<axiom>``:
``pytest properties -k "nogueira and bounds"``.

- A claimed axiom must hold: a counterexample means the declaration is wrong.
- A disclaimed axiom must be refuted, unless it is listed in :data:`KNOWN_UNREFUTED`
  with the reason no counterexample exists or is known (shown as an expected failure),
  and the refutation must stand on independent evidence: the counterexample is
  recomputed with the slow literal twins (exact fractions), exact total variances and
  null expectations enumerated subset by subset (tests/evidence.py). Correlated measures
  without a twin are pinned one by one in tests/test_audit_correlated.py.
- A measure reading a similarity matrix or importances (the correlated family) is
  checked for every admissible one: each example is drawn with a similarity matrix
  and/or importance weights (:func:`propstab.strategies.similarity_matrices`,
  :func:`propstab.strategies.importance_weights`), docs/table41.md "Correlated feature spaces".
- A measure of rank matrices (the ranking family) is checked on rank matrices, against
  the axioms' statements for rankings; its refutations are confirmed with the literal
  twins of tests/rank_twins.py (tests/rank_evidence.py), docs/rankings.md.

The site's catalogue runs the same checks (``propstab.audit(name, max_examples=40,
random_state=0)``); in a test run each check is computed once, by this suite or by the site's
build, and the other reads its CheckResult (docs/_ext/shared_audit.py).
"""
import pytest

from propstab import Axiom, list_measures
from propstab.auditing import audited_subjects

import evidence
import rank_evidence
import shared_audit  # docs/_ext (on sys.path: properties/conftest.py)
from property_settings import AUDIT_EXAMPLES

_CANBERRA_BOUNDED = (
    "Jurman's Canberra indicator is bounded (each term is below 1, at most about 2k + 1 "
    "features can differ, and its normaliser E(d, k) grows as fast), so no family "
    "diverges; but the supremum has no known closed form, so no constant bound is "
    "declared (docs/rankings.md)"
)

#: Disclaimed axioms that the search does not refute, with the reason they stay
#: disclaimed. A listed cell that becomes refuted fails (the entry is stale).
KNOWN_UNREFUTED = {
    ("canberra", Axiom.BOUNDS): _CANBERRA_BOUNDED,
    ("canberra[k=2]", Axiom.BOUNDS): _CANBERRA_BOUNDED,
}

SUBJECTS = audited_subjects()
CASES = [pytest.param(s, a, id=f"{s.name}-{a.name.lower()}") for s in SUBJECTS for a in Axiom]


def _describe(result) -> str:
    return (
        f"{result.measure}, {result.axiom.name}: {result.status}; {result.reason}; "
        f"counterexample: {result.to_dict()['counterexample']}"
    )


@pytest.fixture(scope="module")
def shared():
    """This test run's folder of checks shared with the site's build."""
    return shared_audit.run_folder(AUDIT_EXAMPLES, 0)


@pytest.mark.parametrize("subject, axiom", CASES)
def test_axiom(subject, axiom, shared):
    # CHECKS[axiom](subject, max_examples=AUDIT_EXAMPLES, random_state=0), computed here or by the
    # site's build in this run
    result = shared_audit.check(shared, subject, axiom, max_examples=AUDIT_EXAMPLES, seed=0)
    if subject.claims[axiom]:
        assert result.status == "holds", _describe(result)
        return
    key = (subject.name, axiom)
    if result.status == "unrefuted":
        if key in KNOWN_UNREFUTED:
            pytest.xfail(KNOWN_UNREFUTED[key])
    assert key not in KNOWN_UNREFUTED, f"stale KNOWN_UNREFUTED entry: {_describe(result)}"
    assert result.status == "refuted", _describe(result)
    name = subject.name.split("[")[0]
    if subject.declaration.input == "ranking":
        rank_evidence.confirm(name, subject.options, subject.declaration, result)
    elif evidence.twin_of(name, subject.options) is not None and (
        result.context is None or result.context.weights is None
    ):
        evidence.confirm(name, subject.options, subject.declaration, result)


def _expected_ids():
    """(measure, axiom) ids from the registry itself: each measure at its defaults and at
    each declared variant's options, labelled ``name[option=value, ...]``."""
    names = []
    for m in list_measures():
        names.append(m.name)
        names += [
            m.name + "[" + ", ".join(f"{k}={v}" for k, v in variant.options.items()) + "]"
            for variant in m.variants
        ]
    return [f"{n}-{a.name.lower()}" for n in names for a in Axiom]


def test_every_registered_measure_and_variant_is_audited_once_per_axiom():
    """Registry integrity (computed from list_measures() and MeasureInfo.variants, not
    from audited_subjects): no measure, variant or axiom is left out or doubled."""
    ids = [case.id for case in CASES]
    assert sorted(ids) == sorted(_expected_ids())
    assert len(set(ids)) == len(ids)
