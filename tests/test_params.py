"""The one error class of invalid arguments and the declared rules (issue 21):
``propstab.InvalidParameterError`` and ``propstab._utils.params.validate_params``."""
from __future__ import annotations

import pickle
from numbers import Integral, Real

import numpy as np
import pytest

import propstab
from propstab._utils.params import (
    Boolean,
    Callable,
    Interval,
    Options,
    Param,
    RandomState,
    breaks,
    invalid_values,
    parameter_constraints,
    validate_params,
)


# ----------------------------------------------------------------------------------
# the error class


def test_the_error_is_a_value_error_and_a_type_error_with_its_argument():
    with pytest.raises(propstab.InvalidParameterError) as caught:
        propstab.stability([[1, 0], [0, 2]])
    error = caught.value
    assert isinstance(error, ValueError) and isinstance(error, TypeError)
    assert error.argument == "Z" and error.kind is ValueError
    assert str(error).startswith("Z: entries must be 0/1")


def test_the_rule_broken_keeps_its_builtin_class_as_kind():
    with pytest.raises(TypeError) as caught:  # a string is not a matrix
        propstab.as_selection("x")
    assert caught.value.kind is TypeError and caught.value.argument == "Z"
    with pytest.raises(ValueError) as caught:
        propstab.as_selection([[1, 0]])  # one run
    assert caught.value.kind is ValueError


def test_two_sample_inputs_are_named_as_the_user_named_them():
    with pytest.raises(propstab.InvalidParameterError) as caught:
        propstab.two_sample_test([[1, 0], [0, 1]], [[1, 0]])
    assert caught.value.argument == "Z2"
    assert str(caught.value).startswith("Z2: a selection matrix needs at least 2 runs")


def test_the_error_pickles_with_its_attributes():
    error = propstab.InvalidParameterError(
        "q: must be > 0; got -1", argument="q", function="error_control", kind=TypeError
    )
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.argument, copy.function, copy.kind) == (
        "q: must be > 0; got -1",
        "q",
        "error_control",
        TypeError,
    )


def test_renamed_changes_only_the_argument():
    error = propstab.InvalidParameterError(
        "similarity: must be symmetric; got S[0, 1] = 0.3", argument="similarity"
    )
    renamed = error.renamed({"similarity": "sim.mat"})
    assert str(renamed) == "sim.mat: must be symmetric; got S[0, 1] = 0.3"
    assert renamed.argument == "sim.mat"
    assert error.renamed({"Z": "features"}) is error  # not an argument it names


def test_the_r_front_end_reports_the_builtin_class_and_the_r_names():
    from propstab.r._frontend import invoke

    out = invoke(
        "measure_value",
        {"measure": "jaccard", "sizes": [1, 1], "indices": [1, 2], "n_features": 0},
    )
    assert out["error"]["class"] in ("ValueError", "TypeError")
    assert out["error"]["message"].startswith("p: ")


# ----------------------------------------------------------------------------------
# the decorator


@validate_params(
    {
        "n": Interval(Integral, 1, None),
        "how": Options("a", "b"),
        "level": [Interval(Real, 0, 1, closed="neither"), None],
        "flag": Boolean(),
        "f": Callable("a function f(x)"),
        "seed": RandomState(),
        "k": Interval(Integral, 1, Param("n")),
    }
)
def declared(n, *, how="a", level=None, flag=False, f=len, seed=None, k=1):
    return n, how, level, flag, k


def test_a_declared_function_names_the_parameter_and_the_function():
    with pytest.raises(propstab.InvalidParameterError) as caught:
        declared(0)
    assert str(caught.value) == "n: must be >= 1; got 0 (in declared)"
    assert (caught.value.argument, caught.value.function) == ("n", "declared")
    with pytest.raises(
        ValueError, match=r"^how: must be one of 'a', 'b'; got 'c' \(in declared\)$"
    ):
        declared(2, how="c")
    with pytest.raises(TypeError, match=r"^flag: must be True or False; got 1 \(in declared\)"):
        declared(2, flag=1)
    with pytest.raises(TypeError, match=r"^f: must be a function f\(x\); got 5"):
        declared(2, f=5)
    with pytest.raises(ValueError, match=r"^level: must be in \(0.0, 1.0\); got 1.0"):
        declared(2, level=1.0)
    with pytest.raises(ValueError, match=r"^seed: must be a non-negative integer"):
        declared(2, seed=-1)


def test_a_bound_may_be_another_argument():
    assert declared(3, k=3)[-1] == 3
    with pytest.raises(ValueError, match=r"^k: must be >= 1 and <= 3; got 4 \(in declared\)"):
        declared(3, k=4)


def test_the_function_receives_checked_values_and_keeps_its_signature():
    import inspect

    assert declared(np.int64(2), level=np.float64(0.5), flag=np.bool_(True)) == (
        2,
        "a",
        0.5,
        True,
        1,
    )
    assert type(declared(np.int64(2))[0]) is int
    assert list(inspect.signature(declared).parameters) == [
        "n",
        "how",
        "level",
        "flag",
        "f",
        "seed",
        "k",
    ]
    with pytest.raises(TypeError, match="no_such"):
        declared(2, no_such=1)


def test_a_declaration_names_only_parameters_the_function_has():
    with pytest.raises(TypeError, match="'m'"):

        @validate_params({"m": Boolean()})
        def f(n):
            return n


def test_every_constraint_type_gives_values_that_break_it():
    rules = parameter_constraints(declared)
    for name, rule in rules.items():
        values = invalid_values(rule, {"n": 3})
        assert values, name
        assert all(breaks(rule, v, {"n": 3}) for v in values)
    assert None not in invalid_values(rules["level"])  # None is allowed there
    assert 4 in invalid_values(rules["k"], {"n": 3})


def test_the_public_entry_points_declare_their_rules():
    from propstab import chance, similarity
    from propstab.auditing import audit
    from propstab.error_control import error_control

    for function in (
        propstab.stability,
        similarity.similarity_from_data,
        similarity.similarity_from_groups,
        error_control,
        audit,
        chance.expected_pairwise,
        chance.column_count_pmf,
    ):
        assert parameter_constraints(function), function
    assert set(parameter_constraints(error_control)) == {
        "n_features",
        "sampling",
        "assumption",
        "n_subsamples",
        ("cutoff", "q", "PFER"),
        "PFER",
        "cutoff",
        "q",
    }
    with pytest.raises(propstab.InvalidParameterError) as caught:  # a rule between them
        error_control(100, cutoff=0.75)
    assert caught.value.argument == "cutoff, q, PFER" and "exactly two" in str(caught.value)
    with pytest.raises(
        propstab.InvalidParameterError,
        match=r"^q: must be in \(0.0, 100.0\]; got 101.0 \(in error_control\)",
    ):
        error_control(100, cutoff=0.75, q=101)
