"""pytorch-quickstart.md: backward of a sum, gradient accumulation, zeroing (block 19)."""
import fgrad.torch as t

# 为tensor设置 requires_grad 标识，代表着需要求导数
# pytorch 会自动调用autograd 记录操作
x = t.ones(2, 2, requires_grad=True)

# 上一步等价于
# x = t.ones(2,2)
# x.requires_grad = True
print(x)
y = x.sum()
print(y)
# tensor(4., grad_fn=<SumBackward0>)
print(y.grad_fn)
# <SumBackward0 at 0x7ffaa589a780>
y.backward()  # 反向传播,计算梯度
# y = x.sum() = (x[0][0] + x[0][1] + x[1][0] + x[1][1])
# 每个值的梯度都为1
print(x.grad)

# 反向传播的时候，梯度注意需要清零
# 未清零，此时的梯度为
y.backward()
print(x.grad)
y.backward()
print(x.grad)
# 清零之后的反向传播
# 以下划线结束的函数是inplace操作，会修改自身的值，就像add_
x.grad.data.zero_()
y.backward()
print(x.grad)
