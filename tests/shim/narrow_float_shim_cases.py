"""Cases shared by tests/shim/test_narrow_floats_shim.py and tools/make_narrow_float_refs.py:
functions of (torch module, *tensors) that run the same under PyTorch and fgrad.torch."""

from __future__ import annotations

import numpy as np


def inputs(name: str) -> list[np.ndarray]:
    """Deterministic float32 inputs (cast to the dtype under test by the caller)."""
    rng = np.random.default_rng(sum(map(ord, name)) + 7)
    if name == "matmul":
        return [rng.normal(size=(3, 300)), rng.normal(size=(300, 4))]
    if name == "conv2d":
        return [rng.normal(size=(2, 3, 9, 9)), rng.normal(size=(4, 3, 3, 3))]
    if name in ("sum", "mean"):
        return [rng.uniform(0, 0.02, size=(1000,))]
    if name == "log":
        return [rng.uniform(0.1, 5, size=(16,))]
    if name in ("add", "mul", "div"):
        return [rng.normal(size=(16,)), rng.uniform(0.5, 2, size=(16,))]
    if name == "cross_entropy":
        return [rng.normal(size=(6, 5)) * 3]
    return [rng.normal(size=(4, 8)) * 2]


CASES = {
    "add": lambda t, x, y: x + y,
    "mul": lambda t, x, y: x * y,
    "div": lambda t, x, y: x / y,
    "exp": lambda t, x: t.exp(x),
    "log": lambda t, x: t.log(x),
    "tanh": lambda t, x: t.tanh(x),
    "sigmoid": lambda t, x: t.sigmoid(x),
    "softmax": lambda t, x: t.softmax(x, dim=-1),
    "log_softmax": lambda t, x: t.log_softmax(x, dim=-1),
    "matmul": lambda t, x, y: x @ y,
    "sum": lambda t, x: x.sum(),
    "mean": lambda t, x: x.mean(),
    "layer_norm": lambda t, x: t.nn.functional.layer_norm(x, (8,)),
    "conv2d": lambda t, x, w: t.nn.functional.conv2d(x, w, padding=1),
    "cross_entropy": lambda t, x: t.nn.functional.cross_entropy(x, t.tensor([0, 1, 2, 3, 4, 0])),
    "gelu": lambda t, x: t.nn.functional.gelu(x),
    "gelu_tanh": lambda t, x: t.nn.functional.gelu(x, approximate="tanh"),
    "scalar_ops": lambda t, x: x * 1.5 + 2,
}
