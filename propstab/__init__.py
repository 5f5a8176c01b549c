"""propstab: the stability of feature selection, measured, audited and inferred.

A feature selector run on M resamples yields M feature sets, a binary selection
matrix Z (M runs x d features). A stability measure maps Z to a number.

>>> import propstab
>>> Z = [[1, 1, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]]
>>> round(propstab.stability(Z), 6)                      # Nogueira's estimator
0.333333
>>> round(propstab.stability(Z, measure="jaccard"), 6)   # (1 + 1/3 + 1/3) / 3
0.555556
"""
from ._utils.exceptions import InvalidParameterError, PropstabWarning, UndefinedMeasureWarning
from .registry._registry import (
    Bound,
    MeasureInfo,
    Parameter,
    RDefault,
    RReference,
    get_measure,
    list_measures,
)
from ._data.selection import Selection
from ._data.rankings import Rankings
from ._data.convert_rankings import as_rankings
from ._data.convert_selection import as_selection
from .axioms import Axiom
from . import measures
from .measures._stability import stability
from ._version import __version__

__all__ = [
    "Axiom",
    "Bound",
    "InvalidParameterError",
    "MeasureInfo",
    "Parameter",
    "RDefault",
    "RReference",
    "Rankings",
    "Selection",
    "PropstabWarning",
    "UndefinedMeasureWarning",
    "as_rankings",
    "as_selection",
    "get_measure",
    "list_measures",
    "measures",
    "stability",
]


# Names provided by the optional parts of the library, imported on first use so that
# ``import propstab`` stays light (Hypothesis, rpy2, scikit-learn load only when needed).
_LAZY = {
    # inference
    "estimate": "propstab.inference",
    "StabilityEstimate": "propstab.inference",
    "one_sample_test": "propstab.inference",
    "two_sample_test": "propstab.inference",
    "pairwise_tests": "propstab.inference",
    "population_stability": "propstab.inference",
    # axiom audit
    "audit": "propstab.auditing",
    "AuditTable": "propstab.auditing",
    # R bridge
    "crosscheck": "propstab.r",
    # correlated feature spaces
    "similarity_from_data": "propstab.similarity",
    "similarity_from_groups": "propstab.similarity",
    # from data to stability
    "resample": "propstab.resampling",
    "assess": "propstab.resampling",
    "RankingAssessment": "propstab.resampling",
    "StabilitySelection": "propstab.stability_selection",
    # tuning for stability
    "StabilityGridSearch": "propstab.tuning",
    # sampled pairs
    "SampledPairsEstimate": "propstab.inference",
    "SampledPairsWarning": "propstab._utils.exceptions",
    "CheckpointWarning": "propstab._utils.exceptions",
    # calibrated stability selection
    "stability_score": "propstab.calibration",
}


__all__ += sorted(_LAZY)

# The public submodules, each an attribute of ``propstab`` from ``import propstab`` on
# (``propstab.inference.runs_needed``, ``propstab.resampling.FailedFitWarning`` in a
# ``warnings.filterwarnings`` at the top of a script), imported on first access.
_SUBMODULES = (
    "auditing",
    "axioms",
    "calibration",
    "chance",
    "cli",
    "commands",
    "error_control",
    "inference",
    "measures",
    "plots",
    "r",
    "registry",
    "resampling",
    "search",
    "selection",
    "selectors",
    "similarity",
    "stability_selection",
    "strategies",
    "testing",
    "pytest_plugin",
    "tuning",
    "settings",
)


def __dir__():
    """Every public name, the lazily loaded ones included (tab completion, ``dir``)."""
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES))


def __getattr__(name):
    if name in _LAZY or name in _SUBMODULES:
        import importlib

        if name in _SUBMODULES:
            return importlib.import_module(f"{__name__}.{name}")
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'propstab' has no attribute {name!r}")
