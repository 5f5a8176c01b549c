"""Shared settings of the property suites.

``PROPSTAB_AUDIT_EXAMPLES`` (default 40) is the number of Hypothesis examples per
(measure, axiom) check and per named property: CI runs the reduced number, a full
``propstab audit`` runs 200.
"""
import os


def _examples() -> int:
    raw = os.environ.get("PROPSTAB_AUDIT_EXAMPLES", "40")
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"PROPSTAB_AUDIT_EXAMPLES: must be a positive integer; got {raw!r}")
    return int(raw)


AUDIT_EXAMPLES = _examples()
