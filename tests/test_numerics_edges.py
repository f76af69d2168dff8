"""Numerics at the edges of the functional face: values and derivatives at kinks, zeros,
infinities and singular inputs match JAX; dtypes of reductions and products match NumPy; and
IEEE special values never raise RuntimeWarnings.

Every JAX number is stored here (computed with jax 0.10, ``jax_enable_x64``) and, when jax is
installed, also recomputed live.  See docs/numerics.md for the conventions table.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import fgrad
import fgrad.lax as lax
import fgrad.numpy as fnp
from fgrad.core.quiet import quiet

INF, NAN = math.inf, math.nan


@pytest.fixture(scope="module")
def jax_modules():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    return jax, jnp


def A(x, dtype=np.float64):
    return fnp.asarray(np.asarray(x, dtype))


def grads(f, *args):
    """Gradient of ``f`` with respect to all of its scalar arguments, as a float list."""
    g = fgrad.grad(f, tuple(range(len(args))))(*[A(a) for a in args])
    return [float(np.asarray(v)) for v in g]


# ---------------------------------------------------------------------------------------
# the conventions table: (name, fgrad function, JAX's function name, args, JAX's gradient)

def _jnp(name):
    return lambda jnp, jax: {
        "relu": jax.nn.relu, "clip01": lambda x: jnp.clip(x, 0.0, 1.0),
        "norm1": lambda x: jnp.linalg.norm(x, 1), "norminf": lambda x: jnp.linalg.norm(x, np.inf),
        "normneginf": lambda x: jnp.linalg.norm(x, -np.inf), "norm2": jnp.linalg.norm,
    }.get(name) or getattr(jnp, name)


SCALAR_CONVENTIONS = [
    # name,          fgrad,                               jax name,    args,          JAX gradient
    ("abs'(0)", fnp.abs, "abs", (0.0,), [1.0]),
    ("abs'(-0.0)", fnp.abs, "abs", (-0.0,), [1.0]),
    ("abs'(-2)", fnp.abs, "abs", (-2.0,), [-1.0]),
    ("relu'(0)", fgrad.nn.relu, "relu", (0.0,), [0.0]),
    ("sign'(0)", fnp.sign, "sign", (0.0,), [0.0]),
    ("floor'", fnp.floor, "floor", (2.5,), [0.0]),
    ("ceil'", fnp.ceil, "ceil", (2.5,), [0.0]),
    ("round'", fnp.round, "round", (2.5,), [0.0]),
    ("trunc'", fnp.trunc, "trunc", (2.5,), [0.0]),
    ("sqrt'(0)", fnp.sqrt, "sqrt", (0.0,), [INF]),
    ("cbrt'(0)", fnp.cbrt, "cbrt", (0.0,), [INF]),
    ("log'(0)", fnp.log, "log", (0.0,), [INF]),
    ("maximum tie", fnp.maximum, "maximum", (1.0, 1.0), [0.5, 0.5]),
    ("minimum tie", fnp.minimum, "minimum", (1.0, 1.0), [0.5, 0.5]),
    ("fmax tie", fnp.fmax, "fmax", (1.0, 1.0), [0.0, 1.0]),
    ("fmin tie", fnp.fmin, "fmin", (1.0, 1.0), [0.0, 1.0]),
    ("fmax(nan, 1)", fnp.fmax, "fmax", (NAN, 1.0), [0.0, 1.0]),
    ("fmin(1, nan)", fnp.fmin, "fmin", (1.0, NAN), [1.0, 0.0]),
    ("power(0, 0.5)", fnp.power, "power", (0.0, 0.5), [INF, 0.0]),
    ("power(-2, 2.0)", fnp.power, "power", (-2.0, 2.0), [-4.0, NAN]),
    ("power(0, -1.0)", fnp.power, "power", (0.0, -1.0), [-INF, NAN]),
    ("clip at lower bound", lambda x: fnp.clip(x, 0.0, 1.0), "clip01", (0.0,), [0.5]),
    ("clip at upper bound", lambda x: fnp.clip(x, 0.0, 1.0), "clip01", (1.0,), [0.5]),
    ("clip outside", lambda x: fnp.clip(x, 0.0, 1.0), "clip01", (2.0,), [0.0]),
    ("arctan2(0, 0)", fnp.arctan2, "arctan2", (0.0, 0.0), [NAN, NAN]),
    ("hypot(0, 0)", fnp.hypot, "hypot", (0.0, 0.0), [0.5, 0.5]),
    ("hypot(0, -0.0)", fnp.hypot, "hypot", (0.0, -0.0), [0.5, 0.5]),
    ("hypot(inf, 1)", fnp.hypot, "hypot", (INF, 1.0), [NAN, NAN]),
    ("logaddexp(inf, inf)", fnp.logaddexp, "logaddexp", (INF, INF), [1.0, 1.0]),
    ("logaddexp(inf, 0)", fnp.logaddexp, "logaddexp", (INF, 0.0), [1.0, 1.0]),
    ("logaddexp(inf, -inf)", fnp.logaddexp, "logaddexp", (INF, -INF), [1.0, 0.0]),
    ("logaddexp(-inf, 0)", fnp.logaddexp, "logaddexp", (-INF, 0.0), [0.0, 1.0]),
    ("logaddexp(-inf, -inf)", fnp.logaddexp, "logaddexp", (-INF, -INF), [NAN, NAN]),
]


@pytest.mark.parametrize("name,f,jname,args,want", SCALAR_CONVENTIONS, ids=[c[0] for c in SCALAR_CONVENTIONS])
def test_scalar_conventions_match_jax(name, f, jname, args, want):
    np.testing.assert_array_equal(grads(f, *args), want)


@pytest.mark.parametrize("name,f,jname,args,want", SCALAR_CONVENTIONS, ids=[c[0] for c in SCALAR_CONVENTIONS])
def test_scalar_conventions_live_jax(jax_modules, name, f, jname, args, want):
    jax, jnp = jax_modules
    jf = _jnp(jname)(jnp, jax)
    live = [float(v) for v in jax.grad(jf, tuple(range(len(args))))(*[np.float64(a) for a in args])]
    np.testing.assert_array_equal(live, want)


ARRAY_CONVENTIONS = [
    # name,           fgrad,                                  jax name,     x,               JAX gradient
    ("max ties split", fnp.max, "max", [1.0, 3.0, 3.0], [0.0, 0.5, 0.5]),
    ("std of a constant", fnp.std, "std", [2.0, 2.0, 2.0], [NAN, NAN, NAN]),
    ("var of a constant", fnp.var, "var", [2.0, 2.0, 2.0], [0.0, 0.0, 0.0]),
    ("norm at 0", fnp.linalg.norm, "norm2", [0.0, 0.0, 0.0], [NAN, NAN, NAN]),
    ("norm ord=1 at 0", lambda x: fnp.linalg.norm(x, 1), "norm1", [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
    ("norm ord=inf at 0", lambda x: fnp.linalg.norm(x, np.inf), "norminf", [0.0, 0.0, 0.0], [1 / 6] * 3),
    ("norm ord=-inf at 0", lambda x: fnp.linalg.norm(x, -np.inf), "normneginf", [0.0, 0.0, 0.0], [1 / 3] * 3),
]


@pytest.mark.parametrize("name,f,jname,x,want", ARRAY_CONVENTIONS, ids=[c[0] for c in ARRAY_CONVENTIONS])
def test_array_conventions_match_jax(name, f, jname, x, want):
    np.testing.assert_allclose(np.asarray(fgrad.grad(f)(A(x))), want, rtol=1e-15)


@pytest.mark.parametrize("name,f,jname,x,want", ARRAY_CONVENTIONS, ids=[c[0] for c in ARRAY_CONVENTIONS])
def test_array_conventions_live_jax(jax_modules, name, f, jname, x, want):
    jax, jnp = jax_modules
    live = np.asarray(jax.grad(_jnp(jname)(jnp, jax))(np.asarray(x)))
    np.testing.assert_allclose(live, want, rtol=1e-15)


def test_zero_exponent_has_derivative_zero():
    # JAX: jnp.power(x, 0) is integer_pow (derivative 0), an integer-array exponent selects 0;
    # for a *float* exponent 0.0 JAX gives 0 * 0**-1 = nan at x = 0, fgrad (and PyTorch) 0
    assert grads(lambda x: fnp.power(x, 0), 0.0) == [0.0]
    assert float(np.asarray(fgrad.grad(lambda x: fnp.power(x, A(0, np.int64)))(A(0.0)))) == 0.0
    assert grads(fnp.power, 0.0, 0.0) == [0.0, 0.0]  # deliberate deviation: JAX [nan, 0]


def test_values_at_the_edges():
    assert float(np.asarray(fnp.std(A([2.0, 2.0])))) == 0.0
    assert float(np.asarray(fnp.arctan2(0.0, 0.0))) == 0.0
    assert float(np.asarray(fnp.hypot(0.0, 0.0))) == 0.0
    assert float(np.asarray(fnp.logaddexp(A(INF), A(INF)))) == INF
    assert float(np.asarray(fnp.logaddexp(A(-INF), A(-INF)))) == -INF


def test_matrix_norm_ties_with_zero_like_jax():
    z = A(np.zeros((2, 2)))
    for o in (1, np.inf):
        np.testing.assert_array_equal(np.asarray(fgrad.grad(lambda m: fnp.linalg.norm(m, o))(z)), 0.25)
    np.testing.assert_array_equal(np.asarray(fgrad.grad(lambda m: fnp.linalg.norm(m, 2))(z)),
                                  [[0.25, 0.0], [0.0, 0.25]])


# ---------------------------------------------------------------------------------------
# derivatives away from the kinks: finite differences


def _fd(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        out[i] = (float(np.asarray(f(A(x + e)))) - float(np.asarray(f(A(x - e))))) / (2 * eps)
    return out


@pytest.mark.parametrize("f,x", [
    (lambda v: fnp.sum(fnp.abs(v)), [-1.5, 0.3, 2.0]),
    (lambda v: fnp.hypot(v[0], v[1]), [3.0, -4.0]),
    (lambda v: fnp.hypot(v[0], v[1]), [-1e-3, 2e-3]),
    (lambda v: fnp.logaddexp(v[0], v[1]), [700.0, 699.0]),
    (lambda v: fnp.logaddexp(v[0], v[1]), [-3.0, 2.0]),
    (lambda v: fnp.linalg.det(fnp.reshape(v, (2, 2))), [1.0, 2.0, 3.5, 4.0]),
    (lambda v: fnp.linalg.det(fnp.reshape(v, (3, 3))), [1.0, 2, 0, 0.5, 1, 3, 2, 1, 1]),
    (lambda v: fnp.linalg.det(fnp.reshape(v, (4, 4))),
     [1.0, 2, 0, 0.5, 1, 3, 2, 1, 1, 0, 1, 2, 3, 1, 0, 1]),
])
def test_gradients_match_finite_differences(f, x):
    np.testing.assert_allclose(np.asarray(fgrad.grad(f)(A(x))), _fd(f, x), rtol=1e-6, atol=1e-8)


def test_hypot_gradient_keeps_float32_and_is_finite_on_overflow():
    g = fgrad.grad(fnp.hypot, (0, 1))(A(3.0, np.float32), A(4.0, np.float32))
    assert [v.dtype for v in g] == [np.float32, np.float32]
    np.testing.assert_allclose([float(np.asarray(v)) for v in g], [0.6, 0.8], rtol=1e-6)
    # h = inf by overflow: d/dx = x/h is still 1/sqrt(2) (computed scaled)
    big = grads(fnp.hypot, 1e308, 1e308)
    np.testing.assert_allclose(big, [math.sqrt(0.5)] * 2, rtol=1e-15)


# ---------------------------------------------------------------------------------------
# abs of complex input (JAX: d|z| = real(conj(z)/|z| dz), 0 at z = 0), real's transpose


def test_abs_complex_jvp_vjp_match_jax():
    z, t = np.complex128(3 + 4j), np.complex128(0.5 + 1j)
    y, ty = fgrad.jvp(fnp.abs, (A(z, np.complex128),), (A(t, np.complex128),))
    assert np.asarray(ty).dtype == np.float64
    assert float(np.asarray(ty)) == pytest.approx(1.1, rel=1e-15)  # JAX: 1.1
    (ct,) = fgrad.vjp(fnp.abs, A(z, np.complex128))[1](A(1.0))
    assert complex(np.asarray(ct)) == pytest.approx(0.6 - 0.8j, rel=1e-15)  # JAX: 0.6-0.8j
    _, t0 = fgrad.jvp(fnp.abs, (A(0j, np.complex128),), (A(t, np.complex128),))
    assert np.asarray(t0).dtype == np.float64 and float(np.asarray(t0)) == 0.0  # JAX: 0.0
    (c0,) = fgrad.vjp(fnp.abs, A(0j, np.complex128))[1](A(1.0))
    assert complex(np.asarray(c0)) == 0j
    # finite differences along the real and imaginary directions
    eps = 1e-7
    for d in (1.0, 1j):
        fd = (abs(z + eps * d) - abs(z - eps * d)) / (2 * eps)
        _, td = fgrad.jvp(fnp.abs, (A(z, np.complex128),), (A(d, np.complex128),))
        assert float(np.asarray(td)) == pytest.approx(fd, rel=1e-7)


def test_abs_complex_live_jax(jax_modules):
    jax, jnp = jax_modules
    z, t = np.complex128(3 + 4j), np.complex128(0.5 + 1j)
    assert float(jax.jvp(jnp.abs, (z,), (t,))[1]) == pytest.approx(1.1, rel=1e-15)
    assert complex(jax.vjp(jnp.abs, z)[1](1.0)[0]) == pytest.approx(0.6 - 0.8j, rel=1e-15)
    assert float(jax.jvp(jnp.abs, (0j,), (t,))[1]) == 0.0


def test_shim_abs_keeps_pytorchs_zero_gradient_at_zero():
    import fgrad.torch as torch

    x = torch.tensor([0.0, -0.0, -2.0, 3.0], requires_grad=True)
    x.abs().sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, -1.0, 1.0])  # PyTorch: sgn(x)
    assert type(x.abs().grad_fn).__name__ == "AbsBackward0"


def test_angle_matches_jax():
    z = A(3 + 4j, np.complex128)
    got = np.asarray(fnp.angle(A([1j, -1.0, 2.0], np.complex128)))
    np.testing.assert_allclose(got, [np.pi / 2, np.pi, 0.0])
    np.testing.assert_allclose(np.asarray(fnp.angle(A([1, -2], np.int64), deg=True)), [0.0, 180.0])
    _, t = fgrad.jvp(fnp.angle, (z,), (A(1j, np.complex128),))
    assert float(np.asarray(t)) == pytest.approx(0.12, rel=1e-14)  # JAX: 0.12
    (ct,) = fgrad.vjp(fnp.angle, z)[1](A(1.0))
    assert complex(np.asarray(ct)) == pytest.approx(-0.16 - 0.12j, rel=1e-14)  # JAX: -0.16-0.12j


def test_jvp_of_vjp_of_real_stays_complex():
    z = A(3 + 4j, np.complex128)

    def ct_of_real(w):
        return fgrad.vjp(fnp.real, w)[1](A(1.0))[0]

    y, t = fgrad.jvp(ct_of_real, (z,), (A(1 + 0j, np.complex128),))
    assert np.asarray(y).dtype == np.complex128 and np.asarray(t).dtype == np.complex128  # JAX: complex128
    assert complex(np.asarray(y)) == 1 + 0j and complex(np.asarray(t)) == 0j


def test_imag_conj_vjps_match_jax():
    z = A(3 + 4j, np.complex128)
    assert complex(np.asarray(fgrad.vjp(fnp.imag, z)[1](A(1.0))[0])) == -1j  # JAX: -1j
    assert complex(np.asarray(fgrad.vjp(fnp.real, z)[1](A(1.0))[0])) == 1 + 0j  # JAX: 1+0j
    g = fgrad.vjp(lambda w: fnp.abs(w) ** 2, z)[1](A(1.0))[0]
    assert complex(np.asarray(g)) == pytest.approx(6 - 8j, rel=1e-15)  # JAX: 6-8j


# ---------------------------------------------------------------------------------------
# erf family: real floating input only (JAX's lax.erf rejects complex)


@pytest.mark.parametrize("op", [lax.erf, lax.erfc, lax.erf_inv])
def test_erf_family_rejects_complex(op):
    with pytest.raises(TypeError, match="does not accept dtype complex128"):
        op(A(1 + 1j, np.complex128))
    with pytest.raises(TypeError, match="does not accept dtype complex64"):
        fgrad.jit(op)(A(0.5 + 1j, np.complex64))
    assert np.asarray(op(A(0.25, np.float32))).dtype == np.float32


# ---------------------------------------------------------------------------------------
# determinant of singular matrices (JAX: Leibniz formula for n <= 3, cofactor jvp for n >= 4)

SINGULAR_DET = [
    ([[1.0, 2.0], [2.0, 4.0]], [[4.0, -2.0], [-2.0, 1.0]]),
    ([[1.0, 2, 3], [2, 4, 6], [1, 0, 1]], [[4.0, 4.0, -4.0], [-2.0, -2.0, 2.0], [0.0, 0.0, 0.0]]),
    ([[1.0, 2, 3], [2, 4, 6], [3, 6, 9]], np.zeros((3, 3))),
    ([[1.0, 2, 3, 4], [0, 1, 0, 1], [1, 3, 3, 5], [2, 0, 1, 1]],  # rank 3
     [[1.0, 5.0, 3.0, -5.0], [1.0, 5.0, 3.0, -5.0], [-1.0, -5.0, -3.0, 5.0], [0.0, 0.0, 0.0, 0.0]]),
    (np.outer([1.0, 2, 0, 1], [1.0, 1, 2, 0]) + np.outer([0.0, 1, 1, 1], [2.0, 0, 1, 1]), np.zeros((4, 4))),
]


@pytest.mark.parametrize("a,want", SINGULAR_DET)
def test_det_gradient_of_singular_matrices_is_the_cofactor_matrix(a, want):
    g = np.asarray(fgrad.grad(fnp.linalg.det)(A(a)))
    assert np.isfinite(g).all()
    np.testing.assert_allclose(g, want, atol=1e-12)


@pytest.mark.parametrize("a,want", SINGULAR_DET)
def test_det_gradient_live_jax(jax_modules, a, want):
    jax, jnp = jax_modules
    np.testing.assert_allclose(np.asarray(jax.grad(jnp.linalg.det)(np.asarray(a))), want, atol=1e-12)


def test_det_values_batches_and_complex_match_numpy():
    rng = np.random.default_rng(0)
    for shape in [(1, 1), (2, 2), (3, 3), (4, 4), (2, 3, 3), (5, 5)]:
        a = rng.normal(size=shape)
        np.testing.assert_allclose(np.asarray(fnp.linalg.det(A(a))), np.linalg.det(a), rtol=1e-12)
        c = a + 1j * rng.normal(size=shape)
        np.testing.assert_allclose(np.asarray(fnp.linalg.det(A(c, np.complex128))), np.linalg.det(c),
                                   rtol=1e-12)
    a = rng.normal(size=(4, 4))
    want = np.linalg.det(a) * np.linalg.inv(a).T
    np.testing.assert_allclose(np.asarray(fgrad.grad(fnp.linalg.det)(A(a))), want, rtol=1e-10)


# ---------------------------------------------------------------------------------------
# dtypes: sum/prod (0-d included), vecdot, cross follow NumPy

_INT_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@given(dt=st.sampled_from(_INT_DTYPES + [np.float16, np.float32, np.complex64]),
       shape=st.sampled_from([(), (1,), (3,), (2, 3), (2, 1, 2)]),
       op=st.sampled_from(["sum", "prod"]), axis=st.sampled_from([None, 0, -1, ()]),
       seed=st.integers(0, 2**16))
@example(dt=np.uint8, shape=(), op="sum", axis=None, seed=0)
@example(dt=np.int16, shape=(), op="prod", axis=(), seed=0)
@example(dt=np.int8, shape=(2, 3), op="sum", axis=(), seed=0)
def test_sum_prod_dtype_and_value_match_numpy(dt, shape, op, axis, seed):
    if axis in (0, -1) and not shape:
        axis = None
    x = np.random.default_rng(seed).integers(0, 250, size=shape).astype(dt)
    with np.errstate(all="ignore"):
        want = getattr(np, op)(x, axis=axis)
    got = np.asarray(getattr(fnp, op)(A(x, dt), axis=axis))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_sum_of_0d_uint8_does_not_wrap():
    x = A(200, np.uint8)
    assert np.asarray(fnp.sum(x)).dtype == np.uint64  # NumPy: uint64
    assert int(np.asarray(fnp.add(fnp.sum(x), fnp.sum(x)))) == 400
    assert np.asarray(fnp.prod(A(100, np.int8))).dtype == np.int64
    assert np.asarray(fnp.sum(A([100, 100], np.int8), dtype=np.int8)).dtype == np.int8


def test_vecdot_contracted_axis_is_not_broadcast():
    with pytest.raises(ValueError, match="vecdot: the contracted axes must have the same length"):
        fnp.vecdot(A(np.ones(3)), A(np.ones(1)))
    a, b = np.arange(6.0).reshape(3, 2), np.arange(3.0)
    np.testing.assert_array_equal(np.asarray(fnp.vecdot(A(a), A(b), axis=0)), np.vecdot(a, b, axis=0))


@pytest.mark.parametrize("dt", [np.uint8, np.int8, np.int16, np.bool_, np.float32, np.complex64])
def test_vecdot_and_cross_keep_numpys_dtype(dt):
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 200, (2, 3)).astype(dt), rng.integers(0, 200, (2, 3)).astype(dt)
    want = np.vecdot(a, b)
    got = np.asarray(fnp.vecdot(A(a, dt), A(b, dt)))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)
    if dt is np.bool_:
        return
    with np.errstate(all="ignore"):
        want = np.cross(a, b)
    got = np.asarray(fnp.cross(A(a, dt), A(b, dt)))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


# ---------------------------------------------------------------------------------------
# no RuntimeWarning on IEEE special values (JAX never warns), user's NumPy state untouched

_SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, INF, -INF, NAN, 1e308])


def _warning_cases():
    x, y = A(_SPECIAL), A(_SPECIAL[::-1].copy())
    return {
        "log": lambda: fnp.log(x), "log1p": lambda: fnp.log1p(x), "sqrt": lambda: fnp.sqrt(x),
        "arccos": lambda: fnp.arccos(x), "exp": lambda: fnp.exp(fnp.multiply(x, 1e3)),
        "sin": lambda: fnp.sin(x), "divide": lambda: fnp.divide(x, y), "multiply": lambda: fnp.multiply(x, y),
        "subtract": lambda: fnp.subtract(x, x), "floor_divide": lambda: fnp.floor_divide(x, y),
        "mod": lambda: fnp.mod(x, y), "fmod": lambda: fnp.fmod(x, y), "power": lambda: fnp.power(x, -1.0),
        "int // 0": lambda: fnp.floor_divide(A([1, 0], np.int64), A([0, 0], np.int64)),
        "sum overflow": lambda: fnp.sum(A([1e308, 1e308])),
        "prod overflow": lambda: fnp.prod(A([1e200, 1e200])),
        "cumsum overflow": lambda: fnp.cumsum(A([1e308, 1e308])),
        "cast nan to int": lambda: fnp.astype(x, np.int32),
        "complex compare": lambda: fnp.less(A([complex(NAN, 0)], np.complex128), A([1j], np.complex128)),
        "jit": lambda: fgrad.jit(lambda a, b: fnp.sum(a / b * a))(x, y),
        "grad": lambda: fgrad.grad(lambda a: fnp.sum(fnp.log(a) * a))(x),
        "vmap": lambda: fgrad.vmap(lambda a: fnp.log(a) / a)(x),
        "std const": lambda: fgrad.grad(fnp.std)(A([2.0, 2.0])),
        "det singular": lambda: fgrad.grad(fnp.linalg.det)(A(np.ones((4, 4)))),
    }


@pytest.mark.parametrize("case", list(_warning_cases()))
def test_ieee_special_values_do_not_warn(case):
    f = _warning_cases()[case]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        f()


def test_users_numpy_error_state_is_left_alone():
    before = np.geterr()
    fnp.log(A([0.0]))
    fgrad.jit(lambda a: a / 0.0)(A([1.0]))
    assert np.geterr() == before
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning):
            np.log(np.zeros(1))  # NumPy itself still reports


def test_quiet_restores_the_error_state_after_an_exception():
    def boom(x):
        np.log(x)
        raise KeyError("boom")

    with pytest.raises(KeyError):
        quiet(boom)(np.zeros(1))
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            np.log(np.zeros(1))
        np.testing.assert_array_equal(quiet(np.log)(np.zeros(1)), [-INF])
        assert np.geterr()["divide"] == "raise"


def test_convert_complex_to_real_takes_the_real_part_without_warning():
    # regression: the cast warned (ComplexWarning, an error under pytest's config), e.g. while
    # jacrev of a real -> complex function staged its backward program before raising
    import warnings

    from fgrad import lax

    z = fnp.asarray([1.5 + 2.0j, -3.0 - 1.0j])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = lax.convert_element_type(z, np.float32)
        jitted = fgrad.jit(lambda v: lax.convert_element_type(v, np.float64))(z)
    assert out.dtype == np.float32 and np.array_equal(out, [1.5, -3.0])
    assert np.array_equal(jitted, [1.5, -3.0])


# ---------------------------------------------------------------------------------------
# median/quantile of a slice with a NaN: NaN with zero gradient for every element of that
# slice (JAX replaces such slices by a constant NaN); other slices are unaffected.
# (name, f, x, value, gradient of sum(f(x))) recorded from jax 0.10 (x64).

MEDIAN_NAN = [
    ("median_nan_pair", lambda m, x: m.median(x), [NAN, 1.0], NAN, [0.0, 0.0]),
    ("median_nan_even", lambda m, x: m.median(x), [1.0, NAN, 3.0, 2.0], NAN, [0.0, 0.0, 0.0, 0.0]),
    ("median_axis1", lambda m, x: m.median(x, axis=1), [[NAN, 1.0, 2.0], [3.0, 1.0, 2.0]], [NAN, 2.0],
     [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
    ("median_axis0", lambda m, x: m.median(x, axis=0), [[NAN, 1.0, 2.0], [3.0, 1.0, 2.0]], [NAN, 1.0, 2.0],
     [[0.0, 0.5, 0.5], [0.0, 0.5, 0.5]]),
    ("quantile_nan", lambda m, x: m.quantile(x, 0.3), [NAN, 1.0, 2.0], NAN, [0.0, 0.0, 0.0]),
    ("quantile_no_nan", lambda m, x: m.quantile(x, 0.3), [3.0, 1.0, 2.0], 1.6, [0.0, 0.4, 0.6]),
]


@pytest.mark.parametrize("name,f,x,value,grad", MEDIAN_NAN, ids=[c[0] for c in MEDIAN_NAN])
def test_median_quantile_nan_slices_match_jax(name, f, x, value, grad):
    x = np.asarray(x, np.float64)
    np.testing.assert_allclose(np.asarray(f(fnp, x)), value, equal_nan=True)
    np.testing.assert_allclose(np.asarray(fgrad.grad(lambda v: fnp.sum(f(fnp, v)))(x)), grad)


@pytest.mark.parametrize("name,f,x,value,grad", MEDIAN_NAN, ids=[c[0] for c in MEDIAN_NAN])
def test_median_quantile_nan_slices_live_jax(jax_modules, name, f, x, value, grad):
    jax, jnp = jax_modules
    x = np.asarray(x, np.float64)
    np.testing.assert_allclose(np.asarray(f(jnp, x)), value, equal_nan=True)
    np.testing.assert_allclose(np.asarray(jax.grad(lambda v: jnp.sum(f(jnp, v)))(x)), grad)


# ---- float -> integer casts saturate, as JAX's (XLA's) -------------------------------------------

_SAT_VALUES = [1.7e10, -1.7e10, np.inf, -np.inf, np.nan, 300.7, -300.7, -1.5, 2.5, 255.9, 3e9, -0.9]
# stored from JAX 0.10.2 (x64): jnp.asarray(_SAT_VALUES, jnp.float64).astype(dtype).tolist()
_SAT_JAX = {
    "int8": [127, -128, 127, -128, 0, 127, -128, -1, 2, 127, 127, 0],
    "uint8": [255, 0, 255, 0, 0, 255, 0, 0, 2, 255, 255, 0],
    "int32": [2147483647, -2147483648, 2147483647, -2147483648, 0, 300, -300, -1, 2, 255, 2147483647, 0],
    "uint32": [4294967295, 0, 4294967295, 0, 0, 300, 0, 0, 2, 255, 3000000000, 0],
    "int64": [17000000000, -17000000000, 9223372036854775807, -9223372036854775808, 0, 300, -300, -1, 2,
              255, 3000000000, 0],
}


@pytest.mark.parametrize("name", sorted(_SAT_JAX))
def test_float_to_int_casts_saturate_as_jax(name):
    """JAX converts floats to integers by truncation clamped to the integer range, NaN to 0
    (the "Sharp bits" page's ``jnp.array([1.7e10]).astype(jnp.int32)`` is 2147483647); fgrad
    cast with NumPy, whose out-of-range results are unspecified (-2147483648 for 1.7e10, NaN
    and inf) -- silently wrong, eagerly, under jit (the generated code cast into buffers with
    ``casting='unsafe'``) and under vmap."""
    dt = np.dtype(name)
    with fgrad.enable_x64(True):
        x = fnp.asarray(_SAT_VALUES, fnp.float64)
        assert x.astype(dt).tolist() == _SAT_JAX[name]
        assert fgrad.lax.convert_element_type(x, dt).tolist() == _SAT_JAX[name]
        assert fgrad.jit(lambda v: v.astype(dt) + 0)(x).tolist() == _SAT_JAX[name]
        assert fgrad.vmap(lambda v: v.astype(dt))(x).tolist() == _SAT_JAX[name]
        assert fnp.asarray(x.astype(fnp.float32), dtype=dt).tolist()[4:10] == _SAT_JAX[name][4:10]
        z = (x + 0j).astype(fnp.complex128)  # complex: the real part, saturated
        assert z.astype(dt).tolist()[:5] == _SAT_JAX[name][:5]


def test_float_to_int_casts_match_live_jax():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True), fgrad.enable_x64(True):
        for src in ("float16", "float32", "float64"):
            for dst in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"):
                with np.errstate(over="ignore"):
                    v = np.asarray(_SAT_VALUES, src)
                want = jax.numpy.asarray(v).astype(dst)
                assert fnp.asarray(v).astype(dst).tolist() == want.tolist(), (src, dst)


def test_torch_face_casts_as_pytorch():
    """The PyTorch face keeps PyTorch's (CPU) casts of out-of-range floats, not JAX's."""
    torch = pytest.importorskip("torch")
    import fgrad.torch as ft

    vals = [1.7e10, float("nan"), -3e9, 2.5, 300.0, -1.5, float("inf")]
    for dt in ("int8", "uint8", "int16", "int32", "int64"):
        want = torch.tensor(vals).to(getattr(torch, dt)).tolist()
        assert ft.tensor(vals).to(getattr(ft, dt)).tolist() == want, dt
