"""Pooling modules: `MaxPool1d/2d/3d`, `AvgPool1d/2d/3d`, `AdaptiveAvgPool1d/2d`,
`AdaptiveMaxPool1d/2d`.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.MaxPool2d(2)(torch.arange(16.).view(1, 1, 4, 4))
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
"""

from __future__ import annotations

import fgrad.torch.nn.functional as F
from .module import Module
from fgrad.torch.types import IntOrInts, Tensor
from collections.abc import Sequence

__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]


class _MaxPoolNd(Module):
    __constants__ = ["kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"]

    def __init__(self, kernel_size: int | tuple[int, ...], stride: int | tuple[int, ...] | None = None,
                 padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, ...] = 1,
                 return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return ("kernel_size={kernel_size}, stride={stride}, padding={padding}, dilation={dilation}, "
                "ceil_mode={ceil_mode}".format(**self.__dict__))


class MaxPool1d(_MaxPoolNd):
    """Max over sliding windows of ``(N, C, L)`` input (`functional.max_pool1d`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.MaxPool1d(2)(torch.tensor([[[1.0, 3.0, 2.0, 4.0]]]))
        tensor([[[3., 4.]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    """Max over ``kernel_size`` windows (stride defaults to the kernel size).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.MaxPool2d(2)(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
        tensor([[[[4.]]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool3d(_MaxPoolNd):
    """Max over sliding windows of ``(N, C, D, H, W)`` input (`functional.max_pool3d`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.MaxPool3d(2)(torch.arange(8.0).reshape(1, 1, 2, 2, 2))
        tensor([[[[[7.]]]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool1d(Module):
    """Mean over sliding windows of ``(N, C, L)`` input (`functional.avg_pool1d`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AvgPool1d(2)(torch.tensor([[[1.0, 3.0, 2.0, 4.0]]]))
        tensor([[[2., 3.]]])
    """

    def __init__(self, kernel_size: IntOrInts, stride: IntOrInts | None = None,
                 padding: IntOrInts = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = (kernel_size,) if not isinstance(kernel_size, tuple) else kernel_size
        s = stride if stride is not None else kernel_size
        self.stride = (s,) if not isinstance(s, tuple) else s
        self.padding = (padding,) if not isinstance(padding, tuple) else padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool2d(Module):
    """Mean over ``kernel_size`` windows.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AvgPool2d(2)(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
        tensor([[[[2.5000]]]])
    """

    __constants__ = ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"]

    def __init__(self, kernel_size: IntOrInts, stride: IntOrInts | None = None,
                 padding: IntOrInts = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AvgPool3d(AvgPool2d):
    """Mean over sliding windows of ``(N, C, D, H, W)`` input (`functional.avg_pool3d`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AvgPool3d(2)(torch.arange(8.0).reshape(1, 1, 2, 2, 2))
        tensor([[[[[3.5000]]]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class _AdaptivePool(Module):
    def __init__(self, output_size: int | None | tuple[int | None, ...],
                 return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePool):
    """Mean pooling of ``(N, C, L)`` input to length ``output_size`` (`functional.adaptive_avg_pool1d`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AdaptiveAvgPool1d(2)(torch.tensor([[[1.0, 3.0, 2.0, 4.0]]]))
        tensor([[[2., 3.]]])
    """

    def __init__(self, output_size: int | None | tuple[int | None, ...]) -> None:
        super().__init__(output_size)
        del self.return_indices

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptivePool):
    """Mean pooling of ``(N, C, H, W)`` input to ``output_size`` (None keeps a size)
    (`functional.adaptive_avg_pool2d`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AdaptiveAvgPool2d(1)(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
        tensor([[[[2.5000]]]])
    """

    def __init__(self, output_size: int | None | tuple[int | None, ...]) -> None:
        super().__init__(output_size)
        del self.return_indices

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveMaxPool1d(_AdaptivePool):
    """Max pooling of ``(N, C, L)`` input to length ``output_size`` (``return_indices``: with the argmax).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AdaptiveMaxPool1d(2)(torch.tensor([[[1.0, 3.0, 2.0, 4.0]]]))
        tensor([[[3., 4.]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptivePool):
    """Max pooling of ``(N, C, H, W)`` input to ``output_size`` (``return_indices``: with the argmax).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AdaptiveMaxPool2d(1, return_indices=True)(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
        (tensor([[[[4.]]]]), tensor([[[[3]]]]))
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveAvgPool3d(_AdaptivePool):
    """Mean pooling of ``(N, C, D, H, W)`` input to ``output_size`` (`functional.adaptive_avg_pool3d`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AdaptiveAvgPool3d(1)(torch.arange(8.0).reshape(1, 1, 2, 2, 2))
        tensor([[[[[3.5000]]]]])
    """

    def __init__(self, output_size: int | None | tuple[int | None, ...]) -> None:
        super().__init__(output_size)
        del self.return_indices

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(_AdaptivePool):
    """Max pooling of ``(N, C, D, H, W)`` input to ``output_size`` (``return_indices``: with the argmax).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.AdaptiveMaxPool3d(1)(torch.arange(8.0).reshape(1, 1, 2, 2, 2))
        tensor([[[[[7.]]]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)

def _ntuple(x, n: int) -> tuple:
    if isinstance(x, (list, tuple)):
        return tuple(x)
    return (x,) * n


class _LPPoolNd(Module):
    __constants__ = ["norm_type", "kernel_size", "stride", "ceil_mode"]

    def __init__(self, norm_type: float, kernel_size: IntOrInts, stride: IntOrInts | None = None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return ("norm_type={norm_type}, kernel_size={kernel_size}, stride={stride}, "
                "ceil_mode={ceil_mode}".format(**self.__dict__))


class LPPool1d(_LPPoolNd):
    """The p-norm of each window (1-D).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.LPPool1d(2, 2)(torch.tensor([[[3.0, 4.0]]]))
        tensor([[[5.]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """The p-norm of each window (2-D).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.LPPool2d(2, 2)(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
        tensor([[[[5.4772]]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool3d(_LPPoolNd):
    """The p-norm of each window (3-D).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.LPPool3d(1, 2)(torch.arange(8.0).reshape(1, 1, 2, 2, 2))
        tensor([[[[[28.]]]]])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool3d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class _MaxUnpoolNd(Module):
    _nd = 1

    def __init__(self, kernel_size: IntOrInts, stride: IntOrInts | None = None,
                 padding: IntOrInts = 0) -> None:
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, self._nd)
        self.stride = _ntuple(stride if stride is not None else kernel_size, self._nd)
        self.padding = _ntuple(padding, self._nd)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input: Tensor, indices: Tensor, output_size: Sequence[int] | None = None) -> Tensor:
        fn = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._nd - 1]
        return fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool1d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool1d``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.MaxUnpool1d(2)(torch.tensor([[[3.0]]]), torch.tensor([[[1]]]))
        tensor([[[0., 3.]]])
    """

    _nd = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool2d``.

    Example::

        >>> import fgrad.torch as torch
        >>> out, idx = torch.nn.MaxPool2d(2, return_indices=True)(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
        >>> torch.nn.MaxUnpool2d(2)(out, idx)
        tensor([[[[0., 0.],
                  [0., 4.]]]])
    """

    _nd = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool3d``.

    Example::

        >>> import fgrad.torch as torch
        >>> out, idx = torch.nn.MaxPool3d(2, return_indices=True)(torch.arange(8.0).reshape(1, 1, 2, 2, 2))
        >>> torch.nn.MaxUnpool3d(2)(out, idx).flatten()
        tensor([0., 0., 0., 0., 0., 0., 0., 7.])
    """

    _nd = 3


class _FractionalMaxPoolNd(Module):
    _nd = 2
    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]

    def __init__(self, kernel_size: IntOrInts, output_size: IntOrInts | None = None,
                 output_ratio: float | Sequence[float] | None = None, return_indices: bool = False,
                 _random_samples: Tensor | None = None) -> None:
        super().__init__()
        nd = self._nd
        self.kernel_size = _ntuple(kernel_size, nd)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _ntuple(output_size, nd) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, nd) if output_ratio is not None else None
        name = type(self).__name__
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor) -> Tensor | tuple[Tensor, Tensor]:
        fn = F.fractional_max_pool2d if self._nd == 2 else F.fractional_max_pool3d
        return fn(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                  _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling (2-D).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.FractionalMaxPool2d(2, output_size=1)(torch.arange(16.0).view(1, 1, 4, 4))
        tensor([[[[15.]]]])
    """

    _nd = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling (3-D).

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.nn.FractionalMaxPool3d(2, output_size=2)(torch.zeros(1, 1, 4, 4, 4)).shape
        torch.Size([1, 1, 2, 2, 2])
    """

    _nd = 3

__all__ += ['LPPool1d', 'LPPool2d', 'LPPool3d', 'MaxUnpool1d', 'MaxUnpool2d', 'MaxUnpool3d',
            'FractionalMaxPool2d', 'FractionalMaxPool3d', 'AdaptiveMaxPool3d', 'AdaptiveAvgPool3d']
