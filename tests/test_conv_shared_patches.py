"""Convolution weight gradients on the host (docs/speed.md, session 12):

* a weight gradient (few output positions, a long kernel) copies the forward convolution's
  patch matrix as (C*K, N*P) and takes one product over the batch and the positions
  (`per_feature_product`; session 16: one GEMM, no longer one per image and a sum);
* under `jit`, a forward convolution and the weight gradient of the same input share that
  matrix (`patch_key`, codegen's `plan_patches`): one copy of the input's windows, not two.

Checked against float64 references (NumPy, by the definition), JAX's numbers (live when
installed), eager evaluation bit for bit, and for the structure of the compiled program.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.compile import compile_executable
from fgrad.ops import convolution as C
from fgrad.testing.device_numerics import assert_equal_up_to_summation_order

RNG = np.random.default_rng(16)

# (x shape, w shape, strides, padding, lhs dilation, rhs dilation)
GEOMETRIES = [
    ((4, 3, 12, 12), (5, 3, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1)),
    ((3, 2, 13, 11), (4, 2, 3, 2), (2, 1), ((1, 0), (0, 2)), (1, 1), (1, 1)),
    ((2, 3, 14, 14), (4, 3, 3, 3), (1, 1), ((2, 2), (2, 2)), (1, 1), (2, 2)),
    ((3, 2, 40), (3, 2, 5), (1,), ((2, 2),), (1,), (1,)),
    ((2, 1, 28, 28), (6, 1, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1)),
]


def _conv(x, w, strides, padding, ld, rd):
    return lax.conv_general_dilated(x, w, strides, padding, lhs_dilation=ld, rhs_dilation=rd)


def _conv_ref(x, w, strides, padding, rd):
    """The convolution by its definition, in float64 (no lhs dilation)."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    nd = x.ndim - 2
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple(padding))
    ks = w.shape[2:]
    out = tuple((xp.shape[2 + a] - (ks[a] - 1) * rd[a] - 1) // strides[a] + 1 for a in range(nd))
    res = np.zeros((x.shape[0], w.shape[0]) + out)
    for k in np.ndindex(*ks):
        sl = tuple(slice(k[a] * rd[a], k[a] * rd[a] + (out[a] - 1) * strides[a] + 1, strides[a])
                   for a in range(nd))
        both = (slice(None), slice(None))
        res += np.einsum("nc...,oc->no...", xp[both + sl], w[both + k])
    return res


def _weight_grad_ref(x, w, g, strides, padding, rd):
    """d/dw of sum(conv(x, w) * g), in float64: the definition, one weight at a time."""
    ref = np.zeros(w.shape)
    for idx in np.ndindex(*w.shape):
        e = np.zeros(w.shape)
        e[idx] = 1.0
        ref[idx] = np.sum(_conv_ref(x, e, strides, padding, rd) * g)
    return ref


@pytest.mark.parametrize("geom", GEOMETRIES, ids=lambda g: f"x{g[0]}")
def test_weight_gradient_matches_the_definition(geom):
    xs, ws, strides, padding, ld, rd = geom
    x = RNG.standard_normal(xs).astype(np.float32)
    w = RNG.standard_normal(ws).astype(np.float32)
    y = np.asarray(_conv(fnp.asarray(x), fnp.asarray(w), strides, padding, ld, rd))
    g = RNG.standard_normal(y.shape).astype(np.float32)

    def linear(w):
        return fnp.sum(_conv(fnp.asarray(x), w, strides, padding, ld, rd) * g)

    ref = _weight_grad_ref(x, w, g, strides, padding, rd)
    eager = np.asarray(fgrad.grad(linear)(fnp.asarray(w)))
    np.testing.assert_allclose(eager, ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max())

    # with the forward kept (sin'), jit hands its patches to the weight gradient where they
    # are the same matrix: the same numbers as eager, bit for bit
    def loss(w):
        return fnp.sum(fnp.sin(_conv(fnp.asarray(x), w, strides, padding, ld, rd)) * g)

    eager = np.asarray(fgrad.grad(loss)(fnp.asarray(w)))
    jitted = np.asarray(fgrad.jit(fgrad.grad(loss))(fnp.asarray(w)))
    np.testing.assert_array_equal(jitted, eager)
    y64 = _conv_ref(x, w, strides, padding, rd)
    ref = _weight_grad_ref(x, w, np.cos(y64) * g, strides, padding, rd)
    np.testing.assert_allclose(jitted, ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max())


def test_a_weight_gradient_takes_one_product_over_the_batch(monkeypatch):
    # the CNN's second layer: 16 -> 32 channels on 14 x 14, batch 8
    x = RNG.standard_normal((8, 16, 14, 14)).astype(np.float32)
    g = RNG.standard_normal((8, 32, 14, 14)).astype(np.float32)
    calls = []
    real = C.per_feature_product
    monkeypatch.setattr(C, "per_feature_product", lambda *a: calls.append(a[1].shape) or real(*a))
    dn = C.ConvDimensionNumbers((1, 0, 2, 3), (1, 0, 2, 3), (1, 0, 2, 3))
    got = C._conv_impl(np, x, g, window_strides=(1, 1), padding=((1, 1), (1, 1)), lhs_dilation=(1, 1),
                       rhs_dilation=(1, 1), dimension_numbers=dn, feature_group_count=1, batch_group_count=1)
    assert calls == [(16 * 9, 8 * 14 * 14)]  # the forward's patch matrix as (C*K, N*P): one GEMM
    # dW[o, c, k] = sum_{n, p} xpad[n, c, p + k] g[n, o, p]
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    want = np.zeros((32, 16, 3, 3))
    for ki in range(3):
        for kj in range(3):
            want[:, :, ki, kj] = np.einsum("ncij,noij->oc", xp[:, :, ki:ki + 14, kj:kj + 14], g)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


def _cnn_loss(params, x, onehot):
    def block(h, w, b):
        h = lax.conv_general_dilated(h, w, (1, 1), ((1, 1), (1, 1)),
                                     dimension_numbers=("NCHW", "OIHW", "NCHW"))
        h = fnp.maximum(h + b[None, :, None, None], 0.0)
        return lax.reduce_window(h, -fnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    h = block(x, *params[0])
    h = block(h, *params[1])
    z = h.reshape(h.shape[0], -1) @ params[2]
    logp = z - fnp.log(fnp.sum(fnp.exp(z), axis=1, keepdims=True))
    # a product, not a division: jit may divide by a Python scalar as XLA does (a reciprocal
    # times), eager exactly; the test compares the convolutions' results bit for bit
    return -fnp.sum(logp * onehot) * (1.0 / x.shape[0])


def _cnn_inputs(n=6):
    params = [(RNG.standard_normal((4, 1, 3, 3)).astype(np.float32) * 0.3, np.zeros(4, np.float32)),
              (RNG.standard_normal((8, 4, 3, 3)).astype(np.float32) * 0.3, np.zeros(8, np.float32)),
              RNG.standard_normal((8 * 7 * 7, 10)).astype(np.float32) * 0.1]
    x = RNG.standard_normal((n, 1, 28, 28)).astype(np.float32)
    onehot = np.eye(10, dtype=np.float32)[RNG.integers(0, 10, n)]
    return params, x, onehot


def test_jitted_cnn_gradient_shares_patches_and_equals_eager():
    params, x, onehot = _cnn_inputs()
    vg = fgrad.value_and_grad(_cnn_loss)
    closed = fgrad.make_jaxpr(vg)(params, x, onehot)
    exe = compile_executable(closed.jaxpr, closed.consts)
    # both layers: the forward keeps its patches, the weight gradient reads them
    assert exe.source.count("del pt") == 2, exe.source
    funcs = [getattr(v, "func", None) for k, v in exe.ns.items() if k.startswith("f")]
    assert funcs.count(C.conv_keeping_patches) == 2 and funcs.count(C.conv_from_patches) == 2
    jit_v, jit_g = fgrad.jit(vg)(params, x, onehot)
    eager_v, eager_g = vg(params, x, onehot)
    # bit for bit on the host; a GPU's products add in another order eagerly and under jit
    assert_equal_up_to_summation_order(jit_v, eager_v)
    assert_equal_up_to_summation_order(jit_g, eager_g)


def test_jitted_cnn_gradient_matches_live_jax():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    params, x, onehot = _cnn_inputs()

    def jloss(params, x, onehot):
        def block(h, w, b):
            h = jax.lax.conv_general_dilated(h, w, (1, 1), ((1, 1), (1, 1)),
                                             dimension_numbers=("NCHW", "OIHW", "NCHW"))
            h = jnp.maximum(h + b[None, :, None, None], 0.0)
            return jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

        h = block(x, *params[0])
        h = block(h, *params[1])
        z = h.reshape(h.shape[0], -1) @ params[2]
        logp = z - jnp.log(jnp.sum(jnp.exp(z), axis=1, keepdims=True))
        return -jnp.sum(logp * onehot) * (1.0 / x.shape[0])

    with jax.enable_x64(False):
        jg = jax.jit(jax.grad(jloss))(jax.tree_util.tree_map(jnp.asarray, params), jnp.asarray(x),
                                       jnp.asarray(onehot))
        jg = [np.asarray(a) for a in jax.tree_util.tree_leaves(jg)]
    fg = fgrad.jit(fgrad.grad(_cnn_loss))(params, x, onehot)
    for a, b in zip(fgrad.tree_util.tree_leaves(fg), jg):
        np.testing.assert_allclose(np.asarray(a), b, rtol=2e-4, atol=2e-5 * max(1.0, np.abs(b).max()))


def test_patches_missing_at_run_time_fall_back_to_the_convolution():
    # `conv_from_patches` given no patches (or patches of another dtype) computes them itself
    x = RNG.standard_normal((3, 2, 9, 9)).astype(np.float32)
    g = RNG.standard_normal((3, 4, 9, 9)).astype(np.float32)
    dn = C.ConvDimensionNumbers((1, 0, 2, 3), (1, 0, 2, 3), (1, 0, 2, 3))
    params = dict(window_strides=(1, 1), padding=((1, 1), (1, 1)), lhs_dilation=(1, 1), rhs_dilation=(1, 1),
                  dimension_numbers=dn, feature_group_count=1, batch_group_count=1)
    want = C._conv_impl(np, x, g, **params)
    for patches in (None, np.zeros((3, 18, 81), np.float64)):
        np.testing.assert_array_equal(C.conv_from_patches(np, patches, x, g, out=(3, 3), **params), want)


def test_patch_keys_pair_a_forward_convolution_with_its_weight_gradient_only():
    f32 = np.dtype(np.float32)
    # a dilated 'SAME' convolution and its weight gradient as JAX's transpose rule writes it:
    # lhs (N, C) swapped, the cotangent as kernel, strides and dilation swapped
    fwd = dict(window_strides=(1, 1), padding=((2, 2), (2, 2)), lhs_dilation=(1, 1), rhs_dilation=(2, 2),
               feature_group_count=1, batch_group_count=1,
               dimension_numbers=C.ConvDimensionNumbers((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3)))
    role, key, out = C.patch_key((2, 3, 14, 14), (4, 3, 3, 3), f32, fwd)
    assert role == "rows" and out == (14, 14)
    wgrad = dict(fwd, window_strides=(2, 2), rhs_dilation=(1, 1),
                 dimension_numbers=C.ConvDimensionNumbers((1, 0, 2, 3), (1, 0, 2, 3), (1, 0, 2, 3)))
    role_w, key_w, out_w = C.patch_key((2, 3, 14, 14), (2, 4, 14, 14), f32, wgrad)
    assert (role_w, key_w, out_w) == ("features", key, (3, 3))
    # other padding, another dtype, other lhs axes, feature groups: no pairing
    assert C.patch_key((2, 3, 14, 14), (2, 4, 14, 14), f32, dict(wgrad, padding=((2, 2), (1, 3))))[1] != key
    assert C.patch_key((2, 3, 14, 14), (2, 4, 14, 14), np.dtype(np.float64), wgrad)[1] != key
    other = dict(wgrad, dimension_numbers=C.ConvDimensionNumbers((1, 0, 3, 2), (1, 0, 2, 3), (1, 0, 2, 3)))
    assert C.patch_key((2, 3, 14, 14), (2, 4, 14, 14), f32, other)[1] != key
    assert C.patch_key((4, 4, 20, 20), (6, 2, 3, 3), f32, dict(fwd, feature_group_count=2)) is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("c", [8, 2])  # 72 patch rows: one GEMM; 18: one GEMM per image, summed
def test_weight_gradient_is_within_the_dot_product_rounding_bound(dtype, c):
    # session 16: the weight gradient is one GEMM over all N*P terms (before: one GEMM per
    # image, then a sum over the images): another summation order, so the numbers moved by
    # rounding only.  Each entry is a dot product of n = N*P terms; its float error is at
    # most about n * eps * sum|x_i g_i| (the classic bound, gamma_n), far more than BLAS's
    # blocked sums reach.  Checked against the exact sums (float64 of float32 data, and
    # the integers 0..3 in float64, whose sums are exact in either order).
    x = RNG.standard_normal((16, c, 10, 10)).astype(dtype)
    g = RNG.standard_normal((16, 12, 10, 10)).astype(dtype)
    dn = C.ConvDimensionNumbers((1, 0, 2, 3), (1, 0, 2, 3), (1, 0, 2, 3))
    params = dict(window_strides=(1, 1), padding=((1, 1), (1, 1)), lhs_dilation=(1, 1), rhs_dilation=(1, 1),
                  dimension_numbers=dn, feature_group_count=1, batch_group_count=1)
    got = C._conv_impl(np, x, g, **params)  # dW (O, C, 3, 3)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    exact = np.zeros((12, c, 3, 3))
    size = np.zeros((12, c, 3, 3))
    for ki in range(3):
        for kj in range(3):
            win = xp[:, :, ki:ki + 10, kj:kj + 10]
            exact[:, :, ki, kj] = np.einsum("ncij,noij->oc", win, g.astype(np.float64))
            size[:, :, ki, kj] = np.einsum("ncij,noij->oc", np.abs(win), np.abs(g.astype(np.float64)))
    n_terms = 16 * 10 * 10
    bound = n_terms * np.finfo(dtype).eps * size
    assert np.all(np.abs(got - exact) <= bound)
    assert np.abs(got - exact).max() < 0.01 * bound.max()  # in practice far inside it
    ints = RNG.integers(0, 4, x.shape).astype(np.float64), RNG.integers(0, 4, g.shape).astype(np.float64)
    got = C._conv_impl(np, *ints, **params)
    xp = np.pad(ints[0], ((0, 0), (0, 0), (1, 1), (1, 1)))
    for ki in range(3):
        for kj in range(3):
            want = np.einsum("ncij,noij->oc", xp[:, :, ki:ki + 10, kj:kj + 10], ints[1])
            np.testing.assert_array_equal(got[:, :, ki, kj], want)
