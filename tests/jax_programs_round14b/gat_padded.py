"""A graph attention network (GAT, Velickovic et al.) on padded dense adjacency, as in JAX
graph code that avoids jraph: batched small graphs padded to a fixed node count, a node mask,
multi-head attention logits from e_ij = LeakyReLU(a^T [W h_i || W h_j]) with masked softmax
(where with -inf, nan-safe for empty rows), head concatenation and averaging, graph-level
readout by masked mean, vmap over the batch, a classification loss trained with jit, and
permutation equivariance checked by permuting nodes."""

import jax
import jax.numpy as jnp
from jax import random

B, NMAX, F, HEADS, HID, C = 4, 6, 3, 2, 4, 2
key = random.PRNGKey(5)
ka, kf, kn, kp = random.split(key, 4)
num_nodes = jnp.array([6, 4, 5, 3])
node_mask = jnp.arange(NMAX)[None, :] < num_nodes[:, None]
A = random.bernoulli(ka, 0.45, (B, NMAX, NMAX))
A = jnp.logical_or(A, jnp.swapaxes(A, 1, 2))
A = A & node_mask[:, :, None] & node_mask[:, None, :]
A = A | jnp.eye(NMAX, dtype=bool)[None] & node_mask[:, :, None]
feats = random.normal(kf, (B, NMAX, F)) * node_mask[..., None]
labels = (jnp.sum(A, axis=(1, 2)) > 12).astype(jnp.int32)
print("degrees", A.sum(-1))
print("labels", labels)


def glorot(k, shape):
    lim = jnp.sqrt(6.0 / (shape[-2] + shape[-1]))
    return random.uniform(k, shape, minval=-lim, maxval=lim)


def init(key):
    ks = random.split(key, 5)
    return {"l1": {"W": glorot(ks[0], (HEADS, F, HID)), "a_src": glorot(ks[1], (HEADS, HID, 1)),
                   "a_dst": glorot(ks[2], (HEADS, HID, 1))},
            "l2": {"W": glorot(ks[3], (1, HEADS * HID, C)), "a_src": jnp.zeros((1, C, 1)),
                   "a_dst": jnp.zeros((1, C, 1))},
            "out": glorot(ks[4], (C, C))}


def gat_layer(p, h, adj, concat):
    wh = jnp.einsum("nf,hfo->hno", h, p["W"])
    src = (wh @ p["a_src"])[..., 0]
    dst = (wh @ p["a_dst"])[..., 0]
    e = jax.nn.leaky_relu(src[:, :, None] + dst[:, None, :], negative_slope=0.2)
    e = jnp.where(adj[None], e, -jnp.inf)
    att = jax.nn.softmax(e, axis=-1, where=adj[None])
    att = jnp.where(adj[None], att, 0.0)
    out = jnp.einsum("hij,hjo->hio", att, wh)
    if concat:
        return jax.nn.elu(jnp.transpose(out, (1, 0, 2)).reshape(h.shape[0], -1)), att
    return out.mean(0), att


def forward(p, h, adj, mask):
    h, att = gat_layer(p["l1"], h, adj, True)
    h, _ = gat_layer(p["l2"], h, adj, False)
    pooled = jnp.sum(h * mask[:, None], 0) / jnp.maximum(mask.sum(), 1)
    return pooled @ p["out"], att


params = init(kp)
logits, att = jax.vmap(forward, in_axes=(None, 0, 0, 0))(params, feats, A, node_mask)
print("logits", logits)
print("attention rows sum", att[1, 0].sum(-1))
print("padded rows", att[3, 0, 4])


def loss_fn(p):
    logits, _ = jax.vmap(forward, in_axes=(None, 0, 0, 0))(p, feats, A, node_mask)
    return -jnp.mean(jax.nn.log_softmax(logits)[jnp.arange(B), labels])


step = jax.jit(lambda p: jax.tree.map(lambda w, g: w - 0.5 * g, p, jax.grad(loss_fn)(p)))
print("loss0", loss_fn(params))
for _ in range(15):
    params = step(params)
print("loss15", loss_fn(params))
g = jax.grad(loss_fn)(params)
print("grad finite", all(bool(jnp.all(jnp.isfinite(x))) for x in jax.tree.leaves(g)))

perm = jnp.array([2, 0, 1, 5, 4, 3])
h0 = gat_layer(params["l1"], feats[0], A[0], True)[0]
hp = gat_layer(params["l1"], feats[0][perm], A[0][perm][:, perm], True)[0]
print("equivariant", jnp.allclose(h0[perm], hp, atol=1e-5))
