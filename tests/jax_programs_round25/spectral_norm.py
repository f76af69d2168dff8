"""Spectral normalization in the style of Miyato et al.'s SN-GAN code written in JAX: the largest
singular value of each weight matrix estimated by power iteration (the vectors u, v carried
as non-trainable state and frozen by lax.stop_gradient), checked against jnp.linalg.svd and
jnp.linalg.norm(ord=2); the derivative of sigma(W) (u v^T) by jax.grad; a dict of layers
normalized with jax.tree_util.tree_map; a Lipschitz-constrained discriminator whose input
gradients (vmap of grad) stay below the product of the normalized norms; a few adversarial
steps of a tiny GAN on a 1-D mixture with the power-iteration state threaded through lax.scan."""

import jax
import jax.numpy as jnp
from jax import lax, random

jnp.set_printoptions(precision=4, suppress=True)

key = random.PRNGKey(42)
k_w, k_u, k_net, k_data, k_gan = random.split(key, 5)


def l2_normalize(x, eps=1e-12):
    return x / (jnp.sqrt(jnp.sum(x * x)) + eps)


def power_iteration(w, u, n_steps=1):
    """One (or more) rounds of u <- W v / |W v|, v <- W^T u / |W^T u|; returns sigma, u, v."""
    def body(_, uv):
        u, _ = uv
        v = l2_normalize(w.T @ u)
        u = l2_normalize(w @ v)
        return u, v

    u, v = lax.fori_loop(0, n_steps, body, (u, jnp.zeros(w.shape[1], w.dtype)))
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ w @ v, u, v


W = random.normal(k_w, (6, 4))
u0 = l2_normalize(random.normal(k_u, (6,)))
exact = jnp.linalg.svd(W, compute_uv=False)
print("singular values", exact)
print("norm(ord=2) equals the largest:", bool(jnp.allclose(jnp.linalg.norm(W, ord=2), exact[0], rtol=1e-5)))
for n in (1, 3, 10, 50):
    sigma, _, _ = power_iteration(W, u0, n)
    error = float(1 - sigma / exact[0])
    print(f"power iteration {n:2d} steps: sigma {float(sigma):.5f},",
          f"relative error {error:.2e}" if error > 1e-5 else "converged (relative error < 1e-5)")

# d sigma / d W = u v^T at the converged vectors (stop_gradient makes the estimate's gradient exact)
sigma, u, v = power_iteration(W, u0, 100)
g = jax.grad(lambda w: power_iteration(w, u, 1)[0])(W)
print("grad of sigma equals u v^T:", bool(jnp.allclose(g, jnp.outer(u, v), atol=1e-5)))
U, S, Vt = jnp.linalg.svd(W, full_matrices=False)
print("u v^T equals the top singular pair's outer product:",
      bool(jnp.allclose(jnp.abs(g), jnp.abs(jnp.outer(U[:, 0], Vt[0])), atol=1e-4)))

# ---- a spectrally normalized discriminator ------------------------------------------------------


def init_mlp(key, sizes):
    keys = random.split(key, len(sizes) - 1)
    return {f"layer{i}": {"w": random.normal(k, (n, m)) * jnp.sqrt(2.0 / m), "b": jnp.zeros(n)}
            for i, (k, m, n) in enumerate(zip(keys, sizes[:-1], sizes[1:]))}


def init_state(key, params):
    leaves = sorted(params)
    keys = random.split(key, len(leaves))
    return {name: l2_normalize(random.normal(k, (params[name]["w"].shape[0],)))
            for name, k in zip(leaves, keys)}


def normalize(params, state):
    """Divide each weight by its power-iteration sigma; returns the normalized tree and new state."""
    new_params, new_state = {}, {}
    for name in sorted(params):
        sigma, u, _ = power_iteration(params[name]["w"], state[name])
        new_params[name] = {"w": params[name]["w"] / sigma, "b": params[name]["b"]}
        new_state[name] = u
    return new_params, new_state


def mlp(params, x):
    names = sorted(params)
    for name in names[:-1]:
        x = jax.nn.leaky_relu(params[name]["w"] @ x + params[name]["b"], 0.2)
    last = params[names[-1]]
    return (last["w"] @ x + last["b"])[0]


disc = init_mlp(k_net, (1, 32, 32, 1))
state = init_state(k_u, disc)
print("raw layer norms", jnp.array([jnp.linalg.norm(disc[n]["w"], ord=2) for n in sorted(disc)]))
for _ in range(30):  # warm the power iteration state up, as training would
    sn, state = normalize(disc, state)
norms = jnp.array([jnp.linalg.norm(sn[n]["w"], ord=2) for n in sorted(sn)])
print("normalized layer norms", norms)
xs = jnp.linspace(-3.0, 3.0, 61)[:, None]
slopes = jax.vmap(jax.grad(lambda x: mlp(sn, x)))(xs)
print("max |dD/dx| over a grid:", f"{float(jnp.max(jnp.abs(slopes))):.4f}",
      "<= product of norms:", bool(jnp.max(jnp.abs(slopes)) <= jnp.prod(norms) + 1e-4))
shapes = jax.tree_util.tree_map(jnp.shape, sn)
print("normalized tree shapes", shapes)

# ---- a tiny GAN with a spectrally normalized critic ---------------------------------------------

data = jnp.concatenate([random.normal(k_data, (128,)) * 0.3 - 1.5,
                        random.normal(random.fold_in(k_data, 1), (128,)) * 0.3 + 1.5])[:, None]
gen = init_mlp(random.fold_in(k_gan, 0), (2, 16, 1))
disc = init_mlp(random.fold_in(k_gan, 1), (1, 16, 16, 1))
state = init_state(random.fold_in(k_gan, 2), disc)


def d_loss(disc, state, gen, z, real):
    sn, new_state = normalize(disc, state)
    fake = jax.vmap(lambda z: mlp(gen, z))(z)[:, None]
    d_real = jax.vmap(lambda x: mlp(sn, x))(real)
    d_fake = jax.vmap(lambda x: mlp(sn, x))(fake)
    loss = jnp.mean(jax.nn.softplus(-d_real)) + jnp.mean(jax.nn.softplus(d_fake))
    return loss, new_state


def g_loss(gen, sn, z):
    fake = jax.vmap(lambda z: mlp(gen, z))(z)[:, None]
    return jnp.mean(jax.nn.softplus(-jax.vmap(lambda x: mlp(sn, x))(fake)))


@jax.jit
def train_step(carry, key):
    disc, state, gen = carry
    z = random.normal(key, (64, 2))
    (ld, state), gd = jax.value_and_grad(d_loss, has_aux=True)(disc, state, gen, z, data[::4])
    disc = jax.tree_util.tree_map(lambda p, g: p - 0.05 * g, disc, gd)
    sn, _ = normalize(disc, state)
    lg, gg = jax.value_and_grad(g_loss)(gen, sn, z)
    gen = jax.tree_util.tree_map(lambda p, g: p - 0.05 * g, gen, gg)
    return (disc, state, gen), jnp.stack([ld, lg])


(disc, state, gen), losses = lax.scan(train_step, (disc, state, gen), random.split(k_gan, 40))
print("losses (D, G) every 10 steps\n", losses[::10])
sn, _ = normalize(disc, state)
print("critic sigmas after training",
      jnp.array([jnp.linalg.norm(sn[n]["w"], ord=2) for n in sorted(sn)]))
samples = jax.vmap(lambda z: mlp(gen, z))(random.normal(random.fold_in(k_gan, 9), (200, 2)))
print(f"generated mean {float(samples.mean()):.4f} std {float(samples.std()):.4f}")
