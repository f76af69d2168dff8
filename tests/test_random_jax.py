"""fgrad.random beyond the basic samplers: typed keys (shapes, dtype, indexing, pytree
behaviour under jit/vmap/scan, legacy keys still working), bit-for-bit agreement of keys,
uniform and normal with JAX (stored + live), and every added distribution checked
statistically: Kolmogorov-Smirnov distances to exact CDFs (closed forms, or SciPy when
installed) and moments from closed forms, with fixed keys (deterministic) and thresholds at
alpha ~ 1e-3 / ~5 standard errors.  Reparameterization gradients: per-sample implicit
derivatives of gamma samples against jax.lax.random_gamma_grad (stored + live) and SciPy's
incomplete gamma function, and expected gradients against closed forms."""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.random as random

STORED = json.loads((pathlib.Path(__file__).parent / "stored" / "jax_random.json").read_text())
N = 20000
KS_CRIT = 1.95 / math.sqrt(N)  # alpha = 1e-3
_verf = np.vectorize(math.erf)


def np_(x):
    return np.asarray(random.key_data(x) if isinstance(x, random.PRNGKeyArray) else x)


def ks_distance(samples, cdf):
    s = np.sort(np.asarray(samples, dtype=np.float64).ravel())
    n = s.size
    f = cdf(s)
    i = np.arange(1, n + 1)
    return max(np.max(i / n - f), np.max(f - (i - 1) / n))


def normal_cdf(x):
    return 0.5 * (1 + _verf(x / math.sqrt(2)))


def assert_moment(x, mean, n_sigma=5.0):
    """The sample mean of ``x`` within ``n_sigma`` standard errors (from the sample itself)."""
    x = np.asarray(x, dtype=np.float64).ravel()
    assert abs(x.mean() - mean) < n_sigma * x.std() / math.sqrt(x.size) + 1e-12, (x.mean(), mean)


# --------------------------------------------------------------------------------------
# typed keys


def test_typed_key_basics():
    k = random.key(0)
    assert isinstance(k, random.PRNGKeyArray)
    assert k.shape == () and k.ndim == 0 and str(k.dtype) == "key<fry>"
    assert k.dtype == random.KEY_DTYPE
    ks = random.split(k, (2, 3))
    assert ks.shape == (2, 3) and len(ks) == 2
    assert ks[1].shape == (3,) and ks[1, 2].shape == () and ks[..., 0].shape == (2,)
    np.testing.assert_array_equal(np_(ks[1, 2]), np_(ks)[1, 2])
    np.testing.assert_array_equal(np_(ks[..., 0]), np_(ks)[:, 0])
    assert ks.reshape(6).shape == (6,) and ks.ravel().shape == (6,) and ks.T.shape == (3, 2)
    np.testing.assert_array_equal(np_(ks.T), np.swapaxes(np_(ks), 0, 1))
    a, b = random.split(k)
    assert a.shape == () and not np.array_equal(np_(a), np_(b))
    assert "key<fry>" in repr(k)
    assert bool((ks == ks).all()) and ks.reshape(6)[0] == ks[0, 0]
    with pytest.raises(TypeError, match="key_data"):
        np.asarray(k)
    with pytest.raises(TypeError):
        len(k)


def test_key_data_and_wrap_round_trip():
    ks = random.split(random.key(5), 4)
    data = random.key_data(ks)
    assert data.shape == (4, 2) and data.dtype == np.uint32
    again = random.wrap_key_data(data)
    assert again.shape == (4,)
    np.testing.assert_array_equal(np_(random.normal(again[2], (3,))), np_(random.normal(ks[2], (3,))))
    with pytest.raises(TypeError, match="uint32"):
        random.wrap_key_data(np.zeros((3, 2), np.float32))
    with pytest.raises(ValueError, match="implementation"):
        random.key(0, impl="rbg")
    assert random.key_impl(ks) == "threefry2x32"


def test_legacy_and_typed_keys_give_the_same_numbers():
    typed, legacy = random.key(11), random.PRNGKey(11)
    np.testing.assert_array_equal(np_(typed), np_(legacy))
    for f in (lambda k: random.normal(k, (4,)), lambda k: random.gamma(k, 2.0, (4,)),
              lambda k: random.poisson(k, 3.0, (4,)), lambda k: random.permutation(k, 5)):
        np.testing.assert_array_equal(np_(f(typed)), np_(f(legacy)))
    # split / fold_in keep the kind of key they are given
    assert isinstance(random.split(typed), random.PRNGKeyArray)
    assert isinstance(random.fold_in(typed, 3), random.PRNGKeyArray)
    assert random.split(legacy).shape == (2, 2) and random.split(legacy).dtype == np.uint32


def test_samplers_reject_key_arrays():
    with pytest.raises(TypeError, match="single key"):
        random.normal(random.split(random.key(0), 3), (2,))


def test_typed_keys_under_vmap_jit_scan():
    keys = random.split(random.key(3), 5)
    # vmap over a key array; keys returned from vmap are typed again
    draws = fgrad.vmap(lambda k: random.normal(k, (2,)))(keys)
    np.testing.assert_array_equal(np_(draws), np.stack([np_(random.normal(keys[i], (2,))) for i in range(5)]))
    children = fgrad.vmap(lambda k: random.split(k, 3))(keys)
    assert isinstance(children, random.PRNGKeyArray) and children.shape == (5, 3)
    np.testing.assert_array_equal(np_(children[2]), np_(random.split(keys[2], 3)))
    # jit: keys in and out
    step = fgrad.jit(lambda k: (random.split(k)[0], random.uniform(k, (3,))))
    k_out, u = step(keys[0])
    assert isinstance(k_out, random.PRNGKeyArray)
    np.testing.assert_array_equal(np_(k_out), np_(random.split(keys[0])[0]))
    np.testing.assert_array_equal(np_(u), np_(random.uniform(keys[0], (3,))))
    # scan with the key as (part of) the carry

    def body(k, _):
        k, sub = random.split(k)
        return k, random.normal(sub)
    k_final, xs = fgrad.lax.scan(body, random.key(9), None, length=4)
    k_loop, expected = random.key(9), []
    for _ in range(4):
        k_loop, sub = random.split(k_loop)
        expected.append(float(random.normal(sub)))
    np.testing.assert_allclose(np_(xs), expected, rtol=1e-15)
    np.testing.assert_array_equal(np_(k_final), np_(k_loop))
    # a pytree with a single leaf (the data)
    assert len(fgrad.tree_leaves(keys)) == 1


def test_keys_and_streams_match_stored_jax():
    # fgrad's threefry key derivation and its uniform/normal samplers are JAX's, bit for bit
    # (stored from jax 0.10.2, x64)
    k = random.key(42)
    np.testing.assert_array_equal(np_(k), STORED["key_data_42"])
    np.testing.assert_array_equal(np_(random.split(k, 3)), STORED["split_42_3"])
    np.testing.assert_array_equal(np_(random.fold_in(k, 5)), STORED["fold_in_42_5"])
    np.testing.assert_array_equal(np_(random.uniform(k, (5,))), STORED["uniform_42_5"])
    np.testing.assert_allclose(np_(random.normal(k, (5,))), STORED["normal_42_5"], rtol=1e-14)


def test_keys_and_streams_match_live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    for seed in (0, 1, 2 ** 40 + 7):
        jk, fk = jax.random.key(seed), random.key(seed)
        np.testing.assert_array_equal(np_(fk), np.asarray(jax.random.key_data(jk)))
        np.testing.assert_array_equal(np_(random.split(fk, (2, 3))),
                                      np.asarray(jax.random.key_data(jax.random.split(jk, (2, 3)))))
        np.testing.assert_array_equal(np_(random.uniform(fk, (7,))), np.asarray(jax.random.uniform(jk, (7,))))


# --------------------------------------------------------------------------------------
# distributions: KS against exact CDFs, moments against closed forms

KEY = random.key(2024)


def _sp():
    return pytest.importorskip("scipy.stats")


CLOSED_FORM = {
    "pareto": (lambda k: random.pareto(k, 3.0, (N,)), lambda x: 1 - x ** -3.0, 1.5),
    "weibull_min": (lambda k: random.weibull_min(k, 2.0, 1.5, (N,)),
                    lambda x: 1 - np.exp(-(x / 2.0) ** 1.5), 2.0 * math.gamma(1 + 1 / 1.5)),
    "rayleigh": (lambda k: random.rayleigh(k, 1.5, (N,)), lambda x: 1 - np.exp(-x ** 2 / (2 * 1.5 ** 2)),
                 1.5 * math.sqrt(math.pi / 2)),
    "lognormal": (lambda k: random.lognormal(k, 0.7, (N,)), lambda x: normal_cdf(np.log(x) / 0.7),
                  math.exp(0.7 ** 2 / 2)),
    "maxwell": (lambda k: random.maxwell(k, (N,)),
                lambda x: _verf(x / math.sqrt(2)) - math.sqrt(2 / math.pi) * x * np.exp(-x * x / 2),
                2 * math.sqrt(2 / math.pi)),
    "double_sided_maxwell": (
        lambda k: random.double_sided_maxwell(k, 1.0, 2.0, (N,)),
        lambda x: 0.5 + 0.5 * np.sign(x - 1) * (_verf(np.abs(x - 1) / 2 / math.sqrt(2))
                                               - math.sqrt(2 / math.pi) * np.abs(x - 1) / 2
                                               * np.exp(-((x - 1) / 2) ** 2 / 2)), 1.0),
    "triangular": (lambda k: random.triangular(k, -1.0, 0.5, 2.0, (N,)),
                   lambda x: np.where(x < 0.5, (x + 1) ** 2 / (3 * 1.5), 1 - (2 - x) ** 2 / (3 * 1.5)), 0.5),
    "wald": (lambda k: random.wald(k, 1.5, (N,)),
             lambda x: normal_cdf(np.sqrt(1 / x) * (x / 1.5 - 1))
             + math.exp(2 / 1.5) * normal_cdf(-np.sqrt(1 / x) * (x / 1.5 + 1)), 1.5),
    "generalized_normal_p2": (lambda k: random.generalized_normal(k, 2.0, (N,)),
                              lambda x: normal_cdf(x * math.sqrt(2)), 0.0),
    "generalized_normal_p1": (lambda k: random.generalized_normal(k, 1.0, (N,)),
                              lambda x: np.where(x < 0, 0.5 * np.exp(x), 1 - 0.5 * np.exp(-x)), 0.0),
    "orthogonal_entry": (lambda k: random.orthogonal(k, 3, (N,))[:, 0, 0], lambda x: (x + 1) / 2, 0.0),
    "ball_radius_p2": (lambda k: fnp.linalg.norm(random.ball(k, 3, 2, (N,)), axis=-1),
                       lambda r: r ** 3, 0.75),
    "ball_radius_p1": (lambda k: fnp.sum(fnp.abs(random.ball(k, 4, 1, (N,))), axis=-1),
                       lambda r: r ** 4, 0.8),
    "chisquare_2": (lambda k: random.chisquare(k, 2.0, (N,)), lambda x: 1 - np.exp(-x / 2), 2.0),
    "gamma_1": (lambda k: random.gamma(k, 1.0, (N,)), lambda x: 1 - np.exp(-x), 1.0),
    "beta_1_1": (lambda k: random.beta(k, 1.0, 1.0, (N,)), lambda x: x, 0.5),
    "beta_a_1": (lambda k: random.beta(k, 2.5, 1.0, (N,)), lambda x: x ** 2.5, 2.5 / 3.5),
    "dirichlet_1_1": (lambda k: random.dirichlet(k, np.array([1.0, 1.0]), (N,))[:, 0], lambda x: x, 0.5),
    "t_1": (lambda k: random.t(k, 1.0, (N,)), lambda x: 0.5 + np.arctan(x) / math.pi, None),
}


@pytest.mark.parametrize("name", sorted(CLOSED_FORM))
def test_distribution_against_closed_form_cdf(name):
    sampler, cdf, mean = CLOSED_FORM[name]
    x = np_(sampler(KEY))
    assert x.shape == (N,) and np.all(np.isfinite(x))
    assert ks_distance(x, cdf) < KS_CRIT, name
    if mean is not None:
        assert_moment(x, mean)


SCIPY_CASES = {
    "gamma_small": (lambda k: random.gamma(k, 0.3, (N,)), lambda st: st.gamma(0.3).cdf),
    "gamma_mid": (lambda k: random.gamma(k, 4.5, (N,)), lambda st: st.gamma(4.5).cdf),
    "gamma_large": (lambda k: random.gamma(k, 800.0, (N,)), lambda st: st.gamma(800.0).cdf),
    "loggamma_tiny": (lambda k: random.loggamma(k, 0.01, (N,)),
                      lambda st: lambda y: st.gamma(0.01).cdf(np.exp(y))),
    "beta": (lambda k: random.beta(k, 0.6, 3.0, (N,)), lambda st: st.beta(0.6, 3.0).cdf),
    "dirichlet_marginal": (lambda k: random.dirichlet(k, np.array([0.5, 2.0, 3.0]), (N,))[:, 1],
                           lambda st: st.beta(2.0, 3.5).cdf),
    "chisquare": (lambda k: random.chisquare(k, 7.0, (N,)), lambda st: st.chi2(7.0).cdf),
    "f": (lambda k: random.f(k, 4.0, 9.0, (N,)), lambda st: st.f(4.0, 9.0).cdf),
    "t": (lambda k: random.t(k, 3.5, (N,)), lambda st: st.t(3.5).cdf),
}


@pytest.mark.parametrize("name", sorted(SCIPY_CASES))
def test_distribution_against_scipy_cdf(name):
    st = _sp()
    sampler, cdf = SCIPY_CASES[name]
    x = np_(sampler(KEY))
    assert ks_distance(x, cdf(st)) < KS_CRIT, name


@pytest.mark.parametrize("a", [0.05, 0.5, 1.0, 2.5, 30.0])
def test_gamma_moments(a):
    x = np_(random.gamma(KEY, a, (N,)))
    assert_moment(x, a)
    assert_moment(x * x, a * (a + 1))


def _pmf_check(counts_of, pmf, support):
    for k in support:
        p = pmf(k)
        freq = counts_of(k)
        assert abs(freq - p) < 5 * math.sqrt(p * (1 - p) / N) + 1e-9, (k, freq, p)


@pytest.mark.parametrize("lam", [0.0, 0.7, 4.0, 9.9, 10.0, 37.5, 1500.0])
def test_poisson_frequencies(lam):
    x = np_(random.poisson(KEY, lam, (N,)))
    assert x.dtype == np.int64
    if lam == 0:
        assert not x.any()
        return
    mode = int(lam)
    window = range(max(0, mode - 3 * int(math.sqrt(lam)) - 2), mode + 3 * int(math.sqrt(lam)) + 3)

    def pmf(k):
        return math.exp(k * math.log(lam) - lam - math.lgamma(k + 1))
    _pmf_check(lambda k: np.mean(x == k), pmf, window)
    assert_moment(x, lam)


@pytest.mark.parametrize("n,p", [(20, 0.3), (5, 0.9), (1000, 0.3), (300, 0.8), (40, 0.5), (1, 0.5)])
def test_binomial_frequencies(n, p):
    x = np_(random.binomial(KEY, n, p, (N,)))
    assert x.dtype == np.float64 and x.min() >= 0 and x.max() <= n

    def pmf(k):
        return math.comb(n, k) * p ** k * (1 - p) ** (n - k)
    sd = math.sqrt(n * p * (1 - p))
    support = range(max(0, int(n * p - 3 * sd)), min(n, int(n * p + 3 * sd)) + 1)
    _pmf_check(lambda k: np.mean(x == k), pmf, support)
    assert_moment(x, n * p)


def test_binomial_edges():
    x = np_(random.binomial(KEY, np.array([0.0, 5.0, 5.0, -1.0, 5.0]), np.array([0.5, 0.0, 1.0, 0.5, 1.5])))
    np.testing.assert_array_equal(x[:3], [0.0, 0.0, 5.0])
    assert np.isnan(x[3]) and np.isnan(x[4])


def test_geometric_frequencies():
    x = np_(random.geometric(KEY, 0.3, (N,)))
    assert x.min() >= 1
    _pmf_check(lambda k: np.mean(x == k), lambda k: 0.7 ** (k - 1) * 0.3, range(1, 12))


def test_multivariate_normal_methods():
    cov = np.array([[2.0, 0.6, 0.0], [0.6, 1.0, -0.3], [0.0, -0.3, 0.5]])
    mean = np.array([1.0, -2.0, 0.5])
    for method in ("cholesky", "eigh", "svd"):
        x = np_(random.multivariate_normal(KEY, mean, cov, (N,), method=method))
        assert x.shape == (N, 3)
        # sample covariance: entrywise standard error sqrt((s_ii s_jj + s_ij^2) / N) <= 0.02; 5 sigma
        np.testing.assert_allclose(np.cov(x.T), cov, atol=0.1)
        for i in range(3):
            assert_moment(x[:, i], mean[i])
    # semi-definite covariance: eigh/svd only (rank 1: x1 = x0)
    singular = np.array([[1.0, 1.0], [1.0, 1.0]])
    x = np_(random.multivariate_normal(KEY, np.zeros(2), singular, (100,), method="eigh"))
    np.testing.assert_allclose(x[:, 0], x[:, 1], atol=1e-7)
    # batch shapes broadcast
    b = random.multivariate_normal(KEY, np.zeros((4, 1, 2)), np.broadcast_to(np.eye(2), (3, 2, 2)))
    assert b.shape == (4, 3, 2)
    with pytest.raises(ValueError, match="method"):
        random.multivariate_normal(KEY, mean, cov, method="qr")
    with pytest.raises(ValueError, match="cov.shape"):
        random.multivariate_normal(KEY, mean, cov[:2, :2])


def test_multivariate_normal_gradient_finite_differences():
    # with the key fixed, a Cholesky sample is a smooth function of (mean, cov)
    a0 = np.array([[1.0, 0.2], [0.3, 0.8]])

    def f(a):
        cov = a @ a.T + fnp.eye(2)
        return fnp.sum(random.multivariate_normal(KEY, fnp.asarray([0.5, -0.5]), cov, (3,)) ** 2)
    g = np.asarray(fgrad.grad(f)(fnp.asarray(a0)))
    eps = 1e-6
    fd = np.zeros_like(a0)
    for idx in np.ndindex(a0.shape):
        d = np.zeros_like(a0)
        d[idx] = eps
        fd[idx] = (float(f(fnp.asarray(a0 + d))) - float(f(fnp.asarray(a0 - d)))) / (2 * eps)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


def test_orthogonal_shapes():
    q = np_(random.orthogonal(KEY, 4, (2,), m=2))
    assert q.shape == (2, 4, 2)
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, np.broadcast_to(np.eye(2), (2, 2, 2)), atol=1e-12)
    w = np_(random.orthogonal(KEY, 2, m=5))
    assert w.shape == (2, 5)
    np.testing.assert_allclose(w @ w.T, np.eye(2), atol=1e-12)


def test_categorical_without_replacement():
    logits = np.log(np.array([0.5, 0.3, 0.2]))
    draws = np_(random.categorical(KEY, np.broadcast_to(logits, (N, 3)), shape=(2, N), replace=False))
    assert draws.shape == (2, N)
    assert np.all(draws[0] != draws[1])
    p = np.exp(logits)
    # sequential sampling without replacement: P(first=i, second=j) = p_i p_j / (1 - p_i)
    pairs = {(i, j): p[i] * p[j] / (1 - p[i]) for i in range(3) for j in range(3) if i != j}
    _pmf_check(lambda ij: np.mean((draws[0] == ij[0]) & (draws[1] == ij[1])), pairs.get, pairs)
    with pytest.raises(ValueError, match="cannot exceed"):
        random.categorical(KEY, logits, shape=(4,), replace=False)


def test_distributions_vmap_and_jit_like_eager():
    keys = random.split(KEY, 3)
    for f in (lambda k: random.gamma(k, 0.7, (5,)), lambda k: random.poisson(k, 25.0, (4,)),
              lambda k: random.binomial(k, 30, 0.4, (4,)), lambda k: random.dirichlet(k, np.ones(3), (2,)),
              lambda k: random.t(k, 4.0, (3,)), lambda k: random.ball(k, 2, shape=(3,))):
        batched = np_(fgrad.vmap(f)(keys))
        np.testing.assert_allclose(batched, np.stack([np_(f(keys[i])) for i in range(3)]), rtol=1e-14)
        np.testing.assert_allclose(np_(fgrad.jit(f)(keys[0])), np_(f(keys[0])), rtol=1e-14)


def test_shape_and_dtype_rules():
    assert random.gamma(KEY, np.ones((2, 3))).shape == (2, 3)
    assert random.gamma(KEY, 2.0, (4,), np.float32).dtype == np.float32
    for name, draw in [("loggamma", lambda: random.loggamma(KEY, 0.1, (2,), np.float32)),
                       ("beta", lambda: random.beta(KEY, 2.0, 1.0, (2,), np.float32)),
                       ("dirichlet", lambda: random.dirichlet(KEY, np.ones(2), (2,), np.float32)),
                       ("t", lambda: random.t(KEY, 2.0, (2,), np.float32)),
                       ("binomial", lambda: random.binomial(KEY, 3.0, 0.4, (2,), np.float32)),
                       ("mvn", lambda: random.multivariate_normal(KEY, np.zeros(2), np.eye(2), (2,),
                                                                  np.float32))]:
        assert draw().dtype == np.float32, name
    assert random.poisson(KEY, 3.0, (2,), np.int32).dtype == np.int32
    assert random.beta(KEY, np.ones(3), 2.0).shape == (3,)
    with pytest.raises(ValueError, match="broadcast"):
        random.gamma(KEY, np.ones(3), (2,))
    with pytest.raises(ValueError, match="float"):
        random.gamma(KEY, 1.0, (2,), np.int32)
    with pytest.raises(ValueError, match="at least one dimension"):
        random.dirichlet(KEY, 1.0)


# --------------------------------------------------------------------------------------
# reparameterization gradients


def test_gamma_gradient_matches_stored_jax_random_gamma_grad():
    # d log x / da at given (a, x) is the CDF-preserving derivative; jax.lax.random_gamma_grad
    # gives dx/da at the same points (stored from jax 0.10.2)
    from fgrad.random._gamma import _dlogx_da
    d = STORED["gamma_grad"]
    a, x = np.array(d["a"]), np.array(d["x"])
    got = np.asarray(_dlogx_da(fnp.asarray(a), fnp.log(fnp.asarray(x)))) * x
    np.testing.assert_allclose(got, d["dx_da"], rtol=1e-10)


@pytest.mark.parametrize("a", [0.2, 1.0, 3.5, 120.0])
def test_gamma_sample_gradient_is_the_implicit_derivative(a):
    # per sample: grad through random.gamma equals -(dF/da)(a, x) / p(x; a), computed from
    # SciPy's regularized incomplete gamma function (live)
    keys = random.split(KEY, 50)
    g = np_(fgrad.vmap(fgrad.grad(lambda aa, k: random.gamma(k, aa)), in_axes=(None, 0))(a, keys))
    x_each = np_(fgrad.vmap(lambda k: random.gamma(k, a))(keys))
    st = pytest.importorskip("scipy.stats")
    from scipy import special
    h = 1e-6 * a
    dF_da = (special.gammainc(a + h, x_each) - special.gammainc(a - h, x_each)) / (2 * h)
    np.testing.assert_allclose(g, -dF_da / st.gamma(a).pdf(x_each), rtol=1e-5)


@pytest.mark.slow  # jax compiles random_gamma_grad (~7 s); the stored test above runs by default
def test_gamma_gradient_matches_live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    for a in (0.3, 2.0, 50.0):
        keys = random.split(KEY, 20)
        x = np_(fgrad.vmap(lambda k: random.gamma(k, a))(keys))
        g = np_(fgrad.vmap(fgrad.grad(lambda aa, k: random.gamma(k, aa)), in_axes=(None, 0))(a, keys))
        np.testing.assert_allclose(g, np.asarray(jax.lax.random_gamma_grad(np.full(20, a), x)), rtol=1e-10)


@pytest.mark.parametrize("a", [0.3, 2.0, 40.0])
def test_expected_gamma_gradient(a):
    # d E[x] / da = 1 and d E[x^2] / da = 2a + 1: Monte Carlo means of per-sample gradients
    keys = random.split(KEY, 4000)
    per = fgrad.vmap(fgrad.value_and_grad(lambda aa, k: random.gamma(k, aa)), in_axes=(None, 0))
    x, g = map(np.asarray, per(a, keys))
    assert_moment(g, 1.0)
    assert_moment(2 * x * g, 2 * a + 1)


def test_expected_beta_and_dirichlet_gradients():
    a, b = 2.0, 3.0
    keys = random.split(KEY, 4000)
    ga, gb = map(np.asarray, fgrad.vmap(fgrad.grad(lambda aa, bb, k: random.beta(k, aa, bb), argnums=(0, 1)),
                                         in_axes=(None, None, 0))(a, b, keys))
    assert_moment(ga, b / (a + b) ** 2)
    assert_moment(gb, -a / (a + b) ** 2)
    alpha = np.array([1.0, 2.0, 3.0])
    jac = np.asarray(fgrad.vmap(fgrad.jacrev(lambda al, k: random.dirichlet(k, al)), in_axes=(None, 0))(
        fnp.asarray(alpha), keys[:2000]))
    a0 = alpha.sum()
    expected = (np.eye(3) * a0 - alpha[:, None]) / a0 ** 2  # d E[x_i] / d alpha_j
    for i in range(3):
        for j in range(3):
            assert_moment(jac[:, i, j], expected[i, j])


def test_expected_t_and_chisquare_gradients():
    keys = random.split(KEY, 4000)
    per_key = fgrad.vmap(fgrad.grad(lambda df, k: random.chisquare(k, df)), in_axes=(None, 0))
    g = np.asarray(per_key(5.0, keys))
    assert_moment(g, 1.0)
    x, g = map(np.asarray, fgrad.vmap(fgrad.value_and_grad(lambda df, k: random.t(k, df) ** 2),
                                       in_axes=(None, 0))(10.0, keys))
    assert_moment(g, -2 / (10.0 - 2) ** 2)  # d/d df of df / (df - 2)


def test_gamma_gradient_under_jit_and_second_call():
    f = fgrad.jit(fgrad.grad(lambda a: fnp.sum(random.gamma(KEY, a, (8,)))))
    eager = fgrad.grad(lambda a: fnp.sum(random.gamma(KEY, a, (8,))))(1.7)
    np.testing.assert_allclose(float(f(1.7)), float(eager), rtol=1e-12)


# --------------------------------------------------------------------------------------
# live JAX: same laws (two-sample KS between fgrad's and JAX's samples)

TWO_SAMPLE_CRIT = 1.95 * math.sqrt(2 / N)


@pytest.mark.slow  # JAX compiles each sampler (~5 s each)
@pytest.mark.parametrize("name", ["gamma", "beta", "t", "poisson", "pareto", "weibull_min", "maxwell",
                                  "dirichlet", "loggamma", "binomial"])
def test_same_distribution_as_live_jax(name):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    calls = {
        "gamma": lambda m, k: m.gamma(k, 1.7, (N,)),
        "loggamma": lambda m, k: m.loggamma(k, 0.2, (N,)),
        "beta": lambda m, k: m.beta(k, 0.8, 2.5, (N,)),
        "t": lambda m, k: m.t(k, 3.0, (N,)),
        "poisson": lambda m, k: m.poisson(k, 12.5, (N,)),
        "pareto": lambda m, k: m.pareto(k, 2.0, (N,)),
        "weibull_min": lambda m, k: m.weibull_min(k, 1.0, 0.7, (N,)),
        "maxwell": lambda m, k: m.maxwell(k, (N,)),
        "dirichlet": lambda m, k: m.dirichlet(k, np.array([0.5, 1.5, 2.0]), (N,))[:, 0],
        "binomial": lambda m, k: m.binomial(k, 40.0, 0.35, (N,)),
    }
    ours = np.sort(np_(calls[name](random, KEY)).astype(np.float64))
    theirs = np.sort(np.asarray(calls[name](jax.random, jax.random.key(7))).astype(np.float64))
    grid = np.union1d(ours, theirs)
    cdf_ours = np.searchsorted(ours, grid, side="right") / N
    cdf_theirs = np.searchsorted(theirs, grid, side="right") / N
    assert np.max(np.abs(cdf_ours - cdf_theirs)) < TWO_SAMPLE_CRIT, name


@pytest.mark.parametrize("name", ["bits", "randint", "bernoulli", "gumbel", "exponential", "truncated_normal",
                                  "categorical", "permutation", "choice", "cauchy", "pareto", "rademacher"])
def test_bit_identical_streams_with_live_jax(name):
    # these samplers use JAX's constructions on the same threefry bits, so they agree exactly
    # (docs/nn-random.md lists them); the gamma family, Poisson, binomial, ... agree in law only
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    call = {
        "bits": lambda m, k: m.bits(k, (5,), np.uint32),
        "randint": lambda m, k: m.randint(k, (5,), -3, 100),
        "bernoulli": lambda m, k: m.bernoulli(k, 0.3, (8,)),
        "gumbel": lambda m, k: m.gumbel(k, (5,)),
        "exponential": lambda m, k: m.exponential(k, (5,)),
        "truncated_normal": lambda m, k: m.truncated_normal(k, -1.0, 2.0, (5,)),
        "categorical": lambda m, k: m.categorical(k, np.log(np.arange(1.0, 8.0)), shape=(6,)),
        "permutation": lambda m, k: m.permutation(k, 8),
        "choice": lambda m, k: m.choice(k, 10, (4,), replace=False),
        "cauchy": lambda m, k: m.cauchy(k, (5,)),
        "pareto": lambda m, k: m.pareto(k, 2.0, (5,)),
        "rademacher": lambda m, k: m.rademacher(k, (6,)),
    }[name]
    ours, theirs = np_(call(random, random.key(3))), np.asarray(call(jax.random, jax.random.key(3)))
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-14)


# --------------------------------------------------------------------------------------
# a key on a device (the fake device stands in for a GPU), with the configured default device
# and with another device as the default: a sampler's constants go where its key is


@pytest.mark.parametrize("default", [None, "fake:1"], ids=["configured_default", "another_default"])
def test_new_samplers_draw_on_the_keys_device(default):
    from fgrad.testing import fake_device
    with fake_device.installed(), fgrad.default_device(default):
        host = random.wrap_key_data(fgrad.device_put(random.key_data(random.key(7)), "cpu"))
        dev = random.wrap_key_data(fgrad.device_put(random.key_data(host), "fake:0"))
        samplers = {
            "gamma": lambda k: random.gamma(k, 0.7, (4,)),
            # under grad the parameter is an Array (on the default device unless put with the key)
            "gamma_grad": lambda k: fgrad.grad(lambda a: fnp.sum(random.gamma(k, a, (3,))))(
                fgrad.device_put(fnp.asarray(1.5), "fake:0" if k is dev else "cpu")),
            "beta": lambda k: random.beta(k, 2.0, 3.0, (3,)),
            "dirichlet": lambda k: random.dirichlet(k, [1.0, 2.0], (2,)),
            "t": lambda k: random.t(k, 3.0, (3,)),
            "poisson": lambda k: random.poisson(k, np.array([2.0, 40.0]), (2,)),
            "binomial": lambda k: random.binomial(k, 30, np.array([0.2, 0.9])),
            "multivariate_normal": lambda k: random.multivariate_normal(k, [0.0, 1.0], np.eye(2), (3,)),
            "orthogonal": lambda k: random.orthogonal(k, 3),
            "ball": lambda k: random.ball(k, 2, shape=(2,)),
            "pareto": lambda k: random.pareto(k, 2.0, (2,)),
            "weibull_min": lambda k: random.weibull_min(k, 1.0, 2.0, (2,)),
            "wald": lambda k: random.wald(k, 1.0, (2,)),
            "geometric": lambda k: random.geometric(k, 0.3, (2,)),
            "triangular": lambda k: random.triangular(k, 0.0, 0.5, 1.0, (2,)),
            "double_sided_maxwell": lambda k: random.double_sided_maxwell(k, 0.0, 1.0, (2,)),
            "categorical_no_replace": lambda k: random.categorical(  # logits given as an Array
                k, fgrad.device_put(fnp.asarray([0.0, 1.0, 2.0]), "fake:0" if k is dev else "cpu"),
                shape=(2,), replace=False),
        }
        for name, fn in samplers.items():
            got = fn(dev)
            assert str(got.device) == "fake:0", name
            np.testing.assert_allclose(np.asarray(got), np.asarray(fn(host)), rtol=1e-14, err_msg=name)


def test_invalid_and_extreme_parameters_like_jax():
    # jax 0.10.2 returns these values (and the rejection loops must terminate on them)
    g = np_(random.gamma(KEY, np.array([0.0, -1.0, np.nan, np.inf, 1e-300])))
    np.testing.assert_array_equal(g[[0, 3, 4]], [0.0, np.inf, 0.0])
    assert np.isnan(g[1]) and np.isnan(g[2])
    p = np_(random.poisson(KEY, np.array([0.0, -1.0, np.nan, np.inf])))
    np.testing.assert_array_equal(p, [0, -1, -1, np.iinfo(np.int64).max])
    b = np_(random.binomial(KEY, np.array([np.inf, np.nan, 5.0]), np.array([0.5, 0.5, np.nan])))
    assert b[0] == np.inf and np.isnan(b[1]) and np.isnan(b[2])
    be = np_(random.beta(KEY, np.array([0.0, -1.0]), 1.0))
    assert be[0] == 0.0 and np.isnan(be[1])
    grads = np_(fgrad.vmap(fgrad.grad(lambda a: random.gamma(KEY, a)))(np.array([-1.0, 1.0])))
    assert np.isnan(grads[0]) and np.isfinite(grads[1])


def _gamma_family_draws():
    k = random.PRNGKey(42)
    return {
        "gamma_42_2.0_5": lambda: random.gamma(k, 2.0, (5,)),
        "gamma_42_0.3_5": lambda: random.gamma(k, 0.3, (5,)),
        "gamma_42_a_2x2": lambda: random.gamma(k, fnp.array([[0.5, 1.0], [7.5, 100.0]])),
        "loggamma_42_1e-3_4": lambda: random.loggamma(k, 1e-3, (4,)),
        "loggamma_42_3.0_4": lambda: random.loggamma(k, 3.0, (4,)),
        "beta_42_2_3_4": lambda: random.beta(k, 2.0, 3.0, (4,)),
        "dirichlet_42_3": lambda: random.dirichlet(k, fnp.array([0.5, 1.0, 2.0]), (2,)),
        "chisquare_42_3": lambda: random.chisquare(k, 3.0, (3,)),
        "t_42_4": lambda: random.t(k, 4.0, (3,)),
    }


@pytest.mark.parametrize("name", sorted(STORED["gamma_family_streams"]))
def test_gamma_family_draws_jax_stream(name):
    # JAX's random_gamma: one key per element, Marsaglia-Tsang with JAX's key sequence; a JAX
    # program printing gamma/beta/dirichlet/chi-square/t samples prints the same numbers
    got = np_(_gamma_family_draws()[name]())
    np.testing.assert_allclose(got, STORED["gamma_family_streams"][name], rtol=1e-13, atol=0)


def test_gamma_family_draws_jax_stream_live():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jk = jax.random.PRNGKey(42)
    for a in (0.2, 1.0, 2.5, 40.0):
        want = np.asarray(jax.random.gamma(jk, a, (64,)))
        np.testing.assert_allclose(np_(random.gamma(random.PRNGKey(42), a, (64,))), want, rtol=1e-13)
        want = np.asarray(jax.random.loggamma(jk, a, (16,)))
        np.testing.assert_allclose(np_(random.loggamma(random.PRNGKey(42), a, (16,))), want, rtol=1e-13)


def test_wrap_key_data_takes_a_key_dtype():
    """JAX's wrap_key_data docstring example passes ``dtype=key.dtype``; fgrad had no
    ``dtype`` argument (TypeError).  ``impl`` and ``dtype`` together, or a dtype that is not a
    key dtype, raise ValueError as in JAX."""
    def check(m):
        key = m.random.key(42)
        data = m.random.key_data(key)
        again = m.random.wrap_key_data(data, dtype=key.dtype)
        assert bool(key == again) and again.dtype == key.dtype
        assert np.asarray(m.random.key_data(again)).tolist() == [0, 42]
        with pytest.raises(ValueError, match="Cannot specify both `impl` and `dtype`"):
            m.random.wrap_key_data(data, dtype=key.dtype, impl="threefry2x32")
        with pytest.raises(ValueError):
            m.random.wrap_key_data(data, dtype="float32")

    check(fgrad)
    check(pytest.importorskip("jax"))
