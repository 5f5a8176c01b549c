"""Compatibility with the scikit-learn versions propstab supports (1.2 to 1.8).

Every call into an API that scikit-learn renamed or keeps private goes through this
module, which chooses the call by scikit-learn's version (as ``sklearn/utils/fixes.py``
does for scikit-learn's own dependencies):

- :func:`validate_data`: ``sklearn.utils.validation.validate_data(estimator, ...)`` from
  1.6 on, the estimator's ``_validate_data`` method before; the keyword
  ``ensure_all_finite`` (1.6) is ``force_all_finite`` before it (removed in 1.8);
- :func:`estimator_tags`: an estimator's ``allow_nan`` and ``requires_y`` tags, from
  ``sklearn.utils.get_tags`` (1.6) or ``sklearn.utils._tags._safe_tags`` before.
"""
from __future__ import annotations

__all__ = ["estimator_tags", "sklearn_version", "validate_data"]

#: the first version with ``validate_data``, ``get_tags`` and ``ensure_all_finite``
NEW_API = (1, 6)


def sklearn_version() -> tuple:
    """scikit-learn's (major, minor) version.

    >>> sklearn_version() >= (1, 2)
    True
    """
    import sklearn

    major, minor = sklearn.__version__.split(".")[:2]
    return int(major), int("".join(ch for ch in minor if ch.isdigit()) or 0)


def validate_data(estimator, X, y="no_validation", *, ensure_all_finite=True, **kwargs):
    """scikit-learn's validation of ``X`` (and ``y``) for ``estimator``, which also sets
    ``n_features_in_`` and ``feature_names_in_``: the checked ``X``, or ``(X, y)``.

    >>> import numpy as np
    >>> from sklearn.base import BaseEstimator
    >>> est = BaseEstimator()
    >>> validate_data(est, np.ones((3, 2))).shape, est.n_features_in_
    ((3, 2), 2)
    """
    if sklearn_version() >= NEW_API:
        from sklearn.utils.validation import validate_data as validate

        return validate(estimator, X, y, ensure_all_finite=ensure_all_finite, **kwargs)
    return estimator._validate_data(X, y, force_all_finite=ensure_all_finite, **kwargs)


def estimator_tags(estimator) -> tuple:
    """``(allow_nan, requires_y)`` of an estimator.

    >>> from sklearn.linear_model import Lasso
    >>> estimator_tags(Lasso())
    (False, True)
    """
    if sklearn_version() >= NEW_API:
        from sklearn.utils import get_tags

        tags = get_tags(estimator)
        return bool(tags.input_tags.allow_nan), bool(tags.target_tags.required)
    from sklearn.utils._tags import _safe_tags

    return bool(_safe_tags(estimator, "allow_nan")), bool(_safe_tags(estimator, "requires_y"))
