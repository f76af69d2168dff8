"""The Cauchy distribution (``jax.scipy.stats.cauchy``).

Example::

    >>> from fgrad.scipy.stats import cauchy
    >>> cauchy.cdf(1.0)
    Array(0.75, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

import math

from ... import numpy as fnp
from ._util import quantile, standardized


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density ``-log(pi scale) - log1p(z^2)``.

    Example::

        >>> logpdf(0.0)
        Array(-1.14472989, dtype=float64, weak_type=True)
    """
    z, scale = standardized(x, loc, scale)
    return -math.log(math.pi) - fnp.log(scale) - fnp.log1p(z * z)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0)
        Array(0.31830989, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF ``1/2 + atan(z) / pi``.

    Example::

        >>> cdf(0.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    z, _ = standardized(x, loc, scale)
    return 0.5 + fnp.arctan(z) / math.pi


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log CDF.

    Example::

        >>> logcdf(0.0)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    return fnp.log(cdf(x, loc, scale))


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function.

    Example::

        >>> sf(1.0)
        Array(0.25, dtype=float64, weak_type=True)
    """
    z, _ = standardized(x, loc, scale)
    return 0.5 - fnp.arctan(z) / math.pi


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log survival function.

    Example::

        >>> logsf(0.0)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    return fnp.log(sf(x, loc, scale))


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Quantile ``loc + scale tan(pi (q - 1/2))``.

    Example::

        >>> ppf(0.5)
        Array(0., dtype=float64, weak_type=True)
    """
    return quantile(q, loc, scale, lambda p: fnp.tan(math.pi * (p - 0.5)))


def isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Inverse survival function.

    Example::

        >>> isf(0.5)
        Array(0., dtype=float64, weak_type=True)
    """
    return quantile(q, loc, scale, lambda p: fnp.tan(math.pi * (0.5 - p)))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
