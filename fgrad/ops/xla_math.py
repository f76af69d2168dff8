"""XLA's CPU algorithms for elementwise functions, as vectorized array code.

JAX's numbers for ``tanh`` and friends are not the C library's: XLA's CPU compiler emits its own
polynomial approximations (``xla/codegen/intrinsic``), with LLVM contracting ``a * b + c`` into a
fused multiply-add where the IR allows it.  Each function here reproduces one such algorithm
step by step in the operand's dtype, so that `fgrad.numpy`/`fgrad.lax` (which bind the
primitive with ``xla=True``, `fgrad.ops.elementwise.jax_face_bind`) print JAX's bits.  The
PyTorch face never binds ``xla``: its numbers stay NumPy's (PyTorch's).

Every function takes ``(xp, x)`` (``xp`` is numpy or cupy) and returns ``None`` where it has no
XLA algorithm for ``x``'s dtype (the caller then uses NumPy's).  `XLA_MATH` maps a primitive's
name to its function.

>>> import numpy as np
>>> float(tanh(np, np.float32(0.5)))
0.46211716532707214
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

_TORCH_FACE = "fgrad.torch"
_MAX_DEPTH = 64


def called_from_torch_face(depth: int = 2) -> bool:
    """True where the caller runs on behalf of the PyTorch face (a frame of ``fgrad.torch``
    on the stack, ``depth`` frames up or further): the shim's definitions call `fgrad.numpy`,
    whose numbers must then stay NumPy's (PyTorch's).  Only asked while binding one of
    `XLA_MATH`'s ops (a traced program keeps what its binds chose), so it costs the shim's
    cached ops nothing.

    >>> called_from_torch_face()
    False
    """
    f = sys._getframe(depth)
    n = 0
    while f is not None and n < _MAX_DEPTH:
        name = f.f_globals.get("__name__", "")
        if name.startswith(_TORCH_FACE) and (len(name) == len(_TORCH_FACE) or name[len(_TORCH_FACE)] == "."):
            return True
        f = f.f_back
        n += 1
    return False


F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's splitting constant for float64


def fma_f32(xp, a, b, c):
    """``a * b + c`` of float32 arrays rounded once to float32 (a fused multiply-add): the product
    of two 24-bit significands is exact in float64, the sum is rounded to float64 and then to
    float32 (double rounding can differ from one rounding only in cases XLA's polynomials here
    never reach on the measured samples; see docs/numerics.md).

    >>> import numpy as np
    >>> float(fma_f32(np, np.float32(3.0), np.float32(1 / 3), np.float32(-1.0)))
    2.9802322387695312e-08
    """
    s = xp.multiply(a, b, dtype=np.float64)
    s += c
    return s.astype(np.float32)


def _split(a):
    """Veltkamp's split ``a = hi + lo`` into two halves of 26 bits (exact)."""
    ca = _SPLIT * a
    hi = ca - (ca - a)
    return hi, a - hi


def _two_prod(xp, a, b, a_split=None):
    """``(p, e)`` with ``p = fl(a * b)`` and ``a * b = p + e`` exactly (Dekker's product);
    ``a_split``: `_split` of ``a`` when the caller has it (a Horner variable)."""
    p = a * b
    ah, al = _split(a) if a_split is None else a_split
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def fma_f64(xp, a, b, c, a_split=None):
    """``a * b + c`` of float64 arrays as a fused multiply-add: the exact product ``p + e``
    (`_two_prod`), ``p + c`` summed exactly (Knuth's two-sum ``s + t``), then ``s + (t + e)``
    -- one rounding except where ``t + e`` itself rounds across a tie (not met on the measured
    samples).  Finite operands of moderate size only (the splitting overflows past ~1e300),
    which is what XLA's polynomials feed it.  ``a_split``: `_split` of ``a``, if known.

    >>> import numpy as np
    >>> float(fma_f64(np, np.float64(0.1), np.float64(10.0), np.float64(-1.0)))
    5.551115123125783e-17
    """
    p, e = _two_prod(xp, a, b, a_split)
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)
    low = t + e
    return xp.where(low == 0.0, s, s + low)  # (an exact zero keeps the sign ``p + c`` gives)


def _keep_nan(xp, x, y):
    """``y`` with ``x``'s NaNs passed through as they are (sign and payload: XLA propagates
    the operand's NaN where NumPy's arithmetic on it can set the sign bit)."""
    return xp.where(xp.isnan(x), x, y)


def _daz(xp, x):
    """``x`` with subnormal values read as zeros of their sign, as XLA's CPU code reads its
    operands (denormals-are-zero)."""
    return xp.where(xp.abs(x) < np.finfo(x.dtype).tiny, x * x.dtype.type(0.0), x)


def _f64_operand(xp, x):
    """``x`` as a float64 array read as XLA reads it (`_daz`); None for other dtypes."""
    x = xp.asarray(x)
    return _daz(xp, x) if x.dtype == F64 else None


def _horner(xp, fma, w, coefs, dt):
    """``((c0 * w + c1) * w + c2) ...`` with each step a fused multiply-add in ``dt``."""
    p = xp.full(w.shape, coefs[0], dt)
    if fma is fma_f64:
        w_split = _split(w)  # once for all steps
        for c in coefs[1:]:
            p = fma_f64(xp, w, p, c, w_split)
        return p
    for c in coefs[1:]:
        p = fma(xp, w, p, dt.type(c))
    return p


def _scale_by_power_of_2(xp, y, n, dt):
    """``y * 2**n`` for integer-valued float ``n`` (|n| <= 2 * max exponent), as two exact
    products by powers of two built from their bits (NumPy's ``ldexp`` is several times
    slower); results below the normal range round as the second product rounds."""
    it, bias, shift = (np.int32, 127, 23) if dt == F32 else (np.int64, 1023, 52)
    k = xp.nan_to_num(n).astype(it)
    h = k >> 1
    s1 = ((h + bias) << shift).view(dt)
    s2 = ((k - h + bias) << shift).view(dt)
    return (y * s1) * s2


# xla/codegen/intrinsic/tanh.cc, EmitFastTanh (float32, with_fma): a rational approximation on
# the clamped input, x itself below 0.0004, +-1 from |x| >= 20
_TANH32_NUM = (-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11,
               5.12229709037114e-08, 1.48572235717979e-05, 6.37261928875436e-04,
               4.89352455891786e-03)
_TANH32_DEN = (1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03,
               4.89352518554385e-03)
_TANH32_CLAMP = 7.99881172180175781
# EmitFastTanhF64 (Eigen's ptanh_double coefficients, x * P(x^2) / Q(x^2)); XLA asks for the
# non-FMA clamp, but LLVM contracts the Horner steps into FMAs on this CPU
_TANH64_NUM = (2.6158007860482230e-23, 7.6534862268749319e-19, 3.1309488231386680e-15,
               4.2303918148209176e-12, 2.4618379131293676e-09, 6.8644367682497074e-07,
               9.3839087674268880e-05, 5.9809711724441161e-03, 1.5184719640284322e-01, 1.0)
_TANH64_DEN = (6.463747022670968018e-21, 5.782506856739003571e-17, 1.293019623712687916e-13,
               1.123643448069621992e-10, 4.492975677839633985e-08, 8.785185266237658698e-06,
               8.295161192716231542e-04, 3.437448108450402717e-02, 4.851805297361760360e-01, 1.0)
_TANH64_CLAMP = 17.714196154005176


def tanh(xp, x):
    """XLA's CPU ``tanh`` of a float32 or float64 array (``None`` for other dtypes).

    >>> import numpy as np
    >>> float(tanh(np, np.float64(0.5)))  # JAX's jnp.tanh(0.5) with x64
    0.4621171572600098
    """
    x = xp.asarray(x)
    dt = x.dtype
    if dt == F32:
        fma, num, den, clamp = fma_f32, _TANH32_NUM, _TANH32_DEN, _TANH32_CLAMP
    elif dt == F64:
        fma, num, den, clamp = fma_f64, _TANH64_NUM, _TANH64_DEN, _TANH64_CLAMP
    else:
        return None
    c = dt.type(clamp)
    xc = xp.clip(x, -c, c)  # NaN stays NaN
    w = xc * xc
    r = (xc * _horner(xp, fma, w, num, dt)) / _horner(xp, fma, w, den, dt)
    ax = xp.abs(x)
    if dt == F32:
        r = xp.where(ax < dt.type(0.0004), x, r)
    else:  # XLA's CPU code reads subnormal operands as zero (DAZ): their products are +-0
        r = xp.where(ax < np.finfo(dt).tiny, x * dt.type(0.0), r)  # (`_daz` of the result)
    return xp.where(ax >= dt.type(20.0), xp.copysign(dt.type(1.0), x), r)


# float32: XLA's vectorized ``exp`` (xla/service/cpu, Cephes' polynomial as in Eigen), FMAs where
# LLVM contracts (``x - C2 n`` too), the scaling by 2^n flushing subnormal results to zero
_EXP32_P = (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1,
            5.0000001201e-1)
_EXP32_LO, _EXP32_HI = -88.3762626647949, 88.3762626647950
# float64: xla/codegen/intrinsic/exp.cc (Cephes' rational P(g^2) g / (Q(g^2) - P(g^2) g)), with
# its Horner steps, ``2 r + 1`` and the second reduction step ``g - n C2`` contracted into FMAs
_EXP64_P = (1.26177193074810590878e-4, 3.02994407707441961300e-2, 9.99999999999999999910e-1)
_EXP64_Q = (3.00198505138664455042e-6, 2.52448340349684104192e-3, 2.27265548208155028766e-1,
            2.00000000000000000009e0)
_EXP64_LO, _EXP64_HI = -708.3964185322641, 709.782712893384


def _exp32(xp, x):
    f32 = F32.type
    xc = xp.clip(x, f32(_EXP32_LO), f32(_EXP32_HI))
    n = xp.floor(fma_f32(xp, xc, f32(1.44269504088896341), f32(0.5)))
    g = xc - f32(0.693359375) * n  # exact: n has at most 8 bits, the constant 10
    g = fma_f32(xp, n, f32(2.12194440e-4), g)
    p = fma_f32(xp, g, f32(_EXP32_P[0]), f32(_EXP32_P[1]))
    for c in _EXP32_P[2:]:
        p = fma_f32(xp, p, g, f32(c))
    y = f32(1.0) + fma_f32(xp, p, g * g, g)
    r = _scale_by_power_of_2(xp, y, n, F32)
    r = xp.where(r < np.finfo(F32).tiny, f32(0.0), r)  # flushed to zero (FTZ)
    r = xp.maximum(r, x)  # +inf stays +inf, NaN stays NaN
    # above the clamp XLA takes another path (its bits differ by an ulp on a few inputs): libm's
    return xp.where(x > f32(_EXP32_HI), xp.exp(x), r)


def _exp64(xp, x):
    xc = xp.minimum(xp.maximum(x, _EXP64_LO), _EXP64_HI)  # NaN propagates (llvm.minimum/maximum)
    n = xp.floor(xc * 1.4426950408889634073599 + 0.5)
    g = xc - n * 0.693145751953125  # exact: n has at most 11 bits, the constant 21
    g = fma_f64(xp, -n, 1.42860682030941723212e-6, g)
    w = g * g
    p = _horner(xp, fma_f64, w, _EXP64_P, F64) * g
    q = _horner(xp, fma_f64, w, _EXP64_Q, F64)
    y = fma_f64(xp, p / (q - p), 2.0, 1.0)
    r = _scale_by_power_of_2(xp, y, n, F64)
    r = xp.where(x < _EXP64_LO, 0.0, r)
    return xp.where(x > _EXP64_HI, xp.inf, r)


def exp(xp, x):
    """XLA's CPU ``exp`` of a float32 or float64 array (``None`` for other dtypes).

    >>> import numpy as np
    >>> float(exp(np, np.float32(1.0)))
    2.7182817459106445
    """
    x = xp.asarray(x)
    if x.dtype == F32:
        return _keep_nan(xp, x, _exp32(xp, x))
    if x.dtype == F64:
        return _keep_nan(xp, x, _exp64(xp, x))
    return None


def logistic(xp, x):
    """XLA's ``logistic``: its expansion ``1 / (1 + exp(-x))`` with XLA's `exp` (float32 and
    float64; ``None`` for other dtypes).

    >>> import numpy as np
    >>> float(logistic(np, np.float64(2.0)))
    0.8807970779778823
    """
    e = exp(xp, -xp.asarray(x))
    if e is None:
        return None
    one = e.dtype.type(1.0)
    return one / (one + e)


# xla/codegen/intrinsic/log1p.cc: below sqrt(2) - 1 in magnitude Cephes' rational
# x - x^2 / 2 + x^3 P(x) / Q(x) (Horner steps and ``-0.5 x^2 + t`` contracted into FMAs), else
# log(1 + x)
_LOG1P_SMALL = 0.41421356237309504880
_LOG1P_P = (4.5270000862445199635215e-5, 4.9854102823193375972212e-1, 6.5787325942061044846969e0,
            2.9911919328553073277375e1, 6.0949667980987787057556e1, 5.7112963590585538103336e1,
            2.0039553499201281259648e1)
_LOG1P_Q = (1.0, 1.5062909083469192043167e1, 8.3047565967967209469434e1, 2.2176239823732856465394e2,
            3.0909872225312059774938e2, 2.1642788614495947685003e2, 6.0118660497603843919306e1)


def log1p(xp, x):
    """XLA's CPU ``log1p`` of a float64 array (``None`` for other dtypes).

    >>> import numpy as np
    >>> float(log1p(np, np.float64(0.25)))
    0.22314355131420976
    """
    x = _f64_operand(xp, x)
    if x is None:
        return None
    small = xp.abs(x) < _LOG1P_SMALL
    xs = xp.where(small, x, 0.0)  # the rational only where it is taken (no overflow elsewhere)
    x2 = xs * xs
    r = _horner(xp, fma_f64, xs, _LOG1P_P, F64) / _horner(xp, fma_f64, xs, _LOG1P_Q, F64)
    s = xs + fma_f64(xp, xp.full(xs.shape, -0.5), x2, (xs * x2) * r)
    return xp.where(small, s, xp.log(x + 1.0))


# JAX's lgamma as XLA expands it (CHLO's Lanczos approximation, g = 7, reflection below 1/2),
# operation by operation as its compiled program runs them; ``(z + 1/2 - (z + 7.5) / l) l +
# log(2 pi) / 2`` with ``l = log1p(z / 7.5) + log(7.5)`` ends in a contracted FMA
_LANCZOS = (676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
            12.507343278686905, -0.13857109526572012, 9.9843695780195716e-06, 1.5056327351493116e-07)


def lgamma(xp, x):
    """XLA's CPU ``lgamma`` of a float64 array (``None`` for other dtypes).

    >>> import numpy as np
    >>> float(lgamma(np, np.float64(0.5)))
    0.5723649429247004
    """
    x = _f64_operand(xp, x)
    if x is None:
        return None
    ax = xp.abs(x)
    reflect = x < 0.5
    frac = ax - xp.floor(ax)
    frac = xp.where(0.5 < frac, 1.0 - frac, frac)
    log_sin = xp.log(xp.sin(frac * 3.1415926535897931))  # log |sin(pi x)|
    z = xp.where(reflect, -x, x + -1.0)
    log_t = log1p(xp, z * 0.13333333333333333) + 2.0149030205422647
    head = fma_f64(xp, (z + 0.5) - (z + 7.5) / log_t, log_t, 0.91893853320467267)
    acc = _LANCZOS[0] / (z + 1.0) + 0.99999999999980993
    for k, c in enumerate(_LANCZOS[1:], 2):
        acc = acc + c / (z + float(k))
    y = head + xp.log(acc)
    y = xp.where(reflect, xp.where(xp.isfinite(log_sin), (1.1447298858494002 - log_sin) - y, -log_sin), y)
    return xp.where(ax == xp.inf, xp.inf, y)


XLA_MATH: dict[str, Callable[[Any, Any], Any]] = {"tanh": tanh, "exp": exp, "logistic": logistic,
                                                   "log1p": log1p, "lgamma": lgamma}
