"""Known differences of the R reference that concern measures of several families.

A difference that concerns one family's measures is defined in that family's module,
beside the measures; the ones here span families. Each is attached to the
:class:`~propstab.registry.RReference` of every measure it concerns
(``RReference(..., differences=(...))``), which is where the R cross-check reads it.
"""
from __future__ import annotations

from ..registry import ExpectedDifference

__all__ = ["NAN_NOT_NA"]


#: Shared by wald and cwrel; each attaches it with its own predicate
#: (``NAN_NOT_NA.applying(...)``) beside its declaration.
NAN_NOT_NA = ExpectedDifference(
    key="nan_not_na",
    r_functions=("stabm::stabilityWald", "stabm::stabilitySomol"),
    summary="stabm returns NaN (not NA) where the measure is undefined",
    reason="stabm marks undefined values with NA, but Wald's similarity of a run selecting "
    "all p features with a non-empty run is computed as 0/0 = NaN, and Somol's "
    "measure where CW_max = CW_min as (CW - CW_min)/0 = NaN. propstab returns NaN "
    "with an UndefinedMeasureWarning for Wald (the value is 0/0), and CW for "
    "CW_rel (see somol_equal_extremes). The cross-check counts NA and NaN alike; "
    "this entry records that R's value is NaN.",
    example="stabilityWald(list(1:2, 1), p = 2); stabilitySomol(list(1, 1:2), p = 2)",
    r_result="NaN (is.nan TRUE) for both",
    propstab_result="nan with UndefinedMeasureWarning (wald); 2/3 (cwrel)",
    applies=None,
)
