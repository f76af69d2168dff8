"""A Bayesian neural network trained by stochastic variational inference (Bayes by Backprop,
Blundell et al.), written with jax only: mean-field Gaussian posteriors with softplus scales,
the reparameterization trick, the analytic KL divergence to a N(0, 1) prior checked against a
Monte Carlo estimate with jax.scipy.stats.norm.logpdf, the ELBO averaged over samples by
vmap over keys, a hand-written Adam, and predictive mean/std from posterior samples."""

import jax
import jax.numpy as jnp
from jax import random
from jax.scipy.stats import norm

key = random.PRNGKey(2)
kx, kn, kp = random.split(key, 3)
X = jnp.linspace(-2, 2, 40)[:, None]
Y = jnp.sin(2 * X) + 0.1 * random.normal(kn, X.shape)
shapes = {"w1": (1, 16), "b1": (16,), "w2": (16, 1), "b2": (1,)}


def init(key):
    keys = dict(zip(shapes, random.split(key, len(shapes))))
    return {n: {"mu": 0.3 * random.normal(keys[n], s), "rho": jnp.full(s, -3.0)} for n, s in shapes.items()}


def sample_weights(q, key):
    keys = dict(zip(q, random.split(key, len(q))))
    return {n: v["mu"] + jax.nn.softplus(v["rho"]) * random.normal(keys[n], v["mu"].shape)
            for n, v in q.items()}


def net(w, x):
    return jnp.tanh(x @ w["w1"] + w["b1"]) @ w["w2"] + w["b2"]


def kl_gauss(q):
    def kl(v):
        s = jax.nn.softplus(v["rho"])
        return jnp.sum(0.5 * (s ** 2 + v["mu"] ** 2 - 1.0) - jnp.log(s))
    return sum(kl(v) for v in q.values())


def kl_mc(q, key, n=2000):
    def one(k):
        w = sample_weights(q, k)
        lq = sum(jnp.sum(norm.logpdf(w[name], q[name]["mu"], jax.nn.softplus(q[name]["rho"]))) for name in q)
        lp = sum(jnp.sum(norm.logpdf(w[name])) for name in q)
        return lq - lp
    return jnp.mean(jax.vmap(one)(random.split(key, n)))


def neg_elbo(q, key, n_samples=4):
    def ll(k):
        pred = net(sample_weights(q, k), X)
        return jnp.sum(norm.logpdf(Y, pred, 0.1))
    return -jnp.mean(jax.vmap(ll)(random.split(key, n_samples))) + kl_gauss(q) / 1.0


q = init(kp)
print("KL analytic", kl_gauss(q), "MC", kl_mc(q, random.PRNGKey(0)))
print("neg ELBO", neg_elbo(q, random.PRNGKey(1)))
g = jax.grad(neg_elbo)(q, random.PRNGKey(1))
print("grad rho b2", g["b2"]["rho"], "grad mu b2", g["b2"]["mu"])

state = (jax.tree.map(jnp.zeros_like, q), jax.tree.map(jnp.zeros_like, q))


@jax.jit
def step(q, state, t, key):
    loss, g = jax.value_and_grad(neg_elbo)(q, key)
    m, v = state
    m = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
    v = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
    q = jax.tree.map(lambda p, m, v: p - 0.02 * (m / (1 - 0.9 ** t))
                     / (jnp.sqrt(v / (1 - 0.999 ** t)) + 1e-8),
                     q, m, v)
    return q, (m, v), loss


key = random.PRNGKey(4)
for t in range(1, 81):
    key, sk = random.split(key)
    q, state, loss = step(q, state, t, sk)
    if t % 20 == 0:
        print(f"step {t} neg-elbo {loss:.3f}")

xt = jnp.array([[-3.0], [0.0], [0.5], [3.0]])
preds = jax.vmap(lambda k: net(sample_weights(q, k), xt))(random.split(random.PRNGKey(8), 64))
print("pred mean", preds.mean(0).ravel())
print("pred std", preds.std(0).ravel())
print("posterior scale w1", jax.nn.softplus(q["w1"]["rho"])[0, :4])
