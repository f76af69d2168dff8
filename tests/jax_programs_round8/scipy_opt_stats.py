"""jax.scipy in use: minimize(method="BFGS") on Rosenbrock and on a logistic regression,
stats log-densities and cdfs, special functions, logsumexp."""

import jax
import jax.numpy as jnp
from jax.scipy import special, stats
from jax.scipy.optimize import minimize


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


res = minimize(rosenbrock, jnp.array([1.3, 0.7, 0.8]), method="BFGS")
print("rosenbrock", res.success, jnp.round(res.x, 4), bool(res.fun < 1e-8))
print("nit > 10", bool(res.nit > 10))

key = jax.random.PRNGKey(1)
kx, ky = jax.random.split(key)
X = jax.random.normal(kx, (60, 3))
true_w = jnp.array([1.5, -2.0, 0.5])
labels = (jax.random.uniform(ky, (60,)) < jax.nn.sigmoid(X @ true_w)).astype(jnp.float32)


def nll(w):
    logits = X @ w
    return jnp.mean(jnp.logaddexp(0.0, logits) - labels * logits) + 0.01 * jnp.sum(w ** 2)


res = jax.jit(lambda w0: minimize(nll, w0, method="BFGS"))(jnp.zeros(3))
print("logistic", jnp.round(res.x, 3), round(float(res.fun), 5))
print("gradient at optimum small", bool(jnp.max(jnp.abs(jax.grad(nll)(res.x))) < 1e-3))

x = jnp.linspace(-2.0, 2.0, 5)
print(stats.norm.pdf(x), stats.norm.cdf(x))
print(stats.norm.logpdf(x, loc=1.0, scale=2.0), stats.norm.ppf(jnp.array([0.1, 0.5, 0.975])))
print(stats.t.logpdf(x, df=3.0), stats.laplace.logpdf(x))
print(stats.gamma.logpdf(jnp.array([0.5, 1.0, 2.0]), a=2.0), stats.beta.pdf(0.3, 2.0, 5.0))
print(stats.poisson.logpmf(jnp.array([0, 1, 5]), 2.0), stats.bernoulli.pmf(1, 0.3))
print(stats.expon.cdf(1.0), stats.uniform.logpdf(0.5), stats.cauchy.pdf(0.0))
print(stats.multivariate_normal.logpdf(jnp.array([0.1, -0.2]), jnp.zeros(2),
                                       jnp.array([[1.0, 0.3], [0.3, 2.0]])))
print(stats.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), jnp.array([1.0, 2.0, 3.0])))
print(special.gammaln(jnp.array([0.5, 3.0, 10.0])), special.digamma(2.0))
print(special.erf(0.5), special.erfc(2.0), special.erfinv(0.3), special.expit(1.0))
print(special.logit(0.25), special.xlogy(2.0, 3.0), special.xlog1py(0.0, -1.0))
print(special.logsumexp(jnp.array([1000.0, 1000.0])), special.logsumexp(x, b=jnp.arange(5.0)))
print(special.i0e(1.0), special.i1e(2.0), special.betainc(2.0, 3.0, 0.4))
print(special.gammainc(2.0, 1.5), special.gammaincc(2.0, 1.5), special.ndtri(0.9))
print(special.multigammaln(3.0, 2), special.entr(0.5), special.zeta(2.0, 1.0))
print(jax.grad(lambda a: stats.gamma.logpdf(1.5, a))(2.0))
print(jax.grad(special.gammaln)(3.5), jax.grad(special.erf)(0.2))
print(jax.nn.log_softmax(x), jax.nn.softmax(x)[-1])
