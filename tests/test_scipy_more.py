"""fgrad.scipy additions: shape-parameter derivatives of the incomplete gamma and beta
functions (accuracy against 60-digit mpmath references, stored), ``linalg.schur``/``sqrtm``/
``funm`` and ``optimize.minimize`` under ``jit``/``vmap``."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.scipy.linalg as fsl
import fgrad.scipy.optimize as fso
import fgrad.scipy.special as fsp
from fgrad.testing import check_grads

pytest.importorskip("scipy")

# d/da gammainc(a, x), from mpmath at 60 digits (differentiating P, or -Q where P > 1/2)
GAMMAINC_DA = [
    (0.05, 0.01, -3.3571508489859876),
    (0.5, 3.0, -0.04724032644797375),
    (3.0, 0.5, -0.02852023587882894),
    (10.0, 10.5, -0.12264418627727564),
    (150.0, 140.0, -0.023793726651202104),
    (1000.0, 1030.0, -0.007996539402089308),
    (2.5, 40.0, -2.5267860704828765e-15),
    (10000.0, 10000.0, -0.003989456049453668),
]
# (a, b, x, d/da betainc, d/db betainc), mpmath at 60 digits
BETAINC_DAB = [
    (0.3, 0.4, 0.2, -1.0711007163280364, 0.5349010150789838),
    (2.0, 3.0, 0.7, -0.0695712511310605, 0.08187252372208087),
    (50.0, 20.0, 0.7, -0.029536088607355404, 0.07169423540329548),
    (0.8, 120.0, 0.004, -0.5679334147164584, 0.002465104544986396),
]


def test_gammainc_shape_derivative_accuracy():
    """Series (x < a + 1) and continued fraction, small and large a, the far tail: ~1e-11."""
    a, x, ref = (np.array(c) for c in zip(*GAMMAINC_DA, strict=True))
    got = fgrad.vmap(fgrad.grad(fsp.gammainc))(a, x)
    np.testing.assert_allclose(np.asarray(got), ref, rtol=1e-10)
    got_c = fgrad.vmap(fgrad.grad(fsp.gammaincc))(a, x)
    np.testing.assert_allclose(np.asarray(got_c), -ref, rtol=1e-10)


def test_betainc_shape_derivatives_accuracy():
    for a, b, x, da, db in BETAINC_DAB:
        ga, gb = fgrad.grad(fsp.betainc, argnums=(0, 1))(a, b, x)
        np.testing.assert_allclose([float(ga), float(gb)], [da, db], rtol=1e-10)


def test_shape_derivatives_closed_forms_and_finite_differences():
    # I_x(a, 1) = x^a: d/da = x^a log x;  I_x(1, b) = 1 - (1 - x)^b: d/db = -(1 - x)^b log(1 - x)
    x = np.array([0.1, 0.5, 0.95])
    np.testing.assert_allclose(
        np.asarray(fgrad.vmap(fgrad.grad(lambda a, v: fsp.betainc(a, 1.0, v)))(np.full(3, 2.5), x)),
        x**2.5 * np.log(x),
        rtol=1e-12,
    )
    np.testing.assert_allclose(
        np.asarray(fgrad.vmap(fgrad.grad(lambda b, v: fsp.betainc(1.0, b, v)))(np.full(3, 3.5), x)),
        -((1 - x) ** 3.5) * np.log1p(-x),
        rtol=1e-12,
    )
    # P(1, x) = 1 - e^-x: d/da at a = 1 is -(e^-x (gamma_E + log x) + E1(x)) ... checked by differences
    rng = np.random.default_rng(0)
    a = fnp.asarray(rng.uniform(0.3, 20.0, 6))
    xs = fnp.asarray(rng.uniform(0.05, 30.0, 6))
    check_grads(fsp.gammainc, [a, xs], order=1, modes=("fwd", "rev"))
    check_grads(
        lambda s, t, v: fsp.betainc(s, t, v),
        [
            fnp.asarray(rng.uniform(0.3, 8, 5)),
            fnp.asarray(rng.uniform(0.3, 8, 5)),
            fnp.asarray(rng.uniform(0.05, 0.95, 5)),
        ],
        order=1,
    )
    # mixed second derivative d2/(da dx) exists; d2/da2 raises
    h = 1e-5
    mixed = fgrad.grad(fgrad.grad(fsp.gammainc, argnums=0), argnums=1)(2.0, 1.5)
    fd = (fgrad.grad(fsp.gammainc)(2.0, 1.5 + h) - fgrad.grad(fsp.gammainc)(2.0, 1.5 - h)) / (2 * h)
    np.testing.assert_allclose(float(mixed), float(fd), rtol=1e-7)
    with pytest.raises(NotImplementedError, match="second derivatives"):
        fgrad.grad(fgrad.grad(fsp.gammainc))(2.0, 1.5)


def test_gammainc_shape_derivative_matches_jax_live():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    a = np.array([0.2, 1.5, 7.0, 60.0, 400.0])
    x = np.array([0.1, 3.0, 6.5, 75.0, 390.0])
    ours = fgrad.vmap(fgrad.grad(fsp.gammainc))(a, x)
    theirs = jax.vmap(jax.grad(jax.scipy.special.gammainc))(a, x)
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-9)


# ---------------------------------------------------------------------------------------
# linalg


def test_schur_real_and_complex():
    import scipy.linalg as sla

    rng = np.random.default_rng(1)
    a = rng.normal(size=(4, 4))
    t, z = fsl.schur(a)
    np.testing.assert_allclose(np.asarray(z @ t @ z.T), a, atol=1e-12)
    st, sz = sla.schur(a)
    np.testing.assert_allclose(np.asarray(t), st, atol=1e-12)
    tc, zc = fsl.schur(a, output="complex")
    assert tc.dtype == np.complex128
    np.testing.assert_allclose(np.tril(np.asarray(tc), -1), 0, atol=1e-12)
    np.testing.assert_allclose(np.asarray(zc @ tc @ zc.conj().T), a, atol=1e-12)
    batched = fgrad.vmap(lambda m: fsl.schur(m)[0])(np.stack([a, a.T]))
    np.testing.assert_allclose(np.asarray(batched[1]), sla.schur(a.T)[0], atol=1e-12)
    with pytest.raises(NotImplementedError, match="not differentiable"):
        fgrad.grad(lambda m: fnp.sum(fsl.schur(m)[0]))(a)
    with pytest.raises(ValueError, match="output"):
        fsl.schur(a, output="quaternion")


def test_sqrtm_values_and_sylvester_gradient():
    rng = np.random.default_rng(2)
    a = rng.normal(size=(3, 3)) + 3 * np.eye(3)
    x = fsl.sqrtm(a)
    assert x.dtype == np.complex128  # JAX: always complex
    np.testing.assert_allclose(np.asarray(x @ x), a, atol=1e-12)
    # second order in both modes, real and imaginary parts
    check_grads(lambda m: fnp.real(fsl.sqrtm(m)), [fnp.asarray(a)], order=2, modes=("fwd", "rev"))
    # complex input: directional derivative vs central differences of SciPy's sqrtm
    import scipy.linalg as sla

    c = a + 1j * rng.normal(size=(3, 3))
    t = rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3))
    _, tx = fgrad.jvp(fsl.sqrtm, (fnp.asarray(c),), (fnp.asarray(t),))
    eps = 1e-6
    np.testing.assert_allclose(
        np.asarray(tx), (sla.sqrtm(c + eps * t) - sla.sqrtm(c - eps * t)) / (2 * eps), atol=1e-7
    )


def test_sqrtm_and_funm_match_jax_live():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(3)
    a = rng.normal(size=(4, 4)) + 4 * np.eye(4)
    np.testing.assert_allclose(np.asarray(fsl.sqrtm(a)), np.asarray(jax.scipy.linalg.sqrtm(a)), rtol=1e-10)
    np.testing.assert_allclose(
        np.asarray(fsl.funm(a, fnp.exp)), np.asarray(jax.scipy.linalg.funm(a, jax.numpy.exp)), rtol=1e-9
    )


# ---------------------------------------------------------------------------------------
# optimize


def test_minimize_bfgs_under_jit_and_vmap():
    rosen = lambda x: (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2  # noqa: E731
    x0 = fnp.asarray([-1.2, 1.0])
    eager = fso.minimize(rosen, x0, method="BFGS")
    jitted = fgrad.jit(lambda v: fso.minimize(rosen, v, method="BFGS"))(x0)
    for field in ("x", "fun", "jac", "nit", "nfev", "status"):
        np.testing.assert_array_equal(np.asarray(getattr(jitted, field)), np.asarray(getattr(eager, field)))
    # JAX 0.10.2's numbers: its line search fails on this start (status 3)
    assert (int(eager.nit), int(eager.nfev), int(eager.status)) == (8, 17, 3)
    np.testing.assert_allclose(np.asarray(eager.x), [-0.2778069614751315, 0.043338775200157394], rtol=1e-10)
    starts = fnp.asarray([[0.0, 0.0], [5.0, -2.0], [-3.0, 1.0]])
    xs = fgrad.vmap(lambda v: fso.minimize(lambda z: fnp.sum((z - 3.0) ** 2), v, method="BFGS").x)(starts)
    np.testing.assert_allclose(np.asarray(xs), 3.0, atol=1e-6)
