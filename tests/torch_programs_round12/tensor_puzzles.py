"""srush/Tensor-Puzzles solved the usual way (broadcasting, arange, where, indexing), each
checked against the built-in: ones, sum, outer, diag, eye, triu, cumsum, diff, vstack, roll,
flip, compress, pad_to, sequence_mask, bincount, scatter_add, flatten, linspace, heaviside,
repeat, bucketize; plus the tensor-manipulation idioms of einops-free code (gather,
take_along_dim, index_select, masked_select, nonzero, argwhere, tril_indices, unfold)."""
# ruff: noqa: B007, E501, E731  (written as the published program is)

import torch
from torch import arange, where

ones = lambda i: where(arange(i) > -1, 1, 0)
sum_ = lambda a: ones(a.shape[0]) @ a[:, None]
outer = lambda a, b: a[:, None] * b[None, :]
diag = lambda a: a[arange(a.shape[0]), arange(a.shape[0])]
eye = lambda j: (arange(j)[:, None] == arange(j)) * 1
triu = lambda j: (arange(j)[:, None] <= arange(j)) * 1
cumsum = lambda a: a @ triu(a.shape[0])
diff = lambda a, i: a[arange(i)] - where(arange(i) > 0, a[arange(i) - 1], 0)
vstack = lambda a, b: where(arange(2)[:, None] == 0, a, b)
roll = lambda a, i: a[(arange(i) + 1) % i]
flip = lambda a, i: a[i - 1 - arange(i)]
compress = lambda g, v, i: (v * g) @ (((cumsum(g * 1) - 1)[:, None] == arange(i)) * 1)
pad_to = lambda a, i, j: a @ ((arange(i)[:, None] == arange(j)) * 1)
sequence_mask = lambda values, length: where(length[:, None] > arange(values.shape[1]), values, 0)
bincount = lambda a, j: ones(a.shape[0]) @ eye(j)[a]
scatter_add = lambda values, link, j: values @ eye(j)[link]
flatten = lambda a, i, j: a[arange(i * j) // j, arange(i * j) % j]
linspace = lambda i, j, n: i + (j - i) * arange(n) / max(1, n - 1)
heaviside = lambda a, b: where(a == 0, b, a > 0)
repeat = lambda a, d: a[None, :] * ones(d)[:, None]
bucketize = lambda v, boundaries: (v[:, None] >= boundaries) * 1 @ ones(boundaries.shape[0])

a = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6])
b = torch.tensor([2, 7, 1])
print(ones(4), sum_(a), outer(b, b))
m = torch.arange(16).reshape(4, 4)
print(diag(m), torch.equal(diag(m), m.diag()), eye(3), torch.equal(triu(4), torch.ones(4, 4, dtype=torch.long).triu()))
print(cumsum(a), torch.equal(cumsum(a), a.cumsum(0)), diff(a, 8), vstack(a[:3], b))
print(roll(a, 8), torch.equal(roll(a, 8), a.roll(-1)), flip(a, 8), torch.equal(flip(a, 8), a.flip(0)))
g = torch.tensor([True, False, True, True, False, False, True, False])
print(compress(g, a, 4), a[g])
print(pad_to(b, 3, 5), sequence_mask(m, torch.tensor([1, 4, 2, 0])))
print(bincount(torch.tensor([0, 2, 2, 1, 4]), 5), torch.bincount(torch.tensor([0, 2, 2, 1, 4])))
print(scatter_add(torch.tensor([1, 2, 3, 4]), torch.tensor([0, 2, 0, 1]), 3), torch.zeros(3, dtype=torch.long).scatter_add(0, torch.tensor([0, 2, 0, 1]), torch.tensor([1, 2, 3, 4])))
print(flatten(m[:3], 3, 4), linspace(0.0, 1.0, 5), torch.linspace(0, 1, 5))
print(heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5, 0.5, 0.5])), torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)))
print(repeat(b, 2), bucketize(torch.tensor([2, 8, 0, 5]), torch.tensor([1, 5, 7])), torch.bucketize(torch.tensor([2, 8, 0, 5]), torch.tensor([1, 5, 7]), right=True))

x = torch.arange(12.0).reshape(3, 4)
idx = torch.tensor([[0, 3], [1, 1], [2, 0]])
print(torch.gather(x, 1, idx), torch.take_along_dim(x, idx, dim=1), x.index_select(1, torch.tensor([3, 0])))
print(torch.masked_select(x, x > 6), torch.nonzero(x > 8), torch.argwhere(x.remainder(5) == 0), torch.nonzero(x > 8, as_tuple=True))
print(torch.tril_indices(3, 3, -1), torch.triu_indices(2, 4, 1))
print(torch.arange(7).unfold(0, 3, 2), x.unfold(1, 2, 2).shape, torch.take(x, torch.tensor([0, 5, 11])))
print(torch.block_diag(torch.ones(1, 2), 2 * torch.ones(2, 1)), torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])))
print(torch.combinations(torch.tensor([1, 2, 3]), r=2), torch.combinations(torch.tensor([1, 2]), with_replacement=True))
print(x.chunk(3, dim=1), x.tensor_split([1, 3], dim=1)[1], x.split([1, 3], 1)[1].shape)
print(torch.stack([x, x]).movedim(0, -1).shape, x.unflatten(1, (2, 2)).shape, x.flatten().view(2, -1).T.contiguous().stride())
print(torch.rot90(x[:2, :3], 1, [0, 1]), torch.tril(x, diagonal=1), torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0]])))
