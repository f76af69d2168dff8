"""A JAX program (written for ``jax``; run on fgrad through ``python -m fgrad.jax_alias``):
a two-layer graph convolution over a sparse normalised adjacency matrix, trained with jit'ed
gradient steps; a sparsified readout; BCSR and vmap over node features."""

import jax
import jax.numpy as jnp
from jax.experimental import sparse

jax.config.update("jax_enable_x64", True)

n_nodes, n_feat, n_hidden = 8, 3, 4
edges = jnp.array([[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0], [0, 4], [2, 6]])
both = jnp.concatenate([edges, edges[:, ::-1], jnp.stack([jnp.arange(n_nodes)] * 2, axis=1)])
adj = sparse.BCOO((jnp.ones(both.shape[0]), both), shape=(n_nodes, n_nodes)).sum_duplicates()
degree = adj @ jnp.ones(n_nodes)
norm = adj * (1.0 / jnp.sqrt(degree))[:, None] * (1.0 / jnp.sqrt(degree))[None, :]
print("adjacency", adj, "degrees", degree)

k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
features = jax.random.normal(k1, (n_nodes, n_feat))
targets = jnp.sin(jnp.arange(n_nodes) * 0.7)
params = {"w1": jax.random.normal(k2, (n_feat, n_hidden)) * 0.5,
          "w2": jax.random.normal(k3, (n_hidden, 1)) * 0.5}


def model(params, a, x):
    h = jnp.tanh(a @ (x @ params["w1"]))
    return (a @ (h @ params["w2"]))[:, 0]


def loss(params, a, x):
    return jnp.mean((model(params, a, x) - targets) ** 2)


@jax.jit
def step(params, a, x):
    value, grads = jax.value_and_grad(loss)(params, a, x)
    return jax.tree_util.tree_map(lambda p, g: p - 0.5 * g, params, grads), value


for i in range(5):
    params, value = step(params, norm, features)
    print("step", i, "loss", round(float(value), 10))

grad_a = sparse.grad(loss, argnums=1)(params, norm, features)
print("adjacency gradient nse", grad_a.nse, "norm", round(float(jnp.linalg.norm(grad_a.data)), 10))
readout = sparse.sparsify(lambda a, x: jnp.sum(jnp.abs(a) * 2.0, axis=1) @ x)(norm, features)
print("readout", jnp.round(readout, 8))
csr = sparse.BCSR.fromdense(norm.todense())
print("bcsr", csr, jnp.round(csr @ features[:, 0], 8))
print("vmap", jnp.round(jax.vmap(lambda f: norm @ f, in_axes=1, out_axes=1)(features)[:2], 8))
