"""`fgrad.lax`: thin, JAX-`lax`-named wrappers over fgrad's primitives.

Unlike `fgrad.numpy`, these do not add NumPy conveniences (no axis=None, no keepdims); they
mirror `jax.lax` signatures.  Everything is differentiable/batchable as its primitive is.
Operations that live in modules written elsewhere (``dot_general``, ``concatenate``, ``pad``,
``dynamic_slice``, ...) are looked up lazily, on first use.

Example::

    >>> import fgrad, fgrad.lax as lax
    >>> fgrad.grad(lambda x: x * lax.stop_gradient(x))(3.0)
    Array(3., dtype=float64)
"""

from __future__ import annotations

import builtins as _builtins
import importlib

import numpy as np

from .core.array import get_aval as _get_aval
from .core.array import wrap as _wrap
from .ops import elementwise as _ew
from .ops import reductions as _red
from .ops import shape as _shape
from .ops._util import normalize_axis as _normalize_axis
from .ops.bits import (  # noqa: F401
    bitcast_convert_type, erf, erf_inv, erfc, shift_left, shift_right_arithmetic, shift_right_logical,
    stop_gradient,
)
from .ops.cumulative import associative_scan, cumlogsumexp, cummax, cummin, cumprod, cumsum  # noqa: F401
from .ops.sorting import sort, sort_key_val, top_k  # noqa: F401
from .ops.control_flow import cond, fori_loop, map, scan, switch, while_loop  # noqa: F401,A004

__all__ = [
    "stop_gradient", "add", "sub", "mul", "div", "rem", "neg", "abs", "sign", "floor", "ceil", "round",
    "exp", "exp2", "log", "log1p", "expm1", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh",
    "cosh", "tanh", "asinh", "acosh", "atanh", "logistic", "sqrt", "rsqrt", "cbrt", "pow", "integer_pow",
    "square", "max", "min", "clamp", "select", "eq", "ne", "lt", "le", "gt", "ge", "is_finite",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "shift_left", "shift_right_logical",
    "shift_right_arithmetic", "convert_element_type", "bitcast_convert_type", "real", "imag", "conj",
    "broadcast", "broadcast_in_dim", "reshape", "transpose", "squeeze", "expand_dims", "rev", "iota",
    "full", "full_like", "zeros_like_array", "reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
    "reduce_and", "reduce_or", "argmax", "argmin", "cumsum", "cumprod", "cummax", "cummin",
    "cumlogsumexp", "associative_scan", "sort", "sort_key_val", "top_k", "erf", "erfc", "erf_inv",
    "dot", "concatenate", "slice", "slice_in_dim", "index_in_dim", "RoundingMethod",
    "dynamic_slice", "dynamic_slice_in_dim", "dynamic_index_in_dim", "dynamic_update_slice",
    "cond", "switch", "scan", "map", "fori_loop", "while_loop",
]

# ---------------------------------------------------------------------------------------
# elementwise

add, sub, mul, neg = _ew.add, _ew.sub, _ew.mul, _ew.neg
exp, exp2, log, log1p, expm1 = _ew.exp, _ew.exp2, _ew.log, _ew.log1p, _ew.expm1
sin, cos, tan, asin, acos, atan = _ew.sin, _ew.cos, _ew.tan, _ew.asin, _ew.acos, _ew.atan
sinh, cosh, tanh, asinh, acosh, atanh = _ew.sinh, _ew.cosh, _ew.tanh, _ew.asinh, _ew.acosh, _ew.atanh
sqrt, cbrt, logistic, sign, floor, ceil = _ew.sqrt, _ew.cbrt, _ew.logistic, _ew.sign, _ew.floor, _ew.ceil
abs = _ew.abs_  # noqa: A001
real, imag, conj = _ew.real, _ew.imag, _ew.conj
max, min = _ew.maximum, _ew.minimum  # noqa: A001
pow = _ew.pow_  # noqa: A001
select = _ew.select
convert_element_type = _ew.convert_element_type


def div(x, y):
    """``x / y``; for integers rounds toward zero (C semantics, like XLA)."""
    if _get_aval(x).dtype.kind in "iu" and _get_aval(y).dtype.kind in "iu":
        q = _ew.floor_divide_p.bind(x, y)
        inexact = _ew.ne_p.bind(_ew.rem_p.bind(x, y), 0)
        signs_differ = _ew.ne_p.bind(_ew.lt(x, 0), _ew.lt(y, 0))
        return _ew.select(_ew.logical_and(inexact, signs_differ), _ew.add(q, 1), q)
    return _ew.div(x, y)


def rem(x, y):
    """Remainder with the sign of the dividend (C ``fmod``, like XLA)."""
    return _ew.fmod_p.bind(x, y)


def atan2(x, y):
    return _ew.atan2_p.bind(x, y)


def rsqrt(x):
    return _ew.rsqrt_(x)


def square(x):
    return _ew.mul(x, x)


def integer_pow(x, y: int):
    """``x ** y`` for a static Python integer ``y``."""
    if not isinstance(y, (int, np.integer)):
        raise TypeError(f"integer_pow: the exponent must be a Python int, got {type(y).__name__}")
    return _ew.pow_(x, int(y))


class RoundingMethod:
    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x, rounding_method=RoundingMethod.AWAY_FROM_ZERO):  # noqa: A001
    """Round to integral values; halves away from zero (default) or to even."""
    if int(rounding_method) == RoundingMethod.TO_NEAREST_EVEN:
        return _ew.round_p.bind(x, decimals=0)
    t = _ew.trunc(x)
    return _ew.select(_ew.ge_p.bind(_ew.abs_(_ew.sub(x, t)), 0.5), _ew.add(t, _ew.sign(x)), t)


def clamp(min, x, max):  # noqa: A002
    """``min <= x <= max`` elementwise (lax argument order)."""
    return _ew.minimum(_ew.maximum(x, min), max)


def eq(x, y):
    return _ew.eq_p.bind(x, y)


def ne(x, y):
    return _ew.ne_p.bind(x, y)


def lt(x, y):
    return _ew.lt_p.bind(x, y)


def le(x, y):
    return _ew.le_p.bind(x, y)


def gt(x, y):
    return _ew.gt_p.bind(x, y)


def ge(x, y):
    return _ew.ge_p.bind(x, y)


def is_finite(x):
    return _ew.isfinite(x)


def bitwise_and(x, y):
    return _ew.and_p.bind(x, y)


def bitwise_or(x, y):
    return _ew.or_p.bind(x, y)


def bitwise_xor(x, y):
    return _ew.xor_p.bind(x, y)


def bitwise_not(x):
    return _ew.invert(x)


# ---------------------------------------------------------------------------------------
# shapes


def broadcast_in_dim(operand, shape, broadcast_dimensions):
    return _shape.broadcast_in_dim(operand, shape, broadcast_dimensions)


def broadcast(operand, sizes):
    """Prepend dimensions ``sizes`` to ``operand``."""
    nd = _get_aval(operand).ndim
    sizes = tuple(int(s) for s in sizes)
    return _shape.broadcast_in_dim(operand, sizes + _get_aval(operand).shape,
                                   tuple(range(len(sizes), len(sizes) + nd)))


def reshape(operand, new_sizes, dimensions=None):
    """Reshape (after transposing by ``dimensions`` if given)."""
    if dimensions is not None:
        operand = _shape.transpose(operand, dimensions)
    return _shape.reshape(operand, tuple(new_sizes))


def transpose(operand, permutation):
    return _shape.transpose(operand, permutation)


def squeeze(array, dimensions):
    shp = _get_aval(array).shape
    dims = {_normalize_axis(d, len(shp), "squeeze") for d in dimensions}
    for d in dims:
        if shp[d] != 1:
            raise ValueError(f"squeeze: dimension {d} of shape {shp} is not 1")
    return _shape.reshape(array, tuple(s for i, s in enumerate(shp) if i not in dims))


def expand_dims(array, dimensions):
    return _shape.expand_dims(array, tuple(dimensions))


def rev(operand, dimensions):
    """Reverse ``operand`` along each of ``dimensions``."""
    dims = tuple(_normalize_axis(d, _get_aval(operand).ndim, "rev") for d in dimensions)
    st = _structural()
    if st is not None:
        return st.rev(operand, dims)
    from .ops.sorting import flip_axis

    for d in dims:
        operand = flip_axis(operand, d)
    return operand


def _structural():
    try:
        from .ops import structural
    except ImportError:  # pragma: no cover - module written elsewhere
        return None
    return structural


def iota(dtype, size):
    return _wrap(np.arange(int(size), dtype=np.dtype(dtype)))


def full(shape, fill_value, dtype=None):
    from .numpy import full as _full

    return _full(shape, fill_value, dtype)


def full_like(x, fill_value, dtype=None, shape=None):
    from .numpy import full_like as _full_like

    return _full_like(x, fill_value, dtype, shape)


def zeros_like_array(x):
    from .numpy import zeros_like

    return zeros_like(x)


def _static_ints(values, what: str, op: str) -> tuple:
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


def slice(operand, start_indices, limit_indices, strides=None):  # noqa: A001
    """Static slice ``operand[start:limit:stride, ...]``.

    Every bound is checked as in JAX (``0 <= start <= limit <= size``, ``stride >= 1``):
    out-of-range bounds raise a ``TypeError`` rather than being clamped.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.slice(fnp.arange(6.0), (1,), (5,), (2,))
        Array([1., 3.], dtype=float64)
    """
    shp = _get_aval(operand).shape
    starts = _static_ints(start_indices, "start_indices", "slice")
    limits = _static_ints(limit_indices, "limit_indices", "slice")
    strides = (1,) * len(shp) if strides is None else _static_ints(strides, "strides", "slice")
    _check_slice(shp, starts, limits, strides)
    st = _structural()
    if st is not None:
        return st.static_slice(operand, starts, limits, strides)
    from .ops.sorting import slice_axis

    for d, (s, e, k) in enumerate(zip(starts, limits, strides, strict=True)):
        if (s, e, k) != (0, shp[d], 1):
            operand = slice_axis(operand, d, s, e, k)
    return operand


def slice_in_dim(operand, start_index, limit_index, stride=1, axis=0):
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
    start = 0 if start_index is None else _static_ints((start_index,), "start_index", "slice_in_dim")[0]
    limit = n if limit_index is None else _static_ints((limit_index,), "limit_index", "slice_in_dim")[0]
    start = start + n if start < 0 else start
    limit = limit + n if limit < 0 else limit
    starts = [0] * nd
    limits = list(shp)
    strides = [1] * nd
    starts[axis], limits[axis], strides[axis] = start, limit, stride
    return slice(operand, starts, limits, strides)


def _dynamic_starts(operand, start_indices, sizes, op: str) -> list:
    """Start indices (negative ones counted from the end) clamped to ``[0, dim - size]``
    (JAX's dynamic_slice semantics): a
    Python int for a concrete start, a scalar int64 Array for a traced one."""
    from .core.array import Tracer

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
        if av.shape != () or av.dtype.kind not in "iu":
            raise TypeError(
                f"{op}: index arguments must be scalar integers, got {av.str_short()} for "
                f"dimension {i}. Convert with `.astype(int)`."
            )
        # a negative start counts from the end once (as in JAX), then the start is clamped
        if isinstance(st, Tracer):
            st = _ew.convert_element_type(st, np.dtype(np.int64))
            st = _ew.select(_ew.lt(st, 0), _ew.add(st, n), st)
            out.append(_ew.minimum(_ew.maximum(st, 0), n - k))
        else:
            st = int(st)
            st = st + n if st < 0 else st
            out.append(_builtins.min(_builtins.max(st, 0), n - k))
    return out


def dynamic_slice(operand, start_indices, slice_sizes):
    """``operand[s0:s0+k0, s1:s1+k1, ...]`` where the starts may be traced.  As in JAX, a
    negative start counts from the end and each start is then clamped so the slice stays
    inside the operand (no error).

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.dynamic_slice(fnp.arange(5.0), (4,), (2,))
        Array([3., 4.], dtype=float64)
    """
    from .numpy import take

    sizes = _static_ints(slice_sizes, "slice_sizes", "dynamic_slice")
    shp = _get_aval(operand).shape
    if len(sizes) != len(shp):
        raise TypeError(
            f"dynamic_slice: slice_sizes must have one entry per operand dimension, got "
            f"{sizes} for operand shape {shp}."
        )
    starts = _dynamic_starts(operand, start_indices, sizes, "dynamic_slice")
    if all(isinstance(st, int) for st in starts):
        return slice(operand, starts, [st + k for st, k in zip(starts, sizes)])
    out = operand
    for d, (st, k) in enumerate(zip(starts, sizes)):
        if isinstance(st, int):
            out = slice_in_dim(out, st, st + k, axis=d)
        else:
            out = take(out, _ew.add(st, np.arange(k, dtype=np.int64)), axis=d, mode="clip")
    return out


def dynamic_slice_in_dim(operand, start_index, slice_size, axis=0):
    """`dynamic_slice` along one ``axis`` (the start is clamped, as in JAX).

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.dynamic_slice_in_dim(fnp.arange(5.0), 1, 2)
        Array([1., 2.], dtype=float64)
    """
    shp = _get_aval(operand).shape
    axis = _normalize_axis(axis, len(shp), "dynamic_slice_in_dim")
    starts = [0] * len(shp)
    sizes = list(shp)
    starts[axis] = start_index
    sizes[axis] = slice_size
    return dynamic_slice(operand, starts, sizes)


def dynamic_index_in_dim(operand, index, axis=0, keepdims=True):
    """``operand`` at (clamped) ``index`` along ``axis``.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.lax as lax
        >>> lax.dynamic_index_in_dim(fnp.arange(5.0), 9, keepdims=False)
        Array(4., dtype=float64)
    """
    out = dynamic_slice_in_dim(operand, index, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


def dynamic_update_slice(operand, update, start_indices):
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
    starts = _dynamic_starts(operand, start_indices, ushp, "dynamic_update_slice")
    if all(isinstance(st, int) for st in starts):
        block = tuple(_builtins.slice(st, st + k) for st, k in zip(starts, ushp))
        return operand.at[block].set(update)
    grids = []  # outer-product index arrays (as np.ix_) over the block
    for d, (st, k) in enumerate(zip(starts, ushp)):
        bshape = (1,) * d + (k,) + (1,) * (len(ushp) - d - 1)
        grids.append(reshape(_ew.add(st, np.arange(k, dtype=np.int64)), bshape))
    return operand.at[tuple(grids)].set(update)


def index_in_dim(operand, index, axis=0, keepdims=True):
    from .ops.sorting import take_static

    axis = _normalize_axis(axis, _get_aval(operand).ndim, "index_in_dim")
    out = take_static(operand, [index], axis)
    return out if keepdims else squeeze(out, (axis,))


# ---------------------------------------------------------------------------------------
# reductions


def _axes(axes):
    return tuple(int(a) for a in axes)


def reduce_sum(operand, axes):
    return _red.reduce_sum(operand, _axes(axes))


def reduce_max(operand, axes):
    return _red.reduce_max(operand, _axes(axes))


def reduce_min(operand, axes):
    return _red.reduce_min(operand, _axes(axes))


def reduce_prod(operand, axes):
    return _red.reduce_prod(operand, _axes(axes))


def reduce_and(operand, axes):
    return _red.reduce_and_p.bind(operand, axes=tuple(sorted(_axes(axes))))


def reduce_or(operand, axes):
    return _red.reduce_or_p.bind(operand, axes=tuple(sorted(_axes(axes))))


def argmax(operand, axis, index_dtype=np.int64):
    return _red.argmax_p.bind(operand, axis=_normalize_axis(axis, _get_aval(operand).ndim, "argmax"),
                              index_dtype=np.dtype(index_dtype))


def argmin(operand, axis, index_dtype=np.int64):
    return _red.argmin_p.bind(operand, axis=_normalize_axis(axis, _get_aval(operand).ndim, "argmin"),
                              index_dtype=np.dtype(index_dtype))


# ---------------------------------------------------------------------------------------
# operations defined in other modules (resolved on first use)


def dot(lhs, rhs, precision=None, preferred_element_type=None):
    """Vector/matrix products (``numpy.dot`` for rank <= 2)."""
    from .numpy import dot as _dot

    out = _dot(lhs, rhs)
    return out if preferred_element_type is None else convert_element_type(out, preferred_element_type)


def concatenate(operands, dimension):
    """Join ``operands`` along ``dimension``."""
    st = _structural()
    if st is not None:
        return st.concatenate(list(operands), dimension)
    from .numpy import concatenate as _concat  # pragma: no cover

    return _concat(list(operands), axis=dimension)


_LAZY = {
    "dot_general": ("fgrad.ops.linalg", "dot_general"),
    "pad": ("fgrad.ops.structural", "pad"),
}


def __getattr__(name):
    if name in _LAZY:
        mod, attr = _LAZY[name]
        try:
            fn = getattr(importlib.import_module(mod), attr)
        except (ImportError, AttributeError):
            raise AttributeError(
                f"fgrad.lax.{name} is not available: it is provided by {mod}.{attr}, which this "
                "installation does not have yet"
            ) from None
        globals()[name] = fn
        return fn
    raise AttributeError(f"module 'fgrad.lax' has no attribute {name!r}")
