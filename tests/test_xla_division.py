"""JAX's division as XLA computes it (`fgrad.numpy._xla_division`): a broadcast divisor, or a
Python scalar under jit, is inverted once and multiplied; PyTorch's face divides exactly.

Regression: fgrad's JAX face divided exactly, so ``x / 3.0``, ``jnp.mean``, ``jnp.var`` and
softmax's normalization differed from JAX in the last bit for about a third of float32 entries.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ft
from fgrad.test_util import check_grads

F32 = np.float32
RS = np.random.RandomState(0)
X = (RS.rand(300, 7).astype(F32) * 100).astype(F32)
Y = (RS.rand(300).astype(F32) + 0.5).astype(F32)


def _recip(x, y, dt=F32):
    return np.multiply(np.asarray(x, dt), np.true_divide(dt(1), np.asarray(y, dt)), dtype=dt)


def _bits(a):
    return np.asarray(a).view(np.uint32 if np.asarray(a).dtype == F32 else np.uint64)


def test_broadcast_divisor_is_inverted():
    got = fnp.asarray(X) / 3.0
    np.testing.assert_array_equal(_bits(got), _bits(_recip(X, 3.0)))
    assert (_bits(got) != _bits(X / F32(3))).any()  # the exact quotient differs: the test can fail
    got = fnp.asarray(X) / fnp.asarray(Y)[:, None]
    np.testing.assert_array_equal(_bits(got), _bits(_recip(X, Y[:, None])))
    got = fnp.divide(fnp.asarray(X), fnp.float32(3.0))
    np.testing.assert_array_equal(_bits(got), _bits(_recip(X, 3.0)))


def test_equal_shapes_and_numerator_broadcast_divide_exactly():
    np.testing.assert_array_equal(_bits(fnp.asarray(X) / fnp.asarray(X + 1)), _bits(X / (X + 1)))
    np.testing.assert_array_equal(_bits(3.0 / fnp.asarray(X)), _bits(F32(3) / X))
    for dt in (np.float16, np.complex64):  # other dtypes: the plain quotient
        a = (X + 1j * X).astype(dt) if dt == np.complex64 else X.astype(dt)
        np.testing.assert_array_equal(np.asarray(fnp.asarray(a) / 3.0), a / dt(3))


def test_scalar_quotient_exact_eagerly_inverted_under_jit():
    vals = X.ravel()[:200]
    eager = np.array([float(fnp.asarray(v) / 3.0) for v in vals], F32)
    np.testing.assert_array_equal(eager, vals / F32(3))
    f = fgrad.jit(lambda v: v / 3.0)
    jitted = np.array([np.asarray(f(fnp.asarray(v))) for v in vals], F32)
    np.testing.assert_array_equal(_bits(jitted), _bits(_recip(vals, 3.0)))


def test_jit_equals_eager_and_vmap_equals_loop():
    f = lambda x, y: x / y[:, None] + x / 7.0  # noqa: E731
    eager = np.asarray(f(fnp.asarray(X), fnp.asarray(Y)))
    np.testing.assert_array_equal(np.asarray(fgrad.jit(f)(X, Y)), eager)
    g = lambda row, s: row / s  # noqa: E731
    mapped = np.asarray(fgrad.vmap(g)(X, Y))
    loop = np.stack([np.asarray(g(fnp.asarray(X[i]), fnp.asarray(Y[i]))) for i in range(len(Y))])
    np.testing.assert_array_equal(mapped, loop)


def test_mean_and_var_multiply_by_the_count_reciprocal():
    x = fnp.asarray(X)
    s = np.asarray(fnp.sum(x, axis=1))
    np.testing.assert_array_equal(_bits(fnp.mean(x, axis=1)), _bits(_recip(s, 7.0)))
    np.testing.assert_array_equal(_bits(fgrad.jit(lambda a: fnp.mean(a, axis=1))(X)), _bits(_recip(s, 7.0)))
    c = X - np.asarray(fnp.mean(x, axis=1, keepdims=True))
    ss = np.asarray(fnp.sum(fnp.asarray(c * c), axis=1))
    np.testing.assert_array_equal(_bits(fnp.var(x, axis=1)), _bits(_recip(ss, 7.0)))


def test_gradients_still_correct():
    y = np.linspace(0.5, 2.0, 4)
    check_grads(lambda a, b: a / b[:, None], (np.linspace(-1, 1, 12).reshape(4, 3), y), order=2)
    check_grads(lambda a: fnp.mean(a * a, axis=0) / 3.0, (np.linspace(-1, 1, 12).reshape(4, 3),), order=2)


def test_jaxpr_shows_plain_div():
    text = str(fgrad.make_jaxpr(lambda x: x / 3.0)(np.ones(3, F32)))
    assert "div a 3.0" in text and "by_reciprocal" not in text


def test_torch_face_divides_exactly():
    t = ft.from_numpy(X)
    np.testing.assert_array_equal(_bits((t / 3.0).numpy()), _bits(X / F32(3)))
    np.testing.assert_array_equal(_bits(t.mean(1).numpy()), _bits(np.asarray(t.sum(1).numpy()) / F32(7)))


def test_matches_jax_live():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    cases = [
        (lambda x: x / 3.0, lambda x: x / 3.0),
        (lambda x: x / x[:, :1], lambda x: x / x[:, :1]),
        (lambda x: jnp.mean(x, axis=1), lambda x: fnp.mean(x, axis=1)),
        (jax.jit(lambda x: x[0, 0] / 3.0), fgrad.jit(lambda x: x[0, 0] / 3.0)),
        (lambda x: x[0, 0] / 3.0, lambda x: x[0, 0] / 3.0),
    ]
    for fj, ff in cases:
        np.testing.assert_array_equal(np.asarray(ff(fnp.asarray(X))), np.asarray(fj(jnp.asarray(X))))


def test_round_with_decimals_as_jax():
    # regression: fgrad rounded as NumPy (exact division by 10**d); JAX's jnp.round(0.48835, 4)
    # is 0.48839998 in float32
    x = (RS.rand(2000).astype(F32) * 10).astype(F32)
    for d in (1, 2, 4):
        f = F32(10.0 ** d)
        expect = _recip(np.rint(x * f), f)
        np.testing.assert_array_equal(_bits(fnp.round(fnp.asarray(x), d)), _bits(expect))
    assert float(fnp.round(fnp.asarray(0.48835, dtype=fnp.float32), 4)) == float(F32(0.48839998))
    np.testing.assert_array_equal(np.asarray(fnp.round(fnp.asarray(x), -1)), np.round(x, -1))
    assert ft.round(ft.tensor([0.48835]), decimals=4).item() == float(F32(0.4884))  # PyTorch divides


def test_round_matches_jax_live():
    jax = pytest.importorskip("jax")
    x = (RS.rand(2000).astype(F32) * 10).astype(F32)
    for d in (1, 2, 4, -1):
        np.testing.assert_array_equal(np.asarray(fnp.round(fnp.asarray(x), d)),
                                      np.asarray(jax.numpy.round(jax.numpy.asarray(x), d)))
