"""pytorch-quickstart.md: reductions with dim/keepdim (block 12)."""
import fgrad.torch as t

# 生成数据
b = t.ones(2, 3)
print(b.sum(dim=0, keepdim=True))
# tensor([[ 2.,  2.,  2.]])
# keepdim=False，不保留维度"1"，注意形状
print(b.sum(dim=0, keepdim=False))
# tensor([ 2.,  2.,  2.])

a = t.Tensor([[1, 5, 2], [4, 3, 3]])
print(a.mean(), a.mean(dim=1), a.median(), a.median(dim=1))
print(a.mode(dim=1))
print(a.norm(), a.norm(p=1), t.dist(a, b), t.dist(a, b, p=1))
print(a.std(), a.var(dim=0), a.std(dim=1, keepdim=True))
print(a.cumsum(dim=1), a.cumprod(dim=0))
