"""DLPack exchange of backend buffers: export (``__dlpack__``) and import (``from_dlpack``).

The array API standard (2024.12) protocol, on each backend's own DLPack support: NumPy's
on the host, cupy's on CUDA GPUs.  fgrad never writes a buffer it holds, so an export is
zero-copy and, to consumers that speak DLPack 1.0 (``max_version >= (1, 0)``), flagged
read-only; a legacy consumer (no ``max_version``) cannot be told that, so it gets a copy
(or `BufferError` with ``copy=False``).  An import shares the producer's memory whenever the
standard allows it (``copy=None`` or ``False``).

Example::

    >>> import numpy as np
    >>> buf = np.arange(3.0)
    >>> device_of(buf)
    (1, 0)
    >>> np.shares_memory(import_buffer(buf), buf)
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import NUMPY, Device, backend_of_buffer, get_backend, parse_device, put_buffer

# DLPack device types (``DLDeviceType``) fgrad has a backend for
CPU = 1
CUDA = 2
CUDA_HOST = 3
CUDA_MANAGED = 13
_HOST_TYPES = (CPU, CUDA_HOST)
_NAMES = {CPU: "CPU", CUDA: "CUDA", CUDA_HOST: "CUDAHost", 10: "ROCM", 13: "CUDAManaged"}


def _versioned(max_version) -> bool:
    return max_version is not None and tuple(max_version)[0] >= 1


def device_of(buf) -> tuple[int, int]:
    """The DLPack ``(device_type, device_id)`` of a backend buffer (``__dlpack_device__``).

    Example::

        >>> device_of(np.zeros(2))
        (1, 0)
    """
    be = backend_of_buffer(buf)
    if be is NUMPY:
        return (CPU, 0)
    if be.name == "cupy":
        return tuple(int(v) for v in buf.__dlpack_device__())  # type: ignore[return-value]
    raise BufferError(
        f"__dlpack_device__: arrays on the {be.name!r} backend have no DLPack device; "
        "move the array to the host first with fgrad.device_put(x, 'cpu')"
    )


def export(buf, *, stream=None, max_version=None, dl_device=None, copy=None, readonly: bool = True) -> Any:
    """A DLPack capsule of ``buf`` (with ``readonly``: an fgrad buffer, never to be written;
    without: a mutable shim tensor's buffer, shared as PyTorch shares its tensors) for a
    consumer.

    ``copy=None`` shares memory when the consumer can be told the data is read-only
    (DLPack >= 1.0) and copies otherwise; ``copy=True`` always copies (the consumer owns
    the copy); ``copy=False`` never copies and raises `BufferError` when that is impossible.

    Example::

        >>> cap = export(np.arange(3.0), max_version=(1, 0))
        >>> type(cap).__name__
        'PyCapsule'
    """
    be = backend_of_buffer(buf)
    if be is NUMPY:
        return _export_host(np.asarray(buf), stream, max_version, dl_device, copy, readonly)
    if be.name == "cupy":
        kw = {"stream": stream}
        for k, v in (("max_version", max_version), ("dl_device", dl_device), ("copy", copy)):
            if v is not None:
                kw[k] = v
        return buf.__dlpack__(**kw)
    raise BufferError(
        f"__dlpack__: arrays on the {be.name!r} backend cannot be exported through DLPack; "
        "move the array to the host first with fgrad.device_put(x, 'cpu')"
    )


def _export_host(buf: np.ndarray, stream, max_version, dl_device, copy, readonly: bool):
    if stream is not None:
        raise BufferError(f"__dlpack__: stream must be None for a CPU array, got {stream!r}")
    if dl_device is not None and tuple(dl_device) != (CPU, 0):
        raise BufferError(
            f"__dlpack__: cannot export a CPU array to DLPack device {tuple(dl_device)}; "
            "only (1, 0) (kDLCPU) is supported here — move it with fgrad.device_put first"
        )
    if type(buf) is not np.ndarray:
        buf = buf.view(np.ndarray)
    if copy:
        return buf.copy().__dlpack__(max_version=max_version)
    if not readonly:
        return buf.__dlpack__(max_version=max_version, copy=copy)
    if not _versioned(max_version):
        if copy is False:
            raise BufferError(
                "__dlpack__: fgrad arrays are immutable and a legacy DLPack consumer (no "
                "max_version >= (1, 0)) cannot be told so; pass copy=None or copy=True to get a copy"
            )
        return buf.copy().__dlpack__()
    view = buf.view()
    view.flags.writeable = False
    return view.__dlpack__(max_version=max_version, copy=False)


class _Capsule:
    """A bare DLPack capsule (from an old-style ``to_dlpack``) presented as a producer."""

    def __init__(self, capsule) -> None:
        self.capsule = capsule

    def __dlpack__(self, **_):
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (CPU, 0)


def import_buffer(x, device: Device | str | None = None, copy: bool | None = None):
    """A backend buffer holding the data of a DLPack producer ``x`` (or a bare capsule).

    Memory is shared unless ``copy=True`` or the data must move to ``device``
    (``copy=False`` then raises `BufferError`).

    Example::

        >>> a = np.arange(4)
        >>> b = import_buffer(a, copy=True)
        >>> np.shares_memory(a, b), b.tolist()
        (False, [0, 1, 2, 3])
    """
    if type(x).__name__ == "PyCapsule":
        x = _Capsule(x)
    if not hasattr(x, "__dlpack__"):
        raise TypeError(
            f"from_dlpack: expected an object with a __dlpack__ method or a DLPack capsule, got "
            f"{type(x).__name__}"
        )
    dev_type, dev_id = (int(v) for v in x.__dlpack_device__())
    target = parse_device(device) if device is not None else None
    if dev_type in _HOST_TYPES:
        try:
            buf = np.from_dlpack(x, copy=copy)
        except (RuntimeError, BufferError) as e:  # NumPy < 2.5 raises RuntimeError, 2.5 BufferError
            if "dtype" not in str(e):
                raise
            raise BufferError(
                f"from_dlpack: NumPy cannot hold the dtype of this {type(x).__name__} "
                f"({getattr(x, 'dtype', 'unknown dtype')}): {e} Convert it first (e.g. a bfloat16 "
                "tensor with .float())"
            ) from None
    elif dev_type in (CUDA, CUDA_MANAGED):
        cp = get_backend("cupy").xp
        buf = cp.from_dlpack(x) if copy is None else cp.from_dlpack(x, copy=copy)
    else:
        raise BufferError(
            f"from_dlpack: DLPack device {_NAMES.get(dev_type, dev_type)} (type {dev_type}) has no "
            "fgrad backend; fgrad reads CPU and CUDA data"
        )
    if target is None:
        return buf
    be = backend_of_buffer(buf)
    if be.device_of(buf) == target:
        return buf
    if copy is False:
        raise BufferError(
            f"from_dlpack: the data lives on {be.device_of(buf)} and device={target} needs a copy, "
            "but copy=False; pass copy=None or copy=True"
        )
    return put_buffer(buf, target)
