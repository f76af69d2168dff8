"""Entropic optimal transport as OTT-style research code writes it in JAX: log-domain Sinkhorn
iterations with jax.scipy.special.logsumexp (b= weights) in lax.fori_loop and in
lax.while_loop to a marginal tolerance, the transport plan and its marginals, the dual
objective, the gradient of the regularised cost with respect to the source points by
unrolled autodiff against the envelope theorem (stop_gradient potentials), the debiased
Sinkhorn divergence vmapped over blur levels, the exact 1-D Wasserstein distance by sorting,
a barycentric map, and a 1-D Wasserstein barycenter by iterative Bregman projections."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.special import logsumexp

jnp.set_printoptions(precision=4, suppress=True)

key = jax.random.PRNGKey(7)
kx, ky, kw = jax.random.split(key, 3)
n, m = 24, 30
x = jax.random.normal(kx, (n, 2)) * 0.6
y = jax.random.normal(ky, (m, 2)) * 0.4 + jnp.array([1.5, 0.5])
a = jax.nn.softmax(jax.random.normal(kw, (n,)) * 0.3)
b = jnp.full((m,), 1.0 / m)
print("weights sum", a.sum(), b.sum(), "min a", a.min())


def sq_cost(x, y):
    return jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)


def sinkhorn(C, a, b, eps, iters=300):
    """Log-domain Sinkhorn: f, g are the dual potentials."""
    def body(_, fg):
        f, g = fg
        f = -eps * logsumexp((g[None, :] - C) / eps, b=b[None, :], axis=1)
        g = -eps * logsumexp((f[:, None] - C) / eps, b=a[:, None], axis=0)
        return f, g
    return lax.fori_loop(0, iters, body, (jnp.zeros_like(a), jnp.zeros_like(b)))


def plan(C, a, b, f, g, eps):
    return a[:, None] * b[None, :] * jnp.exp((f[:, None] + g[None, :] - C) / eps)


def reg_ot(x, y, a, b, eps, iters=300):
    C = sq_cost(x, y)
    f, g = sinkhorn(C, a, b, eps, iters)
    return jnp.dot(f, a) + jnp.dot(g, b)


C = sq_cost(x, y)
eps = 0.1
f, g = sinkhorn(C, a, b, eps)
P = plan(C, a, b, f, g, eps)
print("row-marginal error", float(jnp.abs(P.sum(1) - a).max()) < 1e-5,
      "column-marginal error", float(jnp.abs(P.sum(0) - b).max()) < 1e-5)
print("transport cost <P, C>", jnp.sum(P * C), "dual", jnp.dot(f, a) + jnp.dot(g, b))
ent = -jnp.sum(jax.scipy.special.xlogy(P, P / (a[:, None] * b[None, :])))
print("KL(P | a b^T)", -ent, "primal", jnp.sum(P * C) + eps * (-ent))
print("largest plan entries", jnp.sort(P.ravel())[-4:])


def sinkhorn_tol(C, a, b, eps, tol):
    def cond(state):
        _, _, err, i = state
        return (err > tol) & (i < 5000)

    def body(state):
        f, g, _, i = state
        f = -eps * logsumexp((g[None, :] - C) / eps, b=b[None, :], axis=1)
        g = -eps * logsumexp((f[:, None] - C) / eps, b=a[:, None], axis=0)
        err = jnp.abs(plan(C, a, b, f, g, eps).sum(1) - a).sum()
        return f, g, err, i + 1
    f, g, err, i = lax.while_loop(cond, body, (jnp.zeros_like(a), jnp.zeros_like(b), jnp.inf, 0))
    return f, g, err, i


for e in (1.0, 0.3):
    f2, g2, err, its = sinkhorn_tol(C, a, b, e, 1e-4)
    print(f"eps={e}: error below tol", bool(err <= 1e-4), "iterations under 200", bool(its < 200),
          "cost", jnp.dot(f2, a) + jnp.dot(g2, b))

# gradient with respect to the source points: unrolled vs the envelope theorem
grad_unrolled = jax.grad(reg_ot)(x, y, a, b, eps)


def envelope(x):
    f, g = jax.tree_util.tree_map(lax.stop_gradient, sinkhorn(sq_cost(x, y), a, b, eps))
    Cx = sq_cost(x, y)
    # the primal of the entropic problem at the fixed (optimal) potentials
    Pz = plan(Cx, a, b, f, g, eps)
    return jnp.sum(Pz * Cx)


grad_env = jax.grad(envelope)(x)
P_bar = P / a[:, None]
grad_formula = 2.0 * a[:, None] * (x - P_bar @ y)
print("grad (unrolled) rows 0-1", grad_unrolled[:2])
print("grad (formula)  rows 0-1", grad_formula[:2])
print("max |unrolled - formula|", float(jnp.abs(grad_unrolled - grad_formula).max()) < 1e-4)
print("envelope gradient differs (it moves P)", float(jnp.abs(grad_env - grad_formula).max()) > 1e-3)
print("barycentric map of points 0-2", (P_bar @ y)[:3])


@partial(jax.vmap, in_axes=(0, None, None, None, None))
def divergence(blur, x, y, wx, wy):
    ot = partial(reg_ot, eps=blur, iters=200)
    return ot(x, y, wx, wy) - 0.5 * ot(x, x, wx, wx) - 0.5 * ot(y, y, wy, wy)


blurs = jnp.array([0.05, 0.2, 1.0, 5.0])
print("Sinkhorn divergence by blur", divergence(blurs, x, y, a, b))
print("divergence of a cloud with itself", jnp.abs(divergence(blurs[:2], x, x, a, a)).max() < 1e-5)

# 1-D: exact W2^2 between equal-weight samples by sorting, against small-eps Sinkhorn
u = jnp.sort(jax.random.uniform(jax.random.PRNGKey(1), (40,)))
v = jnp.sort(jax.random.beta(jax.random.PRNGKey(2), 2.0, 5.0, (40,)))
w2_sorted = jnp.mean((u - v) ** 2)
C1 = (u[:, None] - v[None, :]) ** 2
h = jnp.full((40,), 1.0 / 40)
f1, g1 = sinkhorn(C1, h, h, 1e-3, 2000)
P1 = plan(C1, h, h, f1, g1, 1e-3)
print("W2^2 sorted", w2_sorted, "Sinkhorn eps=1e-3", jnp.sum(P1 * C1))
matched = int(jnp.sum(jnp.argmax(P1, axis=1) == jnp.arange(40)))
print("rows whose largest entry is the sorted match:", matched, "of 40")

# Wasserstein barycenter of two bumps on a grid (Benamou et al.), log-domain Bregman projections
grid = jnp.linspace(0.0, 1.0, 60)
bump = lambda c, s: jax.nn.softmax(-((grid - c) / s) ** 2)  # noqa: E731
hists = jnp.stack([bump(0.25, 0.05), bump(0.75, 0.08)])
Cg = (grid[:, None] - grid[None, :]) ** 2
eps_b = 2e-3
logK = -Cg / eps_b
weights = jnp.array([0.5, 0.5])


def bary_step(state, _):
    log_v = state
    # u_k = h_k / (K v_k)
    log_u = jnp.log(hists) - logsumexp(logK[None] + log_v[:, None, :], axis=2)
    Ktu = logsumexp(logK[None] + log_u[:, :, None], axis=1)
    log_bar = jnp.sum(weights[:, None] * Ktu, axis=0)
    log_v = log_bar[None, :] - Ktu
    return log_v, log_bar


_, log_bars = lax.scan(bary_step, jnp.zeros((2, 60)), None, length=150)
bar = jnp.exp(log_bars[-1])
bar = bar / bar.sum()
mean_bar = jnp.dot(bar, grid)
print("barycenter mass", bar.sum(), "mean", mean_bar, "(inputs' mean of means 0.5)")
print("barycenter mode near 0.5:", bool(jnp.abs(grid[jnp.argmax(bar)] - 0.5) < 0.03))
print("barycenter std", jnp.sqrt(jnp.dot(bar, (grid - mean_bar) ** 2)))
