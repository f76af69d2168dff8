"""JAX semantics where fgrad differed (round 23: second derivatives of gamma-family samples in
their shape, and the items below). Each test runs the same program on fgrad and -- when
installed -- on JAX (x64 mode, fgrad's default), and compares both with the answer stored here
(taken from JAX 0.10.2 by running the same snippet). See docs/jax-semantics.md."""

from __future__ import annotations

import numpy as np
import pytest

from _peers import jax_faces

FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])
# JAX takes about 10 s to trace and compile each Hessian of a sampler (its while loops):
# the live comparison runs with the slow tests, fgrad against the stored numbers always
slow_jax_face = pytest.mark.parametrize(
    "name,jax,jnp,lax", [pytest.param(*f, marks=[pytest.mark.slow] if f[0] == "jax" else []) for f in FACES],
    ids=[f[0] for f in FACES])

_SHAPES = [1.4810514492761364, 1.1013348357581982, 0.3918576184535019]

# name -> (program of the random module and the shape vector v, JAX 0.10.2's Hessian diagonal)
_GAMMA_FAMILY = {
    "gamma": (lambda r, jnp, v: jnp.sum(r.gamma(r.key(5), v)),
              [-0.4111434945843007, -0.3714270029704012, 1.202745322680004]),
    "loggamma": (lambda r, jnp, v: jnp.sum(r.loggamma(r.key(5), v)),
                 [-0.1884162142957967, -0.6379587202006081, -40.55788923721862]),
    "chisquare": (lambda r, jnp, v: jnp.sum(r.chisquare(r.key(5), v)),
                  [0.2065413181896152, -0.8826801137267724, 0.37472762337669724]),
    "f": (lambda r, jnp, v: jnp.sum(r.f(r.key(5), v, 3.0)),
          [-0.2405142017508274, 0.07268973694590697, 0.40400567939655224]),
    "t": (lambda r, jnp, v: jnp.sum(r.t(r.key(5), v)),
          [-1.2246940497724654, 0.0012314433403966263, 539.0245447934429]),
}
# full Hessians (JAX 0.10.2) where the parameters mix
_BETA_HESSIAN = [[-0.202493414156753, 0.0, 0.632933934967527], [0.0, -0.0873538719097364, 0.0],
                 [0.632933934967527, 0.0, -1.32905709398639]]
_DIRICHLET_HESSIAN = [[-0.0491202467007072, 0.0205354010987116, 0.00357239828236228],
                      [0.0205354010987116, 0.0874094707596258, 0.00975055632035638],
                      [0.00357239828236227, 0.00975055632035638, -0.0998524061086819]]


@slow_jax_face
@pytest.mark.parametrize("family", sorted(_GAMMA_FAMILY))
def test_second_derivative_of_gamma_family_samples_in_the_shape(family, name, jax, jnp, lax):
    """``hessian``/``jacfwd(jacrev)`` of a gamma-family sample in its shape parameter: JAX
    differentiates the implicit gradient's coefficient (forward mode through its series).
    fgrad raised ``NotImplementedError`` (round 22; before that a silent 0)."""
    program, stored = _GAMMA_FAMILY[family]
    a = jnp.asarray(_SHAPES)

    def f(v):
        return program(jax.random, jnp, v)
    hess = np.asarray(jax.hessian(f)(a))
    np.testing.assert_allclose(np.diag(hess), stored, rtol=1e-9)
    np.testing.assert_allclose(hess - np.diag(np.diag(hess)), 0.0, atol=0)  # one key per element
    np.testing.assert_allclose(np.asarray(jax.jacfwd(jax.jacrev(f))(a)), hess, rtol=1e-12)


@slow_jax_face
@pytest.mark.parametrize("log_space", [False, True], ids=["gamma", "loggamma"])
def test_gamma_sample_derivatives_follow_the_quantile_at_a_fixed_cdf_value(log_space, name, jax, jnp, lax):
    """The analytic check of both derivatives: the implicit gradient holds the sample's CDF
    value ``u`` fixed, so the sample moves along ``x(a) = gammaincinv(a, u)`` (SciPy); central
    differences of that path give the first and second derivatives. (A finite difference of
    the first derivative *of the sampler* does not: the rejection sampler's own path in ``a``
    is another one, e.g. ``d x / d a = 1.90`` at ``a = 1.48`` where the implicit one is
    2.07.)"""
    special = pytest.importorskip("scipy.special")
    sample = jax.random.loggamma if log_space else jax.random.gamma
    for a, step in ((_SHAPES[0], 1e-4), (_SHAPES[2], 1e-4), (30.0, 1e-3)):
        def f(v):
            return sample(jax.random.key(5), v)
        value = float(f(a))
        x0 = np.exp(value) if log_space else value
        u = special.gammainc(a, x0)
        path = [special.gammaincinv(a + k * step, u) for k in (-1, 1)]
        if log_space:
            path = np.log(path)
        first = (path[1] - path[0]) / (2 * step)
        second = (path[1] - 2 * value + path[0]) / step ** 2
        np.testing.assert_allclose(float(jax.grad(f)(a)), first, rtol=1e-7)
        np.testing.assert_allclose(float(jax.hessian(f)(a)), second, rtol=3e-5)


@slow_jax_face
def test_second_derivative_of_beta_and_dirichlet_mixes_parameters(name, jax, jnp, lax):
    """Off-diagonal Hessian terms of ``beta`` (``a`` and ``b`` from one vector) and
    ``dirichlet`` (normalized gamma draws), under ``jit`` too."""
    a = jnp.asarray(_SHAPES)

    def beta(v):
        return jnp.sum(jax.random.beta(jax.random.key(5), v, v[::-1]))

    def dirichlet(v):
        return jax.random.dirichlet(jax.random.key(5), v)[0]
    np.testing.assert_allclose(np.asarray(jax.hessian(beta)(a)), _BETA_HESSIAN, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(np.asarray(jax.jit(jax.hessian(dirichlet))(a)), _DIRICHLET_HESSIAN,
                               rtol=1e-9)


@slow_jax_face
def test_reverse_over_reverse_of_a_gamma_sample_raises_value_error(name, jax, jnp, lax):
    """The coefficient's series is a ``while_loop``: reverse mode through it is JAX's
    ``ValueError``; forward-over-forward and ``vmap`` of the Hessian work."""
    def f(v):
        return jnp.sum(jax.random.gamma(jax.random.key(3), v, (4,)))
    with pytest.raises(ValueError, match="while_loop"):
        jax.grad(jax.grad(f))(1.7)
    with pytest.raises(ValueError, match="while_loop"):
        jax.jacrev(jax.jacfwd(f))(1.7)
    h = float(jax.hessian(f)(1.7))
    np.testing.assert_allclose(h, 0.26256837862165466, rtol=1e-10)  # JAX 0.10.2
    np.testing.assert_allclose(float(jax.jacfwd(jax.jacfwd(f))(1.7)), h, rtol=1e-12)
    batched = np.asarray(jax.vmap(jax.hessian(f))(jnp.asarray([0.4, 2.5])))
    np.testing.assert_allclose(batched, [float(jax.hessian(f)(0.4)), float(jax.hessian(f)(2.5))], rtol=1e-12)
