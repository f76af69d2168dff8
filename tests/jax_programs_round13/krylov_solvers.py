"""Iterative linear solvers and Newton-Krylov (as in the jax.scipy.sparse.linalg docs and
matrix-free PDE examples): cg, gmres (batched and incremental solve_method) and bicgstab on a
matrix given as a function (a 1-D Laplacian stencil), with x0, tol/atol, maxiter and a
Jacobi preconditioner M, pytree right-hand sides for cg, the gradient of a cg solve (its
implicit derivative), and Newton's method for a nonlinear boundary-value problem whose
Jacobian-vector products come from jax.jvp and whose linear systems are solved by gmres."""

import jax
import jax.numpy as jnp
from jax.scipy.sparse.linalg import bicgstab, cg, gmres

n = 12
h = 1.0 / (n + 1)
diag = 2.0 + h ** 2 * jnp.linspace(1.0, 3.0, n)


def laplacian(u):
    lap = diag * u
    lap = lap.at[1:].add(-u[:-1])
    return lap.at[:-1].add(-u[1:])


dense = jax.vmap(laplacian)(jnp.eye(n)).T
b = jnp.sin(jnp.pi * jnp.linspace(h, 1 - h, n))
exact = jnp.linalg.solve(dense, b)
x_cg, info = cg(laplacian, b, tol=1e-10, atol=0.0, maxiter=200)
print("cg", info, bool(jnp.allclose(x_cg, exact, atol=1e-4)), jnp.round(x_cg[:3], 4))
x_gm, _ = gmres(laplacian, b, tol=1e-10, restart=n, solve_method="batched")
x_gi, _ = gmres(laplacian, b, tol=1e-10, restart=5, maxiter=20, solve_method="incremental")
print("gmres", bool(jnp.allclose(x_gm, exact, atol=1e-4)), bool(jnp.allclose(x_gi, exact, atol=1e-4)))
x_bi, _ = bicgstab(laplacian, b, x0=jnp.ones(n), tol=1e-10, maxiter=100)
print("bicgstab", bool(jnp.allclose(x_bi, exact, atol=1e-4)))
x_pc, _ = cg(laplacian, b, tol=1e-10, M=lambda r: r / diag)
print("jacobi preconditioned", bool(jnp.allclose(x_pc, exact, atol=1e-4)))
x_few, _ = cg(laplacian, b, maxiter=2)
print("two iterations residual", round(float(jnp.linalg.norm(laplacian(x_few) - b)), 4))


def block_op(tree):
    return {"a": laplacian(tree["a"]), "b": 3.0 * tree["b"]}


sol, _ = cg(block_op, {"a": b, "b": jnp.array([3.0, 6.0])}, tol=1e-10)
print("pytree", jnp.round(sol["b"], 4), bool(jnp.allclose(sol["a"], exact, atol=1e-4)))


def objective(scale):
    x, _ = cg(lambda u: laplacian(u) * scale, b, tol=1e-12)
    return jnp.sum(x ** 2)


g = jax.grad(objective)(2.0)
print("d/dscale", round(float(g), 4), "analytic", round(float(-2 * objective(2.0) / 2.0), 4))
print("jit cg", jnp.round(jax.jit(lambda rhs: cg(laplacian, rhs, tol=1e-10)[0])(b)[:2], 4))


def residual(u):  # -u'' + u^3 = 10 with u(0) = u(1) = 0, second-order differences
    return laplacian(u) - h ** 2 * jnp.linspace(1.0, 3.0, n) * u + h ** 2 * (u ** 3 - 10.0)


u = jnp.zeros(n)
for it in range(6):
    r = residual(u)
    jvp = lambda v: jax.jvp(residual, (u,), (v,))[1]
    du, _ = gmres(jvp, -r, tol=1e-10, restart=n)
    u = u + du
    print("newton", it, float(jnp.linalg.norm(residual(u))) < 1e-4, round(float(jnp.max(u)), 5))
print("solution", jnp.round(u[::3], 4))
