"""Mean-variance portfolio optimisation as quant notebooks write it in JAX: simulated
correlated returns by a Cholesky factor, jnp.cov / jnp.corrcoef estimates, the unconstrained
minimum-variance portfolio in closed form (jnp.linalg.solve), long-only weights by projected
gradient descent onto the simplex (the sort-and-cumsum projection), an exponentiated-gradient
(mirror descent) solver with softmax parametrisation, the efficient frontier by vmap over risk
aversion, CVaR from sorted scenario losses, the Sharpe-ratio gradient w.r.t. expected returns
by jax.grad through the projected solver, and risk contributions summing to total risk."""

import jax
import jax.numpy as jnp
from jax import lax

jnp.set_printoptions(precision=4, suppress=True)
ASSETS, DAYS = 6, 500

key = jax.random.PRNGKey(2024)
k_corr, k_ret = jax.random.split(key)
A = jax.random.normal(k_corr, (ASSETS, ASSETS))
vols = jnp.array([0.10, 0.15, 0.20, 0.12, 0.25, 0.18]) / jnp.sqrt(252.0)
corr_true = A @ A.T / ASSETS + jnp.eye(ASSETS)
d = jnp.sqrt(jnp.diag(corr_true))
corr_true = corr_true / d[:, None] / d[None, :]
cov_true = corr_true * vols[:, None] * vols[None, :]
mu_true = jnp.array([0.04, 0.06, 0.09, 0.05, 0.11, 0.07]) / 252.0
L = jnp.linalg.cholesky(cov_true)
returns = mu_true + jax.random.normal(k_ret, (DAYS, ASSETS)) @ L.T
print("returns", returns.shape, returns.dtype)

mu = jnp.mean(returns, axis=0) * 252
cov = jnp.cov(returns, rowvar=False) * 252
print("annualised mean", mu)
print("correlation estimate\n", jnp.corrcoef(returns.T))
print("cov symmetric positive definite:", bool(jnp.all(jnp.linalg.eigvalsh(cov) > 0)))

ones = jnp.ones(ASSETS)
w_mv = jnp.linalg.solve(cov, ones)
w_mv = w_mv / w_mv.sum()
print("min-variance (shorting allowed)", w_mv, "vol", f"{float(jnp.sqrt(w_mv @ cov @ w_mv)):.5f}")


def project_simplex(v):
    u = jnp.sort(v)[::-1]
    css = jnp.cumsum(u)
    k = jnp.arange(1, v.shape[0] + 1)
    cond = u - (css - 1) / k > 0
    rho = jnp.max(jnp.where(cond, k, 0))
    theta = (css[rho - 1] - 1) / rho
    return jnp.maximum(v - theta, 0.0)


print("projection of [0.5, 0.8, -0.2]:", project_simplex(jnp.array([0.5, 0.8, -0.2])))


def mean_variance(w, mu, cov, gamma):
    return 0.5 * gamma * w @ cov @ w - mu @ w


def solve_pgd(mu, cov, gamma, steps=400, lr=0.5):
    def body(_, w):
        return project_simplex(w - lr * jax.grad(mean_variance)(w, mu, cov, gamma))

    return lax.fori_loop(0, steps, body, jnp.full(ASSETS, 1.0 / ASSETS))


def solve_mirror(mu, cov, gamma, steps=400, lr=0.5):
    def body(_, logits):
        w = jax.nn.softmax(logits)
        return logits - lr * jax.grad(mean_variance)(w, mu, cov, gamma)

    return jax.nn.softmax(lax.fori_loop(0, steps, body, jnp.zeros(ASSETS)))


w_pgd = jax.jit(solve_pgd)(mu, cov, 5.0)
w_md = jax.jit(solve_mirror)(mu, cov, 5.0)
print("long-only, gamma=5: PGD", w_pgd)
print("                    mirror descent", w_md)
print(
    "objectives",
    f"{float(mean_variance(w_pgd, mu, cov, 5.0)):.6f}",
    f"{float(mean_variance(w_md, mu, cov, 5.0)):.6f}",
)
w_lo = jax.jit(solve_pgd)(mu, cov, 1e4)
print("long-only min-variance", w_lo, "zero weights", jnp.sum(w_lo < 1e-6))

gammas = jnp.array([1.0, 3.0, 10.0, 30.0, 100.0])
frontier = jax.jit(jax.vmap(solve_pgd, in_axes=(None, None, 0)))(mu, cov, gammas)
rets = frontier @ mu
vol = jnp.sqrt(jnp.einsum("gi,ij,gj->g", frontier, cov, frontier))
print("frontier returns", rets, "\nfrontier vols   ", vol)
print("monotone frontier:", bool(jnp.all(jnp.diff(rets) <= 1e-7) & jnp.all(jnp.diff(vol) <= 1e-7)))

# CVaR at 95% of daily losses of the gamma=5 portfolio
losses = -(returns @ w_pgd)
srt = jnp.sort(losses)
var95 = jnp.quantile(losses, 0.95, method="lower")
cvar = jnp.mean(srt[int(0.95 * DAYS) :])
print(
    "daily VaR95", f"{float(var95):.5f}", "CVaR95", f"{float(cvar):.5f}", "CVaR >= VaR:", bool(cvar >= var95)
)


def sharpe_of_solution(mu):
    w = solve_pgd(mu, cov, 5.0)
    return (w @ mu) / jnp.sqrt(w @ cov @ w)


s, g = jax.value_and_grad(sharpe_of_solution)(mu)
print("Sharpe", f"{float(s):.4f}", "d Sharpe / d mu", g)
active = w_pgd > 1e-6
print("gradient vanishes off the active set:", bool(jnp.all(jnp.where(active, True, jnp.abs(g) < 1e-3))))

# risk contributions of the gamma=5 portfolio
sigma = jnp.sqrt(w_pgd @ cov @ w_pgd)
marginal = jax.grad(lambda w: jnp.sqrt(w @ cov @ w))(w_pgd)
contrib = w_pgd * marginal
print("risk contributions", contrib, "sum == vol:", bool(jnp.allclose(contrib.sum(), sigma)))
