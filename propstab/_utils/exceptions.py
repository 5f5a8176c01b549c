"""Warning and error classes raised by propstab, and :func:`warn`, the one way it warns."""
import os
import sys
import warnings

__all__ = [
    "CheckpointWarning",
    "PropstabWarning",
    "InvalidParameterError",
    "SampledPairsWarning",
    "UndefinedMeasureWarning",
    "undefined",
    "warn",
]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # propstab/


def warn(message: str, category: type) -> None:
    """Issue a warning attributed to the user's line, not to propstab's internals.

    The stack level is counted at run time: the warning points at the first frame
    outside the propstab package, however deep inside propstab it was raised (a
    measure called by the registry's wrapper, by :func:`propstab.estimate`, by
    :func:`propstab.assess`...). A fixed ``stacklevel`` would be right for one call
    path only.

    >>> import warnings
    >>> from propstab._utils.exceptions import UndefinedMeasureWarning, warn
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn("example", UndefinedMeasureWarning)
    >>> caught[0].filename.endswith(".py")       # this doctest, not _exceptions.py
    False
    """
    frame = sys._getframe(1)
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)


class PropstabWarning(Warning):
    """Base class of every warning propstab issues.

    Each propstab warning also derives from :class:`UserWarning` (a choice the user
    should revisit) or :class:`RuntimeWarning` (a value that could not be computed as
    asked), so the standard filters keep working; this class selects them all at
    once, for example to turn them into errors in a test suite::

        warnings.simplefilter("error", propstab.PropstabWarning)

    or, in pytest's configuration, ``filterwarnings = ["error::propstab.PropstabWarning"]``.

    See Also
    --------
    propstab.UndefinedMeasureWarning : A measure undefined on the given runs (NaN).
    propstab.inference.SmallSampleWarning : An interval's method measured below its level.

    References
    ----------
    Python Software Foundation. The Python Standard Library: ``warnings`` (warning
    categories and filters). https://docs.python.org/3/library/warnings.html

    Examples
    --------
    >>> from propstab import PropstabWarning, UndefinedMeasureWarning
    >>> from propstab.inference import SmallSampleWarning
    >>> issubclass(SmallSampleWarning, PropstabWarning)
    True
    >>> issubclass(UndefinedMeasureWarning, (PropstabWarning, RuntimeWarning))
    True
    """


class SampledPairsWarning(PropstabWarning, UserWarning):
    """A pairwise measure was computed from a random sample of pairs of runs.

    With ``pairs="auto"`` (the default of :func:`propstab.stability` and
    :func:`propstab.estimate`) a pairwise measure on more than 5 x 10^8 pairs of runs
    (M > 31,623) is the mean over 10^5 pairs drawn with replacement (an incomplete
    U-statistic, seeded by ``random_state``); ``pairs="all"`` asks for the exact value.

    See Also
    --------
    propstab.estimate : Its result then gives the standard error of the sampling.

    References
    ----------
    Blom, G. (1976). Some properties of incomplete U-statistics. Biometrika 63(3),
    573-580.

    Examples
    --------
    >>> from propstab import SampledPairsWarning
    >>> issubclass(SampledPairsWarning, UserWarning)
    True
    """


class UndefinedMeasureWarning(PropstabWarning, RuntimeWarning):
    """A stability measure is undefined on the given selection matrix.

    The measure returns ``nan`` and this warning says why (for example every run
    selected no feature, so a normalising denominator is zero, or the measure is
    defined only for a constant subset size and the row sizes vary).

    See Also
    --------
    propstab.stability : Computes a measure; NaN with this warning where undefined.
    propstab.auditing.check_fully_defined : Searches for inputs where a measure is undefined.

    References
    ----------
    Nogueira, S. (2018). Quantifying the Stability of Feature Selection. PhD thesis,
    University of Manchester, sec. 4.2.1 (Fully Defined: which measures are undefined
    where).

    Examples
    --------
    >>> import warnings
    >>> import propstab
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = propstab.stability([[0, 0, 0], [0, 0, 0]], measure="nogueira")
    >>> value, caught[0].category.__name__
    (nan, 'UndefinedMeasureWarning')
    """


class InvalidParameterError(ValueError, TypeError):
    """An argument breaks its rule: the one error class of invalid arguments.

    Every check of an argument (the input converters, the declared rules of each
    entry point) raises it, with a message that starts
    with the argument's name (``"q: must be > 0; got -1"``) and names the rule and
    the value received. As scikit-learn's ``InvalidParameterError``, it is both a
    ``ValueError`` and a ``TypeError``, so ``except ValueError`` and ``except
    TypeError`` both catch it whatever the rule broken; :attr:`kind` keeps which of
    the two the rule is (a value out of range, or a value of the wrong type), and is
    the class the R package reports (``propstab_ValueError``, ``propstab_TypeError``).

    Parameters
    ----------
    message : str
        The whole message, starting with ``"<argument>: "``.
    argument : str, optional
        The name of the user's argument at fault (``"Z"``, ``"n_features"``,
        ``"matrices['a']"``).
    function : str, optional
        The public function whose declared rule was broken, when known.
    kind : {ValueError, TypeError}, default ValueError
        The builtin class of the rule: TypeError for a value of the wrong type.

    Attributes
    ----------
    argument, function, kind
        As given.

    See Also
    --------
    propstab.stability : Raises it for an invalid ``Z`` or an unknown option.

    References
    ----------
    scikit-learn, ``sklearn.utils._param_validation.InvalidParameterError`` (the
    class that is both a ValueError and a TypeError).

    Examples
    --------
    >>> import propstab
    >>> try:
    ...     propstab.stability([[1, 0], [0, 2]])
    ... except propstab.InvalidParameterError as error:
    ...     print(error.argument, error.kind.__name__, isinstance(error, ValueError))
    Z ValueError True
    """

    def __init__(self, message: str, *, argument=None, function=None, kind=ValueError):
        super().__init__(message)
        self.argument = argument
        self.function = function
        self.kind = kind

    def renamed(self, names) -> "InvalidParameterError":
        """The same error with its argument called by another name: ``names`` maps the
        Python name to the caller's (the R package's ``sim.mat`` for ``similarity``); an
        argument ``"Z1, Z2"`` is renamed part by part. The message is the argument and
        the rule, so only the argument changes.

        >>> error = InvalidParameterError("Z1, Z2: not comparable", argument="Z1, Z2")
        >>> str(error.renamed({"Z1": "y", "Z2": "x"}))
        'y, x: not comparable'
        """
        parts = (self.argument or "").split(", ")
        message = str(self)
        if (
            not self.argument
            or not message.startswith(f"{self.argument}: ")
            or not all(p in names for p in parts)
        ):
            return self
        argument = ", ".join(names[p] for p in parts)
        return InvalidParameterError(
            argument + message[len(self.argument) :],
            argument=argument,
            function=self.function,
            kind=self.kind,
        )

    def __reduce__(self):  # pickled with its attributes (joblib workers)
        return (_invalid_parameter, (str(self), self.argument, self.function, self.kind))


InvalidParameterError.__module__ = "propstab"  # its documented home


def _invalid_parameter(message, argument, function, kind):
    return InvalidParameterError(message, argument=argument, function=function, kind=kind)


# ----------------------------------------------------------------------------------
# the R bridge (propstab.r)

__all__ += ["RReferenceError", "RUnavailableError"]


class RUnavailableError(ImportError):
    """R, or an R package that propstab cross-checks against, cannot be loaded.

    The message says what is missing and the exact command that installs it
    (for example ``Rscript -e 'install.packages("stabm")'``). ``package`` is the
    missing R package, or ``None`` when R itself cannot be started.

    Parameters
    ----------
    message : str
        What is missing and how to install it.
    package : str, optional
        The missing R package; None when R itself cannot be started.
    command : str, optional
        The shell command that installs what is missing.

    See Also
    --------
    propstab.r.require_package : Raises it when an R package is not installed.
    propstab.r.RReferenceError : An error raised by the R function itself.

    References
    ----------
    rpy2 documentation, "Calling R functions" and "Packages"
    (https://rpy2.github.io/doc/latest/html/).

    Examples
    --------
    >>> from propstab.r import RUnavailableError, require_package
    >>> try:
    ...     require_package("notAnInstalledPackage")
    ... except RUnavailableError as error:
    ...     print(isinstance(error, ImportError), error.package)
    True notAnInstalledPackage
    """

    def __init__(self, message: str, *, package=None, command=None):
        super().__init__(message)
        self.package = package
        self.command = command


class RReferenceError(RuntimeError):
    """An R reference function raised an error.

    The message carries R's own message and the R call that failed; the same
    pieces are available as ``r_message`` and ``r_call``.

    Parameters
    ----------
    message : str
        The whole message: R's message and the call that failed.
    r_message : str, optional
        R's own error message (``conditionMessage``).
    r_call : str, optional
        The R call that failed (``conditionCall``, deparsed).

    See Also
    --------
    propstab.r.call_r : Calls an R function; raises this when R raises an error.
    propstab.r.RUnavailableError : R or an R package cannot be loaded.

    References
    ----------
    rpy2 documentation, "Calling R functions" and "Packages"
    (https://rpy2.github.io/doc/latest/html/).

    Examples
    --------
    >>> from propstab.r import RReferenceError, call_r
    >>> try:
    ...     call_r("base", "log", "a")
    ... except RReferenceError as error:
    ...     print(error.r_message)
    non-numeric argument to mathematical function
    """

    def __init__(self, message: str, *, r_message: str = "", r_call: str = ""):
        super().__init__(message)
        self.r_message = r_message
        self.r_call = r_call


def undefined(measure: str, reason: str) -> float:
    """Warn with :class:`UndefinedMeasureWarning` and return NaN: the one way a measure
    (or an estimate) says that it is undefined on valid input.

    The warning points at the user's line (see :func:`warn`).

    >>> import warnings
    >>> from propstab._utils.exceptions import undefined
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = undefined("kuncheva", "the row sizes vary")
    >>> value, str(caught[0].message)
    (nan, 'kuncheva is undefined here: the row sizes vary; returning nan')
    """
    warn(f"{measure} is undefined here: {reason}; returning nan", UndefinedMeasureWarning)
    return float("nan")


class CheckpointWarning(PropstabWarning, UserWarning):
    """A task file of a ``checkpoint=`` directory could not be used and its task was run
    again (the file is then rewritten).

    A task file is used only when it is a propstab checkpoint file of the format this
    version writes, of this call (its fingerprint: the data, the selector, the scheme,
    the seeds) and of this task (its resample and seed). An unreadable, truncated,
    foreign or mismatched file is never an error and never executed: the warning names
    ``checkpoint`` and the file, and the task is run as if the file were absent.

    See Also
    --------
    propstab.resample : Its ``checkpoint=`` (also of ``assess``, ``StabilitySelection``
        and ``StabilityGridSearch``).

    References
    ----------
    numpy's ``.npz`` format read with ``numpy.load(allow_pickle=False)``: no object is
    unpickled, so loading a task file runs no code.

    Examples
    --------
    >>> from propstab import CheckpointWarning
    >>> issubclass(CheckpointWarning, UserWarning)
    True
    """


class RWarning(PropstabWarning, RuntimeWarning):
    """A warning R raised during a call from propstab, re-emitted in Python.

    The message starts with the R function called (``package::function``) and then
    R's own words, so that ``warnings.filterwarnings("ignore", category=RWarning)``
    silences R's warnings and nothing else.

    See Also
    --------
    propstab.r.call_r : Calls an R function; each of its R warnings is one of these.

    References
    ----------
    R Core Team. R: A Language and Environment for Statistical Computing. R Foundation
    for Statistical Computing, Vienna (``?warning``, ``?conditions``).

    Examples
    --------
    >>> from propstab import PropstabWarning
    >>> from propstab.r import RWarning
    >>> issubclass(RWarning, PropstabWarning) and issubclass(RWarning, RuntimeWarning)
    True
    """


class ConstantFeatureWarning(PropstabWarning, RuntimeWarning):
    """A feature (column of the data) is constant, so its correlation with any other
    feature is undefined (0/0).

    :func:`propstab.similarity_from_data` gives such a feature similarity 0 to every
    other feature and 1 to itself; the warning names how many there are and one of
    them. Drop the column, or accept that it is treated as unrelated to the rest.

    See Also
    --------
    propstab.similarity_from_data : Similarities from the data's correlations.

    References
    ----------
    Sechidis, K., Papangelou, K., Nogueira, S., Weatherall, J., Brown, G. (2019). On the
    stability of feature selection in the presence of feature correlations. ECML PKDD,
    LNCS 11906, 327-342, sec. 3.1 (the absolute correlations as similarities).

    Examples
    --------
    >>> from propstab import PropstabWarning
    >>> from propstab.similarity import ConstantFeatureWarning
    >>> issubclass(ConstantFeatureWarning, PropstabWarning)
    True
    >>> issubclass(ConstantFeatureWarning, RuntimeWarning)
    True
    """
