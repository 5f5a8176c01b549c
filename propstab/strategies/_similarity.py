"""Strategies for correlated feature spaces: similarity matrices and importance weights."""
from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np

from .._utils.checks import check_int_range, is_one_of
from ._base import (
    LIMIT_FEATURES,
    LIMIT_RUNS,
    LIMIT_SIMILARITY_FEATURES,
    InvalidArgument,
    int_lists,
    invalid,
    memoised,
    public,
    sampled,
    st,
)


# ---------------------------------------------------------------- correlated feature spaces

SIMILARITY_KINDS = ("identity", "groups", "general")
SIMILARITY_FORMATS = ("dense", "sparse")
#: Off-diagonal similarities tried first by :func:`similarity_matrices` (0 shrinks first):
#: 1 links features fully, 0.9 and 0.95 sit at and above stabm's default threshold 0.9.
SIMILARITY_VALUES = (0.0, 1.0, 0.5, 0.9, 0.95, 0.25)
#: The off-diagonal entries of a ``"general"`` similarity matrix: the values above first,
#: then any float in [0, 1].
SIMILARITY_ELEMENTS = st.one_of(
    st.sampled_from(SIMILARITY_VALUES), st.floats(0.0, 1.0, allow_nan=False)
)


def _similarity_arguments(n_features, kinds, elements, formats):
    owner = "similarity_matrices"
    d = invalid(
        check_int_range,
        "n_features",
        n_features,
        minimum=1,
        maximum=LIMIT_SIMILARITY_FEATURES,
        owner=owner,
    )
    for name, value, allowed in (
        ("kinds", kinds, SIMILARITY_KINDS),
        ("formats", formats, SIMILARITY_FORMATS),
    ):
        if (
            isinstance(value, (str, bytes))
            or not isinstance(value, Iterable)
            or not list(value)
            or any(not is_one_of(v, allowed) for v in value)
        ):
            raise InvalidArgument(
                f"{name}: {owner} needs a non-empty subset of {allowed}; " f"got {value!r}"
            )
    if not isinstance(elements, st.SearchStrategy):
        raise InvalidArgument(
            f"elements: must be a Hypothesis strategy of floats in [0, 1] "
            f"for {owner}; got {type(elements).__name__} {elements!r}"
        )
    return d, tuple(kinds), tuple(formats)


def _unit_entries(values, elements) -> list:
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 <= v <= 1:
            raise InvalidArgument(
                f"elements: similarity_matrices needs numbers in [0, 1]; "
                f"{elements!r} drew {v!r}"
            )
    return values


@public
def similarity_matrices(
    draw, n_features, *, kinds=SIMILARITY_KINDS, elements=SIMILARITY_ELEMENTS, formats=("dense",)
):
    """Feature-similarity matrices C (d x d): symmetric, entries in [0, 1], unit diagonal.

    The matrices every correlated measure accepts (Sechidis et al. 2019, eq. 4;
    Hamer and Dupont 2021, sec. 5), positive semi-definite or not.

    Parameters
    ----------
    n_features : int
        d.
    kinds : sequence of {"identity", "groups", "general"}
        ``"identity"``: no two features related; ``"groups"``: a 0/1 block matrix
        (features with the same drawn group label are fully similar, as built by
        :func:`propstab.similarity_from_groups`); ``"general"``: every off-diagonal
        entry drawn from ``elements``. Hypothesis shrinks towards the first kind listed.
    elements : SearchStrategy of float
        The off-diagonal entries of a ``"general"`` matrix, numbers in [0, 1]; the
        default ``SIMILARITY_ELEMENTS`` tries 0, 1, 0.5, 0.9, 0.95, 0.25 first, then
        any float (shrinking towards 0).
    formats : sequence of {"dense", "sparse"}
        ``"dense"``: float64 ndarrays; ``"sparse"``: scipy.sparse CSR matrices (the
        input R's ``Matrix`` package and stabm receive as ``dgCMatrix``).

    Returns
    -------
    SearchStrategy of float64 ndarrays (or CSR matrices) of shape (d, d)

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used: ``n_features`` not a positive integer, ``kinds``
        or ``formats`` not a non-empty subset of the choices, ``elements`` not a
        strategy, or an element drawn outside [0, 1].

    See Also
    --------
    propstab.similarity_from_data : Similarities from data.
    propstab.similarity_from_groups : Similarities from groups of features.
    importance_weights : Importances for the same correlated measures.

    References
    ----------
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On
    the stability of feature selection in the presence of feature correlations. ECML
    PKDD, LNCS 11906, 327-342, eq. 4.
    Hamer, V., Dupont, P. (2021). Robust selection stability estimation in correlated
    spaces. ECML PKDD, LNCS 12977, 446-461, sec. 5.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

    Examples
    --------
    >>> import numpy as np
    >>> from hypothesis import find, strategies as st
    >>> from propstab.strategies import REPRODUCIBLE
    >>> from propstab.strategies import similarity_matrices
    >>> find(similarity_matrices(3), lambda C: C[0, 1] > 0 == C[0, 2],
    ...      settings=REPRODUCIBLE)     # one link
    array([[1., 1., 0.],
           [1., 1., 0.],
           [0., 0., 1.]])
    >>> find(similarity_matrices(2, kinds=["general"]), lambda C: 0 < C[0, 1] < 1,
    ...      settings=REPRODUCIBLE)
    array([[1. , 0.5],
           [0.5, 1. ]])
    >>> sparse = similarity_matrices(2, kinds=["general"], elements=st.just(0.3),
    ...                              formats=["sparse"])
    >>> find(sparse, lambda C: True, settings=REPRODUCIBLE).toarray()
    array([[1. , 0.3],
           [0.3, 1. ]])
    >>> from hypothesis.errors import InvalidArgument
    >>> try:
    ...     find(similarity_matrices(3, kinds=["psd"]), lambda C: True)
    ... except InvalidArgument as exc:
    ...     print(exc)
    kinds: similarity_matrices needs a non-empty subset of
    ('identity', 'groups', 'general'); got ['psd']
    """
    d, kinds, formats = _similarity_arguments(n_features, kinds, elements, formats)
    kind = draw(sampled(kinds))
    if kind == "identity":
        C = np.eye(d)
    elif kind == "groups":
        labels = np.asarray(draw(int_lists(0, d - 1, d)))
        C = (labels[:, None] == labels[None, :]).astype(np.float64)
    else:
        iu = np.triu_indices(d, 1)
        values = _unit_entries(draw(_element_lists(elements, iu[0].size)), elements)
        C = np.eye(d)
        C[iu] = values
        C[iu[1], iu[0]] = values
    form = formats[0] if len(formats) == 1 else draw(sampled(formats))
    if form == "sparse":
        from scipy import sparse

        return sparse.csr_matrix(C)
    return C


#: Importance weights tried first by :func:`importance_weights` (1 shrinks first).
WEIGHT_VALUES = (1.0, 2.0, 0.5, 10.0)


@public
def importance_weights(draw, n_runs, n_features, *, equal=True):
    """Positive weights U (M x d) giving importances ``W = Z * U`` for any selection Z.

    An importance matrix (Hamer and Dupont 2021, sec. 3) is non-negative and zero
    exactly where Z is 0; multiplying Z entrywise by strictly positive weights gives
    one for every Z of the same shape, so one draw serves pairs of matrices and the
    enumeration of the null model alike.

    Parameters
    ----------
    n_runs, n_features : int
        M and d.
    equal : bool, default True
        Include ``None`` (equal importances: the measure's default), drawn first.

    Returns
    -------
    SearchStrategy of float64 ndarrays of shape (M, d), or None

    Raises
    ------
    hypothesis.errors.InvalidArgument
        When the strategy is first used: ``n_runs`` or ``n_features`` not an integer in
        1..50, ``equal`` not True or False.

    See Also
    --------
    similarity_matrices : The similarity matrices of the same measures.
    propstab.measures.msi : A measure that reads importances.

    References
    ----------
    Hamer, V., Dupont, P. (2021). Robust selection stability estimation in correlated
    spaces. ECML PKDD, LNCS 12977, 446-461, sec. 3 and eqs. 6-7.
    MacIver, D. R., Hatfield-Dodds, Z. et al. (2019). Hypothesis: A new approach to
    property-based testing. JOSS 4(43), 1891. doi:10.21105/joss.01891 (strategies and
    shrinking).

    Examples
    --------
    >>> from hypothesis import find
    >>> from propstab.strategies import REPRODUCIBLE
    >>> from propstab.strategies import importance_weights
    >>> find(importance_weights(2, 2), lambda U: U is not None and U.max() > 1,
    ...      settings=REPRODUCIBLE)
    array([[1., 1.],
           [1., 2.]])
    """
    M = invalid(
        check_int_range,
        "n_runs",
        n_runs,
        minimum=1,
        maximum=LIMIT_RUNS,
        owner="importance_weights",
    )
    d = invalid(
        check_int_range,
        "n_features",
        n_features,
        minimum=1,
        maximum=LIMIT_FEATURES,
        owner="importance_weights",
    )
    if not isinstance(equal, bool):
        raise InvalidArgument(
            f"equal: must be True or False for importance_weights; got "
            f"{type(equal).__name__} {equal!r}"
        )
    return draw(_weights(M, d, equal))


@memoised
def _element_lists(elements, n: int):
    return st.lists(elements, min_size=n, max_size=n)


@memoised
def _weights(M: int, d: int, equal: bool):
    entry = st.one_of(
        st.sampled_from(WEIGHT_VALUES),
        st.floats(0.01, 100.0, allow_nan=False, allow_infinity=False),
    )
    weights = st.lists(entry, min_size=M * d, max_size=M * d).map(
        lambda v: np.asarray(v, dtype=np.float64).reshape(M, d)
    )
    return st.one_of(st.none(), weights) if equal else weights
