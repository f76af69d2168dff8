"""Pseudo-spectral PDE solvers with jax.numpy.fft (as in the "differentiable physics" and
jax-cfd style notebooks): the heat equation solved exactly in Fourier space, viscous
Burgers with an RK4 step and 2/3 dealiasing (rfft/irfft, rfftfreq), a 2-D Poisson solve
with fft2/ifft2 and fftfreq, fftshift, a gradient through the solver with respect to the
viscosity, and spectral derivatives checked against the analytic ones."""

import jax
import jax.numpy as jnp
from jax import lax

N, L = 64, 2 * jnp.pi
x = jnp.linspace(0.0, L, N, endpoint=False)
k = jnp.fft.rfftfreq(N, d=L / N) * 2 * jnp.pi
print("wavenumbers", k[:5], k.shape, k.dtype)

# spectral derivative of sin(3x) exp(cos x)
u = jnp.sin(3 * x) * jnp.exp(jnp.cos(x))
du = jnp.fft.irfft(1j * k * jnp.fft.rfft(u), n=N)
exact = (3 * jnp.cos(3 * x) - jnp.sin(x) * jnp.sin(3 * x)) * jnp.exp(jnp.cos(x))
print("derivative error", jnp.max(jnp.abs(du - exact)) < 1e-4)
print("rfft", jnp.fft.rfft(u)[1:4].imag)

# heat equation: exact decay of each mode
u0 = jnp.exp(-10 * (x - jnp.pi) ** 2)


def heat(u0, nu, t):
    return jnp.fft.irfft(jnp.fft.rfft(u0) * jnp.exp(-nu * k ** 2 * t), n=N)


print("heat", heat(u0, 0.1, 1.0)[24:41:4])
print("mass conserved", jnp.sum(heat(u0, 0.1, 1.0)) * L / N, jnp.sum(u0) * L / N)

# viscous Burgers, dealiased RK4
dealias = k < (2.0 / 3.0) * jnp.max(k)


def rhs(uh, nu):
    u = jnp.fft.irfft(uh, n=N)
    nonlinear = -0.5 * 1j * k * jnp.fft.rfft(u * u) * dealias
    return nonlinear - nu * k ** 2 * uh


def rk4(uh, nu, dt):
    k1 = rhs(uh, nu)
    k2 = rhs(uh + 0.5 * dt * k1, nu)
    k3 = rhs(uh + 0.5 * dt * k2, nu)
    k4 = rhs(uh + dt * k3, nu)
    return uh + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def burgers(u0, nu, steps=100, dt=0.01):
    uh = lax.fori_loop(0, steps, lambda i, uh: rk4(uh, nu, dt), jnp.fft.rfft(u0))
    return jnp.fft.irfft(uh, n=N)


ub = jax.jit(burgers, static_argnames="steps")(jnp.sin(x), 0.1)
print("burgers", ub[4:32:8], ub[36:64:8])
print("energy", jnp.sum(ub ** 2) / N)
dE = jax.grad(lambda nu: jnp.sum(burgers(jnp.sin(x), nu, steps=50) ** 2) / N)(0.1)
print("d energy / d nu", dE)

# 2-D Poisson: -lap phi = f on a periodic square
M = 32
kx = jnp.fft.fftfreq(M, d=1.0 / M)
KX, KY = jnp.meshgrid(kx, kx, indexing="ij")
K2 = KX ** 2 + KY ** 2
X, Y = jnp.meshgrid(jnp.arange(M) * 2 * jnp.pi / M, jnp.arange(M) * 2 * jnp.pi / M, indexing="ij")
f = jnp.cos(2 * X) * jnp.sin(3 * Y)
fh = jnp.fft.fft2(f)
phi_h = jnp.where(K2 == 0, 0.0, fh / jnp.where(K2 == 0, 1.0, K2))
phi = jnp.real(jnp.fft.ifft2(phi_h))
print("poisson error", jnp.max(jnp.abs(phi - f / 13.0)) < 1e-5)
print("fftshift", jnp.fft.fftshift(kx)[:4], jnp.fft.ifftshift(jnp.fft.fftshift(kx))[:4])
print("fftn", jnp.abs(jnp.fft.fftn(f, axes=(0, 1))).max(), jnp.fft.ifftn(fh).real[1, 2])
print("hfft", jnp.fft.hfft(jnp.array([1.0, 2.0, 3.0]), n=4),
      jnp.fft.ihfft(jnp.array([1.0, 2.0, 3.0, 4.0]))[1])
print("norm", jnp.fft.fft(jnp.arange(4.0), norm="ortho"), jnp.fft.ifft(jnp.arange(4.0), norm="forward"))
print("grad fft", jax.grad(lambda a: jnp.abs(jnp.fft.fft(a)[1]) ** 2)(jnp.array([1.0, 2.0, 0.5, -1.0])))
