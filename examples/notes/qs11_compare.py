"""pytorch-quickstart.md: comparisons, masked indexing, max with dim (block 13)."""
import fgrad.torch as t

# 生成数据a
a = t.linspace(0, 15, 6).view(2, 3)
print(a)
# 生成数据b
b = t.linspace(15, 0, 6).view(2, 3)
print(b)
print(a > b)
print(a[a > b])  # a中大于b的元素
# tensor([  9.,  12.,  15.])
print(t.max(b, dim=1))
# 第一个返回值的15和6分别表示第0行和第1行最大的元素
# 第二个返回值的0和0表示上述最大的数是该行第0个元素
print(t.max(a), t.max(a, b))
print(a >= b, a != b, a == b, a.gt(b), a.lt(b), a.ge(b), a.le(b), a.eq(b), a.ne(b))
print(t.topk(a.view(-1), 2), t.sort(b, dim=1))
