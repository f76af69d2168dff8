"""Array creation: asarray/array and constant factories.  Constants are concrete arrays
(not primitives): transforms treat them as constants."""

from __future__ import annotations

import numpy as np

from ..core.array import ArrayImpl, Tracer, get_aval, wrap
from ..ops.elementwise import convert_element_type

float_ = np.float64


def _has_tracer(obj) -> bool:
    if isinstance(obj, Tracer):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_has_tracer(o) for o in obj)
    return False


def asarray(a, dtype=None, copy=None) -> ArrayImpl:
    """Convert ``a`` (array, list, scalar, numpy array) to an `fgrad.Array`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.asarray([1, 2], dtype=float)
        Array([1., 2.], dtype=float64)
    """
    if isinstance(a, (ArrayImpl, Tracer)):
        return a if dtype is None else convert_element_type(a, np.dtype(dtype))
    if isinstance(a, (list, tuple)) and _has_tracer(a):
        from ._indexing import stack

        out = stack([asarray(x) for x in a])
        return out if dtype is None else convert_element_type(out, np.dtype(dtype))
    if hasattr(a, "__cuda_array_interface__") and type(a).__module__.startswith("cupy"):
        return wrap(a.astype(dtype) if dtype is not None else a.copy())
    try:
        buf = np.array(a, dtype=dtype, copy=True)
    except (TypeError, ValueError) as e:
        raise TypeError(f"fgrad.numpy.asarray: cannot convert {type(a).__name__} to an array: {e}") from None
    if buf.dtype == object:
        raise TypeError(
            f"fgrad.numpy.asarray: {type(a).__name__} converts to an object array (ragged nested "
            "lists?); fgrad arrays need a numeric dtype"
        )
    return wrap(buf)


array = asarray


def _shape_tuple(shape) -> tuple:
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def zeros(shape, dtype=None) -> ArrayImpl:
    return wrap(np.zeros(_shape_tuple(shape), dtype or float_))


def ones(shape, dtype=None) -> ArrayImpl:
    return wrap(np.ones(_shape_tuple(shape), dtype or float_))


def empty(shape, dtype=None) -> ArrayImpl:
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    if isinstance(fill_value, (Tracer, ArrayImpl)):
        from ..ops.shape import broadcast_to

        fv = fill_value if dtype is None else convert_element_type(fill_value, dtype)
        return broadcast_to(fv, _shape_tuple(shape))
    return wrap(np.full(_shape_tuple(shape), fill_value, dtype))


def _like(x, dtype, shape):
    av = get_aval(x)
    return (av.shape if shape is None else shape), (dtype or av.dtype)


def zeros_like(x, dtype=None, shape=None):
    s, d = _like(x, dtype, shape)
    return wrap(np.zeros(s, d))


def ones_like(x, dtype=None, shape=None):
    s, d = _like(x, dtype, shape)
    return wrap(np.ones(s, d))


def empty_like(x, dtype=None, shape=None):
    return zeros_like(x, dtype, shape)


def full_like(x, fill_value, dtype=None, shape=None):
    s, d = _like(x, dtype, shape)
    return full(s, fill_value, d)


def arange(start, stop=None, step=None, dtype=None):
    for v in (start, stop, step):
        if isinstance(v, Tracer):
            raise TypeError(
                "fgrad.numpy.arange needs concrete bounds (its output shape depends on them); "
                "got a traced value. Pass the bound as a static argument."
            )
    if stop is None:
        return wrap(np.arange(start, dtype=dtype) if step is None else np.arange(0, start, step, dtype=dtype))
    return wrap(np.arange(start, stop, step if step is not None else 1, dtype=dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    if isinstance(start, Tracer) or isinstance(stop, Tracer):
        from ..ops.elementwise import add, mul

        n = num - 1 if endpoint else num
        steps = np.arange(num, dtype=float) / max(n, 1)
        out = add(start, mul(steps, (stop - start)))
        return (out, (stop - start) / max(n, 1)) if retstep else out
    res = np.linspace(np.asarray(start), np.asarray(stop), num, endpoint=endpoint, retstep=retstep,
                      dtype=dtype, axis=axis)
    if retstep:
        return wrap(res[0]), res[1]
    return wrap(res)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None):
    return wrap(np.logspace(start, stop, num, endpoint=endpoint, base=base, dtype=dtype))


def eye(N, M=None, k=0, dtype=None):
    return wrap(np.eye(N, M, k, dtype=dtype or float_))


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    return wrap(np.tri(N, M, k, dtype=dtype or float_))


def _public_names(namespace, extra=()):
    return sorted({n for n, v in namespace.items() if not n.startswith("_") and callable(v)
                   and getattr(v, "__module__", None) == __name__} | set(extra))


__all__ = _public_names(globals(), ("float_",))
