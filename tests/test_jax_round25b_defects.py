"""Regression tests of what the round-25b JAX programs (tests/jax_programs_round25b/) found
(docs/jax-programs-round25b.md)."""

from __future__ import annotations

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
