"""`fgrad.scipy.signal`: N-dimensional convolution and correlation (``scipy.signal``
semantics, modes ``full``/``same``/``valid``), differentiable in both inputs; detrending and
spectral analysis (`detrend`, `stft`, `istft`, `welch`, `csd`) as ``jax.scipy.signal``.

Two methods, as SciPy: ``direct`` sums one shifted copy of the larger input per element of
the smaller (at most 64 elements; a bigger one is one ``lax.conv_general_dilated``), ``fft``
multiplies spectra from `fgrad.numpy.fft` (``rfftn``/``irfftn`` for real inputs).  ``auto``
is ``direct``, as JAX's (which never picks the FFT): integer inputs convolve exactly.  Both
are built from differentiable fgrad ops.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.scipy.signal import convolve
    >>> convolve(fnp.asarray([1.0, 2.0, 3.0]), fnp.asarray([0.0, 1.0, 0.5]))
    Array([0. , 1. , 2.5, 4. , 1.5], dtype=float64)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal
from ..typing import Array, ArrayLike

import itertools
import warnings
from collections.abc import Callable

import numpy as np

from .. import numpy as fnp
from ..ops._util import normalize_axis as _normalize_axis
from ..transforms.batching import vmap as _vmap
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ._dtypes import inexact_dtype as _inexact_dtype

_SHIFTED_COPIES_MAX = 64  # a smaller operand convolves as shifted copies, a bigger one as a conv


def _check(in1, in2, mode, method, fn):
    in1, in2 = fnp.asarray(in1), fnp.asarray(in2)
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"fgrad.scipy.signal.{fn}: mode must be 'full', 'same' or 'valid', got {mode!r}")
    if method not in ("auto", "direct", "fft"):
        raise ValueError(f"fgrad.scipy.signal.{fn}: method must be 'auto', 'direct' or 'fft', got {method!r}")
    if in1.ndim != in2.ndim:
        raise ValueError(f"fgrad.scipy.signal.{fn}: in1 and in2 should have the same dimensionality, got "
                         f"shapes {in1.shape} and {in2.shape}")
    if mode == "valid":
        ge = all(a >= b for a, b in zip(in1.shape, in2.shape))
        le = all(a <= b for a, b in zip(in1.shape, in2.shape))
        if not (ge or le):
            raise ValueError(f"fgrad.scipy.signal.{fn}: for 'valid' mode, one input must be at least as "
                             f"large as the other in every dimension, got shapes {in1.shape} and {in2.shape}")
    # JAX promotes to an inexact dtype (promote_dtypes_inexact): integer and bool inputs
    # convolve as floats, int32 and float32 give float32
    dt = _inexact_dtype(in1, in2, kinds="fc")
    return in1.astype(dt), in2.astype(dt)


def _full_direct(a, b):
    """Full convolution ``out[n] = sum_k a[n - k] b[k]``: one shifted, scaled copy of ``a`` per
    element of ``b``."""
    out_shape = tuple(n + m - 1 for n, m in zip(a.shape, b.shape))
    out = None
    for k in itertools.product(*[range(m) for m in b.shape]):
        pads = [(ki, o - n - ki) for ki, o, n in zip(k, out_shape, a.shape)]
        term = fnp.pad(a * b[k], pads)
        out = term if out is None else out + term
    return out


def _full_conv(a, b):
    """The same full convolution as one ``lax.conv_general_dilated`` (a correlation of ``a``,
    padded by ``m - 1`` on each side, with ``b`` flipped): for big real operands, where one
    shifted copy per element of ``b`` is too many array operations."""
    from .. import lax  # (fgrad.lax imports fgrad.scipy helpers: imported at call time)

    rhs = fnp.flip(b, axis=tuple(range(b.ndim)))
    out = lax.conv_general_dilated(a[None, None], rhs[None, None], (1,) * a.ndim,
                                   [(m - 1, m - 1) for m in b.shape])
    return out[0, 0]


def _full_direct_any(a, b):
    """The direct full convolution (JAX's ``method='direct'``/``'auto'``: no FFT, so integer
    and integer-valued inputs convolve exactly), ``b`` the smaller operand."""
    if b.size <= _SHIFTED_COPIES_MAX or _dtype_kind(a.dtype) == "c":
        return _full_direct(a, b)
    return _full_conv(a, b)


def _full_fft(a, b):
    shape = tuple(n + m - 1 for n, m in zip(a.shape, b.shape))
    axes = tuple(range(a.ndim))
    if _dtype_kind(a.dtype) == "c":
        return fnp.fft.ifftn(fnp.fft.fftn(a, shape, axes) * fnp.fft.fftn(b, shape, axes), shape, axes)
    return fnp.fft.irfftn(fnp.fft.rfftn(a, shape, axes) * fnp.fft.rfftn(b, shape, axes), shape, axes)


def _crop(full, starts, sizes):
    return full[tuple(slice(s, s + n) for s, n in zip(starts, sizes))]


def _convolve(in1, in2, mode, method, fn):
    in1, in2 = _check(in1, in2, mode, method, fn)
    if in1.ndim == 0:
        return in1 * in2
    if in1.size == 0 or in2.size == 0:
        raise ValueError(f"fgrad.scipy.signal.{fn}: inputs must not be empty, got shapes {in1.shape} and "
                         f"{in2.shape}")
    if method in ("auto", "direct"):  # (JAX's 'auto' is direct: it never picks the FFT)
        small_second = in2.size <= in1.size
        full = _full_direct_any(in1, in2) if small_second else _full_direct_any(in2, in1)
    else:
        full = _full_fft(in1, in2)
    if mode == "full":
        return full
    if mode == "same":
        starts = [(f - n) // 2 for f, n in zip(full.shape, in1.shape)]
        return _crop(full, starts, in1.shape)
    sizes = [abs(n - m) + 1 for n, m in zip(in1.shape, in2.shape)]
    starts = [min(n, m) - 1 for n, m in zip(in1.shape, in2.shape)]
    return _crop(full, starts, sizes)


def convolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto", *,
             precision: Any = None) -> Array:
    """N-dimensional convolution of two arrays of equal rank (``scipy.signal.convolve``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> convolve(fnp.asarray([1.0, 2.0, 3.0]), fnp.asarray([1.0, 1.0]), mode="valid")
        Array([3., 5.], dtype=float64)
    """
    return _convolve(in1, in2, mode, method, "convolve")


def _flip_conj(x):
    x = fnp.asarray(x)
    if x.ndim:
        x = fnp.flip(x)
    return fnp.conj(x) if _dtype_kind(x.dtype) == "c" else x


def correlate(in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto", *,
              precision: Any = None) -> Array:
    """N-dimensional cross-correlation ``z[k] = sum_l in1[l + k - K] conj(in2[l])``
    (``scipy.signal.correlate``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> correlate(fnp.asarray([1.0, 2.0, 3.0]), fnp.asarray([1.0, 0.5]), mode="valid")
        Array([2. , 3.5], dtype=float64)
    """
    in1, in2 = fnp.asarray(in1), fnp.asarray(in2)
    if mode == "valid" and in1.ndim == in2.ndim and in1.ndim and all(
            a <= b for a, b in zip(in1.shape, in2.shape)) and in1.shape != in2.shape:
        # SciPy swaps the inputs when in2 is the larger one: z = reverse(conj(correlate(in2, in1)))
        return _flip_conj(_convolve(in2, _flip_conj(in1), mode, method, "correlate"))
    return _convolve(in1, _flip_conj(in2), mode, method, "correlate")


def _check_2d(in1, in2, boundary, fillvalue, fn):
    in1, in2 = fnp.asarray(in1), fnp.asarray(in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError(f"fgrad.scipy.signal.{fn}: inputs must be 2-d, got shapes {in1.shape} and "
                         f"{in2.shape}")
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"fgrad.scipy.signal.{fn}: only boundary='fill' with fillvalue=0 is "
                                  "supported (as jax.scipy.signal)")
    return in1, in2


def convolve2d(in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill",
               fillvalue: ArrayLike = 0, *, precision: Any = None) -> Array:
    """Two-dimensional convolution (zero fill at the boundary).

    Example::

        >>> import fgrad.numpy as fnp
        >>> convolve2d(fnp.ones((2, 2)), fnp.ones((1, 1)))
        Array([[1., 1.],
               [1., 1.]], dtype=float64)
    """
    in1, in2 = _check_2d(in1, in2, boundary, fillvalue, "convolve2d")
    return _convolve(in1, in2, mode, "direct", "convolve2d")  # (JAX's: direct, never the FFT)


def correlate2d(in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill",
                fillvalue: ArrayLike = 0, *, precision: Any = None) -> Array:
    """Two-dimensional cross-correlation (zero fill at the boundary).

    Example::

        >>> import fgrad.numpy as fnp
        >>> correlate2d(fnp.ones((2, 2)), fnp.ones((1, 1)))
        Array([[1., 1.],
               [1., 1.]], dtype=float64)
    """
    in1, in2 = _check_2d(in1, in2, boundary, fillvalue, "correlate2d")
    if mode != "same":
        return correlate(in1, in2, mode)
    # SciPy centres correlate2d's 'same' output with the extra element on the left (ceil),
    # unlike correlate's 'same' (floor); they differ for even kernel sizes
    full = correlate(in1, in2, "full")
    return _crop(full, [(f - n + 1) // 2 for f, n in zip(full.shape, in1.shape)], in1.shape)


def fftconvolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full",
                axes: int | Sequence[int] | None = None) -> Array:
    """Convolution through the FFT (``scipy.signal.fftconvolve``).  With ``axes``, the
    convolution runs along those axes only, separately for each index of the others, whose
    lengths must then agree (as in JAX, which maps over them; no broadcasting).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fftconvolve(fnp.asarray([1.0, 2.0]), fnp.asarray([1.0, 1.0]))
        Array([1., 3., 2.], dtype=float64)
        >>> fftconvolve(fnp.ones((2, 3)), fnp.asarray([[1.0, 1.0], [0.0, 2.0]]), axes=1)
        Array([[1., 2., 2., 1.],
               [0., 2., 2., 2.]], dtype=float64)
    """
    def conv(a, b):
        return _convolve(a, b, mode, "fft", "fftconvolve")

    if axes is None:
        return conv(in1, in2)
    in1, in2 = fnp.asarray(in1), fnp.asarray(in2)
    if in1.ndim != in2.ndim:
        raise ValueError(f"fgrad.scipy.signal.fftconvolve: in1 and in2 should have the same dimensionality, "
                         f"got shapes {in1.shape} and {in2.shape}")
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    axes = tuple(_normalize_axis(ax, in1.ndim, "fgrad.scipy.signal.fftconvolve") for ax in axes)
    mapped = sorted(set(range(in1.ndim)) - set(axes))
    if any(in1.shape[i] != in2.shape[i] for i in mapped):
        raise ValueError(f"fgrad.scipy.signal.fftconvolve: mapped axes must have same shape; got shapes "
                         f"{in1.shape} and {in2.shape} with axes={axes} (the axes not convolved must agree)")
    for ax in mapped:  # innermost first, as JAX nests its vmaps
        conv = _vmap(conv, in_axes=ax, out_axes=ax)
    return conv(in1, in2)


__all__ = ["convolve", "correlate", "convolve2d", "correlate2d", "fftconvolve", "detrend", "stft", "istft",
           "welch", "csd"]


# -- detrending and spectral analysis ------------------------------------------------------------

def _inexact(x):
    x = fnp.asarray(x)
    return x if _dtype_kind(x.dtype) in "fc" else x.astype(_inexact_dtype(x))


def _linear_trend_projection(n: int) -> np.ndarray:
    """The ``n x n`` projection onto ``span(1, t)``: ``P d`` is the least-squares line through ``d``."""
    a = np.stack([np.ones(n), np.arange(1, n + 1) / n], axis=1)
    return a @ np.linalg.pinv(a)


def detrend(data: ArrayLike, axis: int = -1, type: str = "linear", bp: ArrayLike | Sequence[int] = 0,
            overwrite_data: None = None) -> Array:
    """Remove the least-squares line (``type="linear"``, piecewise between the breakpoints
    ``bp``) or the mean (``"constant"``) along ``axis`` (``scipy.signal.detrend``).  A linear
    map of ``data``: each piece is ``d - P d`` with ``P`` the projection onto the lines.

    Example::

        >>> import fgrad.numpy as fnp
        >>> detrend(fnp.asarray([1.0, 4.0, 8.0, 8.0, 9.0])).round(12) + 0.0
        Array([-1.,  0.,  2.,  0., -1.], dtype=float64)
    """
    if overwrite_data is not None:
        raise NotImplementedError("fgrad.scipy.signal.detrend: overwrite_data is not supported; pass None")
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError(f"fgrad.scipy.signal.detrend: trend type must be 'linear' or 'constant', "
                         f"got {type!r}")
    data = _inexact(data)
    if data.ndim == 0:
        raise ValueError("fgrad.scipy.signal.detrend: data must have at least one dimension")
    if type in ("constant", "c"):
        return data - fnp.mean(data, axis=axis, keepdims=True)
    n = data.shape[axis]
    breaks = np.sort(np.unique(np.r_[0, np.asarray(bp, dtype=np.int64).ravel(), n]))
    if breaks[0] < 0 or breaks[-1] > n:
        raise ValueError(f"fgrad.scipy.signal.detrend: breakpoints must be non-negative and at most the "
                         f"length of the data along the axis ({n}), got bp={bp!r}")
    moved = fnp.moveaxis(data, axis, -1)
    pieces = []
    for lo, hi in zip(breaks[:-1], breaks[1:]):
        seg = moved[..., int(lo):int(hi)]
        proj = fnp.asarray(_linear_trend_projection(int(hi - lo)), dtype=_real_dtype(data.dtype))
        pieces.append(seg - fnp.matmul(seg, proj))
    out = fnp.concatenate(pieces, axis=-1) if len(pieces) > 1 else pieces[0]
    return fnp.moveaxis(out, -1, axis)


def _real_dtype(dt) -> np.dtype:
    dt = np.dtype(dt)
    return {np.dtype(np.complex64): np.dtype(np.float32),
            np.dtype(np.complex128): np.dtype(np.float64)}.get(dt, dt)


def _complex_dtype(dt) -> np.dtype:
    return np.dtype(np.complex64) if np.dtype(dt) in (np.float32, np.complex64) else np.dtype(np.complex128)


def _periodic_window(name: str, n: int) -> np.ndarray | None:
    """SciPy's ``get_window(name, n)`` (periodic, for spectral analysis) of the common windows."""
    k = 2 * np.pi * np.arange(n) / n
    if name in ("hann", "hanning", "han"):
        return 0.5 - 0.5 * np.cos(k)
    if name in ("hamming", "hamm", "ham"):
        return 0.54 - 0.46 * np.cos(k)
    if name in ("blackman", "black", "blk"):
        return 0.42 - 0.5 * np.cos(k) + 0.08 * np.cos(2 * k)
    if name in ("boxcar", "box", "ones", "rect", "rectangular"):
        return np.ones(n)
    if name in ("bartlett", "bart", "brt"):
        return 1 - np.abs(2 * np.arange(n) / n - 1)
    return None


def _window(window, nperseg: int | None, input_length: int, dtype, fn: str):
    """The window array and the segment length (SciPy's ``_triage_segments``): a name (or a
    ``(name, param)`` tuple) gives a periodic window of ``nperseg`` samples (256 by default,
    at most the input length); an array is used as is and sets ``nperseg``."""
    if isinstance(window, (str, tuple)):
        n = 256 if nperseg is None else int(nperseg)
        if n > input_length:
            if nperseg is not None:
                warnings.warn(f"fgrad.scipy.signal.{fn}: nperseg={n} is greater than input length="
                              f"{input_length}, using nperseg={input_length}", UserWarning, stacklevel=3)
            n = input_length
        win = _periodic_window(window, n) if isinstance(window, str) else None
        if win is None:
            try:
                from scipy.signal import get_window  # optional: only for the less common windows
            except ImportError as err:
                raise ImportError(f"fgrad.scipy.signal.{fn}: window={window!r} needs SciPy (install scipy), "
                                  "or pass 'hann', 'hamming', 'blackman', 'boxcar', 'bartlett' or an "
                                  "array") from err
            win = get_window(window, n)
        return fnp.asarray(win, dtype=dtype), n
    win = fnp.asarray(window).astype(dtype)
    if win.ndim != 1:
        raise ValueError(f"fgrad.scipy.signal.{fn}: window must be 1-D, got shape {win.shape}")
    if input_length < win.shape[0]:
        raise ValueError(f"fgrad.scipy.signal.{fn}: window (length {win.shape[0]}) is longer than the input "
                         f"signal ({input_length})")
    if nperseg is not None and int(nperseg) != win.shape[0]:
        raise ValueError(f"fgrad.scipy.signal.{fn}: nperseg={nperseg} differs from the window's length "
                         f"{win.shape[0]}")
    return win, win.shape[0]


def _odd_extension(x, n: int):
    if n < 1:
        return x
    if n > x.shape[-1] - 1:
        raise ValueError(f"fgrad.scipy.signal: the odd extension length {n} is too big; it must not exceed "
                         f"the signal length - 1 = {x.shape[-1] - 1}")
    left = 2 * x[..., :1] - fnp.flip(x[..., 1:n + 1], axis=-1)
    right = 2 * x[..., -1:] - fnp.flip(x[..., -n - 1:-1], axis=-1)
    return fnp.concatenate([left, x, right], axis=-1)


def _extend(x, n: int, boundary):
    pads = [(0, 0)] * (x.ndim - 1) + [(n, n)]
    if boundary == "zeros":
        return fnp.pad(x, pads)
    if boundary == "even":
        return fnp.pad(x, pads, mode="reflect")
    if boundary == "constant":
        return fnp.pad(x, pads, mode="edge")
    return _odd_extension(x, n)


_BOUNDARIES = ("even", "odd", "constant", "zeros", None)


def _segments(x, nperseg: int, step: int):
    """``(..., nseg, nperseg)``: the overlapping segments of the last axis (one gather)."""
    nseg = (x.shape[-1] - nperseg) // step + 1
    index = np.arange(nseg)[:, None] * step + np.arange(nperseg)[None, :]
    return x[..., index]


def _windowed_fft(x, win, detrend_func: Callable, nperseg: int, step: int, nfft: int, sides: str):
    segments = detrend_func(_segments(x, nperseg, step))
    segments = segments * win
    if sides == "twosided":
        return fnp.fft.fft(segments, n=nfft)
    return fnp.fft.rfft(fnp.real(segments) if _dtype_kind(segments.dtype) == "c" else segments, n=nfft)


def _detrend_function(detrend_type, fn: str) -> Callable:
    if isinstance(detrend_type, str):
        return lambda d: detrend(d, axis=-1, type=detrend_type)
    if callable(detrend_type):
        return detrend_type
    if not detrend_type:
        return lambda d: d
    raise ValueError(f"fgrad.scipy.signal.{fn}: unsupported detrend {detrend_type!r}; pass 'constant', "
                     "'linear', False or a function")


def _spectral(x, y, fs, window, nperseg, noverlap, nfft, detrend_type, return_onesided: bool,
              scaling: str, axis: int, mode: str, boundary, padded: bool, fn: str):
    """SciPy's ``_spectral_helper``: (frequencies, segment times, windowed FFTs or their
    (cross) power), the segment axis last and the frequency axis at ``axis``."""
    if boundary not in _BOUNDARIES:
        raise ValueError(f"fgrad.scipy.signal.{fn}: unknown boundary option {boundary!r}, must be one of "
                         f"{list(_BOUNDARIES)}")
    if scaling not in ("density", "spectrum"):
        raise ValueError(f"fgrad.scipy.signal.{fn}: unknown scaling {scaling!r}; use 'density' or 'spectrum'")
    x = _inexact(x)
    if x.ndim == 0:
        raise ValueError(f"fgrad.scipy.signal.{fn}: x must have at least one dimension")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"fgrad.scipy.signal.{fn}: axis {axis} is out of bounds for shape {x.shape}")
    axis %= x.ndim
    if y is not None:
        y = _inexact(y)
        dt = np.result_type(x.dtype, y.dtype)
        x, y = x.astype(dt), y.astype(dt)
        if x.ndim != y.ndim:
            raise ValueError(f"fgrad.scipy.signal.{fn}: x and y must have the same rank, got shapes "
                             f"{x.shape} and {y.shape}")
    if nperseg is not None and int(nperseg) < 1:
        raise ValueError(f"fgrad.scipy.signal.{fn}: nperseg must be a positive integer, got {nperseg}")
    result_dtype = _complex_dtype(x.dtype)
    freq_dtype = _real_dtype(result_dtype)
    x = fnp.moveaxis(x, axis, -1)
    if y is not None:
        y = fnp.moveaxis(y, axis, -1)
        if x.shape[-1] != y.shape[-1]:
            longest = max(x.shape[-1], y.shape[-1])
            x = fnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, longest - x.shape[-1])])
            y = fnp.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, longest - y.shape[-1])])
    win, nperseg = _window(window, nperseg, x.shape[-1], freq_dtype, fn)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    nfft = nperseg if nfft is None else int(nfft)
    if nfft < nperseg:
        raise ValueError(f"fgrad.scipy.signal.{fn}: nfft ({nfft}) must be greater than or equal to nperseg "
                         f"({nperseg})")
    if noverlap >= nperseg:
        raise ValueError(f"fgrad.scipy.signal.{fn}: noverlap ({noverlap}) must be less than nperseg "
                         f"({nperseg})")
    step = nperseg - noverlap
    if boundary is not None:
        x = _extend(x, nperseg // 2, boundary)
        if y is not None:
            y = _extend(y, nperseg // 2, boundary)
    if padded:
        extra = (-(x.shape[-1] - nperseg) % step) % nperseg
        x = fnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, extra)])
        if y is not None:
            y = fnp.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, extra)])
    detrend_func = _detrend_function(detrend_type, fn)
    scale = 1.0 / (fs * fnp.sum(win * win)) if scaling == "density" else 1.0 / fnp.sum(win) ** 2
    if mode == "stft":
        scale = fnp.sqrt(scale)
    sides = "onesided" if return_onesided else "twosided"
    if return_onesided and (_dtype_kind(x.dtype) == "c" or (y is not None and _dtype_kind(y.dtype) == "c")):
        sides = "twosided"
        warnings.warn(f"fgrad.scipy.signal.{fn}: input data is complex, switching to return_onesided=False",
                      UserWarning, stacklevel=3)
    freqs = (fnp.fft.fftfreq(nfft, 1 / fs) if sides == "twosided" else fnp.fft.rfftfreq(nfft, 1 / fs))
    freqs = freqs.astype(freq_dtype)
    result = _windowed_fft(x, win, detrend_func, nperseg, step, nfft, sides)
    if y is not None:
        result = fnp.conj(result) * _windowed_fft(y, win, detrend_func, nperseg, step, nfft, sides)
    elif mode == "psd":
        result = fnp.conj(result) * result
    result = result * scale
    if sides == "onesided" and mode == "psd":
        double = np.full(result.shape[-1], 2.0)
        double[0] = 1.0
        if nfft % 2 == 0:
            double[-1] = 1.0
        result = result * fnp.asarray(double, dtype=freq_dtype)
    times = np.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, step)
    if boundary is not None:
        times = times - nperseg / 2
    times = fnp.asarray(times, dtype=freq_dtype) / fs
    result = result.astype(result_dtype)
    if y is None and mode != "stft":
        result = fnp.real(result)
    # (..., segments, frequencies) -> frequencies at `axis`, segments last
    result = fnp.moveaxis(result, -1, axis)
    return freqs, times, result


def stft(x: ArrayLike, fs: ArrayLike = 1.0, window: str | tuple | ArrayLike = "hann", nperseg: int = 256,
         noverlap: int | None = None, nfft: int | None = None,
         detrend: str | Literal[False] | Callable = False, return_onesided: bool = True,
         boundary: str | None = "zeros", padded: bool = True, axis: int = -1) -> tuple[Array, Array, Array]:
    """Short-time Fourier transform (``scipy.signal.stft``): ``(f, t, Zxx)``, the frequencies,
    the segment times and the spectra (frequency axis at ``axis``, segments last), scaled by
    ``1 / sum(window)``.  ``nperseg`` larger than the signal is reduced to its length.

    Example::

        >>> import fgrad.numpy as fnp
        >>> f, t, z = stft(fnp.asarray([1.0, 2.0, 3.0, 2.0, 1.0, 0.0, 1.0, 2.0]), nperseg=4)
        >>> z.shape, t
        ((3, 5), Array([0., 2., 4., 6., 8.], dtype=float64))
    """
    return _spectral(x, None, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, "spectrum", axis,
                     "stft", boundary, padded, "stft")


def csd(x: ArrayLike, y: ArrayLike | None, fs: ArrayLike = 1.0, window: str | tuple | ArrayLike = "hann",
        nperseg: int | None = None, noverlap: int | None = None, nfft: int | None = None,
        detrend: str | Literal[False] | Callable = "constant", return_onesided: bool = True,
        scaling: str = "density", axis: int = -1, average: str = "mean") -> tuple[Array, Array]:
    """Cross power spectral density by Welch's method (``scipy.signal.csd``): ``(f, Pxy)``, the
    average (``"mean"`` or bias-corrected ``"median"``) of ``conj(X) Y`` over the segments.
    ``y=None`` computes the power spectral density of ``x`` (real).  ``nperseg`` defaults to
    256 (at most the signal length), as SciPy.

    Example::

        >>> import fgrad.numpy as fnp
        >>> f, p = csd(fnp.asarray([0.0, 1.0, 0.0, -1.0] * 4), fnp.asarray([1.0, 0.0, -1.0, 0.0] * 4),
        ...            nperseg=8)
        >>> p.imag[1:4]
        Array([0.66666667, 2.66666667, 0.66666667], dtype=float64)
    """
    if average not in ("mean", "median"):
        raise ValueError(f"fgrad.scipy.signal.csd: average must be 'median' or 'mean', got {average!r}")
    freqs, _, pxy = _spectral(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                              axis, "psd", None, False, "csd")
    if y is not None and _dtype_kind(pxy.dtype) != "c":
        pxy = pxy.astype(_complex_dtype(pxy.dtype))
    if pxy.ndim >= 2 and pxy.size > 0:
        if pxy.shape[-1] > 1:
            if average == "median":
                n = pxy.shape[-1]
                even = np.arange(2.0, n, 2)
                bias = 1 + np.sum(1.0 / (even + 1) - 1.0 / even)
                if _dtype_kind(pxy.dtype) == "c":
                    pxy = fnp.median(fnp.real(pxy), axis=-1) + 1j * fnp.median(fnp.imag(pxy), axis=-1)
                else:
                    pxy = fnp.median(pxy, axis=-1)
                pxy = pxy / bias
            else:
                pxy = fnp.mean(pxy, axis=-1)
        else:
            pxy = pxy.reshape(pxy.shape[:-1])
    return freqs, pxy


def welch(x: ArrayLike, fs: ArrayLike = 1.0, window: str | tuple | ArrayLike = "hann",
          nperseg: int | None = None, noverlap: int | None = None, nfft: int | None = None,
          detrend: str | Literal[False] | Callable = "constant", return_onesided: bool = True,
          scaling: str = "density", axis: int = -1, average: str = "mean") -> tuple[Array, Array]:
    """Power spectral density by Welch's method (``scipy.signal.welch``): ``(f, Pxx)``, the mean
    (or median) of the segments' modified periodograms.

    Example::

        >>> import fgrad.numpy as fnp
        >>> f, p = welch(fnp.asarray([0.0, 1.0, 0.0, -1.0] * 4), nperseg=8)
        >>> f
        Array([0.   , 0.125, 0.25 , 0.375, 0.5  ], dtype=float64)
        >>> p[1:4]
        Array([0.66666667, 2.66666667, 0.66666667], dtype=float64)
    """
    freqs, pxx = csd(x, None, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
                     detrend=detrend, return_onesided=return_onesided, scaling=scaling, axis=axis,
                     average=average)
    return freqs, fnp.real(pxx)


def _overlap_add(frames, step: int):
    """``out[n step + j] += frames[..., n, j]`` for frames of shape ``(..., nframes, length)``,
    written as ``ceil(length / step)`` shifted block sums (no scatter)."""
    *batch, nframes, length = frames.shape
    blocks = -(-length // step)
    frames = fnp.pad(frames, [(0, 0)] * len(batch) + [(0, 0), (0, blocks * step - length)])
    frames = frames.reshape(*batch, nframes, blocks, step)
    total = None
    for q in range(blocks):
        shifted = fnp.pad(frames[..., q, :], [(0, 0)] * len(batch) + [(q, blocks - 1 - q), (0, 0)])
        total = shifted if total is None else total + shifted
    out = total.reshape(*batch, (nframes + blocks - 1) * step)
    return out[..., :step * (nframes - 1) + length]


def istft(Zxx: ArrayLike, fs: ArrayLike = 1.0, window: str | tuple | ArrayLike = "hann",
          nperseg: int | None = None, noverlap: int | None = None, nfft: int | None = None,
          input_onesided: bool = True, boundary: bool = True, time_axis: int = -1,
          freq_axis: int = -2) -> tuple[Array, Array]:
    """Inverse short-time Fourier transform (``scipy.signal.istft``): ``(t, x)``, the signal
    recovered from `stft`'s output by inverse FFTs and a window-normalized overlap-add.

    Example::

        >>> import fgrad.numpy as fnp
        >>> x = fnp.asarray([1.0, 2.0, 3.0, 2.0, 1.0, 0.0, 1.0, 2.0])
        >>> istft(stft(x, nperseg=4)[2], nperseg=4)[1].round(12) + 0.0
        Array([1., 2., 3., 2., 1., 0., 1., 2.], dtype=float64)
    """
    Zxx = fnp.asarray(Zxx)
    if Zxx.ndim < 2:
        raise ValueError(f"fgrad.scipy.signal.istft: input stft must be at least 2-d, got shape {Zxx.shape}")
    for name, ax in (("freq_axis", freq_axis), ("time_axis", time_axis)):
        if not -Zxx.ndim <= ax < Zxx.ndim:
            raise ValueError(f"fgrad.scipy.signal.istft: {name}={ax} is out of bounds for shape {Zxx.shape}")
    freq_axis, time_axis = freq_axis % Zxx.ndim, time_axis % Zxx.ndim
    if freq_axis == time_axis:
        raise ValueError("fgrad.scipy.signal.istft: must specify differing time and frequency axes")
    Zxx = Zxx.astype(_complex_dtype(Zxx.dtype if _dtype_kind(Zxx.dtype) in "fc" else np.float64))
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else Zxx.shape[freq_axis]
    nperseg = n_default if nperseg is None else int(nperseg)
    if nperseg < 1:
        raise ValueError(f"fgrad.scipy.signal.istft: nperseg must be a positive integer, got {nperseg}")
    if nfft is None:
        nfft = n_default + 1 if (input_onesided and nperseg == n_default + 1) else n_default
    else:
        nfft = int(nfft)
    if nfft < nperseg:
        raise ValueError(f"fgrad.scipy.signal.istft: FFT length ({nfft}) must be at least nperseg "
                         f"({nperseg})")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError(f"fgrad.scipy.signal.istft: noverlap ({noverlap}) must be less than nperseg "
                         f"({nperseg})")
    step = nperseg - noverlap
    outer = [i for i in range(Zxx.ndim) if i not in (freq_axis, time_axis)]
    Zxx = fnp.transpose(Zxx, outer + [time_axis, freq_axis])  # (..., segments, frequencies)
    real_dtype = _real_dtype(Zxx.dtype)
    if input_onesided:
        frames = fnp.fft.irfft(Zxx, n=nfft, axis=-1)[..., :nperseg]
    else:
        frames = fnp.fft.ifft(Zxx, n=nfft, axis=-1)[..., :nperseg]
    win, _ = _window(window, nperseg, nperseg, real_dtype, "istft")
    frames = frames * fnp.sum(win)  # undo stft's 'spectrum' scaling
    x = _overlap_add(frames * win, step)
    norm = _overlap_add(fnp.broadcast_to(win * win, (Zxx.shape[-2], nperseg)), step)
    if boundary:
        half = nperseg // 2
        x = x[..., half:-half] if half else x[..., :0]
        norm = norm[..., half:-half] if half else norm[..., :0]
    x = x / fnp.where(norm > 1e-10, norm, 1.0)
    if x.ndim > 1 and time_axis != Zxx.ndim - 1:
        target = time_axis - 1 if freq_axis < time_axis else time_axis
        x = fnp.moveaxis(x, -1, target)
    times = fnp.arange(x.shape[0], dtype=real_dtype) / fs
    return times, x
