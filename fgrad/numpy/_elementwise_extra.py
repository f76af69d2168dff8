"""NumPy's remaining elementwise and bit functions, as composites: `fabs`, `float_power`,
`frexp`, `ldexp`, `modf`, `spacing`, `gcd`, `lcm`, `isneginf`, `isposinf`, `iscomplex`,
`isreal`, `bitwise_count`, `left_shift`, `right_shift`, `sort_complex`, `packbits`,
`unpackbits`.

`fabs`, `float_power`, `ldexp` (in ``x1``) and `modf` are differentiable; the others
return integers, booleans or piecewise-constant values (zero derivative).

>>> import fgrad.numpy as fnp
>>> fnp.frexp(fnp.asarray([8.0, 0.75]))
(Array([0.5 , 0.75], dtype=float64), Array([4, 0], dtype=int32))
"""

from __future__ import annotations

from ..typing import Array, ArrayLike, Axis

import numpy as np

from ..core.array import get_aval
from ..core.inexact import to_complex_dtype, to_inexact_dtype
from ..core.narrow_floats import bfloat16 as _BF16
from ..core.narrow_floats import dtype_kind
from ..ops.elementwise import (convert_element_type, operands_join_is_weak, promote_args_inexact,
                             with_weak_type)
from ..ops.bits import bitcast_convert_type, shift_left
from ..ops.control_flow import while_loop
from ._dtypes import result_type
import fgrad.numpy._building_blocks as fnp

__all__ = [
    "fabs",
    "float_power",
    "frexp",
    "ldexp",
    "modf",
    "spacing",
    "gcd",
    "lcm",
    "isneginf",
    "isposinf",
    "iscomplex",
    "isreal",
    "bitwise_count",
    "left_shift",
    "right_shift",
    "sort_complex",
    "packbits",
    "unpackbits",
]

left_shift = fnp.bitwise_left_shift
right_shift = fnp.bitwise_right_shift


def _real_float(x, name: str, error: type = TypeError):
    """``x`` in a real inexact dtype; complex input raises ``error`` (JAX's type for ``name``)."""
    x = fnp.asarray(x)
    dt = get_aval(x).dtype
    kind = dtype_kind(dt)
    if kind == "c":
        raise error(f"fgrad.numpy.{name}: complex input ({dt}) is not supported (as in JAX); "
                    f"take the real part or the absolute value first")
    return x if kind == "f" else fnp.astype(x, to_inexact_dtype(dt))  # JAX's (core.inexact)


def fabs(x: ArrayLike) -> Array:
    """``numpy.fabs``: the absolute value as a float (complex input is a TypeError).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fabs(fnp.asarray([-2, 3]))
        Array([2., 3.], dtype=float64)
    """
    return fnp.abs(_real_float(x, "fabs"))


def float_power(x: ArrayLike, y: ArrayLike) -> Array:
    """``numpy.float_power``: ``x ** y`` computed in a float type (JAX's: the operands'
    inexact dtype, `fgrad.core.inexact`; NumPy's is always float64).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.float_power(fnp.asarray([2, 3]), -1)
        Array([0.5       , 0.33333333], dtype=float64)
    """
    weak = operands_join_is_weak(x, y)  # JAX: ``pow`` of its promote_args_inexact's operands
    return with_weak_type(fnp.power(*promote_args_inexact(fnp.asarray(x), fnp.asarray(y))), weak)


# float dtype -> (integer dtype of its width, mantissa bits, exponent bias)
_LAYOUT = {np.dtype(np.float64): (np.int64, 52, 1023), np.dtype(np.float32): (np.int32, 23, 127),
           np.dtype(np.float16): (np.int16, 10, 15), np.dtype(_BF16): (np.int16, 7, 127)}


def _pow2_factors(e, dt):
    """Three powers of two whose product is ``2.0 ** e`` for an integer array ``e``, each
    built exactly from its bits (a GPU's ``exp2`` may be an ulp off even at integers, which
    made frexp(2.0**1023) give 0.9999999999999999 on cupy).  ``e`` is clipped to
    ``+-(2 * bias + mantissa + 1)``, beyond which ``x * 2.0 ** e`` is 0 or inf for every
    finite nonzero ``x`` of dtype ``dt``; each factor then stays a normal number."""
    itype, mant, bias = _LAYOUT[np.dtype(dt)]
    lim = 2 * bias + mant + 1
    e = fnp.clip(fnp.astype(e, np.int64), -lim, lim)
    third = fnp.floor_divide(e, 3)
    pieces = (third, third, fnp.subtract(e, fnp.multiply(third, 2)))
    return [bitcast_convert_type(shift_left(fnp.astype(fnp.add(p, bias), itype), mant), dt)
            for p in pieces]


def _times_pow2(x, e, dt):
    """``x * 2.0 ** e``, exact wherever the result is a normal number."""
    for factor in _pow2_factors(e, dt):
        x = fnp.multiply(x, factor)
    return x


def ldexp(x1: ArrayLike, x2: ArrayLike) -> Array:
    """``numpy.ldexp``: ``x1 * 2 ** x2`` (``x2`` integer), exact where representable.
    Differentiable in ``x1``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.ldexp(fnp.asarray([0.75, 3.0]), fnp.asarray([2, -1]))
        Array([3. , 1.5], dtype=float64)
    """
    x1, x2 = _real_float(x1, "ldexp", ValueError), fnp.asarray(x2)
    if get_aval(x2).dtype.kind not in "iub":
        # JAX raises ValueError here (NumPy a TypeError)
        raise ValueError(f"fgrad.numpy.ldexp: the exponent must be an integer array, got "
                         f"{get_aval(x2).dtype}")
    return _times_pow2(x1, x2, get_aval(x1).dtype)


def frexp(x: ArrayLike) -> tuple[Array, Array]:
    """``numpy.frexp``: mantissa ``m`` (``0.5 <= |m| < 1``) and integer exponent ``e`` with
    ``x = m * 2 ** e``; ``(x, 0)`` for 0, inf and NaN.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.frexp(fnp.asarray(-10.0))
        (Array(-0.625, dtype=float64), Array(4, dtype=int32))
    """
    x = _real_float(x, "frexp")
    dt = get_aval(x).dtype
    finite_nonzero = fnp.logical_and(fnp.isfinite(x), fnp.not_equal(x, 0))
    ax = fnp.where(finite_nonzero, fnp.abs(x), 1.0)
    e = fnp.astype(fnp.floor(fnp.log2(ax)), np.int64) + 1
    for _ in range(2):  # log2 may round across a power of two: correct by one step
        m = _times_pow2(ax, fnp.negative(e), dt)
        e = fnp.where(fnp.greater_equal(m, 1.0), e + 1, fnp.where(fnp.less(m, 0.5), e - 1, e))
    m = fnp.copysign(_times_pow2(ax, fnp.negative(e), dt), x)
    mantissa = fnp.where(finite_nonzero, m, x)
    exponent = fnp.where(finite_nonzero, e, 0)
    return mantissa, fnp.astype(exponent, np.int32)


def modf(x: ArrayLike) -> tuple[Array, Array]:
    """``numpy.modf``: fractional and integral parts, both with the sign of ``x``
    (``(±0, ±inf)`` for infinities).  Differentiable (the fractional part has slope 1).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.modf(fnp.asarray([2.5, -3.25]))
        (Array([ 0.5 , -0.25], dtype=float64), Array([ 2., -3.], dtype=float64))
    """
    x = _real_float(x, "modf")
    whole = fnp.trunc(x)
    frac = fnp.where(fnp.isinf(x), 0.0, fnp.subtract(x, whole))
    return fnp.copysign(frac, x), whole


def spacing(x: ArrayLike) -> Array:
    """``numpy.spacing``: the distance from ``x`` to the next representable value away from
    zero (negative for negative ``x``; NaN for inf and NaN).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.spacing(fnp.asarray([1.0, -1.0])) * 2.0 ** 52
        Array([ 1., -1.], dtype=float64)
    """
    x = _real_float(x, "spacing", ValueError)
    away = fnp.where(fnp.less(x, 0), -np.inf, np.inf)  # spacing(-0.0) > 0, as NumPy
    out = fnp.subtract(fnp.nextafter(x, fnp.astype(away, get_aval(x).dtype)), x)
    return fnp.where(fnp.isinf(x), np.nan, out)


def _int_pair(x1, x2, name):
    """``x1`` and ``x2`` in their joint integer dtype (JAX's: a weak Python int takes the
    array's type); ``ValueError`` for anything else (JAX's type)."""
    dt = result_type(x1, x2)
    x1, x2 = fnp.asarray(x1), fnp.asarray(x2)
    for v in (x1, x2):
        if get_aval(v).dtype.kind not in "iub" or dt.kind not in "iu":  # two bools: JAX refuses
            raise ValueError(f"fgrad.numpy.{name}: integer arguments are required, got "
                             f"{get_aval(x1).dtype} and {get_aval(x2).dtype}")
    return fnp.broadcast_arrays(fnp.astype(x1, dt), fnp.astype(x2, dt))


def gcd(x1: ArrayLike, x2: ArrayLike) -> Array:
    """``numpy.gcd``: the greatest common divisor of ``|x1|`` and ``|x2|`` (Euclid's
    algorithm in a `while_loop`, so it runs under `jit`).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.gcd(fnp.asarray([12, -20, 0]), fnp.asarray([18, 15, 0]))
        Array([6, 5, 0], dtype=int64)
    """
    weak = get_aval(x1).weak_type and get_aval(x2).weak_type  # JAX: gcd(12, 18) is weak
    a, b = _int_pair(x1, x2, "gcd")
    a, b = fnp.abs(a), fnp.abs(b)

    def cond(state):
        return fnp.any(fnp.not_equal(state[1], 0))

    def body(state):
        u, v = state
        nonzero = fnp.not_equal(v, 0)
        safe = fnp.where(nonzero, v, 1)
        return fnp.where(nonzero, v, u), fnp.where(nonzero, fnp.remainder(u, safe), 0)

    out = while_loop(cond, body, (a, b))[0]
    return convert_element_type(out, get_aval(out).dtype, weak_type=True) if weak else out


def lcm(x1: ArrayLike, x2: ArrayLike) -> Array:
    """``numpy.lcm``: the least common multiple of ``|x1|`` and ``|x2|`` (0 if either is 0).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.lcm(fnp.asarray([4, 0]), fnp.asarray([6, 5]))
        Array([12,  0], dtype=int64)
    """
    weak = get_aval(x1).weak_type and get_aval(x2).weak_type  # JAX: lcm(12, 18) is weak
    a, b = _int_pair(x1, x2, "lcm")
    g = gcd(a, b)
    zero = fnp.equal(g, 0)
    out = fnp.where(zero, 0, fnp.abs(fnp.multiply(fnp.floor_divide(a, fnp.where(zero, 1, g)), b)))
    return convert_element_type(out, get_aval(out).dtype, weak_type=True) if weak else out


def isposinf(x: ArrayLike) -> Array:
    """``numpy.isposinf``: ``x == +inf``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.isposinf(fnp.asarray([fnp.inf, -fnp.inf, 1.0]))
        Array([ True, False, False], dtype=bool)
    """
    x = fnp.asarray(x)
    if get_aval(x).dtype.kind == "c":
        raise TypeError("fgrad.numpy.isposinf: this operation is not supported for complex values")
    return (
        fnp.logical_and(fnp.isinf(x), fnp.logical_not(fnp.signbit(x)))
        if get_aval(x).dtype.kind == "f"
        else fnp.zeros(get_aval(x).shape, bool)
    )


def isneginf(x: ArrayLike) -> Array:
    """``numpy.isneginf``: ``x == -inf``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.isneginf(fnp.asarray([fnp.inf, -fnp.inf, 1.0]))
        Array([False,  True, False], dtype=bool)
    """
    x = fnp.asarray(x)
    if get_aval(x).dtype.kind == "c":
        raise TypeError("fgrad.numpy.isneginf: this operation is not supported for complex values")
    return (
        fnp.logical_and(fnp.isinf(x), fnp.signbit(x))
        if get_aval(x).dtype.kind == "f"
        else fnp.zeros(get_aval(x).shape, bool)
    )


def iscomplex(x: ArrayLike) -> Array:
    """``numpy.iscomplex``: elementwise, whether the imaginary part is nonzero.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.iscomplex(fnp.asarray([1 + 1j, 2 + 0j]))
        Array([ True, False], dtype=bool)
    """
    # JAX's imag(x) != 0 for every dtype: weak for a weak x
    return fnp.not_equal(fnp.imag(fnp.asarray(x)), 0)


def isreal(x: ArrayLike) -> Array:
    """``numpy.isreal``: elementwise, whether the imaginary part is zero.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.isreal(fnp.asarray([1 + 1j, 2 + 0j]))
        Array([False,  True], dtype=bool)
    """
    return fnp.equal(fnp.imag(fnp.asarray(x)), 0)  # JAX's: weak for a weak x


_M1, _M2, _M4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F


def bitwise_count(x: ArrayLike) -> Array:
    """``numpy.bitwise_count``: the number of 1 bits in ``|x|`` (uint8).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.bitwise_count(fnp.asarray([0, 7, -8, 255]))
        Array([0, 3, 1, 8], dtype=uint8)
    """
    x = fnp.asarray(x)
    dt = get_aval(x).dtype
    if dt.kind not in "iub":
        raise TypeError(f"fgrad.numpy.bitwise_count: integer input is required, got {dt}")
    if dt.kind == "i":
        x = fnp.abs(fnp.astype(x, np.int64))
    v = fnp.astype(x, np.uint64)
    u = np.uint64
    v = fnp.subtract(v, fnp.bitwise_and(fnp.bitwise_right_shift(v, u(1)), u(_M1)))
    v = fnp.add(fnp.bitwise_and(v, u(_M2)), fnp.bitwise_and(fnp.bitwise_right_shift(v, u(2)), u(_M2)))
    v = fnp.bitwise_and(fnp.add(v, fnp.bitwise_right_shift(v, u(4))), u(_M4))
    total = fnp.zeros(get_aval(v).shape, np.uint64)
    for shift in range(0, 64, 8):
        total = fnp.add(total, fnp.bitwise_and(fnp.bitwise_right_shift(v, u(shift)), u(0xFF)))
    return fnp.astype(total, np.uint8)


def sort_complex(a: ArrayLike) -> Array:
    """``numpy.sort_complex``: sorted by real part, then imaginary part; the result is
    complex (`fgrad.core.inexact.to_complex_dtype`: complex64 for float32 and narrower
    input, as JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.sort_complex(fnp.asarray([1 + 2j, 1 - 1j, 0 + 5j]))
        Array([0.+5.j, 1.-1.j, 1.+2.j], dtype=complex128)
    """
    a = fnp.sort(fnp.asarray(a))
    return fnp.astype(a, to_complex_dtype(get_aval(a).dtype))


def _bit_axis(a, axis, name):
    a = fnp.asarray(a)
    if axis is None:
        return fnp.ravel(a), 0
    from_axis = int(axis)
    nd = get_aval(a).ndim
    if not -nd <= from_axis < nd:
        raise ValueError(f"fgrad.numpy.{name}: axis {axis} is out of bounds for array of dimension {nd}")
    return a, from_axis % nd


def _bit_weights(bitorder: str, name: str):
    if bitorder not in ("big", "little"):
        raise ValueError(f"fgrad.numpy.{name}: bitorder must be either 'big' or 'little', got {bitorder!r}")
    w = np.array([128, 64, 32, 16, 8, 4, 2, 1], np.uint8)
    return w if bitorder == "big" else w[::-1].copy()


def packbits(a: ArrayLike, axis: Axis = None, bitorder: str = "big") -> Array:
    """``numpy.packbits``: the truth values of ``a`` along ``axis`` (flattened when None)
    packed eight to a uint8 (zero-padded at the end).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.packbits(fnp.asarray([1, 0, 1, 1, 0, 0, 0, 0, 1]))
        Array([176, 128], dtype=uint8)
    """
    a, axis = _bit_axis(a, axis, "packbits")
    if get_aval(a).dtype.kind not in "iub":
        raise TypeError(f"fgrad.numpy.packbits: expected an input array of integer or boolean data type, "
                        f"got {get_aval(a).dtype}")
    weights = _bit_weights(bitorder, "packbits")
    bits = fnp.moveaxis(fnp.astype(fnp.not_equal(a, 0), np.uint8), axis, -1)
    n = get_aval(bits).shape[-1]
    pad = (-n) % 8
    if pad:
        bits = fnp.concatenate([bits, fnp.zeros(get_aval(bits).shape[:-1] + (pad,), np.uint8)], axis=-1)
    groups = fnp.reshape(bits, get_aval(bits).shape[:-1] + ((n + pad) // 8, 8))
    packed = fnp.astype(fnp.sum(fnp.multiply(groups, weights), axis=-1, dtype=np.uint64), np.uint8)
    return fnp.moveaxis(packed, -1, axis)


def unpackbits(a: ArrayLike, axis: Axis = None, count=None, bitorder: str = "big") -> Array:
    """``numpy.unpackbits``: the bits of the uint8 array ``a`` along ``axis`` (flattened when
    None); ``count`` keeps that many (negative: drops from the end; more pads zeros).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.unpackbits(fnp.asarray([176], dtype=fnp.uint8))
        Array([1, 0, 1, 1, 0, 0, 0, 0], dtype=uint8)
    """
    a, axis = _bit_axis(a, axis, "unpackbits")
    if get_aval(a).dtype != np.uint8:
        raise TypeError(f"fgrad.numpy.unpackbits: expected an input array of unsigned byte data type, got "
                        f"{get_aval(a).dtype}")
    weights = _bit_weights(bitorder, "unpackbits")
    moved = fnp.moveaxis(a, axis, -1)
    bits = fnp.astype(fnp.not_equal(fnp.bitwise_and(moved[..., None], weights), 0), np.uint8)
    bits = fnp.reshape(bits, get_aval(moved).shape[:-1] + (get_aval(moved).shape[-1] * 8,))
    if count is not None:
        total = get_aval(bits).shape[-1]
        keep = int(count) if count >= 0 else max(total + int(count), 0)
        if keep <= total:
            bits = bits[..., :keep]
        else:
            bits = fnp.concatenate([bits, fnp.zeros(get_aval(bits).shape[:-1] + (keep - total,), np.uint8)],
                                   axis=-1)
    return fnp.moveaxis(bits, -1, axis)
