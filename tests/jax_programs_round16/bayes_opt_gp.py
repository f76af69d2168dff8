"""Bayesian optimization with a Gaussian process (as in JAX tutorials and BO research code
written with jax alone): an ARD Matern-5/2 kernel, hyperparameters fitted by maximizing the
log marginal likelihood through jax.scipy.linalg.cho_factor/cho_solve and softplus-
constrained parameters, the posterior mean and variance, the expected-improvement
acquisition with jax.scipy.stats.norm.cdf/pdf, multi-start gradient ascent on the
acquisition with jax.vmap(jax.grad) and jnp.clip to the box, and the BO loop on the
Branin function."""

import jax
import jax.numpy as jnp
from jax import random
from jax.scipy.linalg import cho_factor, cho_solve, solve_triangular
from jax.scipy.stats import norm

LO, HI = jnp.array([-5.0, 0.0]), jnp.array([10.0, 15.0])


def branin(x):
    a, b, c, r, s, t = 1.0, 5.1 / (4 * jnp.pi ** 2), 5 / jnp.pi, 6.0, 10.0, 1 / (8 * jnp.pi)
    return a * (x[1] - b * x[0] ** 2 + c * x[0] - r) ** 2 + s * (1 - t) * jnp.cos(x[0]) + s


def to_unit(x):
    return (x - LO) / (HI - LO)


def matern52(p, a, b):
    ls = jax.nn.softplus(p["raw_ls"])
    var = jax.nn.softplus(p["raw_var"])
    d = jnp.sqrt(jnp.sum(((a[:, None] - b[None]) / ls) ** 2, -1) + 1e-12)
    s5 = jnp.sqrt(5.0) * d
    return var * (1 + s5 + s5 ** 2 / 3) * jnp.exp(-s5)


def neg_mll(p, X, y):
    noise = jax.nn.softplus(p["raw_noise"]) + 1e-6
    K = matern52(p, X, X) + noise * jnp.eye(X.shape[0])
    cf = cho_factor(K, lower=True)
    alpha = cho_solve(cf, y)
    return 0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(cf[0]))) + 0.5 * X.shape[0] * jnp.log(2 * jnp.pi)


def fit(p, X, y, steps=100, lr=0.05):
    vg = jax.jit(jax.value_and_grad(neg_mll))
    m = jax.tree.map(jnp.zeros_like, p)
    v = jax.tree.map(jnp.zeros_like, p)
    for t in range(1, steps + 1):
        loss, g = vg(p, X, y)
        m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
        p = jax.tree.map(lambda p, m, v: p - lr * (m / (1 - 0.9 ** t)) / (jnp.sqrt(v / (1 - 0.999 ** t)) + 1e-8),
                         p, m, v)
    return p, loss


def posterior(p, X, y, Xs):
    noise = jax.nn.softplus(p["raw_noise"]) + 1e-6
    K = matern52(p, X, X) + noise * jnp.eye(X.shape[0])
    L = jnp.linalg.cholesky(K)
    Ks = matern52(p, X, Xs)
    alpha = cho_solve((L, True), y)
    mu = Ks.T @ alpha
    v = solve_triangular(L, Ks, lower=True)
    var = jax.nn.softplus(p["raw_var"]) - jnp.sum(v ** 2, 0)
    return mu, jnp.maximum(var, 1e-12)


def expected_improvement(p, X, y, x, best):
    mu, var = posterior(p, X, y, x[None])
    sigma = jnp.sqrt(var[0])
    z = (best - mu[0]) / sigma
    return (best - mu[0]) * norm.cdf(z) + sigma * norm.pdf(z)


def propose(p, X, y, key, starts=16, steps=30, lr=0.05):
    best = y.min()
    ei_grad = jax.vmap(jax.grad(expected_improvement, argnums=3), in_axes=(None, None, None, 0, None))
    ei = jax.vmap(expected_improvement, in_axes=(None, None, None, 0, None))
    x = random.uniform(key, (starts, 2))
    for _ in range(steps):
        x = jnp.clip(x + lr * ei_grad(p, X, y, x, best), 0.0, 1.0)
    vals = ei(p, X, y, x, best)
    return x[jnp.argmax(vals)], vals.max()


key = random.PRNGKey(0)
key, k0 = random.split(key)
X = random.uniform(k0, (5, 2))
raw_y = jax.vmap(lambda u: branin(LO + u * (HI - LO)))(X)
print("branin at known minimum", branin(jnp.array([jnp.pi, 2.275])))
print("initial design values", raw_y)
p = {"raw_ls": jnp.zeros(2) - 1.0, "raw_var": jnp.array(0.5), "raw_noise": jnp.array(-4.0)}
for it in range(6):
    y_mean, y_std = raw_y.mean(), raw_y.std()
    y = (raw_y - y_mean) / y_std
    p, loss = fit(p, X, y)
    key, sub = random.split(key)
    x_new, ei = propose(p, X, y, sub)
    f_new = branin(LO + x_new * (HI - LO))
    X = jnp.concatenate([X, x_new[None]])
    raw_y = jnp.concatenate([raw_y, f_new[None]])
    print(f"iter {it} nmll {loss:.4f} lengthscales {jax.nn.softplus(p['raw_ls'])} "
          f"EI {ei:.5f} f(x_new) {f_new:.4f} best {raw_y.min():.4f}")
mu, var = posterior(p, X, (raw_y - raw_y.mean()) / raw_y.std(), X[:3])
print("posterior at data (standardized)", mu, "variance below 1e-3", bool(jnp.all(var < 1e-3)))
