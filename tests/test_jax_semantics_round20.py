"""JAX semantics where fgrad differed (round 20, found by tools/jax_fuzz.py). Each test runs
the same program on fgrad and -- when installed -- on JAX (x64 mode, fgrad's default), and
compares both with the answer stored here (taken from JAX 0.10.2 by running the same
snippet). See docs/jax-semantics.md."""

from __future__ import annotations

import numpy as np
import pytest

from _peers import jax_faces

FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])


@face
def test_arctan2_of_a_bool_or_int_and_complex64_stays_complex64(name, jax, jnp, lax):
    """``arctan2(bool_array, complex64_array)`` was complex128 in x64 mode (``1j * bools``
    is complex128 in NumPy) and, in 32-bit mode, computed in the wrong precision."""
    z = jnp.asarray([1 + 2j], np.complex64)
    # JAX 0.10.2, x64: arctan2(True, 1+2j), arctan2(int32 3, 1+2j), arctan2(1+2j, True)
    stored = [0.23182386 - 0.40235952j, 1.0793995 - 0.6412373j, 1.3389726 + 0.40235934j]
    outs = [jnp.arctan2(jnp.asarray([True]), z), jnp.arctan2(jnp.asarray([3], np.int32), z),
            jax.jit(jnp.arctan2)(z, jnp.asarray([True]))]
    for out, want in zip(outs, stored):
        assert out.dtype == np.complex64
        np.testing.assert_allclose(np.asarray(out)[0], want, rtol=2e-6)
