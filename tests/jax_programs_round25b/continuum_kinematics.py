"""Finite-strain kinematics and hyperelasticity as computational-mechanics notebooks write
them in JAX: the polar decomposition F = R U by jax.scipy.linalg.polar (both sides) against
U = sqrtm(F^T F), principal stretches by eigh and svd, the Hencky strain through eigh
(its derivative by jacfwd against a finite difference), Neo-Hookean and Ogden energies with
the first Piola-Kirchhoff stress by grad and the tangent by hessian (major symmetry), objectivity
under rotations from expm of skew matrices, the Schur form of a velocity gradient
(schur, rsf2csf, hessenberg), funm against expm, a Sylvester equation, expm_frechet against
jvp of expm, and a uniaxial test solved for the lateral stretch by Newton."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy import linalg as sla

jnp.set_printoptions(precision=5, suppress=True)

F = jnp.array([[1.20, 0.30, 0.05],
               [0.10, 0.90, 0.20],
               [0.02, 0.15, 1.10]])
R, U = sla.polar(F)
R_left, V = sla.polar(F, side="left", method="svd")  # QDWH does square matrices right only
print("det F", jnp.linalg.det(F), "R orthogonal:", bool(jnp.allclose(R.T @ R, jnp.eye(3), atol=1e-5)),
      "det R", jnp.linalg.det(R))
print("U\n", U)
U_sqrtm = sla.sqrtm(F.T @ F)
print("U from sqrtm agrees:", bool(jnp.allclose(U_sqrtm.real, U, atol=1e-4)),
      "V = R U R^T:", bool(jnp.allclose(V, R @ U @ R.T, atol=1e-4)),
      "same rotation both sides:", bool(jnp.allclose(R, R_left, atol=1e-5)))

C = F.T @ F
lam2, N = jnp.linalg.eigh(C)
stretches = jnp.sqrt(lam2)
print("principal stretches (eigh)", stretches, "(svd)", jnp.sort(jnp.linalg.svd(F, compute_uv=False)))


def hencky(F):
    lam2, N = jnp.linalg.eigh(F.T @ F)
    return (N * (0.5 * jnp.log(lam2))) @ N.T


Hs = hencky(F)
print("Hencky strain\n", Hs, "\ntrace = log det F:",
      bool(jnp.abs(jnp.trace(Hs) - jnp.log(jnp.linalg.det(F))) < 1e-5))
dF = jnp.array([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.5, 0.0, 0.0]])
h = 1e-3 if F.dtype == jnp.float32 else 1e-6
jvp_H = jax.jvp(hencky, (F,), (dF,))[1]
fd_H = (hencky(F + h * dF) - hencky(F - h * dF)) / (2 * h)
print("dHencky along dF (jvp)\n", jvp_H, "\nmatches a central difference:",
      bool(jnp.allclose(jvp_H, fd_H, atol=2e-3)))
print("full Jacobian shape", jax.jacfwd(hencky)(F).shape)

mu, lam_lame = 1.0, 3.0


def neo_hookean(F):
    J = jnp.linalg.det(F)
    I1 = jnp.trace(F.T @ F)
    return 0.5 * mu * (I1 - 3) - mu * jnp.log(J) + 0.5 * lam_lame * jnp.log(J) ** 2


P = jax.grad(neo_hookean)(F)
Finv_T = jnp.linalg.inv(F).T
P_exact = mu * (F - Finv_T) + lam_lame * jnp.log(jnp.linalg.det(F)) * Finv_T
print("PK1 stress by grad\n", P, "\nmatches the formula:", bool(jnp.allclose(P, P_exact, atol=1e-5)))
A = jax.hessian(neo_hookean)(F)
A2 = A.reshape(9, 9)
print("tangent major symmetry:", bool(jnp.allclose(A2, A2.T, atol=1e-4)),
      "smallest tangent eigenvalue", jnp.linalg.eigvalsh(A2)[0])
cauchy = P @ F.T / jnp.linalg.det(F)
print("Cauchy stress symmetric:", bool(jnp.allclose(cauchy, cauchy.T, atol=1e-5)), "\n", cauchy)


def ogden(F, mus=jnp.array([0.6, 0.01]), alphas=jnp.array([1.3, 5.0])):
    stretch = jnp.linalg.svd(F, compute_uv=False)
    J = jnp.prod(stretch)
    iso = stretch * J ** (-1.0 / 3)
    volumetric = 2.0 * (J - 1) ** 2
    return jnp.sum(mus / alphas * (jnp.sum(iso[None, :] ** alphas[:, None], axis=1) - 3)) + volumetric


def skew(w):
    return jnp.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


Q = sla.expm(skew(jnp.array([0.3, -0.5, 0.8])))
print("Q orthogonal:", bool(jnp.allclose(Q @ Q.T, jnp.eye(3), atol=1e-5)),
      "objectivity: W(QF) = W(F):", bool(jnp.abs(neo_hookean(Q @ F) - neo_hookean(F)) < 1e-5),
      bool(jnp.abs(ogden(Q @ F) - ogden(F)) < 1e-5))
print("Ogden energy", ogden(F), "stress", jax.grad(ogden)(F)[0])

L = jnp.array([[0.1, 0.5, 0.0], [-0.4, 0.2, 0.1], [0.0, 0.3, -0.3]])
T, Z = sla.schur(L)
print("real Schur form T\n", T, "\nZ T Z^T = L:", bool(jnp.allclose(Z @ T @ Z.T, L, atol=1e-5)))
Tc, Zc = sla.rsf2csf(T, Z)
print("complex Schur diagonal (eigenvalues)", jnp.sort_complex(jnp.diag(Tc)),
      "\neigvals", jnp.sort_complex(jnp.linalg.eigvals(L)))
Hh, Qh = sla.hessenberg(L, calc_q=True)
print("Hessenberg below-subdiagonal zero:", bool(jnp.abs(Hh[2, 0]) < 1e-6),
      "Q H Q^T = L:", bool(jnp.allclose(Qh @ Hh @ Qh.T, L, atol=1e-5)))
print("funm(L, exp) = expm(L):", bool(jnp.allclose(sla.funm(L, jnp.exp).real, sla.expm(L), atol=1e-4)))
Xs = sla.solve_sylvester(L, L.T + 2 * jnp.eye(3), jnp.eye(3))
residual = L @ Xs + Xs @ (L.T + 2 * jnp.eye(3)) - jnp.eye(3)
print("Sylvester residual small:", bool(jnp.abs(residual).max() < 1e-5))
E_L, dE = sla.expm_frechet(L, dF)
print("expm_frechet = jvp of expm:", bool(jnp.allclose(dE, jax.jvp(sla.expm, (L,), (dF,))[1], atol=1e-5)))


# uniaxial tension: stretch 1.3 along x, lateral stretch t where the lateral stress vanishes
def lateral_stress(t, s):
    Fu = jnp.diag(jnp.stack([s, t, t]))
    return jax.grad(neo_hookean)(Fu)[1, 1]


def newton(t, _):
    return t - lateral_stress(t, 1.3) / jax.grad(lateral_stress)(t, 1.3), None


t_star, _ = lax.scan(newton, jnp.asarray(1.0), None, length=8)
axial = jax.grad(neo_hookean)(jnp.diag(jnp.stack([1.3, t_star, t_star])))[0, 0]
dt_ds = -jax.grad(lateral_stress, 1)(t_star, 1.3) / jax.grad(lateral_stress)(t_star, 1.3)
print("lateral stretch", t_star, "axial stress", axial, "dt/ds by the implicit function theorem", dt_ds)
