"""Issue 16: erf of float32 inputs from one float32-accurate polynomial, and the shim's GELU
backward reading the forward's normal cdf instead of evaluating erf again.  Accuracy is
checked against the float64 reference (``math.erf``) on many points, tails included."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad.ops.special as special
import fgrad.torch as torch
from fgrad import lax
from fgrad.testing.device_numerics import flushes_float32_subnormals, ftz_reference
from fgrad.torch.nn import functional as F


def _points(dtype) -> np.ndarray:
    rng = np.random.default_rng(16)
    tiny = np.logspace(-44 if dtype == np.float32 else -300, 0, 4000)
    pts = np.concatenate([
        rng.standard_normal(20000) * 3, rng.uniform(-6, 6, 20000), tiny, -tiny,
        np.linspace(3.8, 4.2, 2001), -np.linspace(0.0, 1.0, 2001), [0.0, -0.0, 3.92, 3.93, 4.0, 50.0, 1e30],
    ])
    return pts.astype(dtype)


def _reference(x: np.ndarray) -> np.ndarray:
    return np.array([math.erf(v) for v in x.astype(np.float64)])


def test_erf_float32_within_one_ulp_of_correct_rounding():
    x = _points(np.float32)
    got = np.asarray(lax.erf(x))
    assert got.dtype == np.float32
    # the correctly rounded float32 value (on a device that flushes float32 subnormals, of
    # the flushed input, flushed: docs/gpu_numerics.md)
    want = ftz_reference(lambda v: _reference(v).astype(np.float32), [x])
    ulps = np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(want))
    assert ulps.max() <= 1.0
    assert np.mean(got == want) > 0.999  # off by one ulp only next to a rounding midpoint
    assert np.array_equal(np.signbit(got), np.signbit(x))  # erf(-0.0) = -0.0


def test_erf_float32_special_values():
    got = np.asarray(lax.erf(np.array([np.inf, -np.inf, np.nan, 1e-45], np.float32)))
    assert got[0] == 1.0 and got[1] == -1.0 and np.isnan(got[2])
    # erf(x) ~ 2x/sqrt(pi) for the smallest subnormal; 0 where float32 subnormals flush
    assert got[3] == ftz_reference(lambda v: np.float32(v * 2 / math.sqrt(math.pi)), [np.float32(1e-45)])


def test_erf_float16_uses_the_float32_polynomial():
    x = np.linspace(-5, 5, 1001).astype(np.float16)
    got = np.asarray(lax.erf(x))
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, _reference(x).astype(np.float16))


def test_erf_float32_does_not_run_the_float64_series(monkeypatch):
    # the speed fix itself: the float64 series and continued fraction (up to 80 terms each)
    # are not evaluated for float32 input
    def fail(*a, **k):
        raise AssertionError("float64 series evaluated for a float32 input")

    monkeypatch.setattr(special, "_erf_series", fail)
    monkeypatch.setattr(special, "_erfc_cf", fail)
    lax.erf(np.linspace(-5, 5, 101).astype(np.float32))


def test_erf_float64_keeps_float64_accuracy():
    x = _points(np.float64)
    got = np.asarray(lax.erf(x))
    assert got.dtype == np.float64
    want = _reference(x)
    err = np.abs(got - want) / np.maximum(np.spacing(np.abs(want)), np.finfo(np.float64).tiny)
    assert err.max() <= 8


def _gelu_np(x):
    x = x.astype(np.float64)
    cdf = 0.5 * (1 + np.array([math.erf(v / math.sqrt(2)) for v in x]))
    pdf = np.exp(-x * x / 2) / math.sqrt(2 * math.pi)
    return x * cdf, cdf + x * pdf, (2 - x * x) * pdf  # value, first, second derivative


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_gelu_value_grad_and_double_backward(dtype):
    xn = np.concatenate([np.linspace(-9, 9, 301), [0.0, 1e-30, -1e-30]])
    x = torch.tensor(xn, dtype=dtype, requires_grad=True)
    y = F.gelu(x)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    v, d1, d2 = _gelu_np(xn)
    tol = 2e-6 if dtype == torch.float32 else 1e-13
    np.testing.assert_allclose(y.detach().numpy(), v, rtol=tol, atol=tol)
    np.testing.assert_allclose(g.detach().numpy(), d1, rtol=tol, atol=tol)
    np.testing.assert_allclose(h.numpy(), d2, rtol=10 * tol, atol=10 * tol)


def test_gelu_backward_does_not_evaluate_erf_again():
    x = torch.randn(64, requires_grad=True)
    y = F.gelu(x)
    prims = {e.prim.name for e in y.grad_fn._prog.jaxpr.eqns}
    assert "erf" not in prims  # it reads the forward's cdf (a saved output)


def test_gelu_matches_torch_live():
    pt = pytest.importorskip("torch")
    xn = (3 * np.random.default_rng(0).standard_normal(4096)).astype(np.float32)
    x = torch.tensor(xn, requires_grad=True)
    F.gelu(x).sum().backward()
    xt = pt.tensor(xn, requires_grad=True)
    pt.nn.functional.gelu(xt).sum().backward()
    np.testing.assert_allclose(F.gelu(torch.tensor(xn)).numpy(), pt.nn.functional.gelu(pt.tensor(xn)).numpy(),
                               rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-5, atol=1e-6)


def _awkward_float32():
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.standard_normal(3 * special._BLOCK + 123) * 3,
                        [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-45, -1e-40, 3.92, -4.5, 6e4]])
    return x.astype(np.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_erf_blocked_evaluation_equals_the_whole_array_one(dtype):
    # the cache-blocked host evaluation is the same arithmetic as the whole-array one: equal
    # bits (NaN, inf, -0.0, subnormals, a partial last block, a non-contiguous input)
    x = _awkward_float32().astype(dtype)
    for arr in (x, x[::-1][::2], x[: 2 * special._BLOCK].reshape(64, -1).T):
        got = special._erf_impl(arr)
        want = special._erf_low_precision(np, np.ascontiguousarray(arr))
        assert got.dtype == dtype and got.shape == arr.shape
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))


def test_erf_float32_large_array_uses_the_blocked_evaluation(monkeypatch):
    calls = []
    real = special._erf_low_precision_blocked
    monkeypatch.setattr(special, "_erf_low_precision_blocked", lambda x: calls.append(x.shape) or real(x))
    special._erf_impl(np.zeros((256, 1024), np.float32))  # (a host array on every backend)
    assert calls == [(256, 1024)]


@pytest.mark.parametrize("use_scipy", [True, False])
def test_erf_float64_accuracy_with_and_without_scipy(monkeypatch, use_scipy):
    if use_scipy:
        pytest.importorskip("scipy.special")
    else:
        monkeypatch.setattr(special, "_scipy_erf", lambda: None)
    x = np.concatenate([_points(np.float64), [np.inf, -np.inf, 5e-324, -5e-324, 1e-310]])
    got = special._erf_impl(x)
    assert got.dtype == np.float64
    want = _reference(x)
    err = np.abs(got - want) / np.maximum(np.spacing(np.abs(want)), np.finfo(np.float64).tiny)
    assert err.max() <= 8
    assert np.array_equal(np.signbit(got), np.signbit(x))
    assert np.isnan(special._erf_impl(np.array([np.nan])))[0]


def test_erf_inv_of_negative_zero_is_negative_zero():
    # as jax.scipy.special.erfinv and math: an odd function keeps the sign of zero
    got = np.asarray(lax.erf_inv(np.array([-0.0, 0.0, -0.5], np.float64)))
    assert np.signbit(got[0]) and not np.signbit(got[1]) and got[2] < 0


def test_erf_float32_rational_is_float64_accurate():
    # the fitted P/Q itself, in float64 against the float64 erf: relative error far under
    # float32's half-ulp (3e-8), so float32 results are correctly rounded but near midpoints
    a = np.concatenate([np.linspace(0.0, 4.0, 200001), np.logspace(-300, 0, 2000)])
    w = a * a
    num, den = np.empty_like(w), np.empty_like(w)
    special._horner_into(num, w, special._ERF32_P)
    special._horner_into(den, w, special._ERF32_Q)
    want = special._erf_abs(np, a)
    rel = np.abs(a * num / den - want) / want.clip(np.finfo(np.float64).tiny)
    assert rel[a > 0].max() < 1e-11
    assert all(c > 0 for c in special._ERF32_P + special._ERF32_Q)  # no cancellation in Horner


# ---------------------------------------------------------------------------------------------
# erf in float32 arithmetic (the normal cdf of the shim's float32 GELU)


def test_gelu_float32_evaluates_erf_in_float32(monkeypatch):
    # the float32 GELU does not run lax.erf (its float64 evaluation, 2.5x slower); float64
    # and the 16-bit floats still do
    calls = []
    for attr in ("impl", "ufunc"):  # (the executors call the ufunc attribute directly)
        real = getattr(special.erf_p, attr)
        spy = lambda *a, _r=real: calls.append(np.dtype(a[-1].dtype)) or _r(*a)  # noqa: E731
        monkeypatch.setattr(special.erf_p, attr, spy)
    F.gelu(torch.linspace(-3, 3, 13, dtype=torch.float32) + 0.125)  # a signature not staged before
    F.gelu(torch.linspace(-3, 3, 13, dtype=torch.bfloat16) + 0.125)  # computed in float32
    assert calls == []
    F.gelu(torch.linspace(-3, 3, 13, dtype=torch.float64) + 0.125)
    assert calls == [np.dtype(np.float64)]
    F.gelu(torch.linspace(-3, 3, 13, dtype=torch.float16) + 0.125)  # keeps the correctly rounded erf
    assert len(calls) > 1


# PyTorch 2.13 (CPU, AVX512) F.gelu of these float32 inputs, and its gradient (of the sum)
_GELU_X = [-9.0, -5.5, -3.1, -1.7, -0.9, -0.3, -1e-3, -0.0, 0.0, 1e-3, 0.25, 0.7, 1.3, 2.2, 3.7, 6.0]
_GELU_TORCH = ['-0x0.0p+0', '-0x1.6p-23', '-0x1.8927b2p-9', '-0x1.365188p-4', '-0x1.534276p-3',
               '-0x1.d582aep-4', '-0x1.05ef52p-11', '-0x0.0p+0', '0x0.0p+0', '0x1.065a6ap-11',
               '0x1.3289a2p-3', '0x1.0fae24p-1', '0x1.2c95b4p+0', '0x1.15af4ep+1', '0x1.d98c8ap+1',
               '0x1.8p+2']
_GELU_GRAD_TORCH = ['0x0.0p+0', '-0x1.3p-21', '-0x1.2c234p-7', '-0x1.d857a8p-4', '-0x1.c5f92p-5',
                    '0x1.1218aep-2', '0x1.ff2edcp-2', '0x1.0p-1', '0x1.0p-1', '0x1.006892p-1',
                    '0x1.6407f8p-1', '0x1.f406c4p-1', '0x1.204022p+0', '0x1.106b86p+0', '0x1.005ffp+0',
                    '0x1.0p+0']


def test_gelu_float32_matches_stored_pytorch():
    x = torch.tensor(np.float32(_GELU_X), requires_grad=True)
    y = F.gelu(x)
    y.sum().backward()
    want = np.float32([float.fromhex(h) for h in _GELU_TORCH])
    want_g = np.float32([float.fromhex(h) for h in _GELU_GRAD_TORCH])
    # PyTorch's own kernel is a few float32 ulp from the exact GELU, so is fgrad's (where
    # 1 + erf cancels, for x < -1, that is ~1e-7 absolute in both)
    np.testing.assert_allclose(y.detach().numpy(), want, rtol=4e-7, atol=1.5e-7)
    np.testing.assert_allclose(x.grad.numpy(), want_g, rtol=4e-7, atol=1.5e-7)
    v, d1, _ = _gelu_np(np.float64(_GELU_X))
    np.testing.assert_allclose(y.detach().numpy(), v, rtol=4e-7, atol=1.5e-7)
    np.testing.assert_allclose(x.grad.numpy(), d1, rtol=4e-7, atol=1.5e-7)


def test_gelu_float32_error_within_pytorchs():
    pt = pytest.importorskip("torch")
    xn = np.concatenate([(3 * np.random.default_rng(1).standard_normal(1 << 16)),
                         np.linspace(-9, 9, 1 << 14)]).astype(np.float32)
    exact = np.array([v * 0.5 * math.erfc(-v / math.sqrt(2)) for v in xn.astype(np.float64)])
    ours = np.abs(F.gelu(torch.tensor(xn)).numpy() - exact)
    theirs = np.abs(pt.nn.functional.gelu(pt.tensor(xn)).numpy() - exact)
    assert ours.max() <= theirs.max() * 1.2  # both about 1 ulp of the largest results
    assert ours.mean() <= theirs.mean()


def test_gelu_bfloat16_is_the_rounded_exact_gelu():
    # erf in float32 arithmetic is a few float32 ulp off; rounding to bfloat16's 8 bits absorbs
    # that but next to a rounding midpoint
    xn = np.concatenate([np.random.default_rng(2).standard_normal(1 << 15) * 3, np.linspace(-6, 6, 4097)])
    x = torch.tensor(xn, dtype=torch.float32).to(torch.bfloat16)
    got = F.gelu(x).float().numpy().astype(np.float64)
    xs = x.float().numpy().astype(np.float64)
    exact = torch.tensor(xs * 0.5 * np.array([math.erfc(-v / math.sqrt(2)) for v in xs]))
    want = exact.to(torch.bfloat16).float().numpy().astype(np.float64)
    ulp = np.abs(want) * 2.0 ** -7 + 1e-38
    m = xs > -3  # below, 1 + erf cancels in float32 (as in PyTorch's kernel): ~1e-7 absolute
    assert np.max(np.abs(got - want)[m] / ulp[m]) <= 1.01
    assert np.mean(got[m] == want[m]) > 0.998
    assert np.max(np.abs(got - want)) < 2.5e-6  # PyTorch float32: up to ~1e-6 there


# ---------------------------------------------------------------------------------------------
# the float32 GELU and its derivative from the Mills ratio (no 1 + erf cancellation)


def _gelu_exact(xs: np.ndarray):
    xs = xs.astype(np.float64)
    cdf = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in xs])
    pdf = np.exp(-xs * xs / 2) / math.sqrt(2 * math.pi)
    return xs * cdf, cdf + xs * pdf, (2 - xs * xs) * pdf


def test_gelu_float32_arithmetic_within_a_few_ulp():
    from fgrad.nn._activations import gelu_erf_float32_arithmetic

    rng = np.random.default_rng(5)
    x = np.concatenate([3 * rng.standard_normal(1 << 15), np.linspace(-14, 14, 1 << 14),
                        np.logspace(-44, 1, 500), -np.logspace(-44, 1, 500)]).astype(np.float32)
    y, d = map(np.asarray, gelu_erf_float32_arithmetic(x))
    assert y.dtype == d.dtype == np.float32
    want_y, want_d, _ = _gelu_exact(x)
    if flushes_float32_subnormals():  # (a GPU flushes subnormal inputs and results to zero)
        flushed = (np.abs(x) < np.finfo(np.float32).tiny) | (np.abs(want_y) < np.finfo(np.float32).tiny)
        assert np.all(np.abs(y[flushed]) <= 2 * np.finfo(np.float32).tiny)
        x, y, d, want_y, want_d = (v[~flushed] for v in (x, y, d, want_y, want_d))
    # within 3 ulp of x (where Phi(x) is tiny, the result is tiny: exp(-x^2/2) of a rounded
    # square), and of y itself for x >= 0
    assert np.all(np.abs(y - want_y) <= 3 * np.spacing(np.abs(x)).astype(np.float64))
    pos = x >= 0
    assert np.all(np.abs(y - want_y)[pos] <= 3 * np.spacing(np.abs(y[pos])).astype(np.float64))
    assert np.max(np.abs(d - want_d)) <= 2.5e-7  # 2 ulp of 1 (the derivative is at most 1.13)


def test_gelu_float32_derivative_where_its_terms_cancel():
    # the derivative is Phi(x) + x phi(x) with Phi = |[x >= 0] - h| (h the tail): below 0 the
    # two terms h and x phi(x) nearly cancel around x = -0.75 (the derivative's zero), and at
    # 0 the two branches 1 - h and h meet; within 2 ulp of 1 there, as everywhere
    from fgrad.nn._activations import gelu_erf_float32_arithmetic

    x = np.concatenate([np.linspace(-0.9, -0.6, 1 << 13), np.linspace(-1e-3, 1e-3, 1 << 12),
                        np.float32([-1e-30, 1e-30])]).astype(np.float32)
    y, d = map(np.asarray, gelu_erf_float32_arithmetic(x))
    want_y, want_d, _ = _gelu_exact(x)
    assert np.max(np.abs(d - want_d)) <= 2.5e-7
    assert np.all(np.abs(y - want_y) <= 3 * np.spacing(np.abs(x)).astype(np.float64))
    # the sign changes at the derivative's zero (x = -0.751791524...), as the exact one's
    zero = -0.75179165
    assert (d[x < zero - 1e-4] < 0).all() and (d[(x > zero + 1e-4) & (x < 0)] > 0).all()


def test_gelu_float32_arithmetic_special_values():
    from fgrad.nn._activations import gelu_erf_float32_arithmetic

    x = np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e30, -20.0, 4e9, -4e9])
    y, d = map(np.asarray, gelu_erf_float32_arithmetic(x))
    assert y[0] == 0 and not np.signbit(y[0]) and y[1] == 0 and np.signbit(y[1])
    assert d[0] == 0.5 and d[1] == 0.5  # the slope at 0 exactly
    assert np.isnan(y[2:5]).all() and np.isnan(d[2:5]).all()  # PyTorch: NaN at +-inf too
    np.testing.assert_array_equal(y[5:], np.float32([1e30, -0.0, -0.0, 4e9, -0.0]))
    np.testing.assert_array_equal(d[5:], np.float32([1.0, 0.0, 0.0, 1.0, 0.0]))
    with pytest.raises(TypeError, match="float32"):
        gelu_erf_float32_arithmetic(np.float64([1.0]))


def test_gelu_float32_infinities_give_nan_like_pytorch():
    # (the erf form gave gelu(inf) = inf and a NaN gradient)
    x = torch.tensor([float("inf"), float("-inf"), 1.0], requires_grad=True)
    y = F.gelu(x)
    y.sum().backward()
    assert np.isnan(y.detach().numpy()[:2]).all() and np.isnan(x.grad.numpy()[:2]).all()
    pt = pytest.importorskip("torch")
    xt = pt.tensor([float("inf"), float("-inf"), 1.0], requires_grad=True)
    yt = pt.nn.functional.gelu(xt)
    yt.sum().backward()
    # PyTorch's value at +-inf depends on the CPU its kernel runs on: NaN from the AVX-512
    # kernels fgrad follows, (inf, -0.) from the AVX2 ones; the finite entry and the NaN
    # gradients agree on both
    np.testing.assert_array_equal(y.detach().numpy()[2:], yt.detach().numpy()[2:])
    assert np.isnan(xt.grad.numpy()[:2]).all()


def test_gelu_float32_at_minus_one_is_pytorchs():
    # PyTorch 2.13: F.gelu(-1.0) = -0x1.44ed0cp-3 (-0.15865526, the exact GELU rounded); the
    # erf form gave -0.15865523, 2 ulp above
    y = F.gelu(torch.tensor([-1.0, -1.0], dtype=torch.float32))
    assert (y.numpy() == np.float32(float.fromhex("-0x1.44ed0cp-3"))).all()


def test_gelu_float32_arithmetic_derivatives():
    import fgrad
    from fgrad.nn._activations import gelu_erf_float32_arithmetic as g

    x = np.linspace(-5, 5, 41).astype(np.float32)
    _, d1, d2 = _gelu_exact(x)
    y, d = g(x)
    # reverse mode (vmap of grad: the batching of the rule), forward mode and second order
    np.testing.assert_allclose(fgrad.vmap(fgrad.grad(lambda v: g(v)[0]))(x), d1, rtol=1e-6, atol=3e-7)
    t = np.linspace(0.5, 1.5, 41).astype(np.float32)
    _, (ty, td) = fgrad.jvp(g, (x,), (t,))
    np.testing.assert_allclose(ty, d1 * t, rtol=1e-6, atol=5e-7)
    np.testing.assert_allclose(td, d2 * t, rtol=1e-5, atol=1e-6)
    h = fgrad.vmap(fgrad.grad(fgrad.grad(lambda v: g(v)[0])))(x)
    np.testing.assert_allclose(h, d2, rtol=1e-5, atol=1e-6)
    # the second output's own derivative (what double backward of the shim reads)
    np.testing.assert_allclose(fgrad.vmap(fgrad.grad(lambda v: g(v)[1]))(x), d2, rtol=1e-5, atol=1e-6)
    # under jit: the same values
    jy, jd = fgrad.jit(g)(x)
    np.testing.assert_array_equal(np.asarray(jy), np.asarray(y))
    np.testing.assert_array_equal(np.asarray(jd), np.asarray(d))


def test_gelu_float32_closer_to_exact_than_pytorch():
    # the erf form was within 1.2x of PyTorch's largest error (1.6e-6 vs 1.2e-6 on these points)
    pt = pytest.importorskip("torch")
    xn = np.concatenate([(3 * np.random.default_rng(1).standard_normal(1 << 16)),
                         np.linspace(-9, 9, 1 << 14)]).astype(np.float32)
    want_y, want_d, _ = _gelu_exact(xn)
    x = torch.tensor(xn, requires_grad=True)
    y = F.gelu(x)
    y.sum().backward()
    xt = pt.tensor(xn, requires_grad=True)
    yt = pt.nn.functional.gelu(xt)
    yt.sum().backward()
    # no worse than PyTorch's kernel (on AVX-512 machines fgrad's largest errors were below half
    # and 0.7 of PyTorch's; PyTorch's AVX2 kernel is more accurate: 3.7e-7 against fgrad's 2.4e-7)
    assert np.abs(y.detach().numpy() - want_y).max() <= np.abs(yt.detach().numpy() - want_y).max()
    assert np.abs(x.grad.numpy() - want_d).max() <= np.abs(xt.grad.numpy() - want_d).max()


def test_gelu_bfloat16_is_the_rounded_exact_gelu_in_the_tail_too():
    # computed in float32 without 1 + erf cancellation, the bfloat16 GELU is the exact GELU
    # rounded once for x < -3 as well (the erf form: about half of them; PyTorch's kernel too)
    xn = np.concatenate([np.random.default_rng(2).standard_normal(1 << 14) * 3, np.linspace(-9, -3, 2049)])
    x = torch.tensor(xn, dtype=torch.float32).to(torch.bfloat16)
    got = F.gelu(x).float().numpy()
    xs = x.float().numpy().astype(np.float64)
    exact = xs * 0.5 * np.array([math.erfc(-v / math.sqrt(2)) for v in xs])
    want = torch.tensor(exact).to(torch.bfloat16).float().numpy()
    if flushes_float32_subnormals():  # (the float32 evaluation flushes subnormal results)
        keep = np.abs(exact) >= np.finfo(np.float32).tiny
        got, want = got[keep], want[keep]
    assert np.mean(got == want) > 0.999
