# ruff: noqa: F401
"""``torch.nn.utils``: gradient clipping, parameter/vector conversion, variable-length
sequences (``rnn``), parametrizations (``parametrize``, ``parametrizations``) and the older
hook-based `weight_norm`/`spectral_norm`.

The parametrization modules are built on ``nn.modules``, whose recurrent layers import
``nn.utils.rnn``; they load on first use (PEP 562 ``__getattr__``) so that ``nn.utils`` itself
stays below ``nn.modules``.
"""

import importlib
from typing import Any

from . import rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters

_LAZY_MODULES = ("parametrizations", "parametrize", "norm_hooks")
_NORM_HOOKS = ("remove_spectral_norm", "remove_weight_norm", "spectral_norm", "weight_norm")

__all__ = ["parametrizations", "parametrize", "rnn", "clip_grad_norm_", "clip_grad_value_",
           "get_total_norm", "parameters_to_vector", "vector_to_parameters", *_NORM_HOOKS]


def __getattr__(name: str) -> Any:
    if name in _LAZY_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _NORM_HOOKS:
        return getattr(importlib.import_module(f"{__name__}.norm_hooks"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
