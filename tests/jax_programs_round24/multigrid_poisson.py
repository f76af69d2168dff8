"""Geometric multigrid for the 2-D Poisson equation as numerical-PDE course code writes it in
JAX: the 5-point Laplacian by jnp.pad and slicing, a red-black Gauss-Seidel smoother with
checkerboard masks in lax.fori_loop, full-weighting restriction with
jax.scipy.signal.convolve2d, bilinear prolongation, the coarsest level solved directly with
jnp.linalg.solve of a Kronecker-sum matrix, a recursive V-cycle unrolled under jit (levels
static), the convergence factor per cycle, second-order discretisation error on three grids,
one V-cycle as the preconditioner M of jax.scipy.sparse.linalg.cg, and the gradient of a
solution functional with respect to the source amplitude through ten V-cycles."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.signal import convolve2d
from jax.scipy.sparse.linalg import cg

jnp.set_printoptions(precision=4, suppress=True)


def laplacian(u, h):
    p = jnp.pad(u, 1)
    return (4 * u - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:]) / h**2


def red_black_gs(u, f, h, sweeps):
    n = u.shape[0]
    i, j = jnp.meshgrid(jnp.arange(n), jnp.arange(n), indexing="ij")
    red = (i + j) % 2 == 0

    def sweep(_, u):
        for colour in (red, ~red):
            p = jnp.pad(u, 1)
            neighbours = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
            u = jnp.where(colour, (neighbours + h**2 * f) / 4, u)
        return u

    return lax.fori_loop(0, sweeps, sweep, u)


FULL_WEIGHTING = jnp.array([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]) / 16


def restrict(r):
    return convolve2d(r, FULL_WEIGHTING, mode="same")[1::2, 1::2]


def prolong(e):
    nc = e.shape[0]
    fine = jnp.zeros((2 * nc + 1, 2 * nc + 1), e.dtype).at[1::2, 1::2].set(e)
    return convolve2d(fine, 4 * FULL_WEIGHTING, mode="same")


def poisson_matrix(n, h):
    T = 2 * jnp.eye(n) - jnp.eye(n, k=1) - jnp.eye(n, k=-1)
    return (jnp.kron(T, jnp.eye(n)) + jnp.kron(jnp.eye(n), T)) / h**2


def v_cycle(u, f, h, pre=2, post=2):
    n = u.shape[0]
    if n <= 3:
        return jnp.linalg.solve(poisson_matrix(n, h), f.ravel()).reshape(n, n)
    u = red_black_gs(u, f, h, pre)
    r = f - laplacian(u, h)
    rc = restrict(r)
    ec = v_cycle(jnp.zeros_like(rc), rc, 2 * h, pre, post)
    u = u + prolong(ec)
    return red_black_gs(u, f, h, post)


def grid(n):
    h = 1.0 / (n + 1)
    x = jnp.linspace(h, 1 - h, n)
    X, Y = jnp.meshgrid(x, x, indexing="ij")
    return X, Y, h


def problem(n, amplitude=1.0):
    X, Y, h = grid(n)
    exact = amplitude * jnp.sin(jnp.pi * X) * jnp.sin(2 * jnp.pi * Y) * jnp.exp(X)
    return laplacian(exact, h), exact, h  # f = -Delta_h u: the discrete solution is `exact`


@partial(jax.jit, static_argnames="cycles")
def multigrid(f, h, cycles):
    def cycle(u, _):
        u = v_cycle(u, f, h)
        return u, jnp.linalg.norm(f - laplacian(u, h))

    return lax.scan(cycle, jnp.zeros_like(f), None, length=cycles)


f, exact, h = problem(63)
u, residuals = multigrid(f, h, 8)
r0 = jnp.linalg.norm(f)
factors = residuals[1:4] / residuals[:3]
print("relative residual after 1, 2 cycles:",
      f"{float(residuals[0] / r0):.3f} {float(residuals[1] / r0):.4f}")
print("convergence factor per V-cycle < 0.1:", bool(jnp.all(factors < 0.1)),
      f"(first {float(factors[0]):.2f})")
print("discrete solution reached:", bool(jnp.max(jnp.abs(u - exact)) < 1e-4 * jnp.max(jnp.abs(exact))))

# second-order convergence of the discretisation error
errors = []
for n in (15, 31, 63):
    X, Y, h = grid(n)
    true = jnp.sin(jnp.pi * X) * jnp.sin(2 * jnp.pi * Y) * jnp.exp(X)
    # the continuous right-hand side -Delta u of the true solution, from jax.hessian pointwise
    u_fn = lambda p: jnp.sin(jnp.pi * p[0]) * jnp.sin(2 * jnp.pi * p[1]) * jnp.exp(p[0])
    rhs = -jax.vmap(lambda p: jnp.trace(jax.hessian(u_fn)(p)))(jnp.stack([X.ravel(), Y.ravel()], 1))
    un, _ = multigrid(rhs.reshape(n, n), h, 8)
    errors.append(float(jnp.max(jnp.abs(un - true))))
    print(f"n={n:3d} h={h:.4f} max error {errors[-1]:.2e}")
print("observed orders", [round(float(jnp.log2(a / b)), 2) for a, b in zip(errors, errors[1:])])

# one V-cycle as a preconditioner for conjugate gradients
f, exact, h = problem(31)
A = lambda v: laplacian(v, h)
M = lambda r: v_cycle(jnp.zeros_like(r), r, h, 1, 1)
for precond, maxiter in ((None, 10), (M, 10), (None, 200)):
    sol, _ = cg(A, f, M=precond, tol=1e-5, maxiter=maxiter)
    rel = float(jnp.linalg.norm(f - A(sol)) / jnp.linalg.norm(f))
    print(f"cg, {'V-cycle' if precond else 'no'} preconditioner, {maxiter} iterations: residual below 1e-4:",
          rel < 1e-4)


def functional(amplitude):
    f, _, h = problem(31, amplitude)
    u, _ = multigrid(f, h, 10)
    return jnp.mean(u**2)


val, grad = jax.value_and_grad(functional)(1.5)
print(f"J(1.5) = {float(val):.5f}, dJ/da = {float(grad):.5f} (exact 2 J / a = {float(2 * val / 1.5):.5f})")
