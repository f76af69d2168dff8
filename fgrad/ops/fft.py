"""The discrete Fourier transform as one primitive, ``fft`` (as JAX's ``lax.fft``).

``fft(x, fft_type, fft_lengths)`` transforms the trailing ``len(fft_lengths)`` axes of ``x``:

* ``"FFT"``: complex -> complex, ``y_k = sum_j x_j e^{-2 pi i jk/n}`` (unnormalized);
* ``"IFFT"``: complex -> complex, the inverse (scaled by ``1/n``);
* ``"RFFT"``: real -> complex, the first ``n//2 + 1`` outputs of ``FFT`` along the last axis;
* ``"IRFFT"``: complex (``n//2 + 1`` along the last axis) -> real of length ``n``, the
  inverse of ``RFFT`` (the imaginary parts of the zero and Nyquist terms are ignored).

Every variant is linear, so its JVP is itself and reverse mode needs only the transposes
(with JAX's convention for complex maps: the transpose under the bilinear pairing
``Re(sum a * b)``):

* ``FFT`` and ``IFFT`` are symmetric matrices: each is its own transpose;
* ``RFFT = slice o FFT o embed``: transpose ``real(FFT(pad(ct)))``;
* ``IRFFT``: ``conj(w * RFFT(ct)) / n`` with Hermitian weights ``w`` = 1 for the zero
  (and, for even ``n``, the Nyquist) term and 2 for the others, which appear twice in the
  full spectrum.

The NumPy-style faces (`fgrad.numpy.fft`) move the transformed axes last, resize them to
``n``/``s`` and apply ``norm`` scaling around this primitive.  Complex dtypes follow NumPy:
float32/complex64 give complex64, everything else complex128.
"""

from __future__ import annotations

from collections.abc import Sequence
from ..typing import Array, ArrayLike

import math

import numpy as np
from ..core.narrow_floats import dtype_kind

from ..core.array import ShapedArray, get_aval
from ..core.constants import constant_like
from ..core.primitive import Primitive
from ..core.rules import defbatch, deflinear
from .elementwise import conj, mul, real
from .shape import bdim_to_front
from .structural import pad

FFT_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")


def complex_dtype(dt) -> np.dtype:
    """NumPy's complex result dtype of an FFT of ``dt`` (complex64 for float32/complex64)."""
    dt = np.dtype(dt)
    return np.dtype(np.complex64) if dt in (np.float32, np.complex64, np.float16) else np.dtype(np.complex128)


def real_dtype(dt) -> np.dtype:
    """The real dtype matching an FFT's complex dtype."""
    return np.dtype(np.float32) if complex_dtype(dt) == np.complex64 else np.dtype(np.float64)


def _check(x: ShapedArray, fft_type: str, fft_lengths: tuple) -> None:
    if fft_type not in FFT_TYPES:
        raise ValueError(f"fft: fft_type must be one of {FFT_TYPES}, got {fft_type!r}")
    k = len(fft_lengths)
    if k == 0 or k > x.ndim:
        raise ValueError(f"fft: {k} fft_lengths for an operand of rank {x.ndim} (shape {x.shape}); "
                         "give one length per transformed trailing axis")
    if any(int(n) < 1 for n in fft_lengths):
        raise ValueError(f"fft: invalid number of FFT data points {tuple(fft_lengths)}; lengths must be >= 1")
    kind = dtype_kind(x.dtype)
    if fft_type in ("FFT", "IFFT", "IRFFT") and kind != "c":
        raise TypeError(f"fft: {fft_type} takes a complex operand, got {x.dtype}; convert it with "
                        "convert_element_type (or use RFFT for real input)")
    if fft_type == "RFFT" and kind != "f":
        raise TypeError(f"fft: RFFT takes a real floating operand, got {x.dtype}; use FFT for complex input")
    trailing = x.shape[x.ndim - k:]
    want = tuple(fft_lengths)
    if fft_type == "IRFFT":
        want = want[:-1] + (want[-1] // 2 + 1,)
    if trailing != want:
        raise ValueError(f"fft: {fft_type} with fft_lengths {tuple(fft_lengths)} needs trailing axes "
                         f"{want}, got operand shape {x.shape}")


def _fft_abstract(x, fft_type, fft_lengths):
    _check(x, fft_type, fft_lengths)
    k = len(fft_lengths)
    lead = x.shape[:x.ndim - k]
    if fft_type == "RFFT":
        last = (fft_lengths[-1] // 2 + 1,)
        return ShapedArray(lead + tuple(fft_lengths[:-1]) + last, complex_dtype(x.dtype))
    if fft_type == "IRFFT":
        return ShapedArray(lead + tuple(fft_lengths), real_dtype(x.dtype))
    return ShapedArray(x.shape, x.dtype)


def _fft_impl(xp, x, fft_type, fft_lengths):
    _check(ShapedArray(x.shape, x.dtype), fft_type, fft_lengths)
    k = len(fft_lengths)
    axes = tuple(range(x.ndim - k, x.ndim))
    if fft_type == "FFT":
        out = xp.fft.fftn(x, axes=axes)
    elif fft_type == "IFFT":
        out = xp.fft.ifftn(x, axes=axes)
    elif fft_type == "RFFT":
        out = xp.fft.rfftn(x, axes=axes)
        return out.astype(complex_dtype(x.dtype), copy=False)
    else:
        out = xp.fft.irfftn(x, s=tuple(fft_lengths), axes=axes)
        return out.astype(real_dtype(x.dtype), copy=False)
    return out.astype(x.dtype, copy=False)


fft_p = Primitive("fft", _fft_impl, _fft_abstract, family="fft")


def fft(x: ArrayLike, fft_type: str, fft_lengths: Sequence[int]) -> Array:
    """The FFT of the trailing ``len(fft_lengths)`` axes (``jax.lax.fft``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fft(fnp.asarray([1.0, 2.0, 3.0, 4.0]), "RFFT", (4,))
        Array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex128)
    """
    if isinstance(fft_type, str):
        fft_type = fft_type.upper()
    else:  # an enum such as jax.lax.FftType
        fft_type = str(getattr(fft_type, "name", fft_type)).upper()
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=tuple(int(n) for n in fft_lengths))


def _hermitian_weights(ct, n: int):
    """1 for the zero (and even-n Nyquist) term, 2 for the rest, as a vector of n//2+1."""
    m = n // 2 + 1
    w = np.full((m,), 2.0)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    return constant_like(w.astype(real_dtype(get_aval(ct).dtype)), ct)


def _fft_transpose(ct, x, fft_type, fft_lengths):
    n_total = math.prod(fft_lengths)
    if fft_type in ("FFT", "IFFT"):
        return (fft_p.bind(ct, fft_type=fft_type, fft_lengths=fft_lengths),)
    if fft_type == "RFFT":
        n = fft_lengths[-1]
        m = get_aval(ct).shape[-1]
        nd = get_aval(ct).ndim
        zero = constant_like(np.zeros((), get_aval(ct).dtype), ct)
        full = pad(ct, zero, [(0, 0, 0)] * (nd - 1) + [(0, n - m, 0)])
        return (real(fft_p.bind(full, fft_type="FFT", fft_lengths=fft_lengths)),)
    # IRFFT
    spec = fft_p.bind(ct, fft_type="RFFT", fft_lengths=fft_lengths)
    w = _hermitian_weights(ct, fft_lengths[-1])
    out = mul(spec, mul(w, constant_like(np.asarray(1.0 / n_total, w.dtype), ct)))
    return (conj(out),)


def _fft_batch(axis_size, vals, dims, fft_type, fft_lengths):
    (x,), (d,) = vals, dims
    return fft_p.bind(bdim_to_front(x, d, axis_size), fft_type=fft_type, fft_lengths=fft_lengths), 0


deflinear(fft_p, _fft_transpose)
defbatch(fft_p, _fft_batch)

__all__ = ["fft", "fft_p", "FFT_TYPES", "complex_dtype", "real_dtype"]
