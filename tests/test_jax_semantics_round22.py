"""JAX semantics where fgrad differed (round 22: weak types of composite ``jnp`` binary
functions, errors of integer-only ``lax`` ops under differentiation, special-function tails
and edges). Each test runs the same program on fgrad and -- when installed -- on JAX (x64
mode, fgrad's default), and compares both with the answer stored here (taken from JAX 0.10.2
by running the same snippet). See docs/jax-semantics.md."""

from __future__ import annotations

import numpy as np
import pytest

from _peers import jax_faces

FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])


def _kinds(out):
    return str(out.dtype), bool(out.weak_type)


@face
def test_weak_type_of_composite_binary_functions_with_python_scalars(name, jax, jnp, lax):
    """JAX's weak type of ``heaviside``/``float_power`` follows its inexact promotion (a Python
    float beside an int32 array is a weak float), ``hypot``/``logaddexp2`` are weak only when
    both operands as given are, ``isclose`` is never weak, a complex ``logaddexp`` beside a
    strong operand is strong, ``power`` of a bool-array exponent with an integer result is
    strong. fgrad had the opposite weak type in each of these."""
    i32, b = jnp.asarray([2], np.int32), jnp.asarray([True])
    # (call, stored JAX 0.10.2 (dtype, weak_type)) in x64 mode
    cases = [
        (lambda: jnp.heaviside(1.5, i32), ("float64", True)),
        (lambda: jnp.heaviside(2, b), ("float64", True)),
        (lambda: jnp.heaviside(i32, 1.5), ("float64", False)),
        (lambda: jnp.float_power(1.5, i32), ("float64", True)),
        (lambda: jnp.float_power(1j, i32), ("complex128", True)),
        (lambda: jnp.hypot(2, b), ("float64", False)),
        (lambda: jnp.hypot(1.5, 2.0), ("float64", True)),
        (lambda: jnp.logaddexp2(b, 2), ("float64", False)),
        (lambda: jnp.isclose(2, b), ("bool", False)),
        (lambda: jnp.isclose(1.5, 2.0), ("bool", False)),
        (lambda: jnp.logaddexp(1j, i32), ("complex128", False)),
        (lambda: jnp.logaddexp(1.5, i32), ("float64", True)),
        (lambda: jnp.power(2, b), ("int64", False)),
        (lambda: jnp.power(1.5, b), ("float64", True)),
    ]
    for call, stored in cases:
        assert _kinds(call()) == stored
        assert _kinds(jax.jit(call)()) == stored
    np.testing.assert_array_equal(np.asarray(jnp.heaviside(1.5, i32)), [1.0])
    np.testing.assert_array_equal(np.asarray(jnp.power(2, b)), [2])


@face
def test_shifts_take_bools_and_gcd_refuses_two_bools(name, jax, jnp, lax):
    """JAX's shifts promote bools as integers (two bools shift as int32, a bool beside uint8
    takes uint8, a Python int beside a bool array is a weak default int); fgrad refused bool
    operands. ``gcd``/``lcm`` of two bools is JAX's ``ValueError``; fgrad returned int8."""
    b = jnp.asarray([True, False])
    out = jnp.left_shift(2, b)
    assert _kinds(out) == ("int64", True)
    np.testing.assert_array_equal(np.asarray(out), [4, 2])
    out = jnp.right_shift(b, b)
    assert _kinds(out) == ("int32", False)
    np.testing.assert_array_equal(np.asarray(out), [0, 0])
    assert _kinds(jnp.left_shift(jnp.asarray([3], np.uint8), b[:1])) == ("uint8", False)
    assert _kinds(jnp.left_shift(b, True)) == ("int32", False)
    assert _kinds(jnp.left_shift(jnp.asarray([3], np.int32), 2)) == ("int32", False)
    assert _kinds(jnp.left_shift(1, 3)) == ("int64", True)
    with pytest.raises(TypeError):
        jnp.left_shift(jnp.asarray([1.0]), 1)
    for f in (jnp.gcd, jnp.lcm):
        with pytest.raises(ValueError):
            f(b, b)
        with pytest.raises(ValueError):
            f(b, True)
    np.testing.assert_array_equal(np.asarray(jnp.gcd(jnp.asarray([12]), b[:1])), [1])


@face
@pytest.mark.parametrize("op", ["population_count", "clz"])
def test_integer_only_lax_ops_under_differentiation_raise_not_implemented(name, jax, jnp, lax, op):
    """A float reaching ``lax.population_count``/``clz`` while it is differentiated is JAX's
    ``NotImplementedError`` (no differentiation rule); fgrad raised ``TypeError`` under
    ``grad`` (and without naming the op). Undifferentiated, both raise JAX's ``TypeError``;
    an integer cast of a differentiated float passes through (no derivative)."""
    f = getattr(lax, op)
    x = jnp.asarray([3.0, 7.5])
    with pytest.raises(NotImplementedError, match=op):
        jax.grad(lambda v: jnp.sum(f(v)))(x)
    with pytest.raises(NotImplementedError, match=op):
        jax.jvp(lambda v: jnp.sum(f(v)), (x,), (jnp.ones(2),))
    with pytest.raises(TypeError, match=f"{op} does not accept dtype float64"):
        f(x)
    g = jax.grad(lambda v: jnp.sum(f(v.astype(np.int32)) * v))(x)
    stored = {"population_count": [2.0, 3.0], "clz": [30.0, 29.0]}[op]  # JAX 0.10.2
    np.testing.assert_array_equal(np.asarray(g), stored)


@face
def test_zeta_derivative_in_s_at_the_pole_is_minus_inf(name, jax, jnp, lax):
    """``d zeta(s, q) / ds`` at ``s = 1`` (``q > 0``) is ``-inf`` (``-1/(s - 1)^2`` from both
    sides), as JAX; fgrad returned NaN. Off the pole nothing changes; ``q <= 0`` stays NaN."""
    zeta = jax.scipy.special.zeta
    ds = jax.grad(zeta, argnums=0)
    for q in (0.5, 2.0):
        assert float(ds(1.0, q)) == -np.inf
        assert float(jax.jit(ds)(1.0, q)) == -np.inf
    assert np.isnan(float(ds(1.0, -1.0)))
    out = jax.vmap(ds)(jnp.asarray([1.0, 2.0]), jnp.asarray([1.0, 1.0]))
    np.testing.assert_allclose(np.asarray(out), [-np.inf, -0.9375482543158438], rtol=1e-13)  # zeta'(2)


@face
def test_second_derivative_of_a_gamma_sample_in_its_shape_is_never_a_silent_zero(name, jax, jnp, lax):
    """The implicit gradient of ``random.gamma`` in its shape: its coefficient sat behind a
    ``stop_gradient``, so every Hessian was a silent 0. Round 22 raised; since round 23 fgrad
    computes it as JAX (tests/test_jax_semantics_round23.py checks the families and the
    analytic path). The first derivative is unchanged (JAX's, within rounding)."""
    a = jnp.asarray([1.4810514492761364, 1.1013348357581982, 3.9185761845350195])

    def total(v):
        return jnp.sum(jax.random.gamma(jax.random.key(5), v))
    g = jax.grad(total)(a)
    # JAX 0.10.2 (float64): the implicit reparameterization gradient
    np.testing.assert_allclose(np.asarray(g), [2.067370058600108, 1.67116845, 0.98040437458], rtol=1e-8)
    hess = jax.jacfwd(jax.jacrev(total))(a)
    np.testing.assert_allclose(float(hess[0, 0]), -0.4111434945843007, rtol=1e-9)  # JAX 0.10.2
