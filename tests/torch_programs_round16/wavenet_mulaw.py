"""A tiny WaveNet on a synthetic waveform, as in the audio-generation tutorials: mu-law
companding (sign, log1p) to 16 classes and its inverse, one_hot inputs, causal dilated Conv1d
layers with left padding by F.pad, gated tanh*sigmoid units with residual and skip 1x1
convolutions, weight normalisation through torch.nn.utils.parametrizations.weight_norm,
cross-entropy over classes, AdamW with CosineAnnealingLR, the receptive field, and greedy
sample-by-sample generation."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import weight_norm

torch.manual_seed(13)
Q = 16


def mu_law_encode(x, q=Q):
    mu = q - 1
    y = torch.sign(x) * torch.log1p(mu * x.abs()) / math.log1p(mu)
    return ((y + 1) / 2 * mu + 0.5).long()


def mu_law_decode(c, q=Q):
    mu = q - 1
    y = 2 * c.float() / mu - 1
    return torch.sign(y) * ((1 + mu) ** y.abs() - 1) / mu


class CausalConv(nn.Module):
    def __init__(self, cin, cout, k, dilation):
        super().__init__()
        self.pad = (k - 1) * dilation
        self.conv = weight_norm(nn.Conv1d(cin, cout, k, dilation=dilation))

    def forward(self, x):
        return self.conv(F.pad(x, (self.pad, 0)))


class WaveNet(nn.Module):
    def __init__(self, ch=16, dilations=(1, 2, 4, 8)):
        super().__init__()
        self.inp = CausalConv(Q, ch, 2, 1)
        self.filt = nn.ModuleList(CausalConv(ch, ch, 2, d) for d in dilations)
        self.gate = nn.ModuleList(CausalConv(ch, ch, 2, d) for d in dilations)
        self.res = nn.ModuleList(nn.Conv1d(ch, ch, 1) for _ in dilations)
        self.skip = nn.ModuleList(nn.Conv1d(ch, 32, 1) for _ in dilations)
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(32, 32, 1), nn.ReLU(), nn.Conv1d(32, Q, 1))
        self.receptive_field = 1 + sum(dilations) + 1

    def forward(self, x):
        h = self.inp(F.one_hot(x, Q).float().transpose(1, 2))
        skips = 0
        for f, g, r, s in zip(self.filt, self.gate, self.res, self.skip):
            z = torch.tanh(f(h)) * torch.sigmoid(g(h))
            skips = skips + s(z)
            h = h + r(z)
        return self.out(skips)


t = torch.arange(160, dtype=torch.float32)
wave = 0.6 * torch.sin(2 * math.pi * t / 20) + 0.3 * torch.sin(2 * math.pi * t / 7)
codes = mu_law_encode(wave)
print(codes[:20], (mu_law_decode(codes) - wave).abs().max().item().__round__(4))
print(mu_law_encode(torch.tensor([-1.0, -0.5, 0.0, 0.01, 0.5, 1.0])), mu_law_decode(torch.tensor([0, 7, 8, 15])))

model = WaveNet()
print(model.receptive_field, model.inp.conv.parametrizations.weight.original0.shape, sorted(dict(model.inp.conv.named_parameters()).keys()))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=40, eta_min=1e-4)
x = codes[:-1].unsqueeze(0)
y = codes[1:].unsqueeze(0)
for step in range(40):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 8 == 0 or step == 39:
        acc = (logits.argmax(1) == y).float().mean()
        print(f"step {step:2d} loss {loss.item():.4f} acc {acc.item():.3f} lr {sched.get_last_lr()[0]:.5f}")

model.eval()
gen = codes[:model.receptive_field].tolist()
with torch.no_grad():
    for _ in range(30):
        ctx = torch.tensor(gen[-model.receptive_field:]).unsqueeze(0)
        gen.append(int(model(ctx)[0, :, -1].argmax()))
print(gen[model.receptive_field:])
print(mu_law_decode(torch.tensor(gen[-10:])).round(decimals=3), codes[model.receptive_field:model.receptive_field + 30].tolist() == gen[model.receptive_field:])
w = model.filt[0].conv
print(w.parametrizations.weight.original0.flatten()[:4], w.weight.norm(dim=(1, 2))[:4])
