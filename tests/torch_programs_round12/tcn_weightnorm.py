"""A temporal convolutional network (locuslab/TCN) on a copy-memory-like task: causal dilated
Conv1d with left padding removed by a Chomp1d module, residual blocks with a 1x1 downsample,
weight normalisation through the new torch.nn.utils.parametrizations.weight_norm (original0 /
original1 in the state_dict, parametrize.cached, remove_parametrizations), padding="same",
depthwise-separable Conv1d with groups, and training with Adam and gradient clipping."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm


class Chomp1d(nn.Module):
    def __init__(self, chomp):
        super().__init__()
        self.chomp = chomp

    def forward(self, x):
        return x[:, :, :-self.chomp].contiguous()


class TemporalBlock(nn.Module):
    def __init__(self, cin, cout, k, dilation):
        super().__init__()
        pad = (k - 1) * dilation
        self.net = nn.Sequential(
            weight_norm(nn.Conv1d(cin, cout, k, padding=pad, dilation=dilation)), Chomp1d(pad), nn.ReLU(),
            weight_norm(nn.Conv1d(cout, cout, k, padding=pad, dilation=dilation)), Chomp1d(pad), nn.ReLU())
        self.down = nn.Conv1d(cin, cout, 1) if cin != cout else None

    def forward(self, x):
        out = self.net(x)
        return F.relu(out + (x if self.down is None else self.down(x)))


torch.manual_seed(0)
tcn = nn.Sequential(TemporalBlock(2, 6, 3, 1), TemporalBlock(6, 6, 3, 2), TemporalBlock(6, 6, 3, 4))
head = nn.Linear(6, 1)
print(tcn[0].net[0])
print([k for k in tcn[0].state_dict()][:4])
print(tcn[0].net[0].parametrizations.weight.original0.shape, tcn[0].net[0].parametrizations.weight.original1.shape)
x = torch.randn(1, 2, 12, requires_grad=True)
y = tcn(x)
y[0, :, 5].sum().backward()
print("receptive field", (x.grad[0].abs().sum(0) > 0).nonzero().flatten().tolist())

T = 20
X = torch.randn(64, 2, T)
Y = X[:, 0].roll(3, dims=1)
Y[:, :3] = 0
opt = torch.optim.Adam(list(tcn.parameters()) + list(head.parameters()), lr=0.01)
for epoch in range(40):
    pred = head(tcn(X).transpose(1, 2)).squeeze(-1)
    loss = F.mse_loss(pred, Y)
    opt.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(tcn.parameters(), 1.0)
    opt.step()
    if epoch % 10 == 0:
        print(epoch, f"{loss.item():.5f}", f"{norm.item():.4f}")
conv = tcn[0].net[0]
with parametrize.cached():
    w1 = conv.weight
    w2 = conv.weight
print(w1 is w2, conv.weight is conv.weight)
g = conv.parametrizations.weight.original0
print(torch.allclose(conv.weight.flatten(1).norm(dim=1), g.flatten()))
parametrize.remove_parametrizations(conv, "weight")
print(type(conv.weight).__name__, parametrize.is_parametrized(conv), sorted(dict(conv.named_parameters())))
with torch.no_grad():
    print(f"{F.mse_loss(head(tcn(X).transpose(1, 2)).squeeze(-1), Y).item():.5f}")

same = nn.Conv1d(2, 4, 4, padding="same", dilation=2)
print(same(torch.randn(1, 2, 9)).shape)
dw = nn.Sequential(nn.Conv1d(4, 4, 3, groups=4, padding=1, bias=False), nn.Conv1d(4, 8, 1))
print(dw[0].weight.shape, dw(torch.randn(2, 4, 7)).shape, sum(p.numel() for p in dw.parameters()))
