"""Array backends.  A buffer's type says where it lives: numpy (CPU) or cupy (GPU).

Primitive implementations are written once against the NumPy API and receive the
backend's array module as ``xp``.
"""

from __future__ import annotations

import numpy as np


class Backend:
    """A backend: its array module and device name."""

    def __init__(self, name: str, xp) -> None:
        self.name, self.xp = name, xp

    def device_of(self, buf) -> str:
        return "cpu" if self.name == "numpy" else f"cuda:{buf.device.id}"

    def __repr__(self) -> str:
        return f"Backend({self.name})"


NUMPY = Backend("numpy", np)
_BY_TYPE: dict[type, Backend] = {np.ndarray: NUMPY}


def backend_of_buffer(buf) -> Backend:
    be = _BY_TYPE.get(type(buf))
    if be is not None:
        return be
    if isinstance(buf, (np.generic, np.ndarray, int, float, complex, bool)):
        return NUMPY
    mod = type(buf).__module__.split(".")[0]
    if mod == "cupy":
        from . import cupy_backend

        return cupy_backend.register(type(buf))
    return NUMPY


def xp_of(buf):
    """The array module (numpy or cupy) of a buffer."""
    be = _BY_TYPE.get(type(buf))
    return be.xp if be is not None else backend_of_buffer(buf).xp
