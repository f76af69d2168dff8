"""The hook-based ``weight_norm`` / ``remove_weight_norm`` (PyTorch's older API, deprecated
there in favour of ``parametrizations.weight_norm``).

``weight_norm(module)`` replaces ``module.weight`` by two parameters, ``weight_g`` (the
norms over every dim but ``dim``) and ``weight_v`` (the direction), and recomputes
``weight = v * (g / ||v||)`` in a forward pre-hook, with Tensor ops (so its gradients are the
engine's).  ``remove_weight_norm`` folds it back into one parameter.

Example::

    >>> import warnings
    >>> import fgrad.torch as torch
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    >>> sorted(n for n, _ in m.named_parameters())
    ['bias', 'weight_g', 'weight_v']
"""

from __future__ import annotations

import warnings
import sys as _sys
import types as _types
from typing import Any, TypeVar

from ..._tensor import Tensor
from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm", "norm_except_dim"]

T_module = TypeVar("T_module", bound=Module)


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm of ``v`` over every dim except ``dim`` (kept, the others size 1);
    ``dim=-1``: the norm of all of ``v`` (PyTorch's ``torch.norm_except_dim``).

    Example::

        >>> import fgrad.torch as torch
        >>> norm_except_dim(torch.tensor([[3.0, 4.0], [0.0, 1.0]]), 2, 0)
        tensor([[5.],
                [1.]])
    """
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        shape = [v.size(0)] + [1] * (v.dim() - 1)
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view(shape)
    if dim == v.dim() - 1:
        shape = [1] * (v.dim() - 1) + [v.size(-1)]
        return v.contiguous().view(-1, v.size(-1)).norm(pow, 0).view(shape)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v: Tensor, g: Tensor, dim: int) -> Tensor:
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook that recomputes ``name`` from ``name_g`` and ``name_v``.

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", FutureWarning)  # weight_norm is deprecated
        ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
        >>> [type(h).__name__ for h in m._forward_pre_hooks.values()], m.weight_g.shape
        (['WeightNorm'], torch.Size([2, 1]))
    """

    def __init__(self, name: str, dim: int) -> None:
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module: Module) -> Any:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int) -> "WeightNorm":
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `WeightNorm` can't have uninitialized parameters. Make "
                             "sure to "
                             "run the dummy forward before applying weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: T_module, name: str = "weight", dim: int | None = 0) -> T_module:
    """Reparametrize ``module.<name>`` as ``g * v / ||v||`` (norm over every dim but ``dim``;
    ``dim=None``: over all).  Warns ``FutureWarning`` as PyTorch does.

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     m = weight_norm(torch.nn.Linear(2, 1))
        >>> tuple(m.weight_g.shape)
        (1, 1)
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: T_module, name: str = "weight") -> T_module:
    """Undo `weight_norm`: one parameter ``name`` again (its current value).

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     m = remove_weight_norm(weight_norm(torch.nn.Linear(2, 1)))
        >>> sorted(n for n, _ in m.named_parameters())
        ['bias', 'weight']
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")


class _CallableModule(_types.ModuleType):
    """This module, callable as its function: ``nn.utils.weight_norm`` is the function in PyTorch, and
    here it may be the module object once the module was imported by name (``nn.utils`` loads
    it lazily), so calling the module calls the function."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return weight_norm(*args, **kwargs)


_sys.modules[__name__].__class__ = _CallableModule
