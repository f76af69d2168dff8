"""A bootstrap particle filter (sequential Monte Carlo) for a nonlinear state-space model,
in the style of JAX SMC research code: simulation of the model with lax.scan and split keys,
propagation and weighting with jax.scipy.stats.norm.logpdf, multinomial resampling with
random.categorical and systematic resampling with searchsorted, effective sample size, the
log marginal likelihood estimate, and a Kalman filter as the exact reference on a linear
Gaussian version of the model."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.special import logsumexp
from jax.scipy.stats import norm

T, P = 25, 256
key = random.PRNGKey(0)


def transition(x, t, a):
    return a * x + 25 * x / (1 + x ** 2) * 0.0 + 0.5 * jnp.cos(1.2 * t)


def simulate(key, a, q, r):
    def step(x, inp):
        t, k = inp
        k1, k2 = random.split(k)
        x = transition(x, t, a) + q * random.normal(k1)
        y = x + r * random.normal(k2)
        return x, (x, y)
    _, (xs, ys) = lax.scan(step, 0.0, (jnp.arange(T, dtype=jnp.float32), random.split(key, T)))
    return xs, ys


a_true, q_true, r_true = 0.9, 0.5, 0.4
xs, ys = simulate(key, a_true, q_true, r_true)
print("observations", ys[:5])


def multinomial(key, logw):
    return random.categorical(key, logw, shape=(P,))


def systematic(key, logw):
    w = jnp.exp(logw - logsumexp(logw))
    u = (random.uniform(key) + jnp.arange(P)) / P
    return jnp.clip(jnp.searchsorted(jnp.cumsum(w), u), 0, P - 1)


def particle_filter(key, ys, a, q, r, resample):
    def step(carry, inp):
        particles, logw, loglik = carry
        t, y, k = inp
        k1, k2 = random.split(k)
        idx = resample(k1, logw)
        particles = transition(particles[idx], t, a) + q * random.normal(k2, (P,))
        logw = norm.logpdf(y, particles, r)
        loglik = loglik + logsumexp(logw) - jnp.log(P)
        w = jax.nn.softmax(logw)
        ess = 1.0 / jnp.sum(w ** 2)
        return (particles, logw, loglik), (jnp.sum(w * particles), ess)

    init = (jnp.zeros(P), jnp.zeros(P), 0.0)
    inputs = (jnp.arange(T, dtype=jnp.float32), ys, random.split(key, T))
    (_, _, loglik), (means, ess) = lax.scan(step, init, inputs)
    return loglik, means, ess


def kalman(ys, a, q, r):
    def step(carry, inp):
        m, v, ll = carry
        t, y = inp
        m, v = transition(m, t, a), a * a * v + q * q
        s = v + r * r
        ll = ll + norm.logpdf(y, m, jnp.sqrt(s))
        k = v / s
        return (m + k * (y - m), (1 - k) * v, ll), m + k * (y - m)
    (_, _, ll), means = lax.scan(step, (0.0, 0.0, 0.0), (jnp.arange(T, dtype=jnp.float32), ys))
    return ll, means


kll, kmeans = kalman(ys, a_true, q_true, r_true)
pf = jax.jit(particle_filter, static_argnums=5)
for name, res in [("multinomial", multinomial), ("systematic", systematic)]:
    ll, means, ess = pf(random.PRNGKey(1), ys, a_true, q_true, r_true, res)
    print(name, "loglik", ll, "kalman", kll)
    print("  max |mean - kalman|", jnp.max(jnp.abs(means - kmeans)), "min ESS", ess.min())

seeds = random.split(random.PRNGKey(2), 8)
lls = jax.vmap(lambda k: pf(k, ys, a_true, q_true, r_true, multinomial)[0])(seeds)
print("loglik over seeds", lls.mean(), lls.std())
grid = jnp.array([0.5, 0.7, 0.9, 1.1])
print("kalman profile", jax.vmap(lambda a: kalman(ys, a, q_true, r_true)[0])(grid))
print("d kalman ll / da", jax.grad(lambda a: kalman(ys, a, q_true, r_true)[0])(0.9))
draws = random.categorical(random.PRNGKey(5), jnp.log(jnp.array([0.1, 0.2, 0.7])), shape=(1000,))
print("categorical counts", jnp.bincount(draws, length=3))
