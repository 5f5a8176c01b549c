"""Input converters of the correlated feature spaces: similarity matrices
(:func:`as_similarity`) and importance matrices (:func:`as_importances`)."""
from __future__ import annotations

import numpy as np

from .._utils.checks import as_real_array, check_n_features, check_unit_interval, fail
from .selection import Selection

__all__ = ["as_importances", "as_similarity", "numeric_csr", "sparse_position"]

#: Rounding tolerated in a similarity matrix built in floating point (an absolute
#: correlation matrix from numpy has diagonal entries such as 1.0000000000000002):
#: entries within it of [0, 1], asymmetries and diagonal deviations within it are
#: rounding and are removed; anything beyond it is refused.
_SYMMETRY_TOL = 1e-12


def numeric_csr(X, name: str, shape_text: str):
    """A numeric matrix (dense, DataFrame or scipy.sparse) as a float64 CSR copy."""
    from scipy import sparse

    if sparse.issparse(X):
        if X.dtype.kind not in "biuf":
            fail(f"{name}: must hold numbers; got a sparse matrix of dtype {X.dtype}", TypeError)
        csr = sparse.csr_matrix(X, dtype=np.float64).copy()
        csr.sum_duplicates()
        return csr
    if type(X).__module__.startswith("pandas") and hasattr(X, "columns"):
        X = X.to_numpy()
    arr = as_real_array(name, X, f"numbers (a {shape_text} matrix)")
    if arr.ndim != 2:
        fail(f"{name}: must be a 2-dimensional {shape_text} matrix; got shape {arr.shape}")
    return sparse.csr_matrix(arr)


def as_similarity(
    S, n_features: int, *, threshold=None, feature_names=None, name: str = "similarity"
):
    """Validate a feature-similarity matrix and return it as ``scipy.sparse.csr_matrix``.

    Parameters
    ----------
    S : array-like, scipy.sparse matrix, DataFrame or None
        A d x d matrix: square of size ``n_features``, symmetric, entries in
        [0, 1], unit diagonal (Sechidis et al. 2019, eq. 4; Hamer and Dupont
        2021, sec. 5). ``None`` means the identity (no feature related to another).
        A DataFrame's index and columns must list the same features (and match
        ``feature_names`` when given).
    n_features : int
        d.
    threshold : float in [0, 1], optional
        Entries below it are set to 0 (as stabm's ``threshold``); the diagonal stays 1.
    feature_names : sequence, optional
        The selection's feature names, checked against a DataFrame's columns.
    name : str
        The argument name used in messages.

    Returns
    -------
    scipy.sparse.csr_matrix
        float64, sorted indices, no stored zeros, entries in [0, 1], exactly symmetric
        with unit diagonal (entries within 1e-12 outside [0, 1], asymmetry and diagonal
        deviations within 1e-12 are floating-point rounding, as in a correlation matrix
        computed by numpy, and are clipped or removed).

    Raises
    ------
    ValueError
        Wrong shape, NaN or infinite entries, entries outside [0, 1], asymmetry, a
        diagonal entry other than 1 (each beyond a rounding of 1e-12), mismatched
        DataFrame labels, a bad threshold.
    TypeError
        Non-numeric input.

    Examples
    --------
    >>> from propstab._validation import as_similarity
    >>> as_similarity([[1, 0.8], [0.8, 1]], 2, threshold=0.5).toarray().tolist()
    [[1.0, 0.8], [0.8, 1.0]]
    >>> as_similarity([[1, 0.3], [0.3, 1]], 2, threshold=0.5).toarray().tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    >>> as_similarity([[1, 0.3], [0.2, 1]], 2)
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: similarity: must be symmetric; S[0, 1] = 0.3 but S[1, 0] = 0.2
    """
    from scipy import sparse

    d = check_n_features(n_features)
    if threshold is not None:
        threshold = check_unit_interval("threshold", threshold)
    if S is None:
        return sparse.identity(d, dtype=np.float64, format="csr")
    if type(S).__module__.startswith("pandas") and hasattr(S, "columns"):
        rows, cols = list(S.index), list(S.columns)
        if rows != cols:
            fail(
                f"{name}: a DataFrame's index and columns must list the same features "
                f"in the same order; got index {rows[:5]!r}... and columns {cols[:5]!r}..."
            )
        if feature_names is not None and list(feature_names) != cols:
            fail(
                f"{name}: the DataFrame's columns must be the selection's feature names "
                f"in the same order; got {cols[:5]!r}..."
            )
    csr = numeric_csr(S, name, "d x d")
    if csr.shape != (d, d):
        fail(
            f"{name}: must be square of size d x d = {d} x {d} (one row and column per "
            f"feature); got shape {csr.shape[0]} x {csr.shape[1]}"
        )
    data = csr.data
    if not np.all(np.isfinite(data)):
        r, c = sparse_position(csr, ~np.isfinite(data))
        fail(f"{name}: entries must be finite numbers in [0, 1]; got {csr[r, c]!r} at [{r}, {c}]")
    bad = (data < -_SYMMETRY_TOL) | (data > 1 + _SYMMETRY_TOL)
    if bad.any():
        r, c = sparse_position(csr, bad)
        fail(
            f"{name}: entries must be in [0, 1]; got S[{r}, {c}] = {csr[r, c]!r} (beyond "
            f"the rounding of {_SYMMETRY_TOL:g} that is clipped)"
        )
    np.clip(data, 0.0, 1.0, out=data)
    transposed = csr.T.tocsr()  # once: the difference and the mean below both need it
    diff = abs(csr - transposed)
    big = diff.data > _SYMMETRY_TOL
    if big.any():
        r, c = sparse_position(diff, big)  # the first in row-major order
        r, c = min(r, c), max(r, c)
        fail(
            f"{name}: must be symmetric; S[{r}, {c}] = {csr[r, c]!r} but "
            f"S[{c}, {r}] = {csr[c, r]!r}"
        )
    diag = csr.diagonal()
    off = np.abs(diag - 1.0) > _SYMMETRY_TOL
    if off.any():
        f = int(np.argmax(off))
        fail(
            f"{name}: the diagonal must be 1 (every feature is fully similar to itself); "
            f"got S[{f}, {f}] = {diag[f]!r}"
        )
    csr = ((csr + transposed) * 0.5).tocsr()
    # every diagonal entry is stored (each within the rounding of 1, checked above), once
    # per row (a sum is canonical): set to 1 in place, as setdiag(1.0) does, without its
    # general path (new entries, index checks; a third of a call at d = 200,000)
    csr.data[csr.indices == np.repeat(np.arange(d), np.diff(csr.indptr))] = 1.0
    if threshold is not None:
        csr.data[csr.data < threshold] = 0.0
    csr.eliminate_zeros()
    csr.sort_indices()
    return csr


def sparse_position(csr, mask):
    k = int(np.argmax(mask))
    row = int(np.searchsorted(csr.indptr, k, side="right") - 1)
    return row, int(csr.indices[k])


def as_importances(W, selection: Selection, *, name: str = "importances"):
    """Validate an importance matrix against its selection matrix.

    Parameters
    ----------
    W : array-like, scipy.sparse matrix, DataFrame or None
        M x d non-negative finite importances, ``W[i, f] > 0`` exactly where run i
        selects feature f (zero means not selected; Hamer and Dupont 2021, sec. 3).
        Signed model coefficients must be passed as absolute values (eq. 7).
    selection : Selection
        The validated selection matrix Z.

    Returns
    -------
    scipy.sparse.csr_matrix or None
        float64, sorted indices, no stored zeros; ``None`` when ``W`` is None.

    Raises
    ------
    ValueError
        Wrong shape, NaN/inf, negative entries, or a zero pattern different from Z's.

    Examples
    --------
    >>> from propstab import as_selection
    >>> from propstab._validation import as_importances
    >>> sel = as_selection([[1, 1, 0], [0, 1, 1]])
    >>> as_importances([[0.5, 1.5, 0], [0, 2, 0]], sel)
    Traceback (most recent call last):
    ...
    propstab.InvalidParameterError: importances: run 1 selects feature 2 but gives it
    importance 0 (zero means not selected)
    """
    if W is None:
        return None
    if type(W).__module__.startswith("pandas") and hasattr(W, "columns"):
        if selection.feature_names is not None and list(W.columns) != list(
            selection.feature_names
        ):
            fail(
                f"{name}: the DataFrame's columns must be the selection's feature names "
                f"in the same order"
            )
    csr = numeric_csr(W, name, "M x d")
    if csr.shape != selection.shape:
        fail(
            f"{name}: must have the selection matrix's shape M x d = {selection.n_runs} x "
            f"{selection.n_features}; got {csr.shape[0]} x {csr.shape[1]}"
        )
    data = csr.data
    bad = ~np.isfinite(data) | (data < 0)
    if bad.any():
        r, c = sparse_position(csr, bad)
        fail(
            f"{name}: entries must be finite and >= 0 (pass absolute coefficients, Hamer "
            f"and Dupont eq. 7); got {csr[r, c]!r} at run {r}, feature {c}"
        )
    csr.eliminate_zeros()
    csr.sort_indices()
    Z = selection.tocsr()
    extra = (csr - csr.multiply(Z)).tocoo()
    extra.eliminate_zeros()
    if extra.nnz:
        r, c = int(extra.row[0]), int(extra.col[0])
        fail(
            f"{name}: run {r} gives feature {c} importance {csr[r, c]!r} but does not select "
            f"it in Z (zero means not selected)"
        )
    missing = (Z - (csr > 0).astype(np.int8)).tocoo()
    missing.eliminate_zeros()
    if missing.nnz:
        r, c = int(missing.row[0]), int(missing.col[0])
        fail(
            f"{name}: run {r} selects feature {c} but gives it importance 0 (zero means "
            f"not selected)"
        )
    return csr
