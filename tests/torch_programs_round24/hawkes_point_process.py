"""Temporal point processes: event sequences simulated from a self-exciting Hawkes process by
Ogata's thinning (torch.distributions.Exponential/Uniform draws), the exact Hawkes
log-likelihood with an exponential kernel (a recursive sum in a Python loop) fitted by
maximum likelihood with softplus-constrained parameters and torch.optim.LBFGS with a closure
(line_search_fn="strong_wolfe"); then a neural point process (RMTPP, Du et al. 2016): a GRU
over inter-event times with packed variable-length sequences (pack_padded_sequence), the
intensity exp(v h + w dt + b) integrated in closed form, masked log-likelihood; the
branching ratio, a time-rescaling goodness-of-fit check, and next-event time predictions."""
# ruff: noqa: E501

import torch
import torch.nn as nn
from torch.distributions import Exponential, Uniform
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # exact likelihoods with LBFGS


def simulate_hawkes(mu, alpha, beta, horizon):
    t, events, excite = 0.0, [], 0.0
    while True:
        lam_bar = mu + excite
        dt = Exponential(torch.tensor(lam_bar)).sample().item()
        t += dt
        excite *= torch.exp(torch.tensor(-beta * dt)).item()
        if t > horizon:
            return torch.tensor(events)
        if Uniform(0.0, 1.0).sample().item() * lam_bar <= mu + excite:
            events.append(t)
            excite += alpha


def hawkes_loglik(times, horizon, mu, alpha, beta):
    A, prev, ll = torch.zeros(()), None, torch.zeros(())
    for t in times:
        if prev is not None:
            A = torch.exp(-beta * (t - prev)) * (1 + A)
        ll = ll + torch.log(mu + alpha * A)
        prev = t
    compensator = mu * horizon + (alpha / beta) * (1 - torch.exp(-beta * (horizon - times))).sum()
    return ll - compensator


true = (0.5, 0.8, 1.5)
horizon = 60.0
seqs = [simulate_hawkes(*true, horizon) for _ in range(6)]
print("events per sequence:", [len(s) for s in seqs], "stationary rate", round(true[0] / (1 - true[1] / true[2]), 4))

raw = torch.zeros(3, requires_grad=True)
opt = torch.optim.LBFGS([raw], lr=1, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    mu, alpha, beta = nn.functional.softplus(raw).unbind()
    nll = -sum(hawkes_loglik(s, horizon, mu, alpha, beta) for s in seqs) / len(seqs)
    nll.backward()
    return nll


for it in range(3):
    nll = opt.step(closure)
    mu, alpha, beta = nn.functional.softplus(raw).tolist()
    print(f"LBFGS round {it} nll {nll.item():.6f} mu {mu:.4f} alpha {alpha:.4f} beta {beta:.4f} branching {alpha / beta:.4f}")

# time rescaling: compensator increments of a correct model are Exp(1)
mu, alpha, beta = nn.functional.softplus(raw).detach().unbind()
s = seqs[0]
comp = mu * s + (alpha / beta) * torch.stack([(1 - torch.exp(-beta * (t - s[s < t]))).sum() for t in s])
increments = torch.diff(comp, prepend=torch.zeros(1))
print(f"rescaled increments: mean {increments.mean().item():.4f} var {increments.var().item():.4f} (Exp(1): 1, 1)")


class RMTPP(nn.Module):
    def __init__(self, h=16):
        super().__init__()
        self.rnn = nn.GRU(1, h, batch_first=True)
        self.v = nn.Linear(h, 1)
        self.w = nn.Parameter(torch.tensor(-0.1))

    def forward(self, dts, lengths):
        packed = pack_padded_sequence(torch.log1p(dts).unsqueeze(-1), lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.rnn(packed)
        h, _ = pad_packed_sequence(out, batch_first=True, total_length=dts.shape[1])
        h = torch.cat([torch.zeros_like(h[:, :1]), h[:, :-1]], 1)  # history before each event
        return self.v(h).squeeze(-1)

    def loglik(self, past, dt):
        w = self.w
        log_lam = past + w * dt
        integral = (torch.exp(log_lam) - torch.exp(past)) / w
        return log_lam - integral


dts = [torch.diff(s, prepend=torch.zeros(1)) for s in seqs]
lengths = torch.tensor([len(d) for d in dts])
padded = pad_sequence(dts, batch_first=True)
mask = torch.arange(padded.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)
model = RMTPP()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(150):
    past = model(padded, lengths)
    ll = (model.loglik(past, padded) * mask).sum() / mask.sum()
    opt.zero_grad()
    (-ll).backward()
    opt.step()
    if step % 50 == 49:
        print(f"RMTPP step {step + 1} loglik/event {ll.item():.5f} w {model.w.item():.5f}")

hawkes_per_event = sum(hawkes_loglik(s, horizon, mu, alpha, beta) for s in seqs) / lengths.sum()
print(f"Hawkes MLE loglik/event (with the tail compensator) {hawkes_per_event.item():.5f}")
with torch.no_grad():
    past = model(padded, lengths)[0, :5]
    grid = torch.linspace(0, 20, 2001)
    dens = torch.exp(model.loglik(past.unsqueeze(1), grid.unsqueeze(0)))
    expected_dt = torch.trapezoid(grid * dens, grid, dim=1)
print("predicted next gaps:", [round(v, 4) for v in expected_dt.tolist()])
print("observed gaps:      ", [round(v, 4) for v in padded[0, :5].tolist()])
