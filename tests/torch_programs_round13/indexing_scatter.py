"""Indexing and scatter/gather as graph and recommender code writes them: basic and advanced
indexing (lists, bool masks, mixed with slices, None/Ellipsis), index_put_ with
accumulate=True and duplicate indices, scatter/scatter_add/scatter_reduce (sum, prod, mean,
amax, amin, include_self), index_add/index_copy/index_fill/index_select, masked_fill/
masked_scatter/masked_select, put_/take, gather along dims, setitem with broadcasting, and the
gradients through them (duplicates accumulate)."""
# ruff: noqa: E501

import torch

torch.manual_seed(0)
a = torch.arange(24.0).reshape(2, 3, 4)
print(a[1, [0, 2]], a[:, [0, 2], 1:3], a[[0, 1], [1, 2]], a[[0, 1], :, [3, 0]], a[..., None, 1].shape, a[None, :, 0].shape)
print(a[a > 15], a[torch.tensor([True, False])], a[:, torch.tensor([True, False, True])], a[[[0], [1]], [[0, 1]]])
print(a[torch.tensor([[0, 1], [1, 0]])].shape, a[1][torch.tensor([2, 0])][:, -1], a[:, 1:, [0, -1]], a[0, :, torch.tensor([1, 3])])
b = torch.zeros(5)
idx = torch.tensor([0, 1, 1, 3, 1])
b.index_put_((idx,), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]), accumulate=True)
print(b)
c = torch.zeros(3, 3)
c[torch.tensor([0, 2]), torch.tensor([1, 1])] = torch.tensor([7.0, 8.0])
c[1] = torch.tensor([1.0, 2.0, 3.0])
c[:, 0] += 10
c[c > 9] = -1
print(c)
d = torch.zeros(2, 4)
d[:, [1, 3]] = torch.tensor([[5.0], [6.0]])
print(d)

src = torch.arange(1.0, 11.0).reshape(2, 5)
index = torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]])
print(torch.zeros(3, 5).scatter_(0, index, src), torch.zeros(3, 5).scatter_add(0, index, src))
print(torch.full((3, 5), 2.0).scatter(0, index, 1.5, reduce="multiply"), torch.zeros(3, 5).scatter(0, index, src, reduce="add"))
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in (True, False):
        print(red, inc, torch.ones(3, 5).scatter_reduce(0, index, src, reduce=red, include_self=inc))
seg = torch.tensor([0, 0, 1, 2, 2, 2])
vals = torch.tensor([1.0, 3.0, -2.0, 4.0, 0.5, 1.5])
print(torch.zeros(3).index_add(0, seg, vals), torch.zeros(3).index_add(0, seg, vals, alpha=2), torch.zeros(3).scatter_reduce(0, seg, vals, "amax", include_self=False))
print(torch.zeros(4, 2).index_copy(0, torch.tensor([3, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]])), a.index_fill(1, torch.tensor([0, 2]), -1.0)[0], a.index_select(2, torch.tensor([3, 1])))
m = torch.tensor([[True, False, True], [False, True, False]])
print(torch.zeros(2, 3).masked_fill(m, 2.5), torch.zeros(2, 3).masked_scatter(m, torch.tensor([9.0, 8.0, 7.0, 6.0])), torch.arange(6.0).reshape(2, 3).masked_select(m))
t = torch.arange(12.0).reshape(3, 4)
print(t.take(torch.tensor([0, 5, 11])), t.clone().put_(torch.tensor([1, 1, 3]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True), t.gather(1, torch.tensor([[3, 0], [1, 1], [2, 0]])), t.gather(0, torch.tensor([[2, 1, 0, 2]])))
print(torch.take_along_dim(t, t.argmax(1, keepdim=True), 1), torch.take_along_dim(t, torch.tensor([[0], [2]]).T, 0) if False else t.argsort(1, descending=True))

w = torch.randn(5, 3, requires_grad=True)
ids = torch.tensor([0, 4, 4, 1])
out = w[ids].sum() + (w[ids, [0, 1, 2, 0]] ** 2).sum() + w.gather(0, torch.tensor([[1, 1, 1]])).sum() * 3 + w[w > 0].sum()
out.backward()
print(w.grad)
v = torch.randn(4, requires_grad=True)
tgt = torch.zeros(3).scatter_reduce(0, torch.tensor([0, 0, 2, 2]), v, "amax", include_self=False)
tgt2 = torch.ones(3).scatter_reduce(0, torch.tensor([0, 1, 1, 2]), v, "prod")
tgt3 = torch.zeros(3).scatter_reduce(0, torch.tensor([0, 1, 1, 2]), v, "mean", include_self=False)
(tgt.sum() + tgt2.sum() + (tgt3 * torch.tensor([1.0, 2.0, 3.0])).sum()).backward()
print(tgt, tgt2, tgt3, v.grad)
s = torch.randn(3, 4, requires_grad=True)
y = s.clone()
y[:, 1] = 0
y[y < 0] *= 2
y.index_add_(0, torch.tensor([2, 2]), torch.ones(2, 4))
(y * torch.arange(12.0).reshape(3, 4)).sum().backward()
print(y, s.grad)
