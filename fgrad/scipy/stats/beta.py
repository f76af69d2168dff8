"""The beta distribution (``jax.scipy.stats.beta``).

Example::

    >>> from fgrad.scipy.stats import beta
    >>> beta.pdf(0.5, 2.0, 2.0)
    Array(1.5, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import clamp, masked, promote, safe


def logpdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
           scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density (``-inf`` outside ``[loc, loc + scale]``).

    Example::

        >>> logpdf(0.5, 2.0, 2.0)
        Array(0.40546511, dtype=float64, weak_type=True)
    """
    x, a, b, loc, scale = promote(x, a, b, loc, scale)
    y = (x - loc) / scale
    ok = ~((y < 0) | (y > 1))  # NaN stays NaN, as JAX
    ys = safe(ok, y, 0.5)
    val = (special.xlogy(a - 1.0, ys) + special.xlog1py(b - 1.0, -ys) - special.betaln(a, b)
           - fnp.log(scale))
    return masked(ok, val, -fnp.inf)


def pdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
        scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.5, 2.0, 2.0)
        Array(1.5, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, a, b, loc, scale))


def cdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
        scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF, ``betainc(a, b, y)`` (differentiable in x, loc, scale).

    Example::

        >>> cdf(0.5, 2.0, 2.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    x, a, b, loc, scale = promote(x, a, b, loc, scale)
    return special.betainc(a, b, clamp(0.0, (x - loc) / scale, 1.0))


def logcdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
           scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log CDF.

    Example::

        >>> logcdf(0.5, 2.0, 2.0)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    return fnp.log(cdf(x, a, b, loc, scale))


def sf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
       scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function, ``betainc(b, a, 1 - y)``.

    Example::

        >>> sf(0.5, 2.0, 2.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    x, a, b, loc, scale = promote(x, a, b, loc, scale)
    return special.betainc(b, a, 1.0 - clamp(0.0, (x - loc) / scale, 1.0))


def logsf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0,
          scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log survival function.

    Example::

        >>> logsf(0.5, 2.0, 2.0)
        Array(-0.69314718, dtype=float64, weak_type=True)
    """
    return fnp.log(sf(x, a, b, loc, scale))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
