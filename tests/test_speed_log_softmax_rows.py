"""Issue 16 (GPT, cross-entropy and GELU rows): ``fgrad.nn.log_softmax`` with a derivative
that reads its result; last-axis sums of the softmax / log-softmax / layer-norm values as one
matrix-vector product (``_sum_keep``) and their rules' row statistics spread back as products
with ones (``_spread_last``); the exact GELU's derivative from its saved cdf and the density.

Checked: values and first and second derivatives against finite differences, closed forms
and PyTorch (live); the backward programs' contents; the row sum against NumPy's (NaN,
infinities, dtypes and axes that keep NumPy's reduction); forward mode; vmap against a loop
and jit against eager (the JAX comparison of the log-softmax Hessian is parametrized into
`tests/test_speed_norm_softmax.py`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad.nn._activations import _sum_keep
from fgrad.test_util import check_grads
from fgrad.torch.nn import functional as F
from fgrad.testing.device_numerics import assert_equal_up_to_summation_order

RNG = np.random.default_rng(11)


@pytest.mark.parametrize("axis", [-1, 0, (0, 1)])
def test_log_softmax_finite_differences_orders_one_and_two(axis):
    x = RNG.standard_normal((3, 4))
    c = RNG.standard_normal((3, 4))
    check_grads(lambda v: fnp.sum(fgrad.nn.log_softmax(v, axis) * c), (x,), order=2, modes=("fwd", "rev"))


def test_log_softmax_derivative_is_the_composites():
    # the rule (dy = dx - sum(exp(y) dx)) against the derivative of the masked (composite)
    # definition with an all-true mask
    x = RNG.standard_normal((3, 6))
    c = RNG.standard_normal((3, 6))
    mask = np.ones((3, 6), bool)
    g1 = fgrad.grad(lambda v: fnp.sum(fgrad.nn.log_softmax(v) ** 2 * c))(x)
    g2 = fgrad.grad(lambda v: fnp.sum(fgrad.nn.log_softmax(v, where=mask) ** 2 * c))(x)
    np.testing.assert_allclose(g1, g2, rtol=1e-13, atol=1e-15)
    p = np.exp(x - x.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    ct = 2 * np.log(p) * c
    np.testing.assert_allclose(g1, ct - p * ct.sum(1, keepdims=True), rtol=1e-12, atol=1e-14)


def test_log_softmax_with_infinities_keeps_finite_gradients():
    x = torch.tensor([[0.5, -float("inf"), 1.0]], dtype=torch.float64, requires_grad=True)
    y = torch.log_softmax(x, -1)
    (y[:, [0, 2]] * torch.tensor([[1.0, 3.0]], dtype=torch.float64)).sum().backward()
    g = x.grad.numpy()
    p = np.exp(y.detach().numpy())
    assert np.isfinite(g).all() and g[0, 1] == 0
    np.testing.assert_allclose(g, np.array([[1.0, 0.0, 3.0]]) - p * 4.0, rtol=1e-13)


def test_log_softmax_backward_program_reads_the_result():
    # the speed fix: the backward reads the saved result (one exp), no maximum, no log
    x = torch.randn(4, 8, requires_grad=True)
    y = torch.log_softmax(x, -1)
    y.sum().backward()
    prims = [e.prim.name for e in y.grad_fn._prog.jaxpr.eqns]
    assert "reduce_max" not in prims and "log" not in prims and prims.count("exp") == 1
    # the row sum of the cotangent is one matrix-vector product (`_spread_last`'s transpose)
    assert "reduce_sum" not in prims and prims.count("dot_general") == 1


def test_softmax_backward_row_sum_is_a_product():
    x = torch.randn(16, 4, 8, 32, requires_grad=True)
    y = torch.softmax(x, -1)
    y.backward(torch.ones_like(y))
    prims = [e.prim.name for e in y.grad_fn._prog.jaxpr.eqns]
    assert "reduce_sum" not in prims and prims.count("dot_general") == 1
    # a row too long for the product: NumPy's reduction, as before
    x = torch.randn(2, 2000, requires_grad=True)
    y = torch.softmax(x, -1)
    y.backward(torch.ones_like(y))
    prims = [e.prim.name for e in y.grad_fn._prog.jaxpr.eqns]
    assert "dot_general" not in prims and prims.count("reduce_sum") == 1


def test_row_rules_forward_mode_and_hessians():
    # `_spread_last` is a product in the tangent program: forward mode, and forward over
    # reverse, through it (float32 rows of 16, the product path)
    x = RNG.standard_normal((6, 16))
    x32 = x.astype(np.float32)
    t = RNG.standard_normal((6, 16)).astype(np.float32)
    for f in (fgrad.nn.softmax, fgrad.nn.log_softmax,
              lambda v: fgrad.nn._activations.normalize_with_rstd(v, (1,), 1e-5)[0]):
        _, jt = fgrad.jvp(f, (x32,), (t,))
        _, jt64 = fgrad.jvp(f, (x,), (t.astype(np.float64),))
        np.testing.assert_allclose(jt, jt64, rtol=2e-4, atol=2e-5)
        check_grads(lambda v: fnp.sum(f(v) ** 2), (x,), order=2, modes=("fwd", "rev"))


# torch 2.13: F.cross_entropy(X, T) of float64 X (4, 6), T below; grad of it; and the Hessian
# row d(grad[0, 0])/dX[0, :] (create_graph)
CE_X = np.array([[0.3, -1.2, 2.0, 0.1, -0.4, 0.9], [1.5, 0.2, -0.7, -2.1, 0.0, 0.6],
                 [-0.3, 0.8, 0.8, 1.9, -1.0, 0.25], [2.2, -0.5, 0.35, -1.4, 0.7, -0.05]])
CE_T = np.array([2, 0, 3, 5])


def _ce_derivatives(lib):
    x = lib.tensor(CE_X, requires_grad=True)
    loss = lib.nn.functional.cross_entropy(x, lib.tensor(CE_T))
    (g,) = lib.autograd.grad(loss, (x,), create_graph=True)
    (h,) = lib.autograd.grad(g[0, 0], (x,))
    return float(loss.detach()), g.detach().numpy(), h.numpy()[0]


def test_cross_entropy_matches_torch_stored_and_live():
    loss, g, h = _ce_derivatives(torch)
    # the closed forms: mean over rows of lse - x[t]; (softmax - onehot) / n; p0 (delta - p) / n
    p = np.exp(CE_X - CE_X.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    onehot = np.eye(6)[CE_T]
    np.testing.assert_allclose(loss, -np.log(p[np.arange(4), CE_T]).mean(), rtol=1e-14)
    np.testing.assert_allclose(g, (p - onehot) / 4, rtol=1e-13, atol=1e-16)
    np.testing.assert_allclose(h, p[0, 0] * (np.eye(6)[0] - p[0]) / 4, rtol=1e-12, atol=1e-16)
    pt = pytest.importorskip("torch")
    lt, gt, ht = _ce_derivatives(pt)
    np.testing.assert_allclose(loss, lt, rtol=1e-14)
    np.testing.assert_allclose(g, gt, rtol=1e-13, atol=1e-16)
    np.testing.assert_allclose(h, ht, rtol=1e-12, atol=1e-16)


@pytest.mark.parametrize("name", ["log_softmax", "softmax", "layer_norm", "cross_entropy"])
def test_float32_transformer_ops_match_torch_live(name):
    pt = pytest.importorskip("torch")
    shape = {"log_softmax": (512, 128), "softmax": (16, 4, 32, 32), "layer_norm": (16, 32, 64),
             "cross_entropy": (512, 128)}[name]
    x = (3 * RNG.standard_normal(shape)).astype(np.float32)
    g = RNG.standard_normal(shape).astype(np.float32)
    y_ = RNG.integers(0, shape[-1], shape[0])
    w = RNG.uniform(0.5, 1.5, shape[-1]).astype(np.float32)

    def run(lib):
        xt = lib.tensor(x, requires_grad=True)
        if name == "log_softmax":
            y = lib.log_softmax(xt, -1)
        elif name == "softmax":
            y = lib.softmax(xt, -1)
        elif name == "layer_norm":
            y = lib.nn.functional.layer_norm(xt, (shape[-1],), lib.tensor(w), lib.tensor(w))
        else:
            y = lib.nn.functional.cross_entropy(xt, lib.tensor(y_))
        (y * lib.tensor(g)).sum().backward() if name != "cross_entropy" else y.backward()
        return y.detach().numpy(), xt.grad.numpy()

    (y1, g1), (y2, g2) = run(torch), run(pt)
    scale = np.abs(y2).max()
    np.testing.assert_allclose(y1, y2, rtol=2e-6, atol=2e-7 * scale)
    np.testing.assert_allclose(g1, g2, rtol=2e-5, atol=2e-6 * np.abs(g2).max())


# ---------------------------------------------------------------------------------------------
# the row sum


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2048, 32), (16, 4, 32, 32), (7,), (300, 129), (3, 1024), (5, 2)])
def test_row_sum_equals_numpys(shape, dtype):
    x = RNG.standard_normal(shape).astype(dtype)
    ax = (len(shape) - 1,)
    got = np.asarray(_sum_keep(x, ax))
    want = x.sum(ax, keepdims=True)
    assert got.shape == want.shape and got.dtype == want.dtype
    tol = 1e-5 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(shape[-1]))
    np.testing.assert_allclose(np.asarray(fgrad.jit(lambda v: _sum_keep(v, ax))(x)), got, rtol=tol, atol=tol)


def test_row_sum_special_values_and_fallbacks():
    x = np.array([[1.0, np.inf, 2.0], [np.nan, 1.0, 0.0], [-np.inf, np.inf, 1.0], [1.0, 2.0, -np.inf]],
                 np.float32)
    x = np.repeat(x, 20, axis=0)
    with np.errstate(invalid="ignore"):  # the reference: NumPy reports inf - inf
        want = x.sum(1, keepdims=True)
    np.testing.assert_array_equal(np.asarray(_sum_keep(x, (1,))), want)
    # other axes, longer rows and other dtypes are NumPy's reduction, bit for bit on the host
    # (a GPU's reduction adds in its own order)
    y = RNG.standard_normal((40, 3000)).astype(np.float32)
    assert_equal_up_to_summation_order(_sum_keep(y, (1,)), y.sum(1, keepdims=True))
    assert_equal_up_to_summation_order(_sum_keep(y, (0,)), y.sum(0, keepdims=True))
    h = RNG.standard_normal((64, 32)).astype(np.float16)
    np.testing.assert_array_equal(np.asarray(_sum_keep(h, (1,))), np.asarray(fnp.sum(h, 1, keepdims=True)))


def test_row_summed_ops_under_vmap_and_jit():
    x = RNG.standard_normal((3, 5, 8)).astype(np.float32)

    def f(v):
        y, _ = fgrad.nn._activations.normalize_with_rstd(v, (1,), 1e-5)
        return fnp.sum(fgrad.nn.softmax(v) * fgrad.nn.log_softmax(v) + y ** 2)

    looped = np.stack([np.asarray(fgrad.grad(f)(r)) for r in x])
    np.testing.assert_allclose(fgrad.vmap(fgrad.grad(f))(x), looped, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fgrad.jit(fgrad.grad(f))(x[0]), looped[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fgrad.jit(f)(x[0]), f(x[0]), rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# GELU (erf form): the derivative from the saved cdf and the density


def test_gelu_backward_program_is_one_product():
    # float32: the forward saves the derivative itself (gelu_erf_float32_arithmetic)
    x = torch.randn(64, 32, requires_grad=True)
    y = F.gelu(x)
    y.backward(torch.ones_like(y))
    prog = next(iter(y.grad_fn._prog.variants.values()))
    assert [e.prim.name for e in prog.jaxpr.eqns] == ["mul"]


def test_gelu_float64_backward_program_reads_cdf_and_density_only():
    x = torch.randn(64, 32, dtype=torch.float64, requires_grad=True)
    y = F.gelu(x)
    y.backward(torch.ones_like(y))
    prog = next(iter(y.grad_fn._prog.variants.values()))
    prims = [e.prim.name for e in prog.jaxpr.eqns]
    # x*x, *(-1/2), exp, *(1/sqrt(2 pi)), ct*x, ct*cdf, product, sum: no erf, no chain of scalings
    assert "erf" not in prims and len(prims) == 8 and prims.count("exp") == 1


def test_gelu_erf_derivatives():
    from fgrad.nn import _activations as A

    x = np.linspace(-4, 4, 17)
    y, cdf = A.gelu_erf(x)
    exact_cdf = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x])
    np.testing.assert_allclose(cdf, exact_cdf, rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(y, x * np.asarray(cdf), rtol=1e-15)
    g = fgrad.vmap(fgrad.grad(lambda v: A.gelu_erf(v)[0]))(x)
    pdf = np.exp(-0.5 * x ** 2) / math.sqrt(2 * math.pi)
    np.testing.assert_allclose(g, exact_cdf + x * pdf, rtol=1e-14, atol=1e-14)
    check_grads(lambda v: fnp.sum(A.gelu_erf(v)[0] * A.gelu_erf(v)[1]), (x,), order=2, modes=("fwd", "rev"))


def test_gelu_float32_grad_matches_torch_live_and_double_backward():
    pt = pytest.importorskip("torch")
    xn = (3 * RNG.standard_normal(4096)).astype(np.float32)
    x = torch.tensor(xn, requires_grad=True)
    (g,) = torch.autograd.grad(F.gelu(x).sum(), (x,), create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), (x,))
    xt = pt.tensor(xn, requires_grad=True)
    (gt,) = pt.autograd.grad(pt.nn.functional.gelu(xt).sum(), (xt,), create_graph=True)
    (ht,) = pt.autograd.grad(gt.sum(), (xt,))
    np.testing.assert_allclose(g.detach().numpy(), gt.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.numpy(), ht.numpy(), rtol=1e-4, atol=1e-5)
