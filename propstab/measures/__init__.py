"""Stability measures, one module per family.

Every function takes the selection matrix ``Z`` positionally (any form accepted by
:func:`propstab.as_selection`; for the ranking family the rank matrix ``R``, any form
accepted by :func:`propstab.as_rankings`) and options by keyword, and returns a float.

The names exported here are the registry's (:func:`propstab.list_measures`), in
registration order: a measure registered in its family module is exported with no
change to this file.
"""
# the family modules register their measures on import, in this order (the registry's)
from . import pairwise, frequency, correlated, ranking  # noqa: F401,I001
from ..registry import list_measures

from .extremes import cw_max, cw_min  # noqa: E402  (CW_rel's extremes, Somol eqs. 11, 14)

__all__ = [info.name for info in list_measures()] + ["cw_min", "cw_max"]
globals().update({info.name: info.function for info in list_measures()})
