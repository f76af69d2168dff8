"""float32 -> bfloat16 casts in native code: ``x.astype(bfloat16)`` (`ml_dtypes`'s cast, which
`fgrad.ops.elementwise.convert_element_type` calls) in one vectorized C pass.

``ml_dtypes`` casts element by element at ~0.4 ns a value, 2-3x PyTorch's cast; a bfloat16
autocast program casts every matmul's operands and results (19 casts in a ``Linear``'s
forward and backward).  The C loop computes the same bits: round to nearest, ties to even, on
the float32 bit pattern (``(u + 0x7fff + ((u >> 16) & 1)) >> 16``: subnormals, overflow to
infinity and infinities included), and a NaN becomes the quiet NaN ``0x7fc0`` with its sign,
as ``ml_dtypes`` gives it.  ``tests/test_native_casts.py`` compares it with ``ml_dtypes`` on
every exponent, the rounding boundaries and NaN payloads.  Unlike ``ml_dtypes`` it does not
raise NumPy's "invalid value encountered in cast" for NaN (PyTorch does not warn either;
fgrad's programs run with NumPy's reports off anyway).

Compiled and cached as `native_loops` does (its switch: ``config.update("native_loops",
False)`` or ``FGRAD_NATIVE_LOOPS=0``); without a library, for a non-contiguous array or one
below `MIN_SIZE` values, `f32_to_bf16` returns None and the caller casts with NumPy.

Example::

    >>> x = np.full(4096, 1 + 2 ** -8, np.float32)   # a tie: rounds to the even 1.0
    >>> r = f32_to_bf16(x)
    >>> r is None or (float(r[0]), str(r.dtype)) == (1.0, "bfloat16")
    True
"""

from __future__ import annotations

import ctypes

import numpy as np

from . import native_loops as _nl
from .narrow_floats import bfloat16

_F32 = np.dtype(np.float32)
_BF16 = np.dtype(bfloat16)
MIN_SIZE = 2048  # below this NumPy's cast costs about the call

_SOURCE = _nl.PRELUDE + _nl.ARRAY_DATA + r"""
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CLONES
#endif
/* float32 bits -> bfloat16 bits: round to nearest even; NaN -> quiet NaN with its sign */
CLONES void f32_to_bf16(const void *xo, void *oo, long n) {
    const uint32_t *restrict x = ARRAY_DATA(xo);
    uint16_t *restrict out = ARRAY_DATA(oo);
    for (long i = 0; i < n; i++) {
        const uint32_t u = x[i];
        const uint16_t rounded = (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
        const uint16_t nan = (uint16_t)(((u >> 16) & 0x8000u) | 0x7FC0u);
        out[i] = (u & 0x7FFFFFFFu) > 0x7F800000u ? nan : rounded;
    }
}
"""


def f32_to_bf16(x: np.ndarray) -> np.ndarray | None:
    """``x.astype(bfloat16)`` of a C-contiguous float32 array of at least `MIN_SIZE` values,
    bit for bit, as a new array of ``x``'s shape; None where the native loop cannot run.

    Example::

        >>> r = f32_to_bf16(np.arange(4096, dtype=np.float32))
        >>> r is None or float(r[257]) == 256.0   # 257 lies on a tie: to the even 256
        True
    """
    if type(x) is not np.ndarray or x.dtype != _F32 or x.size < MIN_SIZE or not x.flags.c_contiguous:
        return None
    fn = _nl.compiled_function(_SOURCE, "f32_to_bf16", [ctypes.py_object, ctypes.py_object, ctypes.c_long],
                               reads_arrays=True)
    if fn is None:
        return None
    out = np.empty(x.shape, _BF16)
    fn(x, out, x.size)
    return out
