"""`fgrad.core.native_fma`: the C fused multiply-add gives the correctly rounded ``a * b + c``
(checked against exact rational arithmetic), the same bits as `fgrad.torch._fma`'s NumPy
forms (which run with the native loops off, or without a compiler) outside float32
subnormal results, and PyTorch's fused kernels' bits where PyTorch is installed; cases it
does not take are left to NumPy (None)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from fgrad.core import native_fma
from fgrad.torch import _fma
from tests._native_switch import native_loops_off, needs_native
from tests._peers import torch_or_none

needs_cc = needs_native


def _numpy_forms(fn, *args):
    """``fn(*args)`` with the native loops off: `_fma`'s NumPy forms (under the shim's quiet
    error state, as their callers run them)."""
    with native_loops_off(), np.errstate(all="ignore"):
        return fn(*args)


def _operands(dt, n=4096, seed=0):
    """Products near the addend's size (where the single rounding shows), a spread of
    exponents, signed zeros, infinities and NaN."""
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(n) * 2.0 ** rng.integers(-20, 20, n)).astype(dt)
    b = rng.standard_normal(n).astype(dt)
    c = (-(a.astype(np.float64) * b) * (1 + rng.standard_normal(n) * 1e-6)).astype(dt)
    c[::7] = rng.standard_normal(c[::7].shape).astype(dt)
    a[:6] = [0.0, -0.0, np.inf, 1.0, np.nan, 2.0]
    b[:6] = [-1.0, 3.0, 0.0, -np.inf, 1.0, 3.0]
    c[:6] = [-0.0, -0.0, 1.0, 5.0, 1.0, np.nan]
    return a, b, c


def _exact(a, b, c, dt):
    """The correctly rounded fused value of finite operands (Fraction arithmetic, then the
    nearest ``dt`` value with ties to even via float64 for float32 -- exact: float64 holds
    a float32 product plus an addend rounded to 53 bits only where the rounding to float32
    cannot tie -- and via Fraction's own rounding for float64)."""
    out = []
    for x, y, z in zip(a.tolist(), b.tolist(), c.tolist()):
        exact = Fraction(x) * Fraction(y) + Fraction(z)
        if dt == np.float64:
            out.append(float(exact))  # (Fraction -> float rounds to nearest, ties to even)
        else:
            near = np.float32(float(exact))  # may round twice: fix with the neighbours
            cands = [np.nextafter(near, np.float32(-np.inf)), near, np.nextafter(near, np.float32(np.inf))]
            errs = [abs(Fraction(float(v)) - exact) for v in cands]
            best = min(errs)
            ties = [v for v, e in zip(cands, errs) if e == best]
            out.append(float(ties[0] if len(ties) == 1 else [v for v in ties if
                                                            not (v.view(np.uint32) & 1)][0]))
    return np.array(out, dt)


@needs_cc
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_correctly_rounded_and_the_numpy_forms_bits(dt):
    a, b, c = _operands(dt)
    fn = _fma.fma32 if dt == np.float32 else _fma.fma64
    got = native_fma.fused_multiply_add(a, b, c)
    assert got is not None and got.dtype == dt
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got.view(np.uint8), fn(a, b, c).view(np.uint8))
    old = _numpy_forms(fn, a, b, c)
    if dt == np.float32:
        np.testing.assert_array_equal(got.view(np.uint8), old.view(np.uint8))
    else:  # the same bits, but for a zero's sign: fma64's TwoSum gives 0 * -1 + -0 as +0, IEEE -0
        np.testing.assert_array_equal(got, old)
        zero = got == 0
        assert (np.signbit(got[~zero]) == np.signbit(old[~zero])).all()
        assert np.signbit(got[1]) and not np.signbit(old[1])  # (-0 * 3 + -0)
    finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
    k = np.flatnonzero(finite)[:400]
    np.testing.assert_array_equal(got[k], _exact(a[k], b[k], c[k], dt))
    # one value broadcast (add with alpha: fma(alpha, y, x)), in every position
    s = np.asarray(0.1, dt)
    for args in ((s, b, c), (a, s, c), (a, b, s)):
        got, old = native_fma.fused_multiply_add(*args), _numpy_forms(fn, *args)
        np.testing.assert_array_equal(got, old)
        assert (np.signbit(got) == np.signbit(old))[got != 0].all()


@needs_cc
def test_float32_subnormal_results_round_once():
    """Where the fused value is a float32 subnormal, the NumPy form may round twice; the C
    loop rounds once (PyTorch's hardware FMA)."""
    # a * b = 2**-130 * (1 + 2**-23) + c lands between subnormals: one rounding of the exact
    # value differs from rounding its float64 value
    a = np.full(64, 2.0 ** -65, np.float32)
    b = np.full(64, np.float32(2.0 ** -65 * (1 + 2 ** -23)) / np.float32(2.0 ** -65), np.float32)
    c = (np.arange(64, dtype=np.float32) - 32) * np.float32(2.0 ** -149)
    got = native_fma.fused_multiply_add(a, b, c)
    np.testing.assert_array_equal(got, _exact(a, b, c, np.float32))


def test_declines_what_it_does_not_take():
    a32, a64 = np.ones(64, np.float32), np.ones(64)
    assert native_fma.fused_multiply_add(a32, a64, a32) is None  # mixed dtypes
    assert native_fma.fused_multiply_add(a32.astype(np.float16), a32.astype(np.float16),
                                         a32.astype(np.float16)) is None
    assert native_fma.fused_multiply_add(a32, a32, np.ones((2, 64), np.float32)) is None  # broadcasting
    assert native_fma.fused_multiply_add(a32[::2], a32[::2], a32[::2]) is None  # strided
    assert native_fma.fused_multiply_add(a32[:4], a32[:4], a32[:4]) is None  # small: NumPy's forms
    assert native_fma.fused_multiply_add(1.0, a32, a32) is None  # a Python number
    assert native_fma.fused_multiply_add(np.ones((1, 1), np.float32), a32, a32) is None  # rank grows
    assert _numpy_forms(native_fma.fused_multiply_add, a32, a32, a32) is None  # native loops off


def test_shim_ops_and_the_optimizer_step_are_the_same_with_and_without_native():
    """``add(alpha=)``, ``addcmul`` and an Adam step with weight decay (its `_step_plain` now
    calls `_fma.add_alpha` on the buffers) give the same bits either way."""
    import fgrad.torch as ft

    def run():
        ft.manual_seed(0)
        w = ft.nn.Parameter(ft.randn(40, 30))
        opt = ft.optim.Adam([w], lr=0.01, weight_decay=0.1)
        for _ in range(5):
            opt.zero_grad()
            (w.sin() * w).sum().backward()
            opt.step()
        x, y = ft.randn(50, 20), ft.randn(50, 20)
        return [w.detach().numpy(), ft.add(x, y, alpha=0.3).numpy(), ft.addcmul(x, x, y, value=0.7).numpy(),
                ft.add(x.double(), y.double(), alpha=0.3).numpy()]

    for got, want in zip(run(), _numpy_forms(run)):
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@needs_cc
def test_pytorchs_fused_bits():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch not installed (the exact-arithmetic tests above hold without it)")
    for dt, tdt in ((np.float32, torch.float32), (np.float64, torch.float64)):
        a, b, c = _operands(dt, seed=3)
        k = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        a, b, c = a[k], b[k], c[k]
        want = torch.addcmul(torch.from_numpy(c), torch.from_numpy(a), torch.from_numpy(b)).numpy()
        assert want.dtype == np.dtype(dt) and tdt is not None
        np.testing.assert_array_equal(native_fma.fused_multiply_add(a, b, c), want)
