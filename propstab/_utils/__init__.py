"""Shared internals of propstab (argument rules, execution, checkpoints, ...)."""
