"""Defects found by the docstring examples (tests/test_doc_examples.py): fgrad printed
something other than the peer."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax

# jax.random.laplace(jax.random.key(seed), shape, dtype) with jax_enable_x64 (JAX 0.10.2)
LAPLACE_JAX = {
    (0, (4,), "float64"): [0.17803369470862349, 0.8379627799904482, -2.66848707885639, -0.1613444047632622],
    (1, (3,), "float32"): [0.13094612956047058, -0.06989245116710663, 0.11447223275899887],
}


@pytest.mark.parametrize("seed,shape,dtype", list(LAPLACE_JAX))
def test_laplace_draws_jaxs_samples(seed, shape, dtype):
    """fgrad.random.laplace drew the negated sample (same distribution, not JAX's draw)."""
    got = fgrad.random.laplace(fgrad.random.key(seed), shape, dtype=dtype)
    rtol = 1e-6 if dtype == "float32" else 1e-14
    np.testing.assert_allclose(np.asarray(got), LAPLACE_JAX[(seed, shape, dtype)], rtol=rtol)


def test_laplace_matches_live_jax():
    jax = pytest.importorskip("jax")
    x64 = jax.config.jax_enable_x64
    try:
        jax.config.update("jax_enable_x64", True)
        want = np.asarray(jax.random.laplace(jax.random.key(7), (5,)))
    finally:
        jax.config.update("jax_enable_x64", x64)
    np.testing.assert_allclose(np.asarray(fgrad.random.laplace(fgrad.random.key(7), (5,))), want, rtol=1e-14)


def test_bitcast_of_different_widths_adds_an_axis_eagerly_and_under_jit():
    """Eagerly, bitcast_convert_type of float64 to float32 returned a flat array of twice the
    length (JAX adds a trailing axis); under jit it raised.  Both give JAX's ``(2, 2)`` now
    (test_jax_programs_round12.test_bitcast_between_widths)."""
    x = fnp.array([0.5, 1.0])
    want = np.array([0.5, 1.0]).view(np.float32).reshape(2, 2)
    for got in (lax.bitcast_convert_type(x, np.float32),
                fgrad.jit(lambda v: lax.bitcast_convert_type(v, np.float32))(x)):
        assert got.shape == (2, 2) and np.asarray(got).tolist() == want.tolist()


def test_bitcast_same_width_still_reinterprets():
    got = lax.bitcast_convert_type(fnp.array([1.0]), np.int64)
    assert np.asarray(got).tolist() == [np.array([1.0]).view(np.int64)[0]]
