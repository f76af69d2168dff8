"""A Gaussian-process regression fitted by maximising the log marginal likelihood (Cholesky
solves, jax.scipy.linalg), and a conjugate Bayesian linear regression posterior."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import cho_factor, cho_solve, solve_triangular


def rbf(x1, x2, lengthscale, variance):
    d2 = jnp.sum((x1[:, None, :] - x2[None, :, :]) ** 2, -1)
    return variance * jnp.exp(-0.5 * d2 / lengthscale ** 2)


key = jax.random.PRNGKey(0)
k1, k2, k3 = jax.random.split(key, 3)
X = jnp.sort(jax.random.uniform(k1, (20, 1), minval=-3.0, maxval=3.0), axis=0)
y = jnp.sin(X[:, 0]) + 0.1 * jax.random.normal(k2, (20,))
Xtest = jnp.linspace(-3.0, 3.0, 5)[:, None]


def unpack(params):
    return jax.tree_util.tree_map(jnp.exp, params)


def neg_log_marginal(params):
    p = unpack(params)
    K = rbf(X, X, p["lengthscale"], p["variance"]) + (p["noise"] + 1e-6) * jnp.eye(X.shape[0])
    L = jnp.linalg.cholesky(K)
    alpha = cho_solve((L, True), y)
    return (0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(L)))
            + 0.5 * X.shape[0] * jnp.log(2 * jnp.pi))


params = {"lengthscale": jnp.array(0.0), "variance": jnp.array(0.0), "noise": jnp.array(-2.0)}
print("initial nlml", neg_log_marginal(params))
print(jax.grad(neg_log_marginal)(params))

step = jax.jit(jax.value_and_grad(neg_log_marginal))
for i in range(101):
    value, grads = step(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)
    if i % 25 == 0:
        print(f"iter {i:3d} nlml {float(value):.5f}")
print({k: round(float(v), 4) for k, v in unpack(params).items()})


def predict(params, Xs):
    p = unpack(params)
    K = rbf(X, X, p["lengthscale"], p["variance"]) + (p["noise"] + 1e-6) * jnp.eye(X.shape[0])
    Ks = rbf(X, Xs, p["lengthscale"], p["variance"])
    Kss = rbf(Xs, Xs, p["lengthscale"], p["variance"])
    c = cho_factor(K, lower=True)
    mean = Ks.T @ cho_solve(c, y)
    v = solve_triangular(c[0], Ks, lower=True)
    var = jnp.diag(Kss) - jnp.sum(v ** 2, 0)
    return mean, var


mean, var = predict(params, Xtest)
print("mean", mean)
print("std", jnp.sqrt(var))

# Bayesian linear regression: prior N(0, alpha^-1 I), noise precision beta
Phi = jnp.concatenate([jnp.ones((20, 1)), X, X ** 2], axis=1)
alpha, beta = 1.0, 25.0
S_inv = alpha * jnp.eye(3) + beta * Phi.T @ Phi
S = jnp.linalg.inv(S_inv)
m = beta * S @ Phi.T @ y
print("posterior mean", m)
print("posterior cov diag", jnp.diag(S))
print("solve agrees", jnp.allclose(jnp.linalg.solve(S_inv, beta * Phi.T @ y), m, atol=1e-4))
sign, logdet = jnp.linalg.slogdet(S_inv)
log_evidence = (1.5 * jnp.log(alpha) + 10 * jnp.log(beta) - 0.5 * beta * jnp.sum((y - Phi @ m) ** 2)
                - 0.5 * alpha * m @ m - 0.5 * logdet - 10 * jnp.log(2 * jnp.pi))
print("log evidence", sign, log_evidence)
samples = jax.random.multivariate_normal(k3, m, S, (4,), method="cholesky")
print("posterior samples", samples.shape, samples.mean(0))
print(jax.scipy.stats.multivariate_normal.logpdf(m, m, S))
print(jax.scipy.stats.norm.logpdf(y[:3], loc=(Phi @ m)[:3], scale=1 / jnp.sqrt(beta)))
