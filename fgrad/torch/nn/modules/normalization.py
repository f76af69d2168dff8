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
           "LocalResponseNorm", "CrossMapLRN2d"]


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
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
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
        return ("{num_groups}, {num_channels}, eps={eps}, affine={affine}, "
                "bias={use_bias}".format(**self.__dict__, use_bias=self.bias is not None))


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


class _ChannelLRN(Module):
    """The options of the two cross-channel normalisations (``size``, ``alpha``, ``beta``,
    ``k``) and their repr."""

    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size: int, alpha: float, beta: float, k: float) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def extra_repr(self) -> str:
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


class LocalResponseNorm(_ChannelLRN):
    """``F.local_response_norm`` over the channels (axis 1) with the stored options.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.LocalResponseNorm(2)(torch.tensor([[[1.0], [2.0], [3.0]]]))
        tensor([[[1.0000],
                 [1.9996],
                 [2.9985]]])
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__(size, alpha, beta, k)

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

def _band(channels: int, lo: int, width: int, like: Tensor) -> Tensor:
    """The ``channels x channels`` 0/1 matrix whose row ``c`` marks channels ``c + lo`` to
    ``c + lo + width - 1`` (those inside ``[0, channels)``)."""
    c = torch.arange(channels, device=like.device)
    off = c.view(1, -1) - c.view(-1, 1) - lo
    return ((off >= 0) & (off < width)).to(like.dtype)


class _CrossMapLRN2dFunction(torch.autograd.Function):
    """Lua torch's ``SpatialCrossMapLRN`` as PyTorch 2.13 computes it, quirks included.

    Forward: ``y = x * (k + alpha / size * s) ** -beta`` where ``s[c]`` sums ``x**2`` over the
    channels ``c - h .. c + h`` (``h = (size - 1) // 2``; an even ``size`` spans ``size - 1``
    channels) *and channel 0 always* (PyTorch's running window never subtracts channel 0).
    Backward: PyTorch's hand formula ``g * scale**-beta - 2 alpha beta / size * x * a`` with
    ``a[c]`` the sum of ``g * y / scale`` over channels ``c - q .. c - q + size - 1``
    (``q = (size + 1) // 2``, a window one channel off centre): PyTorch's gradient, which
    is not the derivative of its forward.
    """

    @staticmethod
    def forward(ctx, input: Tensor, size: int, alpha: float, beta: float, k: float) -> Tensor:
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        channels = input.size(1)
        half = (size - 1) // 2
        window = _band(channels, -half, 2 * half + 1, input)
        window[:, 0] = 1.0  # channel 0 is never dropped from the running sum
        scale = torch.einsum("dc,nchw->ndhw", window, input * input).mul(alpha / size).add(k)
        output = input * scale.pow(-beta)
        ctx.size, ctx.alpha, ctx.beta = size, alpha, beta
        ctx.save_for_backward(input, output, scale)
        return output

    @staticmethod
    def backward(ctx, grad_output: Tensor) -> tuple:
        input, output, scale = ctx.saved_tensors
        size, alpha, beta = ctx.size, ctx.alpha, ctx.beta
        if size < 2:
            raise RuntimeError("CrossMapLRN2d: PyTorch's backward needs size >= 2 (its padded ratio buffer "
                               f"is {size - 1} channel(s) too short for size={size}); use LocalResponseNorm")
        window = _band(input.size(1), -((size + 1) // 2), size, input)
        ratio = torch.einsum("cd,ndhw->nchw", window, grad_output * output / scale)
        grad = grad_output * scale.pow(-beta) - (2 * alpha * beta / size) * input * ratio
        return grad, None, None, None, None


class CrossMapLRN2d(_ChannelLRN):
    """Cross-channel local response normalisation of 4-D input as Lua torch and PyTorch's
    ``nn.CrossMapLRN2d`` compute it: not ``LocalResponseNorm`` (the sum over the window is
    divided by ``size`` but always includes channel 0, and an even ``size`` spans ``size - 1``
    channels; its gradient is PyTorch's, see ``_CrossMapLRN2dFunction``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.CrossMapLRN2d(3, alpha=1.0, beta=1.0, k=1.0)(torch.ones(1, 3, 1, 1)).flatten()
        tensor([0.6000, 0.5000, 0.5000])
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__(size, alpha, beta, k)  # k's default is the int 1 (its repr says k=1)

    def forward(self, input: Tensor) -> Tensor:
        return _CrossMapLRN2dFunction.apply(input, self.size, self.alpha, self.beta, self.k)


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
