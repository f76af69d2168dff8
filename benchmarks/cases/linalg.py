"""Batched triangular solves (issue 16, `docs/speed-linalg.md`): the batched Gaussian density
``multivariate_normal.logpdf`` with its gradient (one Cholesky factor broadcast over 256
points), ``solve_triangular`` over a stack of 256 different factors and the density's value
and gradient over 256 different covariances, each under ``jit`` side by side with ``jax.jit``;
the numpy column is SciPy's ``solve_triangular``."""

from __future__ import annotations

import numpy as np

from . import Case, block, register


class _LinalgVsJax(Case):
    group = "jit"
    issue = 16
    reference = "jax"
    jax_x64 = True
    rtol, atol = 1e-10, 1e-12

    def _run(self, lib, m, scipy):
        raise NotImplementedError

    def fgrad(self):
        import fgrad
        import fgrad.numpy as fnp
        import fgrad.scipy

        return self._run(fgrad, fnp, fgrad.scipy)

    def jax(self):
        import jax
        import jax.numpy as jnp
        import jax.scipy

        return self._run(jax, jnp, jax.scipy)


@register
class GaussianLogpdfGrad(_LinalgVsJax):
    name = "mvn_logpdf_grad"
    short = "jit: mvn logpdf + grad"
    title = ("`jit(value_and_grad)` of `mean(multivariate_normal.logpdf(x, mean, cov))`: `x` 256 × 2, "
             "one 2 × 2 covariance (float64)")
    goals = [("jax", 3.0)]
    notes = {"jax": "`jax.jit(jax.value_and_grad(f))`", "numpy": "SciPy `solve_triangular` per point"}

    def setup(self):
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal((256, 2))
        self.cov = np.array([[1.5, 0.3], [0.3, 0.8]])

    def _run(self, lib, m, scipy):
        cov = m.asarray(self.cov)
        f = lib.jit(lib.value_and_grad(
            lambda x: m.mean(scipy.stats.multivariate_normal.logpdf(x, m.zeros(2), cov))))
        x = m.asarray(self.x)
        return lambda: np.asarray(block(f(x)[1]))

    def numpy(self):
        import scipy.linalg as sla

        chol = np.linalg.cholesky(self.cov)

        def run():
            y = np.stack([sla.solve_triangular(chol, p, lower=True) for p in self.x])
            return -np.stack([sla.solve_triangular(chol, v, lower=True, trans=1) for v in y]) / len(self.x)

        return run


@register
class StackedTriangularSolve(_LinalgVsJax):
    name = "solve_triangular_stack"
    short = "jit: solve_triangular stack"
    title = "`jit(solve_triangular)`: 256 different 8 × 8 lower factors, one right-hand side each (float64)"
    goals = [("jax", 3.0)]
    notes = {"jax": "`jax.jit(jax.scipy.linalg.solve_triangular)`", "numpy": "SciPy, batched"}

    def setup(self):
        rng = np.random.default_rng(0)
        self.a = np.tril(rng.standard_normal((256, 8, 8))) + 4 * np.eye(8)
        self.b = rng.standard_normal((256, 8, 1))

    def _run(self, lib, m, scipy):
        f = lib.jit(lambda a, b: scipy.linalg.solve_triangular(a, b, lower=True))
        a, b = m.asarray(self.a), m.asarray(self.b)
        return lambda: np.asarray(block(f(a, b)))

    def numpy(self):
        import scipy.linalg as sla

        return lambda: sla.solve_triangular(self.a, self.b, lower=True, check_finite=False)


@register
class StackedGaussianLogpdfGrad(_LinalgVsJax):
    name = "mvn_logpdf_stack_grad"
    short = "jit: mvn logpdf stack + grad"
    title = ("`jit(value_and_grad)` of `sum(multivariate_normal.logpdf(x, 0, cov))` in `cov`: 256 different "
             "8 × 8 covariances, one point each (float64)")
    goals = [("jax", 3.0)]
    notes = {"jax": "`jax.jit(jax.value_and_grad(f))`"}
    rtol, atol = 1e-9, 1e-12

    def setup(self):
        rng = np.random.default_rng(0)
        m = rng.standard_normal((256, 8, 8))
        self.cov = m @ np.swapaxes(m, -1, -2) + 8 * np.eye(8)
        self.x = rng.standard_normal((256, 8))

    def _run(self, lib, m, scipy):
        f = lib.jit(lib.value_and_grad(
            lambda cov, x: m.sum(scipy.stats.multivariate_normal.logpdf(x, m.zeros(8), cov))))
        cov, x = m.asarray(self.cov), m.asarray(self.x)
        return lambda: np.asarray(block(f(cov, x)[1]))

