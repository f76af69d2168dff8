"""The right-skewed Gumbel distribution (``jax.scipy.stats.gumbel_r``): ``z = (x - loc) /
scale``, ``cdf = exp(-exp(-z))``; NaN for ``scale <= 0``.

Example::

    >>> from fgrad.scipy.stats import gumbel_r
    >>> gumbel_r.cdf(0.0)
    Array(0.36787944, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from ._util import log1mexp, masked, promote, standardized


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density ``-z - exp(-z) - log(scale)``.

    Example::

        >>> logpdf(0.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    z, scale = standardized(x, loc, scale)
    return masked(scale > 0, -z - fnp.exp(-z) - fnp.log(scale), fnp.nan)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, loc, scale))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log of the CDF, ``-exp(-z)``.

    Example::

        >>> logcdf(0.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    z, scale = standardized(x, loc, scale)
    return masked(scale > 0, -fnp.exp(-z), fnp.nan)


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF ``exp(-exp(-z))``.

    Example::

        >>> cdf(0.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return fnp.exp(logcdf(x, loc, scale))


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function ``1 - exp(-exp(-z))``: as ``-expm1`` where ``exp(-z) <= 1`` (accurate
    in the right tail), as written left of the mode, where ``expm1``'s derivative ``y + 1``
    would cancel to 0 in float32 (the true one is ``exp(-exp(-z))``).

    Example::

        >>> sf(0.0)
        Array(0.63212056, dtype=float64, weak_type=True)
    """
    z, scale = standardized(x, loc, scale)
    e = fnp.exp(-z)
    val = fnp.where(e > 1, 1.0 - fnp.exp(-e), -fnp.expm1(-e))
    return masked(scale > 0, val, fnp.nan)


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log of the survival function.

    Example::

        >>> logsf(0.0)
        Array(-0.45867515, dtype=float64, weak_type=True)
    """
    z, scale = standardized(x, loc, scale)
    return masked(scale > 0, log1mexp(fnp.exp(-z)), fnp.nan)


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Quantile ``loc - scale log(-log q)`` (``-inf`` at 0, ``inf`` at 1, as SciPy).

    Example::

        >>> ppf(0.5)
        Array(0.36651292, dtype=float64, weak_type=True)
    """
    q, loc, scale = promote(q, loc, scale)
    return masked(scale > 0, loc - scale * fnp.log(-fnp.log(q)), fnp.nan)

__all__ = ["logpdf", "pdf", "logcdf", "cdf", "sf", "logsf", "ppf"]
