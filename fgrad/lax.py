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


def slice(operand, start_indices, limit_indices, strides=None):  # noqa: A001
    """Static slice ``operand[start:limit:stride, ...]``."""
    st = _structural()
    if st is not None:
        return st.static_slice(operand, tuple(start_indices), tuple(limit_indices),
                               None if strides is None else tuple(strides))
    from .ops.sorting import slice_axis

    strides = strides or (1,) * len(start_indices)
    for d, (s, e, k) in enumerate(zip(start_indices, limit_indices, strides, strict=True)):
        if (s, e, k) != (0, _get_aval(operand).shape[d], 1):
            operand = slice_axis(operand, d, s, e, k)
    return operand


def slice_in_dim(operand, start_index, limit_index, stride=1, axis=0):
    nd = _get_aval(operand).ndim
    axis = _normalize_axis(axis, nd, "slice_in_dim")
    n = _get_aval(operand).shape[axis]
    start, limit, _ = _builtins.slice(start_index, limit_index).indices(n)
    starts = [0] * nd
    limits = list(_get_aval(operand).shape)
    strides = [1] * nd
    starts[axis], limits[axis], strides[axis] = start, limit, stride
    return slice(operand, starts, limits, strides)


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
