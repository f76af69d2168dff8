"""fgrad's engine: arrays and tracers, primitives, traces, the IR.

As a namespace it also answers the names programs use from ``jax.core`` (`ShapedArray`,
`Tracer`, `Trace`, `eval_jaxpr`, `ensure_compile_time_eval`, ...), loaded on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

# jax.core name -> (fgrad module, attribute)
_JAX_CORE = {
    "ShapedArray": ("fgrad.core.array", "ShapedArray"),
    "AbstractValue": ("fgrad.core.array", "ShapedArray"),
    "Tracer": ("fgrad.core.array", "Tracer"),
    "Value": ("fgrad.core.array", "ArrayImpl"),
    "Trace": ("fgrad.core.trace", "Trace"),
    "eval_jaxpr": ("fgrad.core.ir", "eval_jaxpr_jax"),  # JAX's signature: (jaxpr, consts, *args)
    "Atom": ("fgrad.core.ir", "Var"),
    "ensure_compile_time_eval": ("fgrad", "ensure_compile_time_eval"),
    "eval_context": ("fgrad", "ensure_compile_time_eval"),
}


def __getattr__(name: str) -> Any:
    if name in _JAX_CORE:
        module, attr = _JAX_CORE[name]
        return getattr(importlib.import_module(module), attr)
    if name in ("max_dim", "min_dim"):
        return max if name == "max_dim" else min
    raise AttributeError(f"module 'fgrad.core' has no attribute {name!r}")
