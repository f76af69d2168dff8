"""jit of loops over tiny states (issue 16): ODE integrators, scalar Newton and fixed-point
iterations, a small Kalman filter, a scalar while loop -- forward and gradient, against
``jax.jit`` of the same function.  ``n`` (steps) is an attribute so that the CI smoke run
(`tests/test_bench_loops.py`) can run them tiny."""

from __future__ import annotations

import numpy as np

from . import block, register
from .workloads import _JitVsJax


class _Loop(_JitVsJax):
    """One ``_run(lib, numpy_module, lax)`` for fgrad and jax (float32, jax's default)."""

    rtol, atol = 1e-5, 1e-6
    notes = {"jax": "`jax.jit`, same function"}


def _outs(*xs):
    return [np.asarray(block(x)) for x in xs]


def rk4_loss(m, lax, n: int):
    """``k -> |y(T)|^2`` for the damped oscillator ``y'' = -k y - 0.1 y'`` integrated by RK4
    over ``n`` steps of 0.01 from ``y0`` (a 2-vector)."""
    def loss(k, y0):
        def f(y):
            return m.stack([y[1], -k * y[0] - 0.1 * y[1]])

        def step(y, _):
            h = 0.01
            k1 = f(y)
            k2 = f(y + h / 2 * k1)
            k3 = f(y + h / 2 * k2)
            k4 = f(y + h * k3)
            return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4), None

        y, _ = lax.scan(step, y0, None, length=n)
        return m.sum(y ** 2)

    return loss


@register
class LoopRK4(_Loop):
    name = "loop_rk4"
    short = "jit: RK4 scan, 2-vector"
    title = "`jit` of an RK4 `lax.scan` of a 2-vector ODE, 1,000 steps (float32)"
    goals = [("jax", 30.0)]
    n = 1000

    def _run(self, lib, m, lax):
        f = lib.jit(rk4_loss(m, lax, self.n))
        k, y0 = m.asarray(np.float32(2.0)), m.asarray(np.array([1.0, 0.0], np.float32))
        return lambda: _outs(f(k, y0))


@register
class LoopRK4Grad(_Loop):
    name = "loop_rk4_grad"
    short = "jit: RK4 scan, value_and_grad"
    title = ("`jit(value_and_grad)` of an RK4 `lax.scan` of a 2-vector ODE w.r.t. its stiffness, "
             "1,000 steps (float32)")
    goals = [("jax", 30.0)]
    n = 1000
    dtype = np.float32

    def _run(self, lib, m, lax):
        f = lib.jit(lib.value_and_grad(rk4_loss(m, lax, self.n)))
        k, y0 = m.asarray(self.dtype(2.0)), m.asarray(np.array([1.0, 0.0], self.dtype))
        return lambda: _outs(*f(k, y0))


@register
class LoopRK4GradF64(LoopRK4Grad):
    name = "loop_rk4_grad_f64"
    short = "jit: RK4 scan, value_and_grad, f64"
    title = ("`jit(value_and_grad)` of an RK4 `lax.scan` of a 2-vector ODE w.r.t. its stiffness, "
             "1,000 steps (float64)")
    jax_x64 = True
    rtol, atol = 1e-12, 1e-14
    dtype = np.float64


def newton_fixed_point(m, lax, n: int):
    """``a -> (sqrt(a) by n Newton steps, the fixed point of cos by n steps from a)``: two
    scalar `fori_loop`s."""
    def solve(a):
        root = lax.fori_loop(0, n, lambda i, x: 0.5 * (x + a / x), a)
        fixed = lax.fori_loop(0, n, lambda i, x: m.cos(x), a)
        return root, fixed

    return solve


@register
class LoopNewtonScalar(_Loop):
    name = "loop_newton_scalar"
    short = "jit: scalar fori_loops"
    title = ("`jit` of two scalar `fori_loop`s: Newton's square root and the fixed point of cos, "
             "100 steps each (float32)")
    goals = [("jax", 30.0)]
    n = 100

    def _run(self, lib, m, lax):
        f = lib.jit(newton_fixed_point(m, lax, self.n))
        a = m.asarray(np.float32(2.0))
        return lambda: _outs(*f(a))


def kalman_nll(m, lax):
    """``(q, zs) -> negative log-likelihood`` of a constant-velocity Kalman filter (state:
    position and velocity, written out as scalars) over the observations ``zs``."""
    def nll(q, zs):
        def step(carry, z):
            x, v, p00, p01, p11 = carry
            # predict (dt = 1): x += v, P = F P F^T + Q
            x, p00, p01 = x + v, p00 + 2 * p01 + p11 + q, p01 + p11
            p11 = p11 + q
            s = p00 + 0.5  # innovation variance (observation noise 0.5)
            r = z - x
            g0, g1 = p00 / s, p01 / s
            x, v = x + g0 * r, v + g1 * r
            p00, p01, p11 = (1 - g0) * p00, (1 - g0) * p01, p11 - g1 * p01
            return (x, v, p00, p01, p11), 0.5 * (m.log(s) + r * r / s)

        zero = m.zeros((), zs.dtype)
        one = m.ones((), zs.dtype)
        _, terms = lax.scan(step, (zero, zero, one, zero, one), zs)
        return m.sum(terms)

    return nll


@register
class LoopKalman(_Loop):
    name = "loop_kalman_grad"
    short = "jit: Kalman filter scan, grad"
    title = ("`jit(value_and_grad)` of a 2-state Kalman filter's log-likelihood over `lax.scan`, "
             "200 observations, w.r.t. the process noise (float32)")
    goals = [("jax", 30.0)]
    rtol, atol = 1e-4, 1e-5  # a sum of 200 terms
    n = 200

    def setup(self):
        rng = np.random.default_rng(0)
        self.zs = np.cumsum(0.1 + 0.3 * rng.standard_normal(self.n)).astype(np.float32)

    def _run(self, lib, m, lax):
        f = lib.jit(lib.value_and_grad(kalman_nll(m, lax)))
        q, zs = m.asarray(np.float32(0.1)), m.asarray(self.zs)
        return lambda: _outs(*f(q, zs))


def while_bisect(m, lax):
    """``a -> the cube root of a`` by bisection on [0, max(1, a)] until the bracket is under
    1e-6: a `while_loop` over three scalars."""
    def solve(a):
        def cond(c):
            lo, hi, i = c
            return (hi - lo > 1e-6) & (i < 100)

        def body(c):
            lo, hi, i = c
            mid = 0.5 * (lo + hi)
            below = mid * mid * mid < a
            return m.where(below, mid, lo), m.where(below, hi, mid), i + 1

        lo, hi, i = lax.while_loop(cond, body, (m.zeros_like(a), m.maximum(a, 1.0), 0))
        return 0.5 * (lo + hi), i

    return solve


@register
class LoopWhileScalar(_Loop):
    name = "loop_while_scalar"
    short = "jit: scalar while_loop"
    title = "`jit` of a `lax.while_loop` bisection for a cube root, scalar carry (float32)"
    goals = [("jax", 10.0)]

    def _run(self, lib, m, lax):
        f = lib.jit(while_bisect(m, lax))
        a = m.asarray(np.float32(5.0))
        return lambda: _outs(*f(a))


def ode_loss(lib, m):
    """``(k, y0) -> sum of y(t)^2`` at 5 times for the damped oscillator ``y'' = -k y - 0.1 y'``
    by ``odeint`` (adaptive Dormand-Prince, adjoint gradient).  The dynamics are one function
    for every call (JAX's traces are cached on it), taking ``k`` as an argument and closing
    over the damping array."""
    ode = __import__(f"{lib.__name__}.experimental.ode", fromlist=["odeint"])
    damping = m.asarray(np.float32(0.1))

    def f(y, t, k):
        return m.stack([y[1], -k * y[0] - damping * y[1]])

    def loss(k, y0):
        ys = ode.odeint(f, y0, m.linspace(0.0, 2.0, 5, dtype=y0.dtype), k)
        return m.sum(ys ** 2)

    return loss


@register
class OdeintGradEager(_Loop):
    name = "ode_grad_eager"
    short = "eager: odeint value_and_grad"
    title = ("eager `value_and_grad` of `odeint` (a 2-state damped oscillator, 5 output times, "
             "adjoint gradient) w.r.t. the stiffness (float32)")
    goals = [("jax", 5.0)]
    notes = {"jax": "`jax.value_and_grad`, same function, not jitted"}
    rtol, atol = 1e-4, 1e-5  # adaptive steps: XLA's float32 arithmetic may choose others

    def _run(self, lib, m, lax):
        f = lib.value_and_grad(ode_loss(lib, m))
        k, y0 = m.asarray(np.float32(2.0)), m.asarray(np.array([1.0, 0.0], np.float32))
        return lambda: _outs(*f(k, y0))
