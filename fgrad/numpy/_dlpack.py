"""`fgrad.numpy.from_dlpack`: an fgrad Array from any DLPack producer (array API 2024.12).

Works on NumPy arrays, PyTorch tensors, JAX arrays, cupy arrays, fgrad's own arrays and
shim tensors, and bare DLPack capsules.  Memory is shared whenever the standard allows.
"""

from __future__ import annotations

from ..backends import parse_device, put_buffer
from ..backends.dlpack import import_buffer
from ..core.array import ArrayImpl, Tracer, check_array_dtype, wrap


def from_dlpack(x, /, *, device=None, copy: bool | None = None) -> ArrayImpl:
    """An fgrad Array holding the data of ``x``, a DLPack producer (an object with
    ``__dlpack__``/``__dlpack_device__``) or a DLPack capsule.

    ``copy=None`` shares the producer's memory when possible (on the same device) and copies
    otherwise; ``copy=True`` always copies; ``copy=False`` never copies and raises
    ``BufferError`` when a copy is needed (e.g. ``device`` differs from the data's device).
    ``device`` defaults to the data's own device.  fgrad never writes the shared memory, but
    the producer may: copy (``copy=True``) if it will change its data afterwards.

    Example::

        >>> import numpy as np, fgrad.numpy as fnp
        >>> a = np.arange(3.0)
        >>> x = fnp.from_dlpack(a)
        >>> x, np.shares_memory(np.asarray(x), a)
        (Array([0., 1., 2.], dtype=float64), True)
    """
    if isinstance(x, Tracer) and device is None:
        return x  # fgrad values are immutable: sharing is always allowed
    if isinstance(x, ArrayImpl):
        return _from_fgrad(x, device, copy)
    buf = import_buffer(x, device=device, copy=copy)
    check_array_dtype(buf.dtype, "fgrad.numpy.from_dlpack")
    return wrap(buf)


def _from_fgrad(x: ArrayImpl, device, copy: bool | None) -> ArrayImpl:
    target = parse_device(device) if device is not None else x.device
    if target == x.device:
        return wrap(x._buf.copy()) if copy else x
    if copy is False:
        raise BufferError(
            f"from_dlpack: the array lives on {x.device} and device={target} needs a copy, but "
            "copy=False; pass copy=None or copy=True"
        )
    return wrap(put_buffer(x._buf, target))


__all__ = ["from_dlpack"]
