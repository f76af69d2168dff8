"""The gamma distribution (``jax.scipy.stats.gamma``): shape ``a``, ``loc``, ``scale``.

Example::

    >>> from fgrad.scipy.stats import gamma
    >>> gamma.pdf(1.0, 1.0)
    Array(0.36787944, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import clamp, masked, promote, safe


def logpdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density (``-inf`` below ``loc``).

    Example::

        >>> logpdf(1.0, 2.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    x, a, loc, scale = promote(x, a, loc, scale)
    y = (x - loc) / scale
    ok = y >= 0
    ys = safe(ok, y)
    val = special.xlogy(a - 1.0, ys) - ys - special.gammaln(a) - fnp.log(scale)
    return masked(ok, val, -fnp.inf)


def pdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(1.0, 2.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, a, loc, scale))


def cdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF, ``gammainc(a, (x - loc) / scale)`` (differentiable in x, loc, scale).

    Example::

        >>> cdf(1.0, 1.0)
        Array(0.63212056, dtype=float64, weak_type=True)
    """
    x, a, loc, scale = promote(x, a, loc, scale)
    return special.gammainc(a, clamp(0.0, (x - loc) / scale, fnp.inf))


def logcdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log CDF.

    Example::

        >>> logcdf(1.0, 1.0)
        Array(-0.45867515, dtype=float64, weak_type=True)
    """
    return fnp.log(cdf(x, a, loc, scale))


def sf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function.

    Example::

        >>> sf(1.0, 1.0)
        Array(0.36787944, dtype=float64, weak_type=True)
    """
    x, a, loc, scale = promote(x, a, loc, scale)
    return special.gammaincc(a, clamp(0.0, (x - loc) / scale, fnp.inf))


def logsf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log survival function.

    Example::

        >>> logsf(1.0, 1.0)
        Array(-1., dtype=float64, weak_type=True)
    """
    return fnp.log(sf(x, a, loc, scale))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
