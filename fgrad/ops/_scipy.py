"""SciPy, imported on first use: SciPy is optional, and importing ``scipy.linalg`` and
``scipy.special`` costs about 200 ms that ``import fgrad`` should not pay for programs that
never call a function computed by them.

Example::

    >>> from fgrad.ops._scipy import scipy_module
    >>> scipy_module("special").erfcx(0.0)
    np.float64(1.0)
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType


@functools.cache
def scipy_module(name: str) -> ModuleType | None:
    """``scipy.<name>`` (imported the first time it is asked for), or None when SciPy is not
    installed."""
    try:
        return importlib.import_module(f"scipy.{name}")
    except ImportError:  # pragma: no cover - scipy is optional
        return None


@functools.cache
def scipy_version() -> tuple[int, int]:
    """SciPy's (major, minor) version, (0, 0) when it is not installed."""
    try:
        scipy = importlib.import_module("scipy")
    except ImportError:  # pragma: no cover - scipy is optional
        return (0, 0)
    major, minor = scipy.__version__.split(".")[:2]
    return int(major), int(minor)


def special_module_for(xp) -> ModuleType | None:
    """The special-function module for ``xp``'s arrays: ``cupyx.scipy.special`` for CuPy,
    ``scipy.special`` for NumPy buffers (and the fake device, a NumPy stand-in); None when
    SciPy is not installed.

    Example::

        >>> import numpy as np
        >>> special_module_for(np).__name__
        'scipy.special'
    """
    if getattr(xp, "__name__", "") == "cupy":  # pragma: no cover - needs a GPU
        return importlib.import_module("cupyx.scipy.special")
    return scipy_module("special")
