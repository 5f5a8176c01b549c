"""Shared pieces of the measure declarations: reference strings and the scale.

The claims of a declaration are written with :func:`propstab.registry.claims`, by keyword.

- :data:`THESIS`, :data:`SOMOL`, :data:`BOMMERT`: the sources cited by several families;
- :data:`TABLE_6_1`: the interpretation scale a measure declares with
  ``register(scale=TABLE_6_1)``: thesis Table 6.1 (after Fleiss et al. 2004), for
  kappa-like values (Fleiss' kappa itself, i.e. Nogueira's estimator, or a measure
  corrected for chance with null value 0 and maximum 1, higher more stable).
"""
from __future__ import annotations

import math

__all__ = ["BOMMERT", "SOMOL", "TABLE_6_1", "THESIS"]

THESIS = ("Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis, "
          "University of Manchester")
SOMOL = ("Somol, P., Novovicova, J. (2010). Evaluating stability and comparing output of feature "
         "selectors that optimize feature subset cardinality. IEEE TPAMI 32(11), 1921-1939")
BOMMERT = ("Bommert, A. (2020). Integration of feature selection stability in model fitting. "
           "PhD thesis, TU Dortmund. doi:10.17877/DE290R-21906 (R package stabm)")

#: Thesis Table 6.1: the upper end of each band and its label (< 0.40 poor,
#: 0.40 to 0.75 intermediate to good, > 0.75 excellent).
TABLE_6_1 = ((0.40, "poor"), (0.75, "intermediate to good"), (math.inf, "excellent"))
