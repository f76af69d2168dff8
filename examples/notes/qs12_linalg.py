"""pytorch-quickstart.md: the linear-algebra table (trace, diag, triu/tril, mm, bmm, addmm, t, dot,
cross, inverse, svd) — the note has no code block; this runs the table's functions."""
import fgrad.torch as t

m = t.Tensor([[2, 1, 0], [1, 3, 1], [0, 1, 4]])
print(t.trace(m), t.diag(m), t.triu(m), t.tril(m, -1))
print(t.mm(m, m), m.t(), t.inverse(m))
print(t.det(m))
x = t.Tensor([1, 2, 3])
y = t.Tensor([4, 5, 6])
print(t.dot(x, y), t.cross(x, y, dim=0), t.outer(x, y))
print(t.addmm(t.ones(3, 3), m, m))
bm = t.arange(12.).view(2, 2, 3)
print(t.bmm(bm, bm.transpose(1, 2)))
u, s, v = t.svd(m)
print(s)
print(t.allclose(u @ t.diag(s) @ v.t(), m, atol=1e-5))
print(m.t().is_contiguous(), m.t().contiguous().is_contiguous())
