"""A neural ODE as in the torchdiffeq-style tutorials, written with PyTorch alone: learn the
spiral dynamics dy/dt = A y^3 with an MLP vector field integrated by a fixed-step RK4 (and
the 3/8 rule), backpropagation through the solver, minibatches of trajectory windows chosen
with numpy-free torch.randint, RMSprop; then the adjoint-free sensitivities checked with
torch.autograd.functional.vjp/jvp/jacobian of the one-step map, the Jacobian's eigenvalues,
and a float64 gradcheck of the step."""
# ruff: noqa: E501

import torch
import torch.nn as nn
from torch.autograd.functional import jacobian, jvp, vjp

torch.manual_seed(5)
A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])
T = 40
t = torch.linspace(0.0, 2.0, T)


def true_f(y):
    return (y ** 3) @ A


def rk4(f, y0, ts, substeps=1):
    ys = [y0]
    y = y0
    for i in range(len(ts) - 1):
        h = (ts[i + 1] - ts[i]) / substeps
        for _ in range(substeps):
            k1 = f(y)
            k2 = f(y + h * k1 / 2)
            k3 = f(y + h * k2 / 2)
            k4 = f(y + h * k3)
            y = y + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6
        ys.append(y)
    return torch.stack(ys)


def rk38_step(f, y, h):
    k1 = f(y)
    k2 = f(y + h * k1 / 3)
    k3 = f(y + h * (k2 - k1 / 3))
    k4 = f(y + h * (k1 - k2 + k3))
    return y + h * (k1 + 3 * k2 + 3 * k3 + k4) / 8


with torch.no_grad():
    true_y = rk4(true_f, torch.tensor([[2.0, 0.0]]), t, substeps=4)
print(true_y.shape, true_y[::8, 0].round(decimals=4))


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
        for m in self.net.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, mean=0, std=0.1)
                nn.init.constant_(m.bias, val=0)
        self.nfe = 0

    def forward(self, y):
        self.nfe += 1
        return self.net(y ** 3)


func = ODEFunc()
opt = torch.optim.RMSprop(func.parameters(), lr=1e-2)
for it in range(30):
    s = torch.randint(0, T - 8, (6,))
    batch_y0 = true_y[s]  # (6, 1, 2)
    batch_t = t[:8]
    batch_y = torch.stack([true_y[s + i] for i in range(8)], dim=0)
    pred = rk4(func, batch_y0, batch_t)
    loss = torch.mean(torch.abs(pred - batch_y))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 6 == 0:
        with torch.no_grad():
            full = rk4(func, true_y[0], t)
        print(f"iter {it:2d} loss {loss.item():.5f} full {torch.mean(torch.abs(full - true_y)).item():.5f} nfe {func.nfe}")

y0 = torch.tensor([1.5, -0.5])
h = torch.tensor(0.05)
step = lambda y: rk38_step(func, y, h)  # noqa: E731
out, vj = vjp(step, y0, torch.tensor([1.0, 0.0]))
_, jv = jvp(step, y0, torch.tensor([0.0, 1.0]))
J = jacobian(step, y0)
print(out.round(decimals=5), vj.round(decimals=5), jv.round(decimals=5))
print(J.round(decimals=5), torch.allclose(J[0], vj, atol=1e-6), torch.allclose(J[:, 1], jv, atol=1e-6))
ev = torch.linalg.eigvals(J)
print(ev.abs().sort().values.round(decimals=4), torch.linalg.det(J).item().__round__(5))
f64 = ODEFunc().double()
print(torch.autograd.gradcheck(lambda y: rk38_step(f64, y, 0.1), (torch.randn(3, 2, dtype=torch.float64, requires_grad=True),)))
print(torch.autograd.gradgradcheck(lambda y: rk38_step(f64, y, 0.1), (torch.randn(2, 2, dtype=torch.float64, requires_grad=True),)))
