"""fgrad.torch, the PyTorch-style shim (issue 4).  The fgrad column runs the very same code
with ``fgrad.torch`` in place of ``torch``."""

from __future__ import annotations

import numpy as np

from . import Case, register
from ._models import mlp_data, numpy_mlp_step, torch_mlp_step


def _fgrad_torch():
    import fgrad.torch as ft

    return ft


@register
class TorchSin8(Case):
    name = "torch_sin"
    short = "fgrad.torch.sin, 8 elements"
    title = "`fgrad.torch.sin`, 8 elements (float32)"
    issue = 4
    group = "torch"
    goals = [("torch", 2.0)]
    reference = "torch"

    def setup(self):
        self.x = np.random.default_rng(0).standard_normal(8).astype(np.float32)

    def _make(self, t):
        x, sin = t.from_numpy(self.x.copy()), t.sin
        return lambda: sin(x)

    def fgrad(self):
        return self._make(_fgrad_torch())

    def numpy(self):
        x, sin = self.x, np.sin
        return lambda: sin(x)

    def torch(self):
        import torch

        return self._make(torch)


@register
class TorchMLPStep(Case):
    name = "torch_mlp"
    short = "fgrad.torch MLP train step"
    title = ("`fgrad.torch` training step: Sequential(Linear(784,512), ReLU, Linear(512,512), "
             "ReLU, Linear(512,10)), CrossEntropyLoss, SGD, batch 128 (float32)")
    issue = 4
    group = "torch"
    goals = [("torch", 1.3)]
    reference = "torch"
    rtol = 1e-4
    notes = {"numpy": "the same step hand-written (forward, backward, in-place SGD)",
             "torch": "PyTorch CPU, same code"}

    def setup(self):
        self.params, self.x, self.y, self.onehot = mlp_data()

    def fgrad(self):
        return torch_mlp_step(_fgrad_torch(), self.params, self.x, self.y)

    def numpy(self):
        return numpy_mlp_step(self.params, self.x, self.onehot)

    def torch(self):
        import torch

        return torch_mlp_step(torch, self.params, self.x, self.y)
