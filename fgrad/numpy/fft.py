"""`fgrad.numpy.fft`: NumPy's FFT API over the one `fft` primitive, differentiable.

Each function moves its axes last, zero-pads or truncates them to ``n``/``s``, applies
`fgrad.ops.fft.fft` and scales for ``norm`` (``"backward"``: none forward, ``1/n`` inverse;
``"ortho"``: ``1/sqrt(n)`` both ways; ``"forward"``: ``1/n`` forward, none inverse).
Complex results are complex64 for float32/complex64 input, complex128 otherwise (NumPy 2).

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> x = fnp.asarray([1.0, 2.0, 0.0, -1.0])
    >>> fgrad.grad(lambda x: fnp.sum(fnp.abs(fnp.fft.rfft(x)) ** 2))(x)
    Array([ 6., 10.,  2., -2.], dtype=float64)
"""

from __future__ import annotations

from ..typing import Array, ArrayLike, DTypeLike

import math
from typing import Any, Sequence

from ..backends import Device

import numpy as np
from ..core.inexact import to_inexact_dtype as _to_inexact_dtype
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ..core.narrow_floats import is_narrow as _is_narrow

from ..core.array import get_aval as _get_aval
from ..ops import elementwise as _ew
from ..ops.fft import complex_dtype as _complex_dtype
from ..ops.fft import fft as _fft_prim
from ..ops.fft import real_dtype as _real_dtype
from ..ops.structural import pad as _pad, static_slice as _slice
from ._creation import asarray as _asarray
from ._indexing import roll as _roll
from ._shape import moveaxis as _moveaxis

_NORMS = (None, "backward", "ortho", "forward")


def _arr(a):
    return _asarray(a)


def _check_norm(norm, fn: str) -> None:
    if norm not in _NORMS:
        raise ValueError(f'fgrad.numpy.fft.{fn}: invalid norm value {norm!r}; should be "backward", '
                         '"ortho" or "forward"')


def _scale(x, norm, n: int, inverse: bool):
    """Multiply by the factor ``norm`` asks for beyond the primitive's backward convention."""
    if norm in (None, "backward"):
        return x
    if norm == "ortho":
        f = math.sqrt(n) if inverse else 1.0 / math.sqrt(n)
    else:  # "forward"
        f = float(n) if inverse else 1.0 / n
    return _ew.mul(x, np.asarray(f, _real_dtype(_get_aval(x).dtype)))


def _resize(x, axis: int, n: int):
    """Zero-pad or truncate axis ``axis`` (non-negative) of ``x`` to length ``n``."""
    shp = _get_aval(x).shape
    m = shp[axis]
    if n == m:
        return x
    if n < m:
        limits = list(shp)
        limits[axis] = n
        return _slice(x, (0,) * len(shp), tuple(limits))
    cfg = [(0, 0, 0)] * len(shp)
    cfg[axis] = (0, n - m, 0)
    return _pad(x, np.zeros((), _get_aval(x).dtype), cfg)


def _inexact(dt) -> np.dtype:
    """The dtype an FFT computes ``dt`` in: JAX's inexact dtype (`core.inexact`: integers up
    to 32 bits and bool in float32), 16-bit floats in float32."""
    dt = _to_inexact_dtype(dt)
    return np.dtype(np.float32) if _is_narrow(dt) else dt


def _as_complex(x):
    dt = _get_aval(x).dtype
    if _dtype_kind(dt) not in "biufc":
        raise TypeError(f"fgrad.numpy.fft: unsupported dtype {dt}")
    return _ew.convert_element_type(x, _complex_dtype(_inexact(dt)))


def _as_real(x, fn: str):
    dt = _get_aval(x).dtype
    if _dtype_kind(dt) == "c":
        raise TypeError(f"fgrad.numpy.fft.{fn}: input must be real, got {dt} (as numpy.fft.{fn}); "
                        "use the complex transform (fft/fftn) or pass the real part")
    if _dtype_kind(dt) not in "biuf":
        raise TypeError(f"fgrad.numpy.fft.{fn}: unsupported dtype {dt}")
    return _ew.convert_element_type(x, _real_dtype(_inexact(dt)))


def _cook(a, s, axes, fn: str, inverse_real: bool = False):
    """NumPy's rules for ``s``/``axes``: normalized axes and lengths (numpy/fft/_pocketfft)."""
    shp = _get_aval(a).shape
    nd = len(shp)
    if axes is None:
        axes = list(range(nd)) if s is None else list(range(-len(s), 0))
    else:
        axes = [int(ax) for ax in axes]
    for ax in axes:
        if not -nd <= ax < nd:
            raise np.exceptions.AxisError(f"fgrad.numpy.fft.{fn}: axis {ax} is out of bounds for array of "
                                          f"dimension {nd}")
    axes = [ax % nd for ax in axes]
    if len(set(axes)) != len(axes):
        raise ValueError(f"fgrad.numpy.fft.{fn}: repeated axes {tuple(axes)} are not supported; give "
                         "each axis once")
    if s is None:
        s = [shp[ax] for ax in axes]
        if inverse_real and axes:
            s[-1] = (shp[axes[-1]] - 1) * 2
    else:
        s = [int(v) for v in s]
        if len(s) != len(axes):
            raise ValueError(f"fgrad.numpy.fft.{fn}: shape s {tuple(s)} and axes {tuple(axes)} have "
                             "different lengths")
    for v in s:
        if v < 1:
            raise ValueError(f"fgrad.numpy.fft.{fn}: invalid number of data points ({v}) specified")
    return tuple(s), tuple(axes)


def _nd(a, s, axes, norm, fn: str, fft_type: str):
    """The shared body of every transform: move axes last, resize, transform, move back."""
    _check_norm(norm, fn)
    a = _arr(a)
    real_in = fft_type == "RFFT"
    inverse_real = fft_type == "IRFFT"
    s, axes = _cook(a, s, axes, fn, inverse_real)
    if not axes:
        return a
    a = _as_real(a, fn) if real_in else _as_complex(a)
    nd = _get_aval(a).ndim
    k = len(axes)
    x = _moveaxis(a, axes, tuple(range(nd - k, nd)))
    for i, n in enumerate(s):
        want = n // 2 + 1 if (inverse_real and i == k - 1) else n
        x = _resize(x, nd - k + i, want)
    y = _fft_prim(x, fft_type, s)
    y = _scale(y, norm, math.prod(s), inverse=fft_type in ("IFFT", "IRFFT"))
    return _moveaxis(y, tuple(range(nd - k, nd)), axes)


def _one(a, n, axis, norm, fn, fft_type):
    return _nd(a, None if n is None else (n,), (axis,), norm, fn, fft_type)


def fft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """One-dimensional discrete Fourier transform (``numpy.fft.fft``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.fft(fnp.asarray([1.0, 0.0, 0.0, 0.0]))
        Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex128)
    """
    return _one(a, n, axis, norm, "fft", "FFT")


def ifft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """Inverse of `fft` (``numpy.fft.ifft``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.ifft(fnp.asarray([4.0, 0.0, 0.0, 0.0]))
        Array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex128)
    """
    return _one(a, n, axis, norm, "ifft", "IFFT")


def rfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """FFT of real input, the ``n//2 + 1`` non-negative frequencies (``numpy.fft.rfft``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.rfft(fnp.asarray([1.0, 1.0, 1.0, 1.0]))
        Array([4.+0.j, 0.+0.j, 0.+0.j], dtype=complex128)
    """
    return _one(a, n, axis, norm, "rfft", "RFFT")


def irfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """Inverse of `rfft`: a real signal of length ``n`` (default ``2 (m - 1)``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.irfft(fnp.asarray([4.0, 0.0, 0.0]))
        Array([1., 1., 1., 1.], dtype=float64)
    """
    return _one(a, n, axis, norm, "irfft", "IRFFT")


def _swap(norm):
    return {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}[norm]


def hfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """FFT of a Hermitian-symmetric signal given by its first half: real output
    (``numpy.fft.hfft``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.hfft(fnp.asarray([1.0, 0.0, 0.0]))
        Array([1., 1., 1., 1.], dtype=float64)
    """
    _check_norm(norm, "hfft")
    return irfft(_ew.conj(_as_complex(_arr(a))), n, axis, _swap(norm))


def ihfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """Inverse of `hfft` (``numpy.fft.ihfft``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.ihfft(fnp.asarray([1.0, 1.0, 1.0, 1.0]))
        Array([1.+0.j, 0.+0.j, 0.+0.j], dtype=complex128)
    """
    _check_norm(norm, "ihfft")
    # JAX's order of operations, whose signed zeros the result keeps: the unnormalized rfft,
    # scaled up by ``norm`` (a complex factor), conjugated, then times ``1 / n`` (a complex
    # product: the conjugate's -0 imaginary parts of positive real parts become +0)
    y = rfft(a, n, axis)
    nn = _get_aval(_arr(a)).shape[axis] if n is None else int(n)
    if norm in ("ortho", "forward"):
        y = _ew.mul(y, np.asarray(math.sqrt(nn) if norm == "ortho" else float(nn), _get_aval(y).dtype))
    y = _ew.conj(y)
    return _ew.mul(y, np.asarray(1 / nn, _get_aval(y).dtype))


def fftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str | None = None) -> Array:
    """N-dimensional FFT over ``axes`` (default all, or the last ``len(s)``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.fftn(fnp.ones((2, 2)))
        Array([[4.+0.j, 0.+0.j],
               [0.+0.j, 0.+0.j]], dtype=complex128)
    """
    return _nd(a, s, axes, norm, "fftn", "FFT")


def ifftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None) -> Array:
    """Inverse of `fftn`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.ifftn(fnp.asarray([[4.0, 0.0], [0.0, 0.0]])).real
        Array([[1., 1.],
               [1., 1.]], dtype=float64)
    """
    return _nd(a, s, axes, norm, "ifftn", "IFFT")


def rfftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None) -> Array:
    """N-dimensional FFT of real input; the last axis keeps ``n//2 + 1`` terms.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.rfftn(fnp.ones((2, 2))).shape
        (2, 2)
    """
    return _nd(a, s, axes, norm, "rfftn", "RFFT")


def irfftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: str | None = None) -> Array:
    """Inverse of `rfftn`: real output, last axis of length ``s[-1]`` (default ``2 (m - 1)``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.irfftn(fnp.asarray([[4.0, 0.0], [0.0, 0.0]]))
        Array([[1., 1.],
               [1., 1.]], dtype=float64)
    """
    return _nd(a, s, axes, norm, "irfftn", "IRFFT")


def fft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1),
         norm: str | None = None) -> Array:
    """`fftn` over the last two axes.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.fft2(fnp.ones((2, 2)))[0, 0]
        Array(4.+0.j, dtype=complex128)
    """
    return _nd(a, s, axes, norm, "fft2", "FFT")


def ifft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Array:
    """`ifftn` over the last two axes.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.ifft2(fnp.ones((2, 2)))[0, 0]
        Array(1.+0.j, dtype=complex128)
    """
    return _nd(a, s, axes, norm, "ifft2", "IFFT")


def rfft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1),
          norm: str | None = None) -> Array:
    """`rfftn` over the last two axes.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.rfft2(fnp.ones((2, 4))).shape
        (2, 3)
    """
    return _nd(a, s, axes, norm, "rfft2", "RFFT")


def irfft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1),
           norm: str | None = None) -> Array:
    """`irfftn` over the last two axes.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.irfft2(fnp.ones((2, 3))).shape
        (2, 4)
    """
    return _nd(a, s, axes, norm, "irfft2", "IRFFT")


def _freq_dtype(dtype):
    return np.dtype(np.float64) if dtype is None else np.dtype(dtype)


def _spacing_times(d, n: int):
    """``d * n``: a Python number stays one (weak, so it goes with the frequencies' device)."""
    if isinstance(d, (int, float)) and not isinstance(d, bool):
        return float(d) * n
    return _ew.mul(d, float(n))


def fftfreq(n: int, d=1.0, *, dtype: DTypeLike | None = None, device: Device | str | None = None) -> Array:
    """Sample frequencies of `fft`: ``[0, 1, ..., n/2-1, -n/2, ..., -1] / (d n)``; differentiable
    in ``d``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.fftfreq(4, 0.5)
        Array([ 0. ,  0.5, -1. , -0.5], dtype=float64)
    """
    n = int(n)
    k = np.fft.fftfreq(n) * n  # exact integers
    return _ew.div(_asarray(k.astype(_freq_dtype(dtype)), device=device), _spacing_times(d, n))


def rfftfreq(n: int, d=1.0, *, dtype: DTypeLike | None = None, device: Device | str | None = None) -> Array:
    """Sample frequencies of `rfft`: ``[0, 1, ..., n//2] / (d n)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.rfftfreq(4)
        Array([0.  , 0.25, 0.5 ], dtype=float64)
    """
    n = int(n)
    k = np.arange(n // 2 + 1, dtype=np.float64)
    return _ew.div(_asarray(k.astype(_freq_dtype(dtype)), device=device), _spacing_times(d, n))


def _shift(x, axes, sign: int):
    x = _arr(x)
    shp = _get_aval(x).shape
    if axes is None:
        axes = tuple(range(len(shp)))
    elif isinstance(axes, (int, np.integer)):
        axes = (int(axes),)
    axes = tuple(axes)
    if not axes:
        return x
    shifts = tuple(sign * (shp[ax] // 2) for ax in axes)
    return _roll(x, shifts, axes)


def fftshift(x: ArrayLike, axes: Any = None) -> Array:
    """Move the zero-frequency term to the center (``numpy.fft.fftshift``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.fftshift(fnp.fft.fftfreq(4))
        Array([-0.5 , -0.25,  0.  ,  0.25], dtype=float64)
    """
    return _shift(x, axes, 1)


def ifftshift(x: ArrayLike, axes: Any = None) -> Array:
    """Inverse of `fftshift`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.fft.ifftshift(fnp.asarray([-0.5, -0.25, 0.0, 0.25]))
        Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float64)
    """
    return _shift(x, axes, -1)


__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
           "fftn", "ifftn", "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
