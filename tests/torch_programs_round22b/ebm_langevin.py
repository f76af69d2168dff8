"""An energy-based model trained by contrastive divergence with short-run stochastic gradient
Langevin dynamics (Du & Mordatch 2019, the JEM/IGEBM recipe) on a 2-D two-moons-like density:
input gradients by torch.autograd.grad inside torch.enable_grad, noise by randn_like, a
replay buffer reinitialised with 5% fresh uniform noise, step-size and gradient clamping, an
energy-magnitude regulariser, spectral-normalised critic layers (torch.nn.utils.parametrizations
.spectral_norm with its power iteration), Swish (SiLU) activations, samples' statistics, the
energy of data vs noise, and a finite-difference check of one Langevin step's input gradient."""
# ruff: noqa: E501

import math

import torch
from torch import nn
from torch.nn.utils.parametrizations import spectral_norm

torch.manual_seed(0)


def two_moons(n, gen, noise=0.08):
    t = torch.rand(n, generator=gen) * math.pi
    upper = torch.rand(n, generator=gen) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + noise * torch.randn(n, 2, generator=gen)


class Energy(nn.Module):
    def __init__(self, h=64, sn=True):
        super().__init__()
        wrap = spectral_norm if sn else (lambda m: m)
        self.net = nn.Sequential(wrap(nn.Linear(2, h)), nn.SiLU(), wrap(nn.Linear(h, h)), nn.SiLU(), nn.Linear(h, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def langevin(E, x, steps, step_size, noise, gen):
    x = x.detach().clone()
    for _ in range(steps):
        with torch.enable_grad():
            x.requires_grad_(True)
            g = torch.autograd.grad(E(x).sum(), x)[0]
        x = x.detach() - step_size * g.clamp(-0.1, 0.1) / 2 + noise * torch.randn(x.shape, generator=gen)
        x = x.clamp(-2.5, 3.5)
    return x.detach()


def fresh(n, gen):
    return torch.rand(n, 2, generator=gen) * 6 - 2.5


gen = torch.Generator().manual_seed(0)
data = two_moons(1024, gen)
print(f"data mean {data.mean(0).tolist()[0]:.4f} {data.mean(0).tolist()[1]:.4f} std {data.std(0).tolist()[0]:.4f} {data.std(0).tolist()[1]:.4f}")

E = Energy()
sigmas = [torch.linalg.matrix_norm(m.weight.detach(), 2).item() for m in E.net if isinstance(m, nn.Linear)]
print("spectral norms at init (sn layers ~1)", [round(v, 4) for v in sigmas])
print("parametrized", [type(m).__name__ for m in E.net], hasattr(E.net[0], "parametrizations"))
opt = torch.optim.Adam(E.parameters(), lr=1e-3, betas=(0.0, 0.999))
buffer = fresh(512, gen)
for it in range(120):
    pos = data[torch.randint(0, 1024, (64,), generator=gen)]
    idx = torch.randint(0, 512, (64,), generator=gen)
    init = buffer[idx]
    reinit = torch.rand(64, generator=gen) < 0.05
    init = torch.where(reinit[:, None], fresh(64, gen), init)
    E.eval()
    neg = langevin(E, init, steps=20, step_size=1.0, noise=0.01, gen=gen)
    E.train()
    buffer[idx] = neg
    e_pos, e_neg = E(pos), E(neg)
    cd = e_pos.mean() - e_neg.mean()
    reg = 0.1 * (e_pos.pow(2).mean() + e_neg.pow(2).mean())
    loss = cd + reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 30 == 0 or it == 119:
        print(f"it {it:3d} cd {cd.item():.4f} reg {reg.item():.4f} E+ {e_pos.mean().item():.4f} E- {e_neg.mean().item():.4f}")

E.eval()
with torch.no_grad():
    e_data = E(data).mean().item()
    e_noise = E(fresh(1024, gen)).mean().item()
print(f"energy data {e_data:.4f} uniform noise {e_noise:.4f} data lower {e_data < e_noise}")
samples = langevin(E, fresh(256, gen), steps=60, step_size=1.0, noise=0.01, gen=gen)
d = torch.cdist(samples, data).min(1).values
print(f"samples mean {samples.mean(0).tolist()[0]:.4f} {samples.mean(0).tolist()[1]:.4f} dist to data median {d.median().item():.4f} within 0.2 {(d < 0.2).float().mean().item():.4f}")
sigmas = [torch.linalg.matrix_norm(m.weight.detach(), 2).item() for m in E.net if isinstance(m, nn.Linear)]
print("spectral norms after training", [round(v, 4) for v in sigmas])
print("state dict keys", [k for k in E.state_dict() if k.startswith("net.0")])

# one Langevin step's input gradient against central differences, in float64
E64 = Energy(h=8, sn=False).double()
x0 = torch.tensor([[0.3, -0.2]], dtype=torch.float64, requires_grad=True)
g = torch.autograd.grad(E64(x0).sum(), x0)[0]
h = 1e-6
fd = torch.stack([(E64(x0.detach() + h * e) - E64(x0.detach() - h * e)) / (2 * h) for e in torch.eye(2, dtype=torch.float64)], -1)
print(f"input gradient {g.tolist()[0][0]:.8f} {g.tolist()[0][1]:.8f} matches finite differences {torch.allclose(g, fd, atol=1e-7)}")
