"""Margin losses: ``multi_margin_loss``, ``multilabel_margin_loss``,
``triplet_margin_with_distance_loss``.

Each is a composition of Tensor ops following PyTorch's kernel formula term by term (so
the hinge's derivative at 0 is 0, as in PyTorch's ``z > 0`` test); targets are read on the
host to build masks, and bad targets raise PyTorch's errors.

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> F.multi_margin_loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([3]))
    tensor(0.3250)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import fgrad.numpy as fnp

import fgrad.torch as torch
import fgrad.torch._device as _dev
from .._tensor import Tensor
from ._defop import buf as _buf, defop as _defop

__all__ = ["multi_margin_loss", "multilabel_margin_loss", "triplet_margin_with_distance_loss"]


def _reduction(size_average, reduce, reduction: str) -> str:
    import fgrad.torch.nn.functional as F
    if size_average is not None or reduce is not None:
        reduction = F._reduction_from_legacy(size_average, reduce)
    F._check_reduction(reduction)
    return reduction


def _reduce(v: Tensor, reduction: str) -> Tensor:
    import fgrad.torch.nn.functional as F
    return F._reduce_t(v, reduction)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, size_average: bool | None = None,
                      reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """The multi-class hinge loss ``sum_{i != y} max(0, margin - x[y] + x[i])^p / C``
    (``p`` 1 or 2; ``weight[y]`` scales each term).

    Example::

        >>> import fgrad.torch as torch
        >>> multi_margin_loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([3]))
        tensor(0.3250)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    if weight is not None and weight.requires_grad and torch.is_grad_enabled():
        raise RuntimeError("The function 'multi_margin_loss' is not differentiable with respect to argument "
                           "'weight'. This input cannot have requires_grad True.")
    if input.dim() > 2:
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    t = target.reshape(-1)
    c = x.shape[1]
    if t.numel() != x.shape[0]:
        raise RuntimeError(f"inconsistent target size, expected {x.shape[0]} but got {list(target.shape)}")
    tb = np.asarray(_dev.to_host(_buf(t)))
    if tb.size and (tb.min() < 0 or tb.max() >= c):
        raise RuntimeError("target out of range")
    ti = t.long().unsqueeze(1)
    not_target = torch.ones_like(x, dtype=torch.bool).scatter_(1, ti, False)
    wy = None if weight is None else weight[t.long()].unsqueeze(1).detach()

    def fn(xv, tiv, keep, *w):  # one node, MultiMarginLossBackward0, as PyTorch's kernel
        z = margin - fnp.take_along_axis(xv, tiv, 1) + xv
        h = fnp.where(z > 0, z, fnp.zeros_like(z))  # PyTorch's `if (z > 0)`: no gradient at 0, NaN skipped
        if p == 2:
            h = h * h
        if w:
            h = h * w[0]
        loss = fnp.where(keep, h, fnp.zeros_like(h)).sum(1) / c
        if reduction == "mean":
            return loss.mean()
        return loss.sum() if reduction == "sum" else loss

    args = (x, ti, not_target) + (() if wy is None else (wy,))
    loss = _defop("MultiMarginLossBackward0", ("multi_margin", p, margin, c, reduction, wy is None), fn, args,
                  edges=(0,))
    if input.dim() < 2 and reduction == "none":
        return loss.reshape(target.shape) if target.dim() else loss.squeeze(0)
    return loss


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
                           reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """``sum_{j in targets} sum_{i not in targets} max(0, 1 - (x[j] - x[i])) / C``; each row
    of ``target`` lists class indices, ended by the first ``-1``.

    Example::

        >>> import fgrad.torch as torch
        >>> multilabel_margin_loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if input.dim() > 2 or tuple(target.shape) != tuple(input.shape):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    tb = np.asarray(_dev.to_host(_buf(target))).reshape(x.shape)
    n, c = x.shape
    if tb.size and (tb.max() >= c or tb.min() < -1):
        raise RuntimeError("argument #2 'target' is out of range")
    used = np.zeros((n, c), bool)  # the listed entries, up to the first -1
    is_target = np.zeros((n, c), bool)
    for i in range(n):
        for j in range(c):
            if tb[i, j] < 0:
                break
            used[i, j] = True
            is_target[i, tb[i, j]] = True
    mask = used[:, :, None] & ~is_target[:, None, :]  # (n, j, d)
    idx = torch.tensor(np.where(used, tb, 0), device=x.device)
    xt = x.gather(1, idx)
    z = 1 - xt.unsqueeze(2) + x.unsqueeze(1)
    loss = torch.where(torch.tensor(mask, device=x.device), torch.relu(z), 0.0).sum((1, 2)) / c
    if input.dim() < 2 and reduction == "none":
        return loss.squeeze(0)
    return _reduce(loss, reduction)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
                                      margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    """The triplet loss ``max(d(a, p) - d(a, n) + margin, 0)`` with any distance
    (default ``pairwise_distance``).

    Example::

        >>> import fgrad.torch as torch
        >>> a, p, n = torch.zeros(1, 2), torch.zeros(1, 2), torch.ones(1, 2)
        >>> triplet_margin_with_distance_loss(a, p, n, margin=2.0)
        tensor(0.5858)
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same "
                           f"number of "
                           f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D "
                           f"inputs")
    if distance_function is None:
        from .functional import pairwise_distance as distance_function
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = torch.minimum(dist_neg, distance_function(positive, negative))
    loss = torch.clamp_min(margin + dist_pos - dist_neg, 0)
    return _reduce(loss, reduction)
