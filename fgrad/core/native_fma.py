"""Fused multiply-add over arrays in native code: ``a * b + c`` rounded once, for
`fgrad.torch._fma`'s ``fma32``/``fma64`` (PyTorch's fused CPU kernels: ``add``/``sub`` with
``alpha``, ``lerp``, ``addcmul``; an optimizer's weight decay).

The NumPy forms there reach the fused value with float64 products and error-free
transformations: five or more passes over the data and their temporaries (an Adam step with
weight decay spent most of its time there).  The C loop is one pass: on CPUs with AVX2 and
FMA (checked at run time) the FMA instruction, vectorized; elsewhere libm's ``fmaf``/``fma``
(correctly rounded).  Its value is the NumPy forms' bit for bit except where they fall short
of the correctly rounded one: ``fma32``'s float32 subnormal results (which may round twice
there) and ``fma64``'s zero results (TwoSum gives ``-0.0 * 3 + -0.0`` as ``+0.0``; IEEE and
PyTorch give ``-0.0``).

Each operand is a float32 (or float64) host array, either of the result's shape and
C-contiguous or holding one value (broadcast); anything else (other dtypes, broadcasting
of partial shapes, strided operands), native loops switched off (``config.update(
"native_loops", False)`` or ``FGRAD_NATIVE_LOOPS=0``) or no C compiler: `fused_multiply_add`
returns None and the caller computes with NumPy.

Example::

    >>> a = np.float32([1 + 2 ** -12])
    >>> r = fused_multiply_add(a, a, np.float32([-1.0]))
    >>> r is None or float(r[0]) == 2 ** -11 + 2 ** -24
    True
"""

from __future__ import annotations

import ctypes

import numpy as np

from . import native_loops as _nl

_O = ctypes.py_object
_L = ctypes.c_long
MIN_SIZE = 16  # below this the NumPy forms' few scalar passes cost about a call

_SOURCE = _nl.PRELUDE + _nl.ARRAY_DATA + r"""
/* out[i] = fma(a[i * sa], b[i * sb], c[i * sc]), each step 0 (one value) or 1 (the result
   never aliases an operand: it is new); the loop is built twice, for CPUs with the AVX2 and
   FMA instructions (the call inlined and vectorized, one loop per pattern of steps) and
   without (libm's correctly rounded function), and picked at run time */
#define FMA_STEPS(FMA, SA, SB, SC) for (long i = 0; i < n; i++) out[i] = FMA(a[i * SA], b[i * SB], c[i * SC])
#define FMA_LOOP(NAME, T, FMA) \
__attribute__((target("avx2,fma"))) static void NAME##_hw(const T *restrict a, long sa, const T *restrict b, \
                                                         long sb, const T *restrict c, long sc, \
                                                         T *restrict out, long n) { \
    switch (sa * 4 + sb * 2 + sc) { \
        case 1: FMA_STEPS(FMA, 0, 0, 1); break; \
        case 2: FMA_STEPS(FMA, 0, 1, 0); break; \
        case 3: FMA_STEPS(FMA, 0, 1, 1); break; \
        case 4: FMA_STEPS(FMA, 1, 0, 0); break; \
        case 5: FMA_STEPS(FMA, 1, 0, 1); break; \
        case 6: FMA_STEPS(FMA, 1, 1, 0); break; \
        default: FMA_STEPS(FMA, sa, sb, sc); \
    } \
} \
static void NAME##_sw(const T *a, long sa, const T *b, long sb, const T *c, long sc, T *out, long n) { \
    FMA_STEPS(FMA, sa, sb, sc); \
} \
void NAME(const void *ao, long sa, const void *bo, long sb, const void *co, long sc, void *oo, long n) { \
    const T *a = ARRAY_DATA(ao), *b = ARRAY_DATA(bo), *c = ARRAY_DATA(co); \
    T *out = ARRAY_DATA(oo); \
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) \
        NAME##_hw(a, sa, b, sb, c, sc, out, n); \
    else \
        NAME##_sw(a, sa, b, sb, c, sc, out, n); \
}
FMA_LOOP(fma_f32, float, fmaf)
FMA_LOOP(fma_f64, double, fma)
"""

_NAMES = {np.dtype(np.float32): "fma_f32", np.dtype(np.float64): "fma_f64"}
_ARGTYPES = [_O, _L, _O, _L, _O, _L, _O, _L]


def fused_multiply_add(a, b, c) -> np.ndarray | None:
    """``a * b + c`` rounded once, as a new array of the operands' dtype (float32 or
    float64, all three alike) and the shape of the largest operand; each operand a NumPy
    array (or NumPy scalar) of that shape, C-contiguous, or of one value.  None where the C
    loop cannot run (see the module).

    Example::

        >>> r = fused_multiply_add(np.float64(3.0), np.arange(3.0), np.ones(3))
        >>> r is None or r.tolist() == [1.0, 4.0, 7.0]
        True
    """
    full = None
    ops = []
    for x in (a, b, c):
        if type(x) is not np.ndarray:
            if not isinstance(x, np.generic):
                return None
            x = np.asarray(x)
        if x.size != 1:
            if full is not None and x.shape != full.shape or not x.flags.c_contiguous:
                return None
            full = x
        ops.append(x)
    if full is None or full.size < MIN_SIZE:
        return None
    dt, nd = full.dtype, full.ndim
    x, y, z = ops
    if x.dtype != dt or y.dtype != dt or z.dtype != dt or x.ndim > nd or y.ndim > nd or z.ndim > nd:
        return None  # (mixed dtypes; a one-value operand of higher rank broadcasts the result)
    fn = _nl.compiled_function(_SOURCE, _NAMES[dt], _ARGTYPES, reads_arrays=True) if dt in _NAMES else None
    if fn is None:
        return None
    out = np.empty(full.shape, dt)
    fn(x, x.size != 1, y, y.size != 1, z, z.size != 1, out, full.size)  # (a step 0 reads one value)
    return out
