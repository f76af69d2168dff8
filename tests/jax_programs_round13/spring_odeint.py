"""A spring-mass chain integrated with jax.experimental.ode.odeint (as in the "Physics with
JAX" examples): a pytree state (positions and velocities in a dict), extra arguments
passed through odeint, rtol/atol, energy conservation, the gradient of the final position
with respect to the spring constant against a finite difference, vmap over initial
displacements, a damped oscillator against its closed form, and jit around odeint."""

import jax
import jax.numpy as jnp
from jax.experimental.ode import odeint

N = 4


def forces(x, k, m):
    # fixed walls at both ends, unit rest spacing folded into displacements
    left = jnp.concatenate([jnp.zeros(1), x[:-1]])
    right = jnp.concatenate([x[1:], jnp.zeros(1)])
    return k * (left - 2 * x + right) / m


def dynamics(state, t, k, m):
    return {"x": state["v"], "v": forces(state["x"], k, m)}


def energy(state, k, m):
    x = jnp.concatenate([jnp.zeros(1), state["x"], jnp.zeros(1)])
    return 0.5 * jnp.sum(m * state["v"] ** 2) + 0.5 * k * jnp.sum(jnp.diff(x) ** 2)


x0 = jnp.array([0.3, 0.0, -0.1, 0.0])
state0 = {"x": x0, "v": jnp.zeros(N)}
ts = jnp.linspace(0.0, 6.0, 7)
masses = jnp.array([1.0, 2.0, 1.0, 0.5])
traj = odeint(dynamics, state0, ts, 3.0, masses, rtol=1e-8, atol=1e-8)
print(jax.tree.map(jnp.shape, traj))
print("x(t) of mass 0", jnp.round(traj["x"][:, 0], 4))
E = jax.vmap(energy, (0, None, None))(traj, 3.0, masses)
print("energy", jnp.round(E, 5), "drift small", bool(jnp.max(jnp.abs(E - E[0])) < 1e-4))


def final_x(k):
    return odeint(dynamics, state0, jnp.array([0.0, 2.0]), k, masses, rtol=1e-8, atol=1e-8)["x"][-1, 0]


g = jax.grad(final_x)(3.0)
fd = (final_x(3.0 + 1e-3) - final_x(3.0 - 1e-3)) / 2e-3
print("dx/dk", round(float(g), 4), "fd agrees", bool(jnp.abs(g - fd) < 1e-3))

amps = jnp.array([0.1, 0.2, 0.4])
batch = jax.vmap(lambda a: odeint(dynamics, {"x": a * x0, "v": jnp.zeros(N)}, ts, 3.0, masses,
                                  rtol=1e-8, atol=1e-8)["x"][-1])(amps)
print("linear in amplitude", jnp.allclose(batch[2], 4 * batch[0], atol=1e-5), batch.shape)


def damped(y, t, gamma, w):
    return jnp.array([y[1], -2 * gamma * y[1] - w ** 2 * y[0]])


solve = jax.jit(lambda gamma: odeint(damped, jnp.array([1.0, 0.0]), ts, gamma, 2.0))
ys = solve(0.1)
wd = jnp.sqrt(4.0 - 0.01)
exact = jnp.exp(-0.1 * ts) * (jnp.cos(wd * ts) + 0.1 / wd * jnp.sin(wd * ts))
print("damped", jnp.round(ys[:, 0], 4), "err small", bool(jnp.max(jnp.abs(ys[:, 0] - exact)) < 1e-4))
print("d y(T)/d gamma", round(float(jax.grad(lambda g: solve(g)[-1, 0])(0.1)), 4))
