"""Option pricing and Greeks with JAX as quant tutorials write it: Black-Scholes prices by
jax.scipy.stats.norm.cdf, delta/vega/rho/theta by jax.grad with argnums, gamma and vanna by
jax.hessian; implied volatility by Newton's method in lax.while_loop and its derivative by
jax.custom_jvp through the implicit function theorem; Monte Carlo pricing under geometric
Brownian motion with antithetic normals and pathwise Greeks; an Euler-Maruyama Heston path
simulation by lax.scan with split keys; and a vmapped smile over strikes."""

import jax
import jax.numpy as jnp
from jax.scipy.stats import norm

jnp.set_printoptions(precision=5, suppress=True)


def bs_call(S, K, T, r, sigma):
    d1 = (jnp.log(S / K) + (r + 0.5 * sigma**2) * T) / (sigma * jnp.sqrt(T))
    d2 = d1 - sigma * jnp.sqrt(T)
    return S * norm.cdf(d1) - K * jnp.exp(-r * T) * norm.cdf(d2)


S, K, T, r, sigma = 100.0, 105.0, 0.75, 0.03, 0.22
price = bs_call(S, K, T, r, sigma)
print(f"price {float(price):.6f}")
delta, vega, rho = jax.grad(bs_call, argnums=(0, 4, 3))(S, K, T, r, sigma)
theta = -jax.grad(bs_call, argnums=2)(S, K, T, r, sigma)
print(f"delta {float(delta):.6f} vega {float(vega):.6f} rho {float(rho):.6f} theta {float(theta):.6f}")
d1 = (jnp.log(S / K) + (r + 0.5 * sigma**2) * T) / (sigma * jnp.sqrt(T))
print(f"analytic delta {float(norm.cdf(d1)):.6f} vega {float(S * norm.pdf(d1) * jnp.sqrt(T)):.6f}")
H = jax.hessian(bs_call, argnums=(0, 4))(S, K, T, r, sigma)
# (volga is a difference of terms ~100 times larger: float32 keeps ~4 digits of it)
print(f"gamma {float(H[0][0]):.6f} vanna {float(H[0][1]):.6f} volga {float(H[1][1]):.3f}")
volga = S * norm.pdf(d1) * jnp.sqrt(T) * d1 * (d1 - sigma * jnp.sqrt(T)) / sigma
print("volga analytic:", bool(jnp.allclose(H[1][1], volga, rtol=1e-3)))

# put-call parity through vmapped prices
strikes = jnp.linspace(80.0, 120.0, 5)
calls = jax.vmap(bs_call, in_axes=(None, 0, None, None, None))(S, strikes, T, r, sigma)
puts = calls - S + strikes * jnp.exp(-r * T)
print("calls", calls)
print("puts ", puts)


@jax.custom_jvp
def implied_vol(price, S, K, T, r):
    def cond(state):
        s, i = state
        return (jnp.abs(bs_call(S, K, T, r, s) - price) > 1e-10) & (i < 50)

    def body(state):
        s, i = state
        f = bs_call(S, K, T, r, s) - price
        v = jax.grad(bs_call, argnums=4)(S, K, T, r, s)
        return s - f / v, i + 1

    s, _ = jax.lax.while_loop(cond, body, (jnp.asarray(0.5, jnp.result_type(float)), 0))
    return s


@implied_vol.defjvp
def implied_vol_jvp(primals, tangents):
    price, S, K, T, r = primals
    dprice, dS, dK, dT, dr = tangents
    s = implied_vol(price, S, K, T, r)
    grads = jax.grad(bs_call, argnums=(0, 1, 2, 3, 4))(S, K, T, r, s)
    vega = grads[4]
    rhs = dprice - grads[0] * dS - grads[1] * dK - grads[2] * dT - grads[3] * dr
    return s, rhs / vega


iv = implied_vol(price, S, K, T, r)
print(f"implied vol {float(iv):.6f}")
print(f"d iv / d price {float(jax.grad(implied_vol)(price, S, K, T, r)):.6f} = 1/vega {1 / float(vega):.6f}")
print(f"d iv / d S {float(jax.grad(implied_vol, argnums=1)(price, S, K, T, r)):.6f}")
smile_prices = calls + jnp.array([0.5, 0.2, 0.0, 0.1, 0.4])
ivs = jax.vmap(implied_vol, in_axes=(0, None, 0, None, None))(smile_prices, S, strikes, T, r)
print("smile", ivs)


# Monte Carlo with antithetic variates; pathwise delta and vega
def mc_call(S, sigma, key, n=20000):
    z = jax.random.normal(key, (n // 2,))
    z = jnp.concatenate([z, -z])
    ST = S * jnp.exp((r - 0.5 * sigma**2) * T + sigma * jnp.sqrt(T) * z)
    return jnp.exp(-r * T) * jnp.mean(jnp.maximum(ST - K, 0.0))


key = jax.random.PRNGKey(42)
mc, (mc_delta, mc_vega) = jax.value_and_grad(mc_call, argnums=(0, 1))(S, sigma, key)
print(f"mc price {float(mc):.4f} delta {float(mc_delta):.4f} vega {float(mc_vega):.3f}")


# Heston model by Euler-Maruyama (full truncation) in lax.scan
def heston_paths(key, S0=100.0, v0=0.04, kappa=1.5, theta=0.04, xi=0.3, rho=-0.7, steps=50, n=2000):
    dt = T / steps

    def step(carry, k):
        s, v = carry
        k1, k2 = jax.random.split(k)
        z1 = jax.random.normal(k1, (n,))
        z2 = rho * z1 + jnp.sqrt(1 - rho**2) * jax.random.normal(k2, (n,))
        vp = jnp.maximum(v, 0.0)
        s = s * jnp.exp((r - 0.5 * vp) * dt + jnp.sqrt(vp * dt) * z1)
        v = v + kappa * (theta - vp) * dt + xi * jnp.sqrt(vp * dt) * z2
        return (s, v), jnp.mean(s)

    (s, v), means = jax.lax.scan(step, (jnp.full((n,), S0), jnp.full((n,), v0)), jax.random.split(key, steps))
    return s, v, means


s_T, v_T, means = jax.jit(heston_paths)(jax.random.PRNGKey(7))
print(f"heston mean S_T {float(s_T.mean()):.3f} forward {100 * float(jnp.exp(r * T)):.3f}")
print(f"heston call {float(jnp.exp(-r * T) * jnp.maximum(s_T - K, 0).mean()):.3f}")
print("mean path every 10", means[::10])
