"""``torch.cuda``: the CUDA device of the shim (tensors over CuPy buffers).

Without CuPy or a GPU, `is_available` is False, `device_count` is 0, queries that need a
device raise PyTorch's "Torch not compiled with CUDA enabled", and seeding is a no-op (as a
CPU-only PyTorch).  See `fgrad.torch._device` for how the backend is found.

Example::

    >>> import fgrad.torch as torch
    >>> dev = "cuda" if torch.cuda.is_available() else "cpu"
    >>> x = torch.ones(3, device=dev)
    >>> torch.cuda.synchronize() if torch.cuda.is_available() else None
"""

from __future__ import annotations

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from ._tensor import device as _device
from ._random import cuda_generator as _cuda_generator
from ._tensor import LegacyTypeMeta as _LegacyTypeMeta, legacy_new as _legacy_new, _wrap
from ._tensor import check_device as _check_device, to_device_buf as _to_device_buf
from ._tensor import Tensor as _Tensor
from collections.abc import Iterable as _Iterable
from fgrad.torch.types import Device as _Device
from typing import Any as _Any


class OutOfMemoryError(RuntimeError):
    """Raised when a device allocation fails (``torch.OutOfMemoryError``,
    ``torch.cuda.OutOfMemoryError``): programs catch it to retry with a smaller batch.

    Example::

        >>> import fgrad.torch as torch
        >>> issubclass(torch.cuda.OutOfMemoryError, RuntimeError)
        True
    """


def is_available() -> bool:
    return _dev.is_available()


def device_count() -> int:
    be = _dev.backend()
    return 0 if be is None else be.count


def is_initialized() -> bool:
    return _dev.backend() is not None


def init() -> None:
    _dev.require()


def current_device() -> int:
    _dev.require()
    return _dev.default_index() or 0 if _state["current"] is None else _state["current"]


_state = {"current": None}


def set_device(device: _Device | str | int) -> None:

    d = device if isinstance(device, _device) else _device(device) if not isinstance(device, int) else None
    idx = device if isinstance(device, int) else (d.index or 0)
    _dev.require(idx)
    _state["current"] = idx


class device:
    """``with torch.cuda.device(0): ...``"""

    def __init__(self, device: _Any) -> None:
        self.idx = device if isinstance(device, int) else (getattr(device, "index", None) or 0)
        self.prev = None

    def __enter__(self):
        self.prev = _state["current"]
        set_device(self.idx)
        return self

    def __exit__(self, *exc) -> None:
        _state["current"] = self.prev


def synchronize(device: _Device = None) -> None:
    """Wait for all work on the device to finish."""
    _dev.require().synchronize()


def get_device_name(device: _Device = None) -> str:
    return _dev.require().device_name


def get_device_capability(device: _Device = None) -> tuple:
    be = _dev.require()
    try:
        d = be.xp.cuda.Device(0 if device is None else int(getattr(device, "index", device) or 0))
        cc = str(d.compute_capability)
        return int(cc[:-1]), int(cc[-1])
    except Exception:  # noqa: BLE001 -- the fake device has no compute capability
        return (0, 0)


def empty_cache() -> None:
    be = _dev.backend()
    if be is not None and hasattr(be.xp, "get_default_memory_pool"):
        be.xp.get_default_memory_pool().free_all_blocks()


def memory_allocated(device: _Device = None) -> int:
    be = _dev.backend()
    return 0 if be is None else be.memory_allocated()


_peak = [0]


def max_memory_allocated(device: _Device = None) -> int:
    _peak[0] = max(_peak[0], memory_allocated(device))
    return _peak[0]


def memory_reserved(device: _Device = None) -> int:
    be = _dev.backend()
    if be is not None and hasattr(be.xp, "get_default_memory_pool"):
        return int(be.xp.get_default_memory_pool().total_bytes())
    return memory_allocated(device)


def reset_peak_memory_stats(device: _Device = None) -> None:
    _peak[0] = 0


# -- random numbers: one generator per device, seeded by torch.manual_seed too ----------


def _gen(index=None):

    return _cuda_generator(current_device() if index is None else index)


def manual_seed(seed: int) -> None:
    if _dev.is_available():
        _gen().manual_seed(seed)


def manual_seed_all(seed: int) -> None:
    if _dev.is_available():
        for i in range(device_count()):
            _gen(i).manual_seed(seed)


def seed() -> None:
    if _dev.is_available():
        _gen().seed()


def seed_all() -> None:
    if _dev.is_available():
        for i in range(device_count()):
            _gen(i).seed()


def initial_seed() -> int:
    return _gen().initial_seed()


def get_rng_state(device: int | str | _Device = "cuda") -> _Tensor:
    return _gen().get_state()


def set_rng_state(new_state: _Tensor, device: int | str | _Device = "cuda") -> None:
    _gen().set_state(new_state)


def get_rng_state_all() -> list:
    return [_gen(i).get_state() for i in range(device_count())]


def set_rng_state_all(new_states: _Iterable[_Tensor]) -> None:
    for i, s in enumerate(new_states):
        _gen(i).set_state(s)


# -- legacy CUDA tensor types (torch.cuda.FloatTensor(...)) ------------------------------


def _legacy_cuda_type(dt):

    class _Meta(_LegacyTypeMeta):
        def __instancecheck__(cls, inst) -> bool:

            return isinstance(inst, _Tensor) and inst._buf.dtype == cls._dtype.np and inst.is_cuda

        def __call__(cls, *args, device=None):
            idx = _check_device("cuda" if device is None else device)
            buf = _legacy_new(args, cls._dtype)
            if not isinstance(buf, (list, tuple)) and hasattr(buf, "_buf"):
                return buf.cuda(idx)
            return _wrap(_to_device_buf(buf, idx))

        def __repr__(cls) -> str:
            return f"<class 'torch.cuda.{cls.__name__}'>"

    return _Meta(dt._legacy + "Tensor", (), {"_dtype": dt})


FloatTensor = _legacy_cuda_type(D.float32)
DoubleTensor = _legacy_cuda_type(D.float64)
HalfTensor = _legacy_cuda_type(D.float16)
LongTensor = _legacy_cuda_type(D.int64)
IntTensor = _legacy_cuda_type(D.int32)
ShortTensor = _legacy_cuda_type(D.int16)
CharTensor = _legacy_cuda_type(D.int8)
ByteTensor = _legacy_cuda_type(D.uint8)
BoolTensor = _legacy_cuda_type(D.bool_)


# -- streams and events (the default stream only) ----------------------------------------


class Stream:
    """The default stream: work is ordered; ``synchronize`` waits for the device."""

    def __init__(self, device: _Device = None, priority: int = 0) -> None:
        self.device = device

    def synchronize(self) -> None:
        synchronize()

    def wait_stream(self, stream: _Any) -> None:
        pass

    def query(self) -> bool:
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass


def current_stream(device: _Device = None) -> Stream:
    return Stream(device)


def default_stream(device: _Device = None) -> Stream:
    return Stream(device)


def stream(stream: _Any) -> _Any:
    return stream if stream is not None else Stream()


class Event:
    """A timing event (``record`` / ``elapsed_time`` in milliseconds)."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False,
                 interprocess: bool = False) -> None:
        self._t = None

    def record(self, stream: _Any = None) -> None:
        import time

        if _dev.is_available():
            synchronize()
        self._t = time.perf_counter()

    def synchronize(self) -> None:
        if _dev.is_available():
            synchronize()

    def query(self) -> bool:
        return True

    def elapsed_time(self, end_event: _Any) -> float:
        return (end_event._t - self._t) * 1000.0
