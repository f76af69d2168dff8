"""Likelihood models from jax.scipy.stats as applied statisticians write them in JAX:
right-censored gamma lifetimes (gamma.logpdf for failures, gamma.logsf for censored units)
fitted by Newton's method with hessian in lax.fori_loop, standard errors and norm.ppf
intervals; a Tobit regression with norm.logcdf censoring at zero; a truncated-normal fit
(truncnorm.logpdf with parameter-dependent bounds); overdispersed counts by nbinom.logpmf
against a Poisson fit with a likelihood-ratio test (chi2.sf); wind directions by
vonmises.logpdf (kappa from a bisection on i1e/i0e); annual maxima by gumbel_r with return
levels from its ppf; logistic.ppf/cdf round trips; a Pareto tail index by closed-form MLE
against grad; and the Fisher information by vmap of per-observation score outer products."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy import stats
from jax.scipy.optimize import minimize
from jax.scipy.special import gammaln, i0e, i1e

jnp.set_printoptions(precision=4, suppress=True)
keys = jax.random.split(jax.random.PRNGKey(11), 8)

# --- censored gamma lifetimes ---------------------------------------------------------------
n = 200
life = jax.random.gamma(keys[0], 2.5, (n,)) * 3.0  # shape 2.5, scale 3
censor_at = jax.random.uniform(keys[1], (n,), minval=4.0, maxval=15.0)
obs = jnp.minimum(life, censor_at)
failed = life <= censor_at
print("units", n, "failures", int(failed.sum()), "mean observed time", obs.mean())


def gamma_nll(theta):
    shape, scale = jnp.exp(theta)
    ll_fail = stats.gamma.logpdf(obs, shape, scale=scale)
    return -jnp.sum(jnp.where(failed, ll_fail, stats.gamma.logsf(obs, shape, scale=scale)))


def newton(f, theta, steps=25):
    def body(_, th):
        g = jax.grad(f)(th)
        H = jax.hessian(f)(th)
        return th - jnp.linalg.solve(H, g)
    return lax.fori_loop(0, steps, body, theta)


# gammaincc has no second derivative in its shape argument under JAX: BFGS, and the Hessian
# by central differences of the gradient
fit = minimize(gamma_nll, jnp.log(jnp.array([1.0, obs.mean()])), method="BFGS")
theta_hat = fit.x
steps = 1e-3 * jnp.eye(2)
score = jax.grad(gamma_nll)
H_fd = jax.vmap(lambda e: (score(theta_hat + e) - score(theta_hat - e)) / 2e-3)(steps)
cov = jnp.linalg.inv(0.5 * (H_fd + H_fd.T))
se = jnp.round(jnp.sqrt(jnp.diag(cov)), 3)
z = stats.norm.ppf(0.975)
print("gamma shape, scale", jnp.exp(theta_hat), "log-scale SE", se)
print("95% intervals\n", jnp.exp(theta_hat[:, None] + jnp.array([-1.0, 1.0]) * z * se[:, None]))
naive = newton(lambda t: -jnp.sum(stats.gamma.logpdf(obs, jnp.exp(t[0]), scale=jnp.exp(t[1]))),
               jnp.log(jnp.array([1.0, obs.mean()])))
print("ignoring censoring biases the mean down:", jnp.prod(jnp.exp(naive)), "<",
      jnp.prod(jnp.exp(theta_hat)))


def halve(_, b):
    mid = 0.5 * (b[0] + b[1])
    below = stats.gamma.cdf(mid, jnp.exp(theta_hat[0]), scale=jnp.exp(theta_hat[1])) < 0.5
    return jnp.where(below, jnp.stack([mid, b[1]]), jnp.stack([b[0], mid]))


print("median lifetime by bisection on gamma.cdf", lax.fori_loop(0, 50, halve, jnp.array([0.0, 50.0]))[0])

# --- Tobit regression --------------------------------------------------------------------------
xr = jax.random.uniform(keys[2], (150,), minval=-2.0, maxval=2.0)
y_star = 0.5 + 1.2 * xr + 0.8 * jax.random.normal(keys[3], (150,))
y = jnp.maximum(y_star, 0.0)


def tobit_nll(p):
    b0, b1, log_s = p
    s = jnp.exp(log_s)
    mu = b0 + b1 * xr
    return -jnp.sum(jnp.where(y > 0, stats.norm.logpdf(y, mu, s), stats.norm.logcdf(-mu / s)))


ols = jnp.linalg.lstsq(jnp.stack([jnp.ones_like(xr), xr], 1), y)[0]
p_tobit = minimize(tobit_nll, jnp.array([ols[0], ols[1], jnp.log(y.std())]), method="BFGS").x
print("censored at 0:", int((y == 0).sum()), "Tobit (b0, b1, sigma)", p_tobit[:2],
      jnp.exp(p_tobit[2]), "OLS slope (attenuated)", ols[1])

# --- truncated normal: measurements only recorded inside [0, 5] ---------------------------------
raw = 2.0 + 1.5 * jax.random.normal(keys[4], (2000,))
kept = raw[(raw > 0.0) & (raw < 5.0)]


def trunc_nll(p):
    mu, log_s = p
    s = jnp.exp(log_s)
    return -jnp.sum(stats.truncnorm.logpdf(kept, (0.0 - mu) / s, (5.0 - mu) / s, loc=mu, scale=s))


p_tr = minimize(trunc_nll, jnp.array([kept.mean(), jnp.log(kept.std())]), method="BFGS").x
print("kept", kept.shape[0], "naive mean/std", kept.mean(), kept.std(),
      "truncnorm MLE", p_tr[0], jnp.exp(p_tr[1]))

# --- overdispersed counts -----------------------------------------------------------------------
lam = jax.random.gamma(keys[5], 2.0, (300,)) * 2.5
counts = jax.random.poisson(keys[6], lam)
print("count mean", counts.mean(), "variance", counts.var())
pois_ll = jnp.sum(stats.poisson.logpmf(counts, counts.mean()))


def nb_nll(p):
    r, prob = jnp.exp(p[0]), jax.nn.sigmoid(p[1])
    return -jnp.sum(stats.nbinom.logpmf(counts, r, prob))


p_mom = counts.mean() / counts.var()  # method-of-moments start
p_nb = newton(nb_nll, jnp.stack([jnp.log(counts.mean() * p_mom / (1 - p_mom)), jnp.log(p_mom / (1 - p_mom))]))
r_hat, prob_hat = jnp.exp(p_nb[0]), jax.nn.sigmoid(p_nb[1])
lr = 2 * (-nb_nll(p_nb) - pois_ll)
print("NB r, p", r_hat, prob_hat, "implied mean", r_hat * (1 - prob_hat) / prob_hat,
      "LR vs Poisson", lr, "p-value tiny:", bool(stats.chi2.sf(lr, 1) < 1e-10))
manual = gammaln(counts + r_hat) - gammaln(r_hat) - gammaln(counts + 1.0) + r_hat * jnp.log(prob_hat) \
    + counts * jnp.log1p(-prob_hat)
library = stats.nbinom.logpmf(counts, r_hat, prob_hat)
print("nbinom.logpmf = the gammaln formula:", bool(jnp.allclose(manual, library, atol=1e-4)))

# --- wind directions ----------------------------------------------------------------------------
angles = jnp.mod(jax.random.normal(keys[7], (400,)) * 0.6 + 1.0 + jnp.pi, 2 * jnp.pi) - jnp.pi
C, S = jnp.cos(angles).mean(), jnp.sin(angles).mean()
mu_dir, Rbar = jnp.arctan2(S, C), jnp.hypot(C, S)


def kappa_of(R):
    def body(_, b):
        mid = 0.5 * (b[0] + b[1])
        low = i1e(mid) / i0e(mid) < R
        return jnp.where(low, jnp.stack([mid, b[1]]), jnp.stack([b[0], mid]))
    return lax.fori_loop(0, 60, body, jnp.array([1e-3, 100.0])).mean()


kappa = kappa_of(Rbar)
print("mean direction", mu_dir, "R", Rbar, "kappa", kappa,
      "mean log-density", stats.vonmises.logpdf(angles - mu_dir, kappa).mean())
print("score in kappa at the MLE ~ 0:",
      bool(jnp.abs(jax.grad(lambda k: stats.vonmises.logpdf(angles - mu_dir, k).sum())(kappa)) < 1e-2))

# --- annual maxima, Gumbel return levels --------------------------------------------------------
maxima = stats.gumbel_r.ppf(jnp.linspace(0.02, 0.98, 40), loc=30.0, scale=4.0)
m_mean, m_std = maxima.mean(), maxima.std()
scale_mom = m_std * jnp.sqrt(6.0) / jnp.pi
loc_mom = m_mean - 0.5772156649 * scale_mom
print("Gumbel moments fit", loc_mom, scale_mom,
      "100-year level", stats.gumbel_r.ppf(0.99, loc_mom, scale_mom))
print("cdf(ppf(q)) round trips:", bool(jnp.allclose(stats.gumbel_r.cdf(maxima, 30.0, 4.0),
                                                    jnp.linspace(0.02, 0.98, 40), atol=1e-5)),
      "logistic:", bool(jnp.allclose(stats.logistic.cdf(stats.logistic.ppf(jnp.array([0.1, 0.5, 0.9]))),
                                     jnp.array([0.1, 0.5, 0.9]), atol=1e-6)))

# --- Pareto tail ---------------------------------------------------------------------------------
tail = stats.pareto.ppf(jnp.linspace(0.01, 0.99, 99), 2.5, scale=1.0)
alpha_mle = tail.shape[0] / jnp.sum(jnp.log(tail))
score = jax.grad(lambda a: stats.pareto.logpdf(tail, a, scale=1.0).sum())(alpha_mle)
print("Pareto alpha MLE", alpha_mle, "score there", jnp.round(score, 3))

# --- Fisher information two ways for the gamma model (uncensored units) -------------------------
per_obs = jax.vmap(jax.grad(lambda t, x: stats.gamma.logpdf(x, jnp.exp(t[0]), scale=jnp.exp(t[1]))),
                   in_axes=(None, 0))(theta_hat, obs[failed])
opg = per_obs.T @ per_obs
H_unc = jax.hessian(lambda t: -jnp.sum(stats.gamma.logpdf(obs[failed], jnp.exp(t[0]),
                                                          scale=jnp.exp(t[1]))))(theta_hat)
print("outer-product information\n", opg, "\nobserved information\n", H_unc)
