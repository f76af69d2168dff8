"""fgrad.nn against JAX: activations (values and derivatives at kinks, stored jax 0.10.2
numbers + live when jax is installed), dot_product_attention (an independent NumPy reference,
live JAX, gradients by finite differences), initializers (variances from the fan formulas,
orthogonality, errors as JAX raises them)."""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest

import fgrad
import fgrad.nn as nn
import fgrad.numpy as fnp
import fgrad.random as random
from fgrad.nn import initializers
from fgrad.testing.device_numerics import assert_equal_up_to_device_ulps

STORED = json.loads((pathlib.Path(__file__).parent / "stored" / "jax_nn_activations.json").read_text())
ACTIVATIONS = [k for k in STORED if k not in ("x", "log1mexp")]


def _fgrad_activation(name):
    if name == "gelu_exact":
        return lambda v: nn.gelu(v, approximate=False)
    return getattr(nn, name)


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation_matches_stored_jax(name):
    # stored from jax 0.10.2 (x64), including the derivative conventions at kinks
    # (relu'(0) = 0, relu6'(6) = 0, hard_tanh'(+-1) = 1, sparse_sigmoid'(+-1) = 1/4, ...)
    f = _fgrad_activation(name)
    x = fnp.asarray(STORED["x"])
    np.testing.assert_allclose(np.asarray(f(x)), STORED[name]["value"], rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(np.asarray(fgrad.vmap(fgrad.grad(f))(x)), STORED[name]["grad"],
                               rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation_matches_live_jax(name):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jf = (lambda v: jax.nn.gelu(v, approximate=False)) if name == "gelu_exact" else getattr(jax.nn, name)
    x = np.linspace(-8, 8, 65)  # includes every kink: -3, -1, 0, 1, 3, 6
    f = _fgrad_activation(name)
    np.testing.assert_allclose(np.asarray(f(fnp.asarray(x))), np.asarray(jf(x)), rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(np.asarray(fgrad.vmap(fgrad.grad(f))(fnp.asarray(x))),
                               np.asarray(jax.vmap(jax.grad(jf))(x)), rtol=1e-12, atol=1e-13)


def test_log1mexp_matches_stored_jax():
    d = STORED["log1mexp"]
    x = fnp.asarray(d["x"])
    np.testing.assert_allclose(np.asarray(nn.log1mexp(x)), d["value"], rtol=1e-14)
    np.testing.assert_allclose(np.asarray(fgrad.vmap(fgrad.grad(nn.log1mexp))(x[1:])), d["grad"], rtol=1e-12)


def test_logmeanexp_and_where():
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.0, 50.0]])
    where = np.array([[True, False, True], [True, True, False]])
    expected = np.log(np.exp(x).mean(axis=1))
    np.testing.assert_allclose(np.asarray(nn.logmeanexp(fnp.asarray(x), axis=1)), expected, rtol=1e-14)
    masked = [np.log(np.mean(np.exp(r[w]))) for r, w in zip(x, where)]
    np.testing.assert_allclose(np.asarray(nn.logmeanexp(fnp.asarray(x), axis=1, where=where)), masked,
                               rtol=1e-14)
    assert nn.logmeanexp(fnp.asarray(x), axis=1, keepdims=True).shape == (2, 1)


def test_squareplus_b():
    x = np.array([-2.0, 0.0, 3.0])
    np.testing.assert_allclose(np.asarray(nn.squareplus(fnp.asarray(x), b=1.0)),
                               (x + np.sqrt(x * x + 1.0)) / 2, rtol=1e-15)


# --------------------------------------------------------------------------------------
# dot_product_attention


def _np_attention(q, k, v, bias=None, mask=None, scale=None, causal=False):
    """Independent reference: loops over batch and heads, grouped heads by index // group; the
    softmax in float32, as JAX computes it for every input dtype (float64 included)."""
    b, t, n, h = q.shape
    s, kh = k.shape[1], k.shape[2]
    scale = 1 / math.sqrt(h) if scale is None else scale
    out = np.zeros((b, t, n, h))
    for bi in range(b):
        for ni in range(n):
            kv = ni // (n // kh)
            logits = q[bi, :, ni] @ k[bi, :, kv].T * scale
            if bias is not None:
                logits = logits + np.broadcast_to(bias, (b, n, t, s))[bi, ni]
            keep = np.ones((t, s), bool)
            if mask is not None:
                keep &= np.broadcast_to(mask, (b, n, t, s))[bi, ni]
            if causal:
                keep &= np.tril(np.ones((t, s), bool))
            logits = np.where(keep, logits, -0.7 * np.finfo(np.float32).max).astype(np.float32)
            p = np.exp(logits - logits.max(-1, keepdims=True))
            p = (p / p.sum(-1, keepdims=True)).astype(np.float64)
            out[bi, :, ni] = p @ v[bi, :, kv]
    return out


def _qkv(seed=0, b=2, t=5, s=5, n=4, kh=2, h=3):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((b, t, n, h)), rng.standard_normal((b, s, kh, h)),
            rng.standard_normal((b, s, kh, h)))


@pytest.mark.parametrize("kw", [{}, {"causal": True}, {"scale": 0.3}, {"bias": True}, {"mask": True}])
def test_attention_matches_numpy_reference(kw):
    q, k, v = _qkv()
    rng = np.random.default_rng(1)
    bias = rng.standard_normal((1, 4, 5, 5)) if kw.get("bias") else None
    mask = rng.random((2, 1, 5, 5)) > 0.3 if kw.get("mask") else None
    expected = _np_attention(q, k, v, bias, mask, kw.get("scale"), kw.get("causal", False))
    got = nn.dot_product_attention(fnp.asarray(q), fnp.asarray(k), fnp.asarray(v), bias=bias, mask=mask,
                                   scale=kw.get("scale"), is_causal=kw.get("causal", False))
    np.testing.assert_allclose(np.asarray(got), expected, rtol=2e-6, atol=1e-7)


def test_attention_fully_masked_rows_average_like_jax():
    q, k, v = _qkv()
    mask = np.zeros((2, 4, 5, 5), bool)
    got = np.asarray(nn.dot_product_attention(fnp.asarray(q), fnp.asarray(k), fnp.asarray(v), mask=mask))
    # query head 0 reads key/value head 0: every query position gets the mean over keys
    np.testing.assert_allclose(got[:, :, 0], np.broadcast_to(v.mean(axis=1)[:, None, 0], (2, 5, 3)),
                               rtol=1e-6)  # (float32 probabilities, as in JAX)


def test_attention_unbatched_and_residual():
    q, k, v = _qkv(b=1)
    full = nn.dot_product_attention(fnp.asarray(q), fnp.asarray(k), fnp.asarray(v))
    single = nn.dot_product_attention(fnp.asarray(q[0]), fnp.asarray(k[0]), fnp.asarray(v[0]))
    np.testing.assert_allclose(np.asarray(single), np.asarray(full)[0], rtol=1e-14)
    out, lse = nn.dot_product_attention(fnp.asarray(q), fnp.asarray(k), fnp.asarray(v), return_residual=True)
    assert lse.shape == (1, 5, 4)


def test_attention_seq_lengths_and_window_mask_like_explicit_masks():
    q, k, v = _qkv(t=6, s=6)
    qa, ka, va = map(fnp.asarray, (q, k, v))
    kv_len = np.array([3, 6], np.int32)  # JAX requires int32 lengths
    mask = (np.arange(6)[None, :] < kv_len[:, None])[:, None, None, :]
    np.testing.assert_allclose(
        np.asarray(nn.dot_product_attention(qa, ka, va, key_value_seq_lengths=kv_len)),
        np.asarray(nn.dot_product_attention(qa, ka, va, mask=mask)), rtol=1e-14)
    pos = np.arange(6)
    window = (pos[None, :] >= pos[:, None] - 1) & (pos[None, :] <= pos[:, None] + 2)
    np.testing.assert_allclose(
        np.asarray(nn.dot_product_attention(qa, ka, va, local_window_size=(1, 2))),
        np.asarray(nn.dot_product_attention(qa, ka, va, mask=window)), rtol=1e-14)


def test_attention_gradient_finite_differences():
    q, k, v = _qkv(b=1, t=3, s=4, n=2, kh=1, h=2)

    def loss(q, k, v):
        return fnp.sum(nn.dot_product_attention(q, k, v, is_causal=False) ** 2)
    grads = fgrad.grad(loss, argnums=(0, 1, 2))(*map(fnp.asarray, (q, k, v)))
    eps = 1e-3  # the softmax runs in float32 (as JAX's): steps well above its rounding
    for arg, g in enumerate(grads):
        base = [q, k, v]
        fd = np.zeros_like(base[arg])
        for idx in np.ndindex(base[arg].shape):
            plus = [a.copy() for a in base]
            minus = [a.copy() for a in base]
            plus[arg][idx] += eps
            minus[arg][idx] -= eps
            diff = float(loss(*map(fnp.asarray, plus))) - float(loss(*map(fnp.asarray, minus)))
            fd[idx] = diff / (2 * eps)
        np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-3, atol=1e-4)


def test_attention_matches_live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    q, k, v = _qkv(seed=3)
    mask = np.random.default_rng(2).random((2, 4, 5, 5)) > 0.2
    for kw in ({}, {"is_causal": True}, {"mask": mask}, {"scale": 2.0, "is_causal": True}):
        expected = jax.nn.dot_product_attention(q, k, v, **kw)
        got = nn.dot_product_attention(fnp.asarray(q), fnp.asarray(k), fnp.asarray(v), **kw)
        # JAX computes the softmax in float32 even for float64 inputs, and so does fgrad:
        # agreement to float32 precision (XLA's and NumPy's float32 exp differ in the last bits)
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=2e-6, atol=1e-6)


def test_attention_bad_inputs():
    q, k, v = _qkv()
    with pytest.raises(ValueError, match="multiple"):
        nn.dot_product_attention(fnp.asarray(q[:, :, :3]), fnp.asarray(k), fnp.asarray(v))
    with pytest.raises(ValueError, match="same shape"):
        nn.dot_product_attention(fnp.asarray(q), fnp.asarray(k), fnp.asarray(v[:, :4]))
    with pytest.raises(ValueError, match="implementation"):
        nn.dot_product_attention(fnp.asarray(q), fnp.asarray(k), fnp.asarray(v), implementation="cudnn")


# --------------------------------------------------------------------------------------
# initializers

KEY = random.key(42)
N_SAMPLES = 200 * 300


@pytest.mark.parametrize("name,scale,fan", [
    ("glorot_uniform", 1.0, "avg"), ("glorot_normal", 1.0, "avg"), ("xavier_uniform", 1.0, "avg"),
    ("lecun_uniform", 1.0, "in"), ("lecun_normal", 1.0, "in"), ("he_uniform", 2.0, "in"),
    ("he_normal", 2.0, "in"), ("kaiming_normal", 2.0, "in"),
])
def test_named_initializers_variance(name, scale, fan):
    shape = (200, 300)
    w = np.asarray(getattr(initializers, name)()(KEY, shape))
    denominator = {"in": 200, "avg": 250}[fan]
    expected = scale / denominator
    # sample variance of 60000 draws: relative standard error sqrt(2/n) ~ 0.6%; 4% is > 6 sigma
    assert abs(w.var() / expected - 1) < 0.04, (w.var(), expected)
    assert abs(w.mean()) < 6 * math.sqrt(expected / w.size)
    if name.endswith("normal"):  # truncated at two standard deviations of the untruncated normal
        assert np.abs(w).max() < 2 * math.sqrt(expected) / 0.87962566103423978
    else:
        assert np.abs(w).max() <= math.sqrt(3 * expected)


@pytest.mark.parametrize("mode", ["fan_in", "fan_out", "fan_avg", "fan_geo_avg"])
@pytest.mark.parametrize("distribution", ["truncated_normal", "normal", "uniform"])
def test_variance_scaling_modes_on_conv_shapes(mode, distribution):
    shape = (3, 3, 40, 60)  # receptive field 9: fan_in 360, fan_out 540
    fan_in, fan_out = 360, 540
    denominator = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2,
                   "fan_geo_avg": math.sqrt(fan_in * fan_out)}[mode]
    w = np.asarray(initializers.variance_scaling(0.5, mode, distribution)(KEY, shape))
    assert abs(w.var() / (0.5 / denominator) - 1) < 0.05  # 21600 draws: ~1% standard error


def test_variance_scaling_axes_and_batch():
    init = initializers.variance_scaling(1.0, "fan_in", "normal", in_axis=0, out_axis=1, batch_axis=(2,))
    w = np.asarray(init(KEY, (100, 20, 30)))
    assert abs(w.var() * 100 - 1) < 0.05


def test_variance_scaling_errors_like_jax():
    with pytest.raises(ValueError, match="invalid mode"):
        initializers.variance_scaling(1.0, "bad", "normal")
    with pytest.raises(ValueError, match="invalid distribution"):
        initializers.variance_scaling(1.0, "fan_in", "bad")
    with pytest.raises(ValueError, match="Must be at least 2D"):
        initializers.glorot_uniform()(KEY, (3,))


def test_simple_initializers():
    assert np.asarray(initializers.zeros(KEY, (2, 3))).tolist() == [[0.0] * 3] * 2
    assert np.asarray(initializers.ones(KEY, (2,), np.float32)).dtype == np.float32
    assert np.asarray(initializers.constant(3.5)(KEY, (2,))).tolist() == [3.5, 3.5]
    u = np.asarray(initializers.uniform(0.5)(KEY, (20000,)))
    assert u.min() >= 0 and u.max() < 0.5 and abs(u.mean() - 0.25) < 5 * 0.5 / math.sqrt(12 * 20000)
    g = np.asarray(initializers.normal(3.0)(KEY, (20000,)))
    assert abs(g.std() / 3.0 - 1) < 0.03
    t = np.asarray(initializers.truncated_normal(2.0)(KEY, (20000,)))
    assert np.abs(t).max() < 4.0 and abs(t.std() / (2.0 * 0.87962566103423978) - 1) < 0.03
    with pytest.raises(TypeError, match="floating"):
        initializers.normal()(KEY, (2,), np.int32)


@pytest.mark.parametrize("shape,column_axis", [((5, 3), -1), ((3, 5), -1), ((2, 3, 4), -1), ((4, 2, 3), 0)])
def test_orthogonal(shape, column_axis):
    w = np.asarray(initializers.orthogonal(scale=2.0, column_axis=column_axis)(KEY, shape))
    assert w.shape == shape
    m = np.moveaxis(w, column_axis, -1).reshape(-1, shape[column_axis])
    gram = m.T @ m if m.shape[0] >= m.shape[1] else m @ m.T
    np.testing.assert_allclose(gram, 4.0 * np.eye(gram.shape[0]), atol=1e-12)


def test_delta_orthogonal():
    w = np.array(initializers.delta_orthogonal()(KEY, (3, 5, 2, 4)))
    centre = w[1, 2]
    np.testing.assert_allclose(centre @ centre.T, np.eye(2), atol=1e-12)
    w[1, 2] = 0
    assert not w.any()
    with pytest.raises(ValueError, match="3D, 4D or 5D"):
        initializers.delta_orthogonal()(KEY, (4, 2))
    with pytest.raises(ValueError, match="fan_in"):
        initializers.delta_orthogonal()(KEY, (3, 3, 4, 2))


def test_initializers_run_under_jit_and_vmap():
    init = initializers.he_normal()
    eager = init(KEY, (4, 3))
    assert_equal_up_to_device_ulps(np.asarray(fgrad.jit(init, static_argnums=1)(KEY, (4, 3))),
                                   np.asarray(eager))  # a few ulps on a GPU (docs/gpu_numerics.md)
    keys = random.split(KEY, 3)
    batched = fgrad.vmap(lambda k: init(k, (4, 3)))(keys)
    np.testing.assert_array_equal(np.asarray(batched[1]), np.asarray(init(keys[1], (4, 3))))


def test_softmax_family_matches_live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 5)) * 4
    where = rng.random((3, 5)) > 0.3
    b = rng.random((3, 5)) - 0.2
    checks = [
        (lambda m, v: m.softmax(v, axis=1, where=where)),
        (lambda m, v: m.softmax(v, axis=(0, 1))),
        (lambda m, v: m.log_softmax(v, axis=0, where=where)),
        (lambda m, v: m.logsumexp(v, axis=1, b=b, return_sign=True)[0]),
        (lambda m, v: m.logsumexp(v, axis=1, b=b, return_sign=True)[1]),
        (lambda m, v: m.logsumexp(v, axis=0, keepdims=True, where=where)),
        (lambda m, v: m.logmeanexp(v, axis=1)),
        (lambda m, v: m.standardize(v, axis=1, where=where)),
        (lambda m, v: m.glu(v[:, :4], axis=1)),
        (lambda m, v: m.one_hot(np.array([0, 2, 5, -1]), 4)),
    ]
    for f in checks:
        got = np.asarray(f(nn, fnp.asarray(x)))
        expected = np.asarray(f(jax.nn, x))
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-13)
    # and gradients (the -inf of masked log_softmax entries left out of the loss)
    def loss(xp, m, f):
        return lambda v: xp.sum(xp.where(xp.isfinite(f(m, v)), f(m, v), 0) ** 2)
    for f in checks[:4] + checks[5:9]:
        g = np.asarray(fgrad.grad(loss(fnp, nn, f))(fnp.asarray(x)))
        jg = np.asarray(jax.grad(loss(jax.numpy, jax.nn, f))(x))
        np.testing.assert_allclose(g, jg, rtol=1e-10, atol=1e-12)


def test_attention_seq_lengths_must_be_int32_of_batch_shape():
    """JAX refuses sequence lengths that are not int32 of shape ``[B]`` (ValueError); fgrad took
    int64 lengths, so a program that fails under JAX with 64-bit types on ran."""
    q, k, v = map(fnp.asarray, _qkv(t=6, s=6))
    for bad in [np.array([3, 6]), np.array([3], np.int32), np.array([[3, 6]], np.int32)]:
        with pytest.raises(ValueError, match="key_value_seq_lengths must be an int32 array of shape"):
            nn.dot_product_attention(q, k, v, key_value_seq_lengths=bad)
    with pytest.raises(ValueError, match="query_seq_lengths"):
        nn.dot_product_attention(q, k, v, query_seq_lengths=np.array([3.0, 6.0]))
    ok = nn.dot_product_attention(q, k, v, query_seq_lengths=np.array([3, 6], np.int32))
    assert ok.shape == q.shape
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True), pytest.raises(ValueError, match="int32"):
        jax.nn.dot_product_attention(*(np.asarray(a) for a in (q, k, v)),
                                     key_value_seq_lengths=np.array([3, 6]))
