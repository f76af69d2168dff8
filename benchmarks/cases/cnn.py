"""Convolution and pooling (issue 16): a small CNN's training step, in the shim (vs torch
eager) and under ``fgrad.jit`` (vs torch eager and ``jax.jit``).

The model: Conv2d(1, 16, 3, padding=1), ReLU, MaxPool2d(2), Conv2d(16, 32, 3, padding=1),
ReLU, MaxPool2d(2), Linear(1568, 10); cross-entropy, SGD; batch 64 of 1x28x28 (float32).
"""

from __future__ import annotations

from . import Case, block, register
from ._models import cnn_data, cnn_functional_step, stateful, torch_cnn_step

_MODEL = ("Conv(1,16,3)-ReLU-MaxPool(2)-Conv(16,32,3)-ReLU-MaxPool(2)-Linear(1568,10), "
          "cross-entropy, SGD, batch 64x1x28x28 (float32)")


@register
class TorchCNNStep(Case):
    name = "torch_cnn"
    short = "fgrad.torch CNN train step"
    title = f"`fgrad.torch` CNN training step: {_MODEL}"
    issue = 16
    group = "torch"
    goals = [("torch", 1.5)]
    reference = "torch"
    rtol = 1e-4
    notes = {"torch": "PyTorch CPU eager, same code"}

    def setup(self):
        self.params, self.x, self.y, self.onehot = cnn_data()

    def fgrad(self):
        import fgrad.torch as ft

        return torch_cnn_step(ft, self.params, self.x, self.y)

    def torch(self):
        import torch

        return torch_cnn_step(torch, self.params, self.x, self.y)


@register
class JitCNNStep(Case):
    name = "jit_cnn"
    short = "jit: CNN train step"
    title = f"`jit` of a CNN training step (`lax.conv_general_dilated`, `lax.reduce_window`): {_MODEL}"
    issue = 16
    group = "jit"
    goals = [("torch", 1.0)]
    reference = "torch"
    rtol = 1e-4
    first_call_matters = True
    jax_x64 = False
    notes = {"torch": "PyTorch CPU eager (nn.Conv2d/MaxPool2d)", "jax": "`jax.jit`, same function"}

    def setup(self):
        self.params, self.x, self.y, self.onehot = cnn_data()

    def fgrad(self):
        import fgrad
        import fgrad.lax as lax
        import fgrad.numpy as fnp

        params = {k: (fnp.asarray(W), fnp.asarray(b)) for k, (W, b) in self.params.items()}
        step = cnn_functional_step(fnp, lax, fgrad.value_and_grad, jit=fgrad.jit)
        run = stateful(step, params, fnp.asarray(self.x), fnp.asarray(self.onehot))
        return lambda: float(run())

    def torch(self):
        import torch

        return torch_cnn_step(torch, self.params, self.x, self.y)

    def jax(self):
        import jax
        import jax.numpy as jnp

        params = {k: (jnp.asarray(W), jnp.asarray(b)) for k, (W, b) in self.params.items()}
        run = stateful(cnn_functional_step(jnp, jax.lax, jax.value_and_grad, jit=jax.jit), params,
                       jnp.asarray(self.x), jnp.asarray(self.onehot))
        return lambda: float(block(run()))
