"""Einsum in every notation people write and the creation functions around it: traces and
diagonals by repeated indices, ellipsis broadcasting, the sublist form, outer/batched
products, bilinear forms, einsum attention, and their gradients; then eye/full/arange with
float steps/linspace/logspace with a base, tril/triu with offsets, tril_indices, diag/diag_embed/
diagflat/diagonal with offsets, block_diag, meshgrid, cartesian_prod, zeros_like/new_* with
dtypes, torch.tensor from nested mixed Python values, as_tensor/asarray sharing, and
torch.where/heaviside/polar built grids."""
# ruff: noqa: E501

import numpy as np
import torch

torch.manual_seed(0)
A = torch.randn(3, 3)
B = torch.randn(2, 3, 4)
C = torch.randn(2, 4, 5)
print(torch.einsum("ii", A), torch.einsum("ii->i", A), torch.einsum("ij->ji", A).equal(A.t()), torch.einsum("ij,ij->", A, A))
print(torch.einsum("bij,bjk->bik", B, C)[0, 0], torch.einsum("...ij,...jk->...ik", B, C).shape, torch.einsum("bij->b", B))
print(torch.einsum("i,j->ij", torch.arange(3.0), torch.arange(4.0)), torch.einsum(B, [0, 1, 2], C, [0, 2, 3], [0, 1, 3])[1, 2])
x, y = torch.randn(5, 3), torch.randn(5, 4)
W = torch.randn(3, 4, 2)
print(torch.einsum("ni,ijk,nj->nk", x, W, y), torch.einsum("b i, i j -> b j", x, torch.ones(3, 2)))
q, k, v = torch.randn(2, 4, 3, 8), torch.randn(2, 4, 5, 8), torch.randn(2, 4, 5, 8)
att = torch.einsum("bhqd,bhkd->bhqk", q, k).softmax(-1)
print(torch.einsum("bhqk,bhkd->bhqd", att, v)[0, 0, 0], torch.einsum("...d,...d->...", q, q)[1, 2])
print(torch.einsum("iij->ij", torch.arange(12.0).reshape(2, 2, 3)), torch.einsum("ijk->kji", B).shape, torch.einsum("i,i,i->", torch.ones(3), torch.arange(3.0), torch.arange(3.0)))
xr = x.clone().requires_grad_()
Wr = W.clone().requires_grad_()
torch.einsum("ni,ijk,nj->", xr, Wr, y).backward()
print(xr.grad[0], Wr.grad[0, 0])
Ar = A.clone().requires_grad_()
(torch.einsum("ii->", Ar) + torch.einsum("ij,jk,ki->", Ar, Ar, Ar)).backward()
print(Ar.grad)

print(torch.eye(3, 4), torch.eye(2, dtype=torch.int64), torch.full((2, 3), 7), torch.full((2,), 1.5, dtype=torch.float64), torch.full((2,), True))
print(torch.arange(0, 1, 0.25), torch.arange(-1, 1.01, 0.5), torch.arange(5, 0, -2), torch.arange(0.1, 0.45, 0.1).shape, torch.linspace(1, 2, 5, dtype=torch.float64), torch.logspace(0, 3, 4), torch.logspace(0, 4, 5, base=2))
M = torch.arange(1.0, 17.0).reshape(4, 4)
print(torch.tril(M, -1), torch.triu(M, 1), torch.triu(M, -2)[3], torch.tril_indices(3, 3), torch.triu_indices(3, 4, 1))
print(torch.diag(torch.tensor([1, 2, 3]), 1), torch.diag(M, -1), torch.diag_embed(torch.arange(6.0).reshape(2, 3), offset=-1)[1], torch.diagflat(torch.tensor([[1, 2], [3, 4]])), M.diagonal(offset=2), torch.diagonal(torch.arange(24).reshape(2, 3, 4), 0, 1, 2))
print(torch.block_diag(torch.ones(2, 2), torch.tensor([[5]]), torch.zeros(1, 3)), torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print(gx, gy, torch.meshgrid(torch.arange(2.0), torch.arange(3.0), indexing="ij")[1])
t = torch.tensor([1, 2])
print(torch.zeros_like(t, dtype=torch.float32), t.new_ones(2, 2), t.new_full((2,), 3.5), t.new_tensor([1.5, 2.5]), t.new_zeros(3).dtype, torch.ones_like(A, dtype=torch.bool)[0])
print(torch.tensor([[1, 2.5], [True, 4]]), torch.tensor([1, True]), torch.tensor([[1, 2], [3, 4]], dtype=torch.float16), torch.tensor(3), torch.tensor([]), torch.tensor([[]]).shape, torch.tensor([1 + 2j, 3]))
arr = np.arange(4.0)
shared = torch.as_tensor(arr)
copied = torch.tensor(arr)
arr[0] = 100
print(shared, copied, torch.asarray([1, 2], dtype=torch.float32), torch.as_tensor([1, 2]).dtype, torch.from_numpy(np.array([1, 2], dtype=np.int32)).dtype, torch.tensor(np.float32(2.5)).dtype)
r = torch.linspace(0, 1, 5)
print(torch.where(r > 0.5, r, -r), torch.where(r > 0.3), torch.heaviside(r - 0.5, torch.tensor(0.5)), torch.polar(torch.ones(3), torch.tensor([0.0, torch.pi / 2, torch.pi])).real.round(decimals=4) + 0)
print(torch.empty(0, 3).shape, torch.zeros(2, 0).sum(1), torch.ones(0).prod(), torch.cat([torch.zeros(0), torch.ones(2)]), torch.stack([torch.zeros(2, 0)] * 3).shape)
