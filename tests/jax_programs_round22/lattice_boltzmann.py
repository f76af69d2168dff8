"""A D2Q9 lattice Boltzmann channel flow as CFD-in-JAX notebooks write it: equilibrium
distributions by jnp.einsum over lattice velocities, BGK collision with a body force,
streaming by jnp.roll per direction with shifts from a NumPy constant (a Python loop over the
nine velocities, stacked), bounce-back on wall and cylinder masks by index reversal, periodic
inflow/outflow, a jitted lax.fori_loop of steps, checks of mass conservation, the Poiseuille
profile against the analytic parabola, vorticity by jnp.gradient, and jax.grad of the mean
outlet speed with respect to the body force through 150 steps (checked by a central
difference)."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jnp.set_printoptions(precision=5, suppress=True)

C_NP = np.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1]])
C = jnp.asarray(C_NP)
W = jnp.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
OPPOSITE = jnp.array([0, 3, 4, 1, 2, 7, 8, 5, 6])
NX, NY, TAU = 40, 18, 0.8
print("lattice", C.shape, C.dtype, "weights sum", float(W.sum()), "opposites", OPPOSITE)


def equilibrium(rho, u):
    cu = jnp.einsum("qd,xyd->xyq", C.astype(u.dtype), u)
    usq = jnp.sum(u**2, axis=-1, keepdims=True)
    return rho[..., None] * W * (1 + 3 * cu + 4.5 * cu**2 - 1.5 * usq)


def macroscopic(f):
    rho = jnp.sum(f, axis=-1)
    u = jnp.einsum("xyq,qd->xyd", f, C.astype(f.dtype)) / rho[..., None]
    return rho, u


def stream(f):
    return jnp.stack([jnp.roll(f[..., q], shift=tuple(C_NP[q]), axis=(0, 1)) for q in range(9)], axis=-1)


x, y = jnp.meshgrid(jnp.arange(NX), jnp.arange(NY), indexing="ij")
walls = (y == 0) | (y == NY - 1)
cylinder = (x - 12) ** 2 + (y - NY // 2) ** 2 <= 9
print("solid cells: walls", int(walls.sum()), "cylinder", int(cylinder.sum()))


def make_step(solid, force):
    def step(_, f):
        rho, u = macroscopic(f)
        u = u + jnp.array([force, 0.0]) * TAU / rho[..., None]  # Shan-Chen style forcing
        f_post = f - (f - equilibrium(rho, u)) / TAU
        f_post = jnp.where(solid[..., None], f[..., OPPOSITE], f_post)  # bounce-back
        return stream(f_post)

    return step


@partial(jax.jit, static_argnames=("steps", "with_cylinder"))
def simulate(force, steps, with_cylinder):
    solid = walls | cylinder if with_cylinder else walls
    rho0 = jnp.ones((NX, NY))
    f0 = equilibrium(rho0, jnp.zeros((NX, NY, 2)))
    return lax.fori_loop(0, steps, make_step(solid, force), f0)


f = simulate(1e-4, 1000, False)
rho, u = macroscopic(f)
fluid = ~walls
print("mass", f"{float(jnp.sum(f)):.2f}", "(initial", NX * NY, ")")
profile = u[NX // 2, 1:-1, 0]
nu = (TAU - 0.5) / 3
h = NY - 2
yy = jnp.arange(h) + 0.5
analytic = 1e-4 / (2 * nu) * yy * (h - yy)
print("centreline speed", f"{float(profile.max()):.3e}", "Poiseuille", f"{float(analytic.max()):.3e}")
print("profile relative error", f"{float(jnp.max(jnp.abs(profile - analytic)) / analytic.max()):.4f}")
print(
    "transverse / streamwise velocity < 1e-3:",
    bool(jnp.max(jnp.abs(u[..., 1] * fluid)) < 1e-3 * profile.max()),
)

f = simulate(2e-4, 400, True)
rho, u = macroscopic(f)
dudy = jnp.gradient(u[..., 0], axis=1)
dvdx = jnp.gradient(u[..., 1], axis=0)
vort = jnp.where(walls | cylinder, 0.0, dvdx - dudy)
print(
    "with cylinder: max speed",
    f"{float(jnp.max(jnp.linalg.norm(u, axis=-1))):.4e}",
    "vorticity range",
    f"{float(vort.min()):.3e}",
    f"{float(vort.max()):.3e}",
)
print("density range", f"{float(rho.min()):.6f}", f"{float(rho.max()):.6f}")


def outlet_speed(force):
    f = simulate(force, 150, True)
    _, u = macroscopic(f)
    return jnp.mean(u[-1, 1:-1, 0])


g = jax.grad(outlet_speed)(2e-4)
eps = 2e-5
fd = (outlet_speed(2e-4 + eps) - outlet_speed(2e-4 - eps)) / (2 * eps)
print("d outlet speed / d force", f"{float(g):.3f}", "central difference", f"{float(fd):.1f}")
print("linear response: speed/force", f"{float(outlet_speed(2e-4) / 2e-4):.3f}")
