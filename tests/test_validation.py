"""One test per input rule of issue 2 ("Input model"), checking the message names
the argument, the rule and the offending value."""
import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

import propstab
from propstab import UndefinedMeasureWarning, as_selection, stability

import twins  # tests/ is on sys.path (rootdir-relative import mode)


def raises(exc, *fragments):
    """pytest.raises matching every fragment (literal text) in the message."""
    pattern = "".join(f"(?=.*{re.escape(f)})" for f in fragments)
    return pytest.raises(exc, match=re.compile(pattern, re.S))


# ------------------------------------------------------------------ values


def test_non_binary_value_dense():
    with raises(ValueError, "Z:", "0/1", "found 2", "run 0", "feature 1"):
        as_selection([[0, 2], [1, 0]])


def test_non_binary_value_float():
    with raises(ValueError, "Z:", "0/1", "0.5"):
        as_selection(np.array([[0, 0.5], [1, 0]]))


def test_non_binary_value_sparse():
    with raises(ValueError, "Z:", "0/1", "sparse", "3"):
        as_selection(sparse.csr_matrix(np.array([[0, 3], [1, 0]])))


def test_non_binary_value_dataframe_names_the_column():
    with raises(ValueError, "Z:", "0/1", "found 2", "'b'"):
        as_selection(pd.DataFrame({"a": [0, 1], "b": [2, 0]}))


def test_nan():
    with raises(ValueError, "Z:", "NaN", "run 1", "feature 0"):
        as_selection(np.array([[0, 1], [np.nan, 0]]))


def test_nan_sparse():
    with raises(ValueError, "Z:", "NaN"):
        as_selection(sparse.csr_matrix(np.array([[0, 1], [np.nan, 0]])))


def test_non_numeric_entries():
    with raises(TypeError, "Z:", "0/1"):
        as_selection(np.array([["a", "b"], ["c", "d"]]))


# ------------------------------------------------------------------ shape


@pytest.mark.parametrize(
    "Z,shape",
    [(np.array([1, 0, 1]), "(3,)"), (np.zeros((2, 2, 2)), "(2, 2, 2)"), ([1, 0, 1], "(3,)")],
)
def test_wrong_ndim(Z, shape):
    with raises(ValueError, "Z:", "2-dimensional", shape):
        as_selection(Z)


@pytest.mark.parametrize(
    "Z,kw",
    [
        ([[1, 0]], {}),
        ([{0}], {"n_features": 3}),
        (sparse.csr_matrix(np.array([[0, 1]])), {}),
        (np.zeros((0, 3)), {}),
    ],
)
def test_fewer_than_two_runs(Z, kw):
    runs = 0 if isinstance(Z, np.ndarray) else 1
    with raises(ValueError, "Z:", "at least 2 runs", f"got {runs} run"):
        as_selection(Z, **kw)


def test_zero_features():
    with raises(ValueError, "Z:", "at least 1 feature", "got 0 features"):
        as_selection(np.zeros((3, 0)))
    with raises(ValueError, "n_features:", "positive integer", "got 0"):
        as_selection([[], []], n_features=0)


def test_ragged_rows():
    with raises(ValueError, "Z:", "different lengths", "2, 3", "n_features"):
        as_selection([[0, 1, 1], [1, 0]])


# ------------------------------------------------------------------ index collections


def test_index_out_of_range():
    with raises(ValueError, "Z:", "run 0", "index 5", "0..3", "n_features=4"):
        as_selection([[0, 5], [1]], n_features=4)


def test_negative_index():
    with raises(ValueError, "Z:", "run 1", "negative", "-1"):
        as_selection([[0], [1, -1]], n_features=4)


def test_duplicate_index_in_one_set():
    with raises(ValueError, "Z:", "run 0", "feature 1", "more than once"):
        as_selection([[0, 1, 1], [1]], n_features=4)


def test_duplicate_name_in_one_set():
    with raises(ValueError, "Z:", "run 1", "'b'", "more than once"):
        as_selection([["a"], ["b", "b"]], feature_names=["a", "b"])


@pytest.mark.parametrize(
    "item,text",
    [(1.0, "1.0 (float)"), (1.5, "1.5 (float)"), ("a", "'a' (str)"), (True, "True (bool)")],
)
def test_non_integer_indices(item, text):
    with raises(TypeError, "Z:", "run 0", text, "integers"):
        as_selection([[0, item], [1]], n_features=4)


def test_run_not_a_collection():
    with raises(TypeError, "Z:", "run 1", "collection of feature indices"):
        as_selection([[0], 3], n_features=4)


def test_missing_n_features():
    with raises(ValueError, "n_features:", "required", "index collections"):
        as_selection([{0, 1}, {1}])


def test_missing_n_features_for_equal_length_index_lists():
    """Equal-length lists of indices look like a 0/1 matrix: the message says how
    to pass them as index collections."""
    with raises(ValueError, "Z:", "0/1", "found 2", "n_features=d"):
        as_selection([[0, 1], [1, 2]])


@pytest.mark.parametrize(
    "n_features,exc,text",
    [(True, TypeError, "bool True"), (2.0, TypeError, "float 2.0"), (-3, ValueError, "got -3")],
)
def test_bad_n_features(n_features, exc, text):
    with raises(exc, "n_features:", "positive integer", text):
        as_selection([[0], [1]], n_features=n_features)


def test_n_features_mismatch():
    with raises(ValueError, "n_features:", "4", "3 columns"):
        as_selection(np.eye(3, dtype=int), n_features=4)


def test_feature_name_not_in_feature_names():
    with raises(ValueError, "Z:", "run 1", "'z'", "not in feature_names"):
        as_selection([["a", "b"], ["z"]], feature_names=["a", "b", "c"])


def test_feature_names_must_be_unique():
    with raises(ValueError, "feature_names:", "unique", "'a'"):
        as_selection([["a"], ["b"]], feature_names=["a", "b", "a"])


def test_feature_names_length():
    with raises(ValueError, "feature_names:", "one name per feature", "2 names"):
        as_selection(np.eye(3, dtype=int), feature_names=["a", "b"])


def test_unsupported_type():
    with raises(TypeError, "Z:", "selection matrix", "str"):
        as_selection("0110")


# ------------------------------------------------------------------ valid forms


def test_index_collections_and_names():
    sel = as_selection([["b", "c"], ["a"]], feature_names=["a", "b", "c"])
    assert sel.toarray().astype(int).tolist() == [[0, 1, 1], [1, 0, 0]]
    assert sel.feature_names == ("a", "b", "c")
    sel = as_selection([{2, 0}, np.array([1])], n_features=3)
    assert sel.toarray().astype(int).tolist() == [[1, 0, 1], [0, 1, 0]]


def test_dataframe_keeps_feature_names():
    df = pd.DataFrame([[1, 0, 1], [0, 1, 1]], columns=["g1", "g2", "g3"])
    sel = as_selection(df)
    assert sel.feature_names == ("g1", "g2", "g3")
    assert sel.row_sizes.tolist() == [2, 2]
    assert stability(df, "jaccard") == stability(df.to_numpy(), "jaccard")


def test_sparse_input_stays_sparse():
    Z = sparse.random(50, 100_000, density=1e-4, format="csr", random_state=0)
    Z.data[:] = 1
    sel = as_selection(Z)
    assert sel.is_sparse
    sel.row_sizes, sel.column_counts, sel.intersections  # noqa: B018 (compute them)
    assert sel.is_sparse
    assert as_selection(sparse.coo_matrix(np.eye(3))).is_sparse
    assert as_selection([[0, 1], [2]], n_features=3).is_sparse
    assert not as_selection(np.eye(3)).is_sparse


def test_rows_with_no_feature_or_all_features_are_valid():
    Z = [[0, 0, 0, 0], [1, 1, 1, 1], [1, 0, 0, 1]]
    sel = as_selection(Z)
    assert sel.row_sizes.tolist() == [0, 4, 2]
    assert as_selection([[], [0, 1, 2, 3], [0, 3]], n_features=4).row_sizes.tolist() == [0, 4, 2]
    assert stability(Z, "hamming") == pytest.approx(1 / 3)  # defined there
    assert twins.twin("hamming", Z) == Fraction(1, 3)  # pairs 0, 1/2, 1/2
    with pytest.warns(UndefinedMeasureWarning, match="kuncheva"):
        assert np.isnan(stability(Z, "kuncheva"))  # undefined: NaN + warning


# ------------------------------------------------------------------ measures and options


def test_unknown_measure():
    with raises(
        ValueError, "measure:", "'jacard'", "not a registered measure", "Did you mean 'jaccard'"
    ):
        stability([[1, 0], [0, 1]], "jacard")


def test_measure_name_not_a_string():
    with raises(TypeError, "measure:", "str", "3"):
        stability([[1, 0], [0, 1]], 3)


def test_unknown_option():
    with raises(TypeError, "jaccard", "unexpected option", "'penalty'", "correction_for_chance"):
        stability([[1, 0], [0, 1]], "jaccard", penalty=1)
    with raises(TypeError, "nogueira", "unexpected option", "'alpha'", "none"):
        propstab.measures.nogueira([[1, 0], [0, 1]], alpha=1)


def test_davis_negative_penalty():
    with raises(ValueError, "penalty:", ">= 0", "'davis'", "-1"):
        stability([[1, 0], [0, 1]], "davis", penalty=-1)


@pytest.mark.parametrize(
    "penalty,exc", [(float("nan"), ValueError), ("1", TypeError), (True, TypeError)]
)
def test_davis_penalty_not_a_finite_number(penalty, exc):
    with raises(exc, "penalty:", "'davis'", repr(penalty)):
        stability([[1, 0], [0, 1]], "davis", penalty=penalty)


def test_correction_for_chance_bad_value():
    with raises(ValueError, "correction_for_chance:", "'none', 'exact'", "'jaccard'", "'maybe'"):
        stability([[1, 0], [0, 1]], "jaccard", correction_for_chance="maybe")
