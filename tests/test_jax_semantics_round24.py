"""JAX semantics where fgrad differed (round 24: derivatives of the set operations and of
``lax.random_gamma_grad``). Each test runs the same program on fgrad and -- when installed --
on JAX (x64 mode, fgrad's default), and compares both with the answer stored here (taken
from JAX 0.10.2 by running the same snippet). See docs/jax-semantics.md."""

from __future__ import annotations

import numpy as np
import pytest

from _peers import jax_faces

FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])

_A = [3.0, 1.0, 2.0, 1.0, 5.0]
_B = [2.0, 7.0, 1.0]
_SET_OPS = ("union1d", "intersect1d", "setdiff1d", "setxor1d")


def _weighted(jnp, op, **kw):
    def loss(a, b):
        out = getattr(jnp, op)(a, b, **kw)
        return jnp.sum(out * jnp.arange(1.0, out.shape[0] + 1.0))
    return loss


@face
@pytest.mark.parametrize("op", _SET_OPS)
def test_set_operations_without_size_carry_no_derivative(op, name, jax, jnp, lax):
    """Without ``size`` JAX computes the result from the inputs' values (its
    ``concrete_or_error``), so ``grad``/``jvp``/``jacfwd`` are 0. fgrad sent each output's
    cotangent to the element it was taken from."""
    a, b = jnp.asarray(_A), jnp.asarray(_B)
    ga, gb = jax.grad(_weighted(jnp, op), argnums=(0, 1))(a, b)
    assert np.all(np.asarray(ga) == 0) and np.all(np.asarray(gb) == 0)
    out, tangent = jax.jvp(lambda u: getattr(jnp, op)(u, b), (a,), (jnp.ones(5),))
    assert out.shape[0] > 0 and np.all(np.asarray(tangent) == 0)
    assert np.all(np.asarray(jax.jacfwd(lambda u: getattr(jnp, op)(u, b))(a)) == 0)


# op -> JAX 0.10.2's gradient in the first operand of sum(op(a, b, assume_unique=True) * w)
_ASSUME_UNIQUE = {"intersect1d": [0.0, 1.0, 2.0, 0.0, 0.0], "setdiff1d": [1.0, 0.0, 0.0, 2.0, 3.0],
                  "setxor1d": [1.0, 0.0, 0.0, 2.0, 3.0]}


@face
@pytest.mark.parametrize("op", sorted(_ASSUME_UNIQUE))
def test_set_operations_assuming_unique_inputs_keep_the_derivative(op, name, jax, jnp, lax):
    """``assume_unique=True`` skips JAX's `unique` step, so the derivative flows to the
    element each value comes from; the fix above must not cut it."""
    a, b = jnp.asarray([3.0, 1.0, 2.0, 4.0, 5.0]), jnp.asarray(_B)
    ga = jax.grad(_weighted(jnp, op, assume_unique=True))(a, b)
    np.testing.assert_array_equal(np.asarray(ga), _ASSUME_UNIQUE[op])


@face
def test_intersect1d_default_padding_splits_the_derivative_like_jax(name, jax, jnp, lax):
    """With ``size`` and no ``fill_value``, JAX pads `intersect1d`/`setxor1d` with the minimum
    of ``where(valid, vals, max(vals))`` (invalid slots 0 there), whose derivative splits
    among equal values: here the one common value 0 ties with the padding. fgrad padded with
    the first value (all to it)."""
    a, b = jnp.asarray([0.0, 1.0, -3.0, -4.0, 3.0]), jnp.asarray([-1.0, 2.0, -2.0, 0.0])

    def f(u):
        return jnp.intersect1d(u, b, assume_unique=True, return_indices=True, size=3)[0]
    ga = jax.grad(lambda u: jnp.sum(f(u) * jnp.asarray([1.0, 2.0, 3.0])))(a)
    np.testing.assert_allclose(np.asarray(ga), [34 / 9, 0, 0, 0, 0], rtol=1e-15)
    _, tangent = jax.jvp(f, (a,), (jnp.arange(1.0, 6.0),))
    np.testing.assert_allclose(np.asarray(tangent), [1.0, 5 / 9, 5 / 9], rtol=1e-15)


@face
def test_random_gamma_grad_is_differentiated_in_forward_mode_only(name, jax, jnp, lax):
    """JAX's ``random_gamma_grad`` is a series summed by a ``while_loop``: ``jacfwd`` works in
    both arguments (to any order), ``grad``/``jacrev`` raise ``ValueError``. fgrad raised
    ``NotImplementedError`` in ``a`` and computed the reverse derivative in ``x``."""
    a, x = jnp.asarray(1.7), jnp.asarray(1.3)
    np.testing.assert_allclose(float(lax.random_gamma_grad(a, x)), 0.9595315247994836, rtol=1e-14)
    np.testing.assert_allclose(float(jax.jacfwd(lambda u: lax.random_gamma_grad(u, x))(a)),
                               -0.3494444221846324, rtol=1e-12)
    np.testing.assert_allclose(float(jax.jacfwd(jax.jacfwd(lambda u: lax.random_gamma_grad(u, x)))(a)),
                               0.3352491813844261, rtol=1e-11)
    np.testing.assert_allclose(float(jax.jacfwd(lambda v: lax.random_gamma_grad(jnp.asarray(2.0), v))(x)),
                               0.3606644941476147, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(jax.vmap(jax.jacfwd(lambda u: lax.random_gamma_grad(u, x)))(
        jnp.asarray([0.5, 1.7, 3.0]))), [-2.9023962, -0.34944442, -0.14050087], rtol=1e-7)
    with pytest.raises(ValueError, match="while_loop"):
        jax.grad(lambda u: lax.random_gamma_grad(u, x))(a)
    with pytest.raises(ValueError, match="while_loop"):
        jax.jacrev(lambda u: lax.random_gamma_grad(u, x))(a)
    with pytest.raises(ValueError, match="while_loop"):
        jax.grad(lambda v: lax.random_gamma_grad(a, v))(x)


@face
def test_random_gamma_grad_keeps_float32(name, jax, jnp, lax):
    """float32 operands give a float32 slope and derivative (fgrad computed in float64)."""
    a, x = np.float32(1.7), np.float32(1.3)
    assert lax.random_gamma_grad(a, x).dtype == np.float32
    d = jax.jacfwd(lambda u: lax.random_gamma_grad(u, x))(a)
    assert d.dtype == np.float32
    np.testing.assert_allclose(float(d), -0.3494444221846324, rtol=2e-6)
