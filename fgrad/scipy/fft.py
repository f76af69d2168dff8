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

from ..typing import Array, ArrayLike

import functools
from collections.abc import Sequence

import numpy as np

from .. import numpy as fnp
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ._dtypes import inexact_dtype as _inexact_dtype

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
    return x if _dtype_kind(x.dtype) in "fc" else x.astype(_inexact_dtype(x))


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


@functools.lru_cache(maxsize=64)
def _host_constants(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-length host constants (computed once): the Makhoul permutation
    ``[x0, x2, x4, ..., x5, x3, x1]``, its inverse, the twiddles ``exp(-+i pi k / 2N)`` (the
    inverse's halved) and the orthonormal scale (``sqrt(1/4N)`` for ``k = 0``, else ``sqrt(1/2N)``)."""
    order = np.concatenate([np.arange(0, n, 2), np.arange(1, n, 2)[::-1]])
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.arange(n)
    k = np.arange(n)
    ortho = np.full(n, np.sqrt(1.0 / (2 * n)))
    ortho[0] = np.sqrt(1.0 / (4 * n))
    for a in (order, inverse, ortho):
        a.flags.writeable = False
    forward = np.exp(-1j * np.pi * k / (2 * n))
    backward = np.exp(1j * np.pi * k / (2 * n)) / 2
    forward.flags.writeable = backward.flags.writeable = False
    return order, inverse, forward, backward, ortho


def _complex_of(real_dtype) -> np.dtype:
    return np.dtype(np.complex64) if np.dtype(real_dtype) == np.float32 else np.dtype(np.complex128)


def _dct_axis(x, axis: int, norm: str | None):
    """DCT-II along one axis of a real array (Makhoul: reorder, FFT, twiddle)."""
    n = x.shape[axis]
    order, _, forward, _, ortho = _host_constants(n)
    real_dtype = x.dtype
    spectrum = fnp.fft.fft(fnp.take(x, order, axis=axis), axis=axis)
    twiddle = _along(fnp.asarray(forward, dtype=spectrum.dtype), x.ndim, axis)
    y = (2 * fnp.real(spectrum * twiddle)).astype(real_dtype)
    if norm == "ortho":
        y = y * _along(fnp.asarray(ortho, dtype=real_dtype), x.ndim, axis)
    return y


def _idct_axis(y, axis: int, norm: str | None):
    """Inverse of `_dct_axis`: undo the twiddle (the spectrum of the real reordered signal is
    Hermitian, so ``V[k] = exp(i pi k / 2N) (y[k] - i y[N - k]) / 2`` with ``y[N] = 0``),
    inverse FFT, undo the permutation."""
    n = y.shape[axis]
    _, inverse, _, backward, ortho = _host_constants(n)
    real_dtype = y.dtype
    if norm == "ortho":
        y = y / _along(fnp.asarray(ortho, dtype=real_dtype), y.ndim, axis)
    mirrored = fnp.take(y, np.r_[0, np.arange(n - 1, 0, -1)], axis=axis)  # y[N - k], k = 0 -> y[0]
    first = np.zeros(n)
    first[0] = 1.0
    mirrored = mirrored * _along(fnp.asarray(1.0 - first, dtype=real_dtype), y.ndim, axis)  # y[N] = 0
    complex_dtype = _complex_of(real_dtype)
    twiddle = _along(fnp.asarray(backward, dtype=complex_dtype), y.ndim, axis)
    spectrum = twiddle * (y.astype(complex_dtype) - 1j * mirrored.astype(complex_dtype))
    v = fnp.real(fnp.fft.ifft(spectrum, axis=axis)).astype(real_dtype)
    return fnp.take(v, inverse, axis=axis)


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


def dct(x: ArrayLike, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
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


def idct(x: ArrayLike, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
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


def dctn(x: ArrayLike, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str | None = None) -> Array:
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


def idctn(x: ArrayLike, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None) -> Array:
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
