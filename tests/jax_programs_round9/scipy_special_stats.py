"""jax.scipy beyond round 8: linalg (expm and its gradient, solve_triangular variants,
lu_factor/lu_solve, schur-free functions: sqrtm-free polar, block_diag, toeplitz, cho_solve),
special functions (gammaln, digamma, betaln, xlogy, xlog1py, entr, logsumexp with b and
return_sign, erf/erfc/erfinv, ndtr/ndtri/log_ndtr, i0e/i1e, zeta, polygamma, gammainc,
expit/logit, softmax) with gradients, and stats logpdf/cdf/ppf/sf."""

import jax
import jax.numpy as jnp
import jax.scipy.linalg as sla
import jax.scipy.special as sp
from jax.scipy import stats

A = jnp.array([[0.0, 1.0, 0.2], [-1.0, 0.0, 0.5], [0.1, -0.3, -0.2]])
print(sla.expm(A))
print(sla.expm(jnp.zeros((2, 2))), sla.expm(jnp.diag(jnp.array([1.0, -1.0]))))
print(jax.grad(lambda t: sla.expm(t * A)[0, 1])(0.7))
L = jnp.array([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 0.5, 1.5]])
b = jnp.array([1.0, 2.0, 3.0])
print(sla.solve_triangular(L, b, lower=True), sla.solve_triangular(L.T, b, lower=False))
print(sla.solve_triangular(L, b, lower=True, trans=1))
print(sla.solve_triangular(L, b, lower=True, unit_diagonal=True))
print(jnp.round(sla.solve_triangular(L, jnp.eye(3), lower=True) @ L, 4))
M = L @ L.T + jnp.eye(3)
lu, piv = sla.lu_factor(M)
print(sla.lu_solve((lu, piv), b), jnp.linalg.solve(M, b))
c = sla.cho_factor(M)
print(sla.cho_solve(c, b))
print(sla.block_diag(jnp.ones((1, 2)), 2 * jnp.eye(2)), sla.toeplitz(jnp.array([1.0, 2.0, 3.0])))
print(sla.det(M), jnp.round(sla.inv(M) @ M, 4))

x = jnp.array([0.5, 1.5, 2.5, 7.0])
print(sp.gammaln(x), sp.digamma(x), sp.betaln(x, 2.0))
print(sp.xlogy(jnp.array([0.0, 1.0, 2.0]), jnp.array([0.0, 2.0, 3.0])))
print(sp.xlog1py(jnp.array([0.0, 1.0]), jnp.array([-1.0, 0.5])))
print(sp.entr(jnp.array([0.0, 0.5, 1.0, -1.0])), sp.logsumexp(jnp.array([1.0, 2.0, 3.0])))
print(sp.logsumexp(jnp.array([1.0, 2.0, 3.0]), b=jnp.array([1.0, -1.0, 0.5]), return_sign=True))
print(sp.logsumexp(jnp.arange(6.0).reshape(2, 3), axis=1, keepdims=True))
print(sp.erf(x), sp.erfc(x), sp.erfinv(jnp.array([-0.5, 0.0, 0.9])))
print(sp.ndtr(jnp.array([-1.0, 0.0, 2.0])), sp.ndtri(jnp.array([0.1, 0.5, 0.975])))
print(sp.log_ndtr(jnp.array([-10.0, 0.0, 1.0])))
print(sp.i0e(x), sp.i1e(x), sp.zeta(jnp.array([2.0, 3.0]), 1.0), sp.polygamma(1, jnp.array([1.0, 2.5])))
print(sp.gammainc(2.0, x), sp.gammaincc(2.0, x), sp.expit(jnp.array([-2.0, 0.0, 2.0])))
print(sp.logit(jnp.array([0.1, 0.5])))
print(jax.nn.softmax(jnp.array([1.0, 2.0, 3.0])), sp.softmax(jnp.array([[1.0, 2.0], [0.0, 0.0]]), axis=0))
print(jax.grad(lambda v: sp.gammaln(v).sum())(x))
print(jax.grad(lambda v: sp.logsumexp(v))(jnp.array([1.0, 2.0, 3.0])))
print(jax.vmap(jax.grad(sp.erf))(jnp.array([0.0, 0.5])), jax.grad(lambda v: sp.xlogy(v, v))(2.0))
print(jax.grad(sp.digamma)(1.5), jax.grad(lambda a: sp.betaln(a, 3.0))(2.0))

q = jnp.array([-1.5, 0.0, 0.7, 2.0])
print(stats.norm.logpdf(q, 0.5, 2.0), stats.norm.cdf(q), stats.norm.ppf(jnp.array([0.05, 0.5, 0.99])))
print(stats.norm.sf(q), stats.norm.logcdf(q), stats.norm.isf(jnp.array([0.1, 0.5])))
print(stats.t.logpdf(q, 3.0), stats.t.cdf(q, 5.0) if hasattr(stats.t, "cdf") else None)
print(stats.gamma.logpdf(jnp.array([0.5, 1.0, 3.0]), 2.0), stats.gamma.cdf(jnp.array([0.5, 1.0, 3.0]), 2.0))
print(stats.beta.logpdf(jnp.array([0.2, 0.5, 0.9]), 2.0, 3.0))
print(stats.beta.cdf(jnp.array([0.2, 0.5, 0.9]), 2.0, 3.0))
print(stats.poisson.logpmf(jnp.array([0, 2, 5]), 3.0), stats.poisson.cdf(jnp.array([0, 2, 5]), 3.0))
print(stats.expon.logpdf(q), stats.laplace.cdf(q), stats.logistic.logpdf(q), stats.cauchy.cdf(q))
print(stats.chi2.logpdf(jnp.array([0.5, 2.0]), 3.0), stats.uniform.logpdf(q, -1.0, 2.5))
mean, cov = jnp.array([0.0, 1.0]), jnp.array([[2.0, 0.3], [0.3, 1.0]])
print(stats.multivariate_normal.logpdf(jnp.array([[0.5, 0.5], [1.0, 2.0]]), mean, cov))
print(jax.grad(lambda m: stats.norm.logpdf(1.0, m, 2.0))(0.3))
print(jax.grad(lambda s: stats.norm.cdf(1.0, 0.0, s))(1.5))
