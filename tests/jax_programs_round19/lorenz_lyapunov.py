"""Chaos and sensitivity as in a dynamical-systems-in-JAX notebook: the Lorenz system
integrated by jax.experimental.ode.odeint (rtol/atol keywords, extra args) over a short
horizon, the gradient of a final-state objective wrt (sigma, rho, beta) by odeint's adjoint,
checked against forward-mode jacfwd through a fixed-step RK4 written with lax.scan; the
largest Lyapunov exponents by tangent propagation with jax.jvp / jax.linearize and QR
re-orthonormalisation in lax.fori_loop, vmapped over initial conditions."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental.ode import odeint

jnp.set_printoptions(precision=5, suppress=True)


def lorenz(state, t, sigma, rho, beta):
    x, y, z = state
    return jnp.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])


y0 = jnp.array([1.0, 1.0, 1.0])
params = (10.0, 28.0, 8.0 / 3.0)
ts = jnp.linspace(0.0, 0.5, 6)
traj = odeint(lorenz, y0, ts, *params, rtol=1e-6, atol=1e-8)
print("trajectory shape", traj.shape, traj.dtype)
print(traj[-1])


def rk4_solve(f, y0, dt, n, *args):
    def step(y, _):
        k1 = f(y, 0.0, *args)
        k2 = f(y + 0.5 * dt * k1, 0.0, *args)
        k3 = f(y + 0.5 * dt * k2, 0.0, *args)
        k4 = f(y + dt * k3, 0.0, *args)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return y, y
    return lax.scan(step, y0, None, length=n)


yT, path = rk4_solve(lorenz, y0, 0.005, 100, *params)
print("rk4 final", yT, "vs odeint close:", bool(jnp.allclose(yT, traj[-1], rtol=1e-3)))


def objective_ode(p):
    sol = odeint(lorenz, y0, jnp.array([0.0, 0.5]), *p, rtol=1e-8, atol=1e-8)
    return jnp.sum(sol[-1] ** 2)


def objective_rk4(p):
    yT, _ = rk4_solve(lorenz, y0, 0.0025, 200, *p)
    return jnp.sum(yT ** 2)


p = jnp.array(params)
g_adj = jax.grad(lambda p: objective_ode(tuple(p)))(p)
g_fwd = jax.jacfwd(lambda p: objective_rk4(tuple(p)))(p)
# (the adjoint's own digits are not printed: in float32 the adaptive steps' accept/reject
# decisions amplify rounding to ~1e-2 relative, in JAX as anywhere)
print("forward grad ", g_fwd)
print("agree to 1e-2 relative:", bool(jnp.allclose(g_adj, g_fwd, rtol=1e-2)))
J = jax.jacrev(lambda y: rk4_solve(lorenz, y, 0.005, 20, *params)[0])(y0)
print("flow Jacobian det", jnp.linalg.det(J), "expected", jnp.exp(-(params[0] + 1 + params[2]) * 0.1))


def lyapunov(y0, n_steps=400, dt=0.01, k=2):
    flow = lambda y: rk4_solve(lorenz, y, dt, 1, *params)[0]

    def body(i, carry):
        y, Q, acc = carry
        y_new, lin = jax.linearize(flow, y)
        V = jax.vmap(lin, in_axes=1, out_axes=1)(Q)
        Q, R = jnp.linalg.qr(V)
        signs = jnp.sign(jnp.diag(R))
        return y_new, Q * signs, acc + jnp.log(jnp.abs(jnp.diag(R)))

    Q0 = jnp.eye(3)[:, :k]
    y, Q, acc = lax.fori_loop(0, n_steps, body, (y0, Q0, jnp.zeros(k)))
    return acc / (n_steps * dt)


# a short transient keeps the chaotic amplification of rounding below float32's resolution
les = jax.jit(jax.vmap(lambda y: lyapunov(y, n_steps=60)))(jnp.array([[1.0, 1.0, 1.0], [-2.0, 3.0, 20.0]]))
print("finite-time Lyapunov exponents\n", les)
e_x = jnp.array([1.0, 0.0, 0.0])
tangent = jax.jvp(lambda y: rk4_solve(lorenz, y, 0.005, 40, *params)[0], (y0,), (e_x,))[1]
print("tangent after 0.2", tangent)
print("sum of exponents of the full spectrum (trace) =", -(params[0] + 1 + params[2]))
