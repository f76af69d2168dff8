"""Second-order autograd as in research scripts: torch.autograd.functional (jacobian, hessian,
vjp, jvp, hvp, vhp) with create_graph and vectorize, double backward for a gradient penalty
(WGAN-GP style), Hessian-vector products by grad-of-grad, torch.func.jacfwd/hessian, and
retain_graph/allow_unused/materialize_grads."""
# ruff: noqa: E501  (written as the published program is)


import torch
import torch.nn as nn
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.manual_seed(4)


def f(x):
    return torch.stack([x[0] ** 2 * x[1], torch.sin(x[1]) * x[2], x.exp().sum()])


x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
print("jacobian", jacobian(f, x))
print("jacobian vectorized", torch.allclose(jacobian(f, x, vectorize=True), jacobian(f, x)))
print("jacobian fwd", torch.allclose(jacobian(f, x, vectorize=True, strategy="forward-mode"), jacobian(f, x)))


def energy(x):
    return (x ** 3).sum() + x[0] * x[1] * x[2]


print("hessian", hessian(energy, x))
v = torch.tensor([1.0, 0.5, -1.0], dtype=torch.float64)
print("vjp", vjp(f, x, v))
print("jvp", jvp(f, x, v))
print("hvp", hvp(energy, x, v))
print("vhp", vhp(energy, x, v)[1])


def pair(a, b):
    return (a * b).sum(), a - b


a = torch.randn(3, dtype=torch.float64)
b = torch.randn(3, dtype=torch.float64)
ja = jacobian(pair, (a, b))
print("tuple jacobian", [[tuple(t.shape) for t in row] for row in ja], ja[0][0])

critic = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.0, 0.9))
real, fake = torch.randn(8, 4), torch.randn(8, 4) + 1
for step in range(4):
    alpha = torch.rand(8, 1)
    inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(inter)
    grads = torch.autograd.grad(out, inter, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)[0]
    gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    loss = critic(fake).mean() - critic(real).mean() + 10 * gp
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.5f} gp {gp.item():.5f}")

w = torch.randn(5, requires_grad=True)
loss = (torch.tanh(w) ** 2).sum() * w.norm()
(g,) = torch.autograd.grad(loss, w, create_graph=True)
vec = torch.ones(5)
(hv,) = torch.autograd.grad(g, w, grad_outputs=vec)
print("hvp by double grad", [round(t, 5) for t in hv.tolist()])
print("matches functional", torch.allclose(hv, hvp(lambda t: (torch.tanh(t) ** 2).sum() * t.norm(), w.detach(), vec)[1], atol=1e-6))
print("func hessian", torch.allclose(torch.func.hessian(energy)(x), hessian(energy, x)))
print("jacfwd", torch.func.jacfwd(f)(x)[2])
u = torch.randn(3, requires_grad=True)
q = torch.randn(3, requires_grad=True)
out = (u * 2).sum()
gu, gq = torch.autograd.grad(out, [u, q], allow_unused=True, retain_graph=True)
print("allow_unused", gu, gq)
gu, gq = torch.autograd.grad(out, [u, q], allow_unused=True, materialize_grads=True)
print("materialize", gq)
y = u.pow(2).sum()
y.backward(retain_graph=True)
y.backward()
print("accumulated", u.grad.tolist() == (4 * u).detach().tolist())
