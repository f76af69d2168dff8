"""Regression losses and metrics as in forecasting and detection repos: a quantile (pinball)
loss by hand for several quantiles, nn.HuberLoss and nn.SmoothL1Loss across deltas/betas (and
their relation), L1/MSE, log-cosh, GaussianNLLLoss and PoissonNLLLoss, their gradients at the
kinks, reductions, and metrics (MAE, RMSE, MAPE, R^2, quantile coverage) after training three
quantile heads with Adam."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
pred = torch.tensor([0.0, 0.5, 1.0, 2.0, -3.0], requires_grad=True)
target = torch.tensor([0.0, 1.5, 1.0, 0.0, 0.0])
for delta in (0.5, 1.0, 2.0):
    h = nn.HuberLoss(delta=delta)(pred, target)
    s = nn.SmoothL1Loss(beta=delta)(pred, target)
    print(delta, f"{h.item():.5f} {s.item():.5f} {(s * delta).item():.5f}")
print(F.huber_loss(pred, target, reduction="none", delta=1.0), F.smooth_l1_loss(pred, target, reduction="sum", beta=0.0))
g, = torch.autograd.grad(F.huber_loss(pred, target, delta=1.0), pred)
print(g)
g, = torch.autograd.grad(F.smooth_l1_loss(pred, target, beta=1.0), pred)
print(g)
g, = torch.autograd.grad(F.l1_loss(pred, target), pred)
print(g, F.mse_loss(pred, target).item())


def quantile_loss(preds, target, quantiles):
    losses = []
    for i, q in enumerate(quantiles):
        errors = target - preds[:, i]
        losses.append(torch.max((q - 1) * errors, q * errors).unsqueeze(1))
    return torch.sum(torch.cat(losses, dim=1), dim=1).mean()


def log_cosh(pred, target):
    d = pred - target
    return (d + F.softplus(-2.0 * d) - torch.log(torch.tensor(2.0))).mean()


print(f"{log_cosh(pred, target).item():.6f}")
var = torch.tensor([0.5, 1.0, 2.0, 1.0, 0.1])
print(nn.GaussianNLLLoss()(pred, target, var), nn.GaussianNLLLoss(full=True, reduction="sum")(pred, target, var))
print(nn.PoissonNLLLoss()(pred, target), nn.PoissonNLLLoss(log_input=False, full=True)(pred.abs() + 0.1, target))

x = torch.linspace(-2, 2, 200).unsqueeze(1)
y = (x.squeeze(1) ** 2 + (0.2 + 0.3 * x.squeeze(1).abs()) * torch.randn(200))
quantiles = [0.1, 0.5, 0.9]
model = nn.Sequential(nn.Linear(1, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(150):
    loss = quantile_loss(model(x), y, quantiles)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 50 == 49:
        print(epoch, f"{loss.item():.3f}")
with torch.no_grad():
    p = model(x)
median = p[:, 1]
mae = (median - y).abs().mean()
rmse = F.mse_loss(median, y).sqrt()
mape = ((median - y).abs() / y.abs().clamp_min(0.5)).mean() * 100
r2 = 1 - ((y - median) ** 2).sum() / ((y - y.mean()) ** 2).sum()
cover = ((y >= p[:, 0]) & (y <= p[:, 2])).float().mean()
print(f"MAE {mae:.3f} RMSE {rmse:.3f} MAPE {mape:.1f} R2 {r2:.3f} coverage {cover:.2f}")
print(f"{(y < p[:, 0]).float().mean():.2f} {(y < p[:, 2]).float().mean():.2f}")
