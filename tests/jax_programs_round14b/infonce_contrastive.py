"""Contrastive representation learning (SimCLR/CLIP-style code in JAX): two augmented views
by random masking and Gaussian jitter, an encoder with a projection head, L2-normalized
embeddings, the NT-Xent/InfoNCE loss with a learnable log-temperature (as CLIP), the symmetric
cross-entropy built from log_softmax and one_hot, top-1 retrieval accuracy, alignment and
uniformity metrics (Wang & Isola), and the gradient of the temperature checked against a
central finite difference."""

import jax
import jax.numpy as jnp
from jax import random

N, D, E = 16, 10, 4
key = random.PRNGKey(3)
kx, kp, ka = random.split(key, 3)
X = random.normal(kx, (N, D))


def init(key):
    k1, k2, k3 = random.split(key, 3)
    return {"enc": {"w": random.normal(k1, (D, 16)) / jnp.sqrt(D), "b": jnp.zeros(16)},
            "proj": {"w": random.normal(k2, (16, E)) / 4.0},
            "log_temp": jnp.log(jnp.array(1 / 0.07)),
            "bias": random.uniform(k3, (), minval=-0.1, maxval=0.1)}


def augment(key, x):
    k1, k2 = random.split(key)
    keep = random.bernoulli(k1, 0.8, x.shape)
    return jnp.where(keep, x, 0.0) / 0.8 + 0.1 * random.normal(k2, x.shape)


def embed(p, x):
    h = jax.nn.relu(x @ p["enc"]["w"] + p["enc"]["b"])
    z = h @ p["proj"]["w"]
    return z / jnp.linalg.norm(z, axis=-1, keepdims=True)


def clip_loss(p, xa, xb):
    za, zb = embed(p, xa), embed(p, xb)
    logits = za @ zb.T * jnp.exp(p["log_temp"])
    labels = jax.nn.one_hot(jnp.arange(N), N)
    la = -jnp.sum(labels * jax.nn.log_softmax(logits, axis=1), axis=1)
    lb = -jnp.sum(labels * jax.nn.log_softmax(logits, axis=0), axis=0)
    return (la.mean() + lb.mean()) / 2


def nt_xent(p, xa, xb, tau=0.5):
    z = jnp.concatenate([embed(p, xa), embed(p, xb)])
    sim = z @ z.T / tau
    sim = jnp.where(jnp.eye(2 * N, dtype=bool), -jnp.inf, sim)
    pos = jnp.concatenate([jnp.arange(N, 2 * N), jnp.arange(N)])
    return jnp.mean(jax.nn.logsumexp(sim, axis=1) - sim[jnp.arange(2 * N), pos])


def sigmoid_loss(p, xa, xb):
    za, zb = embed(p, xa), embed(p, xb)
    logits = za @ zb.T * jnp.exp(p["log_temp"]) + p["bias"]
    signs = 2 * jnp.eye(N) - 1
    return -jnp.sum(jax.nn.log_sigmoid(signs * logits)) / N


params = init(kp)
k1, k2 = random.split(ka)
xa, xb = augment(k1, X), augment(k2, X)
print("views", xa[0, :4], xb[0, :4])
print("clip", clip_loss(params, xa, xb), "nt-xent", nt_xent(params, xa, xb),
      "siglip", sigmoid_loss(params, xa, xb))

g = jax.grad(clip_loss)(params, xa, xb)
h = 1e-2
fd = (clip_loss({**params, "log_temp": params["log_temp"] + h}, xa, xb)
      - clip_loss({**params, "log_temp": params["log_temp"] - h}, xa, xb)) / (2 * h)
print("d/dlog_temp", g["log_temp"], "fd close:", bool(jnp.abs(fd - g["log_temp"]) < 1e-2))


@jax.jit
def step(params, key):
    k1, k2 = random.split(key)
    xa, xb = augment(k1, X), augment(k2, X)
    loss, g = jax.value_and_grad(nt_xent)(params, xa, xb)
    return jax.tree.map(lambda p, g: p - 0.2 * g, params, g), loss


key = random.PRNGKey(11)
for i in range(25):
    key, sk = random.split(key)
    params, loss = step(params, sk)
    if i % 8 == 0:
        print(f"iter {i} nt-xent {loss:.5f}")

za, zb = embed(params, augment(k1, X)), embed(params, augment(k2, X))
acc = jnp.mean(jnp.argmax(za @ zb.T, axis=1) == jnp.arange(N))
align = jnp.mean(jnp.sum((za - zb) ** 2, axis=1))
sq = jnp.sum((za[:, None] - za[None]) ** 2, -1)
iu = jnp.triu_indices(N, k=1)
uniform = jnp.log(jnp.mean(jnp.exp(-2 * sq[iu])))
print("top-1", acc, "alignment", align, "uniformity", uniform)
print("norms", jnp.linalg.norm(za, axis=1)[:3], za.dtype)
