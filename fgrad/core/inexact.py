"""JAX's rules for the dtype a float-only function computes in (``dtypes.to_inexact_dtype``)
and the one a numeric-only function computes bools in (``dtypes.to_numeric_dtype``).

A function defined only on floats (``sin``, ``sqrt``, true division, ``mean``, ``var``,
``linalg``, ``fft``, special functions, activations, ...) computes integer and bool inputs
in a float type.  NumPy picks the smallest float that holds the integer's range (``int8 ->
float16``, ``int32 -> float64``); JAX maps by width: bool and integers up to 32 bits become
float32, 64-bit integers float64, and floats and complex types stay.  The result is then
canonical (float32 while 64-bit types are off).  Operands that mix kinds first promote as
usual (``bool_array / 2`` meets a weak Python int, so the join is the default int and the
division is float64).

Numeric-only functions (``power``, ``mod``, ``floor_divide``, ``fmod``, ``square``) compute
bools as int32 (JAX's ``to_numeric_dtype``), where NumPy gives int8 or bool.

Every float-only function of the functional face asks this module (through
`fgrad.ops.elementwise.promote_args_inexact` for operands); the PyTorch face keeps PyTorch's
rule (its default float dtype).

Example::

    >>> import numpy as np
    >>> to_inexact_dtype(np.int8), to_inexact_dtype(np.int64), to_inexact_dtype(np.float16)
    (dtype('float32'), dtype('float64'), dtype('float16'))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .narrow_floats import dtype_kind, promote_types
from .weak_types import join_is_weak
from .x64_mode import canonical_dtype

__all__ = ["to_inexact_dtype", "to_complex_dtype", "to_numeric_dtype", "inexact_join"]

_FLOAT32 = np.dtype(np.float32)
_FLOAT64 = np.dtype(np.float64)
_CACHE: dict = {}


def to_inexact_dtype(dtype: Any) -> np.dtype:
    """The dtype a float-only function computes ``dtype`` in: float and complex types as they
    are; bool and integers of up to 32 bits float32; 64-bit integers float64; canonical
    (64-bit types narrowed while they are off).

    Example::

        >>> to_inexact_dtype("bool"), to_inexact_dtype("uint32"), to_inexact_dtype("complex64")
        (dtype('float32'), dtype('float32'), dtype('complex64'))
    """
    dt = np.dtype(dtype)
    if dtype_kind(dt) in "fc":
        return canonical_dtype(dt)
    if dt.kind not in "biu":
        raise TypeError(f"no inexact dtype for {dt}: expected a numeric dtype")
    return canonical_dtype(_FLOAT64 if dt.itemsize == 8 else _FLOAT32)


def to_complex_dtype(dtype: Any) -> np.dtype:
    """The complex dtype a function with complex results computes ``dtype`` in (JAX's
    ``dtypes.to_complex_dtype``): complex128 where `to_inexact_dtype` is a 64-bit type,
    complex64 otherwise (16- and 32-bit floats, integers up to 32 bits, bool).

    Example::

        >>> to_complex_dtype("float16"), to_complex_dtype("int64")
        (dtype('complex64'), dtype('complex128'))
    """
    ft = to_inexact_dtype(dtype)
    wide = ft == _FLOAT64 or ft == np.complex128
    return canonical_dtype(np.complex128 if wide else np.complex64)


def to_numeric_dtype(dtype: Any) -> np.dtype:
    """The dtype a numeric-only function computes ``dtype`` in: bool as int32, others as they
    are.

    Example::

        >>> to_numeric_dtype("bool"), to_numeric_dtype("uint8")
        (dtype('int32'), dtype('uint8'))
    """
    dt = np.dtype(dtype)
    return np.dtype(np.int32) if dt.kind == "b" else dt


def inexact_join(strong: list, weak: list) -> tuple[np.dtype | None, bool]:
    """The dtype the operands of a float-only function are cast to, and whether the result is
    weakly typed, for operands of the ``strong`` and ``weak`` dtypes (weak: Python scalars and
    weakly typed arrays).  None when an operand is already inexact: the ordinary promotion of
    the elementwise primitives gives JAX's dtype then.

    Example::

        >>> inexact_join([np.dtype("int8")], [np.dtype("int64")])   # int8_array / 2
        (dtype('float32'), False)
        >>> inexact_join([np.dtype("bool")], [np.dtype("int64")])   # bool_array / 2
        (dtype('float64'), True)
    """
    key = (tuple(strong), tuple(weak), canonical_dtype(_FLOAT64))
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    if any(dtype_kind(d) in "fc" for d in (*strong, *weak)):
        out: tuple[np.dtype | None, bool] = (None, False)
    else:
        pool = strong or weak  # weak integers take the strong operands' type ...
        joint = pool[0]
        for d in pool[1:]:
            joint = promote_types(joint, d)
        if strong and joint.kind == "b" and any(d.kind in "iu" for d in weak):
            joint = np.dtype(np.int64)  # ... above bool: the default int (bool_array + 1)
        out = (to_inexact_dtype(joint), join_is_weak(strong, weak))
    _CACHE[key] = out
    return out
