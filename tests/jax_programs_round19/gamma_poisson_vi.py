"""Variational inference with reparameterised non-Gaussian samplers, as in a probabilistic-
programming tutorial written in plain JAX: a Gamma-Poisson model whose Gamma variational
posterior is trained through jax.random.gamma's implicit reparameterisation gradient, a
Dirichlet-multinomial with random.dirichlet (gradient wrt the concentrations) and
random.beta, a Student-t regression with random.t, random.multivariate_normal with method
'cholesky'/'eigh'/'svd', random.categorical and random.choice with probabilities, and the
discrete samplers poisson/binomial/geometric, all under jit and vmap over split keys."""

import jax
import jax.numpy as jnp
from jax import random
from jax.scipy import stats
from jax.scipy.special import digamma, gammaln

jnp.set_printoptions(precision=4, suppress=True)
key = random.PRNGKey(2024)
k_data, k_vi, k_misc = random.split(key, 3)

# data: counts from Poisson(rate) with a Gamma(2, 1) prior on each of 5 groups' rates
true_rates = jnp.array([0.5, 1.0, 2.0, 4.0, 8.0])
counts = random.poisson(k_data, true_rates, shape=(30, 5))
print("counts dtype", counts.dtype, "means", counts.mean(0))
a0, b0 = 2.0, 1.0


def elbo(params, key, n_samples=64):
    alpha = jnp.exp(params["log_alpha"])
    beta = jnp.exp(params["log_beta"])
    z = random.gamma(key, alpha, shape=(n_samples, 5)) / beta  # reparameterised
    loglik = jnp.sum(stats.poisson.logpmf(counts[None], z[:, None, :]), axis=(1, 2))
    logprior = jnp.sum(stats.gamma.logpdf(z, a0, scale=1.0 / b0), axis=1)
    logq = jnp.sum(stats.gamma.logpdf(z, alpha, scale=1.0 / beta), axis=1)
    return jnp.mean(loglik + logprior - logq)


params = {"log_alpha": jnp.zeros(5), "log_beta": jnp.zeros(5)}
g = jax.grad(elbo)(params, k_vi)
print("d elbo / d log_alpha", g["log_alpha"])
print("d gamma / d alpha", jax.grad(lambda a: random.gamma(k_misc, a, shape=(4,)).sum())(jnp.float32(2.5)))


@jax.jit
def step(params, key, lr=0.002):
    val, g = jax.value_and_grad(elbo)(params, key)
    return jax.tree.map(lambda p, d: p + lr * d, params, g), val


for i, k in enumerate(random.split(k_vi, 150)):
    params, val = step(params, k)
    if i % 50 == 49:
        print(f"iter {i + 1} elbo {val:.3f}")
post_mean = jnp.exp(params["log_alpha"] - params["log_beta"])
exact = (a0 + counts.sum(0)) / (b0 + counts.shape[0])
print("VI posterior mean", post_mean)
print("exact conjugate  ", exact)

# Dirichlet and Beta, with gradients through the concentrations
conc = jnp.array([1.0, 2.0, 3.0])
d = random.dirichlet(k_misc, conc, shape=(4,))
print("dirichlet\n", d, "\nrows sum to 1:", bool(jnp.allclose(d.sum(1), 1.0, atol=1e-6)))
print("d E[x_0] / d conc", jax.grad(lambda c: random.dirichlet(k_misc, c, shape=(2000,))[:, 0].mean())(conc))
print("beta", random.beta(k_misc, 2.0, jnp.array([1.0, 5.0, 0.5])))
x = random.beta(k_misc, 0.7, 0.7, shape=(5000,))
print(f"beta mean {x.mean():.4f} var {x.var():.4f}")
print("digamma/gammaln", digamma(conc), gammaln(conc.sum()))

# Student-t noise, multivariate normal three ways
ts = random.t(k_misc, df=3.0, shape=(6,))
print("student t", ts)
mean = jnp.array([1.0, -1.0])
cov = jnp.array([[2.0, 0.6], [0.6, 1.0]])
for method in ("cholesky", "eigh", "svd"):
    s = random.multivariate_normal(k_misc, mean, cov, shape=(4000,), method=method)
    print(f"mvn {method:8s} mean {s.mean(0)} cov[0,1] {jnp.cov(s.T)[0, 1]:.4f}")
print("mvn first draw", random.multivariate_normal(k_misc, mean, cov, method="cholesky"))

# discrete samplers
logits = jnp.log(jnp.array([0.1, 0.2, 0.7]))
cat = random.categorical(k_misc, logits, shape=(10,))
print("categorical", cat, cat.dtype)
print("categorical batched", random.categorical(k_misc, jnp.stack([logits, logits[::-1]]), axis=-1))
print("choice p", random.choice(k_misc, 5, shape=(8,), p=jnp.array([0.1, 0.1, 0.2, 0.2, 0.4])))
print("choice no replace", random.choice(k_misc, jnp.arange(10) * 10, shape=(5,), replace=False))
print("binomial", random.binomial(k_misc, 20.0, jnp.array([0.1, 0.5, 0.9])))
print("geometric", random.geometric(k_misc, 0.3, shape=(6,)))
keys = random.split(k_misc, 4)
print("vmap poisson", jax.vmap(lambda k: random.poisson(k, 3.0, shape=(3,)))(keys))
print("truncated normal", random.truncated_normal(k_misc, -1.0, 2.0, shape=(5,)))
print("loggamma", random.loggamma(k_misc, jnp.array([0.01, 0.5, 5.0])))
