"""Short-time Fourier transforms (``torch.stft``/``torch.istft``) and the window functions
(``hann_window``, ``hamming_window``, ``blackman_window``, ``bartlett_window``,
``kaiser_window``) with PyTorch's arguments, shapes, dtypes and errors.

``stft`` and ``istft`` are compositions of recorded ops (``pad``, ``unfold``, ``mul``,
`fgrad.torch.fft` transforms, ``index_add``), so their gradients are those ops' rules.

Example::

    >>> import fgrad.torch as torch
    >>> torch.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
"""

from __future__ import annotations

from typing import Any

import math
import warnings

import numpy as np

import fgrad.torch as torch
import fgrad.torch.types as types

from ._tensor import Tensor

# -- windows -----------------------------------------------------------------------------


def _window(
    name: str, window_length: int, periodic: bool, dtype, layout, device, requires_grad, values
) -> Tensor:
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    dt = torch.get_default_dtype() if dtype is None else dtype
    if not dt.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: {str(dt).replace('torch.', '')}")
    if window_length == 0:
        w = np.zeros(0)
    elif window_length == 1:
        w = np.ones(1)
    else:
        m = window_length + 1 if periodic else window_length
        w = values(_Rounded(dt), np.arange(m), m)[:window_length]
    return torch.tensor(w, dtype=dt, device=device, requires_grad=requires_grad)


class _Rounded:
    """Arithmetic as PyTorch's window factories do it: each step in the window's dtype (float32
    for a float32 window, so ``blackman_window(8, periodic=False)`` ends in -2.9802e-08 as
    PyTorch's, not 0); in float32 for the 16-bit dtypes, rounded once at the end."""

    def __init__(self, dt) -> None:
        self.work = np.float64 if dt == torch.float64 else np.float32

    def __call__(self, x):
        """``x`` rounded to the window's dtype, held in the working precision."""
        return np.asarray(x, dtype=self.work)

    def scalar(self, v: float):
        return self.work(v)

    def cos(self, x):
        """``cos`` correctly rounded to the window's dtype (as PyTorch's vectorised cos, to
        within its last bit)."""
        return self(np.cos(np.asarray(x, dtype=np.float64)))


def _hamming(r, n, m, alpha, beta):
    """PyTorch's steps: ``arange * (2 pi / (N - 1))``, ``cos``, ``* -beta``, ``+ alpha``."""
    a = r(r(n) * r.scalar(2.0 * math.pi / (m - 1)))
    return r(r(r.cos(a) * r.scalar(-beta)) + r.scalar(alpha))


def _bartlett(r, n, m):
    """PyTorch's steps: ``arange * (2 / (N - 1))``, then ``2 - w`` on the second half."""
    w = r(r(n) * r.scalar(2.0 / (m - 1)))
    half = ((m - 1) >> 1) + 1
    w[half:] = r(r(-w[half:]) + r.scalar(2.0))
    return w


def hann_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype: types.DType | None = None,
    layout: Any = None,
    device: types.Device = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Hann window ``0.5 - 0.5 cos(2 pi n / (N - 1))`` (``N = window_length + 1`` when
    ``periodic``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.hann_window(5, periodic=False)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    return _window(
        "hann_window",
        window_length,
        periodic,
        dtype,
        layout,
        device,
        requires_grad,
        lambda r, n, m: _hamming(r, n, m, 0.5, 0.5),
    )


def hamming_window(
    window_length: int,
    periodic: bool = True,
    alpha: float = 0.54,
    beta: float = 0.46,
    *,
    dtype: types.DType | None = None,
    layout: Any = None,
    device: types.Device = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Hamming window ``alpha - beta cos(2 pi n / (N - 1))``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.hamming_window(4)
        tensor([0.0800, 0.5400, 1.0000, 0.5400])
    """
    return _window(
        "hamming_window",
        window_length,
        periodic,
        dtype,
        layout,
        device,
        requires_grad,
        lambda r, n, m: _hamming(r, n, m, alpha, beta),
    )


def blackman_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype: types.DType | None = None,
    layout: Any = None,
    device: types.Device = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.blackman_window(3, periodic=False, dtype=torch.float64)
        tensor([0., 1., 0.], dtype=torch.float64)
    """

    def values(r, n, m):  # PyTorch's steps: a = n * (pi / (N - 1)); 0.08 cos(4a) - 0.5 cos(2a) + 0.42
        a = r(r(n) * r.scalar(math.pi / (m - 1)))
        return r(r(r(0.08) * r.cos(r(a * 4))) - r(r(0.5) * r.cos(r(a * 2))) + r(0.42))

    return _window("blackman_window", window_length, periodic, dtype, layout, device, requires_grad, values)


def bartlett_window(
    window_length: int,
    periodic: bool = True,
    *,
    dtype: types.DType | None = None,
    layout: Any = None,
    device: types.Device = None,
    requires_grad: bool = False,
) -> Tensor:
    """The triangular Bartlett window ``1 - |2 n / (N - 1) - 1|``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.bartlett_window(4)
        tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    return _window(
        "bartlett_window",
        window_length,
        periodic,
        dtype,
        layout,
        device,
        requires_grad,
        _bartlett,
    )


def kaiser_window(
    window_length: int,
    periodic: bool = True,
    beta: float = 12.0,
    *,
    dtype: types.DType | None = None,
    layout: Any = None,
    device: types.Device = None,
    requires_grad: bool = False,
) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - (2 n / (N - 1) - 1)^2)) / I0(beta)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.kaiser_window(3, periodic=False, beta=0.0)
        tensor([1., 1., 1.])
    """

    def values(rounded, n, m):
        r = 2.0 * n / (m - 1) - 1.0
        return np.i0(beta * np.sqrt(np.maximum(1.0 - r * r, 0.0))) / np.i0(beta)

    return _window("kaiser_window", window_length, periodic, dtype, layout, device, requires_grad, values)


# -- stft / istft ------------------------------------------------------------------------


def _stft_header(x: Tensor, n_fft, hop, win, window, normalized, onesided, return_complex) -> str:
    win_s = "None" if window is None else f"{window.type()}{{{list(window.shape)}}}"
    return (
        f"stft({x.type()}{list(x.shape)}, n_fft={n_fft}, hop_length={hop}, win_length={win}, "
        f"window={win_s}, normalized={int(normalized)}, onesided={onesided}, "
        f"return_complex={int(bool(return_complex))}, align_to_window=None) : "
    )


def _padded_window(window: Tensor | None, n_fft: int, win_length: int, like: Tensor) -> Tensor | None:
    if window is None:
        return None
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = torch.nn.functional.pad(window, (left, n_fft - win_length - left))
    return window


def stft(
    input: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided: bool | None = None,
    return_complex: bool | None = None,
    align_to_window: bool | None = None,
) -> Tensor:
    """Short-time Fourier transform of a 1-D ``(L,)`` or batched ``(B, L)`` signal: a complex
    ``(B?, n_fft // 2 + 1, frames)`` tensor (``n_fft`` rows when not ``onesided``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.stft(torch.arange(8.0), 4, hop_length=2, window=torch.ones(4), return_complex=True,
        ...            center=False)[:, 0]
        tensor([ 6.+0.j, -2.+2.j, -2.+0.j])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"stft(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    x = input
    if return_complex is None:
        if not x.is_complex() and not (window is not None and window.is_complex()):
            raise RuntimeError(
                "stft requires the return_complex parameter be given for real inputs, and will "
                "further require that return_complex=True in a future PyTorch release."
            )
        return_complex = True
    if not return_complex:
        warnings.warn(
            "stft with return_complex=False is deprecated. In a future pytorch release, stft will "
            "return complex tensors for all inputs, and return_complex=False will raise an error.\n"
            "Note: you can still call torch.view_as_real on the complex output to recover the old "
            "return format.",
            UserWarning,
            stacklevel=2,
        )
    if x.dim() not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got {x.dim()}D tensor")
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(torch.get_default_dtype())
    batched = x.dim() == 2
    if not batched:
        x = x.unsqueeze(0)
    if center:
        p = n_fft // 2
        x = torch.nn.functional.pad(x.unsqueeze(0), (p, p), mode=pad_mode).squeeze(0)
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    length = x.shape[-1]
    head = _stft_header(
        x if batched else x.squeeze(0), n_fft, hop, win, window, normalized, onesided, return_complex
    )
    if not 0 < n_fft <= length:
        raise RuntimeError(head + f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop <= 0:
        raise RuntimeError(head + f"expected hop_length > 0, but got hop_length={hop}")
    if not 0 < win <= n_fft:
        raise RuntimeError(head + f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(
            head + f"expected a 1D window tensor of size equal to win_length={win}, but got "
            f"window with size {list(window.shape)}"
        )
    if window is None:
        warnings.warn(
            "A window was not provided. A rectangular window will be applied,which is known to cause "
            "spectral leakage. Other windows such as torch.hann_window or torch.hamming_window are "
            "recommended to reduce spectral leakage.To suppress this warning and use a rectangular "
            "window, explicitly set `window=torch.ones(n_fft, device=<device>)`.",
            UserWarning,
            stacklevel=2,
        )
    frames = x.unfold(-1, n_fft, hop)  # (B, n_frames, n_fft)
    w = _padded_window(window, n_fft, win, x)
    if w is None and win < n_fft:
        w = _padded_window(
            torch.ones(win, dtype=x.dtype if not x.is_complex() else None, device=x.device), n_fft, win, x
        )
    if w is not None:
        frames = frames * w
    complex_case = x.is_complex() or (window is not None and window.is_complex())
    if onesided is None:
        onesided = not complex_case
    if onesided and complex_case:
        raise RuntimeError(head + "Cannot have onesided output if window or input is complex")
    norm = "ortho" if normalized else "backward"
    spec = torch.fft.rfft(frames, dim=-1, norm=norm) if onesided else torch.fft.fft(frames, dim=-1, norm=norm)
    spec = spec.transpose(-1, -2)
    if not batched:
        spec = spec.squeeze(0)
    return spec if return_complex else torch.view_as_real(spec)


def istft(
    input: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    normalized: bool = False,
    onesided: bool | None = None,
    length: int | None = None,
    return_complex: bool = False,
) -> Tensor:
    """Inverse of `stft` by windowed overlap-add (``input``: complex ``(B?, freq, frames)``).

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.hann_window(4)
        >>> s = torch.stft(torch.arange(8.0), 4, window=w, return_complex=True)
        >>> torch.istft(s, 4, window=w, length=8)
        tensor([0., 1., 2., 3., 4., 5., 6., 7.])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"istft(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if not input.is_complex():
        raise RuntimeError(
            "istft requires a complex-valued input tensor matching the output from stft with "
            "return_complex=True."
        )
    spec = input
    if spec.dim() not in (2, 3):
        raise RuntimeError(
            f"istft: expected a tensor with 2 or 3 dimensions of complex, but got {spec.dim()}"
        )
    batched = spec.dim() == 3
    if not batched:
        spec = spec.unsqueeze(0)
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    fft_size, n_frames = spec.shape[-2], spec.shape[-1]
    if onesided is None:
        onesided = fft_size != n_fft
    if onesided and fft_size != n_fft // 2 + 1:
        raise RuntimeError(
            f"istft: expected the frequency dimension (3rd to the last) of the input tensor to "
            f"match n_fft / 2 + 1 when onesided=True, but got {fft_size}"
        )
    if not onesided and fft_size != n_fft:
        raise RuntimeError(
            f"istft: expected the frequency dimension (3rd to the last) of the input tensor to "
            f"match n_fft when onesided=False, but got {fft_size}"
        )
    if not 0 < hop <= win:
        raise RuntimeError("istft: expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        raise RuntimeError("istft: expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(
            f"istft: expected a 1D window tensor of size equal to win_length={win}, but got "
            f"window with size {list(window.shape)}"
        )
    if window is None:
        warnings.warn(
            "A window was not provided. A rectangular window will be applied.Please provide the same "
            "window used by stft to make the inversion lossless.To suppress this warning and use a "
            "rectangular window, explicitly set `window=torch.ones(n_fft, device=<device>)`.",
            UserWarning,
            stacklevel=2,
        )
        window = torch.ones(win, dtype=torch.empty(0, dtype=spec.dtype).real.dtype, device=spec.device)
    w = _padded_window(window, n_fft, win, spec)
    norm = "ortho" if normalized else "backward"
    cols = spec.transpose(-1, -2)  # (B, n_frames, fft_size)
    if onesided:
        frames = torch.fft.irfft(cols, n=n_fft, dim=-1, norm=norm)
    else:
        frames = torch.fft.ifft(cols, n=n_fft, dim=-1, norm=norm)
        if not return_complex:
            if w.is_complex():
                raise RuntimeError("istft: complex window requires return_complex=True")
            frames = frames.real
    frames = frames * w  # (B, n_frames, n_fft)
    total = n_fft + hop * (n_frames - 1)
    index = (
        torch.arange(n_frames, device=spec.device).unsqueeze(1) * hop
        + torch.arange(n_fft, device=spec.device)
    ).reshape(-1)
    batch = frames.shape[0]
    y = torch.zeros(batch, total, dtype=frames.dtype, device=spec.device).index_add(
        1, index, frames.reshape(batch, -1)
    )
    wsq = (w * w.conj()).real if w.is_complex() else w * w
    envelope = torch.zeros(total, dtype=wsq.dtype, device=spec.device).index_add(
        0, index, wsq.expand(n_frames, n_fft).reshape(-1)
    )
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + int(length)
    else:
        end = total - n_fft // 2 if center else total
    end = min(end, total)
    y = y[:, start:end]
    envelope = envelope[start:end]
    if bool((envelope.abs() < 1e-11).any()):
        raise RuntimeError(
            "istft(...): window overlap add min: "
            f"{float(envelope.abs().min()):g}: the window's squares must overlap to a nonzero "
            "sum everywhere (NOLA); use another window or hop_length"
        )
    y = y / envelope
    if length is not None and y.shape[-1] < int(length):
        y = torch.nn.functional.pad(y, (0, int(length) - y.shape[-1]))
    return y if batched else y.squeeze(0)


FUNCTIONS = {
    "stft": stft,
    "istft": istft,
    "hann_window": hann_window,
    "hamming_window": hamming_window,
    "blackman_window": blackman_window,
    "bartlett_window": bartlett_window,
    "kaiser_window": kaiser_window,
}
METHODS = {"stft": stft, "istft": istft}
