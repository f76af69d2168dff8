"""Entropic optimal transport with the Sinkhorn algorithm in log space (as in OTT-JAX's
tutorials): a cost matrix from pairwise distances, log-domain updates with logsumexp in a
lax.fori_loop and to convergence in a lax.while_loop, the transport plan's marginals, the
regularized OT cost and its gradient with respect to the point positions (unrolled
differentiation), a Sinkhorn divergence, and vmap over a batch of regularizations."""

import numpy as np

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp

kx, ky = jax.random.split(jax.random.key(42))
x = jax.random.normal(kx, (12, 2))
y = jax.random.normal(ky, (9, 2)) * 0.7 + jnp.array([1.5, -0.5])
a = jnp.ones(12) / 12
b = jax.random.dirichlet(jax.random.key(3), jnp.ones(9))


def cost_matrix(x, y):
    return jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)


def sinkhorn(x, y, a, b, eps, n_iter=200):
    C = cost_matrix(x, y)
    log_a, log_b = jnp.log(a), jnp.log(b)

    def body(_, fg):
        f, g = fg
        f = -eps * logsumexp((g[None, :] - C) / eps + log_b[None, :], axis=1)
        g = -eps * logsumexp((f[:, None] - C) / eps + log_a[:, None], axis=0)
        return f, g
    f, g = jax.lax.fori_loop(0, n_iter, body, (jnp.zeros(len(a)), jnp.zeros(len(b))))
    log_P = (f[:, None] + g[None, :] - C) / eps + log_a[:, None] + log_b[None, :]
    P = jnp.exp(log_P)
    return jnp.sum(P * C), P, f, g


def sinkhorn_tol(x, y, a, b, eps, tol=1e-3):
    C = cost_matrix(x, y)
    log_a, log_b = jnp.log(a), jnp.log(b)

    def update(state):
        f, g, _, it = state
        f = -eps * logsumexp((g[None, :] - C) / eps + log_b[None, :], axis=1)
        g = -eps * logsumexp((f[:, None] - C) / eps + log_a[:, None], axis=0)
        P = jnp.exp((f[:, None] + g[None, :] - C) / eps + log_a[:, None] + log_b[None, :])
        err = jnp.sum(jnp.abs(P.sum(1) - a))
        return f, g, err, it + 1
    state = (jnp.zeros(len(a)), jnp.zeros(len(b)), jnp.inf, 0)
    f, g, err, it = jax.lax.while_loop(lambda s: (s[2] > tol) & (s[3] < 1000), update, state)
    return it, err


cost, P, f, g = jax.jit(sinkhorn, static_argnums=5)(x, y, a, b, 0.1, 300)
print("OT cost", round(float(cost), 5))
print("row marginal err", float(jnp.max(jnp.abs(P.sum(1) - a))) < 1e-4)
print("col marginal err", float(jnp.max(jnp.abs(P.sum(0) - b))) < 1e-6)
print("plan argmax", jnp.argmax(P, axis=1).tolist())
print("dual objective", round(float(jnp.dot(f, a) + jnp.dot(g, b)), 5))
it, err = jax.jit(sinkhorn_tol)(x, y, a, b, 0.5)
print("iterations to tol", int(it), float(err) <= 1e-3)

grad_x = jax.grad(lambda x: sinkhorn(x, y, a, b, 0.5, 100)[0])(x)
print("grad wrt x[:3]", np.round(np.asarray(grad_x[:3]), 4).tolist())
eps_grid = jnp.array([0.05, 0.2, 1.0])
costs = jax.vmap(lambda e: sinkhorn(x, y, a, b, e, 300)[0])(eps_grid)
print("cost vs eps", np.round(np.asarray(costs), 4))


def divergence(x, y, eps=0.5):
    ax, by = jnp.ones(len(x)) / len(x), jnp.ones(len(y)) / len(y)
    ot = lambda p, q, u, v: sinkhorn(p, q, u, v, eps, 100)[0]
    return ot(x, y, ax, by) - 0.5 * ot(x, x, ax, ax) - 0.5 * ot(y, y, by, by)


print("divergence", round(float(divergence(x, y)), 5), round(float(divergence(x, x)), 8))
pos = y
for _ in range(5):  # flow y toward x along the divergence's gradient
    pos = pos - 0.5 * jax.grad(lambda p: divergence(x, p))(pos)
print("after flow", round(float(divergence(x, pos)), 5))
