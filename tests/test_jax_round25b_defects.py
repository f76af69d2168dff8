"""Regression tests of what the round-25b JAX programs (tests/jax_programs_round25b/) found
(docs/jax-programs-round25b.md)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp


@pytest.mark.parametrize("transform", [lambda f: f, fgrad.jit])
def test_elementwise_operands_that_do_not_broadcast_raise_type_error_as_in_jax(transform):
    """``jnp.ones((1, 30)) - jnp.ones((24, 24))`` raises TypeError in JAX (``sub got incompatible
    shapes for broadcasting``); fgrad raised ValueError, so a program's ``except TypeError``
    missed it.  The error is now both (NumPy raises ValueError), naming the op and shapes."""
    sub = transform(lambda x, y: x - y)
    with pytest.raises(TypeError, match=r"sub.*\(1, 30\), \(24, 24\)"):
        sub(fnp.ones((1, 30)), fnp.ones((24, 24)))
    with pytest.raises(ValueError, match="broadcast"):
        transform(fnp.add)(fnp.ones(3), fnp.ones((2, 2)))
    assert sub(fnp.ones((1, 3)), fnp.ones((2, 1))).shape == (2, 3)  # broadcastable shapes still work


def test_polar_qdwh_refuses_a_square_left_decomposition_as_jax_does():
    """JAX's ``polar(a, side="left")`` with the default ``method="qdwh"`` runs QDWH on ``a^H``
    and so needs ``m < n``: a square matrix raises NotImplementedError (JAX 0.10.2); fgrad
    computed it, so a program that ran on fgrad failed on JAX.  ``method="svd"`` computes it."""
    from fgrad.scipy import linalg as sla
    F = fnp.asarray([[1.2, 0.3], [0.1, 0.9]])
    with pytest.raises(NotImplementedError, match="side='left'"):
        sla.polar(F, side="left")
    with pytest.raises(NotImplementedError, match="side='left'"):
        sla.polar(fnp.ones((3, 2)), side="left")
    u, p = sla.polar(F, side="left", method="svd")
    np.testing.assert_allclose(np.asarray(p @ u), np.asarray(F), atol=1e-12)
    assert sla.polar(fnp.ones((2, 3)), side="left")[0].shape == (2, 3)  # m < n: QDWH's shape
    assert sla.polar(F)[0].shape == (2, 2)  # side="right" of a square matrix is JAX's QDWH case
