"""Tensor creation: ``tensor``, ``from_numpy``, ``zeros``/``ones``/``full``/``empty``/``eye``/
``arange``/``linspace``... and their ``*_like`` and ``new_*`` forms."""

from __future__ import annotations

import builtins
import math
import warnings

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind, finfo as _narrow_finfo

from ..core.quiet import quiet
import fgrad.torch._dtypes as D
import fgrad.torch._device as _dev
from ._device import DEV as _DEV
from ._storage import check_view, memory_order as _memory_order
from . import _meta
from ._tensor import (
    Size, Tensor, concrete_buf as _concrete_buf, to_nested as _to_nested, _wrap, check_device, to_device_buf,
)
from ..ops import elementwise as ew
from ..core.array import ArrayImpl
from ._dlpack import from_dlpack
from ._cpu_rng import _fma64
from collections.abc import Sequence
from fgrad.torch.types import (Device, DType, Layout, memory_format, Number, SizeLike,
                               TensorOrScalar)
from typing import Any

_nd = np.ndarray


def _finish(buf, requires_grad=False, out=None, index=None) -> Tensor:
    """A new tensor over ``buf`` (a host array), moved to CUDA device ``index`` (None: stays
    on the host), or written into ``out`` (on ``out``'s device).  A NumPy scalar (what a ufunc
    on 0-d arrays returns: a random draw of a 0-d shape) becomes a 0-d array: a tensor's
    buffer is always an array."""
    if isinstance(buf, np.generic):
        buf = np.asarray(buf)
    if out is not None:
        from ._dispatch import write_out

        ob = out._buf
        if type(ob) in _DEV:
            buf = _dev.to_dev(buf, _dev.index_of(ob))
        return write_out(out, _wrap(buf), "creation")
    if index is not None:
        buf = _dev.to_dev(buf, index)
    t = _wrap(buf)
    if requires_grad:
        if _dtype_kind(buf.dtype) not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._rg = True
    return t


_FLOAT_MAX: dict = {}  # dtype -> its largest finite value (`check_fill_value`'s bound)


def check_fill_value(value: Any, dtype: np.dtype, name: str) -> Any:
    """PyTorch refuses a finite fill value beyond a floating dtype's range (``full``,
    ``fill_``, ``scalar_tensor``) instead of storing inf; ``tensor(...)`` and arithmetic
    overflow to inf silently.  An integer dtype refuses a Python int outside its range
    (``uint8`` takes -255..255: a negative value wraps, as c10's ``overflows`` allows), with
    PyTorch's text.  Returns the value to store (a negative int wrapped into an unsigned
    dtype)."""
    kind = _dtype_kind(dtype)
    if kind in "iu" and isinstance(value, int) and not isinstance(value, bool):
        info = np.iinfo(dtype)
        if value > info.max or (value < info.min if kind == "i" else -value > info.max):
            raise RuntimeError(f"value cannot be converted to type {np.dtype(dtype).name}_t without overflow")
        return value % (info.max + 1) if value < 0 and kind == "u" else value
    if kind == "f" and isinstance(value, (int, float)) and not isinstance(value, bool):
        v = float(value)
        top = _FLOAT_MAX.get(dtype)
        if top is None:
            top = _FLOAT_MAX[dtype] = float(_narrow_finfo(dtype).max)
        if math.isfinite(v) and builtins.abs(v) > top:
            raise RuntimeError(
                f"{name}: value cannot be converted to type {np.dtype(dtype).name} without overflow "
                f"(got {value!r}; the largest finite {np.dtype(dtype).name} is {_narrow_finfo(dtype).max}). "
                f"Use a wider dtype or pass float('inf') explicitly."
            )
    return value


_INT64 = np.dtype(np.int64)
_NUMBER_TYPES = frozenset((bool, int, float, builtins.complex))


def _infer_np_dtype(data) -> np.dtype:
    """PyTorch's dtype inference for ``torch.tensor(data)``."""
    kind = type(data)
    if kind is float:  # (a Python number first: `full`'s fill value, `scalar_tensor`)
        return D.DEFAULT.float.np
    if kind is int:
        return _INT64
    if isinstance(data, Tensor):
        return data._buf.dtype
    if isinstance(data, np.ndarray):
        return data.dtype
    if isinstance(data, np.generic):
        return data.dtype
    if isinstance(data, bool):
        return np.dtype(np.bool_)
    if isinstance(data, int):
        return np.dtype(np.int64)
    if isinstance(data, float):
        return D.DEFAULT.float.np
    if isinstance(data, builtins.complex):
        return D.DEFAULT.complex.np
    if type(data) in (list, tuple):  # a flat sequence of Python numbers: the kinds from its types
        types = set(map(type, data))
        if types and types <= _NUMBER_TYPES:
            if builtins.complex in types:
                return D.DEFAULT.complex.np
            if float in types:
                return D.DEFAULT.float.np
            return np.dtype(np.int64) if int in types else np.dtype(np.bool_)
    kinds = set()
    tensor_dt = []
    stack = [data]
    while stack:
        d = stack.pop()
        if isinstance(d, (list, tuple)):
            stack.extend(d)
        elif isinstance(d, Tensor):
            tensor_dt.append(d._buf.dtype)
        elif isinstance(d, np.ndarray):
            tensor_dt.append(d.dtype)
        elif isinstance(d, bool) or isinstance(d, np.bool_):
            kinds.add("b")
        elif isinstance(d, (int, np.integer)):
            kinds.add("i")
        elif isinstance(d, (float, np.floating)):
            kinds.add("f")
        elif isinstance(d, (builtins.complex, np.complexfloating)):
            kinds.add("c")
        elif isinstance(d, str):
            raise TypeError(f"new(): invalid data type '{type(d).__name__}'")
        else:
            raise RuntimeError(f"Could not infer dtype of {type(d).__name__} (torch.tensor takes numbers, "
                               f"nested lists of numbers, NumPy arrays or Tensors)")
    if tensor_dt:
        r = tensor_dt[0]
        for t in tensor_dt[1:]:
            r = D.promote_np(r, t)
        k = _dtype_kind(r)
        if "c" in kinds and k != "c":
            return D.DEFAULT.complex.np
        if "f" in kinds and k in "biu":
            return D.DEFAULT.float.np
        return r
    if "c" in kinds:
        return D.DEFAULT.complex.np
    if "f" in kinds:
        return D.DEFAULT.float.np
    if "i" in kinds:
        return np.dtype(np.int64)
    if "b" in kinds:
        return np.dtype(np.bool_)
    return D.DEFAULT.float.np


def _is_foreign_array(data) -> bool:
    """An fgrad Array or another library's DLPack producer (not a NumPy/cupy array or Tensor)."""
    if isinstance(data, ArrayImpl):
        return True
    return (hasattr(data, "__dlpack__") and not isinstance(data, (np.ndarray, np.generic, Tensor))
            and type(data) not in _DEV)


@quiet  # a number beyond the dtype's range becomes ±inf silently, as in PyTorch
def tensor(data: Any, *, dtype: DType | None = None, device: Device = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """A new tensor with a copy of ``data`` (nested lists, scalars, NumPy arrays, tensors).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.tensor([[1, 2], [3, 4.5]])
        tensor([[1.0000, 2.0000],
                [3.0000, 4.5000]])
    """
    idx = check_device(device)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
            "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
    if _is_foreign_array(data):  # an fgrad Array, a PyTorch/JAX tensor: its buffer, copied below
        data = from_dlpack(data, copy=True)._buf
    npd = D.to_np(dtype) if dtype is not None else _infer_np_dtype(data)
    if isinstance(data, Tensor) and type(data._buf) in _DEV and (device is None or idx is not None):
        t = data.detach().to(dtype=D.from_np(npd), device=None if idx is None else f"cuda:{idx}", copy=True)
        return t.requires_grad_(True) if requires_grad else t
    if type(data) in _DEV:
        return as_tensor(data, dtype=dtype, device=device).clone().requires_grad_(requires_grad)
    try:
        buf = np.array(_to_nested(data), dtype=npd)
    except ValueError as e:
        raise ValueError(_ragged_message(data) or str(e)) from None
    if buf.dtype == object:
        raise ValueError("expected sequence of equal-length sequences")
    return _finish(buf, requires_grad, None, idx)


@quiet  # a number beyond the dtype's range becomes ±inf silently, as in PyTorch
def as_tensor(data: Any, dtype: DType | None = None, device: Device = None) -> Tensor:
    idx = check_device(device)
    if isinstance(data, Tensor):
        if device is not None:
            data = data.to(device)
        if dtype is None or data._buf.dtype == D.to_np(dtype):
            return data
        return data.to(dtype)
    if _is_foreign_array(data):  # shared as from_dlpack shares (an fgrad Array: copied, it is immutable)
        t = from_dlpack(data)
        if device is not None:
            t = t.to(device)
        return t if dtype is None else t.to(dtype)
    if type(data) in _DEV:  # a CuPy array: shared (device=None keeps it where it is)
        t = _wrap(data if device is None or _dev.index_of(data) == idx else to_device_buf(data, idx))
        return t if dtype is None else t.to(dtype)
    if idx is not None:
        return tensor(data, dtype=dtype, device=f"cuda:{idx}")
    if isinstance(data, np.ndarray):
        t = (
            from_numpy(data)
            if _dtype_kind(data.dtype) in "biufc" and all(s >= 0 for s in data.strides)
            else tensor(data)
        )
        return t if dtype is None else t.to(dtype)
    return tensor(data, dtype=dtype)


_ASARRAY_WARNED: list[bool] = []  # PyTorch warns once per process


def asarray(obj: Any, *, dtype: DType | None = None, device: Device = None, copy: bool | None = None,
            requires_grad: bool | None = None) -> Tensor:
    """``obj`` as a tensor, sharing memory where it can (``copy=True``: never).  A tensor keeps its
    autograd history unless ``requires_grad=False`` (PyTorch 2.13: unspecified now means
    ``obj.requires_grad``, with a one-time warning when that is True).

    >>> import fgrad.torch as torch
    >>> a = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> torch.asarray(a * 2, copy=True, requires_grad=True)
    tensor([2., 4.], grad_fn=<CloneBackward0>)
    """
    if isinstance(obj, Tensor):
        if requires_grad is None and obj.requires_grad and not _ASARRAY_WARNED:
            _ASARRAY_WARNED.append(True)
            warnings.warn("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad "
                          "instead of False. Pass requires_grad=False explicitly to get the old behavior and "
                          "silence this warning.", UserWarning, stacklevel=3)
        if copy:  # a copy with autograd history (CloneBackward0 / ToCopyBackward0), or detached
            src = obj if requires_grad is None or requires_grad else obj.detach()
            t = src.to(dtype=dtype, device=device, copy=True)
            if requires_grad and not t.requires_grad:
                t.requires_grad_()
            return t
    if copy:
        t = tensor(obj, dtype=dtype, device=device)
    else:
        t = as_tensor(obj, dtype=dtype, device=device)
    if requires_grad:
        t.requires_grad_()
    return t


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``ndarray`` (changes to either are seen by both)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    if _dtype_kind(ndarray.dtype) not in "biufc" or ndarray.dtype.byteorder == ">":
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{ndarray.dtype.name}. The only supported types are: "
            "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, "
            "uint32, uint16, uint8, and bool."
        )
    if any(s < 0 for s in ndarray.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative strides "
            "are not currently supported. (You can probably work around this by making a copy of your "
            "array  with array.copy().) "
        )
    if not ndarray.flags.writeable:
        warnings.warn(
            "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. "
            "This means writing to this tensor will result in undefined behavior. You may want to copy "
            "the array to protect its data or make it writable before converting it to a tensor. This "
            "type of warning will be suppressed for the rest of this program.",
            UserWarning,
            stacklevel=2,
        )
    D.from_np(ndarray.dtype)
    return _wrap(ndarray.view())


def frombuffer(buffer: Any, *, dtype: DType, count: int = -1, offset: int = 0,
               requires_grad: bool = False) -> Tensor:
    return _finish(np.frombuffer(buffer, D.to_np(dtype), count, offset), requires_grad)


def _sizes(size) -> tuple:
    if len(size) == 1 and type(size[0]) is not int and isinstance(size[0], (tuple, list, Size)):
        size = tuple(size[0])
    for s in size:  # the common case, plain non-negative ints, without the checks' frames
        if type(s) is not int or s < 0:
            break
    else:
        return size if type(size) is tuple else tuple(size)
    out = []
    for s in size:
        if isinstance(s, Tensor):
            s = int(s.item())
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(
                f"zeros(): argument 'size' must be tuple of ints, but found element of type "
                f"{type(s).__name__} at pos {len(out)}"
            )
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
        out.append(int(s))
    return tuple(out)


def _ragged_message(data) -> str | None:
    """PyTorch's message for a nested list whose lengths differ (breadth-first, no recursion)."""
    level = [data]
    dim = 0
    while level:
        seqs = [x for x in level if isinstance(x, (list, tuple))]
        if not seqs:
            return None
        n = len(seqs[0])
        for x in level:
            if not isinstance(x, (list, tuple)):
                return f"expected sequence of length {n} at dim {dim} (got a scalar)"
            if len(x) != n:
                return f"expected sequence of length {n} at dim {dim} (got {len(x)})"
        level = [y for x in level for y in x]
        dim += 1
    return None


def _dt(dtype) -> np.dtype:
    if isinstance(dtype, str):  # PyTorch takes torch.dtype (or a Python type), not a name
        raise TypeError(f"argument 'dtype' must be torch.dtype, not str (use torch.{dtype.split('.')[-1]})")
    return D.DEFAULT.float.np if dtype is None else D.to_np(dtype)


@_meta.factory
def zeros(*size: int | Sequence[int], out: Tensor | None = None, dtype: DType | None = None,
          layout: Layout | None = None, device: Device = None, requires_grad: bool = False,
          pin_memory: bool = False, memory_format: memory_format | None = None) -> Tensor:
    idx = check_device(device)
    if idx is not None and out is None:
        return _finish(_dev.full(_sizes(size), 0, _dt(dtype), idx), requires_grad)
    return _finish(np.zeros(_sizes(size), _dt(dtype)), requires_grad, out)


@_meta.factory
def ones(*size: int | Sequence[int], out: Tensor | None = None, dtype: DType | None = None,
         layout: Layout | None = None, device: Device = None, requires_grad: bool = False,
         pin_memory: bool = False, memory_format: memory_format | None = None) -> Tensor:
    idx = check_device(device)
    if idx is not None and out is None:
        return _finish(_dev.full(_sizes(size), 1, _dt(dtype), idx), requires_grad)
    return _finish(_filled_array(_sizes(size), 1, _dt(dtype)), requires_grad, out)


@_meta.factory
def empty(*size: int | Sequence[int], out: Tensor | None = None, dtype: DType | None = None,
          layout: Layout | None = None, device: Device = None, requires_grad: bool = False,
          pin_memory: bool = False, memory_format: memory_format | None = None) -> Tensor:
    """Like `zeros` (fgrad fills new memory with zeros)."""
    idx = check_device(device)
    if idx is not None and out is None:
        return _finish(_dev.full(_sizes(size), 0, _dt(dtype), idx), requires_grad)
    if memory_format is not None and str(memory_format) == "torch.channels_last" and out is None:
        shape = _sizes(size)
        if len(shape) != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        n, c, h, w = shape  # NHWC memory, NCHW view (PyTorch's strides)
        return _finish(np.zeros((n, h, w, c), _dt(dtype)).transpose(0, 3, 1, 2), requires_grad)
    return _finish(np.zeros(_sizes(size), _dt(dtype)), requires_grad, out)


@_meta.factory
def empty_strided(size: SizeLike, stride: SizeLike, *, dtype: DType | None = None,
                  layout: Layout | None = None, device: Device = None, requires_grad: bool = False,
                  pin_memory: bool = False) -> Tensor:
    idx = check_device(device)
    npd = _dt(dtype)
    size, stride = tuple(int(s) for s in size), tuple(int(k) for k in stride)
    if len(size) != len(stride):
        raise RuntimeError(
            f"dimensionality of sizes ({len(size)}) must match dimensionality of strides ({len(stride)})"
        )
    if any(k < 0 for k in stride):
        raise RuntimeError(
            f"Storage size calculation overflowed with sizes={list(size)} and strides={list(stride)}"
        )
    n = 1 + sum((s - 1) * k for s, k in zip(size, stride, strict=False)) if all(size) else 0
    check_view(size, stride, 0, max(n, 0), npd.itemsize, "empty_strided")
    flat = np.zeros(n, npd) if idx is None else _dev.full((n,), 0, npd, idx)
    buf = _dev.as_strided(flat, size, tuple(k * flat.itemsize for k in stride))
    return _finish(buf, requires_grad)


_FILL_KINDS = {int: "iuf", float: "f", bool: "b"}  # Python scalar -> NumPy kinds it fills exactly


def _filled_array(shape: tuple, value: Any, npd: np.dtype) -> np.ndarray:
    """``np.full(shape, value, npd)``: for a Python number of the dtype's kind (an int in range:
    the callers check) NumPy's ``fill`` of new memory, the same conversion without ``np.full``'s
    Python frame (small tensors: ~3x faster).

    >>> _filled_array((2,), 1, np.dtype(np.float32))
    array([1., 1.], dtype=float32)
    """
    if npd.kind in _FILL_KINDS.get(type(value), "") and (type(value) is not int or npd.kind != "f"
                                                          or -_EXACT_INT < value < _EXACT_INT):
        a = np.empty(shape, npd)
        a.fill(value)
        return a
    return np.full(shape, value, npd)


def _fill_dtype(fill_value) -> np.dtype:
    if isinstance(fill_value, Tensor):
        return fill_value._buf.dtype
    return _infer_np_dtype(fill_value)


@_meta.factory
def full(size: SizeLike, fill_value: TensorOrScalar, *, out: Tensor | None = None, dtype: DType | None = None,
         layout: Layout | None = None, device: Device = None, requires_grad: bool = False,
         pin_memory: bool = False) -> Tensor:
    idx = check_device(device)
    npd = D.to_np(dtype) if dtype is not None else _fill_dtype(fill_value)
    v = fill_value.item() if isinstance(fill_value, Tensor) else fill_value
    v = check_fill_value(v, npd, "full")
    shape = _sizes((size,) if isinstance(size, int) else tuple(size))
    return _finish(_filled_array(shape, v, npd), requires_grad, out, idx)


def scalar_tensor(s: TensorOrScalar, like: Tensor | None = None, *, dtype: DType | None = None,
                  device: Device = None, requires_grad: bool = False) -> Tensor:
    if dtype is None:
        npd = _infer_np_dtype(s) if not isinstance(s, float) else D.DEFAULT.float.np
    else:
        npd = D.to_np(dtype)
    s = check_fill_value(s, npd, "scalar_tensor")
    if like is not None and device is None:
        lb = like._buf
        idx = _dev.index_of(lb) if type(lb) in _DEV else None
    else:
        idx = check_device(device)
    return _finish(np.asarray(s, npd), requires_grad, None, idx)


def eye(n: int, m: int | None = None, *, out: Tensor | None = None, dtype: DType | None = None,
        layout: Layout | None = None, device: Device = None, requires_grad: bool = False,
        pin_memory: bool = False) -> Tensor:
    idx = check_device(device)
    for arg_name, v in (("n", n), ("m", m)):
        if v is not None and v < 0:
            raise RuntimeError(f"{arg_name} must be greater or equal to 0, got {v}")
    return _finish(np.eye(n, n if m is None else m, dtype=_dt(dtype)), requires_grad, out, idx)


def _num(v):
    if isinstance(v, Tensor):
        return v.item()
    if isinstance(v, np.generic):
        return v.item()
    return v


_EXACT_INT = 2 ** 53  # ints a float64 holds exactly


def arange(start: Number = 0, end: Number | None = None, step: Number = 1, *, out: Tensor | None = None,
           dtype: DType | None = None, layout: Layout | None = None, device: Device = None,
           requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """Values from ``start`` to ``end`` (exclusive) by ``step``; int64 unless a bound is a
    float (then the default float dtype)."""
    idx = check_device(device)
    if (type(start) is int and type(step) is int and (end is None or type(end) is int) and dtype is None
            and out is None and idx is None and not requires_grad):
        # the common ``arange(n)``: int64 at once (below's count is exact for bounds under 2**53)
        lo, hi = (0, start) if end is None else (start, end)
        if step > 0 and -_EXACT_INT < lo <= hi < _EXACT_INT:
            return _wrap(np.arange(lo, hi, step, dtype=np.int64))
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0 and end != start:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, end, step))
        npd = D.DEFAULT.float.np if is_float else np.dtype(np.int64)
    else:
        npd = D.to_np(dtype)
    n = max(int(math.ceil((end - start) / step)), 0)
    if (_dtype_kind(npd) in "iu" and idx is not None and out is None
            and all(type(v) is int for v in (start, step))):
        return _finish(_dev.arange(start, start + n * step, step, npd, idx), requires_grad)  # made there
    if _dtype_kind(npd) in "fc":
        # start + i * step rounded once, as PyTorch's fused multiply-add does
        ld = np.longdouble
        buf = (ld(start) + np.arange(n, dtype=ld) * ld(step)).astype(np.float64).astype(npd)
    else:
        buf = np.arange(start, start + n * step, step, dtype=np.float64 if isinstance(step, float) else None)[
            :n
        ]
        buf = buf.astype(npd)
    return _finish(buf, requires_grad, out, idx)


def range(  # noqa: A001
    start: Number = 0,
    end: Number | None = None,
    step: Number = 1,
    *,
    out: Tensor | None = None,
    dtype: DType | None = None,
    layout: Layout | None = None,
    device: Device = None,
    requires_grad: bool = False,
) -> Tensor:
    if end is None:
        start, end = 0, start
    warnings.warn(
        "torch.range is deprecated and will be removed in a future release because its behavior is "
        "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
        "[start, end).",
        UserWarning,
        stacklevel=2,
    )
    idx = check_device(device)
    npd = D.DEFAULT.float.np if dtype is None else D.to_np(dtype)
    n = int(math.floor((end - start) / step)) + 1
    return _finish((start + np.arange(n, dtype=np.float64) * step).astype(npd), requires_grad, out, idx)


def _linspace_fma(st, en, step, idx, half: int, steps: int) -> np.ndarray:
    """PyTorch's CPU linspace values: ``fma(step, i, start)`` for the first half and
    ``fma(-step, steps - 1 - i, end)`` for the rest, each rounded once (the kernel is compiled
    with contracted multiply-adds: ``linspace(-3, 7, 13)[3]`` is -0.50000006 in float32, not
    -0.5).  float32: the product and sum are exact in float64, then rounded once; float64:
    the error-free `_fma64`."""
    lo_i, hi_i = idx[:half].astype(np.float64), (steps - 1 - idx[half:]).astype(np.float64)
    if st.dtype == np.float32:
        s, e, d = np.float64(st), np.float64(en), np.float64(step)
        return np.concatenate([s + d * lo_i, e - d * hi_i]).astype(np.float32)
    return np.concatenate([_fma64(lo_i, step, st), _fma64(hi_i, -step, en)])


def linspace(start: Number, end: Number, steps: int, *, out: Tensor | None = None, dtype: DType | None = None,
             layout: Layout | None = None, device: Device = None, requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` (PyTorch's symmetric
    formula, computed in the output dtype)."""
    di = check_device(device)
    start, end = _num(start), _num(end)
    npd = D.DEFAULT.float.np if dtype is None else D.to_np(dtype)
    steps = int(steps)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    calc = npd if _dtype_kind(npd) in "fc" else np.dtype(np.float64)
    if steps == 0:
        buf = np.empty(0, npd)
    elif steps == 1:
        buf = np.asarray([start], calc).astype(npd)
    else:
        if _dtype_kind(npd) in "iu":  # PyTorch converts the ends to the integer type first
            start, end = builtins.int(start), builtins.int(end)
        st = calc.type(start)
        en = calc.type(end)
        step = (en - st) / calc.type(steps - 1)
        idx = np.arange(steps)
        half = steps // 2
        if calc in (np.float32, np.float64):  # PyTorch's CPU kernel is compiled with fused multiply-adds
            buf = _linspace_fma(st, en, step, idx, half, steps).astype(calc)
        else:
            lo = st + step * idx[:half].astype(calc)
            hi = en - step * (steps - 1 - idx[half:]).astype(calc)
            buf = np.concatenate([lo, hi]).astype(calc)
        if _dtype_kind(npd) in "iu":
            buf = np.trunc(buf)
        buf = buf.astype(npd)
    return _finish(buf, requires_grad, out, di)


def logspace(start: Number, end: Number, steps: int, base: float = 10.0, *, out: Tensor | None = None,
             dtype: DType | None = None, layout: Layout | None = None, device: Device = None,
             requires_grad: bool = False) -> Tensor:
    idx = check_device(device)
    lin = linspace(start, end, steps, dtype=D.float64, device="cpu")
    npd = D.DEFAULT.float.np if dtype is None else D.to_np(dtype)
    return _finish(np.power(base, lin._buf).astype(npd), requires_grad, out, idx)


def _like(input, dtype):
    return input._buf.shape, (input._buf.dtype if dtype is None else D.to_np(dtype))


def like_index(input, device):
    """The CUDA index of a ``*_like`` / ``new_*`` result: ``device`` if given, else the
    input's device (None: the host)."""
    if device is not None:
        return check_device(device)
    b = input._buf
    if type(b) is _nd:
        return None
    return _dev.index_of(b) if type(b) in _DEV else None


def _like_layout(input: Tensor, memory_format: Any, flat: Any) -> np.ndarray | None:
    """PyTorch's ``preserve_format`` for a ``*_like`` result on the host: ``flat(n)`` (the ``n``
    values in memory order) laid out with ``input``'s strides when ``input`` is dense and
    non-overlapping but not row-major (a transposed or permuted tensor); None when the result
    is row-major (``flat`` not called).

    Example::

        >>> import fgrad.torch as torch
        >>> _like_layout(torch.zeros(2, 3).t(), None, lambda n: np.arange(n)).tolist()
        [[0, 3], [1, 4], [2, 5]]
    """
    if memory_format is not None and str(memory_format) != "torch.preserve_format":
        return None
    b = input._buf
    if type(b) is not _nd or _memory_order(b) is None:
        return None
    values = flat(b.size)
    return _dev.as_strided(values, b.shape, tuple(st // b.itemsize * values.itemsize for st in b.strides))


def _filled(s, value, d, requires_grad, idx):
    if idx is None:
        return _finish(np.zeros(s, d) if value == 0 else np.full(s, value, d), requires_grad)
    return _finish(_dev.full(s, value, d, idx), requires_grad)


def zeros_like(input: Tensor, *, dtype: DType | None = None, layout: Layout | None = None,
               device: Device = None, requires_grad: bool = False,
               memory_format: memory_format | None = None) -> Tensor:
    b = input._buf
    if device is None and type(b) is _nd:
        d = b.dtype if dtype is None else D.to_np(dtype)
        laid = _like_layout(input, memory_format, lambda n: np.zeros(n, d))
        return _finish(np.zeros(b.shape, d) if laid is None else laid, requires_grad)
    s, d = _like(input, dtype)
    return _filled(s, 0, d, requires_grad, like_index(input, device))


def ones_like(input: Tensor, *, dtype: DType | None = None, layout: Layout | None = None,
              device: Device = None, requires_grad: bool = False,
              memory_format: memory_format | None = None) -> Tensor:
    s, d = _like(input, dtype)
    laid = _like_layout(input, memory_format, lambda n: np.ones(n, d)) if device is None else None
    if laid is not None:
        return _finish(laid, requires_grad)
    return _filled(s, 1, d, requires_grad, like_index(input, device))


def empty_like(input: Tensor, *, dtype: DType | None = None, layout: Layout | None = None,
               device: Device = None, requires_grad: bool = False,
               memory_format: memory_format | None = None) -> Tensor:
    return zeros_like(input, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad,
                      memory_format=memory_format)


def full_like(input: Tensor, fill_value: TensorOrScalar, *, dtype: DType | None = None,
              layout: Layout | None = None, device: Device = None, requires_grad: bool = False,
              memory_format: memory_format | None = None) -> Tensor:
    s, d = _like(input, dtype)
    fill_value = check_fill_value(fill_value, d, "full_like")
    laid = _like_layout(input, memory_format, lambda n: np.full(n, fill_value, d)) if device is None else None
    if laid is not None:
        return _finish(laid, requires_grad)
    return _finish(np.full(s, fill_value, d), requires_grad, None, like_index(input, device))


def complex(real: Tensor, imag: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A001
    from ._dispatch import apply_op

    cd = np.result_type(real._buf.dtype, np.complex64)

    part = np.finfo(cd).dtype  # the parts' float dtype

    def fn(r, i):  # the parts set, not ``r + 1j * i`` (whose real part is NaN where i is infinite or NaN)
        return ew.complex_p.bind(ew.convert_element_type(r, part), ew.convert_element_type(i, part))

    return apply_op(
        "ComplexBackward0", ("complex", cd), fn, (real, imag)
    )


def polar(abs: Tensor, angle: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    from ._ops import cos, mul, sin

    return complex(mul(abs, cos(angle)), mul(abs, sin(angle)))


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: DType | None = None, device: Device = None,
                 layout: Layout | None = None) -> Tensor:
    r, c = np.tril_indices(row, offset, col)
    return _finish(np.stack([r, c]).astype(np.int64 if dtype is None else D.to_np(dtype)), False, None,
                   check_device(device))


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: DType | None = None, device: Device = None,
                 layout: Layout | None = None) -> Tensor:
    r, c = np.triu_indices(row, offset, col)
    return _finish(np.stack([r, c]).astype(np.int64 if dtype is None else D.to_np(dtype)), False, None,
                   check_device(device))


# -- Tensor.new_* ---------------------------------------------------------------------------


def _new_device(self, device):
    if device is not None:
        return device
    b = self._buf
    return "cpu" if type(b) is _nd or type(b) not in _DEV else f"cuda:{_dev.index_of(b)}"


def new_tensor(self: Tensor, data: Any, *, dtype: DType | None = None, device: Device = None,
               requires_grad: bool = False, layout: Layout | None = None, pin_memory: bool = False) -> Tensor:
    return tensor(
        data, dtype=D.from_np(self._buf.dtype) if dtype is None else dtype,
        requires_grad=requires_grad, device=_new_device(self, device)
    )


def new_zeros(self: Tensor, *size: int | Sequence[int], dtype: DType | None = None, device: Device = None,
              requires_grad: bool = False, layout: Layout | None = None, pin_memory: bool = False) -> Tensor:
    return zeros(
        *size, dtype=D.from_np(self._buf.dtype) if dtype is None else dtype,
        requires_grad=requires_grad, device=_new_device(self, device)
    )


def new_ones(self: Tensor, *size: int | Sequence[int], dtype: DType | None = None, device: Device = None,
             requires_grad: bool = False, layout: Layout | None = None, pin_memory: bool = False) -> Tensor:
    return ones(
        *size, dtype=D.from_np(self._buf.dtype) if dtype is None else dtype,
        requires_grad=requires_grad, device=_new_device(self, device)
    )


def new_empty(self: Tensor, *size: int | Sequence[int], dtype: DType | None = None, device: Device = None,
              requires_grad: bool = False, layout: Layout | None = None, pin_memory: bool = False) -> Tensor:
    return empty(
        *size, dtype=D.from_np(self._buf.dtype) if dtype is None else dtype,
        requires_grad=requires_grad, device=_new_device(self, device)
    )


def new_full(self: Tensor, size: SizeLike, fill_value: TensorOrScalar, *, dtype: DType | None = None,
             device: Device = None, requires_grad: bool = False, layout: Layout | None = None,
             pin_memory: bool = False) -> Tensor:
    return full(
        size,
        fill_value,
        dtype=D.from_np(self._buf.dtype) if dtype is None else dtype,
        requires_grad=requires_grad,
        device=_new_device(self, device),
    )


_ = (_concrete_buf, _nd)
