"""The `fgrad.lax` functions, on the primitives (re-exported by `fgrad.lax`).

The wrappers of single primitives are generated from the op specs (`fgrad.ops.specs`, one
per lax name: ``sin`` binds ``sin_p``, ``rem`` binds ``fmod_p``); the rest are written here
with JAX's signatures and checks.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.ops import lax_ops
    >>> lax_ops.rem(fnp.asarray(-7), 3), lax_ops.div(fnp.asarray(-7), 2)
    (Array(-1, dtype=int64, weak_type=True), Array(-3, dtype=int64, weak_type=True))
"""

from __future__ import annotations

import builtins as _builtins
from collections.abc import Sequence

import numpy as np
from ..core.narrow_floats import dtype_kind
from ..typing import Array, ArrayLike, DTypeLike, Integer, Shape, Shaped

from ..core import x64_mode as _x64_mode
from ..core.array import ArrayImpl, Tracer
from ..core.array import get_aval as _get_aval
from ..core.constants import make_on_default_device as _make_on_default_device
from . import elementwise as _ew
from .checks import INDEX_CHECKS, check_start_index
from . import reductions as _red
from . import shape as _shape
from ._util import normalize_axis as _normalize_axis
from .sorting import take_static
from .specs import SPEC_LIST
from .structural import concatenate as _concatenate
from .structural import rev as _rev
from .structural import static_slice as _static_slice


def _unary(bind, name):
    def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
        return bind(x)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``lax.{name}``: elementwise, the primitive itself."
    return f


_KIND_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _dtype_of(x) -> tuple[np.dtype | None, bool]:
    """``(dtype, weak)``: Python scalars and weakly typed arrays are weak (they take the other
    operand's dtype); anything else (Arrays, NumPy arrays and scalars) has a fixed dtype."""
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
        return np.result_type(x), True
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype, False
    try:
        aval = _get_aval(x)
    except TypeError:
        return None, True  # not an array: the primitive reports it
    return aval.dtype, aval.weak_type


def check_same_dtypes(name: str, numpy_name: str, x, y) -> None:
    """JAX's rule for ``lax`` binary ops: no type promotion.  Two operands with fixed dtypes
    must have the same dtype; a weak one (a Python scalar) may not be of a higher kind
    (float into an integer op, complex into a real one).  Raises TypeError otherwise.

    Example::

        >>> import fgrad.numpy as fnp
        >>> check_same_dtypes("add", "add", fnp.ones(2, "float32"), 2.0)   # fine
        >>> check_same_dtypes("add", "add", fnp.ones(2, "float32"), fnp.ones(2, "int32"))
        Traceback (most recent call last):
        ...
        TypeError: lax.add requires arguments to have the same dtypes, got float32, int32. \
(Tip: fgrad.numpy.add is a similar function that does automatic type promotion on inputs).
    """
    (dx, wx), (dy, wy) = _dtype_of(x), _dtype_of(y)
    if dx is None or dy is None or dx == dy or (wx and wy):
        return
    if wx or wy:
        (weak, strong) = (dx, dy) if wx else (dy, dx)
        if _KIND_ORDER.get(dtype_kind(weak), 9) <= _KIND_ORDER.get(dtype_kind(strong), 9):
            return
    raise TypeError(
        f"lax.{name} requires arguments to have the same dtypes, got {dx}, {dy}. (Tip: "
        f"fgrad.numpy.{numpy_name} is a similar function that does automatic type promotion on inputs).")


def _binary(bind, name, numpy_name=None, same_dtypes=True):
    numpy_name = numpy_name or name

    def f(x: ArrayLike, y: ArrayLike) -> Array:
        if same_dtypes:
            check_same_dtypes(name, numpy_name, x, y)
        return bind(x, y)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``lax.{name}``: elementwise with broadcasting, the primitive itself; "
                 + ("no dtype promotion (``fgrad.numpy.{numpy_name}`` promotes)." if same_dtypes
                    else "mixed dtypes allowed, as in JAX."))
    return f


def _generate() -> dict:
    out = {}
    for spec in SPEC_LIST:
        if spec.lax and spec.generates("lax") and spec.family in ("unary", "binary"):
            if spec.family == "unary":
                f = _unary(_ew.jax_face_bind(spec.prim), spec.lax)
            else:
                f = _binary(spec.prim.bind, spec.lax, spec.numpy[0] if spec.numpy else None,
                            same_dtypes=spec.lax != "pow")
            f.__module__ = __name__
            f.op_spec = spec
            out[spec.lax] = f
    return out


def _pow(x: ArrayLike, y: ArrayLike) -> Array:
    """``lax.pow``: ``x ** y``; an integer exponent array does not change ``x``'s dtype (as in
    JAX: ``float32 ** int32`` is float32, where NumPy's promotion would give float64)."""
    (dx, _), (dy, wy) = _dtype_of(x), _dtype_of(y)
    if dx is not None and dy is not None and dtype_kind(dx) in "fc" and dtype_kind(dy) in "iub" and not wy:
        y = _ew.convert_element_type(y, dx)
    else:
        check_same_dtypes("pow", "power", x, y)
    return _ew.pow_p.bind(x, y)


GENERATED = _generate()
_pow.__name__ = _pow.__qualname__ = "pow"
_pow.op_spec = GENERATED["pow"].op_spec
GENERATED["pow"] = _pow
globals().update(GENERATED)
select = _ew.select
def convert_element_type(operand: Shaped[ArrayLike, "*shape"],
                         new_dtype: DTypeLike) -> Shaped[Array, "*shape"]:
    """``lax.convert_element_type``: ``operand`` as ``new_dtype``, strongly typed.

    Example::

        >>> import numpy as np, fgrad.numpy as fnp
        >>> convert_element_type(fnp.asarray(1.5), np.float32)
        Array(1.5, dtype=float32)
    """
    # a 64-bit type asked for while 64-bit types are off: narrowed with JAX's warning
    return _ew.convert_element_type(operand, _x64_mode.requested_dtype(new_dtype, "convert_element_type"))


def _convert_element_type(operand, new_dtype=None, weak_type: bool = False, sharding=None):
    """JAX's ``lax._convert_element_type``: ``operand`` as ``new_dtype`` (None: its own
    dtype), weakly typed when ``weak_type`` (libraries use it to make a weak constant).

    Example::

        >>> import numpy as np, fgrad.numpy as fnp
        >>> _convert_element_type(fnp.ones(2, np.float32), np.float64, weak_type=True)
        Array([1., 1.], dtype=float64, weak_type=True)
    """
    dt = _get_aval(operand).dtype if new_dtype is None else np.dtype(new_dtype)
    return _ew.convert_element_type(operand, dt, bool(weak_type))


def _nonzero_scalar(y) -> bool:
    """Whether ``y`` is a Python or NumPy integer scalar other than 0 (no zero divisor to mask)."""
    return isinstance(y, (int, np.integer)) and not isinstance(y, bool) and y != 0


def int_division_by_zero(q: Array, y: ArrayLike, value) -> Array:
    """``q`` where ``y != 0`` and ``value`` where an integer divisor ``y`` is 0: XLA defines
    integer division by zero (``x / 0`` has every bit set, ``x % 0 == x``), where NumPy gives
    0 with a warning.  ``value`` is a Python int (-1 means every bit set, also for unsigned
    types) or an array broadcasting with ``q``.

    >>> import fgrad.numpy as fnp
    >>> int_division_by_zero(fnp.array([3, 0]), fnp.array([2, 0]), -1)
    Array([ 3, -1], dtype=int64)
    """
    if _nonzero_scalar(y):
        return q
    dt = _get_aval(q).dtype
    if isinstance(value, int) and dtype_kind(dt) == "u":
        value = int(np.iinfo(dt).max) + 1 + value if value < 0 else value
    return _ew.select(_ew.eq(y, 0), value, q)


def div(x: ArrayLike, y: ArrayLike) -> Array:
    """``x / y``; for integers rounds toward zero (C semantics, like XLA) and ``x / 0`` has
    every bit set (-1, or the largest unsigned value); no dtype promotion.

    >>> import fgrad.numpy as fnp
    >>> div(fnp.array([7, -7, 7], fnp.int32), fnp.array([2, 2, 0], fnp.int32))
    Array([ 3, -3, -1], dtype=int32)
    """
    check_same_dtypes("div", "divide", x, y)
    if dtype_kind(_get_aval(x).dtype) in "iu" and dtype_kind(_get_aval(y).dtype) in "iu":
        q = _ew.floor_divide_p.bind(x, y)
        inexact = _ew.ne_p.bind(_ew.rem_p.bind(x, y), 0)
        signs_differ = _ew.ne_p.bind(_ew.lt(x, 0), _ew.lt(y, 0))
        q = _ew.select(_ew.logical_and(inexact, signs_differ), _ew.add(q, 1), q)
        return int_division_by_zero(q, y, -1)
    return _ew.div(x, y)


def rem(x: ArrayLike, y: ArrayLike) -> Array:
    """``lax.rem``: the remainder of ``x / y`` rounded toward zero (C's ``%``, the sign of
    ``x``); for integers ``x % 0 == x``, as in XLA; no dtype promotion.

    >>> import fgrad.numpy as fnp
    >>> rem(fnp.array([7, -7, 7], fnp.int32), fnp.array([2, 2, 0], fnp.int32))
    Array([ 1, -1,  7], dtype=int32)
    """
    check_same_dtypes("rem", "fmod", x, y)
    r = _ew.fmod_p.bind(x, y)
    if dtype_kind(_get_aval(x).dtype) in "iu" and dtype_kind(_get_aval(y).dtype) in "iu":
        return int_division_by_zero(r, y, x)
    return r


rem.op_spec = GENERATED["rem"].op_spec
GENERATED["rem"] = rem


def conj(x: ArrayLike) -> Array:
    """``lax.conj``: the complex conjugate, always complex as in JAX (a real operand is its own
    conjugate, returned in the complex dtype of its precision; integers are refused).

    Example::

        >>> import numpy as np
        >>> from fgrad import lax
        >>> lax.conj(np.float32(2.0))
        Array(2.+0.j, dtype=complex64)
    """
    dt = _get_aval(x).dtype
    kind = dtype_kind(dt)
    if kind not in "fc":
        raise TypeError(f"conj does not accept dtype {dt}. Accepted dtypes are subtypes of float32, "
                        "complexfloating, float64.")
    if kind == "f":
        return _ew.convert_element_type(x, np.complex128 if np.dtype(dt) == np.float64 else np.complex64)
    return _ew.conj_p.bind(x)


conj.op_spec = GENERATED["conj"].op_spec
GENERATED["conj"] = conj


def rsqrt(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    return _ew.rsqrt_(x)


def square(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    return _ew.square(x)


def integer_pow(x: Shaped[ArrayLike, "*shape"], y: int) -> Shaped[Array, "*shape"]:
    """``x ** y`` for a static Python integer ``y``."""
    if not isinstance(y, (int, np.integer)):
        raise TypeError(f"integer_pow: the exponent must be a Python int, got {type(y).__name__}")
    return _ew.integer_pow(x, int(y))


class RoundingMethod:
    """How `round` rounds halves: ``AWAY_FROM_ZERO`` (the default) or ``TO_NEAREST_EVEN``.

    Example::

        >>> import fgrad.numpy as jnp
        >>> from fgrad import lax
        >>> x = jnp.array([0.5, 1.5, 2.5])
        >>> lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO)
        Array([1., 2., 3.], dtype=float64)
        >>> lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)
        Array([0., 2., 2.], dtype=float64)
    """
    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x: Shaped[ArrayLike, "*shape"],  # noqa: A001
          rounding_method: int = RoundingMethod.AWAY_FROM_ZERO) -> Shaped[Array, "*shape"]:
    """Round to integral values; halves away from zero (default) or to even."""
    if int(rounding_method) == RoundingMethod.TO_NEAREST_EVEN:
        return _ew.round_p.bind(x, decimals=0)
    t = _ew.trunc(x)
    return _ew.select(_ew.ge_p.bind(_ew.abs_(_ew.sub(x, t)), 0.5), _ew.add(t, _ew.sign(x)), t)


def clamp(min: ArrayLike, x: ArrayLike, max: ArrayLike) -> Array:  # noqa: A002
    """``min(max(x, min), max)`` elementwise, JAX's ``clamp`` primitive (lax argument order):
    ``min``/``max`` are scalars or of ``x``'s shape, all of one dtype (Python scalars
    excepted); the derivative is zero at a tie (``jnp.clip`` splits it in halves).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.clamp(0.0, fnp.array([-1.0, 0.5, 3.0]), 2.0)
        Array([0. , 0.5, 2. ], dtype=float64)
    """
    shape = _get_aval(x).shape
    for what, b in (("min", min), ("max", max)):
        bs = _get_aval(b).shape
        if bs not in ((), shape):
            raise TypeError(f"clamp requires {what}.shape == operand.shape or {what}.shape == (), got "
                            f"{what}.shape={bs}, operand.shape={shape}.")
    dts = [_dtype_of(v) for v in (min, x, max)]
    strong = {d for d, weak in dts if d is not None and not weak}
    if len(strong) > 1:
        raise TypeError("lax.clamp requires arguments to have the same dtypes, got "
                        + ", ".join(str(d) for d, _ in dts) + ".")
    check_same_dtypes("clamp", "clip", x, min)
    check_same_dtypes("clamp", "clip", x, max)
    return _ew.clamp_p.bind(min, x, max)


def broadcast_in_dim(operand: ArrayLike, shape: Shape, broadcast_dimensions: Sequence[int]) -> Array:
    return _shape.broadcast_in_dim(operand, shape, broadcast_dimensions)


def broadcast(operand: ArrayLike, sizes: Shape) -> Array:
    """Prepend dimensions ``sizes`` to ``operand``."""
    nd = _get_aval(operand).ndim
    sizes = tuple(int(s) for s in sizes)
    return _shape.broadcast_in_dim(operand, sizes + _get_aval(operand).shape,
                                   tuple(range(len(sizes), len(sizes) + nd)))


def reshape(operand: ArrayLike, new_sizes: Shape, dimensions: Sequence[int] | None = None) -> Array:
    """Reshape (after transposing by ``dimensions`` if given)."""
    if dimensions is not None:
        operand = _shape.transpose(operand, dimensions)
    return _shape.reshape(operand, tuple(new_sizes))


def transpose(operand: ArrayLike, permutation: Sequence[int]) -> Array:
    return _shape.transpose(operand, permutation)


def squeeze(array: ArrayLike, dimensions: Sequence[int]) -> Array:
    shp = _get_aval(array).shape
    dims = {_normalize_axis(d, len(shp), "squeeze") for d in dimensions}
    for d in dims:
        if shp[d] != 1:
            raise ValueError(f"squeeze: dimension {d} of shape {shp} is not 1")
    return _shape.reshape(array, tuple(s for i, s in enumerate(shp) if i not in dims))


def expand_dims(array: ArrayLike, dimensions: Sequence[int]) -> Array:
    return _shape.expand_dims(array, tuple(dimensions))


def rev(operand: Shaped[ArrayLike, "*shape"], dimensions: Sequence[int]) -> Shaped[Array, "*shape"]:
    """Reverse ``operand`` along each of ``dimensions``."""
    dims = tuple(_normalize_axis(d, _get_aval(operand).ndim, "rev") for d in dimensions)
    return _rev(operand, dims)


def iota(dtype: DTypeLike, size: int) -> Shaped[Array, " size"]:
    """``arange(size)`` of ``dtype`` on the default device, as ``jax.lax.iota``.

    Example::

        >>> iota(np.int32, 3)
        Array([0, 1, 2], dtype=int32)
    """
    return _make_on_default_device("arange", int(size), dtype=np.dtype(dtype))


def static_ints(values, what: str, op: str) -> tuple:
    try:
        out = tuple(int(v) for v in values)
    except TypeError:
        raise TypeError(f"{op}: {what} must be a sequence of Python ints, got {values!r}") from None
    if any(not isinstance(v, (int, np.integer)) or isinstance(v, bool) for v in values):
        raise TypeError(f"{op}: {what} must be static Python ints, got {tuple(values)!r}")
    return out


def _check_slice(shp: tuple, starts: tuple, limits: tuple, strides: tuple) -> None:
    """JAX's lax.slice shape rule: one start/limit/stride per dimension with
    ``0 <= start <= limit <= size`` and ``stride >= 1`` (no clamping, no negative indices)."""
    for what, v in (("start_indices", starts), ("limit_indices", limits), ("strides", strides)):
        if len(v) != len(shp):
            raise TypeError(
                f"slice {what} must have length equal to the number of dimensions of the operand, "
                f"got {what} {v} for operand shape {shp}."
            )
    if any(s < 0 for s in starts):
        raise TypeError(
            f"slice start_indices must be greater than or equal to zero, got start_indices "
            f"{starts} for operand shape {shp}. lax.slice takes no negative indices; use "
            "lax.slice_in_dim or operand[a:b] for Python-style indexing."
        )
    if any(e > n for e, n in zip(limits, shp)):
        raise TypeError(
            f"slice limit_indices must be less than or equal to operand shape, got limit_indices "
            f"{limits} for operand shape {shp}."
        )
    if any(e < s for s, e in zip(starts, limits)):
        raise TypeError(
            f"slice limit_indices must be greater than or equal to start_indices, got "
            f"start_indices {starts} and limit_indices {limits}."
        )
    if any(k < 1 for k in strides):
        raise TypeError(f"slice strides must be positive, got {strides}.")


def slice(operand: ArrayLike, start_indices: Sequence[int], limit_indices: Sequence[int],  # noqa: A001
          strides: Sequence[int] | None = None) -> Array:
    """Static slice ``operand[start:limit:stride, ...]``.

    Every bound is checked as in JAX (``0 <= start <= limit <= size``, ``stride >= 1``):
    out-of-range bounds raise a ``TypeError`` rather than being clamped.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.slice(fnp.arange(6.0), (1,), (5,), (2,))
        Array([1., 3.], dtype=float64)
    """
    shp = _get_aval(operand).shape
    starts = static_ints(start_indices, "start_indices", "slice")
    limits = static_ints(limit_indices, "limit_indices", "slice")
    strides = (1,) * len(shp) if strides is None else static_ints(strides, "strides", "slice")
    _check_slice(shp, starts, limits, strides)
    return _static_slice(operand, starts, limits, strides)


def slice_in_dim(operand: ArrayLike, start_index: int | None, limit_index: int | None, stride: int = 1,
                 axis: int = 0) -> Array:
    """`slice` along one ``axis``; ``None`` bounds mean the whole axis and a negative bound
    counts from the end (as in JAX); out-of-range bounds raise a ``TypeError``.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.slice_in_dim(fnp.arange(6.0), -3, None)
        Array([3., 4., 5.], dtype=float64)
    """
    shp = _get_aval(operand).shape
    nd = len(shp)
    axis = _normalize_axis(axis, nd, "slice_in_dim")
    n = shp[axis]
    start = 0 if start_index is None else static_ints((start_index,), "start_index", "slice_in_dim")[0]
    limit = n if limit_index is None else static_ints((limit_index,), "limit_index", "slice_in_dim")[0]
    start = start + n if start < 0 else start
    limit = limit + n if limit < 0 else limit
    starts = [0] * nd
    limits = list(shp)
    strides = [1] * nd
    starts[axis], limits[axis], strides[axis] = start, limit, stride
    return slice(operand, starts, limits, strides)


def dynamic_starts(operand, start_indices, sizes, op: str) -> list:
    """Start indices (negative ones counted from the end) clamped to ``[0, dim - size]``
    (JAX's dynamic_slice semantics): a
    Python int for a concrete start, a scalar int64 Array for a traced one."""
    shp = _get_aval(operand).shape
    starts = list(start_indices) if isinstance(start_indices, (tuple, list)) else None
    if starts is None:
        av = _get_aval(start_indices)
        if av.ndim != 1:
            raise TypeError(f"{op}: start_indices must be a sequence of scalars, got {av.str_short()}")
        starts = [start_indices[i] for i in range(av.shape[0])]
    if len(starts) != len(shp):
        raise ValueError(
            f"{op}: the number of start indices must match the number of operand dimensions "
            f"({len(starts)} vs shape {shp}); pass one start per dimension."
        )
    for n, k in zip(shp, sizes):
        if not 0 <= k <= n:
            raise TypeError(
                f"{op}: slice sizes must be between zero and the operand's shape, got sizes "
                f"{tuple(sizes)} for operand shape {shp}."
            )
    out = []
    for i, (st, n, k) in enumerate(zip(starts, shp, sizes)):
        av = _get_aval(st)
        if av.shape != () or dtype_kind(av.dtype) not in "iu":
            raise TypeError(
                f"{op}: index arguments must be scalar integers, got {av.str_short()} for "
                f"dimension {i}. Convert with `.astype(int)`."
            )
        # a negative start counts from the end once (as in JAX), then the start is clamped
        if isinstance(st, Tracer):
            st = _ew.convert_element_type(st, np.dtype(np.int64))
            st = _ew.select(_ew.lt(st, 0), _ew.add(st, n), st)
            if INDEX_CHECKS.active:  # traced by checkify with index_checks: report a clamp
                check_start_index(st, shp, i, k)
            out.append(_ew.minimum(_ew.maximum(st, 0), n - k))
        else:
            st = int(st)
            st = st + n if st < 0 else st
            if INDEX_CHECKS.active and not 0 <= st <= n - k:
                check_start_index(st, shp, i, k)
            out.append(_builtins.min(_builtins.max(st, 0), n - k))
    return out


def dynamic_update_slice(operand: Shaped[ArrayLike, "*shape"], update: ArrayLike,
                         start_indices: ArrayLike | Sequence[ArrayLike]) -> Shaped[Array, "*shape"]:
    """``operand`` with the block at ``start_indices`` replaced by ``update``; starts are
    clamped so the block fits, as in JAX.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.dynamic_update_slice(fnp.zeros(4), fnp.ones(2), (3,))
        Array([0., 0., 1., 1.], dtype=float64)
    """
    shp, ushp = _get_aval(operand).shape, _get_aval(update).shape
    if len(ushp) != len(shp) or any(u > n for u, n in zip(ushp, shp)):
        raise TypeError(
            f"dynamic_update_slice: update shape must have the operand's rank and fit inside "
            f"it, got update shape {ushp} for operand shape {shp}."
        )
    starts = dynamic_starts(operand, start_indices, ushp, "dynamic_update_slice")
    if not isinstance(operand, (ArrayImpl, Tracer)):  # a NumPy operand: ``.at`` below
        operand = _ew.convert_element_type_p.bind(operand, new_dtype=_get_aval(operand).dtype)
    if all(isinstance(st, int) for st in starts):
        block = tuple(_builtins.slice(st, st + k) for st, k in zip(starts, ushp))
        return operand.at[block].set(update)
    grids = []  # outer-product index arrays (as np.ix_) over the block
    for d, (st, k) in enumerate(zip(starts, ushp)):
        bshape = (1,) * d + (k,) + (1,) * (len(ushp) - d - 1)
        grids.append(reshape(_ew.add(st, np.arange(k, dtype=np.int64)), bshape))
    return operand.at[tuple(grids)].set(update)


def index_in_dim(operand: ArrayLike, index: int, axis: int = 0, keepdims: bool = True) -> Array:
    axis = _normalize_axis(axis, _get_aval(operand).ndim, "index_in_dim")
    out = take_static(operand, [index], axis)
    return out if keepdims else squeeze(out, (axis,))


def _axes(axes):
    return tuple(int(a) for a in axes)


def reduce_sum(operand: ArrayLike, axes: Sequence[int]) -> Array:
    return _red.reduce_sum(operand, _axes(axes))


def reduce_max(operand: ArrayLike, axes: Sequence[int]) -> Array:
    return _red.reduce_max(operand, _axes(axes))


def reduce_min(operand: ArrayLike, axes: Sequence[int]) -> Array:
    return _red.reduce_min(operand, _axes(axes))


def reduce_prod(operand: ArrayLike, axes: Sequence[int]) -> Array:
    return _red.reduce_prod(operand, _axes(axes))


def _logical_operand(operand: ArrayLike, name: str) -> Array:
    """``operand`` of ``reduce_and``/``reduce_or``: bool (logical) or integer (bitwise), as JAX."""
    av = _get_aval(operand)
    if np.dtype(av.dtype) != np.bool_ and dtype_kind(av.dtype) not in "iu":
        raise TypeError(f"{name}: logical reduction requires operand dtype bool or int, got {av.dtype}")
    return operand


def reduce_and(operand: ArrayLike, axes: Sequence[int]) -> Array:
    return _red.reduce_and_p.bind(_logical_operand(operand, "reduce_and"), axes=tuple(sorted(_axes(axes))))


def reduce_or(operand: ArrayLike, axes: Sequence[int]) -> Array:
    return _red.reduce_or_p.bind(_logical_operand(operand, "reduce_or"), axes=tuple(sorted(_axes(axes))))


def _index_dtype(index_dtype, what: str) -> np.dtype:
    """``index_dtype`` (None: the default integer type); a 64-bit type asked for while 64-bit
    types are off is narrowed with JAX's warning."""
    if index_dtype is None:
        return _x64_mode.canonical_dtype(np.int64)
    return _x64_mode.requested_dtype(index_dtype, what)


def argmax(operand: ArrayLike, axis: int, index_dtype: DTypeLike | None = None) -> Integer[Array, "..."]:
    """Index of the largest element along ``axis``, as ``index_dtype`` (default: int64, or
    int32 while 64-bit types are off).

    Example::

        >>> import numpy as np, fgrad.numpy as fnp
        >>> argmax(fnp.asarray([1.0, 3.0, 2.0]), 0, np.int32)
        Array(1, dtype=int32)
    """
    return _red.argmax_p.bind(operand, axis=_normalize_axis(axis, _get_aval(operand).ndim, "argmax"),
                              index_dtype=_index_dtype(index_dtype, "argmax"))


def argmin(operand: ArrayLike, axis: int, index_dtype: DTypeLike | None = None) -> Integer[Array, "..."]:
    """Index of the smallest element along ``axis``, as ``index_dtype`` (as in `argmax`).

    Example::

        >>> import numpy as np, fgrad.numpy as fnp
        >>> argmin(fnp.asarray([1.0, 3.0, 0.5]), 0, np.int32)
        Array(2, dtype=int32)
    """
    return _red.argmin_p.bind(operand, axis=_normalize_axis(axis, _get_aval(operand).ndim, "argmin"),
                              index_dtype=_index_dtype(index_dtype, "argmin"))


def concatenate(operands: ArrayLike | Sequence[ArrayLike], dimension: int) -> Array:
    """Join ``operands`` along ``dimension``."""
    return _concatenate(list(operands), dimension)


