"""Stability selection, by its former module name.

The transformer lives in :mod:`propstab.stability_selection` (the module named for what
it is) and its error bounds in :mod:`propstab.error_control`; this module re-exports
them so that ``propstab.selection.StabilitySelection`` and
``propstab.selection.error_control`` keep working. New code imports
``propstab.StabilitySelection`` or ``propstab.stability_selection``.
"""
from .stability_selection._transformer import (
    BoundNotApplicableWarning,
    ErrorControl,
    LargePFERWarning,
    StabilitySelection,
    error_control,
)

__all__ = [
    "BoundNotApplicableWarning",
    "ErrorControl",
    "LargePFERWarning",
    "StabilitySelection",
    "error_control",
]
