"""Storages: the flat memory under tensors.

A tensor's buffer is a view into a flat 1-D array (its storage): NumPy on the CPU, the CUDA
backend's arrays (CuPy) on ``cuda``, with strides and offset counted in elements as in
PyTorch.  `UntypedStorage` is the byte-level view
(``tensor.untyped_storage()``); `TypedStorage` (``tensor.storage()``, deprecated in
PyTorch) sees the same memory as elements of the tensor's dtype.  Tensors made from the
same storage (views, ``Tensor(storage)``, ``from_numpy``) share memory.
"""

from __future__ import annotations

from typing import Any

import warnings
import weakref

import numpy as np

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D

# the annotations' Device and DType live in fgrad.torch.types, above this module (it imports
# _tensor, which imports this module); types binds the real ones here when it loads
from ._device import DEV as _DEV

Device: object = "Device"
DType: object = "DType"


class VersionCounter:
    """A version counter, shared by a tensor and its views; bumped by in-place ops."""

    __slots__ = ("v", "_w")

    def __init__(self) -> None:
        self.v = 0


_SLOT_V = VersionCounter.v


class WatchedVersionCounter(VersionCounter):
    """A `VersionCounter` that calls its watchers after each bump (`watch`): a conjugate view
    (``Tensor.conj()``), which holds its own values, re-reads them when its base is written.
    Only counters with a watcher pay for the call."""

    __slots__ = ()

    @property
    def v(self) -> int:
        return _SLOT_V.__get__(self, VersionCounter)

    @v.setter
    def v(self, value: int) -> None:
        _SLOT_V.__set__(self, value)
        for entry in tuple(self._w):
            obj = entry[0]()
            if obj is None:
                self._w.remove(entry)
            else:
                entry[1](obj)


def watch(vc: VersionCounter, obj: Any, on_write: Any) -> None:
    """Call ``on_write(obj)`` after every bump of ``vc`` while ``obj`` is alive (``vc`` becomes
    a `WatchedVersionCounter`).

    Example::

        >>> seen = []
        >>> class Obj: pass
        >>> vc, o = VersionCounter(), Obj()
        >>> watch(vc, o, lambda obj: seen.append(obj is o))
        >>> vc.v += 1
        >>> seen, vc.v
        ([True], 1)
    """
    if type(vc) is VersionCounter:
        vc._w = []
        vc.__class__ = WatchedVersionCounter
    vc._w.append((weakref.ref(obj), on_write))


_data_ptr = _dev.data_ptr

_INDEX_LIMIT = 1 << 63


def check_view(size: tuple, stride: tuple, offset: int, storage_numel: int, itemsize: int,
               op: str = "as_strided") -> None:
    """Raise RuntimeError unless a view with ``size``/``stride``/``offset`` (in elements) fits
    in a storage of ``storage_numel`` elements: sizes, strides and offset non-negative, and
    the furthest element it can reach, ``offset + sum((size - 1) * stride)``, inside the
    storage (a view with a zero size reaches nothing).  Arithmetic only: O(ndim).

    Example::

        >>> check_view((2, 3), (3, 1), 0, 6, 4)
        >>> check_view((2, 3), (3, 1), 1, 6, 4)
        Traceback (most recent call last):
        RuntimeError: setStorage: sizes [2, 3], strides [3, 1], storage offset 1, and itemsize 4 ...
    """
    if len(size) != len(stride):
        raise RuntimeError(f"{op}: mismatch in length of strides and shape (sizes {list(size)}, strides "
                           f"{list(stride)})")
    if any(s < 0 for s in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {list(size)}")
    if any(k < 0 for k in stride):
        raise RuntimeError(
            f"{op}: Negative strides are not supported at the moment, got strides: {list(stride)}"
        )
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    numel = 1
    for s in size:
        numel *= s
    if numel >= _INDEX_LIMIT or any(k >= _INDEX_LIMIT for k in stride) or offset >= _INDEX_LIMIT:
        raise RuntimeError(f"{op}: Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    need = offset + sum((s - 1) * k for s, k in zip(size, stride, strict=True)) + 1 if numel else 0
    if need > storage_numel:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and itemsize "
            f"{itemsize} requiring a storage size of {need * itemsize} are out of bounds for storage of size "
            f"{storage_numel * itemsize}")


def flat_of(buf: np.ndarray) -> np.ndarray:
    """A flat 1-D array covering the memory of ``buf`` (which must have non-negative strides),
    starting at ``buf``'s first element (on ``buf``'s device)."""
    if buf.flags.c_contiguous:
        return buf.reshape(-1)
    if buf.size == 0:
        return _dev.xp_of(buf).empty(0, buf.dtype)
    item = buf.itemsize
    span = 1 + sum((s - 1) * (st // item) for s, st in zip(buf.shape, buf.strides, strict=False))
    return _dev.as_strided(buf, (span,), (item,), writeable=_dev.writeable(buf))


def _device_of(flat):
    from ._tensor import device_of_buf

    return device_of_buf(flat)


def _zeros(n, dtype, device=None):
    """A zero-filled flat array on ``device`` (None / 'cpu': the host)."""
    from ._tensor import check_device

    idx = check_device(device)
    if idx is None:
        return np.zeros(n, dtype)
    return _dev.to_dev(np.zeros(n, dtype), idx)


def _moved(flat, index):
    from ._tensor import to_device_buf

    return to_device_buf(flat, index)


def _item(v):
    return v.tolist() if getattr(v, "ndim", 0) else v.item()


def _assign(dst, src) -> None:
    """``dst[...] = src`` across devices (a storage copy is an explicit transfer)."""
    if (type(dst) in _DEV) != (type(src) in _DEV):
        src = _dev.to_dev(src, _dev.index_of(dst)) if type(dst) in _DEV else _dev.to_host(src)
    dst[...] = src


class UntypedStorage:
    """Byte-addressed storage (``tensor.untyped_storage()``).

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.tensor([1.0, 2.0]).untyped_storage()
        >>> s.nbytes(), s.device
        (8, device(type='cpu'))
    """

    __slots__ = ("_flat", "__weakref__")

    def __init__(self, size_or_flat: Any = 0, *, device: Device = None) -> None:
        if isinstance(size_or_flat, np.ndarray) or type(size_or_flat) in _DEV:
            self._flat = size_or_flat
        else:
            self._flat = _zeros(int(size_or_flat), np.uint8, device)

    @property
    def _bytes(self) -> np.ndarray:
        f = self._flat
        return f if f.dtype == np.uint8 else f.view(np.uint8)

    @property
    def device(self) -> Any:
        return _device_of(self._flat)

    @property
    def is_cuda(self) -> bool:
        return type(self._flat) in _DEV

    def nbytes(self) -> int:
        return int(self._flat.nbytes)

    def size(self) -> int:
        return self.nbytes()

    def __len__(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        return 1

    def data_ptr(self) -> int:
        return _data_ptr(self._flat)

    def __getitem__(self, idx):
        v = self._bytes[idx]
        return v.tolist() if getattr(v, "ndim", 0) else int(v)

    def __setitem__(self, idx, value) -> None:
        self._bytes[idx] = value

    def tolist(self) -> list:
        return self._bytes.tolist()

    def __iter__(self):
        return iter(self.tolist())

    def fill_(self, value: int | float | bool) -> Any:
        self._bytes[...] = value
        return self

    def copy_(self, source: Any, non_blocking: bool | None = None) -> Any:
        _assign(self._bytes, source._bytes)
        return self

    def clone(self) -> "UntypedStorage":
        return UntypedStorage(self._flat.copy())

    def cpu(self) -> Any:
        return self if type(self._flat) not in _DEV else UntypedStorage(_moved(self._bytes, None))

    def cuda(self, device: Device = None, non_blocking: bool = False) -> Any:
        from ._tensor import check_device

        idx = check_device("cuda" if device is None else device)
        return UntypedStorage(_moved(self._bytes, idx))

    def resize_(self, nbytes: int) -> Any:
        new = _dev.xp_of(self._flat).zeros(int(nbytes), np.uint8)
        n = min(int(nbytes), self.nbytes())
        new[:n] = self._bytes[:n]
        self._flat = new
        return self

    def __repr__(self) -> str:
        data = " " + "\n ".join(str(v) for v in self.tolist())
        info = f"[torch.storage.UntypedStorage(device={self.device}) of size {len(self)}]"
        return (data + "\n" + info) if len(self) else info

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, UntypedStorage)
            and self.data_ptr() == other.data_ptr()
            and self.nbytes() == other.nbytes()
        )

    __hash__ = object.__hash__


_warned = [False]


def warn_typed() -> None:
    if not _warned[0]:
        _warned[0] = True
        warnings.warn(
            "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
            "the only storage class. This should only matter to you if you are using storages "
            "directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead "
            "of tensor.storage()",
            UserWarning,
            stacklevel=3,
        )


class TypedStorage:
    """Element-typed storage (``tensor.storage()``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.TypedStorage([1.0, 2.0], dtype=torch.float32).tolist()
        [1.0, 2.0]
    """

    __slots__ = ("_flat", "dtype", "__weakref__")

    def __init__(self, flat_or_size: Any = 0, dtype: DType | None = None, *, device: Device = None) -> None:
        if isinstance(flat_or_size, np.ndarray) or type(flat_or_size) in _DEV:
            self._flat = flat_or_size
            self.dtype = D.from_np(flat_or_size.dtype) if dtype is None else dtype
        else:
            self.dtype = D.get_default_dtype() if dtype is None else D.canonical(dtype)
            if isinstance(flat_or_size, (list, tuple)):
                from ._tensor import check_device

                flat = np.array(flat_or_size, self.dtype.np).reshape(-1)
                self._flat = _moved(flat, check_device(device))
            else:
                self._flat = _zeros(int(flat_or_size), self.dtype.np, device)

    @property
    def device(self) -> Any:
        return _device_of(self._flat)

    @property
    def is_cuda(self) -> bool:
        return type(self._flat) in _DEV

    def size(self) -> int:
        return int(self._flat.shape[0])

    def __len__(self) -> int:
        return self.size()

    def element_size(self) -> int:
        return self._flat.itemsize

    def nbytes(self) -> int:
        return int(self._flat.nbytes)

    def data_ptr(self) -> int:
        return _data_ptr(self._flat)

    def untyped(self) -> UntypedStorage:
        return UntypedStorage(self._flat)

    _untyped_storage = property(untyped)

    def __getitem__(self, idx):
        if isinstance(idx, int) and not -self.size() <= idx < self.size():
            raise IndexError(f"index {idx} out of range for storage of size {self.size()}")
        return _item(self._flat[idx])

    def __setitem__(self, idx, value) -> None:
        from ._tensor import Tensor

        if isinstance(value, Tensor):
            value = value._buf
            if (type(value) in _DEV) != (type(self._flat) in _DEV):
                raise _dev.same_device_error()
        self._flat[idx] = value

    def tolist(self) -> list:
        return self._flat.tolist()

    def __iter__(self):
        return iter(self.tolist())

    def fill_(self, value: int | float | bool) -> Any:
        self._flat[...] = value
        return self

    def copy_(self, source: Any, non_blocking: bool | None = None) -> Any:
        _assign(self._flat, source._flat)
        return self

    def clone(self) -> "TypedStorage":
        return TypedStorage(self._flat.copy())

    def cpu(self) -> Any:
        return self if type(self._flat) not in _DEV else TypedStorage(_moved(self._flat, None), self.dtype)

    def cuda(self, device: Device = None, non_blocking: bool = False) -> Any:
        from ._tensor import check_device

        idx = check_device("cuda" if device is None else device)
        return TypedStorage(_moved(self._flat, idx), self.dtype)

    def resize_(self, size: int) -> Any:
        new = _dev.xp_of(self._flat).zeros(int(size), self._flat.dtype)
        n = min(int(size), self.size())
        new[:n] = self._flat[:n]
        self._flat = new
        return self

    def __str__(self) -> str:
        warn_typed()
        info = f"[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size {len(self)}]"
        if not len(self):
            return " \n" + info
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info

    __repr__ = __str__

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, TypedStorage)
            and self.data_ptr() == other.data_ptr()
            and self.size() == other.size()
            and self.dtype is other.dtype
        )

    __hash__ = object.__hash__

    def tensor(self) -> Any:
        from ._tensor import from_storage as _from_storage

        return _from_storage(self)


def _legacy_storage(dt):
    class _S(TypedStorage):
        __slots__ = ()

        def __init__(self, size_or_data: Any = 0) -> None:
            super().__init__(size_or_data, dt)

    _S.__name__ = _S.__qualname__ = dt._legacy + "Storage"
    _S.__doc__ = f"""PyTorch's legacy `TypedStorage` of ``{dt}`` (deprecated there too), made from data
    or a size.

    Example::

        >>> import fgrad.torch as torch
        >>> s = torch.{_S.__name__}([1, 0])
        >>> s.dtype, s.size()
        ({dt}, 2)
    """
    return _S


FloatStorage = _legacy_storage(D.float32)
DoubleStorage = _legacy_storage(D.float64)
HalfStorage = _legacy_storage(D.float16)
LongStorage = _legacy_storage(D.int64)
IntStorage = _legacy_storage(D.int32)
ShortStorage = _legacy_storage(D.int16)
CharStorage = _legacy_storage(D.int8)
ByteStorage = _legacy_storage(D.uint8)
BoolStorage = _legacy_storage(D.bool_)


def stride_order(buf) -> tuple[int, ...]:
    """The axes of ``buf`` from the slowest to the fastest in memory (size-1 axes first): the
    order PyTorch's CPU kernels visit a non-contiguous tensor's elements in.

    Example::

        >>> import numpy as np
        >>> stride_order(np.zeros((2, 3)).T)
        (1, 0)
    """
    shape, strides = buf.shape, buf.strides
    return tuple(sorted(range(len(shape)), key=lambda a: (-abs(strides[a]) if shape[a] != 1 else 0, a)))


def memory_order(buf) -> tuple | None:
    """`stride_order` of ``buf`` when its layout is dense and non-overlapping but not
    C-contiguous (a transposed or permuted tensor), else None.  PyTorch's CPU kernels draw the
    random numbers of such a tensor in memory order, and ``empty_like`` (dropout's noise) keeps
    the layout.

    Example::

        >>> import numpy as np
        >>> memory_order(np.zeros((2, 3)).T), memory_order(np.zeros((2, 3)))
        ((1, 0), None)
    """
    shape, strides = buf.shape, buf.strides
    if buf.flags.c_contiguous or 0 in shape:
        return None
    order = stride_order(buf)
    expect = buf.itemsize
    for a in reversed(order):  # dense and non-overlapping: each stride is the size of the faster axes
        if shape[a] != 1:
            if strides[a] != expect:
                return None
            expect *= shape[a]
    return order
