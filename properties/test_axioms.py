"""Every check on every registered measure: one test item per (measure, axiom).

Generated from the registry (and the parameter variants of :data:`propstab.auditing.VARIANTS`),
so a new measure is audited as soon as it is registered. Ids are ``<measure>-<axiom>``:
``pytest properties -k "nogueira and bounds"``.

- A claimed axiom must hold: a counterexample means the declaration is wrong.
- A disclaimed axiom must be refuted, unless it is listed in :data:`KNOWN_UNREFUTED`
  with the reason no counterexample exists or is known (shown as an expected failure).
- A measure reading a similarity matrix or importances (the correlated family) is
  checked for every admissible one: each example is drawn with a similarity matrix
  and/or importance weights (:func:`propstab.strategies.similarity_matrices`,
  :func:`propstab.strategies.importance_weights`), docs/table41.md "Correlated feature spaces".
"""
import pytest

from propstab import Axiom, list_measures
from propstab.auditing import CHECKS, audited_subjects

from property_settings import AUDIT_EXAMPLES

#: Disclaimed axioms that the search does not refute, with the reason they stay
#: disclaimed. A listed cell that becomes refuted fails (the entry is stale).
KNOWN_UNREFUTED = {}

SUBJECTS = audited_subjects()
FAMILY = {m.name: m.family for m in list_measures()}
CASES = [pytest.param(s, a, id=f"{s.name}-{a.name.lower()}") for s in SUBJECTS for a in Axiom]


def _describe(result) -> str:
    return (f"{result.measure}, {result.axiom.name}: {result.status}; {result.reason}; "
            f"counterexample: {result.to_dict()['counterexample']}")


@pytest.mark.parametrize("subject, axiom", CASES)
def test_axiom(subject, axiom):
    result = CHECKS[axiom](subject, max_examples=AUDIT_EXAMPLES, seed=0)
    if subject.claims[axiom]:
        assert result.status == "holds", _describe(result)
        return
    key = (subject.name, axiom)
    if result.status == "unrefuted":
        if key in KNOWN_UNREFUTED:
            pytest.xfail(KNOWN_UNREFUTED[key])
    assert key not in KNOWN_UNREFUTED, f"stale KNOWN_UNREFUTED entry: {_describe(result)}"
    assert result.status == "refuted", _describe(result)


def test_every_registered_measure_is_audited():
    """Registry integrity: every measure and every variant has one item per axiom."""
    names = {s.name for s in SUBJECTS}
    assert set(FAMILY) <= names
    assert len(CASES) == len(SUBJECTS) * len(Axiom)
