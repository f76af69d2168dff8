"""JAX semantics where fgrad differed (round 25: session 24's open items and the new fuzz
cases). Each test runs the same program on fgrad and -- when installed -- on JAX (x64 mode,
fgrad's default), and compares both with the answer stored here (taken from JAX 0.10.2 by
running the same snippet), or, where JAX's value is wrong, checks fgrad alone against the
analytic one. See docs/jax-semantics.md "Round 25"."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from _peers import jax_faces

FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])
inf, nan = np.inf, np.nan


def _special(name):
    return importlib.import_module("jax.scipy.special" if name == "jax" else "fgrad.scipy.special")


# -- solve/inv of a singular matrix: LU's infinities, not NaN ---------------------------------

SINGULAR = {  # matrix -> JAX 0.10.2's (and PyTorch's) inv, from the LU with partial pivoting
    "rank1_2x2": ([[1.0, 2.0], [2.0, 4.0]], [[-inf, inf], [inf, -inf]]),
    "rank2_3x3": ([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]],
                  [[nan, nan, nan], [-inf, inf, nan], [inf, -inf, nan]]),
    "zeros": ([[0.0, 0.0], [0.0, 0.0]], [[nan, nan], [nan, inf]]),
}


@face
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", sorted(SINGULAR))
def test_inv_and_solve_of_a_singular_matrix_are_the_lu_values(case, dtype, name, jax, jnp, lax):
    """``inv``/``solve`` of an exactly singular matrix divide by U's zero pivot (JAX's and
    PyTorch's LU solves); fgrad returned a NaN matrix."""
    a, want = SINGULAR[case]
    a = jnp.asarray(a, dtype)
    np.testing.assert_array_equal(np.asarray(jnp.linalg.inv(a)), want)
    np.testing.assert_array_equal(np.asarray(jnp.linalg.solve(a, jnp.eye(len(want), dtype=dtype))), want)
    batch = jnp.stack([a, jnp.eye(len(want), dtype=dtype)])  # a stack: matrix by matrix
    np.testing.assert_array_equal(np.asarray(jnp.linalg.inv(batch))[0], want)


@face
def test_slogdet_gradient_at_a_singular_matrix_is_infinite(name, jax, jnp, lax):
    """The gradient of ``log|det A|`` at a singular ``A`` is ``cof(A) / det(A)``, infinite:
    JAX gives ``+-inf`` (``[[inf, -inf], [-inf, inf]]``), fgrad gave NaN. The signs are one
    side's limit (det -> 0 from above or below): for a 2x2 matrix both compute
    ``cof(A) / det(A)`` with ``det(A) = +0`` (docs/jax-semantics.md)."""
    a = jnp.asarray([[1.0, 2.0], [2.0, 4.0]])
    g = np.asarray(jax.grad(lambda m: jnp.linalg.slogdet(m)[1])(a))
    assert np.isinf(g).all()
    cofactor_signs = np.sign([[4.0, -2.0], [-2.0, 1.0]])
    # (round 26: a 2x2 matrix's tangent is JAX's closed form cof(A) : dA / det(A), both sides
    # the same; before, fgrad's transposed LU gave the opposite signs)
    np.testing.assert_array_equal(np.sign(g), cofactor_signs)
    g32 = np.asarray(jax.grad(lambda m: jnp.linalg.slogdet(m)[1])(a.astype("float32")))
    assert np.isinf(g32).all() and g32.dtype == np.float32


# -- hyp1f1 at x = -inf: the limit ---------------------------------------------------------

HYP_A = [1.5, 0.5, 2.0, 1.0, 3.0, 0.0, -1.0, -1.5, -2.0, -1.0]
HYP_B = [2.0, 2.0, 1.5, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, -0.5]
# 1F1(a; b; x) ~ Gamma(b) / Gamma(b - a) (-x)^-a as x -> -inf (a negative integer: the
# polynomial's leading term; b = -0.5, a = -1: 1 + 2x)
HYP_LIMIT = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, inf, inf, inf, -inf]
# JAX 0.10.2: right for a > 0 except where its series gives NaN; 0 for a = -1.5 (wrong)
HYP_JAX = [0.0, 0.0, nan, 0.0, nan, 1.0, nan, 0.0, nan, nan]


def test_hyp1f1_at_minus_infinity_is_the_limit():
    """fgrad (SciPy) gave NaN at ``x = -inf`` for every ``a != 0``; JAX gives 0 for some
    ``a > 0`` and NaN or a wrong 0 elsewhere. fgrad now gives the limit, and the derivative
    ``a/b 1F1(a + 1; b + 1; x)`` follows it (0 for ``a > 0``, ``-inf`` at ``(-1.5, 2)``)."""
    hyp1f1 = _special("fgrad").hyp1f1
    a, b = fnp.asarray(HYP_A), fnp.asarray(HYP_B)
    x = fnp.full(len(HYP_A), -inf)
    np.testing.assert_array_equal(np.asarray(hyp1f1(a, b, x)), HYP_LIMIT)
    np.testing.assert_array_equal(np.asarray(hyp1f1(a.astype("float32"), b.astype("float32"),
                                                    x.astype("float32"))), HYP_LIMIT)
    g = fgrad.vmap(fgrad.grad(hyp1f1, argnums=2))(a, b, x)
    np.testing.assert_array_equal(np.asarray(g)[[0, 1, 2, 6, 7, 9]], [0.0, 0.0, 0.0, -0.5, -inf, 2.0])
    assert float(hyp1f1(1.5, 2.0, -3.0)) == pytest.approx(0.14839422163323268, rel=1e-14)  # finite x


@face
def test_hyp1f1_at_minus_infinity_agrees_with_jax_where_jax_is_right(name, jax, jnp, lax):
    """Where JAX's value is the limit (``a > 0`` in its series' range, and ``a = 0``) both agree."""
    hyp1f1 = _special(name).hyp1f1
    out = np.asarray(hyp1f1(jnp.asarray(HYP_A), jnp.asarray(HYP_B), jnp.full(len(HYP_A), -inf)))
    agree = [i for i, (j, lim) in enumerate(zip(HYP_JAX, HYP_LIMIT)) if j == lim]
    assert agree == [0, 1, 3, 5]
    np.testing.assert_array_equal(out[agree], np.asarray(HYP_LIMIT)[agree])
    if name == "jax":  # the stored values are JAX's
        np.testing.assert_array_equal(out, HYP_JAX)


# -- scipy.linalg.polar: JAX's method checks, stacks of matrices ------------------------------


@face
def test_polar_qdwh_left_needs_a_wide_matrix(name, jax, jnp, lax):
    """JAX's ``qdwh`` computes ``side='left'`` only for ``m < n`` (a square matrix raises its
    ``NotImplementedError``); fgrad accepted ``m <= n``."""
    with pytest.raises(NotImplementedError, match="qdwh"):
        jax.scipy.linalg.polar(jnp.eye(3) * 2.0, side="left")
    u, p = jax.scipy.linalg.polar(jnp.eye(3) * 2.0, side="left", method="svd")
    np.testing.assert_allclose(np.asarray(p), 2.0 * np.eye(3), atol=1e-15)


@face
def test_polar_of_a_stack_is_matrix_by_matrix(name, jax, jnp, lax):
    """JAX's ``polar`` vectorizes over leading axes; fgrad raised ``ValueError`` for a stack."""
    a = np.stack([[[3.0, 1.0], [0.0, 2.0]], [[0.0, -2.0], [1.0, 0.0]]])
    u, p = jax.scipy.linalg.polar(jnp.asarray(a))
    for k in range(2):
        uk, pk = jax.scipy.linalg.polar(jnp.asarray(a[k]))
        np.testing.assert_allclose(np.asarray(u)[k], np.asarray(uk), atol=1e-15)
        np.testing.assert_allclose(np.asarray(p)[k], np.asarray(pk), atol=1e-15)
    np.testing.assert_allclose(np.asarray(u)[1], [[0.0, -1.0], [1.0, 0.0]], atol=1e-15)
    np.testing.assert_allclose(np.asarray(p)[1], [[1.0, 0.0], [0.0, 2.0]], atol=1e-15)


# -- uint64 beside a signed integer: JAX's weak float ------------------------------------------


@face
@pytest.mark.parametrize("op", ["add", "multiply", "maximum", "equal", "subtract"])
def test_uint64_meeting_a_signed_integer_is_a_weak_float(op, name, jax, jnp, lax):
    """No integer type holds uint64 and int64: JAX's lattice joins them at the weak float
    ``f*``, so the result (even a comparison's bool) is weakly typed float64, eager and under
    ``jit``; fgrad's was strongly typed. Beside a float32 it then gives float32."""
    def f(a, b):
        return getattr(jnp, op)(a, b)
    x, y = jnp.asarray(np.array([8, 4], np.uint64)), jnp.asarray(np.array([4, -8], np.int64))
    for out in (f(x, y), jax.jit(f)(x, y), f(y, x)):
        assert out.dtype == (np.bool_ if op == "equal" else np.float64)
        assert out.weak_type
    assert (x + y + jnp.ones(2, "float32")).dtype == np.float32
    assert not (x.astype("uint32") + y).weak_type  # uint32 + int64 is int64
