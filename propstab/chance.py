"""Exact null-model expectations (thesis Definition 2: run i draws a uniformly
random subset of size :math:`k_i`, independently of the other runs).

The symbols are defined in the :doc:`/notation`.

- For a pair of runs the intersection r follows the hypergeometric law
  :math:`P(r = n) = \\binom{k_i}{n}\\binom{d - k_i}{k_j - n} / \\binom{d}{k_j}`, so the
  expectation of any pairwise score is a finite sum (:func:`expected_pairwise`).
- A column count :math:`F_f = \\sum_i z_{if}` is Poisson-binomial with probabilities
  :math:`k_i/d` (:func:`column_count_pmf`).
- The size of the union of the runs follows a Markov chain: adding a run of size
  k to a union of size c adds a hypergeometric number of new features
  (:func:`union_size_pmf`).
- Nogueira's estimator has a closed-form null expectation, 0 only for a constant
  size (:func:`nogueira_expectation`; docs/varying_sizes.md).

No enumeration of subsets and no simulation.
"""
from __future__ import annotations

import functools
from typing import Callable, Tuple

import numpy as np
from scipy import stats

from ._utils.exceptions import undefined
from ._utils.checks import check_row_sizes, fail
from ._utils.params import N_FEATURES, Callable as CallableRule, validate_params

__all__ = [
    "expected_pairwise",
    "column_count_pmf",
    "degenerate_intersection",
    "nogueira_expectation",
    "union_size_pmf",
]


@validate_params({"n_features": N_FEATURES})
def degenerate_intersection(k_i, k_j, n_features) -> np.ndarray:
    """Where the null law of ``|s_i ∩ s_j|`` is one point, decided on the integers.

    Under :math:`H_0` the intersection of random subsets of sizes :math:`k_i` and
    :math:`k_j` of d features is hypergeometric on
    :math:`\\max(0, k_i + k_j - d), \\dots, \\min(k_i, k_j)`; it is degenerate (a
    pair's score is then determined, and equals its null expectation exactly) when
    the two ends coincide: a run is empty or selects all d features. Elementwise over
    broadcast integer arrays; no floating-point comparison.

    Parameters
    ----------
    k_i, k_j : int or array of int
        Subset sizes in 0..d (broadcast against each other).
    n_features : int
        d.

    Returns
    -------
    ndarray of bool
        True where the support has one point.

    Raises
    ------
    ValueError
        If the sizes do not broadcast together, d < 1 or a size is outside 0..d.
    TypeError
        If the sizes or d are not integers.

    See Also
    --------
    propstab.chance.expected_pairwise : Exact for these pairs (the score at the point).

    References
    ----------
    Kuncheva, L. I. (2007). A stability index for feature selection. AIAC, 390-395
    (the intersection of two random subsets is hypergeometric).

    Examples
    --------
    >>> from propstab.chance import degenerate_intersection
    >>> degenerate_intersection([10, 10, 0, 3], [10, 4, 4, 4], 10).tolist()
    [True, True, True, False]
    """
    d = n_features
    arrays = []
    for name, value in (("k_i", k_i), ("k_j", k_j)):
        arr = np.asarray(value)
        if arr.dtype.kind not in "iu":
            fail(
                f"{name}: must be integers (subset sizes, or d); got "
                f"{arr.dtype} values {value!r}",
                TypeError,
            )
        arrays.append(arr.astype(np.int64))
    try:
        ki, kj = np.broadcast_arrays(*arrays)
    except ValueError:
        fail(
            f"k_i, k_j: shapes {arrays[0].shape} and {arrays[1].shape} do not "
            f"broadcast together"
        )
    for name, k in (("k_i", ki), ("k_j", kj)):
        outside = (k < 0) | (k > d)
        if np.any(outside):
            fail(
                f"{name}: every subset size must be in 0..{d} (n_features={d}); "
                f"got {int(k[outside].flat[0])}"
            )
    return np.maximum(0, ki + kj - d) == np.minimum(ki, kj)


@functools.lru_cache(maxsize=512)
def _intersection_pmf(sizes: Tuple[int, ...], d: int) -> np.ndarray:
    """P(|s_i ∩ s_j| = r | H0) for every pair of the distinct ``sizes`` and r = 0..max:
    ``scipy.stats.hypergeom.pmf`` once per (sizes, d) (the audit asks for the same
    shapes many times), read-only."""
    a = np.asarray(sizes, dtype=np.float64)
    r = np.arange(max(sizes) + 1, dtype=np.float64)[None, None, :]
    pmf = stats.hypergeom.pmf(r, d, a[:, None, None], a[None, :, None])
    pmf.setflags(write=False)
    return pmf


@validate_params(
    {
        "score": CallableRule("a function score(r, k_i, k_j, d) -> (numerator, " "denominator)"),
        "n_features": N_FEATURES,
    }
)
def expected_pairwise(
    score: Callable, row_sizes, n_features: int
) -> Tuple[np.ndarray, np.ndarray]:
    """The null expectations :math:`E[\\phi(s_i, s_j) \\mid H_0]` of all ordered pairs of runs.

    Parameters
    ----------
    score : callable
        ``score(r, k_i, k_j, d) -> (numerator, denominator)`` on broadcast arrays.
    row_sizes : array of int, length M
        The subset sizes :math:`k_1, \\dots, k_M`.
    n_features : int
        d.

    Returns
    -------
    expectation : ndarray, shape (M, M)
        The exact expectation (NaN where the score is undefined for the sizes).
    defined : ndarray of bool, shape (M, M)
        False where the score's denominator is 0 with positive probability.

    Raises
    ------
    TypeError
        If ``row_sizes`` is not a 1-D sequence of integers or ``n_features`` not an
        integer.
    ValueError
        If ``row_sizes`` is empty or a size is outside 0..d, or ``n_features < 1``.
    TypeError
        If ``score`` is not callable.

    See Also
    --------
    propstab.chance.nogueira_expectation : The closed form for Nogueira's estimator.
    propstab.chance.union_size_pmf : The null law of the union of the runs.

    Notes
    -----
    Where the intersection's law is one point :math:`r_0` (:func:`degenerate_intersection`:
    a run empty or full) the expectation is the score at :math:`r_0`, computed by the same
    floating-point operations as the observed score, not a sum of rounded
    probabilities: the observed score minus its expectation is then exactly 0, and a
    score at its maximum 1 has ``1 - E`` exactly 0 (the chance-corrected 0/0).

    References
    ----------
    Kuncheva, L. I. (2007). A stability index for feature selection. AIAC, 390-395
    (the intersection of two random subsets is hypergeometric).
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Definition 2 and sec. 3.1.6.

    Examples
    --------
    >>> import numpy as np
    >>> from propstab.chance import expected_pairwise
    >>> dice = lambda r, a, b, d: (2 * r, a + b)
    >>> E, ok = expected_pairwise(dice, np.array([2, 2]), 4)   # k/d = 1/2
    >>> float(E[0, 1])
    0.5
    """
    k, d = check_row_sizes(row_sizes, n_features)
    sizes, inverse = np.unique(k, return_inverse=True)
    a = sizes[:, None, None].astype(np.float64)
    b = sizes[None, :, None].astype(np.float64)
    r = np.arange(int(sizes.max()) + 1, dtype=np.float64)[None, None, :]
    pmf = _intersection_pmf(tuple(sizes.tolist()), int(d))  # shape (U, U, R)
    num, den = score(r, a, b, float(d))
    num = np.broadcast_to(num, pmf.shape)
    den = np.broadcast_to(den, pmf.shape)
    support = pmf > 0
    defined_u = ~np.any(support & (den == 0), axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = np.where(support & (den != 0), num / np.where(den == 0, 1.0, den), 0.0)
    E_u = np.where(defined_u, np.sum(pmf * phi, axis=2), np.nan)
    # one-point laws (a run empty or full): the score at that point, not a rounded sum
    ia, ib = sizes[:, None], sizes[None, :]
    point = degenerate_intersection(ia, ib, d)
    if point.any():
        r0 = np.minimum(ia, ib).astype(np.float64)
        n0, d0 = np.broadcast_arrays(*score(r0, a[..., 0], b[..., 0], float(d)))
        with np.errstate(divide="ignore", invalid="ignore"):
            exact = n0 / np.where(d0 == 0, 1.0, d0)
        E_u = np.where(point & defined_u, exact, E_u)
    inv = inverse.ravel()
    return E_u[np.ix_(inv, inv)], defined_u[np.ix_(inv, inv)]


@validate_params({"n_features": N_FEATURES})
def column_count_pmf(row_sizes, n_features: int) -> np.ndarray:
    """The null law :math:`P(F_f = c \\mid H_0)` of a column count, c = 0..M.

    It is Poisson-binomial with probabilities :math:`k_i/d`.

    Under the null model each run selects feature f with probability :math:`k_i/d`,
    independently of the other runs; runs of equal size are grouped into one
    binomial, and the binomials are convolved.

    Parameters
    ----------
    row_sizes : sequence of int, length M
        The subset sizes :math:`k_1, \\dots, k_M`.
    n_features : int
        d.

    Returns
    -------
    ndarray of float, length M + 1
        The probabilities of the counts 0..M.

    Raises
    ------
    TypeError
        If ``row_sizes`` is not a 1-D sequence of integers or ``n_features`` not an
        integer.
    ValueError
        If ``row_sizes`` is empty or a size is outside 0..d, or ``n_features < 1``.

    See Also
    --------
    propstab.chance.nogueira_expectation : Its first two moments give
        :math:`E[\\hat\\Phi \\mid H_0]`.
    propstab.chance.union_size_pmf : The null law of the union of the runs.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Definition 2 and Thm 3 (the column's sample variance under
    :math:`H_0`).

    Examples
    --------
    >>> from propstab.chance import column_count_pmf
    >>> column_count_pmf([1, 1], 2).round(12).tolist()
    [0.25, 0.5, 0.25]
    """
    k, d = check_row_sizes(row_sizes, n_features)
    pmf = np.array([1.0])
    sizes, counts = np.unique(k, return_counts=True)
    for size, count in zip(sizes.tolist(), counts.tolist()):  # loop over distinct sizes
        pmf = np.convolve(pmf, stats.binom.pmf(np.arange(count + 1), count, size / d))
    return pmf


@validate_params({"n_features": N_FEATURES})
def union_size_pmf(row_sizes, n_features: int) -> np.ndarray:
    """The null law :math:`P(|s_1 \\cup \\dots \\cup s_M| = u \\mid H_0)` for u = 0..d.

    A Markov chain over the runs: adding a random subset of size k to a union of size
    c adds a hypergeometric number of new features (population d, d - c of them new,
    k draws).

    Parameters
    ----------
    row_sizes : sequence of int, length M
        The subset sizes :math:`k_1, \\dots, k_M`.
    n_features : int
        d.

    Returns
    -------
    ndarray of float, length d + 1
        The probabilities of the union sizes 0..d.

    Raises
    ------
    TypeError
        If ``row_sizes`` is not a 1-D sequence of integers or ``n_features`` not an
        integer.
    ValueError
        If ``row_sizes`` is empty or a size is outside 0..d, or ``n_features < 1``.

    See Also
    --------
    propstab.chance.column_count_pmf : The null law of one feature's selection count.
    propstab.measures.davis : Its exact correction for chance averages over this law.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Definition 2 (the null model); the recursion is propstab's own
    (each step is the hypergeometric law of sec. 3.1.6).

    Examples
    --------
    >>> from propstab.chance import union_size_pmf
    >>> union_size_pmf([1, 1], 2).tolist()
    [0.0, 0.5, 0.5]
    """
    sizes, d = check_row_sizes(row_sizes, n_features)
    pmf = np.zeros(d + 1)
    pmf[0] = 1.0
    lo, hi = 0, 0
    for k in sizes.tolist():  # one step per run
        c = np.arange(lo, hi + 1)
        x = np.arange(k + 1)
        # new features x ~ hypergeom(population d, successes d - c, draws k)
        step = stats.hypergeom.pmf(x[None, :], d, (d - c)[:, None], k)
        new = np.zeros(d + 1)
        idx = c[:, None] + x[None, :]
        ok = idx <= d
        np.add.at(new, idx[ok], (pmf[lo : hi + 1, None] * step)[ok])
        pmf = new
        lo, hi = max(lo, k), min(d, hi + k)
    return pmf


@validate_params({"n_features": N_FEATURES})
def nogueira_expectation(row_sizes, n_features: int) -> float:
    """The null expectation :math:`E[\\hat\\Phi \\mid H_0]` of Nogueira's estimator, sizes fixed.

    Column f's count is Poisson-binomial with probabilities :math:`q_i = k_i/d`, so
    :math:`E[s_f^2] = \\bar q (1 - \\bar q) + \\mathrm{var}_{pop}(q)/(M - 1)` and

    .. math:: E[\\hat\\Phi \\mid H_0]
              = -\\frac{\\mathrm{var}_{pop}(q)}{(M - 1)\\,\\bar q (1 - \\bar q)}
              = -\\frac{M \\sum_i k_i^2 - N^2}{(M - 1) N (M d - N)},

    0 exactly when the size is constant (thesis Thm 3's identically distributed runs),
    negative otherwise. Computed from integers (one correctly rounded division); NaN
    with :class:`~propstab.UndefinedMeasureWarning` when the mean size is 0 or d (the
    estimator is undefined).

    Parameters
    ----------
    row_sizes : sequence of int, length M >= 2
        The subset sizes :math:`k_1, \\dots, k_M`.
    n_features : int
        d.

    Returns
    -------
    float
        The exact expectation; NaN when the mean size is 0 or d.

    Raises
    ------
    TypeError
        If ``row_sizes`` is not a 1-D sequence of integers or ``n_features`` not an
        integer.
    ValueError
        If there are fewer than 2 sizes or a size is outside 0..d, or ``n_features < 1``.

    Warns
    -----
    UndefinedMeasureWarning
        When every run selects no feature or every feature.

    See Also
    --------
    propstab.measures.nogueira : The estimator itself.
    propstab.chance.column_count_pmf : The null law of the column counts used here.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 3 and App. A.3 (the constant-size case, expectation 0).
    Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of feature selection
    algorithms. JMLR 18(174), 1-54.

    Examples
    --------
    >>> from propstab.chance import nogueira_expectation
    >>> nogueira_expectation([1, 2], 3)           # -1/9 (docs/table41.md)
    -0.1111111111111111
    >>> nogueira_expectation([4, 4, 4], 10)
    0.0
    """
    sizes, d = check_row_sizes(row_sizes, n_features)
    if sizes.size < 2:
        fail(f"row_sizes: needs M >= 2 runs; got {sizes.size}")
    k = [int(x) for x in sizes.tolist()]
    M, N = len(k), sum(k)
    if N == 0 or N == M * d:
        return undefined(
            "nogueira",
            f"every run selects {'no' if N == 0 else 'every'} "
            f"feature (the null expectation is 0/0)",
        )
    return -(M * sum(x * x for x in k) - N * N) / ((M - 1) * N * (M * d - N)) + 0.0
