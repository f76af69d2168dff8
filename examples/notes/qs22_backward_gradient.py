"""pytorch-quickstart.md: backward from a scalar vs backward(gradient) from a vector (block 23).
An integer arange cannot require grad in PyTorch >= 0.4; the port makes it float."""
import fgrad.torch as t

# 默认参数下的反向传播，默认情况下，z必须是标量
x = t.arange(0., 3, requires_grad=True)
y = x**2 + x*2
z = y.sum()
z.backward()  # 从z开始反向传播
print(x.grad)
# tensor([ 2.,  4.,  6.])
# 指定Variable的反向传播，如果z不是标量，不指定Variable，会出错
x = t.arange(0., 3, requires_grad=True)
y = x**2 + x*2
z = y.sum()
y_gradient = t.Tensor([1, 1, 1])  # dz/dy
y.backward(y_gradient)  # 从y开始反向传播
print(x.grad)
# tensor([ 2.,  4.,  6.])
try:
    x = t.arange(0., 3, requires_grad=True)
    (x**2).backward()
except RuntimeError as e:
    print('RuntimeError:', e)
