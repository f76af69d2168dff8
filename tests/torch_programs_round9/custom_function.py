"""Custom autograd.Function in the styles of PyTorch's "Extending PyTorch" notes: ctx-style
forward, setup_context style, save_for_backward, mark_non_differentiable, once_differentiable,
needs_input_grad, materialize_grads, double backward and gradcheck."""

import torch
from torch.autograd import Function, gradcheck
from torch.autograd.function import once_differentiable

torch.manual_seed(0)


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class SortWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.sort(dim=-1)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return values, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, g, _):
        (idx,) = ctx.saved_tensors
        out = torch.zeros_like(g)
        out.scatter_(-1, idx, g)
        return out


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x**2  # differentiable: double backward works


class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        (x,) = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:
            grad_input += g1
        if g2 is not None:
            grad_input += g2 * 2
        return grad_input


x = torch.randn(4, 3, requires_grad=True)
w = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, requires_grad=True)
out = LinearFunction.apply(x, w, b)
print(out)
out.pow(2).sum().backward()
print(x.grad, w.grad, b.grad, sep="\n")
xd = torch.randn(3, 2, dtype=torch.double, requires_grad=True)
wd = torch.randn(4, 2, dtype=torch.double, requires_grad=True)
print("gradcheck linear:", gradcheck(LinearFunction.apply, (xd, wd), eps=1e-6, atol=1e-4))

y = MulConstant.apply(x, 2.5)
y.sum().backward()
print(x.grad[0], y.grad_fn is not None, type(y.grad_fn).__name__)

v = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]], requires_grad=True)
vals, idx = SortWithIndex.apply(v)
print(vals, idx, idx.requires_grad, vals.requires_grad)
(vals * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(v.grad)
try:
    vals2, _ = SortWithIndex.apply(v)
    (g,) = torch.autograd.grad(vals2.sum(), v, create_graph=True)
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0][:60])

c = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(c)
(g,) = torch.autograd.grad(y.sum(), c, create_graph=True)
(g2,) = torch.autograd.grad(g.sum(), c)
print(g, g2)
a, b2 = SimpleFunc.apply(c)
a.sum().backward()
print(c.grad)
print(
    "gradcheck cube:",
    gradcheck(Cube.apply, (torch.tensor([0.3, -0.7], dtype=torch.double, requires_grad=True),)),
)
print(
    torch.autograd.gradgradcheck(
        Cube.apply, (torch.tensor([0.3, -0.7], dtype=torch.double, requires_grad=True),)
    )
)
