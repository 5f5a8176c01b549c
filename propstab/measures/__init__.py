"""Stability measures, one module per family.

Every function takes the selection matrix ``Z`` positionally (any form accepted by
:func:`propstab.as_selection`; for the ranking family the rank matrix ``R``, any form
accepted by :func:`propstab.as_rankings`) and options by keyword, and returns a float.
"""
from .pairwise import (dice, hamming, jaccard, kappa, kuncheva, lustgarten, npog, ochiai,
                       phi, pog, unadjusted, wald)
from .frequency import (conger, consistency, cw_max, cw_min, cwrel, davis, goh, guzman, krizek,
                        lausser, nogueira, novovicova, weighted_consistency)
from .correlated import (intersection_count, intersection_greedy, intersection_mbm,
                         intersection_mean, msi, npogr, pearson, pogr, sechidis, sechidis_exact, yu,
                         yu_matching, zucknick)
from .ranking import canberra, kendall, spearman, top_k

__all__ = [
    "hamming", "jaccard", "dice", "ochiai", "pog", "kuncheva", "lustgarten", "wald", "npog",
    "kappa", "phi", "unadjusted",
    "goh", "davis", "krizek", "guzman", "cwrel", "lausser", "nogueira", "conger", "consistency",
    "weighted_consistency", "novovicova", "cw_min", "cw_max",
    "sechidis", "sechidis_exact", "msi", "yu_matching", "yu", "zucknick", "intersection_count",
    "intersection_greedy", "intersection_mbm", "intersection_mean", "pogr", "npogr", "pearson",
    "spearman", "kendall", "canberra", "top_k",
]
