"""Copying a strided view into a C-contiguous array in native code: the convolutions' patch
matrices (`ops.convolution._copy`, a window view of the padded input: rows of a few elements
at a stride), which NumPy copies one short inner loop at a time.

The C loop walks the view's index in C order, reading each element at its strided address
and writing the next position of the result; it only moves bits (4- or 8-byte words, never
a float operation), so the result is NumPy's copy bit for bit.  Compiled and cached as
`native_loops` does (its switch: ``config.update("native_loops", False)``); elsewhere the
caller copies with NumPy (the function returns False).

Example::

    >>> import numpy as np
    >>> x = np.arange(8192.0).reshape(2, 2, 2, 16, 64)[..., ::2]
    >>> out = np.empty(x.shape)
    >>> copy_strided(x, out) is False or out.tolist() == x.tolist()
    True
"""

from __future__ import annotations

import ctypes

import numpy as np

from . import native_loops as _nl

MAX_NDIM = 8
# window views (lead axes, output positions, kernel positions: 5+ axes); a plain transposed
# array (4 axes or fewer) NumPy copies in the source's memory order, faster than this C order
MIN_NDIM = 5
MIN_SIZE = 4096  # smaller copies: NumPy's call costs about as much as the C one

_O = ctypes.py_object
_L = ctypes.c_long

_SOURCE = _nl.PRELUDE + _nl.ARRAY_DATA + r"""
#define COPY(NAME, T) \
void NAME(const void *xo, void *outo, long nd, const long *shape, const long *strides) { \
    const char *p = ARRAY_DATA(xo); \
    T *out = ARRAY_DATA(outo); \
    long idx[8] = {0}; \
    const long rows = shape[nd - 2], row_step = strides[nd - 2]; \
    const long inner = shape[nd - 1], step = strides[nd - 1]; \
    long outer = 1; \
    for (long d = 0; d < nd - 2; d++) outer *= shape[d]; \
    for (long o = 0; o < outer; o++) { \
        const char *q = p; \
        if (step == (long)sizeof(T)) { \
            for (long r = 0; r < rows; r++, q += row_step) { \
                const T *src = (const T *)q; \
                for (long i = 0; i < inner; i++) out[i] = src[i]; \
                out += inner; \
            } \
        } else { \
            for (long r = 0; r < rows; r++, q += row_step) { \
                for (long i = 0; i < inner; i++) out[i] = *(const T *)(q + i * step); \
                out += inner; \
            } \
        } \
        for (long d = nd - 3; d >= 0; d--) { \
            p += strides[d]; \
            if (++idx[d] < shape[d]) break; \
            p -= strides[d] * shape[d]; \
            idx[d] = 0; \
        } \
    } \
}
COPY(copy_w4, uint32_t)
COPY(copy_w8, uint64_t)
"""

_NAMES = {4: "copy_w4", 8: "copy_w8"}
_ARGTYPES = [_O, _O, _L, ctypes.c_void_p, ctypes.c_void_p]


def copy_strided(x: np.ndarray, out: np.ndarray) -> bool:
    """Copy ``x`` (any strides, `MIN_NDIM` to `MAX_NDIM` axes, 4- or 8-byte items, at least
    `MIN_SIZE` elements) into ``out`` (a C-contiguous array of its shape and dtype); False
    (``out`` untouched) where the native code cannot run.

    Example::

        >>> x = np.arange(8192, dtype=np.float32).reshape(64, 128)[:, ::2]
        >>> out = np.empty((64, 64), np.float32)
        >>> copy_strided(x, out) is False or bool((out == x).all())
        True
    """
    name = _NAMES.get(x.itemsize)
    if (name is None or type(x) is not np.ndarray or type(out) is not np.ndarray or x.dtype != out.dtype
            or x.shape != out.shape or not out.flags.c_contiguous or not MIN_NDIM <= x.ndim <= MAX_NDIM
            or x.size < MIN_SIZE or x.dtype.hasobject):
        return False
    fn = _nl.compiled_function(_SOURCE, name, _ARGTYPES, reads_arrays=True)
    if fn is None:
        return False
    shape = np.array(x.shape, np.int64)
    strides = np.array(x.strides, np.int64)
    fn(x, out, x.ndim, shape.ctypes.data, strides.ctypes.data)
    return True
