"""pytorch-quickstart.md: the three ways to add, add vs add_ (block 5)."""
import fgrad.torch as t

t.manual_seed(0)
x = t.rand(5, 3)
# 加减乘除运算
y = t.rand(5, 3)
# 加法的第一种写法
print(x + y)
# 加法的第二种写法
print(t.add(x, y))
# 加法的第三种写法：指定加法结果的输出目标为result
result = t.Tensor(5, 3)  # 预先分配空间
t.add(x, y, out=result)  # 输入到result
print(result)
print(t.equal(result, x + y))

print('最初y')
print(y)
y0 = y.clone()

print('第一种加法，y的结果')
y.add(x)  # 普通加法，不改变y的内容
print(y)
print(t.equal(y, y0))

print('第二种加法，y的结果')
y.add_(x)  # inplace 加法，y变了
print(y)
print(t.equal(y, y0 + x))

# deterministic version of the same three additions
a = t.Tensor([[1, 2], [3, 4]])
b = t.ones(2, 2)
print(a + b, t.add(a, b))
out = t.Tensor(2, 2)
t.add(a, b, out=out)
print(out)
a.add(b)
print(a)
a.add_(b)
print(a)
