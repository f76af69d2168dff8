"""pytorch-quickstart.md: a custom autograd Function (block 24)."""
import fgrad.torch as t
from fgrad.torch.autograd import Function


class MultiplyAdd(Function):

    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        output = w * x + b
        return output

    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        grad_w = grad_output * x
        grad_x = grad_output * w
        grad_b = grad_output * 1
        return grad_w, grad_x, grad_b


x = t.ones(1)
w = t.rand(1, requires_grad=True)
b = t.rand(1, requires_grad=True)
# 开始前向传播
z = MultiplyAdd.apply(w, x, b)
# 开始反向传播
z.backward()
# x不需要求导，中间过程还是会计算它的导数，但随后被清空
print((x.grad, w.grad, b.grad))
# (None, tensor([ 1.]), tensor([ 1.]))

x = t.tensor([2.0, 3.0])
w = t.tensor([0.5, -1.0], requires_grad=True)
b = t.tensor([1.0, 1.0], requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
print(z)
z.sum().backward()
print((x.grad, w.grad, b.grad))
