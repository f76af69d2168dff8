"""JAX's weak types: which values are weakly typed, and what an elementwise operation on
weak and strong operands gives.

A weakly typed value (a Python ``int``/``float``/``complex``, ``fnp.asarray(1.0)``, or a
result computed only from weak values) takes the dtype of the strongly typed array it
meets, as long as that dtype's kind can hold it: ``weak_int * int32_array`` is int32, but
``int32_array * 1.5`` is a *weak* float64.  This is JAX's type-promotion lattice

    b1 < i* < f* < c*,   i* < u8, i8 ... i64 < f*,   f* < bf16, f16 < f32 < f64,
    c* < c64 < c128,     f32 < c64,  f64 < c128

restricted to one weak and any number of strong operands.  Python ``bool`` is not weak (as
in JAX).  A weak array's own dtype is the default one of its kind (int64, float64,
complex128), so NumPy's promotion already gives the right dtype except where a weak array
meets a strong dtype of its own kind or a wider kind (`cast_target`).

Example::

    >>> import numpy as np
    >>> join_is_weak([np.dtype("bool")], [np.dtype("int64")])      # 1 - bool_array
    True
    >>> cast_target([np.dtype("int32")], np.dtype("int64"))        # weak int * int32
    dtype('int32')
    >>> join_is_weak([np.dtype("float32")], [np.dtype("complex128")])  # f32 + 1j: complex64
    False
"""

from __future__ import annotations

import numpy as np

from .narrow_floats import dtype_kind, promote_types

# a kind's height in the lattice (unsigned and signed integers are one level)
KIND_LEVEL = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
WEAK_SCALAR_TYPES = (int, float, complex)  # not bool: Python's bool is strongly typed in JAX
_COMPLEX_OF = {2: np.dtype(np.complex64), 4: np.dtype(np.complex64), 8: np.dtype(np.complex128)}


def level(dt: np.dtype) -> int:
    """The lattice level of ``dt``'s kind (bool 0, integers 1, floats 2, complex 3)."""
    return KIND_LEVEL.get(dtype_kind(dt), 4)


def join_is_weak(strong: list, weak: list) -> bool:
    """Whether the result of an elementwise operation on operands of the ``strong`` and
    ``weak`` dtypes is weakly typed (JAX: the lattice join is a weak type).

    Example::

        >>> join_is_weak([np.dtype("int32")], [np.dtype("float64")])   # int32 + 1.5
        True
    """
    if unsigned_meets_signed_64(strong):  # their join is the weak float f*
        return True
    if not weak:
        return False
    if not strong:
        return True
    top_weak = max(level(d) for d in weak)
    top_strong = max(level(d) for d in strong)
    return top_weak > top_strong and not (top_weak == 3 and top_strong == 2)


def unsigned_meets_signed_64(strong: list) -> bool:
    """Whether strongly typed integer operands join above every integer type: ``uint64``
    beside a signed integer has no integer type holding both, and JAX's lattice gives the
    weak float ``f*`` (a weakly typed float64: ``uint64_array + int64_array``, even their
    comparison's bool, is weak); NumPy's float64 is the dtype.

    Example::

        >>> unsigned_meets_signed_64([np.dtype("uint64"), np.dtype("int8")])
        True
    """
    kinds = {dtype_kind(d) for d in strong}
    return "i" in kinds and not kinds & {"f", "c", "V"} and any(
        dtype_kind(d) == "u" and np.dtype(d).itemsize == 8 for d in strong)


def join_typed(typed: list) -> tuple[np.dtype, bool]:
    """The dtype and weak type that operands of the ``(dtype, weak_type)`` pairs ``typed``
    promote to together (JAX's ``_lattice_result_type``, as ``promote_dtypes`` before
    ``concatenate``/``stack``/``select``/``where``): the strong dtypes' promotion, which a
    weak one raises only to its own kind; weak ones alone give theirs.

    Example::

        >>> join_typed([(np.dtype("int32"), False), (np.dtype("float64"), True)])  # [i32, 1.5]
        (dtype('float64'), True)
        >>> join_typed([(np.dtype("uint64"), False), (np.dtype("int64"), False)])
        (dtype('float64'), True)
    """
    strong = [dt for dt, w in typed if not w]
    weak = [dt for dt, w in typed if w]
    if not strong:
        return np.result_type(*weak), True
    top = strong[0]
    for d in strong[1:]:
        top = promote_types(top, d)
    for w in weak:
        target = cast_target([top], w)
        top = w if target is None else target
    return top, join_is_weak(strong, weak)


def cast_target(strong: list, weak_dtype: np.dtype) -> np.dtype | None:
    """The dtype a weak *array* of ``weak_dtype`` must be cast to before it meets operands of
    the ``strong`` dtypes, or None when NumPy's promotion already gives JAX's result.

    Example::

        >>> cast_target([np.dtype("float32")], np.dtype("float64")), cast_target(
        ...     [np.dtype("int32")], np.dtype("float64"))
        (dtype('float32'), None)
    """
    if not strong:
        return None
    top = strong[0]
    for d in strong[1:]:
        top = promote_types(top, d)
    lw, ls = level(weak_dtype), level(top)
    if lw <= ls:
        target = top
    elif lw == 3 and ls == 2:  # float32 + weak complex: complex64
        target = _COMPLEX_OF.get(top.itemsize, np.dtype(np.complex128))
    else:
        return None
    return None if target == weak_dtype else target
