"""The R bridge: propstab against the R reference implementations (optional extra ``r``).

rpy2 and R are loaded on first use. The pieces:

- conversion both ways: :func:`to_r_features` (stabm's list of 1-based index
  vectors), :func:`to_r_matrix`, :func:`to_r_similarity` (dense R matrix or
  ``Matrix::sparseMatrix``), :func:`to_r_rankings` (a matrix of midranks, for the
  ranking family's base R references) and :func:`from_r_selection`;
- calling R: :func:`call_r` (any R function, errors as
  :class:`~propstab.r.RReferenceError`), :func:`call_reference` (a measure's R
  reference from its registry entry), :func:`fleiss_kappa_r` (``irr``);
- the cross-check harness :func:`crosscheck` returning a :class:`CrosscheckReport`
  (on generated cases and the papers' worked examples, or on the user's selections,
  ``inputs=``), at R's defaults (:func:`r_default_options`), and the documented stabm
  defects :data:`EXPECTED_DIFFERENCES`.
"""
import importlib

from .._utils.exceptions import RReferenceError, RUnavailableError, RWarning

#: Each public name -> its submodule, imported on first access (PEP 562): the R package's
#: front end (``propstab.r._frontend``, imported by R through reticulate) then loads
#: neither rpy2's bridge nor the cross-check's case generators (hypothesis), which the
#: first call of every R session would otherwise pay for.
_LAZY = {
    "RValue": "_call",
    "call_r": "_call",
    "call_r_code": "_call",
    "r_package": "_call",
    "r_versions": "_call",
    "require_package": "_call",
    "robjects": "_call",
    "from_r_selection": "_convert",
    "to_r_features": "_convert",
    "to_r_matrix": "_convert",
    "to_r_rankings": "_convert",
    "to_r_similarity": "_convert",
    "call_reference": "_reference",
    "fleiss_kappa_r": "_reference",
    "reference_value": "_reference",
    "EXPECTED_DIFFERENCES": "_defects",
    "ExpectedDifference": "_defects",
    "Case": "_crosscheck",
    "CrosscheckReport": "_crosscheck",
    "CrosscheckRow": "_crosscheck",
    "crosscheck": "_crosscheck",
    "r_default_options": "_crosscheck",
}

__all__ = [
    "Case",
    "CrosscheckReport",
    "CrosscheckRow",
    "EXPECTED_DIFFERENCES",
    "ExpectedDifference",
    "RReferenceError",
    "RUnavailableError",
    "RValue",
    "RWarning",
    "call_r",
    "call_r_code",
    "call_reference",
    "crosscheck",
    "fleiss_kappa_r",
    "from_r_selection",
    "r_package",
    "r_versions",
    "r_default_options",
    "reference_value",
    "require_package",
    "robjects",
    "to_r_features",
    "to_r_matrix",
    "to_r_rankings",
    "to_r_similarity",
]


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
