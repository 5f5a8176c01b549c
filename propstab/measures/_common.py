"""Helpers shared by the measure families: undefined values and domain checks."""
from __future__ import annotations

import warnings

import numpy as np

from .._exceptions import UndefinedMeasureWarning


def undefined(measure: str, reason: str) -> float:
    """Warn with :class:`UndefinedMeasureWarning` and return NaN."""
    warnings.warn(f"{measure} is undefined here: {reason}; returning nan",
                  UndefinedMeasureWarning, stacklevel=4)
    return float("nan")


def constant_size(sel, measure: str):
    """The common subset size k, or None after warning when the sizes vary."""
    k = sel.row_sizes
    if np.any(k != k[0]):
        undefined(measure, f"it is defined only for a constant subset size and the row "
                           f"sizes vary (min {int(k.min())}, max {int(k.max())})")
        return None
    return int(k[0])


def pair_mean(measure: str, num: np.ndarray, den: np.ndarray, reason: str) -> float:
    """Mean of ``num/den`` over ordered pairs i != j (M x M arrays).

    Undefined (NaN with a warning naming ``reason``) when a denominator of an
    off-diagonal pair is zero.
    """
    M = num.shape[0]
    off = ~np.eye(M, dtype=bool)
    bad = (den == 0) & off
    if bad.any():
        n_bad = int(bad.sum()) // (2 if np.array_equal(bad, bad.T) else 1)
        return undefined(measure, f"{reason} ({n_bad} pair(s) of runs)")
    with np.errstate(divide="ignore", invalid="ignore"):
        vals = num / den
    return float(vals[off].mean())
