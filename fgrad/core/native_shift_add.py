"""The shift-and-add of a convolution (col2im) in native code: `ops.convolution`'s
``_shift_add_slices`` as one C loop.

`_conv_shift_add` computes every kernel offset's products at every input position with one
GEMM, ``z`` (NG, K0, K1, Og, S0, S1), and then adds each offset's block into its output
positions, ``res[..., out slice] += z[..., offset, ..., in slice]``, one strided NumPy add per
offset (16 for a 4x4 transposed convolution), each a pass over the whole result.  Here the
same additions run plane by plane (one ``(n, g, og)`` output plane, small enough for the
core's first-level cache, takes all its offsets in turn): every output element starts at
``+0.0`` and gets the same products added in the same order (the plan's, `np.ndindex`
order of the offsets), as IEEE float/double additions (the `native_loops` flags), so the
result is NumPy's bit for bit.  ``tests/test_native_shift_add.py`` compares the two.

A plan row per offset: ``k0, k1`` and per axis ``(out start, count, out step, in start, in
step)``.  Two spatial axes (one: a leading axis of size 1); float32 and float64; the
arrays C-contiguous; else the caller keeps its NumPy loop (the function returns False).
Compiled and cached as `native_loops` does (its switch: ``config.update("native_loops",
False)``).

Example::

    >>> import numpy as np
    >>> z = np.ones((1, 1, 2, 1, 1, 3), np.float32)          # (NG, K0, K1, Og, S0, S1)
    >>> res = np.empty((1, 1, 1, 4), np.float32)            # (NG, Og, O0, O1)
    >>> rows = np.array([[0, k, 0, 1, 1, 0, 1, k, 3, 1, 0, 1] for k in (0, 1)])
    >>> shift_add_2d(z, res, rows) is False or res.ravel().tolist() == [1.0, 2.0, 2.0, 1.0]
    True
"""

from __future__ import annotations

import ctypes

import numpy as np

from . import native_loops as _nl

_O = ctypes.py_object
_L = ctypes.c_long
ROW = 12  # longs per plan row

_SOURCE = _nl.PRELUDE + _nl.ARRAY_DATA + r"""
#define SHIFT_ADD(NAME, T) \
void NAME(const void *zo, void *ro, long NG, long K0, long K1, long Og, long S0, long S1, long O0, \
          long O1, const void *po, long rows) { \
    const T *z = ARRAY_DATA(zo); \
    T *res = ARRAY_DATA(ro); \
    const long *plan = ARRAY_DATA(po); \
    const long sin = S0 * S1, sout = O0 * O1; \
    for (long ng = 0; ng < NG; ng++) { \
        for (long og = 0; og < Og; og++) { \
            T *out = res + (ng * Og + og) * sout; \
            for (long q = 0; q < sout; q++) out[q] = 0; \
            for (long e = 0; e < rows; e++) { \
                const long *r = plan + e * 12; \
                const T *in = z + (((ng * K0 + r[0]) * K1 + r[1]) * Og + og) * sin; \
                const long p0 = r[2], c0 = r[3], ps0 = r[4], i0 = r[5], is0 = r[6]; \
                const long p1 = r[7], c1 = r[8], ps1 = r[9], i1 = r[10], is1 = r[11]; \
                for (long a = 0; a < c0; a++) { \
                    T *o = out + (p0 + a * ps0) * O1 + p1; \
                    const T *x = in + (i0 + a * is0) * S1 + i1; \
                    if (ps1 == 1 && is1 == 1) { \
                        for (long b = 0; b < c1; b++) o[b] = o[b] + x[b]; \
                    } else { \
                        for (long b = 0; b < c1; b++) o[b * ps1] = o[b * ps1] + x[b * is1]; \
                    } \
                } \
            } \
        } \
    } \
}
SHIFT_ADD(shift_add_f32, float)
SHIFT_ADD(shift_add_f64, double)
"""

_ARGTYPES = [_O, _O] + [_L] * 8 + [_O, _L]
_NAMES = {np.dtype(np.float32): "shift_add_f32", np.dtype(np.float64): "shift_add_f64"}
def plan_rows(plan: tuple, nd: int) -> np.ndarray | None:
    """The C plan of `ops.convolution._slice_plan`'s ``(res index, z index)`` pairs, whose
    indices are ``(:, :, :, *out slices)`` and ``(:, :, *offset, :, *in slices)``, for one or
    two spatial axes (None for more).

    Example::

        >>> every = slice(None)
        >>> pairs = (((every,) * 3 + (slice(0, 3),), (every,) * 2 + (1, every, slice(1, 4))),)
        >>> plan_rows(pairs, 1).tolist()
        [[0, 1, 0, 1, 1, 0, 1, 0, 3, 1, 1, 1]]
    """
    if nd not in (1, 2):
        return None
    rows = []
    for r, zi in plan:
        offs = zi[2:2 + nd]
        outs, ins = r[3:], zi[3 + nd:]
        axes = []
        for o, i in zip(outs, ins):
            n = len(range(o.start, o.stop, o.step or 1))
            axes.append((o.start, n, o.step or 1, i.start, i.step or 1))
        if nd == 1:
            offs, axes = (0,) + tuple(offs), [(0, 1, 1, 0, 1)] + axes
        rows.append(list(offs) + [v for ax in axes for v in ax])
    return np.array(rows, dtype=np.int64).reshape(-1, ROW)


def shift_add_2d(z: np.ndarray, res: np.ndarray, rows: np.ndarray) -> bool:
    """Fill ``res`` (NG, Og, *out) with the sums of ``z``'s (NG, *K, Og, *sin) blocks the plan
    ``rows`` (`plan_rows`) names, from zero; one or two spatial axes.  False (``res``
    untouched) where the native code cannot run: then add with NumPy.

    Example::

        >>> z = np.ones((1, 1, 1, 1, 1), np.float64)   # (NG, K, Og, S) with one axis
        >>> res = np.empty((1, 1, 3))
        >>> rows = np.array([[0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1]])
        >>> shift_add_2d(z, res, rows) is False or res.tolist() == [[[0.0, 1.0, 0.0]]]
        True
    """
    name = _NAMES.get(z.dtype)
    nd = res.ndim - 2
    if (name is None or res.dtype != z.dtype or nd not in (1, 2) or z.ndim != 2 + 2 * nd
            or type(z) is not np.ndarray or type(res) is not np.ndarray
            or not (z.flags.c_contiguous and res.flags.c_contiguous and rows.flags.c_contiguous)
            or rows.dtype != np.int64):
        return False
    fn = _nl.compiled_function(_SOURCE, name, _ARGTYPES, reads_arrays=True)
    if fn is None:
        return False
    if nd == 1:
        ng, k1, og, s1 = z.shape
        fn(z, res, ng, 1, k1, og, 1, s1, 1, res.shape[2], rows, rows.shape[0])
    else:
        ng, k0, k1, og, s0, s1 = z.shape
        fn(z, res, ng, k0, k1, og, s0, s1, res.shape[2], res.shape[3], rows, rows.shape[0])
    return True
