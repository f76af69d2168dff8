"""SIREN (Sitzmann et al., "Implicit Neural Representations with Periodic Activation
Functions", vsitzmann/siren): sine layers with omega_0 = 30 and their special uniform
initialisation under torch.no_grad, coordinates from meshgrid, fitting a 2-D signal, and the
derivatives of the network with respect to its input by torch.autograd.grad with
grad_outputs=ones_like and create_graph=True: the gradient, the divergence and the Laplacian,
compared with the analytic derivatives of the fitted signal, then a Poisson-style fit that
supervises the gradient only."""
# ruff: noqa: E501

import math

import torch
from torch import nn


class SineLayer(nn.Module):
    def __init__(self, in_features, out_features, bias=True, is_first=False, omega_0=30.0):
        super().__init__()
        self.omega_0, self.is_first, self.in_features = omega_0, is_first, in_features
        self.linear = nn.Linear(in_features, out_features, bias=bias)
        self.init_weights()

    def init_weights(self):
        with torch.no_grad():
            if self.is_first:
                self.linear.weight.uniform_(-1 / self.in_features, 1 / self.in_features)
            else:
                bound = math.sqrt(6 / self.in_features) / self.omega_0
                self.linear.weight.uniform_(-bound, bound)

    def forward(self, x):
        return torch.sin(self.omega_0 * self.linear(x))


class Siren(nn.Module):
    def __init__(self, in_features=2, hidden=32, layers=2, out_features=1, first_omega_0=10.0, hidden_omega_0=10.0):
        super().__init__()
        net = [SineLayer(in_features, hidden, is_first=True, omega_0=first_omega_0)]
        net += [SineLayer(hidden, hidden, omega_0=hidden_omega_0) for _ in range(layers)]
        final = nn.Linear(hidden, out_features)
        with torch.no_grad():
            bound = math.sqrt(6 / hidden) / hidden_omega_0
            final.weight.uniform_(-bound, bound)
        net.append(final)
        self.net = nn.Sequential(*net)

    def forward(self, coords):
        coords = coords.clone().detach().requires_grad_(True)
        return self.net(coords), coords


def gradient(y, x, grad_outputs=None):
    if grad_outputs is None:
        grad_outputs = torch.ones_like(y)
    return torch.autograd.grad(y, [x], grad_outputs=grad_outputs, create_graph=True)[0]


def divergence(y, x):
    div = 0.0
    for i in range(y.shape[-1]):
        div += torch.autograd.grad(y[..., i], x, torch.ones_like(y[..., i]), create_graph=True)[0][..., i:i + 1]
    return div


def laplace(y, x):
    return divergence(gradient(y, x), x)


def get_mgrid(side, dim=2):
    tensors = tuple(dim * [torch.linspace(-1, 1, steps=side)])
    mgrid = torch.stack(torch.meshgrid(*tensors, indexing="ij"), dim=-1)
    return mgrid.reshape(-1, dim)


torch.manual_seed(1)
coords = get_mgrid(16)
x, y = coords[:, :1], coords[:, 1:]
signal = torch.sin(2 * x) * torch.cos(3 * y)
grad_true = torch.cat([2 * torch.cos(2 * x) * torch.cos(3 * y), -3 * torch.sin(2 * x) * torch.sin(3 * y)], dim=1)
lap_true = -13 * signal
print("coords", tuple(coords.shape), coords[:2].tolist())

model = Siren()
print("first layer weight range", f"{model.net[0].linear.weight.min().item():.4f} {model.net[0].linear.weight.max().item():.4f}")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(60):
    out, c = model(coords)
    loss = ((out - signal) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        print(f"step {step} fit loss {loss.item():.6f}")

out, c = model(coords)
g = gradient(out, c)
lap = laplace(out, c)
print("grad shape", tuple(g.shape), "laplacian shape", tuple(lap.shape), "requires grad", lap.requires_grad)
print(f"grad error {(g - grad_true).norm().item() / grad_true.norm().item():.4f} laplacian error {(lap - lap_true).norm().item() / lap_true.norm().item():.4f}")

# supervise the gradient only (Poisson reconstruction) and recover the signal up to a constant
poisson = Siren()
opt = torch.optim.Adam(poisson.parameters(), lr=1e-3)
for step in range(60):
    out, c = poisson(coords)
    loss = ((gradient(out, c) - grad_true) ** 2).sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        print(f"poisson step {step} gradient loss {loss.item():.5f}")
with torch.no_grad():
    rec, _ = poisson(coords)
rec = rec - rec.mean() + signal.mean()
print(f"poisson reconstruction error {((rec - signal) ** 2).mean().item():.5f}")

# exact derivatives on a closed form
p = torch.tensor([[0.3, -0.7]], requires_grad=True)
f = torch.sin(3 * p[:, :1]) * p[:, 1:] ** 2
gf = gradient(f, p)
print("analytic grad", [round(v, 5) for v in gf.flatten().tolist()], "laplacian", round(laplace(f, p).item(), 5))
h = torch.autograd.grad(gf[:, 0].sum(), p, retain_graph=True)[0]
print("d/dp of df/dx", [round(v, 5) for v in h.flatten().tolist()])
