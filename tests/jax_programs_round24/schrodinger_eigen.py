"""The 1-D Schroedinger equation as computational-physics course code writes it in JAX: a
finite-difference Hamiltonian on a grid, its spectrum by
jax.scipy.linalg.eigh_tridiagonal (eigenvalues only) and by jnp.linalg.eigh, the harmonic
oscillator's n + 1/2 ladder, particle-in-a-box levels, the Hellmann-Feynman theorem checked
by jax.grad of an eigenvalue of H(lambda) for an anharmonic x^4 term, the tunnelling splitting
of a double well as its barrier grows, a variational Gaussian ansatz optimised by gradient
descent, and Crank-Nicolson time evolution of a coherent wave packet with a complex
jax.scipy.linalg.lu_factor/lu_solve in lax.scan (norm conserved, <x>(t) = x0 cos t) against
jax.scipy.linalg.expm of -iHt."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.linalg import eigh_tridiagonal, expm, lu_factor, lu_solve

jnp.set_printoptions(precision=3, suppress=True)

N, L = 120, 12.0
x = jnp.linspace(-L / 2, L / 2, N + 2)[1:-1]  # Dirichlet walls at +-L/2
dx = x[1] - x[0]


def hamiltonian_bands(V):
    return 1.0 / dx**2 + V, jnp.full(N - 1, -0.5 / dx**2)


def hamiltonian(V):
    d, e = hamiltonian_bands(V)
    return jnp.diag(d) + jnp.diag(e, 1) + jnp.diag(e, -1)


V_ho = 0.5 * x**2
levels = eigh_tridiagonal(*hamiltonian_bands(V_ho), eigvals_only=True)[:6]
print("harmonic oscillator levels", levels)
print("match n + 1/2 to 2e-2:", bool(jnp.allclose(levels, jnp.arange(6) + 0.5, atol=2e-2)))

E_box = eigh_tridiagonal(*hamiltonian_bands(jnp.zeros(N)), eigvals_only=True)[:4]
exact_box = (jnp.arange(1, 5) * jnp.pi / L) ** 2 / 2
print("box levels", E_box, "within 0.5% of (n pi / L)^2 / 2:",
      bool(jnp.max(jnp.abs(E_box / exact_box - 1)) < 5e-3))


def ground_energy(lam):
    return jnp.linalg.eigvalsh(hamiltonian(V_ho + lam * x**4))[0]


lam = 0.1
E, psi = jnp.linalg.eigh(hamiltonian(V_ho + lam * x**4))
psi0 = psi[:, 0] / jnp.sqrt(dx)
hf = jnp.sum(psi0**2 * x**4) * dx
print(f"anharmonic ground state E0 = {float(E[0]):.4f}; dE0/dlambda by grad "
      f"{float(jax.grad(ground_energy)(lam)):.4f},",
      f"Hellmann-Feynman <x^4> = {float(hf):.4f}")
print(f"<x^2> = {float(jnp.sum(psi0**2 * x**2) * dx):.4f}, parity <x> ~ 0:",
      bool(abs(jnp.sum(psi0**2 * x) * dx) < 1e-4))


def splitting(barrier):
    V = barrier * (x**2 - 2.0) ** 2 / 4.0
    E = eigh_tridiagonal(*hamiltonian_bands(V), eigvals_only=True)
    return E[1] - E[0]


gaps = jax.vmap(splitting)(jnp.array([0.5, 1.5, 3.0, 5.0]))
print("double-well splittings", " ".join(f"{float(g):.3g}" for g in gaps))
print("splitting falls with the barrier:", bool(jnp.all(jnp.diff(gaps) < 0)))


def variational_energy(log_alpha, lam=0.1):
    alpha = jnp.exp(log_alpha)
    phi = jnp.exp(-alpha * x**2)
    phi = phi / jnp.sqrt(jnp.sum(phi**2) * dx)
    return phi @ hamiltonian(V_ho + lam * x**4) @ phi * dx


def descend(log_alpha, _):
    return log_alpha - 0.5 * jax.grad(variational_energy)(log_alpha), None


log_alpha, _ = lax.scan(descend, jnp.log(0.5), None, length=60)
print(f"variational alpha {float(jnp.exp(log_alpha)):.4f}, energy {float(variational_energy(log_alpha)):.4f}",
      f">= exact {float(E[0]):.4f}:", bool(variational_energy(log_alpha) >= E[0]))

# Crank-Nicolson for i psi_t = H psi with a displaced Gaussian (a coherent state)
H = hamiltonian(V_ho).astype(jnp.complex64)
dt, x0 = 0.02, 2.0
A = jnp.eye(N, dtype=H.dtype) + 0.5j * dt * H
B = jnp.eye(N, dtype=H.dtype) - 0.5j * dt * H
lu = lu_factor(A)
packet = (jnp.exp(-((x - x0) ** 2) / 2) / jnp.pi**0.25).astype(jnp.complex64)


def cn_step(psi, _):
    psi = lu_solve(lu, B @ psi)
    density = jnp.abs(psi) ** 2
    return psi, (jnp.sum(density) * dx, jnp.sum(density * x) * dx)


psi_T, (norms, means) = jax.jit(lambda p: lax.scan(cn_step, p, None, length=157))(packet)
t = dt * jnp.arange(1, 158)
print("norm conserved:", bool(jnp.allclose(norms, 1.0, atol=1e-4)))
print("<x>(t) at t = 0.8, 1.6, 3.14:", means[jnp.array([39, 79, 156])])
print("agrees with x0 cos t:", bool(jnp.allclose(means, x0 * jnp.cos(t), atol=2e-2)))
psi_exact = expm(-1j * H * t[-1]) @ packet
overlap = jnp.abs(jnp.vdot(psi_exact, psi_T)) * dx
print(f"overlap with expm(-iHt) psi0 at t = pi: {float(overlap):.4f}")
energy = jnp.real(jnp.vdot(psi_T, H @ psi_T)) * dx
print(f"energy {float(energy):.4f} (coherent state: 1/2 + x0^2/2 = {0.5 + x0**2 / 2})")
