# ruff: noqa: F401
"""``torch.nn.utils``: gradient clipping, parameter/vector conversion, variable-length
sequences (``rnn``), parametrizations (``parametrize``, ``parametrizations``), the hook-based
``weight_norm``/``spectral_norm``, batch-norm fusion, ``skip_init``, ``stateless.functional_call``.

The parametrization modules are built on ``nn.modules``, whose recurrent layers import
``nn.utils.rnn``; they load on first use (PEP 562 ``__getattr__``) so that ``nn.utils`` itself
stays below ``nn.modules``.
"""

import importlib
from typing import Any

from . import rnn
from .clip_grad import (clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_,
                        get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters

# built on nn.modules (which imports nn.utils.rnn): loaded on first use
_LAZY_MODULES = ("parametrizations", "parametrize", "prune", "fusion", "memory_format", "stateless", "init",
                 "spectral_norm", "weight_norm")
_LAZY_NAMES = {
    "fuse_conv_bn_eval": "fusion", "fuse_conv_bn_weights": "fusion", "fuse_linear_bn_eval": "fusion",
    "fuse_linear_bn_weights": "fusion", "skip_init": "init",
    "convert_conv2d_weight_memory_format": "memory_format",
    "convert_conv3d_weight_memory_format": "memory_format",
    "spectral_norm": "spectral_norm", "remove_spectral_norm": "spectral_norm", "weight_norm": "weight_norm",
    "remove_weight_norm": "weight_norm",
}

__all__ = ["parametrizations", "parametrize", "prune", "rnn", "clip_grad_norm_", "clip_grad_norm",
           "clip_grad_value_",
           "clip_grads_with_norm_", "get_total_norm", "parameters_to_vector",
           "vector_to_parameters",
           "fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights",
           "skip_init", "convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format",
           "spectral_norm", "remove_spectral_norm", "weight_norm", "remove_weight_norm", "stateless",
           "fusion", "memory_format"]


def __getattr__(name: str) -> Any:
    if name in _LAZY_NAMES:  # a function of a lazily loaded submodule (spectral_norm, weight_norm: its
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY_NAMES[name]}"), name)  # function)
        globals()[name] = value
        return value
    if name in _LAZY_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
