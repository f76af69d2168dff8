"""DLPack for the shim: ``torch.from_dlpack``, ``Tensor.__dlpack__`` / ``__dlpack_device__``.

As in PyTorch, an exported tensor shares its (mutable) memory with the consumer, and
`from_dlpack` shares the producer's memory.  One difference: a producer that flags its data
read-only (an `fgrad.Array`, a read-only NumPy array) is copied, since a shim tensor is
writable and fgrad Arrays are immutable (PyTorch ignores the flag and shares).
"""

from __future__ import annotations

import numpy as np

import fgrad.torch._dtypes as D
from ..backends.dlpack import device_of, export, import_buffer
from ._tensor import Tensor, _wrap
from fgrad.torch.types import Device
from typing import Any


def from_dlpack(ext_tensor: Any, *, device: Device = None, copy: bool | None = None) -> Tensor:
    """A tensor holding the data of ``ext_tensor``: an object with ``__dlpack__`` (a NumPy
    array, an `fgrad.Array`, a PyTorch or JAX tensor) or a DLPack capsule.

    Memory is shared (changes to a writable producer show in the tensor) unless ``copy=True``,
    the producer is read-only, or ``device`` differs from the data's device.

    Example::

        >>> import numpy as np, fgrad.torch as torch
        >>> a = np.arange(3.0)
        >>> t = torch.from_dlpack(a)
        >>> a[0] = 7.0
        >>> t
        tensor([7., 1., 2.], dtype=torch.float64)
    """
    buf = import_buffer(ext_tensor, device=device, copy=copy)
    if type(buf) is np.ndarray and not buf.flags.writeable and copy is not False:
        buf = buf.copy()
    D.from_np(buf.dtype)  # a clear error for dtypes the shim has no torch.dtype for
    return _wrap(buf)


def _dlpack(self: Tensor, *, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule sharing this tensor's memory (``torch.Tensor.__dlpack__``).

    Example::

        >>> import numpy as np, fgrad.torch as torch
        >>> t = torch.zeros(2)
        >>> np.from_dlpack(t).tolist()
        [0.0, 0.0]
    """
    if self.requires_grad:
        raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")
    return export(self._buf, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy,
                  readonly=False)


def _dlpack_device(self: Tensor) -> tuple:
    """``(device_type, device_id)`` in DLPack's numbering (``(1, 0)`` for the CPU)."""
    return device_of(self._buf)


Tensor.__dlpack__ = _dlpack
Tensor.__dlpack_device__ = _dlpack_device

__all__ = ["from_dlpack"]
