"""``lax.approx_max_k``/``approx_min_k``, ``conv_general_dilated_patches``, ``lax.dtype`` and
``lax.top_k``'s JAX types (a list, int32 indices).  Stored JAX 0.10.2 (x64) numbers, live JAX,
gradients, vmap and jit."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.test_util import check_grads

RNG = np.random.default_rng(0)


def test_top_k_is_jaxs_list_with_int32_indices():
    out = lax.top_k(fnp.asarray([1.0, 3.0, 2.0]), 2)
    assert isinstance(out, list) and out[1].dtype == np.int32  # was (values, int64 indices)
    assert out[1].tolist() == [1, 2]


def test_stored_jax_patches():
    x = fnp.arange(18.0).reshape(1, 2, 3, 3)
    p = lax.conv_general_dilated_patches(x, (2, 2), (1, 1), "VALID")
    assert p.shape == (1, 8, 2, 2)
    assert p[0, :, 0, 0].tolist() == [0.0, 1.0, 3.0, 4.0, 9.0, 10.0, 12.0, 13.0]
    assert p[0, :, 1, 1].tolist() == [4.0, 5.0, 7.0, 8.0, 13.0, 14.0, 16.0, 17.0]
    g = fgrad.grad(lambda x: (lax.conv_general_dilated_patches(x, (2, 2), (1, 1), "SAME") ** 2).sum())(x)
    np.testing.assert_allclose(g, [[[[0, 4, 8], [12, 32, 40], [24, 56, 64]],
                                    [[18, 40, 44], [48, 104, 112], [60, 128, 136]]]])


PATCH_CASES = [
    dict(filter_shape=(2, 3), window_strides=(1, 1), padding="VALID"),
    dict(filter_shape=(3, 2), window_strides=(2, 1), padding="SAME", rhs_dilation=(1, 2)),
    dict(filter_shape=(2, 2), window_strides=(1, 2), padding=[(1, 0), (0, 1)], lhs_dilation=(2, 1)),
    dict(filter_shape=(2, 3), window_strides=(1, 1), padding="SAME",
         dimension_numbers=("NHWC", "HWIO", "NHWC")),
]


@pytest.mark.parametrize("kw", PATCH_CASES)
def test_patches_live_jax(kw):
    jax = pytest.importorskip("jax")
    x = RNG.normal(size=(2, 3, 5, 6))
    if kw.get("dimension_numbers"):
        x = np.transpose(x, (0, 2, 3, 1))
    with jax.enable_x64(True):
        ref = jax.lax.conv_general_dilated_patches(jax.numpy.asarray(x), **kw)
    np.testing.assert_allclose(lax.conv_general_dilated_patches(fnp.asarray(x), **kw), ref, atol=1e-12)


def test_patches_derivatives_vmap_jit():
    x = fnp.asarray(RNG.normal(size=(1, 2, 4, 4)))
    f = lambda x: lax.conv_general_dilated_patches(x, (2, 2), (1, 1), "SAME")  # noqa: E731
    check_grads(f, (x,), order=2, modes=["fwd", "rev"])
    xs = fnp.asarray(RNG.normal(size=(3, 1, 2, 4, 4)))
    np.testing.assert_allclose(fgrad.vmap(f)(xs), np.stack([np.asarray(f(v)) for v in xs]))
    np.testing.assert_allclose(fgrad.jit(f)(x), f(x))


@pytest.mark.parametrize("dim", [-1, 0])
def test_approx_k_exact_like_jax_cpu(dim):
    jax = pytest.importorskip("jax")
    y = RNG.normal(size=(4, 7))
    with jax.enable_x64(True):
        pairs = [(lax.approx_max_k, jax.lax.approx_max_k), (lax.approx_min_k, jax.lax.approx_min_k)]
        for ours, theirs in pairs:
            va, ia = ours(fnp.asarray(y), 3, reduction_dimension=dim)
            vb, ib = theirs(jax.numpy.asarray(y), 3, reduction_dimension=dim)
            np.testing.assert_allclose(va, vb)
            assert ia.tolist() == np.asarray(ib).tolist() and ia.dtype == ib.dtype == np.int32
            ga = fgrad.grad(lambda z: (ours(z, 3, reduction_dimension=dim)[0] ** 2).sum())(
                fnp.asarray(y))
            gb = jax.grad(lambda z: (theirs(z, 3, reduction_dimension=dim)[0] ** 2).sum())(
                jax.numpy.asarray(y))
            np.testing.assert_allclose(ga, gb)


def test_approx_k_stored_and_errors():
    v, i = lax.approx_min_k(fnp.asarray([3.0, 1.0, 4.0, 1.5]), 2)
    assert v.tolist() == [1.0, 1.5] and i.tolist() == [1, 3]
    v, i = lax.approx_max_k(fnp.asarray([[1.0, 5.0], [7.0, 2.0]]), 1, reduction_dimension=0)
    assert v.tolist() == [[7.0, 5.0]] and i.tolist() == [[1, 0]]
    with pytest.raises(ValueError, match="k must be between"):
        lax.approx_max_k(fnp.ones(3), 4)
    with pytest.raises(ValueError, match="reduction_dimension"):
        lax.approx_max_k(fnp.ones(3), 1, reduction_dimension=2)


def test_lax_dtype():
    assert lax.dtype(1.0) == np.float64 and lax.dtype(np.int8(3)) == np.int8
    assert lax.dtype(fnp.ones(2, dtype="float32")) == np.float32
    assert lax.dtype(np.float64, canonicalize=True) == np.float64
