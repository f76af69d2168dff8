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


# (call, JAX 0.10.2's dtype, weak type and value) for jax.scipy.stats of Python numbers
_STATS_WEAK = [
    ("st.poisson.logpmf(3, 2.0)", "float64", True, -1.7123179275482199),
    ("st.poisson.pmf(3, 2)", "float64", True, 0.18044704431548345),
    ("st.poisson.cdf(3, 2.0)", "float64", True, 0.8571234604985472),
    ("st.poisson.logpmf(jnp.asarray([1, 2]), 2.0)", "float64", True,
     [-1.3068528194400546, -1.3068528194400535]),
    ("st.norm.logpdf(0.3, 0.6, 1.5)", "float64", True, -1.344403641312837),
    ("st.gamma.cdf(0.3, 0.6)", "float64", True, 0.4875831087806847),
    ("st.beta.cdf(0.3, 0.6, 1.5)", "float64", True, 0.6037634869453867),
    ("st.uniform.cdf(0.3)", "float64", False, 0.3),
    ("st.t.pdf(0.3, 2.0)", "float64", True, 0.3309638583091267),
    ("st.logistic.ppf(0.3)", "float64", True, -0.8472978603872036),
    ("st.norm.ppf(0.3)", "float64", False, -0.5244005127080408),
    ("st.norm.logpdf(jnp.ones(2, jnp.float32), 0.6)", "float32", False,
     [-0.9989385008811951, -0.9989385008811951]),
    ("st.nbinom.pmf(2, 3, 0.4)", "float64", True, 0.13824000000000045),
]


@face
def test_stats_of_python_numbers_are_weakly_typed_as_jax(name, jax, jnp, lax):
    """JAX's ``promote_args_inexact`` keeps the join's weak type, so a distribution of Python
    numbers (or an integer array beside a Python float) is a weak float. fgrad's promotion
    made every argument strong: 196 of the 400 calls of every ``jax.scipy.stats`` function
    on Python floats and ints had the wrong weak type (`poisson.logpmf(3, 2.0)` among them).
    ``uniform.cdf`` (JAX's strong ``select`` constants) and ``norm.ppf`` (the default float)
    stay strong."""
    st = jax.scipy.stats
    for call, dtype, weak, value in _STATS_WEAK:
        out = eval(call, {"st": st, "jnp": jnp})
        assert (str(out.dtype), bool(out.weak_type)) == (dtype, weak), call
        np.testing.assert_allclose(np.asarray(out), value, rtol=1e-6 if dtype == "float32" else 1e-12)


@face
def test_dirichlet_categories_on_the_first_axis(name, jax, jnp, lax):
    """JAX's ``dirichlet.logpdf`` takes the categories on ``x``'s *first* axis (the batch
    after), ``K - 1`` entries with the last one implied, and a one-dimensional ``alpha``.
    fgrad took the last axis: a ``(3, 3)`` batch was silently ``-inf`` (each row summed as a
    point), a ``(K - 1,)`` point raised ``TypeError``, a 2-D ``alpha`` computed."""
    st = jax.scipy.stats
    x = jnp.asarray([[0.2, 0.3, 0.1], [0.3, 0.3, 0.6], [0.5, 0.4, 0.3]])
    a = jnp.asarray([1.5, 2.0, 3.0])
    want = [1.6952109952695693, 1.4516564466952318, 1.0201333380175601]  # JAX 0.10.2
    np.testing.assert_allclose(np.asarray(st.dirichlet.logpdf(x, a)), want, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(st.dirichlet.logpdf(x[:2], a)), want, rtol=1e-12)
    for i in range(3):  # one point at a time, each a column
        np.testing.assert_allclose(float(st.dirichlet.logpdf(x[:, i], a)), want[i], rtol=1e-12)
    g = jax.grad(lambda v: jnp.sum(st.dirichlet.logpdf(x[:2], v)))(a)
    np.testing.assert_allclose(np.asarray(g), [0.15326825950998813, 1.1916097534865362, -0.20302973085563547],
                               rtol=1e-10)
    with pytest.raises(ValueError, match="one-dimensional"):
        st.dirichlet.logpdf(0.3, 0.6)
    with pytest.raises(ValueError, match="one-dimensional"):
        st.dirichlet.logpdf(jnp.ones(2) * 0.5, jnp.ones((2, 2)))
    with pytest.raises(ValueError, match="one entry fewer"):
        st.dirichlet.logpdf(jnp.ones(5) * 0.2, a)


@face
def test_multivariate_normal_scalar_mean_and_covariance_shapes(name, jax, jnp, lax):
    """A scalar ``mean`` is JAX's univariate density (fgrad raised ``ValueError``); a 1-D
    ``cov`` is JAX's ``ValueError`` (fgrad computed a diagonal covariance)."""
    mvn = jax.scipy.stats.multivariate_normal
    out = mvn.logpdf(0.3, 0.6, 1.5)
    assert bool(out.weak_type)
    np.testing.assert_allclose(float(out), -1.151671087258755, rtol=1e-13)  # JAX 0.10.2
    np.testing.assert_allclose(np.asarray(mvn.logpdf(jnp.asarray([0.3, 1.0]), 0.6, 1.5)),
                               [-1.151671087258755, -1.1750044205920884], rtol=1e-13)
    np.testing.assert_allclose(float(jax.grad(lambda c: mvn.logpdf(0.3, 0.6, c))(1.5)), -0.3133333333333333,
                               rtol=1e-13)
    np.testing.assert_allclose(float(mvn.pdf(0.3, 0.6, 1.5)), 0.31610808357118025, rtol=1e-13)
    with pytest.raises(ValueError, match="incompatible shapes"):
        mvn.logpdf(jnp.ones(2), jnp.zeros(2), jnp.ones(2))


@face
def test_norm_ppf_of_integers_is_a_type_error(name, jax, jnp, lax):
    """``norm.ppf``/``isf`` apply ``ndtri`` to ``q`` as given: an integer ``q`` (a Python int
    too) is JAX's ``TypeError``; fgrad returned ``inf``."""
    norm = jax.scipy.stats.norm
    for q in (1, jnp.asarray([0, 1])):
        with pytest.raises(TypeError, match="int"):
            norm.ppf(q)
        with pytest.raises(TypeError, match="int"):
            norm.isf(q, 2.0)
    np.testing.assert_allclose(float(norm.ppf(0.3, 2)), 1.475599487291959, rtol=1e-13)


@face
def test_fill_diagonal_wrap_and_inplace_raise_not_implemented(name, jax, jnp, lax):
    """``fill_diagonal(wrap=True)`` and ``inplace=True`` are JAX's ``NotImplementedError``;
    fgrad computed NumPy's wrapped diagonal and raised ``ValueError`` for ``inplace``."""
    with pytest.raises(NotImplementedError, match="wrap=True"):
        jnp.fill_diagonal(jnp.zeros((5, 2)), 1.0, wrap=True, inplace=False)
    with pytest.raises(NotImplementedError, match="inplace=False"):
        jnp.fill_diagonal(jnp.zeros((2, 2)), 1.0)
    out = jnp.fill_diagonal(jnp.zeros((5, 2)), 1.0, wrap=False, inplace=False)
    np.testing.assert_array_equal(np.asarray(out), np.eye(5, 2))


@face
def test_nanargmax_of_a_complex_array_with_an_empty_result(name, jax, jnp, lax):
    """JAX's ``nanargmax``/``nanargmin`` of a complex array whose result is empty make no
    comparison, so they return an empty int array (fgrad raised the complex ``TypeError``);
    an empty reduced axis stays the ``ValueError``, a non-empty result the ``TypeError``."""
    for f in (jnp.nanargmax, jnp.nanargmin):
        out = f(jnp.zeros((0, 2), complex), axis=1)
        assert out.shape == (0,) and str(out.dtype) == "int64"
        assert f(jnp.zeros((0, 2), complex), axis=1, keepdims=True).shape == (0, 1)
        assert f(jnp.zeros((2, 0, 3), complex), axis=-1).shape == (2, 0)
        with pytest.raises(ValueError):
            f(jnp.zeros((0, 2), complex), axis=0)
        with pytest.raises(TypeError):
            f(jnp.zeros((2, 2), complex), axis=1)


@face
def test_polynomials_of_two_dimensional_coefficients_as_jax(name, jax, jnp, lax):
    """JAX's ``polyder`` broadcasts its factors against 2-D coefficients (a value where the
    shapes broadcast, ``ValueError`` elsewhere), ``polyint`` of 2-D coefficients is a
    ``TypeError``, ``polydiv`` of a 2-D dividend a ``ValueError``, ``polyfit`` with an array
    ``deg`` a ``ValueError`` (a static argument). fgrad raised ``ValueError`` for all of the
    first three and fitted the array ``deg``. Values: JAX 0.10.2."""
    c22, c32 = jnp.asarray([[1.0, 2.0], [3.0, 4.0]]), jnp.asarray([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    np.testing.assert_array_equal(np.asarray(jnp.polyder(c22)), [[1.0, 2.0]])
    np.testing.assert_array_equal(np.asarray(jnp.polyder(c32)), [[2.0, 2.0], [6.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(jnp.polyder(c32, 2)), [[2.0, 4.0]])
    with pytest.raises(ValueError):
        jnp.polyder(jnp.ones((3, 3)))
    with pytest.raises(TypeError):
        jnp.polyint(c22)
    with pytest.raises(ValueError):
        jnp.polydiv(c22, jnp.asarray([1.0, 2.0]))
    with pytest.raises(ValueError):
        jnp.polydiv(jnp.asarray([1.0, 2.0, 3.0]), c22)
    x, y = jnp.asarray([1.0, 2.0, 3.0]), jnp.asarray([1.0, 4.0, 9.0])
    for deg in (jnp.asarray(2), np.asarray(2), [1, 2]):
        with pytest.raises(ValueError):
            jnp.polyfit(x, y, deg)
    np.testing.assert_allclose(np.asarray(jnp.polyfit(x, y, np.int64(2))), [1.0, 0.0, 0.0], atol=1e-12)
