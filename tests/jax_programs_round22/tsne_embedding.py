"""t-SNE as tutorials write it in JAX: pairwise squared distances by broadcasting, the
per-point bandwidth found by bisection on the entropy (a vmapped lax.while_loop) to match a
perplexity, symmetrized affinities with jnp.fill_diagonal, the Student-t low-dimensional
kernel, the KL objective and its jax.grad against the textbook closed-form gradient, early
exaggeration and momentum in a jitted lax.fori_loop (without the sign-based gains, whose
flips on round-off make a float32 run chaotic), and a
trustworthiness-like neighbour check by argsort."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)

key = jax.random.PRNGKey(0)
k1, k2, k3 = jax.random.split(key, 3)
centers = jnp.array([[0.0, 0.0, 0.0, 0.0], [6.0, 0.0, 0.0, 0.0], [0.0, 6.0, 3.0, 0.0]])
labels = jnp.repeat(jnp.arange(3), 12)
X = centers[labels] + jax.random.normal(k1, (36, 4))
print("data", X.shape, X.dtype, "labels", jnp.bincount(labels))


def sq_dists(Z):
    s = jnp.sum(Z**2, axis=1)
    return jnp.maximum(s[:, None] + s[None, :] - 2.0 * Z @ Z.T, 0.0)


def row_entropy(d_row, beta, i):
    logits = -d_row * beta
    logits = jnp.where(jnp.arange(d_row.shape[0]) == i, -jnp.inf, logits)
    p = jax.nn.softmax(logits)
    return -jnp.sum(jnp.where(p > 0, p * jnp.log(p), 0.0)), p


def calibrate(d_row, i, perplexity=8.0, tol=1e-5):
    target = jnp.log(perplexity)

    def cond(state):
        lo, hi, beta, it = state
        h, _ = row_entropy(d_row, beta, i)
        return (jnp.abs(h - target) > tol) & (it < 60)

    def body(state):
        lo, hi, beta, it = state
        h, _ = row_entropy(d_row, beta, i)
        too_flat = h > target  # entropy too high: sharpen (raise beta)
        lo = jnp.where(too_flat, beta, lo)
        hi = jnp.where(too_flat, hi, beta)
        beta = jnp.where(jnp.isinf(hi), beta * 2.0, 0.5 * (lo + hi))
        return lo, hi, beta, it + 1

    init = (jnp.asarray(0.0), jnp.asarray(jnp.inf), jnp.asarray(1.0), 0)
    _, _, beta, iters = lax.while_loop(cond, body, init)
    h, p = row_entropy(d_row, beta, i)
    return p, beta, iters, h


D = sq_dists(X)
P_cond, betas, iters, H = jax.vmap(calibrate)(D, jnp.arange(36))
print(
    "bisection iterations: max",
    int(iters.max()),
    "all converged",
    bool(jnp.all(jnp.abs(H - jnp.log(8.0)) < 1e-4)),
)
print("perplexity of rows 0..3", jnp.exp(H[:4]))
print("bandwidth sigma of rows 0..3", jnp.sqrt(1.0 / (2.0 * betas[:4])))
P = (P_cond + P_cond.T) / (2 * 36)
P = jnp.fill_diagonal(P, 0.0, inplace=False)
print("P sums to", f"{float(P.sum()):.6f}", "symmetric", bool(jnp.allclose(P, P.T)))


def q_matrix(Y):
    num = 1.0 / (1.0 + sq_dists(Y))
    num = num * (1.0 - jnp.eye(Y.shape[0]))
    return num / jnp.sum(num), num


def kl(Y, P):
    Q, _ = q_matrix(Y)
    return jnp.sum(jnp.where(P > 0, P * (jnp.log(P) - jnp.log(Q + 1e-12)), 0.0))


def closed_form_grad(Y, P):
    Q, num = q_matrix(Y)
    W = (P - Q) * num
    return 4.0 * (jnp.sum(W, axis=1)[:, None] * Y - W @ Y)


Y0 = 1e-2 * jax.random.normal(k2, (36, 2))
g_auto = jax.grad(kl)(Y0, P)
g_closed = closed_form_grad(Y0, P)
print("initial KL", f"{float(kl(Y0, P)):.5f}")
print("autodiff grad == closed form:", bool(jnp.allclose(g_auto, g_closed, rtol=1e-3, atol=1e-6)))


@partial(jax.jit, static_argnames=("steps",))
def optimize(Y, P, steps=200):
    def step(t, state):
        Y, vel = state
        exaggeration = jnp.where(t < 60, 4.0, 1.0)
        momentum = jnp.where(t < 60, 0.5, 0.8)
        g = jax.grad(kl)(Y, exaggeration * P)
        vel = momentum * vel - 8.0 * g
        Y = Y + vel
        return Y - Y.mean(axis=0), vel

    return lax.fori_loop(0, steps, step, (Y, jnp.zeros_like(Y)))


Y, _ = optimize(Y0, P)
print("final KL", f"{float(kl(Y, P)):.4f}", "embedding", Y.shape, Y.dtype)
cent = jax.ops.segment_sum(Y, labels, num_segments=3) / 12.0
spread = jnp.sqrt(jnp.mean(jnp.sum((Y - cent[labels]) ** 2, axis=1)))
between = jnp.sqrt(sq_dists(cent))
print("cluster spread / min centre distance", f"{float(spread / between[jnp.triu_indices(3, 1)].min()):.3f}")
nearest = jnp.argsort(sq_dists(Y) + jnp.diag(jnp.full(36, jnp.inf)), axis=1)[:, :5]
purity = jnp.mean(labels[nearest] == labels[:, None])
print("5-NN label purity in the embedding", f"{float(purity):.3f}")
hi_nn = jnp.argsort(D + jnp.diag(jnp.full(36, jnp.inf)), axis=1)[:, :5]
overlap = jnp.mean(jax.vmap(lambda a, b: jnp.isin(a, b).mean())(nearest, hi_nn))
print("neighbour overlap with the data space > 0.5:", bool(overlap > 0.5))
