"""k-means clustering with `jax.scipy.cluster.vq.vq` for the assignment step, a jitted Lloyd
loop in `lax.while_loop`, k-means++ seeding with `jax.random.choice`, and sorting utilities:
`lax.sort` with several operands and `num_keys`, `jnp.argpartition`, `lax.top_k`,
`jnp.lexsort` and stable argsort."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.cluster.vq import vq

key = jax.random.key(0)
k1, k2, k3 = jax.random.split(key, 3)
centers = jnp.array([[0.0, 0.0], [3.0, 3.0], [-3.0, 2.0]])
pts = jnp.concatenate(
    [c + 0.5 * jax.random.normal(k, (20, 2)) for c, k in zip(centers, jax.random.split(k1, 3))]
)
codes, dists = vq(pts[:6], centers)
print(codes, dists)


def kmeans_pp(key, x, k):
    first = jax.random.choice(key, x.shape[0])
    chosen = [x[first]]
    for i in range(1, k):
        d2 = jnp.min(jnp.stack([jnp.sum((x - c) ** 2, axis=1) for c in chosen]), axis=0)
        idx = jax.random.choice(jax.random.fold_in(key, i), x.shape[0], p=d2 / jnp.sum(d2))
        chosen.append(x[idx])
    return jnp.stack(chosen)


@jax.jit
def lloyd(x, init):
    def cond(state):
        c, prev, it = state
        return (it < 50) & (jnp.max(jnp.abs(c - prev)) > 1e-6)

    def body(state):
        c, _, it = state
        code, _ = vq(x, c)
        one_hot = jax.nn.one_hot(code, c.shape[0])
        new = (one_hot.T @ x) / jnp.maximum(one_hot.sum(0), 1.0)[:, None]
        return new, c, it + 1

    c, _, it = lax.while_loop(cond, body, (init, init + 1.0, 0))
    code, d = vq(x, c)
    return c, code, jnp.sum(d**2), it


init = kmeans_pp(k2, pts, 3)
print(init)
c, code, inertia, its = lloyd(pts, init)
order = jnp.argsort(c[:, 0])
print(c[order], inertia, its)
print(jnp.bincount(code, length=3)[order])

# sorting utilities
vals = jnp.array([3.0, 1.0, 2.0, 1.0, 3.0, 0.5])
tags = jnp.array([0, 5, 2, 1, 4, 3])
print(lax.sort((vals, tags), num_keys=1), lax.sort((vals, tags), num_keys=2))
print(lax.sort(vals, is_stable=True), lax.sort(jnp.array([[3, 1], [0, 2]]), dimension=0))
print(lax.sort_key_val(vals, tags))
print(jnp.sort(jnp.argpartition(vals, 2)[:2]), jnp.partition(vals, 2)[2])
print(lax.top_k(vals, 3), jax.lax.top_k(-pts[:5, 0], 2))
print(
    jnp.lexsort((tags, vals)), jnp.argsort(vals, stable=True), jnp.argsort(vals, descending=True, stable=True)
)
print(jnp.sort(jnp.array([2.0, jnp.nan, -1.0, jnp.inf, -jnp.inf, 0.0])))
print(jnp.searchsorted(jnp.sort(vals), jnp.array([0.0, 1.0, 2.5, 4.0]), side="right"))
