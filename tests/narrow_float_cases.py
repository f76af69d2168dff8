"""Cases shared by tests/test_narrow_floats.py and tools/make_narrow_float_refs.py: functions
of (numpy namespace, transforms module, *arrays) that run the same under JAX and fgrad."""

from __future__ import annotations

import ml_dtypes
import numpy as np


def inputs(name: str, dtype: str) -> list[np.ndarray]:
    """Deterministic inputs of ``dtype`` (values rounded to it) for case ``name``."""
    dt = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    rng = np.random.default_rng(sum(map(ord, name)))
    if name in ("matmul", "matmul_long", "grad_matmul"):
        k = 300 if name == "matmul_long" else 7
        return [rng.normal(size=(3, k)).astype(dt), rng.normal(size=(k, 4)).astype(dt)]
    if name == "conv":
        return [rng.normal(size=(2, 3, 9, 9)).astype(dt), rng.normal(size=(4, 3, 3, 3)).astype(dt)]
    if name in ("sum_long", "mean_long", "var_long"):
        return [rng.uniform(0, 0.02, size=(1000,)).astype(dt)]
    if name in ("log", "sqrt"):
        return [rng.uniform(0.1, 5, size=(16,)).astype(dt)]
    if name in ("add", "mul", "div", "sub"):
        return [rng.normal(size=(16,)).astype(dt), rng.uniform(0.5, 2, size=(16,)).astype(dt)]
    return [rng.normal(size=(4, 5)).astype(dt)]


def _conv(np_, tr, x, w):
    return tr.lax.conv_general_dilated(x, w, (1, 1), "SAME")


CASES = {
    "add": lambda np_, tr, x, y: x + y,
    "sub": lambda np_, tr, x, y: x - y,
    "mul": lambda np_, tr, x, y: x * y,
    "div": lambda np_, tr, x, y: x / y,
    "exp": lambda np_, tr, x: np_.exp(x),
    "log": lambda np_, tr, x: np_.log(x),
    "sqrt": lambda np_, tr, x: np_.sqrt(x),
    "tanh": lambda np_, tr, x: np_.tanh(x),
    "sin": lambda np_, tr, x: np_.sin(x),
    "sigmoid": lambda np_, tr, x: tr.nn.sigmoid(x),
    "scalar_ops": lambda np_, tr, x: x * 1.5 + 2,
    "sum_long": lambda np_, tr, x: np_.sum(x),
    "mean_long": lambda np_, tr, x: np_.mean(x),
    "var_long": lambda np_, tr, x: np_.var(x),
    "sum_axis": lambda np_, tr, x: np_.sum(x, axis=1),
    "prod": lambda np_, tr, x: np_.prod(x, axis=0),
    "max": lambda np_, tr, x: np_.max(x, axis=0),
    "matmul": lambda np_, tr, x, y: x @ y,
    "matmul_long": lambda np_, tr, x, y: x @ y,
    "conv": _conv,
    "grad_tanh_sum": lambda np_, tr, x: tr.grad(lambda v: np_.sum(np_.tanh(v) * v))(x),
    "grad_matmul": lambda np_, tr, x, y: tr.grad(lambda a: np_.sum(a @ y))(x),
    "jit_chain": lambda np_, tr, x: tr.jit(lambda v: np_.exp(v) * 0.5 - v)(x),
    "astype_f32": lambda np_, tr, x: x.astype(np_.float32) * 3,
}
