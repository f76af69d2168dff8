"""A NeRF-style volume renderer (as in the "NeRF from scratch in JAX" notebooks and
jaxnerf): sinusoidal positional encoding, an MLP with a skip connection initialized by
jax.nn.initializers, ray generation from a pinhole camera with jnp.meshgrid, stratified
sampling along rays, alpha compositing with jnp.cumprod (exclusive transmittance),
rendering batched with vmap, a photometric loss, and a few Adam steps on a synthetic
sphere target written with jax.tree.map."""

import numpy as np

import jax
import jax.numpy as jnp


def posenc(x, n_freq=4):
    freqs = 2.0 ** jnp.arange(n_freq)
    xb = x[..., None, :] * freqs[:, None]
    enc = jnp.concatenate([jnp.sin(xb), jnp.cos(xb)], axis=-1).reshape(*x.shape[:-1], -1)
    return jnp.concatenate([x, enc], axis=-1)


def init_mlp(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    glorot = jax.nn.initializers.glorot_uniform()
    return [{"w": glorot(k, (m, n)), "b": jnp.zeros(n)} for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def mlp(params, x):
    h = x
    for i, layer in enumerate(params[:-1]):
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
        if i == 1:
            h = jnp.concatenate([h, x], axis=-1)[..., : layer["w"].shape[1]]
    out = h @ params[-1]["w"] + params[-1]["b"]
    return jax.nn.softplus(out[..., 0]), jax.nn.sigmoid(out[..., 1:])


def get_rays(H, W, focal, origin):
    i, j = jnp.meshgrid(jnp.arange(W, dtype=jnp.float32), jnp.arange(H, dtype=jnp.float32), indexing="xy")
    dirs = jnp.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -jnp.ones_like(i)], -1)
    dirs = dirs / jnp.linalg.norm(dirs, axis=-1, keepdims=True)
    return jnp.broadcast_to(origin, dirs.shape), dirs


def render(params, ro, rd, key, n_samples=16, near=1.0, far=5.0):
    t = jnp.linspace(near, far, n_samples)
    t = t + jax.random.uniform(key, t.shape) * (far - near) / n_samples
    pts = ro[None] + t[:, None] * rd[None]
    sigma, rgb = mlp(params, posenc(pts))
    delta = jnp.concatenate([jnp.diff(t), jnp.array([1e10])])
    alpha = 1.0 - jnp.exp(-sigma * delta)
    trans = jnp.cumprod(jnp.concatenate([jnp.ones(1), 1.0 - alpha[:-1] + 1e-10]))
    weights = alpha * trans
    return jnp.sum(weights[:, None] * rgb, axis=0), jnp.sum(weights * t), jnp.sum(weights)


H = W = 6
ro, rd = get_rays(H, W, 5.0, jnp.array([0.0, 0.0, 3.0]))
ro, rd = ro.reshape(-1, 3), rd.reshape(-1, 3)
print("ray dirs", rd.shape, np.round(np.asarray(rd[:2]), 5).tolist())
enc = posenc(jnp.array([[0.1, 0.2, 0.3]]))
print("posenc", posenc(jnp.ones((2, 3))).shape, np.round(np.asarray(enc[0, :6]), 5))

# target: a sphere of radius 1 at the origin, coloured by its hit point
b = jnp.sum(ro * rd, -1)
disc = b ** 2 - (jnp.sum(ro ** 2, -1) - 1.0)
hit = disc > 0
target = jnp.where(hit[:, None], jnp.array([0.9, 0.3, 0.1]), jnp.zeros(3))
print("hits", int(hit.sum()))

params = init_mlp(jax.random.key(0), [3 + 3 * 2 * 4, 32, 32, 4])
print("param shapes", jax.tree.map(lambda a: a.shape, params)[0])


def loss(params, key):
    keys = jax.random.split(key, ro.shape[0])
    rgb, depth, acc = jax.vmap(render, in_axes=(None, 0, 0, 0))(params, ro, rd, keys)
    return jnp.mean((rgb - target) ** 2), (depth, acc)


def adam_update(params, grads, m, v, t, lr=5e-3, b1=0.9, b2=0.999):
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    mhat = jax.tree.map(lambda m: m / (1 - b1 ** t), m)
    vhat = jax.tree.map(lambda v: v / (1 - b2 ** t), v)
    params = jax.tree.map(lambda p, a, b: p - lr * a / (jnp.sqrt(b) + 1e-8), params, mhat, vhat)
    return params, m, v


step = jax.jit(jax.value_and_grad(loss, has_aux=True))
m = jax.tree.map(jnp.zeros_like, params)
v = jax.tree.map(jnp.zeros_like, params)
key = jax.random.key(1)
for t in range(1, 31):
    key, sub = jax.random.split(key)
    (l, (depth, acc)), g = step(params, sub)
    params, m, v = adam_update(params, g, m, v, t)
    if t in (1, 10, 30):
        print(f"step {t} loss {float(l):.6f} mean depth {float(depth.mean()):.4f}",
              f"acc {float(acc.mean()):.4f}")
print("grad norm", round(float(jnp.sqrt(sum(jnp.sum(x ** 2) for x in jax.tree.leaves(g)))), 5))
