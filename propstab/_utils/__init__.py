"""Shared internals of propstab (validation, results, execution, the site address)."""
