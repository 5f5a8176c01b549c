"""Similarity builders (propstab.similarity) and their validation (as_similarity)."""
import numpy as np
import pandas as pd
import pytest
from scipy import sparse, stats

import propstab
from propstab import similarity as sim
from propstab._data.convert_matrices import as_importances, as_similarity
from propstab.similarity import ConstantFeatureWarning


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(60, 4))
    X = np.repeat(base, 3, axis=1) + 0.4 * rng.normal(size=(60, 12))  # 4 groups of 3
    return X


def test_pearson_and_spearman_match_numpy_and_scipy(data):
    C = propstab.similarity_from_data(data)
    np.testing.assert_allclose(C, np.abs(np.corrcoef(data.T)), atol=1e-12)
    Cs = propstab.similarity_from_data(data, method="spearman")
    rho, _ = stats.spearmanr(data)
    np.testing.assert_allclose(Cs, np.abs(rho), atol=1e-12)
    assert np.all(np.diag(C) == 1) and np.array_equal(C, C.T)


def test_threshold_is_the_strict_indicator_and_sparse(data):
    C = propstab.similarity_from_data(data, threshold=0.5)
    assert sparse.issparse(C)
    expected = (np.abs(np.corrcoef(data.T)) > 0.5).astype(float)
    np.fill_diagonal(expected, 1)
    np.testing.assert_array_equal(C.toarray(), expected)
    assert set(np.unique(C.data)) == {1.0}


def test_blockwise_assembly_equals_one_block(data, monkeypatch):
    whole = propstab.similarity_from_data(data, threshold=0.3).toarray()
    monkeypatch.setattr(sim, "_BLOCK_ENTRIES", 25)  # 2 columns per block
    np.testing.assert_array_equal(
        propstab.similarity_from_data(data, threshold=0.3).toarray(), whole
    )
    dense_sparse = propstab.similarity_from_data(data, sparse=True).toarray()
    np.testing.assert_allclose(dense_sparse, propstab.similarity_from_data(data), atol=1e-12)


def test_constant_column_warns_and_is_unrelated():
    X = np.column_stack([np.arange(5.0), np.ones(5), np.arange(5.0) ** 2])
    with pytest.warns(ConstantFeatureWarning, match="1 constant column.*feature 1") as got:
        C = propstab.similarity_from_data(X)
    assert C[1].tolist() == [0.0, 1.0, 0.0]
    assert [type(w.message) for w in got] == [ConstantFeatureWarning]
    assert issubclass(ConstantFeatureWarning, propstab.PropstabWarning)
    assert issubclass(ConstantFeatureWarning, RuntimeWarning)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(method="kendall"), ValueError, "method"),
        (dict(threshold=1.5), ValueError, "threshold: must be a number in \\[0, 1\\]"),
        (dict(sparse="yes"), TypeError, "sparse"),
    ],
)
def test_data_builder_rejects_bad_options(data, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        propstab.similarity_from_data(data, **kwargs)


def test_data_builder_rejects_bad_data():
    with pytest.raises(ValueError, match="X: entries must be finite"):
        propstab.similarity_from_data([[1.0, np.nan], [2.0, 3.0]])
    with pytest.raises(ValueError, match="at least 2 samples"):
        propstab.similarity_from_data([[1.0, 2.0]])


def test_groups_give_the_block_matrix_of_sechidis_sec_4_2():
    # IPASS groups (1-based X_2..X_4, X_12..X_14, X_20..X_23 of 23 biomarkers)
    groups = [[1, 2, 3], [11, 12, 13], [19, 20, 21, 22]]
    C = propstab.similarity_from_groups(groups, 23)
    dense = np.eye(23)
    for g in groups:
        dense[np.ix_(g, g)] = 1
    np.testing.assert_array_equal(C.toarray(), dense)
    assert C.nnz == 23 - 10 + 9 + 9 + 16


def test_groups_by_name_overlap_and_within():
    C = propstab.similarity_from_groups(
        [["a", "b"], ["b", "c"]],
        None,
        feature_names=["a", "b", "c", "d"],
        within=0.5,
        sparse=False,
    )
    assert C.tolist() == [[1, 0.5, 0, 0], [0.5, 1, 0.5, 0], [0, 0.5, 1, 0], [0, 0, 0, 1]]
    with pytest.raises(ValueError, match="group 0 contains feature index 7"):
        propstab.similarity_from_groups([[7]], 3)
    with pytest.raises(ValueError, match="names feature 'z'"):
        propstab.similarity_from_groups([["z"]], None, feature_names=["a"])


# ------------------------------------------------------------------ as_similarity


def test_as_similarity_accepts_every_form_and_thresholds():
    S = np.array([[1, 0.95, 0.2], [0.95, 1, 0], [0.2, 0, 1]])
    for form in (
        S,
        S.tolist(),
        sparse.csr_matrix(S),
        sparse.coo_matrix(S),
        pd.DataFrame(S, index=list("abc"), columns=list("abc")),
    ):
        np.testing.assert_array_equal(as_similarity(form, 3).toarray(), S)
    out = as_similarity(S, 3, threshold=0.9).toarray()
    assert out.tolist() == [[1, 0.95, 0], [0.95, 1, 0], [0, 0, 1]]
    assert as_similarity(None, 3).toarray().tolist() == np.eye(3).tolist()


@pytest.mark.parametrize(
    "S, match",
    [
        ([[1, 0], [0, 1], [0, 0]], "must be square of size d x d = 2 x 2"),
        ([[1, 0.3], [0.2, 1]], "must be symmetric; S\\[0, 1\\] = 0.3 but S\\[1, 0\\] = 0.2"),
        ([[1, 1.2], [1.2, 1]], "entries must be in \\[0, 1\\]; got S\\[0, 1\\] = 1.2"),
        ([[1, -0.1], [-0.1, 1]], "entries must be in \\[0, 1\\]"),
        ([[0.9, 0], [0, 1]], "the diagonal must be 1 .*S\\[0, 0\\] = 0.9"),
        ([[1, np.nan], [np.nan, 1]], "entries must be finite"),
        ([1, 0], "must be a 2-dimensional"),
    ],
)
def test_as_similarity_errors_name_argument_rule_value(S, match):
    with pytest.raises(ValueError, match="similarity: " + match):
        as_similarity(S, 2)


def test_as_similarity_dataframe_labels_and_types():
    df = pd.DataFrame(np.eye(2), index=["a", "b"], columns=["b", "a"])
    with pytest.raises(ValueError, match="index and columns must list the same features"):
        as_similarity(df, 2)
    ok = pd.DataFrame(np.eye(2), index=["a", "b"], columns=["a", "b"])
    with pytest.raises(ValueError, match="selection's feature names"):
        as_similarity(ok, 2, feature_names=["x", "y"])
    with pytest.raises(TypeError, match=r"similarity: must hold numbers \(a d x d matrix\)"):
        as_similarity([["a", "b"], ["c", "d"]], 2)
    with pytest.raises(TypeError, match="threshold"):
        as_similarity(np.eye(2), 2, threshold="high")


def test_as_similarity_removes_rounding_asymmetry():
    S = np.array([[1, 0.5], [0.5 + 1e-15, 1]])
    out = as_similarity(S, 2)
    assert out[0, 1] == out[1, 0]


def test_measures_validate_similarity_through_as_similarity():
    with pytest.raises(ValueError, match="similarity: must be square of size d x d = 3 x 3"):
        propstab.stability([[1, 0, 1], [0, 1, 1]], measure="sechidis", similarity=np.eye(2))
    with pytest.raises(ValueError, match="similarity: must be symmetric"):
        propstab.stability([[1, 0], [0, 1]], measure="msi", similarity=[[1, 0.5], [0, 1]])


# ------------------------------------------------------------------ as_importances


def test_as_importances_checks_shape_sign_and_zero_pattern():
    sel = propstab.as_selection([[1, 1, 0], [0, 1, 1]])
    W = as_importances([[0.5, 1.5, 0], [0, 2, 1]], sel)
    assert W.toarray().tolist() == [[0.5, 1.5, 0], [0, 2, 1]]
    assert as_importances(None, sel) is None
    with pytest.raises(ValueError, match="importances: must have the selection matrix's shape"):
        as_importances([[1, 1], [1, 1]], sel)
    with pytest.raises(ValueError, match="entries must be finite and >= 0 .*-1.0 at run 0"):
        as_importances([[-1, 1, 0], [0, 1, 1]], sel)
    with pytest.raises(
        ValueError, match="run 0 gives feature 2 importance 3.0 but does not select"
    ):
        as_importances([[1, 1, 3], [0, 1, 1]], sel)
    with pytest.raises(ValueError, match="run 1 selects feature 2 but gives it importance 0"):
        as_importances([[1, 1, 0], [0, 1, 0]], sel)
