"""An SIR epidemic model as epidemiology notebooks write it in JAX: the deterministic ODE by
jax.experimental.ode.odeint, fitting the log infection and recovery rates to noisy case counts
by gradient descent through odeint's adjoint, R0 and the final-size relation solved by Newton
iterations in lax.while_loop (differentiated by jacfwd), a stochastic tau-leaping simulation
with jax.random.binomial inside lax.scan with per-step keys from jax.random.split, an ensemble
by vmap over keys with extinction probability and quantile bands, and a Poisson log-likelihood via
jax.scipy.stats.poisson.logpmf."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental.ode import odeint
from jax.scipy.stats import poisson

jnp.set_printoptions(precision=4, suppress=True)
N = 1000.0


def sir(state, t, beta, gamma):
    s, i, r = state
    infect = beta * s * i / N
    return jnp.stack([-infect, infect - gamma * i, gamma * i])


ts = jnp.linspace(0.0, 60.0, 31)
y0 = jnp.array([995.0, 5.0, 0.0])
true = (0.5, 0.2)
traj = odeint(sir, y0, ts, *true, rtol=1e-8, atol=1e-8)
print("trajectory", traj.shape, traj.dtype, "conserved N:", bool(jnp.allclose(traj.sum(1), N, rtol=1e-5)))
print("peak infections", f"{float(traj[:, 1].max()):.2f}", "at t =", float(ts[jnp.argmax(traj[:, 1])]))

# observed new cases: Poisson noise on the drop of S between observation times
key = jax.random.PRNGKey(7)
k_obs, k_sim = jax.random.split(key)
incidence = -jnp.diff(traj[:, 0])
cases = jax.random.poisson(k_obs, incidence)
print("cases", cases[:10], cases.dtype)


def neg_log_lik(log_rates):
    beta, gamma = jnp.exp(log_rates)
    y = odeint(sir, y0, ts, beta, gamma, rtol=1e-6, atol=1e-6)
    lam = jnp.maximum(-jnp.diff(y[:, 0]), 1e-6)
    return -jnp.sum(poisson.logpmf(cases, lam))


theta = jnp.log(jnp.array([0.4, 0.25]))
print("initial nll", f"{float(neg_log_lik(theta)):.3f}")
value_and_grad = jax.jit(jax.value_and_grad(neg_log_lik))
g0 = value_and_grad(theta)[1]
eps = 1e-4
fd = jnp.array(
    [(neg_log_lik(theta + eps * e) - neg_log_lik(theta - eps * e)) / (2 * eps) for e in jnp.eye(2)]
)
print("adjoint gradient", g0, "central difference agrees:", bool(jnp.allclose(g0, fd, rtol=2e-2)))
lr = 2e-4
for _ in range(200):
    value, g = value_and_grad(theta)
    theta = theta - lr * g / (1.0 + jnp.linalg.norm(g) * lr)
beta_hat, gamma_hat = jnp.exp(theta)
print(
    "fitted beta",
    f"{float(beta_hat):.3f}",
    "gamma",
    f"{float(gamma_hat):.3f}",
    "R0",
    f"{float(beta_hat / gamma_hat):.3f}",
)
print(
    "nll",
    f"{float(neg_log_lik(theta)):.3f}",
    "at the truth",
    f"{float(neg_log_lik(jnp.log(jnp.array(true)))):.3f}",
)


def final_size(r0):
    """The fraction z that is eventually infected: z = 1 - exp(-R0 z), by Newton's method."""

    def cond(state):
        z, step, it = state
        return (jnp.abs(step) > 1e-6 * jnp.abs(z)) & (it < 50)

    def body(state):
        z, _, it = state
        f = z - 1 + jnp.exp(-r0 * z)
        df = 1 - r0 * jnp.exp(-r0 * z)
        step = f / df
        return z - step, step, it + 1

    z, _, its = lax.while_loop(cond, body, (jnp.asarray(0.9, r0.dtype), jnp.asarray(1.0, r0.dtype), 0))
    return z, its


r0s = jnp.array([1.5, 2.5, 4.0])
z, its = jax.vmap(final_size)(r0s)
print("final sizes", z, "newton converged in < 10 iterations:", bool(jnp.all(its < 10)))
print("ODE final size at R0=2.5", f"{float(traj[-1, 2] / N):.4f}", "(t=60, not yet final)")
# reverse mode cannot go through a while_loop; forward mode can
dz = jax.vmap(jax.jacfwd(lambda r: final_size(r)[0]))(r0s)
implicit = z * jnp.exp(-r0s * z) / (1 - r0s * jnp.exp(-r0s * z))
print("dz/dR0 through the Newton loop", dz, "implicit-function value", implicit)


def tau_leap(key, beta, gamma, steps=120, dt=0.5):
    def step(state, k):
        s, i, r = state
        k1, k2 = jax.random.split(k)
        p_inf = 1 - jnp.exp(-beta * i / N * dt)
        p_rec = 1 - jnp.exp(-gamma * dt)
        new_inf = jax.random.binomial(k1, s, p_inf)
        new_rec = jax.random.binomial(k2, i, p_rec)
        state = (s - new_inf, i + new_inf - new_rec, r + new_rec)
        return state, state[1]

    init = (jnp.asarray(995.0), jnp.asarray(5.0), jnp.asarray(0.0))
    (s, i, r), infected = lax.scan(step, init, jax.random.split(key, steps))
    return jnp.stack([s, i, r]), infected


final, infected = jax.jit(jax.vmap(tau_leap, in_axes=(0, None, None)))(jax.random.split(k_sim, 200), 0.5, 0.2)
print("ensemble", final.shape, infected.shape, "population kept:", bool(jnp.all(final.sum(1) == N)))
attack = final[:, 2] / N
extinct = jnp.mean(attack < 0.1)
print(
    "early extinction fraction",
    f"{float(extinct):.3f}",
    "(branching-process estimate",
    f"{float((0.2 / 0.5) ** 5):.4f})",
)
big = jnp.where(attack >= 0.1, attack, jnp.nan)
print(
    "attack rate of major outbreaks: mean",
    f"{float(jnp.nanmean(big)):.4f}",
    "quantiles",
    [f"{float(v):.3f}" for v in jnp.nanquantile(big, jnp.array([0.05, 0.5, 0.95]))],
)
band = jnp.quantile(infected, jnp.array([0.1, 0.5, 0.9]), axis=0)
print("infected band at t=10,20,30:\n", band[:, jnp.array([20, 40, 60])])
