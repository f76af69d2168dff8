"""``torch.nn.grad`` (also ``F.grad``): the gradients of a convolution with respect to its input
and its weight, for a given output gradient.

Each is the engine's own derivative of ``F.conv{1,2,3}d``, taken with ``torch.autograd.grad``
at a zero input (or weight) of the requested size: a convolution is linear in each operand, so
the result does not depend on that value.

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> w = torch.ones(1, 1, 2)
    >>> F.grad.conv1d_input((1, 1, 3), w, torch.tensor([[[1.0, 2.0]]]))
    tensor([[[1., 3., 2.]]])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import fgrad.torch as torch

from .._tensor import Tensor
from . import functional as F

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input", "conv3d_weight"]

IntOrTuple = int | Sequence[int]


def _conv_grad(conv: Callable[..., Tensor], input: Tensor, weight: Tensor, grad_output: Tensor, wrt: int,
               stride: IntOrTuple, padding: IntOrTuple | str, dilation: IntOrTuple, groups: int) -> Tensor:
    """The gradient of ``conv(input, weight)`` with respect to operand ``wrt`` (0 or 1)."""
    keep_graph = torch.is_grad_enabled() and any(t.requires_grad for t in (input, weight, grad_output))
    with torch.enable_grad():
        ops = [input.detach(), weight.detach()] if not keep_graph else [input, weight]
        if not keep_graph or not ops[wrt].requires_grad:
            ops[wrt] = ops[wrt].detach().requires_grad_()
        out = conv(ops[0], ops[1], None, stride, padding, dilation, groups)
        if out.shape != grad_output.shape:
            raise RuntimeError(f"{conv.__name__}: grad_output has shape {tuple(grad_output.shape)} but the "
                               f"convolution's output has shape {tuple(out.shape)}; check the input size, "
                               "stride, padding and dilation")
        (g,) = torch.autograd.grad(out, ops[wrt], grad_output, create_graph=keep_graph)
    return g


def _zeros(size: Sequence[int], like: Tensor) -> Tensor:
    return torch.zeros(tuple(size), dtype=like.dtype, device=like.device)


def conv1d_input(input_size: Sequence[int], weight: Tensor, grad_output: Tensor, stride: IntOrTuple = 1,
                 padding: IntOrTuple = 0, dilation: IntOrTuple = 1, groups: int = 1) -> Tensor:
    """The gradient of ``F.conv1d`` with respect to an input of size ``input_size``.

    Example::

        >>> import fgrad.torch as torch
        >>> conv1d_input((1, 1, 3), torch.ones(1, 1, 2), torch.ones(1, 1, 2)).tolist()
        [[[1.0, 2.0, 1.0]]]
    """
    return _conv_grad(F.conv1d, _zeros(input_size, grad_output), weight, grad_output, 0, stride, padding,
                      dilation, groups)


def conv1d_weight(input: Tensor, weight_size: Sequence[int], grad_output: Tensor, stride: IntOrTuple = 1,
                  padding: IntOrTuple = 0, dilation: IntOrTuple = 1, groups: int = 1) -> Tensor:
    """The gradient of ``F.conv1d`` with respect to a weight of size ``weight_size``.

    Example::

        >>> import fgrad.torch as torch
        >>> conv1d_weight(torch.tensor([[[1.0, 2.0, 3.0]]]), (1, 1, 2), torch.ones(1, 1, 2)).tolist()
        [[[3.0, 5.0]]]
    """
    return _conv_grad(F.conv1d, input, _zeros(weight_size, grad_output), grad_output, 1, stride, padding,
                      dilation, groups)


def conv2d_input(input_size: Sequence[int], weight: Tensor, grad_output: Tensor, stride: IntOrTuple = 1,
                 padding: IntOrTuple = 0, dilation: IntOrTuple = 1, groups: int = 1) -> Tensor:
    """The gradient of ``F.conv2d`` with respect to an input of size ``input_size``.

    Example::

        >>> import fgrad.torch as torch
        >>> conv2d_input((1, 1, 2, 2), torch.ones(1, 1, 1, 1), torch.ones(1, 1, 2, 2)).shape
        torch.Size([1, 1, 2, 2])
    """
    return _conv_grad(F.conv2d, _zeros(input_size, grad_output), weight, grad_output, 0, stride, padding,
                      dilation, groups)


def conv2d_weight(input: Tensor, weight_size: Sequence[int], grad_output: Tensor, stride: IntOrTuple = 1,
                  padding: IntOrTuple = 0, dilation: IntOrTuple = 1, groups: int = 1) -> Tensor:
    """The gradient of ``F.conv2d`` with respect to a weight of size ``weight_size``.

    Example::

        >>> import fgrad.torch as torch
        >>> conv2d_weight(torch.ones(1, 1, 2, 2), (1, 1, 1, 1), torch.ones(1, 1, 2, 2)).tolist()
        [[[[4.0]]]]
    """
    return _conv_grad(F.conv2d, input, _zeros(weight_size, grad_output), grad_output, 1, stride, padding,
                      dilation, groups)


def conv3d_input(input_size: Sequence[int], weight: Tensor, grad_output: Tensor, stride: IntOrTuple = 1,
                 padding: IntOrTuple = 0, dilation: IntOrTuple = 1, groups: int = 1) -> Tensor:
    """The gradient of ``F.conv3d`` with respect to an input of size ``input_size``.

    Example::

        >>> import fgrad.torch as torch
        >>> conv3d_input((1, 1, 1, 1, 2), torch.ones(1, 1, 1, 1, 1), torch.ones(1, 1, 1, 1, 2)).tolist()
        [[[[[1.0, 1.0]]]]]
    """
    return _conv_grad(F.conv3d, _zeros(input_size, grad_output), weight, grad_output, 0, stride, padding,
                      dilation, groups)


def conv3d_weight(input: Tensor, weight_size: Sequence[int], grad_output: Tensor, stride: IntOrTuple = 1,
                  padding: IntOrTuple = 0, dilation: IntOrTuple = 1, groups: int = 1) -> Tensor:
    """The gradient of ``F.conv3d`` with respect to a weight of size ``weight_size``.

    Example::

        >>> import fgrad.torch as torch
        >>> conv3d_weight(torch.ones(1, 1, 1, 1, 2), (1, 1, 1, 1, 1), torch.ones(1, 1, 1, 1, 2)).tolist()
        [[[[[2.0]]]]]
    """
    return _conv_grad(F.conv3d, input, _zeros(weight_size, grad_output), grad_output, 1, stride, padding,
                      dilation, groups)
