"""``Array.view(dtype)`` and ``Array.byteswap()`` (JAX's array methods): the array's bits
reinterpreted, built on `fgrad.lax`'s ``bitcast_convert_type`` (and, for bool and complex
types, which it does not take, through uint8 and the real and imaginary parts), so they
trace, batch and stay on the array's device.

Example::

    >>> import fgrad.numpy as fnp
    >>> fnp.zeros((1, 2, 3), dtype=fnp.int16).view(fnp.int8).shape
    (1, 2, 6)
    >>> fnp.arange(3, dtype=fnp.int32).byteswap()
    Array([       0, 16777216, 33554432], dtype=int32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.array import get_aval
from ..core.narrow_floats import dtype_kind
from ..core.x64_mode import requested_dtype
from ..ops import elementwise as ew
from ..ops import shape as shape_ops
from ..ops.bits import bitcast_convert_type
from ..ops.structural import rev, stack


def _real_of(dt: np.dtype) -> np.dtype:
    return np.dtype(np.float32 if dt == np.complex64 else np.float64)


def view(x: Any, dtype: Any = None, type: Any = None) -> Any:
    """``x``'s bits as ``dtype``: the last axis scales by the ratio of the item sizes (a 0-d
    array only to a type of its own size), as ``numpy.ndarray.view`` and JAX."""
    if type is not None:
        raise NotImplementedError("`type` argument of array.view() is not supported.")
    if dtype is None:
        return x
    dtype = requested_dtype(dtype, "view")
    av = get_aval(x)
    if av.dtype == dtype:
        return x
    n_in, n_out = av.dtype.itemsize, dtype.itemsize
    if av.ndim == 0:
        if n_in != n_out:
            raise ValueError("view() of a 0d array is only supported if the itemsize is unchanged.")
        return shape_ops.reshape(view(shape_ops.reshape(x, (1,)), dtype), ())
    if (av.shape[-1] * n_in) % n_out != 0:
        raise ValueError("When changing to a larger dtype, its size must be a divisor of the total "
                         "size in bytes of the last axis of the array.")
    kind_in, kind_out = dtype_kind(av.dtype), dtype_kind(dtype)
    if kind_in == "b":
        return view(ew.convert_element_type(x, np.dtype(np.uint8)), dtype)
    if kind_in == "c":
        pairs = stack([ew.real(x), ew.imag(x)], -1)
        return view(shape_ops.reshape(pairs, av.shape[:-1] + (2 * av.shape[-1],)), dtype)
    if kind_out == "b":
        return ew.convert_element_type(view(x, np.dtype(np.uint8)), dtype)
    if kind_out == "c":
        out = view(x, _real_of(dtype))
        return ew.add(ew.convert_element_type(out[..., 0::2], dtype),
                      ew.mul(ew.convert_element_type(out[..., 1::2], dtype), 1j))
    if n_in < n_out:
        factor = n_out // n_in
        return bitcast_convert_type(shape_ops.reshape(x, av.shape[:-1] + (av.shape[-1] // factor, factor)),
                                    dtype)
    out = bitcast_convert_type(x, dtype)
    if n_in > n_out:
        s = get_aval(out).shape
        out = shape_ops.reshape(out, s[:-2] + (s[-2] * s[-1],))
    return out


def byteswap(x: Any) -> Any:
    """``x`` with the bytes of each element reversed (little- <-> big-endian); the same
    dtype."""
    av = get_aval(x)
    if dtype_kind(av.dtype) == "c":
        return ew.complex_(byteswap(ew.real(x)), byteswap(ew.imag(x)))
    if av.dtype.itemsize == 1:
        return x
    as_bytes = bitcast_convert_type(x, np.dtype(np.uint8))
    return bitcast_convert_type(rev(as_bytes, (av.ndim,)), av.dtype)
