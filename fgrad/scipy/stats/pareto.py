"""The Pareto distribution (``jax.scipy.stats.pareto``): shape ``b``, support ``y >= 1``.

Example::

    >>> from fgrad.scipy.stats import pareto
    >>> pareto.cdf(2.0, 1.0)
    Array(0.5, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from ._util import masked, promote, safe


def _y(x, b, loc, scale):
    x, b, loc, scale = promote(x, b, loc, scale)
    y = (x - loc) / scale
    ok = y >= 1
    return safe(ok, y), ok, b, scale


def logpdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density ``log b - log scale - (b + 1) log y`` (``-inf`` below 1).

    Example::

        >>> logpdf(1.0, 2.0)
        Array(0.69314718, dtype=float64, weak_type=True)
    """
    y, ok, b, scale = _y(x, b, loc, scale)
    return masked(ok, fnp.log(b) - fnp.log(scale) - (b + 1.0) * fnp.log(y), -fnp.inf)


def pdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(1.0, 2.0)
        Array(2., dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, b, loc, scale))


def logsf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log survival function ``-b log y`` (0 below the support).

    Example::

        >>> logsf(1.0, 2.0)
        Array(-0., dtype=float64, weak_type=True)
    """
    y, ok, b, _ = _y(x, b, loc, scale)
    return masked(ok, -b * fnp.log(y), 0.0)


def sf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function ``y^-b``.

    Example::

        >>> sf(2.0, 1.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    return fnp.exp(logsf(x, b, loc, scale))


def cdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF ``1 - y^-b``.

    Example::

        >>> cdf(2.0, 1.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    return -fnp.expm1(logsf(x, b, loc, scale))


def logcdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log CDF.

    Example::

        >>> logcdf(2.0, 1.0)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    y, ok, b, _ = _y(x, b, loc, scale)
    inside = ok & (y > 1)
    return masked(inside, fnp.log(-fnp.expm1(-b * fnp.log(safe(inside, y, 2.0)))), -fnp.inf)


def ppf(q: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Quantile ``loc + scale (1 - q)^(-1/b)``.

    Example::

        >>> ppf(0.5, 1.0)
        Array(2., dtype=float64, weak_type=True)
    """
    q, b, loc, scale = promote(q, b, loc, scale)
    ok = (q >= 0) & (q <= 1)
    return masked(ok | fnp.isnan(q), loc + scale * fnp.exp(-fnp.log1p(-safe(ok, q, 0.5)) / b), fnp.nan)


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"]
