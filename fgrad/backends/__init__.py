"""Array backends and devices.  A buffer's type says where it lives: numpy (CPU) or cupy (GPU).

Primitive implementations are written once against the NumPy API and receive the backend's
array module as ``xp``.  A `Backend` owns one kind of buffer (its ``array_types``) and knows
how to move data to and from the host; a `Device` is a place arrays live (``cpu``,
``cuda:0``, ...).

The rules:

* an op runs on the backend of its fgrad Array operands; operands on different devices are
  an error (`DeviceMismatchError`) — fgrad never moves Arrays implicitly.  Python and NumPy
  scalars go with any backend; raw NumPy arrays handed to an op are constants, uploaded to
  the op's device explicitly (as ``jax.numpy`` does with NumPy inputs);
* an op with no Array operand, and every creation function (``fnp.zeros``, ``fnp.asarray``
  of host data, ...), uses the *default device*: ``FGRAD_BACKEND=cupy`` in the environment,
  ``fgrad.config.update("backend", "cuda")``, or ``with fgrad.default_device("cuda"):``;
* ``*_like`` creation, and the constants rules build (identities, masks, index arrays),
  follow their operand's device, through tracers to the concrete value they wrap; an
  abstract operand (inside jit, or a reverse-mode program staged once per shape) has no
  device, so those constants go to the default device — for GPU work make the GPU the
  default device;
* host index arrays (lists, NumPy arrays, boolean masks) indexing a device array follow it;
* `fgrad.device_put` is the one way to move an Array.

Backends other than numpy load lazily (``import fgrad`` never imports cupy unless asked to),
and a missing cupy or GPU only makes those devices unavailable.

Example::

    >>> import fgrad
    >>> fgrad.devices()[0]
    CpuDevice(id=0)
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
import warnings
from typing import Sequence

import numpy as np

from . import transfer_guard


class DeviceMismatchError(ValueError):
    """Operands of one op live on different devices (fgrad never moves Arrays implicitly).

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.DeviceMismatchError, ValueError)
        True
    """


class BackendUnavailableError(RuntimeError):
    """A backend or device was asked for that this machine does not have."""


# this process's index in the process world: `fgrad.backends.world` (which imports this
# module) installs the reader of its world's rank
PROCESS_INDEX: list = [lambda: 0]


class Device:
    """A place arrays live: ``platform`` (``"cpu"``, ``"cuda"``, ...) and ``id``.

    ``str(d)`` is ``"cpu:0"`` or ``"cuda:0"`` (JAX's); a Device compares equal to its string
    and, device 0, to its platform's name (``x.device == "cuda:0"``, ``x.device == "cpu"``).
    ``d.backend`` is the `Backend` that owns it.
    ``d.process_index`` is the process that owns it (JAX's): this process's index for the
    devices fgrad computes on; a device of another process (in ``fgrad.devices()`` under
    ``mpiexec``) carries its owner's index, prints as ``"cpu:0@process1"`` and equals no local
    device.

    Example::

        >>> import fgrad
        >>> d = fgrad.devices('cpu')[0]
        >>> isinstance(d, fgrad.Device), d.platform
        (True, 'cpu')
    """

    __slots__ = ("platform", "id", "backend_name", "_process")

    def __init__(self, platform: str, id: int = 0, backend_name: str | None = None,
                 process_index: int | None = None) -> None:
        self.platform = platform
        self.id = int(id)
        self.backend_name = backend_name or _PLATFORMS.get(platform, platform)
        self._process = process_index  # None: this process's device

    @property
    def process_index(self) -> int:
        """The index of the process that owns this device (JAX's ``Device.process_index``)."""
        return self._process if self._process is not None else PROCESS_INDEX[0]()

    @property
    def is_remote(self) -> bool:
        """Whether another process owns this device (it can hold no fgrad arrays here)."""
        return self._process is not None

    @property
    def backend(self) -> "Backend":
        return get_backend(self.backend_name)

    @property
    def device_kind(self) -> str:
        return self.platform

    def __str__(self) -> str:
        local = f"{self.platform}:{self.id}"  # JAX's: print(x.device) shows cpu:0
        return local if self._process is None else f"{local}@process{self._process}"

    def __repr__(self) -> str:  # JAX's: CpuDevice(id=0), CudaDevice(id=0)
        kind = {"cpu": "Cpu", "cuda": "Cuda", "rocm": "Rocm"}.get(self.platform, self.platform.capitalize())
        owner = "" if self._process is None else f", process_index={self._process}"
        return f"{kind}Device(id={self.id}{owner})"

    def __eq__(self, other) -> bool:
        if isinstance(other, Device):
            return self.platform == other.platform and self.id == other.id and self._process == other._process
        if isinstance(other, str):
            return str(self) == other or (self.id == 0 and self._process is None and other == self.platform)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.platform, self.id, self._process))


class Sharding:
    """Base class of shardings (JAX's ``jax.sharding.Sharding``): where an array's data lives.
    fgrad keeps every array whole on one device, so its shardings are single-device ones.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> isinstance(jnp.ones(2).sharding, fgrad.sharding.Sharding)
        True
    """

    __slots__ = ()

    def shard_shape(self, global_shape: Sequence[int]) -> tuple[int, ...]:
        """The shape of one shard of an array of ``global_shape``: the whole array (one device)."""
        return tuple(global_shape)

    def devices_indices_map(self, global_shape: Sequence[int]) -> dict:
        """Each device's index into an array of ``global_shape`` (JAX's
        ``Sharding.devices_indices_map``): the whole array, ``slice(None)`` per axis.

        Example::

            >>> import fgrad.numpy as jnp
            >>> list(jnp.ones((2, 3)).sharding.devices_indices_map((2, 3)).values())
            [(slice(None, None, None), slice(None, None, None))]
        """
        return {d: (slice(None),) * len(global_shape) for d in self.device_set}

    def addressable_devices_indices_map(self, global_shape: Sequence[int]) -> dict:
        """`devices_indices_map` of the devices this process addresses (all of fgrad's)."""
        return self.devices_indices_map(global_shape)

    def is_equivalent_to(self, other: "Sharding", ndim: int) -> bool:
        """Whether ``other`` places an array of ``ndim`` axes the same way: on the same device
        (fgrad's shardings keep an array whole)."""
        return isinstance(other, Sharding) and self.device_set == other.device_set


class SingleDeviceSharding(Sharding):
    """Where an Array's data lives: one whole copy on ``device`` (JAX's
    ``SingleDeviceSharding``; fgrad never splits an array over devices).

    Example::

        >>> import fgrad.numpy as fnp
        >>> s = fnp.zeros(3).sharding
        >>> s.device_set == {fnp.zeros(3).device}, s.is_fully_addressable
        (True, True)
    """

    __slots__ = ("device", "memory_kind")

    def __init__(self, device: "Device", *, memory_kind: str | None = None) -> None:
        self.device = device
        self.memory_kind = memory_kind or "device"

    @property
    def device_set(self) -> set:
        return {self.device}

    @property
    def addressable_devices(self) -> set:
        return {self.device}

    @property
    def is_fully_addressable(self) -> bool:
        return True

    @property
    def is_fully_replicated(self) -> bool:
        return True

    @property
    def num_devices(self) -> int:
        return 1

    def __eq__(self, other) -> bool:
        return isinstance(other, SingleDeviceSharding) and other.device == self.device

    def __hash__(self) -> int:
        return hash(("SingleDeviceSharding", self.device))

    def __repr__(self) -> str:
        return f"SingleDeviceSharding(device={self.device!r}, memory_kind={self.memory_kind})"


class Backend:
    """A backend: its array module ``xp``, its buffer types and its devices.

    Subclasses override the data-movement methods; the numpy backend is the host.
    """

    name = "backend"
    platform = "cpu"
    is_host = False
    multi_device = False  # more than one device: ops check that their operands share one
    # float32 subnormal inputs and results of arithmetic flush to (sign-preserving) zero, as
    # in CUDA code compiled with -ftz=true (cupy's kernels; JAX on GPUs does the same)
    flushes_float32_subnormals = False
    # eager ops round exactly like NumPy's loops (and like fgrad's generated kernels); False
    # where the backend's own kernels contract a*b+c into fma or sum in another order, so
    # eager and jit results may differ by a few ulps (see docs/gpu_numerics.md)
    rounds_like_numpy = True

    def __init__(self, name: str, xp, array_types: tuple = (), platform: str | None = None) -> None:
        self.name, self.xp = name, xp
        self.array_types = tuple(array_types)
        if platform is not None:
            self.platform = platform

    # -- devices -----------------------------------------------------------------------
    def available(self) -> bool:
        return True

    def devices(self) -> list:
        return [Device(self.platform, 0, self.name)]

    def current_device(self) -> Device:
        return self.devices()[0]

    def device_of(self, buf) -> Device:
        return self.current_device()

    # -- data movement (explicit) --------------------------------------------------------
    def to_host(self, buf) -> np.ndarray:
        """A NumPy copy of a buffer of this backend."""
        raise NotImplementedError

    def from_host(self, arr, device: Device | None = None):
        """A buffer of this backend holding ``arr`` (host data), on ``device`` (default:
        the backend's current device)."""
        raise NotImplementedError

    def put(self, buf, device: Device):
        """Move a buffer of this backend to another of its devices."""
        return buf

    def device_scope(self, device: Device):
        """Context manager: arrays created with ``xp`` inside go to ``device``."""
        return contextlib.nullcontext()

    def owns(self, buf) -> bool:
        return isinstance(buf, self.array_types)

    def linalg_errors(self):
        """Context manager: inside, ``xp.linalg``'s factorizations (cholesky, solve, inv)
        raise ``numpy.linalg.LinAlgError`` when they fail, as NumPy's always do (cupy's
        report nothing unless asked, which costs a device->host synchronisation)."""
        return contextlib.nullcontext()

    def __repr__(self) -> str:
        return f"Backend({self.name})"


class NumpyBackend(Backend):
    """The host: NumPy arrays (and NumPy scalars) on the CPU."""

    is_host = True

    def __init__(self) -> None:
        super().__init__("numpy", np, (np.ndarray, np.generic), platform="cpu")
        self._cpu = Device("cpu", 0, "numpy")

    def devices(self) -> list:
        return [self._cpu]

    def current_device(self) -> Device:
        return self._cpu

    def device_of(self, buf) -> Device:
        return self._cpu

    def to_host(self, buf) -> np.ndarray:
        return np.asarray(buf)

    def from_host(self, arr, device=None):
        return np.asarray(arr)


NUMPY = NumpyBackend()
CPU = NUMPY._cpu

# buffer type -> backend (the per-op lookup); numpy scalars are host buffers too
_BY_TYPE: dict[type, Backend] = {np.ndarray: NUMPY}
for _t in set(np.sctypeDict.values()):
    _BY_TYPE[_t] = NUMPY
_BACKENDS: dict[str, Backend] = {"numpy": NUMPY}
# platform / alias -> backend name
_PLATFORMS: dict[str, str] = {"cpu": "numpy", "numpy": "numpy", "host": "numpy", "cuda": "cupy",
                              "gpu": "cupy", "cupy": "cupy"}
# backends that load on first use: name -> module defining `load() -> Backend`
_LAZY: dict[str, str] = {"cupy": "fgrad.backends.cupy_backend", "fake": "fgrad.testing.fake_device"}
_LOAD_ERRORS: dict[str, str] = {}


def register_backend(backend: Backend, aliases: tuple = ()) -> Backend:
    """Make ``backend`` known: its buffer types dispatch to it and ``get_backend`` finds it
    by name, platform or any alias."""
    _BACKENDS[backend.name] = backend
    _PLATFORMS[backend.name] = backend.name
    _PLATFORMS.setdefault(backend.platform, backend.name)
    for a in aliases:
        _PLATFORMS[a] = backend.name
    for t in backend.array_types:
        _BY_TYPE[t] = backend
    return backend


def unregister_backend(name: str) -> None:
    """Forget a registered backend (its buffers then count as unknown)."""
    be = _BACKENDS.pop(name, None)
    if be is None:
        return
    for t in [t for t, b in _BY_TYPE.items() if b is be]:
        del _BY_TYPE[t]
    for k in [k for k, v in _PLATFORMS.items() if v == name]:
        del _PLATFORMS[k]
    if _DEFAULT[0].backend_name == name:
        _DEFAULT[0] = CPU


def _load(name: str) -> Backend | None:
    be = _BACKENDS.get(name)
    if be is not None:
        return be
    mod = _LAZY.get(name)
    if mod is None or name in _LOAD_ERRORS:
        return None
    try:
        be = importlib.import_module(mod).load()
    except Exception as e:  # noqa: BLE001 - any import/driver failure means "not available"
        _LOAD_ERRORS[name] = f"{type(e).__name__}: {e}"
        return None
    return be


def get_backend(name: str = None) -> Backend:
    """The backend for a name, platform or alias (``"numpy"``/``"cpu"``, ``"cupy"``/
    ``"cuda"``/``"gpu"``); None gives the default device's backend.  Raises
    `BackendUnavailableError` (with the reason) when it cannot be loaded."""
    if name is None:
        return default_device().backend
    if isinstance(name, Backend):
        return name
    key = _PLATFORMS.get(str(name).lower(), str(name).lower())
    be = _load(key)
    if be is None:
        why = _LOAD_ERRORS.get(key, "no such backend")
        known = sorted(set(_PLATFORMS) | set(_LAZY))
        raise BackendUnavailableError(
            f"fgrad backend {name!r} is not available ({why}). Known names: {', '.join(known)}. "
            "For GPUs install the extra: pip install 'fgrad[cuda]' (needs an NVIDIA GPU and driver)."
        )
    return be


def backend_of_buffer(buf) -> Backend:
    """The backend owning a raw buffer (numpy/cupy array); host for scalars and unknowns."""
    be = _BY_TYPE.get(type(buf))
    if be is not None:
        return be
    for b in list(_BACKENDS.values()):
        if b.array_types and isinstance(buf, b.array_types) and b is not NUMPY:
            _BY_TYPE[type(buf)] = b
            return b
    mod = type(buf).__module__.split(".")[0]
    if mod == "cupy":
        be = _load("cupy")
        if be is not None:
            _BY_TYPE[type(buf)] = be
            return be
    return NUMPY


def xp_of(buf):
    """The array module (numpy or cupy) of a buffer."""
    be = _BY_TYPE.get(type(buf))
    return be.xp if be is not None else backend_of_buffer(buf).xp


def backend_of_xp(xp) -> Backend:
    """The backend whose array module is ``xp`` (compiled programs receive ``xp``)."""
    if xp is np:
        return NUMPY
    for be in list(_BACKENDS.values()):
        if be.xp is xp:
            return be
    name = getattr(xp, "__name__", "")
    if name.startswith("cupy"):
        be = _load("cupy")
        if be is not None:
            return be
    raise BackendUnavailableError(f"no fgrad backend has the array module {xp!r}")




# -- creating buffers without losing bits -----------------------------------------------------

def is_negative_zero(value) -> bool:
    """Whether ``value`` is a real floating-point negative zero (``-0.0``).

    Example::

        >>> is_negative_zero(-0.0), is_negative_zero(0.0), is_negative_zero(0)
        (True, False, False)
    """
    if isinstance(value, (float, np.floating)) or (isinstance(value, np.ndarray) and value.ndim == 0
                                                   and value.dtype.kind == "f"):
        return bool(value == 0) and bool(np.signbit(value))
    return False


def zeros_like_shaped(xp, ref, shape: tuple, dtype):
    """Zeros of ``shape`` and ``dtype`` on ``ref``'s device (``xp.zeros_like(ref, shape=...)``).

    cupy's ``*_like(a, shape=())`` returns ``a``'s shape (it tests ``if shape``), so a 0-d
    result is made with one element and viewed as 0-d (a cotangent of a scalar output came
    out with the other output's shape on an H100 and broadcast into a wrong-shaped gradient).

    Example::

        >>> import numpy as np
        >>> zeros_like_shaped(np, np.ones(5), (), np.float32).shape
        ()
    """
    if len(shape) == 0:
        return xp.zeros_like(ref, shape=(1,), dtype=dtype).reshape(())
    return xp.zeros_like(ref, shape=shape, dtype=dtype)


def full(xp, shape, fill_value, dtype=None):
    """``xp.full(shape, fill_value, dtype)`` that keeps a negative zero.

    cupy's ``ndarray.fill`` (used by ``cupy.full``, and by ``cupy.asarray`` of 0-d host
    data) writes zero *bytes* for any value equal to 0, so ``-0.0`` becomes ``+0.0`` there;
    for a ``-0.0`` fill this returns ``-(+0.0)``, which is ``-0.0`` on every backend.

    Example::

        >>> import numpy as np
        >>> np.signbit(full(np, (2,), -0.0))
        array([ True,  True])
    """
    out = xp.full(shape, fill_value, dtype)
    if is_negative_zero(fill_value) and out.dtype.kind == "f":
        out = xp.negative(xp.zeros(out.shape, out.dtype))
    return out


def upload(asarray, arr: np.ndarray):
    """``asarray(arr)`` (a backend's host->device copy) keeping every bit of 0-d arrays:
    cupy copies a 0-d host array with ``fill``, which turns ``-0.0`` into ``+0.0``; a
    one-element 1-d array is copied byte for byte, then viewed as 0-d.

    Example::

        >>> import numpy as np
        >>> np.signbit(upload(np.asarray, np.array(-0.0)))
        np.True_
    """
    if arr.ndim == 0:
        return asarray(arr.reshape(1)).reshape(())
    return asarray(arr)


# -- devices and the default device ------------------------------------------------------------

def parse_device(spec) -> Device:
    """A `Device` from ``"cpu"``, ``"cuda"``, ``"cuda:1"``, ``"gpu"``, a Device, or None
    (the default device)."""
    if spec is None:
        return default_device()
    if isinstance(spec, Device):
        return spec
    if isinstance(spec, Backend):
        return spec.current_device()
    if not isinstance(spec, str):
        # torch-style device objects (``.type``/``.index``) and jax-style (``.platform``/``.id``)
        plat = getattr(spec, "type", None) or getattr(spec, "platform", None)
        if isinstance(plat, str):
            idx = getattr(spec, "index", None)
            if idx is None:
                idx = getattr(spec, "id", None)
            return parse_device(plat if idx is None else f"{plat}:{idx}")
        raise TypeError(f"expected a device ('cpu', 'cuda', 'cuda:0' or an fgrad Device), got {spec!r}")
    s = spec.strip().lower()
    plat, _, idx = s.partition(":")
    be = get_backend(plat)
    devs = be.devices()
    if not devs:
        raise BackendUnavailableError(f"no {plat} device is available on this machine (asked for {spec!r})")
    if not idx:
        return be.current_device()
    try:
        i = int(idx)
    except ValueError:
        raise ValueError(f"bad device string {spec!r}: expected e.g. 'cuda:0'") from None
    for d in devs:
        if d.id == i:
            return d
    raise BackendUnavailableError(
        f"device {spec!r} does not exist: this machine has {', '.join(map(str, devs))}")


def devices(platform: str | None = None) -> list:
    """The devices fgrad can use: the CPU, then each GPU (when cupy and a GPU are present).
    ``platform`` (``"cpu"``, ``"cuda"``) restricts the list; an unavailable platform gives
    an empty list."""
    if platform is not None:
        try:
            return list(get_backend(platform).devices())
        except BackendUnavailableError:
            return []
    out = list(NUMPY.devices())
    names = ["cupy"] + [n for n in _BACKENDS if n not in ("numpy", "cupy")]
    for n in names:
        be = _BACKENDS.get(n) if n != "cupy" else _load("cupy")
        if be is not None and be is not NUMPY:
            try:
                out.extend(be.devices())
            except Exception:  # noqa: BLE001 - a broken driver lists no devices
                pass
    return out


_DEFAULT: list = [CPU]  # the configured default device


class _Local(threading.local):
    device: Device | None = None


_local = _Local()


def default_device() -> Device:
    """The device new arrays are created on (``with fgrad.default_device(...)`` overrides
    the configured one in this thread)."""
    d = _local.device
    return d if d is not None else _DEFAULT[0]


def default_backend() -> Backend:
    d = _local.device
    return _BACKENDS[(d if d is not None else _DEFAULT[0]).backend_name]


def set_default_device(spec) -> Device:
    """Configure the default device (``"cpu"``, ``"cuda"``, ``"cuda:1"``; backend names
    ``"numpy"``/``"cupy"`` work too)."""
    d = parse_device(spec)
    _DEFAULT[0] = d
    return d


class default_device_scope:
    """``with fgrad.default_device("cuda"):`` — create arrays on that device in this block
    (this thread only).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> with fgrad.default_device(fgrad.devices('cpu')[0]):
        ...     x = jnp.ones(2)
        ...
        >>> [d.platform for d in x.devices()]
        ['cpu']
    """

    def __init__(self, spec) -> None:
        self.device = parse_device(spec)

    def __enter__(self) -> Device:
        self.saved = _local.device
        _local.device = self.device
        return self.device

    def __exit__(self, *exc) -> None:
        _local.device = self.saved


def _init_from_env() -> None:
    spec = os.environ.get("FGRAD_BACKEND", "").strip()
    if not spec:
        return
    try:
        set_default_device(spec)
    except (BackendUnavailableError, ValueError, TypeError) as e:
        warnings.warn(f"FGRAD_BACKEND={spec!r} ignored, using the CPU: {e}", RuntimeWarning, stacklevel=2)


# -- moving data (explicit) -------------------------------------------------------------------

def put_buffer(buf, device: Device):
    """``buf`` (any backend's buffer, or host data) on ``device``: the one explicit transfer."""
    src = backend_of_buffer(buf) if hasattr(buf, "shape") else NUMPY
    dst = _BACKENDS.get(device.backend_name) or get_backend(device.backend_name)
    if transfer_guard.active:
        _guard_put(buf, src, dst, device)
    if src is dst:
        return dst.put(buf, device)
    host = src.to_host(buf) if src is not NUMPY else np.asarray(buf)
    return dst.from_host(host, device)


def _guard_put(buf, src: Backend, dst: Backend, device: Device) -> None:
    """The transfer guard of a `put_buffer` (an explicit transfer: only the ``*_explicit``
    levels act, and the implicit levels when `put_buffer` is reached implicitly)."""
    here = src.device_of(buf) if src is not NUMPY else NUMPY._cpu
    if here == device:
        return
    what = f"{getattr(buf, 'dtype', '')}{list(getattr(buf, 'shape', ()))} from {here} to {device}"
    if src is NUMPY:
        transfer_guard.check("host_to_device", what)
    elif dst is NUMPY:
        transfer_guard.check("device_to_host", what)
    else:
        transfer_guard.check("device_to_device", what)


def to_host(buf) -> np.ndarray:
    """A NumPy view (host buffers) or copy (device buffers) of any buffer."""
    be = _BY_TYPE.get(type(buf))
    if be is NUMPY:
        return buf if type(buf) is np.ndarray else np.asarray(buf)
    if be is None:
        be = backend_of_buffer(buf)
    return be.to_host(buf)


def mismatch_error(what: str, placed) -> DeviceMismatchError:
    """The error for operands on different devices.  ``placed``: [(label, aval-ish, Device)]."""
    devs = []
    for _, _, d in placed:
        if d not in devs:
            devs.append(d)
    parts = ", ".join(f"{label} ({av}) on {d}" for label, av, d in placed)
    a, b = devs[0], devs[1]
    return DeviceMismatchError(
        f"`{what}` got operands on different devices: {parts}. fgrad never moves arrays "
        f"between devices implicitly; move one explicitly first: `fgrad.device_put(arr, {str(a)!r})` "
        f"for the operand on {b}, or `fgrad.device_put(arr, {str(b)!r})` for the one on {a}."
    )


__all__ = [
    "Backend", "BackendUnavailableError", "CPU", "Device", "DeviceMismatchError", "NUMPY",
    "NumpyBackend", "backend_of", "backend_of_buffer", "backend_of_xp", "default_backend",
    "default_device", "default_device_scope", "devices", "full", "get_backend",
    "is_negative_zero", "mismatch_error", "parse_device", "put_buffer", "register_backend",
    "set_default_device", "to_host", "unregister_backend", "upload", "xp_of",
]
