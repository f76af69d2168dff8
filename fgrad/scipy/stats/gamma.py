"""The gamma distribution (``jax.scipy.stats.gamma``): shape ``a``, ``loc``, ``scale``.

Example::

    >>> from fgrad.scipy.stats import gamma
    >>> gamma.pdf(1.0, 1.0)
    Array(0.36787944, dtype=float64)
"""

from __future__ import annotations

from ... import numpy as fnp
from .. import special
from ._util import masked, promote, safe


def logpdf(x, a, loc=0, scale=1):
    """Log density (``-inf`` below ``loc``).

    Example::

        >>> logpdf(1.0, 2.0)
        Array(-1., dtype=float64)
    """
    x, a, loc, scale = promote(x, a, loc, scale)
    y = (x - loc) / scale
    ok = y >= 0
    ys = safe(ok, y)
    val = special.xlogy(a - 1.0, ys) - ys - special.gammaln(a) - fnp.log(scale)
    return masked(ok, val, -fnp.inf)


def pdf(x, a, loc=0, scale=1):
    """Density.

    Example::

        >>> pdf(1.0, 2.0)
        Array(0.36787944, dtype=float64)
    """
    return fnp.exp(logpdf(x, a, loc, scale))


def cdf(x, a, loc=0, scale=1):
    """CDF, ``gammainc(a, (x - loc) / scale)`` (differentiable in x, loc, scale).

    Example::

        >>> cdf(1.0, 1.0)
        Array(0.63212056, dtype=float64)
    """
    x, a, loc, scale = promote(x, a, loc, scale)
    y = fnp.maximum((x - loc) / scale, fnp.zeros_like(x))
    return special.gammainc(a, y)


def logcdf(x, a, loc=0, scale=1):
    """Log CDF.

    Example::

        >>> logcdf(1.0, 1.0)
        Array(-0.45867515, dtype=float64)
    """
    return fnp.log(cdf(x, a, loc, scale))


def sf(x, a, loc=0, scale=1):
    """Survival function.

    Example::

        >>> sf(1.0, 1.0)
        Array(0.36787944, dtype=float64)
    """
    x, a, loc, scale = promote(x, a, loc, scale)
    y = fnp.maximum((x - loc) / scale, fnp.zeros_like(x))
    return special.gammaincc(a, y)


def logsf(x, a, loc=0, scale=1):
    """Log survival function.

    Example::

        >>> logsf(1.0, 1.0)
        Array(-1., dtype=float64)
    """
    return fnp.log(sf(x, a, loc, scale))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
