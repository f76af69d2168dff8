"""Process-level utilities of JAX's top-level API: `clear_caches`, `live_arrays`,
`print_environment_info`.

Example::

    >>> import fgrad
    >>> fgrad.clear_caches()
    >>> "fgrad" in fgrad.print_environment_info(return_string=True)
    True
"""

from __future__ import annotations

import gc
import platform
import sys

import numpy as np

from ._lru import clear_all
from ._version import __version__
from ._device_api import devices, local_devices
from .backends.world import world
from .core.array import ArrayImpl

__all__ = ["clear_caches", "live_arrays", "print_environment_info"]


def clear_caches() -> None:
    """Drop every compiled program and cached derived program (jit, the tape, the shim,
    CUDA kernels); the next call traces and compiles again.

    Example::

        >>> clear_caches()
    """
    clear_all()


def live_arrays(platform: str | None = None) -> list:
    """The fgrad Arrays alive now (on ``platform``, ``"cpu"``/``"gpu"``, if given).  It
    scans the garbage collector's objects: meant for debugging memory, not a hot path.

    Example::

        >>> import fgrad.numpy as fnp
        >>> x = fnp.ones(3)
        >>> any(a is x for a in live_arrays())
        True
    """
    want = {"gpu": "cuda"}.get(platform, platform)
    out = []
    for obj in gc.get_objects():
        if isinstance(obj, ArrayImpl):
            if want is None or _platform_of(obj) == want:
                out.append(obj)
    return out


def _platform_of(x: ArrayImpl) -> str:
    try:
        return next(iter(x.devices())).platform
    except Exception:  # noqa: BLE001 - an array without device information is a host one
        return "cpu"


def print_environment_info(return_string: bool = False) -> str | None:
    """Versions and devices (JAX's ``jax.print_environment_info``): printed, or returned
    with ``return_string=True``.

    Example::

        >>> print_environment_info(return_string=True).splitlines()[0].startswith("fgrad:")
        True
    """
    try:
        import cupy  # noqa: PLC0415  (optional GPU backend; only reported)
        cupy_version = cupy.__version__
    except Exception:  # noqa: BLE001 - absent or broken: reported as such
        cupy_version = "not available"
    devs, local = devices(), local_devices()
    lines = [
        f"fgrad:    {__version__}",
        f"numpy:    {np.__version__}",
        f"cupy:     {cupy_version}",
        f"python:   {sys.version.splitlines()[0]}",
        f"devices ({len(devs)} total, {len(local)} local): [{', '.join(str(d) for d in local)}]",
        f"process_count: {world().size}",
        f"platform: {platform.uname()}",
    ]
    text = "\n".join(lines)
    if return_string:
        return text
    print(text)
    return None
