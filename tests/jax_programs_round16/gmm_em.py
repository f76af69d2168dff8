"""Gaussian mixture models fitted by expectation-maximization in JAX, as statistics code
written with jax alone does: the E step with jax.scipy.stats.multivariate_normal.logpdf
vmapped over components and jax.scipy.special.logsumexp, the M step in closed form (weighted
means and full covariances with a ridge), EM iterated by lax.while_loop until the
log-likelihood stops improving, ancestral sampling with jax.random.categorical and
jax.random.multivariate_normal, the marginal log-likelihood's gradient (equal to the
posterior-weighted score), and BIC model selection over the number of components."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.special import logsumexp
from jax.scipy.stats import multivariate_normal

D = 2


def sample_gmm(key, weights, means, covs, n):
    kc, kx = random.split(key)
    comps = random.categorical(kc, jnp.log(weights), shape=(n,))
    xs = random.multivariate_normal(kx, means[comps], covs[comps])
    return xs, comps


def log_joint(x, weights, means, covs):
    # (N, K): log pi_k + log N(x_n | mu_k, Sigma_k)
    lp = jax.vmap(lambda m, c: multivariate_normal.logpdf(x, m, c), out_axes=1)(means, covs)
    return jnp.log(weights) + lp


def log_likelihood(x, weights, means, covs):
    return logsumexp(log_joint(x, weights, means, covs), axis=1).sum()


def em_step(x, weights, means, covs):
    lj = log_joint(x, weights, means, covs)
    ll = logsumexp(lj, axis=1)
    resp = jnp.exp(lj - ll[:, None])                        # E step
    nk = resp.sum(0) + 1e-10
    weights = nk / x.shape[0]                               # M step
    means = (resp.T @ x) / nk[:, None]
    diff = x[None] - means[:, None]                         # (K, N, D)
    covs = jnp.einsum("nk,kni,knj->kij", resp, diff, diff) / nk[:, None, None]
    covs = covs + 1e-6 * jnp.eye(D)
    return weights, means, covs, ll.sum()


def fit(x, k, key, tol=1e-6, max_iter=200):
    idx = random.choice(key, x.shape[0], (k,), replace=False)
    init = (jnp.full(k, 1.0 / k), x[idx], jnp.tile(jnp.cov(x.T)[None], (k, 1, 1)))

    def cond(state):
        _, prev, cur, it = state
        return (it < max_iter) & (jnp.abs(cur - prev) > tol * jnp.abs(cur))

    def body(state):
        params, _, cur, it = state
        w, m, c, _ = em_step(x, *params)
        return (w, m, c), cur, log_likelihood(x, w, m, c), it + 1

    params, _, ll, iters = lax.while_loop(
        cond, body, (init, -jnp.inf, log_likelihood(x, *init), 0))
    return params, ll, iters


true_w = jnp.array([0.5, 0.3, 0.2])
true_m = jnp.array([[0.0, 0.0], [4.0, 1.0], [-2.0, 4.0]])
true_c = jnp.array([[[1.0, 0.3], [0.3, 0.5]], [[0.4, 0.0], [0.0, 0.4]], [[0.8, -0.2], [-0.2, 0.3]]])
x, comps = sample_gmm(random.PRNGKey(0), true_w, true_m, true_c, 600)
print("sample", x.shape, x.dtype, "component counts", jnp.bincount(comps, length=3))
print("true ll", log_likelihood(x, true_w, true_m, true_c))

g = jax.grad(lambda m: log_likelihood(x, true_w, m, true_c))(true_m)
lj = log_joint(x, true_w, true_m, true_c)
resp = jax.nn.softmax(lj, axis=1)
score = jnp.einsum("nk,kij,knj->ki", resp, jnp.linalg.inv(true_c), x[None] - true_m[:, None])
print("grad wrt means == posterior-weighted score:", bool(jnp.allclose(g, score, rtol=1e-4, atol=1e-3)))

(w, m, c), ll, iters = fit(x, 3, random.PRNGKey(1))
order = jnp.argsort(m[:, 0])
print("EM iterations", iters, "final ll", ll)
print("weights", w[order])
print("means", m[order])
print("cov of first", c[order][0])

for k in range(1, 5):
    _, ll_k, it_k = fit(x, k, random.PRNGKey(10 + k))
    n_params = (k - 1) + k * D + k * D * (D + 1) // 2
    bic = -2 * ll_k + n_params * jnp.log(x.shape[0])
    print(f"k={k} ll {ll_k:.3f} bic {bic:.3f}")
