"""Differentiable physics (as in DiffTaichi/Brax-style JAX research code): a 2-D mass-spring
system integrated by semi-implicit Euler in lax.fori_loop, ground contact by jnp.where, the
gradient of a target-distance loss w.r.t. the initial velocity and the spring actuation
through the whole rollout, checked against jvp and a finite difference, gradient descent on
the controls, and jax.checkpoint around the step for memory-light gradients."""

import jax
import jax.numpy as jnp
from jax import lax

pos0 = jnp.array([[0.0, 0.3], [0.2, 0.3], [0.1, 0.5], [0.3, 0.5]])
springs = jnp.array([[0, 1], [0, 2], [1, 2], [1, 3], [2, 3]])
rest = jnp.linalg.norm(pos0[springs[:, 0]] - pos0[springs[:, 1]], axis=1)
print("rest lengths", rest)
K, DAMP, DT, STEPS, G = 300.0, 0.5, 2e-3, 200, -9.8
mass = jnp.ones(4)


def forces(x, v, act, t):
    d = x[springs[:, 1]] - x[springs[:, 0]]
    length = jnp.linalg.norm(d, axis=1)
    target = rest * (1.0 + act * jnp.sin(20.0 * t))
    f = (K * (length - target))[:, None] * d / length[:, None]
    total = jnp.zeros_like(x).at[springs[:, 0]].add(f).at[springs[:, 1]].add(-f)
    return total + mass[:, None] * jnp.array([0.0, G]) - DAMP * v


def step(i, state, act):
    x, v = state
    a = forces(x, v, act, i * DT) / mass[:, None]
    v = v + DT * a
    below = x[:, 1] + DT * v[:, 1] < 0.0
    v = jnp.where(below[:, None], v * jnp.array([0.8, 0.0]), v)
    x = x + DT * v
    return x, v


def rollout(v0, act):
    return lax.fori_loop(0, STEPS, lambda i, s: step(i, s, act), (pos0, jnp.broadcast_to(v0, pos0.shape)))


def loss(v0, act):
    x, _ = rollout(v0, act)
    return jnp.sum((x.mean(0) - jnp.array([0.5, 0.2])) ** 2)


v0 = jnp.array([1.0, 0.5])
act = jnp.full(5, 0.1)
x, v = rollout(v0, act)
print("final x", x[:, 0], "upper y", x[2:, 1])
print("loss", loss(v0, act))
gv, ga = jax.grad(loss, argnums=(0, 1))(v0, act)
print("dL/dv0", gv)
print("dL/dact", ga)
_, jv = jax.jvp(lambda v: loss(v, act), (v0,), (jnp.array([1.0, 0.0]),))
h = 1e-3
fd = (loss(v0 + jnp.array([h, 0.0]), act) - loss(v0 - jnp.array([h, 0.0]), act)) / (2 * h)
print("jvp", jv, "matches grad", jnp.allclose(jv, gv[0], rtol=1e-4),
      "fd close", bool(jnp.abs(fd - gv[0]) < 1e-2))


def rollout_ckpt(v0, act):
    body = jax.checkpoint(lambda i, s: step(i, s, act))
    return lax.fori_loop(0, STEPS, body, (pos0, jnp.broadcast_to(v0, pos0.shape)))


g2 = jax.grad(lambda v: jnp.sum(rollout_ckpt(v, act)[0].mean(0)))(v0)
g1 = jax.grad(lambda v: jnp.sum(rollout(v, act)[0].mean(0)))(v0)
print("checkpointed grad", g2, "same", jnp.allclose(g1, g2, rtol=1e-5))

opt = jax.jit(jax.value_and_grad(loss, argnums=(0, 1)))
for it in range(10):
    val, (gv, ga) = opt(v0, act)
    v0, act = v0 - 0.5 * gv, act - 0.5 * ga
    if it % 3 == 0:
        print(f"iter {it} loss {val:.6f}")
print("optimized v0", v0, "act", act)
