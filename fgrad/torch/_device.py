"""Devices of the shim: which buffers live on the CUDA device, transfers, and ``torch.cuda``.

A tensor's device is its buffer's type: a NumPy ``ndarray`` is on the CPU; a buffer of one
of the CUDA backend's array types (``cupy.ndarray``) is on ``cuda:<id>``.  Nothing else
records a device, so a view, a result or a saved value is on its buffer's device by
construction.

The CUDA backend is found lazily (the first ``torch.cuda`` query or ``device='cuda'``):

* a backend installed with `set_cuda_backend` (tests install the fake device of
  `fgrad.testing.fake_device` this way, or with ``FGRAD_TORCH_FAKE_CUDA=1``);
* otherwise CuPy, when it imports and sees at least one GPU.

Without either, ``torch.cuda.is_available()`` is False and ``.cuda()`` raises PyTorch's
"Torch not compiled with CUDA enabled"; nothing else changes.

Operations never move data implicitly: an op that mixes a CUDA tensor with a CPU tensor
raises PyTorch's "Expected all tensors to be on the same device" error (a 0-dim CPU tensor
counts as a scalar, as in PyTorch).  ``.to``/``.cuda()``/``.cpu()``, ``copy_``,
``torch.load(map_location=...)`` and ``optimizer.load_state_dict`` are the transfers.
"""

from __future__ import annotations

import os

import numpy as np

_nd = np.ndarray

# Buffer types that live on the CUDA device.  Shared by identity (``from ._device import
# DEV``): registering a backend adds to this set in place.
DEV: set = set()

_state = {"backend": None, "probed": False, "default": None}


class CudaBackend:
    """What the shim needs from a GPU array library.

    ``xp``: the array module (``cupy``); ``types``: its array types; ``put(ndarray)`` copies a
    host array to the device, ``get(buf)`` copies a device buffer to a new host array,
    ``synchronize()`` waits for the device, ``count`` is the number of devices."""

    def __init__(self, xp, types, *, name="cupy", put=None, get=None, synchronize=None, count=1,
                 device_name="CUDA device", device_id=None, memory_allocated=None) -> None:
        self.xp = xp
        self.types = tuple(types)
        self.name = name
        self._put = put
        self._get = get
        self._sync = synchronize
        self.count = int(count)
        self.device_name = device_name
        self._device_id = device_id
        self._mem = memory_allocated

    def put(self, arr: np.ndarray, index: int = 0):
        if self._put is not None:
            return self._put(arr, index)
        return self.xp.asarray(arr)

    def get(self, buf) -> np.ndarray:
        if self._get is not None:
            return self._get(buf)
        asnumpy = getattr(self.xp, "asnumpy", None)
        if asnumpy is not None:
            return asnumpy(buf)
        if isinstance(buf, np.ndarray):
            return np.array(buf.view(np.ndarray))
        return buf.get()

    def synchronize(self) -> None:
        if self._sync is not None:
            self._sync()

    def index_of(self, buf) -> int:
        if self._device_id is not None:
            return self._device_id(buf)
        d = getattr(buf, "device", None)
        i = getattr(d, "id", 0)
        return i if isinstance(i, int) else 0

    def memory_allocated(self) -> int:
        return int(self._mem()) if self._mem is not None else 0

    def __repr__(self) -> str:
        return f"CudaBackend({self.name})"


def _cupy_backend():
    """CuPy, when it imports and sees a GPU (else None)."""
    try:
        import cupy
    except Exception:  # noqa: BLE001 -- any import failure means no GPU backend
        return None
    try:
        n = int(cupy.cuda.runtime.getDeviceCount())
    except Exception:  # noqa: BLE001 -- no driver / no device
        return None
    if n < 1:
        return None

    def put(arr, index):
        with cupy.cuda.Device(index):
            return cupy.asarray(arr)

    def sync():
        cupy.cuda.runtime.deviceSynchronize()

    def name():
        try:
            props = cupy.cuda.runtime.getDeviceProperties(0)
            n = props.get("name", b"CUDA device")
            return n.decode() if isinstance(n, bytes) else str(n)
        except Exception:  # noqa: BLE001
            return "CUDA device"

    def mem():
        return cupy.get_default_memory_pool().used_bytes()

    return CudaBackend(cupy, (cupy.ndarray,), name="cupy", put=put, get=cupy.asnumpy, synchronize=sync,
                       count=n, device_name=name(), memory_allocated=mem)


def _from_fake():
    """The fake device of `fgrad.testing.fake_device`, as the CUDA backend (tests only)."""
    from ..testing import fake_device as fd

    make = getattr(fd, "torch_cuda_backend", None)
    if make is not None:
        return make()
    return backend_from_core(fd)


def backend_from_core(src) -> CudaBackend:
    """A `CudaBackend` from an object that describes an array library the way the core does:
    ``xp`` (array module) and ``array_type``/``types``/``ndarray`` (its array type(s)),
    with optional ``to_device``/``to_host``/``synchronize``."""
    be = getattr(src, "backend", None) or getattr(src, "BACKEND", None) or src
    xp = getattr(be, "xp", None) or getattr(src, "xp", None)
    types = (getattr(be, "types", None) or getattr(src, "types", None))
    if types is None:
        t = (getattr(be, "array_type", None) or getattr(src, "array_type", None)
             or getattr(src, "FakeArray", None) or getattr(xp, "ndarray", None))
        types = (t,)
    put = getattr(src, "to_device", None)
    get = getattr(src, "to_host", None)
    sync = getattr(src, "synchronize", None)
    return CudaBackend(xp, types, name=getattr(be, "name", "fake"),
                       put=(lambda a, i: put(a)) if put is not None else None, get=get,
                       synchronize=sync, device_name="fgrad fake CUDA device")


def set_cuda_backend(backend: CudaBackend | None):
    """Install ``backend`` as the shim's CUDA device (None: none); returns the previous one.
    Tests use this to run the device logic on the fake device."""
    prev = _state["backend"] if _state["probed"] else None
    old = _state["backend"]
    if old is not None:
        DEV.difference_update(old.types)
    _state["backend"] = backend
    _state["probed"] = True
    if backend is not None:
        DEV.update(backend.types)
    return prev


def backend() -> CudaBackend | None:
    """The CUDA backend, probing once."""
    if not _state["probed"]:
        _state["probed"] = True
        be = None
        if os.environ.get("FGRAD_TORCH_FAKE_CUDA", "") not in ("", "0"):
            be = _from_fake()
        else:
            be = _cupy_backend()
        _state["backend"] = be
        if be is not None:
            DEV.update(be.types)
    return _state["backend"]


def is_available() -> bool:
    return backend() is not None


def cuda_error() -> AssertionError:
    return AssertionError("Torch not compiled with CUDA enabled")


def require(index=None) -> CudaBackend:
    """The backend for ``cuda[:index]``, or PyTorch's errors."""
    be = backend()
    if be is None:
        raise cuda_error()
    if index is not None and not 0 <= int(index) < be.count:
        raise RuntimeError(
            "CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at "
            "some other API call, so the stacktrace below might be incorrect.\nFor debugging consider "
            "passing CUDA_LAUNCH_BLOCKING=1")
    return be


def set_default(dev: str | None) -> None:
    """``torch.set_default_device``: None / 'cpu' or a CUDA device string."""
    if dev is None or str(dev).split(":")[0] == "cpu":
        _state["default"] = None
    else:
        s = str(dev)
        _state["default"] = int(s.split(":", 1)[1]) if ":" in s else 0


def default_index():
    """The CUDA index factory functions use when no device is given (None: the CPU)."""
    return _state["default"]


def default_device() -> str:
    i = _state["default"]
    return "cpu" if i is None else f"cuda:{i}"


# ---------------------------------------------------------------------------------------
# buffers


def is_dev(buf) -> bool:
    return type(buf) in DEV


def xp_of(buf):
    """numpy for host buffers, the CUDA array module for device buffers."""
    if type(buf) is _nd:
        return np
    if type(buf) in DEV:
        return _state["backend"].xp
    return np


def index_of(buf) -> int:
    return _state["backend"].index_of(buf)


def to_host(buf) -> np.ndarray:
    """A host (NumPy) copy of a device buffer; host buffers are returned as they are."""
    if type(buf) in DEV:
        return _state["backend"].get(buf)
    return buf


def to_dev(buf, index: int = 0):
    """A device copy of a host buffer (or of a device buffer on another device)."""
    be = require(index)
    if type(buf) in DEV:
        if be.index_of(buf) == index:
            return buf
        buf = be.get(buf)
    return be.put(np.asarray(buf), index)


def full(shape, value, dtype, index: int):
    """A new device array of ``shape`` filled with ``value`` (made on the device)."""
    be = require(index)
    xp = be.xp
    if index == 0 or not hasattr(xp, "cuda"):
        return xp.zeros(shape, dtype) if value == 0 else xp.full(shape, value, dtype)
    with xp.cuda.Device(index):
        return xp.zeros(shape, dtype) if value == 0 else xp.full(shape, value, dtype)


def put_like(arr, like):
    """``arr`` (a host array or scalar: an internal constant) on ``like``'s device."""
    if type(like) in DEV:
        be = _state["backend"]
        return be.put(np.asarray(arr), be.index_of(like))
    return arr


def as_strided(buf, shape, strides_bytes, writeable=True):
    """A strided view of ``buf``'s memory (strides in bytes) on its own device."""
    if type(buf) is _nd:
        return np.lib.stride_tricks.as_strided(buf, shape, strides_bytes, writeable=writeable)
    if isinstance(buf, np.ndarray):  # an ndarray subclass (the fake device)
        return np.lib.stride_tricks.as_strided(buf, shape, strides_bytes, subok=True, writeable=writeable)
    return _state["backend"].xp.lib.stride_tricks.as_strided(buf, shape, strides_bytes)


def data_ptr(a) -> int:
    if type(a) is _nd:
        return a.__array_interface__["data"][0]
    cai = getattr(type(a), "__cuda_array_interface__", None)
    if cai is not None:
        return a.__cuda_array_interface__["data"][0]
    return a.__array_interface__["data"][0]


def writeable(buf) -> bool:
    fl = buf.flags
    return bool(getattr(fl, "writeable", True))


def same_device_error(a: str = "cuda:0", b: str = "cpu") -> RuntimeError:
    return RuntimeError(
        f"Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!"
    )


def check_bufs(bufs):
    """The device buffer among ``bufs`` that decides an op's device (None: all on the
    host); raises PyTorch's error if a CUDA buffer meets a host array with dimensions."""
    dev = None
    host = False
    for b in bufs:
        tb = type(b)
        if tb is _nd:
            if b.ndim:
                host = True
        elif tb in DEV:
            if dev is None:
                dev = b
            elif index_of(b) != index_of(dev):
                raise same_device_error(f"cuda:{index_of(dev)}", f"cuda:{index_of(b)}")
    if dev is not None and host:
        raise same_device_error(f"cuda:{index_of(dev)}", "cpu")
    return dev
