"""Shared reference data of the measure declarations.

:data:`TABLE_6_1` is the interpretation scale a measure declares with
``register(scale=TABLE_6_1)``: thesis Table 6.1 (after Fleiss et al. 2004), for
kappa-like values (Fleiss' kappa itself, i.e. Nogueira's estimator, or a measure
corrected for chance with null value 0 and maximum 1, higher more stable).
"""
from __future__ import annotations

import math

__all__ = ["TABLE_6_1"]

#: Thesis Table 6.1: the upper end of each band and its label (< 0.40 poor,
#: 0.40 to 0.75 intermediate to good, > 0.75 excellent).
TABLE_6_1 = ((0.40, "poor"), (0.75, "intermediate to good"), (math.inf, "excellent"))
