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
    """relu is ``max(0, x)`` (one primitive; a tie returns the second operand, so -0.0
    stays -0.0 as in PyTorch) and abs the core's ``abs``, at every size NumPy's loops
    handle differently."""
    base = np.array([-INF, -2.5, -0.0, 0.0, 1.5, INF, NAN], np.float32)
    x = np.resize(base, n)
    for dtype in (np.float32, np.float64):
        xv = x.astype(dtype)
        keep = np.isnan(xv) | (xv > 0) | ((xv == 0) & np.signbit(xv))
        _same(ft.relu(ft.tensor(xv)).numpy(), np.where(keep, xv, 0.0))
        _same(ft.abs(ft.tensor(xv)).numpy(), np.abs(xv))


def test_relu_gradient_matches_live_torch():
    torch = pytest.importorskip("torch")
    x = [-INF, -2.5, -0.0, 0.0, 1.5, INF, NAN]
    got = ft.tensor(x, requires_grad=True)
    ft.relu(got).sum().backward()
    want = torch.tensor(x, requires_grad=True)
    torch.relu(want).sum().backward()
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
