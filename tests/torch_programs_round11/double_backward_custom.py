"""The "Double backward with custom functions" tutorial: a custom Square saved inputs with
create_graph-friendly backward, gradcheck and gradgradcheck, a custom exp that saves its
output, a custom sinh that saves intermediate results (ctx attributes, returned as outputs),
and a function whose backward is once_differentiable (gradgradcheck fails as PyTorch says)."""
# ruff: noqa: E501  (written as the published program is)

import torch
from torch.autograd.function import once_differentiable


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Square.apply, x))
print(torch.autograd.gradgradcheck(Square.apply, x))


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out


x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))
out = Exp.apply(x)
g, = torch.autograd.grad(out, x, create_graph=True)
gg, = torch.autograd.grad(g, x)
print(out, g, gg)


class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input


def sinh(x):
    return Sinh.apply(x)[0]


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x), torch.autograd.gradgradcheck(sinh, x))
y = torch.linspace(-1, 1, 5, dtype=torch.double, requires_grad=True)
s = sinh(y)
g, = torch.autograd.grad(s.sum(), y, create_graph=True)
gg, = torch.autograd.grad(g.sum(), y)
print(s, g, gg, sep="\n")


class SinhBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input


x = torch.rand(2, 2, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(SinhBad.apply, x))
out = SinhBad.apply(x)
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(g.requires_grad, g.grad_fn is not None)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0][:60])
print(torch.autograd.gradgradcheck(SinhBad.apply, x, raise_exception=False))
