"""The hook-based ``torch.nn.utils.weight_norm`` and ``torch.nn.utils.spectral_norm`` (PyTorch's
older API, deprecated there in favour of `parametrizations` but common in WaveNet/TCN and
SN-GAN code): the parameter is replaced by ``<name>_g``/``<name>_v`` (weight norm) or
``<name>_orig`` with the ``<name>_u``/``<name>_v`` power-iteration buffers (spectral norm), and a
forward pre-hook recomputes ``module.<name>`` before every call, as in PyTorch.

Example::

    >>> import warnings
    >>> import fgrad.torch as torch
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    >>> sorted(m.state_dict())
    ['bias', 'weight_g', 'weight_v']
"""

from __future__ import annotations

import warnings
from typing import Any

import fgrad.torch as torch
from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from ..parameter import Parameter
from .parametrizations import _norm_except_dim, _weight_matrix, _weight_norm

__all__ = ["remove_spectral_norm", "remove_weight_norm", "spectral_norm", "weight_norm"]


def _check_unique(module: Module, kind: type, name: str, what: str) -> None:
    if any(isinstance(h, kind) and h.name == name for h in module._forward_pre_hooks.values()):
        raise RuntimeError(f"Cannot register two {what} hooks on the same parameter {name}")


class WeightNorm:
    """The forward pre-hook of `weight_norm`: ``module.<name> = g * v / ||v||``."""

    def __init__(self, name: str, dim: int | None) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> torch.Tensor:
        return _weight_norm(getattr(module, self.name + "_v"), getattr(module, self.name + "_g"), self.dim)

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Replace ``module.<name>`` by ``<name>_g * <name>_v / ||<name>_v||`` (two parameters),
    recomputed before each forward (deprecated in PyTorch: FutureWarning).

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(2, 2), dim=None)
        >>> m.weight_g.shape
        torch.Size([])
    """
    warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                  "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=2)
    _check_unique(module, WeightNorm, name, "weight_norm")
    fn = WeightNorm(name, dim)
    weight = getattr(module, name)
    del module._parameters[name]
    module.register_parameter(name + "_g", Parameter(_norm_except_dim(weight, fn.dim).data))
    module.register_parameter(name + "_v", Parameter(weight.data))
    setattr(module, name, fn.compute_weight(module))
    module.register_forward_pre_hook(fn)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Undo `weight_norm`: ``module.<name>`` becomes a parameter holding the current weight.

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", FutureWarning)
        ...     m = torch.nn.utils.weight_norm(torch.nn.Linear(2, 2))
        >>> sorted(torch.nn.utils.remove_weight_norm(m).state_dict())
        ['bias', 'weight']
    """
    return _remove(module, WeightNorm, name, "weight_norm")


class SpectralNorm:
    """The forward pre-hook of `spectral_norm`: ``module.<name> = <name>_orig / sigma``, sigma
    estimated by power iteration (in training mode, ``n_power_iterations`` steps per call)."""

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.name, self.dim, self.n_power_iterations, self.eps = name, dim, n_power_iterations, eps

    def compute_weight(self, module: Module, do_power_iteration: bool) -> torch.Tensor:
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = _weight_matrix(weight, self.dim)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):  # in place: the buffers advance
                    v.copy_(F.normalize(torch.mv(weight_mat.t(), u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(torch.mv(weight_mat, v), dim=0, eps=self.eps))
                u, v = u.clone(), v.clone()
        return weight / torch.dot(u, torch.mv(weight_mat, v))

    def remove(self, module: Module) -> None:
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ("", "_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Module:
    """Divide ``module.<name>`` by its largest singular value before each forward: the
    parameter becomes ``<name>_orig``, with buffers ``<name>_u`` and ``<name>_v`` (one
    power-iteration step per training-mode call).

    Example::

        >>> import fgrad.torch as torch
        >>> sorted(torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2)).state_dict())
        ['bias', 'weight_orig', 'weight_u', 'weight_v']
    """
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    _check_unique(module, SpectralNorm, name, "spectral_norm")
    fn = SpectralNorm(name, n_power_iterations, dim, eps)
    weight = module._parameters[name]
    if weight is None:
        raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
    with no_grad():
        h, w = _weight_matrix(weight, dim).size()
        u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=eps)
        v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=eps)
    delattr(module, name)
    module.register_parameter(name + "_orig", weight)
    setattr(module, name, weight.data)
    module.register_buffer(name + "_u", u)
    module.register_buffer(name + "_v", v)
    module.register_forward_pre_hook(fn)
    return module


def remove_spectral_norm(module: Module, name: str = "weight") -> Module:
    """Undo `spectral_norm`: ``module.<name>`` becomes a parameter holding the normalized weight.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2))
        >>> sorted(torch.nn.utils.remove_spectral_norm(m).state_dict())
        ['bias', 'weight']
    """
    return _remove(module, SpectralNorm, name, "spectral_norm")


def _remove(module: Module, kind: type, name: str, what: str) -> Module:
    """Remove the ``kind`` hook of ``name`` (restoring the plain parameter)."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, kind) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"{what} of '{name}' not found in {module}")
