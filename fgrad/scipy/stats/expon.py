"""The exponential distribution (``jax.scipy.stats.expon``).

Example::

    >>> from fgrad.scipy.stats import expon
    >>> expon.pdf(0.0)
    Array(1., dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from ._util import log1mexp, masked, promote, quantile, safe, standardized


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density ``-z - log(scale)`` for ``z >= 0`` (``-inf`` below).

    Example::

        >>> logpdf(1.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    z, scale = standardized(x, loc, scale)
    ok = ~(z < 0)  # NaN stays NaN, as JAX
    return masked(ok, -safe(ok, z) - fnp.log(scale), -fnp.inf)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(1.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF ``-expm1(-z)`` (0 below ``loc``).

    Example::

        >>> cdf(1.0)
        Array(0.63212056, dtype=float64, weak_type=True)
    """
    z, _ = standardized(x, loc, scale)
    ok = ~(z < 0)
    return masked(ok, -fnp.expm1(-safe(ok, z)), 0.0)


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log CDF.

    Example::

        >>> logcdf(1.0)
        Array(-0.45867515, dtype=float64, weak_type=True)
    """
    z, _ = standardized(x, loc, scale)
    ok = ~(z <= 0)
    return masked(ok, log1mexp(safe(ok, z)), -fnp.inf)


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function ``exp(-z)`` (1 below ``loc``).

    Example::

        >>> sf(1.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return fnp.exp(logsf(x, loc, scale))


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log survival function ``-z`` (0 below ``loc``).

    Example::

        >>> logsf(1.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    z, _ = standardized(x, loc, scale)
    ok = ~(z < 0)  # NaN stays NaN, as JAX
    return masked(ok, -safe(ok, z), 0.0)


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Quantile ``loc - scale log1p(-q)``.

    Example::

        >>> ppf(0.0)
        Array(0., dtype=float64, weak_type=True)
    """
    q, loc, scale = promote(q, loc, scale)
    ok = (q >= 0) & (q <= 1)  # NaN outside [0, 1] (as JAX), with zero gradients there
    val = quantile(safe(ok, q, 0.5), loc, scale, lambda p: -fnp.log1p(-p))
    return masked(ok, val, fnp.nan)


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"]
