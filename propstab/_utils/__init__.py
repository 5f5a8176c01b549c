"""Shared internals: argument checks and rules, exceptions, text and result frames,
execution, progress, estimator helpers, compatibility with scikit-learn's versions, the
site's address."""
