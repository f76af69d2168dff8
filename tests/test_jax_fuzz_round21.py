"""JAX semantics where fgrad differed (round 21, found by tools/jax_fuzz.py and its structured
cases, tools/jax_fuzz_cases.py). Each test runs the same program on fgrad and -- when
installed -- on JAX (x64 mode, fgrad's default), and compares both with the answer stored
here (taken from JAX 0.10.2 by running the same snippet). See docs/jax-semantics.md."""

from __future__ import annotations

import numpy as np
import pytest

from _peers import jax_faces

FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])


@face
def test_standardize_clips_a_fast_variance_that_rounds_below_zero(name, jax, jnp, lax):
    """``mean(x**2) - mean(x)**2`` rounds below ``-epsilon`` for float32 values near 1e4 that
    differ in their last bits: fgrad took the square root of it and returned NaN everywhere;
    JAX clips the variance at 0."""
    x = jnp.asarray([10000.001, 10000.002, 10000.001, 10000.001, 10000.002], np.float32)
    # JAX 0.10.2: jax.nn.standardize(x) and the gradient of sum(standardize(x) ** 3)
    stored = [-0.30881616, 0.0, -0.30881616, -0.30881616, 0.0]
    stored_grad = [36.18939, -54.284084, 36.18939, 36.18939, -54.284084]
    out = jax.nn.standardize(x)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.asarray(out), stored, rtol=1e-5, atol=1e-6)
    g = jax.grad(lambda v: jnp.sum(jax.nn.standardize(v) ** 3))(x)
    np.testing.assert_allclose(np.asarray(g), stored_grad, rtol=1e-5)


@face
def test_standardize_takes_the_algorithm_keyword(name, jax, jnp, lax):
    """``algorithm="stable"`` computes ``mean((x - mean)**2)`` (fgrad had no such keyword)."""
    x = jnp.asarray([10000.001, 10000.002, 10000.001, 10000.001, 10000.002], np.float32)
    stored = [-0.30034283, 0.0, -0.30034283, -0.30034283, 0.0]  # JAX 0.10.2
    np.testing.assert_allclose(np.asarray(jax.nn.standardize(x, algorithm="stable")), stored, rtol=1e-5,
                               atol=1e-6)
    y = jnp.asarray([1.0, 2.0, 4.0])
    np.testing.assert_allclose(np.asarray(jax.nn.standardize(y, algorithm="stable")),
                               (np.asarray(y) - 7 / 3) / np.sqrt(np.var(np.asarray(y)) + 1e-5), rtol=1e-12)
    with pytest.raises(ValueError, match="Unknown algorithm"):
        jax.nn.standardize(y, algorithm="exact")


@face
def test_complex_input_to_clip_standardize_and_entr_raises_value_error(name, jax, jnp, lax):
    """JAX refuses complex numbers in ``clip`` (no ordering), in ``standardize`` (whose
    variance ``mean(x**2) - mean**2`` is no variance for complex ``x``: fgrad returned it)
    and in ``entr``; fgrad computed all three."""
    z = jnp.asarray([1 + 1j, 2 - 1j, 0.5j], np.complex64)
    for call in (lambda: jnp.clip(z, 0), lambda: jnp.clip(jnp.asarray([1.0]), 1j),
                 lambda: jax.nn.standardize(z), lambda: jax.scipy.special.entr(z),
                 lambda: jax.jit(jax.scipy.special.entr)(z)):
        with pytest.raises(ValueError):
            call()
    # a variance given by the caller needs no clip: JAX 0.10.2 computes it
    out = jax.nn.standardize(z, variance=jnp.ones(1))
    stored = [0.83332915j, 0.999995 - 1.16666079j, -0.999995 + 0.33333165j]
    np.testing.assert_allclose(np.asarray(out), stored, rtol=1e-5, atol=1e-6)


@face
def test_gelu_of_a_python_number_is_strongly_typed(name, jax, jnp, lax):
    """JAX's ``gelu`` multiplies by NumPy scalars of the input's dtype: ``gelu(0)`` is a
    strong float64 (fgrad's was weak, so ``float32_array + gelu(0.5)`` was float32)."""
    for approximate in (True, False):
        for f in (lambda v: jax.nn.gelu(v, approximate=approximate),
                  jax.jit(lambda v: jax.nn.gelu(v, approximate=approximate))):
            for v in (0, 2.0):
                out = f(v)
                assert out.dtype == np.float64 and not out.weak_type, (approximate, v, out)
    assert (jnp.ones(2, np.float32) + jax.nn.gelu(0.5)).dtype == np.float64
    assert jax.nn.gelu(jnp.ones(2, np.float32)).dtype == np.float32
    np.testing.assert_allclose(float(jax.nn.gelu(2.0)), 1.954597694087775, rtol=1e-15)


@face
@pytest.mark.parametrize("fn", ["erf", "is_finite", "exp", "tanh", "lgamma", "sqrt", "logistic"])
def test_float_only_lax_functions_refuse_a_python_int(name, jax, jnp, lax, fn):
    """A Python int is an int64 to ``lax``: ``lax.erf(3)`` raises JAX's TypeError (fgrad
    computed it in floats); a Python float is accepted."""
    f = getattr(lax, fn)
    with pytest.raises(TypeError, match="does not accept dtype int64"):
        f(3)
    with pytest.raises(TypeError, match="does not accept dtype bool"):
        f(True)
    assert f(0.5).dtype == (np.bool_ if fn == "is_finite" else np.float64)
    with pytest.raises(TypeError, match="does not accept dtype int64"):
        lax.atan2(2, 2.5)  # the position is checked, whatever the other operand
    assert lax.neg(3).dtype == np.int64  # integers where accepted
    assert float(lax.round(2.5, 0)) == 3.0 and float(lax.round(2.5, 1)) == 2.0  # (a rounding method)
