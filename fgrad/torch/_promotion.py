"""PyTorch's type promotion for the shim's ops: the result dtype of tensors and Python
scalars (dimensioned tensors, then 0-dim tensors, then scalars, by category), and casting
checks for in-place ops and ``out=``.

Example::

    >>> import fgrad.torch as torch
    >>> result_dtype(torch.ones(2, dtype=torch.int32), 1.5)
    dtype('float32')
"""

from __future__ import annotations

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind
import fgrad.torch._dtypes as D
from ._tensor import Tensor

_JUST_TENSOR = {Tensor}

_nd = np.ndarray
_PY = (int, float, bool, complex)
_i64 = np.dtype(np.int64)
_bool = np.dtype(np.bool_)


def scalar_type_name(npd) -> str:
    return D.from_np(npd)._legacy


# the C++ element type names PyTorch's dtype-mismatch errors print (matmul, lerp)
_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
              "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool", "complex64": "c10::complex<float>",
              "complex128": "c10::complex<double>"}


def cpp_type_name(npd) -> str:
    """The C++ element type PyTorch's kernels name in dtype errors (``float``, ``long int``).

    >>> import numpy as np
    >>> cpp_type_name(np.dtype(np.int64)), cpp_type_name(np.dtype(np.float32))
    ('long int', 'float')
    """
    s = str(D.from_np(npd)).replace("torch.", "")
    return _CPP_NAMES.get(s, s)


def can_cast(frm: np.dtype, to: np.dtype) -> bool:
    fk, tk = _dtype_kind(frm), _dtype_kind(to)
    if fk == "c" and tk != "c":
        return False
    if fk == "f" and tk in "biu":
        return False
    if fk != "b" and tk == "b":
        return False
    return True


def scalar_value(x):
    """A Python scalar for a wrapped number (NumPy scalars are strongly typed in NumPy 2)."""
    if isinstance(x, np.generic):
        return x.item()
    return x


def result_dtype(*ops) -> np.dtype:
    """PyTorch's result dtype for tensors and scalars."""
    if len(ops) == 2:  # two tensors of one dtype (where, binary ops): that dtype
        a, b = ops
        if type(a) is Tensor and type(b) is Tensor and a._buf.dtype is b._buf.dtype:
            return a._buf.dtype
    elif len(ops) > 2:  # many tensors of one dtype (cat, stack): that dtype
        first = ops[0]
        if type(first) is Tensor:
            d0 = first._buf.dtype
            if {type(o) for o in ops} == _JUST_TENSOR and {o._buf.dtype for o in ops} == {d0}:
                return d0
    dim = zero = sc = None
    for o in ops:
        if o is None:
            continue
        if isinstance(o, Tensor):
            d = o._buf.dtype
            if o._buf.ndim:
                dim = d if dim is None else D.promote_np(dim, d)
            else:
                zero = d if zero is None else D.promote_np(zero, d)
        else:
            d = D.scalar_np(o)
            sc = d if sc is None else D.promote_np(sc, d)
    r = D.result_np(dim, zero, sc)
    return r if r is not None else D.DEFAULT.float.np


def binary_result_dtype(a, b) -> np.dtype:
    """Fast path of `result_dtype` for (Tensor, Tensor-or-scalar)."""
    ad = a._buf.dtype
    if isinstance(b, Tensor):
        bd = b._buf.dtype
        if ad == bd:
            return ad
        return result_dtype(a, b)
    tb = type(b)
    if tb is float:
        return ad if _dtype_kind(ad) in "fc" else D.DEFAULT.float.np
    if tb is int:
        return ad if ad.kind != "b" else _i64
    if tb is bool:
        return ad
    return result_dtype(a, b)


def wrapped_int(x: int, dtype: np.dtype) -> int:
    """The Python int ``x`` as PyTorch converts a scalar operand to an integer result dtype:
    modulo ``2**bits`` (``uint8_tensor + 300`` adds 44, ``uint8_tensor < -1`` compares with
    255), where NumPy raises OverflowError or compares the exact values.

    >>> u8, i8 = np.dtype(np.uint8), np.dtype(np.int8)
    >>> wrapped_int(300, u8), wrapped_int(-1, u8), wrapped_int(200, i8)
    (44, 255, -56)
    """
    bounds = _INT_BOUNDS.get(dtype)
    if bounds is None:
        info = np.iinfo(dtype)
        bounds = _INT_BOUNDS[dtype] = (int(info.min), int(info.max), info.bits)
    lo, hi, bits = bounds
    if lo <= x <= hi:
        return x
    x %= 1 << bits
    return x - (1 << bits) if lo and x > hi else x


_INT_BOUNDS: dict = {}  # integer dtype -> (min, max, bits) (`np.iinfo` costs microseconds a call)
