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
from .._utils.exceptions import RReferenceError, RUnavailableError
from ._call import RValue, call_r, call_r_code, r_package, r_versions, require_package, robjects
from ._convert import from_r_selection, to_r_features, to_r_matrix, to_r_rankings, to_r_similarity
from ._reference import call_reference, fleiss_kappa_r, reference_value
from ._defects import EXPECTED_DIFFERENCES, ExpectedDifference
from ._crosscheck import Case, CrosscheckReport, CrosscheckRow, crosscheck, r_default_options

__all__ = [
    "Case",
    "CrosscheckReport",
    "CrosscheckRow",
    "EXPECTED_DIFFERENCES",
    "ExpectedDifference",
    "RReferenceError",
    "RUnavailableError",
    "RValue",
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
