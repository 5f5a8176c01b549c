"""The five checks, one per axiom (thesis ch. 4, :attr:`propstab.Axiom.statement`).

Each check is written once for every input kind: a subject's declaration says whether the
measure reads a selection matrix or a rank matrix, and
:func:`~propstab.auditing._inputs.input_kind` gives the matrices to search and the exact
quantities to compare (for rank matrices, the axioms' statements
:attr:`propstab.Axiom.ranking_statement`).

``check_<axiom>(measure, *, options, claimed, max_examples, random_state)`` searches for a
counterexample to the axiom (:func:`propstab.search.search`, through
:func:`~propstab.auditing._subjects.search_in_contexts` for correlated measures) and
returns a :class:`~propstab.auditing._report.CheckResult`: a claimed axiom "holds" or is
"violated", a disclaimed one is "refuted" or "unrefuted" (never "holds").
"""
from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Callable, Mapping

import numpy as np
from hypothesis import strategies as st

from .._utils.checks import check_bool, check_int_range
from .._utils.params import RENAMED_SEED, renamed
from ..axioms import Axiom
from ..search import Found, assume, assume_defined, target
from ._examples import CONTEXT_EXAMPLES, CONTEXT_FAMILIES, FAMILY_SIZES, diverges, family_values
from ._expectations import sizes_text
from ._inputs import input_kind, selection_total_variance
from ._report import CheckResult, matrix_text
from ._subjects import TOLERANCE, Subject, close, search_in_contexts, subject

__all__ = [
    "CHECKS",
    "DEFAULT_MAX_EXAMPLES",
    "MAX_FEATURES",
    "MAX_RUNS",
    "check_bounds",
    "check_correction_for_chance",
    "check_fully_defined",
    "check_maximum",
    "check_monotonicity",
]

DEFAULT_MAX_EXAMPLES = 200
MAX_RUNS, MAX_FEATURES = 5, 7  # sizes of the searched matrices

FD, MONO, BND, MAX, CORR = (
    Axiom.FULLY_DEFINED,
    Axiom.MONOTONICITY,
    Axiom.BOUNDS,
    Axiom.MAXIMUM,
    Axiom.CORRECTION_FOR_CHANCE,
)


def _verdict(
    subject: Subject, axiom: Axiom, found, reason_none: str, *, expectations=(), claimed=None
) -> CheckResult:
    claimed = subject.claims[axiom] if claimed is None else claimed
    if found == "unsatisfiable":
        return CheckResult(
            subject.name,
            axiom,
            claimed,
            "skipped",
            reason="no generated matrix is in the measure's domain of " "definition",
        )
    if found is None:
        if subject.contexts is not None:
            reason_none += (
                ", each example with a drawn similarity matrix (identity, groups, "
                "general) and/or importance weights"
            )
        return CheckResult(
            subject.name,
            axiom,
            claimed,
            "holds" if claimed else "unrefuted",
            expectations=tuple(expectations),
            reason=reason_none,
        )
    return CheckResult(
        subject.name,
        axiom,
        claimed,
        "violated" if claimed else "refuted",
        counterexample=found.example,
        values=tuple(found.values),
        expectations=tuple(expectations),
        reason=found.reason,
        context=found.context,
    )


def _prepare(measure, options, claimed, axiom, max_examples, seed) -> Subject:
    owner = f"check_{axiom.name.lower()}"
    check_int_range("max_examples", max_examples, minimum=1, owner=owner)
    check_int_range("random_state", seed, minimum=0, owner=owner)
    claimed = check_bool("claimed", claimed, none=True)
    s = subject(measure, options=options)
    if claimed is not None:
        s = s.declaring(claims={axiom: bool(claimed)})
    return s


def _total_variance(Z: np.ndarray) -> Fraction:
    """sum_f s_f^2 = (N M - sum_f F_f^2) / (M (M - 1)) of a selection matrix, exactly."""
    return selection_total_variance(Z)


def _kind(s: Subject):
    """The subject's input kind, with the searched sizes."""
    return input_kind(s, MAX_RUNS, MAX_FEATURES)


def _domain_text(s: Subject) -> str:
    return (
        "R with no run ranking all features equal"
        if s.declaration.input == "ranking"
        else "Z with row sizes in 1..d-1"
    )


@renamed(RENAMED_SEED)
def check_fully_defined(
    measure, *, options=None, claimed=None, max_examples=DEFAULT_MAX_EXAMPLES, random_state=0
) -> CheckResult:
    """FULLY_DEFINED: a finite value, no warning and no exception on every Z whose
    row sizes lie in 1..d-1 (sizes may differ between rows).

    Parameters
    ----------
    measure : str, MeasureInfo, Subject or callable
        A registered measure (name or entry), or a user function ``f(Z) -> float``
        (see :func:`~propstab.auditing.subject`).
    options : mapping, optional
        The measure's options (e.g. ``{"penalty": 0.5}``); a registered variant's
        options use the variant's declaration.
    claimed : bool, optional
        Check this direction instead of the declared one.
    max_examples : int, default 200
        Hypothesis examples of the search.
    random_state : int, default 0
        The seed of the search: the result is reproducible (``seed=`` is its deprecated
        name: a DeprecationWarning).

    Returns
    -------
    CheckResult
        ``"holds"`` or ``"violated"`` for a claimed axiom, ``"refuted"`` or
        ``"unrefuted"`` for a disclaimed one (``"skipped"`` when no generated example
        is in the measure's domain), with the minimal counterexample.

    Raises
    ------
    ValueError, TypeError
        An unknown measure or an invalid declaration (see
        :func:`~propstab.auditing.subject`).

    See Also
    --------
    propstab.audit : Every check on every measure, as a table.
    check_monotonicity : The check of MONOTONICITY.
    check_bounds : The check of BOUNDS.
    check_maximum : The check of MAXIMUM.
    check_correction_for_chance : The check of CORRECTION FOR CHANCE.

    References
    ----------
    S. Nogueira, *Quantifying the Stability of Feature Selection*, PhD thesis,
    University of Manchester, 2018, ch. 4 and App. B.

    Examples
    --------
    >>> from propstab.auditing import check_fully_defined
    >>> r = check_fully_defined("kuncheva", max_examples=20)
    >>> r.status, r.counterexample.astype(int).tolist()
    ('refuted', [[1, 0, 0], [1, 0, 1]])
    """
    seed = random_state
    s = _prepare(measure, options, claimed, FD, max_examples, seed)
    seed = int(seed)  # validated; a NumPy integer too (Hypothesis takes Python ints)

    def probe(s, Z):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                v = float(s.evaluate(Z))
            except Exception as exc:  # any exception breaks FULLY_DEFINED
                return Found(Z, (), f"raises {type(exc).__name__}: {exc}")
        if caught:
            return Found(Z, (v,), f"warns {caught[0].category.__name__}: {caught[0].message}")
        if not math.isfinite(v):
            return Found(Z, (v,), f"value {v}")
        return None

    kind = _kind(s)
    found = search_in_contexts(
        s,
        kind.proper(),
        probe,
        np.shape,
        max_examples=max_examples,
        seed=seed,
        examples=kind.fully_defined_examples,
        context_examples=CONTEXT_EXAMPLES[FD],
        replay=True,
    )
    return _verdict(
        s,
        FD,
        found,
        f"finite, without warning, on every searched "
        f"{_domain_text(s)} ({max_examples} examples)",
    )


@renamed(RENAMED_SEED)
def check_monotonicity(
    measure, *, options=None, claimed=None, max_examples=DEFAULT_MAX_EXAMPLES, random_state=0
) -> CheckResult:
    """MONOTONICITY (strict): at fixed M, d and row sizes, the value is a strictly
    decreasing function of the total variance :math:`\\sum_f s_f^2` (the symbols are
    defined in the :doc:`/notation`).

    Pairs (Z1, Z2) with the same M, d and row sizes (:func:`propstab.strategies.matrix_pairs`)
    are searched for equal total variance with different values, or lower total
    variance without a strictly more stable value.

    Parameters
    ----------
    measure : str, MeasureInfo, Subject or callable
        A registered measure (name or entry), or a user function ``f(Z) -> float``
        (see :func:`~propstab.auditing.subject`).
    options : mapping, optional
        The measure's options (e.g. ``{"penalty": 0.5}``); a registered variant's
        options use the variant's declaration.
    claimed : bool, optional
        Check this direction instead of the declared one.
    max_examples : int, default 200
        Hypothesis examples of the search.
    random_state : int, default 0
        The seed of the search: the result is reproducible (``seed=`` is its deprecated
        name: a DeprecationWarning).

    Returns
    -------
    CheckResult
        ``"holds"`` or ``"violated"`` for a claimed axiom, ``"refuted"`` or
        ``"unrefuted"`` for a disclaimed one (``"skipped"`` when no generated example
        is in the measure's domain), with the minimal counterexample.

    Raises
    ------
    ValueError, TypeError
        An unknown measure or an invalid declaration (see
        :func:`~propstab.auditing.subject`).

    See Also
    --------
    propstab.audit : Every check on every measure, as a table.
    check_fully_defined : The check of FULLY DEFINED.
    check_bounds : The check of BOUNDS.
    check_maximum : The check of MAXIMUM.
    check_correction_for_chance : The check of CORRECTION FOR CHANCE.

    References
    ----------
    S. Nogueira, *Quantifying the Stability of Feature Selection*, PhD thesis,
    University of Manchester, 2018, ch. 4 and App. B.

    Examples
    --------
    >>> from propstab.auditing import check_monotonicity
    >>> check_monotonicity("nogueira", max_examples=50).status
    'holds'
    """
    seed = random_state
    s = _prepare(measure, options, claimed, MONO, max_examples, seed)
    seed = int(seed)  # validated; a NumPy integer too (Hypothesis takes Python ints)
    kind = _kind(s)

    def probe(s, pair):
        Z1, Z2 = pair
        v1, v2 = assume_defined(s.value(Z1)), assume_defined(s.value(Z2))
        V1, V2 = kind.total_variance(Z1), kind.total_variance(Z2)
        if V1 == V2:
            if not close(v1, v2):
                return Found(
                    (Z1, Z2),
                    (v1, v2),
                    f"equal total variance {V1} but different " f"values {v1:.6g} and {v2:.6g}",
                )
            return None
        (Va, va), (Vb, vb) = sorted([(V1, v1), (V2, v2)])  # Va < Vb
        if not s.sign * (va - vb) > TOLERANCE * max(1.0, abs(va), abs(vb)):
            return Found(
                (Z1, Z2),
                (v1, v2),
                f"total variances {V1} and {V2} but values "
                f"{v1:.6g} and {v2:.6g}: lower variance does "
                f"not give a strictly more stable value",
            )
        return None

    found = search_in_contexts(
        s,
        kind.pairs(s.sizes),
        probe,
        lambda pair: pair[0].shape,
        max_examples=max_examples,
        seed=seed,
        examples=kind.equal_variance_pairs,
        context_examples=CONTEXT_EXAMPLES[MONO],
        replay=True,
    )
    return _verdict(
        s,
        MONO,
        found,
        f"strictly decreasing in the total variance on every "
        f"searched pair ({max_examples} examples)",
    )


def _family_evidence(s: Subject):
    """A refuting family member for BOUNDS: a value outside constant declared bounds,
    or values diverging along a family."""
    families = [
        f
        for f in _kind(s).families + (CONTEXT_FAMILIES if s.contexts else ())
        if f.constant_size or s.domain == "any"
    ]
    for family in families:
        values = family_values(s, family)
        if s.constant_bounds is not None:
            lo, hi = s.constant_bounds
            for n, v in zip(FAMILY_SIZES, values):
                if not math.isnan(v) and not lo - 1e-12 <= v <= hi + 1e-12:
                    return _in_family(
                        Found(
                            family.build(n),
                            (v,),
                            f"value {v:.6g} outside the declared bounds " f"[{lo:g}, {hi:g}]",
                        ),
                        family,
                        n,
                    )
        if diverges(values):
            sizes = ", ".join(f"{v:.4g}" for v in values)
            n = FAMILY_SIZES[1]
            return _in_family(
                Found(
                    family.build(n),
                    values,
                    f"unbounded along the family {family.name} "
                    f"({family.text}): values at n = 2, 4, ..., 128: {sizes}",
                ),
                family,
                n,
            )
    return None


def _in_family(found: Found, family, n: int) -> Found:
    """``found`` with the context of member n of ``family`` (if it has one)."""
    if family.context is not None:
        found.context = family.context(n)
    return found


@renamed(RENAMED_SEED)
def check_bounds(
    measure, *, options=None, claimed=None, max_examples=DEFAULT_MAX_EXAMPLES, random_state=0
) -> CheckResult:
    """BOUNDS: constants lo <= hi with lo <= value <= hi on the measure's domain.

    Constructive families :math:`Z_n` (n = 2, 4, ..., 128) come first: a refutation needs
    values that leave *every* interval, e.g. Wald's 1 - d (thesis App. B.3), which
    one matrix cannot show. Then a targeted Hypothesis search (``hypothesis.target``
    pushes the value to both extremes) for a value outside the declared constant
    bounds.

    Parameters
    ----------
    measure : str, MeasureInfo, Subject or callable
        A registered measure (name or entry), or a user function ``f(Z) -> float``
        (see :func:`~propstab.auditing.subject`).
    options : mapping, optional
        The measure's options (e.g. ``{"penalty": 0.5}``); a registered variant's
        options use the variant's declaration.
    claimed : bool, optional
        Check this direction instead of the declared one.
    max_examples : int, default 200
        Hypothesis examples of the search.
    random_state : int, default 0
        The seed of the search: the result is reproducible (``seed=`` is its deprecated
        name: a DeprecationWarning).

    Returns
    -------
    CheckResult
        ``"holds"`` or ``"violated"`` for a claimed axiom, ``"refuted"`` or
        ``"unrefuted"`` for a disclaimed one (``"skipped"`` when no generated example
        is in the measure's domain), with the minimal counterexample.

    Raises
    ------
    ValueError, TypeError
        An unknown measure or an invalid declaration (see
        :func:`~propstab.auditing.subject`).

    See Also
    --------
    propstab.audit : Every check on every measure, as a table.
    check_fully_defined : The check of FULLY DEFINED.
    check_monotonicity : The check of MONOTONICITY.
    check_maximum : The check of MAXIMUM.
    check_correction_for_chance : The check of CORRECTION FOR CHANCE.

    References
    ----------
    S. Nogueira, *Quantifying the Stability of Feature Selection*, PhD thesis,
    University of Manchester, 2018, ch. 4 and App. B.

    Examples
    --------
    >>> from propstab.auditing import check_bounds
    >>> r = check_bounds("wald", max_examples=20)
    >>> r.status, r.values[:4]
    ('refuted', (-2.0, -4.0, -8.0, -16.0))
    """
    seed = random_state
    s = _prepare(measure, options, claimed, BND, max_examples, seed)
    seed = int(seed)  # validated; a NumPy integer too (Hypothesis takes Python ints)
    if s.claims[BND] and s.constant_bounds is None and (s.lower or s.upper):
        if s.lower is None or s.upper is None:
            missing = "lower" if s.lower is None else "upper"
            return CheckResult(
                s.name,
                BND,
                True,
                "violated",
                reason=f"only one bound is declared ({missing} undeclared); "
                f"the property needs two constant bounds",
            )
        return CheckResult(
            s.name, BND, True, "violated", reason="the declared bounds depend on M, d or the sizes"
        )
    found = _family_evidence(s)
    if found is None and s.constant_bounds is not None:
        lo, hi = s.constant_bounds

        def probe(s, Z):
            v = assume_defined(s.value(Z))
            target(v, "value")
            target(-v, "-value")
            if not lo - 1e-12 <= v <= hi + 1e-12:
                return Found(
                    Z, (v,), f"value {v:.6g} outside the declared bounds " f"[{lo:g}, {hi:g}]"
                )
            return None

        found = search_in_contexts(
            s, _kind(s).matrices(s.sizes), probe, np.shape, max_examples=max_examples, seed=seed
        )
    where = (
        f"within [{s.constant_bounds[0]:g}, {s.constant_bounds[1]:g}]"
        if s.constant_bounds
        else "no family diverges (no constant bounds declared)"
    )
    return _verdict(
        s,
        BND,
        found,
        f"{where} on every searched Z ({max_examples} examples) "
        f"and along the constructive families",
    )


@renamed(RENAMED_SEED)
def check_maximum(
    measure, *, options=None, claimed=None, max_examples=DEFAULT_MAX_EXAMPLES, random_state=0
) -> CheckResult:
    """MAXIMUM: the value equals its declared maximum (the minimum when lower is more
    stable) if and only if all rows of Z are identical.

    Searched over identical rows, near-identical rows (one run differs by one
    feature) and general matrices, with ``hypothesis.target`` pushing non-identical
    matrices towards the maximum.

    Parameters
    ----------
    measure : str, MeasureInfo, Subject or callable
        A registered measure (name or entry), or a user function ``f(Z) -> float``
        (see :func:`~propstab.auditing.subject`).
    options : mapping, optional
        The measure's options (e.g. ``{"penalty": 0.5}``); a registered variant's
        options use the variant's declaration.
    claimed : bool, optional
        Check this direction instead of the declared one.
    max_examples : int, default 200
        Hypothesis examples of the search.
    random_state : int, default 0
        The seed of the search: the result is reproducible (``seed=`` is its deprecated
        name: a DeprecationWarning).

    Returns
    -------
    CheckResult
        ``"holds"`` or ``"violated"`` for a claimed axiom, ``"refuted"`` or
        ``"unrefuted"`` for a disclaimed one (``"skipped"`` when no generated example
        is in the measure's domain), with the minimal counterexample.

    Raises
    ------
    ValueError, TypeError
        An unknown measure or an invalid declaration (see
        :func:`~propstab.auditing.subject`).

    See Also
    --------
    propstab.audit : Every check on every measure, as a table.
    check_fully_defined : The check of FULLY DEFINED.
    check_monotonicity : The check of MONOTONICITY.
    check_bounds : The check of BOUNDS.
    check_correction_for_chance : The check of CORRECTION FOR CHANCE.

    References
    ----------
    S. Nogueira, *Quantifying the Stability of Feature Selection*, PhD thesis,
    University of Manchester, 2018, ch. 4 and App. B.

    Examples
    --------
    >>> from propstab.auditing import check_maximum
    >>> r = check_maximum("wald", max_examples=50)     # nested sets score 1
    >>> r.status, r.counterexample.astype(int).tolist()
    ('refuted', [[1, 1, 0], [1, 0, 0]])

    A correlated measure is checked for every similarity C (drawn with each example):
    different rows reach Hamer and Dupont's maximum when C links the swapped features.

    >>> r = check_maximum("msi", max_examples=20)
    >>> r.counterexample.astype(int).tolist(), str(r.context)
    ([[1, 0, 0], [0, 1, 0]], 'C = [[1, 1, 0], [1, 1, 0], [0, 0, 1]]')
    """
    seed = random_state
    s = _prepare(measure, options, claimed, MAX, max_examples, seed)
    seed = int(seed)  # validated; a NumPy integer too (Hypothesis takes Python ints)
    kind = _kind(s)
    maximum = None
    # the bound on the stable side (the upper one, or the lower one when lower values are
    # more stable) undeclared: the other one alone declares no maximum
    if (s.upper if s.orientation == "higher" else s.lower) is None:
        reference = s.value(kind.reference)
        if math.isnan(reference):
            return CheckResult(
                s.name,
                MAX,
                s.claims[MAX],
                "skipped",
                reason=f"no declared maximum and the value on identical rows "
                f"{matrix_text(kind.reference)} is undefined",
            )
        maximum = lambda Z: reference  # noqa: E731

    def probe(s, Z):
        v = assume_defined(s.value(Z))
        m = s.maximum(Z) if maximum is None else maximum(Z)
        if (Z == Z[0]).all():
            if not close(v, m):
                return Found(
                    Z, (v, m), f"identical rows but value {v:.6g} != declared " f"maximum {m:.6g}"
                )
            return None
        target(s.sign * v, "value")
        if close(v, m) or s.sign * (v - m) > 0:
            return Found(
                Z,
                (v, m),
                f"rows differ but the value {v:.6g} reaches the declared " f"maximum {m:.6g}",
            )
        return None

    strategy = st.one_of(
        kind.identical(s.sizes), kind.near_identical(s.sizes), kind.matrices(s.sizes)
    )
    found = search_in_contexts(
        s,
        strategy,
        probe,
        np.shape,
        max_examples=max_examples,
        seed=seed,
        examples=kind.maximum_examples,
        context_examples=CONTEXT_EXAMPLES[MAX],
    )
    return _verdict(
        s,
        MAX,
        found,
        f"the declared maximum is reached exactly on identical "
        f"rows on every searched Z ({max_examples} examples)",
    )


@renamed(RENAMED_SEED)
def check_correction_for_chance(
    measure, *, options=None, claimed=None, max_examples=DEFAULT_MAX_EXAMPLES, random_state=0
) -> CheckResult:
    """CORRECTION_FOR_CHANCE: :math:`E[\\hat\\Phi \\mid H_0]` is one constant for all M, d, sizes.

    The constant is the same for every M, d and :math:`k_1, \\dots, k_M` (thesis
    Definition 2: run i draws a uniform random subset of size :math:`k_i`; the symbols
    are defined in the :doc:`/notation`).

    Every expectation is exact: for a pairwise measure, the mean over pairs of
    :math:`E[\\phi \\mid k_i, k_j, d]` with the hypergeometric law of the intersection
    (:func:`propstab.chance.expected_pairwise`; the pair score is read off the measure
    on two-run matrices); otherwise the exact mean over all :math:`\\prod_i \\binom{d}{k_i}`
    tuples of
    subsets (configurations small enough to enumerate). The reference constant is the
    declared null value when claimed, else the expectation of the smallest defined
    configuration. A measure on a constant-size domain is checked with constant sizes.

    Parameters
    ----------
    measure : str, MeasureInfo, Subject or callable
        A registered measure (name or entry), or a user function ``f(Z) -> float``
        (see :func:`~propstab.auditing.subject`).
    options : mapping, optional
        The measure's options (e.g. ``{"penalty": 0.5}``); a registered variant's
        options use the variant's declaration.
    claimed : bool, optional
        Check this direction instead of the declared one.
    max_examples : int, default 200
        Hypothesis examples of the search.
    random_state : int, default 0
        The seed of the search: the result is reproducible (``seed=`` is its deprecated
        name: a DeprecationWarning).

    Returns
    -------
    CheckResult
        ``"holds"`` or ``"violated"`` for a claimed axiom, ``"refuted"`` or
        ``"unrefuted"`` for a disclaimed one (``"skipped"`` when no generated example
        is in the measure's domain), with the minimal counterexample.

    Raises
    ------
    ValueError, TypeError
        An unknown measure or an invalid declaration (see
        :func:`~propstab.auditing.subject`).

    See Also
    --------
    propstab.audit : Every check on every measure, as a table.
    check_fully_defined : The check of FULLY DEFINED.
    check_monotonicity : The check of MONOTONICITY.
    check_bounds : The check of BOUNDS.
    check_maximum : The check of MAXIMUM.

    References
    ----------
    S. Nogueira, *Quantifying the Stability of Feature Selection*, PhD thesis,
    University of Manchester, 2018, ch. 4 and App. B.

    Examples
    --------
    Thesis Table 4.1 claims it for Guzman's measure; exact expectations refute it (the
    registry follows the evidence and disclaims it, so the status is "refuted"):

    >>> from propstab.auditing import check_correction_for_chance
    >>> r = check_correction_for_chance("guzman", max_examples=10)
    >>> r.status, r.counterexample
    ('refuted', NullConfiguration(n_runs=2, n_features=3, row_sizes=(1, 1)))
    >>> for e in r.expectations:
    ...     print(e)
    E[value | M=2, d=3, k=[1, 1]] = 0.57938 (exact: enumeration of 3 tuples of subsets,
    one run fixed by symmetry)
    E[value | M=2, d=2, k=[1, 1]] = 0.5 (exact: enumeration of 2 tuples of subsets, one
    run fixed by symmetry)
    """
    seed = random_state
    s = _prepare(measure, options, claimed, CORR, max_examples, seed)
    seed = int(seed)  # validated; a NumPy integer too (Hypothesis takes Python ints)
    kind = _kind(s)
    caches: dict = {}
    memo: dict = {}

    def expectation(config, bound=s):
        # a drawn context (C, importance weights) is part of the key; weights belong to
        # runs, so the order of the sizes then matters too
        sizes = (
            tuple(config.row_sizes)
            if bound.context is not None
            else tuple(sorted(config.row_sizes))
        )
        context = None if bound.context is None else bound.context.key()
        key = (config.n_features, sizes, context)
        if key not in memo:
            memo[key] = kind.null_expectation(bound, config, caches.setdefault(context, {}))
        return memo[key]

    reference = s.null_value if s.claims[CORR] else None
    ref_exp = None
    if reference is None:
        candidates = [
            c for c in kind.reference_configs if s.domain == "any" or len(set(c.row_sizes)) == 1
        ]
        for config in candidates:
            ref_exp = expectation(config)
            if ref_exp is not None:
                reference = ref_exp.value
                break
        if reference is None:
            return CheckResult(
                s.name,
                CORR,
                s.claims[CORR],
                "skipped",
                reason="no exact null expectation is defined on the small "
                "reference configurations",
            )
    seen = []

    def probe(bound, config):
        e = expectation(config, bound)
        assume(e is not None)
        if len(seen) < 6 and all(x != e for x in seen):
            seen.append(e)
        target(abs(e.value - reference), "distance")
        if not close(e.value, reference):
            what = (
                f"the declared null value {reference:g}"
                if ref_exp is None
                else f"{reference:.6g} at M={ref_exp.n_runs}, d={ref_exp.n_features}, "
                f"{sizes_text(ref_exp.row_sizes)}"
            )
            return Found(
                config,
                (e.value, reference),
                f"E[value | H0] = {e.value:.6g} at "
                f"M={config.n_runs}, "
                f"d={config.n_features}, "
                f"{sizes_text(config.row_sizes)} differs "
                f"from {what}",
            )
        return None

    examples = (
        max_examples
        if s.pairwise and kind.name == "selection"
        else max(10, max_examples // (4 if s.pairwise else 8))
    )
    found = search_in_contexts(
        s,
        kind.configurations(s),
        probe,
        lambda c: (c.n_runs, c.n_features),
        max_examples=examples,
        seed=seed,
        context_examples=CONTEXT_EXAMPLES[CORR],
    )
    refs = (ref_exp,) if ref_exp is not None else ()
    if isinstance(found, Found):
        bound = s if found.context is None else s.bind(found.context)
        return _verdict(
            s, CORR, found, "", expectations=(expectation(found.example, bound), *refs)
        )
    constant = f"the declared null value {reference:g}" if ref_exp is None else f"{reference:.6g}"
    return _verdict(
        s,
        CORR,
        found,
        f"E[value | H0] = {constant} exactly on every searched "
        f"configuration ({examples} examples)",
        expectations=(*refs, *seen),
    )


CHECKS: Mapping[Axiom, Callable[..., CheckResult]] = {
    FD: check_fully_defined,
    MONO: check_monotonicity,
    BND: check_bounds,
    MAX: check_maximum,
    CORR: check_correction_for_chance,
}
