"""A mixture density network (Bishop 1994) on the inverted-sine problem, as in JAX MDN
notebooks: the network outputs mixture logits, means and log-scales; the negative
log-likelihood through jax.scipy.stats.norm.logpdf and logsumexp (and
jax.scipy.special.logsumexp with b=), a hand-written Adam, sampling from the mixture with
random.categorical and per-sample keys, the mixture CDF via jax.scipy.stats.norm.cdf and a
quantile by bisection under vmap."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy import stats
from jax.scipy.special import logsumexp

K = 3
key = random.PRNGKey(1)
ky, kn, kp = random.split(key, 3)
y = random.uniform(ky, (200, 1), minval=-10.5, maxval=10.5)
x = 7.0 * jnp.sin(0.75 * y) + 0.5 * y + random.normal(kn, y.shape)
x, y = x / 10.0, y / 10.0


def init(key):
    k1, k2 = random.split(key)
    return {"w1": random.normal(k1, (1, 24)), "b1": jnp.zeros(24),
            "w2": random.normal(k2, (24, 3 * K)) * 0.1, "b2": jnp.zeros(3 * K)}


def mdn(p, x):
    h = jnp.tanh(x @ p["w1"] + p["b1"])
    out = h @ p["w2"] + p["b2"]
    logits, mu, log_sigma = jnp.split(out, 3, axis=-1)
    return jax.nn.log_softmax(logits), mu, log_sigma


def nll(p, x, y):
    logpi, mu, log_sigma = mdn(p, x)
    lp = stats.norm.logpdf(y, loc=mu, scale=jnp.exp(log_sigma))
    return -jnp.mean(logsumexp(logpi + lp, axis=-1))


def nll_b(p, x, y):
    logpi, mu, log_sigma = mdn(p, x)
    lp = stats.norm.logpdf(y, mu, jnp.exp(log_sigma))
    return -jnp.mean(logsumexp(lp, axis=-1, b=jnp.exp(logpi)))


p = init(kp)
print("nll", nll(p, x, y), "with b=", nll_b(p, x, y))
m = jax.tree.map(jnp.zeros_like, p)
v = jax.tree.map(jnp.zeros_like, p)


@jax.jit
def adam(p, m, v, t):
    g = jax.grad(nll)(p, x, y)
    m = jax.tree.map(lambda a, b: 0.9 * a + 0.1 * b, m, g)
    v = jax.tree.map(lambda a, b: 0.999 * a + 0.001 * b * b, v, g)
    p = jax.tree.map(lambda w, a, b: w - 0.01 * a / (1 - 0.9 ** t) / (jnp.sqrt(b / (1 - 0.999 ** t)) + 1e-8),
                     p, m, v)
    return p, m, v


for t in range(1, 101):
    p, m, v = adam(p, m, v, t)
    if t % 25 == 0:
        print(t, nll(p, x, y))

xs = jnp.linspace(-0.8, 0.8, 5)[:, None]
logpi, mu, log_sigma = mdn(p, xs)
print("weights", jnp.exp(logpi))
print("means", mu)


def sample(key, logpi, mu, log_sigma):
    kc, kn = random.split(key)
    c = random.categorical(kc, logpi)
    return mu[c] + jnp.exp(log_sigma[c]) * random.normal(kn)


keys = random.split(random.PRNGKey(9), 5)
print("samples", jax.vmap(sample)(keys, logpi, mu, log_sigma))
print("categorical shape", random.categorical(keys[0], logpi, axis=-1, shape=(2, 5)))


def cdf(yv, logpi, mu, log_sigma):
    return jnp.sum(jnp.exp(logpi) * stats.norm.cdf(yv, mu, jnp.exp(log_sigma)))


def quantile(q, logpi, mu, log_sigma):
    def body(_, lohi):
        lo, hi = lohi
        mid = (lo + hi) / 2
        below = cdf(mid, logpi, mu, log_sigma) < q
        return jnp.where(below, mid, lo), jnp.where(below, hi, mid)
    lo, hi = lax.fori_loop(0, 40, body, (jnp.array(-3.0), jnp.array(3.0)))
    return (lo + hi) / 2


med = jax.vmap(quantile, in_axes=(None, 0, 0, 0))(0.5, logpi, mu, log_sigma)
print("medians", med)
print("cdf at median", jax.vmap(cdf)(med, logpi, mu, log_sigma))
print("dcdf/dy = pdf", jax.grad(cdf)(med[2], logpi[2], mu[2], log_sigma[2]),
      jnp.sum(jnp.exp(logpi[2]) * stats.norm.pdf(med[2], mu[2], jnp.exp(log_sigma[2]))))
