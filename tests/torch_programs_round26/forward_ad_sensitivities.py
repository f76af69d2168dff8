"""Forward-mode automatic differentiation with torch.autograd.forward_ad, as the forward-mode
AD tutorial writes it: dual tensors by make_dual/unpack_dual inside dual_level, a network's
Jacobian built column by column by forward passes and checked against reverse mode, tangents
of the parameters through torch.func.functional_call, a custom autograd.Function with a jvp
staticmethod, forward sensitivities of an ODE solution (RK4 on a damped pendulum) against
central differences, and a Hessian-vector product by forward-over-reverse (torch.func.jvp
of torch.func.grad)."""
# ruff: noqa: E501

import math

import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)

net = nn.Sequential(nn.Linear(4, 8), nn.SiLU(), nn.Linear(8, 3), nn.LogSoftmax(-1))
x = torch.randn(4)

with fwAD.dual_level():
    cols = []
    for i in range(4):
        dual = fwAD.make_dual(x, torch.eye(4)[i])
        out = net(dual)
        primal, tangent = fwAD.unpack_dual(out)
        cols.append(tangent)
    print("tangent of a plain tensor is None:", fwAD.unpack_dual(x).tangent is None)
J_fwd = torch.stack(cols, 1)
J_rev = torch.autograd.functional.jacobian(net, x)
print("forward jacobian equals reverse:", torch.allclose(J_fwd, J_rev, atol=1e-13), tuple(J_fwd.shape))
print("J row sums (log-softmax columns sum to zero after exp):", (J_fwd * primal.exp()[:, None]).sum(0).abs().max().item() < 1e-13)
print("J:", J_fwd)

# tangents of the parameters: d output / d params in a direction
params = {k: v.detach() for k, v in net.named_parameters()}
direction = {k: torch.randn_like(v) for k, v in params.items()}
with fwAD.dual_level():
    duals = {k: fwAD.make_dual(v, direction[k]) for k, v in params.items()}
    out = functional_call(net, duals, (x,))
    jvp_params = fwAD.unpack_dual(out).tangent
loss_grads = torch.autograd.grad(net(x)[1], list(net.parameters()))
print("d out[1] along the direction, forward vs reverse:",
      f"{jvp_params[1].item():.12f}", f"{sum((g * direction[k]).sum() for g, k in zip(loss_grads, params)).item():.12f}")


class SoftClip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, c):
        y = c * torch.tanh(x / c)
        ctx.save_for_forward(x)
        ctx.c = c
        return y

    @staticmethod
    def jvp(ctx, x_t, c_t):
        (x,) = ctx.saved_tensors
        return x_t / torch.cosh(x / ctx.c) ** 2


with fwAD.dual_level():
    z = fwAD.make_dual(torch.tensor([-3.0, 0.1, 2.5]), torch.ones(3))
    t = fwAD.unpack_dual(SoftClip.apply(z, 2.0)).tangent
print("custom jvp:", t, "expected:", 1 / torch.cosh(torch.tensor([-3.0, 0.1, 2.5]) / 2) ** 2)


# ODE sensitivities: damped pendulum theta'' = -g/L sin(theta) - k theta'
def simulate(g_over_l, k, theta0=1.0, omega0=0.0, h=0.01, steps=300):
    def f(s):
        return torch.stack([s[1], -g_over_l * torch.sin(s[0]) - k * s[1]])

    s = torch.stack([torch.as_tensor(theta0) + 0 * g_over_l, torch.as_tensor(omega0) + 0 * k])
    for _ in range(steps):
        k1 = f(s)
        k2 = f(s + h / 2 * k1)
        k3 = f(s + h / 2 * k2)
        k4 = f(s + h * k3)
        s = s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return s


gl, k = torch.tensor(9.81), torch.tensor(0.3)
with fwAD.dual_level():
    s_g = fwAD.unpack_dual(simulate(fwAD.make_dual(gl, torch.tensor(1.0)), k)).tangent
    s_k = fwAD.unpack_dual(simulate(gl, fwAD.make_dual(k, torch.tensor(1.0)))).tangent
eps = 1e-5
fd_g = (simulate(gl + eps, k) - simulate(gl - eps, k)) / (2 * eps)
fd_k = (simulate(gl, k + eps) - simulate(gl, k - eps)) / (2 * eps)
print("state at T=3:", simulate(gl, k))
print("d state / d(g/L):", s_g, "| matches central differences:", torch.allclose(s_g, fd_g, atol=1e-6))
print("d state / d k:", s_k, "| matches central differences:", torch.allclose(s_k, fd_k, atol=1e-6))

# fit (g/L, k) to an observed trajectory end-state by Gauss-Newton with forward-mode Jacobians
target = simulate(torch.tensor(7.0), torch.tensor(0.5))
p = torch.tensor([9.0, 0.2])
for it in range(5):
    with fwAD.dual_level():
        cols = [fwAD.unpack_dual(simulate(fwAD.make_dual(p[0], torch.tensor(float(i == 0))),
                                          fwAD.make_dual(p[1], torch.tensor(float(i == 1))))).tangent for i in range(2)]
    Jp = torch.stack(cols, 1)
    r = simulate(p[0], p[1]) - target
    p = p - torch.linalg.lstsq(Jp, r.unsqueeze(1)).solution.squeeze(1)
    print(f"gauss-newton {it} residual {r.norm().item():.6e} params {p[0].item():.8f} {p[1].item():.8f}")


# Hessian-vector product by forward-over-reverse
def energy(q):
    return (q.sin() * q.roll(1)).sum() + 0.5 * q.pow(2).sum() * math.pi


q = torch.randn(6)
v = torch.randn(6)
_, hv = torch.func.jvp(torch.func.grad(energy), (q,), (v,))
hv_ref = torch.autograd.functional.hvp(energy, q, v)[1]
print("forward-over-reverse hvp equals reverse-over-reverse:", torch.allclose(hv, hv_ref, atol=1e-12))
print("Hv:", hv)
