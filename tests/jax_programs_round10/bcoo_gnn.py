"""A graph convolutional network on a sparse adjacency (jax.experimental.sparse, as in its
docs and the "GNNs in JAX" tutorials): BCOO from dense and from (data, indices), the
symmetric normalization D^-1/2 A D^-1/2 with sparse ops, sparse @ dense, sparsify,
gradient with respect to the nonzero values, segment_sum message passing, and vmap over
a batch of feature matrices."""

import jax
import jax.numpy as jnp
from jax import random
from jax.experimental import sparse

n = 8
edges = jnp.array([[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4], [0, 4], [2, 6]])
senders = jnp.concatenate([edges[:, 0], edges[:, 1]])
receivers = jnp.concatenate([edges[:, 1], edges[:, 0]])
A_dense = jnp.zeros((n, n)).at[senders, receivers].set(1.0) + jnp.eye(n)
A = sparse.BCOO.fromdense(A_dense)
print(A.shape, A.nse, A.dtype, A.indices.shape, A.indices.dtype)

deg = A.sum(1).todense()
print("degrees", deg)
d_inv_sqrt = 1.0 / jnp.sqrt(deg)
# scale rows and columns through the stored values
rows, cols = A.indices[:, 0], A.indices[:, 1]
A_norm = sparse.BCOO((A.data * d_inv_sqrt[rows] * d_inv_sqrt[cols], A.indices), shape=A.shape)
print("normalized row sums", A_norm.sum(1).todense())
print("dense check", jnp.allclose(A_norm.todense(), A_dense * d_inv_sqrt[:, None] * d_inv_sqrt[None, :]))

key = random.PRNGKey(0)
kx, k1, k2 = random.split(key, 3)
X = random.normal(kx, (n, 5))
W1 = random.normal(k1, (5, 16)) * 0.3
W2 = random.normal(k2, (16, 3)) * 0.3
labels = jnp.array([0, 0, 1, 1, 2, 2, 1, 0])


def gcn(params, A, X):
    W1, W2 = params
    h = jax.nn.relu(A @ (X @ W1))
    return A @ (h @ W2)


def loss(params, A, X):
    logits = gcn(params, A, X)
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], 1))


print("loss", loss((W1, W2), A_norm, X))
params = (W1, W2)
for _ in range(20):
    g = jax.grad(loss)(params, A_norm, X)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.5 * g, params, g)
print("trained loss", loss(params, A_norm, X))
print("accuracy", jnp.mean(jnp.argmax(gcn(params, A_norm, X), 1) == labels))

# gradient with respect to the edge weights (the BCOO's data)
g_data = jax.grad(lambda data: loss(params, sparse.BCOO((data, A_norm.indices), shape=A.shape), X))(
    A_norm.data)
print("edge grads", g_data.shape, jnp.round(g_data[:4], 5))

# the same layer with sparsify: ordinary jnp code on a sparse argument
@sparse.sparsify
def propagate(A, h):
    return A @ h + 0.0 * h.sum()


print("sparsify", jnp.allclose(propagate(A_norm, X), A_norm.todense() @ X, atol=1e-6))

# message passing with segment_sum: the same product without a matrix
def mp(h):
    w = d_inv_sqrt[senders] * d_inv_sqrt[receivers]
    msgs = h[senders] * w[:, None]
    return jax.ops.segment_sum(msgs, receivers, num_segments=n) + h / deg[:, None]


print("segment_sum", jnp.allclose(mp(X), A_norm @ X, atol=1e-6))

# a batch of feature matrices with vmap
Xs = random.normal(random.PRNGKey(3), (4, n, 5))
out = jax.vmap(gcn, in_axes=(None, None, 0))(params, A_norm, Xs)
print("batched", out.shape, out[0, 0])
# sparse matrix-vector products, transposes and elementwise ops
v = jnp.arange(n, dtype=jnp.float32)
print("matvec", A_norm @ v)
print("transpose", jnp.allclose((A_norm.T @ v), A_norm.todense().T @ v))
print("scaled", (A * 2.0).todense()[0], A.sum_duplicates().nse)
B = sparse.BCOO.fromdense(jnp.array([[0., 1.5, 0.], [2., 0., 0.]]))
print("bcoo", B.data, B.indices.tolist(), (B @ jnp.ones(3)), sparse.bcoo_todense(B))
