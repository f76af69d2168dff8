"""A graph convolutional network written without PyTorch Geometric, as in the GCN/GraphSAGE
tutorials: an edge list, symmetric normalisation with degrees from index_add_, message
passing by index_select and index_add_, a max aggregation with scatter_reduce(amax,
include_self=False), a mean aggregation with scatter_reduce(mean), node classification with
a train mask, and a graph-level readout by scatter_add over a batch vector."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)
N, FEAT, C = 14, 5, 3
# two rings joined by one edge, plus chords
src = [i for i in range(7)] + [7 + i for i in range(7)] + [0, 2, 9, 3]
dst = [(i + 1) % 7 for i in range(7)] + [7 + (i + 1) % 7 for i in range(7)] + [7, 5, 12, 6]
edge = torch.tensor([src + dst, dst + src])  # undirected
x = torch.randn(N, FEAT)
y = torch.tensor([0, 0, 1, 1, 0, 1, 0, 2, 2, 1, 2, 2, 2, 1])
train = torch.zeros(N, dtype=torch.bool)
train[::2] = True


def gcn_norm(edge, n):
    loops = torch.arange(n)
    row = torch.cat([edge[0], loops])
    col = torch.cat([edge[1], loops])
    deg = torch.zeros(n).index_add_(0, col, torch.ones(col.numel()))
    w = deg[row].rsqrt() * deg[col].rsqrt()
    return row, col, w


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(FEAT, 16)
        self.l2 = nn.Linear(16, C)

    def propagate(self, h, row, col, w):
        msg = h.index_select(0, row) * w[:, None]
        return torch.zeros(h.shape[0], h.shape[1]).index_add_(0, col, msg)

    def forward(self, x, row, col, w):
        h = F.relu(self.propagate(self.l1(x), row, col, w))
        h = F.dropout(h, 0.2, self.training)
        return self.propagate(self.l2(h), row, col, w)


row, col, w = gcn_norm(edge, N)
print("degrees", torch.zeros(N).index_add_(0, edge[1], torch.ones(edge.shape[1])).int().tolist())
print("norm weights", [round(v, 4) for v in w[:6].tolist()])
model = GCN()
opt = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
for epoch in range(60):
    model.train()
    out = model(x, row, col, w)
    loss = F.cross_entropy(out[train], y[train])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 15 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    out = model(x, row, col, w)
    pred = out.argmax(1)
    print("train acc", (pred[train] == y[train]).float().mean().item(), "test acc", round((pred[~train] == y[~train]).float().mean().item(), 4))
    print("logits", [round(v, 4) for v in out[0].tolist()])

# SAGE-style aggregations with scatter_reduce
h = x[:, :3]
idx = edge[1][:, None].expand(-1, 3)
mx = torch.full((N, 3), -5.0).scatter_reduce(0, idx, h[edge[0]], reduce="amax", include_self=False)
mean = torch.zeros(N, 3).scatter_reduce(0, idx, h[edge[0]], reduce="mean", include_self=False)
mn = torch.zeros(N, 3).scatter_reduce(0, idx, h[edge[0]], reduce="amin", include_self=True)
print("max agg", [round(v, 4) for v in mx[:3].flatten().tolist()])
print("mean agg", [round(v, 4) for v in mean[:3].flatten().tolist()])
print("min agg incl self", [round(v, 4) for v in mn[:3].flatten().tolist()])

# gradients through scatter_reduce(amax) and (mean)
hh = h.clone().requires_grad_()
agg = torch.zeros(N, 3).scatter_reduce(0, idx, hh[edge[0]], reduce="amax", include_self=False)
agg2 = torch.zeros(N, 3).scatter_reduce(0, idx, hh[edge[0]], reduce="mean", include_self=True)
(agg.sum() + (agg2 ** 2).sum()).backward()
print("grad", [round(v, 4) for v in hh.grad[:4].flatten().tolist()])

# graph readout over a batch vector
batch = torch.tensor([0] * 7 + [1] * 7)
pooled = torch.zeros(2, C).scatter_add_(0, batch[:, None].expand(-1, C), out)
counts = torch.bincount(batch).float()
print("mean readout", [round(v, 4) for v in (pooled / counts[:, None]).flatten().tolist()])
print("max readout", [round(v, 4) for v in torch.zeros(2, C).scatter_reduce(0, batch[:, None].expand(-1, C), out, "amax", include_self=False).flatten().tolist()])
