"""Hypothesis strategies for selection matrices (the ``audit`` extra).

Every strategy returns numpy boolean arrays ``Z`` of shape ``(M, d)`` (M runs,
d features). Defaults allow everything valid, degenerate cases included: empty
rows, full rows, constant columns, identical rows. Arguments describe the valid
values, not a distribution.

The strategies behave like Hypothesis's own (e.g. ``hypothesis.extra.numpy.arrays``):
calling one returns a lazily evaluated strategy whose ``repr`` is the call, and its
arguments are validated when the strategy is first used, before any example is
generated: an invalid argument or an impossible combination raises
:class:`hypothesis.errors.InvalidArgument` naming the argument and the value.

Subsets are drawn as lists of distinct feature indices, so Hypothesis shrinks a
failing matrix towards few runs, few features and the leading features
``{0, 1, ..., k-1}``: the minimal counterexample is a small readable matrix.

``subset_sizes``
    ``"any"``
        each row selects 0..d features;
    ``"proper"``
        each row selects 1..d-1 features (the domain of FULLY_DEFINED);
    ``"constant"``
        every row selects the same number k in 0..d;
    ``"proper_constant"``
        every row selects the same k in 1..d-1;
    an int k
        every row selects exactly k features.

Examples
--------
>>> from hypothesis import given, settings
>>> from propstab.strategies import REPRODUCIBLE, selection_matrices
>>> selection_matrices(subset_sizes="proper", max_features=5)
selection_matrices(max_features=5, subset_sizes='proper')
>>> @settings(REPRODUCIBLE, max_examples=20)
... @given(selection_matrices(subset_sizes="proper", max_features=5))
... def sizes_are_proper(Z):
...     k = Z.sum(axis=1)
...     assert ((k >= 1) & (k <= Z.shape[1] - 1)).all()
>>> sizes_are_proper()
"""
from ..search import REPRODUCIBLE
from ._rankings import (
    TIES,
    RankConfiguration,
    identical_rankings,
    midranks_of_pattern,
    near_identical_rankings,
    rank_matrices,
    rank_matrix_pairs,
    rank_null_configurations,
)
from ._sets import (
    SUBSET_SIZES,
    NullConfiguration,
    identical_rows,
    matrix_from_rows,
    matrix_pairs,
    near_identical_rows,
    null_configurations,
    selection_matrices,
)
from ._similarity import (
    SIMILARITY_ELEMENTS,
    SIMILARITY_FORMATS,
    SIMILARITY_KINDS,
    SIMILARITY_VALUES,
    WEIGHT_VALUES,
    importance_weights,
    similarity_matrices,
)
from ._base import LIMIT_FEATURES, LIMIT_RUNS, LIMIT_SIMILARITY_FEATURES

__all__ = [
    "REPRODUCIBLE",
    "NullConfiguration",
    "identical_rows",
    "importance_weights",
    "matrix_from_rows",
    "matrix_pairs",
    "near_identical_rows",
    "null_configurations",
    "selection_matrices",
    "similarity_matrices",
    "TIES",
    "RankConfiguration",
    "identical_rankings",
    "midranks_of_pattern",
    "near_identical_rankings",
    "rank_matrices",
    "rank_matrix_pairs",
    "rank_null_configurations",
]

for _name in __all__:  # documented (and shown in reprs) at the public path
    _obj = globals()[_name]
    if getattr(_obj, "__module__", "").startswith(__name__ + "."):
        _obj.__module__ = __name__
del _name, _obj
