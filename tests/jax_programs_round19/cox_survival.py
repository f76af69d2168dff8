"""Survival analysis as in a statistics-in-JAX notebook: a Cox proportional-hazards model fitted
by Newton's method (jax.hessian of Breslow's partial likelihood, with the risk-set
log-sum-exp computed by lax.cumlogsumexp(reverse=True) after sorting by time), compared with
gradient descent under jit, a Weibull accelerated-failure-time model with censoring
(jax.scipy.special.xlogy, gammaln), and a Kaplan-Meier curve with jnp.unique(size=...) and
jnp.searchsorted."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.special import gammaln, xlogy

jnp.set_printoptions(precision=5, suppress=True)

key = random.PRNGKey(7)
kx, kt, kc = random.split(key, 3)
n, d = 60, 3
X = random.normal(kx, (n, d))
beta_true = jnp.array([0.8, -0.5, 0.0])
# Exponential event times with hazard exp(X beta), uniform censoring
T = -jnp.log(random.uniform(kt, (n,))) / jnp.exp(X @ beta_true)
C = random.uniform(kc, (n,), maxval=2.0)
time = jnp.round(jnp.minimum(T, C), 2)  # rounded: ties, as in real data
event = (T <= C).astype(jnp.float32)
print(f"events {int(event.sum())} of {n}, tied times {n - jnp.unique(time).size}")

order = jnp.argsort(-time, stable=True)  # decreasing time: risk sets are prefixes


def neg_partial_loglik(beta):
    eta = X[order] @ beta
    # log sum_{j: t_j >= t_i} exp(eta_j): cumulative over decreasing times
    log_risk = lax.cumlogsumexp(eta)
    # Breslow ties: every tied subject uses the largest risk set, i.e. the last index of its time
    t_sorted = time[order]
    last = jnp.searchsorted(-t_sorted, -t_sorted, side="right") - 1
    return -jnp.sum(event[order] * (eta - log_risk[last]))


beta = jnp.zeros(d)
print(f"loss at 0: {neg_partial_loglik(beta):.5f}")
for it in range(6):
    g = jax.grad(neg_partial_loglik)(beta)
    Hm = jax.hessian(neg_partial_loglik)(beta)
    beta = beta - jnp.linalg.solve(Hm, g)
    gn = jnp.linalg.norm(g)  # below ~1e-3 float32 prints rounding noise of a sum of ~20-sized terms
    print(f"newton {it}: loss {neg_partial_loglik(beta):.5f}", f"|g| {gn:.3e}" if gn > 1e-2 else "|g| < 1e-2")
print("beta_hat", beta)
se = jnp.sqrt(jnp.diag(jnp.linalg.inv(jax.hessian(neg_partial_loglik)(beta))))
print("std err ", se)
print("z       ", beta / se)

# reverse cumlogsumexp agrees with a flipped cumulative logsumexp
v = jnp.array([0.5, -1.0, 2.0, 0.0, 3.0])
print("cumlogsumexp fwd", lax.cumlogsumexp(v))
print("cumlogsumexp rev", lax.cumlogsumexp(v, reverse=True))
flipped = jnp.flip(lax.cumlogsumexp(jnp.flip(v)))
print("flip check", bool(jnp.allclose(lax.cumlogsumexp(v, reverse=True), flipped)))


@jax.jit
def gd(beta, lr=0.02):
    return beta - lr * jax.grad(neg_partial_loglik)(beta)


b = jnp.zeros(d)
for _ in range(300):
    b = gd(b)
print("gradient descent beta", b, "max diff", float(jnp.max(jnp.abs(b - beta))) < 1e-3)


# Weibull AFT with right censoring: log T = X w + b + sigma * eps, eps ~ Gumbel(min)
def weibull_nll(params):
    w, b0, log_sigma = params["w"], params["b"], params["log_sigma"]
    sigma = jnp.exp(log_sigma)
    z = (jnp.log(time + 1e-3) - X @ w - b0) / sigma
    log_f = z - jnp.exp(z) - log_sigma - jnp.log(time + 1e-3)
    log_S = -jnp.exp(z)
    return -jnp.sum(event * log_f + (1 - event) * log_S)


p = {"w": jnp.zeros(d), "b": jnp.zeros(()), "log_sigma": jnp.zeros(())}
val_grad = jax.jit(jax.value_and_grad(weibull_nll))
for _ in range(200):
    l, g = val_grad(p)
    p = jax.tree.map(lambda a, b: a - 0.005 * b, p, g)
print(f"weibull nll {l:.4f}", "w", p["w"], f"sigma {jnp.exp(p['log_sigma']):.4f}")
print("xlogy", xlogy(jnp.array([0.0, 0.0, 2.0]), jnp.array([0.0, 3.0, 3.0])),
      "gammaln", gammaln(jnp.array([0.5, 1.0, 4.5, 10.0])))

# Kaplan-Meier
ut = jnp.unique(time, size=n, fill_value=jnp.inf)
at_risk = jnp.sum(time[None, :] >= ut[:, None], axis=1)
deaths = jnp.sum((time[None, :] == ut[:, None]) * event[None, :], axis=1)
surv = jnp.cumprod(jnp.where(at_risk > 0, 1.0 - deaths / jnp.maximum(at_risk, 1), 1.0))
query = jnp.array([0.1, 0.25, 0.5, 1.0, 1.5])
idx = jnp.searchsorted(ut, query, side="right") - 1
print("S(t) at", query, "=", jnp.where(idx >= 0, surv[idx], 1.0))
print("at_risk[:8]", at_risk[:8], at_risk.dtype)
