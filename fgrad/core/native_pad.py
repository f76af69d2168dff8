"""Padding a stack of planes in native code: `ops.convolution.dilate_and_pad` for two spatial
axes with no dilation and no cropping, in one pass (also from a transposed input: the leading
axes may be strided, each plane's rows contiguous).

NumPy pads in two passes (the whole result set to the fill value, then the input copied into
its interior: a padded convolution input is written twice).  The C loop writes each row of
the result once, fill values and the input's row; it only moves values, so the result is
NumPy's bit for bit.  Compiled and cached as `native_loops` does (its switch:
``config.update("native_loops", False)``); elsewhere the caller pads with NumPy (the function
returns False).

Example::

    >>> import numpy as np
    >>> x = np.ones((1, 2, 2), np.float32)
    >>> z = np.empty(1 * 4 * 3 + 2, np.float32)
    >>> pad_planes(x, z, ((1, 1), (0, 1)), 0.0) is False or z.tolist() == (
    ...     [0.0] * 3 + [1.0, 1.0, 0.0] * 2 + [0.0] * 3 + [0.0, 0.0])
    True
"""

from __future__ import annotations

import ctypes

import numpy as np

from . import native_loops as _nl

_O = ctypes.py_object
_L = ctypes.c_long

_SOURCE = _nl.PRELUDE + _nl.ARRAY_DATA + r"""
#define PAD(NAME, T) \
void NAME(const void *xo, void *zo, long A0, long s0, long A1, long s1, long H, long W, long lo0, long hi0, \
          long lo1, long hi1, double fill_value, long total) { \
    const T *x0 = ARRAY_DATA(xo); \
    T *z = ARRAY_DATA(zo), *start = z; \
    const T fill = (T)fill_value; \
    const long width = lo1 + W + hi1; \
    for (long a0 = 0; a0 < A0; a0++) { \
        for (long a1 = 0; a1 < A1; a1++) { \
            const T *x = x0 + a0 * s0 + a1 * s1; \
            for (long q = 0; q < lo0 * width; q++) *z++ = fill; \
            for (long h = 0; h < H; h++) { \
                for (long q = 0; q < lo1; q++) *z++ = fill; \
                memcpy(z, x, W * sizeof(T)); \
                z += W; \
                x += W; \
                for (long q = 0; q < hi1; q++) *z++ = fill; \
            } \
            for (long q = 0; q < hi0 * width; q++) *z++ = fill; \
        } \
    } \
    while (z < start + total) *z++ = fill; \
}
PAD(pad_f32, float)
PAD(pad_f64, double)
"""

_NAMES = {np.dtype(np.float32): "pad_f32", np.dtype(np.float64): "pad_f64"}
_ARGTYPES = [_O, _O] + [_L] * 10 + [ctypes.c_double, _L]


def pad_planes(x: np.ndarray, z: np.ndarray, padding: tuple, fill: float) -> bool:
    """Write ``x`` (up to two leading axes, then H, W) padded by ``padding`` ``((lo, hi), (lo,
    hi))`` (non-negative) with ``fill`` into the flat buffer ``z`` in C order, the rest of ``z``
    (a tail) set to ``fill``; False (``z`` untouched) where the native code cannot run.  Each
    plane's rows must be contiguous; the leading axes may have any strides (a transposed
    input, as a weight gradient's).

    Example::

        >>> z = np.empty(9)
        >>> ok = pad_planes(np.ones((1, 1)), z, ((1, 1), (1, 1)), 0.0)
        >>> ok is False or z.reshape(3, 3)[1].tolist() == [0, 1, 0]
        True
    """
    name = _NAMES.get(x.dtype)
    if (name is None or not 2 <= x.ndim <= 4 or z.dtype != x.dtype or z.ndim != 1 or type(x) is not np.ndarray
            or type(z) is not np.ndarray or not z.flags.c_contiguous):
        return False
    (lo0, hi0), (lo1, hi1) = padding
    h, w = x.shape[-2:]
    e = x.itemsize
    lead = (1,) * (4 - x.ndim) + x.shape[:-2]
    strides = (0,) * (4 - x.ndim) + x.strides[:-2]
    # each plane's rows contiguous (the leading axes may be strided: a transposed input)
    if (x.strides[-1] != e and w > 1) or (x.strides[-2] != w * e and h > 1) or any(st % e for st in strides):
        return False
    if min(lo0, hi0, lo1, hi1) < 0 or z.size < lead[0] * lead[1] * (h + lo0 + hi0) * (w + lo1 + hi1):
        return False
    if not (type(fill) is float or (type(fill) is int and abs(fill) < 2 ** 53)):
        return False
    fn = _nl.compiled_function(_SOURCE, name, _ARGTYPES, reads_arrays=True)
    if fn is None:
        return False
    a0, a1 = lead
    fn(x, z, a0, strides[0] // e, a1, strides[1] // e, h, w, lo0, hi0, lo1, hi1, float(fill), z.size)
    return True
