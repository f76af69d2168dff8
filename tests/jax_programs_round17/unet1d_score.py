"""A denoising score model on 1-D signals with a small U-Net, as in diffusion research code
written in pure JAX: lax.conv_general_dilated with explicit dimension numbers ("NWC",
"WIO", "NWC") and feature_group_count, strided downsampling, lax.conv_transpose upsampling
(padding "SAME" and explicit), group normalization, sinusoidal time embeddings, skip
connections by concatenation, lax.reduce_window average pooling, and training by the
denoising score-matching loss with optax-free Adam written with tree_map."""

import jax
import jax.numpy as jnp
from jax import lax, random

DN = ("NWC", "WIO", "NWC")
L, C = 16, 8


def conv(x, w, stride=1, groups=1, padding="SAME"):
    return lax.conv_general_dilated(x, w, (stride,), padding, dimension_numbers=DN,
                                    feature_group_count=groups)


def upconv(x, w, padding="SAME"):
    return lax.conv_transpose(x, w, (2,), padding, dimension_numbers=DN)


def group_norm(x, groups=2, eps=1e-5):
    n, w, c = x.shape
    g = x.reshape(n, w, groups, c // groups)
    mean = g.mean(axis=(1, 3), keepdims=True)
    var = g.var(axis=(1, 3), keepdims=True)
    return ((g - mean) * lax.rsqrt(var + eps)).reshape(n, w, c)


def time_embedding(t, dim):
    half = dim // 2
    freqs = jnp.exp(-jnp.log(10000.0) * jnp.arange(half) / half)
    args = t[:, None] * freqs[None]
    return jnp.concatenate([jnp.sin(args), jnp.cos(args)], axis=-1)


def init(key):
    ks = random.split(key, 8)
    he = lambda k, shape: random.normal(k, shape) * jnp.sqrt(2.0 / (shape[0] * shape[1]))
    return {
        "in": he(ks[0], (3, 1, C)),
        "down": he(ks[1], (4, C, 2 * C)),
        "mid_dw": he(ks[2], (3, 1, 2 * C)),     # depthwise: groups = channels
        "mid_pw": he(ks[3], (1, 2 * C, 2 * C)),
        "up": he(ks[4], (4, 2 * C, C)),
        "up_pad": he(ks[5], (3, 2 * C, C)),
        "out": he(ks[6], (3, 2 * C, 1)) * 0.1,
        "temb": random.normal(ks[7], (C, 2 * C)) * 0.1,
    }


def unet(params, x, t):
    h0 = jax.nn.silu(group_norm(conv(x, params["in"])))                       # (N, 16, C)
    h1 = conv(h0, params["down"], stride=2)                                   # (N, 8, 2C)
    h1 = h1 + (time_embedding(t, C) @ params["temb"])[:, None, :]
    h1 = jax.nn.silu(group_norm(h1))
    m = conv(h1, params["mid_dw"], groups=2 * C)
    m = jax.nn.silu(conv(m, params["mid_pw"])) + h1
    u = upconv(m, params["up"])                                               # (N, 16, C)
    u2 = upconv(m, params["up_pad"], padding=((1, 2),))                        # explicit padding
    u = u + u2[:, :L] * 0.5
    h = jnp.concatenate([u, h0], axis=-1)                                     # skip connection
    return conv(h, params["out"])


def data(key, n):
    k1, k2 = random.split(key)
    freq = random.uniform(k1, (n, 1), minval=1.0, maxval=3.0)
    phase = random.uniform(k2, (n, 1), maxval=2 * jnp.pi)
    grid = jnp.linspace(0, 2 * jnp.pi, L)[None]
    return jnp.sin(freq * grid + phase)[..., None]


SIGMAS = jnp.array([0.1, 0.3, 0.6, 1.0])


def loss_fn(params, key, x):
    k1, k2 = random.split(key)
    idx = random.randint(k1, (x.shape[0],), 0, SIGMAS.shape[0])
    sigma = SIGMAS[idx][:, None, None]
    noise = random.normal(k2, x.shape)
    score = unet(params, x + sigma * noise, idx.astype(jnp.float32)) / sigma
    return jnp.mean(jnp.sum((sigma * score + noise) ** 2, axis=(1, 2)))


def adam_init(p):
    z = jax.tree_util.tree_map(jnp.zeros_like, p)
    return z, z, 0


@jax.jit
def train_step(params, opt, key, x):
    m, v, t = opt
    loss, g = jax.value_and_grad(loss_fn)(params, key, x)
    t = t + 1
    m = jax.tree_util.tree_map(lambda a, b: 0.9 * a + 0.1 * b, m, g)
    v = jax.tree_util.tree_map(lambda a, b: 0.999 * a + 0.001 * b * b, v, g)
    upd = lambda p, a, b: p - 3e-3 * (a / (1 - 0.9 ** t)) / (jnp.sqrt(b / (1 - 0.999 ** t)) + 1e-8)
    return jax.tree_util.tree_map(upd, params, m, v), (m, v, t), loss


key = random.PRNGKey(0)
params = init(key)
x = data(random.PRNGKey(1), 32)
print("param shapes:", {k: v.shape for k, v in params.items()})
out = unet(params, x, jnp.zeros(32))
print("output shape:", out.shape, "mean:", out.mean(), "std:", out.std())
pool = lax.reduce_window(x, 0.0, lax.add, (1, 2, 1), (1, 2, 1), "VALID") / 2
print("pooled:", pool.shape, pool[0, :4, 0])
print("conv_transpose shapes:", upconv(jnp.ones((1, 8, 2 * C)), params["up"]).shape,
      upconv(jnp.ones((1, 8, 2 * C)), params["up_pad"], padding=((1, 2),)).shape,
      lax.conv_transpose(jnp.ones((1, 8, 2 * C)), params["up"], (2,), "VALID", dimension_numbers=DN).shape)

g = jax.grad(loss_fn)(params, random.PRNGKey(2), x)
print("grad norms:", {k: jnp.linalg.norm(v.ravel()) for k, v in sorted(g.items())})

opt = adam_init(params)
for step in range(60):
    params, opt, loss = train_step(params, opt, random.fold_in(key, step), x)
    if step % 15 == 0:
        print(f"step {step}: loss {loss:.5f}")
print("final loss:", loss_fn(params, random.PRNGKey(9), x))

# a few annealed Langevin steps from noise with the trained score model
def langevin(params, key, n=4):
    y = random.normal(key, (n, L, 1))
    def body(i, carry):
        y, key = carry
        idx = SIGMAS.shape[0] - 1 - i // 5
        s = SIGMAS[idx]
        key, sub = random.split(key)
        step = 0.05 * s ** 2
        score = unet(params, y, jnp.full((n,), idx, jnp.float32)) / s
        return y + step * score + jnp.sqrt(2 * step) * random.normal(sub, y.shape), key
    return lax.fori_loop(0, 20, body, (y, key))[0]

samples = jax.jit(langevin)(params, random.PRNGKey(5))
print("samples mean/std:", samples.mean(), samples.std())
