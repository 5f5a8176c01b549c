"""Warning and error classes raised by propstab."""

__all__ = ["UndefinedMeasureWarning"]


class UndefinedMeasureWarning(RuntimeWarning):
    """A stability measure is undefined on the given selection matrix.

    The measure returns ``nan`` and this warning says why (for example every run
    selected no feature, so a normalising denominator is zero, or the measure is
    defined only for a constant subset size and the row sizes vary).
    """
