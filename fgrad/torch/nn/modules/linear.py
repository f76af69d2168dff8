"""`Identity`, `Linear`, `Bilinear`.

``Linear(in, out)`` holds ``weight`` (out, in) initialised with kaiming_uniform_(a=sqrt(5))
and ``bias`` (out,) with U(-1/sqrt(in), 1/sqrt(in)) -- PyTorch's defaults -- and computes
``x @ weight.T + bias`` as one node.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.Linear(784, 512)
    Linear(in_features=784, out_features=512, bias=True)
"""

from __future__ import annotations

import math

import fgrad.torch as torch

import fgrad.torch.nn.functional as F
import fgrad.torch.nn.init as init
from ..parameter import Parameter
from .module import Module
from fgrad.torch.types import Device, DType, Tensor
from typing import Any

__all__ = ["Identity", "Linear", "Bilinear", "NonDynamicallyQuantizableLinear"]


class Identity(Module):
    """Returns its input (accepts and ignores any constructor arguments).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Identity(54, unused='argument')(torch.tensor([1.0, 2.0]))
        tensor([1., 2.])
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    """``y = x A^T + b``.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> m = torch.nn.Linear(2, 3)
        >>> m
        Linear(in_features=2, out_features=3, bias=True)
        >>> m(torch.ones(4, 2)).shape
        torch.Size([4, 3])
    """

    __constants__ = ["in_features", "out_features"]

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: Device = None,
                 dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)  # attributes: a parametrization may own them

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(Linear):
    """A `Linear` (PyTorch's class of ``MultiheadAttention.out_proj``, kept so pickled modules load).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.modules.linear.NonDynamicallyQuantizableLinear(2, 3).weight.shape
        torch.Size([3, 2])
    """


class Bilinear(Module):
    """``y_k = x1^T A_k x2 + b_k``.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Bilinear(2, 3, 4)
        >>> m(torch.ones(5, 2), torch.ones(5, 3)).shape
        torch.Size([5, 4])
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True,
                 device: Device = None,
                 dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in1_features, in2_features), **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
