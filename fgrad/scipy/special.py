"""`fgrad.scipy.special`: SciPy's special functions (the ``jax.scipy.special`` surface),
differentiable to any order.

The elementwise primitives live in `fgrad.ops.special` (erf family) and
`fgrad.ops.special_functions` (gamma family, zeta, Bessel, normal quantile); everything else
here is a composite of fgrad ops.  ``xlogy``/``xlog1py`` have JAX's custom JVP (finite
derivative in ``x`` at ``x = 0``).

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.scipy.special import gammaln
    >>> fgrad.grad(fgrad.grad(gammaln))(2.0)  # polygamma(1, 2) = pi^2/6 - 1
    Array(0.64493407, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ..typing import Array, ArrayLike, Axis, Complex, Float, Inexact, Shaped

import inspect
from functools import partial as _partial
import math
import operator
from fractions import Fraction

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

from .. import numpy as fnp
from ..ops import special as _erf_family
from ..ops import special_functions as _sf
from ..ops import special_integrals as _si
from ..ops import special_more as _sm
from ..ops.bits import stop_gradient as _stop_gradient
from ..ops.elementwise import logistic as _logistic
from ..ops.elementwise import promote_args_inexact as _promote_args_inexact
from ..core.inexact import to_complex_dtype as _to_complex_dtype
from ..core.x64_mode import canonical_dtype as _canonical_dtype
from ..transforms.custom import custom_jvp as _custom_jvp
from ._dtypes import inexact_dtype as _inexact_dtype, _is_weak
from ..ops.elementwise import convert_element_type as _convert_element_type
from ..nn._activations import logsumexp as _nn_logsumexp
from ..numpy._windows import bessel_i0 as _bessel_i0, bessel_i1 as _bessel_i1


def _float(x, weak: bool = True, name: str = ""):
    """``x`` as an inexact array: bools and integers in JAX's inexact dtype (`core.inexact`).
    ``weak=False`` for the functions whose JAX results are strong all the same (a Python float
    gives a strong float64); a ``name`` refuses bools and integers (Python ints too) with
    JAX's ``TypeError``, for the functions JAX defines on floating input only."""
    if name:
        dtype = np.dtype(type(x)) if isinstance(x, (bool, int)) else fnp.asarray(x).dtype
        if _dtype_kind(dtype) in "biu":
            raise TypeError(f"{name}: x.dtype={_canonical_dtype(dtype)} is not supported (floating input "
                            f"only, as in JAX); cast it first, e.g. x.astype(float)")
    out = _promote_args_inexact(fnp.asarray(x))[0]
    return out if weak else _convert_element_type(out, out.dtype, weak_type=False)


def _floats(*xs, weak: bool = True):
    """The arguments in one inexact dtype, weakly typed when every one is (Python scalars,
    weak arrays), as JAX's ``promote_args_inexact``; ``weak=False`` for the functions whose
    JAX results are strong all the same (their implementations cast to a concrete dtype)."""
    dt = _inexact_dtype(*xs, kinds="fc")
    keep = weak and all(_is_weak(x) for x in xs)
    return [_convert_element_type(fnp.asarray(x), dt, weak_type=keep) for x in xs]


def _elementwise(name: str, primitive, summary: str, example: str, output: str, params=("x",),
                 weak: bool = True, floats_only: bool = False, pass_integers: bool = False):
    """The public function ``name(*params)``: ``primitive`` of its arguments as floating arrays
    (one argument: integers and bools become JAX's inexact dtype; several: one common dtype, Python
    scalars weakly typed), with the docstring ``summary`` and the example ``>>> example``
    printing ``output``.  ``pass_integers``: ``primitive`` also takes `_integer_operands`'s
    answer (its JVP refuses them, as JAX's)."""
    if len(params) == 1:
        refuse = name if floats_only else ""

        def function(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
            return primitive(_float(x, weak, refuse))
    else:
        signature = inspect.Signature(
            [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation="ArrayLike")
             for p in params], return_annotation="Inexact[Array, '...']")

        def function(*args, **kwargs):
            args = signature.bind(*args, **kwargs).args
            extra = (_integer_operands(params, args),) if pass_integers else ()
            return primitive(*_floats(*args, weak=weak), *extra)

        function.__signature__ = signature
        function.__annotations__ = {**{p: "ArrayLike" for p in params}, "return": "Inexact[Array, '...']"}
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"{summary}\n\n    Example::\n\n        >>> {example}\n        {output}\n    "
    return function


# -- the erf family and the primitives, re-exported under SciPy's names ------------------------

erf = _elementwise(
    "erf", _erf_family.erf,
    "The error function.",
    "erf(0.0)", "Array(0., dtype=float64, weak_type=True)")
erfc = _elementwise(
    "erfc", _erf_family.erfc,
    "``1 - erf(x)``.",
    "erfc(0.0)", "Array(1., dtype=float64, weak_type=True)")
erfinv = _elementwise(
    "erfinv", _erf_family.erf_inv,
    "Inverse of `erf`.",
    "erfinv(0.0)", "Array(0., dtype=float64, weak_type=True)")
gammaln = _elementwise(
    "gammaln", _sf.lgamma,
    "``log |Gamma(x)|``.",
    "gammaln(3.0)", "Array(0.69314718, dtype=float64, weak_type=True)")
def _at_poles(n, x, y):
    """``y`` with NaN at the poles ``x = 0, -1, ...`` of an even-order ``polygamma(n, .)``
    (digamma included): there the sign flips across the pole, and JAX says NaN (SciPy's
    digamma says -inf at 0; the odd orders are +inf on both sides and stay so)."""
    pole = (x <= 0) & (x == fnp.floor(x)) & (fnp.fmod(n, 2.0) == 0)
    return fnp.where(pole, fnp.full_like(y, fnp.nan), y)


def _digamma(x):
    return _at_poles(0.0, x, _sf.digamma(x))


def _polygamma(n, x):
    return _at_poles(n, x, _sf.polygamma(n, x))


digamma = _elementwise(
    "digamma", _digamma,
    "The logarithmic derivative of Gamma.",
    "digamma(1.0)", "Array(-0.57721566, dtype=float64, weak_type=True)")


polygamma = _elementwise(
    "polygamma", _polygamma,
    "The ``n``-th derivative of `digamma` (``n`` integer-valued; not differentiable in ``n``).",
    "polygamma(1, 1.0)", "Array(1.64493407, dtype=float64, weak_type=True)", params=("n", "x"))


def gamma(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """The Gamma function; of complex ``z`` ``exp(loggamma(z))`` (as ``jax.scipy.special.gamma``
    computes complex arguments).

    Example::

        >>> gamma(4.0)
        Array(6., dtype=float64)
        >>> gamma(fnp.asarray([1.0 + 1.0j]))
        Array([0.49801567-0.15494983j], dtype=complex128)
    """
    x = _float(x, weak=False)
    if _dtype_kind(x.dtype) == "c":
        return fnp.exp(_sf.loggamma_complex_p.bind(x))
    return _sf.gamma(x)


def gammasgn(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """The sign of Gamma(x), not differentiable: from ``floor(x)``'s parity below 0 (JAX's
    rule: NaN at the poles and for NaN, -1 at -0.0), so no Gamma value is formed (it
    overflows float16 from x = 9).

    Example::

        >>> gammasgn(-0.5)
        Array(-1., dtype=float64)
    """
    x = _float(x, weak=False)
    fl = fnp.floor(x)
    neg = x < 0
    pole = (neg & (x == fl)) | fnp.isnan(x)
    minus = (neg & (fnp.remainder(fl, 2) != 0)) | ((x == 0) & fnp.signbit(x))
    return _stop_gradient(fnp.where(pole, np.nan, fnp.where(minus, -1.0, fnp.ones_like(x))))


def betaln(a: ArrayLike, b: ArrayLike) -> Array:
    """``log |B(a, b)|``.

    Example::

        >>> betaln(1.0, 1.0)
        Array(0., dtype=float64, weak_type=True)
    """
    a, b = _floats(a, b)
    return _sf.lgamma(a) + _sf.lgamma(b) - _sf.lgamma(a + b)


def beta(a: ArrayLike, b: ArrayLike) -> Array:
    """The Beta function ``Gamma(a) Gamma(b) / Gamma(a + b)``.

    Example::

        >>> beta(2.0, 3.0)
        Array(0.08333333, dtype=float64)
    """
    a, b = _floats(a, b, weak=False)
    sign = gammasgn(a) * gammasgn(b) * gammasgn(a + b)
    return sign * fnp.exp(betaln(a, b))


betainc = _elementwise(
    "betainc", _sf.betainc,
    "The regularized incomplete beta function (differentiable in ``x``).",
    "betainc(2.0, 2.0, 0.5)", "Array(0.5, dtype=float64, weak_type=True)", params=("a", "b", "x"))


gammainc = _elementwise(
    "gammainc", _sf.igamma,
    "The regularized lower incomplete gamma function (differentiable in ``x``).",
    "gammainc(1.0, 2.0)", "Array(0.86466472, dtype=float64, weak_type=True)", params=("a", "x"))


gammaincc = _elementwise(
    "gammaincc", _sf.igammac,
    "The regularized upper incomplete gamma function (differentiable in ``x``).",
    "gammaincc(1.0, 2.0)", "Array(0.13533528, dtype=float64, weak_type=True)", params=("a", "x"))


def zeta(x: ArrayLike, q: ArrayLike | None = None) -> Array:
    """The Hurwitz zeta function (Riemann's for ``q = None``); differentiable in ``q``.

    Example::

        >>> zeta(2.0, 1.0)
        Array(1.64493407, dtype=float64, weak_type=True)
    """
    x, q = _floats(x, 1.0 if q is None else q)
    return _sf.zeta(x, q)


i0e = _elementwise(
    "i0e", _sf.bessel_i0e,
    "``exp(-|x|) I0(x)``.",
    "i0e(0.0)", "Array(1., dtype=float64, weak_type=True)")
i1e = _elementwise(
    "i1e", _sf.bessel_i1e,
    "``exp(-|x|) I1(x)``.",
    "i1e(0.0)", "Array(0., dtype=float64, weak_type=True)")


def i0(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """The modified Bessel function of order 0; its derivative is `i1` (so ``i0''(0) = 1/2``:
    differentiating ``exp(|x|) i0e(x)`` gives 1.5 there, JAX's value, from the kinks of the
    two factors).

    Example::

        >>> i0(0.0)
        Array(1., dtype=float64, weak_type=True)
    """
    return _bessel_i0(_float(x))


def i1(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """The modified Bessel function of order 1; its derivative is ``i0(x) - i1(x) / x`` (1/2 at
    0), so ``i1''(0) = 0`` (JAX: 1.0, from the kinks of ``exp(|x|) i1e(x)``).

    Example::

        >>> i1(0.0)
        Array(0., dtype=float64, weak_type=True)
    """
    return _bessel_i1(_float(x))


def erfcx(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """The scaled complementary error function ``exp(x^2) erfc(x)``; of complex ``z`` the
    Faddeeva function ``wofz(i z)`` (as ``jax.scipy.special.erfcx``).

    Example::

        >>> erfcx(0.0)
        Array(1., dtype=float64)
        >>> erfcx(fnp.asarray([1.0j]))
        Array([0.36787944-0.60715771j], dtype=complex128)
    """
    x = _float(x, weak=False)
    if _dtype_kind(x.dtype) == "c":
        return _si.wofz_p.bind(fnp.multiply(x, 1j))
    return _sm.erfcx(x)
j0 = _elementwise(
    "j0", _sm.bessel_j0,
    "The Bessel function of the first kind of order 0.",
    "j0(0.0)", "Array(1., dtype=float64, weak_type=True)")
j1 = _elementwise(
    "j1", _sm.bessel_j1,
    "The Bessel function of the first kind of order 1.",
    "j1(0.0)", "Array(0., dtype=float64, weak_type=True)")


def ndtr(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """The standard normal CDF.

    Example::

        >>> ndtr(0.0)
        Array(0.5, dtype=float64)
    """
    x = _float(x, weak=False, name="ndtr")
    return 0.5 * _erf_family.erfc(x * (-1.0 / math.sqrt(2.0)))


ndtri = _elementwise(
    "ndtri", _sf.ndtri,
    "The standard normal quantile.",
    "ndtri(0.5)", "Array(0., dtype=float64)", weak=False, floats_only=True)
log_ndtr = _elementwise(
    "log_ndtr", _sf.log_ndtr,
    "``log ndtr(x)``, accurate in both tails.",
    "log_ndtr(0.0)", "Array(-0.69314718, dtype=float64)", weak=False, floats_only=True)
expit = _elementwise(
    "expit", _logistic,
    "The logistic sigmoid ``1 / (1 + exp(-x))``.",
    "expit(0.0)", "Array(0.5, dtype=float64, weak_type=True)")


def logit(p: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``log(p / (1 - p))``, the inverse of `expit`.

    Example::

        >>> logit(0.5)
        Array(0., dtype=float64, weak_type=True)
    """
    p = _float(p)
    return fnp.log(p) - fnp.log1p(-p)


def _integer_operands(params, args) -> str:
    """``"y:bool"``: the first bool or integer operand (Python ints too) and its dtype, or ``""``."""
    dtypes = (np.dtype(type(a)) if isinstance(a, (bool, int)) else fnp.asarray(a).dtype for a in args)
    found = [f"{p}:{_canonical_dtype(d).name}" for p, d in zip(params, dtypes) if _dtype_kind(d) in "biu"]
    return found[0] if found else ""


def _refuse_integer_derivative(name: str, integers: str) -> None:
    """JAX's ``TypeError`` when ``xlogy``/``xlog1py`` with a bool or integer operand is
    differentiated (its JVP takes ``log(y)`` of the unconverted operand)."""
    if integers:
        p, dt = integers.split(":")
        raise TypeError(f"fgrad.scipy.special.{name}: cannot differentiate with {p} of dtype {dt} (JAX "
                        f"refuses it: its derivative takes the log of the unconverted operand); cast it "
                        f"first, e.g. {p}.astype(float)")


@_partial(_custom_jvp, nondiff_argnums=(2,))
def _xlogy(x, y, integers=""):
    zero = (x == 0) & ~fnp.isnan(y)  # a NaN y stays NaN (JAX's and SciPy's xlogy)
    safe_y = fnp.where(zero, fnp.ones_like(y), y)
    return fnp.where(zero, fnp.zeros_like(x * y), x * fnp.log(safe_y))


@_xlogy.defjvp
def _xlogy_jvp(integers, primals, tangents):
    _refuse_integer_derivative("xlogy", integers)
    x, y = primals
    tx, ty = tangents
    out = _xlogy(x, y, "")
    t = fnp.zeros_like(out)
    if tx is not None:
        t = t + tx * fnp.log(y)
    if ty is not None:
        t = t + ty * x / y
    return out, t.astype(out.dtype)


@_partial(_custom_jvp, nondiff_argnums=(2,))
def _xlog1py(x, y, integers=""):
    zero = (x == 0) & ~fnp.isnan(y)  # a NaN y stays NaN (JAX's and SciPy's xlog1py)
    safe_y = fnp.where(zero, fnp.zeros_like(y), y)
    return fnp.where(zero, fnp.zeros_like(x * y), x * fnp.log1p(safe_y))


@_xlog1py.defjvp
def _xlog1py_jvp(integers, primals, tangents):
    _refuse_integer_derivative("xlog1py", integers)
    x, y = primals
    tx, ty = tangents
    out = _xlog1py(x, y, "")
    t = fnp.zeros_like(out)
    if tx is not None:
        t = t + tx * fnp.log1p(y)
    if ty is not None:
        t = t + ty * x / (1.0 + y)
    return out, t.astype(out.dtype)


xlogy = _elementwise(
    "xlogy", _xlogy,
    "``x * log(y)``, 0 where ``x == 0`` (even for ``y == 0``); its derivative in ``x`` is ``log(y)`` "
    "everywhere (JAX's custom JVP).",
    "xlogy(0.0, 0.0)", "Array(0., dtype=float64, weak_type=True)", params=("x", "y"), pass_integers=True)


xlog1py = _elementwise(
    "xlog1py", _xlog1py,
    "``x * log1p(y)``, 0 where ``x == 0``.",
    "xlog1py(0.0, -1.0)", "Array(0., dtype=float64, weak_type=True)", params=("x", "y"),
    pass_integers=True)


@_custom_jvp
def _neg_xlogx(x):
    """``-x log x``, 0 at 0 (NaN below 0: callers mask it); its derivative is ``-(log x + 1)``
    everywhere, ``+inf`` at 0 (JAX's ``_xlogx`` rule), not the 0 a ``where`` would give."""
    pos = x > 0
    safe = fnp.where(pos, x, fnp.ones_like(x))
    return fnp.where(pos, -safe * fnp.log(safe), fnp.where(x == 0, fnp.zeros_like(x), fnp.nan))


@_neg_xlogx.defjvp
def _neg_xlogx_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _neg_xlogx(x), t * -(fnp.log(x) + 1.0)


def entr(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``-x log x`` for ``x > 0``, 0 at 0, ``-inf`` below, NaN at NaN; the derivative at 0 is
    ``+inf`` (the one-sided limit, as JAX and PyTorch).

    Example::

        >>> entr(1.0)
        Array(-0., dtype=float64, weak_type=True)
    """
    x = _float(x)
    if _dtype_kind(x.dtype) == "c":
        raise ValueError(f"entr does not support complex-valued inputs (got {x.dtype}), as in JAX; "
                         "take the real part or the absolute value first")
    neg = x < 0  # the rule reads a safe 1 there: no NaN gradient below 0
    return fnp.where(neg, -fnp.inf, _neg_xlogx(fnp.where(neg, fnp.ones_like(x), x)))


def rel_entr(p: ArrayLike, q: ArrayLike) -> Array:
    """``p log(p / q)`` for ``p, q > 0``; 0 for ``p == 0, q >= 0``; NaN if either is NaN (as
    SciPy; JAX gives ``inf``); ``inf`` otherwise.

    Example::

        >>> rel_entr(1.0, 1.0)
        Array(0., dtype=float64, weak_type=True)
    """
    p, q = _floats(p, q)
    both = (p > 0) & (q > 0)
    sp, sq = fnp.where(both, p, fnp.ones_like(p)), fnp.where(both, q, fnp.ones_like(q))
    zero_p = (p == 0) & (q >= 0)
    other = fnp.where(fnp.isnan(p) | fnp.isnan(q), fnp.nan, fnp.inf)
    return fnp.where(both, sp * fnp.log(sp / sq), fnp.where(zero_p, fnp.zeros_like(p * q), other))


def kl_div(p: ArrayLike, q: ArrayLike) -> Array:
    """``p log(p / q) - p + q`` for ``p, q > 0``; ``q`` for ``p == 0, q >= 0``; ``inf`` otherwise
    (NaN for a NaN).  It is ``rel_entr(p, q) - p + q`` (JAX's definition), so its gradient
    at ``p == 0`` is ``(-1, 1)`` as JAX's.

    Example::

        >>> kl_div(1.0, 2.0)
        Array(0.30685282, dtype=float64, weak_type=True)
    """
    p, q = _floats(p, q)
    return rel_entr(p, q) - p + q


def multigammaln(a: ArrayLike, d: int) -> Array:
    """The log of the multivariate gamma function of dimension ``d``.

    Example::

        >>> multigammaln(2.0, 1)
        Array(0., dtype=float64, weak_type=True)
    """
    d = int(d)
    if d < 1:
        raise ValueError(f"multigammaln: d must be a positive integer, got {d}")
    a = _float(a)
    terms = [_sf.lgamma(a - 0.5 * j) for j in range(d)]
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    return total + d * (d - 1) / 4.0 * math.log(math.pi)


def factorial(n: ArrayLike, exact: bool = False) -> Array:
    """``n!`` as ``Gamma(n + 1)`` (0 for negative ``n``).

    Example::

        >>> factorial(4.0)
        Array(24., dtype=float64, weak_type=True)
    """
    if exact:
        raise NotImplementedError("factorial: exact=True is not supported (as jax.scipy.special.factorial)")
    n = _float(n)
    return fnp.where(n < 0, fnp.zeros_like(n), _sf.gamma(fnp.where(n < 0, fnp.zeros_like(n), n) + 1.0))


@_custom_jvp
def _poch(z: Array, m: Array) -> Array:
    """JAX's ``where(m == 0, 1, gamma(z + m) / gamma(z))``; where both arguments are positive
    and that ratio overflows (``gamma`` is infinite from 171.6 in float64, 35.04 in float32),
    the log-gamma difference instead of JAX's NaN/inf."""
    ratio = _sf.gamma(z + m) / _sf.gamma(z)
    overflow = (z > 0) & (z + m > 0) & ~fnp.isfinite(ratio)
    safe_z = fnp.where(overflow, z, fnp.ones_like(z))
    safe_zm = fnp.where(overflow, z + m, fnp.ones_like(z))
    ratio = fnp.where(overflow, fnp.exp(_sf.lgamma(safe_zm) - _sf.lgamma(safe_z)), ratio)
    return fnp.where(m == 0.0, fnp.ones_like(ratio), ratio)


# JAX's rules: d/dz = (digamma(z + m) - digamma(z)) poch, d/dm = digamma(z + m) poch (also at m = 0)
_poch.defjvps(lambda t, ans, z, m: (_sf.digamma(z + m) - _sf.digamma(z)) * ans * t,
              lambda t, ans, z, m: _sf.digamma(z + m) * ans * t)


def poch(z: ArrayLike, m: ArrayLike) -> Array:
    """The rising factorial ``Gamma(z + m) / Gamma(z)``, 1 at ``m == 0`` (as JAX: even for
    ``z`` a pole, infinite or NaN); where both arguments are positive and the Gamma values
    overflow it is the log-gamma difference's exponential (JAX gives NaN or inf there).

    Example::

        >>> poch(2.0, 3.0)
        Array(24., dtype=float64)
    """
    z, m = _floats(z, m, weak=False)
    return _poch(z, m)


def logsumexp(a: ArrayLike, axis: Axis = None, b: ArrayLike | None = None, keepdims: bool = False,
              return_sign: bool = False, where: ArrayLike | None = None) -> Array | tuple[Array, Array]:
    """``log(sum(b * exp(a)))`` over ``axis``, computed stably (``scipy.special.logsumexp``;
    the same function as `fgrad.nn.logsumexp`, on floating inputs).

    With ``b`` the sum may be negative: ``return_sign=True`` returns ``(log|s|, sign(s))``;
    otherwise a negative sum gives NaN.  Entries with ``b == 0`` (or masked out by ``where``)
    contribute nothing, not even to the stabilizing shift: their gradient is zero and tiny
    sums of the others do not underflow.

    Example::

        >>> import fgrad.numpy as fnp
        >>> logsumexp(fnp.asarray([0.0, 0.0]))
        Array(0.69314718, dtype=float64)
    """
    if b is not None:  # a and b promote together (JAX: int32 and int32 give float32)
        a, b = _floats(a, b, weak=False)
        a, b = fnp.broadcast_arrays(a, b)
    else:
        a = _float(a)
    return _nn_logsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=return_sign, where=where)


def softmax(x: Shaped[ArrayLike, "*shape"], axis: Axis = None) -> Inexact[Array, "*shape"]:
    """``exp(x) / sum(exp(x))`` over ``axis`` (all axes by default, as SciPy).

    Example::

        >>> import fgrad.numpy as fnp
        >>> softmax(fnp.asarray([0.0, 0.0]))
        Array([0.5, 0.5], dtype=float64)
    """
    x = _float(x)
    return fnp.exp(x - logsumexp(x, axis=axis, keepdims=True))


def log_softmax(x: Shaped[ArrayLike, "*shape"], axis: Axis = None) -> Inexact[Array, "*shape"]:
    """``x - logsumexp(x)`` over ``axis`` (all axes by default, as SciPy).

    Example::

        >>> import fgrad.numpy as fnp
        >>> log_softmax(fnp.asarray([0.0, 0.0]))
        Array([-0.69314718, -0.69314718], dtype=float64)
    """
    x = _float(x)
    return x - logsumexp(x, axis=axis, keepdims=True)


def loggamma(x: Shaped[ArrayLike, "*shape"]) -> Inexact[Array, "*shape"]:
    """``scipy.special.loggamma``: for real ``x`` ``log Gamma(x)`` where ``x > 0``, NaN for
    ``x <= 0`` (where Gamma is negative or infinite); for complex ``z`` the principal branch
    of ``log Gamma(z)`` (analytic off the negative real axis).

    Example::

        >>> loggamma(fnp.asarray([3.0, -2.5]))
        Array([0.69314718,        nan], dtype=float64)
        >>> loggamma(fnp.asarray([-1.0 + 2.0j]))
        Array([-3.37394492-3.47559395j], dtype=complex128)
    """
    x = _float(x)
    if _dtype_kind(x.dtype) == "c":
        return _sf.loggamma_complex_p.bind(x)
    return fnp.where(x > 0, _sf.lgamma(fnp.where(x > 0, x, 1.0)), np.nan)


def comb(N: ArrayLike, k: ArrayLike, *, exact: bool = False, repetition: bool = False) -> Array:
    """``scipy.special.comb``: the binomial coefficient ``N choose k`` as a float
    (``exp(lgamma(N + 1) - lgamma(k + 1) - lgamma(N - k + 1))``; 0 for ``k > N`` or negative
    arguments), with ``repetition``: ``N + k - 1 choose k``.  Differentiable.

    Example::

        >>> comb(fnp.asarray([5.0, 3.0]), fnp.asarray([2.0, 4.0]))
        Array([10.,  0.], dtype=float64)
    """
    if exact:
        raise NotImplementedError("fgrad.scipy.special.comb: exact=True (Python integers) is not supported "
                                  "(as in JAX)")
    n, k = _floats(N, k)
    if repetition:
        n = n + k - 1.0
    valid = (k <= n) & (n >= 0) & (k >= 0)
    ns, ks = fnp.where(valid, n, 1.0), fnp.where(valid, k, 0.0)
    log_c = _sf.lgamma(ns + 1.0) - _sf.lgamma(ks + 1.0) - _sf.lgamma(ns - ks + 1.0)
    return fnp.where(valid, fnp.exp(log_c), 0.0)


def boxcox(x: ArrayLike, lmbda: ArrayLike) -> Array:
    """``scipy.special.boxcox``: ``(x**lmbda - 1) / lmbda``, ``log(x)`` for ``|lmbda| < 1e-19``
    (computed as ``expm1(lmbda log x) / lmbda``; NaN for ``x < 0``).

    Example::

        >>> boxcox(fnp.asarray([1.0, 2.0]), 0.5)
        Array([0.        , 0.82842712], dtype=float64)
    """
    x, lmbda = _floats(x, lmbda)
    return _boxcox_of_log(fnp.log(x), lmbda)


def boxcox1p(x: ArrayLike, lmbda: ArrayLike) -> Array:
    """``scipy.special.boxcox1p``: `boxcox` of ``1 + x``, accurate for small ``x``.

    Example::

        >>> boxcox1p(fnp.asarray([0.0, 1.0]), 0.5)
        Array([0.        , 0.82842712], dtype=float64)
    """
    x, lmbda = _floats(x, lmbda)
    return _boxcox_of_log(fnp.log1p(x), lmbda)


def _boxcox_of_log(log_x, lmbda):
    zero = fnp.abs(lmbda) < 1e-19  # SciPy's threshold: below it, log x to double precision
    safe = fnp.where(zero, 1.0, lmbda)
    return fnp.where(zero, log_x, fnp.expm1(safe * log_x) / safe)



# -- exponential, trigonometric and Fresnel integrals, hypergeometric functions ----------------

exp1 = _elementwise(
    "exp1", _si.exp1_p.bind,
    "The exponential integral ``E1(x) = int_1^inf e^(-x t) / t dt`` (inf at 0, NaN below).",
    "exp1(fnp.asarray([0.5, 1.0]))", "Array([0.55977359, 0.21938393], dtype=float64)", weak=False)


expi = _elementwise(
    "expi", _si.expi_p.bind,
    "The exponential integral ``Ei(x)`` (``-inf`` at 0, as SciPy).",
    "expi(fnp.asarray([-1.0, 1.0]))", "Array([-0.21938393,  1.89511782], dtype=float64)", weak=False)


expn = _elementwise(
    "expn", _si.expn_p.bind,
    "The generalized exponential integral ``E_n(x) = int_1^inf e^(-x t) / t^n dt`` (``n`` integer-"
    "valued, not differentiable; ``E_n(0) = 1 / (n - 1)`` for ``n > 1``).",
    "expn(2, fnp.asarray([0.0, 1.0]))", "Array([1.        , 0.14849551], dtype=float64)", params=("n", "x"),
    weak=False)


dawsn = _elementwise(
    "dawsn", _si.dawsn_p.bind,
    "Dawson's integral ``e^(-x^2) int_0^x e^(t^2) dt``.",
    "dawsn(fnp.asarray([0.5, 1.0]))", "Array([0.42443638, 0.53807951], dtype=float64)", weak=False)


def fresnel(x: Shaped[ArrayLike, "*shape"]) -> tuple[Inexact[Array, "*shape"], Inexact[Array, "*shape"]]:
    """The Fresnel integrals ``(S(x), C(x))``: ``int_0^x sin(pi t^2 / 2) dt`` and the cosine one.

    Example::

        >>> fresnel(fnp.asarray([1.0]))
        (Array([0.43825915], dtype=float64), Array([0.7798934], dtype=float64))
    """
    x = _float(x, weak=False)
    return _si.fresnel_s_p.bind(x), _si.fresnel_c_p.bind(x)


def sici(x: Shaped[ArrayLike, "*shape"]) -> tuple[Inexact[Array, "*shape"], Inexact[Array, "*shape"]]:
    """The sine and cosine integrals ``(Si(x), Ci(x))`` (``Ci`` is ``-inf`` at 0; for ``x < 0``
    SciPy's real branch ``Ci(|x|)``).

    Example::

        >>> sici(fnp.asarray([1.0]))
        (Array([0.94608307], dtype=float64), Array([0.33740392], dtype=float64))
    """
    x = _float(x, weak=False)
    return _si.sin_integral_p.bind(x), _si.cos_integral_p.bind(x)


spence = _elementwise(
    "spence", _si.spence_p.bind,
    "Spence's function ``int_1^x log t / (1 - t) dt`` (NaN for ``x < 0``).",
    "spence(fnp.asarray([0.0, 1.0]))", "Array([1.64493407, 0.        ], dtype=float64)", weak=False,
    floats_only=True)


def owens_t(h: ArrayLike, a: ArrayLike) -> Inexact[Array, "..."]:
    """Owen's T function, differentiable in ``h`` and ``a``.  Real arguments compute in the
    widest enabled float (float64 with 64-bit types on, float32 off), whatever their own
    dtype, as ``jax.scipy.special.owens_t`` does (its float64 constants promote them).

    Example::

        >>> owens_t(0.5, fnp.asarray([0.5, 1.0]))
        Array([0.0644886 , 0.10667106], dtype=float64)
    """
    h, a = _floats(h, a, weak=False)
    if _dtype_kind(h.dtype) == "f":
        wide = _canonical_dtype(np.float64)
        h, a = h.astype(wide), a.astype(wide)
    return _si.owens_t_p.bind(h, a)


hyp1f1 = _elementwise(
    "hyp1f1", _si.hyp1f1_p.bind,
    "Kummer's confluent hypergeometric function ``1F1(a; b; x)``, differentiable in ``x``.",
    "hyp1f1(1.0, 1.0, fnp.asarray([0.0, 1.0]))",
    "Array([1.        , 2.71828183], dtype=float64)", params=("a", "b", "x"), weak=False)


hyp2f1 = _elementwise(
    "hyp2f1", _si.hyp2f1_p.bind,
    "The Gauss hypergeometric function ``2F1(a, b; c; x)`` (SciPy's values, also for ``x < 0``), "
    "differentiable in ``x``.",
    "hyp2f1(1.0, 1.0, 2.0, fnp.asarray([0.5, -1.0]))",
    "Array([1.38629436, 0.69314718], dtype=float64)", params=("a", "b", "c", "x"), weak=False)


def wofz(z: Shaped[ArrayLike, "*shape"]) -> Complex[Array, "*shape"]:
    """The Faddeeva function ``w(z) = e^(-z^2) erfc(-i z)``; real input becomes complex
    (complex64 for floats of up to 32 bits and bools/integers of up to 32 bits, complex128
    otherwise).  Holomorphic: ``w' = -2 z w + 2i/sqrt(pi)``.

    Example::

        >>> wofz(fnp.asarray([0.0, 1.0 + 1.0j]))
        Array([1.        +0.j        , 0.30474421+0.20821894j], dtype=complex128)
    """
    z = fnp.asarray(z)
    kind = _dtype_kind(z.dtype)
    if kind not in "biufc":
        raise TypeError(f"wofz: expected a real or complex array, got dtype {z.dtype}")
    return _si.wofz_p.bind(z.astype(_to_complex_dtype(z.dtype)))


def bernoulli(n: int) -> Float[Array, " n_plus_1"]:
    """The Bernoulli numbers ``B_0 .. B_n`` (``B_1 = -1/2``), exact to rounding (computed as
    fractions on the host: ``n`` is a static integer).

    Example::

        >>> bernoulli(4)
        Array([ 1.        , -0.5       ,  0.16666667,  0.        , -0.03333333],      dtype=float64)
    """
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"bernoulli: n must be a non-negative integer, got {n}")
    numbers = [Fraction(1)]
    for m in range(1, n + 1):
        numbers.append(-sum(math.comb(m + 1, k) * numbers[k] for k in range(m)) / (m + 1))
    return fnp.asarray([float(b) for b in numbers])


def bessel_jn(z: ArrayLike, *, v: int, n_iter: int = 50) -> Array:
    """The Bessel functions of the first kind ``J_0(z) .. J_v(z)``, stacked on a new leading
    axis (shape ``(v + 1,) + z.shape``), as ``jax.scipy.special.bessel_jn``.

    Miller's backward recurrence ``J_(k-1) = (2k / z) J_k - J_(k+1)`` from order
    ``max(n_iter, v + 1)``, rescaled at every step and normalized by ``J_0 + 2 sum J_2k = 1``:
    accurate for ``|z|`` well below ``n_iter`` (raise ``n_iter`` for larger ``|z|``); at
    ``z = 0`` it gives ``J_0 = 1``, ``J_n = 0`` (as SciPy; JAX gives NaN).  A composite of fgrad
    ops, so differentiable to any order and backend-generic.

    Example::

        >>> bessel_jn(fnp.asarray([1.0, 2.5]), v=2)
        Array([[ 0.76519769, -0.04838378],
               [ 0.44005059,  0.4970941 ],
               [ 0.11490348,  0.44605906]], dtype=float64)
    """
    v = operator.index(v)
    n_iter = operator.index(n_iter)
    if v < 0:
        raise ValueError(f"bessel_jn: the order v must be a non-negative integer, got {v}")
    z = _float(z)
    at_zero = z == 0
    z_safe = fnp.where(at_zero, fnp.ones_like(z), z)
    start = max(n_iter, v + 1)
    upper = fnp.zeros_like(z)  # f_(k+1)
    current = fnp.ones_like(z)  # f_k, k = start
    total = fnp.zeros_like(z) + (2.0 if start % 2 == 0 else 0.0)
    kept = {start: current} if start <= v else {}
    for k in range(start, 0, -1):
        lower = (2.0 * k) / z_safe * current - upper
        scale = fnp.abs(lower) + fnp.abs(current)
        lower, current, total = lower / scale, current / scale, total / scale
        kept = {j: f / scale for j, f in kept.items()}
        total = total + (lower if k == 1 else 2.0 * lower if (k - 1) % 2 == 0 else 0.0)
        if k - 1 <= v:
            kept[k - 1] = lower
        upper, current = current, lower
    orders = [fnp.where(at_zero, fnp.full_like(z, 1.0 if j == 0 else 0.0), kept[j] / total)
              for j in range(v + 1)]
    return fnp.stack(orders)


def sph_harm_y(n: ArrayLike, m: ArrayLike, theta: ArrayLike, phi: ArrayLike, diff_n: int | None = None,
               n_max: int | None = None) -> Array:
    """The spherical harmonics ``Y_n^m(theta, phi)`` (``theta`` polar, ``phi`` azimuthal;
    SciPy's ``sph_harm_y`` with the Condon-Shortley phase), complex, differentiable in
    ``theta`` and ``phi``.

    ``n_max`` (JAX's extra argument) is the largest degree; by default ``max(n)``, which needs
    a concrete ``n`` (pass ``n_max`` under ``jit``); larger degrees are clipped to it, as in
    JAX.  A scalar ``theta`` gives a 1-d result, as in JAX.  The fully normalized associated
    Legendre functions come from their three-term recurrences in fgrad ops.

    Example::

        >>> sph_harm_y(fnp.asarray([2]), fnp.asarray([1]), fnp.asarray([0.3]), fnp.asarray([0.7]))
        Array([-0.1668173-0.14050827j], dtype=complex128)
    """
    if diff_n is not None:
        raise NotImplementedError("sph_harm_y: the 'diff_n' argument is not supported (as in JAX)")
    if np.ndim(theta) == 0:
        theta = fnp.reshape(fnp.asarray(theta), (1,))
    theta, phi = _floats(theta, phi, weak=False)
    n, m = fnp.asarray(n), fnp.asarray(m)
    if _dtype_kind(n.dtype) not in "biu" or _dtype_kind(m.dtype) not in "biu":
        n, m = n.astype(np.int64), m.astype(np.int64)
    if n_max is None:
        try:
            n_max = int(np.max(np.asarray(n)))
        except Exception as err:  # a tracer: the table's size must be static
            raise TypeError("sph_harm_y: n_max must be given (a Python int) when n is traced, e.g. "
                            "under jit or vmap") from err
    n_max = operator.index(n_max)
    n = fnp.minimum(n, n_max)
    m_abs = fnp.abs(m)
    c, s = fnp.cos(theta), fnp.sin(theta)
    legendre = fnp.zeros(np.broadcast_shapes(n.shape, m.shape, c.shape, phi.shape), c.dtype)
    diag = fnp.full_like(c, 0.5 / math.sqrt(math.pi))  # P_0^0
    for order in range(n_max + 1):
        if order > 0:  # P_m^m from P_(m-1)^(m-1)
            diag = -math.sqrt((2 * order + 1) / (2 * order)) * s * diag
        before, here = fnp.zeros_like(c), diag
        for degree in range(order, n_max + 1):
            if degree > order:
                a = math.sqrt((4 * degree * degree - 1) / (degree * degree - order * order))
                a_prev = math.sqrt((4 * (degree - 1) ** 2 - 1) / ((degree - 1) ** 2 - order * order)) \
                    if degree - 1 > order else None
                nxt = a * (c * here - (before / a_prev if a_prev else 0.0))
                before, here = here, nxt
            legendre = fnp.where((n == degree) & (m_abs == order), here, legendre)
    sign = fnp.where((m < 0) & (m_abs % 2 == 1), -1.0, 1.0).astype(legendre.dtype)
    angle = m.astype(legendre.dtype) * phi
    value = sign * legendre
    out = value * fnp.cos(angle) + 1j * (value * fnp.sin(angle))
    return fnp.where(m_abs > n, fnp.zeros_like(out), out)


__all__ = [
    "loggamma", "comb", "boxcox", "boxcox1p",
    "erf", "erfc", "erfinv", "gammaln", "digamma", "polygamma", "gamma", "gammasgn", "betaln", "beta",
    "betainc", "gammainc", "gammaincc", "zeta", "i0", "i0e", "i1", "i1e", "ndtr", "ndtri", "log_ndtr",
    "expit", "logit", "xlogy", "xlog1py", "entr", "rel_entr", "kl_div", "multigammaln", "factorial",
    "poch", "logsumexp", "softmax", "log_softmax", "erfcx", "j0", "j1",
    "bernoulli", "bessel_jn", "dawsn", "exp1", "expi", "expn", "fresnel", "hyp1f1", "hyp2f1", "owens_t",
    "sici", "spence", "sph_harm_y", "wofz",
]
