"""N-BEATS (Oreshkin et al. 2020) for univariate forecasting: an interpretable stack of
trend blocks (polynomial basis in the forecast horizon, registered buffers) and seasonality
blocks (Fourier basis), then a generic stack; each block's backcast subtracted from the
input (doubly residual stacking) and its forecast added; windows cut by Tensor.unfold from
synthetic series with trend, two seasonalities and noise, a DataLoader over a TensorDataset
with drop_last, sMAPE and MASE metrics against a seasonal-naive forecast; Adam with
ReduceLROnPlateau on the validation loss, the best state_dict kept by copy.deepcopy and
reloaded; the stacks' separate contributions to one forecast."""
# ruff: noqa: E501

import copy
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
H, LOOKBACK, SEASON = 8, 24, 12


def series(n_series, length):
    t = torch.arange(length, dtype=torch.float64)
    level = 10 + 5 * torch.rand(n_series, 1)
    slope = 0.05 * torch.randn(n_series, 1)
    a1, a2 = 1 + torch.rand(n_series, 1), 0.5 * torch.rand(n_series, 1)
    ph = 2 * math.pi * torch.rand(n_series, 1)
    y = level + slope * t + a1 * torch.sin(2 * math.pi * t / SEASON + ph) + a2 * torch.cos(2 * math.pi * t / 6)
    return y + 0.2 * torch.randn(n_series, length)


data = series(20, 120)
train_part, val_part = data[:, :96], data[:, 96 - LOOKBACK:]
windows = train_part.unfold(1, LOOKBACK + H, 2).reshape(-1, LOOKBACK + H)
val_windows = val_part.unfold(1, LOOKBACK + H, 4).reshape(-1, LOOKBACK + H)
print("series", tuple(data.shape), "train windows", tuple(windows.shape), "validation windows", tuple(val_windows.shape))


class Block(nn.Module):
    def __init__(self, backcast_basis, forecast_basis, hidden=64):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(LOOKBACK, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.register_buffer("bb", backcast_basis)
        self.register_buffer("fb", forecast_basis)
        self.theta_b = nn.Linear(hidden, backcast_basis.shape[0], bias=False)
        self.theta_f = nn.Linear(hidden, forecast_basis.shape[0], bias=False)

    def forward(self, x):
        h = self.fc(x)
        return self.theta_b(h) @ self.bb, self.theta_f(h) @ self.fb


def trend_basis(degree, n):
    t = torch.arange(n, dtype=torch.float64) / n
    return torch.stack([t ** p for p in range(degree + 1)])


def seasonality_basis(harmonics, n):
    t = torch.arange(n, dtype=torch.float64) / n
    k = torch.arange(1, harmonics + 1, dtype=torch.float64).unsqueeze(1)
    return torch.cat([torch.ones(1, n), torch.cos(2 * math.pi * k * t * n / SEASON), torch.sin(2 * math.pi * k * t * n / SEASON)])


def generic_basis(n_theta, n):
    return torch.eye(n_theta, n)


class NBeats(nn.Module):
    def __init__(self):
        super().__init__()
        self.stacks = nn.ModuleDict({
            "trend": nn.ModuleList([Block(trend_basis(2, LOOKBACK), trend_basis(2, H)) for _ in range(2)]),
            "seasonality": nn.ModuleList([Block(seasonality_basis(3, LOOKBACK), seasonality_basis(3, H)) for _ in range(2)]),
            "generic": nn.ModuleList([Block(generic_basis(LOOKBACK, LOOKBACK), generic_basis(LOOKBACK, H)[:, :H]) for _ in range(1)]),
        })

    def forward(self, x, parts=False):
        scale = x.mean(1, keepdim=True)
        residual = x / scale
        forecast = torch.zeros(x.shape[0], H)
        contributions = {}
        for name, blocks in self.stacks.items():
            stack_f = torch.zeros(x.shape[0], H)
            for block in blocks:
                b, f = block(residual)
                residual = residual - b
                stack_f = stack_f + f
            forecast = forecast + stack_f
            contributions[name] = stack_f * scale
        return (forecast * scale, contributions) if parts else forecast * scale


def smape(pred, y):
    return 200 * ((pred - y).abs() / (pred.abs() + y.abs())).mean()


def mase(pred, y, history):
    naive = (history[:, SEASON:] - history[:, :-SEASON]).abs().mean(1, keepdim=True)
    return ((pred - y).abs() / naive).mean()


x_val, y_val = val_windows[:, :LOOKBACK], val_windows[:, LOOKBACK:]
naive = x_val[:, LOOKBACK - SEASON:LOOKBACK - SEASON + H]
print(f"seasonal naive: sMAPE {smape(naive, y_val).item():.4f} MASE {mase(naive, y_val, x_val).item():.4f}")

model = NBeats()
print("basis shapes", {n: tuple(b[0].fb.shape) for n, b in model.stacks.items()}, "parameters", sum(p.numel() for p in model.parameters()))
loader = DataLoader(TensorDataset(windows[:, :LOOKBACK], windows[:, LOOKBACK:]), batch_size=64, shuffle=True, drop_last=True, generator=torch.Generator().manual_seed(0))
print("batches per epoch", len(loader))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
best, best_state = float("inf"), None
for epoch in range(1, 19):
    model.train()
    for xb, yb in loader:
        loss = (model(xb) - yb).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = smape(model(x_val), y_val).item()
    plateau.step(val)
    if val < best:
        best, best_state, best_epoch = val, copy.deepcopy(model.state_dict()), epoch
    if epoch % 3 == 0:
        print(f"epoch {epoch:2d} train MAE {loss.item():.5f} validation sMAPE {val:.4f} lr {opt.param_groups[0]['lr']:.6f}")

model.load_state_dict(best_state)
with torch.no_grad():
    pred, parts = model(x_val, parts=True)
print(f"best epoch {best_epoch}: sMAPE {smape(pred, y_val).item():.4f} MASE {mase(pred, y_val, x_val).item():.4f}")
print("stacks add up to the forecast:", torch.allclose(sum(parts.values()), pred))
print("first forecast", [round(v, 3) for v in pred[0].tolist()])
print("truth         ", [round(v, 3) for v in y_val[0].tolist()])
for name, f in parts.items():
    print(f"{name:12s}", [round(v, 3) for v in f[0].tolist()])
print("state_dict keys", len(best_state), list(best_state)[:3])
