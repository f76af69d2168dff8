"""The fused recurrence primitives (`fgrad.ops.rnn`): ``lstm_sequence``,
``lstm_sequence_jvp``, ``lstm_sequence_vjp`` and the GRU's ``gru_sequence``,
``gru_sequence_jvp``, ``gru_sequence_vjp``.

Values against a NumPy recurrence written here from the LSTM equations; derivatives of
orders 1 and 2 (forward and reverse) against finite differences, which also exercises the
JVP/transpose pair (each primitive is the other's transpose) and the reference-based
second-order rules; vmap against a loop (the folded path for unbatched weights and the
general path), jit against eager, and bad shapes.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
from fgrad.ops.rnn import (gru_reference, gru_sequence, gru_sequence_jvp_p, gru_sequence_p,
                           gru_sequence_vjp_p, lstm_reference, lstm_sequence, lstm_sequence_jvp_p,
                           lstm_sequence_p, lstm_sequence_vjp_p)
from fgrad.core.narrow_floats import bfloat16
from fgrad.ops import rnn
from fgrad.test_util import check_grads


def _np_lstm(xg, h0, c0, w, b, reverse):
    """The LSTM equations in NumPy (float64): gates i, f, g, o."""
    T = xg.shape[0]
    H = h0.shape[-1]
    h, c = h0, c0
    hs = np.zeros(xg.shape[:2] + (H,))
    sig = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
    for t in (range(T - 1, -1, -1) if reverse else range(T)):
        g = xg[t] + h @ w.T + (0 if b is None else b)
        i, f, n, o = sig(g[:, :H]), sig(g[:, H:2 * H]), np.tanh(g[:, 2 * H:3 * H]), sig(g[:, 3 * H:])
        c = f * c + i * n
        h = o * np.tanh(c)
        hs[t] = h
    return hs, c


def _args(T=4, B=3, H=2, bias=True, seed=0, dtype=np.float64):
    r = np.random.default_rng(seed)
    a = [r.standard_normal(s).astype(dtype) for s in [(T, B, 4 * H), (B, H), (B, H), (4 * H, H)]]
    return a + ([r.standard_normal(4 * H).astype(dtype)] if bias else [])


CASES = [(rev, bias) for rev in (False, True) for bias in (True, False)]


@pytest.fixture(params=[False, True], ids=["sigmoid_by_exp", "sigmoid_by_tanh"])
def sigmoid_form(request, monkeypatch):
    """Both of the LSTM's sigmoid forms (`fgrad.ops.rnn._SIGMOID_BY_TANH` is chosen per CPU:
    each machine runs one of them unless a test sets it)."""
    monkeypatch.setattr(rnn, "_SIGMOID_BY_TANH", request.param)
    return request.param


@pytest.mark.parametrize("reverse,bias", CASES)
def test_values_match_numpy_equations(reverse, bias, sigmoid_form) -> None:
    a = _args(bias=bias)
    hs, c = lstm_sequence(*a, reverse=reverse)
    ehs, ec = _np_lstm(*a[:4], a[4] if bias else None, reverse)
    np.testing.assert_allclose(np.asarray(hs), ehs, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(np.asarray(c), ec, rtol=1e-13, atol=1e-14)
    # the step-by-step reference (the second-order rules' definition) agrees exactly
    rhs, rc = lstm_reference(*a, reverse=reverse)
    np.testing.assert_array_equal(np.asarray(rhs), np.asarray(hs))
    np.testing.assert_array_equal(np.asarray(rc), np.asarray(c))


def test_float32_values_and_residuals(sigmoid_form) -> None:
    a = _args(T=3, dtype=np.float32)
    hs, c, cs, gates, tcs = lstm_sequence_p.bind(*a, reverse=False)
    assert hs.dtype == c.dtype == gates.dtype == np.float32
    ehs, ec = _np_lstm(*[x.astype(np.float64) for x in a[:4]], a[4].astype(np.float64), False)
    np.testing.assert_allclose(np.asarray(hs), ehs, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(cs)[-1], np.asarray(c))
    np.testing.assert_allclose(np.asarray(tcs), np.tanh(np.asarray(cs)), rtol=1e-6)
    assert gates.shape == (3, 4, 3, 2)
    # gate-major in the order o, i, f, g: h_t = o * tanh(c_t), c_t = f * c_{t-1} + i * g
    gates, cs = np.asarray(gates), np.asarray(cs)
    np.testing.assert_allclose(gates[:, 0] * np.asarray(tcs), np.asarray(hs), rtol=1e-6)
    np.testing.assert_allclose(gates[1:, 2] * cs[:-1] + gates[1:, 1] * gates[1:, 3], cs[1:], rtol=1e-5,
                               atol=1e-6)
    assert (gates[:, :3] >= 0).all() and (gates[:, :3] <= 1).all()


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-6), (np.float64, 1e-15)])
def test_saturated_gates(dtype, tol, sigmoid_form) -> None:
    """Pre-activations far outside the sigmoid's range (the sigmoid is tanh(x/2)/2 + 1/2):
    gates exactly 0 or 1 up to rounding, no NaN, no warning, the values and the gradient of the
    NumPy equations (whose exp-form sigmoid overflows to 0 silently here)."""
    a = _args(T=3, dtype=dtype, seed=5)
    a[0] = (a[0] * 1e4).astype(dtype)
    hs, c = lstm_sequence(*a)
    with np.errstate(over="ignore"):
        ehs, ec = _np_lstm(*[x.astype(np.float64) for x in a[:4]], a[4].astype(np.float64), False)
    np.testing.assert_allclose(np.asarray(hs), ehs, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.asarray(c), ec, rtol=tol, atol=tol)
    g = fgrad.grad(lambda w: lstm_sequence(a[0], a[1], a[2], w, a[4])[0].sum())(a[3])
    assert np.isfinite(np.asarray(g)).all()


@pytest.mark.parametrize("reverse,bias", CASES)
def test_derivatives_match_finite_differences(reverse, bias, sigmoid_form) -> None:
    a = _args(T=3, B=2, H=2, bias=bias, seed=1)

    def f(*args):
        hs, c = lstm_sequence(*args, reverse=reverse)
        return hs, c

    check_grads(f, a, order=2, modes=("fwd", "rev"), eps=1e-4, rtol=1e-4, atol=1e-5)


def test_residual_outputs_carry_no_derivative() -> None:
    a = _args(T=2)
    g = fgrad.grad(lambda x: lstm_sequence_p.bind(x, *a[1:], reverse=False)[3].sum())(a[0])
    assert not np.asarray(g).any()


def test_gradient_matches_the_reference(sigmoid_form) -> None:
    a = _args(T=5, seed=3)

    def loss(fn):
        return lambda *args: (fn(*args)[0] ** 2).sum() + (3 * fn(*args)[1]).sum()

    g1 = fgrad.grad(loss(lstm_sequence), argnums=(0, 1, 2, 3, 4))(*a)
    g2 = fgrad.grad(loss(lstm_reference), argnums=(0, 1, 2, 3, 4))(*a)
    for x, y in zip(g1, g2):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("batched", ["x", "w", "all"])
def test_vmap_matches_a_loop(batched) -> None:
    a = _args(T=3, seed=4)
    r = np.random.default_rng(5)
    stacked = [r.standard_normal((3,) + x.shape) for x in a]
    axes = [0 if batched == "all" or (batched == "x" and i == 0) or (batched == "w" and i == 3) else None
            for i in range(5)]
    args = [s if ax == 0 else x for s, x, ax in zip(stacked, a, axes)]
    out = fgrad.vmap(lstm_sequence, in_axes=tuple(axes))(*args)
    for k in range(3):
        one = [s[k] if ax == 0 else x for s, x, ax in zip(stacked, a, axes)]
        exp = lstm_sequence(*one)
        for o, e in zip(out, exp):
            np.testing.assert_allclose(np.asarray(o)[k], np.asarray(e), rtol=1e-12, atol=1e-13)


def test_per_example_gradients_and_jit() -> None:
    a = _args(T=3, seed=6)
    xs = np.random.default_rng(7).standard_normal((4,) + a[0].shape)

    def loss(x, w):
        hs, c = lstm_sequence(x, a[1], a[2], w, a[4])
        return (hs ** 2).sum() + c.sum()

    per = fgrad.vmap(fgrad.grad(loss, argnums=1), in_axes=(0, None))(xs, a[3])
    for k in range(4):
        np.testing.assert_allclose(np.asarray(per[k]), np.asarray(fgrad.grad(loss, argnums=1)(xs[k], a[3])),
                                   rtol=1e-12, atol=1e-13)
    eager = fgrad.grad(loss, argnums=(0, 1))(xs[0], a[3])
    jitted = fgrad.jit(fgrad.grad(loss, argnums=(0, 1)))(xs[0], a[3])
    for e, j in zip(eager, jitted):
        np.testing.assert_allclose(np.asarray(j), np.asarray(e), rtol=1e-14, atol=1e-15)


def test_jvp_and_vjp_primitives_are_transposes() -> None:
    """<J t, u> == <t, J^T u> with the two derivative primitives bound directly."""
    a = _args(T=3, seed=8)
    outs = lstm_sequence_p.bind(*a, reverse=False)
    hs, _, cs, gates, tcs = outs
    r = np.random.default_rng(9)
    t = [r.standard_normal(x.shape) for x in a]
    u = [r.standard_normal(np.shape(hs)), r.standard_normal(np.shape(outs[1]))]
    jt = lstm_sequence_jvp_p.bind(*a, hs, cs, gates, tcs, *t, reverse=False, has_bias=True)
    ju = lstm_sequence_vjp_p.bind(*a, hs, cs, gates, tcs, *u, reverse=False, has_bias=True)
    lhs = sum(float((np.asarray(x) * y).sum()) for x, y in zip(jt, u))
    rhs = sum(float((np.asarray(x) * y).sum()) for x, y in zip(ju, t))
    assert abs(lhs - rhs) < 1e-10 * max(1.0, abs(lhs))


@pytest.mark.parametrize("reverse,bias", CASES)
def test_float32_step_loops_match_equations_and_reference_gradient(reverse, bias, sigmoid_form) -> None:
    """The float32 path of the step loops (the one PyTorch-style training takes): the forward
    (gate-major input block, bias tiled over the batch, views taken by iteration in either
    time order) against the float64 NumPy equations, and the backward recurrence against the
    float64 reference recurrence's gradient, at a shape with every gate and step distinct."""
    a = _args(T=6, B=5, H=3, bias=bias, seed=11, dtype=np.float32)
    a64 = [x.astype(np.float64) for x in a]
    hs, c = lstm_sequence(*a, reverse=reverse)
    assert np.asarray(hs).dtype == np.float32
    ehs, ec = _np_lstm(*a64[:4], a64[4] if bias else None, reverse)
    np.testing.assert_allclose(np.asarray(hs), ehs, rtol=1e-5, atol=2e-6)
    np.testing.assert_allclose(np.asarray(c), ec, rtol=1e-5, atol=2e-6)
    w_out = np.random.default_rng(12).standard_normal(ehs.shape)

    def loss(fn, dt):
        return lambda *args: ((fn(*args, reverse=reverse)[0] * w_out.astype(dt)).sum()
                              + (fn(*args, reverse=reverse)[1] ** 2).sum())

    argnums = tuple(range(len(a)))
    g32 = fgrad.grad(loss(lstm_sequence, np.float32), argnums=argnums)(*a)
    g64 = fgrad.grad(loss(lstm_reference, np.float64), argnums=argnums)(*a64)
    for x, y in zip(g32, g64):
        assert np.asarray(x).dtype == np.float32
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-4, atol=1e-5)


def test_bad_shapes_and_dtypes_raise() -> None:
    a = _args(T=2)
    with pytest.raises(TypeError, match="lstm_sequence: w_hh must have shape"):
        lstm_sequence(a[0], a[1], a[2], a[3][:4], a[4])
    with pytest.raises(TypeError, match="T > 0"):
        lstm_sequence(a[0][:0], *a[1:])
    with pytest.raises(TypeError, match="one floating dtype"):
        lstm_sequence(a[0].astype(np.float32), *a[1:])


@pytest.mark.parametrize("narrow", ["float16", "bfloat16"])
def test_narrow_floats_compute_in_float32_and_round_once(narrow) -> None:
    # bfloat16 arrays live on the CPU (CuPy, and the fake device standing in for it, have none)
    if narrow == "bfloat16":
        with fgrad.default_device("cpu"):
            _check_narrow(bfloat16)
    else:
        _check_narrow(np.dtype(np.float16))


def _check_narrow(dt) -> None:
    a = [x.astype(dt) for x in _args(T=3, seed=13)]
    hs, c = lstm_sequence(*a)
    assert hs.dtype == c.dtype == dt
    ehs, ec = lstm_sequence(*[x.astype(np.float32) for x in a])
    np.testing.assert_array_equal(np.asarray(hs), np.asarray(ehs).astype(dt))
    np.testing.assert_array_equal(np.asarray(c), np.asarray(ec).astype(dt))
    g = fgrad.grad(lambda w: lstm_sequence(a[0], a[1], a[2], w, a[4])[1].astype(np.float32).sum())(a[3])
    assert g.dtype == dt


# ---------------------------------------------------------------------------------------
# GRU


def _np_gru(xg, h0, w, b, reverse):
    """The GRU equations in NumPy (float64), PyTorch's form: gates r, z, n."""
    T, H = xg.shape[0], h0.shape[-1]
    h = h0
    hs = np.zeros(xg.shape[:2] + (H,))
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    b = np.zeros(3 * H) if b is None else b
    for t in (range(T - 1, -1, -1) if reverse else range(T)):
        hg = h @ w.T + b
        x = xg[t]
        r = sig(x[:, :H] + hg[:, :H])
        z = sig(x[:, H:2 * H] + hg[:, H:2 * H])
        n = np.tanh(x[:, 2 * H:] + r * hg[:, 2 * H:])
        h = (1 - z) * n + z * h
        hs[t] = h
    return hs


def _gru_args(T=4, B=3, H=2, bias=True, seed=0):
    r = np.random.default_rng(seed)
    a = [r.standard_normal(s) for s in [(T, B, 3 * H), (B, H), (3 * H, H)]]
    return a + ([r.standard_normal(3 * H)] if bias else [])


@pytest.mark.parametrize("reverse,bias", CASES)
def test_gru_values_match_numpy_equations(reverse, bias) -> None:
    a = _gru_args(bias=bias, seed=20)
    hs = gru_sequence(*a, reverse=reverse)
    np.testing.assert_allclose(np.asarray(hs), _np_gru(*a[:3], a[3] if bias else None, reverse),
                               rtol=1e-13, atol=1e-14)
    np.testing.assert_array_equal(np.asarray(gru_reference(*a, reverse=reverse)), np.asarray(hs))


@pytest.mark.parametrize("reverse,bias", CASES)
def test_gru_derivatives_match_finite_differences(reverse, bias) -> None:
    a = _gru_args(T=3, B=2, H=2, bias=bias, seed=21)
    check_grads(lambda *args: gru_sequence(*args, reverse=reverse), a, order=2, modes=("fwd", "rev"),
                eps=1e-4, rtol=1e-4, atol=1e-5)


def test_gru_jvp_and_vjp_primitives_are_transposes() -> None:
    a = _gru_args(T=3, seed=22)
    hs, gates, hn = gru_sequence_p.bind(*a, reverse=True)
    r = np.random.default_rng(23)
    t = [r.standard_normal(x.shape) for x in a]
    u = r.standard_normal(np.shape(hs))
    (jt,) = gru_sequence_jvp_p.bind(*a, hs, gates, hn, *t, reverse=True, has_bias=True)
    ju = gru_sequence_vjp_p.bind(*a, hs, gates, hn, u, reverse=True, has_bias=True)
    lhs = float((np.asarray(jt) * u).sum())
    rhs = sum(float((np.asarray(x) * y).sum()) for x, y in zip(ju, t))
    assert abs(lhs - rhs) < 1e-10 * max(1.0, abs(lhs))


@pytest.mark.parametrize("batched", ["x", "w"])
def test_gru_vmap_matches_a_loop(batched) -> None:
    a = _gru_args(T=3, seed=24)
    k_arg = 0 if batched == "x" else 2
    stacked = np.random.default_rng(25).standard_normal((3,) + a[k_arg].shape)
    axes = tuple(0 if i == k_arg else None for i in range(4))
    args = [stacked if i == k_arg else x for i, x in enumerate(a)]
    out = fgrad.vmap(gru_sequence, in_axes=axes)(*args)
    for k in range(3):
        one = [stacked[k] if i == k_arg else x for i, x in enumerate(a)]
        np.testing.assert_allclose(np.asarray(out)[k], np.asarray(gru_sequence(*one)), rtol=1e-12, atol=1e-13)


def test_gru_bad_shapes_raise() -> None:
    a = _gru_args(T=2)
    with pytest.raises(TypeError, match="gru_sequence: w_hh must have shape"):
        gru_sequence(a[0], a[1], a[2][:3], a[3])
    with pytest.raises(TypeError, match=r"\(T, B, 3\*H\)"):
        gru_sequence(a[0][..., :5], *a[1:])


@pytest.mark.parametrize("cell", ["lstm", "gru"])
def test_second_order_at_saturated_gates_is_finite(cell, sigmoid_form) -> None:
    """Second-order derivatives run the step-by-step reference, whose sigmoid is
    ``1 / (1 + exp(-x))``; at pre-activations beyond exp's overflow (here 1e3 in float64) its
    chain rule gave ``0 * inf = NaN`` (the GRU's before round 16), while the fused gradient is
    finite there.  Now the Hessian-vector product is finite and equals the central difference
    of the fused gradient."""
    r = np.random.default_rng(21)
    T, B, H = 3, 2, 2
    k = 4 if cell == "lstm" else 3
    xg = r.standard_normal((T, B, k * H)) * 1e3
    xg[..., -H:] = r.standard_normal((T, B, H))  # one gate unsaturated: a Hessian that is not 0
    h0 = r.standard_normal((B, H))
    w, v = r.standard_normal((k * H, H)), r.standard_normal((k * H, H))

    def loss(w):
        out = lstm_sequence(xg, h0, h0, w)[0] if cell == "lstm" else gru_sequence(xg, h0, w)
        return (out ** 2).sum()

    grad = fgrad.grad(loss)
    hv = np.asarray(fgrad.jvp(grad, (w,), (v,))[1])
    eps = 1e-5
    fd = (np.asarray(grad(w + eps * v)) - np.asarray(grad(w - eps * v))) / (2 * eps)
    assert np.isfinite(hv).all() and np.abs(hv).max() > 1e-3
    np.testing.assert_allclose(hv, fd, rtol=1e-5, atol=1e-7)
