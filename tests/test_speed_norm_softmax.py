"""Issue 16: softmax and the shim's layer norm with derivatives that read saved results.

``fgrad.nn.softmax`` is a custom_jvp whose rule is ``y (dx - sum(y dx))`` (as JAX's), and the
normalisation layers' ``normalize_with_rstd`` a custom_jvp with PyTorch's layer-norm backward
formula, so reverse mode reads the saved result / normalised input and rstd instead of
recomputing the statistics.  Checked: values, first and second derivatives against finite
differences, PyTorch (live and stored) and JAX (live), and the backward programs' size."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad.nn._activations import normalize_with_rstd
from fgrad.torch.nn import functional as F

RNG = np.random.default_rng(3)
X = RNG.standard_normal((2, 3, 5))
W = RNG.uniform(0.5, 1.5, 5)
B = RNG.standard_normal(5)
G = RNG.standard_normal((2, 3, 5))

# torch 2.13: F.layer_norm(X, (5,), W, B, 1e-5); gx, gw = grad(sum(y * G)) (create_graph);
# hx, hw = grad(sum(gx^2) + sum(gw^2)); row [0, 0] of y, gx, hx and all of gw, hw
STORED = {
    "y": [1.4171811190260546, -0.2527125368410359,
           -2.329609876232268, 0.6912038567723544, -1.0682074748326167],
    "gx": [-0.3484853245949317, -0.02664238189553797, 0.9029607131373827, -0.23178336523371496,
           -0.2960496414131976],
    "gw": [-0.6661137641327407, -5.321958389585559,
           -1.0742241240786083, -4.746097208845384, -2.3301854000496887],
    "hx": [-1.1373213275973288, -1.3009009361607542,
           -2.0919432558927515, 2.0496281591330967, 2.4805373605177374],
    "hw": [21.87574018281898, -5.707481293789447, 15.579681090233883, 27.818927851757465, 11.205739238108801],
}


def _shim_layer_norm_derivatives(lib):
    x = lib.tensor(X, requires_grad=True)
    w = lib.tensor(W, requires_grad=True)
    b = lib.tensor(B, requires_grad=True)
    y = lib.nn.functional.layer_norm(x, (5,), w, b, 1e-5)
    gx, gw, gb = lib.autograd.grad((y * lib.tensor(G)).sum(), (x, w, b), create_graph=True)
    hx, hw = lib.autograd.grad((gx ** 2).sum() + (gw ** 2).sum(), (x, w))
    return {"y": y.detach().numpy()[0, 0], "gx": gx.detach().numpy()[0, 0], "gw": gw.detach().numpy(),
            "hx": hx.numpy()[0, 0], "hw": hw.numpy(), "gb": gb.detach().numpy()}


def test_layer_norm_grad_and_double_backward_match_stored_torch():
    got = _shim_layer_norm_derivatives(torch)
    for k, want in STORED.items():
        np.testing.assert_allclose(got[k], want, rtol=1e-11, atol=1e-12, err_msg=k)
    np.testing.assert_allclose(got["gb"], G.sum((0, 1)), rtol=1e-13)


def test_layer_norm_grad_and_double_backward_match_torch_live():
    pt = pytest.importorskip("torch")
    got, want = _shim_layer_norm_derivatives(torch), _shim_layer_norm_derivatives(pt)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-11, atol=1e-12, err_msg=k)


def _fd_check(f, x, order_two: bool):
    """Central differences of f (scalar) against fgrad.grad, and of grad against hessian."""
    eps = 1e-6
    g = np.asarray(fgrad.grad(f)(x))
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        fd = (float(f(x + e)) - float(f(x - e))) / (2 * eps)
        assert abs(fd - g[i]) < 1e-6 * max(1.0, abs(fd)), (i, fd, g[i])
    if order_two:
        h = np.asarray(fgrad.hessian(f)(x)).reshape(x.size, x.size)
        gf = fgrad.grad(f)
        for k, i in enumerate(np.ndindex(x.shape)):
            e = np.zeros_like(x)
            e[i] = 1e-5
            fd = (np.asarray(gf(x + e)) - np.asarray(gf(x - e))).reshape(-1) / 2e-5
            np.testing.assert_allclose(h[:, k], fd, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("axes", [(1,), (0, 1)])
def test_normalize_with_rstd_finite_differences_orders_one_and_two(axes):
    x = RNG.standard_normal((3, 4))
    c = RNG.standard_normal((3, 4))

    def f(v):
        y, rstd = normalize_with_rstd(v, axes, 1e-3)
        return fnp.sum(fnp.sin(y) * c) + fnp.sum(rstd ** 2)

    _fd_check(f, x, order_two=True)


def test_normalize_with_rstd_under_vmap_and_jit():
    x = RNG.standard_normal((4, 3, 5))

    def f(v):
        y, rstd = normalize_with_rstd(v, (1,), 1e-5)
        return fnp.sum(fnp.tanh(y)) + fnp.sum(rstd)

    per_row = fgrad.vmap(fgrad.grad(f))(x)
    looped = np.stack([np.asarray(fgrad.grad(f)(r)) for r in x])
    np.testing.assert_allclose(per_row, looped, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(fgrad.jit(fgrad.grad(f))(x[0]), looped[0], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("axis", [-1, 0, (0, 1)])
def test_softmax_finite_differences_orders_one_and_two(axis):
    x = RNG.standard_normal((3, 4))
    c = RNG.standard_normal((3, 4))
    _fd_check(lambda v: fnp.sum(fgrad.nn.softmax(v, axis) ** 2 * c), x, order_two=True)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])  # both custom_jvps (log_softmax: round 12)
def test_softmax_grad_and_hessian_match_jax_live(name):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    x = RNG.standard_normal((2, 4))
    c = RNG.standard_normal((2, 4))
    ours = fgrad.hessian(lambda v: fnp.sum(getattr(fgrad.nn, name)(v) ** 3 * c))(x)
    theirs = jax.hessian(lambda v: (getattr(jax.nn, name)(v) ** 3 * c).sum())(x)
    np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-12, atol=1e-14)


def test_softmax_with_infinities_keeps_finite_gradients():
    # masked_fill(-inf) before softmax (causal attention): 0 probability, 0 gradient, no NaN
    x = torch.tensor([[0.5, -float("inf"), 1.0], [-float("inf"), 2.0, -1.0]], dtype=torch.float64,
                     requires_grad=True)
    y = torch.softmax(x, -1)
    (y * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64)).sum().backward()
    g = x.grad.numpy()
    assert np.isfinite(g).all() and g[0, 1] == 0 and g[1, 0] == 0
    yn = y.detach().numpy()
    c = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_allclose(g, yn * (c - (yn * c).sum(-1, keepdims=True)), rtol=1e-13)


def test_backward_programs_read_saved_results():
    # the speed fix itself: softmax's backward reads its result and does not recompute
    # exp; layer norm's reads y and rstd, with no reduction over the input's statistics
    x = torch.randn(4, 8, requires_grad=True)
    y = torch.softmax(x, -1)
    y.sum().backward()
    prims = [e.prim.name for e in y.grad_fn._prog.jaxpr.eqns]
    assert "exp" not in prims and "reduce_max" not in prims
    ln = torch.nn.LayerNorm(8)
    z = ln(x)
    z.sum().backward()
    prog = next(iter(z.grad_fn._prog.variants.values()))
    assert prog.out_used == (1, 2) and 0 not in prog.in_used  # y, rstd; not the input
    names = [e.prim.name for e in prog.jaxpr.eqns]
    # four reductions: the bias's and weight's gradients, and the two row means, which are
    # products with ones (`_spread_last`'s transposes)
    assert names.count("reduce_sum") == 2 and names.count("dot_general") == 2
    assert "sqrt" not in [e.prim.name for e in prog.jaxpr.eqns]


def test_layer_norm_without_affine_still_recomputes_and_allows_in_place_on_result():
    # no weight/bias: the result itself would be the saved y, so it is recomputed instead and
    # modifying the result in place is allowed (as in PyTorch)
    x = torch.randn(3, 4, requires_grad=True)
    y = F.layer_norm(x, (4,))
    y.mul_(2.0)
    y.sum().backward()
    assert np.abs(x.grad.numpy()).max() < 1e-5  # d/dx of sum(2 * normalised x) is 0


# ---------------------------------------------------------------------------------------------
# max/min over a short last axis (the softmax's maximum in attention): reduced transposed


def _tricky(shape, dtype, seed):
    r = np.random.default_rng(seed)
    x = r.standard_normal(shape).astype(dtype)
    flat = x.reshape(-1)
    idx = r.choice(flat.size, 40, replace=False)
    flat[idx[:10]] = np.nan
    flat[idx[10:20]] = np.inf
    flat[idx[20:30]] = -np.inf
    flat[idx[30:35]] = 0.0
    flat[idx[35:]] = -0.0
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2048, 32), (16, 4, 32, 32), (100, 3), (64, 2), (300, 33), (70, 8)])
def test_short_last_axis_max_min_equal_numpys(shape, dtype):
    from fgrad.ops.reductions import extremum

    x = _tricky(shape, dtype, 5)
    ax = x.ndim - 1
    for uf, lax_fn in ((np.maximum, fgrad.lax.reduce_max), (np.minimum, fgrad.lax.reduce_min)):
        want = uf.reduce(x, axis=ax)
        got = extremum(uf, x, (ax,))
        np.testing.assert_array_equal(got, want)  # NaN where NumPy's has NaN
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
        np.testing.assert_array_equal(np.asarray(lax_fn(x, (ax,))), want)
        # the jit's generated code (a softmax-like program: its reduction is a step of its own)
        np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda v, f=lax_fn: f(v, (ax,)) * 1.0)(x)), want)


def test_short_last_axis_extremum_of_signed_zeros_matches_numpy():
    from fgrad.ops.reductions import extremum

    for row in ([0.0, -0.0], [-0.0, 0.0], [-0.0, -0.0, 0.0, -0.0]):
        x = np.array([row] * 100, np.float32)
        for uf in (np.maximum, np.minimum):
            np.testing.assert_array_equal(np.signbit(extremum(uf, x, (1,))), np.signbit(uf.reduce(x, axis=1)))


def test_attention_softmax_matches_torch_live():
    pt = pytest.importorskip("torch")
    a = RNG.standard_normal((16, 4, 32, 32)).astype(np.float32)
    mask = np.triu(np.ones((32, 32), bool), 1)
    a[..., mask] = -np.inf
    g = RNG.standard_normal(a.shape).astype(np.float32)
    x = torch.tensor(a, requires_grad=True)
    y = F.softmax(x, dim=-1)
    y.backward(torch.tensor(g))
    xt = pt.tensor(a, requires_grad=True)
    yt = pt.nn.functional.softmax(xt, dim=-1)
    yt.backward(pt.tensor(g))
    np.testing.assert_allclose(y.detach().numpy(), yt.detach().numpy(), rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=2e-5, atol=1e-6)
