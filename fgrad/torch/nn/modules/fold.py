"""`Unfold` (im2col) and `Fold` (col2im), over ``F.unfold``/``F.fold``.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.Unfold(kernel_size=2)(torch.randn(1, 3, 4, 4)).shape
    torch.Size([1, 12, 9])
"""

from __future__ import annotations

import fgrad.torch.nn.functional as F
from .module import Module
from fgrad.torch.types import Tensor

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """Sum sliding blocks (N, C * prod(kernel_size), L) into (N, C, *output_size).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Fold(output_size=(2, 2), kernel_size=1)(torch.arange(4.0).reshape(1, 1, 4))
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """

    __constants__ = ["output_size", "kernel_size", "dilation", "padding", "stride"]

    def __init__(self, output_size: int | tuple[int, ...], kernel_size: int | tuple[int, ...],
                 dilation: int | tuple[int, ...] = 1, padding: int | tuple[int, ...] = 0,
                 stride: int | tuple[int, ...] = 1) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (
            "output_size={output_size}, kernel_size={kernel_size}, dilation={dilation}, padding={padding}, "
            "stride={stride}".format(**self.__dict__)
        )


class Unfold(Module):
    """Extract sliding blocks: (N, C, H, W) -> (N, C * prod(kernel_size), L).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.Unfold(kernel_size=2)(torch.arange(9.0).reshape(1, 1, 3, 3))
        tensor([[[0., 1., 3., 4.],
                 [1., 2., 4., 5.],
                 [3., 4., 6., 7.],
                 [4., 5., 7., 8.]]])
    """

    __constants__ = ["kernel_size", "dilation", "padding", "stride"]

    def __init__(self, kernel_size: int | tuple[int, ...], dilation: int | tuple[int, ...] = 1,
                 padding: int | tuple[int, ...] = 0, stride: int | tuple[int, ...] = 1) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return "kernel_size={kernel_size}, dilation={dilation}, padding={padding}, stride={stride}".format(
            **self.__dict__
        )
