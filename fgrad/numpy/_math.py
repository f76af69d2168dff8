"""Elementwise math with NumPy names: the composites.  The functions that wrap one elementwise
primitive are generated from the op specs in `._elementwise` and re-exported here."""

from __future__ import annotations

from ..backends import Device
from ..typing import Array, ArrayLike, DTypeLike

import math

import numpy as np
from ..core.narrow_floats import finfo as _narrow_finfo
from ..core.narrow_floats import dtype_kind

from ..core.array import ArrayImpl, check_array_dtype, get_aval
from ..core.x64_mode import canonical_dtype, requested_dtype
from ..core.placement import device_put
from ..ops import elementwise as ew
from ..ops import shape as shape_ops
from ..ops.elementwise import div_p, mul_p, round_p, select_p
from ..transforms.custom import custom_jvp as _custom_jvp
from ..transforms.jit import jit_when_staged
from ._creation import asarray
from . import _key_arrays as _keys
from ._indexing import nonzero
from ._reductions import all as all_
from ._elementwise import *  # noqa: F403  (the generated wrappers, also as attributes of this module)
from ._elementwise import (
    abs, add, arctan2, divide, equal, floor_divide, greater, imag, isfinite, isinf, isnan, less, less_equal,
    logical_and, logical_or, logical_xor, maximum, minimum, mod, multiply, negative, real, signbit,
    sin, cos, subtract,
)


def positive(x: ArrayLike) -> Array:
    return x if isinstance(x, Array) else asarray(x)  # a Python or NumPy input becomes an Array, as in JAX


def square(x: ArrayLike) -> Array:
    x, = ew.promote_args_numeric(x)  # bool: int32, as JAX
    return ew.square_p.bind(x)


def reciprocal(x: ArrayLike) -> Array:
    x, = ew.promote_args_inexact(x)  # integers: JAX's inexact dtype (core.inexact)
    return ew.integer_pow_p.bind(x, y=-1)  # JAX: integer_pow[y=-1]


def divmod(x: ArrayLike, y: ArrayLike) -> tuple[Array, Array]:
    return floor_divide(x, y), mod(x, y)


def rint(x: ArrayLike) -> Array:
    if dtype_kind(get_aval(x).dtype) in "biu":  # JAX: integers become the default float
        x = ew.convert_element_type(x, canonical_dtype(np.float64))
    return round_p.bind(x, decimals=0)


def round(x: ArrayLike, decimals: int = 0) -> Array:
    """Round half to even, like NumPy (gradient zero).  Integers with ``decimals < 0`` raise
    NotImplementedError, as in JAX.

    >>> import fgrad.numpy as fnp
    >>> fnp.round(fnp.asarray([0.5, 1.5, 2.675]), 2)
    Array([0.5 , 1.5 , 2.68], dtype=float64)
    """
    decimals = int(decimals)
    if dtype_kind(get_aval(x).dtype) == "b":
        raise ValueError("fgrad.numpy.round: data type bool not inexact (as jax.numpy.round); cast it "
                         "first, e.g. x.astype(int)")
    if decimals < 0 and dtype_kind(get_aval(x).dtype) in "iu":
        raise NotImplementedError("integer np.round not implemented for decimals < 0 (fgrad.numpy.round, "
                                  f"as jax.numpy.round; got decimals={decimals} for {get_aval(x).dtype})")
    av = get_aval(x)
    if decimals and dtype_kind(av.dtype) == "c":  # JAX rounds the real and imaginary parts so
        return ew.complex_(round(ew.real_p.bind(x), decimals), round(ew.imag_p.bind(x), decimals))
    if decimals and av.dtype in ew.BY_RECIPROCAL_DTYPES:
        # JAX's: x * 10**decimals rounded half to even, then divided by the constant factor --
        # which XLA computes as a multiplication by its reciprocal
        f = 10.0 ** decimals
        return div_p.bind(round_p.bind(mul_p.bind(x, f), decimals=0), f, by_reciprocal=True)
    return round_p.bind(x, decimals=decimals)


around = round


def where(condition: ArrayLike, x: ArrayLike | None = None, y: ArrayLike | None = None, /, *,
          size: int | None = None, fill_value: ArrayLike | None = None) -> Array | tuple[Array, ...]:
    """``x`` where ``condition`` else ``y`` (elementwise, broadcasting).  The one-argument
    form is ``nonzero(condition, size=size, fill_value=fill_value)``: a concrete condition,
    or a static ``size`` (under jit).

    >>> import fgrad.numpy as fnp
    >>> fnp.where(fnp.asarray([0, 3, 0, 5]) > 0, size=3, fill_value=-1)
    (Array([ 1,  3, -1], dtype=int64),)
    """
    if x is None and y is None:
        return nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError("fgrad.numpy.where: give both x and y, or neither")
    if size is not None or fill_value is not None:
        raise ValueError("size and fill_value arguments cannot be used in three-term where function.")
    like = _keys.key_operands([x, y], "where")
    if like is not None:  # typed keys: choose whole keys (the condition gains the key axis)
        cond = shape_ops.expand_dims(condition, -1) if get_aval(condition).ndim else condition
        return _keys.rewrap(like, ew.select(cond, _keys.data(x), _keys.data(y)))
    return _where(condition, x, y)


def _where_body(condition, x, y):
    x, y = ew.lattice_pair(x, y)  # JAX: where(True, int32, float32) is float32
    return select_p.bind(condition, y, x)


_where_body.__name__ = _where_body.__qualname__ = "_where"
_where = jit_when_staged(_where_body)  # JAX's jnp.where: jit[name=_where]{select_n(c, y, x)}


def clip(a: ArrayLike, min: ArrayLike | None = None, max: ArrayLike | None = None, *,
         a_min: ArrayLike | None = None, a_max: ArrayLike | None = None) -> Array:
    """Clip to ``[min, max]`` (gradient 1 inside, 0 outside, 1/2 at a tie, like JAX);
    NumPy's ``a_min``/``a_max`` keywords are accepted too.

    >>> import fgrad.numpy as fnp
    >>> fnp.clip(fnp.asarray([-2.0, 0.5, 3.0]), -1.0, 1.0)
    Array([-1. ,  0.5,  1. ], dtype=float64)
    """
    lo, hi = a_min if min is None else min, a_max if max is None else max
    for v in (a, lo, hi):
        if v is not None and (isinstance(v, complex) or dtype_kind(_dtype_or_none(v)) == "c"):
            raise ValueError("Clip received a complex value either through the input or the min/max "
                             "keywords. Complex values have no ordering and cannot be clipped. Please "
                             "convert to a real value or array by taking the real or imaginary components "
                             "via fgrad.numpy.real/imag respectively.")
    return _clip(a, lo, hi)


def _dtype_or_none(v):
    """``v``'s dtype, or bool's for a value that is no array (the clip reports it)."""
    try:
        return get_aval(v).dtype
    except TypeError:
        return np.dtype(bool)


def _clip_body(a, lo, hi):
    if lo is not None:
        a = maximum(lo, a)
    if hi is not None:
        a = minimum(hi, a)
    return a


_clip_body.__name__ = _clip_body.__qualname__ = "clip"
_clip = jit_when_staged(_clip_body)  # JAX's jnp.clip: jit[name=clip]{max(lo, x), min(hi, .)}


def astype(x: ArrayLike, dtype: DTypeLike, /, *, copy: bool = True,
           device: Device | str | None = None) -> Array:
    """``x`` as ``dtype`` (differentiable between float/complex dtypes).  ``copy=False``
    returns ``x`` itself when the dtype already matches; ``device`` moves the result.

    >>> import fgrad.numpy as fnp
    >>> fnp.astype(fnp.asarray([1.7, -2.2]), fnp.int32)
    Array([ 1, -2], dtype=int32)
    """
    check_array_dtype(dtype, "fgrad.numpy.astype")
    dt = requested_dtype(dtype, "astype")
    if get_aval(x).dtype == dt and not get_aval(x).weak_type:
        out = x.copy() if copy and type(x) is ArrayImpl else x
    else:
        out = ew.convert_element_type(x, dt)
    return out if device is None else device_put(out, device)


def _dtype_of(x) -> np.dtype:
    found = getattr(x, "dtype", None)
    return np.dtype(found) if found is not None else np.result_type(x)


def iscomplexobj(x: ArrayLike) -> bool:
    """Whether ``x`` has a complex dtype (or is a complex Python number), whatever its values.

    >>> import fgrad.numpy as fnp
    >>> iscomplexobj(fnp.asarray([1.0 + 0j])), iscomplexobj(1.0)
    (True, False)
    """
    return _dtype_of(x).kind == "c"


def isrealobj(x: ArrayLike) -> bool:
    """``not iscomplexobj(x)``.

    >>> isrealobj(2)
    True
    """
    return not iscomplexobj(x)


def copy(a: ArrayLike, order: str | None = None) -> Array:
    """A copy of ``a`` as an fgrad Array (its own buffer; ``order`` is accepted as in JAX).

    >>> import fgrad.numpy as fnp
    >>> fnp.copy(fnp.array([1.0, 2.0]))
    Array([1., 2.], dtype=float64)
    """
    out = asarray(a)
    return out.copy() if out is a else out


def angle(z: ArrayLike, deg: bool = False) -> Array:
    """Argument of ``z``, ``arctan2(imag(z), real(z))`` (radians, or degrees with ``deg``), as
    ``jnp.angle``: real input gives 0 or pi; integers, bools and 0-d real floats are taken
    in the default float type (float64 with 64-bit types on), as JAX takes them.

    >>> import fgrad.numpy as fnp
    >>> fnp.angle(fnp.asarray([1j, -1.0 + 0j]))
    Array([1.57079633, 3.14159265], dtype=float64)
    """
    z = asarray(z)
    re, im = real(z), imag(z)
    zv = get_aval(z)
    # JAX: integers, bools and 0-d real floats compute in the default float type
    if dtype_kind(get_aval(re).dtype) not in "fc" or (dtype_kind(zv.dtype) == "f" and zv.ndim == 0):
        re, im = astype(re, canonical_dtype(np.float64)), astype(im, canonical_dtype(np.float64))
    out = arctan2(im, re)
    return rad2deg(out) if deg else out


def deg2rad(x: ArrayLike) -> Array:
    x, = ew.promote_args_inexact(x)
    return multiply(x, np.pi / 180.0)


def rad2deg(x: ArrayLike) -> Array:
    x, = ew.promote_args_inexact(x)
    return multiply(x, 180.0 / np.pi)


radians, degrees = deg2rad, rad2deg


def sinc(x: ArrayLike) -> Array:
    """``sin(pi x) / (pi x)``, 1 at 0.  Its derivatives of every order are accurate near 0:
    at 0 they are the Maclaurin coefficients (JAX's rule: the second is ``-pi**2 / 3``, not
    the zero that the ``where`` would give), and for ``0 < |pi x| < 1`` they come from the
    Maclaurin series rather than from differentiating ``sin(y) / y``, whose terms cancel
    (JAX's second derivative at ``x = 1e-9`` is 201 instead of -3.29).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> d2 = fgrad.grad(fgrad.grad(fnp.sinc))
        >>> print(f"{d2(0.0):.4f} {d2(1e-9):.4f}")
        -3.2899 -3.2899
    """
    x, = ew.promote_args_inexact(x)
    return _sinc_derivative(0, multiply(np.pi, x))


_SINC_SERIES_RADIUS = 1.0  # |y| below: the series (its terms beyond n = k/2 + 12 are < 1e-26)


def _sinc_derivative_impl(k: int, y):
    """The k-th derivative of ``sin(y) / y`` (1 at 0 for k = 0).  k = 0: the quotient (a
    ``where`` at 0).  k >= 1: the Maclaurin series ``sum_n (-1)**n y**(2n) / (2n+1)!``
    differentiated term by term for ``|y| < 1``, else Leibniz's rule on ``sin(y) * (1/y)``
    (its terms ``j! / y**(j+1)`` stay moderate there); its derivative is the (k+1)-th."""
    if k == 0:
        zero = equal(y, 0)
        safe = where(zero, 1.0, y)
        return where(zero, add(multiply(y, 0), 1.0), divide(sin(safe), safe))
    small = less(abs(y), _SINC_SERIES_RADIUS)
    ys = where(small, y, 0.0)
    series = multiply(ys, 0)
    for n in range((k + 1) // 2, k // 2 + 13):
        c = (-1) ** n * math.factorial(2 * n) / (math.factorial(2 * n - k) * math.factorial(2 * n + 1))
        series = add(series, multiply(c, ys ** (2 * n - k) if 2 * n > k else add(multiply(ys, 0), 1.0)))
    yd = where(small, 1.0, y)
    s, c = sin(yd), cos(yd)
    direct = multiply(yd, 0)
    for j in range(k + 1):
        dj = (s, c, negative(s), negative(c))[j % 4]  # the j-th derivative of sin
        coef = math.comb(k, j) * (-1) ** (k - j) * math.factorial(k - j)
        direct = add(direct, multiply(coef, divide(dj, yd ** (k - j + 1))))
    return where(small, series, direct)


_sinc_derivative = _custom_jvp(_sinc_derivative_impl, nondiff_argnums=(0,))


@_sinc_derivative.defjvp
def _sinc_derivative_jvp(k, primals, tangents):
    (y,), (t,) = primals, tangents
    return _sinc_derivative(k, y), multiply(_sinc_derivative(k + 1, y), t)


def heaviside(x: ArrayLike, h0: ArrayLike) -> Array:
    """0 for ``x < 0``, ``h0`` at 0, 1 above, NaN at NaN, in the joint inexact dtype of ``x`` and
    ``h0`` (a weak Python ``h0`` keeps a float16 ``x`` float16; weakly typed where ``x`` and the
    operands' join are, as JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.heaviside(fnp.asarray([-1.0, 0.0, 2.0]), 0.5)
        Array([0. , 0.5, 1. ], dtype=float64)
    """
    # JAX's result is weak where its promote_args_inexact's is and ``x`` itself is weak
    # (heaviside(0.5, int32_array) is weak, heaviside(int32_array, 0.5) strong)
    weak = ew.operands_join_is_weak(x, h0) and get_aval(x).weak_type
    x, h0 = ew.promote_args_inexact(x, h0)
    x, h0 = where(True, x, h0), where(True, h0, x)  # both in the joint dtype
    if get_aval(x).dtype.kind == "c":
        raise TypeError("fgrad.numpy.heaviside: complex arguments are not supported (JAX)")
    # NaN stays NaN (as in JAX and NumPy): only x > 0 gives 1
    out = where(less(x, 0), 0.0, where(equal(x, 0), h0, where(greater(x, 0), 1.0, x)))
    return ew.with_weak_type(out, weak)


def copysign(x: ArrayLike, y: ArrayLike) -> Array:
    """``|x|`` with the sign of ``y`` (sign bit, so -0.0 counts as negative); integers in
    JAX's inexact dtype."""
    x, y = ew.promote_args_inexact(x, y)
    if dtype_kind(get_aval(x).dtype) == "c" or dtype_kind(get_aval(y).dtype) == "c":
        raise TypeError(f"fgrad.numpy.copysign does not support complex-valued inputs (got "
                        f"{get_aval(x).dtype}, {get_aval(y).dtype}); take the real part first")
    x = where(True, x, y)  # x in the operands' joint dtype (copysign(int8, float32) is float32)
    return where(logical_xor(signbit(x), signbit(y)), negative(x), x)


def isclose(a: ArrayLike, b: ArrayLike, rtol: ArrayLike = 1e-5, atol: ArrayLike = 1e-8,
            equal_nan: bool = False) -> Array:
    """NumPy's ``|a - b| <= atol + rtol * |b|``, with infinities equal only to themselves
    (bools and integers compared in JAX's inexact dtype)."""
    a, b = ew.promote_args_inexact(a, b)
    finite = logical_and(isfinite(a), isfinite(b))
    close = less_equal(abs(subtract(a, b)), add(atol, multiply(rtol, abs(b))))
    out = where(finite, close, equal(a, b))
    if equal_nan:
        out = logical_or(out, logical_and(isnan(a), isnan(b)))
    return ew.with_weak_type(out, False)  # JAX's is strongly typed, even for two Python numbers


def allclose(a: ArrayLike, b: ArrayLike, rtol: ArrayLike = 1e-5, atol: ArrayLike = 1e-8,
             equal_nan: bool = False) -> Array:
    return all_(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a: ArrayLike, b: ArrayLike, equal_nan: bool = False) -> Array:
    """Whether ``a`` and ``b`` have one shape and equal elements (NaNs equal with
    ``equal_nan``); a boolean array ``False`` for different shapes, as JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.array_equal(fnp.asarray([1.0, fnp.nan]), fnp.asarray([1.0, fnp.nan]), equal_nan=True)
        Array(True, dtype=bool)
    """
    if get_aval(a).shape != get_aval(b).shape:
        return asarray(False)
    eq = equal(a, b)
    if equal_nan:
        eq = logical_or(eq, logical_and(isnan(a), isnan(b)))
    return all_(eq)


def nan_to_num(x: ArrayLike, nan: ArrayLike = 0.0, posinf: ArrayLike | None = None,
               neginf: ArrayLike | None = None) -> Array:
    x = asarray(x)  # an Array also for integer/bool input (a Python int stays weak: JAX)
    dt = get_aval(x).dtype
    if dtype_kind(dt) not in "fc":
        return x
    info = _narrow_finfo(dt)
    x = where(isnan(x), nan, x)
    x = where(logical_and(isinf(x), greater(x, 0)), info.max if posinf is None else posinf, x)
    return where(logical_and(isinf(x), less(x, 0)), info.min if neginf is None else neginf, x)


def _public_names(namespace, extra=()):
    return sorted({n for n, v in namespace.items() if not n.startswith("_") and callable(v)
                   and getattr(v, "__module__", None) == __name__} | set(extra))


__all__ = _public_names(globals(), ())
