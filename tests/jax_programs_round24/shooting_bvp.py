"""Boundary-value problems by the shooting method as fluid-mechanics and numerical-methods
notebooks write them in JAX: the Blasius boundary layer f''' + f f''/2 = 0 integrated by
jax.experimental.ode.odeint, the wall shear f''(0) found by Newton's method with the
derivative from jax.grad through odeint (its adjoint), the Falkner-Skan family's Newton solve
(lax.fori_loop) wrapped in jax.custom_vjp so that d f''(0) / d beta comes from the implicit
function theorem with both partials by jax.grad (checked by a central difference),
displacement and momentum thicknesses by jax.scipy.integrate.trapezoid, Sturm-Liouville
eigenvalues y'' + lambda y = 0 by shooting on lambda, and the period of a nonlinear pendulum
against the complete elliptic integral computed by an arithmetic-geometric mean in
lax.while_loop (its derivative by jax.jacfwd)."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental.ode import odeint
from jax.scipy.integrate import trapezoid

ETA = jnp.linspace(0.0, 10.0, 101)


def falkner_skan(y, eta, beta):
    f, fp, fpp = y
    return jnp.stack([fp, fpp, -0.5 * f * fpp - beta * (1.0 - fp**2)])


def far_field_miss(s, beta):
    y = odeint(falkner_skan, jnp.stack([0.0, 0.0, s]), ETA, beta, rtol=1e-8, atol=1e-8)
    return y[-1, 1] - 1.0


def newton(fun, s, steps=8):
    for i in range(steps):
        value, slope = jax.value_and_grad(fun)(s)
        s = s - value / slope
        if i < 2:  # later misses are float32 round-off
            print(f"  Newton {i}: s = {float(s):.6f}, miss {float(value):+.2e}")
    return s


print("Blasius:")
s_blasius = newton(lambda s: far_field_miss(s, 0.0), 0.5)
print(f"f''(0) = {float(s_blasius):.5f} (0.33206 in the literature)")
profile = odeint(falkner_skan, jnp.stack([0.0, 0.0, s_blasius]), ETA, 0.0, rtol=1e-8, atol=1e-8)
u = profile[:, 1]
delta_star = trapezoid(1.0 - u, ETA)
theta = trapezoid(u * (1.0 - u), ETA)
print(f"displacement thickness {float(delta_star):.3f}, momentum thickness {float(theta):.3f},",
      f"shape factor {float(delta_star / theta):.3f}")
print(f"99% thickness at eta = {float(ETA[jnp.argmax(u > 0.99)]):.1f}")


def _newton_fixed(beta, s):
    def body(_, s):
        value, slope = jax.value_and_grad(far_field_miss)(s, beta)
        return s - value / slope

    return lax.fori_loop(0, 8, body, s)


@jax.custom_vjp
def wall_shear(beta):
    return _newton_fixed(beta, 0.5)


def wall_shear_fwd(beta):
    s = _newton_fixed(beta, 0.5)
    return s, (s, beta)


def wall_shear_bwd(res, g):
    # implicit function theorem on F(s, beta) = 0: ds/dbeta = -F_beta / F_s (odeint is reverse-mode only)
    s, beta = res
    F_s, F_beta = jax.grad(far_field_miss, argnums=(0, 1))(s, beta)
    return (-g * F_beta / F_s,)


wall_shear.defvjp(wall_shear_fwd, wall_shear_bwd)


for beta in (0.0, 0.1, 0.3):
    print(f"Falkner-Skan beta={beta}: f''(0) = {float(wall_shear(beta)):.5f}")
d_shear = jax.grad(wall_shear)(0.1)
fd = (wall_shear(0.11) - wall_shear(0.09)) / 0.02
print(f"d f''(0) / d beta at 0.1: implicit {float(d_shear):.4f}, central difference {float(fd):.4f}")


# Sturm-Liouville: y'' + lambda y = 0, y(0) = 0, y'(0) = 1, shoot for y(pi) = 0
T_SL = jnp.linspace(0.0, jnp.pi, 33)


def sturm_liouville(y, t, lam):
    return jnp.stack([y[1], -lam * y[0]])


def end_value(lam):
    y = odeint(sturm_liouville, jnp.array([0.0, 1.0]), T_SL, lam, rtol=1e-9, atol=1e-9)
    return y[-1, 0]


eigenvalues = []
for guess in (0.8, 3.7, 8.6, 15.0):
    lam = guess
    for _ in range(8):
        lam = lam - end_value(lam) / jax.grad(end_value)(lam)
    eigenvalues.append(float(lam))
print("Sturm-Liouville eigenvalues", [round(e, 4) for e in eigenvalues], "(n^2)")


def agm(a, b):
    def body(ab):
        a, b = ab
        return (a + b) / 2, jnp.sqrt(a * b)

    return lax.while_loop(lambda ab: jnp.abs(ab[0] - ab[1]) > 1e-6 * ab[0], body, (a, b))[0]


def pendulum_period(amplitude):
    k = jnp.sin(amplitude / 2)
    return 2 * jnp.pi / agm(1.0, jnp.sqrt(1 - k**2))  # 4 K(k) with K = pi / (2 agm)


def pendulum(y, t):
    return jnp.stack([y[1], -jnp.sin(y[0])])


def quarter_period_by_shooting(amplitude):
    # time for theta to fall from the amplitude to 0, by Newton on the crossing time
    t = jnp.pi / 2
    for _ in range(6):
        y = odeint(pendulum, jnp.stack([amplitude, 0.0]), jnp.array([0.0, t]), rtol=1e-9, atol=1e-9)[-1]
        t = t - y[0] / y[1]  # d theta / dt = omega
    return t


for amp in (0.1, 1.0, 2.5):
    print(f"amplitude {amp}: period by AGM {float(pendulum_period(amp)):.5f},",
          f"by shooting {float(4 * quarter_period_by_shooting(amp)):.5f}")
print("period grows with amplitude: d T / d a at 1.0 by jacfwd (forward mode through while_loop) =",
      f"{float(jax.jacfwd(pendulum_period)(1.0)):.4f}")
