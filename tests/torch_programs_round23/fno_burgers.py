"""A 1-D Fourier Neural Operator (Li et al. 2021, the neuraloperator recipe): spectral
convolutions that keep the lowest Fourier modes of torch.fft.rfft, multiply them by learned
complex weights (torch.cfloat Parameters) with einsum and go back by irfft(n=...), a lifting
and a projection Linear, a 1x1 Conv1d skip, GELU; trained to map initial conditions of a
diffusion equation (solved exactly in Fourier space) to the solution at t = 0.1, with the
relative L2 loss, Adam and StepLR; zero-shot super-resolution on a finer grid.  In float64
(set_default_dtype, complex128 weights): the training is long enough for float32 rounding to
reach the printed digits."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


def make_data(n, grid, nu=0.05, t=0.1, gen=None):
    x = torch.linspace(0, 1, grid + 1)[:-1]
    k = torch.arange(1, 6, dtype=torch.get_default_dtype())
    a = torch.randn(n, 5, generator=gen) / k
    b = torch.randn(n, 5, generator=gen) / k
    phase = 2 * math.pi * k[None, :, None] * x[None, None, :]
    u0 = (a[..., None] * torch.sin(phase) + b[..., None] * torch.cos(phase)).sum(1)
    decay = torch.exp(-nu * (2 * math.pi * k) ** 2 * t)
    ut = (decay[None, :, None] * (a[..., None] * torch.sin(phase) + b[..., None] * torch.cos(phase))).sum(1)
    return x, u0, ut


class SpectralConv1d(nn.Module):
    def __init__(self, cin, cout, modes):
        super().__init__()
        self.modes = modes
        scale = 1 / (cin * cout)
        self.weight = nn.Parameter(scale * torch.rand(cin, cout, modes, dtype=torch.cdouble))

    def forward(self, x):
        n = x.size(-1)
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(x.size(0), self.weight.size(1), n // 2 + 1, dtype=x_ft.dtype)
        out_ft[:, :, : self.modes] = torch.einsum("bix,iox->box", x_ft[:, :, : self.modes], self.weight)
        return torch.fft.irfft(out_ft, n=n)


class FNO1d(nn.Module):
    def __init__(self, modes=8, width=16, layers=3):
        super().__init__()
        self.lift = nn.Linear(2, width)
        self.spectral = nn.ModuleList(SpectralConv1d(width, width, modes) for _ in range(layers))
        self.skip = nn.ModuleList(nn.Conv1d(width, width, 1) for _ in range(layers))
        self.proj = nn.Sequential(nn.Linear(width, 32), nn.GELU(), nn.Linear(32, 1))

    def forward(self, u, x):
        h = torch.stack([u, x.expand_as(u)], dim=-1)
        h = self.lift(h).permute(0, 2, 1)
        for i, (sc, sk) in enumerate(zip(self.spectral, self.skip)):
            h = sc(h) + sk(h)
            if i < len(self.spectral) - 1:
                h = F.gelu(h)
        return self.proj(h.permute(0, 2, 1)).squeeze(-1)


def rel_l2(pred, target):
    return (torch.linalg.vector_norm(pred - target, dim=-1) / torch.linalg.vector_norm(target, dim=-1)).mean()


gen = torch.Generator().manual_seed(0)
x, u0, ut = make_data(64, 32, gen=gen)
xt, u0t, utt = make_data(16, 32, gen=gen)
print("data", tuple(u0.shape), f"{u0.std().item():.4f} {ut.std().item():.4f}")
model = FNO1d()
print("complex params", [n for n, p in model.named_parameters() if p.is_complex()])
print("params", sum(p.numel() for p in model.parameters()), "real numbers", sum(torch.view_as_real(p).numel() if p.is_complex() else p.numel() for p in model.parameters()))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=25, gamma=0.5)
for ep in range(60):
    perm = torch.randperm(64, generator=gen)
    for i in range(0, 64, 16):
        idx = perm[i:i + 16]
        loss = rel_l2(model(u0[idx], x), ut[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    sched.step()
    if ep % 20 == 0 or ep == 59:
        with torch.no_grad():
            print(f"ep {ep:3d} train {loss.item():.3f} test {rel_l2(model(u0t, xt), utt).item():.3f} lr {sched.get_last_lr()[0]:.5f}")
g = model.spectral[0].weight.grad
print("complex grad", g.dtype, tuple(g.shape), g.abs().sum().item() > 0)
with torch.no_grad():
    xf, u0f, utf = make_data(8, 128, gen=gen)
    print(f"super-resolution 128 {rel_l2(model(u0f, xf), utf).item():.3f}")
    spec = torch.fft.rfft(model(u0t, xt)).abs().mean(0)
    print("output spectrum", [round(v, 3) for v in spec[:8].tolist()])
    print("weight modes norm", [round(v, 3) for v in model.spectral[0].weight.abs().pow(2).sum((0, 1)).sqrt()[:4].tolist()])
