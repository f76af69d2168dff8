"""pytorch-quickstart.md: gradients of non-leaves via autograd.grad and hooks (block 22)."""
import fgrad.torch as t

# 中间节点，梯度自动清零
x = t.ones(3, requires_grad=True)
w = t.tensor([0.25, 0.5, 0.75], requires_grad=True)
y = x * w
# y依赖于w，而w.requires_grad = True
z = y.sum()
print((x.requires_grad, w.requires_grad, y.requires_grad))
# (True, True, True)
# 非叶子节点grad计算完之后自动清空，y.grad是None
z.backward()
print((x.grad, w.grad, y.grad))
# (tensor([ 0.2709,  0.0473,  0.5052]), tensor([ 1.,  1.,  1.]), None)
# 第一种方法：使用grad获取中间变量的梯度
x = t.ones(3, requires_grad=True)
w = t.rand(3, requires_grad=True)
y = x * w
z = y.sum()
# z对y的梯度，隐式调用backward()
print(t.autograd.grad(z, y))
# (tensor([ 1.,  1.,  1.]),)


# 第二种方法：使用hook
# hook是一个函数，输入是梯度，不应该有返回值
def variable_hook(grad):
    print('y的梯度：', grad)


x = t.ones(3, requires_grad=True)
w = t.rand(3, requires_grad=True)
y = x * w
# 注册hook
hook_handle = y.register_hook(variable_hook)
z = y.sum()
z.backward()

# 除非你每次都要用hook，否则用完之后记得移除hook
hook_handle.remove()
# y的梯度： tensor([ 1.,  1.,  1.])
x.grad = None
z = (x * w).sum()
z.backward()
print('after remove:', x.grad.shape)
