"""The "Extending torch.func with autograd.Function" tutorial: NumPy-backed functions with
forward/setup_context (NumpySort, NumpyTake) that work under grad, vmap and jacrev through
a hand-written vmap staticmethod, a MyCube with generate_vmap_rule=True whose backward is
itself differentiable (second derivatives by grad(grad)), and a MyExp with jvp for jacfwd and forward-mode AD."""
# ruff: noqa: E501  (written as the published program is)

import numpy as np
import torch
from torch.func import grad, jacfwd, jacrev, jvp, vmap


def to_numpy(tensor):
    return tensor.cpu().numpy()


class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        device = x.device
        x = to_numpy(x)
        ind = np.argsort(x, axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return (torch.tensor(result, device=device), torch.tensor(ind, device=device), torch.tensor(ind_inv, device=device))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None

    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        x = x.movedim(x_bdim, 0)
        dim = dim if dim >= 0 else dim + x.dim() - 1
        return NumpySort.apply(x, dim + 1), (0, 0, 0)


class NumpyTake(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        device = x.device
        x = to_numpy(x)
        ind = to_numpy(ind)
        return torch.tensor(np.take_along_axis(x, ind, dim), device=device)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
        return result, None, None, None

    @staticmethod
    def vmap(info, in_dims, x, ind, ind_inv, dim):
        x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x_bdim - 1
        dim = dim if dim >= 0 else dim + logical_dim

        def maybe_expand_bdim_at_front(x, x_bdim):
            if x_bdim is None:
                return x.expand(info.batch_size, *x.shape)
            return x.movedim(x_bdim, 0)

        x = maybe_expand_bdim_at_front(x, x_bdim)
        ind = maybe_expand_bdim_at_front(ind, ind_bdim)
        ind_inv = maybe_expand_bdim_at_front(ind_inv, ind_inv_bdim)
        return NumpyTake.apply(x, ind, ind_inv, dim + 1), 0


def numpy_sort(x, dim=-1):
    result, _, _ = NumpySort.apply(x, dim)
    return result


torch.manual_seed(0)
x = torch.randn(2, 3)
print(numpy_sort(x))
grad_x = grad(lambda x: numpy_sort(x).sum())(x)
print(torch.allclose(grad_x, torch.ones_like(x)))
w = torch.arange(3.0)
print(grad(lambda x: (numpy_sort(x) * w).sum())(x))
result = vmap(numpy_sort)(x)
print(torch.allclose(result, numpy_sort(x, 1)))
print(vmap(numpy_sort, in_dims=1)(x))
print(jacrev(numpy_sort)(x[0]))
y = torch.randn(3, requires_grad=True)
out = numpy_sort(y)
(out * w).sum().backward()
print(y.grad, out.grad_fn is not None)


class MyCube(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result


def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


x = torch.tensor([1.0, 2.0, -0.5])
print(vmap(grad(my_cube))(x))
print(vmap(grad(grad(my_cube)))(x))
print(jacrev(my_cube)(x))


class MyExp(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(output)
        ctx.save_for_backward(output)
        ctx.result = output

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result

    @staticmethod
    def jvp(ctx, x_t):
        return x_t * ctx.result


print(jacfwd(MyExp.apply)(torch.tensor([0.0, 1.0])))
print(vmap(jacfwd(MyExp.apply))(torch.tensor([[0.0, 0.5], [1.0, -1.0]])))
print(jvp(MyExp.apply, (torch.tensor([0.0, 1.0]),), (torch.tensor([1.0, -2.0]),)))
print(jacrev(MyExp.apply)(torch.tensor([0.0, 1.0])))
with torch.autograd.forward_ad.dual_level():
    dual = torch.autograd.forward_ad.make_dual(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
    print(torch.autograd.forward_ad.unpack_dual(MyExp.apply(dual)).tangent)
print(grad(lambda t: MyExp.apply(t).sum())(torch.tensor([0.0, 2.0])))
