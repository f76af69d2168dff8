"""Iterative LQR (Li & Todorov) for a pendulum swing-up, as in trajectory-optimization research
code in JAX: dynamics linearized by jax.jacfwd, quadratic cost expansions by jax.grad and
jax.hessian, the backward Riccati pass as a reverse lax.scan solving with jnp.linalg.solve,
the forward pass with line search candidates under vmap, and convergence of the cost."""

import jax
import jax.numpy as jnp
from jax import lax

DT, H = 0.05, 40
x_goal = jnp.array([jnp.pi, 0.0])


def dynamics(x, u):
    th, om = x
    om_dot = -9.81 * jnp.sin(th) - 0.1 * om + u[0]
    return jnp.array([th + DT * om, om + DT * om_dot])


def running_cost(x, u):
    d = x - x_goal
    return 0.1 * d @ d + 0.01 * u @ u


def final_cost(x):
    d = x - x_goal
    return 10.0 * d @ d


def rollout(x0, us):
    def step(x, u):
        return dynamics(x, u), x
    xT, xs = lax.scan(step, x0, us)
    return jnp.concatenate([xs, xT[None]])


def total_cost(xs, us):
    return jnp.sum(jax.vmap(running_cost)(xs[:-1], us)) + final_cost(xs[-1])


fx = jax.vmap(jax.jacfwd(dynamics, argnums=0))
fu = jax.vmap(jax.jacfwd(dynamics, argnums=1))
lx = jax.vmap(jax.grad(running_cost, argnums=0))
lu = jax.vmap(jax.grad(running_cost, argnums=1))
lxx = jax.vmap(jax.hessian(running_cost, argnums=0))
luu = jax.vmap(jax.hessian(running_cost, argnums=1))
lux = jax.vmap(jax.jacfwd(jax.grad(running_cost, argnums=1), argnums=0))


def backward(xs, us, reg):
    A, B = fx(xs[:-1], us), fu(xs[:-1], us)
    derivs = (A, B, lx(xs[:-1], us), lu(xs[:-1], us), lxx(xs[:-1], us), luu(xs[:-1], us), lux(xs[:-1], us))
    V_x, V_xx = jax.grad(final_cost)(xs[-1]), jax.hessian(final_cost)(xs[-1])

    def step(carry, d):
        V_x, V_xx = carry
        A, B, l_x, l_u, l_xx, l_uu, l_ux = d
        Q_x = l_x + A.T @ V_x
        Q_u = l_u + B.T @ V_x
        Q_xx = l_xx + A.T @ V_xx @ A
        Q_uu = l_uu + B.T @ V_xx @ B + reg * jnp.eye(1)
        Q_ux = l_ux + B.T @ V_xx @ A
        k = -jnp.linalg.solve(Q_uu, Q_u)
        K = -jnp.linalg.solve(Q_uu, Q_ux)
        V_x = Q_x + K.T @ Q_uu @ k + K.T @ Q_u + Q_ux.T @ k
        V_xx = Q_xx + K.T @ Q_uu @ K + K.T @ Q_ux + Q_ux.T @ K
        return (V_x, 0.5 * (V_xx + V_xx.T)), (k, K)

    _, (ks, Ks) = lax.scan(step, (V_x, V_xx), derivs, reverse=True)
    return ks, Ks


def forward(x0, xs, us, ks, Ks, alpha):
    def step(x, inp):
        x_ref, u, k, K = inp
        u_new = u + alpha * k + K @ (x - x_ref)
        return dynamics(x, u_new), (x, u_new)
    xT, (xn, un) = lax.scan(step, x0, (xs[:-1], us, ks, Ks))
    xn = jnp.concatenate([xn, xT[None]])
    return xn, un, total_cost(xn, un)


alphas = jnp.array([1.0, 0.5, 0.25, 0.1])


@jax.jit
def ilqr_iteration(x0, xs, us):
    ks, Ks = backward(xs, us, 1e-3)
    xn, un, costs = jax.vmap(forward, in_axes=(None, None, None, None, None, 0))(x0, xs, us, ks, Ks, alphas)
    best = jnp.argmin(costs)
    return xn[best], un[best], costs[best], best


x0 = jnp.array([0.0, 0.0])
us = jnp.zeros((H, 1))
xs = rollout(x0, us)
print("initial cost", total_cost(xs, us))
print("A0", fx(xs[:1], us[:1])[0], "B0", fu(xs[:1], us[:1])[0])
print("hessian luu", luu(xs[:1], us[:1])[0], "lxx", lxx(xs[:1], us[:1])[0])
for it in range(12):
    xs, us, cost, best = ilqr_iteration(x0, xs, us)
    if it % 3 == 0 or it == 11:
        print(f"iter {it} cost {cost:.5f} alpha {alphas[best]}")
print("final state", xs[-1])
print("max |u|", jnp.max(jnp.abs(us)))
print("consistent", jnp.allclose(rollout(x0, us), xs, atol=1e-5))
