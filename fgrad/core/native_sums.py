"""Float32 sums over leading axes in C, in NumPy's order (the shim's bias and weight gradients).

The host sum of a float32 array over its leading axes with more than a few rows accumulates in
float64 (`fgrad.ops.shape.sum_accumulator`): ``np.add.reduce(x, axis=axes, dtype=float64)``,
then one rounding to float32.  For a C-contiguous array whose kept trailing part has at least
two elements NumPy's iterator keeps that part innermost: each column's accumulator starts at
0.0 and the rows are added one after the other (a signed zero sums to +0.0).  That order is
plain C: a loop over the rows adding each into a block of 256 double accumulators (vectorized
across columns, each lane the IEEE addition, no reassociation), then the rounding.  It replaces
NumPy's buffered cast-and-add, which costs two to four passes (a (512, 64) column sum: 20 us
against 4 us).  A single kept element is a contiguous reduction, which NumPy sums pairwise: not
done here.

Compiled once (one source for every shape) into the native-loop cache with the flags and
switch of `core.native_loops` (``FGRAD_NATIVE_LOOPS=0``); no compiler, another dtype, a
non-contiguous array or a small sum (under `MIN_ELEMENTS`) run NumPy's code.

Example::

    >>> import numpy as np
    >>> x = np.linspace(-1, 1, 4096, dtype=np.float32).reshape(64, 64)
    >>> run = leading_sum((64, 64), (0,))
    >>> run is None or bool((run(x) == np.add.reduce(x, axis=0, dtype=np.float64).astype(np.float32)).all())
    True
"""

from __future__ import annotations

import ctypes
import math
from typing import Callable

import numpy as np

from . import native_loops

MIN_ELEMENTS = 2048  # smaller sums: the call's fixed cost is not worth it
_SOURCE = native_loops.PRELUDE + native_loops.ARRAY_DATA + r"""
void leading_sum(const void *a, void *o, long rows, long cols) {
  const float *restrict x = ARRAY_DATA(a);
  float *restrict out = ARRAY_DATA(o);
  double acc[256];
  for (long c0 = 0; c0 < cols; c0 += 256) {
    const long n = cols - c0 < 256 ? cols - c0 : 256;
    for (long c = 0; c < n; c++) acc[c] = 0.0;
    for (long r = 0; r < rows; r++) {
      const float *restrict row = x + r * cols + c0;
      for (long c = 0; c < n; c++) acc[c] += (double)row[c];
    }
    for (long c = 0; c < n; c++) out[c0 + c] = (float)acc[c];
  }
}
"""
_F32 = np.dtype(np.float32)
_fn: list = []


def _function():
    """The compiled C function (compiled on first use), or None."""
    if not _fn:
        lib = native_loops.load(_SOURCE, native_loops.VECTOR_FLAGS)
        fn = None
        if lib is not None:
            fn = lib.leading_sum
            fn.restype = None
            fn.argtypes = [ctypes.py_object, ctypes.py_object, ctypes.c_long, ctypes.c_long]
        _fn.append(fn)
    return _fn[0]


def leading_sum(shape: tuple, axes: tuple) -> Callable | None:
    """``run(x)``: the float32 sum of ``x`` (float32, of ``shape``) over the leading ``axes``
    accumulated in float64 -- bit for bit ``np.add.reduce(x, axis=axes, dtype=np.float64)
    .astype(np.float32)`` -- or None at run time where it cannot (the caller runs NumPy's
    code); None where the sum does not qualify here (see the module docstring)."""
    shape, axes = tuple(shape), tuple(axes)
    k = len(axes)
    if not 0 < k < len(shape) or axes != tuple(range(k)):
        return None
    rows, cols = math.prod(shape[:k]), math.prod(shape[k:])
    if cols < 2 or rows * cols < MIN_ELEMENTS or not native_loops.available():
        return None
    if not native_loops.array_layout_ok():
        return None
    kept = shape[k:]
    enabled, empty, f32, ndarray = native_loops.enabled, np.empty, _F32, np.ndarray

    def run(x):
        if (type(x) is not ndarray or x.dtype != f32 or x.shape != shape or not x.flags.c_contiguous
                or not enabled()):
            return None
        fn = _function()
        if fn is None:
            return None
        out = empty(kept, f32)
        fn(x, out, rows, cols)
        return out

    return run
