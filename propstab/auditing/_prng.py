"""numpy's global random state saved and restored cheaply around each Hypothesis example.

Hypothesis (6.67) runs every example inside ``hypothesis.internal.entropy.
deterministic_PRNG``: it saves numpy's global state (``numpy.random.get_state``), seeds it
with 0, calls the test and restores the saved state (``numpy.random.set_state``). The
legacy get/set of the 624 words of the Mersenne Twister cost ~100 microseconds per
example, ~30,000 times in an audit (~3 CPU-s). Within :func:`numpy_state_cheaply`,
Hypothesis's numpy wrapper gets and sets the same states through the generator's raw
state (its documented ``ctypes.state_address``: the 624 words and the position, 2,500
bytes):

- restoring a state S after an example that drew nothing from numpy (the raw state is
  still seed 0's, so no Gaussian is cached either) copies S's raw bytes back, when S has
  no cached Gaussian; any other case calls ``numpy.random.set_state`` as before;
- saving the state before the next example returns the S restored last when the raw
  state is still S's bytes (nothing drew from numpy in between; a draw moves the state);
  otherwise ``numpy.random.get_state`` as before.

Every example therefore starts from seed 0 and every state is restored exactly as by
Hypothesis's own calls: the same draws, the same values. Without the raw state (another
numpy, another layout) the block changes nothing.
"""
from __future__ import annotations

import contextlib
import ctypes
import struct

import numpy as np

__all__ = ["numpy_state_cheaply"]

_STATE_BYTES = 624 * 4 + 4  # mt19937_state: uint32 key[624]; int pos


def _raw_of(state) -> bytes:
    """The raw bytes of a legacy state tuple ('MT19937', key, pos, has_gauss, gauss)."""
    return np.asarray(state[1], dtype="<u4").tobytes() + struct.pack("<i", int(state[2]))


def _address():
    """The address of the global RandomState's raw state, None when its layout is not
    the one assumed (checked against ``get_state``)."""
    try:
        address = np.random.mtrand._rand._bit_generator.ctypes.state_address
        state = np.random.get_state()
    except (AttributeError, TypeError):  # pragma: no cover - other numpy
        return None
    if state[0] != "MT19937" or ctypes.string_at(address, _STATE_BYTES) != _raw_of(state):
        return None  # pragma: no cover
    return address


class _Fast:
    """``getstate``/``setstate`` for Hypothesis's numpy wrapper (see the module)."""

    def __init__(self, address):
        self.address = address
        seeded = np.random.RandomState(0)  # seed 0's raw state
        self.seed0 = _raw_of(seeded.get_state())
        self.last = None  # (raw, state) restored last

    def getstate(self):
        last = self.last
        if last is not None and ctypes.string_at(self.address, _STATE_BYTES) == last[0]:
            return last[1]
        return np.random.get_state()

    def setstate(self, state):
        self.last = None
        if (
            state[3] == 0
            and state[0] == "MT19937"
            and ctypes.string_at(self.address, _STATE_BYTES) == self.seed0
        ):
            raw = _raw_of(state)
            ctypes.memmove(self.address, raw, _STATE_BYTES)
        else:
            np.random.set_state(state)
            if state[3] != 0:
                return
            raw = _raw_of(state)
        self.last = (raw, state)


@contextlib.contextmanager
def numpy_state_cheaply():
    """Within the block, Hypothesis saves and restores numpy's global random state through
    its raw bytes (see the module): the same states, cheaper."""
    try:
        from hypothesis.internal import entropy  # Hypothesis's internals

        entropy.get_seeder_and_restorer(0)  # creates its numpy wrapper
        wrapper = entropy.NP_RANDOM
    except (ImportError, AttributeError):  # pragma: no cover - other versions
        wrapper = None
    if wrapper is None or getattr(wrapper, "saved_by_propstab", False):
        yield  # another Hypothesis, or inside one
        return
    address = _address()
    if address is None:  # pragma: no cover - another numpy
        yield
        return
    fast = _Fast(address)
    original = wrapper.getstate, wrapper.setstate
    wrapper.getstate, wrapper.setstate = fast.getstate, fast.setstate
    wrapper.saved_by_propstab = True
    try:
        yield
    finally:
        wrapper.getstate, wrapper.setstate = original
        wrapper.saved_by_propstab = False
