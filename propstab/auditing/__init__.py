"""The axiom audit (the public face of :mod:`propstab.auditing`)."""
from ._audit import __doc__  # noqa: F401  (the face shows the implementation's docs)
from ._audit import audit, audited_subjects, check_one
from ._checks import (
    CHECKS,
    DEFAULT_MAX_EXAMPLES,
    MAX_FEATURES,
    MAX_RUNS,
    check_bounds,
    check_correction_for_chance,
    check_fully_defined,
    check_maximum,
    check_monotonicity,
)
from ._loader import load_function
from ._report import AuditTable, CheckResult
from ._subjects import VARIANTS, subject
from ..registry import Variant

__all__ = [
    "AuditTable",
    "CheckResult",
    "Variant",
    "VARIANTS",
    "audit",
    "audited_subjects",
    "check_bounds",
    "check_correction_for_chance",
    "check_fully_defined",
    "check_maximum",
    "check_monotonicity",
    "load_function",
    "subject",
]
