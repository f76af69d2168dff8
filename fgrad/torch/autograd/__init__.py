"""``torch.autograd``: ``backward``, ``grad``, ``Function``, ``Variable``, grad-mode
managers, ``gradcheck``.  The tape and engine live in `graph`."""

from __future__ import annotations

import importlib

import fgrad.torch.autograd.graph as graph

from .._tensor import Tensor
from .function import Function, FunctionCtx, InplaceFunction, NestedIOFunction, once_differentiable
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .._ops_creation import tensor as _tensor_of
from ._grad import backward, grad
from .anomaly_mode import (detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled,
                           set_detect_anomaly)
from typing import Any

backward.__module__ = grad.__module__ = __name__  # torch.autograd.backward / .grad


def Variable(data: Any = None, requires_grad: bool = False, volatile: bool = False) -> Tensor:  # noqa: N802
    """Legacy wrapper: returns ``data`` itself (with ``requires_grad`` set), as PyTorch does
    since 0.4."""
    if data is None:

        data = _tensor_of([])
    if not isinstance(data, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
    if requires_grad:
        data.requires_grad_(True)
    return data


Variable.__doc__ = Variable.__doc__


import fgrad.torch.autograd.functional as functional  # noqa: E402,F401


def __getattr__(name: str) -> Any:
    # forward_ad loads on first use: it builds on the dispatcher, which imports this package
    if name == "forward_ad":
        return importlib.import_module(f"{__name__}.forward_ad")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "backward",
    "grad",
    "Variable",
    "Function",
    "FunctionCtx",
    "InplaceFunction",
    "NestedIOFunction",
    "once_differentiable",
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "is_grad_enabled",
    "inference_mode",
    "is_inference_mode_enabled",
    "set_multithreading_enabled",
    "gradcheck",
    "gradgradcheck",
    "GradcheckError",
    "graph",
    "set_detect_anomaly",
    "detect_anomaly",
    "is_anomaly_enabled",
    "is_anomaly_check_nan_enabled",
    "functional",
]
