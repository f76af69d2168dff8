"""Quantile regression with a hand-written autograd.Function, as in the "Extending PyTorch"
tutorial and quantile-regression repos: the pinball loss with a custom backward
(ctx.save_for_backward, ctx.needs_input_grad, ctx.mark_non_differentiable on the indicator
it also returns), torch.autograd.gradcheck and gradgradcheck in float64, a once_differentiable
Function, a smooth Huber-pinball loss, a network with a monotone quantile head (softplus
increments cumsum'd so quantiles never cross), interval coverage, and torch.quantile /
nanquantile with their interpolation modes."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function, gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable


class PinballLoss(Function):
    @staticmethod
    def forward(ctx, pred, target, tau):
        diff = target - pred
        below = (diff < 0).to(pred.dtype)
        ctx.save_for_backward(below, tau)
        ctx.mark_non_differentiable(below)
        loss = torch.maximum(tau * diff, (tau - 1) * diff)
        return loss.mean(), below

    @staticmethod
    def backward(ctx, grad_loss, grad_below):
        below, tau = ctx.saved_tensors
        n = below.numel()
        d_pred = d_target = None
        g = (below - tau) * grad_loss / n
        if ctx.needs_input_grad[0]:
            d_pred = g
        if ctx.needs_input_grad[1]:
            d_target = -g
        return d_pred, d_target, None


class SmoothPinball(Function):
    """Huber-smoothed pinball loss (twice differentiable through its own backward)."""

    @staticmethod
    def forward(ctx, u, tau, kappa):
        ctx.save_for_backward(u, tau)
        ctx.kappa = kappa
        huber = torch.where(u.abs() <= kappa, 0.5 * u * u / kappa, u.abs() - 0.5 * kappa)
        return (torch.abs(tau - (u < 0).to(u.dtype)) * huber).sum()

    @staticmethod
    def backward(ctx, grad):
        u, tau = ctx.saved_tensors
        w = torch.abs(tau - (u < 0).to(u.dtype))
        dh = torch.where(u.abs() <= ctx.kappa, u / ctx.kappa, torch.sign(u))
        return grad * w * dh, None, None


class ClampedExp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.clamp(max=5.0).exp()
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return grad * y * (x < 5.0).to(y.dtype)


torch.manual_seed(9)
pred = torch.randn(6, dtype=torch.float64, requires_grad=True)
target = torch.randn(6, dtype=torch.float64) + 0.3
tau = torch.tensor(0.8, dtype=torch.float64)
print("gradcheck pinball", gradcheck(lambda p: PinballLoss.apply(p, target, tau)[0], (pred,), eps=1e-6, atol=1e-4))
loss, below = PinballLoss.apply(pred, target, tau)
print("below requires grad", below.requires_grad, "loss", round(loss.item(), 6), "grad_fn", type(loss.grad_fn).__name__)
loss.backward()
print("pinball grad", [round(v, 6) for v in pred.grad.tolist()])
u = torch.tensor([-2.0, -0.3, 0.1, 0.4, 1.5], dtype=torch.float64, requires_grad=True)
print("gradcheck smooth", gradcheck(SmoothPinball.apply, (u, tau, 0.5)))
print("gradgradcheck smooth (backward is built from differentiable ops)", gradgradcheck(lambda v: SmoothPinball.apply(v, tau, 0.5), (u,)))
x = torch.tensor([1.0, 6.0], requires_grad=True)
y = ClampedExp.apply(x)
(gx,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print("clamped exp grad", [round(v, 4) for v in gx.tolist()])
try:
    gx.sum().backward()
except RuntimeError as e:
    print("once_differentiable:", "RuntimeError", "twice" in str(e) or "once_differentiable" in str(e))


class QuantileNet(nn.Module):
    def __init__(self, n_quantiles=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU())
        self.base = nn.Linear(32, 1)
        self.increments = nn.Linear(32, n_quantiles - 1)

    def forward(self, x):
        h = self.body(x)
        return torch.cat([self.base(h), self.base(h) + torch.cumsum(F.softplus(self.increments(h)), dim=1)], dim=1)


taus = torch.tensor([0.1, 0.5, 0.9])
xs = torch.linspace(-2, 2, 200).unsqueeze(1)
ys = torch.sin(2 * xs) + (0.2 + 0.3 * xs.abs()) * torch.randn_like(xs)
net = QuantileNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for epoch in range(150):
    q = net(xs)
    loss = sum(PinballLoss.apply(q[:, i], ys[:, 0], taus[i])[0] for i in range(3))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 50 == 49:
        print(f"epoch {epoch} pinball {loss.item():.4f}")
with torch.no_grad():
    q = net(xs)
    print("never crossing", bool((q[:, 1:] >= q[:, :-1]).all()))
    print("coverage", [round(v, 3) for v in (ys < q).float().mean(0).tolist()], "80% interval", round(((ys[:, 0] > q[:, 0]) & (ys[:, 0] < q[:, 2])).float().mean().item(), 3))

v = torch.tensor([[3.0, 1.0, 4.0, 1.0, 5.0], [9.0, 2.0, 6.0, 5.0, 3.0]])
for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
    print(mode, torch.quantile(v, torch.tensor([0.25, 0.6]), dim=1, keepdim=False, interpolation=mode).tolist())
print("nanquantile", torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0, 2.0]), 0.5).item(), "quantile with nan", torch.quantile(torch.tensor([1.0, float("nan")]), 0.5).item())
