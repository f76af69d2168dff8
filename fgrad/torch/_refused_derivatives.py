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

import functools
from collections.abc import Callable
from typing import Any

from ._tensor import Tensor
from .autograd.function import Function
from .autograd.grad_mode import STATE

__all__ = ["failing_backward", "needs_refusal", "refused_inplace", "refused_op"]


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


@functools.cache
def _node_class(node: str, inplace: bool) -> type:
    """The `Function` recording node ``node`` (its name as PyTorch shows it)."""
    base = NotImplementedInplace if inplace else NotImplementedNode
    cls = type(base.__name__, (base,), {})
    cls._backward_cls.__name__ = node
    return cls


def needs_refusal(*operands: Any) -> bool:
    """Whether a gradient could reach an op of ``operands`` (grad mode on, one requires grad)."""
    return STATE.enabled and any(isinstance(t, Tensor) and t.requires_grad for t in operands)


def refused_op(compute: Callable, aten_name: str, *operands: Any) -> Tensor:
    """``compute(*operands)``, whose backward raises PyTorch's "derivative for aten::NAME is not
    implemented"."""
    message = f"derivative for aten::{aten_name} is not implemented"
    return _node_class("NotImplemented", False).apply(compute, message, *operands)


def refused_inplace(compute_: Callable, aten_name: str, target: Tensor, *operands: Any) -> Tensor:
    """``compute_(target, *operands)`` in place, whose backward raises PyTorch's "derivative
    for aten::NAME is not implemented"."""
    message = f"derivative for aten::{aten_name} is not implemented"
    return _node_class("NotImplemented", True).apply(compute_, message, target, *operands)


def failing_backward(compute: Callable, node: str, message: str, *operands: Any) -> Tensor:
    """``compute(*operands)`` recorded as node ``node`` (PyTorch's name for the op's node) whose
    backward raises ``RuntimeError(message)``: an op PyTorch differentiates with a formula that
    fails for these operands (``pow`` with a bool exponent subtracts 1 from it)."""
    return _node_class(node, False).apply(compute, message, *operands)
