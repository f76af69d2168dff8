"""pytorch-quickstart.md: broadcasting, unsqueeze/expand, repeat (block 14)."""
import fgrad.torch as t

# 生成数据a和b
a = t.ones(3, 2)
b = t.zeros(2, 3, 1)
# 自动广播法则
print(a + b)
# 手动广播法则
# 或者 a.view(1,3,2).expand(2,3,2) + b.expand(2,3,2)
print(a[None].expand(2, 3, 2) + b.expand(2, 3, 2))
print(a.view(1, 3, 2).expand(2, 3, 2) + b.expand(2, 3, 2))
# expand不会占用额外空间，只会在需要的时候才扩充，可极大节省内存
e = a.unsqueeze(0).expand(10000000000000, 3, 2)
print(e.shape, e.stride())
print(a.repeat(2, 1).shape)
