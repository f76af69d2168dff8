"""The uniform distribution on ``[loc, loc + scale]`` (``jax.scipy.stats.uniform``).

Example::

    >>> from fgrad.scipy.stats import uniform
    >>> uniform.pdf(0.5)
    Array(1., dtype=float64)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from ._util import promote, standardized


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density ``-log(scale)`` on the interval, ``-inf`` outside.

    Example::

        >>> logpdf(0.5, 0.0, 2.0)
        Array(-0.69314718, dtype=float64)
    """
    x, loc, scale = promote(x, loc, scale)
    val = -fnp.log(scale) + 0.0 * x
    return fnp.where((x >= loc) & (x <= loc + scale), val, -fnp.inf)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(2.0)
        Array(0., dtype=float64)
    """
    return fnp.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF, ``(x - loc) / scale`` clipped to [0, 1].

    Example::

        >>> cdf(0.25)
        Array(0.25, dtype=float64)
    """
    z, _ = standardized(x, loc, scale)
    return fnp.clip(z, 0.0, 1.0)


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Quantile ``loc + q scale`` (NaN outside [0, 1]).

    Example::

        >>> ppf(0.25, 1.0, 2.0)
        Array(1.5, dtype=float64)
    """
    q, loc, scale = promote(q, loc, scale)
    return fnp.where((q >= 0) & (q <= 1), loc + q * scale, fnp.nan)


__all__ = ["logpdf", "pdf", "cdf", "ppf"]
