"""Input validation, by concern (issue 21): this module only re-exports.

- :mod:`propstab._checks`: the argument checks (``check_int_range``,
  ``check_real_range``, ``check_choice``, ``check_random_state``,
  ``check_confidence_level``...) and the shared helpers ``shown``, ``is_one_of``;
- :mod:`propstab._convert_selection`: :func:`as_selection` (every form of Z);
- :mod:`propstab._convert_rankings`: :func:`as_rankings`, :func:`as_input`;
- :mod:`propstab._convert_matrices`: :func:`as_similarity`, :func:`as_importances`;
- :mod:`propstab._option_checks`: a measure's options (``check_options``) and the
  arguments that depend on a measure or on two inputs;
- :mod:`propstab._params`: the declared rules of the public entry points.

Every check raises :class:`~propstab.InvalidParameterError`. ``_shown`` and
``_is_one_of`` are the old names of ``shown`` and ``is_one_of``, kept until every
importer uses the new ones.
"""
from ._checks import (as_real_array, check_axes, check_bool, check_choice,  # noqa: F401
                      check_confidence_level, check_feature_names, check_int_range,
                      check_labels, check_mapping, check_n_features, check_n_jobs,
                      check_probabilities, check_r_indices, check_random_state, check_real,
                      check_real_range, check_row_sizes, check_text, check_unit_interval,
                      fail, finite, is_label, is_one_of, seed_sequence, shown)
from ._convert_matrices import (as_importances, as_similarity, numeric_csr,  # noqa: F401
                                sparse_position)
from ._convert_rankings import (INPUT_KINDS, RANKING_KINDS, as_input,  # noqa: F401
                                as_named_input, as_rankings, rankings_of)
from ._convert_selection import Selection, as_selection, selection_of  # noqa: F401
from ._exceptions import InvalidParameterError  # noqa: F401
from ._option_checks import (check_comparable, check_matrix_options,  # noqa: F401
                             check_null_value, check_options)

_shown = shown                 # old names, for the importers not yet switched
_is_one_of = is_one_of
_finite = finite
_as_rankings = rankings_of
_fail = fail
_numeric_csr = numeric_csr
_sparse_position = sparse_position

__all__ = ["Selection", "as_selection", "check_options"]
