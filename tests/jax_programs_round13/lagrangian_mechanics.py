"""Lagrangian mechanics by automatic differentiation (as in "Lagrangian Neural Networks",
Cranmer et al., whose JAX code this follows): the equations of motion
q_tt = (d2L/dq_t2)^-1 (dL/dq - d2L/dq_t dq q_t) computed with jax.hessian, jax.jacobian
and jnp.linalg.pinv for a double pendulum, checked against the analytic accelerations,
integrated with a hand-written RK4 in lax.scan, energy conservation, and a Hamiltonian
version with jax.grad for a harmonic oscillator (symplectic leapfrog)."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def lagrangian(q, q_t, m1=1.0, m2=1.0, l1=1.0, l2=1.0, g=9.8):
    t1, t2 = q
    w1, w2 = q_t
    T1 = 0.5 * m1 * (l1 * w1) ** 2
    T2 = 0.5 * m2 * ((l1 * w1) ** 2 + (l2 * w2) ** 2 + 2 * l1 * l2 * w1 * w2 * jnp.cos(t1 - t2))
    V = -(m1 + m2) * g * l1 * jnp.cos(t1) - m2 * g * l2 * jnp.cos(t2)
    return T1 + T2 - V


def equation_of_motion(lagrangian, state, t=None):
    q, q_t = jnp.split(state, 2)
    q_tt = (jnp.linalg.pinv(jax.hessian(lagrangian, 1)(q, q_t))
            @ (jax.grad(lagrangian, 0)(q, q_t) - jax.jacobian(jax.jacobian(lagrangian, 1), 0)(q, q_t) @ q_t))
    return jnp.concatenate([q_t, q_tt])


def analytical_fn(state, m1=1.0, m2=1.0, l1=1.0, l2=1.0, g=9.8):
    t1, t2, w1, w2 = state
    a1 = (l2 / l1) * (m2 / (m1 + m2)) * jnp.cos(t1 - t2)
    a2 = (l1 / l2) * jnp.cos(t1 - t2)
    f1 = -(l2 / l1) * (m2 / (m1 + m2)) * (w2 ** 2) * jnp.sin(t1 - t2) - (g / l1) * jnp.sin(t1)
    f2 = (l1 / l2) * (w1 ** 2) * jnp.sin(t1 - t2) - (g / l2) * jnp.sin(t2)
    g1 = (f1 - a1 * f2) / (1 - a1 * a2)
    g2 = (f2 - a2 * f1) / (1 - a1 * a2)
    return jnp.stack([w1, w2, g1, g2])


state = jnp.array([3 * jnp.pi / 7, 3 * jnp.pi / 4, 0.0, 0.0])
auto = equation_of_motion(lagrangian, state)
print("autodiff", jnp.round(auto, 4))
print("analytic", jnp.round(analytical_fn(state), 4), jnp.allclose(auto, analytical_fn(state), atol=1e-4))
print("mass matrix", jnp.round(jax.hessian(lagrangian, 1)(state[:2], state[2:]), 4))


def rk4_step(f, y, dt):
    k1 = f(y)
    k2 = f(y + dt / 2 * k1)
    k3 = f(y + dt / 2 * k2)
    k4 = f(y + dt * k3)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


@partial(jax.jit, static_argnums=(1, 2))
def solve(y0, steps, use_autodiff):
    f = partial(equation_of_motion, lagrangian) if use_autodiff else analytical_fn
    return lax.scan(lambda y, _: (rk4_step(f, y, 0.01),) * 2, y0, None, length=steps)[1]


traj_auto = solve(state, 100, True)
traj_ana = solve(state, 100, False)
print("trajectories agree", jnp.allclose(traj_auto, traj_ana, atol=1e-3), traj_auto.shape)
print("angles at t=1", jnp.round(traj_auto[-1, :2], 3))


def total_energy(s):
    q, q_t = s[:2], s[2:]
    kinetic = lagrangian(q, q_t) - lagrangian(q, jnp.zeros(2))  # T = L(q, q_t) - L(q, 0)
    return kinetic - lagrangian(q, jnp.zeros(2))


E = jax.vmap(total_energy)(traj_auto)
print("energy", round(float(E[0]), 4), "drift", bool(jnp.max(jnp.abs(E - total_energy(state))) < 1e-3))


def hamiltonian(q, p, k=4.0, m=1.0):
    return p ** 2 / (2 * m) + 0.5 * k * q ** 2


def leapfrog(qp, _, dt=0.05):
    q, p = qp
    p = p - dt / 2 * jax.grad(hamiltonian, 0)(q, p)
    q = q + dt * jax.grad(hamiltonian, 1)(q, p)
    p = p - dt / 2 * jax.grad(hamiltonian, 0)(q, p)
    return (q, p), hamiltonian(q, p)


(qT, pT), Hs = lax.scan(leapfrog, (1.0, 0.0), None, length=200)
print("oscillator", round(float(qT), 4), round(float(pT), 4), "exact", round(float(jnp.cos(2.0 * 10.0)), 4))
print("H bounded", bool(jnp.max(jnp.abs(Hs - 2.0)) < 0.02), Hs.dtype)
