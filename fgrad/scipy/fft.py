"""`fgrad.scipy.fft`: the discrete cosine transform (type 2) and its inverse, as ``jax.scipy.fft``.

Each is a composition of one complex FFT per axis (`fgrad.numpy.fft`) with a reordering and a
twiddle factor (Makhoul's algorithm), so it is linear and differentiable to any order: its JVP
is the transform of the tangent and its transpose comes from the FFT's.  The DCT-II of ``x``
along an axis of length ``N`` is ``y[k] = 2 sum_n x[n] cos(pi k (2n + 1) / (2N))`` (SciPy's
unnormalized convention); ``norm="ortho"`` scales it to an orthogonal map.  ``idct`` of type 2
is SciPy's inverse (a scaled DCT-III), so ``idct(dct(x)) == x`` for both norms.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.scipy.fft import dct, idct
    >>> y = dct(fnp.asarray([1.0, 2.0, 0.0, -1.0]))
    >>> y
    Array([ 4.        ,  5.22625186, -2.82842712, -2.1647844 ], dtype=float64)
    >>> idct(y).round(12)
    Array([ 1.,  2.,  0., -1.], dtype=float64)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import numpy as fnp
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ._dtypes import inexact_dtype

__all__ = ["dct", "dctn", "idct", "idctn"]

_NORMS = (None, "ortho", "backward")


def _check(fn: str, type: int, norm: str | None) -> None:
    if type != 2:
        raise NotImplementedError(f"fgrad.scipy.fft.{fn}: only DCT type 2 is implemented (as in "
                                  f"jax.scipy.fft), got type={type}")
    if norm not in _NORMS:
        raise ValueError(f"fgrad.scipy.fft.{fn}: norm must be None or 'ortho', got {norm!r}")


def _as_float(x):
    x = fnp.asarray(x)
    return x if _dtype_kind(x.dtype) in "fc" else x.astype(inexact_dtype(x))


def _resize(x, n: int | None, axis: int, fn: str):
    """Zero-pad or truncate ``x`` to length ``n`` along ``axis`` (SciPy's ``n=``)."""
    if n is None:
        return x
    if n < 1:
        raise ValueError(f"fgrad.scipy.fft.{fn}: invalid number of data points ({n}) specified; "
                         "pass n >= 1")
    size = x.shape[axis]
    if n < size:
        return fnp.take(x, np.arange(n), axis=axis)
    if n > size:
        pads = [(0, 0)] * x.ndim
        pads[axis] = (0, n - size)
        return fnp.pad(x, pads)
    return x


def _along(k, ndim: int, axis: int):
    """A 1-d constant ``k`` shaped to broadcast along ``axis`` of an ``ndim``-d array."""
    shape = [1] * ndim
    shape[axis] = -1
    return k.reshape(shape)


def _ortho_scale(n: int, dtype):
    """Per-frequency factors turning SciPy's unnormalized DCT-II into the orthogonal one."""
    s = np.full(n, np.sqrt(1.0 / (2 * n)))
    s[0] = np.sqrt(1.0 / (4 * n))
    return fnp.asarray(s, dtype=dtype)


def _dct_axis(x, axis: int, norm: str | None):
    """DCT-II along one axis of a real array (Makhoul: reorder, FFT, twiddle)."""
    n = x.shape[axis]
    even = fnp.take(x, np.arange(0, n, 2), axis=axis)
    odd_reversed = fnp.take(x, np.arange(1, n, 2)[::-1].copy(), axis=axis)
    v = fnp.concatenate([even, odd_reversed], axis=axis)
    spectrum = fnp.fft.fft(v, axis=axis)
    twiddle = np.exp(-1j * np.pi * np.arange(n) / (2 * n))
    real_dtype = x.dtype
    twiddle = fnp.asarray(twiddle, dtype=spectrum.dtype)
    y = 2 * fnp.real(spectrum * _along(twiddle, x.ndim, axis))
    y = y.astype(real_dtype)
    if norm == "ortho":
        y = y * _along(_ortho_scale(n, real_dtype), x.ndim, axis)
    return y


def _idct_axis(y, axis: int, norm: str | None):
    """Inverse of `_dct_axis`: undo the twiddle (the spectrum of the real reordered signal is
    Hermitian, so ``V[k] = exp(i pi k / 2N) (y[k] - i y[N - k]) / 2``), inverse FFT, un-reorder."""
    n = y.shape[axis]
    real_dtype = y.dtype
    if norm == "ortho":
        y = y / _along(_ortho_scale(n, real_dtype), y.ndim, axis)
    shifted = fnp.take(y, np.r_[0, np.arange(n - 1, 0, -1)].astype(np.int64), axis=axis)
    not_first = np.ones(n)
    not_first[0] = 0.0
    shifted = shifted * _along(fnp.asarray(not_first, dtype=real_dtype), y.ndim, axis)
    twiddle = np.exp(1j * np.pi * np.arange(n) / (2 * n)) / 2
    complex_dtype = np.complex64 if np.dtype(real_dtype) == np.float32 else np.complex128
    twiddle = _along(fnp.asarray(twiddle, dtype=complex_dtype), y.ndim, axis)
    spectrum = twiddle * (y.astype(complex_dtype) - 1j * shifted.astype(complex_dtype))
    v = fnp.real(fnp.fft.ifft(spectrum, axis=axis)).astype(real_dtype)
    # v = [x[0], x[2], ..., x[odd...] reversed]: x[2m] = v[m], x[2m + 1] = v[n - 1 - m]
    order = np.empty(n, dtype=np.int64)
    half = (n + 1) // 2
    order[0::2] = np.arange(half)
    order[1::2] = np.arange(n - 1, half - 1, -1)
    return fnp.take(v, order, axis=axis)


def _complex_split(fn, x, *args):
    if _dtype_kind(x.dtype) == "c":
        return fn(fnp.real(x), *args) + 1j * fn(fnp.imag(x), *args)
    return fn(x, *args)


def _norm_axis(axis: int, ndim: int, fn: str) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"fgrad.scipy.fft.{fn}: axis {axis} is out of bounds for an array of "
                         f"dimension {ndim}")
    return axis % ndim


def _nd_axes(x, s, axes, fn: str) -> tuple[list[int], list[int | None]]:
    if axes is None:
        axes = list(range(x.ndim)) if s is None else list(range(x.ndim - len(s), x.ndim))
    else:
        axes = [_norm_axis(a, x.ndim, fn) for a in (axes if isinstance(axes, Sequence) else [axes])]
    if len(set(axes)) != len(axes):
        raise ValueError(f"fgrad.scipy.fft.{fn}: axes must be unique, got {axes}")
    if s is None:
        sizes: list[int | None] = [None] * len(axes)
    else:
        s = list(s) if isinstance(s, Sequence) else [s]
        if len(s) != len(axes):
            raise ValueError(f"fgrad.scipy.fft.{fn}: shape s={s} and axes={axes} must have the same "
                             "length")
        sizes = s
    return axes, sizes


def dct(x, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None):
    """Discrete cosine transform of type 2 along ``axis`` (``scipy.fft.dct``): ``n`` zero-pads or
    truncates first; ``norm`` is None or ``"ortho"``.  Complex input transforms the real and
    imaginary parts separately.

    Example::

        >>> import fgrad.numpy as fnp
        >>> dct(fnp.asarray([1.0, 2.0, 3.0]), norm="ortho").round(12)
        Array([ 3.46410162, -1.41421356, -0.        ], dtype=float64)
    """
    _check("dct", type, norm)
    x = _as_float(x)
    axis = _norm_axis(axis, x.ndim, "dct")
    x = _resize(x, n, axis, "dct")
    return _complex_split(_dct_axis, x, axis, norm)


def idct(x, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None):
    """Inverse of `dct` of type 2 along ``axis`` (``scipy.fft.idct``: a scaled DCT-III), so
    ``idct(dct(x, norm=m), norm=m) == x``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> idct(fnp.asarray([12.0, -3.0, 0.0]))
        Array([1.1339746, 2.       , 2.8660254], dtype=float64)
    """
    _check("idct", type, norm)
    x = _as_float(x)
    axis = _norm_axis(axis, x.ndim, "idct")
    x = _resize(x, n, axis, "idct")
    return _complex_split(_idct_axis, x, axis, norm)


def dctn(x, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str | None = None):
    """N-dimensional DCT of type 2 over ``axes`` (all by default), with sizes ``s``
    (``scipy.fft.dctn``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> dctn(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))
        Array([[ 40.        ,  -5.65685425],
               [-11.3137085 ,   0.        ]], dtype=float64)
    """
    _check("dctn", type, norm)
    x = _as_float(x)
    axes, sizes = _nd_axes(x, s, axes, "dctn")
    for ax, size in zip(axes, sizes):
        x = _resize(x, size, ax, "dctn")
    for ax in axes:
        x = _complex_split(_dct_axis, x, ax, norm)
    return x


def idctn(x, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None):
    """Inverse of `dctn` (``scipy.fft.idctn``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> idctn(dctn(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))).round(12)
        Array([[1., 2.],
               [3., 4.]], dtype=float64)
    """
    _check("idctn", type, norm)
    x = _as_float(x)
    axes, sizes = _nd_axes(x, s, axes, "idctn")
    for ax, size in zip(axes, sizes):
        x = _resize(x, size, ax, "idctn")
    for ax in axes:
        x = _complex_split(_idct_axis, x, ax, norm)
    return x
