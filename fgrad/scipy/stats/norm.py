"""The normal distribution (``jax.scipy.stats.norm``).

Example::

    >>> from fgrad.scipy.stats import norm
    >>> norm.cdf(0.0)
    Array(0.5, dtype=float64)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

import math

from ... import numpy as fnp
from .. import special
from ._util import standardized

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density.

    Example::

        >>> logpdf(0.0)
        Array(-0.91893853, dtype=float64, weak_type=True)
    """
    z, scale = standardized(x, loc, scale)
    return -0.5 * z * z - _HALF_LOG_2PI - fnp.log(scale)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0)
        Array(0.39894228, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Cumulative distribution function.

    Example::

        >>> cdf(0.0)
        Array(0.5, dtype=float64)
    """
    z, _ = standardized(x, loc, scale)
    return special.ndtr(z)


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log of the CDF (accurate in the lower tail).

    Example::

        >>> logcdf(0.0)
        Array(-0.69314718, dtype=float64)
    """
    z, _ = standardized(x, loc, scale)
    return special.log_ndtr(z)


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function ``1 - cdf``.

    Example::

        >>> sf(0.0)
        Array(0.5, dtype=float64)
    """
    z, _ = standardized(x, loc, scale)
    return special.ndtr(-z)


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log of the survival function.

    Example::

        >>> logsf(0.0)
        Array(-0.69314718, dtype=float64)
    """
    z, _ = standardized(x, loc, scale)
    return special.log_ndtr(-z)


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Quantile function (inverse CDF).

    Example::

        >>> ppf(0.5)
        Array(0., dtype=float64)
    """
    # JAX's order: ndtri of q as given (an integer q is its TypeError), then the default float
    return fnp.asarray(special.ndtri(q) * scale + loc, float)


def isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Inverse survival function.

    Example::

        >>> isf(0.5)
        Array(0., dtype=float64)
    """
    q = fnp.asarray(q)
    return ppf(1 - q, loc, scale)  # JAX's ppf(1 - q), in the default float


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
