"""Differentiable billiards, as the differentiable-physics tutorials write event-driven
simulation in JAX: a ball on a rectangular table with restitution and rolling friction,
advanced from collision to collision by lax.while_loop, the next event (a wall, or coming to
rest) chosen by jnp.argmin over candidate times and the bounce applied by lax.cond; the
final position's derivative wrt the cue angle and speed by jax.jacfwd (forward mode through
while_loop), against central differences; a fixed-horizon lax.fori_loop version that reverse
mode can differentiate, with lax.switch over wall indices; and aiming a bank shot at a pocket
by Newton's method on the angle."""

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=5, suppress=True)

W, H = 2.0, 1.0  # table width and height
MU = 0.25  # deceleration from rolling friction
E = 0.9  # restitution at the cushions


def wall_distances(x, u):
    """Path length along the unit direction u to the first cushion in x and in y."""
    big = jnp.asarray(1e6, x.dtype)
    gap_x = jnp.where(u[0] > 0, W - x[0], x[0])
    gap_y = jnp.where(u[1] > 0, H - x[1], x[1])
    lx = jnp.where(u[0] != 0, gap_x / jnp.where(u[0] != 0, jnp.abs(u[0]), 1.0), big)
    ly = jnp.where(u[1] != 0, gap_y / jnp.where(u[1] != 0, jnp.abs(u[1]), 1.0), big)
    return jnp.stack([lx, ly])


def simulate(angle, speed, x0=jnp.array([0.5, 0.5]), max_events=20):
    """Constant deceleration MU: after a path length L the speed is sqrt(s^2 - 2 MU L)."""
    v0 = speed * jnp.stack([jnp.cos(angle), jnp.sin(angle)])

    def cond(state):
        x, v, k, done = state
        return jnp.logical_and(k < max_events, jnp.logical_not(done))

    def body(state):
        x, v, k, done = state
        s = jnp.linalg.norm(v)
        u = v / s
        l_stop = s**2 / (2 * MU)
        lw = wall_distances(x, u)
        which = jnp.argmin(lw)
        stops = l_stop <= lw[which]
        step = jnp.minimum(l_stop, lw[which])
        xn = x + u * step
        s_new = jnp.sqrt(jnp.maximum(s**2 - 2 * MU * step, 0.0))
        flip = jnp.where(which == 0, jnp.array([-E, 1.0]), jnp.array([1.0, -E]))
        vn = lax.cond(stops, lambda w: jnp.zeros_like(w), lambda w: w * flip, u * s_new)
        return xn, vn, k + 1, stops

    x, v, k, done = lax.while_loop(cond, body, (x0, v0, 0, False))
    return x, k


for angle in [0.3, 1.1, 2.5]:
    x, k = simulate(jnp.asarray(angle), jnp.asarray(2.0))
    print(f"angle {angle}: rest at {x} after {int(k)} events")

jac = jax.jacfwd(lambda p: simulate(p[0], p[1])[0])(jnp.array([0.3, 2.0]))
print("d rest / d (angle, speed)\n", jac)
h = 1e-3
fd = [(simulate(0.3 + h, 2.0)[0] - simulate(0.3 - h, 2.0)[0]) / (2 * h),
      (simulate(0.3, 2.0 + h)[0] - simulate(0.3, 2.0 - h)[0]) / (2 * h)]
print("central differences agree:", bool(jnp.allclose(jac, jnp.stack(fd, axis=1), rtol=2e-2, atol=2e-2)))


# a time-stepped version with a fixed number of steps: reverse mode works
def stepped(angle, speed, dt=0.02, n=450):
    x0 = jnp.array([0.5, 0.5])
    v0 = speed * jnp.stack([jnp.cos(angle), jnp.sin(angle)])

    def reflect(i, x, v):
        branches = [lambda x, v: (x.at[0].set(-x[0]), v * jnp.array([-E, 1.0])),
                    lambda x, v: (x.at[0].set(2 * W - x[0]), v * jnp.array([-E, 1.0])),
                    lambda x, v: (x.at[1].set(-x[1]), v * jnp.array([1.0, -E])),
                    lambda x, v: (x.at[1].set(2 * H - x[1]), v * jnp.array([1.0, -E])),
                    lambda x, v: (x, v)]
        return lax.switch(i, branches, x, v)

    def body(_, state):
        x, v = state
        s = jnp.sqrt(jnp.sum(v**2) + 1e-12)
        v = v * jnp.maximum(1.0 - MU * dt / s, 0.0)
        x = x + dt * v
        wall = jnp.select([x[0] < 0, x[0] > W, x[1] < 0, x[1] > H], [0, 1, 2, 3], 4)
        return reflect(wall, x, v)

    return lax.fori_loop(0, n, body, (x0, v0))[0]


xs = stepped(0.3, 2.0)
print("stepped rest", xs, "event-driven", simulate(0.3, 2.0)[0])
g = jax.jacrev(stepped, argnums=(0, 1))(0.3, 2.0)
print("jacrev stepped", jnp.stack(g, axis=1))
print("jacrev == jacfwd:", bool(jnp.allclose(jnp.stack(g, axis=1),
                                             jnp.stack(jax.jacfwd(stepped, argnums=(0, 1))(0.3, 2.0), axis=1),
                                             rtol=1e-4, atol=1e-5)))

# bank shot: aim so the ball comes to rest at a target (off a cushion), by Newton on the
# squared miss distance
target = jnp.array([1.25, 0.31])


def miss(angle):
    x, _ = simulate(angle, jnp.asarray(1.6))
    return jnp.sum((x - target) ** 2)


angle = jnp.asarray(0.8)
for it in range(6):
    g1 = jax.jacfwd(miss)(angle)
    g2 = jax.jacfwd(jax.jacfwd(miss))(angle)
    angle = angle - jnp.where(g2 > 0, g1 / g2, 0.1 * g1)
    if it % 2 == 1:
        print(f"newton {it}: angle {float(angle):.5f} miss {float(miss(angle)):.1e}")
print("batch of shots", jax.vmap(lambda a: simulate(a, jnp.asarray(2.0))[0])(jnp.linspace(0.1, 3.0, 4)))
