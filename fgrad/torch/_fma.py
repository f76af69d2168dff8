"""Fused multiply-add on NumPy buffers, and the fused forms PyTorch's CPU kernels compute
``add``/``sub`` with ``alpha``, ``lerp``, ``addcmul`` and ``addcdiv`` in, so the shim's values
(and an optimizer's trajectory, which steps with these ops) match PyTorch's bit for bit.

``fma32``: the float64 product of two float32 numbers is exact; where the float64 sum lies on
a float32 rounding midpoint it is made round-to-odd (TwoSum gives its error), so rounding it
to float32 rounds once, as a fused operation does.  ``fma64``: TwoProduct and TwoSum
(error-free transformations).

Where it can, ``fma32``/``fma64`` run one C loop (`fgrad.core.native_fma`: the FMA
instruction; these NumPy forms without a compiler or with the native loops off).

Complex dtypes (PyTorch does not fuse complex products) get the plain forms.  The forms,
measured on PyTorch 2.13's CPU kernels (AVX2, vectorized body and scalar tail
alike) for float32 and float64; float16/bfloat16 compute in float32 and round once:

* ``add(x, y, alpha=a)`` = ``fma(a, y, x)`` (``sub``: ``fma(-a, y, x)``);
* ``lerp(s, e, w)`` = ``fma(w, e - s, s)`` for ``|w| < 0.5``, else ``fma(w - 1, e - s, e)``;
* ``addcmul(x, t1, t2, value=v)`` = ``fma(v * t1, t2, x)``;
* ``addcdiv(x, t1, t2, value=v)`` = ``x + (v * t1) / t2`` (no fusion, but this order).

Example::

    >>> x, y = np.float32([0.104900114]), np.float32([-1.3031572])
    >>> add_alpha(x, y, 3.0, np.dtype(np.float32)), x + y * np.float32(3)   # torch.add: -3.8045716
    (array([-3.8045716], dtype=float32), array([-3.8045714], dtype=float32))
"""

from __future__ import annotations

import numpy as np

from ..core import native_fma as _native_fma
from ..core.narrow_floats import NARROW_FLOATS as _NARROW, float32 as _F32

_F64 = np.dtype(np.float64)
_F32D = np.dtype(_F32)
_INF = np.float64(np.inf)


_SPLIT_MAX = 2.0 ** 995  # Veltkamp's 134217729 * v overflows beyond this


def _split(v):
    """``v = hi + lo``, each half of v's 53 bits (Veltkamp); a value over `_SPLIT_MAX` is
    split scaled down by 2**28 and its halves scaled back (powers of two: exact), where the
    plain split's ``134217729 * v`` would overflow to inf and the halves be NaN."""
    big = np.abs(v) > _SPLIT_MAX
    w = np.where(big, v * 2.0 ** -28, v) if big.any() else v
    t = 134217729.0 * w  # 2**27 + 1 (Veltkamp)
    hi = t - (t - w)
    lo = w - hi
    if w is v:
        return hi, lo
    return np.where(big, hi * 2.0 ** 28, hi), np.where(big, lo * 2.0 ** 28, lo)


def fma32(a, b, c, scratch=None) -> np.ndarray:
    """``a * b + c`` of float32 operands rounded once to float32 (a fused multiply-add;
    float32 subnormal results may round twice).  ``scratch``: a float64 array of the result's
    shape to compute in.

    Example::

        >>> a = np.float32(1 + 2 ** -12)
        >>> float(fma32(a, a, np.float32(-1))) == 2 ** -11 + 2 ** -24
        True
    """
    if scratch is None:
        r = _native_fma.fused_multiply_add(a, b, c)  # (one C pass, where it can run)
        if r is not None:
            return r
    s = np.multiply(a, b, dtype=_F64, out=scratch)  # exact: 24 + 24 bits fit in 53
    if np.ndim(c) and np.broadcast_shapes(np.shape(s), np.shape(c)) != np.shape(s):
        s = s + c  # (c broadcasts the product)
    else:
        s += c
    s = np.asarray(s)
    # the float64 sum rounds to float32 twice only where it lies on a float32 rounding midpoint
    # (its low 29 bits 1 followed by zeros): there, round to odd (one step towards the exact
    # sum, whose error TwoSum gives), after which rounding to float32 is the fused value
    flat = s.reshape(-1)
    hit = np.bitwise_and(flat.view(np.int64), 0x1FFFFFFF) == 0x10000000
    if hit.any():
        tie = np.flatnonzero(hit)
        shape = s.shape or (1,)
        at = np.unravel_index(tie, shape)  # (no copy of a broadcast operand)
        ops = [np.broadcast_to(x, shape)[at].astype(_F64) for x in (a, b, c)]
        p = ops[0] * ops[1]
        t = flat[tie]
        bb = t - p
        e = (p - (t - bb)) + (ops[2] - bb)
        flat[tie] = np.where(e != 0, np.nextafter(t, np.copysign(_INF, e)), t)
    return s.astype(_F32)


def fma64(a, b, c) -> np.ndarray:
    """``a * b + c`` in float64 with the product kept exact (TwoProduct, TwoSum).

    Example::

        >>> a = 1 + 2.0 ** -30
        >>> float(fma64(a, a, -1.0)) == 2 ** -29 + 2 ** -60
        True
    """
    with np.errstate(all="ignore"):
        a = np.asarray(a, _F64)
        b = np.asarray(b, _F64)
        r = _native_fma.fused_multiply_add(a, b, c)  # (one C pass, where it can run)
        if r is not None:
            return r
        p = a * b
        ah, al = _split(a)
        bh, bl = _split(b)
        ep = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s = p + c
        bb = s - p
        es = (p - (s - bb)) + (c - bb)
        if not np.isfinite(ep).all():  # a product's halves overflowing (p near the largest
            ep = np.where(np.isfinite(ep), ep, 0.0)  # double): its error term is dropped
        r = s + (es + ep)
        if not np.isfinite(r).all():  # an infinite operand or product: the plain sum's value
            r = np.where(np.isfinite(s), r, s)
        return r


def fma(a, b, c, dt: np.dtype) -> np.ndarray:
    """``a * b + c`` rounded once to the float dtype ``dt`` (float16/bfloat16: the float32
    fused value, rounded to ``dt``).

    Example::

        >>> float(fma(np.float64(0.1), np.float64(3.0), np.float64(1.0), np.dtype(np.float64)))
        1.3
    """
    with np.errstate(all="ignore"):
        if dt == _F64:
            return fma64(a, b, c)
        r = fma32(a, b, c)
    return r if dt == _F32D else r.astype(dt)


def compute_dtype(dt: np.dtype) -> np.dtype:
    """The dtype PyTorch's CPU kernels compute ``dt`` in: float32 for float16/bfloat16."""
    return _F32D if dt in _NARROW else dt


def _up(x, dt):
    return np.asarray(x).astype(compute_dtype(dt), copy=False)


def _real(dt: np.dtype) -> bool:
    """Whether PyTorch's kernels fuse for ``dt`` (real floats; complex products are not fused)."""
    return dt.kind == "f" or dt in _NARROW


def add_alpha(x, y, alpha: float, dt: np.dtype) -> np.ndarray:
    """``torch.add(x, y, alpha=alpha)`` of float buffers: ``fma(alpha, y, x)``.  For
    float16/bfloat16 ``alpha`` is first rounded to ``dt`` (PyTorch's vectorized body; its
    scalar tail, the last elements of each thread's chunk, rounds ``alpha * y`` too).

    Example::

        >>> float(add_alpha(np.float32(1.0), np.float32(0.5), 3.0, np.dtype(np.float32)))
        2.5
    """
    if not _real(dt):
        return np.asarray(x + np.asarray(alpha, dt) * y)
    return fma(_up(np.asarray(alpha, dt), dt), _up(y, dt), _up(x, dt), dt)


def lerp(start, end, weight, dt: np.dtype) -> np.ndarray:
    """``torch.lerp(start, end, weight)`` of float buffers (``weight`` a number or buffer).

    Example::

        >>> float(lerp(np.float32(1.0), np.float32(2.0), 0.25, np.dtype(np.float32)))
        1.25
    """
    s, e = _up(start, dt), _up(end, dt)
    w = _up(weight, dt)
    with np.errstate(all="ignore"):
        d = e - s
        if not _real(dt):
            return np.asarray(d * w + s)
        if w.ndim == 0:
            return fma(w, d, s, dt) if abs(w) < 0.5 else fma(w - w.dtype.type(1), d, e, dt)
        return np.where(np.abs(w) < 0.5, fma(w, d, s, dt), fma(w - w.dtype.type(1), d, e, dt))


def addcmul(x, t1, t2, value: float, dt: np.dtype) -> np.ndarray:
    """``torch.addcmul(x, t1, t2, value=value)`` of float buffers: ``fma(value * t1, t2, x)``.

    Example::

        >>> float(addcmul(np.float32(1.0), np.float32(2.0), np.float32(3.0), 0.5, np.dtype(np.float32)))
        4.0
    """
    with np.errstate(all="ignore"):
        if not _real(dt):
            return np.asarray(np.asarray(t1) * t2 * np.asarray(value, dt) + x)
        return fma(_up(value, dt) * _up(t1, dt), _up(t2, dt), _up(x, dt), dt)


def addcdiv(x, t1, t2, value: float, dt: np.dtype) -> np.ndarray:
    """``torch.addcdiv(x, t1, t2, value=value)`` of float buffers: ``x + (value * t1) / t2``.

    Example::

        >>> float(addcdiv(np.float32(1.0), np.float32(2.0), np.float32(4.0), 0.5, np.dtype(np.float32)))
        1.25
    """
    with np.errstate(all="ignore"):
        if not _real(dt):
            return np.asarray(np.asarray(t1) / t2 * np.asarray(value, dt) + x)
        r = _up(x, dt) + (_up(value, dt) * _up(t1, dt)) / _up(t2, dt)
    return np.asarray(r).astype(dt, copy=False)
