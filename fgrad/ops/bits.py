"""Bit-level primitives (shifts, bitcast) and ``stop_gradient`` (the special functions
``erf``, ``erfc``, ``erf_inv`` live in `fgrad.ops.special`).

Shifts follow XLA: a shift amount outside ``[0, bits)`` gives 0 (logical shifts) or the sign
fill (arithmetic shift); the amount is converted to the operand's dtype.  They are not
differentiable (integer ops).
"""

from __future__ import annotations

from typing import Any
from ..typing import Array, ArrayLike, DTypeLike

import numpy as np
from ..core import x64_mode as _x64_mode
from ..core.narrow_floats import dtype_kind
from ..core.narrow_floats import finfo as narrow_finfo

from ..core.array import ShapedArray, get_aval
from ..core.primitive import Primitive
from ..core.rules import defbatch, deflinear, defvectorized, defzero
from ..tree_util import map_arrays as tree_map
from .elementwise import nondiff, or_p, sub
from .shape import bdim_to_front

# ---------------------------------------------------------------------------------------
# shifts


def _as_arr(xp, a):
    return a if isinstance(a, xp.ndarray) else xp.asarray(a)


def _bits(dt) -> int:
    return np.dtype(dt).itemsize * 8


def _shift_amount(xp, x, y):
    yy = _as_arr(xp, y)
    out_of_range = (yy < 0) | (yy >= _bits(x.dtype))
    return yy.astype(x.dtype), out_of_range


def _constant_shift(x, y):
    """The shift amount as a Python int when it is one in-range host number (the usual case:
    a constant, e.g. threefry's rotations), else None (the general, masked path)."""
    if type(y) is int or isinstance(y, np.integer) or (type(y) is np.ndarray and y.ndim == 0
                                                        and dtype_kind(y.dtype) in "iu"):
        n = int(y)
        if 0 <= n < _bits(x.dtype):
            return n
    return None


def _shift_left_impl(xp, x, y):
    x = _as_arr(xp, x)
    n = _constant_shift(x, y)
    if n is not None:
        return xp.left_shift(x, x.dtype.type(n))
    amt, bad = _shift_amount(xp, x, y)
    with np.errstate(all="ignore"):
        out = xp.left_shift(x, xp.where(bad, 0, amt))
    return xp.where(bad, xp.zeros((), x.dtype), out)


def _unsigned(dt):
    return np.dtype(f"u{np.dtype(dt).itemsize}")


def _signed(dt):
    return np.dtype(f"i{np.dtype(dt).itemsize}")


def _shift_right_logical_impl(xp, x, y):
    x = _as_arr(xp, x)
    u = x if dtype_kind(x.dtype) == "u" else x.astype(_unsigned(x.dtype))
    n = _constant_shift(x, y)
    if n is not None:
        out = xp.right_shift(u, u.dtype.type(n))
        return out if u is x else out.astype(x.dtype)
    amt, bad = _shift_amount(xp, x, y)
    out = xp.right_shift(u, xp.where(bad, 0, amt).astype(u.dtype))
    out = xp.where(bad, xp.zeros((), u.dtype), out)
    return out if dtype_kind(x.dtype) == "u" else out.astype(x.dtype)


def _shift_right_arithmetic_impl(xp, x, y):
    x = _as_arr(xp, x)
    nbits = _bits(x.dtype)
    amt, bad = _shift_amount(xp, x, y)
    s = x if dtype_kind(x.dtype) == "i" else x.astype(_signed(x.dtype))
    out = xp.right_shift(s, xp.where(bad, nbits - 1, amt).astype(s.dtype))
    return out if dtype_kind(x.dtype) == "i" else out.astype(x.dtype)


shift_left_p = nondiff("shift_left", _shift_left_impl, kernel={"iu": "fg_shift_left({0}, {1})"})
shift_right_logical_p = nondiff("shift_right_logical", _shift_right_logical_impl,
                                kernel={"iu": "fg_shift_right_logical({0}, {1})"})
shift_right_arithmetic_p = nondiff("shift_right_arithmetic", _shift_right_arithmetic_impl,
                                   kernel={"iu": "fg_shift_right_arithmetic({0}, {1})"})


def shift_left(x: ArrayLike, y: ArrayLike) -> Array:
    return shift_left_p.bind(x, y)


def shift_right_logical(x: ArrayLike, y: ArrayLike) -> Array:
    return shift_right_logical_p.bind(x, y)


def shift_right_arithmetic(x: ArrayLike, y: ArrayLike) -> Array:
    return shift_right_arithmetic_p.bind(x, y)


def rotate_left(x, r):
    """Rotate the bits of an unsigned integer array left by ``r`` (composite)."""
    nbits = _bits(get_aval(x).dtype)
    return or_p.bind(shift_left(x, r), shift_right_logical(x, nbits - r if isinstance(r, int) else
                                                           _sub_int(nbits, r)))


def _sub_int(a, b):
    return sub(a, b)


# ---------------------------------------------------------------------------------------
# bitcast


def _check_same_width(dtype, new_dtype) -> None:
    if np.dtype(dtype).itemsize != new_dtype.itemsize:
        raise ValueError(
            f"bitcast_convert_type: {np.dtype(dtype)} and {new_dtype} have different widths; "
            "bitcast_convert_type_p casts between equal widths (bitcast_resize_p between others)"
        )


def _bitcast_impl(xp, x, new_dtype):
    x = _as_arr(xp, x)
    _check_same_width(x.dtype, new_dtype)  # eager calls skip the abstract rule: never a silent reshape
    return x.view(new_dtype)


def _bitcast_abstract(x, new_dtype):
    _check_same_width(x.dtype, new_dtype)
    return ShapedArray(x.shape, new_dtype)


bitcast_convert_type_p = Primitive("bitcast_convert_type", _bitcast_impl, _bitcast_abstract,
                                   family="elementwise")
defzero(bitcast_convert_type_p)
defvectorized(bitcast_convert_type_p)


def _resized_shape(shape: tuple, dtype, new_dtype) -> tuple:
    """XLA's shape rule for a bitcast between widths: a wider type gains a trailing axis of
    the size ratio; a narrower-to-wider cast consumes a trailing axis of that size."""
    old, new = np.dtype(dtype).itemsize, np.dtype(new_dtype).itemsize
    if old > new:
        return (*shape, old // new)
    if not shape or shape[-1] != new // old:
        raise ValueError(
            f"bitcast_convert_type: casting {np.dtype(dtype)}{list(shape)} to the wider "
            f"{np.dtype(new_dtype)} needs a last axis of size {new // old} (the bytes of one "
            f"{np.dtype(new_dtype)}); got shape {tuple(shape)}")
    return tuple(shape[:-1])


def _bitcast_resize_impl(xp, x, new_dtype):
    x = _as_arr(xp, x)
    out_shape = _resized_shape(x.shape, x.dtype, new_dtype)
    return xp.ascontiguousarray(x).view(new_dtype).reshape(out_shape)  # little-endian, as XLA's CPU


def _bitcast_resize_abstract(x, new_dtype):
    return ShapedArray(_resized_shape(x.shape, x.dtype, new_dtype), new_dtype)


def _bitcast_resize_batch(axis_size, vals, dims, new_dtype):
    return bitcast_resize_p.bind(bdim_to_front(vals[0], dims[0], axis_size), new_dtype=new_dtype), 0


bitcast_resize_p = Primitive("bitcast_resize", _bitcast_resize_impl, _bitcast_resize_abstract, family="other")
defzero(bitcast_resize_p)
defbatch(bitcast_resize_p, _bitcast_resize_batch)


def bitcast_convert_type(x: ArrayLike, new_dtype: DTypeLike) -> Array:
    """Reinterpret the bits of ``x`` as ``new_dtype`` (a 64-bit ``new_dtype`` is its 32-bit
    type while 64-bit types are off, as in JAX).  Between widths the shape changes as XLA's:
    a narrower ``new_dtype`` appends an axis of the size ratio, a wider one consumes the
    trailing axis, which must have that size."""
    new_dtype = _x64_mode.requested_dtype(new_dtype, "bitcast_convert_type")
    if np.dtype(get_aval(x).dtype).itemsize != np.dtype(new_dtype).itemsize:
        return bitcast_resize_p.bind(x, new_dtype=new_dtype)
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype)


# ---------------------------------------------------------------------------------------
# reduce_precision (XLA's ReducePrecision, JAX's primitive)


def _reduce_precision_impl(xp, x, exponent_bits, mantissa_bits):
    """Round ``x`` to ``mantissa_bits`` (nearest, ties to even) and clamp its exponent to
    ``exponent_bits`` (overflow: signed inf; underflow below the reduced normal range: signed
    zero), on the bits of its own float type; NaN stays NaN (as XLA's CPU ReducePrecision)."""
    x = _as_arr(xp, x)
    dt = np.dtype(x.dtype)
    info = narrow_finfo(dt)
    src_m, src_e = int(info.nmant), int(info.nexp)
    udt = np.dtype(f"uint{8 * dt.itemsize}")
    u = udt.type
    bits = x.view(udt)
    if mantissa_bits < src_m:
        drop = src_m - mantissa_bits
        last_kept = u(1) << u(drop)
        bias = ((bits & last_kept) >> u(drop)) + ((last_kept >> u(1)) - u(1))
        bits = (bits + bias) & ~(last_kept - u(1))
    if exponent_bits < src_e:
        sign = u(1) << u(8 * dt.itemsize - 1)
        exp_mask = ((u(1) << u(src_e)) - u(1)) << u(src_m)
        bias, reduced = (1 << (src_e - 1)) - 1, (1 << (exponent_bits - 1)) - 1
        exponent = bits & exp_mask
        signed_zero = bits & sign
        bits = xp.where(exponent > u((bias + reduced) << src_m), signed_zero | exp_mask,
                        xp.where(exponent <= u((bias - reduced) << src_m), signed_zero, bits))
    out = xp.asarray(bits).view(dt)
    return xp.where(xp.isnan(x), x, out).reshape(x.shape)  # NaN stays NaN, with 0 mantissa bits too


def _reduce_precision_abstract(x, exponent_bits, mantissa_bits):
    if dtype_kind(x.dtype) != "f":
        raise TypeError(f"reduce_precision: operand must be floating point, got {x.dtype}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


reduce_precision_p = Primitive("reduce_precision", _reduce_precision_impl, _reduce_precision_abstract,
                               family="other")
# linear for derivatives: the tangent and the cotangent are rounded the same way (JAX's rule)
deflinear(reduce_precision_p, lambda ct, x, exponent_bits, mantissa_bits: (
    reduce_precision_p.bind(ct, exponent_bits=exponent_bits, mantissa_bits=mantissa_bits),))
defvectorized(reduce_precision_p)


# ---------------------------------------------------------------------------------------
# stop_gradient


def _same_aval(x):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


stop_gradient_p = Primitive("stop_gradient", lambda xp, x: x, _same_aval, family="other")
defzero(stop_gradient_p)
defvectorized(stop_gradient_p)


def _stop_leaf(x):
    if isinstance(x, (int, float, complex, bool)):
        return x
    return stop_gradient_p.bind(x)


def stop_gradient(x: Any) -> Any:
    """The identity whose derivative is zero (applied to every leaf of a pytree).

    Example::

        >>> import fgrad
        >>> fgrad.grad(lambda x: x * stop_gradient(x))(3.0)
        Array(3., dtype=float64, weak_type=True)
    """
    return tree_map(_stop_leaf, x)


__all__ = [
    "shift_left", "shift_right_logical", "shift_right_arithmetic", "rotate_left", "bitcast_convert_type",
    "stop_gradient", "shift_left_p", "shift_right_logical_p", "shift_right_arithmetic_p",
    "bitcast_convert_type_p", "bitcast_resize_p", "reduce_precision_p", "stop_gradient_p",
]
