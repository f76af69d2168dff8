"""pytorch-quickstart.md: requires_grad propagation, leaves, grad_fn, next_functions (block 20)."""
import fgrad.torch as t

# 测试requires_grad
x = t.ones(1)
b = t.rand(1, requires_grad=True)
w = t.rand(1, requires_grad=True)
y = w * x  # 等价于y=w.mul(x)
z = y + b  # 等价于z=y.add(b)
print((x.requires_grad, b.requires_grad, w.requires_grad))
# (False, True, True)
# 在默认情况下，requires_grad会自动传递
# 虽然未指定y.requires_grad为True，但由于y依赖于需要求导的w
# 故而y.requires_grad为True
print(y.requires_grad)
# True
# 计算图的叶子节点
print((x.is_leaf, w.is_leaf, b.is_leaf))
# (True, True, True)
print((y.is_leaf, z.is_leaf))
# (False, False)
# grad_fn可以查看这个variable的反向传播函数，
# z是add函数的输出，所以它的反向传播函数是AddBackward
print(z.grad_fn)
# next_functions保存grad_fn的输入，是一个tuple，tuple的元素也是Function
# 第一个是y，它是乘法(mul)的输出，所以对应的反向传播函数y.grad_fn是MulBackward
# 第二个是b，它是叶子节点，由用户创建
print(z.grad_fn.next_functions)
# variable的grad_fn对应着和图中的function相对应
print(z.grad_fn.next_functions[0][0] == y.grad_fn)
# True
# 第一个是w，叶子节点，需要求导，梯度是累加的
# 第二个是x，叶子节点，不需要求导，所以为None
print(y.grad_fn.next_functions)
# ((<AccumulateGrad at 0x7f60b09c2898>, 0), (None, 0))
print(y.grad_fn.next_functions[0][0].variable is w)
# 叶子节点的grad_fn是None
print((w.grad_fn, x.grad_fn))
# (None, None)
