"""Monte Carlo estimators built on jax.random (as in the "Pseudorandom numbers" docs and
numpyro-free probabilistic code): typed keys with split into shapes and fold_in per
iteration, key_data, samplers (normal, uniform with minval/maxval, exponential, gamma,
beta, dirichlet, poisson, binomial, t, cauchy, laplace, logistic, truncated_normal,
multivariate_normal, permutation, choice with p, bernoulli), estimates of pi and of
E[max], importance sampling with log weights, antithetic variates, control variates, and
a quasi-random-free stratified estimator, all checked against closed forms."""

import numpy as np

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp
from jax.scipy.stats import norm

key = jax.random.key(2024)
print("typed key", key.dtype, key.shape, jax.random.key_data(key).tolist())
keys = jax.random.split(key, (2, 3))
print("split shape", keys.shape, jax.random.key_data(keys).shape)
folded = [int(jax.random.randint(jax.random.fold_in(key, i), (), 0, 1000)) for i in range(4)]
print("fold_in draws", folded)

k = jax.random.split(key, 16)
n = 20000
samplers = {
    "normal": jax.random.normal(k[0], (n,)),
    "uniform": jax.random.uniform(k[1], (n,), minval=-2.0, maxval=3.0),
    "exponential": jax.random.exponential(k[2], (n,)),
    "gamma": jax.random.gamma(k[3], 2.5, (n,)),
    "beta": jax.random.beta(k[4], 2.0, 5.0, (n,)),
    "poisson": jax.random.poisson(k[5], 3.5, (n,)),
    "binomial": jax.random.binomial(k[6], 10, 0.3, (n,)),
    "t": jax.random.t(k[7], 5.0, (n,)),
    "laplace": jax.random.laplace(k[8], (n,)),
    "logistic": jax.random.logistic(k[9], (n,)),
    "truncated": jax.random.truncated_normal(k[10], -1.0, 2.0, (n,)),
}
for name, s in samplers.items():
    print(f"{name:12s} {str(s.dtype):8s} mean {float(s.mean()):.3f} var {float(s.var()):.3f}")
c = jax.random.cauchy(k[11], (n,))
print("cauchy median", round(float(jnp.median(c)), 4))
dir_ = jax.random.dirichlet(k[12], jnp.array([1.0, 2.0, 3.0]), (n,))
print("dirichlet mean", np.round(np.asarray(dir_.mean(0)), 4))
cov = jnp.array([[1.0, 0.8], [0.8, 2.0]])
mv = jax.random.multivariate_normal(k[13], jnp.zeros(2), cov, (n,))
print("mvn cov", np.round(np.asarray(jnp.cov(mv.T)), 3).tolist())
print("permutation", jax.random.permutation(k[14], 10).tolist())
ch = jax.random.choice(k[15], 4, (n,), p=jnp.array([0.1, 0.2, 0.3, 0.4]))
print("choice freq", np.round(np.asarray(jnp.bincount(ch, length=4) / n), 3))
print("bernoulli", round(float(jax.random.bernoulli(k[0], 0.25, (n,)).mean()), 4))


@jax.jit
def estimate_pi(key):
    pts = jax.random.uniform(key, (100000, 2))
    return 4.0 * jnp.mean(jnp.sum(pts ** 2, axis=1) < 1.0)


print("pi", float(estimate_pi(jax.random.key(0))))
ests = jax.vmap(estimate_pi)(jax.random.split(jax.random.key(1), 8))
print("pi spread", round(float(ests.mean()), 5), round(float(ests.std()), 5))

# P(Z > 3) by importance sampling from N(3, 1)
z = jax.random.normal(jax.random.key(3), (n,)) + 3.0
logw = norm.logpdf(z) - norm.logpdf(z, 3.0)
is_est = jnp.exp(logsumexp(logw, b=(z > 3.0)) - jnp.log(n))
naive = float(jnp.mean(samplers["normal"] > 3))
print("IS tail", float(is_est), "exact", float(norm.sf(3.0)), "naive", naive)

# E[exp(U)] for U ~ U(0, 1): plain, antithetic, control variate
u = jax.random.uniform(jax.random.key(4), (n,))
plain = jnp.exp(u)
anti = 0.5 * (jnp.exp(u) + jnp.exp(1 - u))
beta_cv = jnp.cov(plain, u)[0, 1] / jnp.var(u, ddof=1)
cv = plain - beta_cv * (u - 0.5)
print("exact", round(float(jnp.e - 1), 6))
for name, est in [("plain", plain), ("antithetic", anti), ("control", cv)]:
    print(f"{name:10s} {float(est.mean()):.6f} var {float(est.var()):.6f}")
strata = (jnp.arange(1000) + jax.random.uniform(jax.random.key(5), (1000,))) / 1000
print("stratified", round(float(jnp.mean(jnp.exp(strata))), 6))
maxima = jnp.max(jax.random.normal(jax.random.key(6), (n, 5)), 1)
print("E[max of 5 normals]", round(float(jnp.mean(maxima)), 4))
