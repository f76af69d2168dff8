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


def _lstm_step(t, params, x, y):
    """One training step of LSTM(32, 64) over a length-50 sequence (batch 16) + Linear(64, 10)
    on the last output, cross-entropy, SGD; returns the loss and the first weight's gradient."""
    t.manual_seed(0)
    lstm, head = t.nn.LSTM(32, 64), t.nn.Linear(64, 10)
    with t.no_grad():
        for p, v in zip(list(lstm.parameters()) + list(head.parameters()), params):
            p.copy_(t.from_numpy(v.copy()))
    opt = t.optim.SGD(list(lstm.parameters()) + list(head.parameters()), lr=0.0)
    xt, yt = t.from_numpy(x), t.from_numpy(y)
    lossf = t.nn.CrossEntropyLoss()

    def run():
        opt.zero_grad()
        out, _ = lstm(xt)
        loss = lossf(head(out[-1]), yt)
        loss.backward()
        opt.step()
        return loss.detach(), lstm.weight_hh_l0.grad.detach()

    return run


@register
class TorchLSTMStep(Case):
    name = "torch_lstm"
    short = "fgrad.torch LSTM train step"
    title = ("`fgrad.torch` training step: LSTM(32, 64) over 50 steps, batch 16, Linear(64, 10) on the "
             "last output, CrossEntropyLoss, SGD (float32)")
    issue = 16
    group = "torch"
    goals = [("torch", 1.5)]
    reference = "torch"
    rtol, atol = 1e-4, 1e-6
    notes = {"torch": "PyTorch CPU, same code"}

    def setup(self):
        rng = np.random.default_rng(0)
        s = 1 / 8
        shapes = [(256, 32), (256, 64), (256,), (256,), (10, 64), (10,)]
        self.params = [rng.uniform(-s, s, sh).astype(np.float32) for sh in shapes]
        self.x = rng.standard_normal((50, 16, 32)).astype(np.float32)
        self.y = rng.integers(0, 10, 16).astype(np.int64)

    def fgrad(self):
        return _lstm_step(_fgrad_torch(), self.params, self.x, self.y)

    def torch(self):
        import torch

        return _lstm_step(torch, self.params, self.x, self.y)


def _gru_step(t, params, x, y):
    """One training step of GRU(32, 64) over a length-50 sequence (batch 16) + Linear(64, 10)
    on the last output, cross-entropy, SGD; returns the loss and the first weight's gradient."""
    t.manual_seed(0)
    gru, head = t.nn.GRU(32, 64), t.nn.Linear(64, 10)
    with t.no_grad():
        for p, v in zip(list(gru.parameters()) + list(head.parameters()), params):
            p.copy_(t.from_numpy(v.copy()))
    opt = t.optim.SGD(list(gru.parameters()) + list(head.parameters()), lr=0.0)
    xt, yt = t.from_numpy(x), t.from_numpy(y)
    lossf = t.nn.CrossEntropyLoss()

    def run():
        opt.zero_grad()
        out, _ = gru(xt)
        loss = lossf(head(out[-1]), yt)
        loss.backward()
        opt.step()
        return loss.detach(), gru.weight_hh_l0.grad.detach()

    return run


@register
class TorchGRUStep(TorchLSTMStep):
    name = "torch_gru"
    short = "fgrad.torch GRU train step"
    title = ("`fgrad.torch` training step: GRU(32, 64) over 50 steps, batch 16, Linear(64, 10) on the "
             "last output, CrossEntropyLoss, SGD (float32)")

    def setup(self):
        rng = np.random.default_rng(0)
        s = 1 / 8
        shapes = [(192, 32), (192, 64), (192,), (192,), (10, 64), (10,)]
        self.params = [rng.uniform(-s, s, sh).astype(np.float32) for sh in shapes]
        self.x = rng.standard_normal((50, 16, 32)).astype(np.float32)
        self.y = rng.integers(0, 10, 16).astype(np.int64)

    def fgrad(self):
        return _gru_step(_fgrad_torch(), self.params, self.x, self.y)

    def torch(self):
        import torch

        return _gru_step(torch, self.params, self.x, self.y)


def _gelu_fwd_bwd(t, x, name: str = "gelu"):
    """An activation ``t.nn.functional.<name>``'s forward and the backward of its sum."""
    xt = t.from_numpy(x.copy()).requires_grad_()
    act = getattr(t.nn.functional, name)

    def run():
        xt.grad = None
        y = act(xt)
        y.sum().backward()
        return y.detach(), xt.grad.detach()

    return run


def _gelu_no_grad(t, x):
    """GELU's forward under ``no_grad`` on an input that requires grad (evaluation)."""
    xt = t.from_numpy(x.copy()).requires_grad_()
    gelu = t.nn.functional.gelu

    def run():
        with t.no_grad():
            return gelu(xt)

    return run


@register
class TorchGELU(Case):
    name = "torch_gelu"
    short = "fgrad.torch GELU fwd+bwd"
    title = "`fgrad.torch.nn.functional.gelu` (erf form) forward and backward, 256 × 1024 (float32)"
    issue = 16
    group = "torch"
    goals = [("torch", 1.5)]
    reference = "torch"
    rtol, atol = 1e-4, 1e-5
    notes = {"torch": "PyTorch CPU, same code"}

    def setup(self):
        self.x = (3 * np.random.default_rng(0).standard_normal((256, 1024))).astype(np.float32)

    def fgrad(self):
        return _gelu_fwd_bwd(_fgrad_torch(), self.x)

    def torch(self):
        import torch

        return _gelu_fwd_bwd(torch, self.x)


@register
class TorchReLU(TorchGELU):
    name = "torch_relu"
    short = "fgrad.torch ReLU fwd+bwd"
    title = "`fgrad.torch.nn.functional.relu` forward and backward, 256 × 1024 (float32)"
    rtol, atol = 0.0, 0.0

    def fgrad(self):
        return _gelu_fwd_bwd(_fgrad_torch(), self.x, "relu")

    def torch(self):
        import torch

        return _gelu_fwd_bwd(torch, self.x, "relu")


@register
class TorchGELUNoGrad(TorchGELU):
    name = "torch_gelu_no_grad"
    short = "fgrad.torch GELU under no_grad"
    title = "`fgrad.torch.nn.functional.gelu` (erf form) under `no_grad`, 256 × 1024 (float32)"

    def fgrad(self):
        return _gelu_no_grad(_fgrad_torch(), self.x)

    def torch(self):
        import torch

        return _gelu_no_grad(torch, self.x)


def _batch_norm_step(t, x, g, backward: bool):
    """A training BatchNorm's forward (running statistics updated), and with ``backward`` its
    backward for the cotangent ``g`` (input, weight and bias gradients)."""
    t.manual_seed(0)
    layer = (t.nn.BatchNorm1d if x.ndim == 2 else t.nn.BatchNorm2d)(x.shape[1])
    xt = t.from_numpy(x.copy()).requires_grad_(backward)
    gt = t.from_numpy(g.copy())

    def run():
        y = layer(xt)
        if not backward:
            return y.detach()
        xt.grad = None
        layer.zero_grad()
        y.backward(gt)
        return y.detach(), xt.grad.detach(), layer.weight.grad.detach()

    return run


class _TorchBatchNorm(Case):
    issue = 16
    group = "torch"
    reference = "torch"
    rtol, atol = 1e-4, 1e-5
    notes = {"torch": "PyTorch CPU, same code"}
    shape: tuple = ()
    backward = True

    def setup(self):
        rng = np.random.default_rng(0)
        self.x = rng.normal(1.0, 2.0, self.shape).astype(np.float32)
        self.g = rng.normal(0.0, 1.0, self.shape).astype(np.float32)

    def fgrad(self):
        return _batch_norm_step(_fgrad_torch(), self.x, self.g, self.backward)

    def torch(self):
        import torch

        return _batch_norm_step(torch, self.x, self.g, self.backward)


@register
class TorchBatchNorm2d(_TorchBatchNorm):
    name = "torch_batchnorm2d"
    short = "fgrad.torch BatchNorm2d fwd+bwd"
    title = "`fgrad.torch.nn.BatchNorm2d(16)` in training, forward and backward, (32, 16, 16, 16) (float32)"
    goals = [("torch", 1.2)]
    shape = (32, 16, 16, 16)


@register
class TorchBatchNorm2dSmall(_TorchBatchNorm):
    name = "torch_batchnorm2d_small"
    short = "fgrad.torch BatchNorm2d fwd+bwd, DCGAN size"
    title = "`fgrad.torch.nn.BatchNorm2d(32)` in training, forward and backward, (32, 32, 4, 4) (float32)"
    goals = [("torch", 1.5)]
    shape = (32, 32, 4, 4)


@register
class TorchBatchNorm1d(_TorchBatchNorm):
    name = "torch_batchnorm1d"
    short = "fgrad.torch BatchNorm1d forward"
    title = "`fgrad.torch.nn.BatchNorm1d(64)` in training, forward only, (64, 64) (float32)"
    goals = [("torch", 2.0)]
    shape = (64, 64)
    backward = False
