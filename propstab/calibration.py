"""The data-driven calibrations of stability selection (the public face; the
implementation lives in :mod:`propstab.stability_selection`)."""
from .stability_selection._calibration import __doc__  # noqa: F401
from .stability_selection._calibration import SHARP_PI_GRID as _SHARP_PI_GRID
from .stability_selection._calibration import STABL_THRESHOLDS as _STABL_THRESHOLDS
from .stability_selection._calibration import Calibration, fdp_plus, stability_score

__all__ = ["Calibration", "SHARP_PI_GRID", "STABL_THRESHOLDS", "fdp_plus", "stability_score"]

#: sharp's default grid of pi for the stability score, ``seq(0.6, 0.9, by = 0.01)``,
#: computed as R computes it (``0.6 + (0:30) * 0.01``), so that ``round(K * pi)``
#: gives the same counts.
SHARP_PI_GRID = _SHARP_PI_GRID
#: Stabl's default grid of thresholds, ``np.arange(0., 1., .01)``.
STABL_THRESHOLDS = _STABL_THRESHOLDS
