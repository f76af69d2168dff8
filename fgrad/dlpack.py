"""`fgrad.dlpack`: the names of ``jax.dlpack`` -- `from_dlpack` (an Array sharing a DLPack
producer's memory: NumPy, PyTorch, JAX, cupy arrays) and `is_supported_dtype`.

Example::

    >>> import numpy as np, fgrad
    >>> fgrad.dlpack.from_dlpack(np.arange(3.0))
    Array([0., 1., 2.], dtype=float64)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .backends import Sharding
from .numpy._dlpack import from_dlpack as _from_dlpack

# the dtypes DLPack describes and fgrad holds (JAX's list, without bfloat16 and the 8-bit floats)
_SUPPORTED = frozenset(np.dtype(t) for t in (
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "complex64", "complex128", "bool"))


def from_dlpack(external_array: Any, device: Any = None, copy: bool | None = None):
    """An fgrad Array holding the data of ``external_array`` (an object with
    ``__dlpack__``, or a capsule), sharing its memory when the standard allows; ``device``
    may be a device, a device name or a single-device sharding (JAX's signature).

    Example::

        >>> import numpy as np, fgrad
        >>> a = np.ones(2)
        >>> np.shares_memory(np.asarray(fgrad.dlpack.from_dlpack(a)), a)
        True
    """
    if isinstance(device, Sharding) or hasattr(device, "device_set"):
        devs = list(device.device_set)
        if len(devs) != 1:
            raise ValueError(f"from_dlpack: the sharding {device} spans {len(devs)} devices; fgrad "
                             "arrays live whole on one device")
        device = devs[0]
    return _from_dlpack(external_array, device=device, copy=copy)


def is_supported_dtype(dtype: Any) -> bool:
    """Whether arrays of ``dtype`` can be exchanged through DLPack.

    Example::

        >>> import fgrad
        >>> fgrad.dlpack.is_supported_dtype("float32"), fgrad.dlpack.is_supported_dtype("float8_e4m3fn")
        (True, False)
    """
    try:
        return np.dtype(dtype) in _SUPPORTED
    except TypeError:
        return False


__all__ = ["from_dlpack", "is_supported_dtype"]
