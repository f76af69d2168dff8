"""DeepAR (Salinas et al. 2020, the GluonTS / pytorch-forecasting recipe) for count time series:
an LSTM fed the previous value (scaled by each series' mean, the "scale" trick), a calendar
feature and a learned series embedding; the output layer gives a NegativeBinomial's
total_count (softplus) and logits, trained by maximising log_prob over the conditioning and
prediction ranges; forecasting by ancestral sampling of 100 paths through the LSTM state,
quantiles by torch.quantile, coverage of the 10-90% band, CRPS estimated from samples, and the
mean forecast against a seasonal-naive baseline.  In float64: after 100 Adam steps float32
rounding reaches the printed digits."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import NegativeBinomial

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
S, T, PERIOD, HORIZON = 12, 72, 7, 14


def make_series(gen):
    t = torch.arange(T + HORIZON, dtype=torch.get_default_dtype())
    level = torch.rand(S, 1, generator=gen) * 20 + 3
    season = 1 + 0.5 * torch.sin(2 * math.pi * t / PERIOD + torch.rand(S, 1, generator=gen) * 6)
    trend = 1 + 0.004 * t * torch.randn(S, 1, generator=gen)
    rate = (level * season * trend).clamp_min(0.5)
    y = torch.poisson(rate, generator=gen)
    return y, t


class DeepAR(nn.Module):
    def __init__(self, hidden=32, emb=4):
        super().__init__()
        self.embed = nn.Embedding(S, emb)
        self.lstm = nn.LSTM(1 + 2 + emb, hidden, num_layers=2, batch_first=True)
        self.out = nn.Linear(hidden, 2)

    def features(self, prev, t, ids):
        cal = torch.stack([torch.sin(2 * math.pi * t / PERIOD), torch.cos(2 * math.pi * t / PERIOD)], -1)
        cal = cal.expand(prev.size(0), -1, -1)
        e = self.embed(ids)[:, None].expand(-1, prev.size(1), -1)
        return torch.cat([prev.unsqueeze(-1), cal, e], -1)

    def dist(self, h, scale):
        raw = self.out(h)
        total_count = F.softplus(raw[..., 0]) + 1e-3
        mean = F.softplus(raw[..., 1]) * scale
        return NegativeBinomial(total_count=total_count, logits=torch.log(mean) - torch.log(total_count))

    def forward(self, y, t, ids, scale, state=None):
        prev = torch.cat([torch.zeros(y.size(0), 1), y[:, :-1]], 1) / scale
        h, state = self.lstm(self.features(prev, t, ids), state)
        return self.dist(h, scale), state


gen = torch.Generator().manual_seed(0)
y, t = make_series(gen)
train, test = y[:, :T], y[:, T:]
ids = torch.arange(S)
scale = 1 + train.mean(1, keepdim=True)
print("series", tuple(y.shape), "mean count", round(train.mean().item(), 3), "overdispersed", (train.var(1) > train.mean(1)).sum().item())
model = DeepAR()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for ep in range(150):
    d, _ = model(train, t[:T], ids, scale)
    loss = -d.log_prob(train).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if ep % 30 == 0 or ep == 149:
        print(f"epoch {ep:3d} nll {loss.item():.4f} mean r {d.total_count.mean().item():.3f}")

model.eval()
with torch.no_grad():
    torch.manual_seed(1)
    n_paths = 100
    d, state = model(train, t[:T], ids, scale)
    rep = lambda x: x.repeat_interleave(n_paths, 0)  # noqa: E731
    state = tuple(s.repeat_interleave(n_paths, 1) for s in state)
    last = rep(train[:, -1:])
    paths = []
    for k in range(HORIZON):
        tk = t[T + k: T + k + 1]
        h, state = model.lstm(model.features(last[:, -1:] / rep(scale), tk, rep(ids)), state)
        sample = model.dist(h, rep(scale)).sample()
        paths.append(sample)
        last = sample
    paths = torch.cat(paths, 1).view(S, n_paths, HORIZON)
    q = torch.quantile(paths, torch.tensor([0.1, 0.5, 0.9]), dim=1)
    coverage = ((test >= q[0]) & (test <= q[2])).float().mean()
    mean_fc = paths.mean(1)
    naive = train[:, -PERIOD:].repeat(1, 2)
    crps = ((paths - test[:, None]).abs().mean(1) - 0.5 * (paths[:, :, None] - paths[:, None]).abs().mean((1, 2))).mean()
    print("paths", tuple(paths.shape), "integer", torch.equal(paths, paths.round()), "nonnegative", bool((paths >= 0).all()))
    print(f"coverage 10-90 {coverage.item():.3f} crps {crps.item():.3f}")
    print(f"mae deepar {(mean_fc - test).abs().mean().item():.3f} seasonal naive {(naive - test).abs().mean().item():.3f}")
    print("median series 0", q[1, 0, :7].tolist())
