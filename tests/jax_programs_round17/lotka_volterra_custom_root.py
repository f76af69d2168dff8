"""Fitting Lotka-Volterra parameters through an implicit integrator, as in implicit-layer
tutorials: each backward-Euler step solves g(y) = y - y_prev - h f(y, theta) = 0 by Newton's
method inside lax.custom_root (the tangent solve by jnp.linalg.solve of the Jacobian from
jax.jacfwd), so gradients flow through the solution by the implicit function theorem; the
steps run in lax.scan; the gradient is checked against central differences and against
differentiating the unrolled Newton iterations; then Gauss-Newton fitting (jax.jacrev of the
residuals) and lax.custom_linear_solve for a symmetric solve."""

import jax
import jax.numpy as jnp
from jax import lax

H, STEPS = 0.05, 40


def f(y, theta):
    a, b, c, d = theta
    prey, pred = y
    return jnp.array([a * prey - b * prey * pred, -c * pred + d * prey * pred])


def newton(g, y0, iters=8):
    def body(_, y):
        J = jax.jacfwd(g)(y)
        return y - jnp.linalg.solve(J, g(y))
    return lax.fori_loop(0, iters, body, y0)


def tangent_solve(g, y):
    return jnp.linalg.solve(jax.jacfwd(g)(jnp.zeros_like(y)), y)


def implicit_step(y_prev, theta, use_custom_root=True):
    g = lambda y: y - y_prev - H * f(y, theta)
    if use_custom_root:
        return lax.custom_root(g, y_prev, newton, tangent_solve)
    return newton(g, y_prev)


def trajectory(theta, y0, use_custom_root=True):
    def step(y, _):
        y = implicit_step(y, theta, use_custom_root)
        return y, y
    return lax.scan(step, y0, None, length=STEPS)[1]


true_theta = jnp.array([1.0, 0.4, 0.8, 0.3])
y0 = jnp.array([2.0, 1.0])
data = trajectory(true_theta, y0)
print("data[::10]:", data[::10])
g_res = lambda y: y - y0 - H * f(y, true_theta)
print("residual of first step:", jnp.max(jnp.abs(g_res(data[0]))) < 1e-5)


def loss(theta, use_custom_root=True):
    return jnp.mean((trajectory(theta, y0, use_custom_root) - data) ** 2)


theta0 = jnp.array([0.8, 0.5, 0.9, 0.25])
print("loss at theta0:", loss(theta0))
g_imp = jax.grad(loss)(theta0)
g_unr = jax.grad(loss)(theta0, False)
print("implicit grad:", g_imp)
print("implicit == unrolled:", bool(jnp.allclose(g_imp, g_unr, rtol=1e-3, atol=1e-6)))
eps = 1e-3
fd = jnp.array([(loss(theta0 + eps * e) - loss(theta0 - eps * e)) / (2 * eps) for e in jnp.eye(4)])
print("finite differences agree:", bool(jnp.allclose(fd, g_imp, rtol=2e-2, atol=1e-5)))
print("jvp through custom_root:", jax.jvp(lambda t: implicit_step(y0, t), (theta0,), (jnp.ones(4),))[1])


def residuals(theta):
    return (trajectory(theta, y0) - data).ravel()


@jax.jit
def gauss_newton(theta):
    r = residuals(theta)
    J = jax.jacrev(residuals)(theta)
    A = J.T @ J + 0.1 * jnp.diag(jnp.diag(J.T @ J))  # Levenberg-Marquardt damping
    b = J.T @ r
    mv = lambda v: A @ v
    solve = lambda matvec, rhs: jnp.linalg.solve(A, rhs)
    step = lax.custom_linear_solve(mv, b, solve, symmetric=True)
    return theta - step, jnp.sum(r ** 2)


theta = theta0
for it in range(8):
    theta, sse = gauss_newton(theta)
    print(f"gn {it}: sse {sse:.3e}")
print("recovered theta:", jnp.round(theta, 4))
print("param error small:", bool(jnp.max(jnp.abs(theta - true_theta)) < 1e-3))

# the derivative of a scalar root (x^3 = a) through custom_root, and its second derivative
cube_root = lambda a: lax.custom_root(lambda x: x ** 3 - a, 1.0,
                                      lambda g, x0: newton(lambda x: jnp.atleast_1d(g(x[0])),
                                                           jnp.atleast_1d(x0), 30)[0],
                                      lambda g, y: y / jax.grad(g)(1.0))
print("cube root of 8:", cube_root(8.0), "d/da:", jax.grad(cube_root)(8.0))
