"""Hamiltonian neural networks (Greydanus et al. 2019, greydanus/hamiltonian-nn): a mass-spring
and a pendulum dataset with noise, an MLP that outputs a scalar H(q, p) whose symplectic
gradient (dH/dp, -dH/dq) from torch.autograd.grad(create_graph=True) is fitted to the time
derivatives, against a baseline MLP that outputs the derivatives directly; trajectories
integrated by a fixed-step RK4 and a leapfrog integrator, energy drift of each model, and the
two-body gravitational problem with an inverse-square force written with pow(-1.5)."""
# ruff: noqa: E501

import torch
from torch import nn

torch.manual_seed(0)


def spring_field(x):
    q, p = x[..., 0], x[..., 1]
    return torch.stack([p, -q], -1)


def pendulum_field(x):
    q, p = x[..., 0], x[..., 1]
    return torch.stack([p, -3.0 * torch.sin(q)], -1)


def make_data(field, n, gen, noise=0.05):
    r = torch.rand(n, generator=gen) * 0.9 + 0.1
    th = torch.rand(n, generator=gen) * 2 * torch.pi
    x = torch.stack([r * torch.cos(th), r * torch.sin(th)], -1) * 2
    dx = field(x) + noise * torch.randn(n, 2, generator=gen)
    return x, dx


class MLP(nn.Module):
    def __init__(self, out_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, out_dim))
        for m in self.net:
            if isinstance(m, nn.Linear):
                nn.init.orthogonal_(m.weight)

    def forward(self, x):
        return self.net(x)


class HNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.H = MLP(1)
        self.register_buffer("J", torch.tensor([[0.0, 1.0], [-1.0, 0.0]]))

    def forward(self, x):
        return self.H(x).squeeze(-1)

    def time_derivative(self, x):
        with torch.enable_grad():
            if not x.requires_grad:
                x = x.detach().requires_grad_()
            H = self(x)
            dH = torch.autograd.grad(H.sum(), x, create_graph=True)[0]
        return dH @ self.J.T


def rk4(f, x, dt, steps):
    out = [x]
    for _ in range(steps):
        k1 = f(x)
        k2 = f(x + 0.5 * dt * k1)
        k3 = f(x + 0.5 * dt * k2)
        k4 = f(x + dt * k3)
        x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(x)
    return torch.stack(out)


def train(model, deriv, x, dx, steps=150, lr=1e-2):
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-5)
    for _ in range(steps):
        loss = (deriv(x) - dx).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


gen = torch.Generator().manual_seed(1)
for name, field, energy in (("spring", spring_field, lambda x: 0.5 * (x[..., 0] ** 2 + x[..., 1] ** 2)),
                            ("pendulum", pendulum_field, lambda x: 3.0 * (1 - torch.cos(x[..., 0])) + 0.5 * x[..., 1] ** 2)):
    x, dx = make_data(field, 200, gen)
    torch.manual_seed(0)
    hnn = HNN()
    base = MLP(2)
    l_h = train(hnn, hnn.time_derivative, x, dx)
    l_b = train(base, base, x, dx)
    print(f"{name}: data {tuple(x.shape)} hnn loss {l_h:.5f} baseline loss {l_b:.5f}")
    x0 = torch.tensor([[1.0, 0.0]])
    true = rk4(field, x0, 0.1, 100)
    traj_h = rk4(lambda z: hnn.time_derivative(z).detach(), x0, 0.1, 100)
    traj_b = rk4(lambda z: base(z).detach(), x0, 0.1, 100)
    e0 = energy(x0).item()
    print(f"{name}: energy true drift {abs(energy(true[-1]).item() - e0):.5f} hnn drift {abs(energy(traj_h[-1]).item() - e0):.4f} baseline drift {abs(energy(traj_b[-1]).item() - e0):.4f}")
    print(f"{name}: final state true {[round(v, 3) for v in true[-1, 0].tolist()]} hnn {[round(v, 2) for v in traj_h[-1, 0].tolist()]}")
    with torch.no_grad():
        H_vals = hnn(true[:, 0])
    print(f"{name}: learned H along the true orbit std {H_vals.std().item():.4f} vs range {(H_vals.max() - H_vals.min()).item():.4f}")

xg = torch.tensor([[0.3, -0.4], [1.0, 0.5]], requires_grad=True)
td = hnn.time_derivative(xg)
jac = torch.stack([torch.autograd.grad(td[:, i].sum(), xg, retain_graph=True)[0] for i in range(2)], 1)
print("symplectic (divergence-free)", bool((jac[:, 0, 0] + jac[:, 1, 1]).abs().max() < 1e-5), "off-diagonal", [round(v, 4) for v in jac[:, 0, 1].tolist()])


def two_body_accel(pos, G=1.0):
    r = pos[0] - pos[1]
    d2 = (r ** 2).sum()
    f = -G * r * d2.pow(-1.5)
    return torch.stack([f, -f])


def leapfrog(pos, vel, dt, steps):
    energies = []
    acc = two_body_accel(pos)
    for _ in range(steps):
        vel = vel + 0.5 * dt * acc
        pos = pos + dt * vel
        acc = two_body_accel(pos)
        vel = vel + 0.5 * dt * acc
        ke = 0.5 * (vel ** 2).sum()
        pe = -1.0 / (pos[0] - pos[1]).norm()
        energies.append((ke + pe).item())
    return pos, vel, torch.tensor(energies)


pos = torch.tensor([[0.5, 0.0], [-0.5, 0.0]], dtype=torch.float64)
vel = torch.tensor([[0.0, 0.5], [0.0, -0.5]], dtype=torch.float64)
p1, v1, E = leapfrog(pos, vel, 0.01, 400)
print("two-body final", [[round(v, 5) for v in r] for r in p1.tolist()], "energy", f"{E[0].item():.6f}", "drift", f"{(E.max() - E.min()).item():.2e}")
print("momentum", [round(v, 10) for v in v1.sum(0).tolist()], "r^-2", [round(v, 6) for v in (torch.tensor([0.5, 2.0, 7.0]) ** -2).tolist()])
