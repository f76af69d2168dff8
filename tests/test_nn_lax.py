"""fgrad.nn and fgrad.lax: forward vs independent NumPy references, derivatives vs finite
differences (orders 1 and 2, forward and reverse), vmap vs Python loops, stop_gradient, and
numerical stability of softmax / log_softmax / logsumexp."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad
import fgrad.lax as lax
import fgrad.nn as nn
import fgrad.numpy as fnp
from fgrad.core.primitive import PRIMITIVES
from fgrad.testing import check_grads
from fgrad.testing.device_numerics import assert_equal_up_to_device_ulps

RNG = np.random.default_rng(7)


def _logistic_compiled_bug() -> bool:
    """Engine bug (not in this file's scope): ``logistic_p`` is made by ``unary(..., np.exp)``
    and then gets a new ``impl``, but keeps ``ufunc = np.exp``; compiled programs (jit and
    the top-level reverse-mode tape) call the ufunc, so they compute exp instead of the
    logistic function."""
    got = float(np.asarray(fgrad.jit(lax.logistic)(fnp.asarray([0.3])))[0])
    return abs(got - 1 / (1 + math.exp(-0.3))) > 1e-12


LOGISTIC_BUG = _logistic_compiled_bug()
logistic_bug = pytest.mark.xfail(LOGISTIC_BUG, strict=True,
                                 reason="engine bug: logistic_p.ufunc is np.exp (see _logistic_compiled_bug)")


def A(x, dtype=None):
    return fnp.asarray(np.asarray(x, dtype=dtype))


def away_from(x, points, dist=0.05):
    """Push values at least ``dist`` away from kinks."""
    x = np.array(x, dtype=float)
    for p in points:
        close = np.abs(x - p) < dist
        x[close] = p + dist * np.where(x[close] >= p, 1.0, -1.0) * 2
    return x


_verf = np.vectorize(math.erf)
_SELU_A, _SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _np_softplus(x):
    return np.logaddexp(x, 0.0)


def _np_sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# name -> (fgrad fn, numpy reference, kinks)
ACTIVATIONS = {
    "relu": (nn.relu, lambda x: np.maximum(x, 0), [0.0]),
    "relu6": (nn.relu6, lambda x: np.clip(x, 0, 6), [0.0, 6.0]),
    "leaky_relu": (lambda x: nn.leaky_relu(x, 0.2), lambda x: np.where(x >= 0, x, 0.2 * x), [0.0]),
    "elu": (lambda x: nn.elu(x, 1.5), lambda x: np.where(x > 0, x, 1.5 * (np.exp(x) - 1)), [0.0]),
    "celu": (lambda x: nn.celu(x, 0.7), lambda x: np.maximum(x, 0) + 0.7 * np.expm1(np.minimum(x, 0) / 0.7),
             [0.0]),
    "selu": (nn.selu, lambda x: _SELU_S * np.where(x > 0, x, _SELU_A * np.expm1(x)), [0.0]),
    "gelu_tanh": (nn.gelu, lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))),
                  []),
    "gelu_exact": (lambda x: nn.gelu(x, approximate=False), lambda x: x * 0.5 * (1 + _verf(x / np.sqrt(2))),
                   []),
    "sigmoid": (nn.sigmoid, _np_sigmoid, []),
    "log_sigmoid": (nn.log_sigmoid, lambda x: -np.log1p(np.exp(-x)), []),
    "softplus": (nn.softplus, lambda x: np.log1p(np.exp(x)), []),
    "soft_sign": (nn.soft_sign, lambda x: x / (np.abs(x) + 1), [0.0]),
    "silu": (nn.silu, lambda x: x * _np_sigmoid(x), []),
    "hard_tanh": (nn.hard_tanh, lambda x: np.clip(x, -1, 1), [-1.0, 1.0]),
    "hard_sigmoid": (nn.hard_sigmoid, lambda x: np.clip(x + 3, 0, 6) / 6, [-3.0, 3.0]),
    "hard_silu": (nn.hard_silu, lambda x: x * np.clip(x + 3, 0, 6) / 6, [-3.0, 3.0]),
    "mish": (nn.mish, lambda x: x * np.tanh(np.log1p(np.exp(x))), []),
    "tanh": (nn.tanh, np.tanh, []),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_forward_and_dtype(name):
    f, ref, _ = ACTIVATIONS[name]
    x = np.concatenate([RNG.normal(size=20) * 3, [0.0, -1.0, 1.0, 6.0, -3.0, 3.0, 7.5, -7.5]])
    np.testing.assert_allclose(np.asarray(f(A(x))), ref(x), rtol=1e-13, atol=1e-15)
    x32 = x.astype(np.float32)
    out32 = f(A(x32))
    assert out32.dtype == np.float32, name
    np.testing.assert_allclose(np.asarray(out32), ref(x), rtol=2e-6, atol=2e-6)


USES_LOGISTIC = {"sigmoid", "silu"}
ACT_PARAMS = [pytest.param(n, marks=logistic_bug) if n in USES_LOGISTIC else n for n in sorted(ACTIVATIONS)]


@pytest.mark.parametrize("name", ACT_PARAMS)
def test_activation_grads(name):
    f, _, kinks = ACTIVATIONS[name]
    x = away_from(RNG.normal(size=(3, 4)) * 2.5, kinks)
    check_grads(f, (A(x),), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("name", ACT_PARAMS)
def test_activation_vmap_of_grad(name):
    f, _, kinks = ACTIVATIONS[name]
    x = away_from(RNG.normal(size=(5, 3)) * 2.5, kinks)
    g = lambda v: fgrad.grad(lambda w: fnp.sum(f(w)))(v)
    got = fgrad.vmap(g, in_axes=1)(A(x))
    want = np.stack([np.asarray(g(A(x[:, i]))) for i in range(3)])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-14)


def test_relu_family_derivative_at_kinks():
    assert float(fgrad.grad(nn.relu)(0.0)) == 0.0
    assert float(fgrad.grad(nn.relu)(1e-300)) == 1.0
    assert float(fgrad.grad(fgrad.grad(nn.relu))(0.5)) == 0.0
    assert float(fgrad.grad(nn.relu6)(0.0)) == 0.0
    assert float(fgrad.grad(nn.relu6)(6.0)) == 0.0
    assert float(fgrad.grad(nn.relu6)(3.0)) == 1.0
    assert float(fgrad.grad(lambda x: nn.leaky_relu(x, 0.1))(-2.0)) == pytest.approx(0.1)
    _, t = fgrad.jvp(nn.relu, (A([0.0, -1.0, 2.0]),), (A([5.0, 5.0, 5.0]),))
    np.testing.assert_array_equal(np.asarray(t), [0.0, 0.0, 5.0])
    assert np.isnan(float(nn.relu(np.nan)))
    # elu stays finite in the gradient for huge inputs (no exp overflow in the unused branch)
    assert np.isfinite(float(fgrad.grad(nn.elu)(1000.0)))


def test_gelu_exact_derivative_matches_formula():
    x = np.linspace(-4, 4, 17)
    g = fgrad.vmap(fgrad.grad(lambda v: nn.gelu(v, approximate=False)))(A(x))
    want = 0.5 * (1 + _verf(x / np.sqrt(2))) + x * np.exp(-x * x / 2) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(np.asarray(g), want, rtol=1e-14, atol=1e-15)


# --------------------------------------------------------------------------------------
# softmax family


def _np_softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("axis", [-1, 0, (0, 1)])
def test_softmax_log_softmax_forward_and_grads(axis):
    x = RNG.normal(size=(3, 4)) * 2
    np.testing.assert_allclose(np.asarray(nn.softmax(A(x), axis)), _np_softmax(x, axis), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(nn.log_softmax(A(x), axis)), np.log(_np_softmax(x, axis)),
                               rtol=1e-13, atol=1e-14)
    check_grads(lambda v: nn.softmax(v, axis), (A(x),), order=2)
    check_grads(lambda v: nn.log_softmax(v, axis), (A(x),), order=2)


def test_softmax_jacobian_is_analytic():
    x = RNG.normal(size=5)
    s = _np_softmax(x, 0)
    for jac in (fgrad.jacfwd, fgrad.jacrev):
        J = np.asarray(jac(nn.softmax)(A(x)))
        np.testing.assert_allclose(J, np.diag(s) - np.outer(s, s), atol=1e-15)


def test_softmax_stability_with_large_inputs():
    x = np.array([[1e4, 1e4 - 1.0, -1e4], [-1e4, -1e4 - 2.0, -1e4 - 1.0], [800.0, 0.0, -800.0]])
    ref = _np_softmax(x.astype(np.longdouble), 1).astype(float)
    s = np.asarray(nn.softmax(A(x)))
    np.testing.assert_allclose(s, ref, rtol=1e-14, atol=1e-300)
    np.testing.assert_allclose(s.sum(1), 1.0, rtol=1e-15)
    ls = np.asarray(nn.log_softmax(A(x)))
    assert np.all(np.isfinite(ls))
    c = np.log1p(np.exp(-1.0))
    np.testing.assert_allclose(ls[0], [-c, -1 - c, -2e4 - c],
                               rtol=1e-14)
    for f in (nn.softmax, nn.log_softmax):
        g = np.asarray(fgrad.grad(lambda v: fnp.sum(f(v) * fnp.arange(3.0)))(A(x)))
        assert np.all(np.isfinite(g))
    x32 = x.astype(np.float32)
    assert np.all(np.isfinite(np.asarray(nn.log_softmax(A(x32)))))


def test_softmax_is_shift_invariant_and_max_has_no_gradient():
    x = RNG.normal(size=6)
    np.testing.assert_allclose(np.asarray(nn.softmax(A(x + 123.0))), np.asarray(nn.softmax(A(x))), rtol=1e-12)
    # ties in the maximum: the stop_gradient'ed max must not distort the derivative
    xt = np.array([1.0, 1.0, 0.0])
    J = np.asarray(fgrad.jacrev(nn.log_softmax)(A(xt)))
    s = _np_softmax(xt, 0)
    np.testing.assert_allclose(J, np.eye(3) - s[None, :], atol=1e-15)


def test_softmax_where_mask():
    x = RNG.normal(size=(2, 4))
    mask = np.array([[True, False, True, True], [False, True, True, False]])
    got = np.asarray(nn.softmax(A(x), where=A(mask)))
    for r in range(2):
        e = np.exp(x[r][mask[r]] - x[r][mask[r]].max())
        np.testing.assert_allclose(got[r][mask[r]], e / e.sum(), rtol=1e-14)
        assert np.all(got[r][~mask[r]] == 0)
    lg = np.asarray(nn.log_softmax(A(x), where=A(mask)))
    assert np.all(lg[~mask] == -np.inf)
    np.testing.assert_allclose(np.exp(lg[mask]), got[mask], rtol=1e-13)


def _np_lse(x, axis=None, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_forward_and_grads(axis, keepdims):
    x = RNG.normal(size=(3, 4)) * 3
    got = nn.logsumexp(A(x), axis=axis, keepdims=keepdims)
    want = np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-14)
    check_grads(lambda v: nn.logsumexp(v, axis=axis, keepdims=keepdims), (A(x),), order=2)


def test_logsumexp_large_and_neg_inf_inputs():
    x = np.array([1e4, 1e4, -1e4])
    np.testing.assert_allclose(float(nn.logsumexp(A(x))), 1e4 + np.log(2.0), rtol=1e-15)
    xi = np.array([-np.inf, 0.0, 1.0, -np.inf])
    np.testing.assert_allclose(float(nn.logsumexp(A(xi))), np.log(1 + np.e), rtol=1e-15)
    g = np.asarray(fgrad.grad(nn.logsumexp)(A(xi)))
    np.testing.assert_allclose(g, [0.0, 1 / (1 + np.e), np.e / (1 + np.e), 0.0], rtol=1e-15)
    assert np.all(np.isfinite(g))
    # second order: Hessian diag(s) - s s^T, zero rows/cols at -inf entries
    H = np.asarray(fgrad.hessian(nn.logsumexp)(A(xi)))
    s = np.array([0.0, 1 / (1 + np.e), np.e / (1 + np.e), 0.0])
    np.testing.assert_allclose(H, np.diag(s) - np.outer(s, s), atol=1e-15)
    # a row that is entirely -inf gives -inf (and does not poison the others)
    rows = np.array([[-np.inf, -np.inf], [0.0, 0.0]])
    np.testing.assert_array_equal(np.asarray(nn.logsumexp(A(rows), axis=1)), [-np.inf, np.log(2.0)])
    assert float(nn.logsumexp(A([np.inf, 0.0]))) == np.inf


def test_logsumexp_b_weights_and_sign():
    x = RNG.normal(size=5)
    b = np.array([0.5, 2.0, 0.0, 1.0, 3.0])
    np.testing.assert_allclose(float(nn.logsumexp(A(x), b=A(b))), np.log(np.sum(b * np.exp(x))), rtol=1e-14)
    check_grads(lambda v, w: nn.logsumexp(v, b=w), (A(x), A(b + 0.1)), order=2)
    bn = np.array([1.0, -3.0, 0.5, 0.0, 0.2])
    out, sign = nn.logsumexp(A(x), b=A(bn), return_sign=True)
    total = np.sum(bn * np.exp(x))
    np.testing.assert_allclose(float(out), np.log(abs(total)), rtol=1e-13)
    assert float(sign) == np.sign(total)
    if total < 0:
        assert np.isnan(float(nn.logsumexp(A(x), b=A(bn))))
    # b == 0 excludes the entry even where exp(a) overflows
    assert np.isfinite(float(nn.logsumexp(A([1e308 * 10, 0.0]), b=A([0.0, 1.0]))))


def test_logsumexp_where_and_vmap():
    x = RNG.normal(size=(4, 5))
    mask = RNG.random((4, 5)) < 0.6
    mask[:, 0] = True
    got = np.asarray(nn.logsumexp(A(x), axis=1, where=A(mask)))
    np.testing.assert_allclose(got, [np.log(np.sum(np.exp(x[r][mask[r]]))) for r in range(4)], rtol=1e-14)
    got = fgrad.vmap(nn.logsumexp, in_axes=1)(A(x))
    np.testing.assert_allclose(np.asarray(got), _np_lse(x, axis=0), rtol=1e-14)
    g = fgrad.vmap(fgrad.grad(nn.logsumexp))(A(x))
    np.testing.assert_allclose(np.asarray(g), _np_softmax(x, 1), rtol=1e-14)


def test_one_hot():
    x = np.array([0, 2, 1, 5, -1])
    np.testing.assert_array_equal(nn.one_hot(A(x), 3), np.array([np.eye(3)[i] if 0 <= i < 3 else np.zeros(3)
                                                                    for i in x]))
    assert nn.one_hot(A(x), 3).dtype == np.float64
    assert nn.one_hot(A(x), 3, dtype=np.int32).dtype == np.int32
    x2 = RNG.integers(0, 4, size=(2, 3))
    oh = np.asarray(nn.one_hot(A(x2), 4, axis=0))
    assert oh.shape == (4, 2, 3)
    np.testing.assert_array_equal(oh, np.moveaxis(np.eye(4)[x2], -1, 0))
    got = fgrad.vmap(lambda v: nn.one_hot(v, 4))(A(x2))
    np.testing.assert_array_equal(np.asarray(got), np.eye(4)[x2])


def test_standardize():
    x = RNG.normal(size=(3, 6)) * 4 + 2
    want = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(np.asarray(nn.standardize(A(x))), want, rtol=1e-12)
    check_grads(lambda v: nn.standardize(v, axis=0), (A(x),), order=2)
    mask = np.ones((3, 6), bool)
    mask[:, :2] = False
    got = np.asarray(nn.standardize(A(x), where=A(mask)))
    sub = x[:, 2:]
    np.testing.assert_allclose(got[:, 2:], (sub - sub.mean(-1, keepdims=True)) /
                               np.sqrt(sub.var(-1, keepdims=True) + 1e-5), rtol=1e-12)


@logistic_bug
def test_glu():
    x = RNG.normal(size=(2, 6))
    np.testing.assert_allclose(np.asarray(nn.glu(A(x))), x[:, :3] * _np_sigmoid(x[:, 3:]), rtol=1e-14)
    check_grads(lambda v: nn.glu(v, axis=0), (A(RNG.normal(size=(4, 3))),), order=2)


# --------------------------------------------------------------------------------------
# stop_gradient


def test_stop_gradient_value_and_zero_gradient():
    x = A(RNG.normal(size=4))
    np.testing.assert_array_equal(lax.stop_gradient(x), x)
    g = fgrad.grad(lambda v: fnp.sum(lax.stop_gradient(v) * v))(x)
    np.testing.assert_array_equal(np.asarray(g), np.asarray(x))  # only the unstopped factor
    g = fgrad.grad(lambda v: fnp.sum(lax.stop_gradient(v ** 2)))(x)
    np.testing.assert_array_equal(np.asarray(g), np.zeros(4))
    _, t = fgrad.jvp(lambda v: lax.stop_gradient(v) + 2 * v, (x,), (fnp.ones(4),))
    np.testing.assert_array_equal(np.asarray(t), np.full(4, 2.0))
    assert fgrad.stop_gradient(3.0) == 3.0


def test_stop_gradient_nested_and_higher_order():
    # f(x) = x^2 * sg(x^3): f' = 2x * x^3, f'' = 2 x^3 (the stopped factor is a constant at
    # every level of differentiation)
    f = lambda x: x ** 2 * lax.stop_gradient(x ** 3)
    x = 1.7
    assert float(fgrad.grad(f)(x)) == pytest.approx(2 * x * x ** 3, rel=1e-14)
    assert float(fgrad.grad(fgrad.grad(f))(x)) == pytest.approx(2 * x ** 3, rel=1e-14)
    assert float(fgrad.jacfwd(fgrad.jacrev(f))(x)) == pytest.approx(2 * x ** 3, rel=1e-14)
    # stop_gradient inside an inner grad only stops that level's... and the outer one too
    h = lambda x: fgrad.grad(lambda y: y * lax.stop_gradient(x * y))(x)  # = x*x (d/dy of y*sg(x y))
    assert float(h(x)) == pytest.approx(x * x)
    assert float(fgrad.grad(h)(x)) == pytest.approx(0.0)


def test_stop_gradient_under_vmap_and_pytrees():
    x = RNG.normal(size=(3, 4))
    f = lambda v: fgrad.grad(lambda w: fnp.sum(w * lax.stop_gradient(w) ** 2))(v)
    got = fgrad.vmap(f)(A(x))
    np.testing.assert_allclose(np.asarray(got), x ** 2, rtol=1e-15)
    got = fgrad.vmap(lax.stop_gradient, in_axes=1)(A(x))
    np.testing.assert_array_equal(np.asarray(got), x.T)
    tree = {"a": A(x), "b": (A([1.0]), 2.0), "c": A(np.arange(3))}
    out = lax.stop_gradient(tree)
    assert out["b"][1] == 2.0
    np.testing.assert_array_equal(out["c"], np.arange(3))
    ftree = {"a": A(x), "b": (A([1.0]), A(2.0))}
    g = fgrad.grad(lambda t: fnp.sum(lax.stop_gradient(t)["a"] * t["b"][0]) + fnp.sum(t["a"]))(ftree)
    np.testing.assert_array_equal(np.asarray(g["a"]), np.ones((3, 4)))
    # fgrad's sum vs NumPy's: exact on NumPy, another summation order on a GPU
    assert_equal_up_to_device_ulps(np.asarray(g["b"][0]), np.array([x.sum()]))
    np.testing.assert_array_equal(np.asarray(g["b"][1]), 0.0)
    assert PRIMITIVES["stop_gradient"].jvp is not None and PRIMITIVES["stop_gradient"].batch is not None


def test_stop_gradient_under_jit():
    f = fgrad.jit(fgrad.grad(lambda v: fnp.sum(v * lax.stop_gradient(v))))
    x = RNG.normal(size=3)
    np.testing.assert_allclose(np.asarray(f(A(x))), x, rtol=1e-15)


# --------------------------------------------------------------------------------------
# erf family


def test_erf_erfc_erf_inv_accuracy():
    x = np.concatenate([np.linspace(-6, 6, 2001), np.geomspace(1e-200, 27, 300), [0.0, 2.5, 1.0, 2.0]])
    np.testing.assert_allclose(np.asarray(lax.erf(A(x))), _verf(x), rtol=2e-15, atol=1e-300)
    np.testing.assert_allclose(np.asarray(lax.erfc(A(x))), np.vectorize(math.erfc)(x), rtol=5e-15,
                               atol=1e-300)
    y = np.concatenate([np.linspace(-0.999999, 0.999999, 2001), 1 - np.geomspace(1e-15, 0.4, 50)])
    xi = np.asarray(lax.erf_inv(A(y)))
    np.testing.assert_allclose(_verf(xi), y, rtol=1e-15, atol=3e-16)
    tail = 1 - np.geomspace(1e-15, 0.4, 50)
    back = np.vectorize(math.erfc)(np.asarray(lax.erf_inv(A(tail))))
    np.testing.assert_allclose(back, 1 - tail, rtol=5e-14)
    np.testing.assert_array_equal(np.asarray(lax.erf_inv(A([1.0, -1.0, 0.0]))), [np.inf, -np.inf, 0.0])
    assert np.isnan(np.asarray(lax.erf_inv(A([1.5, np.nan])))).all()
    assert np.asarray(lax.erf(A([np.inf, -np.inf]))).tolist() == [1.0, -1.0]
    assert lax.erf(A(np.float32([0.5]))).dtype == np.float32
    with pytest.raises(TypeError, match="lax.erf does not accept dtype int64"):  # as JAX's lax.erf
        lax.erf(A([1, 2]))


def test_erf_family_grads():
    x = RNG.uniform(-2, 2, size=6)
    check_grads(lax.erf, (A(x),), order=2)
    check_grads(lax.erfc, (A(x),), order=2)
    check_grads(lax.erf_inv, (A(np.tanh(x) * 0.9),), order=2)
    g = fgrad.vmap(fgrad.grad(lax.erf_inv))(A([0.0, 0.5]))
    inv = np.asarray(lax.erf_inv(A([0.0, 0.5])))
    np.testing.assert_allclose(np.asarray(g), np.sqrt(np.pi) / 2 * np.exp(inv ** 2),
                               rtol=1e-15)


# --------------------------------------------------------------------------------------
# lax wrappers


def test_lax_integer_division_and_remainder_are_c_style():
    xs = np.array([7, -7, 7, -7, 6, -6, 0])
    ys = np.array([2, 2, -2, -2, 3, 3, 5])
    np.testing.assert_array_equal(lax.div(A(xs), A(ys)), [int(a / b) for a, b in zip(xs, ys, strict=True)])
    np.testing.assert_array_equal(lax.rem(A(xs), A(ys)),
                                  [math.fmod(a, b) for a, b in zip(xs, ys, strict=True)])
    np.testing.assert_allclose(np.asarray(lax.div(A([7.0]), A([2.0]))), [3.5])


def test_lax_round_clamp_integer_pow_select():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.49999999999999994, -2.7, 3.2])
    np.testing.assert_array_equal(lax.round(A(x)), [1, 2, 3, -1, -2, 0, -3, 3])
    np.testing.assert_array_equal(lax.round(A(x), lax.RoundingMethod.TO_NEAREST_EVEN), np.round(x))
    np.testing.assert_array_equal(lax.clamp(-1.0, A(x), 1.0), np.clip(x, -1, 1))
    for n in (0, 1, 2, 3, -2):
        np.testing.assert_allclose(np.asarray(lax.integer_pow(A(x[:3]), n)), x[:3] ** float(n), rtol=1e-15)
        check_grads(lambda v, n=n: lax.integer_pow(v, n), (A(x[:3]),), order=2)
    with pytest.raises(TypeError):
        lax.integer_pow(A(x), 2.0)
    np.testing.assert_array_equal(lax.select(A(x > 0), A(x), A(-x)), np.abs(x))


def test_lax_elementwise_names_match_numpy():
    x = RNG.uniform(0.1, 0.9, size=5)
    y = RNG.uniform(0.1, 0.9, size=5)
    pairs = [(lax.add, np.add), (lax.sub, np.subtract), (lax.mul, np.multiply), (lax.max, np.maximum),
             (lax.min, np.minimum), (lax.pow, np.power), (lax.atan2, np.arctan2)]
    for f, g in pairs:
        np.testing.assert_allclose(np.asarray(f(A(x), A(y))), g(x, y), rtol=1e-15)
    unary = [(lax.exp, np.exp), (lax.log, np.log), (lax.sin, np.sin), (lax.cos, np.cos), (lax.tanh, np.tanh),
             (lax.sqrt, np.sqrt), (lax.rsqrt, lambda v: 1 / np.sqrt(v)),
             (lax.neg, np.negative), (lax.log1p, np.log1p), (lax.expm1, np.expm1), (lax.asin, np.arcsin),
             (lax.square, np.square), (lax.abs, np.abs), (lax.cbrt, np.cbrt)]
    for f, g in unary:
        np.testing.assert_allclose(np.asarray(f(A(x))), g(x), rtol=1e-14)
        check_grads(f, (A(x),), order=2)
    for f, g in [(lax.eq, np.equal), (lax.ne, np.not_equal), (lax.lt, np.less), (lax.le, np.less_equal),
                 (lax.gt, np.greater), (lax.ge, np.greater_equal)]:
        np.testing.assert_array_equal(f(A(x), A(y)), g(x, y))
    assert lax.convert_element_type(A(x), np.float32).dtype == np.float32


@logistic_bug
def test_lax_logistic():
    x = RNG.normal(size=5) * 4
    np.testing.assert_allclose(np.asarray(lax.logistic(A(x))), _np_sigmoid(x), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(fgrad.jit(lax.logistic)(A(x))), _np_sigmoid(x), rtol=1e-14)
    check_grads(lax.logistic, (A(x),), order=2)


def test_lax_bit_ops_match_integer_reference():
    x = RNG.integers(0, 2 ** 32, size=20, dtype=np.uint64).astype(np.uint32)
    s = RNG.integers(0, 40, size=20).astype(np.uint32)
    xi = [int(v) for v in x]
    mask = 2 ** 32 - 1
    want_l = [(v << int(k)) & mask if k < 32 else 0 for v, k in zip(xi, s, strict=True)]
    want_r = [v >> int(k) if k < 32 else 0 for v, k in zip(xi, s, strict=True)]
    np.testing.assert_array_equal(np.asarray(lax.shift_left(A(x), A(s))).astype(np.int64), want_l)
    np.testing.assert_array_equal(np.asarray(lax.shift_right_logical(A(x), A(s))).astype(np.int64), want_r)
    xs = x.view(np.int32)
    want_a = [(int(v) >> min(int(k), 31)) for v, k in zip(xs, s, strict=True)]
    got_a = np.asarray(lax.shift_right_arithmetic(A(xs), A(s.astype(np.int32))))
    np.testing.assert_array_equal(got_a, want_a)
    # logical shift of signed ints works on the bit pattern
    np.testing.assert_array_equal(np.asarray(lax.shift_right_logical(A(xs), 4)).view(np.uint32), x >> 4)
    np.testing.assert_array_equal(lax.bitwise_xor(A(x), A(x[::-1])), x ^ x[::-1])
    np.testing.assert_array_equal(lax.bitwise_not(A(x)), ~x)
    f = np.array([1.0, -2.5, np.inf], np.float32)
    np.testing.assert_array_equal(lax.bitcast_convert_type(A(f), np.uint32), f.view(np.uint32))
    as_int = lax.bitcast_convert_type(A(f), np.int32)
    np.testing.assert_array_equal(lax.bitcast_convert_type(as_int, np.float32), f)
    got = fgrad.vmap(lambda a, k: lax.shift_left(a, k), in_axes=(0, None))(A(x.reshape(4, 5)), A(s[:5]))
    want = [np.asarray(lax.shift_left(A(r), A(s[:5]))) for r in x.reshape(4, 5)]
    np.testing.assert_array_equal(np.asarray(got), want)
    from fgrad.ops.bits import rotate_left
    for r in (1, 13, 31):
        want = [((v << r) | (v >> (32 - r))) & mask for v in xi]
        np.testing.assert_array_equal(np.asarray(rotate_left(A(x), r)).astype(np.int64), want)


def test_lax_shape_ops():
    x = RNG.normal(size=(2, 3))
    assert lax.broadcast(A(x), (4,)).shape == (4, 2, 3)
    np.testing.assert_array_equal(lax.broadcast_in_dim(A(x[:, 0]), (2, 5), (0,)),
                                  np.broadcast_to(x[:, :1], (2, 5)))
    np.testing.assert_array_equal(lax.reshape(A(x), (3, 2), dimensions=(1, 0)), x.T.reshape(3, 2))
    np.testing.assert_array_equal(lax.transpose(A(x), (1, 0)), x.T)
    np.testing.assert_array_equal(lax.squeeze(A(x[None, :, None]), (0, 2)), x)
    np.testing.assert_array_equal(lax.expand_dims(A(x), (0,)), x[None])
    np.testing.assert_array_equal(lax.rev(A(x), (0, 1)), x[::-1, ::-1])
    np.testing.assert_array_equal(lax.slice(A(x), (0, 1), (2, 3)), x[0:2, 1:3])
    np.testing.assert_array_equal(lax.slice(A(np.arange(10)), (1,), (9,), (3,)), np.arange(10)[1:9:3])
    np.testing.assert_array_equal(lax.slice_in_dim(A(x), 0, 2, axis=1), x[:, 0:2])
    np.testing.assert_array_equal(lax.index_in_dim(A(x), 1, axis=1, keepdims=False), x[:, 1])
    np.testing.assert_array_equal(lax.iota(np.int32, 4), np.arange(4, dtype=np.int32))
    check_grads(lambda v: lax.slice(lax.rev(v, (1,)), (0, 1), (2, 3)), (A(x),), order=2)
    np.testing.assert_array_equal(lax.slice_in_dim(A(x), -2, None, axis=1), x[:, -2:])
    np.testing.assert_array_equal(lax.concatenate([A(x), A(x[:1])], 0), np.concatenate([x, x[:1]], 0))


def test_lax_ops_from_other_modules():
    x = RNG.normal(size=(2, 3))
    try:
        dg = lax.dot_general
    except AttributeError:
        pytest.skip("dot_general not available")
    np.testing.assert_allclose(np.asarray(dg(A(x), A(x), (((1,), (1,)), ((), ())))), x @ x.T, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(lax.dot(A(x), A(x.T))), x @ x.T, rtol=1e-14)
    np.testing.assert_array_equal(lax.pad(A(x), 0.0, ((1, 0, 0), (0, 2, 0))), np.pad(x, ((1, 0), (0, 2))))
    with pytest.raises(AttributeError):
        lax.no_such_op  # noqa: B018


def test_lax_reductions_and_cumulative():
    x = RNG.normal(size=(3, 4))
    np.testing.assert_allclose(np.asarray(lax.reduce_sum(A(x), (1,))), x.sum(1), rtol=1e-15)
    np.testing.assert_array_equal(lax.reduce_max(A(x), (0, 1)), x.max())
    np.testing.assert_array_equal(lax.reduce_min(A(x), (0,)), x.min(0))
    np.testing.assert_allclose(np.asarray(lax.reduce_prod(A(x), (1,))), x.prod(1), rtol=1e-14)
    np.testing.assert_array_equal(lax.reduce_or(A(x > 1), (1,)), (x > 1).any(1))
    np.testing.assert_array_equal(lax.reduce_and(A(x > -3), (1,)), (x > -3).all(1))
    np.testing.assert_array_equal(lax.argmax(A(x), 1, np.int32), x.argmax(1))
    assert lax.argmax(A(x), 1, np.int32).dtype == np.int32
    np.testing.assert_array_equal(lax.argmin(A(x), 0), x.argmin(0))
    np.testing.assert_allclose(np.asarray(lax.cumsum(A(x), 1, reverse=True)),
                               np.cumsum(x[:, ::-1], 1)[:, ::-1],
                               rtol=1e-14)
    np.testing.assert_array_equal(lax.cummax(A(x), 0), np.maximum.accumulate(x, 0))
    np.testing.assert_array_equal(lax.sort(A(x), 0), np.sort(x, 0))
    k, v = lax.sort_key_val(A(x[0]), A(np.arange(4)))
    np.testing.assert_array_equal(v, np.argsort(x[0]))
    vals, idx = lax.top_k(A(x), 2)
    np.testing.assert_array_equal(idx, np.argsort(-x, 1, kind="stable")[:, :2])
    np.testing.assert_allclose(np.asarray(lax.associative_scan(lax.add, A(x), axis=1)), np.cumsum(x, 1),
                               rtol=1e-14, atol=1e-15)
