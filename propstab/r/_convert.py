"""Conversion between propstab's inputs and the R objects the reference packages take.

- A selection matrix becomes stabm's ``features`` (a list of integer vectors of
  1-based indices, or of feature names) or a 0/1 R matrix with column names.
- An R list of index or name vectors, or an R 0/1 matrix, becomes a
  :class:`~propstab.Selection` (feature names kept).
- A feature-similarity matrix becomes an R matrix (dense input) or a
  ``Matrix::sparseMatrix`` (scipy.sparse input), its diagonal always stored.
"""
from __future__ import annotations

import numpy as np

from .._utils.checks import fail
from .._data.convert_selection import Selection, as_selection
from .._data.convert_rankings import as_rankings
from .._utils.checks import check_r_indices
from ._call import base_function, require_package, robjects

__all__ = ["from_r_selection", "to_r_features", "to_r_matrix", "to_r_rankings", "to_r_similarity"]


def _runs(sel: Selection):
    """The selected 0-based indices of each run, sorted (one split of the CSR arrays)."""
    csr = sel.tocsr().copy()
    csr.sort_indices()
    return np.split(csr.indices.astype(np.int64), csr.indptr[1:-1])


def to_r_features(Z, /, *, n_features=None, feature_names=None, use_names: bool = False):
    """stabm's ``features``: an R list with one vector of selected features per run.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
    n_features, feature_names : optional
        As for :func:`propstab.as_selection`.
    use_names : bool, default False
        Character vectors of feature names instead of 1-based integer indices
        (requires feature names).

    Returns
    -------
    rpy2.robjects.vectors.ListVector
        One integer (or character) vector per run; an empty run is an empty vector.

    Raises
    ------
    ValueError, TypeError
        Invalid ``Z`` (the rules of :func:`propstab.as_selection`); ``use_names=True``
        without feature names.
    ImportError, RUnavailableError
        rpy2 or R is missing.

    See Also
    --------
    propstab.r.from_r_selection : The way back, from R to a Selection.
    propstab.r.to_r_matrix : Z as an R 0/1 matrix.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010 (``features``: a list of feature
    vectors, one per run).

    Examples
    --------
    >>> from propstab.r import to_r_features
    >>> feats = to_r_features([[1, 0, 1], [0, 0, 0]])
    >>> [list(v) for v in feats]
    [[1, 3], []]
    """
    ro = robjects()
    sel = as_selection(Z, n_features=n_features, feature_names=feature_names)
    runs = _runs(sel)
    if use_names:
        if sel.feature_names is None:
            fail(
                "use_names: True needs feature names (pass feature_names= or a "
                "DataFrame); got a selection without names"
            )
        names = np.asarray(sel.feature_names, dtype=object)
        items = [ro.StrVector([str(x) for x in names[idx]]) for idx in runs]
    else:
        items = [ro.IntVector((idx + 1).tolist()) for idx in runs]
    return base_function("list")(*items)


def _r_matrix(values: np.ndarray, *, rownames=None, colnames=None):
    ro = robjects()
    nrow, ncol = values.shape
    flat = values.ravel(order="F")
    vec = (
        ro.IntVector(flat.astype(np.int64).tolist())
        if values.dtype.kind in "biu"
        else ro.FloatVector(flat.astype(np.float64).tolist())
    )
    m = base_function("matrix")(vec, nrow=nrow, ncol=ncol)
    if rownames is not None or colnames is not None:

        def names(labels):
            return ro.NULL if labels is None else ro.StrVector([str(x) for x in labels])

        dimnames = base_function("list")(names(rownames), names(colnames))
        m = base_function("structure")(m, dimnames=dimnames)
    return m


def to_r_matrix(Z, /, *, n_features=None, feature_names=None, transpose: bool = False):
    """The selection matrix as an R integer 0/1 matrix (M x d), feature names as column names.

    ``transpose=True`` gives the d x M matrix (features as rows, named), the
    orientation of ``irr::kappam.fleiss``'s ratings: subjects (features) in rows,
    raters (runs) in columns.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
        The M x d selection matrix.
    n_features, feature_names : optional
        As for :func:`propstab.as_selection`.
    transpose : bool, default False
        Return the d x M matrix (features in rows).

    Returns
    -------
    rpy2 R matrix
        An integer matrix of 0/1, with the feature names as column (or row) names.

    Raises
    ------
    ValueError, TypeError
        Invalid ``Z`` (the rules of :func:`propstab.as_selection`).
    ImportError, RUnavailableError
        rpy2 or R is missing.

    See Also
    --------
    propstab.r.to_r_features : Z as stabm's list of feature vectors.
    propstab.r.fleiss_kappa_r : Reads the transposed matrix as irr's ratings.

    References
    ----------
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1 (``kappam.fleiss(ratings)``: subjects in rows, raters
    in columns).

    Examples
    --------
    >>> from propstab.r import to_r_matrix
    >>> m = to_r_matrix([[1, 0], [1, 1]], feature_names=["a", "b"])
    >>> list(m.colnames), list(m)
    (['a', 'b'], [1, 1, 0, 1])
    """
    sel = as_selection(Z, n_features=n_features, feature_names=feature_names)
    arr = sel.toarray().astype(np.int8)
    if transpose:
        return _r_matrix(arr.T, rownames=sel.feature_names)
    return _r_matrix(arr, colnames=sel.feature_names)


def to_r_rankings(R, /, *, n_features=None, feature_names=None):
    """A rank matrix as an R double matrix of midranks (M x d, runs as rows), feature
    names as column names: the input of the ranking family's base R references
    (``stats::cor(t(R), method = "spearman")``, ``stats::dist(R, method = "canberra")``).

    Parameters
    ----------
    R : rank matrix in any form accepted by :func:`propstab.as_rankings`
        The M x d ranks (ties allowed: they become midranks).
    n_features, feature_names : optional
        As for :func:`propstab.as_rankings`.

    Returns
    -------
    rpy2 R matrix
        A double M x d matrix of midranks, with the feature names as column names.

    Raises
    ------
    ValueError, TypeError
        Invalid ``R`` (the rules of :func:`propstab.as_rankings`).
    ImportError, RUnavailableError
        rpy2 or R is missing.

    See Also
    --------
    propstab.as_rankings : The validation and the midrank rule.
    propstab.r.call_reference : Calls a ranking measure's base R reference on it.

    References
    ----------
    R Core Team. R: A Language and Environment for Statistical Computing. R Foundation
    for Statistical Computing, Vienna (``?cor``, ``?rank`` with ``ties.method =
    "average"``).

    Examples
    --------
    >>> from propstab.r import to_r_rankings
    >>> m = to_r_rankings([[1, 2, 2], [3, 2, 1]])
    >>> list(m.dim), list(m)
    ([2, 3], [1.0, 3.0, 2.5, 2.0, 2.5, 1.0])
    """
    rk = as_rankings(R, n_features=n_features, feature_names=feature_names)
    return _r_matrix(np.asarray(rk.toarray(), dtype=np.float64), colnames=rk.feature_names)


def to_r_similarity(C, /, *, feature_names=None):
    """A d x d feature-similarity matrix as R takes it.

    A dense array (or DataFrame, whose columns name the features) becomes an R
    numeric matrix; a scipy.sparse matrix becomes a ``Matrix::sparseMatrix``,
    symmetric storage when the matrix is symmetric, with its diagonal stored
    explicitly (stabm's sparse path otherwise infers the dimension from the last
    stored entry, see the expected difference ``sparse_similarity_dimensions``).

    Parameters
    ----------
    C : array-like, DataFrame or scipy.sparse matrix, shape (d, d)
        The feature similarities.
    feature_names : sequence, optional
        Row and column names (a DataFrame's columns are used otherwise).

    Returns
    -------
    rpy2 R matrix or Matrix::sparseMatrix
        A numeric matrix for dense input, a ``dsCMatrix`` (symmetric) or ``dgCMatrix``
        for sparse input.

    Raises
    ------
    ValueError
        If ``C`` is not a square 2-D matrix (the message names ``similarity``).
    ImportError, RUnavailableError
        rpy2, R or the R package Matrix is missing.

    See Also
    --------
    propstab.similarity_from_data : Builds such a matrix from data.
    propstab.measures.sechidis : A measure whose R reference takes the matrix.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010 (``sim.mat``: a dense or sparse
    similarity matrix).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import sparse
    >>> from propstab.r import to_r_similarity
    >>> C = np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 1.0]])
    >>> list(to_r_similarity(C).rclass)
    ['matrix', 'array']
    >>> S = to_r_similarity(sparse.csr_matrix(C))
    >>> list(S.rclass), list(S.do_slot("Dim"))
    (['dsCMatrix'], [3, 3])
    """
    from scipy import sparse

    ro = robjects()
    if sparse.issparse(C):
        A = sparse.coo_matrix(C, dtype=np.float64)
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            fail(f"similarity: must be a square d x d matrix; got shape {A.shape}")
        d = A.shape[0]
        symmetric = (abs(A - A.T) > 0).nnz == 0
        keep = A.row != A.col
        if symmetric:
            keep &= A.row < A.col
        diag = np.arange(d)
        i = np.concatenate([A.row[keep], diag]) + 1
        j = np.concatenate([A.col[keep], diag]) + 1
        x = np.concatenate([A.data[keep], A.diagonal()])
        require_package("Matrix")
        S = ro.r("Matrix::sparseMatrix")(
            i=ro.IntVector(i.tolist()),
            j=ro.IntVector(j.tolist()),
            x=ro.FloatVector(x.tolist()),
            dims=ro.IntVector([d, d]),
            symmetric=symmetric,
        )
        if feature_names is not None:
            names = ro.StrVector([str(n) for n in feature_names])
            S = ro.r("function(S, n) { dimnames(S) <- list(n, n); S }")(S, names)
        return S
    names = feature_names
    if hasattr(C, "columns") and hasattr(C, "to_numpy"):
        names = list(C.columns) if names is None else names
        C = C.to_numpy()
    arr = np.asarray(C, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        fail(f"similarity: must be a square d x d matrix; got shape {arr.shape}")
    return _r_matrix(arr, rownames=names, colnames=names)


def from_r_selection(x, /, *, n_features=None, feature_names=None) -> Selection:
    """A :class:`~propstab.Selection` from an R list of feature vectors or an R 0/1 matrix.

    Parameters
    ----------
    x : R list or R matrix (rpy2 object)
        A list with one vector per run of 1-based integer indices (``n_features``
        required, as stabm's ``p``) or of feature names (``feature_names``
        required); or a 0/1 or logical M x d matrix whose column names, if any,
        become the feature names.
    n_features, feature_names : optional
        d and the features' names, as for :func:`propstab.as_selection`.

    Returns
    -------
    Selection
        The validated M x d selection.

    Raises
    ------
    ValueError
        An index that is not a whole number in 1..n_features; a missing
        ``n_features`` (index vectors) or ``feature_names`` (name vectors); see also
        :func:`propstab.as_selection`.
    TypeError
        If ``x`` is neither an R list nor an R matrix.

    See Also
    --------
    propstab.r.to_r_features : The way there, from Z to stabm's list.
    propstab.as_selection : The validation of the result.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010 (``features``: a list of feature
    vectors, one per run).

    Examples
    --------
    >>> from propstab.r import from_r_selection, robjects
    >>> ro = robjects()
    >>> from_r_selection(ro.r("list(c(1, 3), 2L)"), n_features=3).toarray().astype(int).tolist()
    [[1, 0, 1], [0, 1, 0]]
    >>> m = ro.r("matrix(c(1L, 0L, 1L, 1L), 2, dimnames = list(NULL, c('a', 'b')))")
    >>> sel = from_r_selection(m)
    >>> sel.feature_names
    ('a', 'b')
    """
    ro = robjects()
    if base_function("is.matrix")(x)[0]:
        arr = np.asarray(x)
        cols = base_function("colnames")(x)
        names = feature_names if feature_names is not None or cols is ro.NULL else list(cols)
        return as_selection(arr, n_features=n_features, feature_names=names)
    if not base_function("is.list")(x)[0]:
        fail(
            f"x: must be an R list of feature vectors or an R 0/1 matrix; got an "
            f"R object of class {'/'.join(ro.r['class'](x))}",
            TypeError,
        )
    runs = list(x)
    if any(isinstance(v, ro.vectors.StrVector) for v in runs):
        if feature_names is None:
            fail("feature_names: required when the R runs list feature names")
        return as_selection([[str(s) for s in v] for v in runs], feature_names=feature_names)
    if n_features is None:
        fail("n_features: required when the R runs list 1-based feature indices " "(stabm's p)")
    idx = [
        check_r_indices(np.asarray(v), run=i, n_features=n_features) for i, v in enumerate(runs)
    ]
    if feature_names is not None:  # indices into the given names
        names = np.asarray(list(feature_names), dtype=object)
        if len(names) != n_features:
            fail(
                f"feature_names: must have one name per feature "
                f"(n_features={n_features}); got {len(names)} names"
            )
        return as_selection([names[i].tolist() for i in idx], feature_names=names.tolist())
    return as_selection(idx, n_features=n_features)
