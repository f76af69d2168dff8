"""Special functions beyond the erf family, as elementwise primitives: the gamma family
(``lgamma``, ``digamma``, ``polygamma``, ``gamma``, ``igamma``, ``igammac``), Hurwitz
``zeta``, the scaled Bessel functions ``bessel_i0e``/``bessel_i1e`` and the normal
quantile/log-CDF ``ndtri``/``log_ndtr``.

Forward values come from ``scipy.special`` (``cupyx.scipy.special`` on the GPU), an optional
dependency, as in JAX's CPU fallbacks; the derivative rules are fgrad's own, written with
these primitives, so every order works (``d lgamma = digamma``, ``d digamma =
polygamma(1, .)``, ``d polygamma(n, .) = polygamma(n + 1, .)``, ``d igamma/dx`` the
Gamma density, ``d zeta(s, q)/dq = -s zeta(s + 1, q)``, ``d i0e = i1e - sign i0e``, ...).
Derivatives with respect to ``igamma``'s shape ``a`` (as JAX's ``igamma_grad_a``) and
``betainc``'s ``a`` and ``b`` (JAX raises for these) are primitives of their own,
``igamma_grad_a``/``betainc_grad_a``/``betainc_grad_b`` (`fgrad.ops._shape_derivatives`:
the expansions differentiated term by term, ~1e-11 relative); their own derivatives exist
in ``x`` only.  Derivatives with respect to ``polygamma``'s order and ``zeta``'s exponent
are not implemented and raise (fgrad never returns a silently wrong zero for them).
"""

from __future__ import annotations

from ..typing import Array, ArrayLike, Shaped

import math

import numpy as np
from ..core.narrow_floats import dtype_kind

from . import _shape_derivatives as shape_derivatives
from ..core.rules import defjvp, defjvp2
from ._scipy import special_module_for
from .elementwise import (
    abs_ as _abs, add, div, elementwise, eq, exp, jax_face_bind, log, log1p, lt, mul, neg, select, sign, sub,
)
from .xla_math import XLA_MATH


def _special_module(xp, name: str):
    """scipy.special for NumPy buffers (and the fake device), cupyx.scipy.special for cupy."""
    special = special_module_for(xp)
    if special is None:
        raise ModuleNotFoundError(
            f"fgrad's {name} computes its values with scipy.special, which is not installed; "
            "install scipy (pip install scipy) to use it")
    return special


def _as_float(xp, x, name):
    """``x`` as a floating array (bools and integers become float64); complex raises."""
    x = x if isinstance(x, xp.ndarray) else xp.asarray(x)
    if dtype_kind(x.dtype) not in "biuf":
        raise TypeError(f"{name} does not accept dtype {x.dtype}; it takes real floating point "
                        "(as jax.scipy.special)")
    return x if dtype_kind(x.dtype) == "f" else x.astype(np.float64)


def _common(xp, *args, name):
    """The operands in one floating dtype; Python scalars (weakly typed) take the arrays'."""
    arrays = [_as_float(xp, a, name) for a in args]
    strong = [a.dtype for a, raw in zip(arrays, args) if not isinstance(raw, (bool, int, float))]
    dt = np.result_type(*strong) if strong else np.result_type(*[a.dtype for a in arrays])
    return [a.astype(dt, copy=False) for a in arrays] + [dt]


def _unary_impl(fn_name, name):
    xla_fn = XLA_MATH.get(name)

    def impl(xp, x, *, xla=False):
        x = _as_float(xp, x, name)
        if xla and xla_fn is not None:  # JAX's face: XLA's algorithm (`fgrad.ops.xla_math`)
            with np.errstate(all="ignore"):
                y = xla_fn(xp, x)
            if y is not None:
                return y
        with np.errstate(all="ignore"):  # also the cast: a value beyond float16 is inf (JAX)
            out = getattr(_special_module(xp, name), fn_name)(x)
            return out.astype(x.dtype, copy=False)

    return impl


def _binary_impl(fn, name):
    def impl(xp, a, b):
        a, b, dt = _common(xp, a, b, name=name)
        with np.errstate(all="ignore"):
            out = fn(_special_module(xp, name), xp, a, b)
        return out.astype(dt, copy=False)

    return impl


def _prim(name, impl):
    """An elementwise primitive (NumPy broadcasting, dtype by probing) that jit does not fuse:
    its values come from a library call with no CUDA kernel template (family
    ``special_function``, a barrier for the fusion pass on both backends)."""
    p = elementwise(name, impl)
    p.family = "special_function"
    p.ufunc = None
    p.may_warn = True
    return p


def _polygamma_values(sc, xp, n, x):
    # polygamma(n, x) = (-1)^(n+1) n! zeta(n+1, x) for n >= 1; digamma for n = 0
    fact = sc.gamma(n + 1.0)
    sgn = xp.where(xp.fmod(n, 2.0) == 0, -1.0, 1.0)
    out = sgn * fact * sc.zeta(n + 1.0, x)
    out = xp.where(n == 0, sc.psi(x), out)
    return xp.where((n < 0) | (n != xp.floor(n)), xp.nan, out)


def _betainc_impl(xp, a, b, x):
    a, b, x, dt = _common(xp, a, b, x, name="betainc")
    with np.errstate(all="ignore"):
        out = _special_module(xp, "betainc").betainc(a, b, x)
    return out.astype(dt, copy=False)


def _complex_impl(fn_name, name):
    """A function of complex arguments only (``scipy.special``'s complex branch)."""
    def impl(xp, z):
        z = z if isinstance(z, xp.ndarray) else xp.asarray(z)
        if dtype_kind(z.dtype) != "c":
            raise TypeError(f"{name} takes complex arguments, got {z.dtype}")
        with np.errstate(all="ignore"):
            out = getattr(_special_module(xp, name), fn_name)(z)
        return out.astype(z.dtype, copy=False)

    return impl


lgamma_p = _prim("lgamma", _unary_impl("gammaln", "lgamma"))
_lgamma_bind = jax_face_bind(lgamma_p)  # XLA's algorithm for JAX's face
# the principal branch of log Gamma of complex z (``scipy.special.loggamma``; for real x
# that is ``lgamma`` where Gamma > 0) and its derivative, the complex digamma
loggamma_complex_p = _prim("loggamma_complex", _complex_impl("loggamma", "loggamma_complex"))
digamma_complex_p = _prim("digamma_complex", _complex_impl("psi", "digamma_complex"))
digamma_p = _prim("digamma", _unary_impl("psi", "digamma"))
gamma_p = _prim("gamma", _unary_impl("gamma", "gamma"))
polygamma_p = _prim("polygamma", _binary_impl(_polygamma_values, "polygamma"))
igamma_p = _prim("igamma", _binary_impl(lambda sc, xp, a, x: sc.gammainc(a, x), "igamma"))
igammac_p = _prim("igammac", _binary_impl(lambda sc, xp, a, x: sc.gammaincc(a, x), "igammac"))
zeta_p = _prim("zeta", _binary_impl(lambda sc, xp, s, q: sc.zeta(s, q), "zeta"))
bessel_i0e_p = _prim("bessel_i0e", _unary_impl("i0e", "bessel_i0e"))
bessel_i1e_p = _prim("bessel_i1e", _unary_impl("i1e", "bessel_i1e"))
betainc_p = _prim("betainc", lambda xp, a, b, x: _betainc_impl(xp, a, b, x))


def _shape_grad_impl(which: str):
    def impl(xp, *args):
        *args, dt = _common(xp, *args, name=which)
        sc = _special_module(xp, which)
        with np.errstate(all="ignore"):
            if which == "igamma_grad_a":
                out = shape_derivatives.igamma_grad_a(xp, sc, *args)
            else:
                out = shape_derivatives.betainc_grad_ab(xp, sc, *args)[0 if which == "betainc_grad_a" else 1]
        return out.astype(dt, copy=False)

    return impl


igamma_grad_a_p = _prim("igamma_grad_a", _shape_grad_impl("igamma_grad_a"))
betainc_grad_a_p = _prim("betainc_grad_a", _shape_grad_impl("betainc_grad_a"))
betainc_grad_b_p = _prim("betainc_grad_b", _shape_grad_impl("betainc_grad_b"))
ndtri_p = _prim("ndtri", _unary_impl("ndtri", "ndtri"))
log_ndtr_p = _prim("log_ndtr", _unary_impl("log_ndtr", "log_ndtr"))


def lgamma(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """``log |Gamma(x)|``.

    Example::

        >>> lgamma(4.0)
        Array(1.79175947, dtype=float64, weak_type=True)
    """
    return _lgamma_bind(x)


def digamma(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """``d/dx log Gamma(x)``.

    Example::

        >>> digamma(1.0)
        Array(-0.57721566, dtype=float64, weak_type=True)
    """
    return digamma_p.bind(x)


def gamma(x):
    """``Gamma(x)``.

    Example::

        >>> gamma(5.0)
        Array(24., dtype=float64, weak_type=True)
    """
    return gamma_p.bind(x)


def polygamma(n: ArrayLike, x: ArrayLike) -> Array:
    """The ``n``-th derivative of `digamma` (``n`` a non-negative integer value).

    Example::

        >>> polygamma(1.0, 1.0)  # pi^2 / 6
        Array(1.64493407, dtype=float64, weak_type=True)
    """
    return polygamma_p.bind(n, x)


def igamma(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized lower incomplete gamma function ``P(a, x)``.

    Example::

        >>> igamma(1.0, 1.0)  # 1 - e^-1
        Array(0.63212056, dtype=float64, weak_type=True)
    """
    return igamma_p.bind(a, x)


def igammac(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``.

    Example::

        >>> igammac(1.0, 1.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return igammac_p.bind(a, x)


def zeta(s: ArrayLike, q: ArrayLike) -> Array:
    """The Hurwitz zeta function ``sum_k (k + q)^-s``.

    Example::

        >>> zeta(2.0, 1.0)
        Array(1.64493407, dtype=float64, weak_type=True)
    """
    return zeta_p.bind(s, q)


def bessel_i0e(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """``exp(-|x|) I0(x)``.

    Example::

        >>> bessel_i0e(0.0)
        Array(1., dtype=float64, weak_type=True)
    """
    return bessel_i0e_p.bind(x)


def bessel_i1e(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """``exp(-|x|) I1(x)``.

    Example::

        >>> bessel_i1e(0.0)
        Array(0., dtype=float64, weak_type=True)
    """
    return bessel_i1e_p.bind(x)


def igamma_grad_a(a: ArrayLike, x: ArrayLike) -> Array:
    """``d igamma(a, x) / da`` (JAX's ``lax.igamma_grad_a``): the series or continued
    fraction of ``igamma`` differentiated term by term (`fgrad.ops._shape_derivatives`).

    Example::

        >>> igamma_grad_a(1.0, 1.0)  # d/da P(a, 1) at a = 1
        Array(-0.43172971, dtype=float64, weak_type=True)
    """
    return igamma_grad_a_p.bind(a, x)


def betainc_grad_a(a, b, x):
    """``d betainc(a, b, x) / da``.

    Example::

        >>> betainc_grad_a(1.0, 1.0, 0.5)  # d/da x^a = x^a log x
        Array(-0.34657359, dtype=float64, weak_type=True)
    """
    return betainc_grad_a_p.bind(a, b, x)


def betainc_grad_b(a, b, x):
    """``d betainc(a, b, x) / db``.

    Example::

        >>> betainc_grad_b(1.0, 1.0, 0.5)  # d/db [1 - (1 - x)^b] = -(1 - x)^b log(1 - x)
        Array(0.34657359, dtype=float64, weak_type=True)
    """
    return betainc_grad_b_p.bind(a, b, x)


def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The regularized incomplete beta function ``I_x(a, b)``.

    Example::

        >>> betainc(1.0, 1.0, 0.25)
        Array(0.25, dtype=float64, weak_type=True)
    """
    return betainc_p.bind(a, b, x)


def ndtri(p):
    """The standard normal quantile (inverse of the CDF).

    Example::

        >>> ndtri(0.5)
        Array(0., dtype=float64, weak_type=True)
    """
    return ndtri_p.bind(p)


def log_ndtr(x):
    """``log`` of the standard normal CDF, accurate far into the lower tail.

    Example::

        >>> log_ndtr(0.0)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    return log_ndtr_p.bind(x)


# -- derivative rules (fgrad ops only: every order works) ----------------------------------

_SQRT_2PI = math.sqrt(2.0 * math.pi)


def _not_differentiable(op: str, arg: str, fix: str):
    def rule(t, *primals, **params):
        raise NotImplementedError(
            f"{op}: the derivative with respect to {arg} is not implemented; {fix}")

    return rule


_I1_SERIES_RADIUS = 0.5  # |x| below: the series (its terms beyond k = 10 are < 1e-30 of the first)


def bessel_i1_over_x(x, scaled: bool):
    """``I1(x) / x`` (``scaled``: times ``exp(-|x|)``), 1/2 at 0, accurate near 0 in value and
    in every derivative: ``sum_k x**(2k) / (2 4**k k! (k+1)!)`` for ``|x| < 0.5``, the quotient
    beyond.  Differentiating the quotient ``i1e(x) / x`` instead cancels: its derivative
    ``i1e'(x) / x - i1e(x) / x**2`` lost every digit below ``|x| ~ 1e-8`` (``i1e''(1e-150)``
    was ``1.8e134``, not -1).

    >>> float(bessel_i1_over_x(np.float64(0.0), False))
    0.5
    """
    small = lt(_abs(x), _I1_SERIES_RADIUS)
    xs = select(small, x, mul(x, 0.0))
    x2 = mul(xs, xs)
    term = add(mul(x2, 0.0), 0.5)
    series = term
    for k in range(1, 11):
        term = mul(term, div(x2, float(4 * k * (k + 1))))
        series = add(series, term)
    if scaled:
        series = mul(exp(neg(_abs(xs))), series)
    xl = select(small, add(mul(x, 0.0), 1.0), x)
    i1 = bessel_i1e(xl) if scaled else mul(exp(_abs(xl)), bessel_i1e(xl))
    return select(small, series, div(i1, xl))


def _i1e_deriv(x, y):
    # d/dx [e^-|x| I1(x)] = i0e(x) - sign(x) i1e(x) - i1e(x) / x; the constant 1/2 at x = 0,
    # so the second derivative there is 0, the mean of its one-sided values -1 and 1 (JAX's)
    general = sub(sub(bessel_i0e(x), mul(sign(x), y)), bessel_i1_over_x(x, True))
    return select(eq(x, 0.0), add(mul(x, 0.0), 0.5), general)


defjvp2(lgamma_p, lambda t, y, x, **params: mul(t, digamma(x)))
defjvp2(digamma_p, lambda t, y, x: mul(t, polygamma(1.0, x)))
defjvp2(gamma_p, lambda t, y, x: mul(t, mul(y, digamma(x))))
defjvp2(loggamma_complex_p, lambda t, y, z: mul(t, digamma_complex_p.bind(z)))
defjvp(digamma_complex_p, _not_differentiable(
    "digamma of a complex argument", "its argument (the complex trigamma function)",
    "differentiate the real-argument functions, or loggamma/gamma of complex z once"))
defjvp(polygamma_p,
       _not_differentiable("polygamma", "the order n", "n is an integer: hold it constant"),
       lambda t, n, x: mul(t, polygamma(add(n, 1.0), x)))


def _igamma_dx(a, x):
    """The Gamma(a) density at x: ``x^(a-1) e^-x / Gamma(a)``."""
    return exp(sub(sub(mul(sub(a, 1.0), log(x)), x), lgamma(a)))


def _betainc_dx(a, b, x):
    """The Beta(a, b) density at x."""
    return exp(sub(add(mul(sub(a, 1.0), log(x)), mul(sub(b, 1.0), log1p(neg(x)))),
                   sub(add(lgamma(a), lgamma(b)), lgamma(add(a, b)))))


defjvp(igamma_p, lambda t, a, x: mul(t, igamma_grad_a(a, x)), lambda t, a, x: mul(t, _igamma_dx(a, x)))
defjvp(igammac_p, lambda t, a, x: neg(mul(t, igamma_grad_a(a, x))),
       lambda t, a, x: neg(mul(t, _igamma_dx(a, x))))
_SECOND_SHAPE = "second derivatives in the shape parameters are not implemented (first order only)"
# d/dx of d/da P = d/da of the density = density (log x - digamma(a))
defjvp(igamma_grad_a_p, _not_differentiable("igamma_grad_a", "the shape a", _SECOND_SHAPE),
       lambda t, a, x: mul(t, mul(_igamma_dx(a, x), sub(log(x), digamma(a)))))
defjvp(betainc_grad_a_p, _not_differentiable("betainc_grad_a", "a", _SECOND_SHAPE),
       _not_differentiable("betainc_grad_a", "b", _SECOND_SHAPE),
       lambda t, a, b, x: mul(t, mul(_betainc_dx(a, b, x), add(sub(log(x), digamma(a)), digamma(add(a, b))))))
defjvp(betainc_grad_b_p, _not_differentiable("betainc_grad_b", "a", _SECOND_SHAPE),
       _not_differentiable("betainc_grad_b", "b", _SECOND_SHAPE),
       lambda t, a, b, x: mul(t, mul(_betainc_dx(a, b, x), add(sub(log1p(neg(x)), digamma(b)),
                                                               digamma(add(a, b))))))
# B_2k / (2k)! for the Euler-Maclaurin tail of the exponent derivative below
_ZETA_EM = [1 / 6 / 2, -1 / 30 / 24, 1 / 42 / 720, -1 / 30 / 40320, 5 / 66 / 3628800,
            -691 / 2730 / 479001600, 7 / 6 / 87178291200]
_ZETA_EM_TERMS = 9  # terms summed directly before the tail: a = q + 9


def zeta_ds(s, q):
    """``d zeta(s, q) / ds = -sum_n log(n + q) (n + q)^-s``: 9 terms summed, then the
    Euler-Maclaurin tail at ``a = q + 9`` differentiated term by term in ``s`` -- the
    integral ``a^(1-s) (log a / (s - 1) + 1 / (s - 1)^2)``, ``log a a^-s / 2`` and
    ``c_k a^(1-s-2k) (s)_(2k-1) (log a - sum_j 1 / (s + j))`` with ``c_k = B_2k / (2k)!``
    (seven terms: the remainder is below 1e-15 relative for ``s > 1``, ``q > 0``).  Written
    with differentiable primitives, so it has derivatives of every order; NaN where
    ``zeta(s, q)`` is.

        >>> float(zeta_ds(2.0, 1.0))  # zeta'(2)
        -0.9375482543158...
    """
    total = None
    for n in range(_ZETA_EM_TERMS):
        log_nq = log(add(q, float(n)))
        term = mul(log_nq, exp(neg(mul(s, log_nq))))
        total = term if total is None else add(total, term)
    a = add(q, float(_ZETA_EM_TERMS))
    la = log(a)
    sm1 = sub(s, 1.0)
    a_1ms = exp(mul(neg(sm1), la))  # a^(1-s)
    total = add(total, mul(a_1ms, add(div(la, sm1), div(1.0, mul(sm1, sm1)))))
    a_ms = div(a_1ms, a)  # a^-s
    total = add(total, mul(mul(la, a_ms), 0.5))
    rising, harmonic, power = None, None, a_ms  # (s)_(2k-1), sum_j 1/(s+j), a^(-s-2k+1)
    for k, c in enumerate(_ZETA_EM, start=1):
        for j in ((0,) if k == 1 else (2 * k - 3, 2 * k - 2)):
            sj = add(s, float(j))
            rising = sj if rising is None else mul(rising, sj)
            harmonic = div(1.0, sj) if harmonic is None else add(harmonic, div(1.0, sj))
        power = div(power, a) if k == 1 else div(div(power, a), a)
        total = add(total, mul(mul(c, mul(rising, power)), sub(la, harmonic)))
    # NaN where zeta is (s < 1 ... as the value's own domain): 0 * zeta is 0 or NaN; at the
    # pole s = 1 (q > 0) the derivative is -1 / (s - 1)^2 = -inf from both sides, as JAX's
    out = add(neg(total), mul(zeta(s, q), 0.0))
    return select(eq(s, 1.0), select(lt(0.0, q), div(-1.0, mul(sm1, sm1)), out), out)


defjvp(zeta_p, lambda t, s, q: mul(t, zeta_ds(s, q)),
       lambda t, s, q: mul(t, neg(mul(s, zeta(add(s, 1.0), q)))))
defjvp(betainc_p, lambda t, a, b, x: mul(t, betainc_grad_a(a, b, x)),
       lambda t, a, b, x: mul(t, betainc_grad_b(a, b, x)),
       lambda t, a, b, x: mul(t, _betainc_dx(a, b, x)))
defjvp2(bessel_i0e_p, lambda t, y, x: mul(t, sub(bessel_i1e(x), mul(sign(x), y))))
defjvp2(bessel_i1e_p, lambda t, y, x: mul(t, _i1e_deriv(x, y)))
defjvp2(ndtri_p, lambda t, y, p: mul(t, mul(_SQRT_2PI, exp(mul(mul(y, y), 0.5)))))
defjvp2(log_ndtr_p, lambda t, y, x: mul(t, div(exp(sub(mul(mul(x, x), -0.5), y)), _SQRT_2PI)))

__all__ = [
    "lgamma", "digamma", "gamma", "polygamma", "igamma", "igammac", "zeta", "bessel_i0e", "bessel_i1e",
    "ndtri", "log_ndtr", "betainc", "betainc_p", "lgamma_p", "digamma_p", "gamma_p", "polygamma_p",
    "igamma_p", "igammac_p", "igamma_grad_a", "betainc_grad_a", "betainc_grad_b", "igamma_grad_a_p",
    "betainc_grad_a_p", "betainc_grad_b_p", "loggamma_complex_p", "digamma_complex_p",
    "zeta_p", "bessel_i0e_p", "bessel_i1e_p", "ndtri_p", "log_ndtr_p",
]
