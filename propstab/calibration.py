"""The data-driven calibrations of stability selection (the public face; the
implementation lives in :mod:`propstab.stability_selection`)."""
from .stability_selection._calibration import __doc__  # noqa: F401
from .stability_selection._calibration import (
    SHARP_PI_GRID,
    STABL_THRESHOLDS,
    Calibration,
    fdp_plus,
    stability_score,
)

__all__ = ["Calibration", "SHARP_PI_GRID", "STABL_THRESHOLDS", "fdp_plus", "stability_score"]
