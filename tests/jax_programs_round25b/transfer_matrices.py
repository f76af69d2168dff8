"""Transfer matrices as photonics and quantum-transport notebooks write them in JAX: the
characteristic matrices of a thin-film stack multiplied in lax.scan with a complex carry,
reflectance spectra vmapped over wavelengths, a quarter-wave Bragg mirror against its
closed-form peak reflectance, the derivative of the complex reflection amplitude with
respect to a complex refractive index by jax.grad(holomorphic=True) and jax.jacfwd(holomorphic=True)
against a complex finite difference, an anti-reflection coating designed by gradient descent
on the real reflectance, and quantum tunnelling through rectangular barriers (a single
barrier against the textbook formula, resonant tunnelling through a double barrier, the
resonance found by Newton's method on the transmission's derivative)."""

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=5, suppress=True)
cdtype = jnp.complex128 if jax.config.jax_enable_x64 else jnp.complex64


def layer_matrix(n, d, lam):
    """Characteristic matrix of a layer of index n and thickness d at normal incidence."""
    delta = 2 * jnp.pi * n * d / lam
    return jnp.array([[jnp.cos(delta), 1j * jnp.sin(delta) / n],
                      [1j * n * jnp.sin(delta), jnp.cos(delta)]])


def stack_matrix(ns, ds, lam):
    def mul(M, nd):
        return M @ layer_matrix(nd[0], nd[1], lam), None
    M, _ = lax.scan(mul, jnp.eye(2, dtype=cdtype), (ns.astype(cdtype), ds.astype(cdtype)))
    return M


def reflection(ns, ds, lam, n_in=1.0, n_sub=1.52):
    M = stack_matrix(ns, ds, lam)
    B = M[0, 0] + M[0, 1] * n_sub
    C = M[1, 0] + M[1, 1] * n_sub
    return (n_in * B - C) / (n_in * B + C)


def reflectance(ns, ds, lam):
    return jnp.abs(reflection(ns, ds, lam)) ** 2


# a quarter-wave Bragg mirror (TiO2 / SiO2) designed for 600 nm
lam0, nH, nL, pairs = 600.0, 2.35, 1.46, 6
ns = jnp.tile(jnp.array([nH, nL]), pairs)
ds = lam0 / (4 * ns)
print("det of the stack matrix (lossless: 1)", jnp.round(jnp.linalg.det(stack_matrix(ns, ds, lam0)), 4))
Y = (nH / nL) ** (2 * pairs) * 1.52
R_peak = ((1 - Y) / (1 + Y)) ** 2
print("peak reflectance", reflectance(ns, ds, lam0), "closed form", R_peak)
lams = jnp.linspace(450.0, 800.0, 8)
print("spectrum", jax.vmap(reflectance, in_axes=(None, None, 0))(ns, ds, lams))
fine = jnp.linspace(450.0, 800.0, 351)
R_fine = jax.vmap(reflectance, in_axes=(None, None, 0))(ns, ds, fine)
band = fine[R_fine > 0.9]
print("stop band (R > 0.9) from", band.min(), "to", band.max(), "nm")
width = 4 / jnp.pi * jnp.arcsin((nH - nL) / (nH + nL)) * lam0
print("stop-band width estimate", width, "nm")

# a lossy metal film: r is holomorphic in the complex index n
def r_of_index(n):
    return reflection(jnp.stack([n]), jnp.array([20.0]), 550.0)


n_metal = jnp.asarray(0.12 + 3.4j, dtype=cdtype)
dr = jax.grad(r_of_index, holomorphic=True)(n_metal)
h = 1e-3 if cdtype == jnp.complex64 else 1e-6
fd = (r_of_index(n_metal + h) - r_of_index(n_metal - h)) / (2 * h)
fd_i = (r_of_index(n_metal + 1j * h) - r_of_index(n_metal - 1j * h)) / (2j * h)
print("r", jnp.round(r_of_index(n_metal), 4), "dr/dn", jnp.round(dr, 4))
print("matches the real-direction difference:", bool(jnp.abs(dr - fd) < 1e-2),
      "and the imaginary-direction one (Cauchy-Riemann):", bool(jnp.abs(dr - fd_i) < 1e-2))
ns_c = jnp.array([1.38 + 0j, 2.1 + 0.01j], dtype=cdtype)
jac = jax.jacfwd(lambda n: jnp.stack([reflection(n, jnp.array([100.0, 65.0]), l) for l in (500.0, 600.0)]),
                 holomorphic=True)(ns_c)
print("holomorphic Jacobian of r at two wavelengths wrt two indices\n", jnp.round(jac, 4))

# a two-layer anti-reflection coating on glass: minimise the mean reflectance over the band
band_lams = jnp.linspace(450.0, 700.0, 11)
ar_ns = jnp.array([1.38, 2.0])


def mean_R(ds):
    return jnp.mean(jax.vmap(reflectance, in_axes=(None, None, 0))(ar_ns, ds, band_lams))


d_ar = jnp.array([100.0, 70.0])
print("bare glass R", ((1 - 1.52) / (1 + 1.52)) ** 2, "start", mean_R(d_ar))


def gd_step(d, _):
    loss, g = jax.value_and_grad(mean_R)(d)
    return d - 2e4 * g, loss


d_ar, losses = lax.scan(gd_step, d_ar, None, length=60)
print("losses every 15 steps", losses[::15], "final", mean_R(d_ar), "thicknesses", d_ar)

# quantum tunnelling: piecewise-constant potential, hbar^2 / 2m = 1, plane waves in each region
def transmission(E, V, widths):
    xs = jnp.concatenate([jnp.zeros(1), jnp.cumsum(widths)])
    Vs = jnp.concatenate([jnp.zeros(1), V, jnp.zeros(1)])
    k = jnp.sqrt((E - Vs).astype(cdtype))
    M = jnp.eye(2, dtype=cdtype)
    for j in range(len(widths) + 1):
        x = xs[j]
        ka, kb = k[j], k[j + 1]
        Ma = jnp.array([[jnp.exp(1j * ka * x), jnp.exp(-1j * ka * x)],
                        [1j * ka * jnp.exp(1j * ka * x), -1j * ka * jnp.exp(-1j * ka * x)]])
        Mb = jnp.array([[jnp.exp(1j * kb * x), jnp.exp(-1j * kb * x)],
                        [1j * kb * jnp.exp(1j * kb * x), -1j * kb * jnp.exp(-1j * kb * x)]])
        M = jnp.linalg.solve(Mb, Ma) @ M
    # (t, 0) = M (1, r): r = -M10 / M11, t = det M / M11 (same wavenumber on both sides)
    return jnp.abs(jnp.linalg.det(M) / M[1, 1]) ** 2


V0, a = 1.0, 1.5
Es = jnp.array([0.2, 0.5, 0.8, 1.5])
T_num = jax.vmap(lambda E: transmission(E, jnp.array([V0]), jnp.array([a])))(Es)
kappa = jnp.sqrt(jnp.maximum(V0 - Es, 1e-12))
kk = jnp.sqrt(jnp.abs(Es - V0))
T_below = 1 / (1 + V0 ** 2 * jnp.sinh(kappa * a) ** 2 / (4 * Es * (V0 - Es)))
T_above = 1 / (1 + V0 ** 2 * jnp.sin(kk * a) ** 2 / (4 * Es * (Es - V0)))
print("single barrier T", T_num, "formula", jnp.where(Es < V0, T_below, T_above))

double = lambda E: transmission(E, jnp.array([2.0, 0.0, 2.0]), jnp.array([0.6, 1.8, 0.6]))  # noqa: E731
Egrid = jnp.linspace(0.2, 1.5, 27)
T_grid = jax.vmap(double)(Egrid)
E_guess = Egrid[jnp.argmax(T_grid)]
print("double barrier T on a grid (max)", T_grid.max(), "at E =", E_guess)


def newton(E, _):
    g = jax.grad(double)(E)
    hh = jax.grad(jax.grad(double))(E)
    return E - g / hh, g


E_res, gs = lax.scan(newton, E_guess, None, length=6)
print("resonance E", E_res, "T there", double(E_res), "|dT/dE| shrinks:", bool(jnp.abs(gs[-1]) < 1e-3))
