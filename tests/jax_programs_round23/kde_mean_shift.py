"""Kernel density estimation and mean-shift clustering as nonparametric-statistics code writes
them in JAX: jax.scipy.stats.gaussian_kde (Scott's bandwidth, evaluate, logpdf,
integrate_box_1d, resample with a key) against a hand-written Gaussian KDE, the bandwidth
chosen by maximising the leave-one-out log-likelihood with jax.grad on the log-bandwidth,
Silverman's rule for comparison, and mean-shift clustering of 2-D points (vmapped fixed-point
iterations in lax.while_loop) with the modes merged by rounding and jnp.unique."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.special import logsumexp
from jax.scipy.stats import gaussian_kde, norm

jnp.set_printoptions(precision=4, suppress=True)

k1, k2, k3 = random.split(random.PRNGKey(0), 3)
x = jnp.concatenate([random.normal(k1, (120,)) * 0.5 - 1.0, random.normal(k2, (80,)) * 0.8 + 2.0])
kde = gaussian_kde(x)
grid = jnp.linspace(-3.0, 5.0, 9)
print("n", kde.n, "d", kde.d, f"neff {float(kde.neff):.1f}", "covariance", kde.covariance)
print("density on a grid", kde.evaluate(grid))
print(
    "logpdf == log(evaluate):", bool(jnp.allclose(kde.logpdf(grid), jnp.log(kde.evaluate(grid)), atol=1e-4))
)
print("mass in [-1, 2]", f"{float(kde.integrate_box_1d(-1.0, 2.0)):.4f}")


def my_kde_logpdf(points, data, h):
    z = (points[:, None] - data[None, :]) / h
    return logsumexp(norm.logpdf(z), axis=1) - jnp.log(data.shape[0] * h)


h_scott = jnp.sqrt(kde.covariance[0, 0])
print(
    "hand-written KDE agrees:",
    bool(jnp.allclose(my_kde_logpdf(grid, x, h_scott), kde.logpdf(grid), atol=1e-4)),
)
samples = kde.resample(k3, (500,))
print("resample", samples.shape, f"mean {float(samples.mean()):.4f} data mean {float(x.mean()):.4f}")


def loo_log_likelihood(log_h):
    h = jnp.exp(log_h)
    z = (x[:, None] - x[None, :]) / h
    logk = norm.logpdf(z) - jnp.log(h)
    logk = jnp.where(jnp.eye(x.shape[0], dtype=bool), -jnp.inf, logk)  # leave each point out
    return jnp.mean(logsumexp(logk, axis=1) - jnp.log(x.shape[0] - 1.0))


log_h = jnp.log(h_scott)
step = jax.jit(lambda lh: lh + 0.05 * jax.grad(loo_log_likelihood)(lh))
for _ in range(60):
    log_h = step(log_h)
silverman = 0.9 * jnp.minimum(x.std(), (jnp.percentile(x, 75) - jnp.percentile(x, 25)) / 1.34) * x.size**-0.2
print(
    f"LOO bandwidth {float(jnp.exp(log_h)):.4f} Scott {float(h_scott):.4f} Silverman {float(silverman):.4f}"
)
print(
    f"LOO log-likelihood at LOO {float(loo_log_likelihood(log_h)):.4f}",
    f"at Scott {float(loo_log_likelihood(jnp.log(h_scott))):.4f}",
)

# mean shift in 2-D: three blobs
centers = jnp.array([[0.0, 0.0], [3.0, 0.5], [1.0, 3.0]])
labels = jnp.repeat(jnp.arange(3), 40)
pts = centers[labels] + 0.4 * random.normal(random.PRNGKey(4), (120, 2))


def mean_shift(p, bandwidth=0.8, tol=1e-4):
    def shift(q):
        w = jnp.exp(-jnp.sum((pts - q) ** 2, axis=1) / (2 * bandwidth**2))
        return w @ pts / jnp.sum(w)

    def cond(s):
        return (s[1] > tol) & (s[2] < 200)

    def body(s):
        q, _, it = s
        q_new = shift(q)
        return q_new, jnp.linalg.norm(q_new - q), it + 1

    q, _, iters = lax.while_loop(cond, body, (p, jnp.inf, 0))
    return q, iters


modes, iters = jax.jit(jax.vmap(mean_shift))(pts)
found = jnp.unique(jnp.round(modes, 1), axis=0, size=3, fill_value=jnp.nan)
print("modes found\n", found, "\nall converged:", bool(iters.max() < 200))
assign = jnp.argmin(jnp.sum((modes[:, None, :] - found[None]) ** 2, axis=-1), axis=1)
print("cluster sizes", jnp.bincount(assign, length=3))
