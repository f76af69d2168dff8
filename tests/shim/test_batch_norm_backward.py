"""BatchNorm in training with an affine part (`fgrad.nn._batch_norm.batch_normalize_affine`).

Its rule is written so that reverse mode does PyTorch's work (two full sums); these tests
pin the numbers against the batch-norm backward formula in float64, finite differences,
live PyTorch where installed, second derivatives (``create_graph``, ``gradgradcheck``), the
functional face's ``grad``/``jvp``, and the shape of the staged backward.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad.nn._batch_norm import batch_normalize_affine
from fgrad.torch.autograd import gradcheck, gradgradcheck

SHAPES = [(8, 3), (6, 4, 5), (4, 3, 5, 6), (2, 3, 2, 3, 4), (32, 16, 16, 16)]


def _reference(x, w, b, g, eps):
    """Forward and the batch-norm backward formula in float64: ``dx = w rstd (g - mean(g) -
    y mean(y g))``, ``dw = sum(y g)``, ``db = sum(g)``."""
    axes = (0,) + tuple(range(2, x.ndim))
    keep = (1, -1) + (1,) * (x.ndim - 2)
    x, g = x.astype(np.float64), g.astype(np.float64)
    w, b = w.astype(np.float64).reshape(keep), b.astype(np.float64).reshape(keep)
    mean = x.mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(axis=axes, keepdims=True) + eps)
    y = (x - mean) * rstd
    dx = w * rstd * (g - g.mean(axis=axes, keepdims=True) - y * (y * g).mean(axis=axes, keepdims=True))
    return y * w + b, dx, (y * g).sum(axis=axes), g.sum(axis=axes)


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    c = shape[1]
    return (rng.normal(1.5, 2.0, shape).astype(dtype), rng.normal(1.0, 0.5, c).astype(dtype),
            rng.normal(0.0, 0.5, c).astype(dtype), rng.normal(0.0, 1.0, shape).astype(dtype))


def _shim_step(shape, dtype, x, w, b, g, eps=1e-5, T=torch):
    """One training BatchNorm forward and backward on ``T`` (the shim, or PyTorch itself)."""
    m = {2: T.nn.BatchNorm1d, 3: T.nn.BatchNorm1d, 4: T.nn.BatchNorm2d,
         5: T.nn.BatchNorm3d}[len(shape)](shape[1], eps=eps).to(getattr(T, np.dtype(dtype).name))
    with T.no_grad():
        m.weight.copy_(T.tensor(w))
        m.bias.copy_(T.tensor(b))
    xt = T.tensor(x, requires_grad=True)
    out = m(xt)
    out.backward(T.tensor(g))
    return out, xt.grad, m.weight.grad, m.bias.grad


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_shim_gradients_match_the_formula(shape, dtype):
    x, w, b, g = _data(shape, dtype)
    out, dx, dw, db = _shim_step(shape, dtype, x, w, b, g)
    r_out, r_dx, r_dw, r_db = _reference(x, w, b, g, 1e-5)
    tol = dict(rtol=2e-5, atol=2e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
    assert out.dtype == dx.dtype == dw.dtype == getattr(torch, np.dtype(dtype).name)
    np.testing.assert_allclose(out.detach().numpy(), r_out, **tol)
    np.testing.assert_allclose(dx.numpy(), r_dx, **tol)
    np.testing.assert_allclose(dw.numpy(), r_dw, **{k: v * 10 for k, v in tol.items()})
    np.testing.assert_allclose(db.numpy(), r_db, **{k: v * 10 for k, v in tol.items()})


@pytest.mark.parametrize("shape", [(8, 3), (4, 3, 5, 6), (32, 16, 16, 16)])
def test_shim_matches_live_pytorch(shape):
    pt = pytest.importorskip("torch")
    x, w, b, g = _data(shape, np.float32, seed=1)
    mine = _shim_step(shape, np.float32, x, w, b, g)
    for a, r in zip(mine, _shim_step(shape, np.float32, x, w, b, g, T=pt)):
        np.testing.assert_allclose(a.detach().numpy(), r.detach().numpy(), rtol=1e-4, atol=2e-5)


@pytest.mark.parametrize("shape", [(5, 3), (3, 2, 4), (3, 2, 2, 3)])
def test_shim_finite_differences_first_and_second_order(shape):
    x, w, b, _ = _data(shape, np.float64, seed=2)
    xt = torch.tensor(x, requires_grad=True)
    wt = torch.tensor(w, requires_grad=True)
    bt = torch.tensor(b, requires_grad=True)

    def f(x, w, b):
        return torch.nn.functional.batch_norm(x, None, None, w, b, True, 0.1, 1e-3)

    assert gradcheck(f, (xt, wt, bt))
    assert gradgradcheck(f, (xt, wt, bt))


def test_shim_double_backward_of_a_gradient_norm():
    """``create_graph=True`` runs the rule through Tensor ops: a gradient penalty's gradient
    against finite differences of the penalty (float64)."""
    x, w, b, g = _data((4, 3, 2, 2), np.float64, seed=3)

    def penalty(xv):
        xt = torch.tensor(xv, requires_grad=True)
        out = torch.nn.functional.batch_norm(xt, None, None, torch.tensor(w), torch.tensor(b), True)
        (gx,) = torch.autograd.grad((out * torch.tensor(g)).sum(), xt, create_graph=True)
        return (gx ** 2).sum(), xt

    p, xt = penalty(x)
    (gp,) = torch.autograd.grad(p, xt)
    d = np.random.default_rng(4).normal(size=x.shape)
    h = 1e-6
    fd = (penalty(x + h * d)[0].item() - penalty(x - h * d)[0].item()) / (2 * h)
    np.testing.assert_allclose((gp.numpy() * d).sum(), fd, rtol=1e-6)


def test_functional_face_grad_and_jvp_match_finite_differences():
    x, w, b, g = _data((4, 3, 5), np.float64, seed=5)

    def loss(x, w, b):
        out, y, rstd = batch_normalize_affine(x, w, b, (0, 2), 1e-5)
        return fnp.sum(out * g) + fnp.sum(y ** 3) + fnp.sum(rstd)

    grads = fgrad.grad(loss, argnums=(0, 1, 2))(x, w, b)
    rng = np.random.default_rng(6)
    dirs = [rng.normal(size=a.shape) for a in (x, w, b)]
    h = 1e-6
    fd = (loss(*[a + h * d for a, d in zip((x, w, b), dirs)])
          - loss(*[a - h * d for a, d in zip((x, w, b), dirs)])) / (2 * h)
    along = sum(float(np.sum(np.asarray(gr) * d)) for gr, d in zip(grads, dirs))
    np.testing.assert_allclose(along, float(fd), rtol=1e-6)
    _, t = fgrad.jvp(loss, (x, w, b), tuple(dirs))
    np.testing.assert_allclose(float(t), float(fd), rtol=1e-6)
    # second order: the Hessian-vector product along dirs[0] against differences of the gradient
    def gx(x):
        return fgrad.grad(loss)(x, w, b)

    _, hvp = fgrad.jvp(gx, (x,), (dirs[0],))
    fd2 = (np.asarray(gx(x + h * dirs[0])) - np.asarray(gx(x - h * dirs[0]))) / (2 * h)
    np.testing.assert_allclose(np.asarray(hvp), fd2, rtol=1e-5, atol=1e-7)


def test_backward_sums_two_full_arrays():
    """The staged backward of a training BatchNorm2d sums only ``g`` and ``y * g`` in full
    (composing the layer-norm rule with the affine part summed four full arrays)."""
    x, w, b, g = _data((4, 3, 5, 6), np.float32)
    out = _shim_step((4, 3, 5, 6), np.float32, x, w, b, g)[0]
    prog = out.grad_fn._prog.variants[frozenset({1, 2})]
    full = [e for e in prog.jaxpr.eqns if e.prim.name == "reduce_sum"
            and int(np.prod(e.invars[0].aval.shape)) == x.size]
    assert len(full) == 2


def test_num_batches_tracked_counts_as_add_():
    """Training counts batches in ``num_batches_tracked`` (``add_(1)``; a plain host buffer is
    written directly): the value, dtype and version PyTorch gives, and a view's base updated."""
    m = torch.nn.BatchNorm1d(3)
    x = torch.randn(4, 3)
    v0 = m.num_batches_tracked._version
    m(x)
    m(x)
    assert m.num_batches_tracked.item() == 2 and m.num_batches_tracked.dtype == torch.int64
    assert m.num_batches_tracked._version == v0 + 2
    base = torch.zeros(2, dtype=torch.int64)
    m.num_batches_tracked = base[1]  # a view: the update goes through the tensor op
    m(x)
    assert base.tolist() == [0, 1]
    m.eval()
    m(x)
    assert base.tolist() == [0, 1]


def test_num_batches_tracked_matches_live_pytorch():
    pt = pytest.importorskip("torch")
    counts = []
    for lib in (torch, pt):
        m = lib.nn.BatchNorm2d(2, momentum=None)  # the cumulative average reads the count
        for k in range(3):
            m(lib.tensor(_data((3, 2, 2, 2), np.float32, seed=k)[0]))
        counts.append((m.num_batches_tracked.item(), m.num_batches_tracked._version,
                       m.running_mean.detach().numpy().copy(), m.running_var.detach().numpy().copy()))
    assert counts[0][:2] == counts[1][:2]
    np.testing.assert_allclose(counts[0][2], counts[1][2], rtol=1e-6)
    np.testing.assert_allclose(counts[0][3], counts[1][3], rtol=1e-6)


def test_channels_last_input_keeps_its_layout_in_the_gradient():
    """A channels-last input keeps the per-channel broadcasting form (the row view would give
    a C-contiguous gradient): output and input gradient channels last, as PyTorch's."""
    x, w, b, g = _data((4, 3, 16, 16), np.float32, seed=7)
    xt = torch.tensor(x).to(memory_format=torch.channels_last).requires_grad_()
    out = torch.nn.functional.batch_norm(xt, None, None, torch.tensor(w), torch.tensor(b), True)
    out.backward(torch.tensor(g))
    assert out.is_contiguous(memory_format=torch.channels_last)
    assert xt.grad.is_contiguous(memory_format=torch.channels_last)
    np.testing.assert_allclose(xt.grad.numpy(), _reference(x, w, b, g, 1e-5)[1], rtol=2e-5, atol=2e-5)
