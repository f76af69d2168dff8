"""Bayesian logistic regression sampled by Langevin dynamics (as in the SGLD and MALA
tutorials and blackjax's examples): a log-posterior with a Gaussian prior written with
jax.nn.log_sigmoid, unadjusted Langevin (ULA) and stochastic-gradient Langevin with
minibatches drawn by random.choice without replacement, Metropolis-adjusted Langevin
(MALA) with its asymmetric proposal density, chains in lax.scan with vmap over keys,
posterior predictive probabilities, and effective-sample-size-free summaries."""

import numpy as np

import jax
import jax.numpy as jnp

kx, kw, kn = jax.random.split(jax.random.key(0), 3)
N, D = 200, 3
X = jnp.concatenate([jnp.ones((N, 1)), jax.random.normal(kx, (N, D - 1))], axis=1)
w_true = jnp.array([-0.5, 1.5, -2.0])
y = jax.random.bernoulli(kn, jax.nn.sigmoid(X @ w_true)).astype(jnp.float64)
print("positives", int(y.sum()))


def log_post(w, Xb=X, yb=y, scale=1.0):
    logits = Xb @ w
    ll = jnp.sum(yb * jax.nn.log_sigmoid(logits) + (1 - yb) * jax.nn.log_sigmoid(-logits))
    return scale * ll - 0.5 * jnp.sum(w ** 2) / 10.0


grad_lp = jax.grad(log_post)


def ula(key, w0, eps, n):
    def step(w, k):
        w = w + eps * grad_lp(w) + jnp.sqrt(2 * eps) * jax.random.normal(k, w.shape)
        return w, w
    return jax.lax.scan(step, w0, jax.random.split(key, n))[1]


def sgld(key, w0, eps, n, batch=20):
    def step(w, k):
        kb, kz = jax.random.split(k)
        idx = jax.random.choice(kb, N, (batch,), replace=False)
        g = jax.grad(log_post)(w, X[idx], y[idx], N / batch)
        w = w + 0.5 * eps * g + jnp.sqrt(eps) * jax.random.normal(kz, w.shape)
        return w, w
    return jax.lax.scan(step, w0, jax.random.split(key, n))[1]


def mala(key, w0, eps, n):
    def log_q(to, frm):
        mean = frm + eps * grad_lp(frm)
        return -jnp.sum((to - mean) ** 2) / (4 * eps)

    def step(w, k):
        kp, ku = jax.random.split(k)
        prop = w + eps * grad_lp(w) + jnp.sqrt(2 * eps) * jax.random.normal(kp, w.shape)
        log_a = log_post(prop) - log_post(w) + log_q(w, prop) - log_q(prop, w)
        accept = jnp.log(jax.random.uniform(ku)) < log_a
        w = jnp.where(accept, prop, w)
        return w, (w, accept)
    return jax.lax.scan(step, w0, jax.random.split(key, n))[1]


w0 = jnp.zeros(D)
samples = jax.jit(ula, static_argnums=3)(jax.random.key(1), w0, 2e-3, 2000)[500:]
print("ULA mean", np.round(np.asarray(samples.mean(0)), 4), "std", np.round(np.asarray(samples.std(0)), 4))
sg = jax.jit(sgld, static_argnums=3)(jax.random.key(2), w0, 1e-3, 2000)[500:]
print("SGLD mean", np.round(np.asarray(sg.mean(0)), 4))
(ms, acc) = jax.jit(mala, static_argnums=3)(jax.random.key(3), w0, 5e-3, 2000)
print("MALA mean", np.round(np.asarray(ms[500:].mean(0)), 4), "acceptance", round(float(acc.mean()), 4))
chains = jax.vmap(lambda k: ula(k, w0, 2e-3, 600)[-1])(jax.random.split(jax.random.key(4), 4))
print("chain ends", np.round(np.asarray(chains), 3).tolist())

x_new = jnp.array([[1.0, 0.5, -0.5], [1.0, -1.0, 1.0]])
pred = jnp.mean(jax.nn.sigmoid(samples @ x_new.T), axis=0)
print("posterior predictive", np.round(np.asarray(pred), 4))
w_map = w0
for _ in range(200):
    w_map = w_map + 0.01 * grad_lp(w_map)
print("MAP", np.round(np.asarray(w_map), 4), round(float(log_post(w_map)), 4))
H = jax.hessian(log_post)(w_map)
print("laplace std", np.round(np.asarray(jnp.sqrt(jnp.diag(jnp.linalg.inv(-H)))), 4))
print("quantiles w1", np.round(np.asarray(jnp.quantile(samples[:, 1], jnp.array([0.05, 0.5, 0.95]))), 4))
