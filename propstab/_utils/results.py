"""The one frame of every printed result: a one-line ``repr``, ``str`` and the notebook
display from ``summary()``, ``to_frame()`` for pandas, and, for a test's result,
unpacking as scipy's results unpack.

A result class states what is particular to it and inherits the rest:

- ``_repr_fields``: the attributes its one-line ``repr`` shows (or override
  ``_repr_values()`` for computed ones);
- ``summary()``: its few lines, built with :func:`propstab._utils.text.summary`;
- ``_records()``: the rows of :meth:`Result.to_frame` as mappings (default: one row of
  the ``repr``'s values);
- ``_unpack`` (on :class:`UnpackingResult`): the attributes it unpacks as, e.g.
  ``("statistic", "pvalue")`` so that ``statistic, pvalue = result`` works as with
  ``scipy.stats.ttest_ind``.

References
----------
Virtanen, P. et al. (2020). SciPy 1.0. Nature Methods 17, 261-272 (result objects that
unpack and print); Seabold, S., Perktold, J. (2010). statsmodels (``summary()`` tables).
"""
from __future__ import annotations

from typing import Any, ClassVar, Dict, List, Mapping, Tuple

from .text import Summary, call_repr

__all__ = ["Result", "UnpackingResult", "frame_of"]


def frame_of(records, columns=None, *, owner: str = "to_frame", index=None):
    """A pandas DataFrame of ``records`` (mappings, or sequences with ``columns``), with
    the one error that names pandas when it is not installed."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is a dependency
        raise ImportError(f"{owner} needs pandas: pip install pandas") from exc
    frame = pd.DataFrame(list(records), columns=None if columns is None else list(columns))
    return frame if index is None else frame.set_index(index)


class Result:
    """What every printed result shares (see the module's docstring).

    Examples
    --------
    >>> import dataclasses
    >>> from propstab._utils.results import Result
    >>> from propstab._utils.text import summary
    >>> @dataclasses.dataclass(frozen=True, repr=False)
    ... class Mean(Result):
    ...     value: float
    ...     n: int
    ...     _repr_fields = ("value", "n")
    ...     def summary(self):
    ...         return summary("Mean", [("value", f"{self.value:.3g}"), ("n", str(self.n))])
    >>> m = Mean(0.5, 10)
    >>> m
    Mean(value=0.5, n=10)
    >>> print(m)
    Mean
      value  0.5
      n      10
    >>> m.to_frame()
       value   n
    0    0.5  10
    """

    _repr_fields: ClassVar[Tuple[str, ...]] = ()

    def _repr_values(self) -> Dict[str, Any]:
        """The fields of the one-line ``repr``, by name."""
        return {name: getattr(self, name) for name in self._repr_fields}

    def __repr__(self) -> str:
        return call_repr(type(self).__name__, **self._repr_values())

    def summary(self, *args, **kwargs) -> Summary:  # pragma: no cover - every result has one
        raise NotImplementedError(f"{type(self).__name__} must define summary()")

    def __str__(self) -> str:
        return str(self.summary())  # a plain str, not the Summary subclass

    def _repr_html_(self) -> str:
        return self.summary()._repr_html_()

    def _records(self) -> List[Mapping[str, Any]]:
        """The rows of :meth:`to_frame` (default: one row, the ``repr``'s fields)."""
        return [self._repr_values()]

    def to_frame(self):
        """The result as a pandas DataFrame (one row per record).

        Returns
        -------
        pandas.DataFrame
        """
        return frame_of(self._records(), owner=f"{type(self).__name__}.to_frame")


class UnpackingResult(Result):
    """A result that unpacks as the attributes named in ``_unpack`` (scipy's convention:
    ``statistic, pvalue = result``), with ``len`` and indexing to match.

    Examples
    --------
    >>> import dataclasses
    >>> from propstab._utils.results import UnpackingResult
    >>> @dataclasses.dataclass(frozen=True, repr=False)
    ... class Test(UnpackingResult):
    ...     statistic: float
    ...     pvalue: float
    ...     _unpack = _repr_fields = ("statistic", "pvalue")
    >>> statistic, pvalue = Test(2.0, 0.05)
    >>> statistic, pvalue, len(Test(2.0, 0.05)), Test(2.0, 0.05)[-1]
    (2.0, 0.05, 2, 0.05)
    """

    _unpack: ClassVar[Tuple[str, ...]] = ()

    def _unpacked(self) -> tuple:
        return tuple(getattr(self, name) for name in self._unpack)

    def __iter__(self):
        return iter(self._unpacked())

    def __len__(self) -> int:
        return len(self._unpack)

    def __getitem__(self, index):
        return self._unpacked()[index]
