"""Shared internals: argument checks and rules, exceptions, text and result frames, execution, progress, estimator helpers, compatibility."""
