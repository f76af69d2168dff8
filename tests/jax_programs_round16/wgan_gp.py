"""A Wasserstein GAN with gradient penalty (Gulrajani et al., 2017) on a 2-D mixture of eight
Gaussians, as JAX research code writes it with stax: generator and critic built with
jax.example_libraries.stax, two optimizers from jax.example_libraries.optimizers (Adam with
betas 0.5/0.9 and RMSProp), the penalty as a gradient of a norm of a per-example input
gradient (jax.vmap(jax.grad(...)) inside jax.grad: second-order reverse mode through
Dense/LeakyRelu), n_critic critic steps per generator step in a lax.fori_loop, and a
maximum mean discrepancy with an RBF kernel to measure the fit."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.example_libraries import optimizers, stax

LATENT, BATCH, N_CRITIC, LAMBDA = 4, 64, 3, 10.0

gen_init, gen_apply = stax.serial(stax.Dense(32), stax.Relu, stax.Dense(32), stax.Relu, stax.Dense(2))
crit_init, crit_apply = stax.serial(stax.Dense(32), stax.LeakyRelu, stax.Dense(32), stax.LeakyRelu,
                                    stax.Dense(1))


def sample_real(key, n):
    kc, kn = random.split(key)
    angles = random.randint(kc, (n,), 0, 8) * (2 * jnp.pi / 8)
    centers = 2.0 * jnp.stack([jnp.cos(angles), jnp.sin(angles)], axis=1)
    return centers + 0.05 * random.normal(kn, (n, 2))


def critic_loss(cp, gp, key):
    kz, kr, ke = random.split(key, 3)
    real = sample_real(kr, BATCH)
    fake = gen_apply(gp, random.normal(kz, (BATCH, LATENT)))
    eps = random.uniform(ke, (BATCH, 1))
    mixed = eps * real + (1 - eps) * fake
    grads = jax.vmap(jax.grad(lambda x: crit_apply(cp, x[None])[0, 0]))(mixed)
    penalty = jnp.mean((jnp.sqrt(jnp.sum(grads ** 2, axis=1) + 1e-12) - 1.0) ** 2)
    w_dist = crit_apply(cp, real).mean() - crit_apply(cp, fake).mean()
    return -w_dist + LAMBDA * penalty, (w_dist, penalty)


def gen_loss(gp, cp, key):
    fake = gen_apply(gp, random.normal(key, (BATCH, LATENT)))
    return -crit_apply(cp, fake).mean()


c_init, c_update, c_get = optimizers.adam(1e-3, b1=0.5, b2=0.9)
g_init, g_update, g_get = optimizers.rmsprop(5e-4)


@jax.jit
def train_step(step, c_state, g_state, key):
    gp = g_get(g_state)

    def critic_iter(j, carry):
        c_state, key, _ = carry
        key, sub = random.split(key)
        (loss, aux), g = jax.value_and_grad(critic_loss, has_aux=True)(c_get(c_state), gp, sub)
        return c_update(step * N_CRITIC + j, g, c_state), key, jnp.stack([loss, *aux])

    c_state, key, stats = lax.fori_loop(0, N_CRITIC, critic_iter, (c_state, key, jnp.zeros(3)))
    key, sub = random.split(key)
    gl, g = jax.value_and_grad(gen_loss)(gp, c_get(c_state), sub)
    return c_state, g_update(step, g, g_state), stats, gl


def mmd(x, y, bandwidth=0.5):
    def k(a, b):
        d2 = jnp.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1)
        return jnp.exp(-d2 / (2 * bandwidth ** 2))
    return k(x, x).mean() + k(y, y).mean() - 2 * k(x, y).mean()


key = random.PRNGKey(7)
k1, k2, key = random.split(key, 3)
_, gp = gen_init(k1, (-1, LATENT))
out_shape, cp = crit_init(k2, (-1, 2))
print("critic output shape", out_shape, "generator layers", len(gp))
c_state, g_state = c_init(cp), g_init(gp)

real_eval = sample_real(random.PRNGKey(100), 256)
z_eval = random.normal(random.PRNGKey(101), (256, LATENT))
print("initial mmd", mmd(gen_apply(g_get(g_state), z_eval), real_eval))
grad_norms = jax.vmap(jax.grad(lambda x: crit_apply(cp, x[None])[0, 0]))(real_eval[:4])
print("critic input-gradient norms", jnp.linalg.norm(grad_norms, axis=1))
for step in range(40):
    key, sub = random.split(key)
    c_state, g_state, (closs, wd, pen), gl = train_step(step, c_state, g_state, sub)
    if step % 8 == 0 or step == 39:
        print(f"step {step:2d} critic {closs:.4f} W {wd:.4f} penalty {pen:.4f} gen {gl:.4f}")
samples = gen_apply(g_get(g_state), z_eval)
print("final mmd", mmd(samples, real_eval))
print("sample mean", samples.mean(0), "radius", jnp.linalg.norm(samples, axis=1).mean())
