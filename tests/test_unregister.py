"""propstab.registry.unregister: the public way to remove a measure added with register
(the register example uses it instead of editing the private registry)."""
import pytest

import propstab
from propstab.registry import RReference, claims, get_measure, register, unregister
from propstab.r import EXPECTED_DIFFERENCES

Z = [[1, 1, 0, 0], [1, 0, 0, 0]]


def _declare(name, aliases=(), r_reference=None):
    @register(
        name=name,
        family="frequency",
        summary="k_1 / d",
        references=("A test",),
        aliases=aliases,
        r_reference=r_reference,
        claims=claims(
            fully_defined=True,
            monotonicity=False,
            bounds=True,
            maximum=False,
            correction_for_chance=False,
        ),
        lower=0,
        upper=1,
    )
    def first_run_share(sel):
        """The share of the features that the first run selects."""
        return sel.row_sizes[0] / sel.n_features

    return first_run_share


def _names():
    return {m.name for m in propstab.list_measures()}


def test_unregister_removes_the_name_and_its_aliases_and_frees_them():
    before = _names()
    _declare("tmp_first_share", aliases=("tmp_first_alias",))
    assert propstab.stability(Z, "tmp_first_alias") == 0.5  # k_1 / d = 2 / 4
    info = unregister("tmp_first_alias")  # by an alias
    assert info.name == "tmp_first_share" and info.function(Z) == 0.5
    assert _names() == before
    for name in ("tmp_first_share", "tmp_first_alias"):
        with pytest.raises(ValueError, match="not a registered measure"):
            get_measure(name)
    _declare("tmp_first_share", aliases=("tmp_first_alias",))  # the names are free again
    assert propstab.stability(Z, "tmp_first_share") == 0.5
    unregister("tmp_first_share")
    assert _names() == before


def test_unregister_forgets_the_measure_in_the_documented_r_differences():
    difference = EXPECTED_DIFFERENCES[0]
    reference = RReference("stabm", "stabilityJaccard", differences=(difference,))
    _declare("tmp_with_difference", r_reference=reference)
    assert "tmp_with_difference" in difference.measures
    unregister("tmp_with_difference")
    assert "tmp_with_difference" not in difference.measures


@pytest.mark.parametrize(
    "name, kind, words",
    [
        ("nogueira", ValueError, "propstab's own measures"),
        ("gk", ValueError, "propstab's own measures"),  # an alias of jaccard
        ("nogeira", ValueError, "Did you mean 'nogueira'"),
        (3, TypeError, "must be a measure name"),
    ],
)
def test_unregister_refuses_propstab_measures_and_unknown_names(name, kind, words):
    before = _names()
    with pytest.raises(kind, match=words) as caught:
        unregister(name)
    assert caught.value.argument == "name"
    assert _names() == before
