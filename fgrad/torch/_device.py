"""Devices of the shim: which buffers live on the CUDA device, transfers, and ``torch.cuda``.

A tensor's device is its buffer's type: a NumPy ``ndarray`` is on the CPU; a buffer of one
of the CUDA backend's array types (``cupy.ndarray``) is on ``cuda:<id>``.  Nothing else
records a device, so a view, a result or a saved value is on its buffer's device by
construction.

The CUDA backend is the core's (`fgrad.backends`): whatever ``get_backend("cuda")`` gives --
CuPy when it imports and sees a GPU, or, in tests, the fake device installed with
``fgrad.testing.fake_device.install(platform="cuda")`` (a NumPy ndarray subclass that
refuses host arrays as CuPy does).  It is looked up again whenever the registry changes.
Without one, ``torch.cuda.is_available()`` is False and ``.cuda()`` raises PyTorch's "Torch
not compiled with CUDA enabled"; nothing else changes.

Operations never move data implicitly: an op that mixes a CUDA tensor with a CPU tensor
raises PyTorch's "Expected all tensors to be on the same device" error (a 0-dim CPU tensor
counts as a scalar, as in PyTorch).  ``.to``/``.cuda()``/``.cpu()``, ``copy_``,
``torch.load(map_location=...)`` and ``optimizer.load_state_dict`` are the transfers.
"""

from __future__ import annotations

import contextlib

import numpy as np
import fgrad.backends as backends

_nd = np.ndarray

# Buffer types that live on the CUDA device.  Shared by identity (``from ._device import
# DEV``): a change of backend updates this set in place.
DEV: set = set()

_state = {"backend": None, "override": None, "default": None}


class CudaBackend:
    """What the shim needs from the core's CUDA backend (`fgrad.backends.Backend`):
    ``xp`` (the array module), ``types`` (its array types), host<->device copies, device
    indices, ``synchronize``."""

    def __init__(self, core) -> None:
        self.core = core
        self.xp = core.xp
        self.types = tuple(t for t in core.array_types if t is not _nd)
        self.name = core.name
        self.devices = list(core.devices())
        self.count = len(self.devices)

    def put(self, arr: np.ndarray, index: int = 0):
        return self.core.from_host(arr, self.devices[index])

    def get(self, buf) -> np.ndarray:
        h = self.core.to_host(buf)
        return h if type(h) is _nd else np.asarray(h.view(np.ndarray) if isinstance(h, _nd) else h)

    def move(self, buf, index: int):
        return self.core.put(buf, self.devices[index])

    def index_of(self, buf) -> int:
        return self.core.device_of(buf).id

    def synchronize(self) -> None:
        raise_deferred()
        cuda = getattr(self.xp, "cuda", None)
        if cuda is not None and hasattr(cuda, "runtime"):
            cuda.runtime.deviceSynchronize()

    @property
    def device_name(self) -> str:
        cuda = getattr(self.xp, "cuda", None)
        try:
            n = cuda.runtime.getDeviceProperties(0).get("name", b"CUDA device")
            return n.decode() if isinstance(n, bytes) else str(n)
        except Exception:  # noqa: BLE001 -- the fake device has no properties
            return f"fgrad {self.name} device"

    def memory_allocated(self) -> int:
        pool = getattr(self.xp, "get_default_memory_pool", None)
        return int(pool().used_bytes()) if pool is not None else 0

    def __repr__(self) -> str:
        return f"CudaBackend({self.name}, {self.count} device(s))"


def _core_cuda():
    """The core's backend for "cuda" (None when there is none or it has no device)."""

    try:
        be = backends.get_backend("cuda")
    except Exception:  # noqa: BLE001 -- BackendUnavailableError, or a broken driver
        return None
    if be is backends.NUMPY:
        return None
    try:
        return be if be.devices() else None
    except Exception:  # noqa: BLE001
        return None


def set_cuda_backend(core) -> None:
    """Use the core backend ``core`` as the CUDA device regardless of the registry (None:
    back to the registry's "cuda").  For tests that need a backend under another name."""
    _state["override"] = core
    backend()


def backend() -> CudaBackend | None:
    """The CUDA backend (re-synchronized with the core's registry)."""
    core = _state["override"] or _core_cuda()
    cur = _state["backend"]
    if cur is not None and cur.core is core:
        return cur
    if cur is not None:
        DEV.difference_update(cur.types)
    new = None if core is None else CudaBackend(core)
    _state["backend"] = new
    if new is not None:
        DEV.update(new.types)
    for fn in ON_CHANGE:  # caches of device constants belong to the old backend
        fn()
    return new


ON_CHANGE: list = []


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
    """``torch.set_default_device``: None / 'cpu' or a CUDA device string ('meta' tensors
    are made on the CPU: see docs/torch.md's device notes)."""
    kind = None if dev is None else str(dev).split(":")[0]
    _state["meta"] = kind == "meta"
    if kind in (None, "cpu", "meta"):
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


_NO_SCOPE = contextlib.nullcontext()


def cpu_default():
    """A ``with`` block in which fgrad's default device is the CPU.  PyTorch's default device
    is the CPU whatever fgrad's is (``FGRAD_BACKEND=cupy``): the shim stages and evaluates
    its definitions inside this block, so the constants they make without an operand (a
    ``fnp.zeros``, the constants of a program staged from abstract shapes) are host arrays,
    like the CPU tensors they meet; on CUDA tensors they are moved explicitly (`_unify`,
    the programs' per-device constant templates).  Free when the default already is the CPU.
    """
    if backends.default_device() is backends.CPU:
        return _NO_SCOPE
    return backends.default_device_scope(backends.CPU)


# ---------------------------------------------------------------------------------------
# buffers


# Input checks done on the device (class indices in range, ...): reading their verdict on the
# host at once would synchronise every step, so, like PyTorch CUDA's device-side asserts, they
# are reported at the next synchronisation -- ``item()``, ``tolist()``, ``bool()``, a copy
# to the host, ``torch.cuda.synchronize()``.  Pairs of (device bool, error factory).
PENDING: list = []
_PENDING_MAX = 64  # more unchecked ones than this: check now (bounds what they keep alive)


def defer_check(bad, error) -> None:
    """Raise ``error()`` at the next synchronisation if the 0-dim device bool ``bad`` is
    True (a device-side check of an op's inputs)."""
    PENDING.append((bad, error))
    if len(PENDING) > _PENDING_MAX:
        raise_deferred()


def raise_deferred() -> None:
    """Read the pending device-side checks (one host read for all of them) and raise the
    first failed one's error."""
    if not PENDING:
        return
    checks = list(PENDING)
    PENDING.clear()
    anybad = checks[0][0]
    for bad, _ in checks[1:]:
        anybad = anybad | bad
    if not bool(anybad):
        return
    for bad, error in checks:
        if bool(bad):
            raise error()


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
        if PENDING:
            raise_deferred()
        return _state["backend"].get(buf)
    return buf


def to_dev(buf, index: int = 0):
    """A device copy of a host buffer (or of a device buffer on another device); a device
    buffer already on ``index`` is returned as it is."""
    be = _state["backend"]
    if be is None or not 0 <= index < be.count:
        be = require(index)
    if type(buf) in DEV:
        if be.index_of(buf) == index:
            return buf
        return be.move(buf, index)
    return be.put(np.asarray(buf), index)


def full(shape, value, dtype, index: int):
    """A new device array of ``shape`` filled with ``value`` (made on the device)."""
    be = require(index)
    xp = be.xp
    cuda = getattr(xp, "cuda", None)
    if cuda is not None and hasattr(cuda, "Device"):
        with cuda.Device(index):
            return xp.zeros(shape, dtype) if value == 0 else xp.full(shape, value, dtype)
    if index == 0:
        return xp.zeros(shape, dtype) if value == 0 else xp.full(shape, value, dtype)
    return be.put(np.zeros(shape, dtype) if value == 0 else np.full(shape, value, dtype), index)


def arange(start: int, stop: int, step: int, dtype, index: int):
    """A new device array ``arange(start, stop, step)`` of an integer ``dtype``, made on
    device ``index`` (no upload)."""
    be = require(index)
    xp = be.xp
    cuda = getattr(xp, "cuda", None)
    if cuda is not None and hasattr(cuda, "Device"):
        with cuda.Device(index):
            return xp.arange(start, stop, step, dtype=dtype)
    if index == 0:
        return xp.arange(start, stop, step, dtype=dtype)
    return be.put(np.arange(start, stop, step, dtype=dtype), index)


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
    """The address of a buffer's first element (host or device memory)."""
    if isinstance(a, _nd):
        return a.__array_interface__["data"][0]
    return a.data.ptr  # cupy.ndarray: a MemoryPointer


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
