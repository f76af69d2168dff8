"""A neural ODE fitted with jax.experimental.ode.odeint (gradients by the adjoint method),
plus odeint on a damped oscillator checked against its closed form."""

import jax
import jax.numpy as jnp
from jax.experimental.ode import odeint


def oscillator(state, t, gamma, omega):
    x, v = state
    return jnp.stack([v, -2 * gamma * v - omega ** 2 * x])


ts = jnp.linspace(0.0, 5.0, 6)
sol = odeint(oscillator, jnp.array([1.0, 0.0]), ts, 0.1, 2.0, rtol=1e-8, atol=1e-8)
wd = jnp.sqrt(2.0 ** 2 - 0.1 ** 2)
exact = jnp.exp(-0.1 * ts) * (jnp.cos(wd * ts) + 0.1 / wd * jnp.sin(wd * ts))
print(sol[:, 0])
print("max error", float(jnp.max(jnp.abs(sol[:, 0] - exact))) < 1e-4)
print(jax.grad(lambda g: odeint(oscillator, jnp.array([1.0, 0.0]), ts, g, 2.0)[-1, 0])(0.1))


def init_mlp(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [(jax.random.normal(k, (m, n)) / jnp.sqrt(m), jnp.zeros(n))
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def mlp(params, x):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def dynamics(y, t, params):
    return mlp(params, jnp.concatenate([y, jnp.array([t])]))


t_obs = jnp.linspace(0.0, 1.5, 10)
y0 = jnp.array([1.0, 0.0])
target = jnp.stack([jnp.cos(2 * t_obs), -2 * jnp.sin(2 * t_obs)], axis=1)


def loss(params):
    pred = odeint(dynamics, y0, t_obs, params)
    return jnp.mean((pred - target) ** 2)


params = init_mlp(jax.random.PRNGKey(0), [3, 16, 2])
print("initial loss", loss(params))
grads = jax.grad(loss)(params)
print("grad norms", [float(jnp.linalg.norm(g)) for w_b in grads for g in w_b])

update = jax.jit(lambda p: jax.tree_util.tree_map(lambda a, g: a - 0.05 * g, p, jax.grad(loss)(p)))
for step in range(30):
    params = update(params)
    if step % 10 == 9:
        print(f"step {step + 1:2d} loss {float(loss(params)):.6f}")

batched = jax.vmap(lambda y: odeint(lambda y, t: -y * t, y, jnp.array([0.0, 1.0]))[-1])
print(batched(jnp.array([1.0, 2.0, -1.0])), jnp.exp(-0.5))
