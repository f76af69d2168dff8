"""Array creation: asarray/array and constant factories.  Constants are concrete arrays
(not primitives): transforms treat them as constants.

Placement (see `fgrad.backends`): factories without an operand (``zeros``, ``arange``,
``asarray`` of host data, ...) create on the *default device*; ``*_like`` factories follow
their operand's device, through tracers to the concrete value they wrap (a JVP primal, a
batched value).  An abstract operand (inside `jit`, or a program staged once by the
reverse-mode tape or `linearize`) has no device: its constants go to the default device.
Rules that need a NumPy constant (an identity, a triangular mask, an index array) use
`constant_like(value, like=operand)` for the same placement.
"""

from __future__ import annotations

import numpy as np

from .. import backends as _B
from ..backends import _BY_TYPE, NUMPY, backend_of_buffer
from ..core.array import ArrayImpl, Tracer, check_array_dtype, get_aval, wrap
from ..ops.elementwise import convert_element_type

float_ = np.float64


def _has_tracer(obj) -> bool:
    if isinstance(obj, Tracer):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_has_tracer(o) for o in obj)
    return False


def _is_device_buffer(a) -> bool:
    t = type(a)
    if t is np.ndarray:
        return False
    be = _BY_TYPE.get(t)
    if be is not None:
        return be is not NUMPY
    return hasattr(a, "__cuda_array_interface__") or (
        hasattr(a, "shape") and hasattr(a, "dtype") and backend_of_buffer(a) is not NUMPY)


def asarray(a, dtype=None, copy=None) -> ArrayImpl:
    """Convert ``a`` (array, list, scalar, numpy array) to an `fgrad.Array`.

    Host data goes to the default device; an fgrad Array stays where it is; a device buffer
    (e.g. a cupy array) is copied on its own device.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.asarray([1, 2], dtype=float)
        Array([1., 2.], dtype=float64)
    """
    if dtype is not None:
        dtype = check_array_dtype(dtype, "fgrad.numpy.asarray")
    if isinstance(a, (ArrayImpl, Tracer)):
        return a if dtype is None else convert_element_type(a, dtype)
    if isinstance(a, (list, tuple)) and _has_tracer(a):
        from ._indexing import stack

        out = stack([asarray(x) for x in a])
        return out if dtype is None else convert_element_type(out, np.dtype(dtype))
    if _is_device_buffer(a):
        return wrap(a.astype(dtype) if dtype is not None else a.copy())
    try:
        buf = np.array(a, dtype=dtype, copy=True)
    except (TypeError, ValueError) as e:
        raise TypeError(f"fgrad.numpy.asarray: cannot convert {type(a).__name__} to an array: {e}") from None
    if buf.dtype == object:
        raise TypeError(
            f"fgrad.numpy.asarray: {type(a).__name__} converts to an object array (ragged nested "
            "lists, None, or Python objects?); fgrad only supports number and bool dtypes. "
            "Convert the data to numbers of one shape first."
        )
    check_array_dtype(buf.dtype, "fgrad.numpy.asarray")
    be = _B.default_backend()
    if be is NUMPY:
        return wrap(buf)
    return wrap(be.from_host(buf, _B.default_device()))


array = asarray


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _shape_tuple(shape) -> tuple:
    """A static shape from an int or a sequence of ints (floats raise, as in JAX/NumPy)."""
    if _is_int(shape):
        shape = (shape,)
    try:
        dims = tuple(shape)
    except TypeError:
        raise TypeError(f"fgrad.numpy: a shape must be an int or a sequence of ints, got {shape!r}") from None
    if not all(_is_int(d) for d in dims):
        raise TypeError(
            f"fgrad.numpy: shapes must be sequences of concrete integers, got {dims!r}. Convert "
            "the sizes with int(...).")
    if any(d < 0 for d in dims):
        raise ValueError(f"fgrad.numpy: negative dimensions are not allowed, got shape {dims!r}")
    return tuple(int(d) for d in dims)


def _make(fn: str, *args, **kwargs):
    """``xp.<fn>(*args)`` on the default device."""
    be = _B.default_backend()
    if be is NUMPY:
        buf = getattr(np, fn)(*args, **kwargs)
    else:
        with be.device_scope(_B.default_device()):
            buf = getattr(be.xp, fn)(*args, **kwargs)
    check_array_dtype(buf.dtype, f"fgrad.numpy.{fn}")
    return wrap(buf)


def zeros(shape, dtype=None) -> ArrayImpl:
    return _make("zeros", _shape_tuple(shape), dtype or float_)


def ones(shape, dtype=None) -> ArrayImpl:
    return _make("ones", _shape_tuple(shape), dtype or float_)


def empty(shape, dtype=None) -> ArrayImpl:
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None):
    if isinstance(fill_value, (Tracer, ArrayImpl)):
        from ..ops.shape import broadcast_to

        fv = fill_value if dtype is None else convert_element_type(fill_value, dtype)
        return broadcast_to(fv, _shape_tuple(shape))
    return _make("full", _shape_tuple(shape), fill_value, dtype)


def _like(x, dtype, shape):
    av = get_aval(x)
    shp = av.shape if shape is None else _shape_tuple(shape)
    return shp, check_array_dtype(dtype or av.dtype, "fgrad.numpy")


def _placement(x):
    """``(backend, device)`` for constants made like ``x``: its own when known, else the
    default device's."""
    if type(x) is ArrayImpl:
        b = x._buf
        be = _BY_TYPE.get(type(b))
        if be is NUMPY:
            return NUMPY, None
    p = _B.placement_of(x) if isinstance(x, (ArrayImpl, Tracer)) or _is_device_buffer(x) else None
    if p is None:
        be = _B.default_backend()
        return be, (None if be is NUMPY else _B.default_device())
    return p


def _full_like(x, shape, dtype, fill_value):
    """``full(shape, fill_value, dtype)`` placed like ``x``."""
    be, dev = _placement(x)
    if be is NUMPY:
        return wrap(np.full(shape, fill_value, dtype))
    with be.device_scope(dev):
        return wrap(be.xp.full(shape, fill_value, dtype))


def _py(v):
    return v.item() if isinstance(v, np.generic) else v


def zeros_like(x, dtype=None, shape=None):
    s, d = _like(x, dtype, shape)
    return _full_like(x, s, d, 0)


def ones_like(x, dtype=None, shape=None):
    s, d = _like(x, dtype, shape)
    return _full_like(x, s, d, 1)


def empty_like(x, dtype=None, shape=None):
    return zeros_like(x, dtype, shape)


def full_like(x, fill_value, dtype=None, shape=None):
    s, d = _like(x, dtype, shape)
    if isinstance(fill_value, (Tracer, ArrayImpl)):
        return full(s, fill_value, d)
    return _full_like(x, s, d, fill_value)


def arange(start, stop=None, step=None, dtype=None):
    for v in (start, stop, step):
        if isinstance(v, Tracer):
            raise TypeError(
                "fgrad.numpy.arange needs concrete bounds (its output shape depends on them); "
                "got a traced value. Pass the bound as a static argument."
            )
    start, stop, step = (_py_bound(v) for v in (start, stop, step))
    if stop is None:
        if step is None:
            return _make("arange", start, dtype=dtype)
        return _make("arange", 0, start, step, dtype=dtype)
    return _make("arange", start, stop, step if step is not None else 1, dtype=dtype)


def _py_bound(v):
    return v.item() if isinstance(v, ArrayImpl) else v


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    if isinstance(start, Tracer) or isinstance(stop, Tracer):
        from ..ops.elementwise import add, mul

        n = num - 1 if endpoint else num
        like = start if isinstance(start, Tracer) else stop
        steps = constant_like(np.arange(num, dtype=float) / max(n, 1), like)
        out = add(start, mul(steps, (stop - start)))
        return (out, (stop - start) / max(n, 1)) if retstep else out
    res = np.linspace(np.asarray(start), np.asarray(stop), num, endpoint=endpoint, retstep=retstep,
                      dtype=dtype, axis=axis)
    place = _placer(start, stop)
    if retstep:
        return place(res[0]), res[1]
    return place(res)


def _placer(*operands):
    """Put a host result on the device of the first Array operand (else the default one)."""
    for o in operands:
        if type(o) is ArrayImpl:
            be = backend_of_buffer(o._buf)
            if be is NUMPY:
                return wrap
            dev = be.device_of(o._buf)
            return lambda h: wrap(be.from_host(h, dev))
    be = _B.default_backend()
    if be is NUMPY:
        return wrap
    dev = _B.default_device()
    return lambda h: wrap(be.from_host(h, dev))


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None):
    return _placer(start, stop)(np.logspace(np.asarray(start), np.asarray(stop), num, endpoint=endpoint,
                                            base=base, dtype=dtype))


def eye(N, M=None, k=0, dtype=None):
    return _make("eye", N, M, k, dtype=dtype or float_)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    return _make("tri", N, M, k, dtype=dtype or float_)


# ---------------------------------------------------------------------------------------
# constants that follow an operand's device


def constant_like(value, like):
    """The NumPy constant ``value`` as an Array placed like ``like`` (an Array, tracer or
    buffer; see `_placement`): no copy on the host, an explicit upload on a device.  Rules
    use it for NumPy-built constants so that they run on any backend."""
    be, dev = _placement(like)
    if be is NUMPY:
        return wrap(np.asarray(value))
    return wrap(be.from_host(np.asarray(value), dev))


def _public_names(namespace, extra=()):
    return sorted({n for n, v in namespace.items() if not n.startswith("_") and callable(v)
                   and getattr(v, "__module__", None) == __name__} | set(extra))


__all__ = [n for n in _public_names(globals(), ("float_",))
           if n not in ("constant_like",)]
