"""The rest of `fgrad.lax` (`fgrad/_lax_more.py`): each function against NumPy/Python
references, derivatives by finite differences, vmap against loops, and JAX's numbers live
when jax is installed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad import lax


def A(x):
    return np.asarray(x)


# ---- complex ----------------------------------------------------------------------------


def test_complex_is_exact_for_infinities_and_keeps_precision():
    z = lax.complex(np.float32([1.0, -0.0]), np.float32([np.inf, 2.0]))
    assert z.dtype == np.complex64
    assert A(z)[0].real == 1.0 and A(z)[0].imag == np.inf  # x + 1j*y would give nan + inf j
    assert np.signbit(A(z)[1].real)
    assert lax.complex(1.0, 2.0).dtype == np.complex128
    with pytest.raises(TypeError, match="floating point"):
        lax.complex(np.int32(1), 2.0)


def test_complex_derivatives_match_finite_differences_and_jax_convention():
    c = 0.3 - 1.7j

    def f(x, y):
        return fnp.real(lax.complex(x, y) * c) + fnp.imag(lax.complex(x, y) ** 2)

    gx, gy = fgrad.grad(f, argnums=(0, 1))(0.8, -0.4)
    eps = 1e-6
    fd_x = (f(0.8 + eps, -0.4) - f(0.8 - eps, -0.4)) / (2 * eps)
    fd_y = (f(0.8, -0.4 + eps) - f(0.8, -0.4 - eps)) / (2 * eps)
    np.testing.assert_allclose([float(gx), float(gy)], [float(fd_x), float(fd_y)], rtol=1e-8)
    out, tangent = fgrad.jvp(lambda x: lax.complex(x, 2.0 * x), (1.0,), (1.0,))
    assert complex(tangent) == 1 + 2j
    np.testing.assert_allclose(A(fgrad.vmap(lax.complex)(fnp.arange(3.0), fnp.ones(3))), np.arange(3) + 1j)


# ---- select_n, reduce ------------------------------------------------------------------------


def test_select_n_picks_cases():
    which = np.array([2, 0, 1, 2])
    cases = [np.full(4, float(i)) for i in range(3)]
    np.testing.assert_array_equal(A(lax.select_n(which, *cases)), np.choose(which, cases))
    picked = lax.select_n(np.array([True, False]), np.zeros(2), np.ones(2))
    np.testing.assert_array_equal(A(picked), [1.0, 0.0])
    np.testing.assert_array_equal(A(lax.select_n(1, np.zeros(2), np.ones(2))), [1.0, 1.0])
    with pytest.raises(TypeError, match="one dtype"):
        lax.select_n(0, np.zeros(2), np.zeros(2, np.float32))
    g = fgrad.grad(lambda a, b: fnp.sum(lax.select_n(np.array([True, False, True]), a, b)), argnums=(0, 1))(
        fnp.ones(3), fnp.ones(3))
    np.testing.assert_array_equal(A(g[0]), [0, 1, 0])
    np.testing.assert_array_equal(A(g[1]), [1, 0, 1])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_reduce_general_computation_matches_numpy(shape, data):
    x = np.random.default_rng(len(shape)).standard_normal(shape)
    dims = tuple(sorted(data.draw(st.sets(st.integers(0, len(shape) - 1), min_size=1))))
    # logaddexp is not a monoid fgrad recognizes: the pairwise tree path
    got = lax.reduce(x, -np.inf, fnp.logaddexp, dims)
    np.testing.assert_allclose(A(got), _np_reduce(np.logaddexp, x, dims, -np.inf), rtol=1e-12)


def _np_reduce(uf, x, dims, init):
    out = np.moveaxis(x, dims, tuple(range(len(dims))))
    out = out.reshape((-1,) + out.shape[len(dims):])
    return uf.reduce(np.concatenate([np.full((1,) + out.shape[1:], init), out]), axis=0)


def test_reduce_recognizes_monoids_and_handles_pytrees_and_gradients():
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(A(lax.reduce(x, 0.0, lax.add, (0,))), x.sum(0))
    np.testing.assert_allclose(A(lax.reduce(x, -np.inf, lax.max, (0, 1))), 11.0)
    jaxpr = fgrad.make_jaxpr(lambda x: lax.reduce(x, 0.0, lambda a, b: a + b, (1,)))(x)
    assert "reduce_sum" in str(jaxpr)  # the dedicated reduction, not a tree of adds
    # argmax as a variadic reduce over (value, index)
    vals = np.array([[3.0, 9.0, 1.0, 9.5], [2.0, -1.0, 7.0, 0.0]])
    idx = np.broadcast_to(np.arange(4), vals.shape)

    def pick(a, b):
        take_a = a[0] >= b[0]
        return fnp.where(take_a, a[0], b[0]), fnp.where(take_a, a[1], b[1])

    best, where = lax.reduce((vals, idx), (-np.inf, 0), pick, (1,))
    np.testing.assert_array_equal(A(where), [3, 2])
    np.testing.assert_array_equal(A(best), [9.5, 7.0])
    # gradient through the general path (a product written as a lambda with a non-identity use)
    f = lambda v: fnp.sum(lax.reduce(v, 1.0, lambda a, b: a * b * 1.0, (0,)))  # noqa: E731
    v = np.array([[1.5, 2.0], [0.5, 3.0], [2.0, -1.0]])
    np.testing.assert_allclose(A(fgrad.grad(f)(v)), np.prod(v, 0) / v, rtol=1e-12)
    np.testing.assert_array_equal(A(lax.reduce(np.zeros((0, 2)), 5.0, lambda a, b: a * b, (0,))), [5.0, 5.0])


def test_reduce_xor_population_count_clz():
    x = np.array([[1, 2, 4], [3, 3, 0]], np.uint8)
    np.testing.assert_array_equal(A(lax.reduce_xor(x, (1,))), np.bitwise_xor.reduce(x, axis=1))
    vals = np.array([0, 1, 2, 255, -1, -128, 77, 2**31 - 1], np.int64).astype(np.int32)
    np.testing.assert_array_equal(A(lax.population_count(vals)),
                                  [bin(int(v) & 0xFFFFFFFF).count("1") for v in vals])
    np.testing.assert_array_equal(A(lax.clz(vals)), [32 - (int(v) & 0xFFFFFFFF).bit_length() for v in vals])
    u64 = np.array([0, 1, 2**40, 2**64 - 1], np.uint64)
    np.testing.assert_array_equal(A(lax.clz(u64)), [64 - int(v).bit_length() for v in u64])
    assert lax.population_count(vals).dtype == np.int32


# ---- slicing and shapes ---------------------------------------------------------------------


def test_in_dim_updates_index_take_split_unstack_collapse():
    op = np.zeros((3, 5))
    got = lax.dynamic_update_slice_in_dim(op, np.ones((3, 2)), -2, axis=1)
    want = op.copy()
    want[:, 3:] = 1
    np.testing.assert_array_equal(A(got), want)
    got = lax.dynamic_update_index_in_dim(op, np.arange(5.0), 1, axis=0)
    want = op.copy()
    want[1] = np.arange(5.0)
    np.testing.assert_array_equal(A(got), want)
    src = np.arange(24).reshape(2, 3, 4)
    i0, i2 = np.array([1, 0, 1]), np.array([3, 3, 0])
    np.testing.assert_array_equal(A(lax.index_take(src, (i0, i2), (0, 2))), src[i0, :, i2])
    parts = lax.split(np.arange(10.0), (3, 0, 7))
    assert [p.shape for p in parts] == [(3,), (0,), (7,)]
    with pytest.raises(ValueError, match="sum to"):
        lax.split(np.arange(10.0), (3, 3))
    assert [u.shape for u in lax.unstack(np.zeros((2, 3, 4)), axis=-1)] == [(2, 3)] * 4
    assert lax.collapse(np.zeros((2, 3, 4, 5)), 1).shape == (2, 60)
    np.testing.assert_array_equal(A(lax.broadcasted_iota(np.int32, (2, 3), 0)), [[0, 0, 0], [1, 1, 1]])
    assert lax.broadcast_to_rank(np.ones((2, 3)), 4).shape == (1, 1, 2, 3)
    np.testing.assert_array_equal(A(lax.tile(np.array([[1, 2]]), (2, 2))), np.tile([[1, 2]], (2, 2)))
    bm = lax.batch_matmul(np.ones((4, 2, 3)), np.ones((4, 3, 5)))
    np.testing.assert_allclose(A(bm), np.full((4, 2, 5), 3.0))
    np.testing.assert_allclose(A(lax.reciprocal(np.array([2.0, -4.0]))), [0.5, -0.25])
    # gradients flow through the slicing helpers
    g = fgrad.grad(lambda u: fnp.sum(lax.dynamic_update_index_in_dim(fnp.zeros((3, 2)), u, 1, 0) ** 2))(
        fnp.array([1.0, 2.0]))
    np.testing.assert_allclose(A(g), [2.0, 4.0])


def test_shape_tuples_agree_with_the_operations():
    lhs, rhs = (2, 3, 9, 7), (4, 3, 3, 2)
    pads = ((1, 1), (0, 2))
    y = lax.conv_general_dilated(np.ones(lhs), np.ones(rhs), (2, 1), pads)
    assert lax.conv_shape_tuple(lhs, rhs, (2, 1), pads) == y.shape
    w = lax.reduce_window(np.ones((5, 8)), 0.0, lax.add, (2, 3), (2, 2), ((0, 1), (1, 0)))
    assert lax.reduce_window_shape_tuple((5, 8), (2, 3), (2, 2), ((0, 1), (1, 0))) == w.shape


# ---- reduce_precision ------------------------------------------------------------------------


def test_reduce_precision_rounds_like_bfloat16_and_float16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.random.default_rng(0).standard_normal(10000).astype(np.float32) * 100
    x = np.concatenate([x, np.float32([np.inf, -np.inf, 0.0, -0.0, 1.0 + 2 ** -8, 1.0 + 3 * 2 ** -8])])
    np.testing.assert_array_equal(A(lax.reduce_precision(x, 8, 7)),
                                  x.astype(ml_dtypes.bfloat16).astype(np.float32))
    normal = x[np.isfinite(x) & (np.abs(x) > 1e-3) & (np.abs(x) < 6e4)]
    np.testing.assert_array_equal(A(lax.reduce_precision(normal, 5, 10)),
                                  normal.astype(np.float16).astype(np.float32))
    assert np.isnan(A(lax.reduce_precision(np.float32(np.nan), 8, 7)))
    assert A(lax.reduce_precision(np.float32(1e5), 5, 10)) == np.inf  # overflow to signed inf
    assert A(lax.reduce_precision(np.float32(-1e-6), 5, 10)) == 0.0  # below float16's normal range
    t = fgrad.jvp(lambda v: lax.reduce_precision(v, 8, 7), (np.float32(1.0),),
                  (np.float32(1.0 + 2 ** -9),))[1]
    assert A(t) == np.float32(1.0)  # linear: the tangent is rounded too


# ---- small identities and odds --------------------------------------------------------------


def test_identities_platform_dependent_and_modes():
    tree = {"a": fnp.ones(2)}
    np.testing.assert_array_equal(np.asarray(lax.optimization_barrier(tree)["a"]), np.ones(2))
    assert lax.with_sharding_constraint(tree, None) is tree
    on_cpu = fgrad.default_backend() == "cpu"
    assert lax.platform_dependent(1.0, cpu=lambda v: v * 3, default=lambda v: v) == (3.0 if on_cpu else 1.0)
    assert lax.GatherScatterMode.from_any("clip") is lax.GatherScatterMode.CLIP
    x = fnp.arange(4.0)
    filled = x.at[6].get(mode=lax.GatherScatterMode.FILL_OR_DROP, fill_value=-1.0)
    np.testing.assert_array_equal(A(filled), -1.0)
    np.testing.assert_allclose(float(lax.lgamma(5.0)), np.log(24.0), rtol=1e-14)
    np.testing.assert_allclose(float(lax.igamma(2.0, 1.0)), 1 - 2 * np.exp(-1.0), rtol=1e-13)


def test_live_against_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jl = jax.lax
    x = np.random.default_rng(1).standard_normal((3, 4))
    hyp = lambda a, b: fnp.sqrt(a * a + b * b)  # noqa: E731 - associative, not a monoid fgrad knows
    np.testing.assert_allclose(A(lax.reduce(x, 0.0, hyp, (1,))),
                               np.asarray(jl.reduce(x, 0.0, lambda a, b: jax.numpy.hypot(a, b), (1,))),
                               rtol=1e-12)
    np.testing.assert_array_equal(A(lax.population_count(np.arange(-4, 40, dtype=np.int16))),
                                  np.asarray(jl.population_count(np.arange(-4, 40, dtype=np.int16))))
    np.testing.assert_array_equal(A(lax.clz(np.arange(-4, 40, dtype=np.int16))),
                                  np.asarray(jl.clz(np.arange(-4, 40, dtype=np.int16))))
    v = (np.random.default_rng(2).standard_normal(1000) * 1e3).astype(np.float32)
    for e, m in ((8, 7), (5, 10), (4, 3), (6, 2)):
        want = np.asarray(jl.reduce_precision(v, e, m))
        np.testing.assert_array_equal(A(lax.reduce_precision(v, e, m)), want)
    src = np.arange(24.0).reshape(2, 3, 4)
    idx = (np.array([1, 0]), np.array([2, 2]))
    want = np.asarray(jl.index_take(src, idx, (0, 1)))
    np.testing.assert_array_equal(A(lax.index_take(src, idx, (0, 1))), want)
    gj = jax.grad(lambda a, b: jax.numpy.real(jl.complex(a, b) * (0.3 - 1.7j)), argnums=(0, 1))(0.8, -0.4)
    gf = fgrad.grad(lambda a, b: fnp.real(lax.complex(a, b) * (0.3 - 1.7j)), argnums=(0, 1))(0.8, -0.4)
    np.testing.assert_allclose([float(g) for g in gf], [float(g) for g in gj], rtol=1e-15)
