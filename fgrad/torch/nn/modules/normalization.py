"""`LayerNorm`, `GroupNorm` (and `InstanceNorm1d/2d`).

Example::

    >>> import fgrad.torch as torch
    >>> ln = torch.nn.LayerNorm(4)
    >>> ln(torch.arange(8.).view(2, 4)).detach().mean(dim=1).abs().max() < 1e-6
    tensor(True)
"""

from __future__ import annotations

import numbers

import fgrad.torch as torch

import fgrad.torch.nn.functional as F
import fgrad.torch.nn.init as init
from ..parameter import Parameter
from .batchnorm import _NormBase
from .module import Module
from fgrad.torch.types import Device, DType, SizeLike, Tensor

__all__ = ["LayerNorm", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
           "LocalResponseNorm"]


class LayerNorm(Module):
    """Normalise over the trailing ``normalized_shape`` dims, then scale and shift.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.LayerNorm(3)(torch.tensor([[1.0, 2.0, 3.0]]))
        tensor([[-1.2247,  0.0000,  1.2247]], grad_fn=<NativeLayerNormBackward0>)
    """

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape: int | list[int] | SizeLike, eps: float = 1e-5,
                 elementwise_affine: bool = True,
                 bias: bool = True,
                 device: Device = None, dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, **factory_kwargs))
            if bias:
                self.bias = Parameter(torch.empty(self.normalized_shape, **factory_kwargs))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return ("{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}, "
                "bias={use_bias}".format(**self.__dict__, use_bias=self.bias is not None))


class GroupNorm(Module):
    """Normalise over groups of channels.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.GroupNorm(1, 2)(torch.tensor([[[1.0], [3.0]]]))
        tensor([[[-1.0000],
                 [ 1.0000]]], grad_fn=<NativeGroupNormBackward0>)
    """

    __constants__ = ["num_groups", "num_channels", "eps", "affine"]

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 device: Device = None,
                 dtype: DType | None = None, *, bias: bool = True) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.weight = Parameter(torch.empty(num_channels, **factory_kwargs))
            if bias:
                self.bias = Parameter(torch.empty(num_channels, **factory_kwargs))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return "{num_groups}, {num_channels}, eps={eps}, affine={affine}".format(**self.__dict__)


class _InstanceNorm(_NormBase):
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = False,
                 track_running_stats: bool = False, device: Device = None, dtype: DType | None = None, *,
                 bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _check_input_dim(self, input) -> None:
        raise NotImplementedError

    def _get_no_batch_dim(self) -> int:
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        unbatched = input.dim() == self._get_no_batch_dim()
        if unbatched:
            input = input.unsqueeze(0)
        out = F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats, self.momentum or 0.0, self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of ``(N, C, L)`` or ``(C, L)`` input: each channel of each sample
    over its length.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.InstanceNorm1d(1)(torch.tensor([[[1.0, 2.0, 3.0]]]))
        tensor([[[-1.2247,  0.0000,  1.2247]]])
    """

    def _get_no_batch_dim(self) -> int:
        return 2

    def _check_input_dim(self, input) -> None:
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of ``(N, C, H, W)`` or ``(C, H, W)`` input: each channel of each
    sample over its plane.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.InstanceNorm2d(1)(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
        tensor([[[[-1.3416, -0.4472],
                  [ 0.4472,  1.3416]]]])
    """

    def _get_no_batch_dim(self) -> int:
        return 3

    def _check_input_dim(self, input) -> None:
        if input.dim() not in (3, 4):
            raise ValueError(f"expected 3D or 4D input (got {input.dim()}D input)")


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input: each channel of
    each sample over its volume.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.InstanceNorm3d(1)(torch.tensor([[[[[1.0, 3.0]]]]]))
        tensor([[[[[-1.0000,  1.0000]]]]])
    """

    def _get_no_batch_dim(self) -> int:
        return 4

    def _check_input_dim(self, input) -> None:
        if input.dim() not in (4, 5):
            raise ValueError(f"expected 4D or 5D input (got {input.dim()}D input)")


class LocalResponseNorm(Module):
    """``F.local_response_norm`` over the channels (axis 1) with the stored options.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.LocalResponseNorm(2)(torch.tensor([[[1.0], [2.0], [3.0]]]))
        tensor([[[1.0000],
                 [1.9996],
                 [2.9985]]])
    """

    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)

class RMSNorm(Module):
    """Root-mean-square normalisation over the trailing ``normalized_shape`` dims, then a scale.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.RMSNorm(2, eps=0.0)(torch.tensor([[3.0, 4.0]]))
        tensor([[0.8485, 1.1314]], grad_fn=<MulBackward0>)
    """

    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape: int | SizeLike, eps: float | None = None,
                 elementwise_affine: bool = True, device: Device = None, dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, **factory_kwargs))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return ("{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}"
                .format(**self.__dict__))

__all__ += ['RMSNorm']
