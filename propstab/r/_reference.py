"""Calling a measure's R reference implementation from its registry entry."""
from __future__ import annotations


import numpy as np

from .._utils.checks import fail
from ..registry._registry import get_measure
from .._data.convert_selection import as_selection
from ..registry._option_checks import check_options
from ._call import RValue, as_rvalue, call_r, call_r_code, formals, robjects
from ._convert import to_r_features, to_r_matrix, to_r_rankings, to_r_similarity

__all__ = ["call_reference", "fleiss_kappa_r", "reference_value"]

#: The inputs of R references the bridge can call (``RReference.input``).
INPUTS = ("stabm", "ratings", "ranks")


def _to_r_option(value):
    """An option value as R takes it: matrices via :func:`to_r_similarity`."""
    from scipy import sparse

    ro = robjects()
    if value is None:
        return ro.NULL
    if sparse.issparse(value) or (hasattr(value, "shape") and len(getattr(value, "shape")) == 2):
        return to_r_similarity(value)
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    return value


def _is_default(value, default) -> bool:
    if value is default:
        return True
    try:
        return bool(value == default)
    except (TypeError, ValueError):  # arrays compared with a scalar default
        return False


def _r_arguments(info, options: dict, ref) -> dict:
    args = {}
    for p in info.parameters:
        value = options[p.name]
        if p.name not in ref.arguments:
            if not _is_default(value, p.default):
                fail(
                    f"{p.name}: {info.name}'s R reference {ref} has no counterpart "
                    f"of this option, so only its default {p.default!r} can be "
                    f"cross-checked; got {value!r}"
                )
            continue
        try:
            value = ref.values.get((p.name, value), value)
        except TypeError:  # unhashable (a matrix): used as is
            pass
        args[ref.arguments[p.name]] = _to_r_option(value)
    return args


def reference_value(
    measure: str, Z, /, *, reference=None, n_features=None, feature_names=None, **options
) -> RValue:
    """The R reference's value of ``measure`` on ``Z``, with R's NA and NaN told apart.

    Same arguments as :func:`call_reference`; returns :class:`RValue`
    ``(value, kind)`` with ``kind`` in ``{"number", "NA", "NaN"}``.

    Parameters
    ----------
    measure : str
        A registered measure with an R reference.
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
        For the ranking family a rank matrix, as for :func:`propstab.as_rankings`.
    reference : str, optional
        Which of the measure's R references (``"package::function"``); default its
        ``r_reference``.
    n_features, feature_names : optional
        As for :func:`propstab.as_selection`.
    **options
        The measure's options, as for :func:`propstab.stability`.

    Returns
    -------
    RValue
        R's value and its kind: ``"number"``, ``"NA"`` or ``"NaN"``.

    Raises
    ------
    ValueError
        Unknown measure, a measure without R reference or without the named
        ``reference``, an option without R counterpart at a non-default value,
        invalid ``Z``.
    TypeError
        A ``reference`` that is not a str, invalid ``Z`` or options.
    RReferenceError
        R raised an error, or did not return one number.
    RUnavailableError, ImportError
        R, the R package or rpy2 is missing.

    See Also
    --------
    propstab.r.call_reference : The value only, as a float.
    propstab.crosscheck : Compares propstab with every R reference.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1 (``kappam.fleiss``).

    Examples
    --------
    >>> from propstab.r import reference_value
    >>> reference_value("wald", [[1, 1], [1, 0]])      # stabm's 0/0 (see nan_not_na)
    RValue(value=nan, kind='NaN')
    >>> Z = [[1, 1, 0], [1, 0, 1]]
    >>> fleiss = reference_value("nogueira", Z, reference="irr::kappam.fleiss")
    >>> round(fleiss.value, 12), fleiss.kind                 # nogueira(Z) = -0.5 (Thm 5)
    (-0.5, 'number')
    """
    info = get_measure(measure)
    if reference is not None and not isinstance(reference, str):
        fail(
            f"reference: must be an R reference's label 'package::function' or "
            f"None; got {type(reference).__name__} {reference!r}",
            TypeError,
        )
    ref = info.r_reference_named(reference)
    if ref.input not in INPUTS:
        fail(
            f"measure: {info.name!r} declares R input {ref.input!r}; the bridge "
            f"calls references taking {' or '.join(map(repr, INPUTS))} input"
        )
    opts = check_options(info, options)
    if ref.input == "ranks":  # base R code on the matrix of midranks
        matrix = to_r_rankings(Z, n_features=n_features, feature_names=feature_names)
        out = call_r_code(ref.r_code, str(ref), matrix, **_r_arguments(info, opts, ref))
        return as_rvalue(out, str(ref))
    sel = as_selection(Z, n_features=n_features, feature_names=feature_names)
    args = {**_r_arguments(info, opts, ref), **ref.fixed}
    if ref.input == "ratings":  # irr: features as subjects, runs as raters
        out = call_r(ref.package, ref.function, to_r_matrix(sel, transpose=True), **args)
        return as_rvalue(out.rx2("value"), str(ref))
    names = formals(ref.package, ref.function)
    if "p" in names and "p" not in args:
        args["p"] = sel.n_features
    out = call_r(ref.package, ref.function, features=to_r_features(sel), **args)
    return as_rvalue(out, str(ref))


def call_reference(
    measure: str, Z, /, *, reference=None, n_features=None, feature_names=None, **options
) -> float:
    """Compute ``measure`` on ``Z`` with its R reference implementation (e.g. stabm).

    The registry entry's ``r_reference`` names the R function and translates the
    options (``correction_for_chance="exact"`` becomes
    ``correction.for.chance = "exact"``, ``similarity=`` becomes ``sim.mat``).
    Options without an R counterpart can be cross-checked at their default only.

    Parameters
    ----------
    measure : str
        A registered measure with an R reference.
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
        (for the ranking family: a rank matrix, any form accepted by
        :func:`propstab.as_rankings`; the reference is base R code on its midranks).
    reference : str, optional
        Which of the measure's R references (``"package::function"``, e.g.
        ``"irr::kappam.fleiss"`` for nogueira's second one); default its
        ``r_reference``.
    n_features, feature_names : optional
    **options
        The measure's options, as for :func:`propstab.stability`.

    Returns
    -------
    float
        R's value; NA and NaN both become ``nan``.

    Raises
    ------
    ValueError
        The measure has no R reference, or an option has no R counterpart.
    RReferenceError
        R raised an error (its message and the failing R call are in the message).
    RUnavailableError, ImportError
        R, the R package or rpy2 is missing.

    See Also
    --------
    propstab.r.reference_value : The same value with R's NA and NaN told apart.
    propstab.stability : The measure's value computed by propstab.
    propstab.crosscheck : Compares the two on generated and published cases.

    References
    ----------
    Bommert, A., Lang, M. (2021). stabm: Stability Measures for Feature Selection.
    JOSS 6(59), 3010. doi:10.21105/joss.03010.
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1 (``kappam.fleiss``).

    Examples
    --------
    >>> from propstab.r import call_reference
    >>> call_reference("jaccard", [[1, 1, 0], [1, 0, 1]])
    0.3333333333333333
    >>> round(call_reference("davis", [[1, 1, 0, 0], [1, 0, 0, 0]], penalty=1.0), 12)
    0.375
    >>> round(call_reference("spearman", [[1, 2, 3, 4], [2, 1, 3, 4], [1, 2, 4, 3]]), 12)
    0.733333333333
    """
    return reference_value(
        measure,
        Z,
        reference=reference,
        n_features=n_features,
        feature_names=feature_names,
        **options,
    ).value


def fleiss_kappa_r(Z, /, *, n_features=None, feature_names=None) -> RValue:
    """``irr::kappam.fleiss`` of the ratings of Z: features are the subjects (rows),
    runs the raters (columns), categories selected / not selected.

    Fleiss' kappa of these ratings equals Nogueira's estimator (thesis Thm 5): this is
    nogueira's second, independent R reference.

    Parameters
    ----------
    Z : selection matrix in any form accepted by :func:`propstab.as_selection`
        The M x d selection matrix.
    n_features, feature_names : optional
        As for :func:`propstab.as_selection`.

    Returns
    -------
    RValue
        The ``$value`` of irr's result and its kind (``"number"``, ``"NA"`` or ``"NaN"``).

    Raises
    ------
    ValueError, TypeError
        Invalid ``Z`` (the rules of :func:`propstab.as_selection`).
    RReferenceError
        irr raised an error (it fails for a single feature, d = 1).
    RUnavailableError, ImportError
        R, irr or rpy2 is missing.

    See Also
    --------
    propstab.measures.nogueira : The estimator kappa equals.
    propstab.r.reference_value : Any measure's R reference, by name.

    References
    ----------
    Gamer, M. et al. (2019). irr: Various coefficients of interrater reliability and
    agreement. R package 0.84.1 (``kappam.fleiss``).
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    Psychological Bulletin 76(5), 378-382.
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, Thm 5 and App. A.5.

    Examples
    --------
    >>> from propstab.r import fleiss_kappa_r
    >>> fleiss_kappa_r([[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]).value   # doctest: +ELLIPSIS
    0.333333...
    """
    return reference_value(
        "nogueira",
        Z,
        reference="irr::kappam.fleiss",
        n_features=n_features,
        feature_names=feature_names,
    )
