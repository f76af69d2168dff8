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
    """Whether a CUDA device can be used (through CuPy; the fake device counts).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.cuda.is_available(), bool)
        True
    """
    return _dev.is_available()


def device_count() -> int:
    """How many CUDA devices there are (0 without CuPy or a GPU).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.device_count() >= 0
        True
    """
    be = _dev.backend()
    return 0 if be is None else be.count


def is_initialized() -> bool:
    """Whether the CUDA backend has been found and set up.

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.cuda.is_initialized(), bool)
        True
    """
    return _dev.backend() is not None


def init() -> None:
    """Set up the CUDA backend (RuntimeError, as a CPU-only PyTorch, without one).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.init() if torch.cuda.is_available() else None
    """
    _dev.require()


def current_device() -> int:
    """The index of the current CUDA device (RuntimeError without one).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.current_device() if torch.cuda.is_available() else 0
        0
    """
    _dev.require()
    return _dev.default_index() or 0 if _state["current"] is None else _state["current"]


_state = {"current": None}


def set_device(device: _Device | str | int) -> None:

    """Make ``device`` (an index, ``'cuda:i'`` or a device) the current CUDA device.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.set_device(0) if torch.cuda.is_available() else None
    """
    d = device if isinstance(device, _device) else _device(device) if not isinstance(device, int) else None
    idx = device if isinstance(device, int) else (d.index or 0)
    _dev.require(idx)
    _state["current"] = idx


class device:
    """``with torch.cuda.device(0): ...``

    Example::

        >>> import fgrad.torch as torch
        >>> callable(torch.cuda.device)
        True
    """

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
    """Wait for all work on the device to finish.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.synchronize() if torch.cuda.is_available() else None
    """
    _dev.require().synchronize()


def get_device_name(device: _Device = None) -> str:
    """The name of the CUDA device (RuntimeError without one).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.cuda.get_device_name(), str) if torch.cuda.is_available() else True
        True
    """
    return _dev.require().device_name


def get_device_capability(device: _Device = None) -> tuple:
    """The device's compute capability ``(major, minor)`` (``(0, 0)`` on the fake device).

    Example::

        >>> import fgrad.torch as torch
        >>> len(torch.cuda.get_device_capability()) if torch.cuda.is_available() else 2
        2
    """
    be = _dev.require()
    try:
        d = be.xp.cuda.Device(0 if device is None else int(getattr(device, "index", device) or 0))
        cc = str(d.compute_capability)
        return int(cc[:-1]), int(cc[-1])
    except Exception:  # noqa: BLE001 -- the fake device has no compute capability
        return (0, 0)


def empty_cache() -> None:
    """Release the cached blocks of CuPy's memory pool (nothing without CUDA).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.empty_cache()
    """
    be = _dev.backend()
    if be is not None and hasattr(be.xp, "get_default_memory_pool"):
        be.xp.get_default_memory_pool().free_all_blocks()


def memory_allocated(device: _Device = None) -> int:
    """Bytes held by tensors on the device (0 without CUDA).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.memory_allocated() >= 0
        True
    """
    be = _dev.backend()
    return 0 if be is None else be.memory_allocated()


_peak = [0]


def max_memory_allocated(device: _Device = None) -> int:
    """The largest `memory_allocated` seen since `reset_peak_memory_stats`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.max_memory_allocated() >= 0
        True
    """
    _peak[0] = max(_peak[0], memory_allocated(device))
    return _peak[0]


def memory_reserved(device: _Device = None) -> int:
    """Bytes reserved by the memory pool (at least `memory_allocated`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.memory_reserved() >= torch.cuda.memory_allocated()
        True
    """
    be = _dev.backend()
    if be is not None and hasattr(be.xp, "get_default_memory_pool"):
        return int(be.xp.get_default_memory_pool().total_bytes())
    return memory_allocated(device)


def reset_peak_memory_stats(device: _Device = None) -> None:
    """Start `max_memory_allocated` again from the current allocation.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.reset_peak_memory_stats() if torch.cuda.is_available() else None
    """
    _peak[0] = 0


# -- random numbers: one generator per device, seeded by torch.manual_seed too ----------


def _gen(index=None):

    return _cuda_generator(current_device() if index is None else index)


def manual_seed(seed: int) -> None:
    """Seed the current CUDA device's generator (a no-op without CUDA).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.manual_seed(0)
    """
    if _dev.is_available():
        _gen().manual_seed(seed)


def manual_seed_all(seed: int) -> None:
    """Seed every CUDA device's generator (a no-op without CUDA).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.manual_seed_all(0)
    """
    if _dev.is_available():
        for i in range(device_count()):
            _gen(i).manual_seed(seed)


def seed() -> None:
    """Seed the current CUDA generator from a random number (a no-op without CUDA).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.seed()
    """
    if _dev.is_available():
        _gen().seed()


def seed_all() -> None:
    """Seed every CUDA generator from a random number (a no-op without CUDA).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.seed_all()
    """
    if _dev.is_available():
        for i in range(device_count()):
            _gen(i).seed()


def initial_seed() -> int:
    """The seed of the current CUDA device's generator (RuntimeError without CUDA).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.cuda.initial_seed(), int) if torch.cuda.is_available() else True
        True
    """
    return _gen().initial_seed()


def get_rng_state(device: int | str | _Device = "cuda") -> _Tensor:
    """The current CUDA generator's state as a uint8 tensor (RuntimeError without CUDA).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.get_rng_state().dtype if torch.cuda.is_available() else torch.uint8
        torch.uint8
    """
    return _gen().get_state()


def set_rng_state(new_state: _Tensor, device: int | str | _Device = "cuda") -> None:
    """Restore the current CUDA generator's state from `get_rng_state`'s tensor.

    Example::

        >>> import fgrad.torch as torch
        >>> if torch.cuda.is_available():
        ...     torch.cuda.set_rng_state(torch.cuda.get_rng_state())
        ...
    """
    _gen().set_state(new_state)


def get_rng_state_all() -> list:
    """Every CUDA device's generator state (an empty list without CUDA).

    Example::

        >>> import fgrad.torch as torch
        >>> len(torch.cuda.get_rng_state_all()) == torch.cuda.device_count()
        True
    """
    return [_gen(i).get_state() for i in range(device_count())]


def set_rng_state_all(new_states: _Iterable[_Tensor]) -> None:
    """Restore every CUDA device's generator state from `get_rng_state_all`'s list.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.set_rng_state_all(torch.cuda.get_rng_state_all())
    """
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

    name = dt._legacy + "Tensor"
    doc = (f"PyTorch's legacy CUDA tensor type ``torch.cuda.{name}``: ``torch.cuda.{name}(data)`` makes a "
           "tensor of its dtype on the current CUDA device; ``isinstance`` checks dtype and device.\n\n"
           "Example::\n\n"
           "    >>> import fgrad.torch as torch\n"
           f"    >>> torch.cuda.{name}\n"
           f"    <class 'torch.cuda.{name}'>\n"
           f"    >>> isinstance(torch.zeros(2), torch.cuda.{name})  # a CPU tensor\n"
           "    False\n")
    return _Meta(name, (), {"_dtype": dt, "__doc__": doc})


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
    """The default stream: work is ordered; ``synchronize`` waits for the device.

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.cuda.Stream() if torch.cuda.is_available() else None
        >>> s is None or s.query()
        True
    """

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
    """The current stream of ``device`` (fgrad.torch has the default stream only).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.current_stream().query() if torch.cuda.is_available() else True
        True
    """
    return Stream(device)


def default_stream(device: _Device = None) -> Stream:
    """The default stream of ``device``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cuda.default_stream().query() if torch.cuda.is_available() else True
        True
    """
    return Stream(device)


def stream(stream: _Any) -> _Any:
    """``with torch.cuda.stream(s):`` runs the block on ``s`` (the default stream here).

    Example::

        >>> import fgrad.torch as torch
        >>> callable(torch.cuda.stream)
        True
    """
    return stream if stream is not None else Stream()


class Event:
    """A timing event (``record`` / ``elapsed_time`` in milliseconds).

    Example::

        >>> import fgrad.torch as torch
        >>> if torch.cuda.is_available():
        ...     start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        ...     start.record(); end.record(); assert start.elapsed_time(end) >= 0
        ...
    """

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
