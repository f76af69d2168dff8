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
    for f in (jnp.arctan2, jax.jit(jnp.arctan2)):  # a Python scalar stays weak
        assert f(jnp.asarray([1.0], np.float32), 2.5).dtype == np.float32
        assert f(jnp.asarray([1], np.int32), 2).dtype == np.float32


# JAX 0.10.2, x64: these special functions of a Python float are strongly typed float64
STRONG_OF_A_PYTHON_FLOAT = ["ndtr", "ndtri", "log_ndtr", "spence", "gamma", "gammasgn", "erfcx", "dawsn",
                            "exp1", "expi", "fresnel", "sici"]


@face
@pytest.mark.parametrize("fn", STRONG_OF_A_PYTHON_FLOAT)
def test_special_functions_of_a_python_float_are_strong(name, jax, jnp, lax, fn):
    """fgrad kept the Python float's weak type; JAX's implementations cast to a concrete
    dtype, so ``jnp.float32(1) + ndtr(0.5)`` is float64 in JAX (it was float32 in fgrad)."""
    f = getattr(jax.scipy.special, fn)
    for out in (f(0.5), jax.jit(f)(0.5)):
        for leaf in (out if isinstance(out, tuple) else (out,)):
            assert leaf.dtype == np.float64 and not leaf.weak_type, (fn, leaf)
    assert (jnp.float32(1) + jax.tree_util.tree_leaves(f(0.5))[0]).dtype == np.float64


@face
@pytest.mark.parametrize("fn", ["ndtr", "ndtri", "log_ndtr", "spence"])
def test_floating_only_special_functions_refuse_integers(name, jax, jnp, lax, fn):
    """JAX raises ``TypeError`` for bool and integer input (Python ints too); fgrad computed."""
    f = getattr(jax.scipy.special, fn)
    for x in (jnp.asarray([1], np.int32), jnp.asarray([True]), 2):
        with pytest.raises(TypeError, match="is not supported"):
            f(x)
        with pytest.raises(TypeError, match="is not supported"):
            jax.jit(f)(x)
    assert f(jnp.asarray([0.5], np.float32)).dtype == np.float32


# (function, first operand, second operand, JAX's weak_type): JAX 0.10.2, x64
WEAK_NEXT_TO_A_STRONG_ARRAY = [
    ("hypot", "int32", 2.5, False), ("hypot", 2.5, "int32", False), ("hypot", 2.5, 3, True),
    ("logaddexp2", "int32", 2.5, False), ("logaddexp2", "bool", 2.5, False), ("logaddexp2", 2.5, 3.5, True),
    ("logaddexp", "int32", 2.5, True),
    ("logical_and", "int32", 2.5, False), ("logical_or", "bool", 2, False),
    ("logical_xor", 2.5, "int32", False),
    ("logical_and", 2, 3, True),
    ("power", 2.5, "int32", False), ("power", "int32", 2.5, True), ("power", 2.5, "bool", True),
    ("add", "int32", 2.5, True),
]


@face
@pytest.mark.parametrize("case", WEAK_NEXT_TO_A_STRONG_ARRAY, ids=lambda c: f"{c[0]}{c[1:3]}")
def test_weak_type_next_to_a_strong_array(name, jax, jnp, lax, case):
    """``hypot``, ``logaddexp2`` and the logical ops of a Python scalar and a strongly typed
    array are strong in JAX (its implementations take a strongly typed step), as is ``power``
    of a Python float and an integer array; fgrad marked them weak from the dtype lattice."""
    fn, a, b, weak = case
    args = [jnp.asarray([1, 0], x) if isinstance(x, str) else x for x in (a, b)]
    f = getattr(jnp, fn)
    for out in (f(*args), jax.jit(f)(*args)):
        assert bool(out.weak_type) is weak, (fn, a, b)


# (program, the exception type JAX 0.10.2 raises)
ERROR_TYPES = {
    "round(bool)": (lambda J, jnp: jnp.round(jnp.asarray([True])), ValueError),
    "i0(complex)": (lambda J, jnp: jnp.i0(jnp.asarray([1j], np.complex64)), ValueError),
    "ldexp(complex)": (lambda J, jnp: jnp.ldexp(jnp.asarray([1j], np.complex64), 2), ValueError),
    "spacing(complex)": (lambda J, jnp: jnp.spacing(jnp.asarray([1j], np.complex64)), ValueError),
    "copysign(complex)": (lambda J, jnp: jnp.copysign(jnp.asarray([1j], np.complex64), 2.0), TypeError),
    "softmax(empty bool)": (lambda J, jnp: J.nn.softmax(jnp.zeros(0, bool)), TypeError),
    "log_softmax(bool)": (lambda J, jnp: J.nn.log_softmax(jnp.asarray([True])), TypeError),
    "jit softmax(bool)": (lambda J, jnp: J.jit(J.nn.softmax)(jnp.asarray([True])), TypeError),
    "vmap softmax(bool)": (lambda J, jnp: J.vmap(J.nn.softmax)(jnp.asarray([True])), ValueError),  # axis
}


@face
@pytest.mark.parametrize("case", list(ERROR_TYPES))
def test_error_types_are_jaxs(name, jax, jnp, lax, case):
    """fgrad raised another type (``round`` of bools returned float16; ``softmax`` of an empty
    bool array raised NumPy's "zero-size array" ValueError)."""
    program, error = ERROR_TYPES[case]
    with pytest.raises(error):
        program(jax, jnp)


@face
def test_numpy_i0_keeps_a_weak_type(name, jax, jnp, lax):
    """``jnp.i0`` of a Python number is weakly typed in JAX (fgrad's was strong)."""
    for x in (2, 2.5):
        for out in (jnp.i0(x), jax.jit(jnp.i0)(x)):
            assert out.weak_type and out.dtype == np.float64
            np.testing.assert_allclose(float(out), {2: 2.2795853023360673, 2.5: 3.2898391440501231}[x])
    assert not jnp.i0(jnp.asarray([1.0], np.float32)).weak_type


@face
def test_complex_arctan2_at_zero_is_nan_without_a_warning(name, jax, jnp, lax):
    """``arctan2(0j, 0j)`` is NaN in JAX, silently; fgrad's complex formula divided 0 by 0 with
    NumPy's RuntimeWarning (atan2 was listed as a primitive that never warns)."""
    import warnings

    x = jnp.asarray([1 + 1j, 0j], np.complex64)
    y = jnp.asarray([1 + 0j, 0j], np.complex64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for out in (jnp.arctan2(x, y), jax.jit(jnp.arctan2)(x, y)):
            out = np.asarray(out)
            assert out.dtype == np.complex64
            np.testing.assert_allclose(out[0], 1.0172219 + 0.40235934j, rtol=1e-6)
            assert np.isnan(out[1].real) and np.isnan(out[1].imag)


@face
def test_reduction_initial_takes_the_operands_dtype(name, jax, jnp, lax):
    """JAX casts a reduction's ``initial`` to the operand's dtype before combining: fgrad
    promoted instead (``sum(int32 [0, 1, 2], initial=2.5)`` was 5.5 float64; JAX's is 5)."""
    x = jnp.asarray(np.arange(3, dtype=np.int32))
    f = jnp.asarray(np.arange(3, dtype=np.float32))
    cases = [(jnp.sum(x, initial=2.5), 5, np.int64), (jnp.max(x, initial=2.5), 2, np.int32),
             (jnp.min(x, initial=-0.5), 0, np.int32), (jnp.prod(x + 1, initial=2.5), 12, np.int64),
             (jnp.sum(f, initial=2.5), 5.5, np.float32), (jnp.max(x, initial=7), 7, np.int32)]
    for out, value, dtype in cases:
        assert out.dtype == dtype and out.item() == value, (out, value, dtype)
    g = jax.grad(lambda v: jnp.max(v, initial=1.5))(jnp.asarray([0.5, 2.0, 1.0]))
    np.testing.assert_array_equal(g, [0.0, 1.0, 0.0])


@face
def test_sigmoid_refuses_integers_and_bools(name, jax, jnp, lax):
    """``nn.sigmoid`` is ``lax.logistic`` in JAX and refuses integers and bools (Python ones
    too) with a TypeError; fgrad computed them in floats."""
    for v in (2, True, jnp.arange(3), jnp.asarray([True])):
        with pytest.raises(TypeError, match="logistic does not accept dtype"):
            jax.nn.sigmoid(v)
    np.testing.assert_allclose(jax.nn.sigmoid(jnp.asarray([0.0, 2.0])), [0.5, 0.8807970779778823])


@face
def test_zeta_is_differentiable_in_its_exponent(name, jax, jnp, lax):
    """``d zeta(s, q) / ds = -sum log(n + q) (n + q)^-s``: JAX computes it, fgrad refused
    (NotImplementedError). Values from mpmath's ``diff(zeta)`` (stored): first and second
    order, small q, s near 1, large s; under jit and vmap; fgrad's is NaN where the value is."""
    from fgrad.test_util import check_grads

    zeta = jax.scipy.special.zeta
    cases = [((3.0, 2.0), -0.19812624288563682), ((2.0, 1.0), -0.9375482543158438),
             ((1.5, 0.1), 68.82358581559163), ((2.0, 1e-3), 6907754.340630572),
             ((30.0, 2.5), -1.0564710072826e-12), ((1.01, 1.0), -9999.927281160435),
             ((5.0, 100.0), -1.2370019342410068e-08)]
    ds = jax.grad(zeta, argnums=0)
    for (s, q), want in cases:
        np.testing.assert_allclose(float(ds(s, q)), want, rtol=1e-13)
    np.testing.assert_allclose(float(jax.grad(ds)(3.0, 2.0)), 0.2397469173053872, rtol=1e-12)
    s = jnp.asarray([1.5, 2.0, 3.0])
    q = jnp.asarray([0.1, 1.0, 2.0])
    np.testing.assert_allclose(jax.jit(jax.vmap(ds))(s, q), [68.82358581559163, -0.9375482543158438,
                                                             -0.19812624288563682], rtol=1e-13)
    if name == "fgrad":  # zeta(0.5, 1) is NaN (SciPy, JAX); JAX's rule still returns zeta'(1/2)
        assert np.isnan(float(ds(0.5, 1.0)))
        check_grads(lambda s: zeta(s, 1.7), (jnp.asarray([2.5, 4.0]),), order=2, modes=("fwd", "rev"))
