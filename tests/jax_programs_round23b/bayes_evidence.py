"""Bayesian model comparison with ``jax.scipy.special`` and ``jax.scipy.integrate.trapezoid``:
beta-binomial evidence in closed form (``gammaln``/``betaln``) against quadrature, posterior
tail probabilities by ``betainc``, a von Mises concentration posterior normalised with ``i0e``
(its score through ``i1e``), a censored normal likelihood with ``erfcx``/``log_ndtr``, Bayes
factors by ``logsumexp``, and the evidence's gradient in the prior hyperparameters."""

import jax
import jax.numpy as jnp
from jax import random
from jax.scipy import special as sp
from jax.scipy.integrate import trapezoid
from jax.scipy.stats import norm

# ---- coin flips: beta-binomial evidence -----------------------------------------------------
heads, n = 37, 60


def log_evidence_closed(a, b):
    log_choose = sp.gammaln(n + 1.0) - sp.gammaln(heads + 1.0) - sp.gammaln(n - heads + 1.0)
    return log_choose + sp.betaln(a + heads, b + n - heads) - sp.betaln(a, b)


theta = jnp.linspace(1e-4, 1 - 1e-4, 4001)


def log_evidence_quadrature(a, b):
    log_prior = (a - 1) * jnp.log(theta) + (b - 1) * jnp.log1p(-theta) - sp.betaln(a, b)
    log_lik = (sp.gammaln(n + 1.0) - sp.gammaln(heads + 1.0) - sp.gammaln(n - heads + 1.0)
               + sp.xlogy(heads, theta) + sp.xlog1py(n - heads, -theta))
    return jnp.log(trapezoid(jnp.exp(log_prior + log_lik), theta))


priors = {"uniform": (1.0, 1.0), "fair-ish": (20.0, 20.0), "biased": (8.0, 3.0)}
log_z = {}
for name, (a, b) in priors.items():
    log_z[name] = log_evidence_closed(a, b)
    print(f"{name:9s} log Z closed {log_z[name]:.3f} quadrature {log_evidence_quadrature(a, b):.3f}")

stack = jnp.stack(list(log_z.values()))
post_model = jnp.exp(stack - sp.logsumexp(stack))
print("posterior model probabilities:", jnp.round(post_model, 4))
print("log Bayes factor biased : fair-ish =", jnp.round(log_z["biased"] - log_z["fair-ish"], 3))

# posterior tail probability P(theta > 0.5 | data) under each prior
for name, (a, b) in priors.items():
    tail = 1.0 - sp.betainc(a + heads, b + n - heads, 0.5)
    print(f"P(theta > 0.5) under {name}: {tail:.4f}")

# empirical Bayes: gradient of log Z in the prior's log hyperparameters
g = jax.grad(lambda lab: log_evidence_closed(*jnp.exp(lab)))(jnp.log(jnp.array([2.0, 2.0])))
print("d log Z / d log(a, b):", jnp.round(g, 4))
# the evidence along prior strengths with the prior mean at 0.6
strengths = jnp.logspace(-1, 2, 31)
along = jax.vmap(lambda s: log_evidence_closed(0.6 * s, 0.4 * s))(strengths)
print("best prior strength:", jnp.round(strengths[jnp.argmax(along)], 2), "log Z", jnp.round(along.max(), 2))
print("slope at the weakest / strongest:", jnp.round(jax.vmap(jax.grad(
    lambda s: log_evidence_closed(0.6 * s, 0.4 * s)))(strengths[jnp.array([0, -1])]), 3))

# ---- wind directions: von Mises concentration --------------------------------------------------
key = random.PRNGKey(5)
k_dir, k_cens = random.split(key)
mu = 0.7
angles = mu + 0.6 * random.normal(k_dir, (50,))
angles = jnp.mod(angles + jnp.pi, 2 * jnp.pi) - jnp.pi


def vm_loglik(kappa):
    # log I0(kappa) = log i0e(kappa) + kappa: stable for large kappa
    log_norm = jnp.log(2 * jnp.pi) + jnp.log(sp.i0e(kappa)) + kappa
    return jnp.sum(kappa * jnp.cos(angles - mu)) - angles.shape[0] * log_norm


kappas = jnp.linspace(0.05, 12.0, 2000)
log_post = jax.vmap(vm_loglik)(kappas) - kappas / 3.0  # exponential prior, mean 3
norm_const = trapezoid(jnp.exp(log_post - log_post.max()), kappas)
post = jnp.exp(log_post - log_post.max()) / norm_const
print("kappa posterior mean:", jnp.round(trapezoid(kappas * post, kappas), 3),
      "mode:", jnp.round(kappas[jnp.argmax(post)], 3))
score = jax.grad(vm_loglik)(2.5)
ratio = sp.i1e(2.5) / sp.i0e(2.5)
print("score at kappa=2.5:", jnp.round(score, 3),
      "closed form:", jnp.round(jnp.sum(jnp.cos(angles - mu)) - 50 * ratio, 3))
print("i0e/i1e large kappa:", jnp.round(sp.i0e(jnp.array([1.0, 50.0, 400.0])), 6),
      jnp.round(sp.i1e(jnp.array([1.0, 50.0, 400.0])), 6))
print("mean resultant length:", jnp.round(jnp.abs(jnp.mean(jnp.exp(1j * angles))), 4))

# ---- censored normal measurements -------------------------------------------------------------
true = 1.0 + 0.8 * random.normal(k_cens, (40,))
limit = 1.5
observed = jnp.minimum(true, limit)
censored = true >= limit
print("censored:", int(censored.sum()), "of", censored.shape[0])


def censored_loglik(params):
    m, log_s = params
    s = jnp.exp(log_s)
    dens = norm.logpdf(observed, m, s)
    # log P(X > limit) = log(erfcx(z / sqrt 2) / 2) - z^2 / 2
    zc = (limit - m) / s
    log_tail = jnp.log(sp.erfcx(zc / jnp.sqrt(2.0)) / 2.0) - zc ** 2 / 2.0
    return jnp.sum(jnp.where(censored, log_tail, dens))


p0 = jnp.array([observed.mean(), jnp.log(observed.std())])
zc = (limit - 0.0) / 1.0
print("log tail via erfcx / log_ndtr:",
      jnp.round(jnp.log(sp.erfcx(zc / jnp.sqrt(2.0)) / 2.0) - zc ** 2 / 2, 5),
      jnp.round(sp.log_ndtr(-zc), 5))
params = p0
for _ in range(6):
    g = jax.grad(censored_loglik)(params)
    h = jax.hessian(censored_loglik)(params)
    params = params - jnp.linalg.solve(h, g)
print("censored MLE (mean, sd):", jnp.round(params[0], 4), jnp.round(jnp.exp(params[1]), 4))
naive = jnp.array([observed.mean(), observed.std()])
print("naive (mean, sd):", jnp.round(naive, 4))
print("erfcx far tail:", jnp.round(sp.erfcx(jnp.array([5.0, 30.0, 300.0])), 7))

# Laplace approximation of the evidence over (m, log s) with a N(0, 2^2) prior on each
def log_joint(p):
    return censored_loglik(p) + jnp.sum(norm.logpdf(p, 0.0, 2.0))


mode = params
for _ in range(6):
    mode = mode - jnp.linalg.solve(jax.hessian(log_joint)(mode), jax.grad(log_joint)(mode))
H = -jax.hessian(log_joint)(mode)
sign, logdet = jnp.linalg.slogdet(H)
laplace = log_joint(mode) + jnp.log(2 * jnp.pi) - 0.5 * logdet
m_grid = jnp.linspace(mode[0] - 1.0, mode[0] + 1.0, 201)
s_grid = jnp.linspace(mode[1] - 1.0, mode[1] + 1.0, 201)
joint = jax.vmap(lambda m: jax.vmap(lambda s: log_joint(jnp.stack([m, s])))(s_grid))(m_grid)
top = joint.max()
grid_evidence = top + jnp.log(trapezoid(trapezoid(jnp.exp(joint - top), s_grid, axis=1), m_grid))
print("log evidence: Laplace", jnp.round(laplace, 3), "grid", jnp.round(grid_evidence, 3), "sign", sign)
