"""XLA's division by a constant, where fgrad follows it: ``jnp.round(x, decimals)`` is JAX's
``round(x * 10**d) / 10**d`` with the division computed as XLA computes it, ``x * (1 / f)``
(the ``div`` primitive's ``by_reciprocal`` parameter).  Everywhere else fgrad divides exactly.

Regression: fgrad rounded as NumPy (exact division), so ``jnp.round(0.48835, 4)`` was
``0.4884`` where JAX prints ``0.48839998``.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ft
from fgrad.ops.elementwise import div_p

F32 = np.float32
RS = np.random.RandomState(0)
X = (RS.rand(300, 7).astype(F32) * 100).astype(F32)


def _recip(x, y, dt=F32):
    return np.multiply(np.asarray(x, dt), np.true_divide(dt(1), np.asarray(y, dt)), dtype=dt)


def _bits(a):
    return np.asarray(a).view(np.uint32 if np.asarray(a).dtype == F32 else np.uint64)


def test_by_reciprocal_eager_jit_vmap_and_devices_agree():
    f = lambda x: div_p.bind(x, 3.0, by_reciprocal=True)  # noqa: E731
    g = lambda x, y: div_p.bind(x, y, by_reciprocal=True)  # noqa: E731
    want = _recip(X, 3.0)
    assert (_bits(want) != _bits(X / F32(3))).any()  # the exact quotient differs: the test can fail
    np.testing.assert_array_equal(_bits(f(fnp.asarray(X))), _bits(want))
    np.testing.assert_array_equal(_bits(fgrad.jit(f)(X)), _bits(want))  # rewritten to div(1, y) + mul
    y = np.full(7, 3.0, F32)
    np.testing.assert_array_equal(_bits(fgrad.jit(g)(X, y)), _bits(want))
    np.testing.assert_array_equal(_bits(fgrad.vmap(g, (0, None))(X, y)), _bits(want))
    x16 = X.astype(np.float16)  # other dtypes divide
    np.testing.assert_array_equal(np.asarray(f(fnp.asarray(x16))), x16 / np.float16(3))
    assert "by_reciprocal" not in str(fgrad.make_jaxpr(f)(X))  # JAX prints a plain div


def test_by_reciprocal_gradients():
    from fgrad.test_util import check_grads
    check_grads(lambda a, b: div_p.bind(a, b, by_reciprocal=True),
                (np.linspace(-1, 1, 12).reshape(4, 3), np.linspace(0.5, 2.0, 3)), order=2)


def test_round_with_decimals_as_jax():
    x = (RS.rand(2000).astype(F32) * 10).astype(F32)
    for d in (1, 2, 4):
        f = F32(10.0 ** d)
        np.testing.assert_array_equal(_bits(fnp.round(fnp.asarray(x), d)), _bits(_recip(np.rint(x * f), f)))
    assert float(fnp.round(fnp.asarray(0.48835, dtype=fnp.float32), 4)) == float(F32(0.48839998))
    np.testing.assert_array_equal(np.asarray(fnp.round(fnp.asarray(x), -1)), np.round(x, -1))
    np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda v: fnp.round(v, 2))(x)),
                                  np.asarray(fnp.round(fnp.asarray(x), 2)))
    assert ft.round(ft.tensor([0.48835]), decimals=4).item() == float(F32(0.4884))  # PyTorch divides


def test_round_complex_rounds_each_part_as_jax():
    """Complex ``jnp.round(z, decimals)`` rounds the real and imaginary parts as real arrays
    (JAX's rule, so XLA's division by reciprocal applies to each); fgrad called NumPy's complex
    round, so ``round(complex64(-2.26779-2.06j), 4)`` was -2.2678 where JAX gives -2.2677999
    (the FFT outputs of the jax.numpy.fft page printed differently)."""
    re, im = X[:, 0] / 7, X[:, 1] / 3
    z = fnp.asarray((re + 1j * im).astype(np.complex64))
    for d in (1, 4):
        got = fnp.round(z, d)
        assert got.dtype == np.complex64
        np.testing.assert_array_equal(_bits(got.real), _bits(fnp.round(fnp.asarray(re), d)))
        np.testing.assert_array_equal(_bits(got.imag), _bits(fnp.round(fnp.asarray(im), d)))
    assert complex(fnp.round(fnp.asarray(-2.26779 - 2.0607j, dtype=fnp.complex64), 4)) == \
        complex(F32(-2.2677999), F32(-2.0607))
    np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda v: fnp.round(v, 2))(z)),
                                  np.asarray(fnp.round(z, 2)))


def test_round_complex_matches_jax_live():
    jax = pytest.importorskip("jax")
    z = ((X[:, 0] / 7) + 1j * (X[:, 1] / 3)).astype(np.complex64)
    for d in (0, 2, 4):
        np.testing.assert_array_equal(np.asarray(fnp.round(fnp.asarray(z), d)),
                                      np.asarray(jax.numpy.round(jax.numpy.asarray(z), d)))


def test_division_stays_exact():
    """Division by a number is exact on both faces; ``jnp.mean`` is JAX's sum times ``1 / count``
    (XLA folds its division by a constant so: test_jax_programs_round17 holds JAX's numbers),
    PyTorch's mean divides."""
    np.testing.assert_array_equal(_bits(fnp.asarray(X) / 3.0), _bits(X / F32(3)))
    s = np.asarray(fnp.sum(fnp.asarray(X), axis=1))
    np.testing.assert_array_equal(_bits(fnp.mean(fnp.asarray(X), axis=1)), _bits(_recip(s, 7)))
    assert (_bits(_recip(s, 7)) != _bits(s / F32(7))).any()  # the two differ: the test can fail
    t = ft.from_numpy(X)
    np.testing.assert_array_equal(_bits(t.mean(1).numpy()), _bits(t.sum(1).numpy() / F32(7)))


def test_round_matches_jax_live():
    jax = pytest.importorskip("jax")
    x = (RS.rand(2000).astype(F32) * 10).astype(F32)
    for d in (1, 2, 4, -1):
        np.testing.assert_array_equal(np.asarray(fnp.round(fnp.asarray(x), d)),
                                      np.asarray(jax.numpy.round(jax.numpy.asarray(x), d)))
