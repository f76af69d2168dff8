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
from .core import x64_mode as _x64_mode

from .core.array import FLOAT0, SUPPORTED_DTYPE_KINDS
from .core.narrow_floats import dtype_kind
from .core.weak_types import WEAK_SCALAR_TYPES
import ml_dtypes

from .numpy import finfo, iinfo, result_type
from .numpy._dtypes import extended, issubdtype, prng_key
from .numpy._promotion_checks import TypePromotionError

# JAX's ``jax.dtypes.bfloat16`` is ml_dtypes' scalar type (``jax.numpy.bfloat16`` is the
# array-making one, fgrad.numpy's)
bfloat16 = ml_dtypes.bfloat16

__all__ = ["bfloat16", "canonicalize_dtype", "extended", "finfo", "float0", "iinfo", "is_weakly_typed",
           "issubdtype", "itemsize_bits", "prng_key",
           "result_type", "scalar_type_of", "TypePromotionError"]


def itemsize_bits(dtype: Any) -> int:
    """Bits per element of ``dtype`` (JAX's ``dtypes.itemsize_bits``; ValueError for
    ``float0``, as JAX).

    Example::

        >>> itemsize_bits("float32"), itemsize_bits(bool)
        (32, 8)
    """
    dt = np.dtype(dtype)
    if dt == FLOAT0:
        raise ValueError(f"itemsize_bits: unexpected input: dtype={dt} (float0 has no storage)")
    return dt.itemsize * 8


# JAX's dtype of integer inputs' (co)tangents: jvp and custom_vjp rules accept it (as zero);
# grad(allow_int=True) gives zeros of the input's own dtype instead
float0 = FLOAT0




def canonicalize_dtype(dtype: Any, allow_extended_dtype: bool = False) -> np.dtype:
    """``numpy.dtype(dtype)`` for the number and bool dtypes fgrad supports, bfloat16 and
    float16 included, with 64-bit types narrowed to 32 bits while they are off
    (``jax_enable_x64=False``); TypeError for others.

    Example::

        >>> canonicalize_dtype(float)
        dtype('float64')
    """
    dt = np.dtype(dtype)
    if dtype_kind(dt) not in SUPPORTED_DTYPE_KINDS:
        raise TypeError(f"canonicalize_dtype: fgrad supports number and bool dtypes, got {dt}")
    return _x64_mode.canonical_dtype(dt)


def is_weakly_typed(x: Any) -> bool:
    """Whether ``x`` is weakly typed (JAX's ``jax.dtypes.is_weakly_typed``): a Python int,
    float or complex (not bool), or an fgrad array or tracer whose ``weak_type`` is set
    (``fnp.asarray(1.0)``, results computed only from weak values).

    Example::

        >>> import fgrad.numpy as fnp
        >>> is_weakly_typed(1.0), is_weakly_typed(fnp.asarray(1.0)), is_weakly_typed(fnp.ones(2))
        (True, True, False)
    """
    if type(x) in WEAK_SCALAR_TYPES:
        return True
    return getattr(x, "weak_type", False) is True and not isinstance(x, (np.ndarray, np.generic))


def scalar_type_of(x: Any) -> type:
    """The Python scalar type of ``x``'s dtype: bool, int, float or complex.

    Example::

        >>> scalar_type_of(np.float32(1))
        <class 'float'>
    """
    kind = np.dtype(getattr(x, "dtype", None) or np.result_type(x)).kind
    return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[kind]
