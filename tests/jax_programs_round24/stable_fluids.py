"""Jos Stam's "Stable Fluids" on a periodic grid as graphics and differentiable-simulation
notebooks write it in JAX: semi-Lagrangian advection by back-tracing particles and sampling
with jax.scipy.ndimage.map_coordinates (order=1, mode="wrap"), diffusion and pressure
projection solved exactly in Fourier space (jnp.fft.fft2/ifft2, fftfreq), divergence and
vorticity by spectral derivatives, a smoke density carried along, a step function with
static_argnums under jit driven by lax.scan, forcing chosen per step by lax.switch, kinetic
energy decay, mass conservation, a vmap over viscosities with out_axes=1, and the gradient
of the smoke reaching a target region with respect to the initial forcing strength."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.ndimage import map_coordinates

jnp.set_printoptions(precision=4, suppress=True)
N = 48
dx = 1.0 / N
grid_i, grid_j = jnp.meshgrid(jnp.arange(N, dtype=jnp.float32), jnp.arange(N, dtype=jnp.float32),
                              indexing="ij")
kx = 2 * jnp.pi * jnp.fft.fftfreq(N, d=dx)
KX, KY = jnp.meshgrid(kx, kx, indexing="ij")
K2 = KX**2 + KY**2
K2_safe = jnp.where(K2 == 0, 1.0, K2)


def advect(field, u, v, dt):
    # trace back from each cell centre; the grid index is position / dx
    back_i = grid_i - dt * u / dx
    back_j = grid_j - dt * v / dx
    return map_coordinates(field, [back_i, back_j], order=1, mode="wrap")


def project_and_diffuse(u, v, nu, dt):
    uh, vh = jnp.fft.fft2(u), jnp.fft.fft2(v)
    decay = jnp.exp(-nu * K2 * dt)
    uh, vh = uh * decay, vh * decay
    div = KX * uh + KY * vh
    uh, vh = uh - KX * div / K2_safe, vh - KY * div / K2_safe
    return jnp.real(jnp.fft.ifft2(uh)), jnp.real(jnp.fft.ifft2(vh))


def divergence(u, v):
    return jnp.real(jnp.fft.ifft2(1j * KX * jnp.fft.fft2(u) + 1j * KY * jnp.fft.fft2(v)))


def vorticity(u, v):
    return jnp.real(jnp.fft.ifft2(1j * KX * jnp.fft.fft2(v) - 1j * KY * jnp.fft.fft2(u)))


x = (grid_i + 0.5) * dx
y = (grid_j + 0.5) * dx
blob = jnp.exp(-((x - 0.5) ** 2 + (y - 0.25) ** 2) / 0.005)


def forcing(kind, strength):
    return lax.switch(kind, [
        lambda s: (jnp.zeros_like(blob), s * blob),                 # 0: jet upwards
        lambda s: (s * blob, jnp.zeros_like(blob)),                 # 1: jet sideways
        lambda s: (jnp.zeros_like(blob), jnp.zeros_like(blob)),     # 2: nothing
    ], strength)


@partial(jax.jit, static_argnums=(3,))
def simulate(strength, nu, schedule, steps):
    dt = 0.01

    def step(state, kind):
        u, v, smoke = state
        fu, fv = forcing(kind, strength)
        u, v = u + dt * fu, v + dt * fv
        u, v = advect(u, u, v, dt), advect(v, u, v, dt)
        u, v = project_and_diffuse(u, v, nu, dt)
        smoke = advect(smoke, u, v, dt) + dt * blob
        return (u, v, smoke), 0.5 * jnp.sum(u**2 + v**2) * dx**2

    init = (jnp.zeros((N, N)), jnp.zeros((N, N)), jnp.zeros((N, N)))
    return lax.scan(step, init, schedule[:steps])


schedule = jnp.concatenate([jnp.zeros(20, jnp.int32), jnp.ones(10, jnp.int32), jnp.full(30, 2, jnp.int32)])
(u, v, smoke), energy = simulate(20.0, 1e-3, schedule, 60)
print("kinetic energy at steps 10, 20, 30, 45, 60:", energy[jnp.array([9, 19, 29, 44, 59])])
print("energy decays once forcing stops:", bool(jnp.all(jnp.diff(energy[30:]) < 0)))
rel_div = jnp.max(jnp.abs(divergence(u, v))) / jnp.max(jnp.abs(vorticity(u, v)))
print("divergence small against vorticity (the Nyquist modes aside):", bool(rel_div < 0.05))
mass_in = 60 * 0.01 * blob.sum()
print(f"smoke mass {float(smoke.sum()):.3f} vs injected {float(mass_in):.3f} (linear interpolation is not "
      f"conservative)")
w = vorticity(u, v)
print(f"vorticity range [{float(w.min()):.3f}, {float(w.max()):.3f}], circulation ~ 0:",
      bool(jnp.abs(w.mean()) < 1e-3 * jnp.abs(w).max()))
cy = jnp.sum(smoke * y) / jnp.sum(smoke)
cx = jnp.sum(smoke * x) / jnp.sum(smoke)
print(f"smoke centroid ({float(cx):.4f}, {float(cy):.4f}) from the source at (0.5, 0.25)")

run = jax.vmap(lambda nu: simulate(20.0, nu, schedule, 60)[1], out_axes=1)
energies = run(jnp.array([1e-4, 1e-3, 1e-2]))
print("energies (steps x viscosities)", energies.shape, "final:", energies[-1])
print("more viscosity, less energy:", bool(jnp.all(jnp.diff(energies[-1]) < 0)))

target = jnp.exp(-((x - 0.5) ** 2 + (y - 0.6) ** 2) / 0.01)


def smoke_at_target(strength):
    (_, _, smoke), _ = simulate(strength, 1e-3, schedule, 40)
    return jnp.sum(smoke * target) * dx**2


val, grad = jax.value_and_grad(smoke_at_target)(20.0)
fd = (smoke_at_target(20.5) - smoke_at_target(19.5)) / 1.0
print(f"smoke at target {float(val):.4e}, d/d strength {float(grad):.3e} (central difference "
      f"{float(fd):.3e})")
