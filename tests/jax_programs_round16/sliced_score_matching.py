# ruff: noqa: E501 - program text as written for JAX
"""Score-based generative modelling in JAX (Song & Ermon; Song et al. 2019/2021), the parts
research code writes with jax alone: a score network trained by sliced score matching, whose
loss needs v^T (d s/dx) v through jax.jvp and the divergence by Hutchinson's estimator with
Rademacher probes (jax.random.rademacher), checked against the exact divergence from
jnp.trace(jax.jacfwd(...)); denoising score matching at several noise levels; annealed
Langevin dynamics sampling with lax.fori_loop inside lax.scan; and an Euler-Maruyama
simulation of the variance-preserving SDE's reverse process."""

import jax
import jax.numpy as jnp
from jax import lax, random

SIGMAS = jnp.exp(jnp.linspace(jnp.log(1.0), jnp.log(0.05), 6))


def init(key, hidden=48):
    k1, k2, k3 = random.split(key, 3)
    return {"w1": random.normal(k1, (3, hidden)) * 0.5, "b1": jnp.zeros(hidden),
            "w2": random.normal(k2, (hidden, hidden)) / jnp.sqrt(hidden), "b2": jnp.zeros(hidden),
            "w3": random.normal(k3, (hidden, 2)) * 0.01, "b3": jnp.zeros(2)}


def score(params, x, sigma):
    # noise-conditional score s(x, sigma) / sigma (the NCSN parametrization)
    h = jnp.concatenate([x, jnp.log(sigma)[None]])
    h = jax.nn.softplus(h @ params["w1"] + params["b1"])
    h = jax.nn.softplus(h @ params["w2"] + params["b2"])
    return (h @ params["w3"] + params["b3"]) / sigma


def data(key, n):
    kc, kn = random.split(key)
    centers = jnp.array([[-1.5, 0.0], [1.5, 0.0], [0.0, 1.5]])
    return centers[random.randint(kc, (n,), 0, 3)] + 0.2 * random.normal(kn, (n, 2))


def ssm_loss(params, x, key, sigma=0.1):
    v = random.rademacher(key, x.shape, dtype=x.dtype)

    def one(x, v):
        s, jv = jax.jvp(lambda y: score(params, y, jnp.asarray(sigma, x.dtype)), (x,), (v,))
        return v @ jv + 0.5 * jnp.sum(s ** 2)

    return jnp.mean(jax.vmap(one)(x, v))


def dsm_loss(params, x, key):
    ks, kn = random.split(key)
    sig = SIGMAS[random.randint(ks, (x.shape[0],), 0, SIGMAS.shape[0])]
    noise = random.normal(kn, x.shape)
    xt = x + sig[:, None] * noise
    s = jax.vmap(score, in_axes=(None, 0, 0))(params, xt, sig)
    return jnp.mean(jnp.sum((sig[:, None] * s + noise) ** 2, axis=1))


def annealed_langevin(params, key, n=256, steps=20, eps=2e-3):
    x0 = random.uniform(key, (n, 2), minval=-3, maxval=3)

    def level(x_key, sigma):
        x, key = x_key
        alpha = eps * (sigma / SIGMAS[-1]) ** 2

        def inner(i, xk):
            x, key = xk
            key, sub = random.split(key)
            s = jax.vmap(score, in_axes=(None, 0, None))(params, x, sigma)
            return x + 0.5 * alpha * s + jnp.sqrt(alpha) * random.normal(sub, x.shape), key

        x, key = lax.fori_loop(0, steps, inner, (x, key))
        return (x, key), x.std(0)

    (x, _), stds = lax.scan(level, (x0, key), SIGMAS)
    return x, stds


def vp_reverse_sde(key, n=512, steps=200, beta_min=0.1, beta_max=10.0):
    # the exact score of a Gaussian data distribution N(m, s^2 I) under the VP SDE
    m, s = jnp.array([1.0, -0.5]), 0.3
    dt = 1.0 / steps

    def exact_score(x, t):
        log_mean = -0.25 * t ** 2 * (beta_max - beta_min) - 0.5 * t * beta_min
        mean = jnp.exp(log_mean) * m
        var = jnp.exp(2 * log_mean) * s ** 2 + 1 - jnp.exp(2 * log_mean)
        return -(x - mean) / var

    def step(x, kt):
        k, t = kt
        beta = beta_min + t * (beta_max - beta_min)
        drift = -0.5 * beta * x - beta * exact_score(x, t)
        x = x - drift * dt + jnp.sqrt(beta * dt) * random.normal(k, x.shape)
        return x, None

    ts = jnp.linspace(1.0, dt, steps)
    x, _ = lax.scan(step, random.normal(key, (n, 2)), (random.split(key, steps), ts))
    return x


params = init(random.PRNGKey(0))
x = data(random.PRNGKey(1), 512)
x0 = x[0]
sig = jnp.asarray(0.3, x.dtype)
exact_div = jnp.trace(jax.jacfwd(score, argnums=1)(params, x0, sig))
probes = random.rademacher(random.PRNGKey(2), (4000, 2), dtype=x.dtype)
hutch = jnp.mean(jax.vmap(lambda v: v @ jax.jvp(lambda y: score(params, y, sig), (x0,), (v,))[1])(probes))
print("divergence exact", exact_div, "hutchinson close", bool(jnp.abs(hutch - exact_div) < 0.05 * jnp.abs(exact_div) + 1e-3))
print("rademacher values", jnp.unique(probes), probes.dtype)
print("initial ssm loss", ssm_loss(params, x, random.PRNGKey(3)), "dsm loss", dsm_loss(params, x, random.PRNGKey(4)))

opt_step = jax.jit(lambda p, x, k: jax.value_and_grad(dsm_loss)(p, x, k))
m = jax.tree.map(jnp.zeros_like, params)
v = jax.tree.map(jnp.zeros_like, params)
key = random.PRNGKey(5)
for t in range(1, 151):
    key, kb, kl = random.split(key, 3)
    batch = x[random.randint(kb, (128,), 0, x.shape[0])]
    loss, g = opt_step(params, batch, kl)
    m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
    v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
    params = jax.tree.map(lambda p, m, v: p - 3e-3 * (m / (1 - 0.9 ** t)) / (jnp.sqrt(v / (1 - 0.999 ** t)) + 1e-8),
                          params, m, v)
    if t % 50 == 0:
        print(f"step {t} dsm loss {loss:.4f} ssm loss {ssm_loss(params, batch, kl):.4f}")

samples, stds = jax.jit(annealed_langevin)(params, random.PRNGKey(6))
print("langevin sample std by level", stds[:, 0])
print("sample mean", samples.mean(0), "data mean", x.mean(0))
sde = vp_reverse_sde(random.PRNGKey(7))
print("reverse VP-SDE mean", sde.mean(0), "std", sde.std(0))
