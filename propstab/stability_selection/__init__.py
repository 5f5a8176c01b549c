"""Stability selection (the public face of :mod:`propstab.stability_selection`): the
scikit-learn transformer, its error control, its calibrations and their plots."""
from ._transformer import __doc__  # noqa: F401  (the face shows the implementation's docs)
from ._error_control import (
    BoundNotApplicableWarning,
    ErrorControl,
    LargePFERWarning,
    error_control,
)
from ._transformer import StabilitySelection

__all__ = [
    "BoundNotApplicableWarning",
    "ErrorControl",
    "LargePFERWarning",
    "StabilitySelection",
    "error_control",
]
