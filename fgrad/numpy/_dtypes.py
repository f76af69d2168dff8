"""Dtype functions of `fgrad.numpy` that know ``bfloat16`` (the ``ml_dtypes`` type JAX uses):
NumPy's own ``finfo``, ``promote_types``, ``result_type`` and ``issubdtype`` do not.

Example::

    >>> import fgrad.numpy as fnp
    >>> fnp.promote_types(fnp.bfloat16, fnp.float16), fnp.issubdtype(fnp.bfloat16, fnp.floating)
    (dtype('float32'), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.array import get_aval
from ..core import narrow_floats
from ..core import x64_mode
from ..core.x64_mode import canonical_dtype

bfloat16 = narrow_floats.bfloat16.type


def promote_types(type1: Any, type2: Any) -> np.dtype:
    """The smallest dtype both promote to: NumPy's rule, and JAX's where bfloat16 is involved
    (``bfloat16 + float16 -> float32``, ``bfloat16 + int32 -> bfloat16``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.promote_types(fnp.bfloat16, fnp.int32)
        dtype(bfloat16)
    """
    out = narrow_floats.promote_types(type1, type2)
    if out == np.int64 and not x64_mode.enabled and max(np.dtype(type1).itemsize,
                                                         np.dtype(type2).itemsize) < 8:
        return np.dtype(np.int32)  # JAX's 32-bit lattice: uint32 + int32 -> int32, not int64
    return out


def result_type(*arrays_and_dtypes: Any) -> np.dtype:
    """The dtype an operation on the arguments gives (Python scalars are weak), as
    ``numpy.result_type`` with bfloat16 promoting as in `promote_types`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.result_type(fnp.ones(2, fnp.bfloat16), 2.0)
        dtype(bfloat16)
    """
    args = [np.empty((), get_aval(a).dtype) if _is_fgrad_array(a) else a for a in arrays_and_dtypes]
    return canonical_dtype(narrow_floats.result_type(*args))


def _is_fgrad_array(a: Any) -> bool:
    return (hasattr(a, "dtype") and hasattr(a, "shape") and not isinstance(a, type)
            and not isinstance(a, (np.ndarray, np.generic)))


def finfo(dtype: Any) -> Any:
    """Machine limits of a floating dtype (bfloat16 included; an array's dtype is used).

    Example::

        >>> import fgrad.numpy as fnp
        >>> float(fnp.finfo(fnp.bfloat16).eps), float(fnp.finfo(fnp.float16).max)
        (0.0078125, 65504.0)
    """
    dt = dtype if isinstance(dtype, type) or not hasattr(dtype, "dtype") else dtype.dtype
    return narrow_floats.finfo(dt)


class extended:
    """JAX's abstract type of the non-numeric (extended) dtypes: typed PRNG keys here.

    Example::

        >>> import fgrad
        >>> fgrad.numpy.issubdtype(fgrad.random.key(0).dtype, fgrad.dtypes.extended)
        True
        >>> fgrad.numpy.issubdtype(fgrad.numpy.float32, fgrad.dtypes.extended)
        False
    """


class prng_key(extended):
    """JAX's abstract type of typed PRNG key dtypes (``fgrad.random.key(0).dtype``).

    Example::

        >>> import fgrad
        >>> fgrad.numpy.issubdtype(fgrad.random.key(0).dtype, fgrad.dtypes.prng_key)
        True
    """


def _is_key_dtype(x: Any) -> bool:
    # a typed key's dtype (fgrad.random.KeyDType) marks itself: fgrad.numpy stays below fgrad.random
    return getattr(type(x), "_fgrad_key_dtype", False)


def issubdtype(arg1: Any, arg2: Any) -> bool:
    """``numpy.issubdtype`` where bfloat16 and the float8 types are ``floating`` (and
    ``inexact``) types, and a
    typed key's dtype is a sub-dtype of `prng_key`, `extended` and ``generic`` (of nothing
    numeric), as in JAX.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.random
        >>> fnp.issubdtype(fnp.bfloat16, fnp.inexact), fnp.issubdtype(fnp.bfloat16, fnp.integer)
        (True, False)
        >>> key = fgrad.random.key(0).dtype
        >>> issubdtype(key, prng_key), issubdtype(key, fnp.integer), issubdtype("int8", prng_key)
        (True, False, False)
    """
    key1 = _is_key_dtype(arg1) or arg1 in (prng_key, extended)
    if arg2 in (prng_key, extended):
        return key1 and not (arg2 is prng_key and arg1 is extended)
    if key1:
        return arg2 is np.generic or (_is_key_dtype(arg2) and _is_key_dtype(arg1))
    try:
        dt1 = np.dtype(arg1)
        is_ml = narrow_floats.is_ml_float(dt1)
    except TypeError:
        is_ml = False
    if is_ml:  # bfloat16 and the float8 types: floating, as in JAX
        if isinstance(arg2, type) and issubclass(arg2, np.generic):
            return arg2 in (np.floating, np.inexact, np.number, np.generic) or arg2 == dt1.type
        return np.dtype(arg2) == dt1
    return bool(np.issubdtype(arg1, arg2))


__all__ = ["bfloat16", "finfo", "issubdtype", "promote_types", "result_type"]
