"""Stability as a regression test (the public face of :mod:`propstab.testing`)."""
from ._assertions import __doc__  # noqa: F401  (the face shows the implementation's docs)
from ._assertions import (  # noqa: F401
    NonInferiorityResult,
    assert_measure_properties,
    assert_not_less_stable,
    assert_stable,
    decision,
    parametrize_with_checks,
)
from ._baselines import (
    Baseline,
    BaselineMismatchError,
    fingerprint,
    selector_description,
    selector_parameters,
)
from ._decision import RunsPlan, runs_needed
from ._agree import Agreement, DisagreementError, agreement, assert_agrees
from ._command import Command, CommandError, ProtocolError, command

__all__ = [
    "Agreement",
    "Command",
    "CommandError",
    "DisagreementError",
    "ProtocolError",
    "agreement",
    "assert_agrees",
    "command",
    "Baseline",
    "BaselineMismatchError",
    "NonInferiorityResult",
    "assert_measure_properties",
    "assert_not_less_stable",
    "assert_stable",
    "fingerprint",
    "parametrize_with_checks",
    "RunsPlan",
    "runs_needed",
    "selector_description",
    "selector_parameters",
]
