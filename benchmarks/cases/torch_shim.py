"""fgrad.torch, the PyTorch-style shim (issue 4).  The fgrad column runs the very same code
with ``fgrad.torch`` in place of ``torch``."""

from __future__ import annotations

import gc

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


def _deep_chain(t, n, backward=True):
    """Forward (and backward) of an ``n``-op chain ``y = y * 1.0001`` on 3 elements, with
    the garbage collector on (the harness turns it off while timing; a deep graph is where
    its full collections cost, so these cases measure them as a real program would)."""

    def run():
        enabled = gc.isenabled()
        gc.enable()
        try:
            x = t.ones(3, requires_grad=True)
            y = x
            for _ in range(n):
                y = y * 1.0001
            if not backward:
                return y.detach().numpy()
            y.sum().backward()
            return x.grad.numpy()
        finally:
            if not enabled:
                gc.disable()

    return run


@register
class TorchDeepChain(Case):
    name = "torch_deep_chain"
    short = "fgrad.torch 100k-op chain"
    title = ("`fgrad.torch`: forward and backward of a 100,000-op chain `y = y * 1.0001` on 3 "
             "elements (float32, garbage collector on)")
    issue = 10
    group = "torch"
    goals = [("torch", 1.5)]
    reference = "torch"
    rtol = 1e-3
    notes = {"numpy": "the same chain's value and derivative, no graph",
             "torch": "PyTorch CPU, same code"}
    n = 100_000

    def fgrad(self):
        return _deep_chain(_fgrad_torch(), self.n)

    def numpy(self):
        n = self.n

        def run():
            g = np.ones(3, np.float32)
            c = np.float32(1.0001)
            for _ in range(n):
                g = g * c
            return g

        return run

    def torch(self):
        import torch

        return _deep_chain(torch, self.n)


@register
class TorchDeepChainForward(TorchDeepChain):
    name = "torch_deep_chain_fwd"
    short = "fgrad.torch 100k-op chain, forward"
    title = ("`fgrad.torch`: forward only (recording the graph) of a 100,000-op chain "
             "`y = y * 1.0001` on 3 elements (float32, garbage collector on)")
    notes = {"numpy": "the same chain's value, no graph", "torch": "PyTorch CPU, same code"}

    def fgrad(self):
        return _deep_chain(_fgrad_torch(), self.n, backward=False)

    def torch(self):
        import torch

        return _deep_chain(torch, self.n, backward=False)
