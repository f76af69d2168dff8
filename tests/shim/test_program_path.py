"""The shim's per-signature program path (issue 11 follow-up): clamp's values at infinities
(its definition gave NaN once the hand-written forward was gone), the cheaper definitions
of relu/abs/clamp keep PyTorch's numbers, and the executor's host specializations (constants
built into the program, Python scalars converted once) give NumPy's own numbers and dtypes.

Expected numbers are PyTorch 2.13's (stored; checked live when torch is installed)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ft
from fgrad.torch import _dispatch
from fgrad.core.executor import straight_line

NAN, INF = float("nan"), float("inf")
X = [INF, -INF, NAN, -0.0, 0.5, 1.0, -1.0, 3.0, -3.0]
# (min, max) -> (values, gradient of clamp(x).sum()), PyTorch 2.13
CLAMP = {
    (-1.0, 1.0): ([1.0, -1.0, NAN, -0.0, 0.5, 1.0, -1.0, 1.0, -1.0],
                  [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]),
    (0.0, None): ([INF, 0.0, NAN, -0.0, 0.5, 1.0, 0.0, 3.0, 0.0],
                  [1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0]),
    (None, 0.0): ([0.0, -INF, NAN, -0.0, 0.0, 0.0, -1.0, 0.0, -3.0],
                  [0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0]),
    (2.0, -2.0): ([-2.0] * 2 + [NAN] + [-2.0] * 6, [0.0] * 9),
}
# clamp(x, lo=tensor(-1), hi=tensor(inf)): values, gradients to x, lo, hi
CLAMP_T = ([INF, -1.0, NAN, -0.0, 0.5, 1.0, -1.0, 3.0, -1.0],
           [[1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            [0.0] * 9])


def _same(got, want) -> None:
    got = np.asarray(got, np.float64)
    want = np.asarray(want, np.float64)
    np.testing.assert_array_equal(got, want)
    assert list(np.signbit(got)) == list(np.signbit(want))  # -0.0 kept where PyTorch keeps it


def _clamp_numbers(torch, dtype, bounds):
    x = torch.tensor(X, dtype=dtype, requires_grad=True)
    y = torch.clamp(x, *bounds)
    (g,) = torch.autograd.grad(y.sum(), x)
    return y.detach().numpy(), g.numpy()


@pytest.mark.parametrize("bounds", list(CLAMP), ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_clamp_scalar_bounds_values_and_gradient(bounds, dtype):
    """clamp(inf, -1, 1) was NaN (the definition's ``x * 0 + bound`` trick)."""
    y, g = _clamp_numbers(ft, getattr(ft, dtype), bounds)
    _same(y, CLAMP[bounds][0])
    _same(g, CLAMP[bounds][1])
    y2 = ft.clamp(ft.tensor(X, dtype=getattr(ft, dtype)), *bounds)  # the no-grad forward
    _same(y2.numpy(), CLAMP[bounds][0])
    xt = ft.tensor(X, dtype=getattr(ft, dtype))
    y3 = ft.func.vmap(lambda v: ft.clamp(v, *bounds))(xt)  # functional mode
    _same(y3.numpy(), CLAMP[bounds][0])


def test_clamp_tensor_bounds_values_and_gradient():
    x = ft.tensor(X, requires_grad=True)
    lo = ft.tensor([-1.0] * 9, requires_grad=True)
    hi = ft.tensor([INF] * 9, requires_grad=True)
    y = ft.clamp(x, lo, hi)
    _same(y.detach().numpy(), CLAMP_T[0])
    for got, want in zip(ft.autograd.grad(y.sum(), (x, lo, hi)), CLAMP_T[1]):
        _same(got.numpy(), want)
    hi_only = ft.clamp(ft.tensor([INF, 1.0]), max=ft.tensor([INF, INF]))
    _same(hi_only.numpy(), [INF, 1.0])  # inf clamped by inf was NaN


def test_clamp_numbers_match_live_torch():
    torch = pytest.importorskip("torch")
    for bounds, (vals, grads) in CLAMP.items():
        for dtype in (torch.float32, torch.float64):
            y, g = _clamp_numbers(torch, dtype, bounds)
            _same(y, vals)
            _same(g, grads)
    x = torch.tensor(X, requires_grad=True)
    lo = torch.tensor([-1.0] * 9, requires_grad=True)
    hi = torch.tensor([INF] * 9, requires_grad=True)
    y = torch.clamp(x, lo, hi)
    _same(y.detach().numpy(), CLAMP_T[0])
    for got, want in zip(torch.autograd.grad(y.sum(), (x, lo, hi)), CLAMP_T[1]):
        _same(got.numpy(), want)


@pytest.mark.parametrize("n", [1, 32, 5000])
def test_relu_and_abs_values_on_every_size(n):
    """relu is ``max(zeros, x)`` (one primitive; a tie returns the second operand, so -0.0
    stays -0.0 as in PyTorch) and abs the core's ``abs``, at every size NumPy's loops
    handle differently (sizes from 1,024 up took a select until round 13)."""
    base = np.array([-INF, -2.5, -0.0, 0.0, 1.5, INF, NAN], np.float32)
    x = np.resize(base, n)
    for dtype in (np.float32, np.float64):
        xv = x.astype(dtype)
        keep = np.isnan(xv) | (xv > 0) | ((xv == 0) & np.signbit(xv))
        _same(ft.relu(ft.tensor(xv)).numpy(), np.where(keep, xv, 0.0))
        _same(ft.abs(ft.tensor(xv)).numpy(), np.abs(xv))


@pytest.mark.parametrize("n", [7, 5000])
def test_relu_gradient_matches_live_torch(n):
    torch = pytest.importorskip("torch")
    x = np.resize(np.array([-INF, -2.5, -0.0, 0.0, 1.5, INF, NAN], np.float32), n)
    got = ft.tensor(x, requires_grad=True)
    y = ft.relu(got)
    y.backward(ft.arange(n, dtype=ft.float32))
    want = torch.tensor(x, requires_grad=True)
    ty = torch.relu(want)
    ty.backward(torch.arange(n, dtype=torch.float32))
    _same(y.detach().numpy(), ty.detach().numpy())
    _same(got.grad.numpy(), want.grad.numpy())


def test_forward_program_constant_is_not_handed_out():
    """A program whose output is its (built-in) constant returns a copy: writing the result
    must not change the next call's result."""
    const = np.ones(3)

    def f(x):
        return fnp.asarray(const)

    out = _dispatch.run_definition(("test const",), f, [np.zeros(3)], False)
    out[0][:] = 7.0
    again = _dispatch.run_definition(("test const",), f, [np.zeros(3)], False)
    np.testing.assert_array_equal(again[0], [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(const, [1.0, 1.0, 1.0])


@pytest.mark.parametrize(
    "f, x",
    [
        (lambda x: x + 1, np.arange(4, dtype=np.uint8)),
        (lambda x: x < -1, np.arange(4, dtype=np.uint8)),
        (lambda x: x * 0.5, np.arange(4, dtype=np.int32)),
        (lambda x: x * 0.1, np.arange(4, dtype=np.float32)),
        (lambda x: fnp.maximum(1e300, x), np.arange(4, dtype=np.float32)),
        (lambda x: x + True, np.arange(4, dtype=np.float16)),
        (lambda x: x == 2**40, np.arange(4, dtype=np.int32)),
        (lambda x: x * 1j, np.arange(4, dtype=np.complex64)),
    ],
)
def test_host_literals_give_numpys_numbers_and_dtypes(f, x):
    """The host program converts a Python scalar operand of a ufunc to a 0-d array once,
    only where NumPy's rule gives the same dtype and value: results equal eager fgrad's."""
    closed = fgrad.make_jaxpr(f)(x)
    run = straight_line(closed.jaxpr)
    (got,) = run(np, [*[np.asarray(c) for c in closed.consts], x])
    with np.errstate(all="ignore"):
        want = np.asarray(f(fnp.asarray(x)))
    assert np.asarray(got).dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    (got_host,) = run.host(np, [*[np.asarray(c) for c in closed.consts], x])
    np.testing.assert_array_equal(got_host, want)


# sigmoid below the float32 range: PyTorch's 1/(1 + exp(-x)) is 0 where exp(-x) overflows
# (the stable logistic of the functional face gives denormals there); PyTorch 2.13's numbers
SIG_X = [-200.0, -104.0, -103.9, -100.0, -88.8, -88.72, -88.0, -87.0, -20.0, 0.0, 0.7, 17.0, 88.0, 104.0]
SIG_F32 = [0.0, 0.0, 0.0, 0.0, 0.0, 2.947087615903095e-39, 6.054601485195952e-39, 1.6458114537543937e-38,
           2.06115369216775e-09, 0.5, 0.6681877374649048, 1.0, 1.0, 1.0]
SIG_F32_GRAD = [0.0, 0.0, 0.0, 0.0, 0.0, 2.947087615903095e-39, 6.054601485195952e-39, 1.6458114537543937e-38,
                2.06115369216775e-09, 0.25, 0.2217128872871399, 0.0, 0.0, 0.0]
SIG_F64 = [1.3838965267367376e-87, 6.813556821545298e-46, 7.530144847827766e-46, 3.7200759760208356e-44,
           2.720507997802789e-39, 2.947091131526051e-39, 6.054601895401186e-39, 1.6458114310822737e-38,
           2.0611536181902037e-09, 0.5, 0.6681877721681662, 0.9999999586006244, 1.0, 1.0]
SILU_F32_HEAD = [-0.0, -0.0, -0.0, -0.0, -0.0]  # silu(x) for the first five SIG_X, float32
SILU_F32_17 = 17.0  # silu(17.0): sigmoid(17) rounds to 1 in float32


def _close(got, want) -> None:
    """Within 3 float32 ulps (NumPy's exp and PyTorch's differ in the last place), and 0
    exactly where PyTorch gives 0."""
    got = np.asarray(got, np.float64)
    want = np.asarray(want, np.float64)
    np.testing.assert_allclose(got, want, rtol=3.6e-7, atol=0)
    assert list(got == 0) == list(want == 0)
    assert list(np.signbit(got)) == list(np.signbit(want))


def _sigmoid_numbers(torch, dtype):
    x = torch.tensor(SIG_X, dtype=dtype, requires_grad=True)
    y = torch.sigmoid(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    silu = torch.nn.functional.silu(torch.tensor(SIG_X, dtype=dtype))
    return y.detach().numpy(), g.numpy(), silu.numpy()


def test_sigmoid_and_silu_are_0_below_the_float32_range():
    """torch.sigmoid(-100.) was 3.8e-44 in float32 (PyTorch: 0), silu(-100.) -3.8e-42
    (PyTorch: -0.0) and silu(17.) 16.999998 (PyTorch: 17.0)."""
    y, g, silu = _sigmoid_numbers(ft, ft.float32)
    _close(y, SIG_F32)
    _close(g, SIG_F32_GRAD)
    _same(silu[:5], SILU_F32_HEAD)
    assert silu[SIG_X.index(17.0)] == SILU_F32_17
    y64, _, _ = _sigmoid_numbers(ft, ft.float64)
    np.testing.assert_allclose(y64, SIG_F64, rtol=1e-15, atol=0)
    x = ft.tensor(SIG_X)
    x.sigmoid_()
    _close(x.numpy(), SIG_F32)
    _close(ft.func.vmap(ft.sigmoid)(ft.tensor(SIG_X)).numpy(), SIG_F32)  # functional mode


def test_functional_face_sigmoid_keeps_the_stable_logistic():
    """The functional face is JAX's logistic (no change): exp(-logaddexp(0, -x))."""
    y = np.asarray(fgrad.nn.sigmoid(np.float64(-100.0)))
    assert y == np.exp(-np.logaddexp(0.0, 100.0))


def test_sigmoid_numbers_match_live_torch():
    torch = pytest.importorskip("torch")
    y, g, silu = _sigmoid_numbers(torch, torch.float32)
    _close(y, SIG_F32)
    _close(g, SIG_F32_GRAD)
    _same(silu[:5], SILU_F32_HEAD)
    assert silu[SIG_X.index(17.0)] == SILU_F32_17
    y64, _, _ = _sigmoid_numbers(torch, torch.float64)
    np.testing.assert_allclose(y64, SIG_F64, rtol=1e-15, atol=0)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_sigmoid_16_bit_keeps_pytorchs_gradient(dtype):
    """16-bit floats keep the primitive (PyTorch's numbers there: computed in float32 and
    rounded once, the backward reading the rounded output)."""
    x = ft.tensor([-3.0, -0.001, 0.7, 5.0], dtype=getattr(ft, dtype), requires_grad=True)
    y = ft.sigmoid(x)
    (g,) = ft.autograd.grad(y.sum(), x)
    yr = y.detach().float().numpy().astype(np.float64)
    want = (yr * (1 - yr)).astype(np.float32)
    np.testing.assert_allclose(g.float().numpy(), want, rtol=1e-2)


@pytest.mark.parametrize("index", [[0, 3, 5], [-1, 2], [7, -9, 1], [], [5, 5, 0]])
def test_host_gather_and_scatter_kernels_match_the_implementation(index):
    """The host programs' ``x[a]`` and ``x.at[a].set(u)`` kernels (one reduction when in
    bounds) give the implementation's numbers for in-bounds, negative, clipped/dropped and
    empty index arrays."""
    x = np.arange(6.0) * 1.5
    a = np.asarray(index, np.int64)
    u = np.arange(len(index), dtype=np.float64) + 10.0
    for f, args in ((lambda x, a: x[a], (x, a)), (lambda x, u, a: x.at[a].set(u), (x, u, a))):
        closed = fgrad.make_jaxpr(f)(*args)
        run = straight_line(closed.jaxpr)
        assert "def run_host" in run.source  # the host variant is specialized
        (host,) = run.host(np, [*[np.asarray(c) for c in closed.consts], *args])
        want = np.asarray(f(*[fnp.asarray(v) for v in args]))
        np.testing.assert_array_equal(host, want)


ABS_X = [INF, -INF, NAN, 0.0, -0.0, 2.0, -3.0]
ABS_GRAD = [1.0, -1.0, 0.0, 0.0, 0.0, 1.0, -1.0]  # PyTorch 2.13: sgn(x), sign(nan) = 0


def test_abs_gradient_is_pytorchs_sign_also_at_nan():
    """torch.abs's gradient at NaN was -1 (the core's rule); PyTorch's is sgn(nan) = 0."""
    for dtype in (ft.float32, ft.float64):
        x = ft.tensor(ABS_X, dtype=dtype, requires_grad=True)
        (g,) = ft.autograd.grad(ft.abs(x).sum(), x)
        _same(g.numpy(), ABS_GRAD)
    torch = pytest.importorskip("torch")
    x = torch.tensor(ABS_X, requires_grad=True)
    (g,) = torch.autograd.grad(torch.abs(x).sum(), x)
    _same(g.numpy(), ABS_GRAD)


def test_a_staging_error_is_raised_not_hidden_by_an_eager_run():
    """A definition that fails while being staged for any reason other than needing concrete
    values raises: the shim must not run it eagerly instead, where a broken rule could yield a
    different (wrong) result without a word.  (Before: every exception fell back to eager.)"""
    from fgrad.core.array import Tracer

    def f(x):
        if isinstance(x, Tracer):
            raise ValueError("rule bug while staging")
        return x + 1.0

    with pytest.raises(ValueError, match="rule bug while staging"):
        _dispatch.run_definition(("test staging error",), f, [np.zeros(3)], False)


def test_definitions_needing_concrete_values_or_holding_tensors_run_eagerly():
    """The two reasons a definition legitimately runs eagerly: it needs concrete values (a
    Python branch on its input), or it captures a value no trace can hold (a Tensor
    hyper-parameter such as Adam's ``betas=(torch.tensor(0.9), ...)``)."""
    def branchy(x):
        return x + 1.0 if float(fnp.sum(x)) > 0 else x - 1.0

    assert _dispatch.run_definition(("test branchy",), branchy, [np.ones(3)], False) is None
    beta = ft.tensor(0.5)

    def holds_tensor(x):
        return fnp.multiply(x, beta)

    assert _dispatch.run_definition(("test tensor const", beta), holds_tensor, [np.ones(3)], False) is None
    w = ft.nn.Parameter(ft.tensor([1.0, -2.0, 0.5]))
    opt = ft.optim.Adam([w], lr=0.1, betas=(ft.tensor(0.9), 0.999), foreach=False)
    w.grad = ft.tensor([0.3, -0.2, 0.1])
    opt.step()
    np.testing.assert_allclose(w.detach().numpy(), [0.9, -1.9, 0.4], rtol=1e-6)
