"""A normalizing flow with torch.distributions as in density-estimation tutorials: a
TransformedDistribution of a standard normal through AffineTransform, ExpTransform,
SigmoidTransform, TanhTransform and ComposeTransform (log_prob via log_abs_det_jacobian, the
inverse, sampling with rsample), then a planar-free learned flow (a stack of elementwise
affine + tanh-free RealNVP-style couplings) trained by maximum likelihood on two moons."""
# ruff: noqa: B007, E501  (written as the published program is)

import math

import torch
import torch.nn as nn
from torch.distributions import (AffineTransform, ComposeTransform, ExpTransform, Independent, Normal,
                                 SigmoidTransform, TanhTransform, TransformedDistribution, Uniform)

torch.manual_seed(0)
base = Normal(torch.tensor(0.0), torch.tensor(1.0))
lognormal = TransformedDistribution(base, [AffineTransform(0.5, 2.0), ExpTransform()])
x = torch.tensor([0.5, 1.0, 3.0])
print(lognormal.log_prob(x))
print(torch.distributions.LogNormal(0.5, 2.0).log_prob(x))
s = lognormal.sample((4,))
print(s, lognormal.batch_shape, lognormal.event_shape)
logistic = TransformedDistribution(Uniform(torch.tensor(0.0), torch.tensor(1.0)), [SigmoidTransform().inv, AffineTransform(1.0, 0.5)])
print(logistic.log_prob(torch.tensor([0.0, 1.0, 2.5])))
t = ComposeTransform([AffineTransform(0.0, 3.0), TanhTransform()])
y = t(torch.tensor([-0.2, 0.1, 0.4]))
print(y, t.inv(y), t.log_abs_det_jacobian(torch.tensor([-0.2, 0.1, 0.4]), y))
print(t.domain, t.codomain, TanhTransform().sign, ExpTransform().inv)


def two_moons(n):
    t = torch.rand(n) * math.pi
    up = torch.rand(n) > 0.5
    x = torch.where(up, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(up, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2)


class Coupling(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 4))
        nn.init.zeros_(self.net[-1].weight)
        nn.init.zeros_(self.net[-1].bias)

    def forward(self, x):
        xm = x * self.mask
        s, t = self.net(xm).chunk(2, -1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(-1)

    def inverse(self, y):
        ym = y * self.mask
        s, t = self.net(ym).chunk(2, -1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        return ym + (1 - self.mask) * (y - t) * torch.exp(-s)


class Flow(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0]) for i in range(n)]
        self.layers = nn.ModuleList(Coupling(m) for m in masks)
        self.base = Independent(Normal(torch.zeros(2), torch.ones(2)), 1)

    def log_prob(self, x):
        logdet = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return self.base.log_prob(x) + logdet

    def sample(self, n):
        z = self.base.sample((n,))
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z


data = two_moons(256)
flow = Flow()
opt = torch.optim.Adam(flow.parameters(), lr=5e-3)
for step in range(60):
    loss = -flow.log_prob(data).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        print(step, f"{loss.item():.4f}")
with torch.no_grad():
    z = data[:3]
    y = z
    for layer in flow.layers:
        y, _ = layer(y)
    back = y
    for layer in reversed(flow.layers):
        back = layer.inverse(back)
    print(torch.allclose(back, z, atol=1e-5), flow.sample(3).shape, f"{flow.log_prob(data).mean().item():.4f}")
