"""Hamiltonian Monte Carlo written by hand (as in the "MCMC in JAX" blog posts and
blackjax's first versions): leapfrog with lax.fori_loop, Metropolis accept with
random.uniform, a lax.scan chain, an adaptive step via lax.while_loop (find a reasonable
epsilon), chains with vmap over split keys, and jax.scipy.stats log-densities."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.special import logsumexp
from jax.scipy.stats import multivariate_normal, norm

mu = jnp.array([1.0, -1.0])
cov = jnp.array([[1.0, 0.8], [0.8, 1.0]])


def logp(x):
    return multivariate_normal.logpdf(x, mu, cov)


def leapfrog(x, p, eps, n_steps):
    grad_logp = jax.grad(logp)
    p = p + 0.5 * eps * grad_logp(x)

    def body(i, state):
        x, p = state
        x = x + eps * p
        p = p + eps * grad_logp(x)
        return x, p

    x, p = lax.fori_loop(0, n_steps - 1, body, (x, p))
    x = x + eps * p
    p = p + 0.5 * eps * grad_logp(x)
    return x, p


def hmc_step(state, key, eps=0.2, n_steps=10):
    x, logp_x = state
    k_mom, k_acc = random.split(key)
    p0 = random.normal(k_mom, x.shape)
    x_new, p_new = leapfrog(x, p0, eps, n_steps)
    logp_new = logp(x_new)
    log_ratio = logp_new - 0.5 * p_new @ p_new - (logp_x - 0.5 * p0 @ p0)
    accept = jnp.log(random.uniform(k_acc)) < log_ratio
    x = jnp.where(accept, x_new, x)
    logp_x = jnp.where(accept, logp_new, logp_x)
    return (x, logp_x), (x, accept)


def run_chain(key, x0, n):
    keys = random.split(key, n)
    _, (xs, acc) = lax.scan(hmc_step, (x0, logp(x0)), keys)
    return xs, acc


xs, acc = jax.jit(run_chain, static_argnums=2)(random.PRNGKey(0), jnp.zeros(2), 200)
print("samples", xs.shape, xs.dtype)
print("first", xs[:3])
print("acceptance", acc.astype(xs.dtype).mean())  # (bool.mean() is float32 in JAX even with x64)
print("mean", xs[50:].mean(0))

# four chains
keys = random.split(random.PRNGKey(1), 4)
x0s = random.normal(random.PRNGKey(2), (4, 2)) * 3
chains, accs = jax.vmap(run_chain, in_axes=(0, 0, None))(keys, x0s, 100)
print("chains", chains.shape, accs.astype(chains.dtype).mean(1))
print("chain means", chains[:, 20:].mean(1))
# Gelman-Rubin R-hat
m, n = chains.shape[0], chains.shape[1] - 20
post = chains[:, 20:]
B = n * jnp.var(post.mean(1), axis=0, ddof=1)
W = jnp.mean(jnp.var(post, axis=1, ddof=1), axis=0)
print("rhat", jnp.sqrt(((n - 1) / n * W + B / n) / W))


# heuristic for a reasonable initial step size (Hoffman & Gelman 2014, algorithm 4)
def find_reasonable_epsilon(x, key):
    p = random.normal(key, x.shape)

    def log_joint(eps):
        x1, p1 = leapfrog(x, p, eps, 1)
        return logp(x1) - 0.5 * p1 @ p1 - (logp(x) - 0.5 * p @ p)

    a = jnp.where(log_joint(1.0) > jnp.log(0.5), 1.0, -1.0)

    def cond(state):
        eps, lj, k = state
        return (a * lj > -a * jnp.log(2.0)) & (k < 50)

    def body(state):
        eps, _, k = state
        eps = eps * 2.0 ** a
        return eps, log_joint(eps), k + 1

    eps, _, k = lax.while_loop(cond, body, (1.0, log_joint(1.0), 0))
    return eps, k


print("epsilon", find_reasonable_epsilon(jnp.array([3.0, 3.0]), random.PRNGKey(4)))

# importance-sampling estimate of the normalizing constant of an unnormalized density
z = random.normal(random.PRNGKey(6), (2000, 2)) * 2.0
logw = (logp(z) + 3.0) - norm.logpdf(z, scale=2.0).sum(-1)
print("log Z", logsumexp(logw) - jnp.log(z.shape[0]))
print("ess", jnp.exp(2 * logsumexp(logw) - logsumexp(2 * logw)))
