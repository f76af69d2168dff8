"""Implicit differentiation (the "Custom derivative rules" fixed-point section, jaxopt-style
solvers and deep-equilibrium models): a custom_vjp fixed-point solver whose backward pass
solves the adjoint fixed point, lax.custom_root with a Newton solver, lax.custom_linear_solve
with conjugate gradients from jax.scipy.sparse.linalg, a DEQ layer's gradient checked
against unrolled differentiation, ridge regression's hyperparameter gradient, and
jax.scipy.sparse.linalg.cg/gmres/bicgstab on an operator given as a function."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.sparse.linalg import bicgstab, cg, gmres


def fwd_solver(f, z_init, tol=1e-6, max_iter=200):
    def cond(carry):
        z_prev, z, i = carry
        return (jnp.linalg.norm(z_prev - z) > tol) & (i < max_iter)

    def body(carry):
        _, z, i = carry
        return z, f(z), i + 1

    _, z_star, _ = lax.while_loop(cond, body, (z_init, f(z_init), 0))
    return z_star


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def fixed_point_layer(f, params, x):
    return fwd_solver(lambda z: f(params, x, z), jnp.zeros_like(x))


def fixed_point_fwd(f, params, x):
    z_star = fixed_point_layer(f, params, x)
    return z_star, (params, x, z_star)


def fixed_point_bwd(f, res, z_star_bar):
    params, x, z_star = res
    _, vjp_a = jax.vjp(lambda p, x: f(p, x, z_star), params, x)
    _, vjp_z = jax.vjp(lambda z: f(params, x, z), z_star)
    u = fwd_solver(lambda u: vjp_z(u)[0] + z_star_bar, jnp.zeros_like(z_star))
    return vjp_a(u)


fixed_point_layer.defvjp(fixed_point_fwd, fixed_point_bwd)


def layer(W, x, z):
    return jnp.tanh(W @ z + x)


n = 6
W = 0.3 * jax.random.normal(jax.random.PRNGKey(0), (n, n)) / jnp.sqrt(n)
x = jax.random.normal(jax.random.PRNGKey(1), (n,))
z = fixed_point_layer(layer, W, x)
print("fixed point", z)
print("residual small", jnp.linalg.norm(z - layer(W, x, z)) < 1e-5)
g_implicit = jax.grad(lambda W: fixed_point_layer(layer, W, x).sum())(W)


def unrolled(W):
    z = jnp.zeros(n)
    for _ in range(60):
        z = layer(W, x, z)
    return z.sum()


g_unrolled = jax.grad(unrolled)(W)
print("implicit == unrolled", jnp.allclose(g_implicit, g_unrolled, atol=1e-5), g_implicit[0, :3])
print("grad x", jax.grad(lambda x: fixed_point_layer(layer, W, x).sum())(x)[:3])


# custom_root: sqrt by Newton's method, differentiated implicitly
def newton_sqrt(a):
    f = lambda x: x ** 2 - a  # noqa: E731

    def solve(f, x0):
        return lax.fori_loop(0, 30, lambda i, x: x - f(x) / jax.grad(f)(x), x0)

    def tangent_solve(g, y):
        return y / g(1.0)

    return lax.custom_root(f, 1.0, solve, tangent_solve)


print("sqrt", newton_sqrt(2.0), jax.grad(newton_sqrt)(2.0), 0.5 / jnp.sqrt(2.0))
print("vmap sqrt", jax.vmap(newton_sqrt)(jnp.array([1.0, 4.0, 9.0])))
print("jit grad", jax.jit(jax.grad(newton_sqrt))(9.0))

# custom_linear_solve with CG: gradient of a quadratic's solution
A = jnp.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
b = jnp.array([1.0, 2.0, 3.0])


def solve_cg(matvec, b):
    return cg(matvec, b, tol=1e-10)[0]


def lin_solve(A, b):
    return lax.custom_linear_solve(lambda v: A @ v, b, solve=solve_cg, symmetric=True)


print("solve", lin_solve(A, b), jnp.linalg.solve(A, b))
print("d/db", jax.jacobian(lambda b: lin_solve(A, b))(b)[0], jnp.linalg.inv(A)[0])
print("d/dA", jax.grad(lambda A: lin_solve(A, b).sum())(A)[0])

# iterative solvers on a matrix-free operator
def laplacian_1d(v):
    return 2.0 * v - jnp.concatenate([v[1:], jnp.zeros(1)]) - jnp.concatenate([jnp.zeros(1), v[:-1]])


rhs = jnp.ones(8)
x_cg, _ = cg(laplacian_1d, rhs, tol=1e-8)
x_gm, _ = gmres(laplacian_1d, rhs, tol=1e-8, restart=8)
x_bi, _ = bicgstab(laplacian_1d, rhs, tol=1e-8)
print("cg", x_cg)
print("gmres == cg", jnp.allclose(x_gm, x_cg, atol=1e-4),
      "bicgstab == cg", jnp.allclose(x_bi, x_cg, atol=1e-4))
print("pytree cg", cg(lambda t: {"a": 2.0 * t["a"], "b": 3.0 * t["b"]},
                      {"a": jnp.ones(2), "b": jnp.ones(3)})[0])
M = lambda v: v / 2.0  # noqa: E731
print("preconditioned", cg(laplacian_1d, rhs, M=M, tol=1e-8)[0][:3])


# ridge regression: the validation loss's gradient in the regularization strength
Xtr = jax.random.normal(jax.random.PRNGKey(3), (20, 4))
ytr = Xtr @ jnp.array([1.0, 0.0, -1.0, 2.0]) + 0.3 * jax.random.normal(jax.random.PRNGKey(4), (20,))
Xva, yva = Xtr[:5] + 0.1, ytr[:5]


def ridge(lam):
    H = Xtr.T @ Xtr + lam * jnp.eye(4)
    return jnp.linalg.solve(H, Xtr.T @ ytr)


val = lambda lam: jnp.mean((Xva @ ridge(lam) - yva) ** 2)  # noqa: E731
print("val loss", val(1.0), "d/dlam", jax.grad(val)(1.0))
fd = (val(1.0 + 1e-2) - val(1.0 - 1e-2)) / 2e-2
print("finite diff agrees", jnp.abs(fd - jax.grad(val)(1.0)) < 1e-3)
