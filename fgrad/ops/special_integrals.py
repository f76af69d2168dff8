"""Special integrals and hypergeometric functions as elementwise primitives: the exponential
integrals ``exp1``, ``expi``, ``expn``, Dawson's integral ``dawsn``, the Fresnel integrals
``fresnel_s``/``fresnel_c``, the sine/cosine integrals ``sin_integral``/``cos_integral``,
Spence's function ``spence``, Owen's T ``owens_t``, the confluent and Gauss hypergeometric
functions ``hyp1f1``/``hyp2f1`` and the Faddeeva function ``wofz`` (complex).

Forward values come from ``scipy.special`` (``cupyx.scipy.special`` on the GPU where it has
the function; otherwise SciPy computes them on the host and the result is copied back to the
device), as for the gamma family (`fgrad.ops.special_functions`).  The
derivative rules are fgrad's own, written with these primitives, so every order works:

* ``exp1' = -e^-x / x``, ``expi' = e^x / x``, ``d expn(n, x)/dx = -expn(n - 1, x)``
  (``-e^-x (1 + x) / x^2`` for ``n = 0``);
* ``dawsn' = 1 - 2 x dawsn``; ``S' = sin(pi x^2 / 2)``, ``C' = cos(pi x^2 / 2)``;
  ``Si' = sin x / x`` (1 at 0), ``Ci' = cos x / x``;
* ``spence'(x) = log x / (1 - x)`` (``-1`` at 1);
* ``d T(h, a)/dh = -phi(h) erf(a h / sqrt 2) / 2``, ``d T/da = e^(-h^2 (1 + a^2) / 2) /
  (2 pi (1 + a^2))``;
* ``d 1F1(a; b; x)/dx = a/b 1F1(a + 1; b + 1; x)``, ``d 2F1(a, b; c; x)/dx = ab/c
  2F1(a + 1, b + 1; c + 1; x)`` (the parameters are not differentiable, as in JAX);
* ``w'(z) = -2 z w(z) + 2i / sqrt(pi)`` (holomorphic).

The public faces are in `fgrad.scipy.special` (this module holds only the primitives).

Example::

    >>> import numpy as np
    >>> round(float(exp1_p.bind(np.float64(1.0))), 8)
    0.21938393
"""

from __future__ import annotations

import math

import numpy as np

from ..core.narrow_floats import dtype_kind
from ..core.rules import defjvp, defjvp2
from .elementwise import add, cos, div, eq, exp, log, mul, neg, select, sin, sub
from .special import erf
from ._scipy import scipy_module
from .special_functions import _as_float, _common, _not_differentiable, _prim, _special_module

__all__ = [
    "cos_integral_p", "dawsn_p", "exp1_p", "expi_p", "expn_p", "fresnel_c_p", "fresnel_s_p", "hyp1f1_p",
    "hyp2f1_p", "owens_t_p", "sin_integral_p", "spence_p", "wofz_p",
]


def _library_fn(xp, fn_name: str, op: str):
    """``scipy.special.<fn_name>`` (``cupyx.scipy.special`` for cupy buffers).  Where the GPU
    library lacks the function (cupy 14 has no dawsn, fresnel, spence, owens_t, hyp1f1, hyp2f1
    or wofz), the values are computed on the host by SciPy and copied back to the operand's
    device: correct, at the cost of a device-host round trip (docs/gpu.md)."""
    module = _special_module(xp, op)
    fn = getattr(module, fn_name, None)
    if fn is None or fn_name in getattr(xp, "special_missing", ()):
        return _on_host(xp, fn_name, op)
    return fn


def _on_host(xp, fn_name: str, op: str):
    """``scipy.special.<fn_name>`` applied to host copies of device operands, its results
    copied back to the device."""
    special = scipy_module("special")
    if special is None:
        raise ModuleNotFoundError(
            f"fgrad's {op} computes its values with scipy.special on the host (the GPU library "
            "lacks it), and scipy is not installed; install scipy (pip install scipy)")
    fn = getattr(special, fn_name)

    def host_fn(*args):
        out = fn(*[xp.asnumpy(a) if isinstance(a, xp.ndarray) else a for a in args])
        return tuple(xp.asarray(o) for o in out) if isinstance(out, tuple) else xp.asarray(out)

    return host_fn


def _impl(fn_name: str, op: str, pick: int | None = None):
    """An impl over ``fn_name`` with its operands in one real floating dtype; ``pick``
    selects one output of a function returning a tuple (fresnel, sici)."""

    def impl(xp, *args):
        if len(args) == 1:
            args = [_as_float(xp, args[0], op)]
            dt = args[0].dtype
        else:
            *args, dt = _common(xp, *args, name=op)
        fn = _library_fn(xp, fn_name, op)
        with np.errstate(all="ignore"):
            out = fn(*args)
        if pick is not None:
            out = out[pick]
        return out.astype(dt, copy=False)

    return impl


def _wofz_impl(xp, z):
    z = z if isinstance(z, xp.ndarray) else xp.asarray(z)
    if dtype_kind(z.dtype) not in "biufc":
        raise TypeError(f"wofz does not accept dtype {z.dtype}; it takes real or complex numbers")
    dt = np.complex64 if z.dtype in (np.float32, np.complex64, np.float16) else np.complex128
    with np.errstate(all="ignore"):
        out = _library_fn(xp, "wofz", "wofz")(z.astype(dt, copy=False))
    return out.astype(dt, copy=False)


exp1_p = _prim("exp1", _impl("exp1", "exp1"))
expi_p = _prim("expi", _impl("expi", "expi"))
expn_p = _prim("expn", _impl("expn", "expn"))
dawsn_p = _prim("dawsn", _impl("dawsn", "dawsn"))
fresnel_s_p = _prim("fresnel_s", _impl("fresnel", "fresnel_s", pick=0))
fresnel_c_p = _prim("fresnel_c", _impl("fresnel", "fresnel_c", pick=1))
sin_integral_p = _prim("sin_integral", _impl("sici", "sin_integral", pick=0))
cos_integral_p = _prim("cos_integral", _impl("sici", "cos_integral", pick=1))
spence_p = _prim("spence", _impl("spence", "spence"))
owens_t_p = _prim("owens_t", _impl("owens_t", "owens_t"))
_hyp1f1_library = _impl("hyp1f1", "hyp1f1")


def _hyp1f1_impl(xp, a, b, x):
    """SciPy's ``hyp1f1``, and its limit at ``x = -inf`` where SciPy gives NaN:
    ``1F1(a; b; x) ~ Gamma(b) / Gamma(b - a) (-x)^-a`` there, so 0 for ``a > 0`` (and where
    ``b - a`` is a pole of Gamma), 1 for ``a = 0`` and an infinity signed as
    ``Gamma(b) / Gamma(b - a)`` for ``a < 0``. ``b`` at a pole of Gamma (0, -1, ...) keeps
    SciPy's value."""
    out = _hyp1f1_library(xp, a, b, x)
    a, b, x = (v.astype(out.dtype, copy=False) if isinstance(v, xp.ndarray) else xp.asarray(v, out.dtype)
               for v in (a, b, x))
    at_minus_inf = (x == -np.inf) & xp.isfinite(a) & xp.isfinite(b) & ~((b <= 0) & (b == xp.floor(b)))
    if not bool(at_minus_inf.any()):
        return out
    with np.errstate(all="ignore"):
        ratio_sign = (_library_fn(xp, "gammasgn", "hyp1f1")(b)
                      * xp.sign(_library_fn(xp, "rgamma", "hyp1f1")(b - a)))
        limit = xp.where(a > 0, 0.0, xp.where(a == 0, 1.0, ratio_sign * np.inf)).astype(out.dtype)
    return xp.where(at_minus_inf, limit, out)


hyp1f1_p = _prim("hyp1f1", _hyp1f1_impl)
hyp2f1_p = _prim("hyp2f1", _impl("hyp2f1", "hyp2f1"))
wofz_p = _prim("wofz", _wofz_impl)


# -- derivative rules (fgrad ops only: every order works) ----------------------------------

_PI = math.pi
_INV_2PI = 1.0 / (2.0 * math.pi)
_INV_SQRT_2 = 1.0 / math.sqrt(2.0)
_INV_2SQRT_2PI = 1.0 / (2.0 * math.sqrt(2.0 * math.pi))
_TWO_I_OVER_SQRT_PI = 2j / math.sqrt(math.pi)


def _at(x, value):
    """A constant like ``x`` (its dtype, shape and placement)."""
    return add(mul(x, 0.0), value)


def _safe(x, at=0.0):
    """``x`` with the point ``at`` replaced by a harmless value (for a branch not taken)."""
    return select(eq(x, at), _at(x, at + 1.0), x)


def _expn_deriv(n, x):
    xs = _safe(x)
    order_zero = neg(div(mul(exp(neg(x)), add(x, 1.0)), mul(xs, xs)))
    return select(eq(n, 0.0), order_zero, neg(expn_p.bind(select(eq(n, 0.0), _at(n, 1.0), sub(n, 1.0)), x)))


def _si_deriv(x):
    return select(eq(x, 0.0), _at(x, 1.0), div(sin(x), _safe(x)))


def _spence_deriv(x):
    return select(eq(x, 1.0), _at(x, -1.0), div(log(x), sub(1.0, _safe(x, 1.0))))


def _owens_t_dh(h, a):
    return neg(mul(mul(exp(mul(mul(h, h), -0.5)), _INV_2SQRT_2PI), erf(mul(mul(a, h), _INV_SQRT_2))))


def _owens_t_da(h, a):
    s = add(mul(a, a), 1.0)
    return div(mul(exp(mul(mul(mul(h, h), s), -0.5)), _INV_2PI), s)


_HYP = "the parameters are not differentiable (as in JAX): hold them constant"

defjvp2(exp1_p, lambda t, y, x: mul(t, neg(div(exp(neg(x)), x))))
defjvp2(expi_p, lambda t, y, x: mul(t, div(exp(x), x)))
defjvp(expn_p, _not_differentiable("expn", "the order n", "n is an integer: hold it constant"),
       lambda t, n, x: mul(t, _expn_deriv(n, x)))
defjvp2(dawsn_p, lambda t, y, x: mul(t, sub(1.0, mul(mul(2.0, x), y))))
defjvp2(fresnel_s_p, lambda t, y, x: mul(t, sin(mul(mul(x, x), _PI / 2))))
defjvp2(fresnel_c_p, lambda t, y, x: mul(t, cos(mul(mul(x, x), _PI / 2))))
defjvp2(sin_integral_p, lambda t, y, x: mul(t, _si_deriv(x)))
defjvp2(cos_integral_p, lambda t, y, x: mul(t, div(cos(x), x)))
defjvp2(spence_p, lambda t, y, x: mul(t, _spence_deriv(x)))
defjvp(owens_t_p, lambda t, h, a: mul(t, _owens_t_dh(h, a)), lambda t, h, a: mul(t, _owens_t_da(h, a)))
defjvp(hyp1f1_p, _not_differentiable("hyp1f1", "a", _HYP), _not_differentiable("hyp1f1", "b", _HYP),
       lambda t, a, b, x: mul(t, mul(div(a, b), hyp1f1_p.bind(add(a, 1.0), add(b, 1.0), x))))
defjvp(hyp2f1_p, _not_differentiable("hyp2f1", "a", _HYP), _not_differentiable("hyp2f1", "b", _HYP),
       _not_differentiable("hyp2f1", "c", _HYP),
       lambda t, a, b, c, x: mul(t, mul(div(mul(a, b), c),
                                        hyp2f1_p.bind(add(a, 1.0), add(b, 1.0), add(c, 1.0), x))))
defjvp2(wofz_p, lambda t, y, z: mul(t, add(mul(mul(-2.0, z), y), _TWO_I_OVER_SQRT_PI)))
