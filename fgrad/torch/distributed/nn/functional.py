"""``torch.distributed.nn.functional``: collectives with gradients (PyTorch's rules).

* `all_reduce(tensor, op=SUM)`: a new reduced tensor; its gradient is the all-reduce of the
  output gradients (every process's loss depends on every input).
* `all_gather(tensor)`: a tuple with every process's tensor; the gradient of this process's
  input is the sum over processes of their output gradients for it (a reduce-scatter).
* `broadcast(tensor, src)`: the source's tensor; the gradients are summed into the source.
* `reduce_scatter(output, input_list, op=SUM)`; its gradient is an all-gather.

Used, e.g., to gather embeddings from every process for a contrastive loss while keeping
their gradients.  As PyTorch 2.13, each call warns that the function is deprecated in favour
of ``torch.distributed._functional_collectives``.

Example::

    >>> import warnings, fgrad.torch as torch, fgrad.torch.distributed as dist
    >>> dist.init_process_group("gloo")
    >>> x = torch.ones(2, requires_grad=True)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     all_reduce(x * 3).sum().backward()
    >>> x.grad
    tensor([3., 3.])
    >>> dist.destroy_process_group()
"""

from __future__ import annotations

import warnings

import fgrad.torch as torch
import fgrad.torch.distributed as dist
from fgrad.torch.autograd.function import Function
from fgrad.torch.distributed import ReduceOp, group
from fgrad.torch.types import Tensor
from typing import Any


def _deprecated(name: str, suggestion: str) -> None:
    warnings.warn(f"torch.distributed.nn.functional.{name} is deprecated, use {suggestion} instead.",
                  FutureWarning, stacklevel=3)


class _AllReduce(Function):
    @staticmethod
    def forward(ctx, op, grp, tensor):
        ctx.group, ctx.op = grp, op
        out = tensor.detach().clone()
        dist.all_reduce(out, op=op, group=grp)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output.detach().clone()
        dist.all_reduce(g, op=ctx.op, group=ctx.group)
        return None, None, g


class _AllGather(Function):
    @staticmethod
    def forward(ctx, grp, tensor):
        ctx.group = grp
        outs = [torch.empty_like(tensor) for _ in range(dist.get_world_size(group=grp))]
        dist.all_gather(outs, tensor.detach().contiguous(), group=grp)
        return tuple(outs)

    @staticmethod
    def backward(ctx, *grad_outputs):
        gx = torch.empty_like(grad_outputs[dist.get_rank(group=ctx.group)])
        dist.reduce_scatter(gx, [g.detach().contiguous() for g in grad_outputs], op=ReduceOp.SUM,
                            group=ctx.group)
        return None, gx


class _Broadcast(Function):
    @staticmethod
    def forward(ctx, src, grp, tensor):
        ctx.src, ctx.group = src, grp
        out = tensor.detach().clone()
        dist.broadcast(out, src, group=grp)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output.detach().clone()
        dist.reduce(g, dst=ctx.src, op=ReduceOp.SUM, group=ctx.group)
        if dist.get_global_rank(dist._group(ctx.group), dist.get_rank(group=ctx.group)) != ctx.src:
            g.zero_()
        return None, None, g


class _ReduceScatter(Function):
    @staticmethod
    def forward(ctx, op, grp, output, *inputs):
        ctx.group = grp
        out = output.detach().clone()
        dist.reduce_scatter(out, [t.detach().contiguous() for t in inputs], op=op, group=grp)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        outs = [torch.empty_like(grad_output) for _ in range(dist.get_world_size(group=ctx.group))]
        dist.all_gather(outs, grad_output.detach().contiguous(), group=ctx.group)
        return (None, None, None) + tuple(outs)


def all_reduce(tensor: Tensor, op: Any = ReduceOp.SUM, group: Any = group.WORLD) -> Any:
    """``tensor`` reduced over the group, as a new tensor that autograd differentiates (the
    gradient is the all-reduce of the output gradients).

    Example::

        >>> callable(all_reduce)
        True
    """
    _deprecated("all_reduce", "torch.distributed._functional_collectives.all_reduce")
    return _AllReduce.apply(op, group, tensor)


def all_gather(tensor: Tensor, group: Any = group.WORLD) -> tuple:
    """Every process's ``tensor`` (a tuple, one per process), differentiable: this process's
    input gradient sums every process's output gradient for it.

    Example::

        >>> callable(all_gather)
        True
    """
    _deprecated("all_gather", "torch.distributed._functional_collectives.all_gather_single")
    return _AllGather.apply(group, tensor)


def broadcast(tensor: Tensor, src: int, group: Any = group.WORLD) -> Any:
    """Process ``src``'s ``tensor``, differentiable: the gradients of every process are
    summed into ``src``'s input (the others get zeros).

    Example::

        >>> callable(broadcast)
        True
    """
    _deprecated("broadcast", "torch.distributed._functional_collectives.broadcast")
    return _Broadcast.apply(src, group, tensor)


def reduce_scatter(output: Any, input_list: Any, op: Any = ReduceOp.SUM, group: Any = group.WORLD) -> Any:
    """`reduce_scatter` returning a new tensor, differentiable (the gradient all-gathers).

    Example::

        >>> callable(reduce_scatter)
        True
    """
    _deprecated("reduce_scatter", "torch.distributed._functional_collectives.reduce_scatter_single")
    return _ReduceScatter.apply(op, group, output, *input_list)


__all__ = ["all_reduce", "all_gather", "broadcast", "reduce_scatter"]
