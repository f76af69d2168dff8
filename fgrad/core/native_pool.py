"""Max/min pooling over disjoint 2-D windows in native code: `ops.windowed`'s host forward and
gradient of ``reduce_window_max``/``min`` whose windows tile the last two axes (strides equal
to the window, no padding, no dilation: ``MaxPool2d``).

The NumPy path copies each window cell into a plane, takes the extremum plane by plane
(``np.maximum(res, cell)`` in `np.ndindex` order) and, for the gradient, sends each window's
cotangent to the first cell equal to its extremum with one comparison, mask and strided write
per cell.  Here one C loop over the windows takes the same extremum in the same order with
NumPy's own comparison (`native_loops.c_operation`'s spelling of ``maximum``/``minimum``,
calibrated bit-equal) and records the index of that first equal cell (one byte per window);
the gradient writes each cell once: the window's cotangent at the recorded cell, ``+0.0``
elsewhere (the cotangent plus ``+0.0`` where every cotangent is finite, as the NumPy path's
product and its ``+ 0`` pass give).  A NaN extremum (a NaN in a window) is reported, and the
caller takes the NaN-aware NumPy selection.  Compiled and cached as `native_loops` does (its
switch: ``config.update("native_loops", False)``); elsewhere the callers run NumPy.

Example::

    >>> import numpy as np
    >>> x = np.array([[[[1.0, 3.0], [3.0, 0.0]]]], np.float32)
    >>> got = pool_forward(x, (2, 2), "max")
    >>> got is None or (got[0].tolist(), got[1].tolist(), got[2]) == ([[[[3.0]]]], [[[[1]]]], False)
    True
"""

from __future__ import annotations

import ctypes

import numpy as np

from . import native_loops as _nl
from .host_pool import empty as _pooled_empty

_O = ctypes.py_object
_L = ctypes.c_long

_SOURCE = _nl.PRELUDE + _nl.ARRAY_DATA + r"""
/* per window, its KH x KW cells (constants: the loops unroll): the extremum cell by cell
   (row-major, as NumPy's planes), the first equal cell found walking the cells backwards with
   selects, no branch per window */
#define POOL(NAME, T, IT, UT, OP, KH, KW) \
int NAME##_fwd(const void *xo, void *ro, void *ao, long P, long H, long W) { \
    const T *x = ARRAY_DATA(xo); \
    T *r = ARRAY_DATA(ro); \
    IT *arg = ARRAY_DATA(ao); \
    const long OH = H / (KH), OW = W / (KW); \
    int nan = 0; \
    for (long p = 0; p < P; p++) \
        for (long i = 0; i < OH; i++) { \
            const T *w = x + (p * H + i * (KH)) * W; \
            T *restrict rr = r + (p * OH + i) * OW; \
            IT *restrict k = arg + (p * OH + i) * OW; \
            for (long j = 0; j < OW; j++) { \
                T c[(KH) * (KW)]; \
                for (int a = 0; a < (KH); a++) \
                    for (int b = 0; b < (KW); b++) c[a * (KW) + b] = w[a * W + j * (KW) + b]; \
                T m = c[0]; \
                for (int q = 1; q < (KH) * (KW); q++) m = OP(m, c[q]); \
                IT sel = 0; \
                for (int q = (KH) * (KW) - 1; q >= 0; q--) sel = c[q] == m ? (IT)q : sel; \
                nan |= m != m; \
                rr[j] = m; \
                k[j] = sel; \
            } \
        } \
    return nan; \
} \
void NAME##_bwd(const void *cto, const void *ao, void *go, long P, long H, long W, int add_zero) { \
    const T *ct = ARRAY_DATA(cto); \
    const IT *arg = ARRAY_DATA(ao); \
    T *g = ARRAY_DATA(go); \
    const long OH = H / (KH), OW = W / (KW); \
    const T zero = (T)0; \
    for (long p = 0; p < P; p++) { \
        for (long i = 0; i < OH; i++) { \
            T *restrict w = g + (p * H + i * (KH)) * W; \
            const T *c = ct + (p * OH + i) * OW; \
            const IT *s = arg + (p * OH + i) * OW; \
            for (long j = 0; j < OW; j++) { \
                const T v = add_zero ? c[j] + zero : c[j]; \
                UT u; memcpy(&u, &v, sizeof u); \
                for (int a = 0; a < (KH); a++) \
                    for (int b = 0; b < (KW); b++) { \
                        const UT o = u & -(UT)(s[j] == a * (KW) + b); /* (the cotangent or +0.0) */ \
                        memcpy(w + a * W + j * (KW) + b, &o, sizeof o); \
                    } \
            } \
            for (int a = 0; a < (KH); a++) \
                for (long q = OW * (KW); q < W; q++) w[a * W + q] = zero; \
        } \
        for (long q = (p * H + OH * (KH)) * W; q < (p + 1) * H * W; q++) g[q] = zero; \
    } \
}
#define POOLS(KH, KW) \
    POOL(max_f32_##KH##x##KW, float, int32_t, uint32_t, NP_MAX, KH, KW) \
    POOL(min_f32_##KH##x##KW, float, int32_t, uint32_t, NP_MIN, KH, KW) \
    POOL(max_f64_##KH##x##KW, double, int64_t, uint64_t, NP_MAX, KH, KW) \
    POOL(min_f64_##KH##x##KW, double, int64_t, uint64_t, NP_MIN, KH, KW)
POOLS(2, 2)
POOLS(3, 3)
POOLS(1, 2)
POOLS(2, 1)
"""
WINDOWS = ((2, 2), (3, 3), (1, 2), (2, 1))  # the windows compiled (each its own unrolled loop)

_UFUNC = {"max": np.maximum, "min": np.minimum}
_SPELLING = {"max": "NP_MAX({0}, {1})", "min": "NP_MIN({0}, {1})"}
_FWD_ARGS = [_O, _O, _O] + [_L] * 3
_BWD_ARGS = [_O, _O, _O] + [_L] * 3 + [ctypes.c_int]


def _function(kind: str, dt: np.dtype, part: str, window: tuple):
    """The compiled C function, or None (another dtype, a NumPy whose ``maximum`` C does not
    spell with its bits here, no compiler, the switch off)."""
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        return None
    if _nl.c_operation(_UFUNC[kind], [dt, dt], dt) != _SPELLING[kind]:
        return None
    name = f"{kind}_f{8 * dt.itemsize}_{window[0]}x{window[1]}_{part}"
    return _nl.compiled_function(_SOURCE, name, _FWD_ARGS if part == "fwd" else _BWD_ARGS,
                                 restype=ctypes.c_int if part == "fwd" else None, reads_arrays=True)


def applies(x, params) -> tuple | None:
    """The window ``(kh, kw)`` where ``reduce_window`` with ``params`` over ``x`` (a host
    float32/float64 array) pools disjoint windows tiling the last two axes (windows of 1 on
    the others, strides equal to the window, no padding or dilation; a window of
    `WINDOWS`); None otherwise.

    Example::

        >>> p = dict(window_dimensions=(1, 1, 2, 2), window_strides=(1, 1, 2, 2),
        ...          padding=((0, 0),) * 4, base_dilation=(1,) * 4, window_dilation=(1,) * 4)
        >>> applies(np.zeros((2, 3, 8, 8), np.float32), p)
        (2, 2)
    """
    wd, ws = tuple(params["window_dimensions"]), tuple(params["window_strides"])
    if (type(x) is not np.ndarray or x.ndim < 2 or x.dtype not in (np.dtype(np.float32), np.dtype(np.float64))
            or any(d != 1 for d in wd[:-2]) or ws[-2:] != wd[-2:] or any(s != 1 for s in ws[:-2])):
        return None
    if (any(lo or hi for lo, hi in params["padding"]) or any(d != 1 for d in params["base_dilation"])
            or any(d != 1 for d in params["window_dilation"])):
        return None
    kh, kw = wd[-2:]
    if (kh, kw) not in WINDOWS or x.shape[-2] < kh or x.shape[-1] < kw:
        return None
    return (kh, kw)


def pool_forward(x: np.ndarray, window: tuple, kind: str):
    """``(extrema, cells, nan)`` of the disjoint ``window`` ``(kh, kw)`` over ``x``'s last
    two axes (`applies`): the extrema (NumPy's bits), the index (row-major in the window) of
    each window's first cell equal to its extremum (int32; int64 for float64), and whether
    some extremum is NaN (the cells then mean nothing); None where the native code cannot run.

    Example::

        >>> r = pool_forward(np.arange(8.0).reshape(1, 2, 4), (2, 2), "min")
        >>> r is None or (r[0].tolist(), r[1].tolist()) == ([[[0.0, 2.0]]], [[[0, 0]]])
        True
    """
    fn = _function(kind, x.dtype, "fwd", window)
    if fn is None:
        return None
    kh, kw = window
    h, w = x.shape[-2:]
    out = x.shape[:-2] + (h // kh, w // kw)
    x = np.ascontiguousarray(x)
    res = _pooled_empty(np, out, x.dtype)
    cells = np.empty(out, np.int32 if x.itemsize == 4 else np.int64)
    nan = fn(x, res, cells, x.size // (h * w), h, w)
    return res, cells, bool(nan)


def pool_gradient(ct: np.ndarray, cells: np.ndarray, shape: tuple, window: tuple):
    """The gradient of the pooled operand (``shape``) given the cotangent ``ct`` of the
    extrema and `pool_forward`'s ``cells``: each window's cotangent at its cell, ``+0.0``
    elsewhere (the NumPy path's bits); None where the native code cannot run.

    Example::

        >>> x = np.array([[1.0, 5.0], [2.0, 0.0]])
        >>> r = pool_forward(x, (2, 2), "max")
        >>> g = None if r is None else pool_gradient(np.array([[7.0]]), r[1], x.shape, (2, 2))
        >>> g is None or g.tolist() == [[0.0, 7.0], [0.0, 0.0]]
        True
    """
    if type(ct) is not np.ndarray or ct.shape != cells.shape or ct.itemsize != cells.itemsize:
        return None
    fn = _function("max", ct.dtype, "bwd", window)  # (the gradient is the same for both kinds)
    if fn is None:
        return None
    kh, kw = window
    h, w = shape[-2:]
    ct = np.ascontiguousarray(ct)
    g = _pooled_empty(np, tuple(shape), ct.dtype)
    fn(ct, cells, g, g.size // (h * w), h, w, int(bool(np.isfinite(ct).all())))
    return g
