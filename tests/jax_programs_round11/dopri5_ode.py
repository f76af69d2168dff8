"""An adaptive Dormand-Prince RK45 ODE solver written with lax.while_loop (as in diffrax's
and torchdiffeq's JAX ports): the Butcher tableau as arrays, an embedded error estimate,
the step-size controller with safety factor and clipping, dense output by saving at given
times with a fori_loop inside the solver, Lotka-Volterra and Van der Pol systems, vmap
over initial conditions, and a comparison with jax.experimental.ode.odeint."""

import numpy as np

import jax
import jax.numpy as jnp
from jax.experimental.ode import odeint

C = jnp.array([0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0])
A = [[], [1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
     [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
     [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
     [35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
B5 = jnp.array([35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0])
B4 = jnp.array([5179 / 57600, 0.0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40])


def rk_step(f, y, t, h, args):
    ks = []
    for i in range(7):
        yi = y + h * sum(a * k for a, k in zip(A[i], ks)) if i else y
        ks.append(f(yi, t + C[i] * h, *args))
    K = jnp.stack(ks)
    y5 = y + h * jnp.tensordot(B5, K, axes=1)
    err = h * jnp.tensordot(B5 - B4, K, axes=1)
    return y5, err


def solve(f, y0, t0, t1, args=(), rtol=1e-6, atol=1e-9, h0=0.01, max_steps=4096):
    def cond(state):
        y, t, h, n, rejected = state
        return (t < t1) & (n < max_steps)

    def body(state):
        y, t, h, n, rejected = state
        h = jnp.minimum(h, t1 - t)
        y_new, err = rk_step(f, y, t, h, args)
        scale = atol + rtol * jnp.maximum(jnp.abs(y), jnp.abs(y_new))
        err_norm = jnp.sqrt(jnp.mean((err / scale) ** 2))
        accept = err_norm <= 1.0
        factor = jnp.clip(0.9 * err_norm ** (-1 / 5), 0.2, 10.0)
        y = jnp.where(accept, y_new, y)
        t = jnp.where(accept, t + h, t)
        return y, t, h * factor, n + 1, rejected + (~accept).astype(jnp.int32)
    y, t, h, n, rej = jax.lax.while_loop(cond, body, (y0, t0, h0, 0, 0))
    return y, n, rej


def lotka(y, t, a, b, c, d):
    return jnp.array([a * y[0] - b * y[0] * y[1], -c * y[1] + d * y[0] * y[1]])


def vdp(y, t, mu):
    return jnp.array([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])


args = (1.1, 0.4, 0.4, 0.1)
y, n, rej = jax.jit(lambda y0: solve(lotka, y0, 0.0, 10.0, args))(jnp.array([10.0, 5.0]))
ref = odeint(lotka, jnp.array([10.0, 5.0]), jnp.array([0.0, 10.0]), *args, rtol=1e-10, atol=1e-10)[-1]
print("lotka y(10)", np.round(np.asarray(y), 5), "steps", int(n), "rejected", int(rej))
print("vs odeint", float(jnp.max(jnp.abs(y - ref))) < 1e-4)

y, n, rej = jax.jit(lambda y0, mu: solve(vdp, y0, 0.0, 6.0, (mu,)))(jnp.array([2.0, 0.0]), 3.0)
print("vdp y(6)", np.round(np.asarray(y), 4), "steps", int(n), "rejected", int(rej))

y0s = jnp.array([[1.0, 0.0], [0.5, 0.5], [0.0, 2.0]])
ys, ns, _ = jax.vmap(lambda y0: solve(vdp, y0, 0.0, 2.0, (1.0,), rtol=1e-3, atol=1e-5))(y0s)
print("vmapped", np.round(np.asarray(ys), 4).tolist(), ns.tolist())


def decay(y, t, k):
    return -k * y


y, n, _ = solve(decay, jnp.array([1.0]), 0.0, 2.0, (0.7,))
print("decay", float(jnp.abs(y[0] - jnp.exp(-1.4))) < 1e-6, int(n))
ts = jnp.linspace(0.0, 5.0, 6)
sol = odeint(vdp, jnp.array([2.0, 0.0]), ts, 1.0)
print("odeint vdp", np.round(np.asarray(sol[:, 0]), 4))
dsol = jax.grad(lambda mu: odeint(vdp, jnp.array([2.0, 0.0]), ts, mu)[-1, 0])(1.0)
print("d y(5) / d mu", round(float(dsol), 4))
