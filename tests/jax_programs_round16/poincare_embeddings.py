"""Poincaré embeddings (Nickel & Kiela, 2017) of a small tree, as hyperbolic-learning code
writes them in JAX: the Poincaré-ball distance with jnp.arccosh, a softmax ranking loss over
sampled negatives (jax.random.choice without replacement per row, vmapped), Riemannian SGD
(the Euclidean gradient rescaled by ((1 - |x|^2)^2)/4) with a projection back into the ball,
and the Möbius addition / exponential map of the ball checked against the distance
(d(x, exp_x(v)) = |v|_x), then mean rank and MAP-style checks of the learned hierarchy."""

import jax
import jax.numpy as jnp
from jax import random

EPS = 1e-5
# a depth-3 binary tree: node i has children 2i+1, 2i+2 (15 nodes)
N = 15
EDGES = jnp.array([(c, i) for i in range(7) for c in (2 * i + 1, 2 * i + 2)])  # (child, parent)
ANCESTOR = jnp.zeros((N, N), dtype=bool)
for child in range(1, N):
    a = child
    while a > 0:
        a = (a - 1) // 2
        ANCESTOR = ANCESTOR.at[child, a].set(True).at[a, child].set(True)


def sqnorm(x):
    return jnp.sum(x * x, axis=-1)


def poincare_dist(u, v):
    num = 2 * sqnorm(u - v)
    den = (1 - sqnorm(u)) * (1 - sqnorm(v))
    # clamped away from 1, where arccosh's derivative is infinite (coincident points)
    return jnp.arccosh(jnp.maximum(1 + num / den, 1 + 1e-5))


def mobius_add(x, y):
    xy, x2, y2 = jnp.dot(x, y), sqnorm(x), sqnorm(y)
    num = (1 + 2 * xy + y2) * x + (1 - x2) * y
    return num / (1 + 2 * xy + x2 * y2)


def expmap(x, v):
    lam = 2 / (1 - sqnorm(x))
    vn = jnp.linalg.norm(v)
    return mobius_add(x, jnp.tanh(lam * vn / 2) * v / vn)


def project(x):
    n = jnp.linalg.norm(x, axis=-1, keepdims=True)
    return jnp.where(n >= 1 - EPS, x / n * (1 - EPS), x)


def edge_loss(emb, edge, negs):
    u, v = emb[edge[0]], emb[edge[1]]
    d_pos = poincare_dist(u, v)
    d_neg = jax.vmap(lambda n: poincare_dist(u, emb[n]))(negs)
    return -jax.nn.log_softmax(-jnp.concatenate([d_pos[None], d_neg]))[0]


def sample_negatives(key, edge, k=4):
    # nodes that are neither the anchor nor related to it
    p = jnp.where(ANCESTOR[edge[0]] | (jnp.arange(N) == edge[0]), 0.0, 1.0)
    return random.choice(key, N, (k,), replace=False, p=p / p.sum())


def loss_fn(emb, key):
    negs = jax.vmap(sample_negatives)(random.split(key, EDGES.shape[0]), EDGES)
    return jnp.mean(jax.vmap(edge_loss, in_axes=(None, 0, 0))(emb, EDGES, negs))


@jax.jit
def rsgd_step(emb, key, lr):
    loss, g = jax.value_and_grad(loss_fn)(emb, key)
    scale = ((1 - sqnorm(emb)) ** 2 / 4)[:, None]
    return project(emb - lr * scale * g), loss


x = jnp.array([0.3, -0.2])
v = jnp.array([0.1, 0.25])
y = expmap(x, v)
lam = 2 / (1 - sqnorm(x))
print("d(x, exp_x v)", poincare_dist(x, y), "|v|_x", lam * jnp.linalg.norm(v))
print("mobius x (+) -x", mobius_add(x, -x), "origin distance", poincare_dist(jnp.zeros(2), x),
      "2 artanh|x|", 2 * jnp.arctanh(jnp.linalg.norm(x)))
print("grad of distance at a point", jax.grad(poincare_dist)(x, y))
print("projection", project(jnp.array([[0.6, 0.9], [0.1, 0.2]])))

key = random.PRNGKey(0)
key, k0 = random.split(key)
emb = random.uniform(k0, (N, 2), minval=-1e-2, maxval=1e-2)
negs = sample_negatives(random.PRNGKey(3), EDGES[0], k=6)
print("negatives for edge (1,0)", negs, "none related", bool(~ANCESTOR[1, negs].any()))
for epoch in range(300):
    key, sub = random.split(key)
    lr = jnp.where(epoch < 20, 0.01, 0.3)  # burn-in with a small rate, as in the paper
    emb, loss = rsgd_step(emb, sub, lr)
    if epoch % 60 == 0 or epoch == 299:
        print(f"epoch {epoch:3d} loss {loss:.5f} max norm {jnp.max(jnp.linalg.norm(emb, axis=1)):.5f}")

norms = jnp.linalg.norm(emb, axis=1)
depth = jnp.floor(jnp.log2(jnp.arange(N) + 1)).astype(jnp.int32)
print("mean norm by depth", jnp.array([norms[depth == d].mean() for d in range(4)]))
D = jax.vmap(lambda a: jax.vmap(lambda b: poincare_dist(a, b))(emb))(emb)
ranks = []
for i, j in EDGES.tolist():
    others = jnp.where(ANCESTOR[i] | (jnp.arange(N) == i), jnp.inf, D[i])
    ranks.append(int(jnp.sum(others < D[i, j])) + 1)
print("mean rank of true edges", sum(ranks) / len(ranks))
