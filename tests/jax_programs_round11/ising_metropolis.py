"""A 2-D Ising model sampled by Metropolis (as in the "statistical physics in JAX"
notebooks): a checkerboard update with jnp.roll neighbour sums, acceptance by
random.uniform against exp(-beta dE), sweeps in lax.fori_loop with a key split per sweep,
magnetization and energy measured with lax.scan, several temperatures in parallel with
vmap, and a single-spin-flip random-site chain with lax.dynamic_update_slice."""

import numpy as np

import jax
import jax.numpy as jnp

L = 16


def neighbours(s):
    return jnp.roll(s, 1, 0) + jnp.roll(s, -1, 0) + jnp.roll(s, 1, 1) + jnp.roll(s, -1, 1)


def energy(s):
    return -0.5 * jnp.sum(s * neighbours(s)) / s.size


checker = (jnp.indices((L, L)).sum(0) % 2).astype(bool)


def half_sweep(s, key, beta, mask):
    dE = 2.0 * s * neighbours(s)
    accept = jax.random.uniform(key, s.shape) < jnp.exp(-beta * dE)
    return jnp.where(mask & accept, -s, s)


def sweep(i, state):
    s, key, beta = state
    key, k1, k2 = jax.random.split(key, 3)
    s = half_sweep(s, k1, beta, checker)
    s = half_sweep(s, k2, beta, ~checker)
    return s, key, beta


def run(key, beta, n_burn=100, n_meas=50):
    k0, key = jax.random.split(key)
    s = jnp.where(jax.random.bernoulli(k0, 0.5, (L, L)), 1.0, -1.0)
    s, key, _ = jax.lax.fori_loop(0, n_burn, sweep, (s, key, beta))

    def measure(state, _):
        state = sweep(0, state)
        return state, (jnp.abs(jnp.mean(state[0])), energy(state[0]))
    _, (mags, energies) = jax.lax.scan(measure, (s, key, beta), None, length=n_meas)
    return mags.mean(), energies.mean(), s


betas = jnp.array([0.2, 0.44, 0.7])
mags, ens, finals = jax.jit(jax.vmap(run, in_axes=(None, 0)))(jax.random.key(0), betas)
print("|m| per beta", np.round(np.asarray(mags), 4))
print("energy per beta", np.round(np.asarray(ens), 4))
print("final spins sum", np.asarray(finals.sum((1, 2))).astype(int).tolist())
print("ordered phase", bool(mags[2] > mags[0]))


def single_flip(state, key):
    s, beta = state
    ki, kj, ku = jax.random.split(key, 3)
    i = jax.random.randint(ki, (), 0, L)
    j = jax.random.randint(kj, (), 0, L)
    nb = s[(i + 1) % L, j] + s[(i - 1) % L, j] + s[i, (j + 1) % L] + s[i, (j - 1) % L]
    dE = 2.0 * s[i, j] * nb
    flip = jax.random.uniform(ku) < jnp.exp(-beta * dE)
    new = jnp.where(flip, -s[i, j], s[i, j])
    s = jax.lax.dynamic_update_slice(s, new[None, None], (i, j))
    return (s, beta), flip


s0 = jnp.ones((L, L))
flip_keys = jax.random.split(jax.random.key(5), 2000)
(s1, _), flips = jax.jit(lambda s: jax.lax.scan(single_flip, (s, 0.3), flip_keys))(s0)
print("single-flip acceptance", round(float(flips.mean()), 4))
print("single-flip magnetization", round(float(s1.mean()), 4), "energy", round(float(energy(s1)), 4))
print("exact ground energy", float(energy(s0)), "checker count", int(checker.sum()))
