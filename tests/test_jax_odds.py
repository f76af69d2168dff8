"""Smaller pieces of JAX's public API: ``jax.ops.segment_*`` (numbers against NumPy and live
JAX, gradients by finite differences, jit and vmap), ``float0`` (zero (co)tangents of
integers in jvp and custom_vjp rules), and ``jax.custom_derivatives``."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.ops import segment_max, segment_min, segment_prod, segment_sum

DATA = np.array([[1.0, -2.0], [3.0, 0.5], [-4.0, 2.0], [0.25, 8.0], [5.0, -1.0]])
IDS = np.array([2, 0, 2, 7, 0])  # 7 is out of range for 4 segments: dropped


def _np_segment(ufunc, init, data, ids, n):
    out = np.full((n,) + data.shape[1:], init, data.dtype)
    for row, s in zip(data, ids):
        if 0 <= s < n:
            out[s] = ufunc(out[s], row)
    return out


@pytest.mark.parametrize("fn, ufunc, init", [(segment_sum, np.add, 0.0), (segment_prod, np.multiply, 1.0),
                                             (segment_max, np.maximum, -np.inf),
                                             (segment_min, np.minimum, np.inf)])
def test_segment_reductions_match_numpy(fn, ufunc, init):
    got = fn(DATA, IDS, num_segments=4)
    np.testing.assert_array_equal(np.asarray(got), _np_segment(ufunc, init, DATA, IDS, 4))
    jitted = fgrad.jit(lambda d, i: fn(d, i, num_segments=4))(DATA, IDS)
    np.testing.assert_array_equal(np.asarray(jitted), np.asarray(got))
    batched = fgrad.vmap(lambda d: fn(d, IDS, num_segments=4))(np.stack([DATA, 2 * DATA]))
    np.testing.assert_array_equal(np.asarray(batched[1]), np.asarray(fn(2 * DATA, IDS, num_segments=4)))


def test_segment_num_segments_inferred_and_integer_identities():
    np.testing.assert_array_equal(np.asarray(segment_sum(np.ones(3), np.array([0, 3, 3]))), [1, 0, 0, 2])
    ints = segment_max(np.array([5, -3], np.int32), np.array([1, 1]), num_segments=2)
    np.testing.assert_array_equal(np.asarray(ints), [np.iinfo(np.int32).min, 5])
    with pytest.raises(TypeError, match="num_segments"):
        fgrad.jit(lambda i: segment_sum(np.ones(3), i))(np.array([0, 1, 1]))


def test_segment_gradients_match_finite_differences():
    w = np.array([0.3, -1.2])

    def loss(d):
        filled = segment_max(d, IDS, 4)[np.array([0, 2])]
        return fnp.sum(segment_sum(d, IDS, 4) ** 2 @ w) + fnp.sum(filled * 0.7)

    g = np.asarray(fgrad.grad(loss)(DATA))
    eps = 1e-6
    fd = np.zeros_like(DATA)
    for idx in np.ndindex(*DATA.shape):
        e = np.zeros_like(DATA)
        e[idx] = eps
        fd[idx] = (float(loss(DATA + e)) - float(loss(DATA - e))) / (2 * eps)
    np.testing.assert_allclose(g, fd, rtol=1e-7, atol=1e-8)


NEG_IDS = [0, -1, 2, 5, -128, 1]


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("n", [3, 200])
@pytest.mark.parametrize("mode", ["drop", "clip"])
def test_segment_negative_ids_every_width(dtype, n, mode):
    """Negative ids are dropped (or clipped to 0, large ones to n - 1), never counted from
    the end, for every id width and for more segments than an 8-bit id reaches (int8 ids
    with 200 segments raised OverflowError before); eager, jit, and the gradient."""
    data = np.arange(12.0).reshape(6, 2)
    ids = np.array(NEG_IDS, dtype)
    kept = [min(max(s, 0), n - 1) if mode == "clip" else s for s in NEG_IDS]
    want = np.zeros((n, 2))
    for row, s in zip(data, kept):
        if 0 <= s < n:
            want[s] += row
    seg = lambda d, i: segment_sum(d, i, num_segments=n, mode=mode)  # noqa: E731
    np.testing.assert_array_equal(np.asarray(seg(data, ids)), want)
    np.testing.assert_array_equal(np.asarray(fgrad.jit(seg)(data, ids)), want)
    w = np.arange(2.0 * n).reshape(n, 2)
    g = fgrad.grad(lambda d: fnp.sum(seg(d, fnp.asarray(ids)) * w))(data)
    np.testing.assert_array_equal(np.asarray(g), [w[s] if 0 <= s < n else [0, 0] for s in kept])
    jax = pytest.importorskip("jax")
    got_max = fgrad.jit(lambda d, i: segment_max(d, i, num_segments=n, mode=mode))(data, ids)
    want_max = jax.ops.segment_max(data, ids, num_segments=n, mode=mode)
    np.testing.assert_array_equal(np.asarray(got_max), np.asarray(want_max))


def test_segment_live_against_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    for name in ("segment_sum", "segment_prod", "segment_max", "segment_min"):
        want = getattr(jax.ops, name)(DATA, IDS, num_segments=4)
        got = globals()[name](DATA, IDS, num_segments=4)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    gj = jax.grad(lambda d: jax.numpy.sum(jax.ops.segment_max(d, IDS, 4)[:3]))(DATA)
    gf = fgrad.grad(lambda d: fnp.sum(segment_max(d, IDS, 4)[:3]))(DATA)
    np.testing.assert_allclose(np.asarray(gf), np.asarray(gj))


def test_float0_cotangents_and_tangents_of_integers():
    @fgrad.custom_vjp
    def scale(x, n):
        return x * n

    scale.defvjp(lambda x, n: (x * n, n), lambda n, g: (g * n, np.zeros(np.shape(n), fgrad.float0)))
    assert float(fgrad.grad(scale)(2.0, 3)) == 3.0
    out, t = fgrad.jvp(lambda x, n: x * n, (2.0, 3), (1.0, np.zeros((), fgrad.float0)))
    assert float(t) == 3.0
    with pytest.raises(TypeError, match="float0"):
        fgrad.jvp(lambda x: x * 2, (2.0,), (np.zeros((), fgrad.float0),))
    assert fgrad.float0 is fgrad.dtypes.float0


def test_custom_derivatives_module_names_the_same_objects():
    from fgrad import custom_derivatives

    assert custom_derivatives.custom_jvp is fgrad.custom_jvp
    assert custom_derivatives.custom_vjp is fgrad.custom_vjp
    assert custom_derivatives.closure_convert is fgrad.closure_convert
