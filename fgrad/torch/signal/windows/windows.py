"""``torch.signal.windows``: window functions with SciPy's definitions and PyTorch's
arithmetic (each evaluates its formula on a ``linspace`` grid in the requested dtype, as
PyTorch does, so float32 windows match PyTorch's bits).

``sym=True`` gives the symmetric window (filter design); ``sym=False`` the periodic one
(spectral analysis): the symmetric window of length ``M + 1`` without its last point.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import fgrad.torch as torch
from fgrad.torch.types import Device, DType, Layout

from ..._tensor import Tensor

_COSINE_SUMS = {"blackman": (0.42, 0.5, 0.08),
                "nuttall": (0.3635819, 0.4891775, 0.1365995, 0.0106411)}


def _checked_dtype(name: str, M: int, dtype: DType | None, layout: Layout) -> DType:
    dtype = torch.get_default_dtype() if dtype is None else dtype
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not torch.strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (torch.float32, torch.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _span(M: int, sym: bool) -> int:
    """The period the grid divides: ``M - 1`` (symmetric) or ``M`` (periodic)."""
    return M - 1 if sym or M <= 1 else M


def _grid(first: float, step: float, M: int, dtype: DType, device: Device, requires_grad: bool) -> Tensor:
    return torch.linspace(first, first + (M - 1) * step, M, dtype=dtype, device=device,
                          requires_grad=requires_grad)


def _trivial(M: int, dtype: DType, device: Device, requires_grad: bool, one: bool = True) -> Tensor | None:
    """The window of length 0 (and of length 1 when ``one``), else None."""
    if M == 0:
        return torch.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    if M == 1 and one:
        return torch.ones((1,), dtype=dtype, device=device, requires_grad=requires_grad)
    return None


def exponential(M: int, *, center: float | None = None, tau: float = 1.0, sym: bool = True,
                dtype: DType | None = None, layout: Layout = torch.strided, device: Device | None = None,
                requires_grad: bool = False) -> Tensor:
    """Exponential (Poisson) window ``exp(-|n - center| / tau)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.exponential(5)
        tensor([0.1353, 0.3679, 1.0000, 0.3679, 0.1353])
    """
    dtype = _checked_dtype("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _trivial(0, dtype, device, requires_grad)
    center = _span(M, sym) / 2.0 if center is None else center
    return torch.exp(-torch.abs(_grid(-center / tau, 1 / tau, M, dtype, device, requires_grad)))


def cosine(M: int, *, sym: bool = True, dtype: DType | None = None, layout: Layout = torch.strided,
           device: Device | None = None, requires_grad: bool = False) -> Tensor:
    """Cosine (sine) window ``sin(pi (n + 1/2) / M)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.cosine(4)
        tensor([0.3827, 0.9239, 0.9239, 0.3827])
    """
    dtype = _checked_dtype("cosine", M, dtype, layout)
    if M == 0:
        return _trivial(0, dtype, device, requires_grad)
    step = math.pi / (_span(M, sym) + 1)
    return torch.sin(_grid(0.5 * step, step, M, dtype, device, requires_grad))


def gaussian(M: int, *, std: float = 1.0, sym: bool = True, dtype: DType | None = None,
             layout: Layout = torch.strided, device: Device | None = None,
             requires_grad: bool = False) -> Tensor:
    """Gaussian window ``exp(-(n - c)^2 / (2 std^2))`` centred on the window.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.gaussian(5)
        tensor([0.1353, 0.6065, 1.0000, 0.6065, 0.1353])
    """
    dtype = _checked_dtype("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _trivial(0, dtype, device, requires_grad)
    scale = 1 / (std * math.sqrt(2))
    k = _grid(-_span(M, sym) / 2.0 * scale, scale, M, dtype, device, requires_grad)
    return torch.exp(-k ** 2)


def kaiser(M: int, *, beta: float = 12.0, sym: bool = True, dtype: DType | None = None,
           layout: Layout = torch.strided, device: Device | None = None,
           requires_grad: bool = False) -> Tensor:
    """Kaiser window ``I0(beta sqrt(1 - (2n/N - 1)^2)) / I0(beta)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.kaiser(5, beta=4.0)
        tensor([0.0885, 0.6334, 1.0000, 0.6334, 0.0885])
    """
    dtype = _checked_dtype("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    small = _trivial(M, dtype, device, requires_grad)
    if small is not None:
        return small
    b = torch.tensor(beta, dtype=dtype, device=device)
    step = 2.0 * b / (M if not sym else M - 1)
    k = torch.linspace(-b, torch.minimum(b, -b + (M - 1) * step), M, dtype=dtype, device=device,
                       requires_grad=requires_grad)
    return torch.i0(torch.sqrt(b * b - k ** 2)) / torch.i0(b)


def general_cosine(M: int, *, a: Iterable[float], sym: bool = True, dtype: DType | None = None,
                   layout: Layout = torch.strided, device: Device | None = None,
                   requires_grad: bool = False) -> Tensor:
    """Sum-of-cosines window ``sum_i (-1)^i a_i cos(2 pi i n / N)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.general_cosine(5, a=[0.5, 0.5])
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    dtype = _checked_dtype("general_cosine", M, dtype, layout)
    small = _trivial(M, dtype, device, requires_grad)
    if small is not None:
        return small
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    k = _grid(0.0, 2 * math.pi / _span(M, sym), M, dtype, device, requires_grad)
    coef = torch.tensor([w if i % 2 == 0 else -w for i, w in enumerate(a)], dtype=dtype, device=device,
                        requires_grad=requires_grad)
    order = torch.arange(coef.shape[0], dtype=dtype, device=device, requires_grad=requires_grad)
    return (coef.unsqueeze(-1) * torch.cos(order.unsqueeze(-1) * k)).sum(0)


def general_hamming(M: int, *, alpha: float = 0.54, sym: bool = True, dtype: DType | None = None,
                    layout: Layout = torch.strided, device: Device | None = None,
                    requires_grad: bool = False) -> Tensor:
    """Generalized Hamming window ``alpha - (1 - alpha) cos(2 pi n / N)``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.general_hamming(5, alpha=0.6)
        tensor([0.2000, 0.6000, 1.0000, 0.6000, 0.2000])
    """
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def hamming(M: int, *, sym: bool = True, dtype: DType | None = None, layout: Layout = torch.strided,
            device: Device | None = None, requires_grad: bool = False) -> Tensor:
    """Hamming window (generalized Hamming with ``alpha = 0.54``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.hamming(5)
        tensor([0.0800, 0.5400, 1.0000, 0.5400, 0.0800])
    """
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)


def hann(M: int, *, sym: bool = True, dtype: DType | None = None, layout: Layout = torch.strided,
         device: Device | None = None, requires_grad: bool = False) -> Tensor:
    """Hann window (generalized Hamming with ``alpha = 0.5``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.hann(5)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M: int, *, sym: bool = True, dtype: DType | None = None, layout: Layout = torch.strided,
             device: Device | None = None, requires_grad: bool = False) -> Tensor:
    """Blackman window (a three-term cosine sum).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.blackman(5)
        tensor([-1.4901e-08,  3.4000e-01,  1.0000e+00,  3.4000e-01, -1.4901e-08])
    """
    dtype = _checked_dtype("blackman", M, dtype, layout)
    return general_cosine(M, a=_COSINE_SUMS["blackman"], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def nuttall(M: int, *, sym: bool = True, dtype: DType | None = None, layout: Layout = torch.strided,
            device: Device | None = None, requires_grad: bool = False) -> Tensor:
    """Minimum 4-term Blackman-Harris window (Nuttall's).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.nuttall(5)
        tensor([3.6280e-04, 2.2698e-01, 1.0000e+00, 2.2698e-01, 3.6280e-04])
    """
    return general_cosine(M, a=_COSINE_SUMS["nuttall"], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def bartlett(M: int, *, sym: bool = True, dtype: DType | None = None, layout: Layout = torch.strided,
             device: Device | None = None, requires_grad: bool = False) -> Tensor:
    """Bartlett (triangular, zero at the ends) window ``1 - |2n/N - 1|``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.signal.windows.bartlett(5)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    dtype = _checked_dtype("bartlett", M, dtype, layout)
    small = _trivial(M, dtype, device, requires_grad)
    if small is not None:
        return small
    return 1 - torch.abs(_grid(-1.0, 2 / _span(M, sym), M, dtype, device, requires_grad))


__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine", "general_hamming",
           "hamming", "hann", "kaiser", "nuttall"]
