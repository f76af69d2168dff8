"""pytorch-quickstart.md: Tensor <-> NumPy share memory; item() of a scalar (blocks 6-7)."""
import numpy as np

import fgrad.torch as t

a = t.ones(5)  # 新建一个全1的Tensor
print(a)
# tensor([ 1.,  1.,  1.,  1.,  1.])
b = a.numpy()  # Tensor -> Numpy
print(repr(b))
# array([1., 1., 1., 1., 1.], dtype=float32)

a = np.ones(5)
b = t.from_numpy(a)  # Numpy->Tensor
print(a)
# [1. 1. 1. 1. 1.]
print(b)
# tensor([ 1.,  1.,  1.,  1.,  1.], dtype=torch.float64)

# 共享内存，修改numpy会修改tensor
b.add_(1)  # 以`_`结尾的函数会修改自身
print(a)
# [2. 2. 2. 2. 2.]
print(b)  # Tensor和Numpy共享内存
# tensor([ 2.,  2.,  2.,  2.,  2.], dtype=torch.float64)
scalar = b[0]
print(scalar)
# tensor(2., dtype=torch.float64)
print(scalar.size())  # 0-dim
# torch.Size([])
print(scalar.item())  # 使用scalar.item()能从中取出python对象的数值
# 2.0
tensor = t.tensor([2])  # 注意和scalar的区别
print((tensor, scalar))
# (tensor([ 2]), tensor(2., dtype=torch.float64))
print((tensor.size(), scalar.size()))
# (torch.Size([1]), torch.Size([]))
# 只有一个元素的tensor也可以调用`tensor.item()`
print((tensor.item(), scalar.item()))
# (2, 2.0)

# and the other way: writing into the numpy array changes the tensor
a[0] = 7
print(b)
