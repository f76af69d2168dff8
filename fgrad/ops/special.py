"""The error function and its relatives as primitives: ``erf``, ``erfc``, ``erf_inv``.

The special functions are computed in float64 (then cast back):

* ``erf``/``erfc``: ``erf`` for ``|x| < 2.5`` from the everywhere-positive series
  ``erf(x) = 2/sqrt(pi) exp(-x^2) sum_n 2^n x^(2n+1) / (1*3*...*(2n+1))`` (no cancellation);
  ``erfc`` for ``|x| >= 1`` from its continued fraction evaluated bottom-up (``1 - erf``
  below that, where ``erfc > 0.15``); both agree with ``math.erf``/``math.erfc`` to a few
  ulp.
* ``erf`` of float32 (and narrower) inputs: one rational function,
  ``erf(x) = x P(x^2) / Q(x^2)`` on ``|x| <= 4`` (``erf(4)`` rounds to 1 in float32), evaluated
  in float64 by Horner's rule; ``P`` and ``Q`` (degree 7, positive coefficients) were fitted to
  the float64 functions above (relative error 8.5e-12, far under float32's half-ulp 3e-8), so
  results are correctly rounded but for about 1 in 10^4 (then 1 ulp off).  On the host,
  arrays of more than a few thousand elements run it block by block on cache-sized float64
  scratch buffers written in place (`_erf_low_precision_blocked`: the same operations, so
  the same values, at a fraction of the memory traffic of whole-array temporaries).
* ``erf`` of float64 NumPy arrays: ``scipy.special.erf`` where SciPy is installed (a compiled
  ufunc within 2 ulp of ``math.erf``, about four times faster than the series above, which
  stays as the fallback and for the devices).  ``erfc`` keeps its own evaluation: SciPy's
  loses hundreds of ulp in the far tail.
* ``erf_inv``: an initial guess (Giles' single-precision polynomial, or the erfc asymptotics
  far out) refined by three Halley steps on ``erf`` (Newton on ``log erfc`` for ``|y| > 0.5``,
  which is better conditioned there).
"""

from __future__ import annotations

import math

import numpy as np
from ..core import native_rng as _native_rng
from ..core.narrow_floats import dtype_kind

from ..backends import backend_of_buffer
from ._scipy import scipy_module, special_module_for
from .elementwise import exp, mul, neg, unary

_SERIES_CUT = 2.5  # erf from the series below this
_ERFC_CUT = 1.0  # erfc from the continued fraction at and above this
_SERIES_TERMS = 80
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_NEWTON_STEPS = 3


def _float_io(xp, x, name):
    """``x`` in float64 and the dtype to return (bools and ints give float64).  Like JAX's
    ``lax.erf``/``erfc``/``erf_inv`` (``standard_unop(_float, ...)`` in jax/_src/lax/special.py),
    complex input raises TypeError: it would otherwise lose its imaginary part."""
    x = x if isinstance(x, xp.ndarray) else xp.asarray(x)
    if dtype_kind(x.dtype) not in "biuf":
        raise TypeError(
            f"{name} does not accept dtype {x.dtype}. Accepted dtypes are real floating point "
            f"(as in jax.lax.{name}); fgrad has no complex {name}: compute it from its series or "
            "continued fraction with fgrad ops, or apply it to the real and imaginary parts only "
            "if that is what you mean"
        )
    out_dt = x.dtype if dtype_kind(x.dtype) == "f" else np.dtype(np.float64)
    return x.astype(np.float64), out_dt


def _erf_series(xp, s):
    """erf(s) for 0 <= s < 2.5: 2/sqrt(pi) e^(-s^2) s (1 + s2/3 (1 + s2/5 (1 + ...))), s2 = 2 s^2
    (all terms positive; nested evaluation keeps the rounding error to a few ulp)."""
    s2 = 2.0 * s * s
    acc = xp.ones_like(s)
    for n in range(_series_terms(float(s2.max()) if s2.size else 0.0), 0, -1):
        acc = 1.0 + acc * s2 / (2 * n + 1)
    return _TWO_OVER_SQRT_PI * xp.exp(-s * s) * s * acc


def _series_terms(s2max: float) -> int:
    """Terms after which s2^n / (3*5*...*(2n+1)) < 1e-17 (relative to the first)."""
    term, n = 1.0, 0
    while term > 1e-17 and n < _SERIES_TERMS:
        n += 1
        term *= s2max / (2 * n + 1)
    return n


def _erfc_cf(xp, z, terms):
    """erfc(z) for finite z >= 1: e^(-z^2)/sqrt(pi) / (z + (1/2)/(z + 1/(z + (3/2)/(z + ...))))."""
    f = z.copy()
    for k in range(terms, 0, -1):
        f = z + (0.5 * k) / f
    zh = xp.trunc(z * 16.0) / 16.0  # zh*zh is exact, so e^(-z^2) loses no accuracy to rounding
    with np.errstate(under="ignore"):
        return xp.exp(-zh * zh) * xp.exp(-(z - zh) * (z + zh)) / (math.sqrt(math.pi) * f)


def _erf_abs(xp, ax):
    """erf(a) for a = |x| >= 0 in float64 (NaN propagates)."""
    if xp is not np:
        return _erf_abs_device(xp, ax)
    out = xp.full(ax.shape, np.nan)
    m = ax < _SERIES_CUT
    if m.any():
        out[m] = _erf_series(xp, ax[m])
    m = (ax >= _SERIES_CUT) & xp.isfinite(ax)
    if m.any():
        out[m] = 1.0 - _erfc_cf(xp, ax[m], 80)
    out[xp.isinf(ax)] = 1.0
    return out


def _erf_abs_device(xp, ax):
    """`_erf_abs` without reading anything on the host (no ``any()`` of masks, no boolean
    indexing: each would synchronise with the device): both branches on every element,
    the series with its full number of terms."""
    small = ax < _SERIES_CUT
    s = xp.where(small, ax, 0.0)
    s2 = 2.0 * s * s
    acc = xp.ones_like(s)
    for n in range(_SERIES_TERMS, 0, -1):
        acc = 1.0 + acc * s2 / (2 * n + 1)
    series = _TWO_OVER_SQRT_PI * xp.exp(-s * s) * s * acc
    z = xp.where(small | ~xp.isfinite(ax), _SERIES_CUT, ax)
    tail = 1.0 - _erfc_cf(xp, z, 80)
    out = xp.where(small, series, xp.where(xp.isinf(ax), 1.0, tail))
    return xp.where(xp.isnan(ax), ax, out)


def _erfc_abs(xp, ax):
    """erfc(a) for a = |x| >= 0 in float64 (NaN propagates)."""
    out = xp.full(ax.shape, np.nan)
    m = ax < _ERFC_CUT
    if m.any():
        out[m] = 1.0 - _erf_series(xp, ax[m])
    for lo, hi, terms in ((_ERFC_CUT, 2.0, 220), (2.0, np.inf, 80)):
        m = (ax >= lo) & (ax < hi)
        if m.any():
            out[m] = _erfc_cf(xp, ax[m], terms)
    out[xp.isinf(ax)] = 0.0
    return out


_F32_CLAMP = 4.0  # erf(x) rounds to 1.0 in float32 for x >= 3.92

# erf(x) / x = P(x^2) / Q(x^2) on |x| <= 4, highest power first: a (7, 7) rational fitted
# (iteratively reweighted least squares on 6000 Chebyshev nodes of x^2/8 - 1, against the
# float64 erf above) with relative error 8.5e-12, far under float32's half-ulp 3e-8.  Every
# coefficient is positive, so Horner's rule on x^2 >= 0 adds no cancellation.
# tests/test_speed_erf_gelu.py checks the error against the float64 erf.
_ERF32_P = (3.0038755526353056e-09, 7.525204398691766e-07, 2.1779057938929322e-05, 0.00051296417399667,
            0.004961357150859348, 0.05811554948006523, 0.20032956957340525, 1.1283791670863939)
_ERF32_Q = (7.327602140411129e-08, 4.51728277144182e-06, 0.00011148895188917091, 0.0017149573294888989,
            0.017717264536145142, 0.12179383221899884, 0.510870791429092, 1.0)


def _horner_into(acc, w, coeffs) -> None:
    """``acc = sum(coeffs[k] w^(n-k))`` by Horner's rule, in place (``acc`` same shape as ``w``)."""
    acc[...] = w
    acc *= coeffs[0]
    acc += coeffs[1]
    for c in coeffs[2:]:
        acc *= w
        acc += c


def _erf_low_precision(xp, x):
    """erf for float32 and narrower ``x`` (float64 arithmetic, one rational, no branches):
    ``copysign(a P(a^2) / Q(a^2), x)`` with ``a = min(|x|, 4)`` (NaN propagates)."""
    a = xp.minimum(xp.abs(x.astype(np.float64)), _F32_CLAMP)
    w = a * a
    num = xp.empty_like(w)
    den = xp.empty_like(w)
    _horner_into(num, w, _ERF32_P)
    _horner_into(den, w, _ERF32_Q)
    num *= a
    num /= den
    return xp.copysign(num, x).astype(x.dtype)


_BLOCK = 16384  # elements per block of `_erf_low_precision_blocked` (its float64 scratch blocks fit in L2)


def _erf_low_precision_blocked(x):
    """`_erf_low_precision` for a NumPy float32/float16 array, block by block: the same
    operations in the same order (so the same values), on float64 scratch blocks that stay in
    the cache and are written in place, instead of float64 temporaries of the whole array per
    Horner step (the evaluation is bound by memory traffic, not arithmetic)."""
    flat = x.reshape(-1)
    out = np.empty(flat.shape, x.dtype)
    n = flat.size
    size = min(n, _BLOCK)
    a_buf, w_buf, num_buf, den_buf = np.empty(size), np.empty(size), np.empty(size), np.empty(size)
    for start in range(0, n, size):
        stop = min(start + size, n)
        xs = flat[start:stop]
        m = stop - start
        a, w, num, den = a_buf[:m], w_buf[:m], num_buf[:m], den_buf[:m]
        np.abs(xs, out=a)  # in float64 (the output's dtype)
        np.minimum(a, _F32_CLAMP, out=a)
        np.multiply(a, a, out=w)
        _horner_into(num, w, _ERF32_P)
        _horner_into(den, w, _ERF32_Q)
        num *= a
        num /= den
        np.copysign(num, xs, out=out[start:stop])  # rounded once, float64 -> x.dtype
    return out.reshape(x.shape)


def _erf_impl(x):
    xp = _xp_of(x)
    dt = getattr(x, "dtype", None)
    if dt is not None and dtype_kind(dt) == "f" and dt.itemsize <= 4:
        if type(x) is np.ndarray and dt in _BLOCKED_DTYPES and x.size > _BLOCK // 4:
            return _erf_low_precision_blocked(x)
        return _erf_low_precision(xp, x if isinstance(x, xp.ndarray) else xp.asarray(x))
    if type(x) is np.ndarray and dt == np.float64:
        fast = _scipy_erf()
        if fast is not None:  # SciPy's erf: within 2 ulp of math.erf (tests/test_speed_erf_gelu.py)
            return fast(x)
    xd, dt = _float_io(xp, x, "erf")
    return xp.copysign(_erf_abs(xp, xp.abs(xd)), xd).astype(dt)  # erf(-0.0) = -0.0; NaN propagates


_BLOCKED_DTYPES = (np.dtype(np.float32), np.dtype(np.float16))
_NATIVE_MIN = 64  # float64 erf_inv of fewer elements calls SciPy directly (no kernel call overhead)


def _scipy_erf():
    """``scipy.special.erf`` (a compiled float64 ufunc, about four times faster than the
    series here), or None without SciPy."""
    mod = scipy_module("special")
    return None if mod is None else mod.erf


def _erfc_impl(x):
    xp = _xp_of(x)
    xd, dt = _float_io(xp, x, "erfc")
    c = _erfc_abs(xp, xp.abs(xd))
    return xp.where(xd < 0, 2.0 - c, c).astype(dt)


def _xp_of(x):
    if type(x) is np.ndarray or np.isscalar(x) or isinstance(x, np.generic):
        return np
    return backend_of_buffer(x).xp


def _refine_body(xp, x, y):
    """Halley steps on erf(x) - y (f'' = -2 x f', so the step is f / (f' + x f))."""
    for _ in range(_NEWTON_STEPS):
        f = _erf_abs(xp, x) - y
        x = x - f / (_TWO_OVER_SQRT_PI * xp.exp(-x * x) + x * f)
    return x


def _refine_tail(xp, x, c):
    """Newton steps on log(erfc(x)) - log(c), nearly linear in the tail."""
    logc = xp.log(c)
    for _ in range(_NEWTON_STEPS):
        e = _erfc_abs(xp, x)
        x = x + (xp.log(e) - logc) * e / (_TWO_OVER_SQRT_PI * xp.exp(-x * x))
    return x


# Giles (2010), "Approximating the erfinv function": single-precision coefficients for
# w = -log(1 - x^2) < 5 (in w - 2.5) and above (in sqrt(w) - 3)
_GILES_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                  -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_GILES_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
               -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _erf_inv_single(xp, y, block=None):
    """erf_inv of 32-bit (and narrower) floats as XLA computes it, so that JAX's float32
    values (and `random.normal`, which is ``sqrt(2) * erf_inv(u)``) come out with the same
    bits: Giles' polynomial evaluated in float32 with fused multiply-adds (each Horner step
    rounded once), on ``w = -log1p(-x*x)``.  XLA's float32 log1p is not correctly rounded and
    this one is, so about 1% of float32 values still differ from JAX's by an ulp.

    Evaluated ``block`` elements at a time (all at once by default) on scratch buffers written
    in place: on the host, cache-sized blocks keep the ~30 passes in the cache, and the
    values do not depend on the block size."""
    f32, f64 = np.float32, np.float64
    flat = y.reshape(-1)
    n = flat.size
    out = xp.empty(n, f32)
    size = max(1, min(n, block or n))
    x_buf, w_buf, p_buf = xp.empty(size, f32), xp.empty(size, f32), xp.empty(size, f32)
    d_buf, s_buf = xp.empty(size, f64), xp.empty(size, f64)
    c0 = f32(_GILES_CENTRAL[0])
    cs = [f64(f32(c)) for c in _GILES_CENTRAL[1:]]
    for start in range(0, n, size):
        stop = min(start + size, n)
        m = stop - start
        x, w, p, d, step = x_buf[:m], w_buf[:m], p_buf[:m], d_buf[:m], s_buf[:m]
        x[...] = flat[start:stop]  # rounded to float32
        xp.multiply(x, x, out=w)
        xp.negative(w, out=w)
        d[...] = w
        xp.log1p(d, out=d)
        xp.negative(d, out=d)
        w[...] = d  # w = float32(-log1p(-x*x))
        # the central polynomial everywhere (|x| < 0.9966 is nearly every value), then the
        # tail one on the few others
        xp.subtract(w, f32(2.5), out=p)
        d[...] = p  # the Horner variable in float64
        p.fill(c0)
        for c in cs:  # `_giles_horner`'s steps, each rounded once to float32
            xp.multiply(p, d, out=step)
            step += c
            p[...] = step
        tail = xp.flatnonzero(w >= f32(5.0))
        if tail.size:
            p[tail] = _giles_horner(xp, xp.sqrt(w[tail]) - f32(3.0), _GILES_TAIL)
        o = out[start:stop]
        xp.multiply(p, x, out=o)
        inf = xp.flatnonzero(xp.abs(x) == f32(1.0))
        if inf.size:
            o[inf] = x[inf] * f32(np.inf)
    return out.reshape(y.shape)


def _giles_horner(xp, w, coefs):
    """Horner's rule in float32 with each step ``p * w + c`` rounded once (exact in float64,
    as a 24-bit product fits 53 bits, then rounded to float32: a fused multiply-add)."""
    f32 = np.float32
    w64 = w.astype(np.float64)
    p = xp.full(w.shape, f32(coefs[0]), f32)
    step = xp.empty(w.shape, np.float64)
    for c in coefs[1:]:
        xp.multiply(p, w64, out=step)
        xp.add(step, np.float64(f32(c)), out=step)
        p[...] = step  # rounded to float32
    return p


def _erf_inv_impl(y):
    xp = _xp_of(y)
    if getattr(y, "dtype", None) == np.float64:
        # SciPy's erfinv (cupyx's on a GPU): closer to correctly rounded than the Newton steps
        # below and ~40x faster; on the host and the fake device the same bits
        mod = special_module_for(xp)
        if mod is not None:
            scipy_erf_inv = lambda v: xp.copysign(mod.erfinv(v), v)  # erf_inv(-0.0) = -0.0  # noqa: E731
            if type(y) is np.ndarray and y.size >= _NATIVE_MIN:
                out = _native_rng.erf_inv_f64(y, scipy_erf_inv)  # the same bits, compiled
                if out is not None:
                    return out
            return scipy_erf_inv(y)
    if type(y) is np.ndarray and y.dtype in _BLOCKED_DTYPES:
        out = _native_rng.erf_inv_f32(y, _GILES_CENTRAL, _GILES_TAIL)  # the compiled loop, if any
        if out is not None:
            return out.astype(y.dtype, copy=False)
    if type(y) is np.ndarray and y.dtype in _BLOCKED_DTYPES and y.size > 2 * _BLOCK:
        with np.errstate(all="ignore"):
            return _erf_inv_single(np, y, _BLOCK).astype(y.dtype, copy=False)
    yd, dt = _float_io(xp, y, "erf_inv")
    if np.dtype(dt).itemsize <= 4:
        with np.errstate(all="ignore"):
            return _erf_inv_single(xp, yd).astype(dt)
    ay = xp.abs(yd)
    # Giles (2010) single-precision approximation as the starting point
    with np.errstate(all="ignore"):
        w = -xp.log((1.0 - ay) * (1.0 + ay))
        w1 = w - 2.5
        p1 = 2.81022636e-08
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                  -0.00417768164, 0.246640727, 1.50140941):
            p1 = c + p1 * w1
        w2 = xp.sqrt(w) - 3.0
        p2 = -0.000200214257
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                  0.00943887047, 1.00167406, 2.83297682):
            p2 = c + p2 * w2
        x = xp.where(w < 5.0, p1, p2) * ay
        # beyond Giles' range (w > 16) use the asymptotics of erfc: x^2 ~ L - log(pi L)/2
        big_l = w + math.log(2.0)
        x = xp.where(w > 16.0, xp.sqrt(big_l - 0.5 * xp.log(math.pi * big_l)), x)
        x = xp.asarray(xp.where(ay < 1.0, x, 1.0))  # placeholder where the answer is inf/nan
        tail = ay > 0.5
        body = ~tail & (ay <= 0.5)
        if body.any():
            x[body] = _refine_body(xp, x[body], ay[body])
        if tail.any():
            x[tail] = _refine_tail(xp, x[tail], 1.0 - ay[tail])
        x = xp.where(ay == 1.0, xp.inf, x)
        x = xp.where(ay > 1.0, xp.nan, x)
        x = xp.where(xp.isnan(ay), xp.nan, x)
    return xp.copysign(x, yd).astype(dt)  # erf_inv(-0.0) = -0.0


erf_p = unary("erf", _erf_impl, lambda x, y: mul(_TWO_OVER_SQRT_PI, exp(neg(mul(x, x)))),
              kernel={"f": "erf{f}({0})"})
erfc_p = unary("erfc", _erfc_impl, lambda x, y: mul(-_TWO_OVER_SQRT_PI, exp(neg(mul(x, x)))),
               kernel={"f": "erfc{f}({0})"})
erf_inv_p = unary("erf_inv", _erf_inv_impl, lambda x, y: mul(math.sqrt(math.pi) / 2.0, exp(mul(y, y))),
                  kernel={"f": "erfinv{f}({0})"})


def erf(x):
    """The error function (differentiable to any order)."""
    return erf_p.bind(x)


def erfc(x):
    """``1 - erf(x)``, accurate in the upper tail."""
    return erfc_p.bind(x)


def erf_inv(x):
    """Inverse of `erf` on (-1, 1) (±inf at ±1, NaN outside)."""
    return erf_inv_p.bind(x)


__all__ = ["erf", "erfc", "erf_inv", "erf_p", "erfc_p", "erf_inv_p"]
