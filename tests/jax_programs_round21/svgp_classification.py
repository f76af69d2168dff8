"""Stochastic variational Gaussian process classification (Hensman, Matthews & Ghahramani,
2015) as GPJax-style code writes it by hand: whitened inducing variables u = L v with
q(v) = N(m, S S^T) and S lower triangular (jnp.tril of free parameters with a softplus
diagonal), the predictive marginals by jax.scipy.linalg.solve_triangular, the expected
Bernoulli log-likelihood by Gauss-Hermite quadrature (numpy.polynomial.hermite_e nodes) with
jax.scipy.stats.norm.logcdf, the KL term to the prior, minibatched ELBO ascent with hand
written Adam over a dict of parameters including log hyperparameters, and predictions
compared with jax.scipy.stats.bernoulli / norm.cdf closed forms (probit link)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.linalg import solve_triangular
from jax.scipy.stats import bernoulli, norm

jnp.set_printoptions(precision=4, suppress=True)
M, N, BATCH = 8, 96, 32

key = jax.random.PRNGKey(11)
kx, ky, kz = jax.random.split(key, 3)
X = jnp.sort(jax.random.uniform(kx, (N,), minval=-3.0, maxval=3.0))
f_true = jnp.sin(2.0 * X) + 0.3 * X
Y = (jax.random.uniform(ky, (N,)) < norm.cdf(2.0 * f_true)).astype(X.dtype)
print("positives", int(Y.sum()), "of", N)


def rbf(a, b, log_ell, log_sf):
    d = (a[:, None] - b[None, :]) / jnp.exp(log_ell)
    return jnp.exp(2 * log_sf) * jnp.exp(-0.5 * d**2)


def q_sqrt(params):
    raw = params["s_raw"]
    return jnp.tril(raw, -1) + jnp.diag(jax.nn.softplus(jnp.diag(raw)))


def predict_f(params, x):
    Z = params["z"]
    Kzz = rbf(Z, Z, params["log_ell"], params["log_sf"]) + 1e-5 * jnp.eye(M)
    L = jnp.linalg.cholesky(Kzz)
    A = solve_triangular(L, rbf(Z, x, params["log_ell"], params["log_sf"]), lower=True)  # (M, n)
    mean = A.T @ params["m"]
    SA = q_sqrt(params).T @ A
    var = jnp.exp(2 * params["log_sf"]) - jnp.sum(A**2, axis=0) + jnp.sum(SA**2, axis=0)
    return mean, var


def kl_whitened(params):
    S = q_sqrt(params)
    return 0.5 * (jnp.sum(S**2) + jnp.sum(params["m"] ** 2) - M - 2 * jnp.sum(jnp.log(jnp.diag(S))))


nodes, weights = np.polynomial.hermite_e.hermegauss(20)
nodes, weights = jnp.asarray(nodes), jnp.asarray(weights / np.sqrt(2 * np.pi))


def expected_loglik(y, mean, var):
    f = mean[:, None] + jnp.sqrt(var)[:, None] * nodes[None, :]
    sign = 2.0 * y[:, None] - 1.0
    return jnp.sum(norm.logcdf(sign * f) * weights[None, :], axis=1)


def elbo(params, xb, yb):
    mean, var = predict_f(params, xb)
    return N / xb.shape[0] * jnp.sum(expected_loglik(yb, mean, var)) - kl_whitened(params)


params = {"z": jnp.linspace(-2.5, 2.5, M), "m": jnp.zeros(M), "s_raw": jnp.eye(M) * 0.5,
          "log_ell": jnp.asarray(0.0), "log_sf": jnp.asarray(0.0)}
print("initial elbo", f"{float(elbo(params, X, Y)):.4f}", "kl", f"{float(kl_whitened(params)):.4f}")

# closed form check: probit E[Phi(f)] = Phi(mu / sqrt(1 + var)) vs quadrature
mu, var = jnp.array([0.3, -1.0, 2.0]), jnp.array([0.5, 1.2, 0.1])
quad = jnp.sum(norm.cdf(mu[:, None] + jnp.sqrt(var)[:, None] * nodes) * weights, axis=1)
print("quadrature", quad, "closed form", norm.cdf(mu / jnp.sqrt(1 + var)))

adam_state = jax.tree.map(lambda p: (jnp.zeros_like(p), jnp.zeros_like(p)), params)


@jax.jit
def step(params, state, i, xb, yb):
    value, g = jax.value_and_grad(lambda p: -elbo(p, xb, yb))(params)
    state = jax.tree.map(lambda s, gi: (0.9 * s[0] + 0.1 * gi, 0.999 * s[1] + 0.001 * gi**2), state, g,
                         is_leaf=lambda s: isinstance(s, tuple))
    t = i + 1.0

    def upd(p, s):
        return p - 0.03 * (s[0] / (1 - 0.9**t)) / (jnp.sqrt(s[1] / (1 - 0.999**t)) + 1e-3)

    return jax.tree.map(upd, params, state, is_leaf=lambda s: isinstance(s, tuple)), state, value


perm_key = kz
for i in range(120):
    if i % (N // BATCH) == 0:
        perm_key, sub = jax.random.split(perm_key)
        order = jax.random.permutation(sub, N)
    idx = order[(i % (N // BATCH)) * BATCH:(i % (N // BATCH) + 1) * BATCH]
    params, adam_state, value = step(params, adam_state, i, X[idx], Y[idx])
    if i % 50 == 0:
        print(f"step {i}: minibatch -elbo {float(value):.3f}")
print("full elbo", f"{float(elbo(params, X, Y)):.3f}")
print("lengthscale", f"{float(jnp.exp(params['log_ell'])):.3f}",
      "signal sd", f"{float(jnp.exp(params['log_sf'])):.3f}")
# (the middle inducing points are weakly identified: float32 round-off moves them in the
# fourth digit, so only the outermost are printed)
print("inducing points span", f"{float(params['z'].min()):.4f} .. {float(params['z'].max()):.4f}")

xs = jnp.linspace(-3.0, 3.0, 7)
mean, var = predict_f(params, xs)
p = norm.cdf(mean / jnp.sqrt(1 + var))
print("predictive mean", mean)
print("predictive var ", var)
print("p(y=1)", p)
print("true p", norm.cdf(2.0 * (jnp.sin(2.0 * xs) + 0.3 * xs)))
m_all, v_all = predict_f(params, X)
p_all = norm.cdf(m_all / jnp.sqrt(1 + v_all))
print("train accuracy", f"{float(jnp.mean((p_all > 0.5) == (Y > 0.5))):.4f}",
      "mean log predictive", f"{float(jnp.mean(bernoulli.logpmf(Y, p_all))):.4f}")
