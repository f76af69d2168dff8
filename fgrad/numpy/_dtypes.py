"""Dtype functions of `fgrad.numpy` that know ``bfloat16`` (the ``ml_dtypes`` type JAX uses)
and ``ml_dtypes``' narrow integers (``int4``, ``uint2``, ...): NumPy's own ``finfo``, ``iinfo``,
``promote_types``, ``result_type`` and ``issubdtype`` do not.

Example::

    >>> import fgrad.numpy as fnp
    >>> fnp.promote_types(fnp.bfloat16, fnp.float16), fnp.issubdtype(fnp.bfloat16, fnp.floating)
    (dtype('float32'), True)
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ..core.array import get_aval
from ..core import narrow_floats
from ..core import x64_mode
from ..core.x64_mode import canonical_dtype

bfloat16 = narrow_floats.bfloat16.type


# ``ml_dtypes``' 1-, 2- and 4-bit integers (JAX's ``jnp.int4`` ...): NumPy sees them as void
# (kind "V"); JAX gives them integer semantics and no implicit promotion
SUB_BYTE_INTS = {np.dtype(t): t for t in (ml_dtypes.int1, ml_dtypes.int2, ml_dtypes.int4,
                                          ml_dtypes.uint1, ml_dtypes.uint2, ml_dtypes.uint4)}


def _dtype_or_none(x: Any) -> np.dtype | None:
    try:
        return np.dtype(x)
    except TypeError:
        return None


def _sub_byte_int(x: Any) -> np.dtype | None:
    """The dtype of ``x`` when it is a sub-byte integer type, else None."""
    dt = _dtype_or_none(x)
    return dt if dt in SUB_BYTE_INTS else None


def _sub_half_float(dt: np.dtype | None) -> bool:
    """Whether ``dt`` is one of ``ml_dtypes``' 8-, 6- or 4-bit floats (its floats but bfloat16):
    JAX promotes them with integers and bools only (to themselves), never implicitly with
    another floating or complex type."""
    return dt is not None and narrow_floats.is_ml_float(dt) and dt != narrow_floats.bfloat16


def _check_implicit_promotion(type1: Any, type2: Any) -> None:
    """Raise JAX's TypePromotionError for the pairs JAX refuses to promote implicitly: a
    sub-byte integer with any other type, a sub-half float with another inexact type."""
    from ._promotion_checks import TypePromotionError

    d1, d2 = _sub_byte_int(type1), _sub_byte_int(type2)
    if (d1 is not None or d2 is not None) and np.dtype(type1) != np.dtype(type2):
        raise TypePromotionError(
            f"Input dtypes ({np.dtype(type1).name!r}, {np.dtype(type2).name!r}) have no available "
            "implicit dtype promotion path. To avoid unintended promotion, 1-bit, 2-bit and 4-bit "
            "integers do not support implicit promotion. If you'd like your inputs to be promoted "
            "to another type, you can do so explicitly using e.g. x.astype('int32')")
    f1, f2 = _dtype_or_none(type1), _dtype_or_none(type2)
    if f1 is None or f2 is None or f1 == f2:
        return
    narrow, other = (f1, f2) if _sub_half_float(f1) else (f2, f1)
    if _sub_half_float(narrow) and (_sub_half_float(other) or narrow_floats.dtype_kind(other) in "fc"):
        what = "8-bit floats" if "float8" in narrow.name else "floats narrower than 8 bits"
        raise TypePromotionError(
            f"Input dtypes ({f1.name!r}, {f2.name!r}) have no available implicit dtype promotion path. "
            f"To avoid unintended promotion, {what} do not support implicit promotion. If you'd like "
            f"your inputs to be promoted to another type, you can do so explicitly using e.g. "
            f"x.astype('float32')")


def iinfo(int_type: Any) -> Any:
    """Machine limits of an integer dtype, the sub-byte ones (``int4``, ``uint2`` ...) included
    (an array's dtype is used), as ``jax.numpy.iinfo``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> i = fnp.iinfo(fnp.int4)
        >>> i.min, i.max, i.bits, fnp.iinfo(fnp.uint2).max
        (-8, 7, 4, 3)
    """
    dt = int_type if isinstance(int_type, type) or not hasattr(int_type, "dtype") else int_type.dtype
    if _sub_byte_int(dt) is not None:
        return ml_dtypes.iinfo(np.dtype(dt))
    return np.iinfo(dt)


def promote_types(type1: Any, type2: Any) -> np.dtype:
    """The smallest dtype both promote to: NumPy's rule, and JAX's where bfloat16 is involved
    (``bfloat16 + float16 -> float32``, ``bfloat16 + int32 -> bfloat16``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.promote_types(fnp.bfloat16, fnp.int32)
        dtype(bfloat16)
        >>> fnp.promote_types("uint8", int)  # the Python types are weak, as in JAX
        dtype('uint8')
    """
    weak = _promote_weak_type(type1, type2)
    if weak is not None:
        return weak
    _check_implicit_promotion(type1, type2)
    out = narrow_floats.promote_types(type1, type2)
    if out == np.int64 and not x64_mode.enabled and max(np.dtype(type1).itemsize,
                                                         np.dtype(type2).itemsize) < 8:
        return np.dtype(np.int32)  # JAX's 32-bit lattice: uint32 + int32 -> int32, not int64
    return out


_WEAK_KINDS = {int: "iu", float: "f", complex: "c"}  # the kinds a weak type gives way to


def _promote_weak_type(type1: Any, type2: Any) -> np.dtype | None:
    """JAX's `promote_types` where ``int``, ``float`` or ``complex`` (the Python types
    themselves: JAX's weak types) meets a dtype or another of them, or None: the dtype when
    its kind is at least the weak type's (``uint8, int -> uint8``, ``float32, complex ->
    complex64``), else the weak type's 64-bit dtype (``int8, float -> float64``: JAX's lattice
    does not canonicalize here).  The 8-bit and narrower floats keep their own checks."""
    w1, w2 = any(type1 is t for t in _WEAK_KINDS), any(type2 is t for t in _WEAK_KINDS)
    if not (w1 or w2):
        return None
    if w1 and w2:
        return np.dtype(max(type1, type2, key=list(_WEAK_KINDS).index))
    weak, other = (type1, type2) if w1 else (type2, type1)
    dt = np.dtype(other)
    if narrow_floats.is_ml_float(dt) and dt != narrow_floats.bfloat16:
        return None
    kind = narrow_floats.dtype_kind(dt)
    if kind in _WEAK_KINDS[weak] or (weak is not complex and kind in "fc"):
        return dt
    if weak is complex and kind == "f":
        return np.dtype(np.complex128 if dt == np.float64 else np.complex64)
    return np.dtype(weak)


def result_type(*arrays_and_dtypes: Any) -> np.dtype:
    """The dtype an operation on the arguments gives (Python scalars are weak), as
    ``numpy.result_type`` with bfloat16 promoting as in `promote_types`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.result_type(fnp.ones(2, fnp.bfloat16), 2.0)
        dtype(bfloat16)
    """
    args = [np.empty((), get_aval(a).dtype) if _is_fgrad_array(a) else a for a in arrays_and_dtypes]
    typed = [a.dtype if hasattr(a, "dtype") and not isinstance(a, type) else a
             for a in args if not isinstance(a, (bool, int, float, complex))]
    for a in typed[1:]:
        _check_implicit_promotion(typed[0], a)
    out = narrow_floats.result_type(*args)
    strong = [np.dtype(a.dtype) if hasattr(a, "dtype") and not isinstance(a, type) else np.dtype(a)
              for a in args if not isinstance(a, (bool, int, float, complex))]
    if strong and out.kind in "fc" and any(d.kind in "iub" for d in strong):
        # JAX's lattice: an integer meeting a float takes the float's type (NumPy widens
        # int32 + float32 to float64)
        joined = strong[0]
        for d in strong[1:]:
            joined = promote_types(joined, d)
        if joined.kind == out.kind:
            out = joined
    return canonical_dtype(out)


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
    ``inexact``) types, ``int4``/``uint4``/``int2``/... are (signed or unsigned) integers, and a
    typed key's dtype is a sub-dtype of `prng_key`, `extended` and ``generic`` (of nothing
    numeric), as in JAX.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.random
        >>> fnp.issubdtype(fnp.bfloat16, fnp.inexact), fnp.issubdtype(fnp.bfloat16, fnp.integer)
        (True, False)
        >>> key = fgrad.random.key(0).dtype
        >>> issubdtype(key, prng_key), issubdtype(key, fnp.integer), issubdtype("int8", prng_key)
        (True, False, False)
        >>> fnp.issubdtype(fnp.int4, fnp.signedinteger), fnp.issubdtype(fnp.uint4, fnp.signedinteger)
        (True, False)
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
    sub = _sub_byte_int(arg1)
    if sub is not None:  # int4, uint2, ...: integers, as in JAX
        if isinstance(arg2, type) and issubclass(arg2, np.generic) and _sub_byte_int(arg2) is None:
            kind = np.signedinteger if ml_dtypes.iinfo(sub).min < 0 else np.unsignedinteger
            return arg2 in (kind, np.integer, np.number, np.generic)
        return _sub_byte_int(arg2) == sub
    if is_ml:  # bfloat16 and the float8 types: floating, as in JAX
        if isinstance(arg2, type) and issubclass(arg2, np.generic):
            return arg2 in (np.floating, np.inexact, np.number, np.generic) or arg2 == dt1.type
        return np.dtype(arg2) == dt1
    return bool(np.issubdtype(arg1, arg2))


__all__ = ["bfloat16", "finfo", "iinfo", "issubdtype", "promote_types", "result_type"]
