"""Shared pieces of the measure declarations: reference strings and the scale.

The claims of a declaration are written with :func:`propstab.registry.claims`, by keyword.

- :data:`THESIS`, :data:`SOMOL`, :data:`BOMMERT`, :data:`YU`, :data:`ZUCKNICK` (and the
  correlated family's :data:`SECHIDIS`, :data:`HAMER`, :data:`ZHANG`): the sources cited by
  several measures;
- :data:`TABLE_6_1`: the interpretation scale a measure declares with
  ``register(scale=TABLE_6_1)``: thesis Table 6.1 (after Fleiss et al. 2004), for
  kappa-like values (Fleiss' kappa itself, i.e. Nogueira's estimator, or a measure
  corrected for chance with null value 0 and maximum 1, higher more stable).
"""
from __future__ import annotations

import math

__all__ = [
    "BOMMERT",
    "HAMER",
    "SECHIDIS",
    "SOMOL",
    "TABLE_6_1",
    "THESIS",
    "YU",
    "ZHANG",
    "ZUCKNICK",
]

THESIS = (
    "Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis, "
    "University of Manchester"
)
SOMOL = (
    "Somol, P., Novovicova, J. (2010). Evaluating stability and comparing output of feature "
    "selectors that optimize feature subset cardinality. IEEE TPAMI 32(11), 1921-1939"
)
BOMMERT = (
    "Bommert, A. (2020). Integration of feature selection stability in model fitting. "
    "PhD thesis, TU Dortmund. doi:10.17877/DE290R-21906 (R package stabm)"
)

SECHIDIS = (
    "Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On "
    "the stability of feature selection in the presence of feature correlations. "
    "ECML PKDD, LNCS 11906, 327-342"
)
HAMER = (
    "Hamer, V., Dupont, P. (2021). Robust selection stability estimation in correlated "
    "spaces. ECML PKDD, LNCS 12977, 446-461"
)
YU = (
    "Yu, L., Ding, C., Loscalzo, S. (2008). Stable feature selection via dense feature "
    "groups. KDD, 803-811"
)
ZHANG = (
    "Zhang, M. et al. (2009). Evaluating reproducibility of differential expression "
    "discoveries in microarray studies by considering correlated molecular changes. "
    "Bioinformatics 25(13), 1662-1668"
)
ZUCKNICK = (
    "Zucknick, M., Richardson, S., Stronach, E. A. (2008). Comparing the "
    "characteristics of gene expression profiles derived by univariate and multivariate "
    "classification methods. Stat. Appl. Genet. Mol. Biol. 7(1)"
)

#: Thesis Table 6.1: the upper end of each band and its label (< 0.40 poor,
#: 0.40 to 0.75 intermediate to good, > 0.75 excellent).
TABLE_6_1 = ((0.40, "poor"), (0.75, "intermediate to good"), (math.inf, "excellent"))
