"""pytorch-quickstart.md: elementwise ops, % and clamp (block 11)."""
import fgrad.torch as t

# 生成数据
a = t.arange(0, 6).view(2, 3)
print(t.cos(a))
print(a % 3)  # 等价于t.fmod(a, 3)
print(t.fmod(a, 3))
print(t.clamp(a, min=3))
print(a ** 2, t.pow(a, 2), a * 2, t.mul(a, 2))
f = a.float()
print(t.sqrt(f), t.exp(f), t.log(f + 1), t.abs(f - 3), t.div(f, 4))
print(t.sigmoid(f), t.tanh(f))
g = t.Tensor([-1.5, -0.5, 0.4, 0.5, 1.5, 2.7])
print(t.ceil(g), t.round(g), t.floor(g), t.trunc(g))
print(t.clamp(g, -1, 1), t.atan2(g, t.ones(6)), t.asin(g / 3), t.cosh(g))
