"""Float32 sums with a float64 accumulator, in NumPy's own order, compiled to native code.

``np.add.reduce(x, axis=axes, dtype=np.float64)`` on a float32 array (what `ops.shape`'s
wide sums and BatchNorm's statistics call) casts through NumPy's iterator buffers and costs
~0.3-0.8 ns an element, several times a plain pass over the memory.  For a C-contiguous
array whose kept axes are one block, i.e. viewed as ``(A, K, B)`` summed over ``A`` and ``B``
(BatchNorm's ``(N, C, H, W)`` over ``(0, 2, 3)``; a ``(rows, features)`` sum over rows),
NumPy's order is: every ``out[k]`` starts at ``+0.0`` and adds, for ``a = 0, 1, ...`` in turn,
the pairwise sum (NumPy's ``pairwise_sum``: blocks of at most 128 values summed in eight
interleaved accumulators, halves of longer runs at multiples of 8) of the run ``x[a, k, :]``
converted to float64.  That holds while a run fits one buffer (``B`` at most 8192, the
buffer size NumPy ships with; after another `numpy.setbufsize` NumPy sums) and ``K > 1``
(with one kept value NumPy sums the array as one run); the C functions here compute
exactly those additions (IEEE doubles, no contraction: the `native_loops` flags), so their
results are NumPy's bit for bit, and every other case is left to NumPy (the functions
return None).  ``tests/test_native_sums.py`` compares them with
NumPy on values spread over 2**-40..2**40 (where any other order shows) for many shapes.

`leading_sum` plans the same C sum once for a shape summed over its leading axes (the
executor's and the code generator's ``reduce_sum``: bias and weight gradients) and returns a
call giving the float32 result, ``np.add.reduce(x, axes, dtype=np.float64).astype(np.float32)``
bit for bit; with the plan made in advance it pays from `MIN_PLANNED` elements.

`sq_dev_sums` is the second pass of a float64 variance, ``np.add.reduce((x - mean)**2,
axes)`` with ``x - mean`` in float64 (an unbuffered float64 reduction, same order), without
the float64 temporary.

Compiled and cached as `native_loops` does (its compiler, flags, private cache and switch:
``config.update("native_loops", False)`` or ``FGRAD_NATIVE_LOOPS=0``).

Example::

    >>> import numpy as np
    >>> x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    >>> s = wide_sums(x, (0, 2))
    >>> s is None or bool((s == np.add.reduce(x, axis=(0, 2), dtype=np.float64)).all())
    True
"""

from __future__ import annotations

import ctypes
from typing import Callable

import numpy as np

from . import native_loops as _nl

_F32 = np.dtype(np.float32)
_O = ctypes.py_object  # (the C functions read the arrays' data pointers: `native_loops.ARRAY_DATA`)
_L = ctypes.c_long
_BUFFER = 8192  # NumPy's default buffer size (elements): a longer run is summed in pieces
MIN_SIZE = 8192  # smaller arrays are left to NumPy (its call costs about what this one does)
# BatchNorm's statistics (`wide_sums` then `sq_dev_sums`) replace four NumPy calls and a float64
# temporary: the C pair pays from far smaller arrays (the same bits at every size)
STATS_MIN_SIZE = 256
MIN_PLANNED = 2048  # `leading_sum`'s floor (its plan is made once, so its call is cheaper)
_plans: dict = {}  # (shape, axes) -> (A, K, B, the kept axes' shape) or None

_SOURCE = _nl.PRELUDE + _nl.ARRAY_DATA + r"""
/* NumPy's pairwise_sum (numpy/_core/src/umath/loops_utils.h.src) of n float32 values
   mapped to double by LOAD, with `m` a per-run constant LOAD may read */
#define PAIRWISE(NAME, LOAD) \
static double NAME(const float *a, long n, double m) { \
    if (n < 8) { \
        double res = 0.; \
        for (long i = 0; i < n; i++) res += LOAD(a[i]); \
        return res; \
    } \
    if (n <= 128) { \
        double r[8], res; \
        long i; \
        for (int j = 0; j < 8; j++) r[j] = LOAD(a[j]); \
        for (i = 8; i < n - (n % 8); i += 8) \
            for (int j = 0; j < 8; j++) r[j] += LOAD(a[i + j]); \
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])); \
        for (; i < n; i++) res += LOAD(a[i]); \
        return res; \
    } \
    long n2 = n / 2; \
    n2 -= n2 % 8; \
    return NAME(a, n2, m) + NAME(a + n2, n - n2, m); \
}
#define WIDE(v) ((double)(v))
#define SQ_DEV(v) (((double)(v) - m) * ((double)(v) - m))
PAIRWISE(pairwise_wide, WIDE)
PAIRWISE(pairwise_sq_dev, SQ_DEV)

/* out[k] = sum over a of pairwise(x[a, k, :]), from +0.0 (B == 1: out[k] + (0. + v) is
   out[k] + v, as out[k] is never -0.0) */
void wide_sums(const void *xo, long A, long K, long B, void *oo) {
    const float *x = ARRAY_DATA(xo);
    double *out = ARRAY_DATA(oo);
    for (long k = 0; k < K; k++) out[k] = 0.;
    for (long a = 0; a < A; a++) {
        const float *row = x + a * K * B;
        if (B == 1) {
            for (long k = 0; k < K; k++) out[k] += (double)row[k];
        } else {
            for (long k = 0; k < K; k++) out[k] += pairwise_wide(row + k * B, B, 0.);
        }
    }
}

/* the same order over (x - mean[k])**2 in double (a square is never -0.0) */
void sq_dev_sums(const void *xo, long A, long K, long B, const void *mo, void *oo) {
    const float *x = ARRAY_DATA(xo);
    const double *mean = ARRAY_DATA(mo);
    double *out = ARRAY_DATA(oo);
    for (long k = 0; k < K; k++) out[k] = 0.;
    for (long a = 0; a < A; a++) {
        const float *row = x + a * K * B;
        if (B == 1) {
            for (long k = 0; k < K; k++) {
                double d = (double)row[k] - mean[k];
                out[k] += d * d;
            }
        } else {
            for (long k = 0; k < K; k++) out[k] += pairwise_sq_dev(row + k * B, B, mean[k]);
        }
    }
}
"""

def blocks(x: np.ndarray, axes: tuple, buffered: bool = True) -> tuple | None:
    """``(A, K, B)`` when a sum of ``x`` over ``axes`` is NumPy's (A, K, B) order (see the
    module), else None: ``x`` a C-contiguous float32 host array of at least `MIN_SIZE`
    values, the kept axes one block of more than one value, runs of at most one buffer
    (``buffered``: the cast to float64 goes through NumPy's buffers).

    Example::

        >>> blocks(np.zeros((32, 8, 8, 8), np.float32), (0, 2, 3))
        (32, 8, 64)
    """
    plan = _plan_of(x, axes, buffered)
    return None if plan is None else plan[:3]


def _plan_of(x: np.ndarray, axes: tuple, buffered: bool, min_size: int | None = None) -> tuple | None:
    """`blocks` and the kept axes' shape (arrays of at least ``min_size`` values, default
    `MIN_SIZE`)."""
    if min_size is None:
        min_size = MIN_SIZE
    if type(x) is not np.ndarray or x.dtype != _F32 or x.size < min_size or not x.flags.c_contiguous:
        return None
    key = (x.shape, axes)
    akb = _plans.get(key, False)
    if akb is False:
        akb = _plan(x.shape, axes)
        if len(_plans) > 4096:
            _plans.clear()
        _plans[key] = akb
    if akb is None or (buffered and (akb[2] > _BUFFER or np.getbufsize() != _BUFFER)):
        return None
    return akb


def _plan(shape: tuple, axes) -> tuple | None:
    if type(axes) is not tuple or any(type(a) is not int or not 0 <= a < len(shape) for a in axes):
        return None
    kept = [i for i in range(len(shape)) if i not in axes]
    if not kept or kept[-1] - kept[0] != len(kept) - 1:
        return None
    a = b = k = 1
    for i, n in enumerate(shape):
        if i < kept[0]:
            a *= n
        elif i > kept[-1]:
            b *= n
        else:
            k *= n
    return (a, k, b, tuple(shape[kept[0]:kept[-1] + 1])) if k > 1 and a * b > 0 else None


def wide_sums(x: np.ndarray, axes: tuple, min_size: int | None = None) -> np.ndarray | None:
    """``np.add.reduce(x, axis=axes, dtype=np.float64)`` bit for bit (the kept axes' shape),
    or None where this module does not apply (then call NumPy); ``min_size``: the smallest
    array taken (default `MIN_SIZE`).

    Example::

        >>> x = np.ones((3, 2, 5), np.float32)
        >>> s = wide_sums(x, (0, 2))
        >>> s is None or s.tolist() == [15.0, 15.0]
        True
    """
    plan = _plan_of(x, axes, True, min_size)
    if plan is None:
        return None
    fn = _nl.compiled_function(_SOURCE, "wide_sums", [_O, _L, _L, _L, _O], reads_arrays=True)
    if fn is None:
        return None
    out = np.empty(plan[3], np.float64)
    fn(x, *plan[:3], out)
    return out


def sq_dev_sums(x: np.ndarray, axes: tuple, mean: np.ndarray,
                min_size: int | None = None) -> np.ndarray | None:
    """``np.add.reduce(np.subtract(x, m, dtype=np.float64) ** 2, axis=axes)`` bit for bit,
    ``m`` the float64 ``mean`` (one value per kept element, in their order) broadcast over the
    summed axes; None where this module does not apply (``min_size`` as `wide_sums`).

    Example::

        >>> x = np.array([[1.0, 2.0], [3.0, 6.0]], np.float32)
        >>> s = sq_dev_sums(x, (0,), np.array([2.0, 4.0]))
        >>> s is None or s.tolist() == [2.0, 8.0]
        True
    """
    plan = _plan_of(x, axes, False, min_size)
    if plan is None:
        return None
    fn = _nl.compiled_function(_SOURCE, "sq_dev_sums", [_O, _L, _L, _L, _O, _O], reads_arrays=True)
    if fn is None:
        return None
    m = np.ascontiguousarray(mean, np.float64).reshape(-1)
    if m.size != plan[1]:
        raise ValueError(f"sq_dev_sums: {m.size} means for {plan[1]} sums")
    out = np.empty(plan[3], np.float64)
    fn(x, *plan[:3], m, out)
    return out


def leading_sum(shape: tuple, axes: tuple) -> Callable | None:
    """``run(x)``: the float32 sum of ``x`` (float32, of ``shape``) over the leading ``axes``
    accumulated in float64 -- bit for bit ``np.add.reduce(x, axis=axes, dtype=np.float64)
    .astype(np.float32)`` -- or None at run time where it cannot (the caller runs NumPy's
    code); None where the sum does not qualify (not leading axes, one kept value, under
    `MIN_PLANNED` values, no compiler).

    Example::

        >>> x = np.linspace(-1, 1, 4096, dtype=np.float32).reshape(64, 64)
        >>> run = leading_sum((64, 64), (0,))
        >>> want = np.add.reduce(x, axis=0, dtype=np.float64).astype(np.float32)
        >>> run is None or bool((run(x) == want).all())
        True
    """
    shape, axes = tuple(shape), tuple(axes)
    if not 0 < len(axes) < len(shape) or axes != tuple(range(len(axes))):
        return None
    plan = _plan(shape, axes)
    if plan is None or plan[0] * plan[1] < MIN_PLANNED or not _nl.available() or not _nl.array_layout_ok():
        return None
    a, k, b, kept = plan
    ndarray, f32, f64, empty = np.ndarray, _F32, np.dtype(np.float64), np.empty
    compiled = _nl.compiled_function
    argtypes = [_O, _L, _L, _L, _O]

    def run(x):
        if type(x) is not ndarray or x.dtype != f32 or x.shape != shape or not x.flags.c_contiguous:
            return None
        fn = compiled(_SOURCE, "wide_sums", argtypes, reads_arrays=True)  # (None with native loops off)
        if fn is None:
            return None
        out = empty(kept, f64)
        fn(x, a, k, b, out)
        return out.astype(f32)

    return run
