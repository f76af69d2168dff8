"""Sparse tensors as in recommender and graph scripts: sparse_coo_tensor with duplicate
indices, coalesce, indices/values/nnz, to_sparse and to_dense, torch.sparse.mm with gradients
for the dense factor and the sparse values, torch.sparse.sum, sparse + sparse, sparse * scalar,
transpose, CSR (to_sparse_csr, crow_indices/col_indices, matmul), and a rating-matrix
factorisation trained on the observed entries only."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch

i = torch.tensor([[0, 1, 1, 2, 0], [2, 0, 2, 1, 2]])
v = torch.tensor([3.0, 4.0, 5.0, 6.0, 1.0])
s = torch.sparse_coo_tensor(i, v, (3, 3))
print(s.is_coalesced(), s._nnz())
c = s.coalesce()
print(c)
print(c.indices(), c.values(), c.is_coalesced())
print(c.to_dense())
d = torch.tensor([[0.0, 2.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 7.0]])
sd = d.to_sparse()
print(sd.indices(), sd.values(), sd.layout)
print((c + sd).to_dense())
print((c * 2).to_dense())
print(c.t().coalesce().indices())
print(torch.sparse.sum(c), torch.sparse.sum(c, dim=0).to_dense())

torch.manual_seed(0)
W = torch.randn(3, 2, requires_grad=True)
out = torch.sparse.mm(c, W)
print(out)
out.sum().backward()
print(W.grad)
vals = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
A = torch.sparse_coo_tensor(torch.tensor([[0, 1, 2], [1, 2, 0]]), vals, (3, 3))
y = torch.sparse.mm(A, torch.ones(3, 1) * torch.tensor([[1.0], [2.0], [3.0]]))
y.pow(2).sum().backward()
print(y.squeeze(), vals.grad)

csr = d.to_sparse_csr()
print(csr.crow_indices(), csr.col_indices(), csr.values())
print(csr @ torch.tensor([1.0, 1.0, 1.0]))
print(csr.to_dense().equal(d))

n_users, n_items, k = 6, 5, 2
obs = torch.tensor([[0, 0, 1, 2, 2, 3, 4, 5, 5, 1], [0, 3, 1, 2, 4, 0, 3, 1, 4, 4]])
ratings = torch.tensor([5.0, 3.0, 4.0, 2.0, 1.0, 4.0, 5.0, 2.0, 3.0, 1.0])
R = torch.sparse_coo_tensor(obs, ratings, (n_users, n_items)).coalesce()
U = torch.nn.Parameter(0.1 * torch.randn(n_users, k))
V = torch.nn.Parameter(0.1 * torch.randn(n_items, k))
opt = torch.optim.Adam([U, V], lr=0.1)
for ep in range(80):
    opt.zero_grad()
    r, cidx = R.indices()
    pred = (U[r] * V[cidx]).sum(1)
    loss = torch.nn.functional.mse_loss(pred, R.values()) + 0.01 * (U.pow(2).sum() + V.pow(2).sum())
    loss.backward()
    opt.step()
    if ep % 20 == 0:
        print(ep, round(loss.item(), 4))
print((U @ V.T).detach().round(decimals=2))
