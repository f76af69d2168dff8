"""The masked reductions and normalizations of `fgrad.torch.masked` (see its docstring)."""

from __future__ import annotations

import functools
import math
from typing import Any

import fgrad.torch as torch

from .._tensor import Tensor

__all__ = ["amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logaddexp", "logsumexp",
           "mean", "median", "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var"]

_Dim = int | tuple[int, ...] | list[int] | None


def _accepts_masked(fn):
    """``fn(masked_tensor, ...)``: the data, with the masked tensor's mask unless ``mask=`` is
    given (PyTorch's masked functions take a MaskedTensor and return a plain tensor)."""
    @functools.wraps(fn)
    def wrapper(input, *args, **kwargs):
        if hasattr(input, "_masked_mask"):
            if "mask" in kwargs or fn.__name__ == "logaddexp":
                return fn(input.get_data(), *args, **kwargs)
            return fn(input.get_data(), *args, mask=input.get_mask(), **kwargs)
        return fn(input, *args, **kwargs)
    return wrapper


def _cast(input: Tensor, dtype: Any) -> Tensor:
    return input if dtype is None else input.to(dtype)


def _mask_of(input: Tensor, mask: Tensor | None, name: str) -> Tensor:
    if mask is None:
        return torch.ones(input.shape, dtype=torch.bool, device=input.device)
    if not isinstance(mask, Tensor):
        raise TypeError(f"torch.masked.{name}: mask must be a bool Tensor, got {type(mask).__name__}")
    if mask.dtype != torch.bool:
        mask = mask.to(torch.bool)
    return mask.expand(input.shape)


def _dims(dim: _Dim, ndim: int) -> tuple[int, ...]:
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple(sorted({d % ndim if ndim else 0 for d in dims}))


def _identity(input: Tensor, kind: str) -> float | int:
    """The fill for the masked-out elements: the reduction's identity in ``input``'s dtype."""
    if input.is_floating_point() or input.is_complex():
        return {"max": -math.inf, "min": math.inf}[kind]
    info = torch.iinfo(input.dtype)
    return {"max": info.min, "min": info.max}[kind]


def _filled(input: Tensor, mask: Tensor, value: float) -> Tensor:
    return torch.where(mask, input, torch.full((), value, dtype=input.dtype, device=input.device))


@_accepts_masked
def sum(input: Tensor, dim: _Dim = None, *, keepdim: bool | None = False, dtype: Any = None,  # noqa: A001
        mask: Tensor | None = None) -> Tensor:
    """The sum of the elements where ``mask`` is True.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.sum(torch.tensor([1.0, 2.0, 3.0]), mask=torch.tensor([True, False, True]))
        tensor(4.)
    """
    x = _cast(input, dtype)
    return _filled(x, _mask_of(x, mask, "sum"), 0).sum(_dims(dim, x.dim()), keepdim=bool(keepdim))


@_accepts_masked
def prod(input: Tensor, dim: _Dim = None, *, keepdim: bool | None = False, dtype: Any = None,
         mask: Tensor | None = None) -> Tensor:
    """The product of the elements where ``mask`` is True (1 where none is).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.prod(torch.tensor([2.0, 5.0, 3.0]), mask=torch.tensor([True, False, True]))
        tensor(6.)
    """
    x = _cast(input, dtype)
    out = _filled(x, _mask_of(x, mask, "prod"), 1)
    dims = _dims(dim, x.dim())
    if not dims:
        return out
    for d in sorted(dims, reverse=True):
        out = out.prod(d, keepdim=True)
    return out if keepdim else out.reshape([s for i, s in enumerate(out.shape) if i not in dims])


@_accepts_masked
def amax(input: Tensor, dim: _Dim = None, *, keepdim: bool | None = False, dtype: Any = None,
         mask: Tensor | None = None) -> Tensor:
    """The maximum over the elements where ``mask`` is True (-inf, or the dtype's minimum, where none is).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.amax(torch.tensor([1.0, 9.0, 3.0]), mask=torch.tensor([True, False, True]))
        tensor(3.)
    """
    x = _cast(input, dtype)
    return _filled(x, _mask_of(x, mask, "amax"), _identity(x, "max")).amax(_dims(dim, x.dim()),
                                                                         keepdim=bool(keepdim))


@_accepts_masked
def amin(input: Tensor, dim: _Dim = None, *, keepdim: bool | None = False, dtype: Any = None,
         mask: Tensor | None = None) -> Tensor:
    """The minimum over the elements where ``mask`` is True (inf, or the dtype's maximum, where none is).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.amin(torch.tensor([1.0, 0.0, 3.0]), mask=torch.tensor([True, False, True]))
        tensor(1.)
    """
    x = _cast(input, dtype)
    return _filled(x, _mask_of(x, mask, "amin"), _identity(x, "min")).amin(_dims(dim, x.dim()),
                                                                         keepdim=bool(keepdim))


def _arg(input, dim, keepdim, dtype, mask, kind):
    fill = _identity(input, "max" if kind == "argmax" else "min")
    filled = _filled(input, _mask_of(input, mask, kind), fill)
    idx = getattr(filled, kind)(dim, keepdim=bool(keepdim))
    return idx.to(input.dtype if dtype is None else dtype)  # PyTorch returns the input's dtype


@_accepts_masked
def argmax(input: Tensor, dim: int | None = None, *, keepdim: bool | None = False, dtype: Any = None,
           mask: Tensor | None = None) -> Tensor:
    """The index of the maximum among the elements where ``mask`` is True, in ``input``'s
    dtype (as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.argmax(torch.tensor([1.0, 9.0, 3.0]), 0, mask=torch.tensor([True, False, True]))
        tensor(2.)
    """
    return _arg(input, dim, keepdim, dtype, mask, "argmax")


@_accepts_masked
def argmin(input: Tensor, dim: int | None = None, *, keepdim: bool | None = False, dtype: Any = None,
           mask: Tensor | None = None) -> Tensor:
    """The index of the minimum among the elements where ``mask`` is True, in ``input``'s dtype.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.argmin(torch.tensor([1.0, 0.0, 3.0]), 0, mask=torch.tensor([True, False, True]))
        tensor(0.)
    """
    return _arg(input, dim, keepdim, dtype, mask, "argmin")


def _count(x: Tensor, m: Tensor, dims, keepdim) -> Tensor:
    return m.sum(dims, keepdim=keepdim).to(x.dtype)


def _need_float(x: Tensor, name: str) -> None:
    if not (x.is_floating_point() or x.is_complex()):
        raise ValueError(f"{name}(): Could not infer output dtype. Input dtype must be either a floating "
                         f"point or complex dtype. Got: {x.dtype}")


@_accepts_masked
def mean(input: Tensor, dim: _Dim = None, *, keepdim: bool | None = False, dtype: Any = None,
         mask: Tensor | None = None) -> Tensor:
    """The mean of the elements where ``mask`` is True (nan where none is).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.mean(torch.tensor([1.0, 9.0, 3.0]), mask=torch.tensor([True, False, True]))
        tensor(2.)
    """
    x = _cast(input, dtype)
    _need_float(x, "mean")
    m = _mask_of(x, mask, "mean")
    dims = _dims(dim, x.dim())
    return _filled(x, m, 0).sum(dims, keepdim=bool(keepdim)) / _count(x, m, dims, bool(keepdim))


@_accepts_masked
def var(input: Tensor, dim: _Dim = None, unbiased: bool | None = None, *,
        correction: int | float | None = None,
        keepdim: bool | None = False, dtype: Any = None, mask: Tensor | None = None) -> Tensor:
    """The variance of the elements where ``mask`` is True: ``sum((x - mean)^2) / (count -
    correction)``; ``correction`` defaults to 1 (``unbiased=False`` makes it 0).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.var(torch.tensor([1.0, 9.0, 3.0]), mask=torch.tensor([True, False, True]))
        tensor(2.)
    """
    if unbiased is not None and correction is not None:
        raise RuntimeError("var(): only one of unbiased and correction may be given")
    corr = correction if correction is not None else (0 if unbiased is False else 1)
    x = _cast(input, dtype)
    _need_float(x, "var")
    m = _mask_of(x, mask, "var")
    dims = _dims(dim, x.dim())
    count = _count(x, m, dims, True)
    centered = _filled(x - _filled(x, m, 0).sum(dims, keepdim=True) / count, m, 0)
    sq = (centered * centered.conj()).real if x.is_complex() else centered * centered
    total = sq.sum(dims, keepdim=bool(keepdim))
    count = count if keepdim else _count(x, m, dims, False)
    return total / (count - corr).clamp_min(0)


@_accepts_masked
def std(input: Tensor, dim: _Dim = None, unbiased: bool | None = None, *, correction: int | None = None,
        keepdim: bool | None = False, dtype: Any = None, mask: Tensor | None = None) -> Tensor:
    """The standard deviation (the square root of `var`) of the elements where ``mask`` is True.

    Example::

        >>> import fgrad.torch as torch
        >>> x, m = torch.tensor([1.0, 9.0, 3.0]), torch.tensor([True, False, True])
        >>> torch.masked.std(x, unbiased=False, mask=m)
        tensor(1.)
    """
    return var(input, dim, unbiased, correction=correction, keepdim=keepdim, dtype=dtype, mask=mask).sqrt()


@_accepts_masked
def norm(input: Tensor, ord: float | None = 2.0, dim: _Dim = None, *, keepdim: bool | None = False,  # noqa: A002
         dtype: Any = None, mask: Tensor | None = None) -> Tensor:
    """The ``ord``-norm of the elements where ``mask`` is True (0 where none is).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.norm(torch.tensor([3.0, 9.0, 4.0]), 2.0, mask=torch.tensor([True, False, True]))
        tensor(5.)
    """
    x = _cast(input, dtype)
    _need_float(x, "norm")
    o = 2.0 if ord is None else ord
    fill = math.inf if o == -math.inf else 0
    return torch.linalg.vector_norm(_filled(x, _mask_of(x, mask, "norm"), fill), o, _dims(dim, x.dim()),
                                    keepdim=bool(keepdim))


@_accepts_masked
def normalize(input: Tensor, ord: float, dim: int, *, eps: float = 1e-12, dtype: Any = None,
              mask: Tensor | None = None) -> Tensor:
    """``input`` divided by its masked ``ord``-norm along ``dim`` (at least ``eps``); 0 where
    masked out.

    Example::

        >>> import fgrad.torch as torch
        >>> x, m = torch.tensor([3.0, 9.0, 4.0]), torch.tensor([True, False, True])
        >>> torch.masked.normalize(x, 2.0, 0, mask=m)
        tensor([0.6000, 0.0000, 0.8000])
    """
    x = _cast(input, dtype)
    m = _mask_of(x, mask, "normalize")
    nrm = norm(x, ord, dim, keepdim=True, mask=m)
    return _filled(x, m, 0) / nrm.clamp_min(eps)


@_accepts_masked
def softmax(input: Tensor, dim: int, *, dtype: Any = None, mask: Tensor | None = None) -> Tensor:
    """The softmax along ``dim`` over the elements where ``mask`` is True (0 where masked out;
    nan where a whole slice is).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.softmax(torch.tensor([0.0, 5.0, 0.0]), 0, mask=torch.tensor([True, False, True]))
        tensor([0.5000, 0.0000, 0.5000])
    """
    x = _cast(input, dtype)
    return _filled(x, _mask_of(x, mask, "softmax"), -math.inf).softmax(dim)


@_accepts_masked
def log_softmax(input: Tensor, dim: int, *, dtype: Any = None, mask: Tensor | None = None) -> Tensor:
    """The log-softmax along ``dim`` over the elements where ``mask`` is True (-inf where masked out).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.log_softmax(torch.tensor([0.0, 5.0, 0.0]), 0, mask=torch.tensor([True, False, True]))
        tensor([-0.6931,    -inf, -0.6931])
    """
    x = _cast(input, dtype)
    return _filled(x, _mask_of(x, mask, "log_softmax"), -math.inf).log_softmax(dim)


@_accepts_masked
def softmin(input: Tensor, dim: int, *, dtype: Any = None, mask: Tensor | None = None) -> Tensor:
    """``softmax(-input)`` over the elements where ``mask`` is True.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.softmin(torch.tensor([0.0, 5.0, 0.0]), 0, mask=torch.tensor([True, False, True]))
        tensor([0.5000, 0.0000, 0.5000])
    """
    x = _cast(input, dtype)
    return _filled(-x, _mask_of(x, mask, "softmin"), -math.inf).softmax(dim)


@_accepts_masked
def logsumexp(input: Tensor, dim: _Dim = None, *, keepdim: bool = False, dtype: Any = None,
              mask: Tensor | None = None) -> Tensor:
    """``log(sum(exp(x)))`` over the elements where ``mask`` is True (-inf where none is).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.logsumexp(torch.tensor([0.0, 5.0, 0.0]), 0, mask=torch.tensor([True, False, True]))
        tensor(0.6931)
    """
    x = _cast(input, dtype)
    return _filled(x, _mask_of(x, mask, "logsumexp"), -math.inf).logsumexp(_dims(dim, x.dim()),
                                                                          keepdim=bool(keepdim))


def logaddexp(input: Tensor, other: Tensor, *, dtype: Any = None, input_mask: Tensor | None = None,
              other_mask: Tensor | None = None) -> Tensor:
    """``log(exp(input) + exp(other))``, each operand taken as -inf where its mask is False.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.logaddexp(torch.tensor([0.0, 0.0]), torch.tensor([0.0, 0.0]),
        ...     input_mask=torch.tensor([True, False]), other_mask=torch.tensor([True, True]))
        tensor([0.6931, 0.0000])
    """
    x, y = _cast(input, dtype), _cast(other, dtype)
    return torch.logaddexp(_filled(x, _mask_of(x, input_mask, "logaddexp"), -math.inf),
                           _filled(y, _mask_of(y, other_mask, "logaddexp"), -math.inf))


@_accepts_masked
def cumsum(input: Tensor, dim: int, *, dtype: Any = None, mask: Tensor | None = None) -> Tensor:
    """The running sum along ``dim``, the masked-out elements counting as 0.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.cumsum(torch.tensor([1.0, 9.0, 3.0]), 0, mask=torch.tensor([True, False, True]))
        tensor([1., 1., 4.])
    """
    x = _cast(input, dtype)
    return _filled(x, _mask_of(x, mask, "cumsum"), 0).cumsum(dim)


@_accepts_masked
def cumprod(input: Tensor, dim: int, *, dtype: Any = None, mask: Tensor | None = None) -> Tensor:
    """The running product along ``dim``, the masked-out elements counting as 1.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.masked.cumprod(torch.tensor([2.0, 9.0, 3.0]), 0, mask=torch.tensor([True, False, True]))
        tensor([2., 2., 6.])
    """
    x = _cast(input, dtype)
    return _filled(x, _mask_of(x, mask, "cumprod"), 1).cumprod(dim)


@_accepts_masked
def median(input: Tensor, dim: int = -1, *, keepdim: bool = False, dtype: Any = None,
           mask: Tensor | None = None) -> Tensor:
    """The (lower) median along ``dim`` of the elements where ``mask`` is True (nan where none is).

    Example::

        >>> import fgrad.torch as torch
        >>> x, m = torch.tensor([1.0, 9.0, 3.0, 2.0]), torch.tensor([True, False, True, True])
        >>> torch.masked.median(x, mask=m)
        tensor(2.)
    """
    x = _cast(input, dtype)
    _need_float(x, "median")
    return _filled(x, _mask_of(x, mask, "median"), math.nan).nanmedian(dim, keepdim=keepdim).values
