"""PyTorch dtypes over NumPy dtypes, and PyTorch's type-promotion rules.

A `dtype` object (``torch.float32``...) wraps a NumPy dtype.  Promotion follows PyTorch,
not NumPy: operands are sorted into three groups -- tensors with dimensions, 0-dim
tensors, and Python scalars ("wrapped numbers", whose float kind is the *default* dtype,
float32) -- and a lower group only matters when it is of a higher category
(bool < integer < floating < complex).  So ``int_tensor + 2.5`` is float32,
``float32_tensor + float64_tensor`` is float64, ``float32_vec + float64_scalar_tensor`` is
float32.
"""

from __future__ import annotations

import numpy as np
from ..core.narrow_floats import bfloat16 as _np_bfloat16, dtype_kind as _dtype_kind
from ..core.narrow_floats import promote_types as _promote_np_types
from typing import Any


class dtype:
    """A PyTorch-style dtype (``fgrad.torch.float32``), backed by a NumPy dtype.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.float16.itemsize, torch.float16.is_floating_point, torch.int32.is_signed
        (2, True, True)
    """

    __slots__ = (
        "name",
        "np",
        "is_floating_point",
        "is_complex",
        "is_signed",
        "itemsize",
        "_legacy",
        "__weakref__",
    )

    def __init__(self, name: str, np_dtype: Any, legacy: str) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        k = _dtype_kind(self.np)
        self.is_floating_point = k == "f"
        self.is_complex = k == "c"
        self.is_signed = k in "ifc"
        self.itemsize = self.np.itemsize
        self._legacy = legacy

    def __repr__(self) -> str:
        return "torch." + self.name

    __str__ = __repr__

    def __reduce__(self):
        return (_dtype_by_name, (self.name,))

    def to_complex(self) -> "dtype":
        return {float32: complex64, float64: complex128, float16: complex64,
                bfloat16: complex64}.get(self, self)

    def to_real(self) -> "dtype":
        return {complex64: float32, complex128: float64}.get(self, self)


float32 = dtype("float32", np.float32, "Float")
float64 = dtype("float64", np.float64, "Double")
float16 = dtype("float16", np.float16, "Half")
bfloat16 = dtype("bfloat16", _np_bfloat16, "BFloat16")
complex64 = dtype("complex64", np.complex64, "ComplexFloat")
complex128 = dtype("complex128", np.complex128, "ComplexDouble")
int8 = dtype("int8", np.int8, "Char")
int16 = dtype("int16", np.int16, "Short")
int32 = dtype("int32", np.int32, "Int")
int64 = dtype("int64", np.int64, "Long")
uint8 = dtype("uint8", np.uint8, "Byte")
uint16 = dtype("uint16", np.uint16, "UInt16")
uint32 = dtype("uint32", np.uint32, "UInt32")
uint64 = dtype("uint64", np.uint64, "UInt64")
bool_ = dtype("bool", np.bool_, "Bool")

ALL = (
    float32,
    float64,
    float16,
    bfloat16,
    complex64,
    complex128,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    bool_,
)
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}


def _dtype_by_name(name: str) -> dtype:
    return _BY_NAME[name]


def from_np(npd) -> dtype:
    """The torch dtype of a NumPy dtype."""
    d = _BY_NP.get(npd)
    if d is None:
        d = _BY_NP.get(np.dtype(npd))
        if d is None:
            raise TypeError(
                f"can't convert np.ndarray of type {np.dtype(npd)}. The only supported types "
                "are: float64, float32, float16, bfloat16, complex64, complex128, int64, int32, int16, "
                "int8, uint64, uint32, uint16, uint8, and bool."
            )
    return d


def to_np(d) -> np.dtype:
    """NumPy dtype for a torch dtype, a NumPy dtype, a Python type or a string."""
    if type(d) is dtype:
        return d.np
    if d is float:
        return float64.np
    if d is int:
        return int64.np
    if d is bool:
        return bool_.np
    if d is complex:
        return complex128.np
    if isinstance(d, str) and d.startswith("torch."):
        return _BY_NAME[d[6:]].np
    return np.dtype(d)


def canonical(d) -> dtype:
    return d if type(d) is dtype else from_np(to_np(d))


class _Defaults:
    __slots__ = ("float", "complex")

    def __init__(self) -> None:
        self.float = float32
        self.complex = complex64


DEFAULT = _Defaults()


def get_default_dtype() -> dtype:
    """The default floating dtype (float32 unless changed with `set_default_dtype`)."""
    return DEFAULT.float


def set_default_dtype(d: dtype | type) -> None:
    d = canonical(d)
    if d not in (float32, float64, float16, bfloat16):
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    DEFAULT.float = d
    DEFAULT.complex = complex128 if d is float64 else complex64


def _cat(npd: np.dtype) -> int:
    k = _dtype_kind(npd)
    return 0 if k == "b" else (1 if k in "iu" else (2 if k == "f" else 3))


_promote_cache: dict = {}


def promote_np(a: np.dtype, b: np.dtype) -> np.dtype:
    """PyTorch's promote_types on NumPy dtypes."""
    if a is b or a == b:
        return a
    key = (a, b)
    r = _promote_cache.get(key)
    if r is not None:
        return r
    ca, cb = _cat(a), _cat(b)
    if ca != cb:
        hi, lo = (a, b) if ca > cb else (b, a)
        if max(ca, cb) == 3 and min(ca, cb) == 2:  # complex with float: keep the wider precision
            r = _promote_np_types(hi, lo)
        else:
            r = hi
    elif ca == 1 and {a, b} == {np.dtype(np.uint64), np.dtype(np.int64)}:
        r = np.dtype(np.int64)
    else:
        r = _promote_np_types(a, b)  # bfloat16 + float16 -> float32, as in PyTorch
    _promote_cache[key] = r
    return r


def promote_types(a, b) -> dtype:
    return from_np(promote_np(to_np(a), to_np(b)))


_SCALAR_NP = {bool: np.dtype(np.bool_), int: np.dtype(np.int64)}


def scalar_np(x) -> np.dtype:
    """Dtype of a Python (or NumPy) scalar as a PyTorch wrapped number."""
    t = type(x)
    if t is float:
        return DEFAULT.float.np
    r = _SCALAR_NP.get(t)
    if r is not None:
        return r
    if t is complex:
        return DEFAULT.complex.np
    if isinstance(x, np.generic):
        k = _dtype_kind(x.dtype)
        if k == "f":
            return DEFAULT.float.np
        if k == "c":
            return DEFAULT.complex.np
        if k == "b":
            return _SCALAR_NP[bool]
        return _SCALAR_NP[int]
    if isinstance(x, bool):
        return _SCALAR_NP[bool]
    if isinstance(x, int):
        return _SCALAR_NP[int]
    if isinstance(x, float):
        return DEFAULT.float.np
    if isinstance(x, complex):
        return DEFAULT.complex.np
    raise TypeError(f"unsupported scalar type {t.__name__}")


def _combine(higher, lower):
    """c10's combine_categories: a lower-priority group matters only if it is of a
    higher category."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    ch, cl = _cat(higher), _cat(lower)
    if ch == 3:
        return higher
    if cl == 3:
        if ch == 2:
            return promote_np(higher, lower)
        return lower
    if ch == 2:
        return higher
    if ch == 0 or cl == 2:
        return promote_np(higher, lower)
    return higher


def result_np(dim_dt, zero_dt, scalar_dt) -> np.dtype:
    return _combine(dim_dt, _combine(zero_dt, scalar_dt))


def is_float_np(d: np.dtype) -> bool:
    return _dtype_kind(d) in "fc"
