"""fgrad.torch operations: forward values (vs NumPy, and vs PyTorch when installed),
gradients vs central finite differences in float64 (first and second order), named-tuple
results, broadcasting and shape errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad.torch as ft

RNG = np.random.default_rng(1234)


def _torch():
    try:
        import torch
    except Exception:  # noqa: BLE001
        return None
    return torch


def _np(x):
    return x.detach().numpy() if isinstance(x, ft.Tensor) else np.asarray(x)


# ---------------------------------------------------------------------------------------
# a table of differentiable ops: (name, function of the library module and tensors, inputs)

A = RNG.standard_normal((3, 4))
B = RNG.standard_normal((3, 4))
P = RNG.uniform(0.5, 2.0, (3, 4))
S = RNG.standard_normal((4, 4))
SPD = S @ S.T + 4 * np.eye(4)
V = RNG.standard_normal(4)

OPS = [
    ("add", lambda t, a, b: a + b, (A, B)),
    ("add_alpha", lambda t, a, b: t.add(a, b, alpha=2.5), (A, B)),
    ("sub", lambda t, a, b: a - b, (A, B)),
    ("rsub", lambda t, a: 2.0 - a, (A,)),
    ("mul", lambda t, a, b: a * b, (A, B)),
    ("div", lambda t, a, b: a / b, (A, P)),
    ("rdiv", lambda t, a: 2.0 / a, (P,)),
    ("pow_scalar", lambda t, a: a**3, (A,)),
    ("pow_frac", lambda t, a: a**0.5, (P,)),
    ("pow_tensor", lambda t, a, b: a**b, (P, A)),
    ("rpow", lambda t, a: 2.0**a, (A,)),
    ("neg", lambda t, a: -a, (A,)),
    ("abs", lambda t, a: a.abs(), (A,)),
    ("exp", lambda t, a: a.exp(), (A,)),
    ("expm1", lambda t, a: t.expm1(a), (A,)),
    ("log", lambda t, a: a.log(), (P,)),
    ("log1p", lambda t, a: a.log1p(), (P,)),
    ("log2", lambda t, a: t.log2(a), (P,)),
    ("sqrt", lambda t, a: a.sqrt(), (P,)),
    ("rsqrt", lambda t, a: a.rsqrt(), (P,)),
    ("sin", lambda t, a: a.sin(), (A,)),
    ("cos", lambda t, a: t.cos(a), (A,)),
    ("tan", lambda t, a: a.tan(), (A * 0.3,)),
    ("asin", lambda t, a: t.asin(a), (A * 0.2,)),
    ("atan", lambda t, a: t.atan(a), (A,)),
    ("sinh", lambda t, a: t.sinh(a), (A,)),
    ("tanh", lambda t, a: a.tanh(), (A,)),
    ("sigmoid", lambda t, a: a.sigmoid(), (A,)),
    ("erf", lambda t, a: t.erf(a), (A,)),
    ("relu", lambda t, a: a.relu(), (A,)),
    ("reciprocal", lambda t, a: a.reciprocal(), (P,)),
    ("square", lambda t, a: a.square(), (A,)),
    ("clamp", lambda t, a: a.clamp(-0.5, 0.5), (A,)),
    ("clamp_min_t", lambda t, a, b: t.clamp(a, min=b), (A, B)),
    ("maximum", lambda t, a, b: t.maximum(a, b), (A, B)),
    ("minimum", lambda t, a, b: t.minimum(a, b), (A, B)),
    ("atan2", lambda t, a, b: t.atan2(a, b), (A, P)),
    ("hypot", lambda t, a, b: t.hypot(a, b), (A, B)),
    ("where", lambda t, a, b: t.where(a > 0, a, b), (A, B)),
    ("lerp", lambda t, a, b: t.lerp(a, b, 0.3), (A, B)),
    ("addcmul", lambda t, a, b: t.addcmul(a, a, b, value=0.5), (A, B)),
    ("addcdiv", lambda t, a, b: t.addcdiv(a, a, b), (A, P)),
    ("sum", lambda t, a: a.sum(), (A,)),
    ("sum_dim", lambda t, a: a.sum(1, keepdim=True), (A,)),
    ("sum_dims", lambda t, a: a.sum((0, 1)), (A,)),
    ("mean", lambda t, a: a.mean(0), (A,)),
    ("prod", lambda t, a: a.prod(1), (A,)),
    ("std", lambda t, a: a.std(1), (A,)),
    ("var", lambda t, a: a.var(unbiased=False), (A,)),
    ("norm", lambda t, a: a.norm(), (A,)),
    ("norm_p1_dim", lambda t, a: a.norm(p=1, dim=0), (A,)),
    ("norm_p3", lambda t, a: a.norm(p=3), (A,)),
    ("dist", lambda t, a, b: t.dist(a, b), (A, B)),
    ("max", lambda t, a: a.max(), (A,)),
    ("max_dim", lambda t, a: a.max(1)[0], (A,)),
    ("min_dim", lambda t, a: a.min(0).values, (A,)),
    ("amax", lambda t, a: a.amax(0), (A,)),
    ("logsumexp", lambda t, a: a.logsumexp(1), (A,)),
    ("softmax", lambda t, a: a.softmax(1), (A,)),
    ("log_softmax", lambda t, a: a.log_softmax(0), (A,)),
    ("cumsum", lambda t, a: a.cumsum(1), (A,)),
    ("cumprod", lambda t, a: a.cumprod(0), (A,)),
    ("sort", lambda t, a: a.sort(1)[0], (A,)),
    ("sort_desc", lambda t, a: a.sort(0, descending=True).values, (A,)),
    ("topk", lambda t, a: a.topk(2)[0], (A,)),
    ("median_dim", lambda t, a: a.median(1)[0], (A,)),
    ("kthvalue", lambda t, a: a.kthvalue(2, 1)[0], (A,)),
    ("cummax", lambda t, a: a.cummax(1)[0], (A,)),
    ("mm", lambda t, a, b: a.mm(b.t()), (A, B)),
    ("matmul_batched", lambda t, a, b: a.view(3, 2, 2) @ b.view(3, 2, 2), (A, B)),
    ("matmul_vec", lambda t, a, v: a @ v, (A, V)),
    ("bmm", lambda t, a, b: t.bmm(a.view(3, 2, 2), b.view(3, 2, 2)), (A, B)),
    ("mv", lambda t, a, v: t.mv(a, v), (A, V)),
    ("dot", lambda t, v: t.dot(v, v), (V,)),
    ("outer", lambda t, v: t.outer(v, v * 2), (V,)),
    ("addmm", lambda t, a, b: t.addmm(a[:, :3], a, b.t()[:, :3], beta=0.5, alpha=2.0), (A, B)),
    ("einsum", lambda t, a, b: t.einsum("ij,kj->ik", a, b), (A, B)),
    ("trace", lambda t, s: s.trace(), (S,)),
    ("diag", lambda t, s: s.diag(), (S,)),
    ("triu", lambda t, s: s.triu(1), (S,)),
    ("tril", lambda t, s: s.tril(), (S,)),
    ("inverse", lambda t, s: s.inverse(), (SPD,)),
    ("det", lambda t, s: s.det(), (SPD,)),
    ("slogdet", lambda t, s: t.linalg.slogdet(s)[1], (SPD,)),
    ("cholesky", lambda t, s: t.linalg.cholesky(s @ s.t() + 4 * t.eye(4, dtype=t.float64)), (S,)),
    ("solve", lambda t, s, v: t.linalg.solve(s, v), (SPD, V)),
    ("svdvals", lambda t, s: t.linalg.svdvals(s), (SPD,)),
    ("eigvalsh", lambda t, s: t.linalg.eigh(s + s.t())[0], (S,)),
    ("cross", lambda t, a, b: t.cross(a[:, :3], b[:, :3], dim=1), (A, B)),
    ("view", lambda t, a: a.view(2, 6) * 2, (A,)),
    ("reshape_t", lambda t, a: a.t().reshape(12), (A,)),
    ("transpose", lambda t, a: a.transpose(0, 1) * 3, (A,)),
    ("expand", lambda t, v: v.expand(3, 4) * t.arange(12.0, dtype=t.float64).view(3, 4), (V,)),
    ("slice", lambda t, a: a[1:, ::2], (A,)),
    ("select", lambda t, a: a[:, 2], (A,)),
    ("index", lambda t, a: a[t.tensor([2, 0, 2])], (A,)),
    ("mask", lambda t, a: a[a > 0], (A,)),
    ("narrow", lambda t, a: a.narrow(1, 1, 2), (A,)),
    ("cat", lambda t, a, b: t.cat([a, b * 2], 1), (A, B)),
    ("stack", lambda t, a, b: t.stack([a, b], 1), (A, B)),
    ("unbind", lambda t, a: a.unbind(1)[2] * a.unbind(0)[0][1], (A,)),
    ("split", lambda t, a: a.split([1, 3], 1)[1], (A,)),
    ("chunk", lambda t, a: a.chunk(2, 1)[0], (A,)),
    ("gather", lambda t, a: a.gather(1, t.tensor([[0, 3], [1, 1], [2, 0]])), (A,)),
    ("scatter", lambda t, a, b: a.scatter(1, t.tensor([[0], [2], [3]]), b), (A, B)),
    ("scatter_add", lambda t, a, b: a.scatter_add(1, t.tensor([[0, 0], [2, 1], [3, 3]]), b), (A, B)),
    ("index_select", lambda t, a: a.index_select(1, t.tensor([3, 0])), (A,)),
    ("masked_fill", lambda t, a: a.masked_fill(a > 0.5, 2.0), (A,)),
    ("masked_select", lambda t, a: a.masked_select(a < 0), (A,)),
    ("take", lambda t, a: a.take(t.tensor([0, 5, 11])), (A,)),
    ("index_add", lambda t, a, b: a.index_add(0, t.tensor([0, 2]), b[:2]), (A, B)),
    ("repeat", lambda t, a: a.repeat(2, 1), (A,)),
    ("flip", lambda t, a: a.flip(1), (A,)),
    ("roll", lambda t, a: a.roll(1, 1), (A,)),
    ("diagonal", lambda t, s: s.diagonal(1), (S,)),
    ("unfold", lambda t, a: a.unfold(1, 2, 1), (A,)),
    ("permute", lambda t, a: a.view(3, 2, 2).permute(2, 0, 1), (A,)),
    ("squeeze", lambda t, a: a.view(3, 1, 4).squeeze(1), (A,)),
    ("to_float", lambda t, a: a.float().double(), (A,)),
]


def _apply(lib, fn, arrays):
    ts = [lib.tensor(a) for a in arrays]
    return fn(lib, *ts), ts


@pytest.mark.parametrize("name,fn,arrays", OPS, ids=[o[0] for o in OPS])
def test_forward_matches_pytorch(name, fn, arrays):
    out, _ = _apply(ft, fn, arrays)
    torch = _torch()
    if torch is None:
        pytest.skip("torch not installed")
    ref, _ = _apply(torch, fn, arrays)
    assert tuple(out.shape) == tuple(ref.shape)
    assert str(out.dtype) == str(ref.dtype)
    assert np.allclose(_np(out), ref.detach().numpy(), rtol=1e-6, atol=1e-9)


def _numeric_vjp(fn, arrays, i, ct, eps=1e-6):
    """Central differences of <fn(arrays), ct> with respect to arrays[i]."""
    base = [a.copy() for a in arrays]
    g = np.zeros_like(base[i])
    flat = base[i].reshape(-1)
    for k in range(flat.size):
        old = flat[k]
        flat[k] = old + eps
        hi = float((_np(fn(ft, *[ft.tensor(a) for a in base])) * ct).sum())
        flat[k] = old - eps
        lo = float((_np(fn(ft, *[ft.tensor(a) for a in base])) * ct).sum())
        flat[k] = old
        g.reshape(-1)[k] = (hi - lo) / (2 * eps)
    return g


@pytest.mark.parametrize(
    "name,fn,arrays", [o for o in OPS if o[0] != "to_float"], ids=[o[0] for o in OPS if o[0] != "to_float"]
)
def test_gradients_vs_finite_differences(name, fn, arrays):
    ts = [ft.tensor(a, requires_grad=True) for a in arrays]
    out = fn(ft, *ts)
    ct = RNG.standard_normal(out.shape)
    grads = ft.autograd.grad(out, ts, ft.tensor(ct), allow_unused=True)
    for i, g in enumerate(grads):
        num = _numeric_vjp(fn, [np.array(a, dtype=np.float64) for a in arrays], i, ct)
        got = np.zeros_like(num) if g is None else g.numpy()
        assert np.allclose(got, num, rtol=1e-4, atol=1e-6), (name, i)


SECOND = [
    "mul",
    "div",
    "pow_tensor",
    "exp",
    "log",
    "sqrt",
    "sin",
    "tanh",
    "sigmoid",
    "erf",
    "norm",
    "std",
    "logsumexp",
    "softmax",
    "log_softmax",
    "cumprod",
    "mm",
    "bmm",
    "inverse",
    "det",
    "prod",
    "atan2",
    "hypot",
    "max_dim",
    "gather",
    "index",
    "cat",
    "lerp",
    "addcdiv",
    "dist",
    "rsqrt",
    "clamp",
]


@pytest.mark.parametrize("name", SECOND)
def test_second_order_vs_finite_differences(name):
    """d/dx <grad(<f(x), c>), v> by create_graph vs finite differences of the first-order
    gradient (which itself was checked above)."""
    fn, arrays = {o[0]: (o[1], o[2]) for o in OPS}[name]
    ct = RNG.standard_normal(_apply(ft, fn, arrays)[0].shape)
    vs = [RNG.standard_normal(np.shape(a)) for a in arrays]

    def first(lib, *ts):
        ts = [t.detach().requires_grad_() if t.requires_grad is False else t for t in ts]
        out = fn(lib, *ts)
        gs = lib.autograd.grad(
            out, ts, lib.tensor(ct), create_graph=True, allow_unused=True, materialize_grads=True
        )
        return sum((g * lib.tensor(v)).sum() for g, v in zip(gs, vs, strict=False))

    ts = [ft.tensor(a, requires_grad=True) for a in arrays]
    f1 = first(ft, *ts)
    if f1.requires_grad:
        hv = ft.autograd.grad(f1, ts, allow_unused=True, materialize_grads=True)
    else:  # the gradient does not depend on the inputs (piecewise-linear op): zero Hessian
        hv = [ft.zeros_like(t) for t in ts]
    for i, h in enumerate(hv):
        num = _numeric_vjp(
            lambda lib, *xs: first(lib, *[x.requires_grad_() for x in xs]),
            [np.array(a, dtype=np.float64) for a in arrays],
            i,
            np.ones(()),
            eps=1e-5,
        )
        assert np.allclose(h.numpy(), num, rtol=1e-3, atol=1e-5), (name, i)


# ---------------------------------------------------------------------------------------
# values and result types


def test_reductions_and_named_tuples():
    x = ft.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 5.0]])
    r = x.max(1)
    assert r.values.tolist() == [3.0, 5.0] and r.indices.tolist() == [0, 1] and r[0] is r.values
    assert repr(ft.max(ft.linspace(15, 0, 6).view(2, 3), dim=1)) == (
        "torch.return_types.max(\nvalues=tensor([15.,  6.]),\nindices=tensor([0, 0]))"
    )
    v, i = x.sort(1, descending=True)
    assert v.tolist() == [[3.0, 2.0, 1.0], [5.0, 5.0, 0.0]] and i.tolist() == [[0, 2, 1], [1, 2, 0]]
    assert x.topk(2).indices.tolist() == [[0, 2], [1, 2]]
    assert x.median().item() == 2.0 and x.median(1).values.tolist() == [2.0, 5.0]
    assert x.mode(1).values.tolist() == [1.0, 5.0]
    assert x.kthvalue(1, 1).indices.tolist() == [1, 0]
    assert x.argmax().item() == 4 and x.argmin(1).tolist() == [1, 0]
    assert x.sum(dim=0, keepdim=True).shape == (1, 3) and x.mean((0, 1)).item() == pytest.approx(16 / 6)
    assert x.std().item() == pytest.approx(np.std(x.numpy(), ddof=1), rel=1e-6)
    assert x.var(1, unbiased=False).tolist() == pytest.approx(np.var(x.numpy(), 1).tolist(), rel=1e-6)
    assert ft.tensor([1.0, float("nan")]).max().isnan().item()
    assert x.cumsum(1).tolist() == [[3.0, 4.0, 6.0], [0.0, 5.0, 10.0]]
    assert x.all().item() is False and x.any(1).tolist() == [True, True]
    assert ft.count_nonzero(x).item() == 5 and x.logsumexp(1).shape == (2,)


@pytest.mark.parametrize(
    "code",
    [
        "a = t.linspace(0, 15, 6).view(2, 3); b = t.linspace(15, 0, 6).view(2, 3); print(a, b, a[a > b], "
        "t.max(b, dim=1))",
        "a = t.arange(0, 6).view(2, 3); print(t.cos(a), a % 3, t.clamp(a, min=3), t.fmod(a, 3), a // 4, -a % "
        "4)",
        "x = t.tensor([[3., 1., 2.], [0., 5., 5.]]); print(x.sort(), x.topk(2), x.median(1), x.mode(1), "
        "x.cumprod(0))",
        "x = t.tensor([1.5, -2.5, 0.5, 2.5]); print(x.floor(), x.ceil(), x.round(), x.trunc(), x.frac(), "
        "x.sign(), "
        "x.sigmoid(), x.relu(), x.clamp(min=0), x.rsqrt(), t.round(x, decimals=1))",
        "a = t.ones(2, 3); b = t.ones(3, 4); print(t.mm(a, b), a @ b, t.matmul(a, b[:, 0]), t.bmm(a[None], "
        "b[None]).shape, "
        "t.dot(b[:, 0], b[:, 1]), t.outer(t.arange(2.), t.arange(3.)), t.addmm(t.zeros(2, 4), a, b, beta=2, "
        "alpha=3))",
        "m = t.tensor([[2., 1.], [1., 3.]]); print(m.trace(), m.diag(), t.diag(t.tensor([1., 2.])), "
        "m.triu(), m.tril(-1), "
        "m.inverse(), m.det(), t.cross(t.tensor([1., 0, 0]), t.tensor([0., 1, 0]), dim=0), t.svd(m)[1])",
        "a = t.tensor([[1., 2.], [3., 4.]]); print(t.cat([a, a]), t.cat((a, a), 1), t.stack([a, a], "
        "2).shape, "
        "a.index_select(0, t.tensor([1])), a.gather(1, t.tensor([[0], [1]])), t.zeros(2, 3).scatter(1, "
        "t.tensor([[0], [2]]), 5.), "
        "t.where(a > 2, a, t.zeros(2, 2)), a.repeat(2, 1), t.clamp(a, 1.5, 3.5), a.masked_fill(a > 2, 0), "
        "a.flip(0))",
        "x = t.tensor([1., 2, 3]); print(x == 2, x != 2, x > t.tensor([0., 5, 1]), t.eq(x, x), t.equal(x, "
        "x), "
        "t.allclose(x, x + 1e-9), t.isclose(x, x + 1), x.le(2), x.ge(2), (x > 1) & (x < 3), ~(x > 1))",
        "x = t.tensor([4, -7, 9]); print(x // 2, x % 3, t.div(x, 2, rounding_mode='trunc'), t.div(x, 2, "
        "rounding_mode='floor'), "
        "x / 2, x.abs(), x ** 2, x.float().pow(0.5))",
    ],
)
def test_printed_results_match_pytorch(code):
    import contextlib
    import io

    def run(lib):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(code, {"t": lib})
        return buf.getvalue()

    ours = run(ft)
    torch = _torch()
    if torch is None:
        pytest.skip("torch not installed")
    assert ours == run(torch)


def test_broadcasting():
    a = ft.ones(3, 2)
    b = ft.zeros(2, 3, 1)
    assert (a + b).shape == (2, 3, 2)
    assert ft.equal(a[None].expand(2, 3, 2) + b.expand(2, 3, 2), a + b)
    with pytest.raises(
        RuntimeError,
        match="The size of tensor a \\(2\\) must match the size of tensor b \\(3\\) at "
        "non-singleton dimension 1",
    ):
        ft.ones(2, 2) + ft.ones(2, 3)


def test_shape_error_messages():
    with pytest.raises(RuntimeError, match="mat1 and mat2 shapes cannot be multiplied \\(2x3 and 2x3\\)"):
        ft.mm(ft.ones(2, 3), ft.ones(2, 3))
    with pytest.raises(RuntimeError, match="1D tensors expected, but got 2D and 2D tensors"):
        ft.dot(ft.ones(2, 2), ft.ones(2, 2))
    with pytest.raises(RuntimeError, match="Sizes of tensors must match except in dimension 0"):
        ft.cat([ft.ones(2, 3), ft.ones(2, 4)])
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        ft.stack([ft.ones(2), ft.ones(3)])
    with pytest.raises(IndexError, match="index out of range in self"):
        ft.ones(3).index_select(0, ft.tensor([5]))
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype"):
        ft.tensor([1, 2]).mean()


def test_allclose_isclose_equal():
    x = ft.tensor([1.0, 2.0])
    assert ft.allclose(x, x + 1e-9) and not ft.allclose(x, x + 1)
    assert ft.isclose(x, ft.tensor([1.0, 3.0])).tolist() == [True, False]
    assert ft.equal(x, ft.tensor([1.0, 2.0])) and not ft.equal(x, ft.tensor([1.0]))


def test_linalg_namespace():
    m = ft.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=ft.float64)
    assert np.allclose(ft.linalg.inv(m).numpy(), np.linalg.inv(m.numpy()))
    assert np.isclose(ft.linalg.det(m).item(), 5.0)
    assert np.allclose(ft.linalg.norm(m).item(), np.linalg.norm(m.numpy()))
    w, v = ft.linalg.eigh(m)
    assert np.allclose(w.numpy(), np.linalg.eigvalsh(m.numpy()))
    u, s, vh = ft.linalg.svd(m)
    assert np.allclose((u * s) @ vh, m.numpy())
    q, r = ft.linalg.qr(m)
    assert np.allclose((q @ r).numpy(), m.numpy())
    assert np.allclose(
        ft.linalg.solve(m, ft.tensor([1.0, 2.0], dtype=ft.float64)).numpy(),
        np.linalg.solve(m.numpy(), [1.0, 2.0]),
    )
    assert ft.linalg.matrix_norm(m, "fro").item() == pytest.approx(np.linalg.norm(m.numpy()))
    assert ft.linalg.vector_norm(ft.tensor([3.0, 4.0])).item() == 5.0


def test_norm_gradient_at_zero_is_zero():
    x = ft.zeros(3, requires_grad=True)
    x.norm().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


def test_integer_and_bool_ops():
    x = ft.tensor([4, -7, 9])
    assert (x // 2).tolist() == [2, -4, 4] and (x % 3).tolist() == [1, 2, 0]
    assert ft.div(x, 2, rounding_mode="trunc").tolist() == [2, -3, 4]
    assert (x & 1).tolist() == [0, 1, 1] and (~ft.tensor([True, False])).tolist() == [False, True]
    assert ft.tensor([True, False]).sum().item() == 1
    assert (x > 0).dtype is ft.bool and x.bincount if hasattr(x, "bincount") else True
    assert ft.unique(ft.tensor([3, 1, 3])).tolist() == [1, 3]
    assert ft.nonzero(ft.tensor([0, 2, 0, 3])).tolist() == [[1], [3]]
    assert ft.arange(6).view(2, 3).nonzero().shape == (5, 2)


@pytest.mark.parametrize(
    "code",
    [
        "print(t.diff(t.tensor([1., 4, 9, 16])), t.diff(t.arange(6).view(2, 3), dim=0), t.tensor([1, "
        "2]).deg2rad())",
        "print(t.quantile(t.arange(5.), 0.3), t.quantile(t.arange(6.).view(2, 3), 0.5, dim=1, keepdim=True))",
        "print(t.cdist(t.ones(2, 3), t.zeros(4, 3)), t.cosine_similarity(t.ones(2, 3), t.arange(6.).view(2, "
        "3)))",
        "print(t.trapz(t.tensor([1., 2, 3])), t.vander(t.tensor([1., 2, 3])), t.sinc(t.tensor([0., 0.5])))",
        "print(t.heaviside(t.tensor([-1., 0, 2]), t.tensor([0.5])), t.ones(2, 3).ravel(), "
        "t.sgn(t.tensor([-2., 0])))",
        "print(t.tensor([[1., 2], [3, 4]]).renorm(2, 0, 1.), t.ones(2, 3).sum_to_size(1, 3), "
        "t.rad2deg(t.tensor([1.])))",
    ],
)
def test_more_ops_match_pytorch(code):
    test_printed_results_match_pytorch(code)


def test_float64_cumsum_cumprod_are_sequential_as_pytorch():
    """PyTorch's CPU cumsum/cumprod are sequential running totals; fgrad's shared primitive
    takes JAX's tiled order (``fgrad.ops.cumulative``), which differs in float64's last bits
    beyond 16 elements, so the PyTorch face asks for the sequential order."""
    x = np.random.default_rng(1).uniform(size=(2, 1000))
    np.testing.assert_array_equal(ft.tensor(x).cumsum(1).numpy(), np.cumsum(x, 1))
    np.testing.assert_array_equal(ft.tensor(1 + x / 500).cumprod(1).numpy(), np.cumprod(1 + x / 500, 1))
    g = ft.tensor(x, requires_grad=True)
    g.cumsum(1).backward(ft.tensor(x))
    np.testing.assert_array_equal(g.grad.numpy(), np.cumsum(x[:, ::-1], 1)[:, ::-1])
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(ft.tensor(x).cumsum(1).numpy(), torch.tensor(x).cumsum(1).numpy())


def test_cumsum_cumprod_accumulate_float32_in_double_as_pytorch():
    """PyTorch's CPU kernels carry float32 running values in double precision: 1e8 + 1 is
    kept (it rounds away in float32), so the running sum ends at 2, not 1."""
    x = ft.tensor([1e8, 1.0, -1e8, 1.0])
    assert x.cumsum(0).tolist() == [1e8, 1e8, 1.0, 2.0]
    g = ft.tensor([1.0, -1e8, 1.0, 1e8], requires_grad=True)
    g.cumsum(0).backward(ft.tensor([1.0, 1e8, 1.0, -1e8]))  # reversed running sums, in double
    assert g.grad.tolist() == [2.0, 1.0, -1e8, -1e8]  # float32: -1e8 + 1 rounds to -1e8
    p = ft.tensor([1.72, 1.87, 1.41, 1.59])
    want = np.cumprod(p.numpy().astype(np.float64)).astype(np.float32)
    assert not np.array_equal(want, np.cumprod(p.numpy()))  # the two accumulations differ here
    np.testing.assert_array_equal(p.cumprod(0).numpy(), want)
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((40, 64)).astype(np.float32)
    c = (rng.standard_normal(500) + 1j * rng.standard_normal(500)).astype(np.complex64)
    for d in (0, 1):
        np.testing.assert_array_equal(ft.tensor(a).cumsum(d).numpy(), torch.tensor(a).cumsum(d).numpy())
        np.testing.assert_array_equal(ft.tensor(1 + a / 64).cumprod(d).numpy(),
                                      torch.tensor(1 + a / 64).cumprod(d).numpy())
    np.testing.assert_array_equal(ft.tensor(c).cumsum(0).numpy(), torch.tensor(c).cumsum(0).numpy())
    for name in ("float16", "bfloat16"):
        h, th = ft.tensor(a).to(getattr(ft, name)), torch.tensor(a).to(getattr(torch, name))
        for op in ("cumsum", "cumprod"):
            got, want = getattr(h, op)(1).float().numpy(), getattr(th, op)(1).float().numpy()
            np.testing.assert_array_equal(got, want)


def test_cumsum_of_16_bit_floats_accumulates_in_float32_as_pytorch():
    """2048 + 1 rounds back to 2048 in float16 (bfloat16: 256 + 1 to 256); the float32
    running sum keeps it, so the third value is 2050 (258), not 2048 (256)."""
    assert ft.tensor([2048.0, 1.0, 1.0]).half().cumsum(0).tolist() == [2048.0, 2048.0, 2050.0]
    assert ft.tensor([256.0, 1.0, 1.0]).bfloat16().cumsum(0).tolist() == [256.0, 256.0, 258.0]


def test_logcumsumexp_does_not_overflow_or_underflow():
    """A running logaddexp (it was ``log(cumsum(exp(x)))``: inf past exp's range, -inf
    below it)."""
    assert ft.tensor([100.0, 1000.0]).logcumsumexp(0).tolist() == [100.0, 1000.0]
    assert ft.tensor([-1000.0, 0.0]).logcumsumexp(0).tolist() == [-1000.0, 0.0]
    got = ft.tensor([[0.0, 0.0, math.log(2.0)]]).logcumsumexp(1).numpy()
    np.testing.assert_allclose(got, [[0.0, math.log(2.0), math.log(4.0)]], rtol=1e-6)
    with pytest.raises(NotImplementedError, match="Long"):
        ft.tensor([1, 2]).logcumsumexp(0)
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((6, 300)) * 30).astype(np.float32)
    x[0, :3] = [np.inf, -np.inf, np.nan]
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for d in (0, 1):
            got = ft.tensor(x).to(getattr(ft, dt)).logcumsumexp(d).float().numpy()
            want = torch.tensor(x).to(getattr(torch, dt)).logcumsumexp(d).float().numpy()
            np.testing.assert_array_equal(got, want)  # float32: a double running value, as PyTorch
    y = rng.standard_normal((4, 30)).astype(np.float32)
    g = rng.standard_normal((4, 30)).astype(np.float32)
    a, b = ft.tensor(y, requires_grad=True), torch.tensor(y, requires_grad=True)
    a.logcumsumexp(1).backward(ft.tensor(g))
    b.logcumsumexp(1).backward(torch.tensor(g))
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-5, atol=1e-5)


# -- found running PyTorch's own docstring examples (tools/torch_docstring_examples.py) --------


def _live_torch():
    return pytest.importorskip("torch")


def test_xlogy_keeps_nan_of_other_where_input_is_zero():
    # torch.special.xlogy's docstring: xlogy(0, nan) is nan (fgrad gave 0)
    x, y = ft.zeros(5), ft.tensor([-1, 0, 1, float("inf"), float("nan")])
    want = [0.0, 0.0, 0.0, 0.0, math.nan]  # PyTorch 2.13
    for fn in (ft.xlogy, ft.special.xlogy, lambda a, b: a.xlogy(b)):
        np.testing.assert_array_equal(fn(x, y).numpy(), want)
    np.testing.assert_array_equal(ft.xlogy(ft.tensor([0.0, 2.0]), float("nan")).numpy(), [math.nan] * 2)
    torch = _live_torch()
    np.testing.assert_array_equal(torch.xlogy(torch.zeros(5), torch.tensor(y.tolist())).numpy(), want)


def test_diag_embed_any_pair_of_output_dims():
    # torch.diag_embed's docstring: diag_embed(a, offset=1, dim1=0, dim2=2) (fgrad raised NotImplementedError)
    a = ft.arange(1.0, 7.0).reshape(2, 3)
    want_02 = [[[0.0, 1.0, 0.0, 0.0], [0.0, 4.0, 0.0, 0.0]], [[0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 5.0, 0.0]],
               [[0.0, 0.0, 0.0, 3.0], [0.0, 0.0, 0.0, 6.0]], [[0.0] * 4, [0.0] * 4]]
    want_21 = [[[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 3.0], [0.0] * 4],
               [[0.0, 4.0, 0.0, 0.0], [0.0, 0.0, 5.0, 0.0], [0.0, 0.0, 0.0, 6.0], [0.0] * 4]]
    assert ft.diag_embed(a, offset=1, dim1=0, dim2=2).tolist() == want_02
    assert ft.diag_embed(a, offset=-1, dim1=2, dim2=1).tolist() == want_21
    with pytest.raises(RuntimeError, match="cannot be identical"):
        ft.diag_embed(a, dim1=1, dim2=-2)
    w = ft.arange(1.0, 7.0).reshape(2, 3).requires_grad_()
    ft.diag_embed(w, offset=1, dim1=0, dim2=2).sum().backward()
    assert w.grad.tolist() == [[1.0] * 3] * 2
    torch = _live_torch()
    t = torch.arange(1.0, 7.0).reshape(2, 3)
    assert torch.diag_embed(t, offset=1, dim1=0, dim2=2).tolist() == want_02
    assert torch.diag_embed(t, offset=-1, dim1=2, dim2=1).tolist() == want_21


def test_masked_scatter_broadcasts_input_with_mask():
    # Tensor.masked_scatter's docstring: a [5] input with a [2, 5] mask gives [2, 5] (fgrad raised ValueError)
    mask = [[0, 0, 0, 1, 1], [1, 1, 0, 1, 1]]
    want = [[0, 0, 0, 0, 1], [2, 3, 0, 4, 5]]  # PyTorch 2.13
    got = ft.tensor([0] * 5).masked_scatter(ft.tensor(mask, dtype=ft.bool), ft.arange(10).reshape(2, 5))
    assert got.tolist() == want
    torch = _live_torch()
    t = torch.tensor([0] * 5).masked_scatter(torch.tensor(mask, dtype=torch.bool),
                                             torch.arange(10).reshape(2, 5))
    assert t.tolist() == want


def test_reductions_take_numpy_keyword_names():
    # torch.nn.CrossEntropyLoss's docstring: target.sum(axis=1) (fgrad raised TypeError)
    t = ft.arange(6.0).reshape(2, 3)
    assert t.sum(axis=1).tolist() == [3.0, 12.0]
    assert ft.mean(t, axis=0, keepdims=True).tolist() == [[1.5, 2.5, 3.5]]
    assert t.amax(axis=1, keepdims=True).tolist() == [[2.0], [5.0]]
    with pytest.raises(TypeError, match="'foo'"):
        ft.sum(t, foo=1)
    with pytest.raises(TypeError, match="axis"):
        t.sum(axis=1, dim=0)  # both names: PyTorch's TypeError too
    torch = _live_torch()
    tt = torch.arange(6.0).reshape(2, 3)
    assert tt.sum(axis=1).tolist() == [3.0, 12.0]
    assert torch.mean(tt, axis=0, keepdims=True).tolist() == [[1.5, 2.5, 3.5]]


def test_typename_of_classes_and_modules():
    # torch.typename's docstring: typename(torch.nn.Parameter) (fgrad gave '_TensorMeta')
    want = ("torch.nn.parameter.Parameter", "torch.nn.modules.linear.Linear", "int", "torch.LongTensor")
    got = (ft.typename(ft.nn.Parameter), ft.typename(ft.nn.Linear(1, 1)), ft.typename(1),
           ft.typename(ft.tensor([1])))
    assert got == want
    torch = _live_torch()
    assert (torch.typename(torch.nn.Parameter), torch.typename(torch.nn.Linear(1, 1)), torch.typename(1),
            torch.typename(torch.tensor([1]))) == want


def test_allclose_of_shapes_that_do_not_broadcast_raises_runtime_error():
    # torch.qr's docstring: allclose(q.mT @ q, eye(5)) with 4x4 q (fgrad raised NumPy's ValueError)
    msg = "The size of tensor a \\(4\\) must match the size of tensor b \\(5\\) at non-singleton dimension 1"
    for fn in (ft.allclose, ft.isclose):
        with pytest.raises(RuntimeError, match=msg):
            fn(ft.zeros(4, 4), ft.eye(5))
    assert ft.allclose(ft.zeros(4, 4), ft.zeros(1))
    torch = _live_torch()
    with pytest.raises(RuntimeError, match=msg):
        torch.allclose(torch.zeros(4, 4), torch.eye(5))


# PyTorch 2.13's errors for integer-only / float-only kernels given the other kind (fgrad raised
# RuntimeError, NumPy's UFuncTypeError, or counted booleans and complex numbers silently)
KERNEL_DTYPE_ERRORS = [  # (name, call, kernel, PyTorch's type name)
    ("poisson", lambda t: t.poisson(t.tensor([4])), "poisson_cpu", "Long"),
    ("Poisson.sample", lambda t: t.distributions.Poisson(t.tensor([4])).sample(), "poisson_cpu", "Long"),
    ("nextafter", lambda t: t.nextafter(t.tensor([1]), t.tensor([2])), "nextafter_cpu", "Long"),
    ("histc long", lambda t: t.histc(t.tensor([1, 2, 3]), bins=3), "histogram_cpu", "Long"),
    ("histc bool", lambda t: t.histc(t.tensor([True, False]), bins=3), "linspace_cpu", "Bool"),
    ("histc complex", lambda t: t.histc(t.tensor([1j]), bins=3), "aminmax_cpu", "ComplexFloat"),
    ("histogram", lambda t: t.histogram(t.tensor([1, 2]), bins=2), "histogramdd", "Long"),
    ("dirichlet", lambda t: t._sample_dirichlet(t.tensor([1])), "dirichlet", "Long"),
    ("gcd float", lambda t: t.gcd(t.tensor([1.0]), t.tensor([2.0])), "gcd_cpu", "Float"),
    ("lcm mixed", lambda t: t.lcm(t.tensor([1]), t.tensor([2.0])), "lcm_cpu", "Float"),
]


@pytest.mark.parametrize("case", KERNEL_DTYPE_ERRORS, ids=[c[0] for c in KERNEL_DTYPE_ERRORS])
def test_kernel_dtype_errors_are_not_implemented_errors(case):
    _, call, kernel, type_name = case
    msg = f"\"{kernel}\" not implemented for '{type_name}'"
    with pytest.raises(NotImplementedError) as e:
        call(ft)
    assert str(e.value) == msg
    assert ft.gcd(ft.tensor([4, 6]), ft.tensor([6, 9])).tolist() == [2, 3]
    torch = _live_torch()
    with pytest.raises(NotImplementedError) as e:
        call(torch)
    assert str(e.value) == msg


def test_nanquantile_of_an_all_nan_row_is_nan_without_a_warning():
    # torch.nanquantile's docstring: t.nanquantile(0.5, dim=1) with a row of NaNs (fgrad let NumPy's
    # "All-NaN slice encountered" RuntimeWarning out; PyTorch gives NaN silently)
    nan = math.nan
    t = ft.tensor([[nan, nan], [1.0, 2.0]])
    np.testing.assert_array_equal(t.nanquantile(0.5, dim=1).numpy(), [nan, 1.5])  # PyTorch 2.13
    np.testing.assert_array_equal(t.nanquantile(0.5, dim=-1, keepdim=True).numpy(), [[nan], [1.5]])
    np.testing.assert_array_equal(t.nanquantile(ft.tensor([0.25, 0.5]), dim=1).numpy(),
                                  [[nan, 1.25], [nan, 1.5]])
    assert t.nanquantile(ft.tensor([0.25, 0.5]), dim=0, keepdim=True).shape == (2, 1, 2)
    assert math.isnan(ft.tensor([nan] * 3).nanquantile(0.5).item())
    torch = _live_torch()
    tt = torch.tensor([[nan, nan], [1.0, 2.0]])
    np.testing.assert_array_equal(tt.nanquantile(0.5, dim=1).numpy(), [nan, 1.5])


def test_asarray_of_a_tensor_keeps_history_as_pytorch_2_13(monkeypatch):
    # torch.asarray's docstring: asarray(a, copy=True) (fgrad gave a detached copy and torch.tensor's
    # "To copy construct from a tensor" warning)
    import fgrad.torch._ops_creation as creation

    monkeypatch.setattr(creation, "_ASARRAY_WARNED", [])
    a = ft.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.warns(UserWarning, match="unspecified requires_grad now defaults to obj.requires_grad"):
        c = ft.asarray(a, copy=True)
    assert c.requires_grad and type(c.grad_fn).__name__ == "CloneBackward0"
    assert c.data_ptr() != a.data_ptr()
    d = ft.asarray(a, copy=True, requires_grad=False)
    assert not d.requires_grad and d.grad_fn is None
    e = ft.asarray(a * 2, copy=True, requires_grad=True)
    assert type(e.grad_fn).__name__ == "CloneBackward0"
    f = ft.asarray(a, copy=True, dtype=ft.float64)
    assert type(f.grad_fn).__name__ == "ToCopyBackward0" and f.dtype == ft.float64
    (c.sum() * 3).backward()
    assert a.grad.tolist() == [3.0, 3.0, 3.0]
    torch = _live_torch()
    ta = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert type(torch.asarray(ta, copy=True, requires_grad=True).grad_fn).__name__ == "CloneBackward0"
    assert torch.asarray(ta, copy=True, requires_grad=False).grad_fn is None


def test_xlogy_gradients_at_zero_are_pytorchs():
    # found fixing xlogy(0, nan): the derivative for input was 0 wherever input == 0 (PyTorch: log(other),
    # masked to 0 where other <= 0), so xlogy(0, 2) had gradient 0 instead of log(2)
    nan, inf = math.nan, math.inf
    x = [0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 3.0]
    y = [0.0, 2.0, 0.0, -1.0, -1.0, nan, 0.5]
    want_value = [0.0, 0.0, -inf, 0.0, nan, nan, -2.0794415]  # PyTorch 2.13
    want_gx = [0.0, 0.6931472, -inf, 0.0, nan, nan, -0.6931472]
    want_gy = [0.0, 0.0, inf, -0.0, -2.0, nan, 6.0]  # PyTorch: NaN at (0, 0), fgrad's recorded deviation
    # (tests/shim/test_torch_special_points.py: kl_div's target gradient stays finite at target 0)
    a, b = ft.tensor(x, requires_grad=True), ft.tensor(y, requires_grad=True)
    r = ft.xlogy(a, b)
    r.sum().backward()
    for got, want in ((r.detach(), want_value), (a.grad, want_gx), (b.grad, want_gy)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    xd = ft.tensor([0.5, 1.5], dtype=ft.float64, requires_grad=True)
    yd = ft.tensor([0.7, 2.0], dtype=ft.float64, requires_grad=True)
    assert ft.autograd.gradcheck(ft.xlogy, (xd, yd)) and ft.autograd.gradgradcheck(ft.xlogy, (xd, yd))
    torch = _live_torch()
    ta, tb = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
    torch.xlogy(ta, tb).sum().backward()
    np.testing.assert_allclose(ta.grad.numpy(), want_gx, rtol=1e-6)
    np.testing.assert_allclose(tb.grad.numpy()[1:], want_gy[1:], rtol=1e-6)
    assert math.isnan(tb.grad[0].item())
