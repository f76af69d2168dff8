"""A bead-spring polymer in the style of JAX-MD: harmonic bonds, a cosine angle potential and a
WCA repulsion between non-bonded beads through a fixed-capacity neighbour list (pairs by
``jnp.nonzero(..., size=, fill_value=)``, rebuilt by ``lax.cond`` when a bead moved more than
half the skin), forces as ``-grad(energy)``, velocity Verlet in ``lax.fori_loop`` (energy
conservation), Langevin (BAOAB) dynamics with ``random.split`` keys in ``lax.scan``, the radius
of gyration, and the energy's Hessian at a relaxed configuration."""

import jax
import jax.numpy as jnp
from jax import lax, random

N = 16
CAPACITY = 64
CUTOFF = 2.0 ** (1.0 / 6.0)
SKIN = 0.4
BOND_K, BOND_R0, ANGLE_K = 100.0, 1.0, 2.0

bonds = jnp.stack([jnp.arange(N - 1), jnp.arange(1, N)], -1)
triples = jnp.stack([jnp.arange(N - 2), jnp.arange(1, N - 1), jnp.arange(2, N)], -1)
i_idx, j_idx = jnp.triu_indices(N, k=2)  # non-bonded candidates


def build_neighbours(pos):
    d = jnp.linalg.norm(pos[i_idx] - pos[j_idx], axis=-1)
    keep = d < CUTOFF + SKIN
    (sel,) = jnp.nonzero(keep, size=CAPACITY, fill_value=-1)
    valid = sel >= 0
    pairs = jnp.stack([i_idx[sel], j_idx[sel]], -1)
    return pairs, valid, pos, keep.sum()


def energy(pos, pairs, valid):
    b = jnp.linalg.norm(pos[bonds[:, 1]] - pos[bonds[:, 0]], axis=-1)
    e_bond = 0.5 * BOND_K * jnp.sum((b - BOND_R0) ** 2)
    u = pos[triples[:, 0]] - pos[triples[:, 1]]
    v = pos[triples[:, 2]] - pos[triples[:, 1]]
    cos = jnp.sum(u * v, -1) / (jnp.linalg.norm(u, axis=-1) * jnp.linalg.norm(v, axis=-1))
    e_angle = ANGLE_K * jnp.sum(1.0 + cos)
    r2 = jnp.sum((pos[pairs[:, 0]] - pos[pairs[:, 1]]) ** 2, -1)
    r2 = jnp.where(valid, r2, 4.0)  # padded slots sit outside the cutoff
    inv6 = 1.0 / r2 ** 3
    wca = jnp.where(r2 < CUTOFF ** 2, 4.0 * (inv6 ** 2 - inv6) + 1.0, 0.0)
    return e_bond + e_angle + jnp.sum(wca)


force = jax.grad(lambda p, pairs, valid: -energy(p, pairs, valid))

# an initial helix: beads five apart sit inside the repulsion's range
k = jnp.arange(N)
phase = 2 * jnp.pi * k / 5
pos0 = jnp.stack([0.8 * jnp.cos(phase), 0.8 * jnp.sin(phase), 0.22 * k], -1)
pairs, valid, ref, count = build_neighbours(pos0)
print("candidate pairs:", i_idx.shape[0], "in range:", count, "slots used:", int(valid.sum()))
print("initial energy:", jnp.round(energy(pos0, pairs, valid), 3))
f0 = force(pos0, pairs, valid)
print("net force (Newton's third law):", jnp.round(jnp.abs(f0.sum(0)).max(), 3))

# check the force against a central difference on one coordinate
eps = 1e-3
bump = jnp.zeros_like(pos0).at[6, 1].set(eps)
fd = -(energy(pos0 + bump, pairs, valid) - energy(pos0 - bump, pairs, valid)) / (2 * eps)
print("force[6, y]:", jnp.round(f0[6, 1], 2), "central difference:", jnp.round(fd, 2))


def maybe_rebuild(state):
    pos, pairs, valid, ref, rebuilds = state
    moved = jnp.max(jnp.linalg.norm(pos - ref, axis=-1))

    def rebuild(_):
        p, v, r, _ = build_neighbours(pos)
        return p, v, r, rebuilds + 1

    pairs, valid, ref, rebuilds = lax.cond(moved > SKIN / 2, rebuild,
                                           lambda _: (pairs, valid, ref, rebuilds), None)
    return pos, pairs, valid, ref, rebuilds


@jax.jit
def nve(pos, vel, pairs, valid, ref, dt):
    def body(_, state):
        pos, vel, pairs, valid, ref, rebuilds = state
        f = force(pos, pairs, valid)
        vel = vel + 0.5 * dt * f
        pos = pos + dt * vel
        pos, pairs, valid, ref, rebuilds = maybe_rebuild((pos, pairs, valid, ref, rebuilds))
        vel = vel + 0.5 * dt * force(pos, pairs, valid)
        return pos, vel, pairs, valid, ref, rebuilds

    return lax.fori_loop(0, 200, body, (pos, vel, pairs, valid, ref, 0))


key = random.PRNGKey(42)
k_vel, k_lang = random.split(key)
vel0 = 0.5 * random.normal(k_vel, pos0.shape)
vel0 = vel0 - vel0.mean(0)


def total_energy(pos, vel, pairs, valid):
    return energy(pos, pairs, valid) + 0.5 * jnp.sum(vel ** 2)


e_start = total_energy(pos0, vel0, pairs, valid)
pos1, vel1, pairs1, valid1, ref1, rebuilds = nve(pos0, vel0, pairs, valid, ref, 0.002)
e_end = total_energy(pos1, vel1, pairs1, valid1)
print("NVE: energy", jnp.round(e_start, 2), "->", jnp.round(e_end, 2), "rebuilds", rebuilds)
print("relative drift below 1e-3:", bool(jnp.abs(e_end - e_start) / jnp.abs(e_start) < 1e-3))
print("momentum conserved:", bool(jnp.allclose(vel1.sum(0), vel0.sum(0), atol=1e-4)))


def radius_of_gyration(pos):
    return jnp.sqrt(jnp.mean(jnp.sum((pos - pos.mean(0)) ** 2, -1)))


print("Rg start:", jnp.round(radius_of_gyration(pos0), 3))


# Langevin dynamics (BAOAB) at temperature 1.0
@jax.jit
def langevin(pos, vel, key):
    dt, gamma, temp = 0.005, 1.0, 1.0
    c1 = jnp.exp(-gamma * dt)
    c2 = jnp.sqrt((1 - c1 ** 2) * temp)

    def step(carry, k):
        pos, vel, pairs, valid, ref, rebuilds = carry
        vel = vel + 0.5 * dt * force(pos, pairs, valid)
        pos = pos + 0.5 * dt * vel
        vel = c1 * vel + c2 * random.normal(k, vel.shape)
        pos = pos + 0.5 * dt * vel
        pos, pairs, valid, ref, rebuilds = maybe_rebuild((pos, pairs, valid, ref, rebuilds))
        vel = vel + 0.5 * dt * force(pos, pairs, valid)
        return (pos, vel, pairs, valid, ref, rebuilds), (0.5 * jnp.mean(jnp.sum(vel ** 2, -1)) / 1.5,
                                                         radius_of_gyration(pos))

    pairs, valid, ref, _ = build_neighbours(pos)
    keys = random.split(key, 400)
    return lax.scan(step, (pos, vel, pairs, valid, ref, 0), keys)


(pos2, vel2, _, _, _, rebuilds2), (temps, rgs) = langevin(pos0, vel0, k_lang)
print("Langevin: rebuilds", rebuilds2, "temperature (last half):", jnp.round(temps[200:].mean(), 1))
print("Rg over time:", jnp.round(rgs[::100], 1))
print("all finite:", bool(jnp.all(jnp.isfinite(pos2))))


# energy minimisation by gradient descent and the Hessian's spectrum there
@jax.jit
def relax(pos):
    pairs, valid, _, _ = build_neighbours(pos)

    def body(_, p):
        return p + 0.002 * force(p, pairs, valid)

    return lax.fori_loop(0, 300, body, pos), pairs, valid


relaxed, rp, rv = relax(pos0)
print("relaxed energy:", jnp.round(energy(relaxed, rp, rv), 3))
bond_lengths = jnp.linalg.norm(relaxed[1:] - relaxed[:-1], axis=-1)
print("bond lengths:", jnp.round(bond_lengths.min(), 3), jnp.round(bond_lengths.max(), 3))
H = jax.hessian(energy)(relaxed, rp, rv).reshape(3 * N, 3 * N)
eig = jnp.linalg.eigvalsh(H)
print("Hessian symmetric:", bool(jnp.allclose(H, H.T, atol=1e-3)), "zero modes (|ev| < 1e-2):",
      int(jnp.sum(jnp.abs(eig) < 1e-2)))
print("stiffest modes:", jnp.round(eig[-3:], 1))
