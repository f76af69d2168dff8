"""DeepSurv (Katzman et al. 2018): a Cox proportional-hazards model whose log-risk is an MLP.
Synthetic survival data with a nonlinear hazard, exponential event times and independent
censoring; the negative Cox partial log-likelihood (Breslow ties) computed by sorting the
times in descending order and taking torch.logcumsumexp of the risks, checked against the
quadratic risk-set formula; a linear Cox model against the MLP, Harrell's concordance index
by pairwise comparisons, the Breslow baseline cumulative hazard and predicted survival curves."""
# ruff: noqa: E501

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # 150 epochs of Adam amplify float32 rounding


def make_data(n, gen):
    x = torch.randn(n, 6, generator=gen)
    log_hazard = 0.8 * x[:, 0] - 0.6 * x[:, 1] + torch.sin(2 * x[:, 2]) + 0.5 * x[:, 3] * x[:, 4]
    u = torch.rand(n, generator=gen)
    event_time = -torch.log(u) / (0.1 * torch.exp(log_hazard))
    censor_time = torch.distributions.Exponential(torch.tensor(0.05)).sample((n,))
    time = torch.minimum(event_time, censor_time)
    event = (event_time <= censor_time).float()
    return x, time.round(decimals=1).clamp_min(0.1), event, log_hazard


def cox_loss(log_risk, time, event):
    order = torch.argsort(time, descending=True, stable=True)
    log_risk, time, event = log_risk[order], time[order], event[order]
    log_cum = torch.logcumsumexp(log_risk, dim=0)
    # Breslow: tied times share the risk set of the earliest of them (the last in descending order)
    last_of_tie = torch.searchsorted(-time, -time, right=True) - 1
    log_cum = log_cum[last_of_tie]
    return -((log_risk - log_cum) * event).sum() / event.sum().clamp_min(1)


def cox_loss_quadratic(log_risk, time, event):
    at_risk = (time.unsqueeze(0) >= time.unsqueeze(1)).float()  # [i, j]: j at risk at time i
    log_den = torch.log((at_risk * log_risk.exp().unsqueeze(0)).sum(1))
    return -((log_risk - log_den) * event).sum() / event.sum()


def concordance(risk, time, event):
    earlier = (time.unsqueeze(1) < time.unsqueeze(0)) & event.bool().unsqueeze(1)
    higher = (risk.unsqueeze(1) > risk.unsqueeze(0)).float() + 0.5 * (risk.unsqueeze(1) == risk.unsqueeze(0)).float()
    return (higher * earlier).sum() / earlier.sum()


class DeepSurv(nn.Module):
    def __init__(self, d, hidden=32, p=0.1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, hidden), nn.BatchNorm1d(hidden), nn.SELU(), nn.Dropout(p),
                                 nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.SELU(), nn.Dropout(p),
                                 nn.Linear(hidden, 1, bias=False))

    def forward(self, x):
        return self.net(x).squeeze(-1)


gen = torch.Generator().manual_seed(1)
x_tr, t_tr, e_tr, _ = make_data(600, gen)
x_te, t_te, e_te, true_te = make_data(300, gen)
print(f"train: {len(t_tr)} subjects, {int(e_tr.sum())} events, {int((t_tr.unique(return_counts=True)[1] > 1).sum())} tied times")

probe = torch.randn(600, generator=gen)
print(f"sorted partial likelihood {cox_loss(probe, t_tr, e_tr).item():.6f} quadratic {cox_loss_quadratic(probe, t_tr, e_tr).item():.6f}")
print(f"c-index of the true log-hazard on test: {concordance(true_te, t_te, e_te).item():.4f}")

models = {"linear cox": nn.Linear(6, 1, bias=False), "deepsurv": DeepSurv(6)}
for name, model in models.items():
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.99)
    for epoch in range(150):
        model.train()
        perm = torch.randperm(600, generator=gen)
        for idx in perm.split(200):
            out = model(x_tr[idx]).reshape(-1)
            loss = cox_loss(out, t_tr[idx], e_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        if epoch % 50 == 49:
            model.eval()
            with torch.no_grad():
                full = cox_loss(model(x_tr).reshape(-1), t_tr, e_tr)
                c = concordance(model(x_te).reshape(-1), t_te, e_te)
            print(f"{name:10s} epoch {epoch + 1:3d} train nll {full.item():.4f} test c-index {c.item():.4f}")

model = models["deepsurv"].eval()
with torch.no_grad():
    risk = model(x_tr).exp()
    times, inverse = torch.unique(t_tr[e_tr.bool()], sorted=True, return_inverse=True)
    deaths = torch.zeros_like(times).index_add_(0, inverse, torch.ones_like(times)[inverse])
    at_risk = (t_tr.unsqueeze(0) >= times.unsqueeze(1)).to(risk) @ risk
    base_cumhaz = torch.cumsum(deaths / at_risk, 0)
    grid = torch.tensor([1.0, 5.0, 10.0, 20.0])
    pos = torch.searchsorted(times, grid, right=True) - 1
    h0 = torch.where(pos >= 0, base_cumhaz[pos.clamp_min(0)], torch.zeros(()))
    test_risk = model(x_te[:3]).exp()
    surv = torch.exp(-h0.unsqueeze(0) * test_risk.unsqueeze(1))
print("baseline cumulative hazard at", grid.tolist(), "->", [round(v, 4) for v in h0.tolist()])
torch.set_printoptions(precision=4)
print("survival curves of three test subjects:\n", surv)
print("monotone:", bool((surv[:, 1:] <= surv[:, :-1]).all()))
