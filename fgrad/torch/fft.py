"""``torch.fft``: discrete Fourier transforms with PyTorch's names, arguments and dtypes, each a
recorded node whose fgrad definition is the `fgrad.numpy.fft` function (one implementation,
one derivative for both faces).

PyTorch's conventions: integer and bool inputs are first converted to the default float
dtype (so ``fft`` of an int tensor is ``complex64``); ``float32`` gives ``complex64`` and
``float64`` ``complex128``; ``rfft``/``ihfft`` refuse complex inputs; ``norm`` is
``"backward"`` (default), ``"ortho"`` or ``"forward"``; ``dim``/``s`` as in PyTorch.  The
Hermitian transforms of more than one dimension (``hfft2``/``hfftn``, ``ihfft2``/``ihfftn``)
are the duals of ``irfftn``/``rfftn`` (conjugate input or output, dual normalization), as
PyTorch defines them.

Example::

    >>> import fgrad.torch as torch
    >>> torch.fft.rfft(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    tensor([10.+0.j, -2.+2.j, -2.+0.j])
"""

from __future__ import annotations

from typing import Sequence

import fgrad.numpy as fnp
import fgrad.torch as torch

from ._dispatch import apply_op, write_out
from ._tensor import Tensor, wrap_dim
from fgrad.torch.types import Device, DType
from typing import Any

__all__ = [
    "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn",
    "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
    "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
    "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]

_NORMS = ("backward", "ortho", "forward")
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _norm(norm: str | None, name: str) -> str:
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f"torch.fft.{name}: Invalid normalization mode: {norm!r} "
                         f"(use one of {', '.join(map(repr, _NORMS))} or None)")
    return norm


def _input(x, name: str, *, real: bool = False) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"torch.fft.{name}(): argument 'input' must be Tensor, not {type(x).__name__}")
    if x.is_complex():
        if real:
            raise RuntimeError(f"torch.fft.{name}: {name} expects a real input tensor, but got "
                               f"{str(x.dtype).replace('torch.', '')}. Use torch.fft.fft for complex input.")
        return x
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def _dims(dim, ndim: int, name: str) -> tuple[int, ...] | None:
    if dim is None:
        return None
    dims = (dim,) if isinstance(dim, int) else tuple(int(d) for d in dim)
    out = [wrap_dim(d, ndim) for d in dims]
    if len(set(out)) != len(out):
        raise RuntimeError(f"torch.fft.{name}: dims must be unique, got {dims}")
    return tuple(out)


def _finish(result: Tensor, out: Tensor | None, name: str) -> Tensor:
    return result if out is None else write_out(out, result, f"fft_{name}")


def _grad_name(kind: str) -> str:
    return {"c2c": "FftC2CBackward0", "r2c": "FftR2CBackward0", "c2r": "FftC2RBackward0"}[kind]


def _kind(x: Tensor, inverse_real: bool, forward_real: bool) -> str:
    if inverse_real:
        return "c2r"
    return "r2c" if forward_real or not x.is_complex() else "c2c"


def _one_dim(name: str, fn, input, n, dim, norm, out, *, real_in=False, real_out=False,
             conj_in=False, conj_out=False) -> Tensor:
    x = _input(input, name, real=real_in)
    norm = _norm(norm, name)
    (axis,) = _dims(dim, x.dim(), name)
    if n is not None and int(n) < 1:
        raise RuntimeError(f"torch.fft.{name}: Invalid number of data points ({n}) specified")
    n = None if n is None else int(n)

    def definition(a):
        a = fnp.conj(a) if conj_in else a
        r = fn(a, n=n, axis=axis, norm=norm)
        return fnp.conj(r) if conj_out else r

    kind = _kind(x, real_out, real_in)
    return _finish(apply_op(_grad_name(kind), ("fft", name, n, axis, norm), definition, (x,)), out, name)


def _many_dims(name: str, fn, input, s, dim, norm, out, default_dims, *, real_in=False,
               real_out=False, conj_in=False, conj_out=False, dual_norm=False) -> Tensor:
    x = _input(input, name, real=real_in)
    norm = _norm(norm, name)
    nd = x.dim()
    dims = _dims(dim, nd, name)
    if s is not None:
        s = tuple(int(v) for v in s)
        if dims is None:
            dims = tuple(range(nd - len(s), nd))
        elif len(s) != len(dims):
            raise RuntimeError(f"torch.fft.{name}: When given, dim and shape arguments must have the "
                               f"same length (got s={s}, dim={dim})")
        if any(v < 1 and v != -1 for v in s):
            raise RuntimeError(f"torch.fft.{name}: Invalid number of data points ({min(s)}) specified")
        s = tuple(x.shape[d] if v == -1 else v for v, d in zip(s, dims))
    if dims is None:
        dims = tuple(range(nd)) if default_dims is None else tuple(d % nd for d in default_dims)
    used_norm = _DUAL[norm] if dual_norm else norm

    def definition(a):
        a = fnp.conj(a) if conj_in else a
        r = fn(a, s=s, axes=dims, norm=used_norm)
        return fnp.conj(r) if conj_out else r

    kind = _kind(x, real_out, real_in)
    return _finish(apply_op(_grad_name(kind), ("fftn", name, s, dims, norm), definition, (x,)), out, name)


def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
        out: Tensor | None = None) -> Tensor:
    """One-dimensional discrete Fourier transform of ``input`` along ``dim``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.fft(torch.arange(4.0))
        tensor([ 6.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    """
    return _one_dim("fft", fnp.fft.fft, input, n, dim, norm, out)


def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """Inverse of `fft`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.ifft(torch.fft.fft(torch.arange(3.0))).real
        tensor([0., 1., 2.])
    """
    return _one_dim("ifft", fnp.fft.ifft, input, n, dim, norm, out)


def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """The non-negative frequencies of the transform of a real ``input``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.rfft(torch.arange(4.0))
        tensor([ 6.+0.j, -2.+2.j, -2.+0.j])
    """
    return _one_dim("rfft", fnp.fft.rfft, input, n, dim, norm, out, real_in=True)


def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """Inverse of `rfft`: a real signal of length ``n`` (default ``2 * (m - 1)``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.irfft(torch.fft.rfft(torch.arange(4.0)))
        tensor([0., 1., 2., 3.])
    """
    return _one_dim("irfft", fnp.fft.irfft, input, n, dim, norm, out, real_out=True)


def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """Transform of a Hermitian-symmetric signal given by its first half: a real result.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0]))
        tensor([ 8., -2.,  0., -2.])
    """
    return _one_dim("hfft", fnp.fft.hfft, input, n, dim, norm, out, real_out=True)


def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """Inverse of `hfft`: the first half of a real signal's inverse transform.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.ihfft(torch.tensor([8.0, -2.0, 0.0, -2.0]))
        tensor([1.-0.j, 2.-0.j, 3.-0.j])
    """
    # PyTorch conjugates after normalizing (its -0 imaginary parts stay; JAX's ihfft
    # normalizes after conjugating, which makes some of them +0)
    def dual_rfft(a, n, axis, norm):
        return fnp.fft.rfft(a, n=n, axis=axis, norm=_DUAL[norm])

    return _one_dim("ihfft", dual_rfft, input, n, dim, norm, out, real_in=True, conj_out=True)


def fft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
         norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Two-dimensional transform over ``dim`` (the last two by default).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.fft2(torch.ones(2, 2))
        tensor([[4.+0.j, 0.+0.j],
                [0.+0.j, 0.+0.j]])
    """
    return _many_dims("fft2", fnp.fft.fftn, input, s, dim, norm, out, (-2, -1))


def ifft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
          norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Inverse of `fft2`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.ifft2(torch.fft.fft2(torch.ones(2, 2))).real
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _many_dims("ifft2", fnp.fft.ifftn, input, s, dim, norm, out, (-2, -1))


def fftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
         norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """N-dimensional transform over ``dim`` (all dimensions by default, or the last
    ``len(s)``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.fftn(torch.ones(2, 2, 2))[0, 0, 0]
        tensor(8.+0.j)
    """
    return _many_dims("fftn", fnp.fft.fftn, input, s, dim, norm, out, None)


def ifftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
          norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Inverse of `fftn`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.ifftn(torch.fft.fftn(torch.ones(2, 2))).real
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _many_dims("ifftn", fnp.fft.ifftn, input, s, dim, norm, out, None)


def rfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
          norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """`fft2` of a real input, keeping the non-negative frequencies of the last dimension.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.rfft2(torch.ones(2, 4)).shape
        torch.Size([2, 3])
    """
    return _many_dims("rfft2", fnp.fft.rfftn, input, s, dim, norm, out, (-2, -1), real_in=True)


def irfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
           norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Inverse of `rfft2`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.irfft2(torch.fft.rfft2(torch.ones(2, 4))).shape
        torch.Size([2, 4])
    """
    return _many_dims("irfft2", fnp.fft.irfftn, input, s, dim, norm, out, (-2, -1), real_out=True)


def rfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
          norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """`fftn` of a real input, keeping the non-negative frequencies of the last dimension.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.rfftn(torch.ones(2, 2, 4)).shape
        torch.Size([2, 2, 3])
    """
    return _many_dims("rfftn", fnp.fft.rfftn, input, s, dim, norm, out, None, real_in=True)


def irfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
           norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Inverse of `rfftn`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.irfftn(torch.fft.rfftn(torch.ones(2, 4))).shape
        torch.Size([2, 4])
    """
    return _many_dims("irfftn", fnp.fft.irfftn, input, s, dim, norm, out, None, real_out=True)


def hfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
          norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Two-dimensional `hfft` (the last dimension is the Hermitian half): a real result.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.hfft2(torch.ones(2, 3)).shape
        torch.Size([2, 4])
    """
    return _many_dims("hfft2", fnp.fft.irfftn, input, s, dim, norm, out, (-2, -1), real_out=True,
                      conj_in=True, dual_norm=True)


def ihfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
           norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Inverse of `hfft2`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.ihfft2(torch.ones(2, 4)).shape
        torch.Size([2, 3])
    """
    return _many_dims("ihfft2", fnp.fft.rfftn, input, s, dim, norm, out, (-2, -1), real_in=True,
                      conj_out=True, dual_norm=True)


def hfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
          norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """N-dimensional `hfft`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.hfftn(torch.ones(2, 3)).shape
        torch.Size([2, 4])
    """
    return _many_dims("hfftn", fnp.fft.irfftn, input, s, dim, norm, out, None, real_out=True,
                      conj_in=True, dual_norm=True)


def ihfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
           norm: str | None = None, *, out: Tensor | None = None) -> Tensor:
    """Inverse of `hfftn`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.ihfftn(torch.ones(2, 4)).shape
        torch.Size([2, 3])
    """
    return _many_dims("ihfftn", fnp.fft.rfftn, input, s, dim, norm, out, None, real_in=True,
                      conj_out=True, dual_norm=True)


def _freq(values, dtype, device, requires_grad: bool) -> Tensor:
    dtype = torch.get_default_dtype() if dtype is None else dtype
    return torch.tensor(values, dtype=dtype, device=device, requires_grad=requires_grad)


def fftfreq(n: int, d: float = 1.0, *, out: Tensor | None = None, dtype: DType | None = None,
            layout: Any = None,
            device: Device = None, requires_grad: bool = False) -> Tensor:
    """The sample frequencies of an ``n``-point `fft` with sample spacing ``d``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.fftfreq(4)
        tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """
    r = _freq(fnp.fft.fftfreq(int(n), d).tolist(), dtype, device, requires_grad)
    return _finish(r, out, "fftfreq")


def rfftfreq(n: int, d: float = 1.0, *, out: Tensor | None = None, dtype: DType | None = None,
             layout: Any = None,
             device: Device = None, requires_grad: bool = False) -> Tensor:
    """The non-negative sample frequencies of an ``n``-point `rfft`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.rfftfreq(4)
        tensor([0.0000, 0.2500, 0.5000])
    """
    r = _freq(fnp.fft.rfftfreq(int(n), d).tolist(), dtype, device, requires_grad)
    return _finish(r, out, "rfftfreq")


def _shift(input: Tensor, dim, sign: int) -> Tensor:
    nd = input.dim()
    dims = tuple(range(nd)) if dim is None else _dims(dim, nd, "fftshift")
    shifts = tuple(sign * (input.shape[d] // 2) for d in dims)
    return torch.roll(input, shifts, dims)


def fftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """Move the zero frequency to the centre (a roll by ``n // 2`` along ``dim``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.fftshift(torch.fft.fftfreq(4))
        tensor([-0.5000, -0.2500,  0.0000,  0.2500])
    """
    return _shift(input, dim, 1)


def ifftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """Inverse of `fftshift`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fft.ifftshift(torch.fft.fftshift(torch.arange(5)))
        tensor([0, 1, 2, 3, 4])
    """
    return _shift(input, dim, -1)
