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

import functools
import operator
from typing import Any

from ..typing import Array, ArrayLike, Axis, DTypeLike, Shape

import numpy as np

from ..backends import Device, NUMPY, backend_of_buffer, default_backend, default_device, default_device_scope
from ..backends.dlpack import import_buffer
from ..core.array import ArrayImpl, Tracer, check_array_dtype, get_aval, wrap
from ..core import sharding_flow
from ..core.inexact import to_inexact_dtype as _to_inexact_dtype
from ..core.x64_mode import canonical_dtype, requested_dtype
from ..core.narrow_floats import dtype_kind
from ..core.weak_types import WEAK_SCALAR_TYPES
from ..core.constants import constant_like, host_array  # noqa: F401 (re-exported)
from ..core.constants import full_like as _full_like
from ..core.constants import ones_like as _ones_like
from ..core.constants import zeros as _zeros
from ..core.constants import zeros_like as _zeros_like
from ..core.placement import device_put
from ..core.constants import float_  # noqa: F401
from ..core.constants import like as _like
from ..core.constants import make_on_default_device as _make
from ..core.constants import shape_tuple as _shape_tuple
from ..ops.elementwise import add, convert_element_type, floor, mul, strip_weak
from ..ops.shape import broadcast_in_dim, broadcast_to, reshape
from ..core.trace import state
from ..transforms.staging import StagingTrace
from ..ops.structural import concatenate
from ._dtypes import promote_types, result_type


def _has_tracer(obj) -> bool:
    if isinstance(obj, Tracer):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_has_tracer(o) for o in obj)
    return False


_WEAK_STAND_IN = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}


def _list_dtype(a) -> tuple[Any, bool]:
    """JAX's dtype of ``array(a)`` for a (nested) list holding typed values: the promotion of
    its typed leaves (arrays, NumPy scalars) with its Python numbers weakly typed
    (``array([float32(1), 2])`` is float32 where NumPy's rule gives float64), or None when every
    leaf is a Python number (NumPy's rule then agrees with JAX's); and whether an fgrad Array
    or tracer is among the leaves."""
    strong, weak, arrays = [], set(), False
    stack = [a]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is list or t is tuple:
            stack.extend(x)
        elif t is int or t is float or t is complex:
            weak.add(_WEAK_STAND_IN[np.dtype(t).kind])
        elif t is ArrayImpl or isinstance(x, Tracer):
            av = get_aval(x)
            if av.weak_type:
                weak.add(_WEAK_STAND_IN[np.dtype(av.dtype).kind])
            else:
                strong.append(av.dtype)
            arrays = True
        elif isinstance(x, (np.ndarray, np.generic)):
            strong.append(x.dtype)
        elif t is not bool:
            return None, False  # something NumPy converts by its own rules
    if not strong:
        return None, arrays
    dt = functools.reduce(promote_types, strong)
    return (result_type(np.empty((), dt), *weak) if weak else dt), arrays


def _stack(a, dtype=None):
    """``stack(a)`` for a list holding arrays or traced values: each entry as an array of
    ``dtype`` (None: the strong dtypes promoted, weak ones when all are weak), joined along
    a new axis 0."""
    if not a:
        raise ValueError("stack: need at least one array to concatenate")
    xs = [asarray(x, dtype) for x in a]
    avals = [get_aval(x) for x in xs]
    for av in avals[1:]:
        if av.shape != avals[0].shape:
            raise ValueError(f"stack: all input arrays must have the same shape, got {avals[0].shape} "
                             f"and {av.shape}")
    strong = [av.dtype for av in avals if not av.weak_type]
    dt = np.result_type(*(strong or [av.dtype for av in avals]))
    xs = [reshape(convert_element_type(x, dt) if av.dtype != dt else x, (1,) + av.shape)
          for x, av in zip(xs, avals)]
    return concatenate(xs, 0)


def _on_device(make, device):
    """``make()`` with ``device`` (None: the default device) as the default device; inside a
    `set_mesh` context, replicated over its mesh (`core.sharding_flow`), as JAX's creations."""
    if device is None:
        out = make()
        return sharding_flow.eager_results((), out) if sharding_flow.live else out
    with default_device_scope(device):
        return make()


def _moved(x, device):
    return x if device is None else device_put(x, device)


def asarray(a: Any, dtype: DTypeLike | None = None, copy: bool | None = None, *,
            device: Device | str | None = None) -> Array:
    """Convert ``a`` (array, list, scalar, numpy array) to an `fgrad.Array`.

    Host data goes to the default device; an fgrad Array stays where it is; a device buffer
    (e.g. a cupy array) is copied on its own device.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.asarray([1, 2], dtype=float)
        Array([1., 2.], dtype=float64)
    """
    if getattr(a, "_fgrad_key_array", False) is True and dtype is None:
        return a  # a typed PRNG key array is an Array of a key dtype (as jnp.asarray(key) in JAX)
    if dtype is not None:
        check_array_dtype(dtype, "fgrad.numpy.asarray")
        dtype = requested_dtype(dtype, "asarray")
    if isinstance(a, (ArrayImpl, Tracer)):
        out = a if dtype is None or dtype == get_aval(a).dtype else convert_element_type(a, dtype)
        if out is a and copy is False and device is not None and type(a) is ArrayImpl and a.device != device:
            raise ValueError(f"fgrad.numpy.asarray: copy=False, but the array is on {a.device} and "
                             f"device={device!r} needs a copy")
        if out is a and copy and type(a) is ArrayImpl:
            out = a.copy()
        return _moved(out, device)
    if copy is False and not isinstance(a, np.ndarray) and not hasattr(a, "__array__"):
        raise ValueError(f"fgrad.numpy.asarray: copy=False, but a {type(a).__name__} must be copied "
                         "into a new array; pass copy=None")
    if dtype is None and isinstance(a, (list, tuple)):
        dtype, arrays = _list_dtype(a)  # JAX's promotion of the leaves (Python numbers weak)
        if arrays:  # stacked as arrays: on their device, in any dtype (bfloat16), traced or not;
            return _moved(strip_weak(_stack(a, dtype)), device)  # a list's array is strong (JAX)
    if isinstance(a, (list, tuple)) and _has_tracer(a):
        return strip_weak(_stack(a, dtype))
    if _is_dlpack_tensor(a):  # a PyTorch/JAX/shim tensor: read through DLPack, copied below
        try:
            a = import_buffer(a)
        except BufferError:  # a dtype or device DLPack cannot carry: __array__ as before
            pass
    return _weak_if_scalar(_on_device(lambda: host_array(a, dtype), device), a, dtype)


def _weak_if_scalar(out, value, dtype):
    """``out`` weakly typed when it was made from a Python int/float/complex without a dtype
    (JAX: ``jnp.asarray(1.0)`` and ``jnp.full(3, 2)`` are weak)."""
    if dtype is None and type(value) in WEAK_SCALAR_TYPES and type(out) is ArrayImpl:
        return wrap(out._buf, True)
    return out


def _weak_like(out, x, dtype):
    """``out`` weakly typed when it copies a weak ``x``'s dtype (``zeros_like`` and kin; a
    Python int/float/complex is weak: JAX's ``zeros_like(3.0)`` is, as fgrad's under jit),
    and placed as ``x`` when ``x`` was placed over a mesh and ``out`` has its shape (JAX's
    ``full_like`` takes ``x.sharding``)."""
    if dtype is None and type(out) is ArrayImpl and (getattr(x, "weak_type", False) is True
                                                      or type(x) in WEAK_SCALAR_TYPES):
        out = wrap(out._buf, True)
    if sharding_flow.live and type(out) is ArrayImpl:
        placed = sharding_flow.recorded(x)
        if sharding_flow.is_mesh_sharding(placed) and out.shape == x.shape:
            out._sharding = placed
    return out


def _is_dlpack_tensor(a) -> bool:
    return (hasattr(a, "__dlpack__") and not isinstance(a, (np.ndarray, np.generic))
            and type(a).__module__.split(".")[0] != "cupy")


array = asarray


def zeros(shape: int | Shape, dtype: DTypeLike | None = None, *,
          device: Device | str | None = None) -> Array:
    """Zeros of ``shape`` (float64 by default) on ``device`` (default: the default device).

    >>> import fgrad.numpy as fnp
    >>> fnp.zeros(2, dtype=fnp.int32, device="cpu")
    Array([0, 0], dtype=int32)
    """
    staged = _staged_fill(shape, 0, dtype or float, device)  # (float64 by default: not the int literal's)
    return staged if staged is not None else _on_device(lambda: _zeros(shape, dtype), device)


def _staged_fill(shape, value, dtype, device):
    """JAX's program for ``zeros``/``ones``/``full`` of a scalar while a program is staged:
    ``broadcast_in_dim`` of the scalar as a literal (``broadcast_in_dim 1.0:f32[]``), not a
    constant array of the whole shape; None eagerly, for 0-d shapes and for array fills."""
    trace = state.trace
    if type(trace) is not StagingTrace or trace.partial or device is not None:
        return None
    if type(value) is bool:
        value = np.bool_(value)
    if type(value) not in WEAK_SCALAR_TYPES and not isinstance(value, np.generic):
        return None
    shape = _shape_tuple(shape)
    if not shape:
        return None
    if dtype is None and type(value) in WEAK_SCALAR_TYPES:
        lit = value  # a weakly typed Python scalar, as JAX's full(shape, 2.5)
    else:
        dt = _make("zeros", (), dtype=value.dtype if dtype is None else dtype).dtype
        lit = np.asarray(value, dt)[()]
    return broadcast_in_dim(lit, shape, ())


def ones(shape: int | Shape, dtype: DTypeLike | None = None, *,
         device: Device | str | None = None) -> Array:
    staged = _staged_fill(shape, 1, dtype or float, device)
    return staged if staged is not None else _on_device(
        lambda: _make("ones", _shape_tuple(shape), dtype=dtype or float), device)


def empty(shape: int | Shape, dtype: DTypeLike | None = None, *,
          device: Device | str | None = None) -> Array:
    return zeros(shape, dtype, device=device)


def full(shape: int | Shape, fill_value: ArrayLike, dtype: DTypeLike | None = None, *,
         device: Device | str | None = None) -> Array:
    if isinstance(fill_value, (Tracer, ArrayImpl)):
        fv = fill_value if dtype is None else convert_element_type(fill_value, dtype)
        return _moved(broadcast_to(fv, _shape_tuple(shape)), device)
    staged = _staged_fill(shape, fill_value, dtype, device)
    if staged is not None:
        return staged
    return _weak_if_scalar(_on_device(lambda: _make("full", _shape_tuple(shape), fill_value, dtype=dtype),
                                      device), fill_value, dtype)


def zeros_like(x: ArrayLike, dtype: DTypeLike | None = None, shape: int | Shape | None = None, *,
               device: Device | str | None = None) -> ArrayImpl:
    """Zeros with ``x``'s shape and dtype (unless given), on ``x``'s device (or ``device``).

    >>> import fgrad.numpy as fnp
    >>> fnp.zeros_like(fnp.ones(2))
    Array([0., 0.], dtype=float64)
    """
    return _weak_like(_moved(_zeros_like(x, dtype, shape), device), x, dtype)


def ones_like(x: ArrayLike, dtype: DTypeLike | None = None, shape: int | Shape | None = None, *,
              device: Device | str | None = None) -> ArrayImpl:
    return _weak_like(_moved(_ones_like(x, dtype, shape), device), x, dtype)


def empty_like(x: ArrayLike, dtype: DTypeLike | None = None, shape: int | Shape | None = None, *,
               device: Device | str | None = None) -> Array:
    return zeros_like(x, dtype, shape, device=device)


def full_like(x: ArrayLike, fill_value: ArrayLike, dtype: DTypeLike | None = None,
              shape: int | Shape | None = None, *, device: Device | str | None = None) -> Array:
    if isinstance(fill_value, (Tracer, ArrayImpl)):
        s, d = _like(x, dtype, shape)
        return _moved(full(s, fill_value, d), device)
    return _weak_like(_moved(_full_like(x, fill_value, dtype, shape), device), x, dtype)


def arange(start: ArrayLike, stop: ArrayLike | None = None, step: ArrayLike | None = None,
           dtype: DTypeLike | None = None, *, device: Device | str | None = None) -> Array:
    """Evenly spaced values in ``[start, stop)`` (NumPy's rules), on ``device``.

    >>> import fgrad.numpy as fnp
    >>> fnp.arange(3)
    Array([0, 1, 2], dtype=int64)
    """
    return _on_device(lambda: _arange(start, stop, step, dtype), device)


def _arange(start, stop=None, step=None, dtype=None):
    for v in (start, stop, step):
        if isinstance(v, Tracer):
            raise TypeError(
                "fgrad.numpy.arange needs concrete bounds (its output shape depends on them); "
                "got a traced value. Pass the bound as a static argument."
            )
    bounds = [v for v in (start, stop, step) if v is not None]
    if dtype is None and any(hasattr(v, "dtype") for v in bounds):
        dtype = result_type(*bounds)  # JAX: the bounds' dtype (arange(int32 5) is int32), Python ints weak
    start, stop, step = (_py_bound(v) for v in (start, stop, step))
    if stop is None:
        if step is None:
            return _make("arange", start, dtype=dtype)
        start, stop = 0, start
    if step is not None:
        target = canonical_dtype(result_type(start, stop, step) if dtype is None
                                 else requested_dtype(dtype, "arange"))
        if dtype_kind(target) == "f":
            return _float_arange(start, stop, step, target)
    return _make("arange", start, stop, step if step is not None else 1, dtype=dtype)


def _float_arange(start, stop, step, dtype):
    """JAX's floating ``arange`` with a step: ``start + step * iota`` in the dtype (float32 for
    narrower floats), each operation rounded once (XLA fuses nothing there). NumPy's float32
    ``arange`` steps by ``(start + step) - start`` rounded, whose error grows along the range:
    up to 26 float32 ulps of the largest value on 300 random ranges, where JAX's is within 2."""
    work = np.dtype(np.float32) if np.dtype(dtype).itemsize < 4 else np.dtype(dtype)
    n = max(0, int(np.ceil((stop - start) / step)))
    iota = _make("arange", n, dtype=work)
    out = add(mul(iota, work.type(step)), work.type(start))
    return out if work == dtype else convert_element_type(out, dtype)


def _py_bound(v):
    return v.item() if isinstance(v, ArrayImpl) else v


def linspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: DTypeLike | None = None, axis: Axis = 0, *, device: Device | str | None = None) -> Array:
    """``num`` evenly spaced values from ``start`` to ``stop`` (NumPy's rules), on ``device``;
    without ``dtype``, in the endpoints' inexact dtype (JAX's: int8 endpoints give float32).
    The values are JAX's on the CPU, bit for bit in float32/float64 in nearly all cases
    (`_xla_linspace`).

    >>> import fgrad.numpy as fnp
    >>> fnp.linspace(0.0, 1.0, 3)
    Array([0. , 0.5, 1. ], dtype=float64)
    """
    if device is not None:
        return _on_device(lambda: linspace(start, stop, num, endpoint, retstep, dtype, axis), device)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if dtype is None:
        ends = [e if hasattr(e, "dtype") or isinstance(e, (int, float, complex)) else np.asarray(e)
                for e in (start, stop)]
        dtype = np.dtype(_to_inexact_dtype(result_type(*ends)))
    else:
        dtype = requested_dtype(dtype, "linspace")
    work = np.dtype(_to_inexact_dtype(dtype))
    div = num - 1 if endpoint else num
    if isinstance(start, Tracer) or isinstance(stop, Tracer):
        like = start if isinstance(start, Tracer) else stop
        start, stop = convert_element_type(start, work), convert_element_type(stop, work)
        out = _xla_linspace(_TracedMath(like), start, stop, num, endpoint, work, axis)
        if dtype != work:
            out = convert_element_type(floor(out) if dtype.kind in "iu" else out, dtype)
        if not retstep:
            return out
        # NumPy's and JAX's step: NaN when there is no step (one value, endpoint included)
        nan = constant_like(np.array(np.nan, work), like)
        if not div:
            return out, mul(stop - start, nan)
        return out, (stop - start) / constant_like(np.array(div, work), like)
    s_h, e_h = np.asarray(start).astype(work), np.asarray(stop).astype(work)
    with np.errstate(all="ignore"):
        out = _xla_linspace(_HOST_MATH, s_h, e_h, num, endpoint, work, axis)
        if dtype != work:
            out = (np.floor(out) if dtype.kind in "iu" else out).astype(dtype)
        place = _placer(start, stop)
        if not retstep:
            return place(np.asarray(out))
        delta = (e_h - s_h) / work.type(div) if div else (e_h - s_h) * work.type(np.nan)
    return place(np.asarray(out)), place(np.asarray(delta, work))


class _HostMath:
    """The few operations `_xla_linspace` needs, on NumPy arrays."""

    @staticmethod
    def const(v):
        return v

    where = staticmethod(np.where)
    isfinite = staticmethod(np.isfinite)
    concatenate = staticmethod(np.concatenate)
    reshape = staticmethod(np.reshape)
    broadcast_to = staticmethod(np.broadcast_to)


_HOST_MATH = _HostMath()


class _TracedMath:
    """The same operations on fgrad values (traced endpoints), constants placed like ``like``."""

    def __init__(self, like) -> None:
        self.like = like

    def const(self, v):
        return constant_like(np.asarray(v), self.like)

    @staticmethod
    def where(c, x, y):
        from ..ops.elementwise import select
        return select(c, x, y)

    @staticmethod
    def isfinite(x):
        from ..ops.elementwise import isfinite
        return isfinite(x)

    @staticmethod
    def concatenate(xs, axis):
        return concatenate(list(xs), axis)

    reshape = staticmethod(reshape)
    broadcast_to = staticmethod(broadcast_to)


# XLA's CPU code for JAX's ``start * (1 - step) + stop * step`` (``step = iota * (1/div)``, the
# division folded into a reciprocal) with scalar endpoints (``stop * step`` reassociated to
# ``iota * (stop/div)``; array endpoints keep the formula as written, not fused):
# below these sizes the loop is unrolled over constant ``iota`` (``1 - step`` folded without
# a fused multiply-add, ``iota = 1`` multiplies folded away); from them on it is vectorized
# (``1 - step`` fused) with a scalar remainder of ``div % lanes`` elements (not fused); up to
# 33 steps the ``iota = 1`` element is ``fma(start, 1 - r, stop r)``.
# Measured on JAX 0.10.2 (x86-64): float32 from 224 steps, 8 lanes; float64 from 176, 16.
_XLA_LINSPACE_LOOP = {np.dtype(np.float32): (224, 8), np.dtype(np.float64): (176, 16)}


def _fma(m, a, b, c, dt):
    """``a * b + c`` rounded once (Dekker's exact product, Knuth's two-sum) in ``dt`` with the
    operations of ``m``; where the splitting overflows (huge values) or the inputs are not
    finite, the plain ``a * b + c``."""
    split = dt.type(134217729.0 if dt == np.float64 else 4097.0)
    p = a * b
    ca = split * a
    ah = ca - (ca - a)
    al = a - ah
    cb = split * b
    bh = cb - (cb - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)
    low = t + e
    fused = m.where(low == dt.type(0), s, s + low)
    return m.where(m.isfinite(fused), fused, s)


def _xla_linspace(m, s, e, num: int, endpoint: bool, cd, axis: int):
    """JAX's ``linspace`` of endpoints ``s``/``e`` (already in the computation dtype ``cd``)
    as XLA's CPU code computes it (`_XLA_LINSPACE_LOOP`): ``(1 - k r)`` with ``r = 1/div``,
    then ``fma(k, e r, s (1 - k r))``; ``stop`` itself as the last value (``endpoint``).
    Other dtypes (complex, 16-bit floats): JAX's formula in ``cd`` arithmetic."""
    cd = np.dtype(cd)
    bshape = list(np.broadcast_shapes(np.shape(s), np.shape(e)))
    ax = len(bshape) + axis + 1 if axis < 0 else axis
    if not 0 <= ax <= len(bshape):
        raise ValueError(f"fgrad.numpy.linspace: axis {axis} is out of bounds for the {len(bshape) + 1}-d "
                         "result")
    b1 = bshape[:ax] + [1] + bshape[ax:]
    s = m.reshape(m.broadcast_to(s, tuple(bshape)), tuple(b1))
    e = m.reshape(m.broadcast_to(e, tuple(bshape)), tuple(b1))
    div = num - 1 if endpoint else num
    if num == 0:
        return m.const(np.zeros(bshape[:ax] + [0] + bshape[ax:], cd))
    if num == 1:
        return s
    rd = {np.dtype(np.complex64): np.dtype(np.float32),
          np.dtype(np.complex128): np.dtype(np.float64)}.get(cd, cd)
    ishape = [1] * len(b1)
    ishape[ax] = div
    k = np.arange(div, dtype=rd).reshape(ishape)
    r = rd.type(1) / rd.type(div)
    loop = None if int(np.prod(bshape)) > 1 else _XLA_LINSPACE_LOOP.get(cd)
    if loop is None:  # JAX's formula as written (XLA's code for array endpoints)
        step = (k * r).astype(cd)
        out = s * m.const((cd.type(1) - step).astype(cd)) + e * m.const(step)
    else:
        threshold, lanes = loop
        one = np.ones_like(k)
        with np.errstate(all="ignore"):
            om = one - k * r
            if div >= threshold:  # the vector loop's part: ``1 - k r`` fused
                main = div - div % lanes
                fused = _fma(_HOST_MATH, -k, np.full_like(k, r), one, rd)
                om = np.where(np.arange(div).reshape(ishape) < main, fused, om)
        t1 = s * m.const(om)
        er = e * m.const(np.asarray(r, cd))
        full = tuple(np.broadcast_shapes(tuple(ishape), tuple(b1)))
        kk = m.const(np.broadcast_to(k, full).copy())
        out = _fma(m, kk, m.broadcast_to(er, full), m.broadcast_to(t1, full), cd)
        if 1 < div < 34:  # the fully unrolled code's ``iota = 1``: ``fma(s, 1 - r, e r)``
            second = _fma(m, m.broadcast_to(s, tuple(b1)), m.const(np.full(b1, om.reshape(-1)[1], cd)),
                          er, cd)
            mask = np.zeros(full, bool)
            idx = [slice(None)] * len(full)
            idx[ax] = 1
            mask[tuple(idx)] = True
            out = m.where(m.const(mask), m.broadcast_to(second, full), out)
    if endpoint:
        out = m.concatenate([out, e], ax)
    return out


def _placer(*operands):
    """Put a host result on the device of the first Array operand (else the default one)."""
    for o in operands:
        if type(o) is ArrayImpl:
            be = backend_of_buffer(o._buf)
            if be is NUMPY:
                return wrap
            dev = be.device_of(o._buf)
            return lambda h: wrap(be.from_host(h, dev))
    be = default_backend()
    if be is NUMPY:
        return wrap
    dev = default_device()
    return lambda h: wrap(be.from_host(h, dev))


def eye(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike | None = None, *,
        device: Device | str | None = None) -> Array:
    return _on_device(lambda: _make("eye", N, M, k, dtype=dtype or float), device)


def identity(n: int, dtype: DTypeLike | None = None) -> Array:
    return eye(n, dtype=dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike | None = None) -> Array:
    """Ones at and below the ``k``-th diagonal of an ``N x M`` array; float32 by default in
    both 64-bit modes (JAX 0.10.2's default for ``tri``, unlike ``eye`` and ``ones``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.tri(2, 3)
        Array([[1., 0., 0.],
               [1., 1., 0.]], dtype=float32)
    """
    return _make("tri", N, M, k, dtype=dtype or np.float32)


def _public_names(namespace, extra=()):
    return sorted({n for n, v in namespace.items() if not n.startswith("_") and callable(v)
                   and getattr(v, "__module__", None) == __name__} | set(extra))


__all__ = _public_names(globals(), ("float_", "zeros", "zeros_like", "ones_like"))
