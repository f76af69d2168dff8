"""The CuPy backend: arrays on NVIDIA GPUs.

Loaded on first use (``fgrad.device_put(x, "cuda")``, ``FGRAD_BACKEND=cupy``,
``fgrad.devices()``); `load` raises when cupy is missing or no GPU is usable, which the
registry turns into "not available" — ``import fgrad`` never needs either.

Primitive implementations are NumPy-API code run with ``xp = cupy``; NumPy ufuncs applied to
cupy arrays dispatch to cupy (``__array_ufunc__``).  Data moves only through the explicit
methods here (`to_host` / `from_host` / `put`), which `fgrad.device_put` and array printing
use.
"""

from __future__ import annotations

import numpy as np

from . import Backend, Device, register_backend, upload

_BACKEND = None


class CupyBackend(Backend):
    """GPU arrays through cupy; devices ``cuda:0``, ``cuda:1``, ...

    cupy compiles its kernels with ``-ftz=true`` (float32 subnormals flush to zero) and lets
    the compiler contract ``a*b+c`` into fma (its eager results may differ from NumPy's and
    from fgrad's generated kernels by an ulp): see docs/gpu_numerics.md."""

    flushes_float32_subnormals = True
    rounds_like_numpy = False

    def __init__(self, cupy) -> None:
        super().__init__("cupy", cupy, (cupy.ndarray,), platform="cuda")
        self._cupy = cupy
        n = cupy.cuda.runtime.getDeviceCount()
        self._devices = [Device("cuda", i, "cupy") for i in range(n)]
        self.multi_device = n > 1

    def available(self) -> bool:
        return bool(self._devices)

    def devices(self) -> list:
        return list(self._devices)

    def current_device(self) -> Device:
        return self._devices[self._cupy.cuda.runtime.getDevice()]

    def device_of(self, buf) -> Device:
        return self._devices[buf.device.id]

    def to_host(self, buf) -> np.ndarray:
        return buf.get()

    def from_host(self, arr, device: Device | None = None):
        cp = self._cupy
        arr = np.asarray(arr)
        if device is None or device.id == cp.cuda.runtime.getDevice():
            return upload(cp.asarray, arr)  # 0-d: byte copy (cupy's fill loses -0.0)
        with cp.cuda.Device(device.id):
            return upload(cp.asarray, arr)

    def device_scope(self, device: Device):
        return self._cupy.cuda.Device(device.id)

    def linalg_errors(self):
        # cupy skips cuSOLVER's status (devInfo) unless asked: a failed factorization
        # returns unspecified values instead of raising
        import cupyx  # loaded with cupy (its optional companion module)

        return cupyx.errstate(linalg="raise")

    def put(self, buf, device: Device):
        if buf.device.id == device.id:
            return buf
        with self._cupy.cuda.Device(device.id):
            return buf.copy()  # a peer copy onto the current device


def load() -> CupyBackend:
    """Import cupy and register the backend; raises (ImportError, CUDA errors, RuntimeError)
    when cupy or a usable GPU is missing."""
    global _BACKEND
    if _BACKEND is None:
        import cupy

        be = CupyBackend(cupy)
        if not be.available():
            raise RuntimeError("cupy found no CUDA device")
        _BACKEND = register_backend(be, aliases=("cuda", "gpu"))
    return _BACKEND
