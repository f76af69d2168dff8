"""Views, strides and memory as the "tensor internals" posts show them: view vs reshape on
non-contiguous tensors (the view error), stride()/storage_offset()/is_contiguous() after
transpose/permute/narrow/expand/unfold/diagonal/as_strided, in-place writes through views
reaching the base, data_ptr equality of views, clone/contiguous, chunk/split/unbind views,
expand vs repeat, squeeze/unsqueeze/movedim/flatten/unflatten, untyped_storage sizes,
element_size/nbytes/itemsize, and the version counter."""
# ruff: noqa: E501

import torch

a = torch.arange(12.0).reshape(3, 4)
t = a.t()
print(a.stride(), t.stride(), t.is_contiguous(), a.is_contiguous(), t.storage_offset())
try:
    t.view(12)
except RuntimeError as err:
    print("RuntimeError:", str(err)[:60])
print(t.reshape(12), t.contiguous().stride(), t.contiguous().view(12).shape)
n = a.narrow(1, 1, 2)
print(n, n.stride(), n.storage_offset(), n.is_contiguous())
n[0, 0] = 100
print(a)
d = a.diagonal()
d += 1000
print(a, d.stride(), d.storage_offset())
e = torch.tensor([1.0, 2.0, 3.0]).expand(4, 3)
print(e.stride(), e.is_contiguous(), e.contiguous().stride(), torch.tensor([[1], [2]]).expand(-1, 3), torch.tensor([1, 2]).repeat(2, 2))
u = torch.arange(10.0).unfold(0, 4, 3)
print(u, u.stride(), u.storage_offset())
s = torch.arange(9.0).as_strided((2, 2), (3, 1), 4)
print(s, s.stride(), s.storage_offset())
p = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1)
print(p.shape, p.stride(), p.is_contiguous(), p.contiguous().stride(), p.flatten().tolist()[:6], p.movedim(0, -1).stride())
base = torch.zeros(6)
v1 = base[1:4]
v2 = base.view(2, 3)
print(v1.data_ptr() - base.data_ptr(), v2.data_ptr() == base.data_ptr(), v1.untyped_storage().nbytes(), v1._base is base)
v1.fill_(7)
v2[1, 2] = -1
print(base, v1._version, base._version)
c = base.clone()
c[0] = 42
print(base[0], c[0], c.data_ptr() == base.data_ptr())
ch = torch.arange(10.0).chunk(3)
print([x.shape for x in ch], [x.storage_offset() for x in ch], [x.stride() for x in torch.arange(12.0).reshape(3, 4).split([1, 3], dim=1)])
r = torch.arange(6.0).reshape(2, 3)
rows = r.unbind(0)
rows[1][0] = 50
print(r, torch.arange(6.0).reshape(1, 2, 1, 3).squeeze().shape, r.unsqueeze(1).stride(), r.unflatten(1, (3, 1)).shape, r.flatten(0).stride())
print(r.element_size(), r.nbytes, r.itemsize, torch.zeros(3, dtype=torch.float16).element_size(), torch.zeros(2, 2, dtype=torch.int8).nbytes, r.dim(), r.ndim, r.numel(), r.nelement())
sq = torch.ones(2, 3)
sq.mul_(2)
sq.add_(1)
print(sq._version)
big = torch.arange(16.0).reshape(4, 4)
blk = big[1:3, 1:3]
blk *= -1
print(big, blk.stride(), blk.storage_offset(), blk.is_contiguous())
print(big[::2, ::-1].stride() if False else big[::2].stride(), big[:, ::2].stride(), big[None, :, None].stride(), big.T.T.is_contiguous())
m = torch.empty(2, 3).fill_(1.5)
print(m, torch.empty_like(m).shape, torch.empty_strided((2, 3), (1, 2)).stride())
x = torch.randn(2, 3, requires_grad=True)
y = x.t()
z = y.reshape(6)
w = x.view(3, 2)
print(y.grad_fn.name(), z.grad_fn.name(), w.grad_fn.name(), x.unsqueeze(0).expand(2, 2, 3).grad_fn.name(), x[:, 1].grad_fn.name(), x.narrow(1, 0, 2).grad_fn.name(), x.unfold(1, 2, 1).grad_fn.name())
(z * torch.arange(6.0)).sum().backward()
print(x.grad)
q = torch.zeros(4, requires_grad=True).clone()
qv = q[1:3]
qv.mul_(0).add_(torch.tensor([2.0, 3.0]))
print(q, q.grad_fn.name(), qv.grad_fn.name())
