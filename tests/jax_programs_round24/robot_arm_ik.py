"""Robot-arm kinematics as robotics research code writes it in JAX: forward kinematics of a
planar 4-link arm by a lax.scan over homogeneous transforms (a pytree of link parameters),
the geometric Jacobian by jax.jacfwd against the analytic one, damped-least-squares inverse
kinematics in lax.while_loop with a stopping tolerance and an iteration cap, a batch of
targets solved at once by jax.vmap (reachable and unreachable ones), Yoshikawa's
manipulability measure and its gradient for null-space motion, joint-limit handling with
jnp.clip, a straight-line Cartesian trajectory tracked by resolved-rate control in lax.scan,
and the static torques J^T F that hold a load."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)


class Arm(NamedTuple):
    lengths: jnp.ndarray
    lower: jnp.ndarray
    upper: jnp.ndarray


arm = Arm(lengths=jnp.array([1.0, 0.8, 0.6, 0.4]),
          lower=jnp.full(4, -2.6), upper=jnp.full(4, 2.6))


def transform(theta, length):
    c, s = jnp.cos(theta), jnp.sin(theta)
    return jnp.array([[c, -s, length * c], [s, c, length * s], [0.0, 0.0, 1.0]])


def joint_positions(arm, q):
    def link(T, ql):
        T = T @ transform(*ql)
        return T, T[:2, 2]

    T, points = lax.scan(link, jnp.eye(3), (q, arm.lengths))
    return T, points


def end_effector(arm, q):
    T, _ = joint_positions(arm, q)
    return jnp.array([T[0, 2], T[1, 2], jnp.arctan2(T[1, 0], T[0, 0])])


def analytic_jacobian(arm, q):
    angles = jnp.cumsum(q)
    dx = -jnp.cumsum((arm.lengths * jnp.sin(angles))[::-1])[::-1]
    dy = jnp.cumsum((arm.lengths * jnp.cos(angles))[::-1])[::-1]
    return jnp.stack([dx, dy, jnp.ones_like(q)])


q0 = jnp.array([0.3, -0.5, 0.8, 0.2])
J = jax.jacfwd(end_effector, argnums=1)(arm, q0)
print("end effector", end_effector(arm, q0))
print("jacfwd Jacobian\n", J)
print("matches analytic:", bool(jnp.allclose(J, analytic_jacobian(arm, q0), atol=1e-5)))
print("jacrev agrees:", bool(jnp.allclose(jax.jacrev(end_effector, argnums=1)(arm, q0), J, atol=1e-5)))


def position(arm, q):
    return end_effector(arm, q)[:2]


def solve_ik(arm, target, q_init, damping=0.3, tol=1e-4, max_iter=200):
    def error(q):
        return target - position(arm, q)

    def cond(state):
        q, i = state
        return (jnp.linalg.norm(error(q)) > tol) & (i < max_iter)

    def body(state):
        q, i = state
        Jp = jax.jacfwd(position, argnums=1)(arm, q)
        step = Jp.T @ jnp.linalg.solve(Jp @ Jp.T + damping**2 * jnp.eye(2), error(q))
        return jnp.clip(q + step, arm.lower, arm.upper), i + 1

    q, iters = lax.while_loop(cond, body, (q_init, 0))
    return q, iters, jnp.linalg.norm(error(q))


targets = jnp.array([[1.5, 1.0], [0.5, 2.0], [-1.2, 1.4], [2.2, -0.8], [3.5, 0.5]])
qs, iters, errs = jax.jit(jax.vmap(solve_ik, in_axes=(None, 0, None)))(arm, targets, q0)
reach = jnp.linalg.norm(targets, axis=1) < arm.lengths.sum()
for t, it, e, r in zip(targets, iters, errs, reach):
    print(f"target {t} reachable {bool(r)}: converged {bool(e < 1e-3)}, under 200 iterations {int(it) < 200}")
print("unreachable target: residual", f"{float(errs[-1]):.4f}",
      f"(distance beyond reach {float(jnp.linalg.norm(targets[-1]) - arm.lengths.sum()):.4f})")


def manipulability(q):
    Jp = jax.jacfwd(position, argnums=1)(arm, q)
    return jnp.sqrt(jnp.linalg.det(Jp @ Jp.T))


print(f"manipulability at q0 {float(manipulability(q0)):.4f}, stretched arm singular:",
      bool(manipulability(jnp.zeros(4)) < 1e-3))
# null-space motion raises manipulability without moving the end effector
q = qs[0]
for _ in range(20):
    Jp = jax.jacfwd(position, argnums=1)(arm, q)
    null = jnp.eye(4) - jnp.linalg.pinv(Jp) @ Jp
    q = q + 0.1 * null @ jax.grad(manipulability)(q)
print(f"null-space ascent: manipulability {float(manipulability(qs[0])):.4f} -> "
      f"{float(manipulability(q)):.4f},",
      "end effector moved", bool(jnp.linalg.norm(position(arm, q) - position(arm, qs[0])) > 1e-2))


@jax.jit
def track_line(q, start, stop):
    path = start + jnp.linspace(0.0, 1.0, 50)[:, None] * (stop - start)

    def step(q, goal):
        Jp = jax.jacfwd(position, argnums=1)(arm, q)
        q = q + jnp.linalg.pinv(Jp, rtol=1e-4) @ (goal - position(arm, q))
        return q, jnp.linalg.norm(goal - position(arm, q))

    return lax.scan(step, q, path)


q_start, *_ = solve_ik(arm, jnp.array([1.8, 0.4]), q0)
q_end, tracking = track_line(q_start, jnp.array([1.8, 0.4]), jnp.array([0.6, 1.6]))
print("tracking error: max below 1e-3", bool(tracking.max() < 1e-3), "final joints", q_end)
force = jnp.array([0.0, -9.81 * 2.0])
print("joint torques holding 2 kg:", jax.jacfwd(position, argnums=1)(arm, q_end).T @ force)
_, points = joint_positions(arm, q_end)
print("elbow positions\n", points)
