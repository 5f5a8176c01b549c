"""Declared bounds that cannot be compared when declared: a bound depending on M, d or
the row sizes (a :class:`propstab.registry.Bound` with ``func``) is compared with the
other at its first evaluation, and an inverted pair is refused there naming ``lower``
and both values, in :func:`propstab.audit`, :func:`assert_measure_properties` and the
checks; a bound that cannot be evaluated is refused naming its side; a NumPy number is
a number."""
import numpy as np
import pytest

import propstab
from propstab import InvalidParameterError
from propstab.auditing import check_maximum
from propstab.registry import Bound, Declaration
from propstab.testing import assert_measure_properties


def coverage(Z):
    return float(np.mean(Z))


M_BOUND = Bound("M", func=lambda M, d, k: float(M))
ONE = Bound("1", func=lambda M, d, k: 1.0)
CALLS = {
    "audit": lambda **kw: propstab.audit(coverage, max_examples=5, progress=False, **kw),
    "assert_measure_properties": lambda **kw: assert_measure_properties(
        coverage, max_examples=5, **kw
    ),
    "check_maximum": lambda claims, **kw: check_maximum(
        propstab.auditing.subject(coverage, claims=claims, **kw), max_examples=5
    ),
}


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize(
    "lower, upper, orientation",
    [
        (M_BOUND, 1, "higher"),  # M >= 2 > 1 on every searched shape
        (M_BOUND, ONE, "higher"),
        (2, ONE, "higher"),  # a constant against a shape-dependent bound
        (M_BOUND, ONE, "lower"),
    ],
    ids=["func-const", "func-func", "const-func", "lower-is-stable"],
)
def test_an_inverted_pair_is_refused_at_its_first_evaluation(call, lower, upper, orientation):
    with pytest.raises(
        InvalidParameterError,
        match=r"^lower: must be at most upper .* at M = \d+, d = \d+ and row sizes "
        r"\[[\d, ]+\] got lower=\S+ = \d+ > upper=1 = 1",
    ) as caught:
        CALLS[call](claims=["maximum"], lower=lower, upper=upper, orientation=orientation)
    assert caught.value.argument == "lower"


@pytest.mark.parametrize("call", ["audit", "assert_measure_properties"])
def test_an_ordered_shape_dependent_pair_is_audited(call):
    """lower = 0 <= upper = 1 as functions: audited as the constants are (the MAXIMUM
    check's verdict the same)."""
    zero = Bound("0", func=lambda M, d, k: 0.0)
    as_functions = CALLS["check_maximum"](["maximum"], lower=zero, upper=ONE)
    as_constants = CALLS["check_maximum"](["maximum"], lower=0, upper=1)
    assert as_functions.status == as_constants.status == "violated"
    if call == "audit":
        CALLS[call](claims=["fully_defined"], lower=zero, upper=ONE)


def test_a_bound_that_cannot_be_evaluated_is_refused_naming_its_side():
    broken = Bound("1/0", func=lambda M, d, k: 1 / 0)
    with pytest.raises(
        InvalidParameterError,
        match=r"^upper: the declared bound 1/0 could not be evaluated at M = \d+, d = \d+ "
        r"and row sizes .*ZeroDivisionError",
    ) as caught:
        CALLS["audit"](claims=["maximum"], lower=0, upper=broken)
    assert caught.value.argument == "upper"


def test_the_declaration_compares_at_each_shape():
    d = Declaration(claims={}, lower=Bound("d - 3", func=lambda M, d, k: d - 3.0), upper=1)
    assert d.bounds_at(2, 4, [1, 1]) == (1.0, 1.0)
    with pytest.raises(InvalidParameterError, match=r"at M = 2, d = 5 .* = 2 > upper=1 = 1"):
        d.bounds_at(2, 5, [1, 1])
    assert Declaration(claims={}, upper=ONE).bounds_at(3, 3, [1, 1, 1]) == (None, 1.0)


@pytest.mark.parametrize("low, high", [(np.int64(0), np.float32(1)), (np.array(0.0), 1)])
def test_a_numpy_number_is_a_number(low, high):
    """np.int64(0) was refused as "must be a number, a Bound or None"."""
    got = propstab.auditing.subject(coverage, claims=["bounds"], lower=low, upper=high)
    assert got.constant_bounds == (0.0, 1.0)
    with pytest.raises(InvalidParameterError, match=r"^lower: must be at most upper"):
        propstab.auditing.subject(coverage, claims=["bounds"], lower=high, upper=low)
    from propstab.measures.kernels import count_kernel
    from propstab.registry import claims, get_measure, register, unregister

    register(
        name="test_numpy_bounds",
        family="frequency",
        summary="mean frequency",
        references=("none",),
        claims=claims(
            fully_defined=True,
            monotonicity=False,
            bounds=True,
            maximum=False,
            correction_for_chance=False,
        ),
        lower=low,
        upper=high,
    )(
        count_kernel(undefined_when=lambda c: c.total == 0, reason="nothing selected")(
            lambda c: c.total / (c.n_runs * c.n_features)
        )
    )
    try:
        assert [b.value for b in get_measure("test_numpy_bounds").bounds] == [0, 1]
    finally:
        unregister("test_numpy_bounds")


@pytest.mark.parametrize("value", [np.array([0.0, 1.0]), [0, 1], "0"])
def test_an_array_of_bounds_is_refused_naming_lower(value):
    with pytest.raises(InvalidParameterError, match=r"^lower: must be a number, a Bound") as c:
        propstab.auditing.subject(coverage, lower=value, upper=1)
    assert c.value.argument == "lower"
