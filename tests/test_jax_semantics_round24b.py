"""JAX semantics where fgrad differed (round 24, second part: the rest of the round-24 fuzz
cases). Each test runs the same program on fgrad and -- when installed -- on JAX (x64 mode,
fgrad's default), and compares both with the answer stored here (taken from JAX 0.10.2 by
running the same snippet). See docs/jax-semantics.md "Round 24"."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from _peers import jax_faces

FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])


def _special(name):
    return importlib.import_module("jax.scipy.special" if name == "jax" else "fgrad.scipy.special")


@face
def test_poch_is_one_at_m_zero_for_every_z(name, jax, jnp, lax):
    """JAX's ``poch`` is ``where(m == 0, 1, gamma(z + m) / gamma(z))``: 1 at ``m == 0`` even
    where Gamma(z) is a pole, infinite or NaN. fgrad's ``exp(lgamma(z + m) - lgamma(z))``
    gave NaN there."""
    z = jnp.asarray([-np.inf, -3.0, -0.0, 0.0, np.inf, np.nan, 2.5])
    out = _special(name).poch(z, jnp.zeros(7))
    np.testing.assert_array_equal(np.asarray(out), np.ones(7))


@face
def test_poch_derivatives_are_jax_rules(name, jax, jnp, lax):
    """JAX's custom JVP: d/dz = (digamma(z + m) - digamma(z)) poch, d/dm = digamma(z + m) poch,
    also at ``m == 0`` (``digamma(z)``): the rules that replaced fgrad's differentiated
    ``exp(lgamma(z + m) - lgamma(z))`` composition."""
    poch = _special(name).poch
    gz, gm = jax.vmap(jax.grad(poch, argnums=(0, 1)))(jnp.asarray([2.5, -0.5, 3.0]),
                                                       jnp.asarray([0.0, 0.0, 2.0]))
    np.testing.assert_allclose(np.asarray(gz), [0.0, 0.0, 12.0 * (1 / 3 + 1 / 4)], rtol=1e-13)
    np.testing.assert_allclose(np.asarray(gm), [0.7031566406452432, 0.03648997397857652,
                                                12.0 * 1.5061176684318003], rtol=1e-13)


@face
@pytest.mark.parametrize("side,stored", [("left", [[7, 0, 3, 5], [7, 0, 3, 5]]),
                                         ("right", [[7, 0, 5, 7], [7, 0, 5, 7]])])
def test_vmapped_searchsorted_puts_nan_last(side, stored, name, jax, jnp, lax):
    """Batched over the sorted array, ``searchsorted`` counted ``a < v`` (``a <= v``), so a NaN
    query gave 0 instead of NumPy's/JAX's order (NaN after everything), unlike the unbatched
    call."""
    a = np.asarray([-3.0, -2.0, -1.0, -0.0, -0.0, 1.0, 1.0])
    v = jnp.asarray([np.nan, -np.inf, 0.0, 1.0])
    out = jax.vmap(lambda s: jnp.searchsorted(s, v, side=side))(jnp.asarray(np.stack([a, a])))
    np.testing.assert_array_equal(np.asarray(out), stored)
    a_nan = jnp.asarray(np.stack([[0.0, 1.0, np.nan], [-1.0, np.nan, np.nan]]))
    out = jax.vmap(lambda s: jnp.searchsorted(s, jnp.asarray([np.nan, 2.0]), side=side))(a_nan)
    np.testing.assert_array_equal(np.asarray(out), [[2, 2], [1, 1]] if side == "left" else [[3, 2], [3, 1]])
