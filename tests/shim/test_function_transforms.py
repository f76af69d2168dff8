"""Custom ``autograd.Function``s with only ``forward``/``backward`` (no vmap rule, new- or
old-style) under ``torch.func.grad``/``vmap``/``jacrev``/``hessian``, ``fgrad.jit`` and
``torch.compile``: values and derivatives against analytic ones.  PyTorch demands
``setup_context`` and a vmap rule for this; fgrad runs the Function as a custom VJP of its own
forward and backward."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.torch as torch
from fgrad.torch.autograd.function import once_differentiable
from fgrad.torch.func import _from_array as from_array, _to_array as to_array


class CubeOld(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


class CubeNew(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


class CubeOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


class ScaledExp(torch.autograd.Function):
    """exp(k x) with a Python constant on ctx and the output saved (new style)."""

    @staticmethod
    def forward(x, k):
        return torch.exp(k * x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return ctx.k * y * g, None


class Mul(torch.autograd.Function):
    """x * y, computing only the gradients ``needs_input_grad`` asks for."""

    calls: list = []

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        Mul.calls.append(tuple(ctx.needs_input_grad))
        return (g * y if ctx.needs_input_grad[0] else None, g * x if ctx.needs_input_grad[1] else None)


class Sort(torch.autograd.Function):
    """Sorted values and (non-differentiable) indices; the backward scatters by index."""

    @staticmethod
    def forward(ctx, x):
        v, i = torch.sort(x)
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i

    @staticmethod
    def backward(ctx, gv, gi):
        (i,) = ctx.saved_tensors
        out = torch.zeros_like(gv)
        out[i] = gv
        return out


X = np.array([0.5, -1.5, 2.0])
CUBES = [CubeOld, CubeNew, CubeOnce]


@pytest.mark.parametrize("fn", CUBES, ids=lambda c: c.__name__)
def test_grad_vmap_jacrev_of_cube(fn):
    x = torch.tensor(X)
    g = torch.func.grad(lambda x: fn.apply(x).sum())(x)
    np.testing.assert_allclose(g.numpy(), 3 * X ** 2)
    v = torch.func.vmap(fn.apply)(torch.tensor(np.stack([X, 2 * X])))
    np.testing.assert_allclose(v.numpy(), np.stack([X, 2 * X]) ** 3)
    j = torch.func.jacrev(fn.apply)(x)
    np.testing.assert_allclose(j.numpy(), np.diag(3 * X ** 2))
    batch = torch.tensor(np.stack([X, -X])[:, :, None])
    vg = torch.func.vmap(torch.func.grad(lambda x: fn.apply(x).sum()))(batch)
    np.testing.assert_allclose(vg.numpy()[:, :, 0], 3 * np.stack([X, -X]) ** 2)


@pytest.mark.parametrize("fn", CUBES, ids=lambda c: c.__name__)
def test_second_order(fn):
    """The backward is written in tensor ops, so it is differentiated again under
    transforms, even ``once_differentiable`` (beyond PyTorch)."""
    x = torch.tensor(X)
    h = torch.func.hessian(lambda x: fn.apply(x).sum())(x)
    np.testing.assert_allclose(h.numpy(), np.diag(6 * X))


def test_once_differentiable_still_refuses_eager_double_backward():
    x = torch.tensor(X, requires_grad=True)
    (g,) = torch.autograd.grad(CubeOnce.apply(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), 3 * X ** 2)
    assert not g.requires_grad  # its backward ran without recording, as in PyTorch


@pytest.mark.parametrize("fn", CUBES, ids=lambda c: c.__name__)
def test_under_jit(fn):
    def loss(a):
        return to_array(fn.apply(from_array(a)).sum())

    g = fgrad.jit(fgrad.grad(loss))(X)
    np.testing.assert_allclose(np.asarray(g), 3 * X ** 2)


def test_constant_on_ctx_and_saved_output():
    x = torch.tensor(X)
    g = torch.func.grad(lambda x: ScaledExp.apply(x, 2.0).sum())(x)
    np.testing.assert_allclose(g.numpy(), 2 * np.exp(2 * X), rtol=1e-12)
    j = torch.func.jacrev(lambda x: ScaledExp.apply(x, -1.0))(x)
    np.testing.assert_allclose(j.numpy(), np.diag(-np.exp(-X)), rtol=1e-12)


def test_needs_input_grad():
    x, y = torch.tensor(X), torch.tensor(2 * X)
    gx, gy = torch.func.grad(lambda x, y: Mul.apply(x, y).sum(), argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx.numpy(), 2 * X)
    np.testing.assert_allclose(gy.numpy(), X)
    Mul.calls.clear()
    xe = torch.tensor(X, requires_grad=True)
    Mul.apply(xe, torch.tensor(2 * X)).sum().backward()
    assert Mul.calls == [(True, False)]
    np.testing.assert_allclose(xe.grad.numpy(), 2 * X)


def test_mark_non_differentiable_with_index_scatter_backward():
    w = torch.tensor([1.0, 2.0, 3.0])
    xs = np.array([[1.0, 3.0, 2.0], [-1.0, -3.0, -2.0]])

    def loss(x):
        return (Sort.apply(x)[0] * w).sum()

    # d/dx_k = w[rank of x_k]
    expect = np.array([[1.0, 3.0, 2.0], [3.0, 1.0, 2.0]])
    np.testing.assert_allclose(torch.func.grad(loss)(torch.tensor(xs[0])).numpy(), expect[0])
    # vmap of grad: the saved indices and the scatter are batched
    np.testing.assert_allclose(torch.func.vmap(torch.func.grad(loss))(torch.tensor(xs)).numpy(), expect)
    v, i = Sort.apply(torch.tensor(xs[0], requires_grad=True))
    assert v.requires_grad and not i.requires_grad


@pytest.mark.parametrize("fn", CUBES + [Sort], ids=lambda c: c.__name__)
def test_under_torch_compile(fn):
    w = torch.tensor([1.0, 2.0, 3.0])

    @torch.compile(fullgraph=True)  # no graph break: the Function is traced
    def loss(x):
        out = fn.apply(x)
        out = out[0] if isinstance(out, tuple) else out
        return (out * w).sum()

    x = torch.tensor(np.array([1.0, 3.0, 2.0]), requires_grad=True)
    loss(x).backward()
    expect = np.array([1.0, 3.0, 2.0]) if fn is Sort else 3 * np.array([1.0, 3.0, 2.0]) ** 2 * [1, 2, 3]
    np.testing.assert_allclose(x.grad.numpy(), expect)
    assert type(loss(x).grad_fn).__name__ == "CompiledFunctionBackward"


def test_setitem_with_a_batched_index_under_vmap():
    def scatter(i, g):
        out = torch.zeros_like(g)
        out[i] = g
        return out

    i = torch.tensor([[0, 2, 1], [2, 1, 0]])
    g = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(torch.func.vmap(scatter)(i, g).numpy(), [[1.0, 3.0, 2.0], [6.0, 5.0, 4.0]])
    np.testing.assert_array_equal(torch.func.vmap(lambda i: g[0][i])(i).numpy(),
                                  [[1.0, 3.0, 2.0], [3.0, 2.0, 1.0]])
