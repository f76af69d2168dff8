"""Bayesian optimisation of a 1-D and a 2-D black box as BO tutorials write it in JAX: a GP
posterior by jax.scipy.linalg.cho_factor/cho_solve, kernel hyperparameters by maximising the
log marginal likelihood with jax.grad on log-parameters, the expected-improvement acquisition
from jax.scipy.stats.norm.cdf/pdf, its maximisation by a grid plus gradient-ascent polish
(jax.grad of the acquisition, vmapped multistart, jnp.clip to the box), upper confidence
bound for comparison, and a sequential loop that appends observations with jnp.concatenate."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import cho_factor, cho_solve
from jax.scipy.stats import norm

jnp.set_printoptions(precision=4, suppress=True)


def objective(x):
    return jnp.sin(3.0 * x[..., 0]) + 0.5 * x[..., 0] ** 2 - 0.3 * jnp.cos(5.0 * x[..., -1])


def kernel(a, b, log_ls, log_amp):
    d2 = jnp.sum((a[:, None, :] - b[None, :, :]) ** 2 / jnp.exp(2 * log_ls), axis=-1)
    return jnp.exp(2 * log_amp) * jnp.exp(-0.5 * d2)


def posterior(hyp, X, y, Xs):
    K = kernel(X, X, hyp["log_ls"], hyp["log_amp"]) + (jnp.exp(2 * hyp["log_noise"]) + 1e-4) * jnp.eye(
        X.shape[0]
    )
    c = cho_factor(K, lower=True)
    mean_y = jnp.mean(y)
    alpha = cho_solve(c, y - mean_y)
    Ks = kernel(Xs, X, hyp["log_ls"], hyp["log_amp"])
    mu = Ks @ alpha + mean_y
    v = cho_solve(c, Ks.T)
    var = jnp.exp(2 * hyp["log_amp"]) - jnp.sum(Ks * v.T, axis=1)
    return mu, jnp.sqrt(jnp.maximum(var, 1e-12))


def neg_mll(hyp, X, y):
    n = X.shape[0]
    K = kernel(X, X, hyp["log_ls"], hyp["log_amp"]) + (jnp.exp(2 * hyp["log_noise"]) + 1e-4) * jnp.eye(n)
    L, lower = cho_factor(K, lower=True)
    r = y - jnp.mean(y)
    alpha = cho_solve((L, lower), r)
    return 0.5 * r @ alpha + jnp.sum(jnp.log(jnp.diag(L))) + 0.5 * n * jnp.log(2 * jnp.pi)


@jax.jit
def fit_hyper(hyp, X, y):
    def step(h, _):
        g = jax.grad(neg_mll)(h, X, y)
        h = jax.tree.map(lambda p, d: p - 0.05 * jnp.clip(d, -10.0, 10.0), h, g)
        h["log_noise"] = jnp.clip(h["log_noise"], -3.0, 0.0)
        return h, None

    return jax.lax.scan(step, hyp, None, length=100)[0]


def expected_improvement(x, hyp, X, y, xi=0.01):
    mu, sd = posterior(hyp, X, y, x[None, :])
    best = jnp.min(y)
    z = (best - mu[0] - xi) / sd[0]
    return (best - mu[0] - xi) * norm.cdf(z) + sd[0] * norm.pdf(z)


def ucb(x, hyp, X, y, kappa=2.0):
    mu, sd = posterior(hyp, X, y, x[None, :])
    return -(mu[0] - kappa * sd[0])


def propose(hyp, X, y, lo, hi, key, acq=expected_improvement):
    d = X.shape[1]
    starts = jax.random.uniform(key, (16, d), minval=lo, maxval=hi)
    grad_acq = jax.grad(acq)

    def polish(x):
        def body(_, x):
            return jnp.clip(x + 0.05 * grad_acq(x, hyp, X, y) / (hi - lo), lo, hi)

        return jax.lax.fori_loop(0, 50, body, x)

    cands = jax.vmap(polish)(starts)
    values = jax.vmap(lambda c: acq(c, hyp, X, y))(cands)
    return cands[jnp.argmax(values)], jnp.max(values)


for d, budget in ((1, 5), (2, 10)):
    lo, hi = -2.0 * jnp.ones(d), 2.0 * jnp.ones(d)
    key = jax.random.PRNGKey(d)
    key, k0 = jax.random.split(key)
    X = jax.random.uniform(k0, (4, d), minval=lo, maxval=hi)
    y = objective(X)
    hyp = {"log_ls": jnp.zeros(d), "log_amp": jnp.asarray(0.0), "log_noise": jnp.asarray(-3.0)}
    print(f"--- {d}-D: initial best {float(y.min()):.4f}")
    for it in range(budget):
        hyp = fit_hyper(hyp, X, y)
        key, k = jax.random.split(key)
        x_new, ei = propose(hyp, X, y, lo, hi, k)
        X = jnp.concatenate([X, x_new[None]], axis=0)
        y = jnp.concatenate([y, objective(x_new)[None]])
        if it % 3 == 0 or it == budget - 1:
            print(
                f"iter {it}: EI {float(ei):.2e} best {float(y.min()):.4f} lengthscales",
                jnp.exp(hyp["log_ls"]),
            )
    print("observations", X.shape, "best x", X[jnp.argmin(y)])
    x_ucb, v = propose(hyp, X, y, lo, hi, key, acq=ucb)
    print("UCB would sample", x_ucb, "lower bound", f"{float(-v):.3f}")
    mu, sd = posterior(hyp, X, y, X)
    print(
        "posterior interpolates the data:",
        bool(jnp.max(jnp.abs(mu - y)) < 0.05),
        "max sd at data",
        f"{float(sd.max()):.3f}",
    )
