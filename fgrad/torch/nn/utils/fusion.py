"""Folding an eval-mode batch norm into the preceding convolution or linear layer
(PyTorch's ``torch.nn.utils.fusion``): the fused weight is ``w * gamma / sqrt(var + eps)``
per output channel and the bias ``(b - mean) * gamma / sqrt(var + eps) + beta``.

Example::

    >>> import fgrad.torch as torch
    >>> lin, bn = torch.nn.Linear(2, 2).eval(), torch.nn.BatchNorm1d(2).eval()
    >>> x = torch.randn(3, 2)
    >>> bool(torch.allclose(fuse_linear_bn_eval(lin, bn)(x), bn(lin(x)), atol=1e-5))
    True
"""

from __future__ import annotations

import copy
from typing import TypeVar

import fgrad.torch as torch
from ..._tensor import Tensor
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights"]

M = TypeVar("M", bound=Module)


def fuse_conv_bn_eval(conv: M, bn: Module, transpose: bool = False) -> M:
    """A copy of ``conv`` (eval mode) that computes ``bn(conv(x))``.

    Example::

        >>> import fgrad.torch as torch
        >>> conv, bn = torch.nn.Conv2d(1, 2, 1).eval(), torch.nn.BatchNorm2d(2).eval()
        >>> type(fuse_conv_bn_eval(conv, bn)).__name__
        'Conv2d'
    """
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_conv = copy.deepcopy(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_conv.weight, fused_conv.bias = fuse_conv_bn_weights(fused_conv.weight, fused_conv.bias,
                                                              bn.running_mean,
                                                              bn.running_var, bn.eps, bn.weight, bn.bias,
                                                              transpose)
    return fused_conv


def fuse_conv_bn_weights(conv_w: Tensor, conv_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor, bn_eps: float,
                         bn_w: Tensor | None, bn_b: Tensor | None,
                         transpose: bool = False) -> tuple[Parameter, Parameter]:
    """The fused convolution weight and bias (``transpose``: the output channels are dim 1).

    Example::

        >>> import fgrad.torch as torch
        >>> w, b = fuse_conv_bn_weights(torch.ones(2, 1, 1), None, torch.zeros(2), torch.full((2,), 3.0), 1.0,
        ...                             None, None)
        >>> w.flatten()
        tensor([0.5000, 0.5000])
    """
    conv_weight_dtype = conv_w.dtype
    conv_bias_dtype = conv_b.dtype if conv_b is not None else conv_weight_dtype
    if conv_b is None:
        conv_b = torch.zeros_like(bn_rm)
    if bn_w is None:
        bn_w = torch.ones_like(bn_rm)
    if bn_b is None:
        bn_b = torch.zeros_like(bn_rm)
    bn_var_rsqrt = torch.rsqrt(bn_rv + bn_eps)
    shape = ([1, -1] if transpose else [-1, 1]) + [1] * (len(conv_w.shape) - 2)
    fused_conv_w = (conv_w * (bn_w * bn_var_rsqrt).reshape(shape)).to(dtype=conv_weight_dtype)
    fused_conv_b = ((conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b).to(dtype=conv_bias_dtype)
    return Parameter(fused_conv_w, conv_w.requires_grad), Parameter(fused_conv_b, conv_b.requires_grad)


def fuse_linear_bn_eval(linear: M, bn: Module) -> M:
    """A copy of ``linear`` (eval mode) that computes ``bn(linear(x))``.

    Example::

        >>> import fgrad.torch as torch
        >>> type(fuse_linear_bn_eval(torch.nn.Linear(2, 2).eval(), torch.nn.BatchNorm1d(2).eval())).__name__
        'Linear'
    """
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_linear = copy.deepcopy(linear)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(f"To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
                             f"linear.out_features={linear.out_features} and "
                             f"bn.num_features={bn.num_features}")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_linear.weight, fused_linear.bias = fuse_linear_bn_weights(fused_linear.weight, fused_linear.bias,
                                                                    bn.running_mean, bn.running_var, bn.eps,
                                                                    bn.weight, bn.bias)
    return fused_linear


def fuse_linear_bn_weights(linear_w: Tensor, linear_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor,
                           bn_eps: float,
                           bn_w: Tensor, bn_b: Tensor) -> tuple[Parameter, Parameter]:
    """The fused linear weight and bias.

    Example::

        >>> import fgrad.torch as torch
        >>> w, b = fuse_linear_bn_weights(torch.ones(2, 1), None, torch.zeros(2), torch.full((2,), 3.0), 1.0,
        ...                               torch.ones(2), torch.zeros(2))
        >>> w.flatten()
        tensor([0.5000, 0.5000])
    """
    linear_weight_dtype = linear_w.dtype
    linear_bias_dtype = linear_b.dtype if linear_b is not None else linear_weight_dtype
    if linear_b is None:
        linear_b = torch.zeros_like(bn_rm)
    bn_scale = bn_w * torch.rsqrt(bn_rv + bn_eps)
    fused_w = linear_w * bn_scale.unsqueeze(-1).to(dtype=linear_weight_dtype)
    fused_b = ((linear_b - bn_rm) * bn_scale + bn_b).to(dtype=linear_bias_dtype)
    return Parameter(fused_w, linear_w.requires_grad), Parameter(fused_b, linear_b.requires_grad)
