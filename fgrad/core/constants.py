"""Constants placed like an operand: the zeros, ones and NumPy-built constants that rules
and transforms create.

Constants are concrete arrays (not primitives): transforms treat them as constants.
Factories without an operand (``zeros``) create on the *default device*; ``*_like``
factories follow their operand's device, through tracers to the concrete value they wrap (a
JVP primal, a batched value).  An abstract operand (inside `jit`, or a program staged once
by the reverse-mode tape or `linearize`) has no device: its constants go to the default
device.  Rules that need a NumPy constant (an identity, a triangular mask, an index array)
use `constant_like(value, like=operand)` for the same placement.  `fgrad.numpy`'s creation
functions are built on these.
"""

from __future__ import annotations

import numpy as np

from ..backends import transfer_guard as _transfer_guard
from ..backends import NUMPY, _BY_TYPE, backend_of_buffer, default_backend, default_device
from ..backends import full as _full_keeping_sign
from .array import ArrayImpl, Tracer, check_array_dtype, get_aval, wrap
from . import x64_mode
from .weak_types import WEAK_SCALAR_TYPES
from .placement import placement_of

float_ = np.float64


def is_device_buffer(a) -> bool:
    """True for a raw non-host buffer (e.g. a cupy array)."""
    t = type(a)
    if t is np.ndarray:
        return False
    be = _BY_TYPE.get(t)
    if be is not None:
        return be is not NUMPY
    return hasattr(a, "__cuda_array_interface__") or (
        hasattr(a, "shape") and hasattr(a, "dtype") and backend_of_buffer(a) is not NUMPY)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def shape_tuple(shape) -> tuple:
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


def make_on_default_device(fn: str, *args, **kwargs) -> ArrayImpl:
    """``xp.<fn>(*args, **kwargs)`` on the default device (pass ``dtype`` by keyword: an
    unsupported one raises fgrad's TypeError before a GPU backend sees it)."""
    be = default_backend()
    if not x64_mode.enabled and kwargs.get("dtype") is not None:  # JAX's warning for 64-bit requests
        kwargs["dtype"] = x64_mode.requested_dtype(kwargs["dtype"], fn)
    if be is NUMPY:
        buf = getattr(np, fn)(*args, **kwargs)
        check_array_dtype(buf.dtype, f"fgrad.numpy.{fn}")
        return wrap(buf)
    dtype = kwargs.get("dtype")
    if dtype is not None:  # fgrad's error, before a GPU backend's own (cupy: ValueError)
        check_array_dtype(np.dtype(dtype), f"fgrad.numpy.{fn}")
    with be.device_scope(default_device()):
        if fn == "full":  # cupy's fill would turn a -0.0 fill value into +0.0
            buf = _full_keeping_sign(be.xp, *args, **kwargs)
        else:
            buf = getattr(be.xp, fn)(*args, **kwargs)
    check_array_dtype(buf.dtype, f"fgrad.numpy.{fn}")
    return wrap(buf)


def zeros(shape, dtype=None) -> ArrayImpl:
    """Zeros of ``shape`` and ``dtype`` (float64 by default) on the default device.

    Example::

        >>> zeros((2,), np.float32)
        Array([0., 0.], dtype=float32)
    """
    return make_on_default_device("zeros", shape_tuple(shape), dtype=dtype or float)


def placement(x):
    """``(backend, device)`` for constants made like ``x``: its own when known, else the
    default device's."""
    if type(x) is ArrayImpl:
        b = x._buf
        be = _BY_TYPE.get(type(b))
        if be is NUMPY:
            return NUMPY, None
    p = placement_of(x) if isinstance(x, (ArrayImpl, Tracer)) or is_device_buffer(x) else None
    if p is None:
        be = default_backend()
        return be, (None if be is NUMPY else default_device())
    return p


def full_placed_like(x, shape, dtype, fill_value):
    """``full(shape, fill_value, dtype)`` placed like ``x``."""
    be, dev = placement(x)
    if be is NUMPY:
        return wrap(np.full(shape, fill_value, dtype))
    with be.device_scope(dev):
        return wrap(_full_keeping_sign(be.xp, shape, fill_value, dtype))


def like(x, dtype, shape):
    """``(shape, dtype)`` of a ``*_like`` factory: ``x``'s unless given."""
    av = get_aval(x)
    shp = av.shape if shape is None else shape_tuple(shape)
    return shp, check_array_dtype(dtype or av.dtype, "fgrad.numpy")


def zeros_like(x, dtype=None, shape=None) -> ArrayImpl:
    """Zeros with ``x``'s shape and dtype (unless given), on ``x``'s device.

    Example::

        >>> zeros_like(np.ones(2, np.float32))
        Array([0., 0.], dtype=float32)
    """
    s, d = like(x, dtype, shape)
    return full_placed_like(x, s, d, 0)


def ones_like(x, dtype=None, shape=None) -> ArrayImpl:
    """Ones with ``x``'s shape and dtype (unless given), on ``x``'s device.

    Example::

        >>> ones_like(np.zeros(2))
        Array([1., 1.], dtype=float64)
    """
    s, d = like(x, dtype, shape)
    return full_placed_like(x, s, d, 1)


def full_like(x, fill_value, dtype=None, shape=None) -> ArrayImpl:
    """``fill_value`` (a concrete scalar) with ``x``'s shape and dtype (unless given), on
    ``x``'s device.

    Example::

        >>> full_like(np.zeros(2), 7.0)
        Array([7., 7.], dtype=float64)
    """
    s, d = like(x, dtype, shape)
    return full_placed_like(x, s, d, fill_value)


def constant_like(value, like):
    """The NumPy constant ``value`` as an Array placed like ``like`` (an Array, tracer or
    buffer; see `placement`): no copy on the host, an explicit upload on a device.  Rules
    use it for NumPy-built constants so that they run on any backend.

    Example::

        >>> constant_like(np.eye(2), np.zeros(3)).shape
        (2, 2)
    """
    be, dev = placement(like)
    if be is NUMPY:
        return wrap(np.asarray(value))
    return wrap(be.from_host(np.asarray(value), dev))


# small NumPy constants already placed on a device, by value: (device, dtype, shape, bytes) ->
# Array.  Rules and models use the same small constants every step (index offsets, iotas,
# triangular masks); on a GPU each is uploaded once instead of at every call.
_PLACED: dict = {}
_PLACED_MAX_BYTES = 1 << 16  # larger constants are uploaded each time
_PLACED_MAX_ENTRIES = 256


def cached_constant_like(value, like):
    """`constant_like` for small constants, uploaded to a device once per value (Arrays are
    immutable, so the cached one is shared).

    Example::

        >>> cached_constant_like(np.arange(3), np.zeros(2)).shape
        (3,)
    """
    be, dev = placement(like)
    a = np.asarray(value)
    if be is NUMPY or a.nbytes > _PLACED_MAX_BYTES:
        return constant_like(a, like)
    key = (be.name, str(dev), a.dtype.str, a.shape, a.tobytes())
    hit = _PLACED.get(key)
    if hit is None:
        if len(_PLACED) >= _PLACED_MAX_ENTRIES:
            _PLACED.clear()
        hit = _PLACED[key] = wrap(be.from_host(a, dev))
    return hit


def _check_fits_int32(buf) -> None:
    """Python ints become int32 while 64-bit types are off: one that does not fit is an
    OverflowError (as in JAX), never a wrapped value."""
    lo, hi = int(buf.min()), int(buf.max())
    bad = lo if lo < -2 ** 31 else hi if hi >= 2 ** 31 else None
    if bad is not None:
        raise OverflowError(f"Python int {bad} too large to convert to int32 (64-bit types are off: "
                            "jax_enable_x64=False; pass a dtype that holds it, or switch them on)")


def array_argument(x) -> ArrayImpl | Tracer:
    """A transform's argument as an array: an Array or tracer as is, a Python int, float or
    complex weakly typed (as JAX's ``~float32``), anything else through `host_array` (strong).

    Example::

        >>> array_argument(1.0).weak_type, array_argument(np.float32(1.0)).weak_type
        (True, False)
    """
    if isinstance(x, (Tracer, ArrayImpl)):
        return x
    out = host_array(x)
    return wrap(out._buf, True) if type(x) in WEAK_SCALAR_TYPES and type(out) is ArrayImpl else out


def host_array(a, dtype=None) -> ArrayImpl:
    """Host data (a scalar, nested list, NumPy array) copied to the default device as an
    Array; a raw device buffer (e.g. a cupy array) copied on its own device; an Array or
    tracer returned as is (``dtype`` must then be None: converting is an op).

    Example::

        >>> host_array([1, 2], np.float32)
        Array([1., 2.], dtype=float32)
    """
    if isinstance(a, (ArrayImpl, Tracer)):
        if dtype is not None and np.dtype(dtype) != get_aval(a).dtype:
            raise TypeError("host_array: converting an Array's dtype is an op; use convert_element_type")
        return a
    if is_device_buffer(a):
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
    from_python = not isinstance(a, (np.ndarray, np.generic))
    if not x64_mode.enabled and buf.dtype == np.int64 and buf.size and from_python:
        _check_fits_int32(buf)
    be = default_backend()
    if _transfer_guard.active:
        _transfer_guard.check("host_to_device", f"{type(a).__name__} of {buf.dtype}{list(buf.shape)} "
                                                f"to {default_device()}")
    if be is NUMPY:
        return wrap(buf)
    return wrap(be.from_host(buf, default_device()))
