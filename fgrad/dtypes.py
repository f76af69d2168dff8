"""`fgrad.dtypes`: JAX's ``jax.dtypes`` names.  fgrad follows NumPy's dtype rules (float64
stays float64, ``canonicalize_dtype`` is the identity on supported dtypes).

Example::

    >>> import numpy as np
    >>> from fgrad import dtypes
    >>> dtypes.canonicalize_dtype("float32"), dtypes.issubdtype("int8", np.integer)
    (dtype('float32'), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .core.array import SUPPORTED_DTYPE_KINDS
from .numpy import finfo, iinfo, issubdtype, result_type

__all__ = ["canonicalize_dtype", "finfo", "float0", "iinfo", "issubdtype", "result_type",
           "scalar_type_of", "TypePromotionError"]

# JAX's dtype of integer inputs' gradients; fgrad gives zeros of the input's own dtype
# instead, so this exists for code that names it.
float0 = np.dtype([("float0", np.void, 0)])


class TypePromotionError(ValueError):
    """Raised by JAX under strict promotion; fgrad promotes as NumPy does and never raises it."""


def canonicalize_dtype(dtype: Any, allow_extended_dtype: bool = False) -> np.dtype:
    """``numpy.dtype(dtype)`` for the number and bool dtypes fgrad supports (fgrad does not
    narrow 64-bit types); TypeError for others.

    Example::

        >>> canonicalize_dtype(float)
        dtype('float64')
    """
    dt = np.dtype(dtype)
    if dt.kind not in SUPPORTED_DTYPE_KINDS:
        raise TypeError(f"canonicalize_dtype: fgrad supports number and bool dtypes, got {dt}")
    return dt


def scalar_type_of(x: Any) -> type:
    """The Python scalar type of ``x``'s dtype: bool, int, float or complex.

    Example::

        >>> scalar_type_of(np.float32(1))
        <class 'float'>
    """
    kind = np.dtype(getattr(x, "dtype", None) or np.result_type(x)).kind
    return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[kind]
