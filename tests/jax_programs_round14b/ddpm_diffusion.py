"""A denoising diffusion probabilistic model (DDPM, Ho et al. 2020) on a 2-D toy data set, in
the style of minimal JAX diffusion repos: a linear beta schedule with cumprod, the forward
noising q(x_t | x_0), a sinusoidal time embedding, an MLP epsilon-predictor, the simple
loss with random timesteps, a hand-written Adam with a warmup schedule, and the ancestral
sampler as a reverse lax.scan with per-step keys from random.split; DDIM's deterministic
update under vmap."""

import math

import jax
import jax.numpy as jnp
from jax import lax, random

T = 50
betas = jnp.linspace(1e-4, 0.2, T)
alphas = 1.0 - betas
alpha_bar = jnp.cumprod(alphas)
print("schedule", alpha_bar[0], alpha_bar[-1], alpha_bar.dtype)
sigmas = jnp.sqrt(betas * jnp.concatenate([jnp.ones(1), 1 - alpha_bar[:-1]]) / (1 - alpha_bar))
print("posterior sigma", sigmas[:3], sigmas[-1])


def timestep_embedding(t, dim=8):
    half = dim // 2
    freqs = jnp.exp(-math.log(1000.0) * jnp.arange(half) / half)
    args = t[..., None].astype(jnp.float32) * freqs
    return jnp.concatenate([jnp.sin(args), jnp.cos(args)], axis=-1)


def init_mlp(key, sizes):
    params = []
    for k, (m, n) in zip(random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        params.append({"w": random.normal(k, (m, n)) * jnp.sqrt(2.0 / m), "b": jnp.zeros(n)})
    return params


def eps_model(params, x, t):
    h = jnp.concatenate([x, timestep_embedding(t)], axis=-1)
    for layer in params[:-1]:
        h = jax.nn.silu(h @ layer["w"] + layer["b"])
    return h @ params[-1]["w"] + params[-1]["b"]


def sample_data(key, n):
    k1, k2 = random.split(key)
    theta = random.uniform(k1, (n,), maxval=2 * jnp.pi)
    r = 1.0 + 0.05 * random.normal(k2, (n,))
    return jnp.stack([r * jnp.cos(theta), r * jnp.sin(theta)], axis=-1)


def loss_fn(params, key, x0):
    kt, ke = random.split(key)
    t = random.randint(kt, (x0.shape[0],), 0, T)
    eps = random.normal(ke, x0.shape)
    ab = alpha_bar[t][:, None]
    xt = jnp.sqrt(ab) * x0 + jnp.sqrt(1 - ab) * eps
    return jnp.mean(jnp.sum((eps_model(params, xt, t) - eps) ** 2, axis=-1))


def lr_schedule(step):
    return 2e-3 * jnp.minimum(1.0, (step + 1) / 10.0)


@jax.jit
def train_step(params, m, v, step, key):
    kd, kl = random.split(key)
    x0 = sample_data(kd, 128)
    loss, g = jax.value_and_grad(loss_fn)(params, kl, x0)
    m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
    v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g ** 2, v, g)
    c1, c2 = 1 - 0.9 ** (step + 1), 1 - 0.999 ** (step + 1)
    params = jax.tree.map(lambda p, m, v: p - lr_schedule(step) * (m / c1) / (jnp.sqrt(v / c2) + 1e-8),
                          params, m, v)
    return params, m, v, loss


key = random.PRNGKey(0)
key, kinit = random.split(key)
params = init_mlp(kinit, [2 + 8, 32, 32, 2])
m = jax.tree.map(jnp.zeros_like, params)
v = jax.tree.map(jnp.zeros_like, params)
losses = []
for step in range(30):
    key, sk = random.split(key)
    params, m, v, loss = train_step(params, m, v, step, sk)
    losses.append(loss)
print("losses", jnp.stack(losses)[::6])


def ancestral_sample(params, key, n):
    key, kx = random.split(key)
    xT = random.normal(kx, (n, 2))

    def step(x, inp):
        t, k = inp
        eps = eps_model(params, x, jnp.full((n,), t))
        mean = (x - betas[t] / jnp.sqrt(1 - alpha_bar[t]) * eps) / jnp.sqrt(alphas[t])
        noise = jnp.where(t > 0, 1.0, 0.0) * random.normal(k, x.shape)
        return mean + sigmas[t] * noise, jnp.linalg.norm(x, axis=-1).mean()

    ts = jnp.arange(T)[::-1]
    x0, norms = lax.scan(step, xT, (ts, random.split(key, T)))
    return x0, norms


x0, norms = jax.jit(ancestral_sample, static_argnums=2)(params, random.PRNGKey(7), 16)
print("samples", x0.shape, x0[:3])
print("mean radius trajectory", norms[::10])


def ddim_step(params, x, t, t_prev):
    eps = eps_model(params, x[None], jnp.array([t]))[0]
    x0_hat = (x - jnp.sqrt(1 - alpha_bar[t]) * eps) / jnp.sqrt(alpha_bar[t])
    ab_prev = jnp.where(t_prev >= 0, alpha_bar[t_prev], 1.0)
    return jnp.sqrt(ab_prev) * x0_hat + jnp.sqrt(1 - ab_prev) * eps


def ddim(params, x):
    for t, tp in zip(range(T - 1, -1, -10), range(T - 11, -11, -10)):
        x = ddim_step(params, x, t, tp)
    return x


print("ddim", jax.vmap(ddim, in_axes=(None, 0))(params, random.normal(random.PRNGKey(3), (4, 2))))
