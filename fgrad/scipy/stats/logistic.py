"""The logistic distribution (``jax.scipy.stats.logistic``).

Example::

    >>> from fgrad.scipy.stats import logistic
    >>> logistic.cdf(0.0)
    Array(0.5, dtype=float64, weak_type=True)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import quantile, standardized


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Log density ``-|z| - 2 log1p(exp(-|z|)) - log(scale)``.

    Example::

        >>> logpdf(0.0)
        Array(-1.38629436, dtype=float64, weak_type=True)
    """
    z, scale = standardized(x, loc, scale)
    z = fnp.abs(z)
    return -z - 2.0 * fnp.log1p(fnp.exp(-z)) - fnp.log(scale)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> pdf(0.0)
        Array(0.25, dtype=float64, weak_type=True)
    """
    return fnp.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """CDF ``expit(z)``.

    Example::

        >>> cdf(0.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    z, _ = standardized(x, loc, scale)
    return special.expit(z)


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Survival function ``expit(-z)``.

    Example::

        >>> sf(0.0)
        Array(0.5, dtype=float64, weak_type=True)
    """
    z, _ = standardized(x, loc, scale)
    return special.expit(-z)


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Quantile ``loc + scale logit(q)``.

    Example::

        >>> ppf(0.5)
        Array(0., dtype=float64, weak_type=True)
    """
    return quantile(q, loc, scale, special.logit)


def isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Float[Array, "..."]:
    """Inverse survival function.

    Example::

        >>> isf(0.5)
        Array(0., dtype=float64, weak_type=True)
    """
    return quantile(q, loc, scale, lambda p: -special.logit(p))


__all__ = ["logpdf", "pdf", "cdf", "sf", "ppf", "isf"]
