"""`Conv1d`, `Conv2d`, `Conv3d` and `ConvTranspose1d`, `ConvTranspose2d`, `ConvTranspose3d`.

Weights (out_channels, in_channels/groups, *kernel_size) and bias are initialised as in
PyTorch: kaiming_uniform_(a=sqrt(5)) and U(-1/sqrt(fan_in), 1/sqrt(fan_in)).  The forward is
``F.conv{1,2,3}d`` / ``F.conv_transpose{1,2,3}d`` (the ``lax.conv_general_dilated`` primitive;
padding modes other than 'zeros' pad with ``F.pad`` first).

Example::

    >>> import fgrad.torch as torch
    >>> conv = torch.nn.Conv1d(in_channels=256, out_channels=100, kernel_size=2)
    >>> conv(torch.randn(32, 256, 35)).size()
    torch.Size([32, 100, 34])
"""

from __future__ import annotations

import math

import fgrad.torch as torch

import fgrad.torch.nn.functional as F
import fgrad.torch.nn.init as init
from ..parameter import Parameter
from .module import Module
from .utils import _reverse_repeat_tuple
from fgrad.torch.types import Device, DType, IntOrInts, Tensor

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]


def _ntuple(x, n):
    if isinstance(x, (list, tuple)):
        return tuple(x)
    return (x,) * n




class _ConvNd(Module):
    __constants__ = ["stride", "padding", "dilation", "groups", "padding_mode", "output_padding",
                     "in_channels",
                     "out_channels", "kernel_size"]

    def __init__(self, in_channels: int, out_channels: int, kernel_size: IntOrInts,
                 stride: IntOrInts, padding: str | IntOrInts, dilation: IntOrInts, transposed: bool,
                 output_padding: IntOrInts, groups: int, bias: bool, padding_mode: str, device: Device = None,
                 dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total_padding = d * (k - 1)
                    left_pad = total_padding // 2
                    self._reversed_padding_repeated_twice[2 * i] = left_pad
                    self._reversed_padding_repeated_twice[2 * i + 1] = total_padding - left_pad
        else:
            self._reversed_padding_repeated_twice = list(_reverse_repeat_tuple(self.padding, 2))
        if transposed:
            shape = (in_channels, out_channels // groups, *kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(torch.empty(shape, **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding if isinstance(self.padding, tuple) else ()):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        if not hasattr(self, "padding_mode"):
            self.padding_mode = "zeros"

    def _conv_forward(self, input, weight, bias, fn):
        if self.padding_mode != "zeros":
            return fn(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), weight,
                      bias,
                      self.stride, 0, self.dilation, self.groups)
        return fn(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)


class Conv1d(_ConvNd):
    """1-D convolution over (N, C_in, L).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Conv1d(2, 4, kernel_size=3, padding=1)
        >>> m
        Conv1d(2, 4, kernel_size=(3,), stride=(1,), padding=(1,))
        >>> m(torch.zeros(1, 2, 10)).shape
        torch.Size([1, 4, 10])
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: IntOrInts,
                 stride: IntOrInts = 1, padding: str | IntOrInts = 0,
                 dilation: IntOrInts = 1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device: Device = None,
                 dtype: DType | None = None) -> None:
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, 1), _ntuple(stride, 1),
                         padding if isinstance(padding, str) else _ntuple(padding, 1), _ntuple(dilation, 1),
                         False, (0,), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias, F.conv1d)


class Conv2d(_ConvNd):
    """2-D convolution over (N, C_in, H, W).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Conv2d(3, 8, kernel_size=3, stride=2)
        >>> m(torch.zeros(1, 3, 9, 9)).shape
        torch.Size([1, 8, 4, 4])
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: IntOrInts,
                 stride: IntOrInts = 1, padding: str | IntOrInts = 0,
                 dilation: IntOrInts = 1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device: Device = None,
                 dtype: DType | None = None) -> None:
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, 2), _ntuple(stride, 2),
                         padding if isinstance(padding, str) else _ntuple(padding, 2), _ntuple(dilation, 2),
                         False, (0, 0), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias, F.conv2d)


class Conv3d(_ConvNd):
    """3-D convolution over (N, C_in, D, H, W).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Conv3d(1, 2, kernel_size=2)
        >>> m(torch.zeros(1, 1, 3, 4, 5)).shape
        torch.Size([1, 2, 2, 3, 4])
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: IntOrInts,
                 stride: IntOrInts = 1, padding: str | IntOrInts = 0,
                 dilation: IntOrInts = 1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device: Device = None,
                 dtype: DType | None = None) -> None:
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, 3), _ntuple(stride, 3),
                         padding if isinstance(padding, str) else _ntuple(padding, 3), _ntuple(dilation, 3),
                         False, (0, 0, 0), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias, F.conv3d)


class _ConvTransposeNd(_ConvNd):
    _nd = 0
    _fn_name = ""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: IntOrInts,
                 stride: IntOrInts = 1, padding: IntOrInts = 0,
                 output_padding: IntOrInts = 0,
                 groups: int = 1, bias: bool = True, dilation: IntOrInts = 1,
                 padding_mode: str = "zeros",
                 device: Device = None, dtype: DType | None = None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
        n = self._nd
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, n), _ntuple(stride, n),
                         _ntuple(padding, n), _ntuple(dilation, n), True, _ntuple(output_padding, n), groups,
                         bias, padding_mode, device, dtype)

    def _output_padding(self, input, output_size) -> tuple:
        """The output padding that gives ``output_size`` (PyTorch's rule: between the minimum
        size and that plus stride - 1)."""
        if output_size is None:
            return self.output_padding
        n = self._nd
        output_size = list(output_size)[-n:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} or "
                             f"{n + 2} elements (got {len(output_size) + 2})")
        spatial = input.shape[-n:]
        lows = [(spatial[d] - 1) * self.stride[d] - 2 * self.padding[d]
                + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        highs = [lo + st - 1 for lo, st in zip(lows, self.stride)]
        if any(not lo <= size <= hi for size, lo, hi in zip(output_size, lows, highs)):
            raise ValueError(f"requested an output size of {output_size}, but valid sizes range from "
                             f"{lows} to {highs} (for an input of {spatial})")
        return tuple(size - lo for size, lo in zip(output_size, lows))

    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor:
        op = self._output_padding(input, output_size)
        fn = getattr(F, self._fn_name)
        return fn(input, self.weight, self.bias, self.stride, self.padding, op, self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution over (N, C_in, L); weight (C_in, C_out/groups, k).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.ConvTranspose1d(2, 4, kernel_size=3, stride=2)
        >>> m(torch.zeros(1, 2, 5)).shape
        torch.Size([1, 4, 11])
    """

    _nd, _fn_name = 1, "conv_transpose1d"


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution over (N, C_in, H, W); weight (C_in, C_out/groups, kh, kw).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.ConvTranspose2d(2, 3, 3, stride=2)(torch.randn(1, 2, 4, 4)).shape
        torch.Size([1, 3, 9, 9])

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.ConvTranspose2d(2, 4, kernel_size=2, stride=2)
        >>> m(torch.zeros(1, 2, 3, 3)).shape
        torch.Size([1, 4, 6, 6])
    """

    _nd, _fn_name = 2, "conv_transpose2d"


class ConvTranspose3d(_ConvTransposeNd):
    """3-D transposed convolution over (N, C_in, D, H, W).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.ConvTranspose3d(1, 2, kernel_size=2, stride=2)
        >>> m(torch.zeros(1, 1, 2, 2, 2)).shape
        torch.Size([1, 2, 4, 4, 4])
    """

    _nd, _fn_name = 3, "conv_transpose3d"
