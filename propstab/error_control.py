"""The error bounds of stability selection (the public face; the implementation lives in
:mod:`propstab.stability_selection`)."""
from .stability_selection._error_control import __doc__  # noqa: F401
from .stability_selection._error_control import (  # noqa: F401
    ErrorControl,
    LargePFERWarning,
    PFERBoundWarning,
    PFERExceededWarning,
    default_n_subsamples,
    error_control,
    resolve_assumption,
)

__all__ = [
    "ErrorControl",
    "LargePFERWarning",
    "PFERBoundWarning",
    "PFERExceededWarning",
    "error_control",
]
