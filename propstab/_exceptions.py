"""Warning and error classes raised by propstab."""

__all__ = ["UndefinedMeasureWarning"]


class UndefinedMeasureWarning(RuntimeWarning):
    """A stability measure is undefined on the given selection matrix.

    The measure returns ``nan`` and this warning says why (for example every run
    selected no feature, so a normalising denominator is zero, or the measure is
    defined only for a constant subset size and the row sizes vary).
    """


# ----------------------------------------------------------------------------------
# the R bridge (propstab.r)

__all__ += ["RReferenceError", "RUnavailableError"]


class RUnavailableError(ImportError):
    """R, or an R package that propstab cross-checks against, cannot be loaded.

    The message says what is missing and the exact command that installs it
    (for example ``Rscript -e 'install.packages("stabm")'``). ``package`` is the
    missing R package, or ``None`` when R itself cannot be started.
    """

    def __init__(self, message: str, *, package=None, command=None):
        super().__init__(message)
        self.package = package
        self.command = command


class RReferenceError(RuntimeError):
    """An R reference function raised an error.

    The message carries R's own message and the R call that failed; the same
    pieces are available as ``r_message`` and ``r_call``.
    """

    def __init__(self, message: str, *, r_message: str = "", r_call: str = ""):
        super().__init__(message)
        self.r_message = r_message
        self.r_call = r_call
