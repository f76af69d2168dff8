"""Stochastic differential equations as quantitative-finance and physics code writes them in
JAX: Euler-Maruyama for an Ornstein-Uhlenbeck process in lax.scan, vmapped over paths with
typed keys (jax.random.key, split), its stationary law against the exact transition density;
geometric Brownian motion by Euler-Maruyama and Milstein on the same Brownian increments,
coarse-grained by reshape-and-sum, their strong convergence orders fitted by jnp.polyfit on
a log-log scale; a Brownian bridge refinement; the weak error of E[S_T]; exit times of
Brownian motion from an interval by a vmapped lax.while_loop with random.fold_in per step
(E tau = 1); and a pathwise derivative of E[max(S_T - K, 0)] by jax.grad through the
simulation against Black-Scholes' delta (jax.scipy.stats.norm.cdf)."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.stats import norm

jnp.set_printoptions(precision=4, suppress=True)
root = random.key(2024)
k_ou, k_gbm, k_exit, k_bridge = random.split(root, 4)

# ---- Ornstein-Uhlenbeck: dX = theta (mu - X) dt + sigma dW
theta, mu, sigma = 2.0, 1.0, 0.5


def ou_path(key, x0, dt=0.01, steps=500):
    def step(x, dw):
        x = x + theta * (mu - x) * dt + sigma * dw
        return x, x

    dws = jnp.sqrt(dt) * random.normal(key, (steps,))
    return lax.scan(step, x0, dws)


finals, paths = jax.vmap(ou_path, in_axes=(0, None))(random.split(k_ou, 2000), 0.0)
print(f"OU at T=5: mean {float(finals.mean()):.3f} (mu {mu}), variance {float(finals.var()):.4f}",
      f"(sigma^2 / 2 theta = {sigma**2 / (2 * theta):.4f}, Euler: "
      f"{sigma**2 * 0.01 / (1 - (1 - theta * 0.01)**2):.4f})")
t = 0.5
exact_mean = mu * (1 - jnp.exp(-theta * t))
exact_var = sigma**2 / (2 * theta) * (1 - jnp.exp(-2 * theta * t))
print(f"X(0.5): sample mean {float(paths[:, 49].mean()):.3f} (exact {float(exact_mean):.3f}),",
      f"variance {float(paths[:, 49].var()):.4f} (exact {float(exact_var):.4f})")
lag = jnp.mean((paths[:, 200:-50] - mu) * (paths[:, 250:] - mu)) / jnp.mean((paths[:, 200:] - mu) ** 2)
print(f"autocorrelation at lag 0.5: {float(lag):.3f} (exp(-theta 0.5) = {float(jnp.exp(-theta * 0.5)):.3f})")

# ---- GBM: dS = r S dt + v S dW, strong orders of Euler-Maruyama and Milstein
r, v, S0, T = 0.05, 0.4, 1.0, 1.0
fine = 2**10
dW = jnp.sqrt(T / fine) * random.normal(k_gbm, (4000, fine))
exact = S0 * jnp.exp((r - 0.5 * v**2) * T + v * dW.sum(axis=1))


@partial(jax.jit, static_argnums=1)
def schemes(dW, coarsen):
    dWc = dW.reshape(dW.shape[0], -1, coarsen).sum(axis=2)
    dt = T * coarsen / fine

    def step(carry, dw):
        em, mil = carry
        em = em * (1 + r * dt + v * dw)
        mil = mil * (1 + r * dt + v * dw + 0.5 * v**2 * (dw**2 - dt))
        return (em, mil), None

    (em, mil), _ = lax.scan(step, (jnp.full(dW.shape[0], S0), jnp.full(dW.shape[0], S0)), dWc.T)
    return em, mil


steps, err_em, err_mil, weak = [], [], [], []
for coarsen in (64, 32, 16, 8, 4):
    em, mil = schemes(dW, coarsen)
    steps.append(fine // coarsen)
    err_em.append(jnp.mean(jnp.abs(em - exact)))
    err_mil.append(jnp.mean(jnp.abs(mil - exact)))
    weak.append(jnp.abs(em.mean() - S0 * jnp.exp(r * T)))
dts = T / jnp.array(steps, dtype=jnp.float32)
print("strong errors EM      ", " ".join(f"{float(e):.3e}" for e in err_em))
print("strong errors Milstein", " ".join(f"{float(e):.3e}" for e in err_mil))
order_em = jnp.polyfit(jnp.log(dts), jnp.log(jnp.array(err_em)), 1)[0]
order_mil = jnp.polyfit(jnp.log(dts), jnp.log(jnp.array(err_mil)), 1)[0]
print(f"fitted strong orders: EM {float(order_em):.2f} (theory 0.5), Milstein {float(order_mil):.2f} "
      f"(theory 1.0)")
print("weak error of E[S_T] below the Monte Carlo error:", bool(max(weak) < 3 * exact.std() / 63))

# ---- Brownian bridge: refine a coarse path by sampling midpoints
W_coarse = jnp.concatenate([jnp.zeros(1), jnp.cumsum(jnp.sqrt(0.25) * random.normal(k_bridge, (4,)))])
mids = 0.5 * (W_coarse[:-1] + W_coarse[1:]) + jnp.sqrt(0.25 / 4) * random.normal(random.fold_in(k_bridge, 1),
                                                                                 (4,))
W_fine = jnp.stack([W_coarse[:-1], mids], axis=1).ravel()
W_fine = jnp.append(W_fine, W_coarse[-1])
print("bridge keeps the coarse points:", bool(jnp.array_equal(W_fine[::2], W_coarse)), "path", W_fine)


# ---- exit time of Brownian motion from (-1, 1): E tau = 1
def exit_time(key, dt=1e-3):
    def cond(state):
        w, i = state
        return (jnp.abs(w) < 1.0) & (i < 20_000)

    def body(state):
        w, i = state
        return w + jnp.sqrt(dt) * random.normal(random.fold_in(key, i)), i + 1

    w, i = lax.while_loop(cond, body, (0.0, 0))
    return i * dt, jnp.sign(w)


taus, sides = jax.jit(jax.vmap(exit_time))(random.split(k_exit, 400))
print(f"mean exit time {float(taus.mean()):.3f} (exact 1, discretisation bias up), left/right "
      f"{int((sides < 0).sum())}/"
      f"{int((sides > 0).sum())}")


# ---- pathwise delta of a call option
def mc_call(s0, K=1.0):
    ST = s0 * jnp.exp((r - 0.5 * v**2) * T + v * dW.sum(axis=1))
    return jnp.exp(-r * T) * jnp.mean(jnp.maximum(ST - K, 0.0))


price, delta = jax.value_and_grad(mc_call)(S0)
d1 = (jnp.log(S0 / 1.0) + (r + 0.5 * v**2) * T) / (v * jnp.sqrt(T))
bs_price = S0 * norm.cdf(d1) - jnp.exp(-r * T) * norm.cdf(d1 - v * jnp.sqrt(T))
print(f"call price MC {float(price):.4f} vs Black-Scholes {float(bs_price):.4f};",
      f"pathwise delta {float(delta):.4f} vs N(d1) {float(norm.cdf(d1)):.4f}")
