"""Lazy modules: `LazyModuleMixin` and the ``Lazy*`` layers, whose input size is read from
the first input.

A lazy layer is built with `UninitializedParameter`s/`UninitializedBuffer`s; a forward
pre-hook calls ``initialize_parameters(input)`` on the first call, which materializes them
with the inferred shape and runs the layer's ``reset_parameters`` (so the generator is drawn
exactly as the eager layer would draw it: under the same seed the numbers are PyTorch's),
then the module becomes ``cls_to_become`` (``LazyLinear`` -> ``Linear``).  Loading a state
dict into a lazy module materializes its parameters with the loaded shapes first.

Example::

    >>> import fgrad.torch as torch
    >>> m = torch.nn.LazyLinear(3)
    >>> m
    LazyLinear(in_features=0, out_features=3, bias=True)
    >>> _ = m(torch.ones(2, 4))
    >>> m
    Linear(in_features=4, out_features=3, bias=True)
"""

from __future__ import annotations

import itertools

import fgrad.torch as torch
from ..parameter import UninitializedBuffer, UninitializedParameter, is_lazy
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, _NormBase
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .linear import Linear
from .normalization import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from fgrad.torch.types import Device, DType, IntOrInts, Tensor
from typing import Any

__all__ = ["LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
           "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
           "LazyBatchNorm3d",
           "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d"]


class LazyModuleMixin:
    """Infers parameter shapes from the first input (see the module docstring).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.LazyLinear(3)
        >>> isinstance(m, torch.nn.modules.lazy.LazyModuleMixin), m.has_uninitialized_params()
        (True, True)
        >>> _ = m(torch.ones(2, 5))
        >>> type(m).__name__, m.weight.shape
        ('Linear', torch.Size([3, 5]))
    """

    cls_to_become = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._register_lazy_hooks()

    def _register_lazy_hooks(self) -> None:
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters, with_kwargs=True)

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                        error_msgs) -> None:
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None and is_lazy(param) and not is_lazy(state_dict[key]):
                with torch.no_grad():
                    param.materialize(state_dict[key].shape)

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        """Materialize the parameters from the first input (each lazy layer defines it)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for {self.__class__.__name__}")

    def has_uninitialized_params(self) -> bool:
        """True while some parameter or buffer is not materialized."""
        return any(is_lazy(p) for p in itertools.chain(self._parameters.values(), self._buffers.values()))

    def _infer_parameters(self, module, args, kwargs=None):
        kwargs = kwargs if kwargs else {}
        module.initialize_parameters(*args, **kwargs)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Modules with uninitialized parameters can't be used with `DataParallel`. Run a "
                           "dummy "
                           "forward pass to correctly initialize the modules")


class LazyLinear(LazyModuleMixin, Linear):
    """`Linear` whose ``in_features`` is inferred from the first input.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.LazyLinear(3)
        >>> _ = m(torch.ones(2, 5))
        >>> m
        Linear(in_features=5, out_features=3, bias=True)
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Device = None,
                 dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(**factory_kwargs)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(**factory_kwargs)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        if self.has_uninitialized_params():
            with torch.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class _LazyConvXdMixin(LazyModuleMixin):
    _nd = 1

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args: Any, **kwargs: Any) -> None:
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            if self.transposed:
                self.weight.materialize((self.in_channels, self.out_channels // self.groups,
                                         *self.kernel_size))
            else:
                self.weight.materialize((self.out_channels, self.in_channels // self.groups,
                                         *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()

    def _get_in_channels(self, input) -> int:
        no_batch = self._nd + 1
        if input.dim() not in (no_batch, no_batch + 1):
            raise RuntimeError(f"Expected {no_batch}D (unbatched) or {no_batch + 1}D (batched) input to "
                               f"{self.__class__.__name__}, but got input of size: {input.shape}")
        return input.shape[1] if input.dim() == no_batch + 1 else input.shape[0]

    def _lazy_weights(self, out_channels: int, bias: bool, factory_kwargs: dict) -> None:
        """After the eager ``__init__`` (with 0 channels): the hooks and unmaterialized weights."""
        self._register_lazy_hooks()
        self.weight = UninitializedParameter(**factory_kwargs)
        if bias:
            self.bias = UninitializedParameter(**factory_kwargs)
        self.out_channels = out_channels


def _lazy_conv(name: str, base, nd: int):
    def __init__(self, out_channels: int, kernel_size: IntOrInts, stride: IntOrInts = 1,
                 padding: IntOrInts | str = 0, dilation: IntOrInts = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Device = None, dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        base.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode,
                      **factory_kwargs)
        self._lazy_weights(out_channels, bias, factory_kwargs)

    return _lazy_conv_class(name, base, nd, __init__)


def _lazy_conv_class(name: str, base, nd: int, init):
    spatial = ", ".join(["5"] * nd)
    kernel = ", ".join(["3"] * nd)
    weight = "2, 4" if "Transpose" in name else "4, 2"  # a transposed convolution's is (in, out, ...)
    doc = f"""`{base.__name__}` whose ``in_channels`` is inferred from the first input (the module
    becomes a `{base.__name__}` then).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.{name}(4, 3)
        >>> _ = m(torch.zeros(1, 2, {spatial}))
        >>> m.weight.shape, type(m).__name__
        (torch.Size([{weight}, {kernel}]), '{base.__name__}')
    """
    return type(name, (_LazyConvXdMixin, base), {"__init__": init, "cls_to_become": base, "_nd": nd,
                                                 "__doc__": doc, "__module__": __name__})


def _lazy_conv_transpose(name: str, base, nd: int):
    def __init__(self, out_channels: int, kernel_size: IntOrInts, stride: IntOrInts = 1,
                 padding: IntOrInts = 0, output_padding: IntOrInts = 0, groups: int = 1, bias: bool = True,
                 dilation: IntOrInts = 1, padding_mode: str = "zeros", device: Device = None,
                 dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        base.__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
                      padding_mode, **factory_kwargs)
        self._lazy_weights(out_channels, bias, factory_kwargs)

    return _lazy_conv_class(name, base, nd, __init__)


LazyConv1d = _lazy_conv("LazyConv1d", Conv1d, 1)
LazyConv2d = _lazy_conv("LazyConv2d", Conv2d, 2)
LazyConv3d = _lazy_conv("LazyConv3d", Conv3d, 3)
LazyConvTranspose1d = _lazy_conv_transpose("LazyConvTranspose1d", ConvTranspose1d, 1)
LazyConvTranspose2d = _lazy_conv_transpose("LazyConvTranspose2d", ConvTranspose2d, 2)
LazyConvTranspose3d = _lazy_conv_transpose("LazyConvTranspose3d", ConvTranspose3d, 3)


class _LazyNormBase(LazyModuleMixin, _NormBase):
    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Device = None, dtype: DType | None = None, *,
                 bias: bool = True) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(0, eps, momentum, False, False, **factory_kwargs, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = UninitializedParameter(**factory_kwargs)
            if bias:
                self.bias = UninitializedParameter(**factory_kwargs)
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer(**factory_kwargs)
            self.running_var = UninitializedBuffer(**factory_kwargs)
            self.num_batches_tracked = torch.tensor(
                0, dtype=torch.long, **{k: v for k, v in factory_kwargs.items() if k != "dtype"})

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()


def _lazy_norm(name: str, base):
    spatial = ", ".join(["4"] * int(name[-2]))
    doc = f"""`{base.__name__}` whose ``num_features`` is inferred from the first input (the module
    becomes a `{base.__name__}` then).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.{name}()
        >>> _ = m(torch.zeros(2, 3, {spatial}))
        >>> m.num_features, type(m).__name__
        (3, '{base.__name__}')
    """
    return type(name, (_LazyNormBase, base), {"cls_to_become": base, "__doc__": doc, "__module__": __name__})


LazyBatchNorm1d = _lazy_norm("LazyBatchNorm1d", BatchNorm1d)
LazyBatchNorm2d = _lazy_norm("LazyBatchNorm2d", BatchNorm2d)
LazyBatchNorm3d = _lazy_norm("LazyBatchNorm3d", BatchNorm3d)
LazyInstanceNorm1d = _lazy_norm("LazyInstanceNorm1d", InstanceNorm1d)
LazyInstanceNorm2d = _lazy_norm("LazyInstanceNorm2d", InstanceNorm2d)
LazyInstanceNorm3d = _lazy_norm("LazyInstanceNorm3d", InstanceNorm3d)
