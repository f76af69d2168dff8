"""``clip_grad_norm_`` and ``clip_grad_value_``.

Example::

    >>> import fgrad.torch as torch
    >>> w = torch.ones(4, requires_grad=True)
    >>> (w * 3).sum().backward()
    >>> torch.nn.utils.clip_grad_norm_([w], max_norm=1.0)
    tensor(6.)
    >>> w.grad
    tensor([0.5000, 0.5000, 0.5000, 0.5000])
"""

from __future__ import annotations

import warnings

import numpy as np

import fgrad.torch as torch

from ... import _profile_state
from ..._dispatch import bump_version
from ..._tensor import Tensor
from collections.abc import Iterable

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_"]


def _grads(parameters) -> list:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


_PLAIN = (np.dtype(np.float32), np.dtype(np.float64))


def _plain_grad(g, dtype, contiguous: bool = True) -> bool:
    """Whether `get_total_norm` and `clip_grads_with_norm_` may work on ``g``'s buffer
    directly (the NumPy calls its tensor ops make, without their dispatch: several
    hundred microseconds a step for a model's few dozen gradients): a plain host tensor of
    ``dtype`` (float32 or float64), C- or Fortran-contiguous where the sum reads it
    (``contiguous``; a matmul's weight gradient is often the latter), no view, no autograd
    history, not traced, no profiler recording."""
    b = getattr(g, "_buf", None)
    return (type(g) is Tensor and type(b) is np.ndarray and b.dtype == dtype and dtype in _PLAIN
            and (b.flags.c_contiguous or b.flags.f_contiguous or not contiguous)
            and b.flags.writeable and g._base is None and g._gfn is None and not g._rg
            and _profile_state.recorder is None)


def _plain_total_norm(tensors: list) -> Tensor | None:
    """The 2-norm of ``tensors`` taken together from their buffers, as the tensor ops of
    `get_total_norm` compute it (each ``vector_norm``: ``sqrt(sum(x * x))``, the sum NumPy's
    over the whole array, in the dtype; then the same over the stacked norms), or None where
    a tensor is not `_plain_grad` or the dtypes differ."""
    dt = getattr(getattr(tensors[0], "_buf", None), "dtype", None)
    if not all(_plain_grad(t, dt) for t in tensors):
        return None
    norms = np.empty(len(tensors), dt)
    with np.errstate(all="ignore"):
        for i, t in enumerate(tensors):
            b = t._buf
            norms[i] = np.sqrt(np.add.reduce(np.multiply(b, b), axis=tuple(range(b.ndim))))
        return torch.as_tensor(np.sqrt(np.add.reduce(np.multiply(norms, norms), axis=(0,))))


def get_total_norm(tensors: Tensor | Iterable[Tensor], norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """The ``norm_type``-norm of all ``tensors`` taken together.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.utils.get_total_norm([torch.tensor([3.0]), torch.tensor([4.0])])
        tensor(5.)
    """
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    tensors = list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return torch.tensor(0.0)
    total = _plain_total_norm(tensors) if norm_type == 2.0 else None
    if total is None:
        norms = torch.stack([torch.linalg.vector_norm(g.detach(), norm_type) for g in tensors])
        total = torch.linalg.vector_norm(norms, norm_type)
    if error_if_nonfinite and (torch.isnan(total) or torch.isinf(total)):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is "
                           "non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the "
                           "non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grad_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False,
                    foreach: bool | None = None) -> Tensor:
    """Scale the gradients in place so their total norm is at most ``max_norm``; returns
    the total norm before clipping.

    Example::

        >>> import fgrad.torch as torch
        >>> p = torch.nn.Parameter(torch.zeros(2))
        >>> p.grad = torch.tensor([3.0, 4.0])
        >>> torch.nn.utils.clip_grad_norm_([p], max_norm=1.0)
        tensor(5.)
        >>> p.grad
        tensor([0.6000, 0.8000])
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    parameters = list(parameters)
    grads = _grads(parameters)
    total = get_total_norm(grads, norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total)
    return total


def clip_grad_norm(parameters: Tensor | Iterable[Tensor], max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Deprecated alias of `clip_grad_norm_` (warns ``FutureWarning`` as PyTorch does).

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> w = torch.ones(1, requires_grad=True)
        >>> (w * 3).sum().backward()
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     clip_grad_norm([w], 1.0)
        tensor(3.)
    """
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grads_with_norm_(parameters: Tensor | Iterable[Tensor], max_norm: float, total_norm: Tensor,
                          foreach: bool | None = None) -> None:
    """Scale the gradients in place by ``min(1, max_norm / (total_norm + 1e-6))`` (a tensor
    computation, as PyTorch's, so there is no host synchronisation).

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.ones(4, requires_grad=True)
        >>> (w * 3).sum().backward()
        >>> clip_grads_with_norm_([w], 1.0, torch.tensor(6.0))
        >>> w.grad
        tensor([0.5000, 0.5000, 0.5000, 0.5000])
    """
    grads = _grads(parameters)
    if len(grads) == 0:
        return
    clip_coef = float(max_norm) / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    with torch.no_grad():
        coef = clip_coef_clamped._buf
        for g in grads:
            if type(coef) is np.ndarray and _plain_grad(g, coef.dtype, False):
                np.multiply(g._buf, coef, out=g._buf)  # (what ``g.mul_(coef)`` computes)
                bump_version(g)
            else:
                g.mul_(clip_coef_clamped.to(g.device))


def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float,
                     foreach: bool | None = None) -> None:
    """Clamp every gradient element into ``[-clip_value, clip_value]`` in place.

    Example::

        >>> import fgrad.torch as torch
        >>> p = torch.nn.Parameter(torch.zeros(2))
        >>> p.grad = torch.tensor([3.0, -0.5])
        >>> torch.nn.utils.clip_grad_value_([p], clip_value=1.0)
        >>> p.grad
        tensor([ 1.0000, -0.5000])
    """
    clip_value = float(clip_value)
    with torch.no_grad():
        for g in _grads(parameters):
            g.clamp_(min=-clip_value, max=clip_value)
