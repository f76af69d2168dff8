"""Gaussian-process regression with fgrad.scipy: fit the kernel's hyperparameters by
maximizing the log marginal likelihood (BFGS on its exact gradient), then predict.

Written as JAX code: ``python examples/gp_regression.py --jax`` runs the same program on
JAX (only the imports differ).  It prints the hyperparameters, the negative log marginal
likelihood before and after fitting, the gradient norm at the optimum, a finite-difference
check of that gradient, and the test error, so tests/test_example_gp.py can hold the run to
tolerances and compare the two libraries.
"""

from __future__ import annotations

import sys

import numpy as np

if "--jax" in sys.argv:
    import jax
    import jax.numpy as jnp
    from jax.scipy.linalg import cho_factor, cho_solve
    from jax.scipy.optimize import minimize
    from jax.scipy.stats import multivariate_normal, norm

    jax.config.update("jax_enable_x64", True)
else:
    import fgrad as jax
    import fgrad.numpy as jnp
    from fgrad.scipy.linalg import cho_factor, cho_solve
    from fgrad.scipy.optimize import minimize
    from fgrad.scipy.stats import multivariate_normal, norm


def make_data(n_train=40, n_test=100, noise=0.15, seed=0):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0.0, 10.0, n_train))
    y = np.sin(x) + 0.3 * np.cos(3.0 * x) + noise * rng.normal(size=n_train)
    xt = np.linspace(0.0, 10.0, n_test)
    yt = np.sin(xt) + 0.3 * np.cos(3.0 * xt)
    return jnp.asarray(x), jnp.asarray(y), jnp.asarray(xt), jnp.asarray(yt)


def rbf(xa, xb, log_length, log_signal):
    d = (xa[:, None] - xb[None, :]) / jnp.exp(log_length)
    return jnp.exp(2.0 * log_signal) * jnp.exp(-0.5 * d * d)


def neg_log_marginal(theta, x, y):
    """-log N(y; 0, K + s^2 I) for theta = (log length, log signal, log noise)."""
    k = rbf(x, x, theta[0], theta[1]) + jnp.exp(2.0 * theta[2]) * jnp.eye(x.shape[0])
    return -multivariate_normal.logpdf(y, jnp.zeros_like(y), k)


def predict(theta, x, y, xt):
    k = rbf(x, x, theta[0], theta[1]) + jnp.exp(2.0 * theta[2]) * jnp.eye(x.shape[0])
    ks = rbf(xt, x, theta[0], theta[1])
    factor = cho_factor(k, lower=True)
    mean = ks @ cho_solve(factor, y)
    var = jnp.exp(2.0 * theta[1]) - jnp.sum(ks * cho_solve(factor, ks.T).T, axis=1)
    return mean, var + jnp.exp(2.0 * theta[2])


def main():
    x, y, xt, yt = make_data()
    objective = jax.jit(lambda t: neg_log_marginal(t, x, y))
    theta0 = jnp.asarray([0.0, 0.0, -1.0])
    print(f"initial nlml {float(objective(theta0)):.6f}")
    res = minimize(objective, theta0, method="BFGS")
    theta = res.x
    grad = jax.grad(objective)(theta)
    print(f"fitted nlml {float(res.fun):.6f} after {int(res.nit)} iterations (status {int(res.status)})")
    print("length {:.6f} signal {:.6f} noise {:.6f}".format(*[float(v) for v in jnp.exp(theta)]))
    print(f"gradient norm at optimum {float(jnp.linalg.norm(grad)):.3e}")

    # the exact gradient against central differences at the starting point
    g0 = jax.grad(objective)(theta0)
    eps = 1e-5
    fd = [(float(objective(theta0 + eps * e)) - float(objective(theta0 - eps * e))) / (2 * eps)
          for e in jnp.eye(3)]
    print(f"max |grad - finite difference| = {float(jnp.max(jnp.abs(g0 - jnp.asarray(fd)))):.3e}")

    # curvature: the Hessian of the objective at the optimum is positive definite
    h = jax.hessian(objective)(theta)
    print(f"min Hessian eigenvalue at optimum {float(jnp.min(jnp.linalg.eigvalsh(h))):.6f}")

    mean, var = predict(theta, x, y, xt)
    rmse = float(jnp.sqrt(jnp.mean((mean - yt) ** 2)))
    mlpd = float(jnp.mean(norm.logpdf(yt, mean, jnp.sqrt(var))))
    print(f"test rmse {rmse:.6f} mean log predictive density {mlpd:.6f}")


if __name__ == "__main__":
    main()
