"""The measure registry, for contributors: declare a measure once, at its definition.

Everything propstab knows about a measure sits in its registry entry
(:class:`MeasureInfo`), written by :func:`register` where the measure is defined:

.. code-block:: python

    from propstab.registry import claims, register

    @register(
        name="weighted_consistency", family="frequency",
        summary="sum_f (F_f/N) (F_f - 1)/(M - 1)",
        references=("Somol, P., Novovicova, J. (2010) ...",),
        claims=claims(fully_defined=True, monotonicity=True, bounds=True, maximum=True,
                      correction_for_chance=False),
        lower=0, upper=1)
    @count_kernel(undefined_when=lambda c: c.total == 0, reason="no run selects any feature")
    def weighted_consistency(c):
        ...

``propstab.stability``, ``estimate``, the audit, the CLI, the docs and the R cross-check
read the entry; none of them keeps a table keyed by a measure's name (the guide:
``docs/contributing.md``).

- :func:`register`, :func:`claims`: the declaration (:func:`unregister` removes a
  measure added in a session);
- :class:`Bound`, :class:`Parameter`, :class:`Variant`, :class:`Declaration`: its parts;
- :class:`RReference`, :class:`RDefault`, :class:`ExpectedDifference`: the R metadata;
- :func:`get_measure`, :func:`list_measures`, :class:`MeasureInfo`: the lookup;
- :func:`module_doctests`: a family module's ``__test__``.

The declaration types are also importable from ``propstab`` (``propstab.RReference``,
as before); this module is their documented home.
"""
from ._declarations import Bound, Declaration, MeasureInfo, Parameter, Variant, claims
from ._r_metadata import ExpectedDifference, RDefault, RReference
from ._registry import get_measure, list_measures, module_doctests, register, unregister

__all__ = [
    "Bound",
    "Declaration",
    "ExpectedDifference",
    "MeasureInfo",
    "Parameter",
    "RDefault",
    "RReference",
    "Variant",
    "claims",
    "get_measure",
    "list_measures",
    "module_doctests",
    "register",
    "unregister",
]
