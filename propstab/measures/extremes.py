"""The extremes of frequency measures over the matrices with given sums.

- CW_rel's normalisation (:func:`~propstab.measures.cwrel`): the smallest and the
  largest weighted consistency of M subsets of d features with N selections in total,
  CW_min and CW_max (Somol and Novovicova 2010, eqs. 11 and 14), in exact integers
  (:func:`cw_extremes`) and as the public :func:`cw_min` and :func:`cw_max`
  (exported by :mod:`propstab.measures`);
- Krizek's maximum (:func:`krizek_upper`), the declared upper bound of
  :func:`~propstab.measures.krizek`.
"""
from __future__ import annotations

import math

from .._utils.checks import check_int_range

__all__ = ["cw_extremes", "cw_extremes_equal", "cw_max", "cw_min", "krizek_upper"]


def krizek_upper(M, d, sizes) -> float:
    """log2(min(M, number of possible feature sets)): at most M distinct sets, and the
    sets of the sizes present number sum over the distinct sizes k of C(d, k) (C(d, k)
    on the declared constant-size domain). A function of the multiset of sizes, so a
    check against it (a test's phi0) does not depend on the order of the runs.

    >>> krizek_upper(4, 10, [3, 3, 3, 3]), krizek_upper(5, 4, [1, 2, 2, 2, 2])
    (2.0, 2.321928094887362)
    """
    n_sets = sum(math.comb(d, int(k)) for k in set(int(k) for k in sizes))
    return math.log2(min(M, n_sets))


def cw_extremes(total, n_runs, n_features):
    """CW_min and CW_max (Somol and Novovicova 2010, eqs. 11 and 14), both multiplied by
    their common denominator d N (M - 1).

    Exact integers for integer arguments (so that ``low == high`` tests CW_min = CW_max
    exactly); elementwise for arrays (the leave-one-out sums of
    :func:`~propstab.measures.cwrel`).

    .. math:: d N (M-1)\\,CW_{min} = N^2 - d(N - D) - D^2, \\quad
              d N (M-1)\\,CW_{max} = d\\,(H^2 + N(M - 1) - H M)

    with D = N mod d and H = N mod M.

    Parameters
    ----------
    total : int or array
        N, the total number of selections.
    n_runs : int
        M.
    n_features : int
        d.

    Returns
    -------
    low, high : int or array

    See Also
    --------
    cw_min, cw_max

    Examples
    --------
    >>> cw_extremes(23, 7, 6)            # Fig. 2: CW_min = 11/23, CW_max = 64/69
    (396, 768)
    >>> 396 / (6 * 23 * 6) == 11 / 23, 768 / (6 * 23 * 6) == 64 / 69
    (True, True)
    """
    N, M, d = total, n_runs, n_features
    D, H = N % d, N % M
    return N * N - d * (N - D) - D * D, d * (H * H + N * (M - 1) - H * M)


def cw_extremes_equal(sel) -> bool:
    """Whether CW_min = CW_max for the sums of ``sel`` (CW_rel is then CW, eq. 6)."""
    low, high = cw_extremes(sel.total, sel.n_runs, sel.n_features)
    return sel.total > 0 and low == high


def cw_min(total, n_runs, n_features):
    """Minimum weighted consistency CW_min(N, n, Y) (Somol and Novovicova 2010, eq. 11).

    .. math:: CW_{min}(N, n, Y) = \\frac{N^2 - |Y|(N - D) - D^2}{|Y| N (n - 1)},
              \\quad D = N \\bmod |Y|

    Parameters
    ----------
    total : int
        N, the total number of selections (sum of the subset sizes).
    n_runs : int
        n >= 2, the number of subsets.
    n_features : int
        ``|Y|``, the number of features.

    Returns
    -------
    float
        The smallest CW over all systems of n subsets of ``|Y|`` features with N
        selections in total.

    Raises
    ------
    TypeError
        If ``total``, ``n_runs`` or ``n_features`` is not an integer.
    ValueError
        If ``n_runs < 2``, ``n_features < 1`` or ``total`` is outside 1..n ``|Y|``.

    See Also
    --------
    propstab.measures.cw_max : The maximum, the other end of CW_rel's normalisation.
    propstab.measures.cwrel : The relative weighted consistency, which uses both.
    propstab.measures.weighted_consistency : CW itself.

    References
    ----------
    Somol, P., Novovicova, J. (2010). Evaluating stability and comparing output of
    feature selectors that optimize feature subset cardinality. IEEE TPAMI 32(11),
    1921-1939, eqs. 9 and 11 (Lemma 4) and Fig. 2(a).

    Examples
    --------
    >>> from propstab.measures import cw_min
    >>> from fractions import Fraction
    >>> Fraction(cw_min(23, 7, 6)).limit_denominator(1000)   # Fig. 2(a): 11/23
    Fraction(11, 23)
    """
    check_int_range("n_runs", n_runs, minimum=2, owner="cw_min")
    check_int_range("n_features", n_features, minimum=1, owner="cw_min")
    check_int_range(
        "total",
        total,
        minimum=1,
        maximum=int(n_runs) * int(n_features),
        owner="cw_min (N <= n |Y|)",
    )
    low, _ = cw_extremes(int(total), int(n_runs), int(n_features))
    return low / (int(n_features) * int(total) * (int(n_runs) - 1))


def cw_max(total, n_runs):
    """Maximum weighted consistency CW_max(N, n) (Somol and Novovicova 2010, eq. 14).

    .. math:: CW_{max}(N, n) = \\frac{H^2 + N(n - 1) - H n}{N (n - 1)},
              \\quad H = N \\bmod n

    Parameters
    ----------
    total : int
        N, the total number of selections.
    n_runs : int
        n >= 2.

    Returns
    -------
    float
        The largest CW over all systems of n subsets with N selections in total.

    Raises
    ------
    TypeError
        If ``total`` or ``n_runs`` is not an integer.
    ValueError
        If ``total < 1`` or ``n_runs < 2``.

    See Also
    --------
    propstab.measures.cw_min : The minimum, the other end of CW_rel's normalisation.
    propstab.measures.cwrel : The relative weighted consistency, which uses both.

    References
    ----------
    Somol, P., Novovicova, J. (2010). Evaluating stability and comparing output of
    feature selectors that optimize feature subset cardinality. IEEE TPAMI 32(11),
    1921-1939, eqs. 13 and 14 (Lemma 6) and Fig. 2(b).

    Examples
    --------
    >>> from propstab.measures import cw_max
    >>> from fractions import Fraction
    >>> Fraction(cw_max(23, 7)).limit_denominator(1000)      # Fig. 2(b): 64/69
    Fraction(64, 69)
    """
    check_int_range("total", total, minimum=1, owner="cw_max")
    check_int_range("n_runs", n_runs, minimum=2, owner="cw_max")
    _, high = cw_extremes(int(total), int(n_runs), 1)
    return high / (int(total) * (int(n_runs) - 1))
