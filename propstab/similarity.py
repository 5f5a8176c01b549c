"""Feature-similarity matrices for the correlated-space measures.

A similarity matrix C (Sechidis et al. 2019, Definition 1 and eq. 4) or S (Hamer
and Dupont 2021, sec. 5) is d x d, symmetric, with entries in [0, 1] and a unit
diagonal. Two builders:

- :func:`similarity_from_data`: absolute Pearson or Spearman correlations of the
  data columns, optionally thresholded to ``delta(|rho| > theta)`` (Sechidis sec.
  4.1, theta = 0.5; Hamer sec. 6.1 uses ``|rho|`` itself). When thresholded the
  result is sparse and is assembled block by block, so no dense d x d array is formed.
- :func:`similarity_from_groups`: domain knowledge, features in a common group are
  similar (Sechidis sec. 4.2, the IPASS biomarker groups), a sparse block matrix.

Both return matrices accepted by the measures' ``similarity=`` option.
"""
from __future__ import annotations

import numbers

import numpy as np
from scipy import sparse as _sparse

from ._utils.exceptions import ConstantFeatureWarning, warn
from collections.abc import Mapping

from ._utils.checks import as_real_array, check_feature_names, fail, is_label
from ._utils.params import N_FEATURES, UNIT_INTERVAL, Boolean, Options, validate_params

__all__ = ["ConstantFeatureWarning", "similarity_from_data", "similarity_from_groups"]

_BLOCK_ENTRIES = 4_000_000  # at most this many correlations held at once


def _standardised(X, method: str):
    if type(X).__module__.startswith("pandas") and hasattr(X, "columns"):
        X = X.to_numpy()
    X = as_real_array("X", X, "numbers (an n x d data matrix)")
    if X.ndim != 2:
        fail(
            f"X: must be a 2-dimensional n x d data matrix (samples x features); "
            f"got shape {X.shape}"
        )
    n, d = X.shape
    if n < 2:
        fail(f"X: needs at least 2 samples (rows) to estimate correlations; got {n}")
    if d < 1:
        fail(f"X: needs at least 1 feature (column); got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        i, j = np.argwhere(~np.isfinite(X))[0]
        fail(f"X: entries must be finite; got {X[i, j]!r} at sample {i}, feature {j}")
    if method == "spearman":
        from scipy.stats import rankdata

        X = rankdata(X, axis=0)
    X = X - X.mean(axis=0)
    norm = np.sqrt(np.einsum("ij,ij->j", X, X))
    constant = norm <= 1e-12 * np.maximum(1.0, np.abs(X).max(axis=0, initial=0.0))
    if constant.any():
        warn(
            f"similarity_from_data: {int(constant.sum())} constant column(s) (e.g. "
            f"feature {int(np.argmax(constant))}) have no correlation; they are given "
            f"similarity 0 to every other feature and 1 to themselves",
            ConstantFeatureWarning,
        )
    norm[constant] = 1.0
    X = X / norm
    X[:, constant] = 0.0
    return X, constant


@validate_params(
    {
        "method": Options("pearson", "spearman"),
        "threshold": [UNIT_INTERVAL, None],
        "sparse": Boolean(none=True),
    }
)
def similarity_from_data(X, *, method: str = "pearson", threshold=None, sparse=None):
    """Feature similarities from data: absolute correlations, optionally thresholded.

    .. math:: c_{f,f'} = |\\rho(X_f, X_{f'})| \\quad\\text{or, with a threshold,}\\quad
              c_{f,f'} = \\delta(|\\rho(X_f, X_{f'})| > \\theta)

    with rho Pearson's or Spearman's correlation and the diagonal set to 1
    (Sechidis et al. 2019, sec. 3.1 and 4.1, theta = 0.5 there; Hamer and Dupont
    2021, sec. 6.1 use ``|rho|`` of Spearman). A constant column has no correlation:
    its similarity to every other feature is 0 and to itself 1, as on every diagonal
    (a similarity matrix has a unit diagonal, dense, sparse or thresholded).

    Parameters
    ----------
    X : array-like or DataFrame, shape (n samples, d features)
    method : {"pearson", "spearman"}
        Spearman ranks each column (average ranks for ties) before correlating.
    threshold : float in [0, 1], optional
        theta: the result is the 0/1 indicator ``|rho| > theta``.
    sparse : bool, optional
        Return a ``scipy.sparse.csr_matrix``. Default: sparse when thresholded, dense
        otherwise. A thresholded matrix is assembled by column blocks (at most about
        4 million correlations in memory), never as a dense d x d array.

    Returns
    -------
    ndarray or scipy.sparse.csr_matrix, shape (d, d)

    Raises
    ------
    ValueError, TypeError
        A non-numeric or non-finite X, fewer than 2 samples or no column, an unknown
        method or a threshold outside [0, 1].

    Warns
    -----
    ConstantFeatureWarning
        For constant columns, which get similarity 0 to every other feature (and 1 to
        themselves).

    See Also
    --------
    propstab.similarity_from_groups : Similarities from known groups of features.
    propstab.measures.sechidis : The effective stability, which reads the matrix.
    propstab.measures.msi : Hamer and Dupont's stability, which reads the matrix.

    References
    ----------
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD, LNCS 11906, 327-342, sec. 3.1 and 4.1.
    Hamer, V., Dupont, P. (2021). Robust selection stability estimation in correlated
    spaces. ECML PKDD, LNCS 12977, 446-461, sec. 6.1.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab import similarity_from_data
    >>> X = np.array([[1., 2., 0.], [2., 4.1, 1.], [3., 5.9, 0.], [4., 8., 1.]])
    >>> np.round(similarity_from_data(X), 3).tolist()
    [[1.0, 1.0, 0.447], [1.0, 1.0, 0.474], [0.447, 0.474, 1.0]]
    >>> similarity_from_data(X, threshold=0.5).toarray().astype(int).tolist()
    [[1, 1, 0], [1, 1, 0], [0, 0, 1]]
    """
    if sparse is None:
        sparse = threshold is not None
    threshold = None if threshold is None else float(threshold)  # as checked, a float
    Xs, _ = _standardised(X, method)
    n, d = Xs.shape
    if threshold is None and not sparse:
        C = np.abs(Xs.T @ Xs)
        np.clip(C, 0.0, 1.0, out=C)
        C = (C + C.T) / 2
        np.fill_diagonal(C, 1.0)
        return C
    block = max(1, _BLOCK_ENTRIES // max(d, 1))
    rows, cols, vals = [], [], []
    for start in range(0, d, block):  # loop over column blocks, not features
        stop = min(d, start + block)
        R = np.abs(Xs.T @ Xs[:, start:stop])  # d x b
        np.clip(R, 0.0, 1.0, out=R)
        keep = R > threshold if threshold is not None else R > 0
        r, c = np.nonzero(keep)
        rows.append(r)
        cols.append(c + start)
        vals.append(np.ones(r.size) if threshold is not None else R[r, c])
    r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    off = r != c  # the unit diagonal is added below, for every
    C = _sparse.csr_matrix((v[off], (r[off], c[off])), shape=(d, d))  # column (constant too)
    C = (C + C.T) * 0.5 + _sparse.identity(d, format="csr")
    C.eliminate_zeros()
    C.sort_indices()
    return C if sparse else C.toarray()


@validate_params({"within": UNIT_INTERVAL, "sparse": Boolean(), "n_features": [N_FEATURES, None]})
def similarity_from_groups(groups, n_features, *, within=1.0, feature_names=None, sparse=True):
    """Feature similarities from domain knowledge: groups of related features.

    .. math:: c_{f,f'} = \\begin{cases} 1 & f = f' \\\\ w & f, f' \\text{ share a group}
              \\\\ 0 & \\text{otherwise} \\end{cases}

    (Sechidis et al. 2019, sec. 4.2: the IPASS biomarker groups A, B, C, all
    within-group entries set to 1). A feature may belong to several groups.

    Parameters
    ----------
    groups : sequence of collections, or mapping
        Each a collection of 0-based feature indices (or of names, with
        ``feature_names=``). Features in no group are related to none. A mapping
        (a dict or a pandas Series) is read as ``{feature: group label}``: the features
        with a common label form a group (one group per feature); a mapping whose
        values are collections (``{group: features}``) is refused, pass
        ``list(groups.values())``. A group is never a mapping.
    n_features : int or None
        d (may be None when ``feature_names`` is given).
    within : float in [0, 1], default 1
        The similarity of two features of a common group.
    feature_names : sequence, optional
    sparse : bool, default True
        Return ``scipy.sparse.csr_matrix`` (else a dense array).

    Returns
    -------
    scipy.sparse.csr_matrix or ndarray, shape (d, d)

    Raises
    ------
    ValueError, TypeError
        Indices out of range, unknown or unhashable names, a mapping as a group, a
        mapping of collections, a bad ``within``.

    See Also
    --------
    propstab.similarity_from_data : Similarities from the data's correlations.
    propstab.measures.sechidis : The effective stability, which reads the matrix.

    References
    ----------
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD, LNCS 11906, 327-342, sec. 4.2 (the IPASS biomarker groups).

    Examples
    --------
    >>> from propstab import similarity_from_groups
    >>> similarity_from_groups([[0, 1], [2, 3]], 5).toarray().astype(int).tolist()
    [[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [0, 0, 1, 1, 0], [0, 0, 1, 1, 0], [0, 0, 0, 0, 1]]
    >>> similarity_from_groups({"a": "A", "b": "A", "c": "B"}, None,
    ...                        feature_names=["a", "b", "c"]).toarray().astype(int).tolist()
    [[1, 1, 0], [1, 1, 0], [0, 0, 1]]
    """
    within = float(within)  # checked by the declaration; a Fraction or numpy scalar too
    lookup = None
    if feature_names is not None:
        names = check_feature_names(feature_names, n_features)
        d = len(names)
        lookup = {name: j for j, name in enumerate(names)}
    elif n_features is None:
        fail(
            "n_features: required (a positive integer) when feature_names is not given; "
            "got None",
            TypeError,
            function="similarity_from_groups",
        )
    else:
        d = n_features
    if isinstance(groups, (str, bytes)) or not hasattr(groups, "__iter__"):
        fail(
            f"groups: must be a sequence of collections of features; got "
            f"{type(groups).__name__} {groups!r}",
            TypeError,
        )
    if (
        isinstance(groups, Mapping)
        or type(groups).__module__.startswith("pandas")
        and hasattr(groups, "items")
        and not hasattr(groups, "columns")
    ):
        groups = _groups_of_labels(groups)
    rows, cols = [], []
    for g, group in enumerate(groups):
        if isinstance(group, Mapping):
            fail(
                f"groups: group {g} is a {type(group).__name__}; a group is a "
                f"collection of features (a mapping's keys are not read as a "
                f"group; a mapping as groups= is read as {{feature: group label}})",
                TypeError,
            )
        if isinstance(group, (str, bytes)) or not hasattr(group, "__iter__"):
            fail(
                f"groups: group {g} must be a collection of features; got "
                f"{type(group).__name__} {group!r}",
                TypeError,
            )
        idx = []
        for item in group:
            if lookup is not None:
                if not is_label(item):
                    fail(
                        f"groups: group {g} contains {type(item).__name__} "
                        f"{item!r}; with feature_names=, groups list feature names "
                        f"(hashable labels: strings or numbers)",
                        TypeError,
                    )
                if item not in lookup:
                    fail(
                        f"groups: group {g} names feature {item!r}, which is not "
                        f"in feature_names"
                    )
                idx.append(lookup[item])
            else:
                if isinstance(item, bool) or not isinstance(item, numbers.Integral):
                    fail(
                        f"groups: group {g} contains {item!r}; feature indices must "
                        f"be integers (or pass feature_names=)",
                        TypeError,
                    )
                if not 0 <= item < d:
                    fail(
                        f"groups: group {g} contains feature index {item}, outside "
                        f"0..{d - 1} (n_features={d})"
                    )
                idx.append(int(item))
        idx = np.unique(np.asarray(idx, dtype=np.int64))
        rows.append(np.repeat(idx, idx.size))
        cols.append(np.tile(idx, idx.size))
    diag = np.arange(d, dtype=np.int64)
    r = np.concatenate(rows + [diag])
    c = np.concatenate(cols + [diag])
    A = _sparse.csr_matrix((np.ones(r.size), (r, c)), shape=(d, d)).tocoo()
    A.data = np.where(A.row == A.col, 1.0, within)  # duplicates (overlapping groups) reset
    A = A.tocsr()
    A.eliminate_zeros()
    A.sort_indices()
    return A if sparse else A.toarray()


def _groups_of_labels(mapping) -> list:
    """``{feature: group label}`` (a dict or a pandas Series) as a list of groups, in the
    order the labels first appear."""
    groups: dict = {}
    for feature, label in mapping.items():
        if not is_label(label):
            fail(
                f"groups: a mapping is read as {{feature: group label}}, a label "
                f"being hashable (a string or a number); the label of feature "
                f"{feature!r} is a {type(label).__name__} {label!r} (for "
                f"{{group: features}} pass list(groups.values()))",
                TypeError,
            )
        groups.setdefault(label, []).append(feature)
    return list(groups.values())
