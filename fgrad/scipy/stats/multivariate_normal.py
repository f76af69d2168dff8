"""The multivariate normal distribution (``jax.scipy.stats.multivariate_normal``).

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.scipy.stats import multivariate_normal
    >>> multivariate_normal.logpdf(fnp.zeros(2), fnp.zeros(2), fnp.eye(2))
    Array(-1.83787707, dtype=float64)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float, Shaped

import math

from ... import numpy as fnp
from ...ops.linalg import triangular_solve
from ._util import promote


def logpdf(x: Shaped[ArrayLike, "*#batch n"], mean: Shaped[ArrayLike, "*#batch n"],
           cov: Shaped[ArrayLike, ""] | Shaped[ArrayLike, "n n"],
           allow_singular: bool | None = None) -> Float[Array, "*batch"]:
    """Log density at ``x`` (``(..., n)``) of N(mean, cov), through the Cholesky factor of
    ``cov`` (``(n, n)``, or a scalar for an isotropic covariance, as JAX); a scalar ``mean``
    is the univariate normal of variance ``cov``, as JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> logpdf(fnp.asarray([1.0, 0.0]), fnp.zeros(2), fnp.eye(2))
        Array(-2.33787707, dtype=float64)
    """
    if allow_singular is not None:
        raise NotImplementedError("multivariate_normal.logpdf: allow_singular is not supported "
                                  "(as jax.scipy.stats.multivariate_normal); pass None")
    x, mean, cov = promote(x, mean, cov)
    if mean.ndim == 0:  # JAX: the univariate density
        return -0.5 * fnp.square(x - mean) / cov - 0.5 * (math.log(2.0 * math.pi) + fnp.log(cov))
    n = mean.shape[-1]
    if cov.ndim == 0:  # an isotropic covariance
        y = x - mean
        return -0.5 * fnp.sum(y * y, axis=-1) / cov - 0.5 * n * (math.log(2.0 * math.pi) + fnp.log(cov))
    if cov.ndim < 2 or cov.shape[-2:] != (n, n):
        raise ValueError(f"multivariate_normal.logpdf got incompatible shapes: cov has shape {cov.shape}, "
                         f"mean has {mean.shape}; cov must be a scalar or ({n}, {n}) to match the mean")
    chol = fnp.linalg.cholesky(cov)
    d = x - mean
    batch = d.shape[:-1]
    cb = fnp.broadcast_to(chol, batch + (n, n)) if batch else chol
    y = triangular_solve(cb, d[..., None], left_side=True, lower=True)[..., 0]
    log_det = fnp.sum(fnp.log(fnp.diagonal(chol, axis1=-2, axis2=-1)), axis=-1)
    return -0.5 * fnp.sum(y * y, axis=-1) - log_det - 0.5 * n * math.log(2.0 * math.pi)


def pdf(x: Shaped[ArrayLike, "*#batch n"], mean: Shaped[ArrayLike, "*#batch n"],
        cov: Shaped[ArrayLike, ""] | Shaped[ArrayLike, "n n"],
        ) -> Float[Array, "*batch"]:
    """Density.

    Example::

        >>> import fgrad.numpy as fnp
        >>> pdf(fnp.zeros(2), fnp.zeros(2), fnp.eye(2))
        Array(0.15915494, dtype=float64)
    """
    return fnp.exp(logpdf(x, mean, cov))


__all__ = ["logpdf", "pdf"]
