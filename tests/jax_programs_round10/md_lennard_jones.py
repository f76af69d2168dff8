"""Molecular dynamics of a Lennard-Jones fluid (in the style of JAX-MD's examples): periodic
displacements with the minimum-image convention, forces as -grad(energy), a velocity-
Verlet integrator in lax.fori_loop, a cell-free neighbor list (top_k over distances,
rebuilt with lax.cond when particles move too far), energy conservation, a Berendsen
thermostat in lax.scan, and a radial distribution function with jnp.histogram."""

import jax
import jax.numpy as jnp
from jax import lax, random

N, BOX, SIGMA, EPS, RC = 27, 4.5, 1.0, 1.0, 2.5


def displacement(Ra, Rb):
    d = Ra - Rb
    return d - BOX * jnp.round(d / BOX)


def pair_energy(r2):
    inv6 = (SIGMA ** 2 / r2) ** 3
    shift = (SIGMA / RC) ** 12 - (SIGMA / RC) ** 6
    return jnp.where(r2 < RC ** 2, 4 * EPS * (inv6 * inv6 - inv6 - shift), 0.0)


def energy(R):
    dR = jax.vmap(jax.vmap(displacement, (None, 0)), (0, None))(R, R)
    r2 = jnp.sum(dR ** 2, -1)
    mask = ~jnp.eye(N, dtype=bool)
    r2 = jnp.where(mask, r2, 1.0)
    return 0.5 * jnp.sum(jnp.where(mask, pair_energy(r2), 0.0))


force = jax.jit(lambda R: -jax.grad(energy)(R))

# a simple cubic lattice, slightly perturbed
g = jnp.arange(3) * (BOX / 3) + BOX / 6
R0 = jnp.stack(jnp.meshgrid(g, g, g, indexing="ij"), -1).reshape(-1, 3)
R0 = R0 + 0.05 * random.normal(random.PRNGKey(0), R0.shape)
V0 = 0.3 * random.normal(random.PRNGKey(1), R0.shape)
V0 = V0 - V0.mean(0)
print("positions", R0.shape, R0.dtype)
print("E0", energy(R0))
F = force(R0)
print("net force", jnp.abs(F.sum(0)).max() < 1e-3, F[0])


def kinetic(V):
    return 0.5 * jnp.sum(V ** 2)


def verlet(state, dt):
    R, V, F = state
    V = V + 0.5 * dt * F
    R = jnp.mod(R + dt * V, BOX)
    F = force(R)
    V = V + 0.5 * dt * F
    return R, V, F


@jax.jit
def run(R, V, steps):
    return lax.fori_loop(0, steps, lambda i, s: verlet(s, 0.002), (R, V, force(R)))


E_start = energy(R0) + kinetic(V0)
R, V, F = run(R0, V0, 100)
E_end = energy(R) + kinetic(V)
print("energy drift", jnp.abs(E_end - E_start) / jnp.abs(E_start) < 1e-3)
print("E", E_start, E_end, "T", kinetic(V) * 2 / (3 * N))
print("momentum", jnp.abs(V.sum(0)).max() < 1e-4)

# neighbor list: the K nearest particles, rebuilt when any moved more than half the skin
K, SKIN = 12, 0.5


def build_neighbors(R):
    dR = jax.vmap(jax.vmap(displacement, (None, 0)), (0, None))(R, R)
    d2 = jnp.sum(dR ** 2, -1) + jnp.where(jnp.eye(N, dtype=bool), jnp.inf, 0.0)
    neg, idx = lax.top_k(-d2, K)
    return idx, -neg


def energy_nl(R, idx):
    dR = jax.vmap(lambda r, nb: displacement(r, R[nb]))(R, idx)
    return 0.5 * jnp.sum(pair_energy(jnp.sum(dR ** 2, -1)))


idx, d2 = build_neighbors(R0)
print("neighbors", idx.shape, idx.dtype, jnp.sqrt(d2[0, :3]))
print("nl energy", energy_nl(R0, idx), energy(R0))


def step_nl(carry, _):
    R, V, idx, R_ref, rebuilds = carry
    Fn = -jax.grad(energy_nl)(R, idx)
    V = V + 0.004 * Fn
    R = jnp.mod(R + 0.004 * V, BOX)
    moved = jnp.max(jnp.sum(displacement(R, R_ref) ** 2, -1))
    rebuild = moved > (SKIN / 2) ** 2
    idx, R_ref = lax.cond(rebuild, lambda: (build_neighbors(R)[0], R), lambda: (idx, R_ref))
    return (R, V, idx, R_ref, rebuilds + rebuild), kinetic(V)


(R, V, idx, _, rebuilds), ke = lax.scan(step_nl, (R0, V0, idx, R0, 0), None, length=60)
print("rebuilds", rebuilds, "ke", ke[::15])


# Berendsen thermostat towards T = 0.5
def thermo_step(state, _):
    R, V, F = verlet(state, 0.002)
    T = kinetic(V) * 2 / (3 * N)
    V = V * jnp.sqrt(1 + 0.1 * (0.5 / T - 1))
    return (R, V, F), T


(_, V, _), Ts = lax.scan(thermo_step, (R0, V0, force(R0)), None, length=80)
print("temperatures", Ts[::20], Ts[-1])

# radial distribution function
dR = jax.vmap(jax.vmap(displacement, (None, 0)), (0, None))(R0, R0)
r = jnp.sqrt(jnp.sum(dR ** 2, -1))[jnp.triu_indices(N, 1)]
hist, edges = jnp.histogram(r, bins=6, range=(0.5, 2.3))
print("g(r) counts", hist, edges[:3])
