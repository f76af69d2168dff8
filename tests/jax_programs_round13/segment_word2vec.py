"""Embeddings and segment reductions (as in word2vec / GNN pooling tutorials in JAX): a
skip-gram model with negative sampling whose embedding tables are indexed by jnp.take and
x[idx] (gradients are scatter-adds into the rows used), jax.ops.segment_sum/mean-by-count/
max/min/prod with num_segments, indices_are_sorted and out-of-range ids, segment softmax for
attention over graph neighbours, a bag-of-words mean pooling, and training with SGD on a
tiny corpus, with similarities after training."""

import jax
import jax.numpy as jnp
from jax import ops, random

data = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
seg = jnp.array([0, 0, 1, 1, 1, 3])
print(ops.segment_sum(data, seg, num_segments=4), ops.segment_max(data, seg, num_segments=4))
print(ops.segment_min(data, seg, num_segments=4), ops.segment_prod(data, seg, num_segments=4))
counts = ops.segment_sum(jnp.ones_like(data), seg, num_segments=4)
print(counts, ops.segment_sum(data, seg, 4) / jnp.maximum(counts, 1))
print(ops.segment_sum(data, jnp.array([0, 0, 1, 1, 5, -1]), num_segments=3),
      ops.segment_sum(data, seg, indices_are_sorted=True))
print(ops.segment_sum(jnp.arange(12.0).reshape(6, 2), seg, 4), ops.segment_max(jnp.arange(6), seg, 4))
print(jax.grad(lambda d: ops.segment_max(d, seg, 4).sum())(data),
      jax.grad(lambda d: ops.segment_min(d, seg, 4)[1])(data))


def segment_softmax(scores, segment_ids, num_segments):
    mx = ops.segment_max(scores, segment_ids, num_segments)
    e = jnp.exp(scores - mx[segment_ids])
    return e / ops.segment_sum(e, segment_ids, num_segments)[segment_ids]


att = segment_softmax(jnp.array([0.1, 0.5, 2.0, 1.0, -1.0, 3.0]), seg, 4)
print(jnp.round(att, 4), ops.segment_sum(att, seg, 4))

corpus = "the cat sat on the mat the dog sat on the log the cat saw the dog".split()
vocab = sorted(set(corpus))
ids = jnp.array([vocab.index(w) for w in corpus])
V, D, window = len(vocab), 8, 2
pairs = [(int(ids[i]), int(ids[j])) for i in range(len(corpus))
         for j in range(max(0, i - window), min(len(corpus), i + window + 1)) if i != j]
centers = jnp.array([p[0] for p in pairs])
contexts = jnp.array([p[1] for p in pairs])
print(V, len(pairs), vocab)
k1, k2, k3 = random.split(random.key(0), 3)
params = {"W_in": random.normal(k1, (V, D)) * 0.1, "W_out": random.normal(k2, (V, D)) * 0.1}
negatives = random.randint(k3, (len(pairs), 3), 0, V)


def loss(params, c, o, neg):
    vc = jnp.take(params["W_in"], c, axis=0)
    uo = params["W_out"][o]
    un = params["W_out"][neg]
    pos = jax.nn.log_sigmoid(jnp.sum(vc * uo, -1))
    negs = jax.nn.log_sigmoid(-jnp.einsum("bd,bkd->bk", vc, un)).sum(-1)
    return -jnp.mean(pos + negs)


g = jax.grad(loss)(params, centers, contexts, negatives)
used = jnp.zeros(V, bool).at[centers].set(True)
print("rows with gradient", jnp.array_equal(jnp.any(g["W_in"] != 0, axis=1), used))


@jax.jit
def step(params, lr=0.5):
    value, g = jax.value_and_grad(loss)(params, centers, contexts, negatives)
    return jax.tree.map(lambda p, q: p - lr * q, params, g), value


for i in range(60):
    params, value = step(params)
    if i % 15 == 0:
        print(i, round(float(value), 4))
E = params["W_in"] / jnp.linalg.norm(params["W_in"], axis=1, keepdims=True)
sim = E @ E.T
cat, dog, on = vocab.index("cat"), vocab.index("dog"), vocab.index("on")
print("final", round(float(loss(params, centers, contexts, negatives)), 4))
print("nearest to 'sat'", vocab[int(jnp.argsort(-sim[vocab.index("sat")])[1])])
bags = jnp.array([0, 0, 0, 1, 1, 2, 2, 2, 2])
words = ids[:9]
pooled = ops.segment_sum(E[words], bags, 3) / ops.segment_sum(jnp.ones(9), bags, 3)[:, None]
print(pooled.shape, jnp.round(jnp.linalg.norm(pooled, axis=1), 3))
