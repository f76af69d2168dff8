"""Particle and mixture inference (as in the SVGD paper's JAX ports and the "EM in JAX"
notebooks): Stein variational gradient descent with an RBF kernel whose bandwidth comes
from the median heuristic (jnp.median), the kernel gradient by jax.grad inside vmap,
particles moved toward a two-component target; then expectation-maximization for a
Gaussian mixture with responsibilities from logsumexp, closed-form M-steps, jnp.cov-free
weighted covariances, the log-likelihood's monotone increase, and jax.lax.scan over EM
iterations."""

import numpy as np

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp
from jax.scipy.stats import multivariate_normal, norm


def log_target(x):
    return jnp.logaddexp(norm.logpdf(x[0], -2.0, 0.8) + norm.logpdf(x[1], 0.0, 1.0),
                         norm.logpdf(x[0], 2.0, 0.8) + norm.logpdf(x[1], 1.0, 0.5)) + jnp.log(0.5)


def rbf(x, y, h):
    return jnp.exp(-jnp.sum((x - y) ** 2) / h)


def svgd_step(particles, step_size):
    n = particles.shape[0]
    sq = jnp.sum((particles[:, None] - particles[None]) ** 2, axis=-1)
    h = jnp.median(sq) / jnp.log(n + 1.0)
    scores = jax.vmap(jax.grad(log_target))(particles)
    K = jax.vmap(lambda a: jax.vmap(lambda b: rbf(a, b, h))(particles))(particles)
    kernel_grad = jax.grad(rbf)
    grad_K = jax.vmap(lambda a: jnp.sum(jax.vmap(lambda b: kernel_grad(b, a, h))(particles), 0))(particles)
    phi = (K @ scores + grad_K) / n
    return particles + step_size * phi


particles = jax.random.normal(jax.random.key(0), (40, 2)) * 0.5
step = jax.jit(svgd_step)
for _ in range(200):
    particles = step(particles, 0.2)
print("svgd mean", np.round(np.asarray(particles.mean(0)), 4))
print("svgd std", np.round(np.asarray(particles.std(0)), 4))
print("fraction right mode", round(float(jnp.mean(particles[:, 0] > 0)), 4))
print("mean log target", round(float(jnp.mean(jax.vmap(log_target)(particles))), 5))

# Gaussian mixture EM
kz, kx = jax.random.split(jax.random.key(7))
true_means = jnp.array([[-3.0, 0.0], [0.0, 3.0], [3.0, -1.0]])
z = jax.random.choice(kz, 3, (300,), p=jnp.array([0.3, 0.5, 0.2]))
data = true_means[z] + jax.random.normal(kx, (300, 2)) * jnp.array([0.8, 0.6])


def log_resp(params, X):
    w, mu, cov = params
    lp = jax.vmap(lambda m, c: multivariate_normal.logpdf(X, m, c), out_axes=1)(mu, cov) + jnp.log(w)
    ll = logsumexp(lp, axis=1)
    return lp - ll[:, None], ll.sum()


def em_step(params, _):
    lr, ll = log_resp(params, data)
    r = jnp.exp(lr)
    nk = r.sum(0)
    w = nk / data.shape[0]
    mu = (r.T @ data) / nk[:, None]
    diff = data[None] - mu[:, None]
    cov = jnp.einsum("nk,kni,knj->kij", r, diff, diff) / nk[:, None, None] + 1e-6 * jnp.eye(2)
    return (w, mu, cov), ll


init = (jnp.ones(3) / 3, data[jnp.array([0, 100, 200])], jnp.tile(jnp.eye(2), (3, 1, 1)))
(w, mu, cov), lls = jax.jit(lambda p: jax.lax.scan(em_step, p, None, length=40))(init)
order = jnp.argsort(mu[:, 0])
print("EM weights", np.round(np.asarray(w[order]), 4))
print("EM means", np.round(np.asarray(mu[order]), 4).tolist())
print("EM cov diag", np.round(np.asarray(jnp.diagonal(cov[order], axis1=1, axis2=2)), 4).tolist())
print("ll first/last", round(float(lls[0]), 4), round(float(lls[-1]), 4))
print("monotone", bool(jnp.all(jnp.diff(lls) > -1e-6)))
hard = jnp.argmax(log_resp((w, mu, cov), data)[0], axis=1)
print("cluster sizes", jnp.bincount(hard, length=3)[order].tolist())
