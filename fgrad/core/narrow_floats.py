"""The 16-bit floating dtypes: ``float16`` (NumPy's) and ``bfloat16`` (the ``ml_dtypes``
package's, the one JAX uses), and the rules NumPy lacks for them.

NumPy stores ``bfloat16`` as a user dtype whose ``kind`` is ``'V'`` and has no promotion
with ``float16`` or wide integers; fgrad asks this module instead of ``dtype.kind`` where a
dtype may be bfloat16.  Promotion follows JAX's lattice where bfloat16 is involved
(``bfloat16 + float16 -> float32``, ``bfloat16 + int32 -> bfloat16``) and NumPy elsewhere.
Reductions and contractions of 16-bit floats accumulate in float32 and round once, as JAX on
the CPU and PyTorch's CPU kernels do.

Example::

    >>> import numpy as np
    >>> promote_types(bfloat16, np.float16), dtype_kind(bfloat16)
    (dtype('float32'), 'f')
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

bfloat16: np.dtype = np.dtype(ml_dtypes.bfloat16)
float16: np.dtype = np.dtype(np.float16)
float32: np.dtype = np.dtype(np.float32)
NARROW_FLOATS: tuple[np.dtype, ...] = (float16, bfloat16)


def dtype_kind(dt: np.dtype) -> str:
    """``dt.kind``, with ``'f'`` for bfloat16 (NumPy reports ``'V'``).

    Example::

        >>> dtype_kind(np.dtype(np.int32)), dtype_kind(bfloat16)
        ('i', 'f')
    """
    k = dt.kind
    return "f" if k == "V" and dt == bfloat16 else k


def sortable(a: Any) -> Any:
    """``a`` in a form NumPy sorts as PyTorch and JAX do: a bfloat16 array widened to float32
    (exactly), any other array as it is.  NumPy's sort of ``ml_dtypes.bfloat16`` leaves a NaN
    wherever its failed comparisons put it (often first) and ``np.unique`` merges or scatters
    them; float32 sorts NaNs last.

    Example::

        >>> a = np.array([np.nan, 1.0, 0.0], dtype=bfloat16)
        >>> np.argsort(sortable(a), kind="stable").tolist()
        [2, 1, 0]
    """
    return a.astype(float32) if getattr(a, "dtype", None) == bfloat16 else a


def is_narrow(dt: np.dtype) -> bool:
    """Whether ``dt`` is float16 or bfloat16.

    Example::

        >>> is_narrow(np.dtype(np.float16)), is_narrow(np.dtype(np.float32))
        (True, False)
    """
    return dt == float16 or dt == bfloat16


def _promote_bfloat16(other: np.dtype) -> np.dtype:
    k = other.kind
    if k in "biu":
        return bfloat16
    if other == float16:
        return float32
    if k == "c":
        return other
    if k == "f":
        return other  # float32, float64: wider
    raise TypeError(f"no common dtype of bfloat16 and {other}")


def promote_types(a: Any, b: Any) -> np.dtype:
    """``numpy.promote_types`` that also knows bfloat16 (JAX's lattice: it is below float32,
    beside float16, above every integer), with JAX's rule for an integer meeting a float or
    complex type: the result is that inexact type.

    Example::

        >>> promote_types(bfloat16, np.int64), promote_types(bfloat16, np.float64)
        (dtype(bfloat16), dtype('float64'))
        >>> promote_types(np.int64, np.float32), promote_types(np.int32, np.complex64)
        (dtype('float32'), dtype('complex64'))
    """
    a, b = np.dtype(a), np.dtype(b)
    if a == b:
        return a
    if a == bfloat16:
        return _promote_bfloat16(b)
    if b == bfloat16:
        return _promote_bfloat16(a)
    # JAX's lattice puts every integer below every float: int64 + float32 is float32 and
    # int16 + float16 is float16 (NumPy widens both to hold the integer's range)
    if a.kind in "iu" and b.kind in "fc":
        return b
    if b.kind in "iu" and a.kind in "fc":
        return a
    return np.promote_types(a, b)


def result_type(*args: Any) -> np.dtype:
    """``numpy.result_type`` that knows bfloat16: arrays and dtypes promote with
    `promote_types`; Python scalars are weak (they take an operand's float/complex kind).

    Example::

        >>> result_type(np.ones(2, bfloat16), 1.5), result_type(bfloat16, np.float16)
        (dtype(bfloat16), dtype('float32'))
    """
    dts = [np.dtype(a.dtype) if hasattr(a, "dtype") and not isinstance(a, type) else None for a in args]
    if (not any(d == bfloat16 for d in dts) and not any(_is_bf16_spec(a) for a in args)
            and not _mixes_int_and_float(args, dts)):
        return np.result_type(*args)
    strong: np.dtype | None = None
    weak: list[Any] = []
    for a, d in zip(args, dts, strict=True):
        if d is None and isinstance(a, (bool, int, float, complex)):
            weak.append(a)
            continue
        d = d if d is not None else np.dtype(a)
        strong = d if strong is None else promote_types(strong, d)
    assert strong is not None
    for w in weak:  # a Python scalar raises the kind only: float -> float, complex -> complex
        if isinstance(w, complex) and dtype_kind(strong) != "c":
            strong = promote_types(strong, np.complex64)
        elif isinstance(w, float) and not isinstance(w, bool) and dtype_kind(strong) in "biu":
            strong = np.dtype(np.float64)
    return strong


def _mixes_int_and_float(args: tuple, dts: list) -> bool:
    """Whether strong integer and strong float/complex types meet (JAX's lattice, not
    NumPy's: ``int16`` and ``float16`` give ``float16``)."""
    kinds = set()
    for a, d in zip(args, dts, strict=True):
        if d is None and not isinstance(a, (bool, int, float, complex)):
            try:
                d = np.dtype(a)
            except TypeError:
                continue
        if d is not None:
            kinds.add(d.kind)
    return bool(kinds & set("iu")) and bool(kinds & set("fc"))


def _is_bf16_spec(a: Any) -> bool:
    if isinstance(a, np.dtype):
        return a == bfloat16
    if isinstance(a, type):  # a scalar type (NumPy's class has a ``shape`` descriptor)
        return np.dtype(a) == bfloat16 if issubclass(a, np.generic) else False
    if isinstance(a, (bool, int, float, complex)) or hasattr(a, "shape"):
        return False
    try:
        return np.dtype(a) == bfloat16
    except TypeError:
        return False


def finfo(dt: Any) -> Any:
    """Machine limits of a floating dtype, bfloat16 and the float8 types included
    (``ml_dtypes.finfo``).

    Example::

        >>> float(finfo(bfloat16).eps)
        0.0078125
    """
    dt = np.dtype(dt)
    if is_ml_float(dt):
        return ml_dtypes.finfo(dt)
    if dt.kind not in "fc":  # NumPy's (<= 2.4) and JAX's text: NumPy 2.5 words it otherwise
        raise ValueError(f"data type {dt.type!r} not inexact")
    return np.finfo(dt)


def is_ml_float(dt: np.dtype) -> bool:
    """Whether ``dt`` is one of ``ml_dtypes``'s floats (bfloat16, the float8 types), which
    NumPy stores as user dtypes (of kind ``'V'``, float8_e5m2 of kind ``'f'``).

    Example::

        >>> is_ml_float(bfloat16), is_ml_float(np.dtype(ml_dtypes.float8_e5m2)), is_ml_float(float16)
        (True, True, False)
    """
    return dt.kind in "Vf" and dt.type.__module__ == "ml_dtypes" and "float" in dt.name
