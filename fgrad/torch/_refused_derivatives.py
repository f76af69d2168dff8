"""Ops PyTorch computes but refuses to differentiate: the forward runs, a gradient reaching
the node raises PyTorch's error ("derivative for aten::floor_divide is not implemented").

The core differentiates these ops (``floor_divide``'s derivative is 0, the derivative of a
piecewise-constant function); the shim's faces record them as a node whose backward raises,
as PyTorch's ``NotImplemented`` node does, so a PyTorch program that would fail does not get a
silent zero gradient here.

Example::

    >>> import fgrad.torch as torch
    >>> x = torch.tensor([7.0, -3.0], requires_grad=True)
    >>> y = x // 2
    >>> y
    tensor([ 3., -2.], grad_fn=<NotImplemented>)
    >>> try:
    ...     y.sum().backward()
    ... except RuntimeError as e:
    ...     print(e)
    derivative for aten::floor_divide is not implemented
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._tensor import Tensor
from .autograd.function import Function
from .autograd.grad_mode import STATE

__all__ = ["needs_refusal", "refused_inplace", "refused_op"]


class NotImplementedNode(Function):
    """``compute(*operands)`` recorded as a node whose backward raises ``message``."""

    @staticmethod
    def forward(ctx: Any, compute: Callable, message: str, *operands: Any) -> Tensor:
        ctx.message = message
        return compute(*operands)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        raise RuntimeError(ctx.message)


class NotImplementedInplace(Function):
    """``compute_(target, *operands)`` writing into ``target``, recorded as a node whose
    backward raises ``message``."""

    @staticmethod
    def forward(ctx: Any, compute_: Callable, message: str, target: Tensor, *operands: Any) -> Tensor:
        ctx.message = message
        ctx.mark_dirty(target)
        return compute_(target, *operands)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        raise RuntimeError(ctx.message)


# the node's name as PyTorch shows it
NotImplementedNode._backward_cls.__name__ = "NotImplemented"
NotImplementedInplace._backward_cls.__name__ = "NotImplemented"


def needs_refusal(*operands: Any) -> bool:
    """Whether a gradient could reach an op of ``operands`` (grad mode on, one requires grad)."""
    return STATE.enabled and any(isinstance(t, Tensor) and t.requires_grad for t in operands)


def refused_op(compute: Callable, aten_name: str, *operands: Any) -> Tensor:
    """``compute(*operands)``, whose backward raises PyTorch's "derivative for aten::NAME is not
    implemented"."""
    message = f"derivative for aten::{aten_name} is not implemented"
    return NotImplementedNode.apply(compute, message, *operands)


def refused_inplace(compute_: Callable, aten_name: str, target: Tensor, *operands: Any) -> Tensor:
    """``compute_(target, *operands)`` in place, whose backward raises PyTorch's "derivative
    for aten::NAME is not implemented"."""
    message = f"derivative for aten::{aten_name} is not implemented"
    return NotImplementedInplace.apply(compute_, message, target, *operands)
