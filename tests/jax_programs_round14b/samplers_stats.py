"""Probabilistic-programming building blocks as research code writes them with jax.random and
jax.scipy.stats: draws from multivariate_normal (cholesky/eigh/svd methods), dirichlet, gamma,
beta, poisson, t, exponential, laplace, truncated_normal, choice without replacement,
permutation; sample moments against the analytic ones; logpdfs from jax.scipy.stats
(multivariate_normal, dirichlet, gamma, beta, poisson, t, cauchy, expon, laplace) in a small
Bayesian model's log joint, its gradient, and a Gibbs step with conjugate updates."""

import jax
import jax.numpy as jnp
from jax import random
from jax.scipy import stats

key = random.PRNGKey(0)
ks = random.split(key, 12)
mean = jnp.array([1.0, -1.0, 0.5])
cov = jnp.array([[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 0.5]])
for method in ["cholesky", "eigh", "svd"]:
    x = random.multivariate_normal(ks[0], mean, cov, (4000,), method=method)
    print(method, x.shape, x[0], jnp.abs(jnp.cov(x.T) - cov).max() < 0.15)

alpha = jnp.array([2.0, 3.0, 5.0])
d = random.dirichlet(ks[1], alpha, (2000,))
print("dirichlet", d[0], d.sum(-1)[:3], d.mean(0))
g = random.gamma(ks[2], jnp.array([0.5, 1.0, 4.0]), (3000, 3))
print("gamma", g[0], g.mean(0))
print("beta", random.beta(ks[3], 2.0, 5.0, (3,)))
print("poisson", random.poisson(ks[4], 3.5, (8,)), random.poisson(ks[4], 3.5, (8,)).dtype)
print("t", random.t(ks[5], 4.0, (3,)))
print("exponential", random.exponential(ks[6], (3,)), "laplace", random.laplace(ks[7], (3,)))
print("truncated", random.truncated_normal(ks[8], -1.0, 2.0, (4,)))
probs = jnp.array([0.1, 0.2, 0.3, 0.2, 0.2])
print("choice", random.choice(ks[9], 10, (4,), replace=False),
      random.choice(ks[9], jnp.arange(5) * 10, (3,), p=probs))
print("permutation", random.permutation(ks[10], 6),
      random.permutation(ks[10], jnp.arange(6).reshape(3, 2), axis=1))
print("cauchy", random.cauchy(ks[11], (2,)), "logistic", random.logistic(ks[11], (2,)))

print("mvn logpdf", stats.multivariate_normal.logpdf(jnp.array([0.0, 0.0, 0.0]), mean, cov))
print("mvn logpdf batch", stats.multivariate_normal.logpdf(d, mean, cov)[:3])
print("dirichlet logpdf", stats.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), alpha))
print("gamma logpdf", stats.gamma.logpdf(jnp.array([0.5, 1.0, 2.0]), 2.0, scale=1.5))
print("beta logpdf", stats.beta.logpdf(0.3, 2.0, 5.0), "cdf", stats.beta.cdf(0.3, 2.0, 5.0))
print("poisson logpmf", stats.poisson.logpmf(jnp.array([0, 3, 7]), 3.5), stats.poisson.cdf(3, 3.5))
print("t logpdf", stats.t.logpdf(1.5, 4.0), "cauchy", stats.cauchy.logpdf(0.5),
      "expon", stats.expon.logpdf(2.0, scale=0.5))
print("laplace", stats.laplace.logpdf(-1.0, loc=0.5, scale=2.0), "logistic", stats.logistic.cdf(0.3))
print("norm ppf", stats.norm.ppf(jnp.array([0.025, 0.5, 0.975])), "sf", stats.norm.sf(1.96))

# a hierarchical model: y_i ~ Poisson(lam_g), lam_g ~ Gamma(a, b), a ~ Exp(1)
counts = random.poisson(ks[0], jnp.repeat(jnp.array([2.0, 6.0]), 10))
groups = jnp.repeat(jnp.arange(2), 10)


def log_joint(params):
    log_lam, log_a, log_b = params["log_lam"], params["log_a"], params["log_b"]
    lam, a, b = jnp.exp(log_lam), jnp.exp(log_a), jnp.exp(log_b)
    lp = jnp.sum(stats.poisson.logpmf(counts, lam[groups]))
    lp += jnp.sum(stats.gamma.logpdf(lam, a, scale=1 / b) + log_lam)
    lp += stats.expon.logpdf(a) + log_a + stats.expon.logpdf(b) + log_b
    return lp


p0 = {"log_lam": jnp.zeros(2), "log_a": jnp.array(0.0), "log_b": jnp.array(0.0)}
print("log joint", log_joint(p0))
print("grad", jax.grad(log_joint)(p0))
p = p0
for _ in range(50):
    p = jax.tree.map(lambda x, g: x + 0.02 * g, p, jax.grad(log_joint)(p))
print("MAP lam", jnp.exp(p["log_lam"]), "group means", jnp.array([counts[:10].mean(), counts[10:].mean()]))


def gibbs(key, a=2.0, b=1.0):
    shape = a + jax.ops.segment_sum(counts, groups, 2)
    rate = b + 10.0
    return random.gamma(key, shape) / rate


draws = jax.vmap(gibbs)(random.split(ks[1], 500))
print("gibbs posterior mean", draws.mean(0), "exact", (2.0 + jax.ops.segment_sum(counts, groups, 2)) / 11.0)
