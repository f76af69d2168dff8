"""The chi-squared distribution (``jax.scipy.stats.chi2``): a gamma with shape ``df/2``
and scale 2.

Example::

    >>> from fgrad.scipy.stats import chi2
    >>> chi2.cdf(2.0, 2.0)
    Array(0.63212056, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from . import gamma as _gamma
from ._util import promote


def _args(x, df, loc, scale):
    x, df, loc, scale = promote(x, df, loc, scale)
    return x, 0.5 * df, loc, 2.0 * scale


def logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density.

    Example::

        >>> logpdf(2.0, 2.0)
        Array(-1.69314718, dtype=float64, weak_type=True)
    """
    return _gamma.logpdf(*_args(x, df, loc, scale))


def pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(2.0, 2.0)
        Array(0.18393972, dtype=float64, weak_type=True)
    """
    return _gamma.pdf(*_args(x, df, loc, scale))


def cdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF.

    Example::

        >>> cdf(2.0, 2.0)
        Array(0.63212056, dtype=float64, weak_type=True)
    """
    return _gamma.cdf(*_args(x, df, loc, scale))


def logcdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log CDF.

    Example::

        >>> logcdf(2.0, 2.0)
        Array(-0.45867515, dtype=float64, weak_type=True)
    """
    return _gamma.logcdf(*_args(x, df, loc, scale))


def sf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function.

    Example::

        >>> sf(2.0, 2.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return _gamma.sf(*_args(x, df, loc, scale))


def logsf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log survival function.

    Example::

        >>> logsf(2.0, 2.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    return _gamma.logsf(*_args(x, df, loc, scale))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
