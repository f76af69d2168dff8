"""``torch.autograd.forward_ad`` (dual tensors) against PyTorch's numbers (stored in
tests/stored/forward_ad_torch.json, live when torch is installed), finite differences and
``torch.func.jvp``; and the functional-mode fixes it needed: ``no_grad`` does not stop
forward-mode tangents, and in-place writes to views update their base under torch.func."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad.torch as ftorch

STORED = json.loads((pathlib.Path(__file__).parents[1] / "stored" / "forward_ad_torch.json").read_text())


def _cases(torch):
    """name -> function of one (3, 4) float64 tensor, for ``torch`` = fgrad.torch or PyTorch."""
    torch.manual_seed(0)
    w = torch.randn(4, 5, dtype=torch.float64)
    F = torch.nn.functional

    def view_inplace(a):
        h = a * 1
        h[:, 1:].mul_(2)
        return h

    def setitem(a):
        z = torch.zeros(3, 4, dtype=torch.float64)
        z[:, 0] = a[:, 1] * a[:, 2]
        return z

    def gelu_nograd(a):
        with torch.no_grad():  # grad mode does not affect forward AD
            return F.gelu(a)

    return {
        "sin_exp": lambda a: a.sin() * a.exp(),
        "matmul_tanh": lambda a: torch.tanh(a @ w),
        "softmax": lambda a: F.softmax(a, dim=1),
        "log_softmax": lambda a: F.log_softmax(a, dim=0),
        "layer_norm": lambda a: F.layer_norm(a, (4,)),
        "cumsum_prod": lambda a: a.cumsum(1) * a.prod(0),
        "norm_div": lambda a: a / a.norm(dim=1, keepdim=True),
        "max_sort": lambda a: a.max(dim=1).values + a.sort(dim=1).values[:, 0],
        "where_relu": lambda a: torch.where(a > 0, a ** 2, F.relu(-a) * 3),
        "view_inplace": view_inplace,
        "setitem": setitem,
        "conv1d": lambda a: F.conv1d(a.unsqueeze(0),
                                     w.T[:2, :3].reshape(2, 3, 1).expand(2, 3, 2).contiguous()),
        "gelu_nograd": gelu_nograd,
    }


def _run(torch):
    torch.manual_seed(0)
    x = torch.randn(3, 4, dtype=torch.float64)
    t = torch.randn(3, 4, dtype=torch.float64)
    fwAD = torch.autograd.forward_ad
    out = {}
    for name, f in _cases(torch).items():
        with fwAD.dual_level():
            p, tan = fwAD.unpack_dual(f(fwAD.make_dual(x, t)))
            out[name] = [p.tolist(), tan.tolist()]
    return out


@pytest.fixture(scope="module")
def fgrad_results():
    return _run(ftorch)


@pytest.mark.parametrize("name", sorted(STORED))
def test_dual_tensors_give_pytorchs_tangents(fgrad_results, name):
    for got, want in zip(fgrad_results[name], STORED[name], strict=True):
        np.testing.assert_allclose(np.array(got), np.array(want), rtol=1e-10, atol=1e-12)


def test_live_pytorch_agrees_with_the_stored_numbers():
    torch = pytest.importorskip("torch")
    live = _run(torch)
    for name, (p, t) in STORED.items():
        np.testing.assert_allclose(np.array(live[name][0]), np.array(p), rtol=1e-12)
        np.testing.assert_allclose(np.array(live[name][1]), np.array(t), rtol=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["sin", "exp", "tanh", "square", "cumsum", "flip", "softplus"]),
                min_size=1, max_size=5),
       st.integers(0, 2 ** 31 - 1))
def test_dual_tangent_equals_finite_differences(ops, seed):
    fwAD = ftorch.autograd.forward_ad
    rng = np.random.default_rng(seed)
    x0, t0 = rng.uniform(-1, 1, 5), rng.standard_normal(5)

    def f(a):
        for op in ops:
            a = {"square": lambda v: v * v, "cumsum": lambda v: v.cumsum(0) / 5,
                 "flip": lambda v: v.flip(0), "softplus": ftorch.nn.functional.softplus,
                 }.get(op, getattr(ftorch, op, None))(a)
        return a

    with fwAD.dual_level():
        tan = fwAD.unpack_dual(f(fwAD.make_dual(ftorch.tensor(x0), ftorch.tensor(t0)))).tangent.numpy()
    eps = 1e-6
    fd = (f(ftorch.tensor(x0 + eps * t0)).numpy() - f(ftorch.tensor(x0 - eps * t0)).numpy()) / (2 * eps)
    np.testing.assert_allclose(tan, fd, rtol=1e-5, atol=1e-7)
    _, jvp = ftorch.func.jvp(f, (ftorch.tensor(x0),), (ftorch.tensor(t0),))
    np.testing.assert_allclose(tan, jvp.numpy(), rtol=1e-12, atol=1e-14)


def test_level_rules_as_pytorch():
    fwAD = ftorch.autograd.forward_ad
    p, t = ftorch.tensor([1.0, 2.0]), ftorch.tensor([0.5, 0.25])
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(p, t)
    with fwAD.dual_level() as level:
        assert level == 0
        d = fwAD.make_dual(p, t)
        assert fwAD.unpack_dual(d).tangent is t  # the tangent as given (same layout)
        assert repr(d) == "tensor([1., 2.], tangent=tensor([0.5000, 0.2500]))"
        assert fwAD.unpack_dual(p).tangent is None
        assert fwAD.unpack_dual(d.detach()).tangent is None
        assert fwAD.unpack_dual(d.data).tangent is None
        with ftorch.inference_mode():
            assert fwAD.unpack_dual(d * 3).tangent is None
        with ftorch.no_grad():
            assert fwAD.unpack_dual(d * 3).tangent.tolist() == [1.5, 0.75]
        with pytest.raises(RuntimeError, match="Nested forward mode AD"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match="different size"):
            fwAD.make_dual(p, ftorch.ones(3))
        with pytest.raises(ValueError, match="Expected primal to be floating point"):
            fwAD.make_dual(ftorch.tensor([1, 2]), ftorch.ones(2))
        out = d * 3
        assert fwAD.unpack_dual(out).tangent.tolist() == [1.5, 0.75]
    assert fwAD.unpack_dual(out).tangent is None  # plain again after the level
    assert repr(out) == "tensor([3., 6.])"
    assert (out + 1).tolist() == [4.0, 7.0]


def test_inplace_write_to_a_dual_writes_its_source():
    fwAD = ftorch.autograd.forward_ad
    x = ftorch.tensor([1.0, 2.0, 3.0])
    with fwAD.dual_level():
        dx = fwAD.make_dual(x, ftorch.tensor([1.0, 0.0, 0.0]))
        dx[1:].mul_(2)
        assert fwAD.unpack_dual(dx).tangent.tolist() == [1.0, 0.0, 0.0]
    assert x.tolist() == [1.0, 4.0, 6.0]  # make_dual is a view of x, as in PyTorch


def test_custom_function_uses_its_jvp():
    fwAD = ftorch.autograd.forward_ad

    class Exp(ftorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_forward(y)
            return y

        @staticmethod
        def jvp(ctx, t):
            (y,) = ctx.saved_tensors
            return 2 * y * t  # deliberately not exp's derivative: the rule must be the one used

    class NoJvp(ftorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    x = ftorch.tensor([0.0, 1.0], dtype=ftorch.float64)
    with fwAD.dual_level():
        dx = fwAD.make_dual(x, ftorch.ones(2, dtype=ftorch.float64))
        np.testing.assert_allclose(fwAD.unpack_dual(Exp.apply(dx)).tangent.numpy(), 2 * np.exp([0.0, 1.0]))
        with pytest.raises(NotImplementedError, match="implement the jvp function"):
            NoJvp.apply(dx)


def test_gradcheck_checks_forward_mode():
    """Regression: check_forward_ad was accepted and ignored."""

    class WrongJvp(ftorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return x ** 2

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 3 * x * t

        @staticmethod
        def backward(ctx, g):
            return g

    x = ftorch.tensor([1.0, 2.0], dtype=ftorch.float64, requires_grad=True)
    with pytest.raises(ftorch.autograd.GradcheckError, match="Jacobian computed with forward mode mismatch"):
        ftorch.autograd.gradcheck(WrongJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False)
    assert ftorch.autograd.gradcheck(lambda v: (v.sin() * v).cumsum(0), (x,), check_forward_ad=True)
    with pytest.raises(AssertionError, match="at least one of check_forward_ad"):
        ftorch.autograd.gradcheck(lambda v: v, (x,), check_backward_ad=False)


def test_backward_through_dual_results_raises_instead_of_dropping_gradients():
    fwAD = ftorch.autograd.forward_ad
    w = ftorch.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        out = (fwAD.make_dual(w, ftorch.ones(2)) * 3).sum()
        assert out.requires_grad
        with pytest.raises(NotImplementedError, match="backward through a forward-AD computation"):
            (out + w.sum()).backward()


def test_func_jvp_tangent_survives_no_grad():
    """Regression: torch.func.jvp's tangent was zeroed by an inner no_grad (PyTorch keeps it)."""

    def f(x):
        with ftorch.no_grad():
            return x * 3

    _, t = ftorch.func.jvp(f, (ftorch.tensor([1.0, 2.0]),), (ftorch.tensor([0.5, 0.25]),))
    assert t.tolist() == [1.5, 0.75]
    g = ftorch.func.grad(lambda x: f(x).sum() + x.sum())(ftorch.tensor([1.0, 2.0]))
    assert g.tolist() == [1.0, 1.0]  # reverse mode still stops at no_grad


def test_func_inplace_write_to_a_view_updates_its_base():
    """Regression: under torch.func, an in-place op on a view left the base unchanged."""

    def f(x):
        h = x.clone()
        a = h.view(2, 2)
        b = h[0:2]
        a[1].mul_(10)
        b.add_(1)
        return h, a, b

    (h, a, b), (th, ta, tb) = ftorch.func.jvp(f, (ftorch.tensor([1.0, 2.0, 3.0, 4.0]),), (ftorch.ones(4),))
    assert h.tolist() == [2.0, 3.0, 30.0, 40.0] and a.tolist() == [[2.0, 3.0], [30.0, 40.0]]
    assert b.tolist() == [2.0, 3.0]
    assert th.tolist() == [1.0, 1.0, 10.0, 10.0] and ta.tolist() == [[1.0, 1.0], [10.0, 10.0]]

    def k(x):
        h = x.clone()
        h.view(2, 2)[1].mul_(10)
        return (h * x).sum()

    assert ftorch.func.grad(k)(ftorch.tensor([1.0, 2.0, 3.0, 4.0])).tolist() == [2.0, 4.0, 60.0, 80.0]
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        ftorch.func.grad(lambda x: x.clone()[:1].expand(3).mul_(2).sum())(ftorch.ones(2))
