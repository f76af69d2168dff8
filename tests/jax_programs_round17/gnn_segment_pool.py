"""A message-passing graph network over a batch of small graphs stored jraph-style (flat
node and edge arrays, senders/receivers, per-graph node counts): messages by gather,
aggregation with jax.ops.segment_sum / segment_max / segment_min / segment_prod (empty
segments give the identity: -inf, inf, 1), attention-like edge softmax with segment_max
for stability, graph readout by segment ids from jnp.repeat(total_repeat_length=),
indices_are_sorted and unique_indices hints, degrees by segment_sum of ones, gradients
through segment_max (ties), and training a graph regressor with jit."""

import jax
import jax.numpy as jnp
from jax import random

# three graphs: a triangle, a path of 4, a star of 5 (center 0)
n_node = jnp.array([3, 4, 5])
offsets = jnp.concatenate([jnp.zeros(1, jnp.int32), jnp.cumsum(n_node)[:-1].astype(jnp.int32)])
tri = [(0, 1), (1, 2), (2, 0)]
path = [(0, 1), (1, 2), (2, 3)]
star = [(0, 1), (0, 2), (0, 3), (0, 4)]
edges = []
for g, es in enumerate([tri, path, star]):
    for s, r in es:
        edges += [(s + int(offsets[g]), r + int(offsets[g])), (r + int(offsets[g]), s + int(offsets[g]))]
senders = jnp.array([s for s, _ in edges])
receivers = jnp.array([r for _, r in edges])
N, E, G = int(n_node.sum()), len(edges), 3
graph_of_node = jnp.repeat(jnp.arange(G), n_node, total_repeat_length=N)
print("graph_of_node:", graph_of_node)
deg = jax.ops.segment_sum(jnp.ones(E), receivers, N)
print("degrees:", deg)

x = random.normal(random.PRNGKey(0), (N, 3))
print("segment_max:", jax.ops.segment_max(x[senders, 0], receivers, N))
print("segment_min:", jax.ops.segment_min(x[senders, 0], receivers, N + 1))
print("segment_prod:", jax.ops.segment_prod(jnp.array([1.0, 2.0, 3.0, 4.0]), jnp.array([0, 0, 2, 2]), 4))
print("sorted hint:", jax.ops.segment_sum(x[:, 0], graph_of_node, G, indices_are_sorted=True))
print("int segment_max empty:", jax.ops.segment_max(jnp.array([3, 1, 2]), jnp.array([0, 0, 2]), 3))
print("out-of-range ids dropped:", jax.ops.segment_sum(jnp.ones(4), jnp.array([0, 1, 5, -1]), 2))


def edge_softmax(logits, receivers, n):
    m = jax.ops.segment_max(logits, receivers, n)
    e = jnp.exp(logits - m[receivers])
    return e / jax.ops.segment_sum(e, receivers, n)[receivers]


att = edge_softmax(x[senders, 1] * x[receivers, 1], receivers, N)
print("attention sums to 1:", bool(jnp.allclose(jax.ops.segment_sum(att, receivers, N), 1.0)))


def init(key, dims):
    ks = random.split(key, len(dims))
    return [(random.normal(k, (m, n)) / jnp.sqrt(m), jnp.zeros(n)) for k, (m, n) in zip(ks, dims)]


def gnn(params, x):
    (w1, b1), (w2, b2), (w3, b3), (wo, bo) = params
    for w, b in [(w1, b1), (w2, b2)]:
        msg = x[senders] @ w
        agg_sum = jax.ops.segment_sum(msg, receivers, N) / jnp.maximum(deg, 1.0)[:, None]
        agg_max = jax.ops.segment_max(msg, receivers, N)
        x = jax.nn.relu(agg_sum + agg_max + x @ w + b) if w.shape[0] == x.shape[1] else x
    h = jnp.tanh(x @ w3 + b3)
    pooled = jnp.concatenate([jax.ops.segment_sum(h, graph_of_node, G, indices_are_sorted=True),
                              jax.ops.segment_max(h, graph_of_node, G, indices_are_sorted=True)], axis=-1)
    return (pooled @ wo + bo)[:, 0]


params = init(random.PRNGKey(1), [(3, 3), (3, 3), (3, 4), (8, 1)])
targets = jnp.array([1.0, -0.5, 2.0])
print("initial predictions:", gnn(params, x))
loss = lambda p: jnp.mean((gnn(p, x) - targets) ** 2)
g = jax.grad(loss)(params)
print("grad norms:", [float(jnp.round(jnp.linalg.norm(w), 5)) for w, _ in g])
# ties in segment_max share the gradient
tied = jax.grad(lambda v: jax.ops.segment_max(v, jnp.array([0, 0, 0, 1]), 2).sum())(
    jnp.array([2.0, 2.0, 1.0, 5.0]))
print("segment_max tie grad:", tied)
print("segment_prod grad:", jax.grad(lambda v: jax.ops.segment_prod(v, jnp.array([0, 2, 1]), 3,
                                                                    unique_indices=True).sum())(
    jnp.array([2.0, 3.0, 4.0])))

step = jax.jit(lambda p: jax.tree_util.tree_map(lambda w, d: w - 0.02 * d, p, jax.grad(loss)(p)))
for i in range(150):
    params = step(params)
    if i % 50 == 0:
        print(f"step {i}: loss {loss(params):.5f}")
print("final predictions:", gnn(params, x))
print("vmap over feature sets:", jax.vmap(lambda xx: gnn(params, xx))(jnp.stack([x, 2 * x])).shape)
