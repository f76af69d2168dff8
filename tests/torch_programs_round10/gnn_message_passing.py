"""A graph neural network without torch_geometric, as in course notebooks: an edge list,
degree normalisation with scatter_add_/index_add_, a GCN layer by sparse COO matmul and one by
index_add_, a GAT-style attention with a per-node softmax via scatter_reduce (amax) and
index_add_, node classification with a train mask."""
# ruff: noqa: E501  (written as the published program is)


import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)
num_nodes = 10
edges = torch.tensor([[0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 0, 4],
                      [1, 0, 2, 1, 3, 2, 5, 4, 6, 5, 8, 7, 9, 8, 4, 0]])
loops = torch.arange(num_nodes).repeat(2, 1)
edge_index = torch.cat([edges, loops], dim=1)
src, dst = edge_index
deg = torch.zeros(num_nodes).scatter_add_(0, dst, torch.ones(dst.size(0)))
print("degrees", deg.tolist())
norm = deg[src].rsqrt() * deg[dst].rsqrt()
adj = torch.sparse_coo_tensor(torch.stack([dst, src]), norm, (num_nodes, num_nodes)).coalesce()
print("nnz", adj._nnz(), "dense row0", [round(v, 4) for v in adj.to_dense()[0].tolist()])
x = torch.randn(num_nodes, 6)
y = torch.tensor([0, 0, 0, 1, 1, 1, 1, 2, 2, 2])
train_mask = torch.zeros(num_nodes, dtype=torch.bool)
train_mask[[0, 3, 5, 7, 9]] = True


class GCNLayer(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout, bias=False)
        self.bias = nn.Parameter(torch.zeros(cout))

    def forward(self, x, sparse=True):
        h = self.lin(x)
        if sparse:
            out = torch.sparse.mm(adj, h)
        else:
            out = torch.zeros_like(h).index_add_(0, dst, h[src] * norm.unsqueeze(1))
        return out + self.bias


class GATLayer(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout, bias=False)
        self.att_src = nn.Parameter(torch.randn(cout) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(cout) * 0.1)

    def forward(self, x):
        h = self.lin(x)
        e = F.leaky_relu((h * self.att_src).sum(-1)[src] + (h * self.att_dst).sum(-1)[dst], 0.2)
        emax = torch.full((num_nodes,), float("-inf")).scatter_reduce(0, dst, e, reduce="amax", include_self=True)
        w = torch.exp(e - emax[dst])
        denom = torch.zeros(num_nodes).index_add(0, dst, w)
        alpha = w / denom[dst]
        return torch.zeros_like(h).index_add_(0, dst, alpha.unsqueeze(1) * h[src]), alpha


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GCNLayer(6, 8)
        self.gat = GATLayer(8, 8)
        self.conv2 = GCNLayer(8, 3)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        h, alpha = self.gat(h)
        return self.conv2(F.elu(h), sparse=False), alpha


model = Net()
with torch.no_grad():
    h1 = model.conv1(x, sparse=True)
    h2 = model.conv1(x, sparse=False)
print("sparse == index_add", torch.allclose(h1, h2, atol=1e-6))
opt = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)
for epoch in range(40):
    model.train()
    opt.zero_grad()
    out, alpha = model(x)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        pred = out.argmax(1)
        print(f"epoch {epoch} loss {loss.item():.4f} train acc {(pred[train_mask] == y[train_mask]).float().mean().item():.2f} "
              f"all acc {(pred == y).float().mean().item():.2f}")
print("alpha sums", torch.zeros(num_nodes).index_add(0, dst, alpha.detach())[:4])
print("alpha", [round(v, 4) for v in alpha[:6].tolist()])
