"""torch.func composed with ordinary autograd, the way meta-learning and physics-informed code
uses it: MAML on sine regression (inner steps by torch.func.grad of functional_call, the outer
update by loss.backward() through them, against first-order MAML), a contractive
autoencoder whose penalty is the per-sample encoder Jacobian by vmap(jacrev) of a closure over
the encoder's parameters, and a Hamiltonian neural network whose forward computes dH/dq and
dH/dp by torch.func.grad of a closure over its MLP, trained on a pendulum's vector field."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, jacrev, vmap

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)

net = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))


def task(n=10):
    amp, phase = torch.rand(()) * 4.5 + 0.5, torch.rand(()) * math.pi
    xs, xq = torch.rand(n, 1) * 10 - 5, torch.rand(n, 1) * 10 - 5
    return xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)


def inner_loss(params, x, y):
    return F.mse_loss(functional_call(net, params, (x,)), y)


def adapt(params, x, y, steps=2, lr=0.01, first_order=False):
    for _ in range(steps):
        g = grad(inner_loss)(params, x, y)
        if first_order:
            g = {k: v.detach() for k, v in g.items()}
        params = {k: params[k] - lr * g[k] for k in params}
    return params


for first_order in (False, True):
    torch.manual_seed(1)
    for m in net.modules():
        if isinstance(m, nn.Linear):
            m.reset_parameters()
    meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for it in range(1, 61):
        meta_opt.zero_grad()
        total = 0.0
        for _ in range(4):
            xs, ys, xq, yq = task()
            fast = adapt(dict(net.named_parameters()), xs, ys, first_order=first_order)
            loss = inner_loss(fast, xq, yq) / 4
            loss.backward()
            total += loss.item()
        meta_opt.step()
        if it % 20 == 0:
            print(f"{'FOMAML' if first_order else 'MAML  '} iteration {it} query loss {total:.8f} |meta grad| {net[0].weight.grad.norm().item():.8f}")

params = dict(net.named_parameters())
xs, ys, xq, yq = task()
g_full = torch.autograd.grad(inner_loss(adapt(params, xs, ys), xq, yq), net[0].weight)[0]
g_fo = torch.autograd.grad(inner_loss(adapt(params, xs, ys, first_order=True), xq, yq), net[0].weight)[0]
print(f"second-order term changes the meta-gradient by {(g_full - g_fo).norm().item() / g_full.norm().item():.8f} (relative)")


# contractive autoencoder
class CAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(6, 4), nn.Sigmoid(), nn.Linear(4, 2))
        self.dec = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 6))

    def forward(self, x):
        return self.dec(self.enc(x))


z = torch.randn(200, 2)
data = torch.cat([z, z.sin(), z[:, :1] * z[:, 1:], z.pow(2).sum(1, keepdim=True)], 1) + 0.05 * torch.randn(200, 6)
cae = CAE()
opt = torch.optim.Adam(cae.parameters(), lr=1e-2)
for epoch in range(1, 151):
    J = vmap(jacrev(lambda v: cae.enc(v)))(data)
    rec = F.mse_loss(cae(data), data)
    penalty = J.pow(2).sum((1, 2)).mean()
    loss = rec + 0.01 * penalty
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 50 == 0:
        print(f"CAE epoch {epoch} reconstruction {rec.item():.8f} jacobian penalty {penalty.item():.8f}")
J = vmap(jacrev(lambda v: cae.enc(v)))(data[:3])
print("batched encoder jacobian", tuple(J.shape), "requires grad:", J.requires_grad, "| equals autograd's:",
      torch.allclose(J[1], torch.autograd.functional.jacobian(cae.enc, data[1]), atol=1e-12))


# Hamiltonian neural network
class HNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.H = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, state):
        dH = vmap(grad(lambda s: self.H(s).squeeze()))(state)
        return torch.stack([dH[:, 1], -dH[:, 0]], 1)  # (dq/dt, dp/dt) = (dH/dp, -dH/dq)


states = torch.rand(256, 2) * 4 - 2
true_field = torch.stack([states[:, 1], -3.0 * torch.sin(states[:, 0])], 1)
hnn = HNN()
opt = torch.optim.Adam(hnn.parameters(), lr=3e-3)
for epoch in range(1, 201):
    loss = F.mse_loss(hnn(states), true_field)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 50 == 0:
        print(f"HNN epoch {epoch} vector field loss {loss.item():.8f}")
s = torch.tensor([[1.0, 0.0]])
h = 0.05
energy = []
for _ in range(60):
    k1 = hnn(s).detach()
    k2 = hnn(s + h / 2 * k1).detach()
    k3 = hnn(s + h / 2 * k2).detach()
    k4 = hnn(s + h * k3).detach()
    s = s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    energy.append(hnn.H(s).item())
print(f"learned energy drift over the rollout {max(energy) - min(energy):.8f} final state {[round(v, 6) for v in s[0].tolist()]}")
