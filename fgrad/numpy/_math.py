"""Elementwise math with NumPy names, as thin wrappers over the elementwise primitives."""

from __future__ import annotations

import numpy as np

from ..core.array import ArrayImpl, get_aval
from ..core.trace import EVAL_TRACE, state
from ..ops import elementwise as ew
from ..ops._quiet import switch
from ._indexing import nonzero
from ._reductions import all as all_
from ..ops.elementwise import (
    add_p, sub_p, mul_p, div_p, neg_p, pow_p, max_p, min_p, fmax_p, fmin_p, atan2_p, rem_p,
    fmod_p, hypot_p, logaddexp_p, floor_divide_p, eq_p, ne_p, lt_p, le_p, gt_p, ge_p, and_p,
    or_p, xor_p, logical_and_p, logical_or_p, logical_xor_p, select_p,
    exp_p, exp2_p, log_p, log2_p, log10_p, log1p_p, expm1_p, sqrt_p, cbrt_p, sin_p, cos_p,
    tan_p, asin_p, acos_p, atan_p, sinh_p, cosh_p, tanh_p, asinh_p, acosh_p, atanh_p, abs_p,
    sign_p, floor_p, ceil_p, trunc_p, isnan_p, isinf_p, isfinite_p, logical_not_p, invert_p,
    conj_p, real_p, imag_p, round_p,
)


new_array = object.__new__


def _unary(prim, name):
    bind = prim.bind
    ufunc = getattr(prim, "ufunc", None)
    if ufunc is not None and getattr(prim, "may_warn", False):
        # eager fast path: no transform active and a concrete array -> call the ufunc directly,
        # with NumPy's IEEE-value warnings switched off around it (inlined: cheaper than `quiet`)
        set_state, ignore, reset_state = switch()

        def f(x):
            if type(x) is ArrayImpl and state.trace is EVAL_TRACE:
                w = new_array(ArrayImpl)
                token = set_state(ignore)
                try:
                    w._buf = ufunc(x._buf)
                finally:
                    reset_state(token)
                return w
            return bind(x)
    elif ufunc is not None:
        def f(x):
            if type(x) is ArrayImpl and state.trace is EVAL_TRACE:
                w = new_array(ArrayImpl)
                w._buf = ufunc(x._buf)
                return w
            return bind(x)
    else:
        def f(x):
            return bind(x)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Elementwise ``{name}`` (NumPy semantics; differentiable where defined)."
    return f


def _binary(prim, name):
    bind = prim.bind

    def f(x, y):
        return bind(x, y)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Elementwise ``{name}`` with broadcasting (NumPy semantics)."
    return f


exp = _unary(exp_p, "exp")
exp2 = _unary(exp2_p, "exp2")
log = _unary(log_p, "log")
log2 = _unary(log2_p, "log2")
log10 = _unary(log10_p, "log10")
log1p = _unary(log1p_p, "log1p")
expm1 = _unary(expm1_p, "expm1")
sqrt = _unary(sqrt_p, "sqrt")
cbrt = _unary(cbrt_p, "cbrt")
sin = _unary(sin_p, "sin")
cos = _unary(cos_p, "cos")
tan = _unary(tan_p, "tan")
arcsin = _unary(asin_p, "arcsin")
arccos = _unary(acos_p, "arccos")
arctan = _unary(atan_p, "arctan")
sinh = _unary(sinh_p, "sinh")
cosh = _unary(cosh_p, "cosh")
tanh = _unary(tanh_p, "tanh")
arcsinh = _unary(asinh_p, "arcsinh")
arccosh = _unary(acosh_p, "arccosh")
arctanh = _unary(atanh_p, "arctanh")
abs = absolute = _unary(abs_p, "abs")
sign = _unary(sign_p, "sign")
floor = _unary(floor_p, "floor")
ceil = _unary(ceil_p, "ceil")
trunc = fix = _unary(trunc_p, "trunc")
isnan = _unary(isnan_p, "isnan")
isinf = _unary(isinf_p, "isinf")
isfinite = _unary(isfinite_p, "isfinite")
logical_not = _unary(logical_not_p, "logical_not")
invert = bitwise_not = _unary(invert_p, "invert")
negative = _unary(neg_p, "negative")
conjugate = conj = _unary(conj_p, "conjugate")
real = _unary(real_p, "real")
imag = _unary(imag_p, "imag")

add = _binary(add_p, "add")
subtract = _binary(sub_p, "subtract")
multiply = _binary(mul_p, "multiply")
true_divide = divide = _binary(div_p, "divide")
floor_divide = _binary(floor_divide_p, "floor_divide")
power = pow = _binary(pow_p, "power")
maximum = _binary(max_p, "maximum")
minimum = _binary(min_p, "minimum")
fmax = _binary(fmax_p, "fmax")
fmin = _binary(fmin_p, "fmin")
arctan2 = _binary(atan2_p, "arctan2")
mod = remainder = _binary(rem_p, "mod")
fmod = _binary(fmod_p, "fmod")
hypot = _binary(hypot_p, "hypot")
logaddexp = _binary(logaddexp_p, "logaddexp")
equal = _binary(eq_p, "equal")
not_equal = _binary(ne_p, "not_equal")
less = _binary(lt_p, "less")
less_equal = _binary(le_p, "less_equal")
greater = _binary(gt_p, "greater")
greater_equal = _binary(ge_p, "greater_equal")
bitwise_and = _binary(and_p, "bitwise_and")
bitwise_or = _binary(or_p, "bitwise_or")
bitwise_xor = _binary(xor_p, "bitwise_xor")
logical_and = _binary(logical_and_p, "logical_and")
logical_or = _binary(logical_or_p, "logical_or")
logical_xor = _binary(logical_xor_p, "logical_xor")


def positive(x):
    return x


def square(x):
    return mul_p.bind(x, x)


def reciprocal(x):
    return div_p.bind(1.0 if get_aval(x).dtype.kind in "fc" else 1, x)


def divmod(x, y):
    return floor_divide(x, y), mod(x, y)


def rint(x):
    return round_p.bind(x, decimals=0)


def round(x, decimals=0):
    """Round half to even, like NumPy (gradient zero)."""
    return round_p.bind(x, decimals=int(decimals))


around = round


def where(condition, x=None, y=None):
    """``x`` where ``condition`` else ``y`` (elementwise, broadcasting).  The one-argument
    form is ``nonzero(condition)`` and needs a concrete condition."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("fgrad.numpy.where: give both x and y, or neither")
    return select_p.bind(condition, x, y)


def clip(a, a_min=None, a_max=None, *, min=None, max=None):
    """Clip to ``[a_min, a_max]`` (gradient 1 inside, 0 outside, 1/2 at a tie, like JAX)."""
    lo = a_min if min is None else min
    hi = a_max if max is None else max
    if lo is not None:
        a = maximum(a, lo)
    if hi is not None:
        a = minimum(a, hi)
    return a


def astype(x, dtype):
    return ew.convert_element_type(x, np.dtype(dtype))


def angle(z, deg=False):
    """Argument of ``z``, ``arctan2(imag(z), real(z))`` (radians, or degrees with ``deg``), as
    ``jnp.angle``: real input gives 0 or pi, integers are taken as float64.

    >>> import fgrad.numpy as fnp
    >>> fnp.angle(fnp.asarray([1j, -1.0 + 0j]))
    Array([1.57079633, 3.14159265], dtype=float64)
    """
    re, im = real(z), imag(z)
    if get_aval(re).dtype.kind not in "fc":
        re, im = astype(re, np.float64), astype(im, np.float64)
    out = arctan2(im, re)
    return rad2deg(out) if deg else out


def deg2rad(x):
    return multiply(x, np.pi / 180.0)


def rad2deg(x):
    return multiply(x, 180.0 / np.pi)


radians, degrees = deg2rad, rad2deg


_LN2 = float(np.log(2.0))


def logaddexp2(x, y):
    return multiply(logaddexp(multiply(x, _LN2), multiply(y, _LN2)), 1.0 / _LN2)


def sinc(x):
    px = multiply(np.pi, x)
    safe = where(equal(x, 0), 1.0, px)
    return where(equal(x, 0), 1.0, divide(sin(safe), safe))


def heaviside(x, h0):
    return where(less(x, 0), 0.0, where(equal(x, 0), h0, 1.0))


def signbit(x):
    """True where the sign bit is set (including -0.0 and negative NaNs)."""
    return ew.signbit_p.bind(x)


def copysign(x, y):
    """``|x|`` with the sign of ``y`` (sign bit, so -0.0 counts as negative)."""
    return where(logical_xor(signbit(x), signbit(y)), negative(x), x)


def isclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=False):
    """NumPy's ``|a - b| <= atol + rtol * |b|``, with infinities equal only to themselves."""
    finite = logical_and(isfinite(a), isfinite(b))
    close = less_equal(abs(subtract(a, b)), add(atol, multiply(rtol, abs(b))))
    out = where(finite, close, equal(a, b))
    if equal_nan:
        out = logical_or(out, logical_and(isnan(a), isnan(b)))
    return out


def allclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=False):
    return all_(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a, b):
    if get_aval(a).shape != get_aval(b).shape:
        return False
    return all_(equal(a, b))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    dt = get_aval(x).dtype
    if dt.kind not in "fc":
        return x
    info = np.finfo(dt)
    x = where(isnan(x), nan, x)
    x = where(logical_and(isinf(x), greater(x, 0)), info.max if posinf is None else posinf, x)
    return where(logical_and(isinf(x), less(x, 0)), info.min if neginf is None else neginf, x)


def _public_names(namespace, extra=()):
    return sorted({n for n, v in namespace.items() if not n.startswith("_") and callable(v)
                   and getattr(v, "__module__", None) == __name__} | set(extra))


__all__ = _public_names(globals(), ())
