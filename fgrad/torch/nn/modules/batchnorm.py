"""`BatchNorm1d`, `BatchNorm2d`, `BatchNorm3d`.

Training mode normalises with the batch statistics and updates ``running_mean`` /
``running_var`` (momentum 0.1, or a cumulative average when ``momentum=None``) and
``num_batches_tracked``; eval mode normalises with the running statistics.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.BatchNorm1d(4)
    BatchNorm1d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
"""

from __future__ import annotations

import fgrad.torch as torch

import fgrad.torch.nn.functional as F
import fgrad.torch.nn.init as init
from ..parameter import Parameter
from .module import Module
import fgrad.torch.distributed as dist
from fgrad.torch.distributed.nn import functional as dnn
from fgrad.torch.types import Device, DType, Tensor
from typing import Any

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]


class _NormBase(Module):
    _version = 2
    __constants__ = ["track_running_stats", "momentum", "eps", "num_features", "affine"]

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True,
                 track_running_stats: bool = True, device: Device = None, dtype: DType | None = None, *,
                 bias: bool = True) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = Parameter(torch.empty(num_features, **factory_kwargs))
            if bias:
                self.bias = Parameter(torch.empty(num_features, **factory_kwargs))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.track_running_stats:
            self.register_buffer("running_mean", torch.zeros(num_features, **factory_kwargs))
            self.register_buffer("running_var", torch.ones(num_features, **factory_kwargs))
            self.register_buffer("num_batches_tracked",
                                 torch.tensor(0, dtype=torch.long,
                                              **{k: v for k, v in factory_kwargs.items() if k != "dtype"}))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input) -> None:
        raise NotImplementedError

    def extra_repr(self) -> str:
        return ("{num_features}, eps={eps}, momentum={momentum}, affine={affine}, bias={use_bias}, "
                "track_running_stats={track_running_stats}".format(**self.__dict__,
                                                                   use_bias=self.bias is not None))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs) -> None:
        version = local_metadata.get("version", None)
        if (version is None or version < 2) and self.track_running_stats:
            key = prefix + "num_batches_tracked"
            if key not in state_dict:
                state_dict[key] = self.num_batches_tracked if self.num_batches_tracked is not None and \
                    self.num_batches_tracked.device != torch.device("meta") else torch.tensor(0,
                                                                                              dtype=torch.long)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys,
                                      error_msgs)


class _BatchNorm(_NormBase):
    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        if self.momentum is None:
            exponential_average_factor = 0.0
        else:
            exponential_average_factor = self.momentum
        if self.training and self.track_running_stats:
            if self.num_batches_tracked is not None:
                F._count_batch(self.num_batches_tracked)  # noqa: SLF001 - add_(1) on a host buffer
                if self.momentum is None:
                    exponential_average_factor = 1.0 / float(self.num_batches_tracked)
                else:
                    exponential_average_factor = self.momentum
        if self.training:
            bn_training = True
        else:
            bn_training = (self.running_mean is None) and (self.running_var is None)
        return F.batch_norm(
            input,
            self.running_mean if not self.training or self.track_running_stats else None,
            self.running_var if not self.training or self.track_running_stats else None,
            self.weight, self.bias, bn_training, exponential_average_factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation over (N, C) or (N, C, L) inputs.

    Example::

        >>> import fgrad.torch as torch
        >>> bn = torch.nn.BatchNorm1d(2)
        >>> bn(torch.tensor([[1.0, 2.0], [3.0, 6.0]]))
        tensor([[-1.0000, -1.0000],
                [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
        >>> bn.running_mean
        tensor([0.2000, 0.4000])
    """

    def _check_input_dim(self, input) -> None:
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalisation over (N, C, H, W) inputs.

    Example::

        >>> import fgrad.torch as torch
        >>> bn = torch.nn.BatchNorm2d(3)
        >>> bn(torch.arange(24.0).reshape(2, 3, 2, 2)).mean((0, 2, 3)).abs().max() < 1e-6
        tensor(True)
        >>> bn.running_mean
        tensor([0.7500, 1.1500, 1.5500])
    """

    def _check_input_dim(self, input) -> None:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalization over the channels of ``(N, C, D, H, W)`` input (`functional.batch_norm`).

    Example::

        >>> import fgrad.torch as torch
        >>> bn = torch.nn.BatchNorm3d(2)
        >>> bn(torch.arange(16.0).reshape(2, 2, 2, 2, 1)).shape
        torch.Size([2, 2, 2, 2, 1])
        >>> bn.running_mean
        tensor([0.5500, 0.9500])
    """

    def _check_input_dim(self, input) -> None:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose batch statistics are those of the whole process group.

    With ``fgrad.torch.distributed`` not initialized, or a group of one process, or in
    eval mode, it is `BatchNorm` (as in PyTorch).  In a larger group the per-channel sum,
    sum of squares and count are all-reduced with the differentiable
    ``torch.distributed.nn.all_reduce`` (so the backward pass reduces the gradient terms too);
    unlike PyTorch, CPU tensors are accepted (fgrad's process groups run on MPI).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.SyncBatchNorm(2)(torch.tensor([[1.0, 2.0], [3.0, 6.0]]))
        tensor([[-1.0000, -1.0000],
                [ 1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True,
                 track_running_stats: bool = True, process_group: Any | None = None, device: Device = None,
                 dtype: DType | None = None, *,
                 bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input) -> None:
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        if input.shape[1] == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")
        need_sync = self.training and dist.is_available() and dist.is_initialized()
        if need_sync:
            group = self.process_group if self.process_group else dist.group.WORLD
            need_sync = dist.get_world_size(group) > 1
        if not need_sync:
            return super().forward(input)
        return self._synced(input, group)

    def _synced(self, input, group):
        momentum = self.momentum
        if self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:
                momentum = 1.0 / float(self.num_batches_tracked)
        c = input.shape[1]
        dims = [0] + list(range(2, input.dim()))
        count = torch.full((1,), input.numel() // c, dtype=input.dtype, device=input.device)
        stats = torch.cat([input.sum(dims), (input * input).sum(dims), count])
        stats = dnn.all_reduce(stats, group=group)
        total = stats[-1]
        mean = stats[:c] / total
        var = stats[c:2 * c] / total - mean * mean
        shape = [1, c] + [1] * (input.dim() - 2)
        out = (input - mean.view(shape)) * torch.rsqrt(var.view(shape) + self.eps)
        if self.weight is not None:
            out = out * self.weight.view(shape)
        if self.bias is not None:
            out = out + self.bias.view(shape)
        if self.track_running_stats:
            with torch.no_grad():
                n = float(total)
                self.running_mean.mul_(1 - momentum).add_(mean.detach() * momentum)
                self.running_var.mul_(1 - momentum).add_(var.detach() * (momentum * n / max(n - 1, 1)))
        return out

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any | None = None) -> Module:
        """Replace every ``BatchNorm*D`` in ``module`` by a `SyncBatchNorm` sharing its state.

        Example::

            >>> import fgrad.torch as torch
            >>> torch.nn.SyncBatchNorm.convert_sync_batchnorm(torch.nn.Sequential(torch.nn.BatchNorm1d(2)))
            Sequential(
              (0): SyncBatchNorm(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
            )
        """
        module_output = module
        if isinstance(module, _BatchNorm):
            module_output = SyncBatchNorm(module.num_features, module.eps, module.momentum, module.affine,
                                          module.track_running_stats, process_group,
                                          bias=module.bias is not None)
            if module.affine:
                with torch.no_grad():
                    module_output.weight = module.weight
                    module_output.bias = module.bias
            module_output.running_mean = module.running_mean
            module_output.running_var = module.running_var
            module_output.num_batches_tracked = module.num_batches_tracked
            module_output.training = module.training
        for name, child in module.named_children():
            module_output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        del module
        return module_output


__all__ += ["SyncBatchNorm"]
